//! Uniform grid over fixed bounds.

use crate::cells::{emit_cell_pairs, for_each_cell};
use crate::proxies::ProxyId;
use crate::strategy::{PairFinder, Strategy};
use crate::Pair;
use cd_geom::{Aabb, Real};

/// Uniform grid (RTR 25.1.2) over the bounds of the current boxes: cells as large as the largest
/// box (so a box covers at most 2^D cells), at most 2^18 cells in all (cells grow when the bounds
/// are wide). Each pair is reported by one cell only (the one holding the lower corner of the
/// boxes' intersection). Best for many similar-sized boxes spread over a known region.
///
/// Boxes outside any fixed region are not a concern here: the grid spans the boxes' own bounds
/// each frame, so nothing can fall outside it and be lost.
pub type UniformGrid<T, const D: usize> = Strategy<GridCells<T, D>, T, D>;

/// The uniform-grid [`PairFinder`]; keeps its cell arrays between frames.
#[derive(Clone, Debug)]
pub struct GridCells<T, const D: usize> {
    cells: Vec<Vec<u32>>,
    origin: [T; D],
}

impl<T: Real, const D: usize> Default for GridCells<T, D> {
    fn default() -> Self {
        GridCells { cells: Vec::new(), origin: [T::zero(); D] }
    }
}

const MAX_CELLS: f64 = (1 << 18) as f64;

impl<T: Real, const D: usize> PairFinder<T, D> for GridCells<T, D> {
    fn find(&mut self, ids: &[ProxyId], boxes: &[Aabb<T, D>], out: &mut Vec<Pair>) {
        self.cells.iter_mut().for_each(Vec::clear);
        if boxes.is_empty() {
            return;
        }
        let bounds = boxes[1..].iter().fold(boxes[0], |acc, b| acc.merged(b));
        let span = bounds.max() - bounds.min();
        let largest = boxes.iter().map(|b| (b.max() - b.min()).amax()).fold(T::zero(), |a, b| a.max(b));
        // Cell size: the largest box, grown if the grid would exceed MAX_CELLS.
        let volume_cells = |s: f64| (0..D).map(|a| (span[a].to_f64() / s).floor() + 1.0).product::<f64>();
        let mut size = largest
            .to_f64()
            .max(span.amax().to_f64() / MAX_CELLS.powf(1.0 / D as f64))
            .max(f64::MIN_POSITIVE);
        while volume_cells(size) > MAX_CELLS {
            size *= 2.0;
        }
        let dims: [usize; D] =
            core::array::from_fn(|a| ((span[a].to_f64() / size).floor() as usize + 1).max(1));
        let total: usize = dims.iter().product();
        if self.cells.len() < total {
            self.cells.resize_with(total, Vec::new);
        }
        self.origin = core::array::from_fn(|a| bounds.min()[a]);
        let origin = self.origin;
        let cell_of = |x: T, a: usize| -> usize {
            let c = ((x - origin[a]).to_f64() / size).floor();
            (c.max(0.0) as usize).min(dims[a] - 1)
        };
        let index = |c: &[usize; D]| c.iter().zip(dims.iter()).rev().fold(0usize, |acc, (x, d)| acc * d + x);
        for (i, b) in boxes.iter().enumerate() {
            let lo: [usize; D] = core::array::from_fn(|a| cell_of(b.min()[a], a));
            let hi: [usize; D] = core::array::from_fn(|a| cell_of(b.max()[a], a));
            let cells = &mut self.cells;
            for_each_cell(lo, hi, |c| cells[index(&c)].push(i as u32));
        }
        for (k, members) in self.cells.iter().enumerate().take(total) {
            let owns = |bi: &Aabb<T, D>, bj: &Aabb<T, D>| {
                let corner: [usize; D] = core::array::from_fn(|a| cell_of(bi.min()[a].max(bj.min()[a]), a));
                index(&corner) == k
            };
            emit_cell_pairs(members, ids, boxes, owns, out);
        }
    }
}
