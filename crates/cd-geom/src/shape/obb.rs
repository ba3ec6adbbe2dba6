use crate::validate;
use crate::{Aabb, GeomError, GeomResult, Matrix, Point, Real, Vector};
use nalgebra::{UnitComplex, UnitQuaternion};

/// An oriented box: `center + Σ s_i·axis_i` with `|s_i| ≤ half_extents[i]`, in 2D or 3D.
///
/// The columns of [`Obb::axes`] are the box's orthonormal local axes, so `axes` is the rotation
/// from box space to world space and `axesᵀ·(p - center)` is `p` in box coordinates.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        try_from = "crate::serde_impl::ObbRaw<T, D>",
        bound(serialize = "T: serde::Serialize", deserialize = "T: Real + serde::de::DeserializeOwned")
    )
)]
pub struct Obb<T: Real, const D: usize> {
    center: Point<T, D>,
    axes: Matrix<T, D>,
    half_extents: Vector<T, D>,
}

impl<T: Real, const D: usize> Obb<T, D> {
    /// A box from its centre, axes (columns, orthonormal to a relative tolerance of 1e-4) and
    /// half extents. Errors: bad coordinates, negative extents, non-orthonormal axes.
    ///
    /// Axes further than 16 ε from orthonormal are made orthonormal to rounding (Gram–Schmidt
    /// from the first column, keeping the handedness): every query treats the axes as
    /// orthonormal, and a sheared frame's error is amplified on nearly parallel edge axes
    /// (the box/box SAT's rounding bound assumes axes orthonormal to a few ε).
    pub fn new(center: Point<T, D>, axes: Matrix<T, D>, half_extents: Vector<T, D>) -> GeomResult<Self> {
        validate::point(&center)?;
        validate::vector(&half_extents)?;
        if half_extents.iter().any(|h| *h < T::zero()) {
            return Err(GeomError::Negative);
        }
        if axes.iter().any(|x| !x.is_finite()) {
            return Err(GeomError::NonFinite);
        }
        let gram = axes.transpose() * axes;
        let mut deviation = T::zero();
        for i in 0..D {
            for j in 0..D {
                let target = if i == j { T::one() } else { T::zero() };
                deviation = deviation.max((gram[(i, j)] - target).abs());
            }
        }
        // The axes are finite (checked above), so the deviation is too.
        if deviation > T::lit(1e-4) {
            return Err(GeomError::NotOrthonormal);
        }
        let axes = if deviation > T::epsilon() * T::lit(16.0) { gram_schmidt(&axes) } else { axes };
        Ok(Obb { center, axes, half_extents })
    }
    /// The same box in `f64` (the widening is exact), its axes made orthonormal to `f64`
    /// rounding: a box of a narrower type is orthonormal only to that type's rounding, and a
    /// query redone in `f64` for precision (nearly parallel edge axes amplify a shear) needs
    /// the box it measures to be a box.
    pub fn widened(&self) -> Obb<f64, D> {
        let wide = |v: &Vector<T, D>| v.map(|x| x.to_f64());
        Obb::new_unchecked(
            Point::from(wide(&self.center.coords)),
            gram_schmidt(&self.axes.map(|x| x.to_f64())),
            wide(&self.half_extents),
        )
    }
    /// The same box moved to `center` (axes and extents kept). Error: bad coordinates. Queries
    /// far from the origin use it to work relative to one shape (`center − other.center()`),
    /// where differences are exact and tolerances scale with the shapes, not the coordinates.
    pub fn with_center(&self, center: Point<T, D>) -> GeomResult<Self> {
        validate::point(&center)?;
        Ok(Obb { center, ..*self })
    }
    /// An OBB from already-validated parts (crate-internal; never fails).
    #[inline(always)]
    pub(crate) fn new_unchecked(center: Point<T, D>, axes: Matrix<T, D>, half_extents: Vector<T, D>) -> Self {
        Obb { center, axes, half_extents }
    }
    /// The OBB equal to an AABB (identity axes).
    pub fn from_aabb(aabb: &Aabb<T, D>) -> Self {
        Obb { center: aabb.center(), axes: Matrix::identity(), half_extents: aabb.half_extents() }
    }
    /// Centre.
    #[inline(always)]
    pub fn center(&self) -> &Point<T, D> {
        &self.center
    }
    /// Local axes as the columns of a rotation matrix.
    #[inline(always)]
    pub fn axes(&self) -> &Matrix<T, D> {
        &self.axes
    }
    /// Local axis `i` (a unit vector).
    #[inline(always)]
    pub fn axis(&self, i: usize) -> Vector<T, D> {
        self.axes.column(i).into_owned()
    }
    /// Half extents along the local axes.
    #[inline(always)]
    pub fn half_extents(&self) -> &Vector<T, D> {
        &self.half_extents
    }
    /// `p` in box coordinates (origin at the centre, box axes as basis).
    #[inline]
    pub fn to_local(&self, p: &Point<T, D>) -> Point<T, D> {
        Point::from(self.axes.tr_mul(&(p - self.center)))
    }
    /// A world direction in box coordinates.
    #[inline]
    pub fn vector_to_local(&self, v: &Vector<T, D>) -> Vector<T, D> {
        self.axes.tr_mul(v)
    }
    /// A box-coordinate point in world coordinates.
    #[inline]
    pub fn to_world(&self, p: &Point<T, D>) -> Point<T, D> {
        self.center + self.axes * p.coords
    }
    /// The box centred at the origin with the same extents (the box in its own frame).
    #[inline]
    pub fn local_aabb(&self) -> Aabb<T, D> {
        Aabb::new_unchecked(Point::from(-self.half_extents), Point::from(self.half_extents))
    }
    /// Is `p` inside or on the box?
    #[inline]
    pub fn contains_point(&self, p: &Point<T, D>) -> bool {
        let q = self.to_local(p);
        (0..D).all(|i| q[i].abs() <= self.half_extents[i])
    }
}

impl<T: Real> Obb<T, 3> {
    /// A 3D box rotated by a unit quaternion.
    pub fn from_rotation(
        center: Point<T, 3>,
        rotation: UnitQuaternion<T>,
        half_extents: Vector<T, 3>,
    ) -> GeomResult<Self> {
        Obb::new(center, rotation.to_rotation_matrix().into_inner(), half_extents)
    }
}

impl<T: Real> Obb<T, 2> {
    /// A 2D box rotated by `angle` radians counter-clockwise.
    pub fn from_angle(center: Point<T, 2>, angle: T, half_extents: Vector<T, 2>) -> GeomResult<Self> {
        if !angle.is_finite() {
            return Err(GeomError::NonFinite);
        }
        Obb::new(center, UnitComplex::new(angle).to_rotation_matrix().into_inner(), half_extents)
    }
}

/// The columns of `m` made orthonormal in order (each minus its projections on the ones before,
/// then normalized): the first keeps its direction and the frame its handedness. `m` is within
/// 10⁻⁴ of orthonormal, so no column comes out short.
fn gram_schmidt<T: Real, const D: usize>(m: &Matrix<T, D>) -> Matrix<T, D> {
    let mut out = *m;
    for i in 0..D {
        let mut c = m.column(i).into_owned();
        for j in 0..i {
            let done = out.column(j).into_owned();
            c -= done * done.dot(&c);
        }
        out.set_column(i, &c.normalize());
    }
    out
}
