//! Oracles and generators for the narrow-phase tests. The oracles never call GJK, EPA or SAT:
//! distances come from enumerating every vertex triangle (3D) or vertex segment (2D) of both
//! point sets, depths from the exact minimum over all candidate separating axes.
#![allow(dead_code)]

use cd_geom::*;
use nalgebra::{Point2, Point3, Vector2, Vector3};

pub type P3 = Point3<f64>;
pub type V3 = Vector3<f64>;
pub type P2 = Point2<f64>;
pub type V2 = Vector2<f64>;

/// Proptest case count: `default`, or `PROPTEST_CASES` from the environment for long soaks.
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

/// The convex hull of a point set as a support map (linear scan: obviously right).
#[derive(Clone, Debug)]
pub struct Cloud<const D: usize>(pub Vec<Point<f64, D>>);

impl<const D: usize> SupportMap<f64, D> for Cloud<D> {
    fn support(&self, d: &Vector<f64, D>) -> Point<f64, D> {
        let mut best = self.0[0];
        let mut bd = d.dot(&best.coords);
        for p in &self.0[1..] {
            let x = d.dot(&p.coords);
            if x > bd {
                bd = x;
                best = *p;
            }
        }
        best
    }
}

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
    pub fn vector<const D: usize>(&mut self, lo: f64, hi: f64) -> Vector<f64, D> {
        Vector::from_fn(|_, _| self.range(lo, hi))
    }
    /// `n` points in a box of half-size in `[rmin, rmax]` around a centre within `spread` of the
    /// origin.
    pub fn blob<const D: usize>(&mut self, n: usize, spread: f64, rmin: f64, rmax: f64) -> Cloud<D> {
        let c = self.vector::<D>(-spread, spread);
        let r = self.range(rmin, rmax);
        self.cloud(n, c, r)
    }
    /// `n` points in a ball-ish blob of radius `r` around `c`.
    pub fn cloud<const D: usize>(&mut self, n: usize, c: Vector<f64, D>, r: f64) -> Cloud<D> {
        Cloud((0..n).map(|_| Point::from(c + self.vector::<D>(-r, r))).collect())
    }
}

/// Exact distance between the hulls of two 3D point sets when they are disjoint: the closest
/// points lie on boundary triangles, and every boundary triangle is spanned by three vertices.
pub fn brute_distance_3d(a: &[P3], b: &[P3]) -> f64 {
    let ta = triangles(a);
    let tb = triangles(b);
    let mut best = f64::INFINITY;
    for x in &ta {
        for y in &tb {
            best = best.min(closest_points_triangle_triangle(x, y).distance());
        }
    }
    best
}

fn triangles(p: &[P3]) -> Vec<Triangle<f64, 3>> {
    let mut out = Vec::new();
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            for k in j + 1..p.len() {
                if let Ok(t) = Triangle::new(p[i], p[j], p[k]) {
                    out.push(t);
                }
            }
        }
    }
    out
}

/// Exact distance between the hulls of two 2D point sets when disjoint (vertex segments).
pub fn brute_distance_2d(a: &[P2], b: &[P2]) -> f64 {
    let mut best = f64::INFINITY;
    for sa in segments(a) {
        for sb in segments(b) {
            best = best.min(closest_points_segment_segment(&sa, &sb).0.distance());
        }
    }
    best
}

fn segments<const D: usize>(p: &[Point<f64, D>]) -> Vec<Segment<f64, D>> {
    let mut out = Vec::new();
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            if let Ok(s) = Segment::new(p[i], p[j]) {
                out.push(s);
            }
        }
    }
    out
}

/// The translation of B along unit `n` that makes the hulls just touch (`max_A n·x −
/// min_B n·x`; negative when they are already separated along `n`).
pub fn overlap_along<const D: usize>(a: &[Point<f64, D>], b: &[Point<f64, D>], n: &Vector<f64, D>) -> f64 {
    let max_a = a.iter().map(|p| n.dot(&p.coords)).fold(f64::NEG_INFINITY, f64::max);
    let min_b = b.iter().map(|p| n.dot(&p.coords)).fold(f64::INFINITY, f64::min);
    max_a - min_b
}

/// Candidate axes of the Minkowski difference of two 3D hulls: the normals of every vertex
/// triple of each (a superset of the face normals) and the cross products of every vertex pair
/// of A with every vertex pair of B (a superset of the edge pairs), both signs, unit length.
pub fn candidate_axes_3d(a: &[P3], b: &[P3]) -> Vec<V3> {
    let mut axes = Vec::new();
    for t in triangles(a).iter().chain(triangles(b).iter()) {
        let [p, q, r] = t.vertices();
        axes.push((q - p).cross(&(r - p)));
    }
    let ea: Vec<V3> = segments(a).iter().map(|s| s.b() - s.a()).collect();
    let eb: Vec<V3> = segments(b).iter().map(|s| s.b() - s.a()).collect();
    for x in &ea {
        for y in &eb {
            axes.push(x.cross(y));
        }
    }
    unit_both_signs(axes)
}

/// Candidate axes of two 2D hulls: the normals of every vertex pair of either, both signs.
pub fn candidate_axes_2d(a: &[P2], b: &[P2]) -> Vec<V2> {
    let axes = segments(a).into_iter().chain(segments(b)).map(|s| {
        let e = s.b() - s.a();
        V2::new(e.y, -e.x)
    });
    unit_both_signs(axes.collect())
}

fn unit_both_signs<const D: usize>(axes: Vec<Vector<f64, D>>) -> Vec<Vector<f64, D>> {
    let mut out = Vec::new();
    for v in axes {
        let n = v.norm();
        if n > 1e-9 {
            out.push(v / n);
            out.push(-v / n);
        }
    }
    out
}

/// Exact penetration depth of two overlapping hulls (the smallest translation of B that
/// separates them), with its axis.
pub fn exact_depth<const D: usize>(
    a: &[Point<f64, D>],
    b: &[Point<f64, D>],
    axes: &[Vector<f64, D>],
) -> (f64, Vector<f64, D>) {
    let mut best = (f64::INFINITY, Vector::zeros());
    for n in axes {
        let o = overlap_along(a, b, n);
        if o < best.0 {
            best = (o, *n);
        }
    }
    best
}
