//! Incremental sweep-and-prune with temporal coherence (Baraff 1992; Cohen, Lin, Manocha and
//! Ponamgi, I-COLLIDE 1995).

use crate::events::PairEvents;
use crate::proxies::{overlaps, pair, BroadPhaseError, ProxyId};
use crate::BroadPhase;
use cd_geom::{ray_aabb, Aabb, Ray, Real};
use std::collections::{HashMap, HashSet};

/// One end of a box's interval on one axis.
#[derive(Clone, Copy, Debug)]
struct Endpoint<T> {
    value: T,
    slot: u32,
    is_max: bool,
}

impl<T: Real> Endpoint<T> {
    /// Sort order: by value, and at equal values a min before a max, so that touching intervals
    /// (closed) count as overlapping.
    #[inline(always)]
    fn before(&self, other: &Self) -> bool {
        self.value < other.value || (self.value == other.value && !self.is_max && other.is_max)
    }
}

/// Incremental sweep-and-prune: per axis, a list of interval endpoints kept sorted from frame to
/// frame by insertion sort. Motion is coherent, so each endpoint moves only a few places; every
/// swap of a min past a max (or back) changes whether that pair overlaps on that axis, and a
/// per-pair counter of overlapping axes tells when a pair overlaps on all of them. A frame costs
/// O(n + s) for s swaps instead of a full sort.
///
/// `with_axes(2)` sweeps only the two axes along which the boxes spread most — the fix for the
/// seed's worst case, many boxes resting on a floor, where the vertical axis overlaps almost
/// every pair; pairs are then confirmed on the remaining axis before being reported. The axes are
/// chosen from the spread of the boxes when the first frame is computed.
#[derive(Clone, Debug)]
pub struct IncrementalSap<T: Real, const D: usize> {
    ids: Vec<ProxyId>,
    boxes: Vec<Aabb<T, D>>,
    alive: Vec<bool>,
    free: Vec<u32>,
    slot_of: HashMap<ProxyId, u32>,
    /// Axes swept (chosen at the first `find_pairs`), and whether they are chosen yet.
    axes: Vec<usize>,
    wanted_axes: usize,
    /// Per swept axis: sorted endpoints, and each endpoint's position (2·slot + is_max).
    lists: Vec<Vec<Endpoint<T>>>,
    position: Vec<Vec<u32>>,
    counts: HashMap<(u32, u32), u8>,
    active: HashSet<(u32, u32)>,
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
            free: Vec::new(),
            slot_of: HashMap::new(),
            axes: Vec::new(),
            wanted_axes: n.clamp(1, D),
            lists: Vec::new(),
            position: Vec::new(),
            counts: HashMap::new(),
            active: HashSet::new(),
            events: PairEvents::new(),
        }
    }

    #[inline(always)]
    fn bound(b: &Aabb<T, D>, axis: usize, is_max: bool) -> T {
        if is_max {
            b.max()[axis]
        } else {
            b.min()[axis]
        }
    }

    /// Chooses the axes of largest spread of the box centres and builds the sorted lists.
    fn build_lists(&mut self) {
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
        self.position = vec![vec![0; 2 * self.boxes.len()]; self.axes.len()];
        self.counts.clear();
        self.active.clear();
        for &s in &live {
            self.add_endpoints(s as u32);
        }
    }

    /// Appends a slot's endpoints to every list and sorts them into place.
    fn add_endpoints(&mut self, slot: u32) {
        for k in 0..self.axes.len() {
            let axis = self.axes[k];
            let b = self.boxes[slot as usize];
            for is_max in [false, true] {
                let pos = self.lists[k].len();
                self.lists[k].push(Endpoint { value: Self::bound(&b, axis, is_max), slot, is_max });
                self.position[k][2 * slot as usize + is_max as usize] = pos as u32;
                self.sift(k, pos);
            }
        }
    }

    /// Moves the endpoint at `pos` of list `k` left or right until the list is sorted, updating
    /// the overlap counters at every swap.
    fn sift(&mut self, k: usize, mut pos: usize) {
        while pos > 0 && self.lists[k][pos].before(&self.lists[k][pos - 1]) {
            self.swap(k, pos - 1, pos);
            pos -= 1;
        }
        while pos + 1 < self.lists[k].len() && self.lists[k][pos + 1].before(&self.lists[k][pos]) {
            self.swap(k, pos, pos + 1);
            pos += 1;
        }
    }

    /// Swaps adjacent endpoints `left` and `left + 1` (the right one moves left).
    fn swap(&mut self, k: usize, left: usize, right: usize) {
        let (a, b) = (self.lists[k][left], self.lists[k][right]);
        if a.slot != b.slot {
            if !b.is_max && a.is_max {
                // b's interval now starts before a's ends: they begin to overlap on this axis.
                self.bump(a.slot, b.slot, true);
            } else if b.is_max && !a.is_max {
                // b's interval now ends before a's starts: no longer overlapping on this axis.
                self.bump(a.slot, b.slot, false);
            }
        }
        self.lists[k].swap(left, right);
        self.position[k][2 * b.slot as usize + b.is_max as usize] = left as u32;
        self.position[k][2 * a.slot as usize + a.is_max as usize] = right as u32;
    }

    fn bump(&mut self, x: u32, y: u32, up: bool) {
        let key = (x.min(y), x.max(y));
        let full = self.axes.len() as u8;
        let c = self.counts.entry(key).or_insert(0);
        if up {
            *c += 1;
            if *c == full {
                self.active.insert(key);
            }
        } else {
            if *c == full {
                self.active.remove(&key);
            }
            *c = c.saturating_sub(1);
            if *c == 0 {
                self.counts.remove(&key);
            }
        }
    }

    /// Re-sorts a slot's endpoints after its box changed.
    fn move_endpoints(&mut self, slot: u32) {
        let b = self.boxes[slot as usize];
        for k in 0..self.axes.len() {
            let axis = self.axes[k];
            // Move the max first when growing to the right and the min first when moving left,
            // so the interval never inverts in the list.
            let order = if Self::bound(&b, axis, false)
                > self.lists[k][self.position[k][2 * slot as usize] as usize].value
            {
                [true, false]
            } else {
                [false, true]
            };
            for is_max in order {
                let pos = self.position[k][2 * slot as usize + is_max as usize] as usize;
                self.lists[k][pos].value = Self::bound(&b, axis, is_max);
                self.sift(k, pos);
            }
        }
    }

    /// Takes a slot's endpoints out of every list (moving them past the end first, so the
    /// counters of the pairs they leave are decremented on the way).
    fn remove_endpoints(&mut self, slot: u32) {
        for k in 0..self.axes.len() {
            for is_max in [true, false] {
                let pos = self.position[k][2 * slot as usize + is_max as usize] as usize;
                self.lists[k][pos].value = T::infinity();
                self.sift(k, pos);
            }
            let len = self.lists[k].len();
            self.lists[k].truncate(len - 2);
        }
        self.counts.retain(|&(a, b), _| a != slot && b != slot);
        self.active.retain(|&(a, b)| a != slot && b != slot);
    }

    fn ready(&self) -> bool {
        !self.axes.is_empty()
    }
}

impl<T: Real, const D: usize> BroadPhase<T, D> for IncrementalSap<T, D> {
    fn insert(&mut self, id: ProxyId, aabb: Aabb<T, D>) -> Result<(), BroadPhaseError> {
        if self.slot_of.contains_key(&id) {
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
                for p in &mut self.position {
                    p.extend([0, 0]);
                }
                (self.ids.len() - 1) as u32
            }
        };
        self.slot_of.insert(id, slot);
        if self.ready() {
            self.add_endpoints(slot);
        }
        Ok(())
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb<T, D>) -> Result<(), BroadPhaseError> {
        let slot = *self.slot_of.get(&id).ok_or(BroadPhaseError::UnknownId(id))?;
        self.boxes[slot as usize] = aabb;
        if self.ready() {
            self.move_endpoints(slot);
        }
        Ok(())
    }

    fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        let slot = self.slot_of.remove(&id).ok_or(BroadPhaseError::UnknownId(id))?;
        if self.ready() {
            self.remove_endpoints(slot);
        }
        self.alive[slot as usize] = false;
        self.free.push(slot);
        Ok(())
    }

    fn find_pairs(&mut self) {
        if !self.ready() {
            self.build_lists();
        }
        let out = self.events.staging();
        let all_axes = self.axes.len() == D;
        for &(a, b) in &self.active {
            // With fewer swept axes than dimensions, confirm on the others.
            if all_axes || overlaps(&self.boxes[a as usize], &self.boxes[b as usize]) {
                out.push(pair(self.ids[a as usize], self.ids[b as usize]));
            }
        }
        self.events.commit();
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
        self.slot_of.get(&id).map(|&s| self.boxes[s as usize])
    }
}
