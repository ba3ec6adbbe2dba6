//! Fast bounding spheres (circles in 2D): AABB-based, Ritter 1990, and spheres of child spheres.
//! For the exact minimal ball see [`minimal_ball`](crate::minimal_ball); for the near-optimal
//! EPOS spheres see [`epos_ball`](crate::epos_ball).

use crate::aabb::aabb_from_points;
use crate::aabb::axis_extremes;
use crate::welzl::{ball_from64, chunk_max_d2, to64, Ball64};
use cd_geom::{Ball, GeomError, GeomResult, Point, Real};

/// Centre of the AABB, radius = half its diagonal. One pass; the loosest method. O(n).
pub fn ball_aabb_half_diagonal<T: Real, const D: usize>(points: &[Point<T, D>]) -> GeomResult<Ball<T, D>> {
    let b = aabb_from_points(points)?;
    let (lo, hi) = (to64(b.min()), to64(b.max()));
    let center = (lo + hi) * 0.5;
    // The radius is measured from the rounded centre to the farther face on each axis, not
    // taken as `|hi - lo| / 2`: the midpoint's rounding is relative to the coordinates, which
    // can be far larger than the box, so the exact half diagonal may fall short of a corner.
    let r2: f64 = (0..D).map(|i| (hi[i] - center[i]).max(center[i] - lo[i]).powi(2)).sum();
    ball_from64(&Ball64 { center, r2 }, r2)
}

/// Centre of the AABB, radius = distance to the farthest point (a second pass). Never larger
/// than the half diagonal. O(n).
pub fn ball_aabb_farthest<T: Real, const D: usize>(points: &[Point<T, D>]) -> GeomResult<Ball<T, D>> {
    let b = aabb_from_points(points)?;
    let c = to64(&b.center());
    let max_d2 = points.iter().map(|p| (to64(p) - c).norm_squared()).fold(0.0, f64::max);
    ball_from64(&Ball64 { center: c, r2: max_d2 }, max_d2)
}

/// Ritter's bounding sphere (Ritter 1990): the pair of points extreme along one of the
/// coordinate axes that lies farthest apart spans the initial sphere; a second pass grows it
/// to cover each point found outside (new radius `(r + d) / 2`, centre shifted towards the
/// point). Typically 5–20 % larger than the minimal sphere. O(n), two passes.
pub fn ritter_ball<T: Real, const D: usize>(points: &[Point<T, D>]) -> GeomResult<Ball<T, D>> {
    // One validating pass for the points extreme along each axis.
    let (lo, hi) = axis_extremes(points)?;
    let (mut a, mut b) = (to64(&points[lo[0]]), to64(&points[hi[0]]));
    for i in 1..D {
        let (pa, pb) = (to64(&points[lo[i]]), to64(&points[hi[i]]));
        if (pa - pb).norm_squared() > (a - b).norm_squared() {
            (a, b) = (pa, pb);
        }
    }
    let mut ball = Ball64 { center: (a + b) * 0.5, r2: (a - b).norm_squared() * 0.25 };
    grow_to_cover(&mut ball, points);
    ball_from64(&ball, 0.0)
}

/// Ritter's growing pass: every point outside moves the sphere just enough to cover it. Chunks
/// of 64 points whose farthest point (measured in `T` against a slightly shrunk radius, so no
/// point outside can be missed by rounding) is inside are skipped without touching `f64`.
pub(crate) fn grow_to_cover<T: Real, const D: usize>(ball: &mut Ball64<D>, points: &[Point<T, D>]) {
    const CHUNK: usize = 64;
    let mut r = ball.r2.max(0.0).sqrt();
    let eps = T::epsilon().to_f64();
    for chunk in points.chunks(CHUNK) {
        let c = Point::<T, D>::from(nalgebra::SVector::<T, D>::from_fn(|i, _| T::lit(ball.center[i])));
        let slack = 8.0 * eps * (ball.center.amax() * (D as f64).sqrt() + r);
        let safe = (r - slack).max(0.0);
        let safe2 = T::lit(safe * safe);
        if chunk_max_d2(chunk, &c) <= safe2 {
            continue;
        }
        for p in chunk {
            let q = to64(p);
            let d = q - ball.center;
            let d2 = d.norm_squared();
            if d2 > r * r {
                let dist = d2.sqrt();
                let new_r = (r + dist) * 0.5;
                ball.center += d * ((new_r - r) / dist);
                // Guard against rounding leaving q a hair outside.
                r = new_r.max((q - ball.center).norm());
            }
        }
    }
    ball.r2 = r * r;
}

/// A ball enclosing child balls (a BVH parent): the better of (a) the centre of their AABB with
/// radius `max(|cᵢ - c| + rᵢ)` and (b) folding pairwise minimal merges. Contains every child;
/// not always the minimal such ball. Error: empty input. O(n).
pub fn ball_of_balls<T: Real, const D: usize>(balls: &[Ball<T, D>]) -> GeomResult<Ball<T, D>> {
    use cd_geom::BoundingVolume;
    let first = balls.first().ok_or(GeomError::TooFewPoints)?;
    let folded = balls[1..].iter().fold(*first, |acc, b| acc.merged(b));
    let centers: Vec<Point<T, D>> = balls.iter().map(|b| *b.center()).collect();
    let c = to64(&aabb_from_points(&centers)?.center());
    let r = balls.iter().map(|b| (to64(b.center()) - c).norm() + b.radius().to_f64()).fold(0.0, f64::max);
    let boxed = ball_from64::<T, D>(&Ball64 { center: c, r2: r * r }, 0.0)?;
    Ok(if boxed.radius() < folded.radius() { boxed } else { folded })
}
