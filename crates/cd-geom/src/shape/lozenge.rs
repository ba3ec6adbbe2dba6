use crate::validate;
use crate::{GeomResult, Point, Real, Vector};

/// A lozenge (rectangle-swept sphere): the points within `radius` of the rectangle
/// `origin + s·e0 + t·e1`, `s, t ∈ [0, 1]` (3D).
///
/// `e0` and `e1` may be any two edge vectors (a parallelogram core is accepted; a rectangle is
/// the usual case); either may be zero, giving a capsule or a sphere.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        try_from = "crate::serde_impl::LozengeRaw<T>",
        bound(serialize = "T: serde::Serialize", deserialize = "T: Real + serde::de::DeserializeOwned")
    )
)]
pub struct Lozenge<T: Real> {
    origin: Point<T, 3>,
    e0: Vector<T, 3>,
    e1: Vector<T, 3>,
    radius: T,
}

impl<T: Real> Lozenge<T> {
    /// A lozenge. Errors: bad coordinates, negative radius.
    pub fn new(origin: Point<T, 3>, e0: Vector<T, 3>, e1: Vector<T, 3>, radius: T) -> GeomResult<Self> {
        validate::point(&origin)?;
        validate::vector(&e0)?;
        validate::vector(&e1)?;
        validate::point(&(origin + e0 + e1))?;
        let radius = validate::non_negative(radius)?;
        Ok(Lozenge { origin, e0, e1, radius })
    }
    /// Corner of the core rectangle at `s = t = 0`.
    #[inline(always)]
    pub fn origin(&self) -> &Point<T, 3> {
        &self.origin
    }
    /// First edge vector.
    #[inline(always)]
    pub fn e0(&self) -> &Vector<T, 3> {
        &self.e0
    }
    /// Second edge vector.
    #[inline(always)]
    pub fn e1(&self) -> &Vector<T, 3> {
        &self.e1
    }
    /// Radius.
    #[inline(always)]
    pub fn radius(&self) -> T {
        self.radius
    }
    /// The support point of the core parallelogram along `d` (the lozenge's support without
    /// the radius): the corner whose edges both lean towards `d`.
    #[inline]
    pub fn core_support(&self, d: &Vector<T, 3>) -> Point<T, 3> {
        let mut p = self.origin;
        if d.dot(&self.e0) > T::zero() {
            p += self.e0;
        }
        if d.dot(&self.e1) > T::zero() {
            p += self.e1;
        }
        p
    }
}
