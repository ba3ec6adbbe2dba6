//! How the two bodies move during a time step.
//!
//! * [`LinearMotion`]: both bodies translate with constant velocities (the dynamic primitive
//!   tests, dynamic SAT and the linear shape cast). The tests work in B's frame, where B is
//!   still and A moves with `v_A − v_B` (seed 25.8: "make B static"), and report the answer
//!   back in world space.
//! * [`RigidMotion`]: one body translating and rotating at constant linear and angular velocity
//!   about a fixed point of the body (its centre of mass): the input of conservative
//!   advancement.
//!
//! Both validate their input once, at construction, so the queries that take them cannot be
//! handed a NaN or a velocity large enough to overflow.

use nalgebra::{Isometry3, Point3, Rotation3, Translation3, UnitQuaternion, Vector3};

use cd_geom::{GeomError, GeomResult, Real, Vector};

/// Checks that every component of `v` is finite and within the coordinate limit.
pub(crate) fn check_vector<T: Real, const D: usize>(v: &Vector<T, D>) -> GeomResult<()> {
    for &x in v.iter() {
        if !x.is_finite() {
            return Err(GeomError::NonFinite);
        }
        if x.abs() > T::coord_limit() {
            return Err(GeomError::OutOfRange);
        }
    }
    Ok(())
}

/// Checks that a time bound is finite, non-negative and within the coordinate limit.
fn check_time<T: Real>(t: T) -> GeomResult<T> {
    if !t.is_finite() {
        return Err(GeomError::NonFinite);
    }
    if t < T::zero() {
        return Err(GeomError::Negative);
    }
    if t > T::coord_limit() {
        return Err(GeomError::OutOfRange);
    }
    Ok(t)
}

/// Two bodies translating with constant velocities over the time interval `[0, max_time]`.
///
/// ```
/// use cd_ccd::LinearMotion;
/// use nalgebra::Vector3;
/// let m = LinearMotion::new(Vector3::new(2.0f64, 0.0, 0.0), Vector3::new(-1.0, 0.0, 0.0), 0.5).unwrap();
/// assert_eq!(m.relative_velocity(), Vector3::new(3.0, 0.0, 0.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearMotion<T: Real, const D: usize> {
    velocity_a: Vector<T, D>,
    velocity_b: Vector<T, D>,
    max_time: T,
}

impl<T: Real, const D: usize> LinearMotion<T, D> {
    /// A moves with `velocity_a`, B with `velocity_b`, for times `0 ≤ t ≤ max_time`.
    ///
    /// Errors: a non-finite component ([`GeomError::NonFinite`]), one beyond
    /// [`Real::coord_limit`] ([`GeomError::OutOfRange`]), a negative `max_time`
    /// ([`GeomError::Negative`]), or a displacement `|v|·max_time` beyond the coordinate limit.
    pub fn new(velocity_a: Vector<T, D>, velocity_b: Vector<T, D>, max_time: T) -> GeomResult<Self> {
        check_vector(&velocity_a)?;
        check_vector(&velocity_b)?;
        let max_time = check_time(max_time)?;
        // The relative displacement must itself be a valid coordinate, or positions at the end
        // of the step could overflow.
        check_vector(&((velocity_a - velocity_b) * max_time))?;
        Ok(Self { velocity_a, velocity_b, max_time })
    }

    /// Only A moves (B is static).
    pub fn of_a(velocity_a: Vector<T, D>, max_time: T) -> GeomResult<Self> {
        Self::new(velocity_a, Vector::zeros(), max_time)
    }

    /// The same motion over the shorter interval `[0, max_time]` (a search that has found a
    /// contact limits the remaining candidates to it). Errors as [`LinearMotion::new`] for a
    /// bad `max_time`; no other check is needed, since a shorter step moves less.
    pub fn until(&self, max_time: T) -> GeomResult<Self> {
        let max_time = check_time(max_time)?;
        if max_time > self.max_time {
            return Self::new(self.velocity_a, self.velocity_b, max_time);
        }
        Ok(Self { max_time, ..*self })
    }

    /// The same motion in `f64` (exact: `f64`'s limits contain every narrower type's).
    pub fn widened(&self) -> LinearMotion<f64, D> {
        let wide = |v: &Vector<T, D>| v.map(|x| x.to_f64());
        LinearMotion {
            velocity_a: wide(&self.velocity_a),
            velocity_b: wide(&self.velocity_b),
            max_time: self.max_time.to_f64(),
        }
    }

    /// A's velocity.
    pub fn velocity_a(&self) -> &Vector<T, D> {
        &self.velocity_a
    }

    /// B's velocity.
    pub fn velocity_b(&self) -> &Vector<T, D> {
        &self.velocity_b
    }

    /// The end of the time interval.
    pub fn max_time(&self) -> T {
        self.max_time
    }

    /// A's velocity seen from B: `v_A − v_B`.
    pub fn relative_velocity(&self) -> Vector<T, D> {
        self.velocity_a - self.velocity_b
    }

    /// B's displacement at time `t`: added to a point found in B's frame it gives the world
    /// position at `t`.
    pub(crate) fn offset_b(&self, t: T) -> Vector<T, D> {
        self.velocity_b * t
    }
}

impl<T: Real> LinearMotion<T, 3> {
    /// The relative motion seen in a frame whose axes are the columns of `rotation`: A moves
    /// with the relative velocity expressed in that frame, B stays still. One rotation of one
    /// vector; no re-validation needed (the relative displacement was checked, and a rotation
    /// keeps its length).
    pub(crate) fn relative_in(&self, rotation: &Rotation3<T>) -> Self {
        Self {
            velocity_a: rotation.inverse_transform_vector(&self.relative_velocity()),
            velocity_b: Vector::zeros(),
            max_time: self.max_time,
        }
    }
}

/// A body moving rigidly: it starts at pose `start`, its `local_center` (a point in its own
/// frame, usually the centre of mass) moves with the constant `linear_velocity`, and it
/// rotates about that point with the constant `angular_velocity` (axis × radians per unit
/// time, in world space).
///
/// At time `t` the pose is `x ↦ c(t) + R(t)·(x − local_center)` with `c(t) = c₀ + v t`
/// and `R(t) = exp(t [ω]ₓ) R₀`. This is the motion conservative advancement bounds.
///
/// ```
/// use cd_ccd::RigidMotion;
/// use nalgebra::{Isometry3, Point3, Vector3};
/// let m = RigidMotion::new(Isometry3::identity(), Point3::origin(),
///                          Vector3::new(1.0f64, 0.0, 0.0), Vector3::new(0.0, 0.0, std::f64::consts::PI)).unwrap();
/// let p = m.pose_at(1.0).transform_point(&Point3::new(1.0, 0.0, 0.0));
/// assert!((p - Point3::new(0.0, 0.0, 0.0)).norm() < 1e-12); // half a turn, then one unit along x
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidMotion<T: Real> {
    start: Isometry3<T>,
    local_center: Point3<T>,
    linear_velocity: Vector3<T>,
    angular_velocity: Vector3<T>,
}

impl<T: Real> RigidMotion<T> {
    /// A body moving from `start` with the given velocities about `local_center`.
    ///
    /// Errors: non-finite or out-of-range components ([`GeomError::NonFinite`],
    /// [`GeomError::OutOfRange`]).
    pub fn new(
        start: Isometry3<T>,
        local_center: Point3<T>,
        linear_velocity: Vector3<T>,
        angular_velocity: Vector3<T>,
    ) -> GeomResult<Self> {
        check_vector(&start.translation.vector)?;
        check_vector(&start.rotation.coords)?;
        check_vector(&local_center.coords)?;
        check_vector(&linear_velocity)?;
        check_vector(&angular_velocity)?;
        Ok(Self { start, local_center, linear_velocity, angular_velocity })
    }

    /// A body that stays at `pose`.
    pub fn fixed(pose: Isometry3<T>) -> GeomResult<Self> {
        Self::new(pose, Point3::origin(), Vector3::zeros(), Vector3::zeros())
    }

    /// A body translating from `start` with `velocity`, without rotating.
    pub fn translating(start: Isometry3<T>, velocity: Vector3<T>) -> GeomResult<Self> {
        Self::new(start, Point3::origin(), velocity, Vector3::zeros())
    }

    /// The same motion with the start moved by `-by` (the velocities unchanged): the
    /// advancement works relative to A's start, where rounding scales with the shapes.
    pub(crate) fn moved_back(&self, by: &Vector3<T>) -> Self {
        let mut start = self.start;
        start.translation.vector -= by;
        Self { start, ..*self }
    }

    /// The pose at time 0.
    pub fn start(&self) -> &Isometry3<T> {
        &self.start
    }

    /// The body-frame point the rotation is about.
    pub fn local_center(&self) -> &Point3<T> {
        &self.local_center
    }

    /// Velocity of the local centre.
    pub fn linear_velocity(&self) -> &Vector3<T> {
        &self.linear_velocity
    }

    /// Angular velocity (world frame).
    pub fn angular_velocity(&self) -> &Vector3<T> {
        &self.angular_velocity
    }

    /// Whether the body rotates.
    pub fn rotates(&self) -> bool {
        self.angular_velocity.norm_squared() > T::zero()
    }

    /// The pose at time `t`.
    pub fn pose_at(&self, t: T) -> Isometry3<T> {
        let center0 = self.start.transform_point(&self.local_center);
        let center = center0 + self.linear_velocity * t;
        let rotation = UnitQuaternion::from_scaled_axis(self.angular_velocity * t) * self.start.rotation;
        let translation = center - rotation * self.local_center;
        Isometry3::from_parts(Translation3::from(translation), rotation)
    }

    /// The world position of the local centre at time `t`.
    pub fn center_at(&self, t: T) -> Point3<T> {
        self.start.transform_point(&self.local_center) + self.linear_velocity * t
    }
}
