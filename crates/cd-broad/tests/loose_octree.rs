//! The loose octree's own hard cases, each checked frame by frame against brute force (itself
//! checked against an independent oracle by the conformance suite): sizes spanning six orders
//! of magnitude, small `f32` boxes far from the origin (where a cube edge is a few ulps of the
//! coordinates), boxes outgrowing every level (the oversized node, then a new layout), and the
//! node moves of coherent motion.

use cd_broad::*;
use cd_geom::{Aabb, Point, Real, Vector};

mod rng;
use rng::Rng;

/// A whole number in `0..n`.
fn below(rng: &mut Rng, n: usize) -> usize {
    ((rng.next() * n as f64) as usize).min(n.saturating_sub(1))
}

fn boxed<T: Real>(c: [f64; 3], h: f64) -> Aabb<T, 3> {
    let lo = Point::from(Vector::<T, 3>::from_fn(|i, _| T::lit(c[i] - h)));
    let hi = Point::from(Vector::<T, 3>::from_fn(|i, _| T::lit(c[i] + h)));
    Aabb::new(lo, hi).unwrap()
}

/// Applies `frame(i)` (the box of proxy i, or `None` to leave it) to both, then compares pairs,
/// events and a box query around every tenth proxy.
fn step<T: Real>(
    tree: &mut LooseOctree<T, 3>,
    oracle: &mut BruteForce<T, 3>,
    n: usize,
    mut frame: impl FnMut(usize) -> Option<Aabb<T, 3>>,
) {
    for i in 0..n {
        if let Some(b) = frame(i) {
            tree.update(i as u32, b).unwrap();
            oracle.update(i as u32, b).unwrap();
        }
    }
    tree.find_pairs();
    oracle.find_pairs();
    assert_eq!(tree.pairs(), oracle.pairs());
    assert_eq!(tree.added(), oracle.added());
    assert_eq!(tree.removed(), oracle.removed());
    for i in (0..n).step_by(10) {
        let region = oracle.aabb(i as u32).unwrap();
        let (mut got, mut want) = (Vec::new(), Vec::new());
        tree.query_aabb(&region, &mut got);
        oracle.query_aabb(&region, &mut want);
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want);
    }
}

fn start<T: Real>(boxes: &[Aabb<T, 3>]) -> (LooseOctree<T, 3>, BruteForce<T, 3>) {
    let (mut tree, mut oracle) = (LooseOctree::new(), BruteForce::new());
    for (i, b) in boxes.iter().enumerate() {
        tree.insert(i as u32, *b).unwrap();
        oracle.insert(i as u32, *b).unwrap();
    }
    (tree, oracle)
}

/// Half extents from 10⁻³ to 10³ (log-uniform) in a region a few times the largest, moving
/// coherently with a few teleports: every level from the finest to the coarsest is populated
/// and pairs cross levels.
#[test]
fn sizes_over_six_orders_of_magnitude() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ 11);
    let n = 400;
    let mut centre: Vec<[f64; 3]> = (0..n).map(|_| [0; 3].map(|_| rng.range(-3000.0, 3000.0))).collect();
    let half: Vec<f64> = (0..n).map(|_| 10f64.powf(rng.range(-3.0, 3.0))).collect();
    let (mut tree, mut oracle) = start::<f64>(&(0..n).map(|i| boxed(centre[i], half[i])).collect::<Vec<_>>());
    for frame in 0..60 {
        step(&mut tree, &mut oracle, n, |i| {
            if (i + frame) % 50 == 0 {
                centre[i] = [0; 3].map(|_| rng.range(-3000.0, 3000.0));
            } else {
                for c in &mut centre[i] {
                    *c += rng.range(-0.05, 0.05) * half[i];
                }
            }
            Some(boxed(centre[i], half[i]))
        });
    }
    assert!(!oracle.pairs().is_empty());
}

/// Unit `f32` boxes packed around (10⁵, −10⁵, 10⁵), some as large as their level's cubes hold:
/// there an ulp of the coordinates is 1/128 of a unit, more than the edge's own pad, and the
/// range's pad in ulps of the coordinates is what covers the rounding of the boxes' centres
/// and of the range ends (by the argument at `loose_range`; this sampling does not hit a case
/// that needs it). Pairs must equal brute force, touching boxes included.
#[test]
fn small_f32_boxes_far_from_the_origin() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ 5);
    let n = 300;
    let far = [1e5, -1e5, 1e5];
    // Half on a lattice of quarter units (exact in f32 there: boxes touch exactly), half
    // anywhere (their corners round).
    let mut centre: Vec<[f64; 3]> = (0..n)
        .map(|i| {
            core::array::from_fn(|a| {
                let x = rng.range(-4.0, 4.0);
                far[a] + if i % 2 == 0 { (x * 4.0).round() / 4.0 } else { x }
            })
        })
        .collect();
    // The smallest boxes fix the finest edge at 1; the others are as large as the next level's
    // cubes hold (2 / FIT), so they may stick out of their cube by almost the half edge.
    let half = |i: usize| if i % 3 == 0 { 0.5 } else { 0.9989 };
    let (mut tree, mut oracle) =
        start::<f32>(&centre.iter().enumerate().map(|(i, c)| boxed(*c, half(i))).collect::<Vec<_>>());
    for _ in 0..40 {
        step(&mut tree, &mut oracle, n, |i| {
            for c in &mut centre[i] {
                let step = rng.range(-0.25, 0.25);
                *c += if i % 2 == 0 { (step * 32.0).round() / 32.0 } else { step };
            }
            Some(boxed(centre[i], half(i)))
        });
    }
    assert!(oracle.pairs().len() > n / 2, "the packing makes many pairs, touching ones among them");
}

/// Tiny boxes fix the finest edge; then boxes grow past every level (2⁶² times the finest
/// edge): first a few (the oversized node), then most (a new layout), then they shrink back.
#[test]
fn boxes_outgrowing_every_level() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ 3);
    let n = 200;
    let centre: Vec<[f64; 3]> = (0..n).map(|_| [0; 3].map(|_| rng.range(-1.0, 1.0))).collect();
    let (mut tree, mut oracle) = start::<f64>(&centre.iter().map(|c| boxed(*c, 1e-6)).collect::<Vec<_>>());
    step(&mut tree, &mut oracle, n, |_| None);
    let finest = tree.finest_cell();
    assert!(finest > 0.0 && finest <= 2.1e-6);
    for (grown, half) in [(3, 1e14), (150, 1e14), (150, 1e15), (n, 1e-6), (n, 0.01)] {
        step(&mut tree, &mut oracle, n, |i| (i < grown).then(|| boxed(centre[i], half)));
        step(&mut tree, &mut oracle, n, |_| None);
    }
    assert!(tree.finest_cell() > finest, "most boxes outgrew the levels: the tree was laid out again");
}

/// Proxies removed and inserted between frames, their slots reused, with boxes of two sizes.
#[test]
fn churn_keeps_the_nodes_consistent() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ 8);
    let mut tree = LooseOctree::<f64, 3>::new();
    let mut oracle = BruteForce::<f64, 3>::new();
    let mut live: Vec<u32> = Vec::new();
    let mut next = 0u32;
    for _ in 0..80 {
        for _ in 0..below(&mut rng, 12) {
            let b = boxed(
                [0; 3].map(|_| rng.range(-20.0, 20.0)),
                if below(&mut rng, 4) == 0 { 6.0 } else { 0.7 },
            );
            tree.insert(next, b).unwrap();
            oracle.insert(next, b).unwrap();
            live.push(next);
            next += 1;
        }
        for _ in 0..below(&mut rng, 8) {
            if !live.is_empty() {
                let id = live.swap_remove(below(&mut rng, live.len()));
                tree.remove(id).unwrap();
                oracle.remove(id).unwrap();
            }
        }
        for &id in &live {
            let b = boxed([0; 3].map(|_| rng.range(-20.0, 20.0)), 0.7);
            if below(&mut rng, 3) == 0 {
                tree.update(id, b).unwrap();
                oracle.update(id, b).unwrap();
            }
        }
        tree.find_pairs();
        oracle.find_pairs();
        assert_eq!(tree.pairs(), oracle.pairs());
        assert_eq!(tree.added(), oracle.added());
        assert_eq!(tree.removed(), oracle.removed());
    }
}
