//! Drives every broad phase with one operation sequence decoded from arbitrary floats
//! (inserts, updates, removes, pair searches, box and ray queries; ids colliding, boxes huge,
//! tiny, flat or made of bad numbers) and checks each against a brute-force scan after every
//! step: same accepted and refused operations, same pairs, same events, same query answers.
//! Shared by the hostile-input property test (`tests/hostile.rs`) and the `broad_ops` fuzz
//! target (which includes this file).
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};

use cd_broad::*;
use cd_geom::{Aabb, Ray};
use nalgebra::{Point3, Vector3};

fn all_strategies() -> Vec<(&'static str, Box<dyn BroadPhase<f64, 3>>)> {
    vec![
        ("sort-and-sweep", Box::new(SortAndSweep::<f64, 3>::new())),
        ("spatial-hash", Box::new(SpatialHash::<f64, 3>::new())),
        ("uniform-grid", Box::new(UniformGrid::<f64, 3>::new())),
        ("hierarchical-grid", Box::new(HierarchicalGrid::<f64, 3>::new())),
        ("loose-octree", Box::new(LooseOctree::<f64, 3>::new())),
        ("dynamic-tree", Box::new(DynamicAabbTree::<f64, 3>::new())),
        ("coherent-grid", Box::new(CoherentGrid::<f64, 3>::new())),
        ("incremental-sap", Box::new(IncrementalSap::<f64, 3>::new())),
        ("incremental-sap-2-axes", Box::new(IncrementalSap::<f64, 3>::with_axes(2))),
    ]
}

/// Closed-interval overlap of every pair of the reference boxes.
fn pairs_of(world: &BTreeMap<ProxyId, Aabb<f64, 3>>) -> BTreeSet<(ProxyId, ProxyId)> {
    let v: Vec<(&ProxyId, &Aabb<f64, 3>)> = world.iter().collect();
    let mut out = BTreeSet::new();
    for i in 0..v.len() {
        for j in i + 1..v.len() {
            let (a, b) = (v[i].1, v[j].1);
            if (0..3).all(|k| a.min()[k] <= b.max()[k] && b.min()[k] <= a.max()[k]) {
                out.insert((*v[i].0, *v[j].0));
            }
        }
    }
    out
}

/// Runs the sequence encoded by `v` (eight numbers per operation).
pub fn run(v: &[f64]) {
    let mut phases = all_strategies();
    let mut world: BTreeMap<ProxyId, Aabb<f64, 3>> = BTreeMap::new();
    let mut before: BTreeSet<(ProxyId, ProxyId)> = BTreeSet::new();
    for op in v.chunks_exact(8).take(48) {
        // Ids come from a small range so inserts collide and removes find their targets.
        let id = if op[1].is_finite() { (op[1].abs() * 7.0) as u32 % 12 } else { 0 };
        let aabb = Aabb::new(
            Point3::new(op[2], op[3], op[4]),
            Point3::new(op[2] + op[5].abs(), op[3] + op[6].abs(), op[4] + op[7].abs()),
        );
        let code = if op[0].is_finite() { (op[0].abs() * 10.0) as u64 % 6 } else { 5 };
        match code {
            0 | 1 => {
                let Ok(b) = aabb else { continue };
                let expected = !world.contains_key(&id);
                for (name, p) in phases.iter_mut() {
                    assert_eq!(p.insert(id, b).is_ok(), expected, "{name}: insert {id}");
                }
                world.entry(id).or_insert(b);
            }
            2 if (op[0].abs() * 100.0) as u64 % 2 == 1 => {
                // A batch of two updates (`update_all`): applied in order up to the first
                // unknown id.
                let Ok(b) = aabb else { continue };
                let other = (id + 5) % 12;
                let Ok(c) = Aabb::new(b.min() + Vector3::repeat(op[5]), b.max() + Vector3::repeat(op[5]))
                else {
                    continue;
                };
                let batch = [(id, b), (other, c)];
                let known: Vec<bool> = batch.iter().map(|(i, _)| world.contains_key(i)).collect();
                let expected = known.iter().all(|&k| k);
                for (name, p) in phases.iter_mut() {
                    assert_eq!(p.update_all(&batch).is_ok(), expected, "{name}: update_all {batch:?}");
                }
                for (&(i, bx), _) in batch.iter().zip(&known).take_while(|(_, &k)| k) {
                    world.insert(i, bx);
                }
            }
            2 => {
                let Ok(b) = aabb else { continue };
                let expected = world.contains_key(&id);
                for (name, p) in phases.iter_mut() {
                    assert_eq!(p.update(id, b).is_ok(), expected, "{name}: update {id}");
                }
                if expected {
                    world.insert(id, b);
                }
            }
            3 => {
                let expected = world.remove(&id).is_some();
                for (name, p) in phases.iter_mut() {
                    assert_eq!(p.remove(id).is_ok(), expected, "{name}: remove {id}");
                }
            }
            4 => {
                let Ok(region) = aabb else { continue };
                let expected: BTreeSet<ProxyId> = world
                    .iter()
                    .filter(|(_, b)| {
                        (0..3).all(|k| b.min()[k] <= region.max()[k] && region.min()[k] <= b.max()[k])
                    })
                    .map(|(id, _)| *id)
                    .collect();
                for (name, p) in phases.iter() {
                    let mut out = Vec::new();
                    p.query_aabb(&region, &mut out);
                    assert_eq!(out.into_iter().collect::<BTreeSet<_>>(), expected, "{name}: box query");
                }
                if let Ok(ray) = Ray::new(Point3::new(op[2], op[3], op[4]), Vector3::new(op[5], op[6], op[7]))
                {
                    let hits: Vec<BTreeSet<ProxyId>> = phases
                        .iter()
                        .map(|(_, p)| {
                            let mut out = Vec::new();
                            p.query_ray(&ray, &mut out);
                            assert!(
                                out.iter().all(|(_, t)| t.is_finite() && *t >= 0.0),
                                "ray parameters are finite"
                            );
                            out.into_iter().map(|(id, _)| id).collect()
                        })
                        .collect();
                    for (h, (name, _)) in hits.iter().zip(&phases) {
                        assert_eq!(h, &hits[0], "{name}: ray query differs from {}", phases[0].0);
                    }
                }
            }
            _ => {
                let now = pairs_of(&world);
                let added: Vec<(ProxyId, ProxyId)> = now.difference(&before).copied().collect();
                let removed: Vec<(ProxyId, ProxyId)> = before.difference(&now).copied().collect();
                for (name, p) in phases.iter_mut() {
                    p.find_pairs();
                    assert_eq!(p.pairs().iter().copied().collect::<BTreeSet<_>>(), now, "{name}: pairs");
                    assert_eq!(p.added(), &added[..], "{name}: added");
                    assert_eq!(p.removed(), &removed[..], "{name}: removed");
                }
                before = now;
            }
        }
    }
}
