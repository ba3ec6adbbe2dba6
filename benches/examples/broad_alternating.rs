//! One broad-phase scene timed for cd's coherent grid and parry's `Bvh` (driven as in
//! `benches/broad.rs`: each on its own copy of the scene stepped forward without end, the boxes
//! built before the timing of each frame, [`cd_benches::BROAD_WARM_UP_FRAMES`] untimed frames
//! first) in alternating rounds of frames, so both sides see the same machine state; prints the
//! median and the mean frame time of each side and their ratios. This host's speed drifts by a
//! third within minutes, which moves criterion's ratio by more than the changes measured.
//!
//! `cargo run --release -p cd-benches --example broad_alternating -- [floor|teleport] [n] [rounds] [margin]`

use cd_benches::{BroadScene, SceneStream};
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

/// The mean time in µs of `frame` over [`FRAMES`] frames of `stream`, each stepped untimed.
fn round(stream: &mut SceneStream, mut frame: impl FnMut(&SceneStream)) -> f64 {
    let mut total = 0.0;
    for _ in 0..FRAMES {
        stream.advance();
        let start = Instant::now();
        frame(stream);
        total += start.elapsed().as_secs_f64();
    }
    total * 1e6 / FRAMES as f64
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let floor = args.first().map(|s| s != "teleport").unwrap_or(true);
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(40);
    // The grid's relative margin (its default unless given).
    let margin: Option<f32> = args.get(3).and_then(|s| s.parse().ok());
    let scene = if floor { BroadScene::floor(n) } else { BroadScene::new(n) };
    let (mut cd_stream, mut parry_stream) = (SceneStream::new(scene.clone()), SceneStream::new(scene));

    let mut grid = margin.map_or_else(CoherentGrid::<f32, 3>::new, CoherentGrid::with_margin);
    let bp: &mut dyn BroadPhase<f32, 3> = &mut grid;
    for &(id, aabb) in cd_stream.cd() {
        bp.insert(id, aabb).unwrap();
    }
    bp.find_pairs();
    let mut bvh = Bvh::new();
    let mut ws = BvhWorkspace::default();
    cd_benches::parry_broad_fill(&mut bvh, &mut ws, parry_stream.parry());
    cd_benches::broad_warm_up(&mut cd_stream, |s| {
        bp.update_all(s.cd()).unwrap();
        bp.find_pairs();
    });
    cd_benches::broad_warm_up(&mut parry_stream, |s| {
        cd_benches::parry_broad_frame(&mut bvh, &mut ws, s.parry());
    });

    let (mut cd, mut parry) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        cd.push(round(&mut cd_stream, |s| {
            bp.update_all(s.cd()).unwrap();
            bp.find_pairs();
            black_box(bp.pairs().len() + bp.added().len() + bp.removed().len());
        }));
        parry.push(round(&mut parry_stream, |s| {
            black_box(cd_benches::parry_broad_frame(&mut bvh, &mut ws, s.parry()));
        }));
    }
    // The mean too: criterion's estimate is one, and it counts the costly frames (a burst of
    // boxes leaving their fat boxes) that a median of rounds leaves out.
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let (cm, pm) = (mean(&cd), mean(&parry));
    let (c, p) = (median(&mut cd), median(&mut parry));
    println!(
        "{} {n}: cd {c:.1} µs, parry {p:.1} µs, ratio {:.3} (means: {cm:.1}, {pm:.1}, ratio {:.3})",
        if floor { "floor" } else { "teleport" },
        c / p,
        cm / pm
    );
}
