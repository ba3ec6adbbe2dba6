//! Broad phases against parry3d's `Bvh` used the way rapier uses it. One iteration is one full
//! frame: update every box of the scene's next frame (coherent motion, 2 % teleport each frame;
//! cd in one `update_all` call through the trait object, parry one `insert_or_update_partially`
//! per box), then find the pairs (and, for cd, the added/removed events). Groups are
//! `broad_<n>` and `broad_floor_<n>`. Each library gets its own copy of the scene, stepped
//! forward without end from the same start; a frame's boxes are built before its timing starts
//! (`iter_custom`), so the scene's own motion and box construction are not measured, and
//! [`cd_benches::BROAD_WARM_UP_FRAMES`] untimed frames after filling (at most ten seconds of
//! them) put the timing in the steady state.
//!
//! parry reports pairs of fattened boxes (margin 0.1) involving a changed leaf; cd's pairs are
//! exact, complete and come with events. Both see the same boxes.

use cd_benches::{BroadScene, SceneStream};
use cd_broad::*;
use criterion::{criterion_group, criterion_main, Criterion};
use parry3d::partitioning::{Bvh, BvhWorkspace};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Times `frame` (one broad-phase frame on the stream's current boxes) over `iters` frames of
/// `stream`, each stepped before its timing starts.
fn time_frames(iters: u64, stream: &mut SceneStream, mut frame: impl FnMut(&SceneStream)) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        stream.advance();
        let start = Instant::now();
        frame(stream);
        total += start.elapsed();
    }
    total
}

/// One row: `state` filled with the scene's first frame by `fill` and warmed up on first use
/// (so a filter that skips the row also skips them), then timed a frame at a time by `frame`.
fn bench_frames<S>(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    scene: &BroadScene,
    mut state: S,
    fill: impl Fn(&mut S, &SceneStream),
    frame: impl Fn(&mut S, &SceneStream),
) {
    let mut stream: Option<SceneStream> = None;
    g.bench_function(name, |b| {
        let stream = stream.get_or_insert_with(|| {
            let mut stream = SceneStream::new(scene.clone());
            fill(&mut state, &stream);
            cd_benches::broad_warm_up(&mut stream, |s| frame(&mut state, s));
            stream
        });
        b.iter_custom(|iters| time_frames(iters, stream, |s| frame(&mut state, s)))
    });
}

/// A cd strategy's row: every box inserted, then one `update_all` and `find_pairs` a frame.
fn bench_cd(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    scene: &BroadScene,
    bp: Box<dyn BroadPhase<f32, 3>>,
) {
    let fill = |bp: &mut Box<dyn BroadPhase<f32, 3>>, s: &SceneStream| {
        for &(id, aabb) in s.cd() {
            bp.insert(id, aabb).unwrap();
        }
        bp.find_pairs();
    };
    let frame = |bp: &mut Box<dyn BroadPhase<f32, 3>>, s: &SceneStream| {
        bp.update_all(s.cd()).unwrap();
        bp.find_pairs();
        black_box(bp.pairs().len() + bp.added().len() + bp.removed().len());
    };
    bench_frames(g, name, scene, bp, fill, frame);
}

fn bench(c: &mut Criterion) {
    for n in cd_benches::sizes(&[1_000usize, 10_000, 100_000]) {
        let mut g = c.benchmark_group(format!("broad_{n}"));
        g.sample_size(10).measurement_time(cd_benches::measurement(std::time::Duration::from_secs(3)));
        let scene = BroadScene::new(n);
        if n <= 1_000 {
            bench_cd(&mut g, "cd_brute_force", &scene, Box::new(BruteForce::<f32, 3>::new()));
        }
        // Incremental SAP pays O(n) crossings per teleported box (2 % teleports per frame is
        // its worst case; see docs/benchmarks.md): run up to 10k only, like the hierarchical
        // grid.
        if n <= 10_000 {
            bench_cd(&mut g, "cd_incremental_sap", &scene, Box::new(IncrementalSap::<f32, 3>::new()));
            bench_cd(&mut g, "cd_hierarchical_grid", &scene, Box::new(HierarchicalGrid::<f32, 3>::new()));
        }
        bench_cd(&mut g, "cd_dynamic_tree", &scene, Box::new(DynamicAabbTree::<f32, 3>::new()));
        bench_cd(&mut g, "cd_sort_and_sweep", &scene, Box::new(SortAndSweep::<f32, 3>::new()));
        bench_cd(&mut g, "cd_spatial_hash", &scene, Box::new(SpatialHash::<f32, 3>::new()));
        bench_cd(&mut g, "cd_uniform_grid", &scene, Box::new(UniformGrid::<f32, 3>::new()));
        bench_cd(&mut g, "cd_coherent_grid", &scene, Box::new(CoherentGrid::<f32, 3>::new()));
        bench_cd(&mut g, "cd_loose_octree", &scene, Box::new(LooseOctree::<f32, 3>::new()));
        // parry: the rapier pattern.
        bench_parry(&mut g, &scene);
        g.finish();
    }
    // The clustered case: boxes on a floor, at every size, so the plot shows how each
    // strategy scales with coherent motion (incremental SAP: O(n + crossings)).
    for n in cd_benches::sizes(&[1_000usize, 10_000, 100_000]) {
        let mut g = c.benchmark_group(format!("broad_floor_{n}"));
        g.sample_size(10).measurement_time(cd_benches::measurement(std::time::Duration::from_secs(3)));
        let scene = BroadScene::floor(n);
        bench_cd(
            &mut g,
            "cd_incremental_sap_2_axes",
            &scene,
            Box::new(IncrementalSap::<f32, 3>::with_axes(2)),
        );
        bench_cd(&mut g, "cd_incremental_sap", &scene, Box::new(IncrementalSap::<f32, 3>::new()));
        bench_cd(&mut g, "cd_sort_and_sweep", &scene, Box::new(SortAndSweep::<f32, 3>::new()));
        bench_cd(&mut g, "cd_uniform_grid", &scene, Box::new(UniformGrid::<f32, 3>::new()));
        bench_cd(&mut g, "cd_dynamic_tree", &scene, Box::new(DynamicAabbTree::<f32, 3>::new()));
        bench_cd(&mut g, "cd_coherent_grid", &scene, Box::new(CoherentGrid::<f32, 3>::new()));
        bench_cd(&mut g, "cd_loose_octree", &scene, Box::new(LooseOctree::<f32, 3>::new()));
        bench_parry(&mut g, &scene);
        g.finish();
    }
}

/// parry's `Bvh` driven the way rapier drives it.
fn bench_parry(g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>, scene: &BroadScene) {
    let fill = |(bvh, ws): &mut (Bvh, BvhWorkspace), s: &SceneStream| {
        cd_benches::parry_broad_fill(bvh, ws, s.parry())
    };
    let frame = |(bvh, ws): &mut (Bvh, BvhWorkspace), s: &SceneStream| {
        black_box(cd_benches::parry_broad_frame(bvh, ws, s.parry()));
    };
    bench_frames(g, "parry", scene, (Bvh::new(), BvhWorkspace::default()), fill, frame);
}

criterion_group!(broad, bench);
criterion_main!(broad);
