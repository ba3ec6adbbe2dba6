//! Integer cell ranges shared by the grid strategies.

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
