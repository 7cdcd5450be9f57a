//! A headless server: a level, 16 characters wandering with seeded commands, and every
//! message they raise printed. No window, no renderer, no clock: one fixed step per update.
//!
//! `cargo run -p planeshift_bevy --example server [-- MAP [STEPS]]` (default: the bundled
//! `maps/trigger_room.map`, 2,000 steps).

use std::process::ExitCode;

use bevy_app::{App, FixedPostUpdate};
use bevy_ecs::prelude::*;
use glam::Vec3;
use planeshift::ControllerConfig;
use planeshift_bevy::headless::{headless_app, load_level};
use planeshift_bevy::{
    BrushEntity, Character, CharacterInput, Jumped, Landed, Level, MapSpace, PlaneshiftPlugin,
    Simulation, SpawnedOverlapping, TriggerEntered, TriggerLeft,
};

/// How many characters the server runs.
const CHARACTERS: usize = 16;

/// Turns each character's view a little every step and jumps now and then.
fn drive(mut players: Query<(Entity, &mut CharacterInput)>, sim: Res<Simulation>) {
    for (entity, mut input) in &mut players {
        let id = sim.id_of(entity).unwrap_or(0) as f32;
        input.view[1] = (input.view[1] + 0.7 + id * 0.1) % 360.0;
        input.moves = Vec3::new(1.0, 0.0, 0.0);
        input.jump = (input.view[1] as u32).is_multiple_of(97);
    }
}

/// Prints what happened this step.
fn report(
    sim: Res<Simulation>,
    brushes: Query<&BrushEntity>,
    mut entered: MessageReader<TriggerEntered>,
    mut left: MessageReader<TriggerLeft>,
    mut landed: MessageReader<Landed>,
    mut jumped: MessageReader<Jumped>,
    mut overlapping: MessageReader<SpawnedOverlapping>,
) {
    let who = |e: Entity| sim.id_of(e).map_or(-1, i64::from);
    let class = |t: Option<Entity>| {
        t.and_then(|t| brushes.get(t).ok())
            .map_or("?".to_string(), |b| b.classname.clone())
    };
    for m in entered.read() {
        println!(
            "character {} entered {} (model {})",
            who(m.character),
            class(m.trigger),
            m.model
        );
    }
    for m in left.read() {
        println!(
            "character {} left {} (model {})",
            who(m.character),
            class(m.trigger),
            m.model
        );
    }
    for m in landed.read() {
        println!(
            "character {} landed at {:.2} m/s",
            who(m.character),
            m.speed
        );
    }
    for m in jumped.read() {
        println!("character {} jumped", who(m.character));
    }
    for m in overlapping.read() {
        println!(
            "character {} spawned into {}",
            who(m.character),
            who(m.other)
        );
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().cloned().unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../maps/trigger_room.map").to_string()
    });
    let steps: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2_000);
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!("server: cannot read {path}");
        return ExitCode::FAILURE;
    };
    let mut app: App = headless_app(&[("level.map", &bytes)], PlaneshiftPlugin::default());
    let handle = match load_level(&mut app, "level.map") {
        Ok(h) => h,
        Err(e) => {
            eprintln!("server: {e}");
            return ExitCode::FAILURE;
        }
    };
    app.world_mut().spawn(Level(handle.clone()));
    let space = MapSpace::default();
    let spawn = app
        .world()
        .resource::<bevy_asset::Assets<planeshift_bevy::LevelAsset>>()
        .get(&handle)
        .and_then(|l| l.map.player_spawns().next())
        .unwrap_or(Vec3::new(0.0, 0.0, 32.0));
    for i in 0..CHARACTERS {
        let at = spawn
            + Vec3::new(
                (i % 4) as f32 * 40.0 - 60.0,
                (i / 4) as f32 * 40.0 - 60.0,
                0.0,
            );
        app.world_mut().spawn((
            Character::new(ControllerConfig::default()),
            bevy_transform::components::Transform::from_translation(space.to_bevy(at)),
            CharacterInput {
                view: [0.0, i as f32 * 22.5],
                ..CharacterInput::default()
            },
        ));
    }
    app.add_systems(
        bevy_app::FixedUpdate,
        drive.before(planeshift_bevy::PlaneshiftSystems::Input),
    )
    .add_systems(FixedPostUpdate, report);
    for _ in 0..steps {
        app.update();
    }
    println!("{CHARACTERS} characters, {steps} steps");
    ExitCode::SUCCESS
}
