//! Line/line tests (RTR 22.15) and the intersection of three planes (RTR 22.16).

use crate::{Line, Plane, Point, Real, Segment, Vector};

/// `a · b⊥` with `b⊥ = (-b.y, b.x)`: the 2D perp-dot product (twice the signed area of `a, b`).
#[inline(always)]
fn perp_dot<T: Real>(a: &Vector<T, 2>, b: &Vector<T, 2>) -> T {
    a.y * b.x - a.x * b.y
}

/// How two 2D lines meet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LineLine2<T: Real> {
    /// One point, at parameter `s` on the first line and `t` on the second.
    Point {
        /// The intersection.
        point: Point<T, 2>,
        /// Parameter on the first line.
        s: T,
        /// Parameter on the second line.
        t: T,
    },
    /// Parallel and distinct: no intersection.
    Parallel,
    /// The same line.
    Coincident,
}

/// 2D line/line by **method 1** of RTR 22.15.1: with `r₁(s) = o₁ + s d₁`, `r₂(t) = o₂ + t d₂`,
/// dot both sides with the perpendiculars:
/// `s = ((o₂ - o₁)·d₂⊥) / (d₁·d₂⊥)`, `t = ((o₁ - o₂)·d₁⊥) / (d₂·d₁⊥)`. O(1).
pub fn line_line_2d<T: Real>(l1: &Line<T, 2>, l2: &Line<T, 2>) -> LineLine2<T> {
    let (d1, d2) = (l1.dir(), l2.dir());
    let w = l2.point() - l1.point();
    let den = perp_dot(d1, d2);
    if den == T::zero() {
        return if perp_dot(&w, d1) == T::zero() { LineLine2::Coincident } else { LineLine2::Parallel };
    }
    let s = perp_dot(&w, d2) / den;
    let t = perp_dot(&w, d1) / den;
    LineLine2::Point { point: l1.at(s), s, t }
}

/// How two 2D segments meet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SegmentSegment2<T: Real> {
    /// They do not meet.
    Disjoint,
    /// One point, at parameters `s, t ∈ [0, 1]` on the two segments.
    Point {
        /// The intersection.
        point: Point<T, 2>,
        /// Parameter on the first segment.
        s: T,
        /// Parameter on the second segment.
        t: T,
    },
    /// Collinear segments sharing the segment between these points.
    Overlap(Point<T, 2>, Point<T, 2>),
}

/// 2D segment/segment by **method 1** (RTR 22.15.1) restricted to `s, t ∈ [0, 1]`, with the
/// parallel (disjoint) and collinear (overlap computed on the common line) cases. Zero-length
/// segments are points. O(1).
pub fn segment_segment_2d<T: Real>(s1: &Segment<T, 2>, s2: &Segment<T, 2>) -> SegmentSegment2<T> {
    let (zero, one) = (T::zero(), T::one());
    let (d1, d2) = (s1.delta(), s2.delta());
    let w = s2.a() - s1.a();
    let den = perp_dot(&d1, &d2);
    if den != zero {
        let s = perp_dot(&w, &d2) / den;
        let t = perp_dot(&w, &d1) / den;
        if s < zero || s > one || t < zero || t > one {
            return SegmentSegment2::Disjoint;
        }
        return SegmentSegment2::Point { point: s1.at(s), s, t };
    }
    // Parallel (or degenerate): they meet only if collinear; then overlap the 1D intervals.
    let off_line = perp_dot(&w, &d1) != zero || perp_dot(&(s2.b() - s1.a()), &d1) != zero;
    if !crate::real::is_zero(&d1) && off_line {
        return SegmentSegment2::Disjoint;
    }
    collinear_overlap(s1, s2)
}

/// Overlap of two collinear (or degenerate) segments along their common direction.
fn collinear_overlap<T: Real>(s1: &Segment<T, 2>, s2: &Segment<T, 2>) -> SegmentSegment2<T> {
    let dir = if !crate::real::is_zero(&s1.delta()) { s1.delta() } else { s2.delta() };
    if crate::real::is_zero(&dir) {
        // Two points.
        return if s1.a() == s2.a() {
            SegmentSegment2::Point { point: *s1.a(), s: T::zero(), t: T::zero() }
        } else {
            SegmentSegment2::Disjoint
        };
    }
    // A degenerate segment must lie on the other's line.
    let on_line = |p: &Point<T, 2>, s: &Segment<T, 2>| perp_dot(&(p - s.a()), &s.delta()) == T::zero();
    if (crate::real::is_zero(&s1.delta()) && !on_line(s1.a(), s2))
        || (crate::real::is_zero(&s2.delta()) && !on_line(s2.a(), s1))
    {
        return SegmentSegment2::Disjoint;
    }
    let proj = |p: &Point<T, 2>| p.coords.dot(&dir);
    let (mut a0, mut a1) = (*s1.a(), *s1.b());
    if proj(&a0) > proj(&a1) {
        core::mem::swap(&mut a0, &mut a1);
    }
    let (mut b0, mut b1) = (*s2.a(), *s2.b());
    if proj(&b0) > proj(&b1) {
        core::mem::swap(&mut b0, &mut b1);
    }
    let lo = if proj(&a0) >= proj(&b0) { a0 } else { b0 };
    let hi = if proj(&a1) <= proj(&b1) { a1 } else { b1 };
    match proj(&lo).partial_cmp(&proj(&hi)) {
        Some(core::cmp::Ordering::Less) => SegmentSegment2::Overlap(lo, hi),
        Some(core::cmp::Ordering::Equal) => {
            let s = param_on(s1, &lo);
            let t = param_on(s2, &lo);
            SegmentSegment2::Point { point: lo, s, t }
        }
        _ => SegmentSegment2::Disjoint,
    }
}

fn param_on<T: Real>(s: &Segment<T, 2>, p: &Point<T, 2>) -> T {
    let d = s.delta();
    let l2 = d.norm_squared();
    if l2 == T::zero() {
        T::zero()
    } else {
        (p - s.a()).dot(&d) / l2
    }
}

/// Do two 2D segments meet? **Method 2** of RTR 22.15.1 (Antonio 1992): with `a = q₂ - q₁`,
/// `b = p₂ - p₁`, `c = p₁ - q₁`, `d = c·a⊥`, `e = c·b⊥`, `f = a·b⊥`, the parameters are
/// `s = d/f`, `t = e/f`; the range tests `0 ≤ s, t ≤ 1` are made on `d`, `e` against `f`
/// without dividing, rejecting as early as possible. Collinear segments are decided by
/// interval overlap. Same answers as [`segment_segment_2d`]. O(1).
pub fn segments_intersect_2d<T: Real>(s1: &Segment<T, 2>, s2: &Segment<T, 2>) -> bool {
    let a = s2.delta();
    let b = s1.delta();
    let c = s1.a() - s2.a();
    let f = perp_dot(&a, &b);
    if f == T::zero() {
        return !matches!(segment_segment_2d(s1, s2), SegmentSegment2::Disjoint);
    }
    let d = perp_dot(&c, &a);
    let in_range = |x: T| if f > T::zero() { x >= T::zero() && x <= f } else { x <= T::zero() && x >= f };
    if !in_range(d) {
        return false;
    }
    in_range(perp_dot(&c, &b))
}

/// Raw-coordinate segment intersection used by the coplanar triangle test: the parameter on
/// the first segment of a common point, if any.
pub(crate) fn segments_intersect_2d_raw<T: Real>(
    p1: (T, T),
    p2: (T, T),
    q1: (T, T),
    q2: (T, T),
) -> Option<T> {
    let pt = |p: (T, T)| Point::<T, 2>::new(p.0, p.1);
    let s1 = Segment::new(pt(p1), pt(p2)).ok()?;
    let s2 = Segment::new(pt(q1), pt(q2)).ok()?;
    match segment_segment_2d(&s1, &s2) {
        SegmentSegment2::Disjoint => None,
        SegmentSegment2::Point { s, .. } => Some(s),
        SegmentSegment2::Overlap(p, _) => Some(param_on(&s1, &p)),
    }
}

/// Closest points of two 3D lines (RTR 22.15.2): with `w = o₂ - o₁` and `n = d₁ × d₂`,
/// `s = det(w, d₂, n) / |n|²`, `t = det(w, d₁, n) / |n|²`. Returns `(s, t, r₁(s), r₂(t))`; the
/// points coincide when the lines intersect. Parallel lines (`n = 0`) return `None`: every
/// point is equally close (use [`closest_points_segment_segment`] for a pair).
///
/// [`closest_points_segment_segment`]: crate::closest_points_segment_segment
pub fn line_line_closest_3d<T: Real>(
    l1: &Line<T, 3>,
    l2: &Line<T, 3>,
) -> Option<(T, T, Point<T, 3>, Point<T, 3>)> {
    let (d1, d2) = (l1.dir(), l2.dir());
    let n = d1.cross(d2);
    let n2 = n.norm_squared();
    if n2 == T::zero() {
        return None;
    }
    let w = l2.point() - l1.point();
    let s = w.cross(d2).dot(&n) / n2;
    let t = w.cross(d1).dot(&n) / n2;
    Some((s, t, l1.at(s), l2.at(t)))
}

/// The point common to three planes (RTR 22.16): for planes `nᵢ·x + dᵢ = 0`,
/// `x = -(d₁ (n₂×n₃) + d₂ (n₃×n₁) + d₃ (n₁×n₂)) / (n₁·(n₂×n₃))`. `None` when two planes are
/// parallel or all three share a line (the determinant is below `√ε` — normals are unit, so
/// that is the sine of the smallest angle involved). O(1).
pub fn three_planes<T: Real>(p1: &Plane<T, 3>, p2: &Plane<T, 3>, p3: &Plane<T, 3>) -> Option<Point<T, 3>> {
    let (n1, n2, n3) = (p1.normal(), p2.normal(), p3.normal());
    let n23 = n2.cross(n3);
    let det = n1.dot(&n23);
    if det.abs() <= T::epsilon().sqrt() {
        return None;
    }
    let x = -(n23 * p1.d() + n3.cross(n1) * p2.d() + n1.cross(n2) * p3.d()) / det;
    Some(Point::from(x))
}
