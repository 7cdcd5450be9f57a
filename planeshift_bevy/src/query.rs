//! Queries on the level as a system parameter, in Bevy's units and axes.
//!
//! Takes the [`Simulation`]'s world and the [`MapSpace`]; gives [`LevelQuery`]: traces of any
//! shape, hitscans and point contents. Guarantees: the answers are the library's
//! (`CompiledMap::trace`, `point_contents`), only converted; before the level loads every
//! query answers `None`.

use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;
use glam::Vec3;
use planeshift::{Contents, TraceShape};

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
    /// The model hit (0 the world), when something was.
    pub model: Option<usize>,
    /// Whether anything was hit.
    pub hit: bool,
}

/// Queries on the level (like Avian's `SpatialQuery`).
#[derive(SystemParam)]
pub struct LevelQuery<'w> {
    sim: Res<'w, Simulation>,
    space: Res<'w, MapSpace>,
}

impl LevelQuery<'_> {
    /// Sweeps `shape` (map units: shapes keep the map's sizes) from `from` to `to` (Bevy).
    #[must_use]
    pub fn trace(
        &self,
        shape: &TraceShape,
        from: Vec3,
        to: Vec3,
        mask: Contents,
    ) -> Option<LevelHit> {
        let map = self.sim.map()?;
        let t = map.trace(shape, self.space.to_map(from), self.space.to_map(to), mask);
        Some(LevelHit {
            fraction: t.fraction,
            end: self.space.to_bevy(t.end),
            normal: self.space.dir_to_bevy(t.normal.unwrap_or(Vec3::ZERO)),
            contents: t.contents,
            model: t.model,
            hit: t.hit(),
        })
    }

    /// A hitscan: a point swept from `from` to `to`.
    #[must_use]
    pub fn hitscan(&self, from: Vec3, to: Vec3, mask: Contents) -> Option<LevelHit> {
        self.trace(&TraceShape::point(), from, to, mask)
    }

    /// The contents at a point (Bevy).
    #[must_use]
    pub fn point_contents(&self, at: Vec3) -> Option<Contents> {
        Some(self.sim.map()?.point_contents(self.space.to_map(at)))
    }
}
