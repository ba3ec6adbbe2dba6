//! The top-down driver shared by the median, SAH and LBVH builders, and the median split.
//!
//! The driver keeps an explicit stack (no recursion, so a degenerate split sequence cannot
//! overflow the call stack), allocates both children of a node next to each other after their
//! parent, and partitions the primitive references in place so every node's primitives are one
//! contiguous range.

use super::{max_point, min_point, PrimRef, TopoNode, Topology};
use cd_geom::Real;

/// Builds a tree by recursive splitting. `split(start, range)` partitions the range of more than
/// `leaf_size` references beginning at `start` and returns the size of the left part; a result
/// of 0 or the whole range (no useful split) is replaced by a split at the middle, so the build
/// always terminates.
pub(crate) fn build<T: Real, const D: usize>(
    mut refs: Vec<PrimRef<T, D>>,
    leaf_size: usize,
    split: &mut dyn FnMut(usize, &mut [PrimRef<T, D>]) -> usize,
) -> Topology<T, D> {
    let nodes = build_nodes(&mut refs, 0, leaf_size, split);
    Topology { nodes, order: refs.iter().map(|r| r.index).collect(), ordered: refs }
}

/// What a splitter made of a node: a cut (the size of the left part), or the node's whole
/// subtree, built by the splitter itself in the drivers' layout (the node first; `start`s
/// absolute, `first_child` indices within the list, 0 for a leaf).
pub(crate) enum Split {
    At(usize),
    Subtree(Vec<TopoNode>),
}

/// The serial driver over a slice whose first reference sits at position `base` of the whole
/// order. Layout: the root, then its two children, then the left child's subtree, then the
/// right's (recursively the same), which is what the parallel driver reproduces.
fn build_nodes<T: Real, const D: usize>(
    refs: &mut [PrimRef<T, D>],
    base: usize,
    leaf_size: usize,
    split: &mut dyn FnMut(usize, &mut [PrimRef<T, D>]) -> usize,
) -> Vec<TopoNode> {
    build_nodes_with(refs, base, leaf_size, &mut |start, range| Split::At(split(start, range)))
}

/// [`build_nodes`] over references of any type, with a splitter that may build a node's
/// subtree itself ([`Split::Subtree`], spliced in place: in the serial layout a node's
/// descendants are one contiguous run, appended when the node is split).
pub(crate) fn build_nodes_with<R>(
    refs: &mut [R],
    base: usize,
    leaf_size: usize,
    split: &mut dyn FnMut(usize, &mut [R]) -> Split,
) -> Vec<TopoNode> {
    let n = refs.len();
    // A binary tree over n non-empty leaves has at most 2n − 1 nodes, and the ranges may end
    // smaller than `leaf_size` (a split point is the cost's choice): sized for the bound, the
    // vector never doubles and copies itself (it did at 2·⌈n / leaf_size⌉), and the pages of
    // a large reservation that stay unused are never touched.
    let mut nodes = Vec::with_capacity((2 * n).max(2) - 1);
    nodes.push(TopoNode { first_child: 0, start: base as u32, count: n as u32 });
    let mut stack = vec![(0usize, 0usize, n)];
    while let Some((node, start, end)) = stack.pop() {
        let count = end - start;
        if count <= leaf_size {
            continue;
        }
        let mut mid = match split(base + start, &mut refs[start..end]) {
            Split::At(mid) => mid,
            Split::Subtree(sub) => {
                splice(&mut nodes, node, &sub);
                continue;
            }
        };
        if mid == 0 || mid >= count {
            mid = count / 2;
        }
        let first = nodes.len();
        nodes.push(TopoNode { first_child: 0, start: (base + start) as u32, count: mid as u32 });
        nodes.push(TopoNode {
            first_child: 0,
            start: (base + start + mid) as u32,
            count: (count - mid) as u32,
        });
        nodes[node].first_child = first as u32;
        // Right pushed first so the left subtree is built (and numbered) first.
        stack.push((first + 1, start + mid, end));
        stack.push((first, start, start + mid));
    }
    nodes
}

/// Appends the descendants of `sub` (a subtree whose first node is `nodes[node]`) to `nodes`
/// and links them to `node`.
fn splice(nodes: &mut Vec<TopoNode>, node: usize, sub: &[TopoNode]) {
    // Local index k ≥ 1 lands at `offset + k`.
    let offset = nodes.len() as u32 - 1;
    let moved = |k: u32| if k == 0 { 0 } else { k + offset };
    nodes[node].first_child = moved(sub[0].first_child);
    nodes.extend(sub[1..].iter().map(|t| TopoNode { first_child: moved(t.first_child), ..*t }));
}

/// Ranges at least this large are split on one thread and their two halves built in parallel.
#[cfg(feature = "rayon")]
const PARALLEL_MIN: usize = 4096;

/// The parallel driver (feature `rayon`): the top levels are split one node at a time and the
/// two halves of each built with `rayon::join`, down to [`PARALLEL_MIN`] references or 16
/// levels; below that the serial driver runs. `make_split` gives each task its own splitter
/// (with its own scratch). Produces exactly the serial driver's tree.
#[cfg(feature = "rayon")]
pub(crate) fn build_parallel<T, const D: usize, F, S>(
    mut refs: Vec<PrimRef<T, D>>,
    leaf_size: usize,
    make_split: &F,
) -> Topology<T, D>
where
    T: Real,
    F: Fn() -> S + Sync,
    S: FnMut(usize, &mut [PrimRef<T, D>]) -> usize,
{
    let nodes = build_parallel_nodes_with(&mut refs, leaf_size, &|| {
        let mut split = make_split();
        move |start: usize, range: &mut [PrimRef<T, D>]| Split::At(split(start, range))
    });
    Topology { nodes, order: refs.iter().map(|r| r.index).collect(), ordered: refs }
}

/// [`build_parallel`]'s nodes over references of any type, with splitters that may build a
/// node's subtree themselves (see [`build_nodes_with`]).
#[cfg(feature = "rayon")]
pub(crate) fn build_parallel_nodes_with<R, F, S>(
    refs: &mut [R],
    leaf_size: usize,
    make_split: &F,
) -> Vec<TopoNode>
where
    R: Send,
    F: Fn() -> S + Sync,
    S: FnMut(usize, &mut [R]) -> Split,
{
    subtree(refs, 0, leaf_size, make_split, 0)
}

#[cfg(feature = "rayon")]
fn subtree<R, F, S>(
    refs: &mut [R],
    base: usize,
    leaf_size: usize,
    make_split: &F,
    depth: u32,
) -> Vec<TopoNode>
where
    R: Send,
    F: Fn() -> S + Sync,
    S: FnMut(usize, &mut [R]) -> Split,
{
    let n = refs.len();
    if n < PARALLEL_MIN || n <= leaf_size || depth >= 16 {
        return build_nodes_with(refs, base, leaf_size, &mut make_split());
    }
    let mut mid = match make_split()(base, refs) {
        Split::At(mid) => mid,
        Split::Subtree(sub) => return sub,
    };
    if mid == 0 || mid >= n {
        mid = n / 2;
    }
    let (left, right) = refs.split_at_mut(mid);
    let (l, r) = rayon::join(
        || subtree(left, base, leaf_size, make_split, depth + 1),
        || subtree(right, base + mid, leaf_size, make_split, depth + 1),
    );
    // Layout [root, l[0], r[0], l[1..], r[1..]]: a local index k ≥ 1 of `l` moves to k + 2, of
    // `r` to k + 1 + l.len(); children stay adjacent.
    let (ll, rl) = (l.len(), r.len());
    let map_l = |k: u32| if k == 0 { 1 } else { k + 2 };
    let map_r = |k: u32| if k == 0 { 2 } else { k + 1 + ll as u32 };
    let mut nodes = Vec::with_capacity(1 + ll + rl);
    nodes.push(TopoNode { first_child: 1, start: base as u32, count: n as u32 });
    let fix = |t: &TopoNode, map: &dyn Fn(u32) -> u32| TopoNode {
        first_child: if t.first_child == 0 { 0 } else { map(t.first_child) },
        ..*t
    };
    nodes.push(fix(&l[0], &map_l));
    nodes.push(fix(&r[0], &map_r));
    nodes.extend(l[1..].iter().map(|t| fix(t, &map_l)));
    nodes.extend(r[1..].iter().map(|t| fix(t, &map_r)));
    nodes
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
