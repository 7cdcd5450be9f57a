//! The replay contract: one character driven by recorded inputs, one JSON line out per
//! tick, for tools that compare runs (`--replay IN.jsonl --ticks-out OUT.jsonl`, and
//! `--state-in FILE` / `--state-out FILE` to cut a run in two).
//!
//! Takes the map's bytes, the compile options, a configuration, the input lines and
//! optionally a saved state; gives the output lines and the state after the last tick.
//! `IN.jsonl`: first `{"spawn":[x,y,z]}` (the origin; optional `"velocity"`), then one line
//! per tick `{"wish":[x,y,z],"jump":bool,"crouch":bool}` with optional `"impulse":[x,y,z]`
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
//! as f32 exactly. Guarantees: the same inputs give the same bytes; a run cut in two by
//! `--state-out` and `--state-in` gives the same lines, bit for bit, as the whole run.

use glam::Vec3;
use planeshift::CompiledMap;
use planeshift::compile::{CompileOptions, compile_level};
use planeshift::controller::{
    CharacterController, CharacterState, ControllerConfig, GroundState, MoveInput, MoveMode,
};
use serde_json::Value;

/// A vector from a JSON array of three numbers.
fn vec3(value: &Value, what: &str, line: usize) -> Result<Vec3, String> {
    let items = value
        .as_array()
        .filter(|a| a.len() == 3)
        .ok_or_else(|| format!("line {line}: `{what}` must be [x, y, z]"))?;
    let mut out = [0.0f32; 3];
    for (o, v) in out.iter_mut().zip(items) {
        *o = v
            .as_f64()
            .ok_or_else(|| format!("line {line}: `{what}` must hold numbers"))? as f32;
    }
    Ok(Vec3::from_array(out))
}

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
            let (_, first) = lines.next().ok_or("the replay is empty")?;
            let first: Value = serde_json::from_str(first).map_err(|e| format!("line 1: {e}"))?;
            let spawn = vec3(&first["spawn"], "spawn", 1)?;
            let mut c = CharacterController::new(config, spawn).map_err(|e| e.to_string())?;
            if !first["velocity"].is_null() {
                let v = vec3(&first["velocity"], "velocity", 1)?;
                c.teleport(spawn, v, 0.0);
            }
            (c, 0)
        }
    };
    let mut out = String::new();
    let mut tick = first_tick;
    for (index, line) in lines {
        let n = index + 1;
        let value: Value = serde_json::from_str(line).map_err(|e| format!("line {n}: {e}"))?;
        if let Some(mode) = value["mode"].as_str() {
            let mode = MoveMode::from_name(mode)
                .ok_or_else(|| format!("line {n}: unknown mode `{mode}`"))?;
            c.set_mode(mode);
        }
        if !value["teleport"].is_null() {
            let to = vec3(&value["teleport"], "teleport", n)?;
            c.teleport(to, c.velocity(), 0.0);
        }
        if !value["impulse"].is_null() {
            c.apply_impulse(vec3(&value["impulse"], "impulse", n)?, 0.0);
        }
        let wish = if value["wish"].is_null() {
            Vec3::ZERO
        } else {
            vec3(&value["wish"], "wish", n)?
        };
        let input = MoveInput {
            wish,
            jump: value["jump"].as_bool().unwrap_or(false),
            crouch: value["crouch"].as_bool().unwrap_or(false),
            command: None,
        };
        let outcome = match &value["msec"] {
            Value::Null => c.step(world, &input),
            msec => {
                let msec = msec
                    .as_u64()
                    .and_then(|m| u32::try_from(m).ok())
                    .ok_or_else(|| format!("line {n}: `msec` must be a whole number"))?;
                c.step_msec(world, &input, msec)
            }
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
