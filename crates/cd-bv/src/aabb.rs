//! Axis-aligned boxes from points, from child volumes and from transformed volumes.

use cd_geom::{Aabb, Ball, GeomError, GeomResult, Obb, Point, Real, Vector};
use nalgebra::{AbstractRotation, Isometry, Isometry3, Point3, Vector3};

/// The tightest AABB of a point set in one pass (2D or 3D). The loop keeps running minima and
/// maxima per coordinate and folds the validity check into the same pass with non-short-circuit
/// `&`, so it vectorizes. Errors: empty input, a non-finite or out-of-range coordinate. O(n·D).
pub fn aabb_from_points<T: Real, const D: usize>(points: &[Point<T, D>]) -> GeomResult<Aabb<T, D>> {
    let first = points.first().ok_or(GeomError::TooFewPoints)?;
    let mut lo = first.coords;
    let mut hi = first.coords;
    let limit = T::coord_limit();
    let mut valid = true;
    for p in points {
        for i in 0..D {
            let x = p[i];
            // NaN fails both comparisons, so it clears `valid`.
            valid &= (x >= -limit) & (x <= limit);
            lo[i] = if x < lo[i] { x } else { lo[i] };
            hi[i] = if x > hi[i] { x } else { hi[i] };
        }
    }
    if !valid {
        return Err(invalid_points_error(points));
    }
    Aabb::new(Point::from(lo), Point::from(hi))
}

/// Which error a point set that failed the one-pass range check deserves (slow path, only
/// taken on bad input).
pub(crate) fn invalid_points_error<T: Real, const D: usize>(points: &[Point<T, D>]) -> GeomError {
    if points.iter().any(|p| p.iter().any(|x| !x.is_finite())) {
        GeomError::NonFinite
    } else {
        GeomError::OutOfRange
    }
}

/// The AABB enclosing a set of child AABBs (a BVH parent). Error: empty input. O(n·D).
pub fn aabb_of_aabbs<T: Real, const D: usize>(boxes: &[Aabb<T, D>]) -> GeomResult<Aabb<T, D>> {
    let first = boxes.first().ok_or(GeomError::TooFewPoints)?;
    Ok(boxes[1..].iter().fold(*first, |acc, b| acc.merged(b)))
}

/// The AABB of a ball. Error: the box would leave the coordinate range.
pub fn aabb_of_ball<T: Real, const D: usize>(ball: &Ball<T, D>) -> GeomResult<Aabb<T, D>> {
    Aabb::from_center_half_extents(*ball.center(), Vector::repeat(ball.radius()))
}

/// The AABB of an OBB: half extents `|A|·h` (Arvo 1990). Error: the box would leave the
/// coordinate range.
pub fn aabb_of_obb<T: Real, const D: usize>(obb: &Obb<T, D>) -> GeomResult<Aabb<T, D>> {
    let half = obb.axes().abs() * obb.half_extents();
    Aabb::from_center_half_extents(*obb.center(), half)
}

/// The AABB of an AABB moved by a rigid motion, without visiting its corners (Arvo 1990): the
/// centre moves, the half extents become `|R|·h`. Error: the result leaves the coordinate
/// range.
pub fn transformed_aabb<T, R, const D: usize>(
    aabb: &Aabb<T, D>,
    pose: &Isometry<T, R, D>,
) -> GeomResult<Aabb<T, D>>
where
    T: Real,
    R: AbstractRotation<T, D>,
{
    let center = pose.transform_point(&aabb.center());
    let h = aabb.half_extents();
    // Column i of R is R·e_i; |R|·h = Σ_i |R e_i| h_i.
    let mut half = Vector::<T, D>::zeros();
    for i in 0..D {
        let mut e = Vector::<T, D>::zeros();
        e[i] = T::one();
        half += pose.rotation.transform_vector(&e).abs() * h[i];
    }
    Aabb::from_center_half_extents(center, half)
}

/// The tightest AABB of a point set moved by a rigid motion (a convex hull's vertices in body
/// coordinates, placed by the body's pose), without building the moved points: the rotation
/// becomes a matrix once, and each coordinate of `R·p` is a row's dot product, folded into the
/// running minima and maxima. About three times cheaper than six support queries through the
/// pose on a small hull. Errors: empty input, a moved point outside the coordinate range.
/// O(n).
pub fn aabb_of_posed_points<T: Real>(points: &[Point3<T>], pose: &Isometry3<T>) -> GeomResult<Aabb<T, 3>> {
    if points.is_empty() {
        return Err(GeomError::TooFewPoints);
    }
    let r = pose.rotation.to_rotation_matrix().into_inner();
    let mut lo = Vector3::repeat(T::infinity());
    let mut hi = Vector3::repeat(-T::infinity());
    for p in points {
        let q = r * p.coords;
        lo = lo.inf(&q);
        hi = hi.sup(&q);
    }
    let t = pose.translation.vector;
    Aabb::new(Point::from(lo + t), Point::from(hi + t))
}

/// [`extremes`] along the coordinate axes (`D ≤ 4`; larger `D` falls back to it): one
/// validating pass returning, per axis, the index of a point with the smallest and of one with
/// the largest coordinate.
///
/// Each point is held as four lanes (its coordinates, padded) and the running minima of the
/// coordinates and of their negations are lane-wise selects, so the per-point work is two
/// packed `min`s whose dependency chain is one instruction long, and the range check is a mask
/// (a `bool` would keep the loop scalar); the general pass projects on arbitrary directions
/// and chains a compare-and-blend sequence per point, about twice slower. Indices are found as
/// in [`extremes`]: only a chunk that improves an extreme is re-scanned.
pub(crate) fn axis_extremes<T: Real, const D: usize>(
    points: &[Point<T, D>],
) -> GeomResult<([usize; D], [usize; D])> {
    const CHUNK: usize = 64;
    const LANES: usize = 4;
    if D > LANES {
        let dirs: [Vector<T, D>; D] = core::array::from_fn(|i| {
            Vector::<T, D>::from_fn(|r, _| if r == i { T::one() } else { T::zero() })
        });
        let (_, lo, _, hi) = extremes(points, &dirs)?;
        return Ok((lo, hi));
    }
    if points.is_empty() {
        return Err(GeomError::TooFewPoints);
    }
    let limit = T::coord_limit();
    // Per lane, 0 while every coordinate seen is in range.
    let mut bad = [0u32; LANES];
    // Running minima of the coordinates and of their negations (so both are minima).
    let mut lo = [T::infinity(); LANES];
    let mut neg_hi = [T::infinity(); LANES];
    let mut lo_i = [0usize; D];
    let mut hi_i = [0usize; D];
    for (c, chunk) in points.chunks(CHUNK).enumerate() {
        let mut clo = [T::infinity(); LANES];
        let mut cneg = [T::infinity(); LANES];
        for p in chunk {
            let v: [T; LANES] = core::array::from_fn(|i| if i < D { p[i] } else { T::zero() });
            for i in 0..LANES {
                // Both comparisons are false for NaN too.
                bad[i] |= !((v[i] >= -limit) & (v[i] <= limit)) as u32;
                clo[i] = if v[i] < clo[i] { v[i] } else { clo[i] };
                cneg[i] = if -v[i] < cneg[i] { -v[i] } else { cneg[i] };
            }
        }
        for k in 0..D {
            if clo[k] < lo[k] {
                lo[k] = clo[k];
                lo_i[k] = c * CHUNK + chunk.iter().position(|p| p[k] == clo[k]).unwrap_or(0);
            }
            if cneg[k] < neg_hi[k] {
                neg_hi[k] = cneg[k];
                hi_i[k] = c * CHUNK + chunk.iter().position(|p| -p[k] == cneg[k]).unwrap_or(0);
            }
        }
    }
    if bad.iter().any(|&b| b != 0) {
        return Err(invalid_points_error(points));
    }
    Ok((lo_i, hi_i))
}

/// One validating pass over the points: for each of the `N` directions, the smallest and
/// largest projection and the index of the point reaching it. The validity check (finite,
/// within the coordinate limit) is folded into the same pass.
///
/// The pass works in chunks of 64 points: per chunk only the extreme *values* are tracked
/// (branch-free selects the compiler keeps in registers), and the rare chunk that improves a
/// global extreme is re-scanned for the index. About three times faster than tracking indices
/// point by point. Errors: empty input, bad coordinates.
#[allow(clippy::type_complexity)]
pub(crate) fn extremes<T: Real, const D: usize, const N: usize>(
    points: &[Point<T, D>],
    dirs: &[Vector<T, D>; N],
) -> GeomResult<([T; N], [usize; N], [T; N], [usize; N])> {
    const CHUNK: usize = 64;
    if points.is_empty() {
        return Err(GeomError::TooFewPoints);
    }
    let limit = T::coord_limit();
    let mut valid = true;
    let mut lo = [T::infinity(); N];
    let mut hi = [-T::infinity(); N];
    let mut lo_i = [0usize; N];
    let mut hi_i = [0usize; N];
    let project = |k: usize, p: &Point<T, D>| dirs[k].dot(&p.coords);
    for (c, chunk) in points.chunks(CHUNK).enumerate() {
        let mut clo = [T::infinity(); N];
        let mut chi = [-T::infinity(); N];
        for p in chunk {
            for k in 0..D {
                valid &= (p[k] >= -limit) & (p[k] <= limit);
            }
            for k in 0..N {
                let s = project(k, p);
                clo[k] = if s < clo[k] { s } else { clo[k] };
                chi[k] = if s > chi[k] { s } else { chi[k] };
            }
        }
        for k in 0..N {
            if clo[k] < lo[k] {
                lo[k] = clo[k];
                lo_i[k] = c * CHUNK + chunk.iter().position(|p| project(k, p) == clo[k]).unwrap_or(0);
            }
            if chi[k] > hi[k] {
                hi[k] = chi[k];
                hi_i[k] = c * CHUNK + chunk.iter().position(|p| project(k, p) == chi[k]).unwrap_or(0);
            }
        }
    }
    if !valid {
        return Err(invalid_points_error(points));
    }
    Ok((lo, lo_i, hi, hi_i))
}
