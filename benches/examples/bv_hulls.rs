//! Convex hulls of the Stanford bunny's 1,839 vertices, cd's `convex_hull` against parry3d's
//! `try_convex_hull`, the two alternating in one process (criterion runs them seconds apart,
//! and this host's speed drifts between them): each round builds 50 hulls with one library,
//! then 50 with the other, and the medians of the rounds are compared.
//!
//! `cargo run --release -p cd-benches --example bv_hulls -- ROUNDS [cd|parry]`: with a library
//! named, only that one runs (for callgrind).

use cd_benches::bunny_vertices;
use parry3d::math::Vector;
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rounds: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(30);
    let only = args.get(2).cloned();
    let pts = bunny_vertices();
    let gp: Vec<Vector> = pts.iter().map(|p| Vector::new(p.x, p.y, p.z)).collect();
    let time = |f: &dyn Fn()| {
        let start = Instant::now();
        for _ in 0..50 {
            f();
        }
        start.elapsed().as_secs_f64() * 1e6 / 50.0
    };
    let cd = || {
        black_box(cd_bv::convex_hull(black_box(&pts)).unwrap());
    };
    let parry = || {
        black_box(parry3d::transformation::try_convex_hull(black_box(&gp)).unwrap());
    };
    let (mut cd_t, mut parry_t) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        if only.as_deref() != Some("parry") {
            cd_t.push(time(&cd));
        }
        if only.as_deref() != Some("cd") {
            parry_t.push(time(&parry));
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.total_cmp(b));
        v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
    };
    let (c, p) = (median(&mut cd_t), median(&mut parry_t));
    println!("bunny hull ({} points): cd {c:.1} µs, parry {p:.1} µs, ratio {:.3}", pts.len(), c / p);
}
