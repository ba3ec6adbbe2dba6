//! `collide query`: one JSON document of queries in, one JSON document of answers out.
//!
//! Input: `{"shapes": {"name": SHAPE, ...}, "queries": [QUERY, ...]}` (`shapes` optional).
//! Output: `{"results": [...]}`, one result per query in order, each with the query's `id`
//! (any JSON value; `null` when absent). A query that cannot be answered (unknown shape, bad
//! numbers, degenerate geometry the library rejects) gives `{"id": ID, "error": "message"}` in
//! its place and the others still run. Only a document that is not JSON of this form is a
//! fatal error.
//!
//! Shapes ([`shapes::ShapeSpec`]): `sphere`, `cuboid`, `capsule` (along local z), `cylinder`
//! (along local z), `triangle`, `convex` (hull of points), `mesh` (file or inline). In a query,
//! a shape is a name from `shapes` or an inline `SHAPE`. Poses are
//! `{"translation": V, "rotation": [w, x, y, z]}`, both optional (identity).
//!
//! Queries and answers (points and normals in world space):
//! * `intersects` (`a`, `pose_a`, `b`, `pose_b`) → `{"intersects": bool}`;
//! * `distance` → `{"distance": d, "point_a": V, "point_b": V}` (`d = 0` and both points at a
//!   common point when they intersect);
//! * `contact` → `{"intersects", "depth", "normal", "point_a", "point_b", "distance"}`: when
//!   intersecting, `depth > 0` (or 0 when just touching) is the length of the smallest
//!   translation of B that separates them, along `normal` (unit, from A to B) and
//!   `distance = −depth`; when apart, `depth = 0`, `distance > 0` and `normal` points from A's
//!   closest point to B's;
//! * `ray` (`shape`, `pose`, `origin`, `direction`, `max_toi` (default ∞), `solid` (default
//!   true)) → `{"hit", "toi", "normal", "point"}`, `point = origin + toi·direction`, the normal
//!   facing the ray; a miss has `"hit": false` and `null` for the rest;
//! * `toi` (`a`, `pose_a`, `velocity_a`, `angular_velocity_a`, the same for `b`, `max_toi`)
//!   → `{"hit", "toi", "normal", "point_a", "point_b"}` for convex shapes; velocities default
//!   to zero; `"toi": 0` when they already touch; a miss has `null` for the rest.
//!
//! Meshes take part in `intersects`, `distance`, `contact` and `ray`, as surfaces.

pub mod pair;
pub mod ray;
pub mod shapes;
pub mod toi;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use cd::geom::Ray;
use nalgebra::{Point3, Vector3};
use serde::Deserialize;
use serde_json::{json, Map, Value};

use crate::json::{number, point, vector};
use crate::CliError;
use shapes::{pose_field, Model, ShapeSpec};

/// Named shapes, built on first use and shared by the queries that name them.
pub struct Library {
    specs: Map<String, Value>,
    built: HashMap<String, Result<Model, String>>,
    base: PathBuf,
}

impl Library {
    /// The library of a document's `shapes`; mesh paths resolve against `base`.
    pub fn new(specs: Map<String, Value>, base: PathBuf) -> Self {
        Self { specs, built: HashMap::new(), base }
    }

    /// The shape a query field names or holds inline.
    fn resolve(&mut self, query: &Value, field: &str) -> Result<Model, String> {
        match query.get(field) {
            None | Some(Value::Null) => Err(format!("missing shape field \"{field}\"")),
            Some(Value::String(name)) => {
                if !self.built.contains_key(name) {
                    let spec = self.specs.get(name).ok_or_else(|| format!("unknown shape \"{name}\""))?;
                    let model = ShapeSpec::deserialize(spec)
                        .map_err(|e| format!("bad shape \"{name}\": {e}"))
                        .and_then(|s| Model::build(&s, &self.base))
                        .map_err(|e| format!("shape \"{name}\": {e}"));
                    self.built.insert(name.clone(), model);
                }
                self.built[name].clone()
            }
            Some(inline) => {
                let spec =
                    ShapeSpec::deserialize(inline).map_err(|e| format!("bad shape in \"{field}\": {e}"))?;
                Model::build(&spec, &self.base)
            }
        }
    }
}

/// A three-number field (`[x, y, z]`), or `default` when absent.
fn vec3(query: &Value, field: &str, default: Option<Vector3<f64>>) -> Result<Vector3<f64>, String> {
    match query.get(field) {
        None | Some(Value::Null) => default.ok_or_else(|| format!("missing field \"{field}\"")),
        Some(v) => {
            let a = <[f64; 3]>::deserialize(v).map_err(|e| format!("bad \"{field}\": {e}"))?;
            if a.iter().any(|x| !x.is_finite()) {
                return Err(format!("\"{field}\" must be finite"));
            }
            Ok(Vector3::from(a))
        }
    }
}

/// A number field, or `default` when absent.
fn scalar(query: &Value, field: &str, default: Option<f64>) -> Result<f64, String> {
    match query.get(field) {
        None | Some(Value::Null) => default.ok_or_else(|| format!("missing field \"{field}\"")),
        Some(v) => v.as_f64().ok_or_else(|| format!("\"{field}\" must be a number")),
    }
}

/// A placed shape from a query's shape and pose fields.
fn placed(lib: &mut Library, query: &Value, shape: &str, pose: &str) -> Result<shapes::Placed, String> {
    let model = lib.resolve(query, shape)?;
    model.place(&pose_field(query, pose)?)
}

/// Answers one query (without its id).
fn answer(lib: &mut Library, query: &Value) -> Result<Map<String, Value>, String> {
    let kind = query.get("query").and_then(Value::as_str).ok_or("missing \"query\" (the query kind)")?;
    let mut out = Map::new();
    match kind {
        "intersects" | "distance" | "contact" => {
            let a = placed(lib, query, "a", "pose_a")?;
            let b = placed(lib, query, "b", "pose_b")?;
            if kind == "intersects" {
                out.insert("intersects".into(), Value::Bool(pair::pair_intersects(&a, &b)?));
                return Ok(out);
            }
            let c = pair::pair_contact(&a, &b)?;
            let overlapping = c.distance <= 0.0;
            if kind == "distance" {
                // Overlapping: the witness points are in both shapes, and so is their midpoint.
                let (pa, pb) = if overlapping {
                    let m = Point3::from((c.point_a.coords + c.point_b.coords) * 0.5);
                    (m, m)
                } else {
                    (c.point_a, c.point_b)
                };
                out.insert("distance".into(), number(c.distance.max(0.0), "distance")?);
                out.insert("point_a".into(), point(&pa, "point_a")?);
                out.insert("point_b".into(), point(&pb, "point_b")?);
            } else {
                out.insert("intersects".into(), Value::Bool(overlapping));
                out.insert("depth".into(), number((-c.distance).max(0.0), "depth")?);
                out.insert("normal".into(), vector(&c.normal, "normal")?);
                out.insert("point_a".into(), point(&c.point_a, "point_a")?);
                out.insert("point_b".into(), point(&c.point_b, "point_b")?);
                out.insert("distance".into(), number(c.distance, "distance")?);
            }
        }
        "ray" => {
            let target = placed(lib, query, "shape", "pose")?;
            let origin = Point3::from(vec3(query, "origin", None)?);
            let direction = vec3(query, "direction", None)?;
            let max_toi = scalar(query, "max_toi", Some(f64::INFINITY))?;
            let solid = match query.get("solid") {
                None | Some(Value::Null) => true,
                Some(v) => v.as_bool().ok_or("\"solid\" must be true or false")?,
            };
            let ray = Ray::new(origin, direction)
                .and_then(|r| r.with_max_t(max_toi))
                .map_err(|e| format!("invalid ray: {e}"))?;
            match ray::cast(&ray, &target, solid) {
                Some((t, normal)) => {
                    out.insert("hit".into(), Value::Bool(true));
                    out.insert("toi".into(), number(t, "toi")?);
                    out.insert("normal".into(), vector(&normal, "normal")?);
                    out.insert("point".into(), point(&ray.at(t), "point")?);
                }
                None => miss(&mut out, &["toi", "normal", "point"]),
            }
        }
        "toi" => {
            let (ma, mb) = (lib.resolve(query, "a")?, lib.resolve(query, "b")?);
            let (a, b) = (mover(&ma, query, "a")?, mover(&mb, query, "b")?);
            let max_toi = scalar(query, "max_toi", None)?;
            match toi::time_of_impact(&a, &b, max_toi)? {
                Some(t) => {
                    out.insert("hit".into(), Value::Bool(true));
                    out.insert("toi".into(), number(t.time, "toi")?);
                    out.insert("normal".into(), vector(&t.normal, "normal")?);
                    out.insert("point_a".into(), point(&t.point_a, "point_a")?);
                    out.insert("point_b".into(), point(&t.point_b, "point_b")?);
                }
                None => miss(&mut out, &["toi", "normal", "point_a", "point_b"]),
            }
        }
        other => {
            return Err(format!(
                "unknown query kind \"{other}\"; expected intersects, distance, contact, ray or toi"
            ))
        }
    }
    Ok(out)
}

/// One side (`"a"` or `"b"`) of a `toi` query: its convex model with its pose and velocities.
fn mover<'m>(model: &'m Model, query: &Value, side: &str) -> Result<toi::Mover<'m>, String> {
    let Model::Convex { core, radius } = model else {
        return Err(format!("toi needs convex shapes; \"{side}\" is a mesh"));
    };
    Ok(toi::Mover {
        core,
        radius: *radius,
        pose: pose_field(query, &format!("pose_{side}"))?,
        velocity: vec3(query, &format!("velocity_{side}"), Some(Vector3::zeros()))?,
        angular: vec3(query, &format!("angular_velocity_{side}"), Some(Vector3::zeros()))?,
    })
}

/// A miss: `"hit": false` and `null` for every field a hit would have.
fn miss(out: &mut Map<String, Value>, fields: &[&str]) {
    out.insert("hit".into(), Value::Bool(false));
    for f in fields {
        out.insert((*f).into(), Value::Null);
    }
}

/// Runs a whole document. `base` is the folder relative mesh paths start from (the
/// document's folder, or the working folder for standard input).
pub fn run(text: &str, base: &Path) -> Result<Value, CliError> {
    let doc: Value = serde_json::from_str(text)
        .map_err(|e| CliError::Input(format!("the query document is not JSON: {e}")))?;
    let Value::Object(mut doc) = doc else {
        return Err(CliError::Input("the query document must be a JSON object".into()));
    };
    let specs = match doc.remove("shapes") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(m)) => m,
        Some(_) => return Err(CliError::Input("\"shapes\" must be an object of named shapes".into())),
    };
    let queries = match doc.remove("queries") {
        Some(Value::Array(q)) => q,
        _ => return Err(CliError::Input("the document needs \"queries\": an array of queries".into())),
    };
    let mut lib = Library::new(specs, base.to_path_buf());
    let bar = crate::progress::bar(queries.len() as u64, "queries");
    let mut results = Vec::with_capacity(queries.len());
    for q in &queries {
        let id = q.get("id").cloned().unwrap_or(Value::Null);
        let mut entry = Map::new();
        entry.insert("id".into(), id);
        match answer(&mut lib, q) {
            Ok(fields) => entry.extend(fields),
            Err(message) => {
                entry.insert("error".into(), Value::String(message));
            }
        }
        results.push(Value::Object(entry));
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(json!({ "results": results }))
}
