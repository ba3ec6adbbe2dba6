//! SAT with a minimum translation vector for two oriented boxes in 3D (Gottschalk et al.
//! 1996's 15 axes: three face normals of each box and the nine cross products of their edges).
//!
//! Every axis gives the separation `|t·L| − (r_A + r_B)` of the boxes' projections (in length
//! units: edge axes are divided by `|L|`). The largest separation over all axes is positive
//! exactly when the boxes are disjoint (then it is a lower bound on their distance), and when
//! they overlap its negation is the penetration depth: for two boxes these 15 axes contain every
//! face normal of the Minkowski difference, so the minimum translation is exact, not an
//! estimate as with EPA. Edge pairs that are parallel (|L| ≈ 0) are skipped: their axis is
//! one of the face normals already tested. The axes are measured in the boxes' type, and again
//! in `f64` on their axes made orthonormal again when an edge axis's rounding leaves the answer
//! uncertain (see `sat_with_preference`).
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

/// Projection data of box B in A's frame, shared by all 15 axes, in the scalar `S`: the boxes'
/// own type first, and the boxes widened to `f64` ([`Obb::widened`], axes orthonormal again)
/// when that is not precise enough ([`sat_with_preference`]).
struct Frame<S: Real> {
    ea: Vector<S, 3>,
    eb: Vector<S, 3>,
    /// B's axes in A's frame (column j is B's axis j).
    r: nalgebra::Matrix3<S>,
    /// B's centre in A's frame.
    t: Vector<S, 3>,
}

/// Separation along A's face normal `i` from B's offset `t_i` along it, A's half extent `ea_i`
/// and row `i` of `R` (B's axes projected on it): one formula for the whole frame and the rows
/// formed one at a time ([`Frame::rows_of_a`]), so both give the same value.
#[inline(always)]
fn face_a_separation<S: Real>(t_i: S, ea_i: S, eb: &Vector<S, 3>, row: &[S; 3]) -> S {
    let rb = eb[0] * row[0].abs() + eb[1] * row[1].abs() + eb[2] * row[2].abs();
    t_i.abs() - ea_i - rb
}

impl<T: Real> Frame<T> {
    /// The frame of two boxes, in their type, from their axes as they are.
    fn direct(a: &Obb<T, 3>, b: &Obb<T, 3>) -> Self {
        Frame {
            ea: *a.half_extents(),
            eb: *b.half_extents(),
            r: a.axes().tr_mul(b.axes()),
            t: a.vector_to_local(&(b.center() - a.center())),
        }
    }

    /// The frame of two boxes, A's face axes tested as the rows of `R` are formed: a separated
    /// pair is usually told apart by one of them, before the rest of `R` is needed. Returns the
    /// first of them (the cached one first, when it is one of A's faces) that separates the
    /// boxes by more than `prediction`, as [`search`] would; otherwise the whole frame, equal
    /// entry for entry to [`Frame::direct`]'s (each entry is the same dot product).
    ///
    /// Only for a cache that is empty or holds one of A's faces: any other cached axis comes
    /// first in [`search`] and needs the whole frame.
    #[inline(always)]
    fn rows_of_a(
        a: &Obb<T, 3>,
        b: &Obb<T, 3>,
        prediction: T,
        cache: &mut SatCache,
    ) -> Result<BoxSat<T>, Self> {
        let (ea, eb) = (*a.half_extents(), *b.half_extents());
        let t = a.vector_to_local(&(b.center() - a.center()));
        let mut rows = [nalgebra::RowVector3::zeros(); 3];
        let first = cache.axis.map_or(0, usize::from);
        // The cached face first, then the others in order, as `search` tries them.
        let order = [[0, 1, 2], [1, 0, 2], [2, 0, 1]][first];
        for i in order {
            rows[i] = a.axes().column(i).tr_mul(b.axes());
            let separation = face_a_separation(t[i], ea[i], &eb, &rows[i].into());
            if separation > prediction {
                cache.axis = Some(i as u8);
                let axis = a.axes().column(i).into_owned();
                let normal = if t[i] < T::zero() { -axis } else { axis };
                return Ok(BoxSat { separation, normal, feature: BoxFeature::FaceA(i) });
            }
        }
        Err(Frame { ea, eb, r: nalgebra::Matrix3::from_rows(&rows), t })
    }
}

impl<S: Real> Frame<S> {
    /// Separation along A's face normal `i`, and the signed offset of B's centre along it.
    #[inline(always)]
    fn face_a(&self, i: usize) -> (S, S) {
        let row = [self.r[(i, 0)], self.r[(i, 1)], self.r[(i, 2)]];
        (face_a_separation(self.t[i], self.ea[i], &self.eb, &row), self.t[i])
    }

    /// Separation along B's face normal `j`, and the signed offset of B's centre along it.
    #[inline(always)]
    fn face_b(&self, j: usize) -> (S, S) {
        let (ea, eb, r, t) = (&self.ea, &self.eb, &self.r, &self.t);
        let ra = ea[0] * r[(0, j)].abs() + ea[1] * r[(1, j)].abs() + ea[2] * r[(2, j)].abs();
        let d = t[0] * r[(0, j)] + t[1] * r[(1, j)] + t[2] * r[(2, j)];
        (d.abs() - ra - eb[j], d)
    }

    /// Separation along A's edge `i` crossed with B's edge `j`, the rounding bound it was
    /// lowered by (below) times the axis length, the signed offset of B's centre along the
    /// (unnormalized) cross product and that product's length; `None` when the edges are
    /// parallel to rounding (the axis is then one of the face normals).
    ///
    /// The separation is lowered by its own rounding bound, so that a nearly parallel pair's
    /// axis neither claims a separation that rounding made up nor wins over a face axis on
    /// noise. The entries of `r` are off by a few ε each (rounding, and the shear of axes that
    /// are orthonormal only to rounding), which puts about 8ε times the magnitudes of the terms
    /// in the numerator, divided by the axis length. Only the offset and extents across the two
    /// edges enter, not the extents along them. Without this bound, such pairs were skipped
    /// below √ε. Two boxes 16.6 long whose long edges were 3·10⁻⁴ rad apart (below `f32`'s √ε)
    /// then lost the axis of least depth, and the depth came out 1.7·10⁻³ for 3.6·10⁻⁴
    /// (FUZZING.md, finding 63).
    #[inline(always)]
    fn edges(&self, i: usize, j: usize) -> Option<(S, S, S, S)> {
        let (ea, eb, r, t) = (&self.ea, &self.eb, &self.r, &self.t);
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
        // L = e_i × b_j in A's frame: L[i] = 0, L[i1] = −R(i2, j), L[i2] = R(i1, j).
        let len = (r[(i1, j)] * r[(i1, j)] + r[(i2, j)] * r[(i2, j)]).sqrt();
        if len <= S::epsilon() * S::lit(16.0) {
            return None;
        }
        let ra = ea[i1] * r[(i2, j)].abs() + ea[i2] * r[(i1, j)].abs();
        let rb = eb[j1] * r[(i, j2)].abs() + eb[j2] * r[(i, j1)].abs();
        let d = t[i2] * r[(i1, j)] - t[i1] * r[(i2, j)];
        let terms = t[i1].abs() + t[i2].abs() + ea[i1] + ea[i2] + eb[j1] + eb[j2];
        let noise = S::epsilon() * S::lit(8.0) * terms;
        Some(((d.abs() - ra - rb - noise) / len, noise, d, len))
    }

    /// Separation along axis `k` (see [`BoxFeature::from_index`]) and the unit axis in A's frame
    /// (pointing from A to B), or `None` for a degenerate (parallel-edge) axis.
    fn axis(&self, k: u8) -> Option<(S, Vector<S, 3>)> {
        let signed = |d: S, l: Vector<S, 3>| if d < S::zero() { -l } else { l };
        match BoxFeature::from_index(k) {
            BoxFeature::FaceA(i) => {
                let (sep, d) = self.face_a(i);
                Some((sep, signed(d, Vector::ith(i, S::one()))))
            }
            BoxFeature::FaceB(j) => {
                let (sep, d) = self.face_b(j);
                Some((sep, signed(d, self.r.column(j).into_owned())))
            }
            BoxFeature::Edges(i, j) => {
                let (sep, _, d, len) = self.edges(i, j)?;
                let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
                let mut l = Vector::zeros();
                l[i1] = -self.r[(i2, j)] / len;
                l[i2] = self.r[(i1, j)] / len;
                Some((sep, signed(d, l)))
            }
        }
    }

    /// The separations along the six face normals (A's, then B's), in axis order.
    fn face_separations(&self) -> [S; 6] {
        let mut s = [S::zero(); 6];
        for i in 0..3 {
            s[i] = self.face_a(i).0;
            s[3 + i] = self.face_b(i).0;
        }
        s
    }

    /// The separations along the nine edge axes, with their rounding bounds times the axis
    /// lengths and those lengths, in axis order (`None` where the edges are parallel).
    /// Computed together, without the unit axes: only the best one needs its axis.
    fn edge_separations(&self) -> [Option<(S, S, S)>; 9] {
        let mut s = [None; 9];
        for (k, slot) in s.iter_mut().enumerate() {
            *slot = self.edges(k / 3, k % 3).map(|(sep, noise, _, len)| (sep, noise, len));
        }
        s
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
///
/// It runs in the boxes' type first. When the boxes overlap, an edge axis whose rounding bound
/// is wider than 128 ε of the scale and that could, without that bound, be the answer (the
/// answer itself, or within twice its bound of it) leaves the depth uncertain by that bound:
/// the search is then run again in `f64` on re-orthonormalized axes
/// ([`Obb::widened`]), where the bound is `f64`'s. In `f32` that bound is large on
/// nearly parallel edges: a needle 10 long whose edge was 0.01 rad from a 12.9-wide cube's,
/// touching it at a depth of 8.6·10⁻⁴, had its axis lowered by 2·10⁻³ and came out 3.2·10⁻³
/// deep (FUZZING.md, finding 65). Random poses hardly ever need the second run; doing every
/// query in `f64` cost the box rows up to 2.6× their time (the re-orthonormalization's square
/// roots are on the critical path).
fn sat_with_preference<T: Real>(
    a: &Obb<T, 3>,
    b: &Obb<T, 3>,
    prediction: T,
    cache: &mut SatCache,
    relative: T,
    absolute: T,
) -> BoxSat<T> {
    let preference = Preference { prediction, relative, absolute, input_epsilon: T::epsilon() };
    let (frame, cache_tested) = match cache.axis {
        None | Some(0..=2) => match Frame::rows_of_a(a, b, prediction, cache) {
            Ok(sat) => return sat,
            Err(frame) => (frame, true),
        },
        Some(_) => (Frame::direct(a, b), false),
    };
    match search(a, &frame, &preference, cache, cache_tested) {
        Search::Certain(sat) => sat,
        Search::Uncertain(_) => precise_search(a, b, &preference, cache),
    }
}

/// The second run of [`sat_with_preference`], in `f64`: rare, and kept out of line so that the
/// common path stays small enough to inline into its callers.
#[cold]
#[inline(never)]
fn precise_search<T: Real>(
    a: &Obb<T, 3>,
    b: &Obb<T, 3>,
    preference: &Preference<T>,
    cache: &mut SatCache,
) -> BoxSat<T> {
    match search(a, &Frame::direct(&a.widened(), &b.widened()), &preference.wide(), cache, false) {
        Search::Certain(sat) | Search::Uncertain(sat) => sat,
    }
}

/// What a search prefers and where it stops, in the frame's scalar `S`.
#[derive(Clone, Copy)]
struct Preference<S> {
    /// Stop at the first axis separating the boxes by more than this.
    prediction: S,
    /// A later group's axis must beat the best by this fraction of it…
    relative: S,
    /// …plus this fraction of the boxes' size (at least their input's rounding).
    absolute: S,
    /// The boxes' own ε (ties within the input's rounding go to the earlier group).
    input_epsilon: S,
}

impl<T: Real> Preference<T> {
    fn wide(&self) -> Preference<f64> {
        Preference {
            prediction: self.prediction.to_f64(),
            relative: self.relative.to_f64(),
            absolute: self.absolute.to_f64(),
            input_epsilon: self.input_epsilon.to_f64(),
        }
    }
}

/// The outcome of one [`search`].
enum Search<T: Real> {
    /// The answer, exact to the frame's rounding.
    Certain(BoxSat<T>),
    /// The answer, uncertain by an edge axis's rounding bound (see [`sat_with_preference`]).
    Uncertain(BoxSat<T>),
}

/// One SAT search over the 15 axes of `frame` (A's axes take its answer back to world space).
/// `cache_tested`: the cached axis is already known not to separate the boxes (see
/// [`Frame::rows_of_a`]), so it is not tried first again.
fn search<T: Real, S: Real>(
    a: &Obb<T, 3>,
    frame: &Frame<S>,
    preference: &Preference<S>,
    cache: &mut SatCache,
    cache_tested: bool,
) -> Search<T> {
    let Preference { prediction, relative, absolute, input_epsilon } = *preference;
    let narrow = |x: S| T::lit(x.to_f64());
    let answer_along = |sep: S, l: Vector<S, 3>, k: u8| BoxSat {
        separation: narrow(sep),
        normal: a.axes() * l.map(narrow),
        feature: BoxFeature::from_index(k),
    };
    if let Some(k) = cache.axis.filter(|_| !cache_tested) {
        if let Some((sep, l)) = frame.axis(k) {
            if sep > prediction {
                return Search::Certain(answer_along(sep, l, k));
            }
        }
    }
    let size = frame.ea.amax().max(frame.eb.amax());
    let noise = input_epsilon * S::lit(64.0) * (size + frame.t.amax());
    let margin = noise.max(absolute * size);
    // The separations are computed a group at a time (faces, then edges, which cost a square
    // root and a division each), and the unit axis only for the answer: an early separating
    // face axis skips the edges, and no axis vector is built for the 14 that lose.
    let answer = |k: u8, cache: &mut SatCache| {
        cache.axis = Some(k);
        let (sep, l) = frame.axis(k).unwrap_or((S::zero(), Vector::z()));
        answer_along(sep, l, k)
    };
    let mut best: Option<(S, u8)> = None;
    let consider = |k: u8, sep: S, best: &mut Option<(S, u8)>| {
        if sep > prediction {
            return true;
        }
        // Later axes (B's faces after A's, edges after faces) must beat the best by the bias.
        let better = match *best {
            None => true,
            Some((s, kb)) => {
                let later_group = group(k) > group(kb);
                sep > s + if later_group { margin + relative * s.abs() } else { S::zero() }
            }
        };
        if better {
            *best = Some((sep, k));
        }
        false
    };
    for (k, &sep) in frame.face_separations().iter().enumerate() {
        if consider(k as u8, sep, &mut best) {
            return Search::Certain(answer(k as u8, cache));
        }
    }
    let edges = frame.edge_separations();
    for (k, edge) in edges.iter().enumerate() {
        let k = 6 + k as u8;
        if let Some((sep, _, _)) = *edge {
            if consider(k, sep, &mut best) {
                // Lowered by its bound and still separating: certainly apart.
                return Search::Certain(answer(k, cache));
            }
        }
    }
    // Only a depth needs the precise run (a positive separation is a lower bound anyway), and
    // only for an edge axis whose bound is wider than 128 ε of the scale (the rounding a depth
    // in the boxes' type has anyway) and that could reach the best without it.
    let uncertain = |best: S| {
        let tolerance = input_epsilon * S::lit(128.0) * (size + frame.t.amax());
        edges
            .iter()
            .flatten()
            .any(|&(sep, noise, len)| noise > tolerance * len && sep + (noise + noise) / len >= best)
    };
    match best {
        Some((sep, k)) if sep <= S::zero() && uncertain(sep) => Search::Uncertain(answer(k, cache)),
        Some((_, k)) => Search::Certain(answer(k, cache)),
        None => {
            cache.axis = Some(0);
            Search::Certain(answer_along(S::zero(), Vector::z(), 0))
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::unit_stream;

    fn random_box<T: Real>(next: &mut impl FnMut() -> f64, spread: f64) -> Obb<T, 3> {
        let mut at = |lo: f64, hi: f64| lo + (hi - lo) * next();
        let q = nalgebra::UnitQuaternion::from_euler_angles(at(-3.0, 3.0), at(-1.5, 1.5), at(-3.0, 3.0));
        let m = q.to_rotation_matrix().into_inner().map(T::lit);
        let centre = Vector::<T, 3>::new(
            T::lit(at(-spread, spread)),
            T::lit(at(-spread, spread)),
            T::lit(at(-spread, spread)),
        );
        let half = Vector::<T, 3>::new(T::lit(at(0.05, 1.0)), T::lit(at(0.05, 1.0)), T::lit(at(0.05, 1.0)));
        Obb::new(centre.into(), m, half).unwrap()
    }

    /// The search over the whole frame, as it ran before A's faces were tested row by row.
    fn whole_frame<T: Real>(a: &Obb<T, 3>, b: &Obb<T, 3>, prediction: T, cache: &mut SatCache) -> BoxSat<T> {
        let preference =
            Preference { prediction, relative: T::zero(), absolute: T::zero(), input_epsilon: T::epsilon() };
        match search(a, &Frame::direct(a, b), &preference, cache, false) {
            Search::Certain(sat) => sat,
            Search::Uncertain(_) => precise_search(a, b, &preference, cache),
        }
    }

    fn rows_match_the_whole_frame<T: Real>() {
        let mut next = unit_stream(0x5a7_0bb);
        let mut early = 0;
        for n in 0..4000 {
            let spread = [0.5, 1.5, 3.0][n % 3];
            let (a, b) = (random_box::<T>(&mut next, spread), random_box::<T>(&mut next, spread));
            let prediction = T::lit([0.0, 0.1, -0.05][(n / 3) % 3]);
            for cached in [None, Some(0), Some(1), Some(2), Some(4), Some(7)] {
                let (mut c1, mut c2) = (SatCache { axis: cached }, SatCache { axis: cached });
                let got = sat_with_preference(&a, &b, prediction, &mut c1, T::zero(), T::zero());
                let want = whole_frame(&a, &b, prediction, &mut c2);
                assert_eq!(got, want, "pair {n}, cache {cached:?}");
                assert_eq!(c1, c2, "pair {n}, cache {cached:?}");
                if cached.is_none()
                    && matches!(got.feature, BoxFeature::FaceA(_))
                    && got.separation > prediction
                {
                    early += 1;
                }
            }
            // The frame built row by row is the direct frame, entry for entry.
            if let Err(frame) = Frame::rows_of_a(&a, &b, T::lit(f64::INFINITY), &mut SatCache::default()) {
                let direct = Frame::direct(&a, &b);
                assert_eq!(
                    (frame.r, frame.t, frame.ea, frame.eb),
                    (direct.r, direct.t, direct.ea, direct.eb)
                );
            } else {
                panic!("nothing separates by more than infinity");
            }
        }
        // The early exit was exercised, and not on every pair.
        assert!(early > 500 && early < 3500, "{early} early exits");
    }

    #[test]
    fn rows_of_a_match_the_whole_frame_f64() {
        rows_match_the_whole_frame::<f64>();
    }

    #[test]
    fn rows_of_a_match_the_whole_frame_f32() {
        rows_match_the_whole_frame::<f32>();
    }
}
