//! The `mid_build_boxes_<n>` and `mid_ray_<n>` workloads outside criterion: builds the binned-SAH
//! hierarchy over the subdivided bunny's triangle boxes `repeats` times, alternating with
//! parry's binned `Bvh::from_leaves` on the same boxes (so a shared machine's load falls on
//! both alike), and prints the fastest build of each, the tree's SAH cost and the fastest batch
//! of the bench's 1,024 closest-hit rays through `MeshBvh` built the same way:
//!
//! ```text
//! cargo run --release -p cd-benches --example mesh_build -- [levels=3] [repeats=7]
//! ```

use cd_benches::{mesh_rays, subdivided_bunny, BATCH};
use cd_geom::Aabb;
use cd_mid::{BuildConfig, Builder, Bvh, MeshBvh, QueryWorkspace};
use parry3d::bounding_volume::Aabb as PAabb;
use parry3d::math::Vector;
use parry3d::partitioning::{Bvh as PBvh, BvhBuildStrategy};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<u32> = std::env::args().skip(1).map(|a| a.parse().expect("a number")).collect();
    let levels = args.first().copied().unwrap_or(3);
    let repeats = args.get(1).copied().unwrap_or(7);
    let mesh = subdivided_bunny(levels);
    let boxes: Vec<Aabb<f32, 3>> = (0..mesh.len())
        .map(|i| {
            let t = mesh.triangle(i);
            Aabb::from_points([t.a(), t.b(), t.c()]).expect("valid")
        })
        .collect();
    let v = |p: &nalgebra::Point3<f32>| Vector::new(p.x, p.y, p.z);
    let pboxes: Vec<PAabb> = boxes.iter().map(|b| PAabb::new(v(b.min()), v(b.max()))).collect();
    let config = BuildConfig::with_builder(Builder::BinnedSah).leaf_size(1);
    let (mut cd, mut parry) = (Duration::MAX, Duration::MAX);
    let mut cost = 0.0;
    for _ in 0..repeats {
        let start = Instant::now();
        let tree = black_box(Bvh::<f32, 3, Aabb<f32, 3>>::build(boxes.as_slice(), &config).expect("builds"));
        cd = cd.min(start.elapsed());
        cost = tree.stats().sah_cost;
        let start = Instant::now();
        black_box(PBvh::from_leaves(BvhBuildStrategy::Binned, &pboxes));
        parry = parry.min(start.elapsed());
    }
    let rays = mesh_rays(&mesh, BATCH, 11);
    let bvh: MeshBvh<f32, Aabb<f32, 3>> = MeshBvh::new(mesh).expect("builds");
    let mut ws = QueryWorkspace::new();
    let mut fastest = Duration::MAX;
    let mut hits = 0usize;
    for _ in 0..repeats.max(5) {
        let start = Instant::now();
        for r in &rays {
            hits += black_box(bvh.cast_ray(r, &mut ws)).is_some() as usize;
        }
        fastest = fastest.min(start.elapsed());
    }
    println!(
        "{} boxes: cd SAH build {:.2} ms, parry binned {:.2} ms (ratio {:.2}); SAH cost {:.2} (leaves of 1), \
         MeshBvh SAH cost {:.2}; {} rays fastest batch {:.1} µs ({} hits)",
        boxes.len(),
        cd.as_secs_f64() * 1e3,
        parry.as_secs_f64() * 1e3,
        cd.as_secs_f64() / parry.as_secs_f64(),
        cost,
        bvh.bvh().stats().sah_cost,
        rays.len(),
        fastest.as_secs_f64() * 1e6,
        hits
    );
}
