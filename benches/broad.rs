//! Broad phases against parry3d's `Bvh` used the way rapier uses it. One iteration is one full
//! frame: move every box (coherent motion, 2 % teleport each frame), update the broad phase,
//! find the pairs (and, for cd, the added/removed events). Groups are `broad_<n>`.
//!
//! parry reports pairs of fattened boxes (margin 0.1); cd's pairs are exact. Both see the same
//! motion.

use cd_broad::*;
use cd_geom::Aabb;
use criterion::{criterion_group, criterion_main, Criterion};
use nalgebra::{Point3, Vector3};
use parry3d::bounding_volume::Aabb as PAabb;
use parry3d::math::Vector;
use parry3d::partitioning::{Bvh, BvhWorkspace};
use std::hint::black_box;

/// A deterministic scene of `n` boxes with velocities.
struct Scene {
    pos: Vec<Vector3<f32>>,
    vel: Vec<Vector3<f32>>,
    half: Vec<f32>,
    side: f32,
    teleport: f32,
    rng: cd_benches::Rng,
}

impl Scene {
    /// `n` boxes resting on a floor (thin in y), jittering in place: the clustered case where
    /// every pair overlaps on the vertical axis.
    fn floor(n: usize) -> Self {
        let mut s = Scene::new(n);
        for (p, v) in s.pos.iter_mut().zip(s.vel.iter_mut()) {
            p.y = 0.0;
            v.y = 0.0;
            *v *= 0.2;
        }
        s.side = (n as f32).sqrt() * 2.5;
        let h = s.side / 2.0;
        for p in s.pos.iter_mut() {
            p.x = p.x / (n as f32).cbrt() / 2.0 * h;
            p.z = p.z / (n as f32).cbrt() / 2.0 * h;
        }
        s.teleport = 0.0;
        s
    }

    fn new(n: usize) -> Self {
        let mut rng = cd_benches::Rng::new(n as u64 + 1);
        let side = (n as f32).cbrt() * 4.0;
        let pos = (0..n).map(|_| rng.point(side / 2.0).coords).collect();
        let vel = (0..n).map(|_| rng.vector(0.05)).collect();
        let half = (0..n).map(|_| rng.range(0.4, 1.0)).collect();
        Scene { pos, vel, half, side, teleport: 0.02, rng }
    }
    /// Advances one frame (wrapping at the walls, teleporting 2 %).
    fn step(&mut self) {
        let h = self.side / 2.0;
        for i in 0..self.pos.len() {
            if self.rng.range(0.0, 1.0) < self.teleport {
                self.pos[i] = self.rng.point(h).coords;
            } else {
                self.pos[i] += self.vel[i];
                for a in 0..3 {
                    if self.pos[i][a].abs() > h {
                        self.vel[i][a] = -self.vel[i][a];
                    }
                }
            }
        }
    }
    fn aabb(&self, i: usize) -> Aabb<f32, 3> {
        let c = Point3::from(self.pos[i]);
        Aabb::from_center_half_extents(c, Vector3::repeat(self.half[i])).unwrap()
    }
    fn paabb(&self, i: usize) -> PAabb {
        let (c, h) = (self.pos[i], self.half[i]);
        PAabb::new(Vector::new(c.x - h, c.y - h, c.z - h), Vector::new(c.x + h, c.y + h, c.z + h))
    }
}

fn bench_cd(
    c: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    mut scene: Scene,
    mut bp: Box<dyn BroadPhase<f32, 3>>,
) {
    let n = scene.pos.len();
    for i in 0..n {
        bp.insert(i as u32, scene.aabb(i)).unwrap();
    }
    bp.find_pairs();
    c.bench_function(name, |b| {
        b.iter(|| {
            scene.step();
            for i in 0..n {
                bp.update(i as u32, scene.aabb(i)).unwrap();
            }
            bp.find_pairs();
            black_box(bp.pairs().len() + bp.added().len() + bp.removed().len())
        })
    });
}

fn bench(c: &mut Criterion) {
    for n in cd_benches::sizes(&[1_000usize, 10_000, 100_000]) {
        let mut g = c.benchmark_group(format!("broad_{n}"));
        g.sample_size(10).measurement_time(cd_benches::measurement(std::time::Duration::from_secs(3)));
        if n <= 1_000 {
            bench_cd(&mut g, "cd_brute_force", Scene::new(n), Box::new(BruteForce::<f32, 3>::new()));
        }
        // Incremental SAP pays O(n) swaps per teleported box and the tree a re-insertion with
        // candidate rebuild: both are run up to 10k only (2 % teleports per frame is their
        // worst case; see docs/benchmarks.md).
        if n <= 10_000 {
            bench_cd(&mut g, "cd_incremental_sap", Scene::new(n), Box::new(IncrementalSap::<f32, 3>::new()));
            bench_cd(&mut g, "cd_dynamic_tree", Scene::new(n), Box::new(DynamicAabbTree::<f32, 3>::new()));
            bench_cd(
                &mut g,
                "cd_hierarchical_grid",
                Scene::new(n),
                Box::new(HierarchicalGrid::<f32, 3>::new()),
            );
        }
        bench_cd(&mut g, "cd_sort_and_sweep", Scene::new(n), Box::new(SortAndSweep::<f32, 3>::new()));
        bench_cd(&mut g, "cd_spatial_hash", Scene::new(n), Box::new(SpatialHash::<f32, 3>::new()));
        bench_cd(&mut g, "cd_uniform_grid", Scene::new(n), Box::new(UniformGrid::<f32, 3>::new()));
        // parry: the rapier pattern.
        bench_parry(&mut g, Scene::new(n));
        g.finish();
    }
    // The clustered case: boxes on a floor.
    let n = if cd_benches::quick() { 1_000 } else { 10_000 };
    let mut g = c.benchmark_group(format!("broad_floor_{n}"));
    g.sample_size(10).measurement_time(cd_benches::measurement(std::time::Duration::from_secs(3)));
    bench_cd(
        &mut g,
        "cd_incremental_sap_2_axes",
        Scene::floor(n),
        Box::new(IncrementalSap::<f32, 3>::with_axes(2)),
    );
    bench_cd(&mut g, "cd_incremental_sap", Scene::floor(n), Box::new(IncrementalSap::<f32, 3>::new()));
    bench_cd(&mut g, "cd_sort_and_sweep", Scene::floor(n), Box::new(SortAndSweep::<f32, 3>::new()));
    bench_cd(&mut g, "cd_uniform_grid", Scene::floor(n), Box::new(UniformGrid::<f32, 3>::new()));
    bench_cd(&mut g, "cd_dynamic_tree", Scene::floor(n), Box::new(DynamicAabbTree::<f32, 3>::new()));
    bench_parry(&mut g, Scene::floor(n));
    g.finish();
}

/// parry's `Bvh` driven the way rapier drives it.
fn bench_parry(g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>, mut scene: Scene) {
    let n = scene.pos.len();
    {
        let mut bvh = Bvh::new();
        let mut ws = BvhWorkspace::default();
        for i in 0..n {
            bvh.insert_or_update_partially(scene.paabb(i), i as u32, 0.1);
        }
        bvh.refit(&mut ws);
        g.bench_function("parry", |b| {
            b.iter(|| {
                scene.step();
                for i in 0..n {
                    bvh.insert_or_update_partially(scene.paabb(i), i as u32, 0.1);
                }
                bvh.refit(&mut ws);
                bvh.optimize_incremental(&mut ws);
                let mut count = 0usize;
                bvh.traverse_bvtt_single_tree::<true>(&mut ws, &mut |_, _| count += 1);
                black_box(count)
            })
        });
    }
}

criterion_group!(broad, bench);
criterion_main!(broad);
