//! Ray/polygon (RTR 22.9): intersect the supporting plane, then the crossings test (Shimrat
//! 1962, Haines 1994) in the 2D projection that keeps the most area.

use crate::query::ray_plane::ray_plane;
use crate::shape::projection_axes;
use crate::{Point, Polygon, Ray, RayHit, Real};

/// Point in polygon by the **crossings test**: cast a ray from `p` along +x and count edge
/// crossings; odd means inside. A vertex exactly on the ray counts as infinitesimally above it
/// (the `y ≥ p.y` rule), so a ray through a vertex is counted once or twice consistently and
/// shared edges of adjacent polygons assign each point to exactly one. Works for any simple
/// polygon, convex or not. `vertex(i)` gives the 2D coordinates of vertex `i`. O(n).
pub fn crossings_test<T: Real>(n: usize, vertex: impl Fn(usize) -> (T, T), p: (T, T)) -> bool {
    let (tx, ty) = p;
    let mut inside = false;
    let (mut x0, mut y0) = vertex(n - 1);
    let mut above0 = y0 >= ty;
    for i in 0..n {
        let (x1, y1) = vertex(i);
        let above1 = y1 >= ty;
        if above0 != above1 {
            // Does the edge cross the +x half of the test ray? Compare slopes without dividing.
            if ((y1 - ty) * (x0 - x1) >= (x1 - tx) * (y0 - y1)) == above1 {
                inside = !inside;
            }
        }
        (x0, y0, above0) = (x1, y1, above1);
    }
    inside
}

/// Is the 2D point `p` inside the polygon (crossings test, any simple polygon)? O(n).
pub fn point_in_polygon<T: Real>(p: &Point<T, 2>, poly: &Polygon<T, 2>) -> bool {
    let v = poly.vertices();
    crossings_test(v.len(), |i| (v[i].x, v[i].y), (p.x, p.y))
}

/// Ray/polygon in 3D: plane intersection, then the crossings test in the projection onto the
/// two axes other than the normal's largest component. A ray in the polygon's plane misses.
/// The normal faces the ray. O(n).
pub fn ray_polygon<T: Real>(ray: &Ray<T, 3>, poly: &Polygon<T, 3>) -> Option<RayHit<T, 3>> {
    let plane = poly.plane();
    if plane.normal().dot(ray.dir()) == T::zero() {
        return None;
    }
    let hit = ray_plane(ray, &plane)?;
    let p = ray.at(hit.t);
    let (u, v) = projection_axes(poly.normal3());
    let verts = poly.vertices();
    crossings_test(verts.len(), |i| (verts[i][u], verts[i][v]), (p[u], p[v])).then_some(hit)
}
