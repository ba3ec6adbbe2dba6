//! A collision world: bodies with shapes, poses, velocities and mass, stepped through the whole
//! pipeline — broad phase → mid phase (meshes, compounds) → narrow phase → continuous
//! collision for fast bodies → response.
//!
//! One [`World::step`]:
//! 1. gravity is added to the velocities of dynamic bodies;
//! 2. every body's shape is placed at its pose and its box (grown by the prediction distance
//!    or, when larger, by how far the body can move in the step; swept over the step for CCD
//!    bodies) is given to the broad phase;
//! 3. the broad phase (any [`BroadPhase`], swappable with [`World::set_broad_phase`]) lists the
//!    overlapping boxes of moving bodies, and a tree of the static bodies gives each moving
//!    body's static neighbours; pairs whose collision groups exclude each other, and pairs of two
//!    non-dynamic bodies, are dropped;
//! 4. each remaining pair's manifolds come from [`contacts`]: meshes through their hierarchy,
//!    compounds part by part, convex pairs from cd-narrow's dispatcher — or, with
//!    [`WorldConfig::contact_reuse_margin`] set, from the pair's last test, carried over while
//!    a bound on the bodies' relative motion since then shows no contact can have appeared;
//! 5. cd-response's sequential-impulse solver turns the manifolds into velocity changes;
//! 6. bodies move; a CCD body whose motion would cross another body stops at the first
//!    impact (cd-ccd's shape cast);
//! 7. contact events (started / persisting / stopped) and per-stage timings are recorded.
//!
//! Everything is deterministic: bodies live in slots, pairs are visited in sorted order, and no
//! hash map's order reaches a result.

pub mod body;
pub mod contacts;
pub mod events;
mod pairs;
pub mod query;
mod reuse;
pub mod shape;

use std::time::{Duration, Instant};

use cd_broad::{BroadPhase, BroadPhaseError, DynamicAabbTree, IncrementalSap};
use cd_geom::{Aabb, GeomError, Real};
use cd_narrow::{Manifold, NarrowError};
use cd_response::{
    ContactManifold, ContactPoint, ContactSolver, Material, RigidBody, SolveReport, SolverConfig, SolverError,
};
use nalgebra::{Isometry3, Vector3};

pub use body::{Body, BodyDesc, BodyHandle, BodyKind, CollisionGroups};
pub use contacts::PairWork;

pub use events::{ContactEvent, ContactEventKind};
pub use query::{ClosestBody, RayCastHit, ShapeCastHit};
pub use shape::{ColliderShape, MeshCollider, MeshShape};

use contacts::{grown, pair_manifolds, PairScratch};
use pairs::{PairEntry, PairSlab, Span};

/// A broad phase the world can own and share between threads.
pub type WorldBroadPhase<T> = Box<dyn BroadPhase<T, 3> + Send + Sync>;

/// Why a world operation was refused. The world is unchanged when one is returned.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WorldError {
    /// A shape, pose, velocity or density is invalid.
    Geom(GeomError),
    /// The narrow phase could not answer a pair.
    Narrow(NarrowError),
    /// The broad phase refused a proxy.
    Broad(BroadPhaseError),
    /// The contact solver refused its input.
    Solver(SolverError),
    /// The handle names no body (removed, or from another world).
    InvalidHandle,
    /// A dynamic body needs a shape with volume (not a mesh or half-space).
    NoVolume {
        /// The shape's kind.
        shape: &'static str,
    },
    /// The time step is not finite and positive.
    InvalidTimeStep,
}

impl core::fmt::Display for WorldError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            WorldError::Geom(e) => write!(f, "invalid geometry: {e}"),
            WorldError::Narrow(e) => write!(f, "narrow phase: {e}"),
            WorldError::Broad(e) => write!(f, "broad phase: {e}"),
            WorldError::Solver(e) => write!(f, "solver: {e}"),
            WorldError::InvalidHandle => f.write_str("no body has this handle"),
            WorldError::NoVolume { shape } => {
                write!(f, "a dynamic body cannot be a {shape}: it has no volume")
            }
            WorldError::InvalidTimeStep => f.write_str("the time step must be finite and positive"),
        }
    }
}

impl std::error::Error for WorldError {}

impl From<GeomError> for WorldError {
    fn from(e: GeomError) -> Self {
        WorldError::Geom(e)
    }
}

impl From<NarrowError> for WorldError {
    fn from(e: NarrowError) -> Self {
        WorldError::Narrow(e)
    }
}

impl From<BroadPhaseError> for WorldError {
    fn from(e: BroadPhaseError) -> Self {
        WorldError::Broad(e)
    }
}

/// World settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldConfig<T: Real> {
    /// Acceleration of every dynamic body (default `(0, −9.81, 0)`).
    pub gravity: Vector3<T>,
    /// Contacts are generated up to this far apart (speculative contacts; default 0.02).
    pub prediction: T,
    /// A pair counts as touching (for events) while its closest points are within this distance
    /// (default 0.005, the solver's slop: resting contacts sit inside it).
    pub contact_tolerance: T,
    /// The contact solver's settings.
    pub solver: SolverConfig<T>,
    /// Correct contact normals on meshes' interior edges so bodies slide across shared edges
    /// without catching on them (default on).
    pub smooth_internal_edges: bool,
    /// Speculative contacts sized by speed (default on): during a step each moving body's
    /// broad-phase box is swept over its linear motion, and a pair's contacts are generated up
    /// to [`World::pair_prediction`] apart — the fixed `prediction` or, when larger, how far
    /// the two bodies can close in during the step. A fast body then has a contact with a
    /// surface before it reaches it, and the solver stops it there instead of letting it pass
    /// through thin geometry between two steps. Off: only `prediction` (and CCD bodies).
    pub velocity_prediction: bool,
    /// Contact reuse (persistent contacts; default 0, off). With a margin `m > 0`, contacts
    /// are generated up to `m` farther apart than the prediction distance, and a pair whose
    /// bodies have since moved relative to each other by less than what that extra reach
    /// covers keeps its manifolds from the last test instead of being tested again: its points
    /// move with their bodies and their distances are measured again (see
    /// [`StepStats::reused_pairs`]). No contact is ever missed — the motion bound guarantees
    /// that every contact within the prediction distance was among those the test found — but
    /// the points are the test's material points, not the current closest ones, and the normal
    /// lags the relative rotation: errors of the order of `m`. A margin near the prediction
    /// distance (0.02) spares most tests of resting and slowly sliding bodies.
    pub contact_reuse_margin: T,
}

impl<T: Real> Default for WorldConfig<T> {
    fn default() -> Self {
        Self {
            gravity: Vector3::new(T::zero(), T::lit(-9.81), T::zero()),
            prediction: T::lit(0.02),
            contact_tolerance: T::lit(0.005),
            solver: SolverConfig::default(),
            smooth_internal_edges: true,
            velocity_prediction: true,
            contact_reuse_margin: T::zero(),
        }
    }
}

/// The work limit of a time-critical step ([`World::step_within`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepBudget {
    /// Narrow-phase tests allowed (convex pairs count one, mesh pairs one per triangle tested).
    pub max_narrow_tests: usize,
}

/// What the last step did and how long each stage took.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepStats<T: Real> {
    /// Updating the broad phase and finding its pairs.
    pub broad_time: Duration,
    /// Pairs involving meshes or compounds (hierarchy traversal plus their narrow tests).
    pub mid_time: Duration,
    /// Convex pairs.
    pub narrow_time: Duration,
    /// Continuous collision of CCD bodies.
    pub ccd_time: Duration,
    /// The contact solver and integration.
    pub response_time: Duration,
    /// Bodies in the world.
    pub bodies: usize,
    /// Pairs the broad phase reported.
    pub broad_pairs: usize,
    /// Pairs tested after filtering (groups, two non-dynamic bodies), reused ones excepted.
    pub tested_pairs: usize,
    /// Mid- and narrow-phase work.
    pub work: PairWork,
    /// Manifolds with at least one point.
    pub manifolds: usize,
    /// Contact points handed to the solver.
    pub contact_points: usize,
    /// CCD bodies whose motion stopped at an impact.
    pub ccd_impacts: usize,
    /// Pairs a time-critical step left with their previous contacts.
    pub skipped_pairs: usize,
    /// Pairs whose manifolds were carried over from their last test instead of being tested
    /// ([`WorldConfig::contact_reuse_margin`]); not counted in `tested_pairs`.
    pub reused_pairs: usize,
    /// The solver's report.
    pub solver: SolveReport<T>,
}

/// `(|v| + |ω|·ρ)·dt` when `enabled`, else zero: how far any point of a body can move in a
/// step, with `ρ` a bound on the distance of its points from the centre of mass: half its box's
/// diagonal plus the centre of mass's distance from the box's centre.
fn surface_reach<T: Real>(enabled: bool, body: &Body<T>, dt: T) -> T {
    if !enabled || dt == T::zero() {
        return T::zero();
    }
    let b = &body.placed_aabb;
    let half_diagonal = (b.max() - b.min()).norm() * T::lit(0.5);
    let offset = (body.rigid.world_center() - b.center()).norm();
    (body.rigid.linear_velocity.norm() + body.rigid.angular_velocity.norm() * (half_diagonal + offset)) * dt
}

#[derive(Clone, Debug)]
struct Slot<T: Real> {
    generation: u32,
    body: Option<Body<T>>,
}

/// A collision world. `Send + Sync`: queries take `&self` and may run from several threads.
///
/// ```
/// use cd::world::{BodyDesc, ColliderShape, World};
/// use nalgebra::Isometry3;
///
/// let mut world = World::<f64>::default();
/// world.add(BodyDesc::fixed(ColliderShape::HalfSpace)).unwrap();
/// let ball = world.add(BodyDesc::dynamic(ColliderShape::ball(0.5)).with_pose(Isometry3::translation(0.0, 2.0, 0.0))).unwrap();
/// for _ in 0..120 {
///     world.step(1.0 / 60.0).unwrap();
/// }
/// let y = world.body(ball).unwrap().pose().translation.y;
/// assert!((y - 0.5).abs() < 0.01); // resting on the ground
/// ```
pub struct World<T: Real> {
    config: WorldConfig<T>,
    slots: Vec<Slot<T>>,
    free: Vec<u32>,
    /// Moving (dynamic and kinematic) bodies: the user's strategy.
    broad: WorldBroadPhase<T>,
    /// Static bodies: a tree that moving bodies query. Level geometry is often huge (a floor,
    /// a mesh bowl) and would spoil grids and sweeps built for the moving bodies' sizes.
    statics: DynamicAabbTree<T, 3>,
    /// Scratch for the static tree's answers.
    static_hits: Vec<u32>,
    /// Scratch: the moving proxies' new boxes of a step, handed to the broad phase in one
    /// `update_all` call.
    broad_updates: Vec<(u32, Aabb<T, 3>)>,
    /// The pairs of the last step, sorted, with the slab index of their states.
    pairs: Vec<PairEntry>,
    /// The pairs' states.
    pair_slab: PairSlab<T>,
    /// The previous step's pair list, emptied: the next step's list is built in it.
    pair_spare: Vec<PairEntry>,
    /// Every pair's manifolds of the last step, in the order the pairs were processed; each
    /// state holds its [`Span`](pairs::Span).
    manifolds: Vec<Manifold<T, 3>>,
    /// The step before's manifolds during a step (a pair skipped under a budget keeps its
    /// own), emptied after it.
    manifolds_spare: Vec<Manifold<T, 3>>,
    /// The broad phase's pairs of the current step (kept to reuse its allocation).
    pair_buffer: Vec<(u32, u32)>,
    solver: ContactSolver<T>,
    scratch: PairScratch<T>,
    events: Vec<ContactEvent<T>>,
    stats: StepStats<T>,
    rigid: Vec<RigidBody<T>>,
}

/// Default settings with an incremental sweep-and-prune for the moving bodies: simulated bodies
/// move coherently, where it is the fastest strategy in the world benchmark (broad phase 0.24 ms
/// per frame at 1,000 bodies and 0.90 ms at 10,000, against 0.62 and 2.1 ms for the uniform
/// grid). Its margin is zero: the world's proxies already carry the prediction and each body's
/// reach over the step, and falling bodies leave any small extra margin every frame, which only
/// added candidates (10k bodies: broad 2.7 ms with the SAP's default 10 % margin, 1.2 ms
/// without). Scenes of objects that jump around suit `SortAndSweep` or `UniformGrid` better
/// (docs/CHOOSING.md); pass one to [`World::new`].
impl<T: Real> Default for World<T> {
    fn default() -> Self {
        Self::new(WorldConfig::default(), Box::new(IncrementalSap::<T, 3>::new().margin(T::zero())))
            .expect("default settings are valid")
    }
}

impl<T: Real> World<T> {
    /// An empty world with the given settings and broad phase. Errors: invalid solver settings,
    /// a non-finite gravity, a negative prediction, tolerance or reuse margin.
    pub fn new(config: WorldConfig<T>, broad: WorldBroadPhase<T>) -> Result<Self, WorldError> {
        cd_geom::validate::vector(&config.gravity)?;
        for x in [config.prediction, config.contact_tolerance, config.contact_reuse_margin] {
            if !(x.is_finite() && x >= T::zero()) {
                return Err(WorldError::Geom(GeomError::Negative));
            }
        }
        let solver = ContactSolver::new(config.solver).map_err(WorldError::Solver)?;
        Ok(Self {
            config,
            slots: Vec::new(),
            free: Vec::new(),
            broad,
            statics: DynamicAabbTree::new(),
            static_hits: Vec::new(),
            broad_updates: Vec::new(),
            pairs: Vec::new(),
            pair_slab: PairSlab::default(),
            pair_spare: Vec::new(),
            manifolds: Vec::new(),
            manifolds_spare: Vec::new(),
            pair_buffer: Vec::new(),
            solver,
            scratch: PairScratch::default(),
            events: Vec::new(),
            stats: StepStats::default(),
            rigid: Vec::new(),
        })
    }

    /// The settings.
    pub fn config(&self) -> &WorldConfig<T> {
        &self.config
    }

    /// Replaces the broad phase of the moving bodies (each is handed to the new one; static
    /// bodies stay in the world's own tree). Results do not depend on the strategy: all report
    /// the same pairs.
    pub fn set_broad_phase(&mut self, mut broad: WorldBroadPhase<T>) -> Result<(), WorldError> {
        for (i, slot) in self.slots.iter().enumerate() {
            if let Some(body) = slot.body.as_ref().filter(|b| b.kind != BodyKind::Static) {
                broad.insert(i as u32, body.proxy_aabb)?;
            }
        }
        broad.find_pairs();
        self.broad = broad;
        Ok(())
    }

    /// Adds a body. Errors: invalid shape or pose ([`WorldError::Geom`]), a dynamic mesh or
    /// half-space ([`WorldError::NoVolume`]).
    pub fn add(&mut self, desc: BodyDesc<T>) -> Result<BodyHandle, WorldError> {
        desc.shape.validate()?;
        cd_geom::validate::vector(&desc.pose.translation.vector)?;
        cd_geom::validate::vector(&desc.linear_velocity)?;
        cd_geom::validate::vector(&desc.angular_velocity)?;
        let mass = match desc.kind {
            BodyKind::Dynamic if !desc.shape.is_solid() => {
                return Err(WorldError::NoVolume { shape: desc.shape.name() })
            }
            BodyKind::Dynamic => desc.shape.mass_properties(desc.density)?,
            BodyKind::Static | BodyKind::Kinematic => cd_response::MassProperties::infinite(),
        };
        let mut rigid = RigidBody::new(desc.pose, mass);
        if desc.kind != BodyKind::Static {
            rigid.linear_velocity = desc.linear_velocity;
            rigid.angular_velocity = desc.angular_velocity;
        }
        let placed = desc.shape.place(&desc.pose)?;
        let placed_aabb = placed.aabb();
        let aabb = grown(&placed_aabb, self.config.prediction);
        let index = match self.free.last() {
            Some(&i) => i,
            None => self.slots.len() as u32,
        };
        if desc.kind == BodyKind::Static {
            self.statics.insert(index, aabb)?;
        } else {
            self.broad.insert(index, aabb)?;
        }
        let body = Body {
            bounding_radius: desc.shape.bounding_radius(),
            shape: desc.shape,
            kind: desc.kind,
            rigid,
            material: desc.material,
            groups: desc.groups,
            user_data: desc.user_data,
            ccd: desc.ccd,
            placed,
            placed_aabb,
            proxy_aabb: aabb,
        };
        if index as usize == self.slots.len() {
            self.slots.push(Slot { generation: 0, body: Some(body) });
        } else {
            self.free.pop();
            self.slots[index as usize].body = Some(body);
        }
        Ok(BodyHandle { index, generation: self.slots[index as usize].generation })
    }

    /// Removes a body and returns it. Its touching pairs are reported as stopped at once.
    pub fn remove(&mut self, handle: BodyHandle) -> Result<Body<T>, WorldError> {
        self.check(handle)?;
        if self.slots[handle.index as usize].body.as_ref().is_some_and(|b| b.kind == BodyKind::Static) {
            self.statics.remove(handle.index)?;
        } else {
            self.broad.remove(handle.index)?;
        }
        let slot = &mut self.slots[handle.index as usize];
        let body = slot.body.take().expect("checked");
        slot.generation = slot.generation.wrapping_add(1);
        self.free.push(handle.index);
        let mut ended = Vec::new();
        self.pairs.retain(|&((a, b), state)| {
            let gone = a == handle.index || b == handle.index;
            if gone {
                ended.push(state);
            }
            !gone
        });
        for state in ended {
            if self.pair_slab.close(state) {
                let (a, b) = self.pair_slab.get(state).key;
                let (a, b) = (self.handle_or(a, handle), self.handle_or(b, handle));
                self.events.push(ContactEvent::stopped(a, b));
            }
        }
        Ok(body)
    }

    /// The handle of the body in slot `index`.
    fn handle(&self, index: u32) -> BodyHandle {
        BodyHandle { index, generation: self.slots[index as usize].generation }
    }

    fn handle_or(&self, index: u32, removed: BodyHandle) -> BodyHandle {
        if index == removed.index {
            removed
        } else {
            BodyHandle { index, generation: self.slots[index as usize].generation }
        }
    }

    fn check(&self, handle: BodyHandle) -> Result<(), WorldError> {
        match self.slots.get(handle.index as usize) {
            Some(slot) if slot.generation == handle.generation && slot.body.is_some() => Ok(()),
            _ => Err(WorldError::InvalidHandle),
        }
    }

    /// The body behind a handle.
    pub fn body(&self, handle: BodyHandle) -> Option<&Body<T>> {
        self.check(handle).ok()?;
        self.slots[handle.index as usize].body.as_ref()
    }

    /// Every body with its handle, in slot order.
    pub fn bodies(&self) -> impl Iterator<Item = (BodyHandle, &Body<T>)> {
        self.slots.iter().enumerate().filter_map(|(i, slot)| {
            slot.body.as_ref().map(|b| (BodyHandle { index: i as u32, generation: slot.generation }, b))
        })
    }

    /// Number of bodies.
    pub fn len(&self) -> usize {
        self.slots.len() - self.free.len()
    }

    /// No bodies?
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Moves a body (teleport: no velocity change). Errors: bad handle or pose.
    pub fn set_pose(&mut self, handle: BodyHandle, pose: Isometry3<T>) -> Result<(), WorldError> {
        self.check(handle)?;
        cd_geom::validate::vector(&pose.translation.vector)?;
        let prediction = self.config.prediction;
        let body = self.slots[handle.index as usize].body.as_mut().expect("checked");
        let placed = body.shape.place(&pose)?;
        let placed_aabb = placed.aabb();
        let aabb = grown(&placed_aabb, prediction);
        if body.kind == BodyKind::Static {
            self.statics.update(handle.index, aabb)?;
        } else {
            self.broad.update(handle.index, aabb)?;
        }
        (body.rigid.pose, body.placed, body.placed_aabb, body.proxy_aabb) = (pose, placed, placed_aabb, aabb);
        Ok(())
    }

    /// Sets a dynamic or kinematic body's velocities (ignored for static bodies).
    pub fn set_velocity(
        &mut self,
        handle: BodyHandle,
        linear: Vector3<T>,
        angular: Vector3<T>,
    ) -> Result<(), WorldError> {
        self.check(handle)?;
        cd_geom::validate::vector(&linear)?;
        cd_geom::validate::vector(&angular)?;
        let body = self.slots[handle.index as usize].body.as_mut().expect("checked");
        if body.kind != BodyKind::Static {
            (body.rigid.linear_velocity, body.rigid.angular_velocity) = (linear, angular);
        }
        Ok(())
    }

    /// Applies an impulse `impulse` at the world point `point` to a dynamic body (ignored for
    /// static and kinematic bodies): forces from user code (a vehicle's suspension, an
    /// explosion) enter the world this way, as `force · dt`.
    pub fn apply_impulse(
        &mut self,
        handle: BodyHandle,
        impulse: &Vector3<T>,
        point: &nalgebra::Point3<T>,
    ) -> Result<(), WorldError> {
        self.check(handle)?;
        cd_geom::validate::vector(impulse)?;
        cd_geom::validate::point(point)?;
        let body = self.slots[handle.index as usize].body.as_mut().expect("checked");
        if body.kind == BodyKind::Dynamic {
            let mut after = body.rigid;
            after.apply_impulse(impulse, point);
            // A velocity beyond the coordinate limit is refused like any other bad input.
            if !motion_stays_in_range(&after, T::zero()) {
                return Err(WorldError::Geom(GeomError::OutOfRange));
            }
            body.rigid = after;
        }
        Ok(())
    }

    /// The contact events of the last step (and of removals since).
    pub fn events(&self) -> &[ContactEvent<T>] {
        &self.events
    }

    /// Timings and counters of the last step.
    pub fn stats(&self) -> &StepStats<T> {
        &self.stats
    }

    /// The manifolds of every pair with contact points after the last step, as
    /// `(a, b, manifolds)` in sorted pair order (normals from A to B).
    pub fn contact_pairs(&self) -> impl Iterator<Item = (BodyHandle, BodyHandle, &[Manifold<T, 3>])> {
        self.pairs
            .iter()
            .map(|&(_, state)| self.pair_slab.get(state))
            .filter(|s| s.manifolds.len > 0)
            .map(|s| (self.handle(s.key.0), self.handle(s.key.1), s.manifolds.of(&self.manifolds)))
    }

    /// Advances the world by `dt`. Errors: an invalid `dt` (not finite, or below machine
    /// epsilon) and a step that would carry a body beyond the coordinate limit
    /// ([`GeomError::OutOfRange`]) are refused before anything changes; a narrow-phase or
    /// solver error mid-step (never expected with validated bodies) is reported after gravity
    /// has been applied.
    pub fn step(&mut self, dt: T) -> Result<&StepStats<T>, WorldError> {
        self.step_inner(dt, None)
    }

    /// A time-critical step: no pair is started once `budget.max_narrow_tests` narrow-phase
    /// tests have run (a mesh pair counts one per triangle it tests, and finishes once started).
    /// Pairs left untested longest are served first (touching ones with priority), so every
    /// pair gets its turn; pairs left over when the budget is spent keep their previous
    /// contacts, which the solver uses again — the step degrades to slightly stale contacts
    /// instead of running long. A pair with no contact yet that is skipped while two bodies
    /// close in fast can let them pass through thin geometry: give fast bodies CCD, or a
    /// budget that serves every pair every few steps. [`StepStats::skipped_pairs`] reports how many were left over. With an unlimited
    /// budget it is the same as [`World::step`].
    pub fn step_within(&mut self, dt: T, budget: StepBudget) -> Result<&StepStats<T>, WorldError> {
        self.step_inner(dt, Some(budget))
    }

    fn step_inner(&mut self, dt: T, budget: Option<StepBudget>) -> Result<&StepStats<T>, WorldError> {
        // Below machine epsilon a step moves nothing measurable and its position corrections
        // (penetration / Δt) could overflow.
        if !(dt >= T::epsilon() && dt.is_finite()) {
            return Err(WorldError::InvalidTimeStep);
        }
        // Refuse, before anything changes, a step that would carry a body beyond the
        // coordinate range (a huge Δt or velocity): nothing may silently become infinite.
        let gravity = self.config.gravity;
        for body in self.slots.iter().filter_map(|s| s.body.as_ref()).filter(|b| b.kind != BodyKind::Static) {
            let mut rigid = body.rigid;
            if body.kind == BodyKind::Dynamic {
                rigid.integrate_velocity(&gravity, dt);
            }
            if !motion_stays_in_range(&rigid, dt) {
                return Err(WorldError::Geom(GeomError::OutOfRange));
            }
        }
        self.events.clear();
        let mut stats = StepStats { bodies: self.len(), ..StepStats::default() };
        for body in self.slots.iter_mut().filter_map(|s| s.body.as_mut()) {
            if body.kind == BodyKind::Dynamic {
                body.rigid.integrate_velocity(&gravity, dt);
            }
        }

        let manifolds = self.detect(dt, &mut stats, budget.map(|b| b.max_narrow_tests), true)?;

        let start = Instant::now();
        self.rigid.clear();
        self.rigid.extend(self.slots.iter().map(|s| match &s.body {
            Some(b) => b.rigid,
            None => RigidBody::fixed(Isometry3::identity()),
        }));
        stats.solver = self.solver.solve(&mut self.rigid, &manifolds, dt).map_err(WorldError::Solver)?;
        // The solver only removes approach speed, but extreme mass ratios could still push a
        // velocity out of range: then the step's response is dropped, not turned into NaN.
        let diverged = self.slots.iter().zip(&self.rigid).any(|(slot, rigid)| {
            slot.body.as_ref().is_some_and(|b| b.kind == BodyKind::Dynamic)
                && !motion_stays_in_range(rigid, dt)
        });
        if diverged {
            return Err(WorldError::Geom(GeomError::OutOfRange));
        }
        for (slot, rigid) in self.slots.iter_mut().zip(&self.rigid) {
            if let Some(body) = slot.body.as_mut() {
                body.rigid = *rigid;
            }
        }
        stats.response_time = start.elapsed();

        let start = Instant::now();
        let times = self.ccd_times(dt, &mut stats);
        stats.ccd_time = start.elapsed();

        let start = Instant::now();
        for (i, slot) in self.slots.iter_mut().enumerate() {
            if let Some(body) = slot.body.as_mut() {
                if body.kind != BodyKind::Static {
                    body.rigid.integrate_position(times.get(&(i as u32)).copied().unwrap_or(dt));
                    body.replace()?;
                }
            }
        }
        stats.response_time += start.elapsed();
        self.stats = stats;
        Ok(&self.stats)
    }

    /// Collision detection only, at the current poses: places the moving bodies, updates the
    /// broad phase, runs the mid and narrow phases, and records contacts
    /// ([`World::contact_pairs`]), events and the stage timings — no gravity, no response, no
    /// motion. For users who bring their own dynamics (move bodies with [`World::set_pose`]) or
    /// only need to know what touches what.
    pub fn detect_contacts(&mut self) -> Result<&StepStats<T>, WorldError> {
        self.events.clear();
        let mut stats = StepStats { bodies: self.len(), ..StepStats::default() };
        self.detect(T::zero(), &mut stats, None, false)?;
        self.stats = stats;
        Ok(&self.stats)
    }

    /// Broad, mid and narrow phases; `sweep` is the time over which CCD bodies' boxes are
    /// swept. The solver's input is returned when `for_solver` (empty otherwise).
    fn detect(
        &mut self,
        sweep: T,
        stats: &mut StepStats<T>,
        budget: Option<usize>,
        for_solver: bool,
    ) -> Result<Vec<ContactManifold<T>>, WorldError> {
        let start = Instant::now();
        self.update_broad_phase(sweep)?;
        stats.broad_pairs = self.pair_buffer.len();
        stats.broad_time = start.elapsed();
        self.find_contacts(sweep, stats, budget, for_solver)
    }

    /// How far a body's surface can move during a step of `dt`, for the speculative contacts
    /// of [`WorldConfig::velocity_prediction`]: `(|v| + |ω|·ρ)·dt`, where `ρ` bounds how far
    /// its points are from its centre of mass (half its box's diagonal plus the centre of
    /// mass's offset from the box's centre). Zero when the option is off.
    pub fn speculative_margin(&self, body: &Body<T>, dt: T) -> T {
        surface_reach(self.config.velocity_prediction, body, dt)
    }

    /// The distance up to which a pair's contacts are generated in a step of `dt`: the
    /// configured `prediction`, or the sum of the two bodies' [speculative
    /// margins](World::speculative_margin) when that is larger (how far apart two bodies can be
    /// and still meet during the step). Each body's broad-phase box is grown by its own
    /// margin, so every such pair is found.
    pub fn pair_prediction(&self, a: &Body<T>, b: &Body<T>, dt: T) -> T {
        let reach = self.speculative_margin(a, dt) + self.speculative_margin(b, dt);
        let base = self.config.prediction;
        if reach > base {
            reach
        } else {
            base
        }
    }

    fn update_broad_phase(&mut self, dt: T) -> Result<(), WorldError> {
        let prediction = self.config.prediction;
        self.broad_updates.clear();
        for (i, slot) in self.slots.iter_mut().enumerate() {
            let Some(body) = slot.body.as_mut() else { continue };
            if body.kind == BodyKind::Static {
                continue;
            }
            // The shape was placed when the pose last changed (add, set_pose, integration).
            let margin = surface_reach(self.config.velocity_prediction, body, dt);
            let mut aabb = grown(&body.placed_aabb, if margin > prediction { margin } else { prediction });
            if body.ccd {
                aabb = cd_ccd::swept_aabb_linear(&aabb, &body.rigid.linear_velocity, dt)?;
            }
            if aabb != body.proxy_aabb {
                body.proxy_aabb = aabb;
                self.broad_updates.push((i as u32, aabb));
            }
        }
        self.broad.update_all(&self.broad_updates)?;
        self.broad.find_pairs();
        // The pairs of the step: the moving bodies' among themselves, and each moving body's
        // static neighbours from the static tree, merged into one sorted list.
        let mut with_statics = Vec::new();
        for (i, slot) in self.slots.iter().enumerate() {
            let Some(body) = slot.body.as_ref().filter(|b| b.kind != BodyKind::Static) else { continue };
            self.static_hits.clear();
            self.statics.query_aabb(&body.proxy_aabb, &mut self.static_hits);
            let i = i as u32;
            with_statics.extend(self.static_hits.iter().map(|&s| (i.min(s), i.max(s))));
        }
        with_statics.sort_unstable();
        let moving = self.broad.pairs();
        self.pair_buffer.clear();
        self.pair_buffer.reserve(moving.len() + with_statics.len());
        let (mut x, mut y) = (moving.iter().peekable(), with_statics.into_iter().peekable());
        loop {
            let next = match (x.peek(), y.peek()) {
                (Some(&&p), Some(&q)) if p <= q => x.next().copied(),
                (Some(_), Some(_)) => y.next(),
                (Some(_), None) => x.next().copied(),
                (None, Some(_)) => y.next(),
                (None, None) => break,
            };
            self.pair_buffer.extend(next);
        }
        Ok(())
    }

    /// Ids of every body whose broad-phase box overlaps `aabb`, moving and static.
    pub(crate) fn candidates_in(&self, aabb: &cd_geom::Aabb<T, 3>, out: &mut Vec<u32>) {
        self.broad.query_aabb(aabb, out);
        self.statics.query_aabb(aabb, out);
    }

    /// Bodies whose broad-phase box the ray enters, with the entry parameter.
    pub(crate) fn candidates_on(&self, ray: &cd_geom::Ray<T, 3>, out: &mut Vec<(u32, T)>) {
        self.broad.query_ray(ray, out);
        self.statics.query_ray(ray, out);
    }

    /// Mid and narrow phases over the broad phase's pairs; contact events; the solver's input.
    ///
    /// The pair states are a vector sorted by pair, like the broad phase's pairs, so this is a
    /// merge of two sorted lists: states of pairs that are still reported are carried over,
    /// the others end (a Stopped event if they touched). With a `budget` of narrow-phase tests,
    /// the pairs left untested longest go first (touching ones count as two steps staler), so
    /// every pair is served in turn; once the budget is spent the remaining pairs keep their
    /// previous manifolds (counted in [`StepStats::skipped_pairs`]). Events come out in pair
    /// order. The solver's input is built only when `for_solver`.
    fn find_contacts(
        &mut self,
        dt: T,
        stats: &mut StepStats<T>,
        budget: Option<usize>,
        for_solver: bool,
    ) -> Result<Vec<ContactManifold<T>>, WorldError> {
        let broad_pairs = std::mem::take(&mut self.pair_buffer);
        let first_event = self.events.len();
        let mut last = std::mem::take(&mut self.pairs);
        let mut previous = last.iter().copied().peekable();
        let mut next = std::mem::take(&mut self.pair_spare);
        next.clear();
        for &(a, b) in &broad_pairs {
            while let Some((_, state)) = previous.next_if(|e| e.0 < (a, b)) {
                self.end_pair(state);
            }
            let known = previous.next_if(|e| e.0 == (a, b)).map(|e| e.1);
            let interacts = match (&self.slots[a as usize].body, &self.slots[b as usize].body) {
                (Some(x), Some(y)) => {
                    (x.kind == BodyKind::Dynamic || y.kind == BodyKind::Dynamic)
                        && x.groups.interacts_with(&y.groups)
                }
                _ => false,
            };
            match (known, interacts) {
                (Some(state), true) => next.push(((a, b), state)),
                (Some(state), false) => self.end_pair(state),
                (None, true) => next.push(((a, b), self.pair_slab.open((a, b)))),
                (None, false) => {}
            }
        }
        // Pairs the broad phase no longer reports stop touching.
        for (_, state) in previous {
            self.end_pair(state);
        }
        last.clear();
        self.pair_spare = last;
        self.pair_buffer = broad_pairs;
        if self.pair_slab.untidy(&next) {
            self.pair_slab.compact(&mut next);
        }

        // The states are taken out of the world while the pairs are processed (the loop reads
        // the bodies and writes the scratch space and events next to them).
        let mut slab = std::mem::take(&mut self.pair_slab);
        // Pair order, or under a budget the stalest pairs first (stable: ties in pair order).
        let mut order: Vec<usize> = Vec::new();
        if budget.is_some() {
            order.extend(0..next.len());
            order.sort_by_key(|&i| core::cmp::Reverse(slab.get(next[i].1).urgency()));
        }
        // This step's manifolds, appended pair by pair; the last step's for skipped pairs.
        let previous = std::mem::take(&mut self.manifolds);
        let mut manifolds = std::mem::take(&mut self.manifolds_spare);
        manifolds.clear();
        // The clock is read where a run of mesh/compound pairs meets a run of convex pairs (pairs
        // come in slot order, so a world's static meshes usually make one run): the time of a run
        // goes to the mid or the narrow phase. A reading per pair cost 3 % of a 1k-body frame.
        let mut clock = Instant::now();
        let mut run: Option<bool> = None;
        let close_run = |run: Option<bool>, now: Instant, clock: Instant, stats: &mut StepStats<T>| match run
        {
            Some(true) => stats.mid_time += now - clock,
            Some(false) => stats.narrow_time += now - clock,
            None => {}
        };
        for k in 0..next.len() {
            let ((a, b), state) = next[order.get(k).copied().unwrap_or(k)];
            let (state, store) = slab.get_mut(state);
            let (ha, hb) = (self.handle(a), self.handle(b));
            let start = manifolds.len();
            // The last step's manifolds (in `previous`) until this step's are found.
            let last = core::mem::take(&mut state.manifolds);
            let (Some(x), Some(y)) = (&self.slots[a as usize].body, &self.slots[b as usize].body) else {
                continue;
            };
            let complex =
                |p: &shape::Placed<T>| matches!(p, shape::Placed::Mesh(..) | shape::Placed::Compound(_));
            let mid = complex(&x.placed) || complex(&y.placed);
            if run != Some(mid) {
                let now = Instant::now();
                close_run(run, now, clock, stats);
                (clock, run) = (now, Some(mid));
            }
            let prediction = self.pair_prediction(x, y, dt);
            let reuse = self.config.contact_reuse_margin;
            if reuse > T::zero() && state.anchor.replay(store, (x, y), prediction, &mut manifolds) {
                // Carried over: no test, and nothing for a time-critical budget to skip.
                stats.reused_pairs += 1;
                state.stale = 0;
            } else if budget.is_some_and(|limit| stats.work.narrow_tests >= limit) {
                stats.skipped_pairs += 1;
                state.stale = state.stale.saturating_add(1);
                manifolds.extend_from_slice(last.of(&previous));
                state.manifolds = Span::since(start, &manifolds);
                if state.touching {
                    let kind = ContactEventKind::Persisting;
                    self.events.push(ContactEvent::from_manifolds(kind, ha, hb, last.of(&previous)));
                }
                continue;
            } else {
                stats.tested_pairs += 1;
                state.stale = 0;
                pair_manifolds(
                    (&x.placed, &x.placed_aabb),
                    (&y.placed, &y.placed_aabb),
                    prediction + reuse,
                    self.config.smooth_internal_edges,
                    &mut state.cache,
                    &mut self.scratch,
                    &mut stats.work,
                    &mut manifolds,
                )?;
                if reuse > T::zero() {
                    state.anchor.record(store, (x, y), prediction, prediction + reuse, &manifolds[start..]);
                }
            }
            state.manifolds = Span::since(start, &manifolds);
            let found = &manifolds[start..];
            // A point touches when it is within the tolerance, or when the bodies' approach along
            // its normal closes it within the step (they meet inside the step; the solver may
            // bounce them apart before a step ever ends with them touching).
            let closing = y.rigid.linear_velocity - x.rigid.linear_velocity;
            let touching = found.iter().any(|m| {
                let approach = closing.dot(&m.normal).min(T::zero()) * dt;
                m.points().iter().any(|p| p.distance + approach <= self.config.contact_tolerance)
            });
            match (state.touching, touching) {
                (false, true) => {
                    self.events.push(ContactEvent::from_manifolds(ContactEventKind::Started, ha, hb, found))
                }
                (true, true) => self.events.push(ContactEvent::from_manifolds(
                    ContactEventKind::Persisting,
                    ha,
                    hb,
                    found,
                )),
                (true, false) => self.events.push(ContactEvent::stopped(ha, hb)),
                (false, false) => {}
            }
            state.touching = touching;
        }
        close_run(run, Instant::now(), clock, stats);
        stats.manifolds += manifolds.len();
        stats.contact_points += manifolds.iter().map(|m| m.len()).sum::<usize>();
        // Ended pairs were reported during the merge, the others as they were processed.
        self.events[first_event..].sort_by_key(|e| (e.a.index, e.b.index));

        // The solver's input in pair order, whatever order the pairs were processed in.
        let mut solver_input = Vec::new();
        for &(_, state) in next.iter().filter(|_| for_solver) {
            let state = slab.get(state);
            let (a, b) = state.key;
            let (Some(x), Some(y)) = (&self.slots[a as usize].body, &self.slots[b as usize].body) else {
                continue;
            };
            let material = combine(&x.material, &y.material);
            for m in state.manifolds.of(&manifolds) {
                let mut cm = ContactManifold::new(a as usize, b as usize, m.normal, material);
                for p in m.points() {
                    cm.push(ContactPoint {
                        point_a: p.point_a,
                        point_b: p.point_b,
                        distance: p.distance,
                        id: p.id,
                    });
                }
                solver_input.push(cm);
            }
        }
        self.pairs = next;
        self.pair_slab = slab;
        self.manifolds = manifolds;
        self.manifolds_spare = previous;
        Ok(solver_input)
    }

    /// A pair that is no longer tested: a Stopped event if it was touching.
    fn end_pair(&mut self, state: u32) {
        if self.pair_slab.close(state) {
            let (a, b) = self.pair_slab.get(state).key;
            let (ha, hb) = (self.handle(a), self.handle(b));
            self.events.push(ContactEvent::stopped(ha, hb));
        }
    }
}

/// Whether a body moving with its velocities for `dt` stays finite and within the coordinate
/// limit (velocities, the displacement and the turn).
fn motion_stays_in_range<T: Real>(rigid: &RigidBody<T>, dt: T) -> bool {
    let limit = T::coord_limit();
    let finite = |x: &Vector3<T>| x.iter().all(|c| c.is_finite());
    if !finite(&rigid.linear_velocity) || !finite(&rigid.angular_velocity) {
        return false;
    }
    let (v, w) = (rigid.linear_velocity.amax(), rigid.angular_velocity.amax());
    let reach = rigid.pose.translation.vector.amax() + v * dt;
    v <= limit && w <= limit && reach <= limit && (w * dt).is_finite()
}

/// A pair's material: the livelier restitution and the geometric mean of the frictions.
fn combine<T: Real>(a: &Material<T>, b: &Material<T>) -> Material<T> {
    Material::new(a.restitution().max(b.restitution()), (a.friction() * b.friction()).sqrt()).unwrap_or(*a)
}

pub(crate) mod ccd;
