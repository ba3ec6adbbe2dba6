//! # `cd-geom` — primitives and static intersection tests
//!
//! The foundation layer of `cd`: the scalar trait, the primitives, the [`SupportMap`] trait
//! every convex shape implements, the shared result types, and every static test of
//! Real-Time Rendering's chapter 22 "Intersection Test Methods" plus the closest-point helpers
//! of Ericson's chapter 5.
//!
//! * Scalars are generic (`T: `[`Real`], implemented for `f32` and `f64`); points and vectors
//!   are nalgebra types; code whose mathematics is the same in 2D and 3D is generic over the
//!   dimension `D`.
//! * Constructors validate and return [`GeomError`]; queries are total and never panic.
//!
//! | family | functions |
//! |---|---|
//! | rays | [`ray_ball`], [`ray_ball_analytic`], [`ray_aabb`], [`ray_obb`], [`ray_kdop`] (grown by a rounding pad for conservative culling: [`ray_ball_grown`], [`ray_obb_grown`], [`ray_kdop_grown`], [`PreparedRay::enter_grown_box`]), [`ray_convex_polyhedron`], [`ray_triangle`], [`ray_triangle_culling`], [`ray_triangle_watertight`] (prepared once per ray: [`WatertightRay`]), [`ray_polygon`], [`ray_plane`], [`ray_capsule`], [`ray_cylinder`], [`ray_cone`], [`ray_lozenge`] |
//! | planes | [`plane_aabb`], [`plane_obb`], [`plane_ball`], [`plane_triangle`], [`three_planes`] |
//! | triangles | [`triangle_triangle`], [`triangle_aabb`], [`triangle_obb`], [`triangle_ball`] |
//! | bounding volumes | [`ball_ball`], [`ball_aabb`], [`ball_aabb_clamped`], [`ball_obb`], [`aabb_aabb`], [`kdop_kdop`], [`obb_obb`], [`obb_obb_face_axes`], [`obb_obb_2d`], [`capsule_capsule`], [`capsule_ball`], [`capsule_aabb`], [`capsule_obb`] |
//! | frustum | [`frustum_ball`], [`frustum_aabb`], [`frustum_obb`] |
//! | lines | [`line_line_2d`], [`segment_segment_2d`], [`segments_intersect_2d`], [`line_line_closest_3d`] |
//! | 2D polygons | [`polygons_overlap_2d`], [`point_in_polygon`], [`crossings_test`] |
//! | closest points | [`closest_point_on_segment`], [`closest_point_between`], [`closest_point_on_triangle`], [`closest_point_on_aabb`], [`closest_point_on_obb`], [`closest_point_on_plane`], [`closest_points_segment_segment`], [`closest_points_between_segments`], [`closest_points_segment_aabb`], [`segment_aabb_distance_squared`], [`closest_points_segment_triangle`], [`closest_points_triangle_triangle`] |

mod bounding_volume;
mod directions;
mod error;
pub mod exact;
mod far;
mod real;
mod result;
#[cfg(test)]
mod test_support;
pub mod validate;

pub mod query;
pub mod shape;
pub mod support;

pub use bounding_volume::BoundingVolume;
pub use directions::{edge_normal, triangle_normal, unit_perpendicular, widest_angle_edges};
pub use error::{GeomError, GeomResult};
pub use far::far_offset;
pub use real::{gt_mask, Matrix, Point, Real, Vector};
pub use result::{ClosestPoints, Contact, ContactStatus, Containment, PlaneSide, RayHit, TriangleHit};
pub use shape::*;
pub use support::{support_aabb, Margin, MinkowskiDifference, MinkowskiSum, SupportMap, Transformed};

pub use query::closest::*;
pub use query::culling::*;
pub use query::lines::*;
pub use query::overlap::*;
pub use query::planar::*;
pub use query::plane_side::*;
pub use query::ray_aabb::*;
pub use query::ray_plane::*;
pub use query::ray_polygon::*;
pub use query::ray_quadric::*;
pub use query::ray_slabs::*;
pub use query::ray_sphere::*;
pub use query::ray_triangle::*;
pub use query::sat_obb::*;
pub use query::tri_box::*;
pub use query::tri_tri::*;

#[cfg(feature = "bytemuck")]
mod pod;

#[cfg(feature = "serde")]
mod serde_impl;

/// This crate's `README.md` example, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
