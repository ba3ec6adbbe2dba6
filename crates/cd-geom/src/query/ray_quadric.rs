//! Rays against round solids: capsule (2D and 3D), capped cylinder, capped cone and lozenge
//! (3D).
//!
//! Each solid is an intersection (cylinder, cone) or union (capsule) of simple pieces; the ray's
//! inside-interval of each piece is computed from a quadratic or a slab and the intervals are
//! combined, so no case analysis on where the ray enters is needed. A ray starting inside hits
//! at `t = 0` with a zero normal.

use crate::query::closest::closest_point_on_segment;
use crate::query::ray_sphere::ray_ball;
use crate::support::unit_or_zero;
use crate::{Ball, Capsule, Cone, Cylinder, Lozenge, Point, Ray, RayHit, Real, Vector};

/// Roots `t₀ ≤ t₁` of `a t² + 2b t + c = 0` for `a > 0`, or `None` when the discriminant is
/// negative.
#[inline]
fn roots<T: Real>(a: T, b: T, c: T) -> Option<(T, T)> {
    let disc = b * b - a * c;
    if disc < T::zero() {
        return None;
    }
    let sq = disc.sqrt();
    Some(((-b - sq) / a, (-b + sq) / a))
}

/// Ray/capsule: the capsule is the union of the two end balls and the side of the cylinder
/// around its core segment, so the first hit is the earliest entry into any of the three. The
/// normal is the direction from the nearest core point to the hit. O(D).
pub fn ray_capsule<T: Real, const D: usize>(ray: &Ray<T, D>, cap: &Capsule<T, D>) -> Option<RayHit<T, D>> {
    let seg = cap.segment();
    let r = cap.radius();
    let (closest, _) = closest_point_on_segment(ray.origin(), &seg);
    if (ray.origin() - closest).norm_squared() <= r * r {
        return Some(RayHit { t: T::zero(), normal: Vector::zeros() });
    }
    let mut best: Option<T> = None;
    let mut keep = |t: T| {
        if t >= T::zero() && t <= ray.max_t() && best.is_none_or(|b| t < b) {
            best = Some(t);
        }
    };
    for end in [cap.a(), cap.b()] {
        if let Some(h) = ray_ball(ray, &Ball::new_unchecked(*end, r)) {
            keep(h.t);
        }
    }
    // Side: the infinite cylinder |w⊥|² = r², restricted to the core segment's extent.
    let axis = seg.delta();
    let len2 = axis.norm_squared();
    if len2 > T::zero() {
        let perp = |v: Vector<T, D>| v - axis * (v.dot(&axis) / len2);
        let o = perp(ray.origin() - cap.a());
        let d = perp(*ray.dir());
        let a = d.norm_squared();
        if a > T::zero() {
            if let Some((t0, _)) = roots(a, o.dot(&d), o.norm_squared() - r * r) {
                let y = (ray.at(t0) - cap.a()).dot(&axis);
                if y >= T::zero() && y <= len2 {
                    keep(t0);
                }
            }
        }
    }
    let t = best?;
    let p = ray.at(t);
    let normal = unit_or_zero(&(p - closest_point_on_segment(&p, &seg).0));
    Some(RayHit { t, normal })
}

/// The running intersection of parameter intervals, remembering which piece set the entry.
struct Interval<T: Real, const D: usize> {
    enter: T,
    exit: T,
    normal: Option<Vector<T, D>>,
}

impl<T: Real, const D: usize> Interval<T, D> {
    fn new(max_t: T) -> Self {
        Interval { enter: T::zero(), exit: max_t, normal: None }
    }
    /// Intersects with `[t0, t1]` whose entry surface has outward normal `n(t0)`.
    fn clip(&mut self, t0: T, t1: T, n: impl FnOnce(T) -> Vector<T, D>) -> bool {
        if t0 > self.enter {
            self.enter = t0;
            self.normal = Some(n(t0));
        }
        if t1 < self.exit {
            self.exit = t1;
        }
        self.enter <= self.exit
    }
    fn hit(self) -> Option<RayHit<T, D>> {
        (self.enter <= self.exit).then(|| RayHit {
            t: self.enter,
            normal: self.normal.map_or_else(Vector::zeros, |n| unit_or_zero(&n)),
        })
    }
}

/// Clips `iv` by the slab `0 ≤ (x - base)·u ≤ len` (u unit); the outward normals are `∓u`.
fn clip_slab<T: Real>(
    iv: &mut Interval<T, 3>,
    ray: &Ray<T, 3>,
    base: &Point<T, 3>,
    u: &Vector<T, 3>,
    len: T,
) -> bool {
    let yo = (ray.origin() - base).dot(u);
    let yd = ray.dir().dot(u);
    let inv = T::one() / yd;
    if !inv.is_finite() {
        return yo >= T::zero() && yo <= len;
    }
    let (t0, t1) = ((-yo) * inv, (len - yo) * inv);
    let (near, far, n) = if inv >= T::zero() { (t0, t1, -u) } else { (t1, t0, *u) };
    iv.clip(near, far, |_| n)
}

/// Ray/capped cylinder: the inside-interval of the infinite cylinder (a quadratic) intersected
/// with the slab between the caps. O(1).
pub fn ray_cylinder<T: Real>(ray: &Ray<T, 3>, cyl: &Cylinder<T>) -> Option<RayHit<T, 3>> {
    let u = cyl.axis();
    let len = (cyl.b() - cyl.a()).norm();
    let r = cyl.radius();
    let mut iv = Interval::new(ray.max_t());
    if !clip_slab(&mut iv, ray, cyl.a(), &u, len) {
        return None;
    }
    let perp = |v: Vector<T, 3>| v - u * v.dot(&u);
    let o = perp(ray.origin() - cyl.a());
    let d = perp(*ray.dir());
    let a = d.norm_squared();
    let c = o.norm_squared() - r * r;
    if a == T::zero() {
        if c > T::zero() {
            return None;
        }
    } else {
        let (t0, t1) = roots(a, o.dot(&d), c)?;
        if !iv.clip(t0, t1, |t| o + d * t) {
            return None;
        }
    }
    iv.hit()
}

/// Ray/capped cone: the cone is the part of the double cone
/// `q(w) = |w|² − (1 + k²)(w·u)² ≤ 0` (`w = x − apex`, `k = r / h`) inside the slab
/// `0 ≤ w·u ≤ h`; the slab removes the upper nappe's mirror image, and what remains is convex,
/// so the inside-interval is the hull of the quadratic's inside pieces clipped to the slab.
/// O(1).
pub fn ray_cone<T: Real>(ray: &Ray<T, 3>, cone: &Cone<T>) -> Option<RayHit<T, 3>> {
    let u = cone.axis();
    let h = cone.height();
    let k = cone.radius() / h;
    let m = T::one() + k * k;
    let w0 = ray.origin() - cone.apex();
    let d = *ray.dir();
    let (wu, du) = (w0.dot(&u), d.dot(&u));
    let a = d.norm_squared() - m * du * du;
    let b = w0.dot(&d) - m * wu * du;
    let c = w0.norm_squared() - m * wu * wu;
    let inf = T::infinity();
    // Pieces of the line where q ≤ 0.
    let pieces: [(T, T); 2] = if a > T::zero() {
        match roots(a, b, c) {
            Some((t0, t1)) => [(t0, t1), (inf, -inf)],
            None => return None,
        }
    } else if a < T::zero() {
        match roots(-a, -b, -c) {
            Some((t0, t1)) => [(-inf, t0), (t1, inf)],
            None => [(-inf, inf), (inf, -inf)],
        }
    } else if b != T::zero() {
        // Linear: 2b t + c ≤ 0.
        let t = -c / (b * T::lit(2.0));
        if b > T::zero() {
            [(-inf, t), (inf, -inf)]
        } else {
            [(t, inf), (inf, -inf)]
        }
    } else if c <= T::zero() {
        [(-inf, inf), (inf, -inf)]
    } else {
        return None;
    };
    // Slab interval along the axis.
    let mut slab = Interval::<T, 3>::new(inf);
    slab.enter = -inf;
    if !clip_slab(&mut slab, ray, cone.apex(), &u, h) {
        return None;
    }
    let slab_normal = slab.normal;
    // Hull of the (at most one, by convexity) non-empty piece ∩ slab.
    let mut lo = inf;
    let mut hi = -inf;
    let mut lateral_entry = false;
    for (p0, p1) in pieces {
        let (s0, s1) = (p0.max(slab.enter), p1.min(slab.exit));
        if s0 <= s1 {
            if s0 < lo {
                lo = s0;
                lateral_entry = p0 > slab.enter;
            }
            hi = hi.max(s1);
        }
    }
    let enter = lo.max(T::zero());
    let exit = hi.min(ray.max_t());
    if enter > exit {
        return None;
    }
    let normal = if lo <= T::zero() {
        Vector::zeros()
    } else if lateral_entry {
        let w = w0 + d * lo;
        unit_or_zero(&(w - u * (m * w.dot(&u))))
    } else {
        slab_normal.map_or_else(Vector::zeros, |n| unit_or_zero(&n))
    };
    Some(RayHit { t: enter, normal })
}

/// Ray/lozenge: a lozenge is the union of its parallelogram thickened by the radius (a prism,
/// the intersection of three slabs) and the four capsules around its edges, so the first hit
/// is the earliest entry into any of the five. A degenerate parallelogram (parallel or zero
/// edges) is covered by its edge capsules alone. O(1).
pub fn ray_lozenge<T: Real>(ray: &Ray<T, 3>, lozenge: &Lozenge<T>) -> Option<RayHit<T, 3>> {
    let (o, e0, e1, r) = (*lozenge.origin(), *lozenge.e0(), *lozenge.e1(), lozenge.radius());
    let corners = [o, o + e0, o + e0 + e1, o + e1];
    let mut best: Option<RayHit<T, 3>> = None;
    let mut keep = |hit: Option<RayHit<T, 3>>| {
        if let Some(h) = hit {
            if best.is_none_or(|b| h.t < b.t) {
                best = Some(h);
            }
        }
    };
    for k in 0..4 {
        keep(ray_capsule(ray, &Capsule::new_unchecked(corners[k], corners[(k + 1) % 4], r)));
    }
    if let Some(n) = e0.cross(&e1).try_normalize(T::zero()) {
        // Across the faces (thickness 2r), then between each pair of opposite edges: the slab
        // along the in-plane direction perpendicular to one edge, spanning the other edge.
        let mut iv = Interval::new(ray.max_t());
        let mut inside = clip_slab(&mut iv, ray, &(o - n * r), &n, r + r);
        for (edge, across) in [(e0, e1), (e1, e0)] {
            let m = n.cross(&edge).normalize();
            let (u, len) =
                if m.dot(&across) >= T::zero() { (m, m.dot(&across)) } else { (-m, -m.dot(&across)) };
            inside = inside && clip_slab(&mut iv, ray, &o, &u, len);
        }
        if inside {
            keep(iv.hit());
        }
    }
    best
}
