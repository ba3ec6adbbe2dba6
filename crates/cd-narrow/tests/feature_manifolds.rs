//! Manifolds of the pairs without a dedicated routine (box–hull, hull–triangle,
//! capsule–triangle, cylinders and cones, shapes on a half-space), built by clipping support
//! features: resting configurations derived by hand, and a property over axis-aligned random
//! scenes (where faces meet faces) checking every point against the exact contact and the
//! shapes' surfaces.

mod common;

use cd_geom::*;
use cd_narrow::*;
use common::*;
use nalgebra::{Isometry3, Translation3, UnitQuaternion};

fn manifold_of(a: Shape<'_, f64>, b: Shape<'_, f64>, prediction: f64) -> Manifold<f64, 3> {
    let mut m = Manifold::default();
    manifold(a, b, prediction, &mut PairCache::default(), &mut m).unwrap();
    m
}

fn unit_cube_at(center: P3, half: V3) -> Obb<f64, 3> {
    Obb::from_rotation(center, UnitQuaternion::identity(), half).unwrap()
}

/// Every point `distance` deep (within 1e-9), normal `normal`.
fn assert_flat(m: &Manifold<f64, 3>, count: usize, distance: f64, normal: V3) {
    assert_eq!(m.len(), count, "{m:?}");
    assert!((m.normal - normal).norm() < 1e-9, "{m:?}");
    for p in m.points() {
        assert!((p.distance - distance).abs() < 1e-9, "{m:?}");
        assert!((p.point_b - p.point_a - m.normal * p.distance).norm() < 1e-9, "{m:?}");
    }
}

#[test]
fn resting_shapes_get_one_point_per_corner_or_end() {
    let floor_tri =
        Triangle::new(P3::new(-10.0, 0.0, -10.0), P3::new(10.0, 0.0, -10.0), P3::new(0.0, 0.0, 10.0))
            .unwrap();
    let ground = Plane::new(V3::y(), 0.0).unwrap(); // the half-space y ≤ 0

    // A hull cube sunk 0.01 into a triangle: its four bottom corners.
    let local = ConvexPolyhedron::from_obb(&unit_cube_at(P3::origin(), V3::repeat(0.5))).unwrap();
    let pose = Isometry3::from_parts(Translation3::new(0.3, 0.49, -0.2), UnitQuaternion::identity());
    let m = manifold_of(Shape::Triangle(&floor_tri), Shape::Hull(&local, &pose), 0.0);
    assert_flat(&m, 4, -0.01, V3::y());
    // The same cube 0.01 above, within a 0.02 prediction: four speculative points.
    let above = Isometry3::from_parts(Translation3::new(0.3, 0.51, -0.2), UnitQuaternion::identity());
    assert_flat(
        &manifold_of(Shape::Hull(&local, &above), Shape::Triangle(&floor_tri), 0.02),
        4,
        0.01,
        -V3::y(),
    );

    // A hull cube on a box (box–hull had a single point before).
    let table = unit_cube_at(P3::new(0.0, -1.0, 0.0), V3::new(3.0, 1.0, 3.0));
    assert_flat(&manifold_of(Shape::Box(&table), Shape::Hull(&local, &pose), 0.0), 4, -0.01, V3::y());

    // A capsule lying on the box's top face, sunk 0.005: its two end spheres.
    let cap = Capsule::new(P3::new(-1.0, 0.245, 0.5), P3::new(1.0, 0.245, 0.5), 0.25).unwrap();
    let m = manifold_of(Shape::Box(&table), Shape::Capsule(&cap), 0.0);
    assert_flat(&m, 2, -0.005, V3::y());
    let xs: Vec<f64> = m.points().iter().map(|p| p.point_a.x).collect();
    assert!(xs.iter().any(|x| (x + 1.0).abs() < 1e-9) && xs.iter().any(|x| (x - 1.0).abs() < 1e-9), "{m:?}");

    // The capsule half over the triangle's edge x + … : clipped where the triangle ends.
    let small =
        Triangle::new(P3::new(0.0, 0.0, -1.0), P3::new(0.0, 0.0, 1.0), P3::new(-2.0, 0.0, 0.0)).unwrap();
    let cap = Capsule::new(P3::new(-1.0, 0.24, 0.0), P3::new(1.0, 0.24, 0.0), 0.25).unwrap();
    let m = manifold_of(Shape::Triangle(&small), Shape::Capsule(&cap), 0.0);
    assert_flat(&m, 2, -0.01, V3::y());
    let mut xs: Vec<f64> = m.points().iter().map(|p| p.point_a.x).collect();
    xs.sort_by(f64::total_cmp);
    assert!((xs[0] + 1.0).abs() < 1e-9 && xs[1].abs() < 1e-9, "clipped at the edge x = 0: {m:?}");

    // A segment 0.01 above the triangle, within the prediction.
    let seg = Segment::new(P3::new(-1.0, 0.01, 0.1), P3::new(1.0, 0.01, 0.1)).unwrap();
    assert_flat(&manifold_of(Shape::Triangle(&floor_tri), Shape::Segment(&seg), 0.02), 2, 0.01, V3::y());

    // A cylinder standing on a half-space, sunk 0.01: its rim (an octagon, reduced to four).
    let cyl = Cylinder::new(P3::new(0.0, -0.01, 0.0), P3::new(0.0, 1.0, 0.0), 0.4).unwrap();
    assert_flat(&manifold_of(Shape::HalfSpace(&ground), Shape::Cylinder(&cyl), 0.0), 4, -0.01, V3::y());
    // … and lying on its side on the box: a line of contact, its two ends.
    let lying = Cylinder::new(P3::new(-0.5, 0.39, 0.0), P3::new(0.5, 0.39, 0.0), 0.4).unwrap();
    assert_flat(&manifold_of(Shape::Box(&table), Shape::Cylinder(&lying), 0.0), 2, -0.01, V3::y());
    // A cone on its base.
    let cone = Cone::new(P3::new(0.0, 1.0, 0.0), P3::new(0.0, -0.02, 0.0), 0.5).unwrap();
    assert_flat(&manifold_of(Shape::Cone(&cone), Shape::HalfSpace(&ground), 0.0), 4, -0.02, -V3::y());
    // A lozenge (a 1 × 0.6 rectangle grown by 0.1) lying on the box, sunk 0.01: its corners;
    // standing on a long edge: that edge's two ends.
    let flat =
        Lozenge::new(P3::new(0.0, 0.09, 0.0), V3::new(1.0, 0.0, 0.0), V3::new(0.0, 0.0, 0.6), 0.1).unwrap();
    assert_flat(&manifold_of(Shape::Box(&table), Shape::Lozenge(&flat), 0.0), 4, -0.01, V3::y());
    let standing =
        Lozenge::new(P3::new(0.0, 0.09, 0.0), V3::new(1.0, 0.0, 0.0), V3::new(0.0, 0.6, 0.0), 0.1).unwrap();
    assert_flat(&manifold_of(Shape::Lozenge(&standing), Shape::Box(&table), 0.0), 2, -0.01, -V3::y());
    // A hull on a half-space.
    assert_flat(&manifold_of(Shape::Hull(&local, &pose), Shape::HalfSpace(&ground), 0.0), 4, -0.01, -V3::y());
}

#[test]
fn vertices_and_crossing_edges_keep_a_single_point() {
    let table = unit_cube_at(P3::new(0.0, -1.0, 0.0), V3::new(3.0, 1.0, 3.0));
    // A cube on one corner: the corner alone.
    let tilt = UnitQuaternion::from_euler_angles(0.6, 0.0, 0.7);
    let local = ConvexPolyhedron::from_obb(&unit_cube_at(P3::origin(), V3::repeat(0.5))).unwrap();
    let lowest = local.vertices().iter().map(|v| (tilt * v).y).fold(f64::INFINITY, f64::min);
    let pose = Isometry3::from_parts(Translation3::new(0.0, -lowest - 0.01, 0.0), tilt);
    let m = manifold_of(Shape::Box(&table), Shape::Hull(&local, &pose), 0.0);
    assert_eq!(m.len(), 1, "{m:?}");
    assert!((m.points()[0].distance + 0.01).abs() < 1e-9);
    // Two capsules crossing at right angles (capsule–capsule has its own routine; a capsule
    // and a segment go through the features): one point.
    let cap = Capsule::new(P3::new(-1.0, 0.2, 0.0), P3::new(1.0, 0.2, 0.0), 0.25).unwrap();
    let seg = Segment::new(P3::new(0.0, 0.0, -1.0), P3::new(0.0, 0.0, 1.0)).unwrap();
    assert_eq!(manifold_of(Shape::Capsule(&cap), Shape::Segment(&seg), 0.0).len(), 1);
    // Parallel: the overlap's two ends.
    let along = Segment::new(P3::new(0.5, 0.0, 0.0), P3::new(3.0, 0.0, 0.0)).unwrap();
    let m = manifold_of(Shape::Capsule(&cap), Shape::Segment(&along), 0.0);
    assert_eq!(m.len(), 2, "{m:?}");
    let mut xs: Vec<f64> = m.points().iter().map(|p| p.point_b.x).collect();
    xs.sort_by(f64::total_cmp);
    assert!((xs[0] - 0.5).abs() < 1e-9 && (xs[1] - 1.0).abs() < 1e-9, "{m:?}");
}

/// How far `p` is from the surface of `s` (negative inside).
fn surface_distance(p: &P3, s: Shape<'_, f64>) -> f64 {
    let dot = Ball::new(*p, 0.0).unwrap();
    distance(Shape::Ball(&dot), s, &mut PairCache::default()).unwrap().distance
}

#[test]
fn axis_aligned_scenes_give_points_on_both_surfaces_no_deeper_than_the_contact() {
    let mut rng = Rng(77);
    let (mut multi, mut pairs) = (0, 0);
    for _ in 0..400 {
        let c = |rng: &mut Rng| P3::from(rng.vector::<3>(-0.6, 0.6));
        let half = |rng: &mut Rng| V3::new(rng.range(0.1, 0.6), rng.range(0.1, 0.6), rng.range(0.1, 0.6));
        let cube = unit_cube_at(c(&mut rng), half(&mut rng));
        let local = ConvexPolyhedron::from_obb(&unit_cube_at(P3::origin(), half(&mut rng))).unwrap();
        let pose =
            Isometry3::from_parts(Translation3::from(rng.vector::<3>(-0.6, 0.6)), UnitQuaternion::identity());
        let y = rng.range(-0.5, 0.5);
        let tri = Triangle::new(P3::new(-1.0, y, -1.0), P3::new(1.0, y, -1.0), P3::new(0.0, y, 1.0)).unwrap();
        let p0 = c(&mut rng);
        let axis = [V3::x(), V3::y(), V3::z()][(rng.next_f64() * 3.0) as usize % 3];
        let cap = Capsule::new(p0, p0 + axis * rng.range(0.2, 1.0), rng.range(0.05, 0.3)).unwrap();
        let seg = Segment::new(p0, p0 + V3::x() * rng.range(0.2, 1.0)).unwrap();
        let cyl = Cylinder::new(p0, p0 + axis * rng.range(0.2, 1.0), rng.range(0.1, 0.5)).unwrap();
        let cone = Cone::new(p0 + V3::y() * rng.range(0.2, 1.0), p0, rng.range(0.1, 0.5)).unwrap();
        let lozenge = Lozenge::new(
            c(&mut rng),
            V3::x() * rng.range(0.1, 0.8),
            axis.cross(&V3::x()) + V3::z() * 0.3,
            rng.range(0.02, 0.2),
        )
        .unwrap();
        let shapes = [
            Shape::Box(&cube),
            Shape::Hull(&local, &pose),
            Shape::Triangle(&tri),
            Shape::Capsule(&cap),
            Shape::Segment(&seg),
            Shape::Cylinder(&cyl),
            Shape::Cone(&cone),
            Shape::Lozenge(&lozenge),
        ];
        for a in shapes {
            for b in shapes {
                let prediction = 0.05;
                let Some(exact) = contact(a, b, prediction, &mut PairCache::default()).unwrap() else {
                    continue;
                };
                let m = manifold_of(a, b, prediction);
                pairs += 1;
                if m.len() > 1 {
                    multi += 1;
                }
                assert!(!m.is_empty(), "{a:?}/{b:?}: contact {exact:?} but an empty manifold");
                let deepest = m.deepest().unwrap().distance;
                // EPA on curved shapes (cylinders, cones) converges to ~1e-5 of the depth.
                let curved = |s: &Shape<f64>| matches!(s, Shape::Cylinder(_) | Shape::Cone(_));
                let tol = if curved(&a) || curved(&b) { 1e-4 } else { 1e-6 };
                assert!(
                    (deepest - exact.distance).abs() < tol,
                    "{a:?}/{b:?}: deepest {deepest} vs {exact:?}: {m:?}"
                );
                for p in m.points() {
                    assert!(
                        p.distance <= prediction && p.distance >= exact.distance - tol,
                        "{a:?}/{b:?}: {p:?}"
                    );
                    assert!(
                        (p.point_b - p.point_a - m.normal * p.distance).norm() < 1e-9,
                        "{a:?}/{b:?}: {p:?}"
                    );
                    let on_a = surface_distance(&p.point_a, a);
                    assert!(on_a.abs() < tol, "{a:?}/{b:?}: point_a {on_a} off A's surface: {p:?} in {m:?}");
                    if p.distance > exact.distance + tol {
                        let on_b = surface_distance(&p.point_b, b);
                        assert!(
                            on_b.abs() < tol,
                            "{a:?}/{b:?}: point_b {on_b} off B's surface: {p:?} in {m:?}"
                        );
                    }
                }
            }
        }
    }
    assert!(pairs > 2000, "{pairs} pairs in contact");
    assert!(multi * 4 > pairs, "only {multi} of {pairs} manifolds have several points");
}
