//! Character-tick cost: planeshift's `CharacterController` against
//! Rapier's `KinematicCharacterController` in the same run, moving the same box with the same
//! inputs over the same brushes. Target: planeshift at least 5× faster per tick.
//!
//! Takes real maps from `$PLANESHIFT_REAL_MAPS` (default `../shared/maps`; a missing one is
//! skipped) and the bundled `maps/arena.map`. Gives criterion benchmarks
//! `controller/<map>/planeshift`, `controller/<map>/rapier` and `controller/<map>/quake3`
//! (planeshift with Quake 3's movement profile, `ControllerConfig::quake3`: issue 37 asks
//! at most 1.2× planeshift's own tick), one iteration being one tick
//! of every character; before timing a map, a sanity line per side (distance walked,
//! grounded share, characters fallen out of the level or ending inside solid); at the end a
//! table of ns per character tick for each side and the ratio, computed from the very
//! samples criterion measured (total time over total iterations of its measurement samples,
//! divided by the number of characters). Also before timing a map, one
//! `<map>/planeshift: checksum` line: FNV-1a over the bits of every planeshift character's
//! final position and velocity after the warm-up and one episode, so a speed change must
//! leave it as it is (`cargo bench --bench controller -- --test` prints them too). Guarantees: both sides run the same deterministic
//! workload (seeded inputs, fixed episode, no clocks in the simulation); a side is only
//! timed on ticks its sanity pass has shown.
//!
//! Workload, per map: [`CHARACTERS`] characters placed on the map's `info_player_start` and
//! `info_player_deathmatch` origins (round robin) lifted by [`SPAWN_LIFT`], each with its own
//! seeded input script (both sides get the same scripts): a wish direction held 0.25 to
//! 1.5 s (one in ten is "stand still"), a jump pressed for two ticks at the start of three
//! segments in ten.
//! [`WARM_UP_TICKS`] ticks (1.6 s) run untimed so the characters stand on the ground and
//! move; then the timed ticks replay an episode of [`EPISODE_TICKS`] ticks (8 s) from that
//! warmed state, starting over from it (untimed copy) whenever the episode ends, so every
//! measurement covers the same mix of walking, stepping, jumping and wall sliding.
//!
//! planeshift: `CharacterController::step_into(&compiled_map, &input, &mut outcome)`, each
//! character's outcome kept in place from tick to tick as a game's frame keeps it, with
//! `ControllerConfig::default()` (Quake 3 box 30×30×56, origin 24 above the feet, step 18,
//! walkable normal z ≥ 0.7, gravity 800, speed 320, 8 ms tick); the world is the compiled
//! map's model 0.
//!
//! Rapier (`rapier3d` 0.36.1, default features), set up as favourably as is reasonable:
//! - world: one fixed convex-hull collider (`ColliderBuilder::convex_hull` of the brush's
//!   corners) per solid world brush that blocks a player (`Brush::is_solid_world` and
//!   contents in `Contents::MASK_PLAYER_SOLID`: the brushes the compiled world's model 0
//!   stops a player with), no rigid bodies; the `QueryPipeline` is built over a BVH of the
//!   colliders' tight AABBs made once with parry's binned SAH builder (`Bvh::from_iter`),
//!   which is what a settled broad phase holds at best (a `BroadPhaseBvh` filled through
//!   `set_aabb` timed the same within noise), with `DefaultQueryDispatcher` and no filter;
//! - shape: `Cuboid` with half extents (15, 15, 28) centred 4 above the origin, i.e. our
//!   box (−15, −15, −24)..(15, 15, 32); Z up (`up = Vector::Z`);
//! - `offset` Rapier's default `Relative(0.01)`, 0.56 units for this box. Not our stop
//!   distance (`Absolute(1/32)`): with it Rapier's characters come to rest inside the skin
//!   (the snap to ground leaves them about 0.006 above the floor; every later cast then
//!   starts within the offset and stops at once, and the 1e-4 normal nudge lifts them only
//!   1e-4 a tick), so in a trial they walked about half as far (arena: 781 units against 1830)
//!   and 20 to 30% of character ticks ended overlapping solid, for no lower cost;
//! - `slide` true; `autostep` `max_height Absolute(18)`, `min_width Absolute(15)` (our
//!   `min_step_tread` 0.5 of the width), `include_dynamic_bodies` false (there are none);
//!   `max_slope_climb_angle` and `min_slope_slide_angle` acos 0.7 (45.57°); `snap_to_ground`
//!   `Absolute(18)`; `normal_nudge_factor` default (1e-4); the collision-event callback does
//!   nothing;
//! - driver (Rapier's controller is stateless, the caller integrates velocity): Quake 3's
//!   friction and acceleration on the same wish with the same constants as
//!   `ControllerConfig::default()` (ground when the previous move ended grounded, air
//!   control otherwise); vertical speed reset to 0 when the previous move ended grounded; a
//!   newly pressed jump while grounded sets it to 270; gravity 800 integrated exactly over
//!   the tick (desired rise `v·t − g·t²/2`, also when grounded, so the cast keeps touching
//!   the floor); desired translation = that velocity × 8 ms. After the move the horizontal
//!   velocity becomes the move actually made (so walls stop it, as Quake's clipping does),
//!   never faster than asked; a rising character whose move came out less than half the rise
//!   asked for hit a ceiling and stops rising.

mod support;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;
use support::episodes::{Ticked, replay};
use support::{Pcg32, real_map};

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec3;
use planeshift::CompiledMap;
use planeshift::Contents;
use planeshift::TraceShape;
use planeshift::brush::brushes_from_map;
use planeshift::compile_map;
use planeshift::map::parse_map;
use planeshift::{CharacterController, ControllerConfig, MoveInput, MoveOutcome};
use rapier3d::control::{CharacterAutostep, CharacterLength, KinematicCharacterController};
use rapier3d::dynamics::RigidBodySet;
use rapier3d::geometry::{ColliderBuilder, ColliderSet};
use rapier3d::math::{Pose, Vector};
use rapier3d::parry::partitioning::{Bvh, BvhBuildStrategy};
use rapier3d::parry::query::DefaultQueryDispatcher;
use rapier3d::parry::shape::Cuboid;
use rapier3d::pipeline::{QueryFilter, QueryPipeline};

/// What blocks a player.
const MASK: Contents = Contents::MASK_PLAYER_SOLID;
/// Characters per map.
const CHARACTERS: usize = 16;
/// Untimed ticks before the episode: the characters land and get moving.
const WARM_UP_TICKS: usize = 200;
/// Ticks of the replayed episode.
const EPISODE_TICKS: usize = 1000;
/// Criterion samples per benchmark (the table uses exactly these).
const SAMPLES: usize = 50;
/// Ticks the jump key stays down when a segment jumps.
const JUMP_TICKS: usize = 2;
/// Characters start this far above a spawn origin, as Quake 1's `PutClientInServer` does
/// (a spawn origin puts the feet exactly on the floor).
const SPAWN_LIFT: f32 = 1.0;
/// The player box, around the origin (Quake 3's).
const BOX_MIN: Vec3 = TraceShape::QUAKE3_PLAYER_BOUNDS.0;
const BOX_MAX: Vec3 = TraceShape::QUAKE3_PLAYER_BOUNDS.1;

/// The maps: (label, path under the real-maps folder). The largest by brushes (e4m1), three
/// more Quake 1 maps of different kinds and two Quake 3 ones.
const REAL_MAPS: [(&str, &str); 5] = [
    ("e4m1", "id-quake-1996/e4m1.map"),
    ("e1m2", "id-quake-1996/e1m2.map"),
    ("dm4", "id-quake-1996/dm4.map"),
    ("kaos", "openarena-lostlevels/kaos.map"),
    ("dm17ish", "openarena-lostlevels/dm17ish.map"),
];

/// The inputs of every character for `ticks` ticks, as `[tick][character]`.
fn script(ticks: usize, tick_seconds: f32) -> Vec<Vec<MoveInput>> {
    let mut out = vec![vec![MoveInput::default(); CHARACTERS]; ticks];
    for c in 0..CHARACTERS {
        let mut rng = Pcg32(0x5eed_c0de ^ (c as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut t = 0;
        while t < ticks {
            let hold = ((rng.range(0.25, 1.5) / tick_seconds).round() as usize).max(1);
            let wish = if rng.next() < 0.1 {
                Vec3::ZERO
            } else {
                let a = rng.range(0.0, std::f32::consts::TAU);
                Vec3::new(a.cos(), a.sin(), 0.0)
            };
            let jump = rng.next() < 0.3;
            for (k, row) in out.iter_mut().skip(t).take(hold).enumerate() {
                row[c] = MoveInput {
                    wish,
                    jump: jump && k < JUMP_TICKS,
                    crouch: false,
                    command: None,
                };
            }
            t += hold;
        }
    }
    out
}

/// A map ready for both sides.
struct Level {
    name: String,
    world: CompiledMap,
    /// Corners of each brush that blocks a player in the world model.
    hulls: Vec<Vec<Vec3>>,
    /// Player spawn origins.
    spawns: Vec<Vec3>,
    /// The lowest point of any of those brushes: a character below it fell out.
    floor_z: f32,
}

fn load_level(name: &str, path: &Path) -> Option<Level> {
    let src = std::fs::read(path).ok()?;
    let world = compile_map(&src).ok()?.map;
    let map = parse_map(&src).ok()?;
    let brushes = brushes_from_map(&map).brushes;
    let blocking = brushes
        .iter()
        .filter(|b| b.is_solid_world() && b.contents.intersects(Contents::MASK_PLAYER_SOLID));
    let hulls: Vec<Vec<Vec3>> = blocking
        .map(|b| b.vertices().iter().map(|p| p.as_vec3()).collect())
        .collect();
    let floor_z = hulls
        .iter()
        .flatten()
        .map(|p| p.z)
        .fold(f32::INFINITY, f32::min);
    let spawns: Vec<Vec3> = map
        .player_spawns()
        .map(|origin| origin.as_vec3() + Vec3::Z * SPAWN_LIFT)
        .collect();
    (!spawns.is_empty() && !hulls.is_empty()).then(|| Level {
        name: name.to_owned(),
        world,
        hulls,
        spawns,
        floor_z,
    })
}

fn to_rapier(v: Vec3) -> Vector {
    Vector::new(v.x, v.y, v.z)
}

fn from_rapier(v: Vector) -> Vec3 {
    Vec3::new(v.x, v.y, v.z)
}

/// One side of the comparison: a crowd of characters advanced one tick at a time.
trait Crowd: Ticked {
    /// Each character's origin.
    fn origins(&self) -> Vec<Vec3>;
    /// How many characters stand on the ground.
    fn grounded(&self) -> usize;
}

#[derive(Clone)]
struct PlaneshiftCrowd<'a> {
    world: &'a CompiledMap,
    characters: Vec<CharacterController>,
    /// Each character's outcome, written in place every tick as a game's frame keeps it
    /// (`step_into`: no 2 KB copy out per character and tick).
    outcomes: Vec<MoveOutcome>,
}

impl<'a> PlaneshiftCrowd<'a> {
    fn new(world: &'a CompiledMap, spawns: &[Vec3]) -> Self {
        Self::with_config(world, spawns, ControllerConfig::default())
    }

    /// The crowd moving by `config` (planeshift's own movement or a game's profile).
    fn with_config(world: &'a CompiledMap, spawns: &[Vec3], config: ControllerConfig) -> Self {
        let characters = (0..CHARACTERS)
            .map(|i| {
                CharacterController::new(config, spawns[i % spawns.len()])
                    .expect("a valid configuration and a spawn origin")
            })
            .collect();
        let outcomes = vec![MoveOutcome::default(); CHARACTERS];
        PlaneshiftCrowd {
            world,
            characters,
            outcomes,
        }
    }
}

impl Ticked for PlaneshiftCrowd<'_> {
    fn tick(&mut self, inputs: &[MoveInput]) {
        let each = self.characters.iter_mut().zip(&mut self.outcomes);
        for ((character, outcome), input) in each.zip(inputs) {
            character.step_into(self.world, input, outcome);
            black_box(&*outcome);
        }
    }
}

impl Crowd for PlaneshiftCrowd<'_> {
    fn origins(&self) -> Vec<Vec3> {
        self.characters.iter().map(|c| c.position()).collect()
    }

    fn grounded(&self) -> usize {
        self.characters
            .iter()
            .filter(|c| c.ground().is_walkable())
            .count()
    }
}

/// FNV-1a over the bits of every character's position and velocity, in order.
fn checksum(characters: &[CharacterController]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for character in characters {
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

/// The brushes as Rapier colliders, and a BVH over them.
struct RapierWorld {
    bodies: RigidBodySet,
    colliders: ColliderSet,
    bvh: Bvh,
    /// Brushes whose convex hull Rapier refused.
    refused: usize,
}

impl RapierWorld {
    fn new(hulls: &[Vec<Vec3>]) -> Self {
        let mut colliders = ColliderSet::new();
        let mut refused = 0;
        for hull in hulls {
            let points: Vec<Vector> = hull.iter().map(|p| to_rapier(*p)).collect();
            match ColliderBuilder::convex_hull(&points) {
                Some(builder) => {
                    colliders.insert(builder);
                }
                None => refused += 1,
            }
        }
        let leaves = colliders
            .iter()
            .map(|(handle, c)| (handle.into_raw_parts().0 as usize, c.compute_aabb()));
        let bvh = Bvh::from_iter(BvhBuildStrategy::Binned, leaves);
        RapierWorld {
            bodies: RigidBodySet::new(),
            colliders,
            bvh,
            refused,
        }
    }

    fn queries(&self) -> QueryPipeline<'_> {
        QueryPipeline {
            dispatcher: &DefaultQueryDispatcher,
            bvh: &self.bvh,
            bodies: &self.bodies,
            colliders: &self.colliders,
            filter: QueryFilter::default(),
        }
    }
}

/// A Rapier character's state: the controller itself keeps none.
#[derive(Clone, Copy)]
struct Walker {
    origin: Vec3,
    velocity: Vec3,
    grounded: bool,
    jump_held: bool,
}

#[derive(Clone)]
struct RapierCrowd<'a> {
    world: &'a RapierWorld,
    controller: KinematicCharacterController,
    shape: Cuboid,
    /// Where the cuboid's centre sits above the origin.
    centre: Vec3,
    config: ControllerConfig,
    walkers: Vec<Walker>,
}

impl<'a> RapierCrowd<'a> {
    fn new(world: &'a RapierWorld, spawns: &[Vec3]) -> Self {
        let config = ControllerConfig::default();
        let walkable = config.walkable_normal_z.acos();
        let controller = KinematicCharacterController {
            up: Vector::Z,
            // Rapier's default skin (0.56 units here). Our 1/32 leaves Rapier's characters
            // stuck (see the module doc).
            offset: CharacterLength::Relative(0.01),
            slide: true,
            autostep: Some(CharacterAutostep {
                max_height: CharacterLength::Absolute(config.step_height),
                min_width: CharacterLength::Absolute(15.0),
                include_dynamic_bodies: false,
            }),
            max_slope_climb_angle: walkable,
            min_slope_slide_angle: walkable,
            snap_to_ground: Some(CharacterLength::Absolute(config.step_height)),
            ..KinematicCharacterController::default()
        };
        let walkers = (0..CHARACTERS)
            .map(|i| Walker {
                origin: spawns[i % spawns.len()],
                velocity: Vec3::ZERO,
                grounded: false,
                jump_held: false,
            })
            .collect();
        RapierCrowd {
            world,
            controller,
            shape: Cuboid::new(to_rapier((BOX_MAX - BOX_MIN) * 0.5)),
            centre: (BOX_MAX + BOX_MIN) * 0.5,
            config,
            walkers,
        }
    }

    fn step(&self, queries: &QueryPipeline, w: &mut Walker, input: &MoveInput) {
        let c = &self.config;
        let dt = c.tick;
        let wish = Vec3::new(input.wish.x, input.wish.y, 0.0).clamp_length_max(1.0);
        let (wish_dir, wish_speed) = (wish.normalize_or_zero(), wish.length() * c.max_speed);
        let jump = input.jump && !w.jump_held && w.grounded;
        w.jump_held = input.jump;
        let mut v = w.velocity;
        if w.grounded {
            v.z = 0.0;
        }
        if w.grounded && !jump {
            v = friction(v, c);
            v = accelerate(v, wish_dir, wish_speed, c.accelerate * dt);
        } else {
            v = accelerate(v, wish_dir, wish_speed, c.air_accelerate * dt);
        }
        if jump {
            v.z = c.jump_speed;
        }
        let rise = v.z * dt - 0.5 * c.gravity * dt * dt;
        v.z -= c.gravity * dt;
        let desired = Vec3::new(v.x * dt, v.y * dt, rise);
        let pose = Pose::from_translation(to_rapier(w.origin + self.centre));
        let moved =
            self.controller
                .move_shape(dt, queries, &self.shape, &pose, to_rapier(desired), |_| {});
        let step = from_rapier(moved.translation);
        w.origin += step;
        let along = step
            .truncate()
            .clamp_length_max(desired.truncate().length());
        v.x = along.x / dt;
        v.y = along.y / dt;
        if v.z > 0.0 && step.z < 0.5 * rise {
            v.z = 0.0;
        }
        w.velocity = v;
        w.grounded = moved.grounded;
    }
}

impl Ticked for RapierCrowd<'_> {
    fn tick(&mut self, inputs: &[MoveInput]) {
        let queries = self.world.queries();
        let mut walkers = std::mem::take(&mut self.walkers);
        for (w, input) in walkers.iter_mut().zip(inputs) {
            self.step(&queries, w, input);
        }
        self.walkers = black_box(walkers);
    }
}

impl Crowd for RapierCrowd<'_> {
    fn origins(&self) -> Vec<Vec3> {
        self.walkers.iter().map(|w| w.origin).collect()
    }

    fn grounded(&self) -> usize {
        self.walkers.iter().filter(|w| w.grounded).count()
    }
}

/// Quake 3's ground friction on the horizontal speed.
fn friction(v: Vec3, c: &ControllerConfig) -> Vec3 {
    let speed = v.truncate().length();
    if speed < 1.0 {
        return Vec3::new(0.0, 0.0, v.z);
    }
    let drop = speed.max(c.stop_speed) * c.friction * c.tick;
    let scale = (speed - drop).max(0.0) / speed;
    Vec3::new(v.x * scale, v.y * scale, v.z)
}

/// Quake 3's accelerate: speed along `dir` grows towards `wish_speed` by at most
/// `accel_dt · wish_speed`.
fn accelerate(v: Vec3, dir: Vec3, wish_speed: f32, accel_dt: f32) -> Vec3 {
    let add = wish_speed - v.dot(dir);
    if add <= 0.0 {
        return v;
    }
    v + dir * (accel_dt * wish_speed).min(add)
}

/// What one episode did to a crowd (untimed).
struct Sanity {
    /// Mean distance each character travelled, units.
    path: f32,
    /// Mean distance from the episode's start to its end, units.
    net: f32,
    /// Share of character ticks ending on the ground.
    grounded: f32,
    /// Characters below the level's lowest brush at the end.
    fallen: usize,
    /// Character ticks ending with the box overlapping solid (planeshift's test).
    inside: usize,
    /// Of those, the ones more than 1 unit deep (the box shrunk by 1 still overlaps).
    deep: usize,
    /// Wall time of the episode, ns per character tick (one untimed-by-criterion run).
    ns: f64,
}

fn sanity<C: Crowd>(start: &C, inputs: &[Vec<MoveInput>], level: &Level) -> Sanity {
    let shape = TraceShape::aabb(BOX_MIN, BOX_MAX).expect("the player box is valid");
    let core = TraceShape::aabb(BOX_MIN + Vec3::ONE, BOX_MAX - Vec3::ONE)
        .expect("the player box less 1 unit is valid");
    let mut crowd = start.clone();
    let first = crowd.origins();
    let mut last = first.clone();
    let (mut path, mut grounded, mut ns) = (0.0f32, 0usize, 0.0f64);
    let (mut inside, mut deep) = (0usize, 0usize);
    for row in inputs {
        let t = Instant::now();
        crowd.tick(row);
        ns += t.elapsed().as_nanos() as f64;
        let now = crowd.origins();
        path += now
            .iter()
            .zip(&last)
            .map(|(a, b)| a.distance(*b))
            .sum::<f32>();
        grounded += crowd.grounded();
        let overlaps = |s: &TraceShape, p: Vec3| level.world.overlaps(s, p, MASK);
        inside += now.iter().filter(|p| overlaps(&shape, **p)).count();
        deep += now.iter().filter(|p| overlaps(&core, **p)).count();
        last = now;
    }
    let n = CHARACTERS as f32;
    let ticks = (inputs.len() * CHARACTERS) as f32;
    Sanity {
        path: path / n,
        net: first
            .iter()
            .zip(&last)
            .map(|(a, b)| a.distance(*b))
            .sum::<f32>()
            / n,
        grounded: grounded as f32 / ticks,
        fallen: last.iter().filter(|p| p.z < level.floor_z).count(),
        inside,
        deep,
        ns: ns / f64::from(ticks),
    }
}

fn print_sanity(map: &str, side: &str, s: &Sanity) {
    eprintln!(
        "{map}/{side}: over {EPISODE_TICKS} ticks x {CHARACTERS} characters: walked {:.0} units \
         each on average ({:.0} from start to end), grounded {:.0}% of ticks, {} fell out of \
         the level, {} character ticks ended inside solid ({} more than 1 unit deep); {:.0} ns per \
         character tick",
        s.path,
        s.net,
        s.grounded * 100.0,
        s.fallen,
        s.inside,
        s.deep,
        s.ns
    );
}

struct Row {
    map: String,
    brushes: usize,
    ours: Option<f64>,
    theirs: Option<f64>,
    /// Quake 3's movement profile (`ControllerConfig::quake3`).
    quake3: Option<f64>,
}

fn controller(c: &mut Criterion) {
    let mut maps: Vec<(String, PathBuf)> = REAL_MAPS
        .iter()
        .filter_map(|(label, path)| real_map(path).map(|p| ((*label).to_owned(), p)))
        .collect();
    maps.push((
        "arena".to_owned(),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps/arena.map"),
    ));
    let tick = ControllerConfig::default().tick;
    let inputs = script(WARM_UP_TICKS + EPISODE_TICKS, tick);
    let (warm_up, episode) = inputs.split_at(WARM_UP_TICKS);
    let mut rows = Vec::new();
    let mut group = c.benchmark_group("controller");
    group.sample_size(SAMPLES);
    for (name, path) in maps {
        let Some(level) = load_level(&name, &path) else {
            eprintln!("{name}: skipped (unreadable, or no spawn point)");
            continue;
        };
        let rapier_world = RapierWorld::new(&level.hulls);
        eprintln!(
            "{}: {} player-solid world brushes, {} Rapier colliders ({} hulls refused), {} spawn points",
            level.name,
            level.hulls.len(),
            rapier_world.colliders.len(),
            rapier_world.refused,
            level.spawns.len()
        );

        let mut ours = PlaneshiftCrowd::new(&level.world, &level.spawns);
        let mut theirs = RapierCrowd::new(&rapier_world, &level.spawns);
        let mut quake3 =
            PlaneshiftCrowd::with_config(&level.world, &level.spawns, ControllerConfig::quake3());
        for row in warm_up {
            ours.tick(row);
            theirs.tick(row);
            quake3.tick(row);
        }
        let mut probe = ours.clone();
        for row in episode {
            probe.tick(row);
        }
        eprintln!(
            "{}/planeshift: {CHARACTERS} characters after {} ticks, checksum {:016x}",
            level.name,
            warm_up.len() + episode.len(),
            checksum(&probe.characters)
        );
        print_sanity(&level.name, "planeshift", &sanity(&ours, episode, &level));
        print_sanity(&level.name, "rapier", &sanity(&theirs, episode, &level));

        let mut record = Vec::new();
        let mut now = (ours.clone(), 0);
        group.bench_function(format!("{}/planeshift", level.name), |b| {
            b.iter_custom(|iters| replay(&ours, episode, iters, &mut now, &mut record))
        });
        let ours_ns = support::episodes::per_character_tick(&record, SAMPLES, CHARACTERS);

        let mut record = Vec::new();
        let mut now = (theirs.clone(), 0);
        group.bench_function(format!("{}/rapier", level.name), |b| {
            b.iter_custom(|iters| replay(&theirs, episode, iters, &mut now, &mut record))
        });
        let theirs_ns = support::episodes::per_character_tick(&record, SAMPLES, CHARACTERS);

        // Quake 3's movement profile on the same script (issue 37: at most 1.2x ours).
        let mut record = Vec::new();
        let mut now = (quake3.clone(), 0);
        group.bench_function(format!("{}/quake3", level.name), |b| {
            b.iter_custom(|iters| replay(&quake3, episode, iters, &mut now, &mut record))
        });
        let quake3_ns = support::episodes::per_character_tick(&record, SAMPLES, CHARACTERS);

        rows.push(Row {
            map: level.name.clone(),
            brushes: rapier_world.colliders.len(),
            ours: ours_ns,
            theirs: theirs_ns,
            quake3: quake3_ns,
        });
    }
    group.finish();

    let show = |v: Option<f64>| v.map_or("-".to_owned(), |v| format!("{v:.0}"));
    eprintln!();
    eprintln!(
        "ns per character tick ({CHARACTERS} characters, 8 ms ticks; criterion's measurement samples)"
    );
    eprintln!(
        "{:<10} {:>8} {:>12} {:>12} {:>8} {:>12} {:>8}",
        "map", "brushes", "planeshift", "rapier", "ratio", "quake3", "ratio"
    );
    let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) if a > 0.0 => format!("{:.1}x", b / a),
        _ => "-".to_owned(),
    };
    for r in &rows {
        eprintln!(
            "{:<10} {:>8} {:>12} {:>12} {:>8} {:>12} {:>8}",
            r.map,
            r.brushes,
            show(r.ours),
            show(r.theirs),
            ratio(r.ours, r.theirs),
            show(r.quake3),
            ratio(r.ours, r.quake3)
        );
    }
}

criterion_group!(benches, controller);
criterion_main!(benches);
