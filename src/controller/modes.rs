//! The other modes: noclip, fly (spectator), frozen and dead (Quake 3 `bg_pmove.c`
//! `PM_NoclipMove`, `PM_FlyMove`, `PM_FREEZE`, `PM_DeadMove`), and switching between modes.
//!
//! Takes the controller and its input; gives the moved state. Guarantees: noclip never
//! traces (it passes through everything and is never `stuck`); fly collides and steps but
//! has no gravity; frozen changes nothing; a corpse slows by a fixed rate on the ground and
//! never steps up; entering a mode clears the ground, the wall memory, the ladder and the
//! timers.

use glam::Vec3;

use super::character::{CharacterController, accelerate};
use super::ground::Ground;
use super::tick::{MoveInput, MoveMode, MoveOutcome, WallContacts};
use super::tracer::Sweeps;

/// Noclip friction as a multiple of the ground friction (Quake 3 `PM_NoclipMove`'s
/// `pm_friction * 1.5`).
const NOCLIP_FRICTION_SCALE: f32 = 1.5;

/// Below this speed, units/s, noclip stops dead (Quake 3's `speed < 1`).
const NOCLIP_STOP_SPEED: f32 = 1.0;

impl CharacterController {
    /// The mode the game set.
    #[must_use]
    pub fn mode(&self) -> MoveMode {
        self.state.mode
    }

    /// Switches to `mode`. A change clears the ground, the wall memory, the ladder and the
    /// timers; the velocity is kept (frozen keeps it for when the character thaws). A corpse
    /// that comes back starts crouched and stands up at its next tick if there is room
    /// (the feet stay where the corpse lay).
    pub fn set_mode(&mut self, mode: MoveMode) {
        if mode == self.state.mode {
            return;
        }
        if self.state.mode == MoveMode::Dead {
            self.state.crouched = true;
        }
        self.state.mode = mode;
        self.state.ground = Ground::AIR;
        self.state.walls = WallContacts::default();
        self.state.ladder = None;
        self.state.hold_ticks = 0;
        self.state.water_jump_us = 0;
        self.state.land_timer = 0.0;
    }

    /// Quake 3 `PM_DeadMove`, on walkable ground: the speed drops by `dead_friction` this
    /// tick, to a stop.
    pub(crate) fn dead_move(&mut self) {
        let velocity = self.state.velocity;
        let speed = velocity.length();
        let slower = speed - self.config.dead_friction * self.config.tick;
        self.state.velocity = if slower <= 0.0 {
            Vec3::ZERO
        } else {
            velocity * (slower / speed)
        };
    }

    /// Quake 3 `PM_NoclipMove`: friction 1.5 × on the 3-D speed with the stop-speed floor,
    /// the 3-D wish at `max_speed` with `accelerate`, then `origin += v·dt` without a trace.
    pub(crate) fn noclip_move(&mut self, input: &MoveInput) {
        let dt = self.config.tick;
        let (stop_speed, friction) = (self.config.stop_speed, self.config.friction);
        let velocity = free_move(
            self.state.velocity,
            |speed| speed.max(stop_speed) * friction * NOCLIP_FRICTION_SCALE * dt,
            Self::wish_3d(input),
            (self.config.max_speed, self.config.accelerate * dt),
        );
        self.state.velocity = velocity;
        self.state.position += velocity * dt;
        self.state.ground = Ground::AIR;
        self.keep_jump_key(input.jump, false);
    }

    /// Quake 3 `PM_FlyMove` as a spectator: friction `fly_friction` × speed (no ground
    /// part), the 3-D wish at `fly_speed` with `fly_accelerate`, and a step-slide without
    /// gravity.
    pub(crate) fn fly_move<T: Sweeps + ?Sized>(
        &mut self,
        world: &T,
        input: &MoveInput,
        outcome: &mut MoveOutcome,
    ) {
        let dt = self.config.tick;
        let fly_friction = self.config.fly_friction;
        self.state.velocity = free_move(
            self.state.velocity,
            |speed| speed * fly_friction * dt,
            Self::wish_3d(input),
            (self.config.fly_speed, self.config.fly_accelerate * dt),
        );
        self.move_with(world, None, false, true, outcome);
    }
}

/// The velocity of a free (noclip or fly) move: friction on the 3-D speed, which drops by
/// `drop(speed)` this tick (stopping dead below [`NOCLIP_STOP_SPEED`]), then the 3-D `wish`
/// at `speed` with `accel_dt` (Quake 3 `PM_NoclipMove`, `PM_FlyMove`).
fn free_move(
    mut velocity: Vec3,
    drop: impl Fn(f32) -> f32,
    wish: Vec3,
    (speed, accel_dt): (f32, f32),
) -> Vec3 {
    let current = velocity.length();
    if current < NOCLIP_STOP_SPEED {
        velocity = Vec3::ZERO;
    } else {
        velocity *= (current - drop(current)).max(0.0) / current;
    }
    accelerate(
        velocity,
        wish.normalize_or_zero(),
        wish.length() * speed,
        accel_dt,
    )
}
