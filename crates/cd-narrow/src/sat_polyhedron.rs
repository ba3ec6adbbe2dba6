//! SAT with a minimum translation vector for two convex polyhedra, with Gauss-map pruning of
//! edge pairs, and their contact manifold by face clipping.
//!
//! Candidate axes are the face normals of both hulls and the cross products of edge pairs. Of
//! the `E_A · E_B` edge pairs only those whose arcs intersect on the Gauss map form a face of
//! the Minkowski difference (Gregorius, "The Separating Axis Test between Convex Polyhedra",
//! GDC 2013): the test costs four dot products and removes almost all pairs, and the remaining
//! axes give the exact minimum translation, because every face of A − B is one of these
//! candidates. Face axes use hill-climbing support queries on the other hull. The edge table
//! (each edge with its two faces) is built once with the hull ([`ConvexPolyhedron::edges`]).
//!
//! The query works in A's local frame (B is brought over by the relative pose once), in `f64`
//! whatever the input's type (an `f32` edge axis of two nearly parallel edges is rounding
//! noise), and the axis that decided the previous query is tried first ([`HullSatCache`]).
//!
//! Contact points: the face of the other hull most anti-parallel to the normal is clipped
//! against the side planes of the reference face (Sutherland–Hodgman), as for boxes; an edge
//! pair gives the closest points of the two edges. The clipping allocates nothing: a face with
//! more than 16 vertices stands in by an evenly spread subset of them (a polygon inside the
//! face, so no point is invented), as the support-feature manifolds do.

use cd_geom::{closest_points_between_segments, ConvexPolyhedron, Point, Real, Vector};
use nalgebra::{Isometry3, Quaternion, UnitQuaternion};

use crate::clip::{evenly_spread, ClipPolygon, FACE_CLIP_CAPACITY, MAX_FACE_POINTS};
use crate::manifold::{Candidates, Manifold, ManifoldPoint};

/// A hull placed in the world: the hull in its local frame and its pose.
#[derive(Clone, Copy, Debug)]
pub struct PlacedHull<'a, T: Real> {
    /// The hull in its local frame.
    pub hull: &'a ConvexPolyhedron<T>,
    /// Local-to-world pose.
    pub pose: &'a Isometry3<T>,
}

/// Which candidate axis decided a [`hull_hull_sat`] query.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HullFeature {
    /// Face `i` of A.
    FaceA(usize),
    /// Face `j` of B.
    FaceB(usize),
    /// Edge `i` of A and edge `j` of B (indices into [`ConvexPolyhedron::edges`]).
    Edges(usize, usize),
}

/// The result of [`hull_hull_sat`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HullSat<T: Real> {
    /// Largest separation over the candidate axes: positive when disjoint (a lower bound on
    /// the distance), minus the exact penetration depth when overlapping.
    pub separation: T,
    /// Unit axis of that separation, from A towards B, in world space.
    pub normal: Vector<T, 3>,
    /// Which axis.
    pub feature: HullFeature,
}

/// The axis of the previous query on the same pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HullSatCache {
    feature: Option<HullFeature>,
}

/// Both hulls in A's local frame, with B's vertices and face normals transformed once (every
/// axis test then costs dot and cross products only).
///
/// The axes are measured in `f64` whatever `T` is. The cross product of two nearly parallel
/// edges is short, and the rounding of B's vertices in A's frame turns its direction by about
/// ε·(coordinates)/(edge lengths · sin θ); in `f32` that noise overwhelms an axis of the
/// Minkowski difference whose edges are 10⁻⁴ rad apart, which is the axis of least depth for
/// two long thin boxes crossing at a small angle. Such a pair's axis used to be skipped (below
/// √ε), and the depth then came from a face axis: 10⁻³ where the exact depth was 2.7·10⁻⁵, on
/// boxes 16.6 long and 10⁻³ thick (`f32_edge_axes_of_nearly_parallel_needles`). In `f64` the
/// noise is 2⁻²⁹ as large, and an edge axis is dropped only when its length is rounding
/// itself; its separation is lowered by its rounding bound (see [`Pair::edges`]).
struct Pair<'a, T: Real> {
    a: &'a ConvexPolyhedron<T>,
    b: &'a ConvexPolyhedron<T>,
    /// B's vertices in A's frame.
    vb: Vec<Point<f64, 3>>,
    /// B's outward face normals in A's frame.
    nb: Vec<Vector<f64, 3>>,
    /// B's edges' arcs on the Gauss map of A − B (the negated normals of their faces).
    arcs_b: Vec<Arc>,
    /// The largest coordinate magnitude of A's vertices and of B's in A's frame.
    scale: f64,
}

/// `v` in `f64` (exact).
fn wide<T: Real>(v: &Vector<T, 3>) -> Vector<f64, 3> {
    v.map(|x| x.to_f64())
}

impl<'a, T: Real> Pair<'a, T> {
    fn new(a: &PlacedHull<'a, T>, b: &PlacedHull<'a, T>) -> Self {
        // The rotation normalized again in `f64`: a unit quaternion in `f32` is unit to 10⁻⁷
        // only, and B's face normals must stay normal to its faces in A's frame.
        let pose = |p: &Isometry3<T>| {
            let q = p.rotation.quaternion().coords;
            Isometry3::from_parts(
                wide(&p.translation.vector).into(),
                UnitQuaternion::new_normalize(Quaternion::from(q.map(|x| x.to_f64()))),
            )
        };
        let rel = pose(a.pose).inv_mul(&pose(b.pose));
        let vb: Vec<Point<f64, 3>> =
            b.hull.vertices().iter().map(|p| rel * Point::from(wide(&p.coords))).collect();
        let nb: Vec<Vector<f64, 3>> =
            b.hull.faces().iter().map(|f| rel.rotation * wide(f.plane.normal())).collect();
        let arcs_b = b
            .hull
            .edges()
            .iter()
            .map(|e| Arc::new(-nb[e.faces[0] as usize], -nb[e.faces[1] as usize]))
            .collect();
        let scale = a
            .hull
            .vertices()
            .iter()
            .map(|p| p.coords.amax().to_f64())
            .chain(vb.iter().map(|p| p.coords.amax()))
            .fold(0.0, f64::max);
        Pair { a: a.hull, b: b.hull, vb, nb, arcs_b, scale }
    }

    /// A's edge `i`'s arc on the Gauss map.
    fn arc_a(&self, i: usize) -> Arc {
        let [f0, f1] = self.a.edges()[i].faces;
        Arc::new(self.na(f0 as usize), self.na(f1 as usize))
    }

    /// A's vertex `i`, widened.
    fn va(&self, i: usize) -> Point<f64, 3> {
        Point::from(wide(&self.a.vertices()[i].coords))
    }

    /// A's outward normal of face `i`, widened.
    fn na(&self, i: usize) -> Vector<f64, 3> {
        wide(self.a.faces()[i].plane.normal())
    }

    /// Separation along A's face `i`: how far B's deepest point lies outside the face plane.
    fn face_a(&self, i: usize) -> (f64, Vector<f64, 3>) {
        let n = self.na(i);
        let deepest = self.vb.iter().fold(f64::INFINITY, |m, p| m.min(n.dot(&p.coords)));
        (deepest + self.a.faces()[i].plane.d().to_f64(), n)
    }

    /// Separation along B's face `j` (normal in A's frame, pointing from A to B: −B's normal).
    fn face_b(&self, j: usize) -> (f64, Vector<f64, 3>) {
        let n = self.nb[j];
        let offset = n.dot(&self.vb[self.b.face_vertices(&self.b.faces()[j])[0] as usize].coords);
        // B lies in n·x ≤ offset; A's point deepest towards B is its support along −n.
        let p = self.va(self.a.support_index(&(-n).map(T::lit), 0));
        (n.dot(&p.coords) - offset, -n)
    }

    /// Separation along edge pair `(i, j)` when it forms a face of the Minkowski difference.
    ///
    /// The separation is lowered by its rounding bound. The edges `e_a`, `e_b` and the offset
    /// `d = p_b − p_a` are off by about 2ε times the coordinates' magnitude `c` (B's vertices
    /// were rounded in A's frame). Turning the axis `l = e_a × e_b` by `δl` moves the separation
    /// `l·d/|l|` by `δl·d/|l|`, where `(δe_a × e_b)·d = δe_a·(e_b × d)`: only the offset across
    /// each edge counts, which keeps the bound small for nearly parallel edges side by side.
    /// Lowered by it, such a pair's axis neither claims a separation that rounding made up nor
    /// wins over a face axis on noise, and only a pair whose cross product is rounding itself
    /// (16ε of the edge lengths' product) is skipped.
    /// `arc_a` is A's edge `i`'s arc ([`Pair::arc_a`], passed in so that a loop over B's edges
    /// builds it once).
    fn edges(&self, i: usize, arc_a: &Arc, j: usize) -> Option<(f64, Vector<f64, 3>)> {
        if !arc_a.crosses(&self.arcs_b[j]) {
            return None;
        }
        let [a0, a1] = self.a.edges()[i].vertices;
        let [b0, b1] = self.b.edges()[j].vertices;
        let pa = self.va(a0 as usize);
        let ea = self.va(a1 as usize) - pa;
        let pb = self.vb[b0 as usize];
        let eb = self.vb[b1 as usize] - pb;
        let l = ea.cross(&eb);
        let len = l.norm();
        let (la, lb) = (ea.norm(), eb.norm());
        if len <= f64::EPSILON * 16.0 * la * lb {
            return None;
        }
        let mut n = l / len;
        // Orient away from A (A's vertex mean is inside A).
        if n.dot(&(pa - Point::from(wide(&self.a.vertex_mean().coords)))) < 0.0 {
            n = -n;
        }
        let offset = pb - pa;
        let sep = n.dot(&offset);
        let across = ea.cross(&offset).norm() + eb.cross(&offset).norm() + (la + lb) * sep.abs();
        let noise = f64::EPSILON * 4.0 * self.scale * (across / len + 1.0);
        Some((sep - noise, n))
    }

    fn axis(&self, f: HullFeature) -> Option<(f64, Vector<f64, 3>)> {
        match f {
            HullFeature::FaceA(i) => Some(self.face_a(i)),
            HullFeature::FaceB(j) => Some(self.face_b(j)),
            HullFeature::Edges(i, j) => self.edges(i, &self.arc_a(i), j),
        }
    }
}

/// An edge's arc on a Gauss map: from one face normal to the other, with their cross product.
#[derive(Clone, Copy, Debug)]
struct Arc {
    from: Vector<f64, 3>,
    to: Vector<f64, 3>,
    /// `to × from`, the normal of the arc's great circle.
    cross: Vector<f64, 3>,
}

impl Arc {
    fn new(from: Vector<f64, 3>, to: Vector<f64, 3>) -> Self {
        Arc { from, to, cross: to.cross(&from) }
    }

    /// Whether this arc and `other` cross (their edges then form a face of the Minkowski
    /// difference): the ends of each lie on opposite sides of the other's great circle, and the
    /// crossing is on the same hemisphere as both arcs.
    fn crosses(&self, other: &Arc) -> bool {
        let (cba, dba) = (other.from.dot(&self.cross), other.to.dot(&self.cross));
        let (adc, bdc) = (self.from.dot(&other.cross), self.to.dot(&other.cross));
        cba * dba < 0.0 && adc * bdc < 0.0 && cba * bdc > 0.0
    }
}

/// SAT between two placed hulls. Stops at the first axis separating them by more than
/// `prediction`. Face axes win ties against edge axes (stable manifolds for resting contact).
pub fn hull_hull_sat<T: Real>(
    a: &PlacedHull<'_, T>,
    b: &PlacedHull<'_, T>,
    prediction: T,
    cache: &mut HullSatCache,
) -> HullSat<T> {
    let pair = Pair::new(a, b);
    let answer = |sep: f64, n: Vector<f64, 3>, feature: HullFeature| HullSat {
        separation: T::lit(sep),
        normal: a.pose.rotation * n.map(T::lit),
        feature,
    };
    let prediction = prediction.to_f64();
    let valid = |f: HullFeature| match f {
        HullFeature::FaceA(i) => i < pair.a.faces().len(),
        HullFeature::FaceB(j) => j < pair.b.faces().len(),
        HullFeature::Edges(i, j) => i < pair.a.edges().len() && j < pair.b.edges().len(),
    };
    if let Some(f) = cache.feature.filter(|&f| valid(f)) {
        if let Some((sep, n)) = pair.axis(f) {
            if sep > prediction {
                return answer(sep, n, f);
            }
        }
    }
    // Ties within the input's rounding go to the earlier axis: A's faces, then B's, then edges.
    let bias = T::epsilon().to_f64() * 64.0 * pair.scale;
    let mut best: Option<(f64, Vector<f64, 3>, HullFeature)> = None;
    let faces_a = (0..pair.a.faces().len()).map(|i| (HullFeature::FaceA(i), Some(pair.face_a(i))));
    let faces_b = (0..pair.b.faces().len()).map(|j| (HullFeature::FaceB(j), Some(pair.face_b(j))));
    let edge_pairs = (0..pair.a.edges().len()).flat_map(|i| {
        let (pair, arc_a) = (&pair, pair.arc_a(i));
        (0..pair.b.edges().len()).map(move |j| (HullFeature::Edges(i, j), pair.edges(i, &arc_a, j)))
    });
    for (f, axis) in faces_a.chain(faces_b).chain(edge_pairs) {
        let Some((sep, n)) = axis else { continue };
        if sep > prediction {
            cache.feature = Some(f);
            return answer(sep, n, f);
        }
        let later = matches!(f, HullFeature::Edges(..))
            || matches!((f, best), (HullFeature::FaceB(_), Some((_, _, HullFeature::FaceA(_)))));
        if best.is_none_or(|(s, _, _)| sep > s + if later { bias } else { 0.0 }) {
            best = Some((sep, n, f));
        }
    }
    let (sep, n, f) = best.unwrap_or((0.0, Vector::z(), HullFeature::FaceA(0)));
    cache.feature = Some(f);
    answer(sep, n, f)
}

/// The contact manifold of two placed hulls (empty when farther apart than `prediction`).
/// Returns SAT's separation.
///
/// For a pair apart (a positive separation, within `prediction`) the points are pairs along
/// SAT's axis, which only bounds the gap from below: they can miss the closest pair, or be
/// none. [`manifold`](fn@crate::manifold) joins the exact contact to them then.
pub fn hull_hull_manifold<T: Real>(
    a: &PlacedHull<'_, T>,
    b: &PlacedHull<'_, T>,
    prediction: T,
    cache: &mut HullSatCache,
    out: &mut Manifold<T, 3>,
) -> T {
    out.clear();
    let sat = hull_hull_sat(a, b, prediction, cache);
    if sat.separation > prediction {
        return sat.separation;
    }
    out.normal = sat.normal;
    match sat.feature {
        HullFeature::FaceA(i) => clip(a, b, i, sat.normal, prediction, false, out),
        HullFeature::FaceB(j) => clip(b, a, j, -sat.normal, prediction, true, out),
        HullFeature::Edges(i, j) => {
            let edge = |h: &PlacedHull<'_, T>, k: usize| {
                let [v0, v1] = h.hull.edges()[k].vertices;
                (h.pose * h.hull.vertices()[v0 as usize], h.pose * h.hull.vertices()[v1 as usize])
            };
            let (pa, qa) = edge(a, i);
            let (pb, qb) = edge(b, j);
            let (cp, _, _) = closest_points_between_segments(&pa, &qa, &pb, &qb);
            let id = (1 << 31) | ((i as u32 & 0x7fff) << 15) | (j as u32 & 0x7fff);
            out.push(ManifoldPoint {
                point_a: cp.a,
                point_b: cp.b,
                distance: sat.normal.dot(&(cp.b - cp.a)),
                id,
            });
        }
    }
    sat.separation
}

/// The manifold of two placed hulls for a contact normal found elsewhere (EPA or GJK, for hulls
/// too large for the quadratic edge-pair SAT): the face of A most aligned with `normal` and
/// the face of B most opposed to it compete as reference face (the better aligned wins), the
/// other hull's face is clipped against it.
pub fn hull_hull_manifold_along<T: Real>(
    a: &PlacedHull<'_, T>,
    b: &PlacedHull<'_, T>,
    normal: &Vector<T, 3>,
    prediction: T,
    out: &mut Manifold<T, 3>,
) {
    out.clear();
    out.normal = *normal;
    let best = |h: &PlacedHull<'_, T>, d: &Vector<T, 3>| {
        h.hull.faces().iter().enumerate().fold((0, -T::infinity()), |(bi, bd), (k, f)| {
            let x = d.dot(&(h.pose.rotation * f.plane.normal()));
            if x > bd {
                (k, x)
            } else {
                (bi, bd)
            }
        })
    };
    let (fa, da) = best(a, normal);
    let (fb, db) = best(b, &-normal);
    if da >= db {
        clip(a, b, fa, *normal, prediction, false, out);
    } else {
        clip(b, a, fb, -normal, prediction, true, out);
    }
}

/// Clips the face of `inc` most anti-parallel to `n` (world, from `reference` to `inc`) against
/// the side planes of `reference`'s face `f`. `flip`: the reference hull is B. Either face
/// keeps at most [`MAX_FACE_POINTS`] evenly spread vertices.
fn clip<T: Real>(
    reference: &PlacedHull<'_, T>,
    inc: &PlacedHull<'_, T>,
    f: usize,
    n: Vector<T, 3>,
    prediction: T,
    flip: bool,
    out: &mut Manifold<T, 3>,
) {
    let rf = &reference.hull.faces()[f];
    let ref_ids = reference.hull.face_vertices(rf);
    let mut ref_pts = [Point::origin(); MAX_FACE_POINTS];
    let mut ref_len = 0;
    for k in evenly_spread(ref_ids.len(), MAX_FACE_POINTS) {
        ref_pts[ref_len] = reference.pose * reference.hull.vertices()[ref_ids[k] as usize];
        ref_len += 1;
    }
    let ref_pts = &ref_pts[..ref_len];
    let ref_normal = reference.pose.rotation * rf.plane.normal();
    // Incident face: outward normal most opposed to n.
    let (g, _) = inc.hull.faces().iter().enumerate().fold((0, T::infinity()), |(bi, bd), (k, face)| {
        let d = n.dot(&(inc.pose.rotation * face.plane.normal()));
        if d < bd {
            (k, d)
        } else {
            (bi, bd)
        }
    });
    let ig = &inc.hull.faces()[g];
    let inc_ids = inc.hull.face_vertices(ig);
    let mut poly = ClipPolygon::<T, FACE_CLIP_CAPACITY>::new();
    for k in evenly_spread(inc_ids.len(), MAX_FACE_POINTS) {
        poly.push((inc.pose * inc.hull.vertices()[inc_ids[k] as usize], k as u32));
    }
    let centre = ref_pts.iter().fold(Vector::zeros(), |s, p| s + p.coords) / T::lit(ref_pts.len() as f64);
    for e in 0..ref_pts.len() {
        let (p, q) = (ref_pts[e], ref_pts[(e + 1) % ref_pts.len()]);
        let side = outward_side(&p, &q, &ref_normal, &centre);
        poly.clip(&side, side.dot(&p.coords), e as u32);
        if poly.is_empty() {
            return;
        }
    }
    let plane_d = ref_normal.dot(&ref_pts[0].coords);
    let base = (u32::from(flip) << 30) | ((f as u32 & 0x3ff) << 20) | ((g as u32 & 0x3ff) << 10);
    let mut candidates = Candidates::<T, FACE_CLIP_CAPACITY>::new();
    for &(p, id) in poly.as_slice() {
        // Height above the reference face: the point's signed distance along the normal.
        let z = ref_normal.dot(&p.coords) - plane_d;
        if z <= prediction {
            let on_ref = p - ref_normal * z;
            let (point_a, point_b) = if flip { (p, on_ref) } else { (on_ref, p) };
            candidates.push(ManifoldPoint { point_a, point_b, distance: z, id: base | (id & 0x3ff) });
        }
    }
    out.reduce(candidates.as_slice());
}

/// The normal of the side plane through the face edge `p q` (the face's normal `n`, its
/// centre `centre`), pointing away from the face.
pub(crate) fn outward_side<T: Real>(
    p: &Point<T, 3>,
    q: &Point<T, 3>,
    n: &Vector<T, 3>,
    centre: &Vector<T, 3>,
) -> Vector<T, 3> {
    let side = (q - p).cross(n);
    if side.dot(&(p.coords - centre)) < T::zero() {
        -side
    } else {
        side
    }
}
