//! Hand-derived ray tests: hits, misses, tangency, parallel rays, rays starting inside or behind,
//! degenerate shapes, huge and tiny coordinates. The arithmetic is in the comments.

mod common;

use cd_geom::*;
use common::xorshift;
use nalgebra::{Matrix3, Point2, Point3, UnitQuaternion, Vector2, Vector3};

fn p3(x: f64, y: f64, z: f64) -> Point3<f64> {
    Point3::new(x, y, z)
}
fn v3(x: f64, y: f64, z: f64) -> Vector3<f64> {
    Vector3::new(x, y, z)
}
fn ray(o: Point3<f64>, d: Vector3<f64>) -> Ray<f64, 3> {
    Ray::new(o, d).unwrap()
}
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs()))
}

// ---------- ray / ball ----------

#[test]
fn ray_ball_hit_miss_tangent_inside_behind() {
    let s = Ball::new(p3(0.0, 0.0, 0.0), 1.0).unwrap();
    for f in [ray_ball::<f64, 3>, ray_ball_analytic::<f64, 3>] {
        // From (-5,0,0) along +x: surface at x = -1, t = 4, normal (-1,0,0).
        let h = f(&ray(p3(-5.0, 0.0, 0.0), v3(1.0, 0.0, 0.0)), &s).unwrap();
        assert!(close(h.t, 4.0) && (h.normal - v3(-1.0, 0.0, 0.0)).norm() < 1e-12);
        // Direction of length 2: t is in units of |d| → t = 2.
        assert!(close(f(&ray(p3(-5.0, 0.0, 0.0), v3(2.0, 0.0, 0.0)), &s).unwrap().t, 2.0));
        // Line at distance 1.5 from the centre: miss.
        assert!(f(&ray(p3(-5.0, 1.5, 0.0), v3(1.0, 0.0, 0.0)), &s).is_none());
        // Tangent: line y = 1 touches at (0,1,0), t = 5.
        assert!(close(f(&ray(p3(-5.0, 1.0, 0.0), v3(1.0, 0.0, 0.0)), &s).unwrap().t, 5.0));
        // Behind: the sphere is at negative t.
        assert!(f(&ray(p3(5.0, 0.0, 0.0), v3(1.0, 0.0, 0.0)), &s).is_none());
        // Inside: t = 0, zero normal.
        let h = f(&ray(p3(0.2, 0.0, 0.0), v3(1.0, 0.0, 0.0)), &s).unwrap();
        assert_eq!((h.t, h.normal), (0.0, Vector3::zeros()));
        // max_t shorter than the distance: miss.
        assert!(f(&ray(p3(-5.0, 0.0, 0.0), v3(1.0, 0.0, 0.0)).with_max_t(3.9).unwrap(), &s).is_none());
    }
    // Zero radius ball (a point): the ray through it hits at the point.
    let pt = Ball::new(p3(3.0, 0.0, 0.0), 0.0).unwrap();
    assert!(close(ray_ball(&ray(p3(0.0, 0.0, 0.0), v3(1.0, 0.0, 0.0)), &pt).unwrap().t, 3.0));
}

#[test]
fn ray_ball_huge_and_tiny() {
    // Huge: sphere r = 1e6 at 1e8 along x, ray from origin: t = 1e8 - 1e6 = 9.9e7.
    let s = Ball::new(p3(1e8, 0.0, 0.0), 1e6).unwrap();
    assert!(close(ray_ball(&ray(p3(0.0, 0.0, 0.0), v3(1.0, 0.0, 0.0)), &s).unwrap().t, 9.9e7));
    // Tiny: r = 1e-6 at 1e-5, t = 9e-6.
    let s = Ball::new(p3(1e-5, 0.0, 0.0), 1e-6).unwrap();
    assert!(close(ray_ball(&ray(p3(0.0, 0.0, 0.0), v3(1.0, 0.0, 0.0)), &s).unwrap().t, 9e-6));
    // f32 far away: the geometric form keeps the perpendicular distance accurate. Sphere
    // r = 1 at (1e4, 0.5, 0): half chord sqrt(1 - 0.25) = 0.8660, t = 1e4 - 0.866 ≈ 9999.134.
    let s = Ball::new(Point3::new(1e4f32, 0.5, 0.0), 1.0).unwrap();
    let r = Ray::new(Point3::origin(), Vector3::x()).unwrap();
    assert!((ray_ball(&r, &s).unwrap().t - 9999.134).abs() < 2e-3);
}

#[test]
fn ray_circle_2d() {
    // Circle r = 2 at (3,4); ray from origin towards it (3,4)/5: hits at distance 5 - 2 = 3.
    let c = Ball::new(Point2::new(3.0, 4.0), 2.0).unwrap();
    let r = Ray::new(Point2::origin(), Vector2::new(0.6, 0.8)).unwrap();
    let h = ray_ball(&r, &c).unwrap();
    assert!(close(h.t, 3.0));
    assert!((h.normal - Vector2::new(-0.6, -0.8)).norm() < 1e-12);
}

// ---------- ray / AABB, OBB ----------

#[test]
fn ray_aabb_cases() {
    let b = Aabb::new(p3(-1.0, -1.0, -1.0), p3(1.0, 1.0, 1.0)).unwrap();
    // Enter through x = -1 at t = 4.
    let h = ray_aabb(&ray(p3(-5.0, 0.0, 0.0), v3(1.0, 0.0, 0.0)), &b).unwrap();
    assert_eq!((h.t, h.normal), (4.0, v3(-1.0, 0.0, 0.0)));
    // Diagonal from (-3,-3,-3) along (1,1,1): corner at t = 2; all slabs enter together.
    assert!(close(ray_aabb(&ray(p3(-3.0, -3.0, -3.0), v3(1.0, 1.0, 1.0)), &b).unwrap().t, 2.0));
    // Parallel to x, outside the y slab: miss without a division by zero.
    assert!(ray_aabb(&ray(p3(-5.0, 2.0, 0.0), v3(1.0, 0.0, 0.0)), &b).is_none());
    // Parallel, exactly on the face plane y = 1: grazes the face, counts as a hit at x = -1.
    assert_eq!(ray_aabb(&ray(p3(-5.0, 1.0, 0.0), v3(1.0, 0.0, 0.0)), &b).unwrap().t, 4.0);
    // Touching an edge: line y = 1, z = 1.
    assert!(ray_aabb(&ray(p3(-5.0, 1.0, 1.0), v3(1.0, 0.0, 0.0)), &b).is_some());
    // Behind.
    assert!(ray_aabb(&ray(p3(5.0, 0.0, 0.0), v3(1.0, 0.0, 0.0)), &b).is_none());
    // Inside: t = 0, zero normal.
    let h = ray_aabb(&ray(p3(0.0, 0.0, 0.0), v3(0.0, 1.0, 0.0)), &b).unwrap();
    assert_eq!((h.t, h.normal), (0.0, Vector3::zeros()));
    // Negative direction: enters through x = +1 at t = 4, normal (+1,0,0).
    let h = ray_aabb(&ray(p3(5.0, 0.0, 0.0), v3(-1.0, 0.0, 0.0)), &b).unwrap();
    assert_eq!((h.t, h.normal), (4.0, v3(1.0, 0.0, 0.0)));
    // Flat box (zero thickness in z) hit head-on at t = 2.
    let flat = Aabb::new(p3(-1.0, -1.0, 0.0), p3(1.0, 1.0, 0.0)).unwrap();
    assert_eq!(ray_aabb(&ray(p3(0.0, 0.0, 2.0), v3(0.0, 0.0, -1.0)), &flat).unwrap().t, 2.0);
    // Huge: box at 1e6, t = 1e6 - 1.
    let far = Aabb::new(p3(1e6 - 1.0, -1.0, -1.0), p3(1e6 + 1.0, 1.0, 1.0)).unwrap();
    assert_eq!(ray_aabb(&ray(p3(0.0, 0.0, 0.0), v3(1.0, 0.0, 0.0)), &far).unwrap().t, 1e6 - 1.0);
    // Tiny direction component (1e-300, inverse 1e300): the y slab spans t = ±1e300, no NaN.
    let h = ray_aabb(&ray(p3(-5.0, 0.0, 0.0), v3(1.0, 1e-300, 0.0)), &b).unwrap();
    assert_eq!(h.t, 4.0);
}

#[test]
fn ray_obb_cases() {
    // Box rotated 45° about z with half extents (1,1,1): its corner points along +x at
    // x = √2. A ray from (-5,0,0) along +x hits the corner edge at t = 5 - √2.
    let q = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_4);
    let b = Obb::from_rotation(p3(0.0, 0.0, 0.0), q, v3(1.0, 1.0, 1.0)).unwrap();
    let h = ray_obb(&ray(p3(-5.0, 0.0, 0.0), v3(1.0, 0.0, 0.0)), &b).unwrap();
    assert!(close(h.t, 5.0 - 2f64.sqrt()));
    // Ray at y = 1.5 > √2: misses.
    assert!(ray_obb(&ray(p3(-5.0, 1.5, 0.0), v3(1.0, 0.0, 0.0)), &b).is_none());
    // Along -y onto the unrotated face z: from (0,0,5) along -z, face z = 1 at t = 4, normal +z.
    let h = ray_obb(&ray(p3(0.0, 0.0, 5.0), v3(0.0, 0.0, -1.0)), &b).unwrap();
    assert!(close(h.t, 4.0) && (h.normal - v3(0.0, 0.0, 1.0)).norm() < 1e-12);
}

// ---------- slabs: k-DOP and convex polyhedron ----------

#[test]
fn ray_kdop_and_polyhedron() {
    // 14-DOP of the unit cube corners: the diagonal slab x+y+z ≤ 3 is not binding, so it is the
    // cube [-1,1]³ clipped by |x±y±z| ≤ 3; a ray along +x from (-5,0,0) enters at x = -1.
    let corners: Vec<Point3<f64>> = (0..8)
        .map(|b| {
            p3(
                if b & 1 == 1 { 1.0 } else { -1.0 },
                if b & 2 == 2 { 1.0 } else { -1.0 },
                if b & 4 == 4 { 1.0 } else { -1.0 },
            )
        })
        .collect();
    let dop = Dop14::<f64>::from_points(&corners).unwrap();
    let h = ray_kdop(&ray(p3(-5.0, 0.0, 0.0), v3(1.0, 0.0, 0.0)), &dop).unwrap();
    assert!(close(h.t, 4.0) && (h.normal - v3(-1.0, 0.0, 0.0)).norm() < 1e-12);
    // An octahedron-like 14-DOP from the six axis points (±1,0,0)...: diagonal slabs |x±y±z| ≤ 1
    // bind. A ray along the diagonal from (-2,-2,-2) towards the origin, direction (1,1,1):
    // the face x+y+z = -1 is reached when -6 + 3t = -1, t = 5/3.
    let axis_pts: Vec<Point3<f64>> = [
        [1.0, 0.0, 0.0],
        [-1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, -1.0, 0.0],
        [0.0, 0.0, 1.0],
        [0.0, 0.0, -1.0],
    ]
    .iter()
    .map(|a| p3(a[0], a[1], a[2]))
    .collect();
    let oct = Dop14::<f64>::from_points(&axis_pts).unwrap();
    let h = ray_kdop(&ray(p3(-2.0, -2.0, -2.0), v3(1.0, 1.0, 1.0)), &oct).unwrap();
    assert!(close(h.t, 5.0 / 3.0));
    assert!((h.normal - v3(-1.0, -1.0, -1.0) / 3f64.sqrt()).norm() < 1e-12);
    // The same against the polyhedron of a box: enter the cube face x = -1 at t = 4.
    let cube =
        ConvexPolyhedron::from_aabb(&Aabb::new(p3(-1.0, -1.0, -1.0), p3(1.0, 1.0, 1.0)).unwrap()).unwrap();
    let h = ray_convex_polyhedron(&ray(p3(-5.0, 0.5, 0.5), v3(1.0, 0.0, 0.0)), &cube).unwrap();
    assert!(close(h.t, 4.0) && (h.normal - v3(-1.0, 0.0, 0.0)).norm() < 1e-12);
    assert!(ray_convex_polyhedron(&ray(p3(-5.0, 1.5, 0.5), v3(1.0, 0.0, 0.0)), &cube).is_none());
    assert_eq!(ray_convex_polyhedron(&ray(p3(0.0, 0.0, 0.0), v3(1.0, 0.0, 0.0)), &cube).unwrap().t, 0.0);
}

/// Rays from the origin aimed exactly at a corner of a box (`d = c`, so the ray passes through
/// `c` at `t = 1` in exact arithmetic) must hit the box at or before `t = 1`, whatever the
/// rounding of the slab parameters: the ray-through-corner case of fuzz finding 25, where a
/// 10⁻³⁰⁰ direction component put the computed entry an ulp past the exit. Boxes of every
/// size on the far side of the corner; the same for the k-DOP of the box's corners.
#[test]
fn rays_through_a_box_corner_always_hit() {
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
    let coordinate = |next: &mut dyn FnMut() -> u64| {
        let r = next();
        let mantissa = 1.0 + (r >> 11) as f64 / (1u64 << 53) as f64;
        let exponent = [-300, -20, -1, 0, 0, 1, 3, 10][(r & 7) as usize];
        let sign = if r & 8 == 0 { 1.0 } else { -1.0 };
        if r & 0xf0 == 0 {
            0.0
        } else {
            sign * mantissa * 2f64.powi(exponent * 10 / 3)
        }
    };
    for _ in 0..20_000 {
        let c = p3(coordinate(&mut next), coordinate(&mut next), coordinate(&mut next));
        if c.coords.norm_squared() == 0.0 {
            continue;
        }
        // The box reaches from the corner away from or towards the origin, per axis.
        let far = Point3::from(c.coords.map(|x| {
            let r = next();
            let size = (1.0 + (r >> 40) as f64) * 1e-3 * (1.0 + x.abs());
            if r & 1 == 0 {
                x + size
            } else {
                x - size
            }
        }));
        let (lo, hi) = (c.inf(&far), c.sup(&far));
        let b = Aabb::new(lo, hi).unwrap();
        let r = ray(Point3::origin(), c.coords);
        let t = ray_aabb(&r, &b).map(|h| h.t);
        assert!(t.is_some_and(|t| t <= 1.0 + 1e-12), "ray_aabb through corner {c:?} of {b:?}: {t:?}");
        let prepared = PreparedRay::new(&r);
        assert!(prepared.enter_box(&lo, &hi, r.max_t()).is_some(), "enter_box through corner {c:?} of {b:?}");
        let corners: Vec<Point3<f64>> = (0..8)
            .map(|k| {
                p3(
                    if k & 1 == 1 { hi.x } else { lo.x },
                    if k & 2 == 2 { hi.y } else { lo.y },
                    if k & 4 == 4 { hi.z } else { lo.z },
                )
            })
            .collect();
        let dop = Dop14::<f64>::from_points(&corners).unwrap();
        let t = ray_kdop(&r, &dop).map(|h| h.t);
        assert!(t.is_some_and(|t| t <= 1.0 + 1e-12), "ray_kdop through corner {c:?} of {dop:?}: {t:?}");
    }
}

// ---------- ray / triangle ----------

fn unit_tri() -> Triangle<f64, 3> {
    Triangle::new(p3(0.0, 0.0, 0.0), p3(1.0, 0.0, 0.0), p3(0.0, 1.0, 0.0)).unwrap()
}

#[test]
fn ray_triangle_variants_agree_on_hand_cases() {
    let t = unit_tri();
    type F = fn(&Ray<f64, 3>, &Triangle<f64, 3>) -> Option<TriangleHit<f64>>;
    let double_sided: [F; 2] = [ray_triangle, ray_triangle_watertight];
    for f in double_sided {
        // Straight down onto (0.25, 0.5): t = 2, u = 0.25 (weight of b), v = 0.5 (weight of c).
        let h = f(&ray(p3(0.25, 0.5, 2.0), v3(0.0, 0.0, -1.0)), &t).unwrap();
        assert!(close(h.t, 2.0) && close(h.u, 0.25) && close(h.v, 0.5));
        // From below (back side): still a hit, t = 3.
        assert!(close(f(&ray(p3(0.25, 0.25, -3.0), v3(0.0, 0.0, 1.0)), &t).unwrap().t, 3.0));
        // Outside the hypotenuse u + v = 1.2 > 1: miss.
        assert!(f(&ray(p3(0.6, 0.6, 1.0), v3(0.0, 0.0, -1.0)), &t).is_none());
        // Exactly on the edge v = 0 (the segment ab): hit.
        assert!(f(&ray(p3(0.5, 0.0, 1.0), v3(0.0, 0.0, -1.0)), &t).is_some());
        // Exactly through a vertex: hit.
        assert!(f(&ray(p3(0.0, 0.0, 1.0), v3(0.0, 0.0, -1.0)), &t).is_some());
        // Parallel, in the plane: miss (documented).
        assert!(f(&ray(p3(-1.0, 0.25, 0.0), v3(1.0, 0.0, 0.0)), &t).is_none());
        // Behind: the triangle is at t = -1.
        assert!(f(&ray(p3(0.25, 0.25, -1.0), v3(0.0, 0.0, -1.0)), &t).is_none());
        // Zero-area triangle: a ≠ b, c on ab; every ray misses.
        let flat = Triangle::new(p3(0.0, 0.0, 0.0), p3(1.0, 0.0, 0.0), p3(2.0, 0.0, 0.0)).unwrap();
        assert!(f(&ray(p3(0.5, 0.0, 1.0), v3(0.0, 0.0, -1.0)), &flat).is_none());
        // max_t: hit at t = 2 excluded by max_t = 1.5.
        assert!(f(&ray(p3(0.25, 0.25, 2.0), v3(0.0, 0.0, -1.0)).with_max_t(1.5).unwrap(), &t).is_none());
        // Huge: triangle scaled by 1e6 at z = -1e6, t = 1e6.
        let big = Triangle::new(p3(0.0, 0.0, -1e6), p3(1e6, 0.0, -1e6), p3(0.0, 1e6, -1e6)).unwrap();
        assert!(close(f(&ray(p3(1e5, 1e5, 0.0), v3(0.0, 0.0, -1.0)), &big).unwrap().t, 1e6));
        // Tiny: triangle of size 1e-6 at z = 1e-6 below the origin.
        let small = Triangle::new(p3(0.0, 0.0, -1e-6), p3(1e-6, 0.0, -1e-6), p3(0.0, 1e-6, -1e-6)).unwrap();
        let h = f(&ray(p3(2e-7, 2e-7, 0.0), v3(0.0, 0.0, -1.0)), &small).unwrap();
        assert!(close(h.t, 1e-6) && close(h.u, 0.2) && close(h.v, 0.2));
    }
    // Culling: the front face is the +z side (normal (b-a)×(c-a) = +z); from above → hit, from
    // below → culled.
    assert!(ray_triangle_culling(&ray(p3(0.25, 0.25, 1.0), v3(0.0, 0.0, -1.0)), &t).is_some());
    assert!(ray_triangle_culling(&ray(p3(0.25, 0.25, -1.0), v3(0.0, 0.0, 1.0)), &t).is_none());
}

/// Watertightness: a ray through the shared edge of two triangles hits at least one of them.
#[test]
fn watertight_shared_edges() {
    // Two triangles sharing the diagonal from (0,0) to (1,1) of the unit square at z = 0.
    let a =
        Triangle::new(Point3::new(0.0f32, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(1.0, 1.0, 0.0))
            .unwrap();
    let b =
        Triangle::new(Point3::new(0.0f32, 0.0, 0.0), Point3::new(1.0, 1.0, 0.0), Point3::new(0.0, 1.0, 0.0))
            .unwrap();
    // Interior points of the diagonal only: its ends are corners of the square, where a ray may
    // legitimately pass just outside both triangles.
    for i in 1..1000 {
        let s = i as f32 / 1000.0;
        // Rays through points of the diagonal, slightly tilted so the arithmetic is inexact.
        let r = Ray::new(Point3::new(s + 0.1, s - 0.3, 1.0), Vector3::new(-0.1, 0.3, -1.0)).unwrap();
        let hits = ray_triangle_watertight(&r, &a).is_some() as u32
            + ray_triangle_watertight(&r, &b).is_some() as u32;
        assert!(hits >= 1, "ray through diagonal point {s} fell through the crack");
    }
}

/// Watertightness on the plane path: two triangles sharing an edge that reach behind and
/// ahead of the ray's origin along its dominant axis (so the parameter comes from the plane,
/// clamped into the triangle's prism), and grazing rays through points of the shared edge:
/// each hits at least one of them, at a point on it.
#[test]
fn watertight_shared_edges_on_the_plane_path() {
    // The square [-5, 5]² at z = 0 split along its diagonal; rays start above it near the
    // middle and run mostly along +x (the dominant axis), dropping to the plane at the edge.
    let (p, q) = (Point3::new(-5.0f32, -5.0, 0.0), Point3::new(5.0, 5.0, 0.0));
    let a = Triangle::new(p, Point3::new(5.0, -5.0, 0.0), q).unwrap();
    let b = Triangle::new(p, q, Point3::new(-5.0, 5.0, 0.0)).unwrap();
    let mut bits = xorshift(1201);
    let mut unit = move || (bits() >> 11) as f32 / (1u64 << 53) as f32;
    let mut plane_path = 0;
    for _ in 0..20_000 {
        let s = -4.0 + 8.0 * unit();
        let target = Point3::new(s, s, 0.0);
        let height = 10f32.powf(-4.0 + 3.0 * unit());
        let back = 1.0 + 3.0 * unit();
        let origin = Point3::new(s - back, s - back * (0.9 + 0.2 * unit()), height);
        let Ok(r) = Ray::new(origin, target - origin) else { continue };
        let hits: Vec<_> =
            [a, b].into_iter().filter_map(|t| ray_triangle_watertight(&r, &t).map(|h| (t, h))).collect();
        assert!(!hits.is_empty(), "{r:?} through the shared edge at {s} fell through the crack");
        plane_path += (origin.x > -5.0) as usize;
        for (t, h) in hits {
            let at = r.at(h.t).cast::<f64>();
            let [u, v, w] = t.vertices().map(|x| x.cast::<f64>());
            let on = closest_point_on_triangle(&at, &Triangle::new(u, v, w).unwrap()).0;
            assert!((on - at).norm() <= 1e-5, "{r:?}: hit {h:?} {} off its triangle", (on - at).norm());
        }
    }
    assert!(plane_path > 10_000);
}

// ---------- ray / polygon and plane ----------

#[test]
fn ray_polygon_and_plane() {
    // An L-shaped (non-convex) hexagon in the plane z = 1.
    let l = Polygon::new(vec![
        p3(0.0, 0.0, 1.0),
        p3(2.0, 0.0, 1.0),
        p3(2.0, 1.0, 1.0),
        p3(1.0, 1.0, 1.0),
        p3(1.0, 2.0, 1.0),
        p3(0.0, 2.0, 1.0),
    ])
    .unwrap();
    assert!(!l.is_convex());
    let down = v3(0.0, 0.0, -1.0);
    // Inside the L at (0.5, 1.5): hit at t = 2 from z = 3.
    assert!(close(ray_polygon(&ray(p3(0.5, 1.5, 3.0), down), &l).unwrap().t, 2.0));
    // In the notch (1.5, 1.5): miss.
    assert!(ray_polygon(&ray(p3(1.5, 1.5, 3.0), down), &l).is_none());
    // Through a vertex's y (the crossings ray passes the reflex vertex (1,1)): point (0.5, 1.0)
    // is inside (on the y = 1 line, x < 1) — the "vertex above the ray" rule counts it once.
    assert!(ray_polygon(&ray(p3(0.5, 1.0, 3.0), down), &l).is_some());
    // Parallel to the plane: miss.
    assert!(ray_polygon(&ray(p3(0.5, 0.5, 1.0), v3(1.0, 0.0, 0.0)), &l).is_none());

    // Plane z = 1 (normal +z, d = -1).
    let pl = Plane::new(v3(0.0, 0.0, 2.0), -2.0).unwrap();
    let h = ray_plane(&ray(p3(0.0, 0.0, 5.0), down), &pl).unwrap();
    assert!(close(h.t, 4.0) && h.normal == v3(0.0, 0.0, 1.0));
    // From below, the normal faces the ray: -z.
    assert_eq!(ray_plane(&ray(p3(0.0, 0.0, -5.0), -down), &pl).unwrap().normal, v3(0.0, 0.0, -1.0));
    // Parallel off the plane: miss; pointing away: miss; starting on it: t = 0.
    assert!(ray_plane(&ray(p3(0.0, 0.0, 5.0), v3(1.0, 0.0, 0.0)), &pl).is_none());
    assert!(ray_plane(&ray(p3(0.0, 0.0, 5.0), -down), &pl).is_none());
    assert_eq!(ray_plane(&ray(p3(3.0, 0.0, 1.0), v3(1.0, 0.0, 0.0)), &pl).unwrap().t, 0.0);
    // Fuzz finding 35 (FUZZING.md): a plane whose unit normal has a subnormal component along
    // the ray (a half-space turned by a quaternion with components of 10⁻³⁰¹) and a ray a
    // million away: t = 10⁶ / 10⁻³²⁰ overflows. Not reached at any finite distance: a miss,
    // not a hit at t = ∞ with a NaN point.
    let tilted = Plane::new(v3(0.0, 1.0, -2e-320), 0.0).unwrap();
    assert!(tilted.normal().z != 0.0, "the subnormal survives normalization");
    assert!(ray_plane(&ray(p3(8.7, -1e6, 0.1), v3(0.0, 0.0, -3.5)), &tilted).is_none());
    // Fuzz finding 45: a direction of (0, 10⁻³⁰⁰, 10⁹) meets the plane y = 155 at a finite
    // t = 1.6·10³⁰² whose point has z = ∞: met beyond every representable point, a miss. The
    // same plane along a unit direction is an ordinary hit.
    let wall = Plane::new(v3(0.0, 1.0, 0.0), -155.0).unwrap();
    assert!(ray_plane(&ray(p3(-8.2, -8.2, -8.2), v3(0.0, 1e-300, 1e9)), &wall).is_none());
    let h = ray_plane(&ray(p3(-8.2, -8.2, -8.2), v3(0.0, 1.0, 0.0)), &wall).unwrap();
    assert!(close(h.t, 163.2));
}

#[test]
fn point_in_polygon_2d() {
    // Square with a vertex exactly at the test ray's height: (0,0),(2,0),(2,2),(0,2).
    let sq = Polygon::new(vec![
        Point2::new(0.0, 0.0),
        Point2::new(2.0, 0.0),
        Point2::new(2.0, 2.0),
        Point2::new(0.0, 2.0),
    ])
    .unwrap();
    assert!(point_in_polygon(&Point2::new(1.0, 1.0), &sq));
    assert!(!point_in_polygon(&Point2::new(3.0, 1.0), &sq));
    // The +x ray from (-1, 0) runs along the bottom edge: vertices at y = 0 count as above, so
    // the edges (0,2)-(0,0) and (2,0)-(2,2) do not flip parity: outside.
    assert!(!point_in_polygon(&Point2::new(-1.0, 0.0), &sq));
    // A diamond whose vertex (2,1) lies on the ray from (0.5,1): counted once → inside.
    let dia = Polygon::new(vec![
        Point2::new(1.0, 0.0),
        Point2::new(2.0, 1.0),
        Point2::new(1.0, 2.0),
        Point2::new(0.0, 1.0),
    ])
    .unwrap();
    assert!(point_in_polygon(&Point2::new(0.5, 1.0), &dia));
    assert!(!point_in_polygon(&Point2::new(-0.5, 1.0), &dia));
}

// ---------- round solids ----------

#[test]
fn ray_capsule_cylinder_cone() {
    // Capsule along x from (-1,0,0) to (1,0,0), r = 0.5.
    let cap = Capsule::new(p3(-1.0, 0.0, 0.0), p3(1.0, 0.0, 0.0), 0.5).unwrap();
    // Side: from (0,5,0) down: y = 0.5 at t = 4.5, normal +y.
    let h = ray_capsule(&ray(p3(0.0, 5.0, 0.0), v3(0.0, -1.0, 0.0)), &cap).unwrap();
    assert!(close(h.t, 4.5) && (h.normal - v3(0.0, 1.0, 0.0)).norm() < 1e-12);
    // End cap along the axis: x = -1.5 from x = -5: t = 3.5, normal -x.
    let h = ray_capsule(&ray(p3(-5.0, 0.0, 0.0), v3(1.0, 0.0, 0.0)), &cap).unwrap();
    assert!(close(h.t, 3.5) && (h.normal - v3(-1.0, 0.0, 0.0)).norm() < 1e-12);
    // Parallel to the axis at y = 0.6 > r: miss. At y = 0.3: hits the cap sphere at
    // x = -1 - sqrt(0.25 - 0.09) = -1.4, t = 3.6.
    assert!(ray_capsule(&ray(p3(-5.0, 0.6, 0.0), v3(1.0, 0.0, 0.0)), &cap).is_none());
    assert!(close(ray_capsule(&ray(p3(-5.0, 0.3, 0.0), v3(1.0, 0.0, 0.0)), &cap).unwrap().t, 3.6));
    // Inside.
    assert_eq!(ray_capsule(&ray(p3(0.9, 0.1, 0.0), v3(0.0, 1.0, 0.0)), &cap).unwrap().t, 0.0);

    // Cylinder along z from (0,0,0) to (0,0,2), r = 1.
    let cyl = Cylinder::new(p3(0.0, 0.0, 0.0), p3(0.0, 0.0, 2.0), 1.0).unwrap();
    // Side: from (-5,0,1) along +x: x = -1 at t = 4, normal -x.
    let h = ray_cylinder(&ray(p3(-5.0, 0.0, 1.0), v3(1.0, 0.0, 0.0)), &cyl).unwrap();
    assert!(close(h.t, 4.0) && (h.normal - v3(-1.0, 0.0, 0.0)).norm() < 1e-12);
    // Cap: from (0.5,0,5) along -z: z = 2 at t = 3, normal +z.
    let h = ray_cylinder(&ray(p3(0.5, 0.0, 5.0), v3(0.0, 0.0, -1.0)), &cyl).unwrap();
    assert!(close(h.t, 3.0) && (h.normal - v3(0.0, 0.0, 1.0)).norm() < 1e-12);
    // Parallel to the axis outside the radius: miss. Above the top, horizontal: miss.
    assert!(ray_cylinder(&ray(p3(1.5, 0.0, 5.0), v3(0.0, 0.0, -1.0)), &cyl).is_none());
    assert!(ray_cylinder(&ray(p3(-5.0, 0.0, 2.5), v3(1.0, 0.0, 0.0)), &cyl).is_none());
    // Tangent to the side (y = 1): touches at (0,1,1), t = 5.
    assert!(close(ray_cylinder(&ray(p3(-5.0, 1.0, 1.0), v3(1.0, 0.0, 0.0)), &cyl).unwrap().t, 5.0));

    // Cone: apex (0,0,2), base centre (0,0,0), base radius 1 (so radius at height z is 1 - z/2).
    let cone = Cone::new(p3(0.0, 0.0, 2.0), p3(0.0, 0.0, 0.0), 1.0).unwrap();
    // Horizontal at z = 1: radius 0.5, from x = -5 → t = 4.5. The outward normal there is
    // (-2, 0, 1)/√5 (the slant rises 2 over 1).
    let h = ray_cone(&ray(p3(-5.0, 0.0, 1.0), v3(1.0, 0.0, 0.0)), &cone).unwrap();
    assert!(close(h.t, 4.5));
    assert!((h.normal - v3(-2.0, 0.0, 1.0) / 5f64.sqrt()).norm() < 1e-9);
    // Up through the base at (0.5,0,-3): base plane z = 0 at t = 3, normal -z.
    let h = ray_cone(&ray(p3(0.5, 0.0, -3.0), v3(0.0, 0.0, 1.0)), &cone).unwrap();
    assert!(close(h.t, 3.0) && (h.normal - v3(0.0, 0.0, -1.0)).norm() < 1e-12);
    // Down the axis from above the apex: hits the apex at t = 1.
    assert!(close(ray_cone(&ray(p3(0.0, 0.0, 3.0), v3(0.0, 0.0, -1.0)), &cone).unwrap().t, 1.0));
    // Horizontal above the apex: miss (the mirrored nappe is not part of the cone).
    assert!(ray_cone(&ray(p3(-5.0, 0.0, 2.5), v3(1.0, 0.0, 0.0)), &cone).is_none());
    // A ray that would hit the mirror nappe above the apex, from (−1,0,5) along (+1,0,−1):
    // at z = 4 the mirror radius is 1 — it must miss the mirror and come down to the real
    // cone: it crosses the apex line only at (2,0,2)... which is the apex height at x = 2 > 0,
    // outside: the ray x = -1 + s, z = 5 - s meets the slant z = 2 - 2x (x ≥ 0) at
    // 5 - s = 2 - 2(-1 + s) → s = -1 (behind) → no hit on the near slant; the far slant
    // z = 2 + 2x (x ≤ 0) at 5 - s = 2 + 2(-1 + s) → s = 5/3, x = 2/3 > 0 → not that side.
    assert!(ray_cone(&ray(p3(-1.0, 0.0, 5.0), v3(1.0, 0.0, -1.0)), &cone).is_none());
    // Inside.
    assert_eq!(ray_cone(&ray(p3(0.0, 0.0, 0.5), v3(1.0, 0.0, 0.0)), &cone).unwrap().t, 0.0);
}

/// Distance from `p` to a lozenge's parallelogram (two triangles).
fn parallelogram_distance(p: &Point3<f64>, l: &Lozenge<f64>) -> f64 {
    let (o, e0, e1) = (*l.origin(), *l.e0(), *l.e1());
    [(o, o + e0, o + e0 + e1), (o, o + e0 + e1, o + e1)]
        .iter()
        .map(|&(a, b, c)| (closest_point_on_triangle(p, &Triangle::new(a, b, c).unwrap()).0 - p).norm())
        .fold(f64::INFINITY, f64::min)
}

#[test]
fn ray_lozenge_hand_cases() {
    // The square [0,2]×[0,2] in the xy plane grown by 0.5.
    let l = Lozenge::new(p3(0.0, 0.0, 0.0), v3(2.0, 0.0, 0.0), v3(0.0, 2.0, 0.0), 0.5).unwrap();
    // Down onto the face: z = 0.5 at t = 4.5, normal +z.
    let h = ray_lozenge(&ray(p3(1.0, 1.0, 5.0), v3(0.0, 0.0, -1.0)), &l).unwrap();
    assert!(close(h.t, 4.5) && (h.normal - v3(0.0, 0.0, 1.0)).norm() < 1e-12, "{h:?}");
    // Sideways into the rounded edge x = 2 at z = 0: x = 2.5 at t = 2.5, normal +x.
    let h = ray_lozenge(&ray(p3(5.0, 1.0, 0.0), v3(-1.0, 0.0, 0.0)), &l).unwrap();
    assert!(close(h.t, 2.5) && (h.normal - v3(1.0, 0.0, 0.0)).norm() < 1e-12, "{h:?}");
    // Past the rounded corner: along the diagonal at z = 0 towards (2,2): enters the corner
    // ball at distance 0.5 from (2,2).
    let d = v3(-1.0, -1.0, 0.0) / 2f64.sqrt();
    let from = p3(2.0, 2.0, 0.0) - d * 5.0;
    assert!(close(ray_lozenge(&ray(from, d), &l).unwrap().t, 4.5));
    // Just above the radius, parallel to the face: miss. Inside: t = 0.
    assert!(ray_lozenge(&ray(p3(-5.0, 1.0, 0.51), v3(1.0, 0.0, 0.0)), &l).is_none());
    assert_eq!(ray_lozenge(&ray(p3(1.0, 1.0, 0.2), v3(1.0, 0.0, 0.0)), &l).unwrap().t, 0.0);
    // A zero radius is the flat square; degenerate edges leave a capsule.
    let flat = Lozenge::new(p3(0.0, 0.0, 0.0), v3(2.0, 0.0, 0.0), v3(0.0, 2.0, 0.0), 0.0).unwrap();
    assert!(close(ray_lozenge(&ray(p3(1.0, 1.0, 3.0), v3(0.0, 0.0, -1.0)), &flat).unwrap().t, 3.0));
    let stick = Lozenge::new(p3(0.0, 0.0, 0.0), v3(2.0, 0.0, 0.0), v3(0.0, 0.0, 0.0), 0.5).unwrap();
    assert!(close(ray_lozenge(&ray(p3(1.0, 5.0, 0.0), v3(0.0, -1.0, 0.0)), &stick).unwrap().t, 4.5));
}

/// Against sampling: random lozenges (parallelograms too) and rays; the first sample inside
/// is never before the reported hit, and the hit point lies on the surface.
#[test]
fn ray_lozenge_matches_sampling() {
    let mut seed = 99u64;
    let mut rnd = |lo: f64, hi: f64| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        lo + (hi - lo) * ((seed >> 11) as f64 / (1u64 << 53) as f64)
    };
    let (mut hits, mut misses) = (0, 0);
    for _ in 0..400 {
        let mut v = [0.0; 16];
        v.iter_mut().for_each(|x| *x = rnd(-1.0, 1.0));
        let w = |i: usize| v3(v[i], v[i + 1], v[i + 2]);
        let (o, e0, e1) = (Point3::from(w(0)), w(3), w(6));
        let l = Lozenge::new(o, e0, e1, v[15].abs() * 0.5).unwrap();
        let start = Point3::from(w(12) * 3.0);
        // Aimed near the lozenge, so about half the rays hit.
        let dir = (o + (e0 + e1) * 0.5 + w(9) * 0.8) - start;
        let r = Ray::new(start, dir.normalize()).unwrap().with_max_t(6.0).unwrap();
        let hit = ray_lozenge(&r, &l);
        let steps = 6000;
        let first_inside = (0..=steps)
            .map(|i| 6.0 * i as f64 / steps as f64)
            .find(|&t| parallelogram_distance(&r.at(t), &l) <= l.radius());
        match hit {
            Some(h) => {
                hits += 1;
                let gap = parallelogram_distance(&r.at(h.t), &l) - l.radius();
                assert!(gap <= 1e-9 && (h.t == 0.0 || gap >= -1e-9), "hit {h:?} is {gap} off the surface");
                if let Some(t) = first_inside {
                    assert!(t >= h.t - 1e-9, "inside at {t} before the hit {h:?}");
                }
            }
            None => {
                misses += 1;
                assert!(first_inside.is_none(), "no hit but inside at {first_inside:?}");
            }
        }
    }
    assert!(hits > 50 && misses > 50, "{hits} hits, {misses} misses");
}

#[test]
fn obb_constructor_rejects_non_orthonormal() {
    let skew = Matrix3::new(1.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0);
    assert_eq!(Obb::new(p3(0.0, 0.0, 0.0), skew, v3(1.0, 1.0, 1.0)), Err(GeomError::NotOrthonormal));
    assert_eq!(
        Obb::new(p3(0.0, 0.0, 0.0), Matrix3::identity(), v3(1.0, -1.0, 1.0)),
        Err(GeomError::Negative)
    );
}

/// Axes within the accepted 10⁻⁴ of orthonormal are made orthonormal to rounding, the first
/// axis kept and the handedness too; axes orthonormal to a few ε are stored as given.
#[test]
fn obb_constructor_makes_nearly_orthonormal_axes_orthonormal() {
    let q = nalgebra::UnitQuaternion::from_euler_angles(0.3, -1.1, 2.0);
    let exact = q.to_rotation_matrix().into_inner();
    for (shear, flip) in [(3e-5, 1.0), (-4e-5, -1.0)] {
        let mut sheared = exact;
        sheared.set_column(1, &(exact.column(1) + exact.column(0) * shear));
        sheared.set_column(2, &(exact.column(2) * (1.0 + shear) * flip));
        let b = Obb::new(p3(1.0, 2.0, 3.0), sheared, v3(1.0, 2.0, 3.0)).unwrap();
        let axes = b.axes();
        assert!((axes.transpose() * axes - Matrix3::identity()).amax() < 1e-15, "{axes}");
        assert!((axes.column(0) - exact.column(0)).amax() < 1e-15);
        assert!((axes.determinant() - flip).abs() < 1e-12, "handedness {}", axes.determinant());
        assert!(
            (axes
                - Matrix3::from_columns(&[
                    exact.column(0).into_owned(),
                    exact.column(1).into_owned(),
                    exact.column(2) * flip
                ]))
            .amax()
                < 1e-14
        );
    }
    let b = Obb::new(p3(0.0, 0.0, 0.0), exact, v3(1.0, 1.0, 1.0)).unwrap();
    assert_eq!(*b.axes(), exact);
}

/// An `f32` box widened to `f64`: the same centre and extents exactly, axes orthonormal to
/// `f64` rounding and within `f32` rounding of the box's own.
#[test]
fn obb_widened_to_f64_is_orthonormal() {
    let q = nalgebra::UnitQuaternion::from_euler_angles(0.3f32, -1.1, 2.0);
    let b = Obb::from_rotation(
        nalgebra::Point3::new(1.5f32, -2.25, 3.0),
        q,
        nalgebra::Vector3::new(0.5f32, 2.0, 0.125),
    )
    .unwrap();
    let w = b.widened();
    assert_eq!(w.center().coords, b.center().coords.map(f64::from));
    assert_eq!(*w.half_extents(), b.half_extents().map(f64::from));
    assert!((w.axes().transpose() * w.axes() - Matrix3::identity()).amax() < 1e-15);
    assert!((w.axes() - b.axes().map(f64::from)).amax() < 1e-6);
}

/// Found by the `geom_queries` fuzz target (f32): a ray from near the origin with direction
/// (3.3·10⁶, 3.3·10⁶, 10⁻⁴³) against a triangle with a vertex at (3.3·10⁶, 3.3·10⁶, 10⁻⁴³)
/// and two at (−8, −24.2, −24.2) and (−24.2, −24.2, 2.5·10⁻⁴³): a hit with a non-finite
/// parameter.
#[test]
fn regression_ray_triangle_subnormal_components_give_finite_hits() {
    let bits = [
        0x000000b4u32,
        0xb938b938,
        0xb938c10a,
        0x0000b3b9,
        0x00000000,
        0xb9b9b900,
        0xb9b939b9,
        0xb9b9b9b9,
        0xc1c1c1c1,
        0x4a4ac1c1,
        0x4a4a4a4a,
        0x0000004a,
        0xc1000000,
        0xc1c1c1c1,
        0xc1c1c1c1,
        0xc1c1c1c1,
        0xc1c1c1c1,
        0x000000b3,
    ];
    let v: Vec<f32> = bits.iter().map(|&b| f32::from_bits(b)).collect();
    let p = |i: usize| Point3::new(v[i], v[i + 1], v[i + 2]);
    let ray = Ray::new(p(0), Vector3::new(v[9], v[10], v[11])).unwrap();
    let tri = Triangle::new(p(9), p(12), p(15)).unwrap();
    for (name, hit) in
        [("moller", ray_triangle(&ray, &tri)), ("watertight", ray_triangle_watertight(&ray, &tri))]
    {
        if let Some(h) = hit {
            assert!(h.t.is_finite() && h.u.is_finite() && h.v.is_finite(), "{name}: {h:?}");
        }
    }
}

/// Fuzz finding 26 (FUZZING.md): a sliver 8.7·10⁹ long and 9·10⁻⁴ wide lying in the plane
/// z = −3·10⁻⁴, and a ray from (10⁹, 4.31, 4.31) along (1, 1, 1) whose line crosses that plane
/// behind its origin (t ≈ −1). The watertight test reported a hit at t = 6,944, 40,000 units
/// from the triangle: the shear had blurred the sliver's width, and the depths interpolated
/// with those weights cancelled.
#[test]
fn regression_watertight_sliver_far_from_the_ray_origin() {
    let tri = Triangle::new(
        p3(8705000000.0, -0.00030517578125, -0.00030517578125),
        p3(-0.00030517578125, -0.00030517578125, -0.00030517578125),
        p3(-0.00030517578125, -0.001220703125, -0.00030517578125),
    )
    .unwrap();
    let d = 4.31365966796875;
    let r = ray(p3(1e9, d, d), v3(d, d, d));
    assert_eq!(ray_triangle_watertight(&r, &tri), None);
    assert_eq!(ray_triangle(&r, &tri), None);
    // Reversed, the ray reaches the plane at t = (d + 3·10⁻⁴)/d ≈ 1.0000707, at
    // (10⁹ − 4.3, −3·10⁻⁴, −3·10⁻⁴): on the sliver's long edge, a hit. Aimed at a point inside
    // the sliver from elsewhere, a hit on the plane at t = 1.
    let back = ray_triangle_watertight(&ray(p3(1e9, d, d), v3(-d, -d, -d)), &tri).expect("edge hit");
    assert!((back.t - (d + 0.00030517578125) / d).abs() < 1e-12, "{back:?}");
    let target = p3(1e9, -0.0005, -0.00030517578125);
    let aimed = ray(p3(1e9 - 3.0, 4.0, 5.0), target - p3(1e9 - 3.0, 4.0, 5.0));
    let hit = ray_triangle_watertight(&aimed, &tri).expect("aimed at the sliver");
    let at = aimed.at(hit.t);
    assert!((at.z + 0.00030517578125).abs() < 1e-12 && (hit.t - 1.0).abs() < 1e-9, "{hit:?} at {at:?}");
}

/// Fuzz finding 37 (FUZZING.md): a sliver 1.6·10¹⁰ long whose near corner is at about
/// (2.1, 2.0, 0.08), and a ray from (2.09, 2.04, 2.04) along (1, 1, 1), almost parallel to the
/// sliver's plane and moving away from its box in z. Seen along the ray the sliver is a needle
/// passing within an ulp of the origin; the edge functions called the origin inside, and the
/// plane put the "hit" at t = 1.7·10⁶, 3.5·10⁶ units beyond the triangle. Probing it showed
/// both ray tests wrong on rays straight onto the sliver too.
#[test]
fn regression_watertight_plane_hit_outside_the_sliver() {
    let tri = Triangle::new(
        p3(-15935000000.0, -15935000000.0, -15423000000.0),
        p3(2.10113525390625, 2.0391845703125, 0.07781982421875),
        p3(0.0, -0.00030517578125, -0.00030517578125),
    )
    .unwrap();
    let d = 2.0391845703125;
    let r = ray(p3(2.0904541015625, d, d), v3(d, d, d));
    assert_eq!(ray_triangle_watertight(&r, &tri), None);
    assert_eq!(ray_triangle(&r, &tri), None);
    // Rays dropped on points of the sliver from 5 units above it hit there, at t = 1, with
    // both tests. Before this fix both crossed the two long edges (the watertight test for
    // its plane, Möller–Trumbore from the far vertex): the watertight test missed every one
    // and Möller–Trumbore put them at t = 1,298 to 3,843.
    let n = tri.normal().unwrap();
    for (u, v) in [(0.25, 0.5), (0.5, 0.4999), (0.4, 0.59999), (0.3, 0.3), (0.45, 0.5)] {
        let target = tri.at_barycentric(u, v);
        let dropped = ray(target + n * 5.0, -n * 5.0);
        for (name, hit) in [
            ("watertight", ray_triangle_watertight(&dropped, &tri)),
            ("Möller–Trumbore", ray_triangle(&dropped, &tri)),
        ] {
            let hit = hit.unwrap_or_else(|| panic!("{name} missed ({u}, {v})"));
            assert!((hit.t - 1.0).abs() < 1e-6, "{name} ({u}, {v}): {hit:?}");
            assert!((hit.u - u).abs() < 1e-6 && (hit.v - v).abs() < 1e-6, "{name} ({u}, {v}): {hit:?}");
        }
    }
}

/// Every hit the watertight test reports lies on the triangle (within its bounding box, to
/// rounding of the largest coordinate): slivers up to 10¹⁰ long and down to 10⁻⁶ wide in the
/// plane z = c, rays from far away aimed near them or in random directions.
#[test]
fn watertight_hits_on_slivers_lie_on_the_sliver() {
    let mut bits = xorshift(0x5851_f42d_4c95_7f2d);
    let mut unit = move || (bits() >> 11) as f64 / (1u64 << 53) as f64;
    let mut hits = 0;
    for _ in 0..50_000 {
        let length = 10f64.powf(unit() * 10.0);
        let width = 10f64.powf(-6.0 + unit() * 6.0);
        let c = (unit() - 0.5) * 10.0;
        let x0 = (unit() - 0.5) * length;
        let tri = Triangle::new(
            p3(x0 + length, (unit() - 0.5) * width, c),
            p3(x0, (unit() - 0.5) * width, c),
            p3(x0 + unit() * length, width, c),
        )
        .unwrap();
        let o = p3((unit() - 0.5) * 4.0 * length, (unit() - 0.5) * 10.0, (unit() - 0.5) * 10.0);
        // Aimed at a point near the sliver, in a random direction, or along a diagonal (equal
        // components: the shear then runs along x, the sliver's long axis, as in the finding).
        let pick = unit();
        let d = if pick < 0.4 {
            p3(x0 + unit() * length, (unit() - 0.5) * width * 2.0, c) - o
        } else if pick < 0.7 {
            v3(unit() - 0.5, unit() - 0.5, unit() - 0.5)
        } else {
            let sign = |u: f64| if u < 0.5 { -1.0 } else { 1.0 };
            v3(sign(unit()), sign(unit()), sign(unit())) * (0.1 + unit())
        };
        let Ok(r) = Ray::new(o, d) else { continue };
        if let Some(hit) = ray_triangle_watertight(&r, &tri) {
            hits += 1;
            let at = r.at(hit.t);
            // Rounding error relative to the largest coordinate involved: the shear mixes the
            // coordinates, so a sliver's plane is only known to a tilt of ε·size/width and the
            // hit to that times the size. The bug was 10⁴ off with sizes of 10¹⁰: far outside.
            let size =
                tri.vertices().iter().chain([r.origin(), &at]).fold(1.0f64, |m, p| m.max(p.coords.amax()));
            let slack = 1e-9 * size;
            let bounds = Aabb::from_points(&tri.vertices()).unwrap();
            let outside = (bounds.min() - at).sup(&(at - bounds.max())).max();
            assert!(outside <= slack, "{tri:?} {r:?}: hit {hit:?} at {at:?}, {outside} outside the box");
        }
    }
    assert!(hits > 1000, "only {hits} hits: the test aims badly");
}

/// Fuzz finding 38: an edge function whose two products are 10⁻⁶⁰⁰ and 0 (underflow, even in
/// exact `f64` products) must keep its sign. The ray from the origin along +z passes 10⁻³⁰⁰
/// beside the vertex (0, 10⁻³⁰⁰, 0), outside the triangle: no hit, in `f64` and for a mirrored
/// copy; and the same ray moved onto the vertex hits it at t = 0.
#[test]
fn watertight_edge_functions_keep_their_sign_through_underflow() {
    let tri = |y: f64| {
        Triangle::new(
            Point3::new(1e-300, 2.9041e10, 0.0),
            Point3::new(0.0, 2.9041e10, 1.13e8),
            Point3::new(0.0, y, 0.0),
        )
        .unwrap()
    };
    let ray = Ray::new(Point3::origin(), Vector3::new(0.0, 0.0, 1e6)).unwrap();
    assert_eq!(ray_triangle_watertight(&ray, &tri(1e-300)), None);
    let mirrored = Triangle::new(
        Point3::new(-1e-300, 2.9041e10, 0.0),
        Point3::new(0.0, 2.9041e10, 1.13e8),
        Point3::new(0.0, 1e-300, 0.0),
    )
    .unwrap();
    assert_eq!(ray_triangle_watertight(&ray, &mirrored), None);
    let on_vertex = Ray::new(Point3::new(0.0, 1e-300, 0.0), Vector3::new(0.0, 0.0, 1e6)).unwrap();
    assert_eq!(ray_triangle_watertight(&on_vertex, &tri(1e-300)).map(|h| h.t), Some(0.0));
    // The same in f32 at 10⁻²⁵: the product 10⁻⁵⁰ is exact in f64 but zero in f32, and must
    // come back with its sign.
    let tri32 = Triangle::new(
        Point3::new(1e-25f32, 2.9e8, 0.0),
        Point3::new(0.0, 2.9e8, 1.1e6),
        Point3::new(0.0, 1e-25, 0.0),
    )
    .unwrap();
    let ray32 = Ray::new(Point3::origin(), Vector3::new(0.0f32, 0.0, 1e3)).unwrap();
    assert_eq!(ray_triangle_watertight(&ray32, &tri32), None);
    let on_vertex32 = Ray::new(Point3::new(0.0f32, 1e-25, 0.0), Vector3::new(0.0, 0.0, 1e3)).unwrap();
    assert_eq!(ray_triangle_watertight(&on_vertex32, &tri32).map(|h| h.t), Some(0.0));
}

/// Fuzz finding 40: a triangle in the plane y = 0, 10⁻³⁰⁰ behind a ray leaving along +y. The
/// hit parameter's products (edge weights of 10⁻³⁰³ times depths of −10⁻³⁰⁰) underflow to −0,
/// which passed `t ≥ 0`: the triangle was "hit" at t = −0. Whether it lies behind is decided
/// from the signs now; the same triangle touched by the origin itself is still hit at +0.
#[test]
fn watertight_triangle_just_behind_the_origin_is_missed_through_underflow() {
    let tri = |y: f64| {
        Triangle::new(Point3::new(0.0, y, 1e-300), Point3::new(1.2401e10, y, 0.0), Point3::new(0.0, y, 0.0))
            .unwrap()
    };
    let dir = Vector3::new(0.0, 0.13946533203125, 0.0);
    let ray = Ray::new(Point3::new(0.0030517578125, 1e-300, 0.0), dir).unwrap();
    assert_eq!(ray_triangle_watertight(&ray, &tri(0.0)), None);
    assert_eq!(WatertightRay::new(&ray).hit(&tri(0.0)), None);
    // Reversed, the ray reaches the plane at t = 10⁻³⁰⁰/0.139: a hit, however tiny.
    let back = Ray::new(*ray.origin(), -dir).unwrap();
    let hit = ray_triangle_watertight(&back, &tri(0.0)).expect("the plane is ahead");
    assert!(hit.t >= 0.0 && hit.t.is_sign_positive() && hit.t < 1e-299, "{hit:?}");
    // The origin on the triangle: a hit at exactly +0 (never −0).
    let on = ray_triangle_watertight(&ray, &tri(1e-300)).expect("the origin lies on the triangle");
    assert!(on.t == 0.0 && on.t.is_sign_positive(), "{on:?}");
}

/// Fuzz finding 41: the ray from (2.9041·10¹⁰)³ along −(1, 1, 1) meets the sliver (9 wide,
/// 5.7·10¹⁰ long, along the x axis) on its edge at the origin. The edge functions' rounding
/// (their terms are 10²⁰, the sliver's own are 10¹¹) times depths of 10¹⁰ put the
/// interpolated hit at (817, 817, 817), outside the sliver's box. Such a hit now takes its
/// parameter from the triangle's plane: the origin, to rounding.
#[test]
fn watertight_sliver_hit_from_far_away_lies_on_the_sliver() {
    let sliver = Triangle::new(
        Point3::new(27969000000.0, 0.0, 0.0),
        Point3::new(16705000000.0, -9.019775390625, 0.042724609375),
        Point3::new(-29556000000.0, 0.0, 0.0),
    )
    .unwrap();
    let o = 29041000000.0f64;
    let ray =
        Ray::new(Point3::new(o, o, o), Vector3::new(-0.00030517578125, -0.00030517578125, -0.00030517578125))
            .unwrap();
    let hit = ray_triangle_watertight(&ray, &sliver).expect("the ray crosses the sliver's edge");
    assert_eq!(WatertightRay::new(&ray).hit(&sliver), Some(hit));
    let exact = o / 0.00030517578125;
    assert!((hit.t - exact).abs() <= 1e-12 * exact, "t = {} against {exact}", hit.t);
    let at = ray.at(hit.t);
    assert!(at.coords.amax() <= 1e-3, "the hit {at:?} is off the sliver");
}

/// `WatertightRay::hit_within` is `hit` filtered to `t ≤ limit`, exactly, for limits just
/// below, at and just above each hit, zero, infinity, and a ray `max_t` below the limit.
#[test]
fn watertight_hit_within_is_hit_filtered_by_the_limit() {
    let mut bits = xorshift(0x5eed_1234_abcd_0077);
    let mut unit = move || (bits() >> 11) as f64 / (1u64 << 53) as f64;
    let mut hits = 0;
    for _ in 0..4000 {
        let c: Vec<f64> = (0..14).map(|_| unit()).collect();
        let p = |i: usize| Point3::new(c[i] * 4.0 - 2.0, c[i + 1] * 4.0 - 2.0, c[i + 2] * 4.0 - 2.0);
        let Ok(tri) = Triangle::new(p(0), p(3), p(6)) else { continue };
        // Aimed at a point of the triangle (slightly outside it at times).
        let (wu, wv) = (c[12] * 1.1 - 0.05, c[13] * 1.1 - 0.05);
        let (o, target) =
            (p(9) * 3.0, tri.a() + (tri.b() - tri.a()) * wu * 0.5 + (tri.c() - tri.a()) * wv * 0.5);
        let Ok(ray) = Ray::new(o, target - o) else { continue };
        let ray = if unit() < 0.2 { ray.with_max_t(unit()).unwrap() } else { ray };
        let prepared = WatertightRay::new(&ray);
        let full = prepared.hit(&tri);
        let t = full.map_or(1.0, |h| h.t);
        hits += usize::from(full.is_some());
        for limit in [t, t.next_down(), t.next_up(), 0.0, f64::INFINITY, t * 0.5, t * 2.0] {
            assert_eq!(
                prepared.hit_within(&tri, limit),
                full.filter(|h| h.t <= limit),
                "{tri:?} {ray:?} {limit}"
            );
        }
    }
    assert!(hits > 2000, "only {hits} hits");
}

/// Rays lying almost in the plane of a (fat) `f32` triangle, from before it, aimed at a point
/// of it: the interpolated parameter is then ill-conditioned (the sheared triangle is a
/// needle) and often lands outside the box, where the plane gives it. A closest-hit search's
/// limit just above the true parameter must not drop the hit (fuzz finding 69: the limit was
/// compared with the interpolated parameter, 25 beyond, before that fallback), and the hit
/// lies on the triangle.
#[test]
fn watertight_hit_within_agrees_for_rays_in_a_triangles_plane() {
    let mut bits = xorshift(69);
    let mut rnd = move || (bits() >> 11) as f64 / (1u64 << 52) as f64 - 1.0; // in [-1, 1)
    let (mut hits, mut disagreements, mut worst) = (0, 0, 0.0f64);
    for _ in 0..20_000 {
        let c = Point3::new(4.0 * rnd(), 4.0 * rnd(), 4.0 * rnd());
        // Half the rays along a diagonal (equal components, as in the finding: the shear is
        // then exact and the dominant axis a tie), in the triangle's plane but for a tilt of
        // one vertex; the others in a random direction tilted off the plane.
        let diagonal = rnd() < 0.0;
        let u = if diagonal {
            Vector3::new(rnd().signum(), rnd().signum(), rnd().signum()).normalize()
        } else {
            Vector3::new(rnd(), rnd(), rnd()).normalize()
        };
        let w = u.cross(&Vector3::new(rnd(), rnd(), rnd())).normalize();
        let normal = u.cross(&w);
        let size = 2.0 + 4.0 * rnd().abs();
        let tilt = 10f64.powf(-3.0 - 3.0 * rnd().abs()) * rnd().signum();
        let lift = if diagonal { normal * size * tilt } else { Vector3::zeros() };
        let tri = [c + u * size + lift, c - u * size * 0.5 + w * size, c - u * size * 0.5 - w * size];
        let target = c + u * (size * 0.4 * rnd()) + w * (size * 0.3 * rnd());
        let dir = if diagonal { u } else { (u * rnd() + w * rnd()).normalize() + normal * tilt };
        let origin = target - dir * (3.0 * size);
        let tri32 = Triangle::new(tri[0].cast::<f32>(), tri[1].cast::<f32>(), tri[2].cast::<f32>());
        let ray32 = Ray::new(origin.cast::<f32>(), (dir * 3e-4).cast::<f32>());
        let (Ok(tri32), Ok(ray32)) = (tri32, ray32) else { continue };
        let prepared = WatertightRay::new(&ray32);
        let Some(h) = prepared.hit(&tri32) else { continue };
        hits += 1;
        for limit in [h.t, h.t.next_up(), h.t * 1.0001, h.t * 1.001, h.t * 1.01] {
            disagreements += usize::from(prepared.hit_within(&tri32, limit) != Some(h));
        }
        let point = ray32.at(h.t).cast::<f64>();
        let [a, b, c] = tri32.vertices().map(|p| p.cast::<f64>());
        let on = closest_point_on_triangle(&point, &Triangle::new(a, b, c).unwrap()).0;
        worst = worst.max((on - point).norm() / 8.0);
    }
    assert!(hits > 10_000, "only {hits} hits");
    assert_eq!(disagreements, 0, "hit_within dropped hits below its limit");
    assert!(worst <= 64.0 * f32::EPSILON as f64, "a hit {worst} (relative) off its triangle");
}

/// Fuzz finding 43: a triangle 3·10¹⁰ across whose plane the ray along +x nearly grazes, with
/// the ray's origin 0.043 *past* vertex b on the ray's line. The sheared depths straddle the
/// origin, so the parameter comes from the plane; from vertex a (4·10¹⁰ away) its offset
/// cancelled to 0 and the origin was "on" the triangle at t = 0. From the nearest vertex it is
/// exact: the line meets the triangle behind the origin, no hit; a ray starting 0.06 before b
/// meets it at b.
#[test]
fn watertight_plane_offset_comes_from_the_nearest_vertex() {
    let tri = Triangle::new(
        Point3::new(-5.1910400390625, -6.6668701171875, -6.6668701171875),
        Point3::new(8.86260986328125, 29041000000.0, 29041000000.0),
        Point3::new(16753000000.0, -9.01336669921875, -9.019775390625),
    )
    .unwrap();
    let dir = Vector3::new(1393000000.0, 0.0, 0.0);
    let past = Ray::new(Point3::new(8.90594482421875, 29041000000.0, 29041000000.0), dir).unwrap();
    assert_eq!(ray_triangle_watertight(&past, &tri), None);
    assert_eq!(WatertightRay::new(&past).hit(&tri), None);
    let before = Ray::new(Point3::new(8.8, 29041000000.0, 29041000000.0), dir).unwrap();
    let hit = ray_triangle_watertight(&before, &tri).expect("the ray reaches vertex b");
    let exact = (8.86260986328125f64 - 8.8) / 1393000000.0;
    assert!((hit.t - exact).abs() <= 1e-6 * exact, "t = {} against {exact}", hit.t);
}

/// Fuzz finding 44: a ray down the z axis in the plane of a sliver (two vertices on the axis,
/// 10⁻³⁰⁰ across it, the third 8 units beside it) passes through one vertex's projection, so
/// the edge functions say "inside"; the plane's parameter was rounding noise and the "hit" 8
/// units off the sliver. A ray within the normal's rounding of the plane misses, like an
/// exactly coplanar one; a ray across the plane still hits.
#[test]
fn watertight_ray_in_a_slivers_plane_misses() {
    let tri = Triangle::new(
        Point3::new(1e-300f64, 0.0, 12657000000.0),
        Point3::new(0.0, 0.0, 2000000000.0),
        Point3::new(5.72540283203125, 5.72540283203125, -8.57147216796875),
    )
    .unwrap();
    let down = Ray::new(Point3::origin(), Vector3::new(0.0, -0.0, -8.59039306640625)).unwrap();
    assert_eq!(ray_triangle_watertight(&down, &tri), None);
    assert_eq!(WatertightRay::new(&down).hit(&tri), None);
    // Across the plane (normal about (1, −1, 0)), onto a point of the triangle: a hit at t = 1.
    let target = tri.at_barycentric(0.3, 0.3);
    let across = Ray::new(target - Vector3::new(1.0, -1.0, 0.0), Vector3::new(1.0, -1.0, 0.0)).unwrap();
    let hit = ray_triangle_watertight(&across, &tri).expect("the ray crosses the plane on the triangle");
    assert!((hit.t - 1.0).abs() < 1e-6, "{hit:?}");
}

/// Grazing rays through `f32` slivers that reach behind the ray's origin (the watertight
/// test's plane path): wherever a hit is reported, its point lies on the triangle to the
/// rounding of the coordinates, measured in `f64`. The plane's parameter alone slid such
/// points along the ray and off a sliver's narrow side (fuzz finding 67).
#[test]
fn grazing_hits_on_slivers_lie_on_the_sliver() {
    let mut bits = xorshift(67);
    let mut rnd = move || (bits() >> 11) as f64 / (1u64 << 52) as f64 - 1.0; // in [-1, 1)
    let (mut hits, mut worst) = (0, 0.0f64);
    for _ in 0..20_000 {
        let long = Vector3::new(rnd(), rnd(), rnd()).normalize() * (4.0 + 8.0 * rnd().abs());
        let across = long.cross(&Vector3::new(rnd(), rnd(), rnd())).normalize() * 0.02 * rnd().abs();
        let far = Point3::new(8.0 * rnd(), 8.0 * rnd(), 8.0 * rnd());
        let tri = [far, far - long, far - long + across];
        // A target on the sliver near its narrow end (often the vertex itself), and a ray from
        // partway along the sliver towards it, tilted out of the plane by 10⁻²–10⁻⁵ rad.
        let k = [0.0, 0.0, rnd().abs(), 1.0][(rnd().abs() * 4.0) as usize % 4];
        let target = tri[1] + across * k + long * (0.01 * rnd().abs());
        let normal = long.cross(&across).normalize();
        let tilt = 10f64.powf(-2.0 - 3.0 * rnd().abs());
        let dir = (target - far).normalize() + normal * tilt;
        // Every third ray starts before the whole sliver (its depths all ahead: the
        // interpolated parameter, then the plane where that point leaves the box).
        let back = if rnd() < -0.33 { 1.2 + rnd().abs() } else { 0.2 + 0.6 * rnd().abs() };
        let origin = target - dir * back * long.norm();
        let tri32 = Triangle::new(tri[0].cast::<f32>(), tri[1].cast::<f32>(), tri[2].cast::<f32>());
        let ray32 = Ray::new(origin.cast::<f32>(), dir.cast::<f32>());
        let (Ok(tri32), Ok(ray32)) = (tri32, ray32) else { continue };
        let hit = ray_triangle_watertight(&ray32, &tri32);
        // A closest-hit search's limit gives the same hit or none (fuzz finding 69).
        let prepared = WatertightRay::new(&ray32);
        let t = hit.map_or(1.0, |h| h.t);
        for limit in [t, t.next_down(), t.next_up(), t * 0.999, t * 1.001, f32::INFINITY] {
            assert_eq!(
                prepared.hit_within(&tri32, limit),
                hit.filter(|h| h.t <= limit),
                "{tri32:?} {ray32:?} {limit}"
            );
        }
        if let Some(h) = hit {
            hits += 1;
            let point = ray32.at(h.t).cast::<f64>();
            let [a, b, c] = tri32.vertices().map(|p| p.cast::<f64>());
            let on = Triangle::new(a, b, c).map(|t| closest_point_on_triangle(&point, &t).0);
            if let Ok(on) = on {
                let off = (on - point).norm() / 16.0; // relative to the coordinates' size
                worst = worst.max(off);
            }
        }
    }
    assert!(hits > 2_000, "only {hits} grazing hits");
    assert!(worst <= 32.0 * f32::EPSILON as f64, "a hit {worst} (relative) off its sliver");
}
