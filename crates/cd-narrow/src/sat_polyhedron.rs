//! SAT with a minimum translation vector for two convex polyhedra, with Gauss-map pruning of
//! edge pairs, and their contact manifold by face clipping.
//!
//! Candidate axes are the face normals of both hulls and the cross products of edge pairs. Of
//! the `E_A · E_B` edge pairs only those whose arcs intersect on the Gauss map form a face of
//! the Minkowski difference (Gregorius, "The Separating Axis Test between Convex Polyhedra",
//! GDC 2013): the test costs four dot products and removes almost all pairs, and the remaining
//! axes give the exact minimum translation, because every face of A − B is one of these
//! candidates. Face axes use hill-climbing support queries on the other hull. The edge table
//! (each edge with its two faces) is built once with the hull ([`ConvexPolyhedron::edges`]).
//!
//! The query works in A's local frame (B is brought over by the relative pose once), and the
//! axis that decided the previous query is tried first ([`HullSatCache`]).
//!
//! Contact points: the face of the other hull most anti-parallel to the normal is clipped
//! against the side planes of the reference face (Sutherland–Hodgman), as for boxes; an edge
//! pair gives the closest points of the two edges. The clipping allocates nothing: a face with
//! more than 16 vertices stands in by an evenly spread subset of them (a polygon inside the
//! face, so no point is invented), as the support-feature manifolds do.

use cd_geom::{closest_points_between_segments, ConvexPolyhedron, Point, Real, Vector};
use nalgebra::Isometry3;

use crate::clip::{evenly_spread, ClipPolygon, FACE_CLIP_CAPACITY, MAX_FACE_POINTS};
use crate::manifold::{Candidates, Manifold, ManifoldPoint};

/// A hull placed in the world: the hull in its local frame and its pose.
#[derive(Clone, Copy, Debug)]
pub struct PlacedHull<'a, T: Real> {
    /// The hull in its local frame.
    pub hull: &'a ConvexPolyhedron<T>,
    /// Local-to-world pose.
    pub pose: &'a Isometry3<T>,
}

/// Which candidate axis decided a [`hull_hull_sat`] query.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HullFeature {
    /// Face `i` of A.
    FaceA(usize),
    /// Face `j` of B.
    FaceB(usize),
    /// Edge `i` of A and edge `j` of B (indices into [`ConvexPolyhedron::edges`]).
    Edges(usize, usize),
}

/// The result of [`hull_hull_sat`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HullSat<T: Real> {
    /// Largest separation over the candidate axes: positive when disjoint (a lower bound on
    /// the distance), minus the exact penetration depth when overlapping.
    pub separation: T,
    /// Unit axis of that separation, from A towards B, in world space.
    pub normal: Vector<T, 3>,
    /// Which axis.
    pub feature: HullFeature,
}

/// The axis of the previous query on the same pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HullSatCache {
    feature: Option<HullFeature>,
}

/// Both hulls in A's local frame, with B's vertices and face normals transformed once (every
/// axis test then costs dot and cross products only).
struct Pair<'a, T: Real> {
    a: &'a ConvexPolyhedron<T>,
    b: &'a ConvexPolyhedron<T>,
    /// B's vertices in A's frame.
    vb: Vec<Point<T, 3>>,
    /// B's outward face normals in A's frame.
    nb: Vec<Vector<T, 3>>,
}

impl<'a, T: Real> Pair<'a, T> {
    fn new(a: &PlacedHull<'a, T>, b: &PlacedHull<'a, T>) -> Self {
        let rel = a.pose.inv_mul(b.pose);
        Pair {
            a: a.hull,
            b: b.hull,
            vb: b.hull.vertices().iter().map(|p| rel * p).collect(),
            nb: b.hull.faces().iter().map(|f| rel.rotation * f.plane.normal()).collect(),
        }
    }

    /// Separation along A's face `i`: how far B's deepest point lies outside the face plane.
    fn face_a(&self, i: usize) -> (T, Vector<T, 3>) {
        let plane = &self.a.faces()[i].plane;
        let n = *plane.normal();
        let deepest = self.vb.iter().fold(T::infinity(), |m, p| m.min(n.dot(&p.coords)));
        (deepest + plane.d(), n)
    }

    /// Separation along B's face `j` (normal in A's frame, pointing from A to B: −B's normal).
    fn face_b(&self, j: usize) -> (T, Vector<T, 3>) {
        let n = self.nb[j];
        let offset = n.dot(&self.vb[self.b.face_vertices(&self.b.faces()[j])[0] as usize].coords);
        // B lies in n·x ≤ offset; A's point deepest towards B is its support along −n.
        let p = self.a.vertices()[self.a.support_index(&-n, 0)];
        (n.dot(&p.coords) - offset, -n)
    }

    /// Separation along edge pair `(i, j)` when it forms a face of the Minkowski difference.
    fn edges(&self, i: usize, j: usize) -> Option<(T, Vector<T, 3>)> {
        let (ea, eb) = (&self.a.edges()[i], &self.b.edges()[j]);
        let ([a0, a1], [fa0, fa1]) = (ea.vertices, ea.faces);
        let ([b0, b1], [fb0, fb1]) = (eb.vertices, eb.faces);
        let na = |f: u32| *self.a.faces()[f as usize].plane.normal();
        // Gauss map: arc (a, b) of A and arc (−c, −d) of B must cross.
        let (a, b) = (na(fa0), na(fa1));
        let (c, d) = (-self.nb[fb0 as usize], -self.nb[fb1 as usize]);
        let bxa = b.cross(&a);
        let dxc = d.cross(&c);
        let (cba, dba, adc, bdc) = (c.dot(&bxa), d.dot(&bxa), a.dot(&dxc), b.dot(&dxc));
        if !(cba * dba < T::zero() && adc * bdc < T::zero() && cba * bdc > T::zero()) {
            return None;
        }
        let pa = self.a.vertices()[a0 as usize];
        let ea = self.a.vertices()[a1 as usize] - pa;
        let pb = self.vb[b0 as usize];
        let eb = self.vb[b1 as usize] - pb;
        let l = ea.cross(&eb);
        let len = l.norm();
        if len <= T::epsilon().sqrt() * ea.norm() * eb.norm() {
            return None;
        }
        let mut n = l / len;
        // Orient away from A (A's vertex mean is inside A).
        if n.dot(&(pa - self.a.vertex_mean())) < T::zero() {
            n = -n;
        }
        Some((n.dot(&(pb - pa)), n))
    }

    fn axis(&self, f: HullFeature) -> Option<(T, Vector<T, 3>)> {
        match f {
            HullFeature::FaceA(i) => Some(self.face_a(i)),
            HullFeature::FaceB(j) => Some(self.face_b(j)),
            HullFeature::Edges(i, j) => self.edges(i, j),
        }
    }
}

/// SAT between two placed hulls. Stops at the first axis separating them by more than
/// `prediction`. Face axes win ties against edge axes (stable manifolds for resting contact).
pub fn hull_hull_sat<T: Real>(
    a: &PlacedHull<'_, T>,
    b: &PlacedHull<'_, T>,
    prediction: T,
    cache: &mut HullSatCache,
) -> HullSat<T> {
    let pair = Pair::new(a, b);
    let world = |n: Vector<T, 3>| a.pose.rotation * n;
    let valid = |f: HullFeature| match f {
        HullFeature::FaceA(i) => i < pair.a.faces().len(),
        HullFeature::FaceB(j) => j < pair.b.faces().len(),
        HullFeature::Edges(i, j) => i < pair.a.edges().len() && j < pair.b.edges().len(),
    };
    if let Some(f) = cache.feature.filter(|&f| valid(f)) {
        if let Some((sep, n)) = pair.axis(f) {
            if sep > prediction {
                return HullSat { separation: sep, normal: world(n), feature: f };
            }
        }
    }
    let scale =
        pair.a.vertices().iter().chain(pair.b.vertices()).fold(T::zero(), |m, p| m.max(p.coords.amax()));
    let bias = T::epsilon() * T::lit(64.0) * scale;
    let mut best: Option<(T, Vector<T, 3>, HullFeature)> = None;
    let faces_a = (0..pair.a.faces().len()).map(HullFeature::FaceA);
    let faces_b = (0..pair.b.faces().len()).map(HullFeature::FaceB);
    let (na, nb) = (pair.a.edges().len(), pair.b.edges().len());
    let edge_pairs = (0..na).flat_map(|i| (0..nb).map(move |j| HullFeature::Edges(i, j)));
    for f in faces_a.chain(faces_b).chain(edge_pairs) {
        let Some((sep, n)) = pair.axis(f) else { continue };
        if sep > prediction {
            cache.feature = Some(f);
            return HullSat { separation: sep, normal: world(n), feature: f };
        }
        let later = matches!(f, HullFeature::Edges(..))
            || matches!((f, best), (HullFeature::FaceB(_), Some((_, _, HullFeature::FaceA(_)))));
        if best.is_none_or(|(s, _, _)| sep > s + if later { bias } else { T::zero() }) {
            best = Some((sep, n, f));
        }
    }
    let (sep, n, f) = best.unwrap_or((T::zero(), Vector::z(), HullFeature::FaceA(0)));
    cache.feature = Some(f);
    HullSat { separation: sep, normal: world(n), feature: f }
}

/// The contact manifold of two placed hulls (empty when farther apart than `prediction`).
/// Returns SAT's separation.
///
/// For a pair apart (a positive separation, within `prediction`) the points are pairs along
/// SAT's axis, which only bounds the gap from below: they can miss the closest pair, or be
/// none. [`manifold`](fn@crate::manifold) joins the exact contact to them then.
pub fn hull_hull_manifold<T: Real>(
    a: &PlacedHull<'_, T>,
    b: &PlacedHull<'_, T>,
    prediction: T,
    cache: &mut HullSatCache,
    out: &mut Manifold<T, 3>,
) -> T {
    out.clear();
    let sat = hull_hull_sat(a, b, prediction, cache);
    if sat.separation > prediction {
        return sat.separation;
    }
    out.normal = sat.normal;
    match sat.feature {
        HullFeature::FaceA(i) => clip(a, b, i, sat.normal, prediction, false, out),
        HullFeature::FaceB(j) => clip(b, a, j, -sat.normal, prediction, true, out),
        HullFeature::Edges(i, j) => {
            let edge = |h: &PlacedHull<'_, T>, k: usize| {
                let [v0, v1] = h.hull.edges()[k].vertices;
                (h.pose * h.hull.vertices()[v0 as usize], h.pose * h.hull.vertices()[v1 as usize])
            };
            let (pa, qa) = edge(a, i);
            let (pb, qb) = edge(b, j);
            let (cp, _, _) = closest_points_between_segments(&pa, &qa, &pb, &qb);
            let id = (1 << 31) | ((i as u32 & 0x7fff) << 15) | (j as u32 & 0x7fff);
            out.push(ManifoldPoint {
                point_a: cp.a,
                point_b: cp.b,
                distance: sat.normal.dot(&(cp.b - cp.a)),
                id,
            });
        }
    }
    sat.separation
}

/// The manifold of two placed hulls for a contact normal found elsewhere (EPA or GJK, for hulls
/// too large for the quadratic edge-pair SAT): the face of A most aligned with `normal` and
/// the face of B most opposed to it compete as reference face (the better aligned wins), the
/// other hull's face is clipped against it.
pub fn hull_hull_manifold_along<T: Real>(
    a: &PlacedHull<'_, T>,
    b: &PlacedHull<'_, T>,
    normal: &Vector<T, 3>,
    prediction: T,
    out: &mut Manifold<T, 3>,
) {
    out.clear();
    out.normal = *normal;
    let best = |h: &PlacedHull<'_, T>, d: &Vector<T, 3>| {
        h.hull.faces().iter().enumerate().fold((0, -T::infinity()), |(bi, bd), (k, f)| {
            let x = d.dot(&(h.pose.rotation * f.plane.normal()));
            if x > bd {
                (k, x)
            } else {
                (bi, bd)
            }
        })
    };
    let (fa, da) = best(a, normal);
    let (fb, db) = best(b, &-normal);
    if da >= db {
        clip(a, b, fa, *normal, prediction, false, out);
    } else {
        clip(b, a, fb, -normal, prediction, true, out);
    }
}

/// Clips the face of `inc` most anti-parallel to `n` (world, from `reference` to `inc`) against
/// the side planes of `reference`'s face `f`. `flip`: the reference hull is B. Either face
/// keeps at most [`MAX_FACE_POINTS`] evenly spread vertices.
fn clip<T: Real>(
    reference: &PlacedHull<'_, T>,
    inc: &PlacedHull<'_, T>,
    f: usize,
    n: Vector<T, 3>,
    prediction: T,
    flip: bool,
    out: &mut Manifold<T, 3>,
) {
    let rf = &reference.hull.faces()[f];
    let ref_ids = reference.hull.face_vertices(rf);
    let mut ref_pts = [Point::origin(); MAX_FACE_POINTS];
    let mut ref_len = 0;
    for k in evenly_spread(ref_ids.len(), MAX_FACE_POINTS) {
        ref_pts[ref_len] = reference.pose * reference.hull.vertices()[ref_ids[k] as usize];
        ref_len += 1;
    }
    let ref_pts = &ref_pts[..ref_len];
    let ref_normal = reference.pose.rotation * rf.plane.normal();
    // Incident face: outward normal most opposed to n.
    let (g, _) = inc.hull.faces().iter().enumerate().fold((0, T::infinity()), |(bi, bd), (k, face)| {
        let d = n.dot(&(inc.pose.rotation * face.plane.normal()));
        if d < bd {
            (k, d)
        } else {
            (bi, bd)
        }
    });
    let ig = &inc.hull.faces()[g];
    let inc_ids = inc.hull.face_vertices(ig);
    let mut poly = ClipPolygon::<T, FACE_CLIP_CAPACITY>::new();
    for k in evenly_spread(inc_ids.len(), MAX_FACE_POINTS) {
        poly.push((inc.pose * inc.hull.vertices()[inc_ids[k] as usize], k as u32));
    }
    let centre = ref_pts.iter().fold(Vector::zeros(), |s, p| s + p.coords) / T::lit(ref_pts.len() as f64);
    for e in 0..ref_pts.len() {
        let (p, q) = (ref_pts[e], ref_pts[(e + 1) % ref_pts.len()]);
        let side = outward_side(&p, &q, &ref_normal, &centre);
        poly.clip(&side, side.dot(&p.coords), e as u32);
        if poly.is_empty() {
            return;
        }
    }
    let plane_d = ref_normal.dot(&ref_pts[0].coords);
    let base = (u32::from(flip) << 30) | ((f as u32 & 0x3ff) << 20) | ((g as u32 & 0x3ff) << 10);
    let mut candidates = Candidates::<T, FACE_CLIP_CAPACITY>::new();
    for &(p, id) in poly.as_slice() {
        // Height above the reference face: the point's signed distance along the normal.
        let z = ref_normal.dot(&p.coords) - plane_d;
        if z <= prediction {
            let on_ref = p - ref_normal * z;
            let (point_a, point_b) = if flip { (p, on_ref) } else { (on_ref, p) };
            candidates.push(ManifoldPoint { point_a, point_b, distance: z, id: base | (id & 0x3ff) });
        }
    }
    out.reduce(candidates.as_slice());
}

/// The normal of the side plane through the face edge `p q` (the face's normal `n`, its
/// centre `centre`), pointing away from the face.
pub(crate) fn outward_side<T: Real>(
    p: &Point<T, 3>,
    q: &Point<T, 3>,
    n: &Vector<T, 3>,
    centre: &Vector<T, 3>,
) -> Vector<T, 3> {
    let side = (q - p).cross(n);
    if side.dot(&(p.coords - centre)) < T::zero() {
        -side
    } else {
        side
    }
}
