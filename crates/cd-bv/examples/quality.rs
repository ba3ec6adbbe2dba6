//! Prints the bounding-volume quality tables of `docs/bounding-volumes.md`: for each data set,
//! every sphere method's radius over the exact minimal radius, every OBB method's surface area
//! and volume over the tight reference, and the time each method takes.
//!
//! Run with `cargo run --release -p cd-bv --example quality`.

use cd_bv::*;
use cd_geom::{BoundingVolume, Obb};
use nalgebra::{Point3, UnitQuaternion};
use std::time::Instant;

fn obj(text: &str) -> Vec<Point3<f64>> {
    text.lines()
        .filter_map(|l| l.strip_prefix("v "))
        .map(|l| {
            let v: Vec<f64> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
            Point3::new(v[0], v[1], v[2])
        })
        .collect()
}

fn rng(seed: u64) -> impl FnMut() -> f64 {
    let mut s = seed;
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
}

/// `n` points in an ellipsoid with semi-axes (10, 4, 1), rotated: elongated like many real parts.
fn ellipsoid(n: usize) -> Vec<Point3<f64>> {
    let mut r = rng(3);
    let q = UnitQuaternion::from_euler_angles(0.4, 0.9, 0.2);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let p = Point3::new(r(), r(), r());
        if p.coords.norm() <= 1.0 {
            out.push(q * Point3::new(p.x * 10.0, p.y * 4.0, p.z));
        }
    }
    out
}

/// A rotated box surface sampled unevenly (dense on one face): a trap for plain PCA.
fn skewed_box(n: usize) -> Vec<Point3<f64>> {
    let mut r = rng(5);
    let q = UnitQuaternion::from_euler_angles(0.3, 0.5, 0.7);
    (0..n)
        .map(|i| {
            let (a, b) = (r(), r());
            let p = match i % 8 {
                0..=4 => Point3::new(a * 5.0, b * 2.0, 1.0),
                5 => Point3::new(a * 5.0, b * 2.0, -1.0),
                6 => Point3::new(5.0 * a.signum(), b * 2.0, r()),
                _ => Point3::new(a * 5.0, 2.0 * b.signum(), r()),
            };
            q * p
        })
        .collect()
}

fn time<R>(f: impl Fn() -> R) -> (R, f64) {
    let t = Instant::now();
    let mut r = f();
    let mut runs = 1;
    while t.elapsed().as_secs_f64() < 0.2 {
        r = f();
        runs += 1;
    }
    (r, t.elapsed().as_secs_f64() / runs as f64 * 1e3)
}

type ObbFn = fn(&[Point3<f64>]) -> Result<Obb<f64, 3>, cd_geom::GeomError>;

fn main() {
    let sets: Vec<(&str, Vec<Point3<f64>>)> = vec![
        ("bunny (1,839 v)", obj(include_str!("../tests/data/bunny.obj"))),
        ("FCL env (6,540 v)", obj(include_str!("../tests/data/fcl_env.obj"))),
        ("ellipsoid 100k", ellipsoid(100_000)),
        ("skewed box 20k", skewed_box(20_000)),
    ];
    println!("### Spheres: radius / exact minimal radius (time in ms)\n");
    println!("| data | AABB half-diagonal | AABB centre + farthest | Ritter | EPOS-6 | EPOS-14 | EPOS-26 | EPOS-98 | exact (Welzl) |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (name, pts) in &sets {
        let (exact, te) = time(|| minimal_ball(pts).unwrap());
        let r0 = exact.radius();
        let mut row = format!("| {name} ");
        let methods: Vec<(cd_geom::Ball<f64, 3>, f64)> = vec![
            time(|| ball_aabb_half_diagonal(pts).unwrap()),
            time(|| ball_aabb_farthest(pts).unwrap()),
            time(|| ritter_ball(pts).unwrap()),
            time(|| epos_ball(pts, EposSet::Epos6).unwrap()),
            time(|| epos_ball(pts, EposSet::Epos14).unwrap()),
            time(|| epos_ball(pts, EposSet::Epos26).unwrap()),
            time(|| epos_ball(pts, EposSet::Epos98).unwrap()),
        ];
        for (b, t) in methods {
            row += &format!("| {:.4} ({:.3}) ", b.radius() / r0, t);
        }
        row += &format!("| 1 ({te:.3}) |");
        println!("{row}");
    }
    println!("\n### OBBs: surface area / reference, volume / reference (time in ms)\n");
    println!(
        "| data | AABB | PCA | PCA on hull | area-weighted hull PCA | DiTO-14 | DiTO-26 | reference (area) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    let methods: [(&str, ObbFn); 6] = [
        ("aabb", |p| Ok(Obb::from_aabb(&aabb_from_points(p)?))),
        ("pca", obb_pca::<f64, 3>),
        ("pca-hull", obb_pca_hull::<f64, 3>),
        ("pca-area", obb_pca_hull_area::<f64>),
        ("dito14", obb_dito14::<f64>),
        ("dito26", obb_dito26::<f64>),
    ];
    for (name, pts) in &sets {
        let (reference, tr) = time(|| obb_reference(pts, ObbMetric::SurfaceArea).unwrap());
        let rv = obb_reference(pts, ObbMetric::Volume).unwrap().volume();
        let ra = reference.surface_area();
        let mut row = format!("| {name} ");
        for (_, f) in methods {
            let (o, t) = time(|| f(pts).unwrap());
            row += &format!("| {:.3} / {:.3} ({:.3}) ", o.surface_area() / ra, o.volume() / rv, t);
        }
        row += &format!("| 1 / {:.3} ({tr:.1}) |", reference.volume() / rv);
        println!("{row}");
    }
}
