use crate::validate;
use crate::{GeomResult, Point, Real};

/// A solid ball: a sphere in 3D, a disc ("circle") in 2D.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        try_from = "crate::serde_impl::BallRaw<T, D>",
        bound(serialize = "T: serde::Serialize", deserialize = "T: Real + serde::de::DeserializeOwned")
    )
)]
pub struct Ball<T: Real, const D: usize> {
    center: Point<T, D>,
    radius: T,
}

/// A 3D ball.
pub type Sphere<T> = Ball<T, 3>;
/// A 2D ball (solid disc).
pub type Circle<T> = Ball<T, 2>;

impl<T: Real, const D: usize> Ball<T, D> {
    /// A ball. Errors: bad coordinates, negative radius. Radius 0 (a point) is valid.
    pub fn new(center: Point<T, D>, radius: T) -> GeomResult<Self> {
        validate::point(&center)?;
        let radius = validate::non_negative(radius)?;
        Ok(Ball { center, radius })
    }
    /// A ball from an already-validated centre and radius (crate-internal; never fails).
    #[inline(always)]
    pub(crate) fn new_unchecked(center: Point<T, D>, radius: T) -> Self {
        Ball { center, radius }
    }
    /// Centre.
    #[inline(always)]
    pub fn center(&self) -> &Point<T, D> {
        &self.center
    }
    /// Radius.
    #[inline(always)]
    pub fn radius(&self) -> T {
        self.radius
    }
    /// Is `p` inside or on the ball?
    #[inline]
    pub fn contains_point(&self, p: &Point<T, D>) -> bool {
        (p - self.center).norm_squared() <= self.radius * self.radius
    }
}
