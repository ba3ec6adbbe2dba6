//! Top-down binned SAH (Wald 2007), with surface area or volume as the cost.
//!
//! Per node: the centroids' box is cut into `bins` equal slices on every axis; one pass drops
//! each primitive's box into its slice on all axes at once; sweeps from both ends give, for every
//! cut between slices, the boxes and counts of the two sides; the cut with the smallest
//! `cost(left) · n_left + cost(right) · n_right` wins and the references are partitioned in
//! place. O(n · bins) per level.

use super::top_down;
use super::{half_area, BuildConfig, PrimRef, Topology};
use cd_geom::{Point, Real};

/// Nodes of at most this many references are split at the median instead of by binning.
const SMALL: usize = 6;

/// What a split minimises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cost {
    SurfaceArea,
    Volume,
}

/// Lanes of a box as the binning loop holds it: the low corner in lanes `0..D`, the negated
/// high corner in lanes `4..4 + D` (unused lanes ride along). Growing a box by another is then
/// one lane-wise minimum over a fixed-size array, which LLVM turns into two packed `min`
/// instructions for `f32` instead of six compare-and-select pairs. Needs `D ≤ 4`.
type Lanes<T> = [T; 8];

/// Offset of the negated high corner in [`Lanes`].
const HI: usize = 4;

/// The most dimensions [`Lanes`] hold.
pub(crate) const MAX_DIMENSION: usize = HI;

#[inline(always)]
fn lanes_of<T: Real, const D: usize>(lo: &Point<T, D>, hi: &Point<T, D>) -> Lanes<T> {
    let mut v = [T::zero(); 8];
    for i in 0..D {
        v[i] = lo[i];
        v[HI + i] = -hi[i];
    }
    v
}

/// Lane-wise minimum into `acc`, written as a select so it vectorises (no operand is NaN).
#[inline(always)]
fn grow<T: Real>(acc: &mut Lanes<T>, v: &Lanes<T>) {
    for i in 0..8 {
        acc[i] = if v[i] < acc[i] { v[i] } else { acc[i] };
    }
}

/// The empty box: every lane +∞.
#[inline(always)]
fn empty<T: Real>() -> Lanes<T> {
    [T::infinity(); 8]
}

/// A box's cost measure from its lanes.
#[inline(always)]
fn lanes_measure<T: Real, const D: usize>(v: &Lanes<T>, cost: Cost, pad: T) -> T {
    let lo = Point::<T, D>::from(core::array::from_fn(|i| v[i]));
    let hi = Point::<T, D>::from(core::array::from_fn(|i| -v[HI + i]));
    measure(&lo, &hi, cost, pad)
}

/// Per-node scratch: every axis's bins (boxes and counts) and the right-to-left sweep's costs.
struct Scratch<T: Real> {
    boxes: Vec<Lanes<T>>,
    counts: Vec<u32>,
    right_cost: Vec<T>,
}

impl<T: Real> Scratch<T> {
    fn new(bins: usize, dims: usize) -> Self {
        Scratch {
            boxes: vec![empty(); bins * dims],
            counts: vec![0; bins * dims],
            right_cost: vec![T::zero(); bins],
        }
    }
}

pub(crate) fn build<T: Real, const D: usize>(
    refs: Vec<PrimRef<T, D>>,
    config: &BuildConfig,
    cost: Cost,
) -> Topology {
    let bins = config.bins;
    #[cfg(feature = "rayon")]
    if config.parallel {
        return top_down::build_parallel(refs, config.leaf_size, &|| {
            let mut scratch = Scratch::new(bins, D);
            move |_: usize, r: &mut [PrimRef<T, D>]| split(r, bins, cost, &mut scratch)
        });
    }
    let mut scratch = Scratch::new(bins, D);
    top_down::build(refs, config.leaf_size, &mut |_, refs| split(refs, bins, cost, &mut scratch))
}

/// The cost measure of a box. Volume uses extents padded by `pad` (a small fraction of the
/// node's size), so flat boxes — coplanar triangles — still compare by their area rather than
/// all costing zero.
#[inline(always)]
fn measure<T: Real, const D: usize>(lo: &Point<T, D>, hi: &Point<T, D>, cost: Cost, pad: T) -> T {
    match cost {
        Cost::SurfaceArea => half_area(lo, hi),
        Cost::Volume => (0..D).fold(T::one(), |v, i| v * (hi[i] - lo[i] + pad)),
    }
}

/// How a node's doubled centroids (`lo + hi`, same order as the centres, one multiplication
/// fewer) map to bins: bin `k` of axis `a` holds `origin[a] + k / scale[a] ≤ lo + hi`.
struct Grid<T: Real, const D: usize> {
    origin: [T; D],
    /// Bins per unit of doubled centroid; 0 on an axis where every centroid is equal.
    scale: [T; D],
    bins: usize,
    /// The largest extent of the doubled centroids.
    widest: T,
}

impl<T: Real, const D: usize> Grid<T, D> {
    /// The grid of `bins` slices over the references' doubled centroids.
    fn over(refs: &[PrimRef<T, D>], bins: usize) -> Self {
        let mut bounds = empty::<T>();
        for r in refs {
            let mut c = [T::zero(); 8];
            for i in 0..D {
                let twice = r.lo[i] + r.hi[i];
                c[i] = twice;
                c[HI + i] = -twice;
            }
            grow(&mut bounds, &c);
        }
        let origin = core::array::from_fn(|i| bounds[i]);
        let mut widest = T::zero();
        let scale = core::array::from_fn(|i| {
            let extent = -bounds[HI + i] - bounds[i];
            if extent > widest {
                widest = extent;
            }
            if extent > T::zero() {
                T::lit(bins as f64) * (T::one() - T::lit(1e-6)) / extent
            } else {
                T::zero()
            }
        });
        Grid { origin, scale, bins, widest }
    }

    /// The bin of a reference on `axis`.
    #[inline(always)]
    fn bin(&self, r: &PrimRef<T, D>, axis: usize) -> usize {
        let k = ((r.lo[axis] + r.hi[axis] - self.origin[axis]) * self.scale[axis]).to_f64();
        // `as i32` saturates (and is a single conversion instruction plus a fix-up, unlike a
        // float-to-usize cast); rounding at the top edge lands in the last bin.
        (k as i32 as usize).min(self.bins - 1)
    }
}

/// Drops every reference's box into its bin on every axis (an axis without extent puts all of
/// them in bin 0, which the sweep skips: no branch in the loop).
fn fill_bins<T: Real, const D: usize>(refs: &[PrimRef<T, D>], grid: &Grid<T, D>, scratch: &mut Scratch<T>) {
    let nb = grid.bins;
    let (boxes, counts) = (&mut scratch.boxes[..D * nb], &mut scratch.counts[..D * nb]);
    boxes.fill(empty());
    counts.fill(0);
    for r in refs {
        let v = lanes_of(&r.lo, &r.hi);
        for axis in 0..D {
            let slot = axis * nb + grid.bin(r, axis);
            grow(&mut boxes[slot], &v);
            counts[slot] += 1;
        }
    }
}

/// The cheapest cut over the filled bins: `(axis, k)` puts bins `..k` of `axis` on the left.
/// `None` when no axis has a cut with primitives on both sides.
fn best_cut<T: Real, const D: usize>(
    grid: &Grid<T, D>,
    total: usize,
    cost: Cost,
    scratch: &mut Scratch<T>,
) -> Option<(usize, usize)> {
    let nb = grid.bins;
    // Pad of the volume cost, relative to the node's size (half: the grid is over doubled
    // centroids).
    let pad = grid.widest * T::lit(0.5e-3);
    let Scratch { boxes, counts, right_cost } = scratch;
    let mut best: Option<(T, usize, usize)> = None;
    for axis in 0..D {
        if grid.scale[axis] == T::zero() {
            continue;
        }
        let row = axis * nb..(axis + 1) * nb;
        let (row_boxes, row_counts) = (&boxes[row.clone()], &counts[row]);
        // Right-to-left sweep: cost of the right side of a cut before bin k.
        let (mut acc, mut n) = (empty::<T>(), 0u32);
        for k in (1..nb).rev() {
            grow(&mut acc, &row_boxes[k]);
            n += row_counts[k];
            right_cost[k] =
                if n == 0 { T::zero() } else { lanes_measure::<T, D>(&acc, cost, pad) * T::lit(n as f64) };
        }
        let (mut left, mut n) = (empty::<T>(), 0u32);
        for k in 1..nb {
            grow(&mut left, &row_boxes[k - 1]);
            n += row_counts[k - 1];
            if n == 0 || n as usize == total {
                continue;
            }
            let c = lanes_measure::<T, D>(&left, cost, pad) * T::lit(n as f64) + right_cost[k];
            if best.is_none_or(|(b, _, _)| c < b) {
                best = Some((c, axis, k));
            }
        }
    }
    best.map(|(_, axis, k)| (axis, k))
}

fn split<T: Real, const D: usize>(
    refs: &mut [PrimRef<T, D>],
    max_bins: usize,
    cost: Cost,
    scratch: &mut Scratch<T>,
) -> usize {
    if refs.len() <= SMALL {
        // A handful of primitives: the per-node cost of binning (clearing and sweeping the
        // bins) exceeds what a better cut could save; split at the median of the widest axis.
        return top_down::median_split(0, refs);
    }
    // A small node needs no more bins than it has primitives: the sweeps cost O(bins) per
    // node, which would otherwise dominate near the leaves.
    let grid = Grid::over(refs, max_bins.min(refs.len()).max(2));
    fill_bins(refs, &grid, scratch);
    match best_cut(&grid, refs.len(), cost, scratch) {
        Some((axis, cut)) => {
            // `bin(r) < cut` without the integer conversion: for the non-negative binned
            // coordinate x, ⌊x⌋ < cut exactly when x < cut (and the clamp to the last bin only
            // moves values that are ≥ cut anyway), so this is the same test on the same value.
            let (origin, scale, cut) = (grid.origin[axis], grid.scale[axis], T::lit(cut as f64));
            super::partition(refs, |r| (r.lo[axis] + r.hi[axis] - origin) * scale < cut)
        }
        // Every centroid in one bin on every axis (all equal): split by index.
        None => refs.len() / 2,
    }
}
