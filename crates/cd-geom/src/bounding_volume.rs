//! The [`BoundingVolume`] trait: what builders (cd-bv), hierarchies (cd-mid) and broad phases
//! need from a bounding volume, implemented for AABBs, balls, OBBs and k-DOPs in 2D and 3D.

use crate::query::overlap::{aabb_aabb, ball_ball, kdop_kdop};
use crate::query::sat_obb::obb_obb_face_axes;
use crate::{Aabb, Ball, Kdop, Matrix, Obb, Point, Real, Vector};

/// A bounding volume: merge, overlap, containment and the size measures that cost functions
/// (surface area heuristic, volume heuristic) and quality reports use.
///
/// In 2D, `volume` is the area and `surface_area` the perimeter.
pub trait BoundingVolume<T: Real, const D: usize>: Clone {
    /// A volume enclosing both (the smallest of this type for AABBs, balls and k-DOPs).
    fn merged(&self, other: &Self) -> Self;
    /// Do the two volumes overlap (touching counts)?
    fn overlaps(&self, other: &Self) -> bool;
    /// Does `self` contain `other` entirely?
    fn contains(&self, other: &Self) -> bool;
    /// Is the point inside or on the volume?
    fn contains_point(&self, p: &Point<T, D>) -> bool;
    /// A central point (the centre of symmetry where there is one).
    fn center(&self) -> Point<T, D>;
    /// The D-dimensional measure: volume in 3D, area in 2D.
    fn volume(&self) -> T;
    /// The measure of the boundary: surface area in 3D, perimeter in 2D.
    fn surface_area(&self) -> T;
}

/// Volume and boundary measure of a box with the given full extents: `Π eᵢ` and
/// `2 Σᵢ Π_{j≠i} eⱼ` (the area of the `2D` faces).
fn box_measures<T: Real, const D: usize>(e: &Vector<T, D>) -> (T, T) {
    let volume = e.iter().fold(T::one(), |a, &x| a * x);
    let mut area = T::zero();
    for i in 0..D {
        area += (0..D).filter(|&j| j != i).fold(T::one(), |a, j| a * e[j]);
    }
    (volume, area * T::lit(2.0))
}

impl<T: Real, const D: usize> BoundingVolume<T, D> for Aabb<T, D> {
    #[inline]
    fn merged(&self, other: &Self) -> Self {
        Aabb::merged(self, other)
    }
    #[inline]
    fn overlaps(&self, other: &Self) -> bool {
        aabb_aabb(self, other)
    }
    #[inline]
    fn contains(&self, o: &Self) -> bool {
        // All 2·D comparisons, combined without branches: the broad phases ask this of every
        // moving box each frame, and it is nearly always true.
        let mut inside = true;
        for i in 0..D {
            inside &= self.min()[i] <= o.min()[i];
            inside &= o.max()[i] <= self.max()[i];
        }
        inside
    }
    #[inline]
    fn contains_point(&self, p: &Point<T, D>) -> bool {
        Aabb::contains_point(self, p)
    }
    #[inline]
    fn center(&self) -> Point<T, D> {
        Aabb::center(self)
    }
    fn volume(&self) -> T {
        box_measures(&(self.max() - self.min())).0
    }
    fn surface_area(&self) -> T {
        box_measures(&(self.max() - self.min())).1
    }
}

/// Volume of the unit ball in `d` dimensions by `V_d = 2π/d · V_{d-2}`.
fn unit_ball_volume<T: Real>(d: usize) -> T {
    match d {
        0 => T::one(),
        1 => T::lit(2.0),
        _ => T::two_pi() / T::lit(d as f64) * unit_ball_volume::<T>(d - 2),
    }
}

impl<T: Real, const D: usize> BoundingVolume<T, D> for Ball<T, D> {
    /// The smallest ball containing both balls.
    fn merged(&self, other: &Self) -> Self {
        let d = other.center() - self.center();
        let dist = d.norm();
        if dist + other.radius() <= self.radius() {
            return *self;
        }
        if dist + self.radius() <= other.radius() {
            return *other;
        }
        let radius = (dist + self.radius() + other.radius()) * T::lit(0.5);
        // dist > 0 here: equal centres make one ball contain the other.
        let center = self.center() + d * ((radius - self.radius()) / dist);
        Ball::new_unchecked(center, radius)
    }
    #[inline]
    fn overlaps(&self, other: &Self) -> bool {
        ball_ball(self, other)
    }
    #[inline]
    fn contains(&self, o: &Self) -> bool {
        (o.center() - self.center()).norm() + o.radius() <= self.radius()
    }
    #[inline]
    fn contains_point(&self, p: &Point<T, D>) -> bool {
        Ball::contains_point(self, p)
    }
    #[inline]
    fn center(&self) -> Point<T, D> {
        *Ball::center(self)
    }
    fn volume(&self) -> T {
        unit_ball_volume::<T>(D) * self.radius().powi(D as i32)
    }
    fn surface_area(&self) -> T {
        // d/dr of the volume: d · V_d · r^(d-1).
        T::lit(D as f64) * unit_ball_volume::<T>(D) * self.radius().powi(D as i32 - 1)
    }
}

impl<T: Real, const D: usize> BoundingVolume<T, D> for Obb<T, D> {
    /// An OBB enclosing both, with the axes of the larger box and extents fitted to both boxes'
    /// corners. Not the smallest possible (that needs a fit over all corners: see cd-bv), but
    /// cheap and always containing both.
    fn merged(&self, other: &Self) -> Self {
        let base = if self.volume() >= other.volume() { self } else { other };
        let mut lo = Vector::<T, D>::repeat(T::infinity());
        let mut hi = Vector::<T, D>::repeat(-T::infinity());
        for b in [self, other] {
            for k in 0..(1usize << D) {
                let local = Vector::<T, D>::from_fn(|i, _| {
                    if k >> i & 1 == 1 {
                        b.half_extents()[i]
                    } else {
                        -b.half_extents()[i]
                    }
                });
                let corner = b.center() + b.axes() * local;
                let q = base.axes().tr_mul(&corner.coords);
                lo = lo.inf(&q);
                hi = hi.sup(&q);
            }
        }
        let center = Point::from(base.axes() * ((lo + hi) * T::lit(0.5)));
        Obb::new_unchecked(center, *base.axes(), (hi - lo) * T::lit(0.5))
    }
    /// The face-axes separating axis test: exact in 2D, conservative in 3D (see
    /// [`obb_obb_face_axes`]), which is what traversal code wants.
    #[inline]
    fn overlaps(&self, other: &Self) -> bool {
        obb_obb_face_axes(self, other)
    }
    fn contains(&self, o: &Self) -> bool {
        // Every corner of `o` inside `self`.
        let r: Matrix<T, D> = self.axes().tr_mul(o.axes());
        let c = self.to_local(o.center());
        (0..D).all(|i| {
            let reach = (0..D).fold(T::zero(), |s, j| s + r[(i, j)].abs() * o.half_extents()[j]);
            c[i].abs() + reach <= self.half_extents()[i]
        })
    }
    #[inline]
    fn contains_point(&self, p: &Point<T, D>) -> bool {
        Obb::contains_point(self, p)
    }
    #[inline]
    fn center(&self) -> Point<T, D> {
        *Obb::center(self)
    }
    fn volume(&self) -> T {
        box_measures(&(self.half_extents() * T::lit(2.0))).0
    }
    fn surface_area(&self) -> T {
        box_measures(&(self.half_extents() * T::lit(2.0))).1
    }
}

impl<T: Real, const D: usize, const N: usize> BoundingVolume<T, D> for Kdop<T, D, N> {
    #[inline]
    fn merged(&self, other: &Self) -> Self {
        Kdop::new_unchecked(
            core::array::from_fn(|k| self.min()[k].min(other.min()[k])),
            core::array::from_fn(|k| self.max()[k].max(other.max()[k])),
        )
    }
    #[inline]
    fn overlaps(&self, other: &Self) -> bool {
        kdop_kdop(self, other)
    }
    #[inline]
    fn contains(&self, o: &Self) -> bool {
        (0..N).all(|k| self.min()[k] <= o.min()[k] && o.max()[k] <= self.max()[k])
    }
    #[inline]
    fn contains_point(&self, p: &Point<T, D>) -> bool {
        Kdop::contains_point(self, p)
    }
    /// The centre of the axis slabs (the first `D` directions are the coordinate axes).
    fn center(&self) -> Point<T, D> {
        Point::from(Vector::from_fn(|i, _| (self.min()[i] + self.max()[i]) * T::lit(0.5)))
    }
    /// The volume of the DOP's axis-aligned slabs (an upper bound on the DOP's own volume,
    /// exact for 6-DOPs and 4-DOPs).
    fn volume(&self) -> T {
        box_measures(&Vector::<T, D>::from_fn(|i, _| self.max()[i] - self.min()[i])).0
    }
    /// The surface area of the DOP's axis-aligned slabs (an upper bound, exact for 6- and
    /// 4-DOPs): enough for the surface area heuristic.
    fn surface_area(&self) -> T {
        box_measures(&Vector::<T, D>::from_fn(|i, _| self.max()[i] - self.min()[i])).1
    }
}
