//! The level as QuakeWorld's player code sees it, through the crate's world seam: the
//! player a point through the level's own clip hull 1 (`pmovetst.c PM_PlayerMove`,
//! `PM_TestPlayerPosition`) and points through hull 0 (`PM_PointContents`).
//!
//! Takes one [`Tracer`], the level as imported from its `.bsp` (a [`CompiledMap`] keeps the
//! file's hull trees); gives [`HullTrace`] (`pmtrace_t`: fraction, end, plane normal,
//! start-solid and all-solid as `PM_PlayerMove` fills them) and the game's contents
//! numbers. Guarantees: the player's sweeps are the query option
//! [`ShapeQuery::through_clip_hull`] with hull 1, the game's own walk of its tree (a world
//! that keeps no hull trees, such as a game's own [`Tracer`], is swept by the point under
//! [`StopRule::Cross`] instead, as a world of clip hull 1's brushes wants); a start in solid
//! gives fraction 0 and no move, as the game's. The water is the world's
//! [`Tracer::contents`] (a `.bsp`'s hull-0 leaves rebuilt as brushes, the same regions as
//! the game's hull-0 tree but for points exactly on a split plane).
//!
//! [`CompiledMap`]: crate::CompiledMap

use glam::Vec3;

use super::physents;
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

/// The clip hull the player walks: qbsp's world grown by the player's box
/// (−16,−16,−24)–(16,16,32), in which the player is a point.
const PLAYER_HULL: u8 = 1;

/// A QuakeWorld level: any world (`T`, by default any [`Tracer`] behind a pointer), so
/// the controller's tick walks its own world type without dynamic calls.
pub struct QuakeWorldLevel<'w, T: Tracer + ?Sized = dyn Tracer + 'w> {
    /// The level imported from its `.bsp` ([`import_bsp`](crate::build::import_bsp)): its
    /// clip hull 1 walked for the player ([`ShapeQuery::through_clip_hull`]), its
    /// contents (hull 0, the level as drawn) for the water.
    pub world: &'w T,
}

impl<T: Tracer + ?Sized> Clone for QuakeWorldLevel<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Tracer + ?Sized> Copy for QuakeWorldLevel<'_, T> {}

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

impl<T: Tracer + ?Sized> QuakeWorldLevel<'_, T> {
    /// `PM_PlayerMove`: the player's point from `start` to `end` through hull 1.
    pub(super) fn player_move(&self, start: Vec3, end: Vec3) -> HullTrace {
        let point = TraceShape::point();
        let query = ShapeQuery::new(&point)
            .with_mask(Contents::SOLID)
            .stopped_by(StopRule::Cross)
            .through_clip_hull(PLAYER_HULL);
        let hit = self.world.trace(&query, start, end);
        let start_solid = hit.start_solid || hit.all_solid;
        let world = HullTrace {
            fraction: if start_solid { 0.0 } else { hit.fraction },
            end: hit.end,
            normal: hit.normal.unwrap_or(Vec3::ZERO),
            start_solid,
            all_solid: hit.all_solid,
        };
        physents::nearest(self.world, world, start, end)
    }

    /// `PM_TestPlayerPosition`: whether the player may stand at `at` (hull 1's point is
    /// not in solid, nor its box in another player's: `physents.rs`).
    pub(super) fn player_fits(&self, at: Vec3) -> bool {
        let point = TraceShape::point();
        let query = ShapeQuery::new(&point)
            .with_mask(Contents::SOLID)
            .stopped_by(StopRule::Cross)
            .through_clip_hull(PLAYER_HULL);
        !self.world.overlaps(&query, at) && !physents::blocked(self.world, at)
    }

    /// `PM_PointContents`: hull 0's contents at `point`, as the game numbers them.
    pub(super) fn point_contents(&self, point: Vec3) -> i32 {
        let contents = self.world.contents(point);
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
