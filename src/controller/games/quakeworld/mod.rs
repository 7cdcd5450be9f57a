//! QuakeWorld's player movement, tick for tick as id's server runs it (`sv_user.c
//! SV_RunCmd` over `pmove.c PlayerMove`, `pmovetst.c`), on planeshift's world seam.
//!
//! Takes a [`QuakeWorldLevel`] (the level imported from its `.bsp`, as a [`Tracer`]), a
//! [`QuakeWorldState`] and one planeshift command ([`MoveCommand`], jump, crouch, msec);
//! gives the next state. The data flows: `usercmd.rs` (the command as the client sends
//! it) → [`tick`] (`SV_RunCmd`: a command over 50 ms runs as two halves) →
//! `player_move.rs` (`PlayerMove`: nudge, categorize, jumps, friction, the moves) →
//! `slide.rs` (`PM_FlyMove`, `PM_GroundMove`) → `world.rs` (the sweeps and point
//! contents through the seam) → `physents.rs` (the other players past the world);
//! `angles.rs` and `vec.rs` are the game's maths, `movevars.rs` its numbers.
//!
//! Guarantees: the game's steps in its order with its float precision; no platform maths
//! (`angles.rs`); no allocation; the same inputs give the same bits on every machine.
//! Checked against the game's own runs by `reference_runs.rs`.
//!
//! [`Tracer`]: crate::controller::Tracer

mod angles;
mod movevars;
mod physents;
mod player_move;
mod pmtrace;
mod profile;
#[cfg(test)]
mod reference_runs;
mod slide;
mod usercmd;
mod vec;
mod world;

use glam::Vec3;

pub(crate) use physents::body as quakeworld_body;
pub use usercmd::UserCmd;
pub use world::{QuakeWorldLevel, QuakeWorldMemo};
pub(in crate::controller) use profile::step;

use crate::controller::{MoveCommand, Tracer};

/// The longest command `SV_RunCmd` runs whole, in milliseconds: a longer one runs as two
/// halves (each `msec / 2`, rounded down).
const MAX_COMMAND_MSEC: u8 = 50;
/// How far QuakeWorld lifts the player above a spawn entity's origin, in units
/// (`PutClientInServer`): a spawn point given as the entity's origin is this much below
/// where [`QuakeWorldState::at_rest`] must start.
pub const SPAWN_LIFT: f32 = 1.0;

/// What QuakeWorld keeps of a player between commands (`edict_t` origin and velocity,
/// `client_t.oldbuttons`, `teleport_time` as the water jump's clock) and what the last
/// command found (`onground`, `waterlevel`, `watertype`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuakeWorldState {
    /// The player box's centre point as hull 1 sees it (the box is (−16,−16,−24)–(16,16,32)
    /// around it).
    pub origin: Vec3,
    /// Units a second.
    pub velocity: Vec3,
    /// On a floor (normal z ≥ 0.7) at the end of the last command.
    pub on_ground: bool,
    /// The buttons held in the last command that matter here (`BUTTON_JUMP`, 2): a jump
    /// needs the button released first.
    pub old_buttons: u8,
    /// Seconds left of a water jump (0: none): while it runs, no friction, no acceleration.
    pub water_jump_time: f32,
    /// 0 dry, 1 feet, 2 waist, 3 eyes in a liquid.
    pub water_level: u8,
    /// The liquid's `CONTENTS_*` number (−3 water, −4 slime, −5 lava, −6 sky), −1 when dry.
    pub water_type: i32,
}

impl QuakeWorldState {
    /// A player at rest with its origin at `origin` (a spawn entity's origin plus
    /// [`SPAWN_LIFT`] on z, as the replay files' `spawn` gives it).
    #[must_use]
    pub fn at_rest(origin: Vec3) -> QuakeWorldState {
        QuakeWorldState {
            origin,
            velocity: Vec3::ZERO,
            on_ground: false,
            old_buttons: 0,
            water_jump_time: 0.0,
            water_level: 0,
            water_type: world::CONTENTS_EMPTY,
        }
    }
}

/// One command as QuakeWorld's server runs it (`SV_RunCmd`): `command` with `jump` and
/// `crouch` turned into the client's [`UserCmd`] lasting `msec`, run whole up to 50 ms and
/// as two halves beyond.
pub fn tick<T: Tracer + ?Sized>(
    (level, memo): (QuakeWorldLevel<'_, T>, &mut QuakeWorldMemo),
    state: &mut QuakeWorldState,
    command: &MoveCommand,
    jump: bool,
    crouch: bool,
    msec: u8,
) {
    run_cmd((level, memo), state, &UserCmd::from_command(command, jump, crouch, msec));
}

/// `SV_RunCmd` for a command already in the game's form.
pub fn run_cmd<T: Tracer + ?Sized>(
    (level, memo): (QuakeWorldLevel<'_, T>, &mut QuakeWorldMemo),
    state: &mut QuakeWorldState, cmd: &UserCmd) {
    if cmd.msec > MAX_COMMAND_MSEC {
        let half = UserCmd {
            msec: cmd.msec / 2,
            ..*cmd
        };
        run_cmd((level, memo), state, &half);
        run_cmd((level, memo), state, &half);
        return;
    }
    player_move::player_move((level, memo), state, cmd);
}

/// What is under the player, as a controller reports it: on a floor, on a surface too
/// steep to stand on within a unit below, or in the air.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuakeWorldGround {
    /// On a floor (`onground`).
    Walkable,
    /// Not on a floor, but a surface steeper than a floor is within a unit below.
    Steep,
    /// Nothing within a unit below.
    Air,
}

/// The ground under `state`: its `on_ground`, else what a unit's sweep down meets.
#[must_use]
pub fn ground<T: Tracer + ?Sized>(
    level: QuakeWorldLevel<'_, T>,
    state: &QuakeWorldState) -> QuakeWorldGround {
    if state.on_ground {
        return QuakeWorldGround::Walkable;
    }
    let below = state.origin - Vec3::new(0.0, 0.0, 1.0);
    let trace = level.player_move(state.origin, below);
    if trace.fraction < 1.0 && !trace.start_solid {
        QuakeWorldGround::Steep
    } else {
        QuakeWorldGround::Air
    }
}
