//! One broad-phase scene timed for cd's coherent grid and parry's `Bvh` (driven as in
//! `benches/broad.rs`) in alternating rounds of frames, so both sides see the same machine
//! state; prints the median frame time of each side and their ratio. This host's speed drifts
//! by a third within minutes, which moves criterion's ratio by more than the changes measured.
//!
//! `cargo run --release -p cd-benches --example broad_alternating -- [floor|teleport] [n] [rounds] [margin]`

use cd_benches::{BroadScene, RecordedScene};
use cd_broad::{BroadPhase, CoherentGrid};
use parry3d::partitioning::{Bvh, BvhWorkspace};
use std::hint::black_box;
use std::time::Instant;

/// Frames per round and side.
const FRAMES: usize = 32;

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let floor = args.first().map(|s| s != "teleport").unwrap_or(true);
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(40);
    // The grid's relative margin (its default unless given).
    let margin: Option<f32> = args.get(3).and_then(|s| s.parse().ok());
    let scene = if floor { BroadScene::floor(n) } else { BroadScene::new(n) };
    let mut cd_scene = RecordedScene::record(scene, 128);
    let mut parry_scene =
        RecordedScene::record(if floor { BroadScene::floor(n) } else { BroadScene::new(n) }, 128);

    let mut grid = margin.map_or_else(CoherentGrid::<f32, 3>::new, CoherentGrid::with_margin);
    let bp: &mut dyn BroadPhase<f32, 3> = &mut grid;
    for &(id, aabb) in &cd_scene.cd[0] {
        bp.insert(id, aabb).unwrap();
    }
    bp.find_pairs();
    let mut bvh = Bvh::new();
    let mut ws = BvhWorkspace::default();
    cd_benches::parry_broad_fill(&mut bvh, &mut ws, &parry_scene.parry[0]);

    let (mut cd, mut parry) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let t = Instant::now();
        for _ in 0..FRAMES {
            let f = cd_scene.advance();
            bp.update_all(&cd_scene.cd[f]).unwrap();
            bp.find_pairs();
            black_box(bp.pairs().len() + bp.added().len() + bp.removed().len());
        }
        cd.push(t.elapsed().as_secs_f64() * 1e6 / FRAMES as f64);
        let t = Instant::now();
        for _ in 0..FRAMES {
            let f = parry_scene.advance();
            black_box(cd_benches::parry_broad_frame(&mut bvh, &mut ws, &parry_scene.parry[f]));
        }
        parry.push(t.elapsed().as_secs_f64() * 1e6 / FRAMES as f64);
    }
    let (c, p) = (median(&mut cd), median(&mut parry));
    println!(
        "{} {n}: cd {c:.1} µs, parry {p:.1} µs, ratio {:.3}",
        if floor { "floor" } else { "teleport" },
        c / p
    );
}
