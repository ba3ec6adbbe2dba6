//! Point sets read as blocks of coordinates.
//!
//! A pass that keeps running minima and maxima per coordinate and reads one point at a time
//! works on three scalars per step, which the compiler leaves as scalar code. Read as the flat
//! sequence of coordinates (`x₀ y₀ z₀ x₁ …`), a block of [`BLOCK`] coordinates holds whole
//! points in 2D and 3D, lane `k` always holding coordinate `k % D`: the block is the points'
//! memory as it lies (the compiler turns the copy into plain vector loads), lane-wise work on
//! it is packed instructions, and the lanes fold back to coordinates once per pass.

use cd_geom::{Point, Real};

/// Coordinates per block: a whole number of points in 2D and in 3D (twelve and eight), and
/// two halves that are each whole points too. (Twelve, one `f32` register less per half,
/// compiled to scalar code mixed with partial vectors: twice the instructions.)
pub(crate) const BLOCK: usize = 24;

/// The blocks of [`BLOCK`] coordinates that `points` divide into, and the points left over
/// (fewer than one block's worth; all of them when `D` does not divide [`BLOCK`]).
pub(crate) fn coordinate_blocks<T: Real, const D: usize>(
    points: &[Point<T, D>],
) -> (impl Iterator<Item = [T; BLOCK]> + '_, &[Point<T, D>]) {
    let per_block = if D > 0 && BLOCK % D == 0 { BLOCK / D } else { 0 };
    let whole = points.len().checked_div(per_block).map_or(0, |blocks| blocks * per_block);
    let (head, rest) = points.split_at(whole);
    // Filled by a plain loop rather than `core::array::from_fn`: under the default release
    // profile (several codegen units, no LTO) `from_fn` stayed an out-of-line call per block
    // and the bunny's box took 4.5 µs instead of 0.7.
    let blocks = head.chunks_exact(per_block.max(1)).map(|group| {
        let mut block = [T::zero(); BLOCK];
        for (k, lane) in block.iter_mut().enumerate() {
            *lane = group[k / D][k % D];
        }
        block
    });
    (blocks, rest)
}

/// Per-coordinate minima and maxima of `points` (±∞ for no points), and whether every
/// coordinate is finite. The blocks are folded in halves (lanes `k` and `k + BLOCK / 2` hold
/// the same coordinate) into nine registers of running state for `f32`; full-block state
/// spilled. Finiteness is read from a running sum of the coordinates, which is not finite
/// exactly when some coordinate is NaN or infinite (finite coordinates, at most
/// [`Real::coord_limit`] each, cannot overflow it; larger ones fail the caller's range check
/// on the bounds): cheaper than a range test per lane.
#[inline(always)]
pub(crate) fn coordinate_bounds<T: Real, const D: usize>(points: &[Point<T, D>]) -> ([T; D], [T; D], bool) {
    const HALF: usize = BLOCK / 2;
    let (blocks, rest) = coordinate_blocks(points);
    let mut lo = [T::infinity(); HALF];
    let mut hi = [-T::infinity(); HALF];
    let mut sum = [T::zero(); HALF];
    for block in blocks {
        for k in 0..HALF {
            let (x, y) = (block[k], block[k + HALF]);
            let low = if y < x { y } else { x };
            let high = if y > x { y } else { x };
            lo[k] = if low < lo[k] { low } else { lo[k] };
            hi[k] = if high > hi[k] { high } else { hi[k] };
            sum[k] += x + y;
        }
    }
    let mut min = fold_lanes(&lo, [T::infinity(); D], |m, x| if x < m { x } else { m });
    let mut max = fold_lanes(&hi, [-T::infinity(); D], |m, x| if x > m { x } else { m });
    let mut total = sum.iter().fold(T::zero(), |s, &x| s + x);
    for p in rest {
        for i in 0..D {
            let x = p[i];
            min[i] = if x < min[i] { x } else { min[i] };
            max[i] = if x > max[i] { x } else { max[i] };
            total += x;
        }
    }
    (min, max, total.is_finite())
}

/// Are bounds from [`coordinate_bounds`] within the coordinate range?
#[inline]
pub(crate) fn within_limit<T: Real, const D: usize>(min: &[T; D], max: &[T; D]) -> bool {
    let limit = T::coord_limit();
    min.iter().chain(max).all(|&x| (x >= -limit) & (x <= limit))
}

/// Folds lanes into per-coordinate values: `pick(current, lane)` for every lane of coordinate
/// `i` (lane `k` holds coordinate `k % D`; nothing is folded when `D` does not divide the
/// lane count, as [`coordinate_blocks`] then makes no blocks).
#[inline(always)]
fn fold_lanes<T: Real, const D: usize, const L: usize>(
    lanes: &[T; L],
    mut acc: [T; D],
    pick: impl Fn(T, T) -> T,
) -> [T; D] {
    if D > 0 && L % D == 0 {
        for (k, &x) in lanes.iter().enumerate() {
            acc[k % D] = pick(acc[k % D], x);
        }
    }
    acc
}
