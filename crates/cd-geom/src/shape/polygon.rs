use crate::validate;
use crate::{GeomError, GeomResult, Plane, Point, Real, Vector};
use nalgebra::Vector3;

/// A simple planar polygon, in 2D or 3D (vertices in order, either winding), convex or not.
///
/// A 3D polygon's supporting plane is computed with Newell's method at construction; a 2D
/// polygon lies in the plane `z = 0` with normal `+z` (or `-z` when its vertices run clockwise).
/// [`Polygon::is_convex`] tells whether the convex-only tests apply.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        try_from = "crate::serde_impl::PolygonRaw<T, D>",
        bound(serialize = "T: serde::Serialize", deserialize = "T: Real + serde::de::DeserializeOwned")
    )
)]
pub struct Polygon<T: Real, const D: usize> {
    vertices: Vec<Point<T, D>>,
    normal: Vector3<T>,
    offset: T,
    convex: bool,
}

/// The point `p` written in 3D (2D points get `z = 0`).
#[inline]
pub(crate) fn embed3<T: Real, const D: usize>(p: &Point<T, D>) -> Vector3<T> {
    Vector3::from_fn(|i, _| if i < D { p[i] } else { T::zero() })
}

/// The two coordinate axes to keep when projecting a polygon with normal `n` to 2D: the axes
/// other than `n`'s largest component, which maximizes the projected area (used with
/// [`crate::crossings_test`] for point-in-polygon tests in 3D).
///
/// ```
/// use cd_geom::projection_axes;
/// use nalgebra::Vector3;
/// assert_eq!(projection_axes(&Vector3::new(0.1f64, -0.9, 0.2)), (2, 0)); // drop y
/// ```
#[inline]
pub fn projection_axes<T: Real>(n: &Vector3<T>) -> (usize, usize) {
    let a = n.abs();
    if a.x >= a.y && a.x >= a.z {
        (1, 2)
    } else if a.y >= a.z {
        (2, 0)
    } else {
        (0, 1)
    }
}

impl<T: Real, const D: usize> Polygon<T, D> {
    /// A polygon through `vertices` (at least three, in order). Errors: bad coordinates, fewer
    /// than three vertices, zero area, non-coplanar vertices (3D, relative tolerance
    /// `8·√ε`), a dimension other than 2 or 3.
    pub fn new(vertices: Vec<Point<T, D>>) -> GeomResult<Self> {
        if D != 2 && D != 3 {
            return Err(GeomError::Degenerate);
        }
        if vertices.len() < 3 {
            return Err(GeomError::TooFewPoints);
        }
        vertices.iter().try_for_each(validate::point)?;
        let pts: Vec<Vector3<T>> = vertices.iter().map(embed3).collect();
        let centroid = pts.iter().fold(Vector3::zeros(), |s, p| s + p) / T::lit(pts.len() as f64);
        // Newell's method relative to the centroid: robust for non-convex and nearly flat input.
        let mut n = Vector3::zeros();
        for (i, p) in pts.iter().enumerate() {
            let q = pts[(i + 1) % pts.len()];
            n += (p - centroid).cross(&(q - centroid));
        }
        let normal = validate::unit(&n).map_err(|_| GeomError::Degenerate)?;
        let offset = -normal.dot(&centroid);
        // Checked relative to the centroid, allowing 4 ulps of the largest coordinate: vertices
        // rounded to `T` are coplanar only to about an ulp of them. (Dot products with the
        // coordinates themselves rounded at their size: 84 of 150 triangles 3 wide at 10⁵ in
        // `f32` were refused as not planar.)
        let extent = pts.iter().map(|p| (p - centroid).amax()).fold(T::zero(), |a, b| a.max(b));
        let magnitude = centroid.amax() + extent;
        let tol = T::epsilon().sqrt() * T::lit(8.0) * extent + T::epsilon() * T::lit(4.0) * magnitude;
        if pts.iter().any(|p| normal.dot(&(p - centroid)).abs() > tol) {
            return Err(GeomError::NotPlanar);
        }
        let convex = is_convex_projected(&pts, projection_axes(&normal));
        Ok(Polygon { vertices, normal, offset, convex })
    }
    /// The vertices in order.
    #[inline(always)]
    pub fn vertices(&self) -> &[Point<T, D>] {
        &self.vertices
    }
    /// Is the polygon convex?
    #[inline(always)]
    pub fn is_convex(&self) -> bool {
        self.convex
    }
    /// Unit normal of the supporting plane in 3D (right-hand rule over the vertex order).
    #[inline(always)]
    pub fn normal3(&self) -> &Vector3<T> {
        &self.normal
    }
}

impl<T: Real> Polygon<T, 3> {
    /// The supporting plane.
    pub fn plane(&self) -> Plane<T, 3> {
        Plane::from_unit_normal(self.normal, self.offset)
    }
}

impl<T: Real> Polygon<T, 2> {
    /// Edge normals (outward when counter-clockwise), one per edge `v[i] → v[i+1]`.
    pub fn edge_normals(&self) -> impl Iterator<Item = Vector<T, 2>> + '_ {
        let n = self.vertices.len();
        (0..n).map(move |i| {
            let e = self.vertices[(i + 1) % n] - self.vertices[i];
            Vector::<T, 2>::new(e.y, -e.x)
        })
    }
}

/// Convexity of a closed polyline in the given projection (either winding).
fn is_convex_projected<T: Real>(pts: &[Vector3<T>], (u, v): (usize, usize)) -> bool {
    let n = pts.len();
    let magnitude = pts.iter().fold(T::zero(), |m, p| m.max(p[u].abs()).max(p[v].abs()));
    let edge = |i: usize| {
        let (p, q) = (pts[i], pts[(i + 1) % n]);
        (q[u] - p[u], q[v] - p[v])
    };
    convex_turn(n, magnitude, edge).is_some()
}

/// Whether the closed polyline through `points` is a convex polygon whose vertices run
/// counter-clockwise: every turn to the left or straight, and the edges' directions sweeping
/// the circle once (which rules out self-intersecting stars). Collinear vertices, repeated
/// vertices and a polyline with no turn at all (one point, two points, all on a line) count;
/// an empty list does not. A vertex within a few ulps of the coordinates of the line through
/// its neighbours counts as straight, so a hull computed in floating point passes.
///
/// ```
/// use cd_geom::is_convex_counter_clockwise;
/// use nalgebra::Point2;
/// let square = [Point2::new(0.0f64, 0.0), Point2::new(1.0, 0.0), Point2::new(1.0, 1.0), Point2::new(0.0, 1.0)];
/// assert!(is_convex_counter_clockwise(&square));
/// let mut clockwise = square;
/// clockwise.reverse();
/// assert!(!is_convex_counter_clockwise(&clockwise));
/// ```
pub fn is_convex_counter_clockwise<T: Real>(points: &[Point<T, 2>]) -> bool {
    let n = points.len();
    let edge = |i: usize| {
        let e = points[(i + 1) % n] - points[i];
        (e.x, e.y)
    };
    let magnitude = points.iter().fold(T::zero(), |m, p| m.max(p.coords.amax()));
    n > 0 && convex_turn(n, magnitude, edge).is_some_and(|turn| turn >= 0)
}

/// The turning direction of a closed polyline of `n` edges given by their vectors `edge(i)`:
/// `Some(1)` when every turn is to the left or straight, `Some(-1)` when every one is to the
/// right or straight, `Some(0)` with no turn at all, `None` when the turns differ or the edge
/// directions sweep the circle more than once (at most two sign changes of the x-direction and
/// of the y-direction). A turn whose vertex lies within 64 ulps of `magnitude` (the largest
/// coordinate) of its neighbours' line counts as straight: the cross product of the two edges
/// is then below 64·ε·magnitude times their length.
fn convex_turn<T: Real>(n: usize, magnitude: T, edge: impl Fn(usize) -> (T, T)) -> Option<i8> {
    let mut sign = 0i8;
    let mut x_changes = 0;
    let mut y_changes = 0;
    let (mut prev_x, mut prev_y) = (0i8, 0i8);
    let sgn = |x: T, rounding: T| -> i8 {
        if x > rounding {
            1
        } else if x < -rounding {
            -1
        } else {
            0
        }
    };
    // Walk the edges twice around so the first edge's direction sign is seeded.
    for k in 0..2 * n {
        let i = k % n;
        let (ex, ey) = edge(i);
        let (fx, fy) = edge((i + 1) % n);
        if k < n {
            let rounding =
                T::epsilon() * T::lit(64.0) * magnitude * (ex.abs() + ey.abs() + fx.abs() + fy.abs());
            let c = sgn(ex * fy - ey * fx, rounding);
            if c != 0 {
                if sign != 0 && c != sign {
                    return None;
                }
                sign = c;
            }
        }
        for (s, prev, changes) in [
            (sgn(ex, T::zero()), &mut prev_x, &mut x_changes),
            (sgn(ey, T::zero()), &mut prev_y, &mut y_changes),
        ] {
            if s != 0 {
                if *prev != 0 && s != *prev && k >= n {
                    *changes += 1;
                }
                *prev = s;
            }
        }
    }
    (x_changes <= 2 && y_changes <= 2).then_some(sign)
}
