//! The cells of the coherent grid: a dense block of cells over the region where the boxes were
//! when the grid was laid out (one indexed load per lookup), and a hash map for every cell
//! outside it, so the world stays unbounded.

use crate::id_hash::IdMap;

/// A cell's integer coordinates as a hash-map key, hashed as one well-mixed word: the map's
/// Fx-style hasher keeps low input bits in the low output bits, and grid coordinates differ
/// mostly there, so the coordinates are folded with distinct odd multipliers and finished
/// with an xor-shift multiply (MurmurHash3's `fmix64`) before it sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CellKey<const D: usize>([i32; D]);

impl<const D: usize> core::hash::Hash for CellKey<D> {
    #[inline(always)]
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        const ODD: [u64; 4] =
            [0x9e37_79b9_7f4a_7c15, 0xc2b2_ae3d_27d4_eb4f, 0x1656_67b1_9e37_79f9, 0x27d4_eb2f_1656_67c5];
        let mut h = 0u64;
        for (a, &x) in self.0.iter().enumerate() {
            h ^= (x as u32 as u64).wrapping_mul(ODD[a % 4]);
        }
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        state.write_u64(h);
    }
}

/// Slots per cell, by integer cell coordinates.
#[derive(Clone, Debug)]
pub(crate) struct CellStore<const D: usize> {
    /// The dense block: cells `origin ..= origin + dims − 1`, first axis fastest.
    origin: [i32; D],
    dims: [u32; D],
    dense: Vec<Vec<u32>>,
    /// Cells outside the block.
    sparse: IdMap<CellKey<D>, Vec<u32>>,
    /// Sparse cells holding at least one slot (emptied ones are kept for reuse and purged when
    /// they dominate).
    occupied: usize,
}

impl<const D: usize> Default for CellStore<D> {
    fn default() -> Self {
        CellStore { origin: [0; D], dims: [0; D], dense: Vec::new(), sparse: IdMap::default(), occupied: 0 }
    }
}

impl<const D: usize> CellStore<D> {
    /// Empties every cell and lays the dense block over `lo ..= hi` grown by a quarter of its
    /// span on every side (boxes drift), unless that would take more than `budget` cells: then
    /// every cell is hashed.
    pub(crate) fn reset(&mut self, lo: [i32; D], hi: [i32; D], budget: usize) {
        self.sparse.clear();
        self.occupied = 0;
        self.dense.clear();
        let mut origin = [0; D];
        let mut dims = [0u32; D];
        let mut total = 1.0f64;
        for a in 0..D {
            let span = hi[a] as i64 - lo[a] as i64 + 1;
            let pad = span / 4 + 1;
            let (first, last) = (lo[a] as i64 - pad, hi[a] as i64 + pad);
            origin[a] = first.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
            let n = last.clamp(i32::MIN as i64, i32::MAX as i64) - origin[a] as i64 + 1;
            dims[a] = n.clamp(0, u32::MAX as i64) as u32;
            total *= n.max(0) as f64;
        }
        if total <= budget as f64 {
            self.origin = origin;
            self.dims = dims;
            self.dense.resize_with(total as usize, Vec::new);
        } else {
            self.dims = [0; D];
        }
    }

    /// The index of cell `c` in the dense block, if it is inside.
    #[inline(always)]
    fn dense_index(&self, c: &[i32; D]) -> Option<usize> {
        let mut index = 0usize;
        for a in (0..D).rev() {
            let offset = (c[a] as i64 - self.origin[a] as i64) as u64;
            if offset >= self.dims[a] as u64 {
                return None;
            }
            index = index * self.dims[a] as usize + offset as usize;
        }
        Some(index)
    }

    /// The slots filed in cell `c`.
    #[inline]
    pub(crate) fn members(&self, c: &[i32; D]) -> &[u32] {
        match self.dense_index(c) {
            Some(i) => &self.dense[i],
            None => self.sparse.get(&CellKey(*c)).map_or(&[], |v| v.as_slice()),
        }
    }

    /// Files `slot` in cell `c`.
    pub(crate) fn enter(&mut self, c: &[i32; D], slot: u32) {
        match self.dense_index(c) {
            Some(i) => self.dense[i].push(slot),
            None => {
                let members = self.sparse.entry(CellKey(*c)).or_default();
                if members.is_empty() {
                    self.occupied += 1;
                }
                members.push(slot);
            }
        }
    }

    /// Takes `slot` out of cell `c`.
    pub(crate) fn leave(&mut self, c: &[i32; D], slot: u32) {
        let (members, hashed) = match self.dense_index(c) {
            Some(i) => (&mut self.dense[i], false),
            None => match self.sparse.get_mut(&CellKey(*c)) {
                Some(m) => (m, true),
                None => return,
            },
        };
        if let Some(at) = members.iter().position(|&m| m == slot) {
            members.swap_remove(at);
            if hashed && members.is_empty() {
                self.occupied -= 1;
            }
        }
    }

    /// Number of hashed cells, emptied ones included.
    #[cfg(test)]
    pub(crate) fn hashed_cells(&self) -> usize {
        self.sparse.len()
    }

    /// Drops the emptied hashed cells once they outnumber the occupied ones well (boxes that
    /// wander leave a trail of them).
    pub(crate) fn purge(&mut self) {
        if self.sparse.len() > 4 * self.occupied + 1024 {
            self.sparse.retain(|_, members| !members.is_empty());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cells inside and outside the dense block behave alike: filed, listed, taken out.
    #[test]
    fn dense_and_hashed_cells_agree() {
        let mut store = CellStore::<2>::default();
        store.reset([0, 0], [3, 3], 1 << 10);
        assert!(store.dense_index(&[0, 0]).is_some());
        for (i, c) in
            [[0, 0], [3, 3], [-1, 0], [100, -100], [i32::MAX, i32::MIN], [-2, -2]].iter().enumerate()
        {
            store.enter(c, i as u32);
            store.enter(c, 99);
            assert_eq!(store.members(c), &[i as u32, 99]);
            store.leave(c, 99);
            assert_eq!(store.members(c), &[i as u32]);
            store.leave(c, 7); // absent: nothing happens
            assert_eq!(store.members(c), &[i as u32]);
        }
        assert!(store.members(&[50, 50]).is_empty());
        // A block over budget hashes everything.
        store.reset([0, 0], [1000, 1000], 64);
        assert!(store.dense_index(&[0, 0]).is_none());
        store.enter(&[0, 0], 5);
        assert_eq!(store.members(&[0, 0]), &[5]);
    }

    /// Emptied hashed cells are purged once they dominate, occupied ones never.
    #[test]
    fn purge_keeps_occupied_cells() {
        let mut store = CellStore::<3>::default();
        store.reset([0; 3], [0; 3], 0);
        for x in 0..3000 {
            store.enter(&[x, 0, 0], x as u32);
        }
        for x in 1..3000 {
            store.leave(&[x, 0, 0], x as u32);
        }
        assert_eq!(store.occupied, 1);
        store.purge();
        assert_eq!(store.sparse.len(), 1);
        assert_eq!(store.members(&[0, 0, 0]), &[0]);
    }
}
