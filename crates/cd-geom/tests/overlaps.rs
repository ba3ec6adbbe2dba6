//! Hand-derived tests of the boolean tests, plane classification, frustum culling, line tests,
//! polygons and closest points. The arithmetic is in the comments.

mod common;

use cd_geom::*;
use common::xorshift;
use nalgebra::{Matrix4, Point2, Point3, UnitQuaternion, Vector2, Vector3};

fn p3(x: f64, y: f64, z: f64) -> Point3<f64> {
    Point3::new(x, y, z)
}
fn v3(x: f64, y: f64, z: f64) -> Vector3<f64> {
    Vector3::new(x, y, z)
}
fn p2(x: f64, y: f64) -> Point2<f64> {
    Point2::new(x, y)
}
fn unit_box() -> Aabb<f64, 3> {
    Aabb::new(p3(-1.0, -1.0, -1.0), p3(1.0, 1.0, 1.0)).unwrap()
}
fn tri(a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> Triangle<f64, 3> {
    Triangle::new(p3(a[0], a[1], a[2]), p3(b[0], b[1], b[2]), p3(c[0], c[1], c[2])).unwrap()
}

#[test]
fn plane_classification() {
    // Plane x + y + z = 3 → n = (1,1,1)/√3, d = -√3. Unit box: centre distance -√3, projected
    // half-diagonal (1+1+1)/√3 = √3 → touches the corner (1,1,1): Intersecting.
    let pl = Plane::new(v3(1.0, 1.0, 1.0), -3.0).unwrap();
    assert_eq!(plane_aabb(&pl, &unit_box()), PlaneSide::Intersecting);
    // x + y + z = 3.01: the whole box is on the negative side.
    let pl2 = Plane::new(v3(1.0, 1.0, 1.0), -3.01).unwrap();
    assert_eq!(plane_aabb(&pl2, &unit_box()), PlaneSide::Negative);
    // x = -2 (n = +x, d = 2): the box is on the positive side.
    let pl3 = Plane::new(v3(1.0, 0.0, 0.0), 2.0).unwrap();
    assert_eq!(plane_aabb(&pl3, &unit_box()), PlaneSide::Positive);
    // OBB: unit box rotated 45° about z reaches x = √2 ≈ 1.414: plane x = 1.4 cuts it, x = 1.5
    // does not.
    let q = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_4);
    let obb = Obb::from_rotation(p3(0.0, 0.0, 0.0), q, v3(1.0, 1.0, 1.0)).unwrap();
    assert_eq!(plane_obb(&Plane::new(v3(1.0, 0.0, 0.0), -1.4).unwrap(), &obb), PlaneSide::Intersecting);
    assert_eq!(plane_obb(&Plane::new(v3(1.0, 0.0, 0.0), -1.5).unwrap(), &obb), PlaneSide::Negative);
    // Sphere r = 1 at (0,0,2) against z = 1: touching → Intersecting; against z = 0.5: Positive.
    let s = Ball::new(p3(0.0, 0.0, 2.0), 1.0).unwrap();
    assert_eq!(plane_ball(&Plane::new(v3(0.0, 0.0, 1.0), -1.0).unwrap(), &s), PlaneSide::Intersecting);
    assert_eq!(plane_ball(&Plane::new(v3(0.0, 0.0, 1.0), -0.5).unwrap(), &s), PlaneSide::Positive);
    // Triangle with one vertex on z = 0: Intersecting; all above: Positive.
    let zp = Plane::new(v3(0.0, 0.0, 1.0), 0.0).unwrap();
    assert_eq!(
        plane_triangle(&zp, &tri([0.0, 0.0, 0.0], [1.0, 0.0, 1.0], [0.0, 1.0, 1.0])),
        PlaneSide::Intersecting
    );
    assert_eq!(
        plane_triangle(&zp, &tri([0.0, 0.0, 0.1], [1.0, 0.0, 1.0], [0.0, 1.0, 1.0])),
        PlaneSide::Positive
    );
    // 2D: the line y = x (normal (1,-1)/√2) against a box [1,2]×[-1,0] → entirely positive.
    let line = Plane::new(Vector2::new(1.0, -1.0), 0.0).unwrap();
    assert_eq!(plane_aabb(&line, &Aabb::new(p2(1.0, -1.0), p2(2.0, 0.0)).unwrap()), PlaneSide::Positive);
}

#[test]
fn triangle_box_and_ball() {
    let b = unit_box();
    // Triangle entirely inside.
    assert!(triangle_aabb(&tri([0.0, 0.0, 0.0], [0.5, 0.0, 0.0], [0.0, 0.5, 0.0]), &b));
    // Large triangle whose interior cuts the box while all vertices are far outside: the plane
    // z = 0 through (-10,-10,0), (10,-10,0), (0,10,0) covers the box centre.
    assert!(triangle_aabb(&tri([-10.0, -10.0, 0.0], [10.0, -10.0, 0.0], [0.0, 10.0, 0.0]), &b));
    // Triangle in the plane x + y + z = 3.5 (beyond the corner, which has x+y+z = 3): the
    // triangle-normal axis separates.
    assert!(!triangle_aabb(&tri([3.5, 0.0, 0.0], [0.0, 3.5, 0.0], [0.0, 0.0, 3.5]), &b));
    // Same plane at 2.9: cuts the corner.
    assert!(triangle_aabb(&tri([2.9, 0.0, 0.0], [0.0, 2.9, 0.0], [0.0, 0.0, 2.9]), &b));
    // Only an edge-cross-product axis separates: a sliver along the line x + y = 2.2 (beyond the
    // box edge x = y = 1 where x + y = 2), spanning z ∈ [-5, 5] so the box-normal axes overlap
    // and tilted so its plane contains the z direction... the plane is x + y = 2.2 itself here,
    // whose normal separates. Use instead a long thin triangle near the edge, not parallel:
    // points (2.2,0,-5), (0,2.2,5), (0,2.2,5.1) — its plane is not x + y = 2.2 but its edges
    // all lie in x + y = 2.2, so the axis e_z × (edge) = (1,1,0)-direction separates.
    let sliver = tri([2.2, 0.0, -5.0], [0.0, 2.2, 5.0], [0.0, 2.2, 5.1]);
    assert!(!triangle_aabb(&sliver, &b));
    // Touching: a vertex exactly at the corner (1,1,1).
    assert!(triangle_aabb(&tri([1.0, 1.0, 1.0], [3.0, 1.0, 1.0], [1.0, 3.0, 1.0]), &b));
    // Zero-area triangle (a segment) through the box.
    assert!(triangle_aabb(&tri([-5.0, 0.0, 0.0], [5.0, 0.0, 0.0], [0.0, 0.0, 0.0]), &b));
    // A triangle with collinear vertices (a segment) through the centre of a thin rotated box:
    // its cross product is rounding noise and must not be tested as a plane normal.
    let q = UnitQuaternion::from_scaled_axis(v3(-0.000305, -0.000305, -1.64));
    let thin =
        Obb::from_rotation(p3(-0.000305, -0.000305, -0.000305), q, v3(1.64, 0.000305, 0.000305)).unwrap();
    let seg = tri(
        [-0.000305, -1.6397, -0.000305],
        [-0.000305, -0.000305, -0.000305],
        [-0.000305, -4.219, -0.000305],
    );
    assert!(triangle_obb(&seg, &thin));
    // Collinear in exact arithmetic, not in floating point: the cross product is noise, and the
    // triangle has no normal.
    let skew = tri([0.0, 0.0, 0.0], [0.1, 0.2, 0.3], [0.3, 0.6, 0.9]);
    assert!(skew.scaled_normal().norm() > 0.0 && skew.normal().is_err());
    assert!(tri([0.0, 0.0, 0.0], [0.1, 0.2, 0.3], [0.3, 0.6, 0.9 + 1e-9]).normal().is_ok());
    // A sliver 1.7·10¹⁰ long and 10⁶ wide (finding 19): the normal is crossed at the widest
    // angle, so it does not depend on which vertex comes first (crossed at the sharp vertex it
    // moved by 4·10⁻¹² between orders, 0.06 at the far end).
    let (a, b, c) =
        ([-7.898e9, -7.711e9, 1.285e10], [0.01285, 0.01285, -0.0628662109375], [-0.0003, 1e6, -0.007424]);
    let n = tri(a, b, c).normal().unwrap();
    for m in [tri(b, c, a).normal().unwrap(), tri(c, a, b).normal().unwrap()] {
        assert!((m - n).norm() < 1e-15, "{m:?} vs {n:?}");
    }
    // A segment 1.5·10¹⁰ long piercing that sliver 0.075 from its near end: the ray test
    // missed it, the closest points must meet.
    let seg = Segment::new(p3(-7.711e9, 1.285e10, 0.01285), p3(0.01285, -0.0628662109375, -0.00030517578125))
        .unwrap();
    for t in [tri(a, b, c), tri(b, c, a), tri(c, a, b)] {
        let cp = closest_points_segment_triangle(&seg, &t);
        assert!(cp.distance_squared == 0.0 && (cp.a - p3(-0.0256, 0.0012, -0.0003)).norm() < 1e-3, "{cp:?}");
    }
    // A box from x = 1.27 to 10³⁰ (flat in y and z): its centre and half-width round to
    // 5·10²⁹, so in the centred frame a segment at x = 0 looked touching. The box normals are
    // compared in world coordinates, exactly.
    let far = Aabb::new(p3(1.268760286641242, -1.0200436551946093, 0.0), p3(1e30, -1.0200436551946093, 0.0))
        .unwrap();
    assert!(!triangle_aabb(&tri([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, -1.1825327451843324, 0.0]), &far));
    assert!(triangle_aabb(&tri([1.3, 0.0, 0.0], [1.3, 0.0, 0.0], [1.3, -1.1825327451843324, 0.0]), &far));
    // OBB: box rotated 45° about z reaches x = √2; a triangle in the plane x = 1.3 overlaps it,
    // x = 1.5 does not.
    let q = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_4);
    let obb = Obb::from_rotation(p3(0.0, 0.0, 0.0), q, v3(1.0, 1.0, 1.0)).unwrap();
    assert!(triangle_obb(&tri([1.3, -1.0, -1.0], [1.3, 1.0, -1.0], [1.3, 0.0, 1.0]), &obb));
    assert!(!triangle_obb(&tri([1.5, -1.0, -1.0], [1.5, 1.0, -1.0], [1.5, 0.0, 1.0]), &obb));
    // Ball r = 1 at (0,0,1): the unit triangle's vertex (0,0,0) is at distance 1 → touching.
    let t = tri([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
    assert!(triangle_ball(&t, &Ball::new(p3(0.0, 0.0, 1.0), 1.0).unwrap()));
    assert!(!triangle_ball(&t, &Ball::new(p3(0.0, 0.0, 1.0001), 1.0).unwrap()));
    // Closest feature is the hypotenuse: centre (1,1,0), distance to x + y = 1 is 1/√2 ≈ 0.7071.
    assert!(triangle_ball(&t, &Ball::new(p3(1.0, 1.0, 0.0), 0.7072).unwrap()));
    assert!(!triangle_ball(&t, &Ball::new(p3(1.0, 1.0, 0.0), 0.7070).unwrap()));
}

#[test]
fn bounding_volume_pairs() {
    // Balls r = 1 and 2 with centres 3 apart: touching.
    let a = Ball::new(p3(0.0, 0.0, 0.0), 1.0).unwrap();
    assert!(ball_ball(&a, &Ball::new(p3(3.0, 0.0, 0.0), 2.0).unwrap()));
    assert!(!ball_ball(&a, &Ball::new(p3(3.0, 0.0, 0.001), 2.0).unwrap()));
    // Ball near the box corner (1,1,1): centre (2,2,2) is √3 ≈ 1.732 away.
    let b = unit_box();
    for f in [ball_aabb::<f64, 3>, ball_aabb_clamped::<f64, 3>] {
        assert!(f(&Ball::new(p3(2.0, 2.0, 2.0), 1.733).unwrap(), &b));
        assert!(!f(&Ball::new(p3(2.0, 2.0, 2.0), 1.731).unwrap(), &b));
        // Centre inside: always overlaps, even radius 0.
        assert!(f(&Ball::new(p3(0.5, 0.0, 0.0), 0.0).unwrap(), &b));
    }
    // AABB pairs: sharing the face x = 1 → touching; 1e-9 apart → disjoint.
    let right = Aabb::new(p3(1.0, -1.0, -1.0), p3(3.0, 1.0, 1.0)).unwrap();
    assert!(aabb_aabb(&b, &right) && aabb_aabb(&right, &b));
    let gap = Aabb::new(p3(1.0 + 1e-9, -1.0, -1.0), p3(3.0, 1.0, 1.0)).unwrap();
    assert!(!aabb_aabb(&b, &gap));
    // Huge coordinates: boxes at ±1e6 overlapping by 1.
    let h1 = Aabb::new(p3(-1e6, 0.0, 0.0), p3(1.0, 1.0, 1.0)).unwrap();
    let h2 = Aabb::new(p3(0.0, 0.0, 0.0), p3(1e6, 1.0, 1.0)).unwrap();
    assert!(aabb_aabb(&h1, &h2));
    // k-DOPs: two 8-DOPs (2D) of diamonds |x| + |y| ≤ 1 centred at (0,0) and (2.1, 0): their
    // AABBs overlap on [1, 1.1]... no: [−1,1] and [1.1, 3.1] are disjoint in x. Use (1.5, 1.5):
    // AABBs [−1,1]² and [0.5,2.5]² overlap, but the diagonal slab x + y: [−1, 1] vs [2, 4]
    // separates.
    let diamond = |cx: f64, cy: f64| {
        Dop8::<f64>::from_points(&[p2(cx + 1.0, cy), p2(cx - 1.0, cy), p2(cx, cy + 1.0), p2(cx, cy - 1.0)])
            .unwrap()
    };
    assert!(!kdop_kdop(&diamond(0.0, 0.0), &diamond(1.5, 1.5)));
    assert!(kdop_kdop(&diamond(0.0, 0.0), &diamond(1.0, 1.0))); // touching along x + y = 1
    let as_box = |cx: f64, cy: f64| {
        Dop4::<f64>::from_points(&[p2(cx + 1.0, cy), p2(cx - 1.0, cy), p2(cx, cy + 1.0), p2(cx, cy - 1.0)])
            .unwrap()
    };
    assert!(kdop_kdop(&as_box(0.0, 0.0), &as_box(1.5, 1.5))); // 4-DOPs (boxes) do overlap
                                                              // Capsules: parallel segments 1 apart with radii 0.5 each: touching.
    let c1 = Capsule::new(p3(0.0, 0.0, 0.0), p3(2.0, 0.0, 0.0), 0.5).unwrap();
    let c2 = Capsule::new(p3(1.0, 1.0, 0.0), p3(3.0, 1.0, 0.0), 0.5).unwrap();
    assert!(capsule_capsule(&c1, &c2));
    let c3 = Capsule::new(p3(1.0, 1.01, 0.0), p3(3.0, 1.01, 0.0), 0.5).unwrap();
    assert!(!capsule_capsule(&c1, &c3));
    // Crossing skew segments (x axis and z = 1 line along y): distance 1; radii 0.5 + 0.5 touch.
    let c4 = Capsule::new(p3(1.0, -1.0, 1.0), p3(1.0, 1.0, 1.0), 0.5).unwrap();
    assert!(capsule_capsule(&c1, &c4));
    // Capsule/ball: ball at (1, 2, 0) is 2 from the segment; radii 0.5 + 1.5 touch.
    assert!(capsule_ball(&c1, &Ball::new(p3(1.0, 2.0, 0.0), 1.5).unwrap()));
    assert!(!capsule_ball(&c1, &Ball::new(p3(1.0, 2.0, 0.0), 1.49).unwrap()));
    // Capsule/AABB: a capsule along the diagonal above the box corner. Segment from (2,2,3) to
    // (3,3,2): the closest box point is the corner (1,1,1); the closest segment point minimizes
    // |(2+s-1, 2+s-1, 3-s-1)|² = 2(1+s)² + (2-s)², derivative 4(1+s) - 2(2-s) = 0 → s = 0,
    // distance² = 2 + 4 = 6, distance √6 ≈ 2.449.
    let seg_cap = |r: f64| Capsule::new(p3(2.0, 2.0, 3.0), p3(3.0, 3.0, 2.0), r).unwrap();
    assert!(capsule_aabb(&seg_cap(2.45), &b));
    assert!(!capsule_aabb(&seg_cap(2.44), &b));
    // A capsule passing through the box: distance 0.
    assert!(capsule_aabb(&Capsule::new(p3(-5.0, 0.0, 0.0), p3(5.0, 0.0, 0.0), 0.0).unwrap(), &b));
    // Capsule/OBB: the unit box turned 45° about z has its edge x = √2 (at y = 0) along z. A
    // vertical capsule at x = √2 + 0.5 touches it with radius 0.5.
    let turned = Obb::from_rotation(
        p3(0.0, 0.0, 0.0),
        UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_4),
        v3(1.0, 1.0, 1.0),
    )
    .unwrap();
    let x = 2f64.sqrt() + 0.5;
    let upright = |r: f64| Capsule::new(p3(x, 0.0, -3.0), p3(x, 0.0, 3.0), r).unwrap();
    assert!(capsule_obb(&upright(0.5 + 1e-12), &turned));
    assert!(!capsule_obb(&upright(0.5 - 1e-9), &turned));
    // The same capsule laid along y above the box's top face z = 1, 0.25 up: parallel to the
    // face, its distance is 0.25 wherever it crosses the face.
    let lying = |r: f64| Capsule::new(p3(0.2, -5.0, 1.25), p3(0.2, 5.0, 1.25), r).unwrap();
    assert!(capsule_obb(&lying(0.25), &turned));
    assert!(!capsule_obb(&lying(0.2499), &turned));
    // A point capsule (a ball) 0.5 from the top face, and one deep inside.
    let ball_like = |z: f64, r: f64| Capsule::new(p3(0.0, 0.0, z), p3(0.0, 0.0, z), r).unwrap();
    assert!(capsule_obb(&ball_like(1.5, 0.5), &turned));
    assert!(!capsule_obb(&ball_like(1.5, 0.49), &turned));
    assert!(capsule_obb(&ball_like(0.0, 0.0), &turned));
    // The corner capsule of the AABB case above, through the sort-free distance: √6.
    let d2 = segment_aabb_distance_squared(&seg_cap(0.0).segment(), &b);
    assert!((d2 - 6.0).abs() < 1e-12, "{d2}");
    // Fuzz finding 70: a segment 10⁷⁵ long through a slab 10⁷⁵ wide and 2 thick crosses it
    // inside one ulp of its parameter; it still crosses it (distance 0, not 10⁵⁹).
    let slab = Aabb::new(p3(-1e75, -1e75, -1.0), p3(1e75, 1e75, 1.0)).unwrap();
    let through = Segment::new(p3(3e74, 5e74, -9e74), p3(-2e74, 1e74, 7e74)).unwrap();
    assert_eq!(segment_aabb_distance_squared(&through, &slab), 0.0);
    assert!(capsule_aabb(&Capsule::new(p3(3e74, 5e74, -9e74), p3(-2e74, 1e74, 7e74), 0.0).unwrap(), &slab));
    // Far from the origin in f32: a box at 10⁶ and a capsule 0.5 beside its face.
    let far = Obb::from_rotation(
        Point3::new(1.0e6f32, 1.0e6, 0.0),
        UnitQuaternion::identity(),
        Vector3::new(1.0f32, 1.0, 1.0),
    )
    .unwrap();
    let beside = |r: f32| {
        Capsule::new(
            Point3::new(1.0e6f32 + 1.5, 1.0e6 - 4.0, 0.0),
            Point3::new(1.0e6f32 + 1.5, 1.0e6 + 4.0, 0.0),
            r,
        )
        .unwrap()
    };
    assert!(capsule_obb(&beside(0.55), &far));
    assert!(!capsule_obb(&beside(0.45), &far));
    // 2D circle/AABB.
    let circle = Ball::new(p2(2.0, 0.5), 1.0).unwrap();
    assert!(ball_aabb(&circle, &Aabb::new(p2(-1.0, -1.0), p2(1.0, 1.0)).unwrap()));
}

#[test]
fn obb_pairs() {
    // Two unit-half-extent boxes; B rotated 45° about z at distance d along x. B reaches
    // x = d - √2 towards A, so they overlap iff d ≤ 1 + √2 ≈ 2.4142.
    let a = Obb::from_rotation(p3(0.0, 0.0, 0.0), UnitQuaternion::identity(), v3(1.0, 1.0, 1.0)).unwrap();
    let q = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_4);
    let b = |d: f64| Obb::from_rotation(p3(d, 0.0, 0.0), q, v3(1.0, 1.0, 1.0)).unwrap();
    assert!(obb_obb(&a, &b(2.414)));
    assert!(!obb_obb(&a, &b(2.415)));
    assert!(obb_obb(&b(2.414), &a));
    // Identical boxes (parallel edges everywhere: R = I, the cross products vanish; the ε keeps
    // the edge axes from separating): overlap.
    assert!(obb_obb(&a, &a));
    // Edge–edge separation that the face axes cannot see: two boxes rotated so their closest
    // features are skew edges. A: cube rotated 45° about z (edge along z pointing at +x at
    // x = √2). B: cube rotated 45° about x (edge along x pointing at -y... ) placed so only the
    // edge–edge axis separates: B's edge along y is closest to A's edge along z.
    let qa = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_4);
    let qb = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), std::f64::consts::FRAC_PI_4);
    let oa = Obb::from_rotation(p3(0.0, 0.0, 0.0), qa, v3(1.0, 1.0, 1.0)).unwrap();
    // A reaches x = √2 along its z-edge; B rotated about y reaches x = d - √2 along its y-edge.
    // The edges are perpendicular skew lines at x = √2 and x = d - √2: separated iff
    // d > 2√2 ≈ 2.8284. Face axes: A's face normals (1,1,0)/√2 etc. give overlap up to
    // d ≈ 2√2 + ... larger, so in (2√2, face bound) only the edge axis separates.
    let ob = |d: f64| Obb::from_rotation(p3(d, 0.0, 0.0), qb, v3(1.0, 1.0, 1.0)).unwrap();
    assert!(!obb_obb(&oa, &ob(2.9)));
    assert!(obb_obb_face_axes(&oa, &ob(2.9)), "face axes alone are conservative here");
    assert!(obb_obb(&oa, &ob(2.8)));
    // 2D: boxes of half extents (1, 0.5); B rotated 90° and moved (1.5, 0): B covers
    // x ∈ [1, 2], A covers x ≤ 1 → touching.
    let a2 = Obb::from_angle(p2(0.0, 0.0), 0.0, Vector2::new(1.0, 0.5)).unwrap();
    let b2 = Obb::from_angle(p2(1.5, 0.0), std::f64::consts::FRAC_PI_2, Vector2::new(1.0, 0.5)).unwrap();
    assert!(obb_obb_2d(&a2, &b2));
    let b3 = Obb::from_angle(p2(1.51, 0.0), std::f64::consts::FRAC_PI_2, Vector2::new(1.0, 0.5)).unwrap();
    assert!(!obb_obb_2d(&a2, &b3));
    // Ball/OBB in 2D (circle/OBB): a circle r = 0.3 at (1.2, 0) against a box rotated 45° with
    // half extents (1, 0.5): in box coordinates the centre is (0.8485, -0.8485), 0.3485 beyond
    // the y extent → disjoint; with r = 0.35 → overlapping.
    let obb45 = Obb::from_angle(p2(0.0, 0.0), std::f64::consts::FRAC_PI_4, Vector2::new(1.0, 0.5)).unwrap();
    assert!(!ball_obb(&Ball::new(p2(1.2, 0.0), 0.3).unwrap(), &obb45));
    assert!(ball_obb(&Ball::new(p2(1.2, 0.0), 0.35).unwrap(), &obb45));
}

#[test]
fn frustum_planes_and_culling() {
    // OpenGL perspective: fovy 90°, aspect 1, near 1, far 10, looking down -z.
    let m = Matrix4::new_perspective(1.0, std::f64::consts::FRAC_PI_2, 1.0, 10.0);
    let f = Frustum::from_view_projection(&m).unwrap();
    // Near plane: z = -1 with inward normal -z → n = (0,0,-1), d = -1.
    let near = f.plane(FrustumPlane::Near);
    assert!((near.normal() - v3(0.0, 0.0, -1.0)).norm() < 1e-9 && (near.d() + 1.0).abs() < 1e-9);
    // Far plane: z = -10, inward normal +z → d = 10.
    let far = f.plane(FrustumPlane::Far);
    assert!((far.normal() - v3(0.0, 0.0, 1.0)).norm() < 1e-9 && (far.d() - 10.0).abs() < 1e-9);
    // Left plane: x = z (at 45°), inward normal (1,0,-1)/√2.
    let left = f.plane(FrustumPlane::Left);
    assert!((left.normal() - v3(1.0, 0.0, -1.0) / 2f64.sqrt()).norm() < 1e-9);
    // Every plane has the interior point (0,0,-5) on its positive side.
    assert!(f.planes().iter().all(|p| p.signed_distance(&p3(0.0, 0.0, -5.0)) > 0.0));
    // Spheres.
    assert_eq!(frustum_ball(&f, &Ball::new(p3(0.0, 0.0, -5.0), 1.0).unwrap()), Containment::Inside);
    assert_eq!(frustum_ball(&f, &Ball::new(p3(0.0, 0.0, -0.5), 0.6).unwrap()), Containment::Intersecting);
    assert_eq!(frustum_ball(&f, &Ball::new(p3(0.0, 0.0, 5.0), 1.0).unwrap()), Containment::Outside);
    // Boxes: inside, straddling the far plane, beside the frustum.
    let inside = Aabb::new(p3(-0.5, -0.5, -5.5), p3(0.5, 0.5, -4.5)).unwrap();
    assert_eq!(frustum_aabb(&f, &inside), Containment::Inside);
    let straddle = Aabb::new(p3(-0.5, -0.5, -11.0), p3(0.5, 0.5, -9.0)).unwrap();
    assert_eq!(frustum_aabb(&f, &straddle), Containment::Intersecting);
    let beside = Aabb::new(p3(20.0, -0.5, -5.5), p3(21.0, 0.5, -4.5)).unwrap();
    assert_eq!(frustum_aabb(&f, &beside), Containment::Outside);
    assert_eq!(frustum_obb(&f, &Obb::from_aabb(&inside)), Containment::Inside);
    assert_eq!(frustum_obb(&f, &Obb::from_aabb(&beside)), Containment::Outside);
    // Zero-to-one depth: the near plane is row 2 alone. A D3D-style projection of the same
    // frustum maps z = -1 to depth 0: check the near plane still passes through z = -1.
    let mut d3d = m;
    // Remap OpenGL depth z' ∈ [-w, w] to [0, w]: row2 ← (row2 + row3) / 2.
    for j in 0..4 {
        d3d[(2, j)] = 0.5 * (m[(2, j)] + m[(3, j)]);
    }
    let f01 = Frustum::from_view_projection_zero_to_one(&d3d).unwrap();
    assert!(f01.plane(FrustumPlane::Near).signed_distance(&p3(0.0, 0.0, -1.0)).abs() < 1e-9);
    // A NaN matrix is rejected.
    let mut bad = m;
    bad[(0, 0)] = f64::NAN;
    assert_eq!(Frustum::from_view_projection(&bad), Err(GeomError::NonFinite));
}

#[test]
fn lines_2d_both_methods() {
    let seg = |a: (f64, f64), b: (f64, f64)| Segment::new(p2(a.0, a.1), p2(b.0, b.1)).unwrap();
    // Crossing diagonals of the square [0,2]²: meet at (1,1), s = t = 0.5.
    let (a, b) = (seg((0.0, 0.0), (2.0, 2.0)), seg((0.0, 2.0), (2.0, 0.0)));
    assert_eq!(segment_segment_2d(&a, &b), SegmentSegment2::Point { point: p2(1.0, 1.0), s: 0.5, t: 0.5 });
    assert!(segments_intersect_2d(&a, &b));
    // The lines meet at (1,1) but the second segment stops at x = 0.5: disjoint.
    let short = seg((0.0, 2.0), (0.5, 1.5));
    assert_eq!(segment_segment_2d(&a, &short), SegmentSegment2::Disjoint);
    assert!(!segments_intersect_2d(&a, &short));
    // Touching at an endpoint: (2,2) is on both.
    let touch = seg((2.0, 2.0), (3.0, 0.0));
    assert!(segments_intersect_2d(&a, &touch));
    assert!(matches!(segment_segment_2d(&a, &touch), SegmentSegment2::Point { s, .. } if s == 1.0));
    // Parallel, distinct.
    let par = seg((0.0, 1.0), (2.0, 3.0));
    assert_eq!(segment_segment_2d(&a, &par), SegmentSegment2::Disjoint);
    assert!(!segments_intersect_2d(&a, &par));
    // Collinear overlapping: [1,1]-[3,3] overlaps [0,0]-[2,2] on [1,1]-[2,2].
    let col = seg((1.0, 1.0), (3.0, 3.0));
    assert_eq!(segment_segment_2d(&a, &col), SegmentSegment2::Overlap(p2(1.0, 1.0), p2(2.0, 2.0)));
    assert!(segments_intersect_2d(&a, &col));
    // Collinear touching at one point, and collinear apart.
    assert!(matches!(segment_segment_2d(&a, &seg((2.0, 2.0), (4.0, 4.0))), SegmentSegment2::Point { .. }));
    assert_eq!(segment_segment_2d(&a, &seg((2.5, 2.5), (4.0, 4.0))), SegmentSegment2::Disjoint);
    assert!(!segments_intersect_2d(&a, &seg((2.5, 2.5), (4.0, 4.0))));
    // Degenerate: a point on the segment, a point off it.
    assert!(segments_intersect_2d(&a, &seg((0.5, 0.5), (0.5, 0.5))));
    assert!(!segments_intersect_2d(&a, &seg((0.5, 0.6), (0.5, 0.6))));
    // Lines: y = x and y = -x + 4 meet at (2,2), s = 2 along (1,1) from the origin.
    let l1 = Line::new(p2(0.0, 0.0), Vector2::new(1.0, 1.0)).unwrap();
    let l2 = Line::new(p2(0.0, 4.0), Vector2::new(1.0, -1.0)).unwrap();
    assert_eq!(line_line_2d(&l1, &l2), LineLine2::Point { point: p2(2.0, 2.0), s: 2.0, t: 2.0 });
    let l3 = Line::new(p2(0.0, 1.0), Vector2::new(2.0, 2.0)).unwrap();
    assert_eq!(line_line_2d(&l1, &l3), LineLine2::Parallel);
    let l4 = Line::new(p2(5.0, 5.0), Vector2::new(-3.0, -3.0)).unwrap();
    assert_eq!(line_line_2d(&l1, &l4), LineLine2::Coincident);
}

#[test]
fn lines_3d_and_three_planes() {
    // x axis and the line through (0,1,1) along y... use z = 1 line along y through x = 2:
    // closest points (2,0,0) and (2,0,1), distance 1.
    let l1 = Line::new(p3(0.0, 0.0, 0.0), v3(1.0, 0.0, 0.0)).unwrap();
    let l2 = Line::new(p3(2.0, 5.0, 1.0), v3(0.0, 1.0, 0.0)).unwrap();
    let (s, t, a, b) = line_line_closest_3d(&l1, &l2).unwrap();
    assert_eq!((s, t), (2.0, -5.0));
    assert_eq!((a, b), (p3(2.0, 0.0, 0.0), p3(2.0, 0.0, 1.0)));
    assert!(line_line_closest_3d(&l1, &Line::new(p3(0.0, 1.0, 0.0), v3(-2.0, 0.0, 0.0)).unwrap()).is_none());
    // Planes x = 1, y = 2, z = 3 (n·x + d = 0 with d = -1, -2, -3): meet at (1,2,3).
    let px = Plane::new(v3(1.0, 0.0, 0.0), -1.0).unwrap();
    let py = Plane::new(v3(0.0, 1.0, 0.0), -2.0).unwrap();
    let pz = Plane::new(v3(0.0, 0.0, 1.0), -3.0).unwrap();
    assert_eq!(three_planes(&px, &py, &pz), Some(p3(1.0, 2.0, 3.0)));
    // Slanted: x + y = 2, y = 1, z = x → x = 1, y = 1, z = 1.
    let s1 = Plane::new(v3(1.0, 1.0, 0.0), -2.0).unwrap();
    let s3 = Plane::new(v3(1.0, 0.0, -1.0), 0.0).unwrap();
    let p = three_planes(&s1, &Plane::new(v3(0.0, 1.0, 0.0), -1.0).unwrap(), &s3).unwrap();
    assert!((p - p3(1.0, 1.0, 1.0)).norm() < 1e-12);
    // Two parallel planes: no point.
    assert!(three_planes(&px, &Plane::new(v3(2.0, 0.0, 0.0), 5.0).unwrap(), &pz).is_none());
    // Three planes through one line (the z axis): x = 0, y = 0, x + y = 0.
    let pxy = Plane::new(v3(1.0, 1.0, 0.0), 0.0).unwrap();
    assert!(three_planes(
        &Plane::new(v3(1.0, 0.0, 0.0), 0.0).unwrap(),
        &Plane::new(v3(0.0, 1.0, 0.0), 0.0).unwrap(),
        &pxy
    )
    .is_none());
}

#[test]
fn polygons_2d() {
    let poly = |v: &[(f64, f64)]| Polygon::new(v.iter().map(|&(x, y)| p2(x, y)).collect()).unwrap();
    let square = poly(&[(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)]);
    let tri_right = poly(&[(2.0, 1.0), (4.0, 0.0), (4.0, 2.0)]); // touches the square at (2,1)
    assert!(square.is_convex() && tri_right.is_convex());
    assert!(polygons_overlap_2d(&square, &tri_right));
    let tri_far = poly(&[(2.1, 1.0), (4.0, 0.0), (4.0, 2.0)]);
    assert!(!polygons_overlap_2d(&square, &tri_far));
    // A triangle whose edge normal separates along a diagonal: x + y ≥ 4.2.
    let diag = poly(&[(4.2, 0.0), (4.2, 4.2), (0.0, 4.2)]);
    assert!(!polygons_overlap_2d(&square, &diag));
    // Clockwise input works the same.
    let square_cw = poly(&[(0.0, 0.0), (0.0, 2.0), (2.0, 2.0), (2.0, 0.0)]);
    assert!(polygons_overlap_2d(&square_cw, &tri_right) && !polygons_overlap_2d(&square_cw, &tri_far));
    // Non-convex: a U shape with a small square inside the notch (not touching): disjoint,
    // though the convex hulls overlap.
    let u = poly(&[
        (0.0, 0.0),
        (3.0, 0.0),
        (3.0, 3.0),
        (2.0, 3.0),
        (2.0, 1.0),
        (1.0, 1.0),
        (1.0, 3.0),
        (0.0, 3.0),
    ]);
    assert!(!u.is_convex());
    let in_notch = poly(&[(1.2, 1.5), (1.8, 1.5), (1.8, 2.5), (1.2, 2.5)]);
    assert!(!polygons_overlap_2d(&u, &in_notch));
    // Inside the U's left arm entirely (no edge crossings): containment → overlap.
    let in_arm = poly(&[(0.2, 1.5), (0.8, 1.5), (0.8, 2.5), (0.2, 2.5)]);
    assert!(polygons_overlap_2d(&u, &in_arm) && polygons_overlap_2d(&in_arm, &u));
    // A self-intersecting pentagram is not convex.
    let star = poly(&[(0.0, 3.0), (1.76, -2.43), (-2.85, 0.93), (2.85, 0.93), (-1.76, -2.43)]);
    assert!(!star.is_convex());
    // Rejections.
    assert_eq!(Polygon::new(vec![p2(0.0, 0.0), p2(1.0, 0.0)]), Err(GeomError::TooFewPoints));
    assert_eq!(Polygon::new(vec![p2(0.0, 0.0), p2(1.0, 0.0), p2(2.0, 0.0)]), Err(GeomError::Degenerate));
    assert_eq!(
        Polygon::new(vec![p3(0.0, 0.0, 0.0), p3(1.0, 0.0, 0.0), p3(1.0, 1.0, 0.0), p3(0.0, 1.0, 0.5)]),
        Err(GeomError::NotPlanar)
    );
}

#[test]
fn closest_point_helpers() {
    let s = Segment::new(p3(0.0, 0.0, 0.0), p3(2.0, 0.0, 0.0)).unwrap();
    assert_eq!(closest_point_on_segment(&p3(1.0, 1.0, 0.0), &s), (p3(1.0, 0.0, 0.0), 0.5));
    assert_eq!(closest_point_on_segment(&p3(-1.0, 1.0, 0.0), &s), (p3(0.0, 0.0, 0.0), 0.0));
    // Zero-length segment.
    let z = Segment::new(p3(1.0, 1.0, 1.0), p3(1.0, 1.0, 1.0)).unwrap();
    assert_eq!(closest_point_on_segment(&p3(0.0, 0.0, 0.0), &z).0, p3(1.0, 1.0, 1.0));
    // Triangle regions: above the face, beyond a vertex, beyond an edge.
    let t = tri([0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 2.0, 0.0]);
    assert_eq!(closest_point_on_triangle(&p3(0.5, 0.5, 3.0), &t), (p3(0.5, 0.5, 0.0), 0.25, 0.25));
    assert_eq!(closest_point_on_triangle(&p3(-1.0, -1.0, 0.0), &t).0, p3(0.0, 0.0, 0.0));
    assert_eq!(closest_point_on_triangle(&p3(3.0, -1.0, 0.0), &t).0, p3(2.0, 0.0, 0.0));
    assert_eq!(closest_point_on_triangle(&p3(1.0, -1.0, 0.0), &t).0, p3(1.0, 0.0, 0.0));
    // Beyond the hypotenuse x + y = 2 at (2,2): closest (1,1).
    assert_eq!(closest_point_on_triangle(&p3(2.0, 2.0, 0.0), &t).0, p3(1.0, 1.0, 0.0));
    // Degenerate triangle (collinear): closest point on the segment it spans.
    let d = tri([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]);
    assert_eq!(closest_point_on_triangle(&p3(1.5, 1.0, 0.0), &d).0, p3(1.5, 0.0, 0.0));
    // Two equal vertices (found by the narrow fuzz target, 2026-11-24): every test of the
    // edge a = b passed as 0 ≤ 0 and the answer was a, 8 away instead of on edge ac. Each
    // coincident pair, each way round, against the closest point of the segment they span.
    let (a, c) = (p3(0.0, -2.645, 8.941), p3(-2.645, 8.941, 0.0293));
    let q = p3(0.7535, 0.0, -2.645);
    let on_ac = closest_point_on_segment(&q, &Segment::new(a, c).unwrap()).0;
    for t in [Triangle::new(a, a, c), Triangle::new(a, c, a), Triangle::new(c, a, a)] {
        let got = closest_point_on_triangle(&q, &t.unwrap()).0;
        assert!((got - on_ac).norm() < 1e-12, "{got:?} vs {on_ac:?}");
    }
    // Collinear vertices in the order a, b, c = left, far right, further left (finding 18):
    // the region tests all compared vanishing products, and a point 1.6·10⁻⁴ off the segment
    // got an answer 0.015 away. Every vertex order, in f64 and f32.
    let (off_y, off_z) = (-0.00030517578125, -0.00030517578125);
    let (a, b, c) = (
        [-0.00046199999999999995, off_y, off_z],
        [4.078369140625, off_y, off_z],
        [-0.0372314453125, off_y, off_z],
    );
    let q = p3(0.012849999999999999, -0.00046199999999999995, off_z);
    let expected = p3(0.012849999999999999, off_y, off_z);
    for [x, y, z] in [[a, b, c], [b, c, a], [c, a, b], [a, c, b], [b, a, c], [c, b, a]] {
        let got = closest_point_on_triangle(&q, &tri(x, y, z)).0;
        assert!((got - expected).norm() < 1e-14, "{got:?}");
        let t32 =
            Triangle::new(x.map(|v| v as f32).into(), y.map(|v| v as f32).into(), z.map(|v| v as f32).into())
                .unwrap();
        let got = closest_point_on_triangle(&q.cast::<f32>(), &t32).0;
        assert!((got - expected.cast::<f32>()).norm() < 1e-6, "{got:?}");
    }
    // AABB, OBB, plane.
    assert_eq!(closest_point_on_aabb(&p3(3.0, 0.5, -4.0), &unit_box()), p3(1.0, 0.5, -1.0));
    let q = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_4);
    let obb = Obb::from_rotation(p3(0.0, 0.0, 0.0), q, v3(1.0, 1.0, 1.0)).unwrap();
    assert!((closest_point_on_obb(&p3(5.0, 0.0, 0.0), &obb) - p3(2f64.sqrt(), 0.0, 0.0)).norm() < 1e-12);
    let pl = Plane::new(v3(0.0, 0.0, 1.0), -1.0).unwrap();
    assert_eq!(closest_point_on_plane(&p3(3.0, 4.0, 7.0), &pl), p3(3.0, 4.0, 1.0));
    // Segment–segment: skew perpendicular segments 1 apart.
    let s2 = Segment::new(p3(1.0, -1.0, 1.0), p3(1.0, 1.0, 1.0)).unwrap();
    let (c, ps, pt) = closest_points_segment_segment(&s, &s2);
    assert_eq!((c.a, c.b, ps, pt), (p3(1.0, 0.0, 0.0), p3(1.0, 0.0, 1.0), 0.5, 0.5));
    // Parallel overlapping segments: distance 1, any pair.
    let s3 = Segment::new(p3(1.0, 1.0, 0.0), p3(3.0, 1.0, 0.0)).unwrap();
    assert!((closest_points_segment_segment(&s, &s3).0.distance() - 1.0).abs() < 1e-12);
    // Both degenerate.
    assert_eq!(closest_points_segment_segment(&z, &z).0.distance_squared, 0.0);
    // Segment–AABB: segment above the box from (-3,0,3) to (3,0,3): distance 2 to the top.
    let above = Segment::new(p3(-3.0, 0.0, 3.0), p3(3.0, 0.0, 3.0)).unwrap();
    assert!((closest_points_segment_aabb(&above, &unit_box()).0.distance() - 2.0).abs() < 1e-12);
    // Segment–triangle: piercing → 0; parallel above → height.
    let pierce = Segment::new(p3(0.5, 0.5, -1.0), p3(0.5, 0.5, 1.0)).unwrap();
    assert_eq!(closest_points_segment_triangle(&pierce, &t).distance_squared, 0.0);
    let over = Segment::new(p3(0.2, 0.2, 2.0), p3(0.8, 0.2, 2.0)).unwrap();
    assert!((closest_points_segment_triangle(&over, &t).distance() - 2.0).abs() < 1e-12);
    // Triangle–triangle: B is A moved up by 3 → distance 3; edge-edge case: B rotated.
    let up = tri([0.0, 0.0, 3.0], [2.0, 0.0, 3.0], [0.0, 2.0, 3.0]);
    assert!((closest_points_triangle_triangle(&t, &up).distance() - 3.0).abs() < 1e-12);
    // B's edge from (1.5,1.5,-1) to (1.5,1.5,1) lies beside A's hypotenuse x + y = 2: the
    // closest points are (1,1,0) and (1.5,1.5,0), distance √0.5.
    let side = tri([1.5, 1.5, -1.0], [1.5, 1.5, 1.0], [3.0, 3.0, 0.0]);
    assert!((closest_points_triangle_triangle(&t, &side).distance() - 0.5f64.sqrt()).abs() < 1e-12);
}

#[test]
fn support_maps_hand_cases() {
    let d = v3(1.0, 2.0, -3.0);
    let b = unit_box();
    assert_eq!(b.support(&d), p3(1.0, 1.0, -1.0));
    let s = Ball::new(p3(1.0, 0.0, 0.0), 2.0).unwrap();
    assert!((s.support(&v3(0.0, 3.0, 0.0)) - p3(1.0, 2.0, 0.0)).norm() < 1e-12);
    // A zero direction never yields NaN.
    assert!(s.support(&Vector3::zeros()).iter().all(|x| x.is_finite()));
    let cap = Capsule::new(p3(0.0, 0.0, 0.0), p3(0.0, 0.0, 2.0), 1.0).unwrap();
    assert!((cap.support(&v3(0.0, 0.0, 1.0)) - p3(0.0, 0.0, 3.0)).norm() < 1e-12);
    let cyl = Cylinder::new(p3(0.0, 0.0, 0.0), p3(0.0, 0.0, 2.0), 1.0).unwrap();
    assert!((cyl.support(&v3(1.0, 0.0, 1.0)) - p3(1.0, 0.0, 2.0)).norm() < 1e-12);
    let cone = Cone::new(p3(0.0, 0.0, 2.0), p3(0.0, 0.0, 0.0), 1.0).unwrap();
    assert_eq!(cone.support(&v3(0.0, 0.0, 1.0)), p3(0.0, 0.0, 2.0));
    assert!((cone.support(&v3(1.0, 0.0, -0.1)) - p3(1.0, 0.0, 0.0)).norm() < 1e-12);
    let loz = Lozenge::new(p3(0.0, 0.0, 0.0), v3(2.0, 0.0, 0.0), v3(0.0, 1.0, 0.0), 0.5).unwrap();
    assert!(
        (loz.support(&v3(1.0, 1.0, 0.0)) - (p3(2.0, 1.0, 0.0) + v3(1.0, 1.0, 0.0).normalize() * 0.5)).norm()
            < 1e-12
    );
    // Adapters: a translated ball, the Minkowski difference of a box and itself (a box twice the
    // size centred at the origin), a point with a margin (a sphere).
    let iso = nalgebra::Isometry3::translation(5.0, 0.0, 0.0);
    let moved = Transformed::new(s, iso);
    assert!((moved.support(&v3(1.0, 0.0, 0.0)) - p3(8.0, 0.0, 0.0)).norm() < 1e-12);
    let diff = MinkowskiDifference { a: b, b };
    assert_eq!(diff.support(&d), p3(2.0, 2.0, -2.0));
    let sum = MinkowskiSum { a: b, b: p3(1.0, 1.0, 1.0) };
    assert_eq!(sum.support(&d), p3(2.0, 2.0, 0.0));
    let sphere = Margin::new(p3(0.0, 0.0, 0.0), 2.0);
    assert!((sphere.support(&v3(0.0, 0.0, -5.0)) - p3(0.0, 0.0, -2.0)).norm() < 1e-12);
    // Object safety.
    let shapes: Vec<Box<dyn SupportMap<f64, 3>>> = vec![Box::new(b), Box::new(s), Box::new(cap)];
    assert_eq!(shapes.len(), 3);
    assert!(shapes.iter().all(|sh| sh.support(&d).iter().all(|x| x.is_finite())));
}

#[test]
fn polyhedron_hill_climbing_matches_scan() {
    // A 40 × 20 UV sphere, 762 vertices (hill climbing kicks in at 64).
    let (nu, nv) = (40usize, 20usize);
    let mut verts = vec![p3(0.0, 0.0, 1.0), p3(0.0, 0.0, -1.0)];
    for j in 1..nv {
        let phi = std::f64::consts::PI * j as f64 / nv as f64;
        for i in 0..nu {
            let th = 2.0 * std::f64::consts::PI * i as f64 / nu as f64;
            verts.push(p3(phi.sin() * th.cos(), phi.sin() * th.sin(), phi.cos()));
        }
    }
    let ring = |j: usize, i: usize| 2 + (j - 1) * nu + (i % nu);
    let mut faces = Vec::new();
    for i in 0..nu {
        faces.push(vec![0, ring(1, i), ring(1, i + 1)]);
        faces.push(vec![1, ring(nv - 1, i + 1), ring(nv - 1, i)]);
        for j in 1..nv - 1 {
            faces.push(vec![ring(j, i), ring(j + 1, i), ring(j + 1, i + 1)]);
            faces.push(vec![ring(j, i), ring(j + 1, i + 1), ring(j, i + 1)]);
        }
    }
    let poly = ConvexPolyhedron::from_faces(verts.clone(), &faces).unwrap();
    // `support_from` climbs from the hint it is given and leaves the answer's index in it,
    // also when posed; a stale hint (out of range) is clamped, not trusted.
    let pose = nalgebra::Isometry3::new(v3(1.0, -2.0, 0.5), v3(0.3, -0.7, 1.1));
    let posed = Transformed::new(&poly, pose);
    let (mut hint, mut posed_hint) = (0u32, 0u32);
    for k in 0..500 {
        let a = k as f64 * 0.731;
        let d = v3(a.cos() * (a * 0.37).sin(), a.sin(), (a * 1.91).cos());
        let best = verts.iter().map(|v| d.dot(&v.coords)).fold(f64::NEG_INFINITY, f64::max);
        assert!((d.dot(&poly.support(&d).coords) - best).abs() < 1e-12);
        assert!((d.dot(&verts[poly.support_index(&d, k % verts.len())].coords) - best).abs() < 1e-12);
        let p = poly.support_from(&d, &mut hint);
        assert!((d.dot(&p.coords) - best).abs() < 1e-12);
        assert_eq!(p, verts[hint as usize]);
        let mut stale = u32::MAX - k as u32;
        assert!((d.dot(&poly.support_from(&d, &mut stale).coords) - best).abs() < 1e-12);
        let world_best = verts.iter().map(|v| d.dot(&(pose * v).coords)).fold(f64::NEG_INFINITY, f64::max);
        assert!((d.dot(&posed.support_from(&d, &mut posed_hint).coords) - world_best).abs() < 1e-12);
        let grown = Margin::new(&poly, 0.25);
        let mut grown_hint = hint;
        assert!(
            (d.dot(&grown.support_from(&d, &mut grown_hint).coords) - best - 0.25 * d.norm()).abs() < 1e-12
        );
    }
    // A non-convex face set is rejected.
    let mut dented = verts.clone();
    dented[5] = Point3::from(dented[5].coords * 0.5);
    assert_eq!(ConvexPolyhedron::from_faces(dented, &faces).err(), Some(GeomError::NotConvex));
    assert_eq!(
        ConvexPolyhedron::from_faces(verts, &vec![vec![0, 1, 999]; 4]).err(),
        Some(GeomError::IndexOutOfBounds)
    );
}

/// Segment-shaped triangles (collinear vertices whose coordinates round differently, so the
/// cross product is noise rather than zero) piercing a large triangle: every pose intersects,
/// both ways round. Before collinear triangles were routed to the edge tests, planes built
/// from the noise normal called 4 % of these disjoint.
#[test]
fn segment_shaped_triangles_piercing_a_triangle() {
    let mut state = 99u64;
    let mut r = || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((state >> 33) as f64 / (1u64 << 31) as f64) * 2.0 - 1.0
    };
    let big = tri([-3.0, -3.0, 0.0], [3.0, -3.0, 0.0], [0.0, 3.0, 0.0]);
    for _ in 0..20_000 {
        let d = v3(r(), r(), r().abs() + 0.1);
        let o = p3(r() * 0.5, r() * 0.5, 0.0);
        let (below, above, any) = (-r().abs() - 0.01, r().abs() + 0.01, r());
        let seg = Triangle::new(o + d * below, o + d * above, o + d * any).unwrap();
        assert!(
            triangle_triangle(&seg, &big).intersects() && triangle_triangle(&big, &seg).intersects(),
            "{seg:?}"
        );
        // And lifted clear of the plane, never.
        let lift = v3(0.0, 0.0, 0.02 - d.z * below.min(any));
        let apart = Triangle::new(seg.a() + lift, seg.b() + lift, seg.c() + lift).unwrap();
        assert!(!triangle_triangle(&apart, &big).intersects(), "{apart:?}");
    }
}

/// Fuzz finding 23: in f32 the coordinate limit is 10⁹, and normalising a face normal once
/// validated the cross product as if it were a coordinate, so any triangle, polygon or
/// polyhedron face with edges beyond about 3·10⁴ (a 10⁹ cross product) had "no normal" — a
/// 10⁵-wide ground triangle was degenerate, and a box polyhedron that size failed to build.
#[test]
fn large_f32_faces_have_normals() {
    let s = 1e5f32;
    let t =
        Triangle::new(Point3::new(-s, 0.0, -s), Point3::new(s, 0.0, -s), Point3::new(0.0, 0.0, s)).unwrap();
    assert_eq!(t.normal().unwrap(), Vector3::new(0.0, -1.0, 0.0));
    assert!(t.plane().is_ok());
    assert!(edge_normal(&(t.b() - t.a()), &(t.c() - t.a())).is_some());
    let square = Polygon::new(vec![
        Point3::new(-s, 0.0, -s),
        Point3::new(s, 0.0, -s),
        Point3::new(s, 0.0, s),
        Point3::new(-s, 0.0, s),
    ])
    .unwrap();
    assert_eq!(square.normal3().y.abs(), 1.0);
    let big = Aabb::new(Point3::new(-s, -s, -s), Point3::new(s, s, s)).unwrap();
    let poly = ConvexPolyhedron::from_aabb(&big).unwrap();
    assert_eq!(poly.faces().len(), 6);
    assert!((poly.inner_radius() - s).abs() <= 1e-5 * s);
    // Near the limit itself (10⁹ coordinates, 10¹⁸ cross products) too.
    let far =
        Triangle::new(Point3::new(1e9f32, 0.0, 5.0), Point3::new(0.0, 8.0, -2e8), Point3::new(0.0, 5.0, 1e9));
    assert!(far.unwrap().normal().is_ok());
}

/// Fuzz finding 27 (FUZZING.md): a triangle lying in the face y = min y of a box 10⁻⁶ thick
/// in y. Touching counts, but the plane test, run in the box-centred frame, put the plane an
/// ulp beyond the box's half-thickness.
#[test]
fn regression_triangle_in_a_face_of_a_thin_box() {
    let lo = p3(0.008738, 0.008738, -1e-6);
    let region = Aabb::new(lo, lo + v3(2.73406982421875, 1e-6, 2.6666259765625)).unwrap();
    let t = Triangle::new(
        p3(0.03229, 0.008738, 0.008738),
        p3(0.008738, 0.008738, 0.0),
        p3(0.008738, 0.008738, 0.008738),
    )
    .unwrap();
    assert!(triangle_aabb(&t, &region));
}

/// Triangles lying in a face plane of a box, inside the face, always touch it: boxes of every
/// size and thickness (down to 10⁻¹² of their position), each face, random triangles in it.
#[test]
fn triangles_in_a_box_face_touch_the_box() {
    let mut bits = xorshift(0x1234_5678_9abc_def1);
    let mut unit = move || (bits() >> 11) as f64 / (1u64 << 53) as f64;
    for _ in 0..20_000 {
        let position = (unit() - 0.5) * 10f64.powf(unit() * 8.0 - 4.0);
        let lo = p3(position * unit(), position * unit(), position * unit());
        let size =
            v3(unit(), unit(), unit()).map(|s| s * 10f64.powf(unit() * 12.0 - 12.0) * (1.0 + position.abs()));
        let Ok(b) = Aabb::new(lo, lo + size) else { continue };
        let axis = (unit() * 3.0) as usize % 3;
        let face = if unit() < 0.5 { b.min()[axis] } else { b.max()[axis] };
        // Three points of the face (convex combinations of its corners stay inside it).
        let mut point = || {
            let mut p = Point3::from(
                b.min().coords + b.max().coords.zip_map(&b.min().coords, |h, l| h - l).map(|e| e * unit()),
            );
            p[axis] = face;
            p.coords = p.coords.sup(&b.min().coords).inf(&b.max().coords);
            p
        };
        let (p, q, r) = (point(), point(), point());
        let Ok(t) = Triangle::new(p, q, r) else { continue };
        assert!(triangle_aabb(&t, &b), "{t:?} in a face of {b:?}");
    }
}

#[test]
fn convex_counter_clockwise_outlines() {
    let p = |v: &[(f64, f64)]| v.iter().map(|&(x, y)| Point2::new(x, y)).collect::<Vec<_>>();
    let square = p(&[(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)]);
    assert!(is_convex_counter_clockwise(&square));
    let mut clockwise = square.clone();
    clockwise.reverse();
    assert!(!is_convex_counter_clockwise(&clockwise));
    // No turn at all counts (a point, a segment, collinear points); nothing does not.
    assert!(is_convex_counter_clockwise(&square[..1]) && is_convex_counter_clockwise(&square[..2]));
    assert!(is_convex_counter_clockwise(&p(&[(0.0, 0.0), (1.0, 1.0), (2.0, 2.0)])));
    assert!(!is_convex_counter_clockwise::<f64>(&[]));
    // Repeated and collinear vertices are straight turns.
    assert!(is_convex_counter_clockwise(&p(&[(0.0, 0.0), (0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (2.0, 2.0)])));
    // A dart (one reflex turn) and a pentagram (every turn left, twice around) are not convex.
    assert!(!is_convex_counter_clockwise(&p(&[(0.0, 0.0), (2.0, 1.0), (0.0, 2.0), (1.0, 1.0)])));
    let star = p(&[(0.0, 3.0), (-2.85, 0.93), (1.76, -2.43), (-1.76, -2.43), (2.85, 0.93)]);
    assert!(!is_convex_counter_clockwise(&star));
    // A vertex just inside an edge's line by about an ulp of the coordinates (f32, far from
    // the origin): straight, so a hull computed in floating point passes; inside by far more
    // than that: a real (reflex) turn.
    let near_line = |dy: f32| {
        let (x0, y0) = (1000.0f32, 1000.0f32);
        [
            Point2::new(x0, y0),
            Point2::new(x0 + 0.1, y0 + 0.1 + dy),
            Point2::new(x0 + 3.0, y0 + 3.0),
            Point2::new(x0, y0 + 3.0),
        ]
    };
    assert!(is_convex_counter_clockwise(&near_line(1e-4)));
    assert!(!is_convex_counter_clockwise(&near_line(0.05)));
}

/// A triangle's normal on obtuse slivers in f32: crossing the edges even at the widest angle
/// (near 180°) tilted it towards the long edge by up to 10⁻² rad on a unit sliver 10⁻⁶ wide;
/// it must stay perpendicular to the long edge to within rounding, and keep the orientation
/// of (b − a) × (c − a).
#[test]
fn triangle_normal_of_obtuse_slivers_stays_perpendicular_to_the_long_edge() {
    let mut bits = xorshift(7);
    let mut rnd = move || (bits() >> 11) as f64 / (1u64 << 53) as f64;
    for width in [1e-2, 1e-4, 1e-6] {
        for _ in 0..2000 {
            let q = UnitQuaternion::from_scaled_axis(Vector3::new(rnd() * 6.0, rnd() * 6.0, rnd() * 6.0));
            let off = Vector3::new(rnd() * 10.0, rnd() * 10.0, rnd() * 10.0);
            let at = |x: f64, y: f64| Point3::from(q * Vector3::new(x, y, 0.0) + off).cast::<f32>();
            let (a, b, c) = (at(0.0, 0.0), at(1.0, 0.0), at(0.3 + 0.4 * rnd(), width));
            // At 10⁻⁶ wide and 10 from the origin, f32's rounding can leave the vertices
            // collinear to within noise: no normal, and rightly so.
            let Ok(n) = Triangle::new(a, b, c).unwrap().normal() else { continue };
            let n = n.cast::<f64>();
            // The exact normal of the rounded vertices, in f64.
            let (a, b, c) = (a.cast::<f64>(), b.cast::<f64>(), c.cast::<f64>());
            let exact = (b - a).cross(&(c - a)).normalize();
            let long = (b - a).normalize();
            assert!(n.dot(&long).abs() < 1e-6, "width {width}: {} towards the long edge", n.dot(&long));
            assert!(n.dot(&exact) > 0.9, "width {width}: orientation {}", n.dot(&exact));
        }
    }
}

/// Found by the lattice property test (`lattice_triangle_pairs_match_exact_sat`): two triangles
/// on integer coordinates that touch — the edge from (2, −1, 2) to (0, 2, 0) meets the second
/// triangle, which meets the first along its edge from (2, −1, −1) to (0, 2, 2); in exact
/// arithmetic the best separating axis, (15, 10, 0), has a gap of exactly 0 — were called
/// disjoint in `f32`: the ends of the two intervals on the planes' line rounded apart. Touching
/// counts as intersecting, in both precisions and both orders.
#[test]
fn regression_touching_lattice_triangles_in_f32() {
    fn check<T: Real>() {
        let p = |x: f64, y: f64, z: f64| Point3::new(T::lit(x), T::lit(y), T::lit(z));
        let a = Triangle::new(p(0.0, 2.0, 0.0), p(2.0, 0.0, -1.0), p(2.0, -1.0, 2.0)).unwrap();
        let b = Triangle::new(p(0.0, 2.0, 2.0), p(-1.0, -1.0, -1.0), p(2.0, -1.0, -1.0)).unwrap();
        assert!(triangle_triangle(&a, &b).intersects());
        assert!(triangle_triangle(&b, &a).intersects());
        // Moved apart along that axis by a little (a projects on 20..30 and b on −25..20), they
        // are disjoint.
        let off = nalgebra::Vector3::new(T::lit(0.015), T::lit(0.01), T::zero());
        let a2 = Triangle::new(a.a() + off, a.b() + off, a.c() + off).unwrap();
        assert!(!triangle_triangle(&a2, &b).intersects());
    }
    check::<f32>();
    check::<f64>();
}
