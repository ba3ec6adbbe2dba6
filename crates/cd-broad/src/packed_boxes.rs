//! The proxies' boxes again, each corner padded to four lanes, for the loops that confirm
//! candidate pairs every frame.
//!
//! A box of three coordinates per corner (24 bytes in `f32`) is loaded lane by lane and
//! compared mostly with scalar instructions: about 38 instructions per candidate in the
//! confirming loop. Padded to four lanes, an overlap test is two packed compares of whole
//! corners, an `and` and a mask, which is what the loop compiles to. The padding lanes hold 0
//! in both corners, so they always overlap. Dimensions above four keep the plain test.

use cd_geom::{Aabb, Point, Real};

/// Four lanes per corner: `[min, max]`.
pub(crate) type Lanes<T> = [[T; 4]; 2];

/// Boxes indexed like the strategy's slots, each padded to four lanes per corner.
#[derive(Clone, Debug, Default)]
pub(crate) struct PackedBoxes<T> {
    boxes: Vec<Lanes<T>>,
}

/// `b`'s corners in four lanes each (the first four coordinates when `D > 4`, unused then).
#[inline(always)]
pub(crate) fn lanes<T: Real, const D: usize>(b: &Aabb<T, D>) -> Lanes<T> {
    let corner = |p: &Point<T, D>| core::array::from_fn(|i| if i < D { p[i] } else { T::zero() });
    [corner(b.min()), corner(b.max())]
}

impl<T: Real> PackedBoxes<T> {
    /// Appends `b` as the next slot's box.
    pub(crate) fn push<const D: usize>(&mut self, b: &Aabb<T, D>) {
        self.boxes.push(lanes(b));
    }

    /// Slot `slot`'s corners (`D ≤ 4`).
    #[inline(always)]
    pub(crate) fn corners<const D: usize>(&self, slot: u32) -> (Point<T, D>, Point<T, D>) {
        let [lo, hi] = &self.boxes[slot as usize];
        (Point::from(core::array::from_fn(|i| lo[i])), Point::from(core::array::from_fn(|i| hi[i])))
    }

    /// The padded boxes by slot, to write in a loop that holds the slice.
    #[inline(always)]
    pub(crate) fn slots_mut(&mut self) -> &mut [Lanes<T>] {
        &mut self.boxes
    }

    /// Sets slot `slot`'s box to `b`.
    #[inline(always)]
    pub(crate) fn set<const D: usize>(&mut self, slot: u32, b: &Aabb<T, D>) {
        self.boxes[slot as usize] = lanes(b);
    }

    /// Flags slot `slot` (or clears its flag) in the padding lane: its lower corner's fourth
    /// lane becomes 1 (or 0), the upper corner's stays 0. Only for `D < 4`, and only between
    /// the box's writes: [`Self::set`] clears the flag.
    #[inline(always)]
    pub(crate) fn flag(&mut self, slot: u32, on: bool) {
        self.boxes[slot as usize][0][3] = if on { T::one() } else { T::zero() };
    }

    /// For slots `a` and `b` (`D < 4`): do their boxes overlap with neither flagged, and is
    /// neither flagged? The fourth lanes compare `flag_a ≤ 0` and `flag_b ≤ 0`, so a flagged
    /// box overlaps nothing.
    #[inline(always)]
    pub(crate) fn overlap_unflagged(&self, a: u32, b: u32) -> (bool, bool) {
        let (a, b) = (&self.boxes[a as usize], &self.boxes[b as usize]);
        let lane = |i: usize| (a[0][i] <= b[1][i]) & (b[0][i] <= a[1][i]);
        // The flags are 0 or 1: both clear when their sum is not positive (a scalar add and
        // compare beside the packed test; asking the packed compare's fourth lane for it made
        // the compiler shuffle the lanes apart).
        let unflagged = a[0][3] + b[0][3] <= T::zero();
        (lane(0) & lane(1) & lane(2) & lane(3), unflagged)
    }

    /// Do the boxes of slots `a` and `b` overlap (closed intervals)? Only for `D ≤ 4`.
    #[inline(always)]
    pub(crate) fn overlap(&self, a: u32, b: u32) -> bool {
        let (a, b) = (&self.boxes[a as usize], &self.boxes[b as usize]);
        // Written out lane by lane, with `&` (no short circuit), so the four compare as one
        // packed instruction per corner (an array built by `from_fn` compiled to 45 % more
        // instructions in the confirming loop).
        let lane = |i: usize| (a[0][i] <= b[1][i]) & (b[0][i] <= a[1][i]);
        lane(0) & lane(1) & lane(2) & lane(3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cd_geom::Point;

    /// The padded test answers as `aabb_aabb` on boxes apart, touching (closed intervals),
    /// overlapping and nested, in 2D and 3D, on a grid of integer boxes where every kind of
    /// contact happens on every axis.
    #[test]
    fn packed_overlap_equals_the_plain_test() {
        fn check<const D: usize>() {
            let mut boxes = Vec::new();
            for k in 0..200u32 {
                let lo: [f32; D] = core::array::from_fn(|i| ((k * (7 + 3 * i as u32)) % 9) as f32);
                let size: [f32; D] = core::array::from_fn(|i| ((k * (5 + i as u32)) % 4) as f32);
                let hi: [f32; D] = core::array::from_fn(|i| lo[i] + size[i]);
                boxes.push(Aabb::new(Point::from(lo), Point::from(hi)).unwrap());
            }
            let mut packed = PackedBoxes::default();
            for b in &boxes {
                packed.push(b);
            }
            packed.set(3, &boxes[5]);
            boxes[3] = boxes[5];
            for a in 0..boxes.len() {
                for b in 0..boxes.len() {
                    let plain = cd_geom::aabb_aabb(&boxes[a], &boxes[b]);
                    assert_eq!(packed.overlap(a as u32, b as u32), plain, "{:?} {:?}", boxes[a], boxes[b]);
                }
            }
        }
        check::<2>();
        check::<3>();
    }
}
