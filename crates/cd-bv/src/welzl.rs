//! The exact minimal enclosing ball (sphere in 3D, circle in 2D).
//!
//! Welzl 1991 with Gärtner's 1999 move-to-front pivoting: the exact ball of a small candidate
//! set is computed by move-to-front Welzl (recursion only over the support set, depth ≤ D + 1,
//! never over the points), then one pass over all points finds the points it misses — the
//! farthest one per orthant around the centre — which become new candidates at the front. When a
//! pass finds nothing outside, the candidates' minimal ball contains every point and is
//! therefore the minimal ball of the whole set. Arithmetic is in `f64` whatever `T` is, the
//! candidate order is deterministic (no randomness needed), and the returned radius is padded
//! by the rounding error of converting the centre back to `T`, so every input point is inside.

use crate::aabb::aabb_from_points;
use cd_geom::{Ball, GeomResult, Point, Real};
use nalgebra::SVector;

type V<const D: usize> = SVector<f64, D>;

/// A ball in `f64` during the computation; `r2 < 0` is the empty ball.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ball64<const D: usize> {
    pub(crate) center: V<D>,
    pub(crate) r2: f64,
}

impl<const D: usize> Ball64<D> {
    const EMPTY: Self =
        Ball64 { center: V::<D>::from_array_storage(nalgebra::ArrayStorage([[0.0; D]; 1])), r2: -1.0 };

    /// Inside, with a relative tolerance that absorbs the rounding of the circumsphere solve.
    #[inline]
    pub(crate) fn contains(&self, p: &V<D>) -> bool {
        (p - self.center).norm_squared() <= self.r2 * (1.0 + 1e-12) + 1e-300
    }
}

pub(crate) fn to64<T: Real, const D: usize>(p: &Point<T, D>) -> V<D> {
    V::<D>::from_fn(|i, _| p[i].to_f64())
}

/// The smallest ball with every point of `support` on its boundary, within their affine hull:
/// centre `p₀ + Σ λⱼ vⱼ` with `vⱼ = pⱼ - p₀` solving `Σⱼ 2 (vᵢ·vⱼ) λⱼ = vᵢ·vᵢ`. When the support
/// is affinely dependent (duplicates, collinear triples, coplanar quadruples — only reachable
/// through rounding) the system is singular and the ball of the farthest pair, grown to cover
/// the rest, is used instead.
pub(crate) fn circumball<const D: usize>(support: &[V<D>]) -> Ball64<D> {
    match support.len() {
        0 => return Ball64::EMPTY,
        1 => return Ball64 { center: support[0], r2: 0.0 },
        _ => {}
    }
    let p0 = support[0];
    let v: Vec<V<D>> = support[1..].iter().map(|p| p - p0).collect();
    let k = v.len();
    // Augmented k × (k + 1) system, solved by Gaussian elimination with partial pivoting.
    let mut a = vec![vec![0.0f64; k + 1]; k];
    let scale = v.iter().map(|x| x.norm_squared()).fold(0.0, f64::max);
    for i in 0..k {
        for j in 0..k {
            a[i][j] = 2.0 * v[i].dot(&v[j]);
        }
        a[i][k] = v[i].norm_squared();
    }
    let mut singular = false;
    for col in 0..k {
        let piv = (col..k).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs())).unwrap_or(col);
        a.swap(col, piv);
        if a[col][col].abs() <= 1e-12 * scale {
            singular = true;
            break;
        }
        let pivot_row = a[col].clone();
        for (row, r) in a.iter_mut().enumerate() {
            if row != col {
                let f = r[col] / pivot_row[col];
                for (x, p) in r[col..].iter_mut().zip(&pivot_row[col..]) {
                    *x -= f * p;
                }
            }
        }
    }
    if !singular {
        let mut center = p0;
        for j in 0..k {
            center += v[j] * (a[j][k] / a[j][j]);
        }
        let r2 = support.iter().map(|p| (p - center).norm_squared()).fold(0.0, f64::max);
        if r2.is_finite() {
            return Ball64 { center, r2 };
        }
    }
    diametral_cover(support)
}

/// The ball on the farthest pair of `pts`, grown to contain the others.
fn diametral_cover<const D: usize>(pts: &[V<D>]) -> Ball64<D> {
    let (mut a, mut b, mut best) = (0, 0, -1.0);
    for i in 0..pts.len() {
        for j in i + 1..pts.len() {
            let d = (pts[i] - pts[j]).norm_squared();
            if d > best {
                (a, b, best) = (i, j, d);
            }
        }
    }
    let center = (pts[a] + pts[b]) * 0.5;
    let r2 = pts.iter().map(|p| (p - center).norm_squared()).fold(0.0, f64::max);
    Ball64 { center, r2 }
}

/// Move-to-front Welzl on a (small) candidate list: the minimal ball of `pts[..end]` with
/// `support` on its boundary. Recursion depth is bounded by the support size (≤ D + 1).
fn mtf<const D: usize>(pts: &mut [V<D>], end: usize, support: &mut Vec<V<D>>) -> Ball64<D> {
    let mut ball = circumball(support);
    if support.len() == D + 1 {
        return ball;
    }
    for i in 0..end {
        let p = pts[i];
        if !ball.contains(&p) {
            support.push(p);
            ball = mtf(pts, i, support);
            support.pop();
            pts[..=i].rotate_right(1);
        }
    }
    ball
}

/// The exact minimal ball of a small point list (used for candidate and extremal-point sets).
pub(crate) fn minimal_ball_of_small<const D: usize>(pts: &mut [V<D>]) -> Ball64<D> {
    let mut support = Vec::with_capacity(D + 1);
    mtf(pts, pts.len(), &mut support)
}

/// Converts an `f64` ball to `T`, padding the radius so that containment survives the
/// conversion and the user's own check in `T`: by the centre's conversion error, by the
/// rounding of `p - c` in `T` (a few ulps of the centre's magnitude), and by a few ulps of the
/// radius.
pub(crate) fn ball_from64<T: Real, const D: usize>(b: &Ball64<D>, max_d2: f64) -> GeomResult<Ball<T, D>> {
    let center = Point::<T, D>::from(SVector::<T, D>::from_fn(|i, _| T::lit(b.center[i])));
    let shift = (to64(&center) - b.center).norm();
    let eps = T::epsilon().to_f64();
    let magnitude = b.center.amax() * (D as f64).sqrt();
    let r = b.r2.max(max_d2).max(0.0).sqrt();
    let r = r * (1.0 + 4.0 * eps) + shift + 4.0 * eps * magnitude + f64::MIN_POSITIVE;
    Ball::new(center, T::lit(r))
}

/// The exact minimal enclosing ball (Welzl 1991, move-to-front with Gärtner's pivoting) of a
/// point set in 2D or 3D. Robust on duplicates and on collinear, coplanar and co-spherical
/// input; deterministic; expected O(n) (a few passes over the points). Errors: empty input, a
/// non-finite or out-of-range coordinate.
///
/// ```
/// use cd_bv::minimal_ball;
/// use nalgebra::Point2;
/// let pts = [Point2::new(0.0f64, 0.0), Point2::new(2.0, 0.0), Point2::new(1.0, 0.5)];
/// let c = minimal_ball(&pts).unwrap();
/// assert!((c.radius() - 1.0).abs() < 1e-9 && (c.center() - Point2::new(1.0, 0.0)).norm() < 1e-9);
/// ```
pub fn minimal_ball<T: Real, const D: usize>(points: &[Point<T, D>]) -> GeomResult<Ball<T, D>> {
    let aabb = aabb_from_points(points)?;
    // Seed candidates: the points extreme along each axis.
    let mut cand: Vec<V<D>> = Vec::with_capacity(4 * D + 8);
    for i in 0..D {
        for target in [aabb.min()[i], aabb.max()[i]] {
            if let Some(p) = points.iter().find(|p| p[i] == target) {
                cand.push(to64(p));
            }
        }
    }
    let orthants = 1usize << D;
    let mut far: Vec<(f64, usize)> = vec![(0.0, usize::MAX); orthants];
    loop {
        let ball = minimal_ball_of_small(&mut cand);
        // One pass: the farthest point outside the ball in each orthant around its centre.
        far.iter_mut().for_each(|f| *f = (ball.r2 * (1.0 + 1e-12) + 1e-300, usize::MAX));
        let mut max_d2 = 0.0f64;
        for (idx, p) in points.iter().enumerate() {
            let d = to64(p) - ball.center;
            let d2 = d.norm_squared();
            max_d2 = max_d2.max(d2);
            let o = (0..D).fold(0, |acc, i| acc | ((d[i] > 0.0) as usize) << i);
            if d2 > far[o].0 {
                far[o] = (d2, idx);
            }
        }
        let outside: Vec<usize> = far.iter().filter(|f| f.1 != usize::MAX).map(|f| f.1).collect();
        if outside.is_empty() {
            return ball_from64(&ball, max_d2);
        }
        for idx in outside {
            cand.insert(0, to64(&points[idx]));
        }
    }
}
