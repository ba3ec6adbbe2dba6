//! Moving spheres against planes, half-spaces and other spheres (seed 25.8.1–25.8.2), in 2D
//! and 3D. Each test is closed form and O(D).

use cd_geom::{Ball, Plane, Point, Real, Vector};

use crate::motion::LinearMotion;
use crate::toi::{unit_or_zero, Toi, ToiStatus};

/// Where a point moving along a ray first comes within a distance of a centre.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Entry<T> {
    /// Already within the distance at time 0.
    Inside,
    /// First within the distance at this time.
    At(T),
    /// Never within the distance during the step.
    Miss,
}

impl<T> Entry<T> {
    /// The entry time, if the point enters during the step (not when it starts inside).
    pub(crate) fn time(self) -> Option<T> {
        match self {
            Entry::At(t) => Some(t),
            _ => None,
        }
    }
}

/// First time `t ∈ [0, max_t]` at which `|m + v t| ≤ radius` (`m` = moving point − centre).
///
/// Solves `|m + v t|² = r²` in the direction `u = v/|v|` (so no product of two large numbers
/// can overflow), with the discriminant computed from the perpendicular offset `m − (m·u)u`
/// rather than as `b² − c` (which cancels catastrophically far from the sphere), and the
/// smaller root taken in the stable form `c / q` (seed 25.8.2).
pub(crate) fn sphere_entry<T: Real, const D: usize>(
    m: &Vector<T, D>,
    v: &Vector<T, D>,
    radius: T,
    max_t: T,
) -> Entry<T> {
    let r2 = radius * radius;
    let c = m.norm_squared() - r2;
    if c <= T::zero() {
        return Entry::Inside;
    }
    let speed = v.norm();
    if speed <= T::zero() {
        return Entry::Miss;
    }
    let u = v / speed;
    let b = m.dot(&u);
    if b >= T::zero() {
        return Entry::Miss; // outside and moving away
    }
    let perp2 = (m - u * b).norm_squared();
    if perp2 > r2 {
        return Entry::Miss;
    }
    let q = -b + (r2 - perp2).sqrt();
    let s = c / q; // distance travelled to the entry point (q > 0 since b < 0)
    let t = s / speed;
    if t <= max_t {
        Entry::At(t)
    } else {
        Entry::Miss
    }
}

/// Sphere A moving against plane B (the plane as a two-sided surface: a sphere on either side
/// hits it when it comes within its radius) — seed 25.8.1.
///
/// With `s_c` and `s_e` the signed distances of the centre at the start and the end of the
/// step, the sphere touches at `t = (s_c − r)/(s_c − s_e)` of the step (`s_c + r` from the
/// negative side), with an early out when both ends lie beyond `r` on the same side.
/// A sphere already within `r` of the plane reports [`ToiStatus::StartedInContact`].
///
/// ```
/// use cd_ccd::{sphere_plane, LinearMotion};
/// use cd_geom::{Ball, Plane};
/// use nalgebra::{Point3, Vector3};
/// let ball = Ball::new(Point3::new(0.0f64, 5.0, 0.0), 1.0).unwrap();
/// let floor = Plane::new(Vector3::y(), 0.0).unwrap();
/// let m = LinearMotion::of_a(Vector3::new(0.0, -8.0, 0.0), 1.0).unwrap();
/// let hit = sphere_plane(&ball, &floor, &m).unwrap();
/// assert!((hit.time - 0.5).abs() < 1e-12); // 4 units to fall at 8 units per unit time
/// ```
pub fn sphere_plane<T: Real, const D: usize>(
    ball: &Ball<T, D>,
    plane: &Plane<T, D>,
    motion: &LinearMotion<T, D>,
) -> Option<Toi<T, D>> {
    // The side the centre is on decides which way the sphere meets the surface.
    let side = if plane.signed_distance(ball.center()) >= T::zero() { T::one() } else { -T::one() };
    rounded_segment_against_plane(ball.center(), ball.center(), ball.radius(), plane, side, motion)
}

/// Sphere A moving against the half-space B = `{x : n·x + d ≤ 0}` (the solid side of a
/// plane, e.g. a floor): like [`sphere_plane`], but a sphere whose centre is behind the plane
/// is in contact, not on the far side.
pub fn sphere_halfspace<T: Real, const D: usize>(
    ball: &Ball<T, D>,
    halfspace: &Plane<T, D>,
    motion: &LinearMotion<T, D>,
) -> Option<Toi<T, D>> {
    rounded_segment_against_plane(ball.center(), ball.center(), ball.radius(), halfspace, T::one(), motion)
}

/// The shared plane test of spheres and capsules: the segment `[a, b]` grown by `r` (a sphere
/// is `a = b`) is (or must be) on the side `side · n > 0`. Its distance to the plane is linear
/// along the segment, so the nearer end touches first, once its distance measured on that side,
/// `s = side · (n·x + d)`, is down to `r`: at `t = (s − r)/(−side · n·v)`. Both ends (their
/// midpoint) are reported when the segment is parallel to the plane to within rounding.
pub(crate) fn rounded_segment_against_plane<T: Real, const D: usize>(
    a: &Point<T, D>,
    b: &Point<T, D>,
    r: T,
    plane: &Plane<T, D>,
    side: T,
    motion: &LinearMotion<T, D>,
) -> Option<Toi<T, D>> {
    let da = side * plane.signed_distance(a);
    let db = side * plane.signed_distance(b);
    let normal = -*plane.normal() * side; // from the moving shape towards the plane
    let v = motion.relative_velocity();
    let nearest = da.min(db);
    let (t, status) = if nearest <= r {
        (T::zero(), ToiStatus::StartedInContact)
    } else {
        let approach = normal.dot(&v);
        if approach <= T::zero() {
            return None;
        }
        let t = (nearest - r) / approach;
        if t > motion.max_time() {
            return None;
        }
        (t, ToiStatus::Converged)
    };
    let tolerance = T::epsilon() * T::lit(16.0) * (T::one() + da.abs().max(db.abs()));
    let end = if (da - db).abs() <= tolerance {
        nalgebra::center(a, b)
    } else if da < db {
        *a
    } else {
        *b
    };
    let end = moved(&end, &v, t);
    let toi = Toi { time: t, point_a: end + normal * r, point_b: plane.project(&end), normal, status };
    Some(toi.shifted(motion.offset_b(t)))
}

/// Two moving spheres (seed 25.8.2): with B still and A moving at `v = v_A − v_B`, solve
/// `|c_A + v t − c_B|² = (r_A + r_B)²` for its smaller root by the stable quadratic formula.
/// Spheres already touching report [`ToiStatus::StartedInContact`]; spheres moving apart, or
/// whose closest approach stays beyond `r_A + r_B`, report `None`.
///
/// ```
/// use cd_ccd::{sphere_sphere, LinearMotion};
/// use cd_geom::Ball;
/// use nalgebra::{Point2, Vector2};
/// let a = Ball::new(Point2::new(0.0f64, 0.0), 1.0).unwrap();
/// let b = Ball::new(Point2::new(10.0, 0.0), 1.0).unwrap();
/// let m = LinearMotion::new(Vector2::new(2.0, 0.0), Vector2::new(-2.0, 0.0), 5.0).unwrap();
/// let hit = sphere_sphere(&a, &b, &m).unwrap();
/// assert!((hit.time - 2.0).abs() < 1e-12); // gap 8 closed at 4 units per unit time
/// assert!((hit.point_a.x - 5.0).abs() < 1e-12);
/// ```
pub fn sphere_sphere<T: Real, const D: usize>(
    a: &Ball<T, D>,
    b: &Ball<T, D>,
    motion: &LinearMotion<T, D>,
) -> Option<Toi<T, D>> {
    let v = motion.relative_velocity();
    let m = a.center() - b.center();
    let (t, status) = match sphere_entry(&m, &v, a.radius() + b.radius(), motion.max_time()) {
        Entry::Inside => (T::zero(), ToiStatus::StartedInContact),
        Entry::At(t) => (t, ToiStatus::Converged),
        Entry::Miss => return None,
    };
    let center_a = a.center() + v * t;
    let normal = unit_or_zero(b.center() - center_a);
    let toi = Toi {
        time: t,
        point_a: center_a + normal * a.radius(),
        point_b: b.center() - normal * b.radius(),
        normal,
        status,
    };
    Some(toi.shifted(motion.offset_b(t)))
}

/// A point moving from `start` by `velocity · t`.
#[inline]
pub(crate) fn moved<T: Real, const D: usize>(
    start: &Point<T, D>,
    velocity: &Vector<T, D>,
    t: T,
) -> Point<T, D> {
    start + velocity * t
}
