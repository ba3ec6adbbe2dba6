//! 2D polygon tests: convex polygon overlap by the separating axis test (seed notes on SAT),
//! general simple-polygon overlap, and point in polygon.

use crate::query::lines::segments_intersect_2d;
use crate::query::ray_polygon::point_in_polygon;
use crate::{Polygon, Real, Segment, Vector};

/// Do two 2D polygons overlap (touching counts)?
///
/// Both convex: the **separating axis test** over the edge normals of both polygons (for convex
/// polygons these are the only candidate axes), O(n·m) projections with early exit. Otherwise:
/// some edge pair crosses, or a vertex of one lies inside the other (crossings test), O(n·m).
pub fn polygons_overlap_2d<T: Real>(a: &Polygon<T, 2>, b: &Polygon<T, 2>) -> bool {
    if a.is_convex() && b.is_convex() {
        return !has_separating_edge_normal(a, b) && !has_separating_edge_normal(b, a);
    }
    let edges = |p: &Polygon<T, 2>| {
        let v = p.vertices().to_vec();
        (0..v.len()).map(move |i| Segment::new_unchecked(v[i], v[(i + 1) % v.len()]))
    };
    for e in edges(a) {
        for f in edges(b) {
            if segments_intersect_2d(&e, &f) {
                return true;
            }
        }
    }
    point_in_polygon(&a.vertices()[0], b) || point_in_polygon(&b.vertices()[0], a)
}

/// Is one of `a`'s edge normals a separating axis of the two convex polygons?
fn has_separating_edge_normal<T: Real>(a: &Polygon<T, 2>, b: &Polygon<T, 2>) -> bool {
    a.edge_normals().any(|n| {
        let (amin, amax) = project(a, &n);
        let (bmin, bmax) = project(b, &n);
        amax < bmin || bmax < amin
    })
}

fn project<T: Real>(p: &Polygon<T, 2>, axis: &Vector<T, 2>) -> (T, T) {
    p.vertices().iter().fold((T::infinity(), -T::infinity()), |(lo, hi), v| {
        let s = axis.dot(&v.coords);
        (lo.min(s), hi.max(s))
    })
}
