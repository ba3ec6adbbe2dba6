//! What the world remembers about its pairs between steps, and where it keeps it.
//!
//! A pair's state (warm-start caches, where its manifolds are, the contact-reuse anchor) is
//! about two hundred bytes. The states live in a slab and stay in place from step to step;
//! each step merges the broad phase's sorted pairs with a sorted list of `(pair, slab index)`
//! entries, which is all that moves. Moving every state into a new sorted vector each step cost
//! about 5 % of the world benchmark's 1k-body frame in copies.
//!
//! Manifolds are not kept in the states but in shared vectors that states hold [`Span`]s of:
//! the step's manifolds (written front to back as pairs are processed) and the reuse anchors'
//! records ([`ReuseStore`]). A vector per state scattered them over the heap, one cache miss
//! per pair and list in a pile of 47k pairs.

use cd_geom::Real;
use cd_narrow::PairCache;

use crate::world::reuse::{ReuseAnchor, ReuseStore};

/// A run of manifolds in a shared vector.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Span {
    /// Index of the first.
    pub(crate) start: usize,
    /// How many.
    pub(crate) len: usize,
}

impl Span {
    /// The span from `start` to the end of `items`.
    pub(crate) fn since<M>(start: usize, items: &[M]) -> Self {
        Self { start, len: items.len() - start }
    }

    /// The span's items in `items`.
    pub(crate) fn of<'a, M>(&self, items: &'a [M]) -> &'a [M] {
        &items[self.start..][..self.len]
    }
}

/// What the world remembers about a pair between steps.
#[derive(Clone, Debug)]
pub(crate) struct PairState<T: Real> {
    pub(crate) key: (u32, u32),
    pub(crate) cache: PairCache<T>,
    /// The pair's manifolds of the last step in the world's manifold vector.
    pub(crate) manifolds: Span,
    pub(crate) touching: bool,
    /// Time-critical steps since the pair was last tested.
    pub(crate) stale: u32,
    /// The last test, for contact reuse.
    pub(crate) anchor: ReuseAnchor<T>,
}

impl<T: Real> PairState<T> {
    /// The state of a pair never tested.
    fn new(key: (u32, u32)) -> Self {
        Self {
            key,
            cache: PairCache::default(),
            manifolds: Span::default(),
            touching: false,
            stale: 0,
            anchor: ReuseAnchor::default(),
        }
    }

    /// Makes this state [`PairState::new`]'s for `key`, keeping its anchor's room in the store.
    fn reset(&mut self, key: (u32, u32)) {
        let mut anchor = core::mem::take(&mut self.anchor);
        anchor.forget();
        *self = PairState { anchor, ..Self::new(key) };
    }

    /// Scheduling priority under a budget: the longest-untested pairs first, touching pairs
    /// counting as two steps staler (they hold things up), ties in pair order.
    pub(crate) fn urgency(&self) -> u32 {
        self.stale.saturating_add(if self.touching { 2 } else { 0 })
    }
}

/// A pair and the slab index of its state.
pub(crate) type PairEntry = ((u32, u32), u32);

/// The slab of pair states and their reuse records: states of ended pairs are recycled, their
/// room in the store included.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairSlab<T: Real> {
    states: Vec<PairState<T>>,
    free: Vec<u32>,
    reuse: ReuseStore<T>,
}

impl<T: Real> PairSlab<T> {
    /// A fresh state for the pair `key`; returns its index.
    pub(crate) fn open(&mut self, key: (u32, u32)) -> u32 {
        match self.free.pop() {
            Some(i) => {
                self.states[i as usize].reset(key);
                i
            }
            None => {
                self.states.push(PairState::new(key));
                (self.states.len() - 1) as u32
            }
        }
    }

    /// Ends the pair at `index` (its state is recycled by a later [`PairSlab::open`]); returns
    /// whether it was touching.
    pub(crate) fn close(&mut self, index: u32) -> bool {
        self.free.push(index);
        self.states[index as usize].touching
    }

    /// Puts the states in the order of `entries` (every live state is listed there once; the
    /// others are free) and renumbers the entries; rebuilds the reuse store in the same order.
    /// States opened over the steps land wherever a free slot was; visiting them in pair order
    /// then jumps around memory, which at 47k pairs (the 10k-body pile) costs more in cache
    /// misses than an occasional reordering.
    pub(crate) fn compact(&mut self, entries: &mut [PairEntry]) {
        let mut old: Vec<Option<PairState<T>>> =
            core::mem::take(&mut self.states).into_iter().map(Some).collect();
        let mut states = Vec::with_capacity(old.len());
        for entry in entries.iter_mut() {
            states.extend(old[entry.1 as usize].take());
            entry.1 = (states.len() - 1) as u32;
        }
        self.free.clear();
        for state in old.into_iter().flatten() {
            self.free.push(states.len() as u32);
            states.push(state);
        }
        self.states = states;
        self.reuse.rebuild(self.states.iter_mut().map(|s| &mut s.anchor));
    }

    /// Whether a [`PairSlab::compact`] is due: visiting `entries` in order jumps backwards in
    /// the slab often enough (one step in eight), or the reuse store is mostly garbage.
    pub(crate) fn untidy(&self, entries: &[PairEntry]) -> bool {
        let backwards = entries.windows(2).filter(|w| w[1].1 < w[0].1).count();
        backwards * 8 > entries.len() || self.reuse.wasteful()
    }

    /// The state at `index`.
    pub(crate) fn get(&self, index: u32) -> &PairState<T> {
        &self.states[index as usize]
    }

    /// The state at `index`, mutably, with the reuse store its anchor records into.
    pub(crate) fn get_mut(&mut self, index: u32) -> (&mut PairState<T>, &mut ReuseStore<T>) {
        (&mut self.states[index as usize], &mut self.reuse)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compacting_keeps_every_state_with_its_pair_and_recycles_the_free_ones() {
        let mut slab = PairSlab::<f64>::default();
        let keys = [(0, 1), (0, 2), (1, 2), (2, 3), (3, 4)];
        let mut entries: Vec<PairEntry> = keys.iter().map(|&k| (k, slab.open(k))).collect();
        for (i, e) in entries.iter().enumerate() {
            slab.get_mut(e.1).0.stale = i as u32;
        }
        // Two pairs end; a new one takes a freed slot, so visiting in pair order jumps back.
        assert!(!slab.close(entries[1].1) && !slab.close(entries[3].1));
        let new = ((0, 0), slab.open((0, 0)));
        entries = vec![new, entries[0], entries[2], entries[4]];
        assert_eq!(slab.get(new.1).stale, 0, "a recycled state starts afresh");
        assert!(slab.untidy(&entries));
        slab.compact(&mut entries);
        assert_eq!(entries.iter().map(|e| e.1).collect::<Vec<_>>(), [0, 1, 2, 3]);
        assert!(!slab.untidy(&entries));
        for e in &entries {
            assert_eq!(slab.get(e.1).key, e.0);
        }
        assert_eq!([1, 2, 3].map(|i| slab.get(entries[i].1).stale), [0, 2, 4]);
        // The one free state left is reused by the next opening, not a new allocation.
        assert_eq!(slab.open((5, 6)), 4);
        assert_eq!(slab.open((6, 7)), 5);
    }
}
