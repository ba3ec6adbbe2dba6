//! [`Bvh`]: a binary bounding-volume hierarchy, generic over the volume type, stored flat.

use crate::build::{build_topology, max_point, min_point, prim_refs, BuildConfig, PrimRef, Topology};
use crate::error::{MidError, MidResult};
use crate::node::{BvhNode, Node};
use crate::primitives::Primitives;
use crate::volume::HierarchyVolume;
use cd_geom::{Point, Real};
use core::marker::PhantomData;

/// A binary bounding-volume hierarchy over a primitive set.
///
/// Layout: `nodes[0]` is the root; a node's two children are adjacent and come after it, so a
/// sweep in reverse array order visits children before parents (that is how
/// [`refit`](Bvh::refit) works); every node covers a contiguous range of
/// [`primitive_order`](Bvh::primitive_order). The hierarchy stores primitive *indices*: the
/// primitives stay with the caller, who passes them to queries' leaf tests.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Bvh<T: Real, const D: usize, B> {
    nodes: Vec<Node<B>>,
    order: Vec<u32>,
    #[cfg_attr(feature = "serde", serde(skip))]
    _scalar: PhantomData<T>,
}

/// Size and quality figures of a hierarchy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BvhStats {
    /// Nodes, leaves included.
    pub nodes: usize,
    /// Leaves.
    pub leaves: usize,
    /// Longest root-to-leaf path in edges.
    pub depth: usize,
    /// Largest primitive count of a leaf.
    pub max_leaf_size: usize,
    /// Surface-area-heuristic cost with unit traversal and intersection costs:
    /// `Σ_interior A(n)/A(root) + Σ_leaves A(n)/A(root) · |n|`. Lower is better for rays.
    pub sah_cost: f64,
    /// The same sum with volumes instead of areas (the overlap-query analogue).
    pub volume_cost: f64,
}

impl<T: Real, const D: usize, B: HierarchyVolume<T, D>> Bvh<T, D, B> {
    /// Builds with the default configuration (binned SAH, leaves of up to 2 primitives).
    /// Errors: an empty set, an invalid primitive.
    pub fn new<P: Primitives<T, D> + ?Sized>(prims: &P) -> MidResult<Self> {
        Bvh::build(prims, &BuildConfig::default())
    }

    /// Builds with the given configuration. Errors: an empty set, an invalid primitive, a bad
    /// configuration value.
    pub fn build<P: Primitives<T, D> + ?Sized>(prims: &P, config: &BuildConfig) -> MidResult<Self> {
        let topology = build_topology(prims, prim_refs(prims)?, config)?;
        Bvh::from_topology(topology, prims)
    }

    fn from_topology<P: Primitives<T, D> + ?Sized>(topology: Topology<T, D>, prims: &P) -> MidResult<Self> {
        let Topology { nodes: topo, order, ordered } = topology;
        let mut nodes: Vec<Node<B>> = Vec::with_capacity(topo.len());
        // Placeholder volumes are overwritten by the refit below; fit the root's first
        // primitive so no value is ever uninitialised.
        let mut scratch = Vec::new();
        prims.points(order[0] as usize, &mut scratch);
        let seed = B::fit(&scratch)?;
        nodes.extend(topo.iter().map(|t| Node {
            volume: seed,
            first_child: t.first_child,
            start: t.start,
            count: t.count,
        }));
        let mut bvh = Bvh { nodes, order, _scalar: PhantomData };
        if !bvh.fit_boxes(&ordered) {
            bvh.fit_volumes(prims, &mut scratch)?;
        }
        Ok(bvh)
    }

    /// Fits every volume from the builder's references, in the hierarchy's order, when the
    /// volume type holds boxes exactly ([`HierarchyVolume::from_box`]): a leaf is the union of
    /// its references' boxes (the boxes of its primitives, as the builder measured them), a
    /// parent the merge of its children, as [`fit_volumes`](Self::fit_volumes) would give for
    /// primitives whose box is that of their points (every `Primitives` of this crate). A
    /// sequential read of the references in place of a gather of every primitive's points.
    /// `false` (nothing done) when the references are not those of the order or the type is
    /// not a box merged exactly.
    fn fit_boxes(&mut self, ordered: &[PrimRef<T, D>]) -> bool {
        let in_order =
            ordered.len() == self.order.len() && ordered.iter().zip(&self.order).all(|(r, &p)| r.index == p);
        if !in_order || B::FIT_PARENTS_TO_POINTS || B::from_box(&ordered[0].lo, &ordered[0].hi).is_none() {
            return false;
        }
        for i in (0..self.nodes.len()).rev() {
            let node = self.nodes[i];
            let volume = if node.first_child == 0 {
                let refs = &ordered[node.primitives()];
                let (lo, hi) = refs[1..].iter().fold((refs[0].lo, refs[0].hi), |(lo, hi), r| {
                    (min_point(&lo, &r.lo), max_point(&hi, &r.hi))
                });
                match B::from_box(&lo, &hi) {
                    Some(v) => v,
                    None => return false,
                }
            } else {
                let c = node.first_child as usize;
                self.nodes[c].volume.merged(&self.nodes[c + 1].volume)
            };
            self.nodes[i].volume = volume;
        }
        true
    }

    /// Recomputes every volume in reverse array order: leaves from their primitives, parents
    /// from their children (merged, or refitted to the subtree's points for volume types whose
    /// merge loosens; see [`HierarchyVolume::FIT_PARENTS_TO_POINTS`]). Returns the number of
    /// volumes updated (the seed's `n_u`).
    fn fit_volumes<P: Primitives<T, D> + ?Sized>(
        &mut self,
        prims: &P,
        scratch: &mut Vec<Point<T, D>>,
    ) -> MidResult<u64> {
        for i in (0..self.nodes.len()).rev() {
            let node = self.nodes[i];
            let volume = if node.first_child == 0 || B::FIT_PARENTS_TO_POINTS {
                scratch.clear();
                for &p in &self.order[node.primitives()] {
                    prims.points(p as usize, scratch);
                }
                B::fit(scratch)?
            } else {
                let c = node.first_child as usize;
                self.nodes[c].volume.merged(&self.nodes[c + 1].volume)
            };
            self.nodes[i].volume = volume;
        }
        Ok(self.nodes.len() as u64)
    }

    /// Refits every volume to moved primitives with the same connectivity (a deforming mesh),
    /// bottom-up in one reverse sweep, keeping the tree's shape. Returns the number of volumes
    /// updated. Errors: a different primitive count, an invalid primitive.
    ///
    /// The shape may degrade as the primitives move: compare [`stats`](Bvh::stats)'
    /// `sah_cost` with the value after the last build and rebuild when it grows too much
    /// (see [`needs_rebuild`](Bvh::needs_rebuild)).
    pub fn refit<P: Primitives<T, D> + ?Sized>(&mut self, prims: &P) -> MidResult<u64> {
        if prims.count() != self.order.len() {
            return Err(MidError::CountMismatch { expected: self.order.len(), found: prims.count() });
        }
        self.fit_volumes(prims, &mut Vec::new())
    }

    /// The rebuild heuristic for deforming meshes: has the SAH cost grown beyond `ratio` times
    /// `built_cost` (the [`BvhStats::sah_cost`] right after the last build)? A ratio around
    /// 1.5–2 is typical.
    pub fn needs_rebuild(&self, built_cost: f64, ratio: f64) -> bool {
        self.stats().sah_cost > built_cost * ratio
    }

    /// Checks every invariant against the primitives: the layout (parents before adjacent
    /// children, ranges partitioning the order, each primitive exactly once) and containment
    /// (every node's volume contains its primitives' points). For tests and debugging: O(n log n).
    pub fn validate<P: Primitives<T, D> + ?Sized>(&self, prims: &P) -> Result<(), String> {
        let n = prims.count();
        let mut seen = vec![false; n];
        for &p in &self.order {
            let p = p as usize;
            if p >= n || seen[p] {
                return Err(format!("primitive {p} missing or repeated in the order"));
            }
            seen[p] = true;
        }
        if self.order.len() != n {
            return Err("order length differs from the primitive count".into());
        }
        let root = &self.nodes[0];
        if root.primitives() != (0..n) {
            return Err("root does not cover every primitive".into());
        }
        let mut scratch = Vec::new();
        for (i, node) in self.nodes.iter().enumerate() {
            if !node.is_leaf() {
                let c = node.children();
                if c.start <= i || c.end > self.nodes.len() {
                    return Err(format!("node {i}: children {c:?} not after it"));
                }
                let (l, r) = (&self.nodes[c.start], &self.nodes[c.start + 1]);
                if l.start != node.start || r.start != l.start + l.count || l.count + r.count != node.count {
                    return Err(format!("node {i}: children's ranges do not split its range"));
                }
                if l.count == 0 || r.count == 0 {
                    return Err(format!("node {i}: empty child"));
                }
            }
            scratch.clear();
            for &p in &self.order[node.primitives()] {
                prims.points(p as usize, &mut scratch);
            }
            if let Some(p) = scratch.iter().find(|p| !node.volume.contains_point(p)) {
                return Err(format!("node {i}: point {p:?} outside its volume"));
            }
        }
        Ok(())
    }

    /// Size and quality figures.
    pub fn stats(&self) -> BvhStats {
        let root_area = self.nodes[0].volume.surface_area().to_f64().max(f64::MIN_POSITIVE);
        let root_volume = self.nodes[0].volume.volume().to_f64().max(f64::MIN_POSITIVE);
        let mut depth = vec![0usize; self.nodes.len()];
        let mut s = BvhStats {
            nodes: self.nodes.len(),
            leaves: 0,
            depth: 0,
            max_leaf_size: 0,
            sah_cost: 0.0,
            volume_cost: 0.0,
        };
        for (i, node) in self.nodes.iter().enumerate() {
            let a = node.volume.surface_area().to_f64() / root_area;
            let v = node.volume.volume().to_f64() / root_volume;
            s.depth = s.depth.max(depth[i]);
            if node.is_leaf() {
                s.leaves += 1;
                s.max_leaf_size = s.max_leaf_size.max(node.count as usize);
                s.sah_cost += a * node.count as f64;
                s.volume_cost += v * node.count as f64;
            } else {
                s.sah_cost += a;
                s.volume_cost += v;
                for c in node.children() {
                    depth[c] = depth[i] + 1;
                }
            }
        }
        s
    }
}

impl<T: Real, const D: usize, B> Bvh<T, D, B> {
    /// The nodes; `nodes()[0]` is the root.
    #[inline(always)]
    pub fn nodes(&self) -> &[Node<B>] {
        &self.nodes
    }

    /// The primitive order: node ranges index into it; its values are primitive indices.
    #[inline(always)]
    pub fn primitive_order(&self) -> &[u32] {
        &self.order
    }

    /// The root's volume: contains every primitive.
    pub fn root_volume(&self) -> &B {
        &self.nodes[0].volume
    }

    /// Number of primitives.
    pub fn primitive_count(&self) -> usize {
        self.order.len()
    }

    /// Replaces one node's volume (for the lazy update, which refits nodes one at a time).
    pub(crate) fn set_volume(&mut self, i: usize, volume: B) {
        self.nodes[i].volume = volume;
    }
}
