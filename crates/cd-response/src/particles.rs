//! Particle systems (Real-Time Rendering 25.10): many point particles moving under gravity and
//! bouncing off their surroundings with restitution and friction, plus collisions between the
//! particles themselves found through a grid.
//!
//! * **Surroundings** are anything that can answer "where does this segment first hit you?":
//!   [`ParticleSystem::step`] takes such a closure and moves each particle along its path for
//!   the step, reflecting it ([`reflect()`](crate::reflect::reflect)) at each hit and moving it on for the rest of
//!   the step — the seed's swept response, so no particle passes through a surface however
//!   fast it goes. [`planes_hit`] answers for a set of half-spaces; the facade answers for
//!   triangle meshes through their BVH; [`DistanceGrid`] answers for a signed-distance grid.
//! * **Neighbours**: [`neighbor_pairs`] lists the particle pairs closer than twice the radius
//!   with a sorted uniform grid of cell size `2r` (each particle checks its own and the 26
//!   neighbouring cells); [`ParticleSystem::collide_pairs`] applies an equal-mass impulse with
//!   the system's restitution to each approaching pair and separates overlapping ones.

use cd_geom::{GeomError, GeomResult, Plane, Point, Real, Vector};
use nalgebra::Vector3;

use crate::reflect::{reflect, Material};

/// Bounces handled per particle per step; a particle still hitting something after that many
/// stops at its last contact for the rest of the step (a corner cannot trap it in a loop).
pub const MAX_BOUNCES: usize = 8;

/// A first hit of a segment: the fraction `f ∈ [0, 1]` of the segment at which it hits and the
/// unit surface normal there, pointing back towards the segment's start.
pub type SegmentHit<T> = (T, Vector<T, 3>);

/// Point particles with a common radius (used between particles only) and material.
#[derive(Clone, Debug)]
pub struct ParticleSystem<T: Real> {
    /// Positions.
    pub positions: Vec<Point<T, 3>>,
    /// Velocities.
    pub velocities: Vec<Vector<T, 3>>,
    radius: T,
    material: Material<T>,
}

impl<T: Real> ParticleSystem<T> {
    /// A system. Errors: different lengths ([`GeomError::IndexOutOfBounds`]), bad coordinates,
    /// a negative or non-finite radius.
    pub fn new(
        positions: Vec<Point<T, 3>>,
        velocities: Vec<Vector<T, 3>>,
        radius: T,
        material: Material<T>,
    ) -> GeomResult<Self> {
        if positions.len() != velocities.len() {
            return Err(GeomError::IndexOutOfBounds);
        }
        positions.iter().try_for_each(cd_geom::validate::point)?;
        velocities.iter().try_for_each(cd_geom::validate::vector)?;
        cd_geom::validate::vector(&Vector3::new(radius, T::zero(), T::zero()))?;
        if radius < T::zero() {
            return Err(GeomError::Negative);
        }
        Ok(Self { positions, velocities, radius, material })
    }

    /// Number of particles.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// No particles?
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The particles' radius.
    pub fn radius(&self) -> T {
        self.radius
    }

    /// Restitution and friction.
    pub fn material(&self) -> &Material<T> {
        &self.material
    }

    /// Adds `gravity · dt` to every velocity, then moves every particle through the step,
    /// bouncing at each hit `first_hit(start, displacement)` reports. Returns the number of
    /// bounces.
    pub fn step(
        &mut self,
        gravity: &Vector<T, 3>,
        dt: T,
        mut first_hit: impl FnMut(&Point<T, 3>, &Vector<T, 3>) -> Option<SegmentHit<T>>,
    ) -> usize {
        let mut bounces = 0;
        for (p, v) in self.positions.iter_mut().zip(&mut self.velocities) {
            *v += gravity * dt;
            let mut remaining = dt;
            for bounce in 0..=MAX_BOUNCES {
                let displacement = *v * remaining;
                let Some((f, n)) = first_hit(p, &displacement) else {
                    *p += displacement;
                    break;
                };
                let f = f.max(T::zero()).min(T::one());
                // Stop at the contact, nudged off the surface by a few ulps of the position so
                // the next segment does not start exactly on it (a ray from a point on a
                // triangle may report that triangle again at t = 0).
                let nudge = T::epsilon() * T::lit(64.0) * p.coords.amax().max(T::one());
                *p += displacement * f + n * nudge;
                remaining *= T::one() - f;
                *v = reflect(v, &n, &self.material);
                bounces += 1;
                if bounce == MAX_BOUNCES {
                    break; // stay at the contact for the rest of the step
                }
            }
        }
        bounces
    }

    /// Resolves collisions between particles closer than twice the radius: approaching pairs
    /// exchange an equal-mass impulse along the line of centres with the system's
    /// restitution (momentum is conserved exactly), and overlapping pairs are pushed apart
    /// symmetrically. Pairs are processed in sorted order (deterministic). Returns the number
    /// of pairs in contact.
    pub fn collide_pairs(&mut self) -> usize {
        let pairs = neighbor_pairs(&self.positions, self.radius);
        let k = self.material.restitution();
        let reach = self.radius + self.radius;
        for &(i, j) in &pairs {
            let (i, j) = (i as usize, j as usize);
            let d = self.positions[j] - self.positions[i];
            let distance = d.norm();
            if distance == T::zero() {
                continue; // coincident: no direction to push along
            }
            let n = d / distance;
            let approach = (self.velocities[j] - self.velocities[i]).dot(&n);
            if approach < T::zero() {
                // Equal masses: each receives half of (1 + k) times the approach speed.
                let change = n * (approach * (T::one() + k) * T::lit(0.5));
                self.velocities[i] += change;
                self.velocities[j] -= change;
            }
            let overlap = reach - distance;
            if overlap > T::zero() {
                let push = n * (overlap * T::lit(0.5));
                self.positions[i] -= push;
                self.positions[j] += push;
            }
        }
        pairs.len()
    }
}

/// The first hit of the segment from `start` by `displacement` on a set of half-spaces (each
/// plane's solid side is `n·x + d ≤ 0`): the particle hits a plane when it crosses from the
/// open side; one that already is inside a half-space is hit at once (fraction 0) if it moves
/// further in, so rounding never lets it sink.
pub fn planes_hit<T: Real>(
    planes: &[Plane<T, 3>],
    start: &Point<T, 3>,
    displacement: &Vector<T, 3>,
) -> Option<SegmentHit<T>> {
    let mut best: Option<SegmentHit<T>> = None;
    for plane in planes {
        let n = plane.normal();
        let (s, rate) = (plane.signed_distance(start), n.dot(displacement));
        if rate >= T::zero() {
            continue; // moving out of (or along) the solid side
        }
        let f = if s <= T::zero() { T::zero() } else { s / -rate };
        if f <= T::one() && best.is_none_or(|(b, _)| f < b) {
            best = Some((f, *n));
        }
    }
    best
}

/// Every pair of points closer than `2 · radius` (touching counts), `(i, j)` with `i < j`,
/// sorted. A uniform grid of cell size `2r` is built by sorting the points' cell keys (no hash
/// map: the result and its order depend only on the input), and each point looks at the 27
/// cells around its own. `radius = 0` finds coincident points. O(n log n + pairs).
pub fn neighbor_pairs<T: Real>(points: &[Point<T, 3>], radius: T) -> Vec<(u32, u32)> {
    let reach = radius + radius;
    let cell = if reach > T::zero() { reach } else { T::one() };
    let key = |p: &Point<T, 3>| -> [i64; 3] {
        let c = |x: T| (x / cell).floor().to_f64().clamp(-1e15, 1e15) as i64;
        [c(p.x), c(p.y), c(p.z)]
    };
    let mut cells: Vec<([i64; 3], u32)> =
        points.iter().enumerate().map(|(i, p)| (key(p), i as u32)).collect();
    cells.sort_unstable();
    let mut pairs = Vec::new();
    let reach2 = reach * reach;
    for (i, p) in points.iter().enumerate() {
        let k = key(p);
        for dx in -1..=1i64 {
            for dy in -1..=1i64 {
                for dz in -1..=1i64 {
                    let target = [k[0] + dx, k[1] + dy, k[2] + dz];
                    let start = cells.partition_point(|(c, _)| *c < target);
                    for &(c, j) in &cells[start..] {
                        if c != target {
                            break;
                        }
                        if (j as usize) > i && (points[j as usize] - p).norm_squared() <= reach2 {
                            pairs.push((i as u32, j));
                        }
                    }
                }
            }
        }
    }
    pairs.sort_unstable();
    pairs
}

/// A signed-distance field sampled on a regular grid (negative inside the solid), read by
/// trilinear interpolation; its gradient (by central differences of the interpolant) is the
/// surface normal.
#[derive(Clone, Debug, PartialEq)]
pub struct DistanceGrid<T: Real> {
    origin: Point<T, 3>,
    cell: T,
    dims: [usize; 3],
    values: Vec<T>,
}

impl<T: Real> DistanceGrid<T> {
    /// Samples `distance` at the `dims` grid points `origin + cell · (i, j, k)`. Errors: fewer
    /// than two points along an axis ([`GeomError::TooFewPoints`]), a cell ≤ 0, a non-finite
    /// sample.
    pub fn from_fn(
        origin: Point<T, 3>,
        cell: T,
        dims: [usize; 3],
        mut distance: impl FnMut(&Point<T, 3>) -> T,
    ) -> GeomResult<Self> {
        cd_geom::validate::point(&origin)?;
        if dims.iter().any(|&d| d < 2) {
            return Err(GeomError::TooFewPoints);
        }
        if !(cell > T::zero() && cell.is_finite()) {
            return Err(GeomError::Negative);
        }
        let mut values = Vec::with_capacity(dims[0] * dims[1] * dims[2]);
        for k in 0..dims[2] {
            for j in 0..dims[1] {
                for i in 0..dims[0] {
                    let p =
                        origin + Vector3::new(T::lit(i as f64), T::lit(j as f64), T::lit(k as f64)) * cell;
                    let d = distance(&p);
                    if !d.is_finite() {
                        return Err(GeomError::NonFinite);
                    }
                    values.push(d);
                }
            }
        }
        Ok(Self { origin, cell, dims, values })
    }

    fn at(&self, i: usize, j: usize, k: usize) -> T {
        self.values[(k * self.dims[1] + j) * self.dims[0] + i]
    }

    /// The interpolated distance at `p`, or `None` outside the grid.
    pub fn distance(&self, p: &Point<T, 3>) -> Option<T> {
        let local = (p - self.origin) / self.cell;
        let mut base = [0usize; 3];
        let mut frac = [T::zero(); 3];
        for a in 0..3 {
            let x = local[a];
            let top = T::lit((self.dims[a] - 1) as f64);
            if !(x >= T::zero() && x <= top) {
                return None;
            }
            let cell = x.floor().min(top - T::one());
            base[a] = cell.to_f64() as usize;
            frac[a] = x - cell;
        }
        let [fx, fy, fz] = frac;
        let lerp = |a: T, b: T, t: T| a + (b - a) * t;
        let [i, j, k] = base;
        let c00 = lerp(self.at(i, j, k), self.at(i + 1, j, k), fx);
        let c10 = lerp(self.at(i, j + 1, k), self.at(i + 1, j + 1, k), fx);
        let c01 = lerp(self.at(i, j, k + 1), self.at(i + 1, j, k + 1), fx);
        let c11 = lerp(self.at(i, j + 1, k + 1), self.at(i + 1, j + 1, k + 1), fx);
        Some(lerp(lerp(c00, c10, fy), lerp(c01, c11, fy), fz))
    }

    /// The unit gradient at `p` (the outward normal of the level set through it), or `None`
    /// outside the grid or where the field is flat.
    pub fn normal(&self, p: &Point<T, 3>) -> Option<Vector<T, 3>> {
        let h = self.cell * T::lit(0.5);
        let mut g = Vector3::zeros();
        for a in 0..3 {
            let mut e = Vector3::zeros();
            e[a] = h;
            // One-sided at the grid's boundary.
            let hi = self.distance(&(p + e)).or_else(|| self.distance(p))?;
            let lo = self.distance(&(p - e)).or_else(|| self.distance(p))?;
            g[a] = hi - lo;
        }
        g.try_normalize(T::zero())
    }

    /// The first hit of a segment on the solid (`distance ≤ 0`): the segment is marched in
    /// steps of at most half a cell, the crossing is found by bisection on the interpolated
    /// field, and the normal is the gradient there. A start already inside the solid is a hit
    /// at fraction 0 if the segment goes deeper. Outside the grid there is no solid.
    pub fn segment_hit(&self, start: &Point<T, 3>, displacement: &Vector<T, 3>) -> Option<SegmentHit<T>> {
        let length = displacement.norm();
        let sample = |f: T| self.distance(&(start + displacement * f));
        if let Some(d0) = sample(T::zero()) {
            if d0 <= T::zero() {
                let n = self.normal(start)?;
                return (n.dot(displacement) < T::zero()).then_some((T::zero(), n));
            }
        }
        let steps = ((length / (self.cell * T::lit(0.5))).ceil().to_f64() as usize).clamp(1, 1 << 20);
        let mut previous = (T::zero(), sample(T::zero()));
        for s in 1..=steps {
            let f = T::lit(s as f64) / T::lit(steps as f64);
            let d = sample(f);
            if let (Some(before), Some(now)) = (previous.1, d) {
                if before > T::zero() && now <= T::zero() {
                    // Bisection keeps an outside end `lo` and an inside end `hi`: the answer
                    // `lo` is never past the surface.
                    let (mut lo, mut hi) = (previous.0, f);
                    for _ in 0..40 {
                        let mid = (lo + hi) * T::lit(0.5);
                        if sample(mid).is_some_and(|x| x > T::zero()) {
                            lo = mid;
                        } else {
                            hi = mid;
                        }
                    }
                    let n =
                        self.normal(&(start + displacement * hi)).unwrap_or_else(|| -displacement / length);
                    return Some((lo, n));
                }
            }
            previous = (f, d);
        }
        None
    }
}
