//! Candidate pairs, shared by the strategies that keep fat (margin-grown) boxes between frames
//! (the dynamic tree, the coherent grid and incremental sweep-and-prune): the pairs whose fat
//! boxes overlap, kept sorted by ids from frame to frame, from which each frame's exact pairs
//! are filtered already sorted, so committing them needs no sort.

use crate::events::PairEvents;
use crate::fat_slots::{FatSlots, MovedSlots};
use crate::packed_boxes::PackedBoxes;
use crate::proxies::{overlaps, ProxyId};
use crate::Pair;
use cd_geom::{Aabb, Real};

/// Two proxies whose fat boxes overlap: their ids (`a < b`, the sort key) and the slots that
/// hold them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
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

/// A candidate as the confirming loop reads it: the two slots whose boxes are tested, and the
/// pair of ids reported when they overlap.
pub(crate) trait Confirm: Copy + Default {
    /// The slots of the lower and the higher id.
    fn slots(self) -> (u32, u32);
    /// The pair of ids, given the id of each slot.
    fn pair(self, ids: &[ProxyId]) -> Pair;
}

impl Confirm for Candidate {
    #[inline(always)]
    fn slots(self) -> (u32, u32) {
        self.slots
    }
    #[inline(always)]
    fn pair(self, _: &[ProxyId]) -> Pair {
        self.ids
    }
}

/// A kept candidate: the slots of its lower and higher id, without the ids (half a
/// [`Candidate`]'s bytes; the list is read whole every frame and was most of what a frame kept
/// in cache). The ids are looked up from the slots where they are needed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SlotPair(pub(crate) u32, pub(crate) u32);

impl From<Candidate> for SlotPair {
    #[inline(always)]
    fn from(c: Candidate) -> Self {
        SlotPair(c.slots.0, c.slots.1)
    }
}

impl Confirm for SlotPair {
    #[inline(always)]
    fn slots(self) -> (u32, u32) {
        (self.0, self.1)
    }
    #[inline(always)]
    fn pair(self, ids: &[ProxyId]) -> Pair {
        (ids[self.0 as usize], ids[self.1 as usize])
    }
}

/// Makes this frame's pairs current: the candidates (sorted by ids) whose tight boxes overlap,
/// `ids` giving each slot's id.
///
/// Every candidate is written and the write position advanced by the test's outcome, so the
/// loop has no branch on it: a large share of the candidates pass (a quarter on the floor
/// benchmark), in no predictable order, and the mispredicted branch was most of this loop's
/// time. The writes go to a block on the stack whose kept prefix is appended (as ids) per
/// block: the staged list is never sized for every candidate, which would write that whole
/// size over each frame.
///
/// The test reads the boxes padded to four lanes (`packed`, the same boxes as `tight`) when
/// `D ≤ 4`: 38 → 27 instructions per candidate in 3D `f32` (the floor benchmark at 10k: −3 %
/// of the coherent grid's frame, −4 % of incremental sweep-and-prune's).
pub(crate) fn commit_overlapping<C: Confirm, T: Real, const D: usize>(
    events: &mut PairEvents,
    candidates: &[C],
    tight: &[Aabb<T, D>],
    packed: &PackedBoxes<T>,
    ids: &[ProxyId],
) {
    const BLOCK: usize = 256;
    let out = events.staging();
    let mut block = [C::default(); BLOCK];
    for chunk in candidates.chunks(BLOCK) {
        let mut kept = 0;
        for &c in chunk {
            block[kept] = c;
            let (a, b) = c.slots();
            let overlap =
                if D <= 4 { packed.overlap(a, b) } else { overlaps(&tight[a as usize], &tight[b as usize]) };
            kept += overlap as usize;
        }
        out.extend(block[..kept].iter().map(|c| c.pair(ids)));
    }
    events.commit_sorted();
}

/// The candidates of a strategy that keeps fat boxes, as slot pairs sorted by their ids, with
/// the scratch list of a frame's fresh ones.
#[derive(Clone, Debug, Default)]
pub(crate) struct CandidateList {
    pub(crate) sorted: Vec<SlotPair>,
    fresh: Vec<Candidate>,
}

impl CandidateList {
    /// Makes this frame's pairs current: [`commit_overlapping`] on these candidates and the
    /// boxes of `slots`.
    pub(crate) fn commit<T: Real, const D: usize>(&self, events: &mut PairEvents, slots: &FatSlots<T, D>) {
        commit_overlapping(events, &self.sorted, &slots.tight, &slots.packed, &slots.ids);
    }

    /// Replaces the candidates of the `moved` slots by those `find` appends for each of them
    /// (each pair once), keeping the list sorted (`ids` gives each slot's id): a retain, a sort
    /// of the fresh few, and a merge in place — never a sort of all of them, nor a second copy
    /// of the list.
    pub(crate) fn refresh(
        &mut self,
        moved: &MovedSlots,
        ids: &[ProxyId],
        mut find: impl FnMut(u32, &mut Vec<Candidate>),
    ) {
        self.sorted.retain(|c| !moved.contains(c.0) && !moved.contains(c.1));
        self.fresh.clear();
        for &s in moved.list() {
            find(s, &mut self.fresh);
        }
        self.fresh.sort_unstable();
        merge_in_place(&mut self.sorted, &self.fresh, ids);
    }
}

/// Merges the sorted `fresh` candidates (the short list: a frame's) into `list`, sorted by the
/// ids `ids` gives its slots, in place: from the back, each run of `list` above a fresh
/// candidate found by galloping (doubling steps back from the end, then a binary search within
/// the last one) and moved up whole, so the elements below the smallest fresh candidate are not
/// touched and no second list is written (the list is hundreds of kilobytes; a copy doubled
/// what a frame keeps in cache).
fn merge_in_place(list: &mut Vec<SlotPair>, fresh: &[Candidate], ids: &[ProxyId]) {
    let mut end = list.len(); // list[..end]: old candidates not yet placed
    list.extend(fresh.iter().map(|&c| SlotPair::from(c))); // room at the back, overwritten below
    let mut place = list.len(); // list[place..]: final
    for x in fresh.iter().rev() {
        let mut reach = 1;
        while reach < end && list[end - reach].pair(ids) > x.ids {
            reach *= 2;
        }
        let from = end - reach.min(end);
        let above = from + list[from..end].partition_point(|y| y.pair(ids) < x.ids);
        let run = end - above;
        list.copy_within(above..end, place - run);
        place -= run + 1;
        list[place] = SlotPair::from(*x);
        end = above;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Merging in place gives the sorted union, for fresh candidates below, among and above
    /// the kept ones, and for either list empty; slots hold ids in reverse order, so the
    /// merge must order by the ids, not the slots.
    #[test]
    fn merge_in_place_is_the_sorted_union() {
        let ids: Vec<ProxyId> = (0..6000).rev().collect();
        let c = |ia: u32, ib: u32| Candidate::new(5999 - ia, ia, 5999 - ib, ib);
        let kept: Vec<Candidate> = (0..300).map(|i| c(i * 3, i * 3 + 1)).collect();
        let cases: [Vec<Candidate>; 5] = [
            vec![],
            vec![c(0, 0), c(1, 2)],
            (0..40).map(|i| c(i * 7 + 1, 2000)).collect(),
            vec![c(5000, 5001), c(5000, 5002)],
            (0..900).map(|i| c(i, i + 2)).filter(|x| !kept.contains(x)).collect(),
        ];
        for fresh in cases {
            for base in [kept.clone(), Vec::new()] {
                let mut want: Vec<Candidate> = base.iter().chain(&fresh).copied().collect();
                want.sort_unstable();
                let mut got: Vec<SlotPair> = base.iter().map(|&k| SlotPair::from(k)).collect();
                merge_in_place(&mut got, &fresh, &ids);
                assert_eq!(got, want.into_iter().map(SlotPair::from).collect::<Vec<_>>());
            }
        }
    }
}
