//! Where a broad-phase frame goes: runs the benchmark scenes (`benches/broad.rs`) for a few
//! hundred frames per strategy and prints the time of the update calls and of `find_pairs`
//! separately, with the pair and event counts. A tuning aid next to the criterion numbers.
//!
//! `cargo run --release -p cd-benches --example broad_frames -- [floor|teleport] [n] [frames]`

use cd_benches::BroadScene;
use cd_broad::*;
use std::time::{Duration, Instant};

fn strategies() -> Vec<(&'static str, Box<dyn BroadPhase<f32, 3>>)> {
    vec![
        ("incremental_sap", Box::new(IncrementalSap::<f32, 3>::new())),
        ("incremental_sap_2_axes", Box::new(IncrementalSap::<f32, 3>::with_axes(2))),
        ("sort_and_sweep", Box::new(SortAndSweep::<f32, 3>::new())),
        ("uniform_grid", Box::new(UniformGrid::<f32, 3>::new())),
        ("spatial_hash", Box::new(SpatialHash::<f32, 3>::new())),
        ("hierarchical_grid", Box::new(HierarchicalGrid::<f32, 3>::new())),
        ("dynamic_tree", Box::new(DynamicAabbTree::<f32, 3>::new())),
        ("coherent_grid", Box::new(CoherentGrid::<f32, 3>::new())),
        ("loose_octree", Box::new(LooseOctree::<f32, 3>::new())),
    ]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let floor = args.first().map(|s| s == "floor").unwrap_or(true);
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let frames: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(300);
    let only = args.get(3);
    println!(
        "scene {}, n = {n}, {frames} frames (times per frame)",
        if floor { "floor" } else { "teleport" }
    );
    println!(
        "{:<24} {:>10} {:>10} {:>10} {:>8} {:>8}",
        "strategy", "insert ms", "update µs", "pairs µs", "pairs", "events"
    );
    // The scene's own cost (motion and box construction), included in every "update" column.
    let mut scene = if floor { BroadScene::floor(n) } else { BroadScene::new(n) };
    let t = Instant::now();
    let mut sink = 0.0f32;
    for _ in 0..frames {
        scene.step();
        for i in 0..n {
            sink += scene.aabb(i).min().x;
        }
    }
    let scene_cost = t.elapsed().as_secs_f64() * 1e6 / frames as f64;
    println!("{:<24} {:>10} {:>10.1} {:>10} {:>8.0}", "(scene only)", "", scene_cost, "", sink * 0.0);
    for (name, mut bp) in strategies() {
        if only.is_some_and(|o| o != name) {
            continue;
        }
        let mut scene = if floor { BroadScene::floor(n) } else { BroadScene::new(n) };
        let t = Instant::now();
        for i in 0..n {
            bp.insert(i as u32, scene.aabb(i)).unwrap();
        }
        bp.find_pairs();
        let insert = t.elapsed();
        let (mut update, mut pairs, mut events) = (Duration::ZERO, Duration::ZERO, 0usize);
        let mut updates = Vec::with_capacity(n);
        for _ in 0..frames {
            scene.step();
            let t = Instant::now();
            updates.clear();
            updates.extend((0..n).map(|i| (i as u32, scene.aabb(i))));
            bp.update_all(&updates).unwrap();
            let t2 = Instant::now();
            bp.find_pairs();
            pairs += t2.elapsed();
            update += t2 - t;
            events += bp.added().len() + bp.removed().len();
        }
        let per = |d: Duration| d.as_secs_f64() * 1e6 / frames as f64;
        println!(
            "{:<24} {:>10.1} {:>10.1} {:>10.1} {:>8} {:>8}",
            name,
            insert.as_secs_f64() * 1e3,
            per(update),
            per(pairs),
            bp.pairs().len(),
            events / frames
        );
    }
}
