use crate::validate;
use crate::{GeomError, GeomResult, Point, Real, Vector};

/// An axis-aligned box `[min, max]`, in 2D or 3D. A box may be flat (`min == max` on an axis).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        try_from = "crate::serde_impl::AabbRaw<T, D>",
        bound(serialize = "T: serde::Serialize", deserialize = "T: Real + serde::de::DeserializeOwned")
    )
)]
pub struct Aabb<T: Real, const D: usize> {
    min: Point<T, D>,
    max: Point<T, D>,
}

/// Componentwise minimum of finite points by plain comparisons: nalgebra's `inf` goes through
/// simba's NaN-aware generic minimum, several times slower where boxes are built by the
/// hundred thousand (a hierarchy's leaves and parents). A box's corners are always finite.
#[inline(always)]
fn lower<T: Real, const D: usize>(a: &Point<T, D>, b: &Point<T, D>) -> Point<T, D> {
    Point::from(Vector::<T, D>::from_fn(|i, _| if b[i] < a[i] { b[i] } else { a[i] }))
}

/// Componentwise maximum of finite points (see [`lower`]).
#[inline(always)]
fn upper<T: Real, const D: usize>(a: &Point<T, D>, b: &Point<T, D>) -> Point<T, D> {
    Point::from(Vector::<T, D>::from_fn(|i, _| if b[i] > a[i] { b[i] } else { a[i] }))
}

impl<T: Real, const D: usize> Aabb<T, D> {
    /// The box between two corners. Errors: bad coordinates, `min > max` on an axis.
    ///
    /// ```
    /// use cd_geom::Aabb;
    /// use nalgebra::Point2;
    /// let b = Aabb::new(Point2::new(0.0f64, 0.0), Point2::new(2.0, 1.0)).unwrap();
    /// assert_eq!(b.center(), Point2::new(1.0, 0.5));
    /// assert!(Aabb::new(Point2::new(1.0f64, 0.0), Point2::new(0.0, 1.0)).is_err());
    /// ```
    pub fn new(min: Point<T, D>, max: Point<T, D>) -> GeomResult<Self> {
        validate::point(&min)?;
        validate::point(&max)?;
        if (0..D).any(|i| min[i] > max[i]) {
            return Err(GeomError::InvertedBounds);
        }
        Ok(Aabb { min, max })
    }
    /// The box with the given centre and (non-negative) half extents.
    pub fn from_center_half_extents(center: Point<T, D>, half: Vector<T, D>) -> GeomResult<Self> {
        // The centre needs no check of its own: a non-finite or out-of-range centre makes a
        // corner non-finite or out of range, which `new` reports with the same error.
        if half.iter().any(|h| *h < T::zero()) {
            return Err(GeomError::Negative);
        }
        Aabb::new(center - half, center + half)
    }
    /// The smallest box containing every point. Error: empty input or bad coordinates.
    pub fn from_points<'a, I>(points: I) -> GeomResult<Self>
    where
        I: IntoIterator<Item = &'a Point<T, D>>,
    {
        let mut it = points.into_iter();
        let first = it.next().ok_or(GeomError::TooFewPoints)?;
        validate::point(first)?;
        let (mut lo, mut hi) = (*first, *first);
        for p in it {
            validate::point(p)?;
            lo = lower(&lo, p);
            hi = upper(&hi, p);
        }
        Ok(Aabb { min: lo, max: hi })
    }
    /// A box from already-validated corners with `min ≤ max` (crate-internal; never fails).
    #[inline(always)]
    pub(crate) fn new_unchecked(min: Point<T, D>, max: Point<T, D>) -> Self {
        Aabb { min, max }
    }
    /// Minimum corner.
    #[inline(always)]
    pub fn min(&self) -> &Point<T, D> {
        &self.min
    }
    /// Maximum corner.
    #[inline(always)]
    pub fn max(&self) -> &Point<T, D> {
        &self.max
    }
    /// Centre.
    #[inline(always)]
    pub fn center(&self) -> Point<T, D> {
        nalgebra::center(&self.min, &self.max)
    }
    /// Half extents `(max - min) / 2`.
    #[inline(always)]
    pub fn half_extents(&self) -> Vector<T, D> {
        (self.max - self.min) * T::lit(0.5)
    }
    /// Is `p` inside or on the box?
    #[inline]
    pub fn contains_point(&self, p: &Point<T, D>) -> bool {
        (0..D).all(|i| self.min[i] <= p[i] && p[i] <= self.max[i])
    }
    /// The smallest box containing both.
    #[inline]
    pub fn merged(&self, other: &Self) -> Self {
        Aabb { min: lower(&self.min, &other.min), max: upper(&self.max, &other.max) }
    }
    /// The corner selected by `bits` (bit `i` set = max on axis `i`).
    #[inline]
    pub fn corner(&self, bits: usize) -> Point<T, D> {
        Point::from(Vector::<T, D>::from_fn(
            |i, _| {
                if bits >> i & 1 == 1 {
                    self.max[i]
                } else {
                    self.min[i]
                }
            },
        ))
    }
}
