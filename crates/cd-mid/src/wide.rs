//! [`WideBvh`]: a `W`-ary AABB hierarchy (4 or 8 children per node) collapsed from a binary
//! [`Bvh`], with each node's child boxes stored lane by lane (structure of arrays) so one ray or
//! one query box is tested against all children together. Rays walk it nearest first (closest,
//! any and all hits share that walk); box queries report a subtree wholly inside the box
//! without testing it further.
//!
//! The per-lane loops run over fixed-size arrays with no early exit, the form LLVM turns into
//! SIMD instructions (SSE for `W = 4` with `f32`, two registers or AVX for `W = 8`); the binary
//! [`Bvh`] traversal stays the scalar reference the tests compare against.
//!
//! Collapsing keeps the binary tree's leaves and replaces each node by up to `W` descendants,
//! opening the one with the largest surface area first (Wald et al. 2008).
//!
//! Child boxes are **quantized** to 8 bits per coordinate in the node's own frame (Ylitie,
//! Karras and Laine 2017): a node of 8 children takes 136 bytes for `f32` instead of 288, so a
//! traversal touches half the cache lines. Quantization rounds every box outwards (checked in
//! the same arithmetic the traversal uses), the slab test's exit parameter gets a few ulps of
//! slack (Ize 2013), and each slab is widened by the absolute rounding bound of its parameters
//! (which matters where they are near 0), so no hit of the exact boxes is lost. Like the binary
//! walks, every box is also grown by the ray's rounding pad
//! ([`rounding_pad`](crate::rounding_pad)), so no hit the leaves' own ray tests report
//! a rounding distance outside their box is culled either.

use crate::bvh::Bvh;
use crate::node::BvhNode;
use crate::query::QueryWorkspace;
use crate::volume::{rounding_pad, HierarchyVolume};
use cd_geom::{gt_mask, Aabb, BoundingVolume, Point, PreparedRay, Ray, Real};

/// Set in a lane's `count` when the lane is a leaf (its primitives are
/// `order[index..index + count]`); otherwise `index` is a child node.
const LEAF: u32 = 1 << 31;

/// One node: `W` child boxes quantized lane by lane, and per lane a child node or a leaf range.
#[derive(Clone, Debug)]
pub struct WideNode<T: Real, const W: usize> {
    /// Dequantization: a coordinate `q` on axis `a` is `origin[a] + q · scale[a]`.
    origin: [T; 3],
    scale: [T; 3],
    qlo: [[u8; W]; 3],
    qhi: [[u8; W]; 3],
    /// Child node index, or the start of a leaf's primitive range.
    index: [u32; W],
    /// Primitives below the lane, with [`LEAF`] set for leaves; 0 marks an empty lane.
    count: [u32; W],
    /// Bit `l` set when lane `l` holds a child (lanes fill from 0): the ray and box walks' lane
    /// masks are taken with it, where comparing each `count` with 0 built them bit by bit.
    used: u32,
}

impl<T: Real, const W: usize> WideNode<T, W> {
    fn empty() -> Self {
        WideNode {
            origin: [T::zero(); 3],
            scale: [T::zero(); 3],
            qlo: [[0; W]; 3],
            qhi: [[0; W]; 3],
            index: [0; W],
            count: [0; W],
            used: 0,
        }
    }

    /// The dequantized coordinate `q` on axis `a`.
    #[inline(always)]
    fn coord(&self, a: usize, q: u8) -> T {
        self.origin[a] + T::lit_i32(i32::from(q)) * self.scale[a]
    }

    /// The node's frame `[origin, origin + 255·scale]`, which holds every quantized child box.
    fn frame(&self) -> (Point<T, 3>, Point<T, 3>) {
        (Point::from(self.origin), Point::from(core::array::from_fn(|a| self.coord(a, 255))))
    }

    /// Which lanes' boxes meet `region`, and which lie wholly inside it, as masks (bit `l` for
    /// lane `l`; empty lanes do neither). The boxes are the quantized ones, which contain the
    /// exact child boxes: a lane reported inside holds only primitives inside the region, and
    /// no lane whose exact box meets the region is missed. Each axis dequantizes its bounds
    /// lane-wise and compares them four lanes per packed compare ([`gt_mask`]); the masks
    /// were built one lane at a time before, about 300 instructions a node. (Carrying
    /// the region into the node's 8-bit steps instead, so lanes compare integers, measured 2×
    /// slower: the per-axis divisions and roundings cost more than the dequantization they
    /// save.)
    #[inline(always)]
    fn against_aabb(&self, region: &Aabb<T, 3>) -> (u32, u32) {
        let (mut apart, mut sticks_out) = (0u32, 0u32);
        for a in 0..3 {
            let lo: [T; W] = core::array::from_fn(|l| self.coord(a, self.qlo[a][l]));
            let hi: [T; W] = core::array::from_fn(|l| self.coord(a, self.qhi[a][l]));
            let (rlo, rhi) = ([region.min()[a]; W], [region.max()[a]; W]);
            apart |= gt_mask(&lo, &rhi) | gt_mask(&rlo, &hi);
            sticks_out |= gt_mask(&rlo, &lo) | gt_mask(&hi, &rhi);
        }
        let meet = !apart & self.used;
        (meet, meet & !sticks_out)
    }

    /// Sets the node's frame from the union of its children's boxes (at most `W`, at least
    /// one) and quantizes each child outwards; lanes past the children get the first child's
    /// box (their `count` of 0 keeps every query out of them).
    fn quantize(&mut self, boxes: &[Aabb<T, 3>]) {
        let n = boxes.len();
        for a in 0..3 {
            // Lane arrays with no early exit, so every step below runs on all lanes at once;
            // lanes past the children repeat the first child (harmless to the frame).
            let lo: [T; W] = core::array::from_fn(|l| boxes[if l < n { l } else { 0 }].min()[a]);
            let hi: [T; W] = core::array::from_fn(|l| boxes[if l < n { l } else { 0 }].max()[a]);
            // Plain comparisons (the boxes are finite): simba's NaN-aware `min`/`max` cost more.
            let frame_lo = lo.iter().fold(T::infinity(), |m, &x| if x < m { x } else { m });
            let frame_hi = hi.iter().fold(-T::infinity(), |m, &x| if x > m { x } else { m });
            // A margin so the frame strictly contains every child even after rounding.
            let pad = frame_pad(frame_lo, frame_hi);
            let (origin, scale) = (frame_lo - pad, (frame_hi - frame_lo + pad + pad) / T::lit(254.0));
            self.origin[a] = origin;
            self.scale[a] = scale;
            // The dequantized bound in exactly the arithmetic of `coord`, which queries use.
            let coord = |q: i32| origin + T::lit_i32(q) * scale;
            let inv = T::one() / scale;
            let rel_lo: [T; W] = core::array::from_fn(|l| (lo[l] - origin) * inv);
            let rel_hi: [T; W] = core::array::from_fn(|l| (hi[l] - origin) * inv);
            // Floor and ceiling by truncation clamped to the 8-bit range (the values are
            // non-negative up to rounding; the library `floor`/`ceil` are calls on the baseline
            // x86-64 target), four lanes per packed conversion, then one step outwards where the
            // dequantized bound is not yet outside the child: `rel` rounds by a few ulps of
            // 255, so one step settles every lane of an ordinary frame. (Converting lane by lane
            // with a saturating `as u8` and back through `f64` cost about 550 instructions a
            // node, a third of the collapse.)
            let down = truncate_to_steps(&rel_lo);
            let mut ql: [i32; W] =
                core::array::from_fn(|l| down[l] - i32::from((down[l] > 0) & (coord(down[l]) > lo[l])));
            let up = truncate_to_steps(&rel_hi);
            let up: [i32; W] =
                core::array::from_fn(|l| up[l] + i32::from((up[l] < 255) & (T::lit_i32(up[l]) < rel_hi[l])));
            let mut qh: [i32; W] =
                core::array::from_fn(|l| up[l] + i32::from((up[l] < 255) & (coord(up[l]) < hi[l])));
            let mut exact = true;
            for l in 0..W {
                exact &= (coord(ql[l]) <= lo[l]) | (ql[l] == 0);
                exact &= (coord(qh[l]) >= hi[l]) | (qh[l] == 255);
            }
            if !exact {
                // The guarantee behind the one step: walk outwards until every bound holds.
                // No test input has needed it (`rel` is within a small fraction of a step, and
                // a dequantized bound rounds toward a representable child coordinate, never
                // past it), but containment must not rest on that argument alone.
                for l in 0..W {
                    while ql[l] > 0 && coord(ql[l]) > lo[l] {
                        ql[l] -= 1;
                    }
                    while qh[l] < 255 && coord(qh[l]) < hi[l] {
                        qh[l] += 1;
                    }
                }
            }
            // Every step is in 0..=255 here: the truncation clamps, and the steps above stop
            // at the ends of the range.
            self.qlo[a] = ql.map(|q| q as u8);
            self.qhi[a] = qh.map(|q| q as u8);
        }
    }
}

/// Each lane clamped to the steps' range `[0, 255]` and truncated toward zero (NaN gives 0),
/// four lanes per packed conversion ([`Real::truncate_clamped4`]); lanes past a multiple of
/// four one by one.
#[inline(always)]
fn truncate_to_steps<T: Real, const W: usize>(x: &[T; W]) -> [i32; W] {
    let top = T::lit(255.0);
    let mut out = [0i32; W];
    let whole = W - W % 4;
    for (o, c) in out[..whole].chunks_exact_mut(4).zip(x.chunks_exact(4)) {
        o.copy_from_slice(&T::truncate_clamped4([c[0], c[1], c[2], c[3]], top));
    }
    for l in whole..W {
        out[l] = T::truncate_clamped4([x[l]; 4], top)[0];
    }
    out
}

/// A `W`-wide AABB hierarchy in 3D (`W` = 4 or 8).
#[derive(Clone, Debug)]
pub struct WideBvh<T: Real, const W: usize> {
    nodes: Vec<WideNode<T, W>>,
    order: Vec<u32>,
    /// The binary root's box when the whole hierarchy is one leaf (no wide node then). Rays
    /// test it through [`VolumeRay::enter_box`](crate::volume::VolumeRay::enter_box), whose
    /// pad admits the watertight test's hits a rounding distance outside it (finding 39).
    root_leaf: Option<(Aabb<T, 3>, u32)>,
}

/// The margin by which a wide node's frame exceeds the union of its children on one axis
/// `[lo, hi]`: relative to the extent, a few ulps of the coordinates, and an absolute floor for
/// flat boxes at the origin.
#[inline]
fn frame_pad<T: Real>(lo: T, hi: T) -> T {
    (hi - lo) * T::lit(1e-4) + (lo.abs() + hi.abs()) * T::lit(8.0) * T::epsilon() + T::lit(1e-30)
}

impl<T: Real, const W: usize> WideBvh<T, W> {
    /// Collapses a binary hierarchy of any volume type; each child box is the AABB enclosing
    /// that child's volume (so a sphere or OBB tree gets a wide AABB tree for rays). `W` must be
    /// at least 2.
    pub fn from_binary<B: HierarchyVolume<T, 3>>(bvh: &Bvh<T, 3, B>) -> Self {
        const { assert!(W >= 2 && W <= 32, "a wide node has 2 to 32 lanes (its masks are u32)") };
        let nodes = bvh.nodes();
        let order = bvh.primitive_order().to_vec();
        if nodes[0].is_leaf() {
            return WideBvh {
                nodes: Vec::new(),
                order,
                root_leaf: Some((nodes[0].volume.bounding_aabb(), nodes[0].count)),
            };
        }
        let mut out: Vec<WideNode<T, W>> = vec![WideNode::empty()];
        // (binary node to collapse, wide node to fill)
        let mut stack = vec![(0usize, 0usize)];
        // Members with their box and the key that orders their opening (the area, or −1 for
        // leaves, which are never opened), computed once per member.
        let mut group: Vec<(usize, Aabb<T, 3>, T)> = Vec::with_capacity(W + 1);
        let mut boxes: Vec<Aabb<T, 3>> = Vec::with_capacity(W);
        let member = |g: usize| {
            let bx = nodes[g].volume.bounding_aabb();
            let area = BoundingVolume::<T, 3>::surface_area(&bx);
            (g, bx, if nodes[g].is_leaf() { -T::one() } else { area })
        };
        while let Some((b, w)) = stack.pop() {
            group.clear();
            group.extend(nodes[b].children().map(member));
            // Open the interior member with the largest area until W members or all leaves.
            while group.len() < W {
                let mut k = 0;
                for i in 1..group.len() {
                    k = if group[i].2 > group[k].2 { i } else { k };
                }
                if group[k].2 < T::zero() {
                    break;
                }
                let (g, _, _) = group.swap_remove(k);
                group.extend(nodes[g].children().map(member));
            }
            let mut node = WideNode::empty();
            boxes.clear();
            boxes.extend(group.iter().map(|m| m.1));
            node.quantize(&boxes);
            node.used = u32::MAX >> (32 - group.len());
            for (lane, &(g, _, _)) in group.iter().enumerate() {
                let n = &nodes[g];
                if n.is_leaf() {
                    node.index[lane] = n.start;
                    node.count[lane] = n.count | LEAF;
                } else {
                    let id = out.len();
                    out.push(WideNode::empty());
                    node.index[lane] = id as u32;
                    node.count[lane] = n.count;
                    stack.push((g, id));
                }
            }
            out[w] = node;
        }
        WideBvh { nodes: out, order, root_leaf: None }
    }

    /// Number of wide nodes.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Closest hit along `ray` (within `ray.max_t()`), with the same leaf-test contract as
    /// [`query::ray_closest`](crate::query::ray_closest).
    pub fn ray_closest(
        &self,
        ray: &Ray<T, 3>,
        ws: &mut QueryWorkspace<T>,
        mut leaf: impl FnMut(u32, T) -> Option<T>,
    ) -> Option<(u32, T)> {
        let mut best: Option<(u32, T)> = None;
        self.walk(ray, ws, |p, limit| {
            if let Some(t) = leaf(p, limit) {
                if t <= limit && best.is_none_or(|(_, b)| t < b) {
                    best = Some((p, t));
                    return Visit::Limit(t);
                }
            }
            Visit::Limit(limit)
        });
        best
    }

    /// Any hit within `ray.max_t()` (shadow rays): stops at the first primitive whose `leaf`
    /// reports a hit, which need not be the closest. Same contract as
    /// [`query::ray_any`](crate::query::ray_any).
    pub fn ray_any(
        &self,
        ray: &Ray<T, 3>,
        ws: &mut QueryWorkspace<T>,
        mut leaf: impl FnMut(u32, T) -> Option<T>,
    ) -> Option<(u32, T)> {
        let mut found = None;
        self.walk(ray, ws, |p, limit| match leaf(p, limit) {
            Some(t) if t <= limit => {
                found = Some((p, t));
                Visit::Stop
            }
            _ => Visit::Limit(limit),
        });
        found
    }

    /// Every hit within `ray.max_t()`, sorted by parameter (then primitive index). Same
    /// contract as [`query::ray_all`](crate::query::ray_all).
    pub fn ray_all(
        &self,
        ray: &Ray<T, 3>,
        ws: &mut QueryWorkspace<T>,
        mut leaf: impl FnMut(u32, T) -> Option<T>,
    ) -> Vec<(u32, T)> {
        let mut hits = Vec::new();
        self.walk(ray, ws, |p, limit| {
            if let Some(t) = leaf(p, limit).filter(|t| *t <= limit) {
                hits.push((p, t));
            }
            Visit::Limit(limit)
        });
        hits.sort_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(core::cmp::Ordering::Equal).then(a.0.cmp(&b.0)));
        hits
    }

    /// Primitives whose leaf boxes meet the box `region`: `leaf(primitive, inside)` with
    /// `inside` true when a box wholly inside the region holds the primitive (it then lies in
    /// the region and needs no test of its own), as
    /// [`query::query_aabb`](crate::query::query_aabb) reports them. A subtree wholly inside is
    /// walked without further box tests.
    pub fn query_aabb(
        &self,
        region: &Aabb<T, 3>,
        ws: &mut QueryWorkspace<T>,
        mut leaf: impl FnMut(u32, bool),
    ) {
        if let Some((bv, count)) = &self.root_leaf {
            ws.stats.volume_tests += 1;
            if cd_geom::aabb_aabb(bv, region) {
                let inside = BoundingVolume::contains(region, bv);
                ws.stats.primitive_tests += if inside { 0 } else { u64::from(*count) };
                self.order[..*count as usize].iter().for_each(|&p| leaf(p, inside));
            }
            return;
        }
        // (1 when the node lies wholly inside the region, node); the workspace's stack.
        let mut stack = core::mem::take(&mut ws.nodes);
        stack.clear();
        stack.push((T::zero(), 0));
        let (mut volume_tests, mut primitive_tests) = (0u64, 0u64);
        while let Some((whole, n)) = stack.pop() {
            let node = &self.nodes[n as usize];
            let (meet, inside) = if whole != T::zero() {
                (node.used, node.used)
            } else {
                volume_tests += W as u64;
                node.against_aabb(region)
            };
            for lane in set_lanes(meet) {
                let inside = inside & (1 << lane) != 0;
                if node.count[lane] & LEAF != 0 {
                    let start = node.index[lane] as usize;
                    let count = (node.count[lane] & !LEAF) as usize;
                    primitive_tests += if inside { 0 } else { count as u64 };
                    self.order[start..start + count].iter().for_each(|&p| leaf(p, inside));
                } else {
                    stack.push((if inside { T::one() } else { T::zero() }, node.index[lane]));
                }
            }
        }
        ws.nodes = stack;
        ws.stats.volume_tests += volume_tests;
        ws.stats.primitive_tests += primitive_tests;
    }

    /// The ordered traversal the ray queries share: nodes nearest entry first, each node's
    /// leaves visited at once nearest first, and every box entered beyond the current limit
    /// skipped. `visit(primitive, limit)` returns the new limit (the closest hit lowers it)
    /// or stops the walk.
    #[inline(always)]
    pub(crate) fn walk(
        &self,
        ray: &Ray<T, 3>,
        ws: &mut QueryWorkspace<T>,
        mut visit: impl FnMut(u32, T) -> Visit<T>,
    ) {
        let mut limit = ray.max_t();
        // Visits a leaf's primitives; `true` when the walk is to stop.
        let mut visit_range = |start: u32, count: u32, limit: &mut T, ws: &mut QueryWorkspace<T>| {
            for &p in &self.order[start as usize..(start + count) as usize] {
                ws.stats.primitive_tests += 1;
                match visit(p, *limit) {
                    Visit::Limit(l) => *limit = l,
                    Visit::Stop => return true,
                }
            }
            false
        };
        // Box entries are compared with the best hit so far with a few ulps of slack: rounding
        // in the slab arithmetic can put a box's entry just past a hit that lies inside it.
        let slack = T::one() + T::lit(8.0) * T::epsilon();
        if let Some((bv, count)) = &self.root_leaf {
            ws.stats.volume_tests += 1;
            if crate::volume::VolumeRay::new(ray, bv).enter_box(bv.min(), bv.max(), limit * slack).is_some() {
                visit_range(0, *count, &mut limit, ws);
            }
            return;
        }
        let Some(root) = self.nodes.first() else { return };
        let (frame_lo, frame_hi) = root.frame();
        let lanes =
            RayLanes::new(ray, rounding_pad(ray.origin(), &frame_lo, &frame_hi), &frame_lo, &frame_hi);
        let mut stack = core::mem::take(&mut ws.nodes);
        stack.clear();
        stack.push((T::zero(), 0));
        // The common case, every axis folded, gets its own copy of the loop with the modes'
        // dispatch compiled out (a match per axis and node otherwise).
        let volume_tests = if lanes.mode == [AxisMode::Folded; 3] {
            self.walk_nodes::<true>(&lanes, &mut stack, limit, slack, ws, &mut visit_range)
        } else {
            self.walk_nodes::<false>(&lanes, &mut stack, limit, slack, ws, &mut visit_range)
        };
        ws.nodes = stack;
        ws.stats.volume_tests += volume_tests;
    }

    /// The node loop of [`WideBvh::walk`] from the nodes on `stack`, with `ALL_FOLDED` when
    /// every axis of `lanes` is [`AxisMode::Folded`]; returns the box tests made.
    #[inline(always)]
    fn walk_nodes<const ALL_FOLDED: bool>(
        &self,
        lanes: &RayLanes<T>,
        stack: &mut Vec<(T, u32)>,
        mut limit: T,
        slack: T,
        ws: &mut QueryWorkspace<T>,
        visit_range: &mut impl FnMut(u32, u32, &mut T, &mut QueryWorkspace<T>) -> bool,
    ) -> u64 {
        let mut volume_tests = 0u64;
        'walk: while let Some((entry, n)) = stack.pop() {
            if entry > limit * slack {
                continue;
            }
            let node = &self.nodes[n as usize];
            volume_tests += W as u64;
            let (t_near, hit) = lanes.test::<W, ALL_FOLDED>(node, limit * slack);
            // Children hit, sorted far to near so the nearest is popped first (a branch per
            // lane on its hit flag was the walk's most mispredicted; `set_lanes` takes one per
            // lane hit).
            // Lane numbers only, keyed by `t_near`: one 8-byte array to clear per node (pairs of
            // entry and lane were sixteen stores).
            let mut order = [0u8; W];
            let mut k = 0;
            for lane in set_lanes(hit) {
                let t = t_near[lane];
                let mut j = k;
                while j > 0 && t_near[usize::from(order[j - 1])] < t {
                    order[j] = order[j - 1];
                    j -= 1;
                }
                order[j] = lane as u8;
                k += 1;
            }
            // Leaves are visited at once, nearest first; interior children are pushed.
            for &lane in order[..k].iter().rev() {
                let lane = usize::from(lane);
                if node.count[lane] & LEAF != 0
                    && t_near[lane] <= limit * slack
                    && visit_range(node.index[lane], node.count[lane] & !LEAF, &mut limit, ws)
                {
                    break 'walk;
                }
            }
            for &lane in order[..k].iter() {
                let lane = usize::from(lane);
                if node.count[lane] & LEAF == 0 {
                    stack.push((t_near[lane], node.index[lane]));
                }
            }
        }
        volume_tests
    }
}

/// The set bits of a lane mask, lowest first: one step per lane set and none per lane clear,
/// so a walk branches once per child it enters rather than once per lane.
#[inline(always)]
fn set_lanes(mut mask: u32) -> impl Iterator<Item = usize> {
    core::iter::from_fn(move || {
        (mask != 0).then(|| {
            let lane = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            lane
        })
    })
}

/// What a leaf visit tells [`WideBvh::walk`]: go on with a (possibly lower) limit, or stop.
pub(crate) enum Visit<T> {
    /// Go on; boxes entered beyond this parameter are skipped.
    Limit(T),
    /// End the walk.
    Stop,
}

/// How a ray's lane test treats one axis, decided once per ray.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum AxisMode {
    /// The ray runs parallel to the axis: the slab test is an inside/outside comparison (no
    /// division by zero, no NaN).
    Parallel,
    /// The folded form `t = α + q·β` (one multiply-add a bound) cannot overflow in any node of
    /// the tree: every node's frame lies within a few times the root's, and the root's reach
    /// from the origin times the inverse direction (and the pad's share of the ulps) is finite
    /// with a wide margin.
    Folded,
    /// A direction component so small (or a tree so far away) that α or β could overflow: α +
    /// q·β would give −∞ or NaN for bounds that are finite, and miss boxes the ray enters (a
    /// 10⁻³⁰⁰ component once did). Each bound is then measured directly, exact to rounding, with
    /// ±∞ only where the true parameter overflows.
    Direct,
}

/// A ray prepared for lane tests: origin, inverse direction, and each axis' [`AxisMode`], with
/// the rounding pad of [`rounding_pad`] every box is grown by (the binary walks' rule: the
/// leaves' ray tests can report a hit that far outside its box).
struct RayLanes<T: Real> {
    origin: [T; 3],
    inv_dir: [T; 3],
    mode: [AxisMode; 3],
    /// The pad itself, for the parallel axes' inside test against a grown box.
    pad: T,
    /// The pad over 4ε, added to the terms whose ulps the lane test's bounds are moved by:
    /// the near bound is lowered by 4 ulps of them (so by `pad·|1/d|` more), the far raised by
    /// 8. Folded there, the pad costs one multiply-add per axis and node (the lanes' own
    /// arithmetic untouched): the whole change measured +3 % instructions per bunny ray.
    pad_in_ulps: T,
}

impl<T: Real> RayLanes<T> {
    /// Prepares `ray` for the walk of a tree whose root frame is `[frame_lo, frame_hi]`.
    fn new(ray: &Ray<T, 3>, pad: T, frame_lo: &Point<T, 3>, frame_hi: &Point<T, 3>) -> Self {
        let p = PreparedRay::new(ray);
        let pad_in_ulps = pad * T::lit(0.25) / T::epsilon();
        let mode = core::array::from_fn(|a| {
            if p.is_parallel(a) {
                return AxisMode::Parallel;
            }
            // A node's frame exceeds the union of its children by a ten-thousandth of its extent
            // and a few ulps, so all frames lie within the root's grown by far less than its own
            // reach: 16 times that reach bounds |α|, |α + 255·β| and 255·|β| of every node, and
            // the ulps' terms with them. (The check was made per node and axis before: about
            // 30 instructions a node on every ray.)
            let o = p.origin()[a];
            let reach = (frame_lo[a] - o).abs() + (frame_hi[a] - o).abs() + (frame_hi[a] - frame_lo[a]);
            let inv = p.inv_dir()[a].abs();
            let bound = (reach * T::lit(16.0) + pad_in_ulps) * inv;
            if bound.is_finite() && bound * T::lit(1024.0) < T::infinity() {
                AxisMode::Folded
            } else {
                AxisMode::Direct
            }
        });
        RayLanes {
            origin: core::array::from_fn(|a| p.origin()[a]),
            inv_dir: core::array::from_fn(|a| p.inv_dir()[a]),
            mode,
            pad,
            pad_in_ulps,
        }
    }

    /// Entry parameters and the hit mask (bit `l` for lane `l`) of the ray against the node's
    /// `W` boxes within `[0, limit]`. Every lane does the same arithmetic (no branches inside
    /// the lane loops): with `t = (origin + q·scale − o)/d = α + q·β`, each bound costs one
    /// multiply-add.
    #[inline(always)]
    fn test<const W: usize, const ALL_FOLDED: bool>(&self, node: &WideNode<T, W>, limit: T) -> ([T; W], u32) {
        let mut t_near = [T::zero(); W];
        let mut t_far = [limit; W];
        // Lanes the parallel axes leave in (all unless the ray runs parallel to an axis).
        let mut inside = u32::MAX;
        for a in 0..3 {
            let (lo, hi) = (&node.qlo[a], &node.qhi[a]);
            let o = self.origin[a];
            let inv = self.inv_dir[a];
            let mode = if ALL_FOLDED { AxisMode::Folded } else { self.mode[a] };
            match mode {
                AxisMode::Parallel => {
                    let (below, above) = (o - self.pad, o + self.pad);
                    for l in 0..W {
                        let within = (node.coord(a, lo[l]) <= above) & (below <= node.coord(a, hi[l]));
                        inside &= !(u32::from(!within) << l);
                    }
                }
                AxisMode::Direct => {
                    // Ize's relative slack on the exit (the folded form's offsets carry it).
                    let slack = T::one() + T::lit(4.0) * T::epsilon();
                    // The rounding pad in this axis' parameter units, once for all lanes.
                    let pad_t = self.pad * inv.abs();
                    for l in 0..W {
                        let t1 = (node.coord(a, lo[l]) - o) * inv;
                        let t2 = (node.coord(a, hi[l]) - o) * inv;
                        let (near, far) = if t1 < t2 { (t1, t2 * slack) } else { (t2, t1 * slack) };
                        let (near, far) = (near - pad_t, far + pad_t);
                        t_near[l] = if near > t_near[l] { near } else { t_near[l] };
                        t_far[l] = if far < t_far[l] { far } else { t_far[l] };
                    }
                }
                AxisMode::Folded => {
                    let alpha = (node.origin[a] - o) * inv;
                    let beta = node.scale[a] * inv;
                    // α + q·β rounds with an absolute error of a few ulps of |α| + 255·|β|,
                    // which near t = 0 no relative slack covers: a ray leaving a box's corner
                    // at t = 0 got an exit of −10⁻¹⁹ and missed the triangle it starts on (fuzz
                    // finding 28). The entry is lowered by four such ulps and the exit raised
                    // by eight, which also covers Ize's relative slack on the exit (|t| ≤ |α| +
                    // 255·|β|), so that a ray grazing a box is never dropped. The offsets are
                    // folded into α once per axis, and the near bound is picked by the
                    // direction's sign once per axis too: each lane costs two multiply-adds
                    // and no compare (a compare-and-swap per lane and the slack applied
                    // afterwards measured 6 % slower on the 14.7k bunny).
                    let ulps = T::epsilon()
                        * (alpha.abs() + T::lit(255.0) * beta.abs() + self.pad_in_ulps * inv.abs());
                    let (alpha_near, alpha_far) = (alpha - T::lit(4.0) * ulps, alpha + T::lit(8.0) * ulps);
                    let (q_near, q_far) = if beta >= T::zero() { (lo, hi) } else { (hi, lo) };
                    for l in 0..W {
                        let near = alpha_near + T::lit_i32(i32::from(q_near[l])) * beta;
                        let far = alpha_far + T::lit_i32(i32::from(q_far[l])) * beta;
                        t_near[l] = if near > t_near[l] { near } else { t_near[l] };
                        t_far[l] = if far < t_far[l] { far } else { t_far[l] };
                    }
                }
            }
        }
        // A lane misses where its entry lies past its exit (neither is NaN: the lane loops
        // only take a bound that compares greater or smaller), four lanes per packed compare.
        (t_near, !gt_mask(&t_near, &t_far) & inside & node.used)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A xorshift stream of numbers in `[0, 1)`.
    fn unit_stream(mut s: u64) -> impl FnMut() -> f64 {
        move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// Quantizes `n` random child boxes around `centre`, of sizes up to `extent`, and checks that
    /// every dequantized child box holds its exact box; with `tight`, also that no bound is more
    /// than one step looser than it needs to be where a step is several ulps wide.
    fn check_quantize<T: Real, const W: usize>(centre: f64, extent: f64, n: usize, tight: bool, seed: u64) {
        let mut r = unit_stream(seed);
        let boxes: Vec<Aabb<T, 3>> = (0..n)
            .map(|_| {
                let lo: [f64; 3] = core::array::from_fn(|_| centre + (r() - 0.5) * extent);
                let hi: [f64; 3] = core::array::from_fn(|a| lo[a] + r() * extent * 0.3);
                Aabb::new(lo.map(T::lit).into(), hi.map(T::lit).into()).expect("a valid box")
            })
            .collect();
        let mut node = WideNode::<T, W>::empty();
        node.quantize(&boxes);
        for (l, b) in boxes.iter().enumerate() {
            for a in 0..3 {
                let (ql, qh) = (node.qlo[a][l], node.qhi[a][l]);
                let ctx = format!("centre {centre} extent {extent} lane {l} axis {a}: q {ql}..{qh}");
                assert!(node.coord(a, ql) <= b.min()[a], "low bound inside the box, {ctx}");
                assert!(node.coord(a, qh) >= b.max()[a], "high bound inside the box, {ctx}");
                // Tight to a step only where a step spans several ulps of the coordinates.
                let ulp = T::epsilon() * (node.origin[a].abs() + T::lit(255.0) * node.scale[a]);
                if tight && node.scale[a] > T::lit(8.0) * ulp {
                    assert!(ql >= 254 || node.coord(a, ql + 2) > b.min()[a], "loose low bound, {ctx}");
                    assert!(qh <= 1 || node.coord(a, qh - 2) < b.max()[a], "loose high bound, {ctx}");
                }
            }
        }
    }

    #[test]
    fn quantized_children_hold_their_boxes() {
        for seed in 1..200u64 {
            let n = 1 + seed as usize % 8;
            // Ordinary frames: near the origin and well away from it, f32 and f64.
            for (centre, extent) in [(0.0, 1.0), (-3.0, 0.01), (250.0, 7.0), (1e-3, 1e-6)] {
                check_quantize::<f32, 8>(centre, extent, n, true, seed);
                check_quantize::<f64, 8>(centre, extent, n, true, seed);
                check_quantize::<f64, 4>(centre, extent, n.min(4), true, seed);
            }
            // Frames far from the origin for their extent, where one ulp of a coordinate spans
            // several quantization steps: the bounds must still hold (they cannot be tight to
            // a step there).
            check_quantize::<f32, 8>(1e6, 0.05, n, false, seed);
            check_quantize::<f32, 8>(-3e7, 1.0, n, false, seed);
            check_quantize::<f64, 8>(1e15, 0.01, n, false, seed);
        }
    }
    /// The per-ray axis modes: parallel where a component is zero, the folded form for
    /// ordinary directions, and the direct form where a component is so small that α or β
    /// could overflow (a 10⁻³⁰⁵ component in `f64`, 10⁻³⁶ in `f32`, against a soup 30 wide); in
    /// every mode the wide walk finds the binary walk's hits on a random triangle soup.
    #[test]
    fn axis_modes_by_direction_and_the_same_hits() {
        fn check<T: Real>(tiny: f64) {
            let mut r = unit_stream(7);
            let tris: Vec<cd_geom::Triangle<T, 3>> = (0..300)
                .map(|_| {
                    let c: [f64; 3] = core::array::from_fn(|_| (r() - 0.5) * 20.0);
                    let p = |r: &mut dyn FnMut() -> f64| {
                        Point::from(core::array::from_fn::<T, 3, _>(|a| T::lit(c[a] + (r() - 0.5) * 2.0)))
                    };
                    cd_geom::Triangle::new(p(&mut r), p(&mut r), p(&mut r)).expect("valid")
                })
                .collect();
            let mesh = crate::TriMesh::from_triangles(&tris).expect("valid");
            let bvh: crate::MeshBvh<T, Aabb<T, 3>> = crate::MeshBvh::new(mesh).expect("builds");
            let (lo, hi) = WideBvh::<T, 8>::from_binary(bvh.bvh()).nodes[0].frame();
            let mut ws = QueryWorkspace::new();
            let mut modes_seen = [false; 3];
            let mut hits = [0usize; 4];
            for k in 0..400 {
                let mut d: [f64; 3] = core::array::from_fn(|_| r() - 0.5);
                match k % 4 {
                    1 => d[1] = 0.0,
                    2 => d[2] = tiny,
                    3 => d[0] = -tiny,
                    _ => {}
                }
                // Aimed through a triangle's centroid from 15 units back, so most rays hit.
                let target = tris[k * 7 % tris.len()].centroid();
                let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
                let o: [f64; 3] = core::array::from_fn(|a| target[a].to_f64() - 15.0 * d[a] / len);
                let ray = Ray::new(Point::from(o.map(T::lit)), cd_geom::Vector::from(d.map(T::lit)))
                    .expect("valid");
                let lanes = RayLanes::new(&ray, rounding_pad(ray.origin(), &lo, &hi), &lo, &hi);
                for (a, m) in lanes.mode.iter().enumerate() {
                    let expected = match (d[a] == 0.0, d[a].abs() == tiny) {
                        (true, _) => AxisMode::Parallel,
                        (false, true) => AxisMode::Direct,
                        _ => AxisMode::Folded,
                    };
                    assert_eq!(*m, expected, "axis {a} of direction {d:?}");
                    modes_seen[*m as usize] = true;
                }
                let wide = bvh.cast_ray(&ray, &mut ws).map(|h| (h.triangle, h.t));
                let binary = bvh.cast_ray_binary(&ray, &mut ws).map(|h| (h.triangle, h.t));
                assert_eq!(wide, binary, "ray {k}: {o:?} along {d:?}");
                hits[k % 4] += usize::from(wide.is_some());
            }
            assert_eq!(modes_seen, [true; 3]);
            assert!(hits.iter().all(|&h| h >= 10), "each kind of ray hits the soup: {hits:?}");
        }
        check::<f64>(1e-305);
        check::<f32>(1e-36);
    }
}
