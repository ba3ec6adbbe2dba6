//! Candidate pairs, shared by the strategies that keep fat (margin-grown) boxes between frames
//! (the dynamic tree, the coherent grid and incremental sweep-and-prune): the pairs whose fat
//! boxes overlap, kept sorted by ids from frame to frame, from which each frame's exact pairs
//! are filtered already sorted, so committing them needs no sort.

use crate::events::PairEvents;
use crate::fat_slots::FatSlots;
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
            // `kept` ≤ the candidates read so far in the chunk (< BLOCK): the mask only spares
            // the bounds check.
            block[kept & (BLOCK - 1)] = c;
            let (a, b) = c.slots();
            kept += exact_overlap(tight, packed, a, b) as usize;
        }
        out.extend(block[..kept].iter().map(|c| c.pair(ids)));
    }
    events.commit_sorted();
}

/// Do the boxes of slots `a` and `b` overlap? Read from their padded copies (`packed`) when
/// `D ≤ 4`, from `tight` above.
#[inline(always)]
pub(crate) fn exact_overlap<T: Real, const D: usize>(
    tight: &[Aabb<T, D>],
    packed: &PackedBoxes<T>,
    a: u32,
    b: u32,
) -> bool {
    if D <= 4 {
        packed.overlap(a, b)
    } else {
        overlaps(&tight[a as usize], &tight[b as usize])
    }
}

/// The candidates of a strategy that keeps fat boxes, as slot pairs sorted by their ids, with
/// the scratch lists of a frame's fresh ones.
#[derive(Clone, Debug, Default)]
pub(crate) struct CandidateList {
    pub(crate) sorted: Vec<SlotPair>,
    fresh: Vec<Candidate>,
    fresh_slots: Vec<SlotPair>,
    fresh_pairs: Vec<Pair>,
}

impl CandidateList {
    /// Finds this frame's fresh candidates: those `find` appends for each slot `slots` marks
    /// moved (each pair once), sorted. [`Self::commit`] then puts them in place of the moved
    /// slots' old ones.
    pub(crate) fn find_fresh<T: Real, const D: usize>(
        &mut self,
        slots: &FatSlots<T, D>,
        mut find: impl FnMut(u32, &mut Vec<Candidate>),
    ) {
        self.fresh.clear();
        for &s in slots.moved.list() {
            find(s, &mut self.fresh);
        }
        // By the ids alone, as one 64-bit key (a pair's ids are unique, and the slots follow
        // them): half the comparisons' instructions of the derived order on ids and slots.
        self.fresh.sort_unstable_by_key(|c| (u64::from(c.ids.0) << 32) | u64::from(c.ids.1));
    }

    /// Makes this frame's pairs current: the candidates whose exact boxes (those of `slots`)
    /// overlap, once the candidates of the slots marked moved are replaced by the fresh ones of
    /// [`Self::find_fresh`]; the list stays sorted by ids, and the moved marks are cleared.
    ///
    /// One pass over the list both drops the moved slots' candidates and confirms the others
    /// ([`drop_moved_and_confirm`]); the fresh ones are confirmed and merged into the pairs and
    /// into the list in place ([`merge_in_place`]). Never a sort of all of them, nor a second
    /// copy of the list.
    pub(crate) fn commit<T: Real, const D: usize>(
        &mut self,
        events: &mut PairEvents,
        slots: &mut FatSlots<T, D>,
    ) {
        if slots.moved.list().is_empty() {
            commit_overlapping(events, &self.sorted, slots.tight_boxes(), &slots.packed, &slots.ids);
            return;
        }
        let out = events.staging();
        if D < 4 {
            // The moved marks ride in the padding lane of the packed boxes for the pass.
            for &s in slots.moved.list() {
                slots.packed.flag(s, true);
            }
            drop_moved_and_confirm(&mut self.sorted, out, &slots.ids, |a, b| {
                slots.packed.overlap_unflagged(a, b)
            });
            for &s in slots.moved.list() {
                slots.packed.flag(s, false);
            }
        } else {
            let moved = slots.moved.flags();
            drop_moved_and_confirm(&mut self.sorted, out, &slots.ids, |a, b| {
                let stays = !(moved[a as usize] | moved[b as usize]);
                (stays & slots.overlap(a, b), stays)
            });
        }
        self.fresh_pairs.clear();
        self.fresh_pairs
            .extend(self.fresh.iter().filter(|c| slots.overlap(c.slots.0, c.slots.1)).map(|c| c.ids));
        merge_in_place(out, &self.fresh_pairs, |p| p);
        self.fresh_slots.clear();
        self.fresh_slots.extend(self.fresh.iter().map(|&c| SlotPair::from(c)));
        let ids = &slots.ids;
        merge_in_place(&mut self.sorted, &self.fresh_slots, |c| c.pair(ids));
        events.commit_sorted();
        slots.moved.clear();
    }
}

/// Drops from `list` the candidates that do not stay, keeping the order, and appends to `out`
/// (as ids) those that stay and overlap: `test` answers both for a candidate's two slots, and
/// the list is read once for both. As in [`commit_overlapping`], every candidate is written
/// (into a block of kept ones and a block of confirmed ones) and each write position advanced
/// by the outcome, without a branch on it; the kept block is copied back over the list's
/// consumed part.
fn drop_moved_and_confirm(
    list: &mut Vec<SlotPair>,
    out: &mut Vec<Pair>,
    ids: &[ProxyId],
    test: impl Fn(u32, u32) -> (bool, bool),
) {
    const BLOCK: usize = 256;
    let mut confirmed = [SlotPair::default(); BLOCK];
    let mut kept = [SlotPair::default(); BLOCK];
    let mut write = 0;
    for start in (0..list.len()).step_by(BLOCK) {
        let end = (start + BLOCK).min(list.len());
        let (mut n_kept, mut n_confirmed) = (0, 0);
        for &c in &list[start..end] {
            // Both counts are at most the candidates read so far in the block (< BLOCK): the
            // masks only spare the bounds checks.
            kept[n_kept & (BLOCK - 1)] = c;
            confirmed[n_confirmed & (BLOCK - 1)] = c;
            let (overlap, stays) = test(c.0, c.1);
            n_kept += stays as usize;
            n_confirmed += overlap as usize;
        }
        out.extend(confirmed[..n_confirmed].iter().map(|c| c.pair(ids)));
        // `write` ≤ `start`: the copy lands on candidates already read.
        list[write..write + n_kept].copy_from_slice(&kept[..n_kept]);
        write += n_kept;
    }
    list.truncate(write);
}

/// Merges the sorted `fresh` elements (the short list: a frame's) into `list`, sorted by `key`,
/// in place: from the back, each run of `list` above a fresh element found by galloping
/// (doubling steps back from the end, then a binary search within the last one) and moved up
/// whole, so the elements below the smallest fresh one are not touched and no second list is
/// written (the candidate list is hundreds of kilobytes; a copy doubled what a frame keeps in
/// cache).
fn merge_in_place<E: Copy, K: Ord>(list: &mut Vec<E>, fresh: &[E], key: impl Fn(E) -> K) {
    let mut end = list.len(); // list[..end]: old elements not yet placed
    list.extend_from_slice(fresh); // room at the back, overwritten below
    let mut place = list.len(); // list[place..]: final
    for &x in fresh.iter().rev() {
        let kx = key(x);
        let mut reach = 1;
        while reach < end && key(list[end - reach]) > kx {
            reach *= 2;
        }
        let from = end - reach.min(end);
        let above = from + list[from..end].partition_point(|&y| key(y) < kx);
        let run = end - above;
        list.copy_within(above..end, place - run);
        place -= run + 1;
        list[place] = x;
        end = above;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cd_geom::Point;

    /// A frame's commit keeps every candidate of an unmoved pair, replaces the moved slots'
    /// ones by the fresh ones, and reports exactly the candidates whose boxes overlap, sorted
    /// by ids — in 2D and 3D (moved marks in the packed boxes' padding lane) and in 4D and 5D
    /// (marks read from the flags), over several frames (the marks must not linger).
    #[test]
    fn commit_replaces_moved_candidates_and_confirms_the_rest() {
        fn check<const D: usize>() {
            let mut x = 0x2545_f491_4f6c_dd1du64;
            let mut next = move || {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % 1000) as f64 / 100.0
            };
            let mut random_box = || {
                let lo: [f64; D] = core::array::from_fn(|_| next());
                Aabb::new(Point::from(lo), Point::from(lo.map(|l| l + 2.5))).unwrap()
            };
            let mut slots = FatSlots::<f64, D>::new(0.0);
            // Ids in reverse slot order, so an order by slots would be wrong.
            let n = 300u32;
            for s in 0..n {
                slots.insert(n - 1 - s, random_box()).unwrap();
            }
            let (mut list, mut events) = (CandidateList::default(), PairEvents::new());
            // Every pair is a candidate (a valid superset of the fat-box overlaps).
            let all = |slots: &FatSlots<f64, D>, s: u32, fresh: &mut Vec<Candidate>| {
                for o in 0..n {
                    if o != s && (!slots.moved.contains(o) || s < o) {
                        fresh.push(Candidate::new(s, slots.ids[s as usize], o, slots.ids[o as usize]));
                    }
                }
            };
            for frame in 0..4u32 {
                if frame > 0 {
                    // A few boxes move (and are marked); the others keep their boxes.
                    for s in (frame * 7..n).step_by(23) {
                        let b = random_box();
                        slots.set_tight(s, b);
                        slots.moved.mark(s);
                    }
                }
                slots.pending.clear();
                let snapshot = slots.clone();
                list.find_fresh(&slots, |s, fresh| all(&snapshot, s, fresh));
                list.commit(&mut events, &mut slots);
                let mut want_pairs = Vec::new();
                let mut want_list = Vec::new();
                for a in 0..n {
                    for b in a + 1..n {
                        let c = Candidate::new(a, slots.ids[a as usize], b, slots.ids[b as usize]);
                        want_list.push(c);
                        if overlaps(&slots.tight(a), &slots.tight(b)) {
                            want_pairs.push(c.ids);
                        }
                    }
                }
                want_list.sort_unstable();
                want_pairs.sort_unstable();
                assert_eq!(list.sorted, want_list.into_iter().map(SlotPair::from).collect::<Vec<_>>());
                assert_eq!(events.pairs(), want_pairs.as_slice(), "D = {D}, frame {frame}");
                assert!(slots.moved.list().is_empty());
            }
        }
        check::<2>();
        check::<3>();
        check::<4>();
        check::<5>();
    }

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
                let fresh: Vec<SlotPair> = fresh.iter().map(|&k| SlotPair::from(k)).collect();
                merge_in_place(&mut got, &fresh, |c| c.pair(&ids));
                assert_eq!(got, want.into_iter().map(SlotPair::from).collect::<Vec<_>>());
            }
        }
    }
}
