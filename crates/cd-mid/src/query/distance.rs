//! Distance queries by branch and bound: from a point to a model, and between two models
//! (B carried into A's frame by a [`Motion`]). Volumes give lower bounds; a node (pair) whose
//! bound is not below the best distance found so far is skipped, and the nearer child (pair) is
//! visited first so the bound tightens early.

use super::pairs::splits_a;
use super::QueryWorkspace;
use crate::motion::Motion;
use crate::node::BvhNode;
use crate::volume::HierarchyVolume;
use cd_geom::{Point, Real};

/// The primitive closest to `p` within `max_dist`: `leaf(primitive, best)` returns the
/// primitive's distance to `p` when it is below `best` (it may return any value otherwise).
/// Returns the primitive and its distance.
pub fn closest_to_point<T, const D: usize, B, N>(
    nodes: &[N],
    order: &[u32],
    p: &Point<T, D>,
    max_dist: T,
    ws: &mut QueryWorkspace<T>,
    mut leaf: impl FnMut(u32, T) -> Option<T>,
) -> Option<(u32, T)>
where
    T: Real,
    B: HierarchyVolume<T, D>,
    N: BvhNode<B>,
{
    let root = nodes.first()?;
    let mut best: Option<(u32, T)> = None;
    let mut bound = max_dist;
    ws.stats.volume_tests += 1;
    let d0 = root.volume().distance_to_point(p);
    if d0 > bound {
        return None;
    }
    let stack = &mut ws.nodes;
    stack.clear();
    stack.push((d0, 0));
    while let Some((lb, n)) = stack.pop() {
        if lb > bound {
            continue;
        }
        let node = &nodes[n as usize];
        if node.is_leaf() {
            for &prim in &order[node.primitives()] {
                ws.stats.primitive_tests += 1;
                if let Some(d) = leaf(prim, bound) {
                    if d <= bound && best.is_none_or(|(_, b)| d < b) {
                        best = Some((prim, d));
                        bound = d;
                    }
                }
            }
            continue;
        }
        let base = stack.len();
        for c in node.children() {
            ws.stats.volume_tests += 1;
            let d = nodes[c].volume().distance_to_point(p);
            if d <= bound {
                stack.push((d, c as u32));
            }
        }
        // Farthest first on the stack, so the nearest is popped next.
        stack[base..].sort_unstable_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(core::cmp::Ordering::Equal));
    }
    best
}

/// The closest primitive pair between two models within `max_dist`, B placed in A's frame by
/// `motion`: `leaf(a, b, best)` returns the two primitives' distance when it is below `best`.
/// Returns the pair and its distance (0 for touching or overlapping models).
pub fn closest_pair<T, const D: usize, B, NA, NB>(
    (a_nodes, a_order): (&[NA], &[u32]),
    (b_nodes, b_order): (&[NB], &[u32]),
    motion: &Motion<T, D>,
    max_dist: T,
    ws: &mut QueryWorkspace<T>,
    mut leaf: impl FnMut(u32, u32, T) -> Option<T>,
) -> Option<(u32, u32, T)>
where
    T: Real,
    B: HierarchyVolume<T, D>,
    NA: BvhNode<B>,
    NB: BvhNode<B>,
{
    if a_nodes.is_empty() || b_nodes.is_empty() {
        return None;
    }
    let mut best: Option<(u32, u32, T)> = None;
    let mut bound = max_dist;
    ws.stats.volume_tests += 1;
    let d0 = a_nodes[0].volume().distance_moved(b_nodes[0].volume(), motion);
    if d0 > bound {
        return None;
    }
    let stack = &mut ws.pairs;
    stack.clear();
    stack.push((d0, 0, 0));
    while let Some((lb, ia, ib)) = stack.pop() {
        if lb > bound {
            continue;
        }
        let (na, nb) = (&a_nodes[ia as usize], &b_nodes[ib as usize]);
        if na.is_leaf() && nb.is_leaf() {
            for &pa in &a_order[na.primitives()] {
                for &pb in &b_order[nb.primitives()] {
                    ws.stats.primitive_tests += 1;
                    if let Some(d) = leaf(pa, pb, bound) {
                        if d <= bound && best.is_none_or(|(_, _, b)| d < b) {
                            best = Some((pa, pb, d));
                            bound = d;
                        }
                    }
                }
            }
            if bound == T::zero() && best.is_some() {
                break;
            }
            continue;
        }
        let split_a = splits_a(na, nb);
        let base = stack.len();
        if split_a {
            for c in na.children() {
                ws.stats.volume_tests += 1;
                let d = a_nodes[c].volume().distance_moved(nb.volume(), motion);
                if d <= bound {
                    stack.push((d, c as u32, ib));
                }
            }
        } else {
            for c in nb.children() {
                ws.stats.volume_tests += 1;
                let d = na.volume().distance_moved(b_nodes[c].volume(), motion);
                if d <= bound {
                    stack.push((d, ia, c as u32));
                }
            }
        }
        stack[base..].sort_unstable_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(core::cmp::Ordering::Equal));
    }
    best
}
