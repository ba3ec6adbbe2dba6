//! Hierarchical grid.

use crate::cells::{cell_index as cell, for_each_cell};
use crate::id_hash::IdMap;
use crate::proxies::{overlaps, pair, ProxyId};
use crate::strategy::{PairFinder, Strategy};
use crate::Pair;
use cd_geom::{Aabb, Real};

/// Hierarchical grid (RTR 25.1.2; Mirtich's multi-level grid): levels whose cell sizes double,
/// each box stored at the level whose cell just exceeds its size (so it covers at most 2^D cells
/// there), in a hash map per level (unbounded world). A box is tested against boxes of its own
/// level and of every coarser level whose cells it overlaps, never against finer ones (those test
/// it). Unlike a single grid, one huge object does not make every cell huge: mixed sizes stay
/// O(n + k).
pub type HierarchicalGrid<T, const D: usize> = Strategy<Levels<D>, T, D>;

/// The hierarchical-grid [`PairFinder`]; keeps its maps between frames.
#[derive(Clone, Debug)]
pub struct Levels<const D: usize> {
    cells: IdMap<(u8, [i64; D]), Vec<u32>>,
    level: Vec<u8>,
}

impl<const D: usize> Default for Levels<D> {
    fn default() -> Self {
        Levels { cells: IdMap::default(), level: Vec::new() }
    }
}

impl<T: Real, const D: usize> PairFinder<T, D> for Levels<D> {
    fn find(&mut self, ids: &[ProxyId], boxes: &[Aabb<T, D>], out: &mut Vec<Pair>) {
        self.cells.values_mut().for_each(Vec::clear);
        if boxes.is_empty() {
            return;
        }
        // Finest cell: the smallest positive extent (or 1 when every box is a point), so levels
        // span from the smallest object up to the largest.
        let extent = |b: &Aabb<T, D>| (b.max() - b.min()).amax();
        let smallest =
            boxes.iter().map(extent).filter(|e| *e > T::zero()).fold(T::infinity(), |a, b| a.min(b));
        let largest = boxes.iter().map(extent).fold(T::zero(), |a, b| a.max(b));
        // At most 40 levels: objects more than 2^40 times smaller than the largest share the
        // finest level (still at most 2^D cells each).
        let base =
            if smallest.is_finite() { smallest.max(largest * T::lit(2f64.powi(-40))) } else { T::one() };
        let size_at = |l: u8| base * T::lit(2f64.powi(l as i32));
        let max_level = 62u8;
        self.level.clear();
        for b in boxes {
            let e = extent(b);
            let mut l = 0u8;
            while l < max_level && size_at(l) < e {
                l += 1;
            }
            self.level.push(l);
        }
        let top = self.level.iter().copied().max().unwrap_or(0);
        let range = |b: &Aabb<T, D>, l: u8| -> ([i64; D], [i64; D]) {
            let s = size_at(l);
            (core::array::from_fn(|a| cell(b.min()[a], s)), core::array::from_fn(|a| cell(b.max()[a], s)))
        };
        for (i, b) in boxes.iter().enumerate() {
            let l = self.level[i];
            let (lo, hi) = range(b, l);
            for_each_cell(lo, hi, |c| self.cells.entry((l, c)).or_default().push(i as u32));
        }
        for (i, b) in boxes.iter().enumerate() {
            let li = self.level[i];
            for l in li..=top {
                let (lo, hi) = range(b, l);
                for_each_cell(lo, hi, |c| {
                    if let Some(members) = self.cells.get(&(l, c)) {
                        for &j in members {
                            let j = j as usize;
                            let later = self.level[j] > li || j > i;
                            if later && j != i && overlaps(b, &boxes[j]) {
                                out.push(pair(ids[i], ids[j]));
                            }
                        }
                    }
                });
            }
        }
        self.cells.retain(|_, v| !v.is_empty());
    }
}
