//! GJK (Gilbert, Johnson and Keerthi 1988) on any two [`SupportMap`]s in 2D or 3D:
//! distance with witness points, boolean intersection, the terminal simplex for EPA, and warm
//! starts from the previous frame.
//!
//! The iteration follows van den Bergen ("A fast and robust GJK implementation for collision
//! detection of convex objects", 1999): `v` is the point of the current simplex closest to the
//! origin, `w = s_{A−B}(−v)` the support point of the configuration-space obstacle against it,
//! and `v·w / |v|` a lower bound on the distance. It stops when
//!
//! * `|v|² − v·w ≤ ε_rel |v|²` (the bounds agree to the relative tolerance: separated);
//! * the simplex becomes full-dimensional, or `|v|² ≤ ε_abs² max|wᵢ|²` (the origin is inside
//!   the obstacle to within rounding: intersecting);
//! * `w` is already a vertex, or `|v|` stops decreasing (no more progress is possible in
//!   floating point: the current `v` is the answer);
//! * the iteration cap is reached: the result says so ([`GjkStatus::IterationCap`]) and
//!   carries both bounds, it never claims "separated" without proof.
//!
//! The sub-algorithm is the signed-volumes method ([`crate::simplex`]). Cost: each iteration is
//! two support calls plus a sub-simplex search of at most 15 subsets; on polytopes GJK
//! terminates in a finite number of iterations, on smooth shapes the tolerance bounds it.

use cd_geom::{Contact, ContactStatus, Point, Real, SupportMap, Vector};

use crate::epa::axis;
use crate::simplex::{Simplex, SimplexVertex};

/// Tolerances and iteration cap of GJK.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkConfig<T> {
    /// Maximal number of iterations (support-point evaluations after the first).
    pub max_iterations: u32,
    /// Relative tolerance on the distance: GJK stops when the lower and upper bounds agree to
    /// this fraction.
    pub rel_tolerance: T,
    /// Absolute tolerance, relative to the size of the obstacle A − B (the largest simplex
    /// vertex `w`, and at least the sum of the shapes' outer radii when they are known): a
    /// distance below `abs_tolerance` times that counts as contact, for distance and boolean
    /// queries alike.
    pub abs_tolerance: T,
}

impl<T: Real> Default for GjkConfig<T> {
    /// 128 iterations; `ε_rel = 100 ε`, `ε_abs = 10 ε` with `ε` the machine epsilon: tight
    /// enough that a 1e-7 gap between unit shapes in f64 is found, loose enough to absorb the
    /// rounding of the support points.
    fn default() -> Self {
        Self {
            max_iterations: 128,
            rel_tolerance: T::epsilon() * T::lit(100.0),
            abs_tolerance: T::epsilon() * T::lit(10.0),
        }
    }
}

/// What GJK concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GjkStatus {
    /// The shapes are disjoint; `distance` is exact to the tolerances.
    Separated,
    /// The shapes overlap or touch (the origin is in A − B to within the tolerances).
    Intersecting,
    /// The iteration cap was reached: the true distance lies in
    /// `[lower_bound, distance]`, which may not have met the tolerance.
    IterationCap,
    /// Rounding stopped GJK's progress before its bounds met: the true distance lies in
    /// `[lower_bound, distance]` (a lower bound of 0 means the shapes may overlap). Only
    /// simplices too ill-conditioned for floating point get here, such as slivers of a shape
    /// whose aspect ratio approaches 1/ε; a normal stop on rounding has a proven lower bound
    /// (above the rounding of the support points) that agrees with `distance`, and is
    /// `Separated`.
    Stalled,
}

/// The answer of [`gjk_distance`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkResult<T: Real, const D: usize> {
    /// What was concluded.
    pub status: GjkStatus,
    /// Upper bound on the distance (`|v|`): the distance itself when separated, `0` when
    /// intersecting.
    pub distance: T,
    /// Lower bound on the distance found along the way (`max v·w / |v|`, at least 0).
    pub lower_bound: T,
    /// Closest point on A.
    pub point_a: Point<T, D>,
    /// Closest point on B.
    pub point_b: Point<T, D>,
    /// The terminal simplex: EPA starts from it.
    pub simplex: Simplex<T, D>,
    /// Number of iterations run.
    pub iterations: u32,
}

impl<T: Real, const D: usize> GjkResult<T, D> {
    /// The separated contact of the shapes grown by the radii (`None` when GJK found the cores
    /// intersecting or touching: that is EPA's or SAT's job).
    pub fn separated_contact(&self, radius_a: T, radius_b: T) -> Option<Contact<T, D>> {
        let n = self.normal();
        if self.status == GjkStatus::Intersecting || n.norm_squared() <= T::zero() {
            return None;
        }
        let status = match self.status {
            GjkStatus::IterationCap => ContactStatus::IterationCap,
            GjkStatus::Stalled => ContactStatus::Unresolved,
            _ => ContactStatus::Converged,
        };
        Some(Contact {
            point_a: self.point_a + n * radius_a,
            point_b: self.point_b - n * radius_b,
            normal: n,
            distance: self.distance - radius_a - radius_b,
            status,
        })
    }

    /// The distance a conservative caller may rely on: `distance` when GJK converged, the
    /// proven `lower_bound` when it stopped at the iteration cap or stalled (where `distance`
    /// is only an upper bound, and stepping by it could step through the contact).
    pub fn safe_distance(&self) -> T {
        match self.status {
            GjkStatus::IterationCap | GjkStatus::Stalled => self.lower_bound,
            _ => self.distance,
        }
    }

    /// Unit vector from A's closest point towards B's, or zero when intersecting.
    pub fn normal(&self) -> Vector<T, D> {
        let v = self.point_b - self.point_a;
        let n = v.norm();
        if n > T::zero() && self.status != GjkStatus::Intersecting {
            v / n
        } else {
            Vector::zeros()
        }
    }
}

/// The answer of [`gjk_intersects`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Intersection<T: Real, const D: usize> {
    /// Disjoint, proven by the separating axis `axis` (not unit): every point of A has a
    /// smaller `axis·x` than every point of B (by at least the margin asked for).
    Separated {
        /// A separating direction pointing from A towards B.
        axis: Vector<T, D>,
    },
    /// Overlapping or touching (to within the tolerances).
    Intersecting,
    /// The iteration cap was reached before either could be proven; the distance lies in
    /// `[lower_bound, upper_bound]`.
    Undecided {
        /// Proven lower bound on the distance.
        lower_bound: T,
        /// Proven upper bound on the distance.
        upper_bound: T,
    },
}

/// What GJK ended with, kept between frames so the next query on the same pair starts where
/// this one stopped (temporal coherence): the last direction (boolean queries: usually one
/// support call settles a separated pair) and the directions of the terminal simplex's
/// vertices (distance queries: the simplex is rebuilt from them, and GJK needs about two
/// iterations instead of five on coherent motion).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkCache<T: Real, const D: usize> {
    /// The last `v = a − b` (from B's closest point to A's), or zero for "no information".
    pub direction: Vector<T, D>,
    /// The directions of the last terminal simplex's vertices (distance queries): the next
    /// distance query re-evaluates the supports along them and starts from that simplex, so
    /// after a small motion it converges in one or two iterations instead of rebuilding the
    /// simplex one vertex per iteration.
    simplex: [Vector<T, D>; 4],
    simplex_len: usize,
}

impl<T: Real, const D: usize> Default for GjkCache<T, D> {
    fn default() -> Self {
        Self { direction: Vector::zeros(), simplex: [Vector::zeros(); 4], simplex_len: 0 }
    }
}

impl<T: Real, const D: usize> GjkCache<T, D> {
    /// A cache holding only a direction (no simplex).
    pub fn from_direction(direction: Vector<T, D>) -> Self {
        Self { direction, ..Self::default() }
    }

    /// The starting simplex of a warm-started distance query: the supports re-evaluated along
    /// the remembered directions (`None` without a usable history).
    fn warm_simplex<A, B>(&self, a: &A, b: &B, hints: &mut [u32; 2]) -> Option<Simplex<T, D>>
    where
        A: SupportMap<T, D> + ?Sized,
        B: SupportMap<T, D> + ?Sized,
    {
        let dirs = &self.simplex[..self.simplex_len];
        let usable = |d: &Vector<T, D>| d.norm_squared() > T::zero() && d.iter().all(|x| x.is_finite());
        if dirs.is_empty() || !dirs.iter().all(usable) {
            return None;
        }
        let mut simplex = Simplex::single_along(cso_support(a, b, &dirs[0], hints), dirs[0]);
        for d in &dirs[1..] {
            simplex.push_along(cso_support(a, b, d, hints), *d);
        }
        Some(simplex)
    }

    /// Whether a usable direction is remembered (finite, non-zero): a warm start.
    fn has_direction(&self) -> bool {
        self.direction.iter().all(|x| x.is_finite()) && self.direction.norm_squared() > T::zero()
    }

    /// Remembers the terminal simplex's directions (kept only when every one is known).
    fn remember(&mut self, simplex: &Simplex<T, D>) {
        let dirs = simplex.directions();
        if dirs.iter().all(|d| d.norm_squared() > T::zero()) && dirs.len() <= D {
            self.simplex[..dirs.len()].copy_from_slice(dirs);
            self.simplex_len = dirs.len();
        } else {
            self.simplex_len = 0;
        }
    }
}

/// The support point of A − B against `-v` (farthest along `-v`), with one search hint per
/// shape ([`SupportMap::support_from`]: large polyhedra climb from their previous answer).
#[inline(always)]
pub(crate) fn cso_support<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    v: &Vector<T, D>,
    hints: &mut [u32; 2],
) -> SimplexVertex<T, D>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    let [hint_a, hint_b] = hints;
    SimplexVertex::new(a.support_from(&-v, hint_a), b.support_from(v, hint_b))
}

/// How the iteration should stop early.
#[derive(Clone, Copy)]
enum Mode<T> {
    /// Run to the distance.
    Distance,
    /// Stop as soon as the shapes are proven separated by more than this margin.
    Boolean(T),
    /// [`Mode::Boolean`] for a caller that needs only the verdict (no simplex for EPA): the
    /// shapes' inner balls may also settle an overlap before any iteration.
    Verdict(T),
}

impl<T: Copy> Mode<T> {
    /// The margin of the boolean modes.
    fn margin(self) -> Option<T> {
        match self {
            Mode::Distance => None,
            Mode::Boolean(m) | Mode::Verdict(m) => Some(m),
        }
    }
}

/// GJK distance between A and B (their closest points, or "intersecting").
///
/// `cache` warm-starts the search from the previous call on the same pair and receives the
/// final direction; pass `&mut GjkCache::default()` when there is none. The result is the
/// same with or without a cache, up to the tolerances.
///
/// ```
/// use cd_geom::Ball;
/// use cd_narrow::{gjk_distance, GjkCache, GjkConfig, GjkStatus};
/// use nalgebra::Point3;
///
/// let a = Ball::new(Point3::new(0.0f64, 0.0, 0.0), 1.0).unwrap();
/// let b = Ball::new(Point3::new(3.0, 0.0, 0.0), 1.0).unwrap();
/// let r = gjk_distance(&a, &b, &GjkConfig::default(), &mut GjkCache::default());
/// assert_eq!(r.status, GjkStatus::Separated);
/// assert!((r.distance - 1.0).abs() < 1e-6);
/// ```
pub fn gjk_distance<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    config: &GjkConfig<T>,
    cache: &mut GjkCache<T, D>,
) -> GjkResult<T, D>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    // The result is returned where `run` writes it (a result taken out of a tuple was copied,
    // simplex and all).
    run(a, b, config, cache, Mode::Distance, None, &mut None)
}

/// GJK distance between A and B, or `None` as soon as they are proven farther apart than
/// `max_distance` (the early exit of the boolean test, then the full distance otherwise): what
/// a contact query with a prediction distance needs.
pub fn gjk_distance_within<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    max_distance: T,
    config: &GjkConfig<T>,
    cache: &mut GjkCache<T, D>,
) -> Option<GjkResult<T, D>>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    let mut separating = None;
    let result = run(a, b, config, cache, Mode::Boolean(max_distance.max(T::zero())), None, &mut separating);
    if separating.is_some() || (result.status == GjkStatus::Separated && result.distance > max_distance) {
        None
    } else {
        Some(result)
    }
}

/// GJK boolean test: are A and B closer than `margin` (`0` for plain intersection)?
///
/// Stops at the first separating axis, so it is cheaper than [`gjk_distance`] on separated
/// pairs. `cache` as for [`gjk_distance`]; after `Separated` it holds the separating axis,
/// which is the classic cached separating axis of the next frame.
///
/// Balls around the two interior points decide clear cases without iterating: when the
/// outer balls ([`SupportMap::outer_radius`]) are farther apart than `margin`, so are the
/// shapes (`Separated` along the line between the interior points; checked first, warm or
/// cold, and by [`gjk_distance_within`] too); when the inner balls
/// ([`SupportMap::inner_radius`]) come within `margin`, so do the shapes (`Intersecting`;
/// checked before any support call when cold, and when a warm axis no longer separates).
pub fn gjk_intersects<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    margin: T,
    config: &GjkConfig<T>,
    cache: &mut GjkCache<T, D>,
) -> Intersection<T, D>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    let margin = margin.max(T::zero());
    // A cold query needs the interior points for its first direction anyway: the inner balls
    // then cost a few comparisons, and settle a deep overlap with nothing else computed.
    let points = (!cache.has_direction()).then(|| (a.interior_point(), b.interior_point()));
    if let Some((pa, pb)) = &points {
        if inner_balls_within(&(pa - pb), a.inner_radius() + b.inner_radius() + margin) {
            cache.simplex_len = 0;
            return Intersection::Intersecting;
        }
    }
    let mut separating = None;
    let r = run(a, b, config, cache, Mode::Verdict(margin), points, &mut separating);
    if let Some(axis) = separating {
        return Intersection::Separated { axis };
    }
    match r.status {
        GjkStatus::Intersecting => Intersection::Intersecting,
        GjkStatus::Separated if r.distance <= margin => Intersection::Intersecting,
        GjkStatus::Separated => Intersection::Separated { axis: r.point_b - r.point_a },
        GjkStatus::IterationCap | GjkStatus::Stalled => {
            if r.distance <= margin {
                Intersection::Intersecting
            } else {
                Intersection::Undecided { lower_bound: r.lower_bound, upper_bound: r.distance }
            }
        }
    }
}

/// Does a proven lower bound on the distance of A − B from the origin (squared, `bound_sq`)
/// separate the shapes by more than `margin`, beyond the contact tolerance? A distance query
/// calls shapes closer than `abs_tolerance` times the scale (the largest |w| seen, at least
/// the shapes' size) touching, distance 0, so a boolean one may not call them separated: two boxes
/// touching along an edge, one posed by a quarter turn whose quaternion rounds, were 10⁻¹⁶
/// apart, "separated" for `intersects` and without a contact, while `distance` said 0 (found
/// by the lattice property test).
#[inline(always)]
fn beyond_contact<T: Real>(bound_sq: T, margin: T, scale_sq: T, config: &GjkConfig<T>) -> bool {
    let tol_sq = config.abs_tolerance * config.abs_tolerance * scale_sq;
    if margin == T::zero() {
        // The usual plain intersection test: no square root.
        return bound_sq > tol_sq;
    }
    let limit = margin + tol_sq.sqrt();
    bound_sq > limit * limit
}

/// Whether balls of radius `reach` in total, around interior points `gap` apart, overlap: the
/// inner balls of A and B (plus the margin) — then A and B come within the margin too. A NaN
/// anywhere answers no, leaving the decision to GJK.
#[inline]
fn inner_balls_within<T: Real, const D: usize>(gap: &Vector<T, D>, reach: T) -> bool {
    // Also false for a NaN reach.
    if reach.partial_cmp(&T::zero()) != Some(core::cmp::Ordering::Greater) {
        return false;
    }
    if gap.amax() > reach {
        return false; // no component may exceed the length
    }
    // Compared as a ratio: squaring a gap or a reach near the top of the range overflows.
    (gap / reach).norm_squared() <= T::one()
}

/// The GJK loop shared by distance and boolean queries. Returns the result and, in boolean
/// mode, sets `separating` to the separating axis when one was found before convergence (an
/// out-parameter rather than a returned pair, so that the result is written once, in place).
fn run<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    config: &GjkConfig<T>,
    cache: &mut GjkCache<T, D>,
    mode: Mode<T>,
    points: Option<(Point<T, D>, Point<T, D>)>,
    separating: &mut Option<Vector<T, D>>,
) -> GjkResult<T, D>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    // The shapes' size (their outer radii), the least scale of the absolute tolerance: the
    // support points' differences `w` alone can all be near the origin (shapes touching near a
    // corner of A − B), which left no tolerance at all. Not the coordinates' distance from the
    // origin: that would loosen every query far from it (10 ulps of 10⁴ in `f32` is 0.01).
    let shape_scale_sq = {
        let s = a.outer_radius() + b.outer_radius();
        if s.is_finite() {
            s * s
        } else {
            T::zero()
        }
    };
    // Distance queries with a remembered simplex start from it, re-evaluated at the new poses
    // (after a small motion it is already close to the terminal one).
    if let Mode::Distance = mode {
        let mut hints = [0; 2];
        if let Some(mut warm) = cache.warm_simplex(a, b, &mut hints) {
            let v = warm.reduce();
            if !warm.is_full() {
                let start = Start { simplex: warm, v, hints, scale_sq: shape_scale_sq };
                let result = iterate(a, b, config, cache, mode, start, separating);
                if result.status != GjkStatus::Stalled {
                    return result;
                }
                // After a large motion the old simplex can be an ill-conditioned start: a
                // fast-spinning plate's warm run stalled at its first step with no proven
                // bound while a cold run converged (fuzz finding 55). Such a stall is
                // retried from scratch rather than reported.
                *cache = GjkCache::default();
            }
        }
    }
    let warm = cache.has_direction();
    // The interior points (computed once, or passed in by the caller): their difference is a
    // cold start's first direction, and the boolean modes test balls around them, which is
    // cheaper than the first support call even warm.
    let points = if warm && mode.margin().is_none() {
        None
    } else {
        Some(points.unwrap_or_else(|| (a.interior_point(), b.interior_point())))
    };
    let centres = points.map(|(pa, pb)| pa - pb);
    if let (Some((pa, pb)), Some(c), Some(margin)) = (points, centres, mode.margin()) {
        let radii = a.outer_radius() + b.outer_radius();
        if outer_balls_apart(&c, radii + margin, &pa, &pb) {
            cache.direction = c;
            let gap = c.norm();
            // The interior points lie in their shapes: the gap is an upper bound on the distance.
            let result = decided_by_balls(cache, c, GjkStatus::Separated, gap, (gap - radii).max(T::zero()));
            *separating = Some(-c);
            return result;
        }
    }
    let start = match centres {
        _ if warm => cache.direction,
        // No history: the centres' difference points roughly at the closest point of A − B,
        // which saves one or two iterations over an arbitrary axis.
        Some(c) if c.norm_squared() > T::zero() && c.iter().all(|x| x.is_finite()) => c,
        _ => axis(0, T::one()),
    };
    // The first vertex: the support point of A − B against the previous answer's direction,
    // close to the previous closest point when the motion was small.
    let mut hints = [0; 2];
    let first = cso_support(a, b, &start, &mut hints);
    // `first` is the support point of A − B against `start`: when it is still on the positive
    // side of `start`, so is all of A − B, and `start` separates the shapes. Warm-started
    // boolean queries on coherent pairs usually end here, after two support calls.
    let first_dot = start.dot(&first.w);
    if let Some(margin) = mode.margin() {
        if first_dot > T::zero()
            && beyond_contact(
                first_dot * first_dot / start.norm_squared(),
                margin,
                first.w.norm_squared().max(shape_scale_sq),
                config,
            )
        {
            cache.direction = start;
            let (point_a, point_b) = (first.a, first.b);
            let bound = first_dot / start.norm();
            let result = GjkResult {
                status: GjkStatus::Separated,
                distance: first.w.norm(),
                lower_bound: bound,
                point_a,
                point_b,
                simplex: Simplex::single(first),
                iterations: 0,
            };
            *separating = Some(-start);
            return result;
        }
    }
    // A warm start whose axis no longer separates: the pair may have moved deep into
    // overlap, which the inner balls settle without iterating (cold starts are checked by
    // `gjk_intersects` before it gets here).
    if let (true, Mode::Verdict(margin), Some(c)) = (warm, mode, centres) {
        if inner_balls_within(&c, a.inner_radius() + b.inner_radius() + margin) {
            let result = decided_by_balls(cache, c, GjkStatus::Intersecting, T::zero(), T::zero());
            return result;
        }
    }
    iterate(
        a,
        b,
        config,
        cache,
        mode,
        Start { simplex: Simplex::single_along(first, start), v: first.w, hints, scale_sq: shape_scale_sq },
        separating,
    )
}

/// Whether balls of radius `reach` in total, around interior points `pa` and `pb` (`gap`
/// apart), are certainly disjoint: the outer balls of A and B farther apart than the margin,
/// so A and B are too, separated along the line between the interior points. The gap must
/// clear the reach by the rounding of the interior points' coordinates. A NaN or an infinite
/// reach (an unknown outer ball) answers no, leaving the decision to GJK.
#[inline]
fn outer_balls_apart<T: Real, const D: usize>(
    gap: &Vector<T, D>,
    reach: T,
    pa: &Point<T, D>,
    pb: &Point<T, D>,
) -> bool {
    if !reach.is_finite() || reach < T::zero() {
        return false;
    }
    let needed = reach + T::epsilon() * T::lit(64.0) * (reach + pa.coords.amax() + pb.coords.amax());
    // The length is at least the largest component; compared as a ratio, no overflow.
    gap.amax() > needed || (needed > T::zero() && (gap / needed).norm_squared() > T::one())
}

/// The answer of a boolean query settled by balls around the interior points (`centres` =
/// A's minus B's): only its status and bounds are meaningful (boolean callers read nothing
/// else), and no simplex history is kept.
fn decided_by_balls<T: Real, const D: usize>(
    cache: &mut GjkCache<T, D>,
    centres: Vector<T, D>,
    status: GjkStatus,
    distance: T,
    lower_bound: T,
) -> GjkResult<T, D> {
    cache.simplex_len = 0;
    let origin = Point::origin();
    GjkResult {
        status,
        distance,
        lower_bound,
        point_a: origin,
        point_b: origin,
        simplex: Simplex::single(SimplexVertex { w: centres, a: origin, b: origin }),
        iterations: 0,
    }
}

/// Where GJK's main loop starts: a simplex, its closest point `v` and the shapes' support
/// hints so far.
struct Start<T: Real, const D: usize> {
    simplex: Simplex<T, D>,
    v: Vector<T, D>,
    hints: [u32; 2],
    /// A lower limit for the absolute tolerance's scale (squared): the shapes' size.
    scale_sq: T,
}

/// GJK's main loop from `start`.
fn iterate<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    config: &GjkConfig<T>,
    cache: &mut GjkCache<T, D>,
    mode: Mode<T>,
    mut start: Start<T, D>,
    separating: &mut Option<Vector<T, D>>,
) -> GjkResult<T, D>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    // The simplex is worked on where the caller put it (moving it into a local was a copy).
    let simplex = &mut start.simplex;
    let (mut v, mut hints) = (start.v, start.hints);
    let mut vv = v.norm_squared();
    // |v|² as the sub-simplex solve computed it, in `f64`: the progress test's measure.
    let mut vv_wide = simplex.closest_norm_squared_wide();
    // Largest |w|² seen, and at least the shapes' size (`start.scale_sq`): the scale of the
    // absolute tolerance (kept incrementally: no loop). With |w| alone, shapes touching near a
    // corner of A − B, where every w is near the origin, had a tolerance of nothing: boxes
    // touching along an edge, one posed through a rounding quaternion, came out 2·10⁻¹⁶ apart,
    // "separated" (the lattice property test).
    let mut scale_sq = simplex.max_norm_squared().max(start.scale_sq);
    // Best lower bound so far, squared: max (v·w)² / |v|² over iterations with v·w > 0.
    let mut lower_sq = T::zero();
    let eps_abs_sq = config.abs_tolerance * config.abs_tolerance;
    let margin = mode.margin();
    let mut status = GjkStatus::IterationCap;
    let mut iterations = 0;

    while iterations < config.max_iterations {
        if vv <= eps_abs_sq * scale_sq {
            status = GjkStatus::Intersecting;
            break;
        }
        iterations += 1;
        let w = cso_support(a, b, &v, &mut hints);
        let vw = v.dot(&w.w);
        scale_sq = scale_sq.max(w.w.norm_squared());
        if vw > T::zero() {
            // v·w / |v| is a proven lower bound: no point of A − B is closer along v.
            let bound_sq = vw * vw / vv;
            lower_sq = lower_sq.max(bound_sq);
            if margin.is_some_and(|m| beyond_contact(bound_sq, m, scale_sq, config)) {
                *separating = Some(-v);
                status = GjkStatus::Separated;
                break;
            }
        }
        // Converged: the lower bound v·w/|v| and the upper bound |v| agree. A vertex already in
        // the simplex always stops here (v·w ≥ |v|² for every point of the simplex).
        if vv - vw <= config.rel_tolerance * vv {
            status = GjkStatus::Separated;
            break;
        }
        simplex.push_along(w, v);
        let next = simplex.reduce();
        let next_vv = next.norm_squared();
        // Judged in `f64`: in `f32` a segment nearly perpendicular to the old closest point
        // turns it while shortening it by less than an ulp, and GJK stopped there, 2·10⁻⁴ off
        // on a unit capsule beside a flat box (FUZZING.md, finding 62).
        let next_wide = simplex.closest_norm_squared_wide();
        let progress = next_wide < vv_wide;
        v = next;
        vv = next_vv;
        vv_wide = next_wide;
        if simplex.is_full() {
            status = GjkStatus::Intersecting;
            break;
        }
        // No progress in floating point (or a NaN from a misbehaving user support map): the
        // answer cannot improve. It is within rounding of the previous one when a proven
        // lower bound agrees with it; otherwise the simplex was too ill-conditioned to resolve
        // (the origin may even be inside) and the answer says so instead of claiming a
        // separation. The slack is √ε of the distance plus √ε of the shapes' size: ordinary
        // rounding stalls end orders of magnitude inside it. The lower bound must itself be
        // above the support points' rounding (the absolute tolerance), or it proves nothing:
        // a 6·10⁻⁴-thick slab 2·10⁹ wide crossed by a needle stalled at |v| = 3·10⁻⁴ with no
        // lower bound at all, well inside a slack of 29, while the needle pierced the slab
        // (fuzz finding 15).
        if !progress || !next_vv.is_finite() {
            let slack = T::epsilon().sqrt() * (vv.sqrt() + scale_sq.sqrt());
            let proven = lower_sq > eps_abs_sq * scale_sq;
            let certified = proven && vv.sqrt() - lower_sq.sqrt() <= slack;
            status = if certified { GjkStatus::Separated } else { GjkStatus::Stalled };
            break;
        }
    }

    // Converged (or certified) closer than the contact tolerance: the check at the top of the
    // loop would have called it contact one pass later.
    if status == GjkStatus::Separated && vv <= eps_abs_sq * scale_sq {
        status = GjkStatus::Intersecting;
    }
    let (point_a, point_b) = simplex.witnesses();
    let distance = if status == GjkStatus::Intersecting { T::zero() } else { vv.sqrt() };
    if status != GjkStatus::Intersecting {
        cache.direction = v;
        cache.remember(simplex);
    } else {
        cache.simplex_len = 0;
    }
    GjkResult {
        status,
        distance,
        lower_bound: lower_sq.sqrt().min(distance),
        point_a,
        point_b,
        simplex: *simplex,
        iterations,
    }
}
