//! k-DOPs from points and from child DOPs.

use cd_geom::{kdop_directions, Ball, BoundingVolume, GeomError, GeomResult, Kdop, Obb, Point, Real};

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

/// The tightest k-DOP of an OBB (any orientation: this is how a transformed AABB or k-DOP
/// child gets a DOP parent): each slab is the box's centre projection ± its projected radius
/// `Σ hᵢ |n·axisᵢ|`. Errors: an unsupported `(D, N)`, a result beyond the coordinate range.
pub fn kdop_of_obb<T: Real, const D: usize, const N: usize>(obb: &Obb<T, D>) -> GeomResult<Kdop<T, D, N>> {
    let dirs = kdop_directions::<T, D, N>().ok_or(GeomError::UnsupportedDirectionSet)?;
    let mut min = [T::zero(); N];
    let mut max = [T::zero(); N];
    for k in 0..N {
        let c = dirs[k].dot(&obb.center().coords);
        let local = obb.vector_to_local(&dirs[k]);
        let r = (0..D).fold(T::zero(), |s, i| s + local[i].abs() * obb.half_extents()[i]);
        min[k] = c - r;
        max[k] = c + r;
    }
    Kdop::new(min, max)
}

/// The tightest k-DOP of a ball: centre projection ± `r |n|`. Errors as [`kdop_of_obb`].
pub fn kdop_of_ball<T: Real, const D: usize, const N: usize>(ball: &Ball<T, D>) -> GeomResult<Kdop<T, D, N>> {
    let dirs = kdop_directions::<T, D, N>().ok_or(GeomError::UnsupportedDirectionSet)?;
    let min = core::array::from_fn(|k| dirs[k].dot(&ball.center().coords) - ball.radius() * dirs[k].norm());
    let max = core::array::from_fn(|k| dirs[k].dot(&ball.center().coords) + ball.radius() * dirs[k].norm());
    Kdop::new(min, max)
}
