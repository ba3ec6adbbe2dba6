//! The deformable overlap method of the seed (RTR 25.5): for two models that change shape every
//! frame, rebuilding or refitting hierarchies may cost more than it saves. Instead, intersect the
//! two models' boxes, keep the triangles of each model that reach that region, and subdivide the
//! region as an implicit octree (nothing is stored), passing each triangle to the octants its box
//! meets; in a small enough cell, test the triangles of one model against those of the other.
//!
//! A pair can meet in several cells; it is tested only in the cell that contains the lowest
//! corner of the intersection of the two triangles' boxes (cells are half-open, the region's
//! upper faces included), which both triangles always reach: each pair is tested exactly once.

use crate::mesh::TriMesh;
use cd_geom::{triangle_triangle, Aabb, Point, Real};

/// Limits of the implicit octree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OctreeConfig {
    /// Deepest subdivision level (the root region is level 0).
    pub max_depth: u32,
    /// A cell is tested directly when `triangles of A × triangles of B` is at most this.
    pub max_pairs_per_cell: usize,
}

impl Default for OctreeConfig {
    /// Depth 10, 64 pairs per cell.
    fn default() -> Self {
        OctreeConfig { max_depth: 10, max_pairs_per_cell: 64 }
    }
}

/// A cell: its box and whether its upper face on each axis is the region's (then closed).
#[derive(Clone, Copy)]
struct Cell<T: Real> {
    lo: Point<T, 3>,
    hi: Point<T, 3>,
    closed_hi: [bool; 3],
}

impl<T: Real> Cell<T> {
    fn owns(&self, p: &Point<T, 3>) -> bool {
        (0..3).all(|i| self.lo[i] <= p[i] && (p[i] < self.hi[i] || (self.closed_hi[i] && p[i] == self.hi[i])))
    }
}

/// Does the closed box `[lo, hi]` meet the closed cell box?
fn meets<T: Real>(b: &Aabb<T, 3>, c: &Cell<T>) -> bool {
    (0..3).all(|i| b.min()[i] <= c.hi[i] && c.lo[i] <= b.max()[i])
}

/// Every intersecting pair (triangle of `a`, triangle of `b`) of two meshes given in the same
/// frame, by the implicit octree over the overlap of their boxes. Sorted.
pub fn deformable_overlaps<T: Real>(
    a: &TriMesh<T>,
    b: &TriMesh<T>,
    config: &OctreeConfig,
) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let (Ok(box_a), Ok(box_b)) = (Aabb::from_points(a.vertices()), Aabb::from_points(b.vertices())) else {
        return out;
    };
    let lo = max_corner(box_a.min(), box_b.min());
    let hi = min_corner(box_a.max(), box_b.max());
    if (0..3).any(|i| lo[i] > hi[i]) {
        return out;
    }
    let root = Cell { lo, hi, closed_hi: [true; 3] };
    let boxes = |m: &TriMesh<T>| -> Vec<(u32, Aabb<T, 3>)> {
        (0..m.len())
            .filter_map(|i| {
                let t = m.triangle(i);
                let bx = Aabb::from_points([t.a(), t.b(), t.c()]).ok()?;
                meets(&bx, &root).then_some((i as u32, bx))
            })
            .collect()
    };
    let (ta, tb) = (boxes(a), boxes(b));
    recurse(a, b, &root, &ta, &tb, 0, config, &mut out);
    out.sort_unstable();
    out
}

#[allow(clippy::too_many_arguments)]
fn recurse<T: Real>(
    a: &TriMesh<T>,
    b: &TriMesh<T>,
    cell: &Cell<T>,
    ta: &[(u32, Aabb<T, 3>)],
    tb: &[(u32, Aabb<T, 3>)],
    depth: u32,
    config: &OctreeConfig,
    out: &mut Vec<(u32, u32)>,
) {
    if ta.is_empty() || tb.is_empty() {
        return;
    }
    let pairs = ta.len() * tb.len();
    let mut children = Vec::new();
    if depth < config.max_depth && pairs > config.max_pairs_per_cell {
        let mid = nalgebra::center(&cell.lo, &cell.hi);
        let mut child_pairs = 0;
        for octant in 0..8 {
            let mut child = *cell;
            for k in 0..3 {
                if octant >> k & 1 == 0 {
                    child.hi[k] = mid[k];
                    child.closed_hi[k] = false;
                } else {
                    child.lo[k] = mid[k];
                }
            }
            let ca: Vec<_> = ta.iter().filter(|(_, bx)| meets(bx, &child)).copied().collect();
            let cb: Vec<_> = tb.iter().filter(|(_, bx)| meets(bx, &child)).copied().collect();
            child_pairs += ca.len() * cb.len();
            children.push((child, ca, cb));
        }
        // Subdivide only while it reduces the work: once the triangles are larger than the
        // cells, every octant sees them all and splitting further would only multiply cells.
        if child_pairs < pairs {
            for (child, ca, cb) in &children {
                recurse(a, b, child, ca, cb, depth + 1, config, out);
            }
            return;
        }
    }
    for (i, bi) in ta {
        for (j, bj) in tb {
            let corner = max_corner(bi.min(), bj.min());
            let overlap = (0..3).all(|k| corner[k] <= bi.max()[k] && corner[k] <= bj.max()[k]);
            if overlap
                && cell.owns(&corner)
                && triangle_triangle(&a.triangle(*i as usize), &b.triangle(*j as usize)).intersects()
            {
                out.push((*i, *j));
            }
        }
    }
}

/// Componentwise maximum of two points by plain comparisons.
fn max_corner<T: Real>(a: &Point<T, 3>, b: &Point<T, 3>) -> Point<T, 3> {
    Point::from(nalgebra::Vector3::from_fn(|i, _| if a[i] >= b[i] { a[i] } else { b[i] }))
}

/// Componentwise minimum of two points by plain comparisons.
fn min_corner<T: Real>(a: &Point<T, 3>, b: &Point<T, 3>) -> Point<T, 3> {
    Point::from(nalgebra::Vector3::from_fn(|i, _| if a[i] <= b[i] { a[i] } else { b[i] }))
}
