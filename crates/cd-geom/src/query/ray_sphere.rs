//! Ray/ball intersection (Real-Time Rendering 22.6), in 2D and 3D.

use crate::{Ball, Ray, RayHit, Real};

/// Ray/ball by the **optimized geometric solution** with early rejection (RTR 22.6.2): reject
/// when the centre is behind an outside origin, then when the squared distance from the centre
/// to the ray's line exceeds `r²` — both before any square root. The perpendicular distance is
/// computed from the projected vector, which stays accurate far from the ball (the naive
/// discriminant `b² - ac` cancels catastrophically there). A ray starting inside hits at `t = 0`
/// with a zero normal; a tangent ray hits. O(D), one square root on a hit.
///
/// ```
/// use cd_geom::{ray_ball, Ball, Ray};
/// use nalgebra::{Point3, Vector3};
/// let s = Ball::new(Point3::new(5.0f32, 0.0, 0.0), 1.0).unwrap();
/// let r = Ray::new(Point3::origin(), Vector3::x()).unwrap();
/// assert_eq!(ray_ball(&r, &s).unwrap().t, 4.0);
/// ```
#[inline]
pub fn ray_ball<T: Real, const D: usize>(ray: &Ray<T, D>, ball: &Ball<T, D>) -> Option<RayHit<T, D>> {
    ray_ball_grown(ray, ball, T::zero())
}

/// [`ray_ball`] against the ball grown by `pad` per coordinate: every point within `pad` of
/// the ball on each axis (max-norm) counts as inside, so the radius grows by `√D·pad`. For
/// conservative culling, where a test behind the ball (a hierarchy's leaf primitives) may report
/// a hit a rounding distance outside it. A negative or NaN `pad` counts as 0. O(D).
///
/// ```
/// use cd_geom::{ray_ball, ray_ball_grown, Ball, Ray};
/// use nalgebra::{Point2, Vector2};
/// let b = Ball::new(Point2::new(5.0f64, 0.0), 1.0).unwrap();
/// let r = Ray::new(Point2::new(0.0, 1.2), Vector2::x()).unwrap();
/// assert!(ray_ball(&r, &b).is_none());
/// assert!(ray_ball_grown(&r, &b, 0.25).is_some());
/// ```
#[inline]
pub fn ray_ball_grown<T: Real, const D: usize>(
    ray: &Ray<T, D>,
    ball: &Ball<T, D>,
    pad: T,
) -> Option<RayHit<T, D>> {
    let l = ball.center() - ray.origin();
    let radius = ball.radius() + crate::query::ray_aabb::sanitized_pad(pad) * T::lit((D as f64).sqrt());
    let r2 = radius * radius;
    let l2 = l.norm_squared();
    if l2 <= r2 {
        return Some(RayHit { t: T::zero(), normal: crate::Vector::zeros() });
    }
    let dd = ray.dir().norm_squared();
    let s = l.dot(ray.dir()); // projection of l on dir, times |dir|
    if s < T::zero() {
        return None; // outside and pointing away
    }
    let foot = ray.dir() * (s / dd);
    let m2 = (l - foot).norm_squared(); // squared distance from centre to the line
    if m2 > r2 {
        return None;
    }
    // Half chord length, in ray-parameter units.
    let t = s / dd - ((r2 - m2) / dd).sqrt();
    finish(ray, ball, t)
}

/// Ray/ball by the **analytic (quadratic) solution** (RTR 22.6.1): solve
/// `|o + t·d - c|² = r²`, i.e. `a t² + 2b t + c = 0` with `a = d·d`, `b = d·(o - c)`,
/// `c = |o - c|² - r²`, taking the smaller root. Same conventions as [`ray_ball`]; kept as the
/// textbook reference and benchmark baseline. O(D).
#[inline]
pub fn ray_ball_analytic<T: Real, const D: usize>(
    ray: &Ray<T, D>,
    ball: &Ball<T, D>,
) -> Option<RayHit<T, D>> {
    let m = ray.origin() - ball.center();
    let a = ray.dir().norm_squared();
    let b = m.dot(ray.dir());
    let c = m.norm_squared() - ball.radius() * ball.radius();
    if c <= T::zero() {
        return Some(RayHit { t: T::zero(), normal: crate::Vector::zeros() });
    }
    if b > T::zero() {
        return None;
    }
    let disc = b * b - a * c;
    if disc < T::zero() {
        return None;
    }
    let t = (-b - disc.sqrt()) / a;
    finish(ray, ball, t)
}

#[inline]
fn finish<T: Real, const D: usize>(ray: &Ray<T, D>, ball: &Ball<T, D>, t: T) -> Option<RayHit<T, D>> {
    let t = t.max(T::zero());
    if t > ray.max_t() {
        return None;
    }
    let normal = crate::support::unit_or_zero(&(ray.at(t) - ball.center()));
    Some(RayHit { t, normal })
}
