//! Contact manifolds from support features, for every pair without a dedicated manifold
//! routine: box–hull, hull–triangle, capsule–triangle, cylinder–box, shapes resting on a
//! half-space, …
//!
//! One exact contact (GJK/EPA or an analytic test) gives the normal `n`. Each shape then
//! reports its *support feature* along `n` (B along `−n`): the face whose outward normal is
//! within about two degrees of the direction, else an edge perpendicular to it within the same
//! angle, else the single support vertex. Rounded shapes (balls, capsules) report the feature
//! of their core and their radius.
//!
//! * face against anything with two or more points: the other feature is clipped against the
//!   side planes of the face (Sutherland–Hodgman, as for boxes and hulls); the better aligned
//!   of two faces is the reference;
//! * two nearly parallel edges: each keeps the part that overlaps the other;
//! * a vertex on either side: the exact contact alone (the manifold of one point).
//!
//! Each kept point's gap is measured along `n` between the two features and never reported
//! deeper than the exact contact (a feature tilted within the tolerance cannot invent depth);
//! the exact contact itself joins when no kept point is as deep (the incident feature hangs
//! over the reference face's edge, where the deepest point is); points farther apart than
//! the prediction are dropped, and more than four are reduced to the
//! deepest and the three spanning the largest area ([`Manifold::reduce`]). Nothing allocates:
//! features and clipped polygons live in fixed arrays (a hull face with more than
//! [`MAX_FEATURE_POINTS`] vertices keeps an evenly spread subset, a polygon inside the face).

use core::cmp::Ordering;

use cd_geom::{
    Cone, Contact, ConvexPolyhedron, Cylinder, Lozenge, Obb, Point, Real, SupportMap, Triangle, Vector,
};
use nalgebra::Isometry3;

use crate::clip::{evenly_spread, ClipPolygon, FACE_CLIP_CAPACITY, MAX_FACE_POINTS};
use crate::dispatch::Shape;
use crate::manifold::{Candidates, Manifold, ManifoldPoint};
use crate::moved::MovedShape;
use crate::sat_polyhedron::outward_side;
use cd_geom::unit_perpendicular;

/// Most vertices a support feature keeps (cylinder and cone caps are octagons).
const MAX_FEATURE_POINTS: usize = MAX_FACE_POINTS;

/// Room for a feature clipped by up to [`MAX_FEATURE_POINTS`] side planes.
const CLIP_CAPACITY: usize = FACE_CLIP_CAPACITY;

/// Vertices of the polygon standing in for a round cap.
const CAP_POINTS: usize = 8;

/// `cos` of the largest angle between a face's normal and the direction for the face to count
/// (about 1.8°).
fn face_cos<T: Real>() -> T {
    T::lit(0.9995)
}

/// `sin` of the same angle: an edge counts when its direction is this close to perpendicular.
fn edge_sin<T: Real>() -> T {
    T::lit(0.0316)
}

/// A shape's support feature in world space: 1 point (vertex), 2 (edge) or more (face, in
/// order around it), or an unbounded face (a half-space's plane, no points).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Feature<T: Real> {
    points: [Point<T, 3>; MAX_FEATURE_POINTS],
    len: usize,
    /// Outward unit normal when the feature is a face (bounded or not).
    normal: Vector<T, 3>,
    /// A half-space's plane: a face without side planes, `normal·x = offset`.
    unbounded: Option<T>,
    /// Which feature of the shape, for the points' ids.
    id: u32,
}

impl<T: Real> Feature<T> {
    fn empty(id: u32) -> Self {
        Self {
            points: [Point::origin(); MAX_FEATURE_POINTS],
            len: 0,
            normal: Vector::zeros(),
            unbounded: None,
            id,
        }
    }

    fn vertex(p: Point<T, 3>, id: u32) -> Self {
        let mut f = Self::empty(id);
        f.points[0] = p;
        f.len = 1;
        f
    }

    fn edge(p: Point<T, 3>, q: Point<T, 3>, id: u32) -> Self {
        let mut f = Self::vertex(p, id);
        f.points[1] = q;
        f.len = 2;
        f
    }

    /// A face from its vertices in order (an evenly spread subset when there are too many).
    fn face(vertices: impl ExactSizeIterator<Item = Point<T, 3>>, normal: Vector<T, 3>, id: u32) -> Self {
        let mut f = Self::empty(id);
        let mut kept = evenly_spread(vertices.len(), MAX_FEATURE_POINTS).peekable();
        for (k, p) in vertices.enumerate() {
            if kept.next_if_eq(&k).is_some() {
                f.points[f.len] = p;
                f.len += 1;
            }
        }
        f.normal = normal;
        f
    }

    fn points(&self) -> &[Point<T, 3>] {
        &self.points[..self.len]
    }
}

/// The support feature of a convex shape along the unit direction `d` (world space), and the
/// shape's radius around it. `None` for user shapes known only by their support map (their
/// contact stays a single point).
pub(crate) fn support_feature<T: Real>(shape: &Shape<'_, T>, d: &Vector<T, 3>) -> Option<(Feature<T>, T)> {
    Some(match *shape {
        Shape::Ball(b) => (Feature::vertex(*b.center(), 0), b.radius()),
        Shape::Capsule(c) => (segment_feature(c.a(), c.b(), d), c.radius()),
        Shape::Segment(s) => (segment_feature(s.a(), s.b(), d), T::zero()),
        Shape::Box(o) => (box_feature(o, d), T::zero()),
        Shape::Triangle(t) => (triangle_feature(t, d), T::zero()),
        Shape::Cylinder(c) => (cylinder_feature(c, d), T::zero()),
        Shape::Cone(c) => (cone_feature(c, d), T::zero()),
        Shape::Lozenge(l) => (parallelogram_feature(l, d), l.radius()),
        Shape::Polyhedron(p) => (hull_feature(p, &Isometry3::identity(), d), T::zero()),
        Shape::Hull(p, pose) => (hull_feature(p, pose, d), T::zero()),
        Shape::HalfSpace(h) => {
            let mut f = Feature::empty(0);
            f.normal = *h.normal();
            f.unbounded = Some(-h.d());
            (f, T::zero())
        }
        Shape::Convex(..) => return None,
    })
}

/// An edge when the segment is perpendicular to `d` within the tolerance, else its endpoint
/// further along `d`.
fn segment_feature<T: Real>(p: &Point<T, 3>, q: &Point<T, 3>, d: &Vector<T, 3>) -> Feature<T> {
    let e = q - p;
    let along = e.dot(d);
    if along.abs() <= edge_sin::<T>() * e.norm() && e != Vector::<T, 3>::zeros() {
        Feature::edge(*p, *q, 1)
    } else if along > T::zero() {
        Feature::vertex(*q, 3)
    } else {
        Feature::vertex(*p, 2)
    }
}

fn box_feature<T: Real>(o: &Obb<T, 3>, d: &Vector<T, 3>) -> Feature<T> {
    let local = o.vector_to_local(d);
    let h = o.half_extents();
    let sign = |k: usize| if local[k] >= T::zero() { T::one() } else { -T::one() };
    let corner = |s: [T; 3]| o.to_world(&nalgebra::Point3::new(s[0] * h[0], s[1] * h[1], s[2] * h[2]));
    let k = local.iamax();
    if local[k].abs() >= face_cos::<T>() * local.norm() {
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        let mut s = [T::zero(); 3];
        s[k] = sign(k);
        // Around the face: (+,+), (−,+), (−,−), (+,−) in the face's two other axes.
        let around = [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)].map(|(u, v)| {
            s[i] = T::lit(u);
            s[j] = T::lit(v);
            corner(s)
        });
        return Feature::face(
            around.into_iter(),
            o.axis(k) * sign(k),
            8 + 2 * k as u32 + u32::from(local[k] > T::zero()),
        );
    }
    let signs = [sign(0), sign(1), sign(2)];
    let bits = (0..3).fold(0u32, |b, k| b | (u32::from(local[k] > T::zero()) << k));
    for j in 0..3 {
        if local[j].abs() <= edge_sin::<T>() * local.norm() {
            let (mut lo, mut hi) = (signs, signs);
            lo[j] = -T::one();
            hi[j] = T::one();
            return Feature::edge(corner(lo), corner(hi), 16 + 8 * j as u32 + bits);
        }
    }
    Feature::vertex(corner(signs), 48 + bits)
}

fn triangle_feature<T: Real>(t: &Triangle<T, 3>, d: &Vector<T, 3>) -> Feature<T> {
    let v = t.vertices();
    if let Ok(n) = t.normal() {
        let along = n.dot(d);
        if along.abs() >= face_cos::<T>() * d.norm() {
            let n = if along >= T::zero() { n } else { -n };
            return Feature::face(v.into_iter(), n, 1);
        }
    }
    let dots = v.map(|p| d.dot(&p.coords));
    let best = (0..3).fold(0, |b, k| if dots[k] > dots[b] { k } else { b });
    for (i, &(p, q)) in t.edges().iter().enumerate() {
        let e = q - p;
        let other = dots[(i + 2) % 3];
        let supports = e.dot(d).abs() <= edge_sin::<T>() * e.norm()
            && other <= d.dot(&p.coords).max(d.dot(&q.coords))
            && e != Vector::<T, 3>::zeros();
        if supports {
            return Feature::edge(p, q, 2 + i as u32);
        }
    }
    Feature::vertex(v[best], 5 + best as u32)
}

/// The octagon inscribed in a disc (its vertices lie on the rim, so on the shape).
fn cap<T: Real>(
    centre: Point<T, 3>,
    axis: &Vector<T, 3>,
    radius: T,
) -> impl ExactSizeIterator<Item = Point<T, 3>> {
    let p = unit_perpendicular(axis);
    let q = axis.cross(&p);
    (0..CAP_POINTS).map(move |k| {
        let angle = T::lit(core::f64::consts::TAU * k as f64 / CAP_POINTS as f64);
        centre + (p * angle.cos() + q * angle.sin()) * radius
    })
}

/// The unit part of `d` perpendicular to the unit `u`, if it is more than rounding: for `d`
/// along `u` the difference is rounding noise, pointing anywhere (not even perpendicular to
/// `u`), and a rim point taken along it is no support point at all.
fn radial<T: Real>(d: &Vector<T, 3>, u: &Vector<T, 3>) -> Option<Vector<T, 3>> {
    (d - u * d.dot(u)).try_normalize(T::epsilon().sqrt() * d.norm())
}

fn cylinder_feature<T: Real>(c: &Cylinder<T>, d: &Vector<T, 3>) -> Feature<T> {
    let u = c.axis();
    let along = d.dot(&u);
    if along.abs() >= face_cos::<T>() * d.norm() {
        let (centre, n) = if along > T::zero() { (*c.b(), u) } else { (*c.a(), -u) };
        return Feature::face(cap(centre, &n, c.radius()), n, 1 + u32::from(along > T::zero()));
    }
    match radial(d, &u) {
        Some(r) if along.abs() <= edge_sin::<T>() * d.norm() => {
            Feature::edge(c.a() + r * c.radius(), c.b() + r * c.radius(), 3)
        }
        _ => Feature::vertex(c.support(d), 4),
    }
}

fn cone_feature<T: Real>(c: &Cone<T>, d: &Vector<T, 3>) -> Feature<T> {
    let u = c.axis();
    let along = d.dot(&u);
    if along >= face_cos::<T>() * d.norm() {
        return Feature::face(cap(*c.base(), &u, c.radius()), u, 1);
    }
    if along <= -face_cos::<T>() * d.norm() {
        // Towards the apex: no slant edge is across `d` (the nearest are a half-angle away).
        return Feature::vertex(*c.apex(), 3);
    }
    if let Some(r) = radial(d, &u) {
        let rim = c.base() + r * c.radius();
        let slant = rim - c.apex();
        if slant.dot(d).abs() <= edge_sin::<T>() * slant.norm() * d.norm() {
            return Feature::edge(*c.apex(), rim, 2);
        }
    }
    Feature::vertex(c.support(d), 3)
}

/// A lozenge's parallelogram: the face when its normal is within the tolerance of `d`, else
/// an edge perpendicular to `d`, else the corner furthest along `d`.
fn parallelogram_feature<T: Real>(l: &Lozenge<T>, d: &Vector<T, 3>) -> Feature<T> {
    let (o, e0, e1) = (*l.origin(), *l.e0(), *l.e1());
    let corners = [o, o + e0, o + e0 + e1, o + e1];
    if let Some(n) = e0.cross(&e1).try_normalize(T::zero()) {
        let along = n.dot(d);
        if along.abs() >= face_cos::<T>() * d.norm() {
            let n = if along >= T::zero() { n } else { -n };
            return Feature::face(corners.into_iter(), n, 1 + u32::from(along >= T::zero()));
        }
    }
    // The edge along e0 on the side of e1 that `d` favours, and the other way round.
    let (side0, side1) = (
        if d.dot(&e1) > T::zero() { e1 } else { Vector::zeros() },
        if d.dot(&e0) > T::zero() { e0 } else { Vector::zeros() },
    );
    for (k, (e, start)) in [(e0, o + side0), (e1, o + side1)].into_iter().enumerate() {
        if e.dot(d).abs() <= edge_sin::<T>() * e.norm() * d.norm() && e != Vector::<T, 3>::zeros() {
            return Feature::edge(start, start + e, 3 + k as u32);
        }
    }
    let corner = l.core_support(d);
    Feature::vertex(corner, 5)
}

fn hull_feature<T: Real>(h: &ConvexPolyhedron<T>, pose: &Isometry3<T>, d: &Vector<T, 3>) -> Feature<T> {
    let local = pose.rotation.inverse_transform_vector(d);
    let (f, best) = h.faces().iter().enumerate().fold((0, -T::infinity()), |(bf, bd), (k, face)| {
        let x = local.dot(face.plane.normal());
        if x > bd {
            (k, x)
        } else {
            (bf, bd)
        }
    });
    if best >= face_cos::<T>() * local.norm() {
        let face = &h.faces()[f];
        let vertices = h.face_vertices(face).iter().map(|&v| pose * h.vertices()[v as usize]);
        return Feature::face(vertices, pose.rotation * face.plane.normal(), f as u32);
    }
    let v = h.support_index(&local, 0);
    let p = h.vertices()[v];
    for &w in h.neighbors(v) {
        let e = h.vertices()[w as usize] - p;
        if e.dot(&local).abs() <= edge_sin::<T>() * e.norm() * local.norm() {
            return Feature::edge(pose * p, pose * h.vertices()[w as usize], 0x100 | (v as u32 ^ w));
        }
    }
    Feature::vertex(pose * p, 0x180 | v as u32)
}

/// A point pair on the two cores with a feature-local id.
type CorePoints<T> = (Point<T, 3>, Point<T, 3>, u32);

/// Fills `out` with the manifold of `a` and `b` around their exact contact `c` (normal from A
/// to B). Returns `false` when the features give no more than the contact itself (a vertex on
/// either side, crossing edges, user shapes): the caller then keeps the single point.
///
/// The clipping runs on the pair moved so that `c`'s point on A is at the origin
/// ([`crate::moved`]), and the points are moved back: its slack is √ε of the points'
/// coordinates, which far from the origin outgrew the shapes' details (a box/hull manifold's
/// deepest point 0.025 off at 10³–10⁵ in `f32`). Kinds that cannot move stay in place.
pub(crate) fn feature_manifold<T: Real>(
    a: &Shape<'_, T>,
    b: &Shape<'_, T>,
    c: &Contact<T, 3>,
    prediction: T,
    out: &mut Manifold<T, 3>,
) -> bool {
    let by = c.point_a.coords;
    let (Some(moved_a), Some(moved_b)) = (MovedShape::of(a, &by), MovedShape::of(b, &by)) else {
        return clip(a, b, c, prediction, out);
    };
    if !clip(&moved_a.shape(), &moved_b.shape(), &c.translated(&-by), prediction, out) {
        return false;
    }
    let mut back = Manifold::new(out.normal);
    for p in out.points() {
        back.push(ManifoldPoint { point_a: p.point_a + by, point_b: p.point_b + by, ..*p });
    }
    *out = back;
    true
}

/// [`feature_manifold`] where the shapes are.
fn clip<T: Real>(
    a: &Shape<'_, T>,
    b: &Shape<'_, T>,
    c: &Contact<T, 3>,
    prediction: T,
    out: &mut Manifold<T, 3>,
) -> bool {
    let n = c.normal;
    let (Some((fa, ra)), Some((fb, rb))) = (support_feature(a, &n), support_feature(b, &-n)) else {
        return false;
    };
    let mut pairs = [(Point::origin(), Point::origin(), 0u32); CLIP_CAPACITY];
    // Pairs are (point on A's core, point on B's core, id).
    let on_b_face = |pairs: &mut [CorePoints<T>; CLIP_CAPACITY]| {
        clip_against_face(&fb, &fa, &-n, pairs).map(|k| swap_pairs(&mut pairs[..k]))
    };
    let count = if fa.unbounded.is_some() {
        (fb.len >= 2).then(|| clip_against_face(&fa, &fb, &n, &mut pairs)).flatten()
    } else if fb.unbounded.is_some() {
        (fa.len >= 2).then(|| on_b_face(&mut pairs)).flatten()
    } else if fa.len >= 3 && fb.len >= 2 && (fb.len < 3 || fa.normal.dot(&n) >= fb.normal.dot(&-n)) {
        clip_against_face(&fa, &fb, &n, &mut pairs)
    } else if fb.len >= 3 && fa.len >= 2 {
        on_b_face(&mut pairs)
    } else if fa.len == 2 && fb.len == 2 {
        parallel_edges(&fa, &fb, &n, &mut pairs)
    } else {
        None
    };
    let Some(count) = count else { return false };

    // Room for every clipped pair and the exact contact.
    let mut candidates = Candidates::<T, { CLIP_CAPACITY + 1 }>::new();
    let base = (1 << 29) | ((fa.id & 0x1ff) << 19) | ((fb.id & 0x1ff) << 10);
    for &(pa, pb, id) in &pairs[..count] {
        let gap = n.dot(&(pb - pa)) - ra - rb;
        // NaN fails too.
        if !matches!(gap.partial_cmp(&prediction), Some(Ordering::Less | Ordering::Equal)) {
            continue;
        }
        // Never deeper than the exact contact: a face tilted within the tolerance must not
        // invent penetration.
        let gap = if gap < c.distance { c.distance } else { gap };
        let point_a = pa + n * ra;
        candidates.push(ManifoldPoint {
            point_a,
            point_b: point_a + n * gap,
            distance: gap,
            id: base | (id & 0x3ff),
        });
    }
    let Some(first) = candidates.as_slice().first().copied() else {
        return false;
    };
    // The exact contact joins when the clipped features miss it (the deepest point lies where
    // the incident feature hangs over the reference face's edge): the manifold always holds
    // the true deepest point.
    let deepest = candidates.as_slice().iter().fold(T::infinity(), |m, p| m.min(p.distance));
    let spread =
        candidates.as_slice().iter().fold(T::zero(), |m, p| m.max((p.point_a - first.point_a).amax()));
    let tolerance = T::lit(1e-3) * (spread + c.distance.abs())
        + T::epsilon().sqrt() * (T::one() + c.point_a.coords.amax());
    if deepest > c.distance + tolerance {
        candidates.push(ManifoldPoint {
            point_a: c.point_a,
            point_b: c.point_b,
            distance: c.distance,
            id: base | 0x3ff,
        });
    }
    out.clear();
    out.normal = n;
    out.reduce(candidates.as_slice());
    true
}

/// Swaps the two points of every pair (the clip ran with B as the reference face).
fn swap_pairs<T: Real>(pairs: &mut [CorePoints<T>]) -> usize {
    for p in pairs.iter_mut() {
        *p = (p.1, p.0, p.2);
    }
    pairs.len()
}

/// Clips `inc` (an edge or a face, or any feature against a half-space) against the side
/// planes of the face `reference`, whose outward side faces `n`; each surviving point of `inc`
/// is paired with the point of the reference plane it meets along `n`. Pairs are
/// (reference point, incident point, id). `None` when nothing survives.
fn clip_against_face<T: Real>(
    reference: &Feature<T>,
    inc: &Feature<T>,
    n: &Vector<T, 3>,
    out: &mut [CorePoints<T>; CLIP_CAPACITY],
) -> Option<usize> {
    let nr = reference.normal;
    let along = nr.dot(n);
    if along.partial_cmp(&T::zero()) != Some(Ordering::Greater) {
        return None;
    }
    let offset = match reference.unbounded {
        Some(offset) => offset,
        None => nr.dot(&reference.points[0].coords),
    };
    let mut poly = ClipPolygon::<T, CLIP_CAPACITY>::from_points(inc.points().iter().copied(), 0);
    if reference.unbounded.is_none() {
        let rp = reference.points();
        let centre = rp.iter().fold(Vector::zeros(), |s, p| s + p.coords) / T::lit(rp.len() as f64);
        for e in 0..rp.len() {
            let (p, q) = (rp[e], rp[(e + 1) % rp.len()]);
            let side = outward_side(&p, &q, &nr, &centre);
            poly.clip(&side, side.dot(&p.coords), e as u32);
            if poly.is_empty() {
                return None;
            }
        }
    }
    let len = poly.len();
    for (k, &(x, id)) in poly.as_slice().iter().enumerate() {
        let z = nr.dot(&x.coords) - offset;
        out[k] = (x - n * (z / along), x, id);
    }
    Some(len)
}

/// Two edges parallel within the tolerance: B's edge trimmed to the span of A's, each end
/// paired with the closest point of A's line. `None` for crossing edges, no overlap, or edges
/// that do not face each other along `n`.
fn parallel_edges<T: Real>(
    fa: &Feature<T>,
    fb: &Feature<T>,
    n: &Vector<T, 3>,
    out: &mut [CorePoints<T>; CLIP_CAPACITY],
) -> Option<usize> {
    let (a0, a1) = (fa.points[0], fa.points[1]);
    let (b0, b1) = (fb.points[0], fb.points[1]);
    let (ea, eb) = (a1 - a0, b1 - b0);
    let la2 = ea.norm_squared();
    if la2.partial_cmp(&T::zero()) != Some(Ordering::Greater)
        || ea.cross(&eb).norm() > edge_sin::<T>() * ea.norm() * eb.norm()
    {
        return None;
    }
    let t = |p: &Point<T, 3>| (p - a0).dot(&ea) / la2;
    let (t0, t1) = (t(&b0), t(&b1));
    let (lo, hi) = (t0.min(t1).max(T::zero()), t0.max(t1).min(T::one()));
    if lo.partial_cmp(&hi) != Some(Ordering::Less) {
        return None;
    }
    // Points of B's edge at A-parameters lo and hi.
    let on_b = |s: T| b0 + eb * ((s - t0) / (t1 - t0));
    // Each pair must be apart along n, up to the features' angular tolerance over the span:
    // two support edges can be parallel without touching (a triangle nearly face-on to n has
    // more than one edge across n, and its first may lie a whole side away from the contact,
    // on the far side of the other shape's edge), and the gap along n alone would then report
    // two points on nothing.
    let span = ea.norm() * (hi - lo);
    for (k, s) in [lo, hi].into_iter().enumerate() {
        let (pa, pb) = (a0 + ea * s, on_b(s));
        let d = pb - pa;
        let along = n.dot(&d);
        let lateral = (d - n * along).norm();
        let slack =
            edge_sin::<T>() * (span + along.abs()) + T::epsilon().sqrt() * (T::one() + pa.coords.amax());
        // NaN fails too.
        if !matches!(lateral.partial_cmp(&slack), Some(Ordering::Less | Ordering::Equal)) {
            return None;
        }
        out[k] = (pa, pb, k as u32);
    }
    Some(2)
}
