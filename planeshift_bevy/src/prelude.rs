//! Everything a game's code names, in one `use planeshift_bevy::prelude::*;`: the plugin's
//! items, the library's that a game writes, and the `bevy_*` items a headless or windowed app
//! needs, re-exported from the exact Bevy crates the plugin was built with.
//!
//! Takes nothing; gives names. Guarantees: every `bevy_*` item here is the plugin's own
//! version (`=0.20.1`), so a game that uses only the prelude (and the crates re-exported at
//! the package's root: `bevy_app`, `bevy_ecs`...)
//! cannot mix two Bevy versions.

pub use bevy_app::{App, FixedUpdate, Plugin, PostUpdate, PreUpdate, Startup, Update};
pub use bevy_asset::{AssetServer, Assets, Handle};
pub use bevy_ecs::prelude::*;
pub use bevy_ecs::system::RunSystemOnce;
pub use bevy_time::{Fixed, Time};
pub use bevy_transform::components::{GlobalTransform, Transform};
pub use glam::{Quat, Vec3};

pub use planeshift::level::{SpawnPoint, SpawnRole};
pub use planeshift::movement::{Activity, GroundState, MoveMode};
pub use planeshift::{CompiledMap, Contents, ControllerConfig, MoveCommand, QueryFilter};

pub use crate::headless::{headless_app, load_level};
pub use crate::{
    Character, CharacterAction, CharacterInput, CharacterRequest, CharacterSnapshot,
    CharacterStatus, FixedPositions, Jumped, Landed, Level, LevelAsset, LevelHit, LevelQuery,
    LevelShape, MapSpace, PlaneshiftPlugin, PlaneshiftSystems, Simulation, Stepped, Touched,
    TriggerEntered, TriggerLeft, TriggerTouched,
};
