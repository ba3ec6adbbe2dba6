use crate::directions::widest_angle_edges;
use crate::validate;
use crate::{gt_mask, Aabb, GeomError, GeomResult, Obb, Plane, Point, Real, Vector};
use nalgebra::Vector3;

/// One face of a [`ConvexPolyhedron`]: its outward plane and a range of vertex indices.
///
/// An edge of a convex polyhedron: its two vertices and the two faces that meet along it (what
/// SAT's Gauss-map pruning of edge pairs needs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Edge {
    /// Vertex indices, the smaller first.
    pub vertices: [u32; 2],
    /// The two adjacent face indices.
    pub faces: [u32; 2],
}

/// Faces are serialized only as part of their polyhedron (as vertex index lists).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Face<T: Real> {
    /// Supporting plane; the normal points out of the solid (inside is `signed_distance ≤ 0`).
    pub plane: Plane<T, 3>,
    first: u32,
    count: u32,
}

/// A convex polyhedron (3D): vertices, faces with outward planes, and vertex adjacency.
///
/// The adjacency (which vertices share an edge) makes [`ConvexPolyhedron::support_index`] a hill
/// climb over the vertex graph, `O(√n)` steps on typical hulls instead of an `O(n)` scan
/// (it switches to the scan below 64 vertices, where the scan is faster).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        into = "crate::serde_impl::ConvexPolyhedronRepr<T>",
        try_from = "crate::serde_impl::ConvexPolyhedronRepr<T>",
        bound(
            serialize = "T: Real + serde::Serialize",
            deserialize = "T: Real + serde::de::DeserializeOwned"
        )
    )
)]
pub struct ConvexPolyhedron<T: Real> {
    vertices: Vec<Point<T, 3>>,
    faces: Vec<Face<T>>,
    face_vertex_indices: Vec<u32>,
    neighbor_offsets: Vec<u32>,
    neighbors: Vec<u32>,
    /// Mean of the vertices (inside the solid): the interior point of support-map queries.
    centroid: Point<T, 3>,
    edges: Vec<Edge>,
    /// The vertices' coordinates as separate arrays, for the lane-wise support scan.
    soa: Soa<T>,
    /// Radius of a ball around `centroid` inside the solid (see [`ConvexPolyhedron::inner_radius`]).
    inner_radius: T,
    /// Largest distance from `centroid` to a vertex (see [`ConvexPolyhedron::outer_radius`]).
    outer_radius: T,
}

impl<T: Real> ConvexPolyhedron<T> {
    /// Hulls with at least this many vertices answer support queries by hill climbing over
    /// vertex neighbours; smaller ones by a linear scan (measured faster there). Callers that
    /// choose between support calls and a pass over the vertices use the same threshold.
    pub const HILL_CLIMB_MIN_VERTICES: usize = 64;

    /// A polyhedron from vertices and faces (each a list of ≥ 3 vertex indices around the face,
    /// either winding: faces are re-oriented outward). Errors: bad coordinates, an index out of
    /// range, a face with fewer than three vertices or zero area, and
    /// [`GeomError::NotConvex`] when a vertex lies outside a face plane by more than `8·√ε`
    /// of the polyhedron's size plus 4 ulps of its largest coordinate (a face of four or more
    /// vertices rounded to `T` is planar only to about an ulp of them).
    pub fn from_faces(vertices: Vec<Point<T, 3>>, faces: &[Vec<usize>]) -> GeomResult<Self> {
        Self::from_face_slices(vertices, faces)
    }

    /// [`ConvexPolyhedron::from_faces`] for faces of any type that reads as a slice of vertex
    /// indices: `[usize; 4]` arrays, or `&[usize]` views into one flat array (what the hull
    /// builder passes, sparing one allocation per face). Same checks, same errors.
    pub fn from_face_slices<F: AsRef<[usize]>>(vertices: Vec<Point<T, 3>>, faces: &[F]) -> GeomResult<Self> {
        if vertices.len() < 4 || faces.len() < 4 {
            return Err(GeomError::TooFewPoints);
        }
        vertices.iter().try_for_each(validate::point)?;
        let centroid =
            vertices.iter().fold(Vector3::zeros(), |s, p| s + p.coords) / T::lit(vertices.len() as f64);
        // The faces' planes are fitted and checked relative to the centroid: a small solid far
        // from the origin (a 0.01-wide hull at 10³ in `f32`, a unit box at 4.5·10⁴) otherwise
        // had its check drowned in the rounding of dot products with coordinates 10⁵ times its
        // size, and was refused as not convex. Relative to a nearby point the differences are
        // exact and the products are as small as the solid.
        let relative: Vec<Point<T, 3>> = vertices.iter().map(|p| Point::from(p.coords - centroid)).collect();
        let extent = relative.iter().map(|p| p.coords.amax()).fold(T::zero(), |a, b| a.max(b));
        // What is left is the coordinates' own quantization: a face of four or more vertices
        // rounded to `T` is planar only to about an ulp of the largest coordinate, so that much
        // (a few ulps, to be safe) is allowed beside the relative tolerance.
        let magnitude = centroid.amax() + extent;
        let tol = T::epsilon().sqrt() * T::lit(8.0) * extent + T::epsilon() * T::lit(4.0) * magnitude;
        let soa = Soa::new(&vertices);
        let relative_soa = Soa::new(&relative);
        let mut out_faces = Vec::with_capacity(faces.len());
        let mut indices = Vec::new();
        // Directed edges both ways, sorted into compressed rows below (one allocation).
        let mut edges: Vec<(u32, u32)> = Vec::with_capacity(faces.iter().map(|f| 2 * f.as_ref().len()).sum());
        for face in faces {
            let face = face.as_ref();
            if face.len() < 3 {
                return Err(GeomError::TooFewPoints);
            }
            if face.iter().any(|&i| i >= vertices.len()) {
                return Err(GeomError::IndexOutOfBounds);
            }
            // Relative to the centroid, as above.
            let v = |i: usize| &relative[i].coords;
            let fc = face.iter().fold(Vector3::zeros(), |s, &i| s + v(i)) / T::lit(face.len() as f64);
            // A triangle's normal crosses the two edges at its widest angle (a sliver with one
            // far vertex got a normal from the centroid sum that put the opposite vertex of a
            // tetrahedron 5,000 units outside: fuzz finding 29); a polygon's is Newell's sum.
            let n = if let [a, b, c] = face[..] {
                let (e0, e1) = widest_angle_edges(v(a), v(b), v(c));
                e0.cross(&e1)
            } else {
                let mut n = Vector3::zeros();
                for (i, j) in loop_edges(face) {
                    n += (v(i) - fc).cross(&(v(j) - fc));
                }
                n
            };
            let mut relative_plane =
                Plane::from_point_normal(Point::from(fc), n).map_err(|_| GeomError::Degenerate)?;
            // The centroid, now the origin, must be behind the face (its signed distance, the
            // plane's offset, not positive).
            if relative_plane.d() > T::zero() {
                relative_plane = relative_plane.flipped();
            }
            let normal = *relative_plane.normal();
            if max_projection(&relative_soa, &normal) + relative_plane.d() > tol {
                return Err(GeomError::NotConvex);
            }
            // Back in place: the offset of the plane through the face's centre.
            let plane = Plane::from_unit_normal(normal, -normal.dot(&(fc + centroid)));
            out_faces.push(Face { plane, first: indices.len() as u32, count: face.len() as u32 });
            for (i, j) in loop_edges(face) {
                indices.push(i as u32);
                edges.push((i as u32, j as u32));
                edges.push((j as u32, i as u32));
            }
        }
        // Bucket the directed edges by start vertex (counting sort), then drop each row's
        // repeats (an edge comes once from each of its faces) by marking the vertices seen in
        // the row: linear in the number of edges, and without a branch per entry (sorting the
        // short rows was about a sixth of a bunny hull's mispredicted branches).
        let mut start = vec![0u32; vertices.len() + 1];
        for &(a, _) in &edges {
            start[a as usize + 1] += 1;
        }
        for v in 0..vertices.len() {
            start[v + 1] += start[v];
        }
        let mut fill = start.clone();
        let mut bucketed = vec![0u32; edges.len()];
        for &(a, b) in &edges {
            bucketed[fill[a as usize] as usize] = b;
            fill[a as usize] += 1;
        }
        let mut neighbor_offsets = Vec::with_capacity(vertices.len() + 1);
        neighbor_offsets.push(0u32);
        // Compacted in place: every entry is written at the end of the kept ones (never past
        // the entry being read) and kept only if new to the row.
        let mut neighbors = bucketed;
        let mut kept = 0;
        let mut seen_in_row = vec![u32::MAX; vertices.len()];
        for v in 0..vertices.len() {
            for i in start[v] as usize..start[v + 1] as usize {
                let b = neighbors[i];
                neighbors[kept] = b;
                kept += usize::from(seen_in_row[b as usize] != v as u32);
                seen_in_row[b as usize] = v as u32;
            }
            neighbor_offsets.push(kept as u32);
        }
        neighbors.truncate(kept);
        let (edges, closed) = edge_table(&indices, &out_faces, vertices.len());
        let outer_radius = vertices.iter().fold(T::zero(), |m, p| m.max((p.coords - centroid).norm()));
        let inner_radius =
            if closed { inner_radius(&vertices, &indices, &out_faces, &centroid, extent) } else { T::zero() };
        Ok(ConvexPolyhedron {
            vertices,
            faces: out_faces,
            face_vertex_indices: indices,
            neighbor_offsets,
            neighbors,
            centroid: Point::from(centroid),
            edges,
            soa,
            inner_radius,
            outer_radius,
        })
    }

    /// The radius of a ball around [`ConvexPolyhedron::vertex_mean`] inside the solid, for
    /// boolean queries' early accept ([`crate::SupportMap::inner_radius`]): the smallest
    /// distance from the mean to a face, taken over each face's own vertices so that slightly
    /// non-planar faces are bounded too, less a rounding allowance. `0` when the faces do not
    /// close up (an edge not shared by exactly two faces): then they need not bound the solid.
    #[inline]
    pub fn inner_radius(&self) -> T {
        self.inner_radius
    }

    /// The largest distance from [`ConvexPolyhedron::vertex_mean`] to a vertex: the radius of
    /// a ball around it holding the solid ([`crate::SupportMap::outer_radius`]).
    #[inline]
    pub fn outer_radius(&self) -> T {
        self.outer_radius
    }

    /// The edges with their two adjacent faces (each edge once).
    #[inline]
    pub fn edges(&self) -> &[Edge] {
        &self.edges
    }

    /// The mean of the vertices, a point inside the solid.
    #[inline]
    pub fn vertex_mean(&self) -> &Point<T, 3> {
        &self.centroid
    }

    /// The eight-vertex polyhedron of an AABB. Error: a flat box ([`GeomError::Degenerate`]).
    pub fn from_aabb(aabb: &Aabb<T, 3>) -> GeomResult<Self> {
        Self::box_from_corners((0..8).map(|b| aabb.corner(b)).collect())
    }

    /// The eight-vertex polyhedron of an OBB. Error: a flat box ([`GeomError::Degenerate`]).
    pub fn from_obb(obb: &Obb<T, 3>) -> GeomResult<Self> {
        let local = obb.local_aabb();
        Self::box_from_corners((0..8).map(|b| obb.to_world(&local.corner(b))).collect())
    }

    fn box_from_corners(corners: Vec<Point<T, 3>>) -> GeomResult<Self> {
        Self::from_face_slices(corners, &BOX_FACES)
    }

    /// The vertices.
    #[inline(always)]
    pub fn vertices(&self) -> &[Point<T, 3>] {
        &self.vertices
    }
    /// The faces (outward planes).
    #[inline(always)]
    pub fn faces(&self) -> &[Face<T>] {
        &self.faces
    }
    /// Vertex indices of a face, in order around it.
    pub fn face_vertices(&self, face: &Face<T>) -> &[u32] {
        &self.face_vertex_indices[face.first as usize..(face.first + face.count) as usize]
    }
    /// Indices of the vertices sharing an edge with vertex `v`.
    #[inline]
    pub fn neighbors(&self, v: usize) -> &[u32] {
        &self.neighbors[self.neighbor_offsets[v] as usize..self.neighbor_offsets[v + 1] as usize]
    }
    /// Volume, by the divergence theorem over the faces (each face fanned into triangles from
    /// its first vertex, tetrahedra to the centroid of the vertices). O(V + F).
    pub fn volume(&self) -> T {
        let c = self.vertices.iter().fold(Vector::<T, 3>::zeros(), |s, p| s + p.coords)
            / T::lit(self.vertices.len() as f64);
        let mut six_v = T::zero();
        for f in &self.faces {
            let idx = self.face_vertices(f);
            let a = self.vertices[idx[0] as usize].coords - c;
            for w in idx[1..].windows(2) {
                let b = self.vertices[w[0] as usize].coords - c;
                let d = self.vertices[w[1] as usize].coords - c;
                six_v += a.dot(&b.cross(&d)).abs();
            }
        }
        six_v / T::lit(6.0)
    }

    /// Surface area: the sum of the faces' areas. O(V + F).
    pub fn surface_area(&self) -> T {
        let mut twice = T::zero();
        for f in &self.faces {
            let idx = self.face_vertices(f);
            let a = self.vertices[idx[0] as usize].coords;
            for w in idx[1..].windows(2) {
                let b = self.vertices[w[0] as usize].coords;
                let d = self.vertices[w[1] as usize].coords;
                twice += (b - a).cross(&(d - a)).norm();
            }
        }
        twice * T::lit(0.5)
    }

    /// Is `p` inside or on every face plane?
    pub fn contains_point(&self, p: &Point<T, 3>) -> bool {
        self.faces.iter().all(|f| f.plane.signed_distance(p) <= T::zero())
    }

    /// Index of a vertex maximizing `dir · v`, starting the climb at `hint` (pass the previous
    /// answer for temporal coherence). Linear scan below 64 vertices (measured faster than the
    /// climb there: no neighbour lists to chase), hill climbing above.
    ///
    /// Inlined into its callers with the scan (GJK's loop then keeps its values in registers
    /// across the two support calls of a step instead of spilling them around calls); the
    /// climb stays out of line.
    #[inline]
    pub fn support_index(&self, dir: &Vector<T, 3>, hint: usize) -> usize {
        if self.vertices.len() < Self::HILL_CLIMB_MIN_VERTICES {
            lanes_support(&self.soa, dir)
        } else {
            self.climb(dir, hint)
        }
    }

    /// The hill climb of [`ConvexPolyhedron::support_index`] from vertex `hint`.
    #[inline(never)]
    fn climb(&self, dir: &Vector<T, 3>, hint: usize) -> usize {
        let mut best = hint.min(self.vertices.len() - 1);
        let mut best_dot = dir.dot(&self.vertices[best].coords);
        // Each step strictly increases the dot product, so the climb ends; on a convex
        // polytope a vertex with no better neighbour is a global maximum.
        loop {
            let mut improved = false;
            for &n in self.neighbors(best) {
                let d = dir.dot(&self.vertices[n as usize].coords);
                if d > best_dot {
                    best_dot = d;
                    best = n as usize;
                    improved = true;
                }
            }
            if !improved {
                return best;
            }
        }
    }
}

/// Every edge once with its two faces: the faces' consecutive vertex pairs, sorted so that the
/// two half-edges of an edge are adjacent. O(E log E).
/// Lower bound on the distance from `center` to every face: each face's points are convex
/// combinations of its vertices, so none is nearer along the face's outward normal than the
/// nearest of them, and a point's distance is at least its offset along a unit normal. When the
/// faces close up around `center` (every ray from it crosses one), the ball of that radius is
/// inside the solid.
fn inner_radius<T: Real>(
    vertices: &[Point<T, 3>],
    indices: &[u32],
    faces: &[Face<T>],
    center: &Vector3<T>,
    extent: T,
) -> T {
    let mut nearest = T::infinity();
    for face in faces {
        let n = face.plane.normal();
        for &i in &indices[face.first as usize..(face.first + face.count) as usize] {
            nearest = nearest.min(n.dot(&(vertices[i as usize].coords - center)));
        }
    }
    // The normal's and the offsets' rounding: a few ulps of the polyhedron's size.
    (nearest - T::epsilon() * T::lit(16.0) * extent).max(T::zero())
}

/// The faces of a box whose corner `b` has bit `i` set when it is at the maximum on axis `i`:
/// each a cycle around one side.
const BOX_FACES: [[usize; 4]; 6] =
    [[0, 2, 6, 4], [1, 5, 7, 3], [0, 4, 5, 1], [2, 3, 7, 6], [0, 1, 3, 2], [4, 6, 7, 5]];

/// The edges of a closed loop of vertices, `(v[k], v[k + 1])` with the last wrapping to the
/// first, with no remainder by the loop's length (a division per edge).
fn loop_edges<I: Copy>(v: &[I]) -> impl Iterator<Item = (I, I)> + '_ {
    v.iter().copied().zip(v.iter().skip(1).chain(v.first()).copied())
}

/// Every face's edges as `(smaller vertex, larger vertex, face)`, face by face.
fn half_edges<T: Real>(indices: &[u32], faces: &[Face<T>]) -> Vec<(u32, u32, u32)> {
    let mut half = Vec::with_capacity(indices.len());
    for (f, face) in faces.iter().enumerate() {
        let v = &indices[face.first as usize..(face.first + face.count) as usize];
        for (a, b) in loop_edges(v) {
            half.push((a.min(b), a.max(b), f as u32));
        }
    }
    half
}

/// The edge table, and whether the faces close up: every edge shared by exactly two faces.
///
/// The half-edges are bucketed by their smaller vertex (a counting sort, linear) and each short
/// bucket sorted by (larger vertex, face): the same order as sorting them all, at a fraction of
/// the cost (a global sort of the 3,600 half-edges of the bunny's hull was a tenth of building
/// it). Edges come out sorted by vertex pair, each with its faces in increasing order.
fn edge_table<T: Real>(indices: &[u32], faces: &[Face<T>], vertex_count: usize) -> (Vec<Edge>, bool) {
    let half = half_edges(indices, faces);
    let mut start = vec![0u32; vertex_count + 1];
    for &(lo, _, _) in &half {
        start[lo as usize + 1] += 1;
    }
    for v in 0..vertex_count {
        start[v + 1] += start[v];
    }
    let mut fill = start.clone();
    // (larger vertex, face) per half-edge, grouped by smaller vertex.
    let mut bucketed = vec![(0u32, 0u32); half.len()];
    for &(lo, hi, f) in &half {
        bucketed[fill[lo as usize] as usize] = (hi, f);
        fill[lo as usize] += 1;
    }
    let mut edges = Vec::with_capacity(indices.len() / 2);
    let mut closed = true;
    for lo in 0..vertex_count {
        let row = &mut bucketed[start[lo] as usize..start[lo + 1] as usize];
        row.sort_unstable();
        for w in row.windows(2) {
            if w[0].0 == w[1].0 {
                edges.push(Edge { vertices: [lo as u32, w[0].0], faces: [w[0].1, w[1].1] });
            }
        }
        // Closed: the half-edges pair up, two and only two per vertex pair.
        closed &= row.len() % 2 == 0
            && row.chunks_exact(2).all(|p| p[0].0 == p[1].0)
            && row.windows(3).all(|w| w[0].0 != w[2].0);
    }
    (edges, closed)
}

/// Vertex coordinates as separate arrays, so the support scan (and with it the convexity
/// check, every vertex against every face, O(V·F)) runs as a vectorizable lane-wise arg-max.
/// One allocation, all x then all y then all z (one `Vec` keeps the polyhedron small: it sits
/// inside shape enums). Each array is padded to a whole number of [`LANES`]-vertex chunks with
/// copies of vertex 0, so the scans have no remainder loop: a copy ties with vertex 0 and comes
/// after it, so it never changes the first vertex at the maximum, nor the maximum itself.
#[derive(Clone, Debug, PartialEq)]
struct Soa<T> {
    xyz: Vec<T>,
    /// Length of each coordinate array: the vertex count rounded up to a multiple of [`LANES`].
    padded: usize,
    /// The vertex count.
    count: usize,
}

/// Vertices per chunk of the lane-wise scans: eight `f32` fill two SSE registers (one AVX
/// register), and the eight running maxima of a chunk carry no dependency between them.
const LANES: usize = 8;

impl<T: Real> Soa<T> {
    fn new(v: &[Point<T, 3>]) -> Self {
        let padded = v.len().div_ceil(LANES) * LANES;
        // Plain loops into one zeroed allocation: an iterator chain choosing vertex 0 for the
        // padding per element took 130 instructions a vertex (42k for a bunny hull's 319).
        let mut xyz = vec![T::zero(); 3 * padded];
        let (x, yz) = xyz.split_at_mut(padded);
        let (y, z) = yz.split_at_mut(padded);
        for (i, p) in v
            .iter()
            .chain(core::iter::repeat_n(v.first().unwrap_or(&Point::origin()), padded - v.len()))
            .enumerate()
        {
            (x[i], y[i], z[i]) = (p.x, p.y, p.z);
        }
        Soa { xyz, padded, count: v.len() }
    }
    fn x(&self) -> &[T] {
        &self.xyz[..self.padded]
    }
    fn y(&self) -> &[T] {
        &self.xyz[self.padded..2 * self.padded]
    }
    fn z(&self) -> &[T] {
        &self.xyz[2 * self.padded..3 * self.padded]
    }
}

/// `max_v n·v` over the vertices, −∞ when no projection compares (a NaN normal). Eight
/// running maxima over the coordinate arrays, each a packed multiply-add and `max` per eight
/// vertices: the convexity check of [`ConvexPolyhedron::from_faces`] calls this once per face
/// (O(F·V)), and it needs the value only, not the vertex, so it skips the index blends of
/// [`lanes_support`] (1.8× faster on a hull's 384 vertices).
fn max_projection<T: Real>(soa: &Soa<T>, n: &Vector<T, 3>) -> T {
    let mut best = [-T::infinity(); LANES];
    for ((cx, cy), cz) in
        soa.x().chunks_exact(LANES).zip(soa.y().chunks_exact(LANES)).zip(soa.z().chunks_exact(LANES))
    {
        for l in 0..LANES {
            let s = n.x * cx[l] + n.y * cy[l] + n.z * cz[l];
            best[l] = if s > best[l] { s } else { best[l] };
        }
    }
    best.iter().fold(-T::infinity(), |m, &x| if x > m { x } else { m })
}

/// [`linear_support`] over coordinate arrays, eight vertices at a time: each lane keeps its own
/// best projection and vertex, updated by selects (packed compare-and-blend instructions, no
/// branch, no chain from one vertex to the next within a lane group), then the lanes are
/// merged. The same answer as the scan: the first vertex reaching the largest projection
/// (ties go to the smallest index), vertex 0 when no projection compares (a NaN direction).
#[inline(always)]
fn lanes_support<T: Real>(soa: &Soa<T>, n: &Vector<T, 3>) -> usize {
    if soa.padded == LANES {
        // One chunk (hulls of up to eight vertices): each lane's projection is its vertex's,
        // so there is no running maximum nor chunk number to keep, and the first lane at the
        // maximum is a mask's lowest bit.
        // A plain loop, not `core::array::from_fn`: under thin LTO (the bench profile) that
        // stayed an out-of-line call, and the GJK distance of two 8-vertex hulls took 4,275
        // instructions (3,412 with the loop).
        let (cx, cy, cz) = (soa.x(), soa.y(), soa.z());
        let mut s = [T::zero(); LANES];
        for (l, s) in s.iter_mut().enumerate() {
            *s = n.x * cx[l] + n.y * cy[l] + n.z * cz[l];
        }
        return first_at_top(s, soa.count);
    }
    let mut best = [-T::infinity(); LANES];
    // Each lane keeps the number of the chunk holding its best vertex, in the coordinates' own
    // type: every select is then a packed blend of floats beside the projections' (integer
    // indices compiled to eight scalar selects per chunk). Exact in f32 below 2²⁴ chunks. The
    // current chunk's number is held in every lane, so moving on is a packed add.
    let mut chunk = [T::zero(); LANES];
    let mut current = [T::zero(); LANES];
    for ((cx, cy), cz) in
        soa.x().chunks_exact(LANES).zip(soa.y().chunks_exact(LANES)).zip(soa.z().chunks_exact(LANES))
    {
        for l in 0..LANES {
            let s = n.x * cx[l] + n.y * cy[l] + n.z * cz[l];
            let better = s > best[l];
            best[l] = if better { s } else { best[l] };
            // `better ? current : chunk` as a mask and a maximum (the current chunk number is
            // never below the kept one, and both are ≥ 0): two packed instructions where the
            // blend of SSE2 takes three.
            let candidate = if better { current[l] } else { T::zero() };
            chunk[l] = if candidate > chunk[l] { candidate } else { chunk[l] };
            current[l] += T::one();
        }
    }
    first_at_maximum(best, chunk, soa.count)
}

/// The merge of [`lanes_support`]'s lanes, each holding its best projection and the number of
/// the chunk where it found it, into the first vertex at the largest projection, in two float
/// reductions: the largest projection, then the smallest vertex number `8·chunk + lane` among
/// the lanes that reach it (each lane holds its first vertex at its maximum, so that is the
/// scan's first vertex at the maximum; ties do not need an index comparison at every step). A
/// lane that never compared holds −∞ in chunk 0, and lane 0's vertex 0 is the scan's answer in
/// that case; with NaN projections no lane reaches the maximum, and vertex 0 again.
#[inline(always)]
fn first_at_maximum<T: Real>(best: [T; LANES], chunk: [T; LANES], count: usize) -> usize {
    let top = reduce_lanes(best, |a, b| if b > a { b } else { a });
    let eight = T::lit(LANES as f64);
    let mut lane = T::zero();
    let mut key = [T::zero(); LANES];
    for l in 0..LANES {
        // +∞ added off the maximum: a mask and an add, where a blend takes three.
        let off = if best[l] == top { T::zero() } else { T::infinity() };
        key[l] = chunk[l] * eight + lane + off;
        lane += T::one();
    }
    // A small whole number: `as u32` is one conversion (no usize range fix-ups). An empty
    // vertex list has no chunk and leaves every key +∞, which saturates; vertex 0 then (a
    // padding copy never wins over vertex 0, the bound only keeps that argument out of the
    // callers' indexing).
    let first = reduce_lanes(key, |a, b| if b < a { b } else { a }).to_f64() as u32 as usize;
    if first < count {
        first
    } else {
        0
    }
}

/// The first lane at the largest of one chunk's projections, as the lowest set bit of a mask
/// of the lanes that no lane exceeds (two packed compares and move-masks, [`gt_mask`]),
/// where [`first_at_maximum`]'s keys and second reduction are needed only across chunks. A
/// projection is NaN only when the direction is (a finite direction of a GJK or cast loop
/// cannot overflow a product of valid coordinates): then every lane is NaN, the largest is
/// NaN, no lane exceeds it, and the answer is vertex 0, as the scan's.
#[inline(always)]
fn first_at_top<T: Real>(s: [T; LANES], count: usize) -> usize {
    let top = [reduce_lanes(s, |a, b| if b > a { b } else { a }); LANES];
    let first = (!gt_mask(&top, &s)).trailing_zeros() as usize;
    if first < count {
        first
    } else {
        0
    }
}

/// Folds the lanes pairwise, halves at a time (`pick` of lanes `l` and `l + width`): packed
/// instructions on the lane arrays, three steps for eight lanes.
#[inline(always)]
fn reduce_lanes<T: Real>(mut v: [T; LANES], pick: fn(T, T) -> T) -> T {
    let mut width = LANES / 2;
    while width > 0 {
        for l in 0..width {
            v[l] = pick(v[l], v[l + width]);
        }
        width /= 2;
    }
    v[0]
}

/// Index of the point maximizing `dir · p` (first one on ties).
pub(crate) fn linear_support<T: Real, const D: usize>(points: &[Point<T, D>], dir: &Vector<T, D>) -> usize {
    let mut best = 0;
    let mut best_dot = -T::infinity();
    for (i, p) in points.iter().enumerate() {
        let d = dir.dot(&p.coords);
        if d > best_dot {
            best_dot = d;
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lane-wise scan returns exactly the linear scan's vertex — including the first of
    /// tied maxima (duplicated and coplanar vertices, axis directions) and vertex 0 for a NaN
    /// direction — on every size around the lane width.
    #[test]
    fn lane_support_equals_the_linear_scan() {
        let mut bits = crate::test_support::xorshift(0x9e37_79b9_7f4a_7c15);
        let mut rnd = move || ((bits() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0) as f32;
        for n in 1..70 {
            let mut pts: Vec<Point<f32, 3>> =
                (0..n).map(|_| nalgebra::Point3::new(rnd(), rnd(), rnd())).collect();
            // Ties: copies of earlier vertices, and points on a common face of the unit box.
            for i in (3..n).step_by(4) {
                pts[i] = pts[i / 2];
            }
            for i in (5..n).step_by(6) {
                pts[i].x = 1.0;
            }
            let soa = Soa::new(&pts);
            let mut dirs: Vec<Vector<f32, 3>> = (0..40).map(|_| Vector3::new(rnd(), rnd(), rnd())).collect();
            dirs.extend([
                Vector3::x(),
                -Vector3::x(),
                Vector3::y(),
                Vector3::zeros(),
                Vector3::new(f32::NAN, 1.0, 0.0),
            ]);
            for d in &dirs {
                assert_eq!(lanes_support(&soa, d), linear_support(&pts, d), "n {n} d {d:?}");
                // The largest projection, by the same expression; −∞ for the NaN direction.
                let max =
                    pts.iter().map(|p| d.x * p.x + d.y * p.y + d.z * p.z).fold(-f32::INFINITY, f32::max);
                let expected = if d.x.is_nan() { -f32::INFINITY } else { max };
                assert_eq!(max_projection(&soa, d), expected, "n {n} d {d:?}");
            }
        }
    }

    /// The edge table by a global sort of the half-edges (the previous implementation): the
    /// reference the bucketed one must equal.
    fn edge_table_by_sort<T: Real>(indices: &[u32], faces: &[Face<T>]) -> (Vec<Edge>, bool) {
        let mut half = half_edges(indices, faces);
        half.sort_unstable();
        let edges = half
            .windows(2)
            .filter(|w| w[0].0 == w[1].0 && w[0].1 == w[1].1)
            .map(|w| Edge { vertices: [w[0].0, w[0].1], faces: [w[0].2, w[1].2] })
            .collect();
        let closed = half.len() % 2 == 0
            && half.chunks_exact(2).all(|p| (p[0].0, p[0].1) == (p[1].0, p[1].1))
            && half.windows(3).all(|w| (w[0].0, w[0].1) != (w[2].0, w[2].1));
        (edges, closed)
    }

    /// Closed (a cube, in quads and in triangles), open (a lid missing) and over-shared (a face
    /// given twice) face sets: the bucketed edge table equals the sorted one.
    #[test]
    fn bucketed_edge_table_equals_the_sorted_one() {
        let (corners, sets) = cube_face_sets();
        for (name, faces) in &sets {
            let p = ConvexPolyhedron::from_faces(corners.clone(), faces).unwrap();
            let bucketed = edge_table(&p.face_vertex_indices, &p.faces, p.vertices.len());
            let sorted = edge_table_by_sort(&p.face_vertex_indices, &p.faces);
            assert_eq!(bucketed, sorted, "{name}");
            // Only the open set and the one with a face given twice do not close up.
            assert_eq!(bucketed.1, !matches!(*name, "open" | "doubled"), "{name}");
        }
        // A dented face set (a reflex edge) is refused.
        let mut dented = corners.clone();
        dented[7] = nalgebra::Point3::new(0.5, 0.5, 0.5);
        assert_eq!(ConvexPolyhedron::from_faces(dented, &sets[1].1), Err(GeomError::NotConvex));
    }

    /// A face set with a name for the assertion messages.
    type NamedFaces = (&'static str, Vec<Vec<usize>>);

    /// The unit cube's corners and its faces as quads, as triangles, with every other triangle
    /// wound the other way (either winding is accepted), open (one quad missing) and with a
    /// quad given twice: the face sets the neighbour rows must come out of the same way.
    fn cube_face_sets() -> (Vec<Point<f64, 3>>, Vec<NamedFaces>) {
        let corners: Vec<Point<f64, 3>> = (0..8)
            .map(|b| nalgebra::Point3::new((b & 1) as f64, ((b >> 1) & 1) as f64, ((b >> 2) & 1) as f64))
            .collect();
        let quads: Vec<Vec<usize>> = BOX_FACES.iter().map(|f| f.to_vec()).collect();
        let triangles: Vec<Vec<usize>> =
            quads.iter().flat_map(|q| [vec![q[0], q[1], q[2]], vec![q[0], q[2], q[3]]]).collect();
        let mixed: Vec<Vec<usize>> = triangles
            .iter()
            .enumerate()
            .map(|(k, t)| if k % 2 == 1 { vec![t[0], t[2], t[1]] } else { t.clone() })
            .collect();
        let mut doubled = quads.clone();
        doubled.push(quads[3].clone());
        let open = quads[..5].to_vec();
        (
            corners,
            vec![
                ("quads", quads),
                ("triangles", triangles),
                ("mixed", mixed),
                ("doubled", doubled),
                ("open", open),
            ],
        )
    }

    /// Each vertex's neighbour row holds every vertex it shares a face edge with, once: the
    /// rows are deduplicated by marking (an edge comes from each of its faces, in both
    /// directions), not by sorting, so repeats and winding must not leak through.
    #[test]
    fn neighbour_rows_hold_each_edge_endpoint_once() {
        let (corners, sets) = cube_face_sets();
        for (name, faces) in sets {
            let p = ConvexPolyhedron::from_faces(corners.clone(), &faces).unwrap();
            for v in 0..corners.len() {
                let mut expected: Vec<u32> = faces
                    .iter()
                    .flat_map(|f| loop_edges(f).collect::<Vec<_>>())
                    .filter_map(|(a, b)| {
                        if a == v {
                            Some(b as u32)
                        } else if b == v {
                            Some(a as u32)
                        } else {
                            None
                        }
                    })
                    .collect();
                expected.sort_unstable();
                expected.dedup();
                let mut row = p.neighbors(v).to_vec();
                let len = row.len();
                row.sort_unstable();
                row.dedup();
                assert_eq!(row.len(), len, "{name}: vertex {v} has a repeated neighbour");
                assert_eq!(row, expected, "{name}: vertex {v}");
            }
        }
    }

    /// Faces given as slices of one flat array build the same polyhedron as the same faces
    /// given as vectors, and fixed-size arrays do too.
    #[test]
    fn face_slices_build_what_face_vectors_build() {
        let (corners, sets) = cube_face_sets();
        for (name, faces) in sets {
            let flat: Vec<usize> = faces.iter().flatten().copied().collect();
            let mut start = 0;
            let slices: Vec<&[usize]> = faces
                .iter()
                .map(|f| {
                    start += f.len();
                    &flat[start - f.len()..start]
                })
                .collect();
            let from_vectors = ConvexPolyhedron::from_faces(corners.clone(), &faces).unwrap();
            let from_slices = ConvexPolyhedron::from_face_slices(corners.clone(), &slices).unwrap();
            assert_eq!(from_slices, from_vectors, "{name}");
        }
        let from_arrays = ConvexPolyhedron::from_face_slices(cube_face_sets().0, &BOX_FACES).unwrap();
        assert_eq!(
            from_arrays,
            ConvexPolyhedron::from_faces(cube_face_sets().0, &cube_face_sets().1[0].1).unwrap()
        );
        // The checks are the same: a face of two vertices is refused either way.
        let short: [&[usize]; 4] = [&[0, 1], &[0, 1, 2], &[1, 2, 3], &[0, 2, 3]];
        assert_eq!(
            ConvexPolyhedron::from_face_slices(cube_face_sets().0, &short),
            Err(GeomError::TooFewPoints)
        );
    }
}
