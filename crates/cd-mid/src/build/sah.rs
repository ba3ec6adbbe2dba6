//! Top-down binned SAH (Wald 2007), with surface area or volume as the cost.
//!
//! Per node: the centroids' box is cut into `bins` equal slices on every axis; one pass drops
//! each primitive's box into its slice on all axes at once; sweeps from both ends give, for every
//! cut between slices, the boxes and counts of the two sides; the cut with the smallest
//! `cost(left) · n_left + cost(right) · n_right` wins and the references are partitioned in
//! place. O(n · bins) per level.

use super::top_down;
use super::{half_area, max_point, min_point, BuildConfig, PrimRef, Topology};
use cd_geom::{Point, Real};

/// Nodes of at most this many references are split at the median instead of by binning.
const SMALL: usize = 6;

/// What a split minimises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cost {
    SurfaceArea,
    Volume,
}

#[derive(Clone, Copy)]
struct Bin<T: Real, const D: usize> {
    lo: Point<T, D>,
    hi: Point<T, D>,
    count: u32,
}

impl<T: Real, const D: usize> Bin<T, D> {
    fn empty() -> Self {
        Bin { lo: Point::from([T::infinity(); D]), hi: Point::from([-T::infinity(); D]), count: 0 }
    }
    #[inline(always)]
    fn add(&mut self, lo: &Point<T, D>, hi: &Point<T, D>, count: u32) {
        self.lo = min_point(&self.lo, lo);
        self.hi = max_point(&self.hi, hi);
        self.count += count;
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
            let mut scratch: Vec<Bin<T, D>> = vec![Bin::empty(); bins * D];
            let mut right_cost = vec![T::zero(); bins];
            move |_: usize, r: &mut [PrimRef<T, D>]| split(r, bins, cost, &mut scratch, &mut right_cost)
        });
    }
    let mut scratch: Vec<Bin<T, D>> = vec![Bin::empty(); bins * D];
    let mut right_cost = vec![T::zero(); bins];
    top_down::build(refs, config.leaf_size, &mut |_, refs| {
        split(refs, bins, cost, &mut scratch, &mut right_cost)
    })
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

fn split<T: Real, const D: usize>(
    refs: &mut [PrimRef<T, D>],
    max_bins: usize,
    cost: Cost,
    bins: &mut [Bin<T, D>],
    right_cost: &mut [T],
) -> usize {
    if refs.len() <= SMALL {
        // A handful of primitives: the per-node cost of binning (clearing and sweeping the
        // bins) exceeds what a better cut could save; split at the median of the widest axis.
        return top_down::median_split(0, refs);
    }
    let mut clo = refs[0].centroid();
    let mut chi = clo;
    for r in refs.iter() {
        let c = r.centroid();
        clo = min_point(&clo, &c);
        chi = max_point(&chi, &c);
    }
    // A small node needs no more bins than it has primitives: the sweeps below cost O(bins)
    // per node, which would otherwise dominate near the leaves.
    let nb = max_bins.min(refs.len()).max(2);
    let extent = chi - clo;
    let pad = extent.amax() * T::lit(1e-3);
    let scale =
        extent.map(
            |e| if e > T::zero() { T::lit(nb as f64) * (T::one() - T::lit(1e-6)) / e } else { T::zero() },
        );
    for axis in 0..D {
        if scale[axis] > T::zero() {
            for b in &mut bins[axis * nb..(axis + 1) * nb] {
                *b = Bin::empty();
            }
        }
    }
    let bin_of = |c: T, axis: usize| -> usize {
        let k = ((c - clo[axis]) * scale[axis]).to_f64();
        // `as i32` saturates (and is a single conversion instruction plus a fix-up, unlike a
        // float-to-usize cast); rounding at the top edge lands in the last bin.
        (k as i32 as usize).min(nb - 1)
    };
    for r in refs.iter() {
        let c = r.centroid();
        for axis in 0..D {
            if scale[axis] > T::zero() {
                bins[axis * nb + bin_of(c[axis], axis)].add(&r.lo, &r.hi, 1);
            }
        }
    }
    let mut best: Option<(T, usize, usize)> = None;
    for axis in 0..D {
        if scale[axis] == T::zero() {
            continue;
        }
        let row = &bins[axis * nb..(axis + 1) * nb];
        // Right-to-left sweep: cost of the right side of a cut before bin k.
        let mut acc = Bin::empty();
        for k in (1..nb).rev() {
            acc.add(&row[k].lo, &row[k].hi, row[k].count);
            right_cost[k] = if acc.count == 0 {
                T::zero()
            } else {
                measure(&acc.lo, &acc.hi, cost, pad) * T::lit(acc.count as f64)
            };
        }
        let mut left = Bin::empty();
        for k in 1..nb {
            left.add(&row[k - 1].lo, &row[k - 1].hi, row[k - 1].count);
            if left.count == 0 || left.count as usize == refs.len() {
                continue;
            }
            let c = measure(&left.lo, &left.hi, cost, pad) * T::lit(left.count as f64) + right_cost[k];
            if best.is_none_or(|(b, _, _)| c < b) {
                best = Some((c, axis, k));
            }
        }
    }
    let Some((_, axis, cut)) = best else {
        // Every centroid in one bin on every axis (all equal): split by index.
        return refs.len() / 2;
    };
    // Bins below the cut to the left.
    super::partition(refs, |r| bin_of(r.centroid()[axis], axis) < cut)
}
