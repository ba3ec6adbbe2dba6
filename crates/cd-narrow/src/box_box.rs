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
//! Feature ids encode the reference face, the incident face and which corner or which
//! (incident edge, side plane) crossing produced the point, so they persist while the boxes
//! slide.

use cd_geom::{
    closest_points_between_segments, Contact, ContactStatus, Obb, Point, Real, SupportMap, Vector,
};

use crate::gjk::{gjk_distance_within, GjkCache, GjkConfig};
use crate::manifold::{Manifold, ManifoldPoint};
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
    if prediction > T::zero() {
        // Separated contacts are wanted too: GJK gives their exact distance (and proves
        // "farther than the prediction" early); only overlapping boxes need SAT.
        let g = gjk_distance_within(a, b, prediction, &GjkConfig::default(), &mut GjkCache::default())?;
        if let Some(c) = g.separated_contact(T::zero(), T::zero()) {
            return Some(c);
        }
    }
    // GJK found the boxes touching to within its tolerance; SAT may still see a gap of a few
    // ulps, which is a contact as long as it is within the prediction.
    let limit = prediction.max(T::zero());
    let sat = obb_obb_sat(a, b, limit, cache);
    if sat.separation > limit {
        return None;
    }
    let mut m = Manifold::new(sat.normal);
    clip_feature(a, b, &sat, sat.separation.max(T::zero()), &mut m);
    let mut c = m.deepest_contact(ContactStatus::Converged).unwrap_or_else(|| {
        // Clipping a grazing contact can leave no point: the supports along the normal touch.
        let (point_a, point_b) = (a.support(&sat.normal), b.support(&-sat.normal));
        Contact {
            point_a,
            point_b,
            normal: sat.normal,
            distance: sat.separation,
            status: ContactStatus::Converged,
        }
    });
    // The depth is SAT's (exact); the clipped points agree with it to rounding.
    c.distance = sat.separation;
    Some(c)
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
    let mut candidates =
        [ManifoldPoint { point_a: Point::origin(), point_b: Point::origin(), distance: T::zero(), id: 0 }; 8];
    let mut count = 0;
    for c in &poly[..len] {
        if c.z > prediction {
            continue;
        }
        let on_ref = origin + u1 * c.x + u2 * c.y;
        let on_inc = on_ref + n * c.z;
        let (point_a, point_b) = if flip { (on_inc, on_ref) } else { (on_ref, on_inc) };
        candidates[count] = ManifoldPoint { point_a, point_b, distance: c.z, id: base | c.id };
        count += 1;
    }
    out.reduce(&candidates[..count]);
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
