//! [`SupportMap`] for every convex primitive (k-DOPs are not support-mapped: build a
//! [`ConvexPolyhedron`] from one where GJK needs it).

use super::{unit_or_zero, SupportMap};
use crate::shape::linear_support;
use crate::{
    Aabb, Ball, Capsule, Cone, ConvexPolyhedron, Cylinder, Lozenge, Obb, Point, Polygon, Real, Segment,
    Triangle, Vector,
};

impl<T: Real, const D: usize> SupportMap<T, D> for Point<T, D> {
    #[inline(always)]
    fn support(&self, _d: &Vector<T, D>) -> Point<T, D> {
        *self
    }
    #[inline]
    fn interior_point(&self) -> Point<T, D> {
        *self
    }
    #[inline]
    fn outer_radius(&self) -> T {
        T::zero()
    }
}

impl<T: Real, const D: usize> SupportMap<T, D> for Ball<T, D> {
    #[inline]
    fn support(&self, d: &Vector<T, D>) -> Point<T, D> {
        self.center() + unit_or_zero(d) * self.radius()
    }
    #[inline]
    fn interior_point(&self) -> Point<T, D> {
        *self.center()
    }
    #[inline]
    fn inner_radius(&self) -> T {
        self.radius()
    }
    #[inline]
    fn outer_radius(&self) -> T {
        self.radius()
    }
}

impl<T: Real, const D: usize> SupportMap<T, D> for Aabb<T, D> {
    #[inline]
    fn support(&self, d: &Vector<T, D>) -> Point<T, D> {
        Point::from(Vector::from_fn(|i, _| if d[i] >= T::zero() { self.max()[i] } else { self.min()[i] }))
    }
    #[inline]
    fn interior_point(&self) -> Point<T, D> {
        self.center()
    }
    #[inline]
    fn inner_radius(&self) -> T {
        self.half_extents().min()
    }
    #[inline]
    fn outer_radius(&self) -> T {
        self.half_extents().norm()
    }
}

impl<T: Real, const D: usize> SupportMap<T, D> for Obb<T, D> {
    #[inline]
    fn support(&self, d: &Vector<T, D>) -> Point<T, D> {
        let local = self.vector_to_local(d);
        let h = self.half_extents();
        let corner = Vector::<T, D>::from_fn(|i, _| if local[i] >= T::zero() { h[i] } else { -h[i] });
        self.center() + self.axes() * corner
    }
    #[inline]
    fn interior_point(&self) -> Point<T, D> {
        *self.center()
    }
    #[inline]
    fn inner_radius(&self) -> T {
        self.half_extents().min()
    }
    #[inline]
    fn outer_radius(&self) -> T {
        self.half_extents().norm()
    }
}

impl<T: Real, const D: usize> SupportMap<T, D> for Segment<T, D> {
    #[inline]
    fn support(&self, d: &Vector<T, D>) -> Point<T, D> {
        if d.dot(&self.a().coords) >= d.dot(&self.b().coords) {
            *self.a()
        } else {
            *self.b()
        }
    }
    #[inline]
    fn interior_point(&self) -> Point<T, D> {
        self.a() + (self.b() - self.a()) * T::lit(0.5)
    }
    #[inline]
    fn outer_radius(&self) -> T {
        (self.b() - self.a()).norm() * T::lit(0.5)
    }
}

impl<T: Real, const D: usize> SupportMap<T, D> for Triangle<T, D> {
    #[inline]
    fn support(&self, d: &Vector<T, D>) -> Point<T, D> {
        let v = self.vertices();
        v[linear_support(&v, d)]
    }
    #[inline]
    fn interior_point(&self) -> Point<T, D> {
        self.centroid()
    }
    #[inline]
    fn outer_radius(&self) -> T {
        farthest(&self.vertices(), &self.centroid())
    }
}

impl<T: Real, const D: usize> SupportMap<T, D> for Capsule<T, D> {
    #[inline]
    fn support(&self, d: &Vector<T, D>) -> Point<T, D> {
        self.segment().support(d) + unit_or_zero(d) * self.radius()
    }
    #[inline]
    fn interior_point(&self) -> Point<T, D> {
        self.a() + (self.b() - self.a()) * T::lit(0.5)
    }
    #[inline]
    fn inner_radius(&self) -> T {
        self.radius()
    }
    #[inline]
    fn outer_radius(&self) -> T {
        (self.b() - self.a()).norm() * T::lit(0.5) + self.radius()
    }
}

/// The support of the polygon's convex hull (a linear scan over the vertices).
impl<T: Real, const D: usize> SupportMap<T, D> for Polygon<T, D> {
    #[inline]
    fn support(&self, d: &Vector<T, D>) -> Point<T, D> {
        self.vertices()[linear_support(self.vertices(), d)]
    }
    #[inline]
    fn interior_point(&self) -> Point<T, D> {
        mean(self.vertices())
    }
    /// Computed on each call (a pass over the vertices).
    #[inline]
    fn outer_radius(&self) -> T {
        farthest(self.vertices(), &mean(self.vertices()))
    }
}

impl<T: Real> SupportMap<T, 3> for Lozenge<T> {
    #[inline]
    fn support(&self, d: &Vector<T, 3>) -> Point<T, 3> {
        self.core_support(d) + unit_or_zero(d) * self.radius()
    }
    #[inline]
    fn interior_point(&self) -> Point<T, 3> {
        self.origin() + (self.e0() + self.e1()) * T::lit(0.5)
    }
    /// The interior point lies on the core parallelogram: the radius is a ball around it.
    #[inline]
    fn inner_radius(&self) -> T {
        self.radius()
    }
    /// Half the parallelogram's longer diagonal, plus the radius.
    #[inline]
    fn outer_radius(&self) -> T {
        let (d0, d1) = ((self.e0() + self.e1()).norm(), (self.e0() - self.e1()).norm());
        d0.max(d1) * T::lit(0.5) + self.radius()
    }
}

/// The rim point of a disc (centre `c`, unit normal `u`, radius `r`) farthest along `d`.
///
/// When `d` is parallel to the axis (to rounding), the whole disc is supporting and the centre
/// is returned: the rounding residue of `d − u(d·u)` has no meaningful direction.
#[inline]
fn disc_support<T: Real>(c: &Point<T, 3>, u: &Vector<T, 3>, r: T, d: &Vector<T, 3>) -> Point<T, 3> {
    let w = d - u * d.dot(u);
    let tiny = T::epsilon() * T::lit(16.0) * d.amax();
    if w.amax() <= tiny {
        return *c;
    }
    // When d is nearly parallel to u, w is small and its rounding error (about ε|d|) is not
    // perpendicular to u; projecting once more makes it perpendicular to within ε|w|, so the
    // point stays on the disc.
    let w = w - u * w.dot(u);
    c + unit_or_zero(&w) * r
}

impl<T: Real> SupportMap<T, 3> for Cylinder<T> {
    #[inline]
    fn support(&self, d: &Vector<T, 3>) -> Point<T, 3> {
        let u = self.axis();
        let cap = if d.dot(&u) >= T::zero() { self.b() } else { self.a() };
        disc_support(cap, &u, self.radius(), d)
    }
    #[inline]
    fn interior_point(&self) -> Point<T, 3> {
        self.a() + (self.b() - self.a()) * T::lit(0.5)
    }
    /// Around the centre: the radius or half the height, whichever is smaller.
    #[inline]
    fn inner_radius(&self) -> T {
        self.radius().min((self.b() - self.a()).norm() * T::lit(0.5))
    }
    /// The rim's distance from the centre.
    #[inline]
    fn outer_radius(&self) -> T {
        let half = (self.b() - self.a()).norm() * T::lit(0.5);
        (half * half + self.radius() * self.radius()).sqrt()
    }
}

impl<T: Real> SupportMap<T, 3> for Cone<T> {
    #[inline]
    fn support(&self, d: &Vector<T, 3>) -> Point<T, 3> {
        let rim = disc_support(self.base(), &self.axis(), self.radius(), d);
        if d.dot(&self.apex().coords) > d.dot(&rim.coords) {
            *self.apex()
        } else {
            rim
        }
    }
    #[inline]
    fn interior_point(&self) -> Point<T, 3> {
        self.base() + (self.apex() - self.base()) * T::lit(0.25)
    }
    /// Around the point a quarter of the way up the axis: a quarter of the height to the base,
    /// and `¾ r · h / √(h² + r²)` to the lateral surface (whose radius there is `¾ r`).
    #[inline]
    fn inner_radius(&self) -> T {
        let h = (self.apex() - self.base()).norm();
        let r = self.radius();
        let slant = (h * h + r * r).sqrt();
        let lateral = if slant > T::zero() { T::lit(0.75) * r * h / slant } else { T::zero() };
        (h * T::lit(0.25)).min(lateral)
    }
    /// The apex or the base rim, whichever is farther from the interior point.
    #[inline]
    fn outer_radius(&self) -> T {
        let h = (self.apex() - self.base()).norm();
        let (to_apex, to_base) = (h * T::lit(0.75), h * T::lit(0.25));
        to_apex.max((to_base * to_base + self.radius() * self.radius()).sqrt())
    }
}

impl<T: Real> SupportMap<T, 3> for ConvexPolyhedron<T> {
    #[inline]
    fn support(&self, d: &Vector<T, 3>) -> Point<T, 3> {
        self.vertices()[self.support_index(d, 0)]
    }
    /// [`ConvexPolyhedron::support_index`] from the hinted vertex (a climb from there at 64
    /// vertices and more, a scan below). Always inlined, scan included: a GJK loop then keeps
    /// its values in registers across a step's two support calls instead of spilling them
    /// around calls (350 of a 32-vertex hull cast's 9,700 instructions).
    #[inline(always)]
    fn support_from(&self, d: &Vector<T, 3>, hint: &mut u32) -> Point<T, 3> {
        let i = self.support_index(d, *hint as usize);
        *hint = i as u32;
        self.vertices()[i]
    }
    #[inline]
    fn interior_point(&self) -> Point<T, 3> {
        *self.vertex_mean()
    }
    #[inline]
    fn inner_radius(&self) -> T {
        self.inner_radius()
    }
    #[inline]
    fn outer_radius(&self) -> T {
        self.outer_radius()
    }
}

/// The largest distance from `c` to one of `points`.
fn farthest<T: Real, const D: usize>(points: &[Point<T, D>], c: &Point<T, D>) -> T {
    points.iter().fold(T::zero(), |m, p| m.max((p - c).norm()))
}

/// The mean of a non-empty point list (inside its convex hull).
fn mean<T: Real, const D: usize>(points: &[Point<T, D>]) -> Point<T, D> {
    let sum = points.iter().fold(Vector::<T, D>::zeros(), |acc, p| acc + p.coords);
    Point::from(sum / T::lit(points.len().max(1) as f64))
}
