//! # `cd-bv` — bounding-volume construction
//!
//! Fits bounding volumes to point sets and meshes, for BVHs, broad phases and culling:
//!
//! | volume | builders |
//! |---|---|
//! | AABB | [`aabb_from_points`], [`aabb_of_aabbs`], [`aabb_of_ball`], [`aabb_of_obb`], [`transformed_aabb`], [`aabb_of_posed_points`] |
//! | k-DOP | [`kdop_from_points`], [`kdop_of_kdops`], [`kdop_of_obb`], [`kdop_of_ball`] |
//! | OBB | [`obb_pca`], [`obb_pca_hull`] (Gottschalk et al. 1996), [`obb_pca_hull_area`], [`obb_dito14`] / [`obb_dito26`] (Larsson & Källberg 2011), [`obb_reference`] (tight reference), [`obb_min_area_2d`] (exact, rotating calipers), [`obb_with_axes`] |
//! | convex hull | [`convex_hull`] / [`convex_hull_3d`] (Quickhull, 3D), [`convex_hull_2d`] (Andrew's monotone chain) |
//! | sphere / circle | [`ball_aabb_half_diagonal`], [`ball_aabb_farthest`], [`ritter_ball`] (Ritter 1990), [`minimal_ball`] (exact: Welzl 1991 with move-to-front pivoting), [`epos_ball`] (EPOS, Larsson 2008), [`ball_of_balls`] |
//!
//! Every builder validates its input (empty sets, NaN, out-of-range coordinates are
//! [`GeomError`](cd_geom::GeomError)s) and returns a volume that contains every input point.
//! Seed: Real-Time Rendering ch. 22.3 "Bounding Volume Creation". Depends on `cd-geom` only.
#![forbid(unsafe_code)]

mod aabb;
mod blocks;
mod dito;
mod epos;
mod hull2;
mod kdop;
mod obb;
mod quickhull;
mod reference;
mod sphere;
mod welzl;

pub use aabb::{
    aabb_from_points, aabb_of_aabbs, aabb_of_ball, aabb_of_obb, aabb_of_posed_points, transformed_aabb,
};
pub use dito::{obb_dito, obb_dito14, obb_dito26};
pub use epos::{epos_ball, epos_normal_count, EposSet};
pub use hull2::{convex_hull_2d, convex_hull_2d_indices};
pub use kdop::{kdop_from_points, kdop_of_ball, kdop_of_kdops, kdop_of_obb};
pub use obb::{obb_pca, obb_pca_hull, obb_pca_hull_area, obb_with_axes};
pub use quickhull::{convex_hull, convex_hull_3d, Hull};
pub use reference::{obb_min_area_2d, obb_reference, ObbMetric};
pub use sphere::{ball_aabb_farthest, ball_aabb_half_diagonal, ball_of_balls, ritter_ball};
pub use welzl::minimal_ball;

/// This crate's `README.md` example, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
