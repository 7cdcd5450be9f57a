//! Moving submodels (platforms, doors, trains): a world whose models stand at given
//! placements, and the carry and push they apply to a character (Quake 3 `G_MoverPush`).
//!
//! Takes a [`CompiledMap`] and each mover's [`ModelPlacement`]; gives a [`Tracer`] that sweeps
//! through the world and every mover and reports which model was hit, and whose point
//! contents are the world's and the movers' where they stand. Guarantees: the first impact
//! over all of them wins, ties going to the world, then to the lower model index, so
//! results do not depend on the order movers are listed in (nor do contents, a union).

use glam::{Mat3, Vec3};

use super::ids::TriggerList;
use super::tracer::Tracer;
use crate::compiled::CompiledMap;
use crate::contents::Contents;
use crate::trace::{HitTarget, ModelPlacement, TickCache, Trace, TraceShape};

/// A submodel and where it stands now.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mover {
    /// The model index (`*k` in the map is `k`; 0 is the world and is never a mover).
    pub model: usize,
    /// Its placement relative to where the map puts it.
    pub placement: ModelPlacement,
}

/// The static world plus movers at their current placements.
#[derive(Clone, Copy, Debug)]
pub struct WorldWithMovers<'a> {
    /// The compiled map.
    pub map: &'a CompiledMap,
    /// The movers, each at its current placement.
    pub movers: &'a [Mover],
    /// What blocks (usually [`Contents::MASK_PLAYER_SOLID`]).
    pub mask: Contents,
}

impl WorldWithMovers<'_> {
    /// `best`, the static world's answer, against every mover's under `mask`.
    fn with_movers(
        &self,
        mut best: Trace,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        mask: Contents,
    ) -> Trace {
        for mover in self.movers.iter().filter(|m| m.model != 0) {
            let hit = self
                .map
                .trace_model(mover.model, &mover.placement, shape, start, end, mask);
            let start_solid = best.start_solid || hit.start_solid;
            let earlier = hit.fraction < best.fraction
                || (hit.fraction == best.fraction
                    && hit.fraction < 1.0
                    && hit.target.and_then(HitTarget::model)
                        < best.target.and_then(HitTarget::model));
            if hit.all_solid || (earlier && !best.all_solid) {
                best = hit;
            }
            best.start_solid = start_solid;
        }
        best
    }

    /// `world` (the static world's contents at `point`) with every mover's there added.
    fn movers_contents(&self, point: Vec3, world: Contents) -> Contents {
        let still = ModelPlacement::default();
        self.movers
            .iter()
            .filter(|m| m.model != 0)
            .fold(world, |all, mover| {
                let Some(model) = self.map.models().get(mover.model) else {
                    return all;
                };
                // The point in the model's own frame, where its tree and bounds are.
                let local = carried_point(model.origin, &mover.placement, &still, point);
                let inside = local.is_finite()
                    && local.cmpge(model.mins).all()
                    && local.cmple(model.maxs).all();
                match inside
                    .then(|| self.map.leaf_at(mover.model, local))
                    .flatten()
                {
                    Some(leaf) => all | leaf.contents,
                    None => all,
                }
            })
    }
}

impl Tracer for WorldWithMovers<'_> {
    fn trace(&self, shape: &TraceShape, start: Vec3, end: Vec3) -> Trace {
        self.trace_masked(shape, start, end, self.mask)
    }

    /// The static world's brushes near `region` ([`TickCache`]); movers are swept as ever.
    fn gather(&self, shapes: &[&TraceShape], region: (Vec3, Vec3), cache: &mut TickCache) {
        self.gather_masked(shapes, region, self.mask, cache);
    }

    fn trace_cached(&self, cache: &TickCache, shape: &TraceShape, start: Vec3, end: Vec3) -> Trace {
        self.trace_cached_masked(cache, shape, start, end, self.mask)
    }

    fn overlaps_cached(&self, cache: &TickCache, shape: &TraceShape, at: Vec3) -> bool {
        self.trace_cached(cache, shape, at, at).start_solid
    }

    /// The map and the movers under `mask` instead of [`WorldWithMovers::mask`].
    fn trace_masked(&self, shape: &TraceShape, start: Vec3, end: Vec3, mask: Contents) -> Trace {
        let world = self.map.trace(shape, start, end, mask);
        self.with_movers(world, shape, start, end, mask)
    }

    fn overlaps_masked(&self, shape: &TraceShape, at: Vec3, mask: Contents) -> bool {
        self.trace_masked(shape, at, at, mask).start_solid
    }

    /// Model `model` at its placement in [`WorldWithMovers::movers`] (the world model 0
    /// where the map puts it); a model not listed is not in this world.
    fn overlaps_model(&self, model: usize, shape: &TraceShape, at: Vec3) -> bool {
        if model == 0 {
            return self.map.overlaps(shape, at, self.mask);
        }
        self.movers.iter().filter(|m| m.model == model).any(|m| {
            self.map
                .trace_model(model, &m.placement, shape, at, at, self.mask)
                .start_solid
        })
    }

    fn gather_masked(
        &self,
        shapes: &[&TraceShape],
        region: (Vec3, Vec3),
        mask: Contents,
        cache: &mut TickCache,
    ) {
        self.map.gather_near(shapes, region, mask, cache);
    }

    fn trace_cached_masked(
        &self,
        cache: &TickCache,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        mask: Contents,
    ) -> Trace {
        let world = self.map.trace_cached(cache, shape, start, end, mask);
        self.with_movers(world, shape, start, end, mask)
    }

    fn overlaps_cached_masked(
        &self,
        cache: &TickCache,
        shape: &TraceShape,
        at: Vec3,
        mask: Contents,
    ) -> bool {
        self.trace_cached_masked(cache, shape, at, at, mask)
            .start_solid
    }

    /// The static world's contents ([`CompiledMap::point_contents`]) and every mover's at
    /// its placement: a moving water volume (Half-Life `func_water`, a Quake 2 door of
    /// water) is water where it stands now, and no longer where the map put it.
    fn contents(&self, point: Vec3) -> Contents {
        self.movers_contents(point, self.map.point_contents(point))
    }

    /// The world's three in one walk ([`CompiledMap::points_contents`]), then the movers'.
    fn contents3(&self, points: [Vec3; 3]) -> [Contents; 3] {
        let world = self.map.points_contents(points);
        if self.movers.is_empty() {
            return world;
        }
        [0, 1, 2].map(|k| self.movers_contents(points[k], world[k]))
    }

    /// The map's identity while no mover is listed; with movers the contents move with
    /// them, and nothing is reused.
    fn contents_id(&self) -> Option<u64> {
        if self.movers.is_empty() {
            Some(self.map.contents_id())
        } else {
            None
        }
    }

    /// The world's currents ([`CompiledMap::point_current`]); a mover's water has none.
    fn current(&self, point: Vec3) -> Vec3 {
        self.map.point_current(point)
    }

    /// Whether any model of the map, world or mover, holds a ladder.
    fn may_have_ladders(&self) -> bool {
        self.map.has_ladders()
    }

    /// The map's triggers, where the map puts them (trigger models do not move).
    fn touch_triggers(
        &self,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        touched: &mut TriggerList,
        inside: &mut TriggerList,
    ) {
        self.map.touch_triggers(shape, start, end, touched, inside);
    }
}

/// Where a point riding on a model goes when the model moves from `before` to `after`.
#[must_use]
pub fn carried_point(
    pivot: Vec3,
    before: &ModelPlacement,
    after: &ModelPlacement,
    p: Vec3,
) -> Vec3 {
    let undo = Mat3::from_quat(before.rotation.normalize()).transpose();
    let redo = Mat3::from_quat(after.rotation.normalize());
    let local = undo * (p - pivot - before.offset);
    pivot + after.offset + redo * local
}
