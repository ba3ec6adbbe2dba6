//! Pair bookkeeping shared by all strategies: the current sorted pair list and the added and
//! removed events, computed as the set differences between consecutive frames by one merge of
//! two sorted lists (O(k) per frame for k pairs).

use crate::Pair;

/// Current pairs and the events of the last frame.
#[derive(Clone, Debug, Default)]
pub struct PairEvents {
    pairs: Vec<Pair>,
    next: Vec<Pair>,
    added: Vec<Pair>,
    removed: Vec<Pair>,
}

impl PairEvents {
    /// Empty bookkeeping.
    pub fn new() -> Self {
        Self::default()
    }
    /// The buffer a strategy fills with this frame's pairs (any order, duplicates allowed,
    /// each pair canonical `a < b`), then passes to [`Self::commit`].
    pub fn staging(&mut self) -> &mut Vec<Pair> {
        self.next.clear();
        &mut self.next
    }
    /// Sorts and dedups the staged pairs, diffs them against the previous frame's, and makes
    /// them current. Buffers are reused: no allocation in the steady state.
    pub fn commit(&mut self) {
        self.next.sort_unstable();
        self.next.dedup();
        self.commit_sorted();
    }
    /// [`Self::commit`] for staged pairs already sorted and free of duplicates (the strategies
    /// that filter a sorted candidate list): the diff without the sort.
    pub(crate) fn commit_sorted(&mut self) {
        debug_assert!(self.next.windows(2).all(|w| w[0] < w[1]));
        self.added.clear();
        self.removed.clear();
        let (mut i, mut j) = (0, 0);
        while i < self.pairs.len() || j < self.next.len() {
            // Most pairs persist from frame to frame: skip the run the two lists share (one
            // comparison per pair, no bounds checks) before the three-way merge step.
            let run = self.pairs[i..].iter().zip(&self.next[j..]).take_while(|(a, b)| a == b).count();
            i += run;
            j += run;
            match (self.pairs.get(i), self.next.get(j)) {
                (Some(a), Some(b)) if a == b => {
                    i += 1;
                    j += 1;
                }
                (Some(a), Some(b)) if a < b => {
                    self.removed.push(*a);
                    i += 1;
                }
                (Some(a), None) => {
                    self.removed.push(*a);
                    i += 1;
                }
                (_, Some(b)) => {
                    self.added.push(*b);
                    j += 1;
                }
                (None, None) => break,
            }
        }
        core::mem::swap(&mut self.pairs, &mut self.next);
    }
    /// Current pairs.
    pub fn pairs(&self) -> &[Pair] {
        &self.pairs
    }
    /// Pairs added at the last commit.
    pub fn added(&self) -> &[Pair] {
        &self.added
    }
    /// Pairs removed at the last commit.
    pub fn removed(&self) -> &[Pair] {
        &self.removed
    }
}
