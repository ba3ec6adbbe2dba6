//! # `cd-response` — collision response
//!
//! What happens after contact: reflection with restitution and friction, impulses between bodies and position correction. Seed: Real-Time Rendering ch. 25.9. Depends on `cd-geom` only.
//!
//! **Status:** this layer's crate exists so the workspace has its final shape and dependency
//! arrows (see `docs/ARCHITECTURE.md`); its algorithms land with their own issue. Until then it
//! re-exports nothing beyond the layer below it.
#![forbid(unsafe_code)]
