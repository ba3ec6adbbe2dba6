//! Cold hull/hull queries, cd against parry3d, the two libraries alternating in one process
//! (criterion runs them minutes apart, and this host's speed drifts between them). The
//! batches are built as in `benches/narrow.rs`: random rotations and directions, centres
//! 0.05–0.5 beyond the two bounding radii (`distance`), between the two inner and the two
//! outer radii (`graze`: intersection tests), or within 0.3 (`pen`: contacts).
//!
//! `cargo run --release -p cd-benches --example narrow_hulls -- N ROUNDS [cd|parry|both]
//! [distance|graze|pen]`: hulls of N vertices; with a library named, only that one runs (for
//! callgrind). With `HIST` set in
//! the environment it first prints how many GJK iterations cd's queries take (a histogram).

use cd_benches::{alternating_medians, parry_pose, sphere_points, Rng, BATCH};
use cd_narrow::{contact, distance, intersects, PairCache, Shape};
use nalgebra::{Isometry3, Translation3};
use parry3d::math::{Pose, Vector};
use parry3d::query;
use parry3d::shape::ConvexPolyhedron as PHull;
use std::hint::black_box;

const RADIUS: f32 = 0.6;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(8);
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20);
    let only = args.get(3).cloned();
    let query = args.get(4).map_or("distance", |s| s.as_str());

    let pts = sphere_points(n, RADIUS);
    let hull = cd_bv::convex_hull_3d(&pts).expect("hull");
    let pv: Vec<Vector> = pts.iter().map(|p| Vector::new(p.x, p.y, p.z)).collect();
    let phull = PHull::from_convex_hull(&pv).expect("parry hull");

    let mut rng = Rng::new(25);
    let mut poses: Vec<(Isometry3<f32>, Isometry3<f32>)> = Vec::with_capacity(BATCH);
    for _ in 0..BATCH {
        let dir = loop {
            let v = rng.vector(1.0);
            if v.norm() > 0.1 && v.norm() <= 1.0 {
                break v.normalize();
            }
        };
        let gap = match query {
            "graze" => rng.range(2.0 * hull.inner_radius(), 2.0 * RADIUS),
            "pen" => rng.range(0.0, 0.3),
            _ => rng.range(2.0 * RADIUS + 0.05, 2.0 * RADIUS + 0.5),
        };
        let pa = Isometry3::from_parts(Translation3::identity(), rng.rotation());
        let pb = Isometry3::from_parts(Translation3::from(dir * gap), rng.rotation());
        poses.push((pa, pb));
    }
    let parry_poses: Vec<(Pose, Pose)> = poses.iter().map(|(a, b)| (parry_pose(a), parry_pose(b))).collect();

    if std::env::var("HIST").is_ok() {
        histogram(&hull, &poses);
    }
    let run_cd = || {
        let mut acc = 0.0;
        for (pa, pb) in &poses {
            let (a, b, cache) = (Shape::Hull(&hull, pa), Shape::Hull(&hull, pb), &mut PairCache::default());
            acc += match query {
                "graze" => f32::from(u8::from(intersects(a, b, cache).unwrap())),
                "pen" => contact(a, b, 0.0, cache).unwrap().map_or(0.0, |c| c.distance),
                _ => distance(a, b, cache).unwrap().distance,
            };
        }
        acc
    };
    let run_parry = || {
        let mut acc = 0.0;
        for (pa, pb) in &parry_poses {
            acc += match query {
                "graze" => f32::from(u8::from(
                    query::intersection_test(pa, &phull, pb, &phull).unwrap().intersecting,
                )),
                "pen" => query::contact(pa, &phull, pb, &phull, 0.0).unwrap().map_or(0.0, |c| c.dist),
                _ => query::distance(pa, &phull, pb, &phull).unwrap().distance,
            };
        }
        acc
    };
    let (c, p) = alternating_medians(
        rounds,
        50,
        only.as_deref(),
        || {
            black_box(run_cd());
        },
        || {
            black_box(run_parry());
        },
    );
    println!("hull{n} {query}, {BATCH} pairs: cd {c:.1} µs, parry {p:.1} µs, ratio {:.3}", c / p);
}

/// How many pairs of the batch take 0, 1, 2, … GJK iterations (19 or more in the last bin),
/// and for the overlapping ones the mean and largest number of EPA expansions.
fn histogram(hull: &cd_geom::ConvexPolyhedron<f32>, poses: &[(Isometry3<f32>, Isometry3<f32>)]) {
    use cd_geom::Transformed;
    let mut h = [0usize; 20];
    let (mut overlaps, mut expansions, mut most) = (0, 0, 0);
    for (pa, pb) in poses {
        let rel = pa.inv_mul(pb);
        let b = Transformed::new(hull, rel);
        let r = cd_narrow::gjk_distance(hull, &b, &Default::default(), &mut Default::default());
        h[(r.iterations as usize).min(19)] += 1;
        if r.status == cd_narrow::GjkStatus::Intersecting {
            let p = cd_narrow::epa(hull, &b, &r.simplex, &Default::default());
            overlaps += 1;
            expansions += p.iterations;
            most = most.max(p.iterations);
        }
    }
    eprintln!("GJK iterations: {h:?}");
    if overlaps > 0 {
        eprintln!(
            "EPA on {overlaps} overlapping pairs: {:.1} expansions on average, {most} at most",
            f64::from(expansions) / f64::from(overlaps)
        );
    }
}
