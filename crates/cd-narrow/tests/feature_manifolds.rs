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
    check_scenes(77, 400, 0.0, |_| Isometry3::identity());
}

#[test]
fn rotated_scenes_give_points_on_both_surfaces_no_deeper_than_the_contact() {
    // The same scenes moved rigidly as a whole: faces that meet faces still do, but no normal
    // or edge is along an axis, so every clipping plane and support feature is a general one
    // (box/triangle and hull/hull clipping included).
    check_scenes(78, 1000, 0.0, random_motion);
}

/// A random rigid motion: any rotation, a translation within 3 of the origin.
fn random_motion(rng: &mut Rng) -> Isometry3<f64> {
    Isometry3::from_parts(
        Translation3::from(rng.vector::<3>(-3.0, 3.0)),
        UnitQuaternion::from_euler_angles(rng.range(-3.0, 3.0), rng.range(-1.5, 1.5), rng.range(-3.0, 3.0)),
    )
}

/// tan of the angle within which a face is a support feature (about 1.8°).
const FEATURE_TAN: f64 = 0.0316;

#[test]
fn tilted_scenes_give_points_on_both_surfaces_no_deeper_than_the_contact() {
    // Every shape turned on its own by up to 0.2 rad: faces meet at small angles, within the
    // features' tolerance or just past it, and edges meet in general position.
    check_scenes(79, 1000, 0.2, random_motion);
}

/// `scenes` random scenes of every shape kind, each moved by `motion(rng)`; every pair in contact
/// must get a manifold whose deepest point is the exact contact, with every point within the
/// prediction, no deeper than the contact, on A's surface, and (unless it is the deepest) on B's.
fn check_scenes(seed: u64, scenes: usize, tilt: f64, motion: impl Fn(&mut Rng) -> Isometry3<f64>) {
    let mut rng = Rng(seed);
    let (mut multi, mut pairs) = (0, 0);
    for _ in 0..scenes {
        let scene = motion(&mut rng);
        // Each shape's own motion: the scene's, turned by up to `tilt` radians about each axis.
        let own = |rng: &mut Rng| {
            if tilt == 0.0 {
                scene
            } else {
                let t = rng.vector::<3>(-tilt, tilt);
                scene * UnitQuaternion::from_euler_angles(t.x, t.y, t.z)
            }
        };
        let c = |rng: &mut Rng| P3::from(rng.vector::<3>(-0.6, 0.6));
        let half = |rng: &mut Rng| V3::new(rng.range(0.1, 0.6), rng.range(0.1, 0.6), rng.range(0.1, 0.6));
        let new_box = |rng: &mut Rng| {
            let g = own(rng);
            Obb::new(g * c(rng), g.rotation.to_rotation_matrix().into_inner(), half(rng)).unwrap()
        };
        let new_hull = |rng: &mut Rng| {
            let g = own(rng);
            let local = ConvexPolyhedron::from_obb(&unit_cube_at(P3::origin(), half(rng))).unwrap();
            (
                local,
                g * Isometry3::from_parts(
                    Translation3::from(rng.vector::<3>(-0.6, 0.6)),
                    UnitQuaternion::identity(),
                ),
            )
        };
        let cube = new_box(&mut rng);
        let (local, pose) = new_hull(&mut rng);
        let g = own(&mut rng);
        let y = rng.range(-0.5, 0.5);
        let tri =
            Triangle::new(g * P3::new(-1.0, y, -1.0), g * P3::new(1.0, y, -1.0), g * P3::new(0.0, y, 1.0))
                .unwrap();
        let p0 = c(&mut rng);
        let axis = [V3::x(), V3::y(), V3::z()][(rng.next_f64() * 3.0) as usize % 3];
        let g = own(&mut rng);
        let cap = Capsule::new(g * p0, g * (p0 + axis * rng.range(0.2, 1.0)), rng.range(0.05, 0.3)).unwrap();
        let g = own(&mut rng);
        let seg = Segment::new(g * p0, g * (p0 + V3::x() * rng.range(0.2, 1.0))).unwrap();
        let g = own(&mut rng);
        let cyl = Cylinder::new(g * p0, g * (p0 + axis * rng.range(0.2, 1.0)), rng.range(0.1, 0.5)).unwrap();
        let g = own(&mut rng);
        let cone = Cone::new(g * (p0 + V3::y() * rng.range(0.2, 1.0)), g * p0, rng.range(0.1, 0.5)).unwrap();
        let g = own(&mut rng);
        let lozenge = Lozenge::new(
            g * c(&mut rng),
            g * (V3::x() * rng.range(0.1, 0.8)),
            g * (axis.cross(&V3::x()) + V3::z() * 0.3),
            rng.range(0.02, 0.2),
        )
        .unwrap();
        // A second box and hull: the box/box and hull/hull clipping (SAT) paths.
        let cube2 = new_box(&mut rng);
        let (local2, pose2) = new_hull(&mut rng);
        let shapes = [
            Shape::Box(&cube),
            Shape::Box(&cube2),
            Shape::Hull(&local, &pose),
            Shape::Hull(&local2, &pose2),
            Shape::Triangle(&tri),
            Shape::Capsule(&cap),
            Shape::Segment(&seg),
            Shape::Cylinder(&cyl),
            Shape::Cone(&cone),
            Shape::Lozenge(&lozenge),
        ];
        for a in shapes {
            for b in shapes {
                if let Some(points) = check_pair(a, b, 0.05, tilt != 0.0) {
                    pairs += 1;
                    if points > 1 {
                        multi += 1;
                    }
                }
            }
        }
    }
    assert!(pairs > 5 * scenes, "{pairs} pairs in contact");
    // Faces meet faces where the scene is moved rigidly; tilted, they meet within a few degrees.
    let share = if tilt == 0.0 { 4 } else { 20 };
    assert!(multi * share > pairs, "only {multi} of {pairs} manifolds have several points");
}

/// Checks the manifold of `a` and `b` against their exact contact: not empty when they are
/// within `prediction`, its deepest point the contact, every point within the prediction, no
/// deeper than the contact, apart along the normal by its distance, on A's surface, and
/// (unless it is the deepest) on B's. `tilted`: the shapes are turned against each other, and
/// the depths hold to the tolerances of the features and of the box pairs' face preference
/// instead of exactly. Returns the number of points, `None` when apart.
fn check_pair(a: Shape<'_, f64>, b: Shape<'_, f64>, prediction: f64, tilted: bool) -> Option<usize> {
    let exact = contact(a, b, prediction, &mut PairCache::default()).unwrap()?;
    let m = manifold_of(a, b, prediction);
    assert!(!m.is_empty(), "{a:?}/{b:?}: contact {exact:?} but an empty manifold");
    let deepest = m.deepest().unwrap().distance;
    // EPA on curved shapes (cylinders, cones) converges to ~1e-5 of the depth.
    let curved = |s: &Shape<f64>| matches!(s, Shape::Cylinder(_) | Shape::Cone(_));
    let tol = if curved(&a) || curved(&b) { 1e-4 } else { 1e-6 };
    let spread = m
        .points()
        .iter()
        .flat_map(|p| m.points().iter().map(|q| (p.point_a - q.point_a).norm()))
        .fold(0.0, f64::max);
    // Where faces meet exactly the depth is exact. Tilted, the exact contact joins a clipped
    // manifold unless a kept point is as deep to a thousandth of the features' size (features
    // within the angular tolerance leave that much), and box pairs prefer a face axis whose
    // depth exceeds SAT's minimum by up to 5 % (plus 0.1 % of their size): four stable points
    // on a stack instead of one flickering edge point.
    let joins = if tilted {
        tol + 2e-3 * (spread + 1.0) + 0.05 * exact.distance.abs().max(deepest.abs())
    } else {
        tol
    };
    assert!((deepest - exact.distance).abs() < joins, "{a:?}/{b:?}: deepest {deepest} vs {exact:?}: {m:?}");
    for p in m.points() {
        assert!(p.distance <= prediction && p.distance >= exact.distance - joins, "{a:?}/{b:?}: {p:?}");
        assert!((p.point_b - p.point_a - m.normal * p.distance).norm() < 1e-9, "{a:?}/{b:?}: {p:?}");
        // A support feature counts within about 1.8° of the normal: points carried onto a face
        // along the normal can be off its extent by tan(1.8°) of how far they are carried (the
        // depth, and a rounded shape's radius from its core), and two edges
        // parallel within that angle drift apart sideways by as much of their span (in a moved
        // scene, where the exact normal is not the features').
        let slack = tol + FEATURE_TAN * (p.distance.abs() + rounding(&a) + rounding(&b) + spread);
        let on_a = surface_distance(&p.point_a, a);
        assert!(on_a.abs() < slack, "{a:?}/{b:?}: point_a {on_a} off A's surface: {p:?} in {m:?}");
        if p.distance > exact.distance + joins {
            let on_b = surface_distance(&p.point_b, b);
            assert!(on_b.abs() < slack, "{a:?}/{b:?}: point_b {on_b} off B's surface: {p:?} in {m:?}");
        }
    }
    Some(m.len())
}

#[test]
fn cases_the_rotated_scenes_found() {
    let p = |x: f64, y: f64, z: f64| P3::new(x, y, z);
    // A segment starting at a capsule's end point: the cores touch at one point, A − B of two
    // segments is flat, and EPA's tolerance came from GJK's simplex alone — the origin, so
    // 10⁻⁴¹ — which let rounding make the flat difference look solid: the contact's points were
    // the two midpoints, 0.6 apart for a reported depth of 0.09.
    let start = p(-1.3278610375850057, -1.9881476808713887, -1.265141348068315);
    let seg = Segment::new(start, p(-1.2703989154941455, -1.9124137790998699, -2.029541205177326)).unwrap();
    let cap = Capsule::new(
        start,
        p(-1.4005728127588222, -2.9139340499484465, -1.3623307786374776),
        0.0904881244856759,
    )
    .unwrap();
    let c = contact(Shape::Segment(&seg), Shape::Capsule(&cap), 0.05, &mut PairCache::default())
        .unwrap()
        .unwrap();
    assert!((c.distance + cap.radius()).abs() < 1e-12, "{c:?}");
    assert!(
        (c.point_a - start).norm() < 1e-12 && (c.point_b - c.point_a - c.normal * c.distance).norm() < 1e-12
    );
    assert_eq!(check_pair(Shape::Segment(&seg), Shape::Capsule(&cap), 0.05, false), Some(1));
    // A triangle 2.7° off face-on to the normal: more than one of its edges lies across the
    // normal, and the first, a whole side away from the contact, was paired with the
    // cylinder's side line as "parallel edges": two points on nothing, a unit from the cylinder.
    let tri = Triangle::new(
        p(-1.6447933677544588, -1.973451686239445, -3.2064754131954576),
        p(-1.3226609743881124, -1.1923558840783923, -1.3937095515932343),
        p(-2.4822078060892054, -3.1028455800794177, -1.4677383741278807),
    )
    .unwrap();
    let cyl = Cylinder::new(
        p(-1.8495243528780234, -2.4751227266891456, -1.4220098477316978),
        p(-1.7697249018634622, -2.281627699533202, -0.9729469048152958),
        0.21874819985920813,
    )
    .unwrap();
    assert!(check_pair(Shape::Triangle(&tri), Shape::Cylinder(&cyl), 0.05, false).is_some());
    // A cone against itself: the normal runs along the axis towards the apex, where rounding
    // noise normalised into a "radial" direction gave a slant edge through a made-up rim point.
    let cone = Cone::new(
        p(-2.2784576610205014, 0.32399134203818614, 0.8719475664278531),
        p(-2.2011334248307923, 0.6810773123845452, 1.063199838989066),
        0.46602775600365653,
    )
    .unwrap();
    assert_eq!(check_pair(Shape::Cone(&cone), Shape::Cone(&cone), 0.05, false), Some(1));
    // Boxes apart from triangles within the prediction, where SAT's axis (a lower bound on the
    // gap) is not the closest direction: the clipped manifold was empty, or its point closer
    // than the shapes are (a made-up pair); the exact contact now settles both.
    let rotated_box = |centre: P3, axes: [[f64; 3]; 3], half: [f64; 3]| {
        let m = nalgebra::Matrix3::from_columns(&axes.map(V3::from));
        Obb::new(centre, m, V3::from(half)).unwrap()
    };
    let bx = rotated_box(
        p(-0.2439935983937982, 0.3209054440387966, -0.4523593128964105),
        [
            [0.36237902085604223, -0.7530532982201061, 0.5491740846791994],
            [-0.7863875972762535, 0.06923216032088272, 0.6138415551487085],
            [-0.5002759159638784, -0.6543069906528004, -0.567103491339437],
        ],
        [0.3910831134552727, 0.10665596122870338, 0.5521898293783324],
    );
    let tri = Triangle::new(
        p(0.2248790416119577, 0.12896592403594775, 0.8346195907241059),
        p(0.4125584741452213, -0.7897902622982629, 0.9628158745499611),
        p(-0.6092938634951143, -0.41510636256339717, -0.6741315363656982),
    )
    .unwrap();
    let mut raw = Manifold::default();
    box_triangle_manifold(&bx, &tri, 0.05, &mut raw);
    assert!(raw.is_empty(), "the clipping alone keeps nothing here");
    assert_eq!(check_pair(Shape::Box(&bx), Shape::Triangle(&tri), 0.05, false), Some(1));
    assert_eq!(check_pair(Shape::Triangle(&tri), Shape::Box(&bx), 0.05, false), Some(1));
    let bx = rotated_box(
        p(-0.05542044060115736, 0.4876383632004617, -0.30634286601625993),
        [
            [0.060224574319228535, 0.2459703193240203, 0.967404570311567],
            [-0.956334637476032, 0.29190486443655517, -0.01468370804201552],
            [-0.286001856308057, -0.9242781789753105, 0.25280978236300444],
        ],
        [0.36363408944521913, 0.16460054061995974, 0.21134608691060006],
    );
    let tri = Triangle::new(
        p(-0.0030973854071658646, 0.11014091425009465, -0.7776627308247032),
        p(0.50680741402283, 0.2813005328614262, 0.756889296302748),
        p(0.49282921737711294, -0.594955407012304, -0.4843852987167888),
    )
    .unwrap();
    // SAT's edge pair here (0.0408 apart, the separation) is not a pair of the shapes (the
    // closest pair is 0.0427 apart): the clipping keeps no point now rather than that one.
    box_triangle_manifold(&bx, &tri, 0.05, &mut raw);
    assert!(raw.is_empty(), "{raw:?}");
    assert!(check_pair(Shape::Box(&bx), Shape::Triangle(&tri), 0.05, false).is_some());
}

/// The radius a rounded shape adds around its core (0 for the others).
fn rounding(s: &Shape<'_, f64>) -> f64 {
    match s {
        Shape::Capsule(c) => c.radius(),
        Shape::Lozenge(l) => l.radius(),
        _ => 0.0,
    }
}
