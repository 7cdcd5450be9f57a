//! Movement profiles: a game's player movement as its code does it, run in place of
//! planeshift's own tick when [`ControllerConfig::movement`](super::ControllerConfig::movement)
//! names the game.
//!
//! Takes the configuration, the [`CharacterState`] (whose
//! [`ProfileState`](super::ProfileState) holds what a game keeps between commands), the
//! world as a [`Tracer`] and the tick's [`MoveInput`]; gives the new state and the tick's
//! [`MoveOutcome`] (water level, activity, touches), as planeshift's tick does; the
//! controller then adds the trigger report.
//! Guarantees: each profile turns the input into its game's command exactly as its module
//! says, meets the world only through the tracer (with the query options its game needs,
//! such as Quake 3's 1/8 stop distance), and is as deterministic as planeshift's tick: f32
//! only, the games' sines and cosines computed here without the platform's.
//!
//! Adding a game: one [`Movement`] variant, its `ControllerConfig` constructor, one arm in
//! `step` and one module here.

mod quake3;
pub mod quakeworld;

use super::config::{ControllerConfig, Movement};
use super::tick::{CharacterState, MoveInput, MoveOutcome};
use super::tracer::Tracer;
use crate::trace::TickCache;

/// What a character's profile ticks keep for the next (answers that are pure functions of
/// their exact inputs, so a tick gives the same bits with or without them: each game's
/// module says which).
#[derive(Clone, Debug, Default)]
pub(crate) struct ProfileMemo {
    quake3: quake3::Memo,
    quakeworld: quakeworld::QuakeWorldMemo,
}

/// Moves `state` by one tick of the game `config` names, into `outcome` (reset; the
/// caller adds the trigger report), through `world` and, when given, the tick cache it
/// gathers near the character, reusing and refilling `memo`; nothing under planeshift's own
/// movement.
pub(crate) fn step<T: Tracer + ?Sized>(
    config: &ControllerConfig,
    state: &mut CharacterState,
    world: (&T, Option<&mut TickCache>),
    memo: &mut ProfileMemo,
    input: &MoveInput,
    outcome: &mut MoveOutcome,
) {
    match config.movement {
        Movement::Planeshift => {}
        Movement::Quake3 => quake3::step(config, state, world, &mut memo.quake3, input, outcome),
        Movement::QuakeWorld => quakeworld::step(config, state, (world.0, &mut memo.quakeworld), input, outcome),
    }
}
