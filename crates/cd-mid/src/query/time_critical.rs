//! Time-critical collision detection (Hubbard 1996): the bounding-volume test tree is refined
//! breadth-first (or largest pair first) under a budget of volume tests; when the budget runs
//! out the query returns the primitive pairs confirmed so far and the node pairs still
//! overlapping — a uniform, coarser-than-exact answer — and says whether it finished. With an
//! unlimited budget it equals the full query.

use super::pairs::{collect_leaf_pairs, splits_a};
use super::QueryWorkspace;
use crate::motion::Motion;
use crate::node::BvhNode;
use crate::volume::HierarchyVolume;
use cd_geom::Real;
use std::collections::{BinaryHeap, VecDeque};

/// The order in which overlapping node pairs are refined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refinement {
    /// Level by level (Hubbard's uniform refinement).
    BreadthFirst,
    /// The pair with the largest combined surface area first (the coarsest, most uncertain
    /// approximation is refined before finer ones).
    LargestFirst,
}

/// What a time-critical query found within its budget.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TimeCriticalResult {
    /// Primitive pairs whose leaf test was true, sorted.
    pub pairs: Vec<(u32, u32)>,
    /// Node pairs (A node, B node) that overlap but were not refined: where further contact may
    /// be. Empty when `complete`.
    pub pending: Vec<(u32, u32)>,
    /// Did the query finish within the budget (then `pairs` is exact)?
    pub complete: bool,
}

/// Model-vs-model overlap with at most `budget` volume tests, refining in `order`.
pub fn overlapping_pairs_time_critical<T, const D: usize, B, NA, NB>(
    (a_nodes, a_order): (&[NA], &[u32]),
    (b_nodes, b_order): (&[NB], &[u32]),
    motion: &Motion<T, D>,
    budget: u64,
    order: Refinement,
    ws: &mut QueryWorkspace<T>,
    mut overlap: impl FnMut(u32, u32) -> bool,
) -> TimeCriticalResult
where
    T: Real,
    B: HierarchyVolume<T, D>,
    NA: BvhNode<B>,
    NB: BvhNode<B>,
{
    let mut result = TimeCriticalResult { complete: true, ..Default::default() };
    if a_nodes.is_empty() || b_nodes.is_empty() {
        return result;
    }
    let test = |x: &B, y: &B| x.overlaps_moved(y, motion);
    let mut spent = 1u64;
    ws.stats.volume_tests += 1;
    if !test(a_nodes[0].volume(), b_nodes[0].volume()) {
        return result;
    }
    let area = |x: u32, y: u32| {
        (a_nodes[x as usize].volume().surface_area() + b_nodes[y as usize].volume().surface_area()).to_f64()
    };
    let mut queue = Pending::new(order);
    queue.push((0, 0), area(0, 0));
    while let Some((x, y)) = queue.pop() {
        let (na, nb) = (&a_nodes[x as usize], &b_nodes[y as usize]);
        if na.is_leaf() && nb.is_leaf() {
            collect_leaf_pairs((na, a_order), (nb, b_order), ws, &mut overlap, &mut result.pairs);
            continue;
        }
        let split_a = splits_a(na, nb);
        let children = if split_a { na.children() } else { nb.children() };
        if spent + children.len() as u64 > budget {
            queue.push((x, y), area(x, y));
            result.complete = false;
            break;
        }
        for c in children {
            let (ca, cb) = if split_a { (c as u32, y) } else { (x, c as u32) };
            spent += 1;
            ws.stats.volume_tests += 1;
            if test(a_nodes[ca as usize].volume(), b_nodes[cb as usize].volume()) {
                queue.push((ca, cb), area(ca, cb));
            }
        }
    }
    result.pending = queue.drain();
    result.pairs.sort_unstable();
    result
}

/// A pair with its priority, ordered by the priority (total order on `f64`).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Prioritized(f64, (u32, u32));

impl Eq for Prioritized {}

impl PartialOrd for Prioritized {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Prioritized {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.0.total_cmp(&other.0).then(other.1.cmp(&self.1))
    }
}

/// The work list: a FIFO queue for breadth-first refinement, a max-heap on surface area for
/// largest-first.
enum Pending {
    Fifo(VecDeque<(u32, u32)>),
    Heap(BinaryHeap<Prioritized>),
}

impl Pending {
    fn new(order: Refinement) -> Self {
        match order {
            Refinement::BreadthFirst => Pending::Fifo(VecDeque::new()),
            Refinement::LargestFirst => Pending::Heap(BinaryHeap::new()),
        }
    }
    fn push(&mut self, pair: (u32, u32), priority: f64) {
        match self {
            Pending::Fifo(q) => q.push_back(pair),
            Pending::Heap(h) => h.push(Prioritized(priority, pair)),
        }
    }
    fn pop(&mut self) -> Option<(u32, u32)> {
        match self {
            Pending::Fifo(q) => q.pop_front(),
            Pending::Heap(h) => h.pop().map(|p| p.1),
        }
    }
    fn drain(self) -> Vec<(u32, u32)> {
        let mut v: Vec<(u32, u32)> = match self {
            Pending::Fifo(q) => q.into_iter().collect(),
            Pending::Heap(h) => h.into_iter().map(|p| p.1).collect(),
        };
        v.sort_unstable();
        v
    }
}
