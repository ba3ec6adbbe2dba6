//! Batch sort-and-sweep on one axis.

use crate::proxies::{overlaps, pair, ProxyId};
use crate::radix;
use crate::strategy::{PairFinder, Strategy};
use crate::Pair;
use cd_geom::{Aabb, Real};

/// Sort-and-sweep (the batch form of sweep-and-prune, RTR 25.1): every frame, pick the axis
/// along which the box centres vary most, sort the boxes by their lower bound on it (an LSD
/// radix sort, linear in the number of boxes), and sweep:
/// each box is tested (on all axes) only against the boxes whose interval on that axis is still
/// open. O(n log n + n·m) for m boxes overlapping on the sweep axis; needs no frame-to-frame
/// coherence, so it suits scenes that change a lot.
pub type SortAndSweep<T, const D: usize> = Strategy<SweepOneAxis<T>, T, D>;

/// The sort-and-sweep [`PairFinder`]; keeps its sort buffers between frames.
#[derive(Clone, Debug, Default)]
pub struct SweepOneAxis<T> {
    order: Vec<(T, u32)>,
    radix: [Vec<(u64, u32)>; 2],
}

/// The axis along which the box centres vary most.
fn widest_axis<T: Real, const D: usize>(boxes: &[Aabb<T, D>]) -> usize {
    let n = T::lit(boxes.len().max(1) as f64);
    let mut best = (0, -T::one());
    for axis in 0..D {
        let mean = boxes.iter().fold(T::zero(), |s, b| s + b.min()[axis] + b.max()[axis]) / n;
        let var = boxes.iter().fold(T::zero(), |s, b| {
            let d = b.min()[axis] + b.max()[axis] - mean;
            s + d * d
        });
        if var > best.1 {
            best = (axis, var);
        }
    }
    best.0
}

impl<T: Real, const D: usize> PairFinder<T, D> for SweepOneAxis<T> {
    fn find(&mut self, ids: &[ProxyId], boxes: &[Aabb<T, D>], out: &mut Vec<Pair>) {
        let axis = widest_axis(boxes);
        self.order.clear();
        self.order.extend(boxes.iter().enumerate().map(|(i, b)| (b.min()[axis], i as u32)));
        radix::sort_by_key(&mut self.order, &mut self.radix);
        for (k, &(_, i)) in self.order.iter().enumerate() {
            let bi = &boxes[i as usize];
            let end = bi.max()[axis];
            for &(start, j) in &self.order[k + 1..] {
                // Sorted by lower bound: once a box starts after this one ends, so do the rest.
                if start > end {
                    break;
                }
                if overlaps(bi, &boxes[j as usize]) {
                    out.push(pair(ids[i as usize], ids[j as usize]));
                }
            }
        }
    }
}
