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

/// A nalgebra isometry as parry's pose.
pub fn parry_pose(iso: &Isometry3<f32>) -> parry3d::math::Pose {
    let (t, q) = (iso.translation.vector, iso.rotation);
    parry3d::math::Pose::from_parts(parry_vector(&t), parry3d::math::Rotation::from_xyzw(q.i, q.j, q.k, q.w))
}
