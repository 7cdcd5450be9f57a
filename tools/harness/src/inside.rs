//! Whether a bot ended a tick inside solid, judged in the world its movement collides with.
//!
//! Takes the compiled level and one bot (or a spot for one, as the scatter tries it); gives
//! [`Inside`], and the sweep that asks whether a bot has room to move ([`probe_query`]). Guarantees, per movement:
//! - planeshift's own and the mixed crowd's: the bot's shape overlaps what its own mask
//!   names (a monster may stand in player clip);
//! - Quake 3's profile: the same, with curved patches met as the game's own facets
//!   (`ShapeQuery::with_game_patches`), as its movement meets them, a facet counted only
//!   when the box crosses its planes with depth (`CompiledMap::inside_game_world`): the
//!   game's sweeps stop 1/8 in front of a facet but never short of one's back plane, so a
//!   box may rest exactly on it (dm17ish's banner of two flat patches 1/8 apart facing
//!   through each other: the stop in front of one is the other's back plane), which the
//!   game's own position test (`CM_PositionTestInPatchCollide`, `<= 0`) counts as inside;
//! - QuakeWorld's profile: the player's origin in solid in the level's clip hull 1, the
//!   query its movement asks (`pmovetst.c PM_TestPlayerPosition`: a point through the
//!   world qbsp grew by the player's box; a level that keeps no hull answers for that box
//!   against its brushes, as the profile's sweeps see it). qbsp grows brushes with axial
//!   bevels only, so next to an edge the hull may be open where the player's box overlaps
//!   a brush: the game's own player stands there too. Such a tick is [`Inside::BrushesOnly`],
//!   counted apart, never [`Inside::Solid`]. An origin in solid in the hull that the
//!   game's next command frees is [`Inside::Nudged`]: inside all the same (the soak counts
//!   it in `inside_solid`), and named apart, since every command of the game begins with `pmove.c NudgePosition`, which moves an origin in solid to the
//!   first of the 27 spots 1/8 unit away on each axis (the base first) that
//!   `PM_TestPlayerPosition` finds open. The game's own walk leaves its player in solid
//!   that way: `pmovetst.c PM_RecursiveHullCheck` backs an impact off by tenths of the
//!   segment while the point is solid and, backed past the segment's start, keeps the last
//!   solid point ("backup past 0"); and its split points lie 1/32 (`DIST_EPSILON`) on the
//!   near side of a node's plane, the band between them and the plane walked in the far
//!   side's subtree, so a sweep the walk finds open may pass points its point test finds
//!   solid, and `PM_PlayerMove` keeps a nearer physent's (another player's) stop there
//!   without a test in the world. A hull-1 origin that no nudge frees is
//!   [`Inside::Solid`].

use glam::Vec3;
use planeshift::movement::{Movement, ShapeQuery, Tracer};
use planeshift::{CharacterController, CompiledMap, Contents, ControllerConfig, TraceShape};

/// The clip hull QuakeWorld's player walks (qbsp's hull 1: the world grown by the box
/// (−16,−16,−24)–(16,16,32)).
const QUAKEWORLD_PLAYER_HULL: u8 = 1;

/// Where a bot's tick ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inside {
    /// Clear of what its movement collides with.
    Clear,
    /// Inside what its movement collides with.
    Solid,
    /// QuakeWorld's profile only: clear in the clip hull, the box overlapping the brushes.
    BrushesOnly,
    /// QuakeWorld's profile only: the origin in solid in the clip hull, and one of the
    /// spots the game's next command tries (`NudgePosition`, [`NUDGE`]) open.
    Nudged,
}

/// `pmove.c NudgePosition`'s step: 1/8 unit on each axis, a network coordinate's
/// precision, the most an origin the game repairs is off.
pub const NUDGE: f64 = 1.0 / 8.0;

/// `NudgePosition`'s signs per axis, in its order (the base first), z the outer loop, then
/// x, then y.
const NUDGE_SIGNS: [f64; 3] = [0.0, -1.0, 1.0];

/// Where `bot` stands in `world`, as its movement sees it.
pub fn inside(world: &CompiledMap, bot: &CharacterController) -> Inside {
    inside_at(
        world,
        bot.config(),
        bot.shape(),
        bot.position(),
        bot.shape_center(),
    )
}

/// Where a bot moving by `config`, its `shape` centred on `center` and its origin at
/// `origin`, stands in `world`, as its movement sees it.
pub fn inside_at(
    world: &CompiledMap,
    config: &ControllerConfig,
    shape: &TraceShape,
    origin: Vec3,
    center: Vec3,
) -> Inside {
    let mut brushes = ShapeQuery::new(shape).with_mask(config.mask);
    if config.movement == Movement::Quake3 {
        brushes = brushes.with_game_patches();
    }
    let in_brushes = match config.movement {
        // Patch facets with depth: a box exactly on a facet's plane touches it.
        Movement::Quake3 => world
            .inside_game_world(shape, center, config.mask)
            .unwrap_or_else(|| Tracer::overlaps(world, &brushes, center)),
        _ => Tracer::overlaps(world, &brushes, center),
    };
    if config.movement != Movement::QuakeWorld {
        return if in_brushes {
            Inside::Solid
        } else {
            Inside::Clear
        };
    }
    // The hull's point where the level keeps clip hull 1; where it keeps none, the bot's
    // body (hull 1's box), as the profile's sweeps meet the brushes.
    let hull = ShapeQuery::new(shape)
        .with_mask(Contents::SOLID)
        .through_clip_hull(QUAKEWORLD_PLAYER_HULL);
    if Tracer::overlaps(world, &hull, origin) {
        if nudged_free(world, &hull, origin) {
            Inside::Nudged
        } else {
            Inside::Solid
        }
    } else if in_brushes {
        Inside::BrushesOnly
    } else {
        Inside::Clear
    }
}

/// Whether one of the spots `NudgePosition` tries from `origin` (each coordinate moved by
/// −1/8, 0 or +1/8, summed in double as the game's C does, then stored as float) is open
/// in `hull`, the player's point through clip hull 1.
fn nudged_free(world: &CompiledMap, hull: &ShapeQuery<'_>, origin: Vec3) -> bool {
    let nudged = |b: f32, s: f64| (f64::from(b) + s * NUDGE) as f32;
    NUDGE_SIGNS.iter().any(|&z| {
        NUDGE_SIGNS.iter().any(|&x| {
            NUDGE_SIGNS.iter().any(|&y| {
                let at = Vec3::new(
                    nudged(origin.x, x),
                    nudged(origin.y, y),
                    nudged(origin.z, z),
                );
                !Tracer::overlaps(world, hull, at)
            })
        })
    })
}

/// The sweep that asks whether `bot` has room to move, in the world its movement collides
/// with, and where it starts: its shape from its centre; for QuakeWorld's profile its
/// origin through clip hull 1, meeting the other bots with its box (the game's `physents`).
pub fn probe_query(bot: &CharacterController) -> (ShapeQuery<'_>, Vec3) {
    let query = ShapeQuery::new(bot.shape());
    if bot.config().movement == Movement::QuakeWorld {
        let hull = query
            .with_mask(Contents::SOLID)
            .through_clip_hull(QUAKEWORLD_PLAYER_HULL);
        (hull, bot.position())
    } else {
        (query, bot.shape_center())
    }
}
