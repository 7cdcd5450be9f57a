//! The soak's hitscans: every [`SHOT_EVERY`] ticks each bot fires a point trace with
//! [`Contents::MASK_SHOT`] from its eye along its view through a [`Scene`] over the world
//! and the crowd's bodies, skipping itself, and the soak counts what the shots hit.
//!
//! Takes the compiled world, the crowd's [`Bodies`], the shooter's id, eye and view angles;
//! gives the [`ShotCounts`] (`"shots"`, `"shots_hit_world"`, `"shots_hit_character"` in the
//! soak's JSON). Guarantees: every shot is counted once, as a world hit (the world model or
//! a static model), a character hit or a miss, so `shots = hit_world + hit_character +
//! missed`; the view's direction comes from `MoveCommand::view_vectors` (the same bits on
//! every machine), so shots are deterministic as the soak is.

use glam::Vec3;
use planeshift::CompiledMap;
use planeshift::Contents;
use planeshift::HitTarget;
use planeshift::MoveCommand;
use planeshift::TraceShape;
use planeshift::movement::Bodies;
use planeshift::{QueryFilter, Scene};

/// Ticks between a bot's shots.
pub const SHOT_EVERY: usize = 10;

/// How far a shot reaches, in units: Quake 3's `MACHINEGUN` range (`8192 * 16`,
/// `g_weapon.c Bullet_Fire`), beyond any level, so a shot in a sealed level always ends
/// on something.
pub const SHOT_RANGE: f32 = 8192.0 * 16.0;

/// The largest pitch a bot aims at, up or down, in degrees.
pub const PITCH_SPREAD: f32 = 30.0;

/// What the shots hit, summed over the bots.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShotCounts {
    /// Shots fired.
    pub shots: usize,
    /// Shots stopped by the world model or a static model.
    pub hit_world: usize,
    /// Shots stopped by another character.
    pub hit_character: usize,
    /// Shots that reached [`SHOT_RANGE`] (a leak to the void, or an unsealed map).
    pub missed: usize,
}

/// Bot `shooter`, its eye at `eye`, fires along the view `pitch`, `yaw` (degrees, Quake's
/// convention) through the world and `bodies`; `counts` adds the shot.
pub fn fire(
    world: &CompiledMap,
    bodies: &Bodies,
    shooter: u32,
    eye: Vec3,
    (pitch, yaw): (f32, f32),
    counts: &mut ShotCounts,
) {
    let view = MoveCommand {
        pitch,
        yaw,
        ..MoveCommand::default()
    };
    let (forward, _, _) = view.view_vectors();
    let scene = Scene {
        map: world,
        movers: &[],
        bodies,
    };
    let filter = QueryFilter::new(Contents::MASK_SHOT).skip_character(shooter);
    let hit = scene.trace(
        &TraceShape::point(),
        eye,
        eye + forward * SHOT_RANGE,
        &filter,
    );
    counts.shots += 1;
    match hit.target {
        Some(HitTarget::Character(_)) => counts.hit_character += 1,
        Some(HitTarget::World | HitTarget::Model(_)) => counts.hit_world += 1,
        None => counts.missed += 1,
    }
}
