//! Mass properties against independent oracles: the closed forms of balls, capsules, cylinders
//! and cones against finely tessellated closed meshes of the same solids (the mesh integral is
//! exact for the polyhedron, which converges to the solid as O(1/n²)); a compound of two boxes
//! against the box they make; a lozenge against its ball and capsule limits (exact) and a
//! midpoint-rule integral over a fine grid; invariance under rigid motion; f32 against f64.

use cd_geom::{Ball, Capsule, Cone, ConvexPolyhedron, Cylinder, GeomError, Lozenge, Obb};
use cd_response::MassProperties;
use nalgebra::{Isometry3, Matrix3, Point3, UnitQuaternion, Vector3};

/// A closed surface of revolution about z: `profile` lists (radius, height) from the bottom pole
/// to the top pole (both with radius 0), swept around `segments` times.
fn revolve(profile: &[(f64, f64)], segments: usize) -> (Vec<Point3<f64>>, Vec<[u32; 3]>) {
    let mut vertices = Vec::new();
    let mut rings = Vec::new();
    for &(r, z) in profile {
        let start = vertices.len() as u32;
        if r == 0.0 {
            vertices.push(Point3::new(0.0, 0.0, z));
            rings.push((start, 1));
        } else {
            for s in 0..segments {
                let a = std::f64::consts::TAU * s as f64 / segments as f64;
                vertices.push(Point3::new(r * a.cos(), r * a.sin(), z));
            }
            rings.push((start, segments as u32));
        }
    }
    let mut triangles = Vec::new();
    for w in rings.windows(2) {
        let ((s0, n0), (s1, n1)) = (w[0], w[1]);
        for s in 0..segments as u32 {
            let t = (s + 1) % segments as u32;
            let at = |start: u32, n: u32, i: u32| start + if n == 1 { 0 } else { i };
            let (a, b, c, d) = (at(s0, n0, s), at(s0, n0, t), at(s1, n1, s), at(s1, n1, t));
            if n0 != 1 {
                triangles.push([a, b, d]);
            }
            if n1 != 1 {
                triangles.push([a, d, c]);
            }
        }
    }
    (vertices, triangles)
}

fn assert_close(exact: &MassProperties<f64>, mesh: &MassProperties<f64>, tolerance: f64) {
    let relative = |x: f64, y: f64| (x - y).abs() / y.abs().max(1e-300);
    assert!(relative(mesh.mass(), exact.mass()) < tolerance, "mass {} vs {}", mesh.mass(), exact.mass());
    assert!(
        (mesh.center() - exact.center()).norm() < tolerance,
        "centre {} vs {}",
        mesh.center(),
        exact.center()
    );
    let scale = exact.inertia().amax();
    assert!(
        (mesh.inertia() - exact.inertia()).amax() < tolerance * scale,
        "inertia {} vs {}",
        mesh.inertia(),
        exact.inertia()
    );
}

fn sphere_profile(r: f64, z0: f64, z1: f64, rings: usize) -> Vec<(f64, f64)> {
    // A half-ball cap from the pole at z0 − r to the equator, the cylinder, and the top cap.
    let mut profile = Vec::new();
    for i in 0..=rings {
        let phi = std::f64::consts::FRAC_PI_2 * i as f64 / rings as f64;
        profile.push((r * phi.sin(), z0 - r * phi.cos()));
    }
    for i in (0..=rings).rev() {
        let phi = std::f64::consts::FRAC_PI_2 * i as f64 / rings as f64;
        profile.push((r * phi.sin(), z1 + r * phi.cos()));
    }
    profile[0].0 = 0.0;
    let last = profile.len() - 1;
    profile[last].0 = 0.0;
    profile
}

#[test]
fn balls_capsules_cylinders_and_cones_match_tessellated_meshes() {
    let n = 256;
    let (v, t) = revolve(&sphere_profile(1.5, 0.0, 0.0, n / 2), n);
    let ball = MassProperties::ball(&Ball::new(Point3::origin(), 1.5).unwrap(), 2.0).unwrap();
    assert_close(&ball, &MassProperties::closed_mesh(&v, &t, 2.0).unwrap(), 1e-3);

    let (v, t) = revolve(&sphere_profile(0.5, -1.0, 1.0, n / 2), n);
    let capsule = Capsule::new(Point3::new(0.0, 0.0, -1.0), Point3::new(0.0, 0.0, 1.0), 0.5).unwrap();
    assert_close(
        &MassProperties::capsule(&capsule, 3.0).unwrap(),
        &MassProperties::closed_mesh(&v, &t, 3.0).unwrap(),
        1e-3,
    );

    let (v, t) = revolve(&[(0.0, -0.5), (0.8, -0.5), (0.8, 1.5), (0.0, 1.5)], n);
    let cylinder = Cylinder::new(Point3::new(0.0, 0.0, -0.5), Point3::new(0.0, 0.0, 1.5), 0.8).unwrap();
    assert_close(
        &MassProperties::cylinder(&cylinder, 1.0).unwrap(),
        &MassProperties::closed_mesh(&v, &t, 1.0).unwrap(),
        1e-3,
    );

    let (v, t) = revolve(&[(0.0, 0.0), (1.2, 0.0), (0.0, 3.0)], n);
    let cone = Cone::new(Point3::new(0.0, 0.0, 3.0), Point3::origin(), 1.2).unwrap();
    assert_close(
        &MassProperties::cone(&cone, 1.0).unwrap(),
        &MassProperties::closed_mesh(&v, &t, 1.0).unwrap(),
        1e-3,
    );
}

#[test]
fn a_mesh_wound_inward_gives_the_same_solid() {
    let (v, t) = revolve(&[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)], 32);
    let flipped: Vec<[u32; 3]> = t.iter().map(|&[a, b, c]| [a, c, b]).collect();
    let outward = MassProperties::closed_mesh(&v, &t, 1.0).unwrap();
    let inward = MassProperties::closed_mesh(&v, &flipped, 1.0).unwrap();
    assert_close(&outward, &inward, 1e-12);
}

#[test]
fn two_boxes_side_by_side_are_one_box() {
    let half = Vector3::new(0.5, 1.0, 1.5);
    let box_at = |x: f64, h: Vector3<f64>| {
        Obb::from_rotation(Point3::new(x, 2.0, -1.0), UnitQuaternion::identity(), h).unwrap()
    };
    let left = MassProperties::cuboid(&box_at(-0.5, half), 2.0).unwrap();
    let right = MassProperties::cuboid(&box_at(0.5, half), 2.0).unwrap();
    let whole = MassProperties::cuboid(&box_at(0.0, Vector3::new(1.0, 1.0, 1.5)), 2.0).unwrap();
    assert_close(&whole, &MassProperties::compound(&[left, right]).unwrap(), 1e-12);
    // A static part pins the compound.
    assert!(!MassProperties::compound(&[left, MassProperties::infinite()]).unwrap().is_dynamic());
}

#[test]
fn rigid_motion_moves_the_centre_and_rotates_the_tensor() {
    let rotation = UnitQuaternion::from_euler_angles(0.4, 1.0, -0.2);
    let pose = Isometry3::from_parts(Vector3::new(3.0, -1.0, 7.0).into(), rotation);
    let obb = Obb::from_rotation(
        Point3::new(0.2, 0.1, 0.0),
        UnitQuaternion::identity(),
        Vector3::new(1.0, 0.3, 0.6),
    )
    .unwrap();
    let hull = ConvexPolyhedron::from_obb(&obb).unwrap();
    let moved_hull = ConvexPolyhedron::from_faces(
        hull.vertices().iter().map(|p| pose * p).collect(),
        &hull
            .faces()
            .iter()
            .map(|f| hull.face_vertices(f).iter().map(|&i| i as usize).collect())
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let moved = MassProperties::convex_polyhedron(&hull, 1.0).unwrap().transformed(&pose);
    assert_close(&moved, &MassProperties::convex_polyhedron(&moved_hull, 1.0).unwrap(), 1e-12);
    // The world inverse inertia is the inverse of the rotated tensor.
    let body = MassProperties::cuboid(&obb, 1.0).unwrap();
    let r = rotation.to_rotation_matrix();
    let world = r.matrix() * body.inertia() * r.matrix().transpose();
    assert!((body.world_inverse_inertia(&pose) * world - Matrix3::identity()).amax() < 1e-12);
}

#[test]
fn f32_agrees_with_f64_far_from_the_origin() {
    let (v, t) = revolve(&sphere_profile(1.0, -0.5, 0.5, 16), 32);
    let offset = Vector3::new(1000.0, -2000.0, 500.0);
    let v64: Vec<Point3<f64>> = v.iter().map(|p| p + offset).collect();
    let v32: Vec<Point3<f32>> = v64.iter().map(|p| p.cast::<f32>()).collect();
    let m64 = MassProperties::closed_mesh(&v64, &t, 1.0).unwrap();
    let m32 = MassProperties::closed_mesh(&v32, &t, 1.0f32).unwrap();
    assert!(((m32.mass() as f64) - m64.mass()).abs() < 1e-4 * m64.mass());
    assert!((m32.center().cast::<f64>() - m64.center()).norm() < 1e-3);
    assert!((m32.inertia().cast::<f64>() - m64.inertia()).amax() < 1e-3 * m64.inertia().amax());
}

#[test]
fn lozenges_match_their_limits_and_a_grid_integral() {
    let o = Point3::new(0.3, -0.2, 1.0);
    // No edges: a ball. One edge: a capsule (either edge).
    let ball = Lozenge::new(o, Vector3::zeros(), Vector3::zeros(), 0.7).unwrap();
    assert_close(
        &MassProperties::ball(&Ball::new(o, 0.7).unwrap(), 2.0).unwrap(),
        &MassProperties::lozenge(&ball, 2.0).unwrap(),
        1e-12,
    );
    let e = Vector3::new(1.0, 2.0, -0.5);
    let capsule = Capsule::new(o, o + e, 0.4).unwrap();
    for (e0, e1) in [(e, Vector3::zeros()), (Vector3::zeros(), e)] {
        assert_close(
            &MassProperties::capsule(&capsule, 3.0).unwrap(),
            &MassProperties::lozenge(&Lozenge::new(o, e0, e1, 0.4).unwrap(), 3.0).unwrap(),
            1e-12,
        );
    }
    // A tilted 1.6 × 0.8 rectangle grown by 0.3, against the midpoint rule on a 150³ grid over
    // its box (inside: within 0.3 of the rectangle).
    let q = UnitQuaternion::from_euler_angles(0.4, -0.9, 0.2);
    let (e0, e1) = (q * Vector3::new(1.6, 0.0, 0.0), q * Vector3::new(0.0, 0.0, 0.8));
    let lozenge = Lozenge::new(o, e0, e1, 0.3).unwrap();
    let exact = MassProperties::lozenge(&lozenge, 1.5).unwrap();
    let n = 150;
    let reach = 0.9 + 0.3 + 0.05;
    let centre = o + (e0 + e1) / 2.0;
    let h = 2.0 * reach / n as f64;
    let (mut mass, mut first, mut second) = (0.0, Vector3::zeros(), Matrix3::zeros());
    for i in 0..n {
        for j in 0..n {
            for k in 0..n {
                let p = centre + Vector3::new(i as f64 + 0.5, j as f64 + 0.5, k as f64 + 0.5) * h
                    - Vector3::repeat(reach);
                let d = p - o;
                let s = (d.dot(&e0) / e0.norm_squared()).clamp(0.0, 1.0);
                let t = (d.dot(&e1) / e1.norm_squared()).clamp(0.0, 1.0);
                if (d - e0 * s - e1 * t).norm() <= 0.3 {
                    let m = 1.5 * h * h * h;
                    let r = p - centre;
                    mass += m;
                    first += r * m;
                    second += r * r.transpose() * m;
                }
            }
        }
    }
    let inertia = Matrix3::identity() * second.trace() - second;
    let grid = MassProperties::new(mass, centre + first / mass, inertia).unwrap();
    assert_close(&exact, &grid, 1e-2);
    // A parallelogram core that is not a rectangle has no closed form here.
    let skew = Lozenge::new(o, Vector3::x(), Vector3::new(0.5, 1.0, 0.0), 0.3).unwrap();
    assert_eq!(MassProperties::lozenge(&skew, 1.0).unwrap_err(), GeomError::NotOrthonormal);
}
