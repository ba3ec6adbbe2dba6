//! Dynamic AABB tree (Box2D / Bullet's `btDbvt` family; Catto 2019 for the branch-and-bound
//! insertion).

use crate::candidates::{Candidate, CandidateList};
use crate::events::PairEvents;
use crate::fat_slots::FatSlots;
use crate::proxies::{overlaps, BroadPhaseError, ProxyId};
use crate::BroadPhase;
use cd_geom::{ray_aabb_interval, Aabb, BoundingVolume, PreparedRay, Ray, Real, Vector};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

const NONE: u32 = u32::MAX;

/// Bins per axis of [`DynamicAabbTree::rebuild`]'s SAH sweep.
const SAH_BINS: usize = 16;

/// A frame inserting fewer proxies than this inserts them one by one, whatever the tree size.
const MIN_REBUILD: usize = 64;

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
struct Sibling<T> {
    lower_bound: T,
    node: u32,
}
impl<T: Real> PartialEq for Sibling<T> {
    fn eq(&self, o: &Self) -> bool {
        self.lower_bound == o.lower_bound
    }
}
impl<T: Real> Eq for Sibling<T> {}
impl<T: Real> PartialOrd for Sibling<T> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<T: Real> Ord for Sibling<T> {
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
/// * A proxy whose new box leaves its fat box (or shrinks well inside it) is removed and
///   re-inserted; only those moved leaves are queried against the tree for new candidate
///   pairs, so a frame costs O(m log n + candidates) for m moved proxies.
/// * The reported pairs are exact: candidates (fat boxes overlapping) are confirmed on the tight
///   boxes.
#[derive(Clone, Debug)]
pub struct DynamicAabbTree<T: Real, const D: usize> {
    nodes: Vec<Node<T, D>>,
    free_nodes: Vec<u32>,
    root: u32,
    /// The proxies: each slot's fat box is a copy of its leaf's, read by `update` without
    /// touching the tree; pending slots are not in the tree yet (a large batch is built by
    /// [`Self::rebuild`] instead of one insertion each).
    slots: FatSlots<T, D>,
    /// Each slot's leaf (`NONE` while pending or free).
    leaf: Vec<u32>,
    /// Pairs of leaves whose fat boxes overlap, sorted by ids (so the exact pairs filtered from
    /// them come out sorted); kept between frames and recomputed only around moved leaves.
    candidates: CandidateList,
    events: PairEvents,
    stack: Vec<u32>,
    heap: BinaryHeap<Sibling<T>>,
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
            slots: FatSlots::new(margin),
            leaf: Vec::new(),
            candidates: CandidateList::default(),
            events: PairEvents::new(),
            stack: Vec::new(),
            heap: BinaryHeap::new(),
        }
    }

    /// Rebuilds the whole tree top-down by binned SAH (surface-area heuristic over
    /// 16 bins of the leaf centres on each axis). Incremental insertion and rotations
    /// keep the tree valid and shallow, but its quality drifts as objects move; a rebuild
    /// restores it, e.g. after a level load or every few hundred frames. Fat boxes and pairs are
    /// unchanged, so it changes no result, only the cost of later frames. O(n log n).
    ///
    /// `find_pairs` calls it by itself when a frame inserts at least as many proxies as the
    /// tree holds (at least 64): a bulk load is then one build instead of n insertions.
    pub fn rebuild(&mut self) {
        let mut items: Vec<(u32, Aabb<T, D>)> = (0..self.slots.ids.len() as u32)
            .filter(|&s| self.leaf[s as usize] != NONE)
            .chain(self.slots.pending.drain(..))
            .map(|s| (s, self.slots.fat[s as usize]))
            .collect();
        self.nodes.clear();
        self.free_nodes.clear();
        self.root = NONE;
        if items.is_empty() {
            return;
        }
        // Each task: a range of `items` and the node waiting for it as a child (`NONE` for the
        // root). A parent is always allocated before its children, so a reverse sweep over the
        // nodes fills in boxes and heights bottom-up.
        // SAH can peel one item per level off skewed inputs (exponentially spaced boxes); past
        // twice the balanced depth, splits are by count (median of the centres), which bounds
        // the height by O(log n).
        let max_depth = 2 * (usize::BITS - items.len().leading_zeros()) as usize + 8;
        let mut tasks = vec![(0, items.len(), NONE, false, 0usize)];
        while let Some((lo, hi, parent, is_right, depth)) = tasks.pop() {
            let node = self.nodes.len() as u32;
            let leaf_slot = if hi - lo == 1 { items[lo].0 } else { NONE };
            self.nodes.push(Node {
                aabb: items[lo].1,
                parent,
                left: NONE,
                right: NONE,
                slot: leaf_slot,
                height: 0,
            });
            if parent == NONE {
                self.root = node;
            } else if is_right {
                self.nodes[parent as usize].right = node;
            } else {
                self.nodes[parent as usize].left = node;
            }
            if leaf_slot != NONE {
                self.leaf[leaf_slot as usize] = node;
            } else {
                let range = &mut items[lo..hi];
                let mid = lo + if depth < max_depth { sah_split(range) } else { median_split(range) };
                tasks.push((mid, hi, node, true, depth + 1));
                tasks.push((lo, mid, node, false, depth + 1));
            }
        }
        for n in (0..self.nodes.len()).rev() {
            let node = &self.nodes[n];
            if node.slot == NONE {
                let (l, r) = (&self.nodes[node.left as usize], &self.nodes[node.right as usize]);
                let (aabb, height) = (l.aabb.merged(&r.aabb), 1 + l.height.max(r.height));
                self.nodes[n].aabb = aabb;
                self.nodes[n].height = height;
            }
        }
    }

    /// Checks the tree's structure and returns the first violation: parent and child links
    /// agree, every internal box is the union of its children and every height one more than
    /// its taller child's, every proxy in the tree has exactly one leaf whose fat box holds its
    /// box. O(n); for tests and debugging.
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut leaves = 0;
        if self.root != NONE {
            if self.nodes[self.root as usize].parent != NONE {
                return Err("the root has a parent".into());
            }
            let mut stack = vec![self.root];
            while let Some(n) = stack.pop() {
                let node = &self.nodes[n as usize];
                if node.slot != NONE {
                    leaves += 1;
                    let s = node.slot as usize;
                    if self.leaf[s] != n {
                        return Err(format!("leaf {n} holds slot {s}, whose leaf is {}", self.leaf[s]));
                    }
                    if node.aabb != self.slots.fat[s] || !node.aabb.contains(&self.slots.tight(s as u32)) {
                        return Err(format!("leaf {n}: fat box does not hold slot {s}'s box"));
                    }
                    if node.height != 0 {
                        return Err(format!("leaf {n} has height {}", node.height));
                    }
                    continue;
                }
                for c in [node.left, node.right] {
                    if c == NONE || self.nodes[c as usize].parent != n {
                        return Err(format!("node {n}: child {c} does not point back"));
                    }
                }
                let (l, r) = (&self.nodes[node.left as usize], &self.nodes[node.right as usize]);
                if node.aabb != l.aabb.merged(&r.aabb) {
                    return Err(format!("node {n}: box is not the union of its children"));
                }
                if node.height != 1 + l.height.max(r.height) {
                    return Err(format!("node {n}: height {} is wrong", node.height));
                }
                stack.extend([node.left, node.right]);
            }
        }
        if leaves + self.slots.pending.len() != self.slots.slot_of.len() {
            return Err(format!(
                "{leaves} leaves and {} pending for {} proxies",
                self.slots.pending.len(),
                self.slots.slot_of.len()
            ));
        }
        Ok(())
    }

    /// Height of the tree (0 for a single leaf, -1 when empty).
    pub fn height(&self) -> i32 {
        if self.root == NONE {
            -1
        } else {
            self.nodes[self.root as usize].height
        }
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

    /// Branch-and-bound search, within the subtree at `start`, for the sibling that adds the
    /// least surface area. `start` is the root or an ancestor whose box already holds `b`, so
    /// nothing above it grows and the search there is exact. (A greedy single-path descent, as
    /// in Box2D v3, was tried: insertion got cheaper but the trees it built made the moved
    /// leaves' queries three times slower.)
    fn best_sibling(&mut self, start: u32, b: &Aabb<T, D>) -> u32 {
        let mut best = (start, T::infinity());
        // A candidate's lower bound is exactly its inherited cost: the growth of every ancestor
        // on its path, which the new leaf adds whatever happens below.
        let mut heap = core::mem::take(&mut self.heap);
        heap.clear();
        heap.push(Sibling { lower_bound: T::zero(), node: start });
        let own = Self::area(b);
        while let Some(Sibling { lower_bound: inh, node }) = heap.pop() {
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
                        heap.push(Sibling { lower_bound: child_inh, node: c });
                    }
                }
            }
        }
        self.heap = heap;
        best.0
    }

    /// Inserts a leaf for `slot`, searching for its sibling below `start` (see
    /// [`Self::best_sibling`]; `NONE` means the root).
    fn insert_leaf(&mut self, slot: u32, fat: Aabb<T, D>, start: u32) -> u32 {
        let leaf = self.alloc(Node { aabb: fat, parent: NONE, left: NONE, right: NONE, slot, height: 0 });
        if self.root == NONE {
            self.root = leaf;
            return leaf;
        }
        let start = if start == NONE { self.root } else { start };
        let sibling = self.best_sibling(start, &fat);
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

    /// Unlinks a leaf; returns the node that took its parent's place (`NONE` if the tree is
    /// now empty or the leaf's sibling became the root).
    fn remove_leaf(&mut self, leaf: u32) -> u32 {
        self.free_nodes.push(leaf);
        if leaf == self.root {
            self.root = NONE;
            return NONE;
        }
        let parent = self.nodes[leaf as usize].parent;
        let grand = self.nodes[parent as usize].parent;
        let p = &self.nodes[parent as usize];
        let sibling = if p.left == leaf { p.right } else { p.left };
        self.free_nodes.push(parent);
        self.nodes[sibling as usize].parent = grand;
        if grand == NONE {
            self.root = sibling;
            NONE
        } else {
            if self.nodes[grand as usize].left == parent {
                self.nodes[grand as usize].left = sibling;
            } else {
                self.nodes[grand as usize].right = sibling;
            }
            self.refit_from(grand);
            sibling
        }
    }

    /// The lowest ancestor-or-self of `node` whose box holds `b` (`NONE`: search from the root).
    /// A moved leaf re-enters the tree from there (Bullet's `btDbvt::update` does the same with
    /// a fixed look-ahead): coherent motion keeps it near its old place at O(depth of the
    /// subtree) cost instead of a search from the root.
    fn enclosing_ancestor(&self, mut node: u32, b: &Aabb<T, D>) -> u32 {
        while node != NONE && !self.nodes[node as usize].aabb.contains(b) {
            node = self.nodes[node as usize].parent;
        }
        node
    }

    /// Walks up from `node` (whose children changed), rebalancing and refitting boxes and
    /// heights. Stops early at an ancestor that needed no rotation and whose box and height did
    /// not change: the ones above are then unchanged too (their boxes are unions, their balance
    /// depends on heights only). `node` itself is always redone: a freshly linked parent already
    /// holds the right values, but its ancestors do not yet.
    fn refit_from(&mut self, mut node: u32) {
        let mut first = true;
        while node != NONE {
            let balanced = self.balance(node);
            let (l, r) = (self.nodes[balanced as usize].left, self.nodes[balanced as usize].right);
            let (bl, br) = (self.nodes[l as usize].aabb, self.nodes[r as usize].aabb);
            let h = 1 + self.nodes[l as usize].height.max(self.nodes[r as usize].height);
            let merged = bl.merged(&br);
            let n = &mut self.nodes[balanced as usize];
            if !first && balanced == node && n.height == h && n.aabb == merged {
                return;
            }
            first = false;
            n.aabb = merged;
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
        self.slots.moved.mark(slot);
    }
}

impl<T: Real, const D: usize> BroadPhase<T, D> for DynamicAabbTree<T, D> {
    fn insert(&mut self, id: ProxyId, aabb: Aabb<T, D>) -> Result<(), BroadPhaseError> {
        let (slot, new) = self.slots.insert(id, aabb)?;
        if new {
            self.leaf.push(NONE);
        }
        debug_assert_eq!(self.leaf[slot as usize], NONE);
        Ok(())
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb<T, D>) -> Result<(), BroadPhaseError> {
        let slot = self.slots.slot(id)?;
        let old = self.slots.tight_center(slot);
        self.slots.set_tight(slot, aabb);
        if self.slots.fat_fits(slot, &aabb) {
            return Ok(()); // still inside its fat box: the tree and candidates stay valid
        }
        if self.leaf[slot as usize] == NONE {
            // Inserted this frame, not in the tree yet.
            self.slots.fat[slot as usize] = self.slots.fatten(&aabb, &Vector::zeros());
            return Ok(());
        }
        let displacement = aabb.center() - old;
        let took_place = self.remove_leaf(self.leaf[slot as usize]);
        let fat = self.slots.fatten(&aabb, &displacement);
        let start = self.enclosing_ancestor(took_place, &fat);
        self.slots.fat[slot as usize] = fat;
        self.leaf[slot as usize] = self.insert_leaf(slot, fat, start);
        self.mark_moved(slot);
        Ok(())
    }

    fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        // Its candidates are dropped at the next `find_pairs`, with those of the moved leaves
        // (the slot has no leaf then, so nothing new is found for it).
        let slot = self.slots.remove(id)?;
        if self.leaf[slot as usize] != NONE {
            self.remove_leaf(self.leaf[slot as usize]);
            self.leaf[slot as usize] = NONE;
        }
        Ok(())
    }

    fn find_pairs(&mut self) {
        self.slots.next_frame();
        // Newcomers enter the tree: one by one, or all at once by a rebuild when they are at
        // least as many as the leaves already in (the first frame, a level load).
        if !self.slots.pending.is_empty() {
            let in_tree = self.slots.slot_of.len() - self.slots.pending.len();
            if self.slots.pending.len() >= in_tree.max(MIN_REBUILD) {
                self.rebuild();
            } else {
                for s in core::mem::take(&mut self.slots.pending) {
                    self.leaf[s as usize] = self.insert_leaf(s, self.slots.fat[s as usize], NONE);
                }
            }
        }
        // Candidates of moved leaves are recomputed from the tree; the others stay valid since
        // neither fat box changed. Everything stays sorted by ids, so the frame is O(k) merges
        // plus the moved leaves' queries, never a sort of all k candidates.
        let mut candidates = core::mem::take(&mut self.candidates);
        let mut stack = core::mem::take(&mut self.stack);
        candidates.find_fresh(&self.slots, |s, fresh| {
            let leaf = self.leaf[s as usize];
            if leaf == NONE {
                return; // removed
            }
            let fat = self.nodes[leaf as usize].aabb;
            self.visit_overlapping(&fat, &mut stack, |o| {
                // Two moved leaves find each other: keep the pair once.
                if o != s && (!self.slots.moved.contains(o) || s < o) {
                    fresh.push(Candidate::new(s, self.slots.ids[s as usize], o, self.slots.ids[o as usize]));
                }
            });
        });
        candidates.commit(&mut self.events, &mut self.slots);
        (self.candidates, self.stack) = (candidates, stack);
    }

    fn events(&self) -> &PairEvents {
        &self.events
    }
    fn query_aabb(&self, aabb: &Aabb<T, D>, out: &mut Vec<ProxyId>) {
        let mut hit = |slot: u32| {
            if overlaps(&self.slots.tight(slot), aabb) {
                out.push(self.slots.ids[slot as usize]);
            }
        };
        self.slots.pending.iter().for_each(|&s| hit(s));
        self.visit_overlapping(aabb, &mut Vec::new(), hit);
    }
    fn query_ray(&self, ray: &Ray<T, D>, out: &mut Vec<(ProxyId, T)>) {
        let prepared = PreparedRay::new(ray);
        for &s in &self.slots.pending {
            if let Some((t, _, _)) = ray_aabb_interval(&prepared, &self.slots.tight(s)) {
                out.push((self.slots.ids[s as usize], t));
            }
        }
        if self.root == NONE {
            return;
        }
        let mut stack = vec![self.root];
        while let Some(n) = stack.pop() {
            let node = &self.nodes[n as usize];
            if ray_aabb_interval(&prepared, &node.aabb).is_none() {
                continue;
            }
            if node.slot != NONE {
                if let Some((t, _, _)) = ray_aabb_interval(&prepared, &self.slots.tight(node.slot)) {
                    out.push((self.slots.ids[node.slot as usize], t));
                }
            } else {
                stack.push(node.left);
                stack.push(node.right);
            }
        }
    }
    fn len(&self) -> usize {
        self.slots.len()
    }
    fn aabb(&self, id: ProxyId) -> Option<Aabb<T, D>> {
        self.slots.slot_of.get(id).map(|s| self.slots.tight(s))
    }
}

/// Orders `items` (slot, fat box) so that `[..mid]` and `[mid..]` are the two children of the
/// cheapest binned SAH split, and returns `mid` (0 < mid < len). Items whose centres cannot be
/// separated (all equal) are split in half.
fn sah_split<T: Real, const D: usize>(items: &mut [(u32, Aabb<T, D>)]) -> usize {
    let n = items.len();
    let centre = |b: &Aabb<T, D>| b.center();
    let mut lo = centre(&items[0].1);
    let mut hi = lo;
    for (_, b) in items.iter() {
        let c = centre(b);
        lo = lo.inf(&c);
        hi = hi.sup(&c);
    }
    let bin_of = |c: T, axis: usize| -> usize {
        let t = (c - lo[axis]) / (hi[axis] - lo[axis]) * T::lit(SAH_BINS as f64);
        (t.to_f64().max(0.0) as usize).min(SAH_BINS - 1)
    };
    // Best (cost, axis, first bin of the right side).
    let mut best: Option<(T, usize, usize)> = None;
    for axis in 0..D {
        if hi[axis] <= lo[axis] {
            continue;
        }
        let mut counts = [0usize; SAH_BINS];
        let mut boxes: [Option<Aabb<T, D>>; SAH_BINS] = [None; SAH_BINS];
        for (_, b) in items.iter() {
            let k = bin_of(centre(b)[axis], axis);
            counts[k] += 1;
            boxes[k] = Some(boxes[k].map_or(*b, |x| x.merged(b)));
        }
        // Area·count of every prefix (left sides), then sweep the suffixes (right sides).
        let mut left_cost = [T::zero(); SAH_BINS];
        let (mut acc, mut count): (Option<Aabb<T, D>>, usize) = (None, 0);
        for k in 0..SAH_BINS {
            if let Some(b) = boxes[k] {
                acc = Some(acc.map_or(b, |a| a.merged(&b)));
            }
            count += counts[k];
            left_cost[k] = acc.map_or(T::zero(), |a| a.surface_area() * T::lit(count as f64));
        }
        let (mut acc, mut count): (Option<Aabb<T, D>>, usize) = (None, 0);
        for k in (1..SAH_BINS).rev() {
            if let Some(b) = boxes[k] {
                acc = Some(acc.map_or(b, |a| a.merged(&b)));
            }
            count += counts[k];
            if count == 0 || count == n {
                continue;
            }
            let cost = left_cost[k - 1] + acc.map_or(T::zero(), |a| a.surface_area() * T::lit(count as f64));
            if best.is_none_or(|(c, _, _)| cost < c) {
                best = Some((cost, axis, k));
            }
        }
    }
    match best {
        Some((_, axis, split)) => {
            // Partition in place: left side first.
            let mut mid = 0;
            for i in 0..n {
                if bin_of(centre(&items[i].1)[axis], axis) < split {
                    items.swap(i, mid);
                    mid += 1;
                }
            }
            mid
        }
        None => n / 2,
    }
}

/// Orders `items` so that `[..len/2]` holds the boxes whose centres are lowest along the axis of
/// widest centre spread, and returns `len / 2`.
fn median_split<T: Real, const D: usize>(items: &mut [(u32, Aabb<T, D>)]) -> usize {
    let mut lo = items[0].1.center();
    let mut hi = lo;
    for (_, b) in items.iter() {
        lo = lo.inf(&b.center());
        hi = hi.sup(&b.center());
    }
    let axis = (hi - lo).imax();
    let mid = items.len() / 2;
    items.select_nth_unstable_by(mid, |a, b| {
        a.1.center()[axis].partial_cmp(&b.1.center()[axis]).unwrap_or(Ordering::Equal)
    });
    mid
}
