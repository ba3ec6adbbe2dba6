//! Top-down binned SAH (Wald 2007), with surface area or volume as the cost.
//!
//! Per node: the centroids' box is cut into `bins` equal slices on every axis; one pass drops
//! each primitive's box into its slice on all axes at once; sweeps from both ends give, for every
//! cut between slices, the boxes and counts of the two sides; the cut with the smallest
//! `cost(left) · n_left + cost(right) · n_right` wins and the references are partitioned in
//! place. O(n · bins) per level.
//!
//! Two refinements keep the cost of binning off the ends of the tree. A node of more than
//! [`SAMPLED_ABOVE`] references bins only a jittered sample of [`SAMPLE`] of them (each
//! standing for its window of the range) plus the extreme references on every axis (found once
//! at the root and handed down, [`HandedDown`]), and partitions all of them by the cut so
//! chosen; a node near the leaves bins into a quarter as many slices as it has references
//! (plus two). On the 235k-triangle bunny the bare build does 23 % fewer
//! instructions and the tree's SAH cost is within 0.4 % of binning everything in 16 slices
//! (the unit tests bound it at 3 % on uniform, clustered and outlier-ridden input).
//!
//! The sampled nodes split the references as the builders share them ([`PrimRef`]); a node of
//! at most [`SAMPLED_ABOVE`] builds its whole subtree on a copy in packed lanes ([`LaneRef`]),
//! where the binning loop is a few packed instructions per axis, the partition has no branch on
//! where a reference goes and the small nodes' median split none on the order, and where the
//! best cut is kept by selects: on the 235k bunny 543 → 477 M instructions and 2.35 → 1.19 M
//! mispredicted branches for the bare build, the same tree (SAH cost 37.82). Handing the
//! extremes down instead of scanning every sampled node for them: 477 → 412 M, SAH cost 37.73.

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

/// A reference as the binned builders hold it: its box as [`Lanes`] (zeros in the lanes past
/// `D`) and its primitive's index. The lanes are laid out once per subtree (see
/// [`build_with`]), so the loops over references load each half of a box as one packed value;
/// built from a [`PrimRef`]'s two `D`-point corners at every use instead, the binning loop
/// spent more than half its instructions on shuffles that put the corners into lanes, one set
/// per axis.
#[derive(Clone, Copy, Debug)]
struct LaneRef<T> {
    lanes: Lanes<T>,
    index: u32,
}

impl<T: Real> LaneRef<T> {
    fn of<const D: usize>(r: &PrimRef<T, D>) -> Self {
        let mut lanes = [T::zero(); 8];
        for i in 0..D {
            lanes[i] = r.lo[i];
            lanes[HI + i] = -r.hi[i];
        }
        LaneRef { lanes, index: r.index }
    }

    /// The [`PrimRef`] back (negation is exact, so the box is the same).
    fn to_prim_ref<const D: usize>(self) -> PrimRef<T, D> {
        PrimRef {
            lo: Point::from(core::array::from_fn(|i| self.lanes[i])),
            hi: Point::from(core::array::from_fn(|i| -self.lanes[HI + i])),
            index: self.index,
        }
    }
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

/// The most bins per axis ([`BuildConfig`] accepts 2 to 256).
const MAX_BINS: usize = 256;

/// Bin slots of the scratch: row `axis` is `axis · MAX_BINS ..`, of which a node uses its
/// first `bins`. A fixed size, and an index masked to the row, let the compiler drop the
/// bounds checks of the binning loop (three per reference).
const SLOTS: usize = MAX_DIMENSION * MAX_BINS;

/// The slot of bin `k` of `axis` (`k` below [`MAX_BINS`]: the mask keeps it, and the index,
/// provably in range).
#[inline(always)]
fn slot(axis: usize, k: usize) -> usize {
    axis * MAX_BINS + (k & (MAX_BINS - 1))
}

/// Per-node scratch: every axis's bins (boxes and counts), the right-to-left sweep's costs, a
/// large node's sample of references, and the lanes of the subtree being built.
struct Scratch<T: Real, const D: usize> {
    boxes: Box<[Lanes<T>; SLOTS]>,
    counts: Box<[u32; SLOTS]>,
    right_cost: Vec<T>,
    sample: Vec<LaneRef<T>>,
    lanes: Vec<LaneRef<T>>,
}

impl<T: Real, const D: usize> Scratch<T, D> {
    fn new(bins: usize) -> Self {
        Scratch {
            boxes: Box::new([empty(); SLOTS]),
            counts: Box::new([0; SLOTS]),
            right_cost: vec![T::zero(); bins],
            sample: Vec::with_capacity(SAMPLE + 2 * MAX_DIMENSION),
            lanes: Vec::new(),
        }
    }
}

pub(crate) fn build<T: Real, const D: usize>(
    refs: Vec<PrimRef<T, D>>,
    config: &BuildConfig,
    cost: Cost,
) -> Topology<T, D> {
    #[cfg(feature = "rayon")]
    let parallel = config.parallel;
    #[cfg(not(feature = "rayon"))]
    let parallel = false;
    build_with(refs, config.leaf_size, config.bins, cost, SAMPLED_ABOVE, parallel)
}

/// [`build`] with its parameters spelled out (the tests vary `sampled_above`).
///
/// The large nodes (more than `sampled_above` references) are split on the references as they
/// come, by a sampled cut; a node of at most that many is copied into [`LaneRef`]s, its whole
/// subtree built there and its references copied back in the subtree's order. The lanes are
/// one node's worth of scratch, reused: a lane copy of every reference made up front was
/// fresh memory in every build, and its page faults (on the 235k bunny, 9,400 a build against
/// 700) cost more than the lanes saved.
fn build_with<T: Real, const D: usize>(
    mut refs: Vec<PrimRef<T, D>>,
    leaf_size: usize,
    bins: usize,
    cost: Cost,
    sampled_above: usize,
    parallel: bool,
) -> Topology<T, D> {
    let params = Params { leaf_size, bins, cost, sampled_above };
    let handed = HandedDown::default();
    let nodes = if parallel {
        #[cfg(feature = "rayon")]
        {
            top_down::build_parallel_nodes_with(&mut refs, leaf_size, &|| {
                let mut scratch = Scratch::<T, D>::new(bins);
                let handed = &handed;
                move |start: usize, range: &mut [PrimRef<T, D>]| {
                    split_node(start, range, &params, &mut scratch, handed)
                }
            })
        }
        #[cfg(not(feature = "rayon"))]
        unreachable!("the parallel build needs the `rayon` feature")
    } else {
        let mut scratch = Scratch::<T, D>::new(bins);
        top_down::build_nodes_with(&mut refs, 0, leaf_size, &mut |start, range| {
            split_node(start, range, &params, &mut scratch, &handed)
        })
    };
    Topology { nodes, order: refs.iter().map(|r| r.index).collect(), ordered: refs }
}

/// A build's settings, as the splitters need them.
#[derive(Clone, Copy)]
struct Params {
    leaf_size: usize,
    bins: usize,
    cost: Cost,
    sampled_above: usize,
}

/// One node of the driver: a sampled cut for a large node, else its whole subtree in lanes.
fn split_node<T: Real, const D: usize>(
    start: usize,
    refs: &mut [PrimRef<T, D>],
    params: &Params,
    scratch: &mut Scratch<T, D>,
    handed: &HandedDown<T, D>,
) -> top_down::Split {
    if refs.len() > params.sampled_above {
        return top_down::Split::At(sampled_split(start, refs, params, scratch, handed));
    }
    let mut lanes = core::mem::take(&mut scratch.lanes);
    lanes.clear();
    lanes.extend(refs.iter().map(LaneRef::of));
    let nodes = top_down::build_nodes_with(&mut lanes, start, params.leaf_size, &mut |_, range| {
        top_down::Split::At(split::<T, D>(range, params, scratch))
    });
    for (r, lane) in refs.iter_mut().zip(&lanes) {
        *r = lane.to_prim_ref();
    }
    scratch.lanes = lanes;
    top_down::Split::Subtree(nodes)
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
///
/// Both are held in four lanes, the ones past `D` at 0 like the references' own: the binning
/// loop then computes every lane from runtime values alike (with lanes it knew to be zero, the
/// compiler special-cased them with shuffles in every step).
struct Grid<T: Real, const D: usize> {
    origin: [T; HI],
    /// Bins per unit of doubled centroid; 0 on an axis where every centroid is equal.
    scale: [T; HI],
    bins: usize,
    /// The largest extent of the doubled centroids.
    widest: T,
}

impl<T: Real, const D: usize> Grid<T, D> {
    /// The grid of `bins` slices over the references' doubled centroids.
    fn over(refs: &[LaneRef<T>], bins: usize) -> Self {
        let (lo, hi) = centroid_bounds(refs);
        // Lanes past `D` hold centroids of 0: origin 0, extent 0, scale 0.
        let origin = lo;
        let mut widest = T::zero();
        let scale = core::array::from_fn(|i| {
            let extent = hi[i] - lo[i];
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
}

/// A reference's doubled centroid `lo + hi` (the centre's order, one multiplication fewer) in
/// four fixed lanes, zero past `D`: the lane-wise loops over references keep it in one packed
/// register.
#[inline(always)]
fn doubled_centroid<T: Real>(r: &LaneRef<T>) -> [T; HI] {
    core::array::from_fn(|i| r.lanes[i] - r.lanes[HI + i])
}

/// The box of the references' doubled centroids, lane-wise over four fixed lanes: the bounds
/// stay in two packed registers (a negated copy in the high lanes of one array compiled to
/// shuffles).
#[inline(always)]
fn centroid_bounds<T: Real>(refs: &[LaneRef<T>]) -> ([T; HI], [T; HI]) {
    let (mut lo, mut hi) = ([T::infinity(); HI], [-T::infinity(); HI]);
    for r in refs {
        let c = doubled_centroid(r);
        for l in 0..HI {
            lo[l] = if c[l] < lo[l] { c[l] } else { lo[l] };
            hi[l] = if c[l] > hi[l] { c[l] } else { hi[l] };
        }
    }
    (lo, hi)
}

/// Drops every reference's box into its bin on every axis (an axis without extent puts all of
/// them in bin 0, which the sweep skips: no branch in the loop).
/// Each reference counts `weight` times (a sampled one stands for that many).
#[inline(always)]
fn fill_bins<T: Real, const D: usize>(
    refs: &[LaneRef<T>],
    weight: u32,
    grid: &Grid<T, D>,
    boxes: &mut [Lanes<T>; SLOTS],
    counts: &mut [u32; SLOTS],
) {
    let nb = grid.bins;
    debug_assert!(nb <= MAX_BINS && D <= MAX_DIMENSION);
    // The binned coordinates of all axes at once, from the box's lanes (`lo − (−hi)` is the
    // doubled centroid), clamped and truncated together: one packed conversion per reference
    // instead of a saturating scalar one per axis (which went through `f64`).
    let (origin, scale) = (grid.origin, grid.scale);
    let top = T::lit((nb - 1) as f64);
    for r in refs {
        let v = &r.lanes;
        let key: [T; HI] = core::array::from_fn(|i| (v[i] - v[HI + i] - origin[i]) * scale[i]);
        let bin = T::truncate_clamped4(key, top);
        for (axis, &k) in bin.iter().enumerate().take(D) {
            let slot = slot(axis, k as usize);
            grow(&mut boxes[slot], v);
            counts[slot] += weight;
        }
    }
}

/// Empties the bins of `grid`.
fn clear_bins<T: Real, const D: usize>(
    grid: &Grid<T, D>,
    boxes: &mut [Lanes<T>; SLOTS],
    counts: &mut [u32; SLOTS],
) {
    for axis in 0..D {
        let row = slot(axis, 0)..slot(axis, 0) + grid.bins;
        boxes[row.clone()].fill(empty());
        counts[row].fill(0);
    }
}

/// The references with the smallest and the largest centroid on each axis (first of ties).
/// A sample would usually miss a lone reference far from the others, and its cut would then
/// leave it in a crowd's node, stretching every box down to where it is finally split off.
///
/// Written lane-wise over four fixed lanes (the axes) with selects, so the compiler keeps the
/// running extremes and their positions in packed registers: a compare and two selects per
/// side and reference instead of two branches per axis. The lanes past `D` repeat the last
/// axis and their positions are returned too (by [`extreme_lanes`], out of line): told that
/// only `D` lanes matter, the compiler split the lanes into a packed pair and a scalar, with
/// shuffles between them in every step.
fn extremes<T: Real, const D: usize>(refs: &[PrimRef<T, D>]) -> Vec<PrimRef<T, D>> {
    let (lo_at, hi_at) = extreme_lanes(refs);
    (0..D).flat_map(|axis| [refs[lo_at[axis] as usize], refs[hi_at[axis] as usize]]).collect()
}

/// The positions of [`extremes`] in all four lanes. Out of line: it runs once per sampled
/// node, and inlined into the split it made the rest of the split compile worse.
#[inline(never)]
fn extreme_lanes<T: Real, const D: usize>(refs: &[PrimRef<T, D>]) -> ([u32; HI], [u32; HI]) {
    let (mut lo, mut hi) = ([T::infinity(); HI], [-T::infinity(); HI]);
    let (mut lo_at, mut hi_at) = ([0u32; HI], [0u32; HI]);
    for (i, r) in refs.iter().enumerate() {
        let c: [T; HI] = core::array::from_fn(|l| r.lo[l.min(D - 1)] + r.hi[l.min(D - 1)]);
        let i = i as u32;
        for l in 0..HI {
            let (below, above) = (c[l] < lo[l], c[l] > hi[l]);
            lo[l] = if below { c[l] } else { lo[l] };
            lo_at[l] = if below { i } else { lo_at[l] };
            hi[l] = if above { c[l] } else { hi[l] };
            hi_at[l] = if above { i } else { hi_at[l] };
        }
    }
    (lo_at, hi_at)
}

/// The extreme references each sampled node hands down to its large children, keyed by the
/// child's range (`start`, `len`).
///
/// A node's extreme references on each axis (see [`extremes`]) that fall in a child are that
/// child's extremes on the same axis and side too; on the split axis each child keeps one
/// side's (the other is near the cut, where the sample is dense). So only the root scans all
/// its references for them, and a sampled child starts from what its parent found: on the
/// 235k-triangle bunny the scans were about 60 M instructions of a 477 M build. The sides a
/// child loses to its sibling are not looked for again: a lone reference the sample misses
/// there is still binned exactly once its node is small enough to be built in lanes.
///
/// Shared by the serial and the parallel driver (a lock taken once per sampled node, a few
/// hundred per build), so both build the same tree: what a child receives depends only on its
/// ancestors' cuts.
struct HandedDown<T: Real, const D: usize> {
    entries: std::sync::Mutex<Vec<Handed<T, D>>>,
}

/// One node's handed-down extremes: the node's first reference, its length, the extremes.
type Handed<T, const D: usize> = (usize, usize, Vec<PrimRef<T, D>>);

impl<T: Real, const D: usize> Default for HandedDown<T, D> {
    fn default() -> Self {
        HandedDown { entries: std::sync::Mutex::new(Vec::new()) }
    }
}

impl<T: Real, const D: usize> HandedDown<T, D> {
    /// Leaves `extremes` for the node of references `start..start + len`.
    fn hand_down(&self, start: usize, len: usize, extremes: Vec<PrimRef<T, D>>) {
        self.entries.lock().unwrap_or_else(|e| e.into_inner()).push((start, len, extremes));
    }

    /// The extremes left for the node of references `start..start + len`, if its parent left
    /// any (`None` for the root, and for a node whose parent split without a sampled cut).
    fn take(&self, start: usize, len: usize) -> Option<Vec<PrimRef<T, D>>> {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let at = entries.iter().position(|&(s, l, _)| s == start && l == len)?;
        Some(entries.swap_remove(at).2)
    }
}

/// A well-mixed 64-bit hash (SplitMix64's finaliser): the sample's jitter.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The cheapest cut over the filled bins: `(axis, k)` puts bins `..k` of `axis` on the left.
/// `None` when no axis has a cut with primitives on both sides.
#[inline(always)]
fn best_cut<T: Real, const D: usize>(
    grid: &Grid<T, D>,
    total: usize,
    cost: Cost,
    boxes: &[Lanes<T>],
    counts: &[u32],
    right_cost: &mut [T],
) -> Option<(usize, usize)> {
    // Pad of the volume cost, relative to the node's size (half: the grid is over doubled
    // centroids).
    let pad = grid.widest * T::lit(0.5e-3);
    // One sweep per cost measure, so the measure's choice is not re-made at every bin.
    match cost {
        Cost::SurfaceArea => cheapest_cut(grid, total, boxes, counts, right_cost, |v| {
            lanes_measure::<T, D>(v, Cost::SurfaceArea, pad)
        }),
        Cost::Volume => cheapest_cut(grid, total, boxes, counts, right_cost, |v| {
            lanes_measure::<T, D>(v, Cost::Volume, pad)
        }),
    }
}

/// [`best_cut`] with the cost `measure` of a box's lanes. The sweeps walk the bins as zipped
/// slices of the row's exact length (no index, so no bounds check per bin).
#[inline(always)]
fn cheapest_cut<T: Real, const D: usize>(
    grid: &Grid<T, D>,
    total: usize,
    boxes: &[Lanes<T>],
    counts: &[u32],
    right_cost: &mut [T],
    measure: impl Fn(&Lanes<T>) -> T,
) -> Option<(usize, usize)> {
    let nb = grid.bins;
    let right_cost = &mut right_cost[..nb];
    // The cheapest cut so far as its cost and `(axis, k)`, `k == 0` while there is none, kept
    // by selects rather than a branch: whether a cut beats the best so far is as good as
    // random (the branch was missed on a fifth of the cuts). The cost is compared as the bits
    // of its `f64` value, which order like the value for the non-negative costs a box measure
    // gives, so the selects are on integers (on floats, the compiler branched).
    let (mut best_key, mut best_axis, mut best_k) = (0u64, 0usize, 0usize);
    for axis in 0..D {
        if grid.scale[axis] == T::zero() {
            continue;
        }
        let row = slot(axis, 0)..slot(axis, 0) + nb;
        let (row_boxes, row_counts) = (&boxes[row.clone()], &counts[row]);
        // Right-to-left sweep: cost of the right side of a cut before bin k.
        let (mut acc, mut n) = (empty::<T>(), 0u32);
        for ((b, &c), rc) in row_boxes.iter().zip(row_counts).zip(right_cost.iter_mut()).skip(1).rev() {
            grow(&mut acc, b);
            n += c;
            *rc = if n == 0 { T::zero() } else { measure(&acc) * T::lit(n as f64) };
        }
        let (mut left, mut n) = (empty::<T>(), 0u32);
        for (k, ((b, &c), &rc)) in row_boxes.iter().zip(row_counts).zip(&right_cost[1..]).enumerate() {
            // Bin k goes left of the cut before bin k + 1, which needs references on both
            // sides (the cost of an empty side is not a number, and not used).
            grow(&mut left, b);
            n += c;
            let key = (measure(&left) * T::lit(n as f64) + rc).to_f64().to_bits();
            let two_sided = (n != 0) & (n as usize != total);
            let better = two_sided & ((best_k == 0) | (key < best_key));
            best_key = if better { key } else { best_key };
            best_axis = if better { axis } else { best_axis };
            best_k = if better { k + 1 } else { best_k };
        }
    }
    (best_k != 0).then_some((best_axis, best_k))
}

/// Nodes of more references than this choose their cut from a jittered sample of [`SAMPLE`]
/// of them (plus their extremes) instead of all of them.
const SAMPLED_ABOVE: usize = 4 * SAMPLE;

/// How many references a large node's cut is chosen from. Near the root the binned costs of a
/// thousand references estimate the cut's cost within a few per cent (each side's box is the
/// union of many boxes, and the counts only need the right ratio), and binning them instead of
/// every reference removes most of the build's work in the top levels, where a node holds tens
/// of thousands: what is left there is the partition of every reference by the chosen plane.
const SAMPLE: usize = 512;

/// Partitions a large node's references by the cheapest binned cut of a sample of them and
/// returns the size of the left part.
///
/// The sample is one reference from each of [`SAMPLE`] equal windows of the range, at a hashed
/// offset within it (a fixed stride aliases with periodic input, such as a mesh whose
/// triangles cycle through a few clusters), each standing for the whole window; plus the
/// extreme references on every axis, each standing for itself, so the grid spans the
/// centroids (all of them at the root; below it, all but the sides the parent's cuts took
/// away, see [`HandedDown`]). Deterministic, so the parallel build cuts alike.
fn sampled_split<T: Real, const D: usize>(
    start: usize,
    refs: &mut [PrimRef<T, D>],
    params: &Params,
    scratch: &mut Scratch<T, D>,
    handed: &HandedDown<T, D>,
) -> usize {
    let Scratch { boxes, counts, right_cost, sample, .. } = scratch;
    let extremes = handed.take(start, refs.len()).unwrap_or_else(|| extremes(refs));
    let window = refs.len() / SAMPLE;
    sample.clear();
    let seed = refs.len() as u64;
    sample.extend(
        (0..SAMPLE).map(|k| LaneRef::of(&refs[k * window + (mix(seed ^ k as u64) % window as u64) as usize])),
    );
    let loners = sample.len();
    sample.extend(extremes.iter().map(LaneRef::of));
    let grid = Grid::<T, D>::over(sample, params.bins);
    clear_bins(&grid, boxes, counts);
    fill_bins(&sample[..loners], window as u32, &grid, boxes, counts);
    fill_bins(&sample[loners..], 1, &grid, boxes, counts);
    let total = loners * window + (sample.len() - loners);
    match best_cut(&grid, total, params.cost, &boxes[..], &counts[..], right_cost) {
        // The test of `cut_at` on the same doubled centroid (`lo + hi` is `lo − (−hi)`
        // exactly). A sampled cut has sampled references on both sides, so the partition of
        // all of them does too. Hoare's scheme: these ranges stream through memory, and it
        // moves only the misplaced references.
        Some((axis, cut)) => {
            let (origin, scale, cut) = (grid.origin[axis], grid.scale[axis], T::lit(cut as f64));
            let goes_left = |r: &PrimRef<T, D>| (r.lo[axis] + r.hi[axis] - origin) * scale < cut;
            let mid = super::partition(refs, goes_left);
            let (left, right): (Vec<_>, Vec<_>) = extremes.into_iter().partition(goes_left);
            for (from, len, extremes) in [(start, mid, left), (start + mid, refs.len() - mid, right)] {
                if len > params.sampled_above {
                    handed.hand_down(from, len, extremes);
                }
            }
            mid
        }
        None => refs.len() / 2,
    }
}

/// Partitions a node's references (in lanes) by the cheapest binned cut and returns the size
/// of the left part.
fn split<T: Real, const D: usize>(
    refs: &mut [LaneRef<T>],
    params: &Params,
    scratch: &mut Scratch<T, D>,
) -> usize {
    if refs.len() <= SMALL {
        // A handful of primitives: the per-node cost of binning (clearing and sweeping the
        // bins) exceeds what a better cut could save; split at the median of the widest axis.
        return median_split::<T, D>(refs);
    }
    let Scratch { boxes, counts, right_cost, .. } = scratch;
    // A small node needs fewer bins than it has primitives: the sweeps cost O(bins) per node,
    // which would otherwise dominate near the leaves (a quarter as many bins as references
    // there, plus two: SAH cost within 0.1 % on the bunnies, the same rays' box and triangle
    // test counts, 14 % less binning work than one bin per reference).
    let grid = Grid::<T, D>::over(refs, params.bins.min(refs.len() / 4 + 2).max(2));
    clear_bins(&grid, boxes, counts);
    fill_bins(refs, 1, &grid, boxes, counts);
    cut_at(refs, &grid, best_cut(&grid, refs.len(), params.cost, &boxes[..], &counts[..], right_cost))
}

/// Partitions `refs` by the chosen cut and returns the size of the left part.
fn cut_at<T: Real, const D: usize>(
    refs: &mut [LaneRef<T>],
    grid: &Grid<T, D>,
    cut: Option<(usize, usize)>,
) -> usize {
    match cut {
        Some((axis, cut)) => {
            // `bin(r) < cut` without the integer conversion: for the non-negative binned
            // coordinate x, ⌊x⌋ < cut exactly when x < cut (and the clamp to the last bin only
            // moves values that are ≥ cut anyway), so this is the same test on the same value.
            let (origin, scale, cut) = (grid.origin[axis], grid.scale[axis], T::lit(cut as f64));
            let goes_left = |r: &LaneRef<T>| (r.lanes[axis] - r.lanes[HI + axis] - origin) * scale < cut;
            // Without a branch on the test: where a reference goes is as good as random, and
            // Hoare's scans were missed on a sixth of the references (a third of the build's
            // mispredictions). These nodes fit in cache, so the extra stores cost little.
            super::partition_branchless(refs, goes_left)
        }
        // Every centroid in one bin on every axis (all equal): split by index.
        None => refs.len() / 2,
    }
}

/// Median split of a handful of references (at most [`SMALL`]), as [`top_down::median_split`]
/// does it: the axis along which the centroids spread most (the first of equals), the
/// references ordered by their doubled centroid on it (ties by position) and cut in the
/// middle. The order comes from each reference's rank, counted over a fixed six-by-six grid of
/// comparisons (absent references +∞) with no branch on the data: these nodes are three
/// quarters of a tree with leaves of one reference, and the standard library's selection
/// mispredicted one or two branches in each (an eighth of the 235k bunny's build's
/// mispredictions). Two references split one and one in either order.
fn median_split<T: Real, const D: usize>(refs: &mut [LaneRef<T>]) -> usize {
    let n = refs.len();
    debug_assert!((2..=SMALL).contains(&n));
    if n == 2 {
        return 1;
    }
    let (lo, hi) = centroid_bounds(refs);
    let mut axis = 0;
    for a in 1..D {
        if hi[a] - lo[a] > hi[axis] - lo[axis] {
            axis = a;
        }
    }
    let mut keys = [T::infinity(); SMALL];
    for (key, r) in keys.iter_mut().zip(refs.iter()) {
        *key = r.lanes[axis] - r.lanes[HI + axis];
    }
    let mut ordered = [refs[0]; SMALL];
    for (i, r) in refs.iter().enumerate() {
        let mut rank = 0usize;
        for (j, &other) in keys.iter().enumerate() {
            rank += ((other < keys[i]) | ((other == keys[i]) & (j < i))) as usize;
        }
        ordered[rank] = *r;
    }
    refs.copy_from_slice(&ordered[..n]);
    n / 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use cd_geom::Point;

    /// The SAH cost of a topology over `refs` (indexed by `PrimRef::index`): every node's box
    /// area relative to the root's, leaves weighted by their primitive count.
    fn sah_cost(topology: &Topology<f64, 3>, refs: &[PrimRef<f64, 3>]) -> f64 {
        let area = |node: &super::super::TopoNode| {
            let range = node.start as usize..(node.start + node.count) as usize;
            let mut it = topology.order[range].iter().map(|&i| &refs[i as usize]);
            let first = it.next().expect("non-empty node");
            let (lo, hi) = it.fold((first.lo, first.hi), |(lo, hi), r| {
                (super::super::min_point(&lo, &r.lo), super::super::max_point(&hi, &r.hi))
            });
            half_area(&lo, &hi)
        };
        let root = area(&topology.nodes[0]);
        topology
            .nodes
            .iter()
            .map(|n| area(n) / root * if n.first_child == 0 { n.count as f64 } else { 1.0 })
            .sum()
    }

    /// Small boxes around `centres`, one reference each.
    fn refs_around(centres: &[[f64; 3]]) -> Vec<PrimRef<f64, 3>> {
        centres
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let c = Point::from(*c);
                PrimRef {
                    lo: c - nalgebra::Vector3::repeat(0.01),
                    hi: c + nalgebra::Vector3::repeat(0.01),
                    index: i as u32,
                }
            })
            .collect()
    }

    /// Builds with the sampled cuts and with every node binned in full; both trees hold every
    /// reference once, and the sampled one's SAH cost is within 3 % of the full one's.
    fn sampled_against_full(refs: Vec<PrimRef<f64, 3>>) -> (f64, f64) {
        let mut costs = [0.0; 2];
        for (k, sampled_above) in [SAMPLED_ABOVE, usize::MAX].into_iter().enumerate() {
            let topology = build_with(refs.clone(), 1, 16, Cost::SurfaceArea, sampled_above, false);
            let mut order = topology.order.clone();
            order.sort_unstable();
            assert_eq!(order, (0..refs.len() as u32).collect::<Vec<_>>());
            costs[k] = sah_cost(&topology, &refs);
        }
        assert!(costs[0] <= costs[1] * 1.03, "sampled {} against full {}", costs[0], costs[1]);
        (costs[0], costs[1])
    }

    /// Numbers in `[0, 1)` from the sample's own hash of a counter.
    fn unit_stream(seed: u64) -> impl FnMut() -> f64 {
        let mut k = 0u64;
        move || {
            k += 1;
            (mix(seed ^ k) >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// Uniform points and clustered points: sampling the large nodes costs at most a few per
    /// cent of SAH cost.
    #[test]
    fn sampled_cuts_cost_about_what_full_binning_does() {
        let mut rnd = unit_stream(0x2545_f491_4f6c_dd1d);
        let uniform: Vec<[f64; 3]> = (0..20_000).map(|_| [rnd() * 10.0, rnd() * 10.0, rnd()]).collect();
        sampled_against_full(refs_around(&uniform));
        // Eight tight clusters of different sizes, spread over a large box.
        let clustered: Vec<[f64; 3]> = (0..20_000)
            .map(|i| {
                let c = (i % 8) as f64 * 7.0 + (i % 3) as f64;
                [c + rnd() * 0.5, (i % 5) as f64 * 3.0 + rnd() * 0.5, rnd() * 0.5]
            })
            .collect();
        sampled_against_full(refs_around(&clustered));
    }

    /// The small nodes' rank-based median split against a sort: two to six references with
    /// many ties (keys from a few values), in 2D and 3D. The left part is the smaller half by
    /// key on the axis of widest centroid spread, every reference is kept once, and the lanes
    /// give back the boxes exactly.
    #[test]
    fn small_median_split_orders_like_a_sort() {
        fn check<const D: usize>(rnd: &mut impl FnMut() -> f64) {
            for n in 2..=SMALL {
                let refs: Vec<PrimRef<f64, D>> = (0..n as u32)
                    .map(|index| {
                        let lo = Point::from(core::array::from_fn(|_| (rnd() * 4.0).floor()));
                        let hi = lo + nalgebra::SVector::<f64, D>::from_fn(|_, _| (rnd() * 2.0).floor());
                        PrimRef { lo, hi, index }
                    })
                    .collect();
                let mut lanes: Vec<LaneRef<f64>> = refs.iter().map(LaneRef::of).collect();
                let mid = median_split::<f64, D>(&mut lanes);
                assert_eq!(mid, n / 2);
                let mut seen: Vec<u32> = lanes.iter().map(|r| r.index).collect();
                seen.sort_unstable();
                assert_eq!(seen, (0..n as u32).collect::<Vec<_>>());
                for r in &lanes {
                    let back: PrimRef<f64, D> = r.to_prim_ref();
                    let original = &refs[r.index as usize];
                    assert_eq!((back.lo, back.hi), (original.lo, original.hi));
                }
                if n == 2 {
                    continue;
                }
                // The widest axis (first of equals) and the sorted keys on it.
                let spread = |a: usize| {
                    let keys = refs.iter().map(|r| r.lo[a] + r.hi[a]);
                    keys.clone().fold(f64::MIN, f64::max) - keys.fold(f64::MAX, f64::min)
                };
                let axis = (1..D).fold(0, |best, a| if spread(a) > spread(best) { a } else { best });
                let key = |r: &LaneRef<f64>| r.lanes[axis] - r.lanes[HI + axis];
                let mut sorted: Vec<f64> = lanes.iter().map(key).collect();
                let got = sorted.clone();
                sorted.sort_by(f64::total_cmp);
                assert_eq!(got, sorted, "n = {n}, axis {axis}");
            }
        }
        let mut rnd = unit_stream(0x51ed_270b_27b2_9d3f);
        for _ in 0..500 {
            check::<3>(&mut rnd);
            check::<2>(&mut rnd);
        }
    }

    /// Degenerate large nodes through the sampled path: every centroid equal (no axis has a
    /// cut: split by index), every centroid on one line with many duplicates, and references a
    /// billion units apart. Each builds a full tree of single-reference leaves over every
    /// reference exactly once.
    #[test]
    fn sampled_cuts_on_degenerate_input_build_complete_trees() {
        let same: Vec<[f64; 3]> = vec![[1.0, 2.0, 3.0]; 10_000];
        let line: Vec<[f64; 3]> = (0..10_000).map(|i| [(i % 37) as f64, 0.0, 0.0]).collect();
        let spread: Vec<[f64; 3]> =
            (0..10_000).map(|i| [if i % 2 == 0 { -1e9 } else { 1e9 }, (i % 3) as f64, 0.0]).collect();
        for centres in [same, line, spread] {
            let refs = refs_around(&centres);
            let topology = build_with(refs.clone(), 1, 16, Cost::SurfaceArea, SAMPLED_ABOVE, false);
            assert_eq!(topology.nodes.len(), 2 * refs.len() - 1);
            assert!(topology.nodes.iter().all(|n| n.first_child != 0 || n.count == 1));
            let mut order = topology.order.clone();
            order.sort_unstable();
            assert_eq!(order, (0..refs.len() as u32).collect::<Vec<_>>());
        }
    }

    /// A handful of references far from ten thousand others is usually missed by the sample:
    /// the sampled cut still puts the far ones on the side of the plane they lie on, and the
    /// tree separates them from the crowd near the root all the same.
    #[test]
    fn references_the_sample_misses_still_split_well() {
        let mut rnd = unit_stream(0x9e37_79b9_7f4a_7c15);
        let mut centres: Vec<[f64; 3]> = (0..10_000).map(|_| [rnd(), rnd(), rnd()]).collect();
        for k in 0..3 {
            centres.insert(1 + 3_333 * k, [1_000.0 + k as f64, -500.0, 250.0]);
        }
        let (sampled, full) = sampled_against_full(refs_around(&centres));
        assert!(sampled.is_finite() && full.is_finite());
    }
}
