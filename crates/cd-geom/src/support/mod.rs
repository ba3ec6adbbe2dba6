//! Support mappings: the one operation GJK, EPA, MPR and conservative advancement need from a
//! convex shape, `support(d) = argmax_{x ∈ S} d·x`.
//!
//! Every convex primitive implements [`SupportMap`]; [`Transformed`], [`Margin`],
//! [`MinkowskiSum`] and [`MinkowskiDifference`] build new support maps from old ones, so any
//! user shape composes with them.

mod adapters;
mod primitives;

pub use adapters::{Margin, MinkowskiDifference, MinkowskiSum, Transformed};

use crate::{Point, Real, Vector};

/// A convex shape described by its support function (object-safe: `&dyn SupportMap<T, D>`
/// works).
///
/// `support(d)` returns a point of the shape that is farthest along `d`. `d` need not be unit.
/// For `d = 0` every point qualifies; implementations return a fixed interior or boundary
/// point (the centre, or the first vertex). A non-finite `d` is treated the same way: the
/// result is always a finite point of the shape, never NaN.
pub trait SupportMap<T: Real, const D: usize> {
    /// A point `p` of the shape maximizing `d·p`.
    fn support(&self, d: &Vector<T, D>) -> Point<T, D>;

    /// [`SupportMap::support`] with a search hint: `*hint` is a vertex index this shape gave
    /// on an earlier call of the same query (0 the first time), updated to the answer's.
    /// Iterative queries (GJK, EPA) keep one hint per shape, and a large polyhedron then
    /// climbs its neighbour lists from its previous support vertex — a step or two after the
    /// small turns of the search direction — instead of from vertex 0. Shapes without
    /// vertices, and small polyhedra (scanned whole, faster than any climb), ignore it: the
    /// default.
    #[inline]
    fn support_from(&self, d: &Vector<T, D>, hint: &mut u32) -> Point<T, D> {
        let _ = hint;
        self.support(d)
    }

    /// A point inside the shape (its centre when it has one): MPR's interior point and the
    /// reference point of a rotating shape in conservative advancement.
    ///
    /// The default is the mean of the support points along `±` each coordinate axis (`2D`
    /// support calls), a convex combination of points of the shape and so inside it; the
    /// primitives override it with their centre.
    fn interior_point(&self) -> Point<T, D> {
        let mut sum = Vector::<T, D>::zeros();
        for i in 0..D {
            let e = Vector::<T, D>::from_fn(|k, _| if k == i { T::one() } else { T::zero() });
            sum += self.support(&e).coords + self.support(&-e).coords;
        }
        Point::from(sum / T::lit((2 * D) as f64))
    }

    /// The radius of a ball centred at [`SupportMap::interior_point`] that lies inside the
    /// shape: a lower bound, `0` when unknown (the default) or for flat shapes.
    ///
    /// Boolean queries use it as an early accept: two shapes whose inner balls overlap
    /// overlap too, with no iteration at all (deep overlaps are then O(1)). A value larger
    /// than the true inscribed radius around the interior point makes those queries report
    /// overlaps that are not there, so implementations must err low.
    fn inner_radius(&self) -> T {
        T::zero()
    }

    /// The radius of a ball centred at [`SupportMap::interior_point`] that contains the shape:
    /// an upper bound, `∞` when unknown (the default).
    ///
    /// Boolean and prediction-limited queries use it as an early reject: two shapes whose
    /// outer balls are farther apart than the margin are too, with the line between the
    /// interior points as the separating axis. A value smaller than the true one makes those
    /// queries miss overlaps, so implementations must err high.
    fn outer_radius(&self) -> T {
        T::infinity()
    }
}

impl<T: Real, const D: usize, S: SupportMap<T, D> + ?Sized> SupportMap<T, D> for &S {
    #[inline(always)]
    fn support(&self, d: &Vector<T, D>) -> Point<T, D> {
        (**self).support(d)
    }
    #[inline(always)]
    fn support_from(&self, d: &Vector<T, D>, hint: &mut u32) -> Point<T, D> {
        (**self).support_from(d, hint)
    }
    #[inline(always)]
    fn interior_point(&self) -> Point<T, D> {
        (**self).interior_point()
    }
    #[inline(always)]
    fn inner_radius(&self) -> T {
        (**self).inner_radius()
    }
    #[inline(always)]
    fn outer_radius(&self) -> T {
        (**self).outer_radius()
    }
}

impl<T: Real, const D: usize, S: SupportMap<T, D> + ?Sized> SupportMap<T, D> for Box<S> {
    #[inline(always)]
    fn support(&self, d: &Vector<T, D>) -> Point<T, D> {
        (**self).support(d)
    }
    #[inline(always)]
    fn support_from(&self, d: &Vector<T, D>, hint: &mut u32) -> Point<T, D> {
        (**self).support_from(d, hint)
    }
    #[inline(always)]
    fn interior_point(&self) -> Point<T, D> {
        (**self).interior_point()
    }
    #[inline(always)]
    fn inner_radius(&self) -> T {
        (**self).inner_radius()
    }
    #[inline(always)]
    fn outer_radius(&self) -> T {
        (**self).outer_radius()
    }
}

/// The axis-aligned box of a support map: the extreme points along `±` each coordinate axis
/// (`2D` support calls), returned as its `(min, max)` corners. Exact for every convex shape.
///
/// ```
/// use cd_geom::{support_aabb, Capsule};
/// use nalgebra::Point3;
/// let c = Capsule::new(Point3::new(0.0f64, 0.0, 0.0), Point3::new(0.0, 2.0, 0.0), 0.5).unwrap();
/// assert_eq!(support_aabb(&c), (Point3::new(-0.5, -0.5, -0.5), Point3::new(0.5, 2.5, 0.5)));
/// ```
pub fn support_aabb<T: Real, const D: usize, S: SupportMap<T, D> + ?Sized>(
    shape: &S,
) -> (Point<T, D>, Point<T, D>) {
    let (mut lo, mut hi) = (Point::origin(), Point::origin());
    for i in 0..D {
        let e = Vector::<T, D>::from_fn(|k, _| if k == i { T::one() } else { T::zero() });
        hi[i] = shape.support(&e)[i];
        lo[i] = shape.support(&-e)[i];
    }
    (lo, hi)
}

/// `d / |d|`, or zero for a zero, underflowing or non-finite `d`: used to add a radius along
/// `d` without ever producing NaN.
#[inline]
pub(crate) fn unit_or_zero<T: Real, const D: usize>(d: &Vector<T, D>) -> Vector<T, D> {
    let m = d.amax();
    if !(m > T::zero() && m.is_finite()) {
        return Vector::zeros();
    }
    let s = d / m;
    let n = s.norm();
    if !(n > T::zero() && n.is_finite()) {
        return Vector::zeros();
    }
    s / n
}
