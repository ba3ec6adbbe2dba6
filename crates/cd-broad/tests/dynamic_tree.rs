//! Structural properties of the dynamic AABB tree beyond the conformance suite.

use cd_broad::{BroadPhase, DynamicAabbTree};
use cd_geom::Aabb;
use nalgebra::Point3;

mod rng;
use rng::Rng;

fn unit_box(x: f64) -> Aabb<f64, 3> {
    Aabb::new(Point3::new(x, 0.0, 0.0), Point3::new(x + 0.5, 0.5, 0.5)).unwrap()
}

/// Sorted insertion is the worst case for an unbalanced tree (a list); rotations keep it
/// logarithmic, and removals keep it so.
#[test]
fn rotations_keep_the_tree_balanced() {
    let mut t = DynamicAabbTree::<f64, 3>::new();
    let n = 10_000u32;
    // One insertion per frame, so each goes through the incremental path (a frame inserting
    // more than the tree holds is bulk-built instead).
    for i in 0..n {
        t.insert(i, unit_box(i as f64)).unwrap();
        t.find_pairs();
    }
    t.check_invariants().unwrap();
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

fn random_box(rng: &mut Rng, side: f64) -> Aabb<f64, 3> {
    let c = Point3::new(rng.next() * side, rng.next() * side, rng.next() * side);
    let h = 0.2 + rng.next();
    Aabb::new(c - nalgebra::Vector3::repeat(h), c + nalgebra::Vector3::repeat(h)).unwrap()
}

fn brute_pairs(boxes: &[(u32, Aabb<f64, 3>)]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for (i, (a, ba)) in boxes.iter().enumerate() {
        for (b, bb) in &boxes[i + 1..] {
            if cd_geom::aabb_aabb(ba, bb) {
                out.push(((*a).min(*b), (*a).max(*b)));
            }
        }
    }
    out.sort_unstable();
    out
}

/// A bulk load is one SAH build; explicit rebuilds while boxes move, are removed and inserted
/// keep the structure valid and the pairs exact, and bring the height back near log2(n).
#[test]
fn rebuilds_keep_structure_and_pairs() {
    let mut rng = Rng(99);
    let mut t = DynamicAabbTree::<f64, 3>::new();
    let mut boxes: Vec<(u32, Aabb<f64, 3>)> = (0..2_000).map(|i| (i, random_box(&mut rng, 40.0))).collect();
    for (id, b) in &boxes {
        t.insert(*id, *b).unwrap();
    }
    t.find_pairs();
    t.check_invariants().unwrap();
    assert!(t.height() <= 2 * 11 + 2, "bulk-loaded height {}", t.height());
    assert_eq!(t.pairs(), &brute_pairs(&boxes)[..]);
    let mut next_id = 2_000;
    for frame in 0..60 {
        for (_, b) in boxes.iter_mut() {
            let d = nalgebra::Vector3::new(rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5) * 0.6;
            *b = Aabb::new(b.min() + d, b.max() + d).unwrap();
        }
        for (id, b) in &boxes {
            t.update(*id, *b).unwrap();
        }
        // Churn: remove a few, insert a few (some rebuilt before their first frame).
        for _ in 0..5 {
            let i = (rng.next() * boxes.len() as f64) as usize;
            t.remove(boxes.swap_remove(i).0).unwrap();
            let b = random_box(&mut rng, 40.0);
            t.insert(next_id, b).unwrap();
            boxes.push((next_id, b));
            next_id += 1;
        }
        if frame % 7 == 3 {
            t.rebuild();
            t.check_invariants().unwrap();
        }
        t.find_pairs();
        t.check_invariants().unwrap_or_else(|e| panic!("frame {frame}: {e}"));
        assert_eq!(t.pairs(), &brute_pairs(&boxes)[..], "frame {frame}");
    }
    t.rebuild();
    assert!(t.height() <= 2 * 11 + 2, "rebuilt height {}", t.height());
}

/// Exponentially spaced boxes make every SAH split peel one box off; the depth limit switches
/// to median splits, so the height stays logarithmic.
#[test]
fn rebuild_height_is_bounded_on_skewed_input() {
    let mut t = DynamicAabbTree::<f64, 3>::new();
    let n = 1_000u32;
    for i in 0..n {
        let x = 1.02f64.powi(i as i32);
        t.insert(i, Aabb::new(Point3::new(x, 0.0, 0.0), Point3::new(x * 1.001, 1.0, 1.0)).unwrap()).unwrap();
    }
    t.find_pairs();
    t.check_invariants().unwrap();
    let balanced = (32 - n.leading_zeros()) as i32;
    assert!(t.height() <= 2 * balanced + 8 + balanced, "height {}", t.height());
}
