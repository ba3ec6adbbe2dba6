//! Mass properties of solid shapes: mass, centre of mass and inertia tensor, for every cd-geom
//! solid and for compounds of them.
//!
//! Everything is expressed in the frame the shape's coordinates are given in (a ball's centre,
//! a box's axes…): the centre of mass is a point of that frame and the inertia tensor is taken
//! about the centre of mass with that frame's axes. A rigid body placed by a pose turns it into
//! world space with [`MassProperties::world_inverse_inertia`].
//!
//! Polyhedra and closed meshes use the second-moment form of the tetrahedron integral: for a
//! tetrahedron with one vertex at the origin and the others at `a, b, c`,
//! `∫ x xᵀ dV = V/20 · (a aᵀ + b bᵀ + c cᵀ + s sᵀ)` with `s = a + b + c` and `V` the signed
//! volume `a·(b×c)/6`. Summing signed tetrahedra over a closed surface gives the solid's moment
//! whatever the origin; it is taken from the vertex mean so the sums stay well conditioned far
//! from the origin. The inertia tensor is `tr(C) I − C` for the moment `C` about the centre.

use cd_geom::{
    Ball, Capsule, Cone, ConvexPolyhedron, Cylinder, GeomError, GeomResult, Lozenge, Obb, Point, Real, Vector,
};
use nalgebra::{Isometry3, Matrix3, Vector3};

/// Mass, centre of mass and inertia tensor (about the centre of mass) of a solid.
///
/// A body with infinite mass ([`MassProperties::infinite`]) never moves under impulses: its
/// inverse mass and inverse inertia are zero (static and kinematic bodies).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassProperties<T: Real> {
    mass: T,
    inverse_mass: T,
    center: Point<T, 3>,
    inertia: Matrix3<T>,
    inverse_inertia: Matrix3<T>,
}

impl<T: Real> MassProperties<T> {
    /// Mass properties from their parts: a positive finite mass, its centre, and a symmetric
    /// positive-definite inertia tensor about that centre. Errors: non-finite values
    /// ([`GeomError::NonFinite`]), a mass ≤ 0 ([`GeomError::Negative`]), an inertia tensor that is
    /// not symmetric positive definite ([`GeomError::Degenerate`]).
    pub fn new(mass: T, center: Point<T, 3>, inertia: Matrix3<T>) -> GeomResult<Self> {
        if !mass.is_finite()
            || !center.coords.iter().all(|x| x.is_finite())
            || !inertia.iter().all(|x| x.is_finite())
        {
            return Err(GeomError::NonFinite);
        }
        if mass <= T::zero() {
            return Err(GeomError::Negative);
        }
        let symmetric = (inertia - inertia.transpose()).amax() <= T::lit(1e-6) * inertia.amax();
        let inverse_inertia =
            inertia.cholesky().filter(|_| symmetric).ok_or(GeomError::Degenerate)?.inverse();
        if !inverse_inertia.iter().all(|x| x.is_finite()) {
            return Err(GeomError::Degenerate);
        }
        Ok(Self { mass, inverse_mass: T::one() / mass, center, inertia, inverse_inertia })
    }

    /// A body that impulses cannot move (inverse mass and inverse inertia zero), centred at the
    /// origin. Its [`mass`](Self::mass) is infinite.
    pub fn infinite() -> Self {
        Self {
            mass: T::infinity(),
            inverse_mass: T::zero(),
            center: Point::origin(),
            inertia: Matrix3::zeros(),
            inverse_inertia: Matrix3::zeros(),
        }
    }

    /// The mass (infinite for [`MassProperties::infinite`]).
    pub fn mass(&self) -> T {
        self.mass
    }

    /// `1 / mass` (zero for a static body).
    pub fn inverse_mass(&self) -> T {
        self.inverse_mass
    }

    /// The centre of mass, in the shape's frame.
    pub fn center(&self) -> &Point<T, 3> {
        &self.center
    }

    /// The inertia tensor about the centre of mass, in the shape's axes.
    pub fn inertia(&self) -> &Matrix3<T> {
        &self.inertia
    }

    /// The inverse inertia tensor in the shape's axes (zero for a static body).
    pub fn inverse_inertia(&self) -> &Matrix3<T> {
        &self.inverse_inertia
    }

    /// Whether impulses can move the body (a finite mass).
    pub fn is_dynamic(&self) -> bool {
        self.inverse_mass > T::zero()
    }

    /// The inverse inertia tensor in world axes for a body whose shape frame is placed by
    /// `pose`: `R I⁻¹ Rᵀ`.
    pub fn world_inverse_inertia(&self, pose: &Isometry3<T>) -> Matrix3<T> {
        let r = pose.rotation.to_rotation_matrix();
        r.matrix() * self.inverse_inertia * r.matrix().transpose()
    }

    /// The same solid expressed in another frame: `pose` maps this frame's coordinates into the
    /// new one (centre moved, tensor rotated).
    pub fn transformed(&self, pose: &Isometry3<T>) -> Self {
        let r = *pose.rotation.to_rotation_matrix().matrix();
        Self {
            center: pose * self.center,
            inertia: r * self.inertia * r.transpose(),
            inverse_inertia: r * self.inverse_inertia * r.transpose(),
            ..*self
        }
    }

    /// A solid ball of uniform `density`.
    pub fn ball(ball: &Ball<T, 3>, density: T) -> GeomResult<Self> {
        let r = ball.radius();
        let mass = checked_density(density)? * T::lit(4.0 / 3.0) * T::pi() * r * r * r;
        let i = T::lit(0.4) * mass * r * r;
        Self::new(mass, *ball.center(), Matrix3::from_diagonal_element(i))
    }

    /// A solid box of uniform `density`.
    pub fn cuboid(obb: &Obb<T, 3>, density: T) -> GeomResult<Self> {
        let h = obb.half_extents();
        let mass = checked_density(density)? * T::lit(8.0) * h.x * h.y * h.z;
        let third = mass / T::lit(3.0);
        let diagonal =
            Vector3::new(h.y * h.y + h.z * h.z, h.x * h.x + h.z * h.z, h.x * h.x + h.y * h.y) * third;
        let axes = obb.axes();
        Self::new(mass, *obb.center(), axes * Matrix3::from_diagonal(&diagonal) * axes.transpose())
    }

    /// A solid capsule (a cylinder and two half-balls) of uniform `density`.
    pub fn capsule(capsule: &Capsule<T, 3>, density: T) -> GeomResult<Self> {
        let density = checked_density(density)?;
        let (r, axis) = (capsule.radius(), capsule.b() - capsule.a());
        let h = axis.norm();
        let cylinder = density * T::pi() * r * r * h;
        let ball = density * T::lit(4.0 / 3.0) * T::pi() * r * r * r;
        let along = cylinder * r * r / T::lit(2.0) + ball * T::lit(0.4) * r * r;
        // Each half-ball: its own moment about its centroid (3r/8 from the flat face) moved by
        // the parallel-axis theorem to the capsule's centre; summed, the r² terms give 2/5.
        let across = cylinder * (T::lit(3.0) * r * r + h * h) / T::lit(12.0)
            + ball * (T::lit(0.4) * r * r + h * h / T::lit(4.0) + T::lit(3.0 / 8.0) * h * r);
        let center = capsule.a() + axis / T::lit(2.0);
        Self::new(cylinder + ball, center, axial_tensor(&axis, along, across))
    }

    /// A solid cylinder of uniform `density`.
    pub fn cylinder(cylinder: &Cylinder<T>, density: T) -> GeomResult<Self> {
        let (r, axis) = (cylinder.radius(), cylinder.b() - cylinder.a());
        let h = axis.norm();
        let mass = checked_density(density)? * T::pi() * r * r * h;
        let along = mass * r * r / T::lit(2.0);
        let across = mass * (T::lit(3.0) * r * r + h * h) / T::lit(12.0);
        Self::new(mass, cylinder.a() + axis / T::lit(2.0), axial_tensor(&axis, along, across))
    }

    /// A solid cone of uniform `density` (its centre of mass a quarter of the height above the
    /// base).
    pub fn cone(cone: &Cone<T>, density: T) -> GeomResult<Self> {
        let (r, axis) = (cone.radius(), cone.apex() - cone.base());
        let h = axis.norm();
        let mass = checked_density(density)? * T::pi() * r * r * h / T::lit(3.0);
        let along = T::lit(0.3) * mass * r * r;
        let across = mass * (T::lit(3.0 / 20.0) * r * r + T::lit(3.0 / 80.0) * h * h);
        Self::new(mass, cone.base() + axis / T::lit(4.0), axial_tensor(&axis, along, across))
    }

    /// A solid lozenge (a rectangle grown by a radius) of uniform `density`. Exact: the solid
    /// splits into the rectangle's slab (thickness 2r), a half-cylinder along each edge and a
    /// quarter-ball at each corner (the four make one ball); each piece's second moments about
    /// the centre are summed in the rectangle's frame (by symmetry the cross terms cancel).
    /// Error: a parallelogram core that is not a rectangle ([`GeomError::NotOrthonormal`]).
    pub fn lozenge(lozenge: &Lozenge<T>, density: T) -> GeomResult<Self> {
        let density = checked_density(density)?;
        let (e0, e1, r) = (*lozenge.e0(), *lozenge.e1(), lozenge.radius());
        let (l0, l1) = (e0.norm(), e1.norm());
        if e0.dot(&e1).abs() > T::lit(1e-4) * l0 * l1 {
            return Err(GeomError::NotOrthonormal);
        }
        // Frame: u along e0 (half length a), w along e1 (half length b), n across.
        let (a, b) = (l0 / T::lit(2.0), l1 / T::lit(2.0));
        let (u, w) = match (e0.try_normalize(T::zero()), e1.try_normalize(T::zero())) {
            (Some(u), Some(w)) => (u, w),
            (Some(u), None) => (u, cd_geom::unit_perpendicular(&u)),
            (None, Some(w)) => (cd_geom::unit_perpendicular(&w), w),
            (None, None) => (Vector3::x(), Vector3::z()),
        };
        let n = u.cross(&w);
        let pi = T::pi();
        let r2 = r * r;
        // Centroid offsets of a half-disc and of a half-ball (also a quarter-ball's).
        let half_disc = T::lit(4.0) * r / (T::lit(3.0) * pi);
        let half_ball = T::lit(3.0 / 8.0) * r;
        // Second moments Σ m·x² along u, n, w, piece by piece.
        let slab = density * T::lit(8.0) * a * b * r;
        let (mut su, mut sn, mut sw) =
            (slab * a * a / T::lit(3.0), slab * r2 / T::lit(3.0), slab * b * b / T::lit(3.0));
        let along_w = density * pi * r2 * b; // each of the two half-cylinders at u = ±a
        su += T::lit(2.0) * along_w * (a * a + T::lit(2.0) * a * half_disc + r2 / T::lit(4.0));
        sn += T::lit(2.0) * along_w * r2 / T::lit(4.0);
        sw += T::lit(2.0) * along_w * b * b / T::lit(3.0);
        let along_u = density * pi * r2 * a; // each of the two at w = ±b
        sw += T::lit(2.0) * along_u * (b * b + T::lit(2.0) * b * half_disc + r2 / T::lit(4.0));
        sn += T::lit(2.0) * along_u * r2 / T::lit(4.0);
        su += T::lit(2.0) * along_u * a * a / T::lit(3.0);
        let quarter = density * pi * r2 * r / T::lit(3.0); // each of the four corners
        su += T::lit(4.0) * quarter * (a * a + T::lit(2.0) * a * half_ball + r2 / T::lit(5.0));
        sn += T::lit(4.0) * quarter * r2 / T::lit(5.0);
        sw += T::lit(4.0) * quarter * (b * b + T::lit(2.0) * b * half_ball + r2 / T::lit(5.0));
        let mass = slab + T::lit(2.0) * (along_w + along_u) + T::lit(4.0) * quarter;
        let frame = Matrix3::from_columns(&[u, n, w]);
        let diagonal = Vector3::new(sn + sw, su + sw, su + sn);
        let center = lozenge.origin() + (e0 + e1) / T::lit(2.0);
        Self::new(mass, center, frame * Matrix3::from_diagonal(&diagonal) * frame.transpose())
    }

    /// A solid convex polyhedron of uniform `density`.
    pub fn convex_polyhedron(hull: &ConvexPolyhedron<T>, density: T) -> GeomResult<Self> {
        let density = checked_density(density)?;
        let mut moments = Moments::new(*hull.vertex_mean());
        for face in hull.faces() {
            let idx = hull.face_vertices(face);
            let first = hull.vertices()[idx[0] as usize];
            for w in idx[1..].windows(2) {
                // Faces wind either way; for a convex solid seen from an interior point every
                // tetrahedron counts positively.
                moments.add_unsigned(
                    &first,
                    &hull.vertices()[w[0] as usize],
                    &hull.vertices()[w[1] as usize],
                );
            }
        }
        moments.finish(density)
    }

    /// A closed triangle mesh of uniform `density` (any genus, consistently wound either way).
    /// Errors: an index out of range ([`GeomError::IndexOutOfBounds`]), a mesh enclosing no
    /// volume ([`GeomError::Degenerate`]), bad coordinates. An open mesh gives the moments of
    /// the cone from its vertex mean to its surface, which is rarely what is wanted.
    pub fn closed_mesh(vertices: &[Point<T, 3>], triangles: &[[u32; 3]], density: T) -> GeomResult<Self> {
        let density = checked_density(density)?;
        vertices.iter().try_for_each(cd_geom::validate::point)?;
        if vertices.is_empty() {
            return Err(GeomError::TooFewPoints);
        }
        let mean =
            vertices.iter().fold(Vector3::zeros(), |s, p| s + p.coords) / T::lit(vertices.len() as f64);
        let mut moments = Moments::new(Point::from(mean));
        for t in triangles {
            let get = |i: u32| vertices.get(i as usize).ok_or(GeomError::IndexOutOfBounds);
            moments.add_signed(get(t[0])?, get(t[1])?, get(t[2])?);
        }
        // Inward winding gives a negative volume and a negated moment: flip both.
        if moments.volume < T::zero() {
            moments.volume = -moments.volume;
            moments.first = -moments.first;
            moments.second = -moments.second;
        }
        moments.finish(density)
    }

    /// The mass properties of a compound: the parts' masses add, the centre is the mass-weighted
    /// mean, and each part's tensor moves to that centre by the parallel-axis theorem
    /// `I + m (|d|² E − d dᵀ)`. Static parts make the compound static. Errors: no parts
    /// ([`GeomError::TooFewPoints`]).
    pub fn compound(parts: &[Self]) -> GeomResult<Self> {
        if parts.is_empty() {
            return Err(GeomError::TooFewPoints);
        }
        if parts.iter().any(|p| !p.is_dynamic()) {
            return Ok(Self::infinite());
        }
        let mass = parts.iter().fold(T::zero(), |s, p| s + p.mass);
        let center = parts.iter().fold(Vector3::zeros(), |s, p| s + p.center.coords * p.mass) / mass;
        let inertia = parts.iter().fold(Matrix3::zeros(), |s, p| {
            let d = p.center.coords - center;
            s + p.inertia + (Matrix3::from_diagonal_element(d.norm_squared()) - d * d.transpose()) * p.mass
        });
        Self::new(mass, Point::from(center), inertia)
    }
}

fn checked_density<T: Real>(density: T) -> GeomResult<T> {
    if !density.is_finite() {
        Err(GeomError::NonFinite)
    } else if density <= T::zero() {
        Err(GeomError::Negative)
    } else {
        Ok(density)
    }
}

/// The tensor of a solid of revolution about `axis`: `along` about the axis, `across` about
/// every perpendicular line through the centre: `across E + (along − across) û ûᵀ`.
fn axial_tensor<T: Real>(axis: &Vector<T, 3>, along: T, across: T) -> Matrix3<T> {
    let u = axis.normalize();
    Matrix3::from_diagonal_element(across) + u * u.transpose() * (along - across)
}

/// Running volume, first moment and second moment of signed tetrahedra from a reference point.
struct Moments<T: Real> {
    origin: Point<T, 3>,
    volume: T,
    first: Vector3<T>,
    second: Matrix3<T>,
}

impl<T: Real> Moments<T> {
    fn new(origin: Point<T, 3>) -> Self {
        Self { origin, volume: T::zero(), first: Vector3::zeros(), second: Matrix3::zeros() }
    }

    fn add_signed(&mut self, a: &Point<T, 3>, b: &Point<T, 3>, c: &Point<T, 3>) {
        let (a, b, c) = (a - self.origin, b - self.origin, c - self.origin);
        self.add_relative(a, b, c, a.dot(&b.cross(&c)) / T::lit(6.0));
    }

    fn add_unsigned(&mut self, a: &Point<T, 3>, b: &Point<T, 3>, c: &Point<T, 3>) {
        let (a, b, c) = (a - self.origin, b - self.origin, c - self.origin);
        self.add_relative(a, b, c, a.dot(&b.cross(&c)).abs() / T::lit(6.0));
    }

    fn add_relative(&mut self, a: Vector3<T>, b: Vector3<T>, c: Vector3<T>, volume: T) {
        let s = a + b + c;
        self.volume += volume;
        self.first += s * (volume / T::lit(4.0));
        self.second += (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose())
            * (volume / T::lit(20.0));
    }

    fn finish(self, density: T) -> GeomResult<MassProperties<T>> {
        let scale = self.first.amax().max(self.second.amax());
        if self.volume.partial_cmp(&(T::epsilon() * scale)) != Some(core::cmp::Ordering::Greater) {
            return Err(GeomError::Degenerate);
        }
        let offset = self.first / self.volume;
        // Moment about the centre of mass: C_c = C_o − V d dᵀ.
        let second = self.second - offset * offset.transpose() * self.volume;
        let inertia = (Matrix3::from_diagonal_element(second.trace()) - second) * density;
        MassProperties::new(self.volume * density, self.origin + offset, inertia)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Point3, UnitQuaternion};

    #[test]
    fn box_as_polyhedron_and_mesh_agree_with_the_closed_form() {
        let rotation = UnitQuaternion::from_euler_angles(0.3, -0.7, 1.1);
        let obb = Obb::from_rotation(Point3::new(5.0f64, -2.0, 1.0), rotation, Vector3::new(1.0, 2.0, 0.5))
            .unwrap();
        let exact = MassProperties::cuboid(&obb, 3.0).unwrap();
        let hull = ConvexPolyhedron::from_obb(&obb).unwrap();
        let hulled = MassProperties::convex_polyhedron(&hull, 3.0).unwrap();
        assert!((exact.mass() - 3.0 * 8.0).abs() < 1e-9);
        assert!((hulled.mass() - exact.mass()).abs() < 1e-9);
        assert!((hulled.center() - exact.center()).norm() < 1e-9);
        assert!((hulled.inertia() - exact.inertia()).amax() < 1e-9);
    }

    #[test]
    fn bad_inputs_are_typed_errors() {
        let ball = Ball::new(Point3::origin(), 1.0).unwrap();
        assert_eq!(MassProperties::ball(&ball, 0.0), Err(GeomError::Negative));
        assert_eq!(MassProperties::ball(&ball, f64::NAN), Err(GeomError::NonFinite));
        let flat = [Point3::origin(), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0)];
        assert_eq!(
            MassProperties::closed_mesh(&flat, &[[0, 1, 2], [0, 2, 1]], 1.0),
            Err(GeomError::Degenerate)
        );
        assert_eq!(MassProperties::closed_mesh(&flat, &[[0, 1, 7]], 1.0), Err(GeomError::IndexOutOfBounds));
        assert_eq!(MassProperties::<f64>::compound(&[]), Err(GeomError::TooFewPoints));
    }
}
