//! 2D polygon SAT against the exact minimum over all candidate axes and against GJK + EPA.

mod common;

use cd_geom::*;
use cd_narrow::*;
use common::*;

/// A convex polygon: `n` points on an ellipse at sorted random angles, rotated and placed.
fn convex_polygon(rng: &mut Rng, n: usize) -> Vec<P2> {
    let mut angles: Vec<f64> = (0..n).map(|_| rng.range(0.0, std::f64::consts::TAU)).collect();
    angles.sort_by(|a, b| a.partial_cmp(b).unwrap());
    angles.dedup_by(|a, b| (*a - *b).abs() < 1e-3);
    let (rx, ry, rot) = (rng.range(0.3, 1.5), rng.range(0.3, 1.5), rng.range(0.0, 3.0));
    let c = rng.vector::<2>(-1.2, 1.2);
    angles
        .iter()
        .map(|t| {
            let (x, y) = (rx * t.cos(), ry * t.sin());
            P2::new(c.x + x * rot.cos() - y * rot.sin(), c.y + x * rot.sin() + y * rot.cos())
        })
        .collect()
}

#[test]
fn polygon_sat_depth_is_the_exact_minimum() {
    let mut rng = Rng(77);
    let (mut pen, mut sep) = (0, 0);
    for _ in 0..5000 {
        let (na, nb) = (3 + (rng.next_f64() * 8.0) as usize, 3 + (rng.next_f64() * 8.0) as usize);
        let a = convex_polygon(&mut rng, na);
        let b = convex_polygon(&mut rng, nb);
        if a.len() < 3 || b.len() < 3 {
            continue;
        }
        let (exact, _) = exact_depth(&a, &b, &candidate_axes_2d(&a, &b));
        let sat = polygon_polygon_sat(&a, &b, f64::INFINITY, &mut PolygonSatCache::default());
        if exact > 1e-12 {
            pen += 1;
            assert!((-sat.separation - exact).abs() < 1e-9, "sat {} exact {exact}", sat.separation);
            let c = polygon_polygon_contact(&a, &b, 0.0, &mut PolygonSatCache::default()).unwrap();
            assert!((c.depth() - exact).abs() < 1e-9);
            assert!((overlap_along(&a, &b, &c.normal) - exact).abs() < 1e-9, "MTV does not separate");
            // GJK + EPA agree on the depth.
            let g = convex_contact(
                &Cloud(a.clone()),
                0.0,
                &Cloud(b.clone()),
                0.0,
                &ConvexConfig::default(),
                &mut GjkCache::default(),
            );
            assert!((g.depth() - exact).abs() < 1e-9);
        } else if exact < -1e-12 {
            sep += 1;
            assert!(sat.separation > 0.0);
            assert!(sat.separation <= brute_distance_2d(&a, &b) + 1e-12);
            assert!(polygon_polygon_contact(&a, &b, 0.0, &mut PolygonSatCache::default()).is_none());
        }
        // The cache never changes the verdict.
        let mut cache = PolygonSatCache::default();
        polygon_polygon_sat(&b, &a, 0.0, &mut cache);
        let again = polygon_polygon_sat(&a, &b, 0.0, &mut cache);
        assert_eq!(
            again.separation > 0.0,
            exact < -1e-12 || (exact.abs() <= 1e-12 && again.separation > 0.0)
        );
    }
    assert!(pen > 500 && sep > 500, "{pen} {sep}");
}

#[test]
fn boxes_2d_hand_derived() {
    // Unit squares, B shifted by (0.8, 0.1): overlap 0.2 along +x (0.9 along y).
    let a = Obb::<f64, 2>::from_angle(P2::new(0.0, 0.0), 0.0, V2::new(0.5, 0.5)).unwrap();
    let b = Obb::<f64, 2>::from_angle(P2::new(0.8, 0.1), 0.0, V2::new(0.5, 0.5)).unwrap();
    let c = obb_obb_contact_2d(&a, &b, 0.0, &mut PolygonSatCache::default()).unwrap();
    assert!((c.depth() - 0.2).abs() < 1e-12 && (c.normal - V2::x()).norm() < 1e-12, "{c:?}");
    // Swapped: mirrored normal.
    let c = obb_obb_contact_2d(&b, &a, 0.0, &mut PolygonSatCache::default()).unwrap();
    assert!((c.depth() - 0.2).abs() < 1e-12 && (c.normal + V2::x()).norm() < 1e-12);
    // A diamond (square rotated 45°) touching a square's face corner-first.
    let d = Obb::<f64, 2>::from_angle(
        P2::new(0.5 + 0.5 * 2f64.sqrt() - 0.01, 0.0),
        std::f64::consts::FRAC_PI_4,
        V2::new(0.5, 0.5),
    )
    .unwrap();
    let c = obb_obb_contact_2d(&a, &d, 0.0, &mut PolygonSatCache::default()).unwrap();
    assert!((c.depth() - 0.01).abs() < 1e-12 && (c.normal - V2::x()).norm() < 1e-12, "{c:?}");
    assert!((c.point_b - P2::new(0.49, 0.0)).norm() < 1e-12);
}

/// Fuzz finding 58 (FUZZING.md): SAT over edge normals alone calls flat outlines touching
/// whenever their lines meet, however far apart along them (a point-polygon at (0, 10⁷⁵)
/// "touched" a zero-size box at the origin). Too thin an outline goes to GJK and EPA.
#[test]
fn flat_outlines_are_not_touching_along_their_line() {
    let flat = |x: f64, len: f64| Obb::<f64, 2>::from_angle(P2::new(x, 0.0), 0.0, V2::new(len, 0.0)).unwrap();
    // Two segments on the x axis, a unit apart end to end, as boxes of zero height.
    let (a, b) = (flat(0.0, 1.0), flat(3.0, 1.0));
    let c = obb_obb_contact_2d(&a, &b, 5.0, &mut PolygonSatCache::default()).expect("within the prediction");
    assert!((c.distance - 1.0).abs() < 1e-12 && (c.normal - V2::x()).norm() < 1e-12, "{c:?}");
    assert_eq!(obb_obb_contact_2d(&a, &b, 0.5, &mut PolygonSatCache::default()), None);
    // Overlapping along the line: touching (zero depth), not apart.
    let c = obb_obb_contact_2d(&a, &flat(1.5, 1.0), 0.0, &mut PolygonSatCache::default()).unwrap();
    assert!(c.distance.abs() < 1e-12, "{c:?}");
    // A point and a zero-size box far apart, through the dispatcher.
    let point = [P2::new(0.0, 1e75)];
    let zero = Obb::<f64, 2>::from_angle(P2::new(0.0, 0.0), 0.3, V2::new(0.0, 0.0)).unwrap();
    let d = distance_2d(Shape2::Polygon(&point), Shape2::Box(&zero), &mut PairCache2::default()).unwrap();
    assert!((d.distance - 1e75).abs() <= 1e60, "{d:?}");
    // A thin but real box (1 × 10⁻⁹) beside a unit square along its length: exact gap.
    let thin = Obb::<f64, 2>::from_angle(P2::new(0.0, 0.0), 0.0, V2::new(1.0, 1e-9)).unwrap();
    let square = Obb::<f64, 2>::from_angle(P2::new(3.0, 0.0), 0.0, V2::new(1.0, 1.0)).unwrap();
    let d = distance_2d(Shape2::Box(&thin), Shape2::Box(&square), &mut PairCache2::default()).unwrap();
    assert!((d.distance - 1.0).abs() < 1e-9, "{d:?}");
}
