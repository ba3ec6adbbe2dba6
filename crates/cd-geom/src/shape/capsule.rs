use crate::validate;
use crate::{GeomResult, Point, Real, Segment};

/// A capsule: the set of points within `radius` of the segment `ab` (a line-swept sphere), in
/// 2D (a stadium) or 3D. `a == b` gives a ball; radius 0 gives a segment.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        try_from = "crate::serde_impl::CapsuleRaw<T, D>",
        bound(serialize = "T: serde::Serialize", deserialize = "T: Real + serde::de::DeserializeOwned")
    )
)]
pub struct Capsule<T: Real, const D: usize> {
    a: Point<T, D>,
    b: Point<T, D>,
    radius: T,
}

impl<T: Real, const D: usize> Capsule<T, D> {
    /// A capsule around segment `ab`. Errors: bad coordinates, negative radius.
    pub fn new(a: Point<T, D>, b: Point<T, D>, radius: T) -> GeomResult<Self> {
        validate::point(&a)?;
        validate::point(&b)?;
        let radius = validate::non_negative(radius)?;
        Ok(Capsule { a, b, radius })
    }
    /// A capsule from trusted parts (already validated), for the crate's own decompositions.
    pub(crate) fn new_unchecked(a: Point<T, D>, b: Point<T, D>, radius: T) -> Self {
        Capsule { a, b, radius }
    }
    /// First end of the core segment.
    #[inline(always)]
    pub fn a(&self) -> &Point<T, D> {
        &self.a
    }
    /// Second end of the core segment.
    #[inline(always)]
    pub fn b(&self) -> &Point<T, D> {
        &self.b
    }
    /// The core segment.
    #[inline(always)]
    pub fn segment(&self) -> Segment<T, D> {
        Segment::new_unchecked(self.a, self.b)
    }
    /// Radius.
    #[inline(always)]
    pub fn radius(&self) -> T {
        self.radius
    }
}
