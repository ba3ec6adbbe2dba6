//! Candidate pairs, shared by the strategies that keep fat (margin-grown) boxes between frames
//! (the dynamic tree and incremental sweep-and-prune): the pairs whose fat boxes overlap, kept
//! sorted by ids from frame to frame, from which each frame's exact pairs are filtered already
//! sorted, so committing them needs no sort.

use crate::events::PairEvents;
use crate::proxies::{overlaps, ProxyId};
use cd_geom::{Aabb, Real};

/// Two proxies whose fat boxes overlap: their ids (`a < b`, the sort key) and the slots that
/// hold them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Candidate {
    pub(crate) ids: (ProxyId, ProxyId),
    pub(crate) slots: (u32, u32),
}

impl Candidate {
    /// The candidate of slots `a` and `b` holding ids `ia` and `ib`, in canonical order.
    #[inline]
    pub(crate) fn new(a: u32, ia: ProxyId, b: u32, ib: ProxyId) -> Self {
        if ia < ib {
            Candidate { ids: (ia, ib), slots: (a, b) }
        } else {
            Candidate { ids: (ib, ia), slots: (b, a) }
        }
    }
}

/// Makes this frame's pairs current: the candidates whose (tight) boxes overlap.
pub(crate) fn commit_overlapping<T: Real, const D: usize>(
    events: &mut PairEvents,
    candidates: &[Candidate],
    tight: &[Aabb<T, D>],
) {
    let out = events.staging();
    out.extend(
        candidates
            .iter()
            .filter(|c| overlaps(&tight[c.slots.0 as usize], &tight[c.slots.1 as usize]))
            .map(|c| c.ids),
    );
    events.commit();
}

/// Merges two sorted candidate lists into `out` (cleared first).
pub(crate) fn merge_sorted(a: &[Candidate], b: &[Candidate], out: &mut Vec<Candidate>) {
    out.clear();
    out.reserve(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if b[j] < a[i] {
            out.push(b[j]);
            j += 1;
        } else {
            out.push(a[i]);
            i += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
}
