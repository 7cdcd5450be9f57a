//! Moving submodels (platforms, doors, trains): a world whose models stand at given
//! placements, and the carry and push they apply to a character (Quake 3 `G_MoverPush`).
//!
//! Takes a [`CompiledMap`] and each mover's [`ModelPlacement`]; gives a [`Tracer`] that sweeps
//! through the world and every mover and reports which model was hit, and whose point
//! contents are the world's and the movers' where they stand. Guarantees: the first impact
//! over all of them wins, ties going to the world, then to the lower model index, so
//! results do not depend on the order movers are listed in (nor do contents, a union).

use glam::{Mat3, Quat, Vec3};

use super::ids::TriggerList;
use super::tracer::{ShapeQuery, SpeedFacts, Tracer, WorldPart};
use crate::compiled::CompiledMap;
use crate::contents::Contents;
use crate::trace::{HitTarget, ModelPlacement, Trace};

/// A submodel and where it stands now.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mover {
    /// The model index (`*k` in the map is `k`; 0 is the world and is never a mover).
    pub model: usize,
    /// Its placement relative to where the map puts it.
    pub placement: ModelPlacement,
}

/// The static world plus movers at their current placements. What blocks is the query's
/// mask ([`ShapeQuery::mask`]).
#[derive(Clone, Copy, Debug)]
pub struct WorldWithMovers<'a> {
    /// The compiled map.
    pub map: &'a CompiledMap,
    /// The movers, each at its current placement.
    pub movers: &'a [Mover],
}

impl WorldWithMovers<'_> {
    /// `best`, the static world's answer, against the answer of every mover that `listed`
    /// picks, under the query's mask.
    fn with_movers(
        &self,
        mut best: Trace,
        query: &ShapeQuery<'_>,
        start: Vec3,
        end: Vec3,
        listed: impl Fn(&Mover) -> bool,
    ) -> Trace {
        let rotation = query.rotation.unwrap_or(Quat::IDENTITY);
        for mover in self.movers.iter().filter(|m| m.model != 0 && listed(m)) {
            let hit = self.map.trace_model_rotated(
                mover.model,
                &mover.placement,
                query.shape,
                rotation,
                start,
                end,
                query.mask,
            );
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
    /// The map (through the query's scratch) and the movers, the first impact winning.
    /// [`WorldPart::Fixed`] is the map alone, [`WorldPart::Moving`] the movers alone,
    /// [`WorldPart::Model`] the world model (0) where the map puts it or a listed mover at
    /// its placement (a model not listed is not in this world).
    fn trace(&self, query: &ShapeQuery<'_>, start: Vec3, end: Vec3) -> Trace {
        let whole = query.of_part(WorldPart::All);
        let map = || Tracer::trace(self.map, &whole, start, end);
        match query.part {
            WorldPart::All => self.with_movers(map(), query, start, end, |_| true),
            WorldPart::Fixed => map(),
            WorldPart::Moving => self.with_movers(Trace::miss(end), query, start, end, |_| true),
            WorldPart::Model(0) => map(),
            WorldPart::Model(k) => {
                self.with_movers(Trace::miss(end), query, start, end, |m| m.model == k)
            }
        }
    }

    /// The static world's contents ([`CompiledMap::point_contents`]) and every mover's at
    /// its placement: a moving water volume (Half-Life `func_water`, a Quake 2 door of
    /// water) is water where it stands now, and no longer where the map put it.
    fn contents(&self, point: Vec3) -> Contents {
        self.movers_contents(point, self.map.point_contents(point))
    }

    /// The world's currents ([`CompiledMap::point_current`]); a mover's water has none.
    fn current(&self, point: Vec3) -> Vec3 {
        self.map.point_current(point)
    }

    /// The map's triggers, where the map puts them (trigger models do not move).
    fn touch_triggers(
        &self,
        query: &ShapeQuery<'_>,
        start: Vec3,
        end: Vec3,
        touched: &mut TriggerList,
        inside: &mut TriggerList,
    ) {
        Tracer::touch_triggers(self.map, query, start, end, touched, inside);
    }

    /// The map is swept by every query; its contents are this world's while no mover is
    /// listed (with movers the contents move with them); any model, world or mover, may
    /// hold a ladder.
    fn speed_facts(&self) -> SpeedFacts<'_> {
        SpeedFacts {
            map: Some(self.map),
            map_is_fixed: false,
            moves_nothing: false,
            contents_are_map: self.movers.is_empty(),
            may_have_ladders: self.map.has_ladders(),
        }
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
