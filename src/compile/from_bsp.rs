//! A compiled `.bsp` through the same back end as a `.map`: the importer's level
//! (`crate::import`) to a validated world.
//!
//! Takes the file's bytes and the compile options; gives a [`CompileOutput`] whose format is
//! the file's. Guarantees: the stages after the brush stage are `back_end.rs`'s, exactly as
//! for a `.map`; a malformed file is a [`CompileError::Import`] naming its lump.

use super::{
    BrushCheck, CompileError, CompileOptions, CompileOutput, Level, SourceFormat, Stopwatch,
    brush_check, compile_level_stages,
};
use crate::brush::BrushOwner;
use crate::game::Game;
use crate::game::rules::GameRules;
use crate::game::custom::CustomRules;
use crate::import::{BspFormat, ImportedLevel, read_clip_hull_level, read_level_with, submodel_index};

/// What [`check_bsp`] finds in a compiled `.bsp`: its format and game, what it holds, and
/// the brush stage's report as [`check_brushes`](crate::compile::check_brushes) gives it
/// for a `.map`.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct BspCheck {
    /// The file's format.
    pub format: BspFormat,
    /// The game whose meaning its contents carry.
    pub game: Game,
    /// Entities in its entities lump.
    pub entities: usize,
    /// Brushes read (patch facets aside), of every model.
    pub brushes: usize,
    /// Their sides (the file's own bevel sides dropped).
    pub sides: usize,
    /// Quake 3 patches.
    pub patches: usize,
    /// Brush counts, contents, diagnostics and the leak.
    pub check: BrushCheck,
}

/// Reads a compiled `.bsp` as far as `bspc check` looks: its brushes (as [`import_bsp`]
/// reads them, at [`CompileOptions::patch_tolerance`]), counts, contents and the leak
/// search, without building the tree.
///
/// # Examples
/// ```
/// use planeshift::{CompileOptions, build::check_bsp};
/// assert!(check_bsp(b"not a bsp", &CompileOptions::default()).is_err());
/// ```
///
/// # Errors
/// [`CompileError::Import`] for a file that is no `.bsp` this crate reads or is malformed
/// (naming the lump); [`CompileError::PatchTolerance`] for a tolerance out of range.
pub fn check_bsp(bytes: &[u8], options: &CompileOptions) -> Result<BspCheck, CompileError> {
    let custom = options.resolve()?;
    let level = read_level_with(bytes, options.patch_tolerance, custom.as_ref())?;
    let read = level.brushes.brushes.iter().filter(|b| b.patch.is_none());
    let brushes = read.clone().count();
    let sides = read.map(|b| b.sides.len()).sum();
    let mut patches: Vec<usize> = level
        .brushes
        .brushes
        .iter()
        .filter_map(|b| b.patch)
        .collect();
    patches.dedup();
    Ok(BspCheck {
        format: level.format,
        game: level.game,
        entities: level.map.entities.len(),
        brushes,
        sides,
        patches: patches.len(),
        check: brush_check(&level.map, level.brushes),
    })
}

/// Imports a compiled `.bsp` (any [`BspFormat`](crate::import::BspFormat)) into a collision world: the file's brushes
/// (its own bevel sides dropped), contents and surface flags in its game's meaning, then the
/// same leak, model, bevel, tree and validation stages a `.map` goes through
/// ([`compile_map_with`](crate::compile::compile_map_with)). A brush entity (`"model"
/// "*k"`) with an `origin` key is placed there, its origin the model's pivot. The options
/// read are [`CompileOptions::bevels`], [`CompileOptions::fill_outside`],
/// [`CompileOptions::patch_tolerance`] (Quake 3 patches) and
/// [`CompileOptions::custom_game`] (its entity rules); the game is the file's. A Quake 1
/// family file's own hull trees (hull 0 and the clip hulls 1 to 3 of every model) are
/// kept in the level for [`ShapeQuery::through_clip_hull`](crate::movement::ShapeQuery::through_clip_hull).
/// [`crate::compile::compile_level`] takes a `.map` or a `.bsp` by content.
///
/// # Examples
/// ```
/// use planeshift::{CompileError, CompileOptions};
/// use planeshift::build::import_bsp;
/// use planeshift::build::ImportError;
/// // Bytes that are no .bsp are refused (a .map goes to `compile_map_with`).
/// let err = import_bsp(b"{ \"classname\" \"worldspawn\" }", &CompileOptions::default());
/// assert!(matches!(err, Err(CompileError::Import(ImportError::UnknownFormat))));
/// ```
///
/// # Errors
/// [`CompileError::Import`] for a file that is no `.bsp` this crate reads or is malformed
/// (naming the lump); [`CompileError::PatchTolerance`] and [`CompileError::CustomGame`] for
/// options out of range.
pub fn import_bsp(bytes: &[u8], options: &CompileOptions) -> Result<CompileOutput, CompileError> {
    let mut stopwatch = Stopwatch::start();
    let custom = options.resolve()?;
    let level = read_level_with(bytes, options.patch_tolerance, custom.as_ref())?;
    stopwatch.lap("import");
    back_end_of(level, options, custom.as_ref(), stopwatch)
}

/// Compiles a Quake 1 family `.bsp`'s clip hull `hull` (1 to 3) as a world of its own: the
/// level as the game's player sees it, qbsp's box-grown world (hull 1 is Quake's
/// (−16,−16,−24)–(16,16,32) player box, Half-Life's (−16,−16,−36)–(16,16,36)), clip
/// brushes included, rebuilt from the clip nodes' convex regions as [`import_bsp`] rebuilds
/// hull 0. A **point** swept through it stops where QuakeWorld's `PM_PlayerMove` traces
/// stop (`pmovetst.c PM_RecursiveHullCheck`, 1/32 off the hit plane); liquids are hull 0's
/// (import that for point contents). The game's exact walk needs no second world:
/// [`import_bsp`] keeps the file's hull trees, which
/// [`ShapeQuery::through_clip_hull`](crate::movement::ShapeQuery::through_clip_hull) walks.
///
/// # Examples
/// ```
/// use planeshift::{CompileOptions, build::import_bsp_clip_hull};
/// assert!(import_bsp_clip_hull(b"not a bsp", 1, &CompileOptions::default()).is_err());
/// ```
///
/// # Errors
/// As [`import_bsp`], and [`CompileError::Import`] for a format without clip hulls or a
/// model without hull `hull`.
pub fn import_bsp_clip_hull(
    bytes: &[u8],
    hull: usize,
    options: &CompileOptions,
) -> Result<CompileOutput, CompileError> {
    let mut stopwatch = Stopwatch::start();
    let custom = options.resolve()?;
    let level = read_clip_hull_level(bytes, hull, custom.as_ref())?;
    stopwatch.lap("import");
    back_end_of(level, options, custom.as_ref(), stopwatch)
}

/// The back end over an imported level.
fn back_end_of(
    level: ImportedLevel,
    options: &CompileOptions,
    custom: Option<&CustomRules>,
    stopwatch: Stopwatch,
) -> Result<CompileOutput, CompileError> {
    let rules = GameRules::of(level.game, custom);
    let mut model_entities: Vec<bool> = level
        .map
        .entities
        .iter()
        .map(|e| submodel_index(e).is_some())
        .collect();
    for brush in &level.brushes.brushes {
        if let BrushOwner::Entity(index) = brush.owner
            && let Some(slot) = model_entities.get_mut(index)
        {
            *slot = true;
        }
    }
    let brush_count = level
        .brushes
        .brushes
        .iter()
        .filter(|b| b.patch.is_none())
        .count() as u32;
    let mut patches: Vec<usize> = level
        .brushes
        .brushes
        .iter()
        .filter_map(|b| b.patch)
        .collect();
    patches.dedup();
    let back_end = Level {
        format: SourceFormat::Bsp(level.format),
        map: &level.map,
        output: level.brushes,
        rules,
        model_entities,
        brush_count,
        patch_count: patches.len() as u32,
        void_filled: level.void_filled,
        clip_hulls: level.clip_hulls,
        game_patches: level.game_patches,
    };
    compile_level_stages(back_end, options, stopwatch)
}
