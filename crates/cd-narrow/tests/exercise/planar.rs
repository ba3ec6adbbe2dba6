//! The 2D half of the exercise: builds 2D shapes from arbitrary floats, raw polygon slices
//! included (empty, clockwise, concave, non-finite: the dispatcher must answer them or return
//! a typed error), and runs `intersects_2d`, `distance_2d` and `contact_2d` on every pair.
//! Answers are finite; distance is symmetric; the boolean agrees with the signed distance; a
//! converged contact's points are apart along its normal by its distance; and two convex
//! polygons get the same depth from the dispatcher's SAT as from GJK + EPA on their support
//! maps.

use cd_geom::{Ball, Capsule, ContactStatus, Obb, Point, Segment, SupportMap, Vector};
use cd_narrow::sat_polygon::obb_corners_2d;
use cd_narrow::{contact_2d, distance_2d, intersects_2d, PairCache2, Shape2};
use nalgebra::{Point2, Vector2};
use std::sync::atomic::{AtomicUsize, Ordering};

/// 2D pairs that reached every check, and box-polygon pairs compared with GJK + EPA (the
/// property test checks its generator gets there).
pub static PLANAR_CHECKED: AtomicUsize = AtomicUsize::new(0);
pub static PLANAR_COMPARED: AtomicUsize = AtomicUsize::new(0);

/// A convex polygon seen only through its support map (so the dispatcher runs GJK + EPA on it).
struct Support(Vec<Point2<f64>>);

impl SupportMap<f64, 2> for Support {
    fn support(&self, d: &Vector<f64, 2>) -> Point<f64, 2> {
        *self
            .0
            .iter()
            .fold(&self.0[0], |best, q| if d.dot(&q.coords) > d.dot(&best.coords) { q } else { best })
    }
}

fn finite(v: &Vector2<f64>) -> bool {
    v.iter().all(|x| x.is_finite())
}

/// Builds what it can from `v` and runs every 2D pair.
pub fn run_planar(v: &[f64]) {
    if v.is_empty() {
        return;
    }
    let x = |i: usize| v[i % v.len()];
    let p = |i: usize| Point2::new(x(i), x(i + 1));
    let w = |i: usize| Vector2::new(x(i), x(i + 1));
    let circle = Ball::new(p(0), x(2).abs());
    let capsule = Capsule::new(p(3), p(5), x(7).abs());
    let boxes =
        [Obb::from_angle(p(8), x(10) % 7.0, w(11).abs()), Obb::from_angle(p(13), x(15) % 7.0, w(16).abs())];
    let segment = Segment::new(p(18), p(20));
    // Raw slices, as a user may pass them: four arbitrary points (any winding, maybe concave
    // or non-finite), the first two of them, none; and a box's corners (convex,
    // counter-clockwise), also behind a support map.
    let raw: Vec<Point2<f64>> = (0..4).map(|k| p(3 * k)).collect();
    let corners: Option<Vec<Point2<f64>>> = boxes[0].as_ref().ok().map(|b| obb_corners_2d(b).to_vec());
    let radius = x(19);
    let support = corners.clone().map(Support);
    let mut shapes: Vec<Shape2<'_, f64>> = Vec::new();
    shapes.extend(circle.as_ref().ok().map(Shape2::Circle));
    shapes.extend(capsule.as_ref().ok().map(Shape2::Capsule));
    shapes.extend(boxes.iter().filter_map(|b| b.as_ref().ok()).map(Shape2::Box));
    shapes.extend(segment.as_ref().ok().map(Shape2::Segment));
    shapes.push(Shape2::Polygon(&raw));
    shapes.push(Shape2::Polygon(&raw[..2]));
    shapes.push(Shape2::Polygon(&[]));
    shapes.extend(corners.as_deref().map(Shape2::Polygon));
    if let Some(s) = &support {
        shapes.push(Shape2::Convex(s, radius));
        shapes.push(Shape2::Convex(s, 0.0));
    }
    let scale = v.iter().filter(|x| x.is_finite()).fold(1.0f64, |m, x| m.max(x.abs()));
    let tol = 1e-6 * scale;
    let loose = if scale <= 1e6 { 1e3 * tol } else { f64::INFINITY };
    for &a in &shapes {
        for &b in &shapes {
            let hit = intersects_2d(a, b, &mut PairCache2::default());
            let ab = distance_2d(a, b, &mut PairCache2::default());
            let ba = distance_2d(b, a, &mut PairCache2::default());
            let c = contact_2d(a, b, x(17).abs().min(1e6), &mut PairCache2::default());
            if let Ok(Some(c)) = c {
                assert!(
                    c.distance.is_finite()
                        && finite(&c.normal)
                        && finite(&c.point_a.coords)
                        && finite(&c.point_b.coords),
                    "{a:?} / {b:?}: non-finite contact {c:?}"
                );
                if c.status == ContactStatus::Converged {
                    let gap = (c.point_b - c.point_a - c.normal * c.distance).norm();
                    assert!(gap <= loose, "{a:?} / {b:?}: contact points {gap} off the normal: {c:?}");
                }
            }
            let (Ok(hit), Ok(ab), Ok(ba)) = (hit, ab, ba) else { continue };
            assert!(
                ab.distance.is_finite() && finite(&ab.normal) && finite(&ab.point_a.coords),
                "{a:?} / {b:?}: non-finite distance answer {ab:?}"
            );
            if ab.status == ContactStatus::Converged && ba.status == ContactStatus::Converged {
                assert!(
                    (ab.distance - ba.distance).abs() <= tol,
                    "{a:?} / {b:?}: distance not symmetric: {} vs {}",
                    ab.distance,
                    ba.distance
                );
            }
            let bound_only = matches!(ab.status, ContactStatus::Unresolved | ContactStatus::IterationCap);
            if hit {
                assert!(
                    bound_only || ab.distance <= tol,
                    "{a:?} / {b:?}: intersecting, yet {} apart",
                    ab.distance
                );
            } else {
                assert!(ab.distance >= -tol, "{a:?} / {b:?}: apart, yet {} deep", -ab.distance);
            }
            PLANAR_CHECKED.fetch_add(1, Ordering::Relaxed);
        }
    }
    // The box as a polygon (SAT) and as a support map (GJK + EPA) against every shape: the
    // same signed distance.
    if let (Some(corners), Some(s)) = (&corners, &support) {
        for &b in &shapes {
            let sat = distance_2d(Shape2::Polygon(corners), b, &mut PairCache2::default());
            let gjk = distance_2d(Shape2::Convex(s, 0.0), b, &mut PairCache2::default());
            if let (Ok(sat), Ok(gjk)) = (sat, gjk) {
                if sat.status == ContactStatus::Converged && gjk.status == ContactStatus::Converged {
                    assert!(
                        (sat.distance - gjk.distance).abs() <= tol,
                        "box polygon / {b:?}: {} by the dispatcher, {} by GJK + EPA",
                        sat.distance,
                        gjk.distance
                    );
                    PLANAR_COMPARED.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
    }
}
