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
use crate::world::pairs::Span;

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

/// The recorded manifolds of every pair's anchor, in one vector: an anchor holds a span of it.
///
/// In a settled pile most pairs are replayed every step, and a heap vector per anchor put a
/// cache miss in front of each replay (15 % of the 10k-body world frame). Here a re-recorded
/// anchor overwrites its span in place whenever its manifolds still fit, and the pair slab
/// rebuilds the store in pair order when it reorders its states (or when over half of the store
/// is left over from grown spans), so replays read it front to back.
#[derive(Clone, Debug, Default)]
pub(crate) struct ReuseStore<T: Real> {
    manifolds: Vec<Manifold<T, 3>>,
    /// Manifolds no span covers any more (left behind when an anchor outgrew its span).
    garbage: usize,
}

impl<T: Real> ReuseStore<T> {
    /// Whether over half of the store is garbage (and enough of it to be worth a rebuild).
    pub(crate) fn wasteful(&self) -> bool {
        self.garbage > 1024 && self.garbage * 2 > self.manifolds.len()
    }

    /// Rebuilds the store with the spans of `anchors` in the order given, each span exactly as
    /// long as its manifolds (an empty anchor keeps no room).
    pub(crate) fn rebuild<'a>(&mut self, anchors: impl Iterator<Item = &'a mut ReuseAnchor<T>>)
    where
        T: 'a,
    {
        let mut manifolds = Vec::with_capacity(self.manifolds.len() - self.garbage);
        for anchor in anchors {
            let start = manifolds.len();
            manifolds.extend_from_slice(anchor.span.of(&self.manifolds));
            anchor.span = Span { start, len: anchor.span.len };
            anchor.room = anchor.span.len;
        }
        self.manifolds = manifolds;
        self.garbage = 0;
    }
}

/// What a pair's last full test left for reuse.
#[derive(Clone, Debug, Default)]
pub(crate) struct ReuseAnchor<T: Real> {
    /// None until the first test.
    test: Option<Test<T>>,
    /// The manifolds in the [`ReuseStore`]: normals in A's frame, `point_a` in A's frame,
    /// `point_b` in B's.
    span: Span,
    /// How many manifolds the store holds for this anchor from `span.start` on (its span can
    /// grow that far in place).
    room: usize,
}

impl<T: Real> ReuseAnchor<T> {
    /// Records the manifolds `found` of a full test of `a` and `b` up to `reach` for a pair
    /// whose prediction distance was `prediction`.
    pub(crate) fn record(
        &mut self,
        store: &mut ReuseStore<T>,
        (a, b): (&Body<T>, &Body<T>),
        prediction: T,
        reach: T,
        found: &[Manifold<T, 3>],
    ) {
        let (pa, pb) = (&a.rigid.pose, &b.rigid.pose);
        self.test = Some(Test { b_in_a: pa.inv_mul(pb), prediction, reach });
        if found.len() > self.room {
            // Outgrown: a new span at the end of the store; the old one is garbage.
            store.garbage += self.room;
            self.room = found.len();
            self.span.start = store.manifolds.len();
            store.manifolds.resize(self.span.start + self.room, Manifold::default());
        }
        self.span.len = found.len();
        let slots = &mut store.manifolds[self.span.start..][..self.span.len];
        for (slot, m) in slots.iter_mut().zip(found) {
            let mut local = Manifold::new(pa.rotation.inverse_transform_vector(&m.normal));
            for p in m.points() {
                local.push(ManifoldPoint {
                    point_a: pa.inverse_transform_point(&p.point_a),
                    point_b: pb.inverse_transform_point(&p.point_b),
                    ..*p
                });
            }
            *slot = local;
        }
    }

    /// Forgets the recorded test (the room in the store is kept for the next record).
    pub(crate) fn forget(&mut self) {
        self.test = None;
        self.span.len = 0;
    }

    /// The recorded manifolds at the current poses into `out` (appended), when `a` and `b`
    /// have moved so little relative to each other since the test that every contact within
    /// `prediction` is among them; false (and nothing appended) otherwise. A pair whose
    /// prediction distance shrank (its bodies slowed down) is tested again, so a reported
    /// pair is never more than twice the margin beyond its current prediction distance.
    pub(crate) fn replay(
        &self,
        store: &ReuseStore<T>,
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
        out.extend(self.span.of(&store.manifolds).iter().map(|local| {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::{BodyDesc, ColliderShape, World};
    use nalgebra::{Point3, Vector3};

    /// `n` manifolds told apart by their points' ids (`tag`, `tag + 1`, …).
    fn manifolds(n: usize, tag: u32) -> Vec<Manifold<f64, 3>> {
        (0..n as u32)
            .map(|k| {
                let mut m = Manifold::new(Vector3::y());
                let p = Point3::new(0.0, 1.0, 0.0);
                m.push(ManifoldPoint { point_a: p, point_b: p, distance: 0.0, id: tag + k });
                m
            })
            .collect()
    }

    fn ids(m: &[Manifold<f64, 3>]) -> Vec<u32> {
        m.iter().map(|m| m.points()[0].id).collect()
    }

    #[test]
    fn anchors_share_one_store_grow_out_of_place_and_survive_a_rebuild() {
        let mut world = World::<f64>::default();
        let a = world.add(BodyDesc::dynamic(ColliderShape::ball(1.0))).unwrap();
        let b = world.add(BodyDesc::dynamic(ColliderShape::ball(1.0))).unwrap();
        let bodies = (world.body(a).unwrap(), world.body(b).unwrap());
        let mut store = ReuseStore::default();
        let mut anchors: [ReuseAnchor<f64>; 3] = Default::default();
        let replayed = |anchor: &ReuseAnchor<f64>, store: &ReuseStore<f64>| {
            let mut out = Vec::new();
            assert!(anchor.replay(store, bodies, 0.01, &mut out));
            ids(&out)
        };
        for (k, anchor) in anchors.iter_mut().enumerate() {
            anchor.record(&mut store, bodies, 0.01, 0.02, &manifolds(k + 1, 10 * k as u32));
        }
        assert_eq!((store.manifolds.len(), store.garbage), (6, 0));
        // Fewer manifolds fit in place; more move to the end and leave garbage behind.
        anchors[2].record(&mut store, bodies, 0.01, 0.02, &manifolds(2, 50));
        anchors[0].record(&mut store, bodies, 0.01, 0.02, &manifolds(4, 60));
        assert_eq!((store.manifolds.len(), store.garbage), (10, 1));
        // A forgotten anchor replays nothing and keeps its room.
        anchors[1].forget();
        let mut out = Vec::new();
        assert!(!anchors[1].replay(&store, bodies, 0.01, &mut out) && out.is_empty());
        anchors[1].record(&mut store, bodies, 0.01, 0.02, &manifolds(2, 70));
        assert_eq!(store.manifolds.len(), 10);
        let expected = [vec![60, 61, 62, 63], vec![70, 71], vec![50, 51]];
        for (anchor, ids) in anchors.iter().zip(&expected) {
            assert_eq!(&replayed(anchor, &store), ids);
        }
        // Rebuilt in another order: the same manifolds, no garbage, spans in that order.
        let mut reordered = [2, 0, 1].map(|k| anchors[k].clone());
        store.rebuild(reordered.iter_mut());
        assert_eq!((store.manifolds.len(), store.garbage), (8, 0));
        assert_eq!(ids(&store.manifolds), [50, 51, 60, 61, 62, 63, 70, 71]);
        for (anchor, ids) in reordered.iter().zip([&expected[2], &expected[0], &expected[1]]) {
            assert_eq!(&replayed(anchor, &store), ids);
        }
    }
}
