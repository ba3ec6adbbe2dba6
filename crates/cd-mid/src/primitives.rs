//! [`Primitives`]: the set of things a hierarchy is built over — triangles of a mesh, boxes,
//! balls, points or a user's own primitives — seen through their bounding boxes (whose centres
//! the builders sort and split on) and the points whose convex hull contains them.

use cd_geom::{Aabb, Ball, GeomResult, Point, Real, Triangle, Vector};

/// A set of primitives indexed `0..count()`.
///
/// Builders split on the bounding boxes and their centres; volumes other than AABBs are fitted to the
/// points `points` yields, which must have a convex hull containing the primitive (the three
/// vertices of a triangle, the corners of a box).
pub trait Primitives<T: Real, const D: usize> {
    /// Number of primitives.
    fn count(&self) -> usize;
    /// A box containing primitive `i`; an error for a primitive with invalid coordinates
    /// (builders report it instead of building a hierarchy with NaN in it). A build of a box
    /// hierarchy fits its leaves to these boxes, a refit to [`points`](Primitives::points):
    /// when this is the box of those points (as for every implementation in this crate), a
    /// refit of unmoved primitives reproduces the build exactly.
    fn aabb(&self, i: usize) -> GeomResult<Aabb<T, D>>;
    /// Appends points whose convex hull contains primitive `i`.
    fn points(&self, i: usize, out: &mut Vec<Point<T, D>>);
}

impl<T: Real, const D: usize> Primitives<T, D> for [Triangle<T, D>] {
    fn count(&self) -> usize {
        self.len()
    }
    #[inline]
    fn aabb(&self, i: usize) -> GeomResult<Aabb<T, D>> {
        let t = &self[i];
        Aabb::from_points([t.a(), t.b(), t.c()])
    }
    fn points(&self, i: usize, out: &mut Vec<Point<T, D>>) {
        out.extend_from_slice(&self[i].vertices());
    }
}

impl<T: Real, const D: usize> Primitives<T, D> for [Aabb<T, D>] {
    fn count(&self) -> usize {
        self.len()
    }
    #[inline]
    fn aabb(&self, i: usize) -> GeomResult<Aabb<T, D>> {
        Ok(self[i])
    }
    fn points(&self, i: usize, out: &mut Vec<Point<T, D>>) {
        out.extend((0..1usize << D).map(|bits| self[i].corner(bits)));
    }
}

impl<T: Real, const D: usize> Primitives<T, D> for [Ball<T, D>] {
    fn count(&self) -> usize {
        self.len()
    }
    #[inline]
    fn aabb(&self, i: usize) -> GeomResult<Aabb<T, D>> {
        let b = &self[i];
        let r = Vector::repeat(b.radius());
        Aabb::from_points([&(b.center() - r), &(b.center() + r)])
    }
    fn points(&self, i: usize, out: &mut Vec<Point<T, D>>) {
        if let Ok(b) = self.aabb(i) {
            out.extend((0..1usize << D).map(|bits| b.corner(bits)));
        }
    }
}

impl<T: Real, const D: usize> Primitives<T, D> for [Point<T, D>] {
    fn count(&self) -> usize {
        self.len()
    }
    #[inline]
    fn aabb(&self, i: usize) -> GeomResult<Aabb<T, D>> {
        Aabb::from_points([&self[i]])
    }
    fn points(&self, i: usize, out: &mut Vec<Point<T, D>>) {
        out.push(self[i]);
    }
}
