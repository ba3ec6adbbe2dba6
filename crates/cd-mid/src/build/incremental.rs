//! Incremental insertion (Goldsmith and Salmon 1987): primitives inserted one at a time in a
//! fixed pseudo-random order (so sorted input cannot degrade the tree), each descending from the
//! root towards the child whose box grows least in surface area, stopping where making the new
//! primitive a sibling of the current node is cheaper than descending (the branch-and-bound
//! rule of dynamic AABB trees).

use super::tree::{BinaryTree, INTERIOR};
use super::{half_area, max_point, min_point, BuildConfig, PrimRef};
use cd_geom::{Point, Real};

pub(crate) fn build<T: Real, const D: usize>(
    refs: &[PrimRef<T, D>],
    config: &BuildConfig,
) -> BinaryTree<T, D> {
    let mut order: Vec<usize> = (0..refs.len()).collect();
    let mut s = config.seed.max(1);
    for i in (1..order.len()).rev() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        order.swap(i, (s % (i as u64 + 1)) as usize);
    }
    let mut tree = BinaryTree { nodes: Vec::with_capacity(2 * refs.len()), root: 0 };
    for (k, &i) in order.iter().enumerate() {
        let r = &refs[i];
        let leaf = tree.leaf(r.lo, r.hi, r.index);
        if k == 0 {
            tree.root = leaf;
            continue;
        }
        let sibling = find_sibling(&tree, &r.lo, &r.hi);
        let old_parent = tree.nodes[sibling as usize].parent;
        let parent = tree.join(sibling, leaf);
        tree.nodes[parent as usize].parent = old_parent;
        if old_parent == u32::MAX {
            tree.root = parent;
        } else {
            let p = &mut tree.nodes[old_parent as usize];
            if p.left == sibling {
                p.left = parent;
            } else {
                p.right = parent;
            }
            // Grow the ancestors' boxes and counts.
            let mut up = old_parent;
            while up != u32::MAX {
                let n = &mut tree.nodes[up as usize];
                n.lo = min_point(&n.lo, &r.lo);
                n.hi = max_point(&n.hi, &r.hi);
                n.count += 1;
                up = n.parent;
            }
        }
    }
    tree
}

/// Greedy descent: at each interior node compare the cost of pairing the new box with the node
/// itself (`2 A(node ∪ new)`) against descending into either child (the growth of the child
/// plus the growth every ancestor already pays).
fn find_sibling<T: Real, const D: usize>(tree: &BinaryTree<T, D>, lo: &Point<T, D>, hi: &Point<T, D>) -> u32 {
    let mut at = tree.root;
    loop {
        let n = &tree.nodes[at as usize];
        if n.prim != INTERIOR {
            return at;
        }
        let area = half_area(&n.lo, &n.hi);
        let combined = half_area(&min_point(&n.lo, lo), &max_point(&n.hi, hi));
        let here = combined + combined;
        let inherited = (combined - area) + (combined - area);
        let child_cost = |c: u32| {
            let cn = &tree.nodes[c as usize];
            let merged = half_area(&min_point(&cn.lo, lo), &max_point(&cn.hi, hi));
            let grow = if cn.prim != INTERIOR { merged } else { merged - half_area(&cn.lo, &cn.hi) };
            grow + inherited
        };
        let (cl, cr) = (child_cost(n.left), child_cost(n.right));
        if here < cl && here < cr {
            return at;
        }
        at = if cl <= cr { n.left } else { n.right };
    }
}
