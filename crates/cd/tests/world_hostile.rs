//! Arbitrary sequences of world operations with arbitrary numbers (NaN, infinities, huge and
//! tiny values): typed errors, never a panic, never a NaN in a body or a query answer. The same
//! exercise is the fuzz target `world_ops`.

mod exercise;

use proptest::prelude::*;

fn number() -> impl Strategy<Value = f64> {
    prop_oneof![
        6 => -10.0..10.0f64,
        1 => -1e6..1e6f64,
        1 => prop_oneof![
            Just(0.0), Just(-0.0), Just(f64::NAN), Just(f64::INFINITY), Just(f64::NEG_INFINITY),
            Just(1e-300), Just(1e9), Just(1e75), Just(1e76), Just(f64::MAX), Just(1e-9)
        ],
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("WORLD_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(300)
    ))]

    #[test]
    fn hostile_operation_sequences_never_panic_or_produce_nan(values in proptest::collection::vec(number(), 0..300)) {
        exercise::run(&values);
    }
}

/// Fuzz finding 35 (FUZZING.md): a fixed half-space turned by a quaternion with components of
/// 10⁻³⁰¹ and 10⁻³⁰⁵ has a unit normal with a subnormal component along a ray that runs parallel
/// to its boundary a million units away; the ray/plane division overflowed and `cast_ray_all`
/// reported a hit at t = ∞ with a NaN point. A plane not reached at any finite distance is a
/// miss.
#[test]
fn regression_ray_along_a_half_space_turned_by_subnormal_angles() {
    use cd::prelude::*;
    use nalgebra::{Isometry3, Point3, Quaternion, Translation3, UnitQuaternion, Vector3};
    let mut world = World::<f64>::default();
    let q = Quaternion::new(
        0.9999999883584678,
        7.629394501644053e-305,
        -0.00015258789003288106,
        4.999999941792339e-301,
    );
    let pose = Isometry3::from_parts(
        Translation3::new(1.33331298828125, -1000000.0, 0.07781982421875),
        UnitQuaternion::from_quaternion(q),
    );
    world.add(BodyDesc::fixed(ColliderShape::HalfSpace).with_pose(pose)).unwrap();
    let ray = cd::geom::Ray::new(
        Point3::new(8.70574951171875, 8.70574951171875, 0.11199951171875),
        Vector3::new(0.0, 0.0, 3.47137451171875),
    )
    .unwrap();
    for hit in world.cast_ray_all(&ray, &CollisionGroups::default()) {
        assert!(hit.t.is_finite() && hit.point.iter().all(|x| x.is_finite()), "{hit:?}");
    }
}

/// Fuzz finding 45 (FUZZING.md): a fixed half-space and a ray whose direction is (0, 10⁻³⁰⁰,
/// 10⁹): the plane is reached at a finite t = 1.6·10³⁰², but the point there has z = ∞.
/// `cast_ray_all` reported that hit; a plane met only beyond every representable point is a
/// miss.
#[test]
fn regression_ray_meeting_a_half_space_beyond_every_representable_point() {
    use cd::prelude::*;
    use nalgebra::{Isometry3, Point3, Quaternion, Translation3, UnitQuaternion, Vector3};
    let mut world = World::<f64>::default();
    let q = Quaternion::new(-0.6674361937157108, 0.0, -0.0, -0.7446669908880641);
    let pose = Isometry3::from_parts(
        Translation3::new(7.91015625, 7.90191650390625, 7.9052734375),
        UnitQuaternion::from_quaternion(q),
    );
    world.add(BodyDesc::fixed(ColliderShape::HalfSpace).with_pose(pose)).unwrap();
    let ray = cd::geom::Ray::new(
        Point3::new(-8.2354736328125, -8.2354736328125, -8.2159423828125),
        Vector3::new(0.0, 1e-300, 1e9),
    )
    .unwrap();
    let hits = world.cast_ray_all(&ray, &CollisionGroups::default());
    for hit in &hits {
        assert!(hit.t.is_finite() && hit.point.iter().all(|x| x.is_finite()), "{hit:?}");
    }
    // The same half-space along a unit direction is hit.
    let unit = cd::geom::Ray::new(*ray.origin(), Vector3::new(0.0, 1.0, 0.0)).unwrap();
    assert_eq!(world.cast_ray_all(&unit, &CollisionGroups::default()).len(), 1);
}
