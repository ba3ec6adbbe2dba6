//! Runs a sequence of world operations decoded from arbitrary numbers (NaN, infinities and
//! huge values included), on a broad phase the numbers pick, and checks after each one that
//! nothing panicked and that every body's state and every query answer is finite. Shared by
//! the hostile-input property test (`tests/world_hostile.rs`) and the fuzz target
//! `fuzz/fuzz_targets/world_ops.rs`.

use cd::geom::{Aabb, Ray};
use cd::prelude::*;
use nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};

/// Reads numbers in order, repeating zeros once they run out.
struct Numbers<'a> {
    values: &'a [f64],
    at: usize,
}

impl Numbers<'_> {
    fn next(&mut self) -> f64 {
        let v = self.values.get(self.at).copied().unwrap_or(0.0);
        self.at += 1;
        v
    }
    fn vector(&mut self) -> Vector3<f64> {
        Vector3::new(self.next(), self.next(), self.next())
    }
    fn point(&mut self) -> Point3<f64> {
        Point3::from(self.vector())
    }
    fn pose(&mut self) -> Isometry3<f64> {
        let t = self.vector();
        let angles = self.vector();
        let rotation = if angles.iter().all(|x| x.is_finite()) {
            UnitQuaternion::from_euler_angles(angles.x, angles.y, angles.z)
        } else {
            UnitQuaternion::identity()
        };
        Isometry3::from_parts(t.into(), rotation)
    }
    fn index(&mut self, len: usize) -> usize {
        let x = self.next();
        if x.is_finite() && len > 0 {
            (x.abs() as usize) % len
        } else {
            0
        }
    }
    fn done(&self) -> bool {
        self.at >= self.values.len()
    }
}

fn finite_pose(p: &Isometry3<f64>) -> bool {
    p.translation.vector.iter().chain(p.rotation.coords.iter()).all(|x| x.is_finite())
}

fn check_world(world: &World<f64>) {
    for (h, b) in world.bodies() {
        assert!(finite_pose(b.pose()), "{h:?} pose {:?}", b.pose());
        assert!(
            b.linear_velocity().iter().chain(b.angular_velocity().iter()).all(|x| x.is_finite()),
            "{h:?} velocity"
        );
    }
}

/// Every broad phase the world can run on, by the number the exercise decodes.
fn broad_phase(which: usize) -> cd::world::WorldBroadPhase<f64> {
    match which {
        0 => Box::new(IncrementalSap::<f64, 3>::new()),
        1 => Box::new(SortAndSweep::<f64, 3>::new()),
        2 => Box::new(UniformGrid::<f64, 3>::new()),
        3 => Box::new(SpatialHash::<f64, 3>::new()),
        4 => Box::new(HierarchicalGrid::<f64, 3>::new()),
        5 => Box::new(LooseOctree::<f64, 3>::new()),
        6 => Box::new(DynamicAabbTree::<f64, 3>::new()),
        7 => Box::new(CoherentGrid::<f64, 3>::new()),
        _ => Box::new(BruteForce::<f64, 3>::new()),
    }
}

/// Decodes and runs operations until the numbers run out (at most 64).
pub fn run(values: &[f64]) {
    let mut n = Numbers { values, at: 0 };
    // The first number is the contact reuse margin (any value: bad ones are refused), the
    // second the broad phase.
    let margin = n.next();
    let which = n.index(9);
    let config = WorldConfig { contact_reuse_margin: margin, ..WorldConfig::default() };
    let mut world = match World::<f64>::new(config, broad_phase(which)) {
        Ok(world) => world,
        Err(e) => {
            assert!(!(margin.is_finite() && margin >= 0.0), "margin {margin} refused: {e}");
            World::default()
        }
    };
    let mut handles: Vec<BodyHandle> = Vec::new();
    let groups = CollisionGroups::default();
    for _ in 0..64 {
        if n.done() {
            break;
        }
        let op = n.index(10);
        match op {
            0..=3 => {
                let size = n.next();
                let flat = |s: f64| {
                    let tri = cd::geom::Triangle::new(
                        Point3::origin(),
                        Point3::new(s, 0.0, 0.0),
                        Point3::new(0.0, 0.0, s),
                    );
                    tri.map_or(ColliderShape::HalfSpace, ColliderShape::Triangle)
                };
                let shape = match op {
                    0 => ColliderShape::ball(size),
                    1 if size < 1.0 => ColliderShape::lozenge(size, size * 0.6, size * 0.3),
                    1 => ColliderShape::cuboid(size, size * 0.5, size * 0.7),
                    2 => ColliderShape::capsule(size, size * 0.5),
                    // Negative sizes make a static triangle, the others the ground.
                    _ if size < 0.0 => flat(-size),
                    _ => ColliderShape::HalfSpace,
                };
                let pose = n.pose();
                let velocity = n.vector();
                let desc = if op == 3 { BodyDesc::fixed(shape) } else { BodyDesc::dynamic(shape) };
                let ccd = n.next() > 0.0;
                if let Ok(h) =
                    world.add(desc.with_pose(pose).with_velocity(velocity, Vector3::zeros()).with_ccd(ccd))
                {
                    handles.push(h);
                }
            }
            4 => {
                let k = n.index(handles.len());
                if let Some(&h) = handles.get(k) {
                    let _ = world.remove(h);
                }
            }
            5 => {
                let k = n.index(handles.len());
                let pose = n.pose();
                if let Some(&h) = handles.get(k) {
                    let _ = world.set_pose(h, pose);
                }
            }
            6 => {
                let k = n.index(handles.len());
                let (v, w) = (n.vector(), n.vector());
                if let Some(&h) = handles.get(k) {
                    let _ = world.set_velocity(h, v, w);
                    let _ = world.apply_impulse(h, &v, &Point3::origin());
                }
            }
            7 => {
                let dt = n.next();
                if let Ok(stats) = world.step(dt) {
                    assert!(stats.solver.max_penetration.is_finite());
                }
            }
            8 => {
                let (o, d) = (n.point(), n.vector());
                if let Ok(ray) = Ray::new(o, d) {
                    for hit in world.cast_ray_all(&ray, &groups) {
                        assert!(hit.t.is_finite() && hit.point.iter().all(|x| x.is_finite()), "{hit:?}");
                    }
                }
            }
            _ => {
                let (p, r) = (n.point(), n.next());
                let _ = world.bodies_in_ball(&p, r);
                let _ = world.bodies_containing(&p);
                if let Some(c) = world.closest_body(&p, r.abs(), &groups) {
                    assert!(c.distance.is_finite() && c.point.iter().all(|x| x.is_finite()), "{c:?}");
                }
                if let Ok(region) = Aabb::new(p, p + Vector3::repeat(r.abs())) {
                    let _ = world.bodies_in_aabb(&region);
                }
                let v = n.vector();
                if let Ok(Some(hit)) =
                    world.cast_shape(&ColliderShape::ball(0.5), &Isometry3::from(p.coords), &v, 1.0, &groups)
                {
                    assert!(
                        hit.toi.time.is_finite() && hit.toi.point_a.iter().all(|x| x.is_finite()),
                        "{hit:?}"
                    );
                }
            }
        }
        check_world(&world);
    }
}
