//! Stage 6: a kinematic character with Quake-grade movement on top of any sweep.
//!
//! Takes a [`Tracer`] (the world as sweeps; [`CompiledMap`] is one, [`WorldWithMovers`]
//! another, a test may script its own), a [`ControllerConfig`] and one [`MoveInput`] per
//! fixed tick; gives the character's new position, velocity and [`Ground`], and a
//! [`MoveOutcome`] with the planes touched in order.
//!
//! One tick ([`CharacterController::step`]), after Quake 3's `PmoveSingle`:
//! 1. if the shape overlaps solid, move it to the nearest free spot (`unstuck`);
//! 2. crouch, or stand up if the standing shape fits (headroom check);
//! 3. find the ground (`ground`): walkable, steep or air;
//! 4. jump, only with the key newly pressed and the landing delay over;
//! 5. on walkable ground: friction, acceleration along the ground, then a slide (`slide`)
//!    that steps up risers (`step`); otherwise air control and gravity, integrated as
//!    two half steps around the slide so the height follows `v·t − g·t²/2` exactly;
//! 6. walking off a step or down a slope snaps back onto walkable ground within a step;
//! 7. find the ground again; if the shape ended overlapping solid, recover or undo the tick.
//!
//! Beyond dry land: the water level (0–3) picks swimming at 2 and above (`water`), a
//! ladder probe picks climbing by Source's or Quake 2's rule (`ladder`), the water jump's
//! timer its flight; slick ground and a knockback hold take the ground friction away;
//! noclip, fly, frozen and dead modes (`modes`); knockback, launches and teleports
//! (`impulse`); Source's air speed cap, auto-hop, the jump key rule, coyote time, jump
//! buffering and stepping while falling as configuration.
//!
//! After the move, the state is snapped for the network when configured (`snap`), and the
//! trigger models the tick touched, entered and left are reported (`triggers`).
//!
//! One character alone meets movers through [`Ride`] (`ride`); many characters together are
//! the next stage, [`crowd`](crate::crowd), which builds on this one.
//!
//! Guarantees: a tick never ends with the shape overlapping solid unless it started there
//! and no free spot was in reach (then it stays put and says so); the same inputs give bit-identical results
//! (no clocks, no randomness, no hashing, f32 only, no platform maths), and a state restored
//! from [`CharacterState`] continues bit for bit; no heap allocation per tick.

pub(crate) mod character;
mod command;
mod config;
pub mod games;
mod ground;
pub(crate) mod ids;
mod impulse;
mod ladder;
mod modes;
mod movers;
pub(crate) mod ride;
mod slide;
mod snap;
mod step;
pub(crate) mod tick;
pub(crate) mod tracer;
mod triggers;
mod unstuck;
mod water;
mod water_level;

pub use character::CharacterController;
pub use command::MoveCommand;
pub use config::{
    CharacterShape, ConfigError, ControllerConfig, JumpKey, LadderRule, Movement, NetworkSnap,
};
pub use ground::{Ground, GroundState};
pub use ids::{TRIGGER_RESERVE, TriggerList, TriggerReport};
pub use movers::{Mover, WorldWithMovers, carried_point};
pub use ride::Ride;
pub use tick::{
    Activity, CharacterState, MoveInput, MoveMode, MoveOutcome, ProfileState, Touch, TouchList,
    WallContacts,
};
pub use tracer::{ShapeQuery, SpeedFacts, Tracer, WorldPart};

#[cfg(doc)]
use crate::compiled::CompiledMap;
