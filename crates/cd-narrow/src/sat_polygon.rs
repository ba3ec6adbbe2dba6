//! SAT with a minimum translation vector for two convex polygons in 2D (the seed's notes):
//! project both polygons on every edge normal of both, keep the axis of smallest overlap, and
//! orient it from A to B. Any axis with no overlap separates them.
//!
//! Two speed-ups from the seed and from temporal coherence:
//! * **inner-circle culling**: along any axis `n` the overlap is at least
//!   `r_A + r_B − |(c_B − c_A)·n|`, with `r` the radius of a circle inside each polygon around
//!   its vertex mean. When that lower bound already exceeds the best overlap found, the axis
//!   cannot be the minimum and its two projections are skipped;
//! * **cached axis**: the axis that decided the previous query is tried first, so a pair that
//!   stays separated costs one axis.
//!
//! Cost: O((n + m)²) projections in the worst case, far fewer with culling and the cache.

use cd_geom::{Contact, ContactStatus, Obb, Point, Real, SupportMap, Vector};

use crate::convex::convex_contact_up_to;
use crate::gjk::GjkCache;

/// The result of [`polygon_polygon_sat`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PolygonSat<T: Real> {
    /// Largest separation over the edge normals: positive when disjoint (a lower bound on the
    /// distance), minus the penetration depth when overlapping.
    pub separation: T,
    /// Unit axis of that separation, from A towards B.
    pub normal: Vector<T, 2>,
    /// Which edge normal: `(false, i)` for A's edge `i`, `(true, j)` for B's edge `j`.
    pub edge: (bool, usize),
}

/// The axis that decided the previous query on the same pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PolygonSatCache {
    edge: Option<(bool, usize)>,
}

/// Precomputed per polygon: the vertex mean and the radius of a circle around it that lies
/// inside the polygon.
struct Inner<T: Real> {
    centre: Vector<T, 2>,
    radius: T,
}

fn inner<T: Real>(p: &[Point<T, 2>]) -> Inner<T> {
    let centre = p.iter().fold(Vector::zeros(), |s, v| s + v.coords) / T::lit(p.len().max(1) as f64);
    let radius = (0..p.len())
        .filter_map(|i| {
            let n = edge_normal(p, i)?;
            Some(n.dot(&(p[i].coords - centre)))
        })
        .fold(T::infinity(), |m, d| m.min(d))
        .max(T::zero());
    Inner { centre, radius: if radius.is_finite() { radius } else { T::zero() } }
}

/// Outward unit normal of edge `i` (from vertex `i` to `i + 1`) of a counter-clockwise
/// polygon, or `None` for a zero-length edge.
fn edge_normal<T: Real>(p: &[Point<T, 2>], i: usize) -> Option<Vector<T, 2>> {
    let e = p[(i + 1) % p.len()] - p[i];
    Vector::<T, 2>::new(e.y, -e.x).try_normalize(T::zero())
}

fn project<T: Real>(p: &[Point<T, 2>], n: &Vector<T, 2>) -> (T, T) {
    p.iter().fold((T::infinity(), -T::infinity()), |(lo, hi), v| {
        let s = n.dot(&v.coords);
        (lo.min(s), hi.max(s))
    })
}

/// Separation along unit axis `n` (max of the two gaps; negative = overlap) and the axis
/// oriented from A to B.
fn separation<T: Real>(a: &[Point<T, 2>], b: &[Point<T, 2>], n: &Vector<T, 2>) -> (T, Vector<T, 2>) {
    let (amin, amax) = project(a, n);
    let (bmin, bmax) = project(b, n);
    // B beyond A along n, or B before A (then the axis from A to B is −n).
    let forward = bmin - amax;
    let backward = amin - bmax;
    if forward >= backward {
        (forward, *n)
    } else {
        (backward, -n)
    }
}

/// A convex polygon (vertices in order) seen through its support map: the vertex farthest
/// along a direction.
pub(crate) struct PolygonSupport<'a, T: Real>(pub(crate) &'a [Point<T, 2>]);

impl<T: Real> SupportMap<T, 2> for PolygonSupport<'_, T> {
    fn support(&self, d: &Vector<T, 2>) -> Point<T, 2> {
        let p = self.0;
        *p.iter().fold(&p[0], |best, q| if d.dot(&q.coords) > d.dot(&best.coords) { q } else { best })
    }

    fn interior_point(&self) -> Point<T, 2> {
        let p = self.0;
        Point::from(p.iter().fold(Vector::zeros(), |s, q| s + q.coords) / T::lit(p.len() as f64))
    }
}

/// Whether an outline is too thin for SAT over its edge normals: fewer than three vertices,
/// or twice its area below √ε times its bounding box's squared diagonal. A flat outline (a
/// segment, a box of zero height) has no edge across its ends, so SAT over its edge normals
/// alone misses the axis along it and calls two collinear segments a unit apart touching; a
/// nearly flat one has those normals within rounding of each other.
pub(crate) fn too_thin<T: Real>(p: &[Point<T, 2>]) -> bool {
    if p.len() < 3 {
        return true;
    }
    let (lo, hi) =
        p.iter().fold((p[0].coords, p[0].coords), |(lo, hi), q| (lo.inf(&q.coords), hi.sup(&q.coords)));
    let twice_area = (1..p.len() - 1).fold(T::zero(), |s, i| s + (p[i] - p[0]).perp(&(p[i + 1] - p[0])));
    // NaN (never here: the dispatcher checks the coordinates) counts as thin.
    let solid = twice_area.abs() > T::epsilon().sqrt() * (hi - lo).norm_squared();
    !solid
}

/// SAT over the edge normals of two convex counter-clockwise polygons (at least three
/// vertices each; clockwise input is accepted too, with the same result). Stops at the first
/// axis that separates them by more than `prediction`. The edge normals are all the axes SAT
/// needs only for outlines with an area: for a flat one (a segment, a box of zero height) the
/// axis along it is missing, and [`polygon_polygon_contact`] (and the 2D dispatcher) use GJK
/// there instead.
pub fn polygon_polygon_sat<T: Real>(
    a: &[Point<T, 2>],
    b: &[Point<T, 2>],
    prediction: T,
    cache: &mut PolygonSatCache,
) -> PolygonSat<T> {
    let pick = |(on_b, i): (bool, usize)| if on_b { edge_normal(b, i) } else { edge_normal(a, i) };
    if let Some(edge) = cache.edge {
        if edge.1 < if edge.0 { b.len() } else { a.len() } {
            if let Some(n) = pick(edge) {
                let (sep, normal) = separation(a, b, &n);
                if sep > prediction {
                    return PolygonSat { separation: sep, normal, edge };
                }
            }
        }
    }
    let (ia, ib) = (inner(a), inner(b));
    let d = ib.centre - ia.centre;
    let mut best: Option<PolygonSat<T>> = None;
    let edges = (0..a.len()).map(|i| (false, i)).chain((0..b.len()).map(|j| (true, j)));
    for edge in edges {
        let Some(n) = pick(edge) else { continue };
        if let Some(bst) = &best {
            // Inner-circle bound: the overlap along n is at least r_A + r_B − |d·n|.
            if ia.radius + ib.radius - d.dot(&n).abs() >= -bst.separation {
                continue;
            }
        }
        let (sep, normal) = separation(a, b, &n);
        if sep > prediction {
            cache.edge = Some(edge);
            return PolygonSat { separation: sep, normal, edge };
        }
        if best.as_ref().is_none_or(|bst| sep > bst.separation) {
            best = Some(PolygonSat { separation: sep, normal, edge });
        }
    }
    let out = best.unwrap_or(PolygonSat { separation: T::zero(), normal: Vector::x(), edge: (false, 0) });
    cache.edge = Some(out.edge);
    out
}

/// Contact of two convex polygons from SAT: `None` when farther apart than `prediction`
/// (separated pairs within the prediction get SAT's separation, a lower bound on their
/// distance: use GJK when the exact gap matters). The witness on B is its deepest vertex
/// along the normal, the one on A is that point moved back by the depth. An outline too thin
/// for SAT (fewer than three vertices, or an area below √ε of its size squared: a segment, a
/// box of zero height) is answered by GJK and EPA on the two outlines instead.
pub fn polygon_polygon_contact<T: Real>(
    a: &[Point<T, 2>],
    b: &[Point<T, 2>],
    prediction: T,
    cache: &mut PolygonSatCache,
) -> Option<Contact<T, 2>> {
    if a.is_empty() || b.is_empty() {
        return None;
    }
    if too_thin(a) || too_thin(b) {
        let (a, b) = (PolygonSupport(a), PolygonSupport(b));
        return convex_contact_up_to(&a, T::zero(), &b, T::zero(), prediction, &mut GjkCache::default());
    }
    sat_contact(a, b, prediction, cache)
}

/// [`polygon_polygon_contact`] by SAT alone, for outlines that are not [`too_thin`] (the 2D
/// dispatcher routes those to GJK itself, with the pair's cache).
pub(crate) fn sat_contact<T: Real>(
    a: &[Point<T, 2>],
    b: &[Point<T, 2>],
    prediction: T,
    cache: &mut PolygonSatCache,
) -> Option<Contact<T, 2>> {
    let sat = polygon_polygon_sat(a, b, prediction, cache);
    if sat.separation > prediction {
        return None;
    }
    let n = sat.normal;
    let point_b = *b.iter().min_by(|p, q| {
        n.dot(&p.coords).partial_cmp(&n.dot(&q.coords)).unwrap_or(core::cmp::Ordering::Equal)
    })?;
    Some(Contact {
        point_a: point_b - n * sat.separation,
        point_b,
        normal: n,
        distance: sat.separation,
        status: ContactStatus::Converged,
    })
}

/// The four corners of a 2D box, counter-clockwise.
pub fn obb_corners_2d<T: Real>(b: &Obb<T, 2>) -> [Point<T, 2>; 4] {
    let h = b.half_extents();
    let (u, v) = (b.axis(0) * h[0], b.axis(1) * h[1]);
    let c = b.center();
    let corners = [c - u - v, c + u - v, c + u + v, c - u + v];
    // The axes may be left-handed (a reflection): keep the counter-clockwise order.
    if (corners[1] - corners[0]).perp(&(corners[2] - corners[0])) < T::zero() {
        [corners[0], corners[3], corners[2], corners[1]]
    } else {
        corners
    }
}

/// Contact of two 2D boxes by polygon SAT on their corners.
pub fn obb_obb_contact_2d<T: Real>(
    a: &Obb<T, 2>,
    b: &Obb<T, 2>,
    prediction: T,
    cache: &mut PolygonSatCache,
) -> Option<Contact<T, 2>> {
    polygon_polygon_contact(&obb_corners_2d(a), &obb_corners_2d(b), prediction, cache)
}
