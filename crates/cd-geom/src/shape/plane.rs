use crate::validate;
use crate::{GeomError, GeomResult, Point, Real, Vector};

/// The hyperplane `n·x + d = 0` with unit normal `n` (a plane in 3D, a line in 2D).
///
/// The positive half-space is `n·x + d ≥ 0`; [`Plane::signed_distance`] is positive there.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        try_from = "crate::serde_impl::PlaneRaw<T, D>",
        bound(serialize = "T: serde::Serialize", deserialize = "T: Real + serde::de::DeserializeOwned")
    )
)]
pub struct Plane<T: Real, const D: usize> {
    normal: Vector<T, D>,
    d: T,
}

impl<T: Real, const D: usize> Plane<T, D> {
    /// The plane `normal·x + d = 0`. `normal` need not be unit: both `normal` and `d` are divided
    /// by `|normal|`. Errors: bad coordinates, zero normal.
    pub fn new(normal: Vector<T, D>, d: T) -> GeomResult<Self> {
        validate::direction(&normal)?;
        let d = validate::coord(d)?;
        let len = normal.norm();
        if len == T::zero() || !len.is_finite() {
            // Too small to square without underflow: renormalise through the scaled unit vector.
            let n = validate::unit(&normal)?;
            let scale = normal.dot(&n);
            if scale == T::zero() {
                return Err(GeomError::ZeroDirection);
            }
            return Ok(Plane { normal: n, d: validate::coord(d / scale)? });
        }
        Ok(Plane { normal: normal / len, d: validate::coord(d / len)? })
    }
    /// The plane through `point` with normal `normal` (need not be unit).
    pub fn from_point_normal(point: Point<T, D>, normal: Vector<T, D>) -> GeomResult<Self> {
        validate::point(&point)?;
        let n = validate::unit(&normal)?;
        Ok(Plane { normal: n, d: -n.dot(&point.coords) })
    }
    /// A plane from an already unit, validated normal (crate-internal fast path).
    #[inline(always)]
    pub(crate) fn from_unit_normal(normal: Vector<T, D>, d: T) -> Self {
        Plane { normal, d }
    }
    /// Unit normal.
    #[inline(always)]
    pub fn normal(&self) -> &Vector<T, D> {
        &self.normal
    }
    /// Offset `d` in `n·x + d = 0`.
    #[inline(always)]
    pub fn d(&self) -> T {
        self.d
    }
    /// Signed distance `n·p + d`: positive on the normal's side.
    #[inline(always)]
    pub fn signed_distance(&self, p: &Point<T, D>) -> T {
        self.normal.dot(&p.coords) + self.d
    }
    /// The orthogonal projection of `p` onto the plane.
    #[inline]
    pub fn project(&self, p: &Point<T, D>) -> Point<T, D> {
        p - self.normal * self.signed_distance(p)
    }
    /// The same plane with the normal (and positive side) reversed.
    #[inline]
    pub fn flipped(&self) -> Self {
        Plane { normal: -self.normal, d: -self.d }
    }
}

impl<T: Real> Plane<T, 3> {
    /// The plane through three points, normal `(b - a) × (c - a)` (counter-clockwise side
    /// positive). Errors: bad coordinates, collinear points.
    pub fn from_points(a: Point<T, 3>, b: Point<T, 3>, c: Point<T, 3>) -> GeomResult<Self> {
        validate::point(&a)?;
        validate::point(&b)?;
        validate::point(&c)?;
        let n = crate::directions::edge_normal(&(b - a), &(c - a)).ok_or(GeomError::Degenerate)?;
        Ok(Plane { normal: n, d: -n.dot(&a.coords) })
    }
}
