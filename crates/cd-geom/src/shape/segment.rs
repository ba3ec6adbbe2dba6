use crate::validate;
use crate::{GeomResult, Point, Real, Vector};

/// The line segment between `a` and `b` (may have zero length), in 2D or 3D.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        try_from = "crate::serde_impl::SegmentRaw<T, D>",
        bound(serialize = "T: serde::Serialize", deserialize = "T: Real + serde::de::DeserializeOwned")
    )
)]
pub struct Segment<T: Real, const D: usize> {
    a: Point<T, D>,
    b: Point<T, D>,
}

impl<T: Real, const D: usize> Segment<T, D> {
    /// A segment. Errors: non-finite or out-of-range coordinates. `a == b` is allowed.
    pub fn new(a: Point<T, D>, b: Point<T, D>) -> GeomResult<Self> {
        validate::point(&a)?;
        validate::point(&b)?;
        Ok(Segment { a, b })
    }
    /// A segment from already-validated points (crate-internal; never fails).
    #[inline(always)]
    pub(crate) fn new_unchecked(a: Point<T, D>, b: Point<T, D>) -> Self {
        Segment { a, b }
    }
    /// First endpoint.
    #[inline(always)]
    pub fn a(&self) -> &Point<T, D> {
        &self.a
    }
    /// Second endpoint.
    #[inline(always)]
    pub fn b(&self) -> &Point<T, D> {
        &self.b
    }
    /// `b - a`.
    #[inline(always)]
    pub fn delta(&self) -> Vector<T, D> {
        self.b - self.a
    }
    /// Length `|b - a|`.
    #[inline]
    pub fn length(&self) -> T {
        self.delta().norm()
    }
    /// The point `a + t (b - a)`.
    #[inline(always)]
    pub fn at(&self, t: T) -> Point<T, D> {
        self.a + self.delta() * t
    }
}
