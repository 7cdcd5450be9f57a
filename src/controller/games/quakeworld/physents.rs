//! The other players as QuakeWorld's player code meets them: its `physents` past the world
//! (`sv_user.c AddLinksToPmove` lists every other solid entity near the move; `pmovetst.c
//! PM_PlayerMove` and `PM_TestPlayerPosition` clip the player's point against each one's
//! box grown by the player's own box, `PM_HullForBox`, and keep the nearest answer).
//!
//! Takes the world through the seam (a crowd's world with its bodies, [`WorldWithBodies`])
//! and the world's own answer for a move or a position; gives the answer with the bodies
//! counted. A body grown by the player's box and met by the player's point is the player's
//! box met by the body, so the bodies are asked with the player's box, `(−16,−16,−24)–
//! (16,16,32)` about the origin, under [`WorldPart::Moving`] (the world's moving part: the
//! crowd's bodies).
//!
//! Guarantees: the world's answer stands unless a body is met strictly nearer (the world is
//! the game's physent 0, and a later physent replaces the total only when its fraction is
//! smaller); a body the start overlaps gives fraction 0 and no move, as the game's. A world
//! with nothing moving ([`SpeedFacts::moves_nothing`], a [`CompiledMap`] alone, as the
//! reference replays run) or that cannot tell its parts apart (not
//! [`SpeedFacts::map_is_fixed`]: its moving part may be all of it, the clip hull's brushes
//! a box must not sweep) is asked nothing more, so its answers are the world's, bit for bit.
//!
//! [`WorldWithBodies`]: crate::movement::WorldWithBodies
//! [`SpeedFacts::moves_nothing`]: crate::controller::SpeedFacts::moves_nothing
//! [`SpeedFacts::map_is_fixed`]: crate::controller::SpeedFacts::map_is_fixed
//! [`CompiledMap`]: crate::CompiledMap

use glam::Vec3;

use super::pmtrace::HullTrace;
use crate::controller::{ShapeQuery, Tracer, WorldPart};
use crate::trace::TraceShape;

/// The player's box about its origin, or `None` when `world` holds no bodies to meet.
fn player_box<T: Tracer + ?Sized>(world: &T) -> Option<TraceShape> {
    let facts = world.speed_facts();
    if facts.moves_nothing || !facts.map_is_fixed {
        return None;
    }
    Some(body())
}

/// A QuakeWorld character's body: the player's box about its origin, the box qbsp grew the
/// world by for clip hull 1, which its movement walks. `CharacterController::new` gives a
/// character moving by [`Movement::QuakeWorld`](crate::movement::Movement::QuakeWorld) this
/// shape whatever its configuration's `shape` and heights say, so a crowd places, separates
/// and meets it as the game's `physents` do (a 30-wide body placed 30 apart from another
/// would start inside the other's 32-wide physent and never move). `pmove.c`'s
/// `player_mins` and `player_maxs`, (−16, −16, −24)–(16, 16, 32): Quake's player box,
/// [`TraceShape::quake1_player`]. On a level that keeps no clip hull, the world's sweeps
/// of the player are this box too (`world.rs`).
pub(crate) fn body() -> TraceShape {
    TraceShape::quake1_player()
}

/// `PM_PlayerMove` past the world: `world_trace`, the world's answer for the player's point
/// from `start` to `end`, or the nearest body's when it is strictly nearer.
pub(super) fn nearest<T: Tracer + ?Sized>(
    world: &T,
    world_trace: HullTrace,
    start: Vec3,
    end: Vec3,
) -> HullTrace {
    let Some(player) = player_box(world) else {
        return world_trace;
    };
    let query = ShapeQuery::new(&player).of_part(WorldPart::Moving);
    let hit = world.trace(&query, start, end);
    let start_solid = hit.start_solid || hit.all_solid;
    let fraction = if start_solid { 0.0 } else { hit.fraction };
    if fraction < world_trace.fraction {
        HullTrace {
            fraction,
            end: hit.end,
            normal: hit.normal.unwrap_or(Vec3::ZERO),
            start_solid,
            all_solid: hit.all_solid,
        }
    } else {
        world_trace
    }
}

/// `PM_TestPlayerPosition` past the world: whether a body's grown box holds the player's
/// point at `at` (the player's box overlaps a body there).
pub(super) fn blocked<T: Tracer + ?Sized>(world: &T, at: Vec3) -> bool {
    player_box(world).is_some_and(|player| {
        let query = ShapeQuery::new(&player).of_part(WorldPart::Moving);
        world.overlaps(&query, at)
    })
}
