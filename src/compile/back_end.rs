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
//!
//! Unless the void is to be filled, the leak search only reads the brushes: with the
//! `parallel` feature it runs beside the bevels and the tree (`threads.rs`), and the
//! `leaks` lap of the timings is the wall time it adds to theirs.

use std::time::Instant;

use glam::{DVec3, Vec3};

use super::declared::{declared_hulls, default_shapes};
use super::models::{model_bounds, origin_key};
use super::sides::bevels_and_sides;
use super::tables::{append_tree, entity_records};
use super::{CompileError, CompileOptions, CompileOutput, SourceFormat, tree_contents};
use crate::brush::{Brush, BrushOutput, BrushOwner};
use crate::bsp::build_tree;
use crate::compiled::{CompileStats, CompiledMap, Model, ModelKind, Plane};
use crate::contents::Contents;
use crate::game::rules::{GameRules, is_origin_texture};
use crate::leak::find_outside;
use crate::map::MapFile;
use crate::threads::{join, map_all};

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
    /// The source's own hull trees (an imported Quake 1 family `.bsp`'s), kept in the
    /// compiled level as they are.
    pub(crate) clip_hulls: crate::compiled::ClipHulls,
    /// The source's world patches as Quake 3 collides with them (an imported Quake 3
    /// `.bsp`'s), kept in the compiled level as they are.
    pub(crate) game_patches: crate::compiled::GamePatches,
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

    /// Seconds since the last lap.
    fn elapsed(&self) -> f64 {
        self.clock.elapsed().as_secs_f64()
    }

    /// Records `seconds` as stage `name` (stages that ran side by side, timed on their own).
    fn record(&mut self, name: &'static str, seconds: f64) {
        self.timings.push((name, seconds));
    }

    /// Starts the next lap from now.
    fn restart(&mut self) {
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
        clip_hulls,
        game_patches,
    } = level;
    if format != SourceFormat::Map {
        place_at_origins(map, &mut output.brushes);
    }
    let world_brushes = output.world_brush_count() as u32;
    // The fill changes the brushes, so it comes first; otherwise the leak search only reads
    // them and runs beside the bevels and the tree.
    let mut leak = None;
    if !void_filled && options.fill_outside {
        let outside = find_outside(map, &output.brushes);
        let fill = outside.fill_brushes(&mut output.diagnostics);
        output.brushes.extend(fill);
        leak = outside.leak;
    }
    let search_beside = !void_filled && !options.fill_outside;

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

    let (found, (built, bevel_seconds, tree_seconds)) = join(
        || search_beside.then(|| find_outside(map, &output.brushes).leak),
        || {
            let clock = Instant::now();
            let (planes, materials, data, inputs) = bevels_and_sides(&model_brushes, options);
            let bevel_seconds = clock.elapsed().as_secs_f64();
            let clock = Instant::now();
            let trees = map_all(&inputs, |i| build_tree(i, &planes));
            let built = (planes, materials, data, trees);
            (built, bevel_seconds, clock.elapsed().as_secs_f64())
        },
    );
    if let Some(found) = found {
        leak = found;
    }
    let (planes, materials, mut data, trees) = built;
    // The leaks' lap is what the search (and fill) added to the wall time of the three.
    let wall = stopwatch.elapsed();
    stopwatch.record("leaks", (wall - bevel_seconds - tree_seconds).max(0.0));
    stopwatch.record("bevels", bevel_seconds);
    stopwatch.record("tree", tree_seconds);
    stopwatch.restart();

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
    data.clip_hulls = clip_hulls;
    data.game_patches = game_patches;
    data.stats = CompileStats {
        brushes: brush_count,
        world_brushes,
        patches: patch_count,
        patch_facets: output.patch_facet_count() as u32,
    };
    stopwatch.lap("pack");
    let defaults;
    let shapes = match &options.declared_shapes {
        Some(shapes) => shapes.as_slice(),
        None => {
            defaults = default_shapes(rules.base());
            defaults.as_slice()
        }
    };
    data.declared = declared_hulls(&data, shapes);
    stopwatch.lap("declared");
    let compiled = CompiledMap::from_data(data).map_err(CompileError::Output)?;
    stopwatch.lap("load");
    Ok(CompileOutput {
        map: compiled,
        diagnostics: output.diagnostics,
        leak,
        timings: stopwatch.timings,
        format,
    })
}
