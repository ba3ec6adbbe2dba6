//! The top-down driver shared by the median, SAH and LBVH builders, and the median split.
//!
//! The driver keeps an explicit stack (no recursion, so a degenerate split sequence cannot
//! overflow the call stack), allocates both children of a node next to each other after their
//! parent, and partitions the primitive references in place so every node's primitives are one
//! contiguous range.

use super::{max_point, min_point, PrimRef, TopoNode, Topology};
use cd_geom::Real;

/// Builds a tree by recursive splitting. `split(start, range)` partitions the range of more than
/// `leaf_size` references beginning at `start` and returns the size of the left part; a result of 0 or the whole range (no
/// useful split) is replaced by a split at the middle, so the build always terminates.
pub(crate) fn build<T: Real, const D: usize>(
    mut refs: Vec<PrimRef<T, D>>,
    leaf_size: usize,
    split: &mut dyn FnMut(usize, &mut [PrimRef<T, D>]) -> usize,
) -> Topology {
    let n = refs.len();
    let mut nodes = Vec::with_capacity(2 * n.div_ceil(leaf_size.max(1)));
    nodes.push(TopoNode { first_child: 0, start: 0, count: n as u32 });
    let mut stack = vec![(0usize, 0usize, n)];
    while let Some((node, start, end)) = stack.pop() {
        let count = end - start;
        if count <= leaf_size {
            continue;
        }
        let mut mid = split(start, &mut refs[start..end]);
        if mid == 0 || mid >= count {
            mid = count / 2;
        }
        let first = nodes.len();
        nodes.push(TopoNode { first_child: 0, start: start as u32, count: mid as u32 });
        nodes.push(TopoNode { first_child: 0, start: (start + mid) as u32, count: (count - mid) as u32 });
        nodes[node].first_child = first as u32;
        // Right pushed first so the left subtree is built (and numbered) first.
        stack.push((first + 1, start + mid, end));
        stack.push((first, start, start + mid));
    }
    Topology { nodes, order: refs.iter().map(|r| r.index).collect() }
}

/// Index of the axis along which the references' centroids spread most, and that spread.
pub(crate) fn widest_centroid_axis<T: Real, const D: usize>(refs: &[PrimRef<T, D>]) -> (usize, T) {
    let mut lo = refs[0].centroid();
    let mut hi = lo;
    for r in refs {
        let c = r.centroid();
        lo = min_point(&lo, &c);
        hi = max_point(&hi, &c);
    }
    let e = hi - lo;
    let axis = e.imax();
    (axis, e[axis])
}

/// Median split: the longest axis of the centroids' box, partitioned at the median centroid
/// (O(n) selection, not a sort).
pub(crate) fn median_split<T: Real, const D: usize>(_start: usize, refs: &mut [PrimRef<T, D>]) -> usize {
    let (axis, _) = widest_centroid_axis(refs);
    let mid = refs.len() / 2;
    // Twice the centre on one axis orders like the centre and costs one addition.
    let key = |r: &PrimRef<T, D>| r.lo[axis] + r.hi[axis];
    refs.select_nth_unstable_by(mid, |a, b| {
        key(a).partial_cmp(&key(b)).unwrap_or(core::cmp::Ordering::Equal)
    });
    mid
}
