//! What characters met in a fixed step, as Bevy messages.
//!
//! Takes nothing; gives the message types the write-back system fills from each step's
//! outcomes ([`crate::simulation`]). Guarantees: one message per event per step, in
//! increasing character id order, so two runs with the same inputs read the same messages.

use bevy_ecs::entity::Entity;
use bevy_ecs::message::Message;
use glam::Vec3;
use planeshift::{SurfaceFlags, level::MaterialId};

/// A character entered a trigger model this step.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TriggerEntered {
    /// The character.
    pub character: Entity,
    /// The trigger's model index in the level.
    pub model: usize,
    /// The trigger's brush entity, once the level spawned it.
    pub trigger: Option<Entity>,
}

/// A character touched a trigger model this step (every step it is inside).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TriggerTouched {
    /// The character.
    pub character: Entity,
    /// The trigger's model index.
    pub model: usize,
    /// The trigger's brush entity.
    pub trigger: Option<Entity>,
}

/// A character left a trigger model this step.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TriggerLeft {
    /// The character.
    pub character: Entity,
    /// The trigger's model index.
    pub model: usize,
    /// The trigger's brush entity.
    pub trigger: Option<Entity>,
}

/// A character landed this step.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct Landed {
    /// The character.
    pub character: Entity,
    /// How fast it was falling, Bevy units per second (positive).
    pub speed: f32,
}

/// A character jumped this step.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Jumped {
    /// The character.
    pub character: Entity,
}

/// A character stepped up a riser this step.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct Stepped {
    /// The character.
    pub character: Entity,
    /// The height climbed, Bevy units.
    pub height: f32,
}

/// A character touched a surface or another character this step: footsteps, impacts.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct Touched {
    /// The character.
    pub character: Entity,
    /// The surface's normal, Bevy axes.
    pub normal: Vec3,
    /// Where the character was after the step, Bevy units.
    pub at: Vec3,
    /// The model touched (0 the world).
    pub model: usize,
    /// The other character, when one was touched.
    pub other: Option<Entity>,
    /// The surface's flags.
    pub surface: SurfaceFlags,
    /// The surface's material.
    pub material: Option<MaterialId>,
}

/// A mover could not push a character out of its way: it stayed where it was.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoverBlocked {
    /// The mover's brush entity.
    pub mover: Entity,
    /// The character in the way.
    pub character: Entity,
}

/// A character started a step overlapping others (spawned into them).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpawnedOverlapping {
    /// The character.
    pub character: Entity,
    /// One character it overlapped.
    pub other: Entity,
}
