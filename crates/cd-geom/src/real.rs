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
    /// Converts an integer, exactly when `|i| ≤ 2²⁴` (the wide trees' 8-bit quantization steps
    /// and bin indices): one `cvtsi2ss` for `f32` (packed `cvtdq2ps` over lanes), where
    /// [`lit`](Real::lit) would convert to `f64` first and then narrow.
    fn lit_i32(i: i32) -> Self;
    /// Bit `l` set where `a[l] > b[l]` (clear when either is NaN): one packed comparison and a
    /// move-mask (SSE's `cmpps` and `movmskps` on x86-64), which the compiler does not make of
    /// four scalar comparisons on its own.
    fn gt_mask4(a: [Self; 4], b: [Self; 4]) -> u32;
    /// Each lane clamped to `[0, top]` and truncated toward zero (NaN gives 0), for `top` below
    /// 2³¹: four bin indices from one packed clamp and conversion (SSE's `maxps`, `minps` and
    /// `cvttps2dq` for `f32`) instead of a saturating scalar conversion per lane.
    fn truncate_clamped4(a: [Self; 4], top: Self) -> [i32; 4];
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
    fn lit_i32(i: i32) -> Self {
        i as f32
    }
    #[inline(always)]
    fn gt_mask4(a: [Self; 4], b: [Self; 4]) -> u32 {
        wide::f32x4::from(a).simd_gt(wide::f32x4::from(b)).to_bitmask()
    }
    #[inline(always)]
    fn truncate_clamped4(a: [Self; 4], top: Self) -> [i32; 4] {
        use wide::f32x4;
        // `fast_max(a, 0)` is SSE's `maxps`, which answers its second operand (0) for a NaN
        // lane; after it every lane is a number in [0, top], where the plain conversion is exact.
        f32x4::from(a).fast_max(f32x4::ZERO).fast_min(f32x4::splat(top)).fast_trunc_int().to_array()
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
    fn lit_i32(i: i32) -> Self {
        f64::from(i)
    }
    #[inline(always)]
    fn gt_mask4(a: [Self; 4], b: [Self; 4]) -> u32 {
        wide::f64x4::from(a).simd_gt(wide::f64x4::from(b)).to_bitmask()
    }
    #[inline(always)]
    fn truncate_clamped4(a: [Self; 4], top: Self) -> [i32; 4] {
        a.map(|x| {
            let x = if x > 0.0 { x } else { 0.0 }; // NaN fails the comparison: 0
            (if x < top { x } else { top }) as i32
        })
    }
}

/// Bit `l` set where `a[l] > b[l]` (clear when either is NaN), for up to 32 lanes of equal
/// length: four lanes per packed compare ([`Real::gt_mask4`]), the lanes past a multiple of
/// four one by one. Lane tests over fixed-size arrays (a wide node's children, a support
/// scan's lanes) take their masks from it, so each lane's outcome is a bit, not a branch.
#[inline(always)]
pub fn gt_mask<T: Real>(a: &[T], b: &[T]) -> u32 {
    debug_assert!(a.len() == b.len() && a.len() <= 32, "lane masks hold up to 32 lanes");
    let (whole_a, whole_b) = (a.chunks_exact(4), b.chunks_exact(4));
    let (rest_a, rest_b) = (whole_a.remainder(), whole_b.remainder());
    let mut mask = 0;
    for (g, (x, y)) in whole_a.zip(whole_b).enumerate() {
        mask |= T::gt_mask4([x[0], x[1], x[2], x[3]], [y[0], y[1], y[2], y[3]]) << (4 * g);
    }
    let first = a.len() - rest_a.len();
    for (l, (x, y)) in rest_a.iter().zip(rest_b).enumerate() {
        mask |= u32::from(x > y) << (first + l);
    }
    mask
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
        assert_eq!(f32::lit_i32(-255), -255.0f32);
        assert_eq!(f32::lit_i32(1 << 24), 16_777_216.0f32);
        assert_eq!(f64::lit_i32(i32::MIN), -2_147_483_648.0f64);
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

    /// The mask over any lane count up to 32 (whole groups of four and the lanes past them)
    /// equals the lane-by-lane comparisons.
    #[test]
    fn gt_mask_over_any_lane_count() {
        let nan = f32::NAN;
        let pool = [-1.0f32, 0.0, 2.5, 2.5, nan, f32::INFINITY, 7.0, -3.0, 1.0];
        for len in 0..=32 {
            let a: Vec<f32> = (0..len).map(|i| pool[(i * 5 + 1) % pool.len()]).collect();
            let b: Vec<f32> = (0..len).map(|i| pool[(i * 7 + 3) % pool.len()]).collect();
            let expected = (0..len).fold(0, |m, l| m | u32::from(a[l] > b[l]) << l);
            assert_eq!(gt_mask(&a, &b), expected, "{len} lanes");
            let wide: Vec<f64> = a.iter().map(|&x| x as f64).collect();
            let other: Vec<f64> = b.iter().map(|&x| x as f64).collect();
            assert_eq!(gt_mask(&wide, &other), expected, "{len} lanes in f64");
        }
    }
    /// The packed clamp and truncation equals the scalar rule lane by lane: NaN and negatives
    /// give 0, values above `top` give `top`, the rest truncate toward zero.
    #[test]
    fn truncate_clamped4_equals_the_scalar_rule() {
        fn check<T: Real>() {
            let nan = T::zero() / T::zero();
            let top = T::lit(15.0);
            let values = [
                -T::infinity(),
                T::lit(-3.5),
                T::lit(-0.5),
                -T::zero(),
                T::lit(0.25),
                T::lit(1.0),
                T::lit(14.999),
                T::lit(15.0),
                T::lit(15.5),
                T::lit(3e9),
                T::infinity(),
                nan,
            ];
            let scalar = |x: T| {
                if x.partial_cmp(&T::zero()) != Some(core::cmp::Ordering::Greater) {
                    0
                } else if x >= top {
                    15
                } else {
                    x.to_f64() as i32
                }
            };
            for a in values {
                for b in values {
                    let four = [a, b, values[(values.len() - 1) / 2], nan];
                    let expected = four.map(scalar);
                    assert_eq!(T::truncate_clamped4(four, top), expected, "{four:?}");
                }
            }
        }
        check::<f32>();
        check::<f64>();
    }
}
