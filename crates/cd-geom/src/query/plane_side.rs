//! Plane/box, plane/sphere and plane/triangle classification (RTR 22.10).

use crate::{Aabb, Ball, Obb, Plane, PlaneSide, Real, Triangle};

#[inline(always)]
fn classify<T: Real>(s: T, e: T) -> PlaneSide {
    if s - e > T::zero() {
        PlaneSide::Positive
    } else if s + e < T::zero() {
        PlaneSide::Negative
    } else {
        PlaneSide::Intersecting
    }
}

/// Plane/AABB by centre and projected half-diagonal (RTR 22.10.1): with box centre `c` and half
/// extents `h`, the box spans `n·c + d ± Σ|nᵢ|hᵢ` along the normal. Touching is
/// [`PlaneSide::Intersecting`]. O(D).
#[inline]
pub fn plane_aabb<T: Real, const D: usize>(plane: &Plane<T, D>, aabb: &Aabb<T, D>) -> PlaneSide {
    let n = plane.normal();
    let h = aabb.half_extents();
    let e = (0..D).fold(T::zero(), |acc, i| acc + n[i].abs() * h[i]);
    classify(plane.signed_distance(&aabb.center()), e)
}

/// Plane/OBB (RTR 22.10.2): as [`plane_aabb`] with the radius `Σ hᵢ |n·axisᵢ|`. O(D²).
#[inline]
pub fn plane_obb<T: Real, const D: usize>(plane: &Plane<T, D>, obb: &Obb<T, D>) -> PlaneSide {
    let local = obb.vector_to_local(plane.normal());
    let h = obb.half_extents();
    let e = (0..D).fold(T::zero(), |acc, i| acc + local[i].abs() * h[i]);
    classify(plane.signed_distance(obb.center()), e)
}

/// Plane/ball: signed distance of the centre against the radius. O(D).
#[inline]
pub fn plane_ball<T: Real, const D: usize>(plane: &Plane<T, D>, ball: &Ball<T, D>) -> PlaneSide {
    classify(plane.signed_distance(ball.center()), ball.radius())
}

/// Plane/triangle: the signs of the three vertex distances. A vertex on the plane makes it
/// [`PlaneSide::Intersecting`]. O(D).
#[inline]
pub fn plane_triangle<T: Real, const D: usize>(plane: &Plane<T, D>, tri: &Triangle<T, D>) -> PlaneSide {
    let d = tri.vertices().map(|v| plane.signed_distance(&v));
    if d.iter().all(|x| *x > T::zero()) {
        PlaneSide::Positive
    } else if d.iter().all(|x| *x < T::zero()) {
        PlaneSide::Negative
    } else {
        PlaneSide::Intersecting
    }
}
