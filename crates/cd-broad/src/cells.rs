//! Integer cell ranges and per-cell pair emission shared by the grid strategies.

use crate::proxies::{overlaps, pair, ProxyId};
use crate::Pair;
use cd_geom::{Aabb, Real};

/// The cell coordinate of `x` for cells of edge `size`: `⌊x / size⌋`, saturated to the `i64`
/// range (so the map stays monotone for any input; NaN maps to 0). Floor without libm's
/// `floor`, a call on baseline x86-64 (a tenth of the loose octree's frame): truncate, then
/// step down below zero.
#[inline]
pub(crate) fn cell_index<T: Real>(x: T, size: T) -> i64 {
    let q = (x / size).to_f64();
    let t = q as i64;
    t.saturating_sub(((t as f64) > q) as i64)
}

/// Calls `f` for every cell of the inclusive range `lo..=hi` (an odometer over `D` axes).
#[inline]
pub(crate) fn for_each_cell<C: Copy + PartialOrd + core::ops::AddAssign + From<u8>, const D: usize>(
    lo: [C; D],
    hi: [C; D],
    mut f: impl FnMut([C; D]),
) {
    let mut cur = lo;
    loop {
        f(cur);
        let mut a = 0;
        while a < D {
            if cur[a] < hi[a] {
                cur[a] += C::from(1u8);
                break;
            }
            cur[a] = lo[a];
            a += 1;
        }
        if a == D {
            return;
        }
    }
}

/// Appends the overlapping pairs among the boxes of one cell. A pair sharing several cells is
/// reported only by the cell that `owns` it (the caller's rule: the cell holding the lower corner
/// of the two boxes' intersection), so no pair comes out twice.
pub(crate) fn emit_cell_pairs<T: Real, const D: usize>(
    members: &[u32],
    ids: &[ProxyId],
    boxes: &[Aabb<T, D>],
    owns: impl Fn(&Aabb<T, D>, &Aabb<T, D>) -> bool,
    out: &mut Vec<Pair>,
) {
    for x in 0..members.len() {
        for &j in &members[x + 1..] {
            let (i, j) = (members[x] as usize, j as usize);
            let (bi, bj) = (&boxes[i], &boxes[j]);
            if overlaps(bi, bj) && owns(bi, bj) {
                out.push(pair(ids[i], ids[j]));
            }
        }
    }
}
