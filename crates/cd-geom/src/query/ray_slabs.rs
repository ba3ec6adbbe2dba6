//! Generalized slab tests: ray/k-DOP (Kay–Kajiya 1986) and ray/convex polyhedron (Cyrus–Beck
//! 1978 clipping against the face planes), RTR 22.7.1 and 22.13.4.

use crate::query::ray_aabb::slabs_meet;
use crate::{ConvexPolyhedron, Kdop, Ray, RayHit, Real, Vector};

/// Ray/k-DOP: each of the `N` slabs `min ≤ n·x ≤ max` clips the parameter interval. Entry
/// normal is the entering slab's (normalized) direction; starting inside gives `t = 0` and a
/// zero normal. O(N·D).
///
/// Touching counts, and the test errs towards a hit by a few ulps, never towards a miss: each
/// slab is widened by the rounding bound of `n·o` (the ray origin's projection) and the exit
/// gets the slack of [`ray_aabb`](crate::ray_aabb), so a ray grazing a corner of the k-DOP is
/// not lost to the rounding of its slab parameters.
pub fn ray_kdop<T: Real, const D: usize, const N: usize>(
    ray: &Ray<T, D>,
    kdop: &Kdop<T, D, N>,
) -> Option<RayHit<T, D>> {
    ray_kdop_grown(ray, kdop, T::zero())
}

/// [`ray_kdop`] against the k-DOP grown by `pad` per coordinate: every point within `pad` of
/// it on each axis (max-norm) counts as inside, so slab `k` widens by `pad·|nₖ|₁` on both
/// sides (a max-norm step of `pad` moves `nₖ·x` by at most that). For conservative culling,
/// where a test behind the k-DOP may report a hit a rounding distance outside it. A negative or
/// NaN `pad` counts as 0. O(N·D).
///
/// ```
/// use cd_geom::{ray_kdop, ray_kdop_grown, Dop8, Ray};
/// use nalgebra::{Point2, Vector2};
/// let dop = Dop8::<f64>::new([4.0, -1.0, 3.0, 3.0], [6.0, 1.0, 7.0, 7.0]).unwrap();
/// let r = Ray::new(Point2::new(0.0, 1.2), Vector2::x()).unwrap();
/// assert!(ray_kdop(&r, &dop).is_none());
/// assert!(ray_kdop_grown(&r, &dop, 0.25).is_some());
/// ```
pub fn ray_kdop_grown<T: Real, const D: usize, const N: usize>(
    ray: &Ray<T, D>,
    kdop: &Kdop<T, D, N>,
    pad: T,
) -> Option<RayHit<T, D>> {
    let pad = crate::query::ray_aabb::sanitized_pad(pad);
    let dirs = kdop.directions();
    let mut t_enter = T::zero();
    let mut t_exit = ray.max_t();
    let mut entry: Option<Vector<T, D>> = None;
    // A dot product of D terms is within (D + 1)·u·Σ|nᵢoᵢ| of the exact value (u = ε/2).
    let rounding = T::lit(D as f64 + 1.0) * T::epsilon();
    for (k, n) in dirs.iter().enumerate() {
        let num = n.dot(&ray.origin().coords);
        let err = rounding
            * n.iter().zip(ray.origin().coords.iter()).fold(T::zero(), |s, (a, b)| s + (*a * *b).abs());
        let den = n.dot(ray.dir());
        let widen = err + pad * n.iter().fold(T::zero(), |s, c| s + c.abs());
        let (lo, hi) = (kdop.min()[k] - widen, kdop.max()[k] + widen);
        let inv = T::one() / den;
        if !inv.is_finite() {
            if num < lo || num > hi {
                return None;
            }
            continue;
        }
        let t1 = (lo - num) * inv;
        let t2 = (hi - num) * inv;
        let (near, far, outward) = if inv >= T::zero() { (t1, t2, -n) } else { (t2, t1, *n) };
        if near > t_enter {
            t_enter = near;
            entry = Some(outward);
        }
        if far < t_exit {
            t_exit = far;
        }
        if !slabs_meet(t_enter, t_exit) {
            return None;
        }
    }
    let normal = entry.map_or_else(Vector::zeros, |n| n.normalize());
    Some(RayHit { t: t_enter.min(t_exit), normal })
}

/// Ray/convex polyhedron by Cyrus–Beck clipping: every face plane (outward normal `n`) either
/// starts (`n·d < 0`) or ends (`n·d > 0`) the inside interval; the exit gets the few ulps of
/// slack of [`ray_aabb`](crate::ray_aabb), so grazing an edge or a corner counts. O(F).
pub fn ray_convex_polyhedron<T: Real>(ray: &Ray<T, 3>, poly: &ConvexPolyhedron<T>) -> Option<RayHit<T, 3>> {
    let mut t_enter = T::zero();
    let mut t_exit = ray.max_t();
    let mut entry = None;
    for face in poly.faces() {
        let dist = face.plane.signed_distance(ray.origin());
        let den = face.plane.normal().dot(ray.dir());
        if den == T::zero() {
            if dist > T::zero() {
                return None;
            }
            continue;
        }
        let t = -dist / den;
        if den < T::zero() {
            if t > t_enter {
                t_enter = t;
                entry = Some(*face.plane.normal());
            }
        } else if t < t_exit {
            t_exit = t;
        }
        if !slabs_meet(t_enter, t_exit) {
            return None;
        }
    }
    Some(RayHit { t: t_enter.min(t_exit), normal: entry.unwrap_or_else(Vector::zeros) })
}
