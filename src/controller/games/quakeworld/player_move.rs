//! QuakeWorld's `PlayerMove` (`pmove.c`) for one command: nudge, categorize (ground, water
//! level and type), water jump, jump with `oldbuttons`, friction with edge friction, then
//! swimming or walking and the air, and categorize again.
//!
//! Takes the level ([`QuakeWorldLevel`]), the state before and one [`UserCmd`]; gives the
//! state after. Guarantees: the game's order of steps and of float operations (f32 where
//! the game is float; the frame time `msec · 0.001` rounded from double, as the game's),
//! the movevars a QuakeWorld server sends (`sv_phys.c`), no platform maths.

use glam::Vec3;

use super::angles::angle_vectors;
use super::movevars::{
    ACCELERATE, AIR_WISH_CAP, EDGE_DROP, EDGE_LOOKAHEAD, ENT_GRAVITY, EYES_Z, FLOOR_NORMAL_Z, FRICTION,
    GRAVITY, JUMP_SPEED, LEAVE_GROUND_SPEED, MAX_SPEED, NUDGE, PLAYER_MAXS_Z, PLAYER_MINS_Z,
    STEP_SIZE, STOP_SPEED, WATER_ACCELERATE, WATER_FRICTION,
};
use super::usercmd::{BUTTON_JUMP, UserCmd};
use super::vec::{dot, ma, normalize, scale};
use super::world::{QuakeWorldMemo, 
    CONTENTS_EMPTY, CONTENTS_SLIME, CONTENTS_SOLID, CONTENTS_WATER, QuakeWorldLevel,
};
use super::QuakeWorldState;
use crate::controller::Tracer;

/// One command's move: the game's globals (`pmove`, `onground`, `waterlevel`, `watertype`,
/// `frametime`, `forward`, `right`) for its length.
pub(super) struct PlayerMove<'w, T: Tracer + ?Sized> {
    pub(super) level: QuakeWorldLevel<'w, T>,
    /// What the commands before this one left to reuse.
    pub(super) memo: &'w mut QuakeWorldMemo,
    pub(super) cmd: UserCmd,
    pub(super) frametime: f32,
    pub(super) forward: Vec3,
    pub(super) right: Vec3,
    pub(super) origin: Vec3,
    pub(super) velocity: Vec3,
    pub(super) on_ground: bool,
    pub(super) water_level: i32,
    pub(super) water_type: i32,
    pub(super) old_buttons: u8,
    pub(super) water_jump_time: f32,
}

/// `PlayerMove` for one command (at most 50 ms: `SV_RunCmd` splits longer ones).
pub(super) fn player_move<T: Tracer + ?Sized>(
    (level, memo): (QuakeWorldLevel<'_, T>, &mut QuakeWorldMemo),
    state: &mut QuakeWorldState, cmd: &UserCmd) {
    let frametime = (f64::from(cmd.msec) * 0.001) as f32;
    let (forward, right) = angle_vectors(cmd.angles[0], cmd.angles[1]);
    let mut pm = PlayerMove {
        level,
        memo,
        cmd: *cmd,
        frametime,
        forward,
        right,
        origin: state.origin,
        velocity: state.velocity,
        on_ground: state.on_ground,
        water_level: i32::from(state.water_level),
        water_type: state.water_type,
        old_buttons: state.old_buttons,
        water_jump_time: state.water_jump_time,
    };
    pm.nudge_position();
    pm.categorize_position();
    if pm.water_level == 2 {
        pm.check_water_jump();
    }
    if pm.velocity.z < 0.0 {
        pm.water_jump_time = 0.0;
    }
    if pm.cmd.buttons & BUTTON_JUMP != 0 {
        pm.jump_button();
    } else {
        pm.old_buttons &= !BUTTON_JUMP;
    }
    pm.friction();
    if pm.water_level >= 2 {
        pm.water_move();
    } else {
        pm.air_move();
    }
    pm.categorize_position();
    *state = QuakeWorldState {
        origin: pm.origin,
        velocity: pm.velocity,
        on_ground: pm.on_ground,
        old_buttons: pm.old_buttons,
        water_jump_time: pm.water_jump_time,
        // In 0..=3.
        water_level: pm.water_level as u8,
        water_type: pm.water_type,
    };
}

impl<T: Tracer + ?Sized> PlayerMove<'_, T> {
    /// `NudgePosition`: where the origin is in solid, the first of the 27 positions an
    /// eighth of a unit around it (z, then x, then y: 0, −, +) that is not; else it stays.
    fn nudge_position(&mut self) {
        const SIGN: [f64; 3] = [0.0, -1.0, 1.0];
        let base = self.origin;
        let nudged = |b: f32, s: f64| (f64::from(b) + s * NUDGE) as f32;
        for z in SIGN {
            for x in SIGN {
                for y in SIGN {
                    let at = Vec3::new(nudged(base.x, x), nudged(base.y, y), nudged(base.z, z));
                    if self.level.player_fits(at) {
                        self.origin = at;
                        return;
                    }
                }
            }
        }
        self.origin = base;
    }

    /// `PM_CatagorizePosition`: on the ground when a floor is within a unit below (and not
    /// rising fast), snapped onto it; then the water level (feet, middle, eyes) and type.
    fn categorize_position(&mut self) {
        if self.velocity.z > LEAVE_GROUND_SPEED {
            self.on_ground = false;
        } else {
            let below = Vec3::new(self.origin.x, self.origin.y, self.origin.z - 1.0);
            // The command before ended with this very trace, unless nudged or stepped.
            let trace = self.level.player_move_kept(self.memo, self.origin, below);
            self.on_ground = trace.normal.z >= FLOOR_NORMAL_Z;
            if self.on_ground {
                self.water_jump_time = 0.0;
                if !trace.start_solid && !trace.all_solid {
                    self.origin = trace.end;
                }
            }
        }
        self.water_level = 0;
        self.water_type = CONTENTS_EMPTY;
        let mut point = Vec3::new(self.origin.x, self.origin.y, self.origin.z + PLAYER_MINS_Z + 1.0);
        let contents = self.level.point_contents_kept(self.memo, point);
        if contents <= CONTENTS_WATER {
            self.water_type = contents;
            self.water_level = 1;
            // `(mins + maxs) * 0.5` is a double in the game; it is exactly 4 here.
            point.z = (f64::from(self.origin.z) + f64::from(PLAYER_MINS_Z + PLAYER_MAXS_Z) * 0.5)
                as f32;
            if self.level.point_contents(point) <= CONTENTS_WATER {
                self.water_level = 2;
                point.z = self.origin.z + EYES_Z;
                if self.level.point_contents(point) <= CONTENTS_WATER {
                    self.water_level = 3;
                }
            }
        }
    }

    /// `JumpButton`: counts a water jump down; swims up at the liquid's speed; jumps off
    /// the ground when the button was released since the last jump.
    fn jump_button(&mut self) {
        if self.water_jump_time != 0.0 {
            self.water_jump_time -= self.frametime;
            if self.water_jump_time < 0.0 {
                self.water_jump_time = 0.0;
            }
            return;
        }
        if self.water_level >= 2 {
            self.on_ground = false;
            self.velocity.z = match self.water_type {
                CONTENTS_WATER => 100.0,
                CONTENTS_SLIME => 80.0,
                _ => 50.0,
            };
            return;
        }
        if !self.on_ground || self.old_buttons & BUTTON_JUMP != 0 {
            return;
        }
        self.on_ground = false;
        self.velocity.z += JUMP_SPEED;
        self.old_buttons |= BUTTON_JUMP;
    }

    /// `CheckWaterJump`: waist deep, facing a wall whose top is within reach: hop out.
    fn check_water_jump(&mut self) {
        if self.water_jump_time != 0.0 || self.velocity.z < -LEAVE_GROUND_SPEED {
            return;
        }
        let (flat, _) = normalize(Vec3::new(self.forward.x, self.forward.y, 0.0));
        let mut spot = ma(self.origin, 24.0, flat);
        spot.z += 8.0;
        if self.level.point_contents(spot) != CONTENTS_SOLID {
            return;
        }
        spot.z += 24.0;
        if self.level.point_contents(spot) != CONTENTS_EMPTY {
            return;
        }
        self.velocity = scale(flat, 50.0);
        self.velocity.z = 310.0;
        self.water_jump_time = 2.0;
        self.old_buttons |= BUTTON_JUMP;
    }

    /// `PM_Friction`: ground friction (doubled over a drop-off ahead) or water friction.
    fn friction(&mut self) {
        if self.water_jump_time != 0.0 {
            return;
        }
        let v = self.velocity;
        let speed = (v.x * v.x + v.y * v.y + v.z * v.z).sqrt();
        if speed < 1.0 {
            self.velocity.x = 0.0;
            self.velocity.y = 0.0;
            return;
        }
        let mut friction = FRICTION;
        if self.on_ground {
            let x = self.origin.x + v.x / speed * EDGE_LOOKAHEAD;
            let y = self.origin.y + v.y / speed * EDGE_LOOKAHEAD;
            let start = Vec3::new(x, y, self.origin.z + PLAYER_MINS_Z);
            let stop = Vec3::new(x, y, start.z - EDGE_DROP);
            if self.level.player_move(start, stop).fraction == 1.0 {
                friction *= 2.0;
            }
        }
        let mut drop = 0.0f32;
        if self.water_level >= 2 {
            drop += speed * WATER_FRICTION * self.water_level as f32 * self.frametime;
        } else if self.on_ground {
            let control = if speed < STOP_SPEED { STOP_SPEED } else { speed };
            drop += control * friction * self.frametime;
        }
        let mut new_speed = speed - drop;
        if new_speed < 0.0 {
            new_speed = 0.0;
        }
        new_speed /= speed;
        self.velocity = Vec3::new(v.x * new_speed, v.y * new_speed, v.z * new_speed);
    }

    /// `PM_Accelerate`: toward `wish_speed` along `wish_dir`.
    fn accelerate(&mut self, wish_dir: Vec3, wish_speed: f32, accel: f32) {
        if self.water_jump_time != 0.0 {
            return;
        }
        let add = wish_speed - dot(self.velocity, wish_dir);
        if add <= 0.0 {
            return;
        }
        let mut accel_speed = accel * self.frametime * wish_speed;
        if accel_speed > add {
            accel_speed = add;
        }
        self.velocity = ma(self.velocity, accel_speed, wish_dir);
    }

    /// `PM_AirAccelerate`: as [`Self::accelerate`] toward at most [`AIR_WISH_CAP`], at the
    /// rate of the whole wish.
    fn air_accelerate(&mut self, wish_dir: Vec3, wish_speed: f32, accel: f32) {
        if self.water_jump_time != 0.0 {
            return;
        }
        let capped = wish_speed.min(AIR_WISH_CAP);
        let add = capped - dot(self.velocity, wish_dir);
        if add <= 0.0 {
            return;
        }
        let mut accel_speed = accel * wish_speed * self.frametime;
        if accel_speed > add {
            accel_speed = add;
        }
        self.velocity = ma(self.velocity, accel_speed, wish_dir);
    }

    /// `PM_WaterMove`: swim along the whole view (sinking without a key), then press down
    /// from a step's height above, or fly.
    fn water_move(&mut self) {
        let (f, s, u) = (
            f32::from(self.cmd.forward_move),
            f32::from(self.cmd.side_move),
            f32::from(self.cmd.up_move),
        );
        let mut wish = Vec3::new(
            self.forward.x * f + self.right.x * s,
            self.forward.y * f + self.right.y * s,
            self.forward.z * f + self.right.z * s,
        );
        if self.cmd.forward_move == 0 && self.cmd.side_move == 0 && self.cmd.up_move == 0 {
            wish.z -= 60.0;
        } else {
            wish.z += u;
        }
        let (wish_dir, mut wish_speed) = normalize(wish);
        if wish_speed > MAX_SPEED {
            wish_speed = MAX_SPEED;
        }
        wish_speed *= 0.7;
        self.accelerate(wish_dir, wish_speed, WATER_ACCELERATE);
        let dest = ma(self.origin, self.frametime, self.velocity);
        let mut start = dest;
        start.z += STEP_SIZE + 1.0;
        let trace = self.level.player_move(start, dest);
        if !trace.start_solid && !trace.all_solid {
            self.origin = trace.end;
            return;
        }
        self.fly_move();
    }

    /// `PM_AirMove`: the flat wish; on the ground accelerate and walk, in the air
    /// accelerate toward at most [`AIR_WISH_CAP`], fall and fly.
    fn air_move(&mut self) {
        let f = f32::from(self.cmd.forward_move);
        let s = f32::from(self.cmd.side_move);
        let (forward, _) = normalize(Vec3::new(self.forward.x, self.forward.y, 0.0));
        let (right, _) = normalize(Vec3::new(self.right.x, self.right.y, 0.0));
        let wish = Vec3::new(
            forward.x * f + right.x * s,
            forward.y * f + right.y * s,
            0.0,
        );
        let (wish_dir, mut wish_speed) = normalize(wish);
        if wish_speed > MAX_SPEED {
            wish_speed = MAX_SPEED;
        }
        let gravity = ENT_GRAVITY * GRAVITY * self.frametime;
        if self.on_ground {
            self.velocity.z = 0.0;
            self.accelerate(wish_dir, wish_speed, ACCELERATE);
            self.velocity.z -= gravity;
            self.ground_move();
        } else {
            self.air_accelerate(wish_dir, wish_speed, ACCELERATE);
            self.velocity.z -= gravity;
            self.fly_move();
        }
    }
}
