//! Traversals, written once against [`BvhNode`](crate::BvhNode) slices: ray casts, region
//! queries, model-vs-model overlap (full, from a saved front, or time-critical under a budget),
//! self-collision and distance. Each takes the caller's leaf
//! test as a closure over primitive indices (the facade plugs narrow-phase tests in; the
//! [`MeshBvh`](crate::MeshBvh) plugs cd-geom's triangle tests in) and counts
//! its work in a [`QueryWorkspace`].

mod distance;
mod front;
pub(crate) mod pairs;
mod ray;
mod region;
mod time_critical;

pub use distance::{closest_pair, closest_to_point};
pub use front::{overlapping_pairs_from_front, Front};
pub use pairs::{first_overlap, overlapping_pairs, self_overlapping_pairs, visit_overlaps};
pub use ray::{closest_by_entry, ray_all, ray_any, ray_closest};
pub use region::{query_aabb, query_ball, query_frustum, query_region};
pub use time_critical::{overlapping_pairs_time_critical, Refinement, TimeCriticalResult};

/// The seed's cost counters (RTR 25.2): `t = n_v c_v + n_p c_p + n_u c_u`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueryStats {
    /// Bounding-volume tests (`n_v`): overlap, ray entry or distance bound evaluations.
    pub volume_tests: u64,
    /// Primitive tests (`n_p`): calls of the caller's leaf test.
    pub primitive_tests: u64,
    /// Bounding-volume updates (`n_u`): volumes refitted or transformed.
    pub volume_updates: u64,
}

impl QueryStats {
    /// The seed's cost estimate with per-operation costs `c_v`, `c_p`, `c_u`.
    pub fn cost(&self, c_v: f64, c_p: f64, c_u: f64) -> f64 {
        self.volume_tests as f64 * c_v + self.primitive_tests as f64 * c_p + self.volume_updates as f64 * c_u
    }
}

/// Reusable traversal state: stacks kept between queries so a query allocates nothing once
/// the workspace has grown, and the counters of the work done since the last
/// [`take_stats`](QueryWorkspace::take_stats).
#[derive(Clone, Debug, Default)]
pub struct QueryWorkspace<T> {
    pub(crate) nodes: Vec<(T, u32)>,
    pub(crate) pairs: Vec<(T, u32, u32)>,
    pub(crate) selves: Vec<SelfItem>,
    /// Work counted so far.
    pub stats: QueryStats,
}

/// A self-collision work item: a node against itself, or two distinct nodes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum SelfItem {
    Within(u32),
    Between(u32, u32),
}

impl<T> QueryWorkspace<T> {
    /// An empty workspace.
    pub fn new() -> Self {
        QueryWorkspace {
            nodes: Vec::new(),
            pairs: Vec::new(),
            selves: Vec::new(),
            stats: QueryStats::default(),
        }
    }

    /// The counters so far, resetting them to zero.
    pub fn take_stats(&mut self) -> QueryStats {
        core::mem::take(&mut self.stats)
    }
}
