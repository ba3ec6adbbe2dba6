//! Convex hulls of the Stanford bunny's 1,839 vertices, cd's `convex_hull` against parry3d's
//! `try_convex_hull`, the two alternating in one process (criterion runs them seconds apart,
//! and this host's speed drifts between them): each round builds 50 hulls with one library,
//! then 50 with the other, and the medians of the rounds are compared.
//!
//! `cargo run --release -p cd-benches --example bv_hulls -- ROUNDS [cd|parry]`: with a library
//! named, only that one runs (for callgrind).

use cd_benches::{alternating_medians, bunny_vertices};
use parry3d::math::Vector;
use std::hint::black_box;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rounds: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(30);
    let only = args.get(2).cloned();
    let pts = bunny_vertices();
    let gp: Vec<Vector> = pts.iter().map(|p| Vector::new(p.x, p.y, p.z)).collect();
    let cd = || {
        black_box(cd_bv::convex_hull(black_box(&pts)).unwrap());
    };
    let parry = || {
        black_box(parry3d::transformation::try_convex_hull(black_box(&gp)).unwrap());
    };
    let (c, p) = alternating_medians(rounds, 50, only.as_deref(), cd, parry);
    println!("bunny hull ({} points): cd {c:.1} µs, parry {p:.1} µs, ratio {:.3}", pts.len(), c / p);
}
