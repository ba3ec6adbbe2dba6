//! # `cd-ccd` — continuous collision
//!
//! Dynamic and continuous tests: swept sphere against plane, sphere and polygon, dynamic SAT and conservative advancement. Seed: Real-Time Rendering ch. 25.8 and 25.10. Depends on `cd-geom` and `cd-narrow`.
//!
//! **Status:** this layer's crate exists so the workspace has its final shape and dependency
//! arrows (see `docs/ARCHITECTURE.md`); its algorithms land with their own issue. Until then it
//! re-exports nothing beyond the layer below it.
#![forbid(unsafe_code)]
