//! External impulses: knockback with its hold, launches, teleports (Quake 3 `g_combat.c
//! G_Damage`, `bg_pmove.c PMF_TIME_KNOCKBACK`, `g_misc.c TeleportPlayer`; Source
//! `CheckVelocity` for the cap).
//!
//! Takes a velocity change or a destination from the game; gives the new state. Guarantees:
//! a hold starts only if none runs (Quake 3), is counted in ticks and suppresses ground
//! friction (and ground acceleration) while it runs; a teleport clears the ground, the wall
//! memory, the ladder and the timers and counts itself; every result respects
//! `max_velocity`; non-finite input is refused.

use glam::Vec3;

use super::character::{CharacterController, LAUNCHED};
use super::ground::Ground;
use super::tick::WallContacts;

impl CharacterController {
    /// Adds `delta_v` to the velocity (knockback) and, unless a hold runs, holds ground
    /// friction off for `hold` seconds (Quake 3: `clamp(2 · knockback, 50, 200)` ms). On
    /// the ground the character stays grounded unless the impulse rises faster than the
    /// ground limit; use [`Self::launch`] to lift at any speed. Returns false (and changes
    /// nothing) for a non-finite or negative input.
    pub fn apply_impulse(&mut self, delta_v: Vec3, hold: f32) -> bool {
        if !delta_v.is_finite() || !hold.is_finite() || hold < 0.0 {
            return false;
        }
        self.state.velocity += delta_v;
        if self.state.hold_ticks == 0 {
            self.state.hold_ticks = self.ticks(hold);
        }
        self.cap_velocity();
        true
    }

    /// Adds `delta_v` and leaves the ground at the next tick whatever its size (jump pads,
    /// explosions that must lift; Source's pushers clear the ground the same way). No
    /// coyote jump follows. Returns false for a non-finite input.
    pub fn launch(&mut self, delta_v: Vec3) -> bool {
        if !delta_v.is_finite() {
            return false;
        }
        self.state.velocity += delta_v;
        self.state.ground = Ground::AIR;
        self.state.launched = true;
        self.state.air_ticks = LAUNCHED;
        self.state.ladder = None;
        self.cap_velocity();
        true
    }

    /// Teleports the origin to `position` with `velocity` (Quake 3 `TeleportPlayer`: the
    /// destination + 1 z, 400 along the view, a 160 ms hold): clears the ground, the wall
    /// memory, the ladder and the timers, starts a `hold` (seconds) and counts the
    /// teleport. Returns false (and changes nothing) for non-finite input.
    pub fn teleport(&mut self, position: Vec3, velocity: Vec3, hold: f32) -> bool {
        if !position.is_finite() || !velocity.is_finite() || !hold.is_finite() || hold < 0.0 {
            return false;
        }
        let hold_ticks = self.ticks(hold);
        let state = &mut self.state;
        state.position = position;
        state.velocity = velocity;
        state.ground = Ground::AIR;
        state.walls = WallContacts::default();
        state.ladder = None;
        state.water_jump_us = 0;
        state.land_timer = 0.0;
        state.air_ticks = LAUNCHED;
        state.press_ticks = u32::MAX;
        state.teleports = state.teleports.wrapping_add(1);
        state.hold_ticks = hold_ticks;
        self.cap_velocity();
        true
    }

    /// `seconds` as whole ticks, rounded to nearest (a 200 ms hold is 25 ticks at 8 ms).
    pub(crate) fn ticks(&self, seconds: f32) -> u32 {
        let ticks = (seconds / self.config.tick).round();
        if ticks >= u32::MAX as f32 {
            u32::MAX
        } else {
            ticks as u32
        }
    }
}
