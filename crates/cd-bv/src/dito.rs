//! DiTO: the ditetrahedron OBB of Larsson and Källberg 2011 ("Fast Computation of Tight-Fitting
//! Oriented Bounding Boxes", Game Engine Gems 2).

use crate::aabb::extremes;
use crate::obb::{fit, orthonormalize};
use crate::welzl::to64;
use cd_geom::{kdop_directions, GeomResult, Obb, Point, Real};
use nalgebra::{Matrix3, Vector3};

type V3 = Vector3<f64>;

/// The extent of `pts` along the unit direction `u`: largest minus smallest projection. Plain
/// comparisons, not `f64::min`/`max` (whose NaN handling cost a few instructions per point;
/// the extremal points are finite).
fn extent(pts: &[V3], u: &V3) -> f64 {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for p in pts {
        let s = u.dot(p);
        lo = if s < lo { s } else { lo };
        hi = if s > hi { s } else { hi };
    }
    hi - lo
}

/// DiTO with the `N` k-DOP normals (`N = 7` for DiTO-14, `N = 13` for DiTO-26):
///
/// 1. One pass: the extremal points along each normal (2N points) — all later steps work on
///    these few points only.
/// 2. The farthest pair of extremal points is the base line; the extremal point farthest from it
///    completes the base triangle.
/// 3. The extremal points farthest above and below the base triangle's plane make two
///    tetrahedra; with the base they give seven candidate triangles.
/// 4. For each triangle and each of its three edges, the axes (edge, normal × edge, normal)
///    are tried on the extremal points; the smallest surface area wins.
/// 5. A final pass fits the winning axes to all points; if the AABB has a smaller surface
///    area, it is returned instead.
///
/// O(n·N). Degenerate (flat, collinear) input falls back to the AABB where no triangle exists.
/// Errors: bad or empty input.
pub fn obb_dito<T: Real, const N: usize>(points: &[Point<T, 3>]) -> GeomResult<Obb<T, 3>> {
    // One validating pass in T: extremal points along the N normals (the first three are the
    // axes, so this also yields the AABB).
    let normals = kdop_directions::<T, 3, N>().ok_or(cd_geom::GeomError::UnsupportedDirectionSet)?;
    let (lo, lo_i, hi, hi_i) = extremes(points, &normals)?;
    let ext: Vec<V3> = lo_i.iter().chain(hi_i.iter()).map(|&i| to64(&points[i])).collect();
    let aabb_h = V3::new(
        (hi[0] - lo[0]).to_f64() * 0.5,
        (hi[1] - lo[1]).to_f64() * 0.5,
        (hi[2] - lo[2]).to_f64() * 0.5,
    );
    // The AABB as an OBB, straight from the axis extremes (no extra pass).
    let aabb_obb = || {
        let c = V3::new((hi[0] + lo[0]).to_f64(), (hi[1] + lo[1]).to_f64(), (hi[2] + lo[2]).to_f64()) * 0.5;
        let pad = 4.0 * T::epsilon().to_f64() * (c.amax() + aabb_h.amax()) + f64::MIN_POSITIVE;
        Obb::new(
            nalgebra::Point3::new(T::lit(c.x), T::lit(c.y), T::lit(c.z)),
            nalgebra::Matrix3::identity(),
            nalgebra::Vector3::new(T::lit(aabb_h.x + pad), T::lit(aabb_h.y + pad), T::lit(aabb_h.z + pad)),
        )
    };
    // Base line: the farthest pair among the extremal points (in pairs of the same normal, as
    // the paper does, then over all pairs for robustness: 2N ≤ 26 points).
    let (mut p0, mut p1, mut best) = (ext[0], ext[0], -1.0);
    for a in &ext {
        for b in &ext {
            let d = (a - b).norm_squared();
            if d > best {
                (p0, p1, best) = (*a, *b, d);
            }
        }
    }
    if best <= 0.0 {
        return aabb_obb();
    }
    let e0 = (p1 - p0).normalize();
    let line_dist = |q: &V3| (q - p0 - e0 * (q - p0).dot(&e0)).norm_squared();
    let p2 = *ext.iter().max_by(|a, b| line_dist(a).total_cmp(&line_dist(b))).unwrap_or(&p0);
    if line_dist(&p2) <= 1e-24 * best {
        // Collinear: any box with the line as an axis; take the AABB comparison below.
        return aabb_obb();
    }
    let n = (p1 - p0).cross(&(p2 - p0)).normalize();
    let (mut q_lo, mut q_hi) = (p0, p0);
    for q in &ext {
        if n.dot(q) < n.dot(&q_lo) {
            q_lo = *q;
        }
        if n.dot(q) > n.dot(&q_hi) {
            q_hi = *q;
        }
    }
    let mut tris = vec![[p0, p1, p2]];
    for q in [q_lo, q_hi] {
        if (n.dot(&q) - n.dot(&p0)).abs() > 0.0 {
            tris.extend([[p0, p1, q], [p1, p2, q], [p2, p0, q]]);
        }
    }
    let mut best_axes = (f64::INFINITY, Matrix3::identity());
    for t in &tris {
        let tn = (t[1] - t[0]).cross(&(t[2] - t[0]));
        if tn.norm_squared() <= 0.0 {
            continue;
        }
        let tn = tn.normalize();
        // The normal's extent is shared by the triangle's three edge frames.
        let z = extent(&ext, &tn);
        for k in 0..3 {
            let e = t[(k + 1) % 3] - t[k];
            if e.norm_squared() <= 0.0 {
                continue;
            }
            let u = e.normalize();
            let v = tn.cross(&u);
            // Half the surface area of the box with these axes (ranks boxes like the area).
            let (x, y) = (extent(&ext, &u), extent(&ext, &v));
            let area = x * y + y * z + z * x;
            if area < best_axes.0 {
                best_axes = (area, Matrix3::from_columns(&[u, v, tn]));
            }
        }
    }
    let box_area = |h: &Vector3<f64>| h.x * h.y + h.y * h.z + h.z * h.x;
    // Fitting all points only grows the box, so if it already loses to the AABB on the
    // extremal points the final pass can be skipped.
    if best_axes.0 >= box_area(&(aabb_h * 2.0)) {
        return aabb_obb();
    }
    let obb = fit(points, &orthonormalize(&best_axes.1))?;
    let obb_h =
        V3::new(obb.half_extents().x.to_f64(), obb.half_extents().y.to_f64(), obb.half_extents().z.to_f64());
    if box_area(&aabb_h) <= box_area(&obb_h) {
        return aabb_obb();
    }
    Ok(obb)
}

/// DiTO-14: [`obb_dito`] with the 7 normals of the 14-DOP.
pub fn obb_dito14<T: Real>(points: &[Point<T, 3>]) -> GeomResult<Obb<T, 3>> {
    obb_dito::<T, 7>(points)
}

/// DiTO-26: [`obb_dito`] with the 13 normals of the 26-DOP.
pub fn obb_dito26<T: Real>(points: &[Point<T, 3>]) -> GeomResult<Obb<T, 3>> {
    obb_dito::<T, 13>(points)
}
