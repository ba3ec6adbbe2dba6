//! The broad phases by the names the command line uses.

use cd::broad::{
    BroadPhase, BruteForce, CoherentGrid, DynamicAabbTree, HierarchicalGrid, IncrementalSap, LooseOctree,
    SortAndSweep, SpatialHash, UniformGrid,
};

/// The names `--broad` accepts, in the order `--help` lists them.
pub const NAMES: [&str; 9] =
    ["brute", "sap", "sort-sweep", "grid", "hash", "hgrid", "octree", "tree", "coherent-grid"];

/// A broad phase the world can own: any of the nine strategies.
pub type Boxed = Box<dyn BroadPhase<f64, 3> + Send + Sync>;

/// The broad phase called `name`, or an error listing the valid names.
///
/// * `brute`: every pair tested (the O(n²) reference);
/// * `sap`: incremental sweep-and-prune on three axes, kept sorted by insertion sort;
/// * `sort-sweep`: one axis (largest variance), sorted every frame;
/// * `grid`: a uniform grid with the cell size of the largest object;
/// * `hash`: a spatial hash of the same cells (unbounded);
/// * `hgrid`: a hierarchical grid of doubling cell sizes;
/// * `octree`: a loose octree kept from step to step (a box in one node);
/// * `tree`: a dynamic AABB tree with fattened leaves;
/// * `coherent-grid`: a grid of fattened boxes kept from step to step.
pub fn by_name(name: &str) -> Result<Boxed, String> {
    Ok(match name {
        "brute" => Box::new(BruteForce::<f64, 3>::new()),
        // No margin, as the world uses it: its boxes already carry the step's reach.
        "sap" => Box::new(IncrementalSap::<f64, 3>::new().margin(0.0)),
        "sort-sweep" => Box::new(SortAndSweep::<f64, 3>::new()),
        "grid" => Box::new(UniformGrid::<f64, 3>::new()),
        "hash" => Box::new(SpatialHash::<f64, 3>::new()),
        "hgrid" => Box::new(HierarchicalGrid::<f64, 3>::new()),
        "octree" => Box::new(LooseOctree::<f64, 3>::new()),
        "tree" => Box::new(DynamicAabbTree::<f64, 3>::new()),
        "coherent-grid" => Box::new(CoherentGrid::<f64, 3>::new()),
        other => return Err(format!("unknown broad phase {other:?}; expected one of {}", NAMES.join(", "))),
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_name_builds_and_unknown_names_are_refused() {
        for name in super::NAMES {
            assert_eq!(super::by_name(name).unwrap().len(), 0);
        }
        assert!(super::by_name("kd-tree").err().is_some_and(|e| e.contains("sort-sweep")));
    }
}
