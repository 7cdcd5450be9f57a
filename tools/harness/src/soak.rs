//! The soak test of `fps_movement --headless`, as a function: many seeded bots run the
//! character controller together through a compiled world, colliding with each other and
//! playing the level's triggers, and the run counts the failures players notice. The
//! example's `main.rs` prints its summary; `tests/it/controller/soak.rs` runs it in-process
//! on every map.
//!
//! Takes the map's bytes and [`SoakOptions`]; gives a [`SoakSummary`] or a message. Same
//! seed, same map: the same counts (the controller and the crowd are deterministic; timings
//! differ).
//! - Bots are one [`Crowd`], stepped a tick at a time in id order; they block each other
//!   unless [`SoakOptions::collide`] is off. They spawn at the map's `info_player_start` and
//!   `info_player_deathmatch` origins in turn (a map with neither is refused); bots spawned
//!   on one point are separated by the crowd on the first tick. With
//!   [`SoakOptions::scatter`] they start at seeded random spots dropped onto the floor
//!   inside the level (the space its spawns reach) or onto a bot placed before, never
//!   through a deadly `trigger_hurt`, lava or slime (`scatter.rs`).
//! - With [`SoakOptions::threads`] the crowd steps with [`Crowd::step_parallel`] in a rayon
//!   pool of that many threads: the same counts, bit for bit; the summary adds the wall time
//!   of a whole tick and the parallel plan's statistics.
//! - Each bot holds a seeded random wish direction for 0.5 to 3 s, and sometimes jumps or
//!   crouches. It looks along its wish (the yaw of the direction drawn, even standing still)
//!   at a seeded pitch in [-30°, 30°] (drawn apart, so the moves are those without shots);
//!   a game's profile is sent that view as a player's command, level ([`facing_wish`]), so
//!   its water jump and ladders face the wish as planeshift's own movement's do. A bot
//!   whose watched second ended stuck holds jump until one in which it moved
//!   ([`struggling`]).
//! - Shots (`shots.rs`): every 10 ticks each bot fires a hitscan, a point with
//!   `Contents::MASK_SHOT` skipping itself, from its eye (`eye_position`) along its view
//!   through a `Scene` over the world and the crowd's bodies; `shots`, `shots_hit_world`
//!   and `shots_hit_character` count them (and the summary the misses).
//! - A mixed crowd ([`SoakOptions::mix`], `mix.rs`): players in teams that pass through
//!   each other and block the other teams, and monsters moving with
//!   `Contents::MASK_MONSTER_SOLID`; `overlapping` then counts only the pairs that should
//!   block each other.
//! - The map compiles with [`SoakOptions::compile`] (`--game`, `--shaders`); its game
//!   (given, else [`Game::detect`]) also decides how the triggers play (`game.rs`).
//! - `inside_solid` counts ticks that end with a bot inside the map's solid, in the world
//!   the bot's movement collides with (`inside.rs`: its shape under its own mask, as a
//!   monster may stand in player clip; Quake 3's profile meets curved patches as the game's
//!   facets; QuakeWorld's profile is its origin in the level's clip hull 1, and its ticks
//!   with the box in the brushes but the origin open in the hull are `inside_brushes_only`,
//!   those with the origin in the hull within the game's next `NudgePosition` of open are
//!   `inside_solid` and also `inside_nudged`);
//!   `overlapping` counts pairs of bots overlapping at the end of a tick, summed over the
//!   ticks; `fell_out` counts bots that end below the world's bounds; `stuck` counts
//!   1-second windows in which a bot's wish stayed the same, a 16-unit sweep of its shape
//!   along the wish from where it stood was free of the map (as its movement sees it,
//!   `inside.rs`) and the other bots, and it
//!   moved less than 1 unit (a bot that fell below the world, or that swims in a current,
//!   which decides where it goes, is not watched).
//! - After each tick every bot plays the triggers its tick touched (the outcome's
//!   [`TriggerReport`](planeshift::movement::TriggerReport)), as Quake 3 does: a deadly
//!   `trigger_hurt` kills it (`deaths`; it respawns at the next free spawn point as a new
//!   bot, standing still), a teleporter moves it (`teleports`; whoever stands at the
//!   destination is telefragged and respawns), a jump pad sets its velocity each tick it
//!   touches the pad (`jumppad_launches` counts entries). So `fell_out` counts only falls
//!   below the world no hurt volume caught.

use std::time::Instant;

use glam::Vec3;
use planeshift::build::BspFormat;
use planeshift::build::import_bsp;
use planeshift::movement::{Activity, Movement, Tracer, WorldWithBodies};
use planeshift::{CharacterController, ControllerConfig, MoveCommand, MoveInput};
use planeshift::{CompileOptions, build::compile_map_with};
use planeshift::{
    CompiledMap,
    build::Game,
    map::{MapFile, parse_map},
};
use planeshift::{Crowd, CrowdConfig};

use super::game::{Level, TELEPORT_HOLD, Trigger};
use super::inside::{Inside, inside, probe_query};
use super::mix::{Mix, blocking_pairs};
use super::scatter::scatter_points;
use super::shots::{PITCH_SPREAD, SHOT_EVERY, ShotCounts, fire};

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
    /// Print, on stderr, where fallen bots last stood, where stuck seconds happened, where
    /// bots died, and ticks that ended inside solid or with bots overlapping.
    pub report: bool,
    /// How the map compiles: its game (`None` detects it) and Quake 3 shader folders.
    pub compile: CompileOptions,
    /// Whether the bots block each other (the default); off, each moves as if alone.
    pub collide: bool,
    /// `Some(n)`: the crowd steps with [`Crowd::step_parallel`] in a rayon pool of `n`
    /// threads (the same bits as `None`, [`Crowd::step`]); needs the `parallel` feature.
    pub threads: Option<usize>,
    /// Bots start scattered over the map's floor (seeded random free spots) instead of on
    /// its spawn points: room for thousands.
    pub scatter: bool,
    /// Teams of players and monsters (`mix.rs`); the default: one crowd of players.
    pub mix: Mix,
}

/// What a soak counted, summed over the bots.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SoakSummary {
    /// Bot ticks run (`bots × ticks`).
    pub moves: usize,
    /// The map's player spawn points.
    pub spawns: usize,
    /// Ticks that ended with a bot inside solid, in the world its movement collides with
    /// (`inside.rs`).
    pub inside_solid: usize,
    /// Pairs of bots overlapping at the end of a tick, summed over the ticks.
    pub overlapping: usize,
    /// Ticks of QuakeWorld's profile that ended with the bot's box overlapping the level's
    /// brushes while its origin stood open in the clip hull the game walks (not counted
    /// in [`Self::inside_solid`]: the game's own player stands there too); 0 for the
    /// other movements.
    pub inside_brushes_only: usize,
    /// Ticks of QuakeWorld's profile that ended with the bot's origin in solid in the clip
    /// hull, at a spot the game's next command nudges it out of (`inside.rs`,
    /// [`Inside::Nudged`]: the game's own walk ends its player there); these ticks are in
    /// [`Self::inside_solid`] too (the player is in solid for a command, in the game as
    /// well), named apart; 0 for the other movements.
    pub inside_nudged: usize,
    /// Bots that ended below the world's bounds.
    pub fell_out: usize,
    /// Stuck 1-second windows.
    pub stuck: usize,
    /// Bots killed by a deadly `trigger_hurt`, each followed by a respawn.
    pub deaths: usize,
    /// Teleports taken.
    pub teleports: usize,
    /// Jump pads entered.
    pub jumppad_launches: usize,
    /// Bots killed by a teleport onto them (Quake 3 `G_KillBox`), each respawned.
    pub telefrags: usize,
    /// The teleporters, jump pads and deadly hurt volumes the soak plays on this map.
    pub triggers: [usize; 3],
    /// Path length of all bots, units.
    pub travelled: f32,
    /// Ticks that ended on walkable ground.
    pub grounded: usize,
    /// Ticks spent swimming (water level 2 or 3, or the water jump).
    pub swimming: usize,
    /// Ticks spent on a ladder.
    pub climbing: usize,
    /// The median over the ticks of the crowd's tick wall time divided by the bots, ns.
    pub median_tick_ns: u32,
    /// The median wall time of one bot's trigger play after a tick, ns; 0 when the map has
    /// no trigger the soak plays, whose soak skips it.
    pub median_touch_ns: u32,
    /// The median over the ticks of the crowd's tick wall time (all bots), ms.
    pub median_tick_ms: f64,
    /// The median and the largest number of waves the parallel step planned per tick
    /// ([`planeshift::movement::CrowdSchedule`]; 0 when it did not plan).
    pub waves: (usize, usize),
    /// The median over the ticks of the widest wave.
    pub widest_median: usize,
    /// The median over the ticks of the neighbour pairs.
    pub pairs_median: usize,
    /// The median over the ticks of the largest island of neighbours.
    pub largest_island_median: usize,
    /// Ticks the parallel step redid in id order (a tick left its planned reach).
    pub redone: usize,
    /// The bots' hitscans (`shots.rs`).
    pub shots: ShotCounts,
    /// In a mixed crowd (`mix.rs`), pairs overlapping at a tick's end that need not block
    /// (team mates), summed over the ticks; 0 otherwise.
    pub passed_through: usize,
}

/// The soak's JSON object, fields in the contract's order (the counts, then the timing):
/// `{"map":…,"bots":N,"ticks":T,"moves":N,"inside_solid":N,"overlapping":N,"fell_out":N,"stuck":N,"deaths":N,"teleports":N,"jumppad_launches":N,"shots":N,"shots_hit_world":N,"shots_hit_character":N,"ns_per_move_median":x}`.
/// With [`SoakOptions::threads`] it goes on (the contract's fields unchanged):
/// `…,"threads":N,"ms_per_tick_median":x,"waves_median":N,"waves_max":N,"widest_wave_median":N,"pairs_median":N,"largest_island_median":N,"redone":N}`.
pub fn summary_json(map: &str, options: &SoakOptions, summary: &SoakSummary) -> String {
    let map = serde_json::Value::from(map);
    let parallel = match options.threads {
        Some(threads) => format!(
            ",\"threads\":{threads},\"ms_per_tick_median\":{:.3},\"waves_median\":{},\
             \"waves_max\":{},\"widest_wave_median\":{},\"pairs_median\":{},\"largest_island_median\":{},\"redone\":{}",
            summary.median_tick_ms,
            summary.waves.0,
            summary.waves.1,
            summary.widest_median,
            summary.pairs_median,
            summary.largest_island_median,
            summary.redone
        ),
        None => String::new(),
    };
    format!(
        "{{\"map\":{map},\"bots\":{},\"ticks\":{},\"moves\":{},\"inside_solid\":{},\
         \"overlapping\":{},\"fell_out\":{},\"stuck\":{},\"deaths\":{},\"teleports\":{},\
         \"jumppad_launches\":{},\"shots\":{},\"shots_hit_world\":{},\
         \"shots_hit_character\":{},\"ns_per_move_median\":{}{parallel}}}",
        options.bots,
        options.ticks,
        summary.moves,
        summary.inside_solid,
        summary.overlapping,
        summary.fell_out,
        summary.stuck,
        summary.deaths,
        summary.teleports,
        summary.jumppad_launches,
        summary.shots.shots,
        summary.shots.hit_world,
        summary.shots.hit_character,
        summary.median_tick_ns
    )
}

/// Length of the sweep that decides whether a still bot had room to move, in units.
const STUCK_PROBE: f32 = 16.0;

/// Where the controller samples the current, above the feet, in units (Quake 3's water
/// level sample, `MINS_Z + 1`).
const CURRENT_SAMPLE: f32 = 1.0;

/// A bot that moved less than this in a second with room to move is stuck, in units.
const STUCK_DISTANCE: f32 = 1.0;

/// Chance per tick that a bot taps jump (about once every 4 s at 8 ms).
const JUMP_CHANCE: f32 = 0.002;

/// Mixed into the soak's seed for the scatter's generator.
const SCATTER_SEED: u64 = 0x5ca7_7e12_0f10_0125;

/// Mixed into a bot's seed for its view's generator.
const AIM_SEED: u64 = 0xa1a1_5eed_0000_0025;

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

/// The bots' decisions: a wish held for a while, with jumps and crouches, and a view (the
/// wish's direction, a seeded pitch) to shoot along.
struct Driver {
    rng: SplitMix,
    /// The view's generator, apart from `rng` so the moves are those of a soak without
    /// shots, bit for bit.
    aim: SplitMix,
    /// The view: pitch and yaw in degrees.
    view: (f32, f32),
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
            self.view = (
                (2.0 * self.aim.unit() - 1.0) * PITCH_SPREAD,
                angle.to_degrees(),
            );
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

/// A bot's tick input for `movement`, looking along its wish (yaw `yaw` in degrees, level):
/// a game's profile reads a wish without a view as seen from yaw 0, so a profile's bot is
/// sent a player's command (that yaw, pitch 0, forward the wish's strength, the buttons
/// kept; `wish` stays for the stuck watch). Its water jump and ladders then face where it
/// goes, as planeshift's own movement faces its wish: before, every profile bot faced +x,
/// and one at water level 2 in e2m2's pool, a ledge ahead on +x under a downward sloped
/// ceiling, took Quake 3's water jump (`PM_CheckWaterJump`) into that ceiling every tick
/// whatever its wish, 28 stuck seconds. planeshift's own movement takes `input` as it is.
pub fn facing_wish(input: MoveInput, yaw: f32, movement: Movement) -> MoveInput {
    if movement == Movement::Planeshift {
        return input;
    }
    let strength = input.wish.length().min(1.0);
    MoveInput {
        command: Some(MoveCommand {
            pitch: 0.0,
            yaw,
            forward: strength,
            ..MoveCommand::default()
        }),
        ..input
    }
}

/// A bot's tick input when it `struggles` (its last watched second ended stuck): the jump
/// key held down, as a player who cannot move tries jumping or swimming up. In id's
/// QuakeWorld `pmove.c` a water jump (`CheckWaterJump`: velocity 50 toward the ledge and
/// 310 up, `waterjumptime` 2 s) ignores the wish (`PM_Accelerate` and `PM_Friction` return,
/// `PM_FlyMove` restores the velocity it began with) and its clock runs down only in
/// `JumpButton`, with the key down; it ends only falling (`velocity[2] < 0`) or on the
/// ground. A water jump wedged under a ledge keeps its upward velocity, never falls and
/// never lands, so a player who does not hold jump stays there: end.bsp's bot 39 stood 30
/// seconds at water level 2 whatever its wish, tapping jump once in 500 ticks. A bot that
/// moves again stops struggling.
pub fn struggling(input: MoveInput, struggles: bool) -> MoveInput {
    MoveInput {
        jump: input.jump || struggles,
        ..input
    }
}

/// One bot's inputs and its watch for stuck seconds.
struct Bot {
    driver: Driver,
    input: MoveInput,
    /// Where the current 1-second window began, its wish, and whether it had room.
    window: Option<(Vec3, Vec3, bool)>,
    /// The last tick on walkable ground and where.
    last_ground: (usize, Vec3),
    /// Where the bot stood after the last tick (or was placed since).
    position: Vec3,
    /// Its last watched second ended stuck: it holds jump ([`struggling`]).
    struggles: bool,
}

/// Nanoseconds since `started`, saturated to `u32`.
fn nanos_since(started: Instant) -> u32 {
    u32::try_from(started.elapsed().as_nanos()).unwrap_or(u32::MAX)
}

/// The median of `times`, or 0 when there are none.
fn median(mut times: Vec<u32>) -> u32 {
    if times.is_empty() {
        return 0;
    }
    let middle = times.len() / 2;
    *times.select_nth_unstable(middle).1
}

/// Runs the soak on the `.map` file `bytes`.
pub fn soak(bytes: &[u8], options: &SoakOptions) -> Result<SoakSummary, String> {
    soak_counting(bytes, options, &|_, _| false).map(|(summary, _)| summary)
}

/// A tick's test for [`soak_counting`]: the world and a bot after the tick.
pub type TickTest<'a> = dyn Fn(&CompiledMap, &CharacterController) -> bool + 'a;

/// [`soak`], also counting the bot ticks after which `count` holds (say, the ticks that end
/// standing on a curved patch).
pub fn soak_counting(
    bytes: &[u8],
    options: &SoakOptions,
    count: &TickTest<'_>,
) -> Result<(SoakSummary, usize), String> {
    let (world, spawns, game) = if BspFormat::detect(bytes).is_some() {
        // A compiled .bsp: imported, its spawn points from its entities lump.
        let world = import_bsp(bytes, &options.compile)
            .map_err(|e| e.to_string())?
            .map;
        let spawns: Vec<Vec3> = world.player_spawns().filter(|o| o.is_finite()).collect();
        let game = options.compile.game.or(world.game()).unwrap_or(Game::Quake);
        (world, spawns, game)
    } else {
        let map = parse_map(bytes).map_err(|e| e.to_string())?;
        let spawns = spawn_points(&map);
        let game = options.compile.game.unwrap_or_else(|| Game::detect(&map));
        let world = compile_map_with(bytes, &options.compile)
            .map_err(|e| e.to_string())?
            .map;
        (world, spawns, game)
    };
    if spawns.is_empty() {
        return Err("no info_player_start or info_player_deathmatch to spawn bots at".to_string());
    }
    let level = Level::of(&world, game, &options.config);
    Soak::new(&world, &level, &spawns, options, count)?.run()
}

/// How many spawn points [`mesh_spawns`] looks for.
const MESH_SPAWNS: usize = 64;

/// Seeded places tried per spawn point [`mesh_spawns`] looks for.
const MESH_SPAWN_TRIES: usize = 2_000;

/// Spawn points for a level without entities (a mesh): seeded places in the world's box
/// where Quake's player box (32 × 32 × 56) is free of the map, outside no liquid and not
/// in the void, dropped onto a walkable floor (normal within 45° of up) found within 4096
/// units below. At most `MESH_SPAWNS`, in the order found; deterministic.
pub fn mesh_spawns(world: &CompiledMap, seed: u64) -> Vec<Vec3> {
    use planeshift::{Contents, TraceShape};
    let Some(model) = world.models().first() else {
        return Vec::new();
    };
    let Some(player) =
        TraceShape::aabb(Vec3::new(-16.0, -16.0, -24.0), Vec3::new(16.0, 16.0, 32.0))
    else {
        return Vec::new();
    };
    let mask = Contents::MASK_PLAYER_SOLID;
    let mut rng = SplitMix(seed ^ SCATTER_SEED);
    let mut spawns: Vec<Vec3> = Vec::new();
    for _ in 0..MESH_SPAWNS * MESH_SPAWN_TRIES {
        if spawns.len() >= MESH_SPAWNS {
            break;
        }
        let p = Vec3::from_array(std::array::from_fn(|a| {
            let t = (rng.next() >> 11) as f32 / (1u64 << 53) as f32;
            model.mins[a] + (model.maxs[a] - model.mins[a]) * t
        }));
        let here = world.point_contents(p);
        if world.overlaps(&player, p, mask)
            || here.intersects(Contents::MASK_LIQUID | Contents::OUTSIDE)
        {
            continue;
        }
        let down = world.trace(&player, p, p - Vec3::Z * 4096.0, mask);
        let floor = down
            .normal
            .is_some_and(|n| n.z >= std::f32::consts::FRAC_1_SQRT_2);
        if floor && !down.start_solid && !spawns.iter().any(|s| s.distance(down.end) < 64.0) {
            spawns.push(down.end + Vec3::Z * 0.25);
        }
    }
    spawns
}

/// [`soak`] on a level made of triangles (`.obj`, `.gltf`, `.glb`, read from `path`'s
/// bytes `bytes`, its axis and scale from `mesh`): compiled with [`SoakOptions::compile`]
/// (Quake's rules unless it names a game), the bots spawned at [`mesh_spawns`] (the mesh
/// has no entities), no triggers.
pub fn soak_mesh(
    (bytes, path): (&[u8], &std::path::Path),
    mesh: &planeshift::build::MeshOptions,
    options: &SoakOptions,
) -> Result<SoakSummary, String> {
    let world = planeshift::build::compile_level_at(bytes, path, mesh, &options.compile)
        .map_err(|e| e.to_string())?
        .map;
    let spawns = mesh_spawns(&world, options.seed);
    if spawns.is_empty() {
        return Err("no free floor found to spawn bots on".to_string());
    }
    let game = options.compile.game.unwrap_or(Game::Quake);
    let level = Level::of(&world, game, &options.config);
    let never: &TickTest<'_> = &|_, _| false;
    Soak::new(&world, &level, &spawns, options, never)?
        .run()
        .map(|(summary, _)| summary)
}

/// A soak in progress.
struct Soak<'a> {
    world: &'a CompiledMap,
    level: &'a Level,
    spawns: &'a [Vec3],
    options: &'a SoakOptions,
    crowd: Crowd,
    bots: Vec<Bot>,
    /// The spawn point the next respawn tries first.
    next_spawn: usize,
    /// Below this height a bot has fallen out of the world.
    floor: f32,
    ticks_per_second: usize,
    summary: SoakSummary,
    tick_ns: Vec<u32>,
    /// Each tick's wall time for all bots, ns, and its plan (waves, widest, pairs).
    tick_total_ns: Vec<u64>,
    plans: Vec<(usize, usize, usize, usize)>,
    /// The pool of [`SoakOptions::threads`].
    #[cfg(feature = "parallel")]
    pool: Option<rayon::ThreadPool>,
    touch_ns: Vec<u32>,
    /// The caller's test ([`soak_counting`]) and the bot ticks after which it held.
    count: &'a TickTest<'a>,
    counted: usize,
    /// Each bot's configuration, by id (`mix.rs`).
    configs: Vec<ControllerConfig>,
}

impl<'a> Soak<'a> {
    fn new(
        world: &'a CompiledMap,
        level: &'a Level,
        spawns: &'a [Vec3],
        options: &'a SoakOptions,
        count: &'a TickTest<'a>,
    ) -> Result<Soak<'a>, String> {
        let config = options.config;
        let ticks_per_second = (1.0 / config.tick).round().max(1.0) as usize;
        let mut crowd = Crowd::new(CrowdConfig {
            collide: options.collide,
            ..CrowdConfig::default()
        });
        let mut bots = Vec::with_capacity(options.bots);
        let mut configs = Vec::with_capacity(options.bots);
        let scattered = if options.scatter {
            let mut rng = SplitMix(options.seed ^ SCATTER_SEED);
            let kills = |model: usize| level.get(model) == Some(Trigger::Hurt);
            scatter_points(world, spawns, &config, &kills, options.bots, &mut || {
                rng.unit()
            })?
        } else {
            Vec::new()
        };
        #[cfg(feature = "parallel")]
        let pool = match options.threads {
            Some(n) => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .map_err(|e| e.to_string())?,
            ),
            None => None,
        };
        #[cfg(not(feature = "parallel"))]
        if options.threads.is_some() {
            return Err("--threads needs the `parallel` feature".to_string());
        }
        for bot in 0..options.bots {
            let spawn = scattered
                .get(bot)
                .copied()
                .unwrap_or(spawns[bot % spawns.len()]);
            let bot_config = options.mix.config(&config, bot, options.bots);
            let controller =
                CharacterController::new(bot_config, spawn).map_err(|e| e.to_string())?;
            crowd.insert(bot as u32, controller);
            let seed = options.seed ^ (bot as u64).wrapping_mul(0x2545_f491_4f6c_dd1d);
            configs.push(bot_config);
            bots.push(Bot {
                driver: Driver {
                    rng: SplitMix(seed),
                    aim: SplitMix(seed ^ AIM_SEED),
                    view: (0.0, 0.0),
                    input: MoveInput::default(),
                    ticks_left: 0,
                    ticks_per_second,
                },
                input: MoveInput::default(),
                window: None,
                last_ground: (0, spawn),
                position: spawn,
                struggles: false,
            });
        }
        Ok(Soak {
            world,
            level,
            spawns,
            options,
            crowd,
            bots,
            next_spawn: options.bots % spawns.len(),
            floor: world.models().first().map_or(0.0, |m| m.mins.z),
            ticks_per_second,
            summary: SoakSummary {
                moves: options.bots * options.ticks,
                spawns: spawns.len(),
                triggers: {
                    let (teleporters, pads, hurts) = level.counts();
                    [teleporters, pads, hurts]
                },
                ..SoakSummary::default()
            },
            tick_ns: Vec::with_capacity(options.ticks),
            tick_total_ns: Vec::with_capacity(options.ticks),
            plans: Vec::with_capacity(options.ticks),
            #[cfg(feature = "parallel")]
            pool,
            touch_ns: Vec::new(),
            count,
            counted: 0,
            configs,
        })
    }

    fn run(mut self) -> Result<(SoakSummary, usize), String> {
        let plays = self.level.any();
        for tick in 0..self.options.ticks {
            self.decide(tick);
            let started = Instant::now();
            let bots = &self.bots;
            let input = |id: u32| {
                bots.get(id as usize)
                    .map_or(MoveInput::default(), |b| b.input)
            };
            #[cfg(feature = "parallel")]
            match &self.pool {
                Some(pool) => pool.install(|| self.crowd.step_parallel(self.world, input)),
                None => self.crowd.step(self.world, input),
            }
            #[cfg(not(feature = "parallel"))]
            self.crowd.step(self.world, input);
            let total = started.elapsed().as_nanos() as u64;
            self.tick_total_ns.push(total);
            let plan = self.crowd.schedule();
            self.plans
                .push((plan.waves, plan.widest, plan.pairs, plan.largest_island));
            self.summary.redone += usize::from(plan.redone);
            let per_bot = total / self.bots.len().max(1) as u64;
            self.tick_ns
                .push(u32::try_from(per_bot).unwrap_or(u32::MAX));
            let pairs = self.crowd.overlapping_pairs();
            if self.options.mix.is_mixed() {
                let blocking = blocking_pairs(self.world, &self.crowd, &self.configs);
                self.summary.overlapping += blocking;
                self.summary.passed_through += pairs.saturating_sub(blocking);
            } else {
                self.summary.overlapping += pairs;
            }
            if self.options.report && pairs > 0 {
                self.report_pairs(tick);
            }
            if self.options.report {
                self.report_traced(tick);
            }
            // Every bot as the tick left it, then the triggers (which move and respawn bots).
            for id in 0..self.bots.len() as u32 {
                self.watch(tick, id);
            }
            for id in 0..self.bots.len() as u32 {
                if plays {
                    let started = Instant::now();
                    self.play(tick, id)?;
                    self.touch_ns.push(nanos_since(started));
                }
            }
            if tick % SHOT_EVERY == SHOT_EVERY - 1 {
                self.shoot();
            }
        }
        for (id, c, _) in self.crowd.iter() {
            if c.position().z < self.floor {
                self.summary.fell_out += 1;
                if self.options.report {
                    let (tick, p) = self.bots[id as usize].last_ground;
                    eprintln!(
                        "bot {id} fell out of the world: last on walkable ground at tick {tick}, \
                         origin {} {} {} (a leak to the void near there?)",
                        p.x, p.y, p.z
                    );
                }
            }
        }
        self.summary.median_tick_ns = median(self.tick_ns);
        let middle = |mut v: Vec<u64>| {
            let k = v.len() / 2;
            if k < v.len() {
                *v.select_nth_unstable(k).1
            } else {
                0
            }
        };
        self.summary.median_tick_ms = middle(self.tick_total_ns) as f64 / 1e6;
        let plans = std::mem::take(&mut self.plans);
        let of = |f: fn(&(usize, usize, usize, usize)) -> usize| {
            middle(plans.iter().map(|p| f(p) as u64).collect()) as usize
        };
        self.summary.waves = (of(|p| p.0), plans.iter().map(|p| p.0).max().unwrap_or(0));
        self.summary.widest_median = of(|p| p.1);
        self.summary.pairs_median = of(|p| p.2);
        self.summary.largest_island_median = of(|p| p.3);
        self.summary.median_touch_ns = median(self.touch_ns);
        Ok((self.summary, self.counted))
    }

    /// Every bot's input for `tick`, and the start of each 1-second stuck window: where the
    /// bot stands, what it wants, and whether a 16-unit sweep of its shape that way is
    /// free of the map and the other bots.
    fn decide(&mut self, tick: usize) {
        let new_window = tick.is_multiple_of(self.ticks_per_second);
        for (id, bot) in self.bots.iter_mut().enumerate() {
            let movement = self
                .configs
                .get(id)
                .map_or(self.options.config.movement, |c| c.movement);
            bot.input = struggling(
                facing_wish(bot.driver.next(), bot.driver.view.1, movement),
                bot.struggles,
            );
            if let Some((_, wish, _)) = bot.window
                && wish != bot.input.wish
            {
                bot.window = None;
            }
            if !new_window {
                continue;
            }
            let Some(c) = self.crowd.get(id as u32) else {
                continue;
            };
            let direction = bot.input.wish.normalize_or_zero();
            // A swimmer in a current goes where the current takes it (Quake 2
            // `PM_AddCurrents` adds 400 units/s to a wish of 160: hl_currents.map pins
            // swimmers against walls and others, and traps them where two currents meet):
            // not a second the controller could have moved it in.
            let feet = c.position() - Vec3::Z * (c.config().feet_to_origin - CURRENT_SAMPLE);
            let adrift = c.state().water_level >= 2 && self.world.point_current(feet) != Vec3::ZERO;
            let others = WorldWithBodies {
                world: self.world,
                bodies: self.crowd.bodies(),
                mover: Some(id as u32),
                ghosts: &[],
            };
            // In the world its movement collides with (`inside.rs`): QuakeWorld's profile
            // walks its origin through clip hull 1 (clip brushes the brushes lack).
            let (query, from) = probe_query(c);
            let to = from + direction * STUCK_PROBE;
            let probe = if self.options.collide {
                others.trace(&query, from, to)
            } else {
                Tracer::trace(self.world, &query, from, to)
            };
            let room = direction != Vec3::ZERO && !probe.hit() && !adrift;
            bot.window = Some((c.position(), bot.input.wish, room));
        }
    }

    /// Prints, on stderr, each pair of bots overlapping at the end of `tick`: both origins,
    /// velocities and grounds, and the gap between their boxes on each axis (negative:
    /// the depth they overlap by).
    fn report_pairs(&self, tick: usize) {
        for (id, c, _) in self.crowd.iter() {
            let others = self
                .crowd
                .overlapping_at(c.shape(), c.shape_center(), Some(id));
            for &other in others.as_slice() {
                let Some(o) = self.crowd.get(other).filter(|_| other > id) else {
                    continue;
                };
                let (a, b) = (c.shape_center(), o.shape_center());
                let reach = (c.shape().bounds().1 - c.shape().bounds().0 + o.shape().bounds().1
                    - o.shape().bounds().0)
                    * 0.5;
                let gap = (a - b).abs() - reach;
                eprintln!(
                    "bots {id} and {other} overlap at the end of tick {tick}: origins {} and {}, \
                     velocities {} and {}, grounds {:?} and {:?}, gap {gap}",
                    c.position(),
                    o.position(),
                    c.velocity(),
                    o.velocity(),
                    c.ground().state,
                    o.ground().state
                );
            }
        }
    }

    /// With [`SoakOptions::report`] and `PLANESHIFT_SOAK_TRACE=BOT:FIRST:LAST` in the
    /// environment: bot `BOT`'s input and state after each tick `FIRST..=LAST`, on stderr
    /// (the positions as f32 bits too), to study one spot the report named.
    fn report_traced(&self, tick: usize) {
        let Some((bot, first, last)) = traced() else {
            return;
        };
        if !(first..=last).contains(&tick) {
            return;
        }
        let (Some(c), Some(b)) = (self.crowd.get(bot), self.bots.get(bot as usize)) else {
            return;
        };
        let p = c.position();
        eprintln!(
            "trace bot {bot} tick {tick}: input {:?}, origin {p:?} bits {:08x?}, state {:?}, \
             judged {:?}",
            b.input,
            p.to_array().map(f32::to_bits),
            c.state(),
            inside(self.world, c)
        );
    }

    /// The checks after a tick for bot `id`.
    fn watch(&mut self, tick: usize, id: u32) {
        let (Some(c), Some(outcome)) = (self.crowd.get(id), self.crowd.outcome(id)) else {
            return;
        };
        let bot = &mut self.bots[id as usize];
        let summary = &mut self.summary;
        summary.travelled += (c.position() - bot.position).length();
        bot.position = c.position();
        match outcome.tick.activity {
            Activity::Swim => summary.swimming += 1,
            Activity::Ladder => summary.climbing += 1,
            _ => {}
        }
        if (self.count)(self.world, c) {
            self.counted += 1;
        }
        // Inside what blocks this bot, in the world its movement collides with (`inside.rs`).
        let judged = inside(self.world, c);
        if judged == Inside::BrushesOnly {
            summary.inside_brushes_only += 1;
            if self.options.report {
                let p = c.position();
                eprintln!(
                    "bot {id} ended tick {tick} inside the brushes, open in the clip hull: \
                     origin {} {} {}",
                    p.x, p.y, p.z
                );
            }
        }
        if judged == Inside::Nudged {
            // In solid all the same: counted in `inside_solid`, and named apart.
            summary.inside_solid += 1;
            summary.inside_nudged += 1;
            if self.options.report {
                let p = c.position();
                eprintln!(
                    "bot {id} ended tick {tick} inside the clip hull within the game's nudge: \
                     origin {} {} {}",
                    p.x, p.y, p.z
                );
            }
        }
        if judged == Inside::Solid {
            summary.inside_solid += 1;
            if self.options.report {
                let p = c.position();
                eprintln!(
                    "bot {id} ended tick {tick} inside solid: origin {} {} {}, stuck {}, \
                     overlapping bots {:?}",
                    p.x, p.y, p.z, outcome.tick.stuck, outcome.overlapping
                );
            }
        }
        if self.options.report && !outcome.overlapping.is_empty() {
            let p = c.position();
            eprintln!(
                "bot {id} ended tick {tick} overlapping bots {:?}: origin {} {} {}, \
                 overlapped at the start {:?}, separated {:?}",
                outcome.overlapping, p.x, p.y, p.z, outcome.overlapped, outcome.separated
            );
        }
        if c.ground().is_walkable() {
            summary.grounded += 1;
            bot.last_ground = (tick, c.position());
        }
        // A bot below the world has fallen out (counted at the end); its seconds at the
        // coordinate limit, where every sweep is refused, are not stuck seconds.
        if tick % self.ticks_per_second == self.ticks_per_second - 1
            && c.position().z >= self.floor
            && let Some((start, _, true)) = bot.window
            && (c.position() - start).length() < STUCK_DISTANCE
        {
            summary.stuck += 1;
            if self.options.report {
                let p = c.position();
                eprintln!(
                    "bot {id} stuck in the second ending at tick {tick}: origin {} {} {}, \
                     wish {} {}, {:?}, crouched {}",
                    p.x,
                    p.y,
                    p.z,
                    bot.input.wish.x,
                    bot.input.wish.y,
                    c.ground().state,
                    c.crouched()
                );
            }
        }
        if tick % self.ticks_per_second == self.ticks_per_second - 1 {
            // Struggles after a stuck second, until a watched second in which it moved.
            if let Some((start, _, true)) = bot.window {
                bot.struggles = (c.position() - start).length() < STUCK_DISTANCE;
            }
            bot.window = None;
        }
    }

    /// Every bot fires a hitscan from its eye along its view (`shots.rs`).
    fn shoot(&mut self) {
        for (id, c, _) in self.crowd.iter() {
            let Some(bot) = self.bots.get(id as usize) else {
                continue;
            };
            fire(
                self.world,
                self.crowd.bodies(),
                id,
                c.eye_position(),
                bot.driver.view,
                &mut self.summary.shots,
            );
        }
    }

    /// Bot `id` plays the triggers its tick touched, in model order, Quake 3's
    /// `G_TouchTriggers` (a death ends the list).
    fn play(&mut self, tick: usize, id: u32) -> Result<(), String> {
        let Some(outcome) = self.crowd.outcome(id) else {
            return Ok(());
        };
        let triggers = outcome.tick.triggers.clone();
        let before = self.crowd.get(id).map_or(Vec3::ZERO, |c| c.position());
        for model in triggers.touched.iter() {
            match self.level.get(model) {
                Some(Trigger::Hurt) => {
                    self.summary.deaths += 1;
                    if self.options.report {
                        let entity = self.world.model_entity(model).map_or(0, |e| e.index());
                        eprintln!(
                            "bot {id} died at tick {tick} in trigger_hurt entity {entity} \
                             (model {model}): origin {} {} {}",
                            before.x, before.y, before.z
                        );
                    }
                    return self.respawn(id);
                }
                Some(Trigger::Teleport { origin, velocity }) => {
                    // Quake 3 `TeleportPlayer`: kill whoever stands there, then move.
                    let shape_center = self
                        .crowd
                        .get(id)
                        .map(|c| (c.shape().clone(), c.shape_center() - c.position()));
                    if let Some((shape, offset)) = shape_center {
                        let victims = self.crowd.overlapping_at(&shape, origin + offset, Some(id));
                        for victim in victims.as_slice() {
                            self.summary.telefrags += 1;
                            self.respawn(*victim)?;
                        }
                    }
                    self.crowd
                        .update(id, |c| c.teleport(origin, velocity, TELEPORT_HOLD));
                    self.summary.teleports += 1;
                    self.bots[id as usize].window = None;
                    self.bots[id as usize].position = origin;
                    return Ok(());
                }
                Some(Trigger::Push { velocity }) => {
                    if triggers.entered.contains(model) {
                        self.summary.jumppad_launches += 1;
                    }
                    self.crowd.update(id, |c| c.launch(velocity - c.velocity()));
                    self.bots[id as usize].window = None;
                }
                None => {}
            }
        }
        Ok(())
    }

    /// Bot `id` respawns as a new bot, standing still, at the next spawn point no bot
    /// stands on (Quake 3 `SpotWouldTelefrag`), or the next one if all are taken (the crowd
    /// then separates them).
    fn respawn(&mut self, id: u32) -> Result<(), String> {
        let config = self
            .configs
            .get(id as usize)
            .copied()
            .unwrap_or(self.options.config);
        let probe = CharacterController::new(config, Vec3::ZERO).map_err(|e| e.to_string())?;
        let offset = probe.shape_center() - probe.position();
        let count = self.spawns.len();
        let free = (0..count)
            .map(|k| (self.next_spawn + k) % count)
            .find(|&k| {
                self.crowd
                    .overlapping_at(probe.shape(), self.spawns[k] + offset, Some(id))
                    .is_empty()
            })
            .unwrap_or(self.next_spawn % count);
        self.next_spawn = (free + 1) % count;
        let spawn = self.spawns[free];
        let controller = CharacterController::new(config, spawn).map_err(|e| e.to_string())?;
        self.crowd.insert(id, controller);
        let bot = &mut self.bots[id as usize];
        bot.driver.ticks_left = 0;
        bot.window = None;
        bot.position = spawn;
        bot.struggles = false;
        Ok(())
    }
}

/// `PLANESHIFT_SOAK_TRACE=BOT:FIRST:LAST`, read once ([`Soak::report_traced`]).
fn traced() -> Option<(u32, usize, usize)> {
    static TRACED: std::sync::OnceLock<Option<(u32, usize, usize)>> = std::sync::OnceLock::new();
    *TRACED.get_or_init(|| {
        let value = std::env::var("PLANESHIFT_SOAK_TRACE").ok()?;
        let mut parts = value.split(':');
        let bot = parts.next()?.parse().ok()?;
        let first = parts.next()?.parse().ok()?;
        let last = parts.next()?.parse().ok()?;
        Some((bot, first, last))
    })
}

/// The origins of the map's player spawn points.
fn spawn_points(map: &MapFile) -> Vec<Vec3> {
    map.player_spawns()
        .map(|origin| origin.as_vec3())
        .filter(|origin| origin.is_finite())
        .collect()
}
