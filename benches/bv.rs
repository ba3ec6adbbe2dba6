//! cd-bv against parry3d: each builder on the Stanford bunny (1,839 vertices), a 100k-point and
//! a 1M-point cloud (uniform in a ball), f32, identical inputs. Groups are `<builder>_<set>`;
//! within a group `cd*` rows are cd's methods and `parry` its counterpart.

use cd_benches::{ball_cloud, bunny_vertices};
use criterion::{criterion_group, criterion_main, Criterion};
use nalgebra::Point3;
use parry3d::bounding_volume::details::point_cloud_bounding_sphere;
use parry3d::bounding_volume::Aabb;
use parry3d::math::Vector;
use std::hint::black_box;

fn sets() -> Vec<(&'static str, Vec<Point3<f32>>)> {
    if cd_benches::quick() {
        return vec![("bunny", bunny_vertices())];
    }
    vec![("bunny", bunny_vertices()), ("100k", ball_cloud(100_000, 7)), ("1m", ball_cloud(1_000_000, 8))]
}

fn glam(pts: &[Point3<f32>]) -> Vec<Vector> {
    pts.iter().map(|p| Vector::new(p.x, p.y, p.z)).collect()
}

fn bench(c: &mut Criterion) {
    for (name, pts) in sets() {
        let gp = glam(&pts);
        let big = pts.len() > 200_000;
        let mut g = c.benchmark_group(format!("aabb_{name}"));
        g.bench_function("cd", |b| b.iter(|| cd_bv::aabb_from_points(black_box(&pts)).unwrap()));
        g.bench_function("parry", |b| b.iter(|| Aabb::from_points(black_box(&gp).iter().copied())));
        g.finish();

        let mut g = c.benchmark_group(format!("sphere_{name}"));
        g.bench_function("cd_exact_welzl", |b| b.iter(|| cd_bv::minimal_ball(black_box(&pts)).unwrap()));
        g.bench_function("cd_ritter", |b| b.iter(|| cd_bv::ritter_ball(black_box(&pts)).unwrap()));
        g.bench_function("cd_epos26", |b| {
            b.iter(|| cd_bv::epos_ball(black_box(&pts), cd_bv::EposSet::Epos26).unwrap())
        });
        g.bench_function("parry", |b| b.iter(|| point_cloud_bounding_sphere(black_box(&gp))));
        g.finish();

        let mut g = c.benchmark_group(format!("obb_{name}"));
        if big {
            g.sample_size(10);
        }
        g.bench_function("cd_dito14", |b| b.iter(|| cd_bv::obb_dito14(black_box(&pts)).unwrap()));
        g.bench_function("cd_pca", |b| b.iter(|| cd_bv::obb_pca(black_box(&pts)).unwrap()));
        g.bench_function("parry", |b| b.iter(|| parry3d::utils::obb(black_box(&gp))));
        g.finish();

        let mut g = c.benchmark_group(format!("hull_{name}"));
        if big {
            g.sample_size(10);
        }
        g.bench_function("cd", |b| b.iter(|| cd_bv::convex_hull(black_box(&pts)).unwrap()));
        g.bench_function("parry", |b| {
            b.iter(|| parry3d::transformation::try_convex_hull(black_box(&gp)).unwrap())
        });
        g.finish();
    }
}

criterion_group! {
    name = bv;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_secs(2));
    targets = bench
}
criterion_main!(bv);
