//! `SupportMap::inner_radius` and `outer_radius`: the ball of the inner radius around the
//! interior point must lie inside the shape, the ball of the outer radius must hold it.
//! Oracle: a ball `B(c, ρ)` is inside a convex shape `S` exactly when the support function
//! clears it in every direction, `h_S(u) − u·c ≥ ρ` for unit `u`, and holds `S` exactly when
//! `h_S(u) − u·c ≤ R` for every `u`; checked on directions spread over the sphere plus the
//! directions where each shape is thinnest. The outer radius must also be tight: some support
//! point lies at that distance (to 1 %, or exactly where the shape says so).

mod common;

use cd_geom::*;
use common::*;
use nalgebra::{Point3, Vector3};
use proptest::prelude::*;

/// The smallest `h_S(u) − u·c` over the sampled unit directions.
fn clearance<S: SupportMap<f64, 3>>(shape: &S, dirs: &[Vector3<f64>]) -> f64 {
    let c = shape.interior_point();
    dirs.iter()
        .map(|d| {
            let u = d.normalize();
            u.dot(&(shape.support(&u) - c))
        })
        .fold(f64::INFINITY, f64::min)
}

/// The largest distance from the interior point to a support point over the sampled
/// directions (every support point is a point of the shape: a lower bound on the true reach).
fn reach<S: SupportMap<f64, 3>>(shape: &S, dirs: &[Vector3<f64>]) -> f64 {
    let c = shape.interior_point();
    dirs.iter().map(|d| (shape.support(&d.normalize()) - c).norm()).fold(0.0, f64::max)
}

/// The outer ball holds the shape and is not loose: the farthest sampled support point is
/// within 1 % of it (exactly `exact` where given).
fn assert_outer_ball<S: SupportMap<f64, 3>>(
    name: &str,
    shape: &S,
    extra: &[Vector3<f64>],
    exact: Option<f64>,
) {
    let dirs = probe_directions(extra);
    let big = shape.outer_radius();
    let far = reach(shape, &dirs);
    // A support point carries the rounding of the shape's coordinates (a 10⁻³ ball centred
    // at 10 has support points good to 10⁻¹⁵, 10⁻¹² of its radius): allow a few ulps of them.
    let rounding = 8.0 * f64::EPSILON * (1.0 + shape.interior_point().coords.amax());
    assert!(
        big >= far * (1.0 - 1e-12) - rounding,
        "{name}: outer radius {big} below a support point at {far}"
    );
    assert!(big <= far * 1.01 + 1e-12, "{name}: outer radius {big} loose against {far}");
    if let Some(e) = exact {
        assert!((big - e).abs() <= 1e-9 * (1.0 + e), "{name}: outer radius {big}, expected {e}");
    }
}

/// The probe directions: 2,000 spread over the sphere plus the shape's own `extra` ones.
fn probe_directions(extra: &[Vector3<f64>]) -> Vec<Vector3<f64>> {
    let mut dirs = sphere_directions(2000);
    dirs.extend_from_slice(extra);
    dirs
}

/// Directions spread over the sphere (a Fibonacci lattice) and the coordinate axes.
fn sphere_directions(n: usize) -> Vec<Vector3<f64>> {
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    let mut dirs: Vec<Vector3<f64>> = (0..n)
        .map(|i| {
            let z = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
            let r = (1.0 - z * z).sqrt();
            let a = golden * i as f64;
            Vector3::new(r * a.cos(), r * a.sin(), z)
        })
        .collect();
    for k in 0..3 {
        dirs.push(Vector3::ith(k, 1.0));
        dirs.push(-Vector3::ith(k, 1.0));
    }
    dirs
}

/// The ball is inside (to rounding) and, where `exact` is given, as large as it should be.
fn assert_inner_ball<S: SupportMap<f64, 3>>(
    name: &str,
    shape: &S,
    extra: &[Vector3<f64>],
    exact: Option<f64>,
) {
    let dirs = probe_directions(extra);
    let rho = shape.inner_radius();
    let clear = clearance(shape, &dirs);
    assert!(rho >= 0.0, "{name}: negative inner radius {rho}");
    assert!(
        rho <= clear + 1e-12 * (1.0 + clear.abs()),
        "{name}: inner radius {rho} above the clearance {clear}"
    );
    if let Some(e) = exact {
        assert!((rho - e).abs() <= 1e-9 * (1.0 + e), "{name}: inner radius {rho}, expected {e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(200)))]

    #[test]
    fn inner_balls_of_the_primitives_are_inside(
        c in point(), q in rotation(), h in extents(), a in point(), b in point(), r in 0.0..3.0f64,
    ) {
        let ball = Ball::new(c, r).unwrap();
        assert_inner_ball("ball", &ball, &[], Some(r));
        let aabb = Aabb::from_center_half_extents(c, h).unwrap();
        assert_inner_ball("aabb", &aabb, &[], Some(h.min()));
        let obb = Obb::from_rotation(c, q, h).unwrap();
        let axes: Vec<_> = (0..3).flat_map(|k| [obb.axes().column(k).into_owned(), -obb.axes().column(k)]).collect();
        assert_inner_ball("obb", &obb, &axes, Some(h.min()));
        let capsule = Capsule::new(a, b, r).unwrap();
        assert_inner_ball("capsule", &capsule, &[], Some(r));
        assert_inner_ball("margin", &Margin::new(obb, r), &axes, Some(h.min() + r));
        assert_inner_ball("posed obb", &Transformed::new(obb, nalgebra::Isometry3::from_parts(c.coords.into(), q)), &[], None);
        assert_inner_ball("minkowski sum", &MinkowskiSum { a: ball, b: obb }, &axes, Some(r + h.min()));
        let half = (b - a).norm() / 2.0;
        let corners: Vec<_> = (0..8)
            .map(|k| obb.axes() * Vector3::new(
                if k & 1 == 0 { h.x } else { -h.x },
                if k & 2 == 0 { h.y } else { -h.y },
                if k & 4 == 0 { h.z } else { -h.z },
            ))
            .collect();
        assert_outer_ball("ball", &ball, &[], Some(r));
        assert_outer_ball("aabb", &aabb, &[h, -h], Some(h.norm()));
        assert_outer_ball("obb", &obb, &corners, Some(h.norm()));
        assert_outer_ball("capsule", &capsule, &[b - a, a - b], Some(half + r));
        assert_outer_ball("segment", &Segment::new(a, b).unwrap(), &[b - a, a - b], Some(half));
        assert_outer_ball("margin", &Margin::new(obb, r), &corners, Some(h.norm() + r));
        assert_outer_ball("minkowski sum", &MinkowskiSum { a: ball, b: obb }, &corners, Some(r + h.norm()));
        if (b - a).norm() > 1e-3 && r > 1e-3 {
            let axis = (b - a).normalize();
            let cyl = Cylinder::new(a, b, r).unwrap();
            assert_inner_ball("cylinder", &cyl, &[axis, -axis], Some(r.min((b - a).norm() / 2.0)));
            let cone = Cone::new(b, a, r).unwrap();
            assert_inner_ball("cone", &cone, &[axis, -axis], None);
            assert_outer_ball("cylinder", &cyl, &[], Some((half * half + r * r).sqrt()));
            assert_outer_ball("cone", &cone, &[axis, -axis], None);
            let e0 = h.cross(&axis);
            if e0.norm() > 1e-3 {
                let loz = Lozenge::new(a, e0, b - a, r).unwrap();
                assert_inner_ball("lozenge", &loz, &[], Some(r));
                let diagonals = [e0 + (b - a), e0 - (b - a), -e0 + (b - a), -e0 - (b - a)];
                assert_outer_ball("lozenge", &loz, &diagonals, None);
            }
        }
    }

    #[test]
    fn inner_balls_of_box_polyhedra_are_their_inscribed_balls(c in point(), q in rotation(), h in extents()) {
        let obb = Obb::from_rotation(c, q, h).unwrap();
        let poly = ConvexPolyhedron::from_obb(&obb).unwrap();
        let normals: Vec<_> = poly.faces().iter().map(|f| *f.plane.normal()).collect();
        // The rounding allowance is a few ulps of the size: the radius is exact to 1e-12.
        assert_inner_ball("box polyhedron", &poly, &normals, None);
        assert!((poly.inner_radius() - h.min()).abs() < 1e-12 * (1.0 + c.coords.amax() + h.max()));
        let corners: Vec<_> = poly.vertices().iter().map(|v| v - poly.vertex_mean()).collect();
        assert_outer_ball("box polyhedron", &poly, &corners, Some(h.norm()));
    }

    #[test]
    fn outer_balls_of_triangles_and_polygons_hold_their_vertices(a in point(), b in point(), c in point()) {
        let tri = Triangle::new(a, b, c).unwrap();
        let m = tri.centroid();
        let far = [a, b, c].iter().map(|p| (p - m).norm()).fold(0.0, f64::max);
        assert_outer_ball("triangle", &tri, &[a - m, b - m, c - m], Some(far));
    }
}

/// A regular octahedron of "radius" 1 around the origin: faces at distance 1/√3.
#[test]
fn octahedron_inner_radius_is_its_inradius() {
    let v = vec![
        Point3::new(1.0, 0.0, 0.0),
        Point3::new(-1.0, 0.0, 0.0),
        Point3::new(0.0, 1.0, 0.0),
        Point3::new(0.0, -1.0, 0.0),
        Point3::new(0.0, 0.0, 1.0),
        Point3::new(0.0, 0.0, -1.0),
    ];
    let faces: Vec<Vec<usize>> =
        [[0, 2, 4], [2, 1, 4], [1, 3, 4], [3, 0, 4], [2, 0, 5], [1, 2, 5], [3, 1, 5], [0, 3, 5]]
            .iter()
            .map(|f| f.to_vec())
            .collect();
    let oct = ConvexPolyhedron::from_faces(v, &faces).unwrap();
    assert!((oct.inner_radius() - 1.0 / 3f64.sqrt()).abs() < 1e-14);
    assert_inner_ball("octahedron", &oct, &[], None);
}

/// Faces that do not close up (a box missing its lid) bound nothing: no inner ball.
#[test]
fn open_face_lists_have_no_inner_ball() {
    let corners: Vec<_> =
        (0..8).map(|b| Point3::new((b & 1) as f64, ((b >> 1) & 1) as f64, ((b >> 2) & 1) as f64)).collect();
    let five_sides =
        [vec![0, 2, 6, 4], vec![1, 5, 7, 3], vec![0, 4, 5, 1], vec![2, 3, 7, 6], vec![0, 1, 3, 2]];
    let open = ConvexPolyhedron::from_faces(corners.clone(), &five_sides).unwrap();
    assert_eq!(open.inner_radius(), 0.0);
    let mut six = five_sides.to_vec();
    six.push(vec![4, 6, 7, 5]);
    let closed = ConvexPolyhedron::from_faces(corners, &six).unwrap();
    assert!((closed.inner_radius() - 0.5).abs() < 1e-14);
    // Flat and linear shapes have none.
    let tri =
        Triangle::new(Point3::origin(), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0)).unwrap();
    assert_eq!(SupportMap::<f64, 3>::inner_radius(&tri), 0.0);
    assert_eq!(SupportMap::<f64, 3>::inner_radius(&Point3::new(1.0, 2.0, 3.0)), 0.0);
}

/// References and boxes (`&S`, `Box<S>`, `Box<dyn SupportMap>`) report the balls of the shape
/// they hold, not the unknown defaults: a boxed shape keeps its early accepts and rejects.
#[test]
fn references_and_boxes_forward_their_balls() {
    let ball = Ball::new(Point3::new(1.0, 2.0, 3.0), 0.75).unwrap();
    let by_ref: &dyn SupportMap<f64, 3> = &ball;
    let boxed: Box<dyn SupportMap<f64, 3>> = Box::new(ball);
    for (name, shape) in [("&dyn", by_ref), ("Box<dyn>", &boxed as &dyn SupportMap<f64, 3>)] {
        assert_eq!(shape.inner_radius(), 0.75, "{name}");
        assert_eq!(shape.outer_radius(), 0.75, "{name}");
        assert_eq!(shape.interior_point(), Point3::new(1.0, 2.0, 3.0), "{name}");
    }
    let boxed_ball = Box::new(ball);
    assert_eq!(SupportMap::<f64, 3>::outer_radius(&boxed_ball), 0.75);
}
