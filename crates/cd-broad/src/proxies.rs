//! The proxy store every strategy shares: dense arrays of ids and AABBs with an id → slot map,
//! so removal is O(1) (swap-remove) and iteration is cache-friendly.

use crate::id_hash::SlotTable;
use cd_geom::{ray_aabb, Aabb, Ray, Real};
use std::fmt;

/// The user's id for a proxy.
pub type ProxyId = u32;

/// Why a broad-phase call was refused (the structure is left unchanged).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BroadPhaseError {
    /// `insert` with an id that is already present.
    DuplicateId(ProxyId),
    /// `update` or `remove` with an id that is not present.
    UnknownId(ProxyId),
}

impl fmt::Display for BroadPhaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BroadPhaseError::DuplicateId(id) => write!(f, "proxy {id} is already in the broad phase"),
            BroadPhaseError::UnknownId(id) => write!(f, "proxy {id} is not in the broad phase"),
        }
    }
}

impl std::error::Error for BroadPhaseError {}

/// Dense proxy storage.
#[derive(Clone, Debug, Default)]
pub(crate) struct Proxies<T: Real, const D: usize> {
    pub(crate) ids: Vec<ProxyId>,
    pub(crate) boxes: Vec<Aabb<T, D>>,
    slot: SlotTable,
}

impl<T: Real, const D: usize> Proxies<T, D> {
    pub(crate) fn new() -> Self {
        Proxies { ids: Vec::new(), boxes: Vec::new(), slot: SlotTable::default() }
    }
    pub(crate) fn insert(&mut self, id: ProxyId, aabb: Aabb<T, D>) -> Result<(), BroadPhaseError> {
        if self.slot.contains(id) {
            return Err(BroadPhaseError::DuplicateId(id));
        }
        self.slot.insert(id, self.ids.len() as u32);
        self.ids.push(id);
        self.boxes.push(aabb);
        Ok(())
    }
    pub(crate) fn update(&mut self, id: ProxyId, aabb: Aabb<T, D>) -> Result<(), BroadPhaseError> {
        let s = self.slot.get(id).ok_or(BroadPhaseError::UnknownId(id))? as usize;
        self.boxes[s] = aabb;
        Ok(())
    }
    pub(crate) fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        let s = self.slot.remove(id).ok_or(BroadPhaseError::UnknownId(id))? as usize;
        self.ids.swap_remove(s);
        self.boxes.swap_remove(s);
        if s < self.ids.len() {
            self.slot.set(self.ids[s], s as u32);
        }
        Ok(())
    }
    /// The slot holding `id`.
    pub(crate) fn slot(&self, id: ProxyId) -> Option<u32> {
        self.slot.get(id)
    }
    pub(crate) fn get(&self, id: ProxyId) -> Option<Aabb<T, D>> {
        self.slot.get(id).map(|s| self.boxes[s as usize])
    }
    pub(crate) fn len(&self) -> usize {
        self.ids.len()
    }
    /// Linear AABB query (the strategies without a spatial index of their own use it).
    pub(crate) fn query_aabb(&self, aabb: &Aabb<T, D>, out: &mut Vec<ProxyId>) {
        out.extend(self.ids.iter().zip(&self.boxes).filter(|(_, b)| overlaps(b, aabb)).map(|(id, _)| *id));
    }
    /// Linear ray query.
    pub(crate) fn query_ray(&self, ray: &Ray<T, D>, out: &mut Vec<(ProxyId, T)>) {
        ray_scan(&self.ids, |s| Some(self.boxes[s]), ray, out);
    }
}

/// Linear ray query over slot arrays: every slot whose box `live_box` gives (the live ones) and
/// the ray hits, with the entry parameter.
pub(crate) fn ray_scan<T: Real, const D: usize>(
    ids: &[ProxyId],
    live_box: impl Fn(usize) -> Option<Aabb<T, D>>,
    ray: &Ray<T, D>,
    out: &mut Vec<(ProxyId, T)>,
) {
    for (s, &id) in ids.iter().enumerate() {
        if let Some(h) = live_box(s).and_then(|b| ray_aabb(ray, &b)) {
            out.push((id, h.t));
        }
    }
}

/// Closed-interval AABB overlap (touching counts).
#[inline(always)]
pub(crate) fn overlaps<T: Real, const D: usize>(a: &Aabb<T, D>, b: &Aabb<T, D>) -> bool {
    cd_geom::aabb_aabb(a, b)
}

/// The pair in canonical order.
#[inline(always)]
pub(crate) fn pair(a: ProxyId, b: ProxyId) -> (ProxyId, ProxyId) {
    if a < b {
        (a, b)
    } else {
        (b, a)
    }
}
