//! Shape casts against triangle meshes: cd-ccd's GJK shape cast driven through cd-mid's
//! hierarchy (the two layers do not know each other, so the facade joins them).
//!
//! The moving shape's box is swept along the relative velocity like a ray through the tree: a
//! node is entered when the ray from the box's centre meets the node's box grown by the
//! shape's half extents (the Minkowski sum of the two boxes). Nodes are visited nearest entry
//! first and skipped once they are entered after the best time of impact found so far; each
//! triangle of a visited leaf is cast exactly, with the best time as its limit.

use cd_ccd::{shape_cast, CastConfig, LinearMotion, Toi};
use cd_geom::{support_aabb, Aabb, Point, PreparedRay, Ray, Real, SupportMap, Vector};
use cd_mid::{query, HierarchyVolume, MeshBvh, QueryWorkspace};

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
/// in time proportional to the triangles near the swept path. The traversal is cd-mid's
/// nearest-first [`query::closest_by_entry`]; `ws` holds its stack between queries (no
/// allocation once grown) and counts the node and triangle tests.
///
/// ```
/// use cd::ccd::{CastConfig, LinearMotion};
/// use cd::mesh_cast::cast_shape_mesh;
/// use cd::mid::{MeshBvh, QueryWorkspace, TriMesh};
/// use nalgebra::{Point3, Vector3};
/// // A floor of two triangles at y = 0 and a ball of radius 0.5 (a point core) falling on it.
/// let floor = TriMesh::new(
///     vec![Point3::new(-5.0f64, 0.0, -5.0), Point3::new(5.0, 0.0, -5.0), Point3::new(5.0, 0.0, 5.0), Point3::new(-5.0, 0.0, 5.0)],
///     vec![[0, 1, 2], [0, 2, 3]],
/// ).unwrap();
/// let mesh: MeshBvh<f64, cd::geom::Aabb<f64, 3>> = MeshBvh::new(floor).unwrap();
/// let fall = LinearMotion::of_a(Vector3::new(0.0, -10.0, 0.0), 1.0).unwrap();
/// let mut ws = QueryWorkspace::new();
/// let hit = cast_shape_mesh(&Point3::new(1.0, 3.0, 1.0), 0.5, &mesh, &fall, &CastConfig::default(), &mut ws).unwrap();
/// assert!((hit.toi.time - 0.25).abs() < 1e-6); // 2.5 to fall at 10 per unit time
/// ```
pub fn cast_shape_mesh<T, S, B>(
    shape: &S,
    radius: T,
    mesh: &MeshBvh<T, B>,
    motion: &LinearMotion<T, 3>,
    config: &CastConfig<T>,
    ws: &mut QueryWorkspace<T>,
) -> Option<MeshCastHit<T>>
where
    T: Real,
    S: SupportMap<T, 3> + ?Sized,
    B: HierarchyVolume<T, 3>,
{
    let sweep = BoxSweep::new(shape, radius, motion, config);
    let mut best: Option<MeshCastHit<T>> = None;
    let entry = |volume: &B, limit: T| sweep.entry(&volume.bounding_aabb(), limit);
    let leaf = |p: u32, limit: T| {
        let toi = shape_cast(
            shape,
            radius,
            &mesh.mesh().triangle(p as usize),
            T::zero(),
            &motion.until(limit).ok()?,
            config,
        )?;
        // The traversal keeps the earliest strictly smaller time; keep its impact with it.
        if best.is_none_or(|b| toi.time < b.toi.time) {
            best = Some(MeshCastHit { toi, triangle: p });
        }
        Some(toi.time)
    };
    let bvh = mesh.bvh();
    query::closest_by_entry(bvh.nodes(), bvh.primitive_order(), motion.max_time(), ws, entry, leaf)?;
    best
}

/// The shape's box swept along the relative velocity, as a ray from its centre against node
/// boxes grown by its half extents.
struct BoxSweep<T: Real> {
    center: Point<T, 3>,
    half: Vector<T, 3>,
    /// The centre's path over the whole step (direction = the displacement, so its parameter
    /// is the fraction of `duration`); `None` when the displacement is below the coordinate
    /// resolution (then a node is entered at time 0 or never).
    ray: Option<PreparedRay<T, 3>>,
    duration: T,
}

impl<T: Real> BoxSweep<T> {
    fn new<S: SupportMap<T, 3> + ?Sized>(
        shape: &S,
        radius: T,
        motion: &LinearMotion<T, 3>,
        config: &CastConfig<T>,
    ) -> Self {
        let radius = if radius.is_finite() && radius > T::zero() { radius } else { T::zero() };
        let (lo, hi) = support_aabb(shape);
        let half = (hi - lo) * T::lit(0.5) + Vector::repeat(radius);
        // The shape cast declares contact within its tolerance: grow the box by as much (and
        // by rounding of the coordinates) so no triangle it would report is culled.
        let scale = T::one() + hi.coords.abs().max() + lo.coords.abs().max() + radius;
        let slack = config.rel_tolerance * half.norm() + T::epsilon() * T::lit(8.0) * scale;
        let center = nalgebra::center(&lo, &hi);
        let duration = motion.max_time();
        let ray = Ray::new(center, motion.relative_velocity() * duration).ok().map(|r| PreparedRay::new(&r));
        Self { center, half: half.add_scalar(slack), ray, duration }
    }

    /// The time in `[0, max_t]` at which the swept box first meets `aabb`, if it does.
    fn entry(&self, aabb: &Aabb<T, 3>, max_t: T) -> Option<T> {
        let (lo, hi) = (aabb.min() - self.half, aabb.max() + self.half);
        match &self.ray {
            Some(ray) => ray.enter_box(&lo, &hi, max_t / self.duration).map(|s| s * self.duration),
            None => (0..3).all(|i| self.center[i] >= lo[i] && self.center[i] <= hi[i]).then_some(T::zero()),
        }
    }
}
