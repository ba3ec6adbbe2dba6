//! # `cd-bv` — bounding-volume construction
//!
//! Builds bounding volumes from point sets and meshes: AABBs and k-DOPs by projection, spheres (AABB-centred, Ritter 1990, exact Welzl 1991), OBBs (PCA, PCA on the hull, Larsson–Källberg DiTO) and convex hulls. Seed: Real-Time Rendering ch. 22.3. Depends on `cd-geom` only.
//!
//! **Status:** this layer's crate exists so the workspace has its final shape and dependency
//! arrows (see `docs/ARCHITECTURE.md`); its algorithms land with their own issue. Until then it
//! re-exports nothing beyond the layer below it.
#![forbid(unsafe_code)]
