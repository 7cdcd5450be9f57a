//! The soak test of `fps_movement --headless`, as a function: many seeded bots run the
//! character controller through a compiled world, and the run counts the failures players
//! notice. The example's `main.rs` prints its summary; `tests/it/controller/soak.rs` runs it
//! in-process on every map.
//!
//! Takes the map's bytes and [`SoakOptions`]; gives a [`SoakSummary`] or a message. Same
//! seed, same map: the same counts (the controller is deterministic; timings differ).
//! - Bots spawn at the map's `info_player_start` and `info_player_deathmatch` origins in
//!   turn (a map with neither is refused).
//! - Each bot holds a seeded random wish direction for 0.5 to 3 s, and sometimes jumps or
//!   crouches; the bots do not collide with each other.
//! - `inside_solid` counts ticks that end with a bot's shape overlapping solid; `fell_out`
//!   counts bots that end below the world's bounds; `stuck` counts 1-second windows in which
//!   a bot's wish stayed the same, a 16-unit sweep of its shape along the wish from where it
//!   stood was free, and it moved less than 1 unit.

use std::time::Instant;

use glam::Vec3;
use planeshift::controller::{CharacterController, ControllerConfig, MoveInput, Tracer};
use planeshift::{CompiledMap, compile_map, parse_map};
use rayon::prelude::*;

/// What to run.
#[derive(Clone, Copy, Debug)]
pub struct SoakOptions {
    /// How many bots.
    pub bots: usize,
    /// How many ticks each bot runs.
    pub ticks: usize,
    /// Seed of the bots' inputs.
    pub seed: u64,
    /// The controller configuration of every bot.
    pub config: ControllerConfig,
    /// Print, on stderr, where fallen bots last stood and where stuck seconds happened.
    pub report: bool,
}

/// What a soak counted, summed over the bots.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SoakSummary {
    /// Bot ticks run (`bots × ticks`).
    pub moves: usize,
    /// The map's player spawn points.
    pub spawns: usize,
    /// Ticks that ended with a bot's shape overlapping solid.
    pub inside_solid: usize,
    /// Bots that ended below the world's bounds.
    pub fell_out: usize,
    /// Stuck 1-second windows.
    pub stuck: usize,
    /// Path length of all bots, units.
    pub travelled: f32,
    /// Ticks that ended on walkable ground.
    pub grounded: usize,
    /// The median wall time of one controller tick, ns.
    pub median_tick_ns: u32,
}

/// The soak's JSON object, fields in the contract's order:
/// `{"map":…,"bots":N,"ticks":T,"moves":N,"inside_solid":N,"fell_out":N,"stuck":N,"ns_per_move_median":x}`.
pub fn summary_json(map: &str, options: &SoakOptions, summary: &SoakSummary) -> String {
    let map = serde_json::Value::from(map);
    format!(
        "{{\"map\":{map},\"bots\":{},\"ticks\":{},\"moves\":{},\"inside_solid\":{},\
         \"fell_out\":{},\"stuck\":{},\"ns_per_move_median\":{}}}",
        options.bots,
        options.ticks,
        summary.moves,
        summary.inside_solid,
        summary.fell_out,
        summary.stuck,
        summary.median_tick_ns
    )
}

/// Runs the soak on the `.map` file `bytes`.
pub fn soak(bytes: &[u8], options: &SoakOptions) -> Result<SoakSummary, String> {
    soak_counting(bytes, options, &|_, _| false).map(|(summary, _)| summary)
}

/// A tick's test for [`soak_counting`]: the world and the character after the tick.
pub type TickTest<'a> = dyn Fn(&CompiledMap, &CharacterController) -> bool + Sync + 'a;

/// [`soak`], also counting the ticks after which `count` holds (say, the ticks that end
/// standing on a curved patch).
pub fn soak_counting(
    bytes: &[u8],
    options: &SoakOptions,
    count: &TickTest<'_>,
) -> Result<(SoakSummary, usize), String> {
    let spawns = spawn_points(bytes)?;
    if spawns.is_empty() {
        return Err("no info_player_start or info_player_deathmatch to spawn bots at".to_string());
    }
    let world = compile_map(bytes).map_err(|e| e.to_string())?.map;
    let floor = world.models().first().map_or(0.0, |m| m.mins.z);
    let reports: Vec<Result<BotReport, String>> = (0..options.bots)
        .into_par_iter()
        .map(|bot| {
            let spawn = spawns[bot % spawns.len()];
            soak_bot(
                &world,
                options.config,
                spawn,
                options,
                bot as u64,
                floor,
                count,
            )
        })
        .collect();
    let reports = reports.into_iter().collect::<Result<Vec<_>, _>>()?;
    let mut times: Vec<u32> = reports
        .iter()
        .flat_map(|r| r.tick_ns.iter().copied())
        .collect();
    let median_tick_ns = if times.is_empty() {
        0
    } else {
        let middle = times.len() / 2;
        *times.select_nth_unstable(middle).1
    };
    let counted = reports.iter().map(|r| r.counted).sum();
    let summary = SoakSummary {
        moves: options.bots * options.ticks,
        spawns: spawns.len(),
        inside_solid: reports.iter().map(|r| r.inside_solid).sum(),
        fell_out: reports.iter().filter(|r| r.fell_out).count(),
        stuck: reports.iter().map(|r| r.stuck).sum(),
        travelled: reports.iter().map(|r| r.travelled).sum(),
        grounded: reports.iter().map(|r| r.grounded).sum(),
        median_tick_ns,
    };
    Ok((summary, counted))
}

/// Length of the sweep that decides whether a still bot had room to move, in units.
const STUCK_PROBE: f32 = 16.0;

/// A bot that moved less than this in a second with room to move is stuck, in units.
const STUCK_DISTANCE: f32 = 1.0;

/// Chance per tick that a bot taps jump (about once every 4 s at 8 ms).
const JUMP_CHANCE: f32 = 0.002;

/// What one bot's run counted.
#[derive(Default)]
struct BotReport {
    inside_solid: usize,
    fell_out: bool,
    stuck: usize,
    tick_ns: Vec<u32>,
    /// Path length, units.
    travelled: f32,
    /// Ticks that ended on walkable ground.
    grounded: usize,
    /// Ticks after which the caller's test held.
    counted: usize,
}

/// SplitMix64: a small seeded generator, so every bot's inputs replay exactly.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// The bots' decisions: a wish held for a while, with jumps and crouches.
struct Driver {
    rng: SplitMix,
    input: MoveInput,
    ticks_left: usize,
    ticks_per_second: usize,
}

impl Driver {
    fn next(&mut self) -> MoveInput {
        if self.ticks_left == 0 {
            let angle = self.rng.unit() * std::f32::consts::TAU;
            let strength = if self.rng.unit() < 0.1 { 0.0 } else { 1.0 };
            self.input.wish = Vec3::new(angle.cos(), angle.sin(), 0.0) * strength;
            self.input.crouch = self.rng.unit() < 0.15;
            let seconds = 0.5 + 2.5 * self.rng.unit();
            self.ticks_left = (seconds * self.ticks_per_second as f32) as usize;
        }
        self.ticks_left -= 1;
        // Tap jump now and then (pressed for one tick, so it can jump again).
        self.input.jump = self.rng.unit() < JUMP_CHANCE;
        self.input
    }
}

/// Runs one bot and counts its failures.
fn soak_bot(
    world: &CompiledMap,
    config: ControllerConfig,
    spawn: Vec3,
    options: &SoakOptions,
    bot: u64,
    floor: f32,
    count: &TickTest<'_>,
) -> Result<BotReport, String> {
    let mut character = CharacterController::new(config, spawn).map_err(|e| e.to_string())?;
    let ticks_per_second = (1.0 / config.tick).round().max(1.0) as usize;
    let mut driver = Driver {
        rng: SplitMix(options.seed ^ bot.wrapping_mul(0x2545_f491_4f6c_dd1d)),
        input: MoveInput::default(),
        ticks_left: 0,
        ticks_per_second,
    };
    let mut report = BotReport {
        tick_ns: Vec::with_capacity(options.ticks),
        ..BotReport::default()
    };
    let mut window: Option<(Vec3, Vec3, bool)> = None;
    let mut last_ground = (0, spawn);
    for tick in 0..options.ticks {
        let input = driver.next();
        if tick % ticks_per_second == 0 {
            // A new 1-second window: where the bot stands, what it wants, and whether a
            // 16-unit sweep of its shape that way is free.
            let direction = input.wish.normalize_or_zero();
            let center = character.shape_center();
            let probe = Tracer::trace(
                world,
                character.shape(),
                center,
                center + direction * STUCK_PROBE,
            );
            let room = direction != Vec3::ZERO && !probe.hit();
            window = Some((character.position(), input.wish, room));
        }
        let before = character.position();
        let started = Instant::now();
        character.step(world, &input);
        let elapsed = started.elapsed().as_nanos();
        report
            .tick_ns
            .push(u32::try_from(elapsed).unwrap_or(u32::MAX));
        if character.overlaps(world) {
            report.inside_solid += 1;
        }
        if count(world, &character) {
            report.counted += 1;
        }
        report.travelled += (character.position() - before).length();
        if character.ground().is_walkable() {
            report.grounded += 1;
            last_ground = (tick, character.position());
        }
        if let Some((_, wish, _)) = window
            && wish != input.wish
        {
            window = None;
        }
        if tick % ticks_per_second == ticks_per_second - 1
            && let Some((start, _, true)) = window
            && (character.position() - start).length() < STUCK_DISTANCE
        {
            report.stuck += 1;
            if options.report {
                let p = character.position();
                eprintln!(
                    "bot {bot} stuck in the second ending at tick {tick}: origin {} {} {}, \
                     wish {} {}, {:?}, crouched {}",
                    p.x,
                    p.y,
                    p.z,
                    input.wish.x,
                    input.wish.y,
                    character.ground().state,
                    character.crouched()
                );
            }
        }
    }
    report.fell_out = character.position().z < floor;
    if report.fell_out && options.report {
        let (tick, position) = last_ground;
        eprintln!(
            "bot {bot} fell out of the world: last on walkable ground at tick {tick}, origin \
             {} {} {} (a leak to the void near there?)",
            position.x, position.y, position.z
        );
    }
    Ok(report)
}

/// The origins of the map's player spawn points.
pub fn spawn_points(bytes: &[u8]) -> Result<Vec<Vec3>, String> {
    let map = parse_map(bytes).map_err(|e| e.to_string())?;
    Ok(map
        .player_spawns()
        .map(|origin| origin.as_vec3())
        .filter(|origin| origin.is_finite())
        .collect())
}
