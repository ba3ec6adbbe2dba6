//! A short tour of `cd-geom`: builds a few primitives and runs one query of each family.
//!
//! Run with `cargo run -p cd-geom --example tour`.

use cd_geom::*;
use nalgebra::{Matrix4, Point2, Point3, UnitQuaternion, Vector2, Vector3};

fn main() -> Result<(), GeomError> {
    // A ray along +x against a unit box, a ball and a triangle.
    let ray = Ray::new(Point3::new(-5.0f64, 0.2, 0.1), Vector3::x())?;
    let aabb = Aabb::new(Point3::new(-1.0, -1.0, -1.0), Point3::new(1.0, 1.0, 1.0))?;
    let hit = ray_aabb(&ray, &aabb).expect("the ray points at the box");
    println!("ray/AABB: t = {} normal = {:?}", hit.t, hit.normal.as_slice());

    let ball = Ball::new(Point3::new(3.0, 0.0, 0.0), 0.5)?;
    println!("ray/sphere: {:?}", ray_ball(&ray, &ball).map(|h| h.t));

    let tri =
        Triangle::new(Point3::new(2.0, -1.0, -1.0), Point3::new(2.0, 1.0, -1.0), Point3::new(2.0, 0.0, 1.0))?;
    println!("ray/triangle (Möller–Trumbore): {:?}", ray_triangle(&ray, &tri));
    println!("ray/triangle (watertight):      {:?}", ray_triangle_watertight(&ray, &tri));

    // Boxes: OBB/OBB with 15 axes, and the conservative 6-axis variant.
    let rot = UnitQuaternion::from_euler_angles(0.3, 0.5, 0.7);
    let a = Obb::from_rotation(Point3::origin(), rot, Vector3::new(1.0, 0.5, 0.25))?;
    let b = Obb::from_rotation(
        Point3::new(1.6, 0.4, 0.0),
        UnitQuaternion::identity(),
        Vector3::new(0.5, 0.5, 0.5),
    )?;
    println!("OBB/OBB: {} (face axes only: {})", obb_obb(&a, &b), obb_obb_face_axes(&a, &b));

    // Triangle/triangle with the intersection segment.
    let t2 =
        Triangle::new(Point3::new(1.0, 0.0, 0.0), Point3::new(3.0, 0.0, 0.0), Point3::new(2.0, 0.0, 2.0))?;
    println!("triangle/triangle: {:?}", triangle_triangle(&tri, &t2));

    // Frustum culling with planes extracted from a projection matrix (Gribb–Hartmann).
    let proj = Matrix4::new_perspective(1.0, std::f64::consts::FRAC_PI_2, 0.1, 100.0);
    let frustum = Frustum::from_view_projection(&proj)?;
    let near_box = Aabb::new(Point3::new(-0.5, -0.5, -3.0), Point3::new(0.5, 0.5, -2.0))?;
    println!("frustum/AABB: {:?}", frustum_aabb(&frustum, &near_box));

    // 2D: circle against a rotated box, and two segments.
    let circle = Ball::new(Point2::new(1.2f64, 0.0), 0.3)?;
    let obb2 = Obb::from_angle(Point2::origin(), 0.785, Vector2::new(1.0, 0.5))?;
    println!("circle/OBB (2D): {}", ball_obb(&circle, &obb2));
    let s1 = Segment::new(Point2::new(0.0, 0.0), Point2::new(2.0, 2.0))?;
    let s2 = Segment::new(Point2::new(0.0, 2.0), Point2::new(2.0, 0.0))?;
    println!("segment/segment (2D): {:?}", segment_segment_2d(&s1, &s2));
    Ok(())
}
