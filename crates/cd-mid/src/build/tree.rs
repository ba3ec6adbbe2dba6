//! The pointer-free binary tree the bottom-up builders (PLOC, incremental insertion) grow, and
//! its conversion to the flat [`Topology`] layout.

use super::{max_point, min_point, TopoNode, Topology};
use cd_geom::{Point, Real};

/// Marks an interior node in [`BinNode::prim`].
pub(crate) const INTERIOR: u32 = u32::MAX;

/// A node of a [`BinaryTree`]: a leaf holds one primitive; an interior node two children.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BinNode<T: Real, const D: usize> {
    pub lo: Point<T, D>,
    pub hi: Point<T, D>,
    pub left: u32,
    pub right: u32,
    pub parent: u32,
    /// The primitive of a leaf, or [`INTERIOR`].
    pub prim: u32,
    /// Primitives in the subtree.
    pub count: u32,
}

/// A binary tree in an arena, one primitive per leaf.
#[derive(Clone, Debug, Default)]
pub(crate) struct BinaryTree<T: Real, const D: usize> {
    pub nodes: Vec<BinNode<T, D>>,
    pub root: u32,
}

impl<T: Real, const D: usize> BinaryTree<T, D> {
    /// Adds a leaf for primitive `prim` with box `[lo, hi]`; returns its id.
    pub fn leaf(&mut self, lo: Point<T, D>, hi: Point<T, D>, prim: u32) -> u32 {
        self.nodes.push(BinNode { lo, hi, left: 0, right: 0, parent: u32::MAX, prim, count: 1 });
        (self.nodes.len() - 1) as u32
    }

    /// Adds an interior node over `a` and `b`; returns its id.
    pub fn join(&mut self, a: u32, b: u32) -> u32 {
        let (na, nb) = (self.nodes[a as usize], self.nodes[b as usize]);
        let id = self.nodes.len() as u32;
        self.nodes.push(BinNode {
            lo: min_point(&na.lo, &nb.lo),
            hi: max_point(&na.hi, &nb.hi),
            left: a,
            right: b,
            parent: u32::MAX,
            prim: INTERIOR,
            count: na.count + nb.count,
        });
        self.nodes[a as usize].parent = id;
        self.nodes[b as usize].parent = id;
        id
    }

    /// The flat layout: subtrees of at most `leaf_size` primitives become leaves, every other
    /// node an interior node whose two children sit side by side after it.
    pub fn flatten(&self, leaf_size: usize) -> Topology<T, D> {
        let root = &self.nodes[self.root as usize];
        let mut out = Topology {
            nodes: Vec::with_capacity(2 * root.count as usize),
            order: Vec::new(),
            ordered: Vec::new(),
        };
        out.order.reserve(root.count as usize);
        out.nodes.push(TopoNode { first_child: 0, start: 0, count: root.count });
        // Depth-first, left before right: when a node is popped, every primitive before its
        // subtree has been emitted, so `order.len()` is its range's start.
        let mut stack = vec![(self.root, 0usize)];
        let mut gather = Vec::new();
        while let Some((id, flat)) = stack.pop() {
            let node = &self.nodes[id as usize];
            let start = out.order.len() as u32;
            out.nodes[flat].start = start;
            if node.count as usize <= leaf_size || node.prim != INTERIOR {
                gather.push(id);
                while let Some(g) = gather.pop() {
                    let n = &self.nodes[g as usize];
                    if n.prim != INTERIOR {
                        out.order.push(n.prim);
                    } else {
                        gather.push(n.right);
                        gather.push(n.left);
                    }
                }
                continue;
            }
            let first = out.nodes.len();
            out.nodes[flat].first_child = first as u32;
            for child in [node.left, node.right] {
                let c = self.nodes[child as usize].count;
                out.nodes.push(TopoNode { first_child: 0, start: 0, count: c });
            }
            stack.push((node.right, first + 1));
            stack.push((node.left, first));
        }
        out
    }
}
