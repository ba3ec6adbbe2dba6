//! Contact reuse: a pair's manifolds carried over from its last full test while the two
//! bodies have barely moved relative to each other (the persistent contacts of rapier and
//! Bullet), with a bound that never lets a contact appear unseen.
//!
//! With a reuse margin `m`, the full test generates contacts up to `reach = prediction + m`
//! apart and records every point in its own body's frame (the normal in A's). At a later step
//! the relative motion since that test is bounded: any point of B, seen from A, has moved at
//! most `|Δo| + 2 sin(θ/2)·r`, where `o` is B's origin, `r` its shape's bounding radius about
//! it and `θ` the angle of the relative rotation (and the same with the roles swapped; the
//! smaller bound counts). While `prediction + motion ≤ reach`, two features now within
//! `prediction` of each other were within `reach` at the test, so the recorded manifolds hold
//! every contact there is: the points are placed at the current poses and their distances
//! measured again along the normal, which turns with A. Otherwise the pair is tested afresh.
//!
//! What reuse gives up is the exactness of the points, not their existence: a reused point
//! is a material point of its body, not the current closest point, and its normal is off by
//! at most `θ`. Both errors are bounded by the margin. The bound itself is computed from the
//! poses in `T`, so far from the origin it carries their rounding (about `|x|·ε`: 0.06 at 10⁶
//! in `f32`), the same order as the narrow phase's own error at that distance.

use cd_geom::Real;
use cd_narrow::{Manifold, ManifoldPoint};
use nalgebra::Isometry3;

use crate::world::body::Body;

/// How far any point of a body within `radius` of its origin has moved, seen from its
/// partner, between the relative poses `then` and `now` (the body's frame into the partner's)
/// whose rotations differ by an angle with `sin(θ/2) = half_turn`: the origin's move plus
/// the turn's `2 sin(θ/2)·radius`. Unbounded for an unbounded body.
fn motion<T: Real>(then: &Isometry3<T>, now: &Isometry3<T>, half_turn: T, radius: Option<T>) -> Option<T> {
    Some((now.translation.vector - then.translation.vector).norm() + T::lit(2.0) * half_turn * radius?)
}

/// The relative placement of a pair at its last full test.
#[derive(Clone, Copy, Debug)]
struct Test<T: Real> {
    /// B's frame into A's.
    b_in_a: Isometry3<T>,
    /// The pair's prediction distance at the test.
    prediction: T,
    /// How far apart contacts were generated (the prediction plus the margin).
    reach: T,
}

/// What a pair's last full test left for reuse.
#[derive(Clone, Debug, Default)]
pub(crate) struct ReuseAnchor<T: Real> {
    /// None until the first test.
    test: Option<Test<T>>,
    /// The manifolds, normals in A's frame, `point_a` in A's frame, `point_b` in B's.
    local: Vec<Manifold<T, 3>>,
}

impl<T: Real> ReuseAnchor<T> {
    /// Records the manifolds `found` of a full test of `a` and `b` up to `reach` for a pair
    /// whose prediction distance was `prediction`.
    pub(crate) fn record(
        &mut self,
        (a, b): (&Body<T>, &Body<T>),
        prediction: T,
        reach: T,
        found: &[Manifold<T, 3>],
    ) {
        let (pa, pb) = (&a.rigid.pose, &b.rigid.pose);
        self.test = Some(Test { b_in_a: pa.inv_mul(pb), prediction, reach });
        self.local.clear();
        self.local.extend(found.iter().map(|m| {
            let mut local = Manifold::new(pa.rotation.inverse_transform_vector(&m.normal));
            for p in m.points() {
                local.push(ManifoldPoint {
                    point_a: pa.inverse_transform_point(&p.point_a),
                    point_b: pb.inverse_transform_point(&p.point_b),
                    ..*p
                });
            }
            local
        }));
    }

    /// Forgets the recorded test (the manifolds' allocation is kept).
    pub(crate) fn forget(&mut self) {
        self.test = None;
        self.local.clear();
    }

    /// The recorded manifolds at the current poses into `out` (appended), when `a` and `b`
    /// have moved so little relative to each other since the test that every contact within
    /// `prediction` is among them; false (and nothing appended) otherwise. A pair whose
    /// prediction distance shrank (its bodies slowed down) is tested again, so a reported
    /// pair is never more than twice the margin beyond its current prediction distance.
    pub(crate) fn replay(
        &self,
        (a, b): (&Body<T>, &Body<T>),
        prediction: T,
        out: &mut Vec<Manifold<T, 3>>,
    ) -> bool {
        let Some(test) = self.test.as_ref().filter(|t| prediction >= t.prediction) else { return false };
        let (pa, pb) = (&a.rigid.pose, &b.rigid.pose);
        let b_in_a = pa.inv_mul(pb);
        // |imag(q)| = sin(θ/2) for either sign of the quaternion, and keeps its relative
        // precision for small angles (1 − w² would not).
        let half_turn = (test.b_in_a.rotation.inverse() * b_in_a.rotation).quaternion().imag().norm();
        // NaN never fits.
        let fits = |motion: Option<T>| motion.is_some_and(|m| prediction + m <= test.reach);
        // B's points seen from A, or A's seen from B: whichever bound is smaller.
        if !fits(motion(&test.b_in_a, &b_in_a, half_turn, b.bounding_radius))
            && !fits(motion(&test.b_in_a.inverse(), &b_in_a.inverse(), half_turn, a.bounding_radius))
        {
            return false;
        }
        // Matrices: a point costs 9 multiply-adds instead of a quaternion's two cross products.
        let (ra, rb) = (pa.rotation.to_rotation_matrix(), pb.rotation.to_rotation_matrix());
        let (ta, tb) = (pa.translation.vector, pb.translation.vector);
        out.extend(self.local.iter().map(|local| {
            let normal = ra * local.normal;
            let mut m = Manifold::new(normal);
            for p in local.points() {
                let (point_a, point_b) = (ra * p.point_a + ta, rb * p.point_b + tb);
                m.push(ManifoldPoint {
                    point_a,
                    point_b,
                    distance: normal.dot(&(point_b - point_a)),
                    id: p.id,
                });
            }
            m
        }));
        true
    }
}
