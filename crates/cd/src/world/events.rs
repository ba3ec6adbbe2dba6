//! Contact events: a pair starts touching, keeps touching, or stops.

use cd_geom::{Point, Real, Vector};
use cd_narrow::Manifold;

use crate::world::body::BodyHandle;

/// What happened to a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContactEventKind {
    /// The pair touches now and did not at the previous step. "Touches" means a contact point
    /// within [`WorldConfig::contact_tolerance`](crate::world::WorldConfig::contact_tolerance),
    /// or, during a step, one that the bodies' velocities close within the step (a fast body
    /// that bounces off a surface inside the step touched it, though at the step's start it was
    /// still a speculative distance away).
    Started,
    /// The pair touched at the previous step and still does.
    Persisting,
    /// The pair touched at the previous step and does not any more (or a body was removed).
    Stopped,
}

/// A contact event with the pair's deepest contact (zeros for [`ContactEventKind::Stopped`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactEvent<T: Real> {
    /// What happened.
    pub kind: ContactEventKind,
    /// The first body (the smaller slot index).
    pub a: BodyHandle,
    /// The second body.
    pub b: BodyHandle,
    /// Unit normal from A to B at the deepest point.
    pub normal: Vector<T, 3>,
    /// The deepest point on B (world space).
    pub point: Point<T, 3>,
    /// Signed distance there at the start of the step (negative: penetration; positive up to
    /// the pair's speculative distance for a contact met inside the step).
    pub distance: T,
    /// Contact points over all of the pair's manifolds.
    pub points: usize,
}

impl<T: Real> ContactEvent<T> {
    pub(crate) fn stopped(a: BodyHandle, b: BodyHandle) -> Self {
        Self {
            kind: ContactEventKind::Stopped,
            a,
            b,
            normal: Vector::zeros(),
            point: Point::origin(),
            distance: T::zero(),
            points: 0,
        }
    }

    pub(crate) fn from_manifolds(
        kind: ContactEventKind,
        a: BodyHandle,
        b: BodyHandle,
        manifolds: &[Manifold<T, 3>],
    ) -> Self {
        let mut event = Self { kind, distance: T::infinity(), ..Self::stopped(a, b) };
        for m in manifolds {
            event.points += m.len();
            if let Some(p) = m.deepest() {
                if p.distance < event.distance {
                    (event.distance, event.point, event.normal) = (p.distance, p.point_b, m.normal);
                }
            }
        }
        event
    }
}
