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
//! - The map compiles with [`SoakOptions::compile`] (`--game`, `--shaders`); its game
//!   (given, else [`Game::detect`]) also decides which `trigger_hurt` volumes kill.
//! - `inside_solid` counts ticks that end with a bot's shape overlapping solid; `fell_out`
//!   counts bots that end below the world's bounds; `stuck` counts 1-second windows in which
//!   a bot's wish stayed the same, a 16-unit sweep of its shape along the wish from where it
//!   stood was free, and it moved less than 1 unit.
//! - `deaths` counts ticks that end with a bot's shape touching a deadly `trigger_hurt`
//!   (exactly, [`CompiledMap::touching_triggers`], Quake 3's `G_TouchTriggers`); the bot then
//!   respawns at the next spawn point as a new bot, standing still. A hurt volume is deadly
//!   unless its game's spawnflags leave it off (START_OFF: 1 in Quake 2 and 3, 2 in
//!   Half-Life, whose NO_CLIENTS, 8, spares players too; Quake has none) or its `dmg` heals
//!   (negative, in Quake, Quake 2 and Half-Life; Quake 3's `G_Damage` raises any damage to
//!   at least 1). A missing, zero or unreadable `dmg` is the games' default 5. The touch
//!   itself is the death, whatever the damage: a bot does not steer out, and every deadly
//!   volume kills one that stays (5 a tenth of a second empties Quake 3's 100 health in 2 s).
//!   So `fell_out` is left for falls below the world that no hurt volume caught.

use std::time::Instant;

use glam::Vec3;
use planeshift::compile::{CompileOptions, compile_map_with};
use planeshift::controller::{Activity, CharacterController, ControllerConfig, MoveInput, Tracer};
use planeshift::{CompiledMap, Entity, Game, MapFile, TraceShape, parse_map};
use rayon::prelude::*;

/// What to run.
#[derive(Clone, Debug)]
pub struct SoakOptions {
    /// How many bots.
    pub bots: usize,
    /// How many ticks each bot runs.
    pub ticks: usize,
    /// Seed of the bots' inputs.
    pub seed: u64,
    /// The controller configuration of every bot.
    pub config: ControllerConfig,
    /// Print, on stderr, where fallen bots last stood, where stuck seconds happened and
    /// where bots died.
    pub report: bool,
    /// How the map compiles: its game (`None` detects it) and Quake 3 shader folders.
    pub compile: CompileOptions,
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
    /// Ticks that ended with a bot touching a deadly `trigger_hurt`, each followed by a
    /// respawn.
    pub deaths: usize,
    /// Path length of all bots, units.
    pub travelled: f32,
    /// Ticks that ended on walkable ground.
    pub grounded: usize,
    /// Ticks spent swimming (water level 2 or 3, or the water jump).
    pub swimming: usize,
    /// Ticks spent on a ladder.
    pub climbing: usize,
    /// The median wall time of one controller tick, ns.
    pub median_tick_ns: u32,
    /// The median wall time of one death check (the trigger query after a tick), ns; 0 when
    /// the map has no deadly `trigger_hurt`, whose soak skips the check.
    pub median_touch_ns: u32,
}

/// The soak's JSON object, fields in the contract's order (the counts, then the timing):
/// `{"map":…,"bots":N,"ticks":T,"moves":N,"inside_solid":N,"fell_out":N,"stuck":N,"deaths":N,"ns_per_move_median":x}`.
pub fn summary_json(map: &str, options: &SoakOptions, summary: &SoakSummary) -> String {
    let map = serde_json::Value::from(map);
    format!(
        "{{\"map\":{map},\"bots\":{},\"ticks\":{},\"moves\":{},\"inside_solid\":{},\
         \"fell_out\":{},\"stuck\":{},\"deaths\":{},\"ns_per_move_median\":{}}}",
        options.bots,
        options.ticks,
        summary.moves,
        summary.inside_solid,
        summary.fell_out,
        summary.stuck,
        summary.deaths,
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
    let map = parse_map(bytes).map_err(|e| e.to_string())?;
    let spawns = spawn_points(&map);
    if spawns.is_empty() {
        return Err("no info_player_start or info_player_deathmatch to spawn bots at".to_string());
    }
    let game = options.compile.game.unwrap_or_else(|| Game::detect(&map));
    let world = compile_map_with(bytes, &options.compile)
        .map_err(|e| e.to_string())?
        .map;
    let arena = Arena {
        world: &world,
        hurts: &Hurts::of(&world, game),
        spawns: &spawns,
        floor: world.models().first().map_or(0.0, |m| m.mins.z),
        count,
    };
    let reports: Vec<Result<BotReport, String>> = (0..options.bots)
        .into_par_iter()
        .map(|bot| soak_bot(&arena, options, bot))
        .collect();
    let reports = reports.into_iter().collect::<Result<Vec<_>, _>>()?;
    let counted = reports.iter().map(|r| r.counted).sum();
    let summary = SoakSummary {
        moves: options.bots * options.ticks,
        spawns: spawns.len(),
        inside_solid: reports.iter().map(|r| r.inside_solid).sum(),
        fell_out: reports.iter().filter(|r| r.fell_out).count(),
        stuck: reports.iter().map(|r| r.stuck).sum(),
        deaths: reports.iter().map(|r| r.deaths).sum(),
        travelled: reports.iter().map(|r| r.travelled).sum(),
        grounded: reports.iter().map(|r| r.grounded).sum(),
        swimming: reports.iter().map(|r| r.swimming).sum(),
        climbing: reports.iter().map(|r| r.climbing).sum(),
        median_tick_ns: median(reports.iter().flat_map(|r| r.tick_ns.iter().copied())),
        median_touch_ns: median(reports.iter().flat_map(|r| r.touch_ns.iter().copied())),
    };
    Ok((summary, counted))
}

/// The median of `times`, or 0 when there are none.
fn median(times: impl Iterator<Item = u32>) -> u32 {
    let mut times: Vec<u32> = times.collect();
    if times.is_empty() {
        return 0;
    }
    let middle = times.len() / 2;
    *times.select_nth_unstable(middle).1
}

/// Quake's, Quake 2's and Quake 3's `trigger_hurt` damage when `dmg` is missing or 0.
const DEFAULT_HURT_DAMAGE: f64 = 5.0;

/// Which models kill a bot that touches them: the `trigger_hurt` volumes the module's rule
/// calls deadly, by model index.
struct Hurts {
    deadly: Vec<bool>,
}

impl Hurts {
    /// The deadly hurt volumes of `world`, read as `game` reads them.
    fn of(world: &CompiledMap, game: Game) -> Hurts {
        let deadly = (0..world.models().len())
            .map(|model| {
                world
                    .model_entity(model)
                    .is_some_and(|e| e.classname() == "trigger_hurt" && kills(&e, game))
            })
            .collect();
        Hurts { deadly }
    }

    /// Whether any volume kills: a map without one skips the check.
    fn any(&self) -> bool {
        self.deadly.contains(&true)
    }

    /// The deadly model `shape` placed at `at` touches, if any
    /// ([`CompiledMap::touching_triggers`]).
    fn touched(&self, world: &CompiledMap, shape: &TraceShape, at: Vec3) -> Option<usize> {
        world
            .touching_triggers(shape, at)
            .find(|&model| self.deadly.get(model).copied().unwrap_or(false))
    }
}

/// Whether the `trigger_hurt` `hurt` kills a player who stays in it, in `game`: it is on at
/// the start, spares no players and does not heal (the module's rule).
fn kills(hurt: &Entity<'_>, game: Game) -> bool {
    let number = |key: &str| {
        hurt.get(key)
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|v| v.is_finite())
    };
    // Whole flags, as the engines' atoi reads them; in range after the finiteness filter.
    let flags = number("spawnflags").map_or(0, |f| f as i64);
    let damage = number("dmg")
        .filter(|&d| d != 0.0)
        .unwrap_or(DEFAULT_HURT_DAMAGE);
    let (off, heals) = match game {
        Game::Quake => (0, damage < 0.0),
        Game::Quake2 => (flags & 1, damage < 0.0),
        Game::Quake3 => (flags & 1, false),
        Game::HalfLife => (flags & (2 | 8), damage < 0.0),
        _ => (flags & 1, damage < 0.0),
    };
    off == 0 && !heals
}

/// What every bot shares: the world, its deadly volumes, where bots spawn, the world's
/// bottom and the caller's tick test.
struct Arena<'a> {
    world: &'a CompiledMap,
    hurts: &'a Hurts,
    spawns: &'a [Vec3],
    /// Below this height a bot has fallen out of the world.
    floor: f32,
    /// The caller's test, counted after every tick ([`soak_counting`]).
    count: &'a TickTest<'a>,
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
    deaths: usize,
    tick_ns: Vec<u32>,
    /// Wall time of each death check, ns.
    touch_ns: Vec<u32>,
    /// Path length, units.
    travelled: f32,
    /// Ticks that ended on walkable ground.
    grounded: usize,
    /// Ticks spent swimming.
    swimming: usize,
    /// Ticks spent on a ladder.
    climbing: usize,
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

/// Nanoseconds since `started`, saturated to `u32`.
fn nanos_since(started: Instant) -> u32 {
    u32::try_from(started.elapsed().as_nanos()).unwrap_or(u32::MAX)
}

/// Runs bot number `bot` and counts its failures and deaths.
fn soak_bot(arena: &Arena<'_>, options: &SoakOptions, bot: usize) -> Result<BotReport, String> {
    let world = arena.world;
    let config = options.config;
    let mut spawn_index = bot % arena.spawns.len();
    let spawn = arena.spawns[spawn_index];
    let mut character = CharacterController::new(config, spawn).map_err(|e| e.to_string())?;
    let ticks_per_second = (1.0 / config.tick).round().max(1.0) as usize;
    let bot = bot as u64;
    let mut driver = Driver {
        rng: SplitMix(options.seed ^ bot.wrapping_mul(0x2545_f491_4f6c_dd1d)),
        input: MoveInput::default(),
        ticks_left: 0,
        ticks_per_second,
    };
    let check_deaths = arena.hurts.any();
    let mut report = BotReport {
        tick_ns: Vec::with_capacity(options.ticks),
        touch_ns: Vec::with_capacity(if check_deaths { options.ticks } else { 0 }),
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
        let outcome = character.step(world, &input);
        report.tick_ns.push(nanos_since(started));
        match outcome.activity {
            Activity::Swim => report.swimming += 1,
            Activity::Ladder => report.climbing += 1,
            _ => {}
        }
        if character.overlaps(world) {
            report.inside_solid += 1;
        }
        if (arena.count)(world, &character) {
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
        if check_deaths {
            // Quake 3's G_TouchTriggers after the move: the shape where it ended, exactly.
            let started = Instant::now();
            let killer = arena
                .hurts
                .touched(world, character.shape(), character.shape_center());
            report.touch_ns.push(nanos_since(started));
            if let Some(model) = killer {
                report.deaths += 1;
                if options.report {
                    let p = character.position();
                    let entity = world.model_entity(model).map_or(0, |e| e.index());
                    eprintln!(
                        "bot {bot} died at tick {tick} in trigger_hurt entity {entity} \
                         (model {model}): origin {} {} {}",
                        p.x, p.y, p.z
                    );
                }
                // Respawn as a new bot at the next spawn point: standing still, a fresh
                // wish, no stuck window.
                spawn_index = (spawn_index + 1) % arena.spawns.len();
                let spawn = arena.spawns[spawn_index];
                character = CharacterController::new(config, spawn).map_err(|e| e.to_string())?;
                driver.ticks_left = 0;
                window = None;
                last_ground = (tick, spawn);
            }
        }
    }
    report.fell_out = character.position().z < arena.floor;
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
fn spawn_points(map: &MapFile) -> Vec<Vec3> {
    map.player_spawns()
        .map(|origin| origin.as_vec3())
        .filter(|origin| origin.is_finite())
        .collect()
}
