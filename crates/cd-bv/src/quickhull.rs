//! 3D convex hull by Quickhull (Barber, Dobkin and Huhdanpaa 1996).
//!
//! Each face keeps the list of points outside it (its conflict list). The farthest point of a
//! face's list is the next eye point; the faces it sees are found by a depth-first walk that
//! also yields the horizon (the boundary between visible and hidden faces) in order; new faces
//! fan from the eye to the horizon edges; the orphaned points are re-assigned. Arithmetic is in
//! `f64`, with a distance tolerance scaled to the input (points closer than it to a face count
//! as inside, which keeps the hull convex under rounding); coplanar triangles are merged into
//! polygonal faces at the end.

use crate::aabb::axis_extremes;
use crate::hull2::convex_hull_2d_indices;
use cd_geom::{widest_angle_edges, ConvexPolyhedron, GeomError, GeomResult, Point, Real};
use nalgebra::{Point2, Vector3};

type V3 = Vector3<f64>;

/// A convex hull of any dimension: what [`convex_hull`] returns for degenerate input.
#[derive(Clone, Debug, PartialEq)]
pub enum Hull<T: Real> {
    /// All points coincide.
    Point(Point<T, 3>),
    /// All points are collinear: the two extreme points.
    Segment(Point<T, 3>, Point<T, 3>),
    /// All points are coplanar: the hull polygon's vertices in order.
    Polygon(Vec<Point<T, 3>>),
    /// A solid hull.
    Polyhedron(ConvexPolyhedron<T>),
}

#[derive(Clone, Debug)]
struct Face {
    v: [usize; 3],
    n: V3,
    d: f64,
    nb: [usize; 3],
    /// The face's conflict list (the points outside it): `conflicts.list(self.outside)`.
    outside: Run,
    alive: bool,
    visible: bool,
}

impl Face {
    fn new(p: &[V3], v: [usize; 3]) -> Face {
        // Crossed at the widest angle: on slivers of a set spanning 10⁻⁴ to 10¹⁰ the cross
        // product at a sharp vertex tilted the normal enough to call points 4·10⁹ outside the
        // face inside it (fuzz finding 20).
        let (e0, e1) = widest_angle_edges(&p[v[0]], &p[v[1]], &p[v[2]]);
        let n = e0.cross(&e1);
        let len = n.norm();
        // One division and three products rather than three divisions: a hull makes about
        // 1.2 faces per input point, and this constructor was 8.6 % of a bunny hull's time.
        let n = if len > 0.0 { n * (1.0 / len) } else { n };
        Face {
            v,
            n,
            d: -n.dot(&p[v[0]]),
            nb: [usize::MAX; 3],
            outside: Run::EMPTY,
            alive: true,
            visible: false,
        }
    }
    /// Signed distance of `q` from the face's plane, summed in the same order as
    /// [`Orphans::assign`]'s lanes so both agree to the bit.
    #[inline]
    fn dist(&self, q: &V3) -> f64 {
        plane_distance(&self.n, self.d, q.x, q.y, q.z)
    }
    /// Index of the edge `a → b` in this face. The edge starts where `a` is (the vertices are
    /// distinct; the `min` only keeps the index in range if they were not), found without a
    /// branch: which of the three is `a` was as good as random, and the search loop
    /// mispredicted on it.
    fn edge(&self, a: usize, b: usize) -> Option<usize> {
        let k = (usize::from(self.v[1] == a) + 2 * usize::from(self.v[2] == a)).min(2);
        (self.v[k] == a && self.v[[1, 2, 0][k]] == b).then_some(k)
    }
}

/// The convex hull of a 3D point set: a [`ConvexPolyhedron`] (vertices, merged polygonal faces
/// with outward planes, vertex adjacency for hill-climbing support), or the lower-dimensional
/// hull when the points are coincident, collinear or coplanar. Duplicates are fine. Expected
/// O(n log n). Errors: empty input, non-finite or out-of-range coordinates, and
/// [`GeomError::NotConvex`] (or [`GeomError::Degenerate`] for a face too thin to carry a
/// plane) in the rare case where rounding still bends the hull after the retries below.
///
/// Points within a tolerance of a face count as on it, so every input point lies inside the
/// hull or at most that far outside. The tolerance starts at `64 ε` of the coordinates'
/// magnitude; on hostile sets (slivers spanning 10¹⁰, say) rounding can bend the hull, which the
/// polyhedron's checks refuse, and the hull is rebuilt with the tolerance grown 4,096-fold,
/// twice at most.
pub fn convex_hull<T: Real>(points: &[Point<T, 3>]) -> GeomResult<Hull<T>> {
    // One validating pass (errors for empty input and bad coordinates) that also finds the
    // first point reaching each axis's minimum and maximum, for the initial simplex.
    let (lo, hi) = axis_extremes(points)?;
    let axis_ends = [lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]];
    let p: Vec<V3> = points.iter().map(|q| V3::new(q.x.to_f64(), q.y.to_f64(), q.z.to_f64())).collect();
    let scale = (0..3).map(|i| p[lo[i]][i].abs().max(p[hi[i]][i].abs())).sum::<f64>();
    // Distance tolerance: a generous multiple of the rounding error of a plane distance, and
    // for f32 input the rounding of the input itself.
    let eps = scale * (64.0 * f64::EPSILON + 4.0 * T::epsilon().to_f64() * f64::EPSILON.sqrt());
    let mut attempt = 0;
    loop {
        let tolerance = eps * RETRY_TOLERANCE_GROWTH.powi(attempt);
        let mut result = hull_with_tolerance(points, &p, axis_ends, tolerance);
        if attempt > 0 {
            result = result.and_then(|hull| holding_every_point(hull, &p, tolerance));
        }
        attempt += 1;
        // The input is valid (checked above), so any refusal is rounding's doing: a bent hull
        // (`NotConvex`) or a face too thin to carry a plane (`Degenerate`).
        if result.is_ok() || attempt == ATTEMPTS {
            return result;
        }
    }
}

/// A hull built with a grown tolerance, checked against every input point (O(n·F), paid only
/// on this rare path). With the tolerance thousands of times the rounding, a face fanned from
/// an eye over a sliver edge 2·10¹⁰ long can tilt by the tolerance over the sliver's width and
/// cut past a point dropped earlier as interior (fuzz finding 36: 2·10⁵ outside with a
/// tolerance of 3.5). Such a hull is refused as [`GeomError::NotConvex`].
fn holding_every_point<T: Real>(hull: Hull<T>, p: &[V3], tolerance: f64) -> GeomResult<Hull<T>> {
    if let Hull::Polyhedron(poly) = &hull {
        // A point may sit outside a merged face by the merge's own tolerance and the plane's
        // rounding: a few tolerances, far below what a carved face misses by.
        let slack = 4.0 * tolerance;
        for face in poly.faces() {
            let n = face.plane.normal();
            let (n, d) = (V3::new(n.x.to_f64(), n.y.to_f64(), n.z.to_f64()), face.plane.d().to_f64());
            if p.iter().any(|q| n.dot(q) + d > slack) {
                return Err(GeomError::NotConvex);
            }
        }
    }
    Ok(hull)
}

/// How many times the hull is built at most: once with the base tolerance, then again each
/// time the polyhedron's checks refuse what rounding bent, with the tolerance multiplied by
/// [`RETRY_TOLERANCE_GROWTH`]. The largest tolerance, `64 ε · 4096² ≈ 2.4·10⁻⁷` of the
/// coordinates' magnitude, is about twice the polyhedron's own convexity tolerance.
const ATTEMPTS: i32 = 3;
/// See [`ATTEMPTS`].
const RETRY_TOLERANCE_GROWTH: f64 = 4096.0;

/// One Quickhull run with distance tolerance `eps`.
fn hull_with_tolerance<T: Real>(
    points: &[Point<T, 3>],
    p: &[V3],
    axis_ends: [usize; 6],
    eps: f64,
) -> GeomResult<Hull<T>> {
    let Some(simplex) = initial_simplex(p, axis_ends, eps) else {
        return Ok(lower_dimensional(points, p, eps));
    };
    // `None`: a face lost track of a neighbour, which only a simplex that rounding made flat
    // (all points within a few ulps of a plane far from the origin) can cause: coplanar input.
    let Some(faces) = build(p, simplex, eps) else {
        return Ok(lower_dimensional(points, p, eps));
    };
    Ok(Hull::Polyhedron(to_polyhedron(points, p, &faces, eps)?))
}

/// The convex hull of a point set that must span 3D; degenerate input is a
/// [`GeomError::Degenerate`](cd_geom::GeomError::Degenerate) error.
pub fn convex_hull_3d<T: Real>(points: &[Point<T, 3>]) -> GeomResult<ConvexPolyhedron<T>> {
    match convex_hull(points)? {
        Hull::Polyhedron(p) => Ok(p),
        _ => Err(GeomError::Degenerate),
    }
}

/// Four affinely independent points (beyond `eps`), chosen far apart, or `None`. `ext` holds,
/// axis by axis, the first point reaching the minimum and the first reaching the maximum.
fn initial_simplex(p: &[V3], ext: [usize; 6], eps: f64) -> Option<[usize; 4]> {
    let (mut i0, mut i1, mut best) = (0, 0, -1.0);
    for &a in &ext {
        for &b in &ext {
            let d = (p[a] - p[b]).norm_squared();
            if d > best {
                (i0, i1, best) = (a, b, d);
            }
        }
    }
    if best.sqrt() <= eps {
        return None;
    }
    let dir = (p[i1] - p[i0]).normalize();
    // Compared squared (no root per point); only the winner's distance is rooted.
    let line_dist_squared = |q: &V3| (q - p[i0] - dir * (q - p[i0]).dot(&dir)).norm_squared();
    // Only other points: rounding can put the chosen ones themselves a hair off their own line
    // or plane (a fuzzer found three points 7.7·10⁹ apart that did), and a repeated index
    // would make a flat "tetrahedron" whose faces find no neighbours.
    let i2 = farthest(p, |a| a != i0 && a != i1, line_dist_squared)?;
    if line_dist_squared(&p[i2]).sqrt() <= eps {
        return None;
    }
    let n = (p[i1] - p[i0]).cross(&(p[i2] - p[i0])).normalize();
    let plane_dist = |q: &V3| n.dot(&(q - p[i0])).abs();
    let i3 = farthest(p, |a| a != i0 && a != i1 && a != i2, plane_dist)?;
    if plane_dist(&p[i3]) <= eps {
        return None;
    }
    Some([i0, i1, i2, i3])
}

/// The admitted point with the largest `measure` (non-negative; the last of equals, as
/// `max_by` gives), evaluating the measure once per point; `None` when no point is admitted.
fn farthest(p: &[V3], admit: impl Fn(usize) -> bool, measure: impl Fn(&V3) -> f64) -> Option<usize> {
    let (mut best, mut best_index) = (-1.0, None);
    for (a, q) in p.iter().enumerate() {
        if admit(a) {
            let m = measure(q);
            if m >= best {
                (best, best_index) = (m, Some(a));
            }
        }
    }
    best_index
}

/// The hull of degenerate input: a point, the extreme pair of a collinear set, or the 2D hull
/// of a coplanar set computed in the plane.
fn lower_dimensional<T: Real>(points: &[Point<T, 3>], p: &[V3], eps: f64) -> Hull<T> {
    let (mut i0, mut i1, mut best) = (0, 0, -1.0);
    // Farthest pair among axis extremes, as in the simplex search.
    let first = p[0];
    let far = (0..p.len())
        .max_by(|&a, &b| (p[a] - first).norm_squared().total_cmp(&(p[b] - first).norm_squared()))
        .unwrap_or(0);
    for (i, q) in p.iter().enumerate() {
        let d = (q - p[far]).norm_squared();
        if d > best {
            (i0, i1, best) = (far, i, d);
        }
    }
    if best.sqrt() <= eps {
        return Hull::Point(points[0]);
    }
    let dir = (p[i1] - p[i0]).normalize();
    let off = |q: &V3| q - p[i0] - dir * (q - p[i0]).dot(&dir);
    let i2 = (0..p.len()).max_by(|&a, &b| off(&p[a]).norm().total_cmp(&off(&p[b]).norm())).unwrap_or(0);
    if off(&p[i2]).norm() <= eps {
        let lo = (0..p.len()).min_by(|&a, &b| p[a].dot(&dir).total_cmp(&p[b].dot(&dir))).unwrap_or(0);
        let hi = (0..p.len()).max_by(|&a, &b| p[a].dot(&dir).total_cmp(&p[b].dot(&dir))).unwrap_or(0);
        return Hull::Segment(points[lo], points[hi]);
    }
    // Project by dropping the coordinate the plane normal is largest in: exact (no rounding),
    // so collinear points on the hull boundary stay exactly collinear.
    let n = dir.cross(&off(&p[i2]));
    let drop = n.iamax();
    let (u, v) = ((drop + 1) % 3, (drop + 2) % 3);
    let flat: Vec<Point2<f64>> = p.iter().map(|q| Point2::new(q[u], q[v])).collect();
    let idx = convex_hull_2d_indices(&flat).unwrap_or_default();
    Hull::Polygon(idx.into_iter().map(|i| points[i]).collect())
}

/// Runs Quickhull from the initial tetrahedron; returns the faces (dead ones included), or
/// `None` when the simplex's faces do not close up (it was flat to rounding).
fn build(p: &[V3], s: [usize; 4], eps: f64) -> Option<Vec<Face>> {
    // Orient the tetrahedron: each face must have the fourth vertex behind it.
    // Room for about as many faces as Quickhull makes on a scanned surface (2,176 for the
    // bunny's 1,839 points): growing the array by doubling copied it six times.
    let mut faces: Vec<Face> = Vec::with_capacity((2 * p.len()).clamp(64, 1 << 16));
    for (a, b, c, opp) in [
        (s[0], s[1], s[2], s[3]),
        (s[0], s[3], s[1], s[2]),
        (s[1], s[3], s[2], s[0]),
        (s[2], s[3], s[0], s[1]),
    ] {
        let mut f = Face::new(p, [a, b, c]);
        if f.dist(&p[opp]) > 0.0 {
            f = Face::new(p, [a, c, b]);
        }
        faces.push(f);
    }
    for i in 0..4 {
        for k in 0..3 {
            let (a, b) = (faces[i].v[k], faces[i].v[(k + 1) % 3]);
            faces[i].nb[k] = (0..4).find(|&j| faces[j].edge(b, a).is_some())?;
        }
    }
    // Copies of the simplex's vertices stay out (as copies of each eye point do below): a copy
    // of a hull vertex lies on that vertex's faces only up to their normals' rounding, which
    // for a sliver face can exceed the tolerance, and a copy taken as an eye point later makes
    // zero-area faces (a node of FCL's scene with 3,900 points, 1,304 distinct, was rejected
    // as not convex that way).
    let mut orphans = Orphans::default();
    for (i, q) in p.iter().enumerate() {
        if !s.iter().any(|&j| p[j] == *q) {
            orphans.index.push(i);
        }
    }
    let mut conflicts = Conflicts::default();
    orphans.assign(&mut faces, 0..4, p, None, eps, &mut conflicts);
    let mut work: Vec<usize> = (0..4).collect();
    let mut horizon: Vec<(usize, usize, usize)> = Vec::new();
    let mut visible: Vec<usize> = Vec::new();
    let mut stack: Vec<(usize, usize, usize)> = Vec::new();
    while let Some(fi) = work.pop() {
        if !faces[fi].alive || faces[fi].outside.len == 0 {
            continue;
        }
        // The farthest point of the list (one distance per point; the first of equals wins).
        let face = &faces[fi];
        let list = conflicts.list(face.outside);
        let mut eye = list[0];
        let mut eye_dist = face.dist(&p[eye]);
        for &q in &list[1..] {
            let d = face.dist(&p[q]);
            if d > eye_dist {
                (eye, eye_dist) = (q, d);
            }
        }
        let e = p[eye];
        // Depth-first walk over visible faces; horizon edges come out in counter-clockwise order.
        horizon.clear();
        visible.clear();
        faces[fi].visible = true;
        visible.push(fi);
        stack.clear();
        stack.push((fi, 0, 0));
        while let Some(&mut (f, start, ref mut i)) = stack.last_mut() {
            if *i == 3 {
                stack.pop();
                continue;
            }
            let k = (start + *i) % 3;
            *i += 1;
            let g = faces[f].nb[k];
            if g >= faces.len() {
                // A face without this neighbour: the hull did not close up (flat to rounding).
                return None;
            }
            if faces[g].visible {
                continue;
            }
            if faces[g].dist(&e) > eps {
                faces[g].visible = true;
                visible.push(g);
                let (a, b) = (faces[f].v[k], faces[f].v[(k + 1) % 3]);
                let back = faces[g].edge(b, a).unwrap_or(0);
                // Walk g's edges starting with the one we entered through (it leads back to a
                // visible face and is skipped), so the horizon stays in order.
                stack.push((g, back, 0));
            } else {
                horizon.push((faces[f].v[k], faces[f].v[(k + 1) % 3], g));
            }
        }
        // New faces fanning from the eye.
        let first_new = faces.len();
        let m = horizon.len();
        for (j, &(a, b, g)) in horizon.iter().enumerate() {
            let mut nf = Face::new(p, [a, b, eye]);
            // The fan's neighbours wrap around the horizon (by comparisons, not a remainder by
            // `m`: two divisions per new face).
            let next = if j + 1 == m { 0 } else { j + 1 };
            let previous = if j == 0 { m - 1 } else { j - 1 };
            nf.nb = [g, first_new + next, first_new + previous];
            if let Some(k) = faces[g].edge(b, a) {
                faces[g].nb[k] = first_new + j;
            }
            faces.push(nf);
        }
        // Orphaned points go to the new face they are farthest outside, or are inside.
        for &vf in &visible {
            faces[vf].alive = false;
            orphans.index.extend_from_slice(conflicts.list(faces[vf].outside));
            conflicts.release(faces[vf].outside);
        }
        conflicts.compact_if_sparse(&mut faces);
        orphans.assign(&mut faces, first_new..first_new + m, p, Some(&e), eps, &mut conflicts);
        work.extend(first_new..first_new + m);
    }
    Some(faces)
}

/// `n · (x, y, z) + d`, summed left to right.
#[inline(always)]
fn plane_distance(n: &V3, d: f64, x: f64, y: f64, z: f64) -> f64 {
    n.x * x + n.y * y + n.z * z + d
}

/// Where a face's conflict list lies in [`Conflicts`]: `len` point indices from `start`.
#[derive(Clone, Copy, Debug)]
struct Run {
    start: usize,
    len: usize,
}

impl Run {
    const EMPTY: Run = Run { start: 0, len: 0 };
}

/// Every face's conflict list, each a run of one shared array. The lists of an eye's new faces
/// are written together at the end, bucketed by face (no list of its own per face: growing
/// one per face and copying into it was a tenth of a bunny hull's time, and those copies'
/// stores a fifth of its L1 write misses); a dead face's run becomes garbage, and the array is
/// compacted when the garbage outweighs the live runs and the faces
/// ([`Conflicts::compact_if_sparse`]).
#[derive(Default)]
struct Conflicts {
    points: Vec<usize>,
    /// Entries in live runs.
    live: usize,
    /// Scratch of the compaction (kept to reuse its allocation).
    spare: Vec<usize>,
}

impl Conflicts {
    /// Below this many entries the array is never compacted.
    const COMPACT_MIN: usize = 4096;

    fn list(&self, run: Run) -> &[usize] {
        &self.points[run.start..run.start + run.len]
    }

    /// Marks a dead face's run as garbage.
    fn release(&mut self, run: Run) {
        self.live -= run.len;
    }

    /// Copies the live faces' runs to the front once the garbage outweighs both the live
    /// entries and the faces (and [`Conflicts::COMPACT_MIN`]): the array stays within a
    /// constant factor of the points and faces, and the compaction (a pass over the faces and
    /// a copy of the live entries) is paid for by the garbage written since the last one.
    fn compact_if_sparse(&mut self, faces: &mut [Face]) {
        let garbage = self.points.len() - self.live;
        if garbage < Self::COMPACT_MIN.max(self.live).max(faces.len()) {
            return;
        }
        self.spare.clear();
        // Every live face is moved, empty runs too (an empty run left past the new end would
        // not slice).
        for face in faces.iter_mut().filter(|f| f.alive) {
            let start = self.spare.len();
            self.spare
                .extend_from_slice(&self.points[face.outside.start..face.outside.start + face.outside.len]);
            face.outside.start = start;
        }
        core::mem::swap(&mut self.points, &mut self.spare);
    }
}

/// Points waiting for a face: the orphans of an eye's visible faces (or, at the start, every
/// point). [`Orphans::assign`] copies them into coordinate columns so that one face's distances
/// to all of them are computed lane by lane. The scratch vectors only ever grow (their first `n`
/// entries are overwritten on each call), so the steady state neither allocates nor clears.
#[derive(Default)]
struct Orphans {
    /// The waiting points' indices, filled by the caller.
    index: Vec<usize>,
    x: Vec<f64>,
    y: Vec<f64>,
    z: Vec<f64>,
    /// Per point of a block: the largest distance outside a face so far (starting at the
    /// tolerance).
    best: Vec<f64>,
    /// Per waiting point: that face, as an offset into the range (`u64::MAX` while none).
    face: Vec<u64>,
    /// Per face of the range, and one more for the points inside them all: where its points
    /// start (a counting sort's bucket starts).
    bucket_start: Vec<usize>,
}

/// `v[..n]`, grown with zeros if it is shorter.
fn prefix<T: Copy + Default>(v: &mut Vec<T>, n: usize) -> &mut [T] {
    if v.len() < n {
        v.resize(n, T::default());
    }
    &mut v[..n]
}

impl Orphans {
    /// Puts every waiting point on the conflict list of the face in `range` it is farthest
    /// outside of (ties go to the first such face), drops the points inside all of them and
    /// those within the tolerance of `eye` (they are the eye, to rounding), and empties the
    /// batch. The first face a point is outside of would do in exact arithmetic, but with the
    /// tolerance a point barely outside its first face was later dropped while far outside
    /// another (fuzz finding 21): the farthest face keeps the largest margin.
    ///
    /// Faces are the outer loop so that the inner one, over the points' coordinate columns,
    /// runs in SIMD lanes, its selects made of masks rather than branches; this is most of the
    /// build's work (about six new faces and thirty orphans per eye on the bunny). The range's
    /// lists are then filed in one counting sort, straight into `conflicts`.
    fn assign(
        &mut self,
        faces: &mut [Face],
        range: core::ops::Range<usize>,
        p: &[V3],
        eye: Option<&V3>,
        eps: f64,
        conflicts: &mut Conflicts,
    ) {
        let mut index = core::mem::take(&mut self.index);
        let n = index.len();
        if !range.is_empty() && n > 0 {
            // Without an eye, a point at infinity: no point is near it (the coordinates are
            // finite, so the squared distance is +∞, never NaN).
            let e = eye.copied().unwrap_or(V3::repeat(f64::INFINITY));
            // In blocks, so the scratch columns stay small (and in cache) when the first eyes
            // of a large cloud orphan hundreds of thousands of points.
            let mut face = core::mem::take(&mut self.face);
            let face_of = prefix(&mut face, n);
            for (block, face_of) in index.chunks(Self::BLOCK).zip(face_of.chunks_mut(Self::BLOCK)) {
                self.assign_block(&faces[range.clone()], p, block, face_of, &e, eps);
            }
            self.file(faces, range, &index, face_of, conflicts);
            self.face = face;
        }
        index.clear();
        self.index = index;
    }

    /// Points per block of [`Orphans::assign`].
    const BLOCK: usize = 256;

    /// Sets `face_of[k]` to the face of `candidates` (as an index into it) that point `block[k]`
    /// is farthest outside of, `u64::MAX` for none; near `e` means within `eps`.
    fn assign_block(
        &mut self,
        candidates: &[Face],
        p: &[V3],
        block: &[usize],
        face_of: &mut [u64],
        e: &V3,
        eps: f64,
    ) {
        let n = block.len();
        let (x, y, z) = (prefix(&mut self.x, n), prefix(&mut self.y, n), prefix(&mut self.z, n));
        for (k, &i) in block.iter().enumerate() {
            (x[k], y[k], z[k]) = (p[i].x, p[i].y, p[i].z);
        }
        let best = prefix(&mut self.best, n);
        // The first face sets every point's entries (no clearing pass); a point near the eye
        // gets an infinite threshold, which no face beats.
        let (normal, offset) = (candidates[0].n, candidates[0].d);
        for k in 0..n {
            let (dx, dy, dz) = (x[k] - e.x, y[k] - e.y, z[k] - e.z);
            let threshold = if dx * dx + dy * dy + dz * dz > eps * eps { eps } else { f64::INFINITY };
            let d = plane_distance(&normal, offset, x[k], y[k], z[k]);
            let farther = d > threshold;
            best[k] = if farther { d } else { threshold };
            face_of[k] = if farther { 0 } else { u64::MAX };
        }
        for (id, later) in (1u64..).zip(&candidates[1..]) {
            let (normal, offset) = (later.n, later.d);
            for k in 0..n {
                let d = plane_distance(&normal, offset, x[k], y[k], z[k]);
                // Selects by masks rather than branches, so the loop runs in SIMD lanes.
                let farther = ((d > best[k]) as u64).wrapping_neg();
                best[k] = f64::from_bits((d.to_bits() & farther) | (best[k].to_bits() & !farther));
                face_of[k] = (id & farther) | (face_of[k] & !farther);
            }
        }
    }

    /// Files the points `index` (point `index[k]` going to face offset `face_of[k]` of `range`,
    /// `u64::MAX` for none) as the range's conflict lists, by a counting sort over the faces
    /// with no branch on whether a point was taken (as good as random): the points inside every
    /// face land in one extra bucket past the range's, which is then cut off. Each list keeps
    /// the points' order (the eye search's ties go the same way as before).
    fn file(
        &mut self,
        faces: &mut [Face],
        range: core::ops::Range<usize>,
        index: &[usize],
        face_of: &[u64],
        conflicts: &mut Conflicts,
    ) {
        let faces_in_range = range.len();
        let start = prefix(&mut self.bucket_start, faces_in_range + 2);
        start.fill(0);
        for &f in face_of {
            start[f.min(faces_in_range as u64) as usize + 1] += 1;
        }
        for j in 0..=faces_in_range {
            start[j + 1] += start[j];
        }
        let base = conflicts.points.len();
        let taken = start[faces_in_range];
        conflicts.points.resize(base + index.len(), 0);
        let filed = &mut conflicts.points[base..];
        for (&i, &f) in index.iter().zip(face_of) {
            let bucket = &mut start[f.min(faces_in_range as u64) as usize];
            filed[*bucket] = i;
            *bucket += 1;
        }
        conflicts.points.truncate(base + taken);
        conflicts.live += taken;
        // Each bucket's start has moved to the next one's: bucket j is now
        // `start[j - 1]..start[j]` (from 0 for j = 0).
        for j in 0..faces_in_range {
            let from = if j == 0 { 0 } else { start[j - 1] };
            faces[range.start + j].outside = Run { start: base + from, len: start[j] - from };
        }
    }
}

/// Merges coplanar neighbouring triangles into polygons and builds the polyhedron.
///
/// Each polygon grows from its largest unmerged triangle (the best-conditioned plane) over
/// neighbours whose three vertices all lie within the tolerance of that seed plane. Testing
/// against the seed's plane rather than the neighbour's keeps a chain of nearly coplanar
/// triangles from drifting around a curved surface, and testing vertices rather than normals
/// keeps slivers (whose normals are rounding noise) with the face they lie in: a sliver left out
/// would leave a hole in the polygon. A group whose rim is still not one simple loop (possible
/// only through rounding) is emitted as its triangles, which are valid faces too.
fn to_polyhedron<T: Real>(
    points: &[Point<T, 3>],
    p: &[V3],
    faces: &[Face],
    eps: f64,
) -> GeomResult<ConvexPolyhedron<T>> {
    // Largest area first, keyed by the squared area's bits (a non-negative float orders as its
    // bits do; inverted for descending order), which sort as plain integers.
    let mut order: Vec<(u64, usize)> = (0..faces.len())
        .filter(|&f| faces[f].alive)
        .map(|f| {
            let [a, b, c] = faces[f].v;
            (!(p[b] - p[a]).cross(&(p[c] - p[a])).norm_squared().to_bits(), f)
        })
        .collect();
    // The index breaks ties, so an unstable sort gives the same order as a stable one.
    order.sort_unstable();
    const NONE: usize = usize::MAX;
    let mut group = vec![NONE; faces.len()];
    // Every group's members, one group after another; group k is
    // `members[group_start[k]..group_start[k + 1]]` (one allocation for all of them).
    let mut members: Vec<usize> = Vec::with_capacity(order.len());
    let mut group_start: Vec<usize> = vec![0];
    let mut stack = Vec::new();
    for &(_, seed) in &order {
        if group[seed] != NONE {
            continue;
        }
        let id = group_start.len() - 1;
        let (n, d) = (faces[seed].n, faces[seed].d);
        let on_plane = |f: &Face| f.v.iter().all(|&v| (n.dot(&p[v]) + d).abs() <= eps);
        members.push(seed);
        group[seed] = id;
        stack.push(seed);
        while let Some(f) = stack.pop() {
            for &g in &faces[f].nb {
                if group[g] == NONE && on_plane(&faces[g]) {
                    group[g] = id;
                    members.push(g);
                    stack.push(g);
                }
            }
        }
        group_start.push(members.len());
    }
    let mut remap = vec![NONE; p.len()];
    let mut vertices: Vec<Point<T, 3>> = Vec::new();
    // The output faces' vertex loops, one after another in one array; `face_ends[k]` is where
    // face k's loop ends.
    let mut loops: Vec<usize> = Vec::with_capacity(3 * faces.len());
    let mut face_ends: Vec<usize> = Vec::with_capacity(group_start.len());
    let mut add_face = |lp: &[usize], loops: &mut Vec<usize>| {
        loops.extend(lp.iter().map(|&v| {
            if remap[v] == NONE {
                remap[v] = vertices.len();
                vertices.push(points[v]);
            }
            remap[v]
        }));
        face_ends.push(loops.len());
    };
    // `next[v]`: the rim successor of vertex v in the group being traced (reset after).
    let mut next = vec![NONE; p.len()];
    let (mut rim, mut lp) = (Vec::new(), Vec::new());
    for id in 0..group_start.len() - 1 {
        let members = &members[group_start[id]..group_start[id + 1]];
        rim.clear();
        lp.clear();
        let mut simple = true;
        for &f in members {
            for k in 0..3 {
                if group[faces[f].nb[k]] != id {
                    let v = faces[f].v[k];
                    // A vertex starting two rim edges: the rim pinches there.
                    simple &= next[v] == NONE;
                    next[v] = faces[f].v[(k + 1) % 3];
                    rim.push(v);
                }
            }
        }
        simple &= !rim.is_empty();
        if simple {
            let start = rim[0];
            let mut cur = start;
            loop {
                lp.push(cur);
                cur = next[cur];
                if cur == start || cur == NONE || lp.len() > rim.len() {
                    break;
                }
            }
            // One loop through every rim edge, or the group has a hole or is split.
            simple = cur == start && lp.len() == rim.len();
        }
        if simple && members.len() > 1 {
            simple = interior_vertices_inside_rim(p, faces, members, &lp, &next, faces[members[0]].n, eps);
        }
        for &v in &rim {
            next[v] = NONE;
        }
        if simple {
            add_face(&lp, &mut loops);
        } else {
            for &f in members {
                add_face(&faces[f].v, &mut loops);
            }
        }
    }
    let out_faces: Vec<&[usize]> =
        face_ends.iter().scan(0, |start, &end| Some(&loops[core::mem::replace(start, end)..end])).collect();
    // The polyhedron's check that every vertex lies behind every face (O(F·V)) stays: on thin
    // hostile sets rounding bends face planes in ways no cheaper check caught (fuzz findings
    // 29, 30 and 32), and a refused hull is better than a wrong one.
    ConvexPolyhedron::from_face_slices(vertices, &out_faces)
}

/// Whether every vertex of a merged group's triangles that is not on the group's rim (`rim`, in
/// order; `next` holds the rim successor of each rim vertex, `usize::MAX` elsewhere) lies inside
/// the rim polygon, within `eps`, in the plane of normal `n`.
///
/// In exact arithmetic an interior vertex is a coplanar point taken as an eye, inside the
/// polygon. Rounding on sets spanning 10¹⁰ can fold triangles over each other instead (a fan of
/// slivers around a vertex whose normals point opposite ways), and merging the fold swallowed a
/// real hull vertex lying 10⁶ outside the rim (fuzz finding 33). Such a group is emitted as its
/// triangles, which puts the vertex back under the polyhedron's convexity check.
fn interior_vertices_inside_rim(
    p: &[V3],
    faces: &[Face],
    members: &[usize],
    rim: &[usize],
    next: &[usize],
    n: V3,
    eps: f64,
) -> bool {
    const NONE: usize = usize::MAX;
    members.iter().flat_map(|&f| faces[f].v).filter(|&v| next[v] == NONE).all(|v| {
        rim.iter().all(|&a| {
            let b = next[a];
            // The rim runs counter-clockwise seen from outside: (b − a) × n points out of it.
            let out = (p[b] - p[a]).cross(&n);
            out.dot(&(p[v] - p[a])) <= eps * out.norm()
        })
    })
}
