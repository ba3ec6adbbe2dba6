//! Shape casts against triangle meshes: cd-ccd's GJK shape cast driven through cd-mid's
//! hierarchy (the two layers do not know each other, so the facade joins them).
//!
//! The moving shape's box is swept along the relative velocity like a ray through the tree: a
//! node is entered when the ray from the box's centre meets the node's box grown by the
//! shape's half extents (the Minkowski sum of the two boxes). Nodes are visited nearest entry
//! first and skipped once they are entered after the best time of impact found so far; each
//! triangle of a visited leaf is cast exactly, with the best time as its limit.

use cd_ccd::{shape_cast, CastConfig, LinearMotion, Toi};
use cd_geom::{Point, Real, SupportMap, Vector};
use cd_mid::{BvhNode, HierarchyVolume, MeshBvh};

/// The first triangle a cast shape hits, and the impact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshCastHit<T: Real> {
    /// The time of impact and the contact (A = the shape, B = the mesh).
    pub toi: Toi<T, 3>,
    /// Index of the triangle hit first (the lowest index among triangles hit at the same time
    /// is not guaranteed; any of them may be reported).
    pub triangle: u32,
}

/// Casts a convex shape (a core support map grown by `radius`, given in the mesh's frame at
/// time 0) against a triangle mesh along `motion` (A = the shape, B = the mesh). `None` when
/// it reaches no triangle during `[0, max_time]`.
///
/// To cast a shape placed by `pose_shape` against a mesh placed by `pose_mesh`, pass
/// `Transformed::new(shape, pose_mesh.inv_mul(&pose_shape))` and the velocities rotated into
/// the mesh's frame; the answer's points and normal are then in the mesh's frame too.
///
/// Exact to the shape cast's tolerance: the same answer as casting against every triangle,
/// in time proportional to the triangles near the swept path.
///
/// ```
/// use cd::ccd::{CastConfig, LinearMotion};
/// use cd::mesh_cast::cast_shape_mesh;
/// use cd::mid::{MeshBvh, TriMesh};
/// use nalgebra::{Point3, Vector3};
/// // A floor of two triangles at y = 0 and a ball of radius 0.5 (a point core) falling on it.
/// let floor = TriMesh::new(
///     vec![Point3::new(-5.0f64, 0.0, -5.0), Point3::new(5.0, 0.0, -5.0), Point3::new(5.0, 0.0, 5.0), Point3::new(-5.0, 0.0, 5.0)],
///     vec![[0, 1, 2], [0, 2, 3]],
/// ).unwrap();
/// let mesh: MeshBvh<f64, cd::geom::Aabb<f64, 3>> = MeshBvh::new(floor).unwrap();
/// let fall = LinearMotion::of_a(Vector3::new(0.0, -10.0, 0.0), 1.0).unwrap();
/// let hit = cast_shape_mesh(&Point3::new(1.0, 3.0, 1.0), 0.5, &mesh, &fall, &CastConfig::default()).unwrap();
/// assert!((hit.toi.time - 0.25).abs() < 1e-6); // 2.5 to fall at 10 per unit time
/// ```
pub fn cast_shape_mesh<T, S, B>(
    shape: &S,
    radius: T,
    mesh: &MeshBvh<T, B>,
    motion: &LinearMotion<T, 3>,
    config: &CastConfig<T>,
) -> Option<MeshCastHit<T>>
where
    T: Real,
    S: SupportMap<T, 3> + ?Sized,
    B: HierarchyVolume<T, 3>,
{
    let nodes = mesh.bvh().nodes();
    let order = mesh.bvh().primitive_order();
    if nodes.is_empty() {
        return None;
    }
    let sweep = BoxSweep::new(shape, radius, motion, config);
    let mut best: Option<MeshCastHit<T>> = None;
    let mut best_t = motion.max_time();
    let mut stack: Vec<(T, usize)> = Vec::new();
    if let Some(t) = sweep.entry(&nodes[0].volume().bounding_aabb(), best_t) {
        stack.push((t, 0));
    }
    while let Some((entry, n)) = stack.pop() {
        if entry > best_t {
            continue;
        }
        let node = &nodes[n];
        if node.is_leaf() {
            for &p in &order[node.primitives()] {
                let tri = mesh.mesh().triangle(p as usize);
                let limited = LinearMotion::new(*motion.velocity_a(), *motion.velocity_b(), best_t).ok()?;
                if let Some(toi) = shape_cast(shape, radius, &tri, T::zero(), &limited, config) {
                    if best.is_none() || toi.time < best_t {
                        best_t = toi.time;
                        best = Some(MeshCastHit { toi, triangle: p });
                    }
                }
            }
            continue;
        }
        // Push the farther child first so the nearer one is visited next.
        let mut children: [(Option<T>, usize); 2] = [(None, 0); 2];
        for (slot, c) in children.iter_mut().zip(node.children()) {
            *slot = (sweep.entry(&nodes[c].volume().bounding_aabb(), best_t), c);
        }
        children.sort_by(|x, y| y.0.partial_cmp(&x.0).unwrap_or(core::cmp::Ordering::Equal));
        for (t, c) in children.into_iter().filter_map(|(t, c)| t.map(|t| (t, c))) {
            stack.push((t, c));
        }
    }
    best
}

/// The shape's box swept along the relative velocity, as a ray from its centre against node
/// boxes grown by its half extents.
struct BoxSweep<T: Real> {
    center: Point<T, 3>,
    half: Vector<T, 3>,
    velocity: Vector<T, 3>,
}

impl<T: Real> BoxSweep<T> {
    fn new<S: SupportMap<T, 3> + ?Sized>(
        shape: &S,
        radius: T,
        motion: &LinearMotion<T, 3>,
        config: &CastConfig<T>,
    ) -> Self {
        let radius = if radius.is_finite() && radius > T::zero() { radius } else { T::zero() };
        let (mut lo, mut hi) = (Vector::<T, 3>::zeros(), Vector::<T, 3>::zeros());
        for i in 0..3 {
            let e = Vector::<T, 3>::from_fn(|k, _| if k == i { T::one() } else { T::zero() });
            hi[i] = shape.support(&e)[i] + radius;
            lo[i] = shape.support(&-e)[i] - radius;
        }
        let half = (hi - lo) * T::lit(0.5);
        // The shape cast declares contact within its tolerance: grow the box by as much (and
        // by rounding of the coordinates) so no triangle it would report is culled.
        let slack = config.rel_tolerance * half.norm()
            + T::epsilon() * T::lit(8.0) * (T::one() + hi.abs().max() + lo.abs().max());
        Self {
            center: Point::from((lo + hi) * T::lit(0.5)),
            half: half.add_scalar(slack),
            velocity: motion.relative_velocity(),
        }
    }

    /// The time in `[0, max_t]` at which the swept box first meets `aabb`, if it does.
    fn entry(&self, aabb: &cd_geom::Aabb<T, 3>, max_t: T) -> Option<T> {
        let (mut t0, mut t1) = (T::zero(), max_t);
        for i in 0..3 {
            let lo = aabb.min()[i] - self.half[i] - self.center[i];
            let hi = aabb.max()[i] + self.half[i] - self.center[i];
            let v = self.velocity[i];
            if v == T::zero() {
                if lo > T::zero() || hi < T::zero() {
                    return None;
                }
                continue;
            }
            let (a, b) = (lo / v, hi / v);
            t0 = t0.max(a.min(b));
            t1 = t1.min(a.max(b));
            if t0 > t1 {
                return None;
            }
        }
        Some(t0)
    }
}
