//! The lazy hybrid update for deforming meshes (Larsson and Akenine-Möller 2001): each frame,
//! refit only the top half of the tree eagerly — the nodes at half the depth from their
//! primitives, the levels above bottom-up — and leave the deeper nodes stale; a query refits a
//! stale node from its primitives only when its traversal reaches it. Parts of the model no
//! query comes near are never updated.
//!
//! Results equal those of a full refit (a stale node is always refitted before its volume is
//! used); the saving shows in `QueryStats::volume_updates`.

use crate::bvh::Bvh;
use crate::error::{MidError, MidResult};
use crate::motion::Motion;
use crate::node::BvhNode;
use crate::primitives::Primitives;
use crate::query::{pairs::descend_from, QueryWorkspace};
use crate::volume::HierarchyVolume;
use cd_geom::{Point, Real};
use core::ops::ControlFlow;

/// A hierarchy over deforming primitives with the lazy hybrid update.
#[derive(Clone, Debug)]
pub struct LazyRefit<T: Real, const D: usize, B> {
    bvh: Bvh<T, D, B>,
    depth: Vec<u32>,
    /// Nodes at this depth are refitted eagerly from their primitives; deeper ones lazily.
    eager_depth: u32,
    stale: Vec<bool>,
    /// Per-node refitted volumes of the current query (kept between queries: no allocation
    /// per query once grown).
    cache: Vec<Option<B>>,
    scratch: Vec<Point<T, D>>,
}

impl<T: Real, const D: usize, B: HierarchyVolume<T, D>> LazyRefit<T, D, B> {
    /// Wraps a built hierarchy (fresh: nothing stale yet).
    pub fn new(bvh: Bvh<T, D, B>) -> Self {
        let nodes = bvh.nodes();
        let mut depth = vec![0u32; nodes.len()];
        for (i, n) in nodes.iter().enumerate() {
            for c in n.children() {
                depth[c] = depth[i] + 1;
            }
        }
        let max = depth.iter().copied().max().unwrap_or(0);
        let stale = vec![false; nodes.len()];
        LazyRefit { bvh, depth, eager_depth: max / 2, stale, cache: Vec::new(), scratch: Vec::new() }
    }

    /// The hierarchy (deep volumes may be stale until a query refits them).
    pub fn bvh(&self) -> &Bvh<T, D, B> {
        &self.bvh
    }

    /// Number of nodes currently stale.
    pub fn stale_count(&self) -> usize {
        self.stale.iter().filter(|&&s| s).count()
    }

    /// The eager half of a frame's update after the primitives moved (same count): nodes at
    /// half the depth, and leaves above it, are fitted to their primitives; their ancestors are
    /// refitted bottom-up; every deeper node becomes stale. Returns the number of volumes
    /// updated. Errors: a different primitive count, an invalid primitive.
    pub fn update<P: Primitives<T, D> + ?Sized>(&mut self, prims: &P) -> MidResult<u64> {
        let expected = self.bvh.primitive_count();
        if prims.count() != expected {
            return Err(MidError::CountMismatch { expected, found: prims.count() });
        }
        let mut updates = 0u64;
        let mut scratch = Vec::new();
        for i in (0..self.bvh.nodes().len()).rev() {
            let d = self.depth[i];
            let node = self.bvh.nodes()[i];
            if d > self.eager_depth {
                self.stale[i] = true;
                continue;
            }
            let volume = if d == self.eager_depth || node.is_leaf() || B::FIT_PARENTS_TO_POINTS {
                fit_node(&self.bvh, i, prims, &mut scratch)?
            } else {
                let c = node.children().start;
                self.bvh.nodes()[c].volume().merged(self.bvh.nodes()[c + 1].volume())
            };
            self.bvh.set_volume(i, volume);
            self.stale[i] = false;
            updates += 1;
        }
        Ok(updates)
    }

    /// Every primitive pair (this model's, `other`'s placed by `motion`) whose leaf test is
    /// true, refitting stale nodes of this model on the way (counted as volume updates).
    /// Sorted.
    pub fn overlapping_pairs<P, NB>(
        &mut self,
        prims: &P,
        (b_nodes, b_order): (&[NB], &[u32]),
        motion: &Motion<T, D>,
        ws: &mut QueryWorkspace<T>,
        mut overlap: impl FnMut(u32, u32) -> bool,
    ) -> Vec<(u32, u32)>
    where
        P: Primitives<T, D> + ?Sized,
        NB: BvhNode<B>,
    {
        let mut out = Vec::new();
        if b_nodes.is_empty() {
            return out;
        }
        let mut refreshed: Vec<usize> = Vec::new();
        let mut cache = core::mem::take(&mut self.cache);
        cache.clear();
        cache.resize(self.bvh.nodes().len(), None);
        let mut scratch = core::mem::take(&mut self.scratch);
        {
            let (bvh, stale) = (&self.bvh, &self.stale);
            let nodes = bvh.nodes();
            let mut test = |x: u32, y: u32| {
                let x = x as usize;
                let a = if stale[x] {
                    if cache[x].is_none() {
                        // Primitives were validated by `update`; a failure cannot occur, and
                        // the node's old volume is the conservative fallback if it did.
                        let v = fit_node(bvh, x, prims, &mut scratch).unwrap_or(*nodes[x].volume());
                        cache[x] = Some(v);
                        refreshed.push(x);
                    }
                    cache[x].as_ref().unwrap_or(nodes[x].volume())
                } else {
                    nodes[x].volume()
                };
                a.overlaps_moved(b_nodes[y as usize].volume(), motion)
            };
            let mut leaf = |p: u32, q: u32| {
                if overlap(p, q) {
                    out.push((p, q));
                }
                ControlFlow::Continue(())
            };
            descend_from((nodes, bvh.primitive_order()), (b_nodes, b_order), 0, 0, ws, &mut test, &mut leaf);
        }
        ws.stats.volume_updates += refreshed.len() as u64;
        for i in refreshed {
            if let Some(v) = cache[i] {
                self.bvh.set_volume(i, v);
                self.stale[i] = false;
            }
        }
        self.cache = cache;
        self.scratch = scratch;
        out.sort_unstable();
        out
    }
}

/// The volume of node `i` fitted to its primitives' points.
fn fit_node<T: Real, const D: usize, B: HierarchyVolume<T, D>, P: Primitives<T, D> + ?Sized>(
    bvh: &Bvh<T, D, B>,
    i: usize,
    prims: &P,
    scratch: &mut Vec<Point<T, D>>,
) -> MidResult<B> {
    scratch.clear();
    for &p in &bvh.primitive_order()[bvh.nodes()[i].primitives()] {
        prims.points(p as usize, scratch);
    }
    Ok(B::fit(scratch)?)
}
