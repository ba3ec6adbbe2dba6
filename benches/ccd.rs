//! cd-ccd against parry3d's continuous queries on identical shapes and motions (f32), and the
//! accuracy of every method against a sub-stepping oracle.
//!
//! Groups are `ccd_<pair>_<linear|rotating>`; each iteration runs `BATCH` pairs. The bodies
//! start 2.5–4 apart, A aimed at B with some scatter (most pairs collide during the unit
//! step, some miss), B drifting; the rotating groups add angular velocities up to 2.9 rad per
//! unit time on both (below π, so parry's pose-interpolating `sweep_time_of_impact` follows the
//! same motion as the constant-angular-velocity ones).
//!
//! * linear: cd's closed form where one exists (`sphere_sphere`, dynamic SAT `obb_obb`) and
//!   the GJK ray cast (`shape_cast_posed`: local shapes and poses, as parry takes them) for
//!   every pair, against parry's `cast_shapes` and
//!   `sweep_time_of_impact`;
//! * rotating: cd's `conservative_advancement` and `separating_axis_toi`, against parry's
//!   `cast_shapes_nonlinear` and `sweep_time_of_impact`.
//!
//! Before timing, each method's times of impact are compared with the oracle (f64, 2,000
//! samples of cd-narrow's static signed distance per pair, then bisection) and the errors are
//! printed: mean and max |t − t_oracle|, how many were late by more than 1e-4, missed, or hits
//! the oracle did not see.

use cd_benches::{ccd_motions as motions, parry_pose, parry_vector, sphere_points, CcdBody as Body};
use cd_ccd::{
    conservative_advancement, obb_obb, separating_axis_toi, shape_cast_posed, sphere_sphere, CastConfig,
    LinearMotion, MovingShape, RigidMotion,
};
use cd_geom::{Aabb, Ball, ConvexPolyhedron, Obb, Point, Real, Segment, SupportMap, Transformed, Vector};
use cd_narrow::{convex_contact, ConvexConfig, GjkCache};
use criterion::{criterion_group, criterion_main, Criterion};
use nalgebra::{Isometry3, Point3, Vector3};
use parry3d::query::{
    cast_shapes, cast_shapes_nonlinear, sweep_time_of_impact, NonlinearRigidMotion, ShapeCastOptions, Sweep,
    SweepToiStatus, ToiProxy,
};
use parry3d::shape::{
    Ball as PBall, Capsule as PCapsule, ConvexPolyhedron as PHull, Cuboid, Shape as PShape,
};
use std::hint::black_box;

const HALF: [f64; 3] = [0.5, 0.3, 0.4];
const CAPSULE: (f64, f64) = (0.5, 0.25); // half height along y, radius
const BALL: f64 = 0.5;
const HULL_POINTS: usize = 32;
const HULL_RADIUS: f32 = 0.6;
/// parry's `sweep_time_of_impact` stops at this separation (its "linear slop"), kept small so
/// its accuracy is comparable.
const SLOP: f32 = 1e-3;

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Ball,
    Cuboid,
    Capsule,
    Hull,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Ball => "sphere",
            Kind::Cuboid => "box",
            Kind::Capsule => "capsule",
            Kind::Hull => "hull32",
        }
    }
}

/// A core shape in its local frame; the shape is the core grown by `radius`. A box in its own
/// frame is an `Aabb` centred on the origin (its support is three sign selects, like parry's
/// `Cuboid`; an `Obb` with identity axes would pay for two matrix products per support).
enum Core<T: Real> {
    Point,
    Box(Aabb<T, 3>),
    Segment(Segment<T, 3>),
    Hull(ConvexPolyhedron<T>),
}

impl<T: Real> SupportMap<T, 3> for Core<T> {
    #[inline]
    fn support(&self, d: &Vector<T, 3>) -> Point<T, 3> {
        match self {
            Core::Point => Point3::origin(),
            Core::Box(b) => b.support(d),
            Core::Segment(s) => s.support(d),
            Core::Hull(h) => h.support(d),
        }
    }
    #[inline]
    fn interior_point(&self) -> Point<T, 3> {
        match self {
            Core::Point => Point3::origin(),
            Core::Box(b) => b.interior_point(),
            Core::Segment(s) => s.interior_point(),
            Core::Hull(h) => h.interior_point(),
        }
    }
    #[inline]
    fn inner_radius(&self) -> T {
        match self {
            Core::Point => T::zero(),
            Core::Box(b) => b.inner_radius(),
            Core::Segment(s) => s.inner_radius(),
            Core::Hull(h) => h.inner_radius(),
        }
    }
    #[inline]
    fn outer_radius(&self) -> T {
        match self {
            Core::Point => T::zero(),
            Core::Box(b) => b.outer_radius(),
            Core::Segment(s) => s.outer_radius(),
            Core::Hull(h) => h.outer_radius(),
        }
    }
}

/// A scene's two cores, each with its radius.
type CorePair = ((Core<f32>, f32), (Core<f32>, f32));

/// The local core and radius of a kind, in f32 or f64.
fn core<T: Real>(kind: Kind) -> (Core<T>, T) {
    let l = T::lit;
    match kind {
        Kind::Ball => (Core::Point, l(BALL)),
        Kind::Cuboid => {
            let half = Vector3::new(l(HALF[0]), l(HALF[1]), l(HALF[2]));
            (Core::Box(Aabb::from_center_half_extents(Point3::origin(), half).unwrap()), T::zero())
        }
        Kind::Capsule => {
            let h = l(CAPSULE.0);
            (
                Core::Segment(
                    Segment::new(Point3::new(T::zero(), -h, T::zero()), Point3::new(T::zero(), h, T::zero()))
                        .unwrap(),
                ),
                l(CAPSULE.1),
            )
        }
        Kind::Hull => {
            let pts: Vec<Point3<T>> =
                sphere_points(HULL_POINTS, HULL_RADIUS).iter().map(|p| p.map(|x| l(x as f64))).collect();
            (Core::Hull(cd_bv::convex_hull_3d(&pts).expect("hull")), T::zero())
        }
    }
}

fn parry_shape(kind: Kind) -> Box<dyn PShape> {
    match kind {
        Kind::Ball => Box::new(PBall::new(BALL as f32)),
        Kind::Cuboid => {
            Box::new(Cuboid::new(parry3d::math::Vector::new(HALF[0] as f32, HALF[1] as f32, HALF[2] as f32)))
        }
        Kind::Capsule => Box::new(PCapsule::new_y(CAPSULE.0 as f32, CAPSULE.1 as f32)),
        Kind::Hull => {
            let pts: Vec<_> =
                sphere_points(HULL_POINTS, HULL_RADIUS).iter().map(|p| parry_vector(&p.coords)).collect();
            Box::new(PHull::from_convex_hull(&pts).expect("parry hull"))
        }
    }
}

/// The parry and cd motions of one benchmark body.
trait BodyMotion {
    fn motion<T: Real>(&self) -> RigidMotion<T>;
    fn parry_motion(&self) -> NonlinearRigidMotion;
    fn parry_sweep(&self) -> Sweep;
}

impl BodyMotion for Body {
    fn motion<T: Real>(&self) -> RigidMotion<T> {
        let pose: Isometry3<T> = self.pose.cast();
        RigidMotion::new(pose, Point3::origin(), self.linvel.cast(), self.angvel.cast()).unwrap()
    }
    fn parry_motion(&self) -> NonlinearRigidMotion {
        NonlinearRigidMotion::new(
            parry_pose(&self.pose),
            parry3d::math::Vector::ZERO,
            parry_vector(&self.linvel),
            parry_vector(&self.angvel),
        )
    }
    fn parry_sweep(&self) -> Sweep {
        Sweep::from_poses(
            &parry_pose(&self.pose),
            &parry_pose(&self.motion::<f32>().pose_at(1.0)),
            parry3d::math::Vector::ZERO,
        )
    }
}

/// The oracle's time of first contact (f64): the first of 2,000 samples at which the static
/// signed distance is ≤ 0, refined by bisection.
fn oracle(kind_a: Kind, kind_b: Kind, a: &Body, b: &Body) -> Option<f64> {
    let ((ca, ra), (cb, rb)) = (core::<f64>(kind_a), core::<f64>(kind_b));
    let (ma, mb) = (a.motion::<f64>(), b.motion::<f64>());
    let dist = |t: f64| {
        let ta = Transformed::new(&ca, ma.pose_at(t));
        let tb = Transformed::new(&cb, mb.pose_at(t));
        convex_contact(&ta, ra, &tb, rb, &ConvexConfig::default(), &mut GjkCache::default()).distance
    };
    if dist(0.0) <= 0.0 {
        return Some(0.0);
    }
    let n = 2000;
    let mut prev = 0.0;
    for i in 1..=n {
        let t = i as f64 / n as f64;
        if dist(t) <= 0.0 {
            let (mut lo, mut hi) = (prev, t);
            for _ in 0..60 {
                let mid = 0.5 * (lo + hi);
                if dist(mid) <= 0.0 {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            return Some(lo);
        }
        prev = t;
    }
    None
}

/// Accuracy of one method's answers against the oracle, printed as one line.
fn report(group: &str, method: &str, answers: &[Option<f32>], truth: &[Option<f64>]) {
    if truth.is_empty() {
        return;
    }
    let (mut sum, mut max, mut n, mut late, mut missed, mut extra) = (0.0f64, 0.0f64, 0, 0, 0, 0);
    for (x, t) in answers.iter().zip(truth) {
        match (x, t) {
            (Some(x), Some(t)) => {
                let e = *x as f64 - t;
                sum += e.abs();
                max = max.max(e.abs());
                n += 1;
                late += (e > 1e-4) as usize;
            }
            (None, Some(_)) => missed += 1,
            (Some(_), None) => extra += 1,
            (None, None) => {}
        }
    }
    println!(
        "accuracy {group} {method}: {n} hits, mean |Δt| {:.2e}, max {:.2e}, late {late}, missed {missed}, extra {extra}",
        sum / n.max(1) as f64,
        max
    );
}

/// Everything one group needs: cd's shapes (local and world), parry's, and the motions.
struct Scene {
    kinds: (Kind, Kind),
    bodies: Vec<(Body, Body)>,
    cores: CorePair,
    parry: (Box<dyn PShape>, Box<dyn PShape>),
}

impl Scene {
    fn new(kinds: (Kind, Kind), rotating: bool) -> Self {
        Scene {
            kinds,
            bodies: motions(rotating, 7 + kinds.0 as u64 * 13 + rotating as u64),
            cores: (core(kinds.0), core(kinds.1)),
            parry: (parry_shape(kinds.0), parry_shape(kinds.1)),
        }
    }

    /// cd's GJK ray cast on the local cores and their start poses (as parry takes them).
    fn cd_shape_cast(&self) -> Vec<Option<f32>> {
        with_concrete_cores(self, ShapeCast(CastConfig::default()))
    }

    /// cd's closed form for the pair, on world shapes built outside the timed loop.
    fn cd_closed_form_inputs(&self) -> ClosedForm {
        match self.kinds {
            (Kind::Ball, Kind::Ball) => ClosedForm::Spheres(
                self.bodies
                    .iter()
                    .map(|(a, b)| {
                        let ball = |p: &Isometry3<f32>| Ball::new(p * Point3::origin(), BALL as f32).unwrap();
                        (ball(&a.pose), ball(&b.pose), linear(a, b))
                    })
                    .collect(),
            ),
            (Kind::Cuboid, Kind::Cuboid) => ClosedForm::Boxes(
                self.bodies
                    .iter()
                    .map(|(a, b)| {
                        let half = Vector3::new(HALF[0] as f32, HALF[1] as f32, HALF[2] as f32);
                        let obb = |p: &Isometry3<f32>| {
                            Obb::from_rotation(p * Point3::origin(), p.rotation, half).unwrap()
                        };
                        (obb(&a.pose), obb(&b.pose), linear(a, b))
                    })
                    .collect(),
            ),
            _ => ClosedForm::None,
        }
    }

    fn cd_rotating(&self, root_finding: bool) -> Vec<Option<f32>> {
        with_concrete_cores(self, RotatingCast { root_finding, config: CastConfig::default() })
    }

    fn parry_cast(&self) -> Vec<Option<f32>> {
        let opts = ShapeCastOptions::with_max_time_of_impact(1.0);
        self.bodies
            .iter()
            .map(|(a, b)| {
                cast_shapes(
                    &parry_pose(&a.pose),
                    parry_vector(&a.linvel),
                    &*self.parry.0,
                    &parry_pose(&b.pose),
                    parry_vector(&b.linvel),
                    &*self.parry.1,
                    opts,
                )
                .ok()
                .flatten()
                .map(|h| h.time_of_impact)
            })
            .collect()
    }

    fn parry_nonlinear(&self) -> Vec<Option<f32>> {
        self.bodies
            .iter()
            .map(|(a, b)| {
                cast_shapes_nonlinear(
                    &a.parry_motion(),
                    &*self.parry.0,
                    &b.parry_motion(),
                    &*self.parry.1,
                    0.0,
                    1.0,
                    true,
                )
                .ok()
                .flatten()
                .map(|h| h.time_of_impact)
            })
            .collect()
    }

    fn parry_sweep(&self) -> Vec<Option<f32>> {
        let (pa, pb) =
            (ToiProxy::from_shape(&*self.parry.0).unwrap(), ToiProxy::from_shape(&*self.parry.1).unwrap());
        self.bodies
            .iter()
            .map(|(a, b)| {
                let out = sweep_time_of_impact(&pa, &a.parry_sweep(), &pb, &b.parry_sweep(), 1.0, SLOP);
                match out.status {
                    SweepToiStatus::Separated => None,
                    _ => Some(out.fraction),
                }
            })
            .collect()
    }
}

/// World-space inputs of the closed-form tests.
enum ClosedForm {
    Spheres(Vec<(Ball<f32, 3>, Ball<f32, 3>, LinearMotion<f32, 3>)>),
    Boxes(Vec<(Obb<f32, 3>, Obb<f32, 3>, LinearMotion<f32, 3>)>),
    None,
}

impl ClosedForm {
    fn run(&self) -> Option<Vec<Option<f32>>> {
        match self {
            ClosedForm::Spheres(v) => {
                Some(v.iter().map(|(a, b, m)| sphere_sphere(a, b, m).map(|h| h.time)).collect())
            }
            ClosedForm::Boxes(v) => {
                Some(v.iter().map(|(a, b, m)| obb_obb(a, b, m).map(|h| h.time)).collect())
            }
            ClosedForm::None => None,
        }
    }
}

/// The relative linear motion of a pair over the unit step.
fn linear(a: &Body, b: &Body) -> LinearMotion<f32, 3> {
    LinearMotion::new(a.linvel, b.linvel, 1.0).unwrap()
}

/// One cd method's time of impact for a pair of bodies, with the two cores as concrete types.
trait PairQuery {
    /// The time for bodies `a` and `b`, whose cores and radii are `core_a` and `core_b`.
    fn time<A: SupportMap<f32, 3>, B: SupportMap<f32, 3>>(
        &self,
        core_a: (&A, f32),
        core_b: (&B, f32),
        a: &Body,
        b: &Body,
    ) -> Option<f32>;
}

/// Runs `query` on every pair of `scene` with the cores as the shapes themselves (a `Point`,
/// an `Aabb`, a `Segment` or a `ConvexPolyhedron`), which is how a user calls cd's generic
/// casts: through the `Core` enum every support call would branch on the variant, with the
/// support code out of line. (parry's `&dyn Shape` likewise picks the concrete pair once per
/// query.)
fn with_concrete_cores<Q: PairQuery>(scene: &Scene, query: Q) -> Vec<Option<f32>> {
    fn all_pairs<Q: PairQuery, A: SupportMap<f32, 3>, B: SupportMap<f32, 3>>(
        scene: &Scene,
        query: &Q,
        a: (&A, f32),
        b: (&B, f32),
    ) -> Vec<Option<f32>> {
        scene.bodies.iter().map(|(ba, bb)| query.time(a, b, ba, bb)).collect()
    }
    let ((ca, ra), (cb, rb)) = (&scene.cores.0, &scene.cores.1);
    let origin = Point3::origin();
    let q = &query;
    match (ca, cb) {
        (Core::Point, Core::Point) => all_pairs(scene, q, (&origin, *ra), (&origin, *rb)),
        (Core::Box(a), Core::Box(b)) => all_pairs(scene, q, (a, *ra), (b, *rb)),
        (Core::Segment(a), Core::Segment(b)) => all_pairs(scene, q, (a, *ra), (b, *rb)),
        (Core::Hull(a), Core::Hull(b)) => all_pairs(scene, q, (a, *ra), (b, *rb)),
        (a, b) => all_pairs(scene, q, (a, *ra), (b, *rb)),
    }
}

/// cd's GJK ray cast with its configuration.
struct ShapeCast(CastConfig<f32>);

impl PairQuery for ShapeCast {
    fn time<A: SupportMap<f32, 3>, B: SupportMap<f32, 3>>(
        &self,
        (ca, ra): (&A, f32),
        (cb, rb): (&B, f32),
        a: &Body,
        b: &Body,
    ) -> Option<f32> {
        shape_cast_posed(ca, &a.pose, ra, cb, &b.pose, rb, &linear(a, b), &self.0).map(|h| h.time)
    }
}

/// cd's rotating methods: the separating-axis root finding or the conservative advancement.
struct RotatingCast {
    root_finding: bool,
    config: CastConfig<f32>,
}

impl PairQuery for RotatingCast {
    fn time<A: SupportMap<f32, 3>, B: SupportMap<f32, 3>>(
        &self,
        (ca, ra): (&A, f32),
        (cb, rb): (&B, f32),
        a: &Body,
        b: &Body,
    ) -> Option<f32> {
        let (sa, sb) = (MovingShape::new(ca, ra, a.motion()), MovingShape::new(cb, rb, b.motion()));
        let hit = if self.root_finding {
            separating_axis_toi(&sa, &sb, 1.0, &self.config)
        } else {
            conservative_advancement(&sa, &sb, 1.0, &self.config)
        };
        hit.map(|h| h.time)
    }
}

fn checksum(v: &[Option<f32>]) -> f32 {
    v.iter().flatten().sum()
}

fn ccd(c: &mut Criterion) {
    let pairs = [
        (Kind::Ball, Kind::Ball),
        (Kind::Cuboid, Kind::Cuboid),
        (Kind::Capsule, Kind::Capsule),
        (Kind::Hull, Kind::Hull),
    ];
    for rotating in [false, true] {
        for kinds in pairs {
            let scene = Scene::new(kinds, rotating);
            let group = format!("ccd_{}_{}", kinds.0.name(), if rotating { "rotating" } else { "linear" });
            // The accuracy report needs the sampling oracle (2,000 distance queries per pair):
            // a quick run skips it (`report` prints nothing without a truth).
            let truth: Vec<Option<f64>> = if cd_benches::quick() {
                Vec::new()
            } else {
                scene.bodies.iter().map(|(a, b)| oracle(kinds.0, kinds.1, a, b)).collect()
            };
            let mut g = c.benchmark_group(&group);
            if rotating {
                report(&group, "cd_advancement", &scene.cd_rotating(false), &truth);
                report(&group, "cd_separating_axis", &scene.cd_rotating(true), &truth);
                report(&group, "parry_nonlinear", &scene.parry_nonlinear(), &truth);
                g.bench_function("cd_advancement", |b| {
                    b.iter(|| black_box(checksum(&scene.cd_rotating(false))))
                });
                g.bench_function("cd_separating_axis", |b| {
                    b.iter(|| black_box(checksum(&scene.cd_rotating(true))))
                });
                g.bench_function("parry_nonlinear", |b| {
                    b.iter(|| black_box(checksum(&scene.parry_nonlinear())))
                });
            } else {
                let closed = scene.cd_closed_form_inputs();
                if let Some(answers) = closed.run() {
                    report(&group, "cd_closed_form", &answers, &truth);
                    g.bench_function("cd_closed_form", |b| {
                        b.iter(|| black_box(checksum(&closed.run().unwrap())))
                    });
                }
                report(&group, "cd_shape_cast", &scene.cd_shape_cast(), &truth);
                report(&group, "parry_cast_shapes", &scene.parry_cast(), &truth);
                g.bench_function("cd_shape_cast", |b| b.iter(|| black_box(checksum(&scene.cd_shape_cast()))));
                g.bench_function("parry_cast_shapes", |b| {
                    b.iter(|| black_box(checksum(&scene.parry_cast())))
                });
            }
            report(&group, "parry_sweep_toi", &scene.parry_sweep(), &truth);
            g.bench_function("parry_sweep_toi", |b| b.iter(|| black_box(checksum(&scene.parry_sweep()))));
            g.finish();
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(2));
    targets = ccd
}
criterion_main!(benches);
