//! Queries on shapes kept in their own frame and placed in the world by a pose: the form of a
//! rigid body's mesh or hull. The world and the `collide` tool both go through these, so a mesh
//! is narrowed, ray-cast and tested the same way everywhere.

use cd_bv::transformed_aabb;
use cd_geom::{Aabb, GeomResult, Ray, Real, Triangle, Vector};
use cd_mid::{MeshBvh, QueryWorkspace};
use cd_narrow::{intersects, NarrowError, PairCache, Shape};
use nalgebra::Isometry3;

/// A mesh with the hierarchy every posed-mesh query uses.
pub type Mesh<T> = MeshBvh<T, Aabb<T, 3>>;

/// The ray in the frame of a shape placed by `pose` (same parameter `t` for the same point);
/// `None` only if the pose carries it out of the coordinate range.
pub fn ray_in_frame<T: Real>(ray: &Ray<T, 3>, pose: &Isometry3<T>) -> Option<Ray<T, 3>> {
    Ray::new(pose.inverse_transform_point(ray.origin()), pose.inverse_transform_vector(ray.dir()))
        .and_then(|r| r.with_max_t(ray.max_t()))
        .ok()
}

/// Triangle `t` of a mesh placed by `pose`, in world space (`None` if the pose collapses it,
/// which a rigid pose never does beyond rounding).
pub fn mesh_triangle<T: Real>(mesh: &Mesh<T>, pose: &Isometry3<T>, t: u32) -> Option<Triangle<T, 3>> {
    let [a, b, c] = mesh.mesh().triangle(t as usize).vertices();
    Triangle::new(pose * a, pose * b, pose * c).ok()
}

/// The triangles of a mesh placed by `pose` that meet the world-space box `region` (the box
/// of the rotated box is taken into the mesh's frame), into `out` (cleared first, sorted).
/// Error: the region leaves the coordinate range in the mesh's frame.
pub fn mesh_triangles_in<T: Real>(
    mesh: &Mesh<T>,
    pose: &Isometry3<T>,
    region: &Aabb<T, 3>,
    ws: &mut QueryWorkspace<T>,
    out: &mut Vec<u32>,
) -> GeomResult<()> {
    let local = transformed_aabb(region, &pose.inverse())?;
    mesh.triangles_in_aabb_into(&local, ws, out);
    Ok(())
}

/// The nearest hit of a world-space ray on a mesh placed by `pose`: the ray parameter and the
/// unit normal of the triangle hit, turned to face the ray, in world space.
pub fn mesh_ray<T: Real>(
    mesh: &Mesh<T>,
    pose: &Isometry3<T>,
    ray: &Ray<T, 3>,
    ws: &mut QueryWorkspace<T>,
) -> Option<(T, Vector<T, 3>)> {
    let local = ray_in_frame(ray, pose)?;
    let hit = mesh.cast_ray(&local, ws)?;
    let n = mesh.mesh().triangle(hit.triangle as usize).normal().unwrap_or_else(|_| Vector::zeros());
    let facing = if n.dot(local.dir()) > T::zero() { -n } else { n };
    Some((hit.t, pose.rotation.transform_vector(&facing)))
}

/// Whether a mesh placed by `pose` meets a convex shape (one of its triangles does), given
/// the shape's world box `probe_box`. Error: [`NarrowError::InvalidPose`] when the pose takes
/// the box out of the coordinate range in the mesh's frame, or the narrow phase's own errors.
pub fn mesh_intersects<T: Real>(
    mesh: &Mesh<T>,
    pose: &Isometry3<T>,
    probe: Shape<'_, T>,
    probe_box: &Aabb<T, 3>,
    ws: &mut QueryWorkspace<T>,
) -> Result<bool, NarrowError> {
    let mut triangles = Vec::new();
    mesh_triangles_in(mesh, pose, probe_box, ws, &mut triangles).map_err(|_| NarrowError::InvalidPose)?;
    for t in triangles {
        let Some(w) = mesh_triangle(mesh, pose, t) else { continue };
        if intersects(Shape::Triangle(&w), probe, &mut PairCache::default())? {
            return Ok(true);
        }
    }
    Ok(false)
}
