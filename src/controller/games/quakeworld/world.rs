//! The level as QuakeWorld's player code sees it, through the crate's world seam: the
//! player a point through clip hull 1 (`pmovetst.c PM_PlayerMove`, `PM_TestPlayerPosition`)
//! and points through hull 0 (`PM_PointContents`).
//!
//! Takes two [`Tracer`]s: the level's hull-1 world (a point swept through it goes where the
//! player's box goes: [`import_bsp_clip_hull`](crate::build::import_bsp_clip_hull)) and its
//! hull-0 world (its liquids); gives [`HullTrace`] (`pmtrace_t`: fraction, end, plane
//! normal, start-solid and all-solid as `PM_PlayerMove` fills them) and the game's
//! contents numbers. Guarantees: the sweep is the seam's point sweep, blocked by solid
//! alone as a clip hull is and stopped by [`StopRule::Cross`] as the game's hull check is; a start in solid gives fraction 0 and no move, as the game's.

use glam::Vec3;

use crate::contents::Contents;
use crate::controller::{ShapeQuery, Tracer};
use crate::trace::{StopRule, TraceShape};

/// `CONTENTS_EMPTY` (`bspfile.h`).
pub(super) const CONTENTS_EMPTY: i32 = -1;
/// `CONTENTS_SOLID`.
pub(super) const CONTENTS_SOLID: i32 = -2;
/// `CONTENTS_WATER`; slime (−4), lava (−5) and sky (−6) are below it, and
/// `PM_CatagorizePosition` counts everything `<=` it as liquid.
pub(super) const CONTENTS_WATER: i32 = -3;
/// `CONTENTS_SLIME`.
pub(super) const CONTENTS_SLIME: i32 = -4;
/// `CONTENTS_LAVA`.
pub(super) const CONTENTS_LAVA: i32 = -5;
/// `CONTENTS_SKY`.
pub(super) const CONTENTS_SKY: i32 = -6;

/// A QuakeWorld level: the player's hull and the points' hull.
#[derive(Clone, Copy)]
pub struct QuakeWorldLevel<'w> {
    /// Clip hull 1, the world grown by the player's box (−16,−16,−24)–(16,16,32): the
    /// player is a point in it.
    pub player_hull: &'w dyn Tracer,
    /// Hull 0, the level as drawn: where the water is.
    pub point_hull: &'w dyn Tracer,
}

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

impl QuakeWorldLevel<'_> {
    /// `PM_PlayerMove`: the player's point from `start` to `end` through hull 1.
    pub(super) fn player_move(&self, start: Vec3, end: Vec3) -> HullTrace {
        let point = TraceShape::point();
        let query = ShapeQuery::new(&point)
            .with_mask(Contents::SOLID)
            .stopped_by(StopRule::Cross);
        let hit = self.player_hull.trace(&query, start, end);
        let start_solid = hit.start_solid || hit.all_solid;
        HullTrace {
            fraction: if start_solid { 0.0 } else { hit.fraction },
            end: hit.end,
            normal: hit.normal.unwrap_or(Vec3::ZERO),
            start_solid,
            all_solid: hit.all_solid,
        }
    }

    /// `PM_TestPlayerPosition`: whether the player may stand at `at` (hull 1's point is
    /// not in solid).
    pub(super) fn player_fits(&self, at: Vec3) -> bool {
        let point = TraceShape::point();
        let query = ShapeQuery::new(&point)
            .with_mask(Contents::SOLID)
            .stopped_by(StopRule::Cross);
        !self.player_hull.overlaps(&query, at)
    }

    /// `PM_PointContents`: hull 0's contents at `point`, as the game numbers them.
    pub(super) fn point_contents(&self, point: Vec3) -> i32 {
        let contents = self.point_hull.contents(point);
        if contents.intersects(Contents::SOLID) {
            CONTENTS_SOLID
        } else if contents.intersects(Contents::WATER) {
            CONTENTS_WATER
        } else if contents.intersects(Contents::SLIME) {
            CONTENTS_SLIME
        } else if contents.intersects(Contents::LAVA) {
            CONTENTS_LAVA
        } else if contents.intersects(Contents::SKY) {
            CONTENTS_SKY
        } else {
            CONTENTS_EMPTY
        }
    }
}
