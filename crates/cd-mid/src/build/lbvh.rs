//! Linear BVH (Lauterbach et al. 2009; Karras 2012): Morton codes of the centroids, a radix
//! sort, and a split of every range where the highest differing bit of its codes flips.
//!
//! Codes interleave `63 / D` bits per axis (21 in 3D, 31 in 2D) of the centroid quantised in the
//! centroids' box. Ranges of identical codes are split at the middle.

use super::top_down;
use super::{max_point, min_point, PrimRef, Topology};
use cd_geom::{Point, Real};

/// Spreads the low `bits` bits of `x` so consecutive bits land `d` positions apart.
#[inline]
fn spread(x: u64, d: usize, bits: usize) -> u64 {
    let mut out = 0u64;
    for b in 0..bits {
        out |= ((x >> b) & 1) << (b * d);
    }
    out
}

/// Morton code of every centroid, quantised to `63 / D` bits per axis in the centroids' box.
pub(crate) fn morton_codes<T: Real, const D: usize>(
    centroids: impl Iterator<Item = Point<T, D>> + Clone,
) -> Vec<u64> {
    let bits = 63 / D;
    let mut lo = Point::from([T::infinity(); D]);
    let mut hi = Point::from([-T::infinity(); D]);
    for c in centroids.clone() {
        lo = min_point(&lo, &c);
        hi = max_point(&hi, &c);
    }
    let cells = ((1u64 << bits) - 1) as f64;
    let scale: [f64; D] = core::array::from_fn(|i| {
        let e = (hi[i] - lo[i]).to_f64();
        if e > 0.0 {
            cells / e
        } else {
            0.0
        }
    });
    // The per-bit spread is precomputed for 8-bit chunks of the quantised coordinate.
    let table: Vec<u64> = (0..256u64).map(|x| spread(x, D, 8)).collect();
    centroids
        .map(|c| {
            let mut code = 0u64;
            for i in 0..D {
                let q = (((c[i] - lo[i]).to_f64() * scale[i]) as u64).min((1u64 << bits) - 1);
                let mut spread_q = 0u64;
                for chunk in 0..bits.div_ceil(8) {
                    spread_q |= table[((q >> (8 * chunk)) & 0xff) as usize] << (8 * chunk * D);
                }
                code |= spread_q << i;
            }
            code
        })
        .collect()
}

/// Sorts `(code, payload)` pairs by code: LSD radix sort with 8-bit digits, skipping digits
/// every key shares. Stable, O(n) per pass.
pub(crate) fn radix_sort(keys: &mut Vec<(u64, u32)>) {
    let mut tmp = vec![(0u64, 0u32); keys.len()];
    for pass in 0..8 {
        let shift = pass * 8;
        let mut counts = [0usize; 256];
        for &(k, _) in keys.iter() {
            counts[((k >> shift) & 0xff) as usize] += 1;
        }
        if counts.contains(&keys.len()) {
            continue;
        }
        let mut offset = 0;
        for c in counts.iter_mut() {
            let n = *c;
            *c = offset;
            offset += n;
        }
        for &(k, v) in keys.iter() {
            let d = ((k >> shift) & 0xff) as usize;
            tmp[counts[d]] = (k, v);
            counts[d] += 1;
        }
        core::mem::swap(keys, &mut tmp);
    }
}

/// The references in Morton order, with their codes.
pub(crate) fn morton_order<T: Real, const D: usize>(
    refs: &[PrimRef<T, D>],
) -> (Vec<PrimRef<T, D>>, Vec<u64>) {
    let codes = morton_codes(refs.iter().map(|r| r.centroid()));
    let mut keyed: Vec<(u64, u32)> = codes.iter().enumerate().map(|(i, &c)| (c, i as u32)).collect();
    radix_sort(&mut keyed);
    let sorted = keyed.iter().map(|&(_, i)| refs[i as usize]).collect();
    (sorted, keyed.into_iter().map(|(c, _)| c).collect())
}

pub(crate) fn build<T: Real, const D: usize>(
    refs: Vec<PrimRef<T, D>>,
    leaf_size: usize,
    parallel: bool,
) -> Topology<T, D> {
    let (sorted, codes) = morton_order(&refs);
    #[cfg(feature = "rayon")]
    if parallel {
        let codes = &codes;
        return top_down::build_parallel(sorted, leaf_size, &|| {
            move |start: usize, range: &mut [PrimRef<T, D>]| split(codes, start, range.len())
        });
    }
    let _ = parallel;
    top_down::build(sorted, leaf_size, &mut |start, range| split(&codes, start, range.len()))
}

/// Where the codes of positions `start..start + len` flip their highest differing bit (sorted
/// codes: the ones with the bit set form a suffix); the middle when all are equal.
fn split(codes: &[u64], start: usize, len: usize) -> usize {
    let codes = &codes[start..start + len];
    let (first, last) = (codes[0], codes[codes.len() - 1]);
    if first == last {
        return len / 2;
    }
    let bit = 63 - (first ^ last).leading_zeros();
    codes.partition_point(|c| (c >> bit) & 1 == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radix_sort_sorts_stably() {
        let mut s = 88172645463325252u64;
        let mut keys: Vec<(u64, u32)> = (0..5000)
            .map(|i| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                ((s % 1000) << 20, i)
            })
            .collect();
        let mut expect = keys.clone();
        expect.sort_by_key(|k| k.0);
        radix_sort(&mut keys);
        assert_eq!(keys, expect);
    }

    #[test]
    fn morton_interleaves_axes() {
        let pts = [
            nalgebra::Point2::new(0.0f64, 0.0),
            nalgebra::Point2::new(1.0, 0.0),
            nalgebra::Point2::new(0.0, 1.0),
            nalgebra::Point2::new(1.0, 1.0),
        ];
        let c = morton_codes(pts.iter().copied());
        assert_eq!(c[0], 0);
        assert!(c[1] < c[2] && c[2] < c[3], "{c:?}");
        assert_eq!(spread(0b11, 3, 2), 0b1001);
    }
}
