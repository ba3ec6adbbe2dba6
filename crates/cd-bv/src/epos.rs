//! EPOS: extremal points optimal sphere (Larsson 2008, "Fast and Tight Fitting Bounding Spheres").

use crate::aabb::{aabb_from_points, extremes};
use crate::sphere::grow_to_cover;
use crate::welzl::{ball_from64, minimal_ball_of_small, to64};
use cd_geom::{Ball, GeomResult, Point, Real};
use nalgebra::SVector;

/// The direction sets of EPOS in 3D, named by the number of extremal points they select.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EposSet {
    /// s = 3 normals (the axes): 6 extremal points.
    Epos6,
    /// s = 7 normals (axes and cube corners): 14 extremal points.
    Epos14,
    /// s = 13 normals (axes, corners and edges): 26 extremal points.
    Epos26,
    /// s = 49 normals (the 13 above plus the 36 of types (0,1,2), (1,1,2), (1,2,2)): 98 points.
    Epos98,
}

/// The integer normals of a set (not normalized: only the ranking of projections matters).
fn normals(set: EposSet) -> Vec<SVector<f64, 3>> {
    // All non-zero vectors with components in {-2..2}, first non-zero component positive,
    // whose sorted absolute values form one of the admitted types.
    let types: &[[i32; 3]] = match set {
        EposSet::Epos6 => &[[0, 0, 1]],
        EposSet::Epos14 => &[[0, 0, 1], [1, 1, 1]],
        EposSet::Epos26 => &[[0, 0, 1], [1, 1, 1], [0, 1, 1]],
        EposSet::Epos98 => &[[0, 0, 1], [1, 1, 1], [0, 1, 1], [0, 1, 2], [1, 1, 2], [1, 2, 2]],
    };
    let mut out = Vec::new();
    for x in -2i32..=2 {
        for y in -2i32..=2 {
            for z in -2i32..=2 {
                let v = [x, y, z];
                let first = v.iter().find(|c| **c != 0);
                if first.is_none_or(|c| *c < 0) {
                    continue;
                }
                let mut abs = v.map(|c| c.abs());
                abs.sort_unstable();
                if types.contains(&abs) {
                    out.push(SVector::<f64, 3>::new(x as f64, y as f64, z as f64));
                }
            }
        }
    }
    out
}

/// EPOS (Larsson 2008): the extremal points of the point set along `s` fixed normals (one
/// pass), their exact minimal ball (Welzl on at most 2s points), then Ritter's growing pass so
/// every point is covered. Near-optimal (typically within 1 % of the minimal radius for
/// [`EposSet::Epos98`]) at the cost of a few passes. O(n·s). Errors: bad or empty input.
pub fn epos_ball<T: Real>(points: &[Point<T, 3>], set: EposSet) -> GeomResult<Ball<T, 3>> {
    let dirs = normals(set);
    let mut ext: Vec<SVector<f64, 3>> = if points.len() <= 2 * dirs.len() {
        aabb_from_points(points)?;
        points.iter().map(to64).collect()
    } else {
        let idx = match set {
            EposSet::Epos6 => extremal_indices::<T, 3>(points, &dirs)?,
            EposSet::Epos14 => extremal_indices::<T, 7>(points, &dirs)?,
            EposSet::Epos26 => extremal_indices::<T, 13>(points, &dirs)?,
            EposSet::Epos98 => extremal_indices::<T, 49>(points, &dirs)?,
        };
        idx.into_iter().map(|i| to64(&points[i])).collect()
    };
    let mut ball = minimal_ball_of_small(&mut ext);
    grow_to_cover(&mut ball, points);
    ball_from64(&ball, 0.0)
}

/// Indices of the points extreme along each of `N` directions (both ends), in one chunked pass.
fn extremal_indices<T: Real, const N: usize>(
    points: &[Point<T, 3>],
    dirs: &[SVector<f64, 3>],
) -> GeomResult<Vec<usize>> {
    let d: [nalgebra::Vector3<T>; N] = core::array::from_fn(|k| dirs[k].map(T::lit));
    let (_, lo, _, hi) = extremes(points, &d)?;
    Ok(lo.iter().chain(hi.iter()).copied().collect())
}

/// The number of normals of a set (3, 7, 13 or 49).
pub fn epos_normal_count(set: EposSet) -> usize {
    normals(set).len()
}
