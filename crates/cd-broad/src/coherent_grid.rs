//! Coherent grid: a uniform grid of fat boxes kept from frame to frame (an array of cells over
//! the scene, hashed cells beyond it), so a frame only touches the boxes that left their
//! margins.

use crate::candidates::{Candidate, CandidateList};
use crate::cell_store::CellStore;
use crate::cells::for_each_cell;
use crate::events::PairEvents;
use crate::fat_slots::FatSlots;
use crate::proxies::{overlaps, ray_scan, BroadPhaseError, ProxyId};
use crate::BroadPhase;
use cd_geom::{Aabb, Ray, Real};

/// A box covering more cells than this is kept out of the cells, in the oversized list that
/// every moved box is tested against (a few huge boxes must not fill millions of cells).
const MAX_CELLS_PER_BOX: f64 = 64.0;

/// When more than this fraction of the proxies are oversized (and at least
/// [`MIN_OVERSIZED_REBUILD`]), the cells were chosen for smaller boxes than the scene now holds:
/// the grid is rebuilt with cells sized for the boxes it now holds.
const OVERSIZED_FRACTION: usize = 16;
const MIN_OVERSIZED_REBUILD: usize = 32;

/// A layout of the grid leaves out this share (one in 64) of the largest boxes when it sizes
/// the cells: well below the rebuild threshold above.
const OVERSIZED_SHARE: usize = 64;

/// The cells are laid out again when the boxes' mean extent falls below an eighth of the
/// cell edge (boxes that shrank: crowded cells make candidates of far-apart boxes), for at
/// least this many boxes.
const CROWDED_CELL: f64 = 8.0;
const MIN_SHRINK_RELAYOUT: usize = 64;

/// The dense block of cells may hold up to this many cells per box (plus 4,096): beyond, the
/// boxes are too spread out for an array of cells and every cell is hashed.
const DENSE_CELLS_PER_BOX: usize = 8;

/// Where a slot's fat box is filed.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Place<const D: usize> {
    /// Not in the grid: a free slot, or inserted since the last `find_pairs`.
    Nowhere,
    /// In every cell of the inclusive range `lo..=hi`.
    Cells { lo: [i32; D], hi: [i32; D] },
    /// In the oversized list.
    Oversized,
}

/// A uniform grid of fat boxes, kept from frame to frame (temporal coherence, like the
/// incremental sweep-and-prune and the dynamic tree, with the grid's O(1) neighbourhoods).
///
/// * Each proxy's box is grown by a margin (50 % of its largest extent by default: a move
///   between cells costs far more than confirming one more candidate) and stretched along its
///   last displacement; while the box stays inside that fat box nothing is done but storing
///   it. A box that leaves it gets a new fat box and moves between cells, only the cells it
///   leaves or enters being touched.
/// * The candidates (pairs whose fat boxes overlap) are kept sorted by ids; a frame drops the
///   moved boxes' candidates and finds theirs again from the cells they cover (a pair sharing
///   several cells is found only in the cell holding the lower corner of the two fat boxes'
///   intersection), so a frame costs O(n) stores, O(m) cell lookups for m moved boxes and
///   O(k) for the k candidates, which are confirmed on the exact boxes.
/// * Cells are cubes as large as the fat boxes of the first frame (all but the largest 1/64 of
///   them, so a box covers at most 2^D cells and a few huge ones do not make every cell huge),
///   except along an axis those boxes span less than two edges of: there the cells are one
///   layer, centred on them (boxes resting on a floor are one layer of cells, not two).
///   Over the region the boxes then span (grown by half) the cells are an array; outside it
///   they are hashed by integer coordinates, so the world is unbounded and nothing is lost
///   outside any bounds. A box covering more than 64 cells (one that grew a lot, or is huge)
///   goes to an oversized list tested against every moved box; when many are (1/16 of the
///   boxes) the grid is laid out again for the boxes it now holds. Boxes that shrink get
///   tighter fat boxes (within 16 frames), and once
///   their mean extent falls below an eighth of the cell edge the grid is laid out again with
///   smaller cells.
///
/// Best for coherent scenes of similar-sized objects, including dense ones (boxes resting on a
/// floor, where a sweep-and-prune axis is crowded); teleporting objects cost only their own
/// cells. Overlap is closed-interval, like every strategy.
#[derive(Clone, Debug)]
pub struct CoherentGrid<T: Real, const D: usize> {
    slots: FatSlots<T, D>,
    /// Where each slot is filed (pending slots are filed at the next `find_pairs`, once the
    /// cell size is known).
    place: Vec<Place<D>>,
    cells: CellStore<D>,
    oversized: Vec<u32>,
    /// The oversized count that triggers a rebuild no matter the threshold above: twice what a
    /// rebuild left oversized (the largest boxes of a layout may stay so), so rebuilds cannot
    /// repeat every frame.
    rebuild_above: usize,
    /// The sum of the live fat boxes' largest extents (finite ones), kept as boxes come, go and
    /// change: their mean says when the cells have become too large for the boxes.
    extent_sum: f64,
    /// The mean extent below which the grid is laid out again with smaller cells: an eighth of
    /// the cell edge at the last layout (or half the mean then, when the cells were already that
    /// much larger, a scene of mixed sizes).
    shrink_below: f64,
    /// Cell edge; zero until the first frame with boxes.
    cell: T,
    /// Per axis, the inverse of the cell's length along it (the edge, or a whole layer on a
    /// flat axis) and where cell 0 starts.
    inv_cell: [T; D],
    origin: [T; D],
    candidates: CandidateList,
    events: PairEvents,
}

impl<T: Real, const D: usize> Default for CoherentGrid<T, D> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Real, const D: usize> CoherentGrid<T, D> {
    /// A grid whose fat boxes are grown by 50 % of each box's largest extent.
    pub fn new() -> Self {
        Self::with_margin(T::lit(0.5))
    }

    /// A grid with the given relative margin (fraction of each box's largest extent, ≥ 0; 0
    /// moves a box between cells at every change). Larger margins move fewer boxes per frame
    /// and confirm more candidates.
    pub fn with_margin(margin: T) -> Self {
        CoherentGrid {
            slots: FatSlots::new(margin),
            place: Vec::new(),
            cells: CellStore::default(),
            oversized: Vec::new(),
            rebuild_above: 0,
            extent_sum: 0.0,
            shrink_below: 0.0,
            cell: T::zero(),
            inv_cell: [T::zero(); D],
            origin: [T::zero(); D],
            candidates: CandidateList::default(),
            events: PairEvents::new(),
        }
    }

    /// The cell edge length (zero before the first frame with boxes); along an axis the boxes
    /// were flat on at the layout the cells are one longer layer.
    pub fn cell_size(&self) -> T {
        self.cell
    }

    /// The cell coordinate of `x` on axis `a`: monotone in `x`, so intervals that overlap share
    /// a cell.
    #[inline(always)]
    fn cell_of(&self, a: usize, x: T) -> i32 {
        // Floor without libm's `floor` (a call on baseline x86-64): truncate, then step down
        // below zero, without a branch (its outcome follows the coordinate's sign). The cast
        // saturates, so coordinates beyond ±2³¹ cells are clamped, which keeps the map
        // monotone; infinities clamp too.
        let q = ((x - self.origin[a]) * self.inv_cell[a]).to_f64();
        let t = q as i32;
        t.saturating_sub(((t as f64) > q) as i32)
    }

    /// Where the fat box `b` belongs: its cell range, or the oversized list.
    fn place_of(&self, b: &Aabb<T, D>) -> Place<D> {
        let lo: [i32; D] = core::array::from_fn(|a| self.cell_of(a, b.min()[a]));
        let hi: [i32; D] = core::array::from_fn(|a| self.cell_of(a, b.max()[a]));
        let count: f64 = (0..D).map(|a| (hi[a] as f64 - lo[a] as f64) + 1.0).product();
        if count <= MAX_CELLS_PER_BOX {
            Place::Cells { lo, hi }
        } else {
            Place::Oversized
        }
    }

    /// Files `slot` at `to`, taking it out of where it was: between two cell ranges only the
    /// cells of one range and not the other are touched.
    fn refile(&mut self, slot: u32, to: Place<D>) {
        let from = self.place[slot as usize];
        let inside = |c: &[i32; D], p: &Place<D>| match p {
            Place::Cells { lo, hi } => (0..D).all(|a| lo[a] <= c[a] && c[a] <= hi[a]),
            _ => false,
        };
        match from {
            Place::Cells { lo, hi } => for_each_cell(lo, hi, |c| {
                if !inside(&c, &to) {
                    self.cells.leave(&c, slot);
                }
            }),
            Place::Oversized => {
                if let Some(at) = self.oversized.iter().position(|&m| m == slot) {
                    self.oversized.swap_remove(at);
                }
            }
            Place::Nowhere => {}
        }
        match to {
            Place::Cells { lo, hi } => for_each_cell(lo, hi, |c| {
                if !inside(&c, &from) {
                    self.cells.enter(&c, slot);
                }
            }),
            Place::Oversized => self.oversized.push(slot),
            Place::Nowhere => {}
        }
        self.place[slot as usize] = to;
    }

    fn mark_moved(&mut self, slot: u32) {
        self.slots.moved.mark(slot);
    }

    /// The cell edge for the fat boxes of `slots`: the largest extent once the largest
    /// [`OVERSIZED_SHARE`] of them are left out (they go to the oversized list, too few to
    /// trigger a rebuild), so that a handful of huge boxes cannot make every cell huge; 1 when
    /// no extent is positive.
    fn cell_edge(&self, slots: &[u32]) -> T {
        let mut extents: Vec<f64> = slots.iter().map(|&s| self.extent(s)).collect();
        if extents.is_empty() {
            return T::one();
        }
        let rank = extents.len() - 1 - extents.len() / OVERSIZED_SHARE;
        let (_, edge, _) = extents.select_nth_unstable_by(rank, f64::total_cmp);
        if *edge > 0.0 {
            T::lit(*edge)
        } else {
            T::one()
        }
    }

    /// The largest extent of slot `s`'s fat box (0 if it were not finite, which the coordinate
    /// limits rule out).
    fn extent(&self, s: u32) -> f64 {
        let b = &self.slots.fat[s as usize];
        let e = (b.max() - b.min()).amax().to_f64();
        if e.is_finite() {
            e
        } else {
            0.0
        }
    }

    /// Sets each axis's cell length and origin for the fat boxes of `slots`, the edge being
    /// [`Self::cell`]. On an axis along which those boxes (all but the oversized share) span
    /// less than two edges — the vertical of a scene resting on a floor, the most common
    /// clustered case — the cells are one layer twice that span (at least an edge), centred on
    /// them: a box then covers one cell on that axis instead of two, which halves the cells a
    /// moved box is filed in and looks up. Along the other axes cells are the edge long, from
    /// the origin. Boxes that later leave the layer go to the layers beyond it: any cell
    /// lengths are correct, these are only faster.
    fn lay_axes(&mut self, slots: &[u32]) {
        let edge = self.cell;
        let (mut lo, mut hi) = ([T::infinity(); D], [-T::infinity(); D]);
        for &s in slots {
            let b = &self.slots.fat[s as usize];
            if (b.max() - b.min()).amax() <= edge {
                for a in 0..D {
                    lo[a] = lo[a].min(b.min()[a]);
                    hi[a] = hi[a].max(b.max()[a]);
                }
            }
        }
        for a in 0..D {
            let span = hi[a] - lo[a];
            let layer = (span * T::lit(2.0)).max(edge);
            if span >= T::zero() && span < edge * T::lit(2.0) {
                self.inv_cell[a] = T::one() / layer;
                self.origin[a] = (lo[a] + hi[a] - layer) * T::lit(0.5);
            } else {
                self.inv_cell[a] = T::one() / edge;
                self.origin[a] = T::zero();
            }
        }
    }

    /// Lays the grid out for the fat boxes of `slots` (which must be filed nowhere): cells of
    /// [`Self::cell_edge`], the dense block over where they are; then files them. Every
    /// slot filed before must have been taken out (the cells are emptied).
    fn lay_out(&mut self, slots: &[u32]) {
        let mut edge = self.cell_edge(slots);
        if !(T::one() / edge).is_finite() {
            // An edge so small its inverse overflows: any positive size is correct.
            edge = T::one();
        }
        self.cell = edge;
        self.lay_axes(slots);
        let (mut lo, mut hi) = ([i32::MAX; D], [i32::MIN; D]);
        for &s in slots {
            if let Place::Cells { lo: l, hi: h } = self.place_of(&self.slots.fat[s as usize]) {
                for a in 0..D {
                    lo[a] = lo[a].min(l[a]);
                    hi[a] = hi[a].max(h[a]);
                }
            }
        }
        if lo[0] > hi[0] {
            (lo, hi) = ([0; D], [0; D]);
        }
        self.cells.reset(lo, hi, DENSE_CELLS_PER_BOX * slots.len() + 4096);
        self.oversized.clear();
        for &s in slots {
            let to = self.place_of(&self.slots.fat[s as usize]);
            self.refile(s, to);
        }
        // Recounted exactly here (the running sum drifts by rounding between layouts).
        self.extent_sum = slots.iter().map(|&s| self.extent(s)).sum();
        let mean = self.extent_sum / slots.len().max(1) as f64;
        self.shrink_below = (self.cell.to_f64() / CROWDED_CELL).min(0.5 * mean);
    }

    /// Re-lays the grid out for every live slot, and marks them all moved (their candidates are
    /// found again).
    fn rebuild(&mut self) {
        let live: Vec<u32> =
            (0..self.slots.ids.len() as u32).filter(|&s| self.place[s as usize] != Place::Nowhere).collect();
        for &s in &live {
            self.place[s as usize] = Place::Nowhere;
            self.mark_moved(s);
        }
        self.lay_out(&live);
    }

    /// Appends to `fresh` the candidates of the moved slot `s`: every filed slot whose fat box
    /// overlaps its own, once per pair (two moved slots: found by the smaller).
    fn find_candidates(&self, s: u32, fresh: &mut Vec<Candidate>) {
        let fs = &self.slots.fat[s as usize];
        let consider = |o: u32, fresh: &mut Vec<Candidate>| {
            if o != s && (!self.slots.moved.contains(o) || s < o) && overlaps(fs, &self.slots.fat[o as usize])
            {
                fresh.push(Candidate::new(s, self.slots.ids[s as usize], o, self.slots.ids[o as usize]));
            }
        };
        match self.place[s as usize] {
            Place::Nowhere => return,
            Place::Oversized => {
                // Against everything filed (the oversized ones included).
                for o in 0..self.slots.ids.len() as u32 {
                    if self.place[o as usize] != Place::Nowhere {
                        consider(o, fresh);
                    }
                }
                return;
            }
            Place::Cells { lo, hi } => for_each_cell(lo, hi, |c| {
                for &o in self.cells.members(&c) {
                    // Only from the cell of the intersection's lower corner, which both cover:
                    // the larger of their lowest cells on each axis (the cell map is monotone).
                    // Recomputed from the fat box the overlap test loads anyway, rather than
                    // read from `place` (one more cache miss per member).
                    let fo = &self.slots.fat[o as usize];
                    if o != s
                        && overlaps(fs, fo)
                        && (0..D).all(|a| lo[a].max(self.cell_of(a, fo.min()[a])) == c[a])
                        && (!self.slots.moved.contains(o) || s < o)
                    {
                        fresh.push(Candidate::new(
                            s,
                            self.slots.ids[s as usize],
                            o,
                            self.slots.ids[o as usize],
                        ));
                    }
                }
            }),
        }
        for &o in &self.oversized {
            consider(o, fresh);
        }
    }

    /// The slow path of `update`: slot `slot`'s new box `aabb` left its fat box (or the fat box
    /// got loose), so it gets a new one, moves between cells and loses its candidates. Kept
    /// out of line so the common path (a store) does not save and restore registers for it.
    #[inline(never)]
    fn refatten(&mut self, slot: u32, aabb: Aabb<T, D>) {
        let s = slot as usize;
        let displacement = aabb.center() - self.slots.tight_center(slot);
        self.slots.set_tight(slot, aabb);
        self.extent_sum -= self.extent(slot);
        self.slots.fat[s] = self.slots.fatten(&aabb, &displacement);
        self.extent_sum += self.extent(slot);
        if self.place[s] != Place::Nowhere {
            let to = self.place_of(&self.slots.fat[s]);
            self.refile(slot, to);
        }
        self.mark_moved(slot);
    }
}

impl<T: Real, const D: usize> BroadPhase<T, D> for CoherentGrid<T, D> {
    fn insert(&mut self, id: ProxyId, aabb: Aabb<T, D>) -> Result<(), BroadPhaseError> {
        let (slot, new) = self.slots.insert(id, aabb)?;
        if new {
            self.place.push(Place::Nowhere);
        }
        debug_assert_eq!(self.place[slot as usize], Place::Nowhere);
        self.extent_sum += self.extent(slot);
        Ok(())
    }

    /// The boxes that stay in their fat boxes are stored by one tight loop
    /// (`FatSlots::store_fitting`); each one that left gets its new fat box between runs.
    fn update_all(&mut self, updates: &[(ProxyId, Aabb<T, D>)]) -> Result<(), BroadPhaseError> {
        let mut rest = updates;
        loop {
            rest = &rest[self.slots.store_fitting(rest)?..];
            let Some((&(id, aabb), tail)) = rest.split_first() else { return Ok(()) };
            let slot = self.slots.slot(id)?;
            self.refatten(slot, aabb);
            rest = tail;
        }
    }

    #[inline]
    fn update(&mut self, id: ProxyId, aabb: Aabb<T, D>) -> Result<(), BroadPhaseError> {
        let slot = self.slots.slot(id)?;
        if self.slots.fat_fits(slot, &aabb) {
            self.slots.set_tight(slot, aabb);
            return Ok(()); // inside its fat box: cells and candidates stay valid
        }
        self.refatten(slot, aabb);
        Ok(())
    }

    fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        // Its candidates go at the next `find_pairs` with those of the moved slots (it is filed
        // nowhere then, so nothing new is found for it).
        let slot = self.slots.remove(id)?;
        self.refile(slot, Place::Nowhere);
        self.extent_sum -= self.extent(slot);
        Ok(())
    }

    fn find_pairs(&mut self) {
        self.slots.next_frame();
        if !self.slots.pending.is_empty() {
            let pending = core::mem::take(&mut self.slots.pending);
            if self.cell == T::zero() {
                self.lay_out(&pending);
            } else {
                for &s in &pending {
                    let to = self.place_of(&self.slots.fat[s as usize]);
                    self.refile(s, to);
                }
            }
            self.slots.pending = pending;
            self.slots.pending.clear();
        }
        // Laid out again when the boxes outgrew the cells (many oversized) or shrank well
        // below them.
        let n = self.slots.len();
        let threshold = MIN_OVERSIZED_REBUILD.max(n / OVERSIZED_FRACTION).max(self.rebuild_above);
        let shrunk = n >= MIN_SHRINK_RELAYOUT && self.extent_sum / (n as f64) < self.shrink_below;
        if self.oversized.len() >= threshold || shrunk {
            self.rebuild();
            self.rebuild_above = 2 * self.oversized.len();
        }
        self.cells.purge();
        let mut candidates = core::mem::take(&mut self.candidates);
        candidates.find_fresh(&self.slots, |s, fresh| self.find_candidates(s, fresh));
        candidates.commit(&mut self.events, &mut self.slots);
        self.candidates = candidates;
    }

    fn events(&self) -> &PairEvents {
        &self.events
    }

    fn query_aabb(&self, aabb: &Aabb<T, D>, out: &mut Vec<ProxyId>) {
        let mut hit = |s: u32| {
            if overlaps(&self.slots.tight(s), aabb) {
                out.push(self.slots.ids[s as usize]);
            }
        };
        // Through the cells when the query covers few of them (each slot once: from the cell of
        // the lower corner of its fat box's intersection with the query), else a linear scan.
        match (self.cell > T::zero()).then(|| self.place_of(aabb)) {
            Some(Place::Cells { lo, hi }) => {
                for_each_cell(lo, hi, |c| {
                    for &o in self.cells.members(&c) {
                        if let Place::Cells { lo: lo_o, .. } = self.place[o as usize] {
                            if (0..D).all(|a| lo[a].max(lo_o[a]) == c[a]) {
                                hit(o);
                            }
                        }
                    }
                });
                self.oversized.iter().chain(&self.slots.pending).for_each(|&s| hit(s));
            }
            _ => (0..self.slots.ids.len() as u32).filter(|&s| self.slots.is_live(s as usize)).for_each(hit),
        }
    }

    fn query_ray(&self, ray: &Ray<T, D>, out: &mut Vec<(ProxyId, T)>) {
        let slots = &self.slots;
        ray_scan(&slots.ids, |s| slots.is_live(s).then(|| slots.tight(s as u32)), ray, out);
    }

    fn len(&self) -> usize {
        self.slots.len()
    }

    fn aabb(&self, id: ProxyId) -> Option<Aabb<T, D>> {
        self.slots.slot_of.get(id).map(|s| self.slots.tight(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cd_geom::Point;

    fn boxed(c: [f64; 3], h: f64) -> Aabb<f64, 3> {
        Aabb::new(Point::from(c.map(|x| x - h)), Point::from(c.map(|x| x + h))).unwrap()
    }

    /// The pairs by brute force over the grid's own boxes.
    fn brute(world: &[(ProxyId, Aabb<f64, 3>)]) -> Vec<(ProxyId, ProxyId)> {
        let mut out = Vec::new();
        for (i, (a, ba)) in world.iter().enumerate() {
            for (b, bb) in &world[i + 1..] {
                if overlaps(ba, bb) {
                    out.push(((*a).min(*b), (*a).max(*b)));
                }
            }
        }
        out.sort_unstable();
        out
    }

    fn check(grid: &mut CoherentGrid<f64, 3>, world: &[(ProxyId, Aabb<f64, 3>)]) {
        grid.find_pairs();
        assert_eq!(grid.pairs(), brute(world).as_slice());
        // Box queries through the cells agree with a scan.
        for (_, b) in world.iter().step_by(7) {
            let mut got = Vec::new();
            grid.query_aabb(b, &mut got);
            got.sort_unstable();
            let mut want: Vec<ProxyId> =
                world.iter().filter(|(_, o)| overlaps(o, b)).map(|(id, _)| *id).collect();
            want.sort_unstable();
            assert_eq!(got, want);
        }
    }

    /// Boxes that grow past the cells go to the oversized list; once many have, the grid is
    /// laid out again with larger cells. Pairs stay exact throughout.
    #[test]
    fn growing_boxes_go_oversized_then_the_grid_is_rebuilt() {
        let mut grid = CoherentGrid::<f64, 3>::new();
        let mut world: Vec<(ProxyId, Aabb<f64, 3>)> =
            (0..200).map(|i| (i, boxed([(i % 20) as f64 * 3.0, 0.0, (i / 20) as f64 * 3.0], 1.0))).collect();
        for (id, b) in &world {
            grid.insert(*id, *b).unwrap();
        }
        check(&mut grid, &world);
        let first = grid.cell_size();
        for (id, b) in world.iter_mut().take(20) {
            *b = boxed(b.center().coords.into(), 9.0);
            grid.update(*id, *b).unwrap();
        }
        check(&mut grid, &world);
        assert!(!grid.oversized.is_empty() && grid.cell_size() == first, "a few oversized boxes: same cells");
        for (id, b) in world.iter_mut().take(40) {
            *b = boxed(b.center().coords.into(), 9.0);
            grid.update(*id, *b).unwrap();
        }
        check(&mut grid, &world);
        assert!(grid.cell_size() > first, "many oversized boxes: larger cells");
        assert!(grid.oversized.is_empty());
    }

    /// Boxes that shrink a hundredfold: the grid is laid out again with smaller cells (crowded
    /// cells would make candidates of boxes far apart), and pairs stay exact throughout.
    #[test]
    fn shrinking_boxes_get_smaller_cells() {
        let mut grid = CoherentGrid::<f64, 3>::new();
        let centre = |i: u32| [(i % 16) as f64 * 3.0, 0.0, (i / 16) as f64 * 3.0];
        let mut world: Vec<(ProxyId, Aabb<f64, 3>)> = (0..256).map(|i| (i, boxed(centre(i), 5.0))).collect();
        for (id, b) in &world {
            grid.insert(*id, *b).unwrap();
        }
        check(&mut grid, &world);
        let big = grid.cell_size();
        for h in [2.0, 0.5, 0.05] {
            // Shrunk boxes are caught within 16 frames.
            for _ in 0..16 {
                for (id, b) in world.iter_mut() {
                    *b = boxed(centre(*id), h);
                    grid.update(*id, *b).unwrap();
                }
                check(&mut grid, &world);
            }
        }
        assert!(grid.cell_size() < big / 20.0, "cells {} after {big}", grid.cell_size());
        assert!(
            grid.candidates.sorted.len() < 256,
            "{} candidates of tiny boxes",
            grid.candidates.sorted.len()
        );
    }

    /// Huge boxes among small ones: whatever cells they get, pairs are exact, and the layout
    /// does not change from frame to frame.
    #[test]
    fn huge_boxes_among_small_ones() {
        let mut grid = CoherentGrid::<f64, 3>::new();
        let mut world: Vec<(ProxyId, Aabb<f64, 3>)> =
            (0..100).map(|i| (i, boxed([i as f64 * 2.5, 0.0, 0.0], 1.0))).collect();
        for i in 100..140 {
            let b = Aabb::new(Point::from([-1e70; 3]), Point::from([1e70, 1e70, i as f64])).unwrap();
            world.push((i, b));
        }
        for (id, b) in &world {
            grid.insert(*id, *b).unwrap();
        }
        check(&mut grid, &world);
        let (cell, above) = (grid.cell_size(), grid.rebuild_above);
        for (id, b) in world.iter_mut().take(100) {
            *b = boxed((b.center().coords + nalgebra::Vector3::new(0.7, 0.0, 0.0)).into(), 1.0);
            grid.update(*id, *b).unwrap();
        }
        check(&mut grid, &world);
        assert_eq!((grid.cell_size(), grid.rebuild_above), (cell, above));
    }

    /// Boxes resting on a floor are filed in one layer of cells (one cell along the vertical,
    /// not the two a cube grid straddling the floor gives them); boxes then stacked and thrown
    /// far above it keep the pairs exact.
    #[test]
    fn a_floor_is_one_layer_of_cells() {
        let mut grid = CoherentGrid::<f64, 3>::new();
        let mut world: Vec<(ProxyId, Aabb<f64, 3>)> = (0..400)
            .map(|i| {
                (i, boxed([(i % 20) as f64 * 1.7, 0.0, (i / 20) as f64 * 1.9], 0.5 + (i % 3) as f64 * 0.2))
            })
            .collect();
        for (id, b) in &world {
            grid.insert(*id, *b).unwrap();
        }
        check(&mut grid, &world);
        for place in &grid.place {
            let Place::Cells { lo, hi } = place else { panic!("{place:?} on the floor") };
            assert_eq!(lo[1], hi[1], "one layer on the vertical");
        }
        for (k, (id, b)) in world.iter_mut().enumerate().filter(|(k, _)| k % 5 == 0) {
            let height = if k % 2 == 0 { 0.9 } else { 1e3 + k as f64 };
            *b = boxed((b.center().coords + nalgebra::Vector3::new(0.0, height, 0.0)).into(), 0.5);
            grid.update(*id, *b).unwrap();
        }
        check(&mut grid, &world);
    }

    /// Boxes wandering far outside the dense block live in hashed cells; teleports back and
    /// forth keep the pairs exact, and the emptied cells they leave behind are purged.
    #[test]
    fn far_teleports_use_hashed_cells() {
        let mut grid = CoherentGrid::<f64, 3>::new();
        let mut world: Vec<(ProxyId, Aabb<f64, 3>)> =
            (0..64).map(|i| (i, boxed([(i % 8) as f64 * 1.5, (i / 8) as f64 * 1.5, 0.0], 1.0))).collect();
        for (id, b) in &world {
            grid.insert(*id, *b).unwrap();
        }
        check(&mut grid, &world);
        for frame in 0..400 {
            for (k, (id, b)) in world.iter_mut().enumerate().filter(|(k, _)| k % 4 == frame % 4) {
                let far = 1e5 * (frame + k) as f64;
                let c = if frame % 2 == 0 {
                    [far, -far, 3.0 * k as f64]
                } else {
                    [(k % 8) as f64 * 1.5, 0.0, 0.0]
                };
                *b = boxed(c, 1.0);
                grid.update(*id, *b).unwrap();
            }
            check(&mut grid, &world);
        }
        assert!(grid.cells.hashed_cells() <= 4 * 64 * 8 + 1024 + 64 * 8);
    }

    /// A batch through `update_all` — boxes that stay in their fat boxes, boxes that leave,
    /// the same id twice in one batch, an unknown id in the middle — leaves the grid exactly
    /// where one `update` per entry does: same boxes, same pairs and events, same error with
    /// the entries before it applied and the ones after it not.
    #[test]
    fn batched_updates_equal_one_by_one() {
        let (mut batched, mut single) = (CoherentGrid::<f64, 3>::new(), CoherentGrid::<f64, 3>::new());
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 10_000) as f64 / 1000.0
        };
        for id in 0..200 {
            let b = boxed([next(), next(), next()], 0.3);
            batched.insert(id, b).unwrap();
            single.insert(id, b).unwrap();
        }
        for frame in 0..60u32 {
            let mut batch: Vec<(ProxyId, Aabb<f64, 3>)> = Vec::new();
            for id in (frame % 3..200).step_by(3) {
                // Mostly small steps (inside the fat box), some jumps (out of it).
                let old = single.aabb(id).unwrap().center();
                let step = if id % 17 == frame % 17 { 3.0 } else { 0.02 };
                let c = [old.x + step * (next() - 5.0) / 5.0, old.y, old.z + 0.01];
                batch.push((id, boxed(c, 0.3 + 0.01 * (frame % 5) as f64)));
            }
            // The same id twice: the second entry wins, after the first was applied.
            batch.push((batch[0].0, boxed([next(), next(), next()], 0.3)));
            let unknown = frame % 10 == 9;
            if unknown {
                batch.insert(batch.len() / 2, (5000, boxed([0.0; 3], 1.0)));
            }
            let got = batched.update_all(&batch);
            let mut want = Ok(());
            for &(id, b) in &batch {
                if let Err(e) = single.update(id, b) {
                    want = Err(e);
                    break;
                }
            }
            assert_eq!(got, want, "frame {frame}");
            assert_eq!(got.is_err(), unknown);
            for id in 0..200 {
                assert_eq!(batched.aabb(id), single.aabb(id), "frame {frame}, id {id}");
            }
            batched.find_pairs();
            single.find_pairs();
            assert_eq!(batched.pairs(), single.pairs(), "frame {frame}");
            let world: Vec<_> = (0..200).map(|id| (id, batched.aabb(id).unwrap())).collect();
            assert_eq!(batched.pairs(), brute(&world).as_slice(), "frame {frame}");
            assert_eq!((batched.added(), batched.removed()), (single.added(), single.removed()));
        }
    }
}
