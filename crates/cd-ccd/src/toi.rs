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
    /// An iterative query could not resolve the distance at `time` in floating point: GJK
    /// stalled on an ill-conditioned pair (a thin plate, say) with a proven lower bound within
    /// the tolerance but an upper bound above it. The shapes are proven apart on `[0, time)`;
    /// whether they touch at `time` is unknown, and advancing further could not be proven
    /// safe. Treat `time` as a safe step bound, as for [`ToiStatus::IterationCap`].
    Unresolved,
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

/// When a point moving towards a plane first touches it inside a face: the times at which the
/// point is within rounding of the plane, clipped by in-plane constraints (each keeps an affine
/// quantity `value + rate·t` within bounds, as slabs clip a ray).
///
/// The arrival time `gap / approach` alone is exact when the motion crosses the plane, but
/// when it grazes the plane that division is known only to the rounding of the gap over a
/// tiny approach speed, and a crossing at a face's boundary (a radius-0 capsule's end
/// reaching a triangle's edge) moved there can fall outside every test (fuzz finding 34).
/// The window answers the arrival time when the point is inside the face then, and otherwise
/// the first time it enters the face while within rounding of the plane.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PlaneArrival<T> {
    /// The window: times in `[0, max_t]` satisfying every constraint so far.
    lo: T,
    hi: T,
    /// Where the window started before the in-plane constraints.
    plane_lo: T,
    /// `gap / approach`: the arrival time the plane alone gives.
    arrival: T,
}

impl<T: Real> PlaneArrival<T> {
    /// A point `gap` from the plane (`gap ≥ −slack`) approaching it at speed `approach`
    /// (negative when it moves away), with `slack` the rounding of the gap, over `[0, max_t]`.
    pub(crate) fn new(gap: T, approach: T, slack: T, max_t: T) -> Self {
        let mut window = Self { lo: T::zero(), hi: max_t, plane_lo: T::zero(), arrival: gap / approach };
        window.keep_within(gap, -approach, -slack, slack);
        window.plane_lo = window.lo;
        window
    }

    /// Keeps the times at which `value + rate·t` lies in `[min, max]`. A bound that overflows
    /// to NaN (infinite value and rate) leaves the window as it was: a contact reported where
    /// there may be none, rather than one missed.
    pub(crate) fn keep_within(&mut self, value: T, rate: T, min: T, max: T) {
        if rate == T::zero() {
            // Constant: the whole window or nothing.
            if !(value >= min && value <= max) {
                self.hi = -T::infinity();
            }
            return;
        }
        let (a, b) = ((min - value) / rate, (max - value) / rate);
        self.lo = self.lo.max(a.min(b));
        self.hi = self.hi.min(a.max(b));
    }

    /// The window `(lo, hi)`, or `None` when no time satisfies every constraint.
    pub(crate) fn bounds(&self) -> Option<(T, T)> {
        (self.lo <= self.hi).then_some((self.lo, self.hi))
    }

    /// The first contact, or `None` when no time satisfies every constraint. When the in-plane
    /// constraints hold from the start of the plane's window, the point reaches the plane
    /// inside the face: the arrival time, when it falls in the window. Otherwise it enters the face
    /// while within rounding of the plane: the first time it is inside (never a later one).
    pub(crate) fn first_contact(&self) -> Option<T> {
        if self.lo > self.hi {
            return None;
        }
        let inside_from_the_start = self.lo <= self.plane_lo;
        let arrival_in_window = self.arrival >= self.lo && self.arrival <= self.hi;
        Some(if inside_from_the_start && arrival_in_window { self.arrival } else { self.lo })
    }
}
