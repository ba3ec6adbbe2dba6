//! Direction helpers: a unit vector perpendicular to a given one (shared by the layers), and the
//! unit normal of two edges that is more than rounding noise.

use crate::{Real, Vector};

/// A unit vector perpendicular to `d` (in any dimension ≥ 2), continuous in `d` away from the
/// switches between coordinate axes: the coordinate axis least aligned with `d`, with its
/// component along `d` removed. A zero (or NaN) `d` gives the first coordinate axis, so the
/// result is always a finite unit vector.
///
/// ```
/// use cd_geom::unit_perpendicular;
/// use nalgebra::Vector3;
///
/// let d = Vector3::new(0.3f64, -2.0, 0.7);
/// let p = unit_perpendicular(&d);
/// assert!(p.dot(&d).abs() < 1e-12 && (p.norm() - 1.0).abs() < 1e-12);
/// ```
pub fn unit_perpendicular<T: Real, const D: usize>(d: &Vector<T, D>) -> Vector<T, D> {
    let first_axis = || Vector::<T, D>::from_fn(|i, _| if i == 0 { T::one() } else { T::zero() });
    let k = d.iamin();
    let e = Vector::<T, D>::from_fn(|i, _| if i == k { T::one() } else { T::zero() });
    let p = e - d * (d.dot(&e) / d.norm_squared().max(T::lit(1e-30)));
    p.try_normalize(T::zero()).filter(|u| u.iter().all(|x| x.is_finite())).unwrap_or_else(first_axis)
}

/// The unit normal `e₀ × e₁ / |e₀ × e₁|`, or `None` when the edges are parallel to within
/// rounding: `|e₀ × e₁| ≤ 16 ε |e₀||e₁|`, where the cross product is noise pointing anywhere
/// (three collinear points whose coordinates round differently). Taken for a face normal, such
/// noise made a segment piercing a box look separated (fuzz finding 17).
///
/// ```
/// use cd_geom::edge_normal;
/// use nalgebra::Vector3;
///
/// assert_eq!(edge_normal(&Vector3::<f64>::x(), &Vector3::y()), Some(Vector3::z()));
/// // 0.1·3 ≠ 0.3 in floating point: these are parallel, their cross product is noise.
/// assert_eq!(edge_normal(&Vector3::new(0.1f64, 0.2, 0.3), &Vector3::new(0.3, 0.6, 0.9)), None);
/// ```
pub fn edge_normal<T: Real>(e0: &Vector<T, 3>, e1: &Vector<T, 3>) -> Option<Vector<T, 3>> {
    let n = e0.cross(e1);
    if cross_is_noise(n.norm_squared(), e0.norm_squared(), e1.norm_squared()) {
        return None;
    }
    crate::validate::unit(&n).ok()
}

/// The unit normal of triangle `(a, b, c)` with the orientation of `(b − a) × (c − a)`, or
/// `None` when its edges are parallel to within rounding ([`edge_normal`]).
///
/// The cross product of the edges at the widest angle ([`widest_angle_edges`]), then made
/// exactly perpendicular to the longest edge. On an obtuse sliver the widest angle is near
/// 180° and the cross product tilts by ε/sin of it in any direction — in `f32` by 10⁻² rad
/// towards the long edge on a unit sliver 10⁻⁶ wide, which moves the plane by 10⁻² at the far
/// end. The longest edge's own direction is known to ε, and the true normal is perpendicular
/// to it, so removing the component along it leaves only the turn about the long edge (which
/// moves the plane near the triangle by no more than the rounding of its coordinates).
pub fn triangle_normal<T: Real>(
    a: &Vector<T, 3>,
    b: &Vector<T, 3>,
    c: &Vector<T, 3>,
) -> Option<Vector<T, 3>> {
    let (e0, e1) = widest_angle_edges(a, b, c);
    let n = edge_normal(&e0, &e1)?;
    // The edges at the widest angle are the two shortest: the longest is the third, e₀ + e₁
    // reversed (its sign does not matter here).
    let longest = (e0 + e1).try_normalize(T::zero())?;
    (n - longest * longest.dot(&n)).try_normalize(T::zero())
}

/// The two edges of triangle `(a, b, c)` meeting at its widest angle — at the vertex opposite
/// the longest edge — ordered so that `e₀ × e₁` has the orientation of `(b − a) × (c − a)`.
/// Their cross product is the most accurate normal direction of the three vertex choices: its
/// rounding grows like ε / sin of the angle between the crossed edges, and on a sliver the
/// sharp vertices' products can tilt the normal far enough to matter (fuzz findings 19, 20).
///
/// ```
/// use cd_geom::widest_angle_edges;
/// use nalgebra::Vector3;
///
/// let (a, b, c) = (Vector3::new(0.0f64, 0.0, 0.0), Vector3::new(4.0, 0.0, 0.0), Vector3::new(1.0, 1.0, 0.0));
/// let (e0, e1) = widest_angle_edges(&a, &b, &c);
/// // The widest angle is at c (opposite the longest edge ab); same orientation as (b−a)×(c−a).
/// assert_eq!(e0.cross(&e1).z.signum(), (b - a).cross(&(c - a)).z.signum());
/// assert_eq!((e0, e1), (c - b, a - c));
/// ```
#[inline]
pub fn widest_angle_edges<T: Real>(
    a: &Vector<T, 3>,
    b: &Vector<T, 3>,
    c: &Vector<T, 3>,
) -> (Vector<T, 3>, Vector<T, 3>) {
    let edges = [b - a, c - b, a - c];
    let k = widest_angle_vertex(edges[0].norm_squared(), edges[1].norm_squared(), edges[2].norm_squared());
    // Each pair is (edge into the vertex, edge out of it) in the triangle's order, so every
    // choice gives the same orientation as (b − a) × (c − a): (bc, ca) at c, (ca, ab) at a,
    // (ab, bc) at b. Picked by index rather than by a match: which vertex is widest is as good
    // as random in a hull's fan of new faces, and the branches mispredicted on it.
    (edges[[2, 0, 1][k]], edges[k])
}

/// The vertex of triangle `(a, b, c)` at its widest angle, opposite its longest edge, from the
/// squared lengths of the edges `ab`, `bc` and `ca`: 0 for `a`, 1 for `b`, 2 for `c` (ties go
/// to `c`, then `a`). The one rule of [`widest_angle_edges`] and of Möller–Trumbore's base
/// vertex.
#[inline]
pub(crate) fn widest_angle_vertex<T: Real>(ab: T, bc: T, ca: T) -> usize {
    // Comparisons combined without short-circuits, so the choice compiles to selects.
    let at_c = (ab >= bc) & (ab >= ca);
    let at_a = bc >= ca;
    if at_c {
        2
    } else {
        usize::from(!at_a)
    }
}

/// Whether a cross product of squared norm `cross_sq` of two edges of squared lengths `e0_sq`
/// and `e1_sq` is rounding noise: `|e₀ × e₁| ≤ 16 ε |e₀||e₁|`, compared squared (no root).
/// The one threshold of [`edge_normal`], `Triangle::normal` and every "are these vertices
/// collinear" test of the crate.
#[inline]
pub(crate) fn cross_is_noise<T: Real>(cross_sq: T, e0_sq: T, e1_sq: T) -> bool {
    let k = T::lit(16.0) * T::epsilon();
    cross_sq <= k * k * e0_sq * e1_sq
}
