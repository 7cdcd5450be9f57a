//! `pmtrace_t`: the answer of QuakeWorld's `PM_PlayerMove`, shared by the level's walk
//! (`world.rs`) and the other players past it (`physents.rs`).
//!
//! Takes a hull walk's answer; gives it as the game's player code reads it. Guarantees:
//! plain data; all-solid counts as start-solid, whose fraction is 0, as the game's.

use glam::Vec3;

use crate::trace::HullWalk;

/// `pmtrace_t` as `PM_PlayerMove` gives it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct HullTrace {
    /// 1 when nothing was hit; 0 when the start is in solid.
    pub(super) fraction: f32,
    /// Where the point stopped (the end when nothing was hit).
    pub(super) end: Vec3,
    /// The plane hit, facing the mover; zero when nothing was hit (the game clears it).
    pub(super) normal: Vec3,
    /// The start is in solid.
    pub(super) start_solid: bool,
    /// The whole sweep is in solid.
    pub(super) all_solid: bool,
}

impl HullTrace {
    /// The walk's answer as the seam then `PM_PlayerMove` turn it ([`HullWalk::to_trace`],
    /// then all-solid counted as start-solid, whose fraction is 0): the plane's normal only
    /// when not all-solid, the walk's end.
    pub(super) fn of_walk(walk: &HullWalk) -> HullTrace {
        let start_solid = walk.start_solid || walk.all_solid;
        HullTrace {
            fraction: if start_solid { 0.0 } else { walk.fraction },
            end: walk.end,
            normal: walk
                .plane
                .filter(|_| !walk.all_solid)
                .map_or(Vec3::ZERO, |p| p.normal),
            start_solid,
            all_solid: walk.all_solid,
        }
    }
}
