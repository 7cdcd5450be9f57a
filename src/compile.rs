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
//! Curved patches collide: each becomes facet brushes within
//! [`CompileOptions::patch_tolerance`] of its surface, in its entity's model, with its
//! shader's meaning.

use std::path::PathBuf;
use std::time::Instant;

use glam::{DVec3, Vec3};

use crate::brush::{
    Brush, BrushOwner, bevel_source_face, brush_bevels_with, brushes_from_map, is_origin_texture,
    is_trigger_class,
};
pub use crate::brush::{Diagnostic, DiagnosticKind, Severity};
use crate::bsp::{BrushInput, BspTree, Child, PlaneTable, build_tree};
use crate::compiled::{
    CompileStats, CompiledBrush, CompiledLeaf, CompiledMap, CompiledNode, CompiledSide,
    EntityRecord, LoadError, MapData, Model, ModelKind, NodeChild, Plane,
};
use crate::contents::Contents;
use crate::game::{Game, ShaderSet};
use crate::map::{Entity, MapFile, ParseError, parse_map};
use crate::surface::SurfaceFlags;

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
}

/// Everything a compile produces.
#[derive(Clone, Debug)]
pub struct CompileOutput {
    /// The validated world.
    pub map: CompiledMap,
    /// What the brush stage merged, dropped or rejected.
    pub diagnostics: Vec<Diagnostic>,
    /// Seconds spent per stage, in order: parse, brushes, bevels, tree, pack.
    pub timings: Vec<(&'static str, f64)>,
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
        brush.contents & !Contents::MASK_SOLID
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
    /// The game whose brush rules give each brush its contents; `None` (the default)
    /// detects it from the map ([`Game::detect`]).
    pub game: Option<Game>,
    /// How far a curved patch's facets may lie from its true surface, in map units (0.25 by
    /// default; at least 0.01, at most 16, Quake 3's own subdivision). Smaller is closer to
    /// the rendered curve and costs more facets (about the inverse of the tolerance for a
    /// patch curved one way).
    pub patch_tolerance: f64,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            bevels: true,
            shader_folders: Vec::new(),
            game: None,
            patch_tolerance: crate::tolerance::DEFAULT_PATCH_TOLERANCE,
        }
    }
}

impl CompileOptions {
    /// Checks the options that have a range.
    ///
    /// # Errors
    /// [`CompileError::PatchTolerance`] when [`CompileOptions::patch_tolerance`] is not
    /// finite or outside 0.01 to 16.
    pub fn validate(&self) -> Result<(), CompileError> {
        use crate::tolerance::{MAX_PATCH_TOLERANCE, MIN_PATCH_TOLERANCE};
        let t = self.patch_tolerance;
        if t.is_finite() && (MIN_PATCH_TOLERANCE..=MAX_PATCH_TOLERANCE).contains(&t) {
            Ok(())
        } else {
            Err(CompileError::PatchTolerance(t.to_string()))
        }
    }
}

/// What the brush stage makes of a parsed map, without building a tree ([`check_brushes`]).
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct BrushCheck {
    /// What was merged, dropped or rejected, in file order.
    pub diagnostics: Vec<Diagnostic>,
    /// Brushes that are solid world geometry.
    pub world_brushes: usize,
    /// Brush blocks rejected (each has a warning among the diagnostics).
    pub rejected: usize,
    /// Facet brushes made from the map's patches.
    pub patch_facets: usize,
}

/// Builds the brushes of `map` and reports what happened, as `bspc check` does: the first
/// stage of a compile, cheap enough to run on every save. A Quake 3 map's contents come from
/// the built-in `common/*` tool shaders only (no script folders are read).
///
/// # Examples
/// ```
/// let map = planeshift::parse_map(b"{ \"classname\" \"worldspawn\" }")?;
/// let check = planeshift::compile::check_brushes(&map);
/// assert_eq!((check.world_brushes, check.rejected), (0, 0));
/// # Ok::<(), planeshift::ParseError>(())
/// ```
#[must_use]
pub fn check_brushes(map: &MapFile) -> BrushCheck {
    let output = brushes_from_map(map);
    BrushCheck {
        world_brushes: output.world_brush_count(),
        rejected: output.rejected,
        patch_facets: output.patch_facet_count(),
        diagnostics: output.diagnostics,
    }
}

/// [`check_brushes`] with options: the game ([`CompileOptions::game`]), a Quake 3 map's
/// shader folders and the patch tolerance are read as a compile reads them.
///
/// # Errors
/// [`CompileError::PatchTolerance`] for a tolerance out of range; [`CompileError::Shaders`]
/// when a shader folder cannot be read (a Quake 3 map only).
pub fn check_brushes_with(
    map: &MapFile,
    options: &CompileOptions,
) -> Result<BrushCheck, CompileError> {
    options.validate()?;
    let game = options.game.unwrap_or_else(|| Game::detect(map));
    let shaders = load_shaders(game, options)?;
    let output =
        crate::brush::brushes_from_map_patched(map, game, &shaders, options.patch_tolerance);
    Ok(BrushCheck {
        world_brushes: output.world_brush_count(),
        rejected: output.rejected,
        patch_facets: output.patch_facet_count(),
        diagnostics: output.diagnostics,
    })
}

/// The shader set of a compile: the built-ins, then for a Quake 3 map the folders of
/// [`CompileOptions::shader_folders`].
fn load_shaders(game: Game, options: &CompileOptions) -> Result<ShaderSet, CompileError> {
    let mut shaders = ShaderSet::new();
    if game == Game::Quake3 {
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
/// cannot be read (a Quake 3 map only); [`CompileError::PatchTolerance`] for a tolerance out
/// of range.
pub fn compile_map_with(
    src: &[u8],
    options: &CompileOptions,
) -> Result<CompileOutput, CompileError> {
    let mut timings = Vec::new();
    let mut clock = Instant::now();
    let mut lap = |name: &'static str, timings: &mut Vec<(&'static str, f64)>| {
        timings.push((name, clock.elapsed().as_secs_f64()));
        clock = Instant::now();
    };

    options.validate()?;
    let map = parse_map(src)?;
    lap("parse", &mut timings);
    let game = options.game.unwrap_or_else(|| Game::detect(&map));
    let shaders = load_shaders(game, options)?;
    let mut output =
        crate::brush::brushes_from_map_patched(&map, game, &shaders, options.patch_tolerance);
    lap("brushes", &mut timings);

    // Models: the world (its entity is the first `worldspawn`), then each brush entity in
    // file order.
    let worldspawn = map
        .entities
        .iter()
        .position(|e| e.classname().eq_ignore_ascii_case("worldspawn"));
    let mut model_brushes: Vec<(Option<usize>, Vec<&Brush>)> = vec![(worldspawn, Vec::new())];
    let mut model_of_entity: Vec<Option<u32>> = vec![None; map.entities.len()];
    if let Some(w) = worldspawn {
        model_of_entity[w] = Some(0);
    }
    for (index, entity) in map.entities.iter().enumerate() {
        let world = crate::brush::is_world_class(entity.classname());
        if !world && (!entity.brushes.is_empty() || !entity.patches.is_empty()) {
            model_of_entity[index] = Some(model_brushes.len() as u32);
            model_brushes.push((Some(index), Vec::new()));
        }
    }
    let entities = entity_records(&map.entities, &model_of_entity, &mut output.diagnostics);
    let output = output;
    let mut origins: Vec<Option<DVec3>> = vec![None; model_brushes.len()];
    for brush in &output.brushes {
        let model = match brush.owner {
            BrushOwner::World => 0,
            // Owners index the same entity list.
            BrushOwner::Entity(e) => model_of_entity[e].map_or(0, |m| m as usize),
        };
        if brush.patch.is_none() && brush.sides.iter().all(|s| is_origin_texture(&s.texture)) {
            origins[model] = Some((brush.mins + brush.maxs) * 0.5);
        }
        if tree_contents(brush) != Contents::EMPTY {
            model_brushes[model].1.push(brush);
        }
    }

    // Bevels and the plane table.
    let mut planes = PlaneTable::new();
    let mut materials = MaterialTable::default();
    let mut data = MapData::default();
    let mut inputs: Vec<Vec<BrushInput>> = Vec::with_capacity(model_brushes.len());
    for (_, brushes) in &model_brushes {
        let mut model_inputs = Vec::with_capacity(brushes.len());
        for brush in brushes {
            let first_side = data.sides.len() as u32;
            let mut sides = Vec::with_capacity(brush.sides.len());
            let face_materials: Vec<u32> = brush
                .sides
                .iter()
                .map(|side| materials.id(&side.texture))
                .collect();
            for (side, &material) in brush.sides.iter().zip(&face_materials) {
                let id = planes.find_or_add(side.plane);
                data.sides.push(CompiledSide {
                    plane: id.0,
                    bevel: false,
                    surface: side.surface,
                    material,
                });
                sides.push((id, side.winding.clone()));
            }
            let bevels = if options.bevels {
                // Patch facets take the box bevels only (`brush_bevels_with`).
                brush_bevels_with(brush, brush.patch.is_none())
            } else {
                crate::brush::BrushBevels {
                    bevels: Vec::new(),
                    box_exact: false,
                    reach: crate::brush::face_reach(brush),
                }
            };
            // Faces, then Quake's box bevels, then the rounding bevels: box and point sweeps
            // stop reading where their exactness needs no more.
            let (box_bevels, round_bevels): (Vec<&crate::brush::Bevel>, Vec<&crate::brush::Bevel>) =
                bevels.bevels.iter().partition(|b| b.kind.is_box_bevel());
            let face_count = data.sides.len() as u32 - first_side;
            for bevel in box_bevels.iter().chain(round_bevels.iter()) {
                let id = planes.find_or_add(bevel.plane);
                // A bevel carries the movement flags and the material of the face it bevels.
                let source = bevel_source_face(brush, bevel).unwrap_or(0);
                data.sides.push(CompiledSide {
                    plane: id.0,
                    bevel: true,
                    surface: brush
                        .sides
                        .get(source)
                        .map_or(SurfaceFlags::EMPTY, |s| s.surface & SurfaceFlags::MOVEMENT),
                    material: face_materials.get(source).copied().unwrap_or(0),
                });
            }
            let contents = tree_contents(brush);
            data.brushes.push(CompiledBrush {
                contents,
                game_contents: brush.game_contents,
                first_side,
                side_count: data.sides.len() as u32 - first_side,
                face_count,
                box_side_count: face_count + box_bevels.len() as u32,
                mins: brush.mins.as_vec3(),
                maxs: brush.maxs.as_vec3(),
                box_exact: bevels.box_exact,
                // Rounded up, so that the f32 bound is never below the f64 one.
                reach: (bevels.reach as f32).next_up(),
                patch: brush.patch.is_some(),
            });
            model_inputs.push(BrushInput {
                sides,
                contents,
                detail: brush.patch.is_some(),
            });
        }
        inputs.push(model_inputs);
    }
    lap("bevels", &mut timings);

    let trees: Vec<BspTree> = inputs.iter().map(|i| build_tree(i, &planes)).collect();
    lap("tree", &mut timings);

    data.planes = planes
        .planes()
        .iter()
        .map(|p| Plane {
            normal: p.normal.as_vec3(),
            dist: p.dist as f32,
        })
        .collect();
    data.materials = materials.names;
    data.game = game.name().to_owned();
    let mut first_brush = 0u32;
    for (((entity, brushes), tree), origin) in model_brushes.iter().zip(&trees).zip(&origins) {
        let root = append_tree(&mut data, tree, first_brush);
        let (mins, maxs) = model_bounds(brushes);
        let entity_index = entity.map(|e| e as u32);
        let entity = entity.and_then(|e| map.entities.get(e));
        let entity = entity.filter(|_| entity_index != worldspawn.map(|w| w as u32));
        let kind = if data.models.is_empty() {
            ModelKind::World
        } else {
            model_kind(game, entity, brushes)
        };
        data.models.push(Model {
            kind,
            root,
            first_brush,
            brush_count: brushes.len() as u32,
            mins,
            maxs,
            origin: origin
                .map(|o| o.as_vec3())
                .or_else(|| entity.and_then(origin_key))
                .unwrap_or(Vec3::ZERO),
            entity: entity_index,
        });
        first_brush += brushes.len() as u32;
    }
    data.entities = entities;
    data.stats = CompileStats {
        brushes: map.brushes().count() as u32,
        world_brushes: output.world_brush_count() as u32,
        patches: map.entities.iter().map(|e| e.patches.len()).sum::<usize>() as u32,
        patch_facets: output.patch_facet_count() as u32,
    };
    let compiled = CompiledMap::from_data(data).map_err(CompileError::Output)?;
    lap("pack", &mut timings);
    Ok(CompileOutput {
        map: compiled,
        diagnostics: output.diagnostics,
        timings,
    })
}

/// The material table being built: each texture name once, in order of first use.
#[derive(Default)]
struct MaterialTable {
    names: Vec<String>,
    ids: std::collections::HashMap<String, u32>,
}

impl MaterialTable {
    /// The id of `name`, added when new.
    fn id(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(name.to_owned());
        self.ids.insert(name.to_owned(), id);
        id
    }
}

/// Quake 3's brush entities that move (`g_spawn.c`: doors, platforms, buttons, rotating,
/// bobbing and swinging things, trains).
const QUAKE3_MOVERS: [&str; 7] = [
    "func_door",
    "func_plat",
    "func_button",
    "func_rotating",
    "func_bobbing",
    "func_pendulum",
    "func_train",
];

/// What a brush entity's model is to its game (the entity rules; a submodel, never the
/// world):
/// - `trigger_*` entities are [`ModelKind::Trigger`] volumes;
/// - a model none of whose brushes blocks is a [`ModelKind::Volume`], and so is
///   `func_illusionary` in every game, and in Quake 3 every class baseq3 spawns no entity for
///   (`func_wall`, `func_illusionary`, …: `G_CallSpawn` frees them);
/// - `func_wall` (Quake, Quake 2 unless spawnflags 1 or 2 make it appear or toggle,
///   Half-Life) and `func_static` (Quake 3's "bmodel that just sits there") are
///   [`ModelKind::Static`]: they block in the world sweep;
/// - every other blocking brush entity is a [`ModelKind::Mover`] the game moves.
fn model_kind(game: Game, entity: Option<&Entity>, brushes: &[&Brush]) -> ModelKind {
    let classname = entity.map_or("", |e| e.classname());
    let is = |name: &str| classname.eq_ignore_ascii_case(name);
    if is_trigger_class(classname) {
        return ModelKind::Trigger;
    }
    if !brushes.iter().any(|b| b.solid) || is("func_illusionary") {
        return ModelKind::Volume;
    }
    let spawnflags = entity
        .and_then(|e| e.get("spawnflags"))
        .and_then(|v| v.trim().parse::<i64>().ok())
        .unwrap_or(0);
    match game {
        Game::Quake3 if is("func_static") => ModelKind::Static,
        Game::Quake3 if QUAKE3_MOVERS.iter().any(|m| is(m)) => ModelKind::Mover,
        Game::Quake3 => ModelKind::Volume,
        // Quake 2's TRIGGER_SPAWN (1) and TOGGLE (2) make a wall the game shows and hides.
        Game::Quake2 if is("func_wall") && spawnflags & 3 != 0 => ModelKind::Mover,
        _ if is("func_wall") || is("func_static") => ModelKind::Static,
        _ => ModelKind::Mover,
    }
}

/// The compiled entity table: every entity in file order with its model, key/values beyond
/// the file's limits left out with a diagnostic each.
fn entity_records(
    entities: &[Entity],
    model_of_entity: &[Option<u32>],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<EntityRecord> {
    use crate::tolerance::{MAX_ENTITY_PROPERTIES, MAX_ENTITY_STRING};
    entities
        .iter()
        .zip(model_of_entity)
        .map(|(entity, &model)| {
            let mut properties = Vec::with_capacity(entity.properties.len());
            for (key, value) in &entity.properties {
                let long = key.len() > MAX_ENTITY_STRING || value.len() > MAX_ENTITY_STRING;
                if long || properties.len() == MAX_ENTITY_PROPERTIES {
                    let why = if long {
                        format!("longer than {MAX_ENTITY_STRING} bytes")
                    } else {
                        format!("beyond {MAX_ENTITY_PROPERTIES} key/values")
                    };
                    let shown: String = key.chars().take(32).collect();
                    diagnostics.push(Diagnostic {
                        loc: entity.loc,
                        severity: Severity::Warning,
                        kind: DiagnosticKind::EntityPropertyDropped,
                        message: format!("entity key \"{shown}\" left out: {why}"),
                    });
                    continue;
                }
                properties.push((key.clone(), value.clone()));
            }
            EntityRecord { properties, model }
        })
        .collect()
}

/// Appends `tree`'s nodes and leaves (brush indices offset by `first_brush`) and returns
/// its root.
fn append_tree(data: &mut MapData, tree: &BspTree, first_brush: u32) -> NodeChild {
    let node_base = data.nodes.len() as u32;
    let leaf_base = data.leaves.len() as u32;
    let convert = |child: Child| match child {
        Child::Node(i) => NodeChild::Node(node_base + i),
        Child::Leaf(i) => NodeChild::Leaf(leaf_base + i),
    };
    for node in &tree.nodes {
        data.nodes.push(CompiledNode {
            plane: node.plane.0,
            children: [convert(node.children[0]), convert(node.children[1])],
        });
    }
    for leaf in &tree.leaves {
        let first = data.leaf_brushes.len() as u32;
        data.leaf_brushes
            .extend(leaf.brushes.iter().map(|b| b + first_brush));
        data.leaves.push(CompiledLeaf {
            contents: leaf.contents,
            first_brush: first,
            brush_count: leaf.brushes.len() as u32,
        });
    }
    convert(tree.root)
}

fn model_bounds(brushes: &[&Brush]) -> (Vec3, Vec3) {
    if brushes.is_empty() {
        return (Vec3::ZERO, Vec3::ZERO);
    }
    let mins = brushes.iter().fold(DVec3::INFINITY, |m, b| m.min(b.mins));
    let maxs = brushes
        .iter()
        .fold(DVec3::NEG_INFINITY, |m, b| m.max(b.maxs));
    (mins.as_vec3(), maxs.as_vec3())
}

/// The entity's `origin` key as three finite numbers within the world limit.
fn origin_key(entity: &Entity) -> Option<Vec3> {
    let v = entity.origin()?;
    (v.abs().max_element() <= crate::tolerance::MAX_MAP_COORD).then_some(v.as_vec3())
}
