use crate::validate;
use crate::{GeomError, GeomResult, Point, Real, Vector};

/// A ray `origin + t·dir` for `t ∈ [0, max_t]`, in 2D or 3D.
///
/// `dir` need not be unit length: every `t` a ray query returns is measured in units of `|dir|`
/// (so with a unit `dir` it is a distance). `max_t` defaults to `+∞`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        try_from = "crate::serde_impl::RayRaw<T, D>",
        bound(serialize = "T: serde::Serialize", deserialize = "T: Real + serde::de::DeserializeOwned")
    )
)]
pub struct Ray<T: Real, const D: usize> {
    origin: Point<T, D>,
    dir: Vector<T, D>,
    max_t: T,
}

impl<T: Real, const D: usize> Ray<T, D> {
    /// A ray with unbounded length. Errors: non-finite or out-of-range coordinates, a zero `dir`
    /// or one shorter than `1 / coord_limit` ([`GeomError::ZeroDirection`]).
    ///
    /// ```
    /// use cd_geom::Ray;
    /// use nalgebra::{Point3, Vector3};
    /// let r = Ray::new(Point3::new(0.0f32, 0.0, 0.0), Vector3::new(0.0, 0.0, 2.0)).unwrap();
    /// assert_eq!(r.at(0.5), Point3::new(0.0, 0.0, 1.0));
    /// ```
    pub fn new(origin: Point<T, D>, dir: Vector<T, D>) -> GeomResult<Self> {
        validate::point(&origin)?;
        validate::ray_direction(&dir)?;
        Ok(Ray { origin, dir, max_t: T::infinity() })
    }

    /// The same ray limited to `t ≤ max_t` (`max_t` may be `+∞`, must not be negative or NaN).
    pub fn with_max_t(self, max_t: T) -> GeomResult<Self> {
        if max_t.partial_cmp(&T::zero()).is_none() {
            return Err(GeomError::NonFinite);
        }
        if max_t < T::zero() {
            return Err(GeomError::Negative);
        }
        Ok(Ray { max_t, ..self })
    }

    /// The start point.
    #[inline(always)]
    pub fn origin(&self) -> &Point<T, D> {
        &self.origin
    }
    /// The direction (not necessarily unit).
    #[inline(always)]
    pub fn dir(&self) -> &Vector<T, D> {
        &self.dir
    }
    /// The largest parameter a hit may have.
    #[inline(always)]
    pub fn max_t(&self) -> T {
        self.max_t
    }
    /// The point at parameter `t`.
    #[inline(always)]
    pub fn at(&self, t: T) -> Point<T, D> {
        self.origin + self.dir * t
    }
}
