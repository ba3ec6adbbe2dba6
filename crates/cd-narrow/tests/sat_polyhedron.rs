//! Convex polyhedron SAT (Gauss-map pruning) against the exact minimum over all vertex-derived
//! candidate axes, and its manifolds against the hulls themselves.

mod common;

use cd_geom::*;
use cd_narrow::*;
use common::*;
use nalgebra::{Isometry3, Translation3, UnitQuaternion};

/// A few hull families with explicit faces: box, octahedron, triangular prism.
fn hull(rng: &mut Rng, kind: usize) -> ConvexPolyhedron<f64> {
    let (sx, sy, sz) = (rng.range(0.2, 1.0), rng.range(0.2, 1.0), rng.range(0.2, 1.0));
    match kind {
        0 => ConvexPolyhedron::from_aabb(&Aabb::new(P3::new(-sx, -sy, -sz), P3::new(sx, sy, sz)).unwrap())
            .unwrap(),
        1 => {
            let v = vec![
                P3::new(sx, 0.0, 0.0),
                P3::new(-sx, 0.0, 0.0),
                P3::new(0.0, sy, 0.0),
                P3::new(0.0, -sy, 0.0),
                P3::new(0.0, 0.0, sz),
                P3::new(0.0, 0.0, -sz),
            ];
            let f = vec![
                vec![0, 2, 4],
                vec![2, 1, 4],
                vec![1, 3, 4],
                vec![3, 0, 4],
                vec![2, 0, 5],
                vec![1, 2, 5],
                vec![3, 1, 5],
                vec![0, 3, 5],
            ];
            ConvexPolyhedron::from_faces(v, &f).unwrap()
        }
        _ => {
            let tri = [
                P3::new(sx, 0.0, 0.0),
                P3::new(-0.5 * sx, 0.87 * sy, 0.0),
                P3::new(-0.5 * sx, -0.87 * sy, 0.0),
            ];
            let mut v: Vec<P3> = tri.iter().map(|p| P3::new(p.x, p.y, -sz)).collect();
            v.extend(tri.iter().map(|p| P3::new(p.x, p.y, sz)));
            let f = vec![vec![0, 1, 2], vec![3, 4, 5], vec![0, 1, 4, 3], vec![1, 2, 5, 4], vec![2, 0, 3, 5]];
            ConvexPolyhedron::from_faces(v, &f).unwrap()
        }
    }
}

fn pose(rng: &mut Rng) -> Isometry3<f64> {
    Isometry3::from_parts(
        Translation3::from(rng.vector::<3>(-0.9, 0.9)),
        UnitQuaternion::from_euler_angles(rng.range(-3.0, 3.0), rng.range(-1.5, 1.5), rng.range(-3.0, 3.0)),
    )
}

/// Pair `k` of a test: two hulls of the families `k % 3` and `(k / 3) % 3`, their poses, their
/// world-space vertices, and the exact depth of their overlap (negative when apart).
struct PosedPair {
    hulls: (ConvexPolyhedron<f64>, ConvexPolyhedron<f64>),
    poses: (Isometry3<f64>, Isometry3<f64>),
    vertices: (Vec<P3>, Vec<P3>),
    exact: f64,
}

impl PosedPair {
    fn new(rng: &mut Rng, k: usize) -> Self {
        let (ha, hb) = (hull(rng, k % 3), hull(rng, (k / 3) % 3));
        let (pa, pb) = (pose(rng), pose(rng));
        let va: Vec<P3> = ha.vertices().iter().map(|p| pa * p).collect();
        let vb: Vec<P3> = hb.vertices().iter().map(|p| pb * p).collect();
        let (exact, _) = exact_depth(&va, &vb, &candidate_axes_3d(&va, &vb));
        PosedPair { hulls: (ha, hb), poses: (pa, pb), vertices: (va, vb), exact }
    }
}

#[test]
fn hull_sat_depth_is_exact_and_manifolds_lie_on_the_hulls() {
    let mut rng = Rng(31);
    let (mut pen, mut sep) = (0, 0);
    for k in 0..3000 {
        let PosedPair { hulls: (ha, hb), poses: (pa, pb), vertices: (va, vb), exact } =
            PosedPair::new(&mut rng, k);
        let a = PlacedHull { hull: &ha, pose: &pa };
        let b = PlacedHull { hull: &hb, pose: &pb };
        let sat = hull_hull_sat(&a, &b, f64::INFINITY, &mut HullSatCache::default());
        let mut m = Manifold::default();
        hull_hull_manifold(&a, &b, 0.0, &mut HullSatCache::default(), &mut m);
        if exact > 1e-9 {
            pen += 1;
            assert!(
                (-sat.separation - exact).abs() < 1e-9,
                "sat {} exact {exact} {:?}",
                sat.separation,
                sat.feature
            );
            assert!((overlap_along(&va, &vb, &sat.normal) - exact).abs() < 1e-9);
            assert!(!m.is_empty(), "no manifold at depth {exact}");
            let inside = |p: &P3, h: &ConvexPolyhedron<f64>, pose: &Isometry3<f64>| {
                let l = pose.inverse_transform_point(p);
                h.faces().iter().all(|f| f.plane.signed_distance(&l) <= 1e-9)
            };
            for p in m.points() {
                assert!(inside(&p.point_a, &ha, &pa) && inside(&p.point_b, &hb, &pb), "{p:?}");
                assert!((m.normal.dot(&(p.point_b - p.point_a)) - p.distance).abs() < 1e-9);
                assert!(p.distance <= 1e-12 && p.distance >= -exact - 1e-9);
            }
            assert!((m.deepest().unwrap().distance + exact).abs() < 1e-6, "{m:?} vs {exact}");
        } else if exact < -1e-9 {
            sep += 1;
            assert!(sat.separation > 0.0 && m.is_empty());
            assert!(sat.separation <= brute_distance_3d(&va, &vb) + 1e-9);
        }
    }
    assert!(pen > 300 && sep > 300, "{pen} {sep}");
}

/// Two posed hulls through the dispatcher (`Shape::Hull` twice: GJK and EPA on the first hull
/// and the second as a pose relative to it, a path of its own) against the exact answers on
/// the hulls' world-space vertices: the distance of separated pairs by brute force over the
/// vertex triangles, the depth of overlapping ones as the minimum over every SAT candidate axis,
/// the boolean test consistent with both, in both orders.
#[test]
fn posed_hull_pairs_through_the_dispatcher_match_the_exact_answers() {
    let mut rng = Rng(47);
    let (mut pen, mut sep) = (0, 0);
    for k in 0..600 {
        let PosedPair { hulls: (ha, hb), poses: (pa, pb), vertices: (va, vb), exact } =
            PosedPair::new(&mut rng, k);
        let (a, b) = (Shape::Hull(&ha, &pa), Shape::Hull(&hb, &pb));
        for (x, y) in [(a, b), (b, a)] {
            let c = contact(x, y, 0.0, &mut PairCache::default()).unwrap();
            let d = distance(x, y, &mut PairCache::default()).unwrap();
            let hit = intersects(x, y, &mut PairCache::default()).unwrap();
            assert!((d.point_b - d.point_a - d.normal * d.distance).norm() < 1e-7, "{d:?}");
            if exact > 1e-7 {
                let c = c.expect("overlapping hulls have a contact");
                assert!((c.depth() - exact).abs() < 1e-6, "depth {} against {exact}", c.depth());
                assert!((d.depth() - exact).abs() < 1e-6);
                assert!(hit);
            } else if exact < -1e-7 {
                let truth = brute_distance_3d(&va, &vb);
                assert!((d.distance - truth).abs() < 1e-7, "distance {} against {truth}", d.distance);
                assert!(c.is_none() && !hit);
            }
        }
        if exact > 1e-7 {
            pen += 1;
        } else if exact < -1e-7 {
            sep += 1;
        }
    }
    assert!(pen > 50 && sep > 50, "{pen} {sep}");
}

#[test]
fn edge_table_and_pruning() {
    let cube =
        ConvexPolyhedron::from_aabb(&Aabb::new(P3::new(-1.0, -1.0, -1.0), P3::new(1.0, 1.0, 1.0)).unwrap())
            .unwrap();
    assert_eq!(cube.edges().len(), 12);
    assert!(cube.edges().iter().all(|e| e.faces[0] != e.faces[1]));
    // The cube rotated 45° about x rests edge-down on the unit cube, 0.05 deep: its lowest edge
    // is √2 below its centre, the centre is at 1 + √2 − 0.05; normal +z (A's top face).
    let ident = Isometry3::identity();
    let h = 1.0 + 2f64.sqrt();
    let tilted = Isometry3::from_parts(
        Translation3::new(0.0, 0.0, h - 0.05),
        UnitQuaternion::from_euler_angles(std::f64::consts::FRAC_PI_4, 0.0, 0.0),
    );
    let a = PlacedHull { hull: &cube, pose: &ident };
    let b = PlacedHull { hull: &cube, pose: &tilted };
    let sat = hull_hull_sat(&a, &b, f64::INFINITY, &mut HullSatCache::default());
    assert!((sat.separation + 0.05).abs() < 1e-12 && (sat.normal - V3::z()).norm() < 1e-12, "{sat:?}");
    assert_eq!(
        sat.feature,
        HullFeature::FaceA(cube.faces().iter().position(|f| f.plane.normal().z > 0.5).unwrap())
    );
    let mut m = Manifold::default();
    hull_hull_manifold(&a, &b, 0.0, &mut HullSatCache::default(), &mut m);
    assert_eq!(m.len(), 2, "{m:?}");
    for p in m.points() {
        assert!((p.distance + 0.05).abs() < 1e-12 && (p.point_b.x.abs() - 1.0).abs() < 1e-12, "{p:?}");
    }
}

/// A prism over a regular `n`-gon of radius `r` in the xy plane, `z` from −h to h.
fn prism(n: usize, r: f64, h: f64) -> ConvexPolyhedron<f64> {
    let ring = |z: f64| {
        (0..n).map(move |k| {
            let a = std::f64::consts::TAU * k as f64 / n as f64;
            P3::new(r * a.cos(), r * a.sin(), z)
        })
    };
    let vertices: Vec<P3> = ring(-h).chain(ring(h)).collect();
    let mut faces = vec![(0..n).rev().collect::<Vec<_>>(), (n..2 * n).collect()];
    faces.extend((0..n).map(|k| vec![k, (k + 1) % n, n + (k + 1) % n, n + k]));
    ConvexPolyhedron::from_faces(vertices, &faces).unwrap()
}

#[test]
fn many_sided_faces_clip_to_a_wide_manifold_inside_both() {
    // 40-gon caps (more than the 16 vertices a clipped face keeps) resting on each other,
    // offset and turned about the axis: the manifold must lie on both caps and still span most
    // of their overlap.
    let disc = prism(40, 1.0, 0.5);
    let ident = Isometry3::identity();
    for (dx, turn) in [(0.0, 0.0), (0.3, 0.05), (0.8, 0.4), (1.5, 1.0)] {
        let top = Isometry3::from_parts(
            Translation3::new(dx, 0.0, 0.98),
            UnitQuaternion::from_euler_angles(0.0, 0.0, turn),
        );
        let a = PlacedHull { hull: &disc, pose: &ident };
        let b = PlacedHull { hull: &disc, pose: &top };
        let mut m = Manifold::default();
        let sep = hull_hull_manifold(&a, &b, 0.0, &mut HullSatCache::default(), &mut m);
        assert!((sep + 0.02).abs() < 1e-9, "{sep}");
        assert_eq!(m.len(), 4, "{m:?}");
        let on_cap = |p: &P3, pose: &Isometry3<f64>| {
            let l = pose.inverse_transform_point(p);
            disc.faces().iter().all(|f| f.plane.signed_distance(&l) <= 1e-9)
        };
        for p in m.points() {
            assert!(on_cap(&p.point_a, &ident) && on_cap(&p.point_b, &top), "{p:?}");
            assert!((p.distance + 0.02).abs() < 1e-9, "{p:?}");
        }
        // The span: the two unit discs' lens overlap is at least 2(1 − dx/2) wide along x;
        // the four points reach across most of it.
        let xs = m.points().iter().map(|p| p.point_a.x);
        let ys = m.points().iter().map(|p| p.point_a.y);
        let width = xs.clone().fold(f64::MIN, f64::max) - xs.fold(f64::MAX, f64::min);
        let height = ys.clone().fold(f64::MIN, f64::max) - ys.fold(f64::MAX, f64::min);
        let lens_half_height = (1.0 - (dx / 2.0) * (dx / 2.0)).sqrt();
        assert!(width > 0.8 * (2.0 - dx) && height > 0.8 * 2.0 * lens_half_height, "{dx}: {width} {height}");
    }
}

/// Two long thin boxes (needles) crossing at angles from 10⁻⁶ to 3·10⁻³ rad, in `f32`. The axis
/// of least depth is often the cross product of two nearly parallel long edges, shorter than
/// `f32`'s √ε; the SAT used to skip such axes, and on boxes 16.6 long reported a depth of 10⁻³
/// where the exact depth was 2.7·10⁻⁵. It now measures its axes in `f64`: the depth is the
/// exact one (over every candidate axis of the `f32` input, in `f64`) within the face
/// preference's bias, 64 ε of the coordinates, and the same query on the widened hulls is exact.
#[test]
fn f32_edge_axes_of_nearly_parallel_needles() {
    let mut rng = Rng(7);
    let (mut overlapping, mut worst) = (0, 0.0f64);
    for _ in 0..4000 {
        let needle = |rng: &mut Rng, l: f32| {
            let t = rng.range(1e-4, 1e-3) as f32;
            let (lo, hi) = ([-l, -t, -t], [l, t, t]);
            let wide = Aabb::new(Point::from(lo.map(f64::from)), Point::from(hi.map(f64::from))).unwrap();
            let b = Aabb::new(Point::from(lo), Point::from(hi)).unwrap();
            (ConvexPolyhedron::from_aabb(&b).unwrap(), ConvexPolyhedron::from_aabb(&wide).unwrap(), t)
        };
        let l = rng.range(1.0, 10.0) as f32;
        let ((a32, a64, ta), (b32, b64, tb)) = (needle(&mut rng, l), needle(&mut rng, l));
        let axis = nalgebra::Unit::new_normalize(rng.vector::<3>(-1.0, 1.0));
        let turn = UnitQuaternion::from_axis_angle(&axis, 10f64.powf(rng.range(-6.0, -2.5))).cast::<f32>();
        let reach = 2.0 * f64::from(ta + tb);
        let shift = rng.vector::<3>(-1.0, 1.0).component_mul(&V3::new(2.0, reach, reach)).cast::<f32>();
        let (pa32, pb32) = (Isometry3::<f32>::identity(), Isometry3::from_parts(shift.into(), turn));
        // The query normalizes the widened rotation again (an `f32` unit quaternion is unit to
        // 10⁻⁷ only); the oracle's B must be turned by the same rotation.
        let q64 = UnitQuaternion::new_normalize(pb32.rotation.into_inner().cast::<f64>());
        let (pa64, pb64) = (pa32.cast::<f64>(), Isometry3::from_parts(pb32.translation.cast::<f64>(), q64));
        let va: Vec<P3> = a64.vertices().iter().map(|p| pa64 * p).collect();
        let vb: Vec<P3> = b64.vertices().iter().map(|p| pb64 * p).collect();
        let (exact, _) = exact_depth(&va, &vb, &candidate_axes_3d(&va, &vb));
        if exact <= 0.0 {
            continue;
        }
        overlapping += 1;
        let placed32 = (PlacedHull { hull: &a32, pose: &pa32 }, PlacedHull { hull: &b32, pose: &pb32 });
        let sat32 = hull_hull_sat(&placed32.0, &placed32.1, f32::INFINITY, &mut HullSatCache::default());
        let placed64 = (PlacedHull { hull: &a64, pose: &pa64 }, PlacedHull { hull: &b64, pose: &pb64 });
        let sat64 = hull_hull_sat(&placed64.0, &placed64.1, f64::INFINITY, &mut HullSatCache::default());
        assert!((-sat64.separation - exact).abs() < 1e-12, "f64 {sat64:?} exact {exact}");
        let scale = va.iter().chain(&vb).fold(0.0, |m: f64, p| m.max(p.coords.amax()));
        let error = (-f64::from(sat32.separation) - exact).abs();
        assert!(error <= 64.0 * f64::from(f32::EPSILON) * scale * 1.01, "f32 {sat32:?} exact {exact}");
        worst = worst.max(error / scale);
    }
    assert!(overlapping > 1500, "{overlapping}");
    eprintln!("{overlapping} overlapping pairs, worst f32 error {worst:e} of the coordinates");
}
