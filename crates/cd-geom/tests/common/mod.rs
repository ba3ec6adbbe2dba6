//! Independent oracles and input generators shared by the property tests. Nothing here calls
//! the function it is used to check.
#![allow(dead_code)]

use cd_geom::*;
use nalgebra::{Point3, UnitQuaternion, Vector2, Vector3};
use proptest::prelude::*;

/// A deterministic stream of 64-bit values (xorshift), for the hand-rolled sweeps.
pub fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// Proptest case count: `default`, or `PROPTEST_CASES` from the environment for long soaks.
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

pub type P3 = Point3<f64>;
pub type V3 = Vector3<f64>;

pub fn coord() -> impl Strategy<Value = f64> {
    -10.0..10.0f64
}
pub fn point() -> impl Strategy<Value = P3> {
    (coord(), coord(), coord()).prop_map(|(x, y, z)| P3::new(x, y, z))
}
pub fn direction() -> impl Strategy<Value = V3> {
    (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64)
        .prop_filter("non-zero", |(x, y, z)| x * x + y * y + z * z > 1e-4)
        .prop_map(|(x, y, z)| V3::new(x, y, z))
}
pub fn extents() -> impl Strategy<Value = V3> {
    (0.05..4.0f64, 0.05..4.0f64, 0.05..4.0f64).prop_map(|(x, y, z)| V3::new(x, y, z))
}
pub fn rotation() -> impl Strategy<Value = UnitQuaternion<f64>> {
    (-3.2..3.2f64, -1.6..1.6f64, -3.2..3.2f64)
        .prop_map(|(r, p, y)| UnitQuaternion::from_euler_angles(r, p, y))
}
pub fn obb() -> impl Strategy<Value = Obb<f64, 3>> {
    (point(), rotation(), extents()).prop_map(|(c, q, h)| Obb::from_rotation(c, q, h).unwrap())
}
pub fn aabb() -> impl Strategy<Value = Aabb<f64, 3>> {
    (point(), extents()).prop_map(|(c, h)| Aabb::from_center_half_extents(c, h).unwrap())
}
pub fn triangle() -> impl Strategy<Value = Triangle<f64, 3>> {
    (point(), point(), point()).prop_map(|(a, b, c)| Triangle::new(a, b, c).unwrap())
}
/// Triangles of moderate size near the origin, so that pairs often interact.
pub fn small_triangle() -> impl Strategy<Value = Triangle<f64, 3>> {
    (point(), direction(), direction(), 0.5..6.0f64).prop_map(|(c, u, v, s)| {
        let c = P3::from(c.coords * 0.2);
        Triangle::new(c, c + u * s, c + v * s).unwrap()
    })
}

// ---------- separating-axis oracle for convex polytopes ----------

/// Largest separation of two vertex sets over the candidate axes (positive = separated by that
/// much along the best axis, measured in length units). Axes with no length are skipped.
pub fn sat_separation(va: &[P3], vb: &[P3], axes: &[V3]) -> f64 {
    let mut best = f64::NEG_INFINITY;
    for axis in axes {
        let len = axis.norm();
        if len < 1e-9 {
            continue;
        }
        let n = axis / len;
        let (amin, amax) = interval(va, &n);
        let (bmin, bmax) = interval(vb, &n);
        best = best.max((bmin - amax).max(amin - bmax));
    }
    best
}

fn interval(v: &[P3], n: &V3) -> (f64, f64) {
    v.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
        let s = n.dot(&p.coords);
        (lo.min(s), hi.max(s))
    })
}

pub fn obb_corners(b: &Obb<f64, 3>) -> Vec<P3> {
    let h = b.half_extents();
    (0..8)
        .map(|k| {
            let s = |i: usize| if k >> i & 1 == 1 { h[i] } else { -h[i] };
            b.to_world(&P3::new(s(0), s(1), s(2)))
        })
        .collect()
}

pub fn obb_axes(b: &Obb<f64, 3>) -> [V3; 3] {
    [b.axis(0), b.axis(1), b.axis(2)]
}

/// Every candidate axis for two polytopes given their face normals and edge directions.
pub fn candidate_axes(faces_a: &[V3], edges_a: &[V3], faces_b: &[V3], edges_b: &[V3]) -> Vec<V3> {
    let mut axes: Vec<V3> = faces_a.iter().chain(faces_b.iter()).copied().collect();
    for ea in edges_a {
        for eb in edges_b {
            axes.push(ea.cross(eb));
        }
    }
    axes
}

pub fn tri_edges(t: &Triangle<f64, 3>) -> [V3; 3] {
    [t.b() - t.a(), t.c() - t.b(), t.a() - t.c()]
}

/// Triangle/triangle separation: both normals, the nine edge crosses, and the in-plane edge
/// normals that decide coplanar pairs.
pub fn tri_tri_separation(t1: &Triangle<f64, 3>, t2: &Triangle<f64, 3>) -> f64 {
    let (n1, n2) = (t1.scaled_normal(), t2.scaled_normal());
    let (e1, e2) = (tri_edges(t1), tri_edges(t2));
    let mut axes = candidate_axes(&[n1, n2], &e1, &[], &e2);
    for e in e1.iter() {
        axes.push(n1.cross(e));
    }
    for e in e2.iter() {
        axes.push(n2.cross(e));
    }
    sat_separation(&t1.vertices(), &t2.vertices(), &axes)
}

/// Is there a separating axis among `axes` with a strictly positive gap between the vertex
/// sets, projecting on the axes as they are (not normalised)? On integer and half-integer
/// coordinates of moderate size every product is exact, so this decides touching sets (gap 0)
/// exactly, where [`sat_separation`]'s normalised axes round.
pub fn strictly_separated(va: &[P3], vb: &[P3], axes: &[V3]) -> bool {
    axes.iter().filter(|axis| axis.norm_squared() > 0.0).any(|axis| {
        let (amin, amax) = interval(va, axis);
        let (bmin, bmax) = interval(vb, axis);
        bmin > amax || amin > bmax
    })
}

/// [`strictly_separated`] over [`tri_tri_separation`]'s candidate axes.
pub fn tri_tri_strictly_separated(t1: &Triangle<f64, 3>, t2: &Triangle<f64, 3>) -> bool {
    let (n1, n2) = (t1.scaled_normal(), t2.scaled_normal());
    let (e1, e2) = (tri_edges(t1), tri_edges(t2));
    let mut axes = candidate_axes(&[n1, n2], &e1, &[], &e2);
    axes.extend(e1.iter().map(|e| n1.cross(e)));
    axes.extend(e2.iter().map(|e| n2.cross(e)));
    strictly_separated(&t1.vertices(), &t2.vertices(), &axes)
}

// ---------- signed distance functions ----------

/// Exact signed distance to an axis-aligned box with centre `c` and half extents `h`.
pub fn sd_box(p: &P3, c: &P3, h: &V3) -> f64 {
    let q = (p - c).abs() - h;
    let outside = q.sup(&V3::zeros()).norm();
    let inside = q.x.max(q.y).max(q.z).min(0.0);
    outside + inside
}

pub fn sd_obb(p: &P3, b: &Obb<f64, 3>) -> f64 {
    let local = b.axes().transpose() * (p - b.center());
    sd_box(&P3::from(local), &P3::origin(), b.half_extents())
}

/// Exact signed distance to a convex 2D polygon (counter-clockwise vertices).
pub fn sd_convex_polygon_2d(p: Vector2<f64>, poly: &[Vector2<f64>]) -> f64 {
    let n = poly.len();
    let mut dist = f64::INFINITY;
    let mut inside = true;
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        let e = b - a;
        let t = ((p - a).dot(&e) / e.norm_squared()).clamp(0.0, 1.0);
        dist = dist.min((p - (a + e * t)).norm());
        if e.x * (p - a).y - e.y * (p - a).x < 0.0 {
            inside = false;
        }
    }
    if inside {
        -dist
    } else {
        dist
    }
}

/// Signed distance to a solid of revolution around the axis `base + y·u` whose profile in the
/// (radial, axial) half-plane is the convex polygon `profile` touching the axis.
pub fn sd_revolution(p: &P3, base: &P3, u: &V3, profile: &[Vector2<f64>]) -> f64 {
    let w = p - base;
    let y = w.dot(u);
    let rho = (w - u * y).norm();
    sd_convex_polygon_2d(Vector2::new(rho, y), profile)
}

pub fn sd_capsule(p: &P3, a: &P3, b: &P3, r: f64) -> f64 {
    let ab = b - a;
    let t = ((p - a).dot(&ab) / ab.norm_squared().max(1e-300)).clamp(0.0, 1.0);
    (p - (a + ab * t)).norm() - r
}

/// Sphere tracing along a ray. Returns `Ok(Some(t))` at convergence (`t` in units of the
/// direction's length), `Ok(None)` for a miss, and `Err(())` when the answer is ambiguous: the ray
/// only grazes the surface (it never gets deeper than `graze` inside, or passes within `graze`
/// outside), or the hit is within `graze` of `max_t`.
pub fn march(o: &P3, d: &V3, max_t: f64, graze: f64, sdf: impl Fn(&P3) -> f64) -> Result<Option<f64>, ()> {
    let len = d.norm();
    let u = d / len;
    let max_s = if max_t.is_finite() { max_t * len } else { 200.0 };
    let mut s = 0.0;
    let mut min_seen = f64::INFINITY;
    for _ in 0..200_000 {
        let dist = sdf(&(o + u * s));
        min_seen = min_seen.min(dist);
        if dist < 1e-10 {
            if (s - max_s).abs() < graze {
                return Err(());
            }
            if s > max_s {
                return Ok(None);
            }
            // How deep does the ray get past the entry point?
            let depth = (1..=400).map(|k| -sdf(&(o + u * (s + k as f64 * 2.5e-3)))).fold(-dist, f64::max);
            return if depth < graze { Err(()) } else { Ok(Some(s / len)) };
        }
        s += dist;
        if s > max_s + 1.0 {
            return if min_seen < graze { Err(()) } else { Ok(None) };
        }
    }
    Err(())
}
