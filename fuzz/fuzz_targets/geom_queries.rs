//! Feeds arbitrary floats to cd-geom's constructors and, when they accept, to the pairwise
//! queries: nothing may panic, and no query may return NaN. The grown ray tests also keep
//! their hits in the ray's range and never lose a hit of the exact volume.
#![no_main]

use cd_geom::*;
use libfuzzer_sys::fuzz_target;
use nalgebra::{Point3, Vector3};

fn take<const N: usize>(data: &[u8], at: &mut usize) -> [f32; N] {
    core::array::from_fn(|_| {
        let mut b = [0u8; 4];
        for byte in b.iter_mut() {
            *byte = data.get(*at).copied().unwrap_or(0);
            *at += 1;
        }
        f32::from_le_bytes(b)
    })
}

/// A hit within the ray's range, finite.
fn in_range(ray: &Ray<f32, 3>, t: Option<f32>) -> bool {
    t.is_none_or(|t| t.is_finite() && (0.0..=ray.max_t()).contains(&t))
}

/// The grown ray tests (any pad, NaN and negative included): hits in range, and growing never
/// loses a hit of the exact volume.
fn grown_ray_tests(ray: &Ray<f32, 3>, tri: &Triangle<f32, 3>, e: Point3<f32>, f: Point3<f32>, r: f32, pad: f32) {
    if let Ok(ball) = Ball::new(e, r) {
        let grown = ray_ball_grown(ray, &ball, pad).map(|h| h.t);
        assert!(in_range(ray, grown));
        assert!(ray_ball(ray, &ball).is_none() || grown.is_some());
    }
    if let Ok(bx) = Aabb::new(e.inf(&f), e.sup(&f)) {
        let prepared = PreparedRay::new(ray);
        let grown = prepared.enter_grown_box(bx.min(), bx.max(), ray.max_t(), pad);
        assert!(in_range(ray, grown));
        assert!(prepared.enter_box(bx.min(), bx.max(), ray.max_t()).is_none() || grown.is_some());
        if let Ok(obb) = Obb::new(bx.center(), nalgebra::Matrix3::identity(), bx.half_extents()) {
            let grown = ray_obb_grown(ray, &obb, pad).map(|h| h.t);
            assert!(in_range(ray, grown));
            assert!(ray_obb(ray, &obb).is_none() || grown.is_some());
        }
    }
    if let Ok(dop) = Dop26::<f32>::from_points(&tri.vertices()) {
        let grown = ray_kdop_grown(ray, &dop, pad).map(|h| h.t);
        assert!(in_range(ray, grown));
        assert!(ray_kdop(ray, &dop).is_none() || grown.is_some());
    }
}

fuzz_target!(|data: &[u8]| {
    let mut at = 0;
    let p = |v: [f32; 3]| Point3::new(v[0], v[1], v[2]);
    let (a, b, c) = (take::<3>(data, &mut at), take::<3>(data, &mut at), take::<3>(data, &mut at));
    let (d, e, f) = (take::<3>(data, &mut at), take::<3>(data, &mut at), take::<3>(data, &mut at));
    let [r, pad] = take::<2>(data, &mut at);
    let (Ok(t1), Ok(t2)) = (Triangle::new(p(a), p(b), p(c)), Triangle::new(p(d), p(e), p(f))) else { return };
    if let TriTriIntersection::Segment(x, y) = triangle_triangle(&t1, &t2) {
        assert!(x.iter().chain(y.iter()).all(|v| v.is_finite()));
    }
    let cp = closest_points_triangle_triangle(&t1, &t2);
    assert!(cp.distance_squared.is_finite());
    if let Ok(ray) = Ray::new(p(a), Vector3::new(d[0], d[1], d[2])) {
        for hit in [ray_triangle(&ray, &t2), ray_triangle_watertight(&ray, &t2)].into_iter().flatten() {
            assert!(hit.t.is_finite() && hit.u.is_finite() && hit.v.is_finite());
        }
        if let Ok(ball) = Ball::new(p(e), r) {
            if let Some(h) = ray_ball(&ray, &ball) {
                assert!(h.t.is_finite());
            }
        }
        grown_ray_tests(&ray, &t1, p(e), p(f), r, pad);
    }
    if let Ok(bx) = Aabb::new(p(d).inf(&p(e)), p(d).sup(&p(e))) {
        let _ = triangle_aabb(&t1, &bx);
        capsule_box_tests(p(a), p(b), r, &bx);
    }
});

/// The capsule/box booleans and the sort-free segment/box distance: finite, and within the
/// coordinates' rounding of the piecewise distance (an independent minimization).
fn capsule_box_tests(a: Point3<f32>, b: Point3<f32>, r: f32, bx: &Aabb<f32, 3>) {
    let Ok(cap) = Capsule::new(a, b, r.abs()) else { return };
    let d2 = segment_aabb_distance_squared(&cap.segment(), bx);
    assert!(d2.is_finite() && d2 >= 0.0, "{d2}");
    let (cp, _) = closest_points_segment_aabb(&cap.segment(), bx);
    let scale = [a.coords, b.coords, bx.min().coords, bx.max().coords].iter().fold(1.0f32, |m, v| m.max(v.amax()));
    // Both in f32: each is the distance at a parameter it chose, off by the rounding of the
    // coordinates (a few ulps of `scale`); compared in f64 so the squares cannot overflow.
    let (got, piecewise) = ((d2 as f64).sqrt(), cp.distance() as f64);
    assert!((got - piecewise).abs() <= 1e-5 * scale as f64, "{got} vs {piecewise} at scale {scale}");
    let _ = capsule_aabb(&cap, bx);
    if let Ok(obb) = Obb::new(bx.center(), nalgebra::Matrix3::identity(), bx.half_extents()) {
        let _ = capsule_obb(&cap, &obb);
    }
}
