//! Model-vs-model overlap and self-collision: simultaneous descent of two hierarchies (the
//! "bounding volume test tree"), splitting the node with the larger surface area, with model
//! B's volumes carried into A's frame by a [`Motion`] instead of rebuilding B.

use super::{QueryWorkspace, SelfItem};
use crate::motion::Motion;
use crate::node::BvhNode;
use crate::volume::HierarchyVolume;
use cd_geom::Real;
use core::ops::ControlFlow;

/// Visits every pair of primitives (`a` from the first hierarchy, `b` from the second) whose
/// leaf volumes overlap, B placed in A's frame by `motion`; `leaf(a, b)` may stop the
/// traversal by returning `ControlFlow::Break`. Returns whether it was stopped.
pub fn visit_overlaps<T, const D: usize, B, NA, NB>(
    (a_nodes, a_order): (&[NA], &[u32]),
    (b_nodes, b_order): (&[NB], &[u32]),
    motion: &Motion<T, D>,
    ws: &mut QueryWorkspace<T>,
    mut leaf: impl FnMut(u32, u32) -> ControlFlow<()>,
) -> bool
where
    T: Real,
    B: HierarchyVolume<T, D>,
    NA: BvhNode<B>,
    NB: BvhNode<B>,
{
    if a_nodes.is_empty() || b_nodes.is_empty() {
        return false;
    }
    if motion.is_identity() {
        let mut test = |x: u32, y: u32| a_nodes[x as usize].volume().overlaps(b_nodes[y as usize].volume());
        descend_from((a_nodes, a_order), (b_nodes, b_order), 0, 0, ws, &mut test, &mut leaf)
    } else {
        let mut test = |x: u32, y: u32| {
            a_nodes[x as usize].volume().overlaps_moved(b_nodes[y as usize].volume(), motion)
        };
        descend_from((a_nodes, a_order), (b_nodes, b_order), 0, 0, ws, &mut test, &mut leaf)
    }
}

/// The descent rule every pair traversal shares (front tracking relies on it giving the same
/// tree every time): split A's node unless B's is the only interior one or has the larger
/// surface area.
#[inline]
pub(crate) fn splits_a<T: Real, const D: usize, B: HierarchyVolume<T, D>, NA: BvhNode<B>, NB: BvhNode<B>>(
    na: &NA,
    nb: &NB,
) -> bool {
    nb.is_leaf() || (!na.is_leaf() && na.volume().surface_area() >= nb.volume().surface_area())
}

/// Runs the leaf test on every primitive pair of two leaves, collecting the pairs it accepts.
#[inline]
pub(crate) fn collect_leaf_pairs<T, B, NA: BvhNode<B>, NB: BvhNode<B>>(
    (na, a_order): (&NA, &[u32]),
    (nb, b_order): (&NB, &[u32]),
    ws: &mut QueryWorkspace<T>,
    overlap: &mut impl FnMut(u32, u32) -> bool,
    out: &mut Vec<(u32, u32)>,
) {
    for &pa in &a_order[na.primitives()] {
        for &pb in &b_order[nb.primitives()] {
            ws.stats.primitive_tests += 1;
            if overlap(pa, pb) {
                out.push((pa, pb));
            }
        }
    }
}

/// The descent shared by model-vs-model, the k-DOP tree and the cross terms of
/// self-collision: a stack of overlapping node pairs; a pair of leaves runs the leaf test on its
/// primitives, otherwise the larger node (by surface area; an interior node before a leaf) is
/// split and each child pair that overlaps is pushed. `overlap(a, b)` tests two nodes by index,
/// so callers decide how B's volume reaches A's frame. Returns whether the leaf test stopped it.
pub(crate) fn descend_from<T, const D: usize, B, NA, NB>(
    (a_nodes, a_order): (&[NA], &[u32]),
    (b_nodes, b_order): (&[NB], &[u32]),
    a_start: u32,
    b_start: u32,
    ws: &mut QueryWorkspace<T>,
    overlap: &mut dyn FnMut(u32, u32) -> bool,
    leaf: &mut dyn FnMut(u32, u32) -> ControlFlow<()>,
) -> bool
where
    T: Real,
    B: HierarchyVolume<T, D>,
    NA: BvhNode<B>,
    NB: BvhNode<B>,
{
    let stack = &mut ws.pairs;
    stack.clear();
    ws.stats.volume_tests += 1;
    if !overlap(a_start, b_start) {
        return false;
    }
    stack.push((T::zero(), a_start, b_start));
    while let Some((_, ia, ib)) = stack.pop() {
        let (na, nb) = (&a_nodes[ia as usize], &b_nodes[ib as usize]);
        match (na.is_leaf(), nb.is_leaf()) {
            (true, true) => {
                for &pa in &a_order[na.primitives()] {
                    for &pb in &b_order[nb.primitives()] {
                        ws.stats.primitive_tests += 1;
                        if leaf(pa, pb).is_break() {
                            return true;
                        }
                    }
                }
            }
            _ => {
                let split_a = splits_a(na, nb);
                if split_a {
                    for c in na.children().rev() {
                        ws.stats.volume_tests += 1;
                        if overlap(c as u32, ib) {
                            stack.push((T::zero(), c as u32, ib));
                        }
                    }
                } else {
                    for c in nb.children().rev() {
                        ws.stats.volume_tests += 1;
                        if overlap(ia, c as u32) {
                            stack.push((T::zero(), ia, c as u32));
                        }
                    }
                }
            }
        }
    }
    false
}

/// Every primitive pair whose leaf test `overlap(a, b)` is true, among the pairs whose leaf
/// volumes overlap, sorted.
pub fn overlapping_pairs<T, const D: usize, B, NA, NB>(
    a: (&[NA], &[u32]),
    b: (&[NB], &[u32]),
    motion: &Motion<T, D>,
    ws: &mut QueryWorkspace<T>,
    mut overlap: impl FnMut(u32, u32) -> bool,
) -> Vec<(u32, u32)>
where
    T: Real,
    B: HierarchyVolume<T, D>,
    NA: BvhNode<B>,
    NB: BvhNode<B>,
{
    let mut out = Vec::new();
    visit_overlaps(a, b, motion, ws, |x, y| {
        if overlap(x, y) {
            out.push((x, y));
        }
        ControlFlow::Continue(())
    });
    out.sort_unstable();
    out
}

/// The first primitive pair found whose leaf test is true (early exit), if any.
pub fn first_overlap<T, const D: usize, B, NA, NB>(
    a: (&[NA], &[u32]),
    b: (&[NB], &[u32]),
    motion: &Motion<T, D>,
    ws: &mut QueryWorkspace<T>,
    mut overlap: impl FnMut(u32, u32) -> bool,
) -> Option<(u32, u32)>
where
    T: Real,
    B: HierarchyVolume<T, D>,
    NA: BvhNode<B>,
    NB: BvhNode<B>,
{
    let mut found = None;
    visit_overlaps(a, b, motion, ws, |x, y| {
        if overlap(x, y) {
            found = Some((x, y));
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    found
}

/// Self-collision of one hierarchy: every pair of distinct primitives `(p, q)` with `p < q`
/// whose leaf volumes overlap and whose leaf test `overlap(p, q)` is true, each pair once,
/// sorted. The caller's test decides about neighbours (a mesh skips triangles sharing a vertex).
pub fn self_overlapping_pairs<T, const D: usize, B, N>(
    nodes: &[N],
    order: &[u32],
    ws: &mut QueryWorkspace<T>,
    mut overlap: impl FnMut(u32, u32) -> bool,
) -> Vec<(u32, u32)>
where
    T: Real,
    B: HierarchyVolume<T, D>,
    N: BvhNode<B>,
{
    let mut out = Vec::new();
    if nodes.is_empty() {
        return out;
    }
    let mut test = |p: u32, q: u32| {
        let (p, q) = if p < q { (p, q) } else { (q, p) };
        if overlap(p, q) {
            out.push((p, q));
        }
        ControlFlow::Continue(())
    };
    let mut items = core::mem::take(&mut ws.selves);
    items.clear();
    items.push(SelfItem::Within(0));
    while let Some(item) = items.pop() {
        match item {
            SelfItem::Within(n) => {
                let node = &nodes[n as usize];
                if node.is_leaf() {
                    let prims = &order[node.primitives()];
                    for (i, &p) in prims.iter().enumerate() {
                        for &q in &prims[i + 1..] {
                            ws.stats.primitive_tests += 1;
                            let _ = test(p, q);
                        }
                    }
                    continue;
                }
                let children = node.children();
                for c in children.clone() {
                    items.push(SelfItem::Within(c as u32));
                    for d in c + 1..children.end {
                        ws.stats.volume_tests += 1;
                        if nodes[c].volume().overlaps(nodes[d].volume()) {
                            items.push(SelfItem::Between(c as u32, d as u32));
                        }
                    }
                }
            }
            SelfItem::Between(x, y) => {
                let mut volumes =
                    |u: u32, v: u32| nodes[u as usize].volume().overlaps(nodes[v as usize].volume());
                descend_from((nodes, order), (nodes, order), x, y, ws, &mut volumes, &mut test);
            }
        }
    }
    ws.selves = items;
    out.sort_unstable();
    out
}
