//! A minimal rigid-body pipeline for the solver tests: brute-force pairs, cd-narrow manifolds,
//! the contact solver, semi-implicit Euler. (The facade's world does the same with a broad
//! phase; here the point is to test the response on its own.)

use cd_geom::{Ball, Obb, Plane};
use cd_narrow::{manifold, Manifold, PairCache, Shape};
use cd_response::{
    ContactManifold, ContactPoint, ContactSolver, MassProperties, Material, RigidBody, SolveReport,
};
use nalgebra::{Isometry3, Point3, Vector3};

/// What a body is made of, in its own frame (centred at the frame's origin).
#[derive(Clone, Copy, Debug)]
pub enum Geometry {
    /// A half-space `n·x + d ≤ 0` in world space (static bodies only).
    Ground(Vector3<f64>, f64),
    /// A ball of this radius.
    Ball(f64),
    /// A box of these half extents.
    Cuboid(Vector3<f64>),
}

pub struct Scene {
    pub bodies: Vec<RigidBody<f64>>,
    pub geometry: Vec<Geometry>,
    pub solver: ContactSolver<f64>,
    pub material: Material<f64>,
    pub gravity: Vector3<f64>,
    pub prediction: f64,
    caches: Vec<PairCache<f64>>,
}

impl Scene {
    pub fn new(solver: ContactSolver<f64>, material: Material<f64>, gravity: Vector3<f64>) -> Self {
        Self { bodies: vec![], geometry: vec![], solver, material, gravity, prediction: 0.05, caches: vec![] }
    }

    pub fn add_ground(&mut self, normal: Vector3<f64>, d: f64) -> usize {
        self.bodies.push(RigidBody::fixed(Isometry3::identity()));
        self.geometry.push(Geometry::Ground(normal, d));
        self.bodies.len() - 1
    }

    pub fn add(&mut self, geometry: Geometry, pose: Isometry3<f64>, density: f64) -> usize {
        let mass = match geometry {
            Geometry::Ball(r) => MassProperties::ball(&Ball::new(Point3::origin(), r).unwrap(), density),
            Geometry::Cuboid(h) => MassProperties::cuboid(
                &Obb::from_rotation(Point3::origin(), Default::default(), h).unwrap(),
                density,
            ),
            Geometry::Ground(..) => unreachable!("grounds are added by add_ground"),
        };
        self.bodies.push(RigidBody::new(pose, mass.unwrap()));
        self.geometry.push(geometry);
        self.bodies.len() - 1
    }

    /// Total energy: kinetic plus potential in the gravity field.
    pub fn energy(&self) -> f64 {
        self.bodies
            .iter()
            .filter(|b| b.is_dynamic())
            .map(|b| b.kinetic_energy() - b.mass.mass() * self.gravity.dot(&b.world_center().coords))
            .sum()
    }

    pub fn step(&mut self, dt: f64) -> SolveReport<f64> {
        for body in &mut self.bodies {
            body.integrate_velocity(&self.gravity, dt);
        }
        let manifolds = self.contacts();
        let report = self.solver.solve(&mut self.bodies, &manifolds, dt).unwrap();
        for body in &mut self.bodies {
            if body.is_dynamic() {
                body.integrate_position(dt);
            }
        }
        report
    }

    /// The contact manifolds of every pair (brute force).
    pub fn contacts(&mut self) -> Vec<ContactManifold<f64>> {
        let n = self.bodies.len();
        self.caches.resize(n * n, PairCache::default());
        let mut out = Vec::new();
        let mut m = Manifold::default();
        for i in 0..n {
            for j in i + 1..n {
                if !self.bodies[i].is_dynamic() && !self.bodies[j].is_dynamic() {
                    continue;
                }
                let (gi, gj) = (self.world(i), self.world(j));
                let (si, sj) = (gi.shape(), gj.shape());
                manifold(si, sj, self.prediction, &mut self.caches[i * n + j], &mut m).unwrap();
                if m.is_empty() {
                    continue;
                }
                let mut cm = ContactManifold::new(i, j, m.normal, self.material);
                for p in m.points() {
                    cm.push(ContactPoint {
                        point_a: p.point_a,
                        point_b: p.point_b,
                        distance: p.distance,
                        id: p.id,
                    });
                }
                out.push(cm);
            }
        }
        out
    }

    fn world(&self, i: usize) -> WorldShape {
        let pose = &self.bodies[i].pose;
        let center = Point3::from(pose.translation.vector);
        match self.geometry[i] {
            Geometry::Ground(n, d) => WorldShape::Ground(Plane::new(n, d).unwrap()),
            Geometry::Ball(r) => WorldShape::Ball(Ball::new(center, r).unwrap()),
            Geometry::Cuboid(h) => WorldShape::Cuboid(Obb::from_rotation(center, pose.rotation, h).unwrap()),
        }
    }
}

enum WorldShape {
    Ground(Plane<f64, 3>),
    Ball(Ball<f64, 3>),
    Cuboid(Obb<f64, 3>),
}

impl WorldShape {
    fn shape(&self) -> Shape<'_, f64> {
        match self {
            WorldShape::Ground(p) => Shape::HalfSpace(p),
            WorldShape::Ball(b) => Shape::Ball(b),
            WorldShape::Cuboid(o) => Shape::Box(o),
        }
    }
}
