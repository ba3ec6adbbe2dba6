//! Arbitrary triangle soups (degenerate, huge, tiny, bad numbers) through every builder, with
//! ray, box, closest-point and mesh-mesh queries checked against brute force. The same
//! exercise is the `mid_queries` fuzz target.

mod exercise;

use cd_geom::{Ray, Triangle};
use nalgebra::{Point3, Vector3};
use proptest::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

const CASES: u32 = 300;
static RUN: AtomicUsize = AtomicUsize::new(0);

fn any_float() -> impl Strategy<Value = f64> {
    prop_oneof![
        12 => -4.0..4.0f64,
        3 => prop::sample::select(vec![0.0, 1.0, -1.0, 0.5]),
        1 => proptest::num::f64::ANY,
        1 => prop::sample::select(vec![
            0.0, -0.0, 1e-300, 1e-7, 1e6, 1e9, -1e9, 1e30, 1e75, 1e76, f64::MAX,
            f64::INFINITY, f64::NEG_INFINITY, f64::NAN,
        ]),
    ]
}

/// Mostly clean soups (so hierarchies get built and queried), some with bad numbers, and some
/// whose coordinates all come from a pool of two to four values: vertices on a small lattice,
/// so triangles share vertices, edges and planes, and rays run along them (80,000 such soups
/// passed when this was added).
fn soup() -> impl Strategy<Value = Vec<f64>> {
    let pooled = proptest::collection::vec(-4.0..4.0f64, 2..5)
        .prop_flat_map(|pool| proptest::collection::vec(prop::sample::select(pool), 16..150));
    prop_oneof![
        4 => proptest::collection::vec(-4.0..4.0f64, 16..150),
        1 => proptest::collection::vec(any_float(), 16..150),
        1 => pooled,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: CASES, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_soups_answer_like_brute_force(v in soup()) {
        exercise::run(&v);
        if RUN.fetch_add(1, Ordering::Relaxed) + 1 == CASES as usize {
            let built = exercise::BUILT.load(Ordering::Relaxed);
            prop_assert!(built * 2 >= CASES as usize, "only {} of {} cases built a hierarchy", built, CASES);
        }
    }
}

/// Found by the `mid_queries` fuzz target: a ray starting exactly on the edge of a 2.4·10¹⁰-long
/// sliver triangle. Möller–Trumbore counts it as a hit at t = 0, the watertight test the mesh
/// uses does not; the oracle now uses the mesh's own triangle test, so this checks the tree.
#[test]
fn regression_ray_starting_on_a_long_sliver_triangle() {
    exercise::run(&[
        -3519000000.0,
        -0.00030517578125,
        -0.03570556640625,
        -0.00030517578125,
        -0.00030517578125,
        2000000000.0,
        -0.00030517578125,
        -7.96905517578125,
        -0.00030517578125,
        -1000000.0,
        -0.07843017578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00152587890625,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        0.00091552734375,
        0.0,
        -24159000000.0,
        -0.00030517578125,
        -0.00030517578125,
        1.40594482421875,
    ]);
}

/// Found by the `mid_queries` fuzz target on its second run: a triangle 10⁻³⁰⁰ outside the
/// query box, which `triangle_aabb` (conservative by a few ulps) counts and the tree's exact box
/// culling does not; the oracle now asks for the triangle's box to meet the region as well.
#[test]
fn regression_triangle_a_hair_outside_the_query_box() {
    exercise::run(&[
        -7.421875,
        -24159000000.0,
        0.0,
        0.0,
        0.0,
        1e-300,
        0.0,
        0.0,
        1e-300,
        -24159000000.0,
        -24159000000.0,
        -24159000000.0,
        -24159000000.0,
        -24159000000.0,
        -24159000000.0,
        -24159000000.0,
        -24159000000.0,
        -24159000000.0,
        161000000.0,
        0.0,
        0.0,
        0.0,
        -7.421875,
        -24159000000.0,
        0.0,
        0.0,
    ]);
}

/// Found by the `mid_queries` fuzz target: a ray starting exactly on a vertex of a triangle
/// (a hit at t = 0), with direction (10⁻³⁰⁰, 0, −2.4·10¹⁰), was missed by the median-built
/// hierarchy.
#[test]
fn regression_ray_starting_on_a_vertex_with_a_tiny_direction_component() {
    exercise::run(&[
        -7.421875,
        3000000.0,
        0.0,
        0.0,
        0.0,
        1e-300,
        0.0,
        -24320000000.0,
        -24159000000.0,
        -24159000000.0,
        -24159000000.0,
        1e-300,
        -7.37274169921875,
        -24159000000.0,
        -24159000000.0,
        13729000000.0,
        -0.62774658203125,
        -0.62774658203125,
        -0.62774658203125,
        -0.62774658203125,
        5.333251953125,
        5.333251953125,
        -0.62774658203125,
        -7.4041748046875,
        -24159000000.0,
        -24159000000.0,
        -24159000000.0,
        6.66656494140625,
        0.18218994140625,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
    ]);
}

/// Found by this property test (2026-11-24): a region from x = 1.27 to 10³⁰, flat in y and z,
/// against a mesh of two zero-area triangles. The tree listed the one at x = 0: cd-geom's
/// `triangle_aabb` compared the triangle's bounds in the box-centred frame, where the box's
/// lower bound 1.27 is lost in its centre 5·10²⁹. The box axes are now compared exactly.
#[test]
fn regression_region_ten_to_the_thirty_long() {
    let mut v = vec![0.0; 34];
    v[1] = 1.0957241075133486;
    v[8] = 1.268760286641242;
    v[9] = -1.0200436551946093;
    v[11] = 1e30;
    v[16] = 2.4399834536371445;
    v[32] = -1.1825327451843324;
    exercise::run(&v);
}

/// Fuzz finding 24 (FUZZING.md): a degenerate triangle (a segment from (0.94, 0.94, 0.94) up
/// the z axis) lying exactly along an edge of the query box, whose minimum corner is its end.
/// The tree reported it; `triangle_aabb`, the brute-force oracle, did not: its edge-axis tests
/// run in the box-centred frame, where the segment came out an ulp beyond the box's radius.
#[test]
fn regression_segment_along_an_edge_of_the_query_box() {
    exercise::run(&[
        0.078125,
        0.0,
        0.941162109375,
        0.941162109375,
        0.941162109375,
        0.941162109375,
        0.941162109375,
        0.941162109375,
        0.941162109375,
        0.941162109375,
        0.941162109375,
        2.6666259765625,
        -0.024576,
        2.65625,
        0.008738,
        0.0,
        0.941162109375,
        0.941162109375,
        0.941162109375,
        0.941162109375,
        0.941162109375,
        0.941162109375,
        0.941162109375,
        0.941162109375,
        2.659912109375,
        3.4e-5,
        0.0,
        2.659912109375,
        -0.000222,
        -0.00030517578125,
        -0.00030517578125,
        2.6666259765625,
        0.008738,
        0.008957999999999999,
    ]);
}

/// Fuzz finding 25 (FUZZING.md): a ray from the origin along (0, 10⁻³⁰⁰, −9.26) ends exactly on
/// a triangle lying in the plane z = −9.26 (a hit at t = 1, at a corner of the triangle's
/// box). Brute force found it; the tree did not: the slab parameters `(bound − o)·(1/d)` of the
/// root box rounded the entry an ulp past the exit.
#[test]
fn regression_ray_ending_on_a_triangle_at_a_corner_of_its_box() {
    exercise::run(&[
        19088000000.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        1e-300,
        -9.25506591796875,
        -9.25506591796875,
        -9.25506591796875,
        -9.25506591796875,
        -9.25506591796875,
        -9.25506591796875,
        -9.25506591796875,
        -9.25506591796875,
        -9.25506591796875,
        0.0,
        0.0,
        -9.25506591796875,
        0.0,
        1e-300,
        -9.25506591796875,
        -9.25506591796875,
        -9.25506591796875,
        -9.25506591796875,
        -9.25506591796875,
    ]);
}

/// Fuzz finding 26 (FUZZING.md): an 8.7·10⁹-long sliver in the plane z = −3·10⁻⁴ and a ray
/// from (10⁹, 4.3, 4.3) along (1, 1, 1). Brute force over `ray_triangle_watertight` reported
/// a hit at t = 6,944, 40,000 units from the triangle (the tree, culling by boxes, did not):
/// the hit parameter interpolated sheared depths that cancelled.
#[test]
fn regression_sliver_hit_far_off_its_box() {
    exercise::run(&[
        14335000000.0,
        4.31365966796875,
        1000000000.0,
        4.31365966796875,
        4.31365966796875,
        4.31365966796875,
        4.31365966796875,
        4.31365966796875,
        4.31365966796875,
        4.31365966796875,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.15655517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.001220703125,
        -0.00030517578125,
        0.0,
        0.0,
        0.0,
        0.0,
        8.04656982421875,
        0.23406982421875,
        257000000.0,
        9.17633056640625,
        9.14093017578125,
        9.17633056640625,
        9.17633056640625,
        9.17633056640625,
        9.17633056640625,
        8705000000.0,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.001220703125,
        -0.00030517578125,
        1e-7,
    ]);
}

/// Fuzz finding 27 (FUZZING.md): a triangle lying in the face y = min y of a query box 10⁻⁶
/// thick. The tree listed it (touching counts); `triangle_aabb`, the oracle, did not: its
/// plane test, in the box-centred frame, put the plane an ulp beyond the half-thickness.
#[test]
fn regression_triangle_in_a_face_of_the_query_box() {
    exercise::run(&[
        0.078125,
        0.0,
        0.008738,
        8.173828125,
        f64::NAN,
        1.6510009765625,
        0.0,
        0.008738,
        0.008738,
        0.008738,
        -1e-06,
        2.73406982421875,
        -1e-06,
        2.6666259765625,
        11520000000.0,
        2.66021728515625,
        0.03229,
        -0.000222,
        2.6666259765625,
        11520000000.0,
        2.66021728515625,
        0.03229,
        -1.9427490234375,
        11520000000.0,
        2.66021728515625,
        0.03229,
        0.008738,
        0.008738,
        0.008738,
        0.008738,
        0.0,
        0.008738,
        0.008738,
        0.008738,
        1e+75,
        -0.00030517578125,
        1.0528564453125,
        0.008738,
        2.6666259765625,
        2.73406982421875,
        1e-06,
        1.02935791015625,
        0.008738,
        2.6666259765625,
    ]);
}

/// Fuzz finding 28 (FUZZING.md): a ray starting on a triangle's vertex at the origin (a hit
/// at t = 0), leaving the triangle's box through its corner there. The wide tree missed it:
/// its quantized slab parameter `α + q·β` for that corner came out −10⁻¹⁹ instead of 0, an
/// absolute rounding error no relative slack on the exit covers.
#[test]
fn regression_ray_leaving_a_box_corner_at_its_start() {
    exercise::run(&[
        1000000000.0,
        -0.0,
        0.0,
        0.0,
        0.0,
        -0.05279541015625,
        4.58526611328125,
        -0.00030517578125,
        2.542724609375,
        2000000000.0,
        2000000000.0,
        -9.019775390625,
        -7.301025390625,
        0.010914,
        -0.023902,
        -0.023902,
        -0.023902,
        -0.023902,
        -0.023902,
        1e-07,
        -0.023902,
        -0.023910999999999998,
        -0.023902,
        -0.023902,
        -0.023902,
        -0.023902,
        -0.023902,
        -0.023894,
        -0.023902,
        -0.023902,
        0.022366,
        0.0,
        0.0,
        0.0,
        -0.023902,
        -0.023902,
        -0.023915,
        -0.023902,
        -0.023902,
        -0.023902,
        -0.023902,
        0.023902,
        -0.023902,
        -0.023902,
        -0.023902,
        -9.019775390625,
        -9.019775390625,
        -9.02099609375,
        -0.035400390625,
        -0.00030517578125,
        0.042724609375,
    ]);
}

/// Fuzz finding 37 (FUZZING.md): one 1.6·10¹⁰-long sliver and a ray almost parallel to its
/// plane, moving away from its box. The tree culled the box correctly; the brute-force oracle,
/// the watertight ray/triangle test, reported a hit 3.5·10⁶ units beyond the sliver.
#[test]
fn regression_watertight_hit_outside_a_sliver() {
    exercise::run(&[
        2.0391845703125,
        2.0391845703125,
        2.0904541015625,
        2.0391845703125,
        2.0391845703125,
        2.0391845703125,
        2.0391845703125,
        2.0391845703125,
        2.0391845703125,
        2.0391845703125,
        2.0391845703125,
        6682000000.0,
        2.0391845703125,
        2.0391845703125,
        -4.9139404296875,
        -15935000000.0,
        -15935000000.0,
        -15935000000.0,
        -15423000000.0,
        2.10113525390625,
        2.0391845703125,
        0.07781982421875,
        0.0,
        -0.00030517578125,
        -0.00030517578125,
        2.03216552734375,
        1.953125,
        6682000000.0,
    ]);
}

/// Found right after finding 37's first fix: a ray starting three ulps (at 1.6·10¹⁰) outside a
/// sliver's box, whose plane the fallback met at t = 0. The box test of the fix allowed four
/// ulps of the coordinates and called it a hit; the tree's slab test rightly culled the box.
/// The box test now allows an ulp of the point and four of the distance travelled.
#[test]
fn regression_watertight_hit_at_the_origin_just_outside_a_sliver_box() {
    exercise::run(&[
        2.0391845703125,
        0.0079345703125,
        -15935000000.0,
        -15935000000.0,
        -15935000000.0,
        -15935000000.0,
        -15935000000.0,
        -15935000000.0,
        -15935000000.0,
        -15935000000.0,
        0.4705810546875,
        0.4705810546875,
        0.54656982421875,
        -20047000000.0,
        -20047000000.0,
        -20047000000.0,
        -20047000000.0,
        -20047000000.0,
        -20047000000.0,
        -1103000000.0,
        -0.1971435546875,
        -0.00030517578125,
        9.60906982421875,
        -0.0408935546875,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.06500244140625,
        -0.00030517578125,
        -0.01373291015625,
        -0.06500244140625,
        -0.00030517578125,
        -6.11785888671875,
        -20047000000.0,
        0.0,
        1e75,
        -0.00030517578125,
        -0.00030517578125,
        2.10906982421875,
        2.0391845703125,
        2.0391845703125,
        2.0391845703125,
        2.0391845703125,
        2.0391845703125,
        2.0391845703125,
        5.8673095703125,
        2.0391845703125,
        2.0391845703125,
        -2.1014404296875,
        2.0391845703125,
        -0.00030517578125,
        9.60906982421875,
        2.0391845703125,
        2.0391845703125,
        0.0860595703125,
        0.0,
        2.0391845703125,
        2.0391845703125,
        2.0391845703125,
    ]);
}

/// Fuzz finding 38 (FUZZING.md): a ray from the origin along +z, and a triangle with a vertex
/// at (0, 10⁻³⁰⁰, 0) whose other two lie 2.9·10¹⁰ away in y. One edge function is the product
/// 10⁻³⁰⁰ · 10⁻³⁰⁰, which underflows to zero even when recomputed exactly in `f64`, so the
/// watertight test saw two zero edge functions and one negative and called the origin — 10⁻³⁰⁰
/// outside the triangle's box — a hit at t = −0; the tree's box test rightly culled it. The
/// recomputation now scales such factors before deciding the sign.
#[test]
fn regression_watertight_edge_function_that_underflows() {
    let mut v = vec![321000000.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1000000.0];
    v.extend([0.0; 8]);
    v.extend([1e-300, 29041000000.0, 0.0, 0.0, 29041000000.0, 113000000.0, 0.0, 1e-300, 0.0]);
    exercise::run(&v);
}

/// Fuzz finding 39 (FUZZING.md): one triangle in the plane y = 0 with an edge along the x axis,
/// and a ray starting 10⁻³⁰⁰ above that edge, heading down and away from the triangle in z.
/// Geometrically it crosses the plane 10⁻³⁰⁰ outside the edge, but the watertight test's shear
/// rounds that offset away and reports an edge hit at t ≈ 1.8·10⁻³⁰¹ (watertight, as
/// documented). A one-leaf hierarchy tested rays against the triangle's exact box, which the
/// ray misses by the same 10⁻³⁰⁰, where every wide node's quantized boxes are grown by a
/// margin. The box test shared by the one-leaf case and the binary walk
/// (`VolumeRay::enter_box`) now grows the box by the ray's rounding pad (`rounding_pad`).
#[test]
fn regression_one_leaf_tree_and_a_hit_just_outside_its_box() {
    let mut v = vec![0.8624267578125, 0.78216552734375, 0.0030517578125, 1e-300, 0.0, -18575000000.0];
    v.extend([-5.64727783203125, -5.64727783203125]);
    v.extend([0.0; 8]);
    v.extend([0.0, 0.0, 770000000.0, 0.78460693359375, 0.0, 0.0, 0.0, 0.0, 0.0]);
    exercise::run(&v);
}

/// Fuzz finding 40: a triangle in the plane y = 0 and a ray from y = 10⁻³⁰⁰ leaving along +y.
/// The watertight test's hit parameter underflowed to −0 and passed `t ≥ 0`, so brute force
/// "hit" a triangle behind the origin that the k-DOP walk rightly culled. The test now decides
/// "behind" from the signs of the weights and depths.
#[test]
fn regression_triangle_behind_the_origin_by_an_underflowing_distance() {
    let mut v =
        vec![1601000000.0, 0.78216552734375, 0.0030517578125, 1e-300, 0.0, 0.0, 0.13946533203125, 0.0, 0.0];
    v.extend([f64::INFINITY, -0.00030517578125, 0.00030517578125, 0.0, 0.0, 0.0, 0.0]);
    v.extend([0.0, 0.0, 1e-300]);
    v.extend([0.0; 17]);
    v.extend([1e-300, 12401000000.0]);
    v.extend([0.0; 9]);
    exercise::run(&v);
}

/// Fuzz finding 41: a ray from (2.9·10¹⁰)³ along −(1, 1, 1) crosses a 9-wide, 5.7·10¹⁰-long
/// sliver on its edge at the origin. The watertight test's interpolated depth put the hit 816
/// units from the sliver (outside its box), nearer than the true first hit (a small triangle
/// at 0.94), so brute force disagreed with both walks, which culled the sliver's box. A hit
/// outside the triangle's box now takes its parameter from the triangle's plane.
#[test]
fn regression_sliver_hit_far_from_the_ray_origin_stays_on_the_sliver() {
    let mut v = vec![16705000000.0, 29041000000.0, 29041000000.0, 29041000000.0, 29041000000.0];
    v.extend([-0.00030517578125; 3]);
    v.extend([0.0; 8]);
    // The small triangle hit first, the sliver, and a triangle through the origin.
    v.extend([-9.019775390625, 0.941162109375, 5.472412109375, 0.941162109375, 0.941162109375]);
    v.extend([0.941162109375, 0.941162109375, -0.00030517578125, -0.00030517578125]);
    v.extend([
        27969000000.0,
        0.0,
        0.0,
        16705000000.0,
        -9.019775390625,
        0.042724609375,
        -29556000000.0,
        0.0,
        0.0,
    ]);
    v.extend([0.0, 0.0, 0.0, 2000000000.0, 0.0, 0.0, 5.120849609375, 16705000000.0, -20623000000.0]);
    exercise::run(&v);
}

/// Fuzz finding 42: the ray of finding 41 (from (2.9·10¹⁰)³ along −(1, 1, 1)) hits a triangle
/// 3·10⁻⁴ across at its corner (−3·10⁻⁴)³. The OBB fitted to the triangle is padded by ulps of
/// its own size; the ray's rounding in the box's frame is ulps of 2.9·10¹⁰, so the exact slab
/// test missed the corner and the OBB tree's binary walk lost the hit. Every volume's ray test
/// now grows it by the ray's rounding pad, 16 ulps of the origin's offset from the scene
/// (`rounding_pad`).
#[test]
fn regression_corner_hit_from_far_away_through_fitted_volumes() {
    let mut v = vec![16705000000.0, 29041000000.0, 29041000000.0, 29041000000.0, 29041000000.0];
    v.extend([-0.00030517578125; 3]);
    v.extend([0.0; 8]);
    let q = -0.00030517578125;
    v.extend([0.0, q, 0.0, 0.0, q, q, q, q, q]);
    exercise::run(&v);
}

/// Fuzz finding 43: a ray along +x starting 0.043 past a vertex of a 3·10¹⁰-wide triangle whose
/// plane it nearly grazes. The watertight test took the plane's offset from a vertex 4·10¹⁰
/// away, where it cancelled to 0, and put the origin on the triangle (t = 0, a point off the
/// triangle); the ball tree's binary walk rightly culled it. The offset now comes from the
/// nearest vertex: no hit anywhere.
#[test]
fn regression_grazing_ray_past_a_vertex_of_a_huge_triangle() {
    let mut v = vec![0.0, 0.0, 8.90594482421875, 29041000000.0, 29041000000.0, 1393000000.0, 0.0, 0.0];
    v.extend([0.0; 8]);
    v.extend([-5.1910400390625, -6.6668701171875, -6.6668701171875]);
    v.extend([8.86260986328125, 29041000000.0, 29041000000.0]);
    v.extend([16753000000.0, -9.01336669921875, -9.019775390625]);
    exercise::run(&v);
}

/// Fuzz finding 44: a ray down the z axis, lying in the plane of a sliver 1.3·10¹⁰ long (two
/// vertices on the axis, 10⁻³⁰⁰ apart across it, the third 8 units beside it). The sheared
/// depths straddle the origin, and the plane's parameter came from rounding noise: a "hit" 8
/// units off the sliver but inside its box, which the OBB tree culled. A ray within the
/// normal's rounding of lying in the plane now misses, as an exactly coplanar one does.
#[test]
fn regression_ray_in_the_plane_of_a_sliver() {
    let mut v = vec![0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.0, -8.59039306640625];
    v.extend([0.0; 8]);
    v.extend([1e-300, 0.0, 12657000000.0, 0.0, 0.0, 2000000000.0]);
    v.extend([5.72540283203125, 5.72540283203125, -8.57147216796875]);
    exercise::run(&v);
}

/// Fuzz finding 67 (FUZZING.md): two `f32` slivers sharing a vertex, and a ray from near the
/// origin along −(1, 1, 1) through that vertex, grazing both planes. The watertight test took
/// the hit parameter from the plane (the triangles reach behind the origin), off by 0.03 for
/// that grazing angle, which put one hit 2.6·10⁻⁴ outside its sliver and its OBB: the OBB
/// tree's walk culled it and answered the other triangle's 290.1627 where brute force had
/// 290.1478. The plane's parameter is now clamped to the ray's interval in the triangle's
/// prism, so the hit is at the shared vertex, 290.1774.
#[test]
fn regression_grazing_ray_through_a_vertex_two_slivers_share() {
    let mut v = vec![0.012605];
    v.extend([-0.028014; 8]);
    v.push(-8.5491943359375);
    v.extend([-0.028014; 6]);
    v.extend([0.028306, 8.15826416015625, 8.15673828125]);
    v.extend([-8.15704345703125; 3]);
    v.extend([-8.16986083984375, -8.15704345703125, -8.15704345703125]);
    v.extend([-8.15704345703125; 4]);
    v.extend([-0.028014, -0.00030517578125, -0.00030517578125, -8.57147216796875, -8.57147216796875]);
    assert_eq!(v.len(), 34);
    exercise::run(&v);
    // The sliver's own hit now lies near the vertex, where exact arithmetic puts it.
    let p = |i: usize| Point3::new(v[16 + 3 * i] as f32, v[17 + 3 * i] as f32, v[18 + 3 * i] as f32);
    let tri = Triangle::new(p(0), p(1), p(2)).unwrap();
    let ray = Ray::new(
        Point3::new(-0.028014f32, -0.028014, -0.028014),
        Vector3::new(-0.028014f32, -0.028014, -0.028014),
    )
    .unwrap();
    let hit = cd_geom::ray_triangle_watertight(&ray, &tri).expect("the ray passes through a vertex");
    let exact = (8.15704345703125f64 - 0.028014f32 as f64) / 0.028014f32 as f64;
    // (The plane alone put it 0.0296 early; within the prism's rounding it is 0.001 early.)
    assert!((hit.t as f64 - exact).abs() < 5e-3, "t = {} vs {exact}", hit.t);
}

/// Fuzz finding 69 (FUZZING.md): an `f32` ray along −(1, 1, 1) lying almost in the plane of a
/// triangle 8 units across, the whole triangle ahead of the origin. Its
/// interpolated hit parameter came out beyond the true one (the point outside the box, so the
/// plane gave the parameter), and the closest-hit search's limit, already at another
/// triangle's hit 24 later, was compared with that interpolated value first: `hit_within`
/// dropped the nearer hit that `hit` reports, and the binary walk answered 19276 where brute
/// force had 19251.7.
#[test]
fn regression_limit_compared_before_the_grazing_fallback() {
    exercise::run(&[
        0.012589,
        -0.028013999999999997,
        0.15594482421875,
        0.0,
        0.0,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -9.92218017578125,
        -0.00030517578125,
        -0.00030517578125,
        -8.51593017578125,
        -0.028013999999999997,
        -5.56884765625,
        0.0,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.0390625,
        -0.00030517578125,
        -0.00030517578125,
        -8.5491943359375,
        -0.018286,
        -5.56884765625,
        -5.56884765625,
        -5.56884765625,
        -5.56884765625,
        -0.028013999999999997,
        -0.028013999999999997,
        -0.028013999999999997,
        -8.5491943359375,
        -0.028013999999999997,
        -0.028013999999999997,
        -0.028013999999999997,
        -0.028013999999999997,
        -0.028013999999999997,
        -0.00030517578125,
        -0.00030517578125,
        8.525390625,
        8.31451416015625,
        -0.00010999999999999999,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.028013999999999997,
        -0.028013999999999997,
        -0.026729,
        -8.15704345703125,
        -8.15704345703125,
        0.04608154296875,
        0.00030517578125,
        0.0,
        0.0,
        -5.882568359375,
        -5.882568359375,
        -5.882568359375,
        -5.882568359375,
        -5.882568359375,
        -5.882568359375,
        -5.882568359375,
        -5.570068359375,
        -5.56884765625,
        -5.56884765625,
        -5.56884765625,
        -0.028013999999999997,
        -0.028013999999999997,
        -0.028013999999999997,
        -8.5491943359375,
        -0.028013999999999997,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        -1000000.0,
        0.07781982421875,
        -8.5491943359375,
        -0.028013999999999997,
        -0.028013999999999997,
        -0.028013999999999997,
        -0.028013999999999997,
        0.028305999999999998,
        8.54888916015625,
        8.54888916015625,
        -8.5491943359375,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -0.00030517578125,
        -8.5491943359375,
        0.00030517578125,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        -5.882568359375,
        -5.882568359375,
        -5.882568359375,
        -5.882568359375,
        -5.882568359375,
        -5.882568359375,
        -5.804443359375,
        -5.882568359375,
        -5.882568359375,
        -5.882568359375,
        -8.148193359375,
        -8.15704345703125,
        -8.20098876953125,
        -8.15704345703125,
        -8.15704345703125,
        8.54888916015625,
        -8.5614013671875,
        -0.00010999999999999999,
        -8.51593017578125,
        -0.028013999999999997,
        0.013101,
    ]);
}
