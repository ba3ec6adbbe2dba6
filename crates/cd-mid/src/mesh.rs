//! [`TriMesh`]: an indexed triangle mesh, the primitive set most hierarchies are built over.

use crate::error::{MidError, MidResult};
use crate::primitives::Primitives;
use cd_geom::{Aabb, GeomResult, Point, Real, Triangle};

/// An indexed triangle mesh in 3D: shared vertices and triangles as vertex-index triples.
///
/// Degenerate (zero-area) triangles are kept: they are valid primitives (a ray can graze them,
/// another triangle can touch them) and dropping them would change a user's model.
#[derive(Clone, Debug, PartialEq)]
pub struct TriMesh<T: Real> {
    vertices: Vec<Point<T, 3>>,
    triangles: Vec<[u32; 3]>,
}

impl<T: Real> TriMesh<T> {
    /// A mesh from vertices and index triples. Errors: an invalid vertex coordinate, an index
    /// out of range, more than `u32::MAX` vertices.
    pub fn new(vertices: Vec<Point<T, 3>>, triangles: Vec<[u32; 3]>) -> MidResult<Self> {
        if vertices.len() > u32::MAX as usize || triangles.len() > u32::MAX as usize {
            return Err(MidError::TooManyPrimitives);
        }
        for v in &vertices {
            Aabb::from_points([v])?;
        }
        for (t, tri) in triangles.iter().enumerate() {
            if let Some(&index) = tri.iter().find(|&&i| i as usize >= vertices.len()) {
                return Err(MidError::IndexOutOfRange { triangle: t, index });
            }
        }
        Ok(TriMesh { vertices, triangles })
    }

    /// A triangle soup: every three consecutive triangles' corners given directly.
    pub fn from_triangles(tris: &[Triangle<T, 3>]) -> MidResult<Self> {
        let vertices = tris.iter().flat_map(|t| t.vertices()).collect();
        let triangles = (0..tris.len() as u32).map(|i| [3 * i, 3 * i + 1, 3 * i + 2]).collect();
        TriMesh::new(vertices, triangles)
    }

    /// The vertices.
    pub fn vertices(&self) -> &[Point<T, 3>] {
        &self.vertices
    }

    /// The triangles as vertex-index triples.
    pub fn indices(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    /// Number of triangles.
    pub fn len(&self) -> usize {
        self.triangles.len()
    }

    /// Does the mesh have no triangles?
    pub fn is_empty(&self) -> bool {
        self.triangles.is_empty()
    }

    /// Triangle `i` (panics if `i` is out of range, like slice indexing).
    #[inline]
    pub fn triangle(&self, i: usize) -> Triangle<T, 3> {
        let [a, b, c] = self.triangles[i];
        let v = &self.vertices;
        Triangle::new(v[a as usize], v[b as usize], v[c as usize])
            .unwrap_or_else(|_| unreachable!("vertices are validated by TriMesh::new"))
    }

    /// Do triangles `i` and `j` share a vertex index (mesh neighbours)? Self-collision skips
    /// such pairs by default: they always touch.
    #[inline]
    pub fn share_vertex(&self, i: usize, j: usize) -> bool {
        let (a, b) = (&self.triangles[i], &self.triangles[j]);
        a.iter().any(|x| b.contains(x))
    }

    /// The same connectivity with new vertex positions (a deformed mesh, for refitting).
    /// Errors: a different vertex count, an invalid coordinate.
    pub fn with_vertices(&self, vertices: Vec<Point<T, 3>>) -> MidResult<Self> {
        if vertices.len() != self.vertices.len() {
            return Err(MidError::CountMismatch { expected: self.vertices.len(), found: vertices.len() });
        }
        TriMesh::new(vertices, self.triangles.clone())
    }

    /// Every vertex moved by `f` (validated like `new`).
    pub fn map_vertices(&self, f: impl FnMut(&Point<T, 3>) -> Point<T, 3>) -> MidResult<Self> {
        self.with_vertices(self.vertices.iter().map(f).collect())
    }
}

impl<T: Real> Primitives<T, 3> for TriMesh<T> {
    fn count(&self) -> usize {
        self.triangles.len()
    }
    #[inline]
    fn aabb(&self, i: usize) -> GeomResult<Aabb<T, 3>> {
        let [a, b, c] = self.triangles[i];
        let v = &self.vertices;
        Aabb::from_points([&v[a as usize], &v[b as usize], &v[c as usize]])
    }
    fn points(&self, i: usize, out: &mut Vec<Point<T, 3>>) {
        out.extend(self.triangles[i].iter().map(|&k| self.vertices[k as usize]));
    }
}
