//! The analytic pairs against GJK + EPA on the same core shapes (an independent
//! implementation), plus hand-derived cases for the touching and crossing configurations.

mod common;

use cd_geom::*;
use cd_narrow::*;
use common::*;

const INF: f64 = f64::INFINITY;

fn gjk_epa<A: SupportMap<f64, 3>, B: SupportMap<f64, 3>>(a: &A, ra: f64, b: &B, rb: f64) -> Contact<f64, 3> {
    convex_contact(a, ra, b, rb, &ConvexConfig::default(), &mut GjkCache::default())
}

/// Same distance; same normal when separated (the closest direction is then unique).
fn assert_agree(got: &Contact<f64, 3>, want: &Contact<f64, 3>, what: &str) {
    assert!((got.distance - want.distance).abs() < 1e-7, "{what}: {got:?} vs {want:?}");
    assert!((got.point_b - got.point_a - got.normal * got.distance).norm() < 1e-9, "{what}: {got:?}");
    if want.distance > 1e-6 {
        assert!((got.normal - want.normal).norm() < 1e-6, "{what}: {got:?} vs {want:?}");
    }
}

fn ball(rng: &mut Rng) -> Ball<f64, 3> {
    Ball::new(P3::from(rng.vector::<3>(-1.5, 1.5)), rng.range(0.05, 1.0)).unwrap()
}

fn capsule(rng: &mut Rng) -> Capsule<f64, 3> {
    let a = P3::from(rng.vector::<3>(-1.5, 1.5));
    Capsule::new(a, a + rng.vector::<3>(-1.0, 1.0), rng.range(0.05, 0.6)).unwrap()
}

fn obb(rng: &mut Rng) -> Obb<f64, 3> {
    let q = nalgebra::UnitQuaternion::from_euler_angles(
        rng.range(-3.0, 3.0),
        rng.range(-1.5, 1.5),
        rng.range(-3.0, 3.0),
    );
    Obb::from_rotation(
        P3::from(rng.vector::<3>(-1.0, 1.0)),
        q,
        V3::new(rng.range(0.1, 1.0), rng.range(0.1, 1.0), rng.range(0.1, 1.0)),
    )
    .unwrap()
}

fn triangle(rng: &mut Rng) -> Triangle<f64, 3> {
    let c = rng.vector::<3>(-1.0, 1.0);
    Triangle::new(
        P3::from(c + rng.vector::<3>(-1.0, 1.0)),
        P3::from(c + rng.vector::<3>(-1.0, 1.0)),
        P3::from(c + rng.vector::<3>(-1.0, 1.0)),
    )
    .unwrap()
}

#[test]
fn analytic_pairs_agree_with_gjk_epa() {
    let mut rng = Rng(4242);
    for _ in 0..3000 {
        let (b1, b2) = (ball(&mut rng), ball(&mut rng));
        let want = gjk_epa(b1.center(), b1.radius(), b2.center(), b2.radius());
        assert_agree(&ball_ball_contact(&b1, &b2, INF).unwrap(), &want, "ball/ball");

        let bx = obb(&mut rng);
        let want = gjk_epa(&bx, 0.0, b1.center(), b1.radius());
        assert_agree(&obb_ball_contact(&bx, &b1, INF).unwrap(), &want, "box/ball");
        assert_agree(&ball_obb_contact(&b1, &bx, INF).unwrap(), &want.flipped(), "ball/box");

        let (c1, c2) = (capsule(&mut rng), capsule(&mut rng));
        let want = gjk_epa(&c1.segment(), c1.radius(), b1.center(), b1.radius());
        assert_agree(&capsule_ball_contact(&c1, &b1, INF).unwrap(), &want, "capsule/ball");
        let got = capsule_capsule_contact(&c1, &c2, INF).unwrap();
        let want = gjk_epa(&c1.segment(), c1.radius(), &c2.segment(), c2.radius());
        // Crossing axes: the analytic depth is r1 + r2, GJK+EPA on the (flat) cores agrees.
        assert_agree(&got, &want, "capsule/capsule");

        let t = triangle(&mut rng);
        let want = gjk_epa(&t, 0.0, b1.center(), b1.radius());
        assert_agree(&triangle_ball_contact(&t, &b1, INF).unwrap(), &want, "triangle/ball");
        let want = gjk_epa(&t, 0.0, &c1.segment(), c1.radius());
        assert_agree(&triangle_capsule_contact(&t, &c1, INF).unwrap(), &want, "triangle/capsule");
        assert_agree(&capsule_triangle_contact(&c1, &t, INF).unwrap(), &want.flipped(), "capsule/triangle");
    }
}

#[test]
fn prediction_filters_and_touching_counts() {
    let a = Ball::new(P3::origin(), 1.0).unwrap();
    let b = Ball::new(P3::new(2.5, 0.0, 0.0), 1.0).unwrap();
    assert!(ball_ball_contact(&a, &b, 0.0).is_none());
    assert!(ball_ball_contact(&a, &b, 0.49).is_none());
    let c = ball_ball_contact(&a, &b, 0.5).unwrap();
    assert!((c.distance - 0.5).abs() < 1e-15 && c.normal == V3::x());
    // Touching exactly: distance 0 is reported with prediction 0.
    let t = Ball::new(P3::new(2.0, 0.0, 0.0), 1.0).unwrap();
    assert_eq!(ball_ball_contact(&a, &t, 0.0).unwrap().distance, 0.0);
}

#[test]
fn degenerate_configurations_have_valid_normals() {
    // Concentric balls: depth r1 + r2 along a fixed axis, flagged degenerate.
    let a = Ball::new(P3::new(1.0, 2.0, 3.0), 1.0).unwrap();
    let c = ball_ball_contact(&a, &a, 0.0).unwrap();
    assert!((c.distance + 2.0).abs() < 1e-15 && c.status == ContactStatus::Degenerate);
    assert!((c.normal.norm() - 1.0).abs() < 1e-15);
    // Crossing capsules (x axis and y axis, z offset 0): separated along ±z by r1 + r2 = 0.5.
    let x = Capsule::new(P3::new(-1.0, 0.0, 0.0), P3::new(1.0, 0.0, 0.0), 0.2).unwrap();
    let y = Capsule::new(P3::new(0.0, -1.0, 0.0), P3::new(0.0, 1.0, 0.0), 0.3).unwrap();
    let c = capsule_capsule_contact(&x, &y, 0.0).unwrap();
    assert!(
        (c.distance + 0.5).abs() < 1e-15 && c.normal.z.abs() == 1.0 && c.status == ContactStatus::Converged,
        "{c:?}"
    );
    // Collinear overlapping capsules: any perpendicular, degenerate.
    let x2 = Capsule::new(P3::new(0.5, 0.0, 0.0), P3::new(2.0, 0.0, 0.0), 0.2).unwrap();
    let c = capsule_capsule_contact(&x, &x2, 0.0).unwrap();
    assert!(
        (c.distance + 0.4).abs() < 1e-15 && c.normal.x.abs() < 1e-15 && c.status == ContactStatus::Degenerate
    );
    // Ball centred on a triangle: pushed out along the face normal (+z for this winding).
    let t = Triangle::new(P3::new(-1.0, -1.0, 0.0), P3::new(1.0, -1.0, 0.0), P3::new(0.0, 1.0, 0.0)).unwrap();
    let b = Ball::new(P3::new(0.0, 0.0, 0.0), 0.25).unwrap();
    let c = triangle_ball_contact(&t, &b, 0.0).unwrap();
    assert!((c.distance + 0.25).abs() < 1e-15 && c.normal == V3::z(), "{c:?}");
    // Ball inside a box: out through the nearest face (x = 1 for a centre at x = 0.8).
    let bx = Obb::from_aabb(&Aabb::new(P3::new(-1.0, -1.0, -1.0), P3::new(1.0, 1.0, 1.0)).unwrap());
    let b = Ball::new(P3::new(0.8, 0.1, -0.2), 0.1).unwrap();
    let c = obb_ball_contact(&bx, &b, 0.0).unwrap();
    assert!((c.distance + 0.3).abs() < 1e-15 && c.normal == V3::x(), "{c:?}");
}

#[test]
fn halfspace_pairs() {
    // Floor z ≤ 0 (normal +z, d = 0).
    let floor = Plane::new(V3::z(), 0.0).unwrap();
    let b = Ball::new(P3::new(1.0, 2.0, 0.4), 0.5).unwrap();
    let c = halfspace_convex_contact(&floor, b.center(), b.radius(), 0.0).unwrap();
    assert!((c.distance + 0.1).abs() < 1e-15 && c.normal == V3::z());
    assert!(
        (c.point_b - P3::new(1.0, 2.0, -0.1)).norm() < 1e-15
            && (c.point_a - P3::new(1.0, 2.0, 0.0)).norm() < 1e-15
    );
    // A unit cube tilted 45° about x, lowest edge 0.05 below the floor: two manifold points.
    let h = 0.5 * 2f64.sqrt();
    let cube = Obb::from_rotation(
        P3::new(0.0, 0.0, h - 0.05),
        nalgebra::UnitQuaternion::from_euler_angles(std::f64::consts::FRAC_PI_4, 0.0, 0.0),
        V3::repeat(0.5),
    )
    .unwrap();
    let mut m = Manifold::default();
    halfspace_obb_manifold(&floor, &cube, 0.0, &mut m);
    assert_eq!(m.len(), 2);
    for p in m.points() {
        assert!((p.distance + 0.05).abs() < 1e-12 && p.point_a.z == 0.0);
    }
    let c = halfspace_convex_contact(&floor, &cube, 0.0, 0.0).unwrap();
    assert!((c.distance + 0.05).abs() < 1e-12);
}

#[test]
fn parallel_capsules_get_two_points_at_the_overlap_ends() {
    // A along x from 0 to 2, radius 0.25; B along x from 1 to 4 at height 0.45, radius 0.25:
    // 0.05 deep over x in [1, 2].
    let a = Capsule::new(P3::new(0.0, 0.0, 0.0), P3::new(2.0, 0.0, 0.0), 0.25).unwrap();
    let b = Capsule::new(P3::new(4.0, 0.0, 0.45), P3::new(1.0, 0.0, 0.45), 0.25).unwrap();
    let mut m = Manifold::default();
    capsule_capsule_manifold(&a, &b, 0.0, &mut m);
    assert_eq!(m.len(), 2, "{m:?}");
    assert!((m.normal - V3::z()).norm() < 1e-12);
    let mut xs: Vec<f64> = m.points().iter().map(|p| p.point_a.x).collect();
    xs.sort_by(|p, q| p.partial_cmp(q).unwrap());
    assert!((xs[0] - 1.0).abs() < 1e-12 && (xs[1] - 2.0).abs() < 1e-12, "{xs:?}");
    for p in m.points() {
        assert!(
            (p.distance + 0.05).abs() < 1e-12
                && (p.point_a.z - 0.25).abs() < 1e-12
                && (p.point_b.z - 0.2).abs() < 1e-12
        );
    }
    // Crossing capsules: one point.
    let c = Capsule::new(P3::new(1.0, -1.0, 0.45), P3::new(1.0, 1.0, 0.45), 0.25).unwrap();
    capsule_capsule_manifold(&a, &c, 0.0, &mut m);
    assert_eq!(m.len(), 1);
    // Far apart: empty.
    let far = Capsule::new(P3::new(0.0, 0.0, 3.0), P3::new(2.0, 0.0, 3.0), 0.25).unwrap();
    capsule_capsule_manifold(&a, &far, 0.0, &mut m);
    assert!(m.is_empty());
}

#[test]
fn shared_edges_of_a_mesh_do_not_create_ghost_contacts() {
    // Two coplanar triangles sharing the edge x = 0, y in [-1, 1]: T1 on the left, T2 on the
    // right, both facing +z.
    let t1 = Triangle::new(P3::new(0.0, -1.0, 0.0), P3::new(0.0, 1.0, 0.0), P3::new(-1.0, 0.0, 0.0)).unwrap();
    let flat = TriangleNeighbors { normals: [Some(V3::z()), None, None] };
    // A ball above T2 just past the edge: against T1 alone the closest point is the edge point
    // (0, 0, 0) and the normal leans sideways, (−0.1, 0, −0.3)/|..|.
    let ball = Ball::new(P3::new(0.1, 0.0, 0.3), 0.35).unwrap();
    let mut c = ball_triangle_contact(&ball, &t1, 0.0).unwrap();
    assert!(c.normal.x < -0.3, "{c:?}");
    assert!(fix_internal_edge(&mut c, &t1, &flat));
    // Corrected: straight down, depth along −z from the edge point: the ball's witness
    // (0.1, 0, 0.3) − 0.35·(0.1, 0, 0.3)/√0.1 has z = 0.3 − 0.35·0.3/√0.1 ≈ −0.0320.
    assert!((c.normal + V3::z()).norm() < 1e-12, "{c:?}");
    let expected = 0.3 - 0.35 * 0.3 / 0.1f64.sqrt();
    assert!((c.distance - expected).abs() < 1e-12, "{c:?}");
    assert!((c.point_b - c.point_a - c.normal * c.distance).norm() < 1e-12);
    // The same edge with no neighbour (mesh boundary): the edge normal is genuine, kept.
    let mut c = ball_triangle_contact(&ball, &t1, 0.0).unwrap();
    assert!(!fix_internal_edge(&mut c, &t1, &TriangleNeighbors { normals: [None; 3] }));
    // A ball over T1's interior: untouched.
    let inside = Ball::new(P3::new(-0.3, 0.0, 0.3), 0.35).unwrap();
    let mut c = ball_triangle_contact(&inside, &t1, 0.0).unwrap();
    assert!(!fix_internal_edge(&mut c, &t1, &flat) && (c.normal + V3::z()).norm() < 1e-12);
    // A convex ridge (neighbour tilted down by 45°): a normal between the two faces is valid.
    let ridge = TriangleNeighbors { normals: [Some(V3::new(1.0, 0.0, 1.0).normalize()), None, None] };
    let mut c = ball_triangle_contact(&ball, &t1, 0.0).unwrap();
    assert!(!fix_internal_edge(&mut c, &t1, &ridge), "{c:?}");
}

#[test]
fn capsule_lying_on_a_box_gets_two_points() {
    // Box [-1, 1]³; capsule along x from -2 to 0.5 at height 1.2, radius 0.25: 0.05 deep,
    // the axis clipped to the top face gives x in [-1, 0.5].
    let bx = Obb::from_aabb(&Aabb::new(P3::new(-1.0, -1.0, -1.0), P3::new(1.0, 1.0, 1.0)).unwrap());
    let cap = Capsule::new(P3::new(-2.0, 0.3, 1.2), P3::new(0.5, 0.3, 1.2), 0.25).unwrap();
    let mut m = Manifold::default();
    obb_capsule_manifold(&bx, &cap, 0.0, &mut m);
    assert_eq!(m.len(), 2, "{m:?}");
    assert!((m.normal - V3::z()).norm() < 1e-9);
    let mut xs: Vec<f64> = m.points().iter().map(|p| p.point_b.x).collect();
    xs.sort_by(|p, q| p.partial_cmp(q).unwrap());
    assert!((xs[0] + 1.0).abs() < 1e-9 && (xs[1] - 0.5).abs() < 1e-9, "{xs:?}");
    for p in m.points() {
        assert!(
            (p.distance + 0.05).abs() < 1e-9
                && (p.point_a.z - 1.0).abs() < 1e-9
                && (p.point_b.z - 0.95).abs() < 1e-9,
            "{p:?}"
        );
    }
    // Tilted capsule: one point.
    let tilted = Capsule::new(P3::new(0.0, 0.0, 1.2), P3::new(0.5, 0.0, 2.2), 0.25).unwrap();
    obb_capsule_manifold(&bx, &tilted, 0.0, &mut m);
    assert_eq!(m.len(), 1);
}

/// The capsule/triangle plane rejection (a separating-axis test along the triangle's normal)
/// never drops a pair within the prediction: with a finite prediction, and through the
/// dispatcher's boolean test, the answers equal the unlimited query's distance filtered by
/// the prediction, on random pairs placed both beside and above the triangle.
#[test]
fn capsule_triangle_prediction_and_boolean_agree_with_the_distance() {
    let mut rng = Rng(77);
    let mut rejected_by_prediction = 0;
    for _ in 0..cases(4000) {
        let t = triangle(&mut rng);
        let c = capsule(&mut rng);
        let full = triangle_capsule_contact(&t, &c, INF).unwrap();
        for p in [0.0, 0.05, 0.3] {
            // Pairs within rounding of the prediction may go either way.
            if (full.distance - p).abs() < 1e-9 {
                continue;
            }
            let got = triangle_capsule_contact(&t, &c, p);
            assert_eq!(got.is_some(), full.distance <= p, "prediction {p}: {t:?} {c:?} {full:?}");
            if let Some(g) = got {
                assert_agree(&g, &full, "triangle/capsule within the prediction");
            }
            rejected_by_prediction += got.is_none() as usize;
            assert_eq!(capsule_triangle_contact(&c, &t, p).is_some(), full.distance <= p);
        }
        if full.distance.abs() > 1e-9 {
            let hit = intersects(Shape::Capsule(&c), Shape::Triangle(&t), &mut PairCache::default()).unwrap();
            assert_eq!(hit, full.distance <= 0.0, "{t:?} {c:?} {full:?}");
            let hit = intersects(Shape::Triangle(&t), Shape::Capsule(&c), &mut PairCache::default()).unwrap();
            assert_eq!(hit, full.distance <= 0.0, "{t:?} {c:?} {full:?}");
        }
    }
    assert!(rejected_by_prediction > 1000, "the random pairs must include separated ones");
}

/// A capsule lying flat exactly its radius above a triangle touches it: kept at prediction 0,
/// dropped only beyond. The same one a hair higher is dropped.
#[test]
fn capsule_resting_on_a_triangle_touches() {
    let t = Triangle::new(P3::new(0.0, 0.0, 0.0), P3::new(4.0, 0.0, 0.0), P3::new(0.0, 4.0, 0.0)).unwrap();
    let resting = Capsule::new(P3::new(0.5, 0.5, 0.25), P3::new(1.5, 0.5, 0.25), 0.25).unwrap();
    let c = triangle_capsule_contact(&t, &resting, 0.0).unwrap();
    assert!(c.distance.abs() < 1e-15, "{c:?}");
    assert!(intersects(Shape::Capsule(&resting), Shape::Triangle(&t), &mut PairCache::default()).unwrap());
    let above = Capsule::new(P3::new(0.5, 0.5, 0.26), P3::new(1.5, 0.5, 0.26), 0.25).unwrap();
    assert!(triangle_capsule_contact(&t, &above, 0.0).is_none());
    assert!(triangle_capsule_contact(&t, &above, 0.02).is_some());
    assert!(!intersects(Shape::Capsule(&above), Shape::Triangle(&t), &mut PairCache::default()).unwrap());
}
