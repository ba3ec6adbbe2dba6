//! Arbitrary floats — NaN, infinities, subnormals, huge and tiny values included — fed to every
//! public constructor and, when a constructor accepts, to every query. Nothing may panic; a
//! constructor given a non-finite number must return an error; no query may return NaN.

mod common;

use cd_geom::*;
use nalgebra::{Matrix4, Point, Point2, Point3, SVector, UnitQuaternion, Vector2, Vector3};
use proptest::prelude::*;

fn any_float() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => -10.0..10.0f64,
        2 => proptest::num::f64::ANY,
        1 => prop::sample::select(vec![
            0.0, -0.0, 1.0, -1.0, 1e-300, -1e-300, 1e-40, 1e9, -1e9, 2e9, 1e30, 1e75, 1e76, 1e300,
            f64::MAX, f64::MIN_POSITIVE, f64::INFINITY, f64::NEG_INFINITY, f64::NAN,
        ]),
    ]
}

fn finite<T: Real, const D: usize>(v: &SVector<T, D>) -> bool {
    v.iter().all(|x| x.is_finite())
}
fn finite_p<T: Real, const D: usize>(p: &Point<T, D>) -> bool {
    finite(&p.coords)
}
fn hit_ok<T: Real, const D: usize>(h: Option<RayHit<T, D>>) -> bool {
    h.is_none_or(|h| h.t.is_finite() && h.t >= T::zero() && finite(&h.normal))
}
fn tri_hit_ok<T: Real>(h: Option<TriangleHit<T>>) -> bool {
    h.is_none_or(|h| h.t.is_finite() && h.u.is_finite() && h.v.is_finite())
}
fn cp_ok<T: Real, const D: usize>(c: &ClosestPoints<T, D>) -> bool {
    finite_p(&c.a) && finite_p(&c.b) && c.distance_squared.is_finite()
}

/// Builds everything it can from `v` (converted to `T`) and runs every query on what it built.
fn exercise<T: Real>(v: &[f64]) {
    let x = |i: usize| T::lit(v[i % v.len()]);
    let nonfinite = |idx: &[usize]| idx.iter().any(|&i| !x(i).is_finite());
    let p = |i: usize| Point3::new(x(i), x(i + 1), x(i + 2));
    let vec3 = |i: usize| Vector3::new(x(i), x(i + 1), x(i + 2));
    let p2 = |i: usize| Point2::new(x(i), x(i + 1));
    let one = T::one();
    let zero = T::zero();
    let unit_box = Aabb::new(Point3::new(-one, -one, -one), Point3::new(one, one, one)).unwrap();

    // Constructors: a non-finite input must be rejected.
    let r = Ray::new(p(0), vec3(3));
    if nonfinite(&[0, 1, 2, 3, 4, 5]) {
        assert!(r.is_err());
    }
    let r = r.and_then(|r| r.with_max_t(x(6).abs()));
    let seg = Segment::new(p(7), p(10));
    if nonfinite(&[7, 8, 9, 10, 11, 12]) {
        assert!(seg.is_err());
    }
    let tri = Triangle::new(p(0), p(3), p(7));
    let tri2 = Triangle::new(p(10), p(13), p(16));
    if nonfinite(&[0, 1, 2, 3, 4, 5, 7, 8, 9]) {
        assert!(tri.is_err());
    }
    let ball = Ball::new(p(13), x(16));
    if nonfinite(&[13, 14, 15, 16]) {
        assert!(ball.is_err());
    }
    let aabb = Aabb::new(p(0), p(3));
    let aabb2 = Aabb::from_center_half_extents(p(7), vec3(10));
    let obb = UnitQuaternion::from_euler_angles(x(1), x(2), x(3));
    let obb = if obb.coords.iter().all(|c| c.is_finite()) {
        Obb::from_rotation(p(4), obb, vec3(7))
    } else {
        Err(GeomError::NonFinite)
    };
    let plane = Plane::new(vec3(5), x(8));
    if nonfinite(&[5, 6, 7, 8]) {
        assert!(plane.is_err());
    }
    let plane2 = Plane::from_point_normal(p(9), vec3(12));
    let plane3 = Plane::from_points(p(1), p(4), p(8));
    let cap = Capsule::new(p(2), p(5), x(8));
    let cyl = Cylinder::new(p(3), p(6), x(9));
    let cone = Cone::new(p(4), p(7), x(10));
    let loz = Lozenge::new(p(5), vec3(8), vec3(11), x(14));
    let line = Line::new(p(6), vec3(9));
    let dop = Dop14::<T>::from_points(&[p(0), p(3), p(6), p(9)]);
    let dop_raw =
        Kdop::<T, 3, 7>::new(core::array::from_fn(&x), core::array::from_fn(|i| x(i) + x(i + 7).abs()));
    let poly3 = Polygon::new(vec![p(0), p(3), p(6), p(9)]);
    let poly2 = Polygon::new(vec![p2(0), p2(2), p2(4), p2(6)]);
    let hull = ConvexPolyhedron::from_aabb(&Aabb::new(p(0), p(3)).unwrap_or(unit_box));
    let m = Matrix4::from_fn(|i, j| x(4 * i + j));
    let frustum = Frustum::from_view_projection(&m);
    if m.iter().any(|e| !e.is_finite()) {
        assert!(frustum.is_err());
    }
    let circle = Ball::new(p2(3), x(5));
    let obb2 = Obb::from_angle(p2(4), x(6), Vector2::new(x(7), x(8)));

    // Queries on whatever was built; partners are valid fixed shapes when the random one failed.
    let fallback_tri =
        Triangle::new(Point3::origin(), Point3::new(one, zero, zero), Point3::new(zero, one, zero)).unwrap();
    let tri = tri.unwrap_or(fallback_tri);
    let tri2 = tri2.unwrap_or(fallback_tri);
    let aabb = aabb.unwrap_or(unit_box);
    let aabb2 = aabb2.unwrap_or(unit_box);
    let obb = obb.unwrap_or(Obb::from_aabb(&unit_box));
    let ball = ball.unwrap_or(Ball::new(Point3::origin(), one).unwrap());
    let seg = seg.unwrap_or(Segment::new(Point3::origin(), Point3::new(one, one, one)).unwrap());

    if let Ok(r) = r {
        assert!(hit_ok(ray_ball(&r, &ball)));
        assert!(hit_ok(ray_ball_analytic(&r, &ball)));
        assert!(hit_ok(ray_aabb(&r, &aabb)));
        assert!(
            ray_aabb_interval(&PreparedRay::new(&r), &aabb).is_none_or(|(a, b, _)| a.is_finite() && b >= a)
        );
        assert!(hit_ok(ray_obb(&r, &obb)));
        assert!(tri_hit_ok(ray_triangle(&r, &tri)));
        assert!(tri_hit_ok(ray_triangle_culling(&r, &tri)));
        assert!(tri_hit_ok(ray_triangle_watertight(&r, &tri)));
        if let Ok(c) = &cap {
            assert!(hit_ok(ray_capsule(&r, c)));
        }
        if let Ok(c) = &cyl {
            assert!(hit_ok(ray_cylinder(&r, c)));
        }
        if let Ok(c) = &cone {
            assert!(hit_ok(ray_cone(&r, c)));
        }
        if let Ok(pl) = &plane {
            assert!(hit_ok(ray_plane(&r, pl)));
        }
        if let Ok(d) = &dop {
            assert!(hit_ok(ray_kdop(&r, d)));
        }
        if let Ok(d) = &dop_raw {
            assert!(hit_ok(ray_kdop(&r, d)));
        }
        if let Ok(h) = &hull {
            assert!(hit_ok(ray_convex_polyhedron(&r, h)));
        }
        if let Ok(pg) = &poly3 {
            assert!(hit_ok(ray_polygon(&r, pg)));
        }
    }
    let _ = triangle_triangle(&tri, &tri2);
    if let TriTriIntersection::Segment(a, b) | TriTriIntersection::Coplanar(a @ b) =
        triangle_triangle(&tri, &tri2)
    {
        assert!(finite_p(&a) && finite_p(&b));
    }
    assert!(cp_ok(&closest_points_triangle_triangle(&tri, &tri2)));
    assert!(cp_ok(&closest_points_segment_triangle(&seg, &tri)));
    assert!(cp_ok(&closest_points_segment_aabb(&seg, &aabb).0));
    let (c, s, t) = closest_points_segment_segment(&seg, &Segment::new(*tri.a(), *tri.b()).unwrap());
    assert!(cp_ok(&c) && s.is_finite() && t.is_finite());
    // Raw query points are not validated types: outputs must be finite whenever the point is a
    // valid coordinate (NaN in may give NaN out, documented).
    let valid = |q: &Point3<T>| Ball::new(*q, zero).is_ok();
    if valid(&p(3)) {
        let (q, u, w) = closest_point_on_triangle(&p(3), &tri);
        assert!(finite_p(&q) && u.is_finite() && w.is_finite());
    }
    if valid(&p(5)) {
        assert!(finite_p(&closest_point_on_obb(&p(5), &obb)));
        assert!(finite_p(&closest_point_on_aabb(&p(5), &aabb)));
    }
    let _ = (triangle_aabb(&tri, &aabb), triangle_obb(&tri, &obb), triangle_ball(&tri, &ball));
    let _ = (
        ball_ball(&ball, &ball),
        ball_aabb(&ball, &aabb),
        ball_aabb_clamped(&ball, &aabb2),
        ball_obb(&ball, &obb),
    );
    let _ = (aabb_aabb(&aabb, &aabb2), obb_obb(&obb, &Obb::from_aabb(&aabb2)), obb_obb_face_axes(&obb, &obb));
    if let Ok(c) = &cap {
        let _ = (capsule_capsule(c, c), capsule_ball(c, &ball), capsule_aabb(c, &aabb), capsule_obb(c, &obb));
        assert!(segment_aabb_distance_squared(&c.segment(), &aabb).is_finite());
        assert!(finite_p(&c.support(&vec3(1))));
    }
    if let (Ok(a), Ok(b)) = (&dop, &dop_raw) {
        let _ = kdop_kdop(a, b);
    }
    for pl in [plane, plane2, plane3].iter().flatten() {
        let _ = (plane_aabb(pl, &aabb), plane_obb(pl, &obb), plane_ball(pl, &ball), plane_triangle(pl, &tri));
        if valid(&p(2)) {
            assert!(finite_p(&closest_point_on_plane(&p(2), pl)));
        }
    }
    if let (Ok(a), Ok(b), Ok(c)) = (plane, plane2, plane3) {
        assert!(three_planes(&a, &b, &c).is_none_or(|q| finite_p(&q)));
    }
    if let Ok(f) = &frustum {
        let _ = (frustum_ball(f, &ball), frustum_aabb(f, &aabb), frustum_obb(f, &obb));
    }
    if let Ok(l) = &line {
        if let Ok(l2) = Line::new(p(1), vec3(2)) {
            assert!(line_line_closest_3d(l, &l2)
                .is_none_or(|(s, t, a, b)| s.is_finite() && t.is_finite() && finite_p(&a) && finite_p(&b)));
        }
    }
    if let Ok(pg) = &poly2 {
        let _ = (point_in_polygon(&p2(1), pg), polygons_overlap_2d(pg, pg));
        let s1 = Segment::new(p2(0), p2(2));
        let s2 = Segment::new(p2(4), p2(6));
        if let (Ok(a), Ok(b)) = (s1, s2) {
            let _ = (segment_segment_2d(&a, &b), segments_intersect_2d(&a, &b));
        }
    }
    if let (Ok(c), Ok(o)) = (&circle, &obb2) {
        let _ = (ball_obb(c, o), obb_obb_2d(o, o));
    }
    for shape in [&ball as &dyn SupportMap<T, 3>, &aabb, &obb, &tri, &seg] {
        assert!(finite_p(&shape.support(&vec3(11))));
        assert!(finite_p(&shape.support(&Vector3::zeros())));
    }
    for s in [
        cyl.ok().map(|c| c.support(&vec3(2))),
        cone.ok().map(|c| c.support(&vec3(2))),
        loz.ok().map(|l| l.support(&vec3(2))),
    ]
    .into_iter()
    .flatten()
    {
        assert!(finite_p(&s));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(4000), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_floats_never_panic_or_yield_nan(v in proptest::collection::vec(any_float(), 20..24)) {
        exercise::<f64>(&v);
        exercise::<f32>(&v);
    }
}

/// Every constructor rejects NaN and infinity in every position with a typed error.
#[test]
fn constructors_reject_non_finite() {
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e76] {
        let p = Point3::new(bad, 0.0, 0.0);
        let o = Point3::origin();
        let v = Vector3::new(bad, 1.0, 0.0);
        assert!(Ray::new(p, Vector3::x()).is_err() && Ray::new(o, v).is_err());
        assert!(Segment::new(o, p).is_err() && Line::new(p, Vector3::x()).is_err());
        assert!(Plane::new(v, 0.0).is_err() && Plane::new(Vector3::x(), bad).is_err());
        assert!(Triangle::new(o, p, o).is_err() && Ball::new(p, 1.0).is_err() && Ball::new(o, bad).is_err());
        assert!(Aabb::new(p, Point3::new(1e80, 1.0, 1.0)).is_err());
        assert!(
            Capsule::new(o, p, 1.0).is_err()
                && Cylinder::new(o, p, 1.0).is_err()
                && Cone::new(p, o, 1.0).is_err()
        );
        assert!(Lozenge::new(o, v, Vector3::y(), 1.0).is_err());
        assert!(Obb::new(p, nalgebra::Matrix3::identity(), Vector3::new(1.0, 1.0, 1.0)).is_err());
        assert!(Dop6::<f64>::from_points(&[p]).is_err());
        assert!(Polygon::new(vec![o, p, Point3::new(0.0, 1.0, 0.0)]).is_err());
    }
    assert_eq!(Ray::new(Point3::origin(), Vector3::<f64>::zeros()), Err(GeomError::ZeroDirection));
    assert_eq!(Ray::new(Point3::origin(), Vector3::x()).unwrap().with_max_t(-1.0), Err(GeomError::Negative));
    assert_eq!(
        Ray::new(Point3::origin(), Vector3::x()).unwrap().with_max_t(f64::NAN),
        Err(GeomError::NonFinite)
    );
    assert_eq!(Ball::new(Point3::<f64>::origin(), -1.0), Err(GeomError::Negative));
    assert_eq!(Aabb::new(Point3::new(1.0f64, 0.0, 0.0), Point3::origin()), Err(GeomError::InvertedBounds));
    assert_eq!(Aabb::<f64, 3>::from_points([]), Err(GeomError::TooFewPoints));
    assert_eq!(Cylinder::new(Point3::<f64>::origin(), Point3::origin(), 1.0), Err(GeomError::ZeroDirection));
    assert_eq!(
        Plane::from_points(Point3::<f64>::origin(), Point3::new(1.0, 0.0, 0.0), Point3::new(2.0, 0.0, 0.0)),
        Err(GeomError::Degenerate)
    );
    assert_eq!(Kdop::<f64, 3, 5>::new([0.0; 5], [1.0; 5]), Err(GeomError::UnsupportedDirectionSet));
    assert_eq!(Kdop::<f64, 2, 2>::new([1.0, 0.0], [0.0, 1.0]), Err(GeomError::InvertedBounds));
    // f32: values beyond 1e9 are out of range, beyond f32::MAX they become infinite.
    assert_eq!(Ball::new(Point3::new(2e9f32, 0.0, 0.0), 1.0), Err(GeomError::OutOfRange));
    // A tiny but non-zero direction is valid and normalizes without underflow.
    let tiny = Plane::new(Vector3::new(1e-300, 0.0, 0.0), 0.0).unwrap();
    assert_eq!(*tiny.normal(), Vector3::x());
    let _ = UnitQuaternion::<f64>::identity();
}

/// Inputs the property test found: a box-frame transform beyond the coordinate limit (used to
/// panic in ball/OBB), a subnormal Möller–Trumbore determinant (0 × ∞ = NaN), and a subnormal
/// ray direction overflowing the watertight shear.
#[test]
fn regressions_found_by_the_property_test() {
    let mut v = vec![0.0; 20];
    v[4] = 1e9;
    v[6] = 3.145490673000378;
    exercise::<f64>(&v);
    exercise::<f32>(&v);
    let mut v = vec![0.0; 20];
    (v[1], v[3], v[10]) = (3.343149499602535, 1e-40, 2.387886720339495e292);
    exercise::<f64>(&v);
    exercise::<f32>(&v);
    let mut v = vec![0.0; 20];
    (v[0], v[3], v[4], v[9]) =
        (6.209315132128595, 2.1407816393296125e-308, 1.2412725740571784e-308, -2.434275732640755);
    exercise::<f64>(&v);
    exercise::<f32>(&v);
}
