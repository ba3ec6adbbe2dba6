//! Error-free transformations of `f64` arithmetic (Dekker 1971): a product as its rounded value
//! plus the exact rounding error, and from that a difference of two products correct to about
//! an ulp even when the products cancel. Used as the slow path of predicates whose plain
//! evaluation fell inside its rounding error bound (the edge functions of
//! [`ray_triangle_watertight`](crate::ray_triangle_watertight)).
//!
//! No fused multiply-add is needed (it is a library call on the baseline x86-64 target): the
//! factors are split into halves of 26 bits (Veltkamp), whose products are exact.

/// `2²⁷ + 1`: multiplying by it and subtracting splits a double into two halves of at most 26
/// significant bits each.
const SPLITTER: f64 = 134_217_729.0;

/// `a = hi + lo` with `hi` and `lo` of at most 26 significant bits (Veltkamp's split). Exact
/// for `|a|` up to about `10³⁰⁰` (the multiplication by the splitter must not overflow).
#[inline(always)]
fn split(a: f64) -> (f64, f64) {
    let c = SPLITTER * a;
    let hi = c - (c - a);
    (hi, a - hi)
}

/// `a·b` as `(p, e)` with `p = fl(a·b)` and `p + e = a·b` exactly (Dekker's two-product), unless
/// the product underflows or a factor is beyond about `10³⁰⁰`.
#[inline]
pub fn two_product(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    let e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
    (p, e)
}

/// `p·q − r·s` within about two ulps of the exact value, however much the products cancel
/// (the plain expression can come out with no correct digit, or the wrong sign). For factors
/// that are `f32` values it is the exact difference rounded once.
#[inline]
pub fn difference_of_products(p: f64, q: f64, r: f64, s: f64) -> f64 {
    let (x, ex) = two_product(p, q);
    let (y, ey) = two_product(r, s);
    // When the products cancel they are within a factor 2 of each other and `x − y` is exact
    // (Sterbenz); the rounding errors then carry all the remaining digits.
    (x - y) + (ex - ey)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Integers below 2⁴⁰ have exact products in `i128`: the oracle for the difference.
    #[test]
    fn difference_of_products_matches_integer_arithmetic() {
        let mut bits = crate::test_support::xorshift(0x2545_f491_4f6c_dd1d);
        let mut next = move || (bits() >> 24) as i64; // 40 bits
        for i in 0..100_000 {
            let (p, q, r) = (next(), next(), next());
            // Every fourth case is a near-cancellation: s chosen so that r·s ≈ p·q.
            let s = if i % 4 == 0 && r != 0 { (p as i128 * q as i128 / r as i128) as i64 } else { next() };
            let exact = p as i128 * q as i128 - r as i128 * s as i128;
            let got = difference_of_products(p as f64, q as f64, r as f64, s as f64);
            let want = exact as f64;
            let ulp = f64::EPSILON * want.abs().max(f64::MIN_POSITIVE);
            assert!((got - want).abs() <= 2.0 * ulp, "{p}·{q} − {r}·{s}: {got} vs {exact}");
        }
    }

    #[test]
    fn two_product_error_is_exact() {
        // (2²⁷ + 1)² = 2⁵⁴ + 2²⁸ + 1: the trailing 1 is lost in the rounded product.
        let a = SPLITTER;
        let (p, e) = two_product(a, a);
        assert_eq!(p, 2f64.powi(54) + 2f64.powi(28));
        assert_eq!(e, 1.0);
    }
}
