//! Continuous collision in the world: a CCD body's linear motion over the step is cast
//! against everything its swept box meets (cd-ccd's GJK shape cast for convex partners, the
//! facade's mesh cast for meshes, a closed form for half-spaces). When it would hit something
//! within the step, the body moves only up to the time of impact; the next step finds the
//! contact (now a touching, speculative one) and the solver responds. Rotation during the
//! step is not swept (the shape is cast at its current orientation), which is what the motion
//! clamp of mainstream engines does too; cd-ccd's conservative advancement covers rotation
//! for callers who need it.

use std::collections::BTreeMap;

use cd_ccd::{shape_cast, CastConfig, LinearMotion, Toi, ToiStatus};
use cd_geom::{Real, SupportMap, Transformed};
use cd_mid::QueryWorkspace;
use nalgebra::Vector3;

use crate::mesh_cast::cast_shape_mesh;
use crate::world::body::BodyKind;
use crate::world::shape::Placed;
use crate::world::{StepStats, World};

/// Calls `f` with the support map of a convex placed shape (`None` for the others).
fn with_support<T: Real, R>(placed: &Placed<T>, f: impl FnOnce(&dyn SupportMap<T, 3>) -> R) -> Option<R> {
    Some(match placed {
        Placed::Ball(b) => f(b),
        Placed::Cuboid(o) => f(o),
        Placed::Capsule(c) => f(c),
        Placed::Cylinder(c) => f(c),
        Placed::Cone(c) => f(c),
        Placed::Lozenge(l) => f(l),
        Placed::Triangle(t) => f(t),
        Placed::Segment(s) => f(s),
        Placed::Hull(h, pose) => f(&Transformed::new(&**h, *pose)),
        Placed::Mesh(..) | Placed::HalfSpace(_) | Placed::Compound(_) => return None,
    })
}

/// The first contact in `[0, dt]` of `a` moving at `va` with `b` moving at `vb` (A = `a`);
/// `None` when they do not meet or already touch (the solver has that contact).
pub(crate) fn first_impact<T: Real>(
    a: &Placed<T>,
    va: &Vector3<T>,
    b: &Placed<T>,
    vb: &Vector3<T>,
    dt: T,
    ws: &mut QueryWorkspace<T>,
) -> Option<Toi<T, 3>> {
    let earliest = |tois: &mut dyn Iterator<Item = Option<Toi<T, 3>>>| {
        tois.flatten().reduce(|x, y| if y.time < x.time { y } else { x })
    };
    match (a, b) {
        (Placed::Compound(parts), _) => {
            earliest(&mut parts.iter().map(|p| first_impact(p, va, b, vb, dt, ws)))
        }
        (_, Placed::Compound(parts)) => {
            earliest(&mut parts.iter().map(|p| first_impact(a, va, p, vb, dt, ws)))
        }
        (_, Placed::HalfSpace(plane)) => {
            let n = *plane.normal();
            let deepest = with_support(a, |s| s.support(&-n))?;
            let gap = plane.signed_distance(&deepest);
            let closing = -n.dot(&(va - vb));
            if !(gap > T::zero() && closing > T::zero() && gap <= closing * dt) {
                return None;
            }
            let time = gap / closing;
            let point_a = deepest + va * time;
            Some(Toi { time, point_a, point_b: point_a, normal: -n, status: ToiStatus::Converged })
        }
        (_, Placed::Mesh(mesh, pose)) => {
            let relative = pose.inverse_transform_vector(&(va - vb));
            let motion = LinearMotion::of_a(relative, dt).ok()?;
            let into_mesh = pose.inverse();
            let hit = with_support(a, |s| {
                let local = Transformed::new(s, into_mesh);
                cast_shape_mesh(&local, T::zero(), mesh, &motion, &CastConfig::default(), ws)
            })
            .flatten()
            .filter(|hit| hit.toi.status != ToiStatus::StartedInContact)?;
            // Back to world space: the mesh moved by vb·t meanwhile.
            let shift = vb * hit.toi.time;
            Some(Toi {
                point_a: pose * hit.toi.point_a + shift,
                point_b: pose * hit.toi.point_b + shift,
                normal: pose.rotation.transform_vector(&hit.toi.normal),
                ..hit.toi
            })
        }
        _ => {
            let motion = LinearMotion::new(*va, *vb, dt).ok()?;
            with_support(a, |sa| {
                with_support(b, |sb| {
                    shape_cast(sa, T::zero(), sb, T::zero(), &motion, &CastConfig::default())
                })
                .flatten()
            })
            .flatten()
            .filter(|toi| toi.status != ToiStatus::StartedInContact)
        }
    }
}

impl<T: Real> World<T> {
    /// How long each CCD body may move this step (bodies absent from the map move the whole
    /// step).
    pub(super) fn ccd_times(&mut self, dt: T, stats: &mut StepStats<T>) -> BTreeMap<u32, T> {
        let mut times = BTreeMap::new();
        let mut candidates = Vec::new();
        let mut ws = QueryWorkspace::new();
        for (i, slot) in self.slots.iter().enumerate() {
            let Some(body) = slot.body.as_ref() else { continue };
            if !body.ccd || body.kind != BodyKind::Dynamic {
                continue;
            }
            let v = body.rigid.linear_velocity;
            // A body that moves less than a quarter of its smallest extent cannot pass through
            // anything the speculative contacts did not already see.
            let extent = body.placed_aabb.half_extents().min();
            if v.norm() * dt <= extent * T::lit(0.5) {
                continue;
            }
            candidates.clear();
            self.candidates_in(&body.proxy_aabb, &mut candidates);
            candidates.sort_unstable();
            let mut earliest: Option<T> = None;
            for &j in &candidates {
                if j as usize == i {
                    continue;
                }
                let Some(other) = self.slots[j as usize].body.as_ref() else { continue };
                if !body.groups.interacts_with(&other.groups) {
                    continue;
                }
                let vb = if other.kind == BodyKind::Static {
                    Vector3::zeros()
                } else {
                    other.rigid.linear_velocity
                };
                if let Some(toi) = first_impact(&body.placed, &v, &other.placed, &vb, dt, &mut ws) {
                    earliest = Some(earliest.map_or(toi.time, |e| e.min(toi.time)));
                }
            }
            if let Some(t) = earliest {
                times.insert(i as u32, t);
                stats.ccd_impacts += 1;
            }
        }
        times
    }
}
