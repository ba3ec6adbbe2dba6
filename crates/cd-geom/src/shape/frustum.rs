use crate::{GeomError, GeomResult, Plane, Real};
use nalgebra::{Matrix4, Vector3};

/// Which plane of a [`Frustum`] (the index into [`Frustum::planes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FrustumPlane {
    /// `row3 + row0`.
    Left = 0,
    /// `row3 - row0`.
    Right = 1,
    /// `row3 + row1`.
    Bottom = 2,
    /// `row3 - row1`.
    Top = 3,
    /// `row3 + row2`.
    Near = 4,
    /// `row3 - row2`.
    Far = 5,
}

/// A view frustum: six planes with normals pointing **inward**, so a point is inside when
/// every [`Plane::signed_distance`] is `≥ 0`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        try_from = "crate::serde_impl::FrustumRaw<T>",
        bound(serialize = "T: serde::Serialize", deserialize = "T: Real + serde::de::DeserializeOwned")
    )
)]
pub struct Frustum<T: Real> {
    planes: [Plane<T, 3>; 6],
}

impl<T: Real> Frustum<T> {
    /// A frustum from six inward-facing planes, in [`FrustumPlane`] order.
    pub fn from_planes(planes: [Plane<T, 3>; 6]) -> Self {
        Frustum { planes }
    }

    /// Extracts the planes of a view-projection matrix `M` (column-vector convention, clip
    /// `z ∈ [-w, w]` as in OpenGL) with the Gribb–Hartmann row sums: left = row3 + row0,
    /// right = row3 − row0, bottom = row3 + row1, top = row3 − row1, near = row3 + row2,
    /// far = row3 − row2, each normalized. Errors: non-finite matrix, a degenerate plane.
    ///
    /// For a `[0, w]` depth range (Direct3D, Vulkan) the near plane is `row2` alone; use
    /// [`Frustum::from_view_projection_zero_to_one`].
    pub fn from_view_projection(m: &Matrix4<T>) -> GeomResult<Self> {
        Self::extract(m, false)
    }

    /// As [`Frustum::from_view_projection`] for clip depth `z ∈ [0, w]`: near = row2.
    pub fn from_view_projection_zero_to_one(m: &Matrix4<T>) -> GeomResult<Self> {
        Self::extract(m, true)
    }

    fn extract(m: &Matrix4<T>, zero_to_one: bool) -> GeomResult<Self> {
        if m.iter().any(|x| !x.is_finite()) {
            return Err(GeomError::NonFinite);
        }
        let row = |i: usize| -> [T; 4] { [m[(i, 0)], m[(i, 1)], m[(i, 2)], m[(i, 3)]] };
        let (r0, r1, r2, r3) = (row(0), row(1), row(2), row(3));
        let add = |a: [T; 4], b: [T; 4], s: T| -> [T; 4] { core::array::from_fn(|k| a[k] + b[k] * s) };
        let (one, neg) = (T::one(), -T::one());
        let near = if zero_to_one { r2 } else { add(r3, r2, one) };
        let coeffs =
            [add(r3, r0, one), add(r3, r0, neg), add(r3, r1, one), add(r3, r1, neg), near, add(r3, r2, neg)];
        let mut planes = [Plane::new(Vector3::z(), T::zero())?; 6];
        for (p, c) in planes.iter_mut().zip(coeffs) {
            *p = Plane::new(Vector3::new(c[0], c[1], c[2]), c[3]).map_err(|_| GeomError::Degenerate)?;
        }
        Ok(Frustum { planes })
    }

    /// The six inward-facing planes in [`FrustumPlane`] order.
    #[inline(always)]
    pub fn planes(&self) -> &[Plane<T, 3>; 6] {
        &self.planes
    }

    /// One plane by name.
    #[inline(always)]
    pub fn plane(&self, which: FrustumPlane) -> &Plane<T, 3> {
        &self.planes[which as usize]
    }
}
