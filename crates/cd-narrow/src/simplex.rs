//! The GJK simplex and its sub-algorithm: the point of a simplex (1 to D + 1 points of the
//! configuration-space obstacle A − B) closest to the origin.
//!
//! The sub-algorithm is the signed-volumes method of Montanari, Petrinic and Barbieri
//! ("Improving the GJK algorithm for faster and more reliable distance queries between convex
//! objects", ACM TOG 2017): instead of Johnson's Gram-matrix determinants, whose cancellation
//! makes GJK cycle or report false contacts on thin shapes, the barycentric coordinates of the
//! origin's projection come from signed volumes (tetrahedron), signed areas in the best
//! coordinate plane (triangle) and the longest axis (segment). When a coordinate has the wrong
//! sign the origin is outside the opposite facet, and only those facets are searched.
//!
//! The closest point itself, on a triangle face, is the origin's projection along the face
//! normal rather than the barycentric sum: the sum's rounding points in every direction, and on
//! a long face near the origin that tilts GJK's next search direction enough to pick the same
//! support point again and stall short of the true distance.
//!
//! Every vertex keeps the two support points it came from, so the witness points on A and on B
//! are the same barycentric combination of them.
//!
//! The solve runs in `f64` whatever the scalar type: an `f32` vertex widens exactly, so the
//! closest point and weights are those of the `f32` simplex to `f64` rounding. Solved in `f32`,
//! a sliver face of a long thin obstacle (a box 100 long and 0.1 thick beside a small one)
//! tilted its normal enough that GJK picked the same support points again and stalled, and the
//! stall was accepted within √ε of the shapes' size: distances 8 % off (0.322 against 0.299),
//! witnesses 0.27 apart from the `f64` ones. Solved in `f64`, the same pairs agree with `f64` to
//! 10⁻⁵, for 3 % more instructions in a 32-point hull cast.

use cd_geom::{Point, Real, Vector};

/// One vertex of the simplex: `w = a - b` with `a` a support point of A and `b` of B.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SimplexVertex<T: Real, const D: usize> {
    /// The point of A − B.
    pub w: Vector<T, D>,
    /// The support point on A.
    pub a: Point<T, D>,
    /// The support point on B.
    pub b: Point<T, D>,
}

impl<T: Real, const D: usize> SimplexVertex<T, D> {
    /// The vertex `a - b` from the two support points.
    #[inline]
    pub fn new(a: Point<T, D>, b: Point<T, D>) -> Self {
        Self { w: a - b, a, b }
    }
}

/// A simplex of up to four vertices (three in 2D) with the barycentric weights of its point
/// closest to the origin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Simplex<T: Real, const D: usize> {
    vertices: [SimplexVertex<T, D>; 4],
    lambdas: [T; 4],
    /// The direction each vertex's support points were taken along (zero when unknown):
    /// re-evaluating the supports along them rebuilds an equivalent simplex after a small
    /// motion, which is GJK's simplex warm start.
    directions: [Vector<T, D>; 4],
    len: usize,
    /// The point closest to the origin found by the last [`Simplex::reduce`].
    closest: Vector<T, D>,
    /// Its squared length as the `f64` solve had it, before rounding to `T`.
    closest_norm_sq: f64,
}

impl<T: Real, const D: usize> Simplex<T, D> {
    /// The simplex with the single vertex `v` (weight 1).
    pub fn single(v: SimplexVertex<T, D>) -> Self {
        Self::single_along(v, Vector::zeros())
    }

    /// [`Simplex::single`] remembering the direction `v` came from.
    pub fn single_along(v: SimplexVertex<T, D>, direction: Vector<T, D>) -> Self {
        Self {
            vertices: [v; 4],
            lambdas: [T::one(), T::zero(), T::zero(), T::zero()],
            directions: [direction; 4],
            len: 1,
            closest: v.w,
            closest_norm_sq: v.w.map(|x| x.to_f64()).norm_squared(),
        }
    }

    /// Number of vertices (1 to D + 1).
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always false: a simplex has at least one vertex.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The vertices.
    #[inline]
    pub fn vertices(&self) -> &[SimplexVertex<T, D>] {
        &self.vertices[..self.len]
    }

    /// Barycentric weights of the closest point, one per vertex (they sum to one).
    #[inline]
    pub fn lambdas(&self) -> &[T] {
        &self.lambdas[..self.len]
    }

    /// Whether the simplex is full-dimensional (D + 1 vertices), which the sub-algorithm
    /// only keeps when it encloses the origin.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.len == D + 1
    }

    /// Largest squared length of a vertex: the scale for absolute tolerances.
    pub fn max_norm_squared(&self) -> T {
        self.vertices().iter().fold(T::zero(), |m, v| m.max(v.w.norm_squared()))
    }

    /// Appends a vertex (the caller then calls [`Simplex::reduce`]). Ignored when full.
    #[inline]
    pub fn push(&mut self, v: SimplexVertex<T, D>) {
        self.push_along(v, Vector::zeros());
    }

    /// [`Simplex::push`] remembering the direction `v` came from.
    #[inline]
    pub fn push_along(&mut self, v: SimplexVertex<T, D>, direction: Vector<T, D>) {
        if self.len < D + 1 && self.len < 4 {
            self.vertices[self.len] = v;
            self.directions[self.len] = direction;
            self.len += 1;
        }
    }

    /// Moves every vertex's A-point, and with it the vertex `w = a − b`, by `delta`, in place:
    /// the simplex of the same support points after A translates by `delta` (the linear shape
    /// cast's step along the motion). The weights stay; the closest point moves with the
    /// vertices until the next [`Simplex::reduce`].
    #[inline]
    pub fn translate_a(&mut self, delta: &Vector<T, D>) {
        for v in &mut self.vertices[..self.len] {
            v.a += delta;
            v.w += delta;
        }
        self.closest += delta;
        self.closest_norm_sq = self.closest.map(|x| x.to_f64()).norm_squared();
    }

    /// The directions the vertices came from (zero where unknown).
    #[inline]
    pub fn directions(&self) -> &[Vector<T, D>] {
        &self.directions[..self.len]
    }

    /// The point closest to the origin found by the last [`Simplex::reduce`]: `Σ λᵢ wᵢ`,
    /// except on a triangle face (3D), where it is the origin's projection along the face
    /// normal (same point, less rounding), and zero when the simplex encloses the origin.
    pub fn closest(&self) -> Vector<T, D> {
        self.closest
    }

    /// The squared length of [`Simplex::closest`] as the `f64` solve computed it. For `f32`
    /// shapes it resolves what `closest().norm_squared()` rounds away: a new vertex that turns
    /// the closest point while shortening it by less than an `f32` ulp (a segment nearly
    /// perpendicular to the old closest point) is progress GJK must see, or it stops there.
    pub fn closest_norm_squared_wide(&self) -> f64 {
        self.closest_norm_sq
    }

    /// The witness points on A and on B, `Σ λᵢ aᵢ` and `Σ λᵢ bᵢ`.
    pub fn witnesses(&self) -> (Point<T, D>, Point<T, D>) {
        let mut a = Vector::zeros();
        let mut b = Vector::zeros();
        for (v, &l) in self.vertices().iter().zip(self.lambdas()) {
            a += v.a.coords * l;
            b += v.b.coords * l;
        }
        (Point::from(a), Point::from(b))
    }

    /// Replaces the simplex by the smallest sub-simplex that contains its point closest to the
    /// origin, with that point's barycentric weights. Returns the closest point. Computed in
    /// `f64` (see the module documentation).
    pub fn reduce(&mut self) -> Vector<T, D> {
        let w = |i: usize| self.vertices[i].w.map(|x| x.to_f64());
        let solution = match self.len {
            1 => Solution::vertex(0, &w(0)),
            2 => segment(&w(0), &w(1), [0, 1]),
            3 => triangle(&w(0), &w(1), &w(2), [0, 1, 2]),
            _ => tetrahedron(&[w(0), w(1), w(2), w(3)]),
        };
        self.closest = solution.point.map(T::lit);
        self.closest_norm_sq = solution.point.norm_squared();
        self.apply(&solution);
        self.closest
    }

    fn apply(&mut self, s: &Solution<f64, D>) {
        if (1..s.len).all(|k| s.index[k] > s.index[k - 1]) {
            // Increasing indices: each source is at or after its destination and after every
            // earlier source, so moving down in place never overwrites a vertex still to be
            // read. No copy of the arrays, which took most of this function's time (10 % of a
            // 32-point hull cast's).
            // A vertex that stays in place is copied onto itself: cheaper than the branch
            // that skipped it, which the predictor missed about one time in four.
            for k in 0..s.len {
                let from = s.index[k];
                self.vertices[k] = self.vertices[from];
                self.directions[k] = self.directions[from];
            }
        } else {
            let (old, old_directions) = (self.vertices, self.directions);
            for k in 0..s.len {
                self.vertices[k] = old[s.index[k]];
                self.directions[k] = old_directions[s.index[k]];
            }
        }
        self.lambdas = s.lambda.map(T::lit);
        self.len = s.len;
    }
}

/// A sub-simplex (indices into the caller's vertices), the barycentric weights of the
/// origin's closest point on it, and that point.
#[derive(Clone, Copy, Debug)]
struct Solution<T: Real, const D: usize> {
    index: [usize; 4],
    lambda: [T; 4],
    len: usize,
    /// The closest point, computed where the weights are: `Σ λᵢ wᵢ` for a vertex or an edge,
    /// directly for a face or the tetrahedron's inside. For a triangle face it is the origin's
    /// projection along the face normal: `Σ λᵢ wᵢ` has an error of ε·max|wᵢ| in every
    /// direction, which on a face 10⁴ times longer than its distance from the origin tilts the
    /// search direction enough to pick the wrong support point of a box and stall; the
    /// projection's error is along the (accurate) normal only. Carried with the solution so
    /// that comparing candidates costs a squared norm, not a gather over indices.
    point: Vector<T, D>,
}

impl<T: Real, const D: usize> Solution<T, D> {
    /// Vertex `i` (at `w`) alone.
    fn vertex(i: usize, w: &Vector<T, D>) -> Self {
        Self { index: [i, 0, 0, 0], lambda: [T::one(), T::zero(), T::zero(), T::zero()], len: 1, point: *w }
    }
}

/// Whether `a` and `b` are both strictly positive or both strictly negative.
#[inline]
fn same_sign<T: Real>(a: T, b: T) -> bool {
    (a > T::zero() && b > T::zero()) || (a < T::zero() && b < T::zero())
}

/// Replaces `best` (at squared distance `best_d`, `None` before the first candidate) by
/// `candidate` unless `best` is at least as close. In place: the candidates are moved once,
/// not wrapped in an option and copied at every comparison (that copying was a tenth of a hull
/// cast's time).
#[inline(always)]
fn keep_closer<T: Real, const D: usize>(
    best: &mut Solution<T, D>,
    best_d: &mut Option<T>,
    candidate: Solution<T, D>,
) {
    let d = candidate.point.norm_squared();
    match *best_d {
        Some(bd) if bd <= d => {}
        _ => (*best, *best_d) = (candidate, Some(d)),
    }
}

/// Closest point of segment `[p, q]` (caller indices `ids`) to the origin.
fn segment<T: Real, const D: usize>(p: &Vector<T, D>, q: &Vector<T, D>, ids: [usize; 2]) -> Solution<T, D> {
    let t = q - p;
    let tt = t.norm_squared();
    // Parameter of the origin's projection on the line through p and q: q's weight.
    let num = -p.dot(&t);
    if num > T::zero() && num < tt {
        let lq = num / tt;
        let lp = T::one() - lq;
        return Solution {
            index: [ids[0], ids[1], 0, 0],
            lambda: [lp, lq, T::zero(), T::zero()],
            len: 2,
            point: p * lp + q * lq,
        };
    }
    if num >= tt && tt > T::zero() {
        Solution::vertex(ids[1], q)
    } else {
        Solution::vertex(ids[0], p)
    }
}

/// Closest point of triangle `(p, q, r)` to the origin (caller indices `ids`): D = 2 tests
/// the origin against the triangle itself, D = 3 projects it on the plane first and uses the
/// coordinate plane in which the triangle has the largest area.
fn triangle<T: Real, const D: usize>(
    p: &Vector<T, D>,
    q: &Vector<T, D>,
    r: &Vector<T, D>,
    ids: [usize; 3],
) -> Solution<T, D> {
    let (areas, total, projection, flat) = triangle_areas(p, q, r);
    if !flat && areas.iter().all(|&c| same_sign(c, total)) {
        let inv = T::one() / total;
        let lambda = [areas[0] * inv, areas[1] * inv, areas[2] * inv, T::zero()];
        return Solution { index: [ids[0], ids[1], ids[2], 0], lambda, len: 3, point: projection };
    }
    // The origin's projection is outside (or on) the edge opposite each vertex whose area has
    // the wrong sign: search those edges only. A flat triangle's areas are rounding noise:
    // search all three.
    let pts = [*p, *q, *r];
    let (mut s, mut best_d) = (Solution::vertex(0, p), None);
    for (j, &area) in areas.iter().enumerate() {
        if !flat && same_sign(area, total) {
            continue;
        }
        let (i0, i1) = ((j + 1) % 3, (j + 2) % 3);
        keep_closer(&mut s, &mut best_d, segment(&pts[i0], &pts[i1], [i0, i1]));
    }
    for k in 0..s.len {
        s.index[k] = ids[s.index[k]];
    }
    s
}

/// Signed areas of the three sub-triangles (origin's projection replacing each vertex in
/// turn) and of the whole triangle, in the plane where the triangle's area is largest; the
/// origin's projection on the triangle's plane (the origin itself in 2D); and whether the
/// triangle is flat: its height below the rounding of its vertices' coordinates, so that its
/// plane, and with it every area's sign, is noise.
///
/// A triangle of two vertices 10⁻¹⁴ apart (GJK's support call returning the same point twice,
/// up to rounding) and a third 11 away passed as a face: its weights summed to 1.004, and the
/// witness points they gave were 0.011 off the normal on a ball 9.6 wide beside a cylinder
/// (fuzz finding 73). Flat means twice the area at most 64 ε·M·L, M the largest vertex
/// length and L the longest edge (a cross product of edges is off by about ε·M·L); the
/// comparison is squared, with M² bounded by 4·max(|p|², L²) (every vertex is within L of
/// p), so no square root is taken. In `f64`, the solve's type, that overflows only beyond
/// 10⁷⁶, past the coordinate limit.
fn triangle_areas<T: Real, const D: usize>(
    p: &Vector<T, D>,
    q: &Vector<T, D>,
    r: &Vector<T, D>,
) -> ([T; 3], T, Vector<T, D>, bool) {
    let cross2 = |a: &[T; 2], b: &[T; 2]| a[0] * b[1] - a[1] * b[0];
    let mut projection = Vector::zeros();
    // The edges for the normal (3D) and the longest one for the flatness test (both).
    let (u, v, longest_sq) = shortest_edges_and_longest(p, q, r);
    let (p2, q2, r2, o2) = if D == 2 {
        ([p[0], p[1]], [q[0], q[1]], [r[0], r[1]], [T::zero(), T::zero()])
    } else {
        let (n, nn) = cross3(&u, &v);
        // Positive and finite, by two comparisons (NaN fails both; `is_finite` compiles to
        // integer bit tests here).
        if !(nn > T::zero() && nn < T::infinity()) {
            return ([T::zero(); 3], T::zero(), projection, true);
        }
        // Origin projected on the triangle's plane.
        let s = (p[0] * n[0] + p[1] * n[1] + p[2] * n[2]) / nn;
        let o = [n[0] * s, n[1] * s, n[2] * s];
        projection = Vector::from_fn(|i, _| o[i]);
        // Drop the axis along which the normal is largest; (i, j) cyclic keeps the sign of n_k.
        let k = dominant_axis(&n);
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        ([p[i], p[j]], [q[i], q[j]], [r[i], r[j]], [o[i], o[j]])
    };
    let sub = |a: &[T; 2], b: &[T; 2]| [a[0] - b[0], a[1] - b[1]];
    let total = cross2(&sub(&q2, &p2), &sub(&r2, &p2));
    let areas = [
        cross2(&sub(&q2, &o2), &sub(&r2, &o2)),
        cross2(&sub(&r2, &o2), &sub(&p2, &o2)),
        cross2(&sub(&p2, &o2), &sub(&q2, &o2)),
    ];
    // In 3D `total` is the normal's largest component, at least |n|/√3.
    let noise = T::epsilon() * T::lit(64.0);
    let size_sq = T::lit(4.0) * p.norm_squared().max(longest_sq);
    // Flat also when anything is NaN (the areas are then no use either).
    let flat = (total * total).partial_cmp(&(noise * noise * size_sq * longest_sq))
        != Some(core::cmp::Ordering::Greater);
    (areas, total, projection, flat)
}

/// `u × v` for 3D vectors given as `D`-vectors (the caller guarantees D = 3), and its squared
/// length.
#[inline(always)]
fn cross3<T: Real, const D: usize>(u: &Vector<T, D>, v: &Vector<T, D>) -> ([T; 3], T) {
    let n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
    (n, n[0] * n[0] + n[1] * n[1] + n[2] * n[2])
}

/// The axis along which `n` is largest (the first on ties): dropping it projects a plane with
/// normal `n` onto the coordinate plane where its areas are largest.
#[inline(always)]
fn dominant_axis<T: Real>(n: &[T; 3]) -> usize {
    if n[0].abs() >= n[1].abs() && n[0].abs() >= n[2].abs() {
        0
    } else if n[1].abs() >= n[2].abs() {
        1
    } else {
        2
    }
}

/// Two consecutive edges of triangle `(p, q, r)` that leave out its longest one: their cross
/// product is the triangle's normal (`(q − p) × (r − p)`, the same for any two consecutive
/// edges) with the least rounding. The error of a cross product is about ε·|e₁|·|e₂| while its
/// length is twice the area, so for a long thin triangle (a sliver of a 10¹⁰-long slab, say)
/// the two long edges would give a normal tilted by ε·L/width, and a plane through vertices
/// far from the origin then misses it by that tilt times L.
pub(crate) fn shortest_edges<T: Real, const D: usize>(
    p: &Vector<T, D>,
    q: &Vector<T, D>,
    r: &Vector<T, D>,
) -> (Vector<T, D>, Vector<T, D>) {
    let (u, v, _) = shortest_edges_and_longest(p, q, r);
    (u, v)
}

/// [`shortest_edges`] and the longest edge's squared length.
#[inline(always)]
fn shortest_edges_and_longest<T: Real, const D: usize>(
    p: &Vector<T, D>,
    q: &Vector<T, D>,
    r: &Vector<T, D>,
) -> (Vector<T, D>, Vector<T, D>, T) {
    let e = [q - p, r - q, p - r];
    let l = [e[0].norm_squared(), e[1].norm_squared(), e[2].norm_squared()];
    if l[0] >= l[1] && l[0] >= l[2] {
        (e[1], e[2], l[0])
    } else if l[1] >= l[2] {
        (e[2], e[0], l[1])
    } else {
        (e[0], e[1], l[2])
    }
}

/// Closest point of a tetrahedron (3D only) to the origin.
fn tetrahedron<T: Real, const D: usize>(w: &[Vector<T, D>; 4]) -> Solution<T, D> {
    // Signed volume of the tetrahedron with vertex i replaced by the origin: the cofactors of
    // the 4×4 matrix with columns (wᵢ, 1), i.e. ± det of the other three vertices. The four
    // 3×3 determinants share their six 2×2 minors in (x, y), so they cost 24 products, not
    // the 60 of four separate edge-based volumes; and the whole volume is their sum, so "all
    // four have its sign" is decided consistently (Montanari et al.'s signed volumes).
    let minor = |a: usize, b: usize| w[a][0] * w[b][1] - w[a][1] * w[b][0];
    let (m01, m02, m03, m12, m13, m23) =
        (minor(0, 1), minor(0, 2), minor(0, 3), minor(1, 2), minor(1, 3), minor(2, 3));
    // det(wa, wb, wc) by expansion along z.
    let det =
        |a: usize, b: usize, c: usize, mbc: T, mac: T, mab: T| w[a][2] * mbc - w[b][2] * mac + w[c][2] * mab;
    let c = [
        det(1, 2, 3, m23, m13, m12),
        -det(0, 2, 3, m23, m03, m02),
        det(0, 1, 3, m13, m03, m01),
        -det(0, 1, 2, m12, m02, m01),
    ];
    let total = (c[0] + c[1]) + (c[2] + c[3]);
    // A (nearly) flat tetrahedron has a volume at rounding level: the signs of the sub-volumes
    // are then noise, and "all the same sign" would claim the origin inside with weights that
    // do not reproduce it. Treat it as the union of its faces instead.
    // |total| ≤ 64 ε · max|wᵢ|³, compared unsquared: at the coordinate limit (10⁷⁵) a volume is
    // 10²²⁵ and its square overflows, which once made every tetrahedron "flat" and GJK report
    // deeply overlapping boxes as 10⁷² apart (found by the narrow_queries fuzz target).
    // ε is the solve's (`f64`'s), not the vertices' own type's: at `f32`'s level the flat
    // path took the tetrahedra of long thin `f32` shapes and their distances were 2·10⁻² off
    // again at length 100 (it would have saved 1.4 % of a hull32 cast's instructions).
    let scale = w.iter().fold(T::zero(), |m, x| m.max(x.norm_squared())).sqrt();
    let eps = T::epsilon() * T::lit(64.0);
    let flat = total.abs() <= eps * scale * scale * scale;
    if !flat && c.iter().all(|&x| same_sign(x, total)) {
        return Solution {
            index: [0, 1, 2, 3],
            lambda: [c[0] / total, c[1] / total, c[2] / total, c[3] / total],
            len: 4,
            point: Vector::zeros(),
        };
    }
    if flat {
        if let Some(s) = flat_face_over_origin(w) {
            return s;
        }
    }
    let mut best = Solution::vertex(0, &w[0]);
    let mut best_d = None;
    for j in 0..4 {
        if !flat && same_sign(c[j], total) {
            continue;
        }
        let f = FACES[j];
        keep_closer(&mut best, &mut best_d, triangle(&w[f[0]], &w[f[1]], &w[f[2]], f));
    }
    best
}

/// For a flat tetrahedron (its four vertices in one plane, to rounding): the face whose
/// triangle contains the origin's projection on that plane, as [`triangle`] answers it, or
/// `None` when no face does (the closest point is then on the outline, and every face is
/// searched). The common case in the linear shape cast, whose λ step puts the new vertex on a
/// plane through the origin with the shifted old triangle nearly on it: one triangle search
/// instead of four, after a containment test that shares its signed areas between the faces
/// (six edge terms in the plane of the largest face, not three per face).
fn flat_face_over_origin<T: Real, const D: usize>(w: &[Vector<T, D>; 4]) -> Option<Solution<T, D>> {
    // The largest face's normal: the best-conditioned plane of the four.
    let mut n = [T::zero(); 3];
    let mut nn = T::zero();
    for f in FACES {
        let (c, cc) = cross3(&(w[f[1]] - w[f[0]]), &(w[f[2]] - w[f[0]]));
        if cc > nn {
            (n, nn) = (c, cc);
        }
    }
    if nn <= T::zero() || !nn.is_finite() {
        return None;
    }
    // The origin's projection on the plane, then every point in the plane where the normal is
    // largest (dropping that axis keeps signed areas proportional to the true ones).
    let s = (w[0][0] * n[0] + w[0][1] * n[1] + w[0][2] * n[2]) / nn;
    let k = dominant_axis(&n);
    let (i, j) = ((k + 1) % 3, (k + 2) % 3);
    let (oi, oj) = (n[i] * s, n[j] * s);
    let p = |m: usize| [w[m][i] - oi, w[m][j] - oj];
    let pts = [p(0), p(1), p(2), p(3)];
    // Twice the signed area of (origin, a, b) for every pair a < b.
    let edge = |a: usize, b: usize| pts[a][0] * pts[b][1] - pts[a][1] * pts[b][0];
    let e = [
        [T::zero(), edge(0, 1), edge(0, 2), edge(0, 3)],
        [T::zero(), T::zero(), edge(1, 2), edge(1, 3)],
        [T::zero(), T::zero(), T::zero(), edge(2, 3)],
    ];
    let signed = |a: usize, b: usize| if a < b { e[a][b] } else { -e[b][a] };
    for f in FACES {
        let areas = [signed(f[1], f[2]), signed(f[2], f[0]), signed(f[0], f[1])];
        let total = areas[0] + areas[1] + areas[2];
        if areas.iter().all(|&a| same_sign(a, total)) {
            let s = triangle(&w[f[0]], &w[f[1]], &w[f[2]], f);
            if s.len == 3 {
                return Some(s);
            }
        }
    }
    None
}

/// The face opposite each vertex of a tetrahedron.
const FACES: [[usize; 3]; 4] = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]];

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Point3, Vector3};

    fn vertex(w: [f64; 3]) -> SimplexVertex<f64, 3> {
        SimplexVertex::new(Point3::from(Vector3::from(w)), Point3::origin())
    }

    /// Random triangles and tetrahedra against an independent closest point (cd-geom's
    /// Voronoi-region closest point on each face; zero when the origin is inside the
    /// tetrahedron): the reduced simplex's point matches, its weights reproduce it from the
    /// vertices it kept, and every kept vertex still carries its own support points and
    /// search direction (the in-place reduction moves all three together, in either order).
    #[test]
    fn reduce_matches_brute_force_and_keeps_vertices_whole() {
        use cd_geom::{closest_point_on_triangle, Triangle};
        let mut unit = crate::test_support::unit_stream(0x2545_f491_4f6c_dd1du64);
        let mut rnd = move || unit() * 4.0 - 2.0;
        let face_closest = |w: &[Vector3<f64>], f: [usize; 3]| {
            let tri =
                Triangle::new(Point3::from(w[f[0]]), Point3::from(w[f[1]]), Point3::from(w[f[2]])).unwrap();
            closest_point_on_triangle(&Point3::origin(), &tri).0.coords
        };
        for case in 0..4000 {
            let n = 3 + case % 2;
            let w: Vec<Vector3<f64>> = (0..n).map(|_| Vector3::new(rnd(), rnd(), rnd())).collect();
            // Each vertex's B point and direction encode its index, so a mix-up shows.
            let tag = |i: usize| Vector3::new(i as f64 + 10.0, 0.0, 0.0);
            let vert = |i: usize| SimplexVertex::new(Point3::from(w[i] + tag(i)), Point3::from(tag(i)));
            let mut s = Simplex::single_along(vert(0), tag(0));
            for i in 1..n {
                s.push_along(vert(i), tag(i));
            }
            let v = s.reduce();
            let expected = if n == 3 {
                face_closest(&w, [0, 1, 2])
            } else {
                let det = |a: &Vector3<f64>, b: &Vector3<f64>, c: &Vector3<f64>| a.dot(&b.cross(c));
                let vol = |a: usize, b: usize, c: usize, o: &Vector3<f64>| {
                    det(&(w[a] - o), &(w[b] - o), &(w[c] - o))
                };
                let total = det(&(w[1] - w[0]), &(w[2] - w[0]), &(w[3] - w[0]));
                let o = Vector3::zeros();
                let inside = [vol(1, 2, 3, &o), -vol(0, 2, 3, &o), vol(0, 1, 3, &o), -vol(0, 1, 2, &o)]
                    .iter()
                    .all(|&x| x * total > 0.0);
                if inside {
                    Vector3::zeros()
                } else {
                    FACES
                        .iter()
                        .map(|&f| face_closest(&w, f))
                        .min_by(|a, b| a.norm().total_cmp(&b.norm()))
                        .unwrap()
                }
            };
            assert!((v.norm() - expected.norm()).abs() < 1e-9, "case {case}: {v:?} against {expected:?}");
            if expected.norm() > 1e-6 {
                assert!((v - expected).norm() < 1e-6, "case {case}: {v:?} against {expected:?}");
            }
            let mut rebuilt = Vector3::zeros();
            for ((vx, &l), d) in s.vertices().iter().zip(s.lambdas()).zip(s.directions()) {
                let i = (vx.b.x - 10.0).round() as usize;
                assert!(i < n && *d == tag(i), "case {case}: direction {d:?} left vertex {i}");
                assert!(
                    (vx.w - w[i]).norm() < 1e-12 && (vx.a.coords - w[i] - tag(i)).norm() < 1e-12,
                    "case {case}"
                );
                rebuilt += w[i] * l;
            }
            assert!((rebuilt - v).norm() < 1e-9, "case {case}: weights give {rebuilt:?}, point {v:?}");
        }
    }

    /// Tetrahedra of size ~1 far from the origin (10 to 10⁴ away: GJK distance between
    /// far-apart shapes), in f64 and in f32, against the closest point over their faces in
    /// f64. The signed volumes are cofactors of the vertices themselves, whose rounding grows
    /// with the distance cubed; the flatness threshold is relative to that same scale, so such
    /// tetrahedra are resolved through their faces and the distance stays right.
    #[test]
    fn far_tetrahedra_match_brute_force() {
        use cd_geom::{closest_point_on_triangle, Triangle};
        let mut unit = crate::test_support::unit_stream(0x9e37_79b9_0bad_cafe);
        let brute = |w: &[Vector3<f64>; 4]| {
            FACES
                .iter()
                .map(|f| {
                    let tri =
                        Triangle::new(Point3::from(w[f[0]]), Point3::from(w[f[1]]), Point3::from(w[f[2]]));
                    tri.map_or(f64::INFINITY, |t| {
                        closest_point_on_triangle(&Point3::origin(), &t).0.coords.norm()
                    })
                })
                .fold(f64::INFINITY, f64::min)
        };
        for case in 0..3000 {
            let far = 10f64.powf(1.0 + 3.0 * unit());
            let dir = Vector3::new(unit() - 0.5, unit() - 0.5, unit() - 0.5).normalize();
            let w: [Vector3<f64>; 4] =
                core::array::from_fn(|_| dir * far + Vector3::new(unit() - 0.5, unit() - 0.5, unit() - 0.5));
            let expected = brute(&w);
            let mut s64 = Simplex::single(vertex(w[0].into()));
            (1..4).for_each(|i| s64.push(vertex(w[i].into())));
            let got = s64.reduce().norm();
            assert!((got - expected).abs() <= 1e-9 * far, "case {case} (f64): {got} against {expected}");
            // The same points rounded to f32, the oracle on those rounded points.
            let w32: [Vector3<f32>; 4] = core::array::from_fn(|i| w[i].cast::<f32>());
            let expected = brute(&core::array::from_fn(|i| w32[i].cast::<f64>()));
            let v32 = |x: Vector3<f32>| SimplexVertex::new(Point3::from(x), Point3::origin());
            let mut s32 = Simplex::single(v32(w32[0]));
            (1..4).for_each(|i| s32.push(v32(w32[i])));
            let got = f64::from(s32.reduce().norm());
            assert!((got - expected).abs() <= 1e-5 * far, "case {case} (f32): {got} against {expected}");
        }
    }

    /// Flat tetrahedra (four coplanar points: the linear shape cast's last step) against the
    /// closest point over their four faces: the same distance, from the face that holds it.
    #[test]
    fn flat_tetrahedra_match_brute_force() {
        use cd_geom::{closest_point_on_triangle, Triangle};
        let mut unit = crate::test_support::unit_stream(0x853c_49e6_748f_ea9bu64);
        let mut rnd = move || unit() * 2.0 - 1.0;
        let mut inside = 0;
        for case in 0..4000 {
            let centre = Vector3::new(rnd(), rnd(), rnd()) * [0.0, 1e-3, 1.0, 3.0][case % 4];
            let u = Vector3::new(rnd(), rnd(), rnd()).normalize();
            let v = u.cross(&Vector3::new(rnd(), rnd(), rnd())).normalize();
            let w: Vec<Vector3<f64>> =
                (0..4).map(|_| centre + u * (2.0 * rnd()) + v * (2.0 * rnd())).collect();
            let mut s = Simplex::single(vertex(w[0].into()));
            for p in &w[1..] {
                s.push(vertex((*p).into()));
            }
            let got = s.reduce();
            let expected = FACES
                .iter()
                .filter_map(|f| {
                    Triangle::new(Point3::from(w[f[0]]), Point3::from(w[f[1]]), Point3::from(w[f[2]])).ok()
                })
                .map(|t| closest_point_on_triangle(&Point3::origin(), &t).0.coords)
                .min_by(|a, b| a.norm().total_cmp(&b.norm()))
                .unwrap();
            assert!((got.norm() - expected.norm()).abs() < 1e-9, "case {case}: {got:?} against {expected:?}");
            let rebuilt =
                s.vertices().iter().zip(s.lambdas()).fold(Vector3::zeros(), |acc, (x, &l)| acc + x.w * l);
            assert!((rebuilt - got).norm() < 1e-9, "case {case}");
            inside += usize::from(s.len() == 3);
        }
        assert!(inside > 500, "{inside} reduced to a face");
    }

    #[test]
    fn segment_interior_and_ends() {
        // Segment from (-1, 1, 0) to (1, 1, 0): closest point (0, 1, 0), half and half.
        let mut s = Simplex::single(vertex([-1.0, 1.0, 0.0]));
        s.push(vertex([1.0, 1.0, 0.0]));
        let v = s.reduce();
        assert_eq!(v, Vector3::new(0.0, 1.0, 0.0));
        assert_eq!(s.lambdas(), &[0.5, 0.5]);
        // Segment from (1, 0, 0) to (2, 0, 0): the first end.
        let mut s = Simplex::single(vertex([2.0, 0.0, 0.0]));
        s.push(vertex([1.0, 0.0, 0.0]));
        assert_eq!(s.reduce(), Vector3::new(1.0, 0.0, 0.0));
        assert_eq!(s.len(), 1);
    }

    #[test]
    fn triangle_face_edge_and_vertex_regions() {
        // Triangle in z = 1 around the z axis: the closest point is (0, 0, 1), inside.
        let mut s = Simplex::single(vertex([-1.0, -1.0, 1.0]));
        s.push(vertex([2.0, -1.0, 1.0]));
        s.push(vertex([-1.0, 2.0, 1.0]));
        let v = s.reduce();
        assert!((v - Vector3::new(0.0, 0.0, 1.0)).norm() < 1e-15);
        assert_eq!(s.len(), 3);
        // Triangle x ∈ [1, 2] in the plane z = 0: the edge x = 1 is closest, at (1, 0, 0).
        let mut s = Simplex::single(vertex([1.0, -1.0, 0.0]));
        s.push(vertex([1.0, 1.0, 0.0]));
        s.push(vertex([2.0, 0.0, 0.0]));
        assert_eq!(s.reduce(), Vector3::new(1.0, 0.0, 0.0));
        assert_eq!(s.len(), 2);
    }

    #[test]
    fn tetrahedron_inside_and_outside() {
        let corners = [[1.0, 1.0, 1.0], [1.0, -1.0, -1.0], [-1.0, 1.0, -1.0], [-1.0, -1.0, 1.0]];
        let mut s = Simplex::single(vertex(corners[0]));
        for c in &corners[1..] {
            s.push(vertex(*c));
        }
        assert_eq!(s.reduce(), Vector3::zeros());
        assert!(s.is_full());
        assert!(s.lambdas().iter().all(|&l| (l - 0.25).abs() < 1e-15));
        // Shifted by +3 in x: the origin is closest to the face x = 2 of vertices 2 and 3.
        let mut s = Simplex::single(vertex([4.0, 1.0, 1.0]));
        for c in &corners[1..] {
            s.push(vertex([c[0] + 3.0, c[1], c[2]]));
        }
        let v = s.reduce();
        assert!((v - Vector3::new(2.0, 0.0, 0.0)).norm() < 1e-12, "{v}");
    }

    #[test]
    fn degenerate_simplices_fall_back_to_lower_ones() {
        // Collinear triangle and flat tetrahedron: the answer still is the closest point.
        let mut s = Simplex::single(vertex([1.0, -1.0, 3.0]));
        s.push(vertex([1.0, 0.0, 3.0]));
        s.push(vertex([1.0, 1.0, 3.0]));
        assert!((s.reduce() - Vector3::new(1.0, 0.0, 3.0)).norm() < 1e-15);
        let mut s = Simplex::single(vertex([1.0, -1.0, -1.0]));
        s.push(vertex([1.0, 1.0, -1.0]));
        s.push(vertex([1.0, 0.0, 1.0]));
        s.push(vertex([1.0, 0.0, 0.0]));
        assert!((s.reduce() - Vector3::new(1.0, 0.0, 0.0)).norm() < 1e-15);
    }

    #[test]
    fn nearly_flat_tetrahedron_is_not_taken_as_enclosing_the_origin() {
        // Three points on the plane z = 1 and a fourth a rounding error below it: the origin
        // is 1 away, whatever the signs of the sub-volumes say.
        let mut s = Simplex::single(vertex([-1.0, -1.0, 1.0]));
        s.push(vertex([2.0, -1.0, 1.0]));
        s.push(vertex([-1.0, 2.0, 1.0]));
        s.push(vertex([0.1, 0.2, 1.0 - 1e-17]));
        let v = s.reduce();
        assert!(!s.is_full());
        assert!((v.norm() - 1.0).abs() < 1e-12, "{v}");
    }

    #[test]
    fn planar_triangle_encloses_origin() {
        use nalgebra::{Point2, Vector2};
        let v2 = |x: f64, y: f64| SimplexVertex::new(Point2::new(x, y), Point2::origin());
        let mut s = Simplex::single(v2(-1.0, -1.0));
        s.push(v2(1.0, -1.0));
        s.push(v2(0.0, 1.0));
        assert_eq!(s.reduce(), Vector2::zeros());
        assert!(s.is_full());
        let mut s = Simplex::single(v2(1.0, 1.0));
        s.push(v2(3.0, 1.0));
        s.push(v2(1.0, 3.0));
        assert_eq!(s.reduce(), Vector2::new(1.0, 1.0));
    }

    /// Translating A moves each vertex's A-point and `w` by the offset, keeps B's points and
    /// the weights, and the reduced closest point is the one of the rebuilt simplex.
    #[test]
    fn translate_a_equals_rebuilding_the_simplex() {
        let verts = [[1.0, 2.0, 0.5], [3.0, -1.0, 0.25], [2.0, 2.0, -1.0]];
        let mut s = Simplex::single(vertex(verts[0]));
        s.push(vertex(verts[1]));
        s.push(vertex(verts[2]));
        s.reduce();
        let delta = Vector3::new(-2.0, -0.5, 0.125);
        let mut moved = s;
        moved.translate_a(&delta);
        // The same support points (of the reduced simplex), A's moved: built afresh.
        let shift = |v: &SimplexVertex<f64, 3>| SimplexVertex::new(v.a + delta, v.b);
        let mut rebuilt = Simplex::single(shift(&s.vertices()[0]));
        for v in &s.vertices()[1..] {
            rebuilt.push(shift(v));
        }
        assert_eq!(moved.len(), rebuilt.len());
        for (m, r) in moved.vertices().iter().zip(rebuilt.vertices()) {
            assert_eq!((m.a, m.b, m.w), (r.a, r.b, r.w));
        }
        assert_eq!(moved.lambdas(), s.lambdas());
        assert!((moved.closest() - (s.closest() + delta)).norm() < 1e-15);
        assert!((moved.reduce() - rebuilt.reduce()).norm() < 1e-12);
    }

    /// A triangle with two vertices a rounding apart (fuzz finding 73's simplex, and random
    /// ones like it): solved as a segment, with weights summing to one that reproduce the
    /// closest point, which is the segment's.
    #[test]
    fn flat_triangle_is_solved_by_its_edges() {
        let finding = [
            [2.997970199369882, -4.449977112025639, 1.452006912655757],
            [-2.925186538911369, 4.467869567661861, -1.542683028750493],
            [2.9979701993698997, -4.449977112025621, 1.4520069126557749],
        ];
        let mut unit = crate::test_support::unit_stream(0x51ce_7a1e_0b5e_55edu64);
        let mut cases = vec![finding];
        for _ in 0..2000 {
            let mut r = || unit() * 20.0 - 10.0;
            let p = [r(), r(), r()];
            let q = [r(), r(), r()];
            let tiny = 1e-14 * (unit() + 0.1);
            cases.push([p, q, [p[0] + tiny, p[1] - tiny, p[2] + tiny * unit()]]);
        }
        for w in cases {
            let mut s = Simplex::single(vertex(w[0]));
            s.push(vertex(w[1]));
            s.push(vertex(w[2]));
            let v = s.reduce();
            assert!(s.len() <= 2, "{w:?} kept as a face");
            let sum: f64 = s.lambdas().iter().sum();
            assert!((sum - 1.0).abs() < 1e-12, "{w:?}: weights sum to {sum}");
            let (a, b) = s.witnesses();
            assert!((a - b - v).norm() < 1e-12, "{w:?}");
            let (p, q) = (Vector3::from(w[0]), Vector3::from(w[1]));
            let t = (-p.dot(&(q - p)) / (q - p).norm_squared()).clamp(0.0, 1.0);
            assert!((v - (p + (q - p) * t)).norm() < 1e-9, "{w:?}: {v:?}");
        }
    }
}
