//! The [`BvhNode`] trait every traversal is written against, and the binary [`Node`] of
//! [`Bvh`](crate::Bvh).

use core::ops::Range;

/// One node of a bounding-volume hierarchy stored flat: nodes in one array, children referred
/// to by index, every node covering a contiguous range of the hierarchy's primitive order.
///
/// Object-safe (`&dyn BvhNode<B>` works); the traversals in [`query`](crate::query) take any
/// slice of nodes implementing it, so binary, wide and OBB-tree nodes share them.
pub trait BvhNode<B> {
    /// The node's bounding volume.
    fn volume(&self) -> &B;
    /// Indices of the children in the node array (empty for a leaf).
    fn children(&self) -> Range<usize>;
    /// The node's primitives, as a range of positions in the hierarchy's primitive order: a
    /// leaf's own primitives, or every primitive below an interior node.
    fn primitives(&self) -> Range<usize>;
    /// Is this a leaf?
    fn is_leaf(&self) -> bool {
        self.children().is_empty()
    }
}

/// A node of a binary [`Bvh`](crate::Bvh): its volume, the index of its first child (the
/// second is next to it; 0 marks a leaf, since the root is node 0 and no node's child) and its
/// primitive range.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Node<B> {
    pub(crate) volume: B,
    pub(crate) first_child: u32,
    pub(crate) start: u32,
    pub(crate) count: u32,
}

impl<B> BvhNode<B> for Node<B> {
    #[inline(always)]
    fn volume(&self) -> &B {
        &self.volume
    }
    #[inline(always)]
    fn children(&self) -> Range<usize> {
        if self.first_child == 0 {
            0..0
        } else {
            self.first_child as usize..self.first_child as usize + 2
        }
    }
    #[inline(always)]
    fn primitives(&self) -> Range<usize> {
        self.start as usize..(self.start + self.count) as usize
    }
    #[inline(always)]
    fn is_leaf(&self) -> bool {
        self.first_child == 0
    }
}
