//! Bounding-volume overlap tests (RTR 22.13), generic over the dimension: ball/ball,
//! ball/AABB (Arvo's method and the clamped-vector method), ball/OBB, AABB/AABB, k-DOP/k-DOP,
//! and the capsule pairs.

use crate::query::closest::{
    closest_point_on_aabb, closest_point_on_segment, closest_points_segment_segment,
    segment_aabb_distance_squared,
};
use crate::{Aabb, Ball, Capsule, Kdop, Obb, Real, Segment};

/// Ball/ball (RTR 22.13.1): `|c₁ - c₂|² ≤ (r₁ + r₂)²`, no square root. Touching overlaps. O(D).
/// Always inlined: four operations, which a call to them doubled inside the narrow phase's
/// dispatch.
#[inline(always)]
pub fn ball_ball<T: Real, const D: usize>(a: &Ball<T, D>, b: &Ball<T, D>) -> bool {
    let r = a.radius() + b.radius();
    (a.center() - b.center()).norm_squared() <= r * r
}

/// Ball/AABB by **Arvo's method** (Arvo 1990, RTR 22.13.2): accumulate, per axis, the squared
/// distance by which the centre lies outside the slab, with early exit once it exceeds `r²`.
/// O(D).
#[inline]
pub fn ball_aabb<T: Real, const D: usize>(ball: &Ball<T, D>, aabb: &Aabb<T, D>) -> bool {
    let r2 = ball.radius() * ball.radius();
    let c = ball.center();
    let mut d = T::zero();
    for i in 0..D {
        let e = if c[i] < aabb.min()[i] {
            c[i] - aabb.min()[i]
        } else if c[i] > aabb.max()[i] {
            c[i] - aabb.max()[i]
        } else {
            continue;
        };
        d += e * e;
        if d > r2 {
            return false;
        }
    }
    true
}

/// Ball/AABB by the **clamped-vector method** (seed notes, 2D circle/box): clamp the vector from
/// the box centre to the ball centre to the half extents; the clamped point is the closest
/// point of the box. Same answers as [`ball_aabb`]. O(D).
#[inline]
pub fn ball_aabb_clamped<T: Real, const D: usize>(ball: &Ball<T, D>, aabb: &Aabb<T, D>) -> bool {
    let p = closest_point_on_aabb(ball.center(), aabb);
    (p - ball.center()).norm_squared() <= ball.radius() * ball.radius()
}

/// Ball/OBB: move the centre into the box frame (rotate into the frame, as the seed's 2D
/// circle/OBB does) and apply Arvo's test against the local box. O(D²).
#[inline]
pub fn ball_obb<T: Real, const D: usize>(ball: &Ball<T, D>, obb: &Obb<T, D>) -> bool {
    // Box-frame coordinates may exceed the coordinate limit (by up to 2√D); the arithmetic has
    // headroom for that, so no re-validation.
    let local = Ball::new_unchecked(obb.to_local(ball.center()), ball.radius());
    ball_aabb(&local, &obb.local_aabb())
}

/// AABB/AABB (RTR 22.13.3): overlap on every axis. Touching overlaps. O(D).
///
/// The per-axis comparisons are combined without short-circuiting: on unpredictable inputs the
/// `2·D` comparisons cost less than the branch mispredictions an early exit would cause.
#[inline]
pub fn aabb_aabb<T: Real, const D: usize>(a: &Aabb<T, D>, b: &Aabb<T, D>) -> bool {
    let mut overlap = true;
    for i in 0..D {
        overlap &= (a.min()[i] <= b.max()[i]) & (b.min()[i] <= a.max()[i]);
    }
    overlap
}

/// k-DOP/k-DOP (RTR 22.13.4): two DOPs of the same type overlap iff every slab pair overlaps
/// (a conservative test: separated DOPs whose every slab overlaps are reported overlapping, as
/// in the seed). O(N).
#[inline]
pub fn kdop_kdop<T: Real, const D: usize, const N: usize>(a: &Kdop<T, D, N>, b: &Kdop<T, D, N>) -> bool {
    (0..N).all(|k| a.min()[k] <= b.max()[k] && b.min()[k] <= a.max()[k])
}

/// Capsule/capsule: the core segments' distance is at most `r₁ + r₂`. O(D).
#[inline]
pub fn capsule_capsule<T: Real, const D: usize>(a: &Capsule<T, D>, b: &Capsule<T, D>) -> bool {
    let (c, _, _) = closest_points_segment_segment(&a.segment(), &b.segment());
    let r = a.radius() + b.radius();
    c.distance_squared <= r * r
}

/// Capsule/ball: the distance from the centre to the core segment is at most `r₁ + r₂`. O(D).
#[inline]
pub fn capsule_ball<T: Real, const D: usize>(cap: &Capsule<T, D>, ball: &Ball<T, D>) -> bool {
    let (p, _) = closest_point_on_segment(ball.center(), &cap.segment());
    let r = cap.radius() + ball.radius();
    (p - ball.center()).norm_squared() <= r * r
}

/// Capsule/AABB: the exact distance between the core segment and the box (see
/// [`segment_aabb_distance_squared`]) is at most the radius. O(D²).
#[inline]
pub fn capsule_aabb<T: Real, const D: usize>(cap: &Capsule<T, D>, aabb: &Aabb<T, D>) -> bool {
    segment_aabb_distance_squared(&cap.segment(), aabb) <= cap.radius() * cap.radius()
}

/// Capsule/OBB: the core segment moved into the box frame, then [`capsule_aabb`] against the
/// local box. Touching overlaps. O(D²).
#[inline]
pub fn capsule_obb<T: Real, const D: usize>(cap: &Capsule<T, D>, obb: &Obb<T, D>) -> bool {
    // Box-frame coordinates may exceed the coordinate limit (by up to 2√D); the arithmetic has
    // headroom for that, so no re-validation (as in `ball_obb`).
    let seg = Segment::new_unchecked(obb.to_local(cap.a()), obb.to_local(cap.b()));
    segment_aabb_distance_squared(&seg, &obb.local_aabb()) <= cap.radius() * cap.radius()
}
