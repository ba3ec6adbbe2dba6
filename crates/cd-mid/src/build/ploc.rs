//! PLOC — parallel locally-ordered clustering (Meister and Bittner 2018), here run serially.
//!
//! Clusters start as single primitives in Morton order. Each round every cluster finds, among
//! the `radius` clusters on either side, the one whose merged box has the smallest surface
//! area; clusters that chose each other merge (the merged cluster keeps the lower position, so
//! Morton order is kept), and the rest carry over. Ties are broken by position, which makes the
//! globally closest pair mutual: every round merges at least one pair, so it terminates.

use super::lbvh::morton_order;
use super::tree::BinaryTree;
use super::{half_area, max_point, min_point, BuildConfig, PrimRef};
use cd_geom::Real;

pub(crate) fn build<T: Real, const D: usize>(
    refs: &[PrimRef<T, D>],
    config: &BuildConfig,
) -> BinaryTree<T, D> {
    let (sorted, _) = morton_order(refs);
    let mut tree = BinaryTree { nodes: Vec::with_capacity(2 * sorted.len()), root: 0 };
    let mut clusters: Vec<u32> = sorted.iter().map(|r| tree.leaf(r.lo, r.hi, r.index)).collect();
    let radius = config.ploc_radius;
    let mut nearest: Vec<(T, usize)> = Vec::new();
    let mut next = Vec::with_capacity(clusters.len());
    while clusters.len() > 1 {
        let n = clusters.len();
        nearest.clear();
        nearest.resize(n, (T::infinity(), usize::MAX));
        // Each unordered pair within the radius is measured once and offered to both ends.
        for i in 0..n {
            let a = &tree.nodes[clusters[i] as usize];
            for j in i + 1..(i + radius + 1).min(n) {
                let b = &tree.nodes[clusters[j] as usize];
                let d = half_area(&min_point(&a.lo, &b.lo), &max_point(&a.hi, &b.hi));
                // Strictly smaller, or equal with a lower partner index: a total order on pairs.
                if d < nearest[i].0 || (d == nearest[i].0 && j < nearest[i].1) {
                    nearest[i] = (d, j);
                }
                if d < nearest[j].0 || (d == nearest[j].0 && i < nearest[j].1) {
                    nearest[j] = (d, i);
                }
            }
        }
        next.clear();
        for i in 0..n {
            let j = nearest[i].1;
            if nearest[j].1 == i {
                if i < j {
                    next.push(tree.join(clusters[i], clusters[j]));
                }
            } else {
                next.push(clusters[i]);
            }
        }
        core::mem::swap(&mut clusters, &mut next);
    }
    tree.root = clusters[0];
    tree
}
