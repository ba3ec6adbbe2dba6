//! Direction helpers shared by the layers: a unit vector perpendicular to a given one.

use crate::{Real, Vector};

/// A unit vector perpendicular to `d` (in any dimension ≥ 2), continuous in `d` away from the
/// switches between coordinate axes: the coordinate axis least aligned with `d`, with its
/// component along `d` removed. A zero (or NaN) `d` gives the first coordinate axis, so the
/// result is always a finite unit vector.
///
/// ```
/// use cd_geom::unit_perpendicular;
/// use nalgebra::Vector3;
///
/// let d = Vector3::new(0.3f64, -2.0, 0.7);
/// let p = unit_perpendicular(&d);
/// assert!(p.dot(&d).abs() < 1e-12 && (p.norm() - 1.0).abs() < 1e-12);
/// ```
pub fn unit_perpendicular<T: Real, const D: usize>(d: &Vector<T, D>) -> Vector<T, D> {
    let first_axis = || Vector::<T, D>::from_fn(|i, _| if i == 0 { T::one() } else { T::zero() });
    let k = d.iamin();
    let e = Vector::<T, D>::from_fn(|i, _| if i == k { T::one() } else { T::zero() });
    let p = e - d * (d.dot(&e) / d.norm_squared().max(T::lit(1e-30)));
    p.try_normalize(T::zero()).filter(|u| u.iter().all(|x| x.is_finite())).unwrap_or_else(first_axis)
}
