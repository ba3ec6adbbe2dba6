//! MPR, Minkowski portal refinement (Snethen, "XenoCollide", Game Programming Gems 7, 2008): a
//! boolean test and a penetration estimate for two convex support maps in 3D, as an
//! alternative to GJK + EPA.
//!
//! MPR starts from an interior point `v0` of A − B (the difference of the shapes' centres) and
//! looks for the origin along the ray from `v0` through it. Phase 1 finds a *portal*, a
//! triangle of support points that the ray crosses; phase 2 replaces one portal vertex at a
//! time by the support point along the portal's normal until either the origin is behind the
//! portal (overlap: the tetrahedron `v0` + portal contains it) or the support plane does not
//! reach the origin (separated). Each step is one support call and a few cross products, with
//! no polytope to maintain, which is why MPR is fast.
//!
//! The penetration it reports is measured along the ray from `v0` through the origin, refined
//! until the portal stops moving: exact for spheres and whenever the minimum translation is
//! along the centre line, otherwise an upper bound on the true depth (EPA's is the minimum).
//! The benchmarks and `tests/mpr.rs` measure both its speed and this error.
//!
//! A portal can collapse to a sliver whose normal is rounding noise: a box 10¹⁴ long seen
//! across its axis has support points at its two ends only, and the portal's vertices then lie
//! on one line to within a few ulps. The side of such a portal the origin is on means nothing,
//! so MPR hands the pair to GJK (and EPA for the depth) instead of answering from noise.

use cd_geom::{Contact, ContactStatus, Point, Real, SupportMap, Vector};

use crate::convex::{convex_contact, convex_intersects, ConvexConfig};
use crate::gjk::{GjkCache, GjkConfig, Intersection};
use crate::simplex::SimplexVertex;

/// Tolerance and iteration cap of MPR.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MprConfig<T> {
    /// Maximal number of portal refinements.
    pub max_iterations: u32,
    /// Refinement stops when the support point along the portal normal is no more than
    /// `tolerance · size` beyond the portal (`size`: the largest support point norm seen).
    pub tolerance: T,
}

impl<T: Real> Default for MprConfig<T> {
    /// 128 refinements, tolerance `ε^(2/3)` relative, as EPA's.
    fn default() -> Self {
        Self { max_iterations: 128, tolerance: T::epsilon().powf(T::lit(2.0 / 3.0)) }
    }
}

/// Outcome of the portal search.
enum Portal<T: Real> {
    /// Separated (a support plane excludes the origin).
    Separated,
    /// The origin is on the segment `v0`–`v1`: overlapping, depth measured on that line.
    OnAxis(SimplexVertex<T, 3>, SimplexVertex<T, 3>),
    /// A portal `[v1, v2, v3]` crossed by the ray from `v0` through the origin.
    Found([SimplexVertex<T, 3>; 4]),
}

#[inline]
fn cross<T: Real>(a: &Vector<T, 3>, b: &Vector<T, 3>) -> Vector<T, 3> {
    a.cross(b)
}

/// MPR boolean test: do A and B overlap (or touch)? `centre_a` and `centre_b` must be interior
/// points of the shapes (their centres for symmetric shapes); a boundary point still works but
/// makes the search slower.
pub fn mpr_intersects<T, A, B>(
    a: &A,
    centre_a: &Point<T, 3>,
    b: &B,
    centre_b: &Point<T, 3>,
    config: &MprConfig<T>,
) -> bool
where
    T: Real,
    A: SupportMap<T, 3> + ?Sized,
    B: SupportMap<T, 3> + ?Sized,
{
    match discover(a, centre_a, b, centre_b, config) {
        Portal::Separated => false,
        Portal::OnAxis(_, _) => true,
        Portal::Found(mut p) => match refine(a, b, &mut p, config) {
            Refined::Inside => true,
            Refined::Outside => false,
            Refined::Degenerate => !matches!(
                convex_intersects(
                    a,
                    T::zero(),
                    b,
                    T::zero(),
                    &GjkConfig::default(),
                    &mut GjkCache::default()
                ),
                Intersection::Separated { .. }
            ),
        },
    }
}

/// MPR penetration: `None` when separated, otherwise the contact measured along the centre
/// line (see the module documentation for how it relates to the minimum translation).
pub fn mpr_contact<T, A, B>(
    a: &A,
    centre_a: &Point<T, 3>,
    b: &B,
    centre_b: &Point<T, 3>,
    config: &MprConfig<T>,
) -> Option<Contact<T, 3>>
where
    T: Real,
    A: SupportMap<T, 3> + ?Sized,
    B: SupportMap<T, 3> + ?Sized,
{
    match discover(a, centre_a, b, centre_b, config) {
        Portal::Separated => None,
        Portal::OnAxis(v0, v1) => Some(on_axis_contact(&v0, &v1)),
        Portal::Found(mut p) => match refine(a, b, &mut p, config) {
            Refined::Inside => Some(penetration(a, b, &mut p, config)),
            Refined::Outside => None,
            Refined::Degenerate => {
                let c = convex_contact(
                    a,
                    T::zero(),
                    b,
                    T::zero(),
                    &ConvexConfig::default(),
                    &mut GjkCache::default(),
                );
                (c.distance <= T::zero()).then_some(c)
            }
        },
    }
}

/// The support vertex of A − B along `d`.
#[inline]
fn support<T, A, B>(a: &A, b: &B, d: &Vector<T, 3>) -> SimplexVertex<T, 3>
where
    T: Real,
    A: SupportMap<T, 3> + ?Sized,
    B: SupportMap<T, 3> + ?Sized,
{
    SimplexVertex::new(a.support(d), b.support(&-d))
}

/// Phase 1: a portal the origin ray crosses, or a proof of separation.
fn discover<T, A, B>(a: &A, ca: &Point<T, 3>, b: &B, cb: &Point<T, 3>, config: &MprConfig<T>) -> Portal<T>
where
    T: Real,
    A: SupportMap<T, 3> + ?Sized,
    B: SupportMap<T, 3> + ?Sized,
{
    let mut v0 = SimplexVertex::new(*ca, *cb);
    let scale = ca.coords.amax().max(cb.coords.amax()).max(T::one());
    if v0.w.norm_squared() <= (T::epsilon() * scale) * (T::epsilon() * scale) {
        // Coincident centres: any nearby interior point works; nudge along x.
        v0.w = Vector::x() * (T::epsilon().sqrt() * scale);
    }
    let mut dir = -v0.w;
    let v1 = support(a, b, &dir);
    if v1.w.dot(&dir) <= T::zero() {
        return Portal::Separated;
    }
    dir = cross(&v1.w, &v0.w);
    if dir.norm_squared() <= T::epsilon() * T::epsilon() * v1.w.norm_squared() * v0.w.norm_squared() {
        // The origin is on the line v0–v1, and v1 is beyond it: overlapping.
        return Portal::OnAxis(v0, v1);
    }
    let mut v2 = support(a, b, &dir);
    if v2.w.dot(&dir) <= T::zero() {
        return Portal::Separated;
    }
    let mut v1 = v1;
    dir = cross(&(v1.w - v0.w), &(v2.w - v0.w));
    if dir.dot(&v0.w) > T::zero() {
        core::mem::swap(&mut v1, &mut v2);
        dir = -dir;
    }
    for _ in 0..config.max_iterations {
        let v3 = support(a, b, &dir);
        if v3.w.dot(&dir) <= T::zero() {
            return Portal::Separated;
        }
        // Is the origin outside the portal's side planes through v0? Then swap a vertex out.
        if cross(&v1.w, &v3.w).dot(&v0.w) < T::zero() {
            v2 = v3;
        } else if cross(&v3.w, &v2.w).dot(&v0.w) < T::zero() {
            v1 = v3;
        } else {
            return Portal::Found([v0, v1, v2, v3]);
        }
        dir = cross(&(v1.w - v0.w), &(v2.w - v0.w));
    }
    // Each step moves a portal vertex to a support point strictly closer to the origin ray, so
    // the cap is not reached for convex inputs; if rounding made it happen, no portal was
    // found and no overlap was proven.
    Portal::Separated
}

/// The outward normal of the portal `[v1, v2, v3]` (not normalized).
#[inline]
fn portal_normal<T: Real>(p: &[SimplexVertex<T, 3>; 4]) -> Vector<T, 3> {
    cross(&(p[2].w - p[1].w), &(p[3].w - p[1].w))
}

/// Replaces one portal vertex by `v4` so the new portal is still crossed by the origin ray.
fn expand<T: Real>(p: &mut [SimplexVertex<T, 3>; 4], v4: SimplexVertex<T, 3>) {
    let c = cross(&v4.w, &p[0].w);
    if p[1].w.dot(&c) > T::zero() {
        if p[2].w.dot(&c) > T::zero() {
            p[1] = v4;
        } else {
            p[3] = v4;
        }
    } else if p[3].w.dot(&c) > T::zero() {
        p[2] = v4;
    } else {
        p[1] = v4;
    }
}

/// How phase 2 ended.
enum Refined {
    /// The origin is behind the portal: overlap.
    Inside,
    /// A support plane excludes the origin, or the portal reached the boundary in front of it.
    Outside,
    /// The portal collapsed to a sliver whose normal is rounding noise.
    Degenerate,
}

/// Whether the portal's normal is too small, against its edges, to have a meaningful direction:
/// `|e₁ × e₂| ≤ 10³ ε |e₁| |e₂|` (the cross product's rounding is about `ε |e₁| |e₂|`).
fn degenerate<T: Real>(p: &[SimplexVertex<T, 3>; 4], n: &Vector<T, 3>) -> bool {
    let (e1, e2) = (p[2].w - p[1].w, p[3].w - p[1].w);
    n.norm() <= T::lit(1e3) * T::epsilon() * e1.norm() * e2.norm()
}

/// Phase 2: refine until the origin is inside or proven outside.
fn refine<T, A, B>(a: &A, b: &B, p: &mut [SimplexVertex<T, 3>; 4], config: &MprConfig<T>) -> Refined
where
    T: Real,
    A: SupportMap<T, 3> + ?Sized,
    B: SupportMap<T, 3> + ?Sized,
{
    for _ in 0..config.max_iterations {
        let n = portal_normal(p);
        if degenerate(p, &n) {
            return Refined::Degenerate;
        }
        if n.dot(&p[1].w) >= T::zero() {
            return Refined::Inside;
        }
        let v4 = support(a, b, &n);
        if v4.w.dot(&n) <= T::zero() {
            return Refined::Outside;
        }
        if reached(p, &v4, &n, config) {
            // The portal cannot move further and the origin is still in front of it.
            return Refined::Outside;
        }
        expand(p, v4);
    }
    Refined::Outside
}

/// Whether the support point `v4` along the portal normal `n` is no farther out than the
/// portal itself (to the tolerance): the portal is on the boundary of A − B.
fn reached<T: Real>(
    p: &[SimplexVertex<T, 3>; 4],
    v4: &SimplexVertex<T, 3>,
    n: &Vector<T, 3>,
    config: &MprConfig<T>,
) -> bool {
    let size = v4.w.norm().max(p[1].w.norm());
    let reach = [p[1], p[2], p[3]].iter().map(|v| (v4.w - v.w).dot(n)).fold(T::infinity(), |m, x| m.min(x));
    reach <= config.tolerance * size * n.norm()
}

/// Pushes the portal out to the boundary of A − B along the origin ray and reads the depth.
fn penetration<T, A, B>(
    a: &A,
    b: &B,
    p: &mut [SimplexVertex<T, 3>; 4],
    config: &MprConfig<T>,
) -> Contact<T, 3>
where
    T: Real,
    A: SupportMap<T, 3> + ?Sized,
    B: SupportMap<T, 3> + ?Sized,
{
    let mut status = ContactStatus::IterationCap;
    for _ in 0..config.max_iterations {
        let n = portal_normal(p);
        let v4 = support(a, b, &n);
        if reached(p, &v4, &n, config) {
            status = ContactStatus::Converged;
            break;
        }
        expand(p, v4);
    }
    portal_contact(p, status)
}

/// The contact from the final portal: the origin's projection on its plane gives the normal,
/// the depth and (through barycentric weights) the witness point on A.
fn portal_contact<T: Real>(p: &[SimplexVertex<T, 3>; 4], status: ContactStatus) -> Contact<T, 3> {
    let n = portal_normal(p);
    let Some(unit) = n.try_normalize(T::zero()) else {
        return on_axis_contact(&p[0], &p[1]);
    };
    let depth = unit.dot(&p[1].w).max(T::zero());
    let q = unit * depth;
    let area = |x: &Vector<T, 3>, y: &Vector<T, 3>| unit.dot(&cross(&(x - q), &(y - q))).max(T::zero());
    let mut l = [area(&p[2].w, &p[3].w), area(&p[3].w, &p[1].w), area(&p[1].w, &p[2].w)];
    let sum = l[0] + l[1] + l[2];
    if sum > T::zero() {
        l.iter_mut().for_each(|x| *x /= sum);
    } else {
        l = [T::one(), T::zero(), T::zero()];
    }
    let point_a: Point<T, 3> = (1..4).fold(Vector::zeros(), |acc, i| acc + p[i].a.coords * l[i - 1]).into();
    // The projection may fall outside the portal (the portal is crossed by the centre ray, not
    // necessarily by the normal through the origin): B's witness is placed so that the
    // contact is consistent, `point_b − point_a = distance · normal`.
    Contact { point_a, point_b: point_a - unit * depth, normal: unit, distance: -depth, status }
}

/// The contact when the origin lies on the segment `v0`–`v1` (v1 a support point along the
/// centre line): depth `|v1|` along `v1`.
fn on_axis_contact<T: Real>(v0: &SimplexVertex<T, 3>, v1: &SimplexVertex<T, 3>) -> Contact<T, 3> {
    let depth = v1.w.norm();
    let normal =
        v1.w.try_normalize(T::zero()).or_else(|| (-v0.w).try_normalize(T::zero())).unwrap_or_else(Vector::x);
    Contact { point_a: v1.a, point_b: v1.b, normal, distance: -depth, status: ContactStatus::Converged }
}
