//! Oriented bounding boxes: containment, orthonormal right-handed axes, the reference box is
//! the tightest, DiTO against PCA on rotations of the bunny, exact 2D rectangles, degenerate
//! input.

mod common;

use cd_bv::*;
use cd_geom::{BoundingVolume, GeomError, Obb};
use common::*;
use nalgebra::{Point2, Point3, UnitQuaternion, Vector3};
use proptest::prelude::*;

type Builder = fn(&[Point3<f64>]) -> Result<Obb<f64, 3>, GeomError>;

fn builders() -> Vec<(&'static str, Builder)> {
    vec![
        ("pca", obb_pca::<f64, 3>),
        ("pca-hull", obb_pca_hull::<f64, 3>),
        ("pca-hull-area", obb_pca_hull_area::<f64>),
        ("dito14", obb_dito14::<f64>),
        ("dito26", obb_dito26::<f64>),
        ("reference-volume", |p| obb_reference(p, ObbMetric::Volume)),
        ("reference-area", |p| obb_reference(p, ObbMetric::SurfaceArea)),
    ]
}

fn check_axes(o: &Obb<f64, 3>) {
    let a = o.axes();
    assert!((a.transpose() * a - nalgebra::Matrix3::identity()).amax() < 1e-12, "axes not orthonormal");
    assert!(a.determinant() > 0.0, "axes not right-handed");
}

fn cloud() -> impl Strategy<Value = Vec<Point3<f64>>> {
    proptest::collection::vec(
        (-10.0..10.0f64, -3.0..3.0f64, -1.0..1.0f64).prop_map(|(x, y, z)| Point3::new(x, y, z)),
        1..60,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_method_contains_every_point(pts in cloud(), q in (-3.0..3.0f64, -1.5..1.5f64, -3.0..3.0f64)) {
        let rot = UnitQuaternion::from_euler_angles(q.0, q.1, q.2);
        let pts: Vec<Point3<f64>> = pts.iter().map(|p| rot * p).collect();
        for (name, f) in builders() {
            let o = f(&pts).unwrap();
            check_axes(&o);
            prop_assert!(pts.iter().all(|p| o.contains_point(p)), "{} misses a point", name);
        }
        // The reference boxes are the tightest in their own metric (2% slack: not exact).
        let rv = obb_reference(&pts, ObbMetric::Volume).unwrap().volume();
        let ra = obb_reference(&pts, ObbMetric::SurfaceArea).unwrap().surface_area();
        for (name, f) in builders() {
            let o = f(&pts).unwrap();
            prop_assert!(o.volume() >= rv * (1.0 - 1e-9) - 1e-9, "{} volume {} below reference {}", name, o.volume(), rv);
            prop_assert!(o.surface_area() >= ra * (1.0 - 1e-9) - 1e-9, "{} area {} below reference {}", name, o.surface_area(), ra);
        }
    }

    /// 2D: the calipers rectangle is the exact minimum over all hull-edge orientations (brute
    /// force) and over 3600 sampled angles, and contains every point.
    #[test]
    fn min_area_rectangle_is_exact(pts in proptest::collection::vec((-10.0..10.0f64, -4.0..4.0f64).prop_map(|(x, y)| Point2::new(x, y)), 3..50)) {
        let r = obb_min_area_2d(&pts, ObbMetric::Volume).unwrap();
        prop_assert!(pts.iter().all(|p| r.contains_point(p)));
        let area = |u: nalgebra::Vector2<f64>| {
            let v = nalgebra::Vector2::new(-u.y, u.x);
            let ext = |d: &nalgebra::Vector2<f64>| {
                let (lo, hi) = pts.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| (l.min(d.dot(&p.coords)), h.max(d.dot(&p.coords))));
                hi - lo
            };
            ext(&u) * ext(&v)
        };
        let hull = convex_hull_2d(&pts).unwrap();
        let brute = (0..hull.len()).map(|i| area((hull[(i + 1) % hull.len()] - hull[i]).normalize())).fold(f64::INFINITY, f64::min);
        let got = r.volume();
        prop_assert!((got - brute).abs() <= 1e-7 * brute.max(1.0), "calipers {} brute {}", got, brute);
        let sampled = (0..3600).map(|k| { let a = k as f64 * std::f64::consts::PI / 3600.0; area(nalgebra::Vector2::new(a.cos(), a.sin())) }).fold(f64::INFINITY, f64::min);
        prop_assert!(got <= sampled + 1e-7 * sampled.max(1.0));
        let pca = obb_pca(&pts).unwrap();
        prop_assert!(pts.iter().all(|p| pca.contains_point(p)));
        prop_assert!(pca.volume() >= got * (1.0 - 1e-9));
        let ph = obb_pca_hull(&pts).unwrap();
        prop_assert!(pts.iter().all(|p| ph.contains_point(p)));
    }
}

/// Bunny under 50 rotations: every method contains it; report how often DiTO beats PCA in
/// surface area (the issue asks for "most rotations").
#[test]
fn bunny_rotations() {
    let bunny = obj_vertices(BUNNY);
    let mut dito_wins = 0;
    let rotations = 50;
    for k in 0..rotations {
        let a = k as f64;
        let rot = UnitQuaternion::from_euler_angles(a * 0.37, a * 0.61, a * 0.23);
        let pts: Vec<Point3<f64>> = bunny.iter().map(|p| rot * p).collect();
        let reference = obb_reference(&pts, ObbMetric::SurfaceArea).unwrap().surface_area();
        let pca = obb_pca(&pts).unwrap();
        let dito = obb_dito14(&pts).unwrap();
        for o in [&pca, &dito] {
            check_axes(o);
            assert!(pts.iter().all(|p| o.contains_point(p)));
            assert!(o.surface_area() >= reference * (1.0 - 1e-9));
        }
        if dito.surface_area() <= pca.surface_area() {
            dito_wins += 1;
        }
    }
    eprintln!("DiTO-14 area <= PCA area on {dito_wins}/{rotations} rotations of the bunny");
    assert!(dito_wins * 2 > rotations, "DiTO won only {dito_wins} of {rotations}");
}

#[test]
fn degenerate_inputs() {
    let p = |x: f64, y: f64, z: f64| Point3::new(x, y, z);
    let sets: Vec<Vec<Point3<f64>>> = vec![
        vec![p(1.0, 2.0, 3.0)],
        vec![p(0.0, 0.0, 0.0), p(1.0, 1.0, 1.0)],
        (0..10).map(|i| p(i as f64, 2.0 * i as f64, -(i as f64))).collect(),
        (0..25).map(|i| p((i % 5) as f64, (i / 5) as f64, (i % 5) as f64 + (i / 5) as f64)).collect(),
        vec![p(5.0, 5.0, 5.0); 20],
    ];
    for pts in &sets {
        for (name, f) in builders() {
            let o = f(pts).unwrap_or_else(|e| panic!("{name} failed on {} points: {e}", pts.len()));
            check_axes(&o);
            assert!(pts.iter().all(|q| o.contains_point(q)), "{name}");
        }
    }
    let nan = [p(0.0, f64::NAN, 0.0)];
    for (_, f) in builders() {
        assert_eq!(f(&nan).err(), Some(GeomError::NonFinite));
        assert_eq!(f(&[]).err(), Some(GeomError::TooFewPoints));
    }
    // A box-shaped cloud rotated: every method should find (nearly) the box itself.
    let rot = UnitQuaternion::from_euler_angles(0.3, 0.5, 0.7);
    let mut cube = Vec::new();
    for i in 0..=4 {
        for j in 0..=4 {
            for k in 0..=4 {
                cube.push(rot * p(i as f64 * 2.0, j as f64, k as f64 * 0.5));
            }
        }
    }
    // The reference finds the box itself; the fast methods contain it.
    let v = obb_reference(&cube, ObbMetric::Volume).unwrap().volume();
    // The cloud spans 8 × 4 × 2.
    assert!((v - 64.0).abs() < 1e-6 * 64.0, "reference volume {v}");
    let a = obb_reference(&cube, ObbMetric::SurfaceArea).unwrap().surface_area();
    assert!((a - 112.0).abs() < 1e-6 * 112.0, "reference area {a}");
    let _ = Vector3::<f64>::zeros();
}

/// k-DOPs of OBBs and balls equal the DOPs of dense samples of them (up to sampling), and
/// contain them.
#[test]
fn kdops_of_volumes() {
    let rot = UnitQuaternion::from_euler_angles(0.3, -0.8, 1.9);
    let o = Obb::from_rotation(Point3::new(1.0, -2.0, 0.5), rot, Vector3::new(2.0, 0.5, 1.0)).unwrap();
    let d = kdop_of_obb::<f64, 3, 13>(&o).unwrap();
    // The corners are exactly the extreme points of a box along any direction.
    let corners: Vec<Point3<f64>> = (0..8)
        .map(|k| {
            let h = o.half_extents();
            let s = |i: usize| if k >> i & 1 == 1 { h[i] } else { -h[i] };
            o.to_world(&Point3::new(s(0), s(1), s(2)))
        })
        .collect();
    let exact = kdop_from_points::<f64, 3, 13>(&corners).unwrap();
    for k in 0..13 {
        assert!((d.min()[k] - exact.min()[k]).abs() < 1e-12 && (d.max()[k] - exact.max()[k]).abs() < 1e-12);
    }
    let b = cd_geom::Ball::new(Point3::new(0.5, 0.5, 0.5), 2.0).unwrap();
    let db = kdop_of_ball::<f64, 3, 9>(&b).unwrap();
    let dirs = cd_geom::kdop_directions::<f64, 3, 9>().unwrap();
    for (dir, max) in dirs.iter().zip(db.max()) {
        let touch = b.center() + dir.normalize() * 2.0;
        assert!((dir.dot(&touch.coords) - max).abs() < 1e-12);
    }
}

/// A million points: the fast OBB builders stay correct at scale.
#[test]
fn a_million_points() {
    let mut next = xorshift(4242);
    let rot = UnitQuaternion::from_euler_angles(0.2, 0.4, 0.6);
    let pts: Vec<Point3<f64>> =
        (0..1_000_000).map(|_| rot * Point3::new(next() * 5.0, next() * 2.0, next())).collect();
    for (name, f) in
        [("pca", obb_pca::<f64, 3> as Builder), ("dito14", obb_dito14::<f64>), ("dito26", obb_dito26::<f64>)]
    {
        let o = f(&pts).unwrap();
        check_axes(&o);
        assert!(pts.iter().all(|p| o.contains_point(p)), "{name}");
        // The cloud fills a 10 × 4 × 2 box: every method should be close to its volume 80.
        assert!(o.volume() < 80.0 * 1.1, "{name}: volume {}", o.volume());
    }
}
