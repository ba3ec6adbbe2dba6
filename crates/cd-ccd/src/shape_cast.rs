//! Linear shape cast: the GJK ray cast of van den Bergen ("Ray casting against general convex
//! objects with application to continuous collision detection", 2004), for any two
//! [`SupportMap`]s in 2D or 3D, translating with constant velocities.
//!
//! A moved by `λ r` (with `r = v_A − v_B`) first touches B at the smallest `λ` for which the
//! origin lies in `(A + λ r) − B`. GJK runs on that configuration-space obstacle; whenever
//! its current direction `v` proves a separation along `v` by more than the two radii, `λ`
//! jumps forward to where that plane would be reached (`λ ← λ + (R|v| − v·w)/(v·r)`), and
//! the simplex, whose vertices are support points of A and B, is shifted with it. The
//! iteration ends when the closest point of the simplex is within the radii plus a tolerance
//! (touching), or when the motion is proven to miss (`v·r ≥ 0` with a separating plane).
//!
//! Before iterating, the shapes' outer balls ([`SupportMap::outer_radius`] around the interior
//! points) bound the time of impact from below: the cast starts where the balls first touch,
//! and returns at once when they never do during the motion (for two balls that start apart
//! this is the exact answer's time; when both shapes are exact balls, inner radius equal to
//! outer, it is returned as the answer).
//!
//! `λ` only ever moves to times at which a separating plane still exists, so it never passes
//! the true time of impact: an iteration cap returns a safe lower bound. Radii (sphere and
//! capsule cores) are handled exactly, without running GJK on curved shapes.

use nalgebra::{Isometry, Isometry3, Point3};

use cd_geom::{far_offset, MinkowskiSum, Real, SupportMap, Transformed, Vector};
use cd_narrow::{
    convex_contact, gjk_distance, ConvexConfig, GjkCache, GjkConfig, GjkStatus, Simplex, SimplexVertex,
};

use crate::motion::LinearMotion;
use crate::toi::{unit_or_zero, Toi, ToiStatus};

/// Tolerance and iteration cap of the iterative continuous queries.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastConfig<T> {
    /// Maximal number of iterations: support-point evaluations of the shape cast, distance
    /// queries of the advancement methods. Reaching it gives [`ToiStatus::IterationCap`] with
    /// a time that is still safe.
    pub max_iterations: u32,
    /// Contact is declared when the shapes are closer than this fraction of their size — for
    /// the shape cast the largest support point of `A − B` seen, for the advancement methods
    /// the larger shape's half-diagonal (never less than a few ulps of the coordinates the
    /// motion reaches). The answer is then touching to within it, and never later than the
    /// true contact.
    pub rel_tolerance: T,
}

impl<T: Real> Default for CastConfig<T> {
    /// 256 iterations; a relative tolerance of `10⁻⁶` (f64) or `100 ε ≈ 1.2·10⁻⁵` (f32),
    /// whichever is larger. The shape cast needs a handful of iterations on polytopes; the
    /// advancement methods under fast rotation need tens to a couple of hundred.
    fn default() -> Self {
        Self { max_iterations: 256, rel_tolerance: (T::epsilon() * T::lit(100.0)).max(T::lit(1e-6)) }
    }
}

/// Casts A (a core shape grown by `radius_a`) against B (grown by `radius_b`) along their
/// relative motion. Both shapes are given in world space at time 0; answers are in world space
/// at the time of impact. `None` when they do not touch during `[0, max_time]`.
///
/// Balls are a point core with a radius, capsules a segment core with a radius: pass the core
/// (e.g. `ball.center()` as a `Point`, `capsule.segment()`) and the radius.
///
/// ```
/// use cd_ccd::{shape_cast, CastConfig, LinearMotion, ToiStatus};
/// use cd_geom::Obb;
/// use nalgebra::{Matrix3, Point3, Vector3};
/// let a = Obb::new(Point3::new(0.0f64, 0.0, 0.0), Matrix3::identity(), Vector3::new(1.0, 1.0, 1.0)).unwrap();
/// let b = Obb::new(Point3::new(10.0, 0.5, 0.0), Matrix3::identity(), Vector3::new(1.0, 1.0, 1.0)).unwrap();
/// let m = LinearMotion::of_a(Vector3::new(16.0, 0.0, 0.0), 1.0).unwrap();
/// let hit = shape_cast(&a, 0.0, &b, 0.0, &m, &CastConfig::default()).unwrap();
/// assert_eq!(hit.status, ToiStatus::Converged);
/// assert!((hit.time - 0.5).abs() < 1e-8); // gap 8 at 16 per unit time
/// assert!((hit.normal - Vector3::x()).norm() < 1e-8);
/// ```
pub fn shape_cast<T, const D: usize, A, B>(
    a: &A,
    radius_a: T,
    b: &B,
    radius_b: T,
    motion: &LinearMotion<T, D>,
    config: &CastConfig<T>,
) -> Option<Toi<T, D>>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    // Far from the origin (beyond the shapes' reach of it over the step), cast with A's
    // interior point moved to the origin: the simplex's points, and the moves of A's by r·Δλ,
    // then round at the shapes' size. In world coordinates they rounded at the coordinates'
    // (10⁻³ at 10⁴ in `f32`), the simplex drifted off the obstacle, and unit boxes meeting
    // head-on were reported never to touch: 14 of 200 such casts at 10⁴, 17 at 10⁵.
    let reach = a.outer_radius() + b.outer_radius() + motion.relative_velocity().amax() * motion.max_time();
    if let Some(origin) = far_offset(&a.interior_point(), [&b.interior_point()], reach) {
        // Both moved by −origin (an identity rotation: only this rare path pays for it).
        let back = Isometry::from_parts((-origin).into(), nalgebra::Rotation::<T, D>::identity());
        let (a_here, b_here) = (Transformed::new(a, back), Transformed::new(b, back));
        return cast(&a_here, radius_a, &b_here, radius_b, motion, config).map(|toi| toi.shifted(origin));
    }
    cast(a, radius_a, b, radius_b, motion, config)
}

/// Where a step ending at `end` stops, within the motion's end `max_t`: at `end` when that is
/// by `max_t`; at `max_t` when `end` is past it by less than the contact tolerance at the
/// closing `rate` (the shapes are then within the tolerance of touching at the end: boxes
/// meeting exactly at `max_t` were stepped an ulp past it and reported never to touch, the
/// lattice property test); `None` when later. Shared by the shape cast's jumps and the
/// advancement methods' steps; `rate` is asked for only past the end.
pub(crate) fn within_end<T: Real>(end: T, max_t: T, rate: impl FnOnce() -> T, tolerance: T) -> Option<T> {
    if end <= max_t {
        Some(end)
    } else if (end - max_t) * rate() <= tolerance {
        Some(max_t)
    } else {
        None
    }
}

/// [`shape_cast`] where the shapes are.
fn cast<T, const D: usize, A, B>(
    a: &A,
    radius_a: T,
    b: &B,
    radius_b: T,
    motion: &LinearMotion<T, D>,
    config: &CastConfig<T>,
) -> Option<Toi<T, D>>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    let r = motion.relative_velocity();
    let radius = clean_radius(radius_a) + clean_radius(radius_b);
    let max_t = motion.max_time();
    let (centre_a, centre_b) = (a.interior_point(), b.interior_point());
    let gap = centre_a - centre_b;
    // Before the outer balls touch the shapes cannot: start there, or stop if they never do.
    let reach = a.outer_radius() + b.outer_radius() + radius;
    let mut lambda = match outer_balls_first_touch(&gap, &r, reach, max_t) {
        BallTouch::Never => return None,
        BallTouch::From(t) => t,
    };
    // Two exact balls (inner radius = outer radius: a ball, or a point core grown by a radius):
    // where they first touch is the answer itself, to rounding (the bound above is padded).
    let exact_ball = |inner: T, outer: T| inner == outer && outer.is_finite() && outer >= T::zero();
    if lambda > T::zero()
        && exact_ball(a.inner_radius(), a.outer_radius())
        && exact_ball(b.inner_radius(), b.outer_radius())
    {
        if let BallTouch::From(t) = line_enters_ball(&gap, &r, r.norm_squared(), reach, max_t) {
            if t > T::zero() {
                let at = centre_a + r * t;
                let normal = unit_or_zero(centre_b - at);
                let toi = Toi {
                    time: t,
                    point_a: at + normal * (a.outer_radius() + clean_radius(radius_a)),
                    point_b: centre_b - normal * (b.outer_radius() + clean_radius(radius_b)),
                    normal,
                    status: ToiStatus::Converged,
                };
                return Some(toi.shifted(motion.offset_b(t)));
            }
        }
    }
    // The start direction: from B's centre towards A's, roughly the closest point of A − B.
    let mut v = gap + r * lambda;
    if v.norm_squared() <= T::zero() || !v.iter().all(|x| x.is_finite()) {
        v = Vector::from_fn(|i, _| if i == 0 { T::one() } else { T::zero() });
    }
    // One search hint per shape ([`SupportMap::support_from`]): large polyhedra climb from
    // their previous support vertex, the direction turning a little from step to step.
    let (mut hint_a, mut hint_b) = (0u32, 0u32);
    let first =
        SimplexVertex::new(a.support_from(&-v, &mut hint_a) + r * lambda, b.support_from(&v, &mut hint_b));
    let mut simplex = Simplex::single(first);
    v = first.w;
    let mut scale = v.norm().max(radius);
    let mut normal = Vector::zeros();
    let mut status = ToiStatus::IterationCap;
    for _ in 0..config.max_iterations {
        let vn = v.norm();
        // |v|² as the simplex's `f64` solve had it: the stall test's measure (in `f32`, |v|
        // rounds away progress that turns v by shortening it less than an ulp).
        let vv_wide = simplex.closest_norm_squared_wide();
        let tolerance = config.rel_tolerance * (scale + radius);
        if vn <= radius + tolerance || simplex.is_full() {
            status = if lambda == T::zero() { ToiStatus::StartedInContact } else { ToiStatus::Converged };
            // Within the tolerance of touching, but a last separating plane usually still
            // exists: jumping onto it makes λ exact for a face contact (one more support call),
            // and stays safe like every other jump, as long as it moves A by about the
            // tolerance only. The jump is at most |v|(|v| − R)/|v·r|
            // (the plane's offset v·w is at most |v|²): skipped when that is below λ's rounding.
            let vr = v.dot(&r);
            let worth_a_jump = vn * (vn - radius) > -vr * T::lit(4.0) * T::epsilon() * lambda;
            if lambda > T::zero() && vn > radius && vr < T::zero() && worth_a_jump && !simplex.is_full() {
                let (sa, sb) = (a.support_from(&-v, &mut hint_a), b.support_from(&v, &mut hint_b));
                let vw = v.dot(&((sa - sb) + r * lambda));
                if vw > radius * vn {
                    let step = (radius * vn - vw) / vr;
                    // Only a jump of about the tolerance: when A passes B grazing (v nearly
                    // across r), the plane is reached long after the shapes came within the
                    // tolerance and parted again (in f32 a sliver passing a segment jumped
                    // from λ = 0.69, touching, to 1.50, where they were 0.375 apart).
                    if lambda + step <= max_t && step * r.norm() <= T::lit(4.0) * tolerance {
                        lambda += step;
                        normal = -v / vn;
                        simplex.translate_a(&(r * step));
                        simplex.push(SimplexVertex::new(sa + r * lambda, sb));
                        simplex.reduce();
                    }
                }
            }
            break;
        }
        // Support point of (A + λr) − B against v.
        let lambda_at_support = lambda;
        let sa = a.support_from(&-v, &mut hint_a);
        let sb = b.support_from(&v, &mut hint_b);
        let w = (sa - sb) + r * lambda;
        scale = scale.max(w.norm());
        let vw = v.dot(&w);
        if vw > radius * vn {
            // The plane through w with normal v separates the origin from the obstacle by more
            // than the radii: move A along r until that plane is reached, if it ever is.
            let vr = v.dot(&r);
            if vr >= T::zero() {
                return None;
            }
            let to = within_end(lambda + (radius * vn - vw) / vr, max_t, || r.norm(), tolerance)?;
            let step = to - lambda;
            lambda = to;
            normal = -v / vn;
            // Every vertex holds A's support point at the current λ: they all move by r·Δλ,
            // keeping w = a + λr − b.
            simplex.translate_a(&(r * step));
        } else if vn * vn - vw <= config.rel_tolerance * vn * vn {
            // No more progress along v: the distance at this λ is |v| (within rounding), and
            // it exceeds the radii only by rounding of the supports.
            status = if lambda == T::zero() { ToiStatus::StartedInContact } else { ToiStatus::Converged };
            break;
        }
        let lambda_before = lambda_at_support;
        simplex.push(SimplexVertex::new(sa + r * lambda, sb));
        v = simplex.reduce();
        if !v.iter().all(|x| x.is_finite()) {
            return None; // a misbehaving user support map
        }
        if lambda == lambda_before && simplex.closest_norm_squared_wide() >= vv_wide {
            // Stalled: neither λ nor |v| moved (rounding makes the sub-simplex search return
            // the same face near a grazing contact, mostly in f32). Take a conservative step
            // from GJK's distance at this λ instead and restart the simplex there.
            // A at λ: its Minkowski sum with the single point of its displacement.
            let moved = MinkowskiSum { a, b: cd_geom::Point::from(r * lambda) };
            let g = gjk_distance(&moved, b, &GjkConfig::default(), &mut GjkCache::default());
            let gap = g.safe_distance() - radius;
            if g.status == GjkStatus::Intersecting || gap <= tolerance {
                status = if lambda == T::zero() { ToiStatus::StartedInContact } else { ToiStatus::Converged };
                break;
            }
            let n = unit_or_zero(g.point_b - g.point_a);
            let approach = n.dot(&r); // under translation the gap along n closes at this rate
            if approach <= T::zero() {
                return None;
            }
            lambda = within_end(lambda + gap / approach, max_t, || r.norm(), tolerance)?;
            normal = n;
            let w = SimplexVertex::new(
                a.support_from(&-n, &mut hint_a) + r * lambda,
                b.support_from(&n, &mut hint_b),
            );
            simplex = Simplex::single(w);
            v = w.w;
        }
    }
    if simplex.is_full() {
        simplex = enclosing_face(&simplex);
    }
    let (mut core_a, mut core_b) = simplex.witnesses();
    // The witnesses are the simplex's weights applied to its vertices' points on A and on B.
    // Their difference is the simplex's closest point, but on a flat simplex the weights are
    // off by rounding over its width and the two points drift apart together: 0.056 apart
    // with the closest point exactly 0, in f32 (fuzz finding 61). Then the static query at λ
    // (GJK, EPA for a pair touching to rounding) gives points that agree.
    let drift = ((core_b - core_a).norm() - simplex.closest().norm()).abs();
    if drift > T::epsilon().sqrt() * (T::one() + core_a.coords.amax().max(core_b.coords.amax())) {
        let moved = MinkowskiSum { a, b: cd_geom::Point::from(r * lambda) };
        let c = convex_contact(
            &moved,
            T::zero(),
            b,
            T::zero(),
            &ConvexConfig::default(),
            &mut GjkCache::default(),
        );
        (core_a, core_b) = (c.point_a, c.point_b);
    }
    let between = unit_or_zero(core_b - core_a);
    // With radii the cores stay apart and the direction between them is the normal; without,
    // the cores touch and that direction is noise: keep the last separating plane's normal.
    let normal = if radius > T::zero() && between != Vector::<T, D>::zeros() { between } else { normal };
    let toi = Toi {
        time: lambda,
        point_a: core_a + normal * clean_radius(radius_a),
        point_b: core_b - normal * clean_radius(radius_b),
        normal,
        status,
    };
    Some(toi.shifted(motion.offset_b(lambda)))
}

/// [`shape_cast`] for two shapes given in their local frames with their poses at time 0 (the
/// usual form of rigid bodies: no world-space copy of either shape is made).
///
/// The cast runs in A's frame: A's support points need no transform at all and B's one
/// rigid transform, through the relative pose `M_A⁻¹ M_B` held as a rotation matrix (cheaper
/// to apply than a quaternion). Answers are in world space.
///
/// ```
/// use cd_ccd::{shape_cast_posed, CastConfig, LinearMotion};
/// use cd_geom::Obb;
/// use nalgebra::{Isometry3, Matrix3, Point3, Vector3};
/// let cube = Obb::new(Point3::origin(), Matrix3::identity(), Vector3::new(1.0f64, 1.0, 1.0)).unwrap();
/// let (pa, pb) = (Isometry3::translation(0.0, 0.0, 0.0), Isometry3::translation(10.0, 0.5, 0.0));
/// let m = LinearMotion::of_a(Vector3::new(16.0, 0.0, 0.0), 1.0).unwrap();
/// let hit = shape_cast_posed(&cube, &pa, 0.0, &cube, &pb, 0.0, &m, &CastConfig::default()).unwrap();
/// assert!((hit.time - 0.5).abs() < 1e-8);
/// ```
#[allow(clippy::too_many_arguments)]
pub fn shape_cast_posed<T, A, B>(
    a: &A,
    pose_a: &Isometry3<T>,
    radius_a: T,
    b: &B,
    pose_b: &Isometry3<T>,
    radius_b: T,
    motion: &LinearMotion<T, 3>,
    config: &CastConfig<T>,
) -> Option<Toi<T, 3>>
where
    T: Real,
    A: SupportMap<T, 3> + ?Sized,
    B: SupportMap<T, 3> + ?Sized,
{
    // Vectors are rotated through matrices, 9 products where a quaternion takes about 15:
    // B's offset and the relative velocity into A's frame (B static there), and the answers
    // back to world space. B's relative rotation is one quaternion product, then a matrix
    // (cheaper than a second matrix and a matrix product).
    let rotation_a = pose_a.rotation.to_rotation_matrix();
    let b_in_a = Transformed::new(
        b,
        Isometry::from_parts(
            rotation_a
                .inverse_transform_vector(&(pose_b.translation.vector - pose_a.translation.vector))
                .into(),
            (pose_a.rotation.inverse() * pose_b.rotation).to_rotation_matrix(),
        ),
    );
    let local = motion.relative_in(&rotation_a);
    // Already relative: A's local frame is where A is (no far-from-the-origin check).
    let toi = cast(a, radius_a, &b_in_a, radius_b, &local, config)?;
    // B moved by its own velocity meanwhile (the cast held it still).
    let to_world = |p: &Point3<T>| rotation_a * p + pose_a.translation.vector + motion.offset_b(toi.time);
    Some(Toi {
        point_a: to_world(&toi.point_a),
        point_b: to_world(&toi.point_b),
        normal: rotation_a * toi.normal,
        ..toi
    })
}

/// When the outer balls of A and B (radius `reach` together, centres `gap` apart at time 0)
/// first touch as A moves by `λ r` relative to B.
enum BallTouch<T> {
    /// They stay apart during `[0, max_t]`: so do the shapes.
    Never,
    /// Not before this time (0 when they touch at the start, or when a ball is unknown).
    From(T),
}

/// The earliest `λ ∈ [0, max_t]` with `|gap + λ r| ≤ reach`: a lower bound on the time of
/// impact of any shapes inside the balls, from the line's closest approach to the origin
/// (stable where the quadratic's discriminant would cancel). The reach is padded by 64 ulps of
/// the magnitudes involved, which dominates every rounding here, so the bound is safe (never
/// after the true touch of the balls) and `Never` is only said of balls clearly apart.
fn outer_balls_first_touch<T: Real, const D: usize>(
    gap: &Vector<T, D>,
    r: &Vector<T, D>,
    reach: T,
    max_t: T,
) -> BallTouch<T> {
    let rr = r.norm_squared();
    if !reach.is_finite() || rr <= T::zero() || !rr.is_finite() || !gap.iter().all(|x| x.is_finite()) {
        return BallTouch::From(T::zero());
    }
    let reach =
        reach + T::lit(64.0) * T::epsilon() * (reach + gap.amax() + r.amax() * max_t.min(T::lit(1e30)));
    line_enters_ball(gap, r, rr, reach, max_t)
}

/// The earliest `λ ∈ [0, max_t]` with `|gap + λ r| ≤ reach` (`rr = |r|²`), by the line's
/// closest approach to the origin, to rounding; `Never` when there is none.
fn line_enters_ball<T: Real, const D: usize>(
    gap: &Vector<T, D>,
    r: &Vector<T, D>,
    rr: T,
    reach: T,
    max_t: T,
) -> BallTouch<T> {
    if gap.norm_squared() <= reach * reach {
        return BallTouch::From(T::zero());
    }
    // Closest approach of the line gap + λ r to the origin, at λ = closest.
    let closest = -gap.dot(r) / rr;
    let miss2 = (gap + r * closest).norm_squared();
    if miss2 > reach * reach {
        return BallTouch::Never;
    }
    let enter = closest - ((reach * reach - miss2) / rr).sqrt();
    if enter > max_t {
        return BallTouch::Never;
    }
    // Apart at 0 and the line enters the ball behind: moving away.
    if closest < T::zero() {
        return BallTouch::Never;
    }
    BallTouch::From(enter.max(T::zero()))
}

/// The face of a full simplex closest to the origin, with its own barycentric weights.
///
/// A λ step puts the new support point, and the shifted old simplex, on the separating plane
/// through the origin, so the full simplex that ends the cast is usually flat: it encloses the
/// origin but its barycentric weights are ill-conditioned, and the witness points they give
/// drift apart. The face whose closest point is nearest the origin has well-conditioned
/// weights and the same (touching) contact.
fn enclosing_face<T: Real, const D: usize>(simplex: &Simplex<T, D>) -> Simplex<T, D> {
    let vertices = simplex.vertices();
    let mut best = *simplex;
    let mut best_d = T::infinity();
    for skip in 0..vertices.len() {
        let mut face: Option<Simplex<T, D>> = None;
        for (i, vertex) in vertices.iter().enumerate() {
            if i == skip {
                continue;
            }
            match face.as_mut() {
                None => face = Some(Simplex::single(*vertex)),
                Some(f) => f.push(*vertex),
            }
        }
        if let Some(mut f) = face {
            let d = f.reduce().norm_squared();
            if d < best_d {
                (best, best_d) = (f, d);
            }
        }
    }
    best
}

/// A non-negative, finite radius (anything else counts as zero).
fn clean_radius<T: Real>(r: T) -> T {
    if r.is_finite() && r > T::zero() {
        r
    } else {
        T::zero()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Vector3;

    /// A deterministic stream of numbers in `[0, 1)` (xorshift).
    fn unit_stream(mut state: u64) -> impl FnMut() -> f64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// The ball bound against sampling: never after the balls first touch, at most a few ulps
    /// before it, and `Never` only when no sampled time has them touching.
    #[test]
    fn outer_ball_touch_is_a_tight_lower_bound() {
        let mut unit = unit_stream(0x243f_6a88_85a3_08d3);
        let (mut touching, mut never) = (0, 0);
        for _ in 0..5_000 {
            let gap = Vector3::new(unit() - 0.5, unit() - 0.5, unit() - 0.5) * 20.0;
            // Mostly towards the other ball, with scatter (some pass by, some fall short).
            let r = -gap * (0.2 + unit()) + Vector3::new(unit() - 0.5, unit() - 0.5, unit() - 0.5) * 15.0;
            let reach = unit() * 5.0;
            let max_t = unit() * 2.0;
            let apart_at = |t: f64| (gap + r * t).norm() > reach;
            // The first sampled time at which the balls touch (a 1/4000 grid of [0, max_t]).
            let first = (0..=4000).map(|k| max_t * k as f64 / 4000.0).find(|&t| !apart_at(t));
            match outer_balls_first_touch(&gap, &r, reach, max_t) {
                BallTouch::Never => {
                    never += 1;
                    assert!(first.is_none(), "said never, but they touch at {first:?}");
                }
                BallTouch::From(t) => {
                    touching += 1;
                    assert!((0.0..=max_t).contains(&t));
                    if let Some(f) = first {
                        assert!(t <= f, "bound {t} after a sampled touch at {f}");
                    }
                    // Tight: touching (to rounding) at the bound, unless apart for all time
                    // sampled (a graze between grid points).
                    if t > 0.0 {
                        assert!(((gap + r * t).norm() - reach).abs() <= 1e-9 * (1.0 + reach + gap.norm()));
                    }
                }
            }
        }
        assert!(touching > 500 && never > 500, "{touching} touching, {never} never");
    }

    /// Two balls (as balls, and as point cores with radii) take the balls' own first touch: the
    /// closed form's answer, time, points and normal, to rounding.
    #[test]
    fn exact_balls_answer_in_closed_form() {
        use crate::{sphere_sphere, LinearMotion};
        use cd_geom::Ball;
        use nalgebra::Point3;
        let mut unit = unit_stream(0x1357_9bdf_2468_ace0);
        let mut hits = 0;
        for _ in 0..2_000 {
            let a = Ball::new(Point3::new(unit(), unit(), unit()) * 10.0, 0.1 + unit()).unwrap();
            let b = Ball::new(Point3::new(unit(), unit(), unit()) * 10.0, 0.1 + unit()).unwrap();
            let towards = (b.center() - a.center()) * (0.5 + unit()) + Vector3::new(unit(), unit(), unit());
            let m = LinearMotion::of_a(towards, 1.0).unwrap();
            let closed = sphere_sphere(&a, &b, &m);
            let config = CastConfig::default();
            let as_balls = shape_cast(&a, 0.0, &b, 0.0, &m, &config);
            let as_points = shape_cast(a.center(), a.radius(), b.center(), b.radius(), &m, &config);
            for cast in [as_balls, as_points] {
                match (&closed, &cast) {
                    (Some(c), Some(s)) => {
                        hits += 1;
                        assert!((c.time - s.time).abs() < 1e-9, "{c:?} vs {s:?}");
                        assert_eq!(c.status, s.status);
                        if c.status == ToiStatus::Converged {
                            assert!(
                                (c.normal - s.normal).norm() < 1e-6 && (c.point_a - s.point_a).norm() < 1e-6,
                                "{c:?} vs {s:?}"
                            );
                        }
                    }
                    (None, None) => {}
                    _ => panic!("closed form {closed:?}, cast {cast:?}"),
                }
            }
        }
        assert!(hits > 500, "{hits} hits");
    }

    /// Unknown balls (infinite reach) or no motion give no bound, never a wrong `Never`.
    #[test]
    fn unknown_balls_and_no_motion_give_time_zero() {
        let gap = Vector3::new(10.0, 0.0, 0.0);
        let towards = Vector3::new(-1.0, 0.0, 0.0);
        assert!(
            matches!(outer_balls_first_touch(&gap, &towards, f64::INFINITY, 1.0), BallTouch::From(t) if t == 0.0)
        );
        assert!(
            matches!(outer_balls_first_touch(&gap, &Vector3::zeros(), 1.0, 1.0), BallTouch::From(t) if t == 0.0)
        );
        // Head-on: gap 10, reach 2, speed 1 → touch at 8 (padded by ulps).
        assert!(
            matches!(outer_balls_first_touch(&gap, &towards, 2.0, 9.0), BallTouch::From(t) if (t - 8.0).abs() < 1e-12 && t <= 8.0)
        );
        assert!(matches!(outer_balls_first_touch(&gap, &towards, 2.0, 7.0), BallTouch::Never));
        assert!(matches!(outer_balls_first_touch(&gap, &-towards, 2.0, 100.0), BallTouch::Never));
    }
}
