//! Ray/plane intersection (RTR 22.9, first step of ray/polygon).

use crate::{Plane, Ray, RayHit, Real};

/// Ray/plane (both sides): `t = -(n·o + d) / (n·dir)`. The normal returned faces the ray. A ray
/// parallel to the plane misses, unless it starts exactly on it (then `t = 0`); so does one
/// whose `t` overflows (a direction parallel to the plane but for a subnormal component: the
/// plane is not reached at any representable distance), or whose point at `t` does (a finite
/// `t` times a long direction: the plane is met only beyond every representable point). O(D).
#[inline]
pub fn ray_plane<T: Real, const D: usize>(ray: &Ray<T, D>, plane: &Plane<T, D>) -> Option<RayHit<T, D>> {
    let dist = plane.signed_distance(ray.origin());
    let den = plane.normal().dot(ray.dir());
    let facing = if dist >= T::zero() { *plane.normal() } else { -plane.normal() };
    if dist == T::zero() {
        return Some(RayHit { t: T::zero(), normal: facing });
    }
    if den == T::zero() {
        return None;
    }
    let t = -dist / den;
    if t < T::zero() || t > ray.max_t() || !t.is_finite() || !ray.at(t).iter().all(|x| x.is_finite()) {
        return None;
    }
    Some(RayHit { t, normal: facing })
}
