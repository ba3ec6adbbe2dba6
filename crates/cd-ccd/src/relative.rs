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
use cd_geom::{far_offset, Point, Real, Vector};
use nalgebra::Point3;

/// The offset to work relative to ([`cd_geom::far_offset`]): `reference` when it lies
/// farther from the origin than the pair reaches around it over the step (`points` plus
/// `radius` and the step's displacement), else `None`.
pub(crate) fn far_origin<'p, T: Real>(
    reference: &Point3<T>,
    points: impl IntoIterator<Item = &'p Point3<T>>,
    radius: T,
    motion: &LinearMotion<T, 3>,
) -> Option<Vector<T, 3>> {
    far_offset(reference, points, radius + motion.relative_velocity().amax() * motion.max_time())
}

/// `point` moved by `-by`.
#[inline]
pub(crate) fn moved<T: Real>(point: &Point3<T>, by: &Vector<T, 3>) -> Point3<T> {
    Point::from(point.coords - by)
}

/// An answer found on shapes moved by `-origin`, moved back in place.
#[inline]
pub(crate) fn moved_back<T: Real>(origin: Vector<T, 3>, toi: Option<Toi<T, 3>>) -> Option<Toi<T, 3>> {
    toi.map(|t| t.shifted(origin))
}
