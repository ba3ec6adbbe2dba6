use crate::validate;
use crate::{GeomError, GeomResult, Point, Real, Vector};

/// A solid finite cone (3D): apex, base-disc centre and base radius. `apex ≠ base`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        try_from = "crate::serde_impl::ConeRaw<T>",
        bound(serialize = "T: serde::Serialize", deserialize = "T: Real + serde::de::DeserializeOwned")
    )
)]
pub struct Cone<T: Real> {
    apex: Point<T, 3>,
    base: Point<T, 3>,
    radius: T,
}

impl<T: Real> Cone<T> {
    /// A cone. Errors: bad coordinates, negative radius, `apex == base`.
    pub fn new(apex: Point<T, 3>, base: Point<T, 3>, radius: T) -> GeomResult<Self> {
        validate::point(&apex)?;
        validate::point(&base)?;
        validate::unit(&(base - apex)).map_err(|_| GeomError::ZeroDirection)?;
        let radius = validate::non_negative(radius)?;
        Ok(Cone { apex, base, radius })
    }
    /// The apex.
    #[inline(always)]
    pub fn apex(&self) -> &Point<T, 3> {
        &self.apex
    }
    /// Centre of the base disc.
    #[inline(always)]
    pub fn base(&self) -> &Point<T, 3> {
        &self.base
    }
    /// Base radius.
    #[inline(always)]
    pub fn radius(&self) -> T {
        self.radius
    }
    /// Unit axis from apex to base.
    #[inline]
    pub fn axis(&self) -> Vector<T, 3> {
        (self.base - self.apex).normalize()
    }
    /// Height `|base - apex|`.
    #[inline]
    pub fn height(&self) -> T {
        (self.base - self.apex).norm()
    }
}
