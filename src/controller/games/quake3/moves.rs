//! Quake 3's moves: `PM_WalkMove`, `PM_AirMove`, `PM_WaterMove`, `PM_WaterJumpMove`, and
//! what they share: `PM_Friction`, `PM_Accelerate`, `PM_CmdScale`, `PM_CheckJump`,
//! `PM_CheckWaterJump`.
//!
//! Takes the command's [`Pmove`] after the ground trace; gives its velocity and, through
//! `slide`, its origin. Guarantees: the game's f32 operations in its order; where the game
//! computes in double (`PM_CmdScale`'s `sqrt` and division, the wading scale) so does this.
//! The quirks stay: the jump that needs the key released (`PMF_JUMP_HELD`, whose held key
//! also stops counting in the walking scale), air control scaled by `PM_CmdScale` with the
//! up move in it, no friction or ground acceleration while `PMF_TIME_KNOCKBACK` holds.

use glam::Vec3;

use super::vector::{OVERCLIP, clip_velocity, dot, length, normalize};
use super::{PMF_DUCKED, PMF_JUMP_HELD, PMF_TIME_KNOCKBACK, PMF_TIME_WATERJUMP, Pmove};
use crate::contents::Contents;
use crate::controller::tracer::Tracer;
use crate::surface::SurfaceFlags;

/// `PM_CheckJump`: an up move below this is not the jump key.
const JUMP_UPMOVE: i32 = 10;

/// `PM_CheckWaterJump`: how far ahead and how high the ledge is probed, units.
const WATER_JUMP_REACH: f32 = 30.0;
const WATER_JUMP_LOW: f32 = 4.0;
const WATER_JUMP_HIGH: f32 = 16.0;

impl<T: Tracer + ?Sized> Pmove<'_, T> {
    /// `PM_CmdScale`: `speed · max(|f|, |r|, |u|) / (127 · √(f² + r² + u²))`, the root and
    /// the division in double as the game's `127.0` makes them.
    fn cmd_scale(&self) -> f32 {
        let (f, r, u) = (self.cmd.forward, self.cmd.right, self.cmd.up);
        let max = f.abs().max(r.abs()).max(u.abs());
        if max == 0 {
            return 0.0;
        }
        let total = f64::from(f * f + r * r + u * u).sqrt();
        (f64::from(self.n.speed * max as f32) / (127.0 * total)) as f32
    }

    /// Whether the ground under the feet is slick or the knockback timer runs.
    fn slick_or_knocked(&self) -> bool {
        self.ground_surface().contains(SurfaceFlags::SLICK) || self.flags & PMF_TIME_KNOCKBACK != 0
    }

    /// `PM_Friction`: ground friction (walking, at most wading, not slick, no knockback) and
    /// water friction by the water level.
    fn friction(&mut self) {
        let mut vec = self.velocity;
        if self.walking {
            vec.z = 0.0;
        }
        let speed = length(vec);
        if speed < 1.0 {
            self.velocity.x = 0.0;
            self.velocity.y = 0.0;
            return;
        }
        let mut drop = 0.0f32;
        if self.water_level <= 1
            && self.walking
            && !self.ground_surface().contains(SurfaceFlags::SLICK)
            && self.flags & PMF_TIME_KNOCKBACK == 0
        {
            let control = if speed < self.n.stop_speed {
                self.n.stop_speed
            } else {
                speed
            };
            drop += control * self.n.friction * self.frametime;
        }
        if self.water_level != 0 {
            drop += speed * self.n.water_friction * f32::from(self.water_level) * self.frametime;
        }
        let mut new_speed = speed - drop;
        if new_speed < 0.0 {
            new_speed = 0.0;
        }
        new_speed /= speed;
        self.velocity *= new_speed;
    }

    /// `PM_Accelerate` (Quake 2's way): add up to `accel · frametime · wishspeed` along
    /// `wishdir`, no more than brings the speed along it to `wishspeed`.
    fn accelerate(&mut self, wishdir: Vec3, wishspeed: f32, accel: f32) {
        let current = dot(self.velocity, wishdir);
        let add = wishspeed - current;
        if add <= 0.0 {
            return;
        }
        let mut accel_speed = accel * self.frametime * wishspeed;
        if accel_speed > add {
            accel_speed = add;
        }
        self.velocity.x += accel_speed * wishdir.x;
        self.velocity.y += accel_speed * wishdir.y;
        self.velocity.z += accel_speed * wishdir.z;
    }

    /// `PM_CheckJump`: the jump key, released since the last jump, jumps.
    fn check_jump(&mut self) -> bool {
        if self.cmd.up < JUMP_UPMOVE {
            return false;
        }
        if self.flags & PMF_JUMP_HELD != 0 {
            // "clear upmove so cmdscale doesn't lower running speed"
            self.cmd.up = 0;
            return false;
        }
        self.ground_plane = false;
        self.walking = false;
        self.flags |= PMF_JUMP_HELD;
        self.on_ground = false;
        self.velocity.z = self.n.jump_velocity;
        self.jumped = true;
        true
    }

    /// `PM_WalkMove`.
    pub(super) fn walk_move(&mut self) {
        let normal = self.ground_normal();
        if self.water_level > 2 && dot(self.forward, normal) > 0.0 {
            return self.water_move();
        }
        if self.check_jump() {
            return if self.water_level > 1 {
                self.water_move()
            } else {
                self.air_move()
            };
        }
        self.friction();
        let (fmove, smove) = (self.cmd.forward as f32, self.cmd.right as f32);
        let scale = self.cmd_scale();
        let mut forward = self.forward;
        let mut right = self.right;
        forward.z = 0.0;
        right.z = 0.0;
        forward = clip_velocity(forward, normal, OVERCLIP);
        right = clip_velocity(right, normal, OVERCLIP);
        self.forward = normalize(forward).0;
        self.right = normalize(right).0;
        let (forward, right) = (self.forward, self.right);
        let wishvel = Vec3::new(
            forward.x * fmove + right.x * smove,
            forward.y * fmove + right.y * smove,
            forward.z * fmove + right.z * smove,
        );
        let (wishdir, wishspeed) = normalize(wishvel);
        let mut wishspeed = wishspeed * scale;
        if self.flags & PMF_DUCKED != 0 && wishspeed > self.n.speed * self.n.duck_scale {
            wishspeed = self.n.speed * self.n.duck_scale;
        }
        if self.water_level != 0 {
            // Double, as the game's `/ 3.0` and `1.0 −` make it, stored as float.
            let third = (f64::from(self.water_level) / 3.0) as f32;
            let water_scale =
                (1.0 - (1.0 - f64::from(self.n.swim_scale)) * f64::from(third)) as f32;
            if wishspeed > self.n.speed * water_scale {
                wishspeed = self.n.speed * water_scale;
            }
        }
        let accel = if self.slick_or_knocked() {
            self.n.air_accelerate
        } else {
            self.n.accelerate
        };
        self.accelerate(wishdir, wishspeed, accel);
        if self.slick_or_knocked() {
            self.velocity.z -= self.n.gravity * self.frametime;
        }
        let vel = length(self.velocity);
        // Slide along the ground plane, keeping the speed.
        self.velocity = clip_velocity(self.velocity, normal, OVERCLIP);
        self.velocity = normalize(self.velocity).0 * vel;
        if self.velocity.x == 0.0 && self.velocity.y == 0.0 {
            return;
        }
        self.step_slide_move(false);
    }

    /// `PM_AirMove`.
    pub(super) fn air_move(&mut self) {
        self.friction();
        let (fmove, smove) = (self.cmd.forward as f32, self.cmd.right as f32);
        let scale = self.cmd_scale();
        let mut forward = self.forward;
        let mut right = self.right;
        forward.z = 0.0;
        right.z = 0.0;
        self.forward = normalize(forward).0;
        self.right = normalize(right).0;
        let (forward, right) = (self.forward, self.right);
        let wishvel = Vec3::new(
            forward.x * fmove + right.x * smove,
            forward.y * fmove + right.y * smove,
            0.0,
        );
        let (wishdir, wishspeed) = normalize(wishvel);
        self.accelerate(wishdir, wishspeed * scale, self.n.air_accelerate);
        // A steep plane under the feet: slide along it.
        if self.ground_plane {
            self.velocity = clip_velocity(self.velocity, self.ground_normal(), OVERCLIP);
        }
        self.step_slide_move(true);
    }

    /// `PM_CheckWaterJump`: at water level 2 facing a ledge (solid 30 ahead, 4 above the
    /// origin, and free 16 higher), jump out.
    fn check_water_jump(&mut self) -> bool {
        if self.pm_time != 0 || self.water_level != 2 {
            return false;
        }
        let flat = normalize(Vec3::new(self.forward.x, self.forward.y, 0.0)).0;
        let mut spot = super::vector::ma(self.origin, WATER_JUMP_REACH, flat);
        spot.z += WATER_JUMP_LOW;
        if !self.world.contents(spot).intersects(Contents::SOLID) {
            return false;
        }
        spot.z += WATER_JUMP_HIGH;
        let blocked = Contents(Contents::SOLID.0 | Contents::PLAYERCLIP.0 | Contents::BODY.0);
        if self.world.contents(spot).intersects(blocked) {
            return false;
        }
        self.velocity = self.forward * self.n.water_jump_forward;
        self.velocity.z = self.n.water_jump_up;
        self.flags |= PMF_TIME_WATERJUMP;
        self.pm_time = self.n.water_jump_ms;
        true
    }

    /// `PM_WaterJumpMove`: no control, gravity, until falling.
    pub(super) fn water_jump_move(&mut self) {
        self.step_slide_move(true);
        self.velocity.z -= self.n.gravity * self.frametime;
        if self.velocity.z < 0.0 {
            self.flags &= !super::PMF_ALL_TIMES;
            self.pm_time = 0;
        }
    }

    /// `PM_WaterMove`.
    pub(super) fn water_move(&mut self) {
        if self.check_water_jump() {
            return self.water_jump_move();
        }
        self.friction();
        let scale = self.cmd_scale();
        let wishvel = if scale == 0.0 {
            Vec3::new(0.0, 0.0, -self.n.sink_speed)
        } else {
            let (f, r) = (self.cmd.forward as f32, self.cmd.right as f32);
            let (fw, rt) = (self.forward, self.right);
            let mut w = Vec3::new(
                scale * fw.x * f + scale * rt.x * r,
                scale * fw.y * f + scale * rt.y * r,
                scale * fw.z * f + scale * rt.z * r,
            );
            w.z += scale * self.cmd.up as f32;
            w
        };
        let (wishdir, mut wishspeed) = normalize(wishvel);
        if wishspeed > self.n.speed * self.n.swim_scale {
            wishspeed = self.n.speed * self.n.swim_scale;
        }
        self.accelerate(wishdir, wishspeed, self.n.water_accelerate);
        let normal = self.ground_normal();
        if self.ground_plane && dot(self.velocity, normal) < 0.0 {
            let vel = length(self.velocity);
            self.velocity = clip_velocity(self.velocity, normal, OVERCLIP);
            self.velocity = normalize(self.velocity).0 * vel;
        }
        self.slide_move(false);
    }
}
