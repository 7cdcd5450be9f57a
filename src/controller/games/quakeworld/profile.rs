//! QuakeWorld as a controller movement profile: [`ControllerConfig::quakeworld`]'s tick.
//!
//! Takes the controller's [`CharacterState`] (its [`ProfileState`] holding `oldbuttons`
//! and the water jump's clock), the world through the seam and the tick's [`MoveInput`];
//! gives the state after one `SV_RunCmd` of the tick's milliseconds and the tick's
//! [`MoveOutcome`] (water level, liquid, activity). Guarantees: the same game code the
//! reference check runs (`super::tick`), bit for bit, so a replay through the controller
//! equals the game's runs as the check does; the water jump's clock is kept as its f32 bits,
//! so a saved state continues bit for bit.
//!
//! [`ControllerConfig::quakeworld`]: crate::ControllerConfig::quakeworld

use glam::Vec3;

use super::world::{CONTENTS_EMPTY, CONTENTS_LAVA, CONTENTS_SLIME, CONTENTS_WATER};
use super::{QuakeWorldGround, QuakeWorldLevel, QuakeWorldMemo, QuakeWorldState, ground, tick};
use crate::contents::Contents;
use crate::controller::command::MoveCommand;
use crate::controller::config::ControllerConfig;
use crate::controller::ground::{Ground, GroundState};
use crate::controller::tick::{Activity, CharacterState, MoveInput, MoveOutcome, ProfileState};
use crate::controller::tracer::Tracer;

/// The shortest and longest command a QuakeWorld client sends, in milliseconds (its
/// `usercmd_t.msec` is a byte).
const MSEC_RANGE: (f32, f32) = (1.0, 255.0);

/// How far beyond the travel at the current speed a command's player points may reach, in
/// map units: the step up and down (`STEPSIZE` 18), the ground probe (1) and the nudge
/// (1/8), with room for the command's change of speed (a jump's 270 units/s, gravity and
/// acceleration, over a few milliseconds). Only sizes the hull subtree a tick walks from
/// ([`QuakeWorldLevel::near`]): a walk beyond it starts at the head, with the same answer.
const NEAR_REACH: Vec3 = Vec3::new(8.0, 8.0, 26.0);

/// The game's `CONTENTS_*` number of the liquid a state was in.
fn water_type(liquid: Contents) -> i32 {
    if liquid.intersects(Contents::LAVA) {
        CONTENTS_LAVA
    } else if liquid.intersects(Contents::SLIME) {
        CONTENTS_SLIME
    } else if liquid.intersects(Contents::WATER) {
        CONTENTS_WATER
    } else {
        CONTENTS_EMPTY
    }
}

/// The liquid contents of the game's `CONTENTS_*` number.
fn liquid_of(water_type: i32) -> Contents {
    match water_type {
        CONTENTS_LAVA => Contents::LAVA,
        CONTENTS_SLIME => Contents::SLIME,
        CONTENTS_WATER => Contents::WATER,
        _ => Contents::EMPTY,
    }
}

/// One controller tick of QuakeWorld's movement.
pub(in crate::controller) fn step<T: Tracer + ?Sized>(
    config: &ControllerConfig,
    state: &mut CharacterState,
    (world, memo): (&T, &mut QuakeWorldMemo),
    input: &MoveInput,
    outcome: &mut MoveOutcome,
) {
    let msec = (config.tick * 1000.0).round().clamp(MSEC_RANGE.0, MSEC_RANGE.1) as u8;
    let reach = state.velocity.abs() * (f32::from(msec) * 0.001) + NEAR_REACH;
    let level = QuakeWorldLevel::near(world, (state.position - reach, state.position + reach));
    // A wish without a view is a command seen from yaw 0: forward +x, right −y.
    let command = input.command.unwrap_or(MoveCommand {
        pitch: 0.0,
        yaw: 0.0,
        forward: input.wish.x.clamp(-1.0, 1.0),
        side: (-input.wish.y).clamp(-1.0, 1.0),
        up: input.wish.z.clamp(-1.0, 1.0),
    });
    let mut game = QuakeWorldState {
        origin: state.position,
        velocity: state.velocity,
        on_ground: state.ground.state == GroundState::Walkable,
        old_buttons: state.profile.buttons as u8,
        water_jump_time: f32::from_bits(state.profile.timer_bits),
        water_level: state.water_level,
        water_type: water_type(state.liquid),
    };
    tick((level, memo), &mut game, &command, input.jump, input.crouch, msec);
    let below = match ground(level, &game) {
        QuakeWorldGround::Walkable => GroundState::Walkable,
        QuakeWorldGround::Steep => GroundState::Steep,
        QuakeWorldGround::Air => GroundState::Air,
    };
    state.position = game.origin;
    state.velocity = game.velocity;
    state.ground = Ground {
        state: below,
        ..Ground::AIR
    };
    state.profile = ProfileState {
        buttons: u32::from(game.old_buttons),
        timer_bits: game.water_jump_time.to_bits(),
        ..state.profile
    };
    state.crouched = false;
    state.jump_held = input.jump;
    state.water_level = game.water_level;
    state.liquid = liquid_of(game.water_type);
    outcome.water_level = game.water_level;
    outcome.liquid = state.liquid;
    outcome.activity = if game.water_level >= 2 {
        Activity::Swim
    } else {
        Activity::Walk
    };
}
