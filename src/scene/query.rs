//! [`Scene`]: one query across the world, its movers at their placements and a crowd's
//! characters (Quake 3 `sv_world.c SV_Trace`, Rapier's `QueryPipeline`).
//!
//! Takes a compiled map, its movers ([`Mover`]) and the characters' [`Bodies`]; gives
//! traces and overlaps under a [`QueryFilter`], each hit named by a [`HitTarget`].
//! Guarantees: the stop is the earliest of the world's sweep, each unskipped mover's and
//! each character's exact shape-to-shape sweep (`trace/body.rs`) whose contents meet the
//! mask and whose groups interact; at a tie the world, then the lowest model, then the
//! lowest character id; characters are found through the bodies' grid, so a query far
//! from every character costs the world sweep and one grid lookup; no allocation.

use glam::Vec3;

use crate::compiled::CompiledMap;
use crate::contents::Contents;
use crate::controller::{Bodies, Mover};
use crate::filter::{HitTarget, QueryFilter};
use crate::tolerance::SURFACE_CLIP_EPSILON;
use crate::trace::{Trace, TraceShape, Upright, trace_upright, uprights_overlap};

/// A scene query's answer: the sweep, and what stopped it.
#[derive(Clone, Copy, Debug)]
pub struct SceneHit {
    /// The sweep, with the [`Trace`] contract.
    pub trace: Trace,
    /// What stopped it; `None` when nothing did.
    pub target: Option<HitTarget>,
}

/// The world, its movers where they stand now, and the characters, queried together.
///
/// # Examples
/// ```
/// use glam::Vec3;
/// use planeshift::{Contents, TraceShape};
/// use planeshift::controller::Bodies;
/// use planeshift::scene::{HitTarget, QueryFilter, Scene};
/// let map = planeshift::compile_map(&std::fs::read("maps/box_room.map")?)?.map;
/// let player = TraceShape::aabb(Vec3::new(-15.0, -15.0, -24.0), Vec3::new(15.0, 15.0, 32.0)).ok_or("box")?;
/// let mut bodies = Bodies::new();
/// bodies.insert(1, &player, Vec3::new(-100.0, 0.0, 25.0));
/// bodies.insert(2, &player, Vec3::new(100.0, 0.0, 25.0));
/// bodies.set_contents(2, Contents::CORPSE);
/// let scene = Scene { map: &map, movers: &[], bodies: &bodies };
/// let eye = Vec3::new(-100.0, 0.0, 50.0);
/// // The shooter is skipped; the shot hits the corpse 100 units on.
/// let shot = QueryFilter::new(Contents::MASK_SHOT).skip_character(1);
/// let hit = scene.trace(&TraceShape::point(), eye, eye + Vec3::X * 1000.0, &shot);
/// assert_eq!(hit.target, Some(HitTarget::Character(2)));
/// assert!((hit.trace.end.x - (85.0 - 1.0 / 32.0)).abs() < 1e-3);
/// // A player's movement mask passes corpses: the wall stops it.
/// let walk = QueryFilter::new(Contents::MASK_PLAYER_SOLID).skip_character(1);
/// let hit = scene.trace(&TraceShape::point(), eye, eye + Vec3::X * 1000.0, &walk);
/// assert_eq!(hit.target, Some(HitTarget::World));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Scene<'a> {
    /// The compiled map.
    pub map: &'a CompiledMap,
    /// Its movers at their current placements.
    pub movers: &'a [Mover],
    /// The characters.
    pub bodies: &'a Bodies,
}

impl Scene<'_> {
    /// The first impact of `shape` moving from `start` to `end` under `filter`.
    #[must_use]
    pub fn trace(
        &self,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        filter: &QueryFilter,
    ) -> SceneHit {
        let mut best = self.trace_models(shape, start, end, filter);
        if !best.all_solid && !self.bodies.is_empty() {
            self.trace_bodies(shape, start, end, filter, &mut best);
        }
        SceneHit {
            target: if best.fraction < 1.0 || best.start_solid {
                HitTarget::of(&best)
            } else {
                None
            },
            trace: best,
        }
    }

    /// Whether `shape` placed at `at` overlaps anything `filter` meets (touching counts).
    #[must_use]
    pub fn overlap(&self, shape: &TraceShape, at: Vec3, filter: &QueryFilter) -> bool {
        if self.trace_models(shape, at, at, filter).start_solid {
            return true;
        }
        let parts = Upright::of(shape);
        let (low, high) = parts.bounds();
        let mut any = false;
        self.bodies.for_each_body_in(
            (at + low, at + high),
            |id, contents, groups, other, other_at| {
                any = any
                    || (filter.meets_character(id, contents, groups)
                        && uprights_overlap(&parts, at, other, other_at));
            },
        );
        any
    }

    /// What is at `point`: the world's and static models' contents, every mover's where it
    /// stands, and the contents of every character whose shape holds the point.
    #[must_use]
    pub fn point_contents(&self, point: Vec3) -> Contents {
        let mut all = self.map.point_contents(point);
        let probe = Vec3::splat(SURFACE_CLIP_EPSILON);
        for mover in self.movers.iter().filter(|m| m.model != 0) {
            let hit = self.map.trace_model(
                mover.model,
                &mover.placement,
                &TraceShape::point(),
                point,
                point,
                Contents(u32::MAX),
            );
            if hit.start_solid {
                all |= hit.contents;
            }
        }
        let point_parts = Upright::of(&TraceShape::point());
        self.bodies.for_each_body_in(
            (point - probe, point + probe),
            |_, contents, _, other, at| {
                if uprights_overlap(&point_parts, point, other, at) {
                    all |= contents;
                }
            },
        );
        all
    }

    /// The world's sweep (static models included) against every unskipped mover's.
    fn trace_models(
        &self,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        filter: &QueryFilter,
    ) -> Trace {
        let mut best = self.map.trace(shape, start, end, filter.mask);
        if best.model.is_some_and(|m| !filter.meets_model(m)) {
            // A skipped static model stopped the world's sweep: sweep the world model alone.
            best = self
                .map
                .trace_model(0, &Default::default(), shape, start, end, filter.mask);
        }
        for mover in self
            .movers
            .iter()
            .filter(|m| m.model != 0 && filter.meets_model(m.model))
        {
            let hit = self.map.trace_model(
                mover.model,
                &mover.placement,
                shape,
                start,
                end,
                filter.mask,
            );
            let start_solid = best.start_solid || hit.start_solid;
            let earlier = hit.fraction < best.fraction
                || (hit.fraction == best.fraction && hit.fraction < 1.0 && hit.model < best.model);
            if hit.all_solid || (earlier && !best.all_solid) {
                best = hit;
            }
            best.start_solid = start_solid;
        }
        best
    }

    /// `best` against every character the filter meets near the sweep.
    fn trace_bodies(
        &self,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        filter: &QueryFilter,
        best: &mut Trace,
    ) {
        let parts = Upright::of(shape);
        let (low, high) = parts.bounds();
        let margin = Vec3::splat(SURFACE_CLIP_EPSILON);
        let area = (
            start.min(end) + low - margin,
            start.max(end) + high + margin,
        );
        self.bodies
            .for_each_body_in(area, |id, contents, groups, other, other_at| {
                if !filter.meets_character(id, contents, groups) {
                    return;
                }
                let lower = best.character.is_none_or(|k| id < k);
                if best.all_solid && !lower {
                    return;
                }
                let mut hit = trace_upright(shape, &parts, start, end, other, other_at);
                hit.character = Some(id);
                hit.contents = contents;
                let start_solid = best.start_solid || hit.start_solid;
                let earlier = hit.fraction < best.fraction
                    || (hit.fraction == best.fraction
                        && hit.fraction < 1.0
                        && best.character.is_some_and(|k| id < k));
                let take = if best.all_solid {
                    hit.all_solid
                } else {
                    hit.all_solid || earlier
                };
                if take {
                    *best = hit;
                }
                best.start_solid = start_solid;
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_rule_names_a_character_a_model_or_the_world() {
        // A crowd's touch says model 0 for a character; a trace says None: both name it.
        for model in [None, Some(0), Some(3)] {
            assert_eq!(
                HitTarget::from_parts(Some(7), model),
                Some(HitTarget::Character(7))
            );
        }
        assert_eq!(HitTarget::from_parts(None, Some(0)), Some(HitTarget::World));
        assert_eq!(
            HitTarget::from_parts(None, Some(3)),
            Some(HitTarget::Model(3))
        );
        assert_eq!(HitTarget::from_parts(None, None), None);
        let miss = Trace::miss(Vec3::ONE);
        assert_eq!(HitTarget::of(&miss), None);
    }
}
