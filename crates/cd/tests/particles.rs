//! Particles raining into a closed triangle mesh (a tessellated ball, so the inside is convex
//! and checkable plane by plane) never get out, at speeds that cross the container in one step.

use cd::mid::{MeshBvh, QueryWorkspace, TriMesh};
use cd::particles::mesh_segment_hit;
use cd::response::{Material, ParticleSystem};
use nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};

fn ball_mesh(radius: f64, rings: usize, segments: usize) -> TriMesh<f64> {
    let mut vertices = vec![Point3::new(0.0, -radius, 0.0)];
    for r in 1..rings {
        let phi = std::f64::consts::PI * r as f64 / rings as f64;
        for s in 0..segments {
            let theta = std::f64::consts::TAU * s as f64 / segments as f64;
            vertices.push(Point3::new(
                radius * phi.sin() * theta.cos(),
                -radius * phi.cos(),
                radius * phi.sin() * theta.sin(),
            ));
        }
    }
    vertices.push(Point3::new(0.0, radius, 0.0));
    let top = (vertices.len() - 1) as u32;
    let at = |r: usize, s: usize| (1 + (r - 1) * segments + s % segments) as u32;
    let mut triangles = Vec::new();
    for s in 0..segments {
        triangles.push([0, at(1, s + 1), at(1, s)]);
        triangles.push([top, at(rings - 1, s), at(rings - 1, s + 1)]);
    }
    for r in 1..rings - 1 {
        for s in 0..segments {
            triangles.push([at(r, s), at(r, s + 1), at(r + 1, s + 1)]);
            triangles.push([at(r, s), at(r + 1, s + 1), at(r + 1, s)]);
        }
    }
    TriMesh::new(vertices, triangles).unwrap()
}

#[test]
fn particles_never_escape_a_closed_mesh() {
    let mesh: MeshBvh<f64, cd::geom::Aabb<f64, 3>> = MeshBvh::new(ball_mesh(2.0, 16, 24)).unwrap();
    let pose = Isometry3::from_parts(
        Vector3::new(10.0, -3.0, 4.0).into(),
        UnitQuaternion::from_euler_angles(0.3, 0.5, -0.2),
    );
    // Inside test: on the inner side of every triangle's plane (the mesh is convex).
    let planes: Vec<(Point3<f64>, Vector3<f64>)> = (0..mesh.mesh().len())
        .map(|t| {
            let tri = mesh.mesh().triangle(t);
            let n = tri.normal().unwrap();
            let outward = if n.dot(&tri.a().coords) > 0.0 { n } else { -n };
            (pose * tri.a(), pose.rotation * outward)
        })
        .collect();
    let inside =
        |p: &Point3<f64>| planes.iter().map(|(a, n)| n.dot(&(p - a))).fold(f64::NEG_INFINITY, f64::max);
    let mut seed = 99u64;
    let mut random = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    };
    let positions: Vec<Point3<f64>> =
        (0..400).map(|_| pose * Point3::new(random(), random(), random())).collect();
    let velocities = (0..400).map(|_| Vector3::new(random(), random(), random()) * 400.0).collect();
    let mut rain = ParticleSystem::new(positions, velocities, 0.0, Material::new(0.9, 0.1).unwrap()).unwrap();
    let mut ws = QueryWorkspace::new();
    let mut bounces = 0;
    for _ in 0..300 {
        bounces += rain.step(&Vector3::new(0.0, -9.81, 0.0), 1.0 / 60.0, |p, d| {
            mesh_segment_hit(&mesh, &pose, p, d, &mut ws)
        });
        for p in &rain.positions {
            assert!(inside(p) <= 1e-9, "a particle escaped: {p} is {} outside", inside(p));
        }
    }
    assert!(bounces > 10_000, "{bounces}");
}
