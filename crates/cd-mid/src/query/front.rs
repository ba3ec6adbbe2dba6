//! Front tracking: the cut of the bounding-volume test tree where the previous query stopped
//! (its non-overlapping node pairs and its leaf pairs) is kept, and the next query restarts
//! from it instead of from the two roots. With coherent motion most of the cut is unchanged, so
//! a frame costs about one volume test per front pair instead of a full descent.
//!
//! The front always is a cut: every leaf pair of the two hierarchies lies below exactly one of
//! its pairs, so restarting from it finds exactly what a query from the roots finds. Pairs that
//! overlap are refined downwards; when every child pair of a refinement has stopped overlapping
//! the group is replaced by its parent pair (the front moves up one level per frame), so a front
//! does not stay deep after the models separate.
//!
//! The descent rule (split the node with the larger surface area) must give the same tree every
//! frame: it does for rigid motion. After refitting either hierarchy, call [`Front::reset`].

use super::pairs::{collect_leaf_pairs, splits_a};
use super::QueryWorkspace;
use crate::motion::Motion;
use crate::node::BvhNode;
use crate::volume::HierarchyVolume;
use cd_geom::Real;

const NONE: u32 = u32::MAX;

/// A front pair and the pair it was refined from (`NONE` for the root pair).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    a: u32,
    b: u32,
    parent: (u32, u32),
}

/// The saved front of a model-vs-model query between frames.
#[derive(Clone, Debug, Default)]
pub struct Front {
    entries: Vec<Entry>,
    next: Vec<Entry>,
    /// Work lists kept between calls so a frame allocates nothing once they have grown.
    stack: Vec<Entry>,
    hits: Vec<bool>,
}

impl Front {
    /// An empty front: the first query starts from the roots.
    pub fn new() -> Self {
        Front::default()
    }

    /// Forgets the front (needed after either hierarchy is refitted or rebuilt).
    pub fn reset(&mut self) {
        self.entries.clear();
    }

    /// Number of node pairs on the front.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Is the front empty (no query run since the last reset)?
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// The pair the descent from the roots refines into `target` (replayed from the roots, using
/// the nested primitive ranges to pick the child on the way). `NONE` for the root pair.
fn bvtt_parent<T: Real, const D: usize, B: HierarchyVolume<T, D>, NA: BvhNode<B>, NB: BvhNode<B>>(
    a: &[NA],
    b: &[NB],
    target: (u32, u32),
) -> (u32, u32) {
    let (mut x, mut y) = (0u32, 0u32);
    let mut parent = (NONE, NONE);
    let contains = |outer: core::ops::Range<usize>, inner: core::ops::Range<usize>| {
        outer.start <= inner.start && inner.end <= outer.end
    };
    while (x, y) != target {
        let (na, nb) = (&a[x as usize], &b[y as usize]);
        parent = (x, y);
        if splits_a(na, nb) {
            let want = a[target.0 as usize].primitives();
            let Some(c) = na.children().find(|&c| contains(a[c].primitives(), want.clone())) else {
                return (NONE, NONE);
            };
            x = c as u32;
        } else {
            let want = b[target.1 as usize].primitives();
            let Some(c) = nb.children().find(|&c| contains(b[c].primitives(), want.clone())) else {
                return (NONE, NONE);
            };
            y = c as u32;
        }
    }
    parent
}

/// All primitive pairs whose leaf test is true, B placed by `motion`, restarting from `front`
/// (which is updated for the next frame). Equal to
/// [`overlapping_pairs`](super::overlapping_pairs) on the same input; sorted.
pub fn overlapping_pairs_from_front<T, const D: usize, B, NA, NB>(
    (a_nodes, a_order): (&[NA], &[u32]),
    (b_nodes, b_order): (&[NB], &[u32]),
    motion: &Motion<T, D>,
    front: &mut Front,
    ws: &mut QueryWorkspace<T>,
    mut overlap: impl FnMut(u32, u32) -> bool,
) -> Vec<(u32, u32)>
where
    T: Real,
    B: HierarchyVolume<T, D>,
    NA: BvhNode<B>,
    NB: BvhNode<B>,
{
    let mut out = Vec::new();
    if a_nodes.is_empty() || b_nodes.is_empty() {
        return out;
    }
    let identity = motion.is_identity();
    let test = |x: &B, y: &B| if identity { x.overlaps(y) } else { x.overlaps_moved(y, motion) };
    if front.entries.is_empty() {
        front.entries.push(Entry { a: 0, b: 0, parent: (NONE, NONE) });
    }
    let mut next = core::mem::take(&mut front.next);
    next.clear();
    let mut stack = core::mem::take(&mut front.stack);
    let mut hits = core::mem::take(&mut front.hits);
    let entries = &front.entries;
    let mut i = 0;
    while i < entries.len() {
        let parent = entries[i].parent;
        let mut j = i + 1;
        while j < entries.len() && parent.0 != NONE && entries[j].parent == parent {
            j += 1;
        }
        hits.clear();
        for e in &entries[i..j] {
            ws.stats.volume_tests += 1;
            hits.push(test(a_nodes[e.a as usize].volume(), b_nodes[e.b as usize].volume()));
        }
        // Lift: the whole child set of `parent` is here and none overlaps.
        if parent.0 != NONE && !hits.iter().any(|&h| h) {
            let (pa, pb) = (&a_nodes[parent.0 as usize], &b_nodes[parent.1 as usize]);
            let children = if splits_a(pa, pb) { pa.children().len() } else { pb.children().len() };
            if children == j - i {
                let grand = bvtt_parent(a_nodes, b_nodes, parent);
                next.push(Entry { a: parent.0, b: parent.1, parent: grand });
                i = j;
                continue;
            }
        }
        for (k, e) in entries[i..j].iter().enumerate() {
            if !hits[k] {
                next.push(*e);
                continue;
            }
            stack.push(*e);
            while let Some(e) = stack.pop() {
                let (na, nb) = (&a_nodes[e.a as usize], &b_nodes[e.b as usize]);
                if na.is_leaf() && nb.is_leaf() {
                    collect_leaf_pairs((na, a_order), (nb, b_order), ws, &mut overlap, &mut out);
                    next.push(e);
                    continue;
                }
                let split_a = splits_a(na, nb);
                let children = if split_a { na.children() } else { nb.children() };
                for c in children {
                    let (ca, cb) = if split_a { (c as u32, e.b) } else { (e.a, c as u32) };
                    let child = Entry { a: ca, b: cb, parent: (e.a, e.b) };
                    ws.stats.volume_tests += 1;
                    if test(a_nodes[ca as usize].volume(), b_nodes[cb as usize].volume()) {
                        stack.push(child);
                    } else {
                        next.push(child);
                    }
                }
            }
        }
        i = j;
    }
    // Siblings side by side, so a group whose pairs all stop overlapping is seen whole and
    // lifted next frame, however the descent interleaved them.
    next.sort_unstable_by_key(|e| (e.parent, e.a, e.b));
    front.next = core::mem::replace(&mut front.entries, next);
    front.stack = stack;
    front.hits = hits;
    out.sort_unstable();
    out
}
