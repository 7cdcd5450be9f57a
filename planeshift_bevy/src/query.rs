//! Queries on the level as a system parameter, in Bevy's units and axes: the library's
//! [`Scene`] over the level's world, its movers where they stand and the plugin's characters.
//!
//! Takes the [`Simulation`] (world, movers, crowd) and the [`MapSpace`]; gives
//! [`LevelQuery`]: traces of any shape, hitscans that name the character or brush entity
//! hit, a shot along a character's view from its eye, area queries with distances, point
//! contents, each under a [`QueryFilter`] (contents mask, collision groups, a skipped
//! character by its entity). Everything is in Bevy units and axes, shapes included
//! ([`LevelShape`]); the forms that take and give map units say so in their names
//! (`*_map_units`). Guarantees: the answers are the library's ([`Scene::trace`],
//! [`Scene::overlapping`], [`Scene::point_contents`]), only converted between the spaces;
//! before the level loads, and for a shape the library refuses, every query answers `None`
//! (or nothing).

use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;
use glam::Vec3;
use planeshift::movement::Bodies;
use planeshift::{Contents, HitTarget, MoveCommand, Trace, TraceShape};
use planeshift::{QueryFilter, Scene, query::AreaHit};

use crate::shape::LevelShape;
use crate::simulation::Simulation;
use crate::space::MapSpace;

/// What a trace met, in Bevy units and axes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelHit {
    /// How far along the sweep it stopped, 0 to 1.
    pub fraction: f32,
    /// Where the shape stopped.
    pub end: Vec3,
    /// The surface normal (zero when nothing was hit).
    pub normal: Vec3,
    /// The contents hit.
    pub contents: Contents,
    /// The model hit (0 the world), when a brush was.
    pub model: Option<usize>,
    /// The entity hit: a character's, or a brush entity's (a mover, a static model); `None`
    /// for the world or nothing.
    pub entity: Option<Entity>,
    /// Whether anything was hit.
    pub hit: bool,
}

/// One thing an area query reached, in Bevy units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelAreaHit {
    /// The character's or brush entity's entity (`None` for a model without one).
    pub entity: Option<Entity>,
    /// What it is to the library: a model or a character id.
    pub target: HitTarget,
    /// From the query point to the nearest point of it, in Bevy units.
    pub distance: f32,
}

/// Queries on the level (like Avian's `SpatialQuery`).
///
/// ```no_run
/// use planeshift_bevy::prelude::*;
/// // A system: the shooter fires along its view from its eye, 100 m; whom did it hit?
/// fn shoot(query: LevelQuery, shooters: Query<Entity, With<Character>>) {
///     for shooter in &shooters {
///         let filter = QueryFilter::new(Contents::MASK_SHOT);
///         if let Some(hit) = query.fire_from_eye(shooter, 100.0, &filter) {
///             println!("{shooter:?} hit {:?} at {}", hit.entity, hit.end);
///         }
///     }
/// }
/// ```
#[derive(SystemParam)]
pub struct LevelQuery<'w, 's> {
    sim: Res<'w, Simulation>,
    space: Res<'w, MapSpace>,
    /// The library's area hits, kept between calls (no allocation once warm).
    scratch: Local<'s, Vec<AreaHit>>,
}

impl LevelQuery<'_, '_> {
    /// `filter` also skipping the character `entity` (the shooter); unchanged when
    /// `entity` is not a character.
    #[must_use]
    pub fn skipping(&self, filter: QueryFilter, entity: Entity) -> QueryFilter {
        match self.sim.id_of(entity) {
            Some(id) => filter.skip_character(id),
            None => filter,
        }
    }

    /// Runs `f` on the scene: the world, its movers and the characters.
    fn with_scene<R>(&self, f: impl FnOnce(&Scene<'_>) -> R) -> Option<R> {
        let map = self.sim.map()?;
        let empty = Bodies::new();
        let bodies = self.sim.crowd().map_or(&empty, |c| c.bodies());
        Some(f(&Scene {
            map,
            movers: &self.sim.movers,
            bodies,
        }))
    }

    /// The entity of what a query hit.
    fn entity_of(&self, target: Option<HitTarget>) -> Option<Entity> {
        match target? {
            HitTarget::Character(id) => self.sim.entity_of(id),
            HitTarget::Model(k) => self.sim.model_entity(k),
            HitTarget::World => None,
        }
    }

    /// The library's answer as a [`LevelHit`] in Bevy units.
    fn to_level_hit(&self, t: &Trace) -> LevelHit {
        LevelHit {
            fraction: t.fraction,
            end: self.space.to_bevy(t.end),
            normal: self.space.dir_to_bevy(t.normal.unwrap_or(Vec3::ZERO)),
            contents: t.contents,
            model: t.target.and_then(HitTarget::model),
            entity: self.entity_of(t.target),
            hit: t.hit(),
        }
    }

    /// Sweeps `shape` from `from` to `to` through the world, its movers and the characters
    /// under `filter`, all in Bevy units; `None` before the level loads or for a shape the
    /// library refuses.
    #[must_use]
    pub fn trace(
        &self,
        shape: &LevelShape,
        from: Vec3,
        to: Vec3,
        filter: &QueryFilter,
    ) -> Option<LevelHit> {
        let shape = shape.to_map(&self.space)?;
        let (from, to) = (self.space.to_map(from), self.space.to_map(to));
        let t = self.with_scene(|scene| scene.trace(&shape, from, to, filter))?;
        Some(self.to_level_hit(&t))
    }

    /// [`LevelQuery::trace`] in map units and axes throughout: the library's shape, ends and
    /// answer, bit for bit what [`Scene::trace`] gives.
    #[must_use]
    pub fn trace_map_units(
        &self,
        shape: &TraceShape,
        from: Vec3,
        to: Vec3,
        filter: &QueryFilter,
    ) -> Option<Trace> {
        self.with_scene(|scene| scene.trace(shape, from, to, filter))
    }

    /// A hitscan: a point swept from `from` to `to` (Bevy units).
    #[must_use]
    pub fn hitscan(&self, from: Vec3, to: Vec3, filter: &QueryFilter) -> Option<LevelHit> {
        self.trace(&LevelShape::Point, from, to, filter)
    }

    /// A shot from a character's eye along its view, `range` Bevy units long, that never
    /// hits the shooter: the view and eye of the character's last fixed step (what the
    /// server simulated, as Quake fires from). `None` for an entity that is not a character,
    /// or before its first step.
    #[must_use]
    pub fn fire_from_eye(
        &self,
        shooter: Entity,
        range: f32,
        filter: &QueryFilter,
    ) -> Option<LevelHit> {
        let id = self.sim.id_of(shooter)?;
        let [pitch, yaw] = self.sim.view_of(id)?;
        let eye = self.sim.crowd()?.get(id)?.eye_position();
        let command = MoveCommand {
            pitch,
            yaw,
            forward: 0.0,
            side: 0.0,
            up: 0.0,
        };
        let (forward, _, _) = command.view_vectors();
        let end = eye + forward * self.space.length_to_map(range);
        let filter = filter.skip_character(id);
        let t = self.with_scene(|scene| scene.trace(&TraceShape::point(), eye, end, &filter))?;
        Some(self.to_level_hit(&t))
    }

    /// Everything `shape` at `at` reaches under `filter`, with distances (an explosion's
    /// sphere), all in Bevy units; uncapped, into `hits` (cleared first; left empty for a
    /// shape the library refuses).
    pub fn overlapping(
        &mut self,
        shape: &LevelShape,
        at: Vec3,
        filter: &QueryFilter,
        hits: &mut Vec<LevelAreaHit>,
    ) {
        hits.clear();
        let Some(shape) = shape.to_map(&self.space) else {
            return;
        };
        let at = self.space.to_map(at);
        let mut found = std::mem::take(&mut *self.scratch);
        let _ = self.with_scene(|scene| scene.overlapping(&shape, at, filter, &mut found));
        hits.extend(found.iter().map(|h| LevelAreaHit {
            entity: self.entity_of(Some(h.target)),
            target: h.target,
            distance: self.space.length_to_bevy(h.distance),
        }));
        found.clear();
        *self.scratch = found;
    }

    /// [`LevelQuery::overlapping`] in map units throughout: the library's shape, point and
    /// area hits ([`Scene::overlapping`]), into `hits` (cleared first).
    pub fn overlapping_map_units(
        &self,
        shape: &TraceShape,
        at: Vec3,
        filter: &QueryFilter,
        hits: &mut Vec<AreaHit>,
    ) {
        hits.clear();
        let _ = self.with_scene(|scene| scene.overlapping(shape, at, filter, hits));
    }

    /// The contents at a point (Bevy): the world's, the movers' and the characters'.
    #[must_use]
    pub fn point_contents(&self, at: Vec3) -> Option<Contents> {
        let at = self.space.to_map(at);
        self.with_scene(|scene| scene.point_contents(at))
    }
}
