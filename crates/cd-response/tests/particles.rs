//! Particles: in a box of planes they never leave it and keep their energy with k = 1 (lose it
//! with k < 1); inside a signed-distance sphere they stay inside; neighbour pairs equal brute
//! force; pair collisions conserve momentum and never create energy.

use cd_geom::Plane;
use cd_response::{neighbor_pairs, planes_hit, DistanceGrid, Material, ParticleSystem};
use nalgebra::{Point3, Vector3};
use proptest::prelude::*;

struct Rng(u64);
impl Rng {
    fn f(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn v(&mut self, s: f64) -> Vector3<f64> {
        Vector3::new(self.f() - 0.5, self.f() - 0.5, self.f() - 0.5) * (2.0 * s)
    }
}

const G: Vector3<f64> = Vector3::new(0.0, -9.81, 0.0);

/// The six walls of [-1, 1]³ as half-spaces whose solid sides are outside the box.
fn walls() -> Vec<Plane<f64, 3>> {
    let mut out = Vec::new();
    for a in 0..3 {
        for s in [-1.0, 1.0] {
            let mut n = Vector3::zeros();
            n[a] = s; // outward; the solid is n·x − 1 ≥ 0, i.e. (−n)·x + 1 ≤ 0
            out.push(Plane::new(-n, 1.0).unwrap());
        }
    }
    out
}

fn cloud(n: usize, speed: f64, k: f64) -> ParticleSystem<f64> {
    let mut rng = Rng(7);
    let positions = (0..n).map(|_| Point3::from(rng.v(0.9))).collect();
    let velocities = (0..n).map(|_| rng.v(speed)).collect();
    ParticleSystem::new(positions, velocities, 0.01, Material::new(k, 0.0).unwrap()).unwrap()
}

fn energy(system: &ParticleSystem<f64>) -> f64 {
    system
        .positions
        .iter()
        .zip(&system.velocities)
        .map(|(p, v)| 0.5 * v.norm_squared() - G.dot(&p.coords))
        .sum()
}

#[test]
fn particles_never_leave_a_box_and_keep_their_energy_with_k_1() {
    let walls = walls();
    // Fast particles (up to 60 per unit time: 1 unit per step, half the box) at a coarse step.
    let mut system = cloud(500, 60.0, 1.0);
    let e0 = energy(&system);
    let mut bounces = 0;
    for _ in 0..2000 {
        bounces += system.step(&G, 1.0 / 60.0, |p, d| planes_hit(&walls, p, d));
        for p in &system.positions {
            assert!(p.coords.amax() <= 1.0 + 1e-12, "a particle left the box: {p}");
        }
    }
    let drift = (energy(&system) - e0).abs() / e0;
    println!("{bounces} bounces, energy drift {drift:.2e}");
    assert!(bounces > 10_000);
    // The bounces are exact reflections at the exact crossing; what is left is the step's
    // treatment of gravity (symplectic Euler), whose error does not grow.
    assert!(drift < 2e-3, "energy drift {drift}");
}

#[test]
fn particles_lose_energy_with_k_below_1() {
    let walls = walls();
    let mut system = cloud(200, 10.0, 0.5);
    let mut previous = energy(&system);
    for second in 0..5 {
        for _ in 0..60 {
            system.step(&G, 1.0 / 60.0, |p, d| planes_hit(&walls, p, d));
        }
        let e = energy(&system);
        assert!(e < previous, "second {second}: {e} ≥ {previous}");
        previous = e;
    }
}

#[test]
fn particles_stay_inside_a_distance_grid_container() {
    // Solid outside the ball of radius 2: distance 2 − |p| (negative in the solid).
    let grid =
        DistanceGrid::from_fn(Point3::new(-3.0, -3.0, -3.0), 0.1, [61, 61, 61], |p| 2.0 - p.coords.norm())
            .unwrap();
    let mut system = cloud(300, 20.0, 0.8);
    let mut hits = 0;
    for _ in 0..600 {
        hits += system.step(&G, 1.0 / 60.0, |p, d| grid.segment_hit(p, d));
        for p in &system.positions {
            // The interpolated field's zero set lies within a few thousandths of the sphere at
            // this resolution.
            assert!(
                p.coords.norm() <= 2.0 + 5e-3,
                "a particle left the container: |p| = {}",
                p.coords.norm()
            );
        }
    }
    assert!(hits > 1000);
}

#[test]
fn distance_grid_rejects_bad_input_and_answers_none_outside() {
    let f = |p: &Point3<f64>| p.x;
    assert!(DistanceGrid::from_fn(Point3::origin(), 1.0, [1, 2, 2], f).is_err());
    assert!(DistanceGrid::from_fn(Point3::origin(), 0.0, [2, 2, 2], f).is_err());
    assert!(DistanceGrid::from_fn(Point3::origin(), 1.0, [2, 2, 2], |_| f64::NAN).is_err());
    let grid = DistanceGrid::from_fn(Point3::origin(), 1.0, [3, 3, 3], f).unwrap();
    assert_eq!(grid.distance(&Point3::new(0.5, 0.5, 0.5)), Some(0.5));
    assert_eq!(grid.distance(&Point3::new(2.5, 0.5, 0.5)), None);
    assert_eq!(grid.distance(&Point3::new(f64::NAN, 0.5, 0.5)), None);
}

fn brute_pairs(points: &[Point3<f64>], r: f64) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for i in 0..points.len() {
        for j in i + 1..points.len() {
            if (points[j] - points[i]).norm_squared() <= (2.0 * r) * (2.0 * r) {
                out.push((i as u32, j as u32));
            }
        }
    }
    out
}

proptest! {
    #[test]
    fn neighbor_pairs_equal_brute_force(
        raw in proptest::collection::vec((-5.0..5.0f64, -5.0..5.0f64, -5.0..5.0f64), 0..200),
        r in prop_oneof![Just(0.0), 0.01..1.0f64],
        duplicate in any::<bool>(),
    ) {
        let mut points: Vec<Point3<f64>> = raw.iter().map(|&(x, y, z)| Point3::new(x, y, z)).collect();
        if duplicate && !points.is_empty() {
            points.push(points[0]);
        }
        prop_assert_eq!(neighbor_pairs(&points, r), brute_pairs(&points, r));
    }

    #[test]
    fn pair_collisions_conserve_momentum_and_never_add_energy(seed in 1..u64::MAX, k in 0.0..=1.0f64) {
        let mut rng = Rng(seed);
        let positions = (0..100).map(|_| Point3::from(rng.v(1.0))).collect();
        let velocities = (0..100).map(|_| rng.v(3.0)).collect();
        let mut system = ParticleSystem::new(positions, velocities, 0.1, Material::new(k, 0.0).unwrap()).unwrap();
        let momentum = |s: &ParticleSystem<f64>| s.velocities.iter().sum::<Vector3<f64>>();
        let kinetic = |s: &ParticleSystem<f64>| s.velocities.iter().map(|v| v.norm_squared()).sum::<f64>();
        let (p0, e0) = (momentum(&system), kinetic(&system));
        let pairs = system.collide_pairs();
        prop_assert!(pairs > 0);
        prop_assert!((momentum(&system) - p0).norm() < 1e-9);
        prop_assert!(kinetic(&system) <= e0 * (1.0 + 1e-12));
    }
}
