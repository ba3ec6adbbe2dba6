//! The conformance suite every broad phase must pass, run through `Box<dyn BroadPhase>` for each
//! strategy in f32 and f64, 2D and 3D: after every frame the pair set equals an independent
//! brute force exactly, the events equal the set differences between frames, and the AABB and
//! ray queries equal linear scans.

use cd_broad::*;
use cd_geom::{Aabb, Point, Ray, Real, Vector};
use std::collections::{BTreeMap, BTreeSet};

mod rng;
use rng::Rng;

fn strategies<T: Real, const D: usize>() -> Vec<(&'static str, Box<dyn BroadPhase<T, D>>)> {
    vec![
        ("brute-force", Box::new(BruteForce::<T, D>::new())),
        ("sort-and-sweep", Box::new(SortAndSweep::<T, D>::new())),
        ("spatial-hash", Box::new(SpatialHash::<T, D>::new())),
        ("uniform-grid", Box::new(UniformGrid::<T, D>::new())),
        ("hierarchical-grid", Box::new(HierarchicalGrid::<T, D>::new())),
        ("loose-octree", Box::new(LooseOctree::<T, D>::new())),
        ("dynamic-tree", Box::new(DynamicAabbTree::<T, D>::new())),
        ("coherent-grid", Box::new(CoherentGrid::<T, D>::new())),
        ("coherent-grid-no-margin", Box::new(CoherentGrid::<T, D>::with_margin(T::zero()))),
        ("dynamic-tree-no-margin", Box::new(DynamicAabbTree::<T, D>::with_margin(T::zero()))),
        ("incremental-sap", Box::new(IncrementalSap::<T, D>::new())),
        ("incremental-sap-2-axes", Box::new(IncrementalSap::<T, D>::with_axes(2))),
        ("incremental-sap-1-axis", Box::new(IncrementalSap::<T, D>::with_axes(1))),
        ("incremental-sap-no-margin", Box::new(IncrementalSap::<T, D>::new().margin(T::zero()))),
        ("incremental-sap-wide-margin", Box::new(IncrementalSap::<T, D>::with_axes(2).margin(T::lit(2.0)))),
    ]
}

enum Op<T: Real, const D: usize> {
    Insert(ProxyId, Aabb<T, D>),
    Update(ProxyId, Aabb<T, D>),
    Remove(ProxyId),
}

fn boxed<T: Real, const D: usize>(c: [f64; D], h: [f64; D]) -> Aabb<T, D> {
    let lo = Point::from(Vector::<T, D>::from_fn(|i, _| T::lit(c[i] - h[i])));
    let hi = Point::from(Vector::<T, D>::from_fn(|i, _| T::lit(c[i] + h[i])));
    Aabb::new(lo, hi).unwrap()
}

/// Independent overlap oracle: per-axis interval comparison, closed intervals.
fn oracle<T: Real, const D: usize>(world: &BTreeMap<ProxyId, Aabb<T, D>>) -> BTreeSet<(ProxyId, ProxyId)> {
    let v: Vec<(&ProxyId, &Aabb<T, D>)> = world.iter().collect();
    let mut out = BTreeSet::new();
    for i in 0..v.len() {
        for j in i + 1..v.len() {
            let (a, b) = (v[i].1, v[j].1);
            if (0..D).all(|k| !(a.max()[k] < b.min()[k] || b.max()[k] < a.min()[k])) {
                out.insert((*v[i].0.min(v[j].0), *v[i].0.max(v[j].0)));
            }
        }
    }
    out
}

/// Runs the frames through every strategy and checks everything after each frame.
fn run<T: Real, const D: usize>(name: &str, frames: Vec<Vec<Op<T, D>>>, rng: &mut Rng) {
    let mut bps = strategies::<T, D>();
    let mut world: BTreeMap<ProxyId, Aabb<T, D>> = BTreeMap::new();
    let mut prev: BTreeSet<(ProxyId, ProxyId)> = BTreeSet::new();
    for (f, ops) in frames.into_iter().enumerate() {
        for op in &ops {
            match op {
                Op::Insert(id, b) => {
                    world.insert(*id, *b);
                }
                Op::Update(id, b) => {
                    world.insert(*id, *b);
                }
                Op::Remove(id) => {
                    world.remove(id);
                }
            }
        }
        let expect = oracle(&world);
        let added: Vec<_> = expect.difference(&prev).copied().collect();
        let removed: Vec<_> = prev.difference(&expect).copied().collect();
        for (sname, bp) in bps.iter_mut() {
            // On odd frames runs of updates go through `update_all` (in order: a run is sent
            // before the next insert or removal).
            let mut run: Vec<(ProxyId, Aabb<T, D>)> = Vec::new();
            for op in &ops {
                if let (Op::Update(id, b), true) = (op, f % 2 == 1) {
                    run.push((*id, *b));
                    continue;
                }
                bp.update_all(&run).unwrap();
                run.clear();
                match op {
                    Op::Insert(id, b) => bp.insert(*id, *b).unwrap(),
                    Op::Update(id, b) => bp.update(*id, *b).unwrap(),
                    Op::Remove(id) => bp.remove(*id).unwrap(),
                }
            }
            bp.update_all(&run).unwrap();
            bp.find_pairs();
            let got: Vec<_> = bp.pairs().to_vec();
            assert!(got.windows(2).all(|w| w[0] < w[1]), "{name}/{sname} frame {f}: pairs not sorted/unique");
            assert!(got.iter().all(|(a, b)| a < b), "{name}/{sname}: pair not canonical");
            let got_set: BTreeSet<_> = got.iter().copied().collect();
            if got_set != expect {
                let missed: Vec<_> = expect.difference(&got_set).take(5).collect();
                let extra: Vec<_> = got_set.difference(&expect).take(5).collect();
                panic!("{name}/{sname} frame {f}: missed {missed:?} extra {extra:?}");
            }
            assert_eq!(bp.added(), &added[..], "{name}/{sname} frame {f}: added events");
            assert_eq!(bp.removed(), &removed[..], "{name}/{sname} frame {f}: removed events");
            assert_eq!(bp.len(), world.len());
        }
        // Queries against linear scans.
        if !world.is_empty() {
            let (lo, hi) = world.values().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), b| {
                (l.min(b.min()[0].to_f64()), h.max(b.max()[0].to_f64()))
            });
            let c: [f64; D] = core::array::from_fn(|_| rng.range(lo, hi));
            let q = boxed::<T, D>(c, [rng.range(0.0, (hi - lo) * 0.2); D]);
            let mut expect_q: Vec<ProxyId> = world
                .iter()
                .filter(|(_, b)| (0..D).all(|k| !(b.max()[k] < q.min()[k] || q.max()[k] < b.min()[k])))
                .map(|(id, _)| *id)
                .collect();
            expect_q.sort_unstable();
            let dir = Vector::<T, D>::from_fn(|i, _| T::lit(if i == 0 { 1.0 } else { rng.range(-0.3, 0.3) }));
            let origin =
                Point::from(Vector::<T, D>::from_fn(|i, _| T::lit(if i == 0 { lo - 1.0 } else { c[i] })));
            let ray = Ray::new(origin, dir).unwrap();
            let mut expect_r: Vec<ProxyId> = world
                .iter()
                .filter(|(_, b)| cd_geom::ray_aabb(&ray, b).is_some())
                .map(|(id, _)| *id)
                .collect();
            expect_r.sort_unstable();
            for (sname, bp) in bps.iter() {
                let mut got = Vec::new();
                bp.query_aabb(&q, &mut got);
                got.sort_unstable();
                assert_eq!(got, expect_q, "{name}/{sname}: AABB query");
                let mut hits = Vec::new();
                bp.query_ray(&ray, &mut hits);
                let mut ids: Vec<ProxyId> = hits.iter().map(|h| h.0).collect();
                ids.sort_unstable();
                assert_eq!(ids, expect_r, "{name}/{sname}: ray query");
            }
        }
        prev = expect;
    }
}

/// n boxes moving coherently for `frames` frames; `teleport` of them jump each frame.
fn moving<T: Real, const D: usize>(
    rng: &mut Rng,
    n: u32,
    frames: usize,
    world: f64,
    size: f64,
    teleport: f64,
) -> Vec<Vec<Op<T, D>>> {
    let mut pos: Vec<[f64; D]> = (0..n).map(|_| core::array::from_fn(|_| rng.range(0.0, world))).collect();
    let half: Vec<[f64; D]> = (0..n).map(|_| core::array::from_fn(|_| rng.range(0.0, size))).collect();
    let vel: Vec<[f64; D]> = (0..n).map(|_| core::array::from_fn(|_| rng.range(-size, size) * 0.2)).collect();
    let mut out = vec![(0..n).map(|i| Op::Insert(i, boxed(pos[i as usize], half[i as usize]))).collect()];
    for _ in 0..frames {
        let mut ops = Vec::new();
        for i in 0..n as usize {
            if rng.next() < teleport {
                pos[i] = core::array::from_fn(|_| rng.range(0.0, world));
            } else {
                for k in 0..D {
                    pos[i][k] += vel[i][k];
                }
            }
            ops.push(Op::Update(i as u32, boxed(pos[i], half[i])));
        }
        out.push(ops);
    }
    out
}

fn scenarios<T: Real, const D: usize>(seed: u64) {
    let mut rng = Rng(seed);
    // Uniform random boxes, coherent motion with 3 % teleports.
    let f = moving::<T, D>(&mut rng, 300, 30, 100.0, 4.0, 0.03);
    run("uniform", f, &mut rng);
    // Long coherent run.
    let f = moving::<T, D>(&mut rng, 60, 1000, 40.0, 2.0, 0.0);
    run("coherent-1000-frames", f, &mut rng);
    // Clustered: many boxes piled on a thin floor (all overlap on the vertical axis).
    let mut ops: Vec<Op<T, D>> = Vec::new();
    for i in 0..400u32 {
        let mut c: [f64; D] = core::array::from_fn(|_| rng.range(0.0, 60.0));
        c[1 % D] = rng.range(0.0, 0.5);
        ops.push(Op::Insert(i, boxed(c, [1.0; D])));
    }
    run("clustered-floor", vec![ops], &mut rng);
    // Growing from zero size to huge.
    let n = 50u32;
    let centers: Vec<[f64; D]> = (0..n).map(|_| core::array::from_fn(|_| rng.range(0.0, 100.0))).collect();
    let mut frames: Vec<Vec<Op<T, D>>> =
        vec![(0..n).map(|i| Op::Insert(i, boxed(centers[i as usize], [0.0; D]))).collect()];
    for s in 1..12 {
        let h = 0.01 * 4f64.powi(s);
        frames.push((0..n).map(|i| Op::Update(i, boxed(centers[i as usize], [h; D]))).collect());
    }
    run("growing", frames, &mut rng);
    // Churn: every frame removes some proxies and inserts new ids.
    let mut live: Vec<u32> = Vec::new();
    let mut next_id = 0u32;
    let mut frames = Vec::new();
    for _ in 0..40 {
        let mut ops: Vec<Op<T, D>> = Vec::new();
        live.retain(|&id| {
            if rng.next() < 0.2 {
                ops.push(Op::Remove(id));
                false
            } else {
                true
            }
        });
        for _ in 0..10 {
            let c: [f64; D] = core::array::from_fn(|_| rng.range(0.0, 30.0));
            ops.push(Op::Insert(next_id, boxed(c, [rng.range(0.0, 3.0); D])));
            live.push(next_id);
            next_id += 1;
        }
        frames.push(ops);
    }
    run("churn", frames, &mut rng);
    // Identical boxes, and a grid of boxes sharing faces exactly (touching counts).
    let same: Vec<Op<T, D>> = (0..30).map(|i| Op::Insert(i, boxed([5.0; D], [1.0; D]))).collect();
    run("identical", vec![same], &mut rng);
    let mut grid: Vec<Op<T, D>> = Vec::new();
    for i in 0..64u32 {
        let c: [f64; D] = core::array::from_fn(|k| ((i >> (2 * k)) & 3) as f64 * 2.0 + 1.0);
        grid.push(Op::Insert(i, boxed(c, [1.0; D])));
    }
    run("touching-grid", vec![grid], &mut rng);
    // Far apart and huge coordinates (an unbounded world).
    let far: Vec<Op<T, D>> = (0..40)
        .map(|i| {
            let c: [f64; D] = core::array::from_fn(|_| rng.range(-1e6, 1e6));
            Op::Insert(i, boxed(c, [rng.range(0.0, 5e5); D]))
        })
        .collect();
    run("huge-world", vec![far], &mut rng);
}

#[test]
fn f64_3d() {
    scenarios::<f64, 3>(1);
}

#[test]
fn f32_3d() {
    scenarios::<f32, 3>(2);
}

#[test]
fn f64_2d() {
    scenarios::<f64, 2>(3);
}

#[test]
fn f32_2d() {
    scenarios::<f32, 2>(4);
}

/// Bad calls are refused with a typed error and change nothing.
#[test]
fn errors_leave_the_structure_unchanged() {
    for (name, mut bp) in strategies::<f64, 3>() {
        let a = boxed::<f64, 3>([0.0; 3], [1.0; 3]);
        let b = boxed::<f64, 3>([1.5; 3], [1.0; 3]);
        bp.insert(1, a).unwrap();
        bp.insert(2, b).unwrap();
        bp.find_pairs();
        assert_eq!(bp.pairs(), &[(1, 2)], "{name}");
        assert_eq!(bp.insert(1, b), Err(BroadPhaseError::DuplicateId(1)));
        assert_eq!(bp.update(7, b), Err(BroadPhaseError::UnknownId(7)));
        assert_eq!(bp.remove(7), Err(BroadPhaseError::UnknownId(7)));
        assert_eq!(bp.aabb(1), Some(a));
        // A batch stops at its first unknown id: the entries before it are applied, the ones
        // after it are not.
        let moved = boxed::<f64, 3>([0.2; 3], [1.0; 3]);
        assert_eq!(
            bp.update_all(&[(1, moved), (7, b), (2, a)]),
            Err(BroadPhaseError::UnknownId(7)),
            "{name}"
        );
        assert_eq!((bp.aabb(1), bp.aabb(2)), (Some(moved), Some(b)), "{name}");
        bp.update_all(&[(1, a)]).unwrap();
        assert_eq!(bp.aabb(1), Some(a));
        bp.find_pairs();
        assert_eq!(bp.pairs(), &[(1, 2)], "{name}");
        assert!(bp.added().is_empty() && bp.removed().is_empty(), "{name}");
        bp.remove(2).unwrap();
        bp.find_pairs();
        assert!(bp.pairs().is_empty() && bp.removed() == [(1, 2)], "{name}");
        // NaN and inverted boxes cannot even be built.
        assert!(Aabb::new(nalgebra::Point3::new(f64::NAN, 0.0, 0.0), nalgebra::Point3::origin()).is_err());
        assert!(Aabb::new(nalgebra::Point3::new(1.0, 0.0, 0.0), nalgebra::Point3::origin()).is_err());
    }
}
