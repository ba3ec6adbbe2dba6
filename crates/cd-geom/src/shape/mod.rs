//! The primitives. Each type validates its input in its constructor and is immutable after, so
//! every query can trust its invariants (finite coordinates within
//! [`Real::coord_limit`](crate::Real::coord_limit), non-negative radii, orthonormal axes, ...).

mod aabb;
mod ball;
mod capsule;
mod cone;
mod cylinder;
mod frustum;
mod kdop;
mod line;
mod lozenge;
mod obb;
mod plane;
mod polygon;
mod polyhedron;
mod ray;
mod segment;
mod triangle;

pub use aabb::Aabb;
pub use ball::{Ball, Circle, Sphere};
pub use capsule::Capsule;
pub use cone::Cone;
pub use cylinder::Cylinder;
pub use frustum::{Frustum, FrustumPlane};
pub use kdop::{kdop_directions, Dop14, Dop18, Dop26, Dop4, Dop6, Dop8, Kdop};
pub use line::Line;
pub use lozenge::Lozenge;
pub use obb::Obb;
pub use plane::Plane;
pub use polygon::Polygon;
pub use polygon::{is_convex_counter_clockwise, projection_axes};
pub(crate) use polyhedron::linear_support;
pub use polyhedron::{ConvexPolyhedron, Edge, Face};
pub use ray::Ray;
pub use segment::Segment;
pub use triangle::Triangle;
