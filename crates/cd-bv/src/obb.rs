//! Oriented bounding boxes: principal component analysis (on the points, on the hull's
//! vertices, and area-weighted over the hull's surface), fitted to a given orientation.
//! DiTO lives in [`dito`](crate::obb_dito14), the reference and 2D exact boxes in
//! [`obb_reference`](crate::obb_reference) and [`obb_min_area_2d`](crate::obb_min_area_2d).

use crate::aabb::{aabb_from_points, projection_bounds};
use crate::hull2::convex_hull_2d_indices;
use crate::quickhull::{convex_hull, Hull};
use crate::welzl::to64;
use cd_geom::{GeomError, GeomResult, Matrix, Obb, Point, Real, Vector};
use nalgebra::{DMatrix, SMatrix, SVector};

/// Makes `axes` (columns) exactly orthonormal and right-handed by Gram–Schmidt, keeping the
/// direction of the first column. Degenerate columns are replaced by coordinate axes.
pub(crate) fn orthonormalize<const D: usize>(axes: &SMatrix<f64, D, D>) -> SMatrix<f64, D, D> {
    let mut out = SMatrix::<f64, D, D>::zeros();
    let mut filled = 0;
    let candidates = (0..D).map(|i| axes.column(i).into_owned()).chain((0..D).map(|i| {
        let mut e = SVector::<f64, D>::zeros();
        e[i] = 1.0;
        e
    }));
    for mut c in candidates {
        if filled == D {
            break;
        }
        for j in 0..filled {
            let q = out.column(j).into_owned();
            c -= q * q.dot(&c);
        }
        let n = c.norm();
        if n > 1e-6 {
            out.set_column(filled, &(c / n));
            filled += 1;
        }
    }
    let det = DMatrix::from_fn(D, D, |i, j| out[(i, j)]).determinant();
    if det < 0.0 {
        let last = -out.column(D - 1).into_owned();
        out.set_column(D - 1, &last);
    }
    out
}

/// The box with the given orientation (orthonormal columns) that tightly contains the points,
/// padded by a few ulps so that containment survives rounding. Error: bad or empty input.
pub fn obb_with_axes<T: Real, const D: usize>(
    points: &[Point<T, D>],
    axes: &Matrix<T, D>,
) -> GeomResult<Obb<T, D>> {
    aabb_from_points(points)?;
    let a64 = orthonormalize(&SMatrix::<f64, D, D>::from_fn(|i, j| axes[(i, j)].to_f64()));
    fit(points, &a64)
}

/// Lanes of [`fit`]'s projection groups: one group holds the two or three axes of 2D and 3D
/// in one register; more dimensions take more groups.
const FIT_LANES: usize = 4;

/// Fits extents along `a64` (orthonormal, right-handed) to the points. The projection pass
/// runs in `T` (so `f32` input stays `f32` and vectorizes), on the points taken relative to the
/// first one; the extents are measured from the centre as stored in `T` and padded by the
/// rounding of those projections, a few ulps of the largest of them.
///
/// Relative, so that a box far from the origin is as tight as the same box near it: absolute
/// projections round at the coordinates' size, and the pad for that rounding made a unit-sized
/// `f32` box at 10⁵ 2.5 times the volume of its fit at the origin. Measuring from the stored
/// centre spares the pad the centre's own rounding (half an ulp of its coordinates).
pub(crate) fn fit<T: Real, const D: usize>(
    points: &[Point<T, D>],
    a64: &SMatrix<f64, D, D>,
) -> GeomResult<Obb<T, D>> {
    let Some(first) = points.first() else {
        return Err(GeomError::TooFewPoints);
    };
    let axes = Matrix::<T, D>::from_fn(|i, j| T::lit(a64[(i, j)]));
    let origin: [T; D] = core::array::from_fn(|i| first[i]);
    // The axes as lane-wise direction groups of four (the extremal pass's projection loop: per
    // point D packed multiply-adds, a packed minimum and a packed maximum, not 2·D scalar
    // compares), one pass per group: a single pass in 2D and 3D.
    let mut lo = Vector::<T, D>::zeros();
    let mut hi = Vector::<T, D>::zeros();
    for first in (0..D).step_by(FIT_LANES) {
        let group: [[T; FIT_LANES]; D] = core::array::from_fn(|i| {
            core::array::from_fn(|l| if first + l < D { axes[(i, first + l)] } else { T::zero() })
        });
        let (lo_lanes, hi_lanes) = projection_bounds::<T, D, FIT_LANES, true>(points, &origin, &group);
        for l in 0..FIT_LANES.min(D - first) {
            (lo[first + l], hi[first + l]) = (lo_lanes[l], hi_lanes[l]);
        }
    }
    let lo64 = SVector::<f64, D>::from_fn(|i, _| lo[i].to_f64());
    let hi64 = SVector::<f64, D>::from_fn(|i, _| hi[i].to_f64());
    let magnitude = lo64.amax().max(hi64.amax()) * D as f64;
    let pad = 8.0 * T::epsilon().to_f64() * magnitude + f64::MIN_POSITIVE;
    let origin64 = to64(first);
    let middle = origin64 + a64 * ((lo64 + hi64) * 0.5);
    let center = Point::from(Vector::<T, D>::from_fn(|i, _| T::lit(middle[i])));
    // Where the stored centre projects, relative to the first point.
    let at = a64.transpose() * (to64(&center) - origin64);
    let half = SVector::<f64, D>::from_fn(|i, _| (hi64[i] - at[i]).max(at[i] - lo64[i]) + pad);
    Obb::new(center, axes, Vector::<T, D>::from_fn(|i, _| T::lit(half[i])))
}

/// Eigenvectors of a symmetric matrix (nalgebra's symmetric eigen-decomposition), as columns
/// sorted by decreasing eigenvalue, made orthonormal and right-handed.
pub(crate) fn principal_axes<const D: usize>(cov: &SMatrix<f64, D, D>) -> SMatrix<f64, D, D> {
    let dynamic = DMatrix::from_fn(D, D, |i, j| cov[(i, j)]);
    let eig = dynamic.symmetric_eigen();
    let mut order: Vec<usize> = (0..D).collect();
    order.sort_by(|&a, &b| eig.eigenvalues[b].total_cmp(&eig.eigenvalues[a]));
    let axes = SMatrix::<f64, D, D>::from_fn(|i, j| eig.eigenvectors[(i, order[j])]);
    orthonormalize(&axes)
}

/// Covariance of a point set (about its mean), in `f64`.
pub(crate) fn covariance<T: Real, const D: usize>(points: &[Point<T, D>]) -> SMatrix<f64, D, D> {
    let n = points.len() as f64;
    let mean = points.iter().fold(SVector::<f64, D>::zeros(), |s, p| s + to64(p)) / n;
    let mut c = SMatrix::<f64, D, D>::zeros();
    for p in points {
        let d = to64(p) - mean;
        c += d * d.transpose();
    }
    c / n
}

/// OBB by **PCA on the points**: the eigenvectors of the points' covariance matrix are the box
/// axes (Gottschalk et al. 1996 use the hull; this is the plain point version parry's
/// `utils::obb` also implements). Sensitive to point density. O(n). Errors: bad or empty input.
pub fn obb_pca<T: Real, const D: usize>(points: &[Point<T, D>]) -> GeomResult<Obb<T, D>> {
    aabb_from_points(points)?;
    fit(points, &principal_axes(&covariance(points)))
}

/// The hull vertices of a 2D or 3D point set (all points when the set is degenerate).
pub(crate) fn hull_vertices<T: Real, const D: usize>(points: &[Point<T, D>]) -> GeomResult<Vec<Point<T, D>>> {
    match D {
        2 => {
            let p2: Vec<Point<T, 2>> = points.iter().map(|p| Point::<T, 2>::new(p[0], p[1])).collect();
            Ok(convex_hull_2d_indices(&p2)?.into_iter().map(|i| points[i]).collect())
        }
        3 => {
            let p3: Vec<Point<T, 3>> = points.iter().map(|p| Point::<T, 3>::new(p[0], p[1], p[2])).collect();
            let verts: Vec<Point<T, 3>> = match convex_hull(&p3)? {
                Hull::Polyhedron(h) => h.vertices().to_vec(),
                _ => p3,
            };
            Ok(verts.iter().map(|v| Point::from(Vector::<T, D>::from_fn(|i, _| v[i]))).collect())
        }
        _ => Err(GeomError::UnsupportedDirectionSet),
    }
}

/// OBB by **PCA on the convex hull's vertices** (Gottschalk, Lin and Manocha 1996): interior
/// points no longer bias the axes, though uneven hull vertex density still does. O(n log n).
pub fn obb_pca_hull<T: Real, const D: usize>(points: &[Point<T, D>]) -> GeomResult<Obb<T, D>> {
    let hull = hull_vertices(points)?;
    aabb_from_points(points)?;
    fit(points, &principal_axes(&covariance(&hull)))
}

/// OBB by **area-weighted PCA over the hull's surface** (Gottschalk 2000, "continuous" PCA):
/// the covariance of the hull's boundary as a uniform surface, from its triangles' areas,
/// centroids and vertices, so tessellation density no longer matters. 3D. O(n log n).
pub fn obb_pca_hull_area<T: Real>(points: &[Point<T, 3>]) -> GeomResult<Obb<T, 3>> {
    let Hull::Polyhedron(h) = convex_hull(points)? else {
        return obb_pca(points);
    };
    let mut area = 0.0;
    let mut mean = SVector::<f64, 3>::zeros();
    let mut second = SMatrix::<f64, 3, 3>::zeros();
    for f in h.faces() {
        let idx = h.face_vertices(f);
        let a = to64(&h.vertices()[idx[0] as usize]);
        for w in idx[1..].windows(2) {
            let (b, c) = (to64(&h.vertices()[w[0] as usize]), to64(&h.vertices()[w[1] as usize]));
            let ai = (b - a).cross(&(c - a)).norm() * 0.5;
            let m = (a + b + c) / 3.0;
            area += ai;
            mean += m * ai;
            // ∫ x xᵀ dA over a triangle = A/12 (9 m mᵀ + a aᵀ + b bᵀ + c cᵀ).
            second += (m * m.transpose() * 9.0 + a * a.transpose() + b * b.transpose() + c * c.transpose())
                * (ai / 12.0);
        }
    }
    if area <= 0.0 {
        return obb_pca(points);
    }
    let mean = mean / area;
    let cov = second / area - mean * mean.transpose();
    fit(points, &principal_axes(&cov))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Point, SVector};

    /// Past four dimensions the fit projects in more than one group of lanes: in 5D and 9D,
    /// with the identity's axes the box is the points' AABB (to its padding), with a signed
    /// permutation of them it still holds every point tightly, and `obb_pca` holds them too.
    #[test]
    fn fits_beyond_one_group_of_lanes() {
        fn check<const D: usize>() {
            // Deterministic, spread over [-(i + 1), i + 1] on axis i (a different stride per
            // axis, so the coordinates are not correlated).
            let pts: Vec<Point<f64, D>> = (0..200)
                .map(|j| {
                    Point::from(SVector::<f64, D>::from_fn(|i, _| {
                        (((j * 7919 + i * 104_729 + j * i * 31) % 2003) as f64 / 1001.5 - 1.0)
                            * (i + 1) as f64
                    }))
                })
                .collect();
            // The points' bounds along coordinate axis `i`.
            let bounds = |i: usize| {
                pts.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| (l.min(p[i]), h.max(p[i])))
            };
            let identity = fit(&pts, &SMatrix::<f64, D, D>::identity()).expect("valid");
            for i in 0..D {
                let (lo, hi) = bounds(i);
                assert!((identity.center()[i] - (lo + hi) / 2.0).abs() < 1e-9, "D {D} axis {i}");
                assert!((identity.half_extents()[i] - (hi - lo) / 2.0).abs() < 1e-9, "D {D} axis {i}");
            }
            // Axis j is ±e_(j + 1 mod D): orthonormal (the fit does not need the handedness),
            // and each fitted extent must be the extent of the coordinate it reads.
            let mut turned = SMatrix::<f64, D, D>::zeros();
            for j in 0..D {
                turned[((j + 1) % D, j)] = if j % 2 == 0 { 1.0 } else { -1.0 };
            }
            let b = fit(&pts, &turned).expect("valid");
            for j in 0..D {
                let (lo, hi) = bounds((j + 1) % D);
                assert!((b.half_extents()[j] - (hi - lo) / 2.0).abs() < 1e-9, "D {D} axis {j}");
            }
            for b in [identity, b, crate::obb_pca(&pts).expect("valid")] {
                assert!(pts.iter().all(|p| b.contains_point(p)), "D {D}");
            }
        }
        check::<5>();
        check::<9>();
    }
}
