//! The answer of every continuous query: the time of impact and the contact there.

use cd_geom::{Point, Real, Vector};

/// How a time of impact was reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ToiStatus {
    /// The shapes first touch at `time` (exactly for the closed-form tests; within the
    /// query's distance tolerance, never later than the true contact, for the iterative ones).
    Converged,
    /// The shapes already touch or overlap at time 0: `time` is 0 and the normal is the best
    /// the test knows at that pose (it may be zero when the centres coincide).
    StartedInContact,
    /// An iterative query hit its iteration cap: the shapes are proven apart on
    /// `[0, time)` but the contact was not confirmed. Treat `time` as a safe step bound.
    IterationCap,
}

/// A time of impact with the contact at that time, in world space.
///
/// `normal` is a unit vector pointing from A to B; `point_a` lies on A and `point_b` on B at
/// time `time` (they coincide up to rounding, or up to the distance tolerance of an iterative
/// query).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Toi<T: Real, const D: usize> {
    /// Time of first contact, in `[0, max_time]`.
    pub time: T,
    /// The contact point on A at `time`.
    pub point_a: Point<T, D>,
    /// The contact point on B at `time`.
    pub point_b: Point<T, D>,
    /// Unit contact normal from A towards B at `time` (zero only for
    /// [`ToiStatus::StartedInContact`] when no direction is defined).
    pub normal: Vector<T, D>,
    /// How the answer was reached.
    pub status: ToiStatus,
}

impl<T: Real, const D: usize> Toi<T, D> {
    /// The same impact seen from B (points swapped, normal negated).
    pub fn flipped(&self) -> Self {
        Self { point_a: self.point_b, point_b: self.point_a, normal: -self.normal, ..*self }
    }

    /// Shifts the points by `offset` (used to move an answer found in B's frame back to world
    /// space).
    pub(crate) fn shifted(mut self, offset: Vector<T, D>) -> Self {
        self.point_a += offset;
        self.point_b += offset;
        self
    }
}

/// `v / |v|`, or zero for a zero (or non-finite) vector.
pub(crate) fn unit_or_zero<T: Real, const D: usize>(v: Vector<T, D>) -> Vector<T, D> {
    let n = v.norm();
    if n > T::zero() && n.is_finite() {
        v / n
    } else {
        Vector::zeros()
    }
}

/// The earliest of several candidate contact times.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Earliest<T>(pub(crate) Option<T>);

impl<T: Real> Earliest<T> {
    pub(crate) fn new() -> Self {
        Self(None)
    }

    /// Keeps `t` if it is earlier than every time seen so far.
    pub(crate) fn keep(&mut self, t: Option<T>) {
        if let Some(t) = t {
            self.0 = Some(self.0.map_or(t, |best| best.min(t)));
        }
    }
}
