//! What a crowd is made of, below its step and its parallel plan: the configuration, each
//! member and its outcome, the report types, and the rules both steps share (who is solid,
//! what a character is made of, the shoves a tick gives).
//!
//! Takes nothing of the crowd's stepping; gives [`CrowdConfig`], [`CrowdOutcome`],
//! [`MoverPush`], [`CrowdSchedule`], the member record and the shared rules. Guarantees: the
//! sequential step (`crowd.rs`) and the parallel plan (`schedule.rs`) read these same
//! definitions, so they cannot drift apart.

use glam::Vec3;

use super::arrival::Arrival;
use super::bodies::CharacterIds;
use crate::contents::Contents;
use crate::controller::character::CharacterController;
use crate::controller::tick::{MoveMode, MoveOutcome, TouchList};
use crate::trace::HitTarget;

/// How characters of a crowd meet.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CrowdConfig {
    /// Characters block each other (default). Off, each moves through the world alone, as
    /// if the others were not there (for comparisons, or a game that separates them itself).
    pub collide: bool,
    /// `None` (default): characters block each other and never push (Quake 1, 2 and 3).
    /// `Some(share)`: a character walking into another gives it this share (clamped to
    /// [0, 1]) of its speed into it, along the contact's horizontal normal; the other then
    /// moves by its own sweeps (Jolt's `mCanPushCharacter`), so pushing never makes an
    /// overlap.
    pub push: Option<f32>,
    /// What a character added, respawned or teleported into others does to them
    /// ([`Arrival`]): separated from them (default) or telefragging them.
    pub arrival: Arrival,
}

impl Default for CrowdConfig {
    fn default() -> Self {
        CrowdConfig {
            collide: true,
            push: None,
            arrival: Arrival::Separate,
        }
    }
}

/// What one tick did to one character of a crowd.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CrowdOutcome {
    /// The character's own tick ([`CharacterController::step`]); its touches and ground
    /// name the characters met (`Touch::character`, `Ground::character`).
    pub tick: MoveOutcome,
    /// The characters this one overlapped when the tick began (spawned or teleported into
    /// each other): what a game that telefrags kills (Quake 3 `G_KillBox`).
    pub overlapped: CharacterIds,
    /// How far separation moved this one before its move, when it overlapped a character
    /// of a lower id and a free spot was in reach.
    pub separated: Option<Vec3>,
    /// The characters this one still overlaps when the tick ends: only those no free spot
    /// could separate it from (they pass through each other until they part).
    pub overlapping: CharacterIds,
}

/// What a mover's move did to a crowd ([`Crowd::push_mover`](super::Crowd::push_mover); Quake 3 `G_MoverPush`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoverPush {
    /// Every character the mover met was carried or pushed out of its way (or none was
    /// involved): how many of each.
    Moved {
        /// Characters carried (standing on the mover, or on a character carried).
        carried: usize,
        /// Characters pushed out of the mover's way.
        pushed: usize,
    },
    /// Character `character` could not be moved out of the mover's way: every character
    /// this call moved is back where it was (Quake 3 restores them in reverse order). The
    /// game puts the mover back and runs its blocked handler, or keeps a crusher moving
    /// and kills `character`.
    Blocked {
        /// The character in the way.
        character: u32,
    },
}

/// How the last [`Crowd::step_parallel`](super::Crowd::step_parallel) ran: its plan of waves (`schedule.rs`). All zero
/// after a sequential step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CrowdSchedule {
    /// Characters stepped by the plan.
    pub characters: usize,
    /// Pairs of characters whose scheduled reaches meet (neighbours: one waits for the
    /// other).
    pub pairs: usize,
    /// Waves run one after another (characters of a wave step in parallel): 1 when no two
    /// characters are near, up to the characters when each waits for the one before.
    pub waves: usize,
    /// The most characters in one wave.
    pub widest: usize,
    /// The most characters in one island (linked through neighbours): what stepping each
    /// island in order on one thread would leave to the slowest thread.
    pub largest_island: usize,
    /// Threads of the rayon pool the step ran in.
    pub threads: usize,
    /// A tick left its scheduled reach: the parallel result was dropped and the tick redone
    /// in id order (the same bits, sequential time).
    pub redone: bool,
}

/// One character of a crowd.
#[derive(Clone, Debug)]
pub(crate) struct Member {
    pub(crate) id: u32,
    pub(crate) controller: CharacterController,
    pub(crate) outcome: CrowdOutcome,
    /// The characters it overlapped after separation, passed through this tick (all of
    /// them; the buffer keeps its capacity between ticks).
    pub(crate) ghosts: Vec<u32>,
    /// It may overlap another: the game changed it since the last tick (`insert`,
    /// `update`), or it ended the last tick overlapping. Only such characters are checked
    /// when a tick begins: the others cannot overlap anyone, since every move is a sweep.
    pub(crate) watch: bool,
}

/// Whether a character in `mode` is met by others (and meets them): walking and frozen
/// ones are; noclip, fly (spectators) and any other mode pass through.
pub(crate) fn is_solid(mode: MoveMode) -> bool {
    matches!(mode, MoveMode::Walk | MoveMode::Frozen)
}

/// What a character in `mode` is made of: [`Contents::BODY`] when solid ([`is_solid`]),
/// [`Contents::CORPSE`] when dead (shots meet it, movement passes it: Quake 3's
/// `CONTENTS_CORPSE`), nothing otherwise (noclip, fly: a spectator meets no query).
pub(crate) fn body_contents(mode: MoveMode) -> Contents {
    match mode {
        MoveMode::Dead => Contents::CORPSE,
        mode if is_solid(mode) => Contents::BODY,
        _ => Contents::EMPTY,
    }
}

/// The shoves a character that wanted velocity `wanted` gives the characters its tick
/// touched (`touches`), in order: `f(target, velocity change)`, each target once, only
/// those walked into. The target applies it if it is solid.
pub(crate) fn shoves(touches: &TouchList, wanted: Vec3, share: f32, mut f: impl FnMut(u32, Vec3)) {
    let mut pushed = CharacterIds::default();
    for touch in touches.as_slice() {
        let HitTarget::Character(other) = touch.target else {
            continue;
        };
        let Some(n) = touch.normal.truncate().try_normalize() else {
            continue;
        };
        let into = wanted.truncate().dot(n);
        if into >= 0.0 || pushed.contains(other as usize) {
            continue;
        }
        pushed.insert(other);
        f(other, n.extend(0.0) * (into * share));
    }
}
