//! cd-narrow against parry3d's `intersection_test`, `distance` and `contact` on identical
//! shapes and poses (f32). Each iteration runs a batch of `BATCH` pairs; groups are
//! `narrow_<query>_<pair>_<sep|pen>`: separated poses (gap 0.05–0.5) and penetrating ones are
//! measured apart because the algorithms differ (GJK alone vs GJK + EPA/SAT).
//!
//! parry takes local shapes and poses; cd takes world-space shapes (balls, boxes and capsules
//! placed once outside the timed region, the way a world updates its bodies once per step)
//! and hulls as local hulls with a pose (`Shape::Hull`: the pose is applied inside each
//! support call, as parry does; all pairs share one hull, as parry's share one shape). `cd_warm` keeps each pair's GJK/SAT cache from the previous iteration.

use cd_benches::{parry_pose, sphere_points, Rng, BATCH};
use cd_geom::{Ball, Capsule, ConvexPolyhedron, Obb, Triangle};
use cd_narrow::{contact, distance, intersects, PairCache, Shape};
use criterion::{criterion_group, criterion_main, Criterion};
use nalgebra::{Isometry3, Point3, Translation3, Vector3};
use parry3d::math::{Pose, Vector};
use parry3d::query;
use parry3d::shape::{
    Ball as PBall, Capsule as PCapsule, ConvexPolyhedron as PHull, Cuboid, Shape as PShape,
    Triangle as PTriangle,
};
use std::hint::black_box;

const HALF: [f32; 3] = [0.5, 0.3, 0.4];
const CAPSULE: (f32, f32) = (0.5, 0.25);
const HULL_RADIUS: f32 = 0.6;

/// One kind of shape, built both ways.
#[derive(Clone, Copy)]
enum Kind {
    Ball,
    Cuboid,
    Capsule,
    Triangle,
    Hull(usize),
}

/// The benchmark triangle in its local frame.
const TRIANGLE: [[f32; 3]; 3] = [[0.8, 0.0, 0.0], [-0.4, 0.7, 0.0], [-0.4, -0.7, 0.0]];

impl Kind {
    fn bounding_radius(self) -> f32 {
        match self {
            Kind::Ball => 0.5,
            Kind::Cuboid => Vector3::from(HALF).norm(),
            Kind::Capsule => CAPSULE.0 + CAPSULE.1,
            Kind::Triangle => 0.81,
            Kind::Hull(_) => HULL_RADIUS,
        }
    }
}

/// A shape placed for cd (hulls share one local hull, as parry's pairs share one shape).
enum CdShape<'h> {
    Ball(Ball<f32, 3>),
    Box(Obb<f32, 3>),
    Capsule(Capsule<f32, 3>),
    Triangle(Triangle<f32, 3>),
    Hull(&'h ConvexPolyhedron<f32>, Isometry3<f32>),
}

impl<'h> CdShape<'h> {
    fn new(kind: Kind, pose: &Isometry3<f32>, hulls: &'h Hulls) -> Self {
        match kind {
            Kind::Ball => CdShape::Ball(Ball::new(pose * Point3::origin(), 0.5).unwrap()),
            Kind::Cuboid => CdShape::Box(
                Obb::from_rotation(pose * Point3::origin(), pose.rotation, Vector3::from(HALF)).unwrap(),
            ),
            Kind::Capsule => {
                let h = Vector3::new(0.0, CAPSULE.0, 0.0);
                CdShape::Capsule(
                    Capsule::new(pose * Point3::from(-h), pose * Point3::from(h), CAPSULE.1).unwrap(),
                )
            }
            Kind::Triangle => {
                let [a, b, c] = TRIANGLE.map(|v| pose * Point3::from(v));
                CdShape::Triangle(Triangle::new(a, b, c).unwrap())
            }
            Kind::Hull(n) => CdShape::Hull(hulls.cd(n), *pose),
        }
    }

    fn shape(&self) -> Shape<'_, f32> {
        match self {
            CdShape::Ball(b) => Shape::Ball(b),
            CdShape::Box(b) => Shape::Box(b),
            CdShape::Capsule(c) => Shape::Capsule(c),
            CdShape::Triangle(t) => Shape::Triangle(t),
            CdShape::Hull(h, pose) => Shape::Hull(h, pose),
        }
    }
}

/// The benchmark hulls, built once.
struct Hulls(Vec<(usize, ConvexPolyhedron<f32>, PHull)>);

impl Hulls {
    fn new() -> Self {
        Hulls(
            [8, 32, 256]
                .into_iter()
                .map(|n| {
                    let pts = sphere_points(n, HULL_RADIUS);
                    let cd = cd_bv::convex_hull_3d(&pts).expect("hull");
                    let pv: Vec<Vector> = pts.iter().map(|p| Vector::new(p.x, p.y, p.z)).collect();
                    (n, cd, PHull::from_convex_hull(&pv).expect("parry hull"))
                })
                .collect(),
        )
    }
    fn cd(&self, n: usize) -> &ConvexPolyhedron<f32> {
        &self.0.iter().find(|h| h.0 == n).expect("hull size").1
    }
    fn parry(&self, n: usize) -> PHull {
        self.0.iter().find(|h| h.0 == n).expect("hull size").2.clone()
    }
}

fn parry_shape(kind: Kind, hulls: &Hulls) -> Box<dyn PShape> {
    match kind {
        Kind::Ball => Box::new(PBall::new(0.5)),
        Kind::Cuboid => Box::new(Cuboid::new(Vector::new(HALF[0], HALF[1], HALF[2]))),
        Kind::Capsule => Box::new(PCapsule::new_y(CAPSULE.0, CAPSULE.1)),
        Kind::Triangle => {
            let [a, b, c] = TRIANGLE.map(|v| Vector::new(v[0], v[1], v[2]));
            Box::new(PTriangle::new(a, b, c))
        }
        Kind::Hull(n) => Box::new(hulls.parry(n)),
    }
}

/// A batch of pairs: cd shapes and parry (pose, shape) pairs on identical poses.
struct Batch<'h> {
    cd: Vec<(CdShape<'h>, CdShape<'h>)>,
    parry: Vec<(Pose, Pose)>,
    parry_a: Box<dyn PShape>,
    parry_b: Box<dyn PShape>,
}

fn batch(ka: Kind, kb: Kind, penetrating: bool, hulls: &Hulls, seed: u64) -> Batch<'_> {
    let gaps = if penetrating {
        (0.0, 0.3)
    } else {
        let reach = ka.bounding_radius() + kb.bounding_radius();
        (reach + 0.05, reach + 0.5)
    };
    batch_with_gaps(ka, kb, gaps, hulls, seed)
}

/// A batch whose centres are `gaps.0..gaps.1` apart, in random directions.
fn batch_with_gaps(ka: Kind, kb: Kind, gaps: (f32, f32), hulls: &Hulls, seed: u64) -> Batch<'_> {
    let mut rng = Rng::new(seed);
    let mut cd = Vec::with_capacity(BATCH);
    let mut parry = Vec::with_capacity(BATCH);
    for _ in 0..BATCH {
        let dir = loop {
            let v = rng.vector(1.0);
            if v.norm() > 0.1 && v.norm() <= 1.0 {
                break v.normalize();
            }
        };
        let gap = rng.range(gaps.0, gaps.1);
        let pa = Isometry3::from_parts(Translation3::identity(), rng.rotation());
        let pb = Isometry3::from_parts(Translation3::from(dir * gap), rng.rotation());
        cd.push((CdShape::new(ka, &pa, hulls), CdShape::new(kb, &pb, hulls)));
        parry.push((parry_pose(&pa), parry_pose(&pb)));
    }
    Batch { cd, parry, parry_a: parry_shape(ka, hulls), parry_b: parry_shape(kb, hulls) }
}

#[derive(Clone, Copy)]
enum Query {
    Intersection,
    Distance,
    Contact,
}

fn run_cd(b: &Batch, q: Query, caches: &mut [PairCache<f32>], warm: bool) -> f32 {
    let mut acc = 0.0;
    for ((x, y), cache) in b.cd.iter().zip(caches.iter_mut()) {
        if !warm {
            *cache = PairCache::default();
        }
        let (x, y) = (x.shape(), y.shape());
        acc += match q {
            Query::Intersection => f32::from(u8::from(intersects(x, y, cache).unwrap())),
            Query::Distance => distance(x, y, cache).unwrap().distance.max(0.0),
            Query::Contact => contact(x, y, 0.0, cache).unwrap().map_or(0.0, |c| c.distance),
        };
    }
    acc
}

fn run_parry(b: &Batch, q: Query) -> f32 {
    let (sa, sb) = (&*b.parry_a, &*b.parry_b);
    let mut acc = 0.0;
    for (pa, pb) in &b.parry {
        acc += match q {
            Query::Intersection => {
                f32::from(u8::from(query::intersection_test(pa, sa, pb, sb).unwrap().intersecting))
            }
            Query::Distance => query::distance(pa, sa, pb, sb).unwrap().distance,
            Query::Contact => query::contact(pa, sa, pb, sb, 0.0).unwrap().map_or(0.0, |c| c.dist),
        };
    }
    acc
}

/// Same inputs, same answers? Per pair, cd and parry should agree to 1e-3 (the shapes have
/// size 1). Disagreements are counted and printed rather than failed, because some are
/// parry's: no contact where its EPA gave up, and capsule/capsule distances off by ~1e-3
/// (checked by brute force; cd's own answers are checked against oracles in its tests).
fn cross_check(b: &Batch, q: Query, label: &str) {
    let (mut parry_missing, mut differ, mut worst, mut first) = (0, 0, 0.0f32, None);
    for (i, ((x, y), (pa, pb))) in b.cd.iter().zip(&b.parry).enumerate() {
        let (x, y) = (x.shape(), y.shape());
        let (sa, sb) = (&*b.parry_a, &*b.parry_b);
        let cache = &mut PairCache::default();
        let (ours, theirs) = match q {
            Query::Intersection => (
                f32::from(u8::from(intersects(x, y, cache).unwrap())),
                f32::from(u8::from(query::intersection_test(pa, sa, pb, sb).unwrap().intersecting)),
            ),
            Query::Distance => (
                distance(x, y, cache).unwrap().distance.max(0.0),
                query::distance(pa, sa, pb, sb).unwrap().distance,
            ),
            Query::Contact => {
                let ours = contact(x, y, 0.0, cache).unwrap().map(|c| c.distance);
                let theirs = query::contact(pa, sa, pb, sb, 0.0).unwrap().map(|c| c.dist);
                if ours.is_some() && theirs.is_none() {
                    parry_missing += 1;
                    continue;
                }
                (ours.unwrap_or(0.0), theirs.unwrap_or(0.0))
            }
        };
        if (ours - theirs).abs() > 1e-3 {
            differ += 1;
            worst = worst.max((ours - theirs).abs());
            first.get_or_insert(i);
            if std::env::var("SHOW_DIFF").is_ok() && differ <= 2 {
                let d = distance(x, y, &mut PairCache::default()).map(|c| c.distance);
                eprintln!(
                    "{label} pair {i}: cd {ours} parry {theirs} (cd distance {d:?}) poses {pa:?} {pb:?}"
                );
            }
        }
    }
    if parry_missing > 0 {
        eprintln!("{label}: parry found no contact on {parry_missing} of {BATCH} penetrating pairs");
    }
    if differ > 0 {
        eprintln!("{label}: cd and parry differ by more than 1e-3 on {differ} of {BATCH} pairs (worst {worst:.2e}, first pair {first:?})");
    }
}

fn bench(c: &mut Criterion) {
    let hulls = Hulls::new();
    let pairs: [(&str, Kind, Kind); 9] = [
        ("ball_ball", Kind::Ball, Kind::Ball),
        ("cuboid_cuboid", Kind::Cuboid, Kind::Cuboid),
        ("capsule_capsule", Kind::Capsule, Kind::Capsule),
        ("cuboid_capsule", Kind::Cuboid, Kind::Capsule),
        ("hull8", Kind::Hull(8), Kind::Hull(8)),
        ("hull32", Kind::Hull(32), Kind::Hull(32)),
        ("hull256", Kind::Hull(256), Kind::Hull(256)),
        ("cuboid_triangle", Kind::Cuboid, Kind::Triangle),
        ("capsule_triangle", Kind::Capsule, Kind::Triangle),
    ];
    let queries =
        [("intersection", Query::Intersection), ("distance", Query::Distance), ("contact", Query::Contact)];
    for (pi, (name, ka, kb)) in pairs.into_iter().enumerate() {
        for penetrating in [false, true] {
            let b = batch(ka, kb, penetrating, &hulls, 17 + pi as u64 * 2 + u64::from(penetrating));
            for (qname, q) in queries {
                // Distance of penetrating shapes is 0 for both libraries: not a separate row.
                if penetrating && matches!(q, Query::Distance) {
                    continue;
                }
                let tag = if penetrating { "pen" } else { "sep" };
                cross_check(&b, q, &format!("{qname} {name} {tag}"));
                let mut g = c.benchmark_group(format!("narrow_{qname}_{name}_{tag}"));
                let mut caches = vec![PairCache::default(); BATCH];
                g.bench_function("cd", |bench| bench.iter(|| black_box(run_cd(&b, q, &mut caches, false))));
                if matches!(ka, Kind::Hull(_)) || matches!(q, Query::Contact) {
                    let mut warm = vec![PairCache::default(); BATCH];
                    run_cd(&b, q, &mut warm, true);
                    g.bench_function("cd_warm", |bench| {
                        bench.iter(|| black_box(run_cd(&b, q, &mut warm, true)))
                    });
                }
                g.bench_function("parry", |bench| bench.iter(|| black_box(run_parry(&b, q))));
                g.finish();
            }
        }
    }
}

/// Boolean queries on grazing hull pairs: centres farther apart than the two inner radii (so
/// cd's inner-ball accept never decides) and closer than the two bounding radii, about half of
/// them overlapping. GJK has to build its simplex on every pair, which the `pen` rows (centres
/// within 0.3, all inside the inner balls) no longer measure.
fn bench_graze(c: &mut Criterion) {
    let hulls = Hulls::new();
    for n in [8, 32, 256] {
        let inner = hulls.cd(n).inner_radius();
        let b = batch_with_gaps(
            Kind::Hull(n),
            Kind::Hull(n),
            (2.0 * inner, 2.0 * HULL_RADIUS),
            &hulls,
            2000 + n as u64,
        );
        let overlapping = run_cd(&b, Query::Intersection, &mut vec![PairCache::default(); BATCH], false);
        eprintln!("hull{n} graze: {overlapping} of {BATCH} pairs overlap");
        cross_check(&b, Query::Intersection, &format!("intersection hull{n} graze"));
        let mut g = c.benchmark_group(format!("narrow_intersection_hull{n}_graze"));
        let mut caches = vec![PairCache::default(); BATCH];
        g.bench_function("cd", |bench| {
            bench.iter(|| black_box(run_cd(&b, Query::Intersection, &mut caches, false)))
        });
        let mut warm = vec![PairCache::default(); BATCH];
        run_cd(&b, Query::Intersection, &mut warm, true);
        g.bench_function("cd_warm", |bench| {
            bench.iter(|| black_box(run_cd(&b, Query::Intersection, &mut warm, true)))
        });
        g.bench_function("parry", |bench| bench.iter(|| black_box(run_parry(&b, Query::Intersection))));
        g.finish();
    }
}

/// MPR against GJK + EPA (and parry's contact) on the penetrating hull pairs: speed here, the
/// accuracy (MPR's depth is measured along the centre line, an upper bound on the true one) is
/// printed once and in `crates/cd-narrow/tests/mpr.rs`.
fn bench_mpr(c: &mut Criterion) {
    use cd_geom::{SupportMap, Transformed};
    use cd_narrow::{mpr_contact, MprConfig};
    let hulls = Hulls::new();
    for n in [8, 32] {
        let b = batch(Kind::Hull(n), Kind::Hull(n), true, &hulls, 1000 + n as u64);
        let placed: Vec<_> =
            b.cd.iter()
                .map(|(x, y)| match (x, y) {
                    (CdShape::Hull(h, p), CdShape::Hull(g, q)) => {
                        (Transformed::new(*h, *p), Transformed::new(*g, *q))
                    }
                    _ => unreachable!("hull batch"),
                })
                .collect();
        let run_mpr = || {
            placed.iter().fold(0.0, |acc, (x, y)| {
                let c = mpr_contact(x, &x.interior_point(), y, &y.interior_point(), &MprConfig::default());
                acc + c.map_or(0.0, |c| c.distance)
            })
        };
        let exact = run_cd(&b, Query::Contact, &mut vec![PairCache::default(); BATCH], false);
        eprintln!(
            "hull{n} pen: mean depth MPR {:.4}, GJK+EPA {:.4}",
            -run_mpr() / BATCH as f32,
            -exact / BATCH as f32
        );
        let mut g = c.benchmark_group(format!("narrow_mpr_hull{n}_pen"));
        g.bench_function("cd_mpr", |bench| bench.iter(|| black_box(run_mpr())));
        let mut caches = vec![PairCache::default(); BATCH];
        g.bench_function("cd_gjk_epa", |bench| {
            bench.iter(|| black_box(run_cd(&b, Query::Contact, &mut caches, false)))
        });
        g.bench_function("parry", |bench| bench.iter(|| black_box(run_parry(&b, Query::Contact))));
        g.finish();
    }
}

criterion_group! {
    name = narrow;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_secs(1));
    targets = bench, bench_graze, bench_mpr
}
criterion_main!(narrow);
