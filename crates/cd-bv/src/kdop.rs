//! k-DOPs from points and from child DOPs.

use cd_geom::{kdop_directions, BoundingVolume, GeomError, GeomResult, Kdop, Point, Real};

/// The tightest k-DOP of a point set for the standard direction sets (3D: 6, 14, 18, 26;
/// 2D: 4, 8), in one pass: each direction is a sum of ±coordinates, so every slab value is a
/// few additions. Errors: empty input, bad coordinates, an unsupported `(D, N)`. O(n·N).
pub fn kdop_from_points<T: Real, const D: usize, const N: usize>(
    points: &[Point<T, D>],
) -> GeomResult<Kdop<T, D, N>> {
    let dirs = kdop_directions::<T, D, N>().ok_or(GeomError::UnsupportedDirectionSet)?;
    if points.is_empty() {
        return Err(GeomError::TooFewPoints);
    }
    let mut min = [T::infinity(); N];
    let mut max = [-T::infinity(); N];
    let limit = T::coord_limit();
    let mut valid = true;
    for p in points {
        for i in 0..D {
            valid &= (p[i] >= -limit) & (p[i] <= limit);
        }
        for k in 0..N {
            let s = dirs[k].dot(&p.coords);
            if s < min[k] {
                min[k] = s;
            }
            if s > max[k] {
                max[k] = s;
            }
        }
    }
    if !valid {
        return Err(crate::aabb::invalid_points_error(points));
    }
    Kdop::new(min, max)
}

/// The k-DOP enclosing a set of child DOPs (a BVH parent). Error: empty input. O(n·N).
pub fn kdop_of_kdops<T: Real, const D: usize, const N: usize>(
    children: &[Kdop<T, D, N>],
) -> GeomResult<Kdop<T, D, N>> {
    let first = children.first().ok_or(GeomError::TooFewPoints)?;
    Ok(children[1..].iter().fold(*first, |acc, c| acc.merged(c)))
}
