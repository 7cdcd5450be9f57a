//! The movement profiles' tick cost against planeshift's own tick: issue 37 asks a profile's
//! tick to cost at most 1.2× planeshift's own on the same maps.
//!
//! Takes the shared levels of each game from `$PLANESHIFT_REAL_MAPS` (default
//! `../shared/maps`; a missing one is skipped): Quake 3's from `openarena-lostlevels/` as
//! `.bsp` with the folder's shaders, QuakeWorld's from `id-quake-1996/` as `.bsp`, the levels
//! the reference runs were recorded on. Gives criterion benchmarks
//! `profiles/<level>/planeshift` and `profiles/<level>/<profile>`, one iteration being one
//! tick of every character, and at the end a table of ns per character tick for each side
//! and the ratio (profile over planeshift's own), computed from the very samples criterion
//! measured (total time over total iterations of its measurement samples, divided by the
//! number of characters), and beside it a steadier figure on a busy machine: each side's
//! fastest of [`ROUNDS`] whole episodes, the two sides alternating. Before timing a level, one checksum line per side: FNV-1a over the
//! bits of every character's final position and velocity after the warm-up and one episode,
//! so a speed change must leave them as they are (`cargo bench --bench profiles -- --test`
//! prints them and times nothing).
//!
//! Guarantees: both sides of a level tick the same characters (same spawn points, same
//! seeded commands) over the same compiled level, each character alone (no crowd), with its
//! tick cache on as a game has it; the only difference is `ControllerConfig::movement`
//! (`ControllerConfig::default()` against `ControllerConfig::quake3()` or
//! `ControllerConfig::quakeworld()`).
//!
//! Workload, per level: [`CHARACTERS`] characters on the level's spawn origins (round robin)
//! lifted as the game's spawn does, each with its own seeded script of player commands (view
//! yaw, forward and side moves, as a player's `usercmd_t`): a direction held 0.25 to 1.5 s
//! (one in ten stands still), a yaw drifting while held, a jump pressed for two ticks at the
//! start of three segments in ten. [`WARM_UP_TICKS`] untimed ticks, then timed ticks replay
//! an episode of [`EPISODE_TICKS`] ticks from the warmed state, starting over from it
//! (untimed copy) when it ends.

mod support;

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;
use support::episodes::{Ticked, replay};
use support::{Pcg32, real_map};

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec3;
use planeshift::build::compile_level;
use planeshift::{
    CharacterController, CompileOptions, CompiledMap, ControllerConfig, MoveCommand, MoveInput,
    MoveOutcome,
};

/// Characters per level.
const CHARACTERS: usize = 16;
/// Untimed ticks before the episode: the characters land and get moving.
const WARM_UP_TICKS: usize = 200;
/// Ticks of the replayed episode.
const EPISODE_TICKS: usize = 1000;
/// Criterion samples per benchmark (the table uses exactly these).
const SAMPLES: usize = 30;
/// Whole episodes each side runs, alternating with the other, for the interleaved figure:
/// the fastest episode of each side is its cost (another process's work only ever adds
/// time, and alternating gives both sides the same chances of a quiet machine).
const ROUNDS: usize = 12;
/// Ticks the jump key stays down when a segment jumps.
const JUMP_TICKS: usize = 2;
/// Degrees the yaw drifts per tick while a segment holds, at most (a turning player).
const YAW_DRIFT: f32 = 0.5;

/// A game's shared levels: its profile's name and constructor, the folder, the levels, and
/// how far above a spawn origin the game puts the player (Quake 3's spawn selectors add 9,
/// QuakeWorld's `PutClientInServer` 1).
struct Game {
    name: &'static str,
    profile: fn() -> ControllerConfig,
    folder: &'static str,
    levels: &'static [&'static str],
    spawn_lift: f32,
    shaders: bool,
}

const GAMES: [Game; 2] = [
    Game {
        name: "quake3",
        profile: ControllerConfig::quake3,
        folder: "openarena-lostlevels",
        levels: &[
            "am_underworks",
            "blitzkrieg2",
            "dm17ish",
            "kaos",
            "oa_ctf2old",
            "q3dm6ish",
        ],
        spawn_lift: 9.0,
        shaders: true,
    },
    Game {
        name: "quakeworld",
        profile: ControllerConfig::quakeworld,
        folder: "id-quake-1996",
        levels: &["dm2", "dm4", "dm6", "e1m2", "e2m1", "e4m1"],
        spawn_lift: 1.0,
        shaders: false,
    },
];

/// The inputs of every character for `ticks` ticks, as `[tick][character]`.
fn script(ticks: usize, tick_seconds: f32) -> Vec<Vec<MoveInput>> {
    let mut out = vec![vec![MoveInput::default(); CHARACTERS]; ticks];
    for c in 0..CHARACTERS {
        let mut rng = Pcg32(0x0b5e_55ed ^ (c as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut yaw = rng.range(0.0, 360.0);
        let mut t = 0;
        while t < ticks {
            let hold = ((rng.range(0.25, 1.5) / tick_seconds).round() as usize).max(1);
            let still = rng.next() < 0.1;
            let forward = if still { 0.0 } else { 1.0 };
            let side = if still {
                0.0
            } else {
                [-1.0, 0.0, 0.0, 1.0][(rng.next() * 4.0) as usize & 3]
            };
            let drift = rng.range(-YAW_DRIFT, YAW_DRIFT);
            let jump = rng.next() < 0.3;
            for (k, row) in out.iter_mut().skip(t).take(hold).enumerate() {
                yaw = (yaw + drift).rem_euclid(360.0);
                let command = MoveCommand {
                    yaw,
                    forward,
                    side,
                    ..MoveCommand::default()
                };
                row[c] = MoveInput {
                    jump: jump && k < JUMP_TICKS,
                    ..MoveInput::from_command(command)
                };
            }
            t += hold;
        }
    }
    out
}

/// Characters moving alone over one level by one configuration.
#[derive(Clone)]
struct Crowd<'a> {
    world: &'a CompiledMap,
    characters: Vec<CharacterController>,
    outcomes: Vec<MoveOutcome>,
}

impl Ticked for Crowd<'_> {
    fn tick(&mut self, inputs: &[MoveInput]) {
        let each = self.characters.iter_mut().zip(&mut self.outcomes);
        for ((character, outcome), input) in each.zip(inputs) {
            character.step_into(self.world, input, outcome);
            black_box(&*outcome);
        }
    }
}

impl<'a> Crowd<'a> {
    fn new(world: &'a CompiledMap, spawns: &[Vec3], config: ControllerConfig) -> Option<Self> {
        let characters = (0..CHARACTERS)
            .map(|i| CharacterController::new(config, spawns[i % spawns.len()]).ok())
            .collect::<Option<Vec<_>>>()?;
        Some(Crowd {
            world,
            characters,
            outcomes: vec![MoveOutcome::default(); CHARACTERS],
        })
    }

    /// FNV-1a over the bits of every character's position and velocity, in order.
    fn checksum(&self) -> u64 {
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        for character in &self.characters {
            let (p, v) = (character.position(), character.velocity());
            for byte in [p, v]
                .iter()
                .flat_map(|w| [w.x, w.y, w.z])
                .flat_map(|f| f.to_bits().to_le_bytes())
            {
                hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
            }
        }
        hash
    }
}

/// ns per character tick of the fastest of [`ROUNDS`] whole episodes from the warmed
/// state, for each side, the sides alternating episode by episode (one round each under
/// `--test`).
fn interleaved(sides: [&Crowd; 2], episode: &[Vec<MoveInput>], rounds: usize) -> [f64; 2] {
    let mut best = [f64::INFINITY; 2];
    for _ in 0..rounds {
        for (side, best) in sides.iter().zip(&mut best) {
            let mut crowd = (*side).clone();
            let t = Instant::now();
            for row in episode {
                crowd.tick(row);
            }
            let ns = t.elapsed().as_nanos() as f64 / (episode.len() * CHARACTERS) as f64;
            *best = best.min(ns);
        }
    }
    best
}

/// One level's compiled world and spawn origins (lifted).
fn load(game: &Game, level: &str) -> Option<(CompiledMap, Vec<Vec3>)> {
    let path = real_map(&format!("{}/{level}.bsp", game.folder))?;
    let bytes = std::fs::read(&path).ok()?;
    let shader_folders: Vec<PathBuf> = if game.shaders {
        real_map(&format!("{}/scripts", game.folder))
            .into_iter()
            .collect()
    } else {
        Vec::new()
    };
    let options = CompileOptions {
        shader_folders,
        ..CompileOptions::default()
    };
    let world = compile_level(&bytes, &options).ok()?.map;
    let spawns: Vec<Vec3> = world
        .player_spawns()
        .map(|o| o + Vec3::Z * game.spawn_lift)
        .collect();
    (!spawns.is_empty()).then_some((world, spawns))
}

struct Row {
    level: String,
    profile: &'static str,
    own: Option<f64>,
    theirs: Option<f64>,
    /// [`interleaved`]'s two figures.
    fastest: [f64; 2],
}

fn profiles(c: &mut Criterion) {
    let tick = ControllerConfig::default().tick;
    let inputs = script(WARM_UP_TICKS + EPISODE_TICKS, tick);
    let (warm_up, episode) = inputs.split_at(WARM_UP_TICKS);
    // `PROFILES_ROUNDS=0` leaves the interleaved figure out (for a profiler's run of
    // one benchmark).
    let rounds = match std::env::var("PROFILES_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
    {
        Some(rounds) => rounds,
        None if std::env::args().any(|a| a == "--test") => 1,
        None => ROUNDS,
    };
    let mut rows = Vec::new();
    let mut group = c.benchmark_group("profiles");
    group.sample_size(SAMPLES);
    for game in &GAMES {
        for level in game.levels {
            let Some((world, spawns)) = load(game, level) else {
                eprintln!("{}/{level}: skipped (missing or unreadable)", game.folder);
                continue;
            };
            let sides = (
                Crowd::new(&world, &spawns, ControllerConfig::default()),
                Crowd::new(&world, &spawns, (game.profile)()),
            );
            let (Some(mut own), Some(mut theirs)) = sides else {
                eprintln!("{level}: skipped (a spawn the controller refuses)");
                continue;
            };
            for row in warm_up {
                own.tick(row);
                theirs.tick(row);
            }
            for (name, side) in [("planeshift", &own), (game.name, &theirs)] {
                let mut probe = side.clone();
                for row in episode {
                    probe.tick(row);
                }
                let sweeps: u64 = probe
                    .characters
                    .iter()
                    .map(|c| {
                        let (cached, walked) = c.tick_cache_counts();
                        cached + walked
                    })
                    .sum();
                eprintln!(
                    "{level}/{name}: {CHARACTERS} characters after {} ticks, checksum {:016x}, {:.2} sweeps through the map per character tick",
                    warm_up.len() + episode.len(),
                    probe.checksum(),
                    sweeps as f64 / ((warm_up.len() + episode.len()) * CHARACTERS) as f64
                );
            }
            let mut measure = |name: &str, side: &Crowd| {
                let mut record = Vec::new();
                let mut now = (side.clone(), 0);
                group.bench_function(format!("{level}/{name}"), |b| {
                    b.iter_custom(|iters| replay(side, episode, iters, &mut now, &mut record))
                });
                support::episodes::per_character_tick(&record, SAMPLES, CHARACTERS)
            };
            let own_ns = measure("planeshift", &own);
            let theirs_ns = measure(game.name, &theirs);
            rows.push(Row {
                level: (*level).to_owned(),
                profile: game.name,
                own: own_ns,
                theirs: theirs_ns,
                fastest: interleaved([&own, &theirs], episode, rounds),
            });
        }
    }
    group.finish();

    let show = |v: Option<f64>| v.map_or("-".to_owned(), |v| format!("{v:.0}"));
    let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) if a > 0.0 => format!("{:.2}x", b / a),
        _ => "-".to_owned(),
    };
    eprintln!();
    eprintln!(
        "ns per character tick ({CHARACTERS} characters, 8 ms ticks): criterion's measurement samples, then the fastest of {rounds} whole episodes per side, alternating; issue 37: ratio <= 1.2"
    );
    eprintln!(
        "{:<14} {:<11} {:>11} {:>9} {:>7} | {:>11} {:>9} {:>7}",
        "level", "profile", "planeshift", "profile", "ratio", "planeshift", "profile", "ratio"
    );
    for r in &rows {
        let [a, b] = r.fastest.map(Some);
        eprintln!(
            "{:<14} {:<11} {:>11} {:>9} {:>7} | {:>11} {:>9} {:>7}",
            r.level,
            r.profile,
            show(r.own),
            show(r.theirs),
            ratio(r.own, r.theirs),
            show(a),
            show(b),
            ratio(a, b)
        );
    }
}

criterion_group!(benches, profiles);
criterion_main!(benches);
