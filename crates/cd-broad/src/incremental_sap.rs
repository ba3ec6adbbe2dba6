//! Incremental sweep-and-prune with temporal coherence (Baraff 1992; Cohen, Lin, Manocha and
//! Ponamgi, I-COLLIDE 1995).

use crate::events::PairEvents;
use crate::id_hash::{IdSet, SlotTable};
use crate::proxies::{overlaps, pair, BroadPhaseError, ProxyId};
use crate::{BroadPhase, Pair};
use cd_geom::{ray_aabb, Aabb, Ray, Real};

/// One end of a box's interval on one axis: 8 bytes in f32, so a list streams through cache.
#[derive(Clone, Copy, Debug)]
struct Endpoint<T> {
    value: T,
    /// `2·slot + 1` for a max, `2·slot` for a min.
    key: u32,
}

impl<T: Real> Endpoint<T> {
    #[inline(always)]
    fn slot(&self) -> u32 {
        self.key >> 1
    }
    #[inline(always)]
    fn is_max(&self) -> bool {
        self.key & 1 == 1
    }
    /// Sort order: by value, and at equal values a min before a max, so that touching intervals
    /// (closed) count as overlapping.
    #[inline(always)]
    fn before(&self, other: &Self) -> bool {
        self.value < other.value || (self.value == other.value && !self.is_max() && other.is_max())
    }
}

/// When more proxies than this fraction of the listed ones (and at least [`MIN_BATCH`]) wait to
/// enter the lists, everything is re-sorted and swept from scratch instead: each insertion
/// travels O(n) places in the insertion sort, a rebuild is O(n log n + k).
const BATCH_FRACTION: usize = 8;
const MIN_BATCH: usize = 64;

/// Incremental sweep-and-prune: per axis, a list of interval endpoints kept sorted from frame to
/// frame by insertion sort. Motion is coherent, so each endpoint moves only a few places, and
/// only one box's min passing another's max (or back) can change whether the two overlap.
///
/// * `update` only stores the box. `find_pairs` then refreshes each list's values and runs one
///   insertion-sort pass over it: sequential memory, O(n + s) for s swaps.
/// * When a min passes a max the two boxes start to overlap on that axis; the pair is added if
///   their (new) boxes overlap on every axis. When a max passes a min they stop; after the
///   passes, the pairs of the set that no longer overlap are taken out in one sweep of the set.
///   Every pair ends up present exactly when it overlaps, since every box already holds its
///   final value during the passes: a pair that overlaps at the end either did before, or was
///   joined on some axis by a crossing that tested it.
/// * The changed pairs give the events directly, so a frame with k pairs and c changes costs
///   O(k + c log c) bookkeeping with no sort of the k pairs. No per-pair counter of overlapping
///   axes is kept (in 3D that would hold every pair overlapping on *any* axis).
///
/// `with_axes(2)` sweeps only the two axes along which the boxes spread most — the fix for the
/// seed's worst case, many boxes resting on a floor and jittering vertically, where every
/// vertical step would pass thousands of endpoints; pairs are then confirmed on the remaining
/// axis before being reported. The axes are chosen from the spread of the boxes when the first
/// frame is computed.
///
/// A teleporting box crosses O(n) endpoints per axis (about 10 ns per frame per box per axis
/// crossed — see `docs/benchmarks.md`); scenes where many boxes jump every frame suit
/// [`crate::SortAndSweep`] or a grid better.
#[derive(Clone, Debug)]
pub struct IncrementalSap<T: Real, const D: usize> {
    ids: Vec<ProxyId>,
    boxes: Vec<Aabb<T, D>>,
    /// Live slots (removed ones stay in the lists, at +∞, until the next `find_pairs`).
    alive: Vec<bool>,
    /// Whether a slot's endpoints are in the lists.
    listed: Vec<bool>,
    /// Slots inserted since the last `find_pairs` (not yet listed) and removed listed ones.
    pending: Vec<u32>,
    dead: Vec<u32>,
    free: Vec<u32>,
    slot_of: SlotTable,
    /// Axes swept (chosen at the first `find_pairs`).
    axes: Vec<usize>,
    wanted_axes: usize,
    /// Per swept axis: endpoints, sorted after each `find_pairs`.
    lists: Vec<Vec<Endpoint<T>>>,
    /// Per swept axis, per slot: `[min, max]` on that axis (`[+∞, +∞]` once removed), written by
    /// `update` so the sort passes read their values from one small dense array per axis
    /// instead of from the boxes (which made the refresh the frame's main cost).
    bounds: Vec<Vec<[T; 2]>>,
    /// Per swept axis: did any bound change since the last sort pass?
    dirty: Vec<bool>,
    /// Pairs of slots (`a < b`) overlapping on every swept axis.
    overlapping: IdSet<(u32, u32)>,
    /// Pairs (by ids) whose membership in `overlapping` changed during this `find_pairs`.
    changed: Vec<Pair>,
    /// Did some pair separate on some axis during this frame's passes?
    separated: bool,
    events: PairEvents,
}

impl<T: Real, const D: usize> Default for IncrementalSap<T, D> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Real, const D: usize> IncrementalSap<T, D> {
    /// Sweep on every axis.
    pub fn new() -> Self {
        Self::with_axes(D)
    }

    /// Sweep on the `n` axes (1 ≤ n ≤ D) along which the boxes spread most.
    pub fn with_axes(n: usize) -> Self {
        IncrementalSap {
            ids: Vec::new(),
            boxes: Vec::new(),
            alive: Vec::new(),
            listed: Vec::new(),
            pending: Vec::new(),
            dead: Vec::new(),
            free: Vec::new(),
            slot_of: SlotTable::default(),
            axes: Vec::new(),
            wanted_axes: n.clamp(1, D),
            lists: Vec::new(),
            bounds: Vec::new(),
            dirty: Vec::new(),
            overlapping: IdSet::default(),
            changed: Vec::new(),
            separated: false,
            events: PairEvents::new(),
        }
    }

    fn all_axes(&self) -> bool {
        self.axes.len() == D
    }

    /// Do the boxes of two slots overlap on every swept axis?
    #[inline(always)]
    fn swept_overlap(&self, a: u32, b: u32) -> bool {
        let (a, b) = (&self.boxes[a as usize], &self.boxes[b as usize]);
        if self.all_axes() {
            overlaps(a, b)
        } else {
            self.axes.iter().all(|&x| a.min()[x] <= b.max()[x] && b.min()[x] <= a.max()[x])
        }
    }

    /// Chooses the axes of largest spread of the box centres (first frame only).
    fn choose_axes(&mut self) {
        let live: Vec<usize> = (0..self.boxes.len()).filter(|&s| self.alive[s]).collect();
        let n = T::lit(live.len().max(1) as f64);
        let mut spread: Vec<(usize, T)> = (0..D)
            .map(|a| {
                let mean = live.iter().fold(T::zero(), |s, &i| s + self.boxes[i].center()[a]) / n;
                let var = live.iter().fold(T::zero(), |s, &i| {
                    let d = self.boxes[i].center()[a] - mean;
                    s + d * d
                });
                (a, var)
            })
            .collect();
        spread.sort_by(|x, y| y.1.partial_cmp(&x.1).unwrap_or(core::cmp::Ordering::Equal));
        self.axes = spread[..self.wanted_axes].iter().map(|x| x.0).collect();
        self.lists = vec![Vec::new(); self.axes.len()];
        self.bounds = vec![Vec::new(); self.axes.len()];
        self.dirty = vec![true; self.axes.len()];
        for s in 0..self.boxes.len() {
            self.store_bounds(s as u32);
        }
    }

    /// Writes a slot's bounds on the swept axes: its box's, or +∞ for a removed box (which so
    /// drifts to the end of every list, separating from everything on the way). An axis whose
    /// bounds change is marked for the next sort pass; an axis nothing moved along (the vertical
    /// of boxes sliding on a floor) is skipped.
    #[inline]
    fn store_bounds(&mut self, slot: u32) {
        let s = slot as usize;
        let alive = self.alive[s];
        let b = self.boxes[s];
        for (k, &axis) in self.axes.iter().enumerate() {
            let value = if alive { [b.min()[axis], b.max()[axis]] } else { [T::infinity(); 2] };
            let bounds = &mut self.bounds[k];
            if bounds.len() <= s {
                bounds.resize(s + 1, [T::infinity(); 2]);
            }
            if bounds[s] != value {
                bounds[s] = value;
                self.dirty[k] = true;
            }
        }
    }

    /// Two boxes' intervals just crossed on one axis: `joined` if a min passed a max. A join
    /// adds the pair if the (final) boxes overlap; a separation only notes that some pair may
    /// have to go, and [`Self::prune`] checks the set once at the end of the frame. (Removing
    /// at each separation cost a hash lookup per crossing, which a teleporting box makes by the
    /// thousand.)
    #[inline]
    fn crossed(&mut self, a: u32, b: u32, joined: bool) {
        if !joined {
            self.separated = true;
        } else if a != b
            && self.alive[a as usize]
            && self.alive[b as usize]
            && self.swept_overlap(a, b)
            && self.overlapping.insert((a.min(b), a.max(b)))
        {
            self.changed.push(pair(self.ids[a as usize], self.ids[b as usize]));
        }
    }

    /// Takes out of the set every pair that no longer overlaps or lost a proxy: after the
    /// passes, a pair present and overlapping by the final values is exactly a pair that
    /// overlaps (joins add only after testing the final boxes, and any pair that overlaps at the
    /// end was either present before or joined on some axis during the passes).
    fn prune(&mut self) {
        let mut overlapping = core::mem::take(&mut self.overlapping);
        let mut changed = core::mem::take(&mut self.changed);
        overlapping.retain(|&(a, b)| {
            let keep = self.alive[a as usize] && self.alive[b as usize] && self.swept_overlap(a, b);
            if !keep {
                changed.push(pair(self.ids[a as usize], self.ids[b as usize]));
            }
            keep
        });
        self.overlapping = overlapping;
        self.changed = changed;
        self.separated = false;
    }

    /// Refreshes list `k`'s values and restores its order by one insertion-sort pass, reporting
    /// every min/max crossing.
    fn sort_list(&mut self, k: usize) {
        let mut list = core::mem::take(&mut self.lists[k]);
        let bounds = core::mem::take(&mut self.bounds[k]);
        // One pass: refresh endpoint i, then sift it left into the sorted, refreshed prefix.
        let mut prev: Option<Endpoint<T>> = None;
        for i in 0..list.len() {
            let mut moving = list[i];
            moving.value = bounds[(moving.key >> 1) as usize][(moving.key & 1) as usize];
            match prev {
                Some(p) if moving.before(&p) => {}
                _ => {
                    list[i] = moving;
                    prev = Some(moving);
                    continue;
                }
            }
            let mut j = i;
            while j > 0 && moving.before(&list[j - 1]) {
                let passed = list[j - 1];
                if passed.is_max() != moving.is_max() {
                    // A min moving left past a max joins the two intervals; a max moving left
                    // past a min separates them.
                    self.crossed(passed.slot(), moving.slot(), passed.is_max());
                }
                list[j] = passed;
                j -= 1;
            }
            list[j] = moving;
            prev = Some(list[i]);
        }
        self.lists[k] = list;
        self.bounds[k] = bounds;
    }

    /// Rebuilds every list by sorting and the overlap set by one sweep: the first frame and
    /// large batches of insertions. The events then come from a full difference.
    fn rebuild(&mut self) {
        for &s in &self.pending {
            self.listed[s as usize] = true;
        }
        self.pending.clear();
        for k in 0..self.axes.len() {
            let mut list = core::mem::take(&mut self.lists[k]);
            list.clear();
            for s in 0..self.boxes.len() {
                if self.listed[s] && self.alive[s] {
                    for key in [2 * s as u32, 2 * s as u32 + 1] {
                        list.push(Endpoint { value: self.bounds[k][s][(key & 1) as usize], key });
                    }
                }
            }
            list.sort_unstable_by(|a, b| {
                if a.before(b) {
                    core::cmp::Ordering::Less
                } else if b.before(a) {
                    core::cmp::Ordering::Greater
                } else {
                    core::cmp::Ordering::Equal
                }
            });
            self.lists[k] = list;
        }
        self.overlapping.clear();
        let mut open: Vec<u32> = Vec::new();
        for i in 0..self.lists[0].len() {
            let e = self.lists[0][i];
            if e.is_max() {
                if let Some(at) = open.iter().position(|&o| o == e.slot()) {
                    open.swap_remove(at);
                }
            } else {
                for &o in &open {
                    if self.swept_overlap(o, e.slot()) {
                        self.overlapping.insert((o.min(e.slot()), o.max(e.slot())));
                    }
                }
                open.push(e.slot());
            }
        }
    }

    /// Frees the slots removed since the last frame; their endpoints, at +∞, are the lists'
    /// last ones.
    fn drop_dead(&mut self) {
        for list in &mut self.lists {
            let keep = list.len() - 2 * self.dead.iter().filter(|&&s| self.listed[s as usize]).count();
            debug_assert!(list[keep..].iter().all(|e| !self.alive[e.slot() as usize]));
            list.truncate(keep);
        }
        for &s in &self.dead {
            self.listed[s as usize] = false;
            self.free.push(s);
        }
        self.dead.clear();
    }

    /// Stages this frame's reported pairs: the overlapping set, confirmed on the axes not swept.
    fn stage_all(&mut self) {
        let out = self.events.staging();
        for &(a, b) in &self.overlapping {
            let (ba, bb) = (&self.boxes[a as usize], &self.boxes[b as usize]);
            if self.axes.len() == D || overlaps(ba, bb) {
                out.push(pair(self.ids[a as usize], self.ids[b as usize]));
            }
        }
    }

    /// Turns this frame's changed pairs into events (all axes swept): each is compared with
    /// its state in the previous frame, so a pair that flipped and flipped back, or whose
    /// proxy was removed and re-inserted under the same id, reports nothing.
    fn commit_changes(&mut self) {
        let mut changed = core::mem::take(&mut self.changed);
        changed.sort_unstable();
        changed.dedup();
        changed.retain(|&(a, b)| {
            let now = match (self.slot_of.get(a), self.slot_of.get(b)) {
                (Some(sa), Some(sb)) => self.overlapping.contains(&(sa.min(sb), sa.max(sb))),
                _ => false,
            };
            now != self.events.pairs().binary_search(&(a, b)).is_ok()
        });
        self.events.commit_toggles(&mut changed);
        changed.clear();
        self.changed = changed;
    }
}

impl<T: Real, const D: usize> BroadPhase<T, D> for IncrementalSap<T, D> {
    fn insert(&mut self, id: ProxyId, aabb: Aabb<T, D>) -> Result<(), BroadPhaseError> {
        if self.slot_of.contains(id) {
            return Err(BroadPhaseError::DuplicateId(id));
        }
        let slot = match self.free.pop() {
            Some(s) => {
                self.ids[s as usize] = id;
                self.boxes[s as usize] = aabb;
                self.alive[s as usize] = true;
                s
            }
            None => {
                self.ids.push(id);
                self.boxes.push(aabb);
                self.alive.push(true);
                self.listed.push(false);
                (self.ids.len() - 1) as u32
            }
        };
        self.slot_of.insert(id, slot);
        self.pending.push(slot);
        self.store_bounds(slot);
        Ok(())
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb<T, D>) -> Result<(), BroadPhaseError> {
        let slot = self.slot_of.get(id).ok_or(BroadPhaseError::UnknownId(id))?;
        self.boxes[slot as usize] = aabb;
        self.store_bounds(slot);
        Ok(())
    }

    fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        let slot = self.slot_of.remove(id).ok_or(BroadPhaseError::UnknownId(id))?;
        self.alive[slot as usize] = false;
        self.store_bounds(slot);
        if self.listed[slot as usize] {
            // Its endpoints leave the lists at the next frame, separating from its partners.
            self.dead.push(slot);
        } else {
            self.pending.retain(|&s| s != slot);
            self.free.push(slot);
        }
        Ok(())
    }

    fn find_pairs(&mut self) {
        if self.axes.is_empty() {
            if self.slot_of.is_empty() {
                self.events.staging();
                self.events.commit();
                return;
            }
            self.choose_axes();
        }
        let listed = self.slot_of.len() - self.pending.len();
        if listed == 0 || self.pending.len() >= MIN_BATCH.max(listed / BATCH_FRACTION) {
            for &s in &self.dead {
                self.listed[s as usize] = false;
                self.free.push(s);
            }
            self.dead.clear();
            self.changed.clear();
            self.separated = false;
            self.rebuild();
            self.dirty.iter_mut().for_each(|d| *d = false);
            self.stage_all();
            self.events.commit();
            return;
        }
        // Newcomers enter at the lists' ends and are sorted in with everything else.
        let newcomers = !self.pending.is_empty();
        for &s in &self.pending {
            self.listed[s as usize] = true;
            for list in &mut self.lists {
                list.extend([2 * s, 2 * s + 1].map(|key| Endpoint { value: T::zero(), key }));
            }
        }
        self.pending.clear();
        for k in 0..self.axes.len() {
            if self.dirty[k] || newcomers {
                self.sort_list(k);
                self.dirty[k] = false;
            }
        }

        if self.separated || !self.dead.is_empty() {
            self.prune();
        }
        self.drop_dead();
        if self.all_axes() {
            self.commit_changes();
        } else {
            // Fewer swept axes than dimensions: confirm on the others every frame.
            self.changed.clear();
            self.stage_all();
            self.events.commit();
        }
    }

    fn events(&self) -> &PairEvents {
        &self.events
    }
    fn query_aabb(&self, aabb: &Aabb<T, D>, out: &mut Vec<ProxyId>) {
        for (s, b) in self.boxes.iter().enumerate() {
            if self.alive[s] && overlaps(b, aabb) {
                out.push(self.ids[s]);
            }
        }
    }
    fn query_ray(&self, ray: &Ray<T, D>, out: &mut Vec<(ProxyId, T)>) {
        for (s, b) in self.boxes.iter().enumerate() {
            if self.alive[s] {
                if let Some(h) = ray_aabb(ray, b) {
                    out.push((self.ids[s], h.t));
                }
            }
        }
    }
    fn len(&self) -> usize {
        self.slot_of.len()
    }
    fn aabb(&self, id: ProxyId) -> Option<Aabb<T, D>> {
        self.slot_of.get(id).map(|s| self.boxes[s as usize])
    }
}
