//! Layers working together far from the origin: the narrow phase's feature-clipping manifolds
//! on a hull built by cd-bv (the per-layer far-from-the-origin tests live with their layers).

use cd::geom::{Capsule, Obb, Triangle};
use cd::narrow::{manifold, Manifold, PairCache, Shape};
use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

/// The feature-clipping manifolds of `f32` shapes far from the origin have the deepest point
/// of the same pair at the origin, to an ulp of the coordinates: a box against a posed
/// 32-vertex hull and a capsule against a triangle, 300 poses each at 10³, 10⁴ and 10⁵. Until
/// 2026-11-28 the clipping's slack was √ε times the coordinates, and a box/hull manifold's
/// deepest point came out up to 0.025 off at 10³; the pair is now clipped with the exact
/// contact's point moved to the origin.
#[test]
fn f32_feature_manifolds_far_from_the_origin_keep_their_depth() {
    type V = Vector3<f32>;
    let turn = |k: f64| UnitQuaternion::from_euler_angles(0.3 * k, 0.7 + 0.1 * k, 1.1 * k);
    let points: Vec<Point3<f32>> = (0..32)
        .map(|i| {
            let t = i as f32 * 0.618;
            Point3::new((t * 1.3).sin(), (t * 2.1).cos(), 0.7 * (t * 0.7).sin())
        })
        .collect();
    let hull = cd::bv::convex_hull_3d(&points).unwrap();
    for offset in [1e3, 1e4, 1e5] {
        let ulp = f64::from(f32::EPSILON) * offset;
        for k in 0..300 {
            let k = f64::from(k);
            let dir = turn(0.37 * k) * Vector3::x();
            let gap = 0.9 + 0.1 * (k % 7.0);
            let deepest = |base: Vector3<f64>| {
                let (c, cb): (Point3<f32>, Point3<f32>) =
                    (Point3::from(base).cast(), Point3::from(base + dir * gap).cast());
                let (qa, qb): (UnitQuaternion<f32>, UnitQuaternion<f32>) =
                    (turn(k).cast(), turn(k + 0.5).cast());
                let obb = Obb::new(c, qa.to_rotation_matrix().into_inner(), V::new(0.5, 0.3, 0.4)).unwrap();
                let pose = Isometry3::from_parts(Translation3::from(cb.coords), qb);
                let corner = |v: V| cb + qb * v;
                let tri = Triangle::new(
                    corner(V::new(1.6, 0.0, 0.0)),
                    corner(V::new(-0.8, 1.4, 0.0)),
                    corner(V::new(-0.8, -1.4, 0.0)),
                )
                .unwrap();
                let cap = Capsule::new(c - qa * V::new(0.4, 0.0, 0.0), c + qa * V::new(0.4, 0.0, 0.0), 0.3)
                    .unwrap();
                [(Shape::Box(&obb), Shape::Hull(&hull, &pose)), (Shape::Capsule(&cap), Shape::Triangle(&tri))]
                    .map(|(a, b)| {
                        let mut m = Manifold::new(Vector3::x());
                        manifold(a, b, 0.05, &mut PairCache::default(), &mut m).unwrap();
                        m.deepest().map(|p| f64::from(p.distance))
                    })
            };
            let (far, near) =
                (deepest(Vector3::new(offset, -0.5 * offset, 0.25 * offset)), deepest(Vector3::zeros()));
            for (pair, (f, n)) in ["box/hull", "capsule/triangle"].iter().zip(far.iter().zip(&near)) {
                if let (Some(f), Some(n)) = (f, n) {
                    assert!(
                        (f - n).abs() <= 2.0 * ulp,
                        "offset {offset} pose {k}: {pair} deepest {f} against {n} at the origin"
                    );
                }
            }
        }
    }
}
