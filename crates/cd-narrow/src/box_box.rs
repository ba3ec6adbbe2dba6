//! Box/box contact: SAT for the normal and depth ([`crate::sat_obb`]), then the contact
//! points by clipping (the reference/incident face method of Gottschalk and of Box2D/Bullet's
//! box-box, extended to 3D):
//!
//! * face axis: the face of the other box most anti-parallel to the normal is the incident
//!   face; its four corners are clipped against the four side planes of the reference face
//!   (Sutherland–Hodgman), and every clipped point below the reference face (or within the
//!   prediction distance of it) is a contact; more than four are reduced to the deepest and
//!   the three spanning the largest area;
//! * edge axis: one point, the closest points of the two supporting edges.
//!
//! Separated boxes (a contact within a positive prediction, or the distance) need no GJK in
//! almost every case: SAT's largest separation is the distance when the closest features are
//! a vertex and a face or two edges, and otherwise a vertex of one box is nearest the other,
//! found by a clamp in that box's frame. Each answer is certified by a separating axis, and
//! GJK handles what is not (degenerate parallel features).
//!
//! Feature ids encode the reference face, the incident face and which corner or which
//! (incident edge, side plane) crossing produced the point, so they persist while the boxes
//! slide.

use cd_geom::{
    closest_point_on_obb, closest_points_between_segments, far_offset, Contact, ContactStatus, Obb, Point,
    Real, SupportMap, Vector,
};

use crate::convex::clipped_or_gjk_epa;
#[cfg(test)]
use crate::gjk::gjk_distance;
use crate::gjk::{gjk_distance_within, GjkCache, GjkConfig};
use crate::manifold::{Candidates, Manifold, ManifoldPoint};
use crate::sat_obb::{obb_obb_sat, obb_obb_sat_face_preferring, BoxFeature, BoxSat, SatCache};

/// A clipped point in the reference face's frame: `(x, y)` along the two side axes, `z` the
/// separation above the reference face, and its id.
#[derive(Clone, Copy, Debug)]
struct Clipped<T> {
    x: T,
    y: T,
    z: T,
    id: u32,
}

/// The contact manifold of two boxes: empty when they are farther apart than `prediction`.
/// Returns the SAT result's separation (≤ `prediction` when points were produced). The axis
/// comes from [`obb_obb_sat_face_preferring`]: nearly parallel boxes keep a face contact with
/// up to four points and stable ids rather than a single edge point.
///
/// For a pair apart (a positive separation, within `prediction`) the points are pairs along
/// SAT's axis, which only bounds the gap from below: they can miss the closest pair, or be
/// none. [`manifold`](fn@crate::manifold) joins the exact contact to them then.
pub fn box_box_manifold<T: Real>(
    a: &Obb<T, 3>,
    b: &Obb<T, 3>,
    prediction: T,
    cache: &mut SatCache,
    out: &mut Manifold<T, 3>,
) -> T {
    out.clear();
    let sat = obb_obb_sat_face_preferring(a, b, prediction, cache);
    if sat.separation > prediction {
        return sat.separation;
    }
    out.normal = sat.normal;
    clip_feature(a, b, &sat, prediction, out);
    sat.separation
}

/// The single contact of two boxes, or `None` when they are farther apart than `prediction`.
///
/// Separated within a positive prediction: GJK's exact distance and closest points.
/// Penetrating (or touching): SAT's exact depth and normal, witness points at the deepest
/// manifold point.
pub fn box_box_contact<T: Real>(
    a: &Obb<T, 3>,
    b: &Obb<T, 3>,
    prediction: T,
    cache: &mut SatCache,
) -> Option<Contact<T, 3>> {
    // Far from the origin (beyond the boxes' own reach of it), worked out with A's centre at
    // the origin: the boxes' vertices, support points and closest points are then as small as
    // the boxes, and so are their rounding and the certificates' slack. In world coordinates
    // the slack grew with the coordinates (64 ulps of 10⁵ in `f32` is 1.5), and unit boxes
    // 1.16 apart there were reported 1.51 apart, converged. Within their reach, moving them
    // would gain at most a factor of two. (A difference beyond the coordinate range stays in
    // place.)
    let reach = a.half_extents().amax() + b.half_extents().amax();
    if let Some(origin) = far_offset(a.center(), [b.center()], reach) {
        if let (Ok(a_here), Ok(b_here)) =
            (a.with_center(Point::origin()), b.with_center(Point::from(b.center() - origin)))
        {
            return box_box_contact_moved(&a_here, &b_here, &origin, prediction, cache);
        }
    }
    box_box_contact_here(a, b, prediction, cache)
}

/// [`box_box_contact`] of boxes moved by `-origin` (A's centre now at the origin), put back.
/// Out of line: the common call, near the origin, does not pay for the moved copies.
#[cold]
#[inline(never)]
fn box_box_contact_moved<T: Real>(
    a: &Obb<T, 3>,
    b: &Obb<T, 3>,
    origin: &Vector<T, 3>,
    prediction: T,
    cache: &mut SatCache,
) -> Option<Contact<T, 3>> {
    box_box_contact_here(a, b, prediction, cache).map(|c| c.translated(origin))
}

/// [`box_box_contact`] in the boxes' own coordinates. One copy of it, called from both paths:
/// inlined into each, its SAT and clipping were left out of line and every box/box query paid
/// 5 % more instructions; as it is, the far-from-the-origin check and the call cost about 75
/// per query (2.8 % of a penetrating contact, 3.6 % of a separated distance).
#[inline(never)]
fn box_box_contact_here<T: Real>(
    a: &Obb<T, 3>,
    b: &Obb<T, 3>,
    prediction: T,
    cache: &mut SatCache,
) -> Option<Contact<T, 3>> {
    let limit = prediction.max(T::zero());
    let sat = obb_obb_sat(a, b, limit, cache);
    if sat.separation > limit {
        return None; // a lower bound on the distance already exceeds the prediction
    }
    if prediction > T::zero() && sat.separation > T::zero() {
        // Separated within the prediction: the closest points from SAT's axis or the boxes'
        // vertices, certified by a separating axis; GJK for the degenerate rest.
        if let Some(c) = separated_exact(a, b, &sat) {
            return (c.distance <= prediction).then_some(c);
        }
        let g = gjk_distance_within(a, b, prediction, &GjkConfig::default(), &mut GjkCache::default())?;
        if let Some(c) = g.separated_contact(T::zero(), T::zero()) {
            return Some(c);
        }
        // GJK found the boxes touching to within its tolerance while SAT sees a gap of a few
        // ulps: a contact, within the prediction, taken as SAT's below.
    }
    let mut m = Manifold::new(sat.normal);
    clip_feature(a, b, &sat, sat.separation.max(T::zero()), &mut m);
    // The depth is SAT's (exact); the clipped points agree with it to rounding, unless the
    // boxes are flat (then GJK and EPA answer).
    Some(clipped_or_gjk_epa(m.deepest_contact(ContactStatus::Converged), sat.separation, a, b))
}

/// The exact contact of two separated boxes (`sat.separation > 0`) without GJK, or `None` in
/// the degenerate cases left to it. Every answer is certified: a pair of points, one on each
/// box, whose distance a separating axis matches to rounding (no pair can be closer than a
/// separation).
///
/// The closest points of two boxes are a vertex and a face, two edges (inside both), or a
/// vertex of one box and an edge or vertex of the other (parallel features aside, whose
/// closest sets have such pairs among their corners). Hence, in order:
///
/// * SAT's best axis a face normal: the other box's support point along it, projected on the
///   face, inside the face; the distance is the separation;
/// * an edge axis: the closest points of the two supporting edges' lines on both edges, at
///   the separation's distance;
/// * otherwise, the nearest of the 16 vertices to the other box (a clamp in that box's
///   frame), certified by the separation along the direction between the two points.
fn separated_exact<T: Real>(a: &Obb<T, 3>, b: &Obb<T, 3>, sat: &BoxSat<T>) -> Option<Contact<T, 3>> {
    let (n, s) = (sat.normal, sat.separation);
    let contact = |point_a, point_b, normal, distance| Contact {
        point_a,
        point_b,
        normal,
        distance,
        status: ContactStatus::Converged,
    };
    // Whether `p`, a point in the plane of one of `on`'s two faces across axis `i`, lies on
    // that face: its other two local coordinates within the half extents.
    let inside_face = |on: &Obb<T, 3>, i: usize, p: &Point<T, 3>| {
        let local = on.vector_to_local(&(p - on.center()));
        let h = on.half_extents();
        (0..3).all(|k| k == i || local[k].abs() <= h[k])
    };
    // Rounding of coordinates this large: the slack of every certificate below.
    let noise = T::epsilon()
        * T::lit(64.0)
        * (a.center().coords.amax()
            + b.center().coords.amax()
            + a.half_extents().amax()
            + b.half_extents().amax());
    let by_axis = match sat.feature {
        BoxFeature::FaceA(i) => {
            let point_b = b.support(&-n);
            let point_a = point_b - n * s;
            inside_face(a, i, &point_a).then(|| contact(point_a, point_b, n, s))
        }
        BoxFeature::FaceB(j) => {
            let point_a = a.support(&n);
            let point_b = point_a + n * s;
            inside_face(b, j, &point_b).then(|| contact(point_a, point_b, n, s))
        }
        BoxFeature::Edges(i, j) => edge_pair(a, i, b, j, &n).and_then(|(point_a, point_b)| {
            let distance = (point_b - point_a).norm();
            (distance - s <= noise).then(|| contact(point_a, point_b, n, distance))
        }),
    };
    if by_axis.is_some() {
        return by_axis;
    }
    // A vertex pair: first the vertices SAT's axis points at (usually the right ones), then
    // all sixteen.
    let certified = |point_a: Point<T, 3>, point_b: Point<T, 3>| {
        let gap = point_b - point_a;
        let distance = gap.norm();
        if !distance.is_finite() || distance <= T::zero() {
            return None;
        }
        let normal = gap / distance;
        let separation = b.support(&-normal).coords.dot(&normal) - a.support(&normal).coords.dot(&normal);
        let slack = noise + T::epsilon() * T::lit(100.0) * distance;
        (separation >= distance - slack).then(|| contact(point_a, point_b, normal, distance))
    };
    let nearer = |(vertex_a, on_b, da): (Point<T, 3>, Point<T, 3>, T),
                  (vertex_b, on_a, db): (Point<T, 3>, Point<T, 3>, T)| {
        if da <= db {
            (vertex_a, on_b)
        } else {
            (on_a, vertex_b)
        }
    };
    let (va, vb) = (a.support(&n), b.support(&-n));
    let (pa, pb) = nearer(nearest_point(&va, b), nearest_point(&vb, a));
    certified(pa, pb).or_else(|| {
        let (pa, pb) = nearer(nearest_vertex(a, b), nearest_vertex(b, a));
        certified(pa, pb)
    })
}

/// `p`, its nearest point on `to`, and their squared distance.
fn nearest_point<T: Real>(p: &Point<T, 3>, to: &Obb<T, 3>) -> (Point<T, 3>, Point<T, 3>, T) {
    let q = closest_point_on_obb(p, to);
    (*p, q, (q - p).norm_squared())
}

/// The closest points of A's edge along axis `i` farthest along `n` and B's edge along axis
/// `j` farthest against it, when those of the lines through them lie on both edges. (The
/// general `closest_points_between_segments` would clamp to the ends instead, which the
/// certificate then refuses anyway; this unclamped form of unit directions made the box/box
/// distance 9 % faster.)
fn edge_pair<T: Real>(
    a: &Obb<T, 3>,
    i: usize,
    b: &Obb<T, 3>,
    j: usize,
    n: &Vector<T, 3>,
) -> Option<(Point<T, 3>, Point<T, 3>)> {
    // The centre of the edge of `o` along `axis` that is farthest along `d`.
    let edge_centre = |o: &Obb<T, 3>, axis: usize, d: &Vector<T, 3>| {
        (0..3).filter(|&k| k != axis).fold(*o.center(), |c, k| {
            let e = o.axis(k);
            let h = o.half_extents()[k];
            c + e * if e.dot(d) >= T::zero() { h } else { -h }
        })
    };
    let (pa, da, ha) = (edge_centre(a, i, n), a.axis(i), a.half_extents()[i]);
    let (pb, db, hb) = (edge_centre(b, j, &-n), b.axis(j), b.half_extents()[j]);
    // Closest points of the lines pa + da·u and pb + db·w (unit directions).
    let cos = da.dot(&db);
    let denom = T::one() - cos * cos;
    if denom <= T::epsilon().sqrt() {
        return None;
    }
    let gap = pa - pb;
    let (ga, gb) = (da.dot(&gap), db.dot(&gap));
    let u = (cos * gb - ga) / denom;
    let w = (gb - cos * ga) / denom;
    (u.abs() <= ha && w.abs() <= hb).then(|| (pa + da * u, pb + db * w))
}

/// The vertex of `from` nearest to `to`, its nearest point on `to`, and their squared distance.
/// The eight vertices are taken in `to`'s frame, where the nearest point is a clamp. They are
/// computed as lane arrays (a coordinate of all eight corners at once, each corner's signs a
/// constant per lane), so the corners' distances come out of packed arithmetic; corner by corner
/// it was about 400 instructions a call, and a third of the separated pairs make two calls.
fn nearest_vertex<T: Real>(from: &Obb<T, 3>, to: &Obb<T, 3>) -> (Point<T, 3>, Point<T, 3>, T) {
    let m = to.axes().tr_mul(from.axes());
    let centre = to.vector_to_local(&(from.center() - to.center()));
    let (hf, ht) = (from.half_extents(), to.half_extents());
    let half_axes = [m.column(0) * hf[0], m.column(1) * hf[1], m.column(2) * hf[2]];
    // Bit `k` of a corner's number picks `+` for half axis `k` (the same sums, in the same order,
    // as adding the signed half axes one by one: a sign flip is exact).
    let sign = |corner: usize, k: usize| if corner & (1 << k) == 0 { -T::one() } else { T::one() };
    let coordinate = |c: usize| -> [T; 8] {
        core::array::from_fn(|corner| {
            centre[c]
                + sign(corner, 0) * half_axes[0][c]
                + sign(corner, 1) * half_axes[1][c]
                + sign(corner, 2) * half_axes[2][c]
        })
    };
    let v = [coordinate(0), coordinate(1), coordinate(2)];
    let excess = |c: usize, corner: usize| {
        let e = v[c][corner].abs() - ht[c];
        if e > T::zero() {
            e
        } else {
            T::zero()
        }
    };
    let d2: [T; 8] = core::array::from_fn(|corner| {
        let (x, y, z) = (excess(0, corner), excess(1, corner), excess(2, corner));
        x * x + y * y + z * z
    });
    // The first corner at the least distance.
    let mut best = 0;
    for corner in 1..8 {
        if d2[corner] < d2[best] {
            best = corner;
        }
    }
    let p = Vector::<T, 3>::from_fn(|c, _| v[c][best]);
    let nearest = Vector::<T, 3>::from_fn(|k, _| p[k].clamp(-ht[k], ht[k]));
    (to.to_world(&Point::from(p)), to.to_world(&Point::from(nearest)), d2[best])
}

/// The manifold points of the SAT feature.
fn clip_feature<T: Real>(
    a: &Obb<T, 3>,
    b: &Obb<T, 3>,
    sat: &BoxSat<T>,
    prediction: T,
    out: &mut Manifold<T, 3>,
) {
    match sat.feature {
        BoxFeature::FaceA(i) => clip_faces(a, b, i, sat.normal, prediction, false, out),
        BoxFeature::FaceB(j) => clip_faces(b, a, j, -sat.normal, prediction, true, out),
        BoxFeature::Edges(i, j) => edge_contact(a, b, i, j, sat.normal, out),
    }
}

/// Clips the face of `inc` most anti-parallel to `n` (unit, from `reference` towards `inc`)
/// against face `i` of `reference` facing `n`. `flip` says the reference box is B.
fn clip_faces<T: Real>(
    reference: &Obb<T, 3>,
    inc: &Obb<T, 3>,
    i: usize,
    n: Vector<T, 3>,
    prediction: T,
    flip: bool,
    out: &mut Manifold<T, 3>,
) {
    let (k1, k2) = ((i + 1) % 3, (i + 2) % 3);
    let hr = reference.half_extents();
    let (u1, u2) = (reference.axis(k1), reference.axis(k2));
    let ref_sign = if n.dot(&reference.axis(i)) >= T::zero() { 0 } else { 1 };
    // Incident face: the face of `inc` whose outward normal is most opposed to n.
    let dots = [n.dot(&inc.axis(0)), n.dot(&inc.axis(1)), n.dot(&inc.axis(2))];
    let j = (0..3).fold(0, |m, k| if dots[k].abs() > dots[m].abs() { k } else { m });
    let sj = if dots[j] > T::zero() { -T::one() } else { T::one() };
    let inc_sign = if sj > T::zero() { 0 } else { 1 };
    let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
    let hi = inc.half_extents();
    let face_centre = inc.center() + inc.axis(j) * (sj * hi[j]);
    let (v1, v2) = (inc.axis(j1) * hi[j1], inc.axis(j2) * hi[j2]);
    let corners =
        [face_centre + v1 + v2, face_centre - v1 + v2, face_centre - v1 - v2, face_centre + v1 - v2];
    let origin = reference.center() + n * hr[i];
    let mut poly = [Clipped { x: T::zero(), y: T::zero(), z: T::zero(), id: 0 }; 8];
    let mut len = 0;
    for (k, p) in corners.iter().enumerate() {
        let d = p - origin;
        poly[len] = Clipped { x: d.dot(&u1), y: d.dot(&u2), z: d.dot(&n), id: k as u32 };
        len += 1;
    }
    // Side planes: x ≤ h1, −x ≤ h1, y ≤ h2, −y ≤ h2.
    for plane in 0..4u32 {
        len = clip_polygon(&mut poly, len, plane, hr[k1], hr[k2]);
        if len == 0 {
            break;
        }
    }
    let base =
        (u32::from(flip) << 12) | (((i * 2 + ref_sign) as u32) << 9) | (((j * 2 + inc_sign) as u32) << 6);
    let mut candidates = Candidates::<T, 8>::new();
    for c in &poly[..len] {
        if c.z > prediction {
            continue;
        }
        let on_ref = origin + u1 * c.x + u2 * c.y;
        let on_inc = on_ref + n * c.z;
        let (point_a, point_b) = if flip { (on_inc, on_ref) } else { (on_ref, on_inc) };
        candidates.push(ManifoldPoint { point_a, point_b, distance: c.z, id: base | c.id });
    }
    out.reduce(candidates.as_slice());
}

/// One Sutherland–Hodgman pass of the polygon `poly[..len]` against side plane `plane`
/// (0: x ≤ hx, 1: x ≥ −hx, 2: y ≤ hy, 3: y ≥ −hy). New vertices get the id
/// `4 + 4·(index of the clipped edge's first vertex id) + plane`, kept below 64.
fn clip_polygon<T: Real>(poly: &mut [Clipped<T>; 8], len: usize, plane: u32, hx: T, hy: T) -> usize {
    let dist = |c: &Clipped<T>| match plane {
        0 => c.x - hx,
        1 => -c.x - hx,
        2 => c.y - hy,
        _ => -c.y - hy,
    };
    let input = *poly;
    let mut out = 0;
    for k in 0..len {
        let p = input[k];
        let q = input[(k + 1) % len];
        let (dp, dq) = (dist(&p), dist(&q));
        if dp <= T::zero() && out < 8 {
            poly[out] = p;
            out += 1;
        }
        if (dp <= T::zero()) != (dq <= T::zero()) && out < 8 {
            let t = dp / (dp - dq);
            let lerp = |a: T, b: T| a + (b - a) * t;
            let id = 4 + ((p.id.min(q.id) & 3) << 2) + plane;
            poly[out] = Clipped { x: lerp(p.x, q.x), y: lerp(p.y, q.y), z: lerp(p.z, q.z), id: id & 63 };
            out += 1;
        }
    }
    out
}

/// Edge-edge contact: the closest points of A's edge along axis `i` farthest along `n` and
/// B's edge along axis `j` farthest along `−n`.
fn edge_contact<T: Real>(
    a: &Obb<T, 3>,
    b: &Obb<T, 3>,
    i: usize,
    j: usize,
    n: Vector<T, 3>,
    out: &mut Manifold<T, 3>,
) {
    let edge = |bx: &Obb<T, 3>, axis: usize, dir: &Vector<T, 3>| {
        let h = bx.half_extents();
        let mut c = *bx.center();
        let mut code = 0u32;
        for k in 0..3 {
            if k != axis {
                let s = if dir.dot(&bx.axis(k)) >= T::zero() { T::one() } else { -T::one() };
                code |= u32::from(s < T::zero()) << k;
                c += bx.axis(k) * (s * h[k]);
            }
        }
        let e = bx.axis(axis) * h[axis];
        ((c - e, c + e), code)
    };
    let (ea, ca) = edge(a, i, &n);
    let (eb, cb) = edge(b, j, &-n);
    let (cp, _, _) = closest_points_between_segments(&ea.0, &ea.1, &eb.0, &eb.1);
    let id = (2 << 12) | ((i as u32) << 10) | (ca << 7) | ((j as u32) << 5) | (cb << 2);
    out.push(ManifoldPoint { point_a: cp.a, point_b: cp.b, distance: n.dot(&(cp.b - cp.a)), id });
}

#[cfg(test)]
mod tests {
    use super::*;
    use cd_geom::Obb;
    use nalgebra::{Point3, UnitQuaternion, Vector3};

    fn unit_box(center: [f64; 3], q: UnitQuaternion<f64>, half: [f64; 3]) -> Obb<f64, 3> {
        Obb::from_rotation(Point3::from(center), q, Vector3::from(half)).unwrap()
    }

    fn exact(a: &Obb<f64, 3>, b: &Obb<f64, 3>) -> Option<Contact<f64, 3>> {
        separated_exact(a, b, &obb_obb_sat(a, b, f64::INFINITY, &mut SatCache::default()))
    }

    /// Hand-derived pairs, one per kind of closest features: the distance and points.
    #[test]
    fn each_kind_of_closest_features() {
        let id = UnitQuaternion::identity();
        let cube = [0.5; 3];
        // Vertex against face: B's corner, its diagonal turned straight down, 0.3 above A's top.
        let tilt = UnitQuaternion::rotation_between(&-Vector3::new(1.0, 1.0, 1.0), &-Vector3::z()).unwrap();
        let depth = 0.5 * 3f64.sqrt();
        let b = unit_box([0.1, 0.05, 0.5 + 0.3 + depth], tilt, cube);
        let c = exact(&unit_box([0.0; 3], id, cube), &b).expect("vertex-face");
        assert!((c.distance - 0.3).abs() < 1e-12 && (c.normal - Vector3::z()).norm() < 1e-12, "{c:?}");
        // Edge against edge: A's top edge along x, B's bottom edge along y, crossing 0.2 apart.
        let roll = UnitQuaternion::from_euler_angles(std::f64::consts::FRAC_PI_4, 0.0, 0.0);
        let pitch = UnitQuaternion::from_euler_angles(0.0, std::f64::consts::FRAC_PI_4, 0.0);
        let h = 0.5 * 2f64.sqrt();
        let (a, b) = (unit_box([0.0; 3], roll, cube), unit_box([0.0, 0.0, 2.0 * h + 0.2], pitch, cube));
        let c = exact(&a, &b).expect("edge-edge");
        assert!((c.distance - 0.2).abs() < 1e-12, "{c:?}");
        assert!((c.point_a - Point3::new(0.0, 0.0, h)).norm() < 1e-12, "{c:?}");
        // Vertex against edge: B's corner pointing down onto A's top edge (no SAT axis has the
        // distance: the nearest vertex does).
        let b = unit_box([0.0, 0.0, h + 0.25 + depth], tilt, cube);
        let c = exact(&a, &b).expect("vertex-edge");
        assert!((c.distance - 0.25).abs() < 1e-12, "{c:?}");
        let sat = obb_obb_sat(&a, &b, f64::INFINITY, &mut SatCache::default());
        assert!(sat.separation < 0.24, "the vertex path, not an axis: {sat:?}");
        // Vertex against vertex: corner to corner along the diagonal, 0.1 apart.
        let d = Vector3::new(1.0, 1.0, 1.0).normalize() * 0.1;
        let b = unit_box([1.0 + d.x, 1.0 + d.y, 1.0 + d.z], id, cube);
        let a = unit_box([0.0; 3], id, cube);
        let c = exact(&a, &b).expect("vertex-vertex");
        assert!(obb_obb_sat(&a, &b, f64::INFINITY, &mut SatCache::default()).separation < 0.09);
        assert!((c.distance - 0.1).abs() < 1e-12 && (c.point_a - Point3::new(0.5, 0.5, 0.5)).norm() < 1e-12);
    }

    /// Random separated pairs against GJK (an independent oracle): nearly every one is
    /// answered without it, with the same distance and points on the boxes.
    #[test]
    fn random_pairs_match_gjk_and_rarely_need_it() {
        let mut rnd = crate::test_support::unit_stream(0x9e37_79b9_7f4a_7c15u64);
        let (mut answered, mut separated) = (0, 0);
        for _ in 0..20_000 {
            let mut q = || UnitQuaternion::from_euler_angles(rnd() * 6.3, rnd() * 3.2, rnd() * 6.3);
            let (qa, qb) = (q(), q());
            let mut half = || [0.05 + rnd(), 0.05 + rnd(), 0.05 + rnd()];
            let (ha, hb) = (half(), half());
            let dir = Vector3::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5);
            let reach = 0.5 + 3.0 * rnd();
            let a = unit_box([0.0; 3], qa, ha);
            let b = unit_box((dir.normalize() * reach).into(), qb, hb);
            let sat = obb_obb_sat(&a, &b, f64::INFINITY, &mut SatCache::default());
            if sat.separation <= 0.0 {
                continue;
            }
            separated += 1;
            let Some(c) = separated_exact(&a, &b, &sat) else { continue };
            answered += 1;
            let g = gjk_distance(&a, &b, &GjkConfig::default(), &mut GjkCache::default());
            assert!((c.distance - g.distance).abs() < 1e-9, "{c:?} against GJK {}", g.distance);
            assert!(((c.point_b - c.point_a).norm() - c.distance).abs() < 1e-9, "{c:?}");
            assert!((c.point_b - c.point_a - c.normal * c.distance).norm() < 1e-9, "{c:?}");
            for (p, o) in [(c.point_a, &a), (c.point_b, &b)] {
                let l = o.to_local(&p);
                assert!((0..3).all(|k| l[k].abs() <= o.half_extents()[k] + 1e-9), "{p:?} off its box");
            }
        }
        assert!(separated > 10_000, "{separated}");
        assert!(answered * 1000 >= separated * 999, "{answered} of {separated} answered without GJK");
    }

    /// Far from the origin, tiny and huge boxes, and f32: the certified answers stay within
    /// rounding of GJK's distance in f64 (the offsets and scales a world reaches).
    #[test]
    fn far_tiny_huge_and_f32_pairs_match_gjk() {
        let mut rnd = crate::test_support::unit_stream(0x2545_f491_4f6c_dd1du64);
        let mut answered = 0;
        for case in 0..6_000 {
            let (scale, offset) =
                [(1.0, 0.0), (1e-4, 0.0), (1e4, 0.0), (1.0, 1e5), (1e-2, 1e3), (1.0, 0.0)][case % 6];
            let mut q = || UnitQuaternion::from_euler_angles(rnd() * 6.3, rnd() * 3.2, rnd() * 6.3);
            let (qa, qb) = (q(), q());
            let mut half = || [(0.05 + rnd()) * scale, (0.05 + rnd()) * scale, (0.05 + rnd()) * scale];
            let (ha, hb) = (half(), half());
            let dir = Vector3::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5).normalize();
            let at = Vector3::new(offset, -offset, offset);
            let ca = at;
            let cb = at + dir * (0.5 + 3.0 * rnd()) * scale;
            let (a, b) = (unit_box(ca.into(), qa, ha), unit_box(cb.into(), qb, hb));
            let g = gjk_distance(&a, &b, &GjkConfig::default(), &mut GjkCache::default());
            let tol = 1e-9 * scale + 1e-11 * offset;
            if case % 6 == 5 {
                // The same pair in f32, against f64's GJK.
                let to_f32 = |o: &Obb<f64, 3>| {
                    Obb::new(o.center().cast::<f32>(), o.axes().cast::<f32>(), o.half_extents().cast::<f32>())
                        .unwrap()
                };
                let (a32, b32) = (to_f32(&a), to_f32(&b));
                let sat = obb_obb_sat(&a32, &b32, f32::INFINITY, &mut SatCache::default());
                if sat.separation > 0.0 {
                    if let Some(c) = separated_exact(&a32, &b32, &sat) {
                        answered += 1;
                        assert!(
                            (f64::from(c.distance) - g.distance).abs() < 1e-5,
                            "{c:?} against {}",
                            g.distance
                        );
                    }
                }
                continue;
            }
            let sat = obb_obb_sat(&a, &b, f64::INFINITY, &mut SatCache::default());
            if sat.separation <= 0.0 {
                continue;
            }
            if let Some(c) = separated_exact(&a, &b, &sat) {
                answered += 1;
                assert!(
                    (c.distance - g.distance).abs() < tol,
                    "case {case}: {c:?} against GJK {}",
                    g.distance
                );
                assert!((c.point_b - c.point_a - c.normal * c.distance).norm() < tol, "case {case}: {c:?}");
            }
        }
        assert!(answered > 3_000, "{answered}");
    }
}
