//! The replay contract: one character driven by recorded inputs, one JSON line out per
//! tick, for tools that compare runs (`--replay IN.jsonl --ticks-out OUT.jsonl`, and
//! `--state-in FILE` / `--state-out FILE` to cut a run in two).
//!
//! Takes the map's bytes, the compile options, a configuration, the input lines and
//! optionally a saved state; gives the output lines and the state after the last tick.
//! `IN.jsonl`: first `{"spawn":[x,y,z]}` (the origin; optional `"velocity"`), then one line
//! per tick `{"wish":[x,y,z],"jump":bool,"crouch":bool}`, or instead of the wish a player's
//! command: `"view":[pitch,yaw]` in degrees (Quake's convention: pitch positive looks down,
//! yaw 0 along +x, counter-clockwise) and `"move":[forward,side,up]` each in [-1, 1], turned
//! into the wish inside the tick (`MoveInput::from_command`: walking flattens the view, so
//! pitch never changes ground speed; swimming, flying and ladders use it whole). Optional
//! `"impulse":[x,y,z]`
//! (added before the tick, no hold), `"teleport":[x,y,z]` (the velocity kept),
//! `"mode":"walk"|"noclip"|"fly"|"frozen"|"dead"` and `"msec":n` (the tick lasts n ms instead
//! of the configured tick, as a Quake 3 command carries its own). With a saved state
//! (`--state-in`) there is no spawn line: the run continues from the state, tick numbers
//! included. `OUT.jsonl`: one line per tick `{"tick":n,"position":[..],"velocity":[..],
//! "ground":"walkable"|"steep"|"air","water_level":0..3,"mode":"walk"|"swim"|"ladder"|
//! "noclip"|"fly","crouched":bool,"stuck":bool,"contents":[names]}` (beyond the contract's
//! set, a frozen character reports `"frozen"`; a dead one reports how its corpse moves,
//! `"walk"` or `"swim"`: `Activity::name`). The state file
//! (`--state-out`) is one JSON object `{"tick":n,"state":{..}}`: the next tick's number and
//! the serialized [`CharacterState`], floats as f32's shortest round-trip text, read back
//! as f32 exactly. Guarantees: a line with a key the contract does not name, or a bad
//! value (wrong type or length, not finite, a move outside [-1, 1], a wish with a view or
//! move), is an error naming the line and the key, never ignored (`replay_input.rs`); the
//! same inputs give the same bytes; a run cut in two by
//! `--state-out` and `--state-in` gives the same lines, bit for bit, as the whole run.

use glam::Vec3;
use planeshift::CompiledMap;
use planeshift::{
    CharacterController, ControllerConfig, MoveOutcome,
    movement::{CharacterState, GroundState},
};
use planeshift::{CompileOptions, build::compile_level};
use serde_json::Value;

use crate::replay_input::{SpawnLine, TickLine, spawn_line, tick_line};

/// `[x,y,z]` with each f32 in its shortest round-trip form.
fn triple(v: Vec3) -> String {
    format!("[{:?},{:?},{:?}]", v.x, v.y, v.z)
}

/// The character of a spawn line: at its origin, with its velocity when it gives one.
pub fn spawn_character(
    config: ControllerConfig,
    spawn: &SpawnLine,
) -> Result<CharacterController, String> {
    let mut c = CharacterController::new(config, spawn.at).map_err(|e| e.to_string())?;
    if let Some(v) = spawn.velocity {
        c.teleport(spawn.at, v, 0.0);
    }
    Ok(c)
}

/// Runs one tick line's input on `c`: the mode, the teleport and the impulse before the
/// tick, then the tick (of the line's own `msec` when it gives one).
pub fn apply_tick(
    c: &mut CharacterController,
    world: &CompiledMap,
    tick: &TickLine,
) -> MoveOutcome {
    if let Some(mode) = tick.mode {
        c.set_mode(mode);
    }
    if let Some(to) = tick.teleport {
        c.teleport(to, c.velocity(), 0.0);
    }
    if let Some(impulse) = tick.impulse {
        c.apply_impulse(impulse, 0.0);
    }
    match tick.msec {
        None => c.step(world, &tick.input),
        Some(msec) => c.step_msec(world, &tick.input, msec),
    }
}

/// The output line of tick number `tick` (no newline): the contract's keys in order,
/// floats as f32's shortest round-trip text.
pub fn tick_output(tick: usize, c: &CharacterController, outcome: &MoveOutcome) -> String {
    let ground = match c.ground().state {
        GroundState::Walkable => "walkable",
        GroundState::Steep => "steep",
        GroundState::Air => "air",
    };
    let contents: Vec<Value> = outcome.contents.names().map(Value::from).collect();
    format!(
        "{{\"tick\":{tick},\"position\":{},\"velocity\":{},\"ground\":\"{ground}\",\
         \"water_level\":{},\"mode\":\"{}\",\"crouched\":{},\"stuck\":{},\
         \"contents\":{}}}",
        triple(c.position()),
        triple(c.velocity()),
        outcome.water_level,
        outcome.activity.name(),
        c.crouched(),
        outcome.stuck,
        Value::from(contents),
    )
}

/// What a replay gives: the tick lines and the state after the last tick.
pub struct Replay {
    /// The output lines, each ending in a newline.
    pub lines: String,
    /// The state file's text: `{"tick":n,"state":{..}}`.
    pub state: String,
}

/// The saved state of a replay: the next tick's number and the character's state.
#[derive(serde::Serialize, serde::Deserialize)]
struct Saved {
    tick: usize,
    state: CharacterState,
}

/// Runs the replay on `map` (a `.map`, or a compiled `.bsp` told apart by content), from the
/// spawn line or from `state` (a state file's text).
pub fn replay(
    map: &[u8],
    compile: &CompileOptions,
    config: ControllerConfig,
    input: &str,
    state: Option<&str>,
) -> Result<Replay, String> {
    let world = compile_level(map, compile)
        .map_err(|e| format!("compile: {e}"))?
        .map;
    replay_world(&world, config, input, state)
}

/// [`replay`] on a compiled world.
pub fn replay_world(
    world: &CompiledMap,
    config: ControllerConfig,
    input: &str,
    state: Option<&str>,
) -> Result<Replay, String> {
    let mut lines = input
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .peekable();
    let (mut c, first_tick) = match state {
        Some(text) => {
            let saved: Saved = serde_json::from_str(text).map_err(|e| format!("state: {e}"))?;
            let mut c = CharacterController::new(config, saved.state.position)
                .map_err(|e| format!("state: {e}"))?;
            if !c.set_state(saved.state) {
                return Err("state: position and velocity must be finite".to_string());
            }
            (c, saved.tick)
        }
        None => {
            let (index, first) = lines.next().ok_or("the replay is empty")?;
            let spawn = spawn_line(first, index + 1)?;
            (spawn_character(config, &spawn)?, 0)
        }
    };
    let mut out = String::new();
    let mut tick = first_tick;
    for (index, line) in lines {
        let n = index + 1;
        let tick_input = tick_line(line, n)?;
        let outcome = apply_tick(&mut c, world, &tick_input);
        let line = tick_output(tick, &c, &outcome);
        out.push_str(&line);
        out.push('\n');
        tick += 1;
    }
    let saved = Saved {
        tick,
        state: c.state().clone(),
    };
    let state = serde_json::to_string(&saved).map_err(|e| format!("state: {e}"))?;
    Ok(Replay { lines: out, state })
}
