//! Builds a hierarchy over triangles made of arbitrary floats with every builder and checks
//! its queries against brute force over the triangles: the nearest ray hit, the triangles in a
//! box, the closest point, and the triangle pairs meeting a moved copy. Nothing may panic; a
//! mesh with a bad coordinate is refused. Shared by the hostile-input property test
//! (`tests/hostile.rs`) and the `mid_queries` fuzz target (which includes this file).
#![allow(dead_code)]

use cd_bv::aabb_from_points;
use cd_geom::{
    aabb_aabb, closest_point_on_triangle, ray_triangle_watertight, triangle_aabb, triangle_triangle, Aabb,
    Ball, Dop18, Dop26, Obb, Ray, Triangle,
};
use cd_mid::{BuildConfig, Builder, HierarchyVolume, MeshBvh, Motion, QueryWorkspace, SatLiteObb, TriMesh};
use nalgebra::{Isometry3, Point3, Vector3};
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many calls built a hierarchy (the property test checks its generator gets there).
pub static BUILT: AtomicUsize = AtomicUsize::new(0);

/// Runs the queries on the triangles and probes encoded by `v`.
pub fn run(v: &[f64]) {
    if v.len() < 16 {
        return;
    }
    let (probe, rest) = v.split_at(16);
    let points: Vec<Point3<f64>> =
        rest.chunks_exact(3).take(45).map(|c| Point3::new(c[0], c[1], c[2])).collect();
    let triangles: Vec<[u32; 3]> =
        (0..points.len() as u32 / 3).map(|t| [3 * t, 3 * t + 1, 3 * t + 2]).collect();
    let Ok(mesh) = TriMesh::new(points.clone(), triangles) else {
        // Refused: a coordinate was bad (or there was nothing to build).
        return;
    };
    let tris: Vec<Triangle<f64, 3>> = (0..mesh.len()).map(|i| mesh.triangle(i)).collect();
    let scale = points.iter().flat_map(|p| p.iter()).fold(1.0f64, |m, x| m.max(x.abs()));
    let tol = 1e-9 * scale;
    let builder = Builder::ALL[(probe[0].abs() * 3.0) as usize % Builder::ALL.len()];
    let config = BuildConfig::with_builder(builder).leaf_size(1 + (probe[1].abs() as usize) % 4);
    let Ok(bvh) = MeshBvh::<f64, Aabb<f64, 3>>::with_config(mesh, &config) else { return };
    BUILT.fetch_add(1, Ordering::Relaxed);
    let mut ws = QueryWorkspace::new();

    // The nearest hit of a ray, by the watertight test the mesh documents (Möller–Trumbore
    // decides rays through an edge or vertex differently, so it is not the oracle here).
    if let Ok(ray) =
        Ray::new(Point3::new(probe[2], probe[3], probe[4]), Vector3::new(probe[5], probe[6], probe[7]))
    {
        let brute = tris
            .iter()
            .filter_map(|t| ray_triangle_watertight(&ray, t))
            .map(|h| h.t)
            .fold(f64::INFINITY, f64::min);
        every_walk_finds(&bvh, &config, &ray, brute, 1e-9, "f64");
        // Any hit and all hits (the 8-wide tree's other two walks): hit exactly when a
        // triangle is hit, and list every hit triangle.
        assert_eq!(bvh.ray_hits(&ray, &mut ws), brute.is_finite(), "{}: any hit", builder.name());
        let all: Vec<u32> = bvh.cast_ray_all(&ray, &mut ws).iter().map(|h| h.triangle).collect();
        let mut every: Vec<u32> = (0..tris.len() as u32)
            .filter(|&i| ray_triangle_watertight(&ray, &tris[i as usize]).is_some())
            .collect();
        let mut sorted = all.clone();
        sorted.sort_unstable();
        every.sort_unstable();
        assert_eq!(sorted, every, "{}: all hits", builder.name());
    }
    rays_in_f32(&points, probe, &config);

    // The triangles meeting a box. `triangle_aabb` is conservative by a few ulps (it reports
    // a triangle 10⁻³⁰⁰ outside the box as touching) while the tree's box culling is exact, so
    // the oracle asks both: the triangle's own box meets the region, and the triangle does.
    let lo = Point3::new(probe[8], probe[9], probe[10]);
    if let Ok(region) = Aabb::new(lo, lo + Vector3::new(probe[11], probe[12], probe[13]).abs()) {
        let brute: Vec<u32> = (0..tris.len() as u32)
            .filter(|&i| {
                let t = &tris[i as usize];
                let boxed = aabb_from_points(&t.vertices()).is_ok_and(|b| aabb_aabb(&b, &region));
                boxed && triangle_aabb(t, &region)
            })
            .collect();
        assert_eq!(bvh.triangles_in_aabb(&region, &mut ws), brute, "{}: triangles in a box", builder.name());
    }

    // The closest point to a point.
    let p = Point3::new(probe[14], probe[15], probe[2]);
    if p.iter().all(|x| x.is_finite() && x.abs() < 1e12) {
        let brute = tris
            .iter()
            .map(|t| (closest_point_on_triangle(&p, t).0 - p).norm())
            .fold(f64::INFINITY, f64::min);
        let found = bvh.closest_point(&p, f64::INFINITY, &mut ws).map(|c| c.distance);
        assert!(
            found.is_some_and(|d| (d - brute).abs() <= tol + 1e-9 * brute),
            "{}: closest {found:?} vs {brute}",
            builder.name()
        );
    }

    // The mesh against a moved copy of itself.
    let t = Vector3::new(probe[3], probe[5], probe[7]);
    if t.iter().all(|x| x.is_finite() && x.abs() < 1e12) {
        let pose = Isometry3::new(
            t * 0.1,
            Vector3::new(probe[4], probe[6], probe[8]).map(|x| if x.is_finite() { x % 7.0 } else { 0.0 }),
        );
        let motion = Motion::from_isometry(&pose);
        let moved: Vec<Option<Triangle<f64, 3>>> = tris
            .iter()
            .map(|tr| {
                let [a, b, c] = tr.vertices();
                Triangle::new(
                    motion.transform_point(&a),
                    motion.transform_point(&b),
                    motion.transform_point(&c),
                )
                .ok()
            })
            .collect();
        let mut brute = Vec::new();
        for (i, a) in tris.iter().enumerate() {
            for (j, b) in moved.iter().enumerate() {
                if b.as_ref().is_some_and(|b| triangle_triangle(a, b).intersects()) {
                    brute.push((i as u32, j as u32));
                }
            }
        }
        assert_eq!(
            bvh.overlapping_triangles(&bvh, &motion, &mut ws),
            brute,
            "{}: mesh against its moved copy",
            builder.name()
        );
    }
}

/// The nearest ray hit again in `f32`, the precision of games (rounding allowances scale with
/// its ε, 5·10⁸ times `f64`'s), when the mesh and the ray fit its range: the wide walk and the
/// binary walk of every volume type against brute force over the same `f32` triangles.
fn rays_in_f32(points: &[Point3<f64>], probe: &[f64], config: &BuildConfig) {
    let points: Vec<Point3<f32>> = points.iter().map(|p| p.cast::<f32>()).collect();
    let triangles: Vec<[u32; 3]> =
        (0..points.len() as u32 / 3).map(|t| [3 * t, 3 * t + 1, 3 * t + 2]).collect();
    let Ok(mesh) = TriMesh::new(points, triangles) else { return };
    let Ok(ray) = Ray::new(
        Point3::new(probe[2], probe[3], probe[4]).cast::<f32>(),
        Vector3::new(probe[5], probe[6], probe[7]).cast::<f32>(),
    ) else {
        return;
    };
    let Ok(bvh) = MeshBvh::<f32, Aabb<f32, 3>>::with_config(mesh, config) else { return };
    let brute = (0..bvh.mesh().len())
        .filter_map(|i| ray_triangle_watertight(&ray, &bvh.mesh().triangle(i)))
        .map(|h| h.t)
        .fold(f32::INFINITY, f32::min);
    every_walk_finds(&bvh, config, &ray, brute, 1e-5, "f32");
}

/// The nearest hit of every walk agrees with brute force's `brute` (∞ for none) to `rel`: the
/// 8-wide walk and the binary walk (the scalar reference), and the binary walk over every
/// other volume type, each culling the ray with its own test (slabs, a sphere, an oriented
/// box, a k-DOP), which must not cull a hit brute force sees.
fn every_walk_finds<T: cd_geom::Real>(
    bvh: &MeshBvh<T, Aabb<T, 3>>,
    config: &BuildConfig,
    ray: &Ray<T, 3>,
    brute: T,
    rel: f64,
    precision: &str,
) {
    let mut ws = QueryWorkspace::new();
    let walks: [(&str, Option<Option<T>>); 7] = [
        ("wide", Some(bvh.cast_ray(ray, &mut ws).map(|h| h.t))),
        ("binary", Some(bvh.cast_ray_binary(ray, &mut ws).map(|h| h.t))),
        ("ball binary", binary_ray::<T, Ball<T, 3>>(bvh, config, ray, &mut ws)),
        ("obb binary", binary_ray::<T, Obb<T, 3>>(bvh, config, ray, &mut ws)),
        ("sat-lite obb binary", binary_ray::<T, SatLiteObb<T>>(bvh, config, ray, &mut ws)),
        ("18-dop binary", binary_ray::<T, Dop18<T>>(bvh, config, ray, &mut ws)),
        ("26-dop binary", binary_ray::<T, Dop26<T>>(bvh, config, ray, &mut ws)),
    ];
    let brute = brute.to_f64();
    for (walk, got) in walks {
        match got {
            // The hierarchy was refused (a volume that cannot be fitted): nothing to check.
            None => {}
            Some(Some(t)) => assert!(
                (t.to_f64() - brute).abs() <= rel * (1.0 + brute.abs()),
                "{} ({precision}, {walk} walk): ray t {t} vs {brute}",
                config.builder.name()
            ),
            Some(None) => assert!(
                brute.is_infinite(),
                "{} ({precision}, {walk} walk): the ray missed a hit at {brute}",
                config.builder.name()
            ),
        }
    }
}

/// The binary walk's closest hit over the same mesh with volume type `B` (`None` when that
/// hierarchy is refused).
fn binary_ray<T: cd_geom::Real, B: HierarchyVolume<T, 3>>(
    aabb_tree: &MeshBvh<T, Aabb<T, 3>>,
    config: &BuildConfig,
    ray: &Ray<T, 3>,
    ws: &mut QueryWorkspace<T>,
) -> Option<Option<T>> {
    let bvh = MeshBvh::<T, B>::with_config(aabb_tree.mesh().clone(), config).ok()?;
    Some(bvh.cast_ray_binary(ray, ws).map(|h| h.t))
}
