//! The compile's stages after the brush stage, shared by a `.map` and an imported `.bsp`:
//! leaks (and the outside fill when asked), models, origins as pivots, bevels, the tree, the
//! packed and validated [`CompiledMap`](crate::compiled::CompiledMap).
//!
//! Takes a [`Level`]: the entities, every model's brushes as the brush stage (or an
//! importer) gives them, the game's rules and which entities are brush models. Gives the
//! [`CompileOutput`]. Guarantees: the same code makes every world, whatever its source, so
//! bevels, reach and every guarantee of the compiled world are the compiler's own; an
//! imported model stored relative to its entity's `origin` is placed there (qbsp3 `map.c
//! ParseMapEntity`, q3map2 `AdjustBrushesForOrigin`) and the origin is its pivot.

use std::time::Instant;

use glam::{DVec3, Vec3};

use super::models::{model_bounds, origin_key};
use super::tables::{MaterialTable, append_tree, entity_records};
use super::{CompileError, CompileOptions, CompileOutput, SourceFormat, tree_contents};
use crate::brush::{Brush, BrushOutput, BrushOwner, bevel_source_face, brush_bevels_with};
use crate::bsp::{BrushInput, BspTree, PlaneTable, build_tree};
use crate::compiled::{
    CompileStats, CompiledBrush, CompiledMap, CompiledSide, MapData, Model, ModelKind, Plane,
};
use crate::contents::Contents;
use crate::game::rules::{GameRules, is_origin_texture};
use crate::leak::find_outside;
use crate::map::MapFile;
use crate::surface::SurfaceFlags;

/// A level after its brush stage: what the back end compiles.
pub(crate) struct Level<'a> {
    /// Where it came from.
    pub(crate) format: SourceFormat,
    /// Its entities (a `.map`'s with their brushes, an import's without).
    pub(crate) map: &'a MapFile,
    /// Every brush of every model, and the diagnostics so far.
    pub(crate) output: BrushOutput,
    /// The rules that give models their kind and the compiled file its game name.
    pub(crate) rules: GameRules<'a>,
    /// For each entity of `map`, whether it is a brush model of its own (never the world's
    /// entity): a `.map` entity with brushes or patches outside the world classes, an
    /// imported entity with a `"model" "*k"` key.
    pub(crate) model_entities: Vec<bool>,
    /// The brush blocks of the source, for the statistics.
    pub(crate) brush_count: u32,
    /// The patches of the source, for the statistics.
    pub(crate) patch_count: u32,
    /// Whether the source's own compiler already filled the void (an imported `.bsp`,
    /// `ImportedLevel::void_filled`): the leak search is skipped, as it would find no leak
    /// and fill nothing.
    pub(crate) void_filled: bool,
}

/// Seconds per stage, lap by lap.
pub(crate) struct Stopwatch {
    clock: Instant,
    pub(crate) timings: Vec<(&'static str, f64)>,
}

impl Stopwatch {
    /// A stopwatch running from now.
    pub(crate) fn start() -> Self {
        Stopwatch {
            clock: Instant::now(),
            timings: Vec::new(),
        }
    }

    /// Records the time since the last lap as stage `name`.
    pub(crate) fn lap(&mut self, name: &'static str) {
        self.timings
            .push((name, self.clock.elapsed().as_secs_f64()));
        self.clock = Instant::now();
    }
}

/// Moves every brush of an imported brush entity with an `origin` key from the model's own
/// frame to the world's (the file stores such a model relative to that point).
fn place_at_origins(map: &MapFile, brushes: &mut [Brush]) {
    for brush in brushes {
        let BrushOwner::Entity(index) = brush.owner else {
            continue;
        };
        let Some(offset) = map.entities.get(index).and_then(origin_key) else {
            continue;
        };
        translate(brush, offset.as_dvec3());
    }
}

/// Moves `brush` by `offset`.
fn translate(brush: &mut Brush, offset: DVec3) {
    for side in &mut brush.sides {
        side.plane.dist += side.plane.normal.dot(offset);
        for p in &mut side.winding.points {
            *p += offset;
        }
    }
    brush.mins += offset;
    brush.maxs += offset;
}

/// Compiles `level` from its leaks to the validated world.
pub(crate) fn compile_level_stages(
    level: Level<'_>,
    options: &CompileOptions,
    mut stopwatch: Stopwatch,
) -> Result<CompileOutput, CompileError> {
    // Leaks, and the outside filled when asked (its brushes are the world's, but not the
    // map's: the statistics count the map's).
    let Level {
        format,
        map,
        mut output,
        rules,
        model_entities,
        brush_count,
        patch_count,
        void_filled,
    } = level;
    if format != SourceFormat::Map {
        place_at_origins(map, &mut output.brushes);
    }
    let world_brushes = output.world_brush_count() as u32;
    let leak = if void_filled {
        None
    } else {
        let outside = find_outside(map, &output.brushes);
        if options.fill_outside {
            let fill = outside.fill_brushes(&mut output.diagnostics);
            output.brushes.extend(fill);
        }
        outside.leak
    };
    stopwatch.lap("leaks");

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
    for (index, _) in model_entities.iter().enumerate().filter(|(_, m)| **m) {
        if Some(index) != worldspawn
            && let Some(slot) = model_of_entity.get_mut(index)
        {
            *slot = Some(model_brushes.len() as u32);
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
            BrushOwner::Entity(e) => model_of_entity
                .get(e)
                .copied()
                .flatten()
                .map_or(0, |m| m as usize),
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
    stopwatch.lap("bevels");

    let trees: Vec<BspTree> = inputs.iter().map(|i| build_tree(i, &planes)).collect();
    stopwatch.lap("tree");

    data.planes = planes
        .planes()
        .iter()
        .map(|p| Plane {
            normal: p.normal.as_vec3(),
            dist: p.dist as f32,
        })
        .collect();
    data.materials = materials.names;
    data.game = rules.name().to_owned();
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
            rules.model_kind(entity, brushes.iter().any(|b| b.solid))
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
        brushes: brush_count,
        world_brushes,
        patches: patch_count,
        patch_facets: output.patch_facet_count() as u32,
    };
    let compiled = CompiledMap::from_data(data).map_err(CompileError::Output)?;
    stopwatch.lap("pack");
    Ok(CompileOutput {
        map: compiled,
        diagnostics: output.diagnostics,
        leak,
        timings: stopwatch.timings,
        format,
    })
}
