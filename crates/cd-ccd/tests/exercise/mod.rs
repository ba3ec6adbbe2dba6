//! Builds every shape and motion it can from a list of arbitrary floats and runs every
//! continuous query on them: nothing may panic or return a non-finite answer. Shared by the
//! hostile-input property test and the `ccd_queries` fuzz target (which includes this file).
#![allow(dead_code)]

use cd_ccd::*;
use cd_geom::{Aabb, Ball, Capsule, Obb, Plane, Point, Polygon, Real, Segment, Triangle, Vector};
use nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many calls reached the rotating-body queries (the property test checks its generator
/// reaches them often enough to mean something).
pub static ROTATING_RUNS: AtomicUsize = AtomicUsize::new(0);

pub fn ok<T: Real, const D: usize>(toi: Option<Toi<T, D>>, max_time: T) -> bool {
    toi.is_none_or(|h| {
        let finite = |v: &Vector<T, D>| v.iter().all(|x| x.is_finite());
        h.time.is_finite()
            && h.time >= T::zero()
            && h.time <= max_time
            && finite(&h.point_a.coords)
            && finite(&h.point_b.coords)
            && finite(&h.normal)
    })
}

/// Builds what it can from `v` and runs every query on it.
pub fn exercise<T: Real>(v: &[f64]) {
    let x = |i: usize| T::lit(v[i % v.len()]);
    let p = |i: usize| Point3::new(x(i), x(i + 1), x(i + 2));
    let w = |i: usize| Vector3::new(x(i), x(i + 1), x(i + 2));
    let t_max = x(3).abs();
    let Ok(motion) = LinearMotion::new(w(6), w(9), t_max) else {
        // Rejected: the reason must be a typed bad-number error.
        return;
    };
    let max_time = motion.max_time();
    let config = CastConfig::default();
    let ball = Ball::new(p(0), x(12).abs());
    let other = Ball::new(p(13), x(16).abs());
    let plane = Plane::new(w(17), x(20));
    let tri = Triangle::new(p(1), p(4), p(14));
    let cap = Capsule::new(p(2), p(5), x(11).abs());
    let aabb = Aabb::from_center_half_extents(p(3), w(15).abs());
    let obb = Obb::from_rotation(p(7), UnitQuaternion::from_scaled_axis(w(8)), w(10).abs());
    let obb2 = Obb::from_rotation(p(16), UnitQuaternion::identity(), w(18).abs());
    let poly = Polygon::new(vec![p(0), p(3), p(6), p(9)]);
    if let (Ok(a), Ok(b)) = (&ball, &other) {
        assert!(ok(sphere_sphere(a, b, &motion), max_time));
        assert!(ok(shape_cast(a.center(), a.radius(), b.center(), b.radius(), &motion, &config), max_time));
    }
    if let (Ok(a), Ok(pl)) = (&ball, &plane) {
        assert!(ok(sphere_plane(a, pl, &motion), max_time));
        assert!(ok(sphere_halfspace(a, pl, &motion), max_time));
    }
    if let (Ok(a), Ok(t)) = (&ball, &tri) {
        assert!(ok(sphere_triangle(a, t, &motion), max_time));
    }
    if let (Ok(a), Ok(pg)) = (&ball, &poly) {
        assert!(ok(sphere_polygon(a, pg, &motion), max_time));
    }
    if let (Ok(c), Ok(pl)) = (&cap, &plane) {
        assert!(ok(capsule_plane(c, pl, &motion), max_time));
        assert!(ok(capsule_halfspace(c, pl, &motion), max_time));
    }
    if let (Ok(c), Ok(t)) = (&cap, &tri) {
        assert!(ok(capsule_triangle(c, t, &motion), max_time));
        assert!(ok(shape_cast(&c.segment(), c.radius(), t, T::zero(), &motion, &config), max_time));
    }
    if let Ok(a) = &aabb {
        let b = Aabb::from_center_half_extents(p(19), w(4).abs());
        if let Ok(b) = b {
            assert!(ok(aabb_aabb(a, &b, &motion), max_time));
        }
        let swept = swept_aabb_linear(a, motion.velocity_a(), max_time);
        assert!(swept.is_ok() || swept.is_err()); // a typed answer either way
    }
    if let (Ok(a), Ok(b)) = (&obb, &obb2) {
        assert!(ok(obb_obb(a, b, &motion), max_time));
        assert!(ok(shape_cast(a, T::zero(), b, T::zero(), &motion, &config), max_time));
        if let Ok(t) = &tri {
            assert!(ok(triangle_obb(t, a, &motion), max_time));
            assert!(ok(obb_triangle(a, t, &motion), max_time));
        }
    }
    if let (Ok(a), Ok(b)) = (&tri, &Triangle::new(p(5), p(8), p(11))) {
        assert!(ok(triangle_triangle(a, b, &motion), max_time));
    }
    // Rotating bodies: the motions validate, then both advancement methods run to an answer.
    let pose = |i: usize| Isometry3::from_parts(w(i).into(), UnitQuaternion::from_scaled_axis(w(i + 3)));
    let (ma, mb) = (
        RigidMotion::new(pose(0), p(2), w(6), w(9)),
        RigidMotion::new(pose(12), Point3::origin(), w(15), w(18)),
    );
    if let (Ok(ma), Ok(mb), Ok(a), Ok(b)) = (ma, mb, &obb, &obb2) {
        ROTATING_RUNS.fetch_add(1, Ordering::Relaxed);
        let local_a = Obb::new(Point::origin(), *a.axes(), *a.half_extents()).unwrap();
        let local_b = Obb::new(Point::origin(), *b.axes(), *b.half_extents()).unwrap();
        let (sa, sb) =
            (MovingShape::new(&local_a, x(1).abs(), ma), MovingShape::new(&local_b, T::zero(), mb));
        assert!(ok(conservative_advancement(&sa, &sb, max_time, &config), max_time));
        assert!(ok(separating_axis_toi(&sa, &sb, max_time, &config), max_time));
        let seg = Segment::new(Point::origin(), p(4));
        if let Ok(seg) = seg {
            let sc = MovingShape::new(&seg, x(2).abs(), ma);
            assert!(ok(conservative_advancement(&sc, &sb, max_time, &config), max_time));
        }
        let swept = swept_aabb(&local_a, T::zero(), &ma, max_time);
        assert!(swept.is_ok() || swept.is_err());
    }
}
