//! The static intersection tests and closest-point queries (Real-Time Rendering ch. 22 and
//! Ericson ch. 5). Each module is one family; all are re-exported at the crate root.

pub mod closest;
pub mod culling;
pub mod lines;
pub mod overlap;
pub mod planar;
pub mod plane_side;
pub mod ray_aabb;
pub mod ray_plane;
pub mod ray_polygon;
pub mod ray_quadric;
pub mod ray_slabs;
pub mod ray_sphere;
pub mod ray_triangle;
pub mod sat_obb;
pub mod tri_box;
pub mod tri_tri;
