//! Ray-cast pictures: a pinhole camera, simple shading and PNG output, shared by `render`
//! (a mesh through its hierarchy) and `demo` (the world through its scene query).

use std::path::Path;
use std::time::{Duration, Instant};

use cd::geom::Ray;
use nalgebra::{Point3, Vector3};

use crate::CliError;

/// An RGB picture.
#[derive(Clone, Debug)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Row-major pixels, top row first.
    pub pixels: Vec<[u8; 3]>,
}

impl Image {
    /// Writes the picture as an 8-bit RGB PNG.
    pub fn write_png(&self, path: &Path) -> Result<(), CliError> {
        let fail = |e: String| CliError::Run(format!("cannot write {}: {e}", path.display()));
        let file = std::fs::File::create(path).map_err(|e| fail(e.to_string()))?;
        let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), self.width, self.height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(|e| fail(e.to_string()))?;
        let data: Vec<u8> = self.pixels.iter().flatten().copied().collect();
        writer.write_image_data(&data).map_err(|e| fail(e.to_string()))?;
        writer.finish().map_err(|e| fail(e.to_string()))
    }
}

/// A pinhole camera.
#[derive(Clone, Copy, Debug)]
pub struct Camera {
    eye: Point3<f64>,
    forward: Vector3<f64>,
    right: Vector3<f64>,
    up: Vector3<f64>,
    /// Half the vertical field of view's tangent.
    tan_half: f64,
}

impl Camera {
    /// A camera at `eye` looking at `target` with world `up` (y) and a vertical field of view
    /// in degrees. `None` when the eye is at the target.
    pub fn look_at(eye: Point3<f64>, target: Point3<f64>, fov_degrees: f64) -> Option<Camera> {
        let forward = (target - eye).try_normalize(1e-300)?;
        let world_up = if forward.cross(&Vector3::y()).norm() < 1e-6 { Vector3::z() } else { Vector3::y() };
        let right = forward.cross(&world_up).normalize();
        let up = right.cross(&forward);
        Some(Camera { eye, forward, right, up, tan_half: (fov_degrees.to_radians() * 0.5).tan() })
    }

    /// A camera looking at a sphere (`center`, `radius`) from direction `view` (towards the
    /// camera), far enough back for the sphere to fill the frame.
    pub fn framing(center: Point3<f64>, radius: f64, view: Vector3<f64>) -> Option<Camera> {
        let fov: f64 = 40.0;
        let dir = view.try_normalize(1e-300)?;
        let distance = radius.max(1e-9) / (fov.to_radians() * 0.5).sin() * 1.05;
        Camera::look_at(center + dir * distance, center, fov)
    }

    /// The ray through pixel `(x, y)` of a `width × height` picture (unit direction).
    pub fn ray(&self, x: u32, y: u32, width: u32, height: u32) -> Option<Ray<f64, 3>> {
        let aspect = width as f64 / height as f64;
        let sx = ((x as f64 + 0.5) / width as f64 * 2.0 - 1.0) * self.tan_half * aspect;
        let sy = (1.0 - (y as f64 + 0.5) / height as f64 * 2.0) * self.tan_half;
        let dir = (self.forward + self.right * sx + self.up * sy).normalize();
        Ray::new(self.eye, dir).ok()
    }

    /// Where the camera is.
    pub fn eye(&self) -> Point3<f64> {
        self.eye
    }
}

/// What a traced ray saw: the surface normal (facing the ray) and the surface's colour.
pub type Surface = (Vector3<f64>, [f64; 3]);

/// A rendered picture and how long the rays took.
pub struct Rendered {
    /// The picture.
    pub image: Image,
    /// Rays cast (one per pixel).
    pub rays: u64,
    /// Rays that hit something.
    pub hits: u64,
    /// Time spent casting and shading.
    pub elapsed: Duration,
}

/// Background: a vertical gradient.
fn sky(y: u32, height: u32) -> [u8; 3] {
    let s = y as f64 / height.max(1) as f64;
    [(200.0 - 60.0 * s) as u8, (215.0 - 50.0 * s) as u8, (235.0 - 30.0 * s) as u8]
}

/// Renders by calling `trace` for each pixel's ray. Shading: a light over the camera's
/// shoulder plus a little ambient, so shapes read clearly.
pub fn render(
    camera: &Camera,
    width: u32,
    height: u32,
    mut trace: impl FnMut(&Ray<f64, 3>) -> Option<Surface>,
) -> Rendered {
    let light = (camera.up * 0.6 - camera.forward + camera.right * 0.3).normalize();
    let start = Instant::now();
    let mut pixels = Vec::with_capacity(width as usize * height as usize);
    let (mut rays, mut hits) = (0u64, 0u64);
    let bar = crate::progress::bar(height as u64, "rendering");
    for y in 0..height {
        for x in 0..width {
            rays += 1;
            let seen = camera.ray(x, y, width, height).and_then(|r| trace(&r));
            pixels.push(match seen {
                Some((n, color)) => {
                    hits += 1;
                    let lambert = n.dot(&light).max(0.0);
                    let k = 0.25 + 0.75 * lambert;
                    color.map(|c| (c * k * 255.0).clamp(0.0, 255.0) as u8)
                }
                None => sky(y, height),
            });
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    Rendered { image: Image { width, height, pixels }, rays, hits, elapsed: start.elapsed() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_centre_ray_looks_at_the_target_and_pngs_round_trip() {
        let cam = Camera::look_at(Point3::new(0.0, 0.0, 10.0), Point3::origin(), 60.0).unwrap();
        let r = cam.ray(50, 50, 101, 101).unwrap();
        assert!((r.dir() - Vector3::new(0.0, 0.0, -1.0)).norm() < 1e-12);
        let out = render(&cam, 8, 6, |ray| (ray.dir().x > 0.0).then_some((Vector3::z(), [1.0, 0.0, 0.0])));
        assert_eq!((out.rays, out.hits), (48, 24));
        let path = std::env::temp_dir().join(format!("collide-image-test-{}.png", std::process::id()));
        out.image.write_png(&path).unwrap();
        let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
        let reader = decoder.read_info().unwrap();
        assert_eq!((reader.info().width, reader.info().height), (8, 6));
        std::fs::remove_file(&path).ok();
        assert!(Camera::look_at(Point3::origin(), Point3::origin(), 60.0).is_none());
    }
}
