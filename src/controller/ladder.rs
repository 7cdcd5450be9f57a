//! Ladders: attaching to a ladder and climbing it (Source `gamemovement.cpp LadderMove`,
//! `OnLadder`; Half-Life `pm_shared.c PM_Ladder`).
//!
//! Takes the world's sweeps (a ladder face: contents [`Contents::LADDER`] or surface flag
//! [`SurfaceFlags::LADDER`] on what a short probe hits) and point contents (a ladder volume:
//! Half-Life `func_ladder`, Quake 2 ladder brushes, a custom game's ladder class); gives the
//! climb. Guarantees: the ladder is probed every tick, so the climber steps off at the top
//! (the probe misses) and at the bottom; no gravity, friction or steps while on it.

use glam::Vec3;

use super::character::CharacterController;
use super::tick::{MoveInput, MoveOutcome};
use super::tracer::Tracer;
use crate::contents::Contents;
use crate::surface::SurfaceFlags;

/// How far the attach probe sweeps toward the ladder, units (Source `LadderDistance` 2).
const LADDER_PROBE: f32 = 2.0;

impl CharacterController {
    /// Source `LadderMove`: probe toward the ladder (along its stored normal, else along
    /// the wish); on it, jump off along the normal, or climb: the wish (with its z) at
    /// `ladder_speed`, its part into the ladder turned into up. Returns whether the
    /// character is on a ladder this tick (the move is done).
    pub(super) fn ladder_move<T: Tracer + ?Sized>(
        &mut self,
        world: &T,
        input: &MoveInput,
        outcome: &mut MoveOutcome,
    ) -> bool {
        if self.state.water_level >= 2 {
            self.state.ladder = None;
            return false;
        }
        if !world.may_have_ladders() {
            // Nothing to find: the probe and the volume test would both miss.
            self.state.ladder = None;
            return false;
        }
        let toward = match self.state.ladder {
            Some(n) => -n,
            None => match input.wish.truncate().try_normalize() {
                Some(d) => d.extend(0.0),
                None => return false,
            },
        };
        let view = self.view(world);
        let from = self.state.position;
        let probe = view.trace(self.current_shape(), from, from + toward * LADDER_PROBE);
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
        let Some(n) = normal.and_then(|n| n.truncate().try_normalize()) else {
            self.state.ladder = None;
            return false;
        };
        let n = n.extend(0.0);
        self.state.ladder = Some(n);
        if input.jump && !self.state.jump_held {
            // Jump off, away from the ladder.
            self.state.velocity = n * self.config.ladder_jump_speed;
            self.state.ladder = None;
            outcome.jumped = true;
        } else {
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
        self.move_with(world, None, false, false, outcome);
        self.state.ground = self.find_ground(world, None);
        true
    }
}
