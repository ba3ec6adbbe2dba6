//! Melax's BSP swept queries against exact and brute-force oracles: a cube (where plane
//! shifting is exact: the swept shape stops at the box grown by its support along each face
//! normal) and the closed Stanford bunny (point casts equal ray casts; inside/outside equals the
//! parity of ray crossings; sphere casts never stop later than the sampled exact contact).

use cd_geom::{Aabb, Ray};
use cd_mid::{MeshBvh, QueryWorkspace, SolidBsp, TriMesh};
use nalgebra::{Point3, Vector3};

mod common;
use common::{bunny, Rng};

fn cube(h: f64) -> TriMesh<f64> {
    let v: Vec<Point3<f64>> = (0..8)
        .map(|i| {
            Point3::new(
                if i & 1 == 0 { -h } else { h },
                if i & 2 == 0 { -h } else { h },
                if i & 4 == 0 { -h } else { h },
            )
        })
        .collect();
    // Outward-facing quads split in two.
    let quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
    let tris = quads.iter().flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]]).collect();
    TriMesh::new(v, tris).unwrap()
}

/// Entry parameter of the segment p0→p1 into the box [-g, g] (slabs), or None.
fn box_entry(p0: &Point3<f64>, p1: &Point3<f64>, g: &Vector3<f64>) -> Option<f64> {
    let d = p1 - p0;
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for i in 0..3 {
        if d[i] == 0.0 {
            if p0[i].abs() > g[i] {
                return None;
            }
            continue;
        }
        let (a, b) = ((-g[i] - p0[i]) / d[i], (g[i] - p0[i]) / d[i]);
        t0 = t0.max(a.min(b));
        t1 = t1.min(a.max(b));
    }
    (t0 <= t1).then_some(t0)
}

#[test]
fn cube_casts_stop_at_the_grown_box() {
    for bsp in [SolidBsp::build(&cube(1.0)).unwrap(), SolidBsp::build_beveled(&cube(1.0)).unwrap()] {
        cube_casts(&bsp);
    }
}

fn cube_casts(bsp: &SolidBsp<f64>) {
    let mut rng = Rng(3);
    let tetra = [
        Vector3::new(0.2, 0.0, 0.0),
        Vector3::new(-0.1, 0.3, 0.0),
        Vector3::new(0.0, -0.2, 0.4),
        Vector3::new(0.0, 0.0, -0.25),
    ];
    for _ in 0..2000 {
        let (p0, p1) = (rng.point(4.0), rng.point(4.0));
        let check = |got: Option<cd_mid::BspHit<f64>>, grow: Vector3<f64>| {
            let expect = box_entry(&p0, &p1, &(Vector3::repeat(1.0) + grow));
            match (got, expect) {
                (None, None) => {}
                (Some(h), Some(t)) => assert!((h.t - t).abs() < 1e-9, "{} vs {t}", h.t),
                _ => panic!("{got:?} vs {expect:?} for {p0} → {p1}"),
            }
        };
        check(bsp.cast_point(&p0, &p1), Vector3::zeros());
        check(bsp.cast_sphere(&p0, &p1, 0.3), Vector3::repeat(0.3));
        check(bsp.cast_cylinder(&p0, &p1, 0.2, 0.5), Vector3::new(0.2, 0.2, 0.5));
        // Face normals ±x, ±y, ±z: the hull's support along each.
        let sup = |n: Vector3<f64>| tetra.iter().map(|v| n.dot(v)).fold(0.0f64, f64::max);
        let lo = Vector3::new(sup(-Vector3::x()), sup(-Vector3::y()), sup(-Vector3::z()));
        let hi = Vector3::new(sup(Vector3::x()), sup(Vector3::y()), sup(Vector3::z()));
        // The grown box is [-1 - hi, 1 + lo] per axis (the hull touches the face x = 1 with its
        // −x-most vertex... i.e. reference point at 1 + sup(−n)); shift to a centred box.
        let got = bsp.cast_hull(&p0, &p1, &tetra);
        let shift = (lo - hi) * 0.5;
        let grow = (lo + hi) * 0.5;
        let expect = box_entry(&(p0 - shift), &(p1 - shift), &(Vector3::repeat(1.0) + grow));
        match (got, expect) {
            (None, None) => {}
            (Some(h), Some(t)) => assert!((h.t - t).abs() < 1e-9),
            _ => panic!("hull {got:?} vs {expect:?}"),
        }
    }
    // Starting inside: impact at t = 0 without a normal; the normal of a face hit faces out.
    let h = bsp.cast_point(&Point3::origin(), &Point3::new(5.0, 0.0, 0.0)).unwrap();
    assert_eq!((h.t, h.normal), (0.0, None));
    let h = bsp.cast_point(&Point3::new(5.0, 0.0, 0.0), &Point3::origin()).unwrap();
    assert!((h.t - 0.8).abs() < 1e-12);
    assert!((h.normal.unwrap() - Vector3::x()).norm() < 1e-12);
}

#[test]
fn bunny_point_casts_and_containment_equal_brute_force() {
    let mesh = bunny();
    for bsp in [SolidBsp::build(&mesh).unwrap(), SolidBsp::build_beveled(&mesh).unwrap()] {
        bunny_point_casts(&mesh, &bsp);
    }
}

fn bunny_point_casts(mesh: &TriMesh<f64>, bsp: &SolidBsp<f64>) {
    let model: MeshBvh<f64, Aabb<f64, 3>> = MeshBvh::new(mesh.clone()).unwrap();
    let bb = Aabb::from_points(mesh.vertices()).unwrap();
    let (c, r) = (bb.center(), bb.half_extents().norm());
    let mut ws = QueryWorkspace::new();
    let mut rng = Rng(17);
    let (mut inside, mut hits) = (0, 0);
    for _ in 0..2000 {
        let p = c + rng.point(r).coords;
        // Skip points too close to the surface for either test to be definite.
        if model.closest_point(&p, 1e-6 * r, &mut ws).is_some() {
            continue;
        }
        let ray = Ray::new(p, Vector3::new(0.3, 0.81, -0.5)).unwrap();
        let crossings = model.cast_ray_all(&ray, &mut ws).len();
        assert_eq!(bsp.contains_point(&p), crossings % 2 == 1, "{p}");
        inside += usize::from(crossings % 2 == 1);
    }
    for _ in 0..2000 {
        let (p0, p1) = (c + rng.point(r * 1.5).coords, c + rng.point(r * 1.5).coords);
        if model.closest_point(&p0, 1e-6 * r, &mut ws).is_some() || p0 == p1 {
            continue;
        }
        let got = bsp.cast_point(&p0, &p1);
        let expect = if bsp.contains_point(&p0) {
            Some(0.0)
        } else {
            let ray = Ray::new(p0, p1 - p0).unwrap().with_max_t(1.0).unwrap();
            model.cast_ray(&ray, &mut ws).map(|h| h.t)
        };
        match (got, expect) {
            (None, None) => {}
            (Some(h), Some(t)) => assert!((h.t - t).abs() < 1e-6, "{} vs {t}", h.t),
            _ => panic!("{got:?} vs {expect:?}"),
        }
        hits += usize::from(expect.is_some());
    }
    assert!(inside > 50 && hits > 300, "{inside} inside, {hits} hits");
}

#[test]
fn bunny_sphere_casts_never_stop_late() {
    let mesh = bunny();
    let bsp = SolidBsp::build(&mesh).unwrap();
    let beveled = SolidBsp::build_beveled(&mesh).unwrap();
    let model: MeshBvh<f64, Aabb<f64, 3>> = MeshBvh::new(mesh.clone()).unwrap();
    let bb = Aabb::from_points(mesh.vertices()).unwrap();
    let (c, r) = (bb.center(), bb.half_extents().norm());
    let mut rng = Rng(29);
    let (mut later, mut gap_plain, mut gap_beveled) = (0, 0.0, 0.0);
    let radius = 0.03 * r;
    let mut contacts = 0;
    for _ in 0..300 {
        let (p0, p1) = (c + rng.point(r * 1.5).coords, c + rng.point(r * 1.5).coords);
        // First sampled contact of the sphere with the surface or the solid.
        let touches = |t: f64| {
            let p = p0 + (p1 - p0) * t;
            bsp.contains_point(&p) || model.closest_point(&p, radius, &mut QueryWorkspace::new()).is_some()
        };
        let first = (0..=400).map(|k| k as f64 / 400.0).find(|&t| touches(t));
        let got = bsp.cast_sphere(&p0, &p1, radius);
        let tighter = beveled.cast_sphere(&p0, &p1, radius);
        if let Some(t) = first {
            contacts += 1;
            let h = got.unwrap_or_else(|| panic!("tunnelled: contact at {t}"));
            assert!(h.t <= t + 1e-9, "stopped late: {} after {t}", h.t);
            let hb = tighter.unwrap_or_else(|| panic!("beveled tree tunnelled: contact at {t}"));
            assert!(hb.t <= t + 1e-9, "beveled tree stopped late: {} after {t}", hb.t);
            // Bevels only ever remove early stops.
            assert!(hb.t >= h.t - 1e-12);
            later += usize::from(hb.t > h.t + 1e-9);
            gap_plain += t - h.t;
            gap_beveled += t - hb.t;
        }
    }
    assert!(contacts > 50, "{contacts}");
    println!(
        "bevels moved {later} of {contacts} impacts later; mean early stop {:.4} → {:.4}",
        gap_plain / contacts as f64,
        gap_beveled / contacts as f64
    );
}
