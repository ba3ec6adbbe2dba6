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

use core::cmp::Ordering;

use nalgebra::{Isometry3, Point3, Vector3};

use cd_geom::{
    closest_points_between_segments, closest_points_triangle_triangle, Aabb, Obb, Point, Real, SupportMap,
    Transformed, Triangle, Vector,
};
use cd_narrow::{
    box_box_manifold, box_triangle_manifold, gjk_distance, GjkCache, GjkConfig, Manifold, SatCache,
};

use crate::motion::LinearMotion;
use crate::relative;
use crate::shape_cast::{shape_cast, CastConfig};
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
    /// The caller's id of the axis whose entry time is `first` (`None` while every axis
    /// overlaps at the start).
    decider: Option<usize>,
    /// `+1` when A lies below B on that axis (the normal is the axis), `-1` above.
    sign: T,
    /// That axis, when given as a vector (not normalized).
    axis: Vector<T, D>,
}

impl<T: Real, const D: usize> AxisSweep<T, D> {
    pub(crate) fn new(v: Vector<T, D>, max_t: T) -> Self {
        Self { v, max_t, first: T::zero(), last: max_t, decider: None, sign: T::one(), axis: Vector::zeros() }
    }

    /// Adds axis `axis` (any length, identified by `id`) with A's projected interval `a` and
    /// B's `b` at time 0. Returns `false` when this axis proves that the shapes do not meet
    /// during the step.
    pub(crate) fn axis(&mut self, id: usize, axis: &Vector<T, D>, a: (T, T), b: (T, T)) -> bool {
        let before = self.decider;
        let keep_going = self.interval(id, self.v.dot(axis), a, b);
        if self.decider != before {
            self.axis = *axis;
        }
        keep_going
    }

    /// [`AxisSweep::axis`] with the axis given only by A's speed `w` along it (the caller
    /// knows the axis from `id`).
    pub(crate) fn interval(&mut self, id: usize, w: T, a: (T, T), b: (T, T)) -> bool {
        // A's interval at time t is a + w t; it overlaps B's while
        // b.0 − a.1 ≤ w t ≤ b.1 − a.0: a slab, entered and left like a ray enters a box.
        // Written without data-dependent branches (random configurations mispredict them).
        let (low, high) = (b.0 - a.1, b.1 - a.0);
        let (enter, exit, sign) = if w == T::zero() {
            // No motion along the axis: overlapping for ever, or never.
            let overlapping = low <= T::zero() && high >= T::zero();
            let never = if overlapping { -T::infinity() } else { T::infinity() };
            (never, T::infinity(), T::one())
        } else {
            let inv = T::one() / w;
            let (t1, t2) = (low * inv, high * inv);
            // w > 0: A comes up from below (t1 < t2), the normal is the axis; w < 0: from above.
            (t1.min(t2), t1.max(t2), if t1 <= t2 { T::one() } else { -T::one() })
        };
        let later = enter > self.first;
        self.first = if later { enter } else { self.first };
        self.decider = if later { Some(id) } else { self.decider };
        self.sign = if later { sign } else { self.sign };
        self.last = self.last.min(exit);
        self.first <= self.last && self.first <= self.max_t
    }

    /// The time of first contact and whether the shapes overlapped at time 0.
    pub(crate) fn result(&self) -> (T, ToiStatus) {
        match self.decider {
            None => (T::zero(), ToiStatus::StartedInContact),
            Some(_) => (self.first, ToiStatus::Converged),
        }
    }

    /// The unit normal from A to B when axes were given as vectors (zero when the shapes
    /// started in contact).
    pub(crate) fn normal(&self) -> Vector<T, D> {
        match self.decider {
            None => Vector::zeros(),
            Some(_) => self.axis * (self.sign / self.axis.norm()),
        }
    }

    /// The id of the axis that opened last (0 when none did).
    pub(crate) fn decider(&self) -> usize {
        self.decider.unwrap_or(0)
    }

    /// `+1` when A approached B along the deciding axis, `-1` against it.
    pub(crate) fn sign(&self) -> T {
        self.sign
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
    // 16 ε, cd-geom's threshold for a cross product that is rounding noise (a noise axis can
    // separate a segment-shaped triangle from a box it pierces: FUZZING.md finding 17).
    let k = T::lit(16.0) * T::epsilon();
    axis.norm_squared() > k * k * scale
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
        if !sweep.axis(i, &axis, (a.min()[i], a.max()[i]), (b.min()[i], b.max()[i])) {
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
///
/// An edge pair within `4√ε` of parallel (`1 − R²ᵢⱼ ≤ 16 ε`) gives no usable axis in the boxes'
/// type and is skipped, which can only make the contact earlier, and a pair a little further
/// from parallel gives an axis whose rounding is large against its length: in `f32` (`4√ε` =
/// 1.4·10⁻³ rad) needles moving onto a cube's edge at 10⁻⁵–0.03 rad from parallel touched up
/// to 8·10⁻³ of the step early. For boxes of a narrower type than `f64` with an edge pair
/// within 1.8° of parallel (and further than 8 ε from it), the sweep runs again in `f64` on
/// the boxes widened (their axes made orthonormal again: [`Obb::widened`]), where the skipping
/// threshold is 6·10⁻⁸ rad.
pub fn obb_obb<T: Real>(a: &Obb<T, 3>, b: &Obb<T, 3>, motion: &LinearMotion<T, 3>) -> Option<Toi<T, 3>> {
    let v = motion.relative_velocity();
    let mut sweep = AxisSweep::new(v, motion.max_time());
    // Everything in A's frame (Gottschalk's layout): B's axes there are the columns of
    // R = Aᵀ B, so every projection radius is a dot product with a row or column of |R|.
    // Axis ids: 0–2 A's faces, 3–5 B's faces, 6 + 3i + j the edge pair (A's i, B's j).
    let r = a.axes().transpose() * b.axes();
    let abs_r = r.map(|x| x.abs());
    let t = a.axes().transpose() * (b.center() - a.center());
    let w = a.axes().transpose() * v;
    let (ha, hb) = (a.half_extents(), b.half_extents());
    for i in 0..3 {
        let rb = hb.dot(&abs_r.row(i).transpose());
        if !sweep.interval(i, w[i], (-ha[i], ha[i]), (t[i] - rb, t[i] + rb)) {
            return None;
        }
    }
    for j in 0..3 {
        let ra = ha.dot(&abs_r.column(j));
        let (d, wj) = (t.dot(&r.column(j)), w.dot(&r.column(j)));
        if !sweep.interval(3 + j, wj, (-ra, ra), (d - hb[j], d + hb[j])) {
            return None;
        }
    }
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            // Aᵢ × Bⱼ has length √(1 − R²ᵢⱼ): parallel edges give no axis.
            let sin2 = T::one() - r[(i, j)] * r[(i, j)];
            // Within 1.8° of parallel a narrower type than `f64` measures the pair's axis
            // poorly (8 ε of the offsets over its length, more than 3·10⁻⁵ of the boxes' size)
            // or not at all: the sweep runs again in `f64`, unless the edges are parallel to
            // within the rotations' rounding (8 ε: boxes turned alike, whose skipped axis costs
            // no more than that). The squared length from the other two entries of the column,
            // not `1 − R²ᵢⱼ`: an `f32` cosine of 10⁻⁵ rad rounds to 1.
            let len2 = r[(i1, j)] * r[(i1, j)] + r[(i2, j)] * r[(i2, j)];
            let parallel = T::epsilon() * T::lit(8.0);
            if len2 <= T::lit(1e-3) && len2 > parallel * parallel && T::epsilon().to_f64() > f64::EPSILON {
                return obb_obb_wide(a, b, motion);
            }
            if sin2 <= T::epsilon() * T::lit(16.0) {
                continue;
            }
            let ra = ha[i1] * abs_r[(i2, j)] + ha[i2] * abs_r[(i1, j)];
            let rb = hb[j1] * abs_r[(i, j2)] + hb[j2] * abs_r[(i, j1)];
            let d = t[i2] * r[(i1, j)] - t[i1] * r[(i2, j)];
            let wij = w[i2] * r[(i1, j)] - w[i1] * r[(i2, j)];
            if !sweep.interval(6 + 3 * i + j, wij, (-ra, ra), (d - rb, d + rb)) {
                return None;
            }
        }
    }
    let (t, status) = sweep.result();
    let shift = v * t;
    let normal = match (status, sweep.decider()) {
        (ToiStatus::StartedInContact, _) => Vector3::zeros(),
        (_, id @ 0..=2) => a.axis(id),
        (_, id @ 3..=5) => b.axis(id - 3),
        (_, id) => a.axis((id - 6) / 3).cross(&b.axis((id - 6) % 3)).normalize(),
    } * sweep.sign();
    let points = box_box_touching_points(a, &shift, b, sweep.decider(), &normal).or_else(|| {
        // Face against edge or face: the centre of the clipped contact region.
        let moved = Obb::new(a.center() + shift, *a.axes(), *a.half_extents()).ok()?;
        let mut manifold = Manifold::default();
        let slack = contact_slack(b.half_extents().max());
        box_box_manifold(&moved, b, slack, &mut SatCache::default(), &mut manifold);
        manifold_centre(&manifold)
    });
    Some(finish(t, status, normal, points, a, b, &v, motion))
}

/// [`obb_obb`] in `f64` ([`Obb::widened`]: axes orthonormal again), for boxes of a narrower
/// type with an edge pair too nearly parallel for that type, and the answer narrowed back.
#[cold]
#[inline(never)]
fn obb_obb_wide<T: Real>(a: &Obb<T, 3>, b: &Obb<T, 3>, motion: &LinearMotion<T, 3>) -> Option<Toi<T, 3>> {
    let narrow_point = |p: &Point3<f64>| Point3::from(p.coords.map(T::lit));
    obb_obb(&a.widened(), &b.widened(), &motion.widened()).map(|toi| Toi {
        time: T::lit(toi.time).min(motion.max_time()),
        point_a: narrow_point(&toi.point_a),
        point_b: narrow_point(&toi.point_b),
        normal: toi.normal.map(T::lit),
        status: toi.status,
    })
}

/// The touching points of two boxes at the time of impact when the contact is a single point:
/// a vertex against a face (the deciding axis is a face normal and the other box has a unique
/// extreme vertex along it), or an edge against an edge (the closest points of the two
/// supporting edges). `None` for face–face and edge–face contacts, which touch along a region.
fn box_box_touching_points<T: Real>(
    a: &Obb<T, 3>,
    shift: &Vector3<T>,
    b: &Obb<T, 3>,
    decider: usize,
    n: &Vector3<T>,
) -> Option<(Point3<T>, Point3<T>)> {
    // A box has a unique extreme vertex along d unless d is perpendicular to one of its axes.
    let unique = |bx: &Obb<T, 3>, d: &Vector3<T>| (0..3).all(|k| bx.axis(k).dot(d).abs() > T::lit(1e-6));
    match decider {
        0..=2 if unique(b, n) => {
            let p = b.support(&-n);
            Some((p, p))
        }
        3..=5 if unique(a, n) => {
            let p = a.support(n) + shift;
            Some((p, p))
        }
        6..=14 => {
            let (i, j) = ((decider - 6) / 3, (decider - 6) % 3);
            let (a0, a1) = supporting_edge(a, i, n);
            let (b0, b1) = supporting_edge(b, j, &-n);
            let (c, _, _) = closest_points_between_segments(&(a0 + shift), &(a1 + shift), &b0, &b1);
            Some((c.a, c.b))
        }
        _ => None,
    }
}

/// The edge of a box parallel to its axis `i` that is farthest along `d`.
fn supporting_edge<T: Real>(bx: &Obb<T, 3>, i: usize, d: &Vector3<T>) -> (Point3<T>, Point3<T>) {
    let mut mid = *bx.center();
    for k in (0..3).filter(|&k| k != i) {
        let sign = if bx.axis(k).dot(d) >= T::zero() { T::one() } else { -T::one() };
        mid += bx.axis(k) * (sign * bx.half_extents()[k]);
    }
    let half = bx.axis(i) * bx.half_extents()[i];
    (mid - half, mid + half)
}

/// Moving triangle A against OBB B by dynamic SAT over the 13 axes (the box's 3 face normals,
/// the triangle's normal, 9 edge cross products). Exact; O(1).
pub fn triangle_obb<T: Real>(
    tri: &Triangle<T, 3>,
    b: &Obb<T, 3>,
    motion: &LinearMotion<T, 3>,
) -> Option<Toi<T, 3>> {
    // Far from the origin, relative to the box's centre ([`crate::relative`]): the
    // projections on each axis then round at the shapes' size (at 10⁵ in `f32` the time was
    // 0.13 units off).
    let corner_reach = b.half_extents().norm();
    if let Some(origin) = relative::far_origin(b.center(), [tri.a(), tri.b(), tri.c()], corner_reach, motion)
    {
        if let (Ok(tri_here), Ok(here)) = (tri.translated(&-origin), b.with_center(Point3::origin())) {
            return relative::moved_back(origin, triangle_obb(&tri_here, &here, motion));
        }
    }
    let v = motion.relative_velocity();
    let vertices = tri.vertices();
    let mut sweep = AxisSweep::new(v, motion.max_time());
    // Axis ids: 0–2 the box's faces, 3 the triangle's normal, 4 + 3e + j triangle edge e
    // against box axis j.
    let mut test = |id: usize, axis: &Vector3<T>| {
        sweep.axis(id, axis, points_interval(&vertices, axis), obb_interval(b, axis))
    };
    for i in 0..3 {
        if !test(i, &b.axis(i)) {
            return None;
        }
    }
    let n = tri.scaled_normal();
    let edges = [vertices[1] - vertices[0], vertices[2] - vertices[1], vertices[0] - vertices[2]];
    let scale = edges.iter().fold(T::zero(), |m, e| m.max(e.norm_squared()));
    if usable(&n, scale * scale) && !test(3, &n) {
        return None;
    }
    for (e, edge) in edges.iter().enumerate() {
        for j in 0..3 {
            let axis = edge.cross(&b.axis(j));
            if usable(&axis, scale) && !test(4 + 3 * e + j, &axis) {
                return None;
            }
        }
    }
    let (t, status) = sweep.result();
    let shift = v * t;
    let normal = sweep.normal();
    let points =
        triangle_box_touching_points(tri, &edges, &shift, b, sweep.decider(), &normal).or_else(|| {
            // Face against edge or face: the centre of the clipped contact region.
            let moved = Triangle::new(vertices[0] + shift, vertices[1] + shift, vertices[2] + shift).ok()?;
            let mut manifold = Manifold::default();
            box_triangle_manifold(b, &moved, contact_slack(b.half_extents().max()), &mut manifold)?;
            // The manifold is box-first: swap to triangle-first.
            manifold_centre(&manifold).map(|(on_box, on_tri)| (on_tri, on_box))
        });
    Some(finish(t, status, normal, points, tri, b, &v, motion))
}

/// [`box_box_touching_points`] for a triangle (moved by `shift`) against a box.
fn triangle_box_touching_points<T: Real>(
    tri: &Triangle<T, 3>,
    edges: &[Vector3<T>; 3],
    shift: &Vector3<T>,
    b: &Obb<T, 3>,
    decider: usize,
    n: &Vector3<T>,
) -> Option<(Point3<T>, Point3<T>)> {
    let tri_unique = edges.iter().all(|e| e.dot(n).abs() > T::lit(1e-6) * e.norm());
    let box_unique = (0..3).all(|k| b.axis(k).dot(n).abs() > T::lit(1e-6));
    match decider {
        0..=2 if tri_unique => {
            let p = tri.support(n) + shift;
            Some((p, p))
        }
        3 if box_unique => {
            let p = b.support(&-n);
            Some((p, p))
        }
        4..=12 => {
            let j = (decider - 4) % 3;
            let (b0, b1) = supporting_edge(b, j, &-n);
            let vertices = tri.vertices();
            // The deciding edge's pair touches; the closest pair over all three edges is the
            // same one for a proper triangle, and the right one for a triangle with collinear
            // vertices, whose parallel edges all give the deciding axis and the first of which
            // may not reach the touching point.
            (0..3)
                .map(|e| {
                    let (t0, t1) = (vertices[e] + shift, vertices[(e + 1) % 3] + shift);
                    closest_points_between_segments(&t0, &t1, &b0, &b1).0
                })
                .min_by(|x, y| x.distance_squared.partial_cmp(&y.distance_squared).unwrap_or(Ordering::Equal))
                .map(|c| (c.a, c.b))
        }
        _ => None,
    }
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
/// O(1). A flat triangle (collinear or coincident vertices) has no normal to test, and the
/// pair goes to the GJK shape cast ([`shape_cast`]: the time to its tolerance).
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
    // Far from the origin, relative to A's first vertex ([`crate::relative`]).
    let others = [a.b(), a.c(), b.a(), b.b(), b.c()];
    if let Some(origin) = relative::far_origin(a.a(), others, T::zero(), motion) {
        if let (Ok(a_here), Ok(b_here)) = (a.translated(&-origin), b.translated(&-origin)) {
            return relative::moved_back(origin, triangle_triangle(&a_here, &b_here, motion));
        }
    }
    let v = motion.relative_velocity();
    let (va, vb) = (a.vertices(), b.vertices());
    let ea = [va[1] - va[0], va[2] - va[1], va[0] - va[2]];
    let eb = [vb[1] - vb[0], vb[2] - vb[1], vb[0] - vb[2]];
    let scale = ea.iter().chain(&eb).fold(T::zero(), |m, e| m.max(e.norm_squared()));
    let mut sweep = AxisSweep::new(v, motion.max_time());
    let mut test = |axis: &Vector3<T>| {
        !usable(axis, scale * scale)
            || sweep.axis(0, axis, points_interval(&va, axis), points_interval(&vb, axis))
    };
    let (na, nb) = (a.scaled_normal(), b.scaled_normal());
    if !usable(&na, scale * scale) || !usable(&nb, scale * scale) {
        // A flat triangle (a segment or a point, its normal rounding noise) leaves the axes
        // below incomplete: its face normal and in-plane normals vanish, and two segments
        // separated within the plane they span kept only their cross product as an axis, on
        // which they overlapped, and were reported touching 3.16 apart (fuzz finding 75). The
        // GJK shape cast takes any convex shapes, flat ones included.
        return shape_cast(a, T::zero(), b, T::zero(), motion, &CastConfig::default());
    }
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

/// Builds the answer of a dynamic SAT test. Without touching contact points from the touching
/// features or the static clipping (a flat box's faces can clip to nothing, or along another
/// axis; a moved shape outside the coordinate range), GJK's closest points of A moved to the
/// time of impact and B stand in: the supports along the normal are arbitrary corners of a
/// flat face (two were 3.5 apart on a box of zero thickness).
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
    // A first contact touches: two points farther apart than rounding come from features that
    // do not (a flat box clipped against the other along an axis that is not the sweep's).
    let touching = |(pa, pb): &(Point3<T>, Point3<T>)| {
        status != ToiStatus::Converged
            || (pb - pa).norm() <= T::epsilon().sqrt() * (T::one() + pa.coords.amax().max(pb.coords.amax()))
    };
    let (point_a, point_b) = points.filter(touching).unwrap_or_else(|| {
        let moved = Transformed::new(a, Isometry3::translation(v.x * t, v.y * t, v.z * t));
        let g = gjk_distance(&moved, b, &GjkConfig::default(), &mut GjkCache::default());
        (g.point_a, g.point_b)
    });
    Toi { time: t, point_a, point_b, normal, status }.shifted(motion.offset_b(t))
}
