//! OBB/OBB by the separating axis test (Gottschalk, Lin and Manocha 1996; RTR 22.13.5).

use crate::{Obb, Real};

/// OBB/OBB in 3D over all 15 candidate axes: the 3 face normals of each box and the 9 cross
/// products of their edges (Gottschalk et al. 1996). Works in `A`'s frame with
/// `R = Aᵀ B`; an `ε` (`1e-6`, scaled for `f32` to `32·ε_f32`) is added to every `|Rᵢⱼ|` so
/// that near-parallel edges, whose cross product is almost zero, cannot produce a spurious
/// separating axis. Touching counts as overlap. O(1), early exit on the first separating axis.
pub fn obb_obb<T: Real>(a: &Obb<T, 3>, b: &Obb<T, 3>) -> bool {
    let eps = T::epsilon() * T::lit(32.0);
    let ea = a.half_extents();
    let eb = b.half_extents();
    let t = a.vector_to_local(&(b.center() - a.center()));
    // A's face axes, each with its own row of R = Aᵀ B and of |R| + ε, computed as the axis is
    // reached: a separated pair is usually told apart by one of them before the rest of R is
    // needed, and the later axes read the rows already made.
    let mut r = [[T::zero(); 3]; 3];
    let mut abs_r = [[T::zero(); 3]; 3];
    for i in 0..3 {
        let row = a.axes().column(i).tr_mul(b.axes());
        r[i] = [row[0], row[1], row[2]];
        abs_r[i] = r[i].map(|x| x.abs() + eps);
        let rb = eb[0] * abs_r[i][0] + eb[1] * abs_r[i][1] + eb[2] * abs_r[i][2];
        if t[i].abs() > ea[i] + rb {
            return false;
        }
    }
    // B's face axes.
    for j in 0..3 {
        let ra = ea[0] * abs_r[0][j] + ea[1] * abs_r[1][j] + ea[2] * abs_r[2][j];
        let tb = t[0] * r[0][j] + t[1] * r[1][j] + t[2] * r[2][j];
        if tb.abs() > ra + eb[j] {
            return false;
        }
    }
    // Edge-edge axes A_i × B_j.
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let ra = ea[i1] * abs_r[i2][j] + ea[i2] * abs_r[i1][j];
            let rb = eb[j1] * abs_r[i][j2] + eb[j2] * abs_r[i][j1];
            let d = t[i2] * r[i1][j] - t[i1] * r[i2][j];
            if d.abs() > ra + rb {
                return false;
            }
        }
    }
    true
}

/// OBB/OBB over the face axes only ("SAT lite"): the `2·D` face normals of both boxes.
///
/// In 2D this is the exact test (a rectangle's edges are its face normals: 4 axes). In 3D it is
/// **conservative**: it never misses an overlap, but for some separated pairs (separable only
/// along an edge-edge axis) it reports overlap. It is cheaper than [`obb_obb`] and suffices for
/// culling and BVH traversal, where a false positive costs only extra work. O(D²).
pub fn obb_obb_face_axes<T: Real, const D: usize>(a: &Obb<T, D>, b: &Obb<T, D>) -> bool {
    let r = a.axes().tr_mul(b.axes());
    let abs_r = r.abs();
    let ea = a.half_extents();
    let eb = b.half_extents();
    let t = a.vector_to_local(&(b.center() - a.center()));
    for i in 0..D {
        let rb = (0..D).fold(T::zero(), |s, j| s + eb[j] * abs_r[(i, j)]);
        if t[i].abs() > ea[i] + rb {
            return false;
        }
    }
    for j in 0..D {
        let ra = (0..D).fold(T::zero(), |s, i| s + ea[i] * abs_r[(i, j)]);
        let tb = (0..D).fold(T::zero(), |s, i| s + t[i] * r[(i, j)]);
        if tb.abs() > ra + eb[j] {
            return false;
        }
    }
    true
}

/// 2D OBB/OBB: the exact 4-axis separating axis test (each box's two edge normals).
#[inline]
pub fn obb_obb_2d<T: Real>(a: &Obb<T, 2>, b: &Obb<T, 2>) -> bool {
    obb_obb_face_axes(a, b)
}
