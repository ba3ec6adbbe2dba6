//! Feeds arbitrary floats to cd-geom's constructors and, when they accept, to the pairwise
//! queries: nothing may panic, and no query may return NaN.
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

fuzz_target!(|data: &[u8]| {
    let mut at = 0;
    let p = |v: [f32; 3]| Point3::new(v[0], v[1], v[2]);
    let (a, b, c) = (take::<3>(data, &mut at), take::<3>(data, &mut at), take::<3>(data, &mut at));
    let (d, e, f) = (take::<3>(data, &mut at), take::<3>(data, &mut at), take::<3>(data, &mut at));
    let [r] = take::<1>(data, &mut at);
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
    }
    if let Ok(bx) = Aabb::new(p(d).inf(&p(e)), p(d).sup(&p(e))) {
        let _ = triangle_aabb(&t1, &bx);
    }
});
