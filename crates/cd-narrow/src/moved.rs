//! Shapes moved by a vector: what the feature-clipping manifolds work on, so that their
//! tolerances scale with the shapes rather than with the coordinates.
//!
//! The clipping (`features.rs`) keeps slack of √ε times the points' coordinates (a joined
//! exact contact, the lateral check of parallel edges). At 10³–10⁵ in `f32` that slack was
//! larger than the shapes' details, and a box/hull manifold's deepest point came out up to
//! 0.025 off the same pair's at the origin. Moved so that the exact contact point is at the
//! origin, the pair clips at its own scale, and the points are moved back.

use crate::dispatch::Shape;
use cd_geom::{
    Ball, Capsule, Cone, ConvexPolyhedron, Cylinder, Lozenge, Obb, Plane, Point, Real, Segment, Triangle,
};
use nalgebra::{Isometry3, Vector3};

/// An owned copy of a [`Shape`] moved by `-by` (hulls keep their vertices and move their
/// pose).
pub(crate) enum MovedShape<'a, T: Real> {
    Ball(Ball<T, 3>),
    Capsule(Capsule<T, 3>),
    Box(Obb<T, 3>),
    Triangle(Triangle<T, 3>),
    Segment(Segment<T, 3>),
    Cylinder(Cylinder<T>),
    Cone(Cone<T>),
    Lozenge(Lozenge<T>),
    Hull(&'a ConvexPolyhedron<T>, Isometry3<T>),
    HalfSpace(Plane<T, 3>),
}

impl<'a, T: Real> MovedShape<'a, T> {
    /// `shape` moved by `-by`; `None` for the kinds that cannot move cheaply (a polyhedron in
    /// world space, a user's support map) or when a moved copy fails validation (it should
    /// not: the differences are of valid coordinates).
    pub(crate) fn of(shape: &Shape<'a, T>, by: &Vector3<T>) -> Option<Self> {
        let m = |p: &Point<T, 3>| Point::from(p.coords - by);
        Some(match *shape {
            Shape::Ball(b) => MovedShape::Ball(Ball::new(m(b.center()), b.radius()).ok()?),
            Shape::Capsule(c) => MovedShape::Capsule(Capsule::new(m(c.a()), m(c.b()), c.radius()).ok()?),
            Shape::Box(o) => MovedShape::Box(o.with_center(m(o.center())).ok()?),
            Shape::Triangle(t) => MovedShape::Triangle(t.translated(&-by).ok()?),
            Shape::Segment(s) => MovedShape::Segment(Segment::new(m(s.a()), m(s.b())).ok()?),
            Shape::Cylinder(c) => MovedShape::Cylinder(Cylinder::new(m(c.a()), m(c.b()), c.radius()).ok()?),
            Shape::Cone(c) => MovedShape::Cone(Cone::new(m(c.apex()), m(c.base()), c.radius()).ok()?),
            Shape::Lozenge(l) => {
                MovedShape::Lozenge(Lozenge::new(m(l.origin()), *l.e0(), *l.e1(), l.radius()).ok()?)
            }
            Shape::Hull(h, pose) => {
                let mut moved = *pose;
                moved.translation.vector -= by;
                MovedShape::Hull(h, moved)
            }
            // n·x + d = 0 through the moved points: d grows by n·by.
            Shape::HalfSpace(p) => {
                MovedShape::HalfSpace(Plane::new(*p.normal(), p.d() + p.normal().dot(by)).ok()?)
            }
            Shape::Polyhedron(_) | Shape::Convex(..) => return None,
        })
    }

    /// The moved shape as a [`Shape`].
    pub(crate) fn shape(&self) -> Shape<'_, T> {
        match self {
            MovedShape::Ball(b) => Shape::Ball(b),
            MovedShape::Capsule(c) => Shape::Capsule(c),
            MovedShape::Box(o) => Shape::Box(o),
            MovedShape::Triangle(t) => Shape::Triangle(t),
            MovedShape::Segment(s) => Shape::Segment(s),
            MovedShape::Cylinder(c) => Shape::Cylinder(c),
            MovedShape::Cone(c) => Shape::Cone(c),
            MovedShape::Lozenge(l) => Shape::Lozenge(l),
            MovedShape::Hull(h, pose) => Shape::Hull(h, pose),
            MovedShape::HalfSpace(p) => Shape::HalfSpace(p),
        }
    }
}
