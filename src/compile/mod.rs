//! The whole compile: `.map` bytes to a validated [`CompiledMap`], stage by stage.
//!
//! Takes the bytes of a map, gives the compiled world, the diagnostics of every stage,
//! statistics and per-stage timings. Guarantees: the result has passed
//! the loader's validation; models are the world (index 0) then every other
//! brush entity in file order; each model's tree holds its brushes with any contents (solid,
//! clips, liquids, fog, tool volumes: leaves know them all and sweeps skip what their mask
//! does not name), except `origin` brushes; a trigger entity's model holds its brushes as
//! [`Contents::TRIGGER`] volumes, which never block; every entity is kept, in file order,
//! with its model (key/values beyond the file's limits are left out with a warning);
//! bevels are added to every stored brush and never split. A Quake 3 map's contents follow
//! its shaders (the built-in `common/*` tools, then [`CompileOptions::shader_folders`]).
//! Every compile looks for a leak (a point entity that reaches the void, [`Leak`]); the void
//! of a sealed map stays empty unless [`CompileOptions::fill_outside`] fills it. Curved
//! patches collide: each becomes facet brushes within [`CompileOptions::patch_tolerance`] of
//! its surface, in its entity's model, with its shader's meaning.

use std::path::PathBuf;

mod back_end;
mod declared;
mod from_bsp;
#[cfg(feature = "mesh")]
mod from_mesh;
mod models;
mod sides;
mod tables;

pub(crate) use back_end::{Level, Stopwatch, compile_level_stages};

use crate::brush::Brush;
pub use crate::brush::{Diagnostic, DiagnosticKind, Severity};
use crate::compiled::{CompiledMap, LoadError};
use crate::contents::Contents;
use crate::game::custom::CustomRules;
use crate::game::rules::GameRules;
use crate::game::{CustomGame, CustomGameError, Game, Quake2Textures, ShaderSet};
use crate::import::{BspFormat, ImportError};
pub use crate::leak::Leak;
use crate::leak::find_outside;
use crate::map::{MapFile, ParseError, parse_map};
pub use from_bsp::{BspCheck, check_bsp, import_bsp, import_bsp_clip_hull};
#[cfg(feature = "mesh")]
pub use from_mesh::{MeshCheck, check_mesh, compile_level_at, compile_mesh, is_mesh_path};
#[cfg(feature = "mesh")]
internal! {
    /// The brushes a mesh compile hands to the back end (`from_mesh.rs`). Unstable.
    pub use from_mesh::mesh_brushes;
}

/// Why a compile failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CompileError {
    /// The map text has a syntax error.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The compiler produced data that fails validation (a compiler bug; please report it).
    #[error("internal error, compiled data invalid")]
    Output(#[source] LoadError),
    /// [`CompileOptions::custom_game`] is not valid ([`CustomGame::validate`]).
    #[error(transparent)]
    CustomGame(#[from] CustomGameError),
    /// [`CompileOptions::patch_tolerance`] is not a finite number of map units within the
    /// accepted range (0.01 to 16).
    #[error("patch tolerance {0} is not within 0.01 to 16 map units")]
    PatchTolerance(String),
    /// A folder of [`CompileOptions::shader_folders`] or one of its scripts cannot be read,
    /// or a script is malformed.
    #[error("shaders in {}: {message}", folder.display())]
    Shaders {
        /// The folder as given.
        folder: PathBuf,
        /// What went wrong: the file, with line and column for a malformed script.
        message: String,
    },
    /// A folder of Quake 2 `.wal` textures could not be read
    /// ([`CompileOptions::texture_folders`]).
    #[error("textures {}: {message}", folder.display())]
    Textures {
        /// The folder as given.
        folder: PathBuf,
        /// What went wrong: the file and why.
        message: String,
    },
    /// A `.bsp` could not be read (the error names its lump).
    #[error(transparent)]
    Import(#[from] ImportError),
    /// A triangle mesh could not be read (feature `mesh`).
    #[cfg(feature = "mesh")]
    #[error(transparent)]
    Mesh(#[from] crate::mesh::MeshError),
}

/// What a compile was given: a `.map`, or a compiled `.bsp` of some format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SourceFormat {
    /// A `.map` source.
    Map,
    /// A compiled `.bsp`, imported.
    Bsp(BspFormat),
    /// A triangle mesh (feature `mesh`).
    #[cfg(feature = "mesh")]
    Mesh(crate::mesh::MeshFormat),
}

impl SourceFormat {
    /// The name `bspc check --json` reports in `"format"`: `map`, or the `.bsp`'s
    /// [`BspFormat::name`].
    ///
    /// # Examples
    /// ```
    /// use planeshift::build::SourceFormat;
    /// use planeshift::build::BspFormat;
    /// assert_eq!(SourceFormat::Map.name(), "map");
    /// assert_eq!(SourceFormat::Bsp(BspFormat::Ibsp46).name(), "ibsp46");
    /// ```
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            SourceFormat::Map => "map",
            SourceFormat::Bsp(format) => format.name(),
            #[cfg(feature = "mesh")]
            SourceFormat::Mesh(format) => format.name(),
        }
    }
}

/// Everything a compile produces.
#[derive(Clone, Debug)]
pub struct CompileOutput {
    /// The validated world.
    pub map: CompiledMap,
    /// What the brush stage merged, dropped or rejected (and, with
    /// [`CompileOptions::fill_outside`], regions of the void the fill left open).
    pub diagnostics: Vec<Diagnostic>,
    /// The first point entity, in file order, that reaches the void around the map: the map
    /// leaks. `None` for a sealed map, or one without point entities to flood from. A leak
    /// is a warning: the map compiles all the same.
    pub leak: Option<Leak>,
    /// Seconds spent per stage, in order: parse (`import` for a `.bsp`), brushes, leaks,
    /// bevels, tree, pack. They add up to the compile's wall time: when the leak search
    /// runs beside the bevels and the tree (the `parallel` feature, no outside fill), its
    /// lap is the time it added to theirs.
    pub timings: Vec<(&'static str, f64)>,
    /// What the compile was given.
    pub format: SourceFormat,
}

/// Bits that alone do not make a brush worth storing: they change splitting only.
const SPLITTING_ONLY: Contents = Contents::DETAIL;

/// What a brush contributes to its model's tree: its contents when it blocks something; a
/// brush that blocks nothing (fog, liquid, tool volume, a trigger's volume) keeps its
/// contents too, so point contents report them and masked sweeps skip them. `origin`
/// brushes contribute nothing (q3map2 and qbsp remove them), nor do brushes left with
/// detail alone.
fn tree_contents(brush: &Brush) -> Contents {
    if brush.contents.intersects(Contents::ORIGIN) {
        return Contents::EMPTY;
    }
    let contents = if brush.solid {
        brush.contents
    } else {
        brush.contents & !Contents::MASK_ANY_BLOCKING
    };
    if (contents & !SPLITTING_ONLY).is_empty() {
        Contents::EMPTY
    } else {
        contents
    }
}

/// Choices a compile can make.
#[derive(Clone, Debug, PartialEq)]
pub struct CompileOptions {
    /// Add bevel planes to brushes (on by default). Without them, boxes are no longer exact
    /// and rounded shapes stop early at edges; points are unaffected. Off only for tests and
    /// comparisons.
    pub bevels: bool,
    /// Folders of Quake 3 shader scripts (`scripts/`, read in their `shaderlist.txt` order,
    /// else by name), in order: the first definition of a name wins, over the built-in
    /// `common/*` tool shaders. Read only for a Quake 3 map (a `brushDef`, a patch or a
    /// `common/` texture), whose brushes then take the contents q3map2 gives them (none by
    /// default: the built-ins alone).
    pub shader_folders: Vec<PathBuf>,
    /// Folders of Quake 2 `.wal` textures (a game's `textures` folder, or the folder holding
    /// it), in order: the first file of a name wins, over the built-in tool and liquid table
    /// ([`Quake2Textures`]). Read only for a Quake 2 map, whose faces
    /// written without a `contents flags value` triple take their texture's (qbsp3's rule).
    pub texture_folders: Vec<PathBuf>,
    /// The game whose brush rules give each brush its contents; `None` (the default)
    /// detects it from the map ([`Game::detect`]).
    pub game: Option<Game>,
    /// Fill the void around a sealed map as solid (off by default): each region of it that
    /// no point entity reaches becomes a world brush of [`Contents::SOLID`] |
    /// [`Contents::OUTSIDE`], as Quake's compilers fill outside leaves, so a character that
    /// gets there is stuck in solid and a game can tell it is in the void. Nothing is filled
    /// when the map leaks or has no point entity. Off by default because solid space is
    /// otherwise exactly the union of the map's brushes, and the void empty (Quake 3's
    /// behaviour).
    pub fill_outside: bool,
    /// A custom game whose rules give each brush its contents, each side its flags and
    /// each entity its model, over its base game; when set it wins over
    /// [`game`](CompileOptions::game), and the compiled file records its name.
    pub custom_game: Option<CustomGame>,
    /// How far a curved patch's facets may lie from its true surface, in map units (0.25 by
    /// default; at least 0.01, at most 16, Quake 3's own subdivision). Smaller is closer to
    /// the rendered curve and costs more facets (about the inverse of the tolerance for a
    /// patch curved one way).
    pub patch_tolerance: f64,
    /// The character shapes the game will sweep through the world, each compiled into a
    /// tree of its own that an unrotated sweep of exactly that box walks as a point (the
    /// same answers, faster); `None` (the default) declares the game's: planeshift's
    /// controller box standing and crouched (Quake 3's player) for every level, and Quake's
    /// two hulls for Quake (Quake 2: its player, Quake's hull 1). Only axis-aligned boxes
    /// get a tree; other shapes sweep as they do undeclared.
    pub declared_shapes: Option<Vec<crate::trace::TraceShape>>,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            bevels: true,
            shader_folders: Vec::new(),
            texture_folders: Vec::new(),
            game: None,
            fill_outside: false,
            custom_game: None,
            patch_tolerance: crate::tolerance::DEFAULT_PATCH_TOLERANCE,
            declared_shapes: None,
        }
    }
}

impl CompileOptions {
    /// Checks the options that have a range or rules: the patch tolerance and the custom
    /// game.
    ///
    /// # Errors
    /// [`CompileError::PatchTolerance`] when [`CompileOptions::patch_tolerance`] is not
    /// finite or outside 0.01 to 16; [`CompileError::CustomGame`] when
    /// [`CompileOptions::custom_game`] is not valid.
    pub fn validate(&self) -> Result<(), CompileError> {
        self.resolve().map(|_| ())
    }

    /// [`validate`](Self::validate), giving the custom game's checked rules when there is
    /// one.
    pub(crate) fn resolve(&self) -> Result<Option<CustomRules>, CompileError> {
        use crate::tolerance::{MAX_PATCH_TOLERANCE, MIN_PATCH_TOLERANCE};
        let t = self.patch_tolerance;
        if !(t.is_finite() && (MIN_PATCH_TOLERANCE..=MAX_PATCH_TOLERANCE).contains(&t)) {
            return Err(CompileError::PatchTolerance(t.to_string()));
        }
        Ok(self
            .custom_game
            .as_ref()
            .map(CustomGame::resolve)
            .transpose()?)
    }

    /// The rules a compile applies: the custom game's, else the named or detected game's.
    fn rules<'a>(&self, custom: Option<&'a CustomRules>, map: &MapFile) -> GameRules<'a> {
        match custom {
            Some(custom) => GameRules::Custom(custom),
            None => GameRules::Builtin(self.game.unwrap_or_else(|| Game::detect(map))),
        }
    }
}

/// What the brush stage makes of a parsed map, and whether it leaks, without compiling it
/// ([`check_brushes`]).
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct BrushCheck {
    /// What was merged, dropped or rejected, in file order.
    pub diagnostics: Vec<Diagnostic>,
    /// Brushes that are solid world geometry.
    pub world_brushes: usize,
    /// Brush blocks rejected (each has a warning among the diagnostics).
    pub rejected: usize,
    /// For each named contents bit that some brush has, how many brushes (of every entity)
    /// have it, in [`Contents::NAMED`] order.
    pub contents: Vec<(&'static str, usize)>,
    /// The first point entity that reaches the void, as a compile finds it
    /// ([`CompileOutput::leak`]).
    pub leak: Option<Leak>,
    /// Facet brushes made from the map's patches.
    pub patch_facets: usize,
}

/// Builds the brushes of `map` by the rules of the game detected from it and reports what
/// happened, as `bspc check` does: the first stage of a compile and the leak search, cheap
/// enough to run on every save. A Quake 3 map's contents come from the built-in `common/*`
/// tool shaders only (no script folders are read). See [`check_brushes_for`] to name the
/// game.
///
/// # Examples
/// ```
/// let map = planeshift::map::parse_map(b"{ \"classname\" \"worldspawn\" }")?;
/// let check = planeshift::build::check_brushes(&map);
/// assert_eq!((check.world_brushes, check.rejected), (0, 0));
/// # Ok::<(), planeshift::map::ParseError>(())
/// ```
#[must_use]
pub fn check_brushes(map: &MapFile) -> BrushCheck {
    check_brushes_for(map, Game::detect(map))
}

/// [`check_brushes`] by the brush rules of `game`.
#[must_use]
pub fn check_brushes_for(map: &MapFile, game: Game) -> BrushCheck {
    let output = crate::brush::brushes_from_map_for(map, game, &ShaderSet::new());
    brush_check(map, output)
}

/// [`check_brushes`] with options: the game ([`CompileOptions::game`] or
/// [`CompileOptions::custom_game`]), a Quake 3 map's shader folders and the patch tolerance
/// are read as a compile reads them.
///
/// # Errors
/// [`CompileError::PatchTolerance`] for a tolerance out of range; [`CompileError::CustomGame`]
/// for a custom game that is not valid; [`CompileError::Shaders`] when a shader folder cannot
/// be read (a Quake 3 map only).
pub fn check_brushes_with(
    map: &MapFile,
    options: &CompileOptions,
) -> Result<BrushCheck, CompileError> {
    let custom = options.resolve()?;
    let rules = options.rules(custom.as_ref(), map);
    let shaders = load_shaders(rules.base(), options)?;
    let textures = load_textures(rules.base(), options)?;
    let output = crate::brush::brushes_from_map_by(
        map,
        rules,
        (&shaders, &textures),
        options.patch_tolerance,
    );
    Ok(brush_check(map, output))
}

/// For each named contents bit some of `brushes` have, how many ([`BrushCheck::contents`]).
fn contents_counts(brushes: &[crate::brush::Brush]) -> Vec<(&'static str, usize)> {
    Contents::NAMED
        .iter()
        .map(|&(name, bit)| {
            let count = brushes.iter().filter(|b| b.contents.contains(bit));
            (name, count.count())
        })
        .filter(|&(_, count)| count > 0)
        .collect()
}

/// The check's report of the brush stage's `output` for `map`: counts, contents and leak.
fn brush_check(map: &MapFile, output: crate::brush::BrushOutput) -> BrushCheck {
    let contents = contents_counts(&output.brushes);
    let leak = find_outside(map, &output.brushes).leak;
    BrushCheck {
        world_brushes: output.world_brush_count(),
        rejected: output.rejected,
        patch_facets: output.patch_facet_count(),
        diagnostics: output.diagnostics,
        contents,
        leak,
    }
}

/// The shader set of a compile: the built-ins, then for a Quake 3 map the folders of
/// [`CompileOptions::shader_folders`].
fn load_shaders(base: Game, options: &CompileOptions) -> Result<ShaderSet, CompileError> {
    let mut shaders = ShaderSet::new();
    if base == Game::Quake3 {
        for folder in &options.shader_folders {
            shaders
                .load_folder(folder)
                .map_err(|e| CompileError::Shaders {
                    folder: folder.clone(),
                    message: e.to_string(),
                })?;
        }
    }
    Ok(shaders)
}

/// The Quake 2 texture defaults of a compile: the built-in table, then for a Quake 2 map
/// the `.wal` files of [`CompileOptions::texture_folders`].
fn load_textures(base: Game, options: &CompileOptions) -> Result<Quake2Textures, CompileError> {
    let mut textures = Quake2Textures::new();
    if base == Game::Quake2 {
        for folder in &options.texture_folders {
            textures
                .load_folder(folder)
                .map_err(|e| CompileError::Textures {
                    folder: folder.clone(),
                    message: e.to_string(),
                })?;
        }
    }
    Ok(textures)
}

/// Compiles `.map` bytes with the default options.
///
/// # Errors
/// [`CompileError::Parse`] on a syntax error.
pub fn compile_map(src: &[u8]) -> Result<CompileOutput, CompileError> {
    compile_map_with(src, &CompileOptions::default())
}

/// Compiles `.map` bytes.
///
/// # Errors
/// [`CompileError::Parse`] on a syntax error; [`CompileError::Shaders`] when a shader folder
/// cannot be read (a Quake 3 map only); [`CompileError::CustomGame`] when
/// [`CompileOptions::custom_game`] is not valid; [`CompileError::PatchTolerance`] for a
/// tolerance out of range.
pub fn compile_map_with(
    src: &[u8],
    options: &CompileOptions,
) -> Result<CompileOutput, CompileError> {
    let mut stopwatch = back_end::Stopwatch::start();
    let custom = options.resolve()?;
    let map = parse_map(src)?;
    stopwatch.lap("parse");
    let rules = options.rules(custom.as_ref(), &map);
    let shaders = load_shaders(rules.base(), options)?;
    let textures = load_textures(rules.base(), options)?;
    let output = crate::brush::brushes_from_map_by(
        &map,
        rules,
        (&shaders, &textures),
        options.patch_tolerance,
    );
    stopwatch.lap("brushes");
    let model_entities = map
        .entities
        .iter()
        .map(|e| {
            !rules.is_world_class(e.classname()) && (!e.brushes.is_empty() || !e.patches.is_empty())
        })
        .collect();
    let level = back_end::Level {
        format: SourceFormat::Map,
        brush_count: map.brushes().count() as u32,
        patch_count: map.entities.iter().map(|e| e.patches.len()).sum::<usize>() as u32,
        map: &map,
        output,
        rules,
        model_entities,
        void_filled: false,
        clip_hulls: crate::compiled::ClipHulls::default(),
        game_patches: crate::compiled::GamePatches::default(),
    };
    compile_level_stages(level, options, stopwatch)
}

/// Compiles a level given by its bytes, a `.map` or a compiled `.bsp` of any format
/// [`BspFormat::detect`] knows, told apart by content: a `.bsp` goes through
/// [`import_bsp`], anything else through [`compile_map_with`].
/// [`CompileOutput::format`] says which it was.
///
/// # Examples
/// ```
/// use planeshift::{CompileOptions, build::{SourceFormat, compile_level}};
/// let out = compile_level(
///     &std::fs::read("maps/arena.map")?,
///     &CompileOptions::default(),
/// )?;
/// assert_eq!(out.format, SourceFormat::Map);
/// assert_eq!(out.format.name(), "map");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// What [`compile_map_with`] gives for a `.map`, [`CompileError::Import`] for a `.bsp` that
/// cannot be read.
pub fn compile_level(
    bytes: &[u8],
    options: &CompileOptions,
) -> Result<CompileOutput, CompileError> {
    if BspFormat::detect(bytes).is_some() {
        import_bsp(bytes, options)
    } else {
        compile_map_with(bytes, options)
    }
}
