//! Incremental sweep-and-prune with temporal coherence (Baraff 1992; Cohen, Lin, Manocha and
//! Ponamgi, I-COLLIDE 1995).

use crate::candidates::{commit_overlapping, Candidate};
use crate::events::PairEvents;
use crate::fat_slots::fatten;
use crate::id_hash::{IdSet, SlotTable};
use crate::packed_boxes::PackedBoxes;
use crate::proxies::{overlaps, pair, ray_scan, BroadPhaseError, ProxyId};
use crate::{BroadPhase, Pair};
use cd_geom::{Aabb, BoundingVolume, Ray, Real};

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

/// When more than one in this many listed proxies left their margins, a frame re-sorts whole
/// lists (sequential passes); fewer are sifted one by one (random access, but only around them).
const SIFT_FRACTION: usize = 8;

/// Incremental sweep-and-prune: per axis, a list of interval endpoints kept sorted from frame to
/// frame by insertion sort. Motion is coherent, so each endpoint moves only a few places, and
/// only one box's min passing another's max (or back) can change whether the two overlap.
///
/// * **Fat intervals.** The lists hold each box grown by a margin (10 % of its largest extent by
///   default, [`Self::margin`]), and a box's endpoints move only when the box leaves that fat
///   box. The pairs whose fat boxes overlap are the candidates; the reported pairs are the
///   candidates whose boxes overlap, kept in a list sorted by ids, so a frame where no box left
///   its margin costs one box test per candidate and no sorting.
/// * **Few boxes left their margins** (the usual frame of a coherent scene): each one's
///   endpoints are sifted into place, and at every crossing of a min and a max the two
///   intervals are compared on the other axes by their positions in those lists (Bullet's
///   `btAxisSweep3` rule): the lists always describe one consistent set of intervals, so the
///   candidate set stays exactly the pairs overlapping by rank on every axis.
/// * **Many left, or proxies came and went**: every changed list gets one insertion-sort pass,
///   sequential in memory. A min crossing a max tests the two (final) fat boxes and adds the
///   pair if they overlap; separations only raise a flag, and one sweep of the candidate set
///   afterwards drops what no longer overlaps. Every box already holds its final value during
///   the passes, so a pair that overlaps at the end either did before or was joined on some
///   axis by a crossing that tested it.
/// * No per-pair counter of overlapping axes is kept (in 3D that would hold every pair
///   overlapping on *any* axis).
///
/// `with_axes(2)` sweeps only the two axes along which the boxes spread most — the fix for the
/// seed's worst case, many boxes resting on a floor and jittering vertically, where every
/// vertical step would pass thousands of endpoints; candidates are then confirmed on every axis
/// anyway. The axes are chosen from the spread of the boxes when the first frame is computed.
///
/// A teleporting box crosses O(n) endpoints per axis; scenes where many boxes jump every frame
/// suit [`crate::SortAndSweep`] or a grid better.
#[derive(Clone, Debug)]
pub struct IncrementalSap<T: Real, const D: usize> {
    ids: Vec<ProxyId>,
    /// The users' boxes, and the fat boxes the lists hold.
    tight: Vec<Aabb<T, D>>,
    boxes: Vec<Aabb<T, D>>,
    /// `tight` padded for the candidates' confirming loop (written beside it).
    packed: PackedBoxes<T>,
    margin: T,
    /// Live slots (removed ones stay in the lists, at +∞, until the next `find_pairs`).
    alive: Vec<bool>,
    /// Whether a slot's endpoints are in the lists.
    listed: Vec<bool>,
    /// Slots inserted since the last `find_pairs` (not yet listed) and removed listed ones.
    pending: Vec<u32>,
    dead: Vec<u32>,
    free: Vec<u32>,
    /// Listed slots whose fat box changed since the last `find_pairs`.
    moved: Vec<u32>,
    is_moved: Vec<bool>,
    slot_of: SlotTable,
    /// Axes swept (chosen at the first `find_pairs`).
    axes: Vec<usize>,
    wanted_axes: usize,
    /// Per swept axis: endpoints, sorted after each `find_pairs`, and each endpoint's index in
    /// its list (by key, `2·slot + is_max`).
    lists: Vec<Vec<Endpoint<T>>>,
    position: Vec<Vec<u32>>,
    /// Per swept axis, per slot: the fat `[min, max]` on that axis (`[+∞, +∞]` once removed),
    /// written when a fat box changes, so the passes read one small dense array per axis.
    bounds: Vec<Vec<[T; 2]>>,
    /// Per swept axis: did any bound change since the lists were last sorted?
    dirty: Vec<bool>,
    /// Pairs of slots (`a < b`) whose fat boxes overlap on every swept axis.
    overlapping: IdSet<(u32, u32)>,
    /// Pairs (by ids) whose membership in `overlapping` changed during this `find_pairs`.
    changed: Vec<Pair>,
    /// Did some pair separate on some axis during this frame's passes?
    separated: bool,
    /// The candidate pairs (`overlapping` by ids, with their slots), sorted by ids.
    candidates: Vec<Candidate>,
    scratch: Vec<Candidate>,
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
            tight: Vec::new(),
            packed: PackedBoxes::default(),
            boxes: Vec::new(),
            margin: T::lit(0.1),
            alive: Vec::new(),
            listed: Vec::new(),
            pending: Vec::new(),
            dead: Vec::new(),
            free: Vec::new(),
            moved: Vec::new(),
            is_moved: Vec::new(),
            slot_of: SlotTable::default(),
            axes: Vec::new(),
            wanted_axes: n.clamp(1, D),
            lists: Vec::new(),
            position: Vec::new(),
            bounds: Vec::new(),
            dirty: Vec::new(),
            overlapping: IdSet::default(),
            changed: Vec::new(),
            separated: false,
            candidates: Vec::new(),
            scratch: Vec::new(),
            events: PairEvents::new(),
        }
    }

    /// Sets the margin, as a fraction of each box's largest extent (≥ 0; 0 makes every change
    /// of a box move its endpoints). Larger margins move fewer endpoints per frame and test
    /// more candidate pairs. Applies to boxes inserted or moved out of their margin afterwards.
    pub fn margin(mut self, margin: T) -> Self {
        self.margin = if margin > T::zero() { margin } else { T::zero() };
        self
    }

    /// The fat box of `b`: grown on every side by the margin (the box itself if growing it
    /// would leave the coordinate range).
    fn fatten(&self, b: &Aabb<T, D>) -> Aabb<T, D> {
        fatten(b, self.margin, &cd_geom::Vector::zeros())
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
        self.bounds = vec![vec![[T::infinity(); 2]; self.boxes.len()]; self.axes.len()];
        self.position = vec![vec![0; 2 * self.boxes.len()]; self.axes.len()];
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
            if self.bounds[k][s] != value {
                self.bounds[k][s] = value;
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
        let mut position = core::mem::take(&mut self.position[k]);
        let bounds = core::mem::take(&mut self.bounds[k]);
        // One pass: refresh endpoint i, then sift it left into the sorted, refreshed prefix.
        let mut prev: Option<Endpoint<T>> = None;
        for i in 0..list.len() {
            let mut moving = list[i];
            moving.value = bounds[(moving.key >> 1) as usize][(moving.key & 1) as usize];
            match prev {
                Some(p) if moving.before(&p) => {}
                _ => {
                    // In place: its index is the one recorded (only shifted endpoints, to the
                    // left of the scan, ever change index).
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
                position[passed.key as usize] = j as u32;
                j -= 1;
            }
            list[j] = moving;
            position[moving.key as usize] = j as u32;
            prev = Some(list[i]);
        }
        self.lists[k] = list;
        self.position[k] = position;
        self.bounds[k] = bounds;
    }

    /// Do slots `a` and `b` overlap by their endpoints' ranks on every swept axis but `skip`?
    #[inline(always)]
    fn overlap_by_rank(&self, a: u32, b: u32, skip: usize) -> bool {
        let (a, b) = (2 * a as usize, 2 * b as usize);
        self.position
            .iter()
            .enumerate()
            .all(|(k, pos)| k == skip || (pos[a] < pos[b + 1] && pos[b] < pos[a + 1]))
    }

    /// The endpoint `passed` and the moving endpoint `moving` just traded places in list `k`.
    /// A min crossing a max of a pair overlapping by rank on the other axes starts (or ends) a
    /// candidate: the change is exact, so it is applied at once. `joined`: a min passed a max.
    #[inline]
    fn crossed_by_rank(&mut self, k: usize, a: u32, b: u32, joined: bool) {
        if a != b && self.overlap_by_rank(a, b, k) {
            let key = (a.min(b), a.max(b));
            let changed = if joined { self.overlapping.insert(key) } else { self.overlapping.remove(&key) };
            if changed {
                self.changed.push(pair(self.ids[a as usize], self.ids[b as usize]));
            }
        }
    }

    /// Moves the endpoint at `pos` of list `k` until the list is sorted again, shifting the
    /// endpoints it passes by one (an insertion step; list `k` is taken out of `self` meanwhile,
    /// which the rank tests never read since they skip axis `k`).
    fn sift(&mut self, k: usize, pos: usize) {
        let mut list = core::mem::take(&mut self.lists[k]);
        let mut position = core::mem::take(&mut self.position[k]);
        let moving = list[pos];
        let mut j = pos;
        // Leftwards: the moving endpoint passes bigger ones.
        while j > 0 && moving.before(&list[j - 1]) {
            let passed = list[j - 1];
            if passed.is_max() != moving.is_max() {
                self.crossed_by_rank(k, passed.slot(), moving.slot(), passed.is_max());
            }
            list[j] = passed;
            position[passed.key as usize] = j as u32;
            j -= 1;
        }
        // Rightwards: smaller ones pass it (each moving left past it).
        while j + 1 < list.len() && list[j + 1].before(&moving) {
            let passed = list[j + 1];
            if passed.is_max() != moving.is_max() {
                self.crossed_by_rank(k, moving.slot(), passed.slot(), moving.is_max());
            }
            list[j] = passed;
            position[passed.key as usize] = j as u32;
            j += 1;
        }
        list[j] = moving;
        position[moving.key as usize] = j as u32;
        self.lists[k] = list;
        self.position[k] = position;
    }

    /// Gives a slot's endpoints their new bounds and sifts them into place, one axis at a time;
    /// every other list stays sorted meanwhile, so the rank tests see consistent intervals.
    fn sift_slot(&mut self, slot: u32) {
        let (lo, hi) = (2 * slot as usize, 2 * slot as usize + 1);
        for k in 0..self.axes.len() {
            let new = self.bounds[k][slot as usize];
            // Move the max first when moving right and the min first when moving left, so the
            // interval never inverts in the list.
            let right = new[0] > self.lists[k][self.position[k][lo] as usize].value;
            for end in if right { [hi, lo] } else { [lo, hi] } {
                let pos = self.position[k][end] as usize;
                self.lists[k][pos].value = new[end & 1];
                self.sift(k, pos);
            }
        }
    }

    /// Applies this frame's candidate changes to the id-sorted candidate list: each changed
    /// pair is taken out and, if its proxies are live and still in the set, put back with
    /// their current slots (an id removed and re-inserted in one frame has a new slot).
    fn update_candidates(&mut self) {
        let mut changed = core::mem::take(&mut self.changed);
        changed.sort_unstable();
        changed.dedup();
        let mut out = core::mem::take(&mut self.scratch);
        out.clear();
        let mut kept = 0;
        for &p in &changed {
            let below = self.candidates[kept..].partition_point(|c| c.ids < p);
            out.extend_from_slice(&self.candidates[kept..kept + below]);
            kept += below;
            if self.candidates.get(kept).is_some_and(|c| c.ids == p) {
                kept += 1;
            }
            if let (Some(sa), Some(sb)) = (self.slot_of.get(p.0), self.slot_of.get(p.1)) {
                if self.overlapping.contains(&(sa.min(sb), sa.max(sb))) {
                    out.push(Candidate { ids: p, slots: (sa, sb) });
                }
            }
        }
        out.extend_from_slice(&self.candidates[kept..]);
        core::mem::swap(&mut self.candidates, &mut out);
        self.scratch = out;
        changed.clear();
        self.changed = changed;
    }

    /// The candidates from scratch (after a rebuild).
    fn all_candidates(&mut self) {
        self.candidates.clear();
        for &(a, b) in &self.overlapping {
            self.candidates.push(Candidate::new(a, self.ids[a as usize], b, self.ids[b as usize]));
        }
        self.candidates.sort_unstable();
        self.changed.clear();
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
            for (i, e) in list.iter().enumerate() {
                self.position[k][e.key as usize] = i as u32;
            }
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
            let keep = list.len() - 2 * self.dead.len();
            debug_assert!(list[keep..].iter().all(|e| !self.alive[e.slot() as usize]));
            list.truncate(keep);
        }
        self.free_dead();
    }

    /// Returns the removed (listed) slots to the free list.
    fn free_dead(&mut self) {
        for &s in &self.dead {
            self.listed[s as usize] = false;
            self.free.push(s);
        }
        self.dead.clear();
    }
}

impl<T: Real, const D: usize> BroadPhase<T, D> for IncrementalSap<T, D> {
    fn insert(&mut self, id: ProxyId, aabb: Aabb<T, D>) -> Result<(), BroadPhaseError> {
        if self.slot_of.contains(id) {
            return Err(BroadPhaseError::DuplicateId(id));
        }
        let fat = self.fatten(&aabb);
        let slot = match self.free.pop() {
            Some(s) => {
                self.ids[s as usize] = id;
                self.tight[s as usize] = aabb;
                self.packed.set(s, &aabb);
                self.boxes[s as usize] = fat;
                self.alive[s as usize] = true;
                s
            }
            None => {
                self.ids.push(id);
                self.tight.push(aabb);
                self.packed.push(&aabb);
                self.boxes.push(fat);
                self.alive.push(true);
                self.listed.push(false);
                self.is_moved.push(false);
                for (bounds, position) in self.bounds.iter_mut().zip(&mut self.position) {
                    bounds.push([T::infinity(); 2]);
                    position.extend([0, 0]);
                }
                (self.ids.len() - 1) as u32
            }
        };
        self.slot_of.insert(id, slot);
        self.pending.push(slot);
        self.store_bounds(slot);
        Ok(())
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb<T, D>) -> Result<(), BroadPhaseError> {
        let s = self.slot_of.get(id).ok_or(BroadPhaseError::UnknownId(id))? as usize;
        self.tight[s] = aabb;
        self.packed.set(s as u32, &aabb);
        if self.boxes[s].contains(&aabb) {
            return Ok(()); // inside its margin: its endpoints stay where they are
        }
        self.boxes[s] = self.fatten(&aabb);
        self.store_bounds(s as u32);
        if self.listed[s] && !self.is_moved[s] {
            self.is_moved[s] = true;
            self.moved.push(s as u32);
        }
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
        let moved = core::mem::take(&mut self.moved);
        for &s in &moved {
            self.is_moved[s as usize] = false;
        }
        let listed = self.slot_of.len() - self.pending.len();
        if listed == 0 || self.pending.len() >= MIN_BATCH.max(listed / BATCH_FRACTION) {
            self.free_dead();
            self.separated = false;
            self.rebuild();
            self.dirty.iter_mut().for_each(|d| *d = false);
            self.all_candidates();
        } else if self.pending.is_empty() && self.dead.is_empty() && moved.len() * SIFT_FRACTION <= listed {
            // A few boxes left their margins: sift each into place.
            for &s in &moved {
                self.sift_slot(s);
            }
            self.dirty.iter_mut().for_each(|d| *d = false);
            self.update_candidates();
        } else {
            // Newcomers enter at the lists' ends and are sorted in with everything else.
            let newcomers = !self.pending.is_empty();
            for &s in &self.pending {
                self.listed[s as usize] = true;
                for (list, position) in self.lists.iter_mut().zip(&mut self.position) {
                    for key in [2 * s, 2 * s + 1] {
                        position[key as usize] = list.len() as u32;
                        list.push(Endpoint { value: T::zero(), key });
                    }
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
            self.update_candidates();
        }
        self.moved = moved;
        self.moved.clear();
        commit_overlapping(&mut self.events, &self.candidates, &self.tight, &self.packed, &self.ids);
    }

    fn events(&self) -> &PairEvents {
        &self.events
    }
    fn query_aabb(&self, aabb: &Aabb<T, D>, out: &mut Vec<ProxyId>) {
        for (s, b) in self.tight.iter().enumerate() {
            if self.alive[s] && overlaps(b, aabb) {
                out.push(self.ids[s]);
            }
        }
    }
    fn query_ray(&self, ray: &Ray<T, D>, out: &mut Vec<(ProxyId, T)>) {
        ray_scan(&self.ids, |s| self.alive[s].then(|| self.tight[s]), ray, out);
    }
    fn len(&self) -> usize {
        self.slot_of.len()
    }
    fn aabb(&self, id: ProxyId) -> Option<Aabb<T, D>> {
        self.slot_of.get(id).map(|s| self.tight[s as usize])
    }
}
