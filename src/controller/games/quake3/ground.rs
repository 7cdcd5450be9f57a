//! The checks around Quake 3's move: `PM_SetWaterLevel`, `PM_CheckDuck`, `PM_GroundTrace`
//! (with `PM_CorrectAllSolid` and `PM_GroundTraceMissed`) and `PM_DropTimers`.
//!
//! Takes the command's [`Pmove`]; gives its water level, box, ground entity, ground plane
//! and timers. Guarantees: the game's order and tests (the 0.25 ground trace, the kick-off
//! at 10 units/s into the plane, `MIN_WALK_NORMAL`, the hard landing's `PMF_TIME_LAND`);
//! landing events and animations, which move nothing, are left out.

use glam::Vec3;

use super::memo::{WaterSample, bits};
use super::{PMF_ALL_TIMES, PMF_DUCKED, PMF_TIME_LAND, PMF_TIME_WATERJUMP, Pmove};
use crate::contents::Contents;
use crate::controller::tracer::Tracer;

/// `PM_GroundTrace`: moving up faster than this into the ground plane throws the player off
/// it, units/s.
const KICKOFF_SPEED: f32 = 10.0;

impl<T: Tracer + ?Sized> Pmove<'_, T> {
    /// `PM_SetWaterLevel`: the liquid at the feet + 1, at half the view height and at the
    /// view height (the game's int `sample1`, `sample2`), using the view height of the
    /// last `PM_CheckDuck`.
    ///
    /// Reuses the last answer ([`Memo`](super::Memo)) where the origin, the view height
    /// and the map whose point contents are the world's are the same, and asks nothing in
    /// a world whose map holds no liquid.
    pub(super) fn set_water_level(&mut self) {
        let view_height = if self.flags & PMF_DUCKED != 0 {
            self.n.crouch_view_height
        } else {
            self.n.view_height
        };
        if self.dry {
            self.water_level = 0;
            self.water_type = Contents::EMPTY;
            return;
        }
        let (origin, mins_z) = (bits(self.origin), self.n.mins_z.to_bits());
        if let (Some(world), Some(kept)) = (self.contents_world, self.memo.water)
            && (kept.world, kept.origin, kept.view_height, kept.mins_z)
                == (world, origin, view_height, mins_z)
        {
            self.water_level = kept.level;
            self.water_type = kept.water_type;
            return;
        }
        let feet = Vec3::new(self.origin.x, self.origin.y, self.origin.z + self.n.mins_z + 1.0);
        let far_from_liquid = match (self.contents_world, self.memo.liquids.as_mut()) {
            (Some(world), Some(liquids)) if liquids.is_of(world) => liquids.surely_dry(feet),
            _ => false,
        };
        if far_from_liquid {
            // What the samples give where the first holds no liquid.
            self.water_level = 0;
            self.water_type = Contents::EMPTY;
        } else {
            self.sample_water_level(view_height);
        }
        self.memo.water = self.contents_world.map(|world| WaterSample {
            world,
            origin,
            view_height,
            mins_z,
            level: self.water_level,
            water_type: self.water_type,
        });
    }

    /// `PM_SetWaterLevel`'s samples, asked of the world.
    fn sample_water_level(&mut self, view_height: i32) {
        self.water_level = 0;
        self.water_type = Contents::EMPTY;
        let feet = self.origin.z + self.n.mins_z;
        let at = |z: f32| Vec3::new(self.origin.x, self.origin.y, z);
        let cont = self.world.contents(at(feet + 1.0));
        if !cont.intersects(Contents::MASK_LIQUID) {
            return;
        }
        let sample2 = view_height - self.n.mins_z as i32;
        let sample1 = sample2 / 2;
        self.water_type = cont;
        self.water_level = 1;
        if self
            .world
            .contents(at(feet + sample1 as f32))
            .intersects(Contents::MASK_LIQUID)
        {
            self.water_level = 2;
            if self
                .world
                .contents(at(feet + sample2 as f32))
                .intersects(Contents::MASK_LIQUID)
            {
                self.water_level = 3;
            }
        }
    }

    /// `PM_CheckDuck`: a crouch command ducks; otherwise a ducked player stands when the
    /// standing box is not all-solid where it is.
    pub(super) fn check_duck(&mut self) {
        if self.cmd.up < 0 {
            self.flags |= PMF_DUCKED;
        } else if self.flags & PMF_DUCKED != 0 {
            let stand = trace_stand(self);
            if !stand {
                self.flags &= !PMF_DUCKED;
            }
        }
    }

    /// `PM_GroundTrace`.
    pub(super) fn ground_trace(&mut self) {
        let point = Vec3::new(self.origin.x, self.origin.y, self.origin.z - self.n.ground_probe);
        let mut trace = self.trace(self.origin, point);
        self.ground_trace = Some(trace);
        if trace.all_solid {
            match self.correct_all_solid() {
                Some(t) => trace = t,
                None => return,
            }
        }
        if trace.fraction == 1.0 {
            self.on_ground = false;
            self.ground_plane = false;
            self.walking = false;
            return;
        }
        if self.velocity.z > 0.0
            && super::vector::dot(self.velocity, trace.normal) > KICKOFF_SPEED
        {
            self.on_ground = false;
            self.ground_plane = false;
            self.walking = false;
            return;
        }
        if trace.normal.z < self.n.min_walk_normal {
            self.on_ground = false;
            self.ground_plane = true;
            self.walking = false;
            return;
        }
        self.ground_plane = true;
        self.walking = true;
        if self.flags & PMF_TIME_WATERJUMP != 0 {
            self.flags &= !(PMF_TIME_WATERJUMP | PMF_TIME_LAND);
            self.pm_time = 0;
        }
        if !self.on_ground && self.previous_velocity.z < -self.n.hard_landing_speed {
            // Just hit the ground hard: no jump for a while.
            self.flags |= PMF_TIME_LAND;
            self.pm_time = self.n.land_time_ms;
        }
        self.on_ground = true;
    }

    /// `PM_CorrectAllSolid`: the first of the 27 spots within a unit (x, y, z each −1, 0, 1,
    /// in the game's order) where the box is not all-solid gives the ground trace, from the
    /// origin (which stays) 0.25 down; none: in the air.
    fn correct_all_solid(&mut self) -> Option<super::Swept> {
        for i in -1..=1 {
            for j in -1..=1 {
                for k in -1..=1 {
                    let point = self.origin + Vec3::new(i as f32, j as f32, k as f32);
                    if !self.trace(point, point).all_solid {
                        let down = Vec3::new(
                            self.origin.x,
                            self.origin.y,
                            self.origin.z - self.n.ground_probe,
                        );
                        let trace = self.trace(self.origin, down);
                        self.ground_trace = Some(trace);
                        return Some(trace);
                    }
                }
            }
        }
        self.on_ground = false;
        self.ground_plane = false;
        self.walking = false;
        None
    }

    /// `PM_DropTimers`: `pm_time` counts the command's milliseconds down; at 0 the timed
    /// flags go.
    pub(super) fn drop_timers(&mut self) {
        if self.pm_time != 0 {
            if self.msec >= self.pm_time {
                self.flags &= !PMF_ALL_TIMES;
                self.pm_time = 0;
            } else {
                self.pm_time -= self.msec;
            }
        }
    }
}

/// Whether the standing box is all-solid at the origin (`PM_CheckDuck`'s test).
fn trace_stand<T: Tracer + ?Sized>(pm: &Pmove<'_, T>) -> bool {
    super::trace::box_trace((pm.world, pm.scratch), pm.mask, pm.stand, pm.origin, pm.origin).all_solid
}
