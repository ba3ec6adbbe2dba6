//! Runs every cd-bv builder on a point set made of arbitrary floats: nothing may panic; a set
//! with a non-finite or out-of-range coordinate is refused with an error; every volume that is
//! built holds every point. Shared by the hostile-input property test (`tests/hostile.rs`) and
//! the `bv_builders` fuzz target (which includes this file).
#![allow(dead_code)]

use cd_bv::*;
use cd_geom::{kdop_directions, Aabb, Ball, Kdop, Obb, Point, Real};
use nalgebra::{Point2, Point3};

/// The allowed slack for "holds the point": relative to the points' magnitude, generous enough
/// for eigen-decompositions in f64, far below any real miss.
fn tolerance(points: &[Point3<f64>]) -> f64 {
    let scale = points.iter().flat_map(|p| p.iter()).fold(0.0f64, |m, x| m.max(x.abs()));
    1e-6 * (1.0 + scale)
}

fn in_aabb<const D: usize>(b: &Aabb<f64, D>, p: &Point<f64, D>, tol: f64) -> bool {
    (0..D).all(|i| p[i] >= b.min()[i] - tol && p[i] <= b.max()[i] + tol)
}

fn in_ball<const D: usize>(b: &Ball<f64, D>, p: &Point<f64, D>, tol: f64) -> bool {
    (p - b.center()).norm() <= b.radius() + tol
}

fn in_obb<const D: usize>(o: &Obb<f64, D>, p: &Point<f64, D>, tol: f64) -> bool {
    let d = p - o.center();
    (0..D).all(|i| d.dot(&o.axis(i)).abs() <= o.half_extents()[i] + tol)
}

fn in_kdop<const N: usize>(k: &Kdop<f64, 3, N>, p: &Point3<f64>, tol: f64) -> bool {
    let dirs = kdop_directions::<f64, 3, N>().expect("a standard set");
    (0..N).all(|i| {
        let s = dirs[i].dot(&p.coords);
        let slack = tol * dirs[i].norm();
        s >= k.min()[i] - slack && s <= k.max()[i] + slack
    })
}

/// Checks one builder's answer: refused for bad input, holding every point otherwise.
fn check<V>(name: &str, built: Result<V, cd_geom::GeomError>, valid: bool, holds: impl Fn(&V) -> bool) {
    // A refusal is always allowed (too few distinct points, say); an acceptance must be right.
    if let Ok(v) = built {
        assert!(valid, "{name} accepted a non-finite or out-of-range point");
        assert!(holds(&v), "{name} misses a point");
    }
}

/// Whether the builders must accept `points`: not empty, every coordinate finite and within
/// the coordinate limit.
fn valid_set<T: Real, const D: usize>(points: &[Point<T, D>]) -> bool {
    let limit = T::coord_limit();
    !points.is_empty() && points.iter().flat_map(|p| p.iter()).all(|x| x.is_finite() && x.abs() <= limit)
}

/// `aabb_from_points` accepts exactly the valid sets and returns exactly the bounds of a plain
/// fold over the coordinates (no tolerance: both are comparisons of the same numbers).
fn exact_aabb<T: Real, const D: usize>(points: &[Point<T, D>]) {
    let valid = valid_set(points);
    let built = aabb_from_points(points);
    assert_eq!(built.is_ok(), valid, "aabb_from_points validity, {} points", points.len());
    if let Ok(b) = built {
        for i in 0..D {
            let lo = points.iter().map(|p| p[i]).fold(T::infinity(), |m, x| if x < m { x } else { m });
            let hi = points.iter().map(|p| p[i]).fold(-T::infinity(), |m, x| if x > m { x } else { m });
            assert!(b.min()[i] == lo && b.max()[i] == hi, "aabb_from_points bounds on axis {i}");
        }
    }
}

/// 1,100 points made of `points` (not empty) repeated in a scrambled order: enough for
/// `minimal_ball`'s sampled seed.
pub fn repeated_past_sampling<T: Real>(points: &[Point3<T>]) -> Vec<Point3<T>> {
    (0..1100).map(|i| points[(i * 7 + i / 64) % points.len()]).collect()
}

/// More than 1,024 points take `minimal_ball`'s sampled seed: the same points repeated in a
/// scrambled order, so a bad coordinate lands both inside and outside the sample. Refused
/// with the same error as the points are, and otherwise the ball of the points themselves
/// (the same set), within the tolerance.
fn sampled_minimal_ball<T: Real>(points: &[Point3<T>], valid: bool, tol: T) {
    if points.is_empty() {
        return;
    }
    let big = repeated_past_sampling(points);
    let (built, small) = (minimal_ball(&big), minimal_ball(points));
    assert!(valid || built.is_err(), "minimal_ball accepted a bad point among {} repeated", points.len());
    assert_eq!(
        built.as_ref().err(),
        small.as_ref().err(),
        "minimal_ball of {} points, repeated",
        points.len()
    );
    if let (Ok(b), Ok(small)) = (built, small) {
        assert!(
            points.iter().all(|p| (p - b.center()).norm() <= b.radius() + tol),
            "sampled ball misses a point"
        );
        assert!(
            (b.radius() - small.radius()).abs() <= tol,
            "sampled ball {} against {}",
            b.radius(),
            small.radius()
        );
    }
}

/// Builds every volume of the points `v` (three numbers per 3D point, two per 2D point).
pub fn run(v: &[f64]) {
    let points: Vec<Point3<f64>> =
        v.chunks_exact(3).take(64).map(|c| Point3::new(c[0], c[1], c[2])).collect();
    let valid = valid_set(&points);
    let tol = if valid { tolerance(&points) } else { 0.0 };
    let all = |f: &dyn Fn(&Point3<f64>) -> bool| points.iter().all(f);
    check("aabb_from_points", aabb_from_points(&points), valid, |b| all(&|p| in_aabb(b, p, tol)));
    exact_aabb(&points);
    // The same numbers in f32, where the coordinate limit is 1e9 and a finite f64 may round to
    // an infinity: the block passes validate and bound them as the plain definition does.
    let single: Vec<Point3<f32>> = points.iter().map(|p| p.cast::<f32>()).collect();
    exact_aabb(&single);
    let valid32 = valid_set(&single);
    let tol32 = if valid32 {
        1e-3 * (1.0 + single.iter().flat_map(|p| p.iter()).fold(0.0f32, |m, x| m.max(x.abs())))
    } else {
        0.0
    };
    let in_ball32 = |b: &Ball<f32, 3>| single.iter().all(|p| (p - b.center()).norm() <= b.radius() + tol32);
    check("minimal_ball f32", minimal_ball(&single), valid32, in_ball32);
    check("ritter_ball f32", ritter_ball(&single), valid32, in_ball32);
    check("ball_aabb_half_diagonal", ball_aabb_half_diagonal(&points), valid, |b| {
        all(&|p| in_ball(b, p, tol))
    });
    check("ball_aabb_farthest", ball_aabb_farthest(&points), valid, |b| all(&|p| in_ball(b, p, tol)));
    check("ritter_ball", ritter_ball(&points), valid, |b| all(&|p| in_ball(b, p, tol)));
    check("minimal_ball", minimal_ball(&points), valid, |b| all(&|p| in_ball(b, p, tol)));
    sampled_minimal_ball(&points, valid, tol);
    sampled_minimal_ball(&single, valid32, tol32);
    for set in [EposSet::Epos6, EposSet::Epos26, EposSet::Epos98] {
        check("epos_ball", epos_ball(&points, set), valid, |b| all(&|p| in_ball(b, p, tol)));
    }
    check("kdop 14", kdop_from_points::<f64, 3, 7>(&points), valid, |k| all(&|p| in_kdop(k, p, tol)));
    check("kdop 26", kdop_from_points::<f64, 3, 13>(&points), valid, |k| all(&|p| in_kdop(k, p, tol)));
    check("obb_pca", obb_pca(&points), valid, |o| all(&|p| in_obb(o, p, tol)));
    check("obb_pca_hull", obb_pca_hull(&points), valid, |o| all(&|p| in_obb(o, p, tol)));
    check("obb_pca_hull_area", obb_pca_hull_area(&points), valid, |o| all(&|p| in_obb(o, p, tol)));
    check("obb_dito14", obb_dito14(&points), valid, |o| all(&|p| in_obb(o, p, tol)));
    check("obb_dito26", obb_dito26(&points), valid, |o| all(&|p| in_obb(o, p, tol)));
    check("obb_reference", obb_reference(&points, ObbMetric::Volume), valid, |o| all(&|p| in_obb(o, p, tol)));
    check("convex_hull", convex_hull(&points), valid, |h| match h {
        Hull::Polyhedron(poly) => all(&|p| poly.faces().iter().all(|f| f.plane.signed_distance(p) <= tol)),
        _ => true,
    });
    // 2D: the same numbers two at a time.
    let flat: Vec<Point2<f64>> = v.chunks_exact(2).take(64).map(|c| Point2::new(c[0], c[1])).collect();
    let valid2 = valid_set(&flat);
    let tol2 = if valid2 {
        1e-6 * (1.0 + flat.iter().flat_map(|p| p.iter()).fold(0.0f64, |m, x| m.max(x.abs())))
    } else {
        0.0
    };
    let all2 = |f: &dyn Fn(&Point2<f64>) -> bool| flat.iter().all(f);
    check("minimal_ball 2D", minimal_ball(&flat), valid2, |b| all2(&|p| in_ball(b, p, tol2)));
    exact_aabb(&flat);
    check("obb_pca 2D", obb_pca(&flat), valid2, |o| all2(&|p| in_obb(o, p, tol2)));
    check("obb_min_area_2d", obb_min_area_2d(&flat, ObbMetric::Volume), valid2, |o| {
        all2(&|p| in_obb(o, p, tol2))
    });
    check("convex_hull_2d", convex_hull_2d(&flat), valid2, |h| !h.is_empty());
}
