//! Spatial hashing over an unbounded world.

use crate::cells::{emit_cell_pairs, for_each_cell};
use crate::id_hash::IdMap;
use crate::proxies::ProxyId;
use crate::strategy::{PairFinder, Strategy};
use crate::Pair;
use cd_geom::{Aabb, Real};

/// Spatial hash (RTR 25.1.2): the world is cut into cubic cells as large as the largest box, so a
/// box covers at most 2^D cells; cells live in a hash map keyed by integer coordinates, so the
/// world is unbounded. Each pair sharing several cells is reported once: only by the cell that
/// holds the lower corner of the two boxes' intersection. O(n + k) for evenly sized objects;
/// degrades when sizes vary widely (one huge box makes every cell huge).
pub type SpatialHash<T, const D: usize> = Strategy<HashCells<D>, T, D>;

/// The spatial-hash [`PairFinder`]; keeps its cell map between frames.
#[derive(Clone, Debug)]
pub struct HashCells<const D: usize> {
    cells: IdMap<[i64; D], Vec<u32>>,
}

impl<const D: usize> Default for HashCells<D> {
    fn default() -> Self {
        HashCells { cells: IdMap::default() }
    }
}

impl<T: Real, const D: usize> PairFinder<T, D> for HashCells<D> {
    fn find(&mut self, ids: &[ProxyId], boxes: &[Aabb<T, D>], out: &mut Vec<Pair>) {
        self.cells.values_mut().for_each(Vec::clear);
        if boxes.is_empty() {
            return;
        }
        let largest = boxes.iter().map(|b| (b.max() - b.min()).amax()).fold(T::zero(), |a, b| a.max(b));
        // Zero-size boxes everywhere: any positive size works; keep cells finite.
        let size = if largest > T::zero() { largest } else { T::one() };
        let cell_of = |x: T| -> i64 {
            let c = (x / size).floor();
            // Coordinates are bounded by the coordinate limit, and the cell size by the extent, so
            // the quotient fits in i64 unless boxes are tiny and far: clamp for safety.
            c.to_f64().clamp(-9.0e18, 9.0e18) as i64
        };
        for (i, b) in boxes.iter().enumerate() {
            let lo: [i64; D] = core::array::from_fn(|a| cell_of(b.min()[a]));
            let hi: [i64; D] = core::array::from_fn(|a| cell_of(b.max()[a]));
            for_each_cell(lo, hi, |c| self.cells.entry(c).or_default().push(i as u32));
        }
        for (cell, members) in &self.cells {
            // Report only from the cell holding the intersection's lower corner.
            let owns = |bi: &Aabb<T, D>, bj: &Aabb<T, D>| {
                (0..D).all(|a| cell_of(bi.min()[a].max(bj.min()[a])) == cell[a])
            };
            emit_cell_pairs(members, ids, boxes, owns, out);
        }
        self.cells.retain(|_, v| !v.is_empty());
    }
}
