//! Broad phases against parry3d's `Bvh` used the way rapier uses it. One iteration is one full
//! frame: update every box of the next recorded frame (coherent motion, 2 % teleport each
//! frame; replayed forward then backward; cd in one `update_all` call through the trait object,
//! parry one `insert_or_update_partially` per box), then find the pairs (and, for cd, the added/removed
//! events). Groups are `broad_<n>` and `broad_floor_<n>`. The frames are recorded before timing,
//! so the scene's own motion and box construction are not measured for either library.
//!
//! parry reports pairs of fattened boxes (margin 0.1) involving a changed leaf; cd's pairs are
//! exact, complete and come with events. Both see the same boxes.

use cd_benches::{BroadScene, RecordedScene};
use cd_broad::*;
use criterion::{criterion_group, criterion_main, Criterion};
use parry3d::partitioning::{Bvh, BvhWorkspace};
use std::hint::black_box;

fn bench_cd(
    c: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    scene: &mut RecordedScene,
    mut bp: Box<dyn BroadPhase<f32, 3>>,
) {
    // Filled on first use, so a filter that skips this row also skips its initial insertion.
    let mut ready = false;
    c.bench_function(name, |b| {
        if !ready {
            scene.rewind();
            for &(id, aabb) in &scene.cd[0] {
                bp.insert(id, aabb).unwrap();
            }
            bp.find_pairs();
            ready = true;
        }
        b.iter(|| {
            let f = scene.advance();
            bp.update_all(&scene.cd[f]).unwrap();
            bp.find_pairs();
            black_box(bp.pairs().len() + bp.added().len() + bp.removed().len())
        })
    });
}

/// Frames recorded per scene (fewer for the largest, to bound memory).
fn recorded_frames(n: usize) -> usize {
    if n > 10_000 {
        32
    } else {
        128
    }
}

fn bench(c: &mut Criterion) {
    for n in cd_benches::sizes(&[1_000usize, 10_000, 100_000]) {
        let mut g = c.benchmark_group(format!("broad_{n}"));
        g.sample_size(10).measurement_time(cd_benches::measurement(std::time::Duration::from_secs(3)));
        let mut scene = RecordedScene::record(BroadScene::new(n), recorded_frames(n));
        if n <= 1_000 {
            bench_cd(&mut g, "cd_brute_force", &mut scene, Box::new(BruteForce::<f32, 3>::new()));
        }
        // Incremental SAP pays O(n) crossings per teleported box (2 % teleports per frame is
        // its worst case; see docs/benchmarks.md): run up to 10k only, like the hierarchical
        // grid.
        if n <= 10_000 {
            bench_cd(&mut g, "cd_incremental_sap", &mut scene, Box::new(IncrementalSap::<f32, 3>::new()));
            bench_cd(&mut g, "cd_hierarchical_grid", &mut scene, Box::new(HierarchicalGrid::<f32, 3>::new()));
        }
        bench_cd(&mut g, "cd_dynamic_tree", &mut scene, Box::new(DynamicAabbTree::<f32, 3>::new()));
        bench_cd(&mut g, "cd_sort_and_sweep", &mut scene, Box::new(SortAndSweep::<f32, 3>::new()));
        bench_cd(&mut g, "cd_spatial_hash", &mut scene, Box::new(SpatialHash::<f32, 3>::new()));
        bench_cd(&mut g, "cd_uniform_grid", &mut scene, Box::new(UniformGrid::<f32, 3>::new()));
        bench_cd(&mut g, "cd_coherent_grid", &mut scene, Box::new(CoherentGrid::<f32, 3>::new()));
        bench_cd(&mut g, "cd_loose_octree", &mut scene, Box::new(LooseOctree::<f32, 3>::new()));
        // parry: the rapier pattern.
        bench_parry(&mut g, &mut scene);
        g.finish();
    }
    // The clustered case: boxes on a floor, at every size, so the plot shows how each
    // strategy scales with coherent motion (incremental SAP: O(n + crossings)).
    for n in cd_benches::sizes(&[1_000usize, 10_000, 100_000]) {
        let mut g = c.benchmark_group(format!("broad_floor_{n}"));
        g.sample_size(10).measurement_time(cd_benches::measurement(std::time::Duration::from_secs(3)));
        let mut scene = RecordedScene::record(BroadScene::floor(n), recorded_frames(n));
        bench_cd(
            &mut g,
            "cd_incremental_sap_2_axes",
            &mut scene,
            Box::new(IncrementalSap::<f32, 3>::with_axes(2)),
        );
        bench_cd(&mut g, "cd_incremental_sap", &mut scene, Box::new(IncrementalSap::<f32, 3>::new()));
        bench_cd(&mut g, "cd_sort_and_sweep", &mut scene, Box::new(SortAndSweep::<f32, 3>::new()));
        bench_cd(&mut g, "cd_uniform_grid", &mut scene, Box::new(UniformGrid::<f32, 3>::new()));
        bench_cd(&mut g, "cd_dynamic_tree", &mut scene, Box::new(DynamicAabbTree::<f32, 3>::new()));
        bench_cd(&mut g, "cd_coherent_grid", &mut scene, Box::new(CoherentGrid::<f32, 3>::new()));
        bench_cd(&mut g, "cd_loose_octree", &mut scene, Box::new(LooseOctree::<f32, 3>::new()));
        bench_parry(&mut g, &mut scene);
        g.finish();
    }
}

/// parry's `Bvh` driven the way rapier drives it.
fn bench_parry(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    scene: &mut RecordedScene,
) {
    let mut bvh = Bvh::new();
    let mut ws = BvhWorkspace::default();
    let mut ready = false;
    g.bench_function("parry", |b| {
        if !ready {
            scene.rewind();
            cd_benches::parry_broad_fill(&mut bvh, &mut ws, &scene.parry[0]);
            ready = true;
        }
        b.iter(|| {
            let f = scene.advance();
            black_box(cd_benches::parry_broad_frame(&mut bvh, &mut ws, &scene.parry[f]))
        })
    });
}

criterion_group!(broad, bench);
criterion_main!(broad);
