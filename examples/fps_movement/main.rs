//! FPS movement on a real level: many seeded bots run the character controller together
//! through a compiled `.map`, colliding with each other and playing the level's triggers,
//! and the run is checked for the failures players notice.
//!
//! Takes a `.map` path (or a compiled `.bsp`, told apart by content, in every mode) and the
//! soak parameters; gives one JSON object (with `--json`) or a
//! short report. `--headless` is the soak mode (`planeshift_harness::soak`,
//! `tools/harness/src/soak.rs`):
//!
//! ```text
//! cargo run --release --example fps_movement -- --headless --map M.map --bots N --ticks T --seed S --json
//! {"map":"...","bots":N,"ticks":T,"moves":N,"inside_solid":N,"overlapping":N,"fell_out":N,"stuck":N,"deaths":N,"teleports":N,"jumppad_launches":N,"shots":N,"shots_hit_world":N,"shots_hit_character":N,"ns_per_move_median":x}
//! ```
//!
//! - The map is compiled in memory, as `bspc compile` would with the same `--game GAME`
//!   (quake, quake2, quake3 or halflife; detected from the map by default) and `--shaders
//!   DIR` (repeatable: Quake 3 shader script folders, first definition wins); bots spawn at
//!   its `info_player_start` and `info_player_deathmatch` origins in turn (a map with
//!   neither is refused: exit 2). A mesh (`.obj`, `.gltf`, `.glb`) is read with
//!   `--mesh-up z|y|y-bevy` and `--mesh-scale UNITS` (as `bspc`), in the soak and the
//!   replay alike; the soak spawns its bots on seeded free floor spots.
//! - The bots are one crowd: they block each other (`--no-collide`: each moves as if
//!   alone). Each holds a seeded random wish direction for 0.5 to 3 s, and sometimes jumps
//!   or crouches.
//! - `inside_solid` counts ticks that end with a bot inside solid in the world its movement
//!   collides with (`planeshift_harness::inside`: QuakeWorld's profile is its origin in the
//!   level's clip hull 1; the report adds its ticks with the box in the brushes but the
//!   origin open in the hull);
//!   `overlapping` counts pairs of bots overlapping at the end of a tick, summed over the
//!   ticks; `fell_out` counts bots that end below the world's bounds; `stuck` counts
//!   1-second windows in which a bot's wish stayed the same, a 16-unit sweep of its shape
//!   along the wish from where it stood was free (of the map and the other bots), and it
//!   moved less than 1 unit (a bot that fell below the world, or swims in a current, is not
//!   watched).
//! - The level's triggers play as Quake 3 plays them (`planeshift_harness::game`), on the triggers each
//!   tick's outcome lists as touched: `deaths` counts bots killed by a deadly
//!   `trigger_hurt` (on at the start and not healing, by the map's game's rule), each then
//!   respawning at the next free spawn point; `teleports` counts teleports taken (the
//!   destination's occupant is telefragged and respawns); `jumppad_launches` counts jump
//!   pads entered (the pad sets the velocity every tick it is touched). So `fell_out` counts
//!   only falls below the world no hurt volume caught.
//! - The bots shoot: every 10 ticks each bot fires a hitscan (a point, `MASK_SHOT`,
//!   skipping itself) from its eye along its view (its wish's yaw, a seeded pitch in
//!   [-30°, 30°]) through a `Scene` over the world and the bots; `shots` counts them,
//!   `shots_hit_world` those the world stopped, `shots_hit_character` those a bot stopped.
//! - `--teams N` puts the players in N teams (team mates pass through each other, other
//!   teams block: `CollisionGroups::team`), `--monsters N` makes the last N bots monsters
//!   (they move with `MASK_MONSTER_SOLID` and block everyone); `overlapping` then counts
//!   only pairs that should block each other, and `inside_solid` is under each bot's mask.
//! - `ns_per_move_median` is the median over the ticks of the crowd's tick wall time divided
//!   by the bots (the trigger play after it is timed apart: the report's "median trigger
//!   play").
//! - `--threads N` steps the crowd with `Crowd::step_parallel` in a rayon pool of N threads
//!   (the same counts, bit for bit); the JSON then goes on with `threads`,
//!   `ms_per_tick_median` (a tick of all bots, wall time) and the plan's `waves_median`,
//!   `waves_max`, `widest_wave_median`, `pairs_median`, `largest_island_median` and
//!   `redone` (ticks redone in id order). `--scatter` starts the bots at seeded random free spots dropped onto the floor
//!   inside the level (the space its spawn points reach; never the outside of a sealed
//!   level's hull; never through a deadly `trigger_hurt`, lava or slime) or onto a bot placed
//!   before, instead of the spawn points.
//!
//! Same seed, same map: the same counts (the controller and the crowd are deterministic;
//! timings differ). Exit status: 0 after a run, 2 for bad arguments or an unreadable map.
//!
//! `--movement planeshift|quake3|quakeworld` picks whose movement code runs, in the soak and the replay
//! alike (over the configuration's `movement`; `ControllerConfig::movement`). Without
//! `--config` the configuration is that movement's own (`ControllerConfig::quake3()`,
//! `ControllerConfig::quakeworld()`: QuakeWorld's 32-wide box), so a crowd's bodies are the
//! box the game's code moves and meets.
//!
//! `--headless --map M.map --replay IN.jsonl --ticks-out OUT.jsonl [--config C.toml]
//! [--movement NAME] [--state-in FILE] [--state-out FILE]` runs the replay contract instead
//! (`planeshift_harness::replay`):
//! one character driven by recorded inputs, one JSON line per tick; `--state-out` writes the
//! serialized state after the last tick, `--state-in` starts from one (`IN.jsonl` then holds
//! only tick lines), and a run cut in two that way equals the whole run bit for bit.
//!
//! The soak, the replay and the trigger play are the `planeshift_harness` package
//! (`tools/harness`), which the tests drive in process too; this file is the command line.
//! Without `--headless` it exits 2 and names the windowed walk-around, which is the viewer
//! package's: `cargo run -p planeshift_viewer --features window --example fps_walk -- --map
//! M.map` (`tools/viewer/examples/fps_walk.rs`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use planeshift::CompileOptions;
use planeshift::ControllerConfig;
use planeshift::build::{Game, MeshAxis, MeshOptions, compile_level_at, is_mesh_path};
use planeshift::movement::Movement;
use planeshift_harness::{mix, replay, soak};

use soak::{SoakOptions, soak};

/// Command line.
#[derive(Parser, Debug)]
#[command(about = "Character controller soak test and FPS movement demo")]
struct Args {
    /// The soak test (or with `--replay`, the replay contract); required: the window is
    /// the viewer package's `fps_walk`.
    #[arg(long)]
    headless: bool,
    /// The `.map` file, a compiled `.bsp`, or a mesh (`.obj`, `.gltf`, `.glb`: bots spawn on
    /// seeded free floor spots).
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
    /// Controller configuration (TOML); otherwise the movement's own (Quake 3's defaults for
    /// planeshift's)
    #[arg(long)]
    config: Option<String>,
    /// Whose movement code runs: planeshift (its own, the default) or a game's profile
    /// (quake3, quakeworld); over the configuration's `movement` when given.
    #[arg(long, value_name = "NAME", value_parser = parse_movement)]
    movement: Option<Movement>,
    /// The game whose brush rules give contents and whose trigger_hurt flags count: quake,
    /// quake2, quake3 or halflife (default: detected from the map).
    #[arg(long, value_name = "GAME")]
    game: Option<Game>,
    /// A folder of Quake 3 shader scripts (repeatable, first definition wins; read only for
    /// a Quake 3 map, over the built-in common/* tool shaders).
    #[arg(long = "shaders", value_name = "DIR")]
    shaders: Vec<PathBuf>,
    /// Which way is up in a mesh file: z (the default), y (glTF's convention) or y-bevy (as
    /// planeshift_bevy places a level).
    #[arg(long = "mesh-up", value_name = "AXIS", default_value = "z")]
    mesh_up: MeshAxis,
    /// Map units per mesh file unit (about 32 to 40 for a file in metres).
    #[arg(long = "mesh-scale", value_name = "UNITS", default_value_t = 1.0)]
    mesh_scale: f64,
    /// Replay mode: the recorded inputs (JSON lines; see `planeshift_harness::replay`).
    #[arg(long, value_name = "IN.jsonl", requires = "ticks_out")]
    replay: Option<PathBuf>,
    /// Replay mode: where the per-tick output lines go.
    #[arg(long, value_name = "OUT.jsonl", requires = "replay")]
    ticks_out: Option<PathBuf>,
    /// Replay mode: write the serialized state after the last tick to this file.
    #[arg(long, value_name = "FILE", requires = "replay")]
    state_out: Option<PathBuf>,
    /// Replay mode: start from this saved state (`IN.jsonl` then holds only tick lines).
    #[arg(long, value_name = "FILE", requires = "replay")]
    state_in: Option<PathBuf>,
    /// Soak mode: the bots move as if alone instead of blocking each other.
    #[arg(long)]
    no_collide: bool,
    /// Soak mode: step the crowd with `Crowd::step_parallel` on this many threads (same
    /// bits as without); the JSON's `ms_per_tick_median` is the wall time of a tick of all
    /// bots.
    #[arg(long)]
    threads: Option<usize>,
    /// Soak mode: start the bots scattered over the floor inside the level, the space its
    /// spawn points reach (seeded), instead of on its spawn points, for crowds of thousands.
    #[arg(long)]
    scatter: bool,
    /// Soak mode: the players form this many teams (team mates pass through each other,
    /// other teams block); 0: no teams.
    #[arg(long, default_value_t = 0)]
    teams: usize,
    /// Soak mode: the last N bots are monsters, moving with `MASK_MONSTER_SOLID` (monster
    /// clip stops them, player clip does not) and blocking everyone.
    #[arg(long, default_value_t = 0)]
    monsters: usize,
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

/// How the map compiles: `--game` and `--shaders`.
fn compile_options(args: &Args) -> CompileOptions {
    CompileOptions {
        game: args.game,
        shader_folders: args.shaders.clone(),
        ..CompileOptions::default()
    }
}

/// A `--movement` name.
fn parse_movement(name: &str) -> Result<Movement, String> {
    Movement::from_name(name).ok_or_else(|| format!("unknown movement `{name}`"))
}

/// The controller configuration named by `--config` with the movement `--movement` names,
/// or without `--config` that movement's own configuration (planeshift's: Quake 3's
/// defaults). A profile's own matters in a crowd: QuakeWorld meets the other players as
/// 32-wide boxes, so bodies of the default 30-wide box could be placed and left where each
/// starts inside the other's and never moves.
fn load_config(args: &Args) -> Result<ControllerConfig, String> {
    let mut config = match &args.config {
        None => match args.movement {
            Some(Movement::Quake3) => ControllerConfig::quake3(),
            Some(Movement::QuakeWorld) => ControllerConfig::quakeworld(),
            _ => ControllerConfig::default(),
        },
        Some(file) => {
            let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
            ControllerConfig::from_toml(&text).map_err(|e| match std::error::Error::source(&e) {
                Some(cause) => format!("{file}: {e}: {cause}"),
                None => format!("{file}: {e}"),
            })?
        }
    };
    if let Some(movement) = args.movement {
        config.movement = movement;
        config
            .validate()
            .map_err(|e| format!("--movement {}: {e}", movement.name()))?;
    }
    Ok(config)
}

fn run(args: &Args) -> Result<(), String> {
    if !args.headless {
        return interactive(args);
    }
    let path = args.map.as_deref().ok_or("--headless needs --map M.map")?;
    let mesh = MeshOptions::new(args.mesh_up, args.mesh_scale);
    if mesh != MeshOptions::default() && !is_mesh_path(path.as_ref()) {
        eprintln!(
            "fps_movement: {path}: warning: --mesh-up and --mesh-scale apply to meshes (.obj, \
             .gltf, .glb) only; ignored"
        );
    }
    if let (Some(input), Some(output)) = (&args.replay, &args.ticks_out) {
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        let text =
            std::fs::read_to_string(input).map_err(|e| format!("{}: {e}", input.display()))?;
        let state = match &args.state_in {
            Some(file) => Some(
                std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?,
            ),
            None => None,
        };
        // The level as the soak reads it (a mesh by its extension, with `--mesh-up` and
        // `--mesh-scale`; anything else by content), its errors named by the map's path.
        let world = compile_level_at(&bytes, path.as_ref(), &mesh, &compile_options(args))
            .map_err(|e| format!("{path}: {e}"))?
            .map;
        let run = replay::replay_world(&world, load_config(args)?, &text, state.as_deref())
            .map_err(|e| format!("{}: {e}", input.display()))?;
        if let Some(file) = &args.state_out {
            std::fs::write(file, &run.state).map_err(|e| format!("{}: {e}", file.display()))?;
        }
        return std::fs::write(output, run.lines).map_err(|e| format!("{}: {e}", output.display()));
    }
    let options = SoakOptions {
        bots: args.bots,
        ticks: args.ticks,
        seed: args.seed,
        config: load_config(args)?,
        report: args.report,
        compile: compile_options(args),
        collide: !args.no_collide,
        threads: args.threads,
        scatter: args.scatter,
        mix: mix::Mix {
            teams: args.teams,
            monsters: args.monsters,
        },
    };
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let summary = if is_mesh_path(path.as_ref()) {
        soak::soak_mesh((&bytes, path.as_ref()), &mesh, &options)
    } else {
        soak(&bytes, &options)
    }
    .map_err(|e| format!("{path}: {e}"))?;
    let median = summary.median_tick_ns;
    let moves = summary.moves;
    if args.json {
        println!("{}", soak::summary_json(path, &options, &summary));
    } else {
        println!(
            "{path}: {} bots x {} ticks = {moves} moves",
            args.bots, args.ticks
        );
        println!("  spawn points: {}", summary.spawns);
        let [teleporters, pads, hurts] = summary.triggers;
        println!(
            "  triggers played: {teleporters} teleporters, {pads} jump pads, {hurts} deadly hurt volumes"
        );
        println!("  ticks ending inside solid: {}", summary.inside_solid);
        println!(
            "  of those, with the origin in the clip hull within the game's 1/8 nudge of open (QuakeWorld): {}",
            summary.inside_nudged
        );
        println!(
            "  ticks ending with the box in the brushes, the origin open in the clip hull (QuakeWorld): {}",
            summary.inside_brushes_only
        );
        println!(
            "  bot pairs overlapping at a tick's end: {}",
            summary.overlapping
        );
        println!("  bots fallen out of the world: {}", summary.fell_out);
        println!("  stuck seconds: {}", summary.stuck);
        let shots = summary.shots;
        println!(
            "  shots: {}; hit the world: {}; hit a character: {}; missed: {}",
            shots.shots, shots.hit_world, shots.hit_character, shots.missed
        );
        println!("  deaths in trigger_hurt: {}", summary.deaths);
        println!(
            "  teleports: {}; jump pad launches: {}; telefrags: {}",
            summary.teleports, summary.jumppad_launches, summary.telefrags
        );
        println!("  median tick: {median} ns per bot");
        if summary.median_touch_ns > 0 {
            println!("  median trigger play: {} ns", summary.median_touch_ns);
        }
        let per_bot = summary.travelled / args.bots.max(1) as f32;
        let share = summary.grounded as f32 / moves.max(1) as f32;
        println!("  distance per bot: {per_bot:.0} units; ticks on walkable ground: {share:.3}");
        println!(
            "  ticks swimming: {}; on ladders: {}",
            summary.swimming, summary.climbing
        );
    }
    Ok(())
}

/// The windowed walk-around is the viewer package's `fps_walk` example: this program stays
/// headless, so neither it nor the library's tests build a window.
fn interactive(_args: &Args) -> Result<(), String> {
    Err(
        "the interactive mode is the viewer's: `cargo run -p planeshift_viewer --features window \
         --example fps_walk -- --map M.map`; `--headless --map M.map` runs the soak test"
            .to_string(),
    )
}
