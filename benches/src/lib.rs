//! Shared, deterministic input generators for the benchmarks: every benchmark feeds `cd` and
//! parry3d the same values (generated here in nalgebra types and converted outside the timed
//! region).

use nalgebra::{Point3, UnitQuaternion, Vector3};

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

/// The Stanford bunny's vertices (public domain; see `crates/cd-bv/tests/data/README.md`).
pub fn bunny_vertices() -> Vec<Point3<f32>> {
    include_str!("../../crates/cd-bv/tests/data/bunny.obj")
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .map(|l| {
            let v: Vec<f32> = l.split_whitespace().map(|x| x.parse().expect("number")).collect();
            Point3::new(v[0], v[1], v[2])
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
