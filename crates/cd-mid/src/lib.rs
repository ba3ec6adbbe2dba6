//! # `cd-mid` — mid phase
//!
//! Bounding-volume hierarchies over one model: the `BvhNode` trait, builders, BVH-vs-BVH traversal, OBB trees, k-DOP trees, refit, front tracking, time-critical traversal and BSP swept queries. Seed: Real-Time Rendering ch. 25.2–25.5 and the lecture slides. Depends on `cd-geom` and `cd-bv`.
//!
//! **Status:** this layer's crate exists so the workspace has its final shape and dependency
//! arrows (see `docs/ARCHITECTURE.md`); its algorithms land with their own issue. Until then it
//! re-exports nothing beyond the layer below it.
#![forbid(unsafe_code)]
