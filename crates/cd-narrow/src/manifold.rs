//! Contact manifolds: up to four contact points sharing one normal, each with a feature id
//! so a physics engine can match points from frame to frame (warm starting its impulses).
//!
//! When clipping produces more than four points, [`Manifold::reduce`] keeps the deepest one and
//! then the three that maximise the area of the contact polygon (the usual choice of Bullet
//! and Box2D style solvers: a large support polygon is what keeps a box from rocking).

use cd_geom::{Contact, ContactStatus, Point, Real, Vector};

/// Maximal number of points in a manifold.
pub const MAX_MANIFOLD_POINTS: usize = 4;

/// One point of a manifold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ManifoldPoint<T: Real, const D: usize> {
    /// Point on A.
    pub point_a: Point<T, D>,
    /// Point on B.
    pub point_b: Point<T, D>,
    /// Signed distance along the manifold normal (negative = penetration).
    pub distance: T,
    /// Feature id: the pair of features (vertex, edge, face of A and of B) that produced the
    /// point; equal ids in consecutive frames denote the same physical contact.
    pub id: u32,
}

impl<T: Real, const D: usize> ManifoldPoint<T, D> {
    /// A placeholder for filling arrays (both points at the origin, id 0).
    pub(crate) fn placeholder() -> Self {
        Self { point_a: Point::origin(), point_b: Point::origin(), distance: T::zero(), id: 0 }
    }
}

/// The candidate points of a manifold before [`Manifold::reduce`], in a fixed-capacity array
/// (the clipping routines fill it for every touching pair; a heap vector there was an
/// allocation per pair). Points past the capacity are dropped.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Candidates<T: Real, const N: usize> {
    points: [ManifoldPoint<T, 3>; N],
    len: usize,
}

impl<T: Real, const N: usize> Candidates<T, N> {
    /// No candidates.
    pub(crate) fn new() -> Self {
        Self { points: [ManifoldPoint::placeholder(); N], len: 0 }
    }

    /// Adds a candidate; one past the capacity is dropped.
    pub(crate) fn push(&mut self, p: ManifoldPoint<T, 3>) {
        if self.len < N {
            self.points[self.len] = p;
            self.len += 1;
        }
    }

    /// The candidates.
    pub(crate) fn as_slice(&self) -> &[ManifoldPoint<T, 3>] {
        &self.points[..self.len]
    }

    /// The candidates, to move in place.
    pub(crate) fn as_mut_slice(&mut self) -> &mut [ManifoldPoint<T, 3>] {
        &mut self.points[..self.len]
    }
}

/// Up to [`MAX_MANIFOLD_POINTS`] contact points with one normal from A to B.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Manifold<T: Real, const D: usize> {
    /// Unit normal from A towards B.
    pub normal: Vector<T, D>,
    points: [ManifoldPoint<T, D>; MAX_MANIFOLD_POINTS],
    len: usize,
}

impl<T: Real, const D: usize> Default for Manifold<T, D> {
    fn default() -> Self {
        Self { normal: Vector::zeros(), points: [ManifoldPoint::placeholder(); MAX_MANIFOLD_POINTS], len: 0 }
    }
}

impl<T: Real, const D: usize> Manifold<T, D> {
    /// An empty manifold with the given normal.
    pub fn new(normal: Vector<T, D>) -> Self {
        Self { normal, ..Self::default() }
    }

    /// The points.
    #[inline]
    pub fn points(&self) -> &[ManifoldPoint<T, D>] {
        &self.points[..self.len]
    }

    /// Number of points.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no point (the shapes are farther apart than the prediction distance).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every point (keeps the normal).
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Adds a point; ignored when the manifold is full.
    pub fn push(&mut self, p: ManifoldPoint<T, D>) {
        if self.len < MAX_MANIFOLD_POINTS {
            self.points[self.len] = p;
            self.len += 1;
        }
    }

    /// The deepest point (smallest distance), if any.
    pub fn deepest(&self) -> Option<&ManifoldPoint<T, D>> {
        self.points()
            .iter()
            .min_by(|a, b| a.distance.partial_cmp(&b.distance).unwrap_or(core::cmp::Ordering::Equal))
    }

    /// The single contact of the deepest point.
    pub fn deepest_contact(&self, status: ContactStatus) -> Option<Contact<T, D>> {
        self.deepest().map(|p| Contact {
            point_a: p.point_a,
            point_b: p.point_b,
            normal: self.normal,
            distance: p.distance,
            status,
        })
    }

    /// The same manifold seen from B: points swapped, normal negated (ids kept).
    pub fn flipped(&self) -> Self {
        let mut out = *self;
        out.normal = -self.normal;
        for p in &mut out.points[..out.len] {
            core::mem::swap(&mut p.point_a, &mut p.point_b);
        }
        out
    }

    /// Fills the manifold from any number of candidate points: all of them when they fit,
    /// otherwise the deepest and the three that span the largest area with it.
    pub fn reduce(&mut self, candidates: &[ManifoldPoint<T, D>]) {
        self.len = 0;
        if candidates.len() <= MAX_MANIFOLD_POINTS {
            candidates.iter().for_each(|p| self.push(*p));
            return;
        }
        let pos = |i: usize| candidates[i].point_b.coords;
        let argmax = |score: &dyn Fn(usize) -> T| {
            (0..candidates.len()).fold((0, -T::infinity()), |best, i| {
                let s = score(i);
                if s > best.1 {
                    (i, s)
                } else {
                    best
                }
            })
        };
        let n = self.normal;
        let (p0, _) = argmax(&|i| -candidates[i].distance);
        let (p1, _) = argmax(&|i| (pos(i) - pos(p0)).norm_squared());
        let (p2, _) = argmax(&|i| signed_area2(&n, &(pos(p1) - pos(p0)), &(pos(i) - pos(p0))).abs());
        // The fourth point extends the triangle the most: the largest area of the triangle it
        // forms with an edge it lies beyond (outside means the opposite orientation).
        let orient = signed_area2(&n, &(pos(p1) - pos(p0)), &(pos(p2) - pos(p0)));
        let sign = if orient >= T::zero() { -T::one() } else { T::one() };
        let tri = [p0, p1, p2];
        let (p3, _) = argmax(&|i| {
            (0..3)
                .map(|k| {
                    let (u, v) = (pos(tri[k]), pos(tri[(k + 1) % 3]));
                    sign * signed_area2(&n, &(v - u), &(pos(i) - u))
                })
                .fold(-T::infinity(), |m, a| m.max(a))
        });
        for i in [p0, p1, p2, p3] {
            if self.points().iter().all(|q| q.id != candidates[i].id || q.point_b != candidates[i].point_b) {
                self.push(candidates[i]);
            }
        }
    }
}

/// Twice the signed area of the triangle spanned by `u` and `v`, seen along `n` in 3D
/// (`n·(u × v)`), or `u_x v_y − u_y v_x` in 2D.
fn signed_area2<T: Real, const D: usize>(n: &Vector<T, D>, u: &Vector<T, D>, v: &Vector<T, D>) -> T {
    if D == 3 {
        let c0 = u[1] * v[2] - u[2] * v[1];
        let c1 = u[2] * v[0] - u[0] * v[2];
        let c2 = u[0] * v[1] - u[1] * v[0];
        n[0] * c0 + n[1] * c1 + n[2] * c2
    } else if D == 2 {
        u[0] * v[1] - u[1] * v[0]
    } else {
        T::zero()
    }
}
