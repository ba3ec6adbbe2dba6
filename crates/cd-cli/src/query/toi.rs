//! Time of impact of two moving convex shapes.
//!
//! Without rotation the motion is linear and cd-ccd's GJK shape cast answers (exact for faces,
//! within 10⁻⁶ of the shapes' size otherwise). With an angular velocity on either shape,
//! conservative advancement answers: the shapes turn about their own origins at constant
//! angular velocity while their origins move at constant velocity. Both never report a time
//! later than the true first contact.

use cd::ccd::{
    conservative_advancement, shape_cast_posed, CastConfig, LinearMotion, MovingShape, RigidMotion, Toi,
    ToiStatus,
};
use nalgebra::{Isometry3, Point3, Vector3};

use super::shapes::Core;

/// Iterations allowed: a command-line query runs once, so accuracy comes before speed (the
/// library's default is 256).
const MAX_ITERATIONS: u32 = 4096;

/// One moving shape of a `toi` query.
pub struct Mover<'a> {
    /// Core in the local frame.
    pub core: &'a Core,
    /// Radius around the core.
    pub radius: f64,
    /// Pose at time 0.
    pub pose: Isometry3<f64>,
    /// Velocity of the origin.
    pub velocity: Vector3<f64>,
    /// Angular velocity about the origin (radians per unit time).
    pub angular: Vector3<f64>,
}

/// The first time in `[0, max_time]` at which the shapes touch, if they do.
pub fn time_of_impact(a: &Mover<'_>, b: &Mover<'_>, max_time: f64) -> Result<Option<Toi<f64, 3>>, String> {
    let config = CastConfig { max_iterations: MAX_ITERATIONS, ..CastConfig::default() };
    let geom = |e: cd::geom::GeomError| format!("invalid motion: {e}");
    let toi = if a.angular == Vector3::zeros() && b.angular == Vector3::zeros() {
        let motion = LinearMotion::new(a.velocity, b.velocity, max_time).map_err(geom)?;
        shape_cast_posed(a.core, &a.pose, a.radius, b.core, &b.pose, b.radius, &motion, &config)
    } else {
        let moving = |m: &Mover<'_>| -> Result<RigidMotion<f64>, String> {
            RigidMotion::new(m.pose, Point3::origin(), m.velocity, m.angular).map_err(geom)
        };
        let (ma, mb) = (moving(a)?, moving(b)?);
        if !(max_time.is_finite() && max_time >= 0.0) {
            return Err(format!("max_toi must be a finite number ≥ 0 (got {max_time})"));
        }
        conservative_advancement(
            &MovingShape::new(a.core, a.radius, ma),
            &MovingShape::new(b.core, b.radius, mb),
            max_time,
            &config,
        )
    };
    match toi {
        Some(t) if t.status == ToiStatus::IterationCap => Err(format!(
            "the time of impact did not converge in {MAX_ITERATIONS} iterations; the shapes are apart until at least {}",
            t.time
        )),
        Some(t) if t.status == ToiStatus::Unresolved => Err(format!(
            "the distance could not be resolved in floating point near time {}; the shapes are apart until at least then",
            t.time
        )),
        other => Ok(other),
    }
}
