//! Frustum tests (RTR 22.14): sphere, AABB and OBB against the six inward planes.

use crate::{Aabb, Ball, Containment, Frustum, Obb, Real};

/// Combines per-plane (signed centre distance `s`, projected radius `e`) into a verdict:
/// outside if the shape is wholly behind one plane, inside if wholly in front of all.
#[inline(always)]
fn verdict<T: Real>(per_plane: impl Iterator<Item = (T, T)>) -> Containment {
    let mut inside = true;
    for (s, e) in per_plane {
        if s + e < T::zero() {
            return Containment::Outside;
        }
        if s - e < T::zero() {
            inside = false;
        }
    }
    if inside {
        Containment::Inside
    } else {
        Containment::Intersecting
    }
}

/// Frustum/sphere (RTR 22.14.2): the centre's signed distance to each plane against the radius.
/// Conservative near the frustum's edges and corners: a sphere outside all of them but not
/// wholly behind any single plane is reported [`Containment::Intersecting`]. O(1).
#[inline]
pub fn frustum_ball<T: Real>(f: &Frustum<T>, ball: &Ball<T, 3>) -> Containment {
    verdict(f.planes().iter().map(|p| (p.signed_distance(ball.center()), ball.radius())))
}

/// Frustum/AABB (RTR 22.14.3): the plane/box test of RTR 22.10.1 against each plane (centre and
/// projected half-diagonal). Same conservative behaviour as [`frustum_ball`]. O(1).
#[inline]
pub fn frustum_aabb<T: Real>(f: &Frustum<T>, aabb: &Aabb<T, 3>) -> Containment {
    let c = aabb.center();
    let h = aabb.half_extents();
    verdict(f.planes().iter().map(|p| {
        let n = p.normal();
        (p.signed_distance(&c), n.x.abs() * h.x + n.y.abs() * h.y + n.z.abs() * h.z)
    }))
}

/// Frustum/OBB: as [`frustum_aabb`] with the radius `Σ hᵢ |n·axisᵢ|`. O(1).
#[inline]
pub fn frustum_obb<T: Real>(f: &Frustum<T>, obb: &Obb<T, 3>) -> Containment {
    let h = obb.half_extents();
    verdict(f.planes().iter().map(|p| {
        let l = obb.vector_to_local(p.normal());
        (p.signed_distance(obb.center()), l.x.abs() * h.x + l.y.abs() * h.y + l.z.abs() * h.z)
    }))
}
