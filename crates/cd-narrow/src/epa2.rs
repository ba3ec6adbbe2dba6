//! EPA in 2D: a convex polygon of support points, counter-clockwise, expanded at its edge
//! closest to the origin (the seed's 2D EPA, made robust).
//!
//! Edge normals come from the edge direction and the polygon's orientation, never from the
//! origin, so an edge through the origin (touching contact) still has its outward normal and
//! distance 0. A support point equal to an edge end, or no farther than the edge, ends the
//! expansion: duplicate points cannot loop.

use cd_geom::{ContactStatus, Real, SupportMap, Vector};

use crate::epa::{
    axis, distinct_vertices, scaled_tolerance, start_support, support_along, touching, EpaConfig, Penetration,
};
use crate::scratch::{with_scratch, Scratch};
use crate::simplex::{Simplex, SimplexVertex};

/// The outward unit normal of the counter-clockwise edge `p → q` (right-hand perpendicular),
/// or `None` for a zero-length edge.
fn edge_normal<T: Real, const D: usize>(p: &Vector<T, D>, q: &Vector<T, D>) -> Option<Vector<T, D>> {
    let e = q - p;
    let mut n: Vector<T, D> = Vector::zeros();
    n[0] = e[1];
    n[1] = -e[0];
    n.try_normalize(T::zero())
}

/// z-component of `(q - p) × (r - p)`.
fn orient<T: Real, const D: usize>(p: &Vector<T, D>, q: &Vector<T, D>, r: &Vector<T, D>) -> T {
    (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
}

/// EPA in 2D (D must be 2). See [`crate::epa()`].
pub(crate) fn epa2<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    simplex: &Simplex<T, D>,
    config: &EpaConfig<T>,
) -> Penetration<T, D>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    with_scratch(|scratch: &mut PolygonScratch<T, D>| expand_to_depth(a, b, simplex, config, &mut scratch.0))
}

/// The polygon of one 2D EPA run, kept per thread from run to run ([`with_scratch`]).
struct PolygonScratch<T: Real, const D: usize>(Vec<SimplexVertex<T, D>>);

impl<T: Real, const D: usize> Scratch for PolygonScratch<T, D> {
    fn new() -> Self {
        PolygonScratch(Vec::with_capacity(32))
    }

    fn reset(&mut self) -> bool {
        self.0.clear();
        self.0.capacity() <= 4096 // dropped after a pathological run rather than kept
    }
}

/// [`epa2`] on the polygon `poly` (empty on entry).
fn expand_to_depth<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    simplex: &Simplex<T, D>,
    config: &EpaConfig<T>,
    poly: &mut Vec<SimplexVertex<T, D>>,
) -> Penetration<T, D>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    // Grown by the start's support points ([`start_support`]).
    let mut tol = scaled_tolerance(config.tolerance, simplex.max_norm_squared());
    if let Err(answer) = start_polygon(a, b, simplex, config.tolerance, &mut tol, poly) {
        return answer;
    }
    let mut last = (0, Vector::zeros(), T::zero());
    for iteration in 0..config.max_iterations {
        let (i, n, dist) = closest_edge(poly);
        last = (i, n, dist);
        let w = support_along(a, b, &n);
        let j = (i + 1) % poly.len();
        let duplicate = (w.w - poly[i].w).norm() <= tol || (w.w - poly[j].w).norm() <= tol;
        if n.dot(&w.w) - dist <= tol || duplicate {
            return answer(poly, i, n, dist, tol, ContactStatus::Converged, iteration);
        }
        poly.insert(j, w);
    }
    let (i, n, dist) = last;
    answer(poly, i, n, dist, tol, ContactStatus::IterationCap, config.max_iterations)
}

/// The edge closest to the origin: index of its first vertex, outward normal, distance.
fn closest_edge<T: Real, const D: usize>(poly: &[SimplexVertex<T, D>]) -> (usize, Vector<T, D>, T) {
    let mut best = (0, Vector::zeros(), T::infinity());
    for i in 0..poly.len() {
        let p = &poly[i].w;
        let q = &poly[(i + 1) % poly.len()].w;
        if let Some(n) = edge_normal(p, q) {
            let d = n.dot(p);
            if d < best.2 {
                best = (i, n, d);
            }
        }
    }
    best
}

/// The penetration read off edge `i`: the origin's projection on it gives the witnesses.
///
/// Several edges of the polygon can lie on the closest edge's line (support points repeated
/// or tied along a flat side), and the projection then falls on one of them, not necessarily
/// on edge `i`: clamped to edge `i`'s end, the witnesses came from a corner of the side, 4.8
/// apart across the normal (fuzz finding 59). So the walk moves on to the neighbouring edge
/// while the projection lies beyond the current one's end and the neighbour continues the
/// line (its far vertex within `tol` of it).
fn answer<T: Real, const D: usize>(
    poly: &[SimplexVertex<T, D>],
    i: usize,
    n: Vector<T, D>,
    dist: T,
    tol: T,
    status: ContactStatus,
    iterations: u32,
) -> Penetration<T, D> {
    let len = poly.len();
    let on_line = |v: &SimplexVertex<T, D>| (n.dot(&v.w) - dist).abs() <= tol;
    let parameter = |k: usize| {
        let (p, q) = (&poly[k].w, &poly[(k + 1) % len].w);
        let e = q - p;
        let ee = e.norm_squared();
        if ee > T::zero() {
            -p.dot(&e) / ee
        } else {
            T::zero()
        }
    };
    let mut k = i;
    for _ in 0..len {
        let t = parameter(k);
        if t > T::one() && on_line(&poly[(k + 2) % len]) {
            k = (k + 1) % len;
        } else if t < T::zero() && on_line(&poly[(k + len - 1) % len]) {
            k = (k + len - 1) % len;
        } else {
            break;
        }
    }
    let p = &poly[k];
    let q = &poly[(k + 1) % len];
    let t = parameter(k).max(T::zero()).min(T::one());
    Penetration {
        depth: dist.max(T::zero()),
        normal: n,
        point_a: p.a + (q.a - p.a) * t,
        point_b: p.b + (q.b - p.b) * t,
        status,
        iterations,
    }
}

/// Grows GJK's simplex into a counter-clockwise polygon around the origin in `pts` (empty on
/// entry), or returns the touching answer when A − B is a point or a segment. `tol`
/// (`tolerance` times the size of A − B) grows with every support point found here before it
/// is compared with anything.
fn start_polygon<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    simplex: &Simplex<T, D>,
    tolerance: T,
    tol: &mut T,
    pts: &mut Vec<SimplexVertex<T, D>>,
) -> Result<(), Penetration<T, D>>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    let support = |d: &Vector<T, D>, tol: &mut T| start_support(a, b, d, tolerance, tol);
    distinct_vertices(simplex, *tol * *tol, pts);
    if pts.len() == 3 && orient(&pts[0].w, &pts[1].w, &pts[2].w).abs() <= *tol * (pts[1].w - pts[0].w).norm()
    {
        pts.truncate(2);
    }
    if pts.len() == 1 {
        let p0 = pts[0].w;
        let found = (0..4).find_map(|k| {
            let s = if k % 2 == 0 { T::one() } else { -T::one() };
            let w = support(&axis(k / 2, s), tol);
            ((w.w - p0).norm() > *tol).then_some(w)
        });
        match found {
            Some(w) => pts.push(w),
            None => return Err(touching(pts[0], axis(0, T::one()), ContactStatus::Degenerate, 0)),
        }
    }
    if pts.len() == 2 {
        // Both sides of the segment: a quadrilateral (or triangle) around it.
        let (p, q) = (pts[0], pts[1]);
        let n = edge_normal(&p.w, &q.w).unwrap_or_else(|| axis(1, T::one()));
        let right = support(&n, tol);
        let left = support(&-n, tol);
        let hr = n.dot(&(right.w - p.w));
        let hl = n.dot(&(p.w - left.w));
        let tol = *tol;
        if hr <= tol && hl <= tol {
            let (pa, pb) = simplex.witnesses();
            return Err(Penetration {
                depth: T::zero(),
                normal: n,
                point_a: pa,
                point_b: pb,
                status: ContactStatus::Degenerate,
                iterations: 0,
            });
        }
        // Counter-clockwise: p, (right of p → q), q, (left).
        pts.clear();
        pts.push(p);
        if hr > tol {
            pts.push(right);
        }
        pts.push(q);
        if hl > tol {
            pts.push(left);
        }
        return Ok(());
    }
    if orient(&pts[0].w, &pts[1].w, &pts[2].w) < T::zero() {
        pts.swap(1, 2);
    }
    Ok(())
}
