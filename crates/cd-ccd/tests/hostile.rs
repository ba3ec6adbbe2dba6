//! Arbitrary floats — NaN, infinities, huge and tiny values included — fed to every motion
//! constructor and, when the shapes and motions construct, to every continuous query in f32
//! and f64. Nothing may panic, loop or return a non-finite time, point or normal; a motion with
//! a non-finite component must be rejected with a typed error.

mod exercise;

use cd_ccd::*;
use exercise::{exercise, ORACLE_STEPS, ROTATING_RUNS};
use nalgebra::{Isometry3, Point3, Vector3};
use proptest::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

static CASES_RUN: AtomicUsize = AtomicUsize::new(0);

fn any_float() -> impl Strategy<Value = f64> {
    prop_oneof![
        16 => -10.0..10.0f64,
        1 => proptest::num::f64::ANY,
        1 => prop::sample::select(vec![
            0.0, -0.0, 1.0, -1.0, 1e-300, 1e-40, 1e-7, 1e6, 1e9, -1e9, 2e9, 1e30, 1e75, 1e76,
            f64::MAX, f64::MIN_POSITIVE, f64::INFINITY, f64::NEG_INFINITY, f64::NAN,
        ]),
    ]
}

fn cases() -> u32 {
    std::env::var("CCD_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(1500)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_floats_never_panic_or_yield_nan(v in proptest::collection::vec(any_float(), 21..24)) {
        exercise::<f64>(&v);
        exercise::<f32>(&v);
        let n = CASES_RUN.fetch_add(1, Ordering::Relaxed) + 1;
        // Two calls per case (f64 and f32): at least a fifth of the cases reach the rotating
        // queries once the run is long enough to judge.
        if n == cases() as usize {
            let rotating = ROTATING_RUNS.load(Ordering::Relaxed);
            eprintln!("{rotating} of {n} cases reached the rotating queries");
            prop_assert!(rotating * 5 >= n, "only {} of {} cases reached the rotating queries", rotating, n);
            // The step check against lateness must have something to check.
            let steps = ORACLE_STEPS.load(Ordering::Relaxed);
            eprintln!("{steps} oracle steps over {n} cases");
            prop_assert!(steps >= 10 * n, "only {} oracle steps over {} cases", steps, n);
        }
    }
}

#[test]
fn motions_reject_non_finite_and_out_of_range_values() {
    use cd_geom::GeomError;
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let v = Vector3::new(bad, 0.0, 0.0);
        assert_eq!(LinearMotion::new(v, Vector3::zeros(), 1.0).unwrap_err(), GeomError::NonFinite);
        assert_eq!(LinearMotion::new(Vector3::zeros(), v, 1.0).unwrap_err(), GeomError::NonFinite);
        assert!(LinearMotion::of_a(Vector3::x(), bad).is_err());
        assert_eq!(
            RigidMotion::new(Isometry3::identity(), Point3::origin(), v, Vector3::zeros()).unwrap_err(),
            GeomError::NonFinite
        );
        assert_eq!(
            RigidMotion::new(
                Isometry3::identity(),
                Point3::new(bad, 0.0, 0.0),
                Vector3::zeros(),
                Vector3::zeros()
            )
            .unwrap_err(),
            GeomError::NonFinite
        );
    }
    assert_eq!(LinearMotion::of_a(Vector3::new(1e76, 0.0, 0.0), 1.0).unwrap_err(), GeomError::OutOfRange);
    assert_eq!(LinearMotion::of_a(Vector3::new(2e9f32, 0.0, 0.0), 1.0).unwrap_err(), GeomError::OutOfRange);
}
