//! LSD radix sort of `(float key, index)` pairs: the sort-and-sweep's per-frame sort, linear in
//! the number of boxes where a comparison sort is O(n log n).

use cd_geom::Real;

/// Below this many items a comparison sort is faster than the radix passes' histograms.
const RADIX_MIN: usize = 256;

/// The bits of `x` mapped so that unsigned order is the float order: negative numbers have all
/// bits flipped, the others the sign bit set (−0 sorts just before +0; NaN never occurs here).
#[inline(always)]
fn sortable(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 1 {
        !b
    } else {
        b | (1 << 63)
    }
}

/// The inverse of [`sortable`].
#[inline(always)]
fn unsortable(k: u64) -> f64 {
    f64::from_bits(if k >> 63 == 1 { k & !(1 << 63) } else { !k })
}

/// Sorts `items` by key, ascending; equal keys keep their order (stable). The keys are widened
/// to `f64` (exact for `f32` and `f64`) and sorted as 64-bit integers, eight bits per pass; a
/// pass whose digit is the same for every key (the low mantissa bits of widened `f32`s, the
/// exponent bits of keys in a narrow range) is skipped. `buffers` are reused between calls
/// (no allocation per frame once they have grown).
pub(crate) fn sort_by_key<T: Real>(items: &mut [(T, u32)], buffers: &mut [Vec<(u64, u32)>; 2]) {
    let n = items.len();
    if n < RADIX_MIN {
        items.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(core::cmp::Ordering::Equal));
        return;
    }
    let [keys, scratch] = buffers;
    keys.clear();
    keys.extend(items.iter().map(|&(x, i)| (sortable(x.to_f64()), i)));
    let mut counts = [[0usize; 256]; 8];
    for &(k, _) in keys.iter() {
        for (digit, count) in counts.iter_mut().enumerate() {
            count[((k >> (8 * digit)) & 0xff) as usize] += 1;
        }
    }
    scratch.clear();
    scratch.resize(n, (0, 0));
    for (digit, count) in counts.iter().enumerate() {
        if count.contains(&n) {
            continue; // every key has the same digit here
        }
        let mut start = [0usize; 256];
        let mut sum = 0;
        for (s, &c) in start.iter_mut().zip(count) {
            *s = sum;
            sum += c;
        }
        for &(k, i) in keys.iter() {
            let d = ((k >> (8 * digit)) & 0xff) as usize;
            scratch[start[d]] = (k, i);
            start[d] += 1;
        }
        core::mem::swap(keys, scratch);
    }
    for (item, &(k, i)) in items.iter_mut().zip(keys.iter()) {
        *item = (T::lit(unsortable(k)), i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys in both orders agree with a comparison sort, stably, over awkward values: signs,
    /// ±0, duplicates, subnormals, huge and tiny magnitudes, f32 and f64.
    #[test]
    fn matches_a_stable_comparison_sort() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let specials = [0.0, -0.0, 1e-300, -1e-300, 5e-324, 1e300, -1e300, 1.0, -1.0, 1e9, -1e9];
        for n in [0usize, 1, 5, 255, 256, 1000, 5000] {
            let raw: Vec<f64> = (0..n)
                .map(|i| match next() % 4 {
                    0 => specials[i % specials.len()],
                    1 => ((next() % 2001) as f64 - 1000.0) * 0.5, // duplicates
                    2 => f64::from_bits(next() >> 2) * if next() % 2 == 0 { 1.0 } else { -1.0 },
                    _ => (next() % 1_000_000) as f64 * 1e-3 - 500.0,
                })
                .map(|x| if x.is_finite() { x } else { 0.0 })
                .collect();
            let check = |items: Vec<(f64, u32)>, sorted: &[(f64, u32)]| {
                let mut want = items.clone();
                want.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
                let keys: Vec<f64> = sorted.iter().map(|x| x.0).collect();
                let want_keys: Vec<f64> = want.iter().map(|x| x.0).collect();
                assert_eq!(keys, want_keys);
                // Stable among equal keys (−0 and +0 aside, which the radix order separates).
                for w in sorted.windows(2) {
                    if w[0].0.to_bits() == w[1].0.to_bits() {
                        assert!(w[0].1 < w[1].1);
                    }
                }
            };
            let items: Vec<(f64, u32)> = raw.iter().enumerate().map(|(i, &x)| (x, i as u32)).collect();
            let mut sorted = items.clone();
            sort_by_key(&mut sorted, &mut Default::default());
            check(items, &sorted);
            let items32: Vec<(f32, u32)> =
                raw.iter().enumerate().map(|(i, &x)| ((x as f32).clamp(-1e9, 1e9), i as u32)).collect();
            let mut sorted32 = items32.clone();
            sort_by_key(&mut sorted32, &mut Default::default());
            let widen = |v: &[(f32, u32)]| v.iter().map(|&(x, i)| (x as f64, i)).collect::<Vec<_>>();
            check(widen(&items32), &widen(&sorted32));
        }
    }

    #[test]
    fn sortable_is_monotone_and_invertible() {
        let xs = [-f64::MAX, -1e10, -1.0, -5e-324, -0.0, 0.0, 5e-324, 1.0, 1e10, f64::MAX];
        for w in xs.windows(2) {
            assert!(sortable(w[0]) < sortable(w[1]), "{} {}", w[0], w[1]);
        }
        for x in xs {
            assert_eq!(unsortable(sortable(x)).to_bits(), x.to_bits());
        }
    }
}
