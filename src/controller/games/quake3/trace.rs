//! The world as Quake 3's `pm->trace` sees it: `CM_BoxTrace` of the player's box, through
//! planeshift's exact box sweep.
//!
//! Takes the world ([`Tracer`]), the mask and the box `mins..maxs` about the origin; gives
//! the game's `trace_t` parts movement reads. Guarantees, as `CM_Trace` does: the box is
//! swept centred (start and end moved by `(mins + maxs)/2`, the box symmetric), every
//! plane pushed out by the stop distance of 1/8 (`SURFACE_CLIP_EPSILON`: the query option
//! [`ShapeQuery::with_stop_distance`]), so a trace ending within 1/8 of a plane is a hit
//! backed off to 1/8 and one starting within 1/8 moving in stops at fraction 0, and a brush
//! is left 1/8 before its exit plane (`(d1 + ε)/(d1 − d2)`); the end is
//! `start + fraction·(end − start)` from the uncentred points, or `end` itself when nothing
//! was hit; start-solid and all-solid as the game's (a start inside a brush is not blocked
//! by it leaving; inside at both ends is all-solid at fraction 0).
//!
//! Curved patches are met as the game meets them ([`ShapeQuery::with_game_patches`]: the
//! game's own facets in place of planeshift's exact slabs). Where this could differ from the
//! game's: planeshift's brushes are bevelled by its compiler (the imported `.bsp`'s own
//! bevel sides are dropped and remade: `import/brushes.rs`; a tie of enter fractions goes to
//! an axial side, as the game's side order gives); the reference test
//! (`tests/it/controller/reference_moves.rs`) measures every tick of its 90 runs within 0.01.

use glam::Vec3;

use crate::QUAKE3_STOP_DISTANCE;
use crate::compiled::{MaterialId, Plane};
use crate::contents::Contents;
use crate::controller::tracer::{ShapeQuery, Tracer};
use crate::surface::SurfaceFlags;
use crate::trace::{HitTarget, TickCache, Trace, TraceShape};

/// One of the player's two boxes, centred for the sweep.
#[derive(Clone, Debug)]
pub(super) struct PlayerBox {
    /// The symmetric box.
    shape: TraceShape,
    /// From the origin to the box's centre (`CM_Trace`'s `offset`).
    offset: Vec3,
}

impl PlayerBox {
    /// The symmetric box swept.
    pub(super) fn shape(&self) -> &TraceShape {
        &self.shape
    }

    /// From the origin to the box's centre.
    pub(super) fn offset(&self) -> Vec3 {
        self.offset
    }

    /// The box `mins..maxs` about the origin; `None` when planeshift refuses it.
    pub(super) fn new(mins: Vec3, maxs: Vec3) -> Option<PlayerBox> {
        let offset = (mins + maxs) * 0.5;
        let half = maxs - offset;
        Some(PlayerBox {
            shape: TraceShape::aabb(-half, half)?,
            offset,
        })
    }
}

/// What a Quake 3 trace gives movement.
#[derive(Clone, Copy, Debug)]
pub(super) struct Q3Trace {
    pub fraction: f32,
    pub end: Vec3,
    /// The hit plane's normal (zero without a hit).
    pub normal: Vec3,
    pub all_solid: bool,
    pub surface: SurfaceFlags,
    /// planeshift's own answer (for the outcome's touches and the ground).
    pub raw: Trace,
}

/// What a command keeps of a [`Q3Trace`]: the game's parts movement reads, and of
/// planeshift's answer only what the outcome reports (a touch, the ground). Half the size
/// of a [`Q3Trace`]: a command copies each trace into its memo and back several times,
/// which cost about 8 % of a Quake 3 tick on kaos as whole traces (perf, `memcpy`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Swept {
    pub fraction: f32,
    pub end: Vec3,
    /// The hit plane's normal (zero without a hit).
    pub normal: Vec3,
    pub all_solid: bool,
    pub surface: SurfaceFlags,
    /// Whether planeshift's answer gave a normal ([`Trace::normal`] is `Some`).
    has_normal: bool,
    /// [`Trace::plane`], [`Trace::contents`], [`Trace::target`], [`Trace::material`].
    pub plane: Option<Plane>,
    contents: Contents,
    pub target: Option<HitTarget>,
    pub material: Option<MaterialId>,
}

/// `CM_Trace`'s end from the uncentred points: `end` itself when nothing was hit,
/// otherwise `start + fraction·(end − start)` per axis.
#[inline]
pub(super) fn game_end(fraction: f32, start: Vec3, end: Vec3) -> Vec3 {
    if fraction == 1.0 {
        end
    } else {
        Vec3::new(
            start.x + fraction * (end.x - start.x),
            start.y + fraction * (end.y - start.y),
            start.z + fraction * (end.z - start.z),
        )
    }
}

impl From<Q3Trace> for Swept {
    fn from(t: Q3Trace) -> Swept {
        Swept {
            fraction: t.fraction,
            end: t.end,
            normal: t.normal,
            all_solid: t.all_solid,
            surface: t.surface,
            ..Swept::of_raw(&t.raw, t.end, t.end)
        }
    }
}

impl Swept {
    /// What a command keeps of planeshift's answer `raw` for the sweep `start → end`: what
    /// [`box_trace`] makes of it, and of `raw` itself what the outcome reads. Without the
    /// whole answer copied into a [`Q3Trace`] on the way (a world with no bodies, whose
    /// answer is `raw`'s alone); [`Swept::from`] keeps a [`Q3Trace`]'s own game fields
    /// over these.
    #[inline]
    pub(super) fn of_raw(raw: &Trace, start: Vec3, end: Vec3) -> Swept {
        Swept {
            fraction: raw.fraction,
            end: game_end(raw.fraction, start, end),
            normal: raw.normal.unwrap_or(Vec3::ZERO),
            all_solid: raw.all_solid,
            surface: raw.surface,
            has_normal: raw.normal.is_some(),
            plane: raw.plane,
            contents: raw.contents,
            target: raw.target,
            material: raw.material,
        }
    }

    /// planeshift's answer as the outcome's touch list reads it ([`Trace::normal`],
    /// [`Trace::plane`], [`Trace::contents`], [`Trace::target`], [`Trace::surface`],
    /// [`Trace::material`] as they were; the rest is not read).
    pub(super) fn touch(&self) -> Trace {
        Trace {
            normal: self.has_normal.then_some(self.normal),
            plane: self.plane,
            contents: self.contents,
            target: self.target,
            surface: self.surface,
            material: self.material,
            ..Trace::miss(self.end)
        }
    }
}

/// planeshift's answer for `pm->trace(start, mins, maxs, end)` of `player` among what
/// `mask` names: the centred box swept by the centre.
#[inline]
pub(super) fn raw_trace<T: Tracer + ?Sized>(
    (world, scratch): (&T, Option<&TickCache>),
    mask: Contents,
    player: &PlayerBox,
    start: Vec3,
    end: Vec3,
) -> Trace {
    let query = ShapeQuery::new(&player.shape)
        .with_mask(mask)
        .with_stop_distance(QUAKE3_STOP_DISTANCE)
        .with_game_patches()
        .with_scratch(scratch);
    world.trace(&query, start + player.offset, end + player.offset)
}

/// `pm->trace(start, mins, maxs, end)` of `player` among what `mask` names.
pub(super) fn box_trace<T: Tracer + ?Sized>(
    world: (&T, Option<&TickCache>),
    mask: Contents,
    player: &PlayerBox,
    start: Vec3,
    end: Vec3,
) -> Q3Trace {
    let raw = raw_trace(world, mask, player, start, end);
    Q3Trace {
        fraction: raw.fraction,
        end: game_end(raw.fraction, start, end),
        normal: raw.normal.unwrap_or(Vec3::ZERO),
        all_solid: raw.all_solid,
        surface: raw.surface,
        raw,
    }
}
