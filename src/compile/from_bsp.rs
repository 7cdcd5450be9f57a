//! A compiled `.bsp` through the same back end as a `.map`: the importer's level
//! (`crate::import`) to a validated world.
//!
//! Takes the file's bytes and the compile options; gives a [`CompileOutput`] whose format is
//! the file's. Guarantees: the stages after the brush stage are `back_end.rs`'s, exactly as
//! for a `.map`; a malformed file is a [`CompileError::Import`] naming its lump.

use super::{
    CompileError, CompileOptions, CompileOutput, Level, SourceFormat, Stopwatch,
    compile_level_stages,
};
use crate::brush::{BrushOwner, GameRules};
use crate::import::{read_level_with, submodel_index};

/// Imports a compiled `.bsp` (any [`BspFormat`](crate::import::BspFormat)) into a collision world: the file's brushes
/// (its own bevel sides dropped), contents and surface flags in its game's meaning, then the
/// same leak, model, bevel, tree and validation stages a `.map` goes through
/// ([`compile_map_with`](crate::compile::compile_map_with)). A brush entity (`"model"
/// "*k"`) with an `origin` key is placed there, its origin the model's pivot. The options
/// read are [`CompileOptions::bevels`], [`CompileOptions::fill_outside`],
/// [`CompileOptions::patch_tolerance`] (Quake 3 patches) and
/// [`CompileOptions::custom_game`] (its entity rules); the game is the file's.
/// [`crate::compile::compile_level`] takes a `.map` or a `.bsp` by content.
///
/// # Examples
/// ```
/// use planeshift::compile::{CompileError, CompileOptions};
/// use planeshift::compile::import_bsp;
/// use planeshift::import::ImportError;
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
    let level = read_level_with(bytes, options.patch_tolerance)?;
    stopwatch.lap("import");
    let rules = match custom.as_ref() {
        Some(custom) => GameRules::Custom(custom),
        None => GameRules::Builtin(level.game),
    };
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
    };
    compile_level_stages(back_end, options, stopwatch)
}
