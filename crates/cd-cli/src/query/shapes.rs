//! The shapes of the query language: how a JSON `SHAPE` becomes a [`Model`] in its local frame
//! (validated once), and how a model and a pose become a [`Placed`] shape in world space.
//!
//! Convex shapes are a core plus a radius, the form GJK and the casts want: a sphere is a point
//! grown by its radius, a capsule (along local **z**) a segment grown by its radius. A `convex`
//! shape is the convex hull of its points; points that span no volume give a polygon, a
//! segment or a point, which still take part in every query. A `mesh` is a triangle surface
//! with its hierarchy (it has no inside).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use cd::bv::{convex_hull, Hull};
use cd::geom::{
    support_aabb, Aabb, Ball, Capsule, ConvexPolyhedron, Cylinder, Obb, Polygon, Segment, SupportMap,
    Transformed, Triangle,
};
use cd::mid::{MeshBvh, TriMesh};
use cd::narrow::Shape;
use nalgebra::{Isometry3, Point3, Quaternion, Translation3, UnitQuaternion, Vector3};
use serde::Deserialize;
use serde_json::Value;

/// A mesh with its hierarchy, shared between the queries that name it.
pub type MeshModel = Arc<MeshBvh<f64, Aabb<f64, 3>>>;

/// A `SHAPE` as written in JSON.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ShapeSpec {
    /// `{"type": "sphere", "radius": r}`.
    Sphere {
        /// Radius (> 0).
        radius: f64,
    },
    /// `{"type": "cuboid", "half_extents": [x, y, z]}`.
    Cuboid {
        /// Half extents (each > 0).
        half_extents: [f64; 3],
    },
    /// `{"type": "capsule", "half_height": h, "radius": r}`: the segment from (0,0,−h) to
    /// (0,0,h) grown by r.
    Capsule {
        /// Half the core segment's length (≥ 0).
        half_height: f64,
        /// Radius (> 0).
        radius: f64,
    },
    /// `{"type": "cylinder", "half_height": h, "radius": r}`, axis along local z.
    Cylinder {
        /// Half height (> 0).
        half_height: f64,
        /// Radius (> 0).
        radius: f64,
    },
    /// `{"type": "triangle", "vertices": [V, V, V]}`.
    Triangle {
        /// The corners.
        vertices: [[f64; 3]; 3],
    },
    /// `{"type": "convex", "points": [V, ...]}`: the convex hull of the points.
    Convex {
        /// The points (at least one).
        points: Vec<[f64; 3]>,
    },
    /// `{"type": "mesh", "obj": "path.obj"}` or `{"type": "mesh", "vertices": [...],
    /// "triangles": [[i, j, k], ...]}` (0-based indices).
    Mesh {
        /// A mesh file (OBJ, STL or PLY), relative to the query document's folder.
        obj: Option<String>,
        /// Inline vertices.
        vertices: Option<Vec<[f64; 3]>>,
        /// Inline triangles.
        triangles: Option<Vec<[u32; 3]>>,
    },
}

/// The core of a convex shape in its local frame (the shape is the core grown by a radius).
#[derive(Clone, Debug)]
pub enum Core {
    /// A point (spheres; degenerate convex hulls).
    Point(Point3<f64>),
    /// A segment (capsules; collinear convex hulls).
    Segment(Segment<f64, 3>),
    /// A box.
    Box(Obb<f64, 3>),
    /// A cylinder.
    Cylinder(Cylinder<f64>),
    /// A triangle.
    Triangle(Triangle<f64, 3>),
    /// A flat convex polygon (coplanar convex hulls).
    Polygon(Polygon<f64, 3>),
    /// A convex polyhedron.
    Hull(Arc<ConvexPolyhedron<f64>>),
}

impl SupportMap<f64, 3> for Core {
    fn support(&self, d: &Vector3<f64>) -> Point3<f64> {
        match self {
            Core::Point(p) => *p,
            Core::Segment(s) => s.support(d),
            Core::Box(b) => b.support(d),
            Core::Cylinder(c) => c.support(d),
            Core::Triangle(t) => t.support(d),
            Core::Polygon(p) => p.support(d),
            Core::Hull(h) => h.support(d),
        }
    }

    fn interior_point(&self) -> Point3<f64> {
        match self {
            Core::Point(p) => *p,
            Core::Segment(s) => s.interior_point(),
            Core::Box(b) => b.interior_point(),
            Core::Cylinder(c) => c.interior_point(),
            Core::Triangle(t) => t.interior_point(),
            Core::Polygon(p) => p.interior_point(),
            Core::Hull(h) => h.interior_point(),
        }
    }
}

/// A validated shape in its local frame.
#[derive(Clone, Debug)]
pub enum Model {
    /// A convex core grown by a radius (≥ 0).
    Convex {
        /// The core.
        core: Core,
        /// The radius around it.
        radius: f64,
    },
    /// A triangle mesh (a surface).
    Mesh(MeshModel),
}

fn positive(x: f64, what: &str) -> Result<f64, String> {
    if x.is_finite() && x > 0.0 {
        Ok(x)
    } else {
        Err(format!("{what} must be a finite number > 0 (got {x})"))
    }
}

fn point(p: &[f64; 3]) -> Point3<f64> {
    Point3::new(p[0], p[1], p[2])
}

impl Model {
    /// Builds and validates a shape. `base` is the folder mesh paths are relative to.
    pub fn build(spec: &ShapeSpec, base: &Path) -> Result<Model, String> {
        let geom = |e: cd::geom::GeomError| e.to_string();
        Ok(match spec {
            ShapeSpec::Sphere { radius } => Model::Convex {
                core: Core::Point(Point3::origin()),
                radius: positive(*radius, "a sphere's radius")?,
            },
            ShapeSpec::Cuboid { half_extents } => {
                let mut h = Vector3::zeros();
                for (slot, &x) in h.iter_mut().zip(half_extents) {
                    *slot = positive(x, "a cuboid's half extent")?;
                }
                let core =
                    Obb::from_rotation(Point3::origin(), UnitQuaternion::identity(), h).map_err(geom)?;
                Model::Convex { core: Core::Box(core), radius: 0.0 }
            }
            ShapeSpec::Capsule { half_height, radius } => {
                let radius = positive(*radius, "a capsule's radius")?;
                let h = *half_height;
                if !(h.is_finite() && h >= 0.0) {
                    return Err(format!("a capsule's half_height must be a finite number ≥ 0 (got {h})"));
                }
                let core = if h > 0.0 {
                    Core::Segment(
                        Segment::new(Point3::new(0.0, 0.0, -h), Point3::new(0.0, 0.0, h)).map_err(geom)?,
                    )
                } else {
                    Core::Point(Point3::origin())
                };
                Model::Convex { core, radius }
            }
            ShapeSpec::Cylinder { half_height, radius } => {
                let h = positive(*half_height, "a cylinder's half_height")?;
                let r = positive(*radius, "a cylinder's radius")?;
                let core =
                    Cylinder::new(Point3::new(0.0, 0.0, -h), Point3::new(0.0, 0.0, h), r).map_err(geom)?;
                Model::Convex { core: Core::Cylinder(core), radius: 0.0 }
            }
            ShapeSpec::Triangle { vertices } => {
                let [a, b, c] = vertices.map(|v| point(&v));
                let t = Triangle::new(a, b, c).map_err(|e| format!("invalid triangle: {e}"))?;
                Model::Convex { core: Core::Triangle(t), radius: 0.0 }
            }
            ShapeSpec::Convex { points } => {
                let points: Vec<Point3<f64>> = points.iter().map(point).collect();
                let core = match convex_hull(&points).map_err(|e| format!("invalid convex shape: {e}"))? {
                    Hull::Point(p) => Core::Point(p),
                    Hull::Segment(a, b) => Core::Segment(Segment::new(a, b).map_err(geom)?),
                    Hull::Polygon(ps) => Core::Polygon(Polygon::new(ps).map_err(geom)?),
                    Hull::Polyhedron(h) => Core::Hull(Arc::new(h)),
                };
                Model::Convex { core, radius: 0.0 }
            }
            ShapeSpec::Mesh { obj, vertices, triangles } => {
                let mesh = match (obj, vertices, triangles) {
                    (Some(path), None, None) => {
                        let full: PathBuf = base.join(path);
                        crate::mesh_io::load_mesh(&full).map_err(|e| e.to_string())?
                    }
                    (None, Some(v), Some(t)) => TriMesh::new(v.iter().map(point).collect(), t.clone())
                        .map_err(|e| format!("invalid mesh: {e}"))?,
                    _ => {
                        return Err(
                            "a mesh needs either \"obj\" or both \"vertices\" and \"triangles\"".into()
                        )
                    }
                };
                Model::Mesh(Arc::new(MeshBvh::new(mesh).map_err(|e| format!("invalid mesh: {e}"))?))
            }
        })
    }

    /// The model placed in the world.
    pub fn place(&self, pose: &Isometry3<f64>) -> Result<Placed, String> {
        let geom = |e: cd::geom::GeomError| format!("the pose moves the shape out of range: {e}");
        Ok(match self {
            Model::Mesh(mesh) => Placed::Mesh(mesh.clone(), *pose),
            Model::Convex { core, radius } => {
                let r = *radius;
                let world = match core {
                    Core::Point(p) if r > 0.0 => World::Ball(Ball::new(pose * p, r).map_err(geom)?),
                    Core::Segment(s) if r > 0.0 => {
                        World::Capsule(Capsule::new(pose * s.a(), pose * s.b(), r).map_err(geom)?)
                    }
                    Core::Box(b) => World::Box(
                        Obb::from_rotation(pose * b.center(), pose.rotation, *b.half_extents())
                            .map_err(geom)?,
                    ),
                    Core::Cylinder(c) => {
                        World::Cylinder(Cylinder::new(pose * c.a(), pose * c.b(), c.radius()).map_err(geom)?)
                    }
                    Core::Triangle(t) => {
                        let [a, b, c] = t.vertices();
                        World::Triangle(Triangle::new(pose * a, pose * b, pose * c).map_err(geom)?)
                    }
                    Core::Hull(h) => World::Hull(h.clone(), *pose),
                    // Radius-free points, segments and polygons: their support map, moved.
                    other => World::Flat(Transformed::new(other.clone(), *pose)),
                };
                Placed::Convex(world)
            }
        })
    }
}

/// A convex shape in world space, owning what the narrow phase borrows.
#[derive(Clone, Debug)]
pub enum World {
    /// A sphere.
    Ball(Ball<f64, 3>),
    /// A capsule.
    Capsule(Capsule<f64, 3>),
    /// A box.
    Box(Obb<f64, 3>),
    /// A cylinder.
    Cylinder(Cylinder<f64>),
    /// A triangle.
    Triangle(Triangle<f64, 3>),
    /// A convex polyhedron in its frame, with its pose.
    Hull(Arc<ConvexPolyhedron<f64>>, Isometry3<f64>),
    /// A point, segment or polygon (a hull without volume), moved by its pose.
    Flat(Transformed<Core, f64, UnitQuaternion<f64>, 3>),
}

impl World {
    /// The narrow phase's view of the shape.
    pub fn shape(&self) -> Shape<'_, f64> {
        match self {
            World::Ball(b) => Shape::Ball(b),
            World::Capsule(c) => Shape::Capsule(c),
            World::Box(b) => Shape::Box(b),
            World::Cylinder(c) => Shape::Cylinder(c),
            World::Triangle(t) => Shape::Triangle(t),
            World::Hull(h, pose) => Shape::Hull(h, pose),
            World::Flat(f) => Shape::Convex(f, 0.0),
        }
    }

    /// The world-space box around the shape.
    pub fn aabb(&self) -> Aabb<f64, 3> {
        let (lo, hi) = match self {
            World::Ball(b) => support_aabb(b),
            World::Capsule(c) => support_aabb(c),
            World::Box(b) => support_aabb(b),
            World::Cylinder(c) => support_aabb(c),
            World::Triangle(t) => support_aabb(t),
            World::Hull(h, pose) => support_aabb(&Transformed::new(&**h, *pose)),
            World::Flat(f) => support_aabb(f),
        };
        Aabb::new(lo, hi).unwrap_or_else(|_| Aabb::new(lo, lo).expect("a support point is a valid point"))
    }

    /// A point of the shape (for the upper bound of a mesh distance search).
    pub fn some_point(&self) -> Point3<f64> {
        match self {
            World::Ball(b) => *b.center(),
            World::Capsule(c) => *c.a(),
            World::Box(b) => *b.center(),
            World::Cylinder(c) => *c.a(),
            World::Triangle(t) => t.vertices()[0],
            World::Hull(h, pose) => pose * h.vertices()[0],
            World::Flat(f) => f.interior_point(),
        }
    }
}

/// A shape placed in the world.
#[derive(Clone, Debug)]
pub enum Placed {
    /// A convex shape.
    Convex(World),
    /// A mesh with its pose.
    Mesh(MeshModel, Isometry3<f64>),
}

/// A `POSE`: `{"translation": [x, y, z], "rotation": [w, x, y, z]}` (rotation optional; the
/// whole pose optional, meaning identity).
#[derive(Clone, Debug, Default, Deserialize)]
pub struct PoseSpec {
    /// Translation (default zero).
    #[serde(default)]
    pub translation: Option<[f64; 3]>,
    /// Unit quaternion, scalar first (default identity).
    #[serde(default)]
    pub rotation: Option<[f64; 4]>,
}

/// How far a rotation's norm may be from 1 before it is refused rather than normalised.
const UNIT_TOLERANCE: f64 = 1e-3;

impl PoseSpec {
    /// The isometry, after checking the numbers are finite and the quaternion is unit (within
    /// 1e-3; it is then normalised).
    pub fn isometry(&self) -> Result<Isometry3<f64>, String> {
        let t = self.translation.unwrap_or([0.0; 3]);
        if t.iter().any(|x| !x.is_finite()) {
            return Err(format!("a translation must be finite (got {t:?})"));
        }
        let rotation = match self.rotation {
            None => UnitQuaternion::identity(),
            Some([w, x, y, z]) => {
                let q = Quaternion::new(w, x, y, z);
                let n = q.norm();
                if !n.is_finite() || (n - 1.0).abs() > UNIT_TOLERANCE {
                    return Err(format!(
                        "a rotation must be a unit quaternion [w, x, y, z] (its norm is {n})"
                    ));
                }
                UnitQuaternion::from_quaternion(q)
            }
        };
        Ok(Isometry3::from_parts(Translation3::new(t[0], t[1], t[2]), rotation))
    }
}

/// Parses a pose field that may be absent or `null` (identity).
pub fn pose_field(query: &Value, field: &str) -> Result<Isometry3<f64>, String> {
    match query.get(field) {
        None | Some(Value::Null) => Ok(Isometry3::identity()),
        Some(v) => PoseSpec::deserialize(v).map_err(|e| format!("bad {field}: {e}"))?.isometry(),
    }
}
