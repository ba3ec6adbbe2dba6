//! Input checks shared by every constructor. [`vector`] and [`point`] are public so crates
//! above check their own inputs (masses, velocities, mesh vertices) by the same rules: finite and
//! within [`Real::coord_limit`].

use crate::{GeomError, GeomResult, Point, Real, Vector};

/// A scalar coordinate: finite and within the coordinate limit.
#[inline]
pub(crate) fn coord<T: Real>(x: T) -> GeomResult<T> {
    if !x.is_finite() {
        Err(GeomError::NonFinite)
    } else if x.abs() > T::coord_limit() {
        Err(GeomError::OutOfRange)
    } else {
        Ok(x)
    }
}

/// A non-negative scalar (radius, extent, length) within the coordinate range.
#[inline]
pub fn non_negative<T: Real>(x: T) -> GeomResult<T> {
    let x = coord(x)?;
    if x < T::zero() {
        Err(GeomError::Negative)
    } else {
        Ok(x)
    }
}

/// Every component of a vector is a valid coordinate.
///
/// One pass without early exits (constructors run this on every point, in hot loops too):
/// `|x| ≤ limit` is false for NaN and ±∞ as well as for values beyond the limit, so one
/// comparison per component decides the common case; only a failure looks again to tell a
/// non-finite component (reported first) from one out of range.
#[inline]
pub fn vector<T: Real, const D: usize>(v: &Vector<T, D>) -> GeomResult<()> {
    let limit = T::coord_limit();
    let mut valid = true;
    for &x in v.iter() {
        valid &= x.abs() <= limit;
    }
    if valid {
        Ok(())
    } else if v.iter().any(|x| !x.is_finite()) {
        Err(GeomError::NonFinite)
    } else {
        Err(GeomError::OutOfRange)
    }
}

/// Every coordinate of a point is valid.
#[inline]
pub fn point<T: Real, const D: usize>(p: &Point<T, D>) -> GeomResult<()> {
    vector(&p.coords)
}

/// A valid, non-zero direction.
#[inline]
pub(crate) fn direction<T: Real, const D: usize>(v: &Vector<T, D>) -> GeomResult<()> {
    vector(v)?;
    if v.iter().all(|x| *x == T::zero()) {
        Err(GeomError::ZeroDirection)
    } else {
        Ok(())
    }
}

/// A valid direction for a ray or line: non-zero and at least `1 / coord_limit` long, so that
/// `1 / |d|²` and every ratio a ray query forms stay finite.
#[inline]
pub(crate) fn ray_direction<T: Real, const D: usize>(v: &Vector<T, D>) -> GeomResult<()> {
    direction(v)?;
    let min = T::one() / T::coord_limit();
    if v.amax() < min && v.norm() < min {
        return Err(GeomError::ZeroDirection);
    }
    Ok(())
}

/// Normalizes a valid non-zero direction. Rejects vectors so short their norm underflows.
#[inline]
pub(crate) fn unit<T: Real, const D: usize>(v: &Vector<T, D>) -> GeomResult<Vector<T, D>> {
    // Finite and non-zero, but not range-checked: a direction's length does not matter, and
    // the cross products this normalises (face normals: squared lengths) exceed the
    // coordinate limit long before their edges do (in f32, a triangle with 3·10⁴-long edges
    // has a 10⁹ cross product, and once had "no normal": fuzz finding 23).
    if v.iter().any(|x| !x.is_finite()) {
        return Err(GeomError::NonFinite);
    }
    if v.iter().all(|x| *x == T::zero()) {
        return Err(GeomError::ZeroDirection);
    }
    // Scale by the largest component first so tiny vectors do not underflow when squared.
    let m = v.amax();
    let s = v / m;
    let n = s.norm();
    if n == T::zero() || !n.is_finite() {
        return Err(GeomError::ZeroDirection);
    }
    Ok(s / n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Vector3;

    /// The one-comparison check against the rules it stands for: finite and within the limit
    /// is valid (the limit itself too), a NaN or an infinity is `NonFinite` even beside a
    /// component out of range, and an out-of-range finite component is `OutOfRange`.
    #[test]
    fn vector_errors_and_their_precedence() {
        let limit = f32::coord_limit();
        for v in [Vector3::new(0.0f32, -0.0, 1.0), Vector3::new(limit, -limit, f32::MIN_POSITIVE)] {
            assert_eq!(vector(&v), Ok(()), "{v:?}");
        }
        let non_finite = [
            Vector3::new(f32::NAN, 0.0, 0.0),
            Vector3::new(0.0, f32::INFINITY, 0.0),
            Vector3::new(0.0, 0.0, f32::NEG_INFINITY),
            Vector3::new(2.0 * limit, f32::NAN, 0.0),
            Vector3::new(f32::INFINITY, -2.0 * limit, 0.0),
        ];
        for v in non_finite {
            assert_eq!(vector(&v), Err(GeomError::NonFinite), "{v:?}");
        }
        for v in [Vector3::new(2.0 * limit, 0.0, 0.0), Vector3::new(0.0, 0.0, -limit * 1.5)] {
            assert_eq!(vector(&v), Err(GeomError::OutOfRange), "{v:?}");
        }
        let huge = f64::coord_limit();
        assert_eq!(vector(&Vector3::new(huge, -huge, 0.0)), Ok(()));
        assert_eq!(vector(&Vector3::new(huge * 2.0, 0.0, f64::NAN)), Err(GeomError::NonFinite));
    }
}
