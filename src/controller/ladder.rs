//! Ladders: attaching to a ladder and climbing it, by one of two rules
//! ([`LadderRule`]): Source's (`gamemovement.cpp LadderMove`, `OnLadder`; Half-Life
//! `pm_shared.c PM_Ladder`) or Quake 2's (`pmove.c PM_CheckSpecialMovement`,
//! `PM_AddCurrents`, `PM_AirMove`).
//!
//! Takes the world's sweeps (a ladder face: contents [`Contents::LADDER`] or surface flag
//! [`SurfaceFlags::LADDER`] on what a short probe hits) and point contents (a ladder volume:
//! Half-Life `func_ladder`, Quake 2 ladder brushes, a custom game's ladder class); gives the
//! climb. Guarantees: the ladder is probed every tick, so the climber steps off at the top
//! (the probe misses) and at the bottom. Source: the velocity is set from the wish, no
//! gravity, friction or steps. Quake 2: the wish is accelerated against ground friction on
//! the 3-D speed, steps are taken, and without a vertical wish the vertical speed is pulled
//! to 0 by gravity's rate.

use glam::Vec3;

use super::character::{CharacterController, accelerate};
use super::config::LadderRule;
use super::tick::{MoveInput, MoveOutcome};
use super::tracer::Sweeps;
use crate::contents::Contents;
use crate::surface::SurfaceFlags;
use crate::tolerance::MIN_MOVE_SPEED;

/// How far the attach probe sweeps toward the ladder, units (Source `LadderDistance` 2).
const LADDER_PROBE: f32 = 2.0;

/// How far Quake 2's probe sweeps along the facing, units (`PM_CheckSpecialMovement`: 1).
const QUAKE2_LADDER_PROBE: f32 = 1.0;

/// Quake 2 climbs up (down) when the view pitches at least 15° up (down) with forward held
/// (`PM_AddCurrents`): the sine of 15°, against the wish's rise over its length.
const QUAKE2_LADDER_PITCH_SINE: f32 = 0.258_819;

/// Quake 2 limits each horizontal axis of the wish on a ladder to ±25 units/s
/// (`PM_AddCurrents`).
const QUAKE2_LADDER_SIDE_SPEED: f32 = 25.0;

impl CharacterController {
    /// Climbs a ladder if the character is on one this tick, by the configured rule;
    /// returns whether it was (the move is done).
    pub(crate) fn ladder_move<T: Sweeps + ?Sized>(
        &mut self,
        world: &T,
        input: &MoveInput,
        outcome: &mut MoveOutcome,
    ) -> bool {
        if self.state.water_level >= 2 || !world.may_have_ladders() {
            // Swimming, or nothing to find: the probe and the volume test would both miss.
            self.state.ladder = None;
            return false;
        }
        let (reach, toward) = match self.config.ladder_rule {
            // Source: along the stored normal, else along the wish (input needed).
            LadderRule::Source => (
                LADDER_PROBE,
                self.state.ladder.map(|n| -n).or_else(|| flat(input.wish)),
            ),
            // Quake 2: along the facing; a climber without input keeps facing the ladder.
            LadderRule::Quake2 => (
                QUAKE2_LADDER_PROBE,
                flat(input.wish).or_else(|| self.state.ladder.map(|n| -n)),
            ),
        };
        let Some(toward) = toward else {
            self.state.ladder = None;
            return false;
        };
        let Some(n) = self.find_ladder(world, toward, reach) else {
            self.state.ladder = None;
            return false;
        };
        self.state.ladder = Some(n);
        match self.config.ladder_rule {
            LadderRule::Source => self.source_climb(input, n, outcome),
            LadderRule::Quake2 => self.quake2_climb(input),
        }
        let steps = self.config.ladder_rule == LadderRule::Quake2;
        self.move_with(world, None, false, steps, outcome);
        self.state.ground = self.find_ground(world, None);
        true
    }

    /// The ladder's unit normal (horizontal, facing the character) if a probe of `reach`
    /// along `toward` hits a ladder face, or the shape's centre is in a ladder volume.
    fn find_ladder<T: Sweeps + ?Sized>(&self, world: &T, toward: Vec3, reach: f32) -> Option<Vec3> {
        let view = self.view(world);
        let from = self.state.position;
        let probe = view.trace(self.current_shape(), from, from + toward * reach);
        let face = probe.hit()
            && !probe.all_solid
            && (probe.contents.contains(Contents::LADDER)
                || probe.surface.contains(SurfaceFlags::LADDER));
        let normal = if face {
            probe.normal
        } else if world
            .contents(self.shape_center())
            .contains(Contents::LADDER)
        {
            // Inside a ladder volume (Half-Life): face it along the probe's way.
            Some(self.state.ladder.unwrap_or(-toward))
        } else {
            None
        };
        normal.and_then(flat)
    }

    /// Source `LadderMove` on ladder `n`: jump off along the normal, or climb: the wish
    /// (with its z) at `ladder_speed`, its part into the ladder turned into up.
    fn source_climb(&mut self, input: &MoveInput, n: Vec3, outcome: &mut MoveOutcome) {
        if input.jump && !self.state.jump_held {
            // Jump off, away from the ladder.
            self.state.velocity = n * self.config.ladder_jump_speed;
            self.state.ladder = None;
            outcome.jumped = true;
            return;
        }
        let wish = input.wish * self.config.ladder_speed;
        let into = wish.dot(n);
        let lateral = wish - n * into;
        let up_the_ladder = n.cross(Vec3::Z.cross(n).normalize_or_zero());
        let mut velocity = lateral - up_the_ladder * into;
        if into > 0.0 && self.state.ground.is_walkable() {
            // Walking away from a ladder at its foot.
            velocity += n * self.config.ladder_speed;
        }
        self.state.velocity = velocity;
    }

    /// Quake 2 on a ladder: ground friction on the 3-D speed (`PM_Friction`, no water
    /// friction), the wish's horizontal part limited to ±25 per axis and a vertical wish of
    /// ±`ladder_speed` from the pitch (the wish's rise, 15° or more) or from jump and
    /// crouch (`PM_AddCurrents`, while the vertical speed is at most `ladder_speed`), the
    /// ground acceleration, and without a vertical wish the vertical speed pulled to 0 at
    /// gravity's rate (`PM_AirMove`).
    fn quake2_climb(&mut self, input: &MoveInput) {
        let dt = self.config.tick;
        let mut velocity = self.state.velocity;
        let speed = velocity.length();
        if speed < MIN_MOVE_SPEED {
            velocity.x = 0.0;
            velocity.y = 0.0;
        } else {
            let drop = speed.max(self.config.stop_speed) * self.config.friction * dt;
            velocity *= (speed - drop).max(0.0) / speed;
        }
        let mut wish = input.wish.with_z(0.0) * self.config.max_speed;
        let climb = self.config.ladder_speed;
        if velocity.z.abs() <= climb {
            let rise = input.wish.z;
            let pitch = QUAKE2_LADDER_PITCH_SINE * input.wish.length();
            wish.z = if input.wish != Vec3::ZERO && rise >= pitch {
                climb
            } else if input.wish != Vec3::ZERO && rise <= -pitch {
                -climb
            } else if input.jump {
                climb
            } else if input.crouch {
                -climb
            } else {
                0.0
            };
            let side = QUAKE2_LADDER_SIDE_SPEED;
            wish.x = wish.x.clamp(-side, side);
            wish.y = wish.y.clamp(-side, side);
        }
        let max_speed = if self.state.crouched {
            self.config.max_speed * self.config.crouch_speed_scale
        } else {
            self.config.max_speed
        };
        let wish_speed = wish.length().min(max_speed);
        velocity = accelerate(
            velocity,
            wish.normalize_or_zero(),
            wish_speed,
            self.config.accelerate * dt,
        );
        if wish.z == 0.0 {
            let pull = self.config.gravity * dt;
            velocity.z = if velocity.z > 0.0 {
                (velocity.z - pull).max(0.0)
            } else {
                (velocity.z + pull).min(0.0)
            };
        }
        self.state.velocity = velocity;
    }
}

/// The horizontal direction of `v`, if it has one.
fn flat(v: Vec3) -> Option<Vec3> {
    v.truncate().try_normalize().map(|d| d.extend(0.0))
}
