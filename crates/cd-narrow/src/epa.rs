//! EPA, the expanding polytope algorithm (van den Bergen 2001): penetration depth, normal and
//! witness points of two overlapping convex shapes, starting from GJK's terminal simplex.
//!
//! The polytope is a convex polygon (2D, module `epa2`) or a triangulated convex polyhedron
//! (3D, module `epa3`) whose vertices are support points of A − B and which contains the
//! origin. Each iteration takes the facet closest to the origin, asks for the support point
//! along its normal, and stops when that point is no farther than the facet (to a relative
//! tolerance): the facet is then on the boundary of A − B and its distance is the depth.
//! Otherwise the point is added, the facets it sees are removed and the hole is closed by
//! facets through the point.
//!
//! A rank-deficient start (GJK stopped on a point, segment or triangle because the shapes just
//! touch) is first grown into a full simplex with support points along directions orthogonal
//! to it; when A − B itself is flat in that direction the contact is a touching one and the
//! answer has depth 0 and [`ContactStatus::Degenerate`].

use cd_geom::{ContactStatus, Point, Real, SupportMap, Vector};

use crate::simplex::{Simplex, SimplexVertex};

/// Tolerance and iteration cap of EPA.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpaConfig<T> {
    /// Maximal number of expansions.
    pub max_iterations: u32,
    /// EPA stops when the support point along the closest facet's normal is no more than
    /// `tolerance · size` beyond the facet, `size` being the largest vertex norm of the start.
    pub tolerance: T,
}

impl<T: Real> Default for EpaConfig<T> {
    /// 512 expansions, tolerance `ε^(2/3)` (about 2.5e-5 in f32, 4e-11 in f64, relative to
    /// the size of A − B). Polytopes converge exactly whatever the tolerance (the support point
    /// lands on the face); curved shapes need about one expansion per halving of the error, and
    /// a tighter tolerance would make them hit the cap. The cap is generous because deep,
    /// nearly concentric overlaps of finely tessellated hulls need it: two 256-vertex spheres
    /// offset by 1 % of their radius take about 240 expansions to reach the exact depth.
    fn default() -> Self {
        Self { max_iterations: 512, tolerance: T::epsilon().powf(T::lit(2.0 / 3.0)) }
    }
}

/// The answer of [`epa`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Penetration<T: Real, const D: usize> {
    /// Penetration depth (≥ 0).
    pub depth: T,
    /// Unit normal from A towards B: translating B by `depth · normal` separates the shapes.
    pub normal: Vector<T, D>,
    /// The point of A deepest inside B.
    pub point_a: Point<T, D>,
    /// The point of B deepest inside A.
    pub point_b: Point<T, D>,
    /// Converged, iteration cap (depth is then a lower bound), or degenerate (flat A − B).
    pub status: ContactStatus,
    /// Number of expansions.
    pub iterations: u32,
}

/// Penetration depth of two overlapping shapes from the terminal simplex of GJK
/// ([`crate::GjkResult::simplex`]). Works in 2D and 3D; other dimensions give a degenerate
/// zero-depth answer.
///
/// ```
/// use cd_geom::Ball;
/// use cd_narrow::{epa, gjk_distance, EpaConfig, GjkCache, GjkConfig, GjkStatus};
/// use nalgebra::Point3;
///
/// let a = Ball::new(Point3::new(0.0f64, 0.0, 0.0), 1.0).unwrap();
/// let b = Ball::new(Point3::new(1.5, 0.0, 0.0), 1.0).unwrap();
/// let g = gjk_distance(&a, &b, &GjkConfig::default(), &mut GjkCache::default());
/// assert_eq!(g.status, GjkStatus::Intersecting);
/// let p = epa(&a, &b, &g.simplex, &EpaConfig::default());
/// assert!((p.depth - 0.5).abs() < 1e-3);
/// assert!((p.normal.x - 1.0).abs() < 1e-3);
/// ```
pub fn epa<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    simplex: &Simplex<T, D>,
    config: &EpaConfig<T>,
) -> Penetration<T, D>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    match D {
        2 => crate::epa2::epa2(a, b, simplex, config),
        3 => crate::epa3::epa3(a, b, simplex, config),
        _ => touching(simplex.vertices()[0], Vector::zeros(), ContactStatus::Degenerate, 0),
    }
}

/// The support vertex of A − B along `n` (farthest along `n`): GJK's support against `−n`,
/// without search hints (the start polytopes' few calls go in unrelated directions).
#[inline]
pub(crate) fn support_along<T, const D: usize, A, B>(a: &A, b: &B, n: &Vector<T, D>) -> SimplexVertex<T, D>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    crate::gjk::cso_support(a, b, &-n, &mut [0; 2])
}

/// [`support_along`] for a start polytope, growing the absolute tolerance `tol` to
/// `tolerance` times the largest support point seen: GJK's simplex alone can be the origin
/// (shapes touching at a vertex), which made the tolerance 10⁻⁴¹ and let rounding make a flat
/// A − B (two segments) look solid.
pub(crate) fn start_support<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    n: &Vector<T, D>,
    tolerance: T,
    tol: &mut T,
) -> SimplexVertex<T, D>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    let w = support_along(a, b, n);
    let scaled = scaled_tolerance(tolerance, w.w.norm_squared());
    *tol = if scaled > *tol { scaled } else { *tol };
    w
}

/// A zero-depth answer at the vertex `v` with normal `n`.
pub(crate) fn touching<T: Real, const D: usize>(
    v: SimplexVertex<T, D>,
    n: Vector<T, D>,
    status: ContactStatus,
    iterations: u32,
) -> Penetration<T, D> {
    Penetration { depth: T::zero(), normal: n, point_a: v.a, point_b: v.b, status, iterations }
}

/// The distinct vertices of a simplex (duplicates within `tol_sq` dropped), into `out`
/// (cleared first).
pub(crate) fn distinct_vertices<T: Real, const D: usize>(
    simplex: &Simplex<T, D>,
    tol_sq: T,
    out: &mut Vec<SimplexVertex<T, D>>,
) {
    out.clear();
    for v in simplex.vertices() {
        if out.iter().all(|u| (u.w - v.w).norm_squared() > tol_sq) {
            out.push(*v);
        }
    }
}

/// The absolute tolerance for a polytope whose start vertices have the given largest
/// squared norm: `tolerance · size`, never zero.
pub(crate) fn scaled_tolerance<T: Real>(tolerance: T, max_norm_sq: T) -> T {
    tolerance * max_norm_sq.sqrt().max(T::lit(1e-30))
}

/// `s` times the `k`-th coordinate axis (generic over the dimension, unlike `Vector::ith`).
#[inline]
pub(crate) fn axis<T: Real, const D: usize>(k: usize, s: T) -> Vector<T, D> {
    Vector::from_fn(|i, _| if i == k { s } else { T::zero() })
}
