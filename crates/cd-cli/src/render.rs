//! `collide render`: a picture of a mesh, one ray per pixel through its hierarchy.
//!
//! The camera looks at the centre of the mesh's bounding sphere from the direction `view`
//! (from the centre towards the camera), far enough back for the whole mesh to fit.

use cd::bv::ritter_ball;
use cd::geom::Aabb;
use cd::mid::{MeshBvh, QueryWorkspace, TriMesh};
use nalgebra::Vector3;

use crate::image::{render, Camera, Rendered};
use crate::CliError;

/// Renders `mesh` seen from `view` into a `width × height` picture.
pub fn render_mesh(
    mesh: TriMesh<f64>,
    width: u32,
    height: u32,
    view: Vector3<f64>,
) -> Result<Rendered, CliError> {
    if width == 0 || height == 0 || width > 16384 || height > 16384 {
        return Err(CliError::Input(format!(
            "the picture must be 1 to 16384 pixels a side (got {width}×{height})"
        )));
    }
    let bound =
        ritter_ball(mesh.vertices()).map_err(|e| CliError::Input(format!("the mesh has no extent: {e}")))?;
    let camera = Camera::framing(*bound.center(), bound.radius(), view)
        .ok_or_else(|| CliError::Input("--view must be a non-zero direction".into()))?;
    let bvh: MeshBvh<f64, Aabb<f64, 3>> =
        MeshBvh::new(mesh).map_err(|e| CliError::Input(format!("cannot build the mesh's hierarchy: {e}")))?;
    let mut ws = QueryWorkspace::new();
    let clay = [0.85, 0.78, 0.66];
    let back = [0.55, 0.6, 0.75];
    Ok(render(&camera, width, height, |ray| {
        let hit = bvh.cast_ray(ray, &mut ws)?;
        let n = bvh.mesh().triangle(hit.triangle as usize).normal().ok()?;
        // Two-sided: a face seen from behind is shaded with its flipped normal, in another tint.
        if n.dot(ray.dir()) <= 0.0 {
            Some((n, clay))
        } else {
            Some((-n, back))
        }
    }))
}

/// Parses `x,y,z`.
pub fn parse_view(text: &str) -> Result<Vector3<f64>, String> {
    let parts: Vec<f64> = text
        .split(',')
        .map(|w| w.trim().parse::<f64>().map_err(|_| format!("bad number {w:?} in --view")))
        .collect::<Result<_, _>>()?;
    match parts.as_slice() {
        [x, y, z] if parts.iter().all(|v| v.is_finite()) => Ok(Vector3::new(*x, *y, *z)),
        _ => Err(format!("--view needs three finite numbers x,y,z (got {text:?})")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Point3;

    #[test]
    fn a_square_facing_the_camera_fills_the_middle() {
        let mesh = TriMesh::new(
            vec![
                Point3::new(-1.0, -1.0, 0.0),
                Point3::new(1.0, -1.0, 0.0),
                Point3::new(1.0, 1.0, 0.0),
                Point3::new(-1.0, 1.0, 0.0),
            ],
            vec![[0, 1, 2], [0, 2, 3]],
        )
        .unwrap();
        let out = render_mesh(mesh, 40, 30, Vector3::z()).unwrap();
        assert_eq!(out.rays, 1200);
        // The square spans most of the frame's height; the centre pixel is lit clay.
        assert!(out.hits > 300 && out.hits < 1200, "{}", out.hits);
        let centre = out.image.pixels[15 * 40 + 20];
        assert!(centre[0] > centre[2], "{centre:?}");
        assert!(parse_view("1, 0,2").is_ok() && parse_view("1,2").is_err() && parse_view("a,b,c").is_err());
    }
}
