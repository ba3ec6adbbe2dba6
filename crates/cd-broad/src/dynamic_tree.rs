//! Dynamic AABB tree (Box2D / Bullet's `btDbvt` family; Catto 2019 for the branch-and-bound
//! insertion).

use crate::events::PairEvents;
use crate::proxies::{overlaps, pair, BroadPhaseError, ProxyId};
use crate::BroadPhase;
use cd_geom::{ray_aabb_interval, Aabb, BoundingVolume, PreparedRay, Ray, Real, Vector};
use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap, HashSet};

const NONE: u32 = u32::MAX;

#[derive(Clone, Debug)]
struct Node<T: Real, const D: usize> {
    /// Fat box for leaves, union of children for internal nodes.
    aabb: Aabb<T, D>,
    parent: u32,
    left: u32,
    right: u32,
    /// Leaf payload: the proxy slot (NONE for internal nodes).
    slot: u32,
    height: i32,
}

/// A candidate sibling during insertion, ordered by its lower-bound cost (min-heap).
#[derive(Clone, Debug)]
struct Candidate<T> {
    lower_bound: T,
    node: u32,
}
impl<T: Real> PartialEq for Candidate<T> {
    fn eq(&self, o: &Self) -> bool {
        self.lower_bound == o.lower_bound
    }
}
impl<T: Real> Eq for Candidate<T> {}
impl<T: Real> PartialOrd for Candidate<T> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<T: Real> Ord for Candidate<T> {
    fn cmp(&self, o: &Self) -> Ordering {
        o.lower_bound.partial_cmp(&self.lower_bound).unwrap_or(Ordering::Equal)
    }
}

/// Dynamic AABB tree: a binary tree over "fat" leaf boxes (each proxy's box grown by a margin
/// and stretched along its last displacement, so small motions need no tree update).
///
/// * Insertion picks the sibling minimizing the total surface area added to the tree, by
///   branch-and-bound over a priority queue of lower bounds (the cost the new leaf adds to every
///   ancestor is known before descending); AVL-style rotations keep the height logarithmic.
/// * A proxy whose new box leaves its fat box is removed and re-inserted; only those moved
///   leaves are queried against the tree for new candidate pairs, so a frame costs
///   O(m log n + candidates) for m moved proxies.
/// * The reported pairs are exact: candidates (fat boxes overlapping) are confirmed on the tight
///   boxes.
#[derive(Clone, Debug)]
pub struct DynamicAabbTree<T: Real, const D: usize> {
    nodes: Vec<Node<T, D>>,
    free_nodes: Vec<u32>,
    root: u32,
    // Proxies.
    ids: Vec<ProxyId>,
    tight: Vec<Aabb<T, D>>,
    leaf: Vec<u32>,
    free_slots: Vec<u32>,
    slot_of: HashMap<ProxyId, u32>,
    moved: Vec<u32>,
    is_moved: Vec<bool>,
    candidates: HashSet<(u32, u32)>,
    margin: T,
    events: PairEvents,
    stack: Vec<u32>,
    heap: BinaryHeap<Candidate<T>>,
}

impl<T: Real, const D: usize> Default for DynamicAabbTree<T, D> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Real, const D: usize> DynamicAabbTree<T, D> {
    /// A tree whose leaves are fattened by 10 % of each box's largest extent.
    pub fn new() -> Self {
        Self::with_margin(T::lit(0.1))
    }

    /// A tree with the given relative margin (fraction of each box's largest extent, ≥ 0).
    pub fn with_margin(margin: T) -> Self {
        DynamicAabbTree {
            nodes: Vec::new(),
            free_nodes: Vec::new(),
            root: NONE,
            ids: Vec::new(),
            tight: Vec::new(),
            leaf: Vec::new(),
            free_slots: Vec::new(),
            slot_of: HashMap::new(),
            moved: Vec::new(),
            is_moved: Vec::new(),
            candidates: HashSet::new(),
            margin: if margin > T::zero() { margin } else { T::zero() },
            events: PairEvents::new(),
            stack: Vec::new(),
            heap: BinaryHeap::new(),
        }
    }

    /// Height of the tree (0 for a single leaf, -1 when empty).
    pub fn height(&self) -> i32 {
        if self.root == NONE {
            -1
        } else {
            self.nodes[self.root as usize].height
        }
    }

    /// The fat box of a proxy: grown by the margin and stretched by `displacement`.
    fn fatten(&self, b: &Aabb<T, D>, displacement: &Vector<T, D>) -> Aabb<T, D> {
        let m = (b.max() - b.min()).amax() * self.margin;
        let mut lo = b.min().coords - Vector::repeat(m);
        let mut hi = b.max().coords + Vector::repeat(m);
        for a in 0..D {
            let d = displacement[a] * T::lit(2.0);
            if d < T::zero() {
                lo[a] += d;
            } else {
                hi[a] += d;
            }
        }
        // Stay within the coordinate range; fall back to the tight box if fattening overflows it.
        Aabb::new(lo.into(), hi.into()).unwrap_or(*b)
    }

    fn alloc(&mut self, node: Node<T, D>) -> u32 {
        if let Some(i) = self.free_nodes.pop() {
            self.nodes[i as usize] = node;
            i
        } else {
            self.nodes.push(node);
            (self.nodes.len() - 1) as u32
        }
    }

    fn area(b: &Aabb<T, D>) -> T {
        b.surface_area()
    }

    /// Branch-and-bound search for the sibling that adds the least surface area.
    fn best_sibling(&mut self, b: &Aabb<T, D>) -> u32 {
        let mut best = (self.root, T::infinity());
        // A candidate's lower bound is exactly its inherited cost: the growth of every ancestor
        // on its path, which the new leaf adds whatever happens below.
        let mut heap = core::mem::take(&mut self.heap);
        heap.clear();
        heap.push(Candidate { lower_bound: T::zero(), node: self.root });
        let own = Self::area(b);
        while let Some(Candidate { lower_bound: inh, node }) = heap.pop() {
            if inh + own >= best.1 {
                break;
            }
            let n = &self.nodes[node as usize];
            let merged = Self::area(&n.aabb.merged(b));
            let cost = merged + inh;
            if cost < best.1 {
                best = (node, cost);
            }
            if n.slot == NONE {
                let child_inh = inh + merged - Self::area(&n.aabb);
                if child_inh + own < best.1 {
                    for c in [n.left, n.right] {
                        heap.push(Candidate { lower_bound: child_inh, node: c });
                    }
                }
            }
        }
        self.heap = heap;
        best.0
    }

    fn insert_leaf(&mut self, slot: u32, fat: Aabb<T, D>) -> u32 {
        let leaf = self.alloc(Node { aabb: fat, parent: NONE, left: NONE, right: NONE, slot, height: 0 });
        if self.root == NONE {
            self.root = leaf;
            return leaf;
        }
        let sibling = self.best_sibling(&fat);
        let old_parent = self.nodes[sibling as usize].parent;
        let merged = self.nodes[sibling as usize].aabb.merged(&fat);
        let h = self.nodes[sibling as usize].height + 1;
        let parent = self.alloc(Node {
            aabb: merged,
            parent: old_parent,
            left: sibling,
            right: leaf,
            slot: NONE,
            height: h,
        });
        self.nodes[sibling as usize].parent = parent;
        self.nodes[leaf as usize].parent = parent;
        if old_parent == NONE {
            self.root = parent;
        } else if self.nodes[old_parent as usize].left == sibling {
            self.nodes[old_parent as usize].left = parent;
        } else {
            self.nodes[old_parent as usize].right = parent;
        }
        self.refit_from(parent);
        leaf
    }

    fn remove_leaf(&mut self, leaf: u32) {
        self.free_nodes.push(leaf);
        if leaf == self.root {
            self.root = NONE;
            return;
        }
        let parent = self.nodes[leaf as usize].parent;
        let grand = self.nodes[parent as usize].parent;
        let p = &self.nodes[parent as usize];
        let sibling = if p.left == leaf { p.right } else { p.left };
        self.free_nodes.push(parent);
        self.nodes[sibling as usize].parent = grand;
        if grand == NONE {
            self.root = sibling;
        } else {
            if self.nodes[grand as usize].left == parent {
                self.nodes[grand as usize].left = sibling;
            } else {
                self.nodes[grand as usize].right = sibling;
            }
            self.refit_from(grand);
        }
    }

    /// Walks up from `node`, rebalancing and refitting boxes and heights.
    fn refit_from(&mut self, mut node: u32) {
        while node != NONE {
            node = self.balance(node);
            let (l, r) = (self.nodes[node as usize].left, self.nodes[node as usize].right);
            let (bl, br) = (self.nodes[l as usize].aabb, self.nodes[r as usize].aabb);
            let h = 1 + self.nodes[l as usize].height.max(self.nodes[r as usize].height);
            let n = &mut self.nodes[node as usize];
            n.aabb = bl.merged(&br);
            n.height = h;
            node = n.parent;
        }
    }

    /// One AVL rotation at `a` if its children's heights differ by more than one; returns the
    /// node now at `a`'s position.
    fn balance(&mut self, a: u32) -> u32 {
        let (b, c) = (self.nodes[a as usize].left, self.nodes[a as usize].right);
        if self.nodes[a as usize].slot != NONE || self.nodes[a as usize].height < 2 {
            return a;
        }
        let diff = self.nodes[c as usize].height - self.nodes[b as usize].height;
        if diff > 1 {
            self.rotate_up(a, c, b)
        } else if diff < -1 {
            self.rotate_up(a, b, c)
        } else {
            a
        }
    }

    /// Rotates the taller child `up` of `a` into `a`'s place; `other` is `a`'s other child.
    fn rotate_up(&mut self, a: u32, up: u32, other: u32) -> u32 {
        let (f, g) = (self.nodes[up as usize].left, self.nodes[up as usize].right);
        let a_parent = self.nodes[a as usize].parent;
        // `up` takes a's place.
        self.nodes[up as usize].parent = a_parent;
        if a_parent == NONE {
            self.root = up;
        } else if self.nodes[a_parent as usize].left == a {
            self.nodes[a_parent as usize].left = up;
        } else {
            self.nodes[a_parent as usize].right = up;
        }
        // Keep the taller grandchild under `up`, give the other to `a`.
        let (keep, give) =
            if self.nodes[f as usize].height > self.nodes[g as usize].height { (f, g) } else { (g, f) };
        self.nodes[up as usize].left = a;
        self.nodes[up as usize].right = keep;
        self.nodes[a as usize].parent = up;
        self.nodes[a as usize].left = other;
        self.nodes[a as usize].right = give;
        self.nodes[give as usize].parent = a;
        self.nodes[other as usize].parent = a;
        for n in [a, up] {
            let (l, r) = (self.nodes[n as usize].left, self.nodes[n as usize].right);
            let bb = self.nodes[l as usize].aabb.merged(&self.nodes[r as usize].aabb);
            let h = 1 + self.nodes[l as usize].height.max(self.nodes[r as usize].height);
            self.nodes[n as usize].aabb = bb;
            self.nodes[n as usize].height = h;
        }
        up
    }

    /// Calls `leaf(slot)` for every leaf whose fat box overlaps `b`, using `stack` as the
    /// traversal stack (callers reuse one to avoid allocating per query).
    fn visit_overlapping(&self, b: &Aabb<T, D>, stack: &mut Vec<u32>, mut leaf: impl FnMut(u32)) {
        if self.root == NONE {
            return;
        }
        stack.clear();
        stack.push(self.root);
        while let Some(n) = stack.pop() {
            let node = &self.nodes[n as usize];
            if !overlaps(&node.aabb, b) {
                continue;
            }
            if node.slot != NONE {
                leaf(node.slot);
            } else {
                stack.push(node.left);
                stack.push(node.right);
            }
        }
    }

    fn mark_moved(&mut self, slot: u32) {
        if !self.is_moved[slot as usize] {
            self.is_moved[slot as usize] = true;
            self.moved.push(slot);
        }
    }

    fn drop_candidates_of(&mut self, slot: u32) {
        self.candidates.retain(|&(a, b)| a != slot && b != slot);
    }
}

impl<T: Real, const D: usize> BroadPhase<T, D> for DynamicAabbTree<T, D> {
    fn insert(&mut self, id: ProxyId, aabb: Aabb<T, D>) -> Result<(), BroadPhaseError> {
        if self.slot_of.contains_key(&id) {
            return Err(BroadPhaseError::DuplicateId(id));
        }
        let slot = match self.free_slots.pop() {
            Some(s) => s,
            None => {
                self.ids.push(id);
                self.tight.push(aabb);
                self.leaf.push(NONE);
                self.is_moved.push(false);
                (self.ids.len() - 1) as u32
            }
        };
        self.ids[slot as usize] = id;
        self.tight[slot as usize] = aabb;
        let fat = self.fatten(&aabb, &Vector::zeros());
        self.leaf[slot as usize] = self.insert_leaf(slot, fat);
        self.slot_of.insert(id, slot);
        self.mark_moved(slot);
        Ok(())
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb<T, D>) -> Result<(), BroadPhaseError> {
        let slot = *self.slot_of.get(&id).ok_or(BroadPhaseError::UnknownId(id))?;
        let old = self.tight[slot as usize];
        self.tight[slot as usize] = aabb;
        let leaf = self.leaf[slot as usize];
        if self.nodes[leaf as usize].aabb.contains(&aabb) {
            return Ok(()); // still inside its fat box: the tree and candidates stay valid
        }
        let displacement = aabb.center() - old.center();
        self.remove_leaf(leaf);
        let fat = self.fatten(&aabb, &displacement);
        self.leaf[slot as usize] = self.insert_leaf(slot, fat);
        self.mark_moved(slot);
        Ok(())
    }

    fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        let slot = self.slot_of.remove(&id).ok_or(BroadPhaseError::UnknownId(id))?;
        self.remove_leaf(self.leaf[slot as usize]);
        self.leaf[slot as usize] = NONE;
        self.drop_candidates_of(slot);
        if self.is_moved[slot as usize] {
            self.moved.retain(|&s| s != slot);
            self.is_moved[slot as usize] = false;
        }
        self.free_slots.push(slot);
        Ok(())
    }

    fn find_pairs(&mut self) {
        // Candidates of moved leaves are recomputed from the tree; the others stay valid since
        // neither fat box changed.
        let moved = core::mem::take(&mut self.moved);
        if !moved.is_empty() {
            let moved_set: HashSet<u32> = moved.iter().copied().collect();
            self.candidates.retain(|(a, b)| !moved_set.contains(a) && !moved_set.contains(b));
            let mut hits = Vec::new();
            for &s in &moved {
                self.is_moved[s as usize] = false;
                let fat = self.nodes[self.leaf[s as usize] as usize].aabb;
                let mut stack = core::mem::take(&mut self.stack);
                self.visit_overlapping(&fat, &mut stack, |o| {
                    if o != s {
                        hits.push((s.min(o), s.max(o)));
                    }
                });
                self.stack = stack;
            }
            self.candidates.extend(hits);
        }
        self.moved = moved;
        self.moved.clear();
        let out = self.events.staging();
        for &(a, b) in &self.candidates {
            if overlaps(&self.tight[a as usize], &self.tight[b as usize]) {
                out.push(pair(self.ids[a as usize], self.ids[b as usize]));
            }
        }
        self.events.commit();
    }

    fn events(&self) -> &PairEvents {
        &self.events
    }
    fn query_aabb(&self, aabb: &Aabb<T, D>, out: &mut Vec<ProxyId>) {
        self.visit_overlapping(aabb, &mut Vec::new(), |slot| {
            if overlaps(&self.tight[slot as usize], aabb) {
                out.push(self.ids[slot as usize]);
            }
        });
    }
    fn query_ray(&self, ray: &Ray<T, D>, out: &mut Vec<(ProxyId, T)>) {
        if self.root == NONE {
            return;
        }
        let prepared = PreparedRay::new(ray);
        let mut stack = vec![self.root];
        while let Some(n) = stack.pop() {
            let node = &self.nodes[n as usize];
            if ray_aabb_interval(&prepared, &node.aabb).is_none() {
                continue;
            }
            if node.slot != NONE {
                if let Some((t, _, _)) = ray_aabb_interval(&prepared, &self.tight[node.slot as usize]) {
                    out.push((self.ids[node.slot as usize], t));
                }
            } else {
                stack.push(node.left);
                stack.push(node.right);
            }
        }
    }
    fn len(&self) -> usize {
        self.slot_of.len()
    }
    fn aabb(&self, id: ProxyId) -> Option<Aabb<T, D>> {
        self.slot_of.get(&id).map(|&s| self.tight[s as usize])
    }
}
