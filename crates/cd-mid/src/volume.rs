//! [`HierarchyVolume`]: what a hierarchy needs from its bounding-volume type beyond cd-geom's
//! [`BoundingVolume`] (merge, overlap, containment, measures): fitting to primitives' points,
//! overlap and distance across a rigid motion, ray entry, and the enclosing AABB for region
//! queries. Implemented for AABBs, balls, OBBs and k-DOPs, 2D and 3D.
//!
//! Every test here is *conservative*: it may report an overlap (or a smaller distance, an
//! earlier ray entry) that the exact volumes do not have, never the reverse. A traversal built on
//! them therefore never loses a primitive pair; only its speed depends on how tight they are.
//! Fitted volumes are padded by a few units in the last place of their coordinates so rounding
//! in the fit or in the motion cannot push a primitive's vertex outside its volume.

use crate::motion::Motion;
use cd_geom::{
    ray_ball_grown, ray_kdop_grown, ray_obb_grown, Aabb, Ball, BoundingVolume, GeomResult, Kdop, Obb, Point,
    PreparedRay, Ray, Real, Vector,
};

/// A ray prepared once for testing against the many volumes of one hierarchy: the slab
/// method's inverse direction (cd-geom's [`PreparedRay`]) and the rounding pad every volume is
/// grown by (see [`VolumeRay::pad`]) are computed here, not per node.
#[derive(Clone, Copy, Debug)]
pub struct VolumeRay<T: Real, const D: usize> {
    ray: Ray<T, D>,
    prepared: PreparedRay<T, D>,
    pad: T,
}

impl<T: Real, const D: usize> VolumeRay<T, D> {
    /// Prepares `ray` for the volumes of a hierarchy whose primitives all lie in `bound` (the
    /// root's enclosing box).
    pub fn new(ray: &Ray<T, D>, bound: &Aabb<T, D>) -> Self {
        let pad = rounding_pad(ray.origin(), bound.min(), bound.max());
        VolumeRay { ray: *ray, prepared: PreparedRay::new(ray), pad }
    }

    /// The ray itself.
    #[inline(always)]
    pub fn ray(&self) -> &Ray<T, D> {
        &self.ray
    }

    /// How far outside a volume (per coordinate) a primitive's ray hit can lie by rounding;
    /// every [`HierarchyVolume::ray_entry`] tests its volume grown by this much (cd-geom's
    /// `*_grown` ray tests), the one rule for all volume types. See [`rounding_pad`].
    #[inline(always)]
    pub fn pad(&self) -> T {
        self.pad
    }

    /// Entry parameter into the box `[lo, hi]`, grown by [`VolumeRay::pad`], within
    /// `[0, max_t]`; `None` on a miss (cd-geom's [`PreparedRay::enter_grown_box`]).
    #[inline(always)]
    pub fn enter_box(&self, lo: &Point<T, D>, hi: &Point<T, D>, max_t: T) -> Option<T> {
        self.prepared.enter_grown_box(lo, hi, max_t, self.pad)
    }
}

/// How far outside its volume (per coordinate) a primitive's ray hit can lie by rounding, for
/// a ray from `origin` and primitives inside the box `[lo, hi]`: 16 ulps of the largest
/// coordinate offset from the origin to the box, plus 4 ulps of the origin's own coordinates.
///
/// Why: the watertight ray/triangle test shears the triangle's coordinates relative to the
/// ray origin, so a hit it reports can lie a few ulps of the largest of those relative
/// coordinates outside the triangle — and outside the volume that holds it — on any axis; its
/// box check admits a few more ulps of the hit point's own coordinates. Fuzz findings 39 (a
/// ray 10⁻³⁰⁰ beside an edge, an edge hit reported, the exact box missed by 10⁻³⁰⁰) and 42 (a
/// leaf OBB missed by the rounding of a ray from 2.9·10¹⁰ away) were such hits culled by exact
/// volumes. One pad per ray (from the root's box, not each node's) keeps the per-node tests
/// as cheap as exact ones; it grows each volume by 16 ulps of the scene's size plus the ray's
/// distance from it (about 2·10⁻⁶ of that in `f32`, 4·10⁻¹⁵ in `f64`), which lets through
/// no measurable number of extra nodes.
pub fn rounding_pad<T: Real, const D: usize>(origin: &Point<T, D>, lo: &Point<T, D>, hi: &Point<T, D>) -> T {
    let larger = |x: T, y: T| if x > y { x } else { y };
    let (mut reach, mut size) = (T::zero(), T::zero());
    for i in 0..D {
        reach = larger(reach, larger(origin[i] - lo[i], hi[i] - origin[i]));
        size = larger(size, origin[i].abs());
    }
    T::lit(16.0) * T::epsilon() * reach + T::lit(4.0) * T::epsilon() * size
}

/// A bounding volume a hierarchy can be built from and traversed with.
///
/// The provided tests are conservative (see the module documentation). `fit` is called on the
/// points of valid primitives (never empty), so its errors only report a primitive set that
/// was not validated.
pub trait HierarchyVolume<T: Real, const D: usize>:
    BoundingVolume<T, D> + Copy + core::fmt::Debug + Send + Sync + 'static
{
    /// A short name for reports (`"aabb"`, `"sphere"`, `"obb"`, `"18-dop"`).
    fn name() -> String;

    /// `true` when a parent is best fitted to all the points of its subtree (spheres, OBBs:
    /// merging two children's volumes would loosen them level by level); `false` when merging
    /// the children is already exact (AABBs, k-DOPs).
    const FIT_PARENTS_TO_POINTS: bool;

    /// A volume containing every point (padded against rounding).
    fn fit(points: &[Point<T, D>]) -> GeomResult<Self>;

    /// The box `[lo, hi]` itself, for a type that holds a box exactly (AABBs): a build then fits
    /// each leaf to its primitives' boxes, which it already has in the leaf's order, instead of
    /// gathering their points again. `None` (the default) for every other type, whose leaves
    /// are fitted to the points.
    fn from_box(lo: &Point<T, D>, hi: &Point<T, D>) -> Option<Self> {
        let _ = (lo, hi);
        None
    }

    /// Does this volume overlap `other` after `other` is carried by `motion` into this volume's
    /// frame? Conservative.
    fn overlaps_moved(&self, other: &Self, motion: &Motion<T, D>) -> bool;

    /// Parameter at which the ray enters the volume, clipped to `[0, max_t]`; `None` if it
    /// misses within that range. Conservative (may enter early).
    fn ray_entry(&self, ray: &VolumeRay<T, D>, max_t: T) -> Option<T>;

    /// A lower bound on the distance from `p` to the volume (0 inside).
    fn distance_to_point(&self, p: &Point<T, D>) -> T;

    /// A lower bound on the distance between this volume and `other` carried by `motion`
    /// (0 when they may overlap).
    fn distance_moved(&self, other: &Self, motion: &Motion<T, D>) -> T;

    /// An AABB containing the volume (region queries and frustum culling go through it).
    fn bounding_aabb(&self) -> Aabb<T, D>;
}

/// Relative padding applied to fitted volumes and to tests across a motion: enough to absorb
/// the rounding of a fit or of one rigid transform (a handful of operations), far below any
/// geometric tolerance a user would notice.
#[inline(always)]
fn slack<T: Real>(scale: T) -> T {
    T::lit(32.0) * T::epsilon() * scale
}

/// Largest absolute coordinate of a point.
#[inline(always)]
fn magnitude<T: Real, const D: usize>(p: &Point<T, D>) -> T {
    p.coords.amax()
}

/// Distance between the intervals `[a0, a1]` and `[b0, b1]` (0 when they overlap).
#[inline(always)]
fn interval_gap<T: Real>(a0: T, a1: T, b0: T, b1: T) -> T {
    (b0 - a1).max(a0 - b1).max(T::zero())
}

/// Centre and half extents of an AABB after `motion` (Arvo 1990: `|R| h`), padded by the
/// rounding slack.
#[inline(always)]
fn moved_box<T: Real, const D: usize>(b: &Aabb<T, D>, m: &Motion<T, D>) -> (Vector<T, D>, Vector<T, D>) {
    let c = b.center().coords;
    let h = b.half_extents();
    let mc = m.rotation * c + m.translation;
    let mut mh = m.rotation.abs() * h;
    let pad = slack(mc.amax() + mh.amax());
    mh.add_scalar_mut(pad);
    (mc, mh)
}

impl<T: Real, const D: usize> HierarchyVolume<T, D> for Aabb<T, D> {
    fn name() -> String {
        "aabb".into()
    }
    const FIT_PARENTS_TO_POINTS: bool = false;

    fn fit(points: &[Point<T, D>]) -> GeomResult<Self> {
        // Min/max are exact: no padding needed.
        Aabb::from_points(points)
    }

    #[inline]
    fn from_box(lo: &Point<T, D>, hi: &Point<T, D>) -> Option<Self> {
        Aabb::new(*lo, *hi).ok()
    }

    #[inline]
    fn overlaps_moved(&self, other: &Self, m: &Motion<T, D>) -> bool {
        let (c, h) = moved_box(other, m);
        let mut overlap = true;
        for i in 0..D {
            overlap &= (self.min()[i] <= c[i] + h[i]) & (c[i] - h[i] <= self.max()[i]);
        }
        overlap
    }

    #[inline(always)]
    fn ray_entry(&self, ray: &VolumeRay<T, D>, max_t: T) -> Option<T> {
        ray.enter_box(self.min(), self.max(), max_t)
    }

    #[inline]
    fn distance_to_point(&self, p: &Point<T, D>) -> T {
        let mut d2 = T::zero();
        for i in 0..D {
            let g = (self.min()[i] - p[i]).max(p[i] - self.max()[i]).max(T::zero());
            d2 += g * g;
        }
        d2.sqrt()
    }

    #[inline]
    fn distance_moved(&self, other: &Self, m: &Motion<T, D>) -> T {
        let (c, h) = moved_box(other, m);
        let mut d2 = T::zero();
        for i in 0..D {
            let g = interval_gap(self.min()[i], self.max()[i], c[i] - h[i], c[i] + h[i]);
            d2 += g * g;
        }
        d2.sqrt()
    }

    #[inline(always)]
    fn bounding_aabb(&self) -> Aabb<T, D> {
        *self
    }
}

impl<T: Real, const D: usize> HierarchyVolume<T, D> for Ball<T, D> {
    fn name() -> String {
        if D == 2 { "circle" } else { "sphere" }.into()
    }
    const FIT_PARENTS_TO_POINTS: bool = true;

    /// The exact minimal ball (Welzl), padded.
    fn fit(points: &[Point<T, D>]) -> GeomResult<Self> {
        let b = cd_bv::minimal_ball(points)?;
        let pad = slack(magnitude(b.center()) + b.radius());
        Ball::new(*b.center(), b.radius() + pad)
    }

    #[inline]
    fn overlaps_moved(&self, other: &Self, m: &Motion<T, D>) -> bool {
        let c = m.transform_point(other.center());
        let r = self.radius() + other.radius() + slack(magnitude(&c));
        (c - self.center()).norm_squared() <= r * r
    }

    /// The ray against the ball grown by [`VolumeRay::pad`].
    #[inline]
    fn ray_entry(&self, ray: &VolumeRay<T, D>, max_t: T) -> Option<T> {
        ray_ball_grown(ray.ray(), self, ray.pad()).map(|h| h.t).filter(|t| *t <= max_t)
    }

    #[inline]
    fn distance_to_point(&self, p: &Point<T, D>) -> T {
        ((p - self.center()).norm() - self.radius()).max(T::zero())
    }

    #[inline]
    fn distance_moved(&self, other: &Self, m: &Motion<T, D>) -> T {
        let c = m.transform_point(other.center());
        ((c - self.center()).norm() - self.radius() - other.radius()).max(T::zero())
    }

    fn bounding_aabb(&self) -> Aabb<T, D> {
        let r = Vector::repeat(self.radius());
        // A valid ball's corners stay within twice the coordinate limit; the fallback keeps the
        // function total.
        Aabb::new(self.center() - r, self.center() + r).unwrap_or_else(|_| point_box(self.center()))
    }
}

/// Fallback for an enclosing box that would leave the coordinate range (unreachable for valid
/// volumes): the box of the volume's centre, or of the origin, so callers never see a panic.
pub(crate) fn point_box<T: Real, const D: usize>(p: &Point<T, D>) -> Aabb<T, D> {
    let origin = Point::origin();
    Aabb::from_points([p]).or_else(|_| Aabb::from_points([&origin])).unwrap_or_else(|_| unreachable!())
}

/// Relative rotation and translation of OBB `b` (after `m`) expressed in `a`'s axes, with the
/// rounding slack for the pair.
#[inline(always)]
fn obb_relative<T: Real, const D: usize>(
    a: &Obb<T, D>,
    b: &Obb<T, D>,
    m: &Motion<T, D>,
) -> (cd_geom::Matrix<T, D>, Vector<T, D>, T) {
    let b_axes = m.rotation * b.axes();
    let b_center = m.transform_point(b.center());
    let r = a.axes().tr_mul(&b_axes);
    let t = a.axes().tr_mul(&(b_center - a.center()));
    let pad = slack(
        magnitude(a.center()) + magnitude(&b_center) + a.half_extents().amax() + b.half_extents().amax(),
    );
    (r, t, pad)
}

/// Largest separating gap between two boxes over the separating-axis candidates: the face
/// axes of both and, in 3D, the nine edge-edge cross products (Gottschalk et al. 1996). `r` is
/// B's axes in A's frame, `t` B's centre in A's frame. A positive value is a lower bound on the
/// distance (a gap along a unit axis); `≤ 0` means no axis separates.
pub(crate) fn obb_separation<T: Real, const D: usize>(
    ha: &Vector<T, D>,
    hb: &Vector<T, D>,
    r: &cd_geom::Matrix<T, D>,
    t: &Vector<T, D>,
    edge_axes: bool,
) -> T {
    // Guard against parallel edges making a cross product (near) zero: the |R| terms get a
    // small epsilon, as in Gottschalk's RAPID.
    let abs_r = r.abs().add_scalar(T::lit(1e-6) * T::epsilon().sqrt());
    let mut best = -T::infinity();
    for i in 0..D {
        let rb = (0..D).fold(T::zero(), |s, j| s + hb[j] * abs_r[(i, j)]);
        best = best.max(t[i].abs() - ha[i] - rb);
    }
    for j in 0..D {
        let ra = (0..D).fold(T::zero(), |s, i| s + ha[i] * abs_r[(i, j)]);
        let tj = (0..D).fold(T::zero(), |s, i| s + t[i] * r[(i, j)]);
        best = best.max(tj.abs() - ra - hb[j]);
    }
    if edge_axes && D == 3 && best <= T::zero() {
        for i in 0..3 {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            for j in 0..3 {
                let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
                // Axis a_i × b_j, in A's frame: its length is sin(angle), so the gap is scaled
                // to a unit axis before comparing with other axes.
                let len = (T::one() - r[(i, j)] * r[(i, j)]).max(T::zero()).sqrt();
                if len <= T::lit(1e-6) {
                    continue;
                }
                let dist = (t[i2] * r[(i1, j)] - t[i1] * r[(i2, j)]).abs();
                let ra = ha[i1] * abs_r[(i2, j)] + ha[i2] * abs_r[(i1, j)];
                let rb = hb[j1] * abs_r[(i, j2)] + hb[j2] * abs_r[(i, j1)];
                best = best.max((dist - ra - rb) / len);
            }
        }
    }
    best
}

impl<T: Real, const D: usize> HierarchyVolume<T, D> for Obb<T, D> {
    fn name() -> String {
        "obb".into()
    }
    const FIT_PARENTS_TO_POINTS: bool = true;

    /// PCA on the points (Gottschalk et al. 1996), padded.
    fn fit(points: &[Point<T, D>]) -> GeomResult<Self> {
        let b = cd_bv::obb_pca(points)?;
        let pad = slack(magnitude(b.center()) + b.half_extents().amax());
        Obb::new(*b.center(), *b.axes(), b.half_extents().add_scalar(pad))
    }

    /// The full separating-axis test: 15 axes in 3D, 4 in 2D (exact for boxes).
    #[inline]
    fn overlaps_moved(&self, other: &Self, m: &Motion<T, D>) -> bool {
        let (r, t, pad) = obb_relative(self, other, m);
        obb_separation(self.half_extents(), other.half_extents(), &r, &t, true) <= pad
    }

    /// The ray against the box grown by [`VolumeRay::pad`] (which also covers the rotation of
    /// the ray into the box's frame: a few ulps of the same offsets).
    #[inline]
    fn ray_entry(&self, ray: &VolumeRay<T, D>, max_t: T) -> Option<T> {
        ray_obb_grown(ray.ray(), self, ray.pad()).map(|h| h.t).filter(|t| *t <= max_t)
    }

    #[inline]
    fn distance_to_point(&self, p: &Point<T, D>) -> T {
        let q = self.to_local(p);
        let h = self.half_extents();
        let mut d2 = T::zero();
        for i in 0..D {
            let g = (q[i].abs() - h[i]).max(T::zero());
            d2 += g * g;
        }
        d2.sqrt()
    }

    #[inline]
    fn distance_moved(&self, other: &Self, m: &Motion<T, D>) -> T {
        let (r, t, pad) = obb_relative(self, other, m);
        (obb_separation(self.half_extents(), other.half_extents(), &r, &t, true) - pad).max(T::zero())
    }

    fn bounding_aabb(&self) -> Aabb<T, D> {
        let half = self.axes().abs() * self.half_extents();
        Aabb::new(self.center() - half, self.center() + half).unwrap_or_else(|_| point_box(self.center()))
    }
}

/// An OBB whose overlap test across a motion is van den Bergen's "SAT lite": only the six face
/// axes of the two boxes, skipping the nine edge-edge axes of the full test. Conservative (it
/// may report separated boxes as overlapping, never the reverse) and cheaper per test; whether
/// the extra descents cost more than the saved axes is what the OBB-tree benchmark measures.
/// Everything else behaves as [`Obb`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SatLiteObb<T: Real>(pub Obb<T, 3>);

impl<T: Real> BoundingVolume<T, 3> for SatLiteObb<T> {
    fn merged(&self, other: &Self) -> Self {
        SatLiteObb(self.0.merged(&other.0))
    }
    fn overlaps(&self, other: &Self) -> bool {
        self.0.overlaps(&other.0)
    }
    fn contains(&self, other: &Self) -> bool {
        BoundingVolume::contains(&self.0, &other.0)
    }
    fn contains_point(&self, p: &Point<T, 3>) -> bool {
        self.0.contains_point(p)
    }
    fn center(&self) -> Point<T, 3> {
        *self.0.center()
    }
    fn volume(&self) -> T {
        BoundingVolume::volume(&self.0)
    }
    fn surface_area(&self) -> T {
        BoundingVolume::surface_area(&self.0)
    }
}

impl<T: Real> HierarchyVolume<T, 3> for SatLiteObb<T> {
    fn name() -> String {
        "obb-sat-lite".into()
    }
    const FIT_PARENTS_TO_POINTS: bool = true;

    fn fit(points: &[Point<T, 3>]) -> GeomResult<Self> {
        Obb::fit(points).map(SatLiteObb)
    }

    #[inline]
    fn overlaps_moved(&self, other: &Self, m: &Motion<T, 3>) -> bool {
        let (r, t, pad) = obb_relative(&self.0, &other.0, m);
        obb_separation(self.0.half_extents(), other.0.half_extents(), &r, &t, false) <= pad
    }

    fn ray_entry(&self, ray: &VolumeRay<T, 3>, max_t: T) -> Option<T> {
        self.0.ray_entry(ray, max_t)
    }

    fn distance_to_point(&self, p: &Point<T, 3>) -> T {
        self.0.distance_to_point(p)
    }

    fn distance_moved(&self, other: &Self, m: &Motion<T, 3>) -> T {
        self.0.distance_moved(&other.0, m)
    }

    fn bounding_aabb(&self) -> Aabb<T, 3> {
        self.0.bounding_aabb()
    }
}

/// The axis slabs of a k-DOP (its first `D` directions are the coordinate axes) as an AABB.
fn kdop_axis_box<T: Real, const D: usize, const N: usize>(k: &Kdop<T, D, N>) -> Aabb<T, D> {
    let lo = Point::from(Vector::<T, D>::from_fn(|i, _| k.min()[i]));
    let hi = Point::from(Vector::<T, D>::from_fn(|i, _| k.max()[i]));
    Aabb::new(lo, hi).unwrap_or_else(|_| point_box(&lo))
}

/// The slab intervals of `other` carried by `m`, in this DOP type's directions: the DOP of the
/// moved corners of `other`'s axis box (conservative: a rotated DOP is not a DOP of the same
/// directions; the k-DOP tree refines this).
fn moved_kdop<T: Real, const D: usize, const N: usize>(
    other: &Kdop<T, D, N>,
    m: &Motion<T, D>,
) -> ([T; N], [T; N]) {
    let dirs = other.directions();
    if m.is_translation() {
        let lo = core::array::from_fn(|k| other.min()[k] + dirs[k].dot(&m.translation));
        let hi = core::array::from_fn(|k| other.max()[k] + dirs[k].dot(&m.translation));
        return (lo, hi);
    }
    kdop_of_moved_axis_box(other, m)
}

/// The slabs, in the DOP's directions, of the corners of a DOP's axis box carried by `m`: the
/// approximate rotation update of a k-DOP (shared with [`KdopTree`](crate::KdopTree)).
pub(crate) fn kdop_of_moved_axis_box<T: Real, const D: usize, const N: usize>(
    dop: &Kdop<T, D, N>,
    m: &Motion<T, D>,
) -> ([T; N], [T; N]) {
    let dirs = dop.directions();
    let b = kdop_axis_box(dop);
    let mut lo = [T::infinity(); N];
    let mut hi = [-T::infinity(); N];
    for bits in 0..(1usize << D) {
        let p = m.transform_point(&b.corner(bits));
        for k in 0..N {
            let s = dirs[k].dot(&p.coords);
            lo[k] = lo[k].min(s);
            hi[k] = hi[k].max(s);
        }
    }
    (lo, hi)
}

impl<T: Real, const D: usize, const N: usize> HierarchyVolume<T, D> for Kdop<T, D, N> {
    fn name() -> String {
        format!("{}-dop", 2 * N)
    }
    const FIT_PARENTS_TO_POINTS: bool = false;

    fn fit(points: &[Point<T, D>]) -> GeomResult<Self> {
        let k = Kdop::<T, D, N>::from_points(points)?;
        let scale = (0..N).fold(T::zero(), |s, i| s.max(k.min()[i].abs()).max(k.max()[i].abs()));
        let pad = slack(scale);
        Kdop::new(core::array::from_fn(|i| k.min()[i] - pad), core::array::from_fn(|i| k.max()[i] + pad))
    }

    #[inline]
    fn overlaps_moved(&self, other: &Self, m: &Motion<T, D>) -> bool {
        let (lo, hi) = moved_kdop(other, m);
        let scale = (0..N).fold(T::zero(), |s, i| s.max(lo[i].abs()).max(hi[i].abs()));
        let pad = slack(scale);
        (0..N).all(|k| self.min()[k] <= hi[k] + pad && lo[k] - pad <= self.max()[k])
    }

    /// The ray against the k-DOP grown by [`VolumeRay::pad`].
    #[inline]
    fn ray_entry(&self, ray: &VolumeRay<T, D>, max_t: T) -> Option<T> {
        ray_kdop_grown(ray.ray(), self, ray.pad()).map(|h| h.t).filter(|t| *t <= max_t)
    }

    fn distance_to_point(&self, p: &Point<T, D>) -> T {
        let dirs = self.directions();
        let mut best = T::zero();
        for (k, n) in dirs.iter().enumerate() {
            let s = n.dot(&p.coords);
            best = best.max(interval_gap(self.min()[k], self.max()[k], s, s) / n.norm());
        }
        best
    }

    fn distance_moved(&self, other: &Self, m: &Motion<T, D>) -> T {
        let dirs = self.directions();
        let (lo, hi) = moved_kdop(other, m);
        let mut best = T::zero();
        for (k, n) in dirs.iter().enumerate() {
            best = best.max(interval_gap(self.min()[k], self.max()[k], lo[k], hi[k]) / n.norm());
        }
        best
    }

    fn bounding_aabb(&self) -> Aabb<T, D> {
        kdop_axis_box(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cd_geom::{Dop18, Dop26, GeomError};
    use nalgebra::{Isometry3, Point3, Vector3};

    /// Checks the invariant every fitted volume must satisfy (used by tests and `Bvh::validate`).
    fn contains_all<T: Real, const D: usize, B: HierarchyVolume<T, D>>(
        bv: &B,
        points: &[Point<T, D>],
    ) -> GeomResult<()> {
        if points.iter().all(|p| bv.contains_point(p)) {
            Ok(())
        } else {
            Err(GeomError::InvertedBounds)
        }
    }

    fn cloud() -> Vec<Point3<f64>> {
        let mut s = 12345u64;
        (0..60)
            .map(|_| {
                let mut r = || {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
                };
                Point3::new(r() * 3.0, r(), r() * 0.5)
            })
            .collect()
    }

    /// Each volume type's moved tests against exact point-set facts: the fitted volumes contain
    /// their points; two clouds whose moved points coincide must be reported overlapping with
    /// a zero distance bound; a cloud moved far away is separated with a bound not above the
    /// true distance between the point sets.
    fn check<B: HierarchyVolume<f64, 3>>() {
        let pts = cloud();
        let bv = B::fit(&pts).unwrap();
        contains_all(&bv, &pts).unwrap();
        let pose = Isometry3::new(Vector3::new(0.2, -0.1, 0.3), Vector3::new(0.4, 1.0, -0.7));
        let m = Motion::from_isometry(&pose);
        // The same points, expressed in a frame where they were moved by the inverse.
        let inv = Motion::from_isometry(&pose.inverse());
        let back: Vec<_> = pts.iter().map(|p| inv.transform_point(p)).collect();
        let other = B::fit(&back).unwrap();
        assert!(bv.overlaps_moved(&other, &m), "{}", B::name());
        assert_eq!(bv.distance_moved(&other, &m), 0.0);
        let far = Motion::from_isometry(&Isometry3::new(
            Vector3::new(40.0, 3.0, -2.0),
            Vector3::new(0.4, 1.0, -0.7),
        ));
        assert!(!bv.overlaps_moved(&bv, &far), "{}", B::name());
        let true_min = pts
            .iter()
            .flat_map(|p| pts.iter().map(move |q| (p, q)))
            .map(|(p, q)| (far.transform_point(q) - p).norm())
            .fold(f64::INFINITY, f64::min);
        let lb = bv.distance_moved(&bv, &far);
        assert!(lb > 0.0 && lb <= true_min + 1e-9, "{} {lb} {true_min}", B::name());
        let p = Point3::new(10.0, 0.0, 0.0);
        let d = pts.iter().map(|q| (q - p).norm()).fold(f64::INFINITY, f64::min);
        assert!(bv.distance_to_point(&p) <= d + 1e-9);
    }

    #[test]
    fn volumes_are_conservative() {
        check::<Aabb<f64, 3>>();
        check::<Ball<f64, 3>>();
        check::<Obb<f64, 3>>();
        check::<Dop18<f64>>();
        check::<Dop26<f64>>();
    }

    #[test]
    fn ray_entry_matches_slab_geometry() {
        let b = Aabb::new(Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 1.0, 1.0)).unwrap();
        // Along a face plane (zero direction component, origin on the boundary) still enters.
        let r = Ray::new(Point3::new(-1.0, 0.0, 0.5), Vector3::new(1.0, 0.0, 0.0)).unwrap();
        let ray = VolumeRay::new(&r, &b);
        // The pad: 16 ulps of the farthest offset (2, to x = 1) and 4 of the origin (1).
        assert_eq!(ray.pad(), 36.0 * f64::EPSILON);
        // Entered at 1, reported the pad early.
        let entry = b.ray_entry(&ray, 10.0).expect("enters");
        assert!((1.0 - 40.0 * f64::EPSILON..=1.0).contains(&entry), "{entry}");
        assert_eq!(b.ray_entry(&ray, 0.5), None);
        let miss = Ray::new(Point3::new(-1.0, -0.1, 0.5), Vector3::new(1.0, 0.0, 0.0)).unwrap();
        assert_eq!(b.ray_entry(&VolumeRay::new(&miss, &b), 10.0), None);
    }

    /// Every volume type admits a ray passing within the pad of it and rejects one passing
    /// twice as far: the one rounding rule, whatever the volume.
    #[test]
    fn every_volume_is_grown_by_the_pad_and_no_more() {
        // The unit cube's corners.
        let points: Vec<_> =
            (0..8).map(|i| Point3::new(f64::from(i & 1), f64::from(i >> 1 & 1), f64::from(i >> 2))).collect();
        let scene = Aabb::new(Point3::origin(), Point3::new(1.0, 1.0, 1.0)).unwrap();
        fn probe<B: HierarchyVolume<f64, 3>>(volume: &B, scene: &Aabb<f64, 3>, pass: f64) -> Option<f64> {
            // Along x, `pass` above the volume's top face: starts 10⁶ away so the pad is large.
            let top = volume.bounding_aabb().max().y;
            let r = Ray::new(Point3::new(-1e6, top + pass, 0.5), Vector3::new(1.0, 0.0, 0.0)).unwrap();
            let ray = VolumeRay::new(&r, scene);
            volume.ray_entry(&ray, f64::INFINITY)
        }
        let pad = VolumeRay::new(&Ray::new(Point3::new(-1e6, 1.0, 0.5), Vector3::x()).unwrap(), &scene).pad();
        let aabb = Aabb::fit(&points).unwrap();
        assert!(probe(&aabb, &scene, 0.5 * pad).is_some());
        assert!(probe(&aabb, &scene, 2.0 * pad).is_none());
        let dop = Dop18::<f64>::fit(&points).unwrap();
        assert!(probe(&dop, &scene, 0.5 * pad).is_some());
        assert!(probe(&dop, &scene, 2.0 * pad).is_none());
        let obb = Obb::new(Point3::new(0.5, 0.5, 0.5), nalgebra::Matrix3::identity(), Vector3::repeat(0.5))
            .unwrap();
        assert!(probe(&obb, &scene, 0.5 * pad).is_some());
        assert!(probe(&obb, &scene, 3.0 * pad).is_none());
        let ball = Ball::new(Point3::new(0.5, 0.5, 0.5), 0.5).unwrap();
        assert!(probe(&ball, &scene, 0.5 * pad).is_some());
        assert!(probe(&ball, &scene, 3.0 * pad).is_none());
    }
}
