//! Builds convex shapes from arbitrary floats and runs the narrow phase on every pair:
//! `intersects`, `distance`, `contact`, `manifold`, MPR. Nothing may panic (a pair the phase
//! cannot answer is a typed error); answers are finite; distance is symmetric; the boolean
//! agrees with the signed distance (EPA's depth ≥ 0 exactly when they intersect); boxes agree
//! with cd-geom's separating-axis test and GJK with MPR away from touching; the same shapes
//! in `f32` have the `f64` distance to 1,000 ulps of the inputs. Then the same numbers run the
//! 2D queries (`planar.rs`). Shared by the hostile-input property test
//! (`tests/hostile.rs`) and the `narrow_queries` fuzz target (which includes this file).
#![allow(dead_code)]

#[path = "planar.rs"]
mod planar;
pub use planar::{run_planar, PLANAR_CHECKED, PLANAR_COMPARED};

use cd_geom::{
    obb_obb, Ball, Capsule, Cone, ContactStatus, ConvexPolyhedron, Cylinder, Lozenge, Obb, Real, Triangle,
};
use cd_narrow::{
    contact, distance, intersects, manifold, mpr_intersects, Manifold, MprConfig, PairCache, Shape,
};
use nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Pairs that reached every check (the property test checks its generator gets there).
pub static CHECKED: AtomicUsize = AtomicUsize::new(0);

/// Pairs whose `f32` distance was compared with the `f64` one (both converged).
pub static PRECISIONS_COMPARED: AtomicUsize = AtomicUsize::new(0);

/// Hull pairs whose `f32` manifold depth was compared with the `f64` one.
pub static HULL_MANIFOLDS_COMPARED: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Intersecting pairs whose distance came back only as an upper bound (`Unresolved` or
    /// `IterationCap`) on this thread: accepted by the checks, but a regression test for a
    /// case that used to stall asserts it stays at zero.
    pub static BOUND_ONLY: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };

    /// How far apart a converged distance may put an intersecting pair on this thread: by
    /// default 10⁻⁶ of the largest input, which at 10¹⁰ coordinates is far too loose to catch
    /// a false separation of features 10⁻³ across; a regression test tightens it.
    pub static HIT_TOLERANCE: std::cell::Cell<Option<f64>> = const { std::cell::Cell::new(None) };
}

enum Built<T: Real> {
    Ball(Ball<T, 3>),
    Capsule(Capsule<T, 3>),
    Box(Obb<T, 3>),
    Cylinder(Cylinder<T>),
    Cone(Cone<T>),
    Lozenge(Lozenge<T>),
    Triangle(Triangle<T, 3>),
    Hull(ConvexPolyhedron<T>, Isometry3<T>),
}

impl<T: Real> Built<T> {
    fn shape(&self) -> Shape<'_, T> {
        match self {
            Built::Ball(b) => Shape::Ball(b),
            Built::Capsule(c) => Shape::Capsule(c),
            Built::Box(b) => Shape::Box(b),
            Built::Cylinder(c) => Shape::Cylinder(c),
            Built::Cone(c) => Shape::Cone(c),
            Built::Lozenge(l) => Shape::Lozenge(l),
            Built::Triangle(t) => Shape::Triangle(t),
            Built::Hull(h, p) => Shape::Hull(h, p),
        }
    }
}

fn finite<T: Real>(v: &Vector3<T>) -> bool {
    v.iter().all(|x| x.is_finite())
}

/// What `v` builds in `T`, one slot per constructor (`None` where the constructor refused):
/// slot `k` is the same shape in either precision.
fn build<T: Real>(v: &[f64]) -> Vec<Option<Built<T>>> {
    let x = |i: usize| T::lit(v[i % v.len()]);
    let p = |i: usize| Point3::new(x(i), x(i + 1), x(i + 2));
    let w = |i: usize| Vector3::new(x(i), x(i + 1), x(i + 2));
    let rot = |i: usize| {
        let a = w(i);
        if finite(&a) {
            UnitQuaternion::from_scaled_axis(a.map(|c| c % T::lit(7.0)))
        } else {
            UnitQuaternion::identity()
        }
    };
    // A box as a hull (half extents at `e`, position at `t`, rotation at `r`): two of them, so
    // that hull pairs go through the polyhedron SAT's manifolds too.
    let hull = |e: usize, t: usize, r: usize| {
        let local = Obb::from_rotation(Point3::origin(), UnitQuaternion::identity(), w(e).abs()).ok()?;
        let hull = ConvexPolyhedron::from_obb(&local).ok()?;
        finite(&w(t)).then(|| Built::Hull(hull, Isometry3::from_parts(w(t).into(), rot(r))))
    };
    vec![
        Ball::new(p(0), x(3).abs()).ok().map(Built::Ball),
        Capsule::new(p(4), p(7), x(10).abs()).ok().map(Built::Capsule),
        Obb::from_rotation(p(11), rot(14), w(17).abs()).ok().map(Built::Box),
        Obb::from_rotation(p(20), rot(23), w(2).abs()).ok().map(Built::Box),
        Cylinder::new(p(5), p(9), x(13).abs()).ok().map(Built::Cylinder),
        Cone::new(p(6), p(12), x(15).abs()).ok().map(Built::Cone),
        Lozenge::new(p(3), w(9), w(13), x(8).abs()).ok().map(Built::Lozenge),
        Triangle::new(p(1), p(8), p(16)).ok().map(Built::Triangle),
        hull(18, 21, 7),
        hull(2, 26, 12),
    ]
}

/// Builds what it can from `v` and runs every pair.
pub fn run(v: &[f64]) {
    if v.is_empty() {
        return;
    }
    let x = |i: usize| v[i % v.len()];
    let shapes: Vec<Built<f64>> = build(v).into_iter().flatten().collect();
    let scale = v.iter().filter(|x| x.is_finite()).fold(1.0f64, |m, x| m.max(x.abs()));
    let tol = 1e-6 * scale;
    for a in &shapes {
        for b in &shapes {
            let mut cache = PairCache::default();
            let hit = intersects(a.shape(), b.shape(), &mut cache);
            let ab = distance(a.shape(), b.shape(), &mut PairCache::default());
            let ba = distance(b.shape(), a.shape(), &mut PairCache::default());
            // A converged contact's points are apart along its normal by its distance (two
            // touching segments once reported their midpoints, 0.6 apart at depth 0.09; a flat
            // box touching a point, two corners 5.6 apart at distance 0). To a thousandth of
            // the input's scale, and only up to a scale of 10⁶: witnesses of shapes with
            // aspect ratios of 10¹¹ and more (a needle 10¹³ long 0.17 from a plate) are off by
            // up to a few thousandths of the long side, the distance itself is not (FUZZING.md,
            // "known limits").
            let loose = if scale <= 1e6 { 1e3 * tol } else { f64::INFINITY };
            let apart_along_normal =
                |what: &str, pa: &Point3<f64>, pb: &Point3<f64>, n: &Vector3<f64>, d: f64| {
                    let gap = (pb - pa - n * d).norm();
                    assert!(gap <= loose, "{:?} / {:?}: {what} {gap} off the normal", a.shape(), b.shape());
                };
            if let Ok(Some(c)) = contact(a.shape(), b.shape(), x(19).abs().min(1e6), &mut cache) {
                if c.status == ContactStatus::Converged {
                    apart_along_normal("contact points", &c.point_a, &c.point_b, &c.normal, c.distance);
                }
            }
            let mut m = Manifold::default();
            if manifold(a.shape(), b.shape(), 0.01 * scale, &mut PairCache::default(), &mut m).is_ok() {
                // The manifold's points are as good as the contact they come from: checked
                // when that converged (a capped EPA's answer is only a bound, and says so).
                let converged = matches!(
                    contact(a.shape(), b.shape(), 0.01 * scale, &mut PairCache::default()),
                    Ok(Some(c)) if c.status == ContactStatus::Converged
                );
                for q in m.points() {
                    assert!(finite(&q.point_a.coords) && finite(&q.point_b.coords) && q.distance.is_finite());
                    if converged {
                        apart_along_normal("manifold point", &q.point_a, &q.point_b, &m.normal, q.distance);
                    }
                }
            }
            let (Ok(hit), Ok(ab), Ok(ba)) = (hit, ab, ba) else { continue };
            assert!(
                ab.distance.is_finite()
                    && finite(&ab.normal)
                    && finite(&ab.point_a.coords)
                    && finite(&ab.point_b.coords),
                "{:?} / {:?}: non-finite distance answer {ab:?}",
                a.shape(),
                b.shape()
            );
            // Symmetric when both converged (a capped answer is only a bound, and says so).
            if ab.status == ContactStatus::Converged && ba.status == ContactStatus::Converged {
                assert!(
                    (ab.distance - ba.distance).abs() <= tol,
                    "{:?} / {:?}: distance not symmetric: {} vs {}",
                    a.shape(),
                    b.shape(),
                    ab.distance,
                    ba.distance
                );
            }
            // An unresolved or capped distance is only an upper bound (floating point could
            // not settle it: a 6·10¹⁰ × 0.0016 needle against itself, found by the fuzz
            // target), so "intersecting" cannot contradict it; "apart" still can.
            let bound_only = matches!(ab.status, ContactStatus::Unresolved | ContactStatus::IterationCap);
            if bound_only && hit {
                BOUND_ONLY.with(|n| n.set(n.get() + 1));
            }
            if hit {
                let hit_tol = HIT_TOLERANCE.with(|t| t.get()).unwrap_or(tol);
                assert!(
                    bound_only || ab.distance <= hit_tol,
                    "{:?} / {:?}: intersecting, yet {} apart ({:?})",
                    a.shape(),
                    b.shape(),
                    ab.distance,
                    ab.status
                );
            } else {
                assert!(
                    ab.distance >= -tol,
                    "{:?} / {:?}: apart, yet {} deep",
                    a.shape(),
                    b.shape(),
                    -ab.distance
                );
            }
            if let (Built::Box(p), Built::Box(q)) = (a, b) {
                if ab.distance.abs() > tol {
                    assert_eq!(hit, obb_obb(p, q), "GJK and SAT disagree on boxes {} apart", ab.distance);
                }
            }
            if let (Built::Box(p), Built::Box(q)) = (a, b) {
                let mpr = mpr_intersects(p, p.center(), q, q.center(), &MprConfig::default());
                if ab.distance.abs() > tol {
                    assert_eq!(mpr, hit, "MPR and GJK disagree on boxes {} apart", ab.distance);
                }
            }
            CHECKED.fetch_add(1, Ordering::Relaxed);
        }
    }
    compare_precisions(v);
    run_planar(v);
}

/// The same shapes in `f32` and in `f64` (both built from `v` rounded to `f32`, so they are
/// the same shapes to `f32` rounding): where both distances converged they agree to 1,000 ulps
/// of the inputs' scale. GJK's tolerance is 100 ε of the squared distance and EPA's ε^(2/3)
/// (about 200 ε) of the shapes' size, so a correct `f32` answer is well inside; an `f32` GJK
/// that stalled on a sliver face of a long thin box and accepted the stall was 3,800 ulps
/// off (FUZZING.md, "Known limits"), and is what this catches.
fn compare_precisions(v: &[f64]) {
    let rounded: Vec<f64> = v.iter().map(|&x| x as f32 as f64).collect();
    let scale = rounded.iter().filter(|x| x.is_finite()).fold(1.0f64, |m, x| m.max(x.abs()));
    // Large inputs leave f32 shapes too coarse to compare (and near its coordinate limit).
    if scale > 1e6 {
        return;
    }
    let tol = 1e3 * f32::EPSILON as f64 * scale;
    let (narrow, wide) = (build::<f32>(&rounded), build::<f64>(&rounded));
    let pairs = || narrow.iter().zip(&wide).filter_map(|(n, w)| Some((n.as_ref()?, w.as_ref()?)));
    for (a32, a64) in pairs() {
        for (b32, b64) in pairs() {
            let d32 = distance(a32.shape(), b32.shape(), &mut PairCache::default());
            let d64 = distance(a64.shape(), b64.shape(), &mut PairCache::default());
            let (Ok(d32), Ok(d64)) = (d32, d64) else { continue };
            if d32.status != ContactStatus::Converged || d64.status != ContactStatus::Converged {
                continue;
            }
            let off = (d32.distance as f64 - d64.distance).abs();
            assert!(
                off <= tol,
                "{:?} / {:?}: f32 distance {} against f64 {} ({off} apart, tolerance {tol})",
                a32.shape(),
                b32.shape(),
                d32.distance,
                d64.distance
            );
            PRECISIONS_COMPARED.fetch_add(1, Ordering::Relaxed);
            if let (Built::Hull(..), Built::Hull(..)) = (a32, b32) {
                compare_hull_manifolds(a32, b32, a64, b64, tol);
            }
        }
    }
}

/// Two box hulls' manifolds come from the polyhedron SAT, whose depth is exact (to its face
/// preference of 64 ε of the scale): where both precisions find a manifold, their deepest
/// points agree to `tol`. (Box/box manifolds prefer faces by 5 % of the depth, so their `f32`
/// and `f64` axes may differ on purpose; they are not compared.)
fn compare_hull_manifolds(a32: &Built<f32>, b32: &Built<f32>, a64: &Built<f64>, b64: &Built<f64>, tol: f64) {
    let (mut m32, mut m64) = (Manifold::default(), Manifold::default());
    let r32 = manifold(a32.shape(), b32.shape(), 0.0, &mut PairCache::default(), &mut m32);
    let r64 = manifold(a64.shape(), b64.shape(), 0.0, &mut PairCache::default(), &mut m64);
    let (Ok(()), Ok(())) = (r32, r64) else { return };
    let (Some(d32), Some(d64)) = (m32.deepest(), m64.deepest()) else { return };
    let off = (d32.distance as f64 - d64.distance).abs();
    assert!(
        off <= tol,
        "hull manifolds: f32 depth {} against f64 {} ({off} apart, tolerance {tol})",
        d32.distance,
        d64.distance
    );
    HULL_MANIFOLDS_COMPARED.fetch_add(1, Ordering::Relaxed);
}
