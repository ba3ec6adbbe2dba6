//! The dispatcher on every pair of shape kinds, in both orders: the mirror property, agreement
//! with GJK + EPA on the cores, typed errors for what has no answer.

mod common;

use cd_geom::*;
use cd_narrow::*;
use common::*;
use nalgebra::UnitQuaternion;

struct Zoo {
    ball: Ball<f64, 3>,
    capsule: Capsule<f64, 3>,
    cube: Obb<f64, 3>,
    tri: Triangle<f64, 3>,
    seg: Segment<f64, 3>,
    cyl: Cylinder<f64>,
    cone: Cone<f64>,
    lozenge: Lozenge<f64>,
    poly: ConvexPolyhedron<f64>,
    cloud: Cloud<3>,
    pose: nalgebra::Isometry3<f64>,
}

impl Zoo {
    fn new(rng: &mut Rng) -> Self {
        let c = |rng: &mut Rng| P3::from(rng.vector::<3>(-1.0, 1.0));
        let q = UnitQuaternion::from_euler_angles(
            rng.range(-3.0, 3.0),
            rng.range(-1.5, 1.5),
            rng.range(-3.0, 3.0),
        );
        let cube = Obb::from_rotation(
            c(rng),
            q,
            V3::new(rng.range(0.1, 0.8), rng.range(0.1, 0.8), rng.range(0.1, 0.8)),
        )
        .unwrap();
        let p0 = c(rng);
        Zoo {
            ball: Ball::new(c(rng), rng.range(0.1, 0.8)).unwrap(),
            capsule: Capsule::new(p0, p0 + rng.vector::<3>(-1.0, 1.0), rng.range(0.1, 0.5)).unwrap(),
            poly: ConvexPolyhedron::from_obb(&cube).unwrap(),
            cube: Obb::from_rotation(
                c(rng),
                q,
                V3::new(rng.range(0.1, 0.8), rng.range(0.1, 0.8), rng.range(0.1, 0.8)),
            )
            .unwrap(),
            tri: Triangle::new(c(rng), c(rng), c(rng)).unwrap(),
            seg: Segment::new(c(rng), c(rng)).unwrap(),
            cyl: Cylinder::new(c(rng), c(rng), rng.range(0.1, 0.6)).unwrap(),
            cone: Cone::new(c(rng), c(rng), rng.range(0.1, 0.6)).unwrap(),
            lozenge: Lozenge::new(
                c(rng),
                rng.vector::<3>(-0.8, 0.8),
                rng.vector::<3>(-0.8, 0.8),
                rng.range(0.05, 0.3),
            )
            .unwrap(),
            cloud: rng.blob::<3>(9, 1.0, 0.2, 0.8),
            pose: nalgebra::Isometry3::from_parts(
                nalgebra::Translation3::from(rng.vector::<3>(-0.5, 0.5)),
                q,
            ),
        }
    }

    fn shapes(&self) -> Vec<Shape<'_, f64>> {
        vec![
            Shape::Ball(&self.ball),
            Shape::Capsule(&self.capsule),
            Shape::Box(&self.cube),
            Shape::Triangle(&self.tri),
            Shape::Segment(&self.seg),
            Shape::Cylinder(&self.cyl),
            Shape::Cone(&self.cone),
            Shape::Lozenge(&self.lozenge),
            Shape::Polyhedron(&self.poly),
            Shape::Hull(&self.poly, &self.pose),
            Shape::Convex(&self.cloud, 0.1),
        ]
    }
}

#[test]
fn every_pair_in_both_orders_is_mirrored_and_consistent() {
    let mut rng = Rng(123);
    let mut checked = 0;
    for _ in 0..200 {
        let (z1, z2) = (Zoo::new(&mut rng), Zoo::new(&mut rng));
        for a in z1.shapes() {
            for b in z2.shapes() {
                let ab = distance(a, b, &mut PairCache::default()).unwrap();
                let ba = distance(b, a, &mut PairCache::default()).unwrap();
                assert!((ab.distance - ba.distance).abs() < 1e-6, "{a:?}/{b:?}: {ab:?} vs {ba:?}");
                assert!(
                    (ab.point_b - ab.point_a - ab.normal * ab.distance).norm() < 1e-7,
                    "{a:?}/{b:?}: {ab:?}"
                );
                if ab.distance > 1e-6 {
                    // GJK on smooth shapes stalls in floating point once its simplex is a sliver:
                    // the distance is then right to ~1e-8 relative, the normal only to its square
                    // root (a normal error δ changes the distance by ~R δ²).
                    let curved = |s: &Shape<f64>| matches!(s, Shape::Cylinder(_) | Shape::Cone(_));
                    let tol = if curved(&a) || curved(&b) { 1e-3 } else { 1e-5 };
                    assert!((ab.normal + ba.normal).norm() < tol, "{a:?}/{b:?}: {ab:?} vs {ba:?}");
                }
                let hit = intersects(a, b, &mut PairCache::default()).unwrap();
                if ab.distance < -1e-7 {
                    assert!(hit, "{a:?}/{b:?}: {ab:?}");
                } else if ab.distance > 1e-7 {
                    assert!(!hit, "{a:?}/{b:?}: {ab:?}");
                }
                // Within a prediction (the outer balls' early reject among the paths).
                let predicted = contact(a, b, 0.25, &mut PairCache::default()).unwrap();
                if ab.distance < 0.25 - 1e-7 {
                    assert!(predicted.is_some(), "{a:?}/{b:?}: {ab:?}");
                } else if ab.distance > 0.25 + 1e-7 {
                    assert!(predicted.is_none(), "{a:?}/{b:?}: {ab:?} {predicted:?}");
                }
                let mut m = Manifold::default();
                manifold(a, b, 0.0, &mut PairCache::default(), &mut m).unwrap();
                if ab.distance < -1e-9 {
                    assert!(!m.is_empty() && m.deepest().unwrap().distance < 0.0, "{a:?}/{b:?}: {m:?}");
                } else if ab.distance > 1e-9 {
                    assert!(m.is_empty(), "{a:?}/{b:?}: {m:?}");
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 200 * 121);
}

#[test]
fn half_spaces_and_bad_input() {
    let floor = Plane::new(V3::z(), 0.0).unwrap();
    let ball = Ball::new(P3::new(0.0, 0.0, 0.3), 0.5).unwrap();
    let c = contact(Shape::HalfSpace(&floor), Shape::Ball(&ball), 0.0, &mut PairCache::default())
        .unwrap()
        .unwrap();
    assert!((c.distance + 0.2).abs() < 1e-15 && c.normal == V3::z());
    let m = contact(Shape::Ball(&ball), Shape::HalfSpace(&floor), 0.0, &mut PairCache::default())
        .unwrap()
        .unwrap();
    assert_eq!(m, c.flipped());
    assert_eq!(
        contact(Shape::HalfSpace(&floor), Shape::HalfSpace(&floor), 0.0, &mut PairCache::default()),
        Err(NarrowError::Unsupported { a: "half-space", b: "half-space" })
    );
    assert_eq!(
        contact(Shape::Ball(&ball), Shape::Ball(&ball), f64::NAN, &mut PairCache::default()),
        Err(NarrowError::InvalidPrediction)
    );
    let cube =
        Obb::from_rotation(P3::new(0.0, 0.0, 0.45), UnitQuaternion::identity(), V3::repeat(0.5)).unwrap();
    let mut m = Manifold::default();
    manifold(Shape::Box(&cube), Shape::HalfSpace(&floor), 0.0, &mut PairCache::default(), &mut m).unwrap();
    assert_eq!(m.len(), 4);
    assert!((m.normal + V3::z()).norm() < 1e-15);
}

#[test]
fn planar_shapes_in_both_orders() {
    let mut rng = Rng(2222);
    for _ in 0..500 {
        let c = |rng: &mut Rng| P2::from(rng.vector::<2>(-1.0, 1.0));
        let circle = Ball::new(c(&mut rng), rng.range(0.1, 0.7)).unwrap();
        let p0 = c(&mut rng);
        let capsule = Capsule::new(p0, p0 + rng.vector::<2>(-1.0, 1.0), rng.range(0.05, 0.4)).unwrap();
        let bx = Obb::<f64, 2>::from_angle(
            c(&mut rng),
            rng.range(0.0, 3.0),
            V2::new(rng.range(0.1, 0.8), rng.range(0.1, 0.8)),
        )
        .unwrap();
        let poly: Vec<P2> = {
            let k = c(&mut rng);
            let r = rng.range(0.2, 0.8);
            (0..6).map(|i| k + V2::new((i as f64).cos(), (i as f64).sin()) * r).collect()
        };
        let seg = Segment::new(c(&mut rng), c(&mut rng)).unwrap();
        let cloud = rng.blob::<2>(7, 1.0, 0.2, 0.7);
        let shapes = [
            Shape2::Circle(&circle),
            Shape2::Capsule(&capsule),
            Shape2::Box(&bx),
            Shape2::Polygon(&poly),
            Shape2::Segment(&seg),
            Shape2::Convex(&cloud, 0.05),
        ];
        for a in shapes {
            for b in shapes {
                let ab = distance_2d(a, b, &mut PairCache2::default()).unwrap();
                let ba = distance_2d(b, a, &mut PairCache2::default()).unwrap();
                assert!((ab.distance - ba.distance).abs() < 1e-7, "{a:?}/{b:?}: {ab:?} vs {ba:?}");
                assert!(
                    (ab.point_b - ab.point_a - ab.normal * ab.distance).norm() < 1e-7,
                    "{a:?}/{b:?}: {ab:?}"
                );
                let hit = intersects_2d(a, b, &mut PairCache2::default()).unwrap();
                if ab.distance < -1e-7 {
                    assert!(hit, "{a:?}/{b:?}");
                } else if ab.distance > 1e-7 {
                    assert!(!hit, "{a:?}/{b:?}");
                }
            }
        }
    }
}

#[test]
fn crossing_planar_capsules_need_the_full_translation() {
    // An X of two capsules (radius 0.1, half-length 1): un-crossing takes 1 + 0.1 + 0.1 = 1.2.
    let h = Capsule::new(P2::new(-1.0, 0.0), P2::new(1.0, 0.0), 0.1).unwrap();
    let v = Capsule::new(P2::new(0.0, -1.0), P2::new(0.0, 1.0), 0.1).unwrap();
    let c = contact_2d(Shape2::Capsule(&h), Shape2::Capsule(&v), 0.0, &mut PairCache2::default())
        .unwrap()
        .unwrap();
    assert!((c.depth() - 1.2).abs() < 1e-9, "{c:?}");
}

#[test]
fn touching_cores_give_a_consistent_contact_in_2d_and_3d() {
    // Segments sharing an end point, at angles of 30–150°, in many rotations: the cores touch
    // at that point and A − B is flat in 3D (two segments span a plane). EPA's
    // tolerance once came from GJK's terminal simplex, the origin alone, so rounding made the
    // flat difference look solid and the contact's points were the two midpoints.
    let mut rng = Rng(5);
    for _ in 0..400 {
        let q = UnitQuaternion::from_euler_angles(
            rng.range(-3.0, 3.0),
            rng.range(-1.5, 1.5),
            rng.range(-3.0, 3.0),
        );
        let start = P3::from(rng.vector::<3>(-2.0, 2.0));
        let seg = Segment::new(start, start + q * V3::new(0.8, 0.0, 0.0)).unwrap();
        let turn = UnitQuaternion::from_euler_angles(0.0, 0.0, rng.range(0.5, 2.6));
        let cap = Capsule::new(start, start + q * (turn * V3::new(-0.9, 0.0, 0.0)), 0.09).unwrap();
        for (a, b) in
            [(Shape::Segment(&seg), Shape::Capsule(&cap)), (Shape::Capsule(&cap), Shape::Segment(&seg))]
        {
            let c = contact(a, b, 0.05, &mut PairCache::default()).unwrap().unwrap();
            assert!((c.distance + 0.09).abs() < 1e-9, "{c:?}");
            assert!((c.point_b - c.point_a - c.normal * c.distance).norm() < 1e-9, "{c:?}");
            let core_point = if matches!(a, Shape::Segment(_)) { c.point_a } else { c.point_b };
            assert!((core_point - start).norm() < 1e-9, "{c:?}");
        }
    }
    // In 2D, segments sharing an end point, collinear (A − B a segment) or at an angle.
    for k in 0..400 {
        let angle = k as f64 * 0.1;
        let dir = nalgebra::Vector2::new(angle.cos(), angle.sin());
        let bend = if k % 2 == 0 { 0.0 } else { rng.range(0.5, 2.6) };
        let dir_b = nalgebra::Rotation2::new(bend) * dir;
        let start = nalgebra::Point2::new(0.03 * k as f64 - 7.0, 1.1);
        let a = Segment::new(start - dir * 0.7, start).unwrap();
        let b = Segment::new(start, start + dir_b * 1.3).unwrap();
        let c = contact_2d(Shape2::Segment(&a), Shape2::Segment(&b), 0.05, &mut PairCache2::default())
            .unwrap()
            .unwrap();
        assert!(c.distance.abs() < 1e-9, "{c:?}");
        assert!((c.point_a - start).norm() < 1e-9 && (c.point_b - start).norm() < 1e-9, "{c:?}");
    }
}

/// Raw shape data no constructor checked gets a typed error from every 2D query, not a panic
/// (an empty polygon indexed its first vertex) or a silently wrong answer (SAT reads its edge
/// normals off a counter-clockwise convex outline; a huge radius summed to an infinite depth).
#[test]
fn invalid_raw_shapes_are_typed_errors() {
    let disc = Ball::new(P2::new(0.0, 0.0), 1.0).unwrap();
    let square = [P2::new(0.0, 0.0), P2::new(1.0, 0.0), P2::new(1.0, 1.0), P2::new(0.0, 1.0)];
    let clockwise = [square[0], square[3], square[2], square[1]];
    let dart = [P2::new(0.0, 0.0), P2::new(2.0, 1.0), P2::new(0.0, 2.0), P2::new(1.0, 1.0)];
    // A pentagram: every turn the same way, but the outline goes round twice.
    let angle = |i: usize| i as f64 * 4.0 * std::f64::consts::PI / 5.0;
    let star: Vec<P2> = (0..5).map(|i| P2::new(angle(i).cos(), angle(i).sin())).collect();
    let nan = [P2::new(0.0, 0.0), P2::new(f64::NAN, 0.0), P2::new(0.0, 1.0)];
    let huge = [P2::new(0.0, 0.0), P2::new(1e300, 0.0), P2::new(0.0, 1.0)];
    let cloud = Segment::new(P2::new(0.0, 0.0), P2::new(1.0, 0.0)).unwrap();
    let bad: [(Shape2<'_, f64>, &str); 9] = [
        (Shape2::Polygon(&[]), "empty"),
        (Shape2::Polygon(&clockwise), "counter-clockwise"),
        (Shape2::Polygon(&dart), "convex"),
        (Shape2::Polygon(&star), "convex"),
        (Shape2::Polygon(&nan), "finite"),
        (Shape2::Polygon(&huge), "range"),
        (Shape2::Convex(&cloud, -1.0), "negative"),
        (Shape2::Convex(&cloud, f64::NAN), "finite"),
        (Shape2::Convex(&cloud, 1e308), "range"),
    ];
    for (shape, says) in bad {
        for (a, b) in [(shape, Shape2::Circle(&disc)), (Shape2::Circle(&disc), shape)] {
            let errors = [
                contact_2d(a, b, 0.1, &mut PairCache2::default()).err(),
                distance_2d(a, b, &mut PairCache2::default()).err(),
                intersects_2d(a, b, &mut PairCache2::default()).err(),
            ];
            for e in errors {
                match e {
                    Some(NarrowError::InvalidShape { reason }) => assert!(reason.contains(says), "{reason}"),
                    other => panic!("{a:?} / {b:?}: {other:?}"),
                }
            }
        }
    }
    // The same outlines the right way round, a point and a segment as polygons, and a
    // square with a collinear vertex on an edge are fine.
    let with_midpoint = [square[0], P2::new(0.5, 0.0), square[1], square[2], square[3]];
    let repeated = [square[0], square[1], square[1], square[2], square[3]];
    for ok in [&square[..], &square[..1], &square[..2], &with_midpoint[..], &repeated[..]] {
        assert!(distance_2d(Shape2::Polygon(ok), Shape2::Circle(&disc), &mut PairCache2::default()).is_ok());
    }
    // Through SAT against another polygon, overlapping and apart, the extra vertices change
    // nothing.
    for shift in [0.25, 1.5] {
        let other: Vec<P2> = square.iter().map(|q| q + V2::new(shift, 0.5)).collect();
        let plain =
            contact_2d(Shape2::Polygon(&square), Shape2::Polygon(&other), 1.0, &mut PairCache2::default());
        for outline in [&with_midpoint[..], &repeated[..]] {
            let c = contact_2d(
                Shape2::Polygon(outline),
                Shape2::Polygon(&other),
                1.0,
                &mut PairCache2::default(),
            );
            let (c, plain) = (c.unwrap().unwrap(), plain.unwrap().unwrap());
            assert!((c.distance - plain.distance).abs() < 1e-12, "{c:?} against {plain:?}");
            assert!((c.normal - plain.normal).norm() < 1e-12, "{c:?} against {plain:?}");
        }
    }
    // In 3D the user shape's radius is checked the same way.
    let ball = Ball::new(P3::new(0.0, 0.0, 0.0), 1.0).unwrap();
    let hull = Ball::new(P3::new(5.0, 0.0, 0.0), 0.0).unwrap();
    for r in [-1.0, f64::NAN, f64::INFINITY, 1e308] {
        let e = contact(Shape::Convex(&hull, r), Shape::Ball(&ball), 0.1, &mut PairCache::default());
        assert!(matches!(e, Err(NarrowError::InvalidShape { .. })), "radius {r}: {e:?}");
    }
}
