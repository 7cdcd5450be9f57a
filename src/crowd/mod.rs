//! Stage 7: many characters in one world: the broadphase, the schedule, separation and
//! pushing.
//!
//! Takes [`CharacterController`](crate::controller::CharacterController)s (stage 6, one
//! character's movement) and a [`Tracer`](crate::controller::Tracer) for the world; gives
//! a [`Crowd`] that steps them together in id order, each sweep also meeting the others'
//! shapes exactly (`trace/body.rs`).
//!
//! - `bodies.rs`: [`Bodies`], the characters' shapes behind a hashed grid broadphase, and
//!   [`WorldWithBodies`], the tracer that meets them (a game stepping its characters itself
//!   uses these two);
//! - `along.rs`: the bodies a sweep may touch, looked for along it (the scene's queries:
//!   every body when they are up to a few hundred, else the fine grid, a coarse one or
//!   every body, whichever its estimate finds cheapest);
//! - `lanes.rs`: the bodies' bounds axis by axis, four to a SIMD block in space order, for
//!   `along.rs`'s scan of every body;
//! - `arrival.rs`: what a character arriving onto others does ([`Arrival`]: separated
//!   or telefragging, [`Telefrag`]) and the floods that separate a pile of arrivals in one
//!   tick, resumed arrival after arrival;
//! - `members.rs`: what the crowd keeps per member ([`CrowdConfig`], [`CrowdOutcome`],
//!   [`CrowdSchedule`], [`MoverPush`]);
//! - `stepping.rs`: [`Crowd`]: the serial step, separation of characters spawned into each
//!   other, and pushing a crowd out of a mover's way or naming who blocks it;
//! - `schedule.rs` (feature `parallel`): the parallel step's waves, the same bits as the
//!   serial one.
//!
//! Guarantees: characters that do not overlap when a tick begins do not overlap when it
//! ends; results never depend on the order characters were added or the thread count; no
//! heap allocation per tick. Imports go one way: `stepping.rs` and `schedule.rs` use
//! `members.rs` and `bodies.rs`, which use neither; `along.rs` uses `bodies.rs` and
//! `lanes.rs`, `bodies.rs` uses `lanes.rs`, which uses neither.

mod along;
mod arrival;
mod bodies;
mod lanes;
mod members;
#[cfg(feature = "parallel")]
mod schedule;
mod stepping;

pub use arrival::{Arrival, Telefrag};
pub use bodies::{Bodies, CharacterIds, MAX_CONTACTS, WorldWithBodies};
pub use members::{CrowdConfig, CrowdOutcome, CrowdSchedule, MoverPush};
pub use stepping::{Crowd, PARALLEL_MIN_CHARACTERS};
