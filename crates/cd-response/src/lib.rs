//! # `cd-response` — collision response
//!
//! What happens after contact. Seed: Real-Time Rendering ch. 25.9 (reflection, the normal and
//! tangential split, restitution); the impulse solver follows Catto's sequential impulses.
//! Depends on `cd-geom` only: contacts come in as plain points and normals, so any narrow
//! phase can feed it.
//!
//! | module | what |
//! |---|---|
//! | [`reflect`](mod@reflect) | the seed's reflection `v' = v_p − k v_n` with restitution and Coulomb friction; moving a swept body through a step with its bounce |
//! | [`mass`] | mass, centre of mass and inertia tensor of every solid (ball, box, capsule, cylinder, cone, convex polyhedron, closed mesh) and of compounds |
//! | [`body`] | a rigid body (pose, mass properties, velocity), impulses on it, semi-implicit Euler integration |
//! | [`impulse`] | the impulse at one contact between two bodies with restitution and friction |
//! | [`solver`] | sequential impulses over all contact manifolds of a step, warm-started by feature id, with split-impulse or Baumgarte position correction |
//! | [`particles`] | point particles bouncing off planes, signed-distance grids or any segment test (meshes in the facade); particle–particle collisions through a sorted grid |
#![forbid(unsafe_code)]

pub mod body;
pub mod impulse;
pub mod mass;
pub mod particles;
pub mod reflect;
pub mod solver;

pub use body::RigidBody;
pub use impulse::{resolve_contact, ContactImpulse};
pub use mass::MassProperties;
pub use particles::{neighbor_pairs, planes_hit, DistanceGrid, ParticleSystem, SegmentHit};
pub use reflect::{advance_with_bounce, reflect, Material};
pub use solver::{
    ContactManifold, ContactPoint, ContactSolver, PositionCorrection, SolveReport, SolverConfig, SolverError,
    MAX_CONTACT_POINTS,
};

/// This crate's `README.md` example, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
