//! Triangle/box and triangle/ball overlap (RTR 22.12).

use crate::query::closest::closest_point_on_triangle;
use crate::{Aabb, Ball, Obb, Point, Real, Triangle, Vector};

/// Triangle/AABB by the separating axis theorem over 13 axes (Akenine-Möller 2001, RTR 22.12):
/// the three box normals, the triangle normal, and the nine cross products of box axes with
/// triangle edges. The box normals are tested exactly, on the triangle's bounds in world
/// coordinates; for the others (edge axes and the triangle's normal) the box is moved to the
/// origin so each axis test is a projection of three points against a radius, grown by 16
/// ulps of the coordinates (the rounding of that move). Touching counts as overlap, and so
/// does a triangle within that rounding of touching: the answer errs towards overlap by a few
/// ulps, never away. O(1).
pub fn triangle_aabb<T: Real>(tri: &Triangle<T, 3>, aabb: &Aabb<T, 3>) -> bool {
    // 1. Box normals: the triangle's AABB against the box, compared in world coordinates so
    //    it is exact. In the centred frame below the box's bounds are rounded: a box from 1.27
    //    to 10³⁰ has its centre and half-width at 5·10²⁹, and a triangle at x = 0 came out
    //    "touching" it (found by the `cd-mid` hostile test).
    let (lo_box, hi_box) = (aabb.min(), aabb.max());
    let [a, b, c] = tri.vertices();
    //    (All three vertices beyond the same face; plain comparisons, where `min`/`max` would
    //    spend most of this test's common path on their NaN handling — a valid triangle has
    //    no NaN.)
    let beyond = (0..3).any(|i| {
        let above = (a[i] > hi_box[i]) & (b[i] > hi_box[i]) & (c[i] > hi_box[i]);
        let below = (a[i] < lo_box[i]) & (b[i] < lo_box[i]) & (c[i] < lo_box[i]);
        above | below
    });
    if beyond {
        return false;
    }
    //    A vertex in the (closed) box settles it the other way, exactly: the triangles a
    //    hierarchy hands over in a region query mostly have one (the region is larger than
    //    they are), and skip the thirteen axes below.
    let inside = |p: &Point<T, 3>| {
        (p[0] >= lo_box[0])
            & (p[0] <= hi_box[0])
            & (p[1] >= lo_box[1])
            & (p[1] <= hi_box[1])
            & (p[2] >= lo_box[2])
            & (p[2] <= hi_box[2])
    };
    if inside(&a) || inside(&b) || inside(&c) {
        return true;
    }
    let centre = aabb.center();
    let h = aabb.half_extents();
    let v0 = a - centre;
    let v1 = b - centre;
    let v2 = c - centre;
    // 2. The nine edge cross products a_i × e_j, written out (a_i is a unit axis, so the
    //    product has one zero component and the box radius needs two terms).
    //    These run in the box-centred frame, whose coordinates carry the rounding of the
    //    centre: a triangle touching the box exactly (a segment along one of its edges) can
    //    project an ulp beyond the radius, and was reported apart (fuzz finding 24). Touching
    //    to within that rounding counts, as the module's other tests do.
    let magnitude = [a, b, c].iter().fold(centre.coords.amax() + h.amax(), |m, p| m.max(p.coords.amax()));
    let rounding = T::epsilon() * T::lit(16.0) * magnitude;
    //    An axis across edge j is perpendicular to it, so the edge's two ends project to the
    //    same value up to the rounding of the edge vector (a few ulps of the coordinates,
    //    inside the slack): the edge's first end and the opposite vertex are the whole
    //    projected interval, two dot products per axis instead of three.
    let v = [v0, v1, v2];
    let edges = [v1 - v0, v2 - v1, v0 - v2];
    for (j, e) in edges.iter().enumerate() {
        let (end, opposite) = (&v[j], &v[(j + 2) % 3]);
        for i in 0..3 {
            let axis = unit_cross(i, e);
            let p_end = axis.dot(end);
            let p_opposite = axis.dot(opposite);
            let r = h[0] * axis[0].abs()
                + h[1] * axis[1].abs()
                + h[2] * axis[2].abs()
                + rounding * (axis[0].abs() + axis[1].abs() + axis[2].abs());
            if p_end.min(p_opposite) > r || p_end.max(p_opposite) < -r {
                return false;
            }
        }
    }
    // 3. The triangle's plane against the box (plane/box test, RTR 22.10.1). A triangle with
    //    collinear vertices has no plane: its "normal" is the rounding of the cross product
    //    (about ε|e₀||e₁|, which `edge_normal` refuses), pointing anywhere, and tested like a
    //    normal it separated a segment running through the box's centre (fuzz finding 17). The
    //    edge axes above are a complete separating-axis set for a segment, so it is done.
    let Some(n) = crate::directions::edge_normal(&edges[0], &edges[1]) else {
        return true;
    };
    // The same centred-frame rounding as the edge axes: a triangle lying in a face of the box
    // (the plane y = min y) came out an ulp beyond the radius (fuzz finding 27).
    let s = n.dot(&v0);
    let r = h[0] * n[0].abs()
        + h[1] * n[1].abs()
        + h[2] * n[2].abs()
        + rounding * (n[0].abs() + n[1].abs() + n[2].abs());
    s.abs() <= r
}

/// `e_i × v` for the unit coordinate axis `e_i`.
#[inline(always)]
fn unit_cross<T: Real>(i: usize, v: &Vector<T, 3>) -> Vector<T, 3> {
    match i {
        0 => Vector::<T, 3>::new(T::zero(), -v.z, v.y),
        1 => Vector::<T, 3>::new(v.z, T::zero(), -v.x),
        _ => Vector::<T, 3>::new(-v.y, v.x, T::zero()),
    }
}

/// Triangle/OBB: the triangle is moved into the box frame and tested against the box's local
/// AABB with [`triangle_aabb`]. O(1).
pub fn triangle_obb<T: Real>(tri: &Triangle<T, 3>, obb: &Obb<T, 3>) -> bool {
    let [a, b, c] = tri.vertices().map(|p| obb.to_local(&p));
    // Box-frame coordinates may exceed the coordinate limit by up to a factor 2√3; the SAT
    // arithmetic has headroom for that, so no re-validation.
    let local = Triangle::new_unchecked(a, b, c);
    triangle_aabb(&local, &obb.local_aabb())
}

/// Triangle/ball: the closest point of the triangle to the centre is within the radius. Works
/// in 2D and 3D and for zero-area triangles. O(D).
pub fn triangle_ball<T: Real, const D: usize>(tri: &Triangle<T, D>, ball: &Ball<T, D>) -> bool {
    let (p, _, _) = closest_point_on_triangle(ball.center(), tri);
    (p - ball.center()).norm_squared() <= ball.radius() * ball.radius()
}
