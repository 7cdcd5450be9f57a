//! Quake 3's player movement: ioquake3's `PmoveSingle` (`code/game/bg_pmove.c`,
//! `bg_slidemove.c`) on planeshift's sweeps.
//!
//! Takes the configuration, the [`CharacterState`] (its [`ProfileState`] as `pm_flags` and
//! `pm_time`), the world and one [`MoveInput`]; gives what the game's code gives after the
//! command: origin, velocity rounded to whole units (`trap_SnapVector`), ground entity,
//! ducked flag, water level. The data flow, in `PmoveSingle`'s order:
//! 1. `usercmd`: the input as the game's command, the view vectors;
//! 2. `ground`: water level, duck (`PM_CheckDuck`), ground (`PM_GroundTrace`), timers;
//! 3. `moves`: water jump, swimming, walking or the air (`PM_WalkMove`, `PM_AirMove`, with
//!    `PM_Friction`, `PM_Accelerate`, `PM_CmdScale`, `PM_CheckJump`);
//! 4. `slide`: `PM_SlideMove` and `PM_StepSlideMove` through `trace` (`CM_BoxTrace`);
//! 5. the ground and the water level again, then the velocity snapped.
//!
//! Guarantees: the game's numbers come from the configuration ([`ControllerConfig::quake3`]
//! names them), its constants from its headers (`OVERCLIP`, the 0.25 ground trace, the
//! kick-off speed); every f32 operation in the game's order, and where the game computes in
//! double (`PM_CmdScale`'s division, the frame time, the wading scale, `AngleVectors`) this
//! does too; no platform maths. Modes beyond walking (noclip, fly, frozen, dead) and
//! ladders are planeshift's notions and not Quake 3's `PM_NORMAL`: a profile tick ignores
//! them and moves as a living player.
//!
//! The world as the game sees it comes from query options, not a second collision system:
//! the 1/8 stop distance ([`ShapeQuery::with_stop_distance`]) and Quake 3's own curved patch
//! collision ([`ShapeQuery::with_game_patches`]: the game's coarse facets made at load from
//! the `.bsp`'s control grids, traced as `CM_TraceThroughPatchCollide` does), turned on in
//! `trace.rs`; other players' boxes stop a sweep within the game's 1/8 of them, as its
//! entity clipping does (`bodies.rs`, in a crowd only). Measured against the game's recorded runs (`tests/it/controller/
//! reference_moves.rs`, 90 runs on six levels): every tick within 0.01, every velocity equal.
//!
//! [`ShapeQuery::with_stop_distance`]: crate::movement::ShapeQuery::with_stop_distance
//! [`ShapeQuery::with_game_patches`]: crate::movement::ShapeQuery::with_game_patches
//! [`ControllerConfig::quake3`]: crate::ControllerConfig::quake3

mod bodies;
mod ground;
mod liquids;
mod memo;
mod moves;
mod slide;
mod trace;
mod usercmd;
mod vector;

use glam::Vec3;

use crate::contents::Contents;
use crate::controller::config::ControllerConfig;
use crate::controller::ground::{Ground, GroundState};
use crate::controller::tick::{Activity, CharacterState, MoveInput, MoveOutcome, ProfileState};
use crate::controller::tracer::Tracer;
use crate::surface::SurfaceFlags;
use crate::trace::TickCache;
use trace::{PlayerBox, Swept};
use usercmd::UserCmd;

pub(crate) use memo::Memo;

/// `pm_flags` bits (`bg_public.h`).
const PMF_DUCKED: u32 = 1;
const PMF_JUMP_HELD: u32 = 2;
const PMF_TIME_LAND: u32 = 32;
const PMF_TIME_KNOCKBACK: u32 = 64;
const PMF_TIME_WATERJUMP: u32 = 256;
const PMF_ALL_TIMES: u32 = PMF_TIME_WATERJUMP | PMF_TIME_LAND | PMF_TIME_KNOCKBACK;

/// `PmoveSingle`'s bounds on a command's duration, milliseconds.
const MIN_MSEC: f32 = 1.0;
const MAX_MSEC: f32 = 200.0;

/// The game's numbers, read once per command from the configuration.
#[derive(Clone, Copy, Debug)]
struct Numbers {
    /// `ps->speed` (an int in the game: `g_speed`).
    speed: f32,
    /// `ps->gravity`.
    gravity: f32,
    jump_velocity: f32,
    accelerate: f32,
    air_accelerate: f32,
    friction: f32,
    stop_speed: f32,
    duck_scale: f32,
    swim_scale: f32,
    water_accelerate: f32,
    water_friction: f32,
    step_size: f32,
    min_walk_normal: f32,
    ground_probe: f32,
    /// `MINS_Z` (−24).
    mins_z: f32,
    /// `DEFAULT_VIEWHEIGHT` and `CROUCH_VIEWHEIGHT`, whole units as the game's ints.
    view_height: i32,
    crouch_view_height: i32,
    /// `PMF_TIME_LAND`'s 250 ms and the fall speed that sets it (200).
    land_time_ms: i32,
    hard_landing_speed: f32,
    water_jump_up: f32,
    water_jump_forward: f32,
    water_jump_ms: i32,
    sink_speed: f32,
}

impl Numbers {
    fn of(config: &ControllerConfig) -> Numbers {
        let ms = |seconds: f32| (seconds * 1000.0).round() as i32;
        Numbers {
            speed: config.max_speed.trunc(),
            gravity: config.gravity.trunc(),
            jump_velocity: config.jump_speed,
            accelerate: config.accelerate,
            air_accelerate: config.air_accelerate,
            friction: config.friction,
            stop_speed: config.stop_speed,
            duck_scale: config.crouch_speed_scale,
            swim_scale: config.swim_scale,
            water_accelerate: config.water_accelerate,
            water_friction: config.water_friction,
            step_size: config.step_height,
            min_walk_normal: config.walkable_normal_z,
            ground_probe: config.ground_probe,
            mins_z: -config.feet_to_origin,
            view_height: (config.eye_height - config.feet_to_origin) as i32,
            crouch_view_height: (config.crouch_eye_height - config.feet_to_origin) as i32,
            land_time_ms: ms(config.land_jump_delay),
            hard_landing_speed: config.hard_landing_speed,
            water_jump_up: config.water_jump_speed,
            water_jump_forward: config.water_jump_forward,
            water_jump_ms: ms(config.water_jump_time),
            sink_speed: config.sink_speed,
        }
    }
}

/// One command's `pmove_t`, `playerState_t` and `pml_t`: the player state it changes and
/// the locals `PmoveSingle` clears each time.
struct Pmove<'a, T: Tracer + ?Sized> {
    world: &'a T,
    /// The brushes gathered near the player for this command, if any.
    scratch: Option<&'a TickCache>,
    /// What earlier commands computed, and the world's identities that key it: the map
    /// that is the whole world (traces), the map whose point contents are the world's.
    memo: &'a mut Memo,
    trace_world: Option<u64>,
    contents_world: Option<u64>,
    /// The world's point contents hold no liquid anywhere.
    dry: bool,
    mask: Contents,
    n: Numbers,
    stand: &'a PlayerBox,
    crouch: &'a PlayerBox,
    cmd: UserCmd,
    // playerState_t.
    origin: Vec3,
    velocity: Vec3,
    flags: u32,
    pm_time: i32,
    /// `groundEntityNum != ENTITYNUM_NONE`.
    on_ground: bool,
    // pmove_t results.
    water_level: u8,
    water_type: Contents,
    // pml_t.
    forward: Vec3,
    right: Vec3,
    frametime: f32,
    msec: i32,
    walking: bool,
    ground_plane: bool,
    ground_trace: Option<Swept>,
    previous_velocity: Vec3,
    jumped: bool,
    outcome: &'a mut MoveOutcome,
}

impl<T: Tracer + ?Sized> Pmove<'_, T> {
    /// The box `PM_CheckDuck` set.
    fn player(&self) -> &PlayerBox {
        if self.flags & PMF_DUCKED != 0 {
            self.crouch
        } else {
            self.stand
        }
    }

    /// `pm->trace` with the current box.
    ///
    /// A trace asked again in a world that is one map alone gives the kept answer
    /// ([`Memo`]).
    fn trace(&mut self, start: Vec3, end: Vec3) -> Swept {
        let ducked = self.flags & PMF_DUCKED != 0;
        let key = self
            .trace_world
            .map(|world| memo::TraceKey::new(world, self.mask, ducked, start, end));
        let kept = key.as_ref().and_then(|k| self.memo.trace(k));
        let t = kept.unwrap_or_else(|| {
            let world = (self.world, self.scratch);
            if self.trace_world.is_some() {
                // A world that is one map and nothing else holds no bodies: `nearest`
                // would give the trace back (its first test), so it is not asked.
                let raw = trace::raw_trace(world, self.mask, self.player(), start, end);
                return Swept::of_raw(&raw, start, end);
            }
            let found = trace::box_trace(world, self.mask, self.player(), start, end);
            Swept::from(bodies::nearest(self.world, self.mask, self.player(), (start, end), found))
        });
        if let (Some(key), None) = (key, kept) {
            self.memo.keep_trace(key, t);
        }
        if t.fraction < 1.0 {
            self.outcome.touches.push(&t.touch());
        }
        t
    }

    /// The ground plane's normal (`pml.groundTrace.plane.normal`).
    fn ground_normal(&self) -> Vec3 {
        self.ground_trace.map_or(Vec3::ZERO, |t| t.normal)
    }

    /// `pml.groundTrace.surfaceFlags`.
    fn ground_surface(&self) -> SurfaceFlags {
        self.ground_trace.map_or(SurfaceFlags::EMPTY, |t| t.surface)
    }

    /// `PmoveSingle` from the command on.
    fn run(&mut self) {
        let view = self.cmd.view_angles();
        let key = view.map(f32::to_bits);
        let (forward, right) = match self.memo.view {
            Some((k, forward, right)) if k == key => (forward, right),
            _ => {
                let (forward, right, _up) = usercmd::angle_vectors(view);
                self.memo.view = Some((key, forward, right));
                (forward, right)
            }
        };
        self.forward = forward;
        self.right = right;
        if self.cmd.up < 10 {
            self.flags &= !PMF_JUMP_HELD;
        }
        self.set_water_level();
        self.check_duck();
        self.ground_trace();
        self.drop_timers();
        if self.flags & PMF_TIME_WATERJUMP != 0 {
            self.water_jump_move();
        } else if self.water_level > 1 {
            self.water_move();
        } else if self.walking {
            self.walk_move();
        } else {
            self.air_move();
        }
        self.ground_trace();
        self.set_water_level();
        // `trap_SnapVector`: to the nearest integer, ties to even (the FPU's default mode).
        let v = self.velocity;
        self.velocity = Vec3::new(
            v.x.round_ties_even(),
            v.y.round_ties_even(),
            v.z.round_ties_even(),
        );
    }
}

/// How far beyond the travel at the current speed and a step up or down a command's
/// sweeps may reach, in map units: the jump's and the acceleration's change of speed over
/// one command, the ground trace and the stuck jitter. Only sizes the gather: a sweep
/// beyond it walks the tree, with the same answer.
const GATHER_SLACK: f32 = 8.0;

/// The tick cache gathered near the player for this command's sweeps (the box it starts
/// with, Quake 3's stop distance), when the world names a map to gather from.
fn gather<'c, T: Tracer + ?Sized>(
    world: &T,
    cache: Option<&'c mut TickCache>,
    config: &ControllerConfig,
    state: &CharacterState,
    (stand, crouch): (&PlayerBox, &PlayerBox),
) -> Option<&'c TickCache> {
    let cache = cache?;
    let Some(map) = world.speed_facts().map else {
        cache.clear();
        return None;
    };
    let reach = state.velocity.abs() * config.tick
        + Vec3::new(0.0, 0.0, config.step_height)
        + Vec3::splat(GATHER_SLACK);
    let (a, b) = (stand.offset(), crouch.offset());
    let (low, high) = (state.position + a.min(b) - reach, state.position + a.max(b) + reach);
    // The box the command starts with only, as planeshift's own tick gathers its current
    // shape: the other box's sweeps (a duck or a stand this command) walk the tree, with
    // the same answers. Both boxes walked the trees twice per gather (measured on kaos:
    // the gather cost 6 % of a tick).
    let current = if state.profile.flags & PMF_DUCKED != 0 {
        crouch
    } else {
        stand
    };
    map.gather_near_stopping(
        &[current.shape()],
        (low, high),
        config.mask,
        crate::QUAKE3_STOP_DISTANCE,
        cache,
    );
    // The game's patches near the player too (kept with the gather while it serves).
    map.gather_game_patches(cache);
    Some(cache)
}

/// One Quake 3 command moving `state` through `world`, into `outcome` (reset), reusing
/// and refilling `memo`.
pub(super) fn step<T: Tracer + ?Sized>(
    config: &ControllerConfig,
    state: &mut CharacterState,
    (world, cache): (&T, Option<&mut TickCache>),
    memo: &mut Memo,
    input: &MoveInput,
    outcome: &mut MoveOutcome,
) {
    let n = Numbers::of(config);
    let half = config.shape.half_width();
    let stand_top = config.stand_height - config.feet_to_origin;
    let crouch_top = config.crouch_height - config.feet_to_origin;
    let key = [half, n.mins_z, stand_top, crouch_top].map(f32::to_bits);
    // The configuration was validated: both boxes are within planeshift's limits.
    let Some(boxes) = memo.take_boxes(key, || {
        let mins = Vec3::new(-half, -half, n.mins_z);
        Some((
            PlayerBox::new(mins, Vec3::new(half, half, stand_top))?,
            PlayerBox::new(mins, Vec3::new(half, half, crouch_top))?,
        ))
    }) else {
        return;
    };
    let (_, stand, crouch) = &*boxes;
    let msec = (config.tick * 1000.0).round().clamp(MIN_MSEC, MAX_MSEC) as i32;
    let scratch = gather(world, cache, config, state, (stand, crouch));
    let facts = world.speed_facts();
    let trace_world = facts
        .map
        .filter(|_| facts.moves_nothing && facts.map_is_fixed)
        .map(crate::CompiledMap::contents_id);
    let contents_map = facts.map.filter(|_| facts.contents_are_map);
    let contents_world = contents_map.map(crate::CompiledMap::contents_id);
    let dry = contents_map.is_some_and(|map| memo.is_dry(map));
    let mut pm = Pmove {
        world,
        scratch,
        memo,
        trace_world,
        contents_world,
        dry,
        mask: config.mask,
        n,
        stand,
        crouch,
        cmd: UserCmd::from_input(input),
        origin: state.position,
        velocity: state.velocity,
        flags: state.profile.flags,
        pm_time: state.profile.time_ms,
        on_ground: state.ground.state == GroundState::Walkable,
        water_level: 0,
        water_type: Contents::EMPTY,
        forward: Vec3::ZERO,
        right: Vec3::ZERO,
        // `pml.frametime = pml.msec * 0.001`: a double stored as float.
        frametime: (f64::from(msec) * 0.001) as f32,
        msec,
        walking: false,
        ground_plane: false,
        ground_trace: None,
        previous_velocity: state.velocity,
        jumped: false,
        outcome,
    };
    pm.run();
    let ground = match (pm.on_ground, pm.ground_plane, pm.ground_trace) {
        (on, true, Some(t)) => Ground {
            state: if on {
                GroundState::Walkable
            } else {
                GroundState::Steep
            },
            normal: Some(t.normal),
            plane: t.plane,
            target: t.target,
            surface: t.surface,
            material: t.material,
        },
        _ => Ground::AIR,
    };
    let (water_level, water_type, jumped) = (pm.water_level, pm.water_type, pm.jumped);
    let (origin, velocity, flags, time_ms) = (pm.origin, pm.velocity, pm.flags, pm.pm_time);
    memo.boxes = Some(boxes);
    state.position = origin;
    state.velocity = velocity;
    state.profile = ProfileState {
        flags,
        time_ms,
        ..state.profile
    };
    state.crouched = flags & PMF_DUCKED != 0;
    state.jump_held = flags & PMF_JUMP_HELD != 0;
    state.ground = ground;
    state.water_level = water_level;
    state.liquid = Contents(water_type.0 & Contents::MASK_LIQUID.0);
    outcome.water_level = water_level;
    outcome.liquid = state.liquid;
    outcome.jumped = jumped;
    outcome.activity = if water_level > 1 {
        Activity::Swim
    } else {
        Activity::Walk
    };
    outcome.ground_surface = ground.surface;
    outcome.ground_material = ground.material;
}
