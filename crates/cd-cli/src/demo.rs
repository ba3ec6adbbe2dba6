//! `collide demo`: an embedded scene through the whole `cd` world, with per-stage timings.
//!
//! The scene needs no files: a static dish (a triangle mesh), two static Stanford bunnies in it
//! (the bunny is compiled into the binary), and `bodies` dynamic bodies dropped from a lattice
//! above: spheres, boxes, capsules, random convex hulls and bunny-shaped hulls (the convex hull
//! of the bunny: a dynamic body needs a volume, which a mesh surface has not). Every tenth
//! sphere is thrown down fast with continuous collision on, so the CCD stage has work. The
//! world steps at 60 Hz.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use cd::bv::convex_hull_3d;
use cd::mid::{MeshBvh, TriMesh};
use cd::world::{BodyDesc, BodyHandle, ColliderShape, CollisionGroups, World, WorldConfig};
use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use serde_json::{json, Value};

use crate::image::{render, Camera, Rendered};
use crate::CliError;

/// The Stanford bunny (OBJ), compiled in.
pub const BUNNY_OBJ: &str = include_str!("../assets/bunny.obj");

/// Time step of the demo (60 Hz).
pub const DT: f64 = 1.0 / 60.0;

/// Radius of the dish.
const DISH_RADIUS: f64 = 9.0;

/// What the demo measured.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Broad phase name.
    pub broad_phase: String,
    /// Bodies in the world (static ones included).
    pub bodies: usize,
    /// Dynamic bodies.
    pub dynamic: usize,
    /// Steps run.
    pub steps: usize,
    /// Time per stage, summed over the steps: broad, mid, narrow, ccd, response.
    pub stage_time: [Duration; 5],
    /// Wall time of all the steps.
    pub total_time: Duration,
    /// Pairs the broad phase reported, summed over the steps.
    pub broad_pairs: u64,
    /// Pairs tested after filtering, summed.
    pub tested_pairs: u64,
    /// Triangles and compound parts the mid phase passed on, summed.
    pub mid_candidates: u64,
    /// Narrow-phase manifold queries, summed.
    pub narrow_tests: u64,
    /// Manifolds with at least one point, summed.
    pub manifolds: u64,
    /// Contact points solved, summed.
    pub contact_points: u64,
    /// CCD bodies stopped at an impact, summed.
    pub ccd_impacts: u64,
    /// Contact points at the last step.
    pub final_contact_points: usize,
    /// Dynamic bodies that ended below the dish (should be none).
    pub escaped: usize,
}

/// The stage names, in [`Report::stage_time`] order.
pub const STAGES: [&str; 5] = ["broad", "mid", "narrow", "ccd", "response"];

/// A dish: rings of vertices around the centre, height growing with the square of the radius,
/// and a steep wall around it so that bodies knocked about by the fast spheres stay inside.
fn dish() -> TriMesh<f64> {
    let (rings, sectors) = (14usize, 40usize);
    let mut vertices = vec![Point3::origin()];
    for i in 1..=rings + 1 {
        let (r, y) = if i <= rings {
            let r = DISH_RADIUS * i as f64 / rings as f64;
            (r, 3.0 * (r / DISH_RADIUS).powi(2))
        } else {
            (DISH_RADIUS * 1.02, 4.5)
        };
        for j in 0..sectors {
            let a = std::f64::consts::TAU * j as f64 / sectors as f64;
            vertices.push(Point3::new(r * a.cos(), y, r * a.sin()));
        }
    }
    let at = |i: usize, j: usize| (1 + (i - 1) * sectors + j % sectors) as u32;
    let mut triangles = Vec::new();
    for j in 0..sectors {
        triangles.push([0, at(1, j + 1), at(1, j)]);
    }
    for i in 1..=rings {
        for j in 0..sectors {
            triangles.push([at(i, j), at(i, j + 1), at(i + 1, j + 1)]);
            triangles.push([at(i, j), at(i + 1, j + 1), at(i + 1, j)]);
        }
    }
    TriMesh::new(vertices, triangles).expect("the dish is a valid mesh")
}

/// The bunny scaled so its largest extent is `size`, its lowest point at the origin's height.
fn bunny(size: f64) -> Result<TriMesh<f64>, CliError> {
    let mesh =
        TriMesh::<f64>::from_obj(BUNNY_OBJ).map_err(|e| CliError::Run(format!("embedded bunny: {e}")))?;
    let lo = mesh.vertices().iter().fold(Vector3::repeat(f64::MAX), |m, p| m.inf(&p.coords));
    let hi = mesh.vertices().iter().fold(Vector3::repeat(f64::MIN), |m, p| m.sup(&p.coords));
    let scale = size / (hi - lo).max();
    let centre = (lo + hi) * 0.5;
    mesh.map_vertices(|p| {
        let q = (p.coords - centre) * scale;
        Point3::new(q.x, q.y + (centre.y - lo.y) * scale, q.z)
    })
    .map_err(|e| CliError::Run(format!("scaled bunny: {e}")))
}

/// A deterministic generator (xorshift), so every run builds the same scene.
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn signed(&mut self) -> f64 {
        self.unit() * 2.0 - 1.0
    }
    fn rotation(&mut self) -> UnitQuaternion<f64> {
        UnitQuaternion::from_euler_angles(self.signed() * 3.1, self.signed() * 3.1, self.signed() * 3.1)
    }
}

/// The kinds of dynamic bodies, in the order they cycle.
const KINDS: [&str; 5] = ["sphere", "box", "capsule", "hull", "bunny"];

/// The demo's world and the colour of each body in pictures.
pub struct Scene {
    /// The world.
    pub world: World<f64>,
    /// Body colours for pictures.
    pub colors: HashMap<BodyHandle, [f64; 3]>,
    /// Dynamic bodies.
    pub dynamic: Vec<BodyHandle>,
}

fn color(kind: &str) -> [f64; 3] {
    match kind {
        "dish" => [0.62, 0.64, 0.68],
        "static bunny" => [0.86, 0.78, 0.62],
        "sphere" => [0.86, 0.26, 0.22],
        "box" => [0.22, 0.42, 0.84],
        "capsule" => [0.24, 0.68, 0.32],
        "hull" => [0.93, 0.58, 0.16],
        _ => [0.85, 0.45, 0.7],
    }
}

/// Builds the scene with `bodies` dynamic bodies and the named broad phase.
pub fn build(bodies: usize, broad: &str) -> Result<Scene, CliError> {
    let broad_phase = crate::strategy::by_name(broad).map_err(CliError::Input)?;
    let world_err = |e: cd::world::WorldError| CliError::Run(format!("world: {e}"));
    let mut world = World::new(WorldConfig::default(), broad_phase).map_err(world_err)?;
    let mut colors = HashMap::new();
    let mesh_shape = |m: TriMesh<f64>| -> Result<ColliderShape<f64>, CliError> {
        Ok(ColliderShape::triangle_mesh(
            MeshBvh::new(m).map_err(|e| CliError::Run(format!("mesh hierarchy: {e}")))?,
        ))
    };
    let dish_body = world.add(BodyDesc::fixed(mesh_shape(dish())?)).map_err(world_err)?;
    colors.insert(dish_body, color("dish"));
    let big_bunny = bunny(2.6)?;
    for (x, z, turn) in [(-3.2, -1.5, 0.6), (3.0, 2.2, 2.4)] {
        let y: f64 = 3.0 * (x * x + z * z) / (DISH_RADIUS * DISH_RADIUS) - 0.15;
        let pose = Isometry3::from_parts(
            Translation3::new(x, y, z),
            UnitQuaternion::from_euler_angles(0.0, turn, 0.0),
        );
        let h =
            world.add(BodyDesc::fixed(mesh_shape(big_bunny.clone())?).with_pose(pose)).map_err(world_err)?;
        colors.insert(h, color("static bunny"));
    }
    let mut rng = Rng(0x5eed_cafe_f00d);
    let random_hull: Vec<Point3<f64>> = (0..12)
        .map(|_| Point3::from(Vector3::new(rng.signed(), rng.signed(), rng.signed()).normalize() * 0.32))
        .collect();
    let hull = convex_hull_3d(&random_hull).map_err(|e| CliError::Run(format!("hull: {e}")))?;
    let bunny_hull =
        convex_hull_3d(bunny(0.8)?.vertices()).map_err(|e| CliError::Run(format!("bunny hull: {e}")))?;
    let side = (bodies as f64).cbrt().ceil().max(1.0) as usize;
    let spacing = 0.95;
    let mut dynamic = Vec::with_capacity(bodies);
    for k in 0..bodies {
        let (i, j, l) = (k % side, (k / side) % side, k / (side * side));
        let offset = (side as f64 - 1.0) * 0.5;
        let at = Vector3::new(
            (i as f64 - offset) * spacing,
            5.0 + l as f64 * spacing,
            (j as f64 - offset) * spacing,
        );
        let kind = KINDS[k % KINDS.len()];
        let shape = match kind {
            "sphere" => ColliderShape::ball(0.3),
            "box" => ColliderShape::cuboid(0.3, 0.2, 0.25),
            "capsule" => ColliderShape::capsule(0.2, 0.16),
            "hull" => ColliderShape::convex_hull(hull.clone()),
            _ => ColliderShape::convex_hull(bunny_hull.clone()),
        };
        let mut desc = BodyDesc::dynamic(shape)
            .with_pose(Isometry3::from_parts(Translation3::from(at), rng.rotation()))
            .with_user_data(k as u64);
        // Every tenth sphere is thrown down fast: continuous collision keeps it in the dish.
        if kind == "sphere" && k % 10 == 0 {
            desc = desc.with_velocity(Vector3::new(0.0, -60.0, 0.0), Vector3::zeros()).with_ccd(true);
        }
        let h = world.add(desc).map_err(world_err)?;
        colors.insert(h, color(kind));
        dynamic.push(h);
    }
    Ok(Scene { world, colors, dynamic })
}

/// Runs `steps` steps and sums what every step measured.
pub fn run(scene: &mut Scene, steps: usize, broad: &str) -> Result<Report, CliError> {
    let mut r = Report {
        broad_phase: broad.to_string(),
        bodies: scene.world.len(),
        dynamic: scene.dynamic.len(),
        steps,
        ..Report::default()
    };
    let bar = crate::progress::bar(steps as u64, "simulating");
    let start = Instant::now();
    for _ in 0..steps {
        let s = scene.world.step(DT).map_err(|e| CliError::Run(format!("step: {e}")))?;
        for (slot, t) in r.stage_time.iter_mut().zip([
            s.broad_time,
            s.mid_time,
            s.narrow_time,
            s.ccd_time,
            s.response_time,
        ]) {
            *slot += t;
        }
        r.broad_pairs += s.broad_pairs as u64;
        r.tested_pairs += s.tested_pairs as u64;
        r.mid_candidates += s.work.mid_candidates as u64;
        r.narrow_tests += s.work.narrow_tests as u64;
        r.manifolds += s.manifolds as u64;
        r.contact_points += s.contact_points as u64;
        r.ccd_impacts += s.ccd_impacts as u64;
        r.final_contact_points = s.contact_points;
        bar.inc(1);
    }
    r.total_time = start.elapsed();
    bar.finish_and_clear();
    r.escaped = scene
        .dynamic
        .iter()
        .filter(|h| scene.world.body(**h).is_some_and(|b| b.pose().translation.vector.y < -1.0))
        .count();
    Ok(r)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

impl Report {
    /// Steps per second of wall time.
    pub fn steps_per_second(&self) -> f64 {
        let s = self.total_time.as_secs_f64();
        if s > 0.0 {
            self.steps as f64 / s
        } else {
            0.0
        }
    }

    /// The report as JSON: `scene`, `time_ms` per stage and in total, `pairs` per stage and
    /// `contacts` (sums over all steps), `steps_per_second`, `escaped`.
    pub fn to_json(&self) -> Value {
        let mut time = serde_json::Map::new();
        for (name, t) in STAGES.iter().zip(self.stage_time) {
            time.insert((*name).into(), json!(ms(t)));
        }
        time.insert("total".into(), json!(ms(self.total_time)));
        json!({
            "scene": {
                "bodies": self.bodies,
                "dynamic": self.dynamic,
                "steps": self.steps,
                "dt": DT,
                "broad_phase": self.broad_phase,
            },
            "time_ms": time,
            "pairs": {
                "broad": self.broad_pairs,
                "tested": self.tested_pairs,
                "mid_candidates": self.mid_candidates,
                "narrow_tests": self.narrow_tests,
            },
            "contacts": {
                "manifolds": self.manifolds,
                "points": self.contact_points,
                "ccd_impacts": self.ccd_impacts,
                "final_points": self.final_contact_points,
            },
            "steps_per_second": self.steps_per_second(),
            "escaped": self.escaped,
        })
    }

    /// The report as a table.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let steps = self.steps.max(1) as f64;
        let _ = writeln!(
            s,
            "{} bodies ({} dynamic), {} steps of {:.4} s, broad phase: {}\n",
            self.bodies, self.dynamic, self.steps, DT, self.broad_phase
        );
        let staged: Duration = self.stage_time.iter().sum();
        let _ = writeln!(s, "stage      total ms   per step ms   share");
        for (name, t) in STAGES.iter().zip(self.stage_time) {
            let share = if staged.is_zero() { 0.0 } else { t.as_secs_f64() / staged.as_secs_f64() * 100.0 };
            let _ = writeln!(s, "{name:<10} {:>8.2}   {:>11.3}   {share:>4.1} %", ms(t), ms(t) / steps);
        }
        let _ =
            writeln!(s, "{:<10} {:>8.2}   {:>11.3}", "all", ms(self.total_time), ms(self.total_time) / steps);
        let _ = writeln!(s, "\nwork                 total   per step");
        for (name, n) in [
            ("broad-phase pairs", self.broad_pairs),
            ("pairs tested", self.tested_pairs),
            ("mid candidates", self.mid_candidates),
            ("narrow tests", self.narrow_tests),
            ("manifolds", self.manifolds),
            ("contact points", self.contact_points),
            ("ccd impacts", self.ccd_impacts),
        ] {
            let _ = writeln!(s, "{name:<18} {n:>9}   {:>8.1}", n as f64 / steps);
        }
        let _ = writeln!(
            s,
            "\n{:.1} steps per second; {} contact points at the last step; {} bodies escaped the dish",
            self.steps_per_second(),
            self.final_contact_points,
            self.escaped
        );
        s
    }
}

/// A picture of the scene's current state, through the world's ray query.
pub fn picture(scene: &Scene, width: u32, height: u32) -> Rendered {
    let camera = Camera::look_at(Point3::new(8.0, 19.0, 13.0), Point3::new(0.0, 0.8, 0.0), 48.0)
        .expect("the demo camera is away from its target");
    let groups = CollisionGroups::default();
    render(&camera, width, height, |ray| {
        let hit = scene.world.cast_ray(ray, &groups)?;
        let c = scene.colors.get(&hit.body).copied().unwrap_or([0.7, 0.7, 0.7]);
        Some((hit.normal, c))
    })
}

/// Builds, runs and optionally pictures the demo.
pub fn demo(bodies: usize, steps: usize, broad: &str, out: Option<&Path>) -> Result<Report, CliError> {
    let mut scene = build(bodies, broad)?;
    let report = run(&mut scene, steps, broad)?;
    if let Some(path) = out {
        picture(&scene, 640, 480).image.write_png(path)?;
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_demo_keeps_its_bodies_and_reports_every_stage() {
        let r = demo(10, 40, "grid", None).unwrap();
        assert_eq!((r.bodies, r.dynamic, r.steps), (13, 10, 40));
        assert_eq!(r.escaped, 0);
        assert!(r.tested_pairs > 0 && r.contact_points > 0, "{r:?}");
        let j = r.to_json();
        assert_eq!(j["scene"]["broad_phase"], "grid");
        assert!(j["time_ms"]["ccd"].is_number());
        assert!(r.to_text().contains("response"));
    }
}
