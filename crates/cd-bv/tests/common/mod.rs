//! Test data loaders and independent oracles for cd-bv's tests.
#![allow(dead_code)]

use nalgebra::{DMatrix, DVector, Point3, SVector};

/// Vertices of a plain OBJ file (`v x y z` lines; FCL's header line is skipped).
pub fn obj_vertices(text: &str) -> Vec<Point3<f64>> {
    text.lines()
        .filter_map(|l| l.strip_prefix("v "))
        .map(|l| {
            let v: Vec<f64> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
            Point3::new(v[0], v[1], v[2])
        })
        .collect()
}

/// Triangles of a plain OBJ file as vertex index triples (1-based `f` lines, either OBJ
/// flavour).
pub fn obj_faces(text: &str) -> Vec<[usize; 3]> {
    text.lines()
        .filter_map(|l| l.strip_prefix("f "))
        .map(|l| {
            let v: Vec<usize> = l
                .split_whitespace()
                .map(|x| x.split('/').next().unwrap().parse::<usize>().unwrap() - 1)
                .collect();
            [v[0], v[1], v[2]]
        })
        .collect()
}

pub const BUNNY: &str = include_str!("../data/bunny.obj");
pub const FCL_ENV: &str = include_str!("../data/fcl_env.obj");

/// The circumscribed ball of `pts` within their affine hull, by a least-squares-free direct
/// solve with nalgebra's LU (independent of the crate's own elimination). `None` if degenerate.
pub fn circumball<const D: usize>(pts: &[SVector<f64, D>]) -> Option<(SVector<f64, D>, f64)> {
    if pts.len() == 1 {
        return Some((pts[0], 0.0));
    }
    let k = pts.len() - 1;
    let v: Vec<SVector<f64, D>> = pts[1..].iter().map(|p| p - pts[0]).collect();
    let a = DMatrix::from_fn(k, k, |i, j| 2.0 * v[i].dot(&v[j]));
    let b = DVector::from_fn(k, |i, _| v[i].norm_squared());
    let lambda = a.lu().solve(&b)?;
    let c = pts[0] + (0..k).fold(SVector::<f64, D>::zeros(), |s, j| s + v[j] * lambda[j]);
    Some((c, (c - pts[0]).norm()))
}

/// Minimal enclosing ball by brute force over every support set of 1..=D+1 points: the
/// smallest circumball that contains all points. O(n^(D+2)); only for small sets.
pub fn brute_force_min_ball<const D: usize>(pts: &[SVector<f64, D>]) -> (SVector<f64, D>, f64) {
    let n = pts.len();
    let mut best: Option<(SVector<f64, D>, f64)> = None;
    let mut consider = |idx: &[usize]| {
        let sup: Vec<SVector<f64, D>> = idx.iter().map(|&i| pts[i]).collect();
        if let Some((c, r)) = circumball(&sup) {
            if pts.iter().all(|p| (p - c).norm() <= r * (1.0 + 1e-9) + 1e-12) && best.is_none_or(|b| r < b.1)
            {
                best = Some((c, r));
            }
        }
    };
    for a in 0..n {
        consider(&[a]);
        for b in a + 1..n {
            consider(&[a, b]);
            for c in b + 1..n {
                consider(&[a, b, c]);
                if D >= 3 {
                    for d in c + 1..n {
                        consider(&[a, b, c, d]);
                    }
                }
            }
        }
    }
    best.expect("some support set works")
}

/// A deterministic xorshift generator of uniform values in [-1, 1).
pub fn xorshift(seed: u64) -> impl FnMut() -> f64 {
    let mut s = seed;
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
}
