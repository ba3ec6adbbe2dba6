//! A car of four wheel rays driving over a height-field terrain (Real-Time Rendering 25.4):
//! the car's body is a box that only touches the ground when a bump bottoms it out; each wheel
//! is a ray cast straight down
//! from its mount, and the distance to the ground it reports compresses a spring-damper whose
//! force pushes the body up at that corner. A drive force pushes it forward. The terrain is a
//! triangle mesh (sampled from a height function) found through the world's ray queries.
//!
//! Run with `cargo run --release -p cd --example raycast_car`.

use cd::prelude::*;
use nalgebra::{Isometry3, Point3, Vector3};

/// Rolling hills.
fn height(x: f64, z: f64) -> f64 {
    0.4 * (0.35 * x).sin() * (0.3 * z).cos() + 0.15 * (0.9 * x + 0.4).sin()
}

fn terrain(half: f64, n: usize) -> TriMesh<f64> {
    let mut vertices = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            let (x, z) = (-half + 2.0 * half * i as f64 / n as f64, -half + 2.0 * half * j as f64 / n as f64);
            vertices.push(Point3::new(x, height(x, z), z));
        }
    }
    let at = |i: usize, j: usize| (i * (n + 1) + j) as u32;
    let mut triangles = Vec::new();
    for i in 0..n {
        for j in 0..n {
            triangles.push([at(i, j), at(i, j + 1), at(i + 1, j + 1)]);
            triangles.push([at(i, j), at(i + 1, j + 1), at(i + 1, j)]);
        }
    }
    TriMesh::new(vertices, triangles).expect("a valid terrain")
}

fn main() -> Result<(), WorldError> {
    let mut world = World::<f64>::default();
    let ground = CollisionGroups { memberships: 1, filter: u32::MAX };
    world.add(
        BodyDesc::fixed(ColliderShape::triangle_mesh(MeshBvh::new(terrain(40.0, 80)).expect("mesh")))
            .with_groups(ground),
    )?;
    // The body: 4 × 0.6 × 2 m at 300 kg/m³ (1,440 kg). It is in group 2, which the wheel rays
    // skip, and collides with the ground (group 1) only if the springs bottom out.
    let chassis = CollisionGroups { memberships: 2, filter: 1 };
    let car = world.add(
        BodyDesc::dynamic(ColliderShape::cuboid(2.0, 0.3, 1.0))
            .with_density(300.0)
            .with_groups(chassis)
            .with_pose(Isometry3::translation(-30.0, 1.5, 0.0)),
    )?;
    let mass = world.body(car).expect("added").rigid_body().mass.mass();
    let (rest, stiffness, damping) = (0.7, mass * 9.81 / 4.0 / 0.25, mass * 1.5);
    let mounts = [(1.6, 0.9), (1.6, -0.9), (-1.6, 0.9), (-1.6, -0.9)].map(|(x, z)| Point3::new(x, -0.3, z));
    let rays_see = CollisionGroups { memberships: 1, filter: 1 };
    let dt = 1.0 / 60.0;
    for step in 0..=540 {
        let pose = *world.body(car).expect("car").pose();
        let down = pose.rotation * -Vector3::y();
        let mut grounded = 0;
        for mount in &mounts {
            let origin = pose * mount;
            let ray = Ray::new(origin, down).and_then(|r| r.with_max_t(rest)).expect("a valid ray");
            let Some(hit) = world.cast_ray(&ray, &rays_see) else { continue };
            grounded += 1;
            let body = world.body(car).expect("car");
            let compression = rest - hit.t;
            let speed = body.rigid_body().velocity_at(&origin).dot(&-down);
            let force = (stiffness * compression - damping * speed).max(0.0);
            world.apply_impulse(car, &(-down * force * dt), &origin)?;
        }
        // Drive up to 8 m/s.
        if grounded > 0 && world.body(car).expect("car").linear_velocity().norm() < 8.0 {
            let forward = pose.rotation * Vector3::x();
            world.apply_impulse(car, &(forward * mass * 3.0 * dt), &pose.translation.vector.into())?;
        }
        world.step(dt)?;
        if step % 60 == 0 {
            let p = world.body(car).expect("car").pose().translation.vector;
            let v = world.body(car).expect("car").linear_velocity();
            println!(
                "t = {:>4.1} s: x = {:>6.2}, height above ground {:.3} m, speed {:.2} m/s, wheels on the ground {grounded}",
                step as f64 * dt,
                p.x,
                p.y - height(p.x, p.z),
                v.norm()
            );
        }
    }
    Ok(())
}
