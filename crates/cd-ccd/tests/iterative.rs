//! The iterative continuous queries — the GJK shape cast, conservative advancement and the
//! separating-axis time of impact — against the sub-stepping oracle, including fast rotation.

mod common;

use cd_ccd::Toi;
use cd_ccd::*;
use cd_geom::{Obb, Point, Segment, SupportMap, Transformed, Vector};
use cd_narrow::{convex_contact, distance, ConvexConfig, GjkCache, PairCache, Shape};
use common::*;
use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

/// The convex hull of a point set by its support function (linear scan: obviously right).
#[derive(Clone, Debug)]
struct Cloud(Vec<P3>);

impl SupportMap<f64, 3> for Cloud {
    fn support(&self, d: &Vector<f64, 3>) -> Point<f64, 3> {
        *self.0.iter().max_by(|a, b| d.dot(&a.coords).total_cmp(&d.dot(&b.coords))).unwrap()
    }
}

/// A random core: a point (ball), a segment (capsule), a box or a point cloud, in world space.
enum Core {
    Point(P3),
    Segment(Segment<f64, 3>),
    Box(Obb<f64, 3>),
    Cloud(Cloud),
}

impl Core {
    fn random(rng: &mut Rng, spread: f64) -> Core {
        let center = rng.p3(-spread, spread);
        match (rng.next_f64() * 4.0) as usize {
            0 => Core::Point(center),
            1 => Core::Segment(Segment::new(center + rng.v3(-1.5, 1.5), center + rng.v3(-1.5, 1.5)).unwrap()),
            2 => Core::Box(Obb::new(center, rng.rotation(), rng.v3(0.1, 1.5)).unwrap()),
            _ => Core::Cloud(Cloud((0..12).map(|_| center + rng.v3(-1.2, 1.2)).collect())),
        }
    }
    fn center(&self) -> P3 {
        self.interior_point()
    }
}

impl SupportMap<f64, 3> for Core {
    fn support(&self, d: &V3) -> P3 {
        match self {
            Core::Point(p) => *p,
            Core::Segment(s) => s.support(d),
            Core::Box(b) => b.support(d),
            Core::Cloud(c) => c.support(d),
        }
    }
}

fn signed_distance<A: SupportMap<f64, 3>, B: SupportMap<f64, 3>>(a: &A, ra: f64, b: &B, rb: f64) -> f64 {
    convex_contact(a, ra, b, rb, &ConvexConfig::default(), &mut GjkCache::default()).distance
}

#[test]
fn shape_cast_matches_sampling() {
    let mut rng = Rng(11);
    let mut hits = 0;
    for case in 0..cases(1000) {
        let a = Core::random(&mut rng, 5.0);
        let b = Core::random(&mut rng, 5.0);
        let (ra, rb) = (rng.range(0.0, 0.6), rng.range(0.0, 0.6));
        let (ra, rb) = if case % 3 == 0 { (0.0, 0.0) } else { (ra, rb) };
        let va = rng.aim(&a.center(), &b.center(), 3.0);
        let vb = rng.v3(-2.0, 2.0);
        let m = LinearMotion::new(va + vb, vb, 1.0).unwrap();
        let toi = shape_cast(&a, ra, &b, rb, &m, &CastConfig::default());
        let dist = |t: f64| {
            let ta = Transformed::new(&a, Isometry3::from(Translation3::from(m.velocity_a() * t)));
            let tb = Transformed::new(&b, Isometry3::from(Translation3::from(m.velocity_b() * t)));
            signed_distance(&ta, ra, &tb, rb)
        };
        hits += check_against_sampling("shape_cast", case, toi, 1.0, dist, 1e-7, 2e-5, 500) as usize;
    }
    assert!(hits > 80, "too few hits ({hits})");
}

/// A box in its local frame and the world box at a pose.
fn world_box(local: &Obb<f64, 3>, pose: &Isometry3<f64>) -> Obb<f64, 3> {
    let axes = pose.rotation.to_rotation_matrix().into_inner() * local.axes();
    Obb::new(pose.transform_point(local.center()), axes, *local.half_extents()).unwrap()
}

fn random_spin(rng: &mut Rng, at: P3, toward: &P3, spin: f64) -> RigidMotion<f64> {
    let start = Isometry3::from_parts(
        Translation3::from(at.coords),
        UnitQuaternion::from_scaled_axis(rng.v3(-3.0, 3.0)),
    );
    let v = rng.aim(&at, toward, 2.0);
    RigidMotion::new(start, rng.p3(-0.3, 0.3), v, rng.v3(-spin, spin)).unwrap()
}

#[test]
fn advancement_and_separating_axis_toi_match_sampling_under_rotation() {
    let mut rng = Rng(12);
    let mut hits = 0;
    let (mut ca_caps, mut sa_caps) = (0, 0);
    for case in 0..cases(600) {
        let box_a = Obb::new(P3::origin(), nalgebra::Matrix3::identity(), rng.v3(0.05, 2.0)).unwrap();
        let box_b = Obb::new(P3::origin(), nalgebra::Matrix3::identity(), rng.v3(0.05, 2.0)).unwrap();
        let (pa, pb) = (rng.p3(-5.0, 5.0), rng.p3(-5.0, 5.0));
        let spin = if case % 4 == 0 { 0.0 } else { 12.0 };
        let ma = random_spin(&mut rng, pa, &pb, spin);
        let mb = random_spin(&mut rng, pb, &pb, spin * 0.5);
        let a = MovingShape::new(&box_a, 0.0, ma);
        let b = MovingShape::new(&box_b, 0.0, mb);
        let config = CastConfig::default();
        let ca = conservative_advancement(&a, &b, 1.0, &config);
        let sa = separating_axis_toi(&a, &b, 1.0, &config);
        let dist = |t: f64| {
            let wa = world_box(&box_a, &ma.pose_at(t));
            let wb = world_box(&box_b, &mb.pose_at(t));
            distance(Shape::Box(&wa), Shape::Box(&wb), &mut PairCache::default()).unwrap().distance
        };
        // Both converge linearly near a grazing contact and may, rarely, need more than the
        // default cap under fast rotation (the answer is then still safe, checked below).
        ca_caps += ca.is_some_and(|r| r.status == ToiStatus::IterationCap) as usize;
        sa_caps += sa.is_some_and(|r| r.status == ToiStatus::IterationCap) as usize;
        hits += check_against_sampling("conservative_advancement", case, ca, 1.0, dist, 1e-7, 2e-5, 1000)
            as usize;
        check_against_sampling("separating_axis_toi", case, sa, 1.0, dist, 1e-7, 2e-5, 1000);
        match (ca, sa) {
            (Some(x), Some(y)) => assert!(
                x.status == ToiStatus::IterationCap || (x.time - y.time).abs() < 1e-3,
                "case {case}: CA {} vs SA {}",
                x.time,
                y.time
            ),
            (None, None) => {}
            (x, y) => {
                // Only a graze within the tolerance may be seen by one and not the other.
                let t = x.or(y).unwrap().time;
                assert!(dist(t) > -1e-7, "case {case}: CA {x:?} vs SA {y:?}");
            }
        }
    }
    assert!(hits > 30, "too few hits ({hits})");
    assert!(ca_caps * 100 <= cases(600), "conservative advancement capped {ca_caps} times");
    assert!(sa_caps * 1000 <= cases(600), "separating-axis time of impact capped {sa_caps} times");
    eprintln!("{} cases: {hits} hits, iteration caps: CA {ca_caps}, SA {sa_caps}", cases(600));
}

#[test]
fn an_iteration_cap_still_returns_a_safe_time() {
    let mut rng = Rng(15);
    let mut capped = 0;
    for case in 0..cases(300) {
        let box_a = Obb::new(P3::origin(), nalgebra::Matrix3::identity(), rng.v3(0.05, 2.0)).unwrap();
        let box_b = Obb::new(P3::origin(), nalgebra::Matrix3::identity(), rng.v3(0.05, 2.0)).unwrap();
        let (pa, pb) = (rng.p3(-5.0, 5.0), rng.p3(-5.0, 5.0));
        let ma = random_spin(&mut rng, pa, &pb, 12.0);
        let mb = random_spin(&mut rng, pb, &pb, 6.0);
        let (a, b) = (MovingShape::new(&box_a, 0.0, ma), MovingShape::new(&box_b, 0.0, mb));
        let tight = CastConfig { max_iterations: 3, ..CastConfig::default() };
        let dist = |t: f64| {
            let wa = world_box(&box_a, &ma.pose_at(t));
            let wb = world_box(&box_b, &mb.pose_at(t));
            distance(Shape::Box(&wa), Shape::Box(&wb), &mut PairCache::default()).unwrap().distance
        };
        for r in [conservative_advancement(&a, &b, 1.0, &tight), separating_axis_toi(&a, &b, 1.0, &tight)] {
            capped += r.is_some_and(|r| r.status == ToiStatus::IterationCap) as usize;
            check_against_sampling("capped advancement", case, r, 1.0, dist, 1e-7, 2e-5, 1000);
        }
    }
    assert!(capped > 20, "{capped}");
}

// ---- scenarios of the issue: nothing tunnels ----

#[test]
fn tiny_fast_sphere_does_not_pass_through_a_thin_box_or_a_triangle() {
    // A 1 cm sphere at 10 km per unit time against a 1 mm plate 500 m away.
    let plate = Obb::<f64, 3>::new(
        Point3::new(500.0, 0.0, 0.0),
        nalgebra::Matrix3::identity(),
        Vector3::new(0.0005, 1.0, 1.0),
    )
    .unwrap();
    let m = LinearMotion::of_a(Vector3::new(1.0e4, 0.0, 0.0), 1.0).unwrap();
    let hit = shape_cast(&Point3::origin(), 0.01, &plate, 0.0, &m, &CastConfig::default()).unwrap();
    let expected = (500.0 - 0.0005 - 0.01) / 1.0e4;
    assert!((hit.time - expected).abs() < 1e-12, "{} vs {expected}", hit.time);
    assert!(hit.time <= expected);
    // The discrete test at the step's ends sees nothing: before, and 9.5 km past the plate.
    assert!(!cd_geom::ball_obb(&cd_geom::Ball::new(Point3::new(1.0e4, 0.0, 0.0), 0.01).unwrap(), &plate));

    let ball = cd_geom::Ball::new(Point3::origin(), 0.01).unwrap();
    let tri = cd_geom::Triangle::new(
        Point3::new(500.0, -1.0, -1.0),
        Point3::new(500.0, 1.0, -1.0),
        Point3::new(500.0, 0.0, 1.0),
    )
    .unwrap();
    let hit = sphere_triangle(&ball, &tri, &m).unwrap();
    assert!((hit.time - (500.0 - 0.01) / 1.0e4).abs() < 1e-15);
    let point = Point3::origin();
    let moving = MovingShape::new(
        &point,
        0.01,
        RigidMotion::translating(Isometry3::identity(), Vector3::new(1.0e4, 0.0, 0.0)).unwrap(),
    );
    let wall = MovingShape::new(&plate, 0.0, RigidMotion::fixed(Isometry3::identity()).unwrap());
    for hit in [
        conservative_advancement(&moving, &wall, 1.0, &CastConfig::default()),
        separating_axis_toi(&moving, &wall, 1.0, &CastConfig::default()),
    ] {
        let hit = hit.unwrap();
        assert!(hit.time <= expected && expected - hit.time < 1e-9, "{}", hit.time);
    }
}

#[test]
fn a_long_bar_spinning_fast_does_not_pass_through_a_post() {
    // A 10 m bar spinning at 100 rad per unit time (16 turns in the step) about its centre and
    // a post 3 m away: the bar's end sweeps the post in the first quarter turn. At the step's
    // ends the bar is clear of the post, so a discrete test misses it.
    let bar =
        Obb::new(Point3::origin(), nalgebra::Matrix3::identity(), Vector3::new(5.0, 0.05, 0.05)).unwrap();
    let post =
        Obb::new(Point3::origin(), nalgebra::Matrix3::identity(), Vector3::new(0.05, 0.05, 1.0)).unwrap();
    let omega = 100.0;
    let spin = RigidMotion::new(
        Isometry3::identity(),
        Point3::origin(),
        Vector3::zeros(),
        Vector3::new(0.0, 0.0, omega),
    )
    .unwrap();
    let post_pose = Isometry3::translation(0.0, 3.0, 0.0);
    let still = RigidMotion::fixed(post_pose).unwrap();
    let wb = world_box(&post, &post_pose);
    let at = |t: f64| world_box(&bar, &spin.pose_at(t));
    assert!(
        !cd_geom::obb_obb(&at(0.0), &wb) && !cd_geom::obb_obb(&at(1.0), &wb),
        "the discrete test must miss"
    );
    // Exact first contact: the bar's leading edge (y = +0.05 in its frame) meets the post's
    // near corner (0.05, 2.95) when it has turned by θ with sin(φ − θ) = 0.05/ρ.
    let rho = (0.05f64 * 0.05 + 2.95 * 2.95).sqrt();
    let phi = 2.95f64.atan2(0.05);
    let expected = (phi - (0.05 / rho).asin()) / omega;
    let a = MovingShape::new(&bar, 0.0, spin);
    let b = MovingShape::new(&post, 0.0, still);
    for (name, hit) in [
        ("CA", conservative_advancement(&a, &b, 1.0, &CastConfig::default())),
        ("SA", separating_axis_toi(&a, &b, 1.0, &CastConfig::default())),
    ] {
        let hit = hit.unwrap_or_else(|| panic!("{name} tunnelled"));
        assert_eq!(hit.status, ToiStatus::Converged);
        assert!(
            hit.time <= expected + 1e-12 && expected - hit.time < 1e-8,
            "{name}: {} vs {expected}",
            hit.time
        );
    }
}

#[test]
fn two_fast_bodies_crossing_each_other_collide() {
    // Two spheres swapping places in one step, 1,000 units apart at 2,000 units per unit time
    // each: they meet in the middle at t = (1000 − 2)/4000.
    let a = cd_geom::Ball::<f64, 3>::new(Point3::new(-500.0, 0.0, 0.0), 1.0).unwrap();
    let b = cd_geom::Ball::new(Point3::new(500.0, 0.0, 0.0), 1.0).unwrap();
    let m = LinearMotion::new(Vector3::new(2000.0, 0.0, 0.0), Vector3::new(-2000.0, 0.0, 0.0), 1.0).unwrap();
    let hit = sphere_sphere(&a, &b, &m).unwrap();
    assert!((hit.time - 998.0 / 4000.0).abs() < 1e-15);
    assert!((hit.point_a - Point3::new(0.0, 0.0, 0.0)).norm() < 1e-9, "{:?}", hit.point_a);
    // Two thin plates, one rotating, crossing each other.
    let plate =
        Obb::<f64, 3>::new(Point3::origin(), nalgebra::Matrix3::identity(), Vector3::new(0.01, 1.0, 1.0))
            .unwrap();
    let ma = RigidMotion::new(
        Isometry3::translation(-50.0, 0.0, 0.0),
        Point3::origin(),
        Vector3::new(100.0, 0.0, 0.0),
        Vector3::new(0.0, 30.0, 0.0),
    )
    .unwrap();
    let mb = RigidMotion::translating(Isometry3::translation(50.0, 0.0, 0.0), Vector3::new(-100.0, 0.0, 0.0))
        .unwrap();
    let (sa, sb) = (MovingShape::new(&plate, 0.0, ma), MovingShape::new(&plate, 0.0, mb));
    let ca = conservative_advancement(&sa, &sb, 1.0, &CastConfig::default()).unwrap();
    let sep = separating_axis_toi(&sa, &sb, 1.0, &CastConfig::default()).unwrap();
    assert!((ca.time - sep.time).abs() < 1e-7, "{} vs {}", ca.time, sep.time);
    assert!(ca.time < 0.5 && ca.time > 0.48, "{}", ca.time);
    let wa = world_box(&plate, &ma.pose_at(ca.time));
    let wb = world_box(&plate, &mb.pose_at(ca.time));
    let d = distance(Shape::Box(&wa), Shape::Box(&wb), &mut PairCache::default()).unwrap().distance;
    assert!(d.abs() < 2e-5, "{d}");
}

// ---- documented answers ----

#[test]
fn start_in_contact_parallel_zero_velocity_and_grazing() {
    let a = cd_geom::Ball::<f64, 3>::new(Point3::new(0.0, 0.0, 0.0), 1.0).unwrap();
    let b = cd_geom::Ball::new(Point3::new(1.5, 0.0, 0.0), 1.0).unwrap();
    // Started in contact: time 0, status says so, whatever the motion (even moving apart).
    let apart = LinearMotion::of_a(Vector3::new(-5.0, 0.0, 0.0), 1.0).unwrap();
    let hit = sphere_sphere(&a, &b, &apart).unwrap();
    assert_eq!((hit.time, hit.status), (0.0, ToiStatus::StartedInContact));
    let hit = shape_cast(a.center(), 1.0, b.center(), 1.0, &apart, &CastConfig::default()).unwrap();
    assert_eq!((hit.time, hit.status), (0.0, ToiStatus::StartedInContact));
    // Zero relative velocity: no contact unless already touching.
    let still = LinearMotion::new(Vector3::new(3.0, 1.0, 0.0), Vector3::new(3.0, 1.0, 0.0), 1.0).unwrap();
    let far = cd_geom::Ball::new(Point3::new(5.0, 0.0, 0.0), 1.0).unwrap();
    assert!(sphere_sphere(&a, &far, &still).is_none());
    assert!(shape_cast(a.center(), 1.0, far.center(), 1.0, &still, &CastConfig::default()).is_none());
    // Parallel motion: a sphere sliding along a plane at a constant height never touches it;
    // a box sliding along another box's face at a gap does not either.
    let plane = cd_geom::Plane::new(Vector3::y(), 0.0).unwrap();
    let hover = cd_geom::Ball::new(Point3::new(0.0, 1.5, 0.0), 1.0).unwrap();
    let slide = LinearMotion::of_a(Vector3::new(100.0, 0.0, 0.0), 1.0).unwrap();
    assert!(sphere_plane(&hover, &plane, &slide).is_none());
    let floor =
        Obb::new(Point3::new(0.0, -1.0, 0.0), nalgebra::Matrix3::identity(), Vector3::new(50.0, 1.0, 50.0))
            .unwrap();
    let cube =
        Obb::new(Point3::new(0.0, 0.6, 0.0), nalgebra::Matrix3::identity(), Vector3::new(0.5, 0.5, 0.5))
            .unwrap();
    assert!(obb_obb(&cube, &floor, &slide).is_none());
    // Grazing: a path whose closest approach equals the radii sum exactly counts as a hit
    // (touching is contact), at the time of closest approach.
    let graze = LinearMotion::of_a(Vector3::new(10.0, 0.0, 0.0), 1.0).unwrap();
    let left = cd_geom::Ball::new(Point3::new(-5.0, 2.0, 0.0), 1.0).unwrap();
    let hit = sphere_sphere(&left, &a, &graze).unwrap();
    assert!((hit.time - 0.5).abs() < 1e-7, "{}", hit.time);
    // A sphere resting exactly on a plane is in contact at time 0.
    let resting = cd_geom::Ball::new(Point3::new(0.0, 1.0, 0.0), 1.0).unwrap();
    assert_eq!(sphere_halfspace(&resting, &plane, &slide).unwrap().status, ToiStatus::StartedInContact);
}

#[test]
fn f32_answers_are_valid_in_f64() {
    let mut rng = Rng(13);
    let mut compared = 0;
    for _ in 0..cases(600) {
        let (ca, cb) = (rng.p3(-5.0, 5.0), rng.p3(-5.0, 5.0));
        let (ha, hb) = (rng.v3(0.2, 1.5), rng.v3(0.2, 1.5));
        let (ra, rb) = (rng.rotation(), rng.rotation());
        let v = rng.aim(&ca, &cb, 2.0);
        let a64 = Obb::new(ca, ra, ha).unwrap();
        let b64 = Obb::new(cb, rb, hb).unwrap();
        let m64 = LinearMotion::of_a(v, 1.0).unwrap();
        let a32 = Obb::new(ca.cast::<f32>(), ra.cast::<f32>(), ha.cast::<f32>()).unwrap();
        let b32 = Obb::new(cb.cast::<f32>(), rb.cast::<f32>(), hb.cast::<f32>()).unwrap();
        let m32 = LinearMotion::of_a(v.cast::<f32>(), 1.0).unwrap();
        let sat = (obb_obb(&a64, &b64, &m64), obb_obb(&a32, &b32, &m32));
        let cast = (
            shape_cast(&a64, 0.0, &b64, 0.0, &m64, &CastConfig::default()),
            shape_cast(&a32, 0.0, &b32, 0.0, &m32, &CastConfig::default()),
        );
        // The f32 cast converges too (a grazing f32 cast once stalled on the same face until the
        // iteration cap; it now falls back to a conservative step).
        assert!(cast.1.is_none_or(|h| h.status != ToiStatus::IterationCap), "{:?}", cast.1);
        // At the f32 time the exact (f64) boxes touch to within f32's tolerance. (Times alone
        // differ more on grazing paths, where a tiny distance takes a long time to close; and
        // the f32 boxes are the f64 ones rounded, a slightly different problem, so the f32 time
        // may even be a rounding later.)
        let distance_at = |t: f64| {
            let moved = Obb::new(ca + v * t, ra, ha).unwrap();
            distance(Shape::Box(&moved), Shape::Box(&b64), &mut PairCache::default()).unwrap().distance
        };
        for (x, y) in [sat, cast] {
            if let (Some(_), Some(y)) = (x, y) {
                let t32 = y.time as f64;
                let d = distance_at(t32);
                match y.status {
                    ToiStatus::StartedInContact => assert!(d < 2e-4, "started in contact at distance {d}"),
                    _ => assert!(d.abs() < 2e-4, "f32 time {t32}: f64 distance {d}"),
                }
                compared += 1;
            }
        }
    }
    assert!(compared > 100, "{compared}");
}

#[test]
fn bad_motions_are_typed_errors() {
    use cd_geom::GeomError;
    let nan = Vector3::new(f64::NAN, 0.0, 0.0);
    assert_eq!(LinearMotion::of_a(nan, 1.0).unwrap_err(), GeomError::NonFinite);
    assert_eq!(LinearMotion::of_a(Vector3::x(), -1.0).unwrap_err(), GeomError::Negative);
    assert_eq!(LinearMotion::of_a(Vector3::x(), f64::INFINITY).unwrap_err(), GeomError::NonFinite);
    assert_eq!(LinearMotion::of_a(Vector3::x() * 1e70, 1e10).unwrap_err(), GeomError::OutOfRange);
    assert_eq!(
        RigidMotion::new(Isometry3::identity(), Point3::origin(), Vector3::zeros(), nan).unwrap_err(),
        GeomError::NonFinite
    );
}

#[test]
fn swept_boxes_enclose_the_whole_motion() {
    let mut rng = Rng(14);
    for _ in 0..100 {
        let local = Obb::new(rng.p3(-0.5, 0.5), rng.rotation(), rng.v3(0.1, 2.0)).unwrap();
        let start = Isometry3::from_parts(
            Translation3::from(rng.v3(-5.0, 5.0)),
            UnitQuaternion::from_scaled_axis(rng.v3(-3.0, 3.0)),
        );
        let spin = if rng.next_f64() < 0.3 { Vector3::zeros() } else { rng.v3(-20.0, 20.0) };
        let m = RigidMotion::new(start, rng.p3(-0.5, 0.5), rng.v3(-10.0, 10.0), spin).unwrap();
        let swept = swept_aabb(&local, 0.25, &m, 1.0).unwrap();
        for i in 0..=200 {
            let pose = m.pose_at(i as f64 / 200.0);
            for corner in 0..8 {
                let c = local.half_extents().zip_map(&Vector3::new(1.0, 2.0, 4.0), |h, bit| {
                    if corner & bit as usize != 0 {
                        h
                    } else {
                        -h
                    }
                });
                let p = pose.transform_point(&local.to_world(&Point3::from(c)));
                for k in 0..3 {
                    assert!(p[k] - 0.25 >= swept.min()[k] - 1e-9 && p[k] + 0.25 <= swept.max()[k] + 1e-9);
                }
            }
        }
    }
}

#[test]
fn advancement_in_f32_matches_f64_sampling() {
    // Capsules in f32 (segment cores and radii), rotating, checked against f64 sampling: the
    // single-precision rate bounds and root search must not skip a contact either.
    let mut rng = Rng(16);
    let seg = |h: f64| Segment::new(P3::new(0.0, -h, 0.0), P3::new(0.0, h, 0.0)).unwrap();
    let (core64, r) = (seg(0.5), 0.25);
    let core32 = Segment::new(Point3::new(0.0f32, -0.5, 0.0), Point3::new(0.0, 0.5, 0.0)).unwrap();
    for case in 0..cases(600) {
        let (pa, pb) = (rng.p3(-0.5, 0.5), rng.p3(-4.0, 4.0));
        let ma = random_spin(&mut rng, pa, &pb, 1.7);
        let mb = random_spin(&mut rng, pb, &pb, 1.7);
        let to32 = |m: &RigidMotion<f64>| {
            RigidMotion::new(
                m.start().cast::<f32>(),
                m.local_center().cast(),
                m.linear_velocity().cast(),
                m.angular_velocity().cast(),
            )
            .unwrap()
        };
        let (a32, b32) =
            (MovingShape::new(&core32, r as f32, to32(&ma)), MovingShape::new(&core32, r as f32, to32(&mb)));
        let dist = |t: f64| {
            let ta = Transformed::new(&core64, ma.pose_at(t));
            let tb = Transformed::new(&core64, mb.pose_at(t));
            signed_distance(&ta, r, &tb, r)
        };
        let widen = |h: Option<Toi<f32, 3>>| {
            h.map(|h| Toi {
                time: h.time as f64,
                point_a: h.point_a.cast(),
                point_b: h.point_b.cast(),
                normal: h.normal.cast(),
                status: h.status,
            })
        };
        let config = CastConfig::default();
        for (name, hit) in [
            ("f32 advancement", conservative_advancement(&a32, &b32, 1.0, &config)),
            ("f32 separating axis", separating_axis_toi(&a32, &b32, 1.0, &config)),
        ] {
            check_against_sampling(name, case, widen(hit), 1.0, dist, 1e-4, 1e-3, 1000);
        }
    }
}
