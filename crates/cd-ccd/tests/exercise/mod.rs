//! Builds every shape and motion it can from a list of arbitrary floats and runs every
//! continuous query on them: nothing may panic or return a non-finite answer, and no linear
//! query may report its time of impact later than a step check finds the shapes overlapping
//! (static distances from cd-narrow at 32 steps of the motion). Shared by the hostile-input
//! property test and the `ccd_queries` fuzz target (which includes this file).
#![allow(dead_code)]

use cd_ccd::*;
use cd_geom::{
    Aabb, Ball, Capsule, ContactStatus, Obb, Plane, Point, Polygon, Real, Segment, Transformed, Triangle,
    Vector,
};
use cd_narrow::{distance, gjk_distance, GjkCache, GjkConfig, GjkStatus, PairCache, Shape};
use nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many calls reached the rotating-body queries (the property test checks its generator
/// reaches them often enough to mean something).
pub static ROTATING_RUNS: AtomicUsize = AtomicUsize::new(0);

pub fn ok<T: Real, const D: usize>(toi: Option<Toi<T, D>>, max_time: T) -> bool {
    toi.is_none_or(|h| {
        let finite = |v: &Vector<T, D>| v.iter().all(|x| x.is_finite());
        h.time.is_finite()
            && h.time >= T::zero()
            && h.time <= max_time
            && finite(&h.point_a.coords)
            && finite(&h.point_b.coords)
            && finite(&h.normal)
    })
}

/// Steps at which the oracle got a static distance (the property test checks there are many).
pub static ORACLE_STEPS: AtomicUsize = AtomicUsize::new(0);

/// Steps of the oracle check over the motion.
const STEPS: usize = 32;

/// Shapes of the step check, moved by a displacement.
#[derive(Clone, Copy)]
enum Moved<'a, T: Real> {
    Ball(&'a Ball<T, 3>),
    Box(&'a Obb<T, 3>),
    Capsule(&'a Capsule<T, 3>),
    Triangle(&'a Triangle<T, 3>),
}

/// The signed distance of `a` moved by `da` and `b` moved by `db`, when every shape rebuilds
/// there and cd-narrow answers with a converged (or degenerate but valid) contact.
fn moved_distance<T: Real>(a: Moved<'_, T>, da: Vector3<T>, b: Moved<'_, T>, db: Vector3<T>) -> Option<T> {
    enum Owned<T: Real> {
        Ball(Ball<T, 3>),
        Box(Obb<T, 3>),
        Capsule(Capsule<T, 3>),
        Triangle(Triangle<T, 3>),
    }
    fn shape<T: Real>(o: &Owned<T>) -> Shape<'_, T> {
        match o {
            Owned::Ball(x) => Shape::Ball(x),
            Owned::Box(x) => Shape::Box(x),
            Owned::Capsule(x) => Shape::Capsule(x),
            Owned::Triangle(x) => Shape::Triangle(x),
        }
    }
    let place = |m: Moved<'_, T>, d: Vector3<T>| -> Option<Owned<T>> {
        Some(match m {
            Moved::Ball(x) => Owned::Ball(Ball::new(x.center() + d, x.radius()).ok()?),
            Moved::Box(x) => Owned::Box(Obb::new(x.center() + d, *x.axes(), *x.half_extents()).ok()?),
            Moved::Capsule(x) => Owned::Capsule(Capsule::new(x.a() + d, x.b() + d, x.radius()).ok()?),
            Moved::Triangle(x) => Owned::Triangle(Triangle::new(x.a() + d, x.b() + d, x.c() + d).ok()?),
        })
    };
    let (pa, pb) = (place(a, da)?, place(b, db)?);
    let c = distance(shape(&pa), shape(&pb), &mut PairCache::default()).ok()?;
    matches!(c.status, ContactStatus::Converged | ContactStatus::Degenerate).then_some(c.distance)
}

/// The times the step check looks at: `STEPS` + 1 evenly spaced over the motion without a
/// reported contact, and those strictly before the reported time with one (at that time
/// itself the shapes may touch or, started in contact, overlap).
fn steps_before<T: Real>(toi: Option<Toi<T, 3>>, motion: &LinearMotion<T, 3>) -> impl Iterator<Item = T> {
    let (end, last) = match toi {
        Some(h) => (h.time, STEPS - 1),
        None => (motion.max_time(), STEPS),
    };
    (0..=last)
        .map(move |i| end * T::lit(i as f64 / STEPS as f64))
        .take_while(move |&t| toi.is_none() || t < end)
}

/// Contacts an iterative query reports converged are this far apart at most, relative to the
/// size of everything (its `rel_tolerance`, 10⁻⁶ in `f64`, with room for rounding).
const TOUCHING: f64 = 1e-4;

/// Counts converged contacts the oracle checked at their reported time.
pub static TOUCH_CHECKS: AtomicUsize = AtomicUsize::new(0);

/// The oracle step check: at every step strictly before the reported time (or over the whole
/// motion when there is no contact), the moved shapes do not overlap by more than `tol`; and
/// a converged contact is one: at its time the shapes are apart by at most `TOUCHING` of
/// `size`, and its two points are that close.
fn never_late<T: Real>(
    name: &str,
    toi: Option<Toi<T, 3>>,
    motion: &LinearMotion<T, 3>,
    a: Moved<'_, T>,
    b: Moved<'_, T>,
    tol: T,
    size: T,
) {
    if let Some(h) = toi.filter(|h| h.status == ToiStatus::Converged && size.is_finite()) {
        let touching = T::lit(TOUCHING) * size + tol;
        let (da, db) = (motion.velocity_a() * h.time, motion.velocity_b() * h.time);
        if let Some(d) = moved_distance(a, da, b, db) {
            TOUCH_CHECKS.fetch_add(1, Ordering::Relaxed);
            assert!(d <= touching, "{name}: the shapes are {d} apart at the reported contact {h:?}");
        }
        let gap = (h.point_b - h.point_a).norm();
        assert!(gap <= touching, "{name}: the contact's points are {gap} apart: {h:?}");
    }
    for t in steps_before(toi, motion) {
        let (da, db) = (motion.velocity_a() * t, motion.velocity_b() * t);
        if let Some(d) = moved_distance(a, da, b, db) {
            ORACLE_STEPS.fetch_add(1, Ordering::Relaxed);
            assert!(
                d >= -tol,
                "{name}: the shapes overlap by {} at t = {t}, before the reported contact {toi:?}",
                -d
            );
        }
    }
}

/// [`never_late`] against a plane or a half-space, whose distance to a shape is closed-form:
/// `gap(da, db)` is the distance (negative when overlapping) after A moved by `da` and B by
/// `db`. At every step strictly before the reported time (over the whole motion without one)
/// the gap must be at least `-tol`.
fn never_late_plane<T: Real>(
    name: &str,
    toi: Option<Toi<T, 3>>,
    motion: &LinearMotion<T, 3>,
    gap: impl Fn(Vector3<T>, Vector3<T>) -> T,
    tol: T,
) {
    for t in steps_before(toi, motion) {
        let g = gap(motion.velocity_a() * t, motion.velocity_b() * t);
        if g.is_finite() {
            ORACLE_STEPS.fetch_add(1, Ordering::Relaxed);
            assert!(
                g >= -tol,
                "{name}: the shapes overlap by {} at t = {t}, before the reported contact {toi:?}",
                -g
            );
        }
    }
}

/// Builds what it can from `v` and runs every query on it.
pub fn exercise<T: Real>(v: &[f64]) {
    let x = |i: usize| T::lit(v[i % v.len()]);
    let p = |i: usize| Point3::new(x(i), x(i + 1), x(i + 2));
    let w = |i: usize| Vector3::new(x(i), x(i + 1), x(i + 2));
    let t_max = x(3).abs();
    let Ok(motion) = LinearMotion::new(w(6), w(9), t_max) else {
        // Rejected: the reason must be a typed bad-number error.
        return;
    };
    let max_time = motion.max_time();
    let config = CastConfig::default();
    // Overlaps the step check may not ignore: √ε of everything's size, so the rounding of the
    // static queries at hostile magnitudes never counts.
    let scale = v.iter().filter(|x| x.is_finite()).fold(1.0f64, |m, x| m.max(x.abs()));
    let reach = (motion.velocity_a().norm() + motion.velocity_b().norm()) * max_time;
    let tol = T::epsilon().sqrt() * (T::lit(scale) + reach);
    // The check that a converged contact is one, for inputs up to 0.1/√ε (about 7·10⁶ in f64,
    // 290 in f32; FUZZING.md, "Known limits": beyond, a box 10³ times longer than wide gives
    // f32 witness points thousands apart).
    let checked = T::lit(scale) <= T::lit(0.1) / T::epsilon().sqrt();
    let size = if checked { T::lit(scale) + reach } else { T::infinity() };
    let ball = Ball::new(p(0), x(12).abs());
    let other = Ball::new(p(13), x(16).abs());
    let plane = Plane::new(w(17), x(20));
    let tri = Triangle::new(p(1), p(4), p(14));
    let cap = Capsule::new(p(2), p(5), x(11).abs());
    let aabb = Aabb::from_center_half_extents(p(3), w(15).abs());
    let obb = Obb::from_rotation(p(7), UnitQuaternion::from_scaled_axis(w(8)), w(10).abs());
    let obb2 = Obb::from_rotation(p(16), UnitQuaternion::identity(), w(18).abs());
    let poly = Polygon::new(vec![p(0), p(3), p(6), p(9)]);
    if let (Ok(a), Ok(b)) = (&ball, &other) {
        let exact = sphere_sphere(a, b, &motion);
        assert!(ok(exact, max_time));
        let cast = shape_cast(a.center(), a.radius(), b.center(), b.radius(), &motion, &config);
        assert!(ok(cast, max_time));
        never_late("sphere_sphere", exact, &motion, Moved::Ball(a), Moved::Ball(b), tol, size);
        never_late("shape_cast balls", cast, &motion, Moved::Ball(a), Moved::Ball(b), tol, size);
    }
    if let (Ok(a), Ok(pl)) = (&ball, &plane) {
        let two_sided = sphere_plane(a, pl, &motion);
        let solid = sphere_halfspace(a, pl, &motion);
        assert!(ok(two_sided, max_time));
        assert!(ok(solid, max_time));
        // The centre's signed distance from the plane after A moved by `da` and B by `db`.
        let s = |da: Vector3<T>, db: Vector3<T>| pl.signed_distance(&(a.center() + da - db));
        never_late_plane("sphere_plane", two_sided, &motion, |da, db| s(da, db).abs() - a.radius(), tol);
        never_late_plane("sphere_halfspace", solid, &motion, |da, db| s(da, db) - a.radius(), tol);
    }
    if let (Ok(a), Ok(t)) = (&ball, &tri) {
        let hit = sphere_triangle(a, t, &motion);
        assert!(ok(hit, max_time));
        never_late("sphere_triangle", hit, &motion, Moved::Ball(a), Moved::Triangle(t), tol, size);
    }
    if let (Ok(a), Ok(pg)) = (&ball, &poly) {
        assert!(ok(sphere_polygon(a, pg, &motion), max_time));
    }
    if let (Ok(c), Ok(pl)) = (&cap, &plane) {
        let two_sided = capsule_plane(c, pl, &motion);
        let solid = capsule_halfspace(c, pl, &motion);
        assert!(ok(two_sided, max_time));
        assert!(ok(solid, max_time));
        // The axis ends' signed distances from the plane after the motions.
        let ends = |da: Vector3<T>, db: Vector3<T>| {
            (pl.signed_distance(&(c.a() + da - db)), pl.signed_distance(&(c.b() + da - db)))
        };
        let axis_gap = |da, db| {
            let (sa, sb) = ends(da, db);
            // Ends on opposite sides: the axis crosses the plane.
            let crossing = (sa < T::zero()) != (sb < T::zero());
            (if crossing { T::zero() } else { sa.abs().min(sb.abs()) }) - c.radius()
        };
        never_late_plane("capsule_plane", two_sided, &motion, axis_gap, tol);
        let solid_gap = |da, db| {
            let (sa, sb) = ends(da, db);
            sa.min(sb) - c.radius()
        };
        never_late_plane("capsule_halfspace", solid, &motion, solid_gap, tol);
    }
    if let (Ok(c), Ok(t)) = (&cap, &tri) {
        let exact = capsule_triangle(c, t, &motion);
        assert!(ok(exact, max_time));
        let cast = shape_cast(&c.segment(), c.radius(), t, T::zero(), &motion, &config);
        assert!(ok(cast, max_time));
        never_late("capsule_triangle", exact, &motion, Moved::Capsule(c), Moved::Triangle(t), tol, size);
        never_late(
            "shape_cast capsule/triangle",
            cast,
            &motion,
            Moved::Capsule(c),
            Moved::Triangle(t),
            tol,
            size,
        );
    }
    if let Ok(a) = &aabb {
        let b = Aabb::from_center_half_extents(p(19), w(4).abs());
        if let Ok(b) = b {
            let hit = aabb_aabb(a, &b, &motion);
            assert!(ok(hit, max_time));
            // The same boxes as OBBs for the step check's static distances.
            let as_obb =
                |x: &Aabb<T, 3>| Obb::new(x.center(), nalgebra::Matrix3::identity(), x.half_extents());
            if let (Ok(oa), Ok(ob)) = (as_obb(a), as_obb(&b)) {
                never_late("aabb_aabb", hit, &motion, Moved::Box(&oa), Moved::Box(&ob), tol, size);
            }
        }
        let swept = swept_aabb_linear(a, motion.velocity_a(), max_time);
        assert!(swept.is_ok() || swept.is_err()); // a typed answer either way
    }
    if let (Ok(a), Ok(b)) = (&obb, &obb2) {
        let exact = obb_obb(a, b, &motion);
        assert!(ok(exact, max_time));
        let cast = shape_cast(a, T::zero(), b, T::zero(), &motion, &config);
        assert!(ok(cast, max_time));
        never_late("obb_obb", exact, &motion, Moved::Box(a), Moved::Box(b), tol, size);
        never_late("shape_cast boxes", cast, &motion, Moved::Box(a), Moved::Box(b), tol, size);
        if let Ok(t) = &tri {
            let tb = triangle_obb(t, a, &motion);
            assert!(ok(tb, max_time));
            let bt = obb_triangle(a, t, &motion);
            assert!(ok(bt, max_time));
            never_late("triangle_obb", tb, &motion, Moved::Triangle(t), Moved::Box(a), tol, size);
            never_late("obb_triangle", bt, &motion, Moved::Box(a), Moved::Triangle(t), tol, size);
        }
    }
    if let (Ok(a), Ok(b)) = (&tri, &Triangle::new(p(5), p(8), p(11))) {
        let hit = triangle_triangle(a, b, &motion);
        assert!(ok(hit, max_time));
        never_late("triangle_triangle", hit, &motion, Moved::Triangle(a), Moved::Triangle(b), tol, size);
    }
    // Rotating bodies: the motions validate, then both advancement methods run to an answer.
    let pose = |i: usize| Isometry3::from_parts(w(i).into(), UnitQuaternion::from_scaled_axis(w(i + 3)));
    let (ma, mb) = (
        RigidMotion::new(pose(0), p(2), w(6), w(9)),
        RigidMotion::new(pose(12), Point3::origin(), w(15), w(18)),
    );
    if let (Ok(ma), Ok(mb), Ok(a), Ok(b)) = (ma, mb, &obb, &obb2) {
        ROTATING_RUNS.fetch_add(1, Ordering::Relaxed);
        let local_a = Obb::new(Point::origin(), *a.axes(), *a.half_extents()).unwrap();
        let local_b = Obb::new(Point::origin(), *b.axes(), *b.half_extents()).unwrap();
        let margin = x(1).abs();
        let (sa, sb) = (MovingShape::new(&local_a, margin, ma), MovingShape::new(&local_b, T::zero(), mb));
        // A converged time of impact is a contact: the two boxes posed there are apart by the
        // margin, up to the query's tolerance.
        let touches = |name: &str, toi: Option<Toi<T, 3>>| {
            let Some(h) = toi.filter(|h| h.status == ToiStatus::Converged && size.is_finite()) else {
                return;
            };
            let (pa, pb) = (ma.pose_at(h.time), mb.pose_at(h.time));
            let g = gjk_distance(
                &Transformed::new(&local_a, pa),
                &Transformed::new(&local_b, pb),
                &GjkConfig::default(),
                &mut GjkCache::default(),
            );
            if g.status == GjkStatus::Separated {
                TOUCH_CHECKS.fetch_add(1, Ordering::Relaxed);
                let gap = g.distance - margin;
                assert!(
                    gap <= T::lit(TOUCHING) * size + tol,
                    "{name}: {gap} apart at the reported contact {h:?}"
                );
            }
        };
        let ca = conservative_advancement(&sa, &sb, max_time, &config);
        assert!(ok(ca, max_time));
        touches("conservative_advancement", ca);
        let st = separating_axis_toi(&sa, &sb, max_time, &config);
        assert!(ok(st, max_time));
        touches("separating_axis_toi", st);
        let seg = Segment::new(Point::origin(), p(4));
        if let Ok(seg) = seg {
            let sc = MovingShape::new(&seg, x(2).abs(), ma);
            assert!(ok(conservative_advancement(&sc, &sb, max_time, &config), max_time));
        }
        let swept = swept_aabb(&local_a, T::zero(), &ma, max_time);
        assert!(swept.is_ok() || swept.is_err());
    }
}
