//! Triangle/triangle intersection (Möller 1997, RTR 22.11) with the intersection segment.

use crate::query::lines::segments_intersect_2d_raw;
use crate::query::ray_polygon::crossings_test;
use crate::shape::projection_axes;
use crate::{Point, Real, Triangle, Vector};

/// The result of [`triangle_triangle`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TriTriIntersection<T: Real> {
    /// The triangles do not meet.
    Disjoint,
    /// Non-coplanar triangles meeting along the segment between the two points (equal when
    /// they touch at a single point).
    Segment(Point<T, 3>, Point<T, 3>),
    /// Coplanar triangles that overlap; the point is one point of the overlap.
    Coplanar(Point<T, 3>),
}

impl<T: Real> TriTriIntersection<T> {
    /// Do the triangles meet?
    #[inline]
    pub fn intersects(&self) -> bool {
        !matches!(self, TriTriIntersection::Disjoint)
    }
}

/// A point on the planes' intersection line with its parameter along the line direction.
type LinePoint<T> = (T, Point<T, 3>);

/// Signed distances of a triangle's vertices to the plane `n·x + d = 0`, snapped to zero within a
/// tolerance relative to the plane normal's length and the coordinates' size, as Möller's test
/// prescribes (the snapping makes near-touching and near-coplanar configurations robust).
fn plane_distances<T: Real>(n: &Vector<T, 3>, d: T, tri: &Triangle<T, 3>, scale: T) -> [T; 3] {
    let tol = T::epsilon() * T::lit(64.0) * n.norm() * scale;
    tri.vertices().map(|v| {
        let s = n.dot(&v.coords) + d;
        if s.abs() <= tol {
            T::zero()
        } else {
            s
        }
    })
}

/// The part of triangle `tri` on the plane whose vertex distances are `dist` (not all zero, not
/// all one sign): its projection onto the line direction `dir`, as an interval with the 3D
/// points at its ends. Covers every case of Möller's interval computation at once: vertices on
/// the plane are included as they are, edges with endpoints strictly on opposite sides add their
/// crossing point.
fn plane_cut_interval<T: Real>(
    tri: &Triangle<T, 3>,
    dist: &[T; 3],
    dir: &Vector<T, 3>,
) -> Option<(LinePoint<T>, LinePoint<T>)> {
    let v = tri.vertices();
    let mut lo: Option<(T, Point<T, 3>)> = None;
    let mut hi: Option<(T, Point<T, 3>)> = None;
    let mut add = |p: Point<T, 3>| {
        let s = dir.dot(&p.coords);
        if lo.is_none_or(|(l, _)| s < l) {
            lo = Some((s, p));
        }
        if hi.is_none_or(|(h, _)| s > h) {
            hi = Some((s, p));
        }
    };
    for i in 0..3 {
        let j = (i + 1) % 3;
        if dist[i] == T::zero() {
            add(v[i]);
        }
        if (dist[i] > T::zero() && dist[j] < T::zero()) || (dist[i] < T::zero() && dist[j] > T::zero()) {
            let t = dist[i] / (dist[i] - dist[j]);
            add(v[i] + (v[j] - v[i]) * t);
        }
    }
    Some((lo?, hi?))
}

/// Triangle/triangle overlap with the intersection segment (Möller 1997, RTR 22.11).
///
/// 1. Reject if all of one triangle's vertices are strictly on one side of the other's plane.
/// 2. Otherwise both triangles cross the line where the planes meet; each covers an interval of
///    it, and the triangles intersect exactly when the intervals overlap; the overlap is the
///    intersection segment.
/// 3. Coplanar triangles (all distances zero after snapping) are tested in 2D: any pair of
///    edges crossing, or a vertex of one inside the other.
///
/// Touching counts as intersecting. Zero-area triangles are handled as the segments or points
/// they are. O(1).
pub fn triangle_triangle<T: Real>(t1: &Triangle<T, 3>, t2: &Triangle<T, 3>) -> TriTriIntersection<T> {
    // Triangles whose boxes are apart cannot meet. Checked exactly first because the snapping
    // below uses a tolerance scaled by the coordinates' magnitude: far from the origin (f32
    // near 1e8) it exceeds a small triangle's size, and disjoint triangles would otherwise be
    // snapped coplanar and reported touching.
    for i in 0..3 {
        let (v1, v2) = (t1.vertices().map(|p| p[i]), t2.vertices().map(|p| p[i]));
        let (lo1, hi1) = (v1[0].min(v1[1]).min(v1[2]), v1[0].max(v1[1]).max(v1[2]));
        let (lo2, hi2) = (v2[0].min(v2[1]).min(v2[2]), v2[0].max(v2[1]).max(v2[2]));
        if hi1 < lo2 || hi2 < lo1 {
            return TriTriIntersection::Disjoint;
        }
    }
    // Far from the origin (beyond the pair's own reach of it), the test runs on the pair moved
    // so that t1's first vertex is at the origin, and the answer's points are moved back: the
    // snapping below is relative to the coordinates' magnitude, and at 10⁵ in `f32` it snapped
    // the plane distances of triangles 0.06 apart (8 ulps) to zero, wrong for 1,790 of 2,000
    // crossing pairs (24 at 10³). One call of the body either way (copies, not a second call
    // site), so the common case keeps it inlined.
    let far = crate::far_offset(t1.a(), [t1.b(), t1.c(), t2.a(), t2.b(), t2.c()], T::zero());
    let by = far.unwrap_or_else(Vector::zeros);
    let moved = |t: &Triangle<T, 3>| Triangle::new_unchecked(t.a() - by, t.b() - by, t.c() - by);
    let (t1, t2) = if far.is_some() { (moved(t1), moved(t2)) } else { (*t1, *t2) };
    let result = triangle_triangle_here(&t1, &t2);
    if far.is_none() {
        return result;
    }
    match result {
        TriTriIntersection::Segment(p, q) => TriTriIntersection::Segment(p + by, q + by),
        TriTriIntersection::Coplanar(p) => TriTriIntersection::Coplanar(p + by),
        TriTriIntersection::Disjoint => TriTriIntersection::Disjoint,
    }
}

/// [`triangle_triangle`] past the boxes' test, where the triangles are.
#[inline(always)]
fn triangle_triangle_here<T: Real>(t1: &Triangle<T, 3>, t2: &Triangle<T, 3>) -> TriTriIntersection<T> {
    // The snapping tolerance is relative to the coordinates' magnitude (the rounding of a plane
    // distance is), with no floor: a floor at 1 made every triangle smaller than ~1e-5 (in f32)
    // "coplanar" with its neighbours and reported touching.
    let scale = t1
        .vertices()
        .iter()
        .chain(t2.vertices().iter())
        .map(|p| p.coords.amax())
        .fold(T::zero(), |a, b| a.max(b));
    // A triangle with collinear vertices has no plane: its cross product is rounding noise,
    // and planes built from it cut the other triangle anywhere (a segment-shaped triangle
    // piercing a large one was called disjoint in 4 % of random poses). It is its edges.
    let (flat1, flat2) = (is_flat(t1), is_flat(t2));
    if flat1 || flat2 {
        return degenerate_case(t1, t2, flat1, flat2);
    }
    let n2 = t2.scaled_normal();
    let d2 = -n2.dot(&t2.a().coords);
    let du = plane_distances(&n2, d2, t1, scale);
    if same_strict_side(&du) {
        return TriTriIntersection::Disjoint;
    }
    let n1 = t1.scaled_normal();
    let d1 = -n1.dot(&t1.a().coords);
    let dv = plane_distances(&n1, d1, t2, scale);
    if same_strict_side(&dv) {
        return TriTriIntersection::Disjoint;
    }
    let dir = n1.cross(&n2);
    if du.iter().all(|x| *x == T::zero()) || dv.iter().all(|x| *x == T::zero()) || crate::real::is_zero(&dir)
    {
        return coplanar(t1, t2, &n1);
    }
    let (Some((a0, a1)), Some((b0, b1))) =
        (plane_cut_interval(t1, &du, &dir), plane_cut_interval(t2, &dv, &dir))
    else {
        return TriTriIntersection::Disjoint;
    };
    let lo = if a0.0 >= b0.0 { a0 } else { b0 };
    let hi = if a1.0 <= b1.0 { a1 } else { b1 };
    // Intervals that meet at one end are touching triangles (overlap is closed), but the ends
    // come from crossing points and projections that round: two triangles on integer
    // coordinates touching along a point were called disjoint in `f32` (found by a lattice
    // property test). Ends apart by less than the rounding of a projection (the same relative
    // size as the plane distances' snapping) count as meeting, at the one point.
    let tol = T::epsilon() * T::lit(64.0) * dir.norm() * scale;
    if lo.0 > hi.0 + tol {
        return TriTriIntersection::Disjoint;
    }
    TriTriIntersection::Segment(lo.1, if lo.0 > hi.0 { lo.1 } else { hi.1 })
}

fn same_strict_side<T: Real>(d: &[T; 3]) -> bool {
    (d[0] > T::zero() && d[1] > T::zero() && d[2] > T::zero())
        || (d[0] < T::zero() && d[1] < T::zero() && d[2] < T::zero())
}

/// Coplanar triangles (RTR 22.11): project to the plane's dominant 2D axes; they overlap iff an
/// edge of one crosses an edge of the other or one contains a vertex of the other.
fn coplanar<T: Real>(t1: &Triangle<T, 3>, t2: &Triangle<T, 3>, n: &Vector<T, 3>) -> TriTriIntersection<T> {
    let (u, v) = projection_axes(n);
    let p = |q: &Point<T, 3>| (q[u], q[v]);
    for (a, b) in t1.edges() {
        for (c, d) in t2.edges() {
            if let Some(s) = segments_intersect_2d_raw(p(&a), p(&b), p(&c), p(&d)) {
                return TriTriIntersection::Coplanar(a + (b - a) * s);
            }
        }
    }
    let v1 = t1.vertices();
    let v2 = t2.vertices();
    if crossings_test(3, |i| p(&v2[i]), p(&v1[0])) {
        return TriTriIntersection::Coplanar(v1[0]);
    }
    if crossings_test(3, |i| p(&v1[i]), p(&v2[0])) {
        return TriTriIntersection::Coplanar(v2[0]);
    }
    TriTriIntersection::Disjoint
}

/// Whether a triangle's vertices are collinear to within rounding (no plane).
fn is_flat<T: Real>(t: &Triangle<T, 3>) -> bool {
    let (e0, e1) = (t.b() - t.a(), t.c() - t.a());
    crate::directions::cross_is_noise(e0.cross(&e1).norm_squared(), e0.norm_squared(), e1.norm_squared())
}

/// At least one triangle has collinear vertices (a segment or a point; `flat1`, `flat2` say
/// which): they meet iff some edge of one meets the other (as segment/triangle or
/// segment/segment) — decided by closest points.
fn degenerate_case<T: Real>(
    t1: &Triangle<T, 3>,
    t2: &Triangle<T, 3>,
    flat1: bool,
    flat2: bool,
) -> TriTriIntersection<T> {
    use crate::query::closest::{closest_points_segment_segment, closest_points_segment_triangle};
    use crate::Segment;
    let tol2 = {
        let s = T::epsilon()
            * T::lit(64.0)
            * t1.vertices()
                .iter()
                .chain(t2.vertices().iter())
                .map(|p| p.coords.amax())
                .fold(T::one(), |a, b| a.max(b));
        s * s
    };
    let (deg, other, other_flat) = if flat1 { (t1, t2, flat2) } else { (t2, t1, flat1) };
    for (a, b) in deg.edges() {
        let e = Segment::new_unchecked(a, b);
        let c = if other_flat {
            let edges = other.edges();
            let dist = |(p, q): &(Point<T, 3>, Point<T, 3>)| {
                closest_points_segment_segment(&e, &Segment::new_unchecked(*p, *q)).0
            };
            let (c0, c1, c2) = (dist(&edges[0]), dist(&edges[1]), dist(&edges[2]));
            let c01 = if c0.distance_squared <= c1.distance_squared { c0 } else { c1 };
            if c01.distance_squared <= c2.distance_squared {
                c01
            } else {
                c2
            }
        } else {
            closest_points_segment_triangle(&e, other)
        };
        if c.distance_squared <= tol2 {
            return TriTriIntersection::Segment(c.a, c.a);
        }
    }
    TriTriIntersection::Disjoint
}
