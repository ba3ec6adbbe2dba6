//! Helpers shared by the cd-mid integration tests.
#![allow(dead_code)]

use cd_mid::TriMesh;
use nalgebra::{Point3, UnitQuaternion};

/// A deterministic xorshift generator.
pub struct Rng(pub u64);
impl Rng {
    pub fn f(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.f()
    }
    pub fn point(&mut self, s: f64) -> Point3<f64> {
        Point3::new(self.range(-s, s), self.range(-s, s), self.range(-s, s))
    }
    pub fn rotation(&mut self) -> UnitQuaternion<f64> {
        // Uniform on SO(3) (Shoemake).
        let (u1, u2, u3) = (self.f(), self.f(), self.f());
        let tau = std::f64::consts::TAU;
        let q = nalgebra::Quaternion::new(
            (1.0 - u1).sqrt() * (tau * u2).sin(),
            (1.0 - u1).sqrt() * (tau * u2).cos(),
            u1.sqrt() * (tau * u3).sin(),
            u1.sqrt() * (tau * u3).cos(),
        );
        UnitQuaternion::from_quaternion(q)
    }
}

/// The Stanford bunny (see `data/README.md`).
pub fn bunny() -> TriMesh<f64> {
    TriMesh::from_obj(include_str!("../data/bunny.obj")).unwrap()
}
