//! `bspc compile` and `bspc info`: compile a map (or import a `.bsp`) to a `.pbsp` file, or
//! report one (a `.map` or `.bsp` is compiled in memory first).
//!
//! Takes paths, gives the compiled file and statistics (human or one JSON object) on
//! stdout; diagnostics go to stderr.

use std::path::{Path, PathBuf};

use planeshift::build::{MeshOptions, compile_level_at};
use planeshift::{CompileError, CompileOptions};
use planeshift::{
    CompiledMap,
    level::{EXTENSION, MAGIC},
};
use serde::Serialize;

use crate::CliError;
use crate::check::{LeakJson, print_diagnostics, report_leak};
use crate::trace::load_world;

/// The statistics object of `compile --json` and `info --json`. Field names are a contract.
#[derive(Debug, Serialize)]
struct Stats {
    brushes: u32,
    world_brushes: u32,
    /// Curved patches in the source map.
    patches: u32,
    /// Facet brushes made from them.
    patch_facets: u32,
    planes: usize,
    nodes: usize,
    leaves: usize,
    solid_leaves: usize,
    bevels: usize,
    max_depth: u32,
    submodels: usize,
    /// Entities of the map, point and brush (the compiled file keeps them all).
    entities: usize,
    bytes: usize,
    /// The game whose rules the map was compiled by (a built-in game's name, or a custom
    /// game's).
    game: String,
    /// Seconds the compile took: reported by `compile` only, since a compiled file holds no
    /// wall-clock time (the same map always compiles to the same bytes).
    #[serde(skip_serializing_if = "Option::is_none")]
    seconds: Option<f64>,
}

impl Stats {
    fn of(map: &CompiledMap, bytes: usize, seconds: Option<f64>) -> Stats {
        let stats = map.stats();
        let summary = map.summary();
        Stats {
            brushes: stats.brushes,
            world_brushes: stats.world_brushes,
            patches: stats.patches,
            patch_facets: stats.patch_facets,
            planes: summary.planes,
            nodes: summary.nodes,
            leaves: summary.leaves,
            solid_leaves: summary.solid_leaves,
            bevels: summary.bevels,
            max_depth: summary.max_depth,
            submodels: map.models().len().saturating_sub(1),
            entities: summary.entities,
            bytes,
            game: map.game_name().to_owned(),
            seconds,
        }
    }

    fn print_human(&self) {
        let seconds = self
            .seconds
            .map(|s| format!(", {s:.3} s"))
            .unwrap_or_default();
        println!(
            "{} brushes ({} solid world), {} patches ({} facets), {} planes, {} nodes, {} leaves ({} solid), {} bevels, depth {}, {} submodels, {} entities, {} bytes, game {}{}",
            self.brushes,
            self.world_brushes,
            self.patches,
            self.patch_facets,
            self.planes,
            self.nodes,
            self.leaves,
            self.solid_leaves,
            self.bevels,
            self.max_depth,
            self.submodels,
            self.entities,
            self.bytes,
            self.game,
            seconds
        );
    }
}

#[derive(Debug, Serialize)]
struct CompileJson {
    #[serde(flatten)]
    stats: Stats,
    output: String,
    timings: serde_json::Map<String, serde_json::Value>,
    leak: Option<LeakJson>,
}

pub fn compile(
    input: &Path,
    output: Option<PathBuf>,
    json: bool,
    (options, mesh): (CompileOptions, MeshOptions),
    pointfile: Option<&Path>,
) -> Result<(), CliError> {
    let src = std::fs::read(input).map_err(|e| CliError::io(input, &e))?;
    let compiled = compile_level_at(&src, input, &mesh, &options).map_err(|e| match e {
        CompileError::Parse(p) => CliError::syntax(input, &p),
        CompileError::Import(i) => CliError::input(format!("{}: error: {i}", input.display())),
        CompileError::Mesh(m) => CliError::input(format!("{}: error: {m}", input.display())),
        other => CliError::internal(other),
    })?;
    let bytes = compiled.map.to_bytes();
    let output = output.unwrap_or_else(|| input.with_extension(EXTENSION));
    std::fs::write(&output, &bytes).map_err(|e| CliError::io(&output, &e))?;
    print_diagnostics(input, &compiled.diagnostics);
    let leak = report_leak(input, pointfile, compiled.leak.as_ref())?;
    let seconds = compiled.timings.iter().map(|(_, s)| s).sum();
    let stats = Stats::of(&compiled.map, bytes.len(), Some(seconds));
    if json {
        let timings = compiled
            .timings
            .iter()
            .map(|(stage, s)| ((*stage).to_owned(), serde_json::json!(s)))
            .collect();
        let report = CompileJson {
            stats,
            output: output.display().to_string(),
            timings,
            leak,
        };
        println!(
            "{}",
            serde_json::to_string(&report).map_err(CliError::internal)?
        );
    } else {
        for (stage, seconds) in &compiled.timings {
            println!("{stage:>8}: {:8.3} ms", seconds * 1e3);
        }
        stats.print_human();
        println!("wrote {}", output.display());
    }
    Ok(())
}

/// `bspc info`: the statistics of a compiled `.pbsp`, or of a `.map` or `.bsp` compiled in
/// memory with the default options (`bytes` is then the size its `.pbsp` would have).
pub fn info(path: &Path, json: bool) -> Result<(), CliError> {
    let bytes = std::fs::read(path).map_err(|e| CliError::io(path, &e))?;
    let (map, size) = if bytes.starts_with(&MAGIC) {
        let map = CompiledMap::from_bytes(&bytes).map_err(|e| CliError::corrupt(path, &e))?;
        (map, bytes.len())
    } else {
        let map = load_world(path, (&CompileOptions::default(), &MeshOptions::default()))?;
        let size = map.to_bytes().len();
        (map, size)
    };
    let stats = Stats::of(&map, size, None);
    if json {
        println!(
            "{}",
            serde_json::to_string(&stats).map_err(CliError::internal)?
        );
    } else {
        stats.print_human();
    }
    Ok(())
}
