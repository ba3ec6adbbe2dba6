//! The `mid_ray_<n>` workload outside criterion, cd against parry: casts batches of 1,024
//! closest-hit rays at the subdivided bunny, alternating cd's `MeshBvh::cast_ray` with parry's
//! `TriMesh::cast_local_ray` batch by batch (so a shared machine's load falls on both alike),
//! and prints the fastest batch of each. With `pool` > 1 the batches cycle through `pool`
//! different sets of rays: the criterion rows cast the same 1,024 rays every iteration, and
//! the branch predictor learns their paths (parry's time halves, cd's drops by a third), which
//! no application sees. Each library runs alone with `which` = `cd` or `parry`; its batch
//! functions are out of line so `valgrind --tool=callgrind --toggle-collect='*cd_batch*'`
//! (or `*parry_batch*`) counts the casts alone:
//!
//! ```text
//! cargo run --profile bench -p cd-benches --example ray_batches -- [which=both] [levels=1] [batches=256] [pool=64]
//! ```

use cd_benches::{mesh_rays, parry_trimesh, parry_vector, subdivided_bunny, BATCH};
use cd_geom::{Aabb, Ray};
use cd_mid::{MeshBvh, QueryWorkspace};
use parry3d::query::{Ray as PRay, RayCast};
use parry3d::shape::TriMesh as PTriMesh;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Sum of parry's hit parameters over `rays`.
#[inline(never)]
fn parry_batch(mesh: &PTriMesh, rays: &[PRay]) -> f32 {
    rays.iter().map(|r| mesh.cast_local_ray(r, f32::MAX, true).unwrap_or(0.0)).sum()
}

/// Sum of cd's hit parameters over `rays`.
#[inline(never)]
fn cd_batch(mesh: &MeshBvh<f32, Aabb<f32, 3>>, rays: &[Ray<f32, 3>], ws: &mut QueryWorkspace<f32>) -> f32 {
    rays.iter().map(|r| mesh.cast_ray(r, ws).map_or(0.0, |h| h.t)).sum()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let which = args.first().cloned().unwrap_or_else(|| "both".into());
    let number = |i: usize, default: usize| args.get(i).map_or(default, |a| a.parse().expect("a number"));
    let (levels, batches, pool) = (number(1, 1) as u32, number(2, 256), number(3, 64).max(1));
    let mesh = subdivided_bunny(levels);
    let rays = mesh_rays(&mesh, BATCH * pool, 11);
    let theirs = parry_trimesh(&mesh);
    let their_rays: Vec<PRay> =
        rays.iter().map(|r| PRay::new(parry_vector(&r.origin().coords), parry_vector(r.dir()))).collect();
    let ours: MeshBvh<f32, Aabb<f32, 3>> = MeshBvh::new(mesh).expect("builds");
    let mut ws = QueryWorkspace::new();
    let (mut cd, mut parry) = (Duration::MAX, Duration::MAX);
    for k in 0..batches {
        let at = (k % pool) * BATCH..(k % pool + 1) * BATCH;
        if which != "parry" {
            let start = Instant::now();
            black_box(cd_batch(&ours, &rays[at.clone()], &mut ws));
            cd = cd.min(start.elapsed());
        }
        if which != "cd" {
            let start = Instant::now();
            black_box(parry_batch(&theirs, &their_rays[at]));
            parry = parry.min(start.elapsed());
        }
    }
    let micros = |d: Duration| if d == Duration::MAX { f64::NAN } else { d.as_secs_f64() * 1e6 };
    println!(
        "{} triangles, {batches} batches of {BATCH} rays from a pool of {pool} batches: cd {:.1} µs, parry {:.1} µs (ratio {:.2})",
        ours.mesh().len(),
        micros(cd),
        micros(parry),
        micros(cd) / micros(parry)
    );
}
