//! Box/triangle contact: the 13-axis SAT of Akenine-Möller's triangle/box test extended with the
//! minimum translation (box face normals, the triangle's normal, the nine box-edge ×
//! triangle-edge products), then contact points by clipping — the triangle against the box
//! face, or the box's incident face against the triangle — so a box resting on a triangle mesh
//! gets a full manifold. Computed in the box's frame, answered in world space.

use cd_geom::{
    closest_points_between_segments, edge_normal, Contact, ContactStatus, Obb, Point, Real, Triangle, Vector,
};

use crate::clip::ClipPolygon;
use crate::convex::clipped_or_gjk_epa;
use crate::manifold::{Candidates, Manifold, ManifoldPoint};

/// A clipped triangle or box face: three or four vertices and at most one more per side plane
/// (four box sides or three triangle sides), with room to spare for rounding.
type Polygon<T> = ClipPolygon<T, 12>;

/// Which axis gave the minimum translation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Axis {
    /// Box face `k`.
    BoxFace(usize),
    /// The triangle's normal.
    TriangleFace,
    /// Box edge `k` × triangle edge `j`.
    Edges(usize, usize),
}

/// SAT in the box frame: `(separation, unit axis from box to triangle, axis)`; stops at the
/// first axis separating by more than `prediction`. `input_epsilon` is the machine epsilon of
/// the shapes' own type, the rounding level below which a later axis does not displace an
/// earlier one.
fn sat<T: Real>(
    h: &Vector<T, 3>,
    v: &[Point<T, 3>; 3],
    prediction: T,
    input_epsilon: T,
) -> Option<(T, Vector<T, 3>, Axis)> {
    let mut best: Option<(T, Vector<T, 3>, Axis)> = None;
    let scale = h.amax() + v.iter().fold(T::zero(), |m, p| m.max(p.coords.amax()));
    let bias = input_epsilon * T::lit(64.0) * scale;
    // Returns true when the axis separates beyond the prediction (the search can stop).
    let mut consider = |sep: T, n: Vector<T, 3>, axis: Axis, later: bool| {
        if best.is_none_or(|(s, _, _)| sep > s + if later { bias } else { T::zero() }) || sep > prediction {
            best = Some((sep, n, axis));
        }
        sep > prediction
    };
    // Separation of the triangle from the box along unit `n` (oriented box → triangle).
    let along = |n: &Vector<T, 3>| {
        let r = h[0] * n[0].abs() + h[1] * n[1].abs() + h[2] * n[2].abs();
        let (lo, hi) = v.iter().fold((T::infinity(), -T::infinity()), |(lo, hi), p| {
            let s = n.dot(&p.coords);
            (lo.min(s), hi.max(s))
        });
        if lo - r >= -r - hi {
            (lo - r, *n)
        } else {
            (-r - hi, -n)
        }
    };
    for k in 0..3 {
        let (sep, n) = along(&Vector::ith(k, T::one()));
        if consider(sep, n, Axis::BoxFace(k), false) {
            return best;
        }
    }
    // A triangle with collinear vertices has no normal (`edge_normal` refuses a cross product
    // that is rounding noise, which as an axis could separate a segment piercing the box: fuzz
    // finding 17). The edge axes cover a segment.
    if let Some(tn) = edge_normal(&(v[1] - v[0]), &(v[2] - v[0])) {
        let (sep, n) = along(&tn);
        if consider(sep, n, Axis::TriangleFace, true) {
            return best;
        }
    }
    for j in 0..3 {
        let f = v[(j + 1) % 3] - v[j];
        for k in 0..3 {
            let l = Vector::<T, 3>::ith(k, T::one()).cross(&f);
            let len = l.norm();
            if len <= T::epsilon().sqrt() * f.norm() {
                continue;
            }
            let (sep, n) = along(&(l / len));
            if consider(sep, n, Axis::Edges(k, j), true) {
                return best;
            }
        }
    }
    best
}

/// The box/triangle manifold (empty when farther apart than `prediction`); returns SAT's
/// separation (positive = a lower bound on the gap), or `None` for a degenerate triangle.
///
/// For a pair apart (a positive separation, within `prediction`) the points are pairs along
/// SAT's axis, which only bounds the gap from below: they can miss the closest pair, or be
/// none. [`manifold`](fn@crate::manifold) joins the exact contact to them then.
pub fn box_triangle_manifold<T: Real>(
    bx: &Obb<T, 3>,
    tri: &Triangle<T, 3>,
    prediction: T,
    out: &mut Manifold<T, 3>,
) -> Option<T> {
    out.clear();
    let h = *bx.half_extents();
    // The SAT runs in `f64` on the triangle taken into the box's frame in `f64`. An edge pair
    // within √ε of parallel is skipped, and `f32`'s √ε is 3.5·10⁻⁴ rad: a box 16 long and
    // 6·10⁻⁴ thick crossing a triangle edge that nearly parallel lost its axis of least depth
    // and came out 1.8·10⁻³ deep for 4.7·10⁻⁴. Computing the axis in `f32` would not help
    // either: the box-frame vertices carry `f32` rounding of their distance from the centre,
    // which a nearly parallel axis amplifies.
    let wide = |x: &Vector<T, 3>| x.map(|c| c.to_f64());
    let (axes, centre) = (bx.axes().map(|c| c.to_f64()), wide(&bx.center().coords));
    let v64 = tri.vertices().map(|p| Point::from(axes.tr_mul(&(wide(&p.coords) - centre))));
    let (sep, n, axis) = sat(&wide(&h), &v64, prediction.to_f64(), T::epsilon().to_f64())?;
    // The clipping works on the same box-frame vertices, rounded to `T`.
    let v = v64.map(|p| p.map(T::lit));
    let (sep, n) = (T::lit(sep), n.map(T::lit));
    if sep > prediction {
        return Some(sep);
    }
    out.normal = bx.axes() * n;
    let mut local = Candidates::<T, 12>::new();
    match axis {
        Axis::BoxFace(k) => {
            // Reference: the box face along n; clip the triangle to the face's extent.
            let mut poly = Polygon::from_points(v, 0);
            for (plane, m) in [(k + 1) % 3, (k + 2) % 3].into_iter().enumerate() {
                for (s, sign) in [T::one(), -T::one()].into_iter().enumerate() {
                    let side = Vector::ith(m, sign);
                    poly.clip(&side, h[m], (plane * 2 + s) as u32);
                }
            }
            // The box face along n is the plane n·x = h_k.
            for &(p, id) in poly.as_slice() {
                let z = n.dot(&p.coords) - h[k];
                if z <= prediction {
                    local.push(ManifoldPoint { point_a: p - n * z, point_b: p, distance: z, id });
                }
            }
        }
        Axis::TriangleFace => {
            // Reference: the triangle; incident: the box face most opposed to the normal from
            // the triangle towards the box (−n), i.e. the box face along n.
            let k = n.iamax();
            let s = if n[k] >= T::zero() { T::one() } else { -T::one() };
            let (m1, m2) = ((k + 1) % 3, (k + 2) % 3);
            let c = Vector::ith(k, s * h[k]);
            let (e1, e2) = (Vector::ith(m1, h[m1]), Vector::ith(m2, h[m2]));
            let corners = [c + e1 + e2, c - e1 + e2, c - e1 - e2, c + e1 - e2];
            let mut poly = Polygon::from_points(corners.map(Point::from), 8);
            let centre = (v[0].coords + v[1].coords + v[2].coords) / T::lit(3.0);
            for j in 0..3 {
                let (p, q) = (v[j], v[(j + 1) % 3]);
                let mut side = (q - p).cross(&n);
                if side.dot(&(p.coords - centre)) < T::zero() {
                    side = -side;
                }
                poly.clip(&side, side.dot(&p.coords), j as u32);
            }
            let plane = n.dot(&v[0].coords);
            for &(p, id) in poly.as_slice() {
                // Depth of the box point below the triangle's plane, along n (box → triangle).
                let z = plane - n.dot(&p.coords);
                if z <= prediction {
                    local.push(ManifoldPoint { point_a: p, point_b: p + n * z, distance: z, id: id | 32 });
                }
            }
        }
        Axis::Edges(k, j) => {
            // The box edge along axis k farthest along n, and triangle edge j.
            let mut c = Vector::zeros();
            for m in 0..3 {
                if m != k {
                    c[m] = if n[m] >= T::zero() { h[m] } else { -h[m] };
                }
            }
            let e = Vector::ith(k, h[k]);
            let (p0, p1) = (Point::from(c - e), Point::from(c + e));
            // The triangle's feature deepest towards the box along −n: edge j (both ends
            // project alike on the axis) or, when the opposite vertex is lower, that vertex.
            let (q0, q1, opposite) = (v[j], v[(j + 1) % 3], v[(j + 2) % 3]);
            let id = 64 + (k * 3 + j) as u32;
            // The pair along the axis, as far apart as SAT's separation. Overlapping, that is
            // the minimum translation's pair. Apart, the separation only bounds the gap from
            // below, and the pair is kept only when it is a true one (its made-up end on the
            // shape to rounding): otherwise the closest features are others, and the
            // dispatcher's exact contact is the answer.
            let slack = T::epsilon().sqrt()
                * (T::one() + h.amax() + v.iter().fold(T::zero(), |m, p| m.max(p.coords.amax())));
            let apart = sep > T::zero();
            let pair = if n.dot(&opposite.coords) < n.dot(&q0.coords) {
                let on_box = opposite - n * sep;
                let inside = (0..3).all(|m| on_box[m].abs() <= h[m] + slack);
                (!apart || inside).then_some((on_box, opposite))
            } else {
                let (cp, _, _) = closest_points_between_segments(&p0, &p1, &q0, &q1);
                let on_triangle = cp.a + n * sep;
                (!apart || (cp.b - on_triangle).norm() <= slack).then_some((cp.a, on_triangle))
            };
            if let Some((point_a, point_b)) = pair {
                local.push(ManifoldPoint { point_a, point_b, distance: sep, id });
            }
        }
    }
    // Back to world space in place (no second buffer).
    for p in local.as_mut_slice() {
        p.point_a = bx.to_world(&p.point_a);
        p.point_b = bx.to_world(&p.point_b);
    }
    out.reduce(local.as_slice());
    Some(sep)
}

/// The box/triangle contact (deepest manifold point, SAT's exact depth; GJK and EPA's when
/// clipping degenerate features keeps no point, or points that do not touch), or `None` when
/// farther apart than `prediction` (a non-positive prediction: separated pairs are for GJK) or
/// for a degenerate triangle.
pub fn box_triangle_contact<T: Real>(
    bx: &Obb<T, 3>,
    tri: &Triangle<T, 3>,
    prediction: T,
) -> Option<Contact<T, 3>> {
    let mut m = Manifold::default();
    let sep = box_triangle_manifold(bx, tri, prediction, &mut m)?;
    if sep > prediction {
        return None;
    }
    Some(clipped_or_gjk_epa(m.deepest_contact(ContactStatus::Converged), sep, bx, tri))
}
