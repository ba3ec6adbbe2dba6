//! Candidate pairs, shared by the strategies that keep fat (margin-grown) boxes between frames
//! (the dynamic tree, the coherent grid and incremental sweep-and-prune): the pairs whose fat
//! boxes overlap, kept sorted by ids from frame to frame, from which each frame's exact pairs
//! are filtered already sorted, so committing them needs no sort.

use crate::events::PairEvents;
use crate::fat_slots::MovedSlots;
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
///
/// Every candidate's ids are written and the write position advanced by the test's outcome,
/// so the loop has no branch on it: about half the candidates of a coherent scene pass, in no
/// predictable order, and the mispredicted branch was most of this loop's time.
pub(crate) fn commit_overlapping<T: Real, const D: usize>(
    events: &mut PairEvents,
    candidates: &[Candidate],
    tight: &[Aabb<T, D>],
) {
    let out = events.staging();
    out.resize(candidates.len(), (0, 0));
    let mut kept = 0;
    for c in candidates {
        out[kept] = c.ids;
        kept += overlaps(&tight[c.slots.0 as usize], &tight[c.slots.1 as usize]) as usize;
    }
    out.truncate(kept);
    events.commit_sorted();
}

/// The candidates of a strategy that keeps fat boxes, sorted by ids, with the scratch lists
/// its frame uses.
#[derive(Clone, Debug, Default)]
pub(crate) struct CandidateList {
    pub(crate) sorted: Vec<Candidate>,
    fresh: Vec<Candidate>,
    merged: Vec<Candidate>,
}

impl CandidateList {
    /// Replaces the candidates of the `moved` slots by those `find` appends for each of them
    /// (each pair once), keeping the list sorted: a retain, a sort of the fresh few, and a
    /// merge — never a sort of all of them.
    pub(crate) fn refresh(&mut self, moved: &MovedSlots, mut find: impl FnMut(u32, &mut Vec<Candidate>)) {
        self.sorted.retain(|c| !moved.contains(c.slots.0) && !moved.contains(c.slots.1));
        self.fresh.clear();
        for &s in moved.list() {
            find(s, &mut self.fresh);
        }
        self.fresh.sort_unstable();
        merge_sorted(&self.sorted, &self.fresh, &mut self.merged);
        core::mem::swap(&mut self.sorted, &mut self.merged);
    }
}

/// Merges two sorted candidate lists into `out` (cleared first). `b` is the short one (a
/// frame's fresh candidates): the runs of `a` between its elements are found by galloping
/// (doubling steps, then a binary search within the last one) and copied whole, not compared
/// element by element.
fn merge_sorted(a: &[Candidate], b: &[Candidate], out: &mut Vec<Candidate>) {
    out.clear();
    out.reserve(a.len() + b.len());
    let mut rest = a;
    for x in b {
        let mut reach = 1;
        while reach < rest.len() && rest[reach - 1] <= *x {
            reach *= 2;
        }
        let reach = reach.min(rest.len());
        let below = rest[..reach].partition_point(|y| y <= x);
        out.extend_from_slice(&rest[..below]);
        out.push(*x);
        rest = &rest[below..];
    }
    out.extend_from_slice(rest);
}
