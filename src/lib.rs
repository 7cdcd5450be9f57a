//! planeshift: FPS character collision against levels built in Quake-family editors
//! (TrenchBroom, NetRadiant, J.A.C.K.): read a `.map`, compile it into a collision world,
//! sweep shapes through it, and move characters that feel like Quake.
//!
//! # Quick start
//!
//! ```
//! use planeshift::{CharacterController, Contents, ControllerConfig, MoveInput, TraceShape, compile_map};
//! use glam::Vec3;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // Compile a level (or load a `.pbsp` written by `bspc` with `CompiledMap::from_bytes`).
//! let world = compile_map(&std::fs::read("maps/arena.map")?)?.map;
//!
//! // Sweep Quake's player box 276 units east into a wall.
//! let player = TraceShape::from_spec("box:-16,-16,-24,16,16,32")?;
//! let (from, to) = (Vec3::new(1024.0, 768.0, 32.0), Vec3::new(1300.0, 768.0, 32.0));
//! let hit = world.trace(&player, from, to, Contents::MASK_ANY_BLOCKING);
//! assert!(hit.hit());
//! assert_eq!(hit.end.x, 1152.0 - 16.0 - planeshift::STOP_DISTANCE); // 1/32 before the wall
//!
//! // Walk a character east for one 8 ms tick.
//! let mut character = CharacterController::new(ControllerConfig::default(), Vec3::new(1024.0, 1024.0, 24.0))?;
//! let outcome = character.step(&world, &MoveInput { wish: Vec3::X, ..MoveInput::default() });
//! println!("{} {:?} {}", character.position(), character.ground().state, outcome.touches.len());
//! # Ok(())
//! # }
//! ```
//!
//! # What a game does, and where it is
//!
//! The root holds what a game uses every day; one module per part holds the rest, and every
//! public item has exactly one path.
//!
//! - Load a level: [`compile_map`] ([`CompileOptions`], [`CompileOutput`], [`CompileError`])
//!   turns a `.map` into a [`CompiledMap`], which saves to and loads from a `.pbsp` file
//!   ([`CompiledMap::to_bytes`], [`CompiledMap::from_bytes`], [`LoadError`]). [`build`]: the
//!   other ways in (`.bsp` import, explicit games), the editor's checks, [`Diagnostic`]s,
//!   games and custom games; [`map`]: the `.map` reader and writer, every dialect editors
//!   write, with typed errors carrying line and column.
//! - Query it: [`CompiledMap::trace`] sweeps a [`TraceShape`] (points, spheres, upright
//!   cylinders and capsules, boxes and convex hulls) to its first impact, never inside solid
//!   ([`Trace`], which names what it hit: a [`HitTarget`]); [`Scene`] queries the world, its
//!   movers and the characters together under a [`QueryFilter`]. [`Contents`] and
//!   [`SurfaceFlags`] say what a brush and a side are. [`query`]: batches, collision groups,
//!   area queries, the limits.
//! - Move characters: [`CharacterController`] ([`ControllerConfig`]) steps Quake 3 movement
//!   on top of the sweeps, one [`MoveInput`] or [`MoveCommand`] a tick ([`MoveOutcome`]),
//!   deterministic to the bit; [`Crowd`] ([`CrowdConfig`]) steps many characters that block
//!   each other. [`movement`]: the ground, touches, triggers, the saved state
//!   ([`CharacterState`]), movers that carry, push or report who blocks them.
//! - Read the level's meaning: [`Entity`] views of the map's entities
//!   ([`CompiledMap::entities`]); [`level`]: models and their kinds, materials, the
//!   summary.
//!
//! Inside, one private module per stage, in data-flow order:
//!
//! ```text
//! .map bytes --map--> MapFile --brush--> brushes --bsp--> tree --compiled--> CompiledMap
//!                                                    --trace--> Trace --controller--> movement
//! ```
//!
//! # Features
//!
//! - `parallel` (default): [`CompiledMap::trace_batch`] uses every core (rayon).
//! - `toml`: `ControllerConfig::from_toml` and `CustomGame::from_toml`. Without it both
//!   deserialize from any serde format and are checked by [`ControllerConfig::validate`]
//!   and [`CustomGame::validate`](build::CustomGame::validate).
//!
//! Conventions: Quake map units (about an inch), Z up, right-handed; plane normals point out
//! of solid; a brush is the intersection of `{ x : n·x <= dist }` over its planes. The
//! compiler works in f64; the runtime in f32.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![deny(missing_docs)]

/// Declares a module that is public only with the unstable `internals` feature (planeshift's
/// own tests and benches use it) and crate-private otherwise.
macro_rules! internal_mod {
    ($(#[$meta:meta])* mod $name:ident;) => {
        $(#[$meta])*
        #[cfg(feature = "internals")]
        pub mod $name;
        $(#[$meta])*
        #[cfg(not(feature = "internals"))]
        #[allow(dead_code, unused_imports)]
        pub(crate) mod $name;
    };
}

/// Declares an item (a function, method, constant or re-export) that is public only with
/// the unstable `internals` feature and crate-private otherwise.
macro_rules! internal {
    ($(#[$meta:meta])* pub $($item:tt)*) => {
        $(#[$meta])*
        #[cfg(feature = "internals")]
        pub $($item)*
        $(#[$meta])*
        #[cfg(not(feature = "internals"))]
        #[allow(dead_code, unused_imports)]
        pub(crate) $($item)*
    };
}

mod bit_set;
#[cfg(test)]
mod test_maps;
#[cfg(test)]
mod test_rng;
mod threads;
internal_mod! { mod game; }
internal_mod! { mod geom; }
internal_mod! { mod patch; }
internal_mod! { mod brush; }
internal_mod! { mod bsp; }
internal_mod! { mod leak; }
internal_mod! { mod import; }
#[cfg(feature = "mesh")]
internal_mod! { mod mesh; }
internal_mod! { mod compile; }
internal_mod! { mod compiled; }
internal_mod! { mod contents; }
internal_mod! { mod controller; }
internal_mod! { mod crowd; }
internal_mod! { mod filter; }
internal_mod! { mod scene; }
internal_mod! { mod surface; }
internal_mod! { mod trace; }
internal_mod! {
    /// Every tolerance and limit, with its unit and reason.
    mod tolerance;
}

// What a game does, and the modules holding the rest of each part. Every public item has one
// path: the root's, or one module's (`tests/it/tidy_surface.rs` checks it).

// Load a level: compile a `.map` (or import a `.bsp`), or load a `.pbsp`.
pub mod build;
pub mod map;
pub use compile::{CompileError, CompileOptions, CompileOutput, compile_map};
pub use compiled::{CompiledMap, LoadError};

// Query it: sweeps and overlaps of shapes through the world, its movers and the characters.
pub mod query;
pub use contents::Contents;
pub use filter::QueryFilter;
pub use scene::Scene;
pub use surface::SurfaceFlags;
pub use trace::{HitTarget, ModelPlacement, Trace, TraceShape};

// Move characters: one controller, or a crowd that blocks itself.
pub mod movement;
pub use controller::{CharacterController, ControllerConfig, MoveCommand, MoveInput, MoveOutcome};
pub use crowd::{Crowd, CrowdConfig};

// Read the level's meaning: entities, models, materials.
pub mod level;
pub use compiled::Entity;

/// The README's Rust examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
#[cfg(doctest)]
mod doc_pages;

#[cfg(doc)]
use {build::Diagnostic, movement::CharacterState};

/// How far a sweep stops in front of the surface it hits, in map units (1/32, Quake's
/// `DIST_EPSILON`): the end of a sweep is never inside solid, and the next sweep from it
/// starts outside.
pub const STOP_DISTANCE: f32 = tolerance::SURFACE_CLIP_EPSILON;

/// Quake 3's stop distance, 1/8 unit (`SURFACE_CLIP_EPSILON`): what a sweep asks for with
/// [`CompiledMap::trace_stopping`] or [`movement::ShapeQuery::with_stop_distance`] to meet
/// the world as Quake 3's `CM_BoxTrace` does.
pub const QUAKE3_STOP_DISTANCE: f32 = tolerance::QUAKE3_STOP_DISTANCE;
