//! Continuous tests far from the origin, worked out relative to the moving shape.
//!
//! The closed-form tests measure their slack in ulps of the coordinates they are given: in
//! `f32` at 10⁴ that is 10⁻³, and a sphere's or a capsule's time against a triangle there was
//! up to 0.45 (sphere) and 1.4 (capsule) units off, late as often as early. Moved so that the
//! moving shape's reference point is at the origin, the same tests round at the shapes' own
//! size, and the answer is moved back. Near the origin (within the pair's own reach of it)
//! nothing is moved: there it would gain at most a factor of two.

use crate::motion::LinearMotion;
use crate::toi::Toi;
use cd_geom::{Point, Real, Triangle, Vector};
use nalgebra::Point3;

/// The offset to work relative to: `reference` when it lies farther from the origin than the
/// pair reaches around it (`points` plus `radius`, and the step's displacement), else `None`.
pub(crate) fn far_origin<'p, T: Real>(
    reference: &Point3<T>,
    points: impl IntoIterator<Item = &'p Point3<T>>,
    radius: T,
    motion: &LinearMotion<T, 3>,
) -> Option<Vector<T, 3>> {
    let spread = points.into_iter().fold(T::zero(), |m, p| m.max((p - reference).amax()));
    let reach = spread + radius + motion.relative_velocity().amax() * motion.max_time();
    (reference.coords.amax() > reach).then_some(reference.coords)
}

/// `point` moved by `-by`.
#[inline]
pub(crate) fn moved<T: Real>(point: &Point3<T>, by: &Vector<T, 3>) -> Point3<T> {
    Point::from(point.coords - by)
}

/// `tri` moved by `-by` (`None` should the move make it invalid, which rounding of a
/// difference cannot; the caller then stays where it is).
pub(crate) fn moved_triangle<T: Real>(tri: &Triangle<T, 3>, by: &Vector<T, 3>) -> Option<Triangle<T, 3>> {
    Triangle::new(moved(tri.a(), by), moved(tri.b(), by), moved(tri.c(), by)).ok()
}

/// An answer found on shapes moved by `-origin`, moved back in place.
#[inline]
pub(crate) fn moved_back<T: Real>(origin: Vector<T, 3>, toi: Option<Toi<T, 3>>) -> Option<Toi<T, 3>> {
    toi.map(|t| t.shifted(origin))
}
