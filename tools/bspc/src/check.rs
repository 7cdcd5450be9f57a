//! `bspc check`: read a map (or a compiled `.bsp`, or a mesh), build its brushes, look for
//! a leak, report.
//!
//! Takes a path (a `.bsp` told apart by content, a mesh by its extension, read with the
//! mesh flags), gives the summary (human or JSON) on stdout, diagnostics and the leak
//! warning on stderr, and the leak's pointfile beside the map (a stale one removed when the
//! map no longer leaks; a mesh has no leak, its holes are diagnostics). Also the leak
//! report `compile` shares.

use std::path::{Path, PathBuf};

use planeshift::build::{BspFormat, MeshOptions, check_mesh};
use planeshift::build::{Diagnostic, Game, Severity};
use planeshift::map::{self, MapFile};
use planeshift::{
    CompileError, CompileOptions,
    build::{BrushCheck, Leak, SourceFormat, check_brushes_with, check_bsp},
};
use serde::Serialize;
use serde::ser::SerializeMap;

use crate::CliError;
use crate::args::RulesArgs;
use crate::game::compile_options;

/// The `--json` object of `bspc check`. Field names are a contract.
#[derive(Debug, Serialize)]
struct CheckJson<'a> {
    entities: usize,
    brushes: usize,
    world_brushes: usize,
    faces: usize,
    patches: usize,
    /// Facet brushes the patches make (at the patch tolerance).
    patch_facets: usize,
    formats: Vec<&'a str>,
    diagnostics: Vec<DiagnosticJson>,
    /// The game whose brush rules gave contents (detected or `--game`; a custom game's
    /// name).
    game: String,
    contents: ContentsJson,
    leak: Option<LeakJson>,
    /// What the file is: `map`, or a `.bsp`'s format (`bsp29`, `bsp2`, `2psb`, `hl30`,
    /// `ibsp38`, `qbsp38`, `ibsp46`).
    format: &'a str,
}

/// Brushes per contents name, in `Contents::NAMED` order; names no brush has are left out.
#[derive(Debug)]
struct ContentsJson(Vec<(&'static str, usize)>);

impl Serialize for ContentsJson {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, count) in &self.0 {
            map.serialize_entry(name, count)?;
        }
        map.end()
    }
}

/// A leak in `check --json` and `compile --json`. Field names are a contract.
#[derive(Debug, Serialize)]
pub struct LeakJson {
    /// The entity's index in the map's entity list (file order).
    entity: usize,
    classname: String,
    origin: [f64; 3],
    /// Where the pointfile was written.
    pointfile: String,
    /// How many points it holds.
    points: usize,
}

#[derive(Debug, Serialize)]
struct DiagnosticJson {
    line: u32,
    column: u32,
    message: String,
}

pub fn run(
    path: &Path,
    json: bool,
    (rules, mesh): (RulesArgs, MeshOptions),
    pointfile: Option<&Path>,
) -> Result<(), CliError> {
    let options = compile_options(rules)?;
    let bytes = std::fs::read(path).map_err(|e| CliError::io(path, &e))?;
    let report = if planeshift::build::is_mesh_path(path) {
        check_mesh_file(path, &bytes, (&options, &mesh))?
    } else if BspFormat::detect(&bytes).is_some() {
        check_bsp_file(path, &bytes, &options)?
    } else {
        check_map_file(path, &bytes, &options)?
    };
    let output = &report.check;
    if !json {
        print_diagnostics(path, &output.diagnostics);
    }
    let leak = report_leak(path, pointfile, output.leak.as_ref())?;
    if json {
        let report = CheckJson {
            entities: report.entities,
            brushes: report.counts.brushes,
            world_brushes: output.world_brushes,
            faces: report.counts.faces,
            patches: report.counts.patches,
            patch_facets: output.patch_facets,
            formats: report.formats.clone(),
            diagnostics: output.diagnostics.iter().map(to_json).collect(),
            game: report.game.clone(),
            contents: ContentsJson(output.contents.clone()),
            leak,
            format: report.format,
        };
        println!(
            "{}",
            serde_json::to_string(&report).map_err(CliError::internal)?
        );
    } else {
        println!(
            "{}: {}, {} entities, {} brushes ({} solid world, {} rejected), {} faces, {} patches ({} facets); formats: {}",
            path.display(),
            report.format,
            report.entities,
            report.counts.brushes,
            output.world_brushes,
            output.rejected,
            report.counts.faces,
            report.counts.patches,
            output.patch_facets,
            report.formats.join(", ")
        );
    }
    Ok(())
}

/// What `check` found in a `.map` or a `.bsp`.
struct CheckReport {
    /// `map` or the `.bsp`'s format name.
    format: &'static str,
    /// The `.map`'s dialect features; a `.bsp`'s format alone.
    formats: Vec<&'static str>,
    game: String,
    entities: usize,
    counts: Counts,
    check: BrushCheck,
}

/// `check` of a `.map`: parsed, its brushes built by the options' rules.
fn check_map_file(
    path: &Path,
    bytes: &[u8],
    options: &CompileOptions,
) -> Result<CheckReport, CliError> {
    let map = map::parse_map(bytes).map_err(|e| CliError::syntax(path, &e))?;
    let game = match (&options.custom_game, options.game) {
        (Some(custom), _) => custom.name.clone(),
        (None, game) => game.unwrap_or_else(|| Game::detect(&map)).name().to_owned(),
    };
    let check = check_brushes_with(&map, options).map_err(CliError::internal)?;
    Ok(CheckReport {
        format: SourceFormat::Map.name(),
        formats: map::formats(&map),
        game,
        entities: map.entities.len(),
        counts: Counts::of(&map),
        check,
    })
}

/// `check` of a mesh: its brush stage (`check_mesh`), its buffers read beside it; one
/// entity (the world), its triangles as faces.
fn check_mesh_file(
    path: &Path,
    bytes: &[u8],
    (options, mesh): (&CompileOptions, &MeshOptions),
) -> Result<CheckReport, CliError> {
    let found = check_mesh(bytes, path.parent(), mesh, options).map_err(|e| match e {
        CompileError::Mesh(m) => CliError::input(format!("{}: error: {m}", path.display())),
        other => CliError::internal(other),
    })?;
    let format = SourceFormat::Mesh(found.format).name();
    Ok(CheckReport {
        format,
        formats: vec![format],
        game: found.game,
        entities: 1,
        counts: Counts {
            brushes: found.brushes,
            faces: found.triangles,
            patches: 0,
        },
        check: found.check,
    })
}

/// `check` of a compiled `.bsp`: imported (its game is the file's), a malformed one exits 1
/// naming its lump.
fn check_bsp_file(
    path: &Path,
    bytes: &[u8],
    options: &CompileOptions,
) -> Result<CheckReport, CliError> {
    let found = check_bsp(bytes, options).map_err(|e| match e {
        CompileError::Import(i) => CliError::input(format!("{}: error: {i}", path.display())),
        other => CliError::internal(other),
    })?;
    let format = SourceFormat::Bsp(found.format).name();
    let game = match &options.custom_game {
        Some(custom) => custom.name.clone(),
        None => found.game.name().to_owned(),
    };
    Ok(CheckReport {
        format,
        formats: vec![format],
        game,
        entities: found.entities,
        counts: Counts {
            brushes: found.brushes,
            faces: found.sides,
            patches: found.patches,
        },
        check: found.check,
    })
}

/// Reports what the leak search found for the map at `path`: on a leak, writes the
/// pointfile (at `pointfile`, default the map with extension `.pts`) and prints
/// `MAP: warning: leak: ...` on stderr; without one, removes a pointfile left there by an
/// earlier leak. Gives the JSON object of the leak.
pub fn report_leak(
    path: &Path,
    pointfile: Option<&Path>,
    leak: Option<&Leak>,
) -> Result<Option<LeakJson>, CliError> {
    let pts: PathBuf = pointfile.map_or_else(|| path.with_extension("pts"), Path::to_path_buf);
    let Some(leak) = leak else {
        match std::fs::remove_file(&pts) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(CliError::io(&pts, &e));
            }
            _ => return Ok(None),
        }
    };
    std::fs::write(&pts, leak.pointfile_text()).map_err(|e| CliError::io(&pts, &e))?;
    let [x, y, z] = leak.origin.to_array();
    eprintln!(
        "{}: warning: leak: entity {} ({}) at ({x} {y} {z}) reaches the void; pointfile {}",
        path.display(),
        leak.entity,
        leak.classname,
        pts.display()
    );
    Ok(Some(LeakJson {
        entity: leak.entity,
        classname: leak.classname.clone(),
        origin: leak.origin.to_array(),
        pointfile: pts.display().to_string(),
        points: leak.trail.len(),
    }))
}

/// Brush, face and patch totals of a parsed map.
pub struct Counts {
    pub brushes: usize,
    pub faces: usize,
    pub patches: usize,
}

impl Counts {
    pub fn of(map: &MapFile) -> Counts {
        Counts {
            brushes: map.brushes().count(),
            faces: map.brushes().map(|b| b.faces.len()).sum(),
            patches: map.entities.iter().map(|e| e.patches.len()).sum(),
        }
    }
}

fn to_json(d: &Diagnostic) -> DiagnosticJson {
    DiagnosticJson {
        line: d.loc.line,
        column: d.loc.column,
        message: d.message.clone(),
    }
}

pub fn print_diagnostics(path: &Path, diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        let level = match d.severity {
            Severity::Note => "note",
            Severity::Warning => "warning",
        };
        eprintln!("{}:{}: {level}: {}", path.display(), d.loc, d.message);
    }
}
