//! # `cd-narrow` — narrow phase
//!
//! Exact tests between two convex shapes: are they touching, how far apart, how deep, and
//! where. Seed: Real-Time Rendering ch. 25.6–25.7 (GJK, EPA, SAT) and the notes on 2D GJK/EPA
//! and SAT with a minimum translation vector. Depends on `cd-geom` only.
//!
//! | module | algorithm |
//! |---|---|
//! | [`gjk`] | GJK distance, witness points and boolean test (van den Bergen 1999) with warm starts |
//! | [`simplex`] | GJK's sub-algorithm: signed volumes (Montanari et al. 2017) |
//! | [`mod@epa`] | EPA penetration depth (van den Bergen 2001), 2D polygon and 3D horizon expansion |
//! | [`convex`] | GJK + EPA on core shapes plus radii, giving one [`Contact`] |
//! | [`mpr`] | MPR boolean test and penetration (Snethen's XenoCollide 2008) |
//! | [`sat_obb`] | SAT with minimum translation vector for two boxes, with a cached axis |
//! | [`sat_polygon`] | 2D convex polygon (and 2D box) SAT with MTV, inner-circle culling, cached axis |
//! | [`sat_polyhedron`] | convex polyhedron SAT with Gauss-map pruning, manifolds by face clipping |
//! | [`box_triangle`] | box/triangle 13-axis SAT with minimum translation and clipped manifolds |
//! | [`box_box`] | box/box contact manifolds by reference/incident face clipping; the separated contact from SAT's axis or the nearest vertices |
//! | [`mod@manifold`] | contact manifolds (up to four points with feature ids); other pairs' manifolds by clipping support features (faces, edges) |
//! | [`internal_edges`] | triangle-mesh contacts without ghost collisions at shared edges |
//! | [`pairs`] | analytic contacts: balls, boxes, capsules, triangles, half-spaces |
//! | [`dispatch`] | one entry point per query for any two shapes: [`contact`], [`intersects`], [`distance`], [`manifold()`] |
//! | [`dispatch2`] | the same in 2D: [`contact_2d`], [`intersects_2d`], [`distance_2d`] |
//!
//! ## Conventions
//!
//! Every query takes A then B and answers in world space with a [`Contact`]: the unit `normal`
//! points from A to B, `distance` is signed (negative = penetration depth), `point_a` and
//! `point_b` are the witness points (closest points when separated, deepest points when
//! penetrating), and `status` says whether the answer converged, hit an iteration cap, came
//! from a degenerate configuration, or could not be resolved in floating point (an upper bound,
//! never a claim). Swapping A and B gives [`Contact::flipped`] up to
//! the tolerances. Shapes are anything implementing [`cd_geom::SupportMap`], in 2D or 3D;
//! place them in the world with [`cd_geom::Transformed`].
//!
//! ## Which entry point
//!
//! * Most users: the dispatchers ([`contact`], [`manifold()`], [`intersects`], [`distance`] and
//!   their 2D versions). They pick the closed form, SAT or GJK/EPA per pair. Keep one
//!   [`PairCache`] per pair between frames (GJK direction, SAT axis): separated pairs are then
//!   usually settled by one support call or one axis.
//! * A contact solver: [`manifold()`] with a small positive prediction (speculative contacts),
//!   and [`fix_internal_edge`] for triangles of a mesh.
//! * A user shape: implement [`cd_geom::SupportMap`] (and `interior_point` if it has a cheap
//!   centre) and pass it as `Shape::Convex`, or call [`gjk_distance`] / [`convex_contact`]
//!   directly.
//! * When speed matters more than the exact minimum translation: [`mpr_contact`] (5–8× faster
//!   than GJK + EPA on penetrating hulls, depth a few percent deeper than the minimum).
#![forbid(unsafe_code)]

pub use cd_geom::{Contact, ContactStatus};

pub mod box_box;
pub mod box_triangle;
mod clip;
pub mod convex;
pub mod dispatch;
pub mod dispatch2;
pub mod epa;
mod epa2;
mod epa3;
mod features;
pub mod gjk;
pub mod internal_edges;
pub mod manifold;
mod moved;
pub mod mpr;
pub mod pairs;
pub mod sat_obb;
pub mod sat_polygon;
pub mod sat_polyhedron;
mod scratch;
pub mod simplex;
#[cfg(test)]
mod test_support;

pub use box_box::{box_box_contact, box_box_manifold};
pub use box_triangle::{box_triangle_contact, box_triangle_manifold};
pub use convex::{convex_contact, convex_contact_within, convex_intersects, ConvexConfig};
pub use dispatch::{contact, distance, intersects, manifold, NarrowError, PairCache, Shape};
pub use dispatch2::{contact_2d, distance_2d, intersects_2d, PairCache2, Shape2};
pub use epa::{epa, EpaConfig, Penetration};
pub use gjk::{
    gjk_distance, gjk_distance_within, gjk_intersects, GjkCache, GjkConfig, GjkResult, GjkStatus,
    Intersection,
};
pub use internal_edges::{fix_internal_edge, TriangleNeighbors};
pub use manifold::{Manifold, ManifoldPoint, MAX_MANIFOLD_POINTS};
pub use mpr::{mpr_contact, mpr_intersects, MprConfig};
pub use pairs::*;
pub use sat_obb::{obb_obb_sat, obb_obb_sat_face_preferring, BoxFeature, BoxSat, SatCache};
pub use sat_polygon::{
    obb_obb_contact_2d, polygon_polygon_contact, polygon_polygon_sat, PolygonSat, PolygonSatCache,
};
pub use sat_polyhedron::{hull_hull_manifold, hull_hull_sat, HullFeature, HullSat, HullSatCache, PlacedHull};
pub use simplex::{Simplex, SimplexVertex};

/// This crate's `README.md` example, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
