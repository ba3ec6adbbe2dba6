//! Arbitrary point sets — NaN, infinities, huge, tiny, duplicate, collinear and coplanar points
//! included — through every builder: nothing panics, bad coordinates are refused, every volume
//! built holds every point. The same exercise is the `bv_builders` fuzz target.

mod exercise;

use proptest::prelude::*;

fn any_float() -> impl Strategy<Value = f64> {
    prop_oneof![
        12 => -10.0..10.0f64,
        // Few distinct values: duplicates, collinear and coplanar sets.
        4 => prop::sample::select(vec![0.0, 1.0, -1.0, 2.0]),
        1 => proptest::num::f64::ANY,
        1 => prop::sample::select(vec![
            0.0, -0.0, 1e-300, 1e-40, 1e-7, 1e6, 1e9, -1e9, 1e30, 1e75, 1e76, f64::MAX,
            f64::MIN_POSITIVE, f64::INFINITY, f64::NEG_INFINITY, f64::NAN,
        ]),
    ]
}

/// Mostly clean sets (so volumes get built and checked), some with bad numbers.
fn point_set() -> impl Strategy<Value = Vec<f64>> {
    prop_oneof![
        3 => proptest::collection::vec(prop_oneof![3 => -10.0..10.0f64, 1 => prop::sample::select(vec![0.0, 1.0, -1.0, 2.0])], 0..60),
        1 => proptest::collection::vec(any_float(), 0..60),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_points_never_panic_and_every_volume_holds_them(v in point_set()) {
        exercise::run(&v);
    }
}

/// Found by the `bv_builders` fuzz target: three points 7.7·10⁹ apart. Rounding put the third
/// a hair off the plane of the first three, the same point was picked again as the simplex's
/// fourth vertex, and Quickhull indexed a missing neighbour (a panic).
#[test]
fn regression_three_far_points_make_a_polygon_hull() {
    let v = [
        1e-06,
        0.0,
        0.0,
        -7711000000.0,
        481000000.0,
        -7711000000.0,
        0.0,
        -2.4200439453125,
        -2.35321044921875,
    ];
    exercise::run(&v);
    let points: Vec<nalgebra::Point3<f64>> =
        v.chunks_exact(3).map(|c| nalgebra::Point3::new(c[0], c[1], c[2])).collect();
    assert!(matches!(cd_bv::convex_hull(&points).unwrap(), cd_bv::Hull::Polygon(ref p) if p.len() == 3));
}

/// Found by the `bv_builders` fuzz target on its second run: five points up to 2.6·10¹⁰ apart
/// whose simplex rounding made flat; Quickhull walked to a missing neighbour (a panic). A hull
/// whose faces do not close up now falls back to the lower-dimensional hull.
#[test]
fn regression_flat_simplex_far_from_the_origin() {
    exercise::run(&[
        0.009471,
        0.0,
        -9.8748779296875,
        26241000000.0,
        -15999000000.0,
        385000000.0,
        0.0,
        4.64019775390625,
        -9.88250732421875,
        -9.88250732421875,
        0.030218,
        0.0048828125,
        0.0,
        -0.0,
        0.0,
    ]);
}

/// Fuzz finding 20 (`bv_builders`): 23 points spanning 10⁻⁴ to 2·10¹⁰. Quickhull's face normals
/// were crossed at the first vertex; on a sliver face that tilted the normal so far that two
/// points 4·10⁹ outside the hull were assigned to no face and lost. Normals are now crossed at
/// the widest angle; every point is within rounding of the hull.
#[test]
fn regression_hull_losing_points_beyond_a_sliver_face() {
    let points: [[f64; 3]; 23] = [
        [-0.00030517578125, -0.00030517578125, -0.00030517578125],
        [-0.00030517578125, -0.00030517578125, -0.00030517578125],
        [-0.00030517578125, -2.57843017578125, -5.6292724609375],
        [-5.64727783203125, -5.4119873046875, 3.85498046875],
        [-6.1151123046875, -20047000000.0, -15695000000.0],
        [-17734000000.0, 0.0, 0.0],
        [0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0],
        [1e-7, -0.017734, -20047000000.0],
        [-20047000000.0, -1000000.0, -0.00030517578125],
        [-0.00030517578125, -0.00030517578125, -0.00030517578125],
        [-2.57843017578125, -6.171875, -1000000.0],
        [-20047000000.0, -20047000000.0, -8482000000.0],
        [-9.296875, -9.25506591796875, -9.25506591796875],
        [-9.25506591796875, 0.01434326171875, -2.5885009765625],
        [3.9739990234375, -6.171875, -18505000000.0],
        [-5.41290283203125, -5.4119873046875, -5.45379638671875],
        [-6.11785888671875, -20047000000.0, -20030000000.0],
        [-5.4119873046875, 3.85498046875, -6.1151123046875],
        [-20047000000.0, -8482000000.0, -2.5885009765625],
        [-6.171875, -20047000000.0, -20047000000.0],
        [-20047000000.0, -2.5885009765625, 0.0],
    ];
    assert_solid_hull_holds(&points);
}

/// Fuzz finding 21 (against an experiment, never committed): assigning each orphaned point to
/// the *first* new face it is outside of, instead of the farthest, made Quickhull drop a point
/// of this set spanning 10⁻⁷ to 2·10¹⁰. The first face's margin was within the tolerance's
/// rounding, so the point looked inside every face of the next cone, while it lay well
/// outside an older face. The farthest face keeps the largest margin; this test keeps it so.
#[test]
fn regression_hull_dropping_a_point_assigned_to_a_barely_outside_face() {
    let points: [[f64; 3]; 32] = [
        [-0.00030517578125, -0.00030517578125, -2.57843017578125],
        [-5.69061279296875, -5.41290283203125, -5.3948974609375],
        [3.85498046875, -6.1151123046875, -20047000000.0],
        [-20047000000.0, -5.4119873046875, 3.85498046875],
        [-6.1151123046875, -20047000000.0, -20189000000.0],
        [-1000000.0, -0.076904296875, -0.00030517578125],
        [-0.00030517578125, -0.00030517578125, -0.00030517578125],
        [-6.11785888671875, -20047000000.0, -8527000000.0],
        [0.0677490234375, -2.65625, -2.5885009765625],
        [0.000249, -1000000.0, -0.00030517578125],
        [-0.00030517578125, -0.00030517578125, -0.00030517578125],
        [-0.00030517578125, -6.11785888671875, -20047000000.0],
        [-8527000000.0, -6.1041259765625, -20047000000.0],
        [-20043000000.0, -20047000000.0, -2.5885009765625],
        [0.0, -2.5885009765625, -0.4791259765625],
        [-20047000000.0, -20047000000.0, -8482000000.0],
        [0.0, 1e-7, -2.5885009765625],
        [-6.171875, -20047000000.0, -20047000000.0],
        [-20047000000.0, -2.5885009765625, 0.0],
        [-2.5885009765625, -0.00030517578125, -0.00030517578125],
        [-0.00030517578125, -6.11785888671875, -20047000000.0],
        [-8527000000.0, 0.0677490234375, -2.65625],
        [-2.5885009765625, 0.000249, -1000000.0],
        [-0.00030517578125, -0.00030517578125, -0.00030517578125],
        [-0.00030517578125, -0.00030517578125, -6.11785888671875],
        [-20047000000.0, -8527000000.0, -6.1041259765625],
        [-20047000000.0, -20043000000.0, -20047000000.0],
        [-2.5885009765625, 0.0, -2.5885009765625],
        [-0.4791259765625, -20047000000.0, -20047000000.0],
        [-8482000000.0, 0.0, 1e-7],
        [-2.5885009765625, -6.171875, -20047000000.0],
        [-20047000000.0, -20047000000.0, -2.5885009765625],
    ];
    assert_solid_hull_holds(&points);
}

/// Runs the exercise on `points` (coordinates up to 2.1·10¹⁰), then checks that their hull is
/// solid and holds every point to within the rounding of planes at that scale.
fn assert_solid_hull_holds(points: &[[f64; 3]]) {
    exercise::run(&points.concat());
    let points: Vec<nalgebra::Point3<f64>> = points.iter().map(|&c| c.into()).collect();
    let cd_bv::Hull::Polyhedron(hull) = cd_bv::convex_hull(&points).unwrap() else {
        panic!("a solid hull");
    };
    // Rounding of planes through coordinates of 2·10¹⁰: a few ulps of that scale.
    let tol = 1e-12 * 2.1e10;
    for p in &points {
        let worst = hull.faces().iter().map(|f| f.plane.signed_distance(p)).fold(f64::MIN, f64::max);
        assert!(worst <= tol, "{p:?} outside the hull by {worst:e}");
    }
}

/// Fuzz finding 29 (FUZZING.md): a tetrahedron with one vertex 2·10⁹ away and the others
/// within 10 of the origin. Its sliver faces got their planes from the centroid-based normal
/// sum of `ConvexPolyhedron`, which put a vertex 4,961 units outside one face. The checked
/// constructor had refused it; the hull builder's local check must too, or (now) get the
/// planes right: triangles cross the edges at their widest angle. The hull is accepted and
/// holds every point.
#[test]
fn regression_tetrahedron_with_one_far_vertex() {
    let points = [
        [0.0, 0.00732421875, 0.0],
        [2000000000.0, 2000000000.0, 2000000000.0],
        [-6.5240478515625, -6.510009765625, -6.510009765625],
        [-6.55029296875, 9.76348876953125, -0.00030517578125],
    ];
    exercise::run(&points.concat());
    let points: Vec<nalgebra::Point3<f64>> = points.iter().map(|&c| c.into()).collect();
    let hull = cd_bv::convex_hull_3d(&points).expect("a solid hull");
    for p in &points {
        let worst = hull.faces().iter().map(|f| f.plane.signed_distance(p)).fold(f64::MIN, f64::max);
        assert!(worst <= 1e-12 * 2e9, "{p:?} outside the hull by {worst:e}");
    }
}

/// Fuzz finding 30 (FUZZING.md): 18 points of a flat set spanning 2·10¹⁰ in two axes. Its hull
/// had sliver faces around one vertex whose normals were rounding noise; once the hull builder
/// stopped checking every vertex against every face, one such face came back with a vertex
/// 10¹⁰ outside it. The hull must now be refused (`NotConvex`) or hold every point.
#[test]
fn regression_flat_hull_with_sliver_faces() {
    exercise::run(&[
        -1.08123779296875,
        -5.64727783203125,
        -5.4119873046875,
        6.9317626953125,
        -17734000000.0,
        -20047000000.0,
        -20047000000.0,
        -17873000000.0,
        -5.4119873046875,
        -5.45379638671875,
        -6.11785888671875,
        -20047000000.0,
        -8527000000.0,
        0.0,
        1e-7,
        -2.5885009765625,
        -6.11785888671875,
        -18511000000.0,
        -5.4119873046875,
        3.85498046875,
        -6.1151123046875,
        -20047000000.0,
        -20047000000.0,
        -5.4119873046875,
        3.85498046875,
        -6.1151123046875,
        -20047000000.0,
        -20047000000.0,
        0.0677490234375,
        0.0,
        -2.5885009765625,
        -6.09588623046875,
        -20047000000.0,
        -20047000000.0,
        -2.5885009765625,
        0.0,
        -2.6446533203125,
        -2.5885009765625,
        -20047000000.0,
        -8527000000.0,
        0.0677490234375,
        0.0,
        -2.5885009765625,
        -20047000000.0,
        -2.5885009765625,
        0.0,
        -2.6446533203125,
        -2.5885009765625,
        -20047000000.0,
        -8527000000.0,
        0.0677490234375,
        0.0,
        -2.5885009765625,
        0.07598876953125,
    ]);
}

/// Fuzz finding 32 (FUZZING.md): another flat set spanning 2·10¹⁰ (54 points). Its hull passed
/// the check across edges and the sliver rule of findings 29 and 30 with a point outside a
/// face; thin hulls now get the global check.
#[test]
fn regression_flat_hull_passing_the_local_checks() {
    exercise::run(&[
        -1.08123779296875,
        -5.64727783203125,
        -5.4119873046875,
        6.9317626953125,
        -17734000000.0,
        -20047000000.0,
        -20047000000.0,
        -17734000000.0,
        6.9317626953125,
        10682000000.0,
        -20047000000.0,
        -20047000000.0,
        -8482000000.0,
        0.0,
        -2.5885009765625,
        -0.4791259765625,
        -20047000000.0,
        -17737000000.0,
        -5.4119873046875,
        -5.45379638671875,
        -6.11785888671875,
        -20047000000.0,
        -17743000000.0,
        -5.4119873046875,
        -5.45379638671875,
        -6.11785888671875,
        -20047000000.0,
        -8527000000.0,
        0.0,
        0.0,
        -2.5885009765625,
        -0.4791259765625,
        -20047000000.0,
        -17737000000.0,
        -5.4119873046875,
        -5.45379638671875,
        -6.11785888671875,
        -20047000000.0,
        -17743000000.0,
        -5.4119873046875,
        -5.45379638671875,
        -6.11785888671875,
        -20047000000.0,
        -8527000000.0,
        0.0,
        1e-7,
        -2.5885009765625,
        -6.11785888671875,
        -20047000000.0,
        -8527000000.0,
        0.0677490234375,
        0.0,
        -20047000000.0,
        -8527000000.0,
        0.0,
        1e-7,
        -2.5885009765625,
        -6.11785888671875,
        -18511000000.0,
        -5.4119873046875,
        3.85498046875,
        -6.1151123046875,
        -20047000000.0,
        -20047000000.0,
        -5.4119873046875,
        3.85498046875,
        -6.1151123046875,
        -3663000000.0,
        -20047000000.0,
        0.0677490234375,
        0.0,
        -2.5885009765625,
        -6.09588623046875,
        -8666000000.0,
        -2.5885009765625,
        -1000000.0,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -2.50030517578125,
        -0.00030517578125,
        -0.1263427734375,
        -0.07781982421875,
        0.0,
        -6.14349365234375,
        -20047000000.0,
        -8527000000.0,
        0.0677490234375,
        0.0,
        -20047000000.0,
        -8527000000.0,
        0.0,
        1e-7,
        -2.5885009765625,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        -20047000000.0,
        -5.4119873046875,
        6.9317626953125,
        -17734000000.0,
        -20047000000.0,
        -20047000000.0,
        -17734000000.0,
        6.9317626953125,
        -17734000000.0,
        -20047000000.0,
        -20047000000.0,
        -8482000000.0,
        0.0,
        -2.5885009765625,
        -0.4791259765625,
        9905000000.0,
        0.0,
        -20047000000.0,
        -8527000000.0,
        0.0,
        1e-7,
        -2.5885009765625,
        0.0,
        0.0,
        0.0,
        -2.5885009765625,
        -0.4791259765625,
        9905000000.0,
        -2.5885009765625,
        -6.11785888671875,
        -20047000000.0,
        -2.5885009765625,
        0.0,
        -2.5885009765625,
        -6.11785888671875,
        -8482000000.0,
        0.0,
        1e-7,
        -2.5885009765625,
        -6.11785888671875,
        -20047000000.0,
        -2.5885009765625,
        0.0,
        -2.5885009765625,
        -0.4791259765625,
    ]);
}

/// Found right after finding 32's thin-solid rule (FUZZING.md, finding 32): a flat set whose
/// hull still passed every cheaper check with a point outside. The hull builder went back to
/// the global every-vertex check, which refuses it.
#[test]
fn regression_flat_hull_after_the_thin_solid_rule() {
    exercise::run(&[
        -1.08123779296875,
        -5.64727783203125,
        1e-7,
        6.9317626953125,
        -17734000000.0,
        -20047000000.0,
        -17743000000.0,
        -20038000000.0,
        6.9317626953125,
        -17734000000.0,
        -20047000000.0,
        -20047000000.0,
        -1000000.0,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -6.11785888671875,
        -20047000000.0,
        -8527000000.0,
        0.0677490234375,
        -2.65625,
        -2.5885009765625,
        0.000249,
        -20163000000.0,
        -19023000000.0,
        -79000000.0,
        -0.00030517578125,
        -0.00030517578125,
        -6.09405517578125,
        -8665000000.0,
        -6.09588623046875,
        -20047000000.0,
        -20224000000.0,
        -6.11785888671875,
        0.006103515625,
        0.0,
        0.0,
        1e-7,
        -2.5885009765625,
        -6.171875,
        -20047000000.0,
        -20047000000.0,
        -20047000000.0,
        -2.5885009765625,
        0.0,
        0.23529052734375,
        0.23529052734375,
        0.23529052734375,
        -2.65533447265625,
        5.10955810546875,
        -2.67242431640625,
        -5.67779541015625,
        1e-7,
        6.9317626953125,
        -17734000000.0,
        -20047000000.0,
        -17743000000.0,
        -20038000000.0,
        6.9317626953125,
        -17734000000.0,
        -20047000000.0,
        -20047000000.0,
        -1000000.0,
        3.85498046875,
        -6.1151123046875,
        -20047000000.0,
        -20047000000.0,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -8701000000.0,
        5.10955810546875,
        -2.67242431640625,
        3.69720458984375,
        1e-7,
        -0.4791259765625,
    ]);
}

/// Fuzz finding 33 (FUZZING.md): a flat set spanning 2·10¹⁰ whose hull was accepted with an
/// input point 2·10⁵ outside a face: rounding folded three slivers around a hull vertex, and the
/// coplanar merge swallowed the vertex inside the merged polygon.
#[test]
fn regression_flat_set_hull_misses_a_point() {
    exercise::run(&[
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.01983642578125,
        -2.57843017578125,
        -5.6292724609375,
        -5.64727783203125,
        -5.39520263671875,
        3.85498046875,
        -6.1151123046875,
        -20047000000.0,
        -15695000000.0,
        -17734000000.0,
        6.9317626953125,
        -17734000000.0,
        1e-7,
        6.1175537109375,
        -0.390625,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -2.57843017578125,
        -6.171875,
        -20047000000.0,
        -1000000.0,
        -20046000000.0,
        -2.5885009765625,
        -0.012033,
        2.64495849609375,
        -8667000000.0,
        0.0732421875,
        -18511000000.0,
        -5.64727783203125,
        -5.4119873046875,
        3.88214111328125,
        -6.14501953125,
        -6.11785888671875,
        -2.57843017578125,
        -5.6292724609375,
        -5.64727783203125,
        5.41168212890625,
        3.85498046875,
        -6.1151123046875,
        -20047000000.0,
        -15695000000.0,
        -17734000000.0,
        6.9317626953125,
        -17734000000.0,
        -20047000000.0,
        -20047000000.0,
        -1000000.0,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.0103759765625,
        -0.00030517578125,
        -6.171875,
        -1000000.0,
        -20047000000.0,
        -20047000000.0,
        -20002000000.0,
        -20030000000.0,
        -5.4119873046875,
        3.85498046875,
        -6.1151123046875,
        -20047000000.0,
        -8482000000.0,
        -2.5885009765625,
        0.00030517578125,
        0.0,
        0.0,
        -20047000000.0,
        -2.5885009765625,
        0.0,
        -2.5885009765625,
        -0.4791259765625,
    ]);
}
