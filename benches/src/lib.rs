//! Shared, deterministic input generators for the benchmarks: every benchmark feeds `cd` and
//! parry3d the same values (generated here in nalgebra types and converted outside the timed
//! region).

use nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};
use std::time::Duration;

/// Whether this is a quick smoke run (`cargo xtask bench --quick` sets `CD_BENCH_QUICK`): every
/// benchmark still runs, on its smallest input and with short measurements, so the whole suite
/// finishes in minutes. Its numbers are too noisy to publish.
pub fn quick() -> bool {
    std::env::var_os("CD_BENCH_QUICK").is_some()
}

/// The inputs a run measures: all of them, or only the first (smallest) in a quick run.
pub fn sizes<T: Clone>(all: &[T]) -> Vec<T> {
    if quick() {
        all[..1.min(all.len())].to_vec()
    } else {
        all.to_vec()
    }
}

/// A heavy group's measurement time: `full`, or 300 ms in a quick run.
pub fn measurement(full: Duration) -> Duration {
    if quick() {
        Duration::from_millis(300)
    } else {
        full
    }
}

/// A small deterministic xorshift generator, so every run benchmarks identical inputs.
#[derive(Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Rng(seed.max(1))
    }
    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        lo + (hi - lo) * ((self.0 >> 40) as f32 / (1u64 << 24) as f32)
    }
    /// A point in the cube `[-s, s]³`.
    pub fn point(&mut self, s: f32) -> Point3<f32> {
        Point3::new(self.range(-s, s), self.range(-s, s), self.range(-s, s))
    }
    /// A vector in the cube `[-s, s]³`.
    pub fn vector(&mut self, s: f32) -> Vector3<f32> {
        self.point(s).coords
    }
    /// A rotation from uniform Euler angles (not uniform on SO(3); enough for benchmarks).
    pub fn rotation(&mut self) -> UnitQuaternion<f32> {
        let pi = std::f32::consts::PI;
        UnitQuaternion::from_euler_angles(self.range(-pi, pi), self.range(-pi, pi), self.range(-pi, pi))
    }
}

/// One body of the continuous-collision benchmarks: its pose at time 0 and its velocities over
/// the unit step (rotation about its local origin).
#[derive(Clone, Copy)]
pub struct CcdBody {
    /// The pose at time 0.
    pub pose: Isometry3<f32>,
    /// Linear velocity.
    pub linvel: Vector3<f32>,
    /// Angular velocity (rad per unit time, about the body's origin).
    pub angvel: Vector3<f32>,
}

/// The continuous-collision benchmarks' `BATCH` pairs of motions: the bodies start 2.5–4
/// apart, A aimed at B with some scatter, B drifting; with `rotating`, angular velocities up
/// to 2.9 rad per unit time on both.
pub fn ccd_motions(rotating: bool, seed: u64) -> Vec<(CcdBody, CcdBody)> {
    let mut rng = Rng::new(seed);
    (0..BATCH)
        .map(|_| {
            let ca = rng.point(0.5);
            let dir = rng.vector(1.0).try_normalize(1e-3).unwrap_or(Vector3::x());
            let cb = ca + dir * rng.range(2.5, 4.0);
            let spin = |rng: &mut Rng| if rotating { rng.vector(1.7) } else { Vector3::zeros() };
            let a = CcdBody {
                pose: Isometry3::from_parts(ca.coords.into(), rng.rotation()),
                linvel: (cb - ca) * rng.range(0.7, 1.5) + rng.vector(0.4),
                angvel: spin(&mut rng),
            };
            let b = CcdBody {
                pose: Isometry3::from_parts(cb.coords.into(), rng.rotation()),
                linvel: rng.vector(0.5),
                angvel: spin(&mut rng),
            };
            (a, b)
        })
        .collect()
}

/// The two libraries timed in turn in one process, for the harnesses in `benches/examples`
/// (criterion runs one library's rows seconds or minutes after the other's, and this host's
/// speed drifts in between): each of `rounds` rounds times `calls` calls of `cd`, then as many
/// of `parry`; returns the medians over the rounds of the mean time per call, in µs, cd's
/// first. With `only` set to `"cd"` or `"parry"` only that side runs (for callgrind) and the
/// other median is NaN.
pub fn alternating_medians(
    rounds: usize,
    calls: usize,
    only: Option<&str>,
    cd: impl Fn(),
    parry: impl Fn(),
) -> (f64, f64) {
    let time = |f: &dyn Fn()| {
        let start = std::time::Instant::now();
        for _ in 0..calls {
            f();
        }
        start.elapsed().as_secs_f64() * 1e6 / calls as f64
    };
    let (mut cd_t, mut parry_t) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        if only != Some("parry") {
            cd_t.push(time(&cd));
        }
        if only != Some("cd") {
            parry_t.push(time(&parry));
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.total_cmp(b));
        v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
    };
    (median(&mut cd_t), median(&mut parry_t))
}

/// How many input pairs one benchmark iteration processes.
pub const BATCH: usize = 1024;

/// The Stanford bunny as a triangle mesh (public domain; see
/// `crates/cd-bv/tests/data/README.md`), loaded by cd-mid's OBJ reader.
pub fn bunny_mesh() -> cd_mid::TriMesh<f32> {
    cd_mid::TriMesh::from_obj(include_str!("../../crates/cd-bv/tests/data/bunny.obj"))
        .expect("the bunny parses")
}

/// The Stanford bunny's vertices.
pub fn bunny_vertices() -> Vec<Point3<f32>> {
    bunny_mesh().vertices().to_vec()
}

/// The bunny subdivided `levels` times (each triangle split into four at its edge midpoints,
/// shared edges sharing their midpoint): 3,674 · 4^levels triangles, a closed mesh of the
/// sizes the mid-phase benchmarks need (14.7k, 58.8k, 235k, 941k).
pub fn subdivided_bunny(levels: u32) -> cd_mid::TriMesh<f32> {
    let base = bunny_mesh();
    let mut verts = base.vertices().to_vec();
    let mut tris = base.indices().to_vec();
    for _ in 0..levels {
        let mut midpoints = std::collections::HashMap::new();
        let mut next = Vec::with_capacity(tris.len() * 4);
        let mut mid = |a: u32, b: u32, verts: &mut Vec<Point3<f32>>| -> u32 {
            *midpoints.entry((a.min(b), a.max(b))).or_insert_with(|| {
                verts.push(nalgebra::center(&verts[a as usize], &verts[b as usize]));
                (verts.len() - 1) as u32
            })
        };
        for &[a, b, c] in &tris {
            let (ab, bc, ca) = (mid(a, b, &mut verts), mid(b, c, &mut verts), mid(c, a, &mut verts));
            next.extend_from_slice(&[[a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]]);
        }
        tris = next;
    }
    cd_mid::TriMesh::new(verts, tris).expect("subdivision keeps the mesh valid")
}

/// `count` rays from a sphere around the mesh (twice its box's half-diagonal from the box's
/// centre) aimed at random points of its box: the ray batches of the mid-phase benchmarks.
pub fn mesh_rays(mesh: &cd_mid::TriMesh<f32>, count: usize, seed: u64) -> Vec<cd_geom::Ray<f32, 3>> {
    let bb = cd_geom::Aabb::from_points(mesh.vertices()).expect("valid");
    let (c, r) = (bb.center(), bb.half_extents().norm());
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let o = c + rng.vector(1.0).normalize() * r * 2.0;
            let target = c + bb.half_extents().component_mul(&rng.vector(1.0));
            cd_geom::Ray::new(o, target - o).expect("valid")
        })
        .collect()
}

/// `n` points uniformly in a ball of radius 10 (deterministic), the shape of a scanned object's
/// interior: most points are interior, the hull is a small fraction.
pub fn ball_cloud(n: usize, seed: u64) -> Vec<Point3<f32>> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let p = rng.point(10.0);
        if p.coords.norm() <= 10.0 {
            out.push(p);
        }
    }
    out
}

/// `n` points on a sphere of radius `radius` (Fibonacci spiral): all of them are hull vertices.
pub fn sphere_points(n: usize, radius: f32) -> Vec<Point3<f32>> {
    let golden = std::f32::consts::PI * (3.0 - 5f32.sqrt());
    (0..n)
        .map(|i| {
            let y = 1.0 - 2.0 * (i as f32 + 0.5) / n as f32;
            let r = (1.0 - y * y).sqrt();
            let t = golden * i as f32;
            Point3::new(r * t.cos(), y, r * t.sin()) * radius
        })
        .collect()
}

/// A nalgebra vector as parry's (glam) vector.
pub fn parry_vector(v: &Vector3<f32>) -> parry3d::math::Vector {
    parry3d::math::Vector::new(v.x, v.y, v.z)
}

/// `mesh` as parry's triangle mesh (same vertices, same triangles, same order).
pub fn parry_trimesh(mesh: &cd_mid::TriMesh<f32>) -> parry3d::shape::TriMesh {
    let vertices = mesh.vertices().iter().map(|p| parry_vector(&p.coords)).collect();
    parry3d::shape::TriMesh::new(vertices, mesh.indices().to_vec()).expect("valid mesh")
}

/// A nalgebra isometry as parry's pose.
pub fn parry_pose(iso: &Isometry3<f32>) -> parry3d::math::Pose {
    let (t, q) = (iso.translation.vector, iso.rotation);
    parry3d::math::Pose::from_parts(parry_vector(&t), parry3d::math::Rotation::from_xyzw(q.i, q.j, q.k, q.w))
}

/// The broad-phase benchmark scene: `n` boxes with velocities, deterministic from `n`.
#[derive(Clone)]
pub struct BroadScene {
    /// Box centres.
    pub pos: Vec<Vector3<f32>>,
    vel: Vec<Vector3<f32>>,
    half: Vec<f32>,
    side: f32,
    teleport: f32,
    rng: Rng,
}

impl BroadScene {
    /// `n` boxes resting on a floor (thin in y), jittering in place: the clustered case where
    /// every pair overlaps on the vertical axis.
    pub fn floor(n: usize) -> Self {
        let mut s = BroadScene::new(n);
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

    /// `n` boxes (half extents 0.4–1) in a cube of side 4·n^(1/3), moving coherently, 2 % teleporting
    /// each frame.
    pub fn new(n: usize) -> Self {
        let mut rng = Rng::new(n as u64 + 1);
        let side = (n as f32).cbrt() * 4.0;
        let pos = (0..n).map(|_| rng.point(side / 2.0).coords).collect();
        let vel = (0..n).map(|_| rng.vector(0.05)).collect();
        let half = (0..n).map(|_| rng.range(0.4, 1.0)).collect();
        BroadScene { pos, vel, half, side, teleport: 0.02, rng }
    }
    /// Advances one frame (wrapping at the walls, teleporting 2 %).
    pub fn step(&mut self) {
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
    /// Box `i` as a cd AABB.
    pub fn aabb(&self, i: usize) -> cd_geom::Aabb<f32, 3> {
        let c = Point3::from(self.pos[i]);
        cd_geom::Aabb::from_center_half_extents(c, Vector3::repeat(self.half[i])).unwrap()
    }
    /// Box `i` as a parry AABB.
    pub fn paabb(&self, i: usize) -> parry3d::bounding_volume::Aabb {
        let (c, h) = (self.pos[i], self.half[i]);
        parry3d::bounding_volume::Aabb::new(
            parry3d::math::Vector::new(c.x - h, c.y - h, c.z - h),
            parry3d::math::Vector::new(c.x + h, c.y + h, c.z + h),
        )
    }
}

/// parry's `Bvh` filled with `boxes` (ids = indices) the way rapier fills it: inserted with a
/// 0.1 margin, then refitted.
pub fn parry_broad_fill(
    bvh: &mut parry3d::partitioning::Bvh,
    ws: &mut parry3d::partitioning::BvhWorkspace,
    boxes: &[parry3d::bounding_volume::Aabb],
) {
    for (i, aabb) in boxes.iter().enumerate() {
        bvh.insert_or_update_partially(*aabb, i as u32, 0.1);
    }
    bvh.refit(ws);
}

/// One broad-phase frame of parry's `Bvh` driven the way rapier drives it: every box updated
/// (`insert_or_update_partially`, margin 0.1), `refit`, `optimize_incremental`, and the pairs
/// of changed leaves by `traverse_bvtt_single_tree::<true>`; returns their count.
pub fn parry_broad_frame(
    bvh: &mut parry3d::partitioning::Bvh,
    ws: &mut parry3d::partitioning::BvhWorkspace,
    boxes: &[parry3d::bounding_volume::Aabb],
) -> usize {
    for (i, aabb) in boxes.iter().enumerate() {
        bvh.insert_or_update_partially(*aabb, i as u32, 0.1);
    }
    bvh.refit(ws);
    bvh.optimize_incremental(ws);
    let mut count = 0usize;
    bvh.traverse_bvtt_single_tree::<true>(ws, &mut |_, _| count += 1);
    count
}

/// Untimed frames a broad-phase benchmark runs after filling the structure, before it times
/// anything: long enough for every box of the floor scene to have left its first fat box
/// (after about 90 frames at its speeds) and for those departures to spread over the frames,
/// so the timed frames are the steady state a simulation lives in, not the calm after filling.
/// At most [`BROAD_WARM_UP_SECONDS`] of them, though (parry's 100k teleport frame takes 1.5 s).
pub const BROAD_WARM_UP_FRAMES: usize = 300;

/// The time limit of a broad-phase warm-up.
pub const BROAD_WARM_UP_SECONDS: f64 = 10.0;

/// Runs `frame` on up to [`BROAD_WARM_UP_FRAMES`] frames of `stream` (stepped before each),
/// stopping early after [`BROAD_WARM_UP_SECONDS`].
pub fn broad_warm_up(stream: &mut SceneStream, mut frame: impl FnMut(&SceneStream)) {
    let start = std::time::Instant::now();
    for _ in 0..BROAD_WARM_UP_FRAMES {
        if start.elapsed().as_secs_f64() > BROAD_WARM_UP_SECONDS {
            return;
        }
        stream.advance();
        frame(stream);
    }
}

/// A [`BroadScene`] stepped forward for as long as a benchmark runs, each frame's boxes built
/// before the timed code, so a frame times the broad phase and not the scene's random numbers
/// and box construction (which cost as much as parry's whole frame in the floor scene).
///
/// Until 2026-12-06 the benchmarks replayed 128 recorded frames forward and then backward.
/// Motion that retraces a short path is kind to fat boxes: once a box's fat box covers its
/// path it never moves again, which parry's 0.1 margin cannot do. The coherent grid's 10k floor
/// frame measured 0.50 of parry's on that replay and 0.68 on endless forward motion. Each
/// library now sees the same unending motion, from the same start.
#[derive(Clone)]
pub struct SceneStream {
    scene: BroadScene,
    cd: Vec<(u32, cd_geom::Aabb<f32, 3>)>,
    parry: Vec<parry3d::bounding_volume::Aabb>,
}

impl SceneStream {
    /// The stream of `scene`'s frames, starting with its current state.
    pub fn new(scene: BroadScene) -> Self {
        let mut stream = SceneStream { scene, cd: Vec::new(), parry: Vec::new() };
        stream.fill();
        stream
    }

    fn fill(&mut self) {
        let n = self.scene.pos.len();
        self.cd.clear();
        self.cd.extend((0..n).map(|i| (i as u32, self.scene.aabb(i))));
        self.parry.clear();
        self.parry.extend((0..n).map(|i| self.scene.paabb(i)));
    }

    /// The current frame's boxes, cd's type, each with its proxy id (its index), as
    /// `BroadPhase::update_all` takes them.
    pub fn cd(&self) -> &[(u32, cd_geom::Aabb<f32, 3>)] {
        &self.cd
    }

    /// The current frame's boxes, parry's type (id = index).
    pub fn parry(&self) -> &[parry3d::bounding_volume::Aabb] {
        &self.parry
    }

    /// Steps the scene one frame and builds that frame's boxes.
    pub fn advance(&mut self) {
        self.scene.step();
        self.fill();
    }

    /// The number of boxes.
    pub fn len(&self) -> usize {
        self.cd.len()
    }

    /// No boxes?
    pub fn is_empty(&self) -> bool {
        self.cd.is_empty()
    }
}
