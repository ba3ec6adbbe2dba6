//! Rays against placed shapes.
//!
//! A hit is `(t, normal)`: `origin + t·direction` is the hit point (the direction need not be
//! unit) and the normal is the unit surface normal facing the ray (`n·direction ≤ 0`).
//!
//! * `solid = true`: a ray starting inside a convex shape hits at `t = 0`; the normal is then
//!   zero (no surface was crossed).
//! * `solid = false`: the shape is hollow; a ray starting inside hits where it leaves, with the
//!   normal facing back inside (against the ray). It is found by casting the reversed ray from
//!   a point past the exit: the far end of the ray when it is outside the shape, else no exit
//!   lies within the ray's length.
//!
//! Meshes are surfaces: `solid` does not change them. Flat shapes (triangles, flat hulls) have
//! no inside, so rays only cross them.

use cd::geom::{
    ray_ball, ray_capsule, ray_convex_polyhedron, ray_cylinder, ray_obb, ray_polygon, ray_triangle, Ray,
    RayHit,
};
use cd::mid::QueryWorkspace;
use cd::posed::{mesh_ray, ray_in_frame};
use nalgebra::Vector3;

use super::shapes::{Core, Placed, World};

/// A ray hit: parameter and unit normal facing the ray.
pub type Hit = (f64, Vector3<f64>);

/// The solid ray test of a convex shape (`t = 0` from inside).
fn solid_hit(ray: &Ray<f64, 3>, x: &World) -> Option<Hit> {
    let hit: RayHit<f64, 3> = match x {
        World::Ball(b) => ray_ball(ray, b)?,
        World::Capsule(c) => ray_capsule(ray, c)?,
        World::Box(b) => ray_obb(ray, b)?,
        World::Cylinder(c) => ray_cylinder(ray, c)?,
        World::Triangle(t) => {
            let h = ray_triangle(ray, t)?;
            let n = t.normal().ok()?;
            let facing = if n.dot(ray.dir()) > 0.0 { -n } else { n };
            return Some((h.t, facing));
        }
        World::Hull(h, pose) => {
            let hit = ray_convex_polyhedron(&ray_in_frame(ray, pose)?, h)?;
            return Some((hit.t, pose.rotation * hit.normal));
        }
        World::Flat(f) => {
            let Core::Polygon(p) = &f.shape else { return None };
            let hit = ray_polygon(&ray_in_frame(ray, &f.pose)?, p)?;
            let n = f.pose.rotation * hit.normal;
            let facing = if n.dot(ray.dir()) > 0.0 { -n } else { n };
            return Some((hit.t, facing));
        }
    };
    Some((hit.t, hit.normal))
}

/// Whether a convex shape has an inside a ray can start in.
fn has_volume(x: &World) -> bool {
    !matches!(x, World::Triangle(_) | World::Flat(_))
}

/// Where a ray starting inside a solid convex shape leaves it, if within its length.
fn exit_hit(ray: &Ray<f64, 3>, x: &World) -> Option<Hit> {
    let aabb = x.aabb();
    // A parameter past the shape: the origin's distance to the far side of the box, in ray units.
    let reach = (aabb.max() - aabb.min()).norm() + (aabb.center() - ray.origin()).norm();
    let far_t = (reach / ray.dir().norm() * 2.0 + 1.0).min(ray.max_t());
    let far = ray.at(far_t);
    let back = Ray::new(far, -ray.dir()).ok()?.with_max_t(far_t).ok()?;
    let (s, normal) = solid_hit(&back, x)?;
    if s == 0.0 {
        // The far end is inside too: the ray ends before it leaves.
        return None;
    }
    // The reversed ray's normal faces it, i.e. along the original ray: flip it to face the
    // original ray (pointing back inside).
    Some(((far_t - s).max(0.0), -normal))
}

/// The first hit of a ray on a placed shape, if any within the ray's length.
pub fn cast(ray: &Ray<f64, 3>, placed: &Placed, solid: bool) -> Option<Hit> {
    match placed {
        Placed::Mesh(mesh, pose) => mesh_ray(mesh, pose, ray, &mut QueryWorkspace::new()),
        Placed::Convex(x) => {
            let hit = solid_hit(ray, x)?;
            if hit.0 == 0.0 && !solid && has_volume(x) && hit.1 == Vector3::zeros() {
                return exit_hit(ray, x);
            }
            Some(hit)
        }
    }
}
