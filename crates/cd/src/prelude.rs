//! The names most programs need: `use cd::prelude::*;`.

pub use crate::world::{
    Body, BodyDesc, BodyHandle, BodyKind, ColliderShape, CollisionGroups, ContactEvent, ContactEventKind,
    RayCastHit, StepBudget, StepStats, World, WorldConfig, WorldError,
};
pub use cd_broad::{
    BroadPhase, BruteForce, CoherentGrid, DynamicAabbTree, HierarchicalGrid, IncrementalSap, LooseOctree,
    SortAndSweep, SpatialHash, UniformGrid,
};
pub use cd_geom::{Aabb, Ball, Capsule, ConvexPolyhedron, Obb, Plane, Ray, Real, Triangle};
pub use cd_mid::{MeshBvh, TriMesh};
pub use cd_response::{MassProperties, Material};
