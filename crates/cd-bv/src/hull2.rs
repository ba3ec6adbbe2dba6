//! 2D convex hull by Andrew's monotone chain (Andrew 1979).

use crate::aabb::aabb_from_points;
use cd_geom::{GeomResult, Point, Real};

/// Twice the signed area of `o, a, b` (positive when counter-clockwise), in `f64`.
#[inline]
fn cross(o: &Point<f64, 2>, a: &Point<f64, 2>, b: &Point<f64, 2>) -> f64 {
    (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
}

/// Indices of the convex hull vertices of a 2D point set, counter-clockwise, starting at the
/// lowest-x (then lowest-y) point, without collinear points. Duplicates are fine. A set of
/// identical points gives one index, a collinear set its two end points. Andrew's monotone
/// chain: sort by x then y, then build the lower and upper chains popping every non-left turn.
/// O(n log n). Errors: empty input, bad coordinates.
pub fn convex_hull_2d_indices<T: Real>(points: &[Point<T, 2>]) -> GeomResult<Vec<usize>> {
    aabb_from_points(points)?;
    let p: Vec<Point<f64, 2>> =
        points.iter().map(|q| Point::<f64, 2>::new(q.x.to_f64(), q.y.to_f64())).collect();
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| p[a].x.total_cmp(&p[b].x).then(p[a].y.total_cmp(&p[b].y)));
    order.dedup_by(|a, b| p[*a] == p[*b]);
    if order.len() < 3 {
        return Ok(order);
    }
    let mut hull: Vec<usize> = Vec::with_capacity(2 * order.len());
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &usize>> =
            if pass == 0 { Box::new(order.iter()) } else { Box::new(order.iter().rev()) };
        for &i in iter {
            while hull.len() >= start + 2
                && cross(&p[hull[hull.len() - 2]], &p[hull[hull.len() - 1]], &p[i]) <= 0.0
            {
                hull.pop();
            }
            hull.push(i);
        }
        hull.pop(); // the last point starts the other chain
    }
    if hull.len() < 3 {
        // Collinear input: the two extremes.
        hull.truncate(2);
    }
    Ok(hull)
}

/// The convex hull vertices of a 2D point set (see [`convex_hull_2d_indices`]).
pub fn convex_hull_2d<T: Real>(points: &[Point<T, 2>]) -> GeomResult<Vec<Point<T, 2>>> {
    Ok(convex_hull_2d_indices(points)?.into_iter().map(|i| points[i]).collect())
}
