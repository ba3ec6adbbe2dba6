//! Ray/triangle intersection (RTR 22.8): Möller–Trumbore 1997 with deferred division, in a
//! double-sided and a back-face-culling variant, and the watertight test of Woop, Benthin and
//! Wald 2013.

use crate::directions::widest_angle_vertex;
use crate::exact::difference_of_products;
use crate::{widest_angle_edges, Point, Ray, Real, Segment, Triangle, TriangleHit, Vector};

/// Möller–Trumbore, **double-sided**: hits from either side. The division by the determinant is
/// deferred until the barycentric tests have passed, so misses cost no division. The edges are
/// taken from the vertex opposite the longest edge (a sliver's far vertex would make them both
/// long and nearly parallel, and `t` cancel). A ray lying in
/// the triangle's plane (determinant exactly zero) and any ray against a zero-area triangle
/// miss. Edges and vertices count as hits. O(1).
///
/// ```
/// use cd_geom::{ray_triangle, Ray, Triangle};
/// use nalgebra::{Point3, Vector3};
/// let tri = Triangle::new(Point3::new(0.0f32, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0)).unwrap();
/// let ray = Ray::new(Point3::new(0.25, 0.25, 1.0), Vector3::new(0.0, 0.0, -1.0)).unwrap();
/// let hit = ray_triangle(&ray, &tri).unwrap();
/// assert_eq!((hit.t, hit.u, hit.v), (1.0, 0.25, 0.25));
/// ```
#[inline]
pub fn ray_triangle<T: Real>(ray: &Ray<T, 3>, tri: &Triangle<T, 3>) -> Option<TriangleHit<T>> {
    moller_trumbore(ray, tri, false)
}

/// Möller–Trumbore with **back-face culling**: only rays arriving against the normal
/// `(b - a) × (c - a)` (determinant > 0) hit. O(1).
#[inline]
pub fn ray_triangle_culling<T: Real>(ray: &Ray<T, 3>, tri: &Triangle<T, 3>) -> Option<TriangleHit<T>> {
    moller_trumbore(ray, tri, true)
}

#[inline(always)]
fn moller_trumbore<T: Real>(ray: &Ray<T, 3>, tri: &Triangle<T, 3>, cull: bool) -> Option<TriangleHit<T>> {
    // Based at the vertex opposite the longest edge (a rotation of the vertices: same winding,
    // same determinant sign). From a far vertex of a sliver both edges are long and nearly
    // parallel, and `t = e₂·(s × e₁)/det` cancelled: a hit at t = 1 on a 2.7·10¹⁰-long sliver
    // came out at t = 1,298 (found with fuzz finding 37).
    let (a, b, c) = (tri.a(), tri.b(), tri.c());
    let (ab, bc, ca) = ((b - a).norm_squared(), (c - b).norm_squared(), (a - c).norm_squared());
    // A branch per base, not an index into the vertices: indexing (with the weights put back
    // through an array) measured twice as slow as the branches on random triangles.
    match widest_angle_vertex(ab, bc, ca) {
        2 => {
            // Based at c: (c, a, b) with weights (u', v') of a and b.
            let hit = moller_trumbore_at(ray, c, a, b, cull)?;
            Some(TriangleHit { u: hit.v, v: T::one() - hit.u - hit.v, ..hit })
        }
        0 => moller_trumbore_at(ray, a, b, c, cull),
        _ => {
            // Based at b: (b, c, a) with weights (u', v') of c and a.
            let hit = moller_trumbore_at(ray, b, c, a, cull)?;
            Some(TriangleHit { u: T::one() - hit.u - hit.v, v: hit.u, ..hit })
        }
    }
}

/// Möller–Trumbore on the triangle `(a, b, c)` based at `a`.
#[inline(always)]
fn moller_trumbore_at<T: Real>(
    ray: &Ray<T, 3>,
    a: &Point<T, 3>,
    b: &Point<T, 3>,
    c: &Point<T, 3>,
    cull: bool,
) -> Option<TriangleHit<T>> {
    let zero = T::zero();
    let e1 = b - a;
    let e2 = c - a;
    let p = ray.dir().cross(&e2);
    let det = e1.dot(&p);
    if det == zero || (cull && det < zero) {
        return None;
    }
    // Work with |det| so one set of comparisons serves both signs; divide only on a hit.
    let (sign, adet) = if det < zero { (-T::one(), -det) } else { (T::one(), det) };
    let s = ray.origin() - a;
    let u = s.dot(&p) * sign;
    if u < zero || u > adet {
        return None;
    }
    let q = s.cross(&e1);
    let v = ray.dir().dot(&q) * sign;
    if v < zero || u + v > adet {
        return None;
    }
    let t = e2.dot(&q) * sign;
    if t < zero || t > ray.max_t() * adet {
        return None;
    }
    Some(scale_hit(t, u, v, adet))
}

/// Divides the deferred numerators by the determinant: one reciprocal normally, three divisions
/// when the determinant is so small (subnormal) that its reciprocal overflows. A hit whose
/// parameter still overflows (a ray almost parallel to the plane) is returned as the largest
/// finite value rather than infinity.
#[inline(always)]
fn scale_hit<T: Real>(t: T, u: T, v: T, adet: T) -> TriangleHit<T> {
    let inv = T::one() / adet;
    let t = if inv.is_finite() { t * inv } else { t / adet };
    let (u, v) = if inv.is_finite() { (u * inv, v * inv) } else { (u / adet, v / adet) };
    // u, v ≤ 1 by the tests before; t can still overflow, even with a finite reciprocal.
    let t = if t.is_finite() { t } else { T::max_value().unwrap_or(T::zero()) };
    TriangleHit { t, u, v }
}

/// The watertight ray/triangle test (Woop, Benthin, Wald 2013): the ray is sheared so it runs
/// along +z, then the 2D edge functions decide inside/outside. Rays through a shared edge or
/// vertex of a closed mesh hit at least one of the triangles, never zero; an edge function
/// that rounds to zero is recomputed from exact products
/// ([`exact::difference_of_products`](crate::exact::difference_of_products)). When the
/// triangle reaches both behind and ahead of the ray's origin along the shear axis, the hit
/// parameter comes from the triangle's plane rather than from the sheared depths (which
/// cancel there, badly for slivers far from the origin), and so does a hit whose interpolated
/// point lies outside the triangle's box (the edge functions' rounding for a sliver seen from
/// far away); every reported hit lies in the triangle's box to a few ulps. For a ray within
/// about 7° of the triangle's plane (and on the plane path) the parameter is also moved into
/// the prism over the triangle, widened by its bounds' rounding: the parameter of such a ray
/// is ill-conditioned along it, and would otherwise let the point slide off the triangle near
/// an edge. Double-sided. O(1).
///
/// A ray tested against many triangles (a mesh's leaves) should be prepared once with
/// [`WatertightRay`], which gives the same answers bit for bit.
#[inline]
pub fn ray_triangle_watertight<T: Real>(ray: &Ray<T, 3>, tri: &Triangle<T, 3>) -> Option<TriangleHit<T>> {
    WatertightRay::new(ray).hit(tri)
}

/// A ray prepared for [`ray_triangle_watertight`]: the dominant axis of its direction and the
/// shear that turns it into +z, computed once per ray instead of once per triangle (the setup
/// takes three divisions, which cost as much as the rest of a missed test).
///
/// ```
/// use cd_geom::{ray_triangle_watertight, Ray, Triangle, WatertightRay};
/// use nalgebra::{Point3, Vector3};
/// let tri = Triangle::new(Point3::new(0.0f32, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0)).unwrap();
/// let ray = Ray::new(Point3::new(0.25, 0.25, 1.0), Vector3::new(0.0, 0.0, -1.0)).unwrap();
/// let prepared = WatertightRay::new(&ray);
/// assert_eq!(prepared.hit(&tri), ray_triangle_watertight(&ray, &tri));
/// assert_eq!(prepared.hit(&tri).unwrap().t, 1.0);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct WatertightRay<T: Real> {
    ray: Ray<T, 3>,
    /// The direction's largest magnitude: the shear works with the direction divided by it (so
    /// the shear factors stay bounded for any valid direction length), and `t` is rescaled.
    scale: T,
    /// `kz`: the dominant axis of the direction; `kx`, `ky`: the other two, swapped when the
    /// dominant component is negative so the winding is kept.
    kx: usize,
    ky: usize,
    kz: usize,
    /// The origin's coordinates on `kx`, `ky`, `kz`.
    origin_k: [T; 3],
    /// Shear factors: `sx = d[kx]/d[kz]`, `sy = d[ky]/d[kz]`, `sz = 1/d[kz]`.
    sx: T,
    sy: T,
    sz: T,
}

impl<T: Real> WatertightRay<T> {
    /// Prepares `ray`. O(1).
    #[inline]
    pub fn new(ray: &Ray<T, 3>) -> Self {
        let scale = ray.dir().amax();
        let d = ray.dir() / scale;
        let kz = d.iamax();
        let mut kx = (kz + 1) % 3;
        let mut ky = (kx + 1) % 3;
        if d[kz] < T::zero() {
            core::mem::swap(&mut kx, &mut ky);
        }
        WatertightRay {
            ray: *ray,
            scale,
            kx,
            ky,
            kz,
            origin_k: [ray.origin()[kx], ray.origin()[ky], ray.origin()[kz]],
            sx: d[kx] / d[kz],
            sy: d[ky] / d[kz],
            sz: T::one() / d[kz],
        }
    }

    /// The ray it was prepared from.
    pub fn ray(&self) -> &Ray<T, 3> {
        &self.ray
    }

    /// The hit on `tri`, exactly as [`ray_triangle_watertight`] reports it.
    #[inline]
    pub fn hit(&self, tri: &Triangle<T, 3>) -> Option<TriangleHit<T>> {
        self.hit_within(tri, self.ray.max_t())
    }

    /// [`WatertightRay::hit`] for a caller that only wants hits up to `limit` (a closest-hit
    /// search's current best): a hit at or before `limit` comes back exactly as `hit` gives
    /// it, a hit beyond it is `None`, mostly before its division and box check. `limit` above
    /// the ray's `max_t` means the ray's.
    #[inline]
    pub fn hit_within(&self, tri: &Triangle<T, 3>, limit: T) -> Option<TriangleHit<T>> {
        let zero = T::zero();
        let max_t = if limit < self.ray.max_t() { limit } else { self.ray.max_t() };
        let (ray, scale, sx, sy, sz) = (&self.ray, self.scale, self.sx, self.sy, self.sz);
        // Each vertex relative to the origin in the permuted axes, read straight from the
        // triangle: forming the relative vectors first and then indexing them by the run-time
        // axes made the compiler spill them to the stack (the same differences, bit for bit).
        let [ox, oy, oz] = self.origin_k;
        let (kx, ky, kz) = (self.kx, self.ky, self.kz);
        let relative = |p: &Point<T, 3>| (p[kx] - ox, p[ky] - oy, p[kz] - oz);
        let ((ax, ay, a_z), (bx, by, b_z), (cx, cy, c_z)) =
            (relative(tri.a()), relative(tri.b()), relative(tri.c()));
        let (ax, ay) = (ax - sx * a_z, ay - sy * a_z);
        let (bx, by) = (bx - sx * b_z, by - sy * b_z);
        let (cx, cy) = (cx - sx * c_z, cy - sy * c_z);
        // The edge functions, each a difference of two products. One that rounds to exactly
        // zero (the ray through an edge or a vertex, a cancellation, or products too small for
        // T) is recomputed from exact products, so its sign is right (Woop et al. recompute in
        // higher precision); see `exact_edge`.
        let u = edge(cx, by, cy, bx);
        let v = edge(ax, cy, ay, cx);
        let w = edge(bx, ay, by, ax);
        if (u < zero || v < zero || w < zero) && (u > zero || v > zero || w > zero) {
            return None;
        }
        let det = u + v + w;
        if det == zero {
            return None;
        }
        let (az, bz, cz) = (sz * a_z, sz * b_z, sz * c_z);
        // The origin-relative vertices for the paths past the edge tests.
        let a = tri.a() - ray.origin();
        let t_scaled = u * az + v * bz + w * cz;
        let (t_scaled, adet) = if det < zero { (-t_scaled, -det) } else { (t_scaled, det) };
        let sign = if det < zero { -T::one() } else { T::one() };
        // The hit parameter interpolates the sheared depths with the edge functions as
        // weights. When the depths have both signs (the triangle reaches behind and ahead of
        // the origin along the dominant axis) the terms cancel, and the weights' relative
        // error, which the shear of far-away vertices can make large, is multiplied by the
        // depths: a 10¹⁰-long sliver in the plane z = −3·10⁻⁴ once gave t = 6,944 for a ray
        // whose line crosses that plane behind its origin. Then t comes from the triangle's
        // own plane instead (`plane_hit`).
        let behind = az < zero || bz < zero || cz < zero;
        let ahead = az > zero || bz > zero || cz > zero;
        if behind && ahead {
            return plane_hit(ray, max_t, tri, &a, v * sign, w * sign, adet);
        }
        // All depths ≤ 0 (the triangle behind the origin): the weights share det's sign, so
        // the true parameter is negative unless every vertex behind has weight zero. Decided
        // from the signs, not from `t_scaled`, whose products can underflow to −0 and pass
        // `t ≥ 0`: a triangle 10⁻³⁰⁰ behind the origin was "hit" at t = −0 (fuzz finding 40).
        if behind && [(u, az), (v, bz), (w, cz)].iter().any(|&(weight, depth)| weight != zero && depth < zero)
        {
            return None;
        }
        if t_scaled < zero {
            return None;
        }
        // The whole triangle beyond `max_t`: the parameter interpolates the vertices' depths
        // (all ≥ 0 here), so it is no smaller than the least of them. (`max_t` padded by a few
        // ulps, so no hit at or before it is lost to this product's rounding.) The interpolated
        // parameter itself is not compared yet: it may be rounding (below), and a check of it
        // against a closest-hit search's current best dropped a grazed sliver's true hit,
        // before that best, because its interpolated parameter came out beyond (fuzz finding
        // 69: `hit_within` then differed from `hit`).
        let nearest = if az < bz { az } else { bz };
        let nearest = if cz < nearest { cz } else { nearest };
        if nearest > max_t * scale * (T::one() + T::lit(4.0) * T::epsilon()) {
            return None;
        }
        // +0, never −0: a weight of −0 times a zero depth would otherwise leave the sign bit.
        let t_scaled = if t_scaled == zero { zero } else { t_scaled };
        let hit = scale_hit(t_scaled, v * sign, w * sign, adet);
        let t = hit.t / scale;
        // A ray within about 7° of the triangle's plane: the interpolated parameter is off by
        // about ε·depth/sin θ along the ray, nearly in the plane, so a hit near an edge slides
        // off the triangle while staying in its box, and walks with tighter volumes (OBBs,
        // k-DOPs, spheres) cull it where brute force takes it. It is moved into the triangle's
        // prism then (`grazing_hit`). A threshold only: any two edges' cross product serves.
        let (b, c) = (tri.b() - ray.origin(), tri.c() - ray.origin());
        let n = (b - a).cross(&(c - a));
        if T::lit(8.0) * n.dot(ray.dir()).abs() < n.amax() * ray.dir().amax() {
            return grazing_hit(ray, max_t, tri, [a, b, c], hit, t);
        }
        // The same weights' error, multiplied by depths of 10¹⁰, once put a sliver's hit 816
        // units from the triangle (its box 9 wide) for a ray from 2.9·10¹⁰ away whose line
        // crosses it on an edge (fuzz finding 41): the walks culled that triangle's box, brute
        // force took the hit. A point outside the box (by more than a few ulps) is rounding,
        // and the triangle's plane gives the parameter instead, checked the same way.
        if within_box(&ray.at(t), t * scale, tri) {
            if t > max_t {
                return None;
            }
            Some(TriangleHit { t, ..hit })
        } else {
            plane_hit(ray, max_t, tri, &a, v * sign, w * sign, adet)
        }
    }
}

/// The interpolated hit `hit` at parameter `t` of a ray grazing `tri` (origin-relative vertices
/// `q`), moved into the triangle's prism ([`clamp_to_prism`], with the parameter's uncertainty
/// for that angle); when it lies clearly outside the prism, or the moved point outside the
/// triangle's box, the plane's parameter instead ([`plane_hit`]). Out of line: a few hits in
/// ten come here.
#[cold]
#[inline(never)]
fn grazing_hit<T: Real>(
    ray: &Ray<T, 3>,
    max_t: T,
    tri: &Triangle<T, 3>,
    q: [Vector<T, 3>; 3],
    hit: TriangleHit<T>,
    t: T,
) -> Option<TriangleHit<T>> {
    let normal = WidestNormal::of(tri);
    let reach = q[0].amax().max(q[1].amax()).max(q[2].amax());
    let uncertainty = normal.parameter_uncertainty(reach, normal.n.dot(ray.dir()), t);
    let (v, w, adet) = (hit.u, hit.v, T::one());
    let inside = clamp_to_prism(t, uncertainty, q, &normal.n, ray.dir())
        .filter(|&t| within_box(&ray.at(t), t * ray.dir().amax(), tri));
    match inside {
        Some(t) if t <= max_t => Some(TriangleHit { t: if t == T::zero() { T::zero() } else { t }, ..hit }),
        Some(_) => None,
        None => plane_hit_with(ray, max_t, tri, &q[0], (v, w, adet), &normal),
    }
}

/// The hit parameter from the triangle's plane, for a ray whose edge functions say it crosses
/// the triangle (`v`, `w`: the signed weights, `adet` their sum's magnitude) but whose
/// interpolated sheared depths cannot be trusted: when the triangle reaches both behind and
/// ahead of the origin the depths cancel, and the weights' relative error, which the shear of
/// far-away vertices can make large, is multiplied by them (a 10¹⁰-long sliver in the plane
/// z = −3·10⁻⁴ once gave t = 6,944 for a ray whose line crosses that plane behind its origin).
/// `a` is vertex a relative to the ray's origin (the others are measured here: the plane's
/// offset is taken from the nearest). `None` when the plane's point is behind, past
/// `max_t` (at most the ray's), or outside the triangle's box. Out of line: rare, and kept out of the mesh walks'
/// inner loops.
#[cold]
#[inline(never)]
fn plane_hit<T: Real>(
    ray: &Ray<T, 3>,
    max_t: T,
    tri: &Triangle<T, 3>,
    a: &Vector<T, 3>,
    v: T,
    w: T,
    adet: T,
) -> Option<TriangleHit<T>> {
    plane_hit_with(ray, max_t, tri, a, (v, w, adet), &WidestNormal::of(tri))
}

/// [`plane_hit`] with the triangle's normal already at hand (`grazing_hit` falls back here
/// after computing it); `weights` are `(v, w, adet)`.
fn plane_hit_with<T: Real>(
    ray: &Ray<T, 3>,
    max_t: T,
    tri: &Triangle<T, 3>,
    a: &Vector<T, 3>,
    weights: (T, T, T),
    normal: &WidestNormal<T>,
) -> Option<TriangleHit<T>> {
    let zero = T::zero();
    let (v, w, adet) = weights;
    let n = normal.n;
    // The plane's offset from the vertex nearest the ray's origin: `n·(v − o)` is off by about
    // ε·|n|·|v − o|, and the vertices are all on the plane. From a vertex 4·10¹⁰ away the
    // offset of a ray grazing a 10¹⁰-wide triangle came out 0 instead of 8·10⁶, putting its
    // origin, 0.04 past the near vertex, on the triangle (fuzz finding 43).
    let near = |v: &Vector<T, 3>, w: &Vector<T, 3>| if w.amax() < v.amax() { *w } else { *v };
    let rel = near(&near(a, &(tri.b() - ray.origin())), &(tri.c() - ray.origin()));
    // A ray lying in the plane to within the normal's own rounding (ε·|e₀|·|e₁| for the cross
    // product) has no parameter to speak of: a ray in a sliver's plane, through one vertex's
    // projection with the other two beside its line, got t from rounding noise and a "hit" 8
    // units off a triangle 1.3·10¹⁰ long but inside its box (fuzz finding 44). Coplanar rays
    // miss, as they do where the determinant is exactly zero.
    let nd = n.dot(ray.dir());
    let in_plane = T::lit(64.0) * T::epsilon() * normal.scale * ray.dir().amax();
    // (Also refused: a NaN.)
    if nd.abs().partial_cmp(&in_plane) != Some(core::cmp::Ordering::Greater) {
        return None;
    }
    let t = n.dot(&rel) / nd;
    if !t.is_finite() {
        return None;
    }
    // The plane's parameter is off by the offset's rounding over |n·d|, which a grazing ray
    // makes large: the point slides along the ray, nearly in the plane, and can leave a
    // sliver across its narrow side (a ray through the vertex two slivers share was put 2.6·10⁻⁴
    // outside one of them, which the OBB walk rightly culled while brute force took the hit:
    // fuzz finding 67). So the parameter is clamped to where the ray is inside the prism over
    // the triangle; sliding back costs at most the same rounding in distance from the plane,
    // because the true crossing lies in both. A plane crossing farther from the prism than its
    // uncertainty is no hit.
    let uncertainty = normal.parameter_uncertainty(rel.amax(), nd, t);
    let t =
        clamp_to_prism(t, uncertainty, [*a, tri.b() - ray.origin(), tri.c() - ray.origin()], &n, ray.dir())?;
    if !(t >= zero && t <= max_t) {
        return None;
    }
    let t = if t == zero { zero } else { t };
    // The edge functions' "inside" can be rounding noise here: a ray almost parallel to a
    // 10¹⁰-long sliver projects it to a needle whose edges pass within an ulp of the origin,
    // and the plane then put the "hit" 3.5·10⁶ units beyond a triangle whose far corner was at
    // 2.1 (fuzz finding 37). A real hit lies in the triangle's box, so a plane point outside it
    // (by more than a few ulps) is no hit.
    if !within_box(&ray.at(t), t * ray.dir().amax(), tri) {
        return None;
    }
    let hit = scale_hit(zero, v, w, adet);
    Some(TriangleHit { t, ..hit })
}

/// A triangle's normal from the two edges at the widest angle: crossing the two long edges of
/// a sliver tilts it by ε·length/width, which the plane offset of a vertex 4·10⁹ away turned
/// into t = 1,298 for a hit at t = 1.
struct WidestNormal<T: Real> {
    /// The (unnormalized) normal `e₀ × e₁`.
    n: Vector<T, 3>,
    /// `|e₀|∞·|e₁|∞`: the scale of the normal's rounding.
    scale: T,
}

impl<T: Real> WidestNormal<T> {
    fn of(tri: &Triangle<T, 3>) -> Self {
        let (e0, e1) = widest_angle_edges(&tri.a().coords, &tri.b().coords, &tri.c().coords);
        WidestNormal { n: e0.cross(&e1), scale: e0.amax() * e1.amax() }
    }

    /// The uncertainty of a plane parameter `t` along a ray with `nd = n·d`, for plane offsets
    /// measured from vertices at most `reach` from the ray's origin: the offset's rounding
    /// (about ε·|n|·reach) over |n·d|, plus the parameter's own.
    fn parameter_uncertainty(&self, reach: T, nd: T, t: T) -> T {
        T::lit(16.0) * T::epsilon() * (self.scale * reach / nd.abs() + t.abs())
    }
}

/// `t` moved into the parameter interval where the ray `t·d` (from the origin) lies inside the
/// prism over the triangle with origin-relative vertices `q` and normal `n`: the three
/// half-spaces bounded by the planes through each edge along `n`; `None` when `t` lies
/// farther than `uncertainty` outside it.
///
/// Each bound is `m·q / m·d` for the edge plane's normal `m = n × e`, and is only known to the
/// rounding of both dot products (and of `m`) over `|m·d|`, which is large for a ray running
/// nearly along the edge. So the interval is widened by each bound's own uncertainty, and `t`
/// is moved only to the widened ends. That costs no accuracy: moving along a ray nearly
/// parallel to an edge's plane barely moves a point off it (the bound's error in `t` times
/// `|m·d|/|m|` is a few ulps of the coordinates). Clamping to the bounds themselves opened a
/// crack: a ray grazing two triangles along their shared edge was moved by each to its own
/// ill-conditioned bound on that edge, out of both triangles' boxes. An interval emptied by
/// rounding (a ray through a vertex) is used with its ends swapped: its points are all at that
/// vertex.
fn clamp_to_prism<T: Real>(
    t: T,
    uncertainty: T,
    q: [Vector<T, 3>; 3],
    n: &Vector<T, 3>,
    d: &Vector<T, 3>,
) -> Option<T> {
    let (mut lo, mut hi) = (-T::infinity(), T::infinity());
    // m's components are off by about 2ε|n||e|, the dot products by 3ε of their terms.
    let rounding = T::lit(16.0) * T::epsilon() * n.amax();
    for i in 0..3 {
        let (from, to, opposite) = (q[i], q[(i + 1) % 3], q[(i + 2) % 3]);
        let edge = to - from;
        let mut m = n.cross(&edge);
        if m.dot(&(opposite - from)) < T::zero() {
            m = -m;
        }
        // Inside: m·(t d − from) ≥ 0, a bound on t unless the ray runs along the edge's plane.
        let (md, mq) = (m.dot(d), m.dot(&from));
        let bound = mq / md;
        let spread = rounding * edge.amax() * (from.amax() + bound.abs() * d.amax()) / md.abs();
        // (A NaN bound or spread compares false: no bound.)
        if md > T::zero() {
            let wide = bound - spread;
            lo = if wide > lo { wide } else { lo };
        } else if md < T::zero() {
            let wide = bound + spread;
            hi = if wide < hi { wide } else { hi };
        }
    }
    if lo > hi {
        core::mem::swap(&mut lo, &mut hi);
    }
    if t < lo - uncertainty || t > hi + uncertainty {
        return None;
    }
    Some(if t < lo {
        lo
    } else if t > hi {
        hi
    } else {
        t
    })
}

/// The edge function `p·q − r·s`, recomputed from exact products ([`exact_edge`]) when it
/// rounds to zero. Inlined, with the rare recomputation out of line: as one closure the
/// compiler called it three times per triangle, spilling the sheared corners around each call.
#[inline(always)]
fn edge<T: Real>(p: T, q: T, r: T, s: T) -> T {
    let value = p * q - r * s;
    if value != T::zero() {
        value
    } else {
        exact_edge(p, q, r, s)
    }
}

/// `p·q − r·s` recomputed from exact products, for an edge function that rounded to zero.
/// The sign is what the watertight test needs, and it must survive underflow: products of
/// factors near 10⁻³⁰⁰ vanish even in `f64` (a ray 10⁻³⁰⁰ beside a vertex then "hit" the
/// triangle: fuzz finding 38), so when both products are below 2⁻¹⁰⁰⁰ the factors are
/// scaled by 2⁵⁰⁰ each first (exact, and safe: the scaled products stay below 1); a nonzero
/// difference too small for T
/// comes back as T's smallest magnitude with its sign (the other edge functions dwarf it).
#[cold]
#[inline(never)]
fn exact_edge<T: Real>(p: T, q: T, r: T, s: T) -> T {
    let (p, q, r, s) = (p.to_f64(), q.to_f64(), r.to_f64(), s.to_f64());
    let mut exact = difference_of_products(p, q, r, s);
    let underflow_bound = 2f64.powi(-1000);
    let underflowed = (p * q).abs() < underflow_bound && (r * s).abs() < underflow_bound;
    if exact == 0.0 && underflowed && ((p != 0.0 && q != 0.0) || (r != 0.0 && s != 0.0)) {
        let k = 2f64.powi(500);
        // Only the sign of the scaled difference is kept: its size is 2¹⁰⁰⁰ times the truth.
        let scaled = difference_of_products(p * k, q * k, r * k, s * k);
        exact = if scaled == 0.0 { 0.0 } else { scaled.signum() * f64::from_bits(1) };
    }
    let value = T::lit(exact);
    if value != T::zero() || exact == 0.0 {
        return value;
    }
    // T's smallest positive value: f64's smallest subnormal, or f32's where that rounds to 0.
    let tiny = match T::lit(f64::from_bits(1)) {
        t if t != T::zero() => t,
        _ => T::lit(f64::from(f32::from_bits(1))),
    };
    if exact > 0.0 {
        tiny
    } else {
        -tiny
    }
}

/// Whether the ray point `p`, `travel` (= t·|d|∞) from the origin, lies in the box of `tri`
/// to its rounding: an ulp of `p` (the sum origin + t·d) and four of the travel (t's own
/// few ulps). No more: at t = 0 the point is the origin itself, exact, and the hierarchies'
/// slab tests cull a box whose face it misses by three ulps (a fuzz input of finding 37's
/// run had a "hit" there that the tree rightly skipped).
///
/// Run on every hit of a mesh walk, so written with plain comparisons and no minima or
/// maxima (which handle NaN at a cost): inside the box on an axis means some vertex reaches
/// `p − slack` and some vertex is below `p + slack`. A non-finite `p` is outside.
#[inline]
fn within_box<T: Real>(p: &Point<T, 3>, travel: T, tri: &Triangle<T, 3>) -> bool {
    let [a, b, c] = tri.vertices();
    let larger = |x: T, y: T| if x > y { x } else { y };
    let size = larger(larger(p.x.abs(), p.y.abs()), p.z.abs());
    let slack = T::epsilon() * (size + T::lit(4.0) * travel);
    let axis = |i: usize| {
        let (lo, hi) = (p[i] - slack, p[i] + slack);
        (a[i] >= lo) | (b[i] >= lo) | (c[i] >= lo) && (a[i] <= hi) | (b[i] <= hi) | (c[i] <= hi)
    };
    axis(0) & axis(1) & axis(2)
}

/// Where segment `s` crosses triangle `tri` (3D), if it does: the segment as a ray with
/// `max_t = 1`, double-sided. Coplanar segments report no crossing.
pub(crate) fn segment_triangle_hit<T: Real>(s: &Segment<T, 3>, tri: &Triangle<T, 3>) -> Option<Point<T, 3>> {
    let ray = Ray::new(*s.a(), s.delta()).ok()?.with_max_t(T::one()).ok()?;
    ray_triangle(&ray, tri).map(|h| tri.at_barycentric(h.u, h.v))
}
