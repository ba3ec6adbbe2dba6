//! Support maps built from other support maps.

use super::{unit_or_zero, SupportMap};
use crate::{Point, Real, Vector};
use nalgebra::{AbstractRotation, Isometry};

/// A shape placed in the world by a rigid motion: `support(d) = M·S.support(Mᵀ·d)`.
#[derive(Clone, Copy, Debug)]
pub struct Transformed<S, T: Real, R, const D: usize> {
    /// The shape in its local frame.
    pub shape: S,
    /// Local-to-world motion (`Isometry2`/`Isometry3` or any nalgebra isometry).
    pub pose: Isometry<T, R, D>,
}

impl<S, T: Real, R, const D: usize> Transformed<S, T, R, D> {
    /// Wraps `shape` with the local-to-world `pose`.
    pub fn new(shape: S, pose: Isometry<T, R, D>) -> Self {
        Transformed { shape, pose }
    }
}

impl<S, T, R, const D: usize> SupportMap<T, D> for Transformed<S, T, R, D>
where
    S: SupportMap<T, D>,
    T: Real,
    R: AbstractRotation<T, D>,
{
    #[inline]
    fn support(&self, d: &Vector<T, D>) -> Point<T, D> {
        let local = self.pose.inverse_transform_vector(d);
        self.pose.transform_point(&self.shape.support(&local))
    }
    // Always inlined, like the polyhedron's: the wrapped support then inlines into the GJK
    // loop too.
    #[inline(always)]
    fn support_from(&self, d: &Vector<T, D>, hint: &mut u32) -> Point<T, D> {
        let local = self.pose.inverse_transform_vector(d);
        self.pose.transform_point(&self.shape.support_from(&local, hint))
    }
    #[inline]
    fn interior_point(&self) -> Point<T, D> {
        self.pose.transform_point(&self.shape.interior_point())
    }
    #[inline]
    fn inner_radius(&self) -> T {
        self.shape.inner_radius()
    }
    #[inline]
    fn outer_radius(&self) -> T {
        self.shape.outer_radius()
    }
}

/// A shape grown by a radius (its Minkowski sum with a ball): `support(d) = S.support(d) + r·d̂`.
/// A sphere is a point with a margin, a capsule a segment with one.
#[derive(Clone, Copy, Debug)]
pub struct Margin<S, T: Real> {
    /// The core shape.
    pub core: S,
    /// The margin radius (non-negative).
    pub radius: T,
}

impl<S, T: Real> Margin<S, T> {
    /// `core` grown by `radius`; a negative or non-finite radius is treated as zero.
    pub fn new(core: S, radius: T) -> Self {
        let radius = if radius.is_finite() && radius > T::zero() { radius } else { T::zero() };
        Margin { core, radius }
    }
}

impl<S: SupportMap<T, D>, T: Real, const D: usize> SupportMap<T, D> for Margin<S, T> {
    #[inline]
    fn support(&self, d: &Vector<T, D>) -> Point<T, D> {
        self.core.support(d) + unit_or_zero(d) * self.radius
    }
    #[inline]
    fn support_from(&self, d: &Vector<T, D>, hint: &mut u32) -> Point<T, D> {
        self.core.support_from(d, hint) + unit_or_zero(d) * self.radius
    }
    #[inline]
    fn interior_point(&self) -> Point<T, D> {
        self.core.interior_point()
    }
    /// The core's inner ball grown by the margin.
    #[inline]
    fn inner_radius(&self) -> T {
        self.core.inner_radius() + self.radius
    }
    #[inline]
    fn outer_radius(&self) -> T {
        self.core.outer_radius() + self.radius
    }
}

/// The Minkowski sum `A ⊕ B`: `support(d) = A.support(d) + B.support(d)`.
#[derive(Clone, Copy, Debug)]
pub struct MinkowskiSum<A, B> {
    /// First operand.
    pub a: A,
    /// Second operand.
    pub b: B,
}

impl<T: Real, const D: usize, A: SupportMap<T, D>, B: SupportMap<T, D>> SupportMap<T, D>
    for MinkowskiSum<A, B>
{
    #[inline]
    fn support(&self, d: &Vector<T, D>) -> Point<T, D> {
        self.a.support(d) + self.b.support(d).coords
    }
    #[inline]
    fn interior_point(&self) -> Point<T, D> {
        self.a.interior_point() + self.b.interior_point().coords
    }
    /// The sum of two balls is the ball of the summed radii.
    #[inline]
    fn inner_radius(&self) -> T {
        self.a.inner_radius() + self.b.inner_radius()
    }
    #[inline]
    fn outer_radius(&self) -> T {
        self.a.outer_radius() + self.b.outer_radius()
    }
}

/// The Minkowski difference `A ⊖ B = {a - b}` (the configuration-space obstacle GJK works on):
/// `support(d) = A.support(d) - B.support(-d)`. `A` and `B` intersect iff it contains the origin.
#[derive(Clone, Copy, Debug)]
pub struct MinkowskiDifference<A, B> {
    /// Minuend.
    pub a: A,
    /// Subtrahend.
    pub b: B,
}

impl<T: Real, const D: usize, A: SupportMap<T, D>, B: SupportMap<T, D>> SupportMap<T, D>
    for MinkowskiDifference<A, B>
{
    #[inline]
    fn support(&self, d: &Vector<T, D>) -> Point<T, D> {
        Point::from(self.a.support(d) - self.b.support(&-d))
    }
    #[inline]
    fn interior_point(&self) -> Point<T, D> {
        Point::from(self.a.interior_point() - self.b.interior_point())
    }
    /// `ball(a, r) ⊖ ball(b, s)` is the ball of radius `r + s` around `a − b`.
    #[inline]
    fn inner_radius(&self) -> T {
        self.a.inner_radius() + self.b.inner_radius()
    }
    #[inline]
    fn outer_radius(&self) -> T {
        self.a.outer_radius() + self.b.outer_radius()
    }
}
