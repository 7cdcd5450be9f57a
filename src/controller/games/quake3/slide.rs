//! Quake 3's `PM_SlideMove` and `PM_StepSlideMove` (`bg_slidemove.c`).
//!
//! Takes the command's [`Pmove`] with the velocity to move by; gives the origin moved along
//! the world through up to four sweeps, the velocity clipped by the planes met (`OVERCLIP`),
//! and, when the move was blocked, the same move tried a step higher and pushed back down.
//! Guarantees: the game's algorithm in its order: gravity integrated as two halves around
//! the slide, the ground plane and the original velocity never turned against, a plane met
//! again nudging the velocity out along it, creases followed by the cross product, three
//! planes stopping the player dead, and the velocity kept as it started while `pm_time`
//! runs (the landing timer's overbounce). One sweep the game makes is made only when the
//! game reads it: `PM_StepSlideMove`'s step down from the start, read only while moving up
//! and recording no touch in the game; so the same bits, and no touch from it.

use glam::Vec3;

use super::Pmove;
use super::vector::{OVERCLIP, clip_velocity, cross, dot, ma, normalize};
use crate::controller::tracer::Tracer;

/// `PM_SlideMove`'s sweeps per move.
const NUM_BUMPS: usize = 4;
/// `MAX_CLIP_PLANES`.
const MAX_CLIP_PLANES: usize = 5;
/// Two planes whose normals' dot product is above this are the same plane met again.
const SAME_PLANE: f32 = 0.99;
/// A velocity whose dot product with a plane's normal is at least this does not move into
/// it, units/s.
const INTO_PLANE: f32 = 0.1;
/// `PM_StepSlideMove`'s test of the ground below the start while moving up: a plane whose
/// normal's z is below this is not ground to step from (the game's literal 0.7, not
/// `MIN_WALK_NORMAL`).
const WALKABLE_STEP_NORMAL_Z: f32 = 0.7;

impl<T: Tracer + ?Sized> Pmove<'_, T> {
    /// `PM_SlideMove`: whether the move was clipped in some way.
    pub(super) fn slide_move(&mut self, gravity: bool) -> bool {
        let mut primal_velocity = self.velocity;
        let mut end_velocity = Vec3::ZERO;
        if gravity {
            end_velocity = self.velocity;
            end_velocity.z -= self.n.gravity * self.frametime;
            self.velocity.z = (self.velocity.z + end_velocity.z) * 0.5;
            primal_velocity.z = end_velocity.z;
            if self.ground_plane {
                self.velocity = clip_velocity(self.velocity, self.ground_normal(), OVERCLIP);
            }
        }
        let mut time_left = self.frametime;
        let mut planes = [Vec3::ZERO; MAX_CLIP_PLANES];
        let mut count = 0;
        if self.ground_plane {
            planes[0] = self.ground_normal();
            count = 1;
        }
        planes[count] = normalize(self.velocity).0;
        count += 1;
        let mut bump = 0;
        while bump < NUM_BUMPS {
            let end = ma(self.origin, time_left, self.velocity);
            let trace = self.trace(self.origin, end);
            if trace.all_solid {
                // Trapped: no falling speed built up, sideways acceleration allowed.
                self.velocity.z = 0.0;
                return true;
            }
            if trace.fraction > 0.0 {
                self.origin = trace.end;
            }
            if trace.fraction == 1.0 {
                break;
            }
            time_left -= time_left * trace.fraction;
            if count >= MAX_CLIP_PLANES {
                self.velocity = Vec3::ZERO;
                return true;
            }
            let normal = trace.normal;
            // The same plane again: nudge the velocity out along it.
            if planes[..count].iter().any(|&p| dot(normal, p) > SAME_PLANE) {
                self.velocity = Vec3::new(
                    normal.x + self.velocity.x,
                    normal.y + self.velocity.y,
                    normal.z + self.velocity.z,
                );
                bump += 1;
                continue;
            }
            planes[count] = normal;
            count += 1;
            if self.clip_to_planes(&planes[..count], gravity, &mut end_velocity) {
                return true;
            }
            bump += 1;
        }
        if gravity {
            self.velocity = end_velocity;
        }
        // "don't change velocity if in a timer"
        if self.pm_time != 0 {
            self.velocity = primal_velocity;
        }
        bump != 0
    }

    /// The velocity made parallel to every plane it moves into (`PM_SlideMove`'s inner
    /// loops): true when three planes stopped it dead.
    fn clip_to_planes(&mut self, planes: &[Vec3], gravity: bool, end_velocity: &mut Vec3) -> bool {
        for (i, &plane_i) in planes.iter().enumerate() {
            if dot(self.velocity, plane_i) >= INTO_PLANE {
                continue;
            }
            let mut clip = clip_velocity(self.velocity, plane_i, OVERCLIP);
            let mut end_clip = if gravity {
                clip_velocity(*end_velocity, plane_i, OVERCLIP)
            } else {
                Vec3::ZERO
            };
            for (j, &plane_j) in planes.iter().enumerate() {
                if j == i || dot(clip, plane_j) >= INTO_PLANE {
                    continue;
                }
                clip = clip_velocity(clip, plane_j, OVERCLIP);
                if gravity {
                    end_clip = clip_velocity(end_clip, plane_j, OVERCLIP);
                }
                if dot(clip, plane_i) >= 0.0 {
                    continue;
                }
                // Slide the original velocity along the crease.
                let dir = normalize(cross(plane_i, plane_j)).0;
                clip = dir * dot(dir, self.velocity);
                if gravity {
                    end_clip = dir * dot(dir, *end_velocity);
                }
                for (k, &plane_k) in planes.iter().enumerate() {
                    if k == i || k == j || dot(clip, plane_k) >= INTO_PLANE {
                        continue;
                    }
                    // Stop dead at a triple plane interaction.
                    self.velocity = Vec3::ZERO;
                    return true;
                }
            }
            self.velocity = clip;
            if gravity {
                *end_velocity = end_clip;
            }
            break;
        }
        false
    }

    /// `PM_StepSlideMove`: the slide; if it was clipped, the same move from a step up,
    /// pushed back down by what was climbed.
    pub(super) fn step_slide_move(&mut self, gravity: bool) {
        let start_o = self.origin;
        let start_v = self.velocity;
        if !self.slide_move(gravity) {
            return;
        }
        // Never step up while still moving up (unless a step down from the start meets
        // walkable ground). The game sweeps that step down before it looks at the velocity
        // and reads the answer only when moving up; the sweep records no touch in the game
        // (only `PM_SlideMove`'s impacts call `PM_AddTouchEnt`), so it is swept here only
        // when its answer is read: the same bits, one sweep fewer on most blocked moves.
        if self.velocity.z > 0.0 {
            let down = Vec3::new(start_o.x, start_o.y, start_o.z - self.n.step_size);
            let trace = self.trace(start_o, down);
            if trace.fraction == 1.0 || trace.normal.z < WALKABLE_STEP_NORMAL_Z {
                return;
            }
        }
        let up = Vec3::new(start_o.x, start_o.y, start_o.z + self.n.step_size);
        let trace = self.trace(start_o, up);
        if trace.all_solid {
            return;
        }
        let step_size = trace.end.z - start_o.z;
        self.origin = trace.end;
        self.velocity = start_v;
        self.slide_move(gravity);
        let down = Vec3::new(self.origin.x, self.origin.y, self.origin.z - step_size);
        let trace = self.trace(self.origin, down);
        if !trace.all_solid {
            self.origin = trace.end;
        }
        if trace.fraction < 1.0 {
            self.velocity = clip_velocity(self.velocity, trace.normal, OVERCLIP);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{CharacterController, ControllerConfig, MoveCommand, MoveInput};
    use glam::Vec3;

    /// Falling into a wall with the floor ten units below: the game's `PM_StepSlideMove`
    /// reads its step down from the start only while moving up and records no touch from
    /// it, so the tick touches the wall it was blocked by and not the floor it never met
    /// (that step down, swept anyway, touched it); the step up and across is still taken.
    #[test]
    fn a_blocked_fall_touches_the_wall_and_not_the_floor_below() {
        let world = crate::test_maps::bundled("box_room.map");
        let config = ControllerConfig::quake3();
        let feet = config.feet_to_origin;
        // The room's inside wall at x = -256, its floor at z = 0; the box 2 units from the
        // wall, its feet 10 above the floor, falling slowly and running into the wall.
        let half = config.shape.half_width();
        let start = Vec3::new(-256.0 + half + 2.0, 0.0, feet + 10.0);
        let Ok(mut player) = CharacterController::new(config, start) else {
            panic!("the Quake 3 profile is valid");
        };
        let mut state = player.state().clone();
        state.velocity = Vec3::new(-320.0, 0.0, -20.0);
        assert!(player.set_state(state));
        let run = MoveInput::from_command(MoveCommand {
            yaw: 180.0,
            forward: 1.0,
            ..MoveCommand::default()
        });
        let outcome = player.step(&world, &run);
        let normals: Vec<Vec3> = outcome
            .touches
            .as_slice()
            .iter()
            .map(|t| t.normal)
            .collect();
        assert!(
            normals.iter().any(|n| n.x > 0.99),
            "the wall is touched: {normals:?}"
        );
        assert!(
            normals.iter().all(|n| n.z < 0.7),
            "no floor is touched: {normals:?}"
        );
        // Still in the air, against the wall, lower than it started.
        let end = player.position();
        assert!(end.z < start.z && end.z > feet, "{end}");
        assert!((end.x - (-256.0 + half + 0.125)).abs() < 0.01, "{end}");
    }
}
