//! The `mid_ray_<n>` workload outside criterion, for counting rather than timing: casts the
//! bench's 1,024 rays at the subdivided bunny `repeats` times through cd's `MeshBvh::cast_ray`
//! and prints the traversal's cost counters (box tests and triangle tests per ray) and the
//! fastest batch's time (the least disturbed one on a shared machine). Run under
//! `valgrind --tool=callgrind` it gives instruction counts that do not move with the load of a
//! shared machine:
//!
//! ```text
//! cargo run --release -p cd-benches --example mesh_rays -- [levels=1] [repeats=20]
//! ```

use cd_benches::{mesh_rays, subdivided_bunny, BATCH};
use cd_geom::Aabb;
use cd_mid::{MeshBvh, QueryWorkspace};
use std::hint::black_box;

fn main() {
    let args: Vec<u32> = std::env::args().skip(1).map(|a| a.parse().expect("a number")).collect();
    let levels = args.first().copied().unwrap_or(1);
    let repeats = args.get(1).copied().unwrap_or(20);
    let mesh = subdivided_bunny(levels);
    let rays = mesh_rays(&mesh, BATCH, 11);
    let cd: MeshBvh<f32, Aabb<f32, 3>> = MeshBvh::new(mesh).expect("builds");
    let mut ws = QueryWorkspace::new();
    let mut hits = 0usize;
    // The fastest batch: on a shared machine the minimum is the least disturbed measurement.
    let mut fastest = std::time::Duration::MAX;
    for _ in 0..repeats {
        let start = std::time::Instant::now();
        for r in &rays {
            hits += black_box(cd.cast_ray(r, &mut ws)).is_some() as usize;
        }
        fastest = fastest.min(start.elapsed());
    }
    let casts = (repeats as usize * rays.len()) as f64;
    println!(
        "{} triangles, {} casts, {} hits; per ray: {:.1} box tests, {:.1} triangle tests; fastest batch of {} rays {:.1} µs",
        cd.mesh().len(),
        casts,
        hits,
        ws.stats.volume_tests as f64 / casts,
        ws.stats.primitive_tests as f64 / casts,
        rays.len(),
        fastest.as_secs_f64() * 1e6
    );
}
