//! FPS movement on a real level: many seeded bots run the character controller through a
//! compiled `.map`, and the run is checked for the failures players notice.
//!
//! Takes a `.map` path and the soak parameters; gives one JSON object (with `--json`) or a
//! short report. `--headless` is the soak mode of issue #5:
//!
//! ```text
//! cargo run --release --example fps_movement -- --headless --map M.map --bots N --ticks T --seed S --json
//! {"map":"...","bots":N,"ticks":T,"moves":N,"inside_solid":N,"fell_out":N,"stuck":N,"ns_per_move_median":x}
//! ```
//!
//! - The map is compiled in memory; bots spawn at its `info_player_start` and
//!   `info_player_deathmatch` origins in turn (a map with neither is refused: exit 2).
//! - Each bot holds a seeded random wish direction for 0.5 to 3 s, and sometimes jumps or
//!   crouches; the bots do not collide with each other.
//! - `inside_solid` counts ticks that end with a bot's shape overlapping solid; `fell_out`
//!   counts bots that end below the world's bounds; `stuck` counts 1-second windows in which
//!   a bot's wish stayed the same, a 16-unit sweep of its shape along the wish from where it
//!   stood was free, and it moved less than 1 unit.
//! - `ns_per_move_median` is the median wall time of one controller tick.
//!
//! Same seed, same map: the same counts (the controller is deterministic; timings differ).
//! Exit status: 0 after a run, 2 for bad arguments or an unreadable map.
//!
//! Without `--headless` (needs the `viewer` feature, on by default): the interactive mode,
//! the top-down viewer of `trace_visualizer` with the camera following the character and
//! the slice following its height. WASD walks (W = up on screen), Space jumps, C crouches;
//! the viewer's mouse and keys work too. `--frames N` exits 0 after N frames; no display or
//! GPU adapter exits 2 with a message.

use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use glam::Vec3;
use planeshift::compile::compile_map;
use planeshift::compiled::CompiledMap;
use planeshift::controller::{CharacterController, ControllerConfig, MoveInput, Tracer};
use planeshift::map::parse_map;
use rayon::prelude::*;

#[cfg(feature = "viewer")]
#[path = "viewer_support/mod.rs"]
mod viewer_support;

/// Command line.
#[derive(Parser, Debug)]
#[command(about = "Character controller soak test and FPS movement demo")]
struct Args {
    /// Run without a window: the soak test.
    #[arg(long)]
    headless: bool,
    /// The `.map` file.
    #[arg(long)]
    map: Option<String>,
    /// How many bots.
    #[arg(long, default_value_t = 64)]
    bots: usize,
    /// How many ticks each bot runs.
    #[arg(long, default_value_t = 20_000)]
    ticks: usize,
    /// Seed of the bots' inputs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON object instead of a report.
    #[arg(long)]
    json: bool,
    /// Print, for each bot that fell out of the world, where it last stood on walkable
    /// ground (usually next to a leak), and where each stuck second happened.
    #[arg(long)]
    report: bool,
    /// Controller configuration (TOML); Quake 3 defaults otherwise.
    #[arg(long)]
    config: Option<String>,
    /// Interactive mode: exit 0 after this many frames.
    #[arg(long)]
    frames: Option<u64>,
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

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("fps_movement: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &Args) -> Result<(), String> {
    if !args.headless {
        return interactive(args);
    }
    let path = args.map.as_deref().ok_or("--headless needs --map M.map")?;
    let config = match &args.config {
        Some(file) => {
            let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
            ControllerConfig::from_toml(&text).map_err(|e| format!("{file}: {e}"))?
        }
        None => ControllerConfig::default(),
    };
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let spawns = spawn_points(&bytes).map_err(|e| format!("{path}: {e}"))?;
    if spawns.is_empty() {
        return Err(format!(
            "{path}: no info_player_start or info_player_deathmatch to spawn bots at"
        ));
    }
    let world = compile_map(&bytes).map_err(|e| format!("{path}: {e}"))?.map;
    let floor = world.models().first().map_or(0.0, |m| m.mins.z);
    let reports: Vec<Result<BotReport, String>> = (0..args.bots)
        .into_par_iter()
        .map(|bot| {
            let spawn = spawns[bot % spawns.len()];
            soak_bot(&world, config, spawn, args, bot as u64, floor)
        })
        .collect();
    let reports = reports.into_iter().collect::<Result<Vec<_>, _>>()?;
    let inside_solid: usize = reports.iter().map(|r| r.inside_solid).sum();
    let fell_out = reports.iter().filter(|r| r.fell_out).count();
    let stuck: usize = reports.iter().map(|r| r.stuck).sum();
    let travelled: f32 = reports.iter().map(|r| r.travelled).sum();
    let grounded: usize = reports.iter().map(|r| r.grounded).sum();
    let mut times: Vec<u32> = reports.into_iter().flat_map(|r| r.tick_ns).collect();
    let median = if times.is_empty() {
        0
    } else {
        let middle = times.len() / 2;
        *times.select_nth_unstable(middle).1
    };
    let moves = args.bots * args.ticks;
    if args.json {
        // Fields in the contract's order.
        let map = serde_json::Value::from(path);
        println!(
            "{{\"map\":{map},\"bots\":{},\"ticks\":{},\"moves\":{moves},\
             \"inside_solid\":{inside_solid},\"fell_out\":{fell_out},\"stuck\":{stuck},\
             \"ns_per_move_median\":{median}}}",
            args.bots, args.ticks
        );
    } else {
        println!(
            "{path}: {} bots x {} ticks = {moves} moves",
            args.bots, args.ticks
        );
        println!("  spawn points: {}", spawns.len());
        println!("  ticks ending inside solid: {inside_solid}");
        println!("  bots fallen out of the world: {fell_out}");
        println!("  stuck seconds: {stuck}");
        println!("  median tick: {median} ns");
        let per_bot = travelled / args.bots.max(1) as f32;
        let share = grounded as f32 / moves.max(1) as f32;
        println!("  distance per bot: {per_bot:.0} units; ticks on walkable ground: {share:.3}");
    }
    Ok(())
}

/// Pixels per unit of the following camera: about 850 units across a 1280-pixel window.
#[cfg(feature = "viewer")]
const FOLLOW_ZOOM: f32 = 1.5;

/// The interactive mode: the viewer's window, following the character.
#[cfg(feature = "viewer")]
fn interactive(args: &Args) -> Result<(), String> {
    use viewer_support::app::{WindowOptions, run as run_window};
    let path = args
        .map
        .as_deref()
        .ok_or("the interactive mode needs --map M.map")?;
    let config = match &args.config {
        Some(file) => {
            let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
            ControllerConfig::from_toml(&text).map_err(|e| format!("{file}: {e}"))?
        }
        None => ControllerConfig::default(),
    };
    let loaded = viewer_support::load_world(std::path::Path::new(path)).map_err(|f| f.message)?;
    let spawn = loaded
        .spawn
        .unwrap_or_else(|| viewer_support::world_center(&loaded.world));
    let character =
        CharacterController::new(config, spawn).map_err(|e| format!("spawn point: {e}"))?;
    let size = (1280, 800);
    let camera = planeshift::view::Camera::new(size.0, size.1, spawn.truncate(), FOLLOW_ZOOM);
    let scene = planeshift::view::Scene::new(&loaded.world, camera, character.shape_center().z);
    run_window(
        loaded.world,
        scene,
        Some(character),
        WindowOptions {
            title: format!("planeshift fps movement: {path}"),
            size,
            frames: args.frames,
            capture: None,
            follow: true,
        },
    )
    .map_err(|f| f.message)
}

/// Without the viewer there is no interactive mode.
#[cfg(not(feature = "viewer"))]
fn interactive(_args: &Args) -> Result<(), String> {
    Err(
        "the interactive mode needs the viewer: build with `--features viewer`; \
         `--headless --map M.map` runs the soak test"
            .to_string(),
    )
}

/// Runs one bot and counts its failures.
fn soak_bot(
    world: &CompiledMap,
    config: ControllerConfig,
    spawn: Vec3,
    args: &Args,
    bot: u64,
    floor: f32,
) -> Result<BotReport, String> {
    let mut character = CharacterController::new(config, spawn).map_err(|e| e.to_string())?;
    let ticks_per_second = (1.0 / config.tick).round().max(1.0) as usize;
    let mut driver = Driver {
        rng: SplitMix(args.seed ^ bot.wrapping_mul(0x2545_f491_4f6c_dd1d)),
        input: MoveInput::default(),
        ticks_left: 0,
        ticks_per_second,
    };
    let mut report = BotReport {
        tick_ns: Vec::with_capacity(args.ticks),
        ..BotReport::default()
    };
    let mut window: Option<(Vec3, Vec3, bool)> = None;
    let mut last_ground = (0, spawn);
    for tick in 0..args.ticks {
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
            if args.report {
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
    if report.fell_out && args.report {
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
fn spawn_points(bytes: &[u8]) -> Result<Vec<Vec3>, String> {
    let map = parse_map(bytes).map_err(|e| e.to_string())?;
    Ok(map
        .player_spawns()
        .map(|origin| origin.as_vec3())
        .filter(|origin| origin.is_finite())
        .collect())
}
