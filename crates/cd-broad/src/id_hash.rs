//! A fast hasher for the small integer keys the broad phases hash millions of times per frame
//! (proxy ids, slot pairs, cell coordinates).
//!
//! std's default SipHash resists hash flooding, which costs about 20 ns per lookup; profiles of
//! the dynamic tree and incremental SAP showed a third of a frame spent in it. Keys here are
//! chosen by the program (or the user's own ids), not by an attacker, so one rotate-xor-multiply
//! per word (the Fx hash of rustc and Firefox) is enough: the multiply by an odd 64-bit constant
//! spreads sequential ids over both the low bits (bucket index) and the high bits (hashbrown's
//! tag byte).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// `0x51_7c_c1_b7_27_22_0a_95`: the 64-bit Fx constant (an odd number close to 2^64/π).
const SEED: u64 = 0x517c_c1b7_2722_0a95;

/// Rotate-xor-multiply hasher for integer keys (not flood-resistant; see the module docs).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct IdHasher(u64);

impl IdHasher {
    #[inline(always)]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for IdHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]));
        }
        for &b in chunks.remainder() {
            self.add(b as u64);
        }
    }
    #[inline(always)]
    fn write_u8(&mut self, n: u8) {
        self.add(n as u64);
    }
    #[inline(always)]
    fn write_u32(&mut self, n: u32) {
        self.add(n as u64);
    }
    #[inline(always)]
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }
    #[inline(always)]
    fn write_i64(&mut self, n: i64) {
        self.add(n as u64);
    }
    #[inline(always)]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
    #[inline(always)]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A `HashMap` keyed by ids or cells, hashed with [`IdHasher`].
pub(crate) type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<IdHasher>>;
/// A `HashSet` of ids or pairs, hashed with [`IdHasher`].
pub(crate) type IdSet<K> = HashSet<K, BuildHasherDefault<IdHasher>>;

/// The map from a proxy's id to its slot in a strategy's arrays.
///
/// Most users number their objects densely (body indices, entity ids), so ids below a bound
/// that grows with the number of proxies (4 × the count, at least 1024) live in a plain array —
/// one indexed load per `update`, where even a fast hash map costs a probe sequence that showed
/// as a quarter of a frame. Other ids go to an [`IdMap`], so any `u32` works.
#[derive(Clone, Debug, Default)]
pub(crate) struct SlotTable {
    dense: Vec<u32>,
    sparse: IdMap<u32, u32>,
    len: usize,
}

/// An empty entry of the dense array.
pub(crate) const VACANT: u32 = u32::MAX;

impl SlotTable {
    /// The slot of `id`.
    #[inline]
    pub(crate) fn get(&self, id: u32) -> Option<u32> {
        match self.dense.get(id as usize) {
            Some(&s) if s != VACANT => Some(s),
            _ if self.sparse.is_empty() => None,
            _ => self.sparse.get(&id).copied(),
        }
    }
    /// The dense array: the slot of each small id, or [`VACANT`] (then ask [`Self::get`]), for
    /// a loop that holds the slice.
    #[inline(always)]
    pub(crate) fn dense(&self) -> &[u32] {
        &self.dense
    }
    /// Is `id` present?
    #[inline]
    pub(crate) fn contains(&self, id: u32) -> bool {
        self.get(id).is_some()
    }
    /// Records `id → slot`; `id` must be absent.
    pub(crate) fn insert(&mut self, id: u32, slot: u32) {
        debug_assert!(!self.contains(id));
        let i = id as usize;
        let bound = (4 * (self.len + 1)).max(1024);
        if i < self.dense.len() || i < bound {
            if i >= self.dense.len() {
                self.dense.resize(i + 1, VACANT);
            }
            self.dense[i] = slot;
        } else {
            self.sparse.insert(id, slot);
        }
        self.len += 1;
    }
    /// Moves a present `id` to another slot.
    pub(crate) fn set(&mut self, id: u32, slot: u32) {
        match self.dense.get_mut(id as usize) {
            Some(s) if *s != VACANT => *s = slot,
            _ => {
                if let Some(s) = self.sparse.get_mut(&id) {
                    *s = slot;
                }
            }
        }
    }
    /// Forgets `id`, returning its slot.
    pub(crate) fn remove(&mut self, id: u32) -> Option<u32> {
        let slot = match self.dense.get_mut(id as usize) {
            Some(s) if *s != VACANT => Some(core::mem::replace(s, VACANT)),
            _ => self.sparse.remove(&id),
        }?;
        self.len -= 1;
        Some(slot)
    }
    /// Number of ids.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }
    /// No ids?
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, BuildHasherDefault};

    /// Sequential ids and pairs must not collide in the bits hashbrown uses (low bits for the
    /// bucket, top 7 for the tag), or lookups degrade to linear scans.
    #[test]
    fn sequential_keys_spread_over_buckets_and_tags() {
        let build = BuildHasherDefault::<IdHasher>::default();
        let mut buckets = IdSet::default();
        let mut tags = IdSet::default();
        for id in 0u32..4096 {
            let h = build.hash_one(id);
            buckets.insert(h & 4095);
            tags.insert(h >> 57);
        }
        assert!(buckets.len() > 4096 * 6 / 10, "{} buckets", buckets.len());
        assert_eq!(tags.len(), 128);
        let pairs: IdSet<u64> = (0u32..64)
            .flat_map(|a| (0u32..64).map(move |b| (a, b)))
            .map(|p| build.hash_one(p) & 4095)
            .collect();
        assert!(pairs.len() > 4096 * 6 / 10, "{} buckets", pairs.len());
    }

    /// Dense and sparse ids, removal and re-insertion, against a `BTreeMap`.
    #[test]
    fn slot_table_matches_a_map() {
        let mut table = SlotTable::default();
        let mut oracle = std::collections::BTreeMap::new();
        let mut x = 12345u64;
        for step in 0..20_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Mostly small ids, some huge ones (sparse), some at the edges.
            let id = match x % 10 {
                0 => u32::MAX - (x as u32 % 4),
                1 => (x >> 20) as u32,
                _ => (x % 3000) as u32,
            };
            if oracle.contains_key(&id) && x % 3 == 0 {
                assert_eq!(table.remove(id), oracle.remove(&id));
            } else if let std::collections::btree_map::Entry::Vacant(slot) = oracle.entry(id) {
                table.insert(id, step);
                slot.insert(step);
            }
            assert_eq!(table.get(id), oracle.get(&id).copied());
            assert_eq!(table.len(), oracle.len());
        }
        for (&id, &slot) in &oracle {
            assert_eq!(table.get(id), Some(slot));
        }
        assert_eq!(table.remove(7_777_777), oracle.remove(&7_777_777));
    }
}
