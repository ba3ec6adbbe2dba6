//! The mid and narrow phases of one pair: convex pairs go straight to cd-narrow's manifold
//! dispatcher; a triangle mesh is narrowed to the triangles its partner's box meets through
//! the mesh's hierarchy (cd-mid) and each triangle is a convex pair; a compound is its parts.
//!
//! Every manifold point's feature id is salted with the triangle or part it came from, so warm
//! starting matches the same contact on the same triangle from step to step.

use cd_geom::{aabb_aabb, Aabb, Real};
use cd_geom::{Contact, ContactStatus, Triangle};
use cd_mid::QueryWorkspace;
use cd_narrow::{fix_internal_edge, manifold, Manifold, NarrowError, PairCache, Shape, TriangleNeighbors};
use nalgebra::Vector3;

use crate::posed::{mesh_triangle, mesh_triangles_in};
use crate::world::shape::Placed;

/// Work counters of the mid and narrow phases.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairWork {
    /// Triangles (of meshes) and parts (of compounds) the mid phase passed on.
    pub mid_candidates: usize,
    /// Narrow-phase manifold queries run.
    pub narrow_tests: usize,
}

/// Scratch shared by all pairs of a step.
pub(crate) struct PairScratch<T: Real> {
    pub(crate) ws: QueryWorkspace<T>,
    manifold: Manifold<T, 3>,
    /// The triangles of the mesh pair being processed.
    triangles: Vec<u32>,
}

impl<T: Real> Default for PairScratch<T> {
    fn default() -> Self {
        Self { ws: QueryWorkspace::new(), manifold: Manifold::default(), triangles: Vec::new() }
    }
}

/// Mixes the sub-shape index into a point's feature id (odd multiplier: distinct salts give
/// distinct ids for equal point ids).
fn salted(id: u32, salt: u32) -> u32 {
    id ^ salt.wrapping_add(1).wrapping_mul(0x9E37_79B9)
}

/// What every sub-pair of one body pair shares: the prediction distance, scratch space, the
/// work counters and the output.
struct PairRun<'s, T: Real> {
    prediction: T,
    smooth_edges: bool,
    scratch: &'s mut PairScratch<T>,
    work: &'s mut PairWork,
    out: &'s mut Vec<Manifold<T, 3>>,
}

/// A placed shape with its world box (computed once per pose, reused by every pair).
pub(crate) type Boxed<'a, T> = (&'a Placed<T>, &'a Aabb<T, 3>);

/// Appends the manifolds of `a` and `b` (normals from A to B) to `out`. Pairs with nothing to
/// test (two meshes, two half-spaces, a mesh and a half-space: only static geometry has them)
/// produce none.
#[allow(clippy::too_many_arguments)]
pub(crate) fn pair_manifolds<T: Real>(
    a: Boxed<'_, T>,
    b: Boxed<'_, T>,
    prediction: T,
    smooth_edges: bool,
    cache: &mut PairCache<T>,
    scratch: &mut PairScratch<T>,
    work: &mut PairWork,
    out: &mut Vec<Manifold<T, 3>>,
) -> Result<(), NarrowError> {
    PairRun { prediction, smooth_edges, scratch, work, out }.sub_pair(a, b, cache, 0)
}

impl<T: Real> PairRun<'_, T> {
    fn sub_pair(
        &mut self,
        (a, a_box): Boxed<'_, T>,
        (b, b_box): Boxed<'_, T>,
        cache: &mut PairCache<T>,
        salt: u32,
    ) -> Result<(), NarrowError> {
        match (a, b) {
            (Placed::Compound(parts), _) => {
                let reach = grown(b_box, self.prediction);
                for (i, part) in parts.iter().enumerate() {
                    let part_box = part.aabb();
                    if aabb_aabb(&part_box, &reach) {
                        self.work.mid_candidates += 1;
                        // Each part gets its own cache: warm-starting one part from another's
                        // simplex would only slow GJK down.
                        let next = salt.wrapping_mul(31).wrapping_add(i as u32 + 1);
                        self.sub_pair((part, &part_box), (b, b_box), &mut PairCache::default(), next)?;
                    }
                }
                Ok(())
            }
            (_, Placed::Compound(_)) => self.flipped((b, b_box), (a, a_box), cache, salt),
            (Placed::Mesh(..), Placed::Mesh(..) | Placed::HalfSpace(_))
            | (Placed::HalfSpace(_), Placed::Mesh(..)) => Ok(()),
            (Placed::Mesh(mesh, pose), other) => {
                let convex = other.narrow().expect("meshes and compounds are handled above");
                // The partner's world box, taken into the mesh's frame (the box of the rotated box).
                let world = grown(b_box, self.prediction);
                let mut triangles = std::mem::take(&mut self.scratch.triangles);
                if mesh_triangles_in(mesh, pose, &world, &mut self.scratch.ws, &mut triangles).is_err() {
                    self.scratch.triangles = triangles;
                    return Ok(());
                }
                for &t in &triangles {
                    self.work.mid_candidates += 1;
                    let Some(world_tri) = mesh_triangle(mesh, pose, t) else { continue };
                    let before = self.out.len();
                    self.narrow(Shape::Triangle(&world_tri), convex, &mut PairCache::default(), salt ^ t)?;
                    if self.smooth_edges && self.out.len() > before {
                        let neighbors =
                            mesh.neighbors(t).normals.map(|n| n.map(|n| pose.rotation.transform_vector(&n)));
                        let last = self.out.len() - 1;
                        smooth_edge(
                            &mut self.out[last],
                            &world_tri,
                            &TriangleNeighbors { normals: neighbors },
                        );
                    }
                }
                self.scratch.triangles = triangles;
                Ok(())
            }
            (_, Placed::Mesh(..)) => self.flipped((b, b_box), (a, a_box), cache, salt),
            (Placed::HalfSpace(_), Placed::HalfSpace(_)) => Ok(()),
            _ => {
                let (Some(x), Some(y)) = (a.narrow(), b.narrow()) else { return Ok(()) };
                self.narrow(x, y, cache, salt)
            }
        }
    }

    /// `sub_pair(b, a)` with its manifolds turned back into A→B.
    fn flipped(
        &mut self,
        b: Boxed<'_, T>,
        a: Boxed<'_, T>,
        cache: &mut PairCache<T>,
        salt: u32,
    ) -> Result<(), NarrowError> {
        let first = self.out.len();
        self.sub_pair(b, a, cache, salt)?;
        for m in &mut self.out[first..] {
            *m = m.flipped();
        }
        Ok(())
    }

    fn narrow(
        &mut self,
        a: Shape<'_, T>,
        b: Shape<'_, T>,
        cache: &mut PairCache<T>,
        salt: u32,
    ) -> Result<(), NarrowError> {
        self.work.narrow_tests += 1;
        let found = &mut self.scratch.manifold;
        manifold(a, b, self.prediction, cache, found)?;
        if found.is_empty() {
            return Ok(());
        }
        let mut m = Manifold::new(found.normal);
        for p in found.points() {
            m.push(cd_narrow::ManifoldPoint { id: salted(p.id, salt), ..*p });
        }
        self.out.push(m);
        Ok(())
    }
}

/// A triangle's manifold (A = the triangle) whose deepest contact leans across an interior
/// edge gets the triangle's face normal instead ([`fix_internal_edge`]), every point's distance
/// re-measured along it: a body sliding over the shared edge of two flat triangles is not
/// bumped by it.
fn smooth_edge<T: Real>(m: &mut Manifold<T, 3>, triangle: &Triangle<T, 3>, neighbors: &TriangleNeighbors<T>) {
    let Some(deepest) = m.deepest().copied() else { return };
    // fix_internal_edge wants the triangle as B.
    let mut contact = Contact {
        point_a: deepest.point_b,
        point_b: deepest.point_a,
        normal: -m.normal,
        distance: deepest.distance,
        status: ContactStatus::Converged,
    };
    if !fix_internal_edge(&mut contact, triangle, neighbors) {
        return;
    }
    let n = -contact.normal;
    let mut fixed = Manifold::new(n);
    for p in m.points() {
        // Keep the point on the triangle; the shape's point moves along the new normal.
        let distance = n.dot(&(p.point_b - p.point_a));
        fixed.push(cd_narrow::ManifoldPoint { point_b: p.point_a + n * distance, distance, ..*p });
    }
    *m = fixed;
}

/// `aabb` grown by `by` on every side (the prediction margin).
pub(crate) fn grown<T: Real>(aabb: &Aabb<T, 3>, by: T) -> Aabb<T, 3> {
    let d = Vector3::repeat(by);
    Aabb::new(aabb.min() - d, aabb.max() + d).unwrap_or(*aabb)
}
