//! Loose octree (loose quadtree in 2D), kept from frame to frame.

use crate::cells::{cell_index, for_each_cell};
use crate::events::PairEvents;
use crate::id_hash::IdMap;
use crate::proxies::{overlaps, pair, BroadPhaseError, Proxies, ProxyId};
use crate::BroadPhase;
use cd_geom::{Aabb, Ray, Real};

/// A node of the tree: its depth counted from the finest level up (level `l` has cells of edge
/// `base · 2^l`) and its cell's integer coordinates at that level.
type NodeKey<const D: usize> = (u8, [i64; D]);

/// The coarsest level: cell edges up to `base · 2^62`. A box too large even for it (boxes
/// that grew by more than that since the layout) is kept in the oversized node instead.
const MAX_LEVEL: u8 = 62;

/// The level of the oversized node: boxes no level's cube holds, tested against every box.
const OVERSIZED: u8 = MAX_LEVEL + 1;

/// The finest cube edge of a layout is at least the largest box's extent over `2^LEVEL_SPAN`,
/// so every box of the layout fits within [`MAX_LEVEL`] levels with room to grow (boxes far
/// smaller share the finest level).
const LEVEL_SPAN: i32 = 40;

/// When more than this fraction of the boxes (and at least [`MIN_OVERSIZED_RELAYOUT`]) are
/// oversized, the tree is laid out again for the boxes it now holds.
const OVERSIZED_FRACTION: usize = 16;
const MIN_OVERSIZED_RELAYOUT: usize = 32;

/// A box is filed at the finest level whose cell edge is at least its largest extent times
/// this (a little over 1, so that rounding in the cell arithmetic cannot make a box stick out of
/// its node's loose bounds).
const FIT: f64 = 1.0 + 1.0 / 1024.0;

/// Loose octree (Ulrich 2000, "Loose octrees", Game Programming Gems): the nodes of level `l`
/// tile space with cubes of edge `s = base · 2^l`, and each node's *loose* bounds are its cube
/// grown by `s/2` on every side (looseness 2). A box is stored in exactly one node: at the finest
/// level whose edge is at least its largest extent, in the node whose cube holds its centre, so
/// it lies inside that node's loose bounds. Coherent motion then costs almost nothing: a box
/// changes node only when its centre crosses a cube face or its size crosses a power of two, and
/// a move touches two member lists. Pairs: each box looks for partners at its own level and at
/// every coarser level present, in the nodes whose loose bounds it overlaps (2^D to 3^D per
/// level; 4^D when the pads straddle a cube face); a pair at one level is found by the lower
/// slot, a pair across levels by the finer box, so each once. Nodes are hashed by level and
/// cube (unbounded world; no root to outgrow).
///
/// The finest edge (`base`) is set by the first frame with boxes: their smallest positive
/// extent, or the largest over 2^40 if that is more. Boxes smaller than it later share level 0;
/// boxes that outgrow level 62 go to an oversized node tested against every box, and once 1/16
/// of the boxes have, the tree is laid out again for the boxes it holds. Best for scenes whose objects differ in size by orders
/// of magnitude and mostly move coherently (the hierarchical grid files the same levels but
/// rebuilds them every frame, a box in up to 2^D cells); for similar-sized objects the coherent
/// grid is faster. The ray query scans every proxy. Overlap is closed-interval, like every
/// strategy.
#[derive(Clone, Debug)]
pub struct LooseOctree<T: Real, const D: usize> {
    proxies: Proxies<T, D>,
    /// Per slot, the node it is filed in (meaningful once `base` is set).
    node_of: Vec<NodeKey<D>>,
    /// Per slot, its position in its node's member list.
    position: Vec<u32>,
    /// Each non-empty node's slots.
    nodes: IdMap<NodeKey<D>, Vec<u32>>,
    /// Member lists of emptied nodes, reused for new ones (no allocation per node move).
    spare: Vec<Vec<u32>>,
    /// How many boxes each level holds (the pair search skips empty levels), the oversized
    /// node last.
    per_level: [u32; OVERSIZED as usize + 1],
    /// Cell edge of level 0; zero until the first frame with boxes.
    base: T,
    /// The cube edge of every level, `base · 2^l` (computed once per layout: a power per call
    /// was most of an update's time).
    edges: [T; MAX_LEVEL as usize + 1],
    events: PairEvents,
}

impl<T: Real, const D: usize> Default for LooseOctree<T, D> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Real, const D: usize> LooseOctree<T, D> {
    /// An empty tree.
    pub fn new() -> Self {
        LooseOctree {
            proxies: Proxies::new(),
            node_of: Vec::new(),
            position: Vec::new(),
            nodes: IdMap::default(),
            spare: Vec::new(),
            per_level: [0; OVERSIZED as usize + 1],
            base: T::zero(),
            edges: [T::zero(); MAX_LEVEL as usize + 1],
            events: PairEvents::new(),
        }
    }

    /// The cell edge of the finest level (zero before the first frame with boxes).
    pub fn finest_cell(&self) -> T {
        self.base
    }

    /// The cell edge of level `l`.
    #[inline]
    fn edge(&self, l: u8) -> T {
        self.edges[l as usize]
    }

    /// The node box `b` belongs in: the finest level whose edge holds its largest extent, the
    /// cube holding its centre there; the oversized node when no level's edge does.
    fn node_for(&self, b: &Aabb<T, D>) -> NodeKey<D> {
        let extent = (b.max() - b.min()).amax() * T::lit(FIT);
        let mut l = 0u8;
        while l < MAX_LEVEL && self.edge(l) < extent {
            l += 1;
        }
        let s = self.edge(l);
        if !(s >= extent && s.is_finite()) {
            return (OVERSIZED, [0; D]);
        }
        let centre = b.center();
        (l, core::array::from_fn(|a| cell_index(centre[a], s)))
    }

    /// Files slot `s` in node `key`.
    fn file(&mut self, s: u32, key: NodeKey<D>) {
        let members = self.nodes.entry(key).or_insert_with(|| self.spare.pop().unwrap_or_default());
        self.position[s as usize] = members.len() as u32;
        members.push(s);
        self.node_of[s as usize] = key;
        self.per_level[key.0 as usize] += 1;
    }

    /// Takes slot `s` out of its node (dropping the node when it empties).
    fn unfile(&mut self, s: u32) {
        let key = self.node_of[s as usize];
        let at = self.position[s as usize] as usize;
        if let Some(members) = self.nodes.get_mut(&key) {
            members.swap_remove(at);
            if let Some(&moved) = members.get(at) {
                self.position[moved as usize] = at as u32;
            }
            if members.is_empty() {
                if let Some(list) = self.nodes.remove(&key) {
                    self.spare.push(list);
                }
            }
        }
        self.per_level[key.0 as usize] -= 1;
    }

    /// Files every slot (none may be filed), choosing the finest edge for the boxes held: the
    /// smallest positive extent, or the largest over `2^40` if that is larger (1 when every
    /// box is a point).
    fn lay_out(&mut self) {
        let extent = |b: &Aabb<T, D>| (b.max() - b.min()).amax();
        let boxes = &self.proxies.boxes;
        let smallest =
            boxes.iter().map(extent).filter(|e| *e > T::zero()).fold(T::infinity(), |a, b| a.min(b));
        let largest = boxes.iter().map(extent).fold(T::zero(), |a, b| a.max(b));
        self.base = if smallest.is_finite() {
            smallest.max(largest * T::lit(2f64.powi(-LEVEL_SPAN)))
        } else {
            T::one()
        };
        if self.base <= T::zero() {
            // An extent so small its share underflowed: any positive edge is correct.
            self.base = T::one();
        }
        self.edges = core::array::from_fn(|l| self.base * T::lit(2f64.powi(l as i32)));
        for s in 0..self.proxies.len() as u32 {
            let key = self.node_for(&self.proxies.boxes[s as usize]);
            self.file(s, key);
        }
    }

    /// The coarsest level holding a box (0 when none does), the oversized node aside.
    fn top_level(&self) -> u8 {
        self.per_level[..=MAX_LEVEL as usize].iter().rposition(|&n| n > 0).unwrap_or(0) as u8
    }

    /// The oversized boxes' slots.
    fn oversized(&self) -> &[u32] {
        self.nodes.get(&(OVERSIZED, [0; D])).map_or(&[], |m| &m[..])
    }

    /// Takes every slot out and files them again for the boxes now held.
    fn relayout(&mut self) {
        for (_, mut members) in self.nodes.drain() {
            members.clear();
            self.spare.push(members);
        }
        self.per_level = [0; OVERSIZED as usize + 1];
        self.lay_out();
    }

    /// The nodes of level `l` whose loose bounds overlap `b` (cube grown by half an edge), as an
    /// inclusive cube range. The growth has two pads: [`FIT`]'s share of the edge, and a few ulps
    /// of the coordinates, so that the rounded edges of the range and the rounded centre of a
    /// box (both within an ulp or so of the coordinates) keep their exact order: the cube map is
    /// monotone, so every node holding a box that overlaps `b` is in the range.
    fn loose_range(&self, b: &Aabb<T, D>, l: u8) -> ([i64; D], [i64; D]) {
        let s = self.edge(l);
        let half = s * T::lit(0.5 * FIT);
        let ulps = T::epsilon() * T::lit(8.0);
        let grow = |a: usize| half + ulps * b.min()[a].abs().max(b.max()[a].abs());
        (
            core::array::from_fn(|a| cell_index(b.min()[a] - grow(a), s)),
            core::array::from_fn(|a| cell_index(b.max()[a] + grow(a), s)),
        )
    }

    /// Calls `visit(slot, level)` for every slot filed at a level from `from` to `top` in a node
    /// whose loose bounds overlap `b`. A range of more cubes than there are nodes (a huge query
    /// box at a fine level, or a box so far out that its coordinates' rounding spans many cubes)
    /// is served by one pass over the nodes instead of cube by cube, so no range is walked
    /// longer than the tree is large.
    fn for_each_near(&self, b: &Aabb<T, D>, from: u8, top: u8, mut visit: impl FnMut(u32, u8)) {
        for l in from..=top {
            if self.per_level[l as usize] == 0 {
                continue;
            }
            let (lo, hi) = self.loose_range(b, l);
            let cubes: f64 = (0..D).map(|a| (hi[a] as f64 - lo[a] as f64) + 1.0).product();
            if cubes > self.nodes.len() as f64 {
                for (&(level, c), members) in &self.nodes {
                    if level == l && (0..D).all(|a| lo[a] <= c[a] && c[a] <= hi[a]) {
                        members.iter().for_each(|&o| visit(o, l));
                    }
                }
                continue;
            }
            for_each_cell(lo, hi, |c| {
                if let Some(members) = self.nodes.get(&(l, c)) {
                    for &o in members {
                        visit(o, l);
                    }
                }
            });
        }
    }
}

impl<T: Real, const D: usize> BroadPhase<T, D> for LooseOctree<T, D> {
    fn insert(&mut self, id: ProxyId, aabb: Aabb<T, D>) -> Result<(), BroadPhaseError> {
        self.proxies.insert(id, aabb)?;
        let s = (self.proxies.len() - 1) as u32;
        self.node_of.push((0, [0; D]));
        self.position.push(0);
        if self.base > T::zero() {
            let key = self.node_for(&aabb);
            self.file(s, key);
        }
        Ok(())
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb<T, D>) -> Result<(), BroadPhaseError> {
        // One id lookup per update (the proxy store's own `update` would make a second).
        let s = self.proxies.slot(id).ok_or(BroadPhaseError::UnknownId(id))?;
        self.proxies.boxes[s as usize] = aabb;
        if self.base > T::zero() {
            let key = self.node_for(&aabb);
            if key != self.node_of[s as usize] {
                self.unfile(s);
                self.file(s, key);
            }
        }
        Ok(())
    }

    fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        let s = self.proxies.slot(id).ok_or(BroadPhaseError::UnknownId(id))?;
        let last = (self.proxies.len() - 1) as u32;
        if self.base > T::zero() {
            self.unfile(s);
        }
        self.proxies.remove(id)?;
        // The proxy store moved its last slot into `s`: so do the node lists.
        if s != last {
            self.node_of[s as usize] = self.node_of[last as usize];
            self.position[s as usize] = self.position[last as usize];
            if self.base > T::zero() {
                let key = self.node_of[s as usize];
                if let Some(members) = self.nodes.get_mut(&key) {
                    members[self.position[s as usize] as usize] = s;
                }
            }
        }
        self.node_of.pop();
        self.position.pop();
        Ok(())
    }

    fn find_pairs(&mut self) {
        let n = self.proxies.len();
        if self.base == T::zero() && n > 0 {
            self.lay_out();
        } else if self.per_level[OVERSIZED as usize] as usize
            > MIN_OVERSIZED_RELAYOUT.max(n / OVERSIZED_FRACTION)
        {
            self.relayout();
        }
        let mut out = core::mem::take(self.events.staging());
        let (ids, boxes) = (&self.proxies.ids, &self.proxies.boxes);
        let top = self.top_level();
        // Per box, not per node: a box's neighbourhood (the box grown by half an edge) spans 2–3
        // cubes an axis, a node's (its loose bounds grown by half an edge) 3–4, and nodes hold
        // one or two boxes on typical scenes; searching per node cost 3× the instructions.
        for (a, b) in boxes.iter().enumerate() {
            let level = self.node_of[a].0;
            if level == OVERSIZED {
                continue;
            }
            self.for_each_near(b, level, top, |o, l| {
                let o = o as usize;
                if (l > level || o > a) && overlaps(b, &boxes[o]) {
                    out.push(pair(ids[a], ids[o]));
                }
            });
        }
        // An oversized box against every box (another oversized one only from the lower slot).
        for &a in self.oversized() {
            let (a, b) = (a as usize, &boxes[a as usize]);
            for (o, other) in boxes.iter().enumerate() {
                let both = self.node_of[o].0 == OVERSIZED;
                if o != a && (!both || o > a) && overlaps(b, other) {
                    out.push(pair(ids[a], ids[o]));
                }
            }
        }
        *self.events.staging() = out;
        self.events.commit();
    }

    fn events(&self) -> &PairEvents {
        &self.events
    }

    fn query_aabb(&self, aabb: &Aabb<T, D>, out: &mut Vec<ProxyId>) {
        if self.base == T::zero() {
            // Not laid out yet: the boxes are not filed.
            return self.proxies.query_aabb(aabb, out);
        }
        let mut take = |o: u32| {
            if overlaps(aabb, &self.proxies.boxes[o as usize]) {
                out.push(self.proxies.ids[o as usize]);
            }
        };
        self.for_each_near(aabb, 0, self.top_level(), |o, _| take(o));
        self.oversized().iter().for_each(|&o| take(o));
    }

    fn query_ray(&self, ray: &Ray<T, D>, out: &mut Vec<(ProxyId, T)>) {
        self.proxies.query_ray(ray, out)
    }

    fn len(&self) -> usize {
        self.proxies.len()
    }

    fn aabb(&self, id: ProxyId) -> Option<Aabb<T, D>> {
        self.proxies.get(id)
    }
}
