//! Hierarchy builders. Each produces a [`Topology`] — the tree's shape and the primitive order
//! — from the primitives' boxes and centroids; [`Bvh`](crate::Bvh) then fits the volumes of
//! whatever type it holds. So every builder works with every volume type.
//!
//! | builder | module | idea |
//! |---|---|---|
//! | [`Builder::Median`] | `top_down` | split the longest centroid axis at the median |
//! | [`Builder::BinnedSah`] | `sah` | binned surface-area heuristic over all axes |
//! | [`Builder::BinnedVolume`] | `sah` | the same with volume as the cost |
//! | [`Builder::Lbvh`] | `lbvh` | Morton codes, radix sort, split at the highest differing bit |
//! | [`Builder::Ploc`] | `ploc` | bottom-up locally-ordered clustering over Morton order |
//! | [`Builder::Incremental`] | `incremental` | insert in random order where the cost grows least |
//! | [`Builder::ObbMean`] | `obb_split` | Gottschalk's OBB-tree rule: PCA box, longest axis, mean centroid |
//! | [`Builder::KdopTree`] | `kdop_split` | Klosowski's k-DOP tree rules: coordinate axis by min-sum, min-max, splatter or longest side, mean centre |

mod incremental;
mod kdop_split;
mod lbvh;
mod obb_split;
mod ploc;
mod sah;
mod top_down;
mod tree;

pub use kdop_split::SplitRule;

use crate::error::{MidError, MidResult};
use crate::primitives::Primitives;
use cd_geom::{Point, Real};

/// Which algorithm shapes the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builder {
    /// Top-down, split the longest axis of the centroids' box at the median centroid. Fast,
    /// balanced, ignores the primitives' sizes.
    Median,
    /// Top-down binned surface-area heuristic (Wald 2007): per node, centroids binned on every
    /// axis, the split minimising `A_l n_l + A_r n_r` chosen. Up to 4 dimensions.
    BinnedSah,
    /// As [`Builder::BinnedSah`] with volume instead of surface area as the cost (the seed's
    /// remark that volume can suit overlap queries better).
    BinnedVolume,
    /// Linear BVH (Lauterbach et al. 2009): primitives sorted by the Morton code of their
    /// centroid (radix sort), each node split where the codes' highest differing bit flips.
    Lbvh,
    /// Parallel locally-ordered clustering (Meister and Bittner 2018), run serially: clusters in
    /// Morton order merge with their nearest neighbour (smallest merged surface area) within a
    /// search radius when the choice is mutual, until one remains.
    Ploc,
    /// Incremental insertion in a fixed pseudo-random order, each primitive descending to the
    /// sibling whose merged cost grows least (Goldsmith and Salmon 1987; branch and bound).
    Incremental,
    /// The OBB-tree rule (Gottschalk, Lin and Manocha 1996): per node a PCA OBB of the
    /// primitives' points, split across its longest axis at the mean centroid, falling back to
    /// the other axes. Pair it with `Obb` volumes for an OBB tree.
    ObbMean,
    /// The k-DOP tree of Klosowski et al. (1998): cut across a coordinate axis at the mean
    /// centre, the axis picked by the [`SplitRule`]. Pair it with `Dop18` volumes and leaves of
    /// several primitives for their k-DOP tree.
    KdopTree(SplitRule),
}

impl Builder {
    /// Every builder, for tests and benchmarks.
    pub const ALL: [Builder; 11] = [
        Builder::Median,
        Builder::BinnedSah,
        Builder::BinnedVolume,
        Builder::Lbvh,
        Builder::Ploc,
        Builder::Incremental,
        Builder::ObbMean,
        Builder::KdopTree(SplitRule::MinSum),
        Builder::KdopTree(SplitRule::MinMax),
        Builder::KdopTree(SplitRule::Splatter),
        Builder::KdopTree(SplitRule::LongestSide),
    ];

    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Builder::Median => "median",
            Builder::BinnedSah => "sah",
            Builder::BinnedVolume => "sah-volume",
            Builder::Lbvh => "lbvh",
            Builder::Ploc => "ploc",
            Builder::Incremental => "incremental",
            Builder::ObbMean => "obb-mean",
            Builder::KdopTree(SplitRule::MinSum) => "kdop-min-sum",
            Builder::KdopTree(SplitRule::MinMax) => "kdop-min-max",
            Builder::KdopTree(SplitRule::Splatter) => "kdop-splatter",
            Builder::KdopTree(SplitRule::LongestSide) => "kdop-longest-side",
        }
    }
}

/// How to build a hierarchy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BuildConfig {
    /// The algorithm.
    pub builder: Builder,
    /// Largest number of primitives in a leaf (≥ 1). Nodes with more are split (a node whose
    /// primitives all share one centroid is split by index, so this always holds).
    pub leaf_size: usize,
    /// Bins per axis of the binned builders (2..=256; 16–32 is the usual range).
    pub bins: usize,
    /// PLOC's search radius in clusters (≥ 1).
    pub ploc_radius: usize,
    /// Seed of the incremental builder's insertion order.
    pub seed: u64,
    /// Build the two halves of large nodes on separate threads (median, SAH and LBVH builders;
    /// needs the crate feature `rayon`, ignored without it). The tree is the same as the serial
    /// build's.
    pub parallel: bool,
}

impl Default for BuildConfig {
    /// Binned SAH, 16 bins, leaves of up to 2 primitives, serial.
    fn default() -> Self {
        BuildConfig {
            builder: Builder::BinnedSah,
            leaf_size: 2,
            bins: 16,
            ploc_radius: 16,
            seed: 0x9e37_79b9_7f4a_7c15,
            parallel: false,
        }
    }
}

impl BuildConfig {
    /// The default configuration with another builder.
    pub fn with_builder(builder: Builder) -> Self {
        BuildConfig { builder, ..BuildConfig::default() }
    }

    /// The same configuration built in parallel (see [`BuildConfig::parallel`]).
    pub fn parallel(self, parallel: bool) -> Self {
        BuildConfig { parallel, ..self }
    }

    /// The same configuration with another leaf size.
    pub fn leaf_size(self, leaf_size: usize) -> Self {
        BuildConfig { leaf_size, ..self }
    }

    fn validate<const D: usize>(&self) -> MidResult<()> {
        if self.leaf_size == 0 {
            return Err(MidError::BadConfig("leaf_size must be at least 1"));
        }
        if !(2..=256).contains(&self.bins) {
            return Err(MidError::BadConfig("bins must be in 2..=256"));
        }
        if self.ploc_radius == 0 {
            return Err(MidError::BadConfig("ploc_radius must be at least 1"));
        }
        if D > sah::MAX_DIMENSION && matches!(self.builder, Builder::BinnedSah | Builder::BinnedVolume) {
            return Err(MidError::BadConfig("the binned builders support at most 4 dimensions"));
        }
        Ok(())
    }
}

/// A primitive as the builders see it: its box and its index. Kept this small (28 bytes for
/// `f32` in 3D) because the top levels of a build stream every reference through memory
/// several times; the centroid is the box centre, recomputed when needed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PrimRef<T: Real, const D: usize> {
    pub lo: Point<T, D>,
    pub hi: Point<T, D>,
    pub index: u32,
}

impl<T: Real, const D: usize> PrimRef<T, D> {
    /// The centre of the primitive's box.
    #[inline(always)]
    pub fn centroid(&self) -> Point<T, D> {
        Point::from((self.lo.coords + self.hi.coords) * T::lit(0.5))
    }
}

/// One node of a built tree before volumes are fitted. Interior nodes have two children at
/// `first_child` and `first_child + 1`; every node covers `order[start..start + count]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TopoNode {
    /// Index of the first child; 0 marks a leaf (the root is node 0, so no child is).
    pub first_child: u32,
    pub start: u32,
    pub count: u32,
}

/// A tree's shape: nodes in an order where a parent precedes its children, and the primitive
/// order the nodes' ranges index.
#[derive(Clone, Debug, Default)]
pub(crate) struct Topology<T: Real, const D: usize> {
    pub nodes: Vec<TopoNode>,
    pub order: Vec<u32>,
    /// The primitives' references in `order`'s order, boxes included, where the builder kept
    /// them (the top-down builders partition them in place); empty otherwise. Box volumes are
    /// fitted from them without reading the primitives again.
    pub ordered: Vec<PrimRef<T, D>>,
}

/// The primitives' boxes, validated.
pub(crate) fn prim_refs<T: Real, const D: usize, P: Primitives<T, D> + ?Sized>(
    prims: &P,
) -> MidResult<Vec<PrimRef<T, D>>> {
    let n = prims.count();
    if n == 0 {
        return Err(MidError::Empty);
    }
    if n > u32::MAX as usize / 2 {
        return Err(MidError::TooManyPrimitives);
    }
    // Sized up front: collecting the `Result`s directly gave the vector no size hint, so it
    // grew by doubling and copied itself over (several megabytes on a large mesh).
    let mut refs = Vec::with_capacity(n);
    for i in 0..n {
        let b = prims.aabb(i)?;
        refs.push(PrimRef { lo: *b.min(), hi: *b.max(), index: i as u32 });
    }
    Ok(refs)
}

/// Builds the topology with the configured algorithm.
pub(crate) fn build_topology<T: Real, const D: usize, P: Primitives<T, D> + ?Sized>(
    prims: &P,
    refs: Vec<PrimRef<T, D>>,
    config: &BuildConfig,
) -> MidResult<Topology<T, D>> {
    config.validate::<D>()?;
    Ok(match config.builder {
        #[cfg(feature = "rayon")]
        Builder::Median if config.parallel => {
            top_down::build_parallel(refs, config.leaf_size, &|| top_down::median_split)
        }
        Builder::Median => top_down::build(refs, config.leaf_size, &mut top_down::median_split),
        Builder::BinnedSah => sah::build(refs, config, sah::Cost::SurfaceArea),
        Builder::BinnedVolume => sah::build(refs, config, sah::Cost::Volume),
        Builder::Lbvh => lbvh::build(refs, config.leaf_size, config.parallel),
        Builder::Ploc => ploc::build(&refs, config).flatten(config.leaf_size),
        Builder::Incremental => incremental::build(&refs, config).flatten(config.leaf_size),
        Builder::KdopTree(rule) => {
            top_down::build(refs, config.leaf_size, &mut |_, range| kdop_split::split(rule, range))
        }
        Builder::ObbMean => {
            let mut scratch = Vec::new();
            top_down::build(refs, config.leaf_size, &mut |_, range| {
                obb_split::split(prims, range, &mut scratch)
            })
        }
    })
}

/// Moves the references satisfying `left` to the front (Hoare's scheme: scan from both ends,
/// swap a misplaced pair; in place, not stable; `left` is evaluated once per reference and only
/// misplaced references move) and returns how many there are.
#[inline]
pub(crate) fn partition<R>(refs: &mut [R], mut left: impl FnMut(&R) -> bool) -> usize {
    // Invariant: refs[..i] satisfy `left`, refs[j..] do not.
    let (mut i, mut j) = (0usize, refs.len());
    loop {
        while i < j && left(&refs[i]) {
            i += 1;
        }
        while i < j && !left(&refs[j - 1]) {
            j -= 1;
        }
        if i == j {
            return i;
        }
        // refs[i] fails and refs[j - 1] passes, so they are distinct (i < j - 1).
        refs.swap(i, j - 1);
        i += 1;
        j -= 1;
    }
}

/// [`partition`] with no branch on `left`: every reference is swapped into the growing left
/// part, which advances only past those that pass (Lomuto's scheme, branch-free). Twice the
/// stores of Hoare's scheme, none of its mispredictions when the outcome is random; not stable.
#[inline]
pub(crate) fn partition_branchless<R>(refs: &mut [R], mut left: impl FnMut(&R) -> bool) -> usize {
    // Invariant: refs[..passed] satisfy `left`, refs[passed..i] do not.
    let mut passed = 0usize;
    for i in 0..refs.len() {
        let goes_left = left(&refs[i]);
        refs.swap(passed, i);
        passed += goes_left as usize;
    }
    passed
}

/// Componentwise minimum by plain comparisons (nalgebra's `inf` goes through simba's
/// NaN-aware generic minimum, several times slower in the builders' inner loops; no operand is
/// NaN here).
#[inline(always)]
pub(crate) fn min_point<T: Real, const D: usize>(a: &Point<T, D>, b: &Point<T, D>) -> Point<T, D> {
    let mut out = *a;
    for i in 0..D {
        if b.coords[i] < out.coords[i] {
            out.coords[i] = b.coords[i];
        }
    }
    out
}

/// Componentwise maximum by plain comparisons (see [`min_point`]).
#[inline(always)]
pub(crate) fn max_point<T: Real, const D: usize>(a: &Point<T, D>, b: &Point<T, D>) -> Point<T, D> {
    let mut out = *a;
    for i in 0..D {
        if b.coords[i] > out.coords[i] {
            out.coords[i] = b.coords[i];
        }
    }
    out
}

/// Surface measure of a box with the given extents: area in 3D, perimeter in 2D (up to a
/// constant factor, which no cost comparison needs).
#[inline(always)]
pub(crate) fn half_area<T: Real, const D: usize>(lo: &Point<T, D>, hi: &Point<T, D>) -> T {
    let e = hi - lo;
    match D {
        1 => T::one(),
        2 => e[0] + e[1],
        3 => e[0] * e[1] + e[1] * e[2] + e[2] * e[0],
        _ => {
            let mut s = T::zero();
            for i in 0..D {
                s += (0..D).filter(|&j| j != i).fold(T::one(), |a, j| a * e[j]);
            }
            s
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every mask of up to 10 references: the passing ones end up in front, the count is theirs,
    /// and no reference is lost or duplicated.
    #[test]
    fn partitions_move_exactly_the_passing_references_to_the_front() {
        for n in 0..=10usize {
            for mask in 0u32..(1 << n) {
                let refs: Vec<PrimRef<f32, 3>> = (0..n as u32)
                    .map(|i| PrimRef { lo: Point::origin(), hi: Point::origin(), index: i })
                    .collect();
                let passes = |r: &PrimRef<f32, 3>| mask >> r.index & 1 == 1;
                for branchless in [false, true] {
                    let mut refs = refs.clone();
                    let k = if branchless {
                        partition_branchless(&mut refs, passes)
                    } else {
                        partition(&mut refs, passes)
                    };
                    assert_eq!(k, mask.count_ones() as usize);
                    assert!(refs[..k].iter().all(passes));
                    assert!(!refs[k..].iter().any(passes));
                    let mut seen: Vec<u32> = refs.iter().map(|r| r.index).collect();
                    seen.sort_unstable();
                    assert_eq!(seen, (0..n as u32).collect::<Vec<_>>());
                }
            }
        }
    }

    /// The binned builders hold boxes in 4 lanes: 5-dimensional input is a typed error for
    /// them, and still builds with the others.
    #[test]
    fn binned_builders_refuse_more_than_four_dimensions() {
        use cd_geom::Aabb;
        let boxes: Vec<Aabb<f64, 5>> = (0..20)
            .map(|i| {
                let lo = Point::from([i as f64; 5]);
                Aabb::from_points([&lo, &(lo + nalgebra::SVector::repeat(0.5))]).expect("valid")
            })
            .collect();
        for builder in [Builder::BinnedSah, Builder::BinnedVolume] {
            let refs = prim_refs(boxes.as_slice()).expect("valid");
            let result = build_topology(boxes.as_slice(), refs, &BuildConfig::with_builder(builder));
            assert!(matches!(result, Err(MidError::BadConfig(_))), "{builder:?}");
        }
        let refs = prim_refs(boxes.as_slice()).expect("valid");
        let topology = build_topology(boxes.as_slice(), refs, &BuildConfig::with_builder(Builder::Median))
            .expect("the median builder has no dimension limit");
        assert_eq!(topology.order.len(), 20);
    }
}
