//! The mesh shape cast against brute force: the same time of impact as casting against every
//! triangle of the bunny, for balls, capsules, boxes and hulls thrown at it from all sides.

use cd::ccd::{shape_cast, CastConfig, LinearMotion, ToiStatus};
use cd::geom::{Aabb, Obb, Segment, SupportMap};
use cd::mesh_cast::cast_shape_mesh;
use cd::mid::{MeshBvh, QueryWorkspace, TriMesh};
use nalgebra::{Matrix3, Point3, Rotation3, Vector3};

struct Rng(u64);
impl Rng {
    fn f(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn v(&mut self, s: f64) -> Vector3<f64> {
        Vector3::new(self.f() - 0.5, self.f() - 0.5, self.f() - 0.5) * (2.0 * s)
    }
}

fn bunny() -> MeshBvh<f64, Aabb<f64, 3>> {
    let mesh = TriMesh::from_obj(include_str!("../../cd-mid/tests/data/bunny.obj")).unwrap();
    MeshBvh::new(mesh).unwrap()
}

/// A random convex core around `c` with its radius.
fn core(rng: &mut Rng, c: Point3<f64>, size: f64) -> (Box<dyn SupportMap<f64, 3>>, f64) {
    match (rng.f() * 4.0) as usize {
        0 => (Box::new(c), size),
        1 => (Box::new(Segment::new(c - rng.v(size), c + rng.v(size)).unwrap()), size * 0.3),
        2 => {
            let axes = Rotation3::new(rng.v(3.0)).into_inner();
            (Box::new(Obb::new(c, axes, rng.v(size).abs().add_scalar(size * 0.1)).unwrap()), 0.0)
        }
        _ => {
            let pts: Vec<Point3<f64>> = (0..10).map(|_| c + rng.v(size)).collect();
            (Box::new(cd::bv::convex_hull_3d(&pts).unwrap()), 0.0)
        }
    }
}

#[test]
fn mesh_cast_equals_casting_against_every_triangle() {
    let mesh = bunny();
    let bounds = *mesh.bvh().root_volume();
    let (center, extent) = (bounds.center(), bounds.half_extents().norm());
    let scale = extent * 0.05;
    let config = CastConfig::default();
    let mut rng = Rng(3);
    let mut hits = 0;
    for case in 0..300 {
        // From a point around the bunny towards a point near its centre.
        let start = center + rng.v(1.0).normalize() * extent * 1.5;
        let target = center + rng.v(extent * 0.5);
        let (shape, radius) = core(&mut rng, start, scale);
        let motion = LinearMotion::new(target - start, rng.v(scale), 1.0).unwrap();
        let fast =
            cast_shape_mesh(shape.as_ref(), radius, &mesh, &motion, &config, &mut QueryWorkspace::new());
        let mut brute: Option<f64> = None;
        for i in 0..mesh.mesh().len() {
            if let Some(t) =
                shape_cast(shape.as_ref(), radius, &mesh.mesh().triangle(i), 0.0, &motion, &config)
            {
                brute = Some(brute.map_or(t.time, |b| b.min(t.time)));
            }
        }
        match (fast, brute) {
            (Some(f), Some(b)) => {
                hits += 1;
                // Equal up to the cast's tolerance (the tree casts later triangles with a shorter limit).
                assert!((f.toi.time - b).abs() <= 1e-7, "case {case}: tree {} brute {b}", f.toi.time);
                assert_eq!(f.toi.status, ToiStatus::Converged);
                // The reported triangle really is hit at that time.
                let own = shape_cast(
                    shape.as_ref(),
                    radius,
                    &mesh.mesh().triangle(f.triangle as usize),
                    0.0,
                    &motion,
                    &config,
                );
                assert!((own.unwrap().time - f.toi.time).abs() <= 1e-7);
            }
            (None, None) => {}
            (f, b) => panic!("case {case}: tree {f:?} brute {b:?}"),
        }
    }
    assert!(hits > 150, "{hits}");
}

#[test]
fn fast_small_sphere_does_not_tunnel_through_the_mesh_and_misses_are_misses() {
    let mesh = bunny();
    let bounds = *mesh.bvh().root_volume();
    let c = bounds.center();
    let extent = bounds.half_extents().norm();
    // A tiny ball crossing the whole bunny (and far beyond) within one step: it must stop at
    // the first surface.
    let start = c - Vector3::new(extent * 3.0, 0.0, 0.0);
    let motion = LinearMotion::of_a(Vector3::new(extent * 1000.0, 0.0, 0.0), 1.0).unwrap();
    let hit = cast_shape_mesh(
        &start,
        extent * 1e-4,
        &mesh,
        &motion,
        &CastConfig::default(),
        &mut QueryWorkspace::new(),
    )
    .unwrap();
    let at = start + motion.velocity_a() * hit.toi.time;
    assert!(at.x < c.x, "stopped at {at:?}, past the centre {c:?}");
    assert!(hit.toi.normal.x > 0.0);
    // Moving away: nothing.
    let away = LinearMotion::of_a(Vector3::new(-extent, 0.0, 0.0), 1.0).unwrap();
    assert!(cast_shape_mesh(
        &start,
        extent * 1e-4,
        &mesh,
        &away,
        &CastConfig::default(),
        &mut QueryWorkspace::new()
    )
    .is_none());
    // A box resting inside the bunny's bounds but away from every triangle is not in contact,
    // and an empty step (max_time 0) reports only contacts at time 0.
    let cube = Obb::new(
        Point3::new(c.x, c.y + extent * 5.0, c.z),
        Matrix3::identity(),
        Vector3::repeat(extent * 0.01),
    )
    .unwrap();
    let still = LinearMotion::of_a(Vector3::zeros(), 0.0).unwrap();
    assert!(cast_shape_mesh(&cube, 0.0, &mesh, &still, &CastConfig::default(), &mut QueryWorkspace::new())
        .is_none());
}
