//! Validated deserialization (feature `serde`): every primitive deserializes through a plain
//! mirror struct and its checking constructor, so a document with NaN, a negative radius or
//! non-orthonormal axes is a deserialization error, never an invalid value.

use crate::*;

/// Declares the mirror struct of a primitive and the `TryFrom` that validates it.
macro_rules! validated {
    ($name:ident, $raw:ident, [$($gen:tt)*], [$($arg:tt)*], { $($field:ident : $fty:ty),* $(,)? }, |$r:ident| $ctor:expr) => {
        #[derive(serde::Deserialize)]
        #[serde(bound(deserialize = "T: Real + serde::de::DeserializeOwned"))]
        pub(crate) struct $raw<$($gen)*> {
            $($field: $fty,)*
        }

        impl<$($gen)*> TryFrom<$raw<$($arg)*>> for $name<$($arg)*> {
            type Error = GeomError;
            fn try_from($r: $raw<$($arg)*>) -> GeomResult<Self> {
                $ctor
            }
        }
    };
}

validated!(Ray, RayRaw, [T: Real, const D: usize], [T, D], { origin: Point<T, D>, dir: Vector<T, D>, max_t: T },
    |r| Ray::new(r.origin, r.dir)?.with_max_t(r.max_t));
validated!(Segment, SegmentRaw, [T: Real, const D: usize], [T, D], { a: Point<T, D>, b: Point<T, D> },
    |r| Segment::new(r.a, r.b));
validated!(Line, LineRaw, [T: Real, const D: usize], [T, D], { point: Point<T, D>, dir: Vector<T, D> },
    |r| Line::new(r.point, r.dir));
validated!(Plane, PlaneRaw, [T: Real, const D: usize], [T, D], { normal: Vector<T, D>, d: T },
    |r| Plane::new(r.normal, r.d));
validated!(Triangle, TriangleRaw, [T: Real, const D: usize], [T, D], { a: Point<T, D>, b: Point<T, D>, c: Point<T, D> },
    |r| Triangle::new(r.a, r.b, r.c));
validated!(Ball, BallRaw, [T: Real, const D: usize], [T, D], { center: Point<T, D>, radius: T },
    |r| Ball::new(r.center, r.radius));
validated!(Aabb, AabbRaw, [T: Real, const D: usize], [T, D], { min: Point<T, D>, max: Point<T, D> },
    |r| Aabb::new(r.min, r.max));
validated!(Obb, ObbRaw, [T: Real, const D: usize], [T, D], { center: Point<T, D>, axes: Matrix<T, D>, half_extents: Vector<T, D> },
    |r| Obb::new(r.center, r.axes, r.half_extents));
validated!(Capsule, CapsuleRaw, [T: Real, const D: usize], [T, D], { a: Point<T, D>, b: Point<T, D>, radius: T },
    |r| Capsule::new(r.a, r.b, r.radius));
validated!(Lozenge, LozengeRaw, [T: Real], [T], { origin: Point<T, 3>, e0: Vector<T, 3>, e1: Vector<T, 3>, radius: T },
    |r| Lozenge::new(r.origin, r.e0, r.e1, r.radius));
validated!(Cylinder, CylinderRaw, [T: Real], [T], { a: Point<T, 3>, b: Point<T, 3>, radius: T },
    |r| Cylinder::new(r.a, r.b, r.radius));
validated!(Cone, ConeRaw, [T: Real], [T], { apex: Point<T, 3>, base: Point<T, 3>, radius: T },
    |r| Cone::new(r.apex, r.base, r.radius));
validated!(Frustum, FrustumRaw, [T: Real], [T], { planes: [Plane<T, 3>; 6] },
    |r| Ok(Frustum::from_planes(r.planes)));
validated!(Polygon, PolygonRaw, [T: Real, const D: usize], [T, D], { vertices: Vec<Point<T, D>> },
    |r| Polygon::new(r.vertices));

/// Serialized form of a [`ConvexPolyhedron`]: vertices and faces as index lists, rebuilt (and
/// re-validated) through [`ConvexPolyhedron::from_faces`] on the way in.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(bound(
    deserialize = "T: Real + serde::de::DeserializeOwned",
    serialize = "T: Real + serde::Serialize"
))]
pub(crate) struct ConvexPolyhedronRepr<T: Real> {
    vertices: Vec<Point<T, 3>>,
    faces: Vec<Vec<usize>>,
}

impl<T: Real> From<ConvexPolyhedron<T>> for ConvexPolyhedronRepr<T> {
    fn from(p: ConvexPolyhedron<T>) -> Self {
        let faces =
            p.faces().iter().map(|f| p.face_vertices(f).iter().map(|&i| i as usize).collect()).collect();
        ConvexPolyhedronRepr { vertices: p.vertices().to_vec(), faces }
    }
}

impl<T: Real> TryFrom<ConvexPolyhedronRepr<T>> for ConvexPolyhedron<T> {
    type Error = GeomError;
    fn try_from(r: ConvexPolyhedronRepr<T>) -> GeomResult<Self> {
        ConvexPolyhedron::from_faces(r.vertices, &r.faces)
    }
}
