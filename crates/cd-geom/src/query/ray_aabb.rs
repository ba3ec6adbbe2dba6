//! Ray/box intersection by the slab method (Kay–Kajiya 1986, RTR 22.7.1), for AABBs in 2D and
//! 3D and for OBBs by moving the ray into the box frame.

use crate::{Aabb, Obb, Point, Ray, RayHit, Real, Vector};

/// A ray with its per-axis inverse direction precomputed, for testing one ray against many
/// boxes (BVH traversal) without a division per box.
#[derive(Clone, Copy, Debug)]
pub struct PreparedRay<T: Real, const D: usize> {
    origin: Point<T, D>,
    inv_dir: Vector<T, D>,
    /// `inv_dir` grown by `8ε`: the far slab's parameter computed with it errs outward by more
    /// than the rounding of both slab parameters (Ize 2013, "Robust BVH ray traversal"), so
    /// [`PreparedRay::enter_box`] needs no slack of its own.
    inv_far: Vector<T, D>,
    /// Axes along which the direction is zero (or so small its inverse overflows): the ray
    /// cannot cross those slabs, it is inside or outside them for all `t`.
    parallel: [bool; D],
    max_t: T,
}

impl<T: Real, const D: usize> PreparedRay<T, D> {
    /// Precomputes `1 / dir` per axis.
    #[inline]
    pub fn new(ray: &Ray<T, D>) -> Self {
        let mut parallel = [false; D];
        let inv_dir = Vector::from_fn(|i, _| {
            let inv = T::one() / ray.dir()[i];
            if inv.is_finite() {
                inv
            } else {
                parallel[i] = true;
                T::zero()
            }
        });
        let inv_far = inv_dir * (T::one() + T::lit(8.0) * T::epsilon());
        PreparedRay { origin: *ray.origin(), inv_dir, inv_far, parallel, max_t: ray.max_t() }
    }

    /// The ray's origin.
    #[inline(always)]
    pub fn origin(&self) -> &Point<T, D> {
        &self.origin
    }

    /// `1 / dir` per axis (0 on the axes the ray runs parallel to; see
    /// [`is_parallel`](Self::is_parallel)).
    #[inline(always)]
    pub fn inv_dir(&self) -> &Vector<T, D> {
        &self.inv_dir
    }

    /// Does the ray run parallel to axis `i` (zero direction component, or one whose inverse
    /// overflows)? Slab tests on that axis are an inside/outside comparison of the origin.
    #[inline(always)]
    pub fn is_parallel(&self, i: usize) -> bool {
        self.parallel[i]
    }

    /// Entry parameter into the box `[lo, hi]` within `[0, max_t]` (touching counts, within
    /// a few ulps: see [`ray_aabb`]), `None`
    /// on a miss: the bare slab test hierarchy traversals run per node, without the entry axis
    /// [`ray_aabb_interval`] also tracks. O(D), no division.
    #[inline(always)]
    pub fn enter_box(&self, lo: &Point<T, D>, hi: &Point<T, D>, max_t: T) -> Option<T> {
        self.enter_grown_box(lo, hi, max_t, T::zero())
    }

    /// [`enter_box`](Self::enter_box) for the box `[lo − pad, hi + pad]`: every point within
    /// `pad` of the box on each axis counts as inside. For conservative culling, where the test
    /// behind the box (a hierarchy's leaf primitives) may report a hit a rounding distance
    /// outside it. A negative or NaN `pad` counts as 0. O(D), no division.
    ///
    /// ```
    /// use cd_geom::{PreparedRay, Ray};
    /// use nalgebra::{Point2, Vector2};
    /// let ray = PreparedRay::new(&Ray::new(Point2::new(0.0f64, 1.5), Vector2::x()).unwrap());
    /// let (lo, hi) = (Point2::new(2.0, -1.0), Point2::new(4.0, 1.0));
    /// assert_eq!(ray.enter_box(&lo, &hi, 10.0), None);
    /// assert_eq!(ray.enter_grown_box(&lo, &hi, 10.0, 0.5), Some(1.5));
    /// ```
    #[inline(always)]
    pub fn enter_grown_box(&self, lo: &Point<T, D>, hi: &Point<T, D>, max_t: T, pad: T) -> Option<T> {
        let pad = sanitized_pad(pad);
        let mut t_enter = T::zero();
        let mut t_exit = max_t;
        for i in 0..D {
            let o = self.origin.coords[i];
            let (dl, dh) = (lo.coords[i] - pad - o, hi.coords[i] + pad - o);
            if self.parallel[i] {
                if dl > T::zero() || dh < T::zero() {
                    return None;
                }
                continue;
            }
            // The far parameter comes from the grown inverse: that is the touching slack. A
            // slack applied to the exit after the loop (a multiply and a `min` on every node's
            // critical path) made the binary traversal 26 % slower; two more multiplies here,
            // off that path, cost about 2 %.
            let (t1, t2) = (dl * self.inv_dir[i], dh * self.inv_dir[i]);
            // Plain compare-and-select (not `min`/`max`, whose NaN handling costs extra work
            // and cannot matter: no operand is NaN here).
            let near = if t1 < t2 { t1 } else { t2 };
            let (f1, f2) = (dl * self.inv_far[i], dh * self.inv_far[i]);
            let far = if f1 > f2 { f1 } else { f2 };
            if near > t_enter {
                t_enter = near;
            }
            if far < t_exit {
                t_exit = far;
            }
        }
        (t_enter <= t_exit).then_some(t_enter)
    }
}

/// A growth pad as the `*_grown` ray tests take it: negative and NaN pads count as 0.
#[inline(always)]
pub(crate) fn sanitized_pad<T: Real>(pad: T) -> T {
    if pad > T::zero() {
        pad
    } else {
        T::zero()
    }
}

/// Do the slab intervals still meet, with a few ulps of slack on the exit (Ize 2013, "Robust
/// BVH ray traversal")? Each computed parameter `(bound − o)·(1/d)` carries three roundings,
/// so a ray that touches a box at a corner or along an edge can come out with its entry an ulp
/// or two past its exit; `1 + 4ε` covers both errors, so the test errs towards a hit by at
/// most that much, never towards a miss. Callers report `min(t_enter, t_exit)` so a hit stays
/// within `[0, max_t]`.
#[inline(always)]
pub(crate) fn slabs_meet<T: Real>(t_enter: T, t_exit: T) -> bool {
    t_enter <= t_exit * (T::one() + T::lit(4.0) * T::epsilon())
}

/// The parameter interval `[t_enter, t_exit]` (clipped to `[0, max_t]`) over which a prepared
/// ray is inside `aabb`, and the axis of the entry slab (`None` when it starts inside).
/// Touching a face or an edge counts as a hit (a zero-length interval). O(D), no division.
#[inline]
pub fn ray_aabb_interval<T: Real, const D: usize>(
    ray: &PreparedRay<T, D>,
    aabb: &Aabb<T, D>,
) -> Option<(T, T, Option<usize>)> {
    let mut t_enter = T::zero();
    let mut t_exit = ray.max_t;
    let mut axis = None;
    for i in 0..D {
        let o = ray.origin[i];
        if ray.parallel[i] {
            if o < aabb.min()[i] || o > aabb.max()[i] {
                return None;
            }
            continue;
        }
        let inv = ray.inv_dir[i];
        let t1 = (aabb.min()[i] - o) * inv;
        let t2 = (aabb.max()[i] - o) * inv;
        let (near, far) = if inv >= T::zero() { (t1, t2) } else { (t2, t1) };
        if near > t_enter {
            t_enter = near;
            axis = Some(i);
        }
        if far < t_exit {
            t_exit = far;
        }
        if !slabs_meet(t_enter, t_exit) {
            return None;
        }
    }
    Some((t_enter.min(t_exit), t_exit, axis))
}

/// Ray/AABB by the slab method (RTR 22.7.1) with the inverse direction computed once.
/// Returns the entry parameter and the face normal; a ray starting inside hits at `t = 0` with a
/// zero normal. Touching a face, edge or corner counts as a hit even when rounding puts the
/// computed entry a few ulps past the exit (the exit gets `1 + 4ε` of slack, Ize 2013), so a
/// ray that misses a box by a few ulps of its parameter may be reported as touching it. O(D).
///
/// ```
/// use cd_geom::{ray_aabb, Aabb, Ray};
/// use nalgebra::{Point2, Vector2};
/// let b = Aabb::new(Point2::new(1.0f64, -1.0), Point2::new(3.0, 1.0)).unwrap();
/// let r = Ray::new(Point2::origin(), Vector2::new(2.0, 0.0)).unwrap();
/// let hit = ray_aabb(&r, &b).unwrap();
/// assert_eq!((hit.t, hit.normal), (0.5, Vector2::new(-1.0, 0.0)));
/// ```
#[inline]
pub fn ray_aabb<T: Real, const D: usize>(ray: &Ray<T, D>, aabb: &Aabb<T, D>) -> Option<RayHit<T, D>> {
    let (t, _, axis) =
        slabs(&ray.origin().coords, ray.dir(), &aabb.min().coords, &aabb.max().coords, ray.max_t())?;
    let mut normal = Vector::zeros();
    if let Some(i) = axis {
        normal[i] = if ray.dir()[i] > T::zero() { -T::one() } else { T::one() };
    }
    Some(RayHit { t, normal })
}

/// The slab method for one ray and one box given as per-axis bounds: the parameter interval
/// inside all slabs (clipped to `[0, max_t]`) and the entry axis. One division per axis; an axis
/// whose reciprocal direction overflows is treated as parallel (inside or outside its slab for
/// every `t`), so no `0 · ∞` can produce NaN.
#[inline(always)]
fn slabs<T: Real, const D: usize>(
    origin: &Vector<T, D>,
    dir: &Vector<T, D>,
    min: &Vector<T, D>,
    max: &Vector<T, D>,
    max_t: T,
) -> Option<(T, T, Option<usize>)> {
    let mut t_enter = T::zero();
    let mut t_exit = max_t;
    let mut axis = None;
    for i in 0..D {
        let o = origin[i];
        let inv = T::one() / dir[i];
        if !inv.is_finite() {
            if o < min[i] || o > max[i] {
                return None;
            }
            continue;
        }
        let t1 = (min[i] - o) * inv;
        let t2 = (max[i] - o) * inv;
        let (near, far) = if inv >= T::zero() { (t1, t2) } else { (t2, t1) };
        if near > t_enter {
            t_enter = near;
            axis = Some(i);
        }
        if far < t_exit {
            t_exit = far;
        }
        if !slabs_meet(t_enter, t_exit) {
            return None;
        }
    }
    Some((t_enter.min(t_exit), t_exit, axis))
}

/// [`ray_aabb`] for a [`PreparedRay`].
#[inline]
pub fn ray_aabb_prepared<T: Real, const D: usize>(
    ray: &PreparedRay<T, D>,
    aabb: &Aabb<T, D>,
) -> Option<RayHit<T, D>> {
    let (t, _, axis) = ray_aabb_interval(ray, aabb)?;
    let mut normal = Vector::zeros();
    if let Some(i) = axis {
        normal[i] = if ray.inv_dir[i] > T::zero() { -T::one() } else { T::one() };
    }
    Some(RayHit { t, normal })
}

/// Ray/OBB: the ray is moved into the box frame (`axesᵀ·(o - c)`, `axesᵀ·d`) and tested with
/// the slab method against the box's local AABB; the normal is rotated back. Equivalent to the
/// OBB slab formulation of RTR 22.7.1. O(D²).
#[inline]
pub fn ray_obb<T: Real, const D: usize>(ray: &Ray<T, D>, obb: &Obb<T, D>) -> Option<RayHit<T, D>> {
    ray_obb_grown(ray, obb, T::zero())
}

/// [`ray_obb`] against the box grown by `pad` per world coordinate: every point within `pad`
/// of the box on each world axis (max-norm) counts as inside, so each half extent grows by
/// `√D·pad` (a world max-norm step of `pad` moves a box coordinate by at most that). For
/// conservative culling, where a test behind the box may report a hit a rounding distance
/// outside it. A negative or NaN `pad` counts as 0. O(D²).
///
/// ```
/// use cd_geom::{ray_obb, ray_obb_grown, Obb, Ray};
/// use nalgebra::{Matrix2, Point2, Vector2};
/// let b = Obb::new(Point2::new(5.0f64, 0.0), Matrix2::identity(), Vector2::new(1.0, 1.0)).unwrap();
/// let r = Ray::new(Point2::new(0.0, 1.2), Vector2::x()).unwrap();
/// assert!(ray_obb(&r, &b).is_none());
/// assert!(ray_obb_grown(&r, &b, 0.25).is_some());
/// ```
#[inline]
pub fn ray_obb_grown<T: Real, const D: usize>(
    ray: &Ray<T, D>,
    obb: &Obb<T, D>,
    pad: T,
) -> Option<RayHit<T, D>> {
    let origin = obb.to_local(ray.origin()).coords;
    let dir = obb.vector_to_local(ray.dir());
    let h = obb.half_extents().add_scalar(sanitized_pad(pad) * T::lit((D as f64).sqrt()));
    let (t_enter, _, axis) = slabs(&origin, &dir, &-h, &h, ray.max_t())?;
    let normal = match axis {
        Some(i) => obb.axis(i) * if dir[i] > T::zero() { -T::one() } else { T::one() },
        None => Vector::zeros(),
    };
    Some(RayHit { t: t_enter, normal })
}
