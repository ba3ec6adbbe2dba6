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
