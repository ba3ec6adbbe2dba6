//! # `cd-ccd` — continuous collision
//!
//! Discrete tests once a frame let a fast object pass through a thin wall between two
//! frames. This layer finds the **time of first contact** during a step, with the contact
//! point and normal there, for translating and rotating bodies. Seed: Real-Time Rendering
//! ch. 25.8 (dynamic intersection testing) and the standard notes on conservative
//! advancement. Depends on `cd-geom` and `cd-narrow`.
//!
//! | module | what | algorithm |
//! |---|---|---|
//! | [`motion`] | [`LinearMotion`], [`RigidMotion`] | constant velocities, validated once |
//! | [`toi`] | [`Toi`], [`ToiStatus`] | the answer of every query |
//! | [`sphere`] | [`sphere_plane`], [`sphere_halfspace`], [`sphere_sphere`] | closed form, stable quadratic (seed 25.8.1–2) |
//! | [`swept_sphere`] | [`sphere_triangle`], [`sphere_polygon`] | Minkowski "puffy" sum: face, edge cylinders, convex vertex spheres (25.8.3) |
//! | [`capsule`] | [`capsule_plane`], [`capsule_halfspace`], [`capsule_triangle`] | end spheres, vertex/side, axis/edge parallelograms |
//! | [`dynamic_sat`] | [`aabb_aabb`], [`obb_obb`], [`triangle_obb`], [`obb_triangle`], [`triangle_triangle`] | dynamic SAT: per-axis entry/exit times (25.8.4) |
//! | [`mod@shape_cast`] | [`shape_cast()`], [`shape_cast_posed`], [`CastConfig`] | GJK ray cast for any two support maps (van den Bergen 2004) |
//! | [`advancement`] | [`conservative_advancement`], [`separating_axis_toi`] | rotation: conservative advancement (Mirtich 1996) and certified root finding on GJK's axis (after Catto 2013) |
//! | [`swept`] | [`swept_aabb`], [`swept_aabb_linear`] | boxes enclosing a whole step, for the broad phase |
//!
//! ## Conventions
//!
//! * Every query takes A then B and returns `Option<`[`Toi`]`>`: `None` when the shapes do not
//!   touch during `[0, max_time]`. Times are in the units of the velocities.
//! * Linear tests work in B's frame (B still, A moving at `v_A − v_B`, as in the seed) and
//!   report points in world space at the time of impact; the normal points from A to B.
//! * Shapes already touching at time 0 answer time 0 with [`ToiStatus::StartedInContact`];
//!   touching counts as contact, a grazing path that only touches is a hit.
//! * Closed-form tests are exact up to rounding. Iterative ones ([`shape_cast()`],
//!   [`conservative_advancement`], [`separating_axis_toi`]) stop within a relative distance
//!   tolerance and never report a time later than the true first contact; an iteration cap is
//!   reported as [`ToiStatus::IterationCap`] with a time that is still safe, and a distance
//!   floating point cannot resolve (an ill-conditioned pair where GJK stalls) as
//!   [`ToiStatus::Unresolved`], also with a safe time.
//!
//! ## Which entry point
//!
//! * Spheres, capsules, boxes and triangles translating: the closed-form tests (exact, and
//!   0.16–0.37 of parry's `cast_shapes` time on spheres and boxes; see docs/benchmarks.md).
//! * Any two convex shapes translating (hulls, cylinders, capsule pairs, user support maps):
//!   [`shape_cast_posed`] for shapes with poses, [`shape_cast()`] for world-space shapes.
//! * Rotating bodies: [`conservative_advancement`] (the default: the simplest proof and the
//!   fastest on spheres, boxes and capsules) or [`separating_axis_toi`] (fewer distance
//!   queries; ahead on larger hulls). Both are safe under any rotation speed.
//! * Broad phase over a step: [`swept_aabb`].
//! * A shape against a triangle mesh: `cd::mesh_cast::cast_shape_mesh` in the facade (this
//!   layer does not depend on the mid phase).
#![forbid(unsafe_code)]

pub mod advancement;
pub mod capsule;
pub mod dynamic_sat;
pub mod motion;
mod relative;
pub mod shape_cast;
pub mod sphere;
pub mod swept;
pub mod swept_sphere;
pub mod toi;

pub use advancement::{conservative_advancement, separating_axis_toi, MovingShape};
pub use capsule::{capsule_halfspace, capsule_plane, capsule_triangle};
pub use dynamic_sat::{aabb_aabb, obb_obb, obb_triangle, triangle_obb, triangle_triangle};
pub use motion::{LinearMotion, RigidMotion};
pub use shape_cast::{shape_cast, shape_cast_posed, CastConfig};
pub use sphere::{sphere_halfspace, sphere_plane, sphere_sphere};
pub use swept::{swept_aabb, swept_aabb_linear};
pub use swept_sphere::{sphere_polygon, sphere_triangle};
pub use toi::{Toi, ToiStatus};

/// This crate's `README.md` example, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
