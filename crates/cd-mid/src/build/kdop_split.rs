//! The k-DOP tree's splitting rules (Klosowski, Held, Mitchell, Sowizral and Zikan 1998): a
//! node is cut across one coordinate axis at the mean of its primitives' centres; the rules
//! differ in which axis they pick.
//!
//! - **min-sum**: the axis whose cut gives the smallest sum of the two children's volumes;
//! - **min-max**: the axis whose cut gives the smallest larger child volume;
//! - **splatter**: the axis along which the centres vary most;
//! - **longest side**: the axis along which the node's box is longest.
//!
//! Children's volumes are measured on their boxes (a DOP's axis slabs), extents padded by a
//! thousandth of the node's size so flat children still compare.

use super::PrimRef;
use cd_geom::{Point, Real};

/// How the k-DOP tree picks its splitting axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SplitRule {
    /// Minimise the sum of the children's volumes.
    MinSum,
    /// Minimise the larger child's volume.
    MinMax,
    /// The axis of largest variance of the centres.
    Splatter,
    /// The longest side of the node's box.
    LongestSide,
}

impl SplitRule {
    /// Every rule.
    pub const ALL: [SplitRule; 4] =
        [SplitRule::MinSum, SplitRule::MinMax, SplitRule::Splatter, SplitRule::LongestSide];

    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            SplitRule::MinSum => "min-sum",
            SplitRule::MinMax => "min-max",
            SplitRule::Splatter => "splatter",
            SplitRule::LongestSide => "longest-side",
        }
    }
}

/// Mean of the centres along each axis.
fn means<T: Real, const D: usize>(refs: &[PrimRef<T, D>]) -> [T; D] {
    let n = T::lit(refs.len() as f64);
    let mut m = [T::zero(); D];
    for r in refs {
        let c = r.centroid();
        for (i, mi) in m.iter_mut().enumerate() {
            *mi += c[i];
        }
    }
    m.map(|x| x / n)
}

/// Volumes of the two sides of the cut `centre[axis] < mean`, or `None` when one side is empty.
fn side_volumes<T: Real, const D: usize>(
    refs: &[PrimRef<T, D>],
    axis: usize,
    mean: T,
    pad: T,
) -> Option<(T, T)> {
    let empty =
        || (Point::<T, D>::from([T::infinity(); D]), Point::<T, D>::from([-T::infinity(); D]), 0usize);
    let (mut l, mut r) = (empty(), empty());
    for p in refs {
        let side = if p.centroid()[axis] < mean { &mut l } else { &mut r };
        side.0 = super::min_point(&side.0, &p.lo);
        side.1 = super::max_point(&side.1, &p.hi);
        side.2 += 1;
    }
    if l.2 == 0 || r.2 == 0 {
        return None;
    }
    let vol =
        |b: &(Point<T, D>, Point<T, D>, usize)| (0..D).fold(T::one(), |v, i| v * (b.1[i] - b.0[i] + pad));
    Some((vol(&l), vol(&r)))
}

/// Partitions `refs` by `rule` and returns the size of the left part (0 when no axis separates
/// the centres; the driver then splits at the middle).
pub(crate) fn split<T: Real, const D: usize>(rule: SplitRule, refs: &mut [PrimRef<T, D>]) -> usize {
    let mean = means(refs);
    let mut lo = refs[0].lo;
    let mut hi = refs[0].hi;
    for r in refs.iter() {
        lo = super::min_point(&lo, &r.lo);
        hi = super::max_point(&hi, &r.hi);
    }
    let pad = (hi - lo).amax() * T::lit(1e-3);
    // Axes in order of preference; a rule that leaves one side empty falls to the next axis.
    let mut score: [(T, usize); D] = core::array::from_fn(|axis| (T::zero(), axis));
    for (axis, s) in score.iter_mut().enumerate() {
        s.0 = match rule {
            SplitRule::LongestSide => -(hi[axis] - lo[axis]),
            SplitRule::Splatter => {
                let var = refs.iter().fold(T::zero(), |v, r| {
                    let d = r.centroid()[axis] - mean[axis];
                    v + d * d
                });
                -var
            }
            SplitRule::MinSum | SplitRule::MinMax => match side_volumes(refs, axis, mean[axis], pad) {
                Some((a, b)) if rule == SplitRule::MinSum => a + b,
                Some((a, b)) => a.max(b),
                None => T::infinity(),
            },
        };
    }
    score.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(core::cmp::Ordering::Equal));
    for &(_, axis) in &score {
        let m = mean[axis];
        let i = super::partition(refs, |r| r.centroid()[axis] < m);
        if i > 0 && i < refs.len() {
            return i;
        }
    }
    0
}
