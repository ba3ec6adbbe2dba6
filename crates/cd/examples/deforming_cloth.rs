//! A cloth-like sheet falling onto a ball: the sheet is a triangle mesh whose vertices move
//! every frame (gravity, a stretch constraint to their neighbours, pushed out of the ball), and
//! its hierarchy is **refitted** each frame (cd-mid's `MeshBvh::deform`: bottom-up box updates,
//! no rebuild) before the frame's queries: which triangles are near the ball, and how close the
//! sheet comes to its centre.
//!
//! Run with `cargo run --release -p cd --example deforming_cloth`.

use cd::geom::Aabb;
use cd::mid::{MeshBvh, QueryWorkspace, TriMesh};
use nalgebra::{Point3, Vector3};

fn main() {
    let (n, size) = (30usize, 3.0f64);
    let at = |i: usize, j: usize| i * (n + 1) + j;
    let spacing = size / n as f64;
    let mut positions: Vec<Point3<f64>> = (0..=n)
        .flat_map(|i| {
            (0..=n).map(move |j| {
                Point3::new(-size / 2.0 + i as f64 * spacing, 1.5, -size / 2.0 + j as f64 * spacing)
            })
        })
        .collect();
    let mut previous = positions.clone();
    let mut triangles = Vec::new();
    let mut springs = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            if i < n && j < n {
                triangles.push([at(i, j) as u32, at(i, j + 1) as u32, at(i + 1, j + 1) as u32]);
                triangles.push([at(i, j) as u32, at(i + 1, j + 1) as u32, at(i + 1, j) as u32]);
            }
            if i < n {
                springs.push((at(i, j), at(i + 1, j)));
            }
            if j < n {
                springs.push((at(i, j), at(i, j + 1)));
            }
        }
    }
    let mut cloth: MeshBvh<f64, Aabb<f64, 3>> =
        MeshBvh::new(TriMesh::new(positions.clone(), triangles).expect("a valid sheet"))
            .expect("a hierarchy");
    let (centre, radius) = (Point3::new(0.0, 0.0, 0.0), 0.8);
    let ball_box = Aabb::from_center_half_extents(centre, Vector3::repeat(radius + spacing)).expect("box");
    let mut ws = QueryWorkspace::new();
    let dt = 1.0f64 / 60.0;
    for frame in 0..=180 {
        // Verlet integration under gravity.
        for (p, q) in positions.iter_mut().zip(previous.iter_mut()) {
            let next = *p + (*p - *q) * 0.99 + Vector3::new(0.0, -9.81, 0.0) * dt * dt;
            *q = *p;
            *p = next;
        }
        // A few relaxation passes: keep neighbours at their rest spacing, vertices outside the ball.
        for _ in 0..8 {
            for &(a, b) in &springs {
                let d = positions[b] - positions[a];
                let correction = d * (0.5 * (1.0 - spacing / d.norm().max(1e-12)));
                positions[a] += correction;
                positions[b] -= correction;
            }
            for p in positions.iter_mut() {
                let d = *p - centre;
                if d.norm() < radius {
                    *p = centre + d.normalize() * radius;
                }
            }
        }
        let refitted = cloth.deform(positions.clone()).expect("the sheet stays valid");
        let near = cloth.triangles_in_aabb(&ball_box, &mut ws).len();
        let closest = cloth.closest_point(&centre, f64::INFINITY, &mut ws).expect("a non-empty mesh");
        if frame % 30 == 0 {
            println!(
                "frame {frame:>3}: refitted {refitted} boxes, {near} triangles near the ball, sheet {:.3} from its centre (radius {radius})",
                closest.distance
            );
        }
    }
}
