//! Rigid bodies as the response sees them: a pose, mass properties and a velocity, with the
//! explicit integration of one step.
//!
//! The pose places the body's frame (the frame its shapes and [`MassProperties`] are given
//! in); the linear velocity is the velocity of the centre of mass and the angular velocity is in
//! world axes. Integration is semi-implicit (symplectic) Euler: velocities are updated first,
//! then positions move with the new velocities, which keeps orbits and bounces from gaining
//! energy the way explicit Euler does.

use cd_geom::{GeomResult, Point, Real, Vector};
use nalgebra::{Isometry3, Matrix3, Translation3, UnitQuaternion, Vector3};

use crate::mass::MassProperties;

/// A rigid body: pose, mass properties and velocity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidBody<T: Real> {
    /// Places the body's frame in the world.
    pub pose: Isometry3<T>,
    /// Mass, centre of mass and inertia in the body's frame.
    pub mass: MassProperties<T>,
    /// Velocity of the centre of mass.
    pub linear_velocity: Vector3<T>,
    /// Angular velocity, in world axes.
    pub angular_velocity: Vector3<T>,
}

impl<T: Real> RigidBody<T> {
    /// A body at rest.
    pub fn new(pose: Isometry3<T>, mass: MassProperties<T>) -> Self {
        Self { pose, mass, linear_velocity: Vector3::zeros(), angular_velocity: Vector3::zeros() }
    }

    /// A body no impulse moves (infinite mass), e.g. the ground.
    pub fn fixed(pose: Isometry3<T>) -> Self {
        Self::new(pose, MassProperties::infinite())
    }

    /// Whether impulses move the body.
    pub fn is_dynamic(&self) -> bool {
        self.mass.is_dynamic()
    }

    /// The centre of mass in world space.
    pub fn world_center(&self) -> Point<T, 3> {
        self.pose * self.mass.center()
    }

    /// The inverse inertia tensor in world axes.
    pub fn world_inverse_inertia(&self) -> Matrix3<T> {
        self.mass.world_inverse_inertia(&self.pose)
    }

    /// The velocity of the material point at `point` (world space): `v + ω × r`.
    pub fn velocity_at(&self, point: &Point<T, 3>) -> Vector3<T> {
        self.linear_velocity + self.angular_velocity.cross(&(point - self.world_center()))
    }

    /// Applies an impulse `j` at `point`: `Δv = j / m`, `Δω = I⁻¹ (r × j)`. No effect on a
    /// static body.
    pub fn apply_impulse(&mut self, impulse: &Vector3<T>, point: &Point<T, 3>) {
        let r = point - self.world_center();
        self.linear_velocity += impulse * self.mass.inverse_mass();
        self.angular_velocity += self.world_inverse_inertia() * r.cross(impulse);
    }

    /// Kinetic energy `½ m |v|² + ½ ωᵀ I ω` (zero for a static body).
    pub fn kinetic_energy(&self) -> T {
        if !self.is_dynamic() {
            return T::zero();
        }
        let world_inertia = self.world_inertia();
        let half = T::lit(0.5);
        half * self.mass.mass() * self.linear_velocity.norm_squared()
            + half * self.angular_velocity.dot(&(world_inertia * self.angular_velocity))
    }

    /// Linear momentum `m v` (zero for a static body).
    pub fn linear_momentum(&self) -> Vector3<T> {
        if self.is_dynamic() {
            self.linear_velocity * self.mass.mass()
        } else {
            Vector3::zeros()
        }
    }

    /// Angular momentum about the world origin: `c × m v + I ω` (zero for a static body).
    pub fn angular_momentum(&self) -> Vector3<T> {
        if !self.is_dynamic() {
            return Vector3::zeros();
        }
        let world_inertia = self.world_inertia();
        self.world_center().coords.cross(&self.linear_momentum()) + world_inertia * self.angular_velocity
    }

    /// Adds `acceleration · dt` to the velocity of a dynamic body (gravity, say).
    pub fn integrate_velocity(&mut self, acceleration: &Vector<T, 3>, dt: T) {
        if self.is_dynamic() {
            self.linear_velocity += acceleration * dt;
        }
    }

    /// Moves the body by its velocity over `dt`: the centre of mass translates by `v dt` and
    /// the body turns by `ω dt` about it (an exact rotation for the step, re-normalized).
    ///
    /// `ω` is kept as it is (no gyroscopic term, like the default of Box2D and Bullet): the
    /// step turns the body about `ω` itself, so a free body's kinetic energy `½ ωᵀ I ω` is
    /// exactly conserved. Its angular momentum's direction is not; the explicit
    /// momentum-preserving update is worse (it gains energy every step), and the implicit one
    /// is left for when a user needs tumbling precession.
    pub fn integrate_position(&mut self, dt: T) {
        self.displace(&(self.linear_velocity * dt), &(self.angular_velocity * dt));
    }

    /// The inertia tensor in world axes (zero for a static body).
    pub fn world_inertia(&self) -> Matrix3<T> {
        let r = *self.pose.rotation.to_rotation_matrix().matrix();
        r * self.mass.inertia() * r.transpose()
    }

    /// Moves the centre of mass by `translation` and turns the body by the rotation vector
    /// `rotation` (axis × angle) about its centre of mass. Used by integration and by the
    /// position correction of the contact solver.
    pub fn displace(&mut self, translation: &Vector3<T>, rotation: &Vector3<T>) {
        let center = self.world_center();
        let turn = UnitQuaternion::from_scaled_axis(*rotation);
        let new_rotation = UnitQuaternion::new_normalize((turn * self.pose.rotation).into_inner());
        let new_center = center + translation;
        // Keep the centre of mass where it moved to: the frame's origin follows the rotation.
        let origin = new_center - new_rotation * self.mass.center().coords;
        self.pose = Isometry3::from_parts(Translation3::from(origin.coords), new_rotation);
    }

    /// Checks that the pose and velocities are finite and within the coordinate limit.
    pub fn validate(&self) -> GeomResult<()> {
        cd_geom::validate::vector(&self.pose.translation.vector)?;
        cd_geom::validate::vector(&self.linear_velocity)?;
        cd_geom::validate::vector(&self.angular_velocity)?;
        cd_geom::validate::vector(&self.pose.rotation.coords)
    }
}
