//! Triggers touched during movement: which trigger models a tick touched, entered and left
//! (Quake 3 `g_active.c G_TouchTriggers` after each move, made swept; Source's
//! `StartTouch`/`EndTouch` from the previous tick's set).
//!
//! Takes the world's trigger query through [`Tracer::touch_triggers`] and the set the
//! character was in at the end of the last tick ([`CharacterState::triggers`]); gives a
//! [`TriggerReport`] in the tick's outcome. Guarantees: fixed capacity, no allocation;
//! model indices in increasing order; a trigger crossed within one tick is touched, entered
//! and left in that tick; `entered` fires once per entry however long the character stays
//! (Quake 3's `jumppad_ent` rule); noclip touches nothing (Quake 3 `ClientThink_real`).
//! What a trigger does (teleport, push, hurt) is the game's, after the tick.

use glam::Vec3;

use super::character::CharacterController;
use super::ids::IdSet;
use super::tick::{MoveMode, MoveOutcome};
use super::tracer::Tracer;

#[cfg(doc)]
use super::tick::CharacterState;

/// Most trigger models one list holds (a character inside more at once keeps the lowest
/// indices): Quake 3's `G_TouchTriggers` gathers at most `MAX_GENTITIES` but a player box
/// overlaps a handful.
pub const MAX_TRIGGERS: usize = 16;

/// A set of trigger model indices, in increasing order, at most [`MAX_TRIGGERS`].
pub type TriggerList = IdSet<MAX_TRIGGERS>;

/// The trigger models of one tick.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TriggerReport {
    /// Touched on the way from the tick's start to its end (Quake 3 calls `touch` for
    /// these every frame), including those the character ends in.
    pub touched: TriggerList,
    /// Touched this tick and not in at the end of the last one (Source `StartTouch`).
    pub entered: TriggerList,
    /// In at the end of the last tick or touched this tick, and not in at the end of this
    /// one (Source `EndTouch`): a trigger crossed within the tick is entered and left.
    pub left: TriggerList,
}

impl CharacterController {
    /// Fills `outcome.triggers` for a tick that began with the origin at `start`, and keeps
    /// the set the character ends in.
    pub(super) fn update_triggers<T: Tracer + ?Sized>(
        &mut self,
        world: &T,
        start: Vec3,
        outcome: &mut MoveOutcome,
    ) {
        let previous = self.state.triggers;
        let mut touched = TriggerList::default();
        let mut inside = TriggerList::default();
        if self.state.mode != MoveMode::Noclip {
            let offset = self.shape_center() - self.state.position;
            world.touch_triggers(
                self.shape(),
                start + offset,
                self.state.position + offset,
                &mut touched,
                &mut inside,
            );
        }
        outcome.triggers = TriggerReport {
            touched,
            entered: touched.without(&previous),
            left: previous.union(&touched).without(&inside),
        };
        self.state.triggers = inside;
    }
}
