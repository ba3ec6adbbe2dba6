//! Mouse picking by ray cast: the Stanford bunny (a static triangle mesh with its BVH) on a
//! ground plane with a few balls; rays from a camera through every "pixel" draw an ASCII
//! picture (which body each pixel sees), then a "click" in the middle reports the body, the
//! point and the surface normal under the cursor.
//!
//! Run with `cargo run --release -p cd --example mouse_picking`.

use cd::prelude::*;
use nalgebra::{Isometry3, Point3, Vector3};

fn main() -> Result<(), WorldError> {
    let mut world = World::<f64>::default();
    let ground = world.add(BodyDesc::fixed(ColliderShape::HalfSpace))?;
    let bunny =
        TriMesh::from_obj(include_str!("../../cd-bv/tests/data/bunny.obj")).expect("the bunny parses");
    // Stand the bunny on the ground, centred, about 2 units tall.
    let lo = bunny.vertices().iter().fold(Vector3::repeat(f64::MAX), |m, p| m.inf(&p.coords));
    let hi = bunny.vertices().iter().fold(Vector3::repeat(f64::MIN), |m, p| m.sup(&p.coords));
    let scale = 2.0 / (hi - lo).max();
    let centre = (lo + hi) / 2.0;
    let bunny = bunny
        .map_vertices(|p| {
            Point3::new((p.x - centre.x) * scale, (p.y - lo.y) * scale, (p.z - centre.z) * scale)
        })
        .expect("scaling keeps the mesh valid");
    let bunny =
        world.add(BodyDesc::fixed(ColliderShape::triangle_mesh(MeshBvh::new(bunny).expect("mesh"))))?;
    let mut balls = Vec::new();
    for (i, x) in [-1.8, 1.8].into_iter().enumerate() {
        let ball = BodyDesc::fixed(ColliderShape::ball(0.4)).with_pose(Isometry3::translation(
            x,
            0.4,
            0.3 * i as f64,
        ));
        balls.push(world.add(ball)?);
    }
    // Bodies added, no step yet: the broad phase already holds their boxes.
    let eye = Point3::new(0.0, 1.6, 4.0);
    let (width, height) = (72, 24);
    let ray_through = |px: usize, py: usize| {
        let u = (px as f64 + 0.5) / width as f64 * 2.0 - 1.0;
        let v = 1.0 - (py as f64 + 0.5) / height as f64 * 2.0;
        let dir = Vector3::new(u * 0.9, v * 0.55 - 0.3, -1.0);
        Ray::new(eye, dir).expect("a valid ray")
    };
    let groups = CollisionGroups::default();
    for py in 0..height {
        let line: String = (0..width)
            .map(|px| match world.cast_ray(&ray_through(px, py), &groups) {
                Some(hit) if hit.body == bunny => {
                    // Shade by how much the surface faces the viewer.
                    let light = hit.normal.dot(&Vector3::new(0.3, 0.5, 0.8).normalize()).max(0.0);
                    [':', '+', '*', '#', '@'][((light * 4.99) as usize).min(4)]
                }
                Some(hit) if hit.body == ground => '.',
                Some(_) => 'o',
                None => ' ',
            })
            .collect();
        println!("{line}");
    }
    let click = ray_through(width / 2, height / 2);
    match world.cast_ray(&click, &groups) {
        Some(hit) => println!(
            "click at the centre: body {} ({}), point ({:.3}, {:.3}, {:.3}), normal ({:.2}, {:.2}, {:.2}), {:.3} from the eye",
            hit.body.index(),
            world.body(hit.body).map(|b| b.shape().name()).unwrap_or("?"),
            hit.point.x,
            hit.point.y,
            hit.point.z,
            hit.normal.x,
            hit.normal.y,
            hit.normal.z,
            hit.t * click.dir().norm()
        ),
        None => println!("click at the centre: nothing"),
    }
    Ok(())
}
