//! Mid phase against parry3d on identical meshes and rays (f32):
//!
//! - `mid_build_<n>`: hierarchy over a mesh of `n` triangles (the bunny subdivided): cd's binned
//!   SAH `MeshBvh` vs parry's `TriMesh::new`.
//! - `mid_build_boxes_<n>`: the bare hierarchy over the triangles' boxes, every cd builder vs
//!   parry's `Bvh::from_leaves` (binned and PLOC).
//! - `mid_ray_<n>`: 1024 closest-hit rays per iteration, cd `MeshBvh::cast_ray` (its 8-wide
//!   copy of the tree), the binary traversal and explicit 4-/8-wide `WideBvh`s vs parry
//!   `TriMesh::cast_local_ray`; `mid_ray_100k_rays_<n>`: 10⁵ rays per iteration on every mesh,
//!   `cast_ray` vs parry; `mid_ray_any_<n>`: the same 1024 rays as any-hit (shadow) queries, cd
//!   `MeshBvh::ray_hits` (8-wide) and the binary traversal vs parry `intersects_local_ray`.
//! - `mid_aabb_<n>`: 1024 box queries per iteration (boxes around mesh vertices), cd
//!   `MeshBvh::triangles_in_aabb_into` (8-wide walk plus the exact triangle/box test) and the
//!   binary walk vs parry's `TriMesh::bvh().intersect_aabb` (leaf boxes only, no triangle test:
//!   less work than cd's).
//! - `mid_mesh_<overlap>`: bunny vs a moved and rotated bunny, boolean (cd `first_overlap` vs
//!   parry `intersection_test`), and cd's full pair list alone (`all_pairs_cd`, no parry
//!   counterpart, so no ratio).
//! - `mid_refit_<n>`: refit of a deformed mesh vs a rebuild (cd only).
//!
//! Before timing, each group checks that both libraries agree (hits, parameters, booleans) and
//! prints any disagreement.

use cd_benches::{mesh_rays, parry_pose, parry_trimesh, subdivided_bunny, Rng, BATCH};
use cd_geom::{Aabb, Obb, Ray, WatertightRay};
use cd_mid::query::Front;
use cd_mid::{
    BuildConfig, Builder, Bvh, DopUpdate, KdopTree, MeshBvh, Motion, QueryWorkspace, SatLiteObb, SplitRule,
    TriMesh, WideBvh,
};
use criterion::{criterion_group, criterion_main, Criterion};
use nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};
use parry3d::bounding_volume::Aabb as PAabb;
use parry3d::math::{Pose, Vector};
use parry3d::partitioning::{Bvh as PBvh, BvhBuildStrategy};
use parry3d::query::{intersection_test, Ray as PRay, RayCast};
use parry3d::shape::TriMesh as PTriMesh;
use std::hint::black_box;

type CdMesh = MeshBvh<f32, Aabb<f32, 3>>;

fn v(p: &Vector3<f32>) -> Vector {
    Vector::new(p.x, p.y, p.z)
}

/// Each triangle's box, in triangle order.
fn triangle_boxes(mesh: &TriMesh<f32>) -> Vec<Aabb<f32, 3>> {
    (0..mesh.len())
        .map(|i| {
            let t = mesh.triangle(i);
            Aabb::from_points([t.a(), t.b(), t.c()]).expect("valid")
        })
        .collect()
}

/// Meshes of about 15k, 235k and 941k triangles.
fn meshes() -> Vec<(String, TriMesh<f32>)> {
    cd_benches::sizes(&[1u32, 3, 4])
        .into_iter()
        .map(|l| {
            let m = subdivided_bunny(l);
            (format!("{}k", m.len() / 1000), m)
        })
        .collect()
}

fn build(c: &mut Criterion) {
    for (name, mesh) in meshes() {
        // The mesh hierarchy as users build it: cd's MeshBvh (binned SAH) vs parry's TriMesh.
        let mut g = c.benchmark_group(format!("mid_build_{name}"));
        g.sample_size(10);
        let pm_verts: Vec<Vector> = mesh.vertices().iter().map(|p| v(&p.coords)).collect();
        let pm_idx = mesh.indices().to_vec();
        g.bench_function("cd", |b| b.iter(|| black_box(CdMesh::new(mesh.clone()).expect("builds"))));
        // The same build with both halves of large nodes on the machine's two cores (parry's
        // build is single-threaded: this row shows what the `rayon` feature buys, not a like
        // for like comparison).
        let parallel = BuildConfig::default().parallel(true);
        g.bench_function("cd_parallel", |b| {
            b.iter(|| black_box(CdMesh::with_config(mesh.clone(), &parallel).expect("builds")))
        });
        g.bench_function("parry", |b| {
            b.iter(|| black_box(PTriMesh::new(pm_verts.clone(), pm_idx.clone()).expect("builds")))
        });
        g.finish();
        // The bare hierarchy over precomputed boxes (one primitive per leaf), every cd builder
        // against parry's two.
        let mut g = c.benchmark_group(format!("mid_build_boxes_{name}"));
        g.sample_size(10);
        let boxes = triangle_boxes(&mesh);
        let pboxes: Vec<PAabb> =
            boxes.iter().map(|b| PAabb::new(v(&b.min().coords), v(&b.max().coords))).collect();
        // The slow builders are skipped on the largest mesh (incremental insertion takes
        // seconds there; the k-DOP rules and PLOC are shown on the smaller two).
        let builders: Vec<Builder> = if mesh.len() > 500_000 {
            vec![Builder::BinnedSah, Builder::Median, Builder::Lbvh]
        } else {
            Builder::ALL.to_vec()
        };
        for builder in builders {
            let config = BuildConfig::with_builder(builder).leaf_size(1);
            g.bench_function(format!("cd_{}", builder.name()), |b| {
                b.iter(|| {
                    black_box(Bvh::<f32, 3, Aabb<f32, 3>>::build(boxes.as_slice(), &config).expect("builds"))
                })
            });
        }
        g.bench_function("parry_binned", |b| {
            b.iter(|| black_box(PBvh::from_leaves(BvhBuildStrategy::Binned, &pboxes)))
        });
        g.bench_function("parry_ploc", |b| {
            b.iter(|| black_box(PBvh::from_leaves(BvhBuildStrategy::Ploc, &pboxes)))
        });
        g.finish();
    }
}

/// Sum of the closest-hit parameters of `rays` through an explicit wide hierarchy.
fn wide_rays<const W: usize>(
    wide: &WideBvh<f32, W>,
    mesh: &TriMesh<f32>,
    rays: &[Ray<f32, 3>],
    ws: &mut QueryWorkspace<f32>,
) -> f32 {
    let mut n = 0.0f32;
    for r in rays {
        let prepared = WatertightRay::new(r);
        let leaf = |tri: u32, _| prepared.hit(&mesh.triangle(tri as usize)).map(|h| h.t);
        n += wide.ray_closest(r, ws, leaf).map_or(0.0, |h| h.1);
    }
    n
}

fn ray_cast(c: &mut Criterion) {
    for (name, mesh) in meshes().into_iter().take(2) {
        let cd = CdMesh::new(mesh.clone()).expect("builds");
        let pm = parry_trimesh(&mesh);
        let rays = mesh_rays(&mesh, BATCH, 11);
        let prays: Vec<PRay> = rays.iter().map(|r| PRay::new(v(&r.origin().coords), v(r.dir()))).collect();
        let mut ws = QueryWorkspace::new();
        // Cross-check: same hits, same parameters up to f32 rounding.
        let mut disagree = 0;
        for (r, pr) in rays.iter().zip(&prays) {
            let a = cd.cast_ray(r, &mut ws).map(|h| h.t);
            let b = pm.cast_local_ray(pr, f32::MAX, true);
            match (a, b) {
                (Some(x), Some(y)) if (x - y).abs() <= 1e-4 * (1.0 + x.abs()) => {}
                (None, None) => {}
                _ => disagree += 1,
            }
        }
        let hits = rays.iter().filter(|r| cd.cast_ray(r, &mut ws).is_some()).count();
        println!("mid_ray_{name}: {hits}/{} rays hit; {disagree} disagreements with parry", rays.len());
        let mut g = c.benchmark_group(format!("mid_ray_{name}"));
        g.bench_function("cd", |b| {
            b.iter(|| {
                let mut n = 0.0f32;
                for r in &rays {
                    n += cd.cast_ray(r, &mut ws).map_or(0.0, |h| h.t);
                }
                black_box(n)
            })
        });
        g.bench_function("cd_binary", |b| {
            b.iter(|| {
                let mut n = 0.0f32;
                for r in &rays {
                    n += cd.cast_ray_binary(r, &mut ws).map_or(0.0, |h| h.t);
                }
                black_box(n)
            })
        });
        let wide4: WideBvh<f32, 4> = WideBvh::from_binary(cd.bvh());
        let wide8: WideBvh<f32, 8> = WideBvh::from_binary(cd.bvh());
        g.bench_function("cd_wide4", |b| b.iter(|| black_box(wide_rays(&wide4, &mesh, &rays, &mut ws))));
        g.bench_function("cd_wide8", |b| b.iter(|| black_box(wide_rays(&wide8, &mesh, &rays, &mut ws))));
        g.bench_function("parry", |b| {
            b.iter(|| {
                let mut n = 0.0f32;
                for r in &prays {
                    n += pm.cast_local_ray(r, f32::MAX, true).unwrap_or(0.0);
                }
                black_box(n)
            })
        });
        g.finish();
        // Any hit (shadow rays): cd's `ray_hits` (the 8-wide tree), the same query over the
        // binary tree, and parry's `intersects_local_ray`; both libraries must agree on every
        // ray first.
        let shadow_disagree = rays
            .iter()
            .zip(&prays)
            .filter(|(r, pr)| cd.ray_hits(r, &mut ws) != pm.intersects_local_ray(pr, f32::MAX))
            .count();
        println!("mid_ray_any_{name}: {shadow_disagree} disagreements with parry");
        let mut g = c.benchmark_group(format!("mid_ray_any_{name}"));
        g.bench_function("cd", |b| {
            b.iter(|| black_box(rays.iter().filter(|r| cd.ray_hits(r, &mut ws)).count()))
        });
        g.bench_function("cd_binary", |b| {
            b.iter(|| {
                let (nodes, order) = (cd.bvh().nodes(), cd.bvh().primitive_order());
                black_box(
                    rays.iter()
                        .filter(|r| {
                            let prepared = WatertightRay::new(r);
                            let leaf = |tri: u32, _| prepared.hit(&mesh.triangle(tri as usize)).map(|h| h.t);
                            cd_mid::query::ray_any(nodes, order, r, &mut ws, leaf).is_some()
                        })
                        .count(),
                )
            })
        });
        g.bench_function("parry", |b| {
            b.iter(|| black_box(prays.iter().filter(|r| pm.intersects_local_ray(r, f32::MAX)).count()))
        });
        g.finish();
    }
    // Box queries: 1,024 boxes around mesh vertices, a few dozen triangles each.
    for (name, mesh) in meshes().into_iter().take(2) {
        let cd = CdMesh::new(mesh.clone()).expect("builds");
        let pm = parry_trimesh(&mesh);
        let bb = Aabb::from_points(mesh.vertices()).expect("valid");
        let size = bb.half_extents().norm();
        let mut rng = Rng::new(41);
        let regions: Vec<Aabb<f32, 3>> = (0..BATCH)
            .map(|k| {
                let c = mesh.vertices()[(k * 7919) % mesh.vertices().len()];
                let h = rng.vector(1.0).abs() * (0.02 * size) + Vector3::repeat(0.002 * size);
                Aabb::from_center_half_extents(c, h).expect("valid")
            })
            .collect();
        let pregions: Vec<PAabb> =
            regions.iter().map(|r| PAabb::new(v(&r.min().coords), v(&r.max().coords))).collect();
        let mut ws = QueryWorkspace::new();
        let mut out = Vec::new();
        ws.take_stats();
        let found: usize = regions.iter().map(|r| cd.triangles_in_aabb(r, &mut ws).len()).sum();
        let stats = ws.take_stats();
        let boxes: usize = pregions.iter().map(|r| pm.bvh().intersect_aabb(r).count()).sum();
        println!(
            "mid_aabb_{name}: {found} triangles meet the boxes (parry: {boxes} leaf boxes meet them); \
             per query {:.1} box tests, {:.1} triangle tests",
            stats.volume_tests as f64 / BATCH as f64,
            stats.primitive_tests as f64 / BATCH as f64
        );
        let mut g = c.benchmark_group(format!("mid_aabb_{name}"));
        g.bench_function("cd", |b| {
            b.iter(|| {
                let mut n = 0;
                for r in &regions {
                    cd.triangles_in_aabb_into(r, &mut ws, &mut out);
                    n += out.len();
                }
                black_box(n)
            })
        });
        g.bench_function("cd_binary", |b| {
            b.iter(|| {
                black_box(
                    regions.iter().map(|r| cd.triangles_in_aabb_binary(r, &mut ws).len()).sum::<usize>(),
                )
            })
        });
        // The walk alone, leaf boxes only (what parry's query does): an 8-wide tree with a
        // triangle per leaf, as parry's.
        let leaf_boxes = triangle_boxes(&mesh);
        let one_per_leaf = BuildConfig::default().leaf_size(1);
        let wide_boxes: WideBvh<f32, 8> = WideBvh::from_binary(
            &Bvh::<f32, 3, Aabb<f32, 3>>::build(leaf_boxes.as_slice(), &one_per_leaf).expect("builds"),
        );
        g.bench_function("cd_walk_only", |b| {
            b.iter(|| {
                let mut n = 0usize;
                for r in &regions {
                    wide_boxes.query_aabb(r, &mut ws, |_, _| n += 1);
                }
                black_box(n)
            })
        });
        g.bench_function("parry", |b| {
            b.iter(|| black_box(pregions.iter().map(|r| pm.bvh().intersect_aabb(r).count()).sum::<usize>()))
        });
        g.finish();
    }
    // The batch size: 10⁵ rays per iteration on every mesh, the default closest-hit
    // query against parry's (the variants above are compared on the smaller batches).
    for (name, mesh) in meshes() {
        let cd = CdMesh::new(mesh.clone()).expect("builds");
        let pm = parry_trimesh(&mesh);
        let rays = mesh_rays(&mesh, RAY_BATCH, 29);
        let prays: Vec<PRay> = rays.iter().map(|r| PRay::new(v(&r.origin().coords), v(r.dir()))).collect();
        let mut ws = QueryWorkspace::new();
        let hits = rays.iter().filter(|r| cd.cast_ray(r, &mut ws).is_some()).count();
        let theirs = prays.iter().filter(|r| pm.cast_local_ray(r, f32::MAX, true).is_some()).count();
        println!("mid_ray_100k_rays_{name}: {hits} hits (parry {theirs}) of {RAY_BATCH} rays");
        let mut g = c.benchmark_group(format!("mid_ray_100k_rays_{name}"));
        g.sample_size(10);
        g.bench_function("cd", |b| {
            b.iter(|| {
                black_box(rays.iter().map(|r| cd.cast_ray(r, &mut ws).map_or(0.0, |h| h.t)).sum::<f32>())
            })
        });
        g.bench_function("parry", |b| {
            b.iter(|| {
                black_box(
                    prays.iter().map(|r| pm.cast_local_ray(r, f32::MAX, true).unwrap_or(0.0)).sum::<f32>(),
                )
            })
        });
        g.finish();
    }
}

/// Rays per iteration of the `mid_ray_100k_rays_<n>` groups.
const RAY_BATCH: usize = 100_000;

fn mesh_mesh(c: &mut Criterion) {
    let mesh = subdivided_bunny(0);
    let cd = CdMesh::new(mesh.clone()).expect("builds");
    let pm = parry_trimesh(&mesh);
    let mut ws = QueryWorkspace::new();
    // The bunny is about 10 units across: deep overlap, partial, grazing, apart.
    for (label, offset) in [("deep", 1.0f32), ("partial", 4.0), ("graze", 7.5), ("apart", 14.0)] {
        let rot = UnitQuaternion::from_euler_angles(0.3, 0.5, 0.2);
        let iso = Isometry3::from_parts(Vector3::new(offset, offset * 0.5, 0.0).into(), rot);
        let m = Motion::from_isometry(&iso);
        let (p1, p2) = (Pose::IDENTITY, parry_pose(&iso));
        let cd_hit = cd.first_overlap(&cd, &m, &mut ws).is_some();
        let parry_hit = intersection_test(&p1, &pm, &p2, &pm).map(|r| r.intersecting).unwrap_or(false);
        let pairs = cd.overlapping_triangles(&cd, &m, &mut ws).len();
        println!("mid_mesh_{label}: cd {cd_hit} parry {parry_hit} ({pairs} intersecting triangle pairs)");
        let mut g = c.benchmark_group(format!("mid_mesh_{label}"));
        g.bench_function("cd", |b| b.iter(|| black_box(cd.first_overlap(&cd, &m, &mut ws))));
        g.bench_function("parry", |b| {
            b.iter(|| black_box(intersection_test(&p1, &pm, &p2, &pm).map(|r| r.intersecting)))
        });
        g.bench_function("all_pairs_cd", |b| {
            b.iter(|| black_box(cd.overlapping_triangles(&cd, &m, &mut ws).len()))
        });
        g.finish();
    }
}

/// cd-only comparisons the issue asks to measure: the OBB tree's 15-axis test against SAT lite,
/// and front tracking against full queries over a coherent motion.
fn obb_tree_and_front(c: &mut Criterion) {
    let mesh = subdivided_bunny(0);
    let config = BuildConfig::with_builder(Builder::ObbMean);
    let full: MeshBvh<f32, Obb<f32, 3>> = MeshBvh::with_config(mesh.clone(), &config).expect("builds");
    let lite: MeshBvh<f32, SatLiteObb<f32>> = MeshBvh::with_config(mesh.clone(), &config).expect("builds");
    let aabb = CdMesh::new(mesh.clone()).expect("builds");
    let iso = Isometry3::from_parts(
        Vector3::new(4.0, 2.0, 0.0).into(),
        UnitQuaternion::from_euler_angles(0.3, 0.5, 0.2),
    );
    let m = Motion::from_isometry(&iso);
    let mut ws = QueryWorkspace::new();
    let count = |label: &str, pairs: usize, ws: &mut QueryWorkspace<f32>| {
        let s = ws.take_stats();
        println!(
            "mid_obbtree: {label}: {pairs} pairs, {} volume tests, {} triangle tests",
            s.volume_tests, s.primitive_tests
        );
    };
    ws.take_stats();
    let n = full.overlapping_triangles(&full, &m, &mut ws).len();
    count("obb 15-axis", n, &mut ws);
    let n = lite.overlapping_triangles(&lite, &m, &mut ws).len();
    count("obb sat-lite", n, &mut ws);
    let n = aabb.overlapping_triangles(&aabb, &m, &mut ws).len();
    count("aabb (sah)", n, &mut ws);
    let kdop: KdopTree<f32, 9> = KdopTree::build(mesh.clone(), SplitRule::Splatter, 4).expect("builds");
    for update in [DopUpdate::Approximate, DopUpdate::Tight] {
        let n = kdop.overlapping_triangles(&kdop, &m, update, &mut ws).len();
        count(&format!("18-dop tree, {update:?} update"), n, &mut ws);
    }
    let mut g = c.benchmark_group("mid_obbtree");
    g.bench_function("kdop18_approximate", |b| {
        b.iter(|| black_box(kdop.overlapping_triangles(&kdop, &m, DopUpdate::Approximate, &mut ws).len()))
    });
    g.bench_function("kdop18_tight", |b| {
        b.iter(|| black_box(kdop.overlapping_triangles(&kdop, &m, DopUpdate::Tight, &mut ws).len()))
    });
    g.bench_function("obb15", |b| b.iter(|| black_box(full.overlapping_triangles(&full, &m, &mut ws).len())));
    g.bench_function("obb_sat_lite", |b| {
        b.iter(|| black_box(lite.overlapping_triangles(&lite, &m, &mut ws).len()))
    });
    g.bench_function("aabb_sah", |b| {
        b.iter(|| black_box(aabb.overlapping_triangles(&aabb, &m, &mut ws).len()))
    });
    g.finish();

    // 60 frames of a slow turn while overlapping.
    let motions: Vec<Motion<f32, 3>> = (0..60)
        .map(|f| {
            let f = f as f32;
            Motion::from_isometry(&Isometry3::new(
                Vector3::new(4.0 + 0.01 * f, 2.0, 0.0),
                Vector3::new(0.0, 0.003 * f, 0.0),
            ))
        })
        .collect();
    let mut g = c.benchmark_group("mid_front_60_frames");
    g.bench_function("full_queries", |b| {
        b.iter(|| motions.iter().map(|m| aabb.overlapping_triangles(&aabb, m, &mut ws).len()).sum::<usize>())
    });
    g.bench_function("front_tracking", |b| {
        b.iter(|| {
            let mut front = Front::new();
            motions
                .iter()
                .map(|m| aabb.overlapping_triangles_from_front(&aabb, m, &mut front, &mut ws).len())
                .sum::<usize>()
        })
    });
    g.finish();
}

fn refit(c: &mut Criterion) {
    let mesh = subdivided_bunny(if cd_benches::quick() { 1 } else { 3 });
    let name = format!("{}k", mesh.len() / 1000);
    let moved: Vec<Point3<f32>> =
        mesh.vertices().iter().map(|p| p + Vector3::new((p.y * 40.0).sin() * 0.002, 0.0, 0.0)).collect();
    let deformed = mesh.with_vertices(moved).expect("valid");
    let bvh = Bvh::<f32, 3, Aabb<f32, 3>>::new(&mesh).expect("builds");
    let mut g = c.benchmark_group(format!("mid_refit_{name}"));
    g.sample_size(10);
    g.bench_function("cd_refit", |b| {
        b.iter(|| {
            let mut t = bvh.clone();
            black_box(t.refit(&deformed).expect("same size"))
        })
    });
    g.bench_function("cd_rebuild", |b| {
        b.iter(|| black_box(Bvh::<f32, 3, Aabb<f32, 3>>::new(&deformed).expect("builds")))
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_secs(2));
    targets = build, ray_cast, mesh_mesh, obb_tree_and_front, refit
}
criterion_main!(benches);
