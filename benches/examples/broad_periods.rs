//! The coherent grid alone on the recorded 10k floor: 256 warm-up frames, then whole periods of
//! the ping-pong replay (254 frames each, so every recorded frame counts once, the frame that
//! returns to the start included).
//!
//! For callgrind, the difference of a one- and a two-period run is one period's cost:
//! `valgrind --tool=callgrind --cache-sim=yes --D1=32768,8,64 --LL=524288,8,64
//! target/release/examples/broad_periods 1` (then `2`). With a second argument it prints the
//! median over the periods of the mean frame time instead of the pair count:
//! `cargo run --release -p cd-benches --example broad_periods -- 12 t`.

use cd_benches::{BroadScene, RecordedScene};
use cd_broad::{BroadPhase, CoherentGrid};
use std::time::Instant;

/// Frames in one period of the replay of 128 recorded frames (0, 1, …, 127, 126, …, 1).
const PERIOD: usize = 254;

fn main() {
    let periods: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let timed = std::env::args().nth(2).is_some();
    let mut scene = RecordedScene::record(BroadScene::floor(10_000), 128);
    let mut grid = CoherentGrid::<f32, 3>::new();
    let bp: &mut dyn BroadPhase<f32, 3> = &mut grid;
    for &(id, aabb) in &scene.cd[0] {
        bp.insert(id, aabb).unwrap();
    }
    bp.find_pairs();
    let mut pairs = 0;
    let mut frame = |bp: &mut dyn BroadPhase<f32, 3>| {
        let f = scene.advance();
        bp.update_all(&scene.cd[f]).unwrap();
        bp.find_pairs();
        pairs += bp.pairs().len();
    };
    for _ in 0..256 {
        frame(bp);
    }
    let mut per_frame = Vec::new();
    for _ in 0..periods {
        let t = Instant::now();
        for _ in 0..PERIOD {
            frame(bp);
        }
        per_frame.push(t.elapsed().as_secs_f64() * 1e6 / PERIOD as f64);
    }
    per_frame.sort_by(f64::total_cmp);
    if timed {
        println!("{:.1} µs per frame (median of {periods} periods)", per_frame[per_frame.len() / 2]);
    } else {
        println!("{pairs} pairs in all");
    }
}
