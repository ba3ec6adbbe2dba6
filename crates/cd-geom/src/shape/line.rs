use crate::validate;
use crate::{GeomResult, Point, Real, Vector};

/// The infinite line `point + s·dir`, `s ∈ ℝ`, in 2D or 3D.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        try_from = "crate::serde_impl::LineRaw<T, D>",
        bound(serialize = "T: serde::Serialize", deserialize = "T: Real + serde::de::DeserializeOwned")
    )
)]
pub struct Line<T: Real, const D: usize> {
    point: Point<T, D>,
    dir: Vector<T, D>,
}

impl<T: Real, const D: usize> Line<T, D> {
    /// A line through `point` along `dir`. Errors: bad coordinates, a zero `dir` or one shorter
    /// than `1 / coord_limit`.
    pub fn new(point: Point<T, D>, dir: Vector<T, D>) -> GeomResult<Self> {
        validate::point(&point)?;
        validate::ray_direction(&dir)?;
        Ok(Line { point, dir })
    }
    /// The line through two distinct points.
    pub fn through(a: Point<T, D>, b: Point<T, D>) -> GeomResult<Self> {
        validate::point(&a)?;
        validate::point(&b)?;
        Line::new(a, b - a)
    }
    /// A point on the line.
    #[inline(always)]
    pub fn point(&self) -> &Point<T, D> {
        &self.point
    }
    /// The direction (not necessarily unit, never zero).
    #[inline(always)]
    pub fn dir(&self) -> &Vector<T, D> {
        &self.dir
    }
    /// The point `point + s·dir`.
    #[inline(always)]
    pub fn at(&self, s: T) -> Point<T, D> {
        self.point + self.dir * s
    }
}
