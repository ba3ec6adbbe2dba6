//! The O(n²) reference broad phase.

use crate::proxies::{overlaps, pair, ProxyId};
use crate::strategy::{PairFinder, Strategy};
use crate::Pair;
use cd_geom::{Aabb, Real};

/// Tests every pair of proxies. O(n²); the reference every other strategy is checked against,
/// and the fastest choice below a few dozen objects.
pub type BruteForce<T, const D: usize> = Strategy<AllPairs, T, D>;

/// The brute-force [`PairFinder`].
#[derive(Clone, Copy, Debug, Default)]
pub struct AllPairs;

impl<T: Real, const D: usize> PairFinder<T, D> for AllPairs {
    fn find(&mut self, ids: &[ProxyId], boxes: &[Aabb<T, D>], out: &mut Vec<Pair>) {
        for i in 0..boxes.len() {
            for j in i + 1..boxes.len() {
                if overlaps(&boxes[i], &boxes[j]) {
                    out.push(pair(ids[i], ids[j]));
                }
            }
        }
    }
}
