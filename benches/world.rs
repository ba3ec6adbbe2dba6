//! The collision-detection part of a world step, cd against parry3d on the same frames.
//!
//! A scene of mixed bodies (balls, boxes, capsules, convex hulls) falls into a static mesh
//! bowl with two static bunnies in it. The motion is simulated once with cd's world (outside
//! the timing) and recorded; then both libraries run collision detection on every recorded
//! frame:
//! * **cd**: `World::set_pose` for every moving body, then `World::detect_contacts` (broad
//!   phase update and pairs, mesh mid phase, manifolds, events); row `cd` tests every pair
//!   afresh, row `cd_reuse` carries manifolds over while bodies barely move
//!   (`WorldConfig::contact_reuse_margin`), as parry's own manifolds do;
//! * **parry**, assembled the way rapier does it: every body's AABB (grown by the prediction)
//!   into a `Bvh` with `insert_or_update_partially` and `refit`, the overlapping leaf pairs
//!   from `traverse_bvtt_single_tree`, then `contact_manifolds` per pair with a persistent
//!   manifold vector and workspace per pair (kept in a map, as rapier's narrow phase does).
//!
//! Both keep their state from frame to frame (warm caches, coherent trees). The printed
//! summary compares the number of contact points so the two do comparable work. Both scenes
//! run the 300 steps: at 1,000 bodies the fall ends within them, at 10,000 the last
//! half is a settling pile of 47k pairs (`CD_WORLD_BODIES=1000` runs one scene only).

use std::collections::HashMap;
use std::time::Instant;

use cd::prelude::*;
use cd::world::WorldConfig;
use cd_benches::{bunny_mesh, parry_pose, parry_vector, Rng};
use criterion::{criterion_group, criterion_main, Criterion};
use nalgebra::{Isometry3, Point3, Vector3};
use parry3d::bounding_volume::BoundingVolume;
use parry3d::partitioning::{Bvh, BvhWorkspace};
use parry3d::query::{
    ContactManifold, ContactManifoldsWorkspace, DefaultQueryDispatcher, PersistentQueryDispatcher,
};
use parry3d::shape::{
    Ball as PBall, Capsule as PCapsule, ConvexPolyhedron as PHull, Cuboid, Shape as PShape,
    TriMesh as PTriMesh,
};

const PREDICTION: f32 = 0.02;

/// The `cd_reuse` row's `WorldConfig::contact_reuse_margin`: the prediction distance again
/// (parry's manifolds are reused too: rapier-style persistence, see `try_update_contacts`).
const REUSE_MARGIN: f32 = 0.02;

/// cd's broad phase for the moving bodies (static ones live in the world's own tree): the
/// world's default, incremental sweep-and-prune without margin (see `World::default`). `CD_WORLD_BROAD=grid|tree|sweep|coherent` picks another
/// for comparison (measured 2026-11-23, broad stage per frame at 1k / 10k bodies: SAP 0.24 /
/// 0.90 ms, uniform grid 0.62 / 2.1 ms, tree 0.27 / 2.0 ms plus its re-insertions).
fn broad_phase() -> cd::world::WorldBroadPhase<f32> {
    match std::env::var("CD_WORLD_BROAD").as_deref() {
        Ok("grid") => Box::new(UniformGrid::<f32, 3>::new()),
        Ok("tree") => Box::new(DynamicAabbTree::<f32, 3>::new()),
        Ok("sweep") => Box::new(SortAndSweep::<f32, 3>::new()),
        Ok("coherent") => Box::new(CoherentGrid::<f32, 3>::new()),
        _ => Box::new(IncrementalSap::<f32, 3>::new().margin(0.0)),
    }
}

/// A body of the scene, described once for both libraries.
enum Body {
    Ball(f32),
    Cuboid(Vector3<f32>),
    Capsule(f32, f32),
    Hull(Vec<Point3<f32>>),
    Mesh(cd::mid::TriMesh<f32>),
}

struct Scene {
    bodies: Vec<(Body, Isometry3<f32>, bool)>,
    /// Poses of the dynamic bodies (in body order) at every frame.
    frames: Vec<Vec<Isometry3<f32>>>,
}

/// A bowl: a floor grid with a raised rim, `half` wide.
fn bowl(half: f32) -> cd::mid::TriMesh<f32> {
    let n = 24;
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            let (x, z) = (-half + 2.0 * half * i as f32 / n as f32, -half + 2.0 * half * j as f32 / n as f32);
            let rim = i == 0 || j == 0 || i == n || j == n;
            let s = if rim { 1.15 } else { 1.0 };
            vertices.push(Point3::new(x * s, if rim { 4.0 } else { 0.0 }, z * s));
        }
    }
    let at = |i: usize, j: usize| (i * (n + 1) + j) as u32;
    for i in 0..n {
        for j in 0..n {
            triangles.push([at(i, j), at(i, j + 1), at(i + 1, j + 1)]);
            triangles.push([at(i, j), at(i + 1, j + 1), at(i + 1, j)]);
        }
    }
    cd::mid::TriMesh::new(vertices, triangles).expect("valid bowl")
}

/// The bunny scaled to about 3 units and set on the floor at `(x, z)`.
fn bunny_at(x: f32, z: f32) -> cd::mid::TriMesh<f32> {
    let mesh = bunny_mesh();
    let lo = mesh.vertices().iter().fold(Vector3::repeat(f32::MAX), |m, p| m.inf(&p.coords));
    let hi = mesh.vertices().iter().fold(Vector3::repeat(f32::MIN), |m, p| m.sup(&p.coords));
    let scale = 3.0 / (hi - lo).max();
    mesh.map_vertices(|p| {
        let q = (p.coords - lo) * scale;
        Point3::new(q.x + x, q.y, q.z + z)
    })
    .expect("scaling keeps the mesh valid")
}

fn scene(count: usize, frames: usize) -> Scene {
    let side = (count as f32).cbrt().ceil() as usize;
    let half = side as f32 * 0.55 + 2.0;
    let mut bodies = vec![
        (Body::Mesh(bowl(half)), Isometry3::identity(), false),
        (Body::Mesh(bunny_at(-half * 0.5, -half * 0.5)), Isometry3::identity(), false),
        (Body::Mesh(bunny_at(half * 0.3, half * 0.2)), Isometry3::identity(), false),
    ];
    let mut rng = Rng::new(42);
    let hull: Vec<Point3<f32>> =
        (0..12).map(|_| rng.point(1.0).coords.normalize().scale(0.3).into()).collect();
    for k in 0..count {
        let (i, j, l) = (k % side, (k / side) % side, k / (side * side));
        let at = Vector3::new(
            (i as f32 - side as f32 / 2.0) * 1.0,
            4.0 + l as f32 * 1.0,
            (j as f32 - side as f32 / 2.0) * 1.0,
        );
        let body = match k % 4 {
            0 => Body::Ball(0.3),
            1 => Body::Cuboid(Vector3::new(0.3, 0.2, 0.25)),
            2 => Body::Capsule(0.2, 0.15),
            _ => Body::Hull(hull.clone()),
        };
        bodies.push((body, Isometry3::from_parts(at.into(), rng.rotation()), true));
    }
    // Simulate once with cd's world and record the dynamic poses.
    let mut world = World::<f32>::new(WorldConfig::default(), broad_phase()).unwrap();
    let handles: Vec<(BodyHandle, bool)> = bodies
        .iter()
        .map(|(body, pose, dynamic)| {
            let shape = cd_shape(body);
            let desc = if *dynamic { BodyDesc::dynamic(shape) } else { BodyDesc::fixed(shape) };
            (world.add(desc.with_pose(*pose)).unwrap(), *dynamic)
        })
        .collect();
    let mut recorded = Vec::with_capacity(frames);
    for _ in 0..frames {
        world.step(1.0 / 60.0).unwrap();
        recorded.push(handles.iter().filter(|h| h.1).map(|h| *world.body(h.0).unwrap().pose()).collect());
    }
    Scene { bodies, frames: recorded }
}

fn cd_shape(body: &Body) -> ColliderShape<f32> {
    match body {
        Body::Ball(r) => ColliderShape::ball(*r),
        Body::Cuboid(h) => ColliderShape::cuboid(h.x, h.y, h.z),
        Body::Capsule(hh, r) => ColliderShape::capsule(*hh, *r),
        Body::Hull(points) => ColliderShape::convex_hull(cd::bv::convex_hull_3d(points).expect("hull")),
        Body::Mesh(mesh) => ColliderShape::triangle_mesh(MeshBvh::new(mesh.clone()).expect("mesh")),
    }
}

fn parry_shape(body: &Body) -> Box<dyn PShape> {
    let v = |p: &Point3<f32>| parry_vector(&p.coords);
    match body {
        Body::Ball(r) => Box::new(PBall::new(*r)),
        Body::Cuboid(h) => Box::new(Cuboid::new(parry_vector(h))),
        Body::Capsule(hh, r) => Box::new(PCapsule::new_y(*hh, *r)),
        Body::Hull(points) => {
            Box::new(PHull::from_convex_hull(&points.iter().map(v).collect::<Vec<_>>()).expect("hull"))
        }
        Body::Mesh(mesh) => Box::new(
            PTriMesh::new(mesh.vertices().iter().map(v).collect(), mesh.indices().to_vec()).expect("mesh"),
        ),
    }
}

/// cd's collision detection over all frames; returns the contact points of the last frame.
struct CdRun {
    world: World<f32>,
    dynamic: Vec<BodyHandle>,
}

impl CdRun {
    fn new(scene: &Scene, reuse: f32) -> Self {
        let config = WorldConfig { contact_reuse_margin: reuse, ..WorldConfig::default() };
        let mut world = World::<f32>::new(config, broad_phase()).unwrap();
        let mut dynamic = Vec::new();
        for (body, pose, is_dynamic) in &scene.bodies {
            let desc =
                if *is_dynamic { BodyDesc::dynamic(cd_shape(body)) } else { BodyDesc::fixed(cd_shape(body)) };
            let h = world.add(desc.with_pose(*pose)).unwrap();
            if *is_dynamic {
                dynamic.push(h);
            }
        }
        Self { world, dynamic }
    }

    fn frame(&mut self, poses: &[Isometry3<f32>]) -> usize {
        for (h, pose) in self.dynamic.iter().zip(poses) {
            self.world.set_pose(*h, *pose).unwrap();
        }
        self.world.detect_contacts().unwrap().contact_points
    }
}

/// A pair's persistent manifolds and workspace, as rapier keeps them.
type PairManifolds = (Vec<ContactManifold<(), ()>>, Option<ContactManifoldsWorkspace>);

/// parry's pipeline state.
struct ParryRun {
    shapes: Vec<Box<dyn PShape>>,
    poses: Vec<parry3d::math::Pose>,
    dynamic: Vec<bool>,
    bvh: Bvh,
    ws: BvhWorkspace,
    pairs: Vec<(u32, u32)>,
    manifolds: HashMap<(u32, u32), PairManifolds>,
}

impl ParryRun {
    fn new(scene: &Scene) -> Self {
        let shapes: Vec<Box<dyn PShape>> = scene.bodies.iter().map(|b| parry_shape(&b.0)).collect();
        let poses: Vec<_> = scene.bodies.iter().map(|b| parry_pose(&b.1)).collect();
        let mut bvh = Bvh::new();
        for (i, (shape, pose)) in shapes.iter().zip(&poses).enumerate() {
            bvh.insert(shape.compute_aabb(pose).loosened(PREDICTION), i as u32);
        }
        Self {
            shapes,
            poses,
            dynamic: scene.bodies.iter().map(|b| b.2).collect(),
            bvh,
            ws: BvhWorkspace::default(),
            pairs: Vec::new(),
            manifolds: HashMap::new(),
        }
    }

    fn frame(&mut self, frame: &[parry3d::math::Pose]) -> usize {
        let mut moving = frame.iter();
        for i in 0..self.shapes.len() {
            if self.dynamic[i] {
                self.poses[i] = *moving.next().expect("one pose per dynamic body");
                let aabb = self.shapes[i].compute_aabb(&self.poses[i]).loosened(PREDICTION);
                self.bvh.insert_or_update_partially(aabb, i as u32, 0.0);
            }
        }
        self.bvh.refit(&mut self.ws);
        self.pairs.clear();
        let pairs = &mut self.pairs;
        self.bvh
            .traverse_bvtt_single_tree::<false>(&mut self.ws, &mut |a, b| pairs.push((a.min(b), a.max(b))));
        let mut points = 0;
        for &(a, b) in &self.pairs {
            if !self.dynamic[a as usize] && !self.dynamic[b as usize] {
                continue;
            }
            let (manifolds, workspace) = self.manifolds.entry((a, b)).or_default();
            let pos12 = self.poses[a as usize].inv_mul(&self.poses[b as usize]);
            DefaultQueryDispatcher
                .contact_manifolds(
                    &pos12,
                    &*self.shapes[a as usize],
                    &*self.shapes[b as usize],
                    PREDICTION,
                    manifolds,
                    workspace,
                )
                .expect("supported pair");
            points += manifolds.iter().map(|m| m.points.len()).sum::<usize>();
        }
        points
    }
}

/// cd's world with contact reuse margin `reuse` after one untimed pass over the frames, which
/// prints its contact points, stage split and work counters.
fn cd_run_with_summary(scene: &Scene, reuse: f32, label: &str) -> CdRun {
    let mut run = CdRun::new(scene, reuse);
    let (mut points, mut broad, mut mid, mut narrow) = (0, 0.0, 0.0, 0.0);
    let (mut pairs, mut reused, mut candidates, mut tests) = (0, 0, 0, 0);
    for f in &scene.frames {
        points += run.frame(f);
        let s = run.world.stats();
        broad += s.broad_time.as_secs_f64();
        mid += s.mid_time.as_secs_f64();
        narrow += s.narrow_time.as_secs_f64();
        pairs += s.tested_pairs;
        reused += s.reused_pairs;
        candidates += s.work.mid_candidates;
        tests += s.work.narrow_tests;
    }
    let total = Instant::now();
    for f in &scene.frames {
        run.frame(f);
    }
    let per_frame = |x: f64| x * 1e3 / scene.frames.len() as f64;
    let count = |x: usize| x / scene.frames.len();
    println!(
        "  {label}: {points} contact points; per frame: broad {:.3} ms, mid {:.3} ms, narrow {:.3} ms, total with pose updates {:.3} ms; {} pairs tested, {} reused, {} mid-phase candidates, {} narrow tests",
        per_frame(broad),
        per_frame(mid),
        per_frame(narrow),
        per_frame(total.elapsed().as_secs_f64()),
        count(pairs),
        count(reused),
        count(candidates),
        count(tests)
    );
    run
}

fn bench_world(c: &mut Criterion) {
    let mut runs =
        if cd_benches::quick() { vec![(1000usize, 30usize)] } else { vec![(1000, 300), (10_000, 300)] };
    // `CD_WORLD_BODIES=1000` runs one scene only (building and timing the 10k one takes ten
    // minutes).
    if let Some(only) = std::env::var("CD_WORLD_BODIES").ok().and_then(|v| v.parse::<usize>().ok()) {
        runs.retain(|r| r.0 == only);
    }
    for (count, frames) in runs {
        let scene = scene(count, frames);
        let parry_frames: Vec<Vec<parry3d::math::Pose>> =
            scene.frames.iter().map(|f| f.iter().map(parry_pose).collect()).collect();

        // One untimed pass each: contact counts and cd's stage split.
        println!("world {count} bodies × {frames} frames:");
        let mut cd_exact = cd_run_with_summary(&scene, 0.0, "cd");
        let mut cd_reuse = cd_run_with_summary(&scene, REUSE_MARGIN, "cd with contact reuse");
        let mut parry_run = ParryRun::new(&scene);
        let parry_points: usize = parry_frames.iter().map(|f| parry_run.frame(f)).sum();
        println!("  parry: {parry_points} contact points");

        let mut group = c.benchmark_group(format!("world/{count}_bodies_{frames}_frames"));
        group.sample_size(10);
        group.bench_function("cd", |b| {
            b.iter(|| scene.frames.iter().map(|f| cd_exact.frame(f)).sum::<usize>());
        });
        group.bench_function("cd_reuse", |b| {
            b.iter(|| scene.frames.iter().map(|f| cd_reuse.frame(f)).sum::<usize>());
        });
        group.bench_function("parry", |b| {
            b.iter(|| parry_frames.iter().map(|f| parry_run.frame(f)).sum::<usize>());
        });
        group.finish();
    }
}

criterion_group!(benches, bench_world);
criterion_main!(benches);
