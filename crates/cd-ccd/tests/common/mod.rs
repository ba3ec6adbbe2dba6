//! Generators and the sub-stepping oracle shared by the continuous-collision tests.
#![allow(dead_code)]

use cd_ccd::{Toi, ToiStatus};
use nalgebra::{Matrix3, Point3, Rotation3, Vector3};

pub type P3 = Point3<f64>;
pub type V3 = Vector3<f64>;

/// Deterministic xorshift generator.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_f64(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next_f64()
    }
    pub fn v3(&mut self, lo: f64, hi: f64) -> V3 {
        V3::new(self.range(lo, hi), self.range(lo, hi), self.range(lo, hi))
    }
    pub fn p3(&mut self, lo: f64, hi: f64) -> P3 {
        P3::from(self.v3(lo, hi))
    }
    pub fn rotation(&mut self) -> Matrix3<f64> {
        let axis = self.v3(-1.0, 1.0);
        Rotation3::new(axis * 3.0).into_inner()
    }
    /// A velocity that takes a point at `from` roughly through `to` within the unit step, with
    /// some scatter so that near misses and grazes occur too.
    pub fn aim(&mut self, from: &P3, to: &P3, scatter: f64) -> V3 {
        (to - from) * self.range(0.3, 2.0) + self.v3(-scatter, scatter)
    }
}

/// Number of random cases, overridable for long soaks with `CCD_CASES`.
pub fn cases(default: usize) -> usize {
    std::env::var("CCD_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

/// The sub-stepping oracle. `distance(t)` is the static signed distance of the shapes at time
/// `t` (negative when they overlap), computed without any continuous test. Checks that:
///
/// * every sample at which the shapes overlap by more than `tol` lies after the reported
///   time (nothing tunnels, first contact is never reported late);
/// * at a converged time the shapes touch (|distance| ≤ `touch_tol`), and just before it they
///   do not overlap;
/// * a start in contact really is one;
/// * a time returned at the iteration cap is still before any overlap.
///
/// Returns whether an overlap was sampled (so callers can count hits).
#[allow(clippy::too_many_arguments)] // a test helper: every knob is spelled out at the call
pub fn check_against_sampling(
    name: &str,
    case: usize,
    toi: Option<Toi<f64, 3>>,
    max_time: f64,
    distance: impl Fn(f64) -> f64,
    tol: f64,
    touch_tol: f64,
    samples: usize,
) -> bool {
    let mut first_overlap = None;
    for i in 0..=samples {
        let t = max_time * i as f64 / samples as f64;
        if distance(t) < -tol {
            first_overlap = Some(t);
            break;
        }
    }
    match (toi, first_overlap) {
        (None, Some(t)) => panic!("{name} case {case}: missed a contact (overlap sampled at t = {t})"),
        (Some(hit), Some(t)) => assert!(
            hit.time <= t + 1e-12,
            "{name} case {case}: contact reported at {} but overlap already sampled at {t}",
            hit.time
        ),
        _ => {}
    }
    if let Some(hit) = toi {
        let d = distance(hit.time);
        assert!(
            hit.time >= 0.0 && hit.time <= max_time,
            "{name} case {case}: time {} out of range",
            hit.time
        );
        assert!(hit.normal.iter().all(|x| x.is_finite()), "{name} case {case}: non-finite normal");
        match hit.status {
            ToiStatus::StartedInContact => {
                assert_eq!(hit.time, 0.0);
                assert!(d <= touch_tol, "{name} case {case}: started in contact but distance {d}");
            }
            ToiStatus::Converged => {
                assert!(
                    d.abs() <= touch_tol,
                    "{name} case {case}: distance {d} at the reported time {}",
                    hit.time
                );
                assert!((hit.normal.norm() - 1.0).abs() < 1e-6, "{name} case {case}: normal not unit");
                let before = hit.time * (1.0 - 1e-7);
                assert!(
                    distance(before) >= -tol,
                    "{name} case {case}: overlapping just before the reported time"
                );
                assert!(
                    (hit.point_a - hit.point_b).norm() <= touch_tol.max(1e-9) * 10.0,
                    "{name} case {case}: witness points {:?} {:?} apart",
                    hit.point_a,
                    hit.point_b
                );
            }
            ToiStatus::IterationCap | ToiStatus::Unresolved => {
                // Not converged, but the time must still be safe: no overlap before it.
                assert!(d >= -tol, "{name} case {case}: capped at {} while overlapping ({d})", hit.time);
            }
        }
    }
    first_overlap.is_some()
}
