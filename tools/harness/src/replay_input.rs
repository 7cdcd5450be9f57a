//! One input line of the replay contract (`replay.rs`), read strictly: the spawn line and
//! the tick lines, shared by `replay.rs` and `planeshift_bevy/examples/replay.rs` so both
//! read the same contract.
//!
//! Takes a line's text and its number (1-based, as an editor shows it); gives a
//! [`SpawnLine`] or a [`TickLine`], or a message that names the line and, when one key is
//! at fault, the key. Guarantees: nothing is ignored. A line that is not a JSON object, a
//! key the contract does not name, a value of the wrong type or length (`null` included),
//! a number that is not finite as an f32, a move outside [−1, 1], `msec` that is not a
//! whole number, an unknown mode, a `wish` together with `view` or `move` (two ways to say
//! where to go), or a `move` without a `view` (a move relative to no view) is an error.
//!
//! The tick keys: `wish` `[x,y,z]` (a world vector), or `view` `[pitch,yaw]` in degrees
//! (Quake's convention: pitch positive looks down, yaw 0 along +x, counter-clockwise) with
//! an optional `move` `[forward,side,up]` each in [−1, 1] (none: standing still, looking);
//! `jump` and `crouch` (booleans), `impulse` and `teleport` (`[x,y,z]`), `mode` (a
//! [`MoveMode`] name) and `msec` (a whole number of milliseconds). The spawn keys: `spawn`
//! `[x,y,z]` and an optional `velocity` `[x,y,z]`.

use glam::Vec3;
use planeshift::{MoveCommand, MoveInput, movement::MoveMode};
use serde_json::{Map, Value};

/// The keys a tick line may carry.
pub const TICK_KEYS: [&str; 9] = [
    "wish", "view", "move", "jump", "crouch", "impulse", "teleport", "mode", "msec",
];

/// The keys the spawn line may carry.
pub const SPAWN_KEYS: [&str; 2] = ["spawn", "velocity"];

/// The first line of a replay without a saved state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpawnLine {
    /// The character's origin.
    pub at: Vec3,
    /// Its velocity, when given.
    pub velocity: Option<Vec3>,
}

/// One tick's line.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TickLine {
    /// The tick's input: the wish, or the command from `view` and `move`, and the buttons.
    pub input: MoveInput,
    /// `view` and `move` as given (`None` for a wish line or a line with neither): what a
    /// Bevy `CharacterInput` takes (the example's own replay reads `input`).
    #[allow(dead_code)]
    pub command: Option<MoveCommand>,
    /// Added to the velocity before the tick (no hold).
    pub impulse: Option<Vec3>,
    /// Moved there before the tick, the velocity kept.
    pub teleport: Option<Vec3>,
    /// The mode set before the tick.
    pub mode: Option<MoveMode>,
    /// The tick's own length in milliseconds.
    pub msec: Option<u32>,
}

/// Reads line `n` as a JSON object whose keys are all in `known`.
fn object(text: &str, n: usize, known: &[&str]) -> Result<Map<String, Value>, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("line {n}: {e}"))?;
    let Value::Object(map) = value else {
        return Err(format!("line {n}: must be a JSON object"));
    };
    if let Some(key) = map.keys().find(|k| !known.contains(&k.as_str())) {
        return Err(format!(
            "line {n}: unknown key `{key}` (expected one of {})",
            known.join(", ")
        ));
    }
    Ok(map)
}

/// `N` finite f32's from the JSON array `value` of exactly `N` numbers.
fn numbers<const N: usize>(
    value: &Value,
    key: &str,
    shape: &str,
    n: usize,
) -> Result<[f32; N], String> {
    let items = value
        .as_array()
        .filter(|a| a.len() == N)
        .ok_or_else(|| format!("line {n}: `{key}` must be {shape}"))?;
    let mut out = [0.0f32; N];
    for (o, v) in out.iter_mut().zip(items) {
        *o = v
            .as_f64()
            .map(|x| x as f32)
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("line {n}: `{key}` must hold {N} finite numbers"))?;
    }
    Ok(out)
}

/// A vector from the JSON array `value` of three finite numbers.
fn vec3(value: &Value, key: &str, n: usize) -> Result<Vec3, String> {
    numbers::<3>(value, key, "[x, y, z]", n).map(Vec3::from_array)
}

/// A boolean key, false when absent.
fn flag(map: &Map<String, Value>, key: &str, n: usize) -> Result<bool, String> {
    match map.get(key) {
        None => Ok(false),
        Some(v) => v
            .as_bool()
            .ok_or_else(|| format!("line {n}: `{key}` must be true or false")),
    }
}

/// An optional vector key.
fn optional_vec3(map: &Map<String, Value>, key: &str, n: usize) -> Result<Option<Vec3>, String> {
    map.get(key).map(|v| vec3(v, key, n)).transpose()
}

/// Reads the spawn line, line `n`.
pub fn spawn_line(text: &str, n: usize) -> Result<SpawnLine, String> {
    let map = object(text, n, &SPAWN_KEYS)?;
    let at = match map.get("spawn") {
        Some(v) => vec3(v, "spawn", n)?,
        None => return Err(format!("line {n}: the first line needs `spawn`")),
    };
    Ok(SpawnLine {
        at,
        velocity: optional_vec3(&map, "velocity", n)?,
    })
}

/// Reads tick line `n`.
pub fn tick_line(text: &str, n: usize) -> Result<TickLine, String> {
    let map = object(text, n, &TICK_KEYS)?;
    if map.contains_key("wish") && (map.contains_key("view") || map.contains_key("move")) {
        return Err(format!(
            "line {n}: `wish` and `view`/`move` both given (give a wish or a command)"
        ));
    }
    let command = match (map.get("view"), map.get("move")) {
        (None, None) => None,
        (None, Some(_)) => {
            return Err(format!("line {n}: `move` needs a `view` ([pitch, yaw])"));
        }
        (Some(view), moves) => {
            let [pitch, yaw] = numbers::<2>(view, "view", "[pitch, yaw] in degrees", n)?;
            let [forward, side, up] = match moves {
                Some(m) => numbers::<3>(m, "move", "[forward, side, up]", n)?,
                None => [0.0; 3],
            };
            if [forward, side, up]
                .iter()
                .any(|m| !(-1.0..=1.0).contains(m))
            {
                return Err(format!(
                    "line {n}: `move` must hold numbers in [-1, 1] (forward, side, up)"
                ));
            }
            Some(MoveCommand {
                pitch,
                yaw,
                forward,
                side,
                up,
            })
        }
    };
    let mut input = match command {
        Some(c) => MoveInput::from_command(c),
        None => MoveInput {
            wish: optional_vec3(&map, "wish", n)?.unwrap_or(Vec3::ZERO),
            ..MoveInput::default()
        },
    };
    input.jump = flag(&map, "jump", n)?;
    input.crouch = flag(&map, "crouch", n)?;
    let mode = match map.get("mode") {
        None => None,
        Some(v) => {
            let name = v
                .as_str()
                .ok_or_else(|| format!("line {n}: `mode` must be a mode's name"))?;
            Some(
                MoveMode::from_name(name)
                    .ok_or_else(|| format!("line {n}: `mode`: unknown mode `{name}`"))?,
            )
        }
    };
    let msec = match map.get("msec") {
        None => None,
        Some(v) => Some(
            v.as_u64()
                .and_then(|m| u32::try_from(m).ok())
                .ok_or_else(|| format!("line {n}: `msec` must be a whole number"))?,
        ),
    };
    Ok(TickLine {
        input,
        command,
        impulse: optional_vec3(&map, "impulse", n)?,
        teleport: optional_vec3(&map, "teleport", n)?,
        mode,
        msec,
    })
}
