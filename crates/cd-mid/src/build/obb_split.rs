//! Gottschalk, Lin and Manocha's OBB-tree split (1996): fit an OBB to the node's primitives
//! (PCA), cut across its longest axis at the mean of the primitives' centroids; when every
//! centroid falls on one side, try the next longest axis.

use super::PrimRef;
use crate::primitives::Primitives;
use cd_geom::{Point, Real};

/// Partitions `refs` for the OBB split and returns the size of the left part (0 when no axis
/// separates the centroids; the driver then splits at the middle).
pub(crate) fn split<T: Real, const D: usize, P: Primitives<T, D> + ?Sized>(
    prims: &P,
    refs: &mut [PrimRef<T, D>],
    scratch: &mut Vec<Point<T, D>>,
) -> usize {
    scratch.clear();
    for r in refs.iter() {
        prims.points(r.index as usize, scratch);
    }
    let Ok(obb) = cd_bv::obb_pca(scratch) else { return 0 };
    let mut axes: [usize; D] = core::array::from_fn(|i| i);
    axes.sort_by(|&a, &b| {
        obb.half_extents()[b].partial_cmp(&obb.half_extents()[a]).unwrap_or(core::cmp::Ordering::Equal)
    });
    let n = T::lit(refs.len() as f64);
    for &k in &axes {
        let axis = obb.axis(k);
        let mean = refs.iter().fold(T::zero(), |s, r| s + axis.dot(&r.centroid().coords)) / n;
        let i = super::partition(refs, |r| axis.dot(&r.centroid().coords) < mean);
        if i > 0 && i < refs.len() {
            return i;
        }
    }
    0
}
