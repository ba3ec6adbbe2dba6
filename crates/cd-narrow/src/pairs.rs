//! Analytic contacts for the common primitive pairs, exact and iteration-free: balls, boxes,
//! capsules, triangles and half-spaces. Each returns `None` when the shapes are farther apart
//! than `prediction` (pass `T::infinity()` for a plain distance query, `0` for touching or
//! penetrating contacts only) and otherwise a [`Contact`] with the crate's conventions.
//!
//! Balls and capsules are a core (point or segment) plus a radius: the contact comes from the
//! cores' closest points, then the radii are added along the normal. When the cores touch or
//! cross, the normal is chosen so that it is still a valid minimum translation (the common
//! perpendicular of crossing segments, the triangle's face normal, the box face nearest the
//! centre); when no direction is better than another (coincident centres, collinear segments)
//! a fixed one is returned with [`ContactStatus::Degenerate`].
//!
//! Half-spaces are [`Plane`]s whose solid side is `n·x + d ≤ 0` (the normal points out of the
//! solid).

use cd_geom::{
    closest_point_on_segment, closest_point_on_triangle, closest_points_between_segments,
    closest_points_segment_triangle, unit_perpendicular, Ball, Capsule, Contact, ContactStatus, Obb, Plane,
    Point, Real, Segment, SupportMap, Triangle, Vector,
};

use crate::convex::{convex_contact, convex_contact_within, ConvexConfig};
use crate::epa::axis;
use crate::gjk::GjkCache;
use crate::manifold::{Manifold, ManifoldPoint};

/// The contact of two cores' closest points `pa`, `pb` grown by radii, with `fallback` as the
/// normal when the cores touch (and `fallback_status` saying how good that normal is).
fn from_core_points<T: Real, const D: usize>(
    pa: Point<T, D>,
    pb: Point<T, D>,
    ra: T,
    rb: T,
    fallback: impl FnOnce() -> (Vector<T, D>, ContactStatus),
) -> Contact<T, D> {
    let d = pb - pa;
    let len = d.norm();
    let tiny = T::epsilon() * T::lit(16.0) * (pa.coords.amax().max(pb.coords.amax()) + ra + rb);
    let (normal, status) = if len > tiny { (d / len, ContactStatus::Converged) } else { fallback() };
    let core_distance = if len > tiny { len } else { T::zero() };
    Contact {
        point_a: pa + normal * ra,
        point_b: pb - normal * rb,
        normal,
        distance: core_distance - ra - rb,
        status,
    }
}

fn within<T: Real, const D: usize>(c: Contact<T, D>, prediction: T) -> Option<Contact<T, D>> {
    (c.distance <= prediction).then_some(c)
}

/// The first coordinate axis: the normal of last resort.
fn x_axis<T: Real, const D: usize>() -> Vector<T, D> {
    axis(0, T::one())
}

/// Ball/ball. Concentric balls get the normal +x and the degenerate status.
#[inline(always)]
pub fn ball_ball_contact<T: Real, const D: usize>(
    a: &Ball<T, D>,
    b: &Ball<T, D>,
    prediction: T,
) -> Option<Contact<T, D>> {
    let d = b.center() - a.center();
    let r = a.radius() + b.radius();
    let dd = d.norm_squared();
    let reach = r + prediction;
    // Farther than the prediction: answered without a square root.
    if reach >= T::zero() && dd > reach * reach {
        return None;
    }
    let len = dd.sqrt();
    // Any direction is a valid normal for concentric balls; only an exact zero needs one.
    let (normal, status) = if len > T::zero() {
        (d / len, ContactStatus::Converged)
    } else {
        (x_axis(), ContactStatus::Degenerate)
    };
    let c = Contact {
        point_a: a.center() + normal * a.radius(),
        point_b: b.center() - normal * b.radius(),
        normal,
        distance: len - r,
        status,
    };
    within(c, prediction)
}

/// Box/ball: the box point closest to the centre, or, with the centre inside the box, the
/// nearest face (the minimum translation of a ball out of a box is through that face).
pub fn obb_ball_contact<T: Real, const D: usize>(
    a: &Obb<T, D>,
    b: &Ball<T, D>,
    prediction: T,
) -> Option<Contact<T, D>> {
    let local = a.to_local(b.center());
    let h = a.half_extents();
    let inside = (0..D).all(|i| local[i].abs() <= h[i]);
    if !inside {
        let clamped = Point::from(Vector::from_fn(|i, _| local[i].clamp(-h[i], h[i])));
        let q = a.to_world(&clamped);
        let c =
            from_core_points(q, *b.center(), T::zero(), b.radius(), || (x_axis(), ContactStatus::Degenerate));
        return within(c, prediction);
    }
    // Inside: leave through the face with the smallest clearance.
    let i = (0..D).fold(0, |m, k| if h[k] - local[k].abs() < h[m] - local[m].abs() { k } else { m });
    let s = if local[i] >= T::zero() { T::one() } else { -T::one() };
    let normal = a.axis(i) * s;
    let clearance = h[i] - local[i].abs();
    let point_a = b.center() + normal * clearance;
    let c = Contact {
        point_a,
        point_b: b.center() - normal * b.radius(),
        normal,
        distance: -clearance - b.radius(),
        status: ContactStatus::Converged,
    };
    within(c, prediction)
}

/// Ball/box: the mirror of [`obb_ball_contact`].
pub fn ball_obb_contact<T: Real, const D: usize>(
    a: &Ball<T, D>,
    b: &Obb<T, D>,
    prediction: T,
) -> Option<Contact<T, D>> {
    obb_ball_contact(b, a, prediction).map(|c| c.flipped())
}

/// Capsule/ball: the axis point closest to the centre.
pub fn capsule_ball_contact<T: Real, const D: usize>(
    a: &Capsule<T, D>,
    b: &Ball<T, D>,
    prediction: T,
) -> Option<Contact<T, D>> {
    let (q, _) = closest_point_on_segment(b.center(), &a.segment());
    let fallback = || (unit_perpendicular(&(a.b() - a.a())), ContactStatus::Degenerate);
    within(from_core_points(q, *b.center(), a.radius(), b.radius(), fallback), prediction)
}

/// Ball/capsule: the mirror of [`capsule_ball_contact`].
pub fn ball_capsule_contact<T: Real, const D: usize>(
    a: &Ball<T, D>,
    b: &Capsule<T, D>,
    prediction: T,
) -> Option<Contact<T, D>> {
    capsule_ball_contact(b, a, prediction).map(|c| c.flipped())
}

/// Capsule/capsule: closest points of the axes; crossing axes are separated along their common
/// perpendicular (oriented from A's centre to B's), parallel touching axes along any
/// perpendicular (degenerate).
pub fn capsule_capsule_contact<T: Real, const D: usize>(
    a: &Capsule<T, D>,
    b: &Capsule<T, D>,
    prediction: T,
) -> Option<Contact<T, D>> {
    let (cp, _, _) = closest_points_between_segments(a.a(), a.b(), b.a(), b.b());
    let fallback = || {
        let (da, db) = (a.b() - a.a(), b.b() - b.a());
        let towards = (b.a().coords + b.b().coords - a.a().coords - a.b().coords) * T::lit(0.5);
        if D == 3 {
            let n = Vector::<T, D>::from_fn(|i, _| {
                let (j, k) = ((i + 1) % 3, (i + 2) % 3);
                da[j] * db[k] - da[k] * db[j]
            });
            if let Some(n) = n.try_normalize(T::epsilon()) {
                let n = if n.dot(&towards) < T::zero() { -n } else { n };
                return (n, ContactStatus::Converged);
            }
        }
        (unit_perpendicular(&da), ContactStatus::Degenerate)
    };
    within(from_core_points(cp.a, cp.b, a.radius(), b.radius(), fallback), prediction)
}

/// Triangle/ball: the triangle point closest to the centre; a centre on the triangle is pushed
/// out along the face normal (to the front side, the side the normal `(b − a) × (c − a)`
/// points to).
pub fn triangle_ball_contact<T: Real>(
    a: &Triangle<T, 3>,
    b: &Ball<T, 3>,
    prediction: T,
) -> Option<Contact<T, 3>> {
    let (q, _, _) = closest_point_on_triangle(b.center(), a);
    let fallback = || match a.normal() {
        Ok(n) => (n, ContactStatus::Converged),
        Err(_) => (x_axis(), ContactStatus::Degenerate),
    };
    within(from_core_points(q, *b.center(), T::zero(), b.radius(), fallback), prediction)
}

/// Ball/triangle: the mirror of [`triangle_ball_contact`].
pub fn ball_triangle_contact<T: Real>(
    a: &Ball<T, 3>,
    b: &Triangle<T, 3>,
    prediction: T,
) -> Option<Contact<T, 3>> {
    triangle_ball_contact(b, a, prediction).map(|c| c.flipped())
}

/// Triangle/capsule: closest points of the triangle and the axis; when the axis pierces the
/// triangle, the penetration comes from EPA on the cores (triangle and segment).
pub fn triangle_capsule_contact<T: Real>(
    a: &Triangle<T, 3>,
    b: &Capsule<T, 3>,
    prediction: T,
) -> Option<Contact<T, 3>> {
    let seg = b.segment();
    // Most separated pairs are decided by the triangle's plane alone, without the exact
    // closest points (three segment pairs, two point projections and a crossing test).
    if prediction >= T::zero() && segment_beyond_triangle_plane(&seg, a, b.radius() + prediction) {
        return None;
    }
    let cp = closest_points_segment_triangle(&seg, a);
    let d = cp.distance();
    let scale = b.a().coords.amax().max(b.b().coords.amax()).max(a.a().coords.amax()) + b.radius();
    if d > T::epsilon() * T::lit(64.0) * scale {
        let c = from_core_points(cp.b, cp.a, T::zero(), b.radius(), || (x_axis(), ContactStatus::Degenerate));
        return within(c, prediction);
    }
    let c =
        convex_contact(a, T::zero(), &seg, b.radius(), &ConvexConfig::default(), &mut GjkCache::default());
    within(c, prediction)
}

/// Whether segment `s` and triangle `tri` are more than `reach` apart along the triangle's
/// normal: their projections on it (all three vertices for the triangle) are separated by more
/// than `reach` times its length. A separating-axis test is sound along any axis, so the
/// normal's own rounding (large on slivers) can only make it reject less often; the slack
/// absorbs the rounding of the projections (a few ulps of the coordinates' magnitude each) and
/// of the squared comparison (a few ulps of `reach`). `false` when anything is not finite.
pub(crate) fn segment_beyond_triangle_plane<T: Real>(
    s: &Segment<T, 3>,
    tri: &Triangle<T, 3>,
    reach: T,
) -> bool {
    let [p, q, r] = tri.vertices();
    let n = (q - p).cross(&(r - p));
    let t = [n.dot(&p.coords), n.dot(&q.coords), n.dot(&r.coords)];
    let (sa, sb) = (n.dot(&s.a().coords), n.dot(&s.b().coords));
    let (tmin, tmax) = (t[0].min(t[1]).min(t[2]), t[0].max(t[1]).max(t[2]));
    let gap = (sa.min(sb) - tmax).max(tmin - sa.max(sb));
    if !(gap > T::zero() && gap.is_finite()) {
        return false;
    }
    let magnitude = [p, q, r, *s.a(), *s.b()].iter().fold(T::zero(), |m, x| m.max(x.coords.amax()));
    // Relative slack too: the squares below round by a few ulps of `reach` itself.
    let margin = reach * (T::one() + T::lit(8.0) * T::epsilon()) + T::lit(32.0) * T::epsilon() * magnitude;
    let limit = margin * margin * n.norm_squared();
    limit.is_finite() && gap * gap > limit
}

/// Capsule/triangle: the mirror of [`triangle_capsule_contact`].
pub fn capsule_triangle_contact<T: Real>(
    a: &Capsule<T, 3>,
    b: &Triangle<T, 3>,
    prediction: T,
) -> Option<Contact<T, 3>> {
    triangle_capsule_contact(b, a, prediction).map(|c| c.flipped())
}

/// Half-space/convex shape (any support map plus a radius): the shape's point deepest below
/// the plane. Exact for every convex shape.
pub fn halfspace_convex_contact<T: Real, const D: usize, S: SupportMap<T, D> + ?Sized>(
    plane: &Plane<T, D>,
    shape: &S,
    radius: T,
    prediction: T,
) -> Option<Contact<T, D>> {
    let n = *plane.normal();
    let deepest = shape.support(&-n);
    let core = plane.signed_distance(&deepest);
    let c = Contact {
        point_a: deepest - n * core,
        point_b: deepest - n * radius,
        normal: n,
        distance: core - radius,
        status: ContactStatus::Converged,
    };
    within(c, prediction)
}

/// Half-space/box manifold: every corner within `prediction` of the plane (the four deepest
/// spanning the largest area when more qualify). Feature id = corner index.
pub fn halfspace_obb_manifold<T: Real>(
    plane: &Plane<T, 3>,
    b: &Obb<T, 3>,
    prediction: T,
    out: &mut Manifold<T, 3>,
) {
    let n = *plane.normal();
    out.clear();
    out.normal = n;
    let h = b.half_extents();
    let mut candidates =
        [ManifoldPoint { point_a: Point::origin(), point_b: Point::origin(), distance: T::zero(), id: 0 }; 8];
    let mut count = 0;
    for k in 0..8u32 {
        let s = |bit: u32, i: usize| if k & bit == 0 { -h[i] } else { h[i] };
        let p = b.to_world(&Point::<T, 3>::new(s(1, 0), s(2, 1), s(4, 2)));
        let dist = plane.signed_distance(&p);
        if dist <= prediction {
            candidates[count] = ManifoldPoint { point_a: p - n * dist, point_b: p, distance: dist, id: k };
            count += 1;
        }
    }
    out.reduce(&candidates[..count]);
}

/// Capsule/capsule manifold: two points when the axes are parallel (to 1e-3 rad) and overlap
/// along their length — at the ends of the overlap, so a capsule lying on another does not
/// rock — otherwise the single closest-point contact. Feature ids: 0 and 1 for the ends of
/// the overlap, 2 for the single point.
pub fn capsule_capsule_manifold<T: Real, const D: usize>(
    a: &Capsule<T, D>,
    b: &Capsule<T, D>,
    prediction: T,
    out: &mut Manifold<T, D>,
) {
    out.clear();
    let Some(c) = capsule_capsule_contact(a, b, prediction) else { return };
    out.normal = c.normal;
    let (da, db) = (a.b() - a.a(), b.b() - b.a());
    let (la, lb) = (da.norm_squared(), db.norm_squared());
    let dot = da.dot(&db);
    // sin² of the angle between the axes: 1 − cos².
    let parallel = la > T::zero() && lb > T::zero() && T::one() - dot * dot / (la * lb) <= T::lit(1e-6);
    if parallel {
        let t = |p: &Point<T, D>| (p - a.a()).dot(&da) / la;
        let (t0, t1) = (t(b.a()), t(b.b()));
        let (lo, hi) = (t0.min(t1).max(T::zero()), t0.max(t1).min(T::one()));
        if hi - lo > T::epsilon().sqrt() {
            let n = c.normal;
            for (k, s) in [lo, hi].into_iter().enumerate() {
                let core_a = a.a() + da * s;
                let (core_b, _) = closest_point_on_segment(&core_a, &b.segment());
                let (point_a, point_b) = (core_a + n * a.radius(), core_b - n * b.radius());
                let distance = n.dot(&(point_b - point_a));
                if distance <= prediction {
                    out.push(ManifoldPoint { point_a, point_b, distance, id: k as u32 });
                }
            }
            if !out.is_empty() {
                return;
            }
        }
    }
    out.push(ManifoldPoint { point_a: c.point_a, point_b: c.point_b, distance: c.distance, id: 2 });
}

/// Box/capsule manifold: two points when the capsule lies along a box face (its axis parallel
/// to the face to 1e-3 and the contact normal that face's normal) — the axis clipped to the
/// face, so a capsule resting on a box does not roll on one point — otherwise the single
/// contact. Ids: 0 and 1 for the clipped ends, 2 for the single point.
pub fn obb_capsule_manifold<T: Real>(
    bx: &Obb<T, 3>,
    cap: &Capsule<T, 3>,
    prediction: T,
    out: &mut Manifold<T, 3>,
) {
    out.clear();
    let seg = cap.segment();
    let Some(c) = convex_contact_within(
        bx,
        T::zero(),
        &seg,
        cap.radius(),
        prediction,
        &ConvexConfig::default(),
        &mut GjkCache::default(),
    ) else {
        return;
    };
    out.normal = c.normal;
    let n = c.normal;
    let k = (0..3).fold(0, |m, i| if bx.axis(i).dot(&n).abs() > bx.axis(m).dot(&n).abs() { i } else { m });
    let face = bx.axis(k) * if bx.axis(k).dot(&n) >= T::zero() { T::one() } else { -T::one() };
    let d = cap.b() - cap.a();
    let lying = face.dot(&n) >= T::one() - T::lit(1e-9) && face.dot(&d).abs() <= T::lit(1e-3) * d.norm();
    if lying {
        // Clip the axis to the face's rectangle, in the box frame.
        let (la, lb) = (bx.to_local(cap.a()), bx.to_local(cap.b()));
        let h = bx.half_extents();
        let (mut t0, mut t1) = (T::zero(), T::one());
        for m in (0..3).filter(|&m| m != k) {
            let (p, q) = (la[m], lb[m]);
            let dm = q - p;
            if dm.abs() <= T::epsilon() {
                if p.abs() > h[m] {
                    t1 = -T::one();
                }
                continue;
            }
            let (u, v) = ((-h[m] - p) / dm, (h[m] - p) / dm);
            t0 = t0.max(u.min(v));
            t1 = t1.min(u.max(v));
        }
        if t1 - t0 > T::epsilon().sqrt() {
            let plane = face.dot(&bx.center().coords) + h[k];
            for (id, t) in [t0, t1].into_iter().enumerate() {
                let core = cap.a() + d * t;
                let point_b = core - face * cap.radius();
                let z = face.dot(&point_b.coords) - plane;
                if z <= prediction {
                    out.push(ManifoldPoint {
                        point_a: point_b - face * z,
                        point_b,
                        distance: z,
                        id: id as u32,
                    });
                }
            }
            if !out.is_empty() {
                out.normal = face;
                return;
            }
        }
    }
    out.push(ManifoldPoint { point_a: c.point_a, point_b: c.point_b, distance: c.distance, id: 2 });
}
