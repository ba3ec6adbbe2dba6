//! Impulses between two bodies: linear and angular momentum conserved for any bodies, contact
//! points and normals; kinetic energy conserved with k = 1 and no friction, lost with k < 1;
//! the normal velocity after is exactly −k times the velocity before; friction stays inside
//! Coulomb's cone and never adds energy.

use cd_geom::{Ball, Obb};
use cd_response::{resolve_contact, MassProperties, Material, RigidBody};
use nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};
use proptest::prelude::*;

fn vector(range: f64) -> impl Strategy<Value = Vector3<f64>> {
    [-range..range, -range..range, -range..range].prop_map(|[x, y, z]| Vector3::new(x, y, z))
}

/// A box body with random extents, orientation, density and velocity.
fn body() -> impl Strategy<Value = RigidBody<f64>> {
    (vector(5.0), vector(3.0), [0.1..3.0f64, 0.1..3.0, 0.1..3.0], 0.1..10.0f64, vector(4.0), vector(4.0))
        .prop_map(|(at, angles, [x, y, z], density, v, w)| {
            let rotation = UnitQuaternion::from_euler_angles(angles.x, angles.y, angles.z);
            let obb = Obb::from_rotation(Point3::origin(), rotation, Vector3::new(x, y, z)).unwrap();
            let mut body = RigidBody::new(
                Isometry3::translation(at.x, at.y, at.z),
                MassProperties::cuboid(&obb, density).unwrap(),
            );
            body.linear_velocity = v;
            body.angular_velocity = w;
            body
        })
}

fn relative_normal_speed(a: &RigidBody<f64>, b: &RigidBody<f64>, p: &Point3<f64>, n: &Vector3<f64>) -> f64 {
    (b.velocity_at(p) - a.velocity_at(p)).dot(n)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn momentum_is_conserved_and_the_normal_law_holds(
        mut a in body(), mut b in body(), p in vector(6.0), n in vector(1.0),
        k in 0.0..=1.0f64, mu in 0.0..2.0f64,
    ) {
        prop_assume!(n.norm() > 0.1);
        let (n, p) = (n.normalize(), Point3::from(p));
        let material = Material::new(k, mu).unwrap();
        let before = (a.linear_momentum() + b.linear_momentum(), a.angular_momentum() + b.angular_momentum());
        let energy = a.kinetic_energy() + b.kinetic_energy();
        let un = relative_normal_speed(&a, &b, &p, &n);
        let impulse = resolve_contact(&mut a, &mut b, &p, &n, &material);
        let after = (a.linear_momentum() + b.linear_momentum(), a.angular_momentum() + b.angular_momentum());
        let scale = 1.0 + before.0.norm() + before.1.norm() + impulse.normal * 10.0;
        prop_assert!((after.0 - before.0).norm() <= 1e-9 * scale);
        prop_assert!((after.1 - before.1).norm() <= 1e-9 * scale);
        prop_assert!(impulse.normal >= 0.0);
        prop_assert!(impulse.friction.norm() <= mu * impulse.normal * (1.0 + 1e-12));
        prop_assert!(impulse.friction.dot(&n).abs() <= 1e-9 * (1.0 + impulse.friction.norm()));
        if un >= 0.0 {
            prop_assert_eq!(impulse.normal, 0.0);
        } else if mu == 0.0 {
            let un_after = relative_normal_speed(&a, &b, &p, &n);
            prop_assert!((un_after + k * un).abs() <= 1e-9 * (1.0 + un.abs()));
            let energy_after = a.kinetic_energy() + b.kinetic_energy();
            // ΔE = −½ (1 − k²) u_n² m_eff: zero at k = 1, a loss below.
            prop_assert!(energy_after <= energy * (1.0 + 1e-12) + 1e-12);
            if k == 1.0 {
                prop_assert!((energy_after - energy).abs() <= 1e-9 * (1.0 + energy));
            }
        }
    }

    #[test]
    fn friction_between_balls_never_adds_energy(
        va in vector(5.0), vb in vector(5.0), wa in vector(5.0), wb in vector(5.0),
        n in vector(1.0), k in 0.0..=1.0f64, mu in 0.0..2.0f64, ra in 0.1..2.0f64, rb in 0.1..2.0f64,
    ) {
        prop_assume!(n.norm() > 0.1);
        let n = n.normalize();
        // Two balls touching at the origin along n: A behind it, B ahead.
        let mass = |r: f64| MassProperties::ball(&Ball::new(Point3::origin(), r).unwrap(), 1.0).unwrap();
        let mut a = RigidBody::new(Isometry3::from(-n * ra), mass(ra));
        let mut b = RigidBody::new(Isometry3::from(n * rb), mass(rb));
        (a.linear_velocity, a.angular_velocity, b.linear_velocity, b.angular_velocity) = (va, wa, vb, wb);
        let energy = a.kinetic_energy() + b.kinetic_energy();
        resolve_contact(&mut a, &mut b, &Point3::origin(), &n, &Material::new(k, mu).unwrap());
        prop_assert!(a.kinetic_energy() + b.kinetic_energy() <= energy * (1.0 + 1e-12) + 1e-12);
    }
}

#[test]
fn static_bodies_take_no_impulse_and_two_static_bodies_none_at_all() {
    let ball = MassProperties::ball(&Ball::new(Point3::origin(), 1.0f64).unwrap(), 1.0).unwrap();
    let mut ground = RigidBody::fixed(Isometry3::identity());
    let mut falling = RigidBody::new(Isometry3::translation(0.0, 1.0, 0.0), ball);
    falling.linear_velocity = Vector3::new(1.0, -2.0, 0.0);
    let j = resolve_contact(
        &mut ground,
        &mut falling,
        &Point3::origin(),
        &Vector3::y(),
        &Material::new(1.0, 0.0).unwrap(),
    );
    assert!((j.normal - 4.0 * ball.mass()).abs() < 1e-9);
    assert_eq!(ground.linear_velocity, Vector3::zeros());
    assert!((falling.linear_velocity - Vector3::new(1.0, 2.0, 0.0)).norm() < 1e-12);
    let mut other = RigidBody::fixed(Isometry3::identity());
    other.linear_velocity = Vector3::new(0.0, -1.0, 0.0); // a kinematic body moving into the ground
    let j = resolve_contact(&mut ground, &mut other, &Point3::origin(), &Vector3::y(), &Material::elastic());
    assert_eq!(j.normal, 0.0);
    // A NaN normal is not an approach: no impulse, no NaN in the bodies.
    let j = resolve_contact(
        &mut ground,
        &mut falling,
        &Point3::origin(),
        &Vector3::new(f64::NAN, 0.0, 0.0),
        &Material::elastic(),
    );
    assert_eq!(j.normal, 0.0);
    assert!(falling.linear_velocity.iter().all(|x| x.is_finite()));
}
