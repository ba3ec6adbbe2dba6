//! World bodies: what a user describes ([`BodyDesc`]) and what the world keeps ([`Body`]).

use cd_geom::{Aabb, Real};
use cd_response::{Material, RigidBody};
use nalgebra::{Isometry3, Vector3};

use crate::world::shape::{ColliderShape, Placed};

/// A body in a [`World`](crate::world::World): its slot and a generation, so a handle to a
/// removed body never reaches the body that reuses the slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BodyHandle {
    pub(crate) index: u32,
    pub(crate) generation: u32,
}

impl BodyHandle {
    /// The slot index (stable while the body exists; reused after removal).
    pub fn index(&self) -> u32 {
        self.index
    }
}

/// How a body moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// Moved by gravity, contacts and impulses.
    Dynamic,
    /// Never moves (ground, walls, level geometry).
    Static,
    /// Moves by the velocity the user sets, unaffected by contacts (platforms, doors); pushes
    /// dynamic bodies.
    Kinematic,
}

/// Which bodies collide: a pair is tested when each one's `memberships` meets the other's
/// `filter` (the usual two-mask scheme; the default collides with everything).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CollisionGroups {
    /// Groups the body belongs to (bits).
    pub memberships: u32,
    /// Groups the body collides with (bits).
    pub filter: u32,
}

impl Default for CollisionGroups {
    fn default() -> Self {
        Self { memberships: u32::MAX, filter: u32::MAX }
    }
}

impl CollisionGroups {
    /// Whether bodies with these groups may collide.
    pub fn interacts_with(&self, other: &Self) -> bool {
        self.memberships & other.filter != 0 && other.memberships & self.filter != 0
    }
}

/// Everything needed to add a body.
///
/// ```
/// use cd::world::{BodyDesc, ColliderShape};
/// use nalgebra::{Isometry3, Vector3};
/// let ball = BodyDesc::dynamic(ColliderShape::ball(0.5f64))
///     .with_pose(Isometry3::translation(0.0, 3.0, 0.0))
///     .with_velocity(Vector3::new(1.0, 0.0, 0.0), Vector3::zeros())
///     .with_user_data(7);
/// assert_eq!(ball.user_data, 7);
/// ```
#[derive(Clone, Debug)]
pub struct BodyDesc<T: Real> {
    /// The shape, in the body's frame.
    pub shape: ColliderShape<T>,
    /// Where the body's frame is.
    pub pose: Isometry3<T>,
    /// Dynamic, static or kinematic.
    pub kind: BodyKind,
    /// Density of a dynamic body (mass = density × volume; default 1).
    pub density: T,
    /// Initial linear velocity (of the centre of mass).
    pub linear_velocity: Vector3<T>,
    /// Initial angular velocity (world axes).
    pub angular_velocity: Vector3<T>,
    /// Restitution and friction (a pair uses the larger restitution and the geometric mean of
    /// the frictions).
    pub material: Material<T>,
    /// Collision groups.
    pub groups: CollisionGroups,
    /// Free for the user (an entity id, say).
    pub user_data: u64,
    /// Continuous collision for this body: its motion in a step stops at the first impact, so
    /// it cannot pass through thin geometry however fast it moves.
    pub ccd: bool,
}

impl<T: Real> BodyDesc<T> {
    fn of_kind(shape: ColliderShape<T>, kind: BodyKind) -> Self {
        Self {
            shape,
            pose: Isometry3::identity(),
            kind,
            density: T::one(),
            linear_velocity: Vector3::zeros(),
            angular_velocity: Vector3::zeros(),
            material: Material::new(T::lit(0.2), T::lit(0.5)).expect("valid constants"),
            groups: CollisionGroups::default(),
            user_data: 0,
            ccd: false,
        }
    }

    /// A dynamic body.
    pub fn dynamic(shape: ColliderShape<T>) -> Self {
        Self::of_kind(shape, BodyKind::Dynamic)
    }

    /// A static body.
    pub fn fixed(shape: ColliderShape<T>) -> Self {
        Self::of_kind(shape, BodyKind::Static)
    }

    /// A kinematic body.
    pub fn kinematic(shape: ColliderShape<T>) -> Self {
        Self::of_kind(shape, BodyKind::Kinematic)
    }

    /// Sets the pose.
    pub fn with_pose(mut self, pose: Isometry3<T>) -> Self {
        self.pose = pose;
        self
    }

    /// Sets the velocities.
    pub fn with_velocity(mut self, linear: Vector3<T>, angular: Vector3<T>) -> Self {
        self.linear_velocity = linear;
        self.angular_velocity = angular;
        self
    }

    /// Sets the density.
    pub fn with_density(mut self, density: T) -> Self {
        self.density = density;
        self
    }

    /// Sets the material.
    pub fn with_material(mut self, material: Material<T>) -> Self {
        self.material = material;
        self
    }

    /// Sets the collision groups.
    pub fn with_groups(mut self, groups: CollisionGroups) -> Self {
        self.groups = groups;
        self
    }

    /// Sets the user data.
    pub fn with_user_data(mut self, user_data: u64) -> Self {
        self.user_data = user_data;
        self
    }

    /// Turns continuous collision on or off.
    pub fn with_ccd(mut self, ccd: bool) -> Self {
        self.ccd = ccd;
        self
    }
}

/// A body as the world keeps it.
#[derive(Clone, Debug)]
pub struct Body<T: Real> {
    pub(crate) shape: ColliderShape<T>,
    pub(crate) kind: BodyKind,
    pub(crate) rigid: RigidBody<T>,
    pub(crate) material: Material<T>,
    pub(crate) groups: CollisionGroups,
    pub(crate) user_data: u64,
    pub(crate) ccd: bool,
    /// The shape placed at the current pose (refreshed at each step and pose change).
    pub(crate) placed: Placed<T>,
    /// `placed`'s tight box, computed with it (hull boxes cost six support searches).
    pub(crate) placed_aabb: Aabb<T, 3>,
    /// The box the broad phase holds (grown by the prediction distance).
    pub(crate) proxy_aabb: Aabb<T, 3>,
    /// [`ColliderShape::bounding_radius`], computed once (contact reuse bounds motion by it).
    pub(crate) bounding_radius: Option<T>,
}

impl<T: Real> Body<T> {
    /// The shape.
    pub fn shape(&self) -> &ColliderShape<T> {
        &self.shape
    }

    /// Dynamic, static or kinematic.
    pub fn kind(&self) -> BodyKind {
        self.kind
    }

    /// The pose of the body's frame.
    pub fn pose(&self) -> &Isometry3<T> {
        &self.rigid.pose
    }

    /// Velocity of the centre of mass.
    pub fn linear_velocity(&self) -> &Vector3<T> {
        &self.rigid.linear_velocity
    }

    /// Angular velocity (world axes).
    pub fn angular_velocity(&self) -> &Vector3<T> {
        &self.rigid.angular_velocity
    }

    /// The rigid-body state (mass properties, centre of mass, energy, momentum).
    pub fn rigid_body(&self) -> &RigidBody<T> {
        &self.rigid
    }

    /// Restitution and friction.
    pub fn material(&self) -> &Material<T> {
        &self.material
    }

    /// Collision groups.
    pub fn groups(&self) -> &CollisionGroups {
        &self.groups
    }

    /// The user's data.
    pub fn user_data(&self) -> u64 {
        self.user_data
    }

    /// Whether continuous collision is on.
    pub fn ccd(&self) -> bool {
        self.ccd
    }

    /// The world-space box of the shape at its current pose (without the prediction margin).
    pub fn aabb(&self) -> Aabb<T, 3> {
        self.placed_aabb
    }

    /// Places the shape at the current pose and refreshes its tight box.
    pub(crate) fn replace(&mut self) -> cd_geom::GeomResult<()> {
        self.placed = self.shape.place(&self.rigid.pose)?;
        self.placed_aabb = self.placed.aabb();
        Ok(())
    }
}
