//! Ray casts: closest hit, any hit, all hits, each with a distance limit, visiting the nearer
//! child first and skipping nodes the ray enters beyond the best hit so far.

use super::QueryWorkspace;
use crate::node::BvhNode;
use crate::volume::{HierarchyVolume, VolumeRay};
use cd_geom::{Ray, Real};

/// Closest hit along `ray` within `ray.max_t()`. `leaf(primitive, max_t)` returns the hit
/// parameter of one primitive if it is at most `max_t`. Returns the primitive and its
/// parameter; among equal parameters the first found wins.
pub fn ray_closest<T, const D: usize, B, N>(
    nodes: &[N],
    order: &[u32],
    ray: &Ray<T, D>,
    ws: &mut QueryWorkspace<T>,
    leaf: impl FnMut(u32, T) -> Option<T>,
) -> Option<(u32, T)>
where
    T: Real,
    B: HierarchyVolume<T, D>,
    N: BvhNode<B>,
{
    let prepared = prepare(ray, nodes);
    closest_by_entry(
        nodes,
        order,
        ray.max_t(),
        ws,
        |volume: &B, limit| volume.ray_entry(&prepared, limit),
        leaf,
    )
}

/// Any hit within `ray.max_t()` (shadow rays): stops at the first primitive whose `leaf`
/// reports a hit, which need not be the closest.
pub fn ray_any<T, const D: usize, B, N>(
    nodes: &[N],
    order: &[u32],
    ray: &Ray<T, D>,
    ws: &mut QueryWorkspace<T>,
    mut leaf: impl FnMut(u32, T) -> Option<T>,
) -> Option<(u32, T)>
where
    T: Real,
    B: HierarchyVolume<T, D>,
    N: BvhNode<B>,
{
    let mut found = None;
    traverse(nodes, order, ray, ws, &mut |p, limit| match leaf(p, limit) {
        Some(t) if t <= limit => {
            found = Some((p, t));
            Step::Stop
        }
        _ => Step::Continue(limit),
    });
    found
}

/// Every hit within `ray.max_t()`, sorted by parameter (then primitive index).
pub fn ray_all<T, const D: usize, B, N>(
    nodes: &[N],
    order: &[u32],
    ray: &Ray<T, D>,
    ws: &mut QueryWorkspace<T>,
    mut leaf: impl FnMut(u32, T) -> Option<T>,
) -> Vec<(u32, T)>
where
    T: Real,
    B: HierarchyVolume<T, D>,
    N: BvhNode<B>,
{
    let mut hits = Vec::new();
    traverse(nodes, order, ray, ws, &mut |p, limit| {
        if let Some(t) = leaf(p, limit).filter(|t| *t <= limit) {
            hits.push((p, t));
        }
        Step::Continue(limit)
    });
    hits.sort_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(core::cmp::Ordering::Equal).then(a.0.cmp(&b.0)));
    hits
}

/// The ray prepared for the hierarchy's volumes, its rounding pad taken from the root's box.
fn prepare<T, const D: usize, B, N>(ray: &Ray<T, D>, nodes: &[N]) -> VolumeRay<T, D>
where
    T: Real,
    B: HierarchyVolume<T, D>,
    N: BvhNode<B>,
{
    let bound = match nodes.first() {
        Some(root) => root.volume().bounding_aabb(),
        // No nodes, no volume tests: any box will do.
        None => crate::volume::point_box(ray.origin()),
    };
    VolumeRay::new(ray, &bound)
}

/// What a leaf visit tells the traversal: go on with a (possibly smaller) limit, or stop.
enum Step<T> {
    Continue(T),
    Stop,
}

/// The shared ordered traversal: a stack of (entry parameter, node); children are tested
/// before being pushed, the nearer pushed last so it is visited first, and popped entries
/// beyond the current limit are dropped. The stack and counters live in locals during the loop
/// (so the compiler keeps them in registers) and go back to the workspace at the end.
fn traverse<T, const D: usize, B, N>(
    nodes: &[N],
    order: &[u32],
    ray: &Ray<T, D>,
    ws: &mut QueryWorkspace<T>,
    visit: &mut dyn FnMut(u32, T) -> Step<T>,
) where
    T: Real,
    B: HierarchyVolume<T, D>,
    N: BvhNode<B>,
{
    let prepared = prepare(ray, nodes);
    traverse_by_entry(
        nodes,
        order,
        ray.max_t(),
        ws,
        |volume: &B, limit| volume.ray_entry(&prepared, limit),
        visit,
    );
}

/// Closest hit of any query that sweeps through the hierarchy along a parameter (a ray, a box
/// or shape cast): `entry(volume, limit)` is the parameter at which the query first reaches a
/// node's volume (`None` when not within `limit`), `leaf(primitive, limit)` the hit parameter
/// of one primitive if it is at most `limit`. Nodes are visited nearest entry first and
/// skipped once entered beyond the best hit so far, exactly as [`ray_closest`] (which is this
/// traversal with the ray's slab entry). Returns the primitive and its parameter.
pub fn closest_by_entry<T, const D: usize, B, N>(
    nodes: &[N],
    order: &[u32],
    max_t: T,
    ws: &mut QueryWorkspace<T>,
    entry: impl Fn(&B, T) -> Option<T>,
    mut leaf: impl FnMut(u32, T) -> Option<T>,
) -> Option<(u32, T)>
where
    T: Real,
    B: HierarchyVolume<T, D>,
    N: BvhNode<B>,
{
    let mut best: Option<(u32, T)> = None;
    let mut limit = max_t;
    traverse_by_entry(nodes, order, max_t, ws, entry, &mut |p, l| {
        if let Some(t) = leaf(p, l) {
            if t <= limit && best.is_none_or(|(_, b)| t < b) {
                best = Some((p, t));
                limit = t;
            }
        }
        Step::Continue(limit)
    });
    best
}

/// The ordered traversal under a caller's node entry parameter.
fn traverse_by_entry<T, const D: usize, B, N>(
    nodes: &[N],
    order: &[u32],
    max_t: T,
    ws: &mut QueryWorkspace<T>,
    entry: impl Fn(&B, T) -> Option<T>,
    visit: &mut dyn FnMut(u32, T) -> Step<T>,
) where
    T: Real,
    B: HierarchyVolume<T, D>,
    N: BvhNode<B>,
{
    let Some(root) = nodes.first() else { return };
    let mut limit = max_t;
    let mut volume_tests = 1u64;
    let mut primitive_tests = 0u64;
    let mut stack = core::mem::take(&mut ws.nodes);
    stack.clear();
    // Box entries are compared with the current limit with a few ulps of slack: rounding in
    // the slab arithmetic can put a box's entry just past a hit that lies inside it.
    let slack = T::one() + T::lit(8.0) * T::epsilon();
    if let Some(t0) = entry(root.volume(), limit * slack) {
        stack.push((t0, 0));
    }
    'nodes: while let Some((entered, n)) = stack.pop() {
        if entered > limit * slack {
            continue;
        }
        let node = &nodes[n as usize];
        if node.is_leaf() {
            for &p in &order[node.primitives()] {
                primitive_tests += 1;
                match visit(p, limit) {
                    Step::Continue(l) => limit = l,
                    Step::Stop => break 'nodes,
                }
            }
            continue;
        }
        let children = node.children();
        let first = children.start;
        volume_tests += children.len() as u64;
        if children.len() == 2 {
            let tl = entry(nodes[first].volume(), limit * slack);
            let tr = entry(nodes[first + 1].volume(), limit * slack);
            match (tl, tr) {
                (Some(a), Some(b)) => {
                    let (near, far) =
                        if a <= b { ((a, first), (b, first + 1)) } else { ((b, first + 1), (a, first)) };
                    stack.push((far.0, far.1 as u32));
                    stack.push((near.0, near.1 as u32));
                }
                (Some(a), None) => stack.push((a, first as u32)),
                (None, Some(b)) => stack.push((b, first as u32 + 1)),
                (None, None) => {}
            }
        } else {
            // Wide nodes: push hits farthest first.
            let base = stack.len();
            for c in children {
                if let Some(t) = entry(nodes[c].volume(), limit * slack) {
                    stack.push((t, c as u32));
                }
            }
            stack[base..].sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(core::cmp::Ordering::Equal));
        }
    }
    ws.nodes = stack;
    ws.stats.volume_tests += volume_tests;
    ws.stats.primitive_tests += primitive_tests;
}
