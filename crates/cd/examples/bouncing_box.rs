//! Spheres and boxes bouncing in a closed box: six half-spaces for walls, no gravity,
//! restitution 1 and no friction, so the bodies keep their energy while they collide with the
//! walls and each other: the balls exactly (less the slow contacts below the restitution
//! threshold), the boxes to about 1–2 % (their four-point restitution is solved point by point,
//! which trades a little energy between the points). Prints the kinetic energy, the contact
//! count and the stage timings every second of simulated time.
//!
//! Run with `cargo run --release -p cd --example bouncing_box`.

use cd::prelude::*;
use nalgebra::{Isometry3, UnitQuaternion, Vector3};

fn main() -> Result<(), WorldError> {
    let config = WorldConfig { gravity: Vector3::zeros(), ..WorldConfig::default() };
    let mut world = World::new(config, Box::new(IncrementalSap::<f64, 3>::new()))?;
    let elastic = Material::new(1.0, 0.0).expect("valid material");
    // The six walls of the cube [-5, 5]³: each half-space's solid side faces outwards.
    for (axis, sign) in [(0, 1.0), (0, -1.0), (1, 1.0), (1, -1.0), (2, 1.0), (2, -1.0)] {
        let mut outward = Vector3::zeros();
        outward[axis] = sign;
        // The half-space is y ≤ 0 of its frame: turn its y axis to point inwards.
        let rotation = UnitQuaternion::rotation_between(&Vector3::y(), &-outward)
            .unwrap_or_else(|| UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f64::consts::PI));
        let pose = Isometry3::from_parts((outward * 5.0).into(), rotation);
        world.add(BodyDesc::fixed(ColliderShape::HalfSpace).with_pose(pose).with_material(elastic))?;
    }
    let mut seed = 12345u64;
    let mut random = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    };
    for k in 0..60 {
        let shape = if k % 2 == 0 { ColliderShape::ball(0.3) } else { ColliderShape::cuboid(0.3, 0.2, 0.25) };
        let at = Vector3::new(random(), random(), random()) * 8.0;
        let velocity = Vector3::new(random(), random(), random()) * 10.0;
        world.add(
            BodyDesc::dynamic(shape)
                .with_pose(Isometry3::translation(at.x, at.y, at.z))
                .with_velocity(velocity, Vector3::zeros())
                .with_material(elastic),
        )?;
    }
    let energy =
        |world: &World<f64>| world.bodies().map(|(_, b)| b.rigid_body().kinetic_energy()).sum::<f64>();
    println!("start: kinetic energy {:.3}", energy(&world));
    for second in 1..=5 {
        let mut contacts = 0;
        for _ in 0..60 {
            contacts += world.step(1.0 / 60.0)?.contact_points;
        }
        let s = world.stats();
        println!(
            "t = {second} s: kinetic energy {:.3}, {contacts} contact points this second, last step: broad {:?}, narrow {:?}, response {:?}",
            energy(&world),
            s.broad_time,
            s.narrow_time,
            s.response_time
        );
    }
    Ok(())
}
