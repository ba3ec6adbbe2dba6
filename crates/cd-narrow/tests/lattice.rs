//! Box pairs on a lattice of half-integers, through every path of the dispatcher that handles
//! boxes: as oriented boxes (SAT), as world-space polyhedra, as posed hulls turned by quarter
//! turns (GJK and EPA on exact rotations) and as user support maps (the boxes' own support maps).
//! Lower corners come from a pool of two to four half-integers and sizes are half-integers, so
//! the pairs share faces, edges and corners exactly: touching, grazing and nested boxes, which random poses almost never give.
//!
//! A quarter-turned box is still axis-aligned, so the exact answer is known: per axis the gap
//! `gᵢ = max(lo_b − hi_a, lo_a − hi_b)`; separated by `|max(g, 0)|` when some gap is positive,
//! else penetrating by `min(−gᵢ)` (zero when touching): the signed distance is that number.

use cd_geom::{Aabb, ConvexPolyhedron, Obb, Point};
use cd_narrow::{contact, distance, intersects, PairCache, Shape};
use nalgebra::{Isometry3, Matrix3, Point3, Rotation3, Translation3, UnitQuaternion, Vector3};
use proptest::prelude::*;

/// The exact signed distance between two axis-aligned boxes.
fn exact_signed_distance(a: &Aabb<f64, 3>, b: &Aabb<f64, 3>) -> f64 {
    let gaps: Vec<f64> = (0..3).map(|i| (b.min()[i] - a.max()[i]).max(a.min()[i] - b.max()[i])).collect();
    let largest = gaps.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if largest > 0.0 {
        gaps.iter().map(|g| g.max(0.0).powi(2)).sum::<f64>().sqrt()
    } else {
        largest
    }
}

/// A quarter-turn rotation: `turns` quarter turns about axis `axis` (an exact matrix).
fn quarter_turn(turns: usize, axis: usize) -> Rotation3<f64> {
    let unit = [Vector3::x_axis(), Vector3::y_axis(), Vector3::z_axis()][axis];
    let q = UnitQuaternion::from_axis_angle(&unit, turns as f64 * std::f64::consts::FRAC_PI_2);
    Rotation3::from_matrix_unchecked(q.to_rotation_matrix().into_inner().map(|x| x.round()))
}

/// The pair's boxes in every form, the second one also as a local box posed by `turn`.
struct Forms {
    boxes: [Aabb<f64, 3>; 2],
    obbs: [Obb<f64, 3>; 2],
    world: [ConvexPolyhedron<f64>; 2],
    local: [ConvexPolyhedron<f64>; 2],
    poses: [Isometry3<f64>; 2],
}

impl Forms {
    fn new(boxes: [Aabb<f64, 3>; 2], turn: Rotation3<f64>) -> Self {
        let obb = |b: &Aabb<f64, 3>| Obb::new(b.center(), Matrix3::identity(), b.half_extents()).unwrap();
        // The local box is the world box brought back through the turn, centred on the origin:
        // its half extents are the world ones permuted by the turn.
        let local = |b: &Aabb<f64, 3>| {
            let h = (turn.inverse() * b.half_extents()).abs();
            ConvexPolyhedron::from_aabb(&Aabb::new(Point::from(-h), Point::from(h)).unwrap()).unwrap()
        };
        let pose = |b: &Aabb<f64, 3>| {
            Isometry3::from_parts(
                Translation3::from(b.center().coords),
                UnitQuaternion::from_rotation_matrix(&turn),
            )
        };
        Forms {
            obbs: [obb(&boxes[0]), obb(&boxes[1])],
            world: [
                ConvexPolyhedron::from_aabb(&boxes[0]).unwrap(),
                ConvexPolyhedron::from_aabb(&boxes[1]).unwrap(),
            ],
            local: [local(&boxes[0]), local(&boxes[1])],
            poses: [pose(&boxes[0]), pose(&boxes[1])],
            boxes,
        }
    }

    /// The same box `i` in each form (name, shape).
    fn shapes(&self, i: usize) -> [(&'static str, Shape<'_, f64>); 4] {
        [
            ("box", Shape::Box(&self.obbs[i])),
            ("polyhedron", Shape::Polyhedron(&self.world[i])),
            ("hull", Shape::Hull(&self.local[i], &self.poses[i])),
            ("convex", Shape::Convex(&self.boxes[i], 0.0)),
        ]
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(300),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Every form against every form: `intersects` says whether the exact signed distance is
    /// at most zero (touching counts), `distance` gives it, and a contact with no prediction
    /// exists exactly for pairs that touch or overlap, with the same depth.
    #[test]
    fn lattice_box_pairs_match_the_exact_answer(
        corners in proptest::collection::vec(-4i32..=4, 2..5)
            .prop_flat_map(|pool| proptest::collection::vec(prop::sample::select(pool), 6)),
        sizes in proptest::collection::vec(1i32..=4, 6),
        turn in (0usize..4, 0usize..3),
    ) {
        let half = |c: i32| f64::from(c) / 2.0;
        let boxed = |k: usize| {
            let lo = Point3::new(half(corners[3 * k]), half(corners[3 * k + 1]), half(corners[3 * k + 2]));
            let size = Vector3::new(half(sizes[3 * k]), half(sizes[3 * k + 1]), half(sizes[3 * k + 2]));
            Aabb::new(lo, lo + size).unwrap()
        };
        let boxes = [boxed(0), boxed(1)];
        let forms = Forms::new(boxes, quarter_turn(turn.0, turn.1));
        let exact = exact_signed_distance(&forms.boxes[0], &forms.boxes[1]);
        let tol = 1e-7;
        for (na, a) in forms.shapes(0) {
            for (nb, b) in forms.shapes(1) {
                let what = format!("{na}/{nb} {:?} {:?}", forms.boxes[0], forms.boxes[1]);
                prop_assert_eq!(intersects(a, b, &mut PairCache::default()).unwrap(), exact <= 0.0, "intersects {}", what);
                let d = distance(a, b, &mut PairCache::default()).unwrap();
                prop_assert!((d.distance - exact).abs() <= tol, "distance {} against {}: {}", d.distance, exact, what);
                let c = contact(a, b, 0.0, &mut PairCache::default()).unwrap();
                prop_assert_eq!(c.is_some(), exact <= 0.0, "contact {:?} against {}: {}", c, exact, what);
                if let Some(c) = c {
                    prop_assert!((c.distance - exact).abs() <= tol, "depth {} against {}: {}", c.distance, exact, what);
                }
            }
        }
    }
}
