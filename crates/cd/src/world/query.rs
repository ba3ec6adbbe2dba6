//! Scene queries on a world: rays (closest hit, all hits), bodies overlapping a box, bodies
//! containing a point. They take `&self`, so several threads can query one world at once;
//! each query keeps its own small traversal workspace.

use cd_geom::{
    ray_ball, ray_capsule, ray_cone, ray_convex_polyhedron, ray_cylinder, ray_obb, ray_plane, Aabb, Obb,
    Point, Ray, Real, SupportMap, Vector,
};
use cd_mid::QueryWorkspace;
use cd_narrow::{intersects, PairCache, Shape};
use nalgebra::Isometry3;

use crate::world::body::{BodyHandle, CollisionGroups};
use crate::world::shape::{world_triangle, Placed};
use crate::world::World;

/// A ray's hit on a body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayCastHit<T: Real> {
    /// The body hit.
    pub body: BodyHandle,
    /// Ray parameter of the hit (`0` when the ray starts inside a solid).
    pub t: T,
    /// The hit point.
    pub point: Point<T, 3>,
    /// Unit surface normal facing the ray (zero when the ray starts inside).
    pub normal: Vector<T, 3>,
}

/// `(t, normal)` of a ray against a placed shape.
fn ray_placed<T: Real>(
    ray: &Ray<T, 3>,
    placed: &Placed<T>,
    ws: &mut QueryWorkspace<T>,
) -> Option<(T, Vector<T, 3>)> {
    let local_ray = |pose: &Isometry3<T>| {
        Ray::new(pose.inverse_transform_point(ray.origin()), pose.inverse_transform_vector(ray.dir()))
            .and_then(|r| r.with_max_t(ray.max_t()))
            .ok()
    };
    let hit = match placed {
        Placed::Ball(b) => ray_ball(ray, b),
        Placed::Cuboid(o) => ray_obb(ray, o),
        Placed::Capsule(c) => ray_capsule(ray, c),
        Placed::Cylinder(c) => ray_cylinder(ray, c),
        Placed::Cone(c) => ray_cone(ray, c),
        Placed::HalfSpace(plane) => {
            if plane.signed_distance(ray.origin()) <= T::zero() {
                return Some((T::zero(), Vector::zeros()));
            }
            ray_plane(ray, plane)
        }
        Placed::Hull(hull, pose) => {
            let hit = ray_convex_polyhedron(&local_ray(pose)?, hull)?;
            return Some((hit.t, pose.rotation.transform_vector(&hit.normal)));
        }
        Placed::Mesh(mesh, pose) => {
            let local = local_ray(pose)?;
            let hit = mesh.cast_ray(&local, ws)?;
            let n = mesh.mesh().triangle(hit.triangle as usize).normal().unwrap_or_else(|_| Vector::zeros());
            let facing = if n.dot(local.dir()) > T::zero() { -n } else { n };
            return Some((hit.t, pose.rotation.transform_vector(&facing)));
        }
        Placed::Compound(parts) => {
            return parts
                .iter()
                .filter_map(|p| ray_placed(ray, p, ws))
                .min_by(|x, y| x.0.partial_cmp(&y.0).unwrap_or(core::cmp::Ordering::Equal));
        }
    }?;
    Some((hit.t, hit.normal))
}

/// Whether a placed shape overlaps a narrow-phase shape (meshes: a triangle meets it).
fn overlaps<T: Real>(
    placed: &Placed<T>,
    probe: Shape<'_, T>,
    probe_box: &Aabb<T, 3>,
    ws: &mut QueryWorkspace<T>,
) -> bool {
    match placed {
        Placed::Compound(parts) => parts.iter().any(|p| overlaps(p, probe, probe_box, ws)),
        Placed::Mesh(mesh, pose) => {
            let corners: Vec<_> =
                (0..8).map(|bits| pose.inverse_transform_point(&probe_box.corner(bits))).collect();
            let Ok(local) = Aabb::from_points(corners.iter()) else { return false };
            mesh.triangles_in_aabb(&local, ws).into_iter().any(|t| {
                world_triangle(mesh, pose, t).is_some_and(|w| {
                    intersects(Shape::Triangle(&w), probe, &mut PairCache::default()).unwrap_or(false)
                })
            })
        }
        other => other
            .narrow()
            .map(|shape| intersects(shape, probe, &mut PairCache::default()).unwrap_or(false))
            .unwrap_or(false),
    }
}

impl<T: Real> World<T> {
    fn handle(&self, index: u32) -> BodyHandle {
        BodyHandle { index, generation: self.slots[index as usize].generation }
    }

    /// Every body the ray hits within its length, nearest first (ties by slot), among bodies
    /// whose groups interact with `groups`.
    pub fn cast_ray_all(&self, ray: &Ray<T, 3>, groups: &CollisionGroups) -> Vec<RayCastHit<T>> {
        let mut candidates = Vec::new();
        self.broad.query_ray(ray, &mut candidates);
        let mut ws = QueryWorkspace::new();
        let mut hits: Vec<RayCastHit<T>> = candidates
            .into_iter()
            .filter_map(|(index, _)| {
                let body = self.slots[index as usize].body.as_ref()?;
                if !body.groups.interacts_with(groups) {
                    return None;
                }
                let (t, normal) = ray_placed(ray, &body.placed, &mut ws)?;
                Some(RayCastHit { body: self.handle(index), t, point: ray.at(t), normal })
            })
            .collect();
        hits.sort_by(|x, y| {
            x.t.partial_cmp(&y.t).unwrap_or(core::cmp::Ordering::Equal).then(x.body.cmp(&y.body))
        });
        hits
    }

    /// The nearest body the ray hits (ties: the smaller slot). Candidates come from the broad
    /// phase nearest box first, and stop once a box is entered beyond the best hit.
    pub fn cast_ray(&self, ray: &Ray<T, 3>, groups: &CollisionGroups) -> Option<RayCastHit<T>> {
        let mut candidates = Vec::new();
        self.broad.query_ray(ray, &mut candidates);
        candidates
            .sort_by(|x, y| x.1.partial_cmp(&y.1).unwrap_or(core::cmp::Ordering::Equal).then(x.0.cmp(&y.0)));
        let mut ws = QueryWorkspace::new();
        let mut best: Option<RayCastHit<T>> = None;
        for (index, entry) in candidates {
            if best.is_some_and(|b| entry > b.t) {
                break;
            }
            let Some(body) = self.slots[index as usize].body.as_ref() else { continue };
            if !body.groups.interacts_with(groups) {
                continue;
            }
            if let Some((t, normal)) = ray_placed(ray, &body.placed, &mut ws) {
                let hit = RayCastHit { body: self.handle(index), t, point: ray.at(t), normal };
                if best.is_none_or(|b| (t, hit.body) < (b.t, b.body)) {
                    best = Some(hit);
                }
            }
        }
        best
    }

    /// Bodies whose shape overlaps the box `region` (touching counts), in slot order.
    pub fn bodies_in_aabb(&self, region: &Aabb<T, 3>) -> Vec<BodyHandle> {
        let mut candidates = Vec::new();
        self.broad.query_aabb(region, &mut candidates);
        candidates.sort_unstable();
        let probe = Obb::from_aabb(region);
        let mut ws = QueryWorkspace::new();
        candidates
            .into_iter()
            .filter(|&i| {
                self.slots[i as usize]
                    .body
                    .as_ref()
                    .is_some_and(|b| overlaps(&b.placed, Shape::Box(&probe), region, &mut ws))
            })
            .map(|i| self.handle(i))
            .collect()
    }

    /// Solid bodies containing `point` (on the surface counts), in slot order. Meshes have no
    /// inside and are never listed.
    pub fn bodies_containing(&self, point: &Point<T, 3>) -> Vec<BodyHandle> {
        let Ok(region) = Aabb::new(*point, *point) else { return Vec::new() };
        let mut candidates = Vec::new();
        self.broad.query_aabb(&region, &mut candidates);
        candidates.sort_unstable();
        let probe: &dyn SupportMap<T, 3> = point;
        let mut ws = QueryWorkspace::new();
        candidates
            .into_iter()
            .filter(|&i| {
                self.slots[i as usize].body.as_ref().is_some_and(|b| {
                    !matches!(b.placed, Placed::Mesh(..))
                        && overlaps(&b.placed, Shape::Convex(probe, T::zero()), &region, &mut ws)
                })
            })
            .map(|i| self.handle(i))
            .collect()
    }
}
