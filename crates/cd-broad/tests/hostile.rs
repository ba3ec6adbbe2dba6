//! Arbitrary operation sequences with arbitrary numbers through every broad phase, checked
//! against brute force after every step. The same exercise is the `broad_ops` fuzz target.

mod exercise;

use proptest::prelude::*;

fn any_float() -> impl Strategy<Value = f64> {
    prop_oneof![
        12 => -10.0..10.0f64,
        3 => prop::sample::select(vec![0.0, 0.5, 1.0, -1.0]),
        1 => proptest::num::f64::ANY,
        1 => prop::sample::select(vec![
            0.0, -0.0, 1e-300, 1e-7, 1e6, 1e9, -1e9, 1e30, 1e75, 1e76, f64::MAX,
            f64::INFINITY, f64::NEG_INFINITY, f64::NAN,
        ]),
    ]
}

/// An operation sequence's numbers: three cases in four drawn one by one, the fourth all from a
/// pool of two to four values (one of them often 0), where boxes share corners, touch face to
/// face, coincide or are flat — what independent draws almost never give, and where
/// closed-interval overlap is decided.
fn numbers() -> impl Strategy<Value = Vec<f64>> {
    let mixed = proptest::collection::vec(any_float(), 0..400);
    let pool =
        proptest::collection::vec(prop_oneof![2 => -4.0..4.0f64, 1 => Just(0.0), 1 => any_float()], 2..5);
    let pooled = pool.prop_flat_map(|pool| proptest::collection::vec(prop::sample::select(pool), 0..400));
    prop_oneof![3 => mixed, 1 => pooled]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_operations_agree_with_brute_force(v in numbers()) {
        exercise::run(&v);
    }
}
