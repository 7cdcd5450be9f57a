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
    CharacterController, ControllerConfig,
    movement::{CharacterState, GroundState},
};
use planeshift::{CompileOptions, build::compile_level};
use serde_json::Value;

use crate::replay_input::{spawn_line, tick_line};

/// `[x,y,z]` with each f32 in its shortest round-trip form.
fn triple(v: Vec3) -> String {
    format!("[{:?},{:?},{:?}]", v.x, v.y, v.z)
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
            let mut c = CharacterController::new(config, spawn.at).map_err(|e| e.to_string())?;
            if let Some(v) = spawn.velocity {
                c.teleport(spawn.at, v, 0.0);
            }
            (c, 0)
        }
    };
    let mut out = String::new();
    let mut tick = first_tick;
    for (index, line) in lines {
        let n = index + 1;
        let tick_input = tick_line(line, n)?;
        if let Some(mode) = tick_input.mode {
            c.set_mode(mode);
        }
        if let Some(to) = tick_input.teleport {
            c.teleport(to, c.velocity(), 0.0);
        }
        if let Some(impulse) = tick_input.impulse {
            c.apply_impulse(impulse, 0.0);
        }
        let outcome = match tick_input.msec {
            None => c.step(world, &tick_input.input),
            Some(msec) => c.step_msec(world, &tick_input.input, msec),
        };
        let ground = match c.ground().state {
            GroundState::Walkable => "walkable",
            GroundState::Steep => "steep",
            GroundState::Air => "air",
        };
        let contents: Vec<Value> = outcome.contents.names().map(Value::from).collect();
        // Keys in the contract's order; floats as f32's shortest round-trip text.
        let line = format!(
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
        );
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
