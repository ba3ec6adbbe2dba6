//! The part every strategy shares: proxies, events and the trait plumbing. A strategy only
//! supplies a [`PairFinder`], the algorithm that lists the overlapping pairs of the proxies.

use crate::events::PairEvents;
use crate::proxies::{BroadPhaseError, Proxies, ProxyId};
use crate::{BroadPhase, Pair};
use cd_geom::{Aabb, Ray, Real};

/// The algorithm part of a broad-phase strategy.
pub trait PairFinder<T: Real, const D: usize>: Default {
    /// Appends every overlapping pair of `proxies` (canonical `a < b`; duplicates allowed) to
    /// `out`.
    fn find(&mut self, ids: &[ProxyId], boxes: &[Aabb<T, D>], out: &mut Vec<Pair>);
}

/// A broad phase made of a [`PairFinder`] plus the shared proxy store and event bookkeeping.
#[derive(Clone, Debug, Default)]
pub struct Strategy<F, T: Real, const D: usize> {
    proxies: Proxies<T, D>,
    events: PairEvents,
    finder: F,
}

impl<F: PairFinder<T, D>, T: Real, const D: usize> Strategy<F, T, D> {
    /// An empty broad phase.
    pub fn new() -> Self {
        Strategy { proxies: Proxies::new(), events: PairEvents::new(), finder: F::default() }
    }
}

impl<F: PairFinder<T, D>, T: Real, const D: usize> BroadPhase<T, D> for Strategy<F, T, D> {
    fn insert(&mut self, id: ProxyId, aabb: Aabb<T, D>) -> Result<(), BroadPhaseError> {
        self.proxies.insert(id, aabb)
    }
    fn update(&mut self, id: ProxyId, aabb: Aabb<T, D>) -> Result<(), BroadPhaseError> {
        self.proxies.update(id, aabb)
    }
    fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        self.proxies.remove(id)
    }
    fn find_pairs(&mut self) {
        let out = self.events.staging();
        self.finder.find(&self.proxies.ids, &self.proxies.boxes, out);
        self.events.commit();
    }
    fn events(&self) -> &PairEvents {
        &self.events
    }
    fn query_aabb(&self, aabb: &Aabb<T, D>, out: &mut Vec<ProxyId>) {
        self.proxies.query_aabb(aabb, out)
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
