//! Convex hulls: containment, face planes touching the hull, Euler's formula, extreme vertices,
//! volume against the divergence theorem, degenerate input, real meshes.

mod common;

use cd_bv::*;
use cd_geom::{ConvexPolyhedron, GeomError, SupportMap};
use common::*;
use nalgebra::{Point2, Point3, Vector3};
use proptest::prelude::*;

/// An `f32` hull holds every input point to within the bound `ConvexPolyhedron::from_faces`
/// checks (8·√ε of the extent). The hull builder skips that check, so the tests make it.
fn check_hull_f32(h: &ConvexPolyhedron<f32>, pts: &[Point3<f32>]) {
    let c = h.vertex_mean();
    let extent = h.vertices().iter().map(|v| (v - c).amax()).fold(0.0f32, f32::max);
    let tol = 8.0 * f32::EPSILON.sqrt() * extent;
    for f in h.faces() {
        let worst = pts.iter().map(|p| f.plane.signed_distance(p)).fold(f32::MIN, f32::max);
        assert!(worst <= tol, "a point {worst} outside a face (tolerance {tol})");
    }
}

/// Structural checks every hull must pass; returns (V, E, F).
fn check_hull(h: &ConvexPolyhedron<f64>, pts: &[Point3<f64>]) -> (usize, usize, usize) {
    let extent = pts.iter().map(|p| p.coords.amax()).fold(1.0, f64::max);
    let tol = 1e-9 * extent;
    for f in h.faces() {
        // Every input point inside every face plane.
        for p in pts {
            assert!(
                f.plane.signed_distance(p) <= tol,
                "point {p:?} outside a face by {}",
                f.plane.signed_distance(p)
            );
        }
        // The plane touches the hull: its vertices lie on it.
        for &v in h.face_vertices(f) {
            assert!(f.plane.signed_distance(&h.vertices()[v as usize]).abs() <= tol);
        }
    }
    // Euler: V - E + F = 2 (each edge is shared by two faces).
    let v = h.vertices().len();
    let e2: usize = h.faces().iter().map(|f| h.face_vertices(f).len()).sum();
    assert_eq!(e2 % 2, 0);
    let (e, f) = (e2 / 2, h.faces().len());
    assert_eq!(v + f, e + 2, "Euler characteristic: V {v} E {e} F {f}");
    // Hull vertices are input points, and each is extreme along the mean of its faces' normals.
    for (i, hv) in h.vertices().iter().enumerate() {
        assert!(pts.contains(hv));
        let n = h
            .faces()
            .iter()
            .filter(|f| h.face_vertices(f).contains(&(i as u32)))
            .fold(Vector3::zeros(), |s, f| s + f.plane.normal());
        let best = pts.iter().map(|p| n.dot(&p.coords)).fold(f64::NEG_INFINITY, f64::max);
        assert!(n.dot(&hv.coords) >= best - tol * n.norm().max(1.0));
    }
    (v, e, f)
}

fn cloud() -> impl Strategy<Value = Vec<Point3<f64>>> {
    proptest::collection::vec(
        (-10.0..10.0f64, -10.0..10.0f64, -10.0..10.0f64).prop_map(|(x, y, z)| Point3::new(x, y, z)),
        4..80,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_clouds(pts in cloud()) {
        let h = convex_hull_3d(&pts).unwrap();
        check_hull(&h, &pts);
        // Brute force: a point is a hull vertex iff some triple through it has every point on
        // one side (general position: random reals).
        if pts.len() <= 14 {
            let n = pts.len();
            let mut extreme = vec![false; n];
            for a in 0..n { for b in a + 1..n { for c in b + 1..n {
                let nrm = (pts[b] - pts[a]).cross(&(pts[c] - pts[a]));
                let s: Vec<f64> = pts.iter().map(|p| nrm.dot(&(p - pts[a]))).collect();
                if s.iter().all(|x| *x <= 1e-9) || s.iter().all(|x| *x >= -1e-9) {
                    extreme[a] = true; extreme[b] = true; extreme[c] = true;
                }
            }}}
            let count = extreme.iter().filter(|x| **x).count();
            prop_assert_eq!(h.vertices().len(), count);
        }
        // f32 input gives a valid hull too.
        let p32: Vec<Point3<f32>> = pts.iter().map(|p| p.cast::<f32>()).collect();
        let h32 = convex_hull_3d(&p32).unwrap();
        prop_assert!(p32.iter().all(|p| h32.faces().iter().all(|f| f.plane.signed_distance(p) <= 1e-4)));
        // The inner ball (boolean queries' early accept) is inside the hull: the exact
        // inscribed radius around the vertex mean is its smallest distance to a face plane,
        // and the inner radius is that, less no more than rounding.
        let c = h.vertex_mean();
        let inscribed = h.faces().iter().map(|f| -f.plane.signed_distance(c)).fold(f64::INFINITY, f64::min);
        let rho = h.inner_radius();
        prop_assert!(rho <= inscribed + 1e-12, "inner radius {} beyond the inscribed {}", rho, inscribed);
        prop_assert!(rho >= inscribed - 1e-9 * 20.0, "inner radius {} far below the inscribed {}", rho, inscribed);
        // The outer ball (the early reject) holds every input point.
        let far = pts.iter().map(|p| (p - c).norm()).fold(0.0, f64::max);
        prop_assert!(h.outer_radius() >= far * (1.0 - 1e-12), "outer radius {} below {}", h.outer_radius(), far);
        let (c32, rho32) = (h32.vertex_mean(), h32.inner_radius());
        let inscribed32 = h32.faces().iter().map(|f| -f.plane.signed_distance(c32)).fold(f32::INFINITY, f32::min);
        prop_assert!(rho32 <= inscribed32 && rho32 >= 0.0, "f32 inner radius {} beyond {}", rho32, inscribed32);
    }

    /// Points on a grid (massively coplanar and collinear subsets) and with duplicates.
    #[test]
    fn grids_and_duplicates(nx in 2usize..6, ny in 2usize..6, nz in 2usize..6, dup in 1usize..3) {
        let mut pts = Vec::new();
        for i in 0..nx { for j in 0..ny { for k in 0..nz { for _ in 0..dup {
            pts.push(Point3::new(i as f64, j as f64 * 0.5, k as f64 * 2.0));
        }}}}
        let h = convex_hull_3d(&pts).unwrap();
        let (_, _, f) = check_hull(&h, &pts);
        prop_assert_eq!(f, 6, "a box hull has six merged faces");
        let vol = (nx - 1) as f64 * (ny - 1) as f64 * 0.5 * (nz - 1) as f64 * 2.0;
        prop_assert!((h.volume() - vol).abs() < 1e-9 * vol);
    }

    /// 2D hull: counter-clockwise, strictly convex, every point on the inner side of every edge.
    #[test]
    fn hull_2d(pts in proptest::collection::vec((-10.0..10.0f64, -10.0..10.0f64).prop_map(|(x, y)| Point2::new(x, y)), 3..100)) {
        let h = convex_hull_2d(&pts).unwrap();
        prop_assert!(h.len() >= 3);
        for i in 0..h.len() {
            let (a, b, c) = (h[i], h[(i + 1) % h.len()], h[(i + 2) % h.len()]);
            let turn = (b - a).perp(&(c - b));
            prop_assert!(turn > 0.0, "not strictly convex / counter-clockwise");
            for p in &pts {
                prop_assert!((b - a).perp(&(p - a)) >= -1e-9);
            }
        }
    }
}

#[test]
fn volume_matches_divergence_theorem_on_closed_convex_meshes() {
    // A UV sphere mesh (closed, convex): volume by the divergence theorem over its triangles.
    let (nu, nv) = (48usize, 24usize);
    let mut verts = vec![Point3::new(0.0, 0.0, 1.0), Point3::new(0.0, 0.0, -1.0)];
    for j in 1..nv {
        let phi = std::f64::consts::PI * j as f64 / nv as f64;
        for i in 0..nu {
            let th = std::f64::consts::TAU * i as f64 / nu as f64;
            verts.push(Point3::new(phi.sin() * th.cos(), phi.sin() * th.sin(), phi.cos()));
        }
    }
    let ring = |j: usize, i: usize| 2 + (j - 1) * nu + (i % nu);
    let mut tris = Vec::new();
    for i in 0..nu {
        tris.push([0, ring(1, i), ring(1, i + 1)]);
        tris.push([1, ring(nv - 1, i + 1), ring(nv - 1, i)]);
        for j in 1..nv - 1 {
            tris.push([ring(j, i), ring(j + 1, i), ring(j + 1, i + 1)]);
            tris.push([ring(j, i), ring(j + 1, i + 1), ring(j, i + 1)]);
        }
    }
    let div: f64 = tris
        .iter()
        .map(|t| verts[t[0]].coords.dot(&verts[t[1]].coords.cross(&verts[t[2]].coords)) / 6.0)
        .sum();
    let h = convex_hull_3d(&verts).unwrap();
    check_hull(&h, &verts);
    assert!((h.volume() - div.abs()).abs() < 1e-9, "hull {} divergence {}", h.volume(), div);
    // The bunny: its hull contains it, so the hull's volume exceeds the mesh's.
    let bunny = obj_vertices(BUNNY);
    let faces = obj_faces(BUNNY);
    let mesh_vol: f64 = faces
        .iter()
        .map(|t| bunny[t[0]].coords.dot(&bunny[t[1]].coords.cross(&bunny[t[2]].coords)) / 6.0)
        .sum();
    let bh = convex_hull_3d(&bunny).unwrap();
    check_hull(&bh, &bunny);
    assert!(bh.volume() > mesh_vol.abs());
    // The support map of the hull agrees with a scan of the input.
    for k in 0..200 {
        let a = k as f64 * 0.77;
        let d = Vector3::new(a.sin(), (1.3 * a).cos(), (0.7 * a).sin());
        let best = bunny.iter().map(|p| d.dot(&p.coords)).fold(f64::NEG_INFINITY, f64::max);
        assert!((d.dot(&bh.support(&d).coords) - best).abs() < 1e-12);
    }
    let env = obj_vertices(FCL_ENV);
    check_hull(&convex_hull_3d(&env).unwrap(), &env);
}

/// Quickhull re-assigns each eye's orphans in blocks of 256 points. Points scattered just
/// inside and on a sphere keep thousands of points outside the first faces, so the first eyes
/// orphan several blocks at once: the hull still passes every structural check, and the same
/// points in reverse order give the same vertices.
#[test]
fn clouds_orphaning_many_blocks_at_once() {
    let mut rnd = xorshift(0x5eed_b10c);
    let pts: Vec<Point3<f64>> = (0..3000)
        .map(|_| loop {
            let v = Vector3::new(rnd(), rnd(), rnd());
            if v.norm() > 0.1 && v.norm() <= 1.0 {
                break Point3::from(v.normalize() * (1.0 - 0.02 * rnd().abs()));
            }
        })
        .collect();
    let h = convex_hull_3d(&pts).unwrap();
    let (v, _, _) = check_hull(&h, &pts);
    assert!(v > 300, "a hull of {v} vertices does not exercise many eyes");
    let reversed: Vec<Point3<f64>> = pts.iter().rev().copied().collect();
    let hr = convex_hull_3d(&reversed).unwrap();
    let key = |p: &Point3<f64>| [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()];
    let mut a: Vec<_> = h.vertices().iter().map(key).collect();
    let mut b: Vec<_> = hr.vertices().iter().map(key).collect();
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b);
}

#[test]
fn degenerate_inputs() {
    let p = |x: f64, y: f64, z: f64| Point3::new(x, y, z);
    assert_eq!(convex_hull::<f64>(&[]).err(), Some(GeomError::TooFewPoints));
    assert_eq!(convex_hull(&[p(0.0, f64::NAN, 0.0)]).err(), Some(GeomError::NonFinite));
    assert_eq!(convex_hull(&[p(1.0, 2.0, 3.0)]).unwrap(), Hull::Point(p(1.0, 2.0, 3.0)));
    assert_eq!(convex_hull(&vec![p(1.0, 2.0, 3.0); 50]).unwrap(), Hull::Point(p(1.0, 2.0, 3.0)));
    let line: Vec<Point3<f64>> = (0..20).map(|i| p(i as f64, 2.0 * i as f64, 0.5)).collect();
    match convex_hull(&line).unwrap() {
        Hull::Segment(a, b) => assert!((a == line[0] && b == line[19]) || (a == line[19] && b == line[0])),
        other => panic!("expected a segment, got {other:?}"),
    }
    let plane: Vec<Point3<f64>> =
        (0..100).map(|i| p((i % 10) as f64, (i / 10) as f64, 0.0)).map(|q| p(q.x, q.y, q.x + q.y)).collect();
    match convex_hull(&plane).unwrap() {
        Hull::Polygon(v) => assert_eq!(v.len(), 4),
        other => panic!("expected a polygon, got {other:?}"),
    }
    assert_eq!(convex_hull_3d(&plane).err(), Some(GeomError::Degenerate));
    // Two points, and a 2D collinear set.
    assert!(matches!(convex_hull(&[p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0)]).unwrap(), Hull::Segment(..)));
    let l2: Vec<Point2<f64>> = (0..10).map(|i| Point2::new(i as f64, 0.0)).collect();
    assert_eq!(convex_hull_2d(&l2).unwrap().len(), 2);
    assert_eq!(convex_hull_2d(&[Point2::new(1.0f64, 1.0); 5]).unwrap().len(), 1);
}

#[test]
fn a_million_points() {
    let mut next = xorshift(99);
    let pts: Vec<Point3<f64>> = (0..1_000_000).map(|_| Point3::new(next(), next(), next())).collect();
    let h = convex_hull_3d(&pts).unwrap();
    // Inside the cube [-1,1]³ and close to its volume 8.
    assert!(h.volume() <= 8.0 && h.volume() > 7.9);
    for f in h.faces() {
        assert!(pts.iter().step_by(97).all(|p| f.plane.signed_distance(p) <= 1e-9));
    }
}

/// Subsets of real meshes: the FCL scene is full of exactly coplanar and collinear vertices
/// (walls, boxes, stairs) at large coordinates, and its subsets give merged faces whose
/// vertices only nearly share a plane. Random subsets and spatially coherent ones (the
/// vertices of the triangles in a box, duplicates included, as a BVH node sees them) must
/// give a valid hull (every point behind every face), in f64 and f32. A 3,900-point node of the FCL scene once gave
/// `NotConvex`.
#[test]
fn subsets_of_real_meshes() {
    let check = |name: &str, round: usize, pts: &[Point3<f64>]| {
        match convex_hull(pts) {
            Ok(Hull::Polyhedron(h)) => {
                check_hull(&h, pts);
            }
            Ok(_) => {}
            Err(e) => panic!("{name} round {round}: {} points gave {e:?}", pts.len()),
        }
        let p32: Vec<Point3<f32>> = pts.iter().map(|p| p.cast::<f32>()).collect();
        match convex_hull(&p32) {
            Ok(Hull::Polyhedron(h)) => check_hull_f32(&h, &p32),
            Ok(_) => {}
            Err(e) => panic!("{name} round {round} (f32): {} points gave {e:?}", pts.len()),
        }
    };
    for (name, text) in [("fcl", FCL_ENV), ("bunny", BUNNY)] {
        let all = obj_vertices(text);
        let tris = obj_faces(text);
        let lo = all.iter().fold(Point3::from(Vector3::repeat(f64::MAX)), |m, p| m.inf(p));
        let hi = all.iter().fold(Point3::from(Vector3::repeat(f64::MIN)), |m, p| m.sup(p));
        let mut next = xorshift(7);
        let mut unit = move || next() * 0.5 + 0.5;
        for round in 0..80 {
            let pts: Vec<Point3<f64>> = if round % 2 == 0 {
                let keep = [0.01, 0.03, 0.1, 0.3, 0.6][round / 2 % 5];
                all.iter().copied().filter(|_| unit() < keep).collect()
            } else {
                // The triangles whose first vertex is in a random box, all three vertices each.
                let size = [0.05, 0.15, 0.4][round / 2 % 3];
                let corner = Vector3::from_fn(|i, _| lo[i] + (hi[i] - lo[i]) * (1.0 - size) * unit());
                let a = Point3::from(corner);
                let b = a + (hi - lo) * size;
                let inside = |p: &Point3<f64>| (0..3).all(|i| p[i] >= a[i] && p[i] <= b[i]);
                tris.iter().filter(|t| inside(&all[t[0]])).flat_map(|t| t.map(|i| all[i])).collect()
            };
            if pts.len() >= 4 {
                check(name, round, &pts);
            }
        }
    }
}

/// The FCL node that once made Quickhull return `NotConvex` (found by cd-mid's k-DOP tree):
/// walls, floors and boxes with many exactly coplanar and duplicate points.
#[test]
fn fcl_node_that_was_rejected() {
    let pts: Vec<Point3<f64>> = include_str!("data/fcl_env_node.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let v: Vec<f64> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
            Point3::new(v[0], v[1], v[2])
        })
        .collect();
    assert_eq!(pts.len(), 3900);
    let h = convex_hull_3d(&pts).unwrap();
    check_hull(&h, &pts);
    let p32: Vec<Point3<f32>> = pts.iter().map(|p| p.cast::<f32>()).collect();
    check_hull_f32(&convex_hull_3d(&p32).unwrap(), &p32);
}

/// Small solids far from the origin in `f32`: a cloud's hull and a box's polyhedron are built
/// (until 2026-11-28 both were refused as not convex: the convexity check took dot products
/// with the coordinates themselves, whose rounding at 10⁴–10⁵ outweighed a solid 10⁻²–1
/// wide), and they hold every point: checked in `f64` against the stored planes, to the check's
/// relative bound plus a few ulps of the coordinates (the stored planes' offsets are rounded
/// at that size). Sizes below 16 ulps of the offset are skipped: there `f32` cannot hold the
/// solid's shape (a 10⁻² box at 10⁶ has corners on a grid of 0.06, and its polyhedron is
/// refused as [`GeomError::Degenerate`]).
#[test]
fn small_solids_far_from_the_origin() {
    let contained = |h: &ConvexPolyhedron<f32>, pts: &[Point3<f64>], label: &str| {
        let c = h.vertex_mean().cast::<f64>();
        let extent = h.vertices().iter().map(|v| (v.cast::<f64>() - c).amax()).fold(0.0, f64::max);
        let magnitude = c.coords.amax() + extent;
        let eps = f64::from(f32::EPSILON);
        let bound = 8.0 * eps.sqrt() * extent + 16.0 * eps * magnitude;
        for f in h.faces() {
            let (n, d) = (f.plane.normal().cast::<f64>(), f64::from(f.plane.d()));
            let worst = pts.iter().map(|p| n.dot(&p.coords) + d).fold(f64::MIN, f64::max);
            assert!(worst <= bound, "{label}: a point {worst} outside a face (bound {bound})");
        }
    };
    let mut built = 0;
    for offset in [1e3f32, 1e4, 4.5e4, 1e5, 1e6] {
        for size in [0.01f32, 0.1, 1.0, 10.0] {
            if size < 16.0 * f32::EPSILON * offset {
                continue;
            }
            for k in 0..10 {
                let k = k as f32;
                let q = nalgebra::UnitQuaternion::from_euler_angles(0.3 * k, 0.7 + 0.1 * k, 1.1 * k);
                let centre = Point3::new(offset, -0.5 * offset, 0.25 * offset);
                let label = format!("offset {offset} size {size} rotation {k}");
                let obb = cd_geom::Obb::new(
                    centre,
                    q.to_rotation_matrix().into_inner(),
                    Vector3::new(size, 0.6 * size, 0.3 * size),
                )
                .unwrap();
                let poly = ConvexPolyhedron::from_obb(&obb).unwrap_or_else(|e| panic!("{label}: box {e:?}"));
                // The box's own corners, exactly (the polyhedron's vertices are them rounded).
                let (exact, local) = (obb.widened(), obb.widened().local_aabb());
                let corners: Vec<Point3<f64>> = (0..8).map(|b| exact.to_world(&local.corner(b))).collect();
                contained(&poly, &corners, &label);
                let pts: Vec<Point3<f32>> = (0..200)
                    .map(|i| {
                        let t = i as f32 * 0.618;
                        let v =
                            Vector3::new((t * 1.3).sin(), (t * 2.1).cos(), (t * 0.7).sin() * (t * 0.3).cos());
                        centre + q * v * size
                    })
                    .collect();
                let Hull::Polyhedron(h) = convex_hull(&pts).unwrap_or_else(|e| panic!("{label}: hull {e:?}"))
                else {
                    panic!("{label}: a solid cloud's hull is not a polyhedron");
                };
                contained(&h, &pts.iter().map(|p| p.cast::<f64>()).collect::<Vec<_>>(), &label);
                built += 1;
            }
        }
    }
    assert!(built >= 100, "{built} cases");
}
