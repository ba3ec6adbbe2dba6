//! # `cd-broad` — broad phase
//!
//! The `BroadPhase` trait and its strategies: brute force (reference), sweep-and-prune with temporal coherence, uniform grid, spatial hash, hierarchical grid and dynamic AABB tree. Seed: Real-Time Rendering ch. 25.1 and the SAP notes. Depends on `cd-geom` only.
//!
//! **Status:** this layer's crate exists so the workspace has its final shape and dependency
//! arrows (see `docs/ARCHITECTURE.md`); its algorithms land with their own issue. Until then it
//! re-exports nothing beyond the layer below it.
#![forbid(unsafe_code)]
