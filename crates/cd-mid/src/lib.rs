//! # `cd-mid` — mid phase
//!
//! Bounding-volume hierarchies over one model (a triangle mesh or any primitive set) and the
//! queries between such models: which primitive pairs of two models (or of one model with
//! itself) may collide, which primitives a ray hits, which lie in a region, how far apart two
//! models are. Seed: Real-Time Rendering ch. 25.2–25.5 and the lecture notes on BVHs.
//!
//! ## Pieces
//! - [`HierarchyVolume`]: what a hierarchy needs from its volume type, on top of cd-geom's
//!   [`BoundingVolume`](cd_geom::BoundingVolume); implemented for [`Aabb`](cd_geom::Aabb),
//!   [`Ball`](cd_geom::Ball), [`Obb`](cd_geom::Obb) and every [`Kdop`](cd_geom::Kdop).
//! - [`Primitives`]: the set a hierarchy is built over (a [`TriMesh`], triangle, box, ball or
//!   point slices, or a user's own set).
//! - [`Bvh`]: a binary hierarchy stored flat (parents before their adjacent children, every node
//!   a contiguous primitive range), built by any [`Builder`] — median, binned SAH (area or
//!   volume cost), LBVH, PLOC, incremental insertion — and refitted in one reverse sweep.
//! - [`WideBvh`]: the same hierarchy collapsed to 4- or 8-wide nodes whose child boxes a ray
//!   tests together (lane-by-lane storage the compiler vectorizes).
//! - [`BvhNode`]: the node trait the traversals in [`query`] are written against.
//! - [`query`]: ray casts (closest, any, all), region queries (AABB, ball, frustum),
//!   model-vs-model overlap (all pairs, first hit) across a rigid [`Motion`], self-collision,
//!   point and model distance — each with the caller's leaf test and the seed's cost counters
//!   ([`QueryStats`]).
//! - [`LazyRefit`]: the lazy hybrid update for deforming meshes (eager top half, deep nodes
//!   refitted only where a query reaches them).
//! - [`MeshBvh`]: a mesh with its hierarchy and the triangle tests plugged in.
//! - [`KdopTree`]: Klosowski's k-DOP tree with the approximate and the tight (hull hill
//!   climbing) update of rotated DOPs.
//! - [`SolidBsp`]: Melax's solid-leaf BSP tree with dynamic plane shifting, for swept points,
//!   spheres, cylinders and convex hulls against a closed mesh.
//! - [`deformable_overlaps`]: the seed's overlap method for deforming models, an implicit octree
//!   over the overlap of the two models' boxes (no hierarchy to maintain).
//!
//! ```
//! use cd_geom::{Aabb, Ray};
//! use cd_mid::{Motion, MeshBvh, QueryWorkspace, TriMesh};
//! use nalgebra::{Point3, Vector3};
//!
//! // A unit square made of two triangles.
//! let mesh = TriMesh::new(
//!     vec![Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(1.0, 1.0, 0.0), Point3::new(0.0, 1.0, 0.0)],
//!     vec![[0, 1, 2], [0, 2, 3]],
//! )
//! .unwrap();
//! let model: MeshBvh<f64, Aabb<f64, 3>> = MeshBvh::new(mesh).unwrap();
//! let mut ws = QueryWorkspace::new();
//! let ray = Ray::new(Point3::new(0.25, 0.75, 1.0), Vector3::new(0.0, 0.0, -1.0)).unwrap();
//! let hit = model.cast_ray(&ray, &mut ws).unwrap();
//! assert_eq!((hit.triangle, hit.t), (1, 1.0));
//! // The square against itself lifted by 0.5: no overlap; lowered back: both triangles touch both.
//! let up = Motion::translation(Vector3::new(0.0, 0.0, 0.5));
//! assert!(model.overlapping_triangles(&model, &up, &mut ws).is_empty());
//! assert_eq!(model.overlapping_triangles(&model, &Motion::identity(), &mut ws).len(), 4);
//! ```
#![forbid(unsafe_code)]

mod bsp;
mod build;
mod bvh;
mod error;
mod kdop_tree;
mod lazy_refit;
mod mesh;
mod mesh_queries;
mod motion;
mod node;
mod obj;
mod octree_overlap;
mod primitives;
pub mod query;
mod volume;
mod wide;

pub use bsp::{BspHit, SolidBsp};
pub use build::{BuildConfig, Builder, SplitRule};
pub use bvh::{Bvh, BvhStats};
pub use error::{MidError, MidResult};
pub use kdop_tree::{DopUpdate, KdopTree};
pub use lazy_refit::LazyRefit;
pub use mesh::TriMesh;
pub use mesh_queries::{MeshBvh, MeshClosest, MeshRayHit};
pub use motion::Motion;
pub use node::{BvhNode, Node};
pub use octree_overlap::{deformable_overlaps, OctreeConfig};
pub use primitives::Primitives;
pub use query::{QueryStats, QueryWorkspace};
pub use volume::{rounding_pad, HierarchyVolume, SatLiteObb, VolumeRay};
pub use wide::{WideBvh, WideNode};

/// This crate's `README.md` example, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
