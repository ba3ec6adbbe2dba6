//! Structural properties of the dynamic AABB tree beyond the conformance suite.

use cd_broad::{BroadPhase, DynamicAabbTree};
use cd_geom::Aabb;
use nalgebra::Point3;

fn unit_box(x: f64) -> Aabb<f64, 3> {
    Aabb::new(Point3::new(x, 0.0, 0.0), Point3::new(x + 0.5, 0.5, 0.5)).unwrap()
}

/// Sorted insertion is the worst case for an unbalanced tree (a list); rotations keep it
/// logarithmic, and removals keep it so.
#[test]
fn rotations_keep_the_tree_balanced() {
    let mut t = DynamicAabbTree::<f64, 3>::new();
    let n = 10_000u32;
    for i in 0..n {
        t.insert(i, unit_box(i as f64)).unwrap();
    }
    let bound = 2 * (32 - n.leading_zeros()) as i32 + 2;
    assert!(t.height() <= bound, "height {} for {n} sorted inserts (bound {bound})", t.height());
    for i in (0..n).step_by(2) {
        t.remove(i).unwrap();
    }
    assert!(t.height() <= bound, "height {} after removals", t.height());
    t.find_pairs();
    // Boxes [x, x+0.5] at odd x never touch their neighbours (gap 1.5).
    assert!(t.pairs().is_empty());
    assert_eq!(t.len(), n as usize / 2);
}
