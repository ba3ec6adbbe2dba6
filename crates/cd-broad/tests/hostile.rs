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

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_operations_agree_with_brute_force(v in proptest::collection::vec(any_float(), 0..400)) {
        exercise::run(&v);
    }
}
