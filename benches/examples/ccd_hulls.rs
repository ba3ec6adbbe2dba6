//! Linear casts of two 32-point hulls, cd against parry3d, the two libraries alternating in one
//! process: the `ccd_hull32_linear` group of `benches/ccd.rs` (same shapes, same motions),
//! with cd's `shape_cast_posed` on the hulls themselves and parry's `cast_shapes`.
//!
//! `cargo run --release -p cd-benches --example ccd_hulls -- ROUNDS [cd|parry|both]`: with a
//! library named, only that one runs (for callgrind). It first checks that both libraries
//! find the same hits, to within 10⁻³ in time.

use cd_benches::{alternating_medians, ccd_motions, parry_pose, parry_vector, sphere_points};
use cd_ccd::{shape_cast_posed, CastConfig, LinearMotion};
use parry3d::math::Vector;
use parry3d::query::{cast_shapes, ShapeCastOptions};
use parry3d::shape::ConvexPolyhedron as PHull;
use std::hint::black_box;

/// The bench's hull: 32 points on a sphere of this radius.
const RADIUS: f32 = 0.6;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rounds: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20);
    let only = args.get(2).cloned();

    let pts = sphere_points(32, RADIUS);
    let hull = cd_bv::convex_hull_3d(&pts).expect("hull");
    let pv: Vec<Vector> = pts.iter().map(|p| Vector::new(p.x, p.y, p.z)).collect();
    let phull = PHull::from_convex_hull(&pv).expect("parry hull");
    // The bench's seed for the hull pair's linear group.
    let bodies = ccd_motions(false, 7 + 3 * 13);
    let motions: Vec<LinearMotion<f32, 3>> =
        bodies.iter().map(|(a, b)| LinearMotion::new(a.linvel, b.linvel, 1.0).unwrap()).collect();
    let parry_inputs: Vec<_> = bodies
        .iter()
        .map(|(a, b)| {
            (parry_pose(&a.pose), parry_vector(&a.linvel), parry_pose(&b.pose), parry_vector(&b.linvel))
        })
        .collect();
    let config = CastConfig::default();
    let opts = ShapeCastOptions::with_max_time_of_impact(1.0);

    let run_cd = || {
        bodies
            .iter()
            .zip(&motions)
            .map(|((a, b), m)| {
                shape_cast_posed(&hull, &a.pose, 0.0, &hull, &b.pose, 0.0, m, &config).map(|h| h.time)
            })
            .collect::<Vec<_>>()
    };
    let run_parry = || {
        parry_inputs
            .iter()
            .map(|(pa, va, pb, vb)| {
                cast_shapes(pa, *va, &phull, pb, *vb, &phull, opts).ok().flatten().map(|h| h.time_of_impact)
            })
            .collect::<Vec<_>>()
    };
    if only.is_none() {
        let (c, p) = (run_cd(), run_parry());
        let agree = c
            .iter()
            .zip(&p)
            .filter(|(x, y)| match (x, y) {
                (Some(x), Some(y)) => (x - y).abs() <= 1e-3,
                (None, None) => true,
                _ => false,
            })
            .count();
        println!(
            "{agree} of {} casts agree (hits: cd {}, parry {})",
            c.len(),
            c.iter().flatten().count(),
            p.iter().flatten().count()
        );
    }
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
    println!(
        "hull32 linear casts, {} pairs: cd {c:.1} µs, parry {p:.1} µs, ratio {:.3}",
        bodies.len(),
        c / p
    );
}
