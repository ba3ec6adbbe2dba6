//! Sutherland–Hodgman clipping of a convex polygon by one plane at a time: the step the
//! clipping manifolds (box/triangle, hull/hull, support features) share. The polygon lives in
//! a fixed-capacity array, so clipping allocates nothing: a manifold is computed for every
//! touching pair of every frame, and the heap vectors these routines used before cost a
//! box/triangle manifold about 15 % of its instructions in malloc and free.

use cd_geom::{Point, Real, Vector};

/// A polygon vertex and its id: input vertices keep theirs, a vertex made by a cut gets an id
/// above 64 naming the cut edge and the plane (so a point persists from frame to frame while
/// the same features touch).
pub(crate) type ClipVertex<T> = (Point<T, 3>, u32);

/// Most vertices a clipped face keeps: a face with more (a hull's many-sided cap) keeps an
/// evenly spread subset of them ([`evenly_spread`]), a polygon inside the face.
pub(crate) const MAX_FACE_POINTS: usize = 16;

/// Room for a face of [`MAX_FACE_POINTS`] clipped by up to as many side planes (each adds at
/// most one vertex).
pub(crate) const FACE_CLIP_CAPACITY: usize = 2 * MAX_FACE_POINTS + 2;

/// The indices `0..n` thinned to at most `max` evenly spread ones (all of them when `n ≤ max`).
pub(crate) fn evenly_spread(n: usize, max: usize) -> core::iter::StepBy<core::ops::Range<usize>> {
    (0..n).step_by(n.div_ceil(max).max(1))
}

/// A convex polygon (or a segment, two vertices) of at most `N` vertices, clipped in place.
///
/// Clipping a convex polygon by a plane adds at most one vertex, so `N` = the vertices it
/// starts with plus the number of planes is always enough in exact arithmetic. Rounding can
/// make the inside test flip back and forth along a polygon lying almost in the plane, and
/// a pass could then emit more: vertices past the capacity are dropped (the polygon stays
/// inside the exact one; nothing is invented).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClipPolygon<T: Real, const N: usize> {
    vertices: [ClipVertex<T>; N],
    len: usize,
}

impl<T: Real, const N: usize> ClipPolygon<T, N> {
    /// The empty polygon.
    pub(crate) fn new() -> Self {
        Self { vertices: [(Point::origin(), 0); N], len: 0 }
    }

    /// The polygon with these vertices, in order, with ids `first_id`, `first_id + 1`, ….
    pub(crate) fn from_points(points: impl IntoIterator<Item = Point<T, 3>>, first_id: u32) -> Self {
        let mut poly = Self::new();
        for (k, p) in points.into_iter().enumerate() {
            poly.push((p, first_id + k as u32));
        }
        poly
    }

    /// Appends a vertex; a vertex past the capacity is dropped.
    pub(crate) fn push(&mut self, v: ClipVertex<T>) {
        if self.len < N {
            self.vertices[self.len] = v;
            self.len += 1;
        }
    }

    /// The vertices in order.
    pub(crate) fn as_slice(&self) -> &[ClipVertex<T>] {
        &self.vertices[..self.len]
    }

    /// Number of vertices.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing is left.
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Keeps the part with `side·p ≤ offset`; `plane` (its low four bits) names the plane in
    /// the ids of new vertices. A segment keeps the part inside (a two-vertex polygon run
    /// through the polygon pass would come back with its cut point twice); a polygon gets one
    /// Sutherland–Hodgman pass.
    pub(crate) fn clip(&mut self, side: &Vector<T, 3>, offset: T, plane: u32) {
        let distance = |p: &Point<T, 3>| side.dot(&p.coords) - offset;
        let cut = |(p, ip): ClipVertex<T>, (q, iq): ClipVertex<T>, dp: T, dq: T| {
            (p + (q - p) * (dp / (dp - dq)), 64 + ((ip.min(iq) & 31) << 4) + (plane & 15))
        };
        if self.len == 2 {
            let (a, b) = (self.vertices[0], self.vertices[1]);
            let (da, db) = (distance(&a.0), distance(&b.0));
            match (da <= T::zero(), db <= T::zero()) {
                (true, true) => {}
                (false, false) => self.len = 0,
                (true, false) => self.vertices[1] = cut(a, b, da, db),
                (false, true) => self.vertices[0] = cut(a, b, da, db),
            }
            return;
        }
        let input = self.vertices;
        let len = self.len;
        self.len = 0;
        for k in 0..len {
            let (p, q) = (input[k], input[(k + 1) % len]);
            let (dp, dq) = (distance(&p.0), distance(&q.0));
            if dp <= T::zero() {
                self.push(p);
            }
            if (dp <= T::zero()) != (dq <= T::zero()) {
                self.push(cut(p, q, dp, dq));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Point3, Vector3};

    fn square() -> ClipPolygon<f64, 8> {
        let corners = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
        ClipPolygon::from_points(corners.iter().map(|&(x, y)| Point3::new(x, y, 0.0)), 0)
    }

    #[test]
    fn a_cut_through_two_edges_keeps_the_inside_part() {
        let mut poly = square();
        // Keep x ≤ 0.25.
        poly.clip(&Vector3::x(), 0.25, 3);
        let pts: Vec<(f64, f64, u32)> = poly.as_slice().iter().map(|(p, id)| (p.x, p.y, *id)).collect();
        // Vertex 0, the cut of edge 0–1, the cut of edge 2–3, vertex 3; cut ids name the edge's
        // lower vertex id and the plane.
        assert_eq!(
            pts,
            vec![(0.0, 0.0, 0), (0.25, 0.0, 64 + 3), (0.25, 1.0, 64 + (2 << 4) + 3), (0.0, 1.0, 3)]
        );
    }

    #[test]
    fn a_corner_cut_adds_one_vertex_and_missing_planes_change_nothing() {
        let mut poly = square();
        // Keep x + y ≤ 1.5: cuts the corner (1, 1).
        poly.clip(&Vector3::new(1.0, 1.0, 0.0), 1.5, 0);
        assert_eq!(poly.len(), 5);
        assert!(poly.as_slice().iter().all(|(p, _)| p.x + p.y <= 1.5 + 1e-12));
        let before = poly.len();
        poly.clip(&Vector3::x(), 2.0, 1);
        assert_eq!(poly.len(), before);
        poly.clip(&Vector3::x(), -1.0, 2);
        assert!(poly.is_empty());
    }

    #[test]
    fn a_segment_keeps_its_inside_part_once() {
        let mut seg: ClipPolygon<f64, 4> =
            ClipPolygon::from_points([Point3::new(0.0, 0.0, 0.0), Point3::new(2.0, 0.0, 0.0)], 0);
        seg.clip(&Vector3::x(), 1.5, 1);
        assert_eq!(seg.len(), 2);
        assert_eq!(seg.as_slice()[1].0, Point3::new(1.5, 0.0, 0.0));
        seg.clip(&-Vector3::x(), -0.5, 2);
        assert_eq!(seg.as_slice()[0].0, Point3::new(0.5, 0.0, 0.0));
        seg.clip(&Vector3::x(), 0.25, 3);
        assert!(seg.is_empty());
    }

    #[test]
    fn evenly_spread_keeps_at_most_max_from_the_first() {
        for n in 0..100 {
            let kept: Vec<usize> = evenly_spread(n, MAX_FACE_POINTS).collect();
            assert!(kept.len() <= MAX_FACE_POINTS);
            assert_eq!(kept.len() == n, n <= MAX_FACE_POINTS);
            assert!(kept.iter().all(|&k| k < n));
            assert_eq!(kept.first().copied(), (n > 0).then_some(0));
            // Evenly: the gaps differ by no more than the stride (the last wraps around).
            if kept.len() >= 2 {
                let stride = kept[1] - kept[0];
                assert!(kept.windows(2).all(|w| w[1] - w[0] == stride));
                assert!(n - kept[kept.len() - 1] <= stride);
            }
        }
    }

    #[test]
    fn vertices_past_the_capacity_are_dropped() {
        let tri: ClipPolygon<f32, 3> =
            ClipPolygon::from_points((0..5).map(|k| Point3::new(k as f32, 0.0, 0.0)), 10);
        assert_eq!(tri.len(), 3);
        assert_eq!(tri.as_slice()[2].1, 12);
        // A square clipped into a pentagon in a buffer of 4: the fifth vertex is dropped.
        let mut poly: ClipPolygon<f64, 4> =
            ClipPolygon::from_points(square().as_slice().iter().map(|v| v.0), 0);
        poly.clip(&Vector3::new(1.0, 1.0, 0.0), 1.5, 0);
        assert_eq!(poly.len(), 4);
    }
}
