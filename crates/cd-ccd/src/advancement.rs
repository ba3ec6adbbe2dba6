//! Conservative advancement (Mirtich 1996; the seed's bound) for two convex shapes moving
//! rigidly — translating and rotating — and its root-finding variant, the separating-axis
//! time of impact.
//!
//! Both rest on one bound. Let `d` be the distance at time `t` and `n` the unit direction of
//! the closest points (from A to B). The gap of the shapes measured along the fixed axis `n`
//! is a lower bound on their distance at every time, and it shrinks at most at the rate
//!
//! `μ = n·(v_A − v_B) + |n × ω_A| ρ_A + |n × ω_B| ρ_B`,
//!
//! where `ρ` is the largest distance of a point of the shape's core from its rotation axis
//! (the radius around the core turns into itself and does not count; a point
//! at offset `x` from the centre moves along `n` at `(ω × x)·n = x·(n × ω)`, and `n × ω` is
//! perpendicular to `ω`). This is the seed's `c = (v_B − v_A)·d/|d| + |ω_A| r_A + |ω_B| r_B`,
//! tightened: only the rotation across `n` counts, and only the distance from the axis.
//!
//! * [`conservative_advancement`] steps `Δt = d/μ` (the shapes cannot touch sooner), recomputes
//!   the distance with GJK, and repeats until `d` is within the tolerance. `μ ≤ 0` proves they
//!   never meet. Every step is safe, so nothing tunnels, however fast the rotation.
//! * [`separating_axis_toi`] (after Catto's time of impact, 2013) keeps the GJK axis `n` and
//!   finds directly where the gap along it reaches the target, by secant steps certified with
//!   the same rate bound: an interval is skipped only when the bound proves the gap stays
//!   above the target on all of it. Under pure translation the gap is linear and one secant
//!   step lands on the root; under rotation the certification subdivides where needed. Each
//!   gap evaluation costs two support calls instead of a GJK run.

use nalgebra::{Isometry, Isometry3, Point3, Vector3};

use cd_geom::{support_aabb, Real, SupportMap, Transformed};
use cd_narrow::{gjk_distance, GjkCache, GjkConfig, GjkStatus};

use crate::motion::RigidMotion;
use crate::shape_cast::{within_end, CastConfig};
use crate::toi::{unit_or_zero, Toi, ToiStatus};

/// One rigidly moving body: a convex core shape in its local frame, grown by a radius.
#[derive(Clone, Copy, Debug)]
pub struct MovingShape<'a, S: ?Sized, T: Real> {
    /// The core shape, in the body's local frame.
    pub shape: &'a S,
    /// Radius added around the core (0 for polytopes; a ball is a point core).
    pub radius: T,
    /// How the body moves.
    pub motion: RigidMotion<T>,
}

impl<'a, S: SupportMap<T, 3> + ?Sized, T: Real> MovingShape<'a, S, T> {
    /// A body with the given core shape, radius and motion (a negative or non-finite radius
    /// counts as zero).
    pub fn new(shape: &'a S, radius: T, motion: RigidMotion<T>) -> Self {
        let radius = if radius.is_finite() && radius > T::zero() { radius } else { T::zero() };
        Self { shape, radius, motion }
    }

    /// What the bounds of both algorithms need from the shape, from its local box (six
    /// support calls, once per query):
    ///
    /// * the largest distance of a point of the core from the rotation axis. The radius does
    ///   not count: the ball grown around each core point is the same set however the body
    ///   turns, so only the core's motion moves the surface (a ball spinning about its centre
    ///   has no rotational term at all);
    /// * the size the distance tolerance is relative to: half the box's diagonal plus the radius;
    /// * a bound on the coordinates the shape reaches during `[0, max_time]` (the scale of
    ///   rounding errors).
    fn bounds(&self, max_time: T) -> ShapeBounds<T> {
        let (lo, hi) = support_aabb(self.shape);
        let size = (hi - lo).norm() * T::lit(0.5) + self.radius;
        let start = self.motion.start().transform_point(self.motion.local_center()).coords.norm();
        let reach = start + self.motion.linear_velocity().norm() * max_time + size * T::lit(2.0);
        let w = self.motion.angular_velocity();
        let wn = w.norm();
        let mut axis_radius = T::zero();
        if wn > T::zero() {
            // The axis is fixed in the body: R(t)ᵀ ω = R₀ᵀ ω for a constant ω.
            let axis = self.motion.start().rotation.inverse_transform_vector(w) / wn;
            let center = self.motion.local_center();
            for corner in 0..8 {
                let p =
                    Point3::from(Vector3::from_fn(|k, _| if corner >> k & 1 == 1 { hi[k] } else { lo[k] }));
                let x = p - center;
                axis_radius = axis_radius.max((x - axis * x.dot(&axis)).norm());
            }
        }
        ShapeBounds { axis_radius, size, reach }
    }

    fn pose(&self, t: T) -> Isometry3<T> {
        self.motion.pose_at(t)
    }

    /// The support point of the core at time `t` along world direction `d`.
    fn support_at(&self, pose: &Isometry3<T>, d: &Vector3<T>) -> Point3<T> {
        pose.transform_point(&self.shape.support(&pose.inverse_transform_vector(d)))
    }
}

/// A moving shape's extents, as [`MovingShape::bounds`] computes them.
struct ShapeBounds<T> {
    axis_radius: T,
    size: T,
    reach: T,
}

/// What both algorithms know about the pair: the rate bounds along an axis.
struct Pair<'p, 'a, A: ?Sized, B: ?Sized, T: Real> {
    a: &'p MovingShape<'a, A, T>,
    b: &'p MovingShape<'a, B, T>,
    rho_a: T,
    rho_b: T,
    /// Contact is declared within this distance: the relative tolerance times the larger
    /// shape's size, but never below a few times `noise`.
    tolerance: T,
    /// How far a computed gap or distance may be off by rounding: a few ulps of the largest
    /// coordinate the motion reaches. Below it no answer is meaningful; the root search
    /// treats every gap value as uncertain by this much.
    noise: T,
    gjk: GjkConfig<T>,
    cache: GjkCache<T, 3>,
    /// The last well-defined normal: when a step lands exactly on contact (a translation's
    /// step is exact), GJK sees the cores touching and has no direction of its own.
    last_normal: Vector3<T>,
}

/// The closest points at one time.
struct Closest<T: Real> {
    /// A distance the step may rely on: GJK's proven lower bound when it did not converge.
    distance: T,
    /// GJK's upper bound on the distance (the same as `distance` when it converged): contact
    /// is confirmed only when this one is within the tolerance too.
    upper: T,
    normal: Vector3<T>,
    point_a: Point3<T>,
    point_b: Point3<T>,
}

impl<'p, 'a, A, B, T> Pair<'p, 'a, A, B, T>
where
    T: Real,
    A: SupportMap<T, 3> + ?Sized,
    B: SupportMap<T, 3> + ?Sized,
{
    fn new(
        a: &'p MovingShape<'a, A, T>,
        b: &'p MovingShape<'a, B, T>,
        config: &CastConfig<T>,
        max_time: T,
    ) -> Self {
        let (ba, bb) = (a.bounds(max_time), b.bounds(max_time));
        let noise = T::epsilon() * T::lit(4.0) * (ba.reach + bb.reach);
        Self {
            tolerance: (config.rel_tolerance * ba.size.max(bb.size)).max(noise * T::lit(2.0)),
            noise,
            a,
            b,
            rho_a: ba.axis_radius,
            rho_b: bb.axis_radius,
            gjk: GjkConfig::default(),
            cache: GjkCache::default(),
            last_normal: Vector3::zeros(),
        }
    }

    /// Rate bounds of the gap along the unit axis `n`: it decreases at most at `μ` and
    /// increases at most at `λ` (returned as `(μ, λ)`).
    fn rates(&self, n: &Vector3<T>) -> (T, T) {
        let linear = n.dot(&(self.a.motion.linear_velocity() - self.b.motion.linear_velocity()));
        let angular = n.cross(self.a.motion.angular_velocity()).norm() * self.rho_a
            + n.cross(self.b.motion.angular_velocity()).norm() * self.rho_b;
        (linear + angular, angular - linear)
    }

    /// Distance and closest points at time `t` (GJK on the cores, radii subtracted).
    fn closest(&mut self, t: T) -> Closest<T> {
        let (pa, pb) = (self.a.pose(t), self.b.pose(t));
        // GJK in A's frame: A's supports untransformed, B's through the relative pose held as
        // a rotation matrix (cheaper to apply than a quaternion).
        let relative = pa.inv_mul(&pb);
        let tb = Transformed::new(
            self.b.shape,
            Isometry::from_parts(relative.translation, relative.rotation.to_rotation_matrix()),
        );
        let mut r = gjk_distance(self.a.shape, &tb, &self.gjk, &mut self.cache);
        (r.point_a, r.point_b) = (pa.transform_point(&r.point_a), pa.transform_point(&r.point_b));
        let radii = self.a.radius + self.b.radius;
        let normal = unit_or_zero(r.point_b - r.point_a);
        if r.status == GjkStatus::Intersecting || normal == Vector3::zeros() {
            let normal = self.last_normal;
            return Closest {
                distance: -radii,
                upper: -radii,
                normal,
                point_a: r.point_a + normal * self.a.radius,
                point_b: r.point_b - normal * self.b.radius,
            };
        }
        self.last_normal = normal;
        Closest {
            distance: r.safe_distance() - radii,
            upper: r.distance - radii,
            normal,
            point_a: r.point_a + normal * self.a.radius,
            point_b: r.point_b - normal * self.b.radius,
        }
    }

    /// The gap along the fixed world axis `n` at time `t` (radii subtracted): a lower bound on
    /// the distance.
    fn gap(&self, n: &Vector3<T>, t: T) -> T {
        let (pa, pb) = (self.a.pose(t), self.b.pose(t));
        let a = self.a.support_at(&pa, n);
        let b = self.b.support_at(&pb, &-n);
        n.dot(&(b - a)) - self.a.radius - self.b.radius
    }
}

fn contact<T: Real>(t: T, c: &Closest<T>, status: ToiStatus) -> Toi<T, 3> {
    Toi { time: t, point_a: c.point_a, point_b: c.point_b, normal: c.normal, status }
}

/// Conservative advancement of two rigidly moving convex shapes over `[0, max_time]`.
///
/// Contact is declared when the distance is within `config.rel_tolerance` of the shapes'
/// scale; the time returned is never later than the true first contact (each step is proven
/// safe). Shapes touching at time 0 report [`ToiStatus::StartedInContact`]; the iteration cap
/// returns the time reached with [`ToiStatus::IterationCap`] (safe up to that time), and a
/// distance GJK cannot resolve in floating point stops there with [`ToiStatus::Unresolved`].
/// Cost: one GJK distance per step (warm-started); the number of steps grows with the
/// rotation speed relative to the gap.
///
/// ```
/// use cd_ccd::{conservative_advancement, CastConfig, MovingShape, RigidMotion};
/// use cd_geom::Obb;
/// use nalgebra::{Isometry3, Matrix3, Point3, Vector3};
/// // A 10 × 0.2 × 0.2 bar spinning a quarter turn about z, and a post at x = 3 above its path.
/// let bar = Obb::new(Point3::origin(), Matrix3::identity(), Vector3::new(5.0f64, 0.1, 0.1)).unwrap();
/// let post = Obb::new(Point3::origin(), Matrix3::identity(), Vector3::new(0.1, 0.1, 1.0)).unwrap();
/// let spin = RigidMotion::new(Isometry3::identity(), Point3::origin(), Vector3::zeros(),
///                             Vector3::new(0.0, 0.0, std::f64::consts::FRAC_PI_2)).unwrap();
/// let still = RigidMotion::fixed(Isometry3::translation(0.0, 3.0, 0.0)).unwrap();
/// let hit = conservative_advancement(&MovingShape::new(&bar, 0.0, spin), &MovingShape::new(&post, 0.0, still),
///                                    1.0, &CastConfig::default()).unwrap();
/// // The bar's edge meets the post's corner (0.1, 2.9) when it has turned by
/// // 90° − atan(0.1/2.9) − asin(0.1/√(0.1² + 2.9²)) ≈ 86.05°, at t ≈ 0.956.
/// assert!((hit.time - 0.9561).abs() < 1e-3, "{}", hit.time);
/// ```
pub fn conservative_advancement<A, B, T>(
    a: &MovingShape<'_, A, T>,
    b: &MovingShape<'_, B, T>,
    max_time: T,
    config: &CastConfig<T>,
) -> Option<Toi<T, 3>>
where
    T: Real,
    A: SupportMap<T, 3> + ?Sized,
    B: SupportMap<T, 3> + ?Sized,
{
    advance(a, b, max_time, config, |_, c, t, mu| Some(t + c.distance / mu))
}

/// The separating-axis time of impact (root finding along GJK's axis, certified by the rate
/// bound): same contract as [`conservative_advancement`] — the time returned is never later
/// than the true contact — with fewer distance queries (about 60 % of them on rotating boxes)
/// but extra gap evaluations in the root search; measured faster on larger hulls, slower on
/// boxes and capsules.
pub fn separating_axis_toi<A, B, T>(
    a: &MovingShape<'_, A, T>,
    b: &MovingShape<'_, B, T>,
    max_time: T,
    config: &CastConfig<T>,
) -> Option<Toi<T, 3>>
where
    T: Real,
    A: SupportMap<T, 3> + ?Sized,
    B: SupportMap<T, 3> + ?Sized,
{
    advance(a, b, max_time, config, |pair, c, t, mu| {
        let (_, lambda) = pair.rates(&c.normal);
        let aim = pair.tolerance * T::lit(0.5);
        let search = AxisSearch { pair, n: c.normal, mu, lambda, target: T::zero(), aim };
        match search.first_crossing(t, max_time) {
            Crossing::Never => None,
            // Never slower than conservative advancement's own step.
            Crossing::At(next) => Some(next.max(t + c.distance / mu)),
        }
    })
}

/// The loop both methods share: the distance at the current time, contact when it is within
/// the tolerance, "never" when the gap along the closest direction cannot shrink, otherwise
/// the next safe time from `next` (`None`: no contact before the end of the step).
fn advance<A, B, T>(
    a: &MovingShape<'_, A, T>,
    b: &MovingShape<'_, B, T>,
    max_time: T,
    config: &CastConfig<T>,
    mut next: impl FnMut(&Pair<'_, '_, A, B, T>, &Closest<T>, T, T) -> Option<T>,
) -> Option<Toi<T, 3>>
where
    T: Real,
    A: SupportMap<T, 3> + ?Sized,
    B: SupportMap<T, 3> + ?Sized,
{
    // Relative to A's start: the rounding noise, and with it the contact tolerance, scale
    // with the coordinates the motion reaches. In world coordinates at 10⁵ (`f32`) the
    // tolerance was 0.19, and unit boxes were declared in contact 0.37 before they touched.
    let origin = a.motion.start().translation.vector;
    let a = &MovingShape { motion: a.motion.moved_back(&origin), ..*a };
    let b = &MovingShape { motion: b.motion.moved_back(&origin), ..*b };
    advance_here(a, b, max_time, config, &mut next).map(|toi| toi.shifted(origin))
}

/// [`advance`] where the shapes are.
fn advance_here<A, B, T>(
    a: &MovingShape<'_, A, T>,
    b: &MovingShape<'_, B, T>,
    max_time: T,
    config: &CastConfig<T>,
    next: &mut impl FnMut(&Pair<'_, '_, A, B, T>, &Closest<T>, T, T) -> Option<T>,
) -> Option<Toi<T, 3>>
where
    T: Real,
    A: SupportMap<T, 3> + ?Sized,
    B: SupportMap<T, 3> + ?Sized,
{
    let mut pair = Pair::new(a, b, config, max_time);
    let mut t = T::zero();
    for _ in 0..config.max_iterations {
        let c = pair.closest(t);
        if c.distance <= pair.tolerance {
            // A stalled GJK's lower bound within the tolerance is no contact: with its upper
            // bound above, the pair may still be apart (a thin plate's GJK in f32 stalled at
            // 0.0175 with no bound while the true distance was 0.016: fuzz finding 55), and
            // no step from here is provably safe.
            let status = if c.upper > pair.tolerance {
                ToiStatus::Unresolved
            } else if t == T::zero() {
                ToiStatus::StartedInContact
            } else {
                ToiStatus::Converged
            };
            return Some(contact(t, &c, status));
        }
        let (mu, _) = pair.rates(&c.normal);
        if mu <= T::zero() {
            return None; // the gap along n never shrinks
        }
        // A step past the end by less than the tolerance stops there; the next pass checks
        // the contact at `max_time`.
        t = within_end(next(&pair, &c, t, mu)?, max_time, || mu, pair.tolerance)?;
    }
    let c = pair.closest(t);
    Some(contact(t, &c, ToiStatus::IterationCap))
}

/// Where the gap along a fixed axis first comes down to the aim.
enum Crossing<T> {
    /// It stays above the target until the end of the step.
    Never,
    /// The gap stays above the target on `[start, t)`: advancing to `t` is safe.
    At(T),
}

/// The certified root search of [`separating_axis_toi`] along one axis.
struct AxisSearch<'s, 'p, 'a, A: ?Sized, B: ?Sized, T: Real> {
    pair: &'s Pair<'p, 'a, A, B, T>,
    n: Vector3<T>,
    /// Largest rate of decrease of the gap.
    mu: T,
    /// Largest rate of increase of the gap.
    lambda: T,
    /// The gap must not go below this on a skipped interval.
    target: T,
    /// Search for the time where the gap comes down to `target + aim`.
    aim: T,
}

/// Most gap evaluations one axis search may spend before handing back the safe time reached.
const MAX_GAP_EVALUATIONS: usize = 48;

impl<A, B, T> AxisSearch<'_, '_, '_, A, B, T>
where
    T: Real,
    A: SupportMap<T, 3> + ?Sized,
    B: SupportMap<T, 3> + ?Sized,
{
    /// The smallest value the gap can take on an interval of length `dt` whose ends have gaps
    /// `s0` and `s1`, given the rate bounds (the lower envelope of the two cones).
    ///
    /// The computed gaps carry rounding errors up to the pair's `noise`, which over tiny
    /// intervals exceed what the rates allow the gap to change: the bound is therefore never
    /// above either end value, and is lowered by the noise.
    fn lower_bound(&self, s0: T, s1: T, dt: T) -> T {
        let envelope = if self.mu <= T::zero() {
            s0
        } else if self.lambda <= T::zero() {
            s1 // the gap only decreases: its minimum is at the end
        } else {
            let x = ((s0 - s1 + self.lambda * dt) / (self.mu + self.lambda)).clamp(T::zero(), dt);
            s0 - self.mu * x
        };
        envelope.min(s0).min(s1) - self.pair.noise
    }

    /// Scans `[t0, t_end]` from the left (the gap at `t0` is above `target + aim`).
    fn first_crossing(&self, t0: T, t_end: T) -> Crossing<T> {
        let aim = self.target + self.aim;
        let s0 = self.pair.gap(&self.n, t0);
        // Intervals still to certify, right of the current one, nearest last (a fixed stack:
        // every split pushes one, and the evaluation budget bounds the splits).
        let mut stack = [(T::zero(), T::zero()); MAX_GAP_EVALUATIONS];
        let mut depth = 0;
        let (mut lo, mut s_lo) = (t0, s0);
        let (mut hi, mut s_hi) = (t_end, self.pair.gap(&self.n, t_end));
        for _ in 0..MAX_GAP_EVALUATIONS {
            let bound = self.lower_bound(s_lo, s_hi, hi - lo);
            if bound > aim || (bound >= self.target && s_hi > aim) {
                // The whole interval is certified: move to the next one.
                if depth == 0 {
                    return Crossing::Never;
                }
                (lo, s_lo) = (hi, s_hi);
                depth -= 1;
                (hi, s_hi) = stack[depth];
                continue;
            }
            if s_hi <= aim && bound >= self.target {
                return Crossing::At(hi);
            }
            // Split: at the secant root of gap = aim when the right end is below it (exact for
            // a linear gap), else in the middle; kept off the ends so intervals always shrink.
            let dt = hi - lo;
            let fraction = if s_hi < aim { (s_lo - aim) / (s_lo - s_hi) } else { T::lit(0.5) };
            let guard = T::lit(0.01);
            let mid = lo + dt * fraction.clamp(guard, T::one() - guard);
            if !(mid > lo && mid < hi) {
                return Crossing::At(lo); // below the time resolution
            }
            let s_mid = self.pair.gap(&self.n, mid);
            if s_mid <= aim {
                // The crossing is at or before mid: what lies right of it no longer matters.
                depth = 0;
            } else {
                stack[depth] = (hi, s_hi);
                depth += 1;
            }
            (hi, s_hi) = (mid, s_mid);
        }
        Crossing::At(lo)
    }
}
