//! # `cd-response` — collision response
//!
//! What happens after contact. Seed: Real-Time Rendering ch. 25.9. Depends on `cd-geom` only.
//!
//! | module | what |
//! |---|---|
//! | [`reflect`](mod@reflect) | the seed's reflection `v' = v_p − k v_n` with restitution and Coulomb friction; moving a swept body through a step with its bounce |
//!
//! **Status:** the reflection response is in; impulses between bodies, sequential impulses,
//! position correction and particles land with the rest of their issue.
#![forbid(unsafe_code)]

pub mod reflect;

pub use reflect::{advance_with_bounce, reflect, Material};
