//! What an entity's class makes of its brushes in a built-in game: which classes' brushes
//! join the world model, which are triggers, and what a brush entity's model is to the game
//! ([`ModelKind`]: trigger, volume, static or mover).
//!
//! Takes a class name (and for a model its entity and whether any brush blocks); gives the
//! answer. Guarantees: class names compare case-insensitively; a pure function of its
//! inputs; every decision is the game's rule cited on the function. A custom game's entity
//! rules come first (`GameRules`, in this module's parent).

use crate::compiled::ModelKind;
use crate::contents::Contents;
use crate::game::Game;
use crate::map::MapEntity;

/// The entity classes whose brushes are world geometry.
const WORLD_CLASSES: [&str; 4] = [
    "worldspawn",
    "func_group",
    "func_detail",
    "func_detail_wall",
];

/// Whether brushes of an entity with this classname belong to the world model.
#[must_use]
pub fn is_world_class(classname: &str) -> bool {
    WORLD_CLASSES
        .iter()
        .any(|c| c.eq_ignore_ascii_case(classname))
}

/// Whether brushes of an entity with this classname are triggers (never solid).
#[must_use]
pub fn is_trigger_class(classname: &str) -> bool {
    classname
        .get(..8)
        .is_some_and(|p| p.eq_ignore_ascii_case("trigger_"))
}

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
pub(crate) fn model_kind(game: Game, entity: Option<&MapEntity>, blocks: bool) -> ModelKind {
    let classname = entity.map_or("", |e| e.classname());
    let is = |name: &str| classname.eq_ignore_ascii_case(name);
    if is_trigger_class(classname) {
        return ModelKind::Trigger;
    }
    if !blocks || is("func_illusionary") {
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

/// A brush's contents and whether it blocks once its entity has its say: a trigger
/// entity's brushes are its volume ([`Contents::TRIGGER`], which no blocking mask holds),
/// whatever their textures (Quake 3's `g_trigger.c` `InitTrigger` sets `CONTENTS_TRIGGER`;
/// Quake's and Quake 2's triggers are never solid); an origin brush (`origin_texture`, or
/// origin contents) stays a pivot. Every other brush keeps `textured` and blocks when solid.
pub(crate) fn entity_brush(trigger: bool, textured: Contents, origin_texture: bool) -> (Contents, bool) {
    let origin = origin_texture || textured.contains(Contents::ORIGIN);
    let contents = if trigger && !origin {
        Contents::TRIGGER
    } else {
        textured
    };
    (contents, contents.is_solid() && !trigger)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn world_and_trigger_classes() {
        assert!(is_world_class("worldspawn"));
        assert!(is_world_class("func_detail_wall"));
        assert!(!is_world_class("func_wall"));
        assert!(is_trigger_class("trigger_multiple"));
        assert!(!is_trigger_class("trigger"));
    }
}
