//! EPA in 3D: a triangulated convex polytope expanded by horizon computation.
//!
//! Faces keep their three neighbours, so the faces seen from a new support point are found by a
//! flood fill from the closest face (they form one connected cap), and the hole is closed by
//! one new face per horizon edge, linked to its neighbours by matching shared vertices. Faces
//! with zero area never become the closest one; a horizon that is not a simple loop (possible
//! only through rounding) stops the expansion with the best answer so far, flagged
//! [`ContactStatus::Degenerate`], instead of corrupting the polytope.

use cd_geom::{ContactStatus, Real, SupportMap, Vector};

use crate::epa::{
    axis, distinct_vertices, scaled_tolerance, start_support, touching, EpaConfig, Penetration,
};
use crate::gjk::cso_support;
use crate::scratch::{with_scratch, Scratch};
use crate::simplex::{shortest_edges, Simplex, SimplexVertex};

/// `a × b` for D = 3 (generic code: the caller guarantees the dimension).
#[inline]
fn cross<T: Real, const D: usize>(a: &Vector<T, D>, b: &Vector<T, D>) -> Vector<T, D> {
    Vector::from_fn(|i, _| {
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        a[j] * b[k] - a[k] * b[j]
    })
}

/// A neighbour across an edge: the face index and the edge index inside it.
#[derive(Clone, Copy, Debug)]
struct Link {
    face: u32,
    edge: u8,
}

/// A triangle of the polytope, counter-clockwise seen from outside.
#[derive(Clone, Copy, Debug)]
struct Face<T: Real, const D: usize> {
    /// Vertex indices; edge `i` runs from `v[i]` to `v[(i + 1) % 3]`.
    v: [u32; 3],
    adj: [Link; 3],
    /// Outward unit normal (zero for a face of zero area).
    normal: Vector<T, D>,
    /// Signed distance of the face's plane from the origin (infinite for a face of zero area).
    dist: T,
    alive: bool,
}

struct Polytope<T: Real, const D: usize> {
    verts: Vec<SimplexVertex<T, D>>,
    faces: Vec<Face<T, D>>,
    /// Per face, the distance of its plane while it is open (alive, with a finite distance), +∞
    /// once removed or degenerate: the closest face is the first at this list's minimum.
    open: Vec<T>,
    /// Per vertex, the last new face of an expansion that starts at it (an index below that
    /// expansion's first new face is a stale entry of an earlier one): each new face finds its
    /// neighbour by one lookup instead of a search of all the new faces.
    starts: Vec<u32>,
}

/// The lists one EPA run fills: GJK's distinct vertices, the polytope, the horizon and the
/// flood fill's stack. Kept per thread from run to run ([`with_scratch`]): allocated afresh,
/// they were eight allocations and frees per penetrating contact, about 1,200 instructions of
/// a hull8 contact's 29,000.
struct EpaScratch<T: Real, const D: usize> {
    start: Vec<SimplexVertex<T, D>>,
    poly: Polytope<T, D>,
    horizon: Vec<Link>,
    stack: Vec<u32>,
    /// Per polytope vertex, the support search hints ([`cso_support`]) that found it.
    hints: Vec<[u32; 2]>,
}

/// A scratch whose polytope grew past this many faces (a pathological run) is dropped after
/// its run rather than kept for the thread's lifetime.
const KEEP_FACES: usize = 4096;

impl<T: Real, const D: usize> Scratch for EpaScratch<T, D> {
    fn new() -> Self {
        EpaScratch {
            start: Vec::with_capacity(D + 2),
            poly: Polytope {
                verts: Vec::with_capacity(64),
                faces: Vec::with_capacity(128),
                open: Vec::with_capacity(128),
                starts: Vec::with_capacity(64),
            },
            horizon: Vec::with_capacity(32),
            stack: Vec::with_capacity(32),
            hints: Vec::with_capacity(64),
        }
    }

    fn reset(&mut self) -> bool {
        let EpaScratch { start, poly, horizon, stack, hints } = self;
        hints.clear();
        start.clear();
        poly.verts.clear();
        poly.faces.clear();
        poly.open.clear();
        poly.starts.clear();
        horizon.clear();
        stack.clear();
        poly.faces.capacity() <= KEEP_FACES
    }
}

const NO_LINK: Link = Link { face: u32::MAX, edge: 0 };

impl<T: Real, const D: usize> Polytope<T, D> {
    fn add_face(&mut self, v: [u32; 3]) -> u32 {
        let face = Self::face(&self.verts, v);
        self.open.push(face.dist);
        self.faces.push(face);
        (self.faces.len() - 1) as u32
    }

    /// The face through vertices `v`, unlinked: its outward unit normal from the two shortest
    /// edges, and its plane's distance (zero normal and infinite distance for a face of zero
    /// area, which is then never open).
    #[inline(always)]
    fn face(verts: &[SimplexVertex<T, D>], v: [u32; 3]) -> Face<T, D> {
        let w = |i: usize| verts[v[i] as usize].w;
        let (e1, e2) = shortest_edges(&w(0), &w(1), &w(2));
        let n = cross(&e1, &e2);
        let len = n.norm();
        let (normal, dist) = if len > T::zero() && len.is_finite() {
            let normal = n / len;
            (normal, normal.dot(&w(0)))
        } else {
            (Vector::zeros(), T::infinity())
        };
        // A finite normal over a huge edge can still give an infinite or NaN distance: not
        // open either.
        let dist = if dist.is_finite() { dist } else { T::infinity() };
        Face { v, adj: [NO_LINK; 3], normal, dist, alive: true }
    }

    /// Removes face `f` from the polytope (it stays in the list, dead).
    #[inline]
    fn kill(&mut self, f: usize) {
        self.faces[f].alive = false;
        self.open[f] = T::infinity();
    }

    /// Links every edge of the faces `from..` to its twin among the same faces (the start
    /// polytope: a handful of faces, a quadratic search is fine).
    fn link_all(&mut self) {
        let n = self.faces.len();
        for f in 0..n {
            for i in 0..3 {
                let (a, b) = (self.faces[f].v[i], self.faces[f].v[(i + 1) % 3]);
                'search: for g in 0..n {
                    for j in 0..3 {
                        if self.faces[g].v[j] == b && self.faces[g].v[(j + 1) % 3] == a {
                            self.faces[f].adj[i] = Link { face: g as u32, edge: j as u8 };
                            break 'search;
                        }
                    }
                }
            }
        }
    }

    /// The open face closest to the origin (the first of equals), `None` when no face is open.
    ///
    /// Two scans of the distances rather than a heap: the minimum over four lanes (packed
    /// minima), then the first face at it four at a time (a packed comparison). A binary heap
    /// with lazy deletion did fewer comparisons, but its sifts branched on the data: a third
    /// of a hull32 contact's mispredicted branches, against one per scan here.
    fn closest_face(&self) -> Option<usize> {
        let open = &self.open;
        let groups = open.chunks_exact(4);
        let rest = groups.remainder();
        let mut lanes = [T::infinity(); 4];
        for g in groups.clone() {
            for l in 0..4 {
                lanes[l] = if g[l] < lanes[l] { g[l] } else { lanes[l] };
            }
        }
        let low = |x: T, y: T| if x < y { x } else { y };
        let min = rest.iter().fold(low(low(lanes[0], lanes[1]), low(lanes[2], lanes[3])), |m, &d| low(d, m));
        if min == T::infinity() {
            return None;
        }
        // No distance is below `min` and none is NaN, so "not above it" is "equal to it".
        for (k, g) in groups.enumerate() {
            let above = T::gt_mask4([g[0], g[1], g[2], g[3]], [min; 4]);
            if above != 0b1111 {
                return Some(4 * k + (!above).trailing_zeros() as usize);
            }
        }
        rest.iter().position(|&d| d <= min).map(|i| open.len() - rest.len() + i)
    }

    /// Replaces the faces seen from vertex `wi` (starting with `start`) by a fan through it.
    /// Returns false when the hole's rim is not a simple loop.
    fn expand(
        &mut self,
        start: usize,
        wi: u32,
        eps: T,
        horizon: &mut Vec<Link>,
        stack: &mut Vec<u32>,
    ) -> bool {
        let w = self.verts[wi as usize].w;
        horizon.clear();
        stack.clear();
        self.kill(start);
        stack.push(start as u32);
        while let Some(f) = stack.pop() {
            for i in 0..3 {
                let l = self.faces[f as usize].adj[i];
                let g = &self.faces[l.face as usize];
                if !g.alive {
                    continue;
                }
                if g.normal.dot(&w) - g.dist > eps {
                    self.kill(l.face as usize);
                    stack.push(l.face);
                } else {
                    horizon.push(l);
                }
            }
        }
        let first_new = self.faces.len();
        // The fan's faces, each linked across its rim edge to the horizon face (only the
        // horizon face's vertices read, not the whole face copied); their open distances in
        // one `extend`; then the horizon faces linked back to them.
        let Polytope { verts, faces, open, .. } = self;
        let rim = |l: &Link, faces: &[Face<T, D>]| {
            let v = faces[l.face as usize].v;
            let e = l.edge as usize;
            (v[e], v[if e == 2 { 0 } else { e + 1 }])
        };
        faces.reserve(horizon.len());
        for l in horizon.iter() {
            let (a, b) = rim(l, faces);
            let mut face = Self::face(verts, [b, a, wi]);
            face.adj[0] = *l;
            faces.push(face);
        }
        open.extend(faces[first_new..].iter().map(|f| f.dist));
        for (k, l) in horizon.iter().enumerate() {
            faces[l.face as usize].adj[l.edge as usize] = Link { face: (first_new + k) as u32, edge: 0 };
        }
        // New face (b, a, w): its edge 1 (a → w) meets the new face whose edge 2 is (w → a),
        // the one whose first vertex is a. Each rim vertex must start exactly one new face,
        // and each new face's edge 2 must be met once. (A search of all the new faces for each
        // one was 15 % of a hull32 contact's mispredicted branches.)
        self.starts.resize(self.verts.len(), u32::MAX);
        let fresh = |m: u32| m != u32::MAX && m as usize >= first_new;
        for k in first_new..self.faces.len() {
            let start = &mut self.starts[self.faces[k].v[0] as usize];
            if fresh(*start) {
                return false;
            }
            *start = k as u32;
        }
        for k in first_new..self.faces.len() {
            let m = self.starts[self.faces[k].v[1] as usize];
            if !fresh(m) || self.faces[m as usize].adj[2].face != NO_LINK.face {
                return false;
            }
            self.faces[k].adj[1] = Link { face: m, edge: 2 };
            self.faces[m as usize].adj[2] = Link { face: k as u32, edge: 1 };
        }
        true
    }

    /// Barycentric weights of the point `p` of face `f`'s plane (negative outside the face).
    fn barycentric(&self, f: usize, p: &Vector<T, D>) -> [T; 3] {
        let face = &self.faces[f];
        let w = |i: usize| self.verts[face.v[i] as usize].w;
        let n = face.normal;
        let area = |x: &Vector<T, D>, y: &Vector<T, D>| n.dot(&cross(&(x - p), &(y - p)));
        let l = [area(&w(1), &w(2)), area(&w(2), &w(0)), area(&w(0), &w(1))];
        let sum = l[0] + l[1] + l[2];
        if sum > T::zero() {
            [l[0] / sum, l[1] / sum, l[2] / sum]
        } else {
            [T::one(), T::zero(), T::zero()]
        }
    }

    /// The penetration read off face `f`: the origin's projection `p` on it, expressed in the
    /// face's vertices, gives the witness points.
    ///
    /// On a convex polytope `p` lies inside `f`. Near a curved surface EPA's polytope has many
    /// almost coplanar faces and is convex only to the visibility threshold, so `p` can fall in
    /// a neighbouring face instead: then the face that contains `p` (to rounding) and whose
    /// plane passes closest to it is used, so the witnesses still satisfy
    /// `point_a − point_b ≈ depth · normal`.
    fn answer(&self, f: usize, status: ContactStatus, iterations: u32) -> Penetration<T, D> {
        let n = self.faces[f].normal;
        let dist = self.faces[f].dist;
        let p = n * dist;
        let min_weight = |l: &[T; 3]| l[0].min(l[1]).min(l[2]);
        let inside = -T::epsilon() * T::lit(1e3);
        let mut best = (f, self.barycentric(f, &p), T::zero());
        if min_weight(&best.1) < inside {
            for (g, face) in self.faces.iter().enumerate() {
                if !face.alive || !face.dist.is_finite() {
                    continue;
                }
                let l = self.barycentric(g, &p);
                let off = (face.normal.dot(&p) - face.dist).abs();
                let better = if min_weight(&l) >= inside {
                    min_weight(&best.1) < inside || off < best.2
                } else {
                    min_weight(&best.1) < inside && min_weight(&l) > min_weight(&best.1)
                };
                if better {
                    best = (g, l, off);
                }
            }
        }
        let (g, mut l, _) = best;
        // Clamp rounding-size negatives so the witnesses stay on the shapes.
        l.iter_mut().for_each(|x| *x = x.max(T::zero()));
        let sum = l[0] + l[1] + l[2];
        l.iter_mut().for_each(|x| *x /= sum);
        // Both witnesses in one pass (through a function pointer per shape, each call was an
        // indirect branch, mispredicted as the two alternated).
        let (mut point_a, mut point_b) = (Vector::zeros(), Vector::zeros());
        for (i, &weight) in l.iter().enumerate() {
            let v = &self.verts[self.faces[g].v[i] as usize];
            point_a += v.a.coords * weight;
            point_b += v.b.coords * weight;
        }
        // When no face holds the projection (clamped weights), the two points need not be
        // apart along the normal by the depth: a segment lying on a cone's surface, touching it
        // along its whole length, got points 4.7 apart sideways at depth 10⁻¹¹ (FUZZING.md,
        // finding 64). B's point is then taken along the normal from A's, which keeps the
        // contact's invariant; A's point is on A, and at the depth found, B's surface is there.
        let depth = dist.max(T::zero());
        let off = (point_b - point_a + n * depth).norm();
        if off > T::epsilon().sqrt() * (T::one() + point_a.amax().max(point_b.amax())) {
            point_b = point_a - n * depth;
        }
        Penetration { depth, normal: n, point_a: point_a.into(), point_b: point_b.into(), status, iterations }
    }
}

/// A vector orthogonal to `d` (not normalized; zero only for `d = 0`).
fn orthogonal<T: Real, const D: usize>(d: &Vector<T, D>) -> Vector<T, D> {
    let k = d.iamin();
    cross(d, &axis(k, T::one()))
}

/// EPA in 3D (D must be 3). See [`crate::epa()`].
pub(crate) fn epa3<T, const D: usize, A, B>(
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
    with_scratch(|scratch: &mut EpaScratch<T, D>| expand_to_depth(a, b, simplex, config, scratch))
}

/// [`epa3`] on the lists of `scratch` (empty on entry).
fn expand_to_depth<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    simplex: &Simplex<T, D>,
    config: &EpaConfig<T>,
    scratch: &mut EpaScratch<T, D>,
) -> Penetration<T, D>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    // Grown by the start's support points ([`start_support`]).
    let mut tol = scaled_tolerance(config.tolerance, simplex.max_norm_squared());
    let EpaScratch { start, poly, horizon, stack, hints } = scratch;
    if let Err(answer) = start_polytope(a, b, simplex, config.tolerance, &mut tol, start, poly) {
        return answer;
    }
    // The start's vertices came without hints: their searches begin at vertex 0.
    hints.resize(poly.verts.len(), [0; 2]);
    // Visibility threshold: far below the convergence tolerance, so the closest face is
    // always visible from a point that did not converge.
    let eps_visible = tol * T::lit(1e-3);
    let mut best = poly.closest_face().unwrap_or(0);
    for iteration in 0..config.max_iterations {
        let Some(f) = poly.closest_face() else {
            return poly.answer(best, ContactStatus::Degenerate, iteration);
        };
        best = f;
        let n = poly.faces[f].normal;
        // Large polyhedra climb their neighbour lists from a hint. The closest faces come in
        // no spatial order, so the last search's answer can be across the shape; a vertex of
        // the face itself was found along a nearby direction, the newest one along the nearest
        // as a rule. Starting there, a climb on the benchmark's 256-vertex hulls costs 480
        // instructions instead of 1,000, and their penetrating contact 330k instead of 424k.
        let [v0, v1, v2] = poly.faces[f].v;
        let mut hint = hints[v0.max(v1).max(v2) as usize];
        let w = cso_support(a, b, &-n, &mut hint);
        if n.dot(&w.w) - poly.faces[f].dist <= tol {
            return poly.answer(f, ContactStatus::Converged, iteration);
        }
        let wi = poly.verts.len() as u32;
        poly.verts.push(w);
        hints.push(hint);
        if !poly.expand(f, wi, eps_visible, horizon, stack) {
            return poly.answer(f, ContactStatus::Degenerate, iteration + 1);
        }
    }
    let f = poly.closest_face().unwrap_or(best);
    poly.answer(f, ContactStatus::IterationCap, config.max_iterations)
}

/// Grows GJK's simplex into a tetrahedron or a bipyramid around the origin in `poly` (empty on
/// entry; `pts` is room for the simplex's distinct vertices), or returns the touching answer
/// when A − B is flat around it. `tol` (the absolute tolerance, `tolerance` times the size of
/// A − B) grows with every support point found here before it is compared with anything.
fn start_polytope<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    simplex: &Simplex<T, D>,
    tolerance: T,
    tol: &mut T,
    pts: &mut Vec<SimplexVertex<T, D>>,
    poly: &mut Polytope<T, D>,
) -> Result<(), Penetration<T, D>>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    let support = |d: &Vector<T, D>, tol: &mut T| start_support(a, b, d, tolerance, tol);
    distinct_vertices(simplex, *tol * *tol, pts);
    let flat = |n: Vector<T, D>| {
        let (pa, pb) = simplex.witnesses();
        let unit = n.try_normalize(T::zero()).unwrap_or_else(|| axis(0, T::one()));
        Err(Penetration {
            depth: T::zero(),
            normal: unit,
            point_a: pa,
            point_b: pb,
            status: ContactStatus::Degenerate,
            iterations: 0,
        })
    };
    drop_flat_vertices(pts, *tol);
    if pts.len() == 1 {
        let p0 = pts[0].w;
        let found = (0..6).find_map(|k| {
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
        let d = pts[1].w - pts[0].w;
        let u = orthogonal(&d);
        let v = cross(&d, &u);
        let dn = d.norm();
        let found = [u, -u, v, -v].iter().find_map(|dir| {
            let w = support(dir, tol);
            (cross(&(w.w - pts[0].w), &d).norm() > *tol * dn).then_some(w)
        });
        match found {
            Some(w) => pts.push(w),
            None => return flat(u),
        }
    }
    if pts.len() == 3 {
        let n = cross(&(pts[1].w - pts[0].w), &(pts[2].w - pts[0].w));
        let n = n.try_normalize(T::zero()).unwrap_or_else(|| axis(0, T::one()));
        let up = support(&n, tol);
        let down = support(&-n, tol);
        let hu = n.dot(&(up.w - pts[0].w));
        let hd = n.dot(&(pts[0].w - down.w));
        if hu <= *tol && hd <= *tol {
            return flat(n);
        }
        poly.verts.extend_from_slice(pts);
        // The apexes above and below the triangle that stand off it (one or both).
        let (mut apexes, mut count) = ([(0u32, false); 2], 0);
        if hu > *tol {
            poly.verts.push(up);
            apexes[count] = (poly.verts.len() as u32 - 1, true);
            count += 1;
        }
        if hd > *tol {
            poly.verts.push(down);
            apexes[count] = (poly.verts.len() as u32 - 1, false);
            count += 1;
        }
        for &(x, above) in &apexes[..count] {
            for i in 0..3u32 {
                let j = (i + 1) % 3;
                poly.add_face(if above { [i, j, x] } else { [j, i, x] });
            }
        }
        if count == 1 {
            // The triangle itself closes the tetrahedron, facing away from the apex.
            poly.add_face(if apexes[0].1 { [0, 2, 1] } else { [0, 1, 2] });
        }
    } else {
        let w = |i: usize| pts[i].w;
        let det = cross(&(w(1) - w(0)), &(w(2) - w(0))).dot(&(w(3) - w(0)));
        if det > T::zero() {
            pts.swap(1, 2);
        }
        poly.verts.extend_from_slice(&pts[..4]);
        for f in [[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]] {
            poly.add_face(f);
        }
    }
    poly.link_all();
    Ok(())
}

/// Reduces a flat tetrahedron to its largest face and a collinear triangle to its longest
/// edge, so the growth steps start from a proper simplex.
fn drop_flat_vertices<T: Real, const D: usize>(pts: &mut Vec<SimplexVertex<T, D>>, tol: T) {
    if pts.len() == 4 {
        let w = |i: usize| pts[i].w;
        let det = cross(&(w(1) - w(0)), &(w(2) - w(0))).dot(&(w(3) - w(0)));
        let scale = (w(1) - w(0)).norm() * (w(2) - w(0)).norm() * (w(3) - w(0)).norm();
        if det.abs() <= T::epsilon() * T::lit(100.0) * scale {
            let area = |i: usize, j: usize, k: usize| cross(&(w(j) - w(i)), &(w(k) - w(i))).norm();
            let drop = (0..4)
                .map(|d| (d, area((d + 1) % 4, (d + 2) % 4, (d + 3) % 4)))
                .fold((0, -T::one()), |best, c| if c.1 > best.1 { c } else { best })
                .0;
            pts.remove(drop);
        }
    }
    if pts.len() == 3 {
        let d1 = pts[1].w - pts[0].w;
        let d2 = pts[2].w - pts[0].w;
        if cross(&d1, &d2).norm() <= tol * d1.norm().max(d2.norm()) {
            // Keep the two points farthest apart.
            let pairs = [(0, 1), (0, 2), (1, 2)];
            let (i, j) = pairs
                .into_iter()
                .max_by(|p, q| {
                    let lp = (pts[p.0].w - pts[p.1].w).norm_squared();
                    let lq = (pts[q.0].w - pts[q.1].w).norm_squared();
                    lp.partial_cmp(&lq).unwrap_or(core::cmp::Ordering::Equal)
                })
                .unwrap_or((0, 1));
            let (p, q) = (pts[i], pts[j]);
            pts.clear();
            pts.extend([p, q]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The grouped scan picks what a plain scan does: the smallest open distance, the first
    /// face among equals, `None` when every face is closed — for every list length around the
    /// groups of four, with ties, closed faces and negative distances.
    #[test]
    fn closest_face_is_the_first_at_the_minimum() {
        let mut unit = crate::test_support::unit_stream(0x9e37_79b9_7f4a_7c15u64);
        let mut poly: Polytope<f32, 3> =
            Polytope { verts: Vec::new(), faces: Vec::new(), open: Vec::new(), starts: Vec::new() };
        for case in 0..3000 {
            let len = case % 23;
            poly.open.clear();
            for _ in 0..len {
                let u = unit();
                // A few distinct values, so ties are common; a quarter of the faces closed.
                let d = if u < 0.25 { f32::INFINITY } else { (unit() * 6.0).floor() as f32 - 2.0 };
                poly.open.push(d);
            }
            let expected = poly
                .open
                .iter()
                .enumerate()
                .filter(|(_, d)| d.is_finite())
                .fold(None, |best: Option<(usize, f32)>, (i, &d)| match best {
                    Some((_, bd)) if bd <= d => best,
                    _ => Some((i, d)),
                })
                .map(|(i, _)| i);
            assert_eq!(poly.closest_face(), expected, "{:?}", poly.open);
        }
    }
}
