//! The exact minimal enclosing ball (sphere in 3D, circle in 2D).
//!
//! Welzl 1991 with Gärtner's 1999 pivoting, at two levels. Over the points: the exact ball of
//! a small candidate set is computed — on a set of more than a thousand points, the exact
//! ball of every sixteenth point, found the same way (its centre is near the answer's, so the
//! passes below take few points and seldom need a confirming one; the sampling lemma puts
//! about (D + 1)·15 points outside it on a random-like order), else the ball of the points
//! extreme along the axes — then one pass over all points finds the points it misses
//! — all of them, or past a cap the farthest ones and the farthest per orthant around the
//! centre — which become new candidates. When a pass finds nothing outside, or when it took
//! every point outside and the new ball contains the old one (so it contains every point the
//! pass left), the candidates' minimal ball contains every point and is therefore the minimal
//! ball of the whole set. From the second pass on, a pass also keeps the points of a thin band
//! inside the old sphere (a tenth of the previous move of the centre wide, at most a
//! thousandth of the radius): then the new ball need only contain the old one shrunk by the
//! band, and the band's points are checked one by one, which saves the confirming pass far
//! more often. Over the candidates: pivoting again ([`pivot_ball`]), with move-to-front Welzl
//! (recursion only over the support set, depth ≤ D + 1) solving the few pivots. Arithmetic is
//! in `f64` whatever `T` is, the candidate order is deterministic (no randomness needed), and
//! the returned radius is padded by the rounding error of converting the centre back to `T`,
//! so every input point is inside.

use crate::aabb::{axis_extremes, invalid_points_error};
use cd_geom::{Ball, GeomResult, Point, Real, Vector};
use core::cmp::Ordering;
use nalgebra::SVector;

type V<const D: usize> = SVector<f64, D>;

/// A ball in `f64` during the computation; `r2 < 0` is the empty ball.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ball64<const D: usize> {
    pub(crate) center: V<D>,
    pub(crate) r2: f64,
}

impl<const D: usize> Ball64<D> {
    const EMPTY: Self =
        Ball64 { center: V::<D>::from_array_storage(nalgebra::ArrayStorage([[0.0; D]; 1])), r2: -1.0 };

    /// Inside, with a relative tolerance that absorbs the rounding of the circumsphere solve.
    #[inline]
    pub(crate) fn contains(&self, p: &V<D>) -> bool {
        (p - self.center).norm_squared() <= self.r2 * (1.0 + 1e-12) + 1e-300
    }
}

pub(crate) fn to64<T: Real, const D: usize>(p: &Point<T, D>) -> V<D> {
    V::<D>::from_fn(|i, _| p[i].to_f64())
}

/// The smallest ball with every point of `support` on its boundary, within their affine hull:
/// centre `p₀ + Σ μⱼ uⱼ` with `uⱼ` the unit vector along `vⱼ = pⱼ - p₀`, solving
/// `Σⱼ (uᵢ·uⱼ) μⱼ = |vᵢ| / 2` (the centre is as far from `pᵢ` as from `p₀`). When the support
/// is affinely dependent (duplicates, collinear triples, coplanar quadruples — only reachable
/// through rounding) the system is singular and the ball of the farthest pair, grown to cover
/// the rest, is used instead.
///
/// The system is on unit vectors so that its conditioning is that of the support's
/// directions, not of its lengths: on the vectors themselves (`Σⱼ 2 (vᵢ·vⱼ) λⱼ = vᵢ·vᵢ`), two
/// support points 1.3·10⁻⁵ apart in a ball of radius 14 gave a pivot below the singularity
/// threshold relative to the longest vector, the farthest-pair fallback put them off the
/// boundary, and the search ended at a ball 22 % larger than the minimal one (fuzz finding
/// 76); their direction is exact (a difference of nearby numbers), and so is the centre.
pub(crate) fn circumball<const D: usize>(support: &[V<D>]) -> Ball64<D> {
    match support.len() {
        0 => return Ball64::EMPTY,
        1 => return Ball64 { center: support[0], r2: 0.0 },
        // Two points: the ball on their segment, without the elimination (its 1 × 1 system
        // gives the same midpoint, up to rounding). Coincident points give the point ball.
        2 => {
            let center = (support[0] + support[1]) * 0.5;
            let r2 = (support[0] - center).norm_squared().max((support[1] - center).norm_squared());
            return Ball64 { center, r2 };
        }
        _ => {}
    }
    let p0 = support[0];
    let k = support.len() - 1; // ≤ D
                               // Stack storage: the k × k Gram system lives in the top-left of a D × D matrix.
    let mut v = [V::<D>::zeros(); 4];
    let mut a = nalgebra::SMatrix::<f64, D, D>::zeros();
    let mut rhs = V::<D>::zeros();
    if k > D || k > 4 {
        return diametral_cover(support);
    }
    for i in 0..k {
        let d = support[i + 1] - p0;
        let length = d.norm();
        if !(length > 0.0 && length.is_finite()) {
            return diametral_cover(support); // a repeated point (or an overflow)
        }
        v[i] = d / length;
        rhs[i] = 0.5 * length;
    }
    for i in 0..k {
        for j in 0..k {
            a[(i, j)] = v[i].dot(&v[j]);
        }
    }
    // Gaussian elimination with partial pivoting on the k × k block (unit diagonal: the
    // threshold is relative to 1).
    let mut singular = false;
    for col in 0..k {
        let piv = (col..k).max_by(|&x, &y| a[(x, col)].abs().total_cmp(&a[(y, col)].abs())).unwrap_or(col);
        a.swap_rows(col, piv);
        rhs.swap_rows(col, piv);
        if a[(col, col)].abs() <= 1e-12 {
            singular = true;
            break;
        }
        for row in 0..k {
            if row != col {
                let f = a[(row, col)] / a[(col, col)];
                for c in col..k {
                    let x = a[(col, c)];
                    a[(row, c)] -= f * x;
                }
                rhs[row] -= f * rhs[col];
            }
        }
    }
    if !singular {
        let mut center = p0;
        for j in 0..k {
            center += v[j] * (rhs[j] / a[(j, j)]);
        }
        let r2 = support.iter().map(|p| (p - center).norm_squared()).fold(0.0, f64::max);
        if r2.is_finite() {
            return Ball64 { center, r2 };
        }
    }
    diametral_cover(support)
}

/// The ball on the farthest pair of `pts`, grown to contain the others.
fn diametral_cover<const D: usize>(pts: &[V<D>]) -> Ball64<D> {
    let (mut a, mut b, mut best) = (0, 0, -1.0);
    for i in 0..pts.len() {
        for j in i + 1..pts.len() {
            let d = (pts[i] - pts[j]).norm_squared();
            if d > best {
                (a, b, best) = (i, j, d);
            }
        }
    }
    let center = (pts[a] + pts[b]) * 0.5;
    let r2 = pts.iter().map(|p| (p - center).norm_squared()).fold(0.0, f64::max);
    Ball64 { center, r2 }
}

/// Move-to-front Welzl on a (small) candidate list: the minimal ball of `pts[..end]` with
/// `support` on its boundary. Recursion depth is bounded by the support size (≤ D + 1).
fn mtf<const D: usize>(pts: &mut [V<D>], end: usize, support: &mut Vec<V<D>>) -> Ball64<D> {
    let mut ball = circumball(support);
    if support.len() == D + 1 {
        return ball;
    }
    for i in 0..end {
        let p = pts[i];
        if !ball.contains(&p) {
            support.push(p);
            ball = mtf(pts, i, support);
            support.pop();
            pts[..=i].rotate_right(1);
        }
    }
    ball
}

/// The exact minimal ball of a small point list (used for candidate and extremal-point sets).
pub(crate) fn minimal_ball_of_small<const D: usize>(pts: &mut [V<D>]) -> Ball64<D> {
    let mut support = Vec::with_capacity(D + 1);
    mtf(pts, pts.len(), &mut support)
}

/// The exact minimal ball of a candidate list by pivoting (Gärtner 1999): keep a short basis
/// list whose minimal ball (move-to-front on the basis alone) is the current ball; add the
/// candidate farthest outside it at the basis's front; stop when every candidate is inside.
/// The final ball is the minimal ball of a subset that contains every candidate, hence the
/// candidates' minimal ball. Each round adds a candidate the ball does not contain (so not one
/// already in the basis) and grows the ball, so it ends within `cand.len()` rounds; each round
/// is a scan of the list plus a solve over the basis (typically under a dozen points), where
/// move-to-front over the whole list re-solves from its start at every miss.
///
/// The basis starts as `basis` (points of `cand`, or empty) and is left holding the final one:
/// a later call on a superset of `cand` starts from the ball the old candidates ended with
/// instead of from nothing (one farthest-point scan fewer on the bunny).
pub(crate) fn pivot_ball<const D: usize>(cand: &[V<D>], basis: &mut Vec<V<D>>) -> Ball64<D> {
    let mut support = Vec::with_capacity(D + 1);
    let len = basis.len();
    let mut ball = mtf(basis, len, &mut support);
    for _ in 0..=cand.len() {
        // The candidate farthest from the centre is outside exactly when any is, and then it
        // is the farthest outside.
        let Some(p) = farthest(cand, &ball.center).filter(|p| !ball.contains(p)) else {
            return ball;
        };
        // A point outside the minimal ball of the basis lies on the boundary of the minimal
        // ball of the basis and it (Welzl's lemma), so the solve starts with it as support
        // instead of rediscovering that over the whole basis.
        basis.insert(0, p);
        support.clear();
        support.push(p);
        let rest = basis.len() - 1;
        ball = mtf(&mut basis[1..], rest, &mut support);
    }
    ball
}

/// The point of `pts` farthest from `c` (the first of equals), `None` for no points.
///
/// Four running maxima, point `i` feeding lane `i % 4`, each lane keeping its first maximum;
/// of lanes that tie, the lowest index wins. One maximum fed every point made each comparison
/// wait for the previous one's (the pivoting solve over the bunny's 267 candidates was
/// latency-bound on it), and a branch per lane on "farther than this lane's best" was missed
/// every few points while the maxima grew: the index is kept by a mask instead.
fn farthest<const D: usize>(pts: &[V<D>], c: &V<D>) -> Option<V<D>> {
    let mut best = [f64::NEG_INFINITY; 4];
    let mut at = [0usize; 4];
    let groups = pts.chunks_exact(4);
    let rest = groups.remainder();
    for (g, group) in groups.enumerate() {
        for (l, p) in group.iter().enumerate() {
            let d = (p - c).norm_squared();
            let take = usize::from(d > best[l]).wrapping_neg();
            at[l] ^= (at[l] ^ (4 * g + l)) & take;
            best[l] = if d > best[l] { d } else { best[l] };
        }
    }
    let base = pts.len() - rest.len();
    for (l, p) in rest.iter().enumerate() {
        let d = (p - c).norm_squared();
        if d > best[l] {
            (best[l], at[l]) = (d, base + l);
        }
    }
    let mut lane = 0;
    for l in 1..4 {
        if best[l] > best[lane] || (best[l] == best[lane] && at[l] < at[lane]) {
            lane = l;
        }
    }
    pts.get(at[lane]).copied()
}

/// Converts an `f64` ball to `T`, padding the radius so that containment survives the
/// conversion and the user's own check in `T`: by the centre's conversion error and by a few
/// ulps of the radius. (`p − c` rounds to within half an ulp of its own size, not of the
/// coordinates': subtraction is correctly rounded. A pad of 4 ulps of the centre's magnitude,
/// there until 2026-11-28, made the exact ball of a unit-sized `f32` cloud at 10⁵ 5 % too
/// large.)
pub(crate) fn ball_from64<T: Real, const D: usize>(b: &Ball64<D>, max_d2: f64) -> GeomResult<Ball<T, D>> {
    let center = Point::<T, D>::from(SVector::<T, D>::from_fn(|i, _| T::lit(b.center[i])));
    let shift = (to64(&center) - b.center).norm();
    let eps = T::epsilon().to_f64();
    let r = b.r2.max(max_d2).max(0.0).sqrt();
    let r = r * (1.0 + 4.0 * eps) + shift + f64::MIN_POSITIVE;
    Ball::new(center, T::lit(r))
}

/// How many points outside the candidates' ball one pass may add to the candidates.
const OUTSIDE_CAP: usize = 2048;

/// How many points outside the seed's ball the candidate lists are sized for at first.
const TYPICAL_OUTSIDE: usize = 512;

/// How many band points a scan keeps before giving up on skipping the confirming scan.
const NEAR_CAP: usize = 1 << 16;

/// `|p - c|²` for four points at once, written so that the compiler computes the four with
/// packed instructions over the points' coordinates as they lie in memory.
#[inline(always)]
fn group_d2<T: Real, const D: usize>(group: &[Point<T, D>], c: &Point<T, D>) -> [T; 4] {
    let mut d2 = [T::zero(); 4];
    for (j, p) in group.iter().take(4).enumerate() {
        for i in 0..D {
            let d = p[i] - c[i];
            d2[j] += d * d;
        }
    }
    d2
}

/// The largest `|p - c|²` over a few points (0 for none). Points go four at a time
/// ([`group_d2`]), each of the four into its own running maximum, so no point's comparison
/// waits for the previous one's (eight maxima fed one point at a time, the previous form, made
/// the minimal ball's confirming pass 1.8× slower on the bunny).
#[inline]
pub(crate) fn chunk_max_d2<T: Real, const D: usize>(points: &[Point<T, D>], c: &Point<T, D>) -> T {
    fold_d2(points, c, |_, _| {}).0
}

/// [`fold_d2`] over at most [`SCAN_CHUNK`] points that writes each point's `|p - c|²` to
/// `out`, for a scan that then visits the points one by one.
#[inline]
fn chunk_d2<T: Real, const D: usize>(
    points: &[Point<T, D>],
    c: &Point<T, D>,
    out: &mut [T; SCAN_CHUNK],
) -> (T, T) {
    fold_d2(points, c, |start, d2| out[start..start + d2.len()].copy_from_slice(d2))
}

/// The largest `|p - c|²` over the points (0 for none) and their sum (not finite exactly when
/// some squared distance is not: a NaN or infinite coordinate), handing `each(index of the
/// first, the squared distances)` every group of four and every point left over. (The sum
/// is dead code, removed, where a caller ignores it.)
#[inline(always)]
fn fold_d2<T: Real, const D: usize>(
    points: &[Point<T, D>],
    c: &Point<T, D>,
    mut each: impl FnMut(usize, &[T]),
) -> (T, T) {
    let mut lanes = [T::zero(); 4];
    let mut sums = [T::zero(); 4];
    let groups = points.chunks_exact(4);
    let rest = groups.remainder();
    for (g, group) in groups.enumerate() {
        let d2 = group_d2(group, c);
        each(4 * g, &d2);
        for j in 0..4 {
            lanes[j] = if d2[j] > lanes[j] { d2[j] } else { lanes[j] };
            sums[j] += d2[j];
        }
    }
    let base = points.len() - rest.len();
    for (j, p) in rest.iter().enumerate() {
        let d2 = (p - c).norm_squared();
        each(base + j, &[d2]);
        lanes[0] = if d2 > lanes[0] { d2 } else { lanes[0] };
        sums[0] += d2;
    }
    (lanes.iter().fold(T::zero(), |m, &x| if x > m { x } else { m }), sums[0] + sums[1] + sums[2] + sums[3])
}

/// Points per chunk of [`scan_chunks`].
const SCAN_CHUNK: usize = 64;

/// The largest `|p - c|²` over the points and their sum ([`fold_d2`]), appending to `outside`
/// the indices of the points beyond `threshold` and to `near` those beyond `inner` (`inner ≤
/// threshold`; the outside ones among them; equal, nothing is added to `near`, nor once it
/// holds [`NEAR_CAP`]). Works in chunks of 64: a branch-free pass finds each chunk's largest
/// squared distance, and only chunks that reach past `inner` are visited, reading the
/// distances that pass kept rather than computing them again. A visit gathers the points
/// without a branch ([`gather_beyond`]): on the bunny's first pass after the axis seed about
/// one point in seven is outside, spread at random, and a branch per point on the band (which
/// the sampled seed's first pass keeps) was missed about 60 times a ball.
pub(crate) fn scan_chunks<T: Real, const D: usize>(
    points: &[Point<T, D>],
    c: &Point<T, D>,
    inner: T,
    threshold: T,
    outside: &mut Vec<usize>,
    near: &mut Vec<usize>,
) -> (T, T) {
    let mut max_d2 = T::zero();
    let mut d2s = [T::zero(); SCAN_CHUNK];
    let mut found = [0usize; SCAN_CHUNK + 4];
    let mut sum = T::zero();
    for (k, chunk) in points.chunks(SCAN_CHUNK).enumerate() {
        let (cmax, chunk_sum) = chunk_d2(chunk, c, &mut d2s);
        sum += chunk_sum;
        max_d2 = if cmax > max_d2 { cmax } else { max_d2 };
        if cmax > inner {
            let n = gather_beyond(&d2s[..chunk.len()], threshold, k * SCAN_CHUNK, &mut found);
            append_found(outside, &found, n);
            if inner < threshold && near.len() <= NEAR_CAP {
                let n = gather_beyond(&d2s[..chunk.len()], inner, k * SCAN_CHUNK, &mut found);
                append_found(near, &found, n);
            }
        }
    }
    (max_d2, sum)
}

/// Positions of the set bits of every 4-bit mask, lowest first (the rest padded with 0).
const SET_BITS: [[u32; 4]; 16] = {
    let mut table = [[0u32; 4]; 16];
    let mut mask = 0;
    while mask < 16 {
        let (mut bit, mut n) = (0, 0);
        while bit < 4 {
            if mask & (1 << bit) != 0 {
                table[mask][n] = bit as u32;
                n += 1;
            }
            bit += 1;
        }
        mask += 1;
    }
    table
};

/// How many bits every 4-bit mask has set.
const SET_BIT_COUNT: [u8; 16] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];

/// Writes `first + j` to `found` for every `d2[j] > threshold` (`d2` at most [`SCAN_CHUNK`]
/// long), in order, and returns how many. Four at a time: one packed compare makes a mask
/// ([`Real::gt_mask4`]; four scalar compares and `seta`s before), whose set bits' positions
/// come from a table and are written all four (the count moves by the mask's population, also
/// from a table), so there is no branch and no store waiting on a count moved per point: about
/// 4 instructions a point, where writing every index and moving the count by each comparison
/// took 10. `found` has room for four more than `d2`.
#[inline]
fn gather_beyond<T: Real>(
    d2: &[T],
    threshold: T,
    first: usize,
    found: &mut [usize; SCAN_CHUNK + 4],
) -> usize {
    let mut n = 0;
    let groups = d2.chunks_exact(4);
    let rest = groups.remainder();
    for (g, d) in groups.enumerate() {
        let mask = T::gt_mask4([d[0], d[1], d[2], d[3]], [threshold; 4]) as usize;
        let base = first + 4 * g;
        let at = SET_BITS[mask];
        let out = &mut found[n..n + 4];
        for l in 0..4 {
            out[l] = base + at[l] as usize;
        }
        // From a table: without the `popcnt` target feature, `count_ones` is a dozen shifts
        // and masks.
        n += SET_BIT_COUNT[mask] as usize;
    }
    let base = first + d2.len() - rest.len();
    for (j, &x) in rest.iter().enumerate() {
        found[n] = base + j;
        n += usize::from(x > threshold);
    }
    n
}

/// Appends the first `n` entries of `found` to `list`: all of them copied, then cut back, a
/// copy of fixed length (copying a varying count mispredicted the copy loop's end about once
/// a chunk).
#[inline]
fn append_found(list: &mut Vec<usize>, found: &[usize; SCAN_CHUNK + 4], n: usize) {
    let len = list.len();
    list.extend_from_slice(found);
    list.truncate(len + n);
}

/// The exact minimal enclosing ball (Welzl 1991, move-to-front with Gärtner's pivoting) of a
/// point set in 2D or 3D. Robust on duplicates and on collinear, coplanar and co-spherical
/// input; deterministic; expected O(n) (a pass or two over the points, after the same on a
/// sixteenth of them). Errors: empty input, a non-finite coordinate ([`GeomError::NonFinite`],
/// named first when there are both kinds) or one out of range ([`GeomError::OutOfRange`]).
///
/// [`GeomError::NonFinite`]: cd_geom::GeomError::NonFinite
/// [`GeomError::OutOfRange`]: cd_geom::GeomError::OutOfRange
///
/// ```
/// use cd_bv::minimal_ball;
/// use nalgebra::Point2;
/// let pts = [Point2::new(0.0f64, 0.0), Point2::new(2.0, 0.0), Point2::new(1.0, 0.5)];
/// let c = minimal_ball(&pts).unwrap();
/// assert!((c.radius() - 1.0).abs() < 1e-9 && (c.center() - Point2::new(1.0, 0.0)).norm() < 1e-9);
/// ```
pub fn minimal_ball<T: Real, const D: usize>(points: &[Point<T, D>]) -> GeomResult<Ball<T, D>> {
    let found = minimal_ball_parts(points)?;
    match found.answer {
        Answer::Exact { r2 } => ball_from64(&found.ball, r2),
        Answer::AroundScanCentre { centre, radius } => Ball::new(centre, T::lit(radius)),
    }
}

/// Sets of more than this many points are seeded from the minimal ball of a sample.
const SAMPLED_SEED_MIN: usize = 1024;

/// One point in this many makes the sample.
const SEED_STRIDE: usize = 16;

/// What [`minimal_ball_parts`] found: the candidates' ball in `f64`, the basis of points
/// defining it, and how to state it in `T` so that every point is inside.
struct MinimalBall<T: Real, const D: usize> {
    ball: Ball64<D>,
    basis: Vec<V<D>>,
    answer: Answer<T, D>,
}

/// The minimal ball in `T`, as found.
enum Answer<T: Real, const D: usize> {
    /// The `f64` ball, its squared radius grown to `r2` ([`ball_from64`]).
    Exact { r2: f64 },
    /// A ball around a scan's centre, already in `T`, of the largest distance that scan saw.
    AroundScanCentre { centre: Point<T, D>, radius: f64 },
}

/// [`minimal_ball`] before its conversion to `T`: a caller seeding a larger set starts from
/// the ball and its basis.
fn minimal_ball_parts<T: Real, const D: usize>(points: &[Point<T, D>]) -> GeomResult<MinimalBall<T, D>> {
    // The seed: on a large set, the minimal ball of every sixteenth point (computed the same
    // way). Its centre is close to the answer's, so the first scan takes few points and the
    // candidates' ball usually needs no confirming scan. Its points are validated there; the
    // rest by the first scan below (a point that is not finite makes the sum of the squared
    // distances not finite, and the largest distance bounds every coordinate).
    let (mut ball, mut basis, mut cand, mut validated) = if points.len() > SAMPLED_SEED_MIN {
        let sample: Vec<Point<T, D>> = points.iter().step_by(SEED_STRIDE).copied().collect();
        // An error there is a bad coordinate in the sample; the whole set names the error as
        // the validating pass would (a non-finite coordinate anywhere before one out of range).
        let seed = minimal_ball_parts(&sample).map_err(|_| invalid_points_error(points))?;
        // The sample's basis joins the candidates, but the candidates' solve starts from an
        // empty basis: started from the sample's (a basis grown over the sample's rounds), the
        // pivoting reached a ball 36 % larger than the minimal one on supports spanning 10⁻⁷
        // to 10¹⁰ (`regression_sampled_seed_gave_a_larger_ball`, a fuzz finding).
        let mut cand = Vec::with_capacity(seed.basis.len() + TYPICAL_OUTSIDE);
        cand.extend_from_slice(&seed.basis);
        (seed.ball, Vec::with_capacity(16), cand, false)
    } else {
        // Small sets: the points extreme along the coordinate axes, found in the validating
        // pass (the cheapest pass there is: two packed minima per point). Their ball is within
        // a few percent of the answer; the first scan then takes every point outside it.
        // Seeding with the 14 axis and diagonal extremes gives a tighter start but a pass 2–3
        // times as costly.
        let (lo, hi) = axis_extremes(points)?;
        // Room for the seed and a typical first scan's points outside, so the candidate and
        // index lists do not grow step by step.
        let mut cand: Vec<V<D>> = Vec::with_capacity(2 * D + TYPICAL_OUTSIDE);
        // A point extreme on two axes is here twice: pivoting finds the copy inside the ball
        // and never takes it, so the seed needs no sort and dedup.
        cand.extend(lo.iter().chain(hi.iter()).map(|&i| to64(&points[i])));
        // The seed's basis, kept for the candidates' solve below (they include the seed's
        // points). Pivoting rather than move-to-front, even on these few points.
        let mut basis = Vec::with_capacity(16);
        let ball = pivot_ball(&cand, &mut basis);
        (ball, basis, cand, true)
    };
    // Width of the band inside the scanned sphere whose points a scan also keeps. A sampled
    // seed is within a thousandth of the answer, but the answer's centre may sit that far
    // from it, so the first scan keeps a band a thousandth of the radius wide: the new ball
    // then need only contain the seed shrunk by it (0 after the axis-extremes seed, whose
    // ball is a few percent smaller than the answer: the scan takes the points beyond it).
    let mut band = if validated { 0.0 } else { 1e-3 * ball.r2.max(0.0).sqrt() };
    // Each pass's points outside and in the band (cleared per pass, allocated once).
    let mut all_outside: Vec<usize> = Vec::with_capacity(TYPICAL_OUTSIDE);
    let mut near: Vec<usize> = Vec::new();
    // Each pass adds at least one point outside the candidates' ball, so the ball grows; the
    // cap only guards against rounding making a point look outside forever. Either way the
    // final radius is the largest distance seen in the last pass, so every point is inside.
    for _ in 0..64 {
        // The scan runs in T (f32 stays f32 and vectorizes); the threshold absorbs T's
        // rounding of the squared distance.
        let c = Point::<T, D>::from(Vector::<T, D>::from_fn(|i, _| T::lit(ball.center[i])));
        // Points within δ of the sphere count as inside: δ covers the rounding of the centre to
        // T (its shift) and of |p - c|² in T, a few ulps of r (subtraction is correctly rounded,
        // so `p - c` carries no error of the coordinates' size). The final radius is the
        // largest distance seen anyway, but a δ of 8 ulps of the coordinates, as until
        // 2026-11-28, ended the search early far from the origin: the ball of a unit-sized
        // `f32` cloud at 10⁵ came out 1–2 % larger than the minimal one.
        let r = ball.r2.max(0.0).sqrt();
        let delta = 8.0 * T::epsilon().to_f64() * r + 2.0 * (to64(&c) - ball.center).norm();
        let threshold = T::lit((r + delta) * (r + delta));
        // Every point outside (up to a cap) becomes a candidate, so the next candidate ball is
        // usually final and one more pass only confirms it; past the cap, the farthest point
        // per orthant keeps the candidate set small.
        // Points in the band of width `band` inside the sphere are kept too (see below).
        let inner_r = (r + delta - band).max(0.0);
        let inner = if band > 0.0 { T::lit(inner_r * inner_r) } else { threshold };
        all_outside.clear();
        near.clear();
        let (max_d2, sum_d2) = scan_chunks(points, &c, inner, threshold, &mut all_outside, &mut near);
        if !validated {
            // Every point is within √max_d2 of `c` (to a few ulps): within the coordinate
            // range when that ball is. Otherwise the validating pass decides (and names the
            // error).
            let reach = max_d2.to_f64().sqrt() * (1.0 + 8.0 * T::epsilon().to_f64());
            let limit = T::coord_limit().to_f64();
            if !sum_d2.is_finite() || (0..D).any(|i| c[i].to_f64().abs() + reach > limit) {
                axis_extremes(points)?;
            }
            validated = true;
        }
        let complete = all_outside.len() <= OUTSIDE_CAP;
        if !complete {
            // The scan handed over indices only (storing the distances too cost the first
            // scan, which passes most points, a wider store per point); this rare path
            // computes them again.
            let mut by_d2: Vec<(T, usize)> = Vec::with_capacity(all_outside.len());
            let mut far: Vec<(T, usize)> = vec![(threshold, usize::MAX); 1 << D];
            for &idx in &all_outside {
                let d = points[idx] - c;
                let d2 = d.norm_squared();
                by_d2.push((d2, idx));
                let o = (0..D).fold(0, |acc, i| acc | ((d[i] > T::zero()) as usize) << i);
                if d2 > far[o].0 {
                    far[o] = (d2, idx);
                }
            }
            // Too many for the candidates: keep the farthest (the likeliest support points)
            // and each orthant's farthest (so every side of the ball is pulled out).
            by_d2
                .select_nth_unstable_by(OUTSIDE_CAP, |a, b| b.0.partial_cmp(&a.0).unwrap_or(Ordering::Equal));
            by_d2.truncate(OUTSIDE_CAP);
            by_d2.extend(far.iter().filter(|f| f.1 != usize::MAX));
            all_outside.clear();
            all_outside.extend(by_d2.iter().map(|&(_, i)| i));
            all_outside.sort_unstable();
            all_outside.dedup();
        }
        let before = ball.r2;
        if !all_outside.is_empty() {
            cand.extend(all_outside.iter().map(|&i| to64(&points[i])));
            ball = pivot_ball(&cand, &mut basis);
            // Every point this pass did not take lies within √inner of `c` (to T's rounding of
            // its distance; `inner` is the threshold itself unless a band was kept). When the
            // new ball contains that ball and every band point, it contains every point, and
            // the pass that would only confirm it is skipped. Band points the new ball misses
            // (it moved away from them) join the candidates and the ball is solved again, as
            // long as it still contains the inner ball: cheaper than a pass to find them. The
            // radius covers the candidates and band points exactly (the solve's tolerance is
            // relative 1e-12).
            let eps = T::epsilon().to_f64();
            let inner_reach = inner.to_f64().sqrt() * (1.0 + 8.0 * eps);
            if complete && near.len() <= NEAR_CAP {
                // Each round adds a band point outside the ball, so the ball grows; the bound
                // only guards against rounding.
                for _ in 0..=near.len() {
                    if inner_reach + (to64(&c) - ball.center).norm() > ball.r2.max(0.0).sqrt() {
                        break;
                    }
                    let known = cand.len();
                    cand.extend(near.iter().map(|&i| to64(&points[i])).filter(|p| !ball.contains(p)));
                    if cand.len() == known {
                        let band_points = near.iter().map(|&i| to64(&points[i]));
                        let r2 = cand
                            .iter()
                            .copied()
                            .chain(band_points)
                            .map(|p| (p - ball.center).norm_squared())
                            .fold(ball.r2, f64::max);
                        return Ok(MinimalBall { ball, basis, answer: Answer::Exact { r2 } });
                    }
                    ball = pivot_ball(&cand, &mut basis);
                }
            }
            let shift = (to64(&c) - ball.center).norm();
            // The next ball usually moves far less than this one did; a band a tenth of this
            // move wide lets the next pass decide without a confirming one after it. At most
            // a thousandth of the radius: a wider band costs the next pass more than the pass
            // it may save (the band's chunks are visited point by point).
            band = (0.1 * shift).min(1e-3 * ball.r2.max(0.0).sqrt());
        }
        if ball.r2 <= before * (1.0 + 1e-15) {
            // Nothing (meaningful) outside: finish around this pass's centre `c`, already in T,
            // with the largest distance the pass measured from it, which covers every point.
            // (Going back through the f64 centre added that centre's rounding twice more.)
            let eps = T::epsilon().to_f64();
            let r = max_d2.to_f64().sqrt() * (1.0 + 8.0 * eps) * (1.0 + 4.0 * eps) + f64::MIN_POSITIVE;
            return Ok(MinimalBall {
                ball,
                basis,
                answer: Answer::AroundScanCentre { centre: c, radius: r },
            });
        }
    }
    let r2 = points.iter().map(|p| (to64(p) - ball.center).norm_squared()).fold(0.0, f64::max);
    Ok(MinimalBall { ball, basis, answer: Answer::Exact { r2 } })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Point `i` of the R3 low-discrepancy sequence, in [-5, 5)³ (deterministic, well spread).
    fn r3(i: usize) -> V<3> {
        let a = [0.819_172_513_396_164_4, 0.671_043_606_703_789_2, 0.549_700_477_901_970_1];
        V::<3>::from_fn(|k, _| ((0.5 + a[k] * i as f64).fract() * 2.0 - 1.0) * 5.0)
    }

    /// The table-driven gather finds exactly the points a plain filter finds, in order, for
    /// every chunk length (whole groups of four and a remainder) and thresholds below, among
    /// and above the distances (ties are not beyond).
    #[test]
    fn gather_beyond_equals_a_filter() {
        for len in 0..=SCAN_CHUNK {
            let d2: Vec<f32> = (0..len).map(|i| ((i * 37 + len * 11) % 17) as f32).collect();
            for threshold in [-1.0f32, 0.0, 3.0, 8.0, 8.5, 16.0, 17.0] {
                // Offset by the chunk's first index, and appended after what a list holds.
                let mut found = [0usize; SCAN_CHUNK + 4];
                let n = gather_beyond(&d2, threshold, 100, &mut found);
                let mut list = vec![7, 9];
                append_found(&mut list, &found, n);
                let mut expected = vec![7, 9];
                expected.extend((0..len).filter(|&j| d2[j] > threshold).map(|j| 100 + j));
                assert_eq!(list, expected, "len {len} threshold {threshold}");
            }
        }
    }

    /// The four-lane search returns a plain scan's answer, the first point at the largest
    /// distance, for every list length (whole groups of four and a remainder) and for lists
    /// whose farthest distance is shared by points in different lanes or in the remainder.
    #[test]
    fn farthest_is_the_first_of_the_farthest() {
        let c = V::<3>::new(0.25, -0.5, 1.0);
        for n in 0..40 {
            let spread: Vec<V<3>> = (0..n).map(|i| r3(i + 3 * n)).collect();
            // Only three distinct distances, each taken by different points (along the six
            // half-axes from `c`, exact in binary): ties everywhere, in every lane.
            let tied: Vec<V<3>> = (0..n)
                .map(|i| {
                    let mut v = V::<3>::zeros();
                    v[i % 3] = if i % 6 < 3 { 1.0 } else { -1.0 } * ((i * 7) % 3) as f64;
                    c + v
                })
                .collect();
            for pts in [spread, tied] {
                let plain = pts.iter().enumerate().fold(None, |best: Option<(usize, f64)>, (i, p)| {
                    let d = (p - c).norm_squared();
                    match best {
                        Some((_, b)) if d <= b => best,
                        _ => Some((i, d)),
                    }
                });
                let found = farthest(&pts, &c);
                assert_eq!(found, plain.map(|(i, _)| pts[i]), "n = {n}");
                if let (Some(p), Some((i, _))) = (found, plain) {
                    assert_eq!(pts.iter().position(|q| *q == p), Some(i));
                }
            }
        }
    }

    /// Pivoting gives move-to-front's ball on random lists, on co-spherical points (every point
    /// a possible support) and on lists full of duplicates, in 2D and 3D; so does pivoting
    /// warm-started from the basis of the list's first third, as the minimal ball's second
    /// solve is.
    #[test]
    fn pivoting_equals_move_to_front() {
        fn check<const D: usize>(pts: &[V<D>]) {
            let by_mtf = minimal_ball_of_small(&mut pts.to_vec());
            let r = by_mtf.r2.sqrt();
            let mut basis = Vec::new();
            pivot_ball(&pts[..pts.len() / 3], &mut basis);
            for by_pivot in [pivot_ball(pts, &mut Vec::new()), pivot_ball(pts, &mut basis)] {
                assert!((by_pivot.r2.sqrt() - r).abs() <= 1e-9 * (1.0 + r), "{} vs {r}", by_pivot.r2.sqrt());
                assert!((by_pivot.center - by_mtf.center).norm() <= 1e-6 * (1.0 + r));
                assert!(pts
                    .iter()
                    .all(|p| (p - by_pivot.center).norm() <= by_pivot.r2.sqrt() * (1.0 + 1e-9) + 1e-12));
            }
        }
        for n in 1..120 {
            let cloud: Vec<V<3>> = (0..n).map(|i| r3(i + 7 * n)).collect();
            check(&cloud);
            let sphere: Vec<V<3>> = cloud.iter().map(|v| v.normalize() * 2.0).collect();
            check(&sphere);
            let dups: Vec<V<3>> = (0..n).map(|i| cloud[i % 3.min(n)]).collect();
            check(&dups);
            let flat: Vec<V<2>> = cloud.iter().map(|v| V::<2>::new(v.x, v.y)).collect();
            check(&flat);
        }
    }
}
