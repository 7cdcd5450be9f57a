//! Stage 1 beside the `.map` reader: a compiled Quake-family `.bsp` to the brushes and
//! entities the rest of the compiler takes.
//!
//! Takes the bytes of a `.bsp` (Quake 1 BSP29, BSP2 and 2PSB, Half-Life BSP30, Quake 2 IBSP
//! 38 and Qbism QBSP 38, Quake 3 IBSP 46); gives an `ImportedLevel`: the entities lump as
//! a [`MapFile`] without brushes, and each model's brushes as the brush stage gives them
//! (`BrushOutput`), so bevels, the tree and the compiled file are made by the same code as
//! for a `.map`. Guarantees: every count, offset and index read from the file is checked
//! before use (`reader.rs`); a bad file is an [`ImportError`] naming the lump, never a
//! panic; memory is bounded by the file's size.

mod brushes;
mod entities;
mod quake1;
mod quake2;
mod quake3;
mod reader;

pub(crate) use entities::entities_from_lump;
#[cfg(feature = "mesh")]
pub(crate) use quake1::merge::merge_regions;
pub(crate) use reader::{Lump, Lumps, Record, Records};

use crate::brush::BrushOutput;
use crate::game::Game;
use crate::game::custom::CustomRules;
use crate::map::MapFile;

/// The brush model an entity's `"model" "*k"` key names (`k` ≥ 1; model 0 is the world).
pub(crate) fn submodel_index(entity: &crate::map::MapEntity) -> Option<usize> {
    let k: usize = entity
        .get("model")?
        .trim()
        .strip_prefix('*')?
        .parse()
        .ok()?;
    (k >= 1).then_some(k)
}

/// Which kind of `.bsp` a file is, by its header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BspFormat {
    /// Quake (`i32` version 29).
    Bsp29,
    /// Quake with 32-bit indices and float bounds (`BSP2`, ericw-tools and others).
    Bsp2,
    /// Quake with 32-bit indices and 16-bit bounds (`2PSB`, RMQ).
    Bsp2Psb,
    /// Half-Life (`i32` version 30).
    HalfLife30,
    /// Quake 2 (`IBSP`, version 38).
    Ibsp38,
    /// Qbism's extended Quake 2 (`QBSP`, version 38).
    Qbsp38,
    /// Quake 3 (`IBSP`, version 46).
    Ibsp46,
}

impl BspFormat {
    /// Every format with the name `bspc check --json` reports in `"format"`.
    pub const NAMED: [(&'static str, BspFormat); 7] = [
        ("bsp29", BspFormat::Bsp29),
        ("bsp2", BspFormat::Bsp2),
        ("2psb", BspFormat::Bsp2Psb),
        ("hl30", BspFormat::HalfLife30),
        ("ibsp38", BspFormat::Ibsp38),
        ("qbsp38", BspFormat::Qbsp38),
        ("ibsp46", BspFormat::Ibsp46),
    ];

    /// The name `bspc check --json` reports (`bsp29`, `bsp2`, `2psb`, `hl30`, `ibsp38`,
    /// `qbsp38`, `ibsp46`).
    #[must_use]
    pub fn name(self) -> &'static str {
        Self::NAMED
            .iter()
            .find(|(_, f)| *f == self)
            .map_or("bsp", |(name, _)| name)
    }

    /// The game whose meaning the file's contents carry.
    #[must_use]
    pub fn game(self) -> Game {
        match self {
            BspFormat::Bsp29 | BspFormat::Bsp2 | BspFormat::Bsp2Psb => Game::Quake,
            BspFormat::HalfLife30 => Game::HalfLife,
            BspFormat::Ibsp38 | BspFormat::Qbsp38 => Game::Quake2,
            BspFormat::Ibsp46 => Game::Quake3,
        }
    }

    /// The format of `bytes` by its first eight bytes, or `None` when it is no `.bsp` this
    /// crate reads (a `.map`, say).
    #[must_use]
    pub fn detect(bytes: &[u8]) -> Option<BspFormat> {
        let magic = bytes.get(0..4)?;
        let version = bytes
            .get(4..8)
            .map(|v| i32::from_le_bytes([v[0], v[1], v[2], v[3]]));
        match (magic, version) {
            (b"BSP2", _) => Some(BspFormat::Bsp2),
            (b"2PSB", _) => Some(BspFormat::Bsp2Psb),
            (b"IBSP", Some(38)) => Some(BspFormat::Ibsp38),
            (b"QBSP", Some(38)) => Some(BspFormat::Qbsp38),
            (b"IBSP", Some(46)) => Some(BspFormat::Ibsp46),
            _ => match i32::from_le_bytes([magic[0], magic[1], magic[2], magic[3]]) {
                29 => Some(BspFormat::Bsp29),
                30 => Some(BspFormat::HalfLife30),
                _ => None,
            },
        }
    }
}

/// Why a `.bsp` could not be imported. Every error from file data names the lump it was
/// reading.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ImportError {
    /// The header names no format this crate reads.
    #[error("not a .bsp this crate reads (unknown header)")]
    UnknownFormat,
    /// A lump (or the header, named `header`) is malformed: out of the file, a count that
    /// does not divide, an index out of range, a value that is not finite or out of the
    /// world's limits.
    #[error("{format} lump {lump}: {problem}")]
    Lump {
        /// The format's name ([`BspFormat::name`]).
        format: &'static str,
        /// The lump's name (`entities`, `planes`, `brushsides`...).
        lump: &'static str,
        /// What is wrong, with the record index where there is one.
        problem: String,
    },
}

/// What an importer gives the compiler's back end: the level as the `.map` stages would
/// have left it.
#[derive(Clone, Debug)]
pub(crate) struct ImportedLevel {
    /// The file's format.
    pub(crate) format: BspFormat,
    /// The game whose rules the level follows (its contents and flags are already that
    /// game's, resolved from the file).
    pub(crate) game: Game,
    /// The entities lump, in order, as entities without brushes; a brush entity keeps its
    /// `"model" "*k"` key.
    pub(crate) map: MapFile,
    /// Every brush of every model: model 0's with [`crate::brush::BrushOwner::World`], model
    /// k's with `BrushOwner::Entity(i)` for the entity `i` whose `model` is `*k`; and the
    /// import's diagnostics (dropped sides and brushes, clip brushes that only the clip
    /// hulls hold, and so on).
    pub(crate) brushes: BrushOutput,
    /// Whether the file's compiler filled the void around the world, so that the brushes
    /// leave no open space reaching the outside: a Quake 1 family hull 0 whose every leaf on
    /// the world's box is solid (qbsp fills the void only when nothing leaks). A leak search
    /// would then find nothing to report and nothing to fill.
    pub(crate) void_filled: bool,
    /// The file's own hull trees (Quake 1 family files; empty for the others).
    pub(crate) clip_hulls: crate::compiled::ClipHulls,
    /// The world's curved patches as Quake 3 collides with them (Quake 3 files; empty for
    /// the others).
    pub(crate) game_patches: crate::compiled::GamePatches,
}

/// Reads `bytes` as a `.bsp` of any format this crate knows, to the level the compiler's back
/// end takes.
pub(crate) fn read_level(bytes: &[u8]) -> Result<ImportedLevel, ImportError> {
    read_level_with(bytes, crate::tolerance::DEFAULT_PATCH_TOLERANCE, None)
}

/// [`read_level`], cutting Quake 3 patches to facets within `patch_tolerance` map units of
/// their surface, with a custom game's entity rules over the file's game when given (the
/// same rules a `.map` compile asks, `crate::game::rules`).
pub(crate) fn read_level_with(
    bytes: &[u8],
    patch_tolerance: f64,
    custom: Option<&CustomRules>,
) -> Result<ImportedLevel, ImportError> {
    let format = BspFormat::detect(bytes).ok_or(ImportError::UnknownFormat)?;
    match format {
        BspFormat::Bsp29 | BspFormat::Bsp2 | BspFormat::Bsp2Psb | BspFormat::HalfLife30 => {
            quake1::read(bytes, format, custom)
        }
        BspFormat::Ibsp38 | BspFormat::Qbsp38 => quake2::read(bytes, format, custom),
        BspFormat::Ibsp46 => quake3::read(bytes, format, patch_tolerance, custom),
    }
}

/// Reads `bytes` as a Quake 1 family `.bsp` (BSP29, BSP2, 2PSB, Half-Life BSP30) and
/// gives its clip hull `hull` (1 to 3; 0 is hull 0 as [`read_level_with`] reads it) as the
/// level the back end takes.
///
/// # Errors
/// [`ImportError::UnknownFormat`] for no `.bsp`; an [`ImportError`] naming the `header` for
/// a format without clip hulls (Quake 2 and 3 sweep boxes through their brushes), or
/// naming the lump of a malformed file.
pub(crate) fn read_clip_hull_level(
    bytes: &[u8],
    hull: usize,
    custom: Option<&CustomRules>,
) -> Result<ImportedLevel, ImportError> {
    let format = BspFormat::detect(bytes).ok_or(ImportError::UnknownFormat)?;
    match format {
        BspFormat::Bsp29 | BspFormat::Bsp2 | BspFormat::Bsp2Psb | BspFormat::HalfLife30 => {
            quake1::read_hull(bytes, format, hull, custom)
        }
        BspFormat::Ibsp38 | BspFormat::Qbsp38 | BspFormat::Ibsp46 => Err(ImportError::Lump {
            format: format.name(),
            lump: "header",
            problem: "this format has no clip hulls (its brushes are swept as boxes)".to_owned(),
        }),
    }
}

internal! {
    /// The format, entities and brushes of a `.bsp` (the importer's stage before the back
    /// end), for planeshift's own tests and benches.
    ///
    /// # Errors
    /// As the importers give it: an [`ImportError`] naming the lump.
    pub fn read_brushes(bytes: &[u8]) -> Result<(BspFormat, MapFile, BrushOutput), ImportError> {
        read_level(bytes).map(|level| (level.format, level.map, level.brushes))
    }
}
