//! # `cd-narrow` — narrow phase
//!
//! Exact tests between two convex or primitive shapes: GJK (distance, closest points), EPA (penetration), SAT with a minimum translation vector, specialised primitive pairs and contact manifolds. Seed: Real-Time Rendering ch. 25.6–25.7 and the SAT/GJK/EPA notes. Depends on `cd-geom` only.
//!
//! **Status:** this layer's crate exists so the workspace has its final shape and dependency
//! arrows (see `docs/ARCHITECTURE.md`); its algorithms land with their own issue. Until then it
//! re-exports nothing beyond the layer below it.
#![forbid(unsafe_code)]
