//! Solid-leaf BSP trees and Melax's dynamic plane shifting (Melax 2000, "Dynamic Plane
//! Shifting BSP Traversal"): swept queries of a point, a sphere, a vertical cylinder or a convex
//! hull moving along a segment through a closed polygon soup, each returning the first impact.
//!
//! ## Tree
//! Built from the triangles of a closed mesh whose normals face outwards: each node splits by
//! the plane of one of its triangles (chosen among a sample for few splits and balance);
//! triangles in front go to the front child, behind to the back child, across the plane are
//! cut in two; coplanar triangles facing the same way are represented by the plane itself.
//! A side that receives no triangle becomes a leaf: empty (outside) in front, solid behind.
//!
//! ## Plane shifting
//! A shape `K` carried by its reference point `p` meets the half-space `n·x + d ≤ 0` exactly
//! when `n·p + d ≤ h_K(−n)`, and `n·x + d ≥ 0` when `n·p + d ≥ −h_K(n)`, where `h_K` is the
//! support function of `K` about `p`. So the traversal descends to the back child over the part
//! of the segment where `s(t) ≤ h_K(−n)` and to the front child where `s(t) ≥ −h_K(n)`, and the
//! first time the reference point enters a solid leaf is the impact. For a sphere both offsets
//! are `r`; for a vertical cylinder `r·√(n_x² + n_y²) + h·|n_z|`; for a convex hull the largest
//! projection of its vertices.
//!
//! Shifted planes grow each solid cell by its faces only, so near edges and corners sharper than
//! 90° the shape is stopped a little early (Melax adds *bevel planes* there); it is never
//! stopped late, so nothing tunnels. For a point (offsets 0) the impact is exact.

use crate::error::{MidError, MidResult};
use crate::mesh::TriMesh;
use cd_geom::{Plane, Point, Real, Vector};

/// A node of a solid-leaf BSP tree.
#[derive(Clone, Debug)]
enum BspNode<T: Real> {
    /// Outside the solid.
    Empty,
    /// Inside the solid.
    Solid,
    /// A splitting plane (normal facing the front, outside) and the two children.
    Split { plane: Plane<T, 3>, front: u32, back: u32 },
}

/// The first impact of a swept query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BspHit<T: Real> {
    /// Fraction of the segment `p0 → p1` travelled at the impact (0 when the shape starts in
    /// contact).
    pub t: T,
    /// The reference point's position at the impact.
    pub point: Point<T, 3>,
    /// The (shifted) plane's normal at the impact, facing out of the solid; `None` when the
    /// shape starts in contact (no plane was crossed).
    pub normal: Option<Vector<T, 3>>,
}

/// A solid-leaf BSP tree of a closed mesh.
#[derive(Clone, Debug)]
pub struct SolidBsp<T: Real> {
    nodes: Vec<BspNode<T>>,
}

/// A triangle being sorted into the tree (vertices only).
type Tri<T> = [Point<T, 3>; 3];

impl<T: Real> SolidBsp<T> {
    /// Builds the tree of a closed, outward-facing mesh. Zero-area triangles are skipped.
    /// Errors: a mesh with no triangle of positive area.
    pub fn build(mesh: &TriMesh<T>) -> MidResult<Self> {
        Self::build_with(mesh, false)
    }

    /// As [`build`](Self::build), then bevels every solid cell with the six axis-aligned planes
    /// of its bounding box (Melax's axial bevels): the cell is unchanged, but a shifted cell no
    /// longer reaches far past a sharp edge or corner, so swept shapes stop closer to the true
    /// contact (still never later).
    pub fn build_beveled(mesh: &TriMesh<T>) -> MidResult<Self> {
        Self::build_with(mesh, true)
    }

    fn build_with(mesh: &TriMesh<T>, bevels: bool) -> MidResult<Self> {
        let tris: Vec<Tri<T>> = (0..mesh.len())
            .map(|i| mesh.triangle(i).vertices())
            .filter(|t| (t[1] - t[0]).cross(&(t[2] - t[0])).norm_squared() > T::zero())
            .collect();
        if tris.is_empty() {
            return Err(MidError::Empty);
        }
        let scale = mesh.vertices().iter().fold(T::one(), |s, p| s.max(p.coords.amax()));
        let eps = scale * T::lit(1e3) * T::epsilon();
        let mut nodes = vec![BspNode::Empty];
        // (node to fill, its triangles)
        let mut work = vec![(0usize, tris)];
        while let Some((id, tris)) = work.pop() {
            let plane = choose_splitter(&tris, eps);
            let (mut front, mut back) = (Vec::new(), Vec::new());
            for t in tris {
                classify(&t, &plane, eps, &mut front, &mut back);
            }
            let mut child = |list: Vec<Tri<T>>, leaf: BspNode<T>, nodes: &mut Vec<BspNode<T>>| -> u32 {
                let k = nodes.len();
                if list.is_empty() {
                    nodes.push(leaf);
                } else {
                    nodes.push(BspNode::Empty);
                    work.push((k, list));
                }
                k as u32
            };
            let f = child(front, BspNode::Empty, &mut nodes);
            let b = child(back, BspNode::Solid, &mut nodes);
            nodes[id] = BspNode::Split { plane, front: f, back: b };
        }
        let mut bsp = SolidBsp { nodes };
        if bevels {
            let bounds = cd_geom::Aabb::from_points(mesh.vertices())?;
            bsp.add_axial_bevels(&bounds, eps);
        }
        Ok(bsp)
    }

    /// Replaces every solid leaf by a chain of the six axis-aligned planes bounding its cell
    /// (front of each: empty), ending in the solid leaf.
    fn add_axial_bevels(&mut self, bounds: &cd_geom::Aabb<T, 3>, eps: T) {
        // Depth-first with the path's half-spaces: (node, cell polyhedron as face polygons).
        let pad = Vector::repeat(eps * T::lit(16.0) + bounds.half_extents().amax() * T::lit(0.01));
        let start = box_faces(&(bounds.min() - pad), &(bounds.max() + pad));
        let mut stack = vec![(0usize, start)];
        while let Some((id, cell)) = stack.pop() {
            match self.nodes[id].clone() {
                BspNode::Empty => {}
                BspNode::Solid => {
                    let pts: Vec<Point<T, 3>> = cell.iter().flatten().copied().collect();
                    let Ok(bx) = cd_geom::Aabb::from_points(&pts) else { continue };
                    let mut next = id;
                    // Re-point the leaf slot at the first bevel; the solid leaf moves to the end.
                    for axis in 0..3 {
                        for sign in [T::one(), -T::one()] {
                            let mut n = Vector::<T, 3>::zeros();
                            n[axis] = sign;
                            // Padded so rounding in the clipping never cuts the solid itself.
                            let bound = if sign > T::zero() { bx.max()[axis] } else { -bx.min()[axis] }
                                + eps * T::lit(16.0);
                            let Ok(plane) = Plane::new(n, -bound) else { continue };
                            let empty = self.nodes.len() as u32;
                            self.nodes.push(BspNode::Empty);
                            let back = self.nodes.len() as u32;
                            self.nodes.push(BspNode::Solid);
                            self.nodes[next] = BspNode::Split { plane, front: empty, back };
                            next = back as usize;
                        }
                    }
                }
                BspNode::Split { plane, front, back } => {
                    let f = clip_cell(&cell, &plane, true);
                    let b = clip_cell(&cell, &plane, false);
                    if !f.is_empty() {
                        stack.push((front as usize, f));
                    }
                    if !b.is_empty() {
                        stack.push((back as usize, b));
                    }
                }
            }
        }
    }

    /// Number of nodes (leaves included).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Is `p` inside the solid (points on a face count as inside)?
    pub fn contains_point(&self, p: &Point<T, 3>) -> bool {
        let mut at = 0usize;
        loop {
            match &self.nodes[at] {
                BspNode::Empty => return false,
                BspNode::Solid => return true,
                BspNode::Split { plane, front, back } => {
                    at = if plane.signed_distance(p) > T::zero() { *front as usize } else { *back as usize };
                }
            }
        }
    }

    /// First impact of a point moving from `p0` to `p1` (exact: where the segment first enters
    /// the solid).
    pub fn cast_point(&self, p0: &Point<T, 3>, p1: &Point<T, 3>) -> Option<BspHit<T>> {
        self.cast(p0, p1, |_| T::zero())
    }

    /// First impact of a sphere of radius `r` whose centre moves from `p0` to `p1`.
    pub fn cast_sphere(&self, p0: &Point<T, 3>, p1: &Point<T, 3>, r: T) -> Option<BspHit<T>> {
        let r = r.max(T::zero());
        self.cast(p0, p1, |_| r)
    }

    /// First impact of an upright cylinder (axis along z) of radius `r` and half-height `h`
    /// whose centre moves from `p0` to `p1`.
    pub fn cast_cylinder(&self, p0: &Point<T, 3>, p1: &Point<T, 3>, r: T, h: T) -> Option<BspHit<T>> {
        let (r, h) = (r.max(T::zero()), h.max(T::zero()));
        self.cast(p0, p1, |n| r * (n.x * n.x + n.y * n.y).sqrt() + h * n.z.abs())
    }

    /// First impact of a convex hull given by its vertices relative to its reference point,
    /// the reference point moving from `p0` to `p1`.
    pub fn cast_hull(
        &self,
        p0: &Point<T, 3>,
        p1: &Point<T, 3>,
        vertices: &[Vector<T, 3>],
    ) -> Option<BspHit<T>> {
        self.cast(p0, p1, |n| vertices.iter().fold(-T::infinity(), |m, v| m.max(n.dot(v))).max(T::zero()))
    }

    /// The general swept query: `support(n)` is the shape's support function about its
    /// reference point (`max_k n·k`), called with the planes' unit normals and their opposites.
    pub fn cast(
        &self,
        p0: &Point<T, 3>,
        p1: &Point<T, 3>,
        support: impl Fn(&Vector<T, 3>) -> T,
    ) -> Option<BspHit<T>> {
        let dir = p1 - p0;
        // (node, t_enter, t_exit, normal of the plane that clipped t_enter)
        let mut stack: Vec<(u32, T, T, Option<Vector<T, 3>>)> = vec![(0, T::zero(), T::one(), None)];
        let mut best: Option<(T, Option<Vector<T, 3>>)> = None;
        while let Some((node, t0, t1, normal)) = stack.pop() {
            if best.is_some_and(|(b, _)| t0 >= b) {
                continue;
            }
            match &self.nodes[node as usize] {
                BspNode::Empty => {}
                BspNode::Solid => best = Some((t0, normal)),
                BspNode::Split { plane, front, back } => {
                    let n = plane.normal();
                    let s0 = plane.signed_distance(p0);
                    let ds = n.dot(&dir);
                    // Back (solid side) over s(t) ≤ +h(−n); front over s(t) ≥ −h(n).
                    let back_range = clip(s0, ds, t0, t1, support(&-n), false);
                    let front_range = clip(s0, ds, t0, t1, -support(n), true);
                    let mut push = |range: Option<(T, T)>, child: u32, facing: Vector<T, 3>| {
                        if let Some((a, b)) = range {
                            let entered = if a > t0 { Some(facing) } else { normal };
                            stack.push((child, a, b, entered));
                        }
                    };
                    // Visit the side entered first last (popped first).
                    let back_first = match (back_range, front_range) {
                        (Some((a, _)), Some((c, _))) => a <= c,
                        _ => true,
                    };
                    if back_first {
                        push(front_range, *front, -n);
                        push(back_range, *back, *n);
                    } else {
                        push(back_range, *back, *n);
                        push(front_range, *front, -n);
                    }
                }
            }
        }
        best.map(|(t, normal)| BspHit { t, point: p0 + dir * t, normal })
    }
}

/// The part of `[t0, t1]` where `s(t) = s0 + ds·t` is `≥ offset` (`above`) or `≤ offset`.
fn clip<T: Real>(s0: T, ds: T, t0: T, t1: T, offset: T, above: bool) -> Option<(T, T)> {
    // Write the condition as g(t) = ±(s(t) − offset) ≥ 0.
    let sign = if above { T::one() } else { -T::one() };
    let g0 = sign * (s0 - offset);
    let dg = sign * ds;
    let (mut a, mut b) = (t0, t1);
    if dg == T::zero() {
        return (g0 >= T::zero()).then_some((a, b));
    }
    let root = -g0 / dg;
    if dg > T::zero() {
        a = a.max(root);
    } else {
        b = b.min(root);
    }
    (a <= b).then_some((a, b))
}

/// The splitting plane: among up to 16 evenly spaced candidate triangles, the one whose plane
/// cuts fewest others, ties broken by balance.
fn choose_splitter<T: Real>(tris: &[Tri<T>], eps: T) -> Plane<T, 3> {
    let step = (tris.len() / 16).max(1);
    let mut best: Option<(usize, Plane<T, 3>)> = None;
    for cand in tris.iter().step_by(step) {
        let Ok(plane) = Plane::from_points(cand[0], cand[1], cand[2]) else { continue };
        let (mut front, mut back, mut spanning) = (0usize, 0usize, 0usize);
        for t in tris {
            let d = t.map(|v| plane.signed_distance(&v));
            let (pos, neg) = (d.iter().any(|&x| x > eps), d.iter().any(|&x| x < -eps));
            match (pos, neg) {
                (true, true) => spanning += 1,
                (true, false) => front += 1,
                (false, true) => back += 1,
                _ => {}
            }
        }
        let score = 8 * spanning + front.abs_diff(back);
        if best.as_ref().is_none_or(|(s, _)| score < *s) {
            best = Some((score, plane));
        }
    }
    // Every triangle has positive area, so some candidate has a plane; the fallback is the
    // first triangle's plane through its own vertices, which exists for the same reason.
    best.map(|b| b.1).unwrap_or_else(|| {
        Plane::from_points(tris[0][0], tris[0][1], tris[0][2])
            .unwrap_or_else(|_| unreachable!("positive area"))
    })
}

/// Sorts a triangle against the plane: in front, behind, cut in two (pieces fanned into
/// triangles), or coplanar (facing the same way: dropped, the plane represents it; facing away:
/// behind).
fn classify<T: Real>(
    t: &Tri<T>,
    plane: &Plane<T, 3>,
    eps: T,
    front: &mut Vec<Tri<T>>,
    back: &mut Vec<Tri<T>>,
) {
    let d = t.map(|v| plane.signed_distance(&v));
    let (pos, neg) = (d.iter().any(|&x| x > eps), d.iter().any(|&x| x < -eps));
    match (pos, neg) {
        (true, false) => front.push(*t),
        (false, true) => back.push(*t),
        (false, false) => {
            let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
            if n.dot(plane.normal()) < T::zero() {
                back.push(*t);
            }
        }
        (true, true) => {
            let (mut f, mut b): (Vec<Point<T, 3>>, Vec<Point<T, 3>>) =
                (Vec::with_capacity(4), Vec::with_capacity(4));
            for i in 0..3 {
                let (p, q, dp, dq) = (t[i], t[(i + 1) % 3], d[i], d[(i + 1) % 3]);
                if dp >= -eps {
                    f.push(p);
                }
                if dp <= eps {
                    b.push(p);
                }
                if (dp > eps && dq < -eps) || (dp < -eps && dq > eps) {
                    let x = p + (q - p) * (dp / (dp - dq));
                    f.push(x);
                    b.push(x);
                }
            }
            for (poly, out) in [(f, &mut *front), (b, &mut *back)] {
                for k in 1..poly.len().saturating_sub(1) {
                    let tri = [poly[0], poly[k], poly[k + 1]];
                    if (tri[1] - tri[0]).cross(&(tri[2] - tri[0])).norm_squared() > T::zero() {
                        out.push(tri);
                    }
                }
            }
        }
    }
}

/// A convex cell as its face polygons.
type Cell<T> = Vec<Vec<Point<T, 3>>>;

/// The six faces of the box `[lo, hi]`.
fn box_faces<T: Real>(lo: &Point<T, 3>, hi: &Point<T, 3>) -> Cell<T> {
    let c = |bits: usize| {
        Point::from(Vector::<T, 3>::from_fn(|i, _| if bits >> i & 1 == 1 { hi[i] } else { lo[i] }))
    };
    [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]]
        .iter()
        .map(|f| f.iter().map(|&b| c(b)).collect())
        .collect()
}

/// The part of a convex cell in front of the plane (`front`) or behind it: each face clipped,
/// plus the cap polygon on the plane (its points ordered by angle about their centre).
fn clip_cell<T: Real>(cell: &Cell<T>, plane: &Plane<T, 3>, front: bool) -> Cell<T> {
    let side = |p: &Point<T, 3>| {
        let d = plane.signed_distance(p);
        if front {
            d
        } else {
            -d
        }
    };
    let mut out: Cell<T> = Vec::with_capacity(cell.len() + 1);
    let mut cap: Vec<Point<T, 3>> = Vec::new();
    for face in cell {
        let mut poly = Vec::with_capacity(face.len() + 1);
        for i in 0..face.len() {
            let (p, q) = (face[i], face[(i + 1) % face.len()]);
            let (dp, dq) = (side(&p), side(&q));
            if dp >= T::zero() {
                poly.push(p);
            }
            if (dp >= T::zero()) != (dq >= T::zero()) {
                let x = p + (q - p) * (dp / (dp - dq));
                poly.push(x);
                cap.push(x);
            }
        }
        if poly.len() >= 3 {
            out.push(poly);
        }
    }
    if cap.len() >= 3 {
        let centre =
            Point::from(cap.iter().fold(Vector::zeros(), |s, p| s + p.coords) / T::lit(cap.len() as f64));
        let n = plane.normal();
        let u = if n.x.abs() < T::lit(0.9) { n.cross(&Vector::x()) } else { n.cross(&Vector::y()) };
        let v = n.cross(&u);
        cap.sort_by(|a, b| {
            let (da, db) = (a - centre, b - centre);
            let (ta, tb) = (da.dot(&v).atan2(da.dot(&u)), db.dot(&v).atan2(db.dot(&u)));
            ta.partial_cmp(&tb).unwrap_or(core::cmp::Ordering::Equal)
        });
        out.push(cap);
    }
    out
}
