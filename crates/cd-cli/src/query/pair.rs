//! Pair queries between placed shapes: whether they intersect, and their signed contact
//! (closest points when apart, penetration depth and normal when overlapping).
//!
//! Convex pairs go to cd-narrow's dispatcher. A mesh is a surface: it meets a convex shape when
//! one of its triangles does, and its contact with a shape is the deepest (or, when apart, the
//! nearest) of its triangles' contacts. The triangles are found through the mesh's hierarchy:
//! a point of the convex shape gives an upper bound `U` on the distance (the point's distance
//! to the mesh), and only triangles meeting the shape's box grown by `U` can be closer.

use cd::geom::{Aabb, Contact, ContactStatus};
use cd::mid::{Motion, QueryWorkspace};
use cd::narrow::{distance, intersects, PairCache, Shape};
use cd::posed::{mesh_intersects, mesh_triangle, mesh_triangles_in};
use nalgebra::{Isometry3, Point3, Vector3};

use super::shapes::{MeshModel, Placed, World};

/// A signed contact: `distance > 0` apart (closest points, normal from A's point to B's),
/// `distance ≤ 0` overlapping (`−distance` is the penetration depth along the normal A → B).
pub type Signed = Contact<f64, 3>;

fn narrow_err(e: cd::narrow::NarrowError) -> String {
    format!("the narrow phase could not answer: {e}")
}

/// The triangles of a placed mesh meeting a world-space box.
fn triangles_near(
    mesh: &MeshModel,
    pose: &Isometry3<f64>,
    region: &Aabb<f64, 3>,
) -> Result<Vec<u32>, String> {
    let mut out = Vec::new();
    mesh_triangles_in(mesh, pose, region, &mut QueryWorkspace::new(), &mut out)
        .map_err(|e| format!("region out of range: {e}"))?;
    Ok(out)
}

/// Whether two placed shapes intersect (touching counts).
pub fn pair_intersects(a: &Placed, b: &Placed) -> Result<bool, String> {
    match (a, b) {
        (Placed::Convex(x), Placed::Convex(y)) => {
            intersects(x.shape(), y.shape(), &mut PairCache::default()).map_err(narrow_err)
        }
        (Placed::Mesh(mesh, pose), Placed::Convex(x)) | (Placed::Convex(x), Placed::Mesh(mesh, pose)) => {
            mesh_intersects(mesh, pose, x.shape(), &x.aabb(), &mut QueryWorkspace::new()).map_err(narrow_err)
        }
        (Placed::Mesh(ma, pa), Placed::Mesh(mb, pb)) => {
            Ok(ma.first_overlap(mb, &Motion::relative(pa, pb), &mut QueryWorkspace::new()).is_some())
        }
    }
}

/// Keeps the better of two signed contacts: the deeper when either overlaps, else the nearer.
fn better(best: Option<Signed>, c: Signed) -> Option<Signed> {
    match best {
        Some(b) if b.distance <= c.distance => Some(b),
        _ => Some(c),
    }
}

/// A contact between two points already known to be closest (normal from `a` to `b`).
fn between(a: Point3<f64>, b: Point3<f64>) -> Signed {
    let d = b - a;
    let n = d.norm();
    let normal = if n > 0.0 { d / n } else { Vector3::zeros() };
    Contact { point_a: a, point_b: b, normal, distance: n, status: ContactStatus::Converged }
}

/// The signed contact of a mesh (A) with a convex shape (B).
fn mesh_convex(mesh: &MeshModel, pose: &Isometry3<f64>, x: &World) -> Result<Signed, String> {
    let p = x.some_point();
    let local = pose.inverse_transform_point(&p);
    let nearest = mesh
        .closest_point(&local, f64::INFINITY, &mut QueryWorkspace::new())
        .ok_or("the mesh has no closest point")?;
    let bound = nearest.distance;
    let grown = {
        let b = x.aabb();
        let pad = Vector3::repeat(bound * (1.0 + 1e-9) + 1e-12);
        Aabb::new(b.min() - pad, b.max() + pad).map_err(|e| format!("region out of range: {e}"))?
    };
    let mut best: Option<Signed> = None;
    for t in triangles_near(mesh, pose, &grown)? {
        let Some(tri) = mesh_triangle(mesh, pose, t) else { continue };
        let c = distance(Shape::Triangle(&tri), x.shape(), &mut PairCache::default()).map_err(narrow_err)?;
        best = better(best, c);
    }
    // The triangle nearest to the chosen point is always among the candidates; fall back to
    // it should rounding have dropped every candidate.
    Ok(best.unwrap_or_else(|| between(pose * nearest.point_a, p)))
}

/// The signed contact of two meshes: the deepest of their intersecting triangle pairs, or
/// their closest points.
fn mesh_mesh(
    ma: &MeshModel,
    pa: &Isometry3<f64>,
    mb: &MeshModel,
    pb: &Isometry3<f64>,
) -> Result<Signed, String> {
    let motion = Motion::relative(pa, pb);
    let mut ws = QueryWorkspace::new();
    let mut best: Option<Signed> = None;
    for (i, j) in ma.overlapping_triangles(mb, &motion, &mut ws) {
        let (Some(ta), Some(tb)) = (mesh_triangle(ma, pa, i), mesh_triangle(mb, pb, j)) else { continue };
        let c = distance(Shape::Triangle(&ta), Shape::Triangle(&tb), &mut PairCache::default())
            .map_err(narrow_err)?;
        // Touching triangle pairs report distance 0 at most, never a separation.
        best = better(best, Contact { distance: c.distance.min(0.0), ..c });
    }
    if let Some(b) = best {
        return Ok(b);
    }
    let closest =
        ma.closest_points(mb, &motion, f64::INFINITY, &mut ws).ok_or("the meshes have no closest points")?;
    Ok(between(pa * closest.point_a, pa * closest.point_b))
}

/// The signed contact of two placed shapes (normal from A towards B).
pub fn pair_contact(a: &Placed, b: &Placed) -> Result<Signed, String> {
    match (a, b) {
        (Placed::Convex(x), Placed::Convex(y)) => {
            distance(x.shape(), y.shape(), &mut PairCache::default()).map_err(narrow_err)
        }
        (Placed::Mesh(mesh, pose), Placed::Convex(x)) => mesh_convex(mesh, pose, x),
        (Placed::Convex(x), Placed::Mesh(mesh, pose)) => mesh_convex(mesh, pose, x).map(|c| c.flipped()),
        (Placed::Mesh(ma, pa), Placed::Mesh(mb, pb)) => mesh_mesh(ma, pa, mb, pb),
    }
}
