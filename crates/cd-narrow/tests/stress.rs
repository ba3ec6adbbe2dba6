//! A million random shape pairs (mixed primitives, degenerate hulls, scales from 1e-3 to 1e3,
//! coordinates up to 1e4, f64 and f32) through GJK + EPA: no panic, no NaN, no hang, every
//! status accounted for, the boolean test consistent with the contact.
//!
//! `NARROW_STRESS_PAIRS` overrides the pair count (default 1,000,000); `SHOW_CAPS=1` prints
//! the pairs that hit an iteration cap.

mod common;

use cd_geom::*;
use cd_narrow::*;
use common::Rng;
use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

/// A core shape and its radius.
enum Shape {
    Point(Point3<f64>),
    Segment(Segment<f64, 3>),
    Triangle(Triangle<f64, 3>),
    Box(Obb<f64, 3>),
    Cylinder(Cylinder<f64>),
    Cloud(Vec<Point3<f64>>),
}

impl SupportMap<f64, 3> for Shape {
    fn support(&self, d: &Vector3<f64>) -> Point3<f64> {
        match self {
            Shape::Point(p) => *p,
            Shape::Segment(s) => s.support(d),
            Shape::Triangle(t) => t.support(d),
            Shape::Box(b) => b.support(d),
            Shape::Cylinder(c) => c.support(d),
            Shape::Cloud(c) => common::Cloud(c.clone()).support(d),
        }
    }
}

fn random_shape(rng: &mut Rng) -> (Shape, f64, f64) {
    let scale = 10f64.powf(rng.range(-3.0, 3.0));
    let far = if rng.next_f64() < 0.05 { 1e4 } else { 0.0 };
    let centre = Point3::from(rng.vector::<3>(-2.0, 2.0) * scale + Vector3::repeat(far));
    let pose = Isometry3::from_parts(
        Translation3::from(centre.coords),
        UnitQuaternion::from_euler_angles(rng.range(-3.0, 3.0), rng.range(-1.5, 1.5), rng.range(-3.0, 3.0)),
    );
    let pt = |rng: &mut Rng| pose * Point3::from(rng.vector::<3>(-1.0, 1.0) * scale);
    let radius = if rng.next_f64() < 0.4 { rng.range(0.0, 1.0) * scale } else { 0.0 };
    let kind = (rng.next_f64() * 7.0) as usize;
    let shape = match kind {
        0 => Shape::Point(pt(rng)),
        1 => Shape::Segment(Segment::new(pt(rng), pt(rng)).unwrap()),
        2 => Shape::Triangle(Triangle::new(pt(rng), pt(rng), pt(rng)).unwrap()),
        3 => {
            Shape::Box(Obb::from_rotation(centre, pose.rotation, rng.vector::<3>(0.0, 1.0) * scale).unwrap())
        }
        4 => Shape::Cylinder(Cylinder::new(pt(rng), pt(rng), rng.range(0.0, 1.0) * scale).unwrap()),
        5 => {
            // A flat cloud (all points in one plane through the centre) or a collinear one.
            let u = pose.rotation * Vector3::x();
            let v = pose.rotation * Vector3::y();
            let flat = rng.next_f64() < 0.5;
            let n = 3 + (rng.next_f64() * 8.0) as usize;
            Shape::Cloud(
                (0..n)
                    .map(|_| {
                        let s = rng.range(-1.0, 1.0) * scale;
                        let t = if flat { rng.range(-1.0, 1.0) * scale } else { 0.0 };
                        centre + u * s + v * t
                    })
                    .collect(),
            )
        }
        _ => {
            let n = 4 + (rng.next_f64() * 12.0) as usize;
            let mut pts: Vec<_> = (0..n).map(|_| pt(rng)).collect();
            // Duplicate points now and then.
            if rng.next_f64() < 0.3 {
                pts.push(pts[0]);
            }
            Shape::Cloud(pts)
        }
    };
    (shape, radius, scale)
}

fn describe(s: &Shape) -> String {
    match s {
        Shape::Point(p) => format!("point {p:?}"),
        Shape::Segment(x) => format!("{x:?}"),
        Shape::Triangle(x) => format!("{x:?}"),
        Shape::Box(x) => format!("{x:?}"),
        Shape::Cylinder(x) => format!("{x:?}"),
        Shape::Cloud(x) => format!("cloud {x:?}"),
    }
}

#[test]
fn a_million_random_pairs() {
    let pairs: usize =
        std::env::var("NARROW_STRESS_PAIRS").ok().and_then(|s| s.parse().ok()).unwrap_or(1_000_000);
    let mut rng = Rng(0xdead_beef_1234_5678);
    let config = ConvexConfig::default();
    let mut statuses = [0usize; 3];
    for i in 0..pairs {
        let (a, ra, sa) = random_shape(&mut rng);
        let (b, rb, sb) = random_shape(&mut rng);
        let c = convex_contact(&a, ra, &b, rb, &config, &mut GjkCache::default());
        let scale = sa.max(sb);
        assert!(c.distance.is_finite() && c.normal.iter().all(|x| x.is_finite()), "pair {i}: {c:?}");
        assert!(c.point_a.iter().chain(c.point_b.iter()).all(|x| x.is_finite()), "pair {i}: {c:?}");
        assert!((c.normal.norm() - 1.0).abs() < 1e-6, "pair {i}: normal {c:?}");
        statuses[c.status as usize] += 1;
        if c.status == ContactStatus::IterationCap && std::env::var("SHOW_CAPS").is_ok() {
            let g = gjk_distance(&a, &b, &config.gjk, &mut GjkCache::default());
            eprintln!(
                "cap: gjk {:?} {} | {} | {}",
                g.status,
                g.iterations,
                &describe(&a)[..20],
                &describe(&b)[..20]
            );
        }
        // The boolean test agrees with the sign of the distance, up to the tolerances.
        let tol = 1e-6 * (scale + c.point_a.coords.amax());
        match convex_intersects(&a, ra, &b, rb, &config.gjk, &mut GjkCache::default()) {
            Intersection::Separated { axis } => {
                if c.distance <= -tol {
                    let g = gjk_distance(&a, &b, &config.gjk, &mut GjkCache::default());
                    let n = axis.normalize();
                    eprintln!(
                        "axis {n:?} ha {} hb {} radii {ra} {rb}",
                        n.dot(&a.support(&n).coords),
                        n.dot(&b.support(&-n).coords)
                    );
                    eprintln!("gjk {g:?}");
                    eprintln!("{:?}", describe(&a));
                    eprintln!("{:?}", describe(&b));
                }
                assert!(c.distance > -tol, "pair {i}: {c:?}")
            }
            Intersection::Intersecting => assert!(c.distance < tol, "pair {i}: {c:?}"),
            Intersection::Undecided { lower_bound, upper_bound } => {
                assert!(lower_bound <= upper_bound, "pair {i}");
            }
        }
    }
    eprintln!("statuses (converged, cap, degenerate): {statuses:?}");
    assert_eq!(statuses.iter().sum::<usize>(), pairs);
    // Caps are legitimate on curved shapes but must stay rare.
    assert!(statuses[1] * 10_000 <= pairs, "too many iteration caps: {statuses:?}");
}

#[test]
fn f32_agrees_with_f64() {
    let mut rng = Rng(31337);
    let config32 = ConvexConfig::<f32>::default();
    for _ in 0..20_000 {
        let a: Vec<Point3<f64>> = (0..8).map(|_| Point3::from(rng.vector::<3>(-1.0, 1.0))).collect();
        let off = rng.vector::<3>(-2.0, 2.0);
        let b: Vec<Point3<f64>> = (0..8).map(|_| Point3::from(rng.vector::<3>(-1.0, 1.0) + off)).collect();
        let a32 = common_f32(&a);
        let b32 = common_f32(&b);
        let c64 = convex_contact(
            &common::Cloud(a),
            0.0,
            &common::Cloud(b),
            0.0,
            &ConvexConfig::default(),
            &mut GjkCache::default(),
        );
        let c32 = convex_contact(&Cloud32(a32), 0.0, &Cloud32(b32), 0.0, &config32, &mut GjkCache::default());
        assert!((c64.distance - c32.distance as f64).abs() < 1e-4, "{c64:?} {c32:?}");
    }
}

struct Cloud32(Vec<Point3<f32>>);

impl SupportMap<f32, 3> for Cloud32 {
    fn support(&self, d: &Vector3<f32>) -> Point3<f32> {
        *self.0.iter().max_by(|p, q| d.dot(&p.coords).total_cmp(&d.dot(&q.coords))).unwrap()
    }
}

fn common_f32(p: &[Point3<f64>]) -> Vec<Point3<f32>> {
    p.iter().map(|x| x.cast::<f32>()).collect()
}
