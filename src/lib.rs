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
//! # The pipeline
//!
//! One module per stage, in data-flow order:
//!
//! ```text
//! .map bytes --map--> MapFile --brush--> brushes --bsp--> tree --compiled--> CompiledMap
//!                                                    --trace--> Trace --controller--> movement
//! ```
//!
//! - [`map`]: the `.map` reader ([`parse_map`]), every dialect editors write, with typed
//!   errors carrying line and column.
//! - [`compile`]: [`compile_map`], the whole compile, with [`Diagnostic`]s for what it
//!   merged, dropped or rejected.
//! - [`compiled`]: [`CompiledMap`], the validated world and its `.pbsp` file
//!   ([`CompiledMap::to_bytes`], [`CompiledMap::from_bytes`]), models, point contents.
//! - [`trace`]: sweeps of points, spheres, upright cylinders and capsules, boxes and convex
//!   hulls ([`TraceShape`]), first impact, never inside solid ([`Trace`]).
//! - [`controller`]: [`CharacterController`], Quake 3 movement on top of the sweeps,
//!   deterministic to the bit, its state serializable ([`CharacterState`]); [`Crowd`], many
//!   characters that block each other, and movers that carry, push or report who blocks
//!   them.
//! - `view` (feature `view`): a top-down drawing of a world and its sweeps into a pixmap.
//!
//! # Features
//!
//! - `parallel` (default): [`CompiledMap::trace_batch`] uses every core (rayon).
//! - `toml`: `ControllerConfig::from_toml` and `CustomGame::from_toml`. Without it both
//!   deserialize from any serde format and are checked by [`ControllerConfig::validate`]
//!   and [`CustomGame::validate`].
//! - `view`: the `view` module (tiny-skia, png); `viewer`: the windowed examples (winit,
//!   pixels).
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
pub mod import;
pub mod map;
#[cfg(test)]
mod test_rng;
mod threads;
internal_mod! { mod game; }
internal_mod! { mod geom; }
internal_mod! { mod patch; }
internal_mod! { mod brush; }
internal_mod! { mod bsp; }
internal_mod! { mod leak; }
pub mod compile;
pub mod compiled;
pub mod contents;
pub mod controller;
pub mod crowd;
pub mod filter;
pub mod scene;
pub mod surface;
pub mod trace;
#[cfg(feature = "view")]
pub mod view;
internal_mod! {
    /// Every tolerance and limit, with its unit and reason.
    mod tolerance;
}

pub use compile::{
    BrushCheck, CompileError, CompileOptions, CompileOutput, Diagnostic, DiagnosticKind, Leak,
    Severity, check_brushes, check_brushes_for, compile_level, compile_map, compile_map_with,
    import_bsp,
};
pub use compiled::{CompiledMap, Entity, LoadError, MaterialId, Model, ModelKind, WorldSummary};
pub use contents::Contents;
pub use controller::{
    CharacterController, CharacterShape, CharacterState, ConfigError, ControllerConfig, Ground,
    GroundState, MoveInput, MoveOutcome, Ride, Touch, Tracer, TriggerReport, WorldWithMovers,
};
pub use crowd::{Bodies, Crowd, CrowdConfig, CrowdOutcome, MoverPush, WorldWithBodies};
pub use game::{
    CustomGame, CustomGameError, EntityClass, EntityRule, FaceCombine, Game, LiquidKind,
    Quake2TextureDefaults, Quake2TextureError, Quake2Textures, RuleList, RuleProblem, TextureRule,
    builtin_quake2_defaults, wal_defaults,
};
pub use map::{MapFile, ParseError, parse_map};
pub use surface::SurfaceFlags;
pub use trace::{ModelPlacement, ShapeKind, ShapeSpecError, Trace, TraceQuery, TraceShape};

/// The README's Rust examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
#[cfg(doctest)]
mod doc_pages;

/// The largest size or coordinate of a shape, relative to its reference point, in map
/// units: the shape constructors refuse more.
pub const MAX_SHAPE_EXTENT: f32 = tolerance::MAX_SHAPE_EXTENT;

/// The most points a convex hull shape may have.
pub const MAX_HULL_POINTS: usize = tolerance::MAX_HULL_POINTS;

/// The largest coordinate a sweep may start or end at, in map units: beyond it (or not
/// finite) a sweep answers start-solid and all-solid at its start.
pub const MAX_COORD: f32 = tolerance::MAX_COMPILED_COORD;

/// How far a sweep stops in front of the surface it hits, in map units (1/32, Quake's
/// `DIST_EPSILON`): the end of a sweep is never inside solid, and the next sweep from it
/// starts outside.
pub const STOP_DISTANCE: f32 = tolerance::SURFACE_CLIP_EPSILON;
