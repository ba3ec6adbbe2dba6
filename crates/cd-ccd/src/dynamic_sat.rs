//! Dynamic separating-axis tests (seed 25.8.4): boxes and triangles translating with constant
//! velocities.
//!
//! Under translation the candidate axes of two polytopes do not turn, so the static SAT axis
//! set stays complete at every time. On each axis `a` A's projected interval moves at
//! `v·a` relative to B's; it overlaps B's during one time interval `[t_s, t_e]`. The shapes
//! overlap exactly when every axis overlaps, so first contact is at the largest `t_s` and
//! last contact at the smallest `t_e`. The sweep rejects as soon as an axis is separated and
//! not closing (or closing too late), or the running `max t_s` passes `min t_e`, exactly as
//! the static SAT rejects on its first separating axis.
//!
//! The contact normal is the axis that opened last (oriented from A to B); the contact point
//! comes from the static contact of the two shapes moved to the time of impact.

use nalgebra::{Point3, Vector3};

use cd_geom::{closest_points_triangle_triangle, Aabb, Obb, Point, Real, Triangle, Vector};
use cd_narrow::{box_box_manifold, box_triangle_manifold, Manifold, SatCache};

use crate::motion::LinearMotion;
use crate::toi::{Toi, ToiStatus};

/// The running state of a dynamic SAT sweep over candidate axes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AxisSweep<T: Real, const D: usize> {
    v: Vector<T, D>,
    max_t: T,
    /// Largest entry time so far (`0` while every axis overlaps at the start).
    first: T,
    /// Smallest exit time so far.
    last: T,
    /// The axis whose entry time is `first`, oriented from A to B (zero while none).
    normal: Vector<T, D>,
}

impl<T: Real, const D: usize> AxisSweep<T, D> {
    pub(crate) fn new(v: Vector<T, D>, max_t: T) -> Self {
        Self { v, max_t, first: T::zero(), last: max_t, normal: Vector::zeros() }
    }

    /// Adds axis `axis` (any length) with A's projected interval `a` and B's `b` at time 0.
    /// Returns `false` when this axis proves that the shapes do not meet during the step.
    pub(crate) fn axis(&mut self, axis: &Vector<T, D>, a: (T, T), b: (T, T)) -> bool {
        let w = self.v.dot(axis); // A's interval moves at w along this axis
        let (t_s, t_e, towards_b) = if a.1 < b.0 {
            // A below B: it must move up.
            if w <= T::zero() {
                return false;
            }
            ((b.0 - a.1) / w, (b.1 - a.0) / w, T::one())
        } else if a.0 > b.1 {
            // A above B: it must move down.
            if w >= T::zero() {
                return false;
            }
            ((a.0 - b.1) / -w, (a.1 - b.0) / -w, -T::one())
        } else {
            // Overlapping (or touching) now: until A's interval slides off.
            let t_e = if w > T::zero() {
                (b.1 - a.0) / w
            } else if w < T::zero() {
                (a.1 - b.0) / -w
            } else {
                T::infinity()
            };
            (T::zero(), t_e, T::zero())
        };
        if t_s > self.first
            || (t_s == self.first && self.normal == Vector::<T, D>::zeros() && towards_b != T::zero())
        {
            self.first = t_s;
            let len = axis.norm();
            self.normal = axis * (towards_b / len);
        }
        self.last = self.last.min(t_e);
        self.first <= self.last && self.first <= self.max_t
    }

    /// The time of first contact and whether the shapes overlapped at time 0.
    pub(crate) fn result(&self) -> (T, ToiStatus) {
        if self.normal == Vector::<T, D>::zeros() {
            (T::zero(), ToiStatus::StartedInContact)
        } else {
            (self.first, ToiStatus::Converged)
        }
    }

    pub(crate) fn normal(&self) -> Vector<T, D> {
        self.normal
    }
}

/// Interval of a box on an axis.
fn obb_interval<T: Real, const D: usize>(b: &Obb<T, D>, axis: &Vector<T, D>) -> (T, T) {
    let c = b.center().coords.dot(axis);
    let mut r = T::zero();
    for i in 0..D {
        r += (b.axis(i).dot(axis) * b.half_extents()[i]).abs();
    }
    (c - r, c + r)
}

/// Interval of a point set on an axis.
fn points_interval<T: Real, const D: usize>(points: &[Point<T, D>], axis: &Vector<T, D>) -> (T, T) {
    points.iter().fold((T::infinity(), -T::infinity()), |(lo, hi), p| {
        let x = p.coords.dot(axis);
        (lo.min(x), hi.max(x))
    })
}

/// Whether a cross-product axis is long enough to carry information (parallel edges give a
/// zero axis, which the face axes make unnecessary).
fn usable<T: Real>(axis: &Vector3<T>, scale: T) -> bool {
    axis.norm_squared() > T::epsilon() * T::epsilon() * scale
}

/// Moving AABB A against AABB B (seed 25.8.4's entry and exit times per axis), in 2D or 3D.
/// Exact; O(D). The contact point is the centre of the boxes' touching region.
///
/// ```
/// use cd_ccd::{aabb_aabb, LinearMotion};
/// use cd_geom::Aabb;
/// use nalgebra::{Point2, Vector2};
/// let a = Aabb::new(Point2::new(0.0f64, 0.0), Point2::new(1.0, 1.0)).unwrap();
/// let b = Aabb::new(Point2::new(3.0, 0.5), Point2::new(4.0, 3.0)).unwrap();
/// let m = LinearMotion::of_a(Vector2::new(4.0, 0.0), 1.0).unwrap();
/// let hit = aabb_aabb(&a, &b, &m).unwrap();
/// assert_eq!(hit.time, 0.5);
/// assert_eq!(hit.normal, Vector2::new(1.0, 0.0));
/// assert_eq!(hit.point_a, Point2::new(3.0, 0.75));
/// ```
pub fn aabb_aabb<T: Real, const D: usize>(
    a: &Aabb<T, D>,
    b: &Aabb<T, D>,
    motion: &LinearMotion<T, D>,
) -> Option<Toi<T, D>> {
    let v = motion.relative_velocity();
    let mut sweep = AxisSweep::new(v, motion.max_time());
    for i in 0..D {
        let axis = Vector::<T, D>::from_fn(|k, _| if k == i { T::one() } else { T::zero() });
        if !sweep.axis(&axis, (a.min()[i], a.max()[i]), (b.min()[i], b.max()[i])) {
            return None;
        }
    }
    let (t, status) = sweep.result();
    // Centre of the overlap of the moved A with B on every axis.
    let shift = v * t;
    let point = Point::<T, D>::from(Vector::<T, D>::from_fn(|i, _| {
        let lo = (a.min()[i] + shift[i]).max(b.min()[i]);
        let hi = (a.max()[i] + shift[i]).min(b.max()[i]);
        (lo + hi) * T::lit(0.5)
    }));
    let toi = Toi { time: t, point_a: point, point_b: point, normal: sweep.normal(), status };
    Some(toi.shifted(motion.offset_b(t)))
}

/// Moving OBB A against OBB B by dynamic SAT over the 15 axes (3 + 3 face normals, 9 edge
/// cross products). Exact; O(1). The contact point is the mean of the boxes' contact manifold
/// at the time of impact.
pub fn obb_obb<T: Real>(a: &Obb<T, 3>, b: &Obb<T, 3>, motion: &LinearMotion<T, 3>) -> Option<Toi<T, 3>> {
    let v = motion.relative_velocity();
    let mut sweep = AxisSweep::new(v, motion.max_time());
    let mut test = |axis: &Vector3<T>| sweep.axis(axis, obb_interval(a, axis), obb_interval(b, axis));
    for i in 0..3 {
        if !test(&a.axis(i)) || !test(&b.axis(i)) {
            return None;
        }
    }
    for i in 0..3 {
        for j in 0..3 {
            let axis = a.axis(i).cross(&b.axis(j));
            if usable(&axis, T::one()) && !test(&axis) {
                return None;
            }
        }
    }
    let (t, status) = sweep.result();
    let moved = Obb::new(a.center() + v * t, *a.axes(), *a.half_extents()).ok();
    let points = moved.and_then(|m| {
        let mut manifold = Manifold::default();
        box_box_manifold(
            &m,
            b,
            contact_slack(b.half_extents().max()),
            &mut SatCache::default(),
            &mut manifold,
        );
        manifold_centre(&manifold)
    });
    Some(finish(t, status, sweep.normal(), points, a, b, &v, motion))
}

/// Moving triangle A against OBB B by dynamic SAT over the 13 axes (the box's 3 face normals,
/// the triangle's normal, 9 edge cross products). Exact; O(1).
pub fn triangle_obb<T: Real>(
    tri: &Triangle<T, 3>,
    b: &Obb<T, 3>,
    motion: &LinearMotion<T, 3>,
) -> Option<Toi<T, 3>> {
    let v = motion.relative_velocity();
    let vertices = tri.vertices();
    let mut sweep = AxisSweep::new(v, motion.max_time());
    let mut test =
        |axis: &Vector3<T>| sweep.axis(axis, points_interval(&vertices, axis), obb_interval(b, axis));
    for i in 0..3 {
        if !test(&b.axis(i)) {
            return None;
        }
    }
    let n = tri.scaled_normal();
    let edges = [vertices[1] - vertices[0], vertices[2] - vertices[1], vertices[0] - vertices[2]];
    let scale = edges.iter().fold(T::zero(), |m, e| m.max(e.norm_squared()));
    if usable(&n, scale * scale) && !test(&n) {
        return None;
    }
    for e in &edges {
        for j in 0..3 {
            let axis = e.cross(&b.axis(j));
            if usable(&axis, scale) && !test(&axis) {
                return None;
            }
        }
    }
    let (t, status) = sweep.result();
    let shift = v * t;
    let moved = Triangle::new(vertices[0] + shift, vertices[1] + shift, vertices[2] + shift).ok();
    let points = moved.and_then(|m| {
        let mut manifold = Manifold::default();
        box_triangle_manifold(b, &m, contact_slack(b.half_extents().max()), &mut manifold)?;
        // The manifold is box-first: swap to triangle-first.
        manifold_centre(&manifold).map(|(on_box, on_tri)| (on_tri, on_box))
    });
    Some(finish(t, status, sweep.normal(), points, tri, b, &v, motion))
}

/// Moving OBB A against triangle B: [`triangle_obb`] seen from the other side.
pub fn obb_triangle<T: Real>(
    a: &Obb<T, 3>,
    tri: &Triangle<T, 3>,
    motion: &LinearMotion<T, 3>,
) -> Option<Toi<T, 3>> {
    let swapped = LinearMotion::new(*motion.velocity_b(), *motion.velocity_a(), motion.max_time()).ok()?;
    triangle_obb(tri, a, &swapped).map(|toi| toi.flipped())
}

/// Moving triangle A against triangle B by dynamic SAT over the 2 face normals, the 9 edge
/// cross products and, for (nearly) coplanar triangles, the 6 in-plane edge normals. Exact;
/// O(1).
///
/// ```
/// use cd_ccd::{triangle_triangle, LinearMotion};
/// use cd_geom::Triangle;
/// use nalgebra::{Point3, Vector3};
/// let floor = Triangle::new(Point3::new(-5.0f64, 0.0, -5.0), Point3::new(5.0, 0.0, -5.0), Point3::new(0.0, 0.0, 5.0)).unwrap();
/// // A vertical triangle whose lowest vertex is 2 above the floor, falling at 4 per unit time.
/// let tri = Triangle::new(Point3::new(0.0, 2.0, 0.0), Point3::new(1.0, 3.0, 0.0), Point3::new(-1.0, 3.0, 0.0)).unwrap();
/// let m = LinearMotion::of_a(Vector3::new(0.0, -4.0, 0.0), 1.0).unwrap();
/// let hit = triangle_triangle(&tri, &floor, &m).unwrap();
/// assert!((hit.time - 0.5).abs() < 1e-12);
/// assert!((hit.normal - Vector3::new(0.0, -1.0, 0.0)).norm() < 1e-12);
/// ```
pub fn triangle_triangle<T: Real>(
    a: &Triangle<T, 3>,
    b: &Triangle<T, 3>,
    motion: &LinearMotion<T, 3>,
) -> Option<Toi<T, 3>> {
    let v = motion.relative_velocity();
    let (va, vb) = (a.vertices(), b.vertices());
    let ea = [va[1] - va[0], va[2] - va[1], va[0] - va[2]];
    let eb = [vb[1] - vb[0], vb[2] - vb[1], vb[0] - vb[2]];
    let scale = ea.iter().chain(&eb).fold(T::zero(), |m, e| m.max(e.norm_squared()));
    let mut sweep = AxisSweep::new(v, motion.max_time());
    let mut test = |axis: &Vector3<T>| {
        !usable(axis, scale * scale)
            || sweep.axis(axis, points_interval(&va, axis), points_interval(&vb, axis))
    };
    let (na, nb) = (a.scaled_normal(), b.scaled_normal());
    if !test(&na) || !test(&nb) {
        return None;
    }
    for x in &ea {
        for y in &eb {
            if !test(&x.cross(y)) {
                return None;
            }
        }
    }
    // Coplanar (or nearly) triangles: the cross products vanish or lie in the normal's
    // direction, and the in-plane edge normals become the separating candidates.
    for e in &ea {
        if !test(&na.cross(e)) {
            return None;
        }
    }
    for e in &eb {
        if !test(&nb.cross(e)) {
            return None;
        }
    }
    let (t, status) = sweep.result();
    let shift = v * t;
    let moved = Triangle::new(va[0] + shift, va[1] + shift, va[2] + shift).ok();
    let points = moved.map(|m| {
        let c = closest_points_triangle_triangle(&m, b);
        (c.a, c.b)
    });
    Some(finish(t, status, sweep.normal(), points, a, b, &v, motion))
}

/// Distance within which the static manifold is asked for contact points at the time of
/// impact: a little above rounding, relative to the shapes' size.
fn contact_slack<T: Real>(size: T) -> T {
    T::epsilon().sqrt() * (T::one() + size)
}

/// Mean of a manifold's witness points on each shape.
fn manifold_centre<T: Real>(m: &Manifold<T, 3>) -> Option<(Point3<T>, Point3<T>)> {
    let n = m.points().len();
    if n == 0 {
        return None;
    }
    let inv = T::one() / T::lit(n as f64);
    let (mut a, mut b) = (Vector3::zeros(), Vector3::zeros());
    for p in m.points() {
        a += p.point_a.coords;
        b += p.point_b.coords;
    }
    Some((Point3::from(a * inv), Point3::from(b * inv)))
}

/// Builds the answer of a dynamic SAT test; without contact points from the static test (a
/// moved shape outside the coordinate range), the support points along the normal stand in.
#[allow(clippy::too_many_arguments)]
fn finish<T, A, B>(
    t: T,
    status: ToiStatus,
    normal: Vector3<T>,
    points: Option<(Point3<T>, Point3<T>)>,
    a: &A,
    b: &B,
    v: &Vector3<T>,
    motion: &LinearMotion<T, 3>,
) -> Toi<T, 3>
where
    T: Real,
    A: cd_geom::SupportMap<T, 3>,
    B: cd_geom::SupportMap<T, 3>,
{
    let (point_a, point_b) = points.unwrap_or_else(|| (a.support(&normal) + v * t, b.support(&-normal)));
    Toi { time: t, point_a, point_b, normal, status }.shifted(motion.offset_b(t))
}
