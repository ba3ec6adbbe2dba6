//! k-DOPs from points and from child DOPs.

use crate::aabb::{chunked_bounds, direction_groups};
use cd_geom::{kdop_directions, Ball, BoundingVolume, GeomError, GeomResult, Kdop, Obb, Point, Real};

/// The tightest k-DOP of a point set for the standard direction sets (3D: 6, 14, 18, 26;
/// 2D: 4, 8), in one validating pass over chunks of points, eight directions at a time as
/// packed multiply-adds and running minima and maxima (the pass of DiTO's and EPOS's extremes,
/// without their index search). Errors: empty input, bad coordinates, an unsupported
/// `(D, N)`. O(n·N).
pub fn kdop_from_points<T: Real, const D: usize, const N: usize>(
    points: &[Point<T, D>],
) -> GeomResult<Kdop<T, D, N>> {
    let dirs = kdop_directions::<T, D, N>().ok_or(GeomError::UnsupportedDirectionSet)?;
    if points.is_empty() {
        return Err(GeomError::TooFewPoints);
    }
    let bounds = chunked_bounds::<T, D, N>(points, &direction_groups(&dirs));
    if !bounds.valid {
        return Err(crate::aabb::invalid_points_error(points));
    }
    Kdop::new(bounds.lo, bounds.hi)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The slabs are exactly the smallest and largest `n·p` as `Vector::dot` computes them
    /// (so a point of the set tested against its own DOP is inside to the bit), for every
    /// standard direction set, in f32 and f64, over lengths around the chunk and lane sizes.
    #[test]
    fn slabs_equal_the_dot_products() {
        fn check<T: Real, const D: usize, const N: usize>(pts: &[Point<T, D>]) {
            let k = kdop_from_points::<T, D, N>(pts).unwrap();
            let dirs = kdop_directions::<T, D, N>().unwrap();
            for (j, n) in dirs.iter().enumerate() {
                let s = pts.iter().map(|p| n.dot(&p.coords));
                let lo = s.clone().fold(T::infinity(), |m, x| if x < m { x } else { m });
                let hi = s.fold(-T::infinity(), |m, x| if x > m { x } else { m });
                assert_eq!((k.min()[j], k.max()[j]), (lo, hi), "direction {j} of {N}, {} points", pts.len());
            }
        }
        for n in [1, 2, 7, 8, 9, 63, 64, 65, 200, 1000] {
            // Duplicates and far outliers, extremes in different chunks and at chunk edges.
            let p3 = crate::aabb::tests::cloud(n, 7.0);
            let q3: Vec<Point<f32, 3>> = p3.iter().map(|p| p.cast::<f32>()).collect();
            check::<f64, 3, 3>(&p3);
            check::<f64, 3, 7>(&p3);
            check::<f64, 3, 9>(&p3);
            check::<f64, 3, 13>(&p3);
            check::<f32, 3, 13>(&q3);
            check::<f32, 3, 9>(&q3);
            let p2: Vec<Point<f64, 2>> = p3.iter().map(|p| Point::<f64, 2>::new(p.x, p.y)).collect();
            check::<f64, 2, 2>(&p2);
            check::<f64, 2, 4>(&p2);
        }
    }
}
