//! Stage 2: [`MapFile`] to [`Brush`]es: planes, windings, bounds and contents, in f64.
//!
//! Takes a parsed map, gives every brush that encloses a volume, with its sides (plane,
//! winding, texture), bounds, contents and owner, plus [`Diagnostic`]s for what was dropped
//! or merged. Curved patches become brushes too: one thin slab per facet (`patches.rs`,
//! `crate::patch`), after the brush blocks. Guarantees: each returned brush is closed, convex, has volume, has no two
//! sides on the same plane and no mirrored planes, and lies within
//! [`MAX_MAP_COORD`](crate::tolerance::MAX_MAP_COORD); faces and brushes that fail are
//! reported with their source location, never silently lost.

mod bevel;
mod convert;
mod patches;
mod reach;

use glam::DVec3;

use crate::contents::Contents;
use crate::surface::SurfaceFlags;
use crate::game::rules::GameRules;
use crate::game::{CustomGame, CustomGameError, Game, Quake2Textures, ShaderSet};
use crate::geom::{BuildPlane, Winding};
use crate::map::{MapFile, SourceLoc};
use crate::tolerance::{DEFAULT_PATCH_TOLERANCE, SAME_POINT_EPSILON};

pub use bevel::{
    Bevel, BevelKind, BrushBevels, bevel_source_face, brush_bevels, brush_bevels_with, face_reach,
};
pub use convert::{Rejection, brush_from_planes};
#[cfg(feature = "mesh")]
pub(crate) use convert::brush_from_sides;
pub(crate) use patches::{MeantPatch, PatchMeaning, add_meant_patches};

/// Which model a brush belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BrushOwner {
    /// The world: `worldspawn`, `func_group`, `func_detail*`, or a brush outside any entity
    /// (and a custom game's `world`, `liquid` and `ladder` classes).
    World,
    /// Another brush entity (door, platform, trigger…), by its index in
    /// [`MapFile::entities`].
    Entity(usize),
}

/// One side of a brush.
#[derive(Clone, Debug, PartialEq)]
pub struct BrushSide {
    /// The side's plane; its normal points out of the brush.
    pub plane: BuildPlane,
    /// The side's polygon on the brush.
    pub winding: Winding,
    /// The face's texture name (its material).
    pub texture: String,
    /// What the face's surface means (the game's side rules, `crate::game::rules`).
    pub surface: SurfaceFlags,
    /// Where the face was written.
    pub loc: SourceLoc,
}

/// A closed convex brush with volume.
#[derive(Clone, Debug, PartialEq)]
pub struct Brush {
    /// The bounding sides, in file order, duplicates merged.
    pub sides: Vec<BrushSide>,
    /// Smallest corner of the bounds.
    pub mins: DVec3,
    /// Largest corner of the bounds.
    pub maxs: DVec3,
    /// What the brush is made of.
    pub contents: Contents,
    /// The game's own contents value for the brush, as its faces say (Quake 2's and Quake
    /// 3's bits, Quake's and Half-Life's enum as `i32` bits; a trigger entity's brush keeps
    /// its faces' value while `contents` says trigger).
    pub game_contents: u32,
    /// Whether it blocks something: contents that meet [`Contents::MASK_ANY_BLOCKING`] and not a
    /// trigger entity's brush.
    pub solid: bool,
    /// The model it belongs to.
    pub owner: BrushOwner,
    /// Where its `{` was written.
    pub loc: SourceLoc,
    /// The patch this brush is a facet of, by its index among the map's patches in file
    /// order (entities in order, each entity's patches in order); `None` for a brush block.
    pub patch: Option<usize>,
}

impl Brush {
    /// Whether the brush is solid world geometry (what the world tree is built from).
    #[must_use]
    pub fn is_solid_world(&self) -> bool {
        self.solid && self.owner == BrushOwner::World
    }

    /// Whether `p` lies inside, with points within `epsilon` of a side counting as inside.
    #[must_use]
    pub fn contains(&self, p: DVec3, epsilon: f64) -> bool {
        self.sides.iter().all(|s| s.plane.distance(p) <= epsilon)
    }

    /// The distinct corners of the brush (from its windings).
    #[must_use]
    pub fn vertices(&self) -> Vec<DVec3> {
        let mut out: Vec<DVec3> = Vec::new();
        for p in self.sides.iter().flat_map(|s| s.winding.points.iter()) {
            if !out.iter().any(|q| q.distance(*p) < SAME_POINT_EPSILON) {
                out.push(*p);
            }
        }
        out
    }
}

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// Something was changed or dropped; the result is still what the author meant.
    Note,
    /// Something was rejected; geometry the author wrote is missing from the result.
    Warning,
}

/// What a diagnostic is about, for tools that act on it (an editor that selects the brush, a
/// report that counts); the message says it in a sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DiagnosticKind {
    /// A face whose three points are collinear was dropped.
    CollinearFace,
    /// A face on the same plane as an earlier one was merged into it.
    DuplicatePlane,
    /// A face whose plane does not touch the brush was dropped.
    RedundantFace,
    /// Two faces face opposite ways on one plane: the brush was rejected.
    MirroredPlanes,
    /// Fewer than four faces bound a volume, or the volume is too small: rejected.
    NoVolume,
    /// The faces leave the brush unbounded: rejected.
    NotClosed,
    /// A point lies beyond the coordinate limit: rejected.
    OutOfRange,
    /// More faces than a brush may have: rejected.
    TooManyFaces,
    /// A patch does not collide: its size, control points or coordinates are invalid, or it
    /// is degenerate (no facet has area).
    PatchesIgnored,
    /// A patch needed more subdivision than the limits allow: its facets may lie farther
    /// from the surface than the tolerance (the message says how far).
    PatchToleranceNotMet,
    /// Sliver facets of a patch were too thin to make solids and were dropped.
    PatchFacetsDropped,
    /// An entity key/value beyond the compiled file's limits (its length, or the number an
    /// entity may hold) was left out of the compiled entity.
    EntityPropertyDropped,
    /// A compiled `.bsp` without the original brushes: its clip brushes exist only in its
    /// clip hulls and were not imported.
    ClipHullOnly,
    /// A brush model of a compiled `.bsp` that no entity names was left out.
    UnplacedModel,
    /// Triangles of a mesh were dropped: not finite, degenerate or repeated (the message
    /// counts each).
    MeshTrianglesDropped,
    /// A closed mesh shell has edges used once: a hole (the location's line is 1; the
    /// message names a point on the first).
    MeshHole,
    /// Faces of a mesh form open surfaces (edges used once) and became thin walls solid
    /// from both sides.
    MeshOpenSurface,
    /// Open cells of a mesh behind its sky or liquid faces took that material's contents
    /// (the message counts the cells and the volumes).
    MeshVolumes,
}

/// A problem that did not stop the stage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Where in the source.
    pub loc: SourceLoc,
    /// How bad.
    pub severity: Severity,
    /// What it is about.
    pub kind: DiagnosticKind,
    /// What happened, as a sentence.
    pub message: String,
}

/// The brushes of a map and what happened while building them.
#[derive(Clone, Debug, Default)]
pub struct BrushOutput {
    /// Every valid brush, in file order (entities first, then loose brushes), then the
    /// facet brushes of the patches (the world's, then each entity's).
    pub brushes: Vec<Brush>,
    /// What was merged, dropped or rejected.
    pub diagnostics: Vec<Diagnostic>,
    /// How many brush blocks were rejected.
    pub rejected: usize,
}

impl BrushOutput {
    /// The number of solid world brushes written as brush blocks (patch facets aside).
    #[must_use]
    pub fn world_brush_count(&self) -> usize {
        self.brushes
            .iter()
            .filter(|b| b.is_solid_world() && b.patch.is_none())
            .count()
    }

    /// The number of facet brushes made from patches.
    #[must_use]
    pub fn patch_facet_count(&self) -> usize {
        self.brushes.iter().filter(|b| b.patch.is_some()).count()
    }
}

/// Builds the brushes of every entity and of loose top-level brushes; a Quake 3 map's
/// contents come from the built-in `common/*` tool shaders ([`brushes_from_map_with`]).
#[must_use]
pub fn brushes_from_map(map: &MapFile) -> BrushOutput {
    brushes_from_map_with(map, &ShaderSet::new())
}

/// Builds the brushes of every entity and of loose top-level brushes by the brush rules of
/// the game detected from `map` ([`Game::detect`]): for a Quake 3 map contents come from its
/// faces' shaders in `shaders` ([`brushes_from_map_for`]).
#[must_use]
pub fn brushes_from_map_with(map: &MapFile, shaders: &ShaderSet) -> BrushOutput {
    brushes_from_map_for(map, Game::detect(map), shaders)
}

/// Builds the brushes of every entity and of loose top-level brushes by `game`'s brush rules
/// (`crate::game::rules`); `shaders` are read only for [`Game::Quake3`]. Patches are cut
/// to the default tolerance ([`brushes_from_map_patched`]).
#[must_use]
pub fn brushes_from_map_for(map: &MapFile, game: Game, shaders: &ShaderSet) -> BrushOutput {
    brushes_from_map_by(
        map,
        GameRules::Builtin(game),
        (shaders, &Quake2Textures::new()),
        DEFAULT_PATCH_TOLERANCE,
    )
}

/// Builds the brushes of every entity and of loose top-level brushes by `game`'s brush rules
/// (`crate::game::rules`), then the facet brushes of every patch, whose facets lie within
/// `patch_tolerance` map units of the surface (`patches.rs`); `shaders` are read only for
/// [`Game::Quake3`].
#[must_use]
pub fn brushes_from_map_patched(
    map: &MapFile,
    game: Game,
    shaders: &ShaderSet,
    patch_tolerance: f64,
) -> BrushOutput {
    brushes_from_map_by(
        map,
        GameRules::Builtin(game),
        (shaders, &Quake2Textures::new()),
        patch_tolerance,
    )
}

/// Builds the brushes of every entity and of loose top-level brushes by a custom game's
/// rules ([`CustomGame`], over its base game), patches cut to the default tolerance;
/// `shaders` are read only when the base is [`Game::Quake3`].
///
/// # Errors
/// The custom game's first problem ([`CustomGame::validate`]).
pub fn brushes_from_map_custom(
    map: &MapFile,
    game: &CustomGame,
    shaders: &ShaderSet,
) -> Result<BrushOutput, CustomGameError> {
    let rules = game.resolve()?;
    Ok(brushes_from_map_by(
        map,
        GameRules::Custom(&rules),
        (shaders, &Quake2Textures::new()),
        DEFAULT_PATCH_TOLERANCE,
    ))
}

/// Builds the brushes of every entity and of loose top-level brushes by `rules`, then the
/// facet brushes of every patch within `patch_tolerance` map units of its surface.
///
/// For a Quake 2 base, faces written without a triple first take their texture's defaults
/// from `textures` ([`Quake2Textures::fill_defaults`]), as qbsp3 does.
pub(crate) fn brushes_from_map_by(
    map: &MapFile,
    rules: GameRules<'_>,
    (shaders, textures): (&ShaderSet, &Quake2Textures),
    patch_tolerance: f64,
) -> BrushOutput {
    let filled;
    let map = if rules.base() == Game::Quake2 {
        filled = textures.fill_defaults(map).0;
        &*filled
    } else {
        map
    };
    // Every brush block with its owner and entity, in file order; each is built on its own
    // (on every core with the `parallel` feature) and the results joined in that order.
    let mut blocks = Vec::new();
    for (index, entity) in map.entities.iter().enumerate() {
        let classname = entity.classname();
        let owner = if rules.is_world_class(classname) {
            BrushOwner::World
        } else {
            BrushOwner::Entity(index)
        };
        let trigger = rules.is_trigger_class(classname);
        blocks.extend(
            (entity.brushes.iter()).map(|brush| (brush, owner, (classname, trigger))),
        );
    }
    blocks.extend(
        (map.loose_brushes.iter()).map(|brush| (brush, BrushOwner::World, ("", false))),
    );
    let built = crate::threads::map_all(&blocks, |&(brush, owner, entity)| {
        let mut one = BrushOutput::default();
        convert::add_brush(&mut one, brush, owner, entity, rules, shaders);
        one
    });
    let mut out = BrushOutput::default();
    for one in built {
        out.brushes.extend(one.brushes);
        out.diagnostics.extend(one.diagnostics);
        out.rejected += one.rejected;
    }
    patches::add_patches(&mut out, map, rules, shaders, patch_tolerance);
    out
}
