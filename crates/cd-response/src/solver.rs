//! Sequential impulses (Catto 2005–2014, the solver of Box2D and Bullet): every contact point of
//! a step is a non-penetration row plus two friction rows, and the solver sweeps over all rows
//! a fixed number of times, each time applying the impulse that fixes that row alone. Clamping
//! the *accumulated* impulse of a row (≥ 0 for the normal, inside Coulomb's disk `|λ_t| ≤ μ λ_n`
//! for friction) rather than each increment lets later sweeps take back what earlier ones
//! over-applied, so the sweeps converge to the projected Gauss–Seidel solution of the whole
//! contact problem.
//!
//! * **Warm starting.** The accumulated impulses of a step are kept, keyed by the two bodies and
//!   the contact point's feature id. The next step starts from them, which is what lets a stack
//!   of boxes rest with a handful of iterations.
//! * **Speculative contacts.** A point still `d > 0` apart only forbids closing more than the
//!   gap this step (`u_n ≥ −d/Δt`): no impulse unless the bodies would actually meet.
//! * **Restitution** is applied after the sweeps, only at points that received a normal impulse
//!   and were approaching faster than a threshold (Box2D v3): the velocity after becomes
//!   `−k u_n` of the velocity before. Slow contacts do not bounce, so resting bodies stay put.
//!   A speculative point that bounces met its partner inside the step; the bodies are moved
//!   back by `(1 + k) d` so they end where a bounce at the moment of contact would put them
//!   (the seed's rule of reflecting and moving the rest of the step). Without it an elastic
//!   ball gains up to `2 m g |v| Δt` of energy per bounce.
//! * **Position correction** of penetration beyond a slop, with either
//!   [`PositionCorrection::SplitImpulse`] (pseudo-velocities that move the bodies apart but are
//!   then discarded: no energy is added) or [`PositionCorrection::Baumgarte`] (a velocity bias
//!   `β (−d − slop)/Δt` in the normal row: simpler, adds a little energy).

use core::fmt;

use cd_geom::{Point, Real, Vector};
use nalgebra::{Matrix3, Vector3};

use crate::body::RigidBody;
use crate::impulse::inverse_mass_along;
use crate::reflect::Material;

/// Maximal number of points per [`ContactManifold`] (what the narrow phase produces).
pub const MAX_CONTACT_POINTS: usize = 4;

/// One contact point between two bodies, from the narrow phase.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPoint<T: Real> {
    /// The point on A (world space).
    pub point_a: Point<T, 3>,
    /// The point on B (world space).
    pub point_b: Point<T, 3>,
    /// Signed distance along the normal: negative when penetrating, positive for a
    /// speculative contact not yet touching.
    pub distance: T,
    /// Feature id: equal ids in consecutive steps are the same physical contact (warm start).
    pub id: u32,
}

/// Contact points of two bodies sharing one normal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactManifold<T: Real> {
    /// Index of body A in the solver's body slice.
    pub body_a: usize,
    /// Index of body B.
    pub body_b: usize,
    /// Unit normal from A towards B.
    pub normal: Vector<T, 3>,
    /// Restitution and friction of the pair.
    pub material: Material<T>,
    points: [ContactPoint<T>; MAX_CONTACT_POINTS],
    len: usize,
}

impl<T: Real> ContactManifold<T> {
    /// A manifold without points.
    pub fn new(body_a: usize, body_b: usize, normal: Vector<T, 3>, material: Material<T>) -> Self {
        let zero =
            ContactPoint { point_a: Point::origin(), point_b: Point::origin(), distance: T::zero(), id: 0 };
        Self { body_a, body_b, normal, material, points: [zero; MAX_CONTACT_POINTS], len: 0 }
    }

    /// Adds a point; ignored once [`MAX_CONTACT_POINTS`] are in.
    pub fn push(&mut self, point: ContactPoint<T>) {
        if self.len < MAX_CONTACT_POINTS {
            self.points[self.len] = point;
            self.len += 1;
        }
    }

    /// The points.
    pub fn points(&self) -> &[ContactPoint<T>] {
        &self.points[..self.len]
    }
}

/// How the solver removes penetration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionCorrection {
    /// Leave penetration alone (velocities only).
    None,
    /// A velocity bias in the normal row (Baumgarte stabilization).
    Baumgarte,
    /// Separate pseudo-velocity rows that move the bodies but leave their velocities alone.
    SplitImpulse,
}

/// Solver settings. The defaults suit game-scale scenes (metres, 60 Hz).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolverConfig<T: Real> {
    /// Sweeps over all velocity rows per step (default 10).
    pub velocity_iterations: usize,
    /// Sweeps over the split-impulse rows per step (default 4).
    pub position_iterations: usize,
    /// How penetration is removed (default split impulse).
    pub correction: PositionCorrection,
    /// Fraction `β ∈ [0, 1]` of the penetration removed per step (default 0.2).
    pub correction_factor: T,
    /// Penetration tolerated without correction (default 0.005), so resting contacts stay
    /// touching instead of being pushed apart and falling back each step.
    pub slop: T,
    /// Approach speed below which contacts do not bounce (default 1, Box2D v3's value). It must
    /// exceed what gravity adds in a step or two: the approach speed is measured after this
    /// step's gravity, so below about `2 |g| Δt` a resting body would bounce on its own weight
    /// (at 0.5 a ball with k = 0.8 under 9.81 m/s² at 60 Hz kept hopping 1 cm forever).
    pub restitution_threshold: T,
    /// Start each step from the previous step's impulses (default true).
    pub warm_start: bool,
}

impl<T: Real> Default for SolverConfig<T> {
    fn default() -> Self {
        Self {
            velocity_iterations: 10,
            position_iterations: 4,
            correction: PositionCorrection::SplitImpulse,
            correction_factor: T::lit(0.2),
            slop: T::lit(0.005),
            restitution_threshold: T::lit(1.0),
            warm_start: true,
        }
    }
}

/// Why a solve was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverError {
    /// A manifold names a body outside the slice.
    BodyIndex {
        /// The index.
        index: usize,
    },
    /// A manifold pairs a body with itself.
    SelfContact {
        /// The body.
        body: usize,
    },
    /// The time step is not finite and positive.
    InvalidTimeStep,
    /// A manifold's normal is not a finite unit vector, or a point or distance is not finite.
    InvalidContact,
    /// A setting is out of range (`β ∉ [0, 1]`, negative or non-finite slop or threshold).
    InvalidConfig,
}

impl fmt::Display for SolverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolverError::BodyIndex { index } => write!(f, "contact names body {index}, which does not exist"),
            SolverError::SelfContact { body } => write!(f, "contact between body {body} and itself"),
            SolverError::InvalidTimeStep => f.write_str("the time step must be finite and positive"),
            SolverError::InvalidContact => {
                f.write_str("a contact has a non-unit normal or a non-finite value")
            }
            SolverError::InvalidConfig => f.write_str("a solver setting is out of range"),
        }
    }
}

impl std::error::Error for SolverError {}

/// What a solve did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SolveReport<T: Real> {
    /// Contact points solved (both bodies static: skipped and not counted).
    pub points: usize,
    /// Points that started from the previous step's impulses.
    pub warm_started: usize,
    /// Deepest penetration among the points (≥ 0).
    pub max_penetration: T,
    /// Sum of the normal impulses applied.
    pub total_normal_impulse: T,
}

/// The velocity state of one body during a solve.
#[derive(Clone, Copy)]
struct SolverBody<T: Real> {
    center: Point<T, 3>,
    inverse_mass: T,
    inverse_inertia: Matrix3<T>,
    linear: Vector3<T>,
    angular: Vector3<T>,
    pseudo_linear: Vector3<T>,
    pseudo_angular: Vector3<T>,
}

impl<T: Real> SolverBody<T> {
    fn new(body: &RigidBody<T>) -> Self {
        Self {
            center: body.world_center(),
            inverse_mass: body.mass.inverse_mass(),
            inverse_inertia: body.world_inverse_inertia(),
            // A static body may still carry a velocity (a kinematic platform): contacts see it,
            // impulses never change it.
            linear: body.linear_velocity,
            angular: body.angular_velocity,
            pseudo_linear: Vector3::zeros(),
            pseudo_angular: Vector3::zeros(),
        }
    }

    #[inline]
    fn apply(&mut self, impulse: &Vector3<T>, r: &Vector3<T>) {
        self.linear += impulse * self.inverse_mass;
        self.angular += self.inverse_inertia * r.cross(impulse);
    }

    #[inline]
    fn apply_pseudo(&mut self, impulse: &Vector3<T>, r: &Vector3<T>) {
        self.pseudo_linear += impulse * self.inverse_mass;
        self.pseudo_angular += self.inverse_inertia * r.cross(impulse);
    }
}

/// One contact point's rows.
#[derive(Clone, Copy)]
struct Row<T: Real> {
    a: usize,
    b: usize,
    key: (usize, usize, u32),
    ra: Vector3<T>,
    rb: Vector3<T>,
    normal: Vector3<T>,
    tangents: [Vector3<T>; 2],
    normal_mass: T,
    tangent_mass: [T; 2],
    friction: T,
    restitution: T,
    approach: T,
    distance: T,
    /// Velocity the normal row aims at (speculative gap or Baumgarte bias).
    target: T,
    normal_impulse: T,
    tangent_impulse: [T; 2],
    pseudo_impulse: T,
    /// For a speculative point that bounced: how much closer the bodies must end up, `(1 + k) d`.
    bounce_gap: T,
}

/// Impulses kept from the previous step for warm starting.
#[derive(Clone, Copy)]
struct Kept<T: Real> {
    key: (usize, usize, u32),
    normal: T,
    /// The friction impulse as a world vector, re-projected on the next step's tangents.
    friction: Vector3<T>,
}

/// The sequential-impulse contact solver. Keeps the previous step's impulses for warm
/// starting; reuse one solver across the steps of a simulation.
///
/// ```
/// use cd_geom::Ball;
/// use cd_response::{ContactManifold, ContactPoint, ContactSolver, Material, MassProperties, RigidBody};
/// use nalgebra::{Isometry3, Point3, Vector3};
///
/// let ball = MassProperties::ball(&Ball::new(Point3::origin(), 0.5f64).unwrap(), 1.0).unwrap();
/// let mut bodies = [RigidBody::fixed(Isometry3::identity()), RigidBody::new(Isometry3::translation(0.0, 0.5, 0.0), ball)];
/// bodies[1].linear_velocity = Vector3::new(0.0, -3.0, 0.0);
/// // The ball touches the ground (body 0) at the origin; the normal points from the ground up.
/// let mut m = ContactManifold::new(0, 1, Vector3::y(), Material::new(0.5, 0.0).unwrap());
/// m.push(ContactPoint { point_a: Point3::origin(), point_b: Point3::origin(), distance: 0.0, id: 0 });
/// let mut solver = ContactSolver::default();
/// solver.solve(&mut bodies, &[m], 1.0 / 60.0).unwrap();
/// assert!((bodies[1].linear_velocity.y - 1.5).abs() < 1e-9); // half the speed comes back
/// ```
#[derive(Clone)]
pub struct ContactSolver<T: Real> {
    config: SolverConfig<T>,
    rows: Vec<Row<T>>,
    bodies: Vec<SolverBody<T>>,
    kept: Vec<Kept<T>>,
}

impl<T: Real> Default for ContactSolver<T> {
    fn default() -> Self {
        Self { config: SolverConfig::default(), rows: Vec::new(), bodies: Vec::new(), kept: Vec::new() }
    }
}

impl<T: Real> ContactSolver<T> {
    /// A solver with the given settings. Errors: [`SolverError::InvalidConfig`].
    pub fn new(config: SolverConfig<T>) -> Result<Self, SolverError> {
        let unit = |x: T| x >= T::zero() && x <= T::one();
        let non_negative = |x: T| x.is_finite() && x >= T::zero();
        if !unit(config.correction_factor)
            || !non_negative(config.slop)
            || !non_negative(config.restitution_threshold)
        {
            return Err(SolverError::InvalidConfig);
        }
        Ok(Self { config, ..Self::default() })
    }

    /// The settings.
    pub fn config(&self) -> &SolverConfig<T> {
        &self.config
    }

    /// Forgets the kept impulses (after a teleport, say).
    pub fn reset(&mut self) {
        self.kept.clear();
    }

    /// Solves one step's contacts: changes the velocities of the dynamic bodies so no contact
    /// point approaches (with restitution and friction), and with split impulse moves them out
    /// of penetration. Positions are not integrated here: call
    /// [`RigidBody::integrate_position`] afterwards. Errors (nothing is changed):
    /// [`SolverError`].
    pub fn solve(
        &mut self,
        bodies: &mut [RigidBody<T>],
        manifolds: &[ContactManifold<T>],
        dt: T,
    ) -> Result<SolveReport<T>, SolverError> {
        if !(dt > T::zero() && dt.is_finite()) {
            return Err(SolverError::InvalidTimeStep);
        }
        manifolds.iter().try_for_each(|m| check_manifold(m, bodies.len()))?;
        self.bodies.clear();
        self.bodies.extend(bodies.iter().map(SolverBody::new));
        let mut report = SolveReport::default();
        self.prepare(manifolds, dt, &mut report);
        if self.config.warm_start {
            self.warm_start();
        }
        for _ in 0..self.config.velocity_iterations {
            self.velocity_sweep();
        }
        let bounced_early = self.restitution_sweep();
        if self.config.correction == PositionCorrection::SplitImpulse || bounced_early {
            for _ in 0..self.config.position_iterations.max(1) {
                self.pseudo_sweep(dt);
            }
        }
        self.keep();
        for (body, state) in bodies.iter_mut().zip(&self.bodies) {
            if body.is_dynamic() {
                body.linear_velocity = state.linear;
                body.angular_velocity = state.angular;
                body.displace(&(state.pseudo_linear * dt), &(state.pseudo_angular * dt));
            }
        }
        report.total_normal_impulse = self.rows.iter().fold(T::zero(), |s, r| s + r.normal_impulse);
        Ok(report)
    }

    fn prepare(&mut self, manifolds: &[ContactManifold<T>], dt: T, report: &mut SolveReport<T>) {
        self.rows.clear();
        let inv_dt = T::one() / dt;
        for m in manifolds {
            let (a, b) = (&self.bodies[m.body_a], &self.bodies[m.body_b]);
            let n = m.normal;
            let tangents = tangent_basis(&n);
            for p in m.points() {
                let mid = Point::from((p.point_a.coords + p.point_b.coords) * T::lit(0.5));
                let (ra, rb) = (mid - a.center, mid - b.center);
                let k = |d: &Vector3<T>| {
                    inverse_mass_along(a.inverse_mass, &a.inverse_inertia, &ra, d)
                        + inverse_mass_along(b.inverse_mass, &b.inverse_inertia, &rb, d)
                };
                let k_normal = k(&n);
                if k_normal.partial_cmp(&T::zero()) != Some(core::cmp::Ordering::Greater) {
                    continue; // both static
                }
                let relative = b.linear + b.angular.cross(&rb) - a.linear - a.angular.cross(&ra);
                let approach = relative.dot(&n);
                let penetration = -p.distance;
                let target = if p.distance > T::zero() {
                    -p.distance * inv_dt
                } else if self.config.correction == PositionCorrection::Baumgarte {
                    self.config.correction_factor * (penetration - self.config.slop).max(T::zero()) * inv_dt
                } else {
                    T::zero()
                };
                report.points += 1;
                report.max_penetration = report.max_penetration.max(penetration);
                self.rows.push(Row {
                    a: m.body_a,
                    b: m.body_b,
                    key: (m.body_a, m.body_b, p.id),
                    ra,
                    rb,
                    normal: n,
                    tangents,
                    normal_mass: T::one() / k_normal,
                    tangent_mass: [T::one() / k(&tangents[0]), T::one() / k(&tangents[1])],
                    friction: m.material.friction(),
                    restitution: m.material.restitution(),
                    approach,
                    distance: p.distance,
                    target,
                    normal_impulse: T::zero(),
                    tangent_impulse: [T::zero(); 2],
                    pseudo_impulse: T::zero(),
                    bounce_gap: T::zero(),
                });
            }
        }
        if self.config.warm_start {
            for row in &mut self.rows {
                if let Ok(i) = self.kept.binary_search_by(|k| k.key.cmp(&row.key)) {
                    let kept = &self.kept[i];
                    row.normal_impulse = kept.normal;
                    row.tangent_impulse =
                        [kept.friction.dot(&row.tangents[0]), kept.friction.dot(&row.tangents[1])];
                    report.warm_started += 1;
                }
            }
        }
    }

    fn warm_start(&mut self) {
        for row in &self.rows {
            let impulse = row.normal * row.normal_impulse
                + row.tangents[0] * row.tangent_impulse[0]
                + row.tangents[1] * row.tangent_impulse[1];
            self.bodies[row.a].apply(&-impulse, &row.ra);
            self.bodies[row.b].apply(&impulse, &row.rb);
        }
    }

    fn velocity_sweep(&mut self) {
        for row in &mut self.rows {
            let (a, b) = pair(&mut self.bodies, row.a, row.b);
            // Friction first, bounded by the current normal impulse; then the normal row, whose
            // answer matters most, gets the last word in the sweep.
            let relative = b.linear + b.angular.cross(&row.rb) - a.linear - a.angular.cross(&row.ra);
            let bound = row.friction * row.normal_impulse;
            let old = row.tangent_impulse;
            let mut new = [
                old[0] - relative.dot(&row.tangents[0]) * row.tangent_mass[0],
                old[1] - relative.dot(&row.tangents[1]) * row.tangent_mass[1],
            ];
            let length = (new[0] * new[0] + new[1] * new[1]).sqrt();
            if length > bound {
                let scale = if length > T::zero() { bound / length } else { T::zero() };
                new = [new[0] * scale, new[1] * scale];
            }
            row.tangent_impulse = new;
            let change = row.tangents[0] * (new[0] - old[0]) + row.tangents[1] * (new[1] - old[1]);
            a.apply(&-change, &row.ra);
            b.apply(&change, &row.rb);

            let relative = b.linear + b.angular.cross(&row.rb) - a.linear - a.angular.cross(&row.ra);
            let un = relative.dot(&row.normal);
            let total = (row.normal_impulse - (un - row.target) * row.normal_mass).max(T::zero());
            let change = row.normal * (total - row.normal_impulse);
            row.normal_impulse = total;
            a.apply(&-change, &row.ra);
            b.apply(&change, &row.rb);
        }
    }

    /// Applies restitution; returns whether a speculative point bounced (and so needs its
    /// position fixed by the pseudo sweep).
    fn restitution_sweep(&mut self) -> bool {
        let mut bounced_early = false;
        for row in &mut self.rows {
            let bouncing = row.restitution > T::zero()
                && row.approach < -self.config.restitution_threshold
                && row.normal_impulse > T::zero();
            if !bouncing {
                continue;
            }
            let (a, b) = pair(&mut self.bodies, row.a, row.b);
            let relative = b.linear + b.angular.cross(&row.rb) - a.linear - a.angular.cross(&row.ra);
            let un = relative.dot(&row.normal);
            let goal = -row.restitution * row.approach;
            let total = (row.normal_impulse - (un - goal) * row.normal_mass).max(T::zero());
            let change = row.normal * (total - row.normal_impulse);
            row.normal_impulse = total;
            a.apply(&-change, &row.ra);
            b.apply(&change, &row.rb);
            if row.distance > T::zero() {
                // The bodies met inside the step, a gap `d` away from where they start: moving
                // with the bounced velocity for the whole step would put them `(1 + k) d` too
                // far apart (the seed's "move the remaining (1 − t) of the step" for a solver
                // that only sets velocities). The pseudo sweep takes that back.
                row.bounce_gap = (T::one() + row.restitution) * row.distance;
                bounced_early = true;
            }
        }
        bounced_early
    }

    fn pseudo_sweep(&mut self, dt: T) {
        let rate = self.config.correction_factor / dt;
        let split = self.config.correction == PositionCorrection::SplitImpulse;
        for row in &mut self.rows {
            let excess = -row.distance - self.config.slop;
            // Either an equality (an early bounce moves the bodies back by its gap) or an
            // inequality (the pseudo-velocity removes `β` of the excess penetration per step).
            let (goal, floor) = if row.bounce_gap > T::zero() {
                (-row.bounce_gap / dt, -T::infinity())
            } else if split && excess > T::zero() {
                (rate * excess, T::zero())
            } else {
                continue;
            };
            let (a, b) = pair(&mut self.bodies, row.a, row.b);
            let relative = b.pseudo_linear + b.pseudo_angular.cross(&row.rb)
                - a.pseudo_linear
                - a.pseudo_angular.cross(&row.ra);
            let un = relative.dot(&row.normal);
            let total = (row.pseudo_impulse - (un - goal) * row.normal_mass).max(floor);
            let change = row.normal * (total - row.pseudo_impulse);
            row.pseudo_impulse = total;
            a.apply_pseudo(&-change, &row.ra);
            b.apply_pseudo(&change, &row.rb);
        }
    }

    fn keep(&mut self) {
        self.kept.clear();
        self.kept.extend(self.rows.iter().map(|r| Kept {
            key: r.key,
            normal: r.normal_impulse,
            friction: r.tangents[0] * r.tangent_impulse[0] + r.tangents[1] * r.tangent_impulse[1],
        }));
        self.kept.sort_unstable_by_key(|x| x.key);
    }
}

/// Mutable access to two distinct bodies.
fn pair<T: Real>(
    bodies: &mut [SolverBody<T>],
    a: usize,
    b: usize,
) -> (&mut SolverBody<T>, &mut SolverBody<T>) {
    if a < b {
        let (low, high) = bodies.split_at_mut(b);
        (&mut low[a], &mut high[0])
    } else {
        let (low, high) = bodies.split_at_mut(a);
        (&mut high[0], &mut low[b])
    }
}

/// Two unit tangents completing `n` to a right-handed orthonormal basis, chosen from `n` alone
/// so the same normal always gives the same tangents.
fn tangent_basis<T: Real>(n: &Vector3<T>) -> [Vector3<T>; 2] {
    // Cross with the axis least aligned with n (no cancellation).
    let helper = if n.x.abs() < T::lit(0.57735) { Vector3::x() } else { Vector3::y() };
    let t1 = n.cross(&helper).normalize();
    [t1, n.cross(&t1)]
}

fn check_manifold<T: Real>(m: &ContactManifold<T>, count: usize) -> Result<(), SolverError> {
    for index in [m.body_a, m.body_b] {
        if index >= count {
            return Err(SolverError::BodyIndex { index });
        }
    }
    if m.body_a == m.body_b {
        return Err(SolverError::SelfContact { body: m.body_a });
    }
    let unit = (m.normal.norm_squared() - T::one()).abs() <= T::lit(1e-3);
    let finite = m.points().iter().all(|p| {
        p.distance.is_finite()
            && p.point_a.coords.iter().chain(p.point_b.coords.iter()).all(|x| x.is_finite())
    });
    if unit && finite {
        Ok(())
    } else {
        Err(SolverError::InvalidContact)
    }
}
