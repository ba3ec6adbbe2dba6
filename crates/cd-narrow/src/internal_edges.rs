//! Contacts against a triangle of a mesh without "ghost collisions": a shape sliding across
//! the shared edge of two coplanar (or gently folded) triangles must not be stopped by that
//! edge.
//!
//! A contact computed against one triangle in isolation can have a normal tilted towards a
//! shared edge (the closest feature is the edge, so the normal points from the edge), which a
//! solver turns into a bump. Knowing each edge's neighbour face normal, the valid normals at a
//! point on an interior edge are those between the two faces' normals (for a convex fold) or
//! only the face normal (for a flat or concave fold); a normal outside that range is replaced by
//! the triangle's face normal, keeping the depth measured along it. Contacts in the triangle's
//! interior, on boundary edges (no neighbour) and on convex folds inside the valid range are
//! left alone. Same idea as Bullet's internal-edge utility and Box2D's chain-shape ghost
//! vertices.

use cd_geom::{Contact, Real, Triangle, Vector};

/// The neighbour face normal across each edge of a triangle (`edge i` runs from vertex `i` to
/// vertex `i + 1`), `None` for a boundary edge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TriangleNeighbors<T: Real> {
    /// Unit neighbour normals, oriented like the triangle's own (front-face) normal.
    pub normals: [Option<Vector<T, 3>>; 3],
}

/// Corrects a contact between a shape A and the mesh triangle B (normal from A to B, as every
/// contact here) so it cannot point out of the triangle's valid normal cone at an interior
/// edge. Returns whether the contact was changed.
///
/// Only the normal and the witness point on A move: the depth is re-measured along the face
/// normal from B's witness point, so the contact stays consistent (`point_b − point_a =
/// distance · normal`).
pub fn fix_internal_edge<T: Real>(
    contact: &mut Contact<T, 3>,
    triangle: &Triangle<T, 3>,
    neighbors: &TriangleNeighbors<T>,
) -> bool {
    let Ok(face) = triangle.normal() else { return false };
    // The normal from the triangle towards the shape is −contact.normal; which side of the
    // triangle is the shape on?
    let out = -contact.normal;
    let face = if out.dot(&face) >= T::zero() { face } else { -face };
    let edges = on_edges(triangle, &contact.point_b);
    let mut valid = true;
    for (i, on) in edges.iter().enumerate() {
        if !on {
            continue;
        }
        let Some(nb) = neighbors.normals[i] else { continue };
        let nb = if nb.dot(&face) >= T::zero() { nb } else { -nb };
        if !within_fold(&out, &face, &nb, triangle, i) {
            valid = false;
        }
    }
    if valid || !edges.iter().any(|&e| e) {
        return false;
    }
    // Replace by the face normal, depth measured along it from B's witness point.
    let n = -face;
    let gap = contact.point_b - contact.point_a;
    let distance = n.dot(&gap);
    contact.normal = n;
    contact.distance = distance;
    contact.point_a = contact.point_b - n * distance;
    true
}

/// Which edges the point (on the triangle) lies on, to a relative tolerance.
fn on_edges<T: Real>(t: &Triangle<T, 3>, p: &cd_geom::Point<T, 3>) -> [bool; 3] {
    let [a, b, c] = t.vertices();
    let n = (b - a).cross(&(c - a));
    let area = n.norm();
    // Collinear vertices (to rounding, `edge_normal`'s rule): no barycentric weights.
    if cd_geom::edge_normal(&(b - a), &(c - a)).is_none() {
        return [false; 3];
    }
    // Twice the signed area of the sub-triangle opposite each vertex, over twice the area:
    // barycentric weights; a weight near zero puts the point on the opposite edge.
    let w =
        |u: &cd_geom::Point<T, 3>, v: &cd_geom::Point<T, 3>| n.dot(&(u - p).cross(&(v - p))) / (area * area);
    let (wa, wb, wc) = (w(&b, &c), w(&c, &a), w(&a, &b));
    let tol = T::lit(1e-6);
    // Edge 0 = (a, b) is opposite c, edge 1 = (b, c) opposite a, edge 2 = (c, a) opposite b.
    [wc <= tol, wa <= tol, wb <= tol]
}

/// Is `out` (unit, from the triangle towards the shape) a valid normal at edge `i`, whose
/// faces have normals `face` and `nb`? For a convex fold the valid normals span the arc from
/// `face` to `nb`; for a flat or concave fold only `face` (to rounding).
fn within_fold<T: Real>(
    out: &Vector<T, 3>,
    face: &Vector<T, 3>,
    nb: &Vector<T, 3>,
    t: &Triangle<T, 3>,
    i: usize,
) -> bool {
    let v = t.vertices();
    let (p, q) = (v[i], v[(i + 1) % 3]);
    let edge = q - p;
    // Outward direction in the triangle's plane, across edge i.
    let opposite = v[(i + 2) % 3];
    let mut across = edge.cross(face);
    if across.dot(&(opposite - p)) > T::zero() {
        across = -across;
    }
    let convex = nb.dot(&across) > T::lit(1e-6);
    let tol = T::lit(1e-4);
    if !convex {
        return out.dot(face) >= T::one() - tol;
    }
    // Inside the arc from face to nb (both in the plane orthogonal to the edge): the normal
    // must not lean past `face` away from the edge nor past `nb`.
    out.dot(&across) >= -tol && {
        let bisector = (face + nb).normalize();
        out.dot(&bisector) >= face.dot(&bisector) - tol
    }
}
