//! Every hierarchy query against brute force over all primitives: every builder with every
//! volume type, on the Stanford bunny, FCL's env/rob scene under random rigid transforms, and
//! random triangle soups. Equality is exact (same pair sets, same triangle ids and parameters),
//! since the leaf tests are the same functions the brute force calls.

use cd_geom::{
    aabb_aabb, closest_point_on_triangle, closest_points_triangle_triangle, ray_triangle_watertight,
    triangle_aabb, triangle_triangle, Aabb, Ball, Dop18, Dop26, Obb, Ray, Triangle,
};
use cd_mid::{BuildConfig, Builder, HierarchyVolume, MeshBvh, Motion, QueryWorkspace, TriMesh};
use nalgebra::{Isometry3, Point3, Translation3, Vector3};

mod common;
use common::{bunny, Rng};

fn fcl(name: &str) -> TriMesh<f64> {
    let text = match name {
        "env" => include_str!("data/fcl_env.obj"),
        _ => include_str!("data/fcl_rob.obj"),
    };
    TriMesh::from_obj(text).unwrap()
}

fn soup(rng: &mut Rng, n: usize, extent: f64, size: f64) -> TriMesh<f64> {
    let tris: Vec<Triangle<f64, 3>> = (0..n)
        .map(|_| {
            let c = rng.point(extent);
            Triangle::new(c + rng.point(size).coords, c + rng.point(size).coords, c + rng.point(size).coords)
                .unwrap()
        })
        .collect();
    TriMesh::from_triangles(&tris).unwrap()
}

fn moved(mesh: &TriMesh<f64>, m: &Motion<f64, 3>, j: usize) -> Triangle<f64, 3> {
    let [a, b, c] = mesh.triangle(j).vertices().map(|p| m.transform_point(&p));
    Triangle::new(a, b, c).unwrap()
}

fn tri_aabb(t: &Triangle<f64, 3>) -> Aabb<f64, 3> {
    Aabb::from_points([t.a(), t.b(), t.c()]).unwrap()
}

/// All intersecting pairs by testing every pair (an AABB prefilter first: intersecting
/// triangles always have overlapping boxes).
fn brute_pairs(a: &TriMesh<f64>, b: &TriMesh<f64>, m: &Motion<f64, 3>) -> Vec<(u32, u32)> {
    let bt: Vec<_> = (0..b.len()).map(|j| moved(b, m, j)).collect();
    let bb: Vec<_> = bt.iter().map(tri_aabb).collect();
    let mut out = Vec::new();
    for i in 0..a.len() {
        let ta = a.triangle(i);
        let ba = tri_aabb(&ta);
        for j in 0..b.len() {
            if aabb_aabb(&ba, &bb[j]) && triangle_triangle(&ta, &bt[j]).intersects() {
                out.push((i as u32, j as u32));
            }
        }
    }
    out
}

/// A motion of model B and the pairs brute force finds under it.
type Case = (Motion<f64, 3>, Vec<(u32, u32)>);

fn configs() -> Vec<BuildConfig> {
    let mut v: Vec<BuildConfig> = Builder::ALL.iter().map(|&b| BuildConfig::with_builder(b)).collect();
    v.push(BuildConfig::with_builder(Builder::BinnedSah).leaf_size(1));
    v.push(BuildConfig::with_builder(Builder::Ploc).leaf_size(8));
    v
}

/// Runs `f` for every volume type.
macro_rules! for_each_volume {
    ($f:ident ( $($arg:expr),* )) => {
        $f::<Aabb<f64, 3>>($($arg),*);
        $f::<Ball<f64, 3>>($($arg),*);
        $f::<Obb<f64, 3>>($($arg),*);
        $f::<Dop18<f64>>($($arg),*);
        $f::<Dop26<f64>>($($arg),*);
        $f::<cd_mid::SatLiteObb<f64>>($($arg),*);
    };
}

fn check_pairs<B: HierarchyVolume<f64, 3>>(a: &TriMesh<f64>, b: &TriMesh<f64>, motions: &[Case]) {
    let mut ws = QueryWorkspace::new();
    for config in configs() {
        let ma: MeshBvh<f64, B> = MeshBvh::with_config(a.clone(), &config).unwrap();
        let mb: MeshBvh<f64, B> = MeshBvh::with_config(b.clone(), &config).unwrap();
        ma.bvh().validate(ma.mesh()).unwrap();
        mb.bvh().validate(mb.mesh()).unwrap();
        for (m, expect) in motions {
            let got = ma.overlapping_triangles(&mb, m, &mut ws);
            assert_eq!(&got, expect, "{} / {:?}", B::name(), config.builder);
            let first = ma.first_overlap(&mb, m, &mut ws);
            assert_eq!(first.is_some(), !expect.is_empty());
            if let Some(p) = first {
                assert!(expect.binary_search(&p).is_ok());
            }
        }
    }
}

#[test]
fn bunny_vs_moved_bunny_equals_brute_force() {
    let bunny = bunny();
    let mut rng = Rng(7);
    // Bunny is about 0.15 across: offsets up to 0.1 give partial overlaps of many sizes.
    let mut motions: Vec<_> = (0..4)
        .map(|_| {
            let pose = Isometry3::from_parts(Translation3::from(rng.point(0.06).coords), rng.rotation());
            let m = Motion::from_isometry(&pose);
            let expect = brute_pairs(&bunny, &bunny, &m);
            (m, expect)
        })
        .collect();
    // Identity: every triangle meets itself and its neighbours.
    let id = Motion::identity();
    motions.push((id, brute_pairs(&bunny, &bunny, &id)));
    assert!(motions.iter().all(|(_, e)| !e.is_empty()));
    for_each_volume!(check_pairs(&bunny, &bunny, &motions));
}

#[test]
fn fcl_scene_under_random_transforms_equals_brute_force() {
    let (env, rob) = (fcl("env"), fcl("rob"));
    let mut rng = Rng(2024);
    let mut motions = Vec::new();
    // FCL's ranges, plus a tighter box so plenty of transforms actually collide.
    for k in 0..60 {
        let (xy, z) = if k % 2 == 0 { (3000.0, 3000.0) } else { (1000.0, 1000.0) };
        let t = Vector3::new(rng.range(-xy, xy), rng.range(-xy, xy), rng.range(0.0, z));
        let m = Motion::from_isometry(&Isometry3::from_parts(Translation3::from(t), rng.rotation()));
        let expect = brute_pairs(&env, &rob, &m);
        motions.push((m, expect));
    }
    let colliding = motions.iter().filter(|(_, e)| !e.is_empty()).count();
    assert!(colliding >= 10, "only {colliding} colliding transforms");
    for_each_volume!(check_pairs(&env, &rob, &motions));
}

#[test]
fn random_soups_and_self_intersections_equal_brute_force() {
    let mut rng = Rng(99);
    let a = soup(&mut rng, 1500, 1.0, 0.08);
    let b = soup(&mut rng, 1200, 1.0, 0.08);
    let motions: Vec<_> = (0..3)
        .map(|_| {
            let m = Motion::from_isometry(&Isometry3::from_parts(
                Translation3::from(rng.point(0.3).coords),
                rng.rotation(),
            ));
            let e = brute_pairs(&a, &b, &m);
            (m, e)
        })
        .collect();
    for_each_volume!(check_pairs(&a, &b, &motions));

    // Self-intersection: a soup shares no vertices, so every intersecting pair counts.
    let expect: Vec<(u32, u32)> =
        brute_pairs(&a, &a, &Motion::identity()).into_iter().filter(|(i, j)| i < j).collect();
    assert!(!expect.is_empty());
    let mut ws = QueryWorkspace::new();
    for config in configs() {
        let m: MeshBvh<f64, Aabb<f64, 3>> = MeshBvh::with_config(a.clone(), &config).unwrap();
        assert_eq!(m.self_intersections(false, &mut ws), expect, "{:?}", config.builder);
        let m: MeshBvh<f64, Obb<f64, 3>> = MeshBvh::with_config(a.clone(), &config).unwrap();
        assert_eq!(m.self_intersections(false, &mut ws), expect, "{:?}", config.builder);
    }
    // On a closed mesh: without neighbours none (the bunny does not self-intersect); with
    // neighbours every pair sharing a vertex.
    let bunny = bunny();
    let m: MeshBvh<f64, Aabb<f64, 3>> = MeshBvh::new(bunny.clone()).unwrap();
    let own = m.self_intersections(false, &mut ws);
    let brute_own: Vec<_> = brute_pairs(&bunny, &bunny, &Motion::identity())
        .into_iter()
        .filter(|&(i, j)| i < j && !bunny.share_vertex(i as usize, j as usize))
        .collect();
    assert_eq!(own, brute_own);
    let with = m.self_intersections(true, &mut ws);
    let brute_with: Vec<_> =
        brute_pairs(&bunny, &bunny, &Motion::identity()).into_iter().filter(|&(i, j)| i < j).collect();
    assert_eq!(with, brute_with);
    assert!(with.len() > own.len() + bunny.len());
}

fn random_ray(rng: &mut Rng, center: Point3<f64>, radius: f64) -> Ray<f64, 3> {
    let o = center + rng.point(radius * 2.0).coords;
    // Aim at a random point near the model so most rays hit.
    let target = center + rng.point(radius * 0.6).coords;
    let r = Ray::new(o, target - o).unwrap();
    if rng.f() < 0.3 {
        r.with_max_t(rng.range(0.2, 1.2)).unwrap()
    } else {
        r
    }
}

fn check_rays<B: HierarchyVolume<f64, 3>>(
    mesh: &TriMesh<f64>,
    rays: &[Ray<f64, 3>],
    expect: &[Option<(u32, f64)>],
) {
    let mut ws = QueryWorkspace::new();
    for config in configs() {
        let m: MeshBvh<f64, B> = MeshBvh::with_config(mesh.clone(), &config).unwrap();
        for (ray, e) in rays.iter().zip(expect) {
            let got = m.cast_ray(ray, &mut ws).map(|h| (h.triangle, h.t));
            assert_eq!(m.cast_ray_binary(ray, &mut ws).map(|h| h.t), got.map(|g| g.1));
            match (got, e) {
                (None, None) => {}
                (Some((tri, t)), Some((_, te))) => {
                    // Ties between triangles at the same parameter (shared edges) may pick either.
                    assert_eq!(t, *te, "{} {:?}", B::name(), config.builder);
                    assert_eq!(
                        ray_triangle_watertight(ray, &mesh.triangle(tri as usize)).map(|h| h.t),
                        Some(t)
                    );
                }
                _ => panic!("{} {:?}: {got:?} vs {e:?}", B::name(), config.builder),
            }
            assert_eq!(m.ray_hits(ray, &mut ws), e.is_some());
        }
        // All hits on a subset.
        for ray in rays.iter().take(300) {
            let all: Vec<u32> = m.cast_ray_all(ray, &mut ws).iter().map(|h| h.triangle).collect();
            let mut brute: Vec<(f64, u32)> = (0..mesh.len())
                .filter_map(|i| ray_triangle_watertight(ray, &mesh.triangle(i)).map(|h| (h.t, i as u32)))
                .filter(|(t, _)| *t <= ray.max_t())
                .collect();
            brute.sort_by(|a, b| a.partial_cmp(b).unwrap());
            assert_eq!(all, brute.iter().map(|x| x.1).collect::<Vec<_>>());
        }
    }
}

#[test]
fn ray_casts_equal_brute_force() {
    let bunny = bunny();
    let bb = Aabb::from_points(bunny.vertices()).unwrap();
    let (c, r) = (bb.center(), bb.half_extents().norm());
    let mut rng = Rng(5);
    let rays: Vec<_> = (0..10_000).map(|_| random_ray(&mut rng, c, r)).collect();
    let expect: Vec<Option<(u32, f64)>> = rays
        .iter()
        .map(|ray| {
            let mut best: Option<(u32, f64)> = None;
            for i in 0..bunny.len() {
                if let Some(h) = ray_triangle_watertight(ray, &bunny.triangle(i)) {
                    if h.t <= ray.max_t() && best.is_none_or(|b| h.t < b.1) {
                        best = Some((i as u32, h.t));
                    }
                }
            }
            best
        })
        .collect();
    let hits = expect.iter().filter(|e| e.is_some()).count();
    assert!(hits > 3000 && hits < 9000, "{hits} hits");
    for_each_volume!(check_rays(&bunny, &rays, &expect));
}

fn check_distances<B: HierarchyVolume<f64, 3>>(
    env: &TriMesh<f64>,
    rob: &TriMesh<f64>,
    cases: &[(Motion<f64, 3>, f64)],
    points: &[(Point3<f64>, f64)],
) {
    let mut ws = QueryWorkspace::new();
    for config in [
        BuildConfig::default(),
        BuildConfig::with_builder(Builder::Ploc),
        BuildConfig::with_builder(Builder::Median),
    ] {
        let a: MeshBvh<f64, B> = MeshBvh::with_config(env.clone(), &config).unwrap();
        let b: MeshBvh<f64, B> = MeshBvh::with_config(rob.clone(), &config).unwrap();
        for (m, d) in cases {
            let got = a.closest_points(&b, m, f64::INFINITY, &mut ws).unwrap();
            assert!((got.distance - d).abs() <= 1e-9 * (1.0 + d), "{} {} vs {d}", B::name(), got.distance);
            assert!(((got.point_a - got.point_b).norm() - got.distance).abs() < 1e-6);
            // A limit below the distance finds nothing.
            if *d > 1.0 {
                assert!(a.closest_points(&b, m, d * 0.99, &mut ws).is_none());
            }
        }
        for (p, d) in points {
            let got = a.closest_point(p, f64::INFINITY, &mut ws).unwrap();
            assert!(
                (got.distance - d).abs() <= 1e-9 * (1.0 + d),
                "{} point {} vs {d}",
                B::name(),
                got.distance
            );
        }
    }
}

#[test]
fn distances_equal_brute_force() {
    let (env, rob) = (fcl("env"), fcl("rob"));
    let mut rng = Rng(31);
    let cases: Vec<_> = (0..5)
        .map(|_| {
            let t =
                Vector3::new(rng.range(-1500.0, 1500.0), rng.range(-1500.0, 1500.0), rng.range(0.0, 1500.0));
            let m = Motion::from_isometry(&Isometry3::from_parts(Translation3::from(t), rng.rotation()));
            let bt: Vec<_> = (0..rob.len()).map(|j| moved(&rob, &m, j)).collect();
            let mut d = f64::INFINITY;
            for i in 0..env.len() {
                let ta = env.triangle(i);
                for tb in &bt {
                    d = d.min(closest_points_triangle_triangle(&ta, tb).distance_squared.sqrt());
                }
            }
            (m, d)
        })
        .collect();
    let points: Vec<_> = (0..50)
        .map(|_| {
            let p = rng.point(4000.0);
            let d = (0..env.len())
                .map(|i| (closest_point_on_triangle(&p, &env.triangle(i)).0 - p).norm())
                .fold(f64::INFINITY, f64::min);
            (p, d)
        })
        .collect();
    for_each_volume!(check_distances(&env, &rob, &cases, &points));
}

/// A build fits box volumes from the primitives' boxes it already holds (not from their
/// points, as a refit does): for every builder and every primitive type of the crate the two
/// give the same box at every node, in `f64` and `f32`.
#[test]
fn built_boxes_equal_boxes_refitted_to_the_points() {
    use cd_mid::{Bvh, BvhNode};
    fn check<T: cd_geom::Real, P: cd_mid::Primitives<T, 3> + ?Sized>(prims: &P, label: &str) {
        for config in configs() {
            let built: Bvh<T, 3, Aabb<T, 3>> = Bvh::build(prims, &config).unwrap();
            let mut refitted = built.clone();
            refitted.refit(prims).unwrap();
            for (k, (a, b)) in built.nodes().iter().zip(refitted.nodes()).enumerate() {
                assert_eq!(a.volume(), b.volume(), "{label}, {:?}, node {k}", config.builder);
            }
        }
    }
    let mut rng = Rng(41);
    let soup = soup(&mut rng, 300, 10.0, 0.5);
    check(&soup, "soup");
    check(&bunny(), "bunny");
    let triangles: Vec<Triangle<f64, 3>> = (0..soup.len()).map(|i| soup.triangle(i)).collect();
    check(triangles.as_slice(), "triangles");
    let balls: Vec<Ball<f64, 3>> =
        (0..200).map(|_| Ball::new(rng.point(5.0), 0.01 + rng.point(0.2).x.abs()).unwrap()).collect();
    check(balls.as_slice(), "balls");
    let boxes: Vec<Aabb<f64, 3>> = triangles.iter().map(tri_aabb).collect();
    check(boxes.as_slice(), "boxes");
    let points: Vec<Point3<f64>> = (0..200).map(|_| rng.point(3.0)).collect();
    check(points.as_slice(), "points");
    let narrow: Vec<Triangle<f32, 3>> = triangles
        .iter()
        .map(|t| {
            let f = |p: &Point3<f64>| p.map(|x| x as f32);
            Triangle::new(f(t.a()), f(t.b()), f(t.c())).unwrap()
        })
        .collect();
    check(narrow.as_slice(), "f32 triangles");
}

#[test]
fn refit_after_deformation_equals_rebuild_and_brute_force() {
    let bunny = bunny();
    let mut ws = QueryWorkspace::new();
    for config in configs() {
        let mut model: MeshBvh<f64, Aabb<f64, 3>> = MeshBvh::with_config(bunny.clone(), &config).unwrap();
        let mut obb_model: MeshBvh<f64, Obb<f64, 3>> = MeshBvh::with_config(bunny.clone(), &config).unwrap();
        let built = model.bvh().stats().sah_cost;
        for step in 1..=3 {
            let s = step as f64 * 0.01;
            let verts: Vec<_> = bunny
                .vertices()
                .iter()
                .map(|p| {
                    p + Vector3::new((p.y * 40.0).sin() * s, (p.z * 30.0).cos() * s, (p.x * 50.0).sin() * s)
                })
                .collect();
            let updated = model.deform(verts.clone()).unwrap();
            assert_eq!(updated as usize, model.bvh().nodes().len());
            obb_model.deform(verts.clone()).unwrap();
            model.bvh().validate(model.mesh()).unwrap();
            obb_model.bvh().validate(obb_model.mesh()).unwrap();
            let rebuilt: MeshBvh<f64, Aabb<f64, 3>> =
                MeshBvh::with_config(model.mesh().clone(), &config).unwrap();
            let other = bunny.clone();
            let other_model: MeshBvh<f64, Aabb<f64, 3>> = MeshBvh::new(other.clone()).unwrap();
            let m = Motion::translation(Vector3::new(0.02, 0.01, 0.0));
            let expect = brute_pairs(model.mesh(), &other, &m);
            assert_eq!(model.overlapping_triangles(&other_model, &m, &mut ws), expect);
            assert_eq!(rebuilt.overlapping_triangles(&other_model, &m, &mut ws), expect);
            let other_obb: MeshBvh<f64, Obb<f64, 3>> = MeshBvh::new(other).unwrap();
            assert_eq!(obb_model.overlapping_triangles(&other_obb, &m, &mut ws), expect);
        }
        // Heavy deformation degrades the refitted tree; the heuristic notices a scramble.
        let mut rng = Rng(3);
        let scrambled: Vec<_> = bunny.vertices().iter().map(|_| rng.point(0.1)).collect();
        model.deform(scrambled).unwrap();
        assert!(model.bvh().needs_rebuild(built, 1.5), "{:?}", config.builder);
    }
}

/// The primitives a wide tree's box query reports, each with its "inside" flag.
fn leaves_met<const W: usize>(tree: &cd_mid::WideBvh<f64, W>, region: &Aabb<f64, 3>) -> Vec<(u32, bool)> {
    let mut found = Vec::new();
    tree.query_aabb(region, &mut QueryWorkspace::new(), |p, inside| found.push((p, inside)));
    found
}

#[test]
fn region_queries_equal_brute_force() {
    let bunny = bunny();
    let mut rng = Rng(77);
    let mut ws = QueryWorkspace::new();
    let m: MeshBvh<f64, Aabb<f64, 3>> = MeshBvh::new(bunny.clone()).unwrap();
    let bb = Aabb::from_points(bunny.vertices()).unwrap();
    for _ in 0..200 {
        let c = bb.center() + rng.point(0.08).coords;
        let h = Vector3::new(rng.range(0.0, 0.05), rng.range(0.0, 0.05), rng.range(0.0, 0.05));
        let region = Aabb::from_center_half_extents(c, h).unwrap();
        let expect: Vec<u32> = (0..bunny.len())
            .filter(|&i| triangle_aabb(&bunny.triangle(i), &region))
            .map(|i| i as u32)
            .collect();
        assert_eq!(m.triangles_in_aabb(&region, &mut ws), expect);
    }
    // Every builder and leaf size, boxes from flat (a zero extent) to a tenth of the bunny,
    // and boxes touching a vertex with a face: the 8-wide walk (quantized boxes) reports
    // exactly the triangles whose own box meets the region and that meet it, which is what
    // the binary walk reports too.
    for config in configs() {
        let m: MeshBvh<f64, Aabb<f64, 3>> = MeshBvh::with_config(bunny.clone(), &config).unwrap();
        let w2: cd_mid::WideBvh<f64, 2> = cd_mid::WideBvh::from_binary(m.bvh());
        let w6: cd_mid::WideBvh<f64, 6> = cd_mid::WideBvh::from_binary(m.bvh());
        for k in 0..150 {
            let c = if k % 3 == 0 {
                bunny.vertices()[(k * 31) % bunny.vertices().len()]
            } else {
                bb.center() + rng.point(0.08).coords
            };
            let mut h = Vector3::new(rng.range(0.0, 0.02), rng.range(0.0, 0.02), rng.range(0.0, 0.02));
            h[k % 3] *= (k % 2) as f64;
            let region = if k % 5 == 0 {
                // The box's low corner on the vertex.
                Aabb::new(c, c + h * 2.0).unwrap()
            } else {
                Aabb::from_center_half_extents(c, h).unwrap()
            };
            let expect: Vec<u32> = (0..bunny.len())
                .filter(|&i| {
                    let t = bunny.triangle(i);
                    let own = Aabb::from_points(&t.vertices()).unwrap();
                    cd_geom::aabb_aabb(&own, &region) && triangle_aabb(&t, &region)
                })
                .map(|i| i as u32)
                .collect();
            assert_eq!(m.triangles_in_aabb(&region, &mut ws), expect, "{:?} {k}", config.builder);
            assert_eq!(m.triangles_in_aabb_binary(&region, &mut ws), expect, "{:?} {k}", config.builder);
            // Wide trees of 2 and 6 lanes too (their masks' last lanes are taken one by one):
            // every triangle found is among the primitives reported, and a primitive reported
            // inside lies inside.
            for found in [leaves_met(&w2, &region), leaves_met(&w6, &region)] {
                assert!(expect.iter().all(|t| found.iter().any(|&(p, _)| p == *t)), "{k}");
                assert!(found.iter().filter(|f| f.1).all(|&(p, _)| {
                    let own = Aabb::from_points(&bunny.triangle(p as usize).vertices()).unwrap();
                    cd_geom::BoundingVolume::contains(&region, &own)
                }));
            }
        }
    }
    // The huge box: everything, through the "fully inside" shortcut with one node test (of
    // the root's eight lanes) and no triangle test.
    let all = Aabb::from_center_half_extents(bb.center(), Vector3::repeat(10.0)).unwrap();
    ws.take_stats();
    assert_eq!(m.triangles_in_aabb(&all, &mut ws).len(), bunny.len());
    let s = ws.take_stats();
    assert_eq!((s.volume_tests, s.primitive_tests), (8, 0));
    assert_eq!(m.triangles_in_aabb_binary(&all, &mut ws).len(), bunny.len());
    let s = ws.take_stats();
    assert_eq!((s.volume_tests, s.primitive_tests), (1, 0));
    // Ball queries through the generic traversal, checked with a sampled containment oracle:
    // every triangle with a vertex inside the ball is reported.
    for _ in 0..100 {
        let ball = Ball::new(bb.center() + rng.point(0.08).coords, rng.range(0.0, 0.04)).unwrap();
        let mut got = Vec::new();
        cd_mid::query::query_ball(m.bvh().nodes(), m.bvh().primitive_order(), &ball, &mut ws, |p, _| {
            got.push(p)
        });
        got.sort_unstable();
        for i in 0..bunny.len() {
            if bunny.triangle(i).vertices().iter().any(|v| ball.contains_point(v)) {
                assert!(got.binary_search(&(i as u32)).is_ok());
            }
        }
    }
}

#[test]
fn f32_queries_equal_f32_brute_force() {
    let bunny64 = bunny();
    let bunny: TriMesh<f32> = TriMesh::new(
        bunny64.vertices().iter().map(|p| p.cast::<f32>()).collect(),
        bunny64.indices().to_vec(),
    )
    .unwrap();
    let m: Motion<f32, 3> =
        Motion::from_isometry(&Isometry3::new(Vector3::new(0.03f32, 0.01, 0.0), Vector3::new(0.2, 0.3, 0.1)));
    let bt: Vec<_> = (0..bunny.len())
        .map(|j| {
            let [a, b, c] = bunny.triangle(j).vertices().map(|p| m.transform_point(&p));
            Triangle::new(a, b, c).unwrap()
        })
        .collect();
    let mut expect = Vec::new();
    for i in 0..bunny.len() {
        let ta = bunny.triangle(i);
        for (j, tb) in bt.iter().enumerate() {
            if triangle_triangle(&ta, tb).intersects() {
                expect.push((i as u32, j as u32));
            }
        }
    }
    assert!(!expect.is_empty());
    let mut ws = QueryWorkspace::new();
    for config in configs() {
        let a: MeshBvh<f32, Aabb<f32, 3>> = MeshBvh::with_config(bunny.clone(), &config).unwrap();
        assert_eq!(a.overlapping_triangles(&a, &m, &mut ws), expect, "{:?}", config.builder);
        let a: MeshBvh<f32, Obb<f32, 3>> = MeshBvh::with_config(bunny.clone(), &config).unwrap();
        assert_eq!(a.overlapping_triangles(&a, &m, &mut ws), expect, "{:?}", config.builder);
    }
}

#[test]
fn wide_hierarchies_cast_rays_like_the_binary_one() {
    let bunny = bunny();
    let bb = Aabb::from_points(bunny.vertices()).unwrap();
    let (c, r) = (bb.center(), bb.half_extents().norm());
    let mut rng = Rng(8);
    let mut rays: Vec<_> = (0..3000).map(|_| random_ray(&mut rng, c, r)).collect();
    // Axis-parallel rays, some through the box's faces exactly (the parallel-slab path).
    for k in 0..300 {
        let mut o = c + rng.point(r).coords;
        o[k % 3] = bb.min()[k % 3] - 1.0;
        if k % 5 == 0 {
            o[(k + 1) % 3] = bb.max()[(k + 1) % 3];
        }
        let mut d = Vector3::zeros();
        d[k % 3] = 1.0;
        rays.push(Ray::new(o, d).unwrap());
    }
    // Rays starting on a vertex (a hit at t = 0), most leaving the vertex's boxes at once
    // through a corner: the quantized slab arithmetic must not round their exit below 0 (fuzz
    // finding 28).
    for k in 0..600 {
        let o = bunny.vertices()[(k * 7) % bunny.vertices().len()];
        let d = rng.point(1.0).coords;
        if let Ok(ray) = Ray::new(o, d) {
            rays.push(ray);
        }
    }
    let mut ws = QueryWorkspace::new();
    for config in configs() {
        let m: MeshBvh<f64, Aabb<f64, 3>> = MeshBvh::with_config(bunny.clone(), &config).unwrap();
        let w4: cd_mid::WideBvh<f64, 4> = cd_mid::WideBvh::from_binary(m.bvh());
        let w8: cd_mid::WideBvh<f64, 8> = cd_mid::WideBvh::from_binary(m.bvh());
        // Lane counts that are not a multiple of four: the lane test's hit mask takes its
        // last lanes one by one.
        let w2: cd_mid::WideBvh<f64, 2> = cd_mid::WideBvh::from_binary(m.bvh());
        let w6: cd_mid::WideBvh<f64, 6> = cd_mid::WideBvh::from_binary(m.bvh());
        assert!(w4.node_count() < m.bvh().nodes().len() / 2);
        for ray in &rays {
            let expect = m.cast_ray_binary(ray, &mut ws).map(|h| h.t);
            let leaf = |tri: u32, _| ray_triangle_watertight(ray, &bunny.triangle(tri as usize)).map(|h| h.t);
            assert_eq!(w4.ray_closest(ray, &mut ws, leaf).map(|h| h.1), expect, "{:?}", config.builder);
            assert_eq!(w8.ray_closest(ray, &mut ws, leaf).map(|h| h.1), expect, "{:?}", config.builder);
            assert_eq!(w2.ray_closest(ray, &mut ws, leaf).map(|h| h.1), expect, "{:?}", config.builder);
            assert_eq!(w6.ray_closest(ray, &mut ws, leaf).map(|h| h.1), expect, "{:?}", config.builder);
            // Any hit: hits exactly when the closest-hit query does, with a real hit.
            let any = w8.ray_any(ray, &mut ws, leaf);
            assert_eq!(any.is_some(), expect.is_some(), "{:?}", config.builder);
            if let Some((tri, t)) = any {
                assert_eq!(leaf(tri, t), Some(t));
            }
            // All hits: the binary traversal's list (sorted the same way).
            let (nodes, order) = (m.bvh().nodes(), m.bvh().primitive_order());
            let all = cd_mid::query::ray_all(nodes, order, ray, &mut ws, leaf);
            assert_eq!(w4.ray_all(ray, &mut ws, leaf), all, "{:?}", config.builder);
            assert_eq!(w8.ray_all(ray, &mut ws, leaf), all, "{:?}", config.builder);
        }
    }
    // A fan of triangles around a vertex at the origin, and rays leaving the origin in every
    // direction: each starts on the fan (t = 0), and leaves most boxes through their corner
    // at the origin. Fuzz finding 28: the quantized slab arithmetic rounded such an exit to
    // −10⁻¹⁹ and the wide tree missed the hit.
    let fan: Vec<Triangle<f64, 3>> = (0..40)
        .map(|k| {
            let (a, b) = (k as f64 * 0.157, (k + 1) as f64 * 0.157);
            let z = 0.01 * (k % 7) as f64 - 0.03;
            Triangle::new(
                Point3::origin(),
                Point3::new(-0.024 * a.cos(), -0.024 * a.sin().abs(), z),
                Point3::new(-0.024 * b.cos(), -0.024 * b.sin().abs(), -z),
            )
            .unwrap()
        })
        // Triangles beyond the origin too, so the fan's box corners at the origin fall inside
        // the quantization frames rather than on their padded edges.
        .chain((0..10).map(|k| {
            let s = 0.01 + 0.003 * k as f64;
            Triangle::new(Point3::new(s, 0.02, 0.0), Point3::new(0.0, s, 0.03), Point3::new(0.02, 0.0, s))
                .unwrap()
        }))
        .collect();
    let fan = TriMesh::from_triangles(&fan).unwrap();
    for config in configs() {
        let m: MeshBvh<f64, Aabb<f64, 3>> = MeshBvh::with_config(fan.clone(), &config).unwrap();
        let w4: cd_mid::WideBvh<f64, 4> = cd_mid::WideBvh::from_binary(m.bvh());
        for _ in 0..2000 {
            let Ok(ray) = Ray::new(Point3::origin(), rng.point(1.0).coords) else { continue };
            let leaf = |tri: u32, _| ray_triangle_watertight(&ray, &fan.triangle(tri as usize)).map(|h| h.t);
            assert_eq!(
                w4.ray_closest(&ray, &mut ws, leaf).map(|h| h.1),
                Some(0.0),
                "{:?} {ray:?}",
                config.builder
            );
        }
    }
    // A one-triangle mesh is a single leaf: no wide node at all.
    let one = TriMesh::from_triangles(&[bunny.triangle(0)]).unwrap();
    let m: MeshBvh<f64, Aabb<f64, 3>> = MeshBvh::new(one.clone()).unwrap();
    let w: cd_mid::WideBvh<f64, 4> = cd_mid::WideBvh::from_binary(m.bvh());
    let t = one.triangle(0);
    let ray = Ray::new(t.centroid() + Vector3::new(0.0, 0.0, 1.0), Vector3::new(0.0, 0.0, -1.0)).unwrap();
    let leaf = |tri: u32, _| ray_triangle_watertight(&ray, &one.triangle(tri as usize)).map(|h| h.t);
    assert_eq!(w.ray_closest(&ray, &mut ws, leaf).map(|h| h.0), Some(0));
    assert_eq!(w.ray_any(&ray, &mut ws, leaf).map(|h| h.0), Some(0));
    let all = w.ray_all(&ray, &mut ws, leaf);
    assert!(all.len() == 1 && all[0].0 == 0 && (all[0].1 - 1.0).abs() < 1e-12, "{all:?}");
    let away = Ray::new(*ray.origin(), Vector3::new(0.0, 0.0, 1.0)).unwrap();
    let leaf = |tri: u32, _| ray_triangle_watertight(&away, &one.triangle(tri as usize)).map(|h| h.t);
    assert_eq!(w.ray_any(&away, &mut ws, leaf), None);
    assert!(w.ray_all(&away, &mut ws, leaf).is_empty());
}

#[test]
fn front_tracking_and_time_critical_equal_the_full_query() {
    let bunny = bunny();
    let mut ws = QueryWorkspace::new();
    for config in [BuildConfig::default(), BuildConfig::with_builder(Builder::ObbMean)] {
        let m: MeshBvh<f64, Aabb<f64, 3>> = MeshBvh::with_config(bunny.clone(), &config).unwrap();
        let o: MeshBvh<f64, Obb<f64, 3>> = MeshBvh::with_config(bunny.clone(), &config).unwrap();
        let mut front = cd_mid::query::Front::new();
        let mut obb_front = cd_mid::query::Front::new();
        let (mut full_tests, mut front_tests) = (0, 0);
        // Approach, overlap while turning, separate far, come back.
        for frame in 0..130 {
            let f = frame as f64;
            // The bunny is about 10 units across.
            let x = if frame < 60 {
                3.0 - f * 0.05
            } else if frame < 110 {
                (f - 60.0) * 1.0
            } else {
                50.0 - (f - 110.0) * 3.0
            };
            let pose =
                Isometry3::new(Vector3::new(x, 0.1 * (f * 0.1).sin(), 0.0), Vector3::new(0.0, f * 0.01, 0.0));
            let motion = Motion::from_isometry(&pose);
            ws.take_stats();
            let expect = m.overlapping_triangles(&m, &motion, &mut ws);
            full_tests += ws.take_stats().volume_tests;
            assert_eq!(
                m.overlapping_triangles_from_front(&m, &motion, &mut front, &mut ws),
                expect,
                "frame {frame}"
            );
            front_tests += ws.take_stats().volume_tests;
            assert_eq!(
                o.overlapping_triangles_from_front(&o, &motion, &mut obb_front, &mut ws),
                expect,
                "frame {frame}"
            );
            if frame == 109 {
                // Far apart for 40 frames (the front climbs one level per frame): it is back at
                // the root pair.
                assert_eq!(front.len(), 1, "{:?}", config.builder);
            }
            if frame % 20 == 5 {
                // Time-critical: unlimited budget is exact; a small one is a sound partial answer.
                let all = m.overlapping_triangles_time_critical(
                    &m,
                    &motion,
                    u64::MAX,
                    cd_mid::query::Refinement::BreadthFirst,
                    &mut ws,
                );
                assert!(all.complete && all.pending.is_empty());
                assert_eq!(all.pairs, expect);
                for order in
                    [cd_mid::query::Refinement::BreadthFirst, cd_mid::query::Refinement::LargestFirst]
                {
                    let part = m.overlapping_triangles_time_critical(&m, &motion, 200, order, &mut ws);
                    let nodes = m.bvh().nodes();
                    let pos: Vec<usize> = {
                        let mut p = vec![0; bunny.len()];
                        for (k, &t) in m.bvh().primitive_order().iter().enumerate() {
                            p[t as usize] = k;
                        }
                        p
                    };
                    use cd_mid::BvhNode;
                    for pair in &expect {
                        let covered = part.pairs.binary_search(pair).is_ok()
                            || part.pending.iter().any(|&(x, y)| {
                                nodes[x as usize].primitives().contains(&pos[pair.0 as usize])
                                    && nodes[y as usize].primitives().contains(&pos[pair.1 as usize])
                            });
                        assert!(covered, "{pair:?} lost by the time-critical query");
                    }
                    assert!(part.pairs.iter().all(|p| expect.binary_search(p).is_ok()));
                    // An unfinished query always leaves work pending.
                    assert!(part.complete || !part.pending.is_empty());
                }
            }
        }
        println!("{:?}: volume tests full {full_tests}, from front {front_tests}", config.builder);
    }
}

#[test]
fn deformable_octree_overlaps_equal_brute_force() {
    let bunny = bunny();
    let mut rng = Rng(12);
    let configs = [
        cd_mid::OctreeConfig::default(),
        cd_mid::OctreeConfig { max_depth: 3, max_pairs_per_cell: 4 },
        cd_mid::OctreeConfig { max_depth: 14, max_pairs_per_cell: 1 },
    ];
    for k in 0..4 {
        // Both models in world space (deformable models carry no pose): B is A moved.
        let m = Motion::from_isometry(&Isometry3::from_parts(
            Translation3::from(rng.point(1.5).coords),
            rng.rotation(),
        ));
        let b = bunny.map_vertices(|p| m.transform_point(p)).unwrap();
        let expect = brute_pairs(&bunny, &b, &Motion::identity());
        assert!(!expect.is_empty());
        for c in &configs {
            assert_eq!(cd_mid::deformable_overlaps(&bunny, &b, c), expect, "case {k} {c:?}");
        }
    }
    // Same mesh against itself: every triangle meets itself and its neighbours, each pair once.
    let expect = brute_pairs(&bunny, &bunny, &Motion::identity());
    assert_eq!(cd_mid::deformable_overlaps(&bunny, &bunny, &cd_mid::OctreeConfig::default()), expect);
    // Disjoint boxes: nothing.
    let far = bunny.map_vertices(|p| p + Vector3::new(100.0, 0.0, 0.0)).unwrap();
    assert!(cd_mid::deformable_overlaps(&bunny, &far, &cd_mid::OctreeConfig::default()).is_empty());
    let mut rng = Rng(4);
    let (a, b) = (soup(&mut rng, 800, 1.0, 0.1), soup(&mut rng, 800, 1.0, 0.1));
    assert_eq!(
        cd_mid::deformable_overlaps(&a, &b, &cd_mid::OctreeConfig::default()),
        brute_pairs(&a, &b, &Motion::identity())
    );
}

fn check_2d<B: HierarchyVolume<f64, 2>>(boxes: &[Aabb<f64, 2>], rays: &[Ray<f64, 2>]) {
    use cd_geom::ray_aabb;
    let n = boxes.len() as u32;
    let brute_self: Vec<(u32, u32)> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .filter(|&(i, j)| aabb_aabb(&boxes[i as usize], &boxes[j as usize]))
        .collect();
    let mut ws = QueryWorkspace::new();
    for config in configs() {
        let bvh: cd_mid::Bvh<f64, 2, B> = cd_mid::Bvh::build(boxes, &config).unwrap();
        bvh.validate(boxes).unwrap();
        let (nodes, order) = (bvh.nodes(), bvh.primitive_order());
        let got = cd_mid::query::self_overlapping_pairs(nodes, order, &mut ws, |i, j| {
            aabb_aabb(&boxes[i as usize], &boxes[j as usize])
        });
        assert_eq!(got, brute_self, "{} {:?}", B::name(), config.builder);
        for ray in rays {
            let expect = boxes
                .iter()
                .filter_map(|b| ray_aabb(ray, b).map(|h| h.t))
                .fold(None, |m: Option<f64>, t| Some(m.map_or(t, |m| m.min(t))));
            let got = cd_mid::query::ray_closest(nodes, order, ray, &mut ws, |p, _| {
                ray_aabb(ray, &boxes[p as usize]).map(|h| h.t)
            });
            assert_eq!(got.map(|g| g.1), expect, "{} {:?}", B::name(), config.builder);
        }
    }
}

#[test]
fn two_dimensional_hierarchies_equal_brute_force() {
    use nalgebra::{Point2, Vector2};
    let mut rng = Rng(21);
    let boxes: Vec<Aabb<f64, 2>> = (0..600)
        .map(|_| {
            let c = Point2::new(rng.range(-10.0, 10.0), rng.range(-10.0, 10.0));
            let h = Vector2::new(rng.range(0.0, 0.4), rng.range(0.0, 0.4));
            Aabb::from_center_half_extents(c, h).unwrap()
        })
        .collect();
    let rays: Vec<Ray<f64, 2>> = (0..300)
        .map(|_| {
            let o = Point2::new(rng.range(-15.0, 15.0), rng.range(-15.0, 15.0));
            Ray::new(o, Vector2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0))).unwrap()
        })
        .collect();
    check_2d::<Aabb<f64, 2>>(&boxes, &rays);
    check_2d::<Ball<f64, 2>>(&boxes, &rays);
    check_2d::<Obb<f64, 2>>(&boxes, &rays);
    check_2d::<cd_geom::Dop8<f64>>(&boxes, &rays);
}

#[test]
fn bad_input_gets_typed_errors() {
    use cd_mid::{Bvh, MidError};
    let empty: Vec<Triangle<f64, 3>> = Vec::new();
    assert_eq!(Bvh::<f64, 3, Aabb<f64, 3>>::new(empty.as_slice()).unwrap_err(), MidError::Empty);
    let bad = vec![Point3::new(f64::NAN, 0.0, 0.0)];
    assert!(matches!(TriMesh::new(bad, vec![]), Err(MidError::Geom(_))));
    assert!(matches!(
        TriMesh::<f64>::new(vec![Point3::origin()], vec![[0, 0, 1]]),
        Err(MidError::IndexOutOfRange { triangle: 0, index: 1 })
    ));
    let pts = [Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0)];
    let cfg = BuildConfig { leaf_size: 0, ..BuildConfig::default() };
    assert!(matches!(Bvh::<f64, 3, Aabb<f64, 3>>::build(pts.as_slice(), &cfg), Err(MidError::BadConfig(_))));
    let cfg = BuildConfig { bins: 1, ..BuildConfig::default() };
    assert!(matches!(Bvh::<f64, 3, Aabb<f64, 3>>::build(pts.as_slice(), &cfg), Err(MidError::BadConfig(_))));
    let mut bvh = Bvh::<f64, 3, Aabb<f64, 3>>::new(pts.as_slice()).unwrap();
    assert_eq!(bvh.refit(&pts[..1]).unwrap_err(), MidError::CountMismatch { expected: 2, found: 1 });
    // Points as primitives: NaN is reported, not built into the tree.
    let nan = [Point3::new(0.0, f64::NAN, 0.0)];
    assert!(matches!(Bvh::<f64, 3, Aabb<f64, 3>>::new(nan.as_slice()), Err(MidError::Geom(_))));
    // Identical primitives split by index: leaf sizes still hold.
    let same = vec![Point3::new(1.0, 1.0, 1.0); 1000];
    for config in configs() {
        let bvh = Bvh::<f64, 3, Aabb<f64, 3>>::build(same.as_slice(), &config).unwrap();
        assert!(bvh.stats().max_leaf_size <= config.leaf_size, "{:?}", config.builder);
        bvh.validate(same.as_slice()).unwrap();
    }
}

#[test]
fn kdop_tree_tight_and_approximate_updates_equal_brute_force() {
    let (env, rob) = (fcl("env"), fcl("rob"));
    let mut rng = Rng(55);
    let mut ws = QueryWorkspace::new();
    for rule in cd_mid::SplitRule::ALL {
        let a: cd_mid::KdopTree<f64, 9> = cd_mid::KdopTree::build(env.clone(), rule, 4).unwrap();
        let b: cd_mid::KdopTree<f64, 9> = cd_mid::KdopTree::build(rob.clone(), rule, 4).unwrap();
        a.bvh().validate(a.mesh()).unwrap();
        let (mut tight_tests, mut approx_tests) = (0, 0);
        for k in 0..25 {
            let (xy, z) = if k % 2 == 0 { (3000.0, 3000.0) } else { (800.0, 800.0) };
            let t = Vector3::new(rng.range(-xy, xy), rng.range(-xy, xy), rng.range(0.0, z));
            let m = Motion::from_isometry(&Isometry3::from_parts(Translation3::from(t), rng.rotation()));
            let expect = brute_pairs(&env, &rob, &m);
            ws.take_stats();
            assert_eq!(
                a.overlapping_triangles(&b, &m, cd_mid::DopUpdate::Tight, &mut ws),
                expect,
                "{rule:?}"
            );
            tight_tests += ws.take_stats().volume_tests;
            assert_eq!(
                a.overlapping_triangles(&b, &m, cd_mid::DopUpdate::Approximate, &mut ws),
                expect,
                "{rule:?}"
            );
            approx_tests += ws.take_stats().volume_tests;
            // The tight slabs contain every moved vertex and lie within the approximate ones.
            for node in [0usize, 1, 2, b.bvh().nodes().len() - 1] {
                let (lo, hi) = b.moved_slabs(node, &m, cd_mid::DopUpdate::Tight);
                let (alo, ahi) = b.moved_slabs(node, &m, cd_mid::DopUpdate::Approximate);
                let dirs = b.bvh().nodes()[node].volume().directions();
                use cd_mid::BvhNode;
                for &p in &b.bvh().primitive_order()[b.bvh().nodes()[node].primitives()] {
                    for v in rob.triangle(p as usize).vertices() {
                        let q = m.transform_point(&v);
                        for k in 0..9 {
                            let s = dirs[k].dot(&q.coords);
                            assert!(lo[k] <= s + 1e-6 && s <= hi[k] + 1e-6);
                        }
                    }
                }
                for k in 0..9 {
                    assert!(alo[k] <= lo[k] + 1e-6 && hi[k] <= ahi[k] + 1e-6);
                }
            }
        }
        assert!(tight_tests <= approx_tests, "{rule:?}: tight {tight_tests} vs approximate {approx_tests}");
    }
}

/// Every node of a k-DOP tree over FCL's scene has a hull (a 3,900-point node once made
/// Quickhull return `NotConvex`; the point set is a regression test in cd-bv).
#[test]
fn quickhull_accepts_every_fcl_node() {
    use cd_mid::{BvhNode, Primitives};
    let env = fcl("env");
    let bvh: cd_mid::Bvh<f64, 3, cd_geom::Dop18<f64>> = cd_mid::Bvh::build(
        &env,
        &BuildConfig::with_builder(Builder::KdopTree(cd_mid::SplitRule::MinSum)).leaf_size(4),
    )
    .unwrap();
    let mut pts = Vec::new();
    for (i, n) in bvh.nodes().iter().enumerate() {
        pts.clear();
        for &p in &bvh.primitive_order()[n.primitives()] {
            env.points(p as usize, &mut pts);
        }
        if let Err(e) = cd_bv::convex_hull(&pts) {
            panic!("node {i}: {} points: {e:?}: {:?}", pts.len(), pts);
        }
    }
}

#[test]
fn lazy_hybrid_refit_equals_full_refit_with_fewer_updates() {
    use cd_geom::Triangle as Tri;
    let bunny = bunny();
    let mut ws = QueryWorkspace::new();
    for config in [BuildConfig::default(), BuildConfig::with_builder(Builder::Median).leaf_size(1)] {
        let bvh: cd_mid::Bvh<f64, 3, Aabb<f64, 3>> = cd_mid::Bvh::build(&bunny, &config).unwrap();
        let mut lazy = cd_mid::LazyRefit::new(bvh.clone());
        let other: MeshBvh<f64, Aabb<f64, 3>> = MeshBvh::new(bunny.clone()).unwrap();
        let (mut lazy_updates, mut full_updates) = (0u64, 0u64);
        for step in 1..=5 {
            let s = step as f64 * 0.05;
            let mesh = bunny
                .map_vertices(|p| {
                    p + Vector3::new((p.y * 2.0).sin() * s, (p.z * 3.0).cos() * s, (p.x * 1.5).sin() * s)
                })
                .unwrap();
            // Far from everything the query touches, half the model is never refitted.
            let m = Motion::from_isometry(&Isometry3::new(
                Vector3::new(7.0, 3.0, 0.0),
                Vector3::new(0.1, 0.2, 0.0),
            ));
            lazy_updates += lazy.update(&mesh).unwrap();
            ws.take_stats();
            let leaf = |i: u32, j: u32| {
                let [a, b, c] = other.mesh().triangle(j as usize).vertices().map(|p| m.transform_point(&p));
                triangle_triangle(&mesh.triangle(i as usize), &Tri::new(a, b, c).unwrap()).intersects()
            };
            let got = lazy.overlapping_pairs(
                &mesh,
                (other.bvh().nodes(), other.bvh().primitive_order()),
                &m,
                &mut ws,
                leaf,
            );
            lazy_updates += ws.take_stats().volume_updates;
            let expect = brute_pairs(&mesh, &bunny, &m);
            assert!(!expect.is_empty());
            assert_eq!(got, expect, "step {step} {:?}", config.builder);
            let mut full = bvh.clone();
            full_updates += full.refit(&mesh).unwrap();
        }
        assert!(lazy_updates < full_updates, "{lazy_updates} vs {full_updates}");
        assert!(lazy.stale_count() > 0);
    }
}

#[cfg(feature = "rayon")]
#[test]
fn parallel_builds_equal_serial_builds() {
    use cd_mid::BvhNode;
    let mut rng = Rng(77);
    let pts: Vec<Point3<f64>> = (0..30_000).map(|_| rng.point(10.0)).collect();
    for builder in [Builder::Median, Builder::BinnedSah, Builder::BinnedVolume, Builder::Lbvh] {
        let config = BuildConfig::with_builder(builder);
        let serial: cd_mid::Bvh<f64, 3, Aabb<f64, 3>> = cd_mid::Bvh::build(pts.as_slice(), &config).unwrap();
        let parallel: cd_mid::Bvh<f64, 3, Aabb<f64, 3>> =
            cd_mid::Bvh::build(pts.as_slice(), &config.parallel(true)).unwrap();
        parallel.validate(pts.as_slice()).unwrap();
        assert_eq!(serial.primitive_order(), parallel.primitive_order(), "{builder:?}");
        assert_eq!(serial.nodes().len(), parallel.nodes().len());
        for (a, b) in serial.nodes().iter().zip(parallel.nodes()) {
            assert_eq!(
                (a.children(), a.primitives(), a.volume()),
                (b.children(), b.primitives(), b.volume()),
                "{builder:?}"
            );
        }
    }
}

/// Every builder and volume type on hostile inputs — huge coordinates near the f32 limit, tiny
/// triangles, identical and zero-area triangles — builds, validates and answers like brute
/// force, without panicking.
fn check_hostile<B: HierarchyVolume<f32, 3>>(mesh: &TriMesh<f32>, rays: &[Ray<f32, 3>]) {
    let brute: Vec<(u32, u32)> = (0..mesh.len() as u32)
        .flat_map(|i| (0..mesh.len() as u32).map(move |j| (i, j)))
        .filter(|&(i, j)| {
            triangle_triangle(&mesh.triangle(i as usize), &mesh.triangle(j as usize)).intersects()
        })
        .collect();
    let mut ws = QueryWorkspace::new();
    for config in configs() {
        let m: MeshBvh<f32, B> = MeshBvh::with_config(mesh.clone(), &config).unwrap();
        m.bvh().validate(m.mesh()).unwrap();
        let got = m.overlapping_triangles(&m, &Motion::identity(), &mut ws);
        if got != brute {
            let missing: Vec<_> = brute.iter().filter(|p| got.binary_search(p).is_err()).take(3).collect();
            let extra: Vec<_> = got.iter().filter(|p| brute.binary_search(p).is_err()).take(3).collect();
            panic!(
                "{} {:?}: {} got vs {} brute; missing {missing:?} extra {extra:?}",
                B::name(),
                config.builder,
                got.len(),
                brute.len()
            );
        }
        for ray in rays {
            let expect = (0..mesh.len())
                .filter_map(|i| ray_triangle_watertight(ray, &mesh.triangle(i)).map(|h| h.t))
                .filter(|t| *t <= ray.max_t())
                .fold(None, |m: Option<f32>, t| Some(m.map_or(t, |m| m.min(t))));
            assert_eq!(m.cast_ray(ray, &mut ws).map(|h| h.t), expect, "{} {:?}", B::name(), config.builder);
        }
    }
}

#[test]
fn hostile_inputs_build_and_query_like_brute_force() {
    let mut rng = Rng(404);
    let mut tri = |c: Point3<f64>, s: f64| {
        let p = |rng: &mut Rng| (c + rng.point(s).coords).cast::<f32>();
        let (a, b, d) = (p(&mut rng), p(&mut rng), p(&mut rng));
        Triangle::new(a, b, d).unwrap()
    };
    // Huge coordinates: clusters near ±1e8 with unit-sized triangles.
    let huge: Vec<Triangle<f32, 3>> =
        (0..300).map(|k| tri(Point3::new(if k % 2 == 0 { 1e8 } else { -1e8 }, 5e7, -3e7), 20.0)).collect();
    // Tiny triangles packed in a tiny box.
    let tiny: Vec<Triangle<f32, 3>> = (0..300).map(|_| tri(Point3::new(1e-6, -2e-6, 0.0), 1e-6)).collect();
    // Identical zero-area triangles (a segment repeated) and identical points.
    let seg =
        Triangle::new(Point3::new(0.0f32, 0.0, 0.0), Point3::new(1.0, 1.0, 1.0), Point3::new(0.5, 0.5, 0.5))
            .unwrap();
    let pt =
        Triangle::new(Point3::new(2.0f32, 2.0, 2.0), Point3::new(2.0, 2.0, 2.0), Point3::new(2.0, 2.0, 2.0))
            .unwrap();
    let degenerate: Vec<Triangle<f32, 3>> = (0..200).map(|k| if k % 2 == 0 { seg } else { pt }).collect();
    for tris in [huge, tiny, degenerate] {
        let mesh = TriMesh::from_triangles(&tris).unwrap();
        let bb = Aabb::from_points(mesh.vertices()).unwrap();
        let rays: Vec<Ray<f32, 3>> = (0..200)
            .filter_map(|k| {
                let o = bb.center()
                    + bb.half_extents() * 3.0
                    + Vector3::new(k as f32, 0.0, 0.0).scale(bb.half_extents().norm() * 1e-3);
                let target =
                    bb.center() + bb.half_extents().component_mul(&rng.point(1.0).coords.cast::<f32>());
                Ray::new(o, target - o).ok()
            })
            .collect();
        check_hostile::<Aabb<f32, 3>>(&mesh, &rays);
        check_hostile::<Ball<f32, 3>>(&mesh, &rays);
        check_hostile::<Obb<f32, 3>>(&mesh, &rays);
        check_hostile::<Dop18<f32>>(&mesh, &rays);
    }
}
