//! The shapes a world body can have, described in the body's own frame, and their placement
//! in the world for one step.
//!
//! A [`ColliderShape`] is the body-frame description (a ball of radius r at the origin, a box
//! of half extents h along the frame's axes, a hull's vertices in body coordinates…). Once per
//! step each body's shape is *placed* by its pose into a `Placed` value holding world-space
//! primitives, so the narrow phase of every pair the body takes part in reuses it.

use std::sync::Arc;

use cd_geom::{
    support_aabb, Aabb, Ball, Capsule, Cone, ConvexPolyhedron, Cylinder, GeomError, GeomResult, Lozenge, Obb,
    Plane, Point, Real, Segment, Transformed, Triangle,
};
use cd_mid::MeshBvh;
use cd_narrow::{Shape, TriangleNeighbors};
use cd_response::MassProperties;
use nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};

/// A triangle mesh with its bounding-volume hierarchy (AABB nodes), shared between bodies.
pub type MeshShape<T> = Arc<MeshCollider<T>>;

/// A triangle mesh as a collider: its hierarchy and, for every triangle, the face normals of
/// its neighbours across each edge (found once, when the collider is made), which contacts use
/// to avoid "ghost collisions" on interior edges ([`cd_narrow::fix_internal_edge`]). It
/// dereferences to the [`MeshBvh`].
#[derive(Clone, Debug)]
pub struct MeshCollider<T: Real> {
    bvh: MeshBvh<T, Aabb<T, 3>>,
    neighbors: Vec<TriangleNeighbors<T>>,
}

impl<T: Real> MeshCollider<T> {
    /// The collider of a mesh: edges shared by exactly two triangles are interior (their
    /// neighbour's normal is recorded, oriented like the triangle's own when the mesh is
    /// consistently wound); edges with one triangle, or more than two, are boundaries.
    pub fn new(bvh: MeshBvh<T, Aabb<T, 3>>) -> Self {
        let mesh = bvh.mesh();
        let mut edges: Vec<((u32, u32), u32, usize)> = Vec::with_capacity(mesh.len() * 3);
        for (t, tri) in mesh.indices().iter().enumerate() {
            for i in 0..3 {
                let (a, b) = (tri[i], tri[(i + 1) % 3]);
                edges.push(((a.min(b), a.max(b)), t as u32, i));
            }
        }
        edges.sort_unstable();
        let normals: Vec<Option<Vector3<T>>> =
            (0..mesh.len()).map(|t| mesh.triangle(t).normal().ok()).collect();
        let mut neighbors = vec![TriangleNeighbors { normals: [None; 3] }; mesh.len()];
        for group in edges.chunk_by(|x, y| x.0 == y.0) {
            if let [(_, t0, i0), (_, t1, i1)] = group {
                neighbors[*t0 as usize].normals[*i0] = normals[*t1 as usize];
                neighbors[*t1 as usize].normals[*i1] = normals[*t0 as usize];
            }
        }
        Self { bvh, neighbors }
    }

    /// The neighbour normals of triangle `t` (in the mesh's frame).
    pub fn neighbors(&self, t: u32) -> &TriangleNeighbors<T> {
        &self.neighbors[t as usize]
    }
}

impl<T: Real> core::ops::Deref for MeshCollider<T> {
    type Target = MeshBvh<T, Aabb<T, 3>>;
    fn deref(&self) -> &Self::Target {
        &self.bvh
    }
}

/// A body's shape in its own frame.
#[derive(Clone, Debug)]
pub enum ColliderShape<T: Real> {
    /// A ball centred at the origin.
    Ball {
        /// Radius (> 0).
        radius: T,
    },
    /// A box centred at the origin, along the frame's axes.
    Cuboid {
        /// Half extents (each > 0).
        half_extents: Vector3<T>,
    },
    /// A capsule along the frame's y axis, centred at the origin.
    Capsule {
        /// Half the distance between the two sphere centres (≥ 0).
        half_height: T,
        /// Radius (> 0).
        radius: T,
    },
    /// A cylinder along y, centred at the origin.
    Cylinder {
        /// Half height (> 0).
        half_height: T,
        /// Radius (> 0).
        radius: T,
    },
    /// A cone along y: base at `y = −half_height`, apex at `y = +half_height`.
    Cone {
        /// Half height (> 0).
        half_height: T,
        /// Base radius (> 0).
        radius: T,
    },
    /// A lozenge: the rectangle of half extents `half_x` × `half_z` in the body's xz plane,
    /// centred at the origin, grown by `radius` (a rounded box that is thin along y: a tile, a
    /// platform, a coin-like slab).
    Lozenge {
        /// Half extent along x (≥ 0; zero gives a capsule).
        half_x: T,
        /// Half extent along z (≥ 0).
        half_z: T,
        /// Radius (> 0).
        radius: T,
    },
    /// A triangle, vertices in the body's frame (static and kinematic bodies only: it has no
    /// volume, hence no mass).
    Triangle(Triangle<T, 3>),
    /// A segment, ends in the body's frame (static and kinematic bodies only, like a
    /// triangle): a wire, a rail, a laser line for overlap tests.
    Segment(Segment<T, 3>),
    /// A convex polyhedron, vertices in the body's frame.
    ConvexHull(Arc<ConvexPolyhedron<T>>),
    /// A triangle mesh in the body's frame (static and kinematic bodies only: a mesh has no
    /// inside, hence no mass).
    TriangleMesh(MeshShape<T>),
    /// The half-space `y ≤ 0` of the body's frame (a ground; static bodies only).
    HalfSpace,
    /// Several shapes, each placed in the body's frame by its own pose. Nested compounds,
    /// meshes and half-spaces are not allowed as parts.
    Compound(Arc<Vec<(Isometry3<T>, ColliderShape<T>)>>),
}

impl<T: Real> ColliderShape<T> {
    /// A ball.
    pub fn ball(radius: T) -> Self {
        Self::Ball { radius }
    }

    /// A box of the given half extents.
    pub fn cuboid(hx: T, hy: T, hz: T) -> Self {
        Self::Cuboid { half_extents: Vector3::new(hx, hy, hz) }
    }

    /// A capsule along y.
    pub fn capsule(half_height: T, radius: T) -> Self {
        Self::Capsule { half_height, radius }
    }

    /// A lozenge: a `2·half_x × 2·half_z` rectangle in the xz plane grown by `radius`.
    pub fn lozenge(half_x: T, half_z: T, radius: T) -> Self {
        Self::Lozenge { half_x, half_z, radius }
    }

    /// A convex hull (vertices in the body's frame).
    pub fn convex_hull(hull: ConvexPolyhedron<T>) -> Self {
        Self::ConvexHull(Arc::new(hull))
    }

    /// A triangle mesh with its hierarchy (its edge adjacency is found here, once).
    pub fn triangle_mesh(mesh: MeshBvh<T, Aabb<T, 3>>) -> Self {
        Self::TriangleMesh(Arc::new(MeshCollider::new(mesh)))
    }

    /// A compound of posed parts.
    pub fn compound(parts: Vec<(Isometry3<T>, ColliderShape<T>)>) -> Self {
        Self::Compound(Arc::new(parts))
    }

    /// The shape's kind, for messages.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Ball { .. } => "ball",
            Self::Cuboid { .. } => "cuboid",
            Self::Capsule { .. } => "capsule",
            Self::Cylinder { .. } => "cylinder",
            Self::Cone { .. } => "cone",
            Self::Lozenge { .. } => "lozenge",
            Self::Triangle(_) => "triangle",
            Self::Segment(_) => "segment",
            Self::ConvexHull(_) => "convex hull",
            Self::TriangleMesh(_) => "triangle mesh",
            Self::HalfSpace => "half-space",
            Self::Compound(_) => "compound",
        }
    }

    /// Whether the shape encloses a volume (can be given a mass).
    pub fn is_solid(&self) -> bool {
        !matches!(self, Self::TriangleMesh(_) | Self::HalfSpace | Self::Triangle(_) | Self::Segment(_))
    }

    /// Checks the dimensions (finite, positive where required) and the compound's parts.
    pub fn validate(&self) -> GeomResult<()> {
        let positive = |x: T| {
            cd_geom::validate::vector(&Vector3::new(x, T::zero(), T::zero()))?;
            if x > T::zero() {
                Ok(())
            } else {
                Err(GeomError::Negative)
            }
        };
        match self {
            Self::Ball { radius } => positive(*radius),
            Self::Cuboid { half_extents } => half_extents.iter().try_for_each(|&h| positive(h)),
            Self::Capsule { half_height, radius } => {
                positive(*radius)?;
                // Zero is allowed: a capsule of no length is a ball.
                cd_geom::validate::vector(&Vector3::new(*half_height, T::zero(), T::zero()))?;
                if *half_height < T::zero() {
                    Err(GeomError::Negative)
                } else {
                    Ok(())
                }
            }
            Self::Cylinder { half_height, radius } | Self::Cone { half_height, radius } => {
                positive(*radius)?;
                positive(*half_height)
            }
            Self::Lozenge { half_x, half_z, radius } => {
                positive(*radius)?;
                // Zero half extents are allowed: a capsule, or a ball.
                cd_geom::validate::vector(&Vector3::new(*half_x, *half_z, T::zero()))?;
                if *half_x < T::zero() || *half_z < T::zero() {
                    Err(GeomError::Negative)
                } else {
                    Ok(())
                }
            }
            // Triangles and segments were validated when they were made.
            Self::Triangle(_) | Self::Segment(_) => Ok(()),
            Self::ConvexHull(_) | Self::TriangleMesh(_) | Self::HalfSpace => Ok(()),
            Self::Compound(parts) => {
                if parts.is_empty() {
                    return Err(GeomError::TooFewPoints);
                }
                parts.iter().try_for_each(|(pose, part)| {
                    cd_geom::validate::vector(&pose.translation.vector)?;
                    match part {
                        Self::Compound(_) | Self::TriangleMesh(_) | Self::HalfSpace => {
                            Err(GeomError::Degenerate)
                        }
                        _ => part.validate(),
                    }
                })
            }
        }
    }

    /// The radius of a ball about the body's origin that holds the whole shape (None for the
    /// unbounded half-space): how far a point of the body can be from the origin, so a turn
    /// of θ about it moves no point farther than `2 sin(θ/2)` times this radius.
    pub fn bounding_radius(&self) -> Option<T> {
        fn farthest<'a, T: Real>(points: impl IntoIterator<Item = &'a Point3<T>>) -> T {
            points.into_iter().map(|p| p.coords.norm()).fold(T::zero(), |r, d| if d > r { d } else { r })
        }
        let hypot = |x: T, y: T| Vector3::new(x, y, T::zero()).norm();
        Some(match self {
            Self::Ball { radius } => *radius,
            Self::Cuboid { half_extents } => half_extents.norm(),
            Self::Capsule { half_height, radius } => *half_height + *radius,
            Self::Cylinder { half_height, radius } | Self::Cone { half_height, radius } => {
                hypot(*half_height, *radius)
            }
            Self::Lozenge { half_x, half_z, radius } => hypot(*half_x, *half_z) + *radius,
            Self::Triangle(t) => farthest(&t.vertices()),
            Self::Segment(s) => farthest([s.a(), s.b()]),
            Self::ConvexHull(hull) => farthest(hull.vertices()),
            Self::TriangleMesh(mesh) => farthest(mesh.mesh().vertices()),
            Self::HalfSpace => return None,
            Self::Compound(parts) => parts.iter().try_fold(T::zero(), |r, (pose, part)| {
                let reach = pose.translation.vector.norm() + part.bounding_radius()?;
                Some(if reach > r { reach } else { r })
            })?,
        })
    }

    /// Mass properties in the body's frame for a uniform `density`. Errors: a shape without
    /// volume ([`GeomError::Degenerate`]: meshes and half-spaces), a bad density.
    pub fn mass_properties(&self, density: T) -> GeomResult<MassProperties<T>> {
        let origin = Point3::origin();
        let y = |h: T| Point3::new(T::zero(), h, T::zero());
        match self {
            Self::Ball { radius } => MassProperties::ball(&Ball::new(origin, *radius)?, density),
            Self::Cuboid { half_extents } => MassProperties::cuboid(
                &Obb::from_rotation(origin, UnitQuaternion::identity(), *half_extents)?,
                density,
            ),
            Self::Capsule { half_height, radius } => {
                MassProperties::capsule(&Capsule::new(y(-*half_height), y(*half_height), *radius)?, density)
            }
            Self::Cylinder { half_height, radius } => {
                MassProperties::cylinder(&Cylinder::new(y(-*half_height), y(*half_height), *radius)?, density)
            }
            Self::Cone { half_height, radius } => {
                MassProperties::cone(&Cone::new(y(*half_height), y(-*half_height), *radius)?, density)
            }
            Self::Lozenge { half_x, half_z, radius } => {
                MassProperties::lozenge(&body_lozenge(*half_x, *half_z, *radius)?, density)
            }
            Self::ConvexHull(hull) => MassProperties::convex_polyhedron(hull, density),
            Self::TriangleMesh(_) | Self::HalfSpace | Self::Triangle(_) | Self::Segment(_) => {
                Err(GeomError::Degenerate)
            }
            Self::Compound(parts) => {
                let parts: Vec<MassProperties<T>> = parts
                    .iter()
                    .map(|(pose, part)| part.mass_properties(density).map(|m| m.transformed(pose)))
                    .collect::<GeomResult<_>>()?;
                MassProperties::compound(&parts)
            }
        }
    }

    /// Places the shape in the world by `pose`.
    pub(crate) fn place(&self, pose: &Isometry3<T>) -> GeomResult<Placed<T>> {
        let at = |p: Point3<T>| pose * p;
        let y = |h: T| at(Point3::new(T::zero(), h, T::zero()));
        Ok(match self {
            Self::Ball { radius } => Placed::Ball(Ball::new(at(Point3::origin()), *radius)?),
            Self::Cuboid { half_extents } => {
                Placed::Cuboid(Obb::from_rotation(at(Point3::origin()), pose.rotation, *half_extents)?)
            }
            Self::Capsule { half_height, radius } => {
                Placed::Capsule(Capsule::new(y(-*half_height), y(*half_height), *radius)?)
            }
            Self::Cylinder { half_height, radius } => {
                Placed::Cylinder(Cylinder::new(y(-*half_height), y(*half_height), *radius)?)
            }
            Self::Cone { half_height, radius } => {
                Placed::Cone(Cone::new(y(*half_height), y(-*half_height), *radius)?)
            }
            Self::Lozenge { half_x, half_z, radius } => {
                let local = body_lozenge(*half_x, *half_z, *radius)?;
                let r = &pose.rotation;
                Placed::Lozenge(Lozenge::new(at(*local.origin()), r * local.e0(), r * local.e1(), *radius)?)
            }
            Self::Triangle(t) => Placed::Triangle(Triangle::new(at(*t.a()), at(*t.b()), at(*t.c()))?),
            Self::Segment(s) => Placed::Segment(Segment::new(at(*s.a()), at(*s.b()))?),
            Self::ConvexHull(hull) => Placed::Hull(hull.clone(), *pose),
            Self::TriangleMesh(mesh) => Placed::Mesh(mesh.clone(), *pose),
            Self::HalfSpace => {
                let normal = pose.rotation * Vector3::y();
                Placed::HalfSpace(Plane::from_point_normal(at(Point3::origin()), normal)?)
            }
            Self::Compound(parts) => Placed::Compound(
                parts.iter().map(|(local, part)| part.place(&(pose * local))).collect::<GeomResult<_>>()?,
            ),
        })
    }
}

/// A shape placed in the world for one step.
#[derive(Clone, Debug)]
pub(crate) enum Placed<T: Real> {
    Ball(Ball<T, 3>),
    Cuboid(Obb<T, 3>),
    Capsule(Capsule<T, 3>),
    Cylinder(Cylinder<T>),
    Cone(Cone<T>),
    Lozenge(Lozenge<T>),
    Triangle(Triangle<T, 3>),
    Segment(Segment<T, 3>),
    Hull(Arc<ConvexPolyhedron<T>>, Isometry3<T>),
    Mesh(MeshShape<T>, Isometry3<T>),
    HalfSpace(Plane<T, 3>),
    Compound(Vec<Placed<T>>),
}

impl<T: Real> Placed<T> {
    /// The world-space box around the shape. A half-space gets a box as large as the
    /// coordinate limit allows on its solid side (it overlaps everything below its plane).
    pub(crate) fn aabb(&self) -> Aabb<T, 3> {
        let from =
            |(lo, hi): (Point<T, 3>, Point<T, 3>)| Aabb::new(lo, hi).unwrap_or_else(|_| point_box(&lo));
        // Closed forms where there is one (this runs for every moving body every step); the
        // support queries otherwise, and for large hulls, whose hill-climbing support visits
        // far fewer vertices than a pass over all of them.
        match self {
            Self::Ball(b) => cd_bv::aabb_of_ball(b).unwrap_or_else(|_| from(support_aabb(b))),
            Self::Cuboid(o) => cd_bv::aabb_of_obb(o).unwrap_or_else(|_| from(support_aabb(o))),
            Self::Capsule(c) => {
                let r = Vector3::repeat(c.radius());
                let (p, q) = (c.a(), c.b());
                from((p.inf(q) - r, p.sup(q) + r))
            }
            Self::Cylinder(c) => from(support_aabb(c)),
            Self::Cone(c) => from(support_aabb(c)),
            Self::Lozenge(l) => from(support_aabb(l)),
            Self::Triangle(t) => from(support_aabb(t)),
            Self::Segment(s) => from(support_aabb(s)),
            Self::Hull(hull, pose) if hull.vertices().len() < SMALL_HULL => {
                cd_bv::aabb_of_posed_points(hull.vertices(), pose)
                    .unwrap_or_else(|_| from(support_aabb(&Transformed::new(&**hull, *pose))))
            }
            Self::Hull(hull, pose) => from(support_aabb(&Transformed::new(&**hull, *pose))),
            Self::Mesh(mesh, pose) => {
                let local = *mesh.bvh().root_volume();
                cd_bv::transformed_aabb(&local, pose).unwrap_or(local)
            }
            Self::HalfSpace(plane) => half_space_box(plane),
            Self::Compound(parts) => parts
                .iter()
                .map(Placed::aabb)
                .reduce(|a, b| a.merged(&b))
                .unwrap_or_else(|| point_box(&Point::origin())),
        }
    }

    /// The narrow phase's view of a convex (non-mesh, non-compound) placed shape.
    pub(crate) fn narrow(&self) -> Option<Shape<'_, T>> {
        Some(match self {
            Self::Ball(b) => Shape::Ball(b),
            Self::Cuboid(o) => Shape::Box(o),
            Self::Capsule(c) => Shape::Capsule(c),
            Self::Cylinder(c) => Shape::Cylinder(c),
            Self::Cone(c) => Shape::Cone(c),
            Self::Lozenge(l) => Shape::Lozenge(l),
            Self::Triangle(t) => Shape::Triangle(t),
            Self::Segment(s) => Shape::Segment(s),
            Self::Hull(h, pose) => Shape::Hull(h, pose),
            Self::HalfSpace(p) => Shape::HalfSpace(p),
            Self::Mesh(..) | Self::Compound(_) => return None,
        })
    }
}

/// The body-frame lozenge of a [`ColliderShape::Lozenge`]: the rectangle from `(−hx, 0, −hz)`
/// spanned by `2hx` along x and `2hz` along z.
fn body_lozenge<T: Real>(hx: T, hz: T, radius: T) -> GeomResult<Lozenge<T>> {
    let two = T::lit(2.0);
    Lozenge::new(
        Point3::new(-hx, T::zero(), -hz),
        Vector3::new(two * hx, T::zero(), T::zero()),
        Vector3::new(T::zero(), T::zero(), two * hz),
        radius,
    )
}

/// Hulls with fewer vertices than this get their box from one pass over the moved vertices:
/// below cd-geom's hill-climbing threshold each of the six support calls would scan them all.
const SMALL_HULL: usize = ConvexPolyhedron::<f32>::HILL_CLIMB_MIN_VERTICES;

fn point_box<T: Real>(p: &Point<T, 3>) -> Aabb<T, 3> {
    Aabb::from_center_half_extents(*p, Vector3::zeros()).expect("a valid point makes a valid box")
}

/// A box covering the solid side of a plane within the coordinate limit: exact along an
/// axis-aligned normal, the whole world otherwise.
fn half_space_box<T: Real>(plane: &Plane<T, 3>) -> Aabb<T, 3> {
    let big = T::coord_limit() * T::lit(0.5);
    let mut lo = Point3::new(-big, -big, -big);
    let mut hi = Point3::new(big, big, big);
    let n = plane.normal();
    let axis = n.iamax();
    let aligned = n.iter().enumerate().all(|(i, x)| i == axis || *x == T::zero());
    if aligned {
        // n[axis] x[axis] + d ≤ 0.
        let bound = -plane.d() / n[axis];
        if n[axis] > T::zero() {
            hi[axis] = bound;
        } else {
            lo[axis] = bound;
        }
    }
    Aabb::new(lo, hi)
        .unwrap_or_else(|_| Aabb::new(Point3::new(-big, -big, -big), Point3::new(big, big, big)).unwrap())
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Translation3;

    /// The closed-form boxes of `Placed::aabb` against the six support queries they replace
    /// (the definition of the tightest box of a convex shape), at many poses.
    #[test]
    fn closed_form_boxes_match_support_boxes() {
        let hull_points: Vec<Point3<f64>> = (0..12)
            .map(|k| {
                let t = k as f64 * 2.399_963;
                Point3::new(t.cos() * (1.0 + 0.1 * k as f64), (k as f64 / 6.0) - 1.0, t.sin() * 0.7)
            })
            .collect();
        let hull = Arc::new(cd_bv::convex_hull_3d(&hull_points).unwrap());
        let shapes = [
            ColliderShape::ball(0.7),
            ColliderShape::cuboid(0.3, 1.2, 0.05),
            ColliderShape::capsule(0.9, 0.25),
            ColliderShape::ConvexHull(hull.clone()),
        ];
        for step in 0..200 {
            let s = step as f64;
            let axis = Vector3::new((s * 0.37).sin(), (s * 0.71).cos(), (s * 1.13).sin() + 0.2);
            let rotation = UnitQuaternion::from_scaled_axis(axis * (s * 0.173));
            let pose =
                Isometry3::from_parts(Translation3::new(s * 3.1 - 300.0, s * 0.01, -s * 7.0), rotation);
            for shape in &shapes {
                let placed = shape.place(&pose).unwrap();
                let (lo, hi) = match &placed {
                    Placed::Ball(b) => support_aabb(b),
                    Placed::Cuboid(o) => support_aabb(o),
                    Placed::Capsule(c) => support_aabb(c),
                    Placed::Hull(h, pose) => support_aabb(&Transformed::new(&**h, *pose)),
                    _ => unreachable!("only the shapes listed above"),
                };
                let got = placed.aabb();
                let tol = 1e-12 * (1.0 + s * 10.0);
                assert!(
                    (got.min() - lo).amax() <= tol && (got.max() - hi).amax() <= tol,
                    "{shape:?} at {pose:?}: {got:?} vs ({lo:?}, {hi:?})"
                );
            }
        }
    }
}
