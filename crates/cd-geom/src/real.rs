//! The scalar type every query is generic over.
//!
//! [`Real`] is simba's `RealField` (the trait nalgebra's own generic code uses) plus `Copy` and a
//! few constants this crate needs. It is implemented for `f32` and `f64`; both are tested.

use nalgebra::RealField;

/// A real scalar: `f32` or `f64`.
///
/// Besides simba's `RealField` it provides the literal conversion and limits the queries need.
/// Valid coordinates are finite and no larger in magnitude than [`Real::coord_limit`]; below that
/// bound every product a query forms (up to fourth powers of coordinates) stays finite, so no
/// query can overflow to infinity and then to NaN.
pub trait Real: RealField + Copy + Default + core::fmt::Debug + Send + Sync + 'static {
    /// Converts an `f64` literal (rounding to nearest for `f32`).
    fn lit(x: f64) -> Self;
    /// Positive infinity.
    fn infinity() -> Self;
    /// Machine epsilon (distance from 1.0 to the next representable value).
    fn epsilon() -> Self;
    /// The largest coordinate magnitude constructors accept (`1e9` for `f32`, `1e75` for `f64`).
    fn coord_limit() -> Self;
    /// Widens to `f64` (exact for both implementations).
    fn to_f64(self) -> f64;
    /// Truncates toward zero into `0..=255`, saturating below and above (NaN gives 0): Rust's
    /// `as u8`, one conversion in place of widening to `f64` and clamping.
    fn to_u8_saturating(self) -> u8;
    /// Bit `l` set where `a[l] > b[l]` (clear when either is NaN): one packed comparison and a
    /// move-mask (SSE's `cmpps` and `movmskps` on x86-64), which the compiler does not make of
    /// four scalar comparisons on its own.
    fn gt_mask4(a: [Self; 4], b: [Self; 4]) -> u32;
}

impl Real for f32 {
    #[inline(always)]
    fn lit(x: f64) -> Self {
        x as f32
    }
    #[inline(always)]
    fn infinity() -> Self {
        f32::INFINITY
    }
    #[inline(always)]
    fn epsilon() -> Self {
        f32::EPSILON
    }
    #[inline(always)]
    fn coord_limit() -> Self {
        1e9
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self as f64
    }
    #[inline(always)]
    fn to_u8_saturating(self) -> u8 {
        self as u8
    }
    #[inline(always)]
    fn gt_mask4(a: [Self; 4], b: [Self; 4]) -> u32 {
        wide::f32x4::from(a).simd_gt(wide::f32x4::from(b)).to_bitmask()
    }
}

impl Real for f64 {
    #[inline(always)]
    fn lit(x: f64) -> Self {
        x
    }
    #[inline(always)]
    fn infinity() -> Self {
        f64::INFINITY
    }
    #[inline(always)]
    fn epsilon() -> Self {
        f64::EPSILON
    }
    #[inline(always)]
    fn coord_limit() -> Self {
        1e75
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self
    }
    #[inline(always)]
    fn to_u8_saturating(self) -> u8 {
        self as u8
    }
    #[inline(always)]
    fn gt_mask4(a: [Self; 4], b: [Self; 4]) -> u32 {
        wide::f64x4::from(a).simd_gt(wide::f64x4::from(b)).to_bitmask()
    }
}

/// Shorthand for a dimension-generic point.
pub type Point<T, const D: usize> = nalgebra::Point<T, D>;
/// Shorthand for a dimension-generic column vector.
pub type Vector<T, const D: usize> = nalgebra::SVector<T, D>;
/// Shorthand for a dimension-generic square matrix.
pub type Matrix<T, const D: usize> = nalgebra::SMatrix<T, D, D>;

/// Is every component exactly zero?
#[inline(always)]
pub(crate) fn is_zero<T: Real, const D: usize>(v: &Vector<T, D>) -> bool {
    v.iter().all(|x| *x == T::zero())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_and_limits() {
        assert_eq!(f32::lit(0.5), 0.5f32);
        assert_eq!(<f64 as Real>::infinity(), f64::INFINITY);
        assert!(<f32 as Real>::coord_limit().powi(4).is_finite());
        assert!(<f64 as Real>::coord_limit().powi(4).is_finite());
        assert!(is_zero(&Vector::<f32, 3>::zeros()));
        assert!(!is_zero(&Vector::<f32, 2>::new(0.0, -1e-30)));
    }

    /// The packed comparison's mask equals four scalar `>` comparisons, lane by lane, for
    /// values below, equal to and above the other side, signed zeros, infinities and NaN.
    #[test]
    fn gt_mask4_equals_scalar_comparisons() {
        fn check<T: Real>() {
            let nan = T::zero() / T::zero();
            let values = [
                -T::infinity(),
                T::lit(-1.0),
                -T::zero(),
                T::zero(),
                T::lit(0.5),
                T::lit(1.0),
                T::infinity(),
                nan,
            ];
            for threshold in values {
                for a in values {
                    for b in values {
                        for c in values {
                            let four = [a, b, c, threshold];
                            let other = [threshold, c, b, a];
                            let expected = (0..4).fold(0, |m, l| m | u32::from(four[l] > other[l]) << l);
                            assert_eq!(T::gt_mask4(four, other), expected, "{four:?} > {other:?}");
                        }
                    }
                }
            }
        }
        check::<f32>();
        check::<f64>();
    }
}
