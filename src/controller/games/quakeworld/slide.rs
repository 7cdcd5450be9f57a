//! QuakeWorld's sliding moves (`pmove.c PM_ClipVelocity`, `PM_FlyMove`, `PM_GroundMove`):
//! the player swept through hull 1, sliding along up to five planes, and on the ground
//! the better of sliding flat and stepping up [`STEP_SIZE`].
//!
//! Takes a [`PlayerMove`] in progress; moves its origin and velocity. Guarantees: the
//! game's order of float operations (`vec.rs`), its stops (a start in solid stops dead, a
//! velocity against its first is zeroed) and its quirks (the original velocity is the
//! command's, not re-read after each bump; a water jump keeps its velocity).

use glam::Vec3;

use super::movevars::{FLOOR_NORMAL_Z, STEP_SIZE};
use super::player_move::PlayerMove;
use crate::controller::Tracer;
use super::vec::{cross, dot, ma, scale};

/// `STOP_EPSILON`: a clipped velocity component smaller than this (units a second) is
/// zeroed, so the player does not creep into a plane.
const STOP_EPSILON: f32 = 0.1;
/// `MAX_CLIP_PLANES`: the planes one fly move slides along.
const MAX_CLIP_PLANES: usize = 5;
/// `PM_FlyMove`'s bumps.
const BUMPS: usize = 4;
/// `PM_ClipVelocity`: `v` with its part along `normal` (times `overbounce`) removed, each
/// component within ±[`STOP_EPSILON`] zeroed.
pub(super) fn clip_velocity(v: Vec3, normal: Vec3, overbounce: f32) -> Vec3 {
    let backoff = dot(v, normal) * overbounce;
    let clip = |i: f32, n: f32| {
        let out = i - n * backoff;
        if out > -STOP_EPSILON && out < STOP_EPSILON {
            0.0
        } else {
            out
        }
    };
    Vec3::new(
        clip(v.x, normal.x),
        clip(v.y, normal.y),
        clip(v.z, normal.z),
    )
}

impl<T: Tracer + ?Sized> PlayerMove<'_, T> {
    /// `PM_FlyMove`: up to [`BUMPS`] sweeps over the command's time, sliding along each
    /// plane met.
    pub(super) fn fly_move(&mut self) {
        let original = self.velocity;
        let primal = self.velocity;
        let mut planes = [Vec3::ZERO; MAX_CLIP_PLANES];
        let mut count = 0usize;
        let mut time_left = self.frametime;
        for _ in 0..BUMPS {
            let end = ma(self.origin, time_left, self.velocity);
            let trace = self.level.player_move(self.origin, end);
            if trace.start_solid || trace.all_solid {
                // Trapped in solid.
                self.velocity = Vec3::ZERO;
                return;
            }
            if trace.fraction > 0.0 {
                self.origin = trace.end;
                count = 0;
            }
            if trace.fraction == 1.0 {
                break;
            }
            time_left -= time_left * trace.fraction;
            if count >= MAX_CLIP_PLANES {
                self.velocity = Vec3::ZERO;
                break;
            }
            planes[count] = trace.normal;
            count += 1;
            // The first plane whose clip leaves the velocity off every other plane.
            let mut along = count;
            for (i, plane) in planes[..count].iter().enumerate() {
                self.velocity = clip_velocity(original, *plane, 1.0);
                let clear = planes[..count]
                    .iter()
                    .enumerate()
                    .all(|(j, other)| j == i || dot(self.velocity, *other) >= 0.0);
                if clear {
                    along = i;
                    break;
                }
            }
            if along == count {
                // Along the crease of two planes, or stop.
                if count != 2 {
                    self.velocity = Vec3::ZERO;
                    break;
                }
                let dir = cross(planes[0], planes[1]);
                let d = dot(dir, self.velocity);
                self.velocity = scale(dir, d);
            }
            // Turned against the command's velocity: stop dead (no oscillation in corners).
            if dot(self.velocity, primal) <= 0.0 {
                self.velocity = Vec3::ZERO;
                break;
            }
        }
        if self.water_jump_time != 0.0 {
            self.velocity = primal;
        }
    }

    /// `PM_GroundMove`: flat along the ground; when blocked, the farther of a slide and a
    /// step up [`STEP_SIZE`], slide and press down.
    pub(super) fn ground_move(&mut self) {
        self.velocity.z = 0.0;
        if self.velocity.x == 0.0 && self.velocity.y == 0.0 && self.velocity.z == 0.0 {
            return;
        }
        let dest = Vec3::new(
            self.origin.x + self.velocity.x * self.frametime,
            self.origin.y + self.velocity.y * self.frametime,
            self.origin.z,
        );
        let trace = self.level.player_move(self.origin, dest);
        if trace.fraction == 1.0 {
            self.origin = trace.end;
            return;
        }
        let original = self.origin;
        let original_velocity = self.velocity;
        // Slide along the ground.
        self.fly_move();
        let down = self.origin;
        let down_velocity = self.velocity;
        self.origin = original;
        self.velocity = original_velocity;
        // Up a stair's height, slide, and press down.
        let up_dest = self.origin + Vec3::new(0.0, 0.0, STEP_SIZE);
        let trace = self.level.player_move(self.origin, up_dest);
        if !trace.start_solid && !trace.all_solid {
            self.origin = trace.end;
        }
        self.fly_move();
        let mut press = self.origin;
        press.z -= STEP_SIZE;
        let trace = self.level.player_move(self.origin, press);
        if trace.normal.z < FLOOR_NORMAL_Z {
            self.origin = down;
            self.velocity = down_velocity;
            return;
        }
        if !trace.start_solid && !trace.all_solid {
            self.origin = trace.end;
        }
        let up = self.origin;
        let flat = |p: Vec3| (p.x - original.x) * (p.x - original.x) + (p.y - original.y) * (p.y - original.y);
        if flat(down) > flat(up) {
            self.origin = down;
            self.velocity = down_velocity;
        } else {
            // The step's height, the slide's vertical speed.
            self.velocity.z = down_velocity.z;
        }
    }
}
