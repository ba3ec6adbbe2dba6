//! The proxy store of the strategies that keep fat boxes between frames (the dynamic tree and
//! the coherent grid): slots holding each proxy's id, exact box and fat box, reused after
//! removal, with the id → slot table, the slots inserted since the last frame and the slots
//! whose candidates must be found again.

use crate::id_hash::{SlotTable, VACANT};
use crate::packed_boxes::{lanes, PackedBoxes};
use crate::proxies::{BroadPhaseError, ProxyId};
use cd_geom::{Aabb, BoundingVolume, Point, Real, Vector};

/// Slots of proxies with fat boxes. A strategy keeps its own per-slot data (a tree leaf, a
/// grid place) beside it, grown when [`FatSlots::insert`] says a slot is new.
#[derive(Clone, Debug)]
pub(crate) struct FatSlots<T: Real, const D: usize> {
    pub(crate) ids: Vec<ProxyId>,
    /// The users' boxes when `D > 4` (read through [`FatSlots::tight`], written through
    /// [`FatSlots::set_tight`]); empty up to four dimensions, where `packed` is their only copy.
    /// A second copy was 24 bytes more per proxy in 3D `f32` to write at every update: 15 % of
    /// the 10k floor frame's cache misses (simulated), 4 % of its instructions.
    tight: Vec<Aabb<T, D>>,
    /// The boxes padded for the candidates' confirming loop.
    pub(crate) packed: PackedBoxes<T>,
    /// Each box grown by the margin (and stretched along its last motion).
    pub(crate) fat: Vec<Aabb<T, D>>,
    free: Vec<u32>,
    pub(crate) slot_of: SlotTable,
    /// Slots inserted since the last `find_pairs`, not yet in the strategy's structure.
    pub(crate) pending: Vec<u32>,
    pub(crate) moved: MovedSlots,
    /// Fraction of a box's largest extent it is grown by (≥ 0).
    pub(crate) margin: T,
    /// Frames found so far (wrapping): picks which slots' fat boxes are checked for looseness.
    frame: u32,
}

impl<T: Real, const D: usize> FatSlots<T, D> {
    /// No slots; boxes grown by `margin` (negative counts as 0).
    pub(crate) fn new(margin: T) -> Self {
        FatSlots {
            ids: Vec::new(),
            tight: Vec::new(),
            packed: PackedBoxes::default(),
            fat: Vec::new(),
            free: Vec::new(),
            slot_of: SlotTable::default(),
            pending: Vec::new(),
            moved: MovedSlots::default(),
            margin: if margin > T::zero() { margin } else { T::zero() },
            frame: 0,
        }
    }

    /// Counts a frame (the strategy's `find_pairs`).
    pub(crate) fn next_frame(&mut self) {
        self.frame = self.frame.wrapping_add(1);
    }

    /// Does slot `slot`'s fat box still serve its new box `aabb`: contain it, and not be loose
    /// around it? A box that shrank well inside its fat box needs a new one too: a loose fat box
    /// is a candidate of everything around it. A fattening makes the largest extent at most
    /// (2 + 2·margin) times the box's (margin on both sides, the stretch capped at the extent);
    /// twice that is loose. Looseness is checked for one slot in 16 each frame (checking it at
    /// every update cost the coherent grid a tenth of its frame), so a shrunk box is caught
    /// within 16 frames.
    #[inline]
    pub(crate) fn fat_fits(&self, slot: u32, aabb: &Aabb<T, D>) -> bool {
        serves(&self.fat[slot as usize], aabb, slot, self.frame, self.loose_factor())
    }

    /// A fat box is loose around a box whose largest extent is below its own over this.
    #[inline(always)]
    fn loose_factor(&self) -> T {
        T::lit(4.0) * (T::one() + self.margin)
    }

    /// Stores the boxes of the leading entries of `updates` that fit their fat boxes
    /// ([`Self::fat_fits`]), in order, and returns how many: it stops before the first that
    /// does not (the caller gives that one a new fat box, then calls again with the rest).
    /// Error: the first unknown id (the entries before it are stored).
    ///
    /// The same stores as [`Self::set_tight`] per entry, in a loop that holds the arrays'
    /// slices and the frame count in registers: through `&mut self` every store made the
    /// compiler reload each array's pointer and length and the frame count (seven loads and
    /// two bounds checks of the 49 instructions per box).
    #[inline(always)]
    pub(crate) fn store_fitting(
        &mut self,
        updates: &[(ProxyId, Aabb<T, D>)],
    ) -> Result<usize, BroadPhaseError> {
        let (frame, loose_factor) = (self.frame, self.loose_factor());
        let FatSlots { tight, packed, fat, slot_of, .. } = self;
        let packed = packed.slots_mut();
        let n = packed.len().min(fat.len());
        let (packed, fat, dense) = (&mut packed[..n], &fat[..n], slot_of.dense());
        for (done, &(id, aabb)) in updates.iter().enumerate() {
            let slot = match dense.get(id as usize) {
                Some(&s) if s != VACANT => s,
                _ => slot_of.get(id).ok_or(BroadPhaseError::UnknownId(id))?,
            };
            let s = slot as usize;
            if s >= n {
                return Err(BroadPhaseError::UnknownId(id)); // a slot always has its boxes
            }
            if !serves(&fat[s], &aabb, slot, frame, loose_factor) {
                return Ok(done);
            }
            if D > 4 {
                tight[s] = aabb;
            }
            packed[s] = lanes(&aabb);
        }
        Ok(updates.len())
    }

    /// Sets slot `slot`'s box.
    #[inline(always)]
    pub(crate) fn set_tight(&mut self, slot: u32, aabb: Aabb<T, D>) {
        if D > 4 {
            self.tight[slot as usize] = aabb;
        }
        self.packed.set(slot, &aabb);
    }

    /// Slot `slot`'s box.
    pub(crate) fn tight(&self, slot: u32) -> Aabb<T, D> {
        if D > 4 {
            return self.tight[slot as usize];
        }
        let (lo, hi) = self.packed.corners(slot);
        // The lanes hold a box that was valid when stored, so this cannot fail; the fat box
        // (which contains it) only stands in to spare a panic path.
        Aabb::new(lo, hi).unwrap_or(self.fat[slot as usize])
    }

    /// The centre of slot `slot`'s box (no validation: for the hot update path).
    #[inline(always)]
    pub(crate) fn tight_center(&self, slot: u32) -> Point<T, D> {
        if D > 4 {
            return self.tight[slot as usize].center();
        }
        let (lo, hi) = self.packed.corners::<D>(slot);
        Point::from((lo.coords + hi.coords) * T::lit(0.5))
    }

    /// The boxes when `D > 4` (empty below: see [`Self::overlap`]).
    pub(crate) fn tight_boxes(&self) -> &[Aabb<T, D>] {
        &self.tight
    }

    /// Do the exact boxes of slots `a` and `b` overlap? (The padded copies when `D ≤ 4`.)
    #[inline(always)]
    pub(crate) fn overlap(&self, a: u32, b: u32) -> bool {
        crate::candidates::exact_overlap(&self.tight, &self.packed, a, b)
    }

    /// The fat box of `b` after a motion of `displacement` ([`fatten`] with this margin).
    pub(crate) fn fatten(&self, b: &Aabb<T, D>, displacement: &Vector<T, D>) -> Aabb<T, D> {
        fatten(b, self.margin, displacement)
    }

    /// A slot for a new proxy (a freed one when there is one), pending and marked moved, and
    /// whether it is a new slot (the caller then grows its own per-slot arrays). Error: the id
    /// is already present.
    pub(crate) fn insert(&mut self, id: ProxyId, aabb: Aabb<T, D>) -> Result<(u32, bool), BroadPhaseError> {
        if self.slot_of.contains(id) {
            return Err(BroadPhaseError::DuplicateId(id));
        }
        let fat = self.fatten(&aabb, &Vector::zeros());
        let (slot, new) = match self.free.pop() {
            Some(s) => {
                (self.ids[s as usize], self.fat[s as usize]) = (id, fat);
                self.set_tight(s, aabb);
                (s, false)
            }
            None => {
                self.ids.push(id);
                if D > 4 {
                    self.tight.push(aabb);
                }
                self.packed.push(&aabb);
                self.fat.push(fat);
                self.moved.grow();
                ((self.ids.len() - 1) as u32, true)
            }
        };
        self.slot_of.insert(id, slot);
        self.pending.push(slot);
        self.moved.mark(slot);
        Ok((slot, new))
    }

    /// The slot of `id`. Error: unknown id.
    #[inline]
    pub(crate) fn slot(&self, id: ProxyId) -> Result<u32, BroadPhaseError> {
        self.slot_of.get(id).ok_or(BroadPhaseError::UnknownId(id))
    }

    /// Frees the slot of `id` (no longer pending; marked moved, so its candidates go at the
    /// next frame) and returns it; the caller takes it out of its own structure. Error: unknown
    /// id.
    pub(crate) fn remove(&mut self, id: ProxyId) -> Result<u32, BroadPhaseError> {
        let slot = self.slot_of.remove(id).ok_or(BroadPhaseError::UnknownId(id))?;
        if !self.pending.is_empty() {
            self.pending.retain(|&s| s != slot);
        }
        self.moved.mark(slot);
        self.free.push(slot);
        Ok(slot)
    }

    /// Number of proxies.
    pub(crate) fn len(&self) -> usize {
        self.slot_of.len()
    }

    /// Is `slot` in use (holding a live proxy)?
    pub(crate) fn is_live(&self, slot: usize) -> bool {
        self.slot_of.get(self.ids[slot]) == Some(slot as u32)
    }
}

/// Does the fat box `fat` of slot `slot` serve `aabb` at frame `frame` ([`FatSlots::fat_fits`])?
#[inline(always)]
fn serves<T: Real, const D: usize>(
    fat: &Aabb<T, D>,
    aabb: &Aabb<T, D>,
    slot: u32,
    frame: u32,
    loose_factor: T,
) -> bool {
    let loose = || (fat.max() - fat.min()).amax() > loose_factor * (aabb.max() - aabb.min()).amax();
    fat.contains(aabb) && ((slot ^ frame) & 15 != 0 || !loose())
}

/// The fat box of `b`: grown on every side by `margin` times its largest extent, stretched
/// ahead by twice `displacement` (its last motion, so a box moving steadily leaves its fat box
/// less often), that stretch capped at the extent on each axis (a teleport is not a velocity,
/// and a box stretched across the world would be a candidate of everything on its way), and
/// behind by twice that motion too when it is within the margin (so it still holds the box a
/// step back, with a step to spare against rounding). The tight box itself if fattening would
/// leave the coordinate range.
///
/// The stretch behind matters for motion that retraces its path (an oscillating platform, a
/// replayed animation): a box leaves its first fat box (grown by the margin alone) after
/// moving a little more than the margin, so the new fat box's trailing side, one margin
/// behind, fell a fraction of a step short of where the box started. Every box that had left
/// once then left again on the frame it returned to its start: on the 10k floor scene replayed
/// forward and back (the benchmark until 2026-12-06), two thirds of the boxes in one frame,
/// 6 ms of the coherent grid's time every 254 frames.
pub(crate) fn fatten<T: Real, const D: usize>(
    b: &Aabb<T, D>,
    margin: T,
    displacement: &Vector<T, D>,
) -> Aabb<T, D> {
    let extent = (b.max() - b.min()).amax();
    let m = extent * margin;
    let mut lo = b.min().coords - Vector::repeat(m);
    let mut hi = b.max().coords + Vector::repeat(m);
    for a in 0..D {
        let ahead = (displacement[a] * T::lit(2.0)).max(-extent).min(extent);
        // A step longer than the margin is a teleport or a box too fast for its margin to
        // matter: nothing behind (a teleported box stretched back would be a candidate of
        // everything near its old place).
        let step = displacement[a].abs();
        let behind = if step <= m { step * T::lit(2.0) } else { T::zero() };
        if ahead < T::zero() {
            lo[a] += ahead;
            hi[a] += behind;
        } else {
            hi[a] += ahead;
            lo[a] -= behind;
        }
    }
    Aabb::new(lo.into(), hi.into()).unwrap_or(*b)
}

/// The slots whose candidates must be found again at the next frame (moved out of their fat
/// box, inserted or removed), each listed once.
#[derive(Clone, Debug, Default)]
pub(crate) struct MovedSlots {
    list: Vec<u32>,
    flag: Vec<bool>,
}

impl MovedSlots {
    /// Room for one more slot (unmarked).
    pub(crate) fn grow(&mut self) {
        self.flag.push(false);
    }
    /// Marks `slot` (once).
    pub(crate) fn mark(&mut self, slot: u32) {
        if !self.flag[slot as usize] {
            self.flag[slot as usize] = true;
            self.list.push(slot);
        }
    }
    /// Is `slot` marked?
    #[inline(always)]
    pub(crate) fn contains(&self, slot: u32) -> bool {
        self.flag[slot as usize]
    }
    /// Per slot, is it marked?
    #[inline(always)]
    pub(crate) fn flags(&self) -> &[bool] {
        &self.flag
    }
    /// The marked slots.
    pub(crate) fn list(&self) -> &[u32] {
        &self.list
    }
    /// Unmarks every slot.
    pub(crate) fn clear(&mut self) {
        for &s in &self.list {
            self.flag[s as usize] = false;
        }
        self.list.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cd_geom::Point;

    fn cube(h: f64) -> Aabb<f64, 3> {
        Aabb::new(Point::from([-h; 3]), Point::from([h; 3])).unwrap()
    }

    /// The boxes read back are the boxes stored, bit for bit, whether from the padded copies
    /// (up to four dimensions) or the plain ones (above), and so are their centres.
    #[test]
    fn stored_boxes_read_back_exactly() {
        fn check<const D: usize>() {
            let mut slots = FatSlots::<f32, D>::new(0.5);
            let boxed = |k: f32| {
                let lo: [f32; D] = core::array::from_fn(|i| k * 0.37 - i as f32 * 1e-7 - 0.0);
                let hi: [f32; D] = core::array::from_fn(|i| lo[i] + (i as f32 + 1.0) * 3.3e-3 * k.abs());
                Aabb::new(Point::from(lo), Point::from(hi)).unwrap()
            };
            for k in 0..20 {
                slots.insert(k, boxed(k as f32)).unwrap();
            }
            slots.set_tight(7, boxed(-1.0e6));
            for s in 0..20u32 {
                let want = if s == 7 { boxed(-1.0e6) } else { boxed(s as f32) };
                assert_eq!(slots.tight(s), want, "D = {D}");
                assert_eq!(slots.tight_center(s), want.center(), "D = {D}");
            }
        }
        check::<1>();
        check::<2>();
        check::<3>();
        check::<4>();
        check::<5>();
    }

    /// A box that left its first fat box once and then retraces its path back to where it was
    /// inserted stays inside the new fat box all the way (the stretch behind): the motion of a
    /// platform going back and forth, or of a replayed animation. Several speeds, each run
    /// until the first refattening and then half as far again (so there is exactly one).
    #[test]
    fn retraced_motion_stays_in_the_fat_box() {
        for step in
            [[0.013, 0.0, 0.007], [-0.0071, 0.0029, 0.0], [0.0299, -0.011, 0.017], [1.0 / 3.0, 0.0, 0.0]]
        {
            let step = Vector::from(step);
            let at = |k: usize| {
                let c = step * k as f64;
                Aabb::new(Point::from(c - Vector::repeat(1.0)), Point::from(c + Vector::repeat(1.0))).unwrap()
            };
            let mut slots = FatSlots::<f64, 3>::new(0.5);
            let (slot, _) = slots.insert(0, at(0)).unwrap();
            let moves = |slots: &mut FatSlots<f64, 3>, k: usize| {
                let b = at(k);
                if slots.fat_fits(slot, &b) {
                    slots.set_tight(slot, b);
                    return false;
                }
                let displacement = b.center() - slots.tight_center(slot);
                slots.set_tight(slot, b);
                slots.fat[slot as usize] = slots.fatten(&b, &displacement);
                true
            };
            let mut k = 0;
            while !moves(&mut slots, k + 1) {
                k += 1;
                slots.next_frame();
            }
            let first = k + 1;
            for k in first + 1..=first + first / 2 {
                assert!(!moves(&mut slots, k), "a second refattening at {k}: the test's premise");
                slots.next_frame();
            }
            for k in (0..first + first / 2).rev() {
                assert!(
                    !moves(&mut slots, k),
                    "step {step:?}: left its fat box at frame {k} on the way back"
                );
                slots.next_frame();
            }
        }
    }

    /// The stretch behind is left out for a step longer than the margin (a teleport): the fat box
    /// is stretched ahead only (capped at the extent), as it always was.
    #[test]
    fn a_teleport_is_not_stretched_behind() {
        let b = cube(1.0); // extent 2, margin 0.5 → 1
        let fat = fatten(&b, 0.5, &Vector::from([50.0, -0.25, 0.0]));
        // x: 2 ahead (the cap), nothing behind; y: 0.5 ahead and 0.5 behind (twice the step).
        assert_eq!(fat.min(), &Point::from([-2.0, -2.5, -2.0]));
        assert_eq!(fat.max(), &Point::from([4.0, 2.5, 2.0]));
    }

    /// A fat box keeps serving a box that moves inside it at the same size; a box that shrank
    /// a hundredfold is refused within 16 frames, one that left it at once.
    #[test]
    fn fat_boxes_fit_until_left_or_loose() {
        let mut slots = FatSlots::<f64, 3>::new(0.5);
        let (slot, new) = slots.insert(7, cube(1.0)).unwrap();
        assert!(new && slots.fat[slot as usize] == cube(2.0)); // grown by half the extent (2)
        assert!(slots.insert(7, cube(1.0)).is_err());
        let mut caught = None;
        for frame in 0..16 {
            assert!(slots.fat_fits(slot, &cube(1.2)), "same size, inside: always fits");
            assert!(!slots.fat_fits(slot, &cube(2.1)), "outside: never fits");
            if caught.is_none() && !slots.fat_fits(slot, &cube(0.01)) {
                caught = Some(frame);
            }
            slots.next_frame();
        }
        assert!(caught.is_some(), "a shrunk box is refused within 16 frames");
        assert_eq!(slots.remove(7), Ok(slot));
        assert_eq!(slots.remove(7), Err(BroadPhaseError::UnknownId(7)));
        let (again, new) = slots.insert(8, cube(1.0)).unwrap();
        assert!(again == slot && !new, "a freed slot is reused");
    }
}
