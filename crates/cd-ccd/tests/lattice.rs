//! Moving boxes on a lattice: lower corners from a pool of two to four half-integers,
//! half-integer sizes, an integer velocity of A over one time unit. The boxes meet face to face,
//! edge to edge and corner to corner at exact times, graze each other and slide along each
//! other's faces, which random motions almost never do. The time of first contact is a
//! rational number computed exactly (per axis the entry and exit times of the closed
//! intervals), and every query that casts boxes is checked against it: the dynamic AABB and OBB
//! tests (exact, to rounding) and the GJK shape cast (to its contact tolerance, never late).

use cd_ccd::{
    aabb_aabb, conservative_advancement, obb_obb, separating_axis_toi, shape_cast, CastConfig, LinearMotion,
    MovingShape, RigidMotion,
};
use cd_geom::{Aabb, Obb};
use nalgebra::{Isometry3, Matrix3, Point3, Vector3};
use proptest::prelude::*;

/// A non-negative rational `n / d` (`d > 0`).
#[derive(Clone, Copy, Debug)]
struct Ratio(i64, i64);

impl Ratio {
    fn le(self, o: Ratio) -> bool {
        self.0 * o.1 <= o.0 * self.1
    }
    fn max(self, o: Ratio) -> Ratio {
        if self.le(o) {
            o
        } else {
            self
        }
    }
    fn min(self, o: Ratio) -> Ratio {
        if self.le(o) {
            self
        } else {
            o
        }
    }
    fn value(self) -> f64 {
        self.0 as f64 / self.1 as f64
    }
}

/// The exact time of first contact in `[0, 1]` of box A (`a`: doubled integer bounds per axis)
/// moving at `v` (doubled integer velocity) against the resting box B, or `None`.
fn exact_toi(a: [(i64, i64); 3], b: [(i64, i64); 3], v: [i64; 3]) -> Option<f64> {
    let (mut enter, mut exit) = (Ratio(0, 1), Ratio(1, 1));
    for i in 0..3 {
        let ((a0, a1), (b0, b1)) = (a[i], b[i]);
        // Overlap of [a0 + v t, a1 + v t] and [b0, b1] (closed): a0 + v t ≤ b1 and b0 ≤ a1 + v t.
        let (lo, hi) = match v[i].signum() {
            0 if a0 <= b1 && b0 <= a1 => continue,
            0 => return None,
            1 => ((b0 - a1, v[i]), (b1 - a0, v[i])),
            _ => ((b1 - a0, v[i]), (b0 - a1, v[i])),
        };
        // Times as fractions with a positive denominator; negative ones clamp to the interval.
        let frac = |(n, d): (i64, i64)| if d < 0 { (-n, -d) } else { (n, d) };
        let (lo, hi) = (frac(lo), frac(hi));
        if hi.0 < 0 {
            return None; // the axis overlap ended before time 0
        }
        enter = enter.max(Ratio(lo.0.max(0), lo.1));
        exit = exit.min(Ratio(hi.0, hi.1));
    }
    enter.le(exit).then(|| enter.value())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(500),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// The dynamic AABB and OBB tests give the exact first contact (or none); the shape cast,
    /// conservative advancement and the separating-axis time of impact find a contact exactly
    /// when there is one, never after it and at most their contact tolerance before it.
    #[test]
    fn lattice_box_casts_match_the_exact_time_of_impact(
        corners in proptest::collection::vec(-4i64..=4, 2..5)
            .prop_flat_map(|pool| proptest::collection::vec(prop::sample::select(pool), 6)),
        sizes in proptest::collection::vec(1i64..=4, 6),
        velocity in proptest::array::uniform3(-8i64..=8),
    ) {
        let bounds = |k: usize| -> [(i64, i64); 3] {
            core::array::from_fn(|i| (corners[3 * k + i], corners[3 * k + i] + sizes[3 * k + i]))
        };
        let (ba, bb) = (bounds(0), bounds(1));
        let exact = exact_toi(ba, bb, velocity);
        let to_box = |b: [(i64, i64); 3]| {
            let lo = Point3::new(b[0].0 as f64, b[1].0 as f64, b[2].0 as f64) / 2.0;
            let hi = Point3::new(b[0].1 as f64, b[1].1 as f64, b[2].1 as f64) / 2.0;
            Aabb::new(lo, hi).unwrap()
        };
        let (a, b) = (to_box(ba), to_box(bb));
        let v = Vector3::new(velocity[0] as f64, velocity[1] as f64, velocity[2] as f64) / 2.0;
        let m = LinearMotion::of_a(v, 1.0).unwrap();
        let what = format!("{a:?} moving {v:?} onto {b:?}: exact {exact:?}");

        let got = aabb_aabb(&a, &b, &m).map(|t| t.time);
        prop_assert_eq!(got.is_some(), exact.is_some(), "aabb_aabb {:?}: {}", got, what);
        if let (Some(g), Some(e)) = (got, exact) {
            prop_assert!((g - e).abs() <= 1e-12, "aabb_aabb {}: {}", g, what);
        }

        let obb = |x: &Aabb<f64, 3>| Obb::new(x.center(), Matrix3::identity(), x.half_extents()).unwrap();
        let got = obb_obb(&obb(&a), &obb(&b), &m).map(|t| t.time);
        prop_assert_eq!(got.is_some(), exact.is_some(), "obb_obb {:?}: {}", got, what);
        if let (Some(g), Some(e)) = (got, exact) {
            prop_assert!((g - e).abs() <= 1e-12, "obb_obb {}: {}", g, what);
        }

        let got = shape_cast(&a, 0.0, &b, 0.0, &m, &CastConfig::default()).map(|t| t.time);
        prop_assert_eq!(got.is_some(), exact.is_some(), "shape_cast {:?}: {}", got, what);
        if let (Some(g), Some(e)) = (got, exact) {
            prop_assert!(g <= e + 1e-12 && g >= e - 1e-4, "shape_cast {}: {}", g, what);
        }

        // The advancement methods, on the boxes as bodies (local boxes about their centres,
        // translating only).
        let local = |x: &Aabb<f64, 3>| Aabb::new(Point3::from(-x.half_extents()), Point3::from(x.half_extents())).unwrap();
        let (la, lb) = (local(&a), local(&b));
        let body = |x: &Aabb<f64, 3>, velocity: Vector3<f64>| {
            RigidMotion::new(Isometry3::translation(x.center().x, x.center().y, x.center().z), Point3::origin(), velocity, Vector3::zeros()).unwrap()
        };
        let (ma, mb) = (MovingShape::new(&la, 0.0, body(&a, v)), MovingShape::new(&lb, 0.0, body(&b, Vector3::zeros())));
        for (name, got) in [
            ("conservative_advancement", conservative_advancement(&ma, &mb, 1.0, &CastConfig::default())),
            ("separating_axis_toi", separating_axis_toi(&ma, &mb, 1.0, &CastConfig::default())),
        ] {
            let got = got.map(|t| t.time);
            prop_assert_eq!(got.is_some(), exact.is_some(), "{} {:?}: {}", name, got, what);
            if let (Some(g), Some(e)) = (got, exact) {
                prop_assert!(g <= e + 1e-12 && g >= e - 1e-4, "{} {}: {}", name, g, what);
            }
        }
    }
}

/// Found by the lattice test: a box whose corner meets another's exactly at the end of the
/// step, t = 1 (at (1.5, 2, 2): A's maximum x, minimum y and minimum z on B's minimum x,
/// maximum y and maximum z). The shape cast's last plane jump landed an ulp past the end and
/// reported no contact; the dynamic AABB test always found it.
#[test]
fn regression_corners_meeting_at_the_end_of_the_step() {
    let a = Aabb::new(Point3::new(0.0, 1.5, 0.0), Point3::new(0.5, 2.5, 0.5)).unwrap();
    let b = Aabb::new(Point3::new(1.5, 1.5, 1.5), Point3::new(2.0, 2.0, 2.0)).unwrap();
    let m = LinearMotion::of_a(Vector3::new(1.0, 0.5, 2.0), 1.0).unwrap();
    assert_eq!(aabb_aabb(&a, &b, &m).map(|t| t.time), Some(1.0));
    let hit = shape_cast(&a, 0.0, &b, 0.0, &m, &CastConfig::default()).expect("a contact at t = 1");
    assert!(hit.time <= 1.0 && hit.time >= 1.0 - 1e-4, "{hit:?}");
    assert!((hit.point_a - Point3::new(1.5, 2.0, 2.0)).norm() < 1e-4, "{hit:?}");
    // A step a hundredth shorter ends before they meet.
    let short = LinearMotion::of_a(Vector3::new(1.0, 0.5, 2.0), 0.99).unwrap();
    assert!(shape_cast(&a, 0.0, &b, 0.0, &short, &CastConfig::default()).is_none());
    assert!(aabb_aabb(&a, &b, &short).is_none());
}

/// Found by the lattice test once it ran the advancement methods: a box meeting another face
/// to face exactly at the end of the step (t = 1, A's minimum x on B's maximum x). The closing
/// rate's step landed an ulp past the end and conservative advancement (and the
/// separating-axis time of impact, on the same loop) reported no contact.
#[test]
fn regression_advancement_faces_meeting_at_the_end_of_the_step() {
    let a = Aabb::new(Point3::new(-0.75, -1.0, -1.0), Point3::new(0.75, 1.0, 1.0)).unwrap();
    let b = Aabb::new(Point3::new(-0.5, -0.5, -0.5), Point3::new(0.5, 0.5, 0.5)).unwrap();
    let v = Vector3::new(-0.5, -1.5, 0.5);
    let (ma, mb) = (
        MovingShape::new(
            &a,
            0.0,
            RigidMotion::new(Isometry3::translation(1.25, 0.0, 0.0), Point3::origin(), v, Vector3::zeros())
                .unwrap(),
        ),
        MovingShape::new(
            &b,
            0.0,
            RigidMotion::new(
                Isometry3::translation(-0.5, -0.5, -0.5),
                Point3::origin(),
                Vector3::zeros(),
                Vector3::zeros(),
            )
            .unwrap(),
        ),
    );
    for hit in [
        conservative_advancement(&ma, &mb, 1.0, &CastConfig::default()),
        separating_axis_toi(&ma, &mb, 1.0, &CastConfig::default()),
    ] {
        let hit = hit.expect("a contact at t = 1");
        assert!(hit.time <= 1.0 && hit.time >= 1.0 - 1e-4, "{hit:?}");
    }
    assert!(conservative_advancement(&ma, &mb, 0.99, &CastConfig::default()).is_none());
}
