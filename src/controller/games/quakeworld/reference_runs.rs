//! The check of the profile against the game: every recorded QuakeWorld run replayed.
//!
//! Takes every `reference-moves/quakeworld/LEVEL/SCENARIO-N.{in,out}.jsonl` under the real
//! maps folder (whatever their count) and the level's `.bsp` from `id-quake-1996/`; replays
//! each run's commands from its spawn through [`tick`] on the level imported from the
//! `.bsp` (its own clip hull 1 walked, its hull 0's contents), and compares each tick's position, velocity, ground and water level with the game's.
//! Gives a printed table per level and per scenario (ticks within 0.01, runs within 0.1 on
//! every tick, velocity agreement, the first diverging tick of each failing run), prints
//! how far that is from issue #37's acceptance, and asserts the floors the profile keeps.

use std::collections::BTreeMap;
use std::path::Path;

use glam::Vec3;

use super::{QuakeWorldGround, QuakeWorldLevel, QuakeWorldMemo, QuakeWorldState, ground, tick};
use crate::CompileOptions;
use crate::compile::import_bsp;
use crate::controller::{MoveCommand, Tracer};

/// A tick agrees when its position is this close to the game's, in units.
const TICK_TOLERANCE: f32 = 0.01;
/// A run agrees when every tick's position is this close, in units.
const RUN_TOLERANCE: f32 = 0.1;
/// A tick's velocity agrees when this close, in units a second.
const VELOCITY_TOLERANCE: f32 = 0.1;
/// Issue #37's acceptance: the share of ticks within [`TICK_TOLERANCE`].
const TICK_ACCEPTANCE: f64 = 0.999;
/// Issue #37's acceptance: the share of runs within [`RUN_TOLERANCE`] on every tick.
const RUN_ACCEPTANCE: f64 = 0.98;
/// The share of ticks within [`TICK_TOLERANCE`] this profile keeps (asserted, so it never
/// gets worse): measured 100 % of the 45,000 ticks of the 90 shared runs since the player
/// walks the level's own clip hull 1 as the game does (`PM_RecursiveHullCheck`); 92.86 %
/// when it swept the brushes rebuilt from that hull's regions.
const TICK_FLOOR: f64 = 1.0;
/// The share of runs within [`RUN_TOLERANCE`] on every tick this profile keeps: measured
/// 100 % (90 of 90).
const RUN_FLOOR: f64 = 1.0;
/// The share of ticks whose velocity is within [`VELOCITY_TOLERANCE`]: measured 100 %.
const VELOCITY_FLOOR: f64 = 1.0;
/// Milliseconds a recorded tick lasts.
const TICK_MSEC: u8 = 8;

/// One command line of a run.
struct Command {
    command: MoveCommand,
    jump: bool,
    crouch: bool,
}

/// One line of the game's output.
struct Expected {
    position: Vec3,
    velocity: Vec3,
    ground: QuakeWorldGround,
    water_level: u8,
}

/// The agreement of some runs.
#[derive(Default)]
struct Tally {
    ticks: usize,
    ticks_close: usize,
    velocity_close: usize,
    ground_same: usize,
    water_same: usize,
    runs: usize,
    runs_close: usize,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.ticks += other.ticks;
        self.ticks_close += other.ticks_close;
        self.velocity_close += other.velocity_close;
        self.ground_same += other.ground_same;
        self.water_same += other.water_same;
        self.runs += other.runs;
        self.runs_close += other.runs_close;
    }

    fn line(&self, name: &str) -> String {
        let pct = |n: usize, d: usize| 100.0 * n as f64 / d.max(1) as f64;
        format!(
            "{name:<12} ticks {:>6}  pos<=0.01 {:>7.3}%  vel<=0.1 {:>7.3}%  ground {:>7.3}%  water {:>7.3}%  runs {:>3}  runs<=0.1 {:>7.3}%",
            self.ticks,
            pct(self.ticks_close, self.ticks),
            pct(self.velocity_close, self.ticks),
            pct(self.ground_same, self.ticks),
            pct(self.water_same, self.ticks),
            self.runs,
            pct(self.runs_close, self.runs),
        )
    }
}

fn vec3(v: &serde_json::Value) -> Option<Vec3> {
    let a = v.as_array()?;
    let f = |i: usize| a.get(i).and_then(serde_json::Value::as_f64).map(|x| x as f32);
    Some(Vec3::new(f(0)?, f(1)?, f(2)?))
}

fn lines(path: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect()
}

fn read_input(path: &Path) -> (Vec3, Vec<Command>) {
    let all = lines(path);
    let spawn = all.first().and_then(|l| vec3(&l["spawn"])).expect("a spawn line");
    let commands = all[1..]
        .iter()
        .map(|l| {
            let view = l["view"].as_array().expect("view");
            let moves = vec3(&l["move"]).expect("move");
            Command {
                command: MoveCommand {
                    pitch: view[0].as_f64().expect("pitch") as f32,
                    yaw: view[1].as_f64().expect("yaw") as f32,
                    forward: moves.x,
                    side: moves.y,
                    up: moves.z,
                },
                jump: l["jump"].as_bool().unwrap_or(false),
                crouch: l["crouch"].as_bool().unwrap_or(false),
            }
        })
        .collect();
    (spawn, commands)
}

fn read_output(path: &Path) -> Vec<Expected> {
    lines(path)
        .iter()
        .map(|l| Expected {
            position: vec3(&l["position"]).expect("position"),
            velocity: vec3(&l["velocity"]).expect("velocity"),
            ground: match l["ground"].as_str() {
                Some("walkable") => QuakeWorldGround::Walkable,
                Some("steep") => QuakeWorldGround::Steep,
                _ => QuakeWorldGround::Air,
            },
            water_level: l["water_level"].as_u64().unwrap_or(0) as u8,
        })
        .collect()
}

/// Replays one run; its tally and, when it fails, its first diverging tick and the gap.
fn replay<T: Tracer + ?Sized>(
    level: QuakeWorldLevel<'_, T>,
    input: &Path,
    output: &Path,
) -> (Tally, Option<String>) {
    let (spawn, commands) = read_input(input);
    let expected = read_output(output);
    let mut state = QuakeWorldState::at_rest(spawn);
    let mut tally = Tally {
        runs: 1,
        ..Tally::default()
    };
    let mut worst = 0.0f32;
    let mut first = None;
    for (n, (c, e)) in commands.iter().zip(&expected).enumerate() {
        tick((level, &mut QuakeWorldMemo::default()), &mut state, &c.command, c.jump, c.crouch, TICK_MSEC);
        let gap = (state.origin - e.position).abs().max_element();
        let vgap = (state.velocity - e.velocity).abs().max_element();
        tally.ticks += 1;
        tally.ticks_close += usize::from(gap <= TICK_TOLERANCE);
        tally.velocity_close += usize::from(vgap <= VELOCITY_TOLERANCE);
        tally.ground_same += usize::from(ground(level, &state) == e.ground);
        tally.water_same += usize::from(state.water_level == e.water_level);
        worst = worst.max(gap);
        if first.is_none() && (gap > TICK_TOLERANCE || vgap > VELOCITY_TOLERANCE) {
            first = Some(format!(
                "tick {n}: ours {} {} game {} {} (gap {gap}, velocity gap {vgap})",
                state.origin, state.velocity, e.position, e.velocity
            ));
        }
    }
    tally.runs_close = usize::from(worst <= RUN_TOLERANCE);
    let failing = worst > RUN_TOLERANCE || tally.ticks_close < tally.ticks;
    (tally, first.filter(|_| failing))
}

#[test]
fn every_quakeworld_reference_run_agrees_with_the_game() {
    let Some(maps) = planeshift_testkit::real_maps_dir("quakeworld reference runs") else {
        return;
    };
    let runs_dir = maps.join("reference-moves").join("quakeworld");
    let inputs = planeshift_testkit::files_in(&runs_dir, "jsonl");
    let mut by_level: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (name, _) in &inputs {
        if let Some(run) = name.strip_suffix(".in.jsonl")
            && let Some((level, run)) = run.split_once('/')
        {
            by_level.entry(level.to_owned()).or_default().push(run.to_owned());
        }
    }
    assert!(!by_level.is_empty(), "no runs under {}", runs_dir.display());
    let mut total = Tally::default();
    let mut by_scenario: BTreeMap<String, Tally> = BTreeMap::new();
    let mut failures = Vec::new();
    for (level_name, runs) in &by_level {
        let bsp = maps.join("id-quake-1996").join(format!("{level_name}.bsp"));
        let bytes = std::fs::read(&bsp).unwrap_or_else(|e| panic!("{}: {e}", bsp.display()));
        let options = CompileOptions::default();
        let hull0 = import_bsp(&bytes, &options).expect("level").map;
        let level = QuakeWorldLevel::new(&hull0);
        let mut level_tally = Tally::default();
        for run in runs {
            let input = runs_dir.join(level_name).join(format!("{run}.in.jsonl"));
            let output = runs_dir.join(level_name).join(format!("{run}.out.jsonl"));
            let (tally, failure) = replay(level, &input, &output);
            let scenario = run.split('-').next().unwrap_or(run).to_owned();
            by_scenario.entry(scenario).or_default().add(&tally);
            level_tally.add(&tally);
            if let Some(f) = failure {
                failures.push(format!("{level_name}/{run}: {f}"));
            }
        }
        println!("{}", level_tally.line(level_name));
        total.add(&level_tally);
    }
    for (scenario, tally) in &by_scenario {
        println!("{}", tally.line(scenario));
    }
    println!("{}", total.line("all"));
    for f in &failures {
        println!("diverges {f}");
    }
    let share = |n: usize, d: usize| n as f64 / d.max(1) as f64;
    let ticks = share(total.ticks_close, total.ticks);
    let runs = share(total.runs_close, total.runs);
    println!(
        "acceptance (issue #37): ticks {:.3}% of {:.1}% {}, runs {:.3}% of {:.0}% {}",
        100.0 * ticks,
        100.0 * TICK_ACCEPTANCE,
        if ticks >= TICK_ACCEPTANCE { "met" } else { "NOT met" },
        100.0 * runs,
        100.0 * RUN_ACCEPTANCE,
        if runs >= RUN_ACCEPTANCE { "met" } else { "NOT met" },
    );
    assert!(ticks >= TICK_FLOOR, "{}", total.line("all"));
    assert!(runs >= RUN_FLOOR, "{}", total.line("all"));
    let velocity = share(total.velocity_close, total.ticks);
    assert!(velocity >= VELOCITY_FLOOR, "{}", total.line("all"));
}


