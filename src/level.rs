//! What a compiled level means, beyond its [`Entity`](crate::Entity) views: its models and
//! their kinds, its player spawns with their facing, its materials, its summary and compile statistics, and the `.pbsp` file's
//! identity.
//!
//! Takes nothing of its own: it names, once each, the items of the compiled world a game
//! reads. Guarantees: every item here has this one public path.

pub use crate::compiled::{
    CompileStats, EXTENSION, FORMAT_VERSION, MAGIC, MaterialId, Model, ModelKind, WorldSummary,
};
pub use crate::game::spawns::{SpawnPoint, SpawnRole};
