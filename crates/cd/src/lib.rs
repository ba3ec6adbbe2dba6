//! # `cd` — the collision-detection facade
//!
//! One dependency for the whole pipeline: every layer is re-exported under its own name, and
//! a collision world wires them together: broad → mid → narrow → ccd → response.
//!
//! Queries that need two layers that do not know each other live here:
//! [`mesh_cast::cast_shape_mesh`] casts any convex shape against a triangle mesh through its
//! hierarchy (cd-ccd's shape cast driven by cd-mid's tree); [`posed`] ray-casts, narrows and
//! tests meshes placed by a pose.
//!
//! [`world::World`] is the whole pipeline in one object: add bodies ([`world::BodyDesc`] with a
//! [`world::ColliderShape`]), [`step`](world::World::step) it, read contacts, events and
//! timings, cast rays. [`prelude`] imports what a program needs.
//!
//! ```
//! use cd::geom::{Aabb, Ray};
//! use nalgebra::{Point3, Vector3};
//!
//! let b = Aabb::new(Point3::new(-1.0f32, -1.0, -1.0), Point3::new(1.0, 1.0, 1.0)).unwrap();
//! let ray = Ray::new(Point3::new(-5.0, 0.0, 0.0), Vector3::new(1.0, 0.0, 0.0)).unwrap();
//! assert_eq!(cd::geom::ray_aabb(&ray, &b).map(|h| h.t), Some(4.0));
//! ```
#![forbid(unsafe_code)]

pub use cd_broad as broad;
pub use cd_bv as bv;
pub use cd_ccd as ccd;
pub use cd_geom as geom;
pub use cd_mid as mid;
pub use cd_narrow as narrow;
pub use cd_response as response;

pub mod mesh_cast;
pub mod particles;
pub mod posed;
pub mod prelude;
pub mod world;

/// The README's usage example, compiled and run as a doctest.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// This crate's `README.md` example, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct CrateReadmeDoctests;
