//! The impulse between two rigid bodies at one contact point, with restitution and Coulomb
//! friction — the single-contact law of classical collision response (and the row the
//! sequential-impulse solver iterates).
//!
//! For bodies A and B touching at `p` with unit normal `n` from A to B, the relative velocity
//! `u = v_B(p) − v_A(p)` has normal part `u_n = u·n`; the bodies approach when `u_n < 0`. An
//! impulse `j` along a unit direction `d` changes `u·d` by `j / m_eff(d)`, where
//! `1 / m_eff(d) = 1/m_A + 1/m_B + (I_A⁻¹(r_A×d))×r_A·d + (I_B⁻¹(r_B×d))×r_B·d`
//! with `r = p − centre of mass`.

use cd_geom::{Point, Real};
use nalgebra::{Matrix3, Vector3};

use crate::body::RigidBody;
use crate::reflect::Material;

/// `1 / m_eff` along `d` for one body: `1/m + d·((I⁻¹(r×d))×r)`.
#[inline]
pub(crate) fn inverse_mass_along<T: Real>(
    inverse_mass: T,
    inverse_inertia: &Matrix3<T>,
    r: &Vector3<T>,
    d: &Vector3<T>,
) -> T {
    let rd = r.cross(d);
    inverse_mass + rd.dot(&(inverse_inertia * rd))
}

/// The impulse exchanged at one contact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactImpulse<T: Real> {
    /// Magnitude of the normal impulse (≥ 0), applied to B along `n` and to A along `−n`.
    pub normal: T,
    /// Friction impulse applied to B (A receives its opposite); tangential to `n`, no longer
    /// than `μ · normal`.
    pub friction: Vector3<T>,
}

/// Resolves one contact of `a` and `b` at `point` with unit normal `normal` (from A to B) and
/// applies the impulse to both bodies: the normal relative velocity becomes `−k u_n`
/// (restitution `k`), and friction removes as much of the sliding velocity as Coulomb's cone
/// `|j_t| ≤ μ j_n` allows (sticking when it can). Bodies already separating (`u_n ≥ 0`) get no
/// impulse. Linear and angular momentum are conserved: the impulses on A and B are opposite
/// and act at the same point.
///
/// ```
/// use cd_geom::Ball;
/// use cd_response::{resolve_contact, Material, MassProperties, RigidBody};
/// use nalgebra::{Isometry3, Point3, Vector3};
///
/// let unit = MassProperties::ball(&Ball::new(Point3::origin(), 1.0f64).unwrap(), 1.0).unwrap();
/// let mut a = RigidBody::new(Isometry3::translation(-1.0, 0.0, 0.0), unit);
/// let mut b = RigidBody::new(Isometry3::translation(1.0, 0.0, 0.0), unit);
/// a.linear_velocity = Vector3::new(2.0, 0.0, 0.0);
/// resolve_contact(&mut a, &mut b, &Point3::origin(), &Vector3::x(), &Material::elastic());
/// // Equal masses, head-on and elastic: the velocities swap.
/// assert!((a.linear_velocity - Vector3::zeros()).norm() < 1e-12);
/// assert!((b.linear_velocity - Vector3::new(2.0, 0.0, 0.0)).norm() < 1e-12);
/// ```
pub fn resolve_contact<T: Real>(
    a: &mut RigidBody<T>,
    b: &mut RigidBody<T>,
    point: &Point<T, 3>,
    normal: &Vector3<T>,
    material: &Material<T>,
) -> ContactImpulse<T> {
    let none = ContactImpulse { normal: T::zero(), friction: Vector3::zeros() };
    let (ra, rb) = (point - a.world_center(), point - b.world_center());
    let (ia, ib) = (a.world_inverse_inertia(), b.world_inverse_inertia());
    let (ma, mb) = (a.mass.inverse_mass(), b.mass.inverse_mass());
    let relative = b.velocity_at(point) - a.velocity_at(point);
    let un = relative.dot(normal);
    // Separating, resting, or a NaN from a bad normal: no impulse.
    if un.partial_cmp(&T::zero()) != Some(core::cmp::Ordering::Less) {
        return none;
    }
    let k_normal = inverse_mass_along(ma, &ia, &ra, normal) + inverse_mass_along(mb, &ib, &rb, normal);
    if k_normal.partial_cmp(&T::zero()) != Some(core::cmp::Ordering::Greater) {
        return none; // two static bodies
    }
    let jn = -(T::one() + material.restitution()) * un / k_normal;
    let mut impulse = normal * jn;
    // Friction against the sliding velocity before the normal impulse, capped by the cone.
    let sliding = relative - normal * un;
    let speed = sliding.norm();
    let mut friction = Vector3::zeros();
    if speed > T::zero() && material.friction() > T::zero() {
        let t = sliding / speed;
        let k_tangent = inverse_mass_along(ma, &ia, &ra, &t) + inverse_mass_along(mb, &ib, &rb, &t);
        let stop = speed / k_tangent;
        friction = -t * stop.min(material.friction() * jn);
        impulse += friction;
    }
    b.apply_impulse(&impulse, point);
    a.apply_impulse(&-impulse, point);
    ContactImpulse { normal: jn, friction }
}
