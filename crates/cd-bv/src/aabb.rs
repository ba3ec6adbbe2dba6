//! Axis-aligned boxes from points, from child volumes and from transformed volumes.

use crate::blocks::{coordinate_bounds, within_limit};
use cd_geom::{Aabb, Ball, GeomError, GeomResult, Obb, Point, Real, Vector};
use nalgebra::{AbstractRotation, Isometry, Isometry3, Point3, Vector3};

/// The tightest AABB of a point set in one pass (2D or 3D): the points are read as blocks of
/// coordinates with running minima and maxima per lane, packed instructions over the points
/// as they lie in memory, and the validity check rides on the same pass. Errors: empty input,
/// a non-finite or out-of-range coordinate. O(n·D).
pub fn aabb_from_points<T: Real, const D: usize>(points: &[Point<T, D>]) -> GeomResult<Aabb<T, D>> {
    if points.is_empty() {
        return Err(GeomError::TooFewPoints);
    }
    let (min, max, finite) = coordinate_bounds(points);
    if !(finite && within_limit(&min, &max)) {
        return Err(invalid_points_error(points));
    }
    Aabb::new(Point::from(min), Point::from(max))
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
        // Plain comparisons rather than simba's NaN-aware `inf`/`sup` (−5 % of the call on a
        // 12-point hull; a NaN pose leaves the bounds infinite either way, which `Aabb::new`
        // refuses). Lane arrays of the matrix's columns compiled worse (+13 %).
        for i in 0..3 {
            lo[i] = if q[i] < lo[i] { q[i] } else { lo[i] };
            hi[i] = if q[i] > hi[i] { q[i] } else { hi[i] };
        }
    }
    let t = pose.translation.vector;
    Aabb::new(Point::from(lo + t), Point::from(hi + t))
}

/// Points are scanned in chunks of this many by the extremal passes.
const CHUNK: usize = 64;

/// Index of the first point of chunk `c` satisfying `hit` (the point that set an extreme found
/// in that chunk; 0 if none, which cannot happen for a value taken from the chunk).
fn index_in_chunk<T: Real, const D: usize>(
    points: &[Point<T, D>],
    c: usize,
    hit: impl Fn(&Point<T, D>) -> bool,
) -> usize {
    let start = c * CHUNK;
    let end = (start + CHUNK).min(points.len());
    points[start..end].iter().position(hit).map_or(0, |j| start + j)
}

/// [`extremes`] along the coordinate axes: one validating pass returning, per axis, the index
/// of a point with the smallest and of one with the largest coordinate.
///
/// Each chunk's bounds come from [`coordinate_bounds`] (packed minima and maxima over blocks of
/// coordinates; the previous form held each point as four padded lanes and cost 1.6 ns a point
/// on the bunny, the blocks about a third of that). As in [`extremes`], only the last chunk to
/// improve each extreme is re-scanned for the index, at the end: re-scanning every improving
/// chunk at once, measured faster on large clouds with the old per-point loop, cost a quarter
/// of this pass's instructions on the bunny once the loop got cheap.
pub(crate) fn axis_extremes<T: Real, const D: usize>(
    points: &[Point<T, D>],
) -> GeomResult<([usize; D], [usize; D])> {
    if points.is_empty() {
        return Err(GeomError::TooFewPoints);
    }
    let mut lo = [T::infinity(); D];
    let mut hi = [-T::infinity(); D];
    // The chunk each extreme was last improved in, re-scanned for the index at the end.
    let mut lo_c = [0usize; D];
    let mut hi_c = [0usize; D];
    let mut finite = true;
    for (c, chunk) in points.chunks(CHUNK).enumerate() {
        let (clo, chi, chunk_finite) = coordinate_bounds(chunk);
        finite &= chunk_finite;
        for k in 0..D {
            lo_c[k] = if clo[k] < lo[k] { c } else { lo_c[k] };
            lo[k] = if clo[k] < lo[k] { clo[k] } else { lo[k] };
            hi_c[k] = if chi[k] > hi[k] { c } else { hi_c[k] };
            hi[k] = if chi[k] > hi[k] { chi[k] } else { hi[k] };
        }
    }
    if !(finite && within_limit(&lo, &hi)) {
        return Err(invalid_points_error(points));
    }
    let lo_i = core::array::from_fn(|k| index_in_chunk(points, lo_c[k], |p| p[k] == lo[k]));
    let hi_i = core::array::from_fn(|k| index_in_chunk(points, hi_c[k], |p| p[k] == hi[k]));
    Ok((lo_i, hi_i))
}

/// Directions projected together by [`projection_bounds`].
pub(crate) const W: usize = 8;

/// Directions in groups of [`W`], component by component (`group[i][l]` is component `i` of
/// direction `l` of the group); padding lanes are the zero direction.
pub(crate) fn direction_groups<T: Real, const D: usize>(dirs: &[Vector<T, D>]) -> Vec<[[T; W]; D]> {
    (0..dirs.len().div_ceil(W))
        .map(|g| {
            core::array::from_fn(|i| {
                core::array::from_fn(|l| dirs.get(g * W + l).map_or(T::zero(), |d| d[i]))
            })
        })
        .collect()
}

/// The smallest and the largest projection of the points (taken relative to `origin` when
/// `RELATIVE`, else absolute) on each direction of a group of `L` (`group[i][l]` is component `i` of direction `l`): per point `D` lane-wise multiply-adds, a
/// lane-wise minimum and a lane-wise maximum, packed instructions whose dependency chain from
/// one point to the next is one `min` (or `max`) long (a dot product and a compare-and-select
/// per direction chained every point to the previous one, several times slower).
///
/// The group and the result pass through [`core::hint::black_box`], so the compiler sees
/// neither the directions' values nor which lanes the caller reads: given the k-DOP normals as
/// constants it folded their zeros and ones into scalar adds and shuffles, and it dropped the
/// lanes a caller ignored (the eighth of DiTO-14's seven normals, five of an OBB fit's eight),
/// leaving a mix of packed and scalar code of about 40 instructions a point where whole
/// registers take 27 (DiTO-14 on the bunny, with the fit's four lanes: 179.5k → 138.8k
/// instructions).
#[inline]
pub(crate) fn projection_bounds<T: Real, const D: usize, const L: usize, const RELATIVE: bool>(
    points: &[Point<T, D>],
    origin: &[T; D],
    group: &[[T; L]; D],
) -> ([T; L], [T; L]) {
    let group = core::hint::black_box(*group);
    // Absolute projections skip the subtraction at compile time: with a zero origin the
    // compiler kept it, +8 % instructions for the k-DOP and EPOS passes.
    let coordinate = |p: &Point<T, D>, i: usize| if RELATIVE { p[i] - origin[i] } else { p[i] };
    let mut lo = [T::infinity(); L];
    let mut hi = [-T::infinity(); L];
    for p in points {
        let mut s = [T::zero(); L];
        for l in 0..L {
            s[l] = group[0][l] * coordinate(p, 0);
        }
        for (i, direction) in group.iter().enumerate().skip(1) {
            for l in 0..L {
                s[l] += direction[l] * coordinate(p, i);
            }
        }
        for l in 0..L {
            lo[l] = if s[l] < lo[l] { s[l] } else { lo[l] };
            hi[l] = if s[l] > hi[l] { s[l] } else { hi[l] };
        }
    }
    core::hint::black_box((lo, hi))
}

/// What [`chunked_bounds`] finds: per direction the smallest and largest projection and the
/// chunk that last improved each, and whether every coordinate is valid.
pub(crate) struct ChunkedBounds<T, const N: usize> {
    pub(crate) lo: [T; N],
    pub(crate) hi: [T; N],
    lo_c: [usize; N],
    hi_c: [usize; N],
    pub(crate) valid: bool,
}

/// The validating pass shared by [`extremes`] and the k-DOP builder: per direction (`N` of
/// them, in groups of [`W`] from [`direction_groups`]) the smallest and largest projection,
/// over chunks of [`CHUNK`] points (in L1 while each group runs over them,
/// [`projection_bounds`]), with the chunk that last improved each extreme. Validity: every
/// chunk's coordinates finite and their bounds in range (the blocks' pass, cheaper than a
/// range test per coordinate).
pub(crate) fn chunked_bounds<T: Real, const D: usize, const N: usize>(
    points: &[Point<T, D>],
    groups: &[[[T; W]; D]],
) -> ChunkedBounds<T, N> {
    let mut b = ChunkedBounds {
        lo: [T::infinity(); N],
        hi: [-T::infinity(); N],
        lo_c: [0; N],
        hi_c: [0; N],
        valid: true,
    };
    for (c, chunk) in points.chunks(CHUNK).enumerate() {
        let (coord_lo, coord_hi, finite) = coordinate_bounds(chunk);
        b.valid &= finite && within_limit(&coord_lo, &coord_hi);
        for (g, comp) in groups.iter().enumerate() {
            let (clo, chi) = projection_bounds::<T, D, W, false>(chunk, &[T::zero(); D], comp);
            for l in 0..W.min(N - g * W) {
                let k = g * W + l;
                if clo[l] < b.lo[k] {
                    b.lo[k] = clo[l];
                    b.lo_c[k] = c;
                }
                if chi[l] > b.hi[k] {
                    b.hi[k] = chi[l];
                    b.hi_c[k] = c;
                }
            }
        }
    }
    b
}

/// One validating pass over the points: for each of the `N` directions, the smallest and
/// largest projection and the index of the point reaching it. The validity check (finite,
/// within the coordinate limit) is folded into the same pass.
///
/// The directions are taken eight at a time ([`projection_bounds`]) over chunks of 64 points
/// (in L1 while each group runs over them); only the extreme *values* are tracked, with the
/// chunk that last improved each, and that chunk alone is re-scanned for the index at the end.
/// Errors: empty input, bad coordinates.
#[allow(clippy::type_complexity)]
pub(crate) fn extremes<T: Real, const D: usize, const N: usize>(
    points: &[Point<T, D>],
    dirs: &[Vector<T, D>; N],
) -> GeomResult<([T; N], [usize; N], [T; N], [usize; N])> {
    if points.is_empty() {
        return Err(GeomError::TooFewPoints);
    }
    let groups = direction_groups(dirs);
    let ChunkedBounds { lo, hi, lo_c, hi_c, valid } = chunked_bounds(points, &groups);
    let mut lo_i = [0usize; N];
    let mut hi_i = [0usize; N];
    // The same arithmetic, in the same order, for one direction (the index re-scan compares
    // projections for equality).
    let project = |k: usize, p: &Point<T, D>| {
        let comp = &groups[k / W];
        let mut s = comp[0][k % W] * p[0];
        for i in 1..D {
            s += comp[i][k % W] * p[i];
        }
        s
    };
    for k in 0..N {
        lo_i[k] = index_in_chunk(points, lo_c[k], |p| project(k, p) == lo[k]);
        hi_i[k] = index_in_chunk(points, hi_c[k], |p| project(k, p) == hi[k]);
    }
    if !valid {
        return Err(invalid_points_error(points));
    }
    Ok((lo, lo_i, hi, hi_i))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use cd_geom::kdop_directions;
    use nalgebra::{Point2, Point3, Vector3};

    /// Deterministic points in [-s, s)³ with runs of duplicates and a few far outliers, so
    /// extremes land in different chunks, repeat, and sit at chunk edges.
    pub(crate) fn cloud(n: usize, s: f64) -> Vec<Point3<f64>> {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        (0..n)
            .map(|i| {
                let far = if i % 997 == 63 { 10.0 } else { 1.0 };
                let p = Point3::new(rnd(), rnd(), rnd()) * s * far;
                if i % 5 == 4 {
                    Point3::new(p.x.round(), p.y.round(), p.z.round())
                } else {
                    p
                }
            })
            .collect()
    }

    /// Every direction's extremes equal brute force over all points, for direction counts
    /// below, at and above one group of eight, and the index points reach them.
    #[test]
    fn extremes_equal_brute_force() {
        fn check<const N: usize>(pts: &[Point3<f64>], dirs: &[Vector3<f64>; N]) {
            let (lo, lo_i, hi, hi_i) = extremes(pts, dirs).expect("valid");
            for k in 0..N {
                let proj: Vec<f64> = pts.iter().map(|p| dirs[k].dot(&p.coords)).collect();
                let (bl, bh) =
                    proj.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &s| (l.min(s), h.max(s)));
                let tol = 1e-12 * (1.0 + bl.abs().max(bh.abs()));
                assert!((lo[k] - bl).abs() <= tol && (hi[k] - bh).abs() <= tol, "N {N} direction {k}");
                assert!(
                    (proj[lo_i[k]] - bl).abs() <= tol && (proj[hi_i[k]] - bh).abs() <= tol,
                    "N {N} index {k}"
                );
            }
        }
        for n in [1, 5, 63, 64, 65, 1000, 5000] {
            let pts = cloud(n, 7.0);
            check(&pts, &kdop_directions::<f64, 3, 3>().expect("supported"));
            check(&pts, &kdop_directions::<f64, 3, 7>().expect("supported"));
            check(&pts, &kdop_directions::<f64, 3, 9>().expect("supported"));
            check(&pts, &kdop_directions::<f64, 3, 13>().expect("supported"));
            let (lo_i, hi_i) = axis_extremes(&pts).expect("valid");
            for a in 0..3 {
                let (bl, bh) = pts
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| (l.min(p[a]), h.max(p[a])));
                assert_eq!((pts[lo_i[a]][a], pts[hi_i[a]][a]), (bl, bh), "n {n} axis {a}");
            }
        }
        let flat: Vec<Point2<f32>> =
            cloud(300, 3.0).iter().map(|p| Point2::new(p.x as f32, p.y as f32)).collect();
        let (lo_i, hi_i) = axis_extremes(&flat).expect("valid");
        for a in 0..2 {
            assert!(flat.iter().all(|p| flat[lo_i[a]][a] <= p[a] && p[a] <= flat[hi_i[a]][a]));
        }
    }

    /// A NaN, an infinity or a coordinate past the limit anywhere (first, middle or last of a
    /// chunk or of a block, or among the points after the last whole block), on any axis, is
    /// the right error from every validating pass, in `f64` and `f32`, 3D and 2D.
    #[test]
    fn bad_coordinates_are_errors_in_every_position() {
        let dirs = kdop_directions::<f64, 3, 7>().expect("supported");
        let expected = |bad: f64| if bad.is_finite() { GeomError::OutOfRange } else { GeomError::NonFinite };
        for at in [0, 7, 8, 31, 63, 64, 199, 201, 202] {
            for bad in [f64::NAN, f64::INFINITY, -f64::INFINITY, 1e300, -2e75] {
                for axis in 0..3 {
                    // 203 points: 25 whole blocks of eight and three after them.
                    let mut pts = cloud(203, 1.0);
                    pts[at][axis] = bad;
                    let want = Err(expected(bad));
                    assert!(extremes(&pts, &dirs).is_err(), "{bad} at {at}");
                    assert_eq!(axis_extremes(&pts).map(|_| ()), want, "{bad} at {at}");
                    assert_eq!(aabb_from_points(&pts).map(|_| ()), want, "{bad} at {at}");
                    let single: Vec<Point3<f32>> = pts.iter().map(|p| p.cast::<f32>()).collect();
                    // f32: 1e300 becomes ∞; −2e75 too; both past any f32 limit either way.
                    let want32 = Err(expected(bad as f32 as f64));
                    assert_eq!(aabb_from_points(&single).map(|_| ()), want32, "f32 {bad} at {at}");
                    assert_eq!(axis_extremes(&single).map(|_| ()), want32, "f32 {bad} at {at}");
                    if axis < 2 {
                        let flat: Vec<Point2<f64>> = pts.iter().map(|p| Point2::new(p.x, p.y)).collect();
                        assert_eq!(aabb_from_points(&flat).map(|_| ()), want, "2D {bad} at {at}");
                        assert_eq!(axis_extremes(&flat).map(|_| ()), want, "2D {bad} at {at}");
                    }
                }
            }
        }
        // Finite f32 coordinates past the limit whose sum overflows to ∞ are out of range,
        // not non-finite; coordinates at the limit, however many, are accepted.
        let mut big: Vec<Point3<f32>> = vec![Point3::new(3e38, 3e38, -3e38); 40];
        assert_eq!(aabb_from_points(&big).map(|_| ()), Err(GeomError::OutOfRange));
        big.iter_mut().for_each(|p| *p = Point3::new(1e9, -1e9, 1e9));
        let many = big.repeat(5000);
        assert!(aabb_from_points(&many).is_ok() && axis_extremes(&many).is_ok());
    }

    /// The block pass gives exactly the bounds of a plain fold, for every length around the
    /// block sizes, in 2D and 3D.
    #[test]
    fn block_bounds_equal_a_plain_fold() {
        fn check<const D: usize>(pts: &[Point<f32, D>]) {
            let b = aabb_from_points(pts).expect("valid");
            for a in 0..D {
                let lo = pts.iter().map(|p| p[a]).fold(f32::INFINITY, f32::min);
                let hi = pts.iter().map(|p| p[a]).fold(f32::NEG_INFINITY, f32::max);
                assert_eq!((b.min()[a], b.max()[a]), (lo, hi), "D {D} n {} axis {a}", pts.len());
            }
        }
        for n in (1..40).chain([95, 96, 97, 1000]) {
            let pts: Vec<Point3<f32>> = cloud(n, 5.0).iter().map(|p| p.cast::<f32>()).collect();
            check(&pts);
            let flat: Vec<Point2<f32>> = pts.iter().map(|p| Point2::new(p.z, p.x)).collect();
            check(&flat);
        }
    }
}
