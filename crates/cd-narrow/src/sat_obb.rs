//! SAT with a minimum translation vector for two oriented boxes in 3D (Gottschalk et al.
//! 1996's 15 axes: three face normals of each box and the nine cross products of their edges).
//!
//! Every axis gives the separation `|t·L| − (r_A + r_B)` of the boxes' projections (in length
//! units: edge axes are divided by `|L|`). The largest separation over all axes is positive
//! exactly when the boxes are disjoint (then it is a lower bound on their distance), and when
//! they overlap its negation is the penetration depth: for two boxes these 15 axes contain every
//! face normal of the Minkowski difference, so the minimum translation is exact, not an
//! estimate as with EPA. Edge pairs that are parallel (|L| ≈ 0) are skipped: their axis is
//! one of the face normals already tested.
//!
//! Face axes win ties against edge axes (and A's faces against B's), by a margin of a few
//! ulps of the boxes' size, so that a resting box keeps a face-face manifold from frame to
//! frame instead of flickering to an edge contact.
//!
//! The test starts with the axis cached from the previous frame ([`SatCache`]): when the boxes
//! are still separated along it, the answer is found after one axis.

use cd_geom::{Obb, Real, Vector};

/// The feature pair whose axis gave the minimum translation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoxFeature {
    /// Face normal `i` of A (0..3).
    FaceA(usize),
    /// Face normal `j` of B.
    FaceB(usize),
    /// Edge direction `i` of A crossed with edge direction `j` of B.
    Edges(usize, usize),
}

impl BoxFeature {
    fn index(self) -> u8 {
        match self {
            BoxFeature::FaceA(i) => i as u8,
            BoxFeature::FaceB(j) => 3 + j as u8,
            BoxFeature::Edges(i, j) => 6 + (3 * i + j) as u8,
        }
    }

    fn from_index(k: u8) -> Self {
        match k {
            0..=2 => BoxFeature::FaceA(k as usize),
            3..=5 => BoxFeature::FaceB(k as usize - 3),
            _ => BoxFeature::Edges((k as usize - 6) / 3, (k as usize - 6) % 3),
        }
    }
}

/// The result of [`obb_obb_sat`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoxSat<T: Real> {
    /// The largest separation over the tested axes: positive when the boxes are disjoint (a
    /// lower bound on their distance), minus the penetration depth when they overlap.
    pub separation: T,
    /// Unit axis of that separation, pointing from A towards B (world space).
    pub normal: Vector<T, 3>,
    /// Which axis it was.
    pub feature: BoxFeature,
}

/// The axis that ended the previous query on the same pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SatCache {
    axis: Option<u8>,
}

/// Projection data of box B in A's frame, shared by all 15 axes.
struct Frame<'a, T: Real> {
    ea: &'a Vector<T, 3>,
    eb: &'a Vector<T, 3>,
    /// B's axes in A's frame (column j is B's axis j).
    r: nalgebra::Matrix3<T>,
    /// B's centre in A's frame.
    t: Vector<T, 3>,
}

impl<T: Real> Frame<'_, T> {
    /// Separation along axis `k` (see [`BoxFeature::from_index`]) and the unit axis in A's frame
    /// (pointing from A to B), or `None` for a degenerate (parallel-edge) axis.
    fn axis(&self, k: u8) -> Option<(T, Vector<T, 3>)> {
        let (ea, eb, r, t) = (self.ea, self.eb, &self.r, &self.t);
        let signed = |d: T, l: Vector<T, 3>| if d < T::zero() { -l } else { l };
        match BoxFeature::from_index(k) {
            BoxFeature::FaceA(i) => {
                let rb = eb[0] * r[(i, 0)].abs() + eb[1] * r[(i, 1)].abs() + eb[2] * r[(i, 2)].abs();
                Some((t[i].abs() - ea[i] - rb, signed(t[i], Vector::ith(i, T::one()))))
            }
            BoxFeature::FaceB(j) => {
                let col = r.column(j).into_owned();
                let ra = ea[0] * col[0].abs() + ea[1] * col[1].abs() + ea[2] * col[2].abs();
                let d = t.dot(&col);
                Some((d.abs() - ra - eb[j], signed(d, col)))
            }
            BoxFeature::Edges(i, j) => {
                let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
                let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
                // L = e_i × b_j in A's frame: L[i] = 0, L[i1] = −R(i2, j), L[i2] = R(i1, j).
                let len = (r[(i1, j)] * r[(i1, j)] + r[(i2, j)] * r[(i2, j)]).sqrt();
                if len <= T::epsilon().sqrt() {
                    return None;
                }
                let ra = ea[i1] * r[(i2, j)].abs() + ea[i2] * r[(i1, j)].abs();
                let rb = eb[j1] * r[(i, j2)].abs() + eb[j2] * r[(i, j1)].abs();
                let d = t[i2] * r[(i1, j)] - t[i1] * r[(i2, j)];
                let mut l = Vector::zeros();
                l[i1] = -r[(i2, j)] / len;
                l[i2] = r[(i1, j)] / len;
                Some(((d.abs() - ra - rb) / len, signed(d, l)))
            }
        }
    }
}

/// SAT over the 15 axes of two boxes. Stops as soon as an axis separates them by more than
/// `prediction` (that axis is then returned, with its separation). `cache` holds the axis of
/// the previous call on the same pair and receives this one's.
///
/// Cost: at most 15 axis projections, each a handful of multiply-adds on the precomputed
/// relative rotation.
pub fn obb_obb_sat<T: Real>(a: &Obb<T, 3>, b: &Obb<T, 3>, prediction: T, cache: &mut SatCache) -> BoxSat<T> {
    sat_with_preference(a, b, prediction, cache, T::zero(), T::zero())
}

/// [`obb_obb_sat`] for contact manifolds: among axes that do not separate the boxes, a face of
/// B is taken over a face of A, and an edge pair over a face, only when its separation is
/// larger by more than 5 % of it plus 0.1 % of the boxes' size. Nearly parallel boxes (a stack)
/// then keep a face axis — four clipped points — instead of flickering to an edge axis with
/// one point, or between the two boxes' faces, which would change every feature id. The depth
/// returned may exceed the minimum by that tolerance; the exact minimum is [`obb_obb_sat`]'s.
pub fn obb_obb_sat_face_preferring<T: Real>(
    a: &Obb<T, 3>,
    b: &Obb<T, 3>,
    prediction: T,
    cache: &mut SatCache,
) -> BoxSat<T> {
    sat_with_preference(a, b, prediction, cache, T::lit(0.05), T::lit(1e-3))
}

/// The SAT loop; a later group's axis must beat the best by
/// `relative·|best| + (absolute·size or, at least, rounding noise)`.
fn sat_with_preference<T: Real>(
    a: &Obb<T, 3>,
    b: &Obb<T, 3>,
    prediction: T,
    cache: &mut SatCache,
    relative: T,
    absolute: T,
) -> BoxSat<T> {
    let frame = Frame {
        ea: a.half_extents(),
        eb: b.half_extents(),
        r: a.axes().tr_mul(b.axes()),
        t: a.vector_to_local(&(b.center() - a.center())),
    };
    let to_world = |l: Vector<T, 3>| a.axes() * l;
    if let Some(k) = cache.axis {
        if let Some((sep, l)) = frame.axis(k) {
            if sep > prediction {
                return BoxSat { separation: sep, normal: to_world(l), feature: BoxFeature::from_index(k) };
            }
        }
    }
    let size = frame.ea.amax().max(frame.eb.amax());
    let noise = T::epsilon() * T::lit(64.0) * (size + frame.t.amax());
    let margin = noise.max(absolute * size);
    let mut best: Option<(T, Vector<T, 3>, u8)> = None;
    for k in 0..15u8 {
        let Some((sep, l)) = frame.axis(k) else { continue };
        if sep > prediction {
            cache.axis = Some(k);
            return BoxSat { separation: sep, normal: to_world(l), feature: BoxFeature::from_index(k) };
        }
        // Later axes (B's faces after A's, edges after faces) must beat the best by the bias.
        let better = match best {
            None => true,
            Some((s, _, kb)) => {
                let later_group = group(k) > group(kb);
                sep > s + if later_group { margin + relative * s.abs() } else { T::zero() }
            }
        };
        if better {
            best = Some((sep, l, k));
        }
    }
    let (sep, l, k) = best.unwrap_or((T::zero(), Vector::z(), 0));
    cache.axis = Some(k);
    BoxSat { separation: sep, normal: to_world(l), feature: BoxFeature::from_index(k) }
}

/// 0 for A's faces, 1 for B's, 2 for edge pairs.
fn group(k: u8) -> u8 {
    match k {
        0..=2 => 0,
        3..=5 => 1,
        _ => 2,
    }
}

impl BoxFeature {
    /// The feature as a small integer (0..15), for caches and ids.
    pub fn code(self) -> u8 {
        self.index()
    }
}
