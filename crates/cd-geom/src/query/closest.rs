//! Closest-point helpers (Ericson, *Real-Time Collision Detection*, ch. 5.1), generic over the
//! dimension where the mathematics is: point–segment, point–triangle (Voronoi regions),
//! point–AABB, point–OBB, point–plane, segment–segment, segment–AABB; and in 3D
//! segment–triangle and triangle–triangle.

use crate::query::ray_triangle::segment_triangle_hit;
use crate::query::tri_tri::{triangle_triangle, TriTriIntersection};
use crate::{Aabb, ClosestPoints, Obb, Plane, Point, Real, Segment, Triangle, Vector};

/// The point of segment `s` closest to `p`, and its parameter `t ∈ [0, 1]` (`s.a + t(s.b - s.a)`).
/// A zero-length segment answers `t = 0`. O(1).
#[inline]
pub fn closest_point_on_segment<T: Real, const D: usize>(
    p: &Point<T, D>,
    s: &Segment<T, D>,
) -> (Point<T, D>, T) {
    closest_point_between(p, s.a(), s.b())
}

/// [`closest_point_on_segment`] on the segment `[a, b]` given by its endpoints (for callers
/// that walk the edges of a polygon or a shape without building [`Segment`]s). O(1).
#[inline]
pub fn closest_point_between<T: Real, const D: usize>(
    p: &Point<T, D>,
    a: &Point<T, D>,
    b: &Point<T, D>,
) -> (Point<T, D>, T) {
    let ab = b - a;
    let len2 = ab.norm_squared();
    if len2 == T::zero() {
        return (*a, T::zero());
    }
    let t = ((p - a).dot(&ab) / len2).clamp(T::zero(), T::one());
    (a + ab * t, t)
}

/// The point of triangle `tri` closest to `p` with its barycentric coordinates `(u, v)`
/// (`a + u(b - a) + v(c - a)`), by Voronoi-region classification (Ericson 5.1.5). Works in 2D and
/// 3D and for degenerate triangles. O(1).
pub fn closest_point_on_triangle<T: Real, const D: usize>(
    p: &Point<T, D>,
    tri: &Triangle<T, D>,
) -> (Point<T, D>, T, T) {
    let (a, b, c) = (tri.a(), tri.b(), tri.c());
    let (zero, one) = (T::zero(), T::one());
    let ab = b - a;
    let ac = c - a;
    let (ab2, ac2) = (ab.norm_squared(), ac.norm_squared());
    let cross2 = cross_squared(&ab, &ac);
    if crate::directions::cross_is_noise(cross2, ab2, ac2) {
        // The region tests below compare products that all vanish for collinear vertices, so
        // their signs are rounding: a segment-shaped triangle answered a point 0.015 from a
        // ball centre 1.6·10⁻⁴ from it (fuzz finding 18). Its closest point is on an edge.
        return closest_on_edges(p, tri);
    }
    // Within about 7° of 0 or of 180° at any vertex (sin² of the smallest angle below 1/64),
    // the region tests' products are off by up to ε/sin² of the edges' lengths, and the
    // barycentric weights with them: on a 2·10⁹-long sliver whose angle at `a` was 2·10⁻¹¹, a
    // point lying on an edge got a "closest point" 1.5·10⁶ away (fuzz finding 60); on a
    // 3.2·10⁸-long sliver thin at `c` instead (its angle at `a` 11°), a point 1.9·10⁻⁵ from an
    // edge got one 17 away (fuzz finding 74). The smallest angle is the one between the two
    // longest edges, so its sin² is `cross2` over the largest product of two squared lengths.
    let bc2 = (c - b).norm_squared();
    let widest = (ab2 * ac2).max(ab2 * bc2).max(ac2 * bc2);
    if cross2 * T::lit(64.0) < widest {
        return closest_on_thin_triangle(p, tri);
    }
    let ap = p - a;
    let d1 = ab.dot(&ap);
    let d2 = ac.dot(&ap);
    if d1 <= zero && d2 <= zero {
        return (*a, zero, zero); // vertex region A
    }
    let bp = p - b;
    let d3 = ab.dot(&bp);
    let d4 = ac.dot(&bp);
    if d3 >= zero && d4 <= d3 {
        return (*b, one, zero); // vertex region B
    }
    let vc = d1 * d4 - d3 * d2;
    // `d1 − d3 = |ab|²`: a zero-length edge has no region of its own (with a = b every test
    // here is 0 ≤ 0, and the answer would be a instead of the closest point on ac).
    if vc <= zero && d1 >= zero && d3 <= zero && d1 - d3 > zero {
        let v = safe_ratio(d1, d1 - d3);
        return (a + ab * v, v, zero); // edge AB
    }
    let cp = p - c;
    let d5 = ab.dot(&cp);
    let d6 = ac.dot(&cp);
    if d6 >= zero && d5 <= d6 {
        return (*c, zero, one); // vertex region C
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= zero && d2 >= zero && d6 <= zero && d2 - d6 > zero {
        let w = safe_ratio(d2, d2 - d6);
        return (a + ac * w, zero, w); // edge AC
    }
    let va = d3 * d6 - d5 * d4;
    if va <= zero && (d4 - d3) >= zero && (d5 - d6) >= zero && (d4 - d3) + (d5 - d6) > zero {
        let w = safe_ratio(d4 - d3, (d4 - d3) + (d5 - d6));
        return (b + (c - b) * w, one - w, w); // edge BC
    }
    let sum = va + vb + vc;
    if sum <= zero {
        // Only reachable for a degenerate triangle whose regions all collapsed: fall back to
        // the closest of its three edges.
        return closest_on_edges(p, tri);
    }
    let v = vb / sum;
    let w = vc / sum;
    (a + ab * v + ac * w, v, w)
}

/// `|ab × ac|²` (in 2D the perp-dot product squared; beyond 3D by Lagrange's identity, whose
/// own rounding is larger, which only widens the tests it feeds).
fn cross_squared<T: Real, const D: usize>(ab: &Vector<T, D>, ac: &Vector<T, D>) -> T {
    match D {
        2 => (ab[0] * ac[1] - ab[1] * ac[0]).powi(2),
        3 => {
            let (x, y) = (ab.fixed_rows::<3>(0), ac.fixed_rows::<3>(0));
            x.cross(&y).norm_squared()
        }
        _ => ab.norm_squared() * ac.norm_squared() - ab.dot(ac).powi(2),
    }
}

/// The closest point of a thin triangle, by geometry that does not go through barycentric
/// weights: the foot of the perpendicular from `p` on the triangle's plane when it lies inside
/// the triangle (tested against each edge), else the closest of the three edges' closest
/// points. Each is exact to the rounding of the coordinates; a misjudged containment only
/// happens within that rounding of an edge, where both answers agree. The weights returned
/// are those of the point found.
///
/// The plane's normal is [`crate::triangle_normal`]'s: crossing two edges of a sliver, even at
/// its widest angle (near 180° on an obtuse one), tilts the normal by ε/sin of that angle,
/// and the foot of a point far along the sliver by that tilt times the distance (10⁻⁸ on a
/// unit sliver 7·10⁻¹² wide); made perpendicular to the longest edge, it only turns about that
/// edge, which moves the plane near the triangle by the rounding of its coordinates.
fn closest_on_thin_triangle<T: Real, const D: usize>(
    p: &Point<T, D>,
    tri: &Triangle<T, D>,
) -> (Point<T, D>, T, T) {
    let (a, b, c) = (tri.a(), tri.b(), tri.c());
    // The point in the triangle's plane (p itself in 2D) and the signed areas of the three
    // sub-triangles it makes with the edges, in one orientation.
    let in_plane: Option<(Point<T, D>, [T; 3])> = match D {
        2 => {
            let perp = |x: &Point<T, D>, y: &Point<T, D>| {
                let (e, f) = (y - x, p - x);
                e[0] * f[1] - e[1] * f[0]
            };
            Some((*p, [perp(b, c), perp(c, a), perp(a, b)]))
        }
        3 => {
            let v3 = |x: &Point<T, D>| nalgebra::Vector3::new(x[0], x[1], x[2]);
            let (a3, b3, c3) = (v3(a), v3(b), v3(c));
            let normal = crate::directions::triangle_normal(&a3, &b3, &c3);
            normal.map(|n| {
                let p3 = v3(p);
                let foot3 = p3 - n * n.dot(&(p3 - a3));
                let area =
                    |x: &nalgebra::Vector3<T>, y: &nalgebra::Vector3<T>| n.dot(&(y - x).cross(&(foot3 - x)));
                let foot = Point::from(Vector::from_fn(|i, _| foot3[i]));
                (foot, [area(&b3, &c3), area(&c3, &a3), area(&a3, &b3)])
            })
        }
        _ => None,
    };
    if let Some((q, areas)) = in_plane {
        let total = areas[0] + areas[1] + areas[2];
        let inside = |x: T| if total > T::zero() { x >= T::zero() } else { x <= T::zero() };
        if total != T::zero() && areas.iter().all(|&x| inside(x)) {
            return (q, areas[1] / total, areas[2] / total);
        }
    }
    closest_on_edges(p, tri)
}

fn closest_on_edges<T: Real, const D: usize>(p: &Point<T, D>, tri: &Triangle<T, D>) -> (Point<T, D>, T, T) {
    let (a, b, c) = (*tri.a(), *tri.b(), *tri.c());
    let one = T::one();
    let (pab, tab) = closest_point_on_segment(p, &Segment::new_unchecked(a, b));
    let (pac, tac) = closest_point_on_segment(p, &Segment::new_unchecked(a, c));
    let (pbc, tbc) = closest_point_on_segment(p, &Segment::new_unchecked(b, c));
    let cands = [(pab, tab, T::zero()), (pac, T::zero(), tac), (pbc, one - tbc, tbc)];
    let mut best = cands[0];
    for c in &cands[1..] {
        if (c.0 - p).norm_squared() < (best.0 - p).norm_squared() {
            best = *c;
        }
    }
    best
}

/// `n / d` clamped to `[0, 1]`, or 0 when `d` is zero.
#[inline]
fn safe_ratio<T: Real>(n: T, d: T) -> T {
    if d == T::zero() {
        T::zero()
    } else {
        (n / d).clamp(T::zero(), T::one())
    }
}

/// The point of `aabb` closest to `p` (`p` itself when inside). O(D).
#[inline]
pub fn closest_point_on_aabb<T: Real, const D: usize>(p: &Point<T, D>, aabb: &Aabb<T, D>) -> Point<T, D> {
    Point::from(Vector::from_fn(|i, _| p[i].clamp(aabb.min()[i], aabb.max()[i])))
}

/// The point of `obb` closest to `p` (`p` itself when inside). O(D²).
#[inline]
pub fn closest_point_on_obb<T: Real, const D: usize>(p: &Point<T, D>, obb: &Obb<T, D>) -> Point<T, D> {
    let q = obb.to_local(p);
    let h = obb.half_extents();
    let clamped = Point::from(Vector::from_fn(|i, _| q[i].clamp(-h[i], h[i])));
    obb.to_world(&clamped)
}

/// The orthogonal projection of `p` on `plane`. O(D).
#[inline]
pub fn closest_point_on_plane<T: Real, const D: usize>(p: &Point<T, D>, plane: &Plane<T, D>) -> Point<T, D> {
    plane.project(p)
}

/// Closest points of two segments with their parameters `(s, t)` (Ericson 5.1.9): handles
/// zero-length and parallel segments (for parallel overlapping segments one of the equally
/// close pairs is returned). O(1).
pub fn closest_points_segment_segment<T: Real, const D: usize>(
    s1: &Segment<T, D>,
    s2: &Segment<T, D>,
) -> (ClosestPoints<T, D>, T, T) {
    closest_points_between_segments(s1.a(), s1.b(), s2.a(), s2.b())
}

/// [`closest_points_segment_segment`] on the segments `[p1, q1]` and `[p2, q2]` given by their
/// endpoints (for callers that derive segments from other shapes, such as box edges or
/// capsule axes, without building [`Segment`]s). O(1).
pub fn closest_points_between_segments<T: Real, const D: usize>(
    p1: &Point<T, D>,
    q1: &Point<T, D>,
    p2: &Point<T, D>,
    q2: &Point<T, D>,
) -> (ClosestPoints<T, D>, T, T) {
    let (zero, one) = (T::zero(), T::one());
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let r = p1 - p2;
    let a = d1.norm_squared();
    let e = d2.norm_squared();
    let f = d2.dot(&r);
    let (s, t);
    if a == zero && e == zero {
        s = zero;
        t = zero;
    } else if a == zero {
        s = zero;
        t = (f / e).clamp(zero, one);
    } else {
        let c = d1.dot(&r);
        if e == zero {
            t = zero;
            s = (-c / a).clamp(zero, one);
        } else {
            let b = d1.dot(&d2);
            let denom = a * e - b * b;
            // Non-parallel: closest point on line 1 to line 2, clamped; parallel: any s, pick 0.
            let s0 = if denom > zero { ((b * f - c * e) / denom).clamp(zero, one) } else { zero };
            let t0 = (b * s0 + f) / e;
            if t0 < zero {
                t = zero;
                s = (-c / a).clamp(zero, one);
            } else if t0 > one {
                t = one;
                s = ((b - c) / a).clamp(zero, one);
            } else {
                t = t0;
                s = s0;
            }
        }
    }
    (ClosestPoints::new(p1 + d1 * s, p2 + d2 * t), s, t)
}

/// Squared distance from segment `s` to `aabb`, the segment parameter where it is reached and the
/// box point there. The squared distance along the segment is a convex piecewise quadratic
/// whose pieces change where the segment crosses a slab plane; each piece is minimized exactly.
/// O(D log D).
pub fn closest_points_segment_aabb<T: Real, const D: usize>(
    s: &Segment<T, D>,
    aabb: &Aabb<T, D>,
) -> (ClosestPoints<T, D>, T) {
    let (zero, one, half) = (T::zero(), T::one(), T::lit(0.5));
    let a = s.a().coords;
    let d = s.delta();
    // Breakpoints: where coordinate i of the segment enters or leaves [min_i, max_i].
    // At most 2D + 2 of them; a stack buffer serves every dimension up to 7 (no allocation).
    let mut small = [zero; 16];
    let mut big;
    let ts: &mut [T] = if 2 * D + 2 <= small.len() {
        &mut small
    } else {
        big = vec![zero; 2 * D + 2];
        &mut big
    };
    ts[0] = zero;
    ts[1] = one;
    let mut n = 2;
    for i in 0..D {
        if d[i] != zero {
            for bound in [aabb.min()[i], aabb.max()[i]] {
                let t = (bound - a[i]) / d[i];
                if t > zero && t < one {
                    ts[n] = t;
                    n += 1;
                }
            }
        }
    }
    let ts = &mut ts[..n];
    ts.sort_unstable_by(|x, y| x.partial_cmp(y).unwrap_or(core::cmp::Ordering::Equal));
    let dist2_at = |t: T| -> T {
        let p = s.at(t);
        (p - closest_point_on_aabb(&p, aabb)).norm_squared()
    };
    let mut best_t = zero;
    let mut best = dist2_at(zero);
    for w in ts.windows(2) {
        let (t0, t1) = (w[0], w[1]);
        let tm = (t0 + t1) * half;
        // On this piece every axis is below, inside or above its slab: the excess is linear.
        let (mut qa, mut qb) = (zero, zero);
        for i in 0..D {
            let pi = a[i] + d[i] * tm;
            let offset = if pi < aabb.min()[i] {
                a[i] - aabb.min()[i]
            } else if pi > aabb.max()[i] {
                a[i] - aabb.max()[i]
            } else {
                continue;
            };
            // excess(t) = offset + t d_i; squared: d_i² t² + 2 offset d_i t + offset².
            qa += d[i] * d[i];
            qb += offset * d[i] * T::lit(2.0);
        }
        let mut cands = [t0, t1, t1];
        if qa > zero {
            cands[2] = (-qb / (qa * T::lit(2.0))).clamp(t0, t1);
        }
        for t in cands {
            let v = dist2_at(t);
            if v < best {
                best = v;
                best_t = t;
            }
        }
    }
    let p = s.at(best_t);
    (ClosestPoints::new(p, closest_point_on_aabb(&p, aabb)), best_t)
}

/// Squared distance from segment `s` to `aabb`, without the closest points: the boolean
/// capsule/box tests' core. Same minimum as [`closest_points_segment_aabb`], found without
/// sorting the breakpoints: the squared distance along the segment is convex, so its slope
/// (the sum over axes of `excess_i(t)·d_i`, where `excess_i` is how far coordinate `i` is
/// outside its slab) never decreases, and the minimizer lies between the last breakpoint where
/// the slope is not positive and the first where it is. Between those the slope is linear, and
/// its root is the minimizer. The distance is then evaluated at that parameter directly.
///
/// Each axis's excess there is reduced by its own rounding, `2ε(|a_i| + 2|d_i|)` (the
/// evaluation of `a_i + d_i·t`, and how far one ulp of `t` moves it): a segment can cross a
/// slab thinner than that inside one ulp of its parameter, where every representable point of
/// it lies outside the slab (a segment 10⁷⁵ long through a box 10⁷⁵ wide and 13 thick came out
/// 10⁵⁹ away, and a capsule of radius 6 through the box was called apart: fuzz finding 70). So
/// the answer is the true squared distance to within that rounding, erring towards touching.
/// O(D²), no branches on the data but the final clamp.
pub fn segment_aabb_distance_squared<T: Real, const D: usize>(s: &Segment<T, D>, aabb: &Aabb<T, D>) -> T {
    let (zero, one) = (T::zero(), T::one());
    let a = s.a().coords;
    let d = s.delta();
    let (lo_b, hi_b) = (aabb.min().coords, aabb.max().coords);
    // Coordinate i's distance outside [min_i, max_i] at t, signed (negative below the slab).
    let excess = |i: usize, t: T| {
        let p = a[i] + d[i] * t;
        (p - hi_b[i]).max(zero) + (p - lo_b[i]).min(zero)
    };
    let slope = |t: T| (0..D).fold(zero, |acc, i| acc + excess(i, t) * d[i]);
    let t = if slope(zero) >= zero {
        zero
    } else if slope(one) <= zero {
        one
    } else {
        // The bracket [lo, hi] shrinks to the piece holding the slope's sign change.
        let (mut lo, mut hi) = (zero, one);
        for i in 0..D {
            if d[i] != zero {
                for bound in [lo_b[i], hi_b[i]] {
                    let tb = (bound - a[i]) / d[i];
                    if tb > lo && tb < hi {
                        if slope(tb) <= zero {
                            lo = tb;
                        } else {
                            hi = tb;
                        }
                    }
                }
            }
        }
        // On (lo, hi) every axis stays below, inside or above its slab: the slope is
        // `Σ (a_i − bound_i) d_i + t Σ d_i²` over the axes outside.
        let mid = (lo + hi) * T::lit(0.5);
        let (mut qa, mut qb) = (zero, zero);
        for i in 0..D {
            let p = a[i] + d[i] * mid;
            let bound = if p < lo_b[i] {
                lo_b[i]
            } else if p > hi_b[i] {
                hi_b[i]
            } else {
                continue;
            };
            qa += d[i] * d[i];
            qb += (a[i] - bound) * d[i];
        }
        if qa > zero {
            (-qb / qa).max(lo).min(hi)
        } else {
            mid
        }
    };
    let two_eps = T::epsilon() * T::lit(2.0);
    (0..D).fold(zero, |acc, i| {
        let rounding = two_eps * (a[i].abs() + T::lit(2.0) * d[i].abs());
        let e = (excess(i, t).abs() - rounding).max(zero);
        acc + e * e
    })
}

/// Closest points of a segment and a triangle (3D); distance 0 (with the crossing point) when
/// they intersect. O(1).
pub fn closest_points_segment_triangle<T: Real>(
    s: &Segment<T, 3>,
    tri: &Triangle<T, 3>,
) -> ClosestPoints<T, 3> {
    // Far from the origin (beyond the pair's own reach of it), worked out with the triangle's
    // first vertex at the origin and moved back: the crossing test's slack is in ulps of the
    // coordinates: at 10⁴ in `f32` a segment 0.0099 from a triangle was reported touching it
    // (distances up to 0.11 off at 10⁵).
    // Copies rather than a second call of the body, so the common case keeps it inlined.
    let far = crate::far_offset(tri.a(), [tri.b(), tri.c(), s.a(), s.b()], T::zero());
    let by = far.unwrap_or_else(Vector::zeros);
    let (s, tri) = if far.is_some() {
        (
            Segment::new_unchecked(s.a() - by, s.b() - by),
            Triangle::new_unchecked(tri.a() - by, tri.b() - by, tri.c() - by),
        )
    } else {
        (*s, *tri)
    };
    let c = closest_points_segment_triangle_here(&s, &tri);
    if far.is_some() {
        ClosestPoints { a: c.a + by, b: c.b + by, ..c }
    } else {
        c
    }
}

/// [`closest_points_segment_triangle`] where the segment and the triangle are.
#[inline(always)]
fn closest_points_segment_triangle_here<T: Real>(
    s: &Segment<T, 3>,
    tri: &Triangle<T, 3>,
) -> ClosestPoints<T, 3> {
    if let Some(p) = segment_triangle_hit(s, tri).or_else(|| segment_plane_crossing(s, tri)) {
        return ClosestPoints::new(p, p);
    }
    let mut best = ClosestPoints { a: Point::origin(), b: Point::origin(), distance_squared: T::infinity() };
    let mut keep = |c: ClosestPoints<T, 3>| {
        if c.distance_squared < best.distance_squared {
            best = c;
        }
    };
    for (p, q) in tri.edges() {
        keep(closest_points_segment_segment(s, &Segment::new_unchecked(p, q)).0);
    }
    for end in [s.a(), s.b()] {
        keep(ClosestPoints::new(*end, closest_point_on_triangle(end, tri).0));
    }
    best
}

/// Where the segment crosses the triangle, by the signs of its ends' distances to the plane,
/// when the ray test missed it: the ray starts at one end and measures from the triangle's
/// first vertex, so a crossing near the other end of a segment 10¹⁰ long, by a sliver whose
/// first vertex is 10¹⁰ away, carried more rounding than the crossing's distance from the end
/// (a segment piercing a triangle 0.075 from its end was reported 0.01 apart). Here each end's
/// distance is measured from the triangle vertex nearest to it along the well-conditioned
/// normal, the crossing is interpolated from the nearer end, and it counts when it lies on the
/// triangle to within the coordinates' rounding.
fn segment_plane_crossing<T: Real>(s: &Segment<T, 3>, tri: &Triangle<T, 3>) -> Option<Point<T, 3>> {
    let n = tri.normal().ok()?;
    let vertices = tri.vertices();
    let side = |p: &Point<T, 3>| {
        let nearest = vertices.iter().fold(vertices[0], |m, v| {
            if (v - p).norm_squared() < (m - p).norm_squared() {
                *v
            } else {
                m
            }
        });
        n.dot(&(p - nearest))
    };
    let (a, b) = (*s.a(), *s.b());
    let (da, db) = (side(&a), side(&b));
    if (da > T::zero() && db > T::zero()) || (da < T::zero() && db < T::zero()) || da == db {
        return None;
    }
    let x =
        if da.abs() <= db.abs() { a + (b - a) * (da / (da - db)) } else { b + (a - b) * (db / (db - da)) };
    let (q, _, _) = closest_point_on_triangle(&x, tri);
    let magnitude = vertices.iter().chain([&a, &b]).fold(T::zero(), |m, p| m.max(p.coords.amax()));
    let slack = T::lit(64.0) * T::epsilon() * magnitude;
    ((q - x).norm_squared() <= slack * slack).then_some(q)
}

/// Closest points of two triangles (3D); distance 0 when they intersect (a point of the
/// intersection). For disjoint triangles the minimum is reached edge–edge or vertex–face, so
/// the 9 edge pairs and 6 vertex projections are compared. O(1).
pub fn closest_points_triangle_triangle<T: Real>(
    t1: &Triangle<T, 3>,
    t2: &Triangle<T, 3>,
) -> ClosestPoints<T, 3> {
    match triangle_triangle(t1, t2) {
        TriTriIntersection::Segment(p, _) => return ClosestPoints::new(p, p),
        TriTriIntersection::Coplanar(p) => return ClosestPoints::new(p, p),
        TriTriIntersection::Disjoint => {}
    }
    let mut best = ClosestPoints { a: Point::origin(), b: Point::origin(), distance_squared: T::infinity() };
    let mut keep = |c: ClosestPoints<T, 3>| {
        if c.distance_squared < best.distance_squared {
            best = c;
        }
    };
    for (p, q) in t1.edges() {
        let e1 = Segment::new_unchecked(p, q);
        for (r, s) in t2.edges() {
            keep(closest_points_segment_segment(&e1, &Segment::new_unchecked(r, s)).0);
        }
    }
    for v in t1.vertices() {
        keep(ClosestPoints::new(v, closest_point_on_triangle(&v, t2).0));
    }
    for v in t2.vertices() {
        keep(ClosestPoints::new(closest_point_on_triangle(&v, t1).0, v));
    }
    best
}
