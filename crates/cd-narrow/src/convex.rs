//! GJK and EPA put together for two convex shapes, each a support-mapped core plus a radius
//! (a ball is a point plus its radius, a capsule a segment plus its radius, a rounded box a box
//! plus its rounding): the answer is one [`Contact`].
//!
//! Running GJK on the cores and subtracting the radii is both faster (the cores are polytopes
//! or points, on which GJK terminates in a few iterations, where the rounded shapes make it
//! converge only linearly) and more accurate (the radius is added exactly). EPA is only needed
//! when the cores themselves overlap.

use cd_geom::{Contact, Real, SupportMap};

use crate::epa::{epa, EpaConfig};
use crate::gjk::{
    gjk_distance, gjk_distance_within, gjk_intersects, GjkCache, GjkConfig, GjkResult, GjkStatus,
    Intersection,
};

/// Configuration of the GJK + EPA pipeline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConvexConfig<T> {
    /// GJK tolerances.
    pub gjk: GjkConfig<T>,
    /// EPA tolerances.
    pub epa: EpaConfig<T>,
}

impl<T: Real> Default for ConvexConfig<T> {
    fn default() -> Self {
        Self { gjk: GjkConfig::default(), epa: EpaConfig::default() }
    }
}

/// The contact between A (`core_a` grown by `radius_a`) and B (`core_b` grown by
/// `radius_b`), separated or penetrating; see [`Contact`] for the conventions.
///
/// Radii must be non-negative and finite (the callers' shapes validated them).
///
/// ```
/// use cd_geom::Segment;
/// use cd_narrow::{convex_contact, ConvexConfig, GjkCache};
/// use nalgebra::Point3;
///
/// // Two capsules of radius 0.5 whose axes are 0.8 apart: 0.2 deep.
/// let a = Segment::new(Point3::new(-1.0f64, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0)).unwrap();
/// let b = Segment::new(Point3::new(0.0, -1.0, 0.8), Point3::new(0.0, 1.0, 0.8)).unwrap();
/// let c = convex_contact(&a, 0.5, &b, 0.5, &ConvexConfig::default(), &mut GjkCache::default());
/// assert!((c.distance + 0.2).abs() < 1e-9);
/// assert!((c.normal.z - 1.0).abs() < 1e-9);
/// ```
pub fn convex_contact<T, const D: usize, A, B>(
    core_a: &A,
    radius_a: T,
    core_b: &B,
    radius_b: T,
    config: &ConvexConfig<T>,
    cache: &mut GjkCache<T, D>,
) -> Contact<T, D>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    let g = gjk_distance(core_a, core_b, &config.gjk, cache);
    if g.status == GjkStatus::Stalled {
        if let Some(c) = reversed(core_a, radius_a, core_b, radius_b, None, config) {
            return c;
        }
    }
    finish(core_a, radius_a, core_b, radius_b, &g, config)
}

/// The answer for (B, A), mirrored, when GJK on (A, B) stalled and GJK on (B, A) does not.
///
/// A stall comes from one ill-conditioned simplex; B − A is A − B mirrored, so GJK visits
/// different support points and simplices there, and on the inputs that stall (slivers of
/// shapes with aspect ratios near 1/ε) the other order usually converges. Rare, so its cost
/// does not matter; when both orders stall the caller keeps its `Unresolved` answer.
fn reversed<T, const D: usize, A, B>(
    core_a: &A,
    radius_a: T,
    core_b: &B,
    radius_b: T,
    within: Option<T>,
    config: &ConvexConfig<T>,
) -> Option<Contact<T, D>>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    let mut cache = GjkCache::default();
    let g = match within {
        Some(limit) => gjk_distance_within(core_b, core_a, limit, &config.gjk, &mut cache)?,
        None => gjk_distance(core_b, core_a, &config.gjk, &mut cache),
    };
    (g.status != GjkStatus::Stalled).then(|| finish(core_b, radius_b, core_a, radius_a, &g, config).flipped())
}

/// [`convex_contact`] restricted to contacts within `prediction`: `None` as soon as GJK proves
/// the shapes farther apart, which on separated pairs costs a fraction of the full distance.
pub fn convex_contact_within<T, const D: usize, A, B>(
    core_a: &A,
    radius_a: T,
    core_b: &B,
    radius_b: T,
    prediction: T,
    config: &ConvexConfig<T>,
    cache: &mut GjkCache<T, D>,
) -> Option<Contact<T, D>>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    let limit = prediction + radius_a + radius_b;
    let g = gjk_distance_within(core_a, core_b, limit, &config.gjk, cache)?;
    let c = match g.status {
        GjkStatus::Stalled => reversed(core_a, radius_a, core_b, radius_b, Some(limit), config)
            .unwrap_or_else(|| finish(core_a, radius_a, core_b, radius_b, &g, config)),
        _ => finish(core_a, radius_a, core_b, radius_b, &g, config),
    };
    (c.distance <= prediction).then_some(c)
}

/// [`convex_contact_within`] for a finite `prediction`, [`convex_contact`] (the distance,
/// however far) for an infinite one: the contact the dispatchers' queries want from GJK + EPA.
pub(crate) fn convex_contact_up_to<T, const D: usize, A, B>(
    core_a: &A,
    radius_a: T,
    core_b: &B,
    radius_b: T,
    prediction: T,
    cache: &mut GjkCache<T, D>,
) -> Option<Contact<T, D>>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    let config = ConvexConfig::default();
    if prediction < T::infinity() {
        convex_contact_within(core_a, radius_a, core_b, radius_b, prediction, &config, cache)
    } else {
        Some(convex_contact(core_a, radius_a, core_b, radius_b, &config, cache))
    }
}

/// The contact from GJK's result: grown witness points when the cores are apart, EPA when
/// they overlap.
fn finish<T, const D: usize, A, B>(
    core_a: &A,
    radius_a: T,
    core_b: &B,
    radius_b: T,
    g: &GjkResult<T, D>,
    config: &ConvexConfig<T>,
) -> Contact<T, D>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    if let Some(c) = g.separated_contact(radius_a, radius_b) {
        return c;
    }
    let margins = radius_a + radius_b;
    let p = epa(core_a, core_b, &g.simplex, &config.epa);
    Contact {
        point_a: p.point_a + p.normal * radius_a,
        point_b: p.point_b - p.normal * radius_b,
        normal: p.normal,
        distance: -p.depth - margins,
        status: p.status,
    }
}

/// Whether A and B (cores grown by their radii) overlap or touch, with GJK's early exit on the
/// first separating axis. The iteration cap gives [`Intersection::Undecided`] with bounds on
/// the distance between the grown shapes, never a silent "separated".
pub fn convex_intersects<T, const D: usize, A, B>(
    core_a: &A,
    radius_a: T,
    core_b: &B,
    radius_b: T,
    config: &GjkConfig<T>,
    cache: &mut GjkCache<T, D>,
) -> Intersection<T, D>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    let margins = radius_a + radius_b;
    match gjk_intersects(core_a, core_b, margins, config, cache) {
        Intersection::Undecided { lower_bound, upper_bound } => Intersection::Undecided {
            lower_bound: (lower_bound - margins).max(T::zero()),
            upper_bound: (upper_bound - margins).max(T::zero()),
        },
        other => other,
    }
}

/// A SAT routine's contact from its clipped points, with SAT's depth `distance`, when those
/// points are apart along the normal by it (to √ε of the coordinates); otherwise GJK and EPA's
/// contact of the two shapes. Clipping degenerate features (a box of zero extent, a triangle
/// with two equal vertices) can keep no point, or points that do not touch: a flat box's
/// grazing contact paired two corners 5.6 apart, and a triangle's far end, 3.9 away, was
/// paired for a contact at distance 10⁻³⁰⁰ (FUZZING.md, findings 50 and 52).
pub(crate) fn clipped_or_gjk_epa<T, A, B>(
    clipped: Option<Contact<T, 3>>,
    distance: T,
    a: &A,
    b: &B,
) -> Contact<T, 3>
where
    T: Real,
    A: SupportMap<T, 3> + ?Sized,
    B: SupportMap<T, 3> + ?Sized,
{
    if let Some(mut c) = clipped {
        c.distance = distance;
        let off = (c.point_b - c.point_a - c.normal * c.distance).norm();
        if off <= T::epsilon().sqrt() * (T::one() + c.point_a.coords.amax().max(c.point_b.coords.amax())) {
            return c;
        }
    }
    convex_contact(a, T::zero(), b, T::zero(), &ConvexConfig::default(), &mut GjkCache::default())
}
