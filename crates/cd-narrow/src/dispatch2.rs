//! The 2D dispatcher: one entry point for any two 2D shapes, analytic first (circles, boxes,
//! capsules), polygon SAT for the exact depth of overlapping convex polygons and boxes, GJK +
//! EPA (2D) for everything else; both orders mirrored. The conventions are the 3D ones
//! ([`crate::dispatch`]).

use cd_geom::{
    is_convex_counter_clockwise, validate, Ball, Capsule, Contact, Obb, Point, Real, Segment, SupportMap,
    Vector,
};

use crate::convex::{convex_contact_up_to, convex_intersects};
use crate::dispatch::{check_radius, NarrowError};
use crate::gjk::{GjkCache, Intersection};
use crate::pairs::{ball_ball_contact, capsule_ball_contact, capsule_capsule_contact, obb_ball_contact};
use crate::sat_polygon::{obb_corners_2d, sat_contact, too_thin, PolygonSatCache, PolygonSupport};

/// A 2D shape in world space.
#[derive(Clone, Copy)]
pub enum Shape2<'a, T: Real> {
    /// A circle.
    Circle(&'a Ball<T, 2>),
    /// A 2D capsule (stadium).
    Capsule(&'a Capsule<T, 2>),
    /// An oriented rectangle.
    Box(&'a Obb<T, 2>),
    /// A convex polygon, vertices in counter-clockwise order (collinear and repeated vertices
    /// allowed; one or two vertices make a point or a segment). Checked by every query, in
    /// O(n): an empty, non-finite, clockwise or non-convex slice is a
    /// [`NarrowError::InvalidShape`].
    Polygon(&'a [Point<T, 2>]),
    /// A segment.
    Segment(&'a Segment<T, 2>),
    /// Any user convex shape given by its support map, grown by a radius (≥ 0 and a valid
    /// coordinate, else [`NarrowError::InvalidShape`]).
    Convex(&'a dyn SupportMap<T, 2>, T),
}

impl<T: Real> core::fmt::Debug for Shape2<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Shape2::Circle(_) => "circle",
            Shape2::Capsule(_) => "capsule",
            Shape2::Box(_) => "box",
            Shape2::Polygon(_) => "polygon",
            Shape2::Segment(_) => "segment",
            Shape2::Convex(_, _) => "convex",
        })
    }
}

/// Core support maps of 2D shapes (points and segments by value).
enum Core2<'a, T: Real> {
    Point(Point<T, 2>),
    Segment(Segment<T, 2>),
    Box(&'a Obb<T, 2>),
    Polygon(&'a [Point<T, 2>]),
    Dyn(&'a dyn SupportMap<T, 2>),
}

impl<T: Real> SupportMap<T, 2> for Core2<'_, T> {
    #[inline]
    fn support(&self, d: &Vector<T, 2>) -> Point<T, 2> {
        match self {
            Core2::Point(p) => *p,
            Core2::Segment(s) => s.support(d),
            Core2::Box(b) => b.support(d),
            Core2::Polygon(p) => PolygonSupport(p).support(d),
            Core2::Dyn(s) => s.support(d),
        }
    }

    fn interior_point(&self) -> Point<T, 2> {
        match self {
            Core2::Point(p) => *p,
            Core2::Segment(s) => s.interior_point(),
            Core2::Box(b) => *b.center(),
            Core2::Polygon(p) => PolygonSupport(p).interior_point(),
            Core2::Dyn(s) => s.interior_point(),
        }
    }
}

impl<'a, T: Real> Shape2<'a, T> {
    fn core(&self) -> (Core2<'a, T>, T) {
        match *self {
            Shape2::Circle(b) => (Core2::Point(*b.center()), b.radius()),
            Shape2::Capsule(c) => (Core2::Segment(c.segment()), c.radius()),
            Shape2::Box(b) => (Core2::Box(b), T::zero()),
            Shape2::Polygon(p) => (Core2::Polygon(p), T::zero()),
            Shape2::Segment(s) => (Core2::Segment(*s), T::zero()),
            Shape2::Convex(s, r) => (Core2::Dyn(s), r),
        }
    }

    /// Checks what no constructor did: a polygon slice (not empty, coordinates finite and in
    /// range, convex and counter-clockwise, which SAT's edge normals rely on) and a user
    /// shape's radius. O(n) for an n-gon, beside SAT's O(n·m).
    fn check(&self) -> Result<(), NarrowError> {
        match *self {
            Shape2::Polygon([]) => Err(NarrowError::InvalidShape { reason: "an empty polygon" }),
            Shape2::Polygon(p) if p.iter().any(|q| validate::point(q).is_err()) => {
                Err(NarrowError::InvalidShape {
                    reason: "a polygon coordinate is not finite or beyond the coordinate range",
                })
            }
            Shape2::Polygon(p) if !is_convex_counter_clockwise(p) => Err(NarrowError::InvalidShape {
                reason: "a polygon is not convex with counter-clockwise vertices",
            }),
            Shape2::Convex(_, radius) => check_radius(radius),
            _ => Ok(()),
        }
    }

    /// The vertices of a polygonal shape (boxes and polygons), for SAT.
    fn polygon(&self) -> Option<PolygonVertices<'a, T>> {
        match *self {
            Shape2::Box(b) => Some(PolygonVertices::Corners(obb_corners_2d(b))),
            Shape2::Polygon(p) if p.len() >= 3 => Some(PolygonVertices::Borrowed(p)),
            _ => None,
        }
    }
}

/// A polygonal shape's vertices without a copy: a box's four corners computed on the stack,
/// a polygon's own list borrowed (both used to be copied into a new `Vec` on every query).
enum PolygonVertices<'a, T: Real> {
    Corners([Point<T, 2>; 4]),
    Borrowed(&'a [Point<T, 2>]),
}

impl<T: Real> PolygonVertices<'_, T> {
    fn as_slice(&self) -> &[Point<T, 2>] {
        match self {
            PolygonVertices::Corners(c) => c,
            PolygonVertices::Borrowed(p) => p,
        }
    }
}

/// Per-pair state between frames in 2D.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PairCache2<T: Real> {
    /// Warm start of GJK.
    pub gjk: GjkCache<T, 2>,
    /// Cached axis of polygon SAT.
    pub sat: PolygonSatCache,
}

/// The contact of two 2D shapes, or `None` when farther apart than `prediction`.
///
/// ```
/// use cd_geom::{Ball, Obb};
/// use cd_narrow::{contact_2d, PairCache2, Shape2};
/// use nalgebra::{Point2, Vector2};
///
/// let floor = Obb::from_angle(Point2::new(0.0f64, -1.0), 0.0, Vector2::new(5.0, 1.0)).unwrap();
/// let disc = Ball::new(Point2::new(1.0, 0.4), 0.5).unwrap();
/// let c = contact_2d(Shape2::Box(&floor), Shape2::Circle(&disc), 0.0, &mut PairCache2::default()).unwrap().unwrap();
/// assert!((c.depth() - 0.1).abs() < 1e-12 && c.normal == Vector2::y());
/// ```
pub fn contact_2d<T: Real>(
    a: Shape2<'_, T>,
    b: Shape2<'_, T>,
    prediction: T,
    cache: &mut PairCache2<T>,
) -> Result<Option<Contact<T, 2>>, NarrowError> {
    if prediction.partial_cmp(&T::zero()).is_none() {
        return Err(NarrowError::InvalidPrediction);
    }
    a.check()?;
    b.check()?;
    use Shape2 as S;
    let p = prediction;
    Ok(match (a, b) {
        (S::Circle(x), S::Circle(y)) => ball_ball_contact(x, y, p),
        (S::Box(x), S::Circle(y)) => obb_ball_contact(x, y, p),
        (S::Circle(x), S::Box(y)) => obb_ball_contact(y, x, p).map(|c| c.flipped()),
        (S::Capsule(x), S::Circle(y)) => capsule_ball_contact(x, y, p),
        (S::Circle(x), S::Capsule(y)) => capsule_ball_contact(y, x, p).map(|c| c.flipped()),
        (S::Capsule(x), S::Capsule(y)) => {
            // Closed form unless the axes cross: in 2D crossing segments need the 2D EPA.
            match capsule_capsule_contact(x, y, p) {
                Some(c) if c.distance > -(x.radius() + y.radius()) => Some(c),
                None => None,
                Some(_) => general(a, b, p, cache),
            }
        }
        _ => match (a.polygon(), b.polygon()) {
            (Some(pa), Some(pb)) => polygons(a, b, pa.as_slice(), pb.as_slice(), p, cache),
            _ => general(a, b, p, cache),
        },
    })
}

/// Two polygonal shapes: GJK for a separated distance within the prediction and for outlines
/// too thin for SAT, SAT for the exact depth of overlapping ones.
fn polygons<T: Real>(
    a: Shape2<'_, T>,
    b: Shape2<'_, T>,
    pa: &[Point<T, 2>],
    pb: &[Point<T, 2>],
    p: T,
    cache: &mut PairCache2<T>,
) -> Option<Contact<T, 2>> {
    if too_thin(pa) || too_thin(pb) {
        return general(a, b, p, cache);
    }
    let c = sat_contact(pa, pb, p, &mut cache.sat)?;
    if c.distance > T::zero() {
        // SAT's separation only bounds the gap: GJK gives it exactly.
        return general(a, b, p, cache);
    }
    Some(c)
}

fn general<T: Real>(
    a: Shape2<'_, T>,
    b: Shape2<'_, T>,
    p: T,
    cache: &mut PairCache2<T>,
) -> Option<Contact<T, 2>> {
    let ((ca, ra), (cb, rb)) = (a.core(), b.core());
    convex_contact_up_to(&ca, ra, &cb, rb, p, &mut cache.gjk)
}

/// Whether two 2D shapes overlap or touch.
pub fn intersects_2d<T: Real>(
    a: Shape2<'_, T>,
    b: Shape2<'_, T>,
    cache: &mut PairCache2<T>,
) -> Result<bool, NarrowError> {
    a.check()?;
    b.check()?;
    let ((ca, ra), (cb, rb)) = (a.core(), b.core());
    match convex_intersects(&ca, ra, &cb, rb, &Default::default(), &mut cache.gjk) {
        Intersection::Separated { .. } => Ok(false),
        Intersection::Intersecting => Ok(true),
        Intersection::Undecided { .. } => contact_2d(a, b, T::zero(), cache).map(|c| c.is_some()),
    }
}

/// Signed distance and witness points of two 2D shapes.
pub fn distance_2d<T: Real>(
    a: Shape2<'_, T>,
    b: Shape2<'_, T>,
    cache: &mut PairCache2<T>,
) -> Result<Contact<T, 2>, NarrowError> {
    contact_2d(a, b, T::infinity(), cache)?.ok_or(NarrowError::Unresolved { a: "2D shape", b: "2D shape" })
}
