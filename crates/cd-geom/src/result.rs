//! Result types shared by the queries of every layer.

use crate::{Point, Real, Vector};

/// Where a ray first meets a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RayHit<T: Real, const D: usize> {
    /// Ray parameter of the hit, in units of the ray direction's length (`0` when the ray starts
    /// inside a solid shape).
    pub t: T,
    /// Unit surface normal at the hit facing the incoming ray, or zero when the ray starts
    /// inside the shape (there is no entry surface) or the shape has no area there.
    pub normal: Vector<T, D>,
}

/// A ray/triangle hit with barycentric coordinates: the point is `a + u(b - a) + v(c - a)`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TriangleHit<T: Real> {
    /// Ray parameter.
    pub t: T,
    /// Barycentric weight of vertex `b`.
    pub u: T,
    /// Barycentric weight of vertex `c`.
    pub v: T,
}

/// Which side of a plane a shape is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PlaneSide {
    /// Entirely in `n·x + d > 0`.
    Positive,
    /// Entirely in `n·x + d < 0`.
    Negative,
    /// Crossing or touching the plane.
    Intersecting,
}

/// How a shape relates to a region such as a frustum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Containment {
    /// No point of the shape is inside (the plane tests may report `Intersecting` for some
    /// shapes that are in fact outside near a corner; they never report `Outside` wrongly).
    Outside,
    /// Partly inside (or, conservatively, near a corner: see `Outside`).
    Intersecting,
    /// Entirely inside.
    Inside,
}

/// The closest points between two shapes.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ClosestPoints<T: Real, const D: usize> {
    /// Point on the first shape.
    pub a: Point<T, D>,
    /// Point on the second shape.
    pub b: Point<T, D>,
    /// `|a - b|²`.
    pub distance_squared: T,
}

impl<T: Real, const D: usize> ClosestPoints<T, D> {
    /// Builds the result from the two points.
    #[inline]
    pub fn new(a: Point<T, D>, b: Point<T, D>) -> Self {
        ClosestPoints { a, b, distance_squared: (a - b).norm_squared() }
    }
    /// `|a - b|`.
    #[inline]
    pub fn distance(&self) -> T {
        self.distance_squared.sqrt()
    }
}

/// A contact between two shapes: a point, the normal from the first shape to the second, and
/// the penetration depth (positive when overlapping).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Contact<T: Real, const D: usize> {
    /// Contact point (world space).
    pub point: Point<T, D>,
    /// Unit normal pointing from the first shape towards the second.
    pub normal: Vector<T, D>,
    /// Penetration depth along `normal` (negative = separation).
    pub depth: T,
}
