//! Moving characters, beyond [`CharacterController`](crate::CharacterController),
//! [`ControllerConfig`](crate::ControllerConfig), [`MoveInput`](crate::MoveInput),
//! [`MoveCommand`](crate::MoveCommand), [`MoveOutcome`](crate::MoveOutcome) and
//! [`Crowd`](crate::Crowd): the configuration's parts, the ground, touches and triggers a
//! tick reports, the saved state, the world a character moves through ([`Tracer`]) with its
//! movers or a crowd's bodies, and the crowd's details.
//!
//! Takes nothing of its own: it names, once each, the items of the controller and crowd
//! stages a game needs beside the daily ones at the root. Guarantees: every item here has
//! this one public path.

pub use crate::controller::{
    Activity, CharacterShape, CharacterState, ConfigError, Ground, GroundState, JumpKey,
    LadderRule, MoveMode, Movement, Mover, NetworkSnap, ProfileState, Ride, ShapeQuery, SpeedFacts,
    TRIGGER_RESERVE, Touch, TouchList, Tracer, TriggerList, TriggerReport, WallContacts, WorldPart,
    WorldWithMovers, carried_point,
};
pub use crate::crowd::{
    Arrival, Bodies, CharacterIds, CrowdOutcome, CrowdSchedule, MAX_CONTACTS, MoverPush,
    PARALLEL_MIN_CHARACTERS, Telefrag, WorldWithBodies,
};
