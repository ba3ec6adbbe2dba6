//! cd-geom against parry3d on identical inputs (f32). Each benchmark processes a batch of
//! `BATCH` random pairs per iteration, so the reported time is per batch; the ratio cd/parry is
//! what `docs/benchmarks.md` records.

use cd_benches::{Rng, BATCH};
use cd_geom as cd;
use criterion::{criterion_group, criterion_main, Criterion};
use nalgebra::{Point3, UnitQuaternion, Vector3};
use parry3d::bounding_volume::{Aabb as PAabb, BoundingVolume};
use parry3d::math::{Pose, Rotation, Vector};
use parry3d::query::{self, Ray as PRay, RayCast};
use parry3d::shape::{Ball as PBall, Cuboid, Triangle as PTriangle};
use std::hint::black_box;

fn v(p: &Vector3<f32>) -> Vector {
    Vector::new(p.x, p.y, p.z)
}
fn pt(p: &Point3<f32>) -> Vector {
    Vector::new(p.x, p.y, p.z)
}
fn rot(q: &UnitQuaternion<f32>) -> Rotation {
    Rotation::from_xyzw(q.i, q.j, q.k, q.w)
}

/// Random rays aimed near the origin, so roughly half of them hit the shapes below.
fn rays(rng: &mut Rng) -> Vec<cd::Ray<f32, 3>> {
    (0..BATCH)
        .map(|_| {
            let o = rng.point(10.0);
            let target = rng.point(1.5);
            cd::Ray::new(o, target - o).unwrap()
        })
        .collect()
}

fn to_parry_ray(r: &cd::Ray<f32, 3>) -> PRay {
    PRay::new(pt(r.origin()), v(r.dir()))
}

fn triangles(rng: &mut Rng, spread: f32, size: f32) -> Vec<cd::Triangle<f32, 3>> {
    (0..BATCH)
        .map(|_| {
            let c = rng.point(spread);
            cd::Triangle::new(c + rng.vector(size), c + rng.vector(size), c + rng.vector(size)).unwrap()
        })
        .collect()
}

fn to_parry_tri(t: &cd::Triangle<f32, 3>) -> PTriangle {
    PTriangle::new(pt(t.a()), pt(t.b()), pt(t.c()))
}

fn obbs(rng: &mut Rng, spread: f32) -> Vec<cd::Obb<f32, 3>> {
    (0..BATCH)
        .map(|_| {
            let h = Vector3::new(rng.range(0.2, 1.5), rng.range(0.2, 1.5), rng.range(0.2, 1.5));
            cd::Obb::from_rotation(rng.point(spread), rng.rotation(), h).unwrap()
        })
        .collect()
}

fn to_parry_obb(o: &cd::Obb<f32, 3>) -> (Pose, Cuboid) {
    let q = UnitQuaternion::from_matrix(o.axes());
    (Pose::from_parts(pt(o.center()), rot(&q)), Cuboid::new(v(o.half_extents())))
}

fn aabbs(rng: &mut Rng, spread: f32) -> Vec<cd::Aabb<f32, 3>> {
    (0..BATCH)
        .map(|_| {
            let h = Vector3::new(rng.range(0.2, 1.5), rng.range(0.2, 1.5), rng.range(0.2, 1.5));
            cd::Aabb::from_center_half_extents(rng.point(spread), h).unwrap()
        })
        .collect()
}

fn to_parry_aabb(b: &cd::Aabb<f32, 3>) -> PAabb {
    PAabb::new(pt(b.min()), pt(b.max()))
}

fn ray_triangle(c: &mut Criterion) {
    let mut rng = Rng::new(1);
    let rs = rays(&mut rng);
    let ts = triangles(&mut rng, 1.0, 2.0);
    let prs: Vec<PRay> = rs.iter().map(to_parry_ray).collect();
    let pts: Vec<PTriangle> = ts.iter().map(to_parry_tri).collect();
    let mut g = c.benchmark_group("ray_triangle");
    g.bench_function("cd", |b| {
        b.iter(|| {
            rs.iter().zip(&ts).filter_map(|(r, t)| cd::ray_triangle(black_box(r), black_box(t))).count()
        })
    });
    g.bench_function("cd_watertight", |b| {
        b.iter(|| {
            rs.iter()
                .zip(&ts)
                .filter_map(|(r, t)| cd::ray_triangle_watertight(black_box(r), black_box(t)))
                .count()
        })
    });
    g.bench_function("parry", |b| {
        b.iter(|| {
            prs.iter()
                .zip(&pts)
                .filter_map(|(r, t)| black_box(t).cast_local_ray(black_box(r), f32::MAX, true))
                .count()
        })
    });
    g.finish();
}

fn ray_aabb(c: &mut Criterion) {
    let mut rng = Rng::new(2);
    let rs = rays(&mut rng);
    let bs = aabbs(&mut rng, 1.0);
    let prs: Vec<PRay> = rs.iter().map(to_parry_ray).collect();
    let pbs: Vec<PAabb> = bs.iter().map(to_parry_aabb).collect();
    let mut g = c.benchmark_group("ray_aabb");
    g.bench_function("cd", |b| {
        b.iter(|| rs.iter().zip(&bs).filter_map(|(r, x)| cd::ray_aabb(black_box(r), black_box(x))).count())
    });
    g.bench_function("parry", |b| {
        b.iter(|| {
            prs.iter()
                .zip(&pbs)
                .filter_map(|(r, x)| black_box(x).cast_local_ray_and_get_normal(black_box(r), f32::MAX, true))
                .count()
        })
    });
    g.finish();
}

fn ray_obb(c: &mut Criterion) {
    let mut rng = Rng::new(3);
    let rs = rays(&mut rng);
    let os = obbs(&mut rng, 1.0);
    let prs: Vec<PRay> = rs.iter().map(to_parry_ray).collect();
    let pos: Vec<(Pose, Cuboid)> = os.iter().map(to_parry_obb).collect();
    let mut g = c.benchmark_group("ray_obb");
    g.bench_function("cd", |b| {
        b.iter(|| rs.iter().zip(&os).filter_map(|(r, o)| cd::ray_obb(black_box(r), black_box(o))).count())
    });
    g.bench_function("parry", |b| {
        b.iter(|| {
            prs.iter()
                .zip(&pos)
                .filter_map(|(r, (p, cub))| {
                    black_box(cub).cast_ray_and_get_normal(black_box(p), black_box(r), f32::MAX, true)
                })
                .count()
        })
    });
    g.finish();
}

fn ray_sphere(c: &mut Criterion) {
    let mut rng = Rng::new(4);
    let rs = rays(&mut rng);
    let ss: Vec<cd::Ball<f32, 3>> =
        (0..BATCH).map(|_| cd::Ball::new(rng.point(1.0), rng.range(0.3, 1.5)).unwrap()).collect();
    let prs: Vec<PRay> = rs.iter().map(to_parry_ray).collect();
    let pss: Vec<(Pose, PBall)> = ss
        .iter()
        .map(|s| (Pose::from_parts(pt(s.center()), Rotation::IDENTITY), PBall::new(s.radius())))
        .collect();
    let mut g = c.benchmark_group("ray_sphere");
    g.bench_function("cd", |b| {
        b.iter(|| rs.iter().zip(&ss).filter_map(|(r, s)| cd::ray_ball(black_box(r), black_box(s))).count())
    });
    g.bench_function("parry", |b| {
        b.iter(|| {
            prs.iter()
                .zip(&pss)
                .filter_map(|(r, (p, s))| {
                    black_box(s).cast_ray_and_get_normal(black_box(p), black_box(r), f32::MAX, true)
                })
                .count()
        })
    });
    g.finish();
}

fn obb_obb(c: &mut Criterion) {
    let mut rng = Rng::new(5);
    let a = obbs(&mut rng, 2.5);
    let b2 = obbs(&mut rng, 2.5);
    let pa: Vec<(Pose, Cuboid)> = a.iter().map(to_parry_obb).collect();
    let pb: Vec<(Pose, Cuboid)> = b2.iter().map(to_parry_obb).collect();
    let mut g = c.benchmark_group("obb_obb");
    g.bench_function("cd", |b| {
        b.iter(|| a.iter().zip(&b2).filter(|(x, y)| cd::obb_obb(black_box(x), black_box(y))).count())
    });
    g.bench_function("cd_face_axes", |b| {
        b.iter(|| {
            a.iter().zip(&b2).filter(|(x, y)| cd::obb_obb_face_axes(black_box(x), black_box(y))).count()
        })
    });
    g.bench_function("parry", |b| {
        b.iter(|| {
            pa.iter()
                .zip(&pb)
                .filter(|((p1, c1), (p2, c2))| {
                    query::intersection_test(black_box(p1), c1, black_box(p2), c2).unwrap().intersecting
                })
                .count()
        })
    });
    g.bench_function("parry_direct", |b| {
        b.iter(|| {
            pa.iter()
                .zip(&pb)
                .filter(|((p1, c1), (p2, c2))| {
                    query::details::intersection_test_cuboid_cuboid(
                        &black_box(p1).inv_mul(black_box(p2)),
                        c1,
                        c2,
                    )
                })
                .count()
        })
    });
    g.finish();
}

fn aabb_aabb(c: &mut Criterion) {
    let mut rng = Rng::new(6);
    let a = aabbs(&mut rng, 3.0);
    let b2 = aabbs(&mut rng, 3.0);
    let pa: Vec<PAabb> = a.iter().map(to_parry_aabb).collect();
    let pb: Vec<PAabb> = b2.iter().map(to_parry_aabb).collect();
    let mut g = c.benchmark_group("aabb_aabb");
    g.bench_function("cd", |b| {
        b.iter(|| a.iter().zip(&b2).filter(|(x, y)| cd::aabb_aabb(black_box(x), black_box(y))).count())
    });
    g.bench_function("parry", |b| {
        b.iter(|| pa.iter().zip(&pb).filter(|(x, y)| black_box(x).intersects(black_box(y))).count())
    });
    g.finish();
}

fn triangle_triangle(c: &mut Criterion) {
    let mut rng = Rng::new(7);
    let a = triangles(&mut rng, 1.5, 1.5);
    let b2 = triangles(&mut rng, 1.5, 1.5);
    let pa: Vec<PTriangle> = a.iter().map(to_parry_tri).collect();
    let pb: Vec<PTriangle> = b2.iter().map(to_parry_tri).collect();
    let id = Pose::IDENTITY;
    let mut g = c.benchmark_group("triangle_triangle");
    g.bench_function("cd", |b| {
        b.iter(|| {
            a.iter()
                .zip(&b2)
                .filter(|(x, y)| cd::triangle_triangle(black_box(x), black_box(y)).intersects())
                .count()
        })
    });
    g.bench_function("parry", |b| {
        b.iter(|| {
            pa.iter()
                .zip(&pb)
                .filter(|(x, y)| {
                    query::intersection_test(&id, black_box(*x), &id, black_box(*y)).unwrap().intersecting
                })
                .count()
        })
    });
    g.finish();
}

fn triangle_aabb(c: &mut Criterion) {
    let mut rng = Rng::new(8);
    let ts = triangles(&mut rng, 2.0, 1.5);
    let bs = aabbs(&mut rng, 2.0);
    let pts: Vec<PTriangle> = ts.iter().map(to_parry_tri).collect();
    let pbs: Vec<PAabb> = bs.iter().map(to_parry_aabb).collect();
    let mut g = c.benchmark_group("triangle_aabb");
    g.bench_function("cd", |b| {
        b.iter(|| ts.iter().zip(&bs).filter(|(t, x)| cd::triangle_aabb(black_box(t), black_box(x))).count())
    });
    g.bench_function("parry", |b| {
        b.iter(|| {
            pts.iter()
                .zip(&pbs)
                .filter(|(t, x)| query::details::intersection_test_aabb_triangle(black_box(x), black_box(t)))
                .count()
        })
    });
    g.finish();
}

fn sphere_aabb(c: &mut Criterion) {
    let mut rng = Rng::new(9);
    let ss: Vec<cd::Ball<f32, 3>> =
        (0..BATCH).map(|_| cd::Ball::new(rng.point(3.0), rng.range(0.2, 1.5)).unwrap()).collect();
    let bs = aabbs(&mut rng, 3.0);
    let pss: Vec<(Pose, PBall)> = ss
        .iter()
        .map(|s| (Pose::from_parts(pt(s.center()), Rotation::IDENTITY), PBall::new(s.radius())))
        .collect();
    let pbs: Vec<(Pose, Cuboid)> = bs
        .iter()
        .map(|x| (Pose::from_parts(pt(&x.center()), Rotation::IDENTITY), Cuboid::new(v(&x.half_extents()))))
        .collect();
    let mut g = c.benchmark_group("sphere_aabb");
    g.bench_function("cd", |b| {
        b.iter(|| ss.iter().zip(&bs).filter(|(s, x)| cd::ball_aabb(black_box(s), black_box(x))).count())
    });
    g.bench_function("parry", |b| {
        b.iter(|| {
            pss.iter()
                .zip(&pbs)
                .filter(|((p1, s), (p2, x))| {
                    query::intersection_test(black_box(p1), s, black_box(p2), x).unwrap().intersecting
                })
                .count()
        })
    });
    g.finish();
}

criterion_group! {
    name = geom;
    config = Criterion::default().sample_size(30).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(2));
    targets = ray_triangle, ray_aabb, ray_obb, ray_sphere, obb_obb, aabb_aabb, triangle_triangle, triangle_aabb, sphere_aabb
}
criterion_main!(geom);
