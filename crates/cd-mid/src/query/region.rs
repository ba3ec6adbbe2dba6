//! Region queries: which primitives may lie in an AABB, a ball or a view frustum. A node wholly
//! inside the region reports its whole primitive range without visiting its subtree (the seed's
//! "parent fully inside" shortcut); the leaf callback is told so and can skip its own test.

use super::QueryWorkspace;
use crate::node::BvhNode;
use crate::volume::HierarchyVolume;
use cd_geom::{aabb_aabb, ball_aabb, frustum_aabb, Aabb, Ball, BoundingVolume, Containment, Frustum, Real};

/// The generic region traversal: `classify` places a volume outside, across or inside the
/// region; `leaf(primitive, inside)` receives every primitive of a node that is not outside,
/// with `inside` true when the node is wholly inside (the primitive then certainly is).
pub fn query_region<T, const D: usize, B, N>(
    nodes: &[N],
    order: &[u32],
    ws: &mut QueryWorkspace<T>,
    mut classify: impl FnMut(&B) -> Containment,
    mut leaf: impl FnMut(u32, bool),
) where
    T: Real,
    B: HierarchyVolume<T, D>,
    N: BvhNode<B>,
{
    if nodes.is_empty() {
        return;
    }
    let stack = &mut ws.nodes;
    stack.clear();
    stack.push((T::zero(), 0));
    while let Some((_, n)) = stack.pop() {
        let node = &nodes[n as usize];
        ws.stats.volume_tests += 1;
        match classify(node.volume()) {
            Containment::Outside => {}
            Containment::Inside => {
                for &p in &order[node.primitives()] {
                    leaf(p, true);
                }
            }
            Containment::Intersecting => {
                if node.is_leaf() {
                    for &p in &order[node.primitives()] {
                        ws.stats.primitive_tests += 1;
                        leaf(p, false);
                    }
                } else {
                    for c in node.children().rev() {
                        stack.push((T::zero(), c as u32));
                    }
                }
            }
        }
    }
}

/// Classification of a volume against an AABB region, through the volume's enclosing box.
fn against_aabb<T: Real, const D: usize, B: HierarchyVolume<T, D>>(
    region: &Aabb<T, D>,
    bv: &B,
) -> Containment {
    let b = bv.bounding_aabb();
    if !aabb_aabb(region, &b) {
        Containment::Outside
    } else if BoundingVolume::contains(region, &b) {
        Containment::Inside
    } else {
        Containment::Intersecting
    }
}

/// Primitives whose nodes meet the box `region`: `leaf(primitive, inside)` as in
/// [`query_region`].
pub fn query_aabb<T, const D: usize, B, N>(
    nodes: &[N],
    order: &[u32],
    region: &Aabb<T, D>,
    ws: &mut QueryWorkspace<T>,
    leaf: impl FnMut(u32, bool),
) where
    T: Real,
    B: HierarchyVolume<T, D>,
    N: BvhNode<B>,
{
    query_region(nodes, order, ws, |bv| against_aabb(region, bv), leaf)
}

/// Primitives whose nodes meet the ball `region`.
pub fn query_ball<T, const D: usize, B, N>(
    nodes: &[N],
    order: &[u32],
    region: &Ball<T, D>,
    ws: &mut QueryWorkspace<T>,
    leaf: impl FnMut(u32, bool),
) where
    T: Real,
    B: HierarchyVolume<T, D>,
    N: BvhNode<B>,
{
    let r2 = region.radius() * region.radius();
    query_region(
        nodes,
        order,
        ws,
        |bv| {
            let b = bv.bounding_aabb();
            if !ball_aabb(region, &b) {
                return Containment::Outside;
            }
            // Inside when the farthest corner of the box is within the ball.
            let far2 = (0..D).fold(T::zero(), |s, i| {
                let c = region.center()[i];
                let d = (c - b.min()[i]).abs().max((b.max()[i] - c).abs());
                s + d * d
            });
            if far2 <= r2 {
                Containment::Inside
            } else {
                Containment::Intersecting
            }
        },
        leaf,
    )
}

/// Primitives whose nodes are not culled by the view frustum (3D).
pub fn query_frustum<T, B, N>(
    nodes: &[N],
    order: &[u32],
    frustum: &Frustum<T>,
    ws: &mut QueryWorkspace<T>,
    leaf: impl FnMut(u32, bool),
) where
    T: Real,
    B: HierarchyVolume<T, 3>,
    N: BvhNode<B>,
{
    query_region(nodes, order, ws, |bv| frustum_aabb(frustum, &bv.bounding_aabb()), leaf)
}
