use crate::validate;
use crate::{GeomError, GeomResult, Point, Real, Vector};

/// A solid capped cylinder of `radius` around the segment `ab` (3D). `a ≠ b`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        try_from = "crate::serde_impl::CylinderRaw<T>",
        bound(serialize = "T: serde::Serialize", deserialize = "T: Real + serde::de::DeserializeOwned")
    )
)]
pub struct Cylinder<T: Real> {
    a: Point<T, 3>,
    b: Point<T, 3>,
    radius: T,
}

impl<T: Real> Cylinder<T> {
    /// A cylinder. Errors: bad coordinates, negative radius, `a == b` (no axis).
    pub fn new(a: Point<T, 3>, b: Point<T, 3>, radius: T) -> GeomResult<Self> {
        validate::point(&a)?;
        validate::point(&b)?;
        validate::unit(&(b - a)).map_err(|_| GeomError::ZeroDirection)?;
        let radius = validate::non_negative(radius)?;
        Ok(Cylinder { a, b, radius })
    }
    /// Centre of the first cap.
    #[inline(always)]
    pub fn a(&self) -> &Point<T, 3> {
        &self.a
    }
    /// Centre of the second cap.
    #[inline(always)]
    pub fn b(&self) -> &Point<T, 3> {
        &self.b
    }
    /// Radius.
    #[inline(always)]
    pub fn radius(&self) -> T {
        self.radius
    }
    /// Unit axis from `a` to `b`.
    #[inline]
    pub fn axis(&self) -> Vector<T, 3> {
        (self.b - self.a).normalize()
    }
}
