//! Swept volumes for the broad phase: a box enclosing a shape over a whole time step, so a
//! broad phase fed with it cannot miss a pair that a continuous test would find.

use nalgebra::{Point3, Vector3};

use cd_geom::{support_aabb, Aabb, GeomResult, Real, SupportMap, Transformed, Vector};

use crate::motion::RigidMotion;

/// The box enclosing a translating box over `[0, dt]`: the union of its start and end
/// positions (exact for a translation).
///
/// ```
/// use cd_ccd::swept_aabb_linear;
/// use cd_geom::Aabb;
/// use nalgebra::{Point2, Vector2};
/// let b = Aabb::new(Point2::new(0.0f32, 0.0), Point2::new(1.0, 1.0)).unwrap();
/// let s = swept_aabb_linear(&b, &Vector2::new(3.0, -1.0), 1.0).unwrap();
/// assert_eq!((*s.min(), *s.max()), (Point2::new(0.0, -1.0), Point2::new(4.0, 1.0)));
/// ```
pub fn swept_aabb_linear<T: Real, const D: usize>(
    aabb: &Aabb<T, D>,
    velocity: &Vector<T, D>,
    dt: T,
) -> GeomResult<Aabb<T, D>> {
    let d = velocity * dt;
    let min = aabb.min().coords + d.map(|x| x.min(T::zero()));
    let max = aabb.max().coords + d.map(|x| x.max(T::zero()));
    Aabb::new(min.into(), max.into())
}

/// The box enclosing a rigidly moving convex shape (core grown by `radius`, given in its local
/// frame) over `[0, dt]`.
///
/// Without rotation it is the union of the shape's boxes at the start and at the end. With
/// rotation every point stays within `ρ` of the moving centre (`ρ` bounded from the shape's
/// local box), so the box of the centre's path grown by `ρ` encloses the sweep whatever the
/// angle turned. Errors only when the swept box leaves the coordinate range.
pub fn swept_aabb<S: SupportMap<T, 3> + ?Sized, T: Real>(
    shape: &S,
    radius: T,
    motion: &RigidMotion<T>,
    dt: T,
) -> GeomResult<Aabb<T, 3>> {
    let radius = if radius.is_finite() && radius > T::zero() { radius } else { T::zero() };
    if !motion.rotates() {
        let start = support_aabb(&Transformed::new(shape, *motion.start()));
        let end = support_aabb(&Transformed::new(shape, motion.pose_at(dt)));
        let grow = Vector3::repeat(radius);
        return Aabb::new(start.0.inf(&end.0) - grow, start.1.sup(&end.1) + grow);
    }
    let (lo, hi) = support_aabb(shape);
    let center = motion.local_center();
    let mut rho = T::zero();
    for corner in 0..8 {
        let p = Point3::from(Vector3::from_fn(|k, _| if corner >> k & 1 == 1 { hi[k] } else { lo[k] }));
        rho = rho.max((p - center).norm());
    }
    let grow = Vector3::repeat(rho + radius);
    let (c0, c1) = (motion.center_at(T::zero()), motion.center_at(dt));
    Aabb::new(c0.inf(&c1) - grow, c0.sup(&c1) + grow)
}
