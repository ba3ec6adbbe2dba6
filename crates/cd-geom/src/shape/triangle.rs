use crate::validate;
use crate::{GeomError, GeomResult, Plane, Point, Real, Vector};

/// The triangle `abc`, in 2D or 3D. Degenerate (zero-area) triangles are valid values; queries
/// that need a normal document what they do with them.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        try_from = "crate::serde_impl::TriangleRaw<T, D>",
        bound(serialize = "T: serde::Serialize", deserialize = "T: Real + serde::de::DeserializeOwned")
    )
)]
pub struct Triangle<T: Real, const D: usize> {
    a: Point<T, D>,
    b: Point<T, D>,
    c: Point<T, D>,
}

impl<T: Real, const D: usize> Triangle<T, D> {
    /// A triangle. Errors: non-finite or out-of-range coordinates.
    pub fn new(a: Point<T, D>, b: Point<T, D>, c: Point<T, D>) -> GeomResult<Self> {
        validate::point(&a)?;
        validate::point(&b)?;
        validate::point(&c)?;
        Ok(Triangle { a, b, c })
    }
    /// The same triangle moved by `offset` (what a query far from the origin works on:
    /// [`far_offset`](crate::far_offset)). Error: a moved vertex out of the coordinate range.
    pub fn translated(&self, offset: &Vector<T, D>) -> GeomResult<Self> {
        Self::new(self.a + offset, self.b + offset, self.c + offset)
    }
    /// A triangle from already-validated points (crate-internal; never fails).
    #[inline(always)]
    pub(crate) fn new_unchecked(a: Point<T, D>, b: Point<T, D>, c: Point<T, D>) -> Self {
        Triangle { a, b, c }
    }
    /// First vertex.
    #[inline(always)]
    pub fn a(&self) -> &Point<T, D> {
        &self.a
    }
    /// Second vertex.
    #[inline(always)]
    pub fn b(&self) -> &Point<T, D> {
        &self.b
    }
    /// Third vertex.
    #[inline(always)]
    pub fn c(&self) -> &Point<T, D> {
        &self.c
    }
    /// The vertices as an array.
    #[inline(always)]
    pub fn vertices(&self) -> [Point<T, D>; 3] {
        [self.a, self.b, self.c]
    }
    /// The three edges `ab`, `bc`, `ca` as (start, end) pairs.
    #[inline]
    pub fn edges(&self) -> [(Point<T, D>, Point<T, D>); 3] {
        [(self.a, self.b), (self.b, self.c), (self.c, self.a)]
    }
    /// The point with barycentric coordinates `(1 - u - v, u, v)`.
    #[inline]
    pub fn at_barycentric(&self, u: T, v: T) -> Point<T, D> {
        self.a + (self.b - self.a) * u + (self.c - self.a) * v
    }
    /// The centroid.
    #[inline]
    pub fn centroid(&self) -> Point<T, D> {
        Point::from((self.a.coords + self.b.coords + self.c.coords) / T::lit(3.0))
    }
}

impl<T: Real> Triangle<T, 3> {
    /// The unnormalized normal `(b - a) × (c - a)` (twice the area vector).
    #[inline]
    pub fn scaled_normal(&self) -> Vector<T, 3> {
        (self.b - self.a).cross(&(self.c - self.a))
    }
    /// The unit normal (counter-clockwise side). Error: a triangle with collinear vertices,
    /// including one whose cross product is only rounding noise, `|e₀ × e₁| ≤ 16 ε |e₀||e₁|`
    /// (its "normal" would point anywhere).
    ///
    /// The cross product is taken at the vertex opposite the longest edge (between the two
    /// shortest edges): the direction's rounding grows like ε / sin of the angle between the
    /// crossed edges, and that vertex has the largest angle. On a sliver 1.7·10¹⁰ long and
    /// 10⁶ wide, crossing at the sharp vertex tilted the plane by 4·10⁻¹² rad, 0.06 at the far
    /// end, more than a 0.01 start gap a continuous query then missed. On an obtuse sliver
    /// even that angle is near 180°, so the normal is then made exactly perpendicular to the
    /// longest edge ([`crate::triangle_normal`]).
    pub fn normal(&self) -> GeomResult<Vector<T, 3>> {
        crate::directions::triangle_normal(&self.a.coords, &self.b.coords, &self.c.coords)
            .ok_or(GeomError::Degenerate)
    }
    /// The supporting plane. Error: zero-area triangle.
    pub fn plane(&self) -> GeomResult<Plane<T, 3>> {
        Plane::from_points(self.a, self.b, self.c)
    }
    /// Area.
    pub fn area(&self) -> T {
        self.scaled_normal().norm() * T::lit(0.5)
    }
}

impl<T: Real> Triangle<T, 2> {
    /// Twice the signed area: positive when `abc` is counter-clockwise.
    #[inline]
    pub fn signed_area2(&self) -> T {
        let (u, v) = (self.b - self.a, self.c - self.a);
        u.x * v.y - u.y * v.x
    }
}
