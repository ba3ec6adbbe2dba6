//! The sequential-impulse solver in small scenes: elastic bounces keep their energy, inelastic
//! ones lose it, a ball dropped on the ground settles without sinking or jitter, momentum is
//! conserved between free bodies, and a stack of boxes stays up for 1,000 steps. Plus the typed
//! errors of bad input.

mod scene;

use cd_response::{
    ContactManifold, ContactPoint, ContactSolver, Material, PositionCorrection, RigidBody, SolverConfig,
    SolverError,
};
use nalgebra::{Isometry3, Point3, Vector3};
use scene::{Geometry, Scene};

const GRAVITY: Vector3<f64> = Vector3::new(0.0, -9.81, 0.0);

fn material(k: f64, mu: f64) -> Material<f64> {
    Material::new(k, mu).unwrap()
}

#[test]
fn an_elastic_ball_keeps_bouncing_to_its_height() {
    let dt = 1.0 / 600.0;
    let mut scene = Scene::new(ContactSolver::default(), material(1.0, 0.0), GRAVITY);
    scene.add_ground(Vector3::y(), 0.0);
    let ball = scene.add(Geometry::Ball(0.5), Isometry3::translation(0.0, 3.0, 0.0), 1.0);
    let e0 = scene.energy();
    let mut worst: f64 = 0.0;
    let mut bounces = 0;
    for _ in 0..6000 {
        let falling = scene.bodies[ball].linear_velocity.y < 0.0;
        scene.step(dt);
        bounces += usize::from(falling && scene.bodies[ball].linear_velocity.y > 0.0);
        worst = worst.max((scene.energy() - e0).abs() / e0);
    }
    println!("{bounces} bounces, worst energy drift {worst:.2e}");
    assert!(bounces >= 5);
    assert!(worst < 0.01, "energy drift {worst}");
}

#[test]
fn an_inelastic_ball_loses_energy_at_every_bounce_and_comes_to_rest() {
    let dt = 1.0 / 60.0;
    let mut scene = Scene::new(ContactSolver::default(), material(0.5, 0.3), GRAVITY);
    scene.add_ground(Vector3::y(), 0.0);
    let ball = scene.add(Geometry::Ball(0.5), Isometry3::translation(0.0, 3.0, 0.0), 1.0);
    scene.bodies[ball].linear_velocity = Vector3::new(1.0, 0.0, 0.0);
    let mut peaks = vec![];
    let mut previous_vy = 0.0;
    for _ in 0..600 {
        scene.step(dt);
        let vy = scene.bodies[ball].linear_velocity.y;
        if previous_vy > 0.0 && vy <= 0.0 {
            peaks.push(scene.bodies[ball].world_center().y);
        }
        previous_vy = vy;
    }
    assert!(peaks.len() >= 2, "peaks {peaks:?}");
    assert!(peaks.windows(2).all(|w| w[1] < w[0]), "peaks {peaks:?}");
    assert!(peaks[0] < 3.0 * 0.5, "the first rebound keeps at most k² of the drop: {peaks:?}");
    // On the ground, friction has turned the sliding into rolling without slipping (v = ω r,
    // at 5/7 of the sliding speed for a solid ball) and nothing bounces any more.
    let b = &scene.bodies[ball];
    let contact_velocity = b.velocity_at(&(b.world_center() - Vector3::new(0.0, 0.5, 0.0)));
    assert!(contact_velocity.norm() < 1e-6, "slips at {contact_velocity}");
    assert!(b.linear_velocity.y.abs() < 1e-9 + GRAVITY.norm() / 60.0);
    // (Exactly 5/7 for a ball sliding on the ground; the friction of the bounces before it
    // landed for good shifts that a little.)
    assert!((b.linear_velocity.x - 5.0 / 7.0).abs() < 0.02, "rolls at {}", b.linear_velocity.x);
}

#[test]
fn a_resting_ball_neither_sinks_nor_jitters() {
    let dt = 1.0 / 60.0;
    let mut scene = Scene::new(ContactSolver::default(), material(0.3, 0.5), GRAVITY);
    scene.add_ground(Vector3::y(), 0.0);
    let ball = scene.add(Geometry::Ball(0.5), Isometry3::translation(0.0, 1.0, 0.0), 1.0);
    for _ in 0..120 {
        scene.step(dt);
    }
    let slop = scene.solver.config().slop;
    let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
    for _ in 0..600 {
        scene.step(dt);
        let y = scene.bodies[ball].world_center().y;
        (low, high) = (low.min(y), high.max(y));
        assert!(scene.bodies[ball].linear_velocity.norm() < 1e-9 + GRAVITY.norm() * dt);
    }
    println!("resting height in [{low}, {high}]");
    assert!(low > 0.5 - 2.0 * slop, "sank to {low}");
    assert!(high < 0.5 + 1e-3, "hovers at {high}");
    assert!(high - low < 1e-4, "jitters between {low} and {high}");
}

#[test]
fn momentum_is_conserved_between_free_bodies() {
    // No gravity, no ground: balls and boxes thrown at each other.
    let mut scene = Scene::new(ContactSolver::default(), material(0.7, 0.4), Vector3::zeros());
    let a =
        scene.add(Geometry::Cuboid(Vector3::new(0.5, 0.3, 0.4)), Isometry3::translation(-2.0, 0.1, 0.0), 2.0);
    let b = scene.add(Geometry::Ball(0.6), Isometry3::translation(2.0, 0.0, 0.2), 1.0);
    let c =
        scene.add(Geometry::Cuboid(Vector3::new(0.2, 0.7, 0.3)), Isometry3::translation(0.0, 2.5, 0.0), 3.0);
    scene.bodies[a].linear_velocity = Vector3::new(3.0, 0.0, 0.0);
    scene.bodies[a].angular_velocity = Vector3::new(0.0, 0.0, 2.0);
    scene.bodies[b].linear_velocity = Vector3::new(-3.0, 0.5, 0.0);
    scene.bodies[c].linear_velocity = Vector3::new(0.0, -3.0, 0.1);
    // Contact impulses are equal and opposite at one point, so every solve conserves linear
    // and angular momentum (measured at the poses the impulses were computed for: the split
    // impulse then moves bodies without changing velocities, and free rotation of a box is
    // integrated without its gyroscopic term, neither of which is the solver's business).
    let total = |bodies: &[RigidBody<f64>]| {
        bodies.iter().fold((Vector3::zeros(), Vector3::zeros()), |(p, l), b| {
            (p + b.linear_momentum(), l + b.angular_momentum())
        })
    };
    let dt = 1.0 / 60.0;
    let mut touched = 0;
    for _ in 0..240 {
        let before = scene.bodies.clone();
        let manifolds = scene.contacts();
        touched += scene.solver.solve(&mut scene.bodies, &manifolds, dt).unwrap().points;
        let after: Vec<RigidBody<f64>> = before
            .iter()
            .zip(&scene.bodies)
            .map(|(old, new)| RigidBody {
                linear_velocity: new.linear_velocity,
                angular_velocity: new.angular_velocity,
                ..*old
            })
            .collect();
        let ((p0, l0), (p, l)) = (total(&before), total(&after));
        assert!((p - p0).norm() < 1e-9 * (1.0 + p0.norm()), "{p} vs {p0}");
        assert!((l - l0).norm() < 1e-9 * (1.0 + l0.norm()), "{l} vs {l0}");
        scene.bodies.iter_mut().for_each(|b| b.integrate_position(dt));
    }
    assert!(touched > 0, "the bodies never met");
}

#[test]
fn a_stack_of_boxes_stays_up_for_1000_steps() {
    for correction in [PositionCorrection::SplitImpulse, PositionCorrection::Baumgarte] {
        let config = SolverConfig { correction, ..SolverConfig::default() };
        let mut scene = Scene::new(ContactSolver::new(config).unwrap(), material(0.0, 0.6), GRAVITY);
        scene.add_ground(Vector3::y(), 0.0);
        let half = Vector3::new(0.5, 0.5, 0.5);
        let start: Vec<Point3<f64>> =
            (0..5).map(|i| Point3::new(0.01 * i as f64, 0.5 + 1.0 * i as f64, 0.0)).collect();
        let boxes: Vec<usize> = start
            .iter()
            .map(|p| scene.add(Geometry::Cuboid(half), Isometry3::translation(p.x, p.y, p.z), 1.0))
            .collect();
        let mut warm = 0;
        // The first 400 steps settle the stack: the offsets load the boxes unevenly, each
        // contact sinks to within the slop, and the tower leans by a few milliradians and rocks
        // (damped) before it comes to rest. From then on nothing may move.
        for _ in 0..400 {
            warm += scene.step(1.0 / 60.0).warm_started;
        }
        let settled: Vec<Isometry3<f64>> = boxes.iter().map(|&b| scene.bodies[b].pose).collect();
        let mut creep: f64 = 0.0;
        for _ in 400..1000 {
            warm += scene.step(1.0 / 60.0).warm_started;
            for (&body, pose) in boxes.iter().zip(&settled) {
                creep =
                    creep.max((scene.bodies[body].pose.translation.vector - pose.translation.vector).norm());
            }
        }
        println!("{correction:?}: largest creep after settling {creep:.2e}");
        assert!(creep < 1e-3, "{correction:?}: the stack creeps by {creep}");
        for (&body, p) in boxes.iter().zip(&start) {
            let b = &scene.bodies[body];
            let c = b.world_center();
            let drift = ((c.x - p.x).powi(2) + (c.z - p.z).powi(2)).sqrt();
            let tilt = (b.pose.rotation * Vector3::y()).angle(&Vector3::y());
            println!(
                "{correction:?} box {body}: height {:.4} (start {:.4}), drift {drift:.2e}, tilt {tilt:.2e}",
                c.y, p.y
            );
            assert!(drift < 0.03, "{correction:?}: box {body} slid {drift}");
            assert!((c.y - p.y).abs() < 0.03, "{correction:?}: box {body} at height {}", c.y);
            assert!(tilt < 0.02, "{correction:?}: box {body} tilted {tilt}");
            assert!(b.linear_velocity.norm() < 1e-2, "{correction:?}: box {body} still moves");
        }
        assert!(warm > 1000, "warm starting never matched a feature id");
    }
}

#[test]
fn bad_input_is_refused_with_a_typed_error_and_changes_nothing() {
    let mut bodies = [RigidBody::fixed(Isometry3::identity()), RigidBody::fixed(Isometry3::identity())];
    let point = ContactPoint { point_a: Point3::origin(), point_b: Point3::origin(), distance: 0.0, id: 0 };
    let with = |a: usize, b: usize, n: Vector3<f64>, p: ContactPoint<f64>| {
        let mut m = ContactManifold::new(a, b, n, Material::elastic());
        m.push(p);
        m
    };
    let mut solver = ContactSolver::default();
    let good = with(0, 1, Vector3::y(), point);
    assert_eq!(solver.solve(&mut bodies, &[good], 0.0), Err(SolverError::InvalidTimeStep));
    assert_eq!(solver.solve(&mut bodies, &[good], f64::NAN), Err(SolverError::InvalidTimeStep));
    assert_eq!(
        solver.solve(&mut bodies, &[with(0, 2, Vector3::y(), point)], 0.1),
        Err(SolverError::BodyIndex { index: 2 })
    );
    assert_eq!(
        solver.solve(&mut bodies, &[with(1, 1, Vector3::y(), point)], 0.1),
        Err(SolverError::SelfContact { body: 1 })
    );
    assert_eq!(
        solver.solve(&mut bodies, &[with(0, 1, Vector3::zeros(), point)], 0.1),
        Err(SolverError::InvalidContact)
    );
    let nan = ContactPoint { distance: f64::NAN, ..point };
    assert_eq!(
        solver.solve(&mut bodies, &[with(0, 1, Vector3::y(), nan)], 0.1),
        Err(SolverError::InvalidContact)
    );
    let config = SolverConfig { correction_factor: 1.5, ..SolverConfig::default() };
    assert_eq!(ContactSolver::new(config).err(), Some(SolverError::InvalidConfig));
    // Two static bodies: nothing to solve.
    assert_eq!(solver.solve(&mut bodies, &[good], 0.1).unwrap().points, 0);
}
