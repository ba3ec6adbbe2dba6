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
#[inline]
pub fn far_offset<'p, T: Real, const D: usize>(
    reference: &Point<T, D>,
    points: impl IntoIterator<Item = &'p Point<T, D>>,
    extra: T,
) -> Option<Vector<T, D>> {
    // Plain comparisons rather than nalgebra's `amax` and simba's NaN-aware `max`, and inlined
    // (the check runs on every box/box and segment/triangle query: with its call it was 44 of
    // a box pair's 595 instructions for a separated contact, 18 now). A NaN compares false
    // either way, as it did.
    let largest = |v: Vector<T, D>| {
        v.iter().fold(T::zero(), |m, x| {
            let a = x.abs();
            if a > m {
                a
            } else {
                m
            }
        })
    };
    let spread = points.into_iter().fold(T::zero(), |m, p| {
        let s = largest(p - reference);
        if s > m {
            s
        } else {
            m
        }
    });
    (largest(reference.coords) > spread + extra).then_some(reference.coords)
}
