//! Moving capsules against planes, half-spaces and triangles.
//!
//! A capsule is a segment grown by a radius, so under translation its first contact is found
//! from the distance between its axis and the obstacle:
//!
//! * against a plane the distance is linear along the axis, so one of the two end spheres
//!   touches first (both at once when the axis is parallel to the plane);
//! * against a triangle the closest points of a segment and a triangle are endpoint/face or
//!   segment/edge pairs, so the first contact is the earliest of: an end sphere against the
//!   triangle (puffy sum, [`crate::sphere_triangle`]), a triangle vertex against the capsule's
//!   side, and the axis against an edge — the face of the parallelogram `edge ⊕ (−axis)`
//!   offset by the radius.

use nalgebra::{Point3, Vector3};

use cd_geom::{
    closest_points_between_segments, closest_points_segment_triangle, Capsule, Plane, Real, Triangle,
};

use crate::motion::LinearMotion;
use crate::relative;
use crate::sphere::{moved, rounded_segment_against_plane};
use crate::swept_sphere::{boundary_slack, cylinder_side_entry, magnitude_of, start_touch_slack, Face};
use crate::toi::{unit_or_zero, Earliest, PlaneArrival, Toi, ToiStatus};

/// Capsule A moving against plane B, seen as a two-sided surface (like
/// [`crate::sphere_plane`]). Exact; O(D).
///
/// ```
/// use cd_ccd::{capsule_plane, LinearMotion};
/// use cd_geom::{Capsule, Plane};
/// use nalgebra::{Point3, Vector3};
/// // A tilted capsule: its lower end (y = 3, radius 0.5) reaches the floor first.
/// let cap = Capsule::new(Point3::new(0.0f64, 3.0, 0.0), Point3::new(1.0, 5.0, 0.0), 0.5).unwrap();
/// let floor = Plane::new(Vector3::y(), 0.0).unwrap();
/// let m = LinearMotion::of_a(Vector3::new(0.0, -5.0, 0.0), 1.0).unwrap();
/// let hit = capsule_plane(&cap, &floor, &m).unwrap();
/// assert!((hit.time - 0.5).abs() < 1e-12);
/// assert!((hit.point_b - Point3::new(0.0, 0.0, 0.0)).norm() < 1e-12);
/// ```
pub fn capsule_plane<T: Real, const D: usize>(
    capsule: &Capsule<T, D>,
    plane: &Plane<T, D>,
    motion: &LinearMotion<T, D>,
) -> Option<Toi<T, D>> {
    // The side the capsule is on decides which way the normal points; a capsule whose axis
    // crosses the plane has one end at a negative distance, hence in contact.
    let side = if plane.signed_distance(capsule.a()) >= T::zero() { T::one() } else { -T::one() };
    rounded_segment_against_plane(capsule.a(), capsule.b(), capsule.radius(), plane, side, motion)
}

/// Capsule A moving against the half-space B = `{x : n·x + d ≤ 0}` (like
/// [`crate::sphere_halfspace`]). Exact; O(D).
pub fn capsule_halfspace<T: Real, const D: usize>(
    capsule: &Capsule<T, D>,
    halfspace: &Plane<T, D>,
    motion: &LinearMotion<T, D>,
) -> Option<Toi<T, D>> {
    rounded_segment_against_plane(capsule.a(), capsule.b(), capsule.radius(), halfspace, T::one(), motion)
}

/// Capsule A moving against triangle B (two-sided). Exact; O(1): two end spheres against the
/// triangle, three triangle vertices against the capsule's side and three parallelogram faces
/// (axis against each edge).
///
/// ```
/// use cd_ccd::{capsule_triangle, LinearMotion};
/// use cd_geom::{Capsule, Triangle};
/// use nalgebra::{Point3, Vector3};
/// let tri = Triangle::new(Point3::new(-1.0f64, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 0.0, 1.0)).unwrap();
/// // A vertical capsule above the triangle's edge along x, crossing it sideways: the axis
/// // meets the edge (the parallelogram case).
/// let cap = Capsule::new(Point3::new(0.0, -2.0, -3.0), Point3::new(0.0, 2.0, -3.0), 0.25).unwrap();
/// let m = LinearMotion::of_a(Vector3::new(0.0, 0.0, 5.5), 1.0).unwrap();
/// let hit = capsule_triangle(&cap, &tri, &m).unwrap();
/// assert!((hit.time - 2.75 / 5.5).abs() < 1e-12);
/// assert!((hit.point_b - Point3::new(0.0, 0.0, 0.0)).norm() < 1e-12);
/// ```
pub fn capsule_triangle<T: Real>(
    capsule: &Capsule<T, 3>,
    tri: &Triangle<T, 3>,
    motion: &LinearMotion<T, 3>,
) -> Option<Toi<T, 3>> {
    // Far from the origin, relative to the capsule's first end ([`crate::relative`]).
    let near = [tri.a(), tri.b(), tri.c(), capsule.b()];
    if let Some(origin) = relative::far_origin(capsule.a(), near, capsule.radius(), motion) {
        let (a, b) = (relative::moved(capsule.a(), &origin), relative::moved(capsule.b(), &origin));
        if let (Ok(here), Ok(tri_here)) = (Capsule::new(a, b, capsule.radius()), tri.translated(&-origin)) {
            return relative::moved_back(origin, capsule_triangle(&here, &tri_here, motion));
        }
    }
    let r = capsule.radius();
    let v = motion.relative_velocity();
    let start = closest_points_segment_triangle(&capsule.segment(), tri);
    // Touching at the start when the gap is below the rounding of the coordinates.
    let vertices = tri.vertices();
    let touch = r + start_touch_slack(magnitude_of(vertices.iter().chain([capsule.a(), capsule.b()])));
    if start.distance_squared <= touch * touch {
        let mut normal = unit_or_zero(start.b - start.a);
        if normal == Vector3::zeros() {
            normal = unit_or_zero(tri.scaled_normal());
        }
        let toi = Toi {
            time: T::zero(),
            point_a: start.a + normal * r,
            point_b: start.b,
            normal,
            status: ToiStatus::StartedInContact,
        };
        return Some(toi);
    }
    let t = first_contact_time(capsule, tri, &v, motion.max_time())?;
    let (s0, s1) = (moved(capsule.a(), &v, t), moved(capsule.b(), &v, t));
    let (on_axis, on_tri) = closest_points_axis_triangle(&s0, &s1, tri);
    let normal = unit_or_zero(on_tri - on_axis);
    let toi =
        Toi { time: t, point_a: on_axis + normal * r, point_b: on_tri, normal, status: ToiStatus::Converged };
    Some(toi.shifted(motion.offset_b(t)))
}

/// The earliest of the three families of candidate contacts, for a capsule not touching the
/// triangle at time 0.
fn first_contact_time<T: Real>(
    capsule: &Capsule<T, 3>,
    tri: &Triangle<T, 3>,
    v: &Vector3<T>,
    max_t: T,
) -> Option<T> {
    let r = capsule.radius();
    let (s0, s1) = (*capsule.a(), *capsule.b());
    let vertices = tri.vertices();
    let face = Face::triangle(tri, &vertices);
    let mut best = Earliest::new();
    // End spheres against the triangle (face, edges, vertices).
    for end in [s0, s1] {
        best.keep(face.sphere_entry(&end, v, r, max_t).time());
    }
    let back = -v;
    // The axis/edge family runs in `f64` ([`axis_edge_entry`]): the axis, its motion and the
    // triangle's vertices widened once for the three edges.
    let axis = WideAxis::new(&s0, &s1, v, r, max_t);
    let wide_vertices = vertices.map(|x| wide(&x));
    for (i, x) in vertices.iter().enumerate() {
        // Triangle vertex against the capsule's side (in the capsule's frame it moves by −v).
        best.keep(cylinder_side_entry(x, &back, &s0, &s1, r, max_t));
        // Axis interior against edge interior; the slack is the inputs' own rounding.
        let j = (i + 1) % 3;
        let slack = boundary_slack(magnitude_of([&s0, &s1, x, &vertices[j]])).to_f64();
        let t = axis_edge_entry(&axis, &wide_vertices[i], &wide_vertices[j], slack);
        // The time rounded to `T`, never past the step.
        best.keep(t.map(|t| T::lit(t).min(max_t)));
    }
    best.0
}

/// A point in `f64` (exact for `f32` and `f64` inputs).
fn wide<T: Real>(p: &Point3<T>) -> Point3<f64> {
    p.map(|x| x.to_f64())
}

/// A capsule's axis `[s0, s1]`, its motion `v` over `[0, max_t]` and its radius `r`, in `f64`.
#[derive(Clone, Copy)]
struct WideAxis {
    s0: Point3<f64>,
    s1: Point3<f64>,
    v: Vector3<f64>,
    r: f64,
    max_t: f64,
}

impl WideAxis {
    fn new<T: Real>(s0: &Point3<T>, s1: &Point3<T>, v: &Vector3<T>, r: T, max_t: T) -> Self {
        WideAxis {
            s0: wide(s0),
            s1: wide(s1),
            v: v.map(|x| x.to_f64()),
            r: r.to_f64(),
            max_t: max_t.to_f64(),
        }
    }
}

/// First time the axis `[s0, s1] + v t` comes within `r` of edge `[e0, e1]` with both closest
/// points interior: the offset face of the parallelogram `{e(u) − s(w)}` that the point `v t`
/// must reach. Ends of either segment are left to the sphere and cylinder tests. `slack` is
/// the inputs' boundary rounding.
///
/// Computed in `f64` whatever the shapes' type (the slack stays that type's rounding of the
/// inputs): the plane's normal crosses two nearly parallel segments, and in `f32` its rounding
/// tilted it enough to misplace the plane by more than the gap (two 15-long segments
/// 6.7·10⁻⁴ rad apart, the origin 10⁻⁴ from the plane: the first contact came 6 time units
/// late, finding 72).
fn axis_edge_entry(axis: &WideAxis, e0: &Point3<f64>, e1: &Point3<f64>, slack: f64) -> Option<f64> {
    let WideAxis { s0, s1, v, r, max_t } = *axis;
    let de = e1 - e0;
    let ds = s1 - s0;
    let cross = de.cross(&ds);
    let scale = de.norm_squared() * ds.norm_squared();
    // Parallel segments: every closest pair involves an end, found by the other tests.
    if cross.norm_squared() <= f64::EPSILON * scale {
        return None;
    }
    let n = cross.normalize();
    let base = e0 - s0; // the parallelogram's corner e(0) − s(0)
    let s = -n.dot(&base); // signed distance of the origin from its plane
    let towards = if s >= 0.0 { -n } else { n };
    let approach = towards.dot(&v);
    let gap = s.abs() - r;
    // The origin at v t in (u, w) coordinates of the parallelogram, affine in t: solve
    // k = u de − w ds (projected on its plane) for k = towards r − base and for k = v. By
    // cross products (k × ds = u · cross, k × de = w · cross), not by the normal equations:
    // their determinant |de|²|ds|² − (de·ds)² cancels catastrophically for nearly parallel
    // segments (in f32 it came out wrong by a quarter for segments 10⁻³ rad apart, which put
    // a segment 0.077 away inside the parallelogram at time 0, finding 66).
    let cross2 = cross.norm_squared();
    let solve = |k: &Vector3<f64>| (k.cross(&ds).dot(&cross) / cross2, k.cross(&de).dot(&cross) / cross2);
    let (a11, a22) = (de.norm_squared(), ds.norm_squared());
    let (u0, w0) = solve(&(towards * r - base));
    let (u_rate, w_rate) = solve(&v);
    // Within rounding of the offset plane and inside the parallelogram: closest points just
    // beyond an end count (a radius-0 axis whose end crosses the edge is otherwise lost between
    // this test and the end's face test, finding 22), and so does every time the origin is
    // within rounding of the plane (a motion grazing it, finding 34).
    if gap < -slack {
        return None; // the lines are already closer than r: the contact comes through a side
    }
    let (u_margin, w_margin) = (slack / a11.sqrt(), slack / a22.sqrt());
    let mut window = PlaneArrival::new(gap, approach, slack, max_t);
    window.keep_within(u0, u_rate, -u_margin, 1.0 + u_margin);
    window.keep_within(w0, w_rate, -w_margin, 1.0 + w_margin);
    window.first_contact()
}

/// Closest points of the segment `[s0, s1]` and a triangle it does not cross: an end against
/// the face or the segment against an edge.
fn closest_points_axis_triangle<T: Real>(
    s0: &Point3<T>,
    s1: &Point3<T>,
    tri: &Triangle<T, 3>,
) -> (Point3<T>, Point3<T>) {
    let vertices = tri.vertices();
    let face = Face::triangle(tri, &vertices);
    let mut best = (*s0, face.closest_point(s0));
    let mut best_d = (best.1 - best.0).norm_squared();
    let mut keep = |a: Point3<T>, b: Point3<T>| {
        let d = (b - a).norm_squared();
        if d < best_d {
            best = (a, b);
            best_d = d;
        }
    };
    keep(*s1, face.closest_point(s1));
    for i in 0..3 {
        let (c, _, _) = closest_points_between_segments(s0, s1, &vertices[i], &vertices[(i + 1) % 3]);
        keep(c.a, c.b);
    }
    best
}
