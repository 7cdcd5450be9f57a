//! planeshift in Bevy: Quake-family levels as assets, characters moved in the fixed step,
//! and what they touched as messages.
//!
//! Takes a level file (`.map`, compiled on load; `.bsp`, imported; or `.pbsp`) through the `AssetServer`, a
//! [`Level`] entity holding its handle, and [`Character`] entities with a
//! [`CharacterInput`] each; gives, every fixed step, each character's
//! [`CharacterStatus`] and [`CharacterSnapshot`], messages ([`TriggerEntered`],
//! [`Landed`], [`Touched`]...), and a `Transform` interpolated between fixed steps.
//!
//! # The schedule
//! [`PlaneshiftPlugin`] runs in `FixedUpdate` (or the schedule it is given) in ordered sets
//! ([`PlaneshiftSystems`]): `Input` (the level, new characters, requests), `Movers`, `Step`
//! (one crowd step), `WriteBack` (status, snapshots, messages). It sets `Time<Fixed>` to the
//! controller's tick (8 ms, Quake 3's `pmove_msec`) unless told to follow the app's. Before
//! the fixed loop it latches each character's jump and crouch so a press shorter than a
//! step is seen by exactly one step; after the loop it places each `Transform` between the
//! last two fixed positions (a teleport snaps).
//!
//! # Space
//! Positions and directions are in Bevy's units and axes through [`MapSpace`]: by default
//! bevy_trenchbroom's (`(−y, z, −x) / 39.37008`, Y up, metres), so the collision lines up
//! with a bevy_trenchbroom scene of the same file. The two plugins coexist: bevy_trenchbroom
//! renders the file, this one collides and moves; brush entities spawned by both carry the
//! same classname. [`MapSpace::QUAKE`] keeps map units and axes (bit for bit).
//!
//! # Example
//! ```
//! use planeshift_bevy::headless::{headless_app, load_level};
//! use planeshift_bevy::planeshift::ControllerConfig;
//! use planeshift_bevy::{Character, CharacterStatus, Level, MapSpace, PlaneshiftPlugin};
//! let map = std::fs::read("../maps/box_room.map").unwrap();
//! let mut app = headless_app(&[("box_room.map", &map)], PlaneshiftPlugin::default());
//! let level = load_level(&mut app, "box_room.map").unwrap();
//! app.world_mut().spawn(Level(level));
//! let origin = Some(glam::Vec3::new(0.0, 0.0, 80.0));
//! let player = app.world_mut().spawn(Character { config: ControllerConfig::default(), map_origin: origin }).id();
//! for _ in 0..100 {
//!     app.update(); // one 8 ms fixed step each
//! }
//! let status = app.world().get::<CharacterStatus>(player).unwrap();
//! assert_eq!(status.steps, 100);
//! assert_eq!(status.ground, planeshift_bevy::planeshift::movement::GroundState::Walkable); // fell and landed
//! assert_eq!(*app.world().resource::<MapSpace>(), MapSpace::TRENCHBROOM);
//! ```

use std::time::Duration;

use bevy_app::{App, FixedUpdate, Plugin, RunFixedMainLoop, RunFixedMainLoopSystems};
use bevy_asset::AssetApp;
use bevy_ecs::intern::Interned;
use bevy_ecs::schedule::{IntoScheduleConfigs, ScheduleLabel, SystemSet};
use bevy_time::{Fixed, Time};
use planeshift::{ControllerConfig, CrowdConfig};

mod assets;
mod character;
#[cfg(feature = "debug")]
mod debug;
pub mod headless;
#[cfg(feature = "debug")]
pub use debug::PlaneshiftDebugPlugin;
#[cfg(feature = "mesh")]
mod mesh_assets;
mod messages;
pub mod prelude;
mod query;
mod shape;
mod simulation;
mod space;

pub use assets::{BspLoader, LevelAsset, LevelLoadError, MapLoader, MapLoaderSettings, PbspLoader};
pub use character::{
    Character, CharacterAction, CharacterInput, CharacterRequest, CharacterSnapshot,
    CharacterStatus,
};
#[cfg(feature = "mesh")]
pub use mesh_assets::{MeshLoader, MeshLoaderSettings};
pub use messages::{
    Jumped, Landed, MoverBlocked, SpawnedOverlapping, Stepped, Touched, TriggerEntered,
    TriggerLeft, TriggerTouched,
};
pub use planeshift;
pub use shape::LevelShape;
// The Bevy crates the plugin is built with, so a game can name anything of theirs without
// pinning a version of its own (the prelude names the common items).
pub use query::{LevelAreaHit, LevelHit, LevelQuery};
pub use simulation::{BrushEntity, FixedPositions, Level, LevelMover, Simulation};
pub use space::{MapSpace, QUAKE_UNITS_PER_METRE};
pub use {bevy_app, bevy_asset, bevy_ecs, bevy_time, bevy_transform};

/// The plugin's ordered system sets in its fixed schedule.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlaneshiftSystems {
    /// The level, new and removed characters, requests.
    Input,
    /// Movers follow their entities' transforms, carrying and pushing characters.
    Movers,
    /// One crowd step.
    Step,
    /// Status, snapshots, fixed positions and messages.
    WriteBack,
}

/// The plugin: assets, the fixed step, messages and interpolation.
pub struct PlaneshiftPlugin {
    /// The schedule the step runs in (`FixedUpdate` by default).
    pub schedule: Interned<dyn ScheduleLabel>,
    /// Set `Time<Fixed>` to the controller's tick (true by default); false follows the app's.
    pub set_fixed_timestep: bool,
    /// The tick the fixed timestep is set from (the default configuration's: 8 ms).
    pub tick_seconds: f32,
    /// How characters meet each other.
    pub crowd: CrowdConfig,
    /// Step the crowd on every core (with the `parallel` feature).
    pub parallel: bool,
    /// How map units and axes become Bevy's.
    pub space: MapSpace,
    /// Characters collide with the level's movers (true by default). The replay contract of
    /// `fps_movement` sweeps the static world alone: its example turns this off.
    pub movers_collide: bool,
}

impl Default for PlaneshiftPlugin {
    fn default() -> Self {
        PlaneshiftPlugin {
            schedule: FixedUpdate.intern(),
            set_fixed_timestep: true,
            tick_seconds: ControllerConfig::default().tick,
            crowd: CrowdConfig::default(),
            parallel: false,
            space: MapSpace::default(),
            movers_collide: true,
        }
    }
}

impl Plugin for PlaneshiftPlugin {
    fn build(&self, app: &mut App) {
        use simulation::*;
        app.init_asset::<LevelAsset>()
            .init_asset_loader::<MapLoader>()
            .init_asset_loader::<PbspLoader>()
            .init_asset_loader::<BspLoader>();
        #[cfg(feature = "mesh")]
        app.init_asset_loader::<MeshLoader>();
        app.insert_resource(self.space)
            .insert_resource(Simulation {
                crowd_config: self.crowd,
                parallel: self.parallel,
                movers_collide: self.movers_collide,
                ..Simulation::default()
            })
            .add_message::<CharacterRequest>()
            .add_message::<TriggerEntered>()
            .add_message::<TriggerTouched>()
            .add_message::<TriggerLeft>()
            .add_message::<Landed>()
            .add_message::<Jumped>()
            .add_message::<Stepped>()
            .add_message::<Touched>()
            .add_message::<MoverBlocked>()
            .add_message::<SpawnedOverlapping>();
        if self.set_fixed_timestep {
            let micros = (f64::from(self.tick_seconds) * 1e6).round() as u64;
            app.insert_resource(Time::<Fixed>::from_duration(Duration::from_micros(micros)));
        }
        app.configure_sets(
            self.schedule,
            (
                PlaneshiftSystems::Input,
                PlaneshiftSystems::Movers,
                PlaneshiftSystems::Step,
                PlaneshiftSystems::WriteBack,
            )
                .chain(),
        )
        .add_systems(
            self.schedule,
            (
                (load_level, add_characters, apply_requests)
                    .chain()
                    .in_set(PlaneshiftSystems::Input),
                move_movers.in_set(PlaneshiftSystems::Movers),
                step_crowd.in_set(PlaneshiftSystems::Step),
                write_back.in_set(PlaneshiftSystems::WriteBack),
            ),
        )
        .add_systems(
            RunFixedMainLoop,
            (
                latch_input.in_set(RunFixedMainLoopSystems::BeforeFixedMainLoop),
                interpolate.in_set(RunFixedMainLoopSystems::AfterFixedMainLoop),
            ),
        );
    }
}

/// The package README's example, compiled as a doc test (`no_run`: it opens no window).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
