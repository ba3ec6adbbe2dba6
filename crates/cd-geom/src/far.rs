//! Queries far from the origin: the offset to work relative to.
//!
//! Tolerances in ulps (or √ε) of the coordinates grow with the coordinates, and for a small
//! pair far from the origin they outgrow the pair's own details: in `f32` at 10⁵, triangle
//! pairs 0.06 apart were decided wrong and a linear cast let boxes pass through each other.
//! The queries that measure slack that way move the pair to a point of it, work there, where
//! differences are exact and every slack is as small as the pair, and move the answer back.
//! Near the origin (within the pair's own reach of it) moving gains at most a factor of two,
//! and they stay where they are.

use crate::{Point, Real, Vector};

/// The offset a query on shapes around `reference` should work relative to: `reference`
/// itself when it lies farther from the origin (largest coordinate) than the shapes reach
/// around it, `points` plus `extra` (a radius, a step's displacement), else `None`.
pub fn far_offset<'p, T: Real, const D: usize>(
    reference: &Point<T, D>,
    points: impl IntoIterator<Item = &'p Point<T, D>>,
    extra: T,
) -> Option<Vector<T, D>> {
    let spread = points.into_iter().fold(T::zero(), |m, p| m.max((p - reference).amax()));
    (reference.coords.amax() > spread + extra).then_some(reference.coords)
}
