//! Arbitrary floats as balls, capsules, boxes, cylinders, cones, triangles and hulls through
//! every narrow-phase query, pairwise. The same exercise is the `narrow_queries` fuzz target.

mod exercise;

use cd_geom::{Ball, Capsule, Cylinder, Obb, Triangle};
use cd_narrow::{contact, distance, PairCache, Shape};
use nalgebra::{Point3, UnitQuaternion, Vector3};
use proptest::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

const CASES: u32 = 200;
static RUN: AtomicUsize = AtomicUsize::new(0);

fn any_float() -> impl Strategy<Value = f64> {
    prop_oneof![
        1 => proptest::num::f64::ANY,
        1 => prop::sample::select(vec![
            0.0, -0.0, 1e-300, 1e-7, 1e6, 1e9, -1e9, 1e30, 1e75, 1e76, f64::MAX,
            f64::INFINITY, f64::NEG_INFINITY, f64::NAN,
        ]),
    ]
}

/// Mostly moderate numbers (so shapes build and pairs meet), some hostile ones; one case in
/// four draws them all from a pool of two to four moderate values, where points coincide,
/// edges line up and shapes go flat (60,000 such cases passed when this was added; the same
/// draw found a flat-triangle bug in cd-ccd, FUZZING.md finding 75).
fn numbers() -> impl Strategy<Value = Vec<f64>> {
    let mixed = proptest::collection::vec(
        prop_oneof![30 => -3.0..3.0f64, 4 => prop::sample::select(vec![0.0, 1.0, -1.0]), 1 => any_float()],
        24..30,
    );
    let pooled = proptest::collection::vec(-3.0..3.0f64, 2..5)
        .prop_flat_map(|pool| proptest::collection::vec(prop::sample::select(pool), 24..30));
    prop_oneof![3 => mixed, 1 => pooled]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: CASES, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_shapes_give_consistent_finite_answers(v in numbers()) {
        exercise::run(&v);
        if RUN.fetch_add(1, Ordering::Relaxed) + 1 == CASES as usize {
            let checked = exercise::CHECKED.load(Ordering::Relaxed);
            prop_assert!(checked >= 10 * CASES as usize, "only {} pairs reached the checks", checked);
            let planar = exercise::PLANAR_CHECKED.load(Ordering::Relaxed);
            let compared = exercise::PLANAR_COMPARED.load(Ordering::Relaxed);
            let precisions = exercise::PRECISIONS_COMPARED.load(Ordering::Relaxed);
            let manifolds = exercise::HULL_MANIFOLDS_COMPARED.load(Ordering::Relaxed);
            eprintln!(
                "{checked} pairs in 3D ({precisions} in f32 against f64, {manifolds} hull manifolds), {planar} in 2D, {compared} box polygons against GJK + EPA"
            );
            prop_assert!(manifolds >= CASES as usize / 10, "only {} hull manifolds compared in f32 and f64", manifolds);
            prop_assert!(precisions >= 10 * CASES as usize, "only {} pairs compared in f32 and f64", precisions);
            prop_assert!(planar >= 10 * CASES as usize, "only {} 2D pairs reached the checks", planar);
            prop_assert!(compared >= CASES as usize, "only {} box polygons compared with GJK + EPA", compared);
        }
    }
}

/// Fuzz finding 70 (FUZZING.md): a capsule of radius 5.8 whose core runs 10⁷⁵ through a box
/// 10⁷⁵ wide and 13 thick. The new box/capsule boolean evaluated the segment at every
/// representable parameter 10⁵⁹ outside the thin slab (it crosses it inside one ulp of `t`)
/// and called the pair apart, where GJK + EPA found it 3.7·10⁷⁴ deep.
#[test]
fn regression_capsule_through_a_slab_thinner_than_its_rounding() {
    exercise::run(&[5.8038330078125, 1e75, 1e75, 1e75, -6.43524169921875]);
}

/// Fuzz finding 62 (FUZZING.md): a capsule of radius 0.61 beside a flat box 10⁻³ across, in
/// `f32`: GJK's second vertex turned the closest point while shortening it by less than an
/// `f32` ulp, its progress test (in `f32`) called that a stall, and the stall was accepted as
/// converged 2.2·10⁻⁴ from the `f64` distance. The exercise compares the two precisions.
#[test]
fn regression_f32_progress_below_an_ulp_is_progress() {
    exercise::run(&[0.61370849609375, 1.56219482421875, 0.0, -0.0006103515625, -0.00030517578125]);
}

/// Fuzz finding 63 (FUZZING.md): two boxes 16.6 long and 6·10⁻⁴ thick whose long edges are
/// 3·10⁻⁴ rad apart, in `f32`: box/box SAT skipped edge axes below √ε (3.5·10⁻⁴ in `f32`) as
/// parallel, lost the axis of least depth and reported 1.7·10⁻³ for 3.6·10⁻⁴.
#[test]
fn regression_f32_box_sat_keeps_nearly_parallel_edge_axes() {
    exercise::run(&[
        -0.00030517578125,
        -8.2830810546875,
        -0.00030517578125,
        -0.00030517578125,
        -8.30596923828125,
        0.0,
    ]);
}

/// Fuzz finding 64 (FUZZING.md): a segment (a lozenge with one zero side) lying on a cone's
/// surface from its apex to its rim, touching it along its whole length. EPA's projection fell
/// in no face, and the clamped weights put the contact points 4.7 apart sideways at a depth of
/// 10⁻¹¹.
#[test]
fn regression_epa_witnesses_of_a_segment_along_a_cone() {
    let h = 7.29400634765625;
    #[rustfmt::skip]
    exercise::run(&[f64::INFINITY, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, h, h, h, h, h, h, 2.99713134765625, 0.0, 0.0, 0.0]);
}

/// Fuzz finding 65 (FUZZING.md): a needle box 10 long and 6·10⁻⁴ thick along a vertical edge
/// of a cube 12.9 wide, turned 0.01 rad from it, in `f32`. The box/box SAT lowered the two
/// edges' axis by its `f32` rounding bound (2·10⁻³) and reported a depth of 3.2·10⁻³ for
/// 8.6·10⁻⁴; such uncertain depths are now measured again in `f64` on re-orthonormalized axes.
#[test]
fn regression_f32_box_sat_edge_axis_beside_a_cube_edge() {
    let (e, c, n) = (-0.00030517578125, -6.43157958984375, -0.007454);
    #[rustfmt::skip]
    exercise::run(&[
        0.39031982421875, 0.31219482421875, e, e, -5.00030517578125, e, e, e, e, 0.39031982421875,
        0.0, e, e, 0.50018310546875, 1e75, e, 0.02105712890625, c, c, c, c, c, 1e-300, n, n, n, n,
        n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, -0.021075, c, c, c,
        1.0052490234375, 0.0, 0.0, f64::INFINITY, e,
    ]);
}

/// Found by this property test: a box 9·10¹⁴ long whose axis passes 8.5·10⁸ from a flat box;
/// MPR (with the long box first) built a sliver portal whose normal was rounding noise and
/// reported an overlap. It now hands such portals to GJK.
#[test]
fn regression_mpr_sliver_portal_on_a_very_long_box() {
    exercise::run(&[
        0.0,
        0.7581153102138182,
        2.260180822864199,
        -2.525499865649744,
        453748343193048.56,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        -0.2010798836210167,
        0.0,
        -0.36488897563137007,
        0.0,
        0.0,
        0.36025606298433843,
        0.0,
        1000000000.0,
        0.0,
        0.0,
        -2.40676323326668,
    ]);
}

/// Found by this property test: a hull posed 10³⁰⁸ away gave infinite witness points; a pose
/// beyond the coordinate range is now a typed error.
#[test]
fn regression_hull_pose_beyond_the_coordinate_range_is_refused() {
    use cd_geom::{ConvexPolyhedron, Obb};
    use cd_narrow::{distance, intersects, manifold, Manifold, NarrowError, PairCache, Shape};
    use nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};
    let cube =
        Obb::from_rotation(Point3::origin(), UnitQuaternion::identity(), Vector3::repeat(1.0)).unwrap();
    let hull = ConvexPolyhedron::from_obb(&cube).unwrap();
    for far in [1e308, f64::INFINITY, f64::NAN] {
        let pose = Isometry3::translation(far, 0.0, 0.0);
        let (h, b) = (Shape::Hull(&hull, &pose), Shape::Box(&cube));
        assert_eq!(distance(h, b, &mut PairCache::default()).unwrap_err(), NarrowError::InvalidPose);
        assert_eq!(intersects(b, h, &mut PairCache::default()).unwrap_err(), NarrowError::InvalidPose);
        let mut m = Manifold::default();
        assert_eq!(
            manifold(h, h, 0.1, &mut PairCache::default(), &mut m).unwrap_err(),
            NarrowError::InvalidPose
        );
    }
    // A rotation with a non-finite component is refused too.
    for bad in [f64::NAN, f64::INFINITY] {
        let q = UnitQuaternion::new_unchecked(nalgebra::Quaternion::new(1.0, 0.0, bad, 0.0));
        let pose = Isometry3::from_parts(Vector3::new(0.5, 0.0, 0.0).into(), q);
        let (h, b) = (Shape::Hull(&hull, &pose), Shape::Box(&cube));
        assert_eq!(distance(h, b, &mut PairCache::default()).unwrap_err(), NarrowError::InvalidPose);
        assert_eq!(intersects(b, h, &mut PairCache::default()).unwrap_err(), NarrowError::InvalidPose);
    }
}

/// Found by the `narrow_queries` fuzz target: two boxes at the coordinate limit (10⁷⁵) that
/// overlap by 2·10⁷³ (checked exactly by scaling them by 2⁻²⁴⁹) were reported 7.7·10⁷² apart:
/// the flatness test of GJK's tetrahedron squared a 10²²⁵ volume and overflowed.
#[test]
fn regression_shapes_at_the_coordinate_limit() {
    exercise::run(&[-8.9727783203125, 1e75]);
}

/// Found by the `narrow_queries` fuzz target: a ball of radius 2.49·10¹⁰ centred in a hull
/// slab 2.49·10¹⁰ × 0.06 × 0.0003 (aspect 10¹⁴). With the ball first, GJK (on the ball's
/// centre against the slab) reached a sliver simplex it could not resolve in floating point,
/// stopped on "no progress" 10⁵ from the origin with a proven lower bound of 0, and claimed a
/// separation: the depth came out 10⁵ too shallow as "converged". Such a stall is now
/// `GjkStatus::Stalled` (an `Unresolved` contact, never a claim); the contact queries then run
/// GJK on (B, A), which converges here, and mirror its answer, so both orders now agree to
/// 10⁻¹⁴ of the size.
#[test]
fn regression_sliver_simplex_of_a_slab_with_aspect_ratio_1e14() {
    exercise::run(&[-24947000000.0, -0.06103515625, -0.00030517578125]);
}

/// Found by the `narrow_queries` fuzz target (second long run): every shape built from the
/// two numbers 7.76·10⁻⁴ and 3.14·10¹⁰: a hull needle 6.3·10¹⁰ long and 1.6·10⁻³ wide
/// (aspect 4·10¹³) against itself. GJK claimed the needle 2.1·10⁷ away from itself; the stall
/// check then made it an honest `Unresolved`. The cause was the rounding of GJK's closest point
/// on a long face (the barycentric sum, off by ε·10¹⁰ in every direction, so the next support
/// point was no better): the simplex now projects the origin on a face along its normal.
///
/// Revisited with findings 15 and 17: eight pairs here have a vertex of one shape exactly at
/// the centre of the other (the capsule's and the triangle's ends at the needle box's and the
/// hull's centres), so they intersect, yet GJK stalled on them 5·10⁻⁴ from the origin without a
/// proven lower bound and the old stall check certified "separated". The default tolerance of
/// the exercise (10⁻⁶ of 3·10¹⁰) hid it; this test tightens it to 10⁻⁴. The box/triangle pair
/// (the triangle has collinear vertices) now resolves by SAT, which no longer takes the
/// triangle's noise cross product for a normal; the other six (capsule/box, capsule/hull,
/// triangle/hull, both orders: features 60 ulps of the coordinates across) come back
/// `Unresolved` (GJK in both orders and MPR's portal all degenerate in f64); nothing else may.
/// The exercise's second hull is the same needle here (two numbers make every shape), which
/// adds capsule/hull and triangle/hull in both orders: ten in all.
#[test]
fn regression_shapes_from_two_numbers_ten_orders_apart() {
    exercise::BOUND_ONLY.with(|n| n.set(0));
    exercise::HIT_TOLERANCE.with(|t| t.set(Some(1e-4)));
    exercise::run(&[0.000776, 31428000000.0]);
    exercise::HIT_TOLERANCE.with(|t| t.set(None));
    let unresolved = exercise::BOUND_ONLY.with(|n| n.get());
    assert!(unresolved <= 10, "{unresolved} intersecting pairs came back unresolved, expected at most 10");
}

/// Found by the `narrow_queries` fuzz target (2026-11-24, FUZZING.md finding 14): a triangle
/// with two equal vertices (a segment) 1.0 inside a ball of radius 8.9 was reported 2.97
/// apart, converged: the closest point on a triangle took the zero-length edge's region (every
/// test 0 ≤ 0) and answered that vertex. Zero-length edges no longer have a region.
#[test]
fn regression_triangle_with_two_equal_vertices_inside_a_ball() {
    exercise::run(&[
        0.75347900390625,
        -0.0,
        -2.64495849609375,
        8.9410400390625,
        0.029297999999999998,
        0.029297999999999998,
        0.029297999999999998,
    ]);
}

/// Found by the `narrow_queries` fuzz target (2026-11-24, FUZZING.md finding 15): a needle
/// 1.5·10⁹ long and a slab 6·10⁻⁴ thick and 2·10⁹ wide, both centred on the origin. GJK on
/// (hull, box) stalled at |v| = 3·10⁻⁴ with no proven lower bound and called it a converged
/// separation (the stall slack, √ε of the size, was 29); the other order found the needle
/// through the slab, 3.5·10⁵ deep. A stall now counts as separated only with a lower bound
/// above rounding, so the stalled order falls back to the reversed one and both agree.
#[test]
fn regression_box_hull_distance_symmetric_at_huge_coordinates() {
    exercise::run(&[
        1000000000.0,
        0.0,
        0.0,
        0.0,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00885009765625,
        -0.00030517578125,
        769000000.0,
    ]);
}

/// Found by the `narrow_queries` fuzz target (2026-11-24, FUZZING.md finding 17): a triangle
/// with collinear vertices (a segment 4.2 long) with one end at the centre of a box
/// 3.3 × 6·10⁻⁴ × 6·10⁻⁴. `triangle_obb` said apart, the distance 3·10⁻⁴ deep: the plane
/// test used the rounding noise of the degenerate triangle's cross product as its normal.
#[test]
fn regression_collinear_triangle_through_a_thin_box() {
    let mut v = [-0.00030517578125; 12];
    v[0] = -8.63800048828125;
    v[2] = -1.63970947265625;
    v[5] = -4.21905517578125;
    exercise::run(&v);
}

/// Found by the `narrow_queries` fuzz target once it checked witness points (2026-11-28,
/// FUZZING.md finding 52): a box of zero extent but along one axis, 10⁻³⁰⁰ from a triangle
/// with two equal vertices. GJK's |v|² underflowed (the pair counts as touching), SAT's
/// clipping of the degenerate features then took the triangle's far end, 3.9 from the box,
/// for a contact at distance 10⁻³⁰⁰. Such contacts now fall back to GJK and EPA.
#[test]
fn regression_box_touching_a_degenerate_triangle_at_a_subnormal_distance() {
    exercise::run(&[0.0, 1e-300, 0.0, 0.0, -3.8818359375]);
    let tri = Triangle::new(
        Point3::new(1e-300, 0.0, 0.0),
        Point3::new(0.0, -3.8818359375, 0.0),
        Point3::new(1e-300, 0.0, 0.0),
    )
    .unwrap();
    let rod = Obb::from_rotation(
        Point3::new(0.0, 1e-300, 0.0),
        UnitQuaternion::from_scaled_axis(Vector3::new(0.0, -3.8818359375, 0.0)),
        Vector3::new(0.0, 0.0, 3.8818359375),
    )
    .unwrap();
    for (a, b) in [(Shape::Box(&rod), Shape::Triangle(&tri)), (Shape::Triangle(&tri), Shape::Box(&rod))] {
        let c = contact::<f64>(a, b, 1.0, &mut PairCache::default()).unwrap().unwrap();
        assert!(c.distance.abs() < 1e-12 && (c.point_b - c.point_a).norm() < 1e-12, "{c:?}");
    }
}

/// Fuzz finding 60 (FUZZING.md): a ball of radius 3·10⁻⁴ centred on an edge of a sliver
/// 2·10⁹ long (its angle at the first vertex 2·10⁻¹¹) was reported 1.5·10⁶ apart from it while
/// `intersects` said they touched: the closest point on the triangle came from barycentric
/// weights that the region tests' products had cancelled to noise.
#[test]
fn regression_ball_on_the_edge_of_a_long_sliver() {
    let t = 0.00030517578125;
    #[rustfmt::skip]
    let v = [
        -1e6, -t, -t, -t, -t, -t, -t, 0.078125, -764000000.0, -t, -t, -t, -t, -t, -t, -t,
        -2052000000.0, 0.0390625, -t, 0.0, -2052000000.0, 0.0390625, -t, 0.0, -t,
    ];
    exercise::run(&v);
    let tri = Triangle::new(
        Point3::new(-t, -t, -t),
        Point3::new(-7.64e8, -t, -t),
        Point3::new(-2.052e9, 0.0390625, -t),
    )
    .unwrap();
    let ball = Ball::new(Point3::new(-1e6, -t, -t), t).unwrap();
    let d = distance(Shape::Ball(&ball), Shape::Triangle(&tri), &mut PairCache::default()).unwrap();
    assert!((d.distance + t).abs() < 1e-9, "{d:?}");
}

/// Fuzz finding 73 (FUZZING.md): a capsule of zero length (a ball of radius 9.57) 0.059 from
/// a cylinder of the same radius. GJK's support call on the cylinder returned the same point
/// twice up to rounding, and the triangle of those two and a third point 11 away was solved as
/// a face: its weights, ratios of areas that were all rounding noise, summed to 1.004, and the
/// witness on the ball's core moved 0.047 off its centre, so the contact points came out
/// 0.011 off the normal (the exercise allows 0.0096). Flat triangles now search their edges.
#[test]
fn regression_ball_like_capsule_beside_a_cylinder() {
    let (a, b, c) = (0.650634765625f64, 9.5684814453125, 6.57379150390625);
    exercise::run(&[a, b, c]);
    let centre = Point3::new(b, c, a);
    let capsule = Capsule::new(centre, centre, b).unwrap();
    let cylinder = Cylinder::new(Point3::new(c, a, b), Point3::new(a, b, c), b).unwrap();
    let pairs = [
        (Shape::Capsule(&capsule), Shape::Cylinder(&cylinder)),
        (Shape::Cylinder(&cylinder), Shape::Capsule(&capsule)),
    ];
    for (first, (x, y)) in pairs.into_iter().enumerate() {
        let k = contact::<f64>(x, y, b, &mut PairCache::default()).unwrap().unwrap();
        let gap = (k.point_b - k.point_a - k.normal * k.distance).norm();
        assert!(gap < 1e-9, "{k:?}: {gap} off the normal");
        // The point on the capsule is its centre moved by the radius along the normal.
        let (on_capsule, towards) = if first == 0 { (k.point_a, k.normal) } else { (k.point_b, -k.normal) };
        assert!((on_capsule - (centre + towards * b)).norm() < 1e-9, "{k:?}");
    }
}
