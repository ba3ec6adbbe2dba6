//! MPR against GJK (boolean) and EPA (depth): the same overlap verdict on every pair, a depth
//! that is a valid separating translation and never below the exact minimum, and exact on
//! spheres. The average excess over the exact depth is printed (it is what the benchmarks'
//! accuracy column reports).

mod common;

use cd_geom::*;
use cd_narrow::*;
use common::*;

#[test]
fn mpr_agrees_with_gjk_and_bounds_the_exact_depth() {
    let mut rng = Rng(0xabcdef);
    let (mut overlapping, mut excess_sum) = (0, 0.0);
    for _ in 0..3000 {
        let a = rng.blob::<3>(10, 1.2, 0.3, 1.2);
        let b = rng.blob::<3>(10, 1.2, 0.3, 1.2);
        let (ca, cb) = (a.interior_point(), b.interior_point());
        let hit = mpr_intersects(&a, &ca, &b, &cb, &MprConfig::default());
        let g = gjk_distance(&a, &b, &GjkConfig::default(), &mut GjkCache::default());
        let overlap = g.status == GjkStatus::Intersecting;
        if g.distance > 1e-9 || overlap {
            assert_eq!(hit, overlap, "gjk {g:?}");
        }
        if let Some(c) = mpr_contact(&a, &ca, &b, &cb, &MprConfig::default()) {
            assert!(overlap || g.distance < 1e-9);
            let (exact, _) = exact_depth(&a.0, &b.0, &candidate_axes_3d(&a.0, &b.0));
            assert!(c.depth() >= exact - 1e-9, "mpr {} below exact {exact}", c.depth());
            // A supporting plane: moving B by depth · normal separates.
            assert!(overlap_along(&a.0, &b.0, &c.normal) <= c.depth() + 1e-9);
            assert!((c.point_b - c.point_a - c.normal * c.distance).norm() < 1e-9);
            overlapping += 1;
            excess_sum += (c.depth() - exact) / exact.max(1e-12);
        } else {
            assert!(!overlap, "{g:?}");
        }
    }
    assert!(overlapping > 500);
    eprintln!(
        "MPR depth excess over the exact minimum: {:.1} % on average over {overlapping} overlaps",
        100.0 * excess_sum / overlapping as f64
    );
}

#[test]
fn mpr_is_exact_on_spheres_and_handles_concentric_shapes() {
    let a = Ball::new(P3::new(0.0, 0.0, 0.0), 1.0).unwrap();
    let b = Ball::new(P3::new(0.3, 1.2, -0.4), 0.8).unwrap();
    let c = mpr_contact(&a, a.center(), &b, b.center(), &MprConfig::default()).unwrap();
    let d = (0.09f64 + 1.44 + 0.16).sqrt();
    assert!((c.depth() - (1.8 - d)).abs() < 1e-6, "{c:?}");
    // Concentric: the centre line is undefined; MPR still reports a valid depth.
    let c = mpr_contact(&a, a.center(), &a, a.center(), &MprConfig::default()).unwrap();
    assert!((c.depth() - 2.0).abs() < 1e-4, "{c:?}");
    // Separated.
    let far = Ball::new(P3::new(3.0, 0.0, 0.0), 1.0).unwrap();
    assert!(!mpr_intersects(&a, a.center(), &far, far.center(), &MprConfig::default()));
    assert!(mpr_contact(&a, a.center(), &far, far.center(), &MprConfig::default()).is_none());
}
