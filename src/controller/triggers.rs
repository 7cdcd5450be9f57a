//! Triggers touched during movement: which trigger models a tick touched, entered and left
//! (Quake 3 `g_active.c G_TouchTriggers` after each move, made swept; Source's
//! `StartTouch`/`EndTouch` from the previous tick's set).
//!
//! Takes the world's trigger query through [`Tracer::touch_triggers`](super::Tracer::touch_triggers) and the set the
//! character was in at the end of the last tick ([`CharacterState::triggers`]); gives a
//! [`TriggerReport`] (`ids.rs`) in the tick's outcome. Guarantees: every trigger touched is
//! reported, however many; no allocation once the lists have held their most (the outcome's
//! and the character's are cleared and refilled);
//! model indices in increasing order; a trigger crossed within one tick is touched, entered
//! and left in that tick; `entered` fires once per entry however long the character stays
//! (Quake 3's `jumppad_ent` rule); noclip touches nothing (Quake 3 `ClientThink_real`).
//! What a trigger does (teleport, push, hurt) is the game's, after the tick.

use glam::Vec3;

use super::character::CharacterController;
use super::tick::{MoveMode, MoveOutcome};
use super::tracer::Sweeps;

#[cfg(doc)]
use super::tick::CharacterState;

impl CharacterController {
    /// Fills `outcome.triggers` for a tick that began with the origin at `start`, and keeps
    /// the set the character ends in.
    pub(crate) fn update_triggers<T: Sweeps + ?Sized>(
        &mut self,
        world: &T,
        start: Vec3,
        outcome: &mut MoveOutcome,
    ) {
        // The set the tick ends in is filled in the kept buffer, then swapped with the
        // state's: no list is allocated once each has held its most.
        let mut inside = std::mem::take(&mut self.memo.trigger_scratch);
        inside.clear();
        // The two lists it alternates with the state keep room for a few (a state restored
        // with `set_state` may come with none).
        inside.reserve();
        let report = &mut outcome.triggers;
        report.touched.clear();
        if self.state.mode != MoveMode::Noclip {
            let offset = self.shape_center() - self.state.position;
            world.touch_triggers(
                self.shape(),
                start + offset,
                self.state.position + offset,
                &mut report.touched,
                &mut inside,
            );
        }
        let previous = &self.state.triggers;
        report
            .touched
            .difference_into(previous, &mut report.entered);
        previous.union_without_into(&report.touched, &inside, &mut report.left);
        self.memo.trigger_scratch = std::mem::replace(&mut self.state.triggers, inside);
    }
}
