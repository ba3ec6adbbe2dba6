//! A moving sphere against a triangle or a planar polygon, by the Minkowski "puffy" sum
//! (seed 25.8.3): the sphere's centre is a ray, and the face grown by the radius is the union
//! of the face's two offset copies, a cylinder around each edge and a sphere at each convex
//! vertex. The ray is tested against them in that order:
//!
//! 1. the offset face on the centre's side — if the hit projects inside the face it is the
//!    first contact (every earlier point of the ray is farther than `r` from the plane);
//! 2. otherwise the edge cylinders (sides only) and the vertex spheres, keeping the earliest.
//!
//! Concave vertices of a polygon are skipped: near a reflex vertex every point is closer to an
//! adjacent edge or to the face than to the vertex. Cost: O(n) for an n-gon.

use nalgebra::{Point3, Vector3};

use cd_geom::{
    closest_point_between, closest_point_on_triangle, crossings_test, projection_axes, Ball, Polygon, Real,
    Triangle,
};

use crate::motion::LinearMotion;
use crate::relative;
use crate::sphere::{moved, sphere_entry, Entry};
use crate::toi::{unit_or_zero, Earliest, PlaneArrival, Toi, ToiStatus};

/// A planar face as the puffy-sum test sees it.
pub(crate) struct Face<'a, T: Real> {
    vertices: &'a [Point3<T>],
    /// The triangle itself when the face is one (its closest-point query is the fast one).
    triangle: Option<&'a Triangle<T, 3>>,
    /// Unit normal consistent with the winding (counter-clockwise seen from its tip), or zero
    /// for a degenerate face (then only its edges and vertices count).
    normal: Vector3<T>,
    /// Whether every vertex is convex (triangles, convex polygons): containment by edge
    /// functions and every vertex sphere tested.
    convex: bool,
    /// The largest coordinate magnitude of the vertices: the scale of their rounding.
    magnitude: T,
}

/// How far outside a boundary (an edge of a face, an end of a segment) a contact may fall
/// and still count, for coordinates of magnitude `magnitude`: sixty-four ulps of it. Every
/// first contact lies on a face, an edge or a vertex of the swept shapes, and a contact
/// exactly where two of them meet (a radius-0 capsule's end crossing a triangle's edge) must
/// be accepted by at least one of the tests; rounding of the coordinates would otherwise push
/// it just outside both and lose it (found by fuzzing, FUZZING.md finding 22).
pub(crate) fn boundary_slack<T: Real>(magnitude: T) -> T {
    T::epsilon() * T::lit(64.0) * magnitude
}

/// The gap below which a shape counts as touching at the start, for coordinates of magnitude
/// `magnitude`: sixteen ulps of it. The entry tests cannot time a contact that close (a
/// radius-0 ball lying in a face's plane is within rounding of it over the whole motion, and a
/// radius-0 capsule ending 3·10⁻⁷ from a vertex at 8·10⁹ was reported a whole step late).
pub(crate) fn start_touch_slack<T: Real>(magnitude: T) -> T {
    T::epsilon() * T::lit(16.0) * magnitude
}

/// The largest coordinate magnitude among `points`.
pub(crate) fn magnitude_of<'p, T: Real>(points: impl IntoIterator<Item = &'p Point3<T>>) -> T {
    points.into_iter().fold(T::zero(), |m, p| m.max(p.coords.amax()))
}

impl<'a, T: Real> Face<'a, T> {
    /// The face of a triangle (`vertices` are its three vertices).
    pub(crate) fn triangle(triangle: &'a Triangle<T, 3>, vertices: &'a [Point3<T>; 3]) -> Self {
        // No normal (zero) for collinear vertices, also when rounding left a noise cross product.
        let normal = triangle.normal().unwrap_or_else(|_| Vector3::zeros());
        Face { vertices, triangle: Some(triangle), normal, convex: true, magnitude: magnitude_of(vertices) }
    }

    /// The face of a simple planar polygon.
    fn polygon(polygon: &'a Polygon<T, 3>) -> Self {
        let vertices = polygon.vertices();
        // Newell's normal follows the winding, whichever way the polygon stores its own.
        let mut newell = Vector3::zeros();
        for (i, p) in vertices.iter().enumerate() {
            newell += p.coords.cross(&vertices[(i + 1) % vertices.len()].coords);
        }
        Face {
            vertices,
            triangle: None,
            normal: unit_or_zero(newell),
            convex: polygon.is_convex(),
            magnitude: magnitude_of(vertices),
        }
    }

    fn edges(&self) -> impl Iterator<Item = (usize, Point3<T>, Point3<T>)> + '_ {
        let n = self.vertices.len();
        (0..n).map(move |i| (i, self.vertices[i], self.vertices[(i + 1) % n]))
    }

    /// The unit vector in the face's plane across edge `[a, b]`, pointing into the face (for
    /// counter-clockwise winding), or `None` for a zero-length edge.
    fn inward_across(&self, a: &Point3<T>, b: &Point3<T>) -> Option<Vector3<T>> {
        let edge = b - a;
        let length = edge.norm();
        (length > T::zero()).then(|| self.normal.cross(&edge) / length)
    }

    /// The half-planes whose intersection, each moved out by the boundary slack, is where a
    /// convex face accepts points: `(inward, at)` keeps the points `p` with
    /// `inward · (p − at) ≥ −slack`. One per edge, and one per vertex across the bisector of
    /// its corner. Without the corner cuts, the edges' lines moved out by the slack meet
    /// slack/sin(angle/2) past a corner: past the tip of a sliver the accepted region ran on
    /// far beyond the face (fuzz finding 54). With them, every accepted point lies within a
    /// few slacks of the face, and every point within one slack of it is still accepted (the
    /// face grown by a disk of that radius lies inside every cut).
    fn boundary_half_planes(&self) -> impl Iterator<Item = (Vector3<T>, Point3<T>)> + '_ {
        let n = self.vertices.len();
        let edges = self.edges().filter_map(|(_, a, b)| Some((self.inward_across(&a, &b)?, a)));
        let corners = (0..n).filter_map(move |i| {
            let (prev, at, next) =
                (self.vertices[(i + n - 1) % n], self.vertices[i], self.vertices[(i + 1) % n]);
            // Into the corner along its bisector: the sum of the unit vectors along its two
            // edges, of length 2·cos(angle/2) — well conditioned for the sharp corners that need
            // the cut. A corner within 6° of flat has its edges' cuts meeting within 1.01 slacks
            // of it and needs none; nor does one next to a zero-length edge (a repeated vertex).
            let along = |to: Point3<T>| {
                let edge = to - at;
                let length = edge.norm();
                (length > T::zero()).then(|| edge / length)
            };
            let bisector = along(prev)? + along(next)?;
            let length = bisector.norm();
            (length > T::lit(0.1)).then(|| (bisector / length, at))
        });
        edges.chain(corners)
    }

    /// Whether vertex `i` is convex (a reflex vertex turns against the normal).
    fn vertex_is_convex(&self, i: usize) -> bool {
        if self.convex {
            return true;
        }
        let n = self.vertices.len();
        let prev = self.vertices[(i + n - 1) % n];
        let next = self.vertices[(i + 1) % n];
        let p = self.vertices[i];
        (p - prev).cross(&(next - p)).dot(&self.normal) >= T::zero()
    }

    /// Whether `p` (on the face's plane) projects inside the face; for a convex face, also
    /// when it falls outside by no more than the [`boundary_slack`] of the coordinates (as
    /// [`Face::boundary_half_planes`] measure it).
    fn contains_projection(&self, p: &Point3<T>) -> bool {
        if self.convex {
            let slack = boundary_slack(self.magnitude.max(p.coords.amax()));
            return self.boundary_half_planes().all(|(inward, at)| inward.dot(&(p - at)) >= -slack);
        }
        let (u, v) = projection_axes(&self.normal);
        let vs = self.vertices;
        crossings_test(vs.len(), |i| (vs[i][u], vs[i][v]), (p[u], p[v]))
    }

    /// The point of the face closest to `p`.
    pub(crate) fn closest_point(&self, p: &Point3<T>) -> Point3<T> {
        if let Some(tri) = self.triangle {
            return closest_point_on_triangle(p, tri).0;
        }
        if self.normal != Vector3::zeros() {
            let foot = p - self.normal * self.normal.dot(&(p - self.vertices[0]));
            if self.contains_projection(&foot) {
                return foot;
            }
        }
        let mut best = self.vertices[0];
        let mut best_d = T::infinity();
        for (_, a, b) in self.edges() {
            let q = closest_point_between(p, &a, &b).0;
            let d = (q - p).norm_squared();
            if d < best_d {
                (best, best_d) = (q, d);
            }
        }
        best
    }

    /// First time a sphere of radius `r` centred at `origin + v t` touches the face.
    pub(crate) fn sphere_entry(&self, origin: &Point3<T>, v: &Vector3<T>, r: T, max_t: T) -> Entry<T> {
        // Touching at the start when the gap is below the rounding of the coordinates.
        let touch = r + start_touch_slack(self.magnitude.max(origin.coords.amax()));
        if (self.closest_point(origin) - origin).norm_squared() <= touch * touch {
            return Entry::Inside;
        }
        if let Some(t) = self.offset_face_hit(origin, v, r, max_t) {
            return Entry::At(t);
        }
        let mut best = Earliest::new();
        for (i, a, b) in self.edges() {
            best.keep(cylinder_side_entry(origin, v, &a, &b, r, max_t));
            if self.vertex_is_convex(i) {
                best.keep(sphere_entry(&(origin - a), v, r, max_t).time());
            }
        }
        best.0.map_or(Entry::Miss, Entry::At)
    }

    /// Step 1: the copy of the face offset by `r` towards the centre.
    ///
    /// The times the touching point `origin + towards r + v t` is within rounding of the plane
    /// form a window ([`PlaneArrival`]): a motion grazing the plane leaves `gap / approach`
    /// known only to the rounding of the gap over the approach speed, and a crossing at the
    /// face's boundary moved by that much could fall outside every test (fuzz finding 34).
    fn offset_face_hit(&self, origin: &Point3<T>, v: &Vector3<T>, r: T, max_t: T) -> Option<T> {
        if self.normal == Vector3::zeros() {
            return None;
        }
        let s = self.normal.dot(&(origin - self.vertices[0]));
        let towards = if s >= T::zero() { -self.normal } else { self.normal };
        let approach = towards.dot(v);
        let gap = s.abs() - r;
        let slack = boundary_slack(self.magnitude.max(origin.coords.amax()));
        if gap < -slack {
            return None; // the centre is already past the offset plane: it can only leave it
        }
        let mut window = PlaneArrival::new(gap, approach, slack, max_t);
        let touching = origin + towards * r;
        if !self.convex {
            return self.concave_entry(&window, &touching, v, slack);
        }
        // A convex face clips the window by its boundary's half-planes (with the same slack as
        // `contains_projection`); each signed distance is affine in t.
        for (inward, at) in self.boundary_half_planes() {
            window.keep_within(inward.dot(&(touching - at)), inward.dot(v), -slack, T::infinity());
        }
        window.first_contact()
    }

    /// [`Face::offset_face_hit`] for a concave face, whose inside is not an intersection of
    /// slabs: when the touching point is inside the face at the start of the plane's window,
    /// the arrival time (or that start); otherwise the first time its path crosses the
    /// outline within the window (2D segment crossings in the face's projection plane, each
    /// edge's ends extended by `slack`).
    fn concave_entry(
        &self,
        window: &PlaneArrival<T>,
        touching: &Point3<T>,
        v: &Vector3<T>,
        slack: T,
    ) -> Option<T> {
        let (lo, hi) = window.bounds()?;
        let at = |t: T| touching + v * t;
        if self.contains_projection(&at(lo)) {
            // Inside from the window's start: the window's own answer (the arrival time when it
            // falls in the window, else the start), if the point is inside then too.
            let t = window.first_contact()?;
            return Some(if self.contains_projection(&at(t)) { t } else { lo });
        }
        // The path from at(lo) to at(hi) as p + s·d, s ∈ [0, 1]; an edge as a + q·e, q ∈ [0, 1].
        let (u, w) = projection_axes(&self.normal);
        let cross = |x: (T, T), y: (T, T)| x.0 * y.1 - x.1 * y.0;
        let p = at(lo);
        let d = (v[u] * (hi - lo), v[w] * (hi - lo));
        let mut first: Option<T> = None;
        for (_, a, b) in self.edges() {
            let e = (b[u] - a[u], b[w] - a[w]);
            let denom = cross(d, e);
            if denom == T::zero() {
                continue; // parallel: the crossing, if any, is at one of the edge's neighbours
            }
            let ap = (a[u] - p[u], a[w] - p[w]);
            let (s, q) = (cross(ap, e) / denom, cross(ap, d) / denom);
            // A crossing at a vertex, rounded just past the end of both of its edges, still
            // counts: the edge's parameter gets the boundary slack over its length.
            let margin = slack / (e.0 * e.0 + e.1 * e.1).sqrt();
            let on_path = s >= T::zero() && s <= T::one();
            let on_edge = q >= -margin && q <= T::one() + margin;
            if on_path && on_edge && first.is_none_or(|f| s < f) {
                first = Some(s);
            }
        }
        first.map(|s| lo + s * (hi - lo))
    }
}

/// First time a point moving as `origin + v t` enters the side of the cylinder of radius `r`
/// around segment `[p, q]` (caps excluded: the vertex spheres cover them).
///
/// The problem is 2D in the plane perpendicular to the axis `ê`: `|m⊥ + t v⊥|² = r²` with
/// `m⊥`, `v⊥` the components of `origin − p` and `v` across the axis, and the hit must lie
/// between the ends. A motion parallel to the axis never enters through the side.
pub(crate) fn cylinder_side_entry<T: Real>(
    origin: &Point3<T>,
    v: &Vector3<T>,
    p: &Point3<T>,
    q: &Point3<T>,
    r: T,
    max_t: T,
) -> Option<T> {
    let axis = q - p;
    let len = axis.norm();
    if len <= T::zero() {
        return None;
    }
    let e = axis / len;
    let m = origin - p;
    let m_perp = m - e * m.dot(&e);
    let v_perp = v - e * v.dot(&e);
    // The circle |m⊥ + t v⊥| = r is a sphere entry in the plane across the axis, solved in the
    // stable form (perpendicular offset, no b² − ac): with the discriminant squared, a 9-wide
    // capsule end passing an edge 10¹⁰ long was lost to its rounding (fuzz finding 31).
    // Inside the infinite cylinder, moving away, or parallel to the axis: no side entry.
    let Entry::At(t) = sphere_entry(&m_perp, &v_perp, r, max_t) else {
        return None;
    };
    // Hits just beyond an end (within rounding) count: the end's sphere may miss them too.
    let slack = boundary_slack(magnitude_of([origin, p, q]));
    let along = (m + v * t).dot(&e);
    (along >= -slack && along <= len + slack).then_some(t)
}

/// The contact of a sphere centred at `center` with a face, once they touch.
fn sphere_face_contact<T: Real>(
    face: &Face<'_, T>,
    center: Point3<T>,
    r: T,
    t: T,
    status: ToiStatus,
) -> Toi<T, 3> {
    let on_face = face.closest_point(&center);
    let mut normal = unit_or_zero(on_face - center);
    if normal == Vector3::zeros() {
        // The centre lies on the face (only when starting in contact): push along the normal.
        normal = -face.normal;
    }
    Toi { time: t, point_a: center + normal * r, point_b: on_face, normal, status }
}

/// The shared driver: sphere A against face B under a linear motion.
fn sphere_face<T: Real>(
    ball: &Ball<T, 3>,
    face: &Face<'_, T>,
    motion: &LinearMotion<T, 3>,
) -> Option<Toi<T, 3>> {
    let v = motion.relative_velocity();
    let (t, status) = match face.sphere_entry(ball.center(), &v, ball.radius(), motion.max_time()) {
        Entry::Inside => (T::zero(), ToiStatus::StartedInContact),
        Entry::At(t) => (t, ToiStatus::Converged),
        Entry::Miss => return None,
    };
    let center = moved(ball.center(), &v, t);
    Some(sphere_face_contact(face, center, ball.radius(), t, status).shifted(motion.offset_b(t)))
}

/// Sphere A moving against triangle B (two-sided) by the puffy sum: offset face, then the
/// three edge cylinders and vertex spheres. Exact; O(1).
///
/// ```
/// use cd_ccd::{sphere_triangle, LinearMotion};
/// use cd_geom::{Ball, Triangle};
/// use nalgebra::{Point3, Vector3};
/// let tri = Triangle::new(Point3::new(0.0f64, 0.0, 0.0), Point3::new(4.0, 0.0, 0.0), Point3::new(0.0, 4.0, 0.0)).unwrap();
/// // Aimed past the corner at (4, 0, 0): it grazes the vertex sphere, not the face.
/// let ball = Ball::new(Point3::new(5.0, 0.0, 10.0), 1.0).unwrap();
/// let m = LinearMotion::of_a(Vector3::new(0.0, 0.0, -20.0), 1.0).unwrap();
/// let hit = sphere_triangle(&ball, &tri, &m).unwrap();
/// assert!((hit.time - 0.5).abs() < 1e-12);
/// assert!((hit.point_b - Point3::new(4.0, 0.0, 0.0)).norm() < 1e-12);
/// ```
pub fn sphere_triangle<T: Real>(
    ball: &Ball<T, 3>,
    tri: &Triangle<T, 3>,
    motion: &LinearMotion<T, 3>,
) -> Option<Toi<T, 3>> {
    // Far from the origin, relative to the ball's centre ([`crate::relative`]).
    if let Some(origin) =
        relative::far_origin(ball.center(), [tri.a(), tri.b(), tri.c()], ball.radius(), motion)
    {
        if let (Ok(here), Ok(tri_here)) =
            (Ball::new(relative::moved(ball.center(), &origin), ball.radius()), tri.translated(&-origin))
        {
            return relative::moved_back(origin, sphere_triangle(&here, &tri_here, motion));
        }
    }
    let vertices = tri.vertices();
    sphere_face(ball, &Face::triangle(tri, &vertices), motion)
}

/// Sphere A moving against a planar polygon B (convex or not, two-sided) by the puffy sum,
/// skipping the spheres of concave vertices. Exact; O(n).
pub fn sphere_polygon<T: Real>(
    ball: &Ball<T, 3>,
    polygon: &Polygon<T, 3>,
    motion: &LinearMotion<T, 3>,
) -> Option<Toi<T, 3>> {
    // Far from the origin, relative to the ball's centre ([`crate::relative`]).
    if let Some(origin) = relative::far_origin(ball.center(), polygon.vertices(), ball.radius(), motion) {
        let vertices = polygon.vertices().iter().map(|p| relative::moved(p, &origin)).collect();
        if let (Ok(here), Ok(polygon_here)) =
            (Ball::new(relative::moved(ball.center(), &origin), ball.radius()), Polygon::new(vertices))
        {
            return relative::moved_back(origin, sphere_polygon(&here, &polygon_here, motion));
        }
    }
    sphere_face(ball, &Face::polygon(polygon), motion)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A point 10⁹ from a 10¹⁰-long axis, closing at speed 10⁹ on a cylinder of radius 9,
    /// placed far from the origin: it enters at t = (10⁹ − 9)/10⁹. The discriminant in the
    /// `b² − ac` form cancels to noise here (terms of 10³⁶ against a difference of 10²⁰).
    #[test]
    fn cylinder_entry_of_a_thin_cylinder_far_away() {
        let offset = Vector3::new(3e10, -2e10, 1e10);
        let p = Point3::from(Vector3::new(-5e9, 0.0, 0.0) + offset);
        let q = Point3::from(Vector3::new(5e9, 0.0, 0.0) + offset);
        for (x, z) in [(0.0, 0.0), (1.25e9, 0.0), (-3.5e9, 0.0), (0.0, 4.0)] {
            let origin = Point3::from(Vector3::new(x, 1e9, z) + offset);
            let v = Vector3::new(0.0, -1e9, 0.0);
            let t = cylinder_side_entry(&origin, &v, &p, &q, 9.0, 2.0).expect("enters the side");
            // Perpendicular distance √(10¹⁸ + z²) ≈ 10⁹: entry at (10⁹ − √(81 − z²))/10⁹.
            let expected = (1e9 - (81.0f64 - z * z).sqrt()) / 1e9;
            assert!((t - expected).abs() < 1e-13, "x {x} z {z}: {t} against {expected}");
        }
        // Passing 10 beside the axis: no entry.
        let origin = Point3::from(Vector3::new(0.0, 1e9, 10.0) + offset);
        assert_eq!(cylinder_side_entry(&origin, &Vector3::new(0.0, -1e9, 0.0), &p, &q, 9.0, 2.0), None);
    }
}
