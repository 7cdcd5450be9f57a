//! The character controller: scenarios 1–45 (each test named `sNN_...` after its scenario), in Quake units, on
//! the hand-made maps in `maps/` (coordinates in `maps/README.md`) and on small inline maps.
//! Defaults are Quake 3's: a 30 × 30 × 56 box with its origin 24 above the feet, step 18,
//! gravity 800, run speed 320, an 8 ms tick; the stop distance (skin) is 1/32.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use glam::Vec3;
use planeshift::CompiledMap;
use planeshift::tolerance::SURFACE_CLIP_EPSILON;
use planeshift::{
    CharacterController, ControllerConfig, MoveInput, MoveOutcome,
    movement::{GroundState, Tracer},
};

/// Commands from the view and the eye.
mod command;
/// Crouching and standing up.
mod crouch;
/// Characters against characters (scenarios 74–78).
mod crowd;
/// Arrivals onto others: piles separated in one tick, telefrags.
mod crowd_arrival;
/// The parallel crowd step against the sequential one, bit for bit.
#[cfg(feature = "parallel")]
mod crowd_parallel;
/// Movers that crush and push (scenarios 79 and 80).
mod crushing;
/// Determinism, events and ground reports.
mod determinism;
/// Quake 3's own patch collision as a query option.
mod game_patches;
/// Jump, gravity, friction and acceleration.
mod jump;
/// Masks and collision groups in movement (monster clip, teams, spectators, corpses).
mod masks;
/// Ladders, surfaces, modes, impulses and air tech (scenarios 55–73).
mod modes;
/// A game's own world behind the seam: a few boxes, no map.
mod own_world;
/// Moving platforms, pushers and the configuration file.
mod platforms;
/// Prediction and replay: serialized state, snapping, timers (scenarios 81–84).
mod prediction;
/// Unstuck and the fuzz invariant.
mod recovery;
/// The movement profiles against the games' own recorded runs (issue 37).
mod reference_moves;
/// Issue 37's four numbers per level: each game against its profile and planeshift's own.
mod reference_numbers;
/// The replay contract of the `fps_movement` example.
pub(crate) mod replay;
/// The replay contract's commands from the view, and its refusals of bad lines.
mod replay_commands;
/// Slopes.
mod slopes;
/// The soak contract of the `fps_movement` example, its deaths in `trigger_hurt` volumes.
pub(crate) mod soak;
/// The profiles' full-size soak residuals, each cause on its spot.
mod soak_profiles;
/// Stairs and steps.
mod stairs;
/// The tick cache: cached ticks equal walked ticks to the bit (issue 18).
mod tick_cache;
/// Triggers touched, entered and left, and Quake 3's teleporters and pads (85–88).
mod trigger_events;
/// Tunnelling at speed and along degenerate directions.
mod tunnelling;
/// Walls, creases, corners, seams.
mod walls;
/// Water, liquids and currents (scenarios 46–54).
mod water;

// The `fps_movement` example's trigger rules (teleporters, jump pads, hurt volumes), shared
// by the soak and the trigger tests.
use planeshift_harness::game as fps_game;

/// The stop distance every sweep keeps from what it hits.
pub const SKIN: f32 = SURFACE_CLIP_EPSILON;

/// A bundled map from `maps/`, compiled once per test run.
pub fn world(name: &str) -> &'static CompiledMap {
    static CACHE: OnceLock<Mutex<HashMap<String, &'static CompiledMap>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut cache = cache.lock().unwrap();
    cache.entry(name.to_string()).or_insert_with(|| {
        let path = format!("{}/maps/{name}.map", env!("CARGO_MANIFEST_DIR"));
        let bytes = std::fs::read(&path).unwrap();
        Box::leak(Box::new(crate::support::compile(&bytes).map))
    })
}

/// A world of axis-aligned solid boxes `(mins, maxs)`.
pub fn boxes(list: &[([f64; 3], [f64; 3])]) -> CompiledMap {
    let with_texture: Vec<_> = list.iter().map(|(a, b)| (*a, *b, "wall")).collect();
    crate::support::compile(crate::support::box_map(&with_texture).as_bytes()).map
}

/// A closed square room centred on the origin: its floor's top at z 0, its walls from
/// `inner` to `outer` either side of the centre on both axes, its ceiling `height` above
/// the floor, every slab 16 thick below and above.
pub fn square_room(inner: f64, outer: f64, height: f64) -> CompiledMap {
    boxes(&[
        ([-outer, -outer, -16.0], [outer, outer, 0.0]),
        ([-outer, -outer, 0.0], [-inner, outer, height]),
        ([inner, -outer, 0.0], [outer, outer, height]),
        ([-inner, -outer, 0.0], [inner, -inner, height]),
        ([-inner, inner, 0.0], [inner, outer, height]),
        ([-outer, -outer, height], [outer, outer, height + 16.0]),
    ])
}

/// `count` default characters (ids from 0) created on box_room.map's one start, in a
/// crowd of the default configuration, after its first tick; with the room's world.
pub fn box_room_pile(count: u32) -> (planeshift::Crowd, &'static CompiledMap) {
    let map = world("box_room");
    let mut crowd = planeshift::Crowd::new(planeshift::CrowdConfig::default());
    if let Some(spawn) = map.player_spawns().next() {
        for id in 0..count {
            if let Ok(c) = CharacterController::new(ControllerConfig::default(), spawn) {
                crowd.insert(id, c);
            }
        }
    }
    crowd.step(map, |_| MoveInput::default());
    (crowd, map)
}

/// A character with the given configuration whose feet rest on `feet` (one skin above).
pub fn standing(config: ControllerConfig, feet: Vec3) -> CharacterController {
    let origin = feet + Vec3::Z * (config.feet_to_origin + SKIN);
    CharacterController::new(config, origin).unwrap()
}

/// A Quake 3 character whose feet rest on `feet`.
pub fn player(feet: Vec3) -> CharacterController {
    standing(ControllerConfig::default(), feet)
}

/// Where the feet are.
pub fn feet(c: &CharacterController) -> Vec3 {
    c.position() - Vec3::Z * c.config().feet_to_origin
}

/// Gives the character a velocity (as if it had been running).
pub fn launch(c: &mut CharacterController, velocity: Vec3) {
    let mut state = c.state().clone();
    state.velocity = velocity;
    assert!(c.set_state(state));
}

/// Input that runs towards `direction` (normalized, horizontal).
pub fn run(direction: Vec3) -> MoveInput {
    MoveInput {
        wish: direction.normalize(),
        ..MoveInput::default()
    }
}

/// The same direction from a heading in degrees (0 = +x, 90 = +y).
pub fn heading(degrees: f32) -> Vec3 {
    let r = degrees.to_radians();
    Vec3::new(r.cos(), r.sin(), 0.0)
}

/// Seeded random inputs, each held for a while as a player would: running, walking or
/// standing in a random heading, jumping one time in four, crouching one time in
/// `crouch_one_in`; each held `hold.0` ticks plus up to `hold.1` more.
pub fn held_inputs(
    seed: u64,
    ticks: usize,
    crouch_one_in: usize,
    hold: (usize, usize),
) -> Vec<MoveInput> {
    let mut rng = crate::support::Pcg32::new(seed);
    let mut out = Vec::with_capacity(ticks);
    while out.len() < ticks {
        let angle = rng.range_f64(0.0, 360.0) as f32;
        let input = MoveInput {
            wish: heading(angle) * (rng.below(3) as f32 / 2.0),
            jump: rng.below(4) == 0,
            crouch: rng.below(crouch_one_in) == 0,
            command: None,
        };
        let held = hold.0 + rng.below(hold.1);
        out.extend(std::iter::repeat_n(input, held));
    }
    out.truncate(ticks);
    out
}

/// What a tick left behind.
#[derive(Clone, Debug)]
pub struct Tick {
    pub position: Vec3,
    pub velocity: Vec3,
    pub ground: GroundState,
    pub outcome: MoveOutcome,
}

impl Tick {
    pub fn feet(&self, config: &ControllerConfig) -> Vec3 {
        self.position - Vec3::Z * config.feet_to_origin
    }

    pub fn horizontal_speed(&self) -> f32 {
        self.velocity.truncate().length()
    }
}

/// Runs `ticks` ticks with the same input; asserts after each that the shape is free.
pub fn steps(
    c: &mut CharacterController,
    world: &(impl Tracer + ?Sized),
    input: MoveInput,
    ticks: usize,
) -> Vec<Tick> {
    (0..ticks)
        .map(|i| {
            let outcome = c.step(world, &input);
            assert!(
                !c.overlaps(world),
                "tick {i} ends inside solid at {}",
                c.position()
            );
            Tick {
                position: c.position(),
                velocity: c.velocity(),
                ground: c.ground().state,
                outcome,
            }
        })
        .collect()
}

/// Idles until grounded (at most 2 s) and returns the ticks used.
pub fn settle(c: &mut CharacterController, world: &(impl Tracer + ?Sized)) -> usize {
    for i in 0..250 {
        c.step(world, &MoveInput::default());
        if c.ground().state == GroundState::Walkable && c.velocity().length() < 1e-3 {
            return i;
        }
    }
    panic!("never settled at {}", c.position());
}

/// Population variance of the positions (sum over the three axes).
pub fn variance(points: &[Vec3]) -> f32 {
    let n = points.len() as f32;
    let mean = points.iter().copied().sum::<Vec3>() / n;
    points
        .iter()
        .map(|p| (*p - mean).length_squared())
        .sum::<f32>()
        / n
}
