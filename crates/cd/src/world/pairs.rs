//! What the world remembers about its pairs between steps, and where it keeps it.
//!
//! A pair's state (warm-start caches, last manifolds, the contact-reuse anchor) is a few
//! hundred bytes. The states live in a slab and stay in place from step to step; each step
//! merges the broad phase's sorted pairs with a sorted list of `(pair, slab index)` entries,
//! which is all that moves. Moving every state into a new sorted vector each step cost about
//! 5 % of the world benchmark's 1k-body frame in copies.

use cd_geom::Real;
use cd_narrow::{Manifold, PairCache};

use crate::world::reuse::ReuseAnchor;

/// What the world remembers about a pair between steps.
#[derive(Clone, Debug)]
pub(crate) struct PairState<T: Real> {
    pub(crate) key: (u32, u32),
    pub(crate) cache: PairCache<T>,
    pub(crate) manifolds: Vec<Manifold<T, 3>>,
    pub(crate) touching: bool,
    /// Time-critical steps since the pair was last tested.
    pub(crate) stale: u32,
    /// The last test, for contact reuse.
    pub(crate) anchor: ReuseAnchor<T>,
}

impl<T: Real> PairState<T> {
    /// Scheduling priority under a budget: the longest-untested pairs first, touching pairs
    /// counting as two steps staler (they hold things up), ties in pair order.
    pub(crate) fn urgency(&self) -> u32 {
        self.stale.saturating_add(if self.touching { 2 } else { 0 })
    }
}

/// A pair and the slab index of its state.
pub(crate) type PairEntry = ((u32, u32), u32);

/// The slab of pair states: states of ended pairs are recycled, allocations included.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairSlab<T: Real> {
    states: Vec<PairState<T>>,
    free: Vec<u32>,
}

impl<T: Real> PairSlab<T> {
    /// A fresh state for the pair `key`; returns its index.
    pub(crate) fn open(&mut self, key: (u32, u32)) -> u32 {
        match self.free.pop() {
            Some(i) => {
                let state = &mut self.states[i as usize];
                state.key = key;
                state.cache = PairCache::default();
                state.manifolds.clear();
                state.touching = false;
                state.stale = 0;
                state.anchor.forget();
                i
            }
            None => {
                self.states.push(PairState {
                    key,
                    cache: PairCache::default(),
                    manifolds: Vec::new(),
                    touching: false,
                    stale: 0,
                    anchor: ReuseAnchor::default(),
                });
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

    /// The state at `index`.
    pub(crate) fn get(&self, index: u32) -> &PairState<T> {
        &self.states[index as usize]
    }

    /// The state at `index`, mutably.
    pub(crate) fn get_mut(&mut self, index: u32) -> &mut PairState<T> {
        &mut self.states[index as usize]
    }
}
