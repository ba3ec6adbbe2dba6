//! [`MeshBvh`]: a triangle mesh with its hierarchy, and the mesh queries a user calls without
//! writing leaf tests — ray casts, triangle/triangle overlap against another mesh or itself,
//! closest points and region queries — with cd-geom's triangle tests plugged into the generic
//! traversals of [`query`](crate::query).

use crate::build::BuildConfig;
use crate::bvh::Bvh;
use crate::error::MidResult;
use crate::mesh::TriMesh;
use crate::motion::Motion;
use crate::query::{self, Front, QueryWorkspace, Refinement, TimeCriticalResult};
use crate::volume::HierarchyVolume;
use crate::wide::{Visit, WideBvh};
use cd_geom::{
    closest_point_on_triangle, closest_points_triangle_triangle, triangle_aabb, triangle_triangle, Aabb,
    Frustum, Point, Ray, Real, Triangle, WatertightRay,
};

/// A ray's hit on a mesh.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshRayHit<T: Real> {
    /// Index of the triangle hit.
    pub triangle: u32,
    /// Ray parameter of the hit.
    pub t: T,
    /// Barycentric weight of the triangle's second vertex.
    pub u: T,
    /// Barycentric weight of the triangle's third vertex.
    pub v: T,
}

/// The closest points of two meshes (or of a point and a mesh).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshClosest<T: Real> {
    /// Triangle of the first mesh (for a point query: the triangle closest to the point).
    pub triangle_a: u32,
    /// Triangle of the second mesh (equal to `triangle_a` for a point query).
    pub triangle_b: u32,
    /// Closest point on the first mesh, in its frame.
    pub point_a: Point<T, 3>,
    /// Closest point on the second mesh, in the *first* mesh's frame.
    pub point_b: Point<T, 3>,
    /// Their distance.
    pub distance: T,
}

/// A triangle mesh with a hierarchy over its triangles, volumes of type `B`.
#[derive(Clone, Debug)]
pub struct MeshBvh<T: Real, B> {
    mesh: TriMesh<T>,
    bvh: Bvh<T, 3, B>,
    /// The same tree collapsed to 8-wide AABB nodes: what ray casts traverse (faster than the
    /// binary tree for every volume type; see docs/benchmarks.md).
    wide: WideBvh<T, 8>,
    /// The triangles with their corners resolved, so leaf tests read one contiguous record
    /// instead of three vertex indices.
    triangles: Vec<Triangle<T, 3>>,
}

impl<T: Real, B: HierarchyVolume<T, 3>> MeshBvh<T, B> {
    /// Builds the hierarchy with the default configuration. Errors: an empty mesh.
    pub fn new(mesh: TriMesh<T>) -> MidResult<Self> {
        MeshBvh::with_config(mesh, &BuildConfig::default())
    }

    /// Builds the hierarchy with `config`.
    pub fn with_config(mesh: TriMesh<T>, config: &BuildConfig) -> MidResult<Self> {
        let bvh = Bvh::build(&mesh, config)?;
        let wide = WideBvh::from_binary(&bvh);
        let triangles = (0..mesh.len()).map(|i| mesh.triangle(i)).collect();
        Ok(MeshBvh { mesh, bvh, wide, triangles })
    }

    /// The mesh.
    pub fn mesh(&self) -> &TriMesh<T> {
        &self.mesh
    }

    /// The hierarchy.
    pub fn bvh(&self) -> &Bvh<T, 3, B> {
        &self.bvh
    }

    /// Triangle `i` of the mesh.
    #[inline(always)]
    fn tri(&self, i: u32) -> &Triangle<T, 3> {
        &self.triangles[i as usize]
    }

    fn tree(&self) -> (&[crate::Node<B>], &[u32]) {
        (self.bvh.nodes(), self.bvh.primitive_order())
    }

    /// Replaces the vertex positions (same connectivity) and refits the hierarchy bottom-up.
    /// Returns the number of volumes updated. Errors: a different vertex count, an invalid
    /// coordinate (the model is unchanged then).
    pub fn deform(&mut self, vertices: Vec<Point<T, 3>>) -> MidResult<u64> {
        let mesh = self.mesh.with_vertices(vertices)?;
        let mut bvh = self.bvh.clone();
        let n = bvh.refit(&mesh)?;
        self.wide = WideBvh::from_binary(&bvh);
        self.triangles = (0..mesh.len()).map(|i| mesh.triangle(i)).collect();
        self.mesh = mesh;
        self.bvh = bvh;
        Ok(n)
    }

    /// The closest hit of `ray` (within its `max_t`), watertight and double-sided; traverses
    /// the 8-wide copy of the tree.
    pub fn cast_ray(&self, ray: &Ray<T, 3>, ws: &mut QueryWorkspace<T>) -> Option<MeshRayHit<T>> {
        let mut best = None;
        self.wide.ray_closest(ray, ws, self.closest_hit_leaf(ray, &mut best));
        best
    }

    /// The closest hit by the binary tree's traversal (the scalar reference the wide one is
    /// tested against).
    pub fn cast_ray_binary(&self, ray: &Ray<T, 3>, ws: &mut QueryWorkspace<T>) -> Option<MeshRayHit<T>> {
        let mut best = None;
        let (nodes, order) = self.tree();
        query::ray_closest(nodes, order, ray, ws, self.closest_hit_leaf(ray, &mut best));
        best
    }

    /// The closest-hit leaf test: a triangle's hit parameter, remembering the nearest hit with
    /// its barycentric coordinates in `best`.
    fn closest_hit_leaf<'a>(
        &'a self,
        ray: &'a Ray<T, 3>,
        best: &'a mut Option<MeshRayHit<T>>,
    ) -> impl FnMut(u32, T) -> Option<T> + 'a {
        let prepared = WatertightRay::new(ray);
        move |tri, limit| {
            // Hits beyond the current best are dropped before their division.
            let h = prepared.hit_within(self.tri(tri), limit)?;
            if h.t <= limit && best.is_none_or(|b| h.t < b.t) {
                *best = Some(MeshRayHit { triangle: tri, t: h.t, u: h.u, v: h.v });
            }
            Some(h.t)
        }
    }

    /// Does `ray` hit the mesh within its `max_t`? Stops at the first hit found; traverses the
    /// 8-wide copy of the tree.
    pub fn ray_hits(&self, ray: &Ray<T, 3>, ws: &mut QueryWorkspace<T>) -> bool {
        let prepared = WatertightRay::new(ray);
        self.wide.ray_any(ray, ws, |tri, _| prepared.hit(self.tri(tri)).map(|h| h.t)).is_some()
    }

    /// Every hit of `ray` within its `max_t`, nearest first; traverses the 8-wide copy of the
    /// tree.
    pub fn cast_ray_all(&self, ray: &Ray<T, 3>, ws: &mut QueryWorkspace<T>) -> Vec<MeshRayHit<T>> {
        let mut hits = Vec::new();
        let prepared = WatertightRay::new(ray);
        // The walk itself, not `WideBvh::ray_all`: that one collects and sorts its own list of
        // (triangle, t), which would be built and thrown away beside this one.
        self.wide.walk(ray, ws, |tri, limit| {
            if let Some(h) = prepared.hit(self.tri(tri)).filter(|h| h.t <= limit) {
                hits.push(MeshRayHit { triangle: tri, t: h.t, u: h.u, v: h.v });
            }
            Visit::Limit(limit)
        });
        hits.sort_by(|a, b| {
            a.t.partial_cmp(&b.t).unwrap_or(core::cmp::Ordering::Equal).then(a.triangle.cmp(&b.triangle))
        });
        hits
    }

    /// Triangle `j` of `other`, carried into this mesh's frame; `None` when the motion takes
    /// it beyond the coordinate range (no valid geometry there: such pairs are not reported).
    #[inline]
    fn moved(other: &MeshBvh<T, B>, j: u32, motion: &Motion<T, 3>, identity: bool) -> Option<Triangle<T, 3>> {
        let t = *other.tri(j);
        if identity {
            return Some(t);
        }
        let [a, b, c] = t.vertices().map(|p| motion.transform_point(&p));
        Triangle::new(a, b, c).ok()
    }

    /// The leaf test of the overlap queries: does triangle `i` of `self` meet triangle `j` of
    /// `other` carried by `motion`?
    #[inline]
    fn triangles_meet(
        &self,
        other: &MeshBvh<T, B>,
        i: u32,
        j: u32,
        motion: &Motion<T, 3>,
        identity: bool,
    ) -> bool {
        Self::moved(other, j, motion, identity)
            .is_some_and(|b| triangle_triangle(self.tri(i), &b).intersects())
    }

    /// Every pair (triangle of `self`, triangle of `other`) that intersects (touching
    /// counts), `other` placed in this mesh's frame by `motion` (`Motion::relative(pose_self,
    /// pose_other)`). Sorted.
    pub fn overlapping_triangles(
        &self,
        other: &MeshBvh<T, B>,
        motion: &Motion<T, 3>,
        ws: &mut QueryWorkspace<T>,
    ) -> Vec<(u32, u32)> {
        let identity = motion.is_identity();
        query::overlapping_pairs(self.tree(), other.tree(), motion, ws, |i, j| {
            self.triangles_meet(other, i, j, motion, identity)
        })
    }

    /// As [`overlapping_triangles`](Self::overlapping_triangles), restarting from the front
    /// saved by the previous call (front tracking; reset it after `deform`).
    pub fn overlapping_triangles_from_front(
        &self,
        other: &MeshBvh<T, B>,
        motion: &Motion<T, 3>,
        front: &mut Front,
        ws: &mut QueryWorkspace<T>,
    ) -> Vec<(u32, u32)> {
        let identity = motion.is_identity();
        query::overlapping_pairs_from_front(self.tree(), other.tree(), motion, front, ws, |i, j| {
            self.triangles_meet(other, i, j, motion, identity)
        })
    }

    /// Time-critical overlap: at most `budget` volume tests, refined in `order`; see
    /// [`TimeCriticalResult`].
    pub fn overlapping_triangles_time_critical(
        &self,
        other: &MeshBvh<T, B>,
        motion: &Motion<T, 3>,
        budget: u64,
        order: Refinement,
        ws: &mut QueryWorkspace<T>,
    ) -> TimeCriticalResult {
        let identity = motion.is_identity();
        query::overlapping_pairs_time_critical(
            self.tree(),
            other.tree(),
            motion,
            budget,
            order,
            ws,
            |i, j| self.triangles_meet(other, i, j, motion, identity),
        )
    }

    /// The first intersecting triangle pair found, if any (early exit).
    pub fn first_overlap(
        &self,
        other: &MeshBvh<T, B>,
        motion: &Motion<T, 3>,
        ws: &mut QueryWorkspace<T>,
    ) -> Option<(u32, u32)> {
        let identity = motion.is_identity();
        query::first_overlap(self.tree(), other.tree(), motion, ws, |i, j| {
            self.triangles_meet(other, i, j, motion, identity)
        })
    }

    /// Self-intersections: pairs `(i, j)`, `i < j`, of intersecting triangles, skipping pairs
    /// that share a vertex unless `include_neighbors` (neighbours always touch).
    pub fn self_intersections(&self, include_neighbors: bool, ws: &mut QueryWorkspace<T>) -> Vec<(u32, u32)> {
        let (nodes, order) = self.tree();
        query::self_overlapping_pairs(nodes, order, ws, |i, j| {
            if !include_neighbors && self.mesh.share_vertex(i as usize, j as usize) {
                return false;
            }
            triangle_triangle(self.tri(i), self.tri(j)).intersects()
        })
    }

    /// The point of the mesh closest to `p`, if within `max_dist`.
    pub fn closest_point(
        &self,
        p: &Point<T, 3>,
        max_dist: T,
        ws: &mut QueryWorkspace<T>,
    ) -> Option<MeshClosest<T>> {
        let (nodes, order) = self.tree();
        let mut best: Option<MeshClosest<T>> = None;
        query::closest_to_point(nodes, order, p, max_dist, ws, |tri, limit| {
            let (q, _, _) = closest_point_on_triangle(p, self.tri(tri));
            let d = (q - p).norm();
            if d <= limit && best.is_none_or(|b| d < b.distance) {
                best = Some(MeshClosest {
                    triangle_a: tri,
                    triangle_b: tri,
                    point_a: q,
                    point_b: q,
                    distance: d,
                });
            }
            Some(d)
        });
        best
    }

    /// The closest points between this mesh and `other` placed by `motion`, if within
    /// `max_dist` (distance 0 when they intersect).
    pub fn closest_points(
        &self,
        other: &MeshBvh<T, B>,
        motion: &Motion<T, 3>,
        max_dist: T,
        ws: &mut QueryWorkspace<T>,
    ) -> Option<MeshClosest<T>> {
        let identity = motion.is_identity();
        let mut best: Option<MeshClosest<T>> = None;
        query::closest_pair(self.tree(), other.tree(), motion, max_dist, ws, |i, j, limit| {
            let b = Self::moved(other, j, motion, identity)?;
            let c = closest_points_triangle_triangle(self.tri(i), &b);
            let d = c.distance_squared.sqrt();
            if d <= limit && best.is_none_or(|x| d < x.distance) {
                best = Some(MeshClosest {
                    triangle_a: i,
                    triangle_b: j,
                    point_a: c.a,
                    point_b: c.b,
                    distance: d,
                });
            }
            Some(d)
        });
        best
    }

    /// Triangles meeting the box `region`, sorted.
    pub fn triangles_in_aabb(&self, region: &Aabb<T, 3>, ws: &mut QueryWorkspace<T>) -> Vec<u32> {
        let mut out = Vec::new();
        self.triangles_in_aabb_into(region, ws, &mut out);
        out
    }

    /// [`triangles_in_aabb`](Self::triangles_in_aabb) into a caller's buffer (cleared first),
    /// so a query per frame allocates nothing once the buffer has grown.
    pub fn triangles_in_aabb_into(
        &self,
        region: &Aabb<T, 3>,
        ws: &mut QueryWorkspace<T>,
        out: &mut Vec<u32>,
    ) {
        out.clear();
        // The 8-wide tree's boxes are quantized outwards, so a leaf lane may reach a little
        // past its triangles; `triangle_aabb` decides those exactly (its first test is the
        // triangle's own box against the region, in world coordinates).
        self.wide.query_aabb(region, ws, |tri, inside| {
            if inside || triangle_aabb(self.tri(tri), region) {
                out.push(tri);
            }
        });
        out.sort_unstable();
    }

    /// The triangles meeting the box `region` by the binary tree's walk (the scalar reference
    /// [`triangles_in_aabb`](Self::triangles_in_aabb) is tested against), sorted.
    pub fn triangles_in_aabb_binary(&self, region: &Aabb<T, 3>, ws: &mut QueryWorkspace<T>) -> Vec<u32> {
        let (nodes, order) = self.tree();
        let mut out = Vec::new();
        query::query_aabb(nodes, order, region, ws, |tri, inside| {
            if inside || triangle_aabb(self.tri(tri), region) {
                out.push(tri);
            }
        });
        out.sort_unstable();
        out
    }

    /// Triangles whose nodes survive frustum culling (conservative: a triangle outside the
    /// frustum near its corner may be listed, one inside never is omitted), sorted.
    pub fn triangles_in_frustum(&self, frustum: &Frustum<T>, ws: &mut QueryWorkspace<T>) -> Vec<u32> {
        let (nodes, order) = self.tree();
        let mut out = Vec::new();
        query::query_frustum(nodes, order, frustum, ws, |tri, _| out.push(tri));
        out.sort_unstable();
        out
    }
}
