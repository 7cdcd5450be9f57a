//! Issue 37's four numbers per shared level, for each game against its movement profile and
//! against planeshift's own movement: jump apex, strafe-jump speed at the run's end, time to
//! full run speed and bunny-hop gain per hop, from the recorded runs under
//! `$PLANESHIFT_REAL_MAPS/reference-moves/GAME/LEVEL/` (whatever their count) and their
//! replays through the replay contract (`planeshift_harness::replay`) on the level's `.bsp`.
//!
//! The numbers, each the mean over a level's runs of one scenario:
//! - jump apex: the rise from the last tick on the ground before the first take-off of each
//!   `hops` run to the highest point before it lands again;
//! - strafe-jump speed: the horizontal speed at the last tick of each `strafejump` run
//!   (4.8 s; walls included);
//! - time to run speed: the first tick's time (tick × 8 ms, the tick's end) at which the
//!   horizontal speed reaches [`RUN_SPEED`] in each `run` run;
//! - bunny-hop gain per hop: the change of horizontal take-off speed from the first hop to
//!   the last, divided by the hops between, of each `hops` run (a take-off: a tick in the air
//!   moving up faster than [`TAKE_OFF_RISE`] after a tick on walkable ground).
//!
//! Prints one table per game (game / profile / planeshift's own) and the levels where the
//! profile misses the game by more than [`AGREEMENT`] on some number; asserts that every
//! shared level meets it on all four, for each game (issue 37: "on each shared level").

use std::collections::BTreeMap;
use std::path::Path;

use glam::Vec3;
use planeshift::build::compile_level;
use planeshift::{CompileOptions, CompiledMap, ControllerConfig};
use planeshift_harness::replay::replay_world;
use planeshift_testkit::real_maps::{files_in, real_maps_dir};
use serde_json::Value;

/// A game's runs: its folder under `reference-moves`, its levels' folder and its profile.
struct GameNumbers {
    game: &'static str,
    levels: &'static str,
    profile: fn() -> ControllerConfig,
}

const GAMES: [GameNumbers; 2] = [
    GameNumbers {
        game: "quake3",
        levels: "openarena-lostlevels",
        profile: ControllerConfig::quake3,
    },
    GameNumbers {
        game: "quakeworld",
        levels: "id-quake-1996",
        profile: ControllerConfig::quakeworld,
    },
];

/// Issue 37: each number within 0.5 % of the game's.
const AGREEMENT: f64 = 0.005;
/// Full run speed, units/s: both games' 320 less the last half unit (Quake 3 rounds its
/// velocity to whole units; QuakeWorld's acceleration lands on 320 exactly).
const RUN_SPEED: f32 = 319.5;
/// A take-off moves up faster than this, units/s (a jump starts at 270; stepping and
/// sliding up ramps stay far below).
const TAKE_OFF_RISE: f32 = 100.0;
/// A tick, seconds (the runs' 8 ms).
const TICK: f64 = 0.008;

/// One tick of a run: position, velocity, on walkable ground.
#[derive(Clone, Copy)]
struct Tick {
    position: Vec3,
    velocity: Vec3,
    walkable: bool,
}

fn ticks_of(text: &str) -> Vec<Tick> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap();
            let triple = |key: &str| {
                let a = v[key].as_array().unwrap();
                Vec3::new(
                    a[0].as_f64().unwrap() as f32,
                    a[1].as_f64().unwrap() as f32,
                    a[2].as_f64().unwrap() as f32,
                )
            };
            Tick {
                position: triple("position"),
                velocity: triple("velocity"),
                walkable: v["ground"] == "walkable",
            }
        })
        .collect()
}

fn horizontal(v: Vec3) -> f64 {
    f64::from(v.truncate().length())
}

/// The ticks at which the run takes off.
fn take_offs(run: &[Tick]) -> Vec<usize> {
    (1..run.len())
        .filter(|&i| run[i - 1].walkable && !run[i].walkable && run[i].velocity.z > TAKE_OFF_RISE)
        .collect()
}

/// The rise of the first hop, if it takes off.
fn apex(run: &[Tick]) -> Option<f64> {
    let first = *take_offs(run).first()?;
    let base = run[first - 1].position.z;
    let top = run[first..]
        .iter()
        .take_while(|t| !t.walkable)
        .map(|t| t.position.z)
        .fold(base, f32::max);
    Some(f64::from(top - base))
}

/// The mean change of take-off speed per hop, with two hops or more.
fn hop_gain(run: &[Tick]) -> Option<f64> {
    let hops = take_offs(run);
    let (&first, &last) = (hops.first()?, hops.last()?);
    (hops.len() >= 2).then(|| {
        (horizontal(run[last].velocity) - horizontal(run[first].velocity)) / (hops.len() - 1) as f64
    })
}

fn strafe_speed(run: &[Tick]) -> Option<f64> {
    run.last().map(|t| horizontal(t.velocity))
}

fn time_to_run_speed(run: &[Tick]) -> Option<f64> {
    run.iter()
        .position(|t| horizontal(t.velocity) >= f64::from(RUN_SPEED))
        .map(|i| (i + 1) as f64 * TICK)
}

/// The four numbers' sums and counts over a level's runs, for one mover.
#[derive(Default, Clone, Copy)]
struct Sums([(f64, usize); 4]);

impl Sums {
    fn add(&mut self, scenario: &str, run: &[Tick]) {
        let values: [(usize, Option<f64>); 2] = match scenario {
            "hops" => [(0, apex(run)), (3, hop_gain(run))],
            "strafejump" => [(1, strafe_speed(run)), (1, None)],
            "run" => [(2, time_to_run_speed(run)), (2, None)],
            _ => [(0, None), (0, None)],
        };
        for (k, value) in values {
            if let Some(v) = value {
                self.0[k].0 += v;
                self.0[k].1 += 1;
            }
        }
    }

    fn means(&self) -> [Option<f64>; 4] {
        self.0.map(|(sum, n)| (n > 0).then(|| sum / n as f64))
    }
}

/// Whether `got` is within [`AGREEMENT`] of `want` (both missing: nothing to compare).
fn agrees(want: Option<f64>, got: Option<f64>) -> bool {
    match (want, got) {
        (Some(w), Some(g)) => (g - w).abs() <= AGREEMENT * w.abs().max(f64::EPSILON),
        (None, None) => true,
        _ => false,
    }
}

fn show(v: Option<f64>, digits: usize) -> String {
    v.map_or("-".to_owned(), |v| format!("{v:.digits$}"))
}

/// `want / got (±%)` with the relative difference when it is not zero at the shown digits.
fn cell(want: Option<f64>, got: Option<f64>, digits: usize) -> String {
    let (w, g) = (show(want, digits), show(got, digits));
    match (want, got) {
        (Some(a), Some(b)) if w != g && a != 0.0 => {
            format!("{w} / {g} ({:+.1} %)", 100.0 * (b - a) / a.abs())
        }
        _ => format!("{w} / {g}"),
    }
}

fn compile(maps: &Path, game: &GameNumbers, level: &str) -> CompiledMap {
    let dir = maps.join(game.levels);
    let bytes = std::fs::read(dir.join(format!("{level}.bsp"))).unwrap();
    let options = CompileOptions {
        shader_folders: vec![dir.join("scripts")],
        ..CompileOptions::default()
    };
    compile_level(&bytes, &options).unwrap().map
}

#[test]
fn the_four_numbers_of_each_profile_meet_the_games() {
    let Some(maps) = real_maps_dir("the_four_numbers_of_each_profile_meet_the_games") else {
        return;
    };
    let mut failures = Vec::new();
    for game in &GAMES {
        let root = maps.join("reference-moves").join(game.game);
        let runs: Vec<_> = files_in(&root, "jsonl")
            .into_iter()
            .filter(|(name, _)| name.ends_with(".in.jsonl"))
            .filter(|(name, _)| {
                ["hops", "strafejump", "run-"]
                    .iter()
                    .any(|s| name.contains(s))
            })
            .collect();
        if runs.is_empty() {
            println!("{}: no reference runs", game.game);
            continue;
        }
        // Per level: the game's, the profile's and planeshift's own sums.
        let mut levels: BTreeMap<String, [Sums; 3]> = BTreeMap::new();
        let mut compiled: BTreeMap<String, CompiledMap> = BTreeMap::new();
        for (name, input) in &runs {
            let Some((level, file)) = name.split_once('/') else {
                continue;
            };
            let scenario = file.split('-').next().unwrap_or(file);
            let world = compiled
                .entry(level.to_owned())
                .or_insert_with(|| compile(&maps, game, level));
            let text = std::fs::read_to_string(input).unwrap();
            let expected = input.with_file_name(file.replace(".in.", ".out."));
            let want = ticks_of(&std::fs::read_to_string(expected).unwrap());
            let profile = replay_world(world, (game.profile)(), &text, None).unwrap();
            let own = replay_world(world, ControllerConfig::default(), &text, None).unwrap();
            let sums = levels.entry(level.to_owned()).or_default();
            sums[0].add(scenario, &want);
            sums[1].add(scenario, &ticks_of(&profile.lines));
            sums[2].add(scenario, &ticks_of(&own.lines));
        }
        println!(
            "{}: game / profile (and planeshift's own movement), the mean over each level's runs",
            game.game
        );
        println!(
            "| level | jump apex | strafe-jump speed at 4.8 s | time to run speed (s) | bunny-hop gain per hop |"
        );
        println!("| --- | --- | --- | --- | --- |");
        let mut within = 0;
        let mut missing = Vec::new();
        for (level, [want, profile, own]) in &levels {
            let (w, p, o) = (want.means(), profile.means(), own.means());
            let digits = [2, 2, 3, 2];
            let cells: Vec<String> = (0..4).map(|k| cell(w[k], p[k], digits[k])).collect();
            println!("| {level} | {} |", cells.join(" | "));
            let owns: Vec<String> = (0..4).map(|k| show(o[k], digits[k])).collect();
            println!("|   (planeshift's own) | {} |", owns.join(" | "));
            let names = [
                "jump apex",
                "strafe-jump speed",
                "time to run speed",
                "hop gain",
            ];
            let misses: Vec<&str> = (0..4)
                .filter(|&k| !agrees(w[k], p[k]))
                .map(|k| names[k])
                .collect();
            if misses.is_empty() {
                within += 1;
            } else {
                missing.push(format!("{level} ({})", misses.join(", ")));
            }
        }
        println!(
            "  {} of {} levels within {} % on all four numbers; missing: {}",
            within,
            levels.len(),
            AGREEMENT * 100.0,
            if missing.is_empty() {
                "none".to_owned()
            } else {
                missing.join("; ")
            }
        );
        if within < levels.len() {
            failures.push(format!(
                "{}: {within} of {} levels within {} %",
                game.game,
                levels.len(),
                AGREEMENT * 100.0,
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
