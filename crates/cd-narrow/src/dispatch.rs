//! The dispatcher: one entry point for any two 3D shapes, choosing the best algorithm for the
//! pair — analytic formulas first, SAT for boxes, GJK + EPA for everything else — in both
//! orders (the answer for `(b, a)` is the mirror of `(a, b)`).
//!
//! | pair | algorithm |
//! |---|---|
//! | ball/ball, ball/box, ball/capsule, capsule/capsule, ball/triangle, capsule/triangle | [`crate::pairs`] (closed form) |
//! | box/box | [`crate::sat_obb`] + [`crate::box_box`] (exact SAT, clipping; separated: SAT's axis or the nearest vertices, certified, GJK only for degenerate pairs) |
//! | box/triangle | [`crate::box_triangle`] (13-axis SAT, clipping; GJK for separated gaps) |
//! | hull/hull manifolds (≤ 1,024 edge pairs) | [`crate::sat_polyhedron`] (Gauss-map SAT, clipping) |
//! | half-space/any convex | deepest support point ([`crate::pairs::halfspace_convex_contact`]) |
//! | any other pair of convex shapes | GJK + EPA on the cores plus radii ([`crate::convex`]) |
//! | half-space/half-space | [`NarrowError::Unsupported`] (unbounded) |

use core::fmt;

use nalgebra::{Isometry3, Matrix3};

use cd_geom::{
    validate, Ball, Capsule, Cone, Contact, ConvexPolyhedron, Cylinder, Lozenge, Obb, Plane, Point, Real,
    Segment, SupportMap, Triangle, Vector,
};

use crate::box_box::{box_box_contact, box_box_manifold};
use crate::box_triangle::{box_triangle_contact, box_triangle_manifold};
use crate::convex::{convex_contact, convex_contact_up_to, convex_intersects, ConvexConfig};
use crate::gjk::{gjk_distance, gjk_distance_within, GjkCache, Intersection};
use crate::manifold::{Manifold, ManifoldPoint, MAX_MANIFOLD_POINTS};
use crate::pairs::*;
use crate::sat_obb::SatCache;
use crate::sat_polyhedron::{hull_hull_manifold, hull_hull_manifold_along, HullSatCache, PlacedHull};

/// A 3D shape in world space, as the narrow phase sees it.
#[derive(Clone, Copy)]
pub enum Shape<'a, T: Real> {
    /// A ball.
    Ball(&'a Ball<T, 3>),
    /// A capsule.
    Capsule(&'a Capsule<T, 3>),
    /// An oriented box.
    Box(&'a Obb<T, 3>),
    /// A triangle (two-sided; its face normal is preferred when a core pierces it).
    Triangle(&'a Triangle<T, 3>),
    /// A segment.
    Segment(&'a Segment<T, 3>),
    /// A cylinder.
    Cylinder(&'a Cylinder<T>),
    /// A cone.
    Cone(&'a Cone<T>),
    /// A lozenge: a rectangle (or parallelogram) grown by a radius.
    Lozenge(&'a Lozenge<T>),
    /// A convex polyhedron (vertices in world space).
    Polyhedron(&'a ConvexPolyhedron<T>),
    /// A convex polyhedron in its local frame, placed in the world by a pose (the usual form of
    /// a rigid body's hull: the vertices are never transformed, only support directions).
    Hull(&'a ConvexPolyhedron<T>, &'a Isometry3<T>),
    /// A half-space: the solid side of a plane, `n·x + d ≤ 0`.
    HalfSpace(&'a Plane<T, 3>),
    /// Any user convex shape given by its support map, grown by a radius (≥ 0 and a valid
    /// coordinate, else [`NarrowError::InvalidShape`]).
    Convex(&'a dyn SupportMap<T, 3>, T),
}

impl<T: Real> fmt::Debug for Shape<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl<'a, T: Real> Shape<'a, T> {
    /// The shape's kind, for messages.
    pub fn name(&self) -> &'static str {
        match self {
            Shape::Ball(_) => "ball",
            Shape::Capsule(_) => "capsule",
            Shape::Box(_) => "box",
            Shape::Triangle(_) => "triangle",
            Shape::Segment(_) => "segment",
            Shape::Cylinder(_) => "cylinder",
            Shape::Cone(_) => "cone",
            Shape::Lozenge(_) => "lozenge",
            Shape::Polyhedron(_) => "polyhedron",
            Shape::Hull(_, _) => "hull",
            Shape::HalfSpace(_) => "half-space",
            Shape::Convex(_, _) => "convex",
        }
    }

    /// The core support map and radius GJK works on (`None` for the unbounded half-space).
    fn core(&self) -> Option<(Core<'a, T>, T)> {
        Some(match *self {
            Shape::Ball(b) => (Core::Point(*b.center()), b.radius()),
            Shape::Capsule(c) => (Core::Segment(c.segment()), c.radius()),
            Shape::Box(b) => (Core::Box(b), T::zero()),
            Shape::Triangle(t) => (Core::Triangle(t), T::zero()),
            Shape::Segment(s) => (Core::Segment(*s), T::zero()),
            Shape::Cylinder(c) => (Core::Cylinder(c), T::zero()),
            Shape::Cone(c) => (Core::Cone(c), T::zero()),
            Shape::Lozenge(l) => (Core::Parallelogram(l), l.radius()),
            Shape::Polyhedron(p) => (Core::Polyhedron(p), T::zero()),
            Shape::Hull(p, pose) => (Core::hull(p, pose), T::zero()),
            Shape::Convex(s, r) => (Core::Dyn(s), r),
            Shape::HalfSpace(_) => return None,
        })
    }
}

/// A core shape for GJK: points and segments by value (balls and capsules do not store
/// them), everything else by reference. The built-in shapes are variants rather than trait
/// objects so their support functions inline into GJK (a jump on the variant instead of an
/// opaque call: about a quarter of GJK's time on small hulls); user shapes go through `Dyn`.
enum Core<'a, T: Real> {
    Point(Point<T, 3>),
    Segment(Segment<T, 3>),
    Box(&'a Obb<T, 3>),
    Triangle(&'a Triangle<T, 3>),
    Cylinder(&'a Cylinder<T>),
    Cone(&'a Cone<T>),
    /// A lozenge's core: its parallelogram (the radius is GJK's).
    Parallelogram(&'a Lozenge<T>),
    Polyhedron(&'a ConvexPolyhedron<T>),
    /// A posed hull.
    Hull(PosedHull<'a, T>),
    Dyn(&'a dyn SupportMap<T, 3>),
}

impl<'a, T: Real> Core<'a, T> {
    /// The core of a hull under `pose`.
    fn hull(p: &'a ConvexPolyhedron<T>, pose: &Isometry3<T>) -> Self {
        Core::Hull(PosedHull::new(p, pose))
    }
}

impl<T: Real> SupportMap<T, 3> for Core<'_, T> {
    #[inline]
    fn support(&self, d: &Vector<T, 3>) -> Point<T, 3> {
        match self {
            Core::Point(p) => *p,
            Core::Segment(s) => s.support(d),
            Core::Box(b) => b.support(d),
            Core::Triangle(t) => t.support(d),
            Core::Cylinder(c) => c.support(d),
            Core::Cone(c) => c.support(d),
            Core::Parallelogram(l) => l.core_support(d),
            Core::Polyhedron(p) => p.support(d),
            Core::Hull(h) => h.support(d),
            Core::Dyn(s) => s.support(d),
        }
    }

    #[inline]
    fn support_from(&self, d: &Vector<T, 3>, hint: &mut u32) -> Point<T, 3> {
        match self {
            Core::Polyhedron(p) => p.support_from(d, hint),
            Core::Hull(h) => h.support_from(d, hint),
            Core::Dyn(s) => s.support_from(d, hint),
            _ => self.support(d),
        }
    }

    #[inline]
    fn interior_point(&self) -> Point<T, 3> {
        match self {
            Core::Point(p) => *p,
            Core::Segment(s) => s.interior_point(),
            Core::Box(b) => *b.center(),
            Core::Triangle(t) => t.centroid(),
            Core::Cylinder(c) => c.interior_point(),
            Core::Cone(c) => c.interior_point(),
            Core::Parallelogram(l) => l.interior_point(),
            Core::Polyhedron(p) => *p.vertex_mean(),
            Core::Hull(h) => h.interior_point(),
            Core::Dyn(s) => s.interior_point(),
        }
    }

    #[inline]
    fn inner_radius(&self) -> T {
        match self {
            Core::Box(b) => b.inner_radius(),
            Core::Cylinder(c) => c.inner_radius(),
            Core::Cone(c) => c.inner_radius(),
            Core::Polyhedron(p) | Core::Hull(PosedHull { hull: p, .. }) => p.inner_radius(),
            Core::Dyn(s) => s.inner_radius(),
            // Flat cores; a lozenge's radius is the margin GJK adds, not part of its core.
            Core::Point(_) | Core::Segment(_) | Core::Triangle(_) | Core::Parallelogram(_) => T::zero(),
        }
    }

    #[inline]
    fn outer_radius(&self) -> T {
        match self {
            Core::Point(_) => T::zero(),
            Core::Segment(s) => s.outer_radius(),
            Core::Box(b) => b.outer_radius(),
            Core::Triangle(t) => t.outer_radius(),
            Core::Cylinder(c) => c.outer_radius(),
            Core::Cone(c) => c.outer_radius(),
            // The core parallelogram alone: its radius is GJK's margin.
            Core::Parallelogram(l) => (l.e0() + l.e1()).norm().max((l.e0() - l.e1()).norm()) * T::lit(0.5),
            Core::Polyhedron(p) | Core::Hull(PosedHull { hull: p, .. }) => p.outer_radius(),
            Core::Dyn(s) => s.outer_radius(),
        }
    }
}

/// Why the dispatcher could not answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NarrowError {
    /// The pair has no meaningful contact (two half-spaces).
    Unsupported {
        /// First shape's kind.
        a: &'static str,
        /// Second shape's kind.
        b: &'static str,
    },
    /// The prediction distance was NaN.
    InvalidPrediction,
    /// A distance query found no contact although its prediction was unlimited (a numerical
    /// corner the pair's algorithm did not settle; never expected, reported instead of a panic).
    Unresolved {
        /// First shape's kind.
        a: &'static str,
        /// Second shape's kind.
        b: &'static str,
    },
    /// A pose is not finite or moves a shape beyond the coordinate range (the shape
    /// constructors check their own coordinates; a posed hull's pose is checked here).
    InvalidPose,
    /// A shape handed over as raw data, which no constructor checked, is invalid: a user
    /// convex shape's radius is negative, not finite or beyond the coordinate range, or a 2D
    /// polygon slice is empty, has a coordinate that is not finite or beyond the coordinate
    /// range, or is not convex with counter-clockwise vertices.
    InvalidShape {
        /// What is wrong with it.
        reason: &'static str,
    },
}

impl fmt::Display for NarrowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NarrowError::Unsupported { a, b } => write!(f, "no narrow-phase query between a {a} and a {b}"),
            NarrowError::InvalidPrediction => f.write_str("the prediction distance is NaN"),
            NarrowError::Unresolved { a, b } => write!(f, "no distance found between a {a} and a {b}"),
            NarrowError::InvalidPose => {
                f.write_str("a pose is not finite or moves a shape beyond the coordinate range")
            }
            NarrowError::InvalidShape { reason } => write!(f, "invalid shape: {reason}"),
        }
    }
}

impl std::error::Error for NarrowError {}

/// The radius of a user convex shape must be a valid coordinate and not negative (as every
/// shape constructor requires of its own radii: two radii near the top of the range summed to
/// an infinite depth).
pub(crate) fn check_radius<T: Real>(radius: T) -> Result<(), NarrowError> {
    validate::non_negative(radius).map(|_| ()).map_err(|_| NarrowError::InvalidShape {
        reason: "the radius of a convex shape is negative, not finite or beyond the coordinate range",
    })
}

/// Checks what the shape constructors could not: a posed hull's pose (finite rotation, a
/// translation within the coordinate range, so no world-space point overflows) and a user
/// convex shape's radius. Inlined down to two tag tests: every other shape was validated when
/// built, and the out-of-line call was a tenth of a ball/ball query.
#[inline(always)]
fn check_shapes<T: Real>(a: &Shape<'_, T>, b: &Shape<'_, T>) -> Result<(), NarrowError> {
    let unchecked = |s: &Shape<'_, T>| matches!(s, Shape::Convex(..) | Shape::Hull(..));
    if unchecked(a) || unchecked(b) {
        check_posed_and_user_shapes(a, b)
    } else {
        Ok(())
    }
}

/// The checks of [`check_shapes`] for the shapes that need them.
#[inline(never)]
fn check_posed_and_user_shapes<T: Real>(a: &Shape<'_, T>, b: &Shape<'_, T>) -> Result<(), NarrowError> {
    for s in [a, b] {
        if let Shape::Convex(_, radius) = s {
            check_radius(*radius)?;
        }
        if let Shape::Hull(_, pose) = s {
            // `|x| ≤ limit` and `|x| < ∞` are false for NaN too; folded with `&`, not `&&`, so
            // the seven tests (run on every hull query) are not seven branches.
            let limit = T::coord_limit();
            let t_ok = pose.translation.vector.iter().fold(true, |ok, x| ok & (x.abs() <= limit));
            let q = pose.rotation.quaternion();
            let r_ok = [q.w, q.i, q.j, q.k].iter().fold(true, |ok, x| ok & (x.abs() < T::infinity()));
            if !(t_ok & r_ok) {
                return Err(NarrowError::InvalidPose);
            }
        }
    }
    Ok(())
}

/// Per-pair state kept between frames: GJK's last direction and SAT's last axis.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PairCache<T: Real> {
    /// Warm start of GJK.
    pub gjk: GjkCache<T, 3>,
    /// Cached separating axis of box pairs.
    pub sat: SatCache,
    /// Cached separating axis of hull pairs.
    pub hull: HullSatCache,
}

/// Hull pairs with at most this many edge pairs (two boxes: 144) get their manifold from SAT
/// (exact feature, quadratic in the edge counts); larger ones clip along EPA's normal, which
/// halved the narrow phase of the world benchmark's 12-vertex hulls (30 edges: 900 pairs) over
/// SAT. Single contacts always use GJK + EPA, which measured faster than SAT
/// even on 8-vertex hulls (4.9 vs 6.9 ms per 1,024 penetrating pairs).
const HULL_SAT_MAX_EDGE_PAIRS: usize = 256;

/// The shape as a placed hull, for the polytope paths (`identity` places world-space ones).
fn placed<'a, T: Real>(s: &Shape<'a, T>, identity: &'a Isometry3<T>) -> Option<PlacedHull<'a, T>> {
    match *s {
        Shape::Polyhedron(p) => Some(PlacedHull { hull: p, pose: identity }),
        Shape::Hull(p, pose) => Some(PlacedHull { hull: p, pose }),
        _ => None,
    }
}

/// Box/triangle: GJK for a separated gap within a positive prediction, SAT (exact depth) and
/// clipping for overlap.
fn box_triangle<T: Real>(
    bx: &Obb<T, 3>,
    t: &Triangle<T, 3>,
    p: T,
    cache: &mut PairCache<T>,
) -> Option<Contact<T, 3>> {
    if p == T::infinity() {
        // A distance query: plain GJK distance (its answer returned in place, where the
        // bounded query's `Option` moved the whole result and its simplex once more, and a
        // warm pair restarts from its last simplex rather than from its last direction).
        let g = gjk_distance(bx, t, &Default::default(), &mut cache.gjk);
        if let Some(c) = g.separated_contact(T::zero(), T::zero()) {
            return Some(c);
        }
    } else if p > T::zero() {
        let g = gjk_distance_within(bx, t, p, &Default::default(), &mut cache.gjk)?;
        if let Some(c) = g.separated_contact(T::zero(), T::zero()) {
            return Some(c);
        }
    }
    // GJK found them touching (or the caller wants overlaps only): SAT decides; with a
    // positive prediction it runs unbounded so a pair touching to rounding is kept.
    let c = match box_triangle_contact(bx, t, if p > T::zero() { T::infinity() } else { p }) {
        Some(c) => c,
        // A degenerate triangle, which SAT does not take, although GJK found them touching.
        None if p > T::zero() => {
            convex_contact(bx, T::zero(), t, T::zero(), &ConvexConfig::default(), &mut GjkCache::default())
        }
        None => return None,
    };
    (c.distance <= p).then_some(c)
}

fn small_hulls<T: Real>(a: &PlacedHull<'_, T>, b: &PlacedHull<'_, T>) -> bool {
    a.hull.edges().len() * b.hull.edges().len() <= HULL_SAT_MAX_EDGE_PAIRS
}

/// The contact of `a` and `b`, or `None` when they are farther apart than `prediction`.
///
/// ```
/// use cd_geom::{Ball, Obb};
/// use cd_narrow::{contact, PairCache, Shape};
/// use nalgebra::{Point3, Vector3, UnitQuaternion};
///
/// let ball = Ball::new(Point3::new(0.0f64, 0.0, 1.4), 0.5).unwrap();
/// let cube = Obb::from_rotation(Point3::origin(), UnitQuaternion::identity(), Vector3::repeat(1.0)).unwrap();
/// let c = contact(Shape::Box(&cube), Shape::Ball(&ball), 0.0, &mut PairCache::default()).unwrap().unwrap();
/// assert!((c.depth() - 0.1).abs() < 1e-12);
/// assert_eq!(c.normal, Vector3::z());
/// ```
#[inline]
pub fn contact<T: Real>(
    a: Shape<'_, T>,
    b: Shape<'_, T>,
    prediction: T,
    cache: &mut PairCache<T>,
) -> Result<Option<Contact<T, 3>>, NarrowError> {
    if prediction.partial_cmp(&T::zero()).is_none() {
        return Err(NarrowError::InvalidPrediction);
    }
    // Ball pairs, the most common and cheapest (about 10 ns), are answered inline: the call
    // into the general dispatch and the copies of its nested result took most of their time.
    if let (Shape::Ball(x), Shape::Ball(y)) = (a, b) {
        return Ok(ball_ball_contact(x, y, prediction));
    }
    dispatch_contact(a, b, prediction, cache)
}

/// [`contact`] for every pair, with a valid prediction. Never inlined: inlined into
/// [`contact`], it made that function too large to inline in turn, and the ball pairs paid its
/// frame (six saved registers, half a kilobyte of stack) on every call.
#[inline(never)]
fn dispatch_contact<T: Real>(
    a: Shape<'_, T>,
    b: Shape<'_, T>,
    prediction: T,
    cache: &mut PairCache<T>,
) -> Result<Option<Contact<T, 3>>, NarrowError> {
    check_shapes(&a, &b)?;
    use Shape as S;
    let p = prediction;
    Ok(match (a, b) {
        (S::Ball(x), S::Ball(y)) => ball_ball_contact(x, y, p),
        (S::Box(x), S::Ball(y)) => obb_ball_contact(x, y, p),
        (S::Ball(x), S::Box(y)) => ball_obb_contact(x, y, p),
        (S::Capsule(x), S::Ball(y)) => capsule_ball_contact(x, y, p),
        (S::Ball(x), S::Capsule(y)) => ball_capsule_contact(x, y, p),
        (S::Capsule(x), S::Capsule(y)) => capsule_capsule_contact(x, y, p),
        (S::Triangle(x), S::Ball(y)) => triangle_ball_contact(x, y, p),
        (S::Ball(x), S::Triangle(y)) => ball_triangle_contact(x, y, p),
        (S::Triangle(x), S::Capsule(y)) => triangle_capsule_contact(x, y, p),
        (S::Capsule(x), S::Triangle(y)) => capsule_triangle_contact(x, y, p),
        (S::Box(x), S::Box(y)) => box_box_contact(x, y, p, &mut cache.sat),
        (S::Box(x), S::Triangle(y)) => box_triangle(x, y, p, cache),
        (S::Triangle(x), S::Box(y)) => box_triangle(y, x, p, cache).map(|c| c.flipped()),
        (S::HalfSpace(_), S::HalfSpace(_)) => return Err(unsupported(a, b)),
        (S::HalfSpace(h), other) => halfspace(h, other, p),
        (other, S::HalfSpace(h)) => halfspace(h, other, p).map(|c| c.flipped()),
        (S::Hull(x, pose_x), S::Hull(y, pose_y)) => {
            let (ca, cb) = hulls_in_first_frame(x, pose_x, y, pose_y);
            convex_contact_up_to(ca, T::zero(), &cb, T::zero(), p, &mut cache.gjk)
                .map(|c| to_world(&c, pose_x))
        }
        _ => {
            let ((ca, ra), (cb, rb)) = cores(a, b)?;
            convex_pair_contact((&ca, ra), (&cb, rb), p, cache)
        }
    })
}

/// Two posed hulls in the first hull's frame: the first needs no transform in its support
/// calls and the second one (the relative pose), which halves the transforms per iteration.
/// Concrete types rather than [`Core`] variants: GJK and EPA are compiled for this pair, so
/// both support calls inline into their loops with no jump on a variant (the commonest pair
/// of general convex shapes). The answer goes back to world space with [`to_world`]; the
/// pair's GJK cache then holds directions in the first hull's frame, consistently from query
/// to query.
fn hulls_in_first_frame<'a, T: Real>(
    x: &'a ConvexPolyhedron<T>,
    pose_x: &Isometry3<T>,
    y: &'a ConvexPolyhedron<T>,
    pose_y: &Isometry3<T>,
) -> (&'a ConvexPolyhedron<T>, PosedHull<'a, T>) {
    (x, PosedHull::new(y, &pose_x.inv_mul(pose_y)))
}

/// A hull under a rigid motion, its rotation as a matrix (a matrix turns a vector in 15
/// operations, a unit quaternion in about 30, and every support call turns two).
#[derive(Clone, Copy)]
struct PosedHull<'a, T: Real> {
    hull: &'a ConvexPolyhedron<T>,
    rotation: Matrix3<T>,
    translation: Vector<T, 3>,
}

impl<'a, T: Real> PosedHull<'a, T> {
    fn new(hull: &'a ConvexPolyhedron<T>, pose: &Isometry3<T>) -> Self {
        Self {
            hull,
            rotation: *pose.rotation.to_rotation_matrix().matrix(),
            translation: pose.translation.vector,
        }
    }
    #[inline(always)]
    fn place(&self, p: &Point<T, 3>) -> Point<T, 3> {
        Point::from(self.rotation * p.coords + self.translation)
    }
}

impl<T: Real> SupportMap<T, 3> for PosedHull<'_, T> {
    #[inline]
    fn support(&self, d: &Vector<T, 3>) -> Point<T, 3> {
        self.place(&self.hull.support(&self.rotation.tr_mul(d)))
    }
    #[inline(always)]
    fn support_from(&self, d: &Vector<T, 3>, hint: &mut u32) -> Point<T, 3> {
        self.place(&self.hull.support_from(&self.rotation.tr_mul(d), hint))
    }
    #[inline]
    fn interior_point(&self) -> Point<T, 3> {
        self.place(self.hull.vertex_mean())
    }
    #[inline]
    fn inner_radius(&self) -> T {
        self.hull.inner_radius()
    }
    #[inline]
    fn outer_radius(&self) -> T {
        self.hull.outer_radius()
    }
}

/// A contact computed in a frame placed at `pose`, in world space.
fn to_world<T: Real>(c: &Contact<T, 3>, pose: &Isometry3<T>) -> Contact<T, 3> {
    Contact {
        point_a: pose * c.point_a,
        point_b: pose * c.point_b,
        normal: pose.rotation * c.normal,
        distance: c.distance,
        status: c.status,
    }
}

/// GJK + EPA on two cores with their radii, within the prediction (unlimited: the distance).
fn convex_pair_contact<T: Real>(
    (ca, ra): (&Core<'_, T>, T),
    (cb, rb): (&Core<'_, T>, T),
    prediction: T,
    cache: &mut PairCache<T>,
) -> Option<Contact<T, 3>> {
    convex_contact_up_to(ca, ra, cb, rb, prediction, &mut cache.gjk)
}

/// Whether `a` and `b` overlap or touch. GJK's iteration cap (reachable only on curved shapes
/// with extreme tolerances) answers with the contact query instead of guessing.
///
/// Two balls are answered inline (the commonest pair of particle and granular scenes: a few
/// operations, against the dispatch's own call and frame; a benchmark loop of them went from 95
/// to 33 instructions per pair); every other pair goes through the dispatch.
#[inline]
pub fn intersects<T: Real>(
    a: Shape<'_, T>,
    b: Shape<'_, T>,
    cache: &mut PairCache<T>,
) -> Result<bool, NarrowError> {
    match (a, b) {
        (Shape::Ball(x), Shape::Ball(y)) => Ok(cd_geom::ball_ball(x, y)),
        _ => intersects_dispatched(a, b, cache),
    }
}

/// [`intersects`] for every pair, out of line.
#[inline(never)]
fn intersects_dispatched<T: Real>(
    a: Shape<'_, T>,
    b: Shape<'_, T>,
    cache: &mut PairCache<T>,
) -> Result<bool, NarrowError> {
    check_shapes(&a, &b)?;
    use Shape as S;
    match (a, b) {
        // Boolean tests of cd-geom: no normal, no depth, no square root.
        (S::Ball(x), S::Ball(y)) => Ok(cd_geom::ball_ball(x, y)),
        (S::Box(x), S::Box(y)) => Ok(cd_geom::obb_obb(x, y)),
        (S::Box(x), S::Triangle(y)) | (S::Triangle(y), S::Box(x)) => Ok(cd_geom::triangle_obb(y, x)),
        (S::Box(x), S::Ball(y)) | (S::Ball(y), S::Box(x)) => Ok(cd_geom::ball_obb(y, x)),
        (S::Capsule(x), S::Capsule(y)) => Ok(cd_geom::capsule_capsule(x, y)),
        (S::Capsule(x), S::Ball(y)) | (S::Ball(y), S::Capsule(x)) => Ok(cd_geom::capsule_ball(x, y)),
        (S::Capsule(x), S::Box(y)) | (S::Box(y), S::Capsule(x)) => Ok(cd_geom::capsule_obb(x, y)),
        (S::Capsule(x), S::Triangle(y)) | (S::Triangle(y), S::Capsule(x))
            if segment_beyond_triangle_plane(&x.segment(), y, x.radius()) =>
        {
            Ok(false)
        }
        (S::HalfSpace(_), _) | (_, S::HalfSpace(_)) => contact(a, b, T::zero(), cache).map(|c| c.is_some()),
        _ => {
            let verdict = match (a, b) {
                (S::Hull(x, pose_x), S::Hull(y, pose_y)) => {
                    let (ca, cb) = hulls_in_first_frame(x, pose_x, y, pose_y);
                    convex_intersects(ca, T::zero(), &cb, T::zero(), &Default::default(), &mut cache.gjk)
                }
                _ => {
                    let ((ca, ra), (cb, rb)) = cores(a, b)?;
                    convex_intersects(&ca, ra, &cb, rb, &Default::default(), &mut cache.gjk)
                }
            };
            match verdict {
                Intersection::Separated { .. } => Ok(false),
                Intersection::Intersecting => Ok(true),
                Intersection::Undecided { .. } => contact(a, b, T::zero(), cache).map(|c| c.is_some()),
            }
        }
    }
}

/// The signed distance and witness points of `a` and `b` (a contact with unlimited prediction).
///
/// Two balls are answered inline, as in [`contact`]; every other pair goes through
/// the general dispatch, out of line. (Left to the inliner, the whole of `distance` stayed
/// out of line once `contact` had become small enough to inline into it, and a separated
/// ball pair paid a call and the copy of its answer through two results: 9.3 → 15 µs per
/// batch.)
#[inline]
pub fn distance<T: Real>(
    a: Shape<'_, T>,
    b: Shape<'_, T>,
    cache: &mut PairCache<T>,
) -> Result<Contact<T, 3>, NarrowError> {
    if let (Shape::Ball(x), Shape::Ball(y)) = (a, b) {
        if let Some(c) = ball_ball_contact(x, y, T::infinity()) {
            return Ok(c);
        }
    }
    distance_dispatched(a, b, cache)
}

/// [`distance`] for every pair, out of line.
#[inline(never)]
fn distance_dispatched<T: Real>(
    a: Shape<'_, T>,
    b: Shape<'_, T>,
    cache: &mut PairCache<T>,
) -> Result<Contact<T, 3>, NarrowError> {
    // Every pair path keeps its contact under an unlimited prediction; should one ever fail
    // to, the caller gets a typed error rather than a panic.
    dispatch_contact(a, b, T::infinity(), cache)?
        .ok_or_else(|| NarrowError::Unresolved { a: a.name(), b: b.name() })
}

/// The contact manifold of `a` and `b` (empty when farther apart than `prediction`): box/box,
/// box/triangle, hull/hull and half-space/box by clipping (up to four points; hulls too large for SAT clip
/// along EPA's normal), parallel capsules two points, every other pair one point.
pub fn manifold<T: Real>(
    a: Shape<'_, T>,
    b: Shape<'_, T>,
    prediction: T,
    cache: &mut PairCache<T>,
    out: &mut Manifold<T, 3>,
) -> Result<(), NarrowError> {
    out.clear();
    check_shapes(&a, &b)?;
    use Shape as S;
    // The clipping routines' SAT separation (a lower bound on the gap); `None` for the others.
    let clipped: Option<T> = match (a, b) {
        (S::Box(x), S::Box(y)) => {
            if prediction.partial_cmp(&T::zero()).is_none() {
                return Err(NarrowError::InvalidPrediction);
            }
            Some(box_box_manifold(x, y, prediction, &mut cache.sat, out))
        }
        (S::Capsule(x), S::Capsule(y)) => {
            capsule_capsule_manifold(x, y, prediction, out);
            None
        }
        (S::Box(x), S::Triangle(y)) => box_triangle_manifold(x, y, prediction, out),
        (S::Box(x), S::Capsule(y)) => {
            obb_capsule_manifold(x, y, prediction, out);
            None
        }
        (S::Capsule(x), S::Box(y)) => {
            obb_capsule_manifold(y, x, prediction, out);
            *out = out.flipped();
            None
        }
        (S::Triangle(x), S::Box(y)) => {
            let separation = box_triangle_manifold(y, x, prediction, out);
            *out = out.flipped();
            separation
        }
        (S::HalfSpace(h), S::Box(y)) => {
            halfspace_obb_manifold(h, y, prediction, out);
            None
        }
        (S::Box(x), S::HalfSpace(h)) => {
            halfspace_obb_manifold(h, x, prediction, out);
            *out = out.flipped();
            None
        }
        (S::Polyhedron(_) | S::Hull(..), S::Polyhedron(_) | S::Hull(..)) => {
            let identity = Isometry3::identity();
            let (Some(x), Some(y)) = (placed(&a, &identity), placed(&b, &identity)) else {
                return Ok(());
            };
            if small_hulls(&x, &y) {
                Some(hull_hull_manifold(&x, &y, prediction, &mut cache.hull, out))
            } else {
                if let Some(c) = contact(a, b, prediction, cache)? {
                    hull_hull_manifold_along(&x, &y, &c.normal, prediction, out);
                    if out.is_empty() {
                        push_contact(&c, out);
                    }
                }
                None
            }
        }
        _ => {
            if let Some(c) = contact(a, b, prediction, cache)? {
                if !crate::features::feature_manifold(&a, &b, &c, prediction, out) {
                    out.clear();
                    push_contact(&c, out);
                }
            }
            None
        }
    };
    // A pair SAT puts apart but within the prediction: its axis only bounds the gap from below,
    // and the clipped points need not hold the closest pair (a box meeting a triangle edge to
    // edge, or hanging over its edge: every clipped point farther apart than the closest pair,
    // or none kept at all). When a kept pair is as close as that bound, it is the closest pair
    // (the common case, a box resting on a face); otherwise the exact contact (GJK's closest
    // points, about as costly as the clipping again) settles it. Overlapping pairs keep SAT's
    // manifold as it is: its depth is exact.
    if let Some(separation) = clipped {
        let slack = T::epsilon().sqrt() * (T::one() + separation.abs());
        let bound_met = out.points().iter().any(|p| {
            p.distance <= separation + slack && (p.point_b - p.point_a).norm() <= separation + slack
        });
        if separation <= prediction && (out.is_empty() || (separation > T::zero() && !bound_met)) {
            if let Some(c) = contact(a, b, prediction, cache)? {
                join_exact(&c, out);
            }
        }
    }
    Ok(())
}

/// Joins the exact contact `c` to a clipped manifold: alone when the manifold is empty or its
/// normal is not the contact's (the clipped points are then pairs along an axis that is not
/// the closest direction), else as one more point when no clipped point is as close.
fn join_exact<T: Real>(c: &Contact<T, 3>, out: &mut Manifold<T, 3>) {
    // Within about 0.08°: GJK's normal is the face's to rounding when the closest pair is on it.
    let aligned = out.normal.dot(&c.normal) >= T::one() - T::lit(1e-6);
    if out.is_empty() || !aligned {
        out.clear();
        push_contact(c, out);
        return;
    }
    let closest = out.points().iter().fold(T::infinity(), |m, p| m.min(p.distance));
    if closest > c.distance + T::lit(1e3) * T::epsilon() * (T::one() + c.point_a.coords.amax()) {
        // Along the manifold's normal, which is the contact's to a few ulps.
        let exact = ManifoldPoint {
            point_a: c.point_a,
            point_b: c.point_a + out.normal * c.distance,
            distance: c.distance,
            id: u32::MAX,
        };
        let mut all = [exact; MAX_MANIFOLD_POINTS + 1];
        all[..out.len()].copy_from_slice(out.points());
        let n = out.len() + 1;
        out.reduce(&all[..n]);
    }
}

/// Makes `c` the manifold's single point (its normal the manifold's), in an empty manifold.
fn push_contact<T: Real>(c: &Contact<T, 3>, out: &mut Manifold<T, 3>) {
    out.normal = c.normal;
    out.push(ManifoldPoint { point_a: c.point_a, point_b: c.point_b, distance: c.distance, id: 0 });
}

fn unsupported<T: Real>(a: Shape<'_, T>, b: Shape<'_, T>) -> NarrowError {
    NarrowError::Unsupported { a: a.name(), b: b.name() }
}

type CorePair<'a, T> = ((Core<'a, T>, T), (Core<'a, T>, T));

fn cores<'a, T: Real>(a: Shape<'a, T>, b: Shape<'a, T>) -> Result<CorePair<'a, T>, NarrowError> {
    match (a.core(), b.core()) {
        (Some(x), Some(y)) => Ok((x, y)),
        _ => Err(unsupported(a, b)),
    }
}

fn halfspace<T: Real>(h: &Plane<T, 3>, other: Shape<'_, T>, p: T) -> Option<Contact<T, 3>> {
    let (core, radius) = other.core()?;
    halfspace_convex_contact(h, &core, radius, p)
}
