//! Triangle/triangle against the 10,000 labelled pairs of Shen, Heng and Tang (JGT 2003), in
//! f32 and f64, plus hand-built coplanar and touching pairs the data set leaves out.

use cd_geom::{closest_points_triangle_triangle, triangle_triangle, Real, TriTriIntersection, Triangle};
use nalgebra::Point3;

fn load<T: Real>(text: &str) -> Vec<(Triangle<T, 3>, Triangle<T, 3>)> {
    let pts: Vec<Point3<T>> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Vec<f64> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
            Point3::new(T::lit(v[0]), T::lit(v[1]), T::lit(v[2]))
        })
        .collect();
    assert_eq!(pts.len() % 6, 0);
    pts.chunks(6)
        .map(|c| (Triangle::new(c[0], c[1], c[2]).unwrap(), Triangle::new(c[3], c[4], c[5]).unwrap()))
        .collect()
}

const INTERSECTED: &str = include_str!("data/tritri/intersected.txt");
const SEPARATED: &str = include_str!("data/tritri/separated.txt");

fn classify_all<T: Real>() {
    let hits = load::<T>(INTERSECTED);
    let misses = load::<T>(SEPARATED);
    assert_eq!(hits.len(), 5000);
    assert_eq!(misses.len(), 5000);
    for (i, (a, b)) in hits.iter().enumerate() {
        assert!(triangle_triangle(a, b).intersects(), "intersected pair {i} reported disjoint");
        assert!(triangle_triangle(b, a).intersects(), "intersected pair {i} (swapped) reported disjoint");
    }
    for (i, (a, b)) in misses.iter().enumerate() {
        assert!(!triangle_triangle(a, b).intersects(), "separated pair {i} reported intersecting");
        assert!(!triangle_triangle(b, a).intersects(), "separated pair {i} (swapped) reported intersecting");
    }
}

#[test]
fn all_10000_pairs_f64() {
    classify_all::<f64>();
}

#[test]
fn all_10000_pairs_f32() {
    classify_all::<f32>();
}

/// The reported segment lies on both triangles (distance to each ≈ 0) for every intersecting
/// pair, and separated pairs have a positive distance.
#[test]
fn segments_lie_on_both_triangles() {
    use cd_geom::closest_point_on_triangle;
    for (a, b) in load::<f64>(INTERSECTED) {
        let TriTriIntersection::Segment(p, q) = triangle_triangle(&a, &b) else {
            panic!("expected a segment")
        };
        for x in [p, q] {
            for t in [&a, &b] {
                let (c, _, _) = closest_point_on_triangle(&x, t);
                assert!((c - x).norm() < 1e-9, "segment end {x:?} is off a triangle by {}", (c - x).norm());
            }
        }
    }
    for (a, b) in load::<f64>(SEPARATED).iter().take(500) {
        assert!(closest_points_triangle_triangle(a, b).distance_squared > 0.0);
    }
}

fn tri(a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> Triangle<f64, 3> {
    let p = |v: [f64; 3]| Point3::new(v[0], v[1], v[2]);
    Triangle::new(p(a), p(b), p(c)).unwrap()
}

#[test]
fn coplanar_pairs() {
    let base = tri([0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [0.0, 4.0, 0.0]);
    // Overlapping edges crossing: a triangle poking through the hypotenuse x + y = 4.
    let crossing = tri([1.0, 1.0, 0.0], [5.0, 1.0, 0.0], [1.0, 5.0, 0.0]);
    assert!(matches!(triangle_triangle(&base, &crossing), TriTriIntersection::Coplanar(_)));
    // One inside the other: no edges cross, containment decides.
    let inner = tri([0.5, 0.5, 0.0], [1.0, 0.5, 0.0], [0.5, 1.0, 0.0]);
    assert!(triangle_triangle(&base, &inner).intersects());
    assert!(triangle_triangle(&inner, &base).intersects());
    // Same plane, apart: (5,5) side is beyond x + y = 4.
    let apart = tri([3.0, 3.0, 0.0], [5.0, 3.0, 0.0], [3.0, 5.0, 0.0]);
    assert_eq!(triangle_triangle(&base, &apart), TriTriIntersection::Disjoint);
    // Touching along a shared vertex only: (4,0) is a vertex of both.
    let vertex_touch = tri([4.0, 0.0, 0.0], [6.0, 0.0, 0.0], [5.0, -1.0, 0.0]);
    assert!(triangle_triangle(&base, &vertex_touch).intersects());
}

#[test]
fn touching_pairs() {
    let base = tri([0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [0.0, 4.0, 0.0]);
    // A vertex of B exactly on A's interior (1,1,0), B otherwise above: touches at one point.
    let vertex_on_face = tri([1.0, 1.0, 0.0], [1.0, 1.0, 2.0], [2.0, 1.0, 2.0]);
    match triangle_triangle(&base, &vertex_on_face) {
        TriTriIntersection::Segment(p, q) => {
            assert!((p - Point3::new(1.0, 1.0, 0.0)).norm() < 1e-12);
            assert!((q - Point3::new(1.0, 1.0, 0.0)).norm() < 1e-12);
        }
        other => panic!("expected a one-point segment, got {other:?}"),
    }
    // An edge of B lying in A's plane, from (1,1,0) to (2,1,0), B standing up: the segment is
    // that edge.
    let edge_on_face = tri([1.0, 1.0, 0.0], [2.0, 1.0, 0.0], [1.5, 1.0, 3.0]);
    match triangle_triangle(&base, &edge_on_face) {
        TriTriIntersection::Segment(p, q) => {
            let len = (p - q).norm();
            assert!((len - 1.0).abs() < 1e-12, "segment length {len}");
        }
        other => panic!("expected the shared edge, got {other:?}"),
    }
    // B just above A by 1e-3: disjoint.
    let above = tri([1.0, 1.0, 1e-3], [1.0, 1.0, 2.0], [2.0, 1.0, 2.0]);
    assert_eq!(triangle_triangle(&base, &above), TriTriIntersection::Disjoint);
    // Piercing: B crosses A's plane along x = 1 for y in [0.5, 1.5] → segment (1,0.5,0)-(1,1.5,0).
    let pierce = tri([1.0, 0.5, -1.0], [1.0, 0.5, 1.0], [1.0, 2.5, 1.0]);
    let TriTriIntersection::Segment(p, q) = triangle_triangle(&base, &pierce) else { panic!() };
    let (lo, hi) = if p.y < q.y { (p, q) } else { (q, p) };
    // B's edge from (1,0.5,-1) to (1,2.5,1) meets z = 0 at y = 1.5; its edge (1,0.5,-1)-(1,0.5,1)
    // meets it at y = 0.5.
    assert!((lo - Point3::new(1.0, 0.5, 0.0)).norm() < 1e-12);
    assert!((hi - Point3::new(1.0, 1.5, 0.0)).norm() < 1e-12);
}

#[test]
fn degenerate_triangles() {
    let base = tri([0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [0.0, 4.0, 0.0]);
    // A zero-area "triangle" (a segment from (1,1,-1) to (1,1,1)) piercing the face.
    let needle = tri([1.0, 1.0, -1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 0.0]);
    assert!(triangle_triangle(&base, &needle).intersects());
    // The same segment moved beyond the hypotenuse: disjoint.
    let far = tri([3.0, 3.0, -1.0], [3.0, 3.0, 1.0], [3.0, 3.0, 0.0]);
    assert!(!triangle_triangle(&base, &far).intersects());
    // Two point-triangles at the same spot.
    let p = tri([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [1.0, 2.0, 3.0]);
    assert!(triangle_triangle(&p, &p).intersects());
}

/// Regressions found by cd-mid's hostile-input test: the coplanarity snapping used a tolerance
/// scaled by the coordinates' magnitude but floored at 1, and had no box check first, so small
/// triangles far from the origin (f32 near 1e8) and tiny triangles (1e-6) were snapped coplanar
/// and reported touching though they are apart.
#[test]
fn far_and_tiny_disjoint_triangles_are_not_snapped_together() {
    let t = |a: [f32; 3], b: [f32; 3], c: [f32; 3]| {
        Triangle::new(Point3::from(a), Point3::from(b), Point3::from(c)).unwrap()
    };
    // Far: the boxes are apart in y (49,999,988..49,999,990 against 50,000,010..50,000,012).
    let a = t(
        [99999980.0, 49999990.0, -29999986.0],
        [100000020.0, 49999990.0, -29999986.0],
        [99999990.0, 49999988.0, -29999998.0],
    );
    let b = t(
        [99999990.0, 50000010.0, -29999986.0],
        [99999990.0, 50000012.0, -30000000.0],
        [99999980.0, 50000010.0, -29999980.0],
    );
    assert!(!triangle_triangle(&a, &b).intersects());
    // Tiny: apart by far more than rounding (their minimal enclosing balls do not meet).
    let a = t(
        [1.3452095e-7, -1.8164253e-6, -3.5596153e-7],
        [8.606866e-7, -2.644607e-6, 1.513231e-7],
        [1.2802866e-6, -2.1719345e-6, -3.4240327e-7],
    );
    let b = t(
        [1.6367768e-6, -2.2011552e-6, 1.0333365e-7],
        [1.060004e-6, -2.2274635e-6, 5.493018e-7],
        [1.9648896e-6, -2.3850373e-6, 7.613008e-7],
    );
    assert!(!triangle_triangle(&a, &b).intersects());
    // The same shapes scaled up to unit size behave the same (the test is scale-invariant now).
    let s = |p: [f32; 3]| [p[0] * 1e6, p[1] * 1e6, p[2] * 1e6];
    let a2 = t(
        s([1.3452095e-7, -1.8164253e-6, -3.5596153e-7]),
        s([8.606866e-7, -2.644607e-6, 1.513231e-7]),
        s([1.2802866e-6, -2.1719345e-6, -3.4240327e-7]),
    );
    let b2 = t(
        s([1.6367768e-6, -2.2011552e-6, 1.0333365e-7]),
        s([1.060004e-6, -2.2274635e-6, 5.493018e-7]),
        s([1.9648896e-6, -2.3850373e-6, 7.613008e-7]),
    );
    assert!(!triangle_triangle(&a2, &b2).intersects());
}
