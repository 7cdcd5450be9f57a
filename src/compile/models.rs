//! The entity rules of a compile: what each brush entity's model is to its game
//! ([`ModelKind`]), its bounds and its pivot.
//!
//! Takes a brush entity, its brushes and the game's rules; gives the model's kind, bounds and
//! `origin` key. Guarantees: the world is never asked about (model 0 is always
//! [`ModelKind::World`]); every decision is the game's rule cited on the function.

use glam::{DVec3, Vec3};

use crate::brush::{Brush, GameRules, is_trigger_class};
use crate::compiled::ModelKind;
use crate::game::Game;
use crate::game::custom::EntityMeaning;
use crate::map::Entity;

/// Quake 3's brush entities that move (`g_spawn.c`: doors, platforms, buttons, rotating,
/// bobbing and swinging things, trains).
const QUAKE3_MOVERS: [&str; 7] = [
    "func_door",
    "func_plat",
    "func_button",
    "func_rotating",
    "func_bobbing",
    "func_pendulum",
    "func_train",
];

/// What a brush entity's model is to its game (the entity rules; a submodel, never the
/// world):
/// - `trigger_*` entities are [`ModelKind::Trigger`] volumes;
/// - a model none of whose brushes blocks is a [`ModelKind::Volume`], and so is
///   `func_illusionary` in every game, and in Quake 3 every class baseq3 spawns no entity for
///   (`func_wall`, `func_illusionary`, …: `G_CallSpawn` frees them);
/// - `func_wall` (Quake, Quake 2 unless spawnflags 1 or 2 make it appear or toggle,
///   Half-Life) and `func_static` (Quake 3's "bmodel that just sits there") are
///   [`ModelKind::Static`]: they block in the world sweep;
/// - every other blocking brush entity is a [`ModelKind::Mover`] the game moves.
pub(super) fn model_kind(game: Game, entity: Option<&Entity>, brushes: &[&Brush]) -> ModelKind {
    let classname = entity.map_or("", |e| e.classname());
    let is = |name: &str| classname.eq_ignore_ascii_case(name);
    if is_trigger_class(classname) {
        return ModelKind::Trigger;
    }
    if !brushes.iter().any(|b| b.solid) || is("func_illusionary") {
        return ModelKind::Volume;
    }
    let spawnflags = entity
        .and_then(|e| e.get("spawnflags"))
        .and_then(|v| v.trim().parse::<i64>().ok())
        .unwrap_or(0);
    match game {
        Game::Quake3 if is("func_static") => ModelKind::Static,
        Game::Quake3 if QUAKE3_MOVERS.iter().any(|m| is(m)) => ModelKind::Mover,
        Game::Quake3 => ModelKind::Volume,
        // Quake 2's TRIGGER_SPAWN (1) and TOGGLE (2) make a wall the game shows and hides.
        Game::Quake2 if is("func_wall") && spawnflags & 3 != 0 => ModelKind::Mover,
        _ if is("func_wall") || is("func_static") => ModelKind::Static,
        _ => ModelKind::Mover,
    }
}

/// What a custom game's entity rule makes of a brush entity's model
/// ([`EntityClass`](crate::EntityClass)); `None` when no rule matches (the base game's
/// [`model_kind`] decides). Classes merged into the world have no model.
pub(super) fn custom_model_kind(
    rules: GameRules<'_>,
    entity: Option<&Entity>,
    brushes: &[&Brush],
) -> Option<ModelKind> {
    let meaning = rules.entity_meaning(entity.map_or("", |e| e.classname()))?;
    let blocks = brushes.iter().any(|b| b.solid);
    Some(match meaning {
        EntityMeaning::Trigger => ModelKind::Trigger,
        EntityMeaning::Solid { moves: true } if blocks => ModelKind::Mover,
        EntityMeaning::Solid { moves: false } if blocks => ModelKind::Static,
        _ => ModelKind::Volume,
    })
}

/// The bounds of `brushes` (zero for none).
pub(super) fn model_bounds(brushes: &[&Brush]) -> (Vec3, Vec3) {
    if brushes.is_empty() {
        return (Vec3::ZERO, Vec3::ZERO);
    }
    let mins = brushes.iter().fold(DVec3::INFINITY, |m, b| m.min(b.mins));
    let maxs = brushes
        .iter()
        .fold(DVec3::NEG_INFINITY, |m, b| m.max(b.maxs));
    (mins.as_vec3(), maxs.as_vec3())
}

/// The entity's `origin` key as three finite numbers within the world limit.
pub(super) fn origin_key(entity: &Entity) -> Option<Vec3> {
    let v = entity.origin()?;
    (v.abs().max_element() <= crate::tolerance::MAX_MAP_COORD).then_some(v.as_vec3())
}
