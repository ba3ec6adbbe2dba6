//! Scene queries on a world: rays (closest hit, all hits), shape casts, bodies overlapping a
//! box or a ball, bodies containing a point, the closest body to a point. They take `&self`,
//! so several threads can query one world at once; each query keeps its own small traversal
//! workspace.

use cd_ccd::Toi;
use cd_geom::{
    ray_ball, ray_capsule, ray_cone, ray_convex_polyhedron, ray_cylinder, ray_lozenge, ray_obb, ray_plane,
    ray_triangle, Aabb, Ball, Obb, Point, Ray, Real, SupportMap, Vector,
};
use cd_mid::QueryWorkspace;
use cd_narrow::{distance, intersects, PairCache, Shape};
use nalgebra::Isometry3;

use crate::posed::{mesh_intersects, mesh_ray, ray_in_frame};
use crate::world::body::{BodyHandle, CollisionGroups};
use crate::world::ccd::first_impact;
use crate::world::shape::{ColliderShape, Placed};
use crate::world::{World, WorldError};

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
    let hit = match placed {
        Placed::Ball(b) => ray_ball(ray, b),
        Placed::Cuboid(o) => ray_obb(ray, o),
        Placed::Capsule(c) => ray_capsule(ray, c),
        Placed::Cylinder(c) => ray_cylinder(ray, c),
        Placed::Cone(c) => ray_cone(ray, c),
        Placed::Lozenge(l) => ray_lozenge(ray, l),
        Placed::Triangle(t) => {
            let hit = ray_triangle(ray, t)?;
            // Two-sided: the face normal turned towards the ray.
            let n = t.normal().unwrap_or_else(|_| Vector::zeros());
            let facing = if n.dot(ray.dir()) > T::zero() { -n } else { n };
            return Some((hit.t, facing));
        }
        // A ray meets a segment only on a set of measure zero: never reported.
        Placed::Segment(_) => return None,
        Placed::HalfSpace(plane) => {
            if plane.signed_distance(ray.origin()) <= T::zero() {
                return Some((T::zero(), Vector::zeros()));
            }
            ray_plane(ray, plane)
        }
        Placed::Hull(hull, pose) => {
            let hit = ray_convex_polyhedron(&ray_in_frame(ray, pose)?, hull)?;
            return Some((hit.t, pose.rotation.transform_vector(&hit.normal)));
        }
        Placed::Mesh(mesh, pose) => return mesh_ray(mesh, pose, ray, ws),
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
        Placed::Mesh(mesh, pose) => mesh_intersects(mesh, pose, probe, probe_box, ws).unwrap_or(false),
        other => other
            .narrow()
            .map(|shape| intersects(shape, probe, &mut PairCache::default()).unwrap_or(false))
            .unwrap_or(false),
    }
}

impl<T: Real> World<T> {
    /// Every body the ray hits within its length, nearest first (ties by slot), among bodies
    /// whose groups interact with `groups`.
    pub fn cast_ray_all(&self, ray: &Ray<T, 3>, groups: &CollisionGroups) -> Vec<RayCastHit<T>> {
        let mut candidates = Vec::new();
        self.candidates_on(ray, &mut candidates);
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
        self.candidates_on(ray, &mut candidates);
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

    /// Ids of the bodies whose broad-phase box meets `region`, in slot order.
    fn sorted_candidates(&self, region: &Aabb<T, 3>) -> Vec<u32> {
        let mut candidates = Vec::new();
        self.candidates_in(region, &mut candidates);
        candidates.sort_unstable();
        candidates
    }

    /// Bodies (among those whose box meets `region`, which must enclose `probe`) whose shape
    /// overlaps `probe`, in slot order; meshes are skipped when `solids_only`.
    fn bodies_overlapping(
        &self,
        probe: Shape<'_, T>,
        region: &Aabb<T, 3>,
        solids_only: bool,
    ) -> Vec<BodyHandle> {
        let mut ws = QueryWorkspace::new();
        self.sorted_candidates(region)
            .into_iter()
            .filter(|&i| {
                self.slots[i as usize].body.as_ref().is_some_and(|b| {
                    !(solids_only && matches!(b.placed, Placed::Mesh(..)))
                        && overlaps(&b.placed, probe, region, &mut ws)
                })
            })
            .map(|i| self.handle(i))
            .collect()
    }

    /// Bodies whose shape overlaps the box `region` (touching counts), in slot order.
    pub fn bodies_in_aabb(&self, region: &Aabb<T, 3>) -> Vec<BodyHandle> {
        let probe = Obb::from_aabb(region);
        self.bodies_overlapping(Shape::Box(&probe), region, false)
    }

    /// Solid bodies containing `point` (on the surface counts), in slot order. Meshes have no
    /// inside and are never listed.
    pub fn bodies_containing(&self, point: &Point<T, 3>) -> Vec<BodyHandle> {
        let Ok(region) = Aabb::new(*point, *point) else { return Vec::new() };
        let probe: &dyn SupportMap<T, 3> = point;
        self.bodies_overlapping(Shape::Convex(probe, T::zero()), &region, true)
    }
}

/// A shape cast's first impact on a body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeCastHit<T: Real> {
    /// The body hit.
    pub body: BodyHandle,
    /// The time of impact and the contact (A = the cast shape, B = the body), in world space.
    pub toi: Toi<T, 3>,
}

/// The closest body to a point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClosestBody<T: Real> {
    /// The body.
    pub body: BodyHandle,
    /// The closest point on its surface (the query point itself when inside a solid).
    pub point: Point<T, 3>,
    /// The distance (0 inside a solid).
    pub distance: T,
}

/// The distance from `p` to a placed shape and the closest point on it.
fn closest_on<T: Real>(
    placed: &Placed<T>,
    p: &Point<T, 3>,
    limit: T,
    ws: &mut QueryWorkspace<T>,
) -> Option<(T, Point<T, 3>)> {
    match placed {
        Placed::Compound(parts) => parts
            .iter()
            .filter_map(|part| closest_on(part, p, limit, ws))
            .min_by(|x, y| x.0.partial_cmp(&y.0).unwrap_or(core::cmp::Ordering::Equal)),
        Placed::Mesh(mesh, pose) => {
            let local = pose.inverse_transform_point(p);
            let hit = mesh.closest_point(&local, limit, ws)?;
            Some((hit.distance, pose * hit.point_a))
        }
        Placed::HalfSpace(plane) => {
            let d = plane.signed_distance(p);
            Some(if d <= T::zero() { (T::zero(), *p) } else { (d, plane.project(p)) })
        }
        other => {
            let shape = other.narrow()?;
            let probe: &dyn SupportMap<T, 3> = p;
            let c = distance(Shape::Convex(probe, T::zero()), shape, &mut PairCache::default()).ok()?;
            Some(if c.distance <= T::zero() { (T::zero(), *p) } else { (c.distance, c.point_b) })
        }
    }
}

impl<T: Real> World<T> {
    /// Bodies whose shape meets the ball of `radius` around `center` (touching counts), in
    /// slot order.
    pub fn bodies_in_ball(&self, center: &Point<T, 3>, radius: T) -> Vec<BodyHandle> {
        let (Ok(ball), Ok(region)) =
            (Ball::new(*center, radius), Aabb::from_center_half_extents(*center, Vector::repeat(radius)))
        else {
            return Vec::new();
        };
        self.bodies_overlapping(Shape::Ball(&ball), &region, false)
    }

    /// The body closest to `point` within `max_distance` (ties: the smaller slot), among
    /// bodies whose groups interact with `groups`.
    pub fn closest_body(
        &self,
        point: &Point<T, 3>,
        max_distance: T,
        groups: &CollisionGroups,
    ) -> Option<ClosestBody<T>> {
        let region = Aabb::from_center_half_extents(*point, Vector::repeat(max_distance)).ok()?;
        let candidates = self.sorted_candidates(&region);
        let mut ws = QueryWorkspace::new();
        let mut best: Option<ClosestBody<T>> = None;
        for index in candidates {
            let Some(body) = self.slots[index as usize].body.as_ref() else { continue };
            if !body.groups.interacts_with(groups) {
                continue;
            }
            let limit = best.map_or(max_distance, |b| b.distance);
            if let Some((d, p)) = closest_on(&body.placed, point, limit, &mut ws) {
                if d <= limit && best.is_none_or(|b| d < b.distance) {
                    best = Some(ClosestBody { body: self.handle(index), point: p, distance: d });
                }
            }
        }
        best
    }

    /// Casts `shape` (placed by `pose`) along `velocity` for `max_time` through the world
    /// frozen at its current poses: the first body it would touch, with the time and contact
    /// (ties: the smaller slot). Bodies the shape
    /// already touches at time 0 are not reported (use [`World::bodies_in_aabb`] or the
    /// contacts for those). Errors: an invalid shape, pose, velocity or time.
    pub fn cast_shape(
        &self,
        shape: &ColliderShape<T>,
        pose: &Isometry3<T>,
        velocity: &Vector<T, 3>,
        max_time: T,
        groups: &CollisionGroups,
    ) -> Result<Option<ShapeCastHit<T>>, WorldError> {
        shape.validate()?;
        if !shape.is_solid() {
            return Err(WorldError::NoVolume { shape: shape.name() });
        }
        cd_geom::validate::vector(velocity)?;
        if !(max_time >= T::zero() && max_time.is_finite()) {
            return Err(WorldError::InvalidTimeStep);
        }
        let placed = shape.place(pose)?;
        let swept = cd_ccd::swept_aabb_linear(&placed.aabb(), velocity, max_time)?;
        let candidates = self.sorted_candidates(&swept);
        let mut ws = QueryWorkspace::new();
        let mut best: Option<ShapeCastHit<T>> = None;
        for index in candidates {
            let Some(body) = self.slots[index as usize].body.as_ref() else { continue };
            if !body.groups.interacts_with(groups) {
                continue;
            }
            // A scene query sees the world frozen at its current poses.
            if let Some(toi) =
                first_impact(&placed, velocity, &body.placed, &Vector::zeros(), max_time, &mut ws)
            {
                if best.is_none_or(|b| toi.time < b.toi.time) {
                    best = Some(ShapeCastHit { body: self.handle(index), toi });
                }
            }
        }
        Ok(best)
    }
}
