//! GJK and EPA against exact oracles: brute-force hull distances, the exact minimum over all
//! candidate separating axes, hand-derived edge cases, symmetry and rigid-motion invariance.

mod common;

use cd_geom::*;
use cd_narrow::*;
use common::*;
use nalgebra::{Isometry3, Translation3, UnitQuaternion};

fn cfg() -> ConvexConfig<f64> {
    ConvexConfig::default()
}

fn contact<A: SupportMap<f64, D>, B: SupportMap<f64, D>, const D: usize>(a: &A, b: &B) -> Contact<f64, D> {
    convex_contact(a, 0.0, b, 0.0, &cfg(), &mut GjkCache::default())
}

/// Checks a contact's internal consistency: unit normal, finite values, witness points that
/// differ by `distance · normal`.
fn assert_consistent<const D: usize>(c: &Contact<f64, D>, tol: f64) {
    assert!(c.distance.is_finite(), "{c:?}");
    assert!((c.normal.norm() - 1.0).abs() < 1e-9, "normal not unit: {c:?}");
    let gap = c.point_b - c.point_a;
    assert!((gap - c.normal * c.distance).norm() <= tol, "witnesses off: {c:?}");
}

#[test]
fn distance_and_depth_match_brute_force_3d() {
    let mut rng = Rng(0x9e3779b97f4a7c15);
    let (mut separated, mut overlapping) = (0, 0);
    for _ in 0..400 {
        let a = rng.blob::<3>(8, 1.5, 0.2, 1.5);
        let b = rng.blob::<3>(8, 1.5, 0.2, 1.5);
        let c = contact(&a, &b);
        assert_consistent(&c, 1e-9);
        assert_eq!(c.status, ContactStatus::Converged);
        let brute = brute_distance_3d(&a.0, &b.0);
        if brute > 1e-9 {
            separated += 1;
            assert!((c.distance - brute).abs() <= 1e-9, "gjk {} brute {brute}", c.distance);
            // The witnesses lie on the supporting planes of the normal.
            assert!(a.0.iter().all(|p| c.normal.dot(&p.coords) <= c.normal.dot(&c.point_a.coords) + 1e-9));
            assert!(b.0.iter().all(|p| c.normal.dot(&p.coords) >= c.normal.dot(&c.point_b.coords) - 1e-9));
        } else {
            overlapping += 1;
            let (exact, _) = exact_depth(&a.0, &b.0, &candidate_axes_3d(&a.0, &b.0));
            assert!((c.depth() - exact).abs() <= 1e-7 * (1.0 + exact), "epa {} exact {exact}", c.depth());
            // Translating B by depth · normal separates the hulls (to the tolerance).
            assert!(overlap_along(&a.0, &b.0, &c.normal) <= c.depth() + 1e-7);
        }
    }
    assert!(separated > 50 && overlapping > 50, "{separated} separated, {overlapping} overlapping");
}

fn rng_vec(rng: &mut Rng, r: f64) -> V3 {
    rng.vector::<3>(-r, r)
}

#[test]
fn distance_and_depth_match_brute_force_2d() {
    let mut rng = Rng(0x2545f4914f6cdd1d);
    let (mut separated, mut overlapping) = (0, 0);
    for _ in 0..1000 {
        let ca = rng.vector::<2>(-1.5, 1.5);
        let cb = rng.vector::<2>(-1.5, 1.5);
        let (ra, rb) = (rng.range(0.2, 1.5), rng.range(0.2, 1.5));
        let a = rng.cloud::<2>(7, ca, ra);
        let b = rng.cloud::<2>(7, cb, rb);
        let c = contact(&a, &b);
        assert_consistent(&c, 1e-9);
        assert_eq!(c.status, ContactStatus::Converged);
        let brute = brute_distance_2d(&a.0, &b.0);
        if brute > 1e-9 {
            separated += 1;
            assert!((c.distance - brute).abs() <= 1e-9, "gjk {} brute {brute}", c.distance);
        } else {
            overlapping += 1;
            let (exact, _) = exact_depth(&a.0, &b.0, &candidate_axes_2d(&a.0, &b.0));
            assert!((c.depth() - exact).abs() <= 1e-9 * (1.0 + exact), "epa {} exact {exact}", c.depth());
            assert!(overlap_along(&a.0, &b.0, &c.normal) <= c.depth() + 1e-9);
        }
    }
    assert!(separated > 100 && overlapping > 100, "{separated} separated, {overlapping} overlapping");
}

#[test]
fn swapping_the_shapes_mirrors_the_contact_and_rigid_motion_moves_it() {
    let mut rng = Rng(77);
    for _ in 0..300 {
        let a = rng.blob::<3>(10, 1.0, 1.0, 1.0);
        let b = rng.blob::<3>(10, 1.0, 1.0, 1.0);
        let ab = contact(&a, &b);
        let ba = contact(&b, &a);
        assert!((ab.distance - ba.distance).abs() < 1e-8, "{} vs {}", ab.distance, ba.distance);
        // The normal is unique except for ties between axes of equal depth.
        let tie = (ab.normal + ba.normal).norm() > 1e-6;
        if tie {
            let alt = overlap_along(&a.0, &b.0, &-ba.normal);
            assert!((alt - ab.depth()).abs() < 1e-7 || ab.distance > 0.0, "mirror normal is not as deep");
        }
        let m = Isometry3::from_parts(
            Translation3::from(rng_vec(&mut rng, 50.0)),
            UnitQuaternion::from_euler_angles(
                rng.range(-3.0, 3.0),
                rng.range(-1.5, 1.5),
                rng.range(-3.0, 3.0),
            ),
        );
        let moved = contact(&Transformed::new(&a, m), &Transformed::new(&b, m));
        assert!((moved.distance - ab.distance).abs() < 1e-8);
        if !tie {
            assert!((moved.normal - m * ab.normal).norm() < 1e-6);
        }
    }
}

fn unit_box(min: [f64; 3], max: [f64; 3]) -> Aabb<f64, 3> {
    Aabb::new(P3::from(min), P3::from(max)).unwrap()
}

#[test]
fn face_to_face_touching_gaps_and_overlaps() {
    let a = unit_box([0.0; 3], [1.0; 3]);
    // Touching: B = [1, 2] × [0, 1]²: distance 0, normal +x.
    let c = contact(&a, &unit_box([1.0, 0.0, 0.0], [2.0, 1.0, 1.0]));
    assert!(c.distance.abs() < 1e-12 && (c.normal - V3::x()).norm() < 1e-9, "{c:?}");
    for gap in [1e-7, 1e-4, -1e-7, -1e-4, -0.3] {
        // B shifted by 1 + gap along y: distance `gap`, normal +y, B's face at y = 1 + gap.
        let b = unit_box([0.2, 1.0 + gap, 0.3], [0.9, 2.0 + gap, 0.6]);
        let c = contact(&a, &b);
        assert!((c.distance - gap).abs() < 1e-12, "gap {gap}: {c:?}");
        assert!((c.normal - V3::y()).norm() < 1e-9, "gap {gap}: {c:?}");
        assert_consistent(&c, 1e-12);
    }
}

#[test]
fn parallel_edges_identical_shapes_and_containment() {
    // Two unit cubes rotated 45° about z, edge to edge along x with a 0.1 gap:
    // centres 2·(√2/2) + 0.1 apart.
    let q = UnitQuaternion::from_euler_angles(0.0, 0.0, std::f64::consts::FRAC_PI_4);
    let h = V3::new(0.5, 0.5, 0.5);
    let a = Obb::from_rotation(P3::origin(), q, h).unwrap();
    let b = Obb::from_rotation(P3::new(2f64.sqrt() + 0.1, 0.0, 0.0), q, h).unwrap();
    let c = contact(&a, &b);
    assert!((c.distance - 0.1).abs() < 1e-12 && (c.normal - V3::x()).norm() < 1e-9, "{c:?}");
    // Identical cubes at the same pose: depth 1 along some face normal.
    let c = contact(&a, &a);
    assert!((c.depth() - 1.0).abs() < 1e-9, "{c:?}");
    assert!((q.inverse() * c.normal).iter().any(|x| (x.abs() - 1.0).abs() < 1e-9));
    // Ball of radius 0.1 at height 0.2 inside the unit box: it leaves through z = 0, depth 0.3,
    // normal from the box to the ball −z.
    let bx = unit_box([0.0; 3], [1.0; 3]);
    let core = P3::new(0.5, 0.5, 0.2);
    let c = convex_contact(&bx, 0.0, &core, 0.1, &cfg(), &mut GjkCache::default());
    assert!((c.depth() - 0.3).abs() < 1e-12 && (c.normal + V3::z()).norm() < 1e-9, "{c:?}");
    assert!(
        (c.point_b - P3::new(0.5, 0.5, 0.3)).norm() < 1e-12
            && (c.point_a - P3::new(0.5, 0.5, 0.0)).norm() < 1e-12
    );
}

#[test]
fn flat_and_collinear_shapes() {
    // Two coplanar squares in z = 0 overlapping: A − B is flat, the contact is a touching one
    // with normal ±z and the degenerate status.
    let sq = |x: f64| {
        Cloud(vec![
            P3::new(x, 0.0, 0.0),
            P3::new(x + 1.0, 0.0, 0.0),
            P3::new(x + 1.0, 1.0, 0.0),
            P3::new(x, 1.0, 0.0),
        ])
    };
    let c = contact(&sq(0.0), &sq(0.5));
    assert!(c.distance.abs() < 1e-12 && (c.normal.z.abs() - 1.0).abs() < 1e-9, "{c:?}");
    assert_eq!(c.status, ContactStatus::Degenerate);
    // The same squares side by side with a gap: an ordinary distance.
    let c = contact(&sq(0.0), &sq(1.25));
    assert!((c.distance - 0.25).abs() < 1e-12 && (c.normal - V3::x()).norm() < 1e-9);
    // Crossing segments (x axis and y axis through the origin): touching.
    let s1 = Segment::new(P3::new(-1.0, 0.0, 0.0), P3::new(1.0, 0.0, 0.0)).unwrap();
    let s2 = Segment::new(P3::new(0.0, -1.0, 0.0), P3::new(0.0, 1.0, 0.0)).unwrap();
    let c = contact(&s1, &s2);
    assert!(c.distance.abs() < 1e-12, "{c:?}");
    // Skew segments 0.5 apart in z.
    let s3 = Segment::new(P3::new(0.0, -1.0, 0.5), P3::new(0.0, 1.0, 0.5)).unwrap();
    let c = contact(&s1, &s3);
    assert!((c.distance - 0.5).abs() < 1e-12 && (c.normal - V3::z()).norm() < 1e-12);
    // Collinear overlapping segments: A − B is a segment through the origin.
    let s4 = Segment::new(P3::new(0.5, 0.0, 0.0), P3::new(3.0, 0.0, 0.0)).unwrap();
    let c = contact(&s1, &s4);
    assert!(c.distance.abs() < 1e-12 && c.status == ContactStatus::Degenerate, "{c:?}");
    // Point inside a point: both degenerate, depth 0.
    let p = P3::new(1.0, 2.0, 3.0);
    let c = contact(&p, &p);
    assert!(c.distance.abs() < 1e-12 && c.distance.is_finite());
}

#[test]
fn huge_coordinates() {
    // Unit cubes around x = 1e5 with a 0.01 gap along y.
    let a = unit_box([1e5, 1e5, 1e5], [1e5 + 1.0, 1e5 + 1.0, 1e5 + 1.0]);
    let b = unit_box([1e5, 1e5 + 1.01, 1e5], [1e5 + 1.0, 1e5 + 2.01, 1e5 + 1.0]);
    let c = contact(&a, &b);
    assert!((c.distance - 0.01).abs() < 1e-9 && (c.normal - V3::y()).norm() < 1e-9, "{c:?}");
    // Overlapping by 0.01 instead.
    let b = unit_box([1e5, 1e5 + 0.99, 1e5], [1e5 + 1.0, 1e5 + 1.99, 1e5 + 1.0]);
    let c = contact(&a, &b);
    assert!((c.distance + 0.01).abs() < 1e-9 && (c.normal - V3::y()).norm() < 1e-9, "{c:?}");
}

#[test]
fn thin_plank_and_point_past_its_end() {
    // The plank [-0.5, 0.5] × [-0.0016, 0.0016] (× [-0.5, 0.5] in 3D); a point 1e-4 past its
    // end must be 1e-4 away, never "intersecting" (a known GJK false positive).
    for gap in [1e-4, 1e-6] {
        let plank2 = Aabb::<f64, 2>::new(P2::new(-0.5, -0.0016), P2::new(0.5, 0.0016)).unwrap();
        let p2 = P2::new(0.5 + gap, 0.001);
        let c = contact(&plank2, &p2);
        assert!((c.distance - gap).abs() < 1e-12, "2D gap {gap}: {c:?}");
        let plank3 = unit_box([-0.5, -0.0016, -0.5], [0.5, 0.0016, 0.5]);
        let p3 = P3::new(0.5 + gap, 0.001, 0.3);
        let c = contact(&plank3, &p3);
        assert!((c.distance - gap).abs() < 1e-12, "3D gap {gap}: {c:?}");
        // And in f32: still separated, by about the gap.
        let plank32 = Aabb::<f32, 3>::new([-0.5, -0.0016, -0.5].into(), [0.5, 0.0016, 0.5].into()).unwrap();
        let p32 = nalgebra::Point3::<f32>::new(0.5 + gap as f32, 0.001, 0.3);
        let g = gjk_distance(&plank32, &p32, &GjkConfig::default(), &mut GjkCache::default());
        if gap >= 1e-4 {
            assert_eq!(g.status, GjkStatus::Separated);
            assert!((g.distance - gap as f32).abs() < 1e-6, "{g:?}");
        }
    }
}

#[test]
fn overlapping_cylinders_capsule_box_and_rotated_cuboids() {
    // Cylinders of radius 1 along z, centres 1.9 apart in x: 0.1 deep along x.
    let a = Cylinder::new(P3::new(0.0, 0.0, -1.0), P3::new(0.0, 0.0, 1.0), 1.0).unwrap();
    let b = Cylinder::new(P3::new(1.9, 0.0, -0.5), P3::new(1.9, 0.0, 1.5), 1.0).unwrap();
    let c = contact(&a, &b);
    assert!((c.depth() - 0.1).abs() < 1e-6 && (c.normal - V3::x()).norm() < 1e-3, "{c:?}");
    // Capsule (radius 0.25) whose axis ends 0.2 from a box corner, along the diagonal:
    // 0.05 deep.
    let bx = unit_box([0.0; 3], [1.0; 3]);
    let d = V3::new(1.0, 1.0, 1.0).normalize();
    let tip = P3::new(1.0, 1.0, 1.0) + d * 0.2;
    let axis = Segment::new(tip, tip + d * 2.0).unwrap();
    let c = convex_contact(&bx, 0.0, &axis, 0.25, &cfg(), &mut GjkCache::default());
    assert!((c.distance + 0.05).abs() < 1e-9 && (c.normal - d).norm() < 1e-6, "{c:?}");
    // Asymmetric cuboids: a long thin box rotated 30° about z above a flat one.
    let long = Obb::from_rotation(
        P3::new(0.0, 0.0, 1.3),
        UnitQuaternion::from_euler_angles(0.0, 0.0, std::f64::consts::FRAC_PI_6),
        V3::new(3.0, 0.1, 0.2),
    )
    .unwrap();
    let flat = unit_box([-5.0, -5.0, 0.0], [5.0, 5.0, 1.0]);
    let c = contact(&flat, &long);
    assert!((c.distance - 0.1).abs() < 1e-12 && (c.normal - V3::z()).norm() < 1e-9, "{c:?}");
}

/// A support map that counts its calls (the real cost of a GJK run).
struct Counted<'a, S>(&'a S, &'a std::cell::Cell<usize>);

impl<S: SupportMap<f64, 3>> SupportMap<f64, 3> for Counted<'_, S> {
    fn support(&self, d: &V3) -> P3 {
        self.1.set(self.1.get() + 1);
        self.0.support(d)
    }
}

#[test]
fn warm_start_gives_the_same_answer_with_fewer_support_calls() {
    let mut rng = Rng(5);
    let a = rng.cloud::<3>(40, V3::zeros(), 1.0);
    let b0 = rng.cloud::<3>(40, V3::new(3.0, 0.5, 0.0), 1.0);
    let mut cache = GjkCache::default();
    let (warm_calls, cold_calls) = (std::cell::Cell::new(0), std::cell::Cell::new(0));
    for step in 0..100 {
        let m = Isometry3::from_parts(
            Translation3::new(0.0, (step as f64 * 0.01).sin(), 0.0),
            UnitQuaternion::from_euler_angles(0.0, 0.0, step as f64 * 0.005),
        );
        let b = Transformed::new(&b0, m);
        // The cache holds the last direction and the terminal simplex's directions: the next
        // query rebuilds that simplex from them.
        let warm = gjk_distance(&Counted(&a, &warm_calls), &b, &GjkConfig::default(), &mut cache);
        let cold =
            gjk_distance(&Counted(&a, &cold_calls), &b, &GjkConfig::default(), &mut GjkCache::default());
        assert!((warm.distance - cold.distance).abs() < 1e-12);
        assert!((warm.point_a - cold.point_a).norm() < 1e-9 && (warm.point_b - cold.point_b).norm() < 1e-9);
    }
    let (warm, cold) = (warm_calls.get(), cold_calls.get());
    assert!(warm * 10 < cold * 7, "warm {warm} support calls, cold {cold}");
}

#[test]
fn iteration_cap_is_reported_not_hidden() {
    // One iteration cannot settle two balls: the answer says so and brackets the distance 1.
    let a = Ball::new(P3::origin(), 1.0).unwrap();
    let b = Ball::new(P3::new(2.0, 1.0, 0.0), 1.0).unwrap();
    let tight = GjkConfig { max_iterations: 1, ..GjkConfig::default() };
    // Start from a poor direction (the centre line would settle two balls at once).
    let poor = || GjkCache::from_direction(V3::new(0.0, 0.3, 1.0));
    let g = gjk_distance(&a, &b, &tight, &mut poor());
    let exact = 5f64.sqrt() - 2.0;
    assert_eq!(g.status, GjkStatus::IterationCap);
    assert!(g.lower_bound <= exact + 1e-12 && g.distance >= exact - 1e-12, "{g:?}");
    // Balls know their outer balls, which settle this pair with no iteration at all; wrapped
    // (support only: no inner or outer ball), they must go through GJK and its cap.
    let calls = std::cell::Cell::new(0);
    let (wa, wb) = (Counted(&a, &calls), Counted(&b, &calls));
    match gjk_intersects(&wa, &wb, 0.0, &GjkConfig { max_iterations: 0, ..tight }, &mut poor()) {
        Intersection::Undecided { lower_bound, upper_bound } => {
            assert!(lower_bound <= exact && upper_bound >= exact)
        }
        other => panic!("{other:?}"),
    }
    match gjk_intersects(&a, &b, 0.0, &GjkConfig { max_iterations: 0, ..tight }, &mut poor()) {
        Intersection::Separated { axis } => {
            assert!(axis.normalize().dot(&V3::new(2.0, 1.0, 0.0).normalize()) > 0.999)
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn boolean_test_agrees_with_distance() {
    let mut rng = Rng(99);
    for _ in 0..2000 {
        let a = rng.blob::<3>(6, 1.5, 1.0, 1.0);
        let b = rng.blob::<3>(6, 1.5, 1.0, 1.0);
        let d = gjk_distance(&a, &b, &GjkConfig::default(), &mut GjkCache::default());
        let i = gjk_intersects(&a, &b, 0.0, &GjkConfig::default(), &mut GjkCache::default());
        match i {
            Intersection::Separated { axis } => {
                assert!(d.distance > 0.0);
                // The axis really separates the hulls.
                let n = axis.normalize();
                assert!(overlap_along(&a.0, &b.0, &n) < 0.0);
            }
            Intersection::Intersecting => assert!(d.distance < 1e-9, "{d:?}"),
            Intersection::Undecided { .. } => panic!("cap on a polytope"),
        }
    }
}

/// EPA keeps its lists per thread from run to run: nothing of one run may leak into the next.
/// Penetrations of small and large clouds, run in turn, repeated and run on another thread,
/// give bit-identical answers; a run nested inside a support map (whose lists are then in use)
/// gets lists of its own and changes nothing either.
#[test]
fn epa_scratch_reuse_changes_no_answer() {
    let mut rng = Rng(0x2545f4914f6cdd1d);
    let pairs: Vec<(Cloud<3>, Cloud<3>)> = (0..12)
        .map(|k| {
            let n = if k % 3 == 0 { 300 } else { 8 };
            let a = rng.cloud::<3>(n, Vector::zeros(), 1.0);
            let offset = rng.vector::<3>(-0.4, 0.4);
            let b = rng.cloud::<3>(n, offset, 1.0);
            (a, b)
        })
        .collect();
    let depth = |a: &dyn SupportMap<f64, 3>, b: &dyn SupportMap<f64, 3>| {
        let g = gjk_distance(a, b, &GjkConfig::default(), &mut GjkCache::default());
        assert_eq!(g.status, GjkStatus::Intersecting);
        let p = epa(a, b, &g.simplex, &EpaConfig::default());
        (p.depth.to_bits(), p.normal.map(f64::to_bits), p.point_a.coords.map(f64::to_bits))
    };
    let first: Vec<_> = pairs.iter().map(|(a, b)| depth(a, b)).collect();
    let again: Vec<_> = pairs.iter().rev().map(|(a, b)| depth(a, b)).collect();
    assert!(first.iter().eq(again.iter().rev()), "a rerun in another order differs");
    let elsewhere = std::thread::scope(|s| {
        s.spawn(|| pairs.iter().map(|(a, b)| depth(a, b)).collect::<Vec<_>>()).join().unwrap()
    });
    assert_eq!(first, elsewhere, "another thread's runs differ");

    /// A cloud whose every support call first runs a whole EPA of its own.
    struct Nesting<'a>(&'a Cloud<3>, &'a (Cloud<3>, Cloud<3>));
    impl SupportMap<f64, 3> for Nesting<'_> {
        fn support(&self, d: &Vector<f64, 3>) -> Point<f64, 3> {
            let (x, y) = self.1;
            let g = gjk_distance(x, y, &GjkConfig::default(), &mut GjkCache::default());
            let p = epa(x, y, &g.simplex, &EpaConfig::default());
            assert!(p.depth > 0.0);
            self.0.support(d)
        }
    }
    for (k, (a, b)) in pairs.iter().enumerate() {
        let nested = Nesting(a, &pairs[(k + 1) % pairs.len()]);
        assert_eq!(depth(&nested, b), first[k], "a nested run changed pair {k}");
    }
}

/// Fuzz finding 59 (FUZZING.md): a thin bar (4.76 × 3·10⁻⁴ half extents) crossed by a vertical
/// segment of the same half length, both given as point lists whose supports tie along whole
/// sides (the segment's four corners are two repeated points). The 2D EPA's polygon then has
/// two edges on the deepest side's line, and it picked the one the origin's projection does
/// not fall on: clamped to that edge's end, the witnesses were a bar corner and the
/// segment's end, 4.76 apart across the normal. The answer now walks along the line to the
/// edge holding the projection.
#[test]
fn epa_2d_witnesses_on_a_side_split_into_collinear_edges() {
    let (h, t) = (4.764404296875, 0.00030517578125);
    let bar = Cloud(vec![P2::new(-h, -t), P2::new(h, -t), P2::new(h, t), P2::new(-h, t)]);
    let segment = Cloud(vec![P2::new(0.0, -h), P2::new(0.0, -h), P2::new(0.0, h), P2::new(0.0, h)]);
    for (a, b) in [(&bar, &segment), (&segment, &bar)] {
        let g = gjk_distance(a, b, &GjkConfig::default(), &mut GjkCache::default());
        assert_eq!(g.status, GjkStatus::Intersecting);
        let p = epa(a, b, &g.simplex, &EpaConfig::default());
        assert!((p.depth - h).abs() < 1e-9, "{p:?}");
        // point_a − point_b = depth · normal, and each witness on its shape.
        let off = (p.point_a - p.point_b - p.normal * p.depth).norm();
        assert!(off < 1e-9, "witnesses {off} off the normal: {p:?}");
        for (w, s) in [(&p.point_a, a), (&p.point_b, b)] {
            assert!(w.x.abs() <= h + 1e-12 && w.y.abs() <= h + 1e-12, "{w:?} off {:?}", s.0);
        }
    }
    // Through the 2D dispatcher, the same pair as boxes (the segment a box of zero width).
    let bar = Obb::<f64, 2>::from_angle(P2::new(0.0, 0.0), 0.0, V2::new(h, t)).unwrap();
    let flat = Obb::<f64, 2>::from_angle(P2::new(0.0, 0.0), 0.0, V2::new(0.0, h)).unwrap();
    let c =
        contact_2d(Shape2::Box(&bar), Shape2::Box(&flat), 0.0, &mut PairCache2::default()).unwrap().unwrap();
    assert!((c.point_b - c.point_a - c.normal * c.distance).norm() < 1e-9, "{c:?}");
}

/// A long thin box (aspect 10² to 10⁴) beside a small box, in `f32`: the distance through the
/// dispatcher agrees with the same pair's `f64` distance to 64 ε of the long side and converges.
/// GJK's sub-simplex solve in `f32` stalled on the sliver faces of such pairs and the stall was
/// accepted as converged within √ε of their size: 0.322 for 0.299 with a box 100 long, 0.137
/// off with one 1,000 long (the solve now runs in `f64`).
#[test]
fn f32_distance_beside_a_long_thin_box_matches_f64() {
    use nalgebra::Point3;
    fn pair_distance<T: Real>(long: f64, rot: [f64; 3], centre: [f64; 3]) -> (f64, ContactStatus) {
        let l = |x: f64| T::lit(x);
        let v = |a: [f64; 3]| nalgebra::Vector3::new(l(a[0]), l(a[1]), l(a[2]));
        let local =
            Obb::from_rotation(Point3::origin(), UnitQuaternion::identity(), v([long / 2.0, 0.05, 0.05]));
        let hull = ConvexPolyhedron::from_obb(&local.unwrap()).unwrap();
        let pose =
            Isometry3::from_parts(v([0.3, -0.2, 0.1]).into(), UnitQuaternion::from_scaled_axis(v(rot)));
        let small_box = Obb::from_rotation(
            Point3::from(v(centre)),
            UnitQuaternion::from_scaled_axis(v([0.3, 1.1, -0.4])),
            v([0.2, 0.15, 0.1]),
        );
        let small = ConvexPolyhedron::from_obb(&small_box.unwrap()).unwrap();
        let c = distance(Shape::Hull(&hull, &pose), Shape::Polyhedron(&small), &mut PairCache::default())
            .unwrap();
        (c.distance.to_f64(), c.status)
    }
    let mut rng = Rng(0x5851_f42d_4c95_7f2d);
    for long in [1e1, 1e2, 1e3] {
        let mut worst = 0.0f64;
        for _ in 0..200 {
            let rot = [rng.range(-3.0, 3.0), rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)];
            // The small box beside a random point of the long one, 0.3 to 1.3 off its side.
            let q = nalgebra::UnitQuaternion::from_scaled_axis(nalgebra::Vector3::from(rot));
            let along = rng.range(-0.45, 0.45) * long;
            let c = q * nalgebra::Vector3::new(along, rng.range(0.35, 1.35), 0.0)
                + nalgebra::Vector3::new(0.3, -0.2, 0.1);
            let (d32, status) = pair_distance::<f32>(long, rot, [c.x, c.y, c.z]);
            let (d64, _) = pair_distance::<f64>(long, rot, [c.x, c.y, c.z]);
            assert_eq!(status, ContactStatus::Converged, "length {long}: {d32} against {d64}");
            worst = worst.max((d32 - d64).abs());
        }
        assert!(worst <= 64.0 * f32::EPSILON as f64 * long, "length {long}: off by {worst}");
    }
}
