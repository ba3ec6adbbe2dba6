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

/// How a narrow-phase answer was reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ContactStatus {
    /// The iterative method met its tolerance, or the answer is analytic: exact to rounding.
    Converged,
    /// The iteration cap was reached first: `distance` is the best bound found (an upper
    /// bound on the separation, or a lower bound on the penetration depth) and may be off by
    /// more than the tolerance.
    IterationCap,
    /// The input was degenerate for the method (for example a shape whose points are all
    /// coplanar meeting another one exactly in that plane): the answer is the best available
    /// and is a valid contact, but the normal may be one of several equally valid choices.
    Degenerate,
    /// Floating point could not resolve the answer to the tolerance (GJK's simplex became too
    /// ill-conditioned to make progress, as on slivers of shapes whose aspect ratio
    /// approaches 1/ε far from the origin): like [`ContactStatus::IterationCap`], `distance`
    /// is the best bound found, an upper bound on the separation that may be far above the
    /// true one (the shapes may even overlap).
    Unresolved,
}

/// A contact (or near contact) between two shapes A and B, in world space.
///
/// Conventions, shared by every narrow-phase query:
/// * `normal` is a unit vector pointing from A towards B;
/// * `distance` is signed: the gap between the shapes when they are separated, `0` when they
///   touch, and minus the penetration depth when they overlap. Translating B by
///   `-distance · normal` (that is, by `depth · normal` when penetrating) makes the shapes
///   just touch;
/// * `point_a` is the point of A deepest in (or closest to) B, `point_b` the point of B deepest
///   in (or closest to) A, so that `point_b - point_a ≈ distance · normal`.
///
/// Swapping the shapes mirrors the contact: see [`Contact::flipped`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Contact<T: Real, const D: usize> {
    /// Witness point on A.
    pub point_a: Point<T, D>,
    /// Witness point on B.
    pub point_b: Point<T, D>,
    /// Unit normal pointing from A towards B.
    pub normal: Vector<T, D>,
    /// Signed distance along `normal` (negative = penetration depth).
    pub distance: T,
    /// How the answer was reached.
    pub status: ContactStatus,
}

impl<T: Real, const D: usize> Contact<T, D> {
    /// Penetration depth: `-distance`, positive when the shapes overlap.
    #[inline]
    pub fn depth(&self) -> T {
        -self.distance
    }

    /// Whether the shapes overlap or touch (`distance <= 0`).
    #[inline]
    pub fn is_touching(&self) -> bool {
        self.distance <= T::zero()
    }

    /// The same contact with both witness points moved by `offset` (a contact computed
    /// relative to a point, put back in place).
    #[inline]
    pub fn translated(&self, offset: &Vector<T, D>) -> Self {
        Self { point_a: self.point_a + offset, point_b: self.point_b + offset, ..*self }
    }

    /// The same contact seen from B: the witness points swapped and the normal negated.
    #[inline]
    pub fn flipped(&self) -> Self {
        Self {
            point_a: self.point_b,
            point_b: self.point_a,
            normal: -self.normal,
            distance: self.distance,
            status: self.status,
        }
    }
}
