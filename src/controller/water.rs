//! Water: the water level, swimming, the water jump and currents (Quake 3 `bg_pmove.c`
//! `PM_SetWaterLevel`, `PM_WaterMove`, `PM_CheckWaterJump`, `PM_WaterJumpMove`; Quake 2
//! `pmove.c PM_AddCurrents`; Half-Life `pm_shared.c PM_CheckWater`).
//!
//! Takes the world's point contents and currents through the [`Tracer`](super::Tracer); gives the water
//! level (0 dry, 1 feet, 2 waist, 3 eyes) and liquid in the state, and the swim move.
//! Guarantees: slime and lava move exactly like water (Quake 3; damage is the game's); no
//! gravity at level 2 and above; an idle swimmer sinks at `sink_speed`; no allocation.

use glam::Vec3;

use super::character::{CharacterController, accelerate, at_most_unit};
use super::slide;
use super::tick::{MoveInput, MoveOutcome, microseconds};
use super::tracer::Sweeps;
use super::water_level::{FEET_SAMPLE, WaterMemo, bits, sample_water};
use crate::contents::Contents;

/// How far ahead of the shape's side the water jump looks for a wall, units: Quake 3 looks
/// 30 ahead of the origin of a 15-wide half box, so 15 past its face.
const WATER_JUMP_REACH: f32 = 15.0;

/// The water jump's wall sample sits this far above the origin (Quake 3's `spot[2] += 4`).
const WATER_JUMP_WALL_RISE: f32 = 4.0;

/// The opening must be free this far above the wall sample (Quake 3's `spot[2] += 16`).
const WATER_JUMP_OPENING: f32 = 16.0;

impl CharacterController {
    /// Samples the contents at the feet + 1, the waist and the eyes, stopping at the first
    /// dry one (Quake 3 `PM_SetWaterLevel`; the waist is half the eye height rounded down,
    /// as Quake 3's integer `sample1`). Quake 3 samples at the start and the end of every
    /// move; where the character has not moved since the last sample, in the same world
    /// ([`SpeedFacts::contents_are_map`](super::SpeedFacts::contents_are_map)), that sample is reused.
    pub(crate) fn set_water_level<T: Sweeps + ?Sized>(&mut self, world: &T) {
        let eye = self.eye_height();
        let feet = self.state.position - Vec3::Z * self.config.feet_to_origin;
        let id = world.contents_id();
        let memo = self
            .memo
            .water_memo
            .filter(|m| id == Some(m.world) && m.eye == eye && bits(m.feet) == bits(feet));
        let sample = memo.unwrap_or_else(|| sample_water(world, feet, eye));
        self.state.water_level = sample.level;
        self.state.liquid = sample.liquid;
        self.state.contents = sample.contents;
        self.memo.water_memo = id.map(|world| WaterMemo {
            world,
            feet,
            eye,
            ..sample
        });
    }

    /// The vertical wish in water and flight: the wish's z plus jump (up) and crouch (down),
    /// Quake 3's `upmove`; the whole wish at most 1 long.
    pub(crate) fn wish_3d(input: &MoveInput) -> Vec3 {
        let up = input.wish.z + f32::from(u8::from(input.jump)) - f32::from(u8::from(input.crouch));
        at_most_unit(Vec3::new(input.wish.x, input.wish.y, up.clamp(-1.0, 1.0)))
    }

    /// Quake 3 `PM_WaterMove` at water level 2 or 3: the water jump, friction, the swim
    /// wish (sinking when idle) with the current, and a slide without gravity or steps.
    pub(crate) fn swim_move<T: Sweeps + ?Sized>(
        &mut self,
        world: &T,
        input: &MoveInput,
        outcome: &mut MoveOutcome,
    ) {
        if self.check_water_jump(world, input) {
            outcome.water_jumped = true;
            self.water_jump_move(world, outcome);
            return;
        }
        let dt = self.config.tick;
        let mut velocity = self.friction(self.state.velocity, 0.0);
        let wish = Self::wish_3d(input);
        let mut wish_velocity = if wish == Vec3::ZERO {
            Vec3::NEG_Z * self.config.sink_speed
        } else {
            wish * self.config.max_speed
        };
        let feet = self.state.position - Vec3::Z * self.config.feet_to_origin;
        let current = world.current(feet + Vec3::Z * FEET_SAMPLE);
        wish_velocity += current * self.config.current_speed;
        let wish_speed = wish_velocity
            .length()
            .min(self.config.max_speed * self.config.swim_scale);
        velocity = accelerate(
            velocity,
            wish_velocity.normalize_or_zero(),
            wish_speed,
            self.config.water_accelerate * dt,
        );
        // Up slopes easily under water: a velocity into the ground turns along it, keeping
        // its speed.
        if let Some(n) = self.state.ground.normal
            && velocity.dot(n) < 0.0
        {
            let speed = velocity.length();
            velocity = slide::clip_velocity(velocity, n).normalize_or_zero() * speed;
        }
        self.move_pushed(world, velocity, current, outcome);
    }

    /// Moves with `velocity` plus the Half-Life current push (`current_push` per water
    /// level along `current`), keeping the push out of the stored velocity.
    fn move_pushed<T: Sweeps + ?Sized>(
        &mut self,
        world: &T,
        velocity: Vec3,
        current: Vec3,
        outcome: &mut MoveOutcome,
    ) {
        let push = current * (self.config.current_push * f32::from(self.state.water_level));
        self.state.velocity = velocity + push;
        self.move_with(world, None, false, false, outcome);
        self.state.velocity -= push;
    }

    /// Quake 3 `PM_CheckWaterJump`: at water level 2, facing a wall (solid 15 past the
    /// shape's side, 4 above the origin) with nothing at all 16 higher, jump out: the
    /// forward speed along the facing, `water_jump_speed` up, and no control until falling,
    /// on ground, or `water_jump_time` has passed.
    fn check_water_jump<T: Sweeps + ?Sized>(&mut self, world: &T, input: &MoveInput) -> bool {
        if self.state.water_level != 2 || self.state.water_jump_us > 0 {
            return false;
        }
        let Some(facing) = input.wish.truncate().try_normalize() else {
            return false;
        };
        let facing = facing.extend(0.0);
        let reach = self.config.shape.half_width() + WATER_JUMP_REACH;
        let wall = self.state.position + facing * reach + Vec3::Z * WATER_JUMP_WALL_RISE;
        if !world.contents(wall).contains(Contents::SOLID) {
            return false;
        }
        if !world
            .contents(wall + Vec3::Z * WATER_JUMP_OPENING)
            .is_empty()
        {
            return false;
        }
        self.state.velocity = facing * self.config.water_jump_forward;
        self.state.velocity.z = self.config.water_jump_speed;
        self.state.water_jump_us = microseconds(self.config.water_jump_time).max(1);
        true
    }

    /// Quake 3 `PM_WaterJumpMove`: no control; a step-slide with gravity, then gravity once
    /// more (Quake 3 applies it twice). While the timer runs the slide keeps the velocity it
    /// started with, so the wall does not cancel the forward speed; the jump ends once
    /// falling.
    pub(crate) fn water_jump_move<T: Sweeps + ?Sized>(
        &mut self,
        world: &T,
        outcome: &mut MoveOutcome,
    ) {
        let drop = self.config.gravity * self.config.tick;
        let mut before = self.state.velocity;
        self.state.velocity.z -= 0.5 * drop;
        self.move_with(world, None, false, true, outcome);
        before.z -= drop;
        self.state.velocity = before;
        self.state.velocity.z -= drop;
        self.state.ground = self.find_ground(world, None);
        if self.state.velocity.z < 0.0 || self.state.ground.is_walkable() {
            self.state.water_jump_us = 0;
        }
    }
}
