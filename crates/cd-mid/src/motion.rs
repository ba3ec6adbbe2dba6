//! [`Motion`]: the rigid transform that carries one model's frame into another's.
//!
//! Model-vs-model queries never rebuild a hierarchy when a model moves: they work in model A's
//! frame and carry B's volumes and primitives over with `T_AB = M_A⁻¹ M_B` (RTR 25.3). This
//! type stores that transform as a rotation matrix and a translation, the form every volume
//! test wants, whatever rotation type (quaternion, matrix, angle) the caller's isometry uses.

use cd_geom::{Matrix, Point, Real, Vector};
use nalgebra::{AbstractRotation, Isometry};

/// A rigid motion `x ↦ R x + t` with `R` a rotation matrix.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion<T: Real, const D: usize> {
    /// The rotation `R` (orthonormal, determinant +1).
    pub rotation: Matrix<T, D>,
    /// The translation `t`.
    pub translation: Vector<T, D>,
}

impl<T: Real, const D: usize> Motion<T, D> {
    /// The identity.
    pub fn identity() -> Self {
        Motion { rotation: Matrix::identity(), translation: Vector::zeros() }
    }

    /// A pure translation.
    pub fn translation(t: Vector<T, D>) -> Self {
        Motion { rotation: Matrix::identity(), translation: t }
    }

    /// The same motion as a nalgebra isometry with any rotation type.
    pub fn from_isometry<R: AbstractRotation<T, D>>(pose: &Isometry<T, R, D>) -> Self {
        let rotation = Matrix::from_fn(|i, j| {
            let mut e = Vector::<T, D>::zeros();
            e[j] = T::one();
            pose.rotation.transform_vector(&e)[i]
        });
        Motion { rotation, translation: pose.translation.vector }
    }

    /// `M_a⁻¹ M_b`: the motion taking model B's coordinates into model A's frame when A is
    /// placed by `a` and B by `b`.
    pub fn relative<R: AbstractRotation<T, D>>(a: &Isometry<T, R, D>, b: &Isometry<T, R, D>) -> Self {
        Motion::from_isometry(a).inverse().then(&Motion::from_isometry(b))
    }

    /// Is this exactly the identity? (Queries skip transforming volumes then.)
    pub fn is_identity(&self) -> bool {
        self.rotation == Matrix::<T, D>::identity() && self.translation == Vector::<T, D>::zeros()
    }

    /// Is the rotation exactly the identity (a pure translation)?
    pub fn is_translation(&self) -> bool {
        self.rotation == Matrix::<T, D>::identity()
    }

    /// `R p + t`.
    #[inline(always)]
    pub fn transform_point(&self, p: &Point<T, D>) -> Point<T, D> {
        Point::from(self.rotation * p.coords + self.translation)
    }

    /// `R v`.
    #[inline(always)]
    pub fn transform_vector(&self, v: &Vector<T, D>) -> Vector<T, D> {
        self.rotation * v
    }

    /// The inverse motion `x ↦ Rᵀ (x − t)`.
    pub fn inverse(&self) -> Self {
        let rt = self.rotation.transpose();
        Motion { rotation: rt, translation: -(rt * self.translation) }
    }

    /// `self ∘ other`: apply `other` first, then `self`.
    pub fn then(&self, other: &Self) -> Self {
        Motion {
            rotation: self.rotation * other.rotation,
            translation: self.rotation * other.translation + self.translation,
        }
    }
}

impl<T: Real, R: AbstractRotation<T, D>, const D: usize> From<&Isometry<T, R, D>> for Motion<T, D> {
    fn from(pose: &Isometry<T, R, D>) -> Self {
        Motion::from_isometry(pose)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Isometry3, Point3, Vector3};

    #[test]
    fn relative_motion_maps_b_into_a() {
        let a = Isometry3::new(Vector3::new(1.0, 2.0, 3.0), Vector3::new(0.3, -0.2, 0.9));
        let b = Isometry3::new(Vector3::new(-4.0, 0.5, 1.0), Vector3::new(-1.1, 0.4, 0.2));
        let m = Motion::relative(&a, &b);
        let p = Point3::new(0.7, -0.3, 2.0);
        // World position of p in B, expressed in A's frame.
        let expect = a.inverse_transform_point(&(b * p));
        assert!((m.transform_point(&p) - expect).norm() < 1e-12);
        let back = m.inverse().transform_point(&m.transform_point(&p));
        assert!((back - p).norm() < 1e-12);
        assert!(Motion::<f64, 3>::identity().is_identity());
    }
}
