//! [`KdopTree`]: Klosowski et al.'s k-DOP tree (1998) for triangle meshes, with both ways of
//! carrying a k-DOP through a rotation.
//!
//! A k-DOP is only a k-DOP in its own frame: after model B turns, its nodes' slabs no longer
//! face the k fixed directions of model A. Two updates give a DOP in A's directions:
//!
//! - [`DopUpdate::Approximate`]: the DOP of the rotated corners of the node's axis box (cheap,
//!   looser; what a plain `Bvh<Kdop>` does);
//! - [`DopUpdate::Tight`]: the exact DOP of the node's geometry after the motion, from the
//!   node's convex hull: for each direction `n` of A, the extreme vertex along `Rᵀn` found by
//!   hill climbing over the hull's adjacency (the seed's "hill climbing on the hull vertices").
//!
//! Each node keeps its hull (computed at build time), so the tight update costs a few support
//! queries per volume test instead of a pass over the node's primitives.

use crate::build::{BuildConfig, Builder, SplitRule};
use crate::bvh::Bvh;
use crate::error::MidResult;
use crate::mesh::TriMesh;
use crate::motion::Motion;
use crate::node::BvhNode;
use crate::primitives::Primitives;
use crate::query::{pairs::descend_from, QueryWorkspace};
use crate::volume::kdop_of_moved_axis_box;
use cd_bv::{convex_hull, Hull};
use cd_geom::{triangle_triangle, Kdop, Point, Real, SupportMap, Triangle, Vector};
use core::ops::ControlFlow;

/// How a rotated node's DOP is bounded in the other model's directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DopUpdate {
    /// Re-bound the rotated corners of the node's axis box (loose, cheap).
    Approximate,
    /// The exact DOP of the node's hull after the motion (tight, a few hill climbs per test).
    Tight,
}

/// A k-DOP tree over a triangle mesh: `N` slab directions (9 for the 18-DOP), several
/// triangles per leaf, a [`SplitRule`], and each node's convex hull for tight rotation.
#[derive(Clone, Debug)]
pub struct KdopTree<T: Real, const N: usize> {
    mesh: TriMesh<T>,
    bvh: Bvh<T, 3, Kdop<T, 3, N>>,
    hulls: Vec<Hull<T>>,
}

/// The extreme point of a hull along `d`.
fn hull_support<T: Real>(hull: &Hull<T>, d: &Vector<T, 3>) -> Point<T, 3> {
    let best = |pts: &mut dyn Iterator<Item = Point<T, 3>>| {
        pts.fold((None::<Point<T, 3>>, -T::infinity()), |(bp, bs), p| {
            let s = d.dot(&p.coords);
            if s > bs {
                (Some(p), s)
            } else {
                (bp, bs)
            }
        })
        .0
    };
    match hull {
        Hull::Point(p) => *p,
        Hull::Segment(a, b) => best(&mut [*a, *b].into_iter()).unwrap_or(*a),
        // Also the fallback for sets quickhull rejected: a scan over all points.
        Hull::Polygon(v) => best(&mut v.iter().copied()).unwrap_or_else(Point::origin),
        Hull::Polyhedron(p) => p.support(d),
    }
}

impl<T: Real, const N: usize> KdopTree<T, N> {
    /// Builds the tree with `rule`, leaves of up to `leaf_size` triangles, and every node's
    /// hull. Errors: an empty mesh, a bad leaf size, an unsupported direction count.
    pub fn build(mesh: TriMesh<T>, rule: SplitRule, leaf_size: usize) -> MidResult<Self> {
        let config = BuildConfig::with_builder(Builder::KdopTree(rule)).leaf_size(leaf_size);
        let bvh: Bvh<T, 3, Kdop<T, 3, N>> = Bvh::build(&mesh, &config)?;
        let mut scratch = Vec::new();
        let hulls = bvh
            .nodes()
            .iter()
            .map(|node| {
                scratch.clear();
                for &p in &bvh.primitive_order()[node.primitives()] {
                    mesh.points(p as usize, &mut scratch);
                }
                // Quickhull can reject a nearly degenerate set (it validates its result's
                // convexity); the support of all the points is the hull's support too, only
                // found by a scan instead of hill climbing.
                convex_hull(&scratch).unwrap_or_else(|_| Hull::Polygon(scratch.clone()))
            })
            .collect::<Vec<_>>();
        Ok(KdopTree { mesh, bvh, hulls })
    }

    /// The mesh.
    pub fn mesh(&self) -> &TriMesh<T> {
        &self.mesh
    }

    /// The hierarchy.
    pub fn bvh(&self) -> &Bvh<T, 3, Kdop<T, 3, N>> {
        &self.bvh
    }

    /// The slab intervals of node `node` after `motion`, in the DOP directions, by `update`.
    pub fn moved_slabs(&self, node: usize, motion: &Motion<T, 3>, update: DopUpdate) -> ([T; N], [T; N]) {
        let volume = self.bvh.nodes()[node].volume();
        let dirs = volume.directions();
        match update {
            DopUpdate::Approximate => kdop_of_moved_axis_box(volume, motion),
            DopUpdate::Tight => {
                let hull = &self.hulls[node];
                let rt = motion.rotation.transpose();
                // Along a direction n of A: extremes of n·(R v + t) over the hull are
                // n·t + (Rᵀn)·v at the hull's support points along ∓Rᵀn.
                let lo = core::array::from_fn(|k| {
                    let local = rt * dirs[k];
                    dirs[k].dot(&motion.translation) + local.dot(&hull_support(hull, &-local).coords)
                });
                let hi = core::array::from_fn(|k| {
                    let local = rt * dirs[k];
                    dirs[k].dot(&motion.translation) + local.dot(&hull_support(hull, &local).coords)
                });
                (lo, hi)
            }
        }
    }

    /// Every intersecting triangle pair (this mesh's, `other`'s) with `other` placed by
    /// `motion`, B's node DOPs carried over by `update`. Sorted.
    pub fn overlapping_triangles(
        &self,
        other: &KdopTree<T, N>,
        motion: &Motion<T, 3>,
        update: DopUpdate,
        ws: &mut QueryWorkspace<T>,
    ) -> Vec<(u32, u32)> {
        let (a_nodes, b_nodes) = (self.bvh.nodes(), other.bvh.nodes());
        let scale =
            |lo: &[T; N], hi: &[T; N]| (0..N).fold(T::zero(), |s, k| s.max(lo[k].abs()).max(hi[k].abs()));
        let mut test = |x: u32, y: u32| {
            let a = a_nodes[x as usize].volume();
            let (lo, hi) = other.moved_slabs(y as usize, motion, update);
            // The same relative padding the volume tests use against rounding in the motion.
            let pad = T::lit(32.0) * T::epsilon() * scale(&lo, &hi);
            (0..N).all(|k| a.min()[k] <= hi[k] + pad && lo[k] - pad <= a.max()[k])
        };
        let mut out = Vec::new();
        let mut leaf = |i: u32, j: u32| {
            let [p, q, r] = other.mesh.triangle(j as usize).vertices().map(|v| motion.transform_point(&v));
            if let Ok(t) = Triangle::new(p, q, r) {
                if triangle_triangle(&self.mesh.triangle(i as usize), &t).intersects() {
                    out.push((i, j));
                }
            }
            ControlFlow::Continue(())
        };
        let before = ws.stats.volume_tests;
        descend_from(
            (a_nodes, self.bvh.primitive_order()),
            (b_nodes, other.bvh.primitive_order()),
            0,
            0,
            ws,
            &mut test,
            &mut leaf,
        );
        // Every volume test updated one of B's volumes (the seed's n_u).
        ws.stats.volume_updates += ws.stats.volume_tests - before;
        out.sort_unstable();
        out
    }
}
