//! The other players as Quake 3's `pm->trace` meets them: an entity's box is clipped as a
//! brush (`cm_trace.c CM_TransformedBoxTrace` over `CM_TempBoxModel`, from `sv_world.c
//! SV_ClipMoveToEntities`), whose planes `CM_ClipBoxToBrush` pushes out by
//! `SURFACE_CLIP_EPSILON` (1/8): a sweep that comes within 1/8 of another player's box stops
//! there, even one that would pass by without touching it.
//!
//! Takes the world through the seam (a crowd's world with its bodies), the mask, the
//! player's box, the sweep and the answer of the world and the bodies as planeshift sweeps
//! them (a body stops only a sweep that would touch it); gives that answer or, when nearer,
//! the bodies' met by the player's box grown by 1/8 on every side (under
//! [`WorldPart::Moving`]). Guarantees: the answer only ever gets nearer; a start already
//! within 1/8 of a body keeps planeshift's answer (the game stops only a move toward the
//! body there, which the exact sweep stops too); a world with nothing moving
//! ([`SpeedFacts::moves_nothing`], a compiled map alone, as the reference replays run) or
//! that cannot tell its parts apart (not [`SpeedFacts::map_is_fixed`]) is asked nothing
//! more, so its answers are unchanged, bit for bit.
//!
//! [`SpeedFacts::moves_nothing`]: crate::controller::SpeedFacts::moves_nothing
//! [`SpeedFacts::map_is_fixed`]: crate::controller::SpeedFacts::map_is_fixed

use glam::Vec3;

use super::trace::{PlayerBox, Q3Trace, game_end};
use crate::QUAKE3_STOP_DISTANCE;
use crate::contents::Contents;
use crate::controller::tracer::{ShapeQuery, Tracer, WorldPart};
use crate::trace::TraceShape;

/// `found`, the answer for the sweep of `player` from `start` to `end` among what `mask`
/// names, or the bodies' answer for the box grown by the game's 1/8 when it is nearer.
pub(super) fn nearest<T: Tracer + ?Sized>(
    world: &T,
    mask: Contents,
    player: &PlayerBox,
    (start, end): (Vec3, Vec3),
    found: Q3Trace,
) -> Q3Trace {
    let facts = world.speed_facts();
    if facts.moves_nothing || !facts.map_is_fixed || found.fraction == 0.0 {
        return found;
    }
    let (low, high) = player.shape().bounds();
    let grow = Vec3::splat(QUAKE3_STOP_DISTANCE);
    let Some(grown) = TraceShape::aabb(low - grow, high + grow) else {
        return found;
    };
    let query = ShapeQuery::new(&grown)
        .with_mask(mask)
        .of_part(WorldPart::Moving);
    let offset = player.offset();
    let raw = world.trace(&query, start + offset, end + offset);
    if raw.start_solid || raw.fraction >= found.fraction {
        return found;
    }
    let fraction = raw.fraction;
    Q3Trace {
        fraction,
        // `fraction` is below `found`'s, so below 1: the game's interpolated end.
        end: game_end(fraction, start, end),
        normal: raw.normal.unwrap_or(Vec3::ZERO),
        all_solid: false,
        surface: raw.surface,
        raw,
    }
}
