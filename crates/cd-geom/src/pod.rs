//! `bytemuck::Pod` / `Zeroable` for the plain-data primitives in `f32` and `f64` (feature
//! `bytemuck`), so arrays of them can be uploaded to a GPU or memory-mapped without copying.
//!
//! `bytemuck`'s derive does not accept generic structs, so the impls are written per concrete
//! instance. They are sound because every listed type is `#[repr(C)]`, `Copy`, and made only of
//! `f32` or `f64` fields (nalgebra's points, vectors and matrices are `#[repr(C)]` arrays of the
//! scalar and are themselves `Pod` under nalgebra's `bytemuck` feature): there is no padding,
//! and every bit pattern is a valid value of each field. Values obtained by casting bytes skip
//! the constructors' validation; the tests below check the sizes that prove "no padding".
#![allow(unsafe_code)]

use crate::*;

macro_rules! pod {
    ($($ty:ty),* $(,)?) => {
        $(
            // SAFETY: see the module documentation — repr(C), scalar fields only, no padding.
            unsafe impl bytemuck::Zeroable for $ty {}
            // SAFETY: as above; all bit patterns of f32/f64 are valid.
            unsafe impl bytemuck::Pod for $ty {}
        )*
    };
}

macro_rules! pod_scalar {
    ($t:ty) => {
        pod!(
            Ray<$t, 2>, Ray<$t, 3>, Segment<$t, 2>, Segment<$t, 3>, Line<$t, 2>, Line<$t, 3>,
            Plane<$t, 2>, Plane<$t, 3>, Triangle<$t, 2>, Triangle<$t, 3>, Ball<$t, 2>, Ball<$t, 3>,
            Aabb<$t, 2>, Aabb<$t, 3>, Obb<$t, 2>, Obb<$t, 3>, Capsule<$t, 2>, Capsule<$t, 3>,
            Lozenge<$t>, Cylinder<$t>, Cone<$t>, Frustum<$t>,
            Dop6<$t>, Dop14<$t>, Dop18<$t>, Dop26<$t>, Dop4<$t>, Dop8<$t>,
        );
    };
}

pod_scalar!(f32);
pod_scalar!(f64);

#[cfg(test)]
mod tests {
    use super::*;
    use core::mem::size_of;

    #[test]
    fn sizes_prove_no_padding() {
        assert_eq!(size_of::<Ray<f32, 3>>(), 7 * 4);
        assert_eq!(size_of::<Obb<f64, 3>>(), 15 * 8);
        assert_eq!(size_of::<Frustum<f32>>(), 24 * 4);
        assert_eq!(size_of::<Dop26<f32>>(), 26 * 4);
        assert_eq!(size_of::<Capsule<f64, 2>>(), 5 * 8);
    }

    #[test]
    fn round_trips_through_bytes() {
        let b =
            Aabb::new(nalgebra::Point3::new(0.0f32, 1.0, 2.0), nalgebra::Point3::new(3.0, 4.0, 5.0)).unwrap();
        let bytes: &[u8] = bytemuck::bytes_of(&b);
        let back: Aabb<f32, 3> = *bytemuck::from_bytes(bytes);
        assert_eq!(back, b);
    }
}
