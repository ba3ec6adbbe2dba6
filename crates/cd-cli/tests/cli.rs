//! Runs the `collide` binary: every subcommand on good and bad input, the JSON contracts
//! parsed back, `query` answers checked against the library (and brute force for meshes and
//! sampling for times of impact) on random cases, `pairs` against brute force for every
//! broad phase.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use cd::bv::{convex_hull_3d, kdop_from_points, minimal_ball};
use cd::geom::{
    kdop_directions, ray_ball, ray_capsule, ray_convex_polyhedron, ray_cylinder, ray_obb, ray_triangle, Ball,
    Capsule, ConvexPolyhedron, Cylinder, Kdop, Obb, Ray, Triangle,
};
use cd::mid::TriMesh;
use cd::narrow::{distance, intersects, PairCache, Shape};
use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use serde_json::{json, Value};

const BROAD_PHASES: [&str; 9] =
    ["brute", "sap", "sort-sweep", "grid", "hash", "hgrid", "octree", "tree", "coherent-grid"];

fn collide(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_collide"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("collide starts");
    {
        let mut input = child.stdin.take().expect("stdin");
        if let Some(text) = stdin {
            // A command that fails on its arguments exits before reading: a broken pipe here
            // is that, and the exit status below is what the test looks at.
            if let Err(e) = input.write_all(text.as_bytes()) {
                assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "writing stdin: {e}");
            }
        }
    }
    child.wait_with_output().expect("collide finishes")
}

fn stdout_json(out: &Output) -> Value {
    assert!(out.status.success(), "collide failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON document")
}

fn fails_with(out: &Output, code: i32, message: &str) {
    assert_eq!(out.status.code(), Some(code), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(message), "stderr {err:?} does not mention {message:?}");
    assert!(out.stdout.is_empty(), "nothing on stdout after an error");
}

fn asset(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("collide-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A deterministic generator for the random cases.
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
    fn vec(&mut self, s: f64) -> Vector3<f64> {
        Vector3::new(self.range(-s, s), self.range(-s, s), self.range(-s, s))
    }
    fn rotation(&mut self) -> UnitQuaternion<f64> {
        UnitQuaternion::from_scaled_axis(self.vec(3.0))
    }
}

fn v3(v: &Vector3<f64>) -> Value {
    json!([v.x, v.y, v.z])
}

fn pose_json(p: &Isometry3<f64>) -> Value {
    let q = p.rotation.quaternion();
    json!({"translation": v3(&p.translation.vector), "rotation": [q.w, q.i, q.j, q.k]})
}

fn as_vec(v: &Value) -> Vector3<f64> {
    let a = v.as_array().expect("a vector is an array");
    assert_eq!(a.len(), 3);
    Vector3::new(a[0].as_f64().unwrap(), a[1].as_f64().unwrap(), a[2].as_f64().unwrap())
}

// ---------------------------------------------------------------- help and bad arguments

#[test]
fn every_subcommand_has_help_and_bad_arguments_fail_cleanly() {
    for sub in ["demo", "render", "bounds", "query", "pairs"] {
        let out = collide(&[sub, "--help"], None);
        assert!(out.status.success(), "{sub} --help");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("Usage: collide"), "{sub}: {text}");
    }
    let out = collide(&["--help"], None);
    assert!(String::from_utf8_lossy(&out.stdout).contains("pairs"));
    let out = collide(&["frobnicate"], None);
    assert_eq!(out.status.code(), Some(2));
    let out = collide(&["demo", "--broad", "kd-tree"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("sort-sweep"), "the valid names are listed");
    fails_with(&collide(&["bounds", "/no/such/mesh.obj"], None), 2, "cannot read /no/such/mesh.obj");
    fails_with(&collide(&["pairs", "--broad", "grid", "/no/such/frames.json"], None), 2, "cannot read");
}

// ---------------------------------------------------------------- demo

#[test]
fn demo_reports_every_stage_as_a_table_json_and_a_picture() {
    let dir = scratch_dir("demo");
    let png = dir.join("demo.png");
    let out = collide(
        &[
            "demo",
            "--bodies",
            "25",
            "--steps",
            "40",
            "--broad",
            "sap",
            "--json",
            "--out",
            png.to_str().unwrap(),
        ],
        None,
    );
    let report = stdout_json(&out);
    assert_eq!(report["scene"]["bodies"], 28);
    assert_eq!(report["scene"]["dynamic"], 25);
    assert_eq!(report["scene"]["steps"], 40);
    assert_eq!(report["scene"]["broad_phase"], "sap");
    for stage in ["broad", "mid", "narrow", "ccd", "response", "total"] {
        assert!(report["time_ms"][stage].as_f64().is_some_and(|t| t >= 0.0), "{stage}");
    }
    for count in ["broad", "tested", "mid_candidates", "narrow_tests"] {
        assert!(report["pairs"][count].as_u64().is_some(), "{count}");
    }
    assert!(report["pairs"]["tested"].as_u64().unwrap() > 0);
    assert!(report["contacts"]["points"].as_u64().unwrap() > 0);
    assert!(report["steps_per_second"].as_f64().unwrap() > 0.0);
    assert_eq!(report["escaped"], 0, "nothing falls through the dish");
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let info = decoder.read_info().unwrap();
    assert_eq!((info.info().width, info.info().height), (640, 480));

    let text = collide(&["demo", "--bodies", "10", "--steps", "5", "--broad", "hgrid"], None);
    assert!(text.status.success());
    let table = String::from_utf8_lossy(&text.stdout);
    for word in ["broad", "mid", "narrow", "ccd", "response", "steps per second", "hgrid"] {
        assert!(table.contains(word), "{word} missing from {table}");
    }
    std::fs::remove_dir_all(dir).ok();
}

// ---------------------------------------------------------------- render

#[test]
fn render_writes_a_picture_of_a_mesh_and_reports_rays_per_second() {
    let dir = scratch_dir("render");
    let png = dir.join("bunny.png");
    let bunny = asset("assets/bunny.obj");
    let out = collide(
        &[
            "render",
            bunny.to_str().unwrap(),
            "--out",
            png.to_str().unwrap(),
            "--width",
            "64",
            "--height",
            "48",
            "--view",
            "0,0,1",
        ],
        None,
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("rays per second"));
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    reader.next_frame(&mut pixels).unwrap();
    // The centre pixel shows the bunny (not the sky's blue-grey).
    let centre = &pixels[(24 * 64 + 32) * 3..][..3];
    assert!(centre[2] < 200 || centre[0] > 210, "centre pixel {centre:?}");
    fails_with(
        &collide(&["render", bunny.to_str().unwrap(), "--out", "x.png", "--view", "0,0"], None),
        2,
        "--view",
    );
    fails_with(
        &collide(
            &[
                "render",
                bunny.to_str().unwrap(),
                "--out",
                "/no/such/dir/x.png",
                "--width",
                "4",
                "--height",
                "4",
            ],
            None,
        ),
        1,
        "cannot write",
    );
    std::fs::remove_dir_all(dir).ok();
}

// ---------------------------------------------------------------- bounds

/// Every key of the contract, recursively: exactly these, nothing more.
fn assert_bounds_contract(b: &Value) {
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<BTreeSet<_>>();
    let set = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
    assert_eq!(keys(b), set(&["vertices", "triangles", "aabb", "spheres", "obbs", "kdops", "hull"]));
    assert_eq!(keys(&b["aabb"]), set(&["min", "max"]));
    assert_eq!(keys(&b["spheres"]), set(&["aabb", "ritter", "epos", "welzl"]));
    for s in b["spheres"].as_object().unwrap().values() {
        assert_eq!(keys(s), set(&["center", "radius"]));
    }
    assert_eq!(keys(&b["obbs"]), set(&["pca", "pca_hull", "dito14", "dito26", "tight"]));
    for o in b["obbs"].as_object().unwrap().values() {
        assert_eq!(keys(o), set(&["center", "axes", "half_extents", "volume", "area"]));
        assert_eq!(o["axes"].as_array().unwrap().len(), 3);
    }
    assert_eq!(keys(&b["kdops"]), set(&["14", "18", "26"]));
    for (k, d) in b["kdops"].as_object().unwrap() {
        assert_eq!(keys(d), set(&["min", "max"]));
        let n = k.parse::<usize>().unwrap() / 2;
        assert_eq!((d["min"].as_array().unwrap().len(), d["max"].as_array().unwrap().len()), (n, n));
    }
    assert_eq!(keys(&b["hull"]), set(&["vertices", "faces", "volume", "area"]));
}

fn kdop_check<const N: usize>(points: &[Point3<f64>], json: &Value) {
    let k: Kdop<f64, 3, N> = kdop_from_points(points).unwrap();
    let dirs = kdop_directions::<f64, 3, N>().unwrap();
    for i in 0..N {
        // The library's slabs, and the projections' extremes computed here.
        let (lo, hi) = points
            .iter()
            .map(|p| dirs[i].dot(&p.coords))
            .fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
        assert_eq!(json["min"][i].as_f64().unwrap(), k.min()[i]);
        assert_eq!(json["max"][i].as_f64().unwrap(), k.max()[i]);
        assert!((lo - k.min()[i]).abs() < 1e-9 && (hi - k.max()[i]).abs() < 1e-9);
    }
}

fn check_bounds(mesh_path: &Path) {
    let out = collide(&["bounds", mesh_path.to_str().unwrap(), "--json"], None);
    let b = stdout_json(&out);
    assert_bounds_contract(&b);
    let mesh = TriMesh::<f64>::from_obj(&std::fs::read_to_string(mesh_path).unwrap()).unwrap();
    let points = mesh.vertices();
    let distinct: BTreeSet<[u64; 3]> =
        points.iter().map(|p| [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]).collect();
    assert_eq!(b["vertices"].as_u64().unwrap() as usize, distinct.len());
    assert_eq!(b["triangles"].as_u64().unwrap() as usize, mesh.len());
    let scale = points.iter().map(|p| p.coords.amax()).fold(0.0, f64::max);
    let tol = 1e-9 * scale;
    // Every volume holds every vertex.
    let (lo, hi) = (as_vec(&b["aabb"]["min"]), as_vec(&b["aabb"]["max"]));
    for s in b["spheres"].as_object().unwrap().values() {
        let (c, r) = (as_vec(&s["center"]), s["radius"].as_f64().unwrap());
        assert!(points.iter().all(|p| (p.coords - c).norm() <= r + tol));
    }
    for (name, o) in b["obbs"].as_object().unwrap() {
        let c = as_vec(&o["center"]);
        let axes: Vec<Vector3<f64>> = o["axes"].as_array().unwrap().iter().map(as_vec).collect();
        let h = as_vec(&o["half_extents"]);
        for i in 0..3 {
            assert!((axes[i].norm() - 1.0).abs() < 1e-9, "{name}: unit axes");
            assert!(axes[i].dot(&axes[(i + 1) % 3]).abs() < 1e-9, "{name}: orthogonal axes");
        }
        assert!(
            (o["volume"].as_f64().unwrap() - 8.0 * h.x * h.y * h.z).abs()
                <= 1e-9 * o["volume"].as_f64().unwrap()
        );
        for p in points {
            let d = p.coords - c;
            assert!((0..3).all(|i| d.dot(&axes[i]).abs() <= h[i] + tol), "{name} misses a vertex");
        }
        let tight = b["obbs"]["tight"]["volume"].as_f64().unwrap();
        assert!(o["volume"].as_f64().unwrap() >= tight * (1.0 - 1e-9), "{name} beats the reference");
    }
    for p in points {
        assert!((0..3).all(|i| p[i] >= lo[i] && p[i] <= hi[i]));
    }
    // The exact sphere and the hull agree with the library.
    let welzl = minimal_ball(points).unwrap();
    assert_eq!(b["spheres"]["welzl"]["radius"].as_f64().unwrap(), welzl.radius());
    for s in b["spheres"].as_object().unwrap().values() {
        assert!(s["radius"].as_f64().unwrap() >= welzl.radius() * (1.0 - 1e-12));
    }
    let hull = convex_hull_3d(points).unwrap();
    assert_eq!(b["hull"]["vertices"].as_u64().unwrap() as usize, hull.vertices().len());
    assert_eq!(b["hull"]["faces"].as_u64().unwrap() as usize, hull.faces().len());
    assert!((b["hull"]["volume"].as_f64().unwrap() - hull.volume()).abs() <= 1e-12 * hull.volume());
    kdop_check::<7>(points, &b["kdops"]["14"]);
    kdop_check::<9>(points, &b["kdops"]["18"]);
    kdop_check::<13>(points, &b["kdops"]["26"]);

    let text = collide(&["bounds", mesh_path.to_str().unwrap()], None);
    assert!(text.status.success());
    assert!(String::from_utf8_lossy(&text.stdout).contains("welzl"));
}

#[test]
fn bounds_json_follows_the_contract_and_holds_every_vertex() {
    check_bounds(&asset("assets/bunny.obj"));
    // FCL's variant (first line "N M", a triangle soup with repeated vertices).
    check_bounds(&asset("../cd-mid/tests/data/fcl_rob.obj"));
}

#[test]
fn bounds_reads_stl_and_ply_and_rejects_broken_files() {
    let dir = scratch_dir("bounds");
    // A tetrahedron in all three formats gives the same answer.
    let p = [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 3.0, 0.0], [0.0, 0.0, 4.0]];
    let faces = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
    let mut obj = String::new();
    for v in p {
        obj += &format!("v {} {} {}\n", v[0], v[1], v[2]);
    }
    for f in faces {
        obj += &format!("f {} {} {}\n", f[0] + 1, f[1] + 1, f[2] + 1);
    }
    let mut stl = String::from("solid t\n");
    for f in faces {
        stl += "facet normal 0 0 0\nouter loop\n";
        for i in f {
            stl += &format!("vertex {} {} {}\n", p[i][0], p[i][1], p[i][2]);
        }
        stl += "endloop\nendfacet\n";
    }
    let mut ply = String::from("ply\nformat ascii 1.0\nelement vertex 4\nproperty double x\nproperty double y\nproperty double z\nelement face 4\nproperty list uchar int vertex_indices\nend_header\n");
    for v in p {
        ply += &format!("{} {} {}\n", v[0], v[1], v[2]);
    }
    for f in faces {
        ply += &format!("3 {} {} {}\n", f[0], f[1], f[2]);
    }
    let mut answers = Vec::new();
    for (name, text) in [("t.obj", obj), ("t.stl", stl), ("t.ply", ply)] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let b = stdout_json(&collide(&["bounds", path.to_str().unwrap(), "--json"], None));
        assert_bounds_contract(&b);
        assert_eq!((b["vertices"].as_u64(), b["triangles"].as_u64()), (Some(4), Some(4)), "{name}");
        assert!((b["hull"]["volume"].as_f64().unwrap() - 4.0).abs() < 1e-12, "{name}");
        answers.push(b);
    }
    // STL lists the vertices in another order, so order-dependent methods (Ritter, the
    // reference OBB's tie-breaks) may differ; everything order-free is identical.
    for b in &answers[1..] {
        for key in ["aabb", "kdops", "hull"] {
            assert_eq!(b[key], answers[0][key], "{key}");
        }
        assert_eq!(b["spheres"]["welzl"]["radius"], answers[0]["spheres"]["welzl"]["radius"]);
        close(
            b["obbs"]["tight"]["volume"].as_f64().unwrap(),
            answers[0]["obbs"]["tight"]["volume"].as_f64().unwrap(),
            "tight volume",
        );
    }
    let broken = dir.join("broken.obj");
    std::fs::write(&broken, "v 0 0 0\nf 1 2 3\n").unwrap();
    fails_with(&collide(&["bounds", broken.to_str().unwrap()], None), 2, "line 2");
    std::fs::remove_dir_all(dir).ok();
}

// ---------------------------------------------------------------- query

/// A random convex shape: its JSON and its world-space form at a pose, built here
/// independently of the binary.
enum Built {
    Ball(Ball<f64, 3>),
    Box(Obb<f64, 3>),
    Capsule(Capsule<f64, 3>),
    Cylinder(Cylinder<f64>),
    Hull(ConvexPolyhedron<f64>, Isometry3<f64>),
    Triangle(Triangle<f64, 3>),
}

impl Built {
    fn shape(&self) -> Shape<'_, f64> {
        match self {
            Built::Ball(b) => Shape::Ball(b),
            Built::Box(b) => Shape::Box(b),
            Built::Capsule(c) => Shape::Capsule(c),
            Built::Cylinder(c) => Shape::Cylinder(c),
            Built::Hull(h, p) => Shape::Hull(h, p),
            Built::Triangle(t) => Shape::Triangle(t),
        }
    }

    fn ray(&self, ray: &Ray<f64, 3>) -> Option<f64> {
        match self {
            Built::Ball(b) => ray_ball(ray, b).map(|h| h.t),
            Built::Box(b) => ray_obb(ray, b).map(|h| h.t),
            Built::Capsule(c) => ray_capsule(ray, c).map(|h| h.t),
            Built::Cylinder(c) => ray_cylinder(ray, c).map(|h| h.t),
            Built::Hull(h, p) => {
                let local =
                    Ray::new(p.inverse_transform_point(ray.origin()), p.inverse_transform_vector(ray.dir()))
                        .unwrap();
                ray_convex_polyhedron(&local, h).map(|h| h.t)
            }
            Built::Triangle(t) => ray_triangle(ray, t).map(|h| h.t),
        }
    }
}

fn random_shape(rng: &mut Rng, pose: &Isometry3<f64>, allow_triangle: bool) -> (Value, Built) {
    let kinds = if allow_triangle { 6 } else { 5 };
    let z = |h: f64| pose * Point3::new(0.0, 0.0, h);
    match (rng.unit() * kinds as f64) as usize {
        0 => {
            let r = rng.range(0.2, 1.5);
            (
                json!({"type": "sphere", "radius": r}),
                Built::Ball(Ball::new(pose * Point3::origin(), r).unwrap()),
            )
        }
        1 => {
            let h = Vector3::new(rng.range(0.2, 1.5), rng.range(0.2, 1.5), rng.range(0.2, 1.5));
            let obb = Obb::from_rotation(pose * Point3::origin(), pose.rotation, h).unwrap();
            (json!({"type": "cuboid", "half_extents": v3(&h)}), Built::Box(obb))
        }
        2 => {
            let (h, r) = (rng.range(0.1, 1.2), rng.range(0.2, 0.8));
            let c = Capsule::new(z(-h), z(h), r).unwrap();
            (json!({"type": "capsule", "half_height": h, "radius": r}), Built::Capsule(c))
        }
        3 => {
            let (h, r) = (rng.range(0.2, 1.2), rng.range(0.2, 0.8));
            let c = Cylinder::new(z(-h), z(h), r).unwrap();
            (json!({"type": "cylinder", "half_height": h, "radius": r}), Built::Cylinder(c))
        }
        4 => {
            let points: Vec<Point3<f64>> = (0..10).map(|_| Point3::from(rng.vec(1.0))).collect();
            let hull = convex_hull_3d(&points).unwrap();
            let json_points: Vec<Value> = points.iter().map(|p| v3(&p.coords)).collect();
            (json!({"type": "convex", "points": json_points}), Built::Hull(hull, *pose))
        }
        _ => {
            let v: Vec<Vector3<f64>> = (0..3).map(|_| rng.vec(1.5)).collect();
            let t = Triangle::new(
                pose * Point3::from(v[0]),
                pose * Point3::from(v[1]),
                pose * Point3::from(v[2]),
            )
            .unwrap();
            (json!({"type": "triangle", "vertices": [v3(&v[0]), v3(&v[1]), v3(&v[2])]}), Built::Triangle(t))
        }
    }
}

fn random_pose(rng: &mut Rng, spread: f64) -> Isometry3<f64> {
    Isometry3::from_parts(Translation3::from(rng.vec(spread)), rng.rotation())
}

fn close(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs())), "{what}: {a} vs {b}");
}

/// What one query's result must satisfy.
type Check = Box<dyn Fn(&Value)>;

#[test]
fn query_answers_equal_the_library_on_random_convex_pairs_and_rays() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut queries = Vec::new();
    let mut expected: Vec<Check> = Vec::new();
    for k in 0..160 {
        let (pa, pb) = (random_pose(&mut rng, 1.5), random_pose(&mut rng, 1.5));
        let (ja, a) = random_shape(&mut rng, &pa, true);
        let (jb, b) = random_shape(&mut rng, &pb, true);
        let kind = ["intersects", "distance", "contact"][k % 3];
        queries.push(json!({"id": k, "query": kind, "a": ja, "pose_a": pose_json(&pa), "b": jb, "pose_b": pose_json(&pb)}));
        let hit = intersects(a.shape(), b.shape(), &mut PairCache::default()).unwrap();
        let c = distance(a.shape(), b.shape(), &mut PairCache::default()).unwrap();
        expected.push(Box::new(move |r: &Value| match kind {
            "intersects" => assert_eq!(r["intersects"], hit, "query {k}"),
            "distance" => {
                close(r["distance"].as_f64().unwrap(), c.distance.max(0.0), "distance");
                if c.distance > 0.0 {
                    close((as_vec(&r["point_b"]) - as_vec(&r["point_a"])).norm(), c.distance, "witness gap");
                }
            }
            _ => {
                assert_eq!(r["intersects"], c.distance <= 0.0, "query {k}");
                close(r["distance"].as_f64().unwrap(), c.distance, "signed distance");
                close(r["depth"].as_f64().unwrap(), (-c.distance).max(0.0), "depth");
                // The binary re-normalises each quaternion it reads, so its poses can differ from
                // these in the last bit; EPA's normal is only as stable as its tolerance.
                let dn = (as_vec(&r["normal"]) - c.normal).norm();
                assert!(dn < 1e-4, "query {k}: normal differs by {dn}");
            }
        }));
    }
    for k in 160..260 {
        let pose = random_pose(&mut rng, 1.0);
        let (js, s) = random_shape(&mut rng, &pose, true);
        let origin = rng.vec(4.0);
        // Aim near the shape so most rays hit.
        let direction = (pose.translation.vector + rng.vec(0.8) - origin) * rng.range(0.5, 2.0);
        let ray = Ray::new(Point3::from(origin), direction).unwrap();
        let t = s.ray(&ray);
        queries.push(json!({"id": k, "query": "ray", "shape": js, "pose": pose_json(&pose), "origin": v3(&origin), "direction": v3(&direction)}));
        expected.push(Box::new(move |r: &Value| match t {
            Some(t) => {
                assert_eq!(r["hit"], true, "ray {k}");
                close(r["toi"].as_f64().unwrap(), t, "toi");
                close((as_vec(&r["point"]) - (origin + direction * t)).norm(), 0.0, "hit point");
                let n = as_vec(&r["normal"]);
                assert!(
                    t == 0.0 || ((n.norm() - 1.0).abs() < 1e-9 && n.dot(&direction) <= 1e-12),
                    "normal {n:?}"
                );
            }
            None => {
                assert_eq!(r["hit"], false, "ray {k}");
                assert!(r["toi"].is_null() && r["point"].is_null());
            }
        }));
    }
    let out = collide(&["query"], Some(&json!({"queries": queries}).to_string()));
    let doc = stdout_json(&out);
    let results = doc["results"].as_array().unwrap();
    assert_eq!(results.len(), expected.len());
    let mut hits = 0;
    for (i, (r, check)) in results.iter().zip(&expected).enumerate() {
        assert_eq!(r["id"], i, "results keep the query order and ids");
        assert!(r.get("error").is_none(), "query {i}: {}", r["error"]);
        check(r);
        hits += usize::from(r["hit"] == true || r["intersects"] == true);
    }
    assert!(hits > 60, "the random cases cover hits: {hits}");
}

#[test]
fn hollow_rays_leave_spheres_and_boxes_through_their_surface() {
    let mut rng = Rng(77);
    let mut queries = Vec::new();
    // (pose, shape, origin, direction) of each ray.
    let mut checks = Vec::new();
    for k in 0..60 {
        let pose = random_pose(&mut rng, 2.0);
        let shape = if k % 2 == 0 {
            json!({"type": "sphere", "radius": rng.range(0.5, 2.0)})
        } else {
            json!({"type": "cuboid", "half_extents": [rng.range(0.5, 2.0), rng.range(0.5, 2.0), rng.range(0.5, 2.0)]})
        };
        // Start strictly inside.
        let origin = pose * Point3::from(rng.vec(0.3));
        let direction = rng.vec(1.0) + Vector3::new(0.0, 0.0, 0.1);
        queries.push(json!({"id": k, "query": "ray", "shape": shape, "pose": pose_json(&pose), "origin": v3(&origin.coords), "direction": v3(&direction), "solid": false}));
        checks.push((pose, shape, origin.coords, direction));
    }
    let doc = stdout_json(&collide(&["query"], Some(&json!({"queries": queries}).to_string())));
    for (r, (pose, shape, origin, direction)) in doc["results"].as_array().unwrap().iter().zip(&checks) {
        assert_eq!(r["hit"], true);
        let t = r["toi"].as_f64().unwrap();
        assert!(t > 0.0);
        let local = pose.inverse_transform_point(&Point3::from(origin + direction * t));
        let on_surface = if let Some(radius) = shape["radius"].as_f64() {
            (local.coords.norm() - radius).abs()
        } else {
            let h = as_vec(&shape["half_extents"]);
            (0..3).map(|i| local[i].abs() / h[i]).fold(0.0, f64::max) - 1.0
        };
        assert!(on_surface.abs() < 1e-9, "the exit point is on the surface ({on_surface})");
        assert!(as_vec(&r["normal"]).dot(direction) < 0.0, "the normal faces the ray");
    }
}

/// A bumpy sheet mesh: vertices and triangles, in its own frame.
fn sheet(rng: &mut Rng, n: usize) -> (Vec<Point3<f64>>, Vec<[u32; 3]>) {
    let mut vertices = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            let (x, z) = (i as f64 / n as f64 * 4.0 - 2.0, j as f64 / n as f64 * 4.0 - 2.0);
            vertices.push(Point3::new(x, rng.range(-0.3, 0.3), z));
        }
    }
    let at = |i: usize, j: usize| (i * (n + 1) + j) as u32;
    let mut triangles = Vec::new();
    for i in 0..n {
        for j in 0..n {
            triangles.push([at(i, j), at(i, j + 1), at(i + 1, j + 1)]);
            triangles.push([at(i, j), at(i + 1, j + 1), at(i + 1, j)]);
        }
    }
    (vertices, triangles)
}

#[test]
fn mesh_queries_equal_brute_force_over_every_triangle() {
    let mut rng = Rng(4242);
    let (vertices, triangles) = sheet(&mut rng, 8);
    let mesh_pose = random_pose(&mut rng, 0.5);
    let world_tris: Vec<Triangle<f64, 3>> = triangles
        .iter()
        .map(|t| {
            Triangle::new(
                mesh_pose * vertices[t[0] as usize],
                mesh_pose * vertices[t[1] as usize],
                mesh_pose * vertices[t[2] as usize],
            )
            .unwrap()
        })
        .collect();
    let verts_json: Vec<Value> = vertices.iter().map(|p| v3(&p.coords)).collect();
    // The mesh is also read from an OBJ file next to the document (relative path).
    let dir = scratch_dir("mesh");
    let mut obj = String::new();
    for p in &vertices {
        obj += &format!("v {:?} {:?} {:?}\n", p.x, p.y, p.z);
    }
    for t in &triangles {
        obj += &format!("f {} {} {}\n", t[0] + 1, t[1] + 1, t[2] + 1);
    }
    std::fs::write(dir.join("sheet.obj"), obj).unwrap();
    let shapes = json!({
        "inline": {"type": "mesh", "vertices": verts_json, "triangles": triangles},
        "file": {"type": "mesh", "obj": "sheet.obj"},
    });
    let mut queries = Vec::new();
    let mut expected = Vec::new();
    for k in 0..80 {
        let pose = random_pose(&mut rng, 2.0);
        let (js, s) = random_shape(&mut rng, &pose, false);
        let name = if k % 2 == 0 { "inline" } else { "file" };
        let kind = ["distance", "contact", "intersects"][k % 3];
        // Half the queries put the mesh second.
        let mesh_first = k % 4 < 2;
        let (a, pa, b, pb) = if mesh_first {
            (json!(name), pose_json(&mesh_pose), js, pose_json(&pose))
        } else {
            (js, pose_json(&pose), json!(name), pose_json(&mesh_pose))
        };
        queries.push(json!({"id": k, "query": kind, "a": a, "pose_a": pa, "b": b, "pose_b": pb}));
        // Brute force: every triangle against the shape.
        let per_triangle: Vec<f64> = world_tris
            .iter()
            .map(|t| distance(Shape::Triangle(t), s.shape(), &mut PairCache::default()).unwrap().distance)
            .collect();
        let best = per_triangle.iter().copied().fold(f64::INFINITY, f64::min);
        let any = world_tris
            .iter()
            .any(|t| intersects(Shape::Triangle(t), s.shape(), &mut PairCache::default()).unwrap());
        expected.push((kind, best, any));
    }
    let dir_doc = dir.join("queries.json");
    std::fs::write(&dir_doc, json!({"shapes": shapes, "queries": queries}).to_string()).unwrap();
    let doc = stdout_json(&collide(&["query", dir_doc.to_str().unwrap()], None));
    let mut touching = 0;
    for (r, (kind, best, any)) in doc["results"].as_array().unwrap().iter().zip(&expected) {
        assert!(r.get("error").is_none(), "{}", r["error"]);
        match *kind {
            "distance" => close(r["distance"].as_f64().unwrap(), best.max(0.0), "mesh distance"),
            "contact" => close(r["distance"].as_f64().unwrap(), *best, "mesh signed distance"),
            _ => assert_eq!(r["intersects"], *any),
        }
        touching += usize::from(*any);
    }
    assert!(touching > 5 && touching < 75, "{touching} of 80 cases touch the sheet");
    std::fs::remove_dir_all(dir).ok();
}

/// The distance of two shapes moved along their motions to time `t` (by the library).
fn gap_at(
    t: f64,
    shapes: &(Value, Value),
    start: &(Isometry3<f64>, Isometry3<f64>),
    motion: &[Vector3<f64>; 4],
) -> f64 {
    let at = |p: &Isometry3<f64>, v: &Vector3<f64>, w: &Vector3<f64>| {
        Isometry3::from_parts(
            Translation3::from(p.translation.vector + v * t),
            UnitQuaternion::from_scaled_axis(w * t) * p.rotation,
        )
    };
    let (pa, pb) = (at(&start.0, &motion[0], &motion[1]), at(&start.1, &motion[2], &motion[3]));
    let build = |j: &Value, p: &Isometry3<f64>| -> Built {
        match j["type"].as_str().unwrap() {
            "sphere" => Built::Ball(Ball::new(p * Point3::origin(), j["radius"].as_f64().unwrap()).unwrap()),
            "cuboid" => Built::Box(
                Obb::from_rotation(p * Point3::origin(), p.rotation, as_vec(&j["half_extents"])).unwrap(),
            ),
            _ => {
                let h = j["half_height"].as_f64().unwrap();
                Built::Capsule(
                    Capsule::new(
                        p * Point3::new(0.0, 0.0, -h),
                        p * Point3::new(0.0, 0.0, h),
                        j["radius"].as_f64().unwrap(),
                    )
                    .unwrap(),
                )
            }
        }
    };
    let (a, b) = (build(&shapes.0, &pa), build(&shapes.1, &pb));
    distance(a.shape(), b.shape(), &mut PairCache::default()).unwrap().distance
}

#[test]
fn query_toi_is_never_late_and_touches_at_the_answer() {
    let mut rng = Rng(31337);
    let mut queries = Vec::new();
    let mut cases = Vec::new();
    for k in 0..40 {
        let shape = |rng: &mut Rng| match k % 3 {
            0 => json!({"type": "sphere", "radius": rng.range(0.3, 1.0)}),
            1 => {
                json!({"type": "cuboid", "half_extents": [rng.range(0.3, 1.0), rng.range(0.3, 1.0), rng.range(0.3, 1.0)]})
            }
            _ => {
                json!({"type": "capsule", "half_height": rng.range(0.2, 1.0), "radius": rng.range(0.2, 0.6)})
            }
        };
        let shapes = (shape(&mut rng), shape(&mut rng));
        let start = (
            random_pose(&mut rng, 0.5),
            Isometry3::from_parts(Translation3::new(6.0, 0.0, 0.0), rng.rotation()),
        );
        let spin = k % 2 == 1;
        let motion = [
            Vector3::new(rng.range(2.0, 8.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)),
            if spin { rng.vec(4.0) } else { Vector3::zeros() },
            rng.vec(1.0),
            if spin { rng.vec(4.0) } else { Vector3::zeros() },
        ];
        queries.push(json!({
            "id": k, "query": "toi",
            "a": shapes.0, "pose_a": pose_json(&start.0), "velocity_a": v3(&motion[0]), "angular_velocity_a": v3(&motion[1]),
            "b": shapes.1, "pose_b": pose_json(&start.1), "velocity_b": v3(&motion[2]), "angular_velocity_b": v3(&motion[3]),
            "max_toi": 1.0,
        }));
        cases.push((shapes, start, motion));
    }
    let doc = stdout_json(&collide(&["query"], Some(&json!({"queries": queries}).to_string())));
    let mut hits = 0;
    for (r, (shapes, start, motion)) in doc["results"].as_array().unwrap().iter().zip(&cases) {
        assert!(r.get("error").is_none(), "{}", r["error"]);
        let size = 3.0;
        let end = if r["hit"] == true { r["toi"].as_f64().unwrap() } else { 1.0 };
        // Sampled before the answer: always apart (never late).
        for s in 0..200 {
            let t = end * s as f64 / 200.0;
            assert!(
                gap_at(t, shapes, start, motion) > -1e-9,
                "overlap at {t} before the answer {end} (query {})",
                r["id"]
            );
        }
        if r["hit"] == true {
            hits += 1;
            let gap = gap_at(end, shapes, start, motion);
            assert!(gap.abs() < 1e-5 * size, "touching at the answer: gap {gap} (query {})", r["id"]);
            let (pa, pb) = (as_vec(&r["point_a"]), as_vec(&r["point_b"]));
            assert!((pa - pb).norm() < 1e-4, "witness points meet");
        }
    }
    assert!(hits > 10, "{hits} of 40 random motions collide");
}

#[test]
fn invalid_queries_answer_with_errors_and_unreadable_documents_fail() {
    let doc = json!({
        "shapes": {"ball": {"type": "sphere", "radius": 1.0}, "bad": {"type": "sphere", "radius": "big"}},
        "queries": [
            {"id": "a", "query": "distance", "a": "ball", "b": "missing"},
            {"id": "b", "query": "intersects", "a": "bad", "b": "ball"},
            {"id": "c", "query": "intersects", "a": "ball", "b": {"type": "cuboid", "half_extents": [1, 0, 1]}},
            {"id": "d", "query": "intersects", "a": "ball", "b": "ball", "pose_b": {"translation": [1, 0, 0], "rotation": [2, 0, 0, 0]}},
            {"id": "e", "query": "ray", "shape": "ball", "origin": [0, 0, 5], "direction": [0, 0, 0]},
            {"id": "f", "query": "toi", "a": "ball", "b": "ball", "pose_b": {"translation": [3, 0, 0]}, "max_toi": -1},
            {"id": "g", "query": "teleport"},
            {"id": "h", "query": "intersects", "a": {"type": "triangle", "vertices": [[0, 0, 0], [1e300, 0, 0], [0, 1, 0]]}, "b": "ball"},
            {"id": "i", "query": "intersects", "a": {"type": "mesh", "obj": "no-such-file.obj"}, "b": "ball"},
            {"id": "j", "query": "intersects", "a": {"type": "sphere", "radius": 1e300}, "b": "ball", "pose_b": {"translation": [1e308, 0, 0]}},
            {"query": "intersects", "a": "ball", "b": "ball"},
            {"id": 7, "query": "distance", "a": "ball", "b": "ball", "pose_b": {"translation": [3, 0, 0]}},
        ]
    });
    let out = stdout_json(&collide(&["query", "-"], Some(&doc.to_string())));
    let results = out["results"].as_array().unwrap();
    assert_eq!(results.len(), 12);
    for (r, id) in results.iter().zip(["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]) {
        assert_eq!(r["id"], id);
        assert!(r["error"].as_str().is_some_and(|m| !m.is_empty()), "query {id} gives an error: {r}");
    }
    assert!(results[0]["error"].as_str().unwrap().contains("missing"));
    assert!(results[3]["error"].as_str().unwrap().contains("unit quaternion"));
    assert_eq!(results[10]["id"], Value::Null);
    assert_eq!(results[10]["intersects"], true);
    assert_eq!(
        results[11],
        json!({"id": 7, "distance": 1.0, "point_a": [1.0, 0.0, 0.0], "point_b": [2.0, 0.0, 0.0]})
    );
    fails_with(&collide(&["query"], Some("{not json")), 2, "not JSON");
    fails_with(&collide(&["query"], Some("{\"shapes\": {}}")), 2, "queries");
    fails_with(&collide(&["query"], Some("[1, 2]")), 2, "object");
}

// ---------------------------------------------------------------- pairs

fn brute_pairs(frame: &[Option<[f64; 6]>]) -> BTreeSet<[u32; 2]> {
    let mut out = BTreeSet::new();
    for (i, a) in frame.iter().enumerate() {
        for (j, b) in frame.iter().enumerate().skip(i + 1) {
            if let (Some(a), Some(b)) = (a, b) {
                if (0..3).all(|k| a[k] <= b[k + 3] && b[k] <= a[k + 3]) {
                    out.insert([i as u32, j as u32]);
                }
            }
        }
    }
    out
}

#[test]
fn pairs_equal_brute_force_for_every_broad_phase() {
    let mut rng = Rng(2024);
    let objects = 60;
    let mut centres: Vec<Vector3<f64>> = (0..objects).map(|_| rng.vec(6.0)).collect();
    let sizes: Vec<Vector3<f64>> = (0..objects)
        .map(|i| {
            if i % 10 == 0 {
                Vector3::repeat(3.0)
            } else {
                Vector3::new(rng.range(0.2, 1.0), rng.range(0.2, 1.0), rng.range(0.2, 1.0))
            }
        })
        .collect();
    let mut frames: Vec<Vec<Option<[f64; 6]>>> = Vec::new();
    for f in 0..25 {
        // Objects drift, some vanish for a while, the last frames are shorter (objects leave),
        // and one frame teleports everything.
        let count = if f > 20 { objects - 10 } else { objects };
        let mut frame = Vec::new();
        for i in 0..count {
            centres[i] += if f == 12 { rng.vec(6.0) } else { rng.vec(0.3) };
            let absent = (i + f) % 17 == 0;
            let (c, h) = (centres[i], sizes[i]);
            frame.push((!absent).then(|| [c.x - h.x, c.y - h.y, c.z - h.z, c.x + h.x, c.y + h.y, c.z + h.z]));
        }
        frames.push(frame);
    }
    // Touching boxes (shared faces) count as overlapping.
    frames.push(vec![Some([0.0, 0.0, 0.0, 1.0, 1.0, 1.0]), Some([1.0, 0.0, 0.0, 2.0, 1.0, 1.0])]);
    let doc = json!({"frames": frames}).to_string();
    let mut expected = Vec::new();
    let mut before = BTreeSet::new();
    for frame in &frames {
        let now = brute_pairs(frame);
        let added: Vec<[u32; 2]> = now.difference(&before).copied().collect();
        let removed: Vec<[u32; 2]> = before.difference(&now).copied().collect();
        expected.push(json!({"pairs": now.iter().collect::<Vec<_>>(), "added": added, "removed": removed}));
        before = now;
    }
    let mut total = 0;
    for name in BROAD_PHASES {
        let out = stdout_json(&collide(&["pairs", "--broad", name], Some(&doc)));
        let got = out["frames"].as_array().unwrap();
        assert_eq!(got.len(), expected.len());
        for (f, (g, e)) in got.iter().zip(&expected).enumerate() {
            assert_eq!(g, e, "{name}, frame {f}");
        }
        total += got.iter().map(|g| g["pairs"].as_array().unwrap().len()).sum::<usize>();
    }
    assert!(total > 7 * 100, "the frames have pairs to find: {total}");
    // Bad documents are rejected with the frame and object named.
    fails_with(
        &collide(
            &["pairs", "--broad", "grid"],
            Some(r#"{"frames": [[[0, 0, 0, 1, 1, 1], [0, 0, 0, 1, 1]]]}"#),
        ),
        2,
        "frame 0, object 1",
    );
    fails_with(
        &collide(&["pairs", "--broad", "grid"], Some(r#"{"frames": [[[0, 0, 0, -1, 1, 1]]]}"#)),
        2,
        "invalid box",
    );
    fails_with(&collide(&["pairs", "--broad", "grid"], Some(r#"{"boxes": []}"#)), 2, "frames");
    assert_eq!(collide(&["pairs"], Some("{\"frames\": []}")).status.code(), Some(2), "--broad is required");
}
