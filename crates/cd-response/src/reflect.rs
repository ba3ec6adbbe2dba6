//! The seed's response of a body hitting a surface (Real-Time Rendering 25.9): split the
//! velocity into its normal part `v_n = (v·n) n` and its tangential part `v_p = v − v_n`, and
//! respond with `v' = v_p − k v_n` for a restitution coefficient `k ∈ [0, 1]`; Coulomb friction
//! then slows the tangential part by at most `μ` times the normal impulse. For a swept body that
//! hits at time `t` within the step, [`advance_with_bounce`] moves it to the contact, reflects
//! its velocity there and moves it for the rest of the step.

use cd_geom::{GeomError, GeomResult, Point, Real, Vector};

/// How a contact responds: restitution `k ∈ [0, 1]` (1 = perfectly elastic, 0 = the normal
/// velocity is absorbed) and Coulomb friction coefficient `μ ≥ 0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Material<T> {
    restitution: T,
    friction: T,
}

impl<T: Real> Material<T> {
    /// A material. Errors: a non-finite coefficient ([`GeomError::NonFinite`]), a negative
    /// one ([`GeomError::Negative`]), a restitution above 1 ([`GeomError::OutOfRange`]: it
    /// would create energy).
    pub fn new(restitution: T, friction: T) -> GeomResult<Self> {
        for x in [restitution, friction] {
            if !x.is_finite() {
                return Err(GeomError::NonFinite);
            }
            if x < T::zero() {
                return Err(GeomError::Negative);
            }
        }
        if restitution > T::one() {
            return Err(GeomError::OutOfRange);
        }
        Ok(Self { restitution, friction })
    }

    /// Perfectly elastic and frictionless (`k = 1`, `μ = 0`): kinetic energy is conserved.
    pub fn elastic() -> Self {
        Self { restitution: T::one(), friction: T::zero() }
    }

    /// The restitution coefficient `k`.
    pub fn restitution(&self) -> T {
        self.restitution
    }

    /// The friction coefficient `μ`.
    pub fn friction(&self) -> T {
        self.friction
    }
}

/// The velocity after hitting a surface whose unit normal `n` points towards the body
/// (out of the surface). A body already moving away (`v·n ≥ 0`) is left alone.
///
/// The normal part is reversed and scaled by `k`; the normal impulse per unit mass is then
/// `j = (1 + k)|v·n|`, and friction removes up to `μ j` of the tangential speed, never
/// reversing it (Coulomb's cone: sliding slows down or sticks).
///
/// ```
/// use cd_response::{reflect, Material};
/// use nalgebra::Vector3;
/// let floor = Vector3::y();
/// let v = reflect(&Vector3::new(3.0f64, -4.0, 0.0), &floor, &Material::new(0.5, 0.0).unwrap());
/// assert_eq!(v, Vector3::new(3.0, 2.0, 0.0)); // half the normal speed comes back
/// let v = reflect(&Vector3::new(3.0f64, -4.0, 0.0), &floor, &Material::new(0.5, 0.25).unwrap());
/// assert_eq!(v, Vector3::new(1.5, 2.0, 0.0)); // friction takes 0.25 · (1 + 0.5) · 4 = 1.5
/// ```
pub fn reflect<T: Real, const D: usize>(
    v: &Vector<T, D>,
    n: &Vector<T, D>,
    material: &Material<T>,
) -> Vector<T, D> {
    let vn = v.dot(n);
    // Separating or resting — or a NaN normal, which compares as neither: no impulse.
    if vn.partial_cmp(&T::zero()) != Some(core::cmp::Ordering::Less) {
        return *v;
    }
    let normal_part = n * vn;
    let tangential = v - normal_part;
    let impulse = -vn * (T::one() + material.restitution);
    let speed = tangential.norm();
    let slowed = (speed - material.friction * impulse).max(T::zero());
    let tangential = if speed > T::zero() { tangential * (slowed / speed) } else { tangential };
    tangential - normal_part * material.restitution
}

/// Moves a body (a point of it, e.g. a sphere's centre) through one step of length `dt` with
/// velocity `v`, bouncing off a surface hit at time `hit.0 ∈ [0, dt]` with unit normal `hit.1`
/// (pointing towards the body): it moves to the contact, its velocity is [`reflect`]ed, and it
/// moves with the new velocity for the remaining `dt − t` (seed 25.9; the time comes from a
/// continuous test such as cd-ccd's). Without a hit it simply moves by `v dt`. Returns the
/// new position and velocity.
///
/// ```
/// use cd_response::{advance_with_bounce, Material};
/// use nalgebra::{Point2, Vector2};
/// // A ball centre 1 above the contact height, falling at 4: it hits at t = 0.25 of a 1-long
/// // step and rises for the remaining 0.75 at 4.
/// let (p, v) = advance_with_bounce(&Point2::new(0.0f64, 1.0), &Vector2::new(0.0, -4.0), 1.0,
///                                  Some((0.25, Vector2::y())), &Material::elastic());
/// assert_eq!((p, v), (Point2::new(0.0, 3.0), Vector2::new(0.0, 4.0)));
/// ```
pub fn advance_with_bounce<T: Real, const D: usize>(
    position: &Point<T, D>,
    v: &Vector<T, D>,
    dt: T,
    hit: Option<(T, Vector<T, D>)>,
    material: &Material<T>,
) -> (Point<T, D>, Vector<T, D>) {
    match hit {
        Some((t, n)) if t >= T::zero() && t <= dt => {
            let contact = position + v * t;
            let after = reflect(v, &n, material);
            (contact + after * (dt - t), after)
        }
        _ => (position + v * dt, *v),
    }
}
