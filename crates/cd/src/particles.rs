//! Particles against triangle meshes: the segment test [`cd_response::ParticleSystem::step`]
//! needs, answered by a ray cast through the mesh's hierarchy (cd-response and cd-mid do not
//! know each other, so the facade joins them).

use cd_geom::{Ray, Real, Vector};
use cd_mid::{HierarchyVolume, MeshBvh, QueryWorkspace};
use cd_response::SegmentHit;
use nalgebra::{Isometry3, Point3};

/// The first triangle of `mesh` (placed by `pose`) the segment from `start` by `displacement`
/// meets: the fraction of the segment and the triangle's unit normal facing the start. Exact
/// (the watertight ray/triangle test: a segment through a shared edge or vertex hits one of its
/// triangles), in time proportional to the triangles near the segment.
///
/// ```
/// use cd::mid::{MeshBvh, QueryWorkspace, TriMesh};
/// use cd::particles::mesh_segment_hit;
/// use cd::response::{Material, ParticleSystem};
/// use nalgebra::{Isometry3, Point3, Vector3};
///
/// let floor = TriMesh::new(
///     vec![Point3::new(-5.0f64, 0.0, -5.0), Point3::new(5.0, 0.0, -5.0), Point3::new(5.0, 0.0, 5.0), Point3::new(-5.0, 0.0, 5.0)],
///     vec![[0, 1, 2], [0, 2, 3]],
/// ).unwrap();
/// let mesh: MeshBvh<f64, cd::geom::Aabb<f64, 3>> = MeshBvh::new(floor).unwrap();
/// let mut rain = ParticleSystem::new(vec![Point3::new(0.0, 1.0, 0.0)], vec![Vector3::new(0.0, -50.0, 0.0)], 0.0, Material::elastic()).unwrap();
/// let mut ws = QueryWorkspace::new();
/// rain.step(&Vector3::zeros(), 0.1, |p, d| mesh_segment_hit(&mesh, &Isometry3::identity(), p, d, &mut ws));
/// // It fell 1, bounced, and rose 4 in the rest of the step: never below the floor.
/// assert!((rain.positions[0].y - 4.0).abs() < 1e-9 && rain.velocities[0].y == 50.0);
/// ```
pub fn mesh_segment_hit<T: Real, B: HierarchyVolume<T, 3>>(
    mesh: &MeshBvh<T, B>,
    pose: &Isometry3<T>,
    start: &Point3<T>,
    displacement: &Vector<T, 3>,
    ws: &mut QueryWorkspace<T>,
) -> Option<SegmentHit<T>> {
    let local_dir = pose.inverse_transform_vector(displacement);
    let ray = Ray::new(pose.inverse_transform_point(start), local_dir).ok()?.with_max_t(T::one()).ok()?;
    let hit = mesh.cast_ray(&ray, ws)?;
    let n = mesh.mesh().triangle(hit.triangle as usize).normal().ok()?;
    let facing = if n.dot(&local_dir) > T::zero() { -n } else { n };
    Some((hit.t, pose.rotation.transform_vector(&facing)))
}
