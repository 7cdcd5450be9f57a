//! The level as QuakeWorld's player code sees it, through the crate's world seam: the
//! player a point through the level's own clip hull 1 (`pmovetst.c PM_PlayerMove`,
//! `PM_TestPlayerPosition`) and points through hull 0 (`PM_PointContents`).
//!
//! Takes one [`Tracer`], the level as imported from its `.bsp` (a [`CompiledMap`] keeps the
//! file's hull trees); gives [`HullTrace`] (`pmtrace_t`: fraction, end, plane normal,
//! start-solid and all-solid as `PM_PlayerMove` fills them) and the game's contents
//! numbers. Guarantees: the player's sweeps are the query option
//! [`ShapeQuery::through_clip_hull`] with hull 1, the game's own walk of its point through
//! its tree, and the query's shape is hull 1's box (−16, −16, −24)–(16, 16, 32) about the
//! origin (`physents::body`): a world that keeps no hull trees (a level compiled from a
//! `.map`, a Quake 2 or Quake 3 `.bsp`, a mesh) sweeps that box through its brushes with
//! planeshift's exact sweep, stopping 1/32 in front as the hull walk does
//! (`DIST_EPSILON`): the space the hull would be had qbsp grown those brushes, so the
//! player's box never enters a wall there either (such a level was once swept by the
//! origin alone, the box standing 16 units into walls and 24 into floors); a start in
//! solid gives fraction 0 and no move, as the game's. The water is the world's
//! [`Tracer::contents`] (a `.bsp`'s hull-0 leaves rebuilt as brushes, the same regions as
//! the game's hull-0 tree but for points exactly on a split plane).
//!
//! [`CompiledMap`]: crate::CompiledMap

use glam::Vec3;

use super::physents;
use super::pmtrace::HullTrace;
use crate::CompiledMap;
use crate::compiled::HULL_CONTENTS_SOLID;
use crate::contents::Contents;
use crate::controller::{ShapeQuery, Tracer};
use crate::trace::{HullNear, Trace, TraceShape};

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

/// Whether `world` walks clip hull 1 for the player: the map it names keeps the hull. A
/// world that names no map is taken to sweep the box through its brushes.
fn walks_hull<T: Tracer + ?Sized>(world: &T) -> bool {
    world
        .speed_facts()
        .map
        .is_some_and(|map| map.clip_hulls().head(0, usize::from(PLAYER_HULL)).is_some())
}

/// The query of the player's sweeps and position tests through the world, `player` being
/// its body ([`physents::body`]): a world that walks clip hull 1 takes the shape as the
/// hull's point ([`ShapeQuery::through_clip_hull`]); one that keeps no hull sweeps the box
/// through its brushes, the same space the hull would be.
fn hull_query(player: &TraceShape) -> ShapeQuery<'_> {
    ShapeQuery::new(player)
        .with_mask(Contents::SOLID)
        .through_clip_hull(PLAYER_HULL)
}

/// A QuakeWorld level: any world (`T`, by default any [`Tracer`] behind a pointer), so
/// the controller's tick walks its own world type without dynamic calls.
pub struct QuakeWorldLevel<'w, T: Tracer + ?Sized = dyn Tracer + 'w> {
    /// The level imported from its `.bsp` ([`import_bsp`](crate::build::import_bsp)): its
    /// clip hull 1 walked for the player ([`ShapeQuery::through_clip_hull`]), its
    /// contents (hull 0, the level as drawn) for the water.
    pub world: &'w T,
    /// When the world is one compiled map and nothing else
    /// ([`SpeedFacts::moves_nothing`](crate::controller::SpeedFacts::moves_nothing)) that
    /// keeps hull 1: that map and the subtree of its hull 1 serving the tick's region
    /// ([`QuakeWorldLevel::near`]), walked directly (the seam would walk the same tree from
    /// its head, with the same answer).
    near: Option<(&'w CompiledMap, HullNear)>,
    /// The contents id of the compiled map whose point contents are the world's
    /// ([`SpeedFacts::contents_are_map`](crate::controller::SpeedFacts::contents_are_map)),
    /// for [`QuakeWorldMemo`]'s kept sample.
    contents_map: Option<u64>,
}

/// How far a sweep through a level without clip hull 1 starts beyond the stop distance off
/// the plane it met at its start, when the move runs along that plane (approaching it by
/// less than this) or the box starts nearer the plane than the stop distance, in map units:
/// 1/256. The exact sweep stops a box within 1/32 of a plane as soon as it approaches it,
/// and the f32 distances of a move that runs exactly along a plane round either way by up
/// to a few thousandths at a level's coordinates; the game's hull walk stops only a point
/// that crosses a plane. Unlifted, `PM_FlyMove` met that plane at fraction 0 in each of its
/// bumps and a falling player hung in the air beside a wall (64 bots × 20,000 ticks, seed
/// 11: 131 stuck seconds over the ten shared Quake 2 and 3 files; lifted by this alone, 3,
/// one bot of am_underworks whose box was 0.014 off a wall). Lifted, the move is swept
/// again from the lifted start: exact again, so never inside, and the player ends at most
/// the stop distance and this much farther from the wall.
const WALL_LIFT: f32 = 1.0 / 256.0;

/// How much nearer than the stop distance a box may start to the plane it met at fraction 0
/// before the start is lifted back out to that distance (plus [`WALL_LIFT`]), in map units:
/// 1/256, above the f32 rounding of a plane distance at a level's coordinates (1/1024 at
/// 8,192). A box gets that near by rounding: a move along a plane in front of it, or along
/// another player's box, that approaches it by less than its distances round passes, so a
/// long slide can creep toward the plane (am_icyhell, seed 11: a box within 2·10⁻⁵ of a wall
/// it slid along, where the sweep's verdict flips with each rounding), and a start already
/// nearer than the stop distance meets the plane again at fraction 0 however the move runs
/// (am_underworks's bot above). The lift is itself swept, with the other players in the
/// world, and taken as far as it goes, so it never moves the box into anything: measured
/// over 64 bots × 20,000 ticks, seeds 11, 7 and 3, on the ten shared files without a hull,
/// it leaves 0 stuck seconds where 1/256 alone left 5, and 3 overlapping pair-ticks where
/// it left 2 (two boxes touching exactly, the judge's gap 0 on one axis).
const DRIFT_TOLERANCE: f32 = 1.0 / 256.0;

/// What one QuakeWorld command may reuse from the commands before it: answers that are
/// pure functions of inputs that often repeat. A command starts where the last ended
/// (unless nudged), so `PM_CatagorizePosition`'s ground trace and feet sample at its start
/// are the ones the last command ended with. Each answer is kept with its exact inputs
/// (the points' bits) and the identity of the one compiled map that answered (its
/// contents id, only when the world is that map and nothing else), and given back only
/// for the same: a command with or without this memo gives the same bits.
#[derive(Clone, Copy, Debug, Default)]
pub struct QuakeWorldMemo {
    /// The last kept `PM_PlayerMove`: the map, the two points' bits, the answer.
    trace: Option<(u64, [u32; 3], [u32; 3], HullTrace)>,
    /// The last kept `PM_PointContents`: the map, the point's bits, the answer.
    contents: Option<(u64, [u32; 3], i32)>,
}

/// A point's coordinates as bits: an answer is reused only at exactly the same place.
fn bits(p: Vec3) -> [u32; 3] {
    p.to_array().map(f32::to_bits)
}

impl<T: Tracer + ?Sized> Clone for QuakeWorldLevel<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Tracer + ?Sized> Copy for QuakeWorldLevel<'_, T> {}

impl<'w, T: Tracer + ?Sized> QuakeWorldLevel<'w, T> {
    /// The level `world`, every query through the seam.
    pub fn new(world: &'w T) -> Self {
        QuakeWorldLevel {
            world,
            near: None,
            contents_map: None,
        }
    }

    /// The level `world` for a tick whose player points stay, as estimated, in `region`
    /// (low and high corners): when the world is one compiled map keeping hull 1, that
    /// hull's walks and point tests inside the region start at the deepest node whose
    /// ancestors all leave the region on one side ([`HullNear`]); any other goes from the
    /// head. The answers are the same bits either way; only their cost depends on the
    /// estimate.
    pub(super) fn near(world: &'w T, region: (Vec3, Vec3)) -> Self {
        let facts = world.speed_facts();
        let near = facts
            .map
            .filter(|_| facts.moves_nothing)
            .and_then(|map| {
                let hulls = map.clip_hulls();
                let head = hulls.head(0, usize::from(PLAYER_HULL))?;
                Some((map, hulls.root_near(head, region)))
            });
        let contents_map = facts
            .map
            .filter(|_| facts.contents_are_map)
            .map(CompiledMap::contents_id);
        QuakeWorldLevel {
            world,
            near,
            contents_map,
        }
    }

    /// [`Self::player_move`], given back from `memo` when it kept this very sweep through
    /// this very map, else swept and kept.
    pub(super) fn player_move_kept(&self, memo: &mut QuakeWorldMemo, start: Vec3, end: Vec3) -> HullTrace {
        let Some((map, _)) = self.near else {
            return self.player_move(start, end);
        };
        let key = (map.contents_id(), bits(start), bits(end));
        if let Some((id, s, e, kept)) = memo.trace
            && (id, s, e) == key
        {
            return kept;
        }
        let trace = self.player_move(start, end);
        memo.trace = Some((key.0, key.1, key.2, trace));
        trace
    }

    /// [`Self::point_contents`], given back from `memo` when it kept this very point in
    /// this very map, else sampled and kept.
    pub(super) fn point_contents_kept(&self, memo: &mut QuakeWorldMemo, point: Vec3) -> i32 {
        let Some(id) = self.contents_map else {
            return self.point_contents(point);
        };
        let key = bits(point);
        if let Some((kept_id, kept_point, kept)) = memo.contents
            && kept_id == id
            && kept_point == key
        {
            return kept;
        }
        let contents = self.point_contents(point);
        memo.contents = Some((id, key, contents));
        contents
    }

    /// `PM_PlayerMove`: the player's point from `start` to `end` through hull 1.
    pub(super) fn player_move(&self, start: Vec3, end: Vec3) -> HullTrace {
        if let Some((map, near)) = self.near {
            let walk = map.clip_hulls().walk_near(&near, start, end);
            return HullTrace::of_walk(&walk);
        }
        let player = physents::body();
        let query = hull_query(&player);
        let mut hit = self.world.trace(&query, start, end);
        if let Some(lifted) = self.lifted_off(&query, &hit, start, end) {
            hit = lifted;
        }
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

    /// On a level that keeps no hull, the sweep `start → end` whose answer `hit` stopped at
    /// its start along the plane met, or nearer that plane than the stop distance, swept
    /// again from a start lifted back out to the stop distance and [`WALL_LIFT`] more; `None`
    /// otherwise (`hit` stands). Rare, so the world is asked only then whether it walks the
    /// hull, where the game's walk decides and nothing is lifted. The lift is swept first
    /// and taken as far as it goes, so it never carries the box into anything.
    fn lifted_off(
        &self,
        query: &ShapeQuery<'_>,
        hit: &Trace,
        start: Vec3,
        end: Vec3,
    ) -> Option<Trace> {
        if hit.fraction != 0.0 || hit.start_solid {
            return None;
        }
        let (normal, plane) = (hit.normal?, hit.plane?);
        // The box's gap to the plane: its point nearest the plane is its support point
        // along −normal. Met at an edge or a corner, the plane is the tangent plane through
        // the contact on the box, so the gap reads 0 and the box (1/32 off the edge) is
        // lifted the whole stop distance and `WALL_LIFT` more.
        let gap = plane.distance(start + query.shape.support_point(-normal));
        let along = (end - start).dot(normal) > -WALL_LIFT;
        let drifted = gap < crate::STOP_DISTANCE - DRIFT_TOLERANCE;
        if !(along || drifted) || walks_hull(self.world) {
            return None;
        }
        let wanted = normal * ((crate::STOP_DISTANCE - gap).max(0.0) + WALL_LIFT);
        let lift_move = self.world.trace(query, start, start + wanted);
        let free = lift_move.fraction > 0.0 && !lift_move.start_solid;
        let lift = free.then(|| lift_move.end - start)?;
        let lifted = self.world.trace(query, start + lift, end + lift);
        (!lifted.start_solid).then_some(lifted)
    }

    /// `PM_TestPlayerPosition`: whether the player may stand at `at` (hull 1's point is
    /// not in solid, nor its box in another player's: `physents.rs`).
    pub(super) fn player_fits(&self, at: Vec3) -> bool {
        if let Some((map, near)) = self.near
            && at.is_finite()
        {
            // The seam's answer: a walk that stays put starts solid exactly when the point's
            // leaf is solid (or the table is broken, which `point_contents` answers solid).
            let hulls = map.clip_hulls();
            return hulls.point_contents(near.start_for(at, at), at) != HULL_CONTENTS_SOLID;
        }
        let player = physents::body();
        !self.world.overlaps(&hull_query(&player), at) && !physents::blocked(self.world, at)
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

#[cfg(test)]
mod tests {
    use crate::{CharacterController, ControllerConfig, MoveCommand, MoveInput};
    use glam::Vec3;

    /// A level compiled from a `.map` keeps no clip hull: QuakeWorld's player is hull 1's
    /// box swept through its brushes, stopping 1/32 off them as the hull walk does. Run into
    /// the room's wall at x = −256 across its floor at z = 0, it stands with the box's face
    /// 1/32 off the wall and its feet (24 below the origin) 1/32 above the floor; swept as
    /// the origin alone, it stood with the origin there, the box 16 units into the wall and
    /// 24 into the floor.
    #[test]
    fn on_a_level_without_a_clip_hull_the_box_stays_out_of_walls_and_floors() {
        let world = crate::test_maps::bundled("box_room.map");
        let Ok(mut player) =
            CharacterController::new(ControllerConfig::quakeworld(), Vec3::new(0.0, 0.0, 40.0))
        else {
            panic!("the QuakeWorld profile is valid");
        };
        let run = MoveInput::from_command(MoveCommand {
            yaw: 180.0,
            forward: 1.0,
            ..MoveCommand::default()
        });
        for _ in 0..400 {
            player.step(&world, &run);
        }
        let at = player.position();
        let off = 1.0 / 32.0;
        assert!((at.x - (-256.0 + 16.0 + off)).abs() < 1e-3, "{at}");
        assert!((at.z - (24.0 + off)).abs() < 1e-3, "{at}");
    }
}
