//! The `fps_movement` replay contract through a real Bevy `App`: the map loaded by the
//! `AssetServer`, one character moved by [`PlaneshiftPlugin`], one fixed step per tick.
//!
//! `cargo run -p planeshift_bevy --example replay -- MAP --replay IN.jsonl --ticks-out OUT.jsonl`
//!
//! Takes the lines of `tools/harness/src/replay.rs`, read by the same reader
//! (`tools/harness/src/replay_input.rs`: a spawn line, then one line per tick: `wish`, or
//! a command from `view` and `move`, `jump`, `crouch`, `impulse`, `teleport`, `mode`; an
//! unknown key or a bad value is an error naming the line and the key); gives the same
//! output lines, byte for byte (the test `tests/replay.rs` compares them with the library's
//! replay). A `msec` line (a tick of its own length) is refused: the fixed step has one
//! length.

use std::process::ExitCode;

use bevy_ecs::entity::Entity;
use glam::Vec3;
use planeshift::{ControllerConfig, movement::GroundState};
use planeshift_bevy::headless::{headless_app, load_level};
use planeshift_bevy::{
    Character, CharacterAction, CharacterInput, CharacterRequest, CharacterSnapshot,
    CharacterStatus, Level, MapSpace, PlaneshiftPlugin,
};
use serde_json::Value;

use planeshift_harness::replay_input;

use replay_input::spawn_line;

/// `[x,y,z]` with each f32 in its shortest round-trip form.
fn triple(v: Vec3) -> String {
    format!("[{:?},{:?},{:?}]", v.x, v.y, v.z)
}

/// Runs the replay `input` on the map `bytes` (named `name`, whose extension picks the
/// loader) in a headless Bevy app; gives the output lines.
pub fn replay_in_bevy(
    name: &str,
    bytes: &[u8],
    config: ControllerConfig,
    input: &str,
) -> Result<String, String> {
    let plugin = PlaneshiftPlugin {
        space: MapSpace::QUAKE,
        tick_seconds: config.tick,
        movers_collide: false,
        ..PlaneshiftPlugin::default()
    };
    let mut app = headless_app(&[(name, bytes)], plugin);
    let handle = load_level(&mut app, name)?;
    app.world_mut().spawn(Level(handle));
    let mut lines = input
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (index, first) = lines.next().ok_or("the replay is empty")?;
    let first = spawn_line(first, index + 1)?;
    let spawn = first.at;
    let character = app
        .world_mut()
        .spawn(Character {
            config,
            map_origin: Some(spawn),
        })
        .id();
    let request = |app: &mut bevy_app::App, action: CharacterAction| {
        app.world_mut()
            .write_message(CharacterRequest { character, action });
    };
    if let Some(velocity) = first.velocity {
        request(
            &mut app,
            CharacterAction::Teleport {
                to: spawn,
                velocity: Some(velocity),
            },
        );
    }
    let mut out = String::new();
    for (tick, (index, line)) in lines.enumerate() {
        let n = index + 1;
        let tick_input = replay_input::tick_line(line, n)?;
        if let Some(mode) = tick_input.mode {
            request(&mut app, CharacterAction::SetMode(mode));
        }
        if let Some(to) = tick_input.teleport {
            request(&mut app, CharacterAction::Teleport { to, velocity: None });
        }
        if let Some(delta_v) = tick_input.impulse {
            request(&mut app, CharacterAction::Push { delta_v, hold: 0.0 });
        }
        if tick_input.msec.is_some() {
            return Err(format!(
                "line {n}: `msec` is not supported: the fixed step has one length"
            ));
        }
        // A command as the player's view and moves (turned into the wish inside the step,
        // as the library's replay does); else the scripted wish (map axes: `MapSpace::QUAKE`).
        let (view, moves, wish) = match tick_input.command {
            Some(c) => ([c.pitch, c.yaw], Vec3::new(c.forward, c.side, c.up), None),
            None => ([0.0, 0.0], Vec3::ZERO, Some(tick_input.input.wish)),
        };
        *app.world_mut()
            .get_mut::<CharacterInput>(character)
            .ok_or("the character is gone")? = CharacterInput {
            view,
            moves,
            wish,
            jump: tick_input.input.jump,
            crouch: tick_input.input.crouch,
        };
        app.update();
        out.push_str(&tick_line(&app, character, tick)?);
    }
    Ok(out)
}

/// The output line of tick `tick`, from the character's components after its step.
fn tick_line(app: &bevy_app::App, character: Entity, tick: usize) -> Result<String, String> {
    let world = app.world();
    let status = world
        .get::<CharacterStatus>(character)
        .ok_or("the character has no status")?;
    if status.steps != tick as u64 + 1 {
        return Err(format!(
            "tick {tick}: {} fixed steps ran instead of {}",
            status.steps,
            tick + 1
        ));
    }
    let state = &world
        .get::<CharacterSnapshot>(character)
        .ok_or("the character has no snapshot")?
        .0;
    let ground = match status.ground {
        GroundState::Walkable => "walkable",
        GroundState::Steep => "steep",
        GroundState::Air => "air",
    };
    let contents: Vec<Value> = status.contents.names().map(Value::from).collect();
    Ok(format!(
        "{{\"tick\":{tick},\"position\":{},\"velocity\":{},\"ground\":\"{ground}\",\
         \"water_level\":{},\"mode\":\"{}\",\"crouched\":{},\"stuck\":{},\
         \"contents\":{}}}\n",
        triple(state.position),
        triple(state.velocity),
        status.water_level,
        status.activity.name(),
        status.crouched,
        status.stuck,
        Value::from(contents),
    ))
}

#[allow(dead_code)]
fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut map, mut input, mut output) = (None, None, None);
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        match arg.as_str() {
            "--replay" => input = args.get(i + 1).cloned(),
            "--ticks-out" => output = args.get(i + 1).cloned(),
            _ => {
                map = Some(arg.clone());
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    let (Some(map), Some(input), Some(output)) = (map, input, output) else {
        eprintln!("usage: replay MAP --replay IN.jsonl --ticks-out OUT.jsonl");
        return ExitCode::from(2);
    };
    let run = || -> Result<(), String> {
        let bytes = std::fs::read(&map).map_err(|e| format!("{map}: {e}"))?;
        let text = std::fs::read_to_string(&input).map_err(|e| format!("{input}: {e}"))?;
        let name = std::path::Path::new(&map)
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or("the map needs a file name")?;
        let lines = replay_in_bevy(name, &bytes, ControllerConfig::default(), &text)?;
        std::fs::write(&output, lines).map_err(|e| format!("{output}: {e}"))
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("replay: {e}");
            ExitCode::FAILURE
        }
    }
}
