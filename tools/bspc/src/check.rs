//! `bspc check`: read a map, build its brushes, report.
//!
//! Takes a path, gives the summary (human or JSON) on stdout and diagnostics on stderr.

use std::path::Path;

use planeshift::compile::{CompileOptions, check_brushes_with};
use planeshift::map::{self, MapFile};
use planeshift::{Diagnostic, Severity};
use serde::Serialize;

use crate::CliError;

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
}

#[derive(Debug, Serialize)]
struct DiagnosticJson {
    line: u32,
    column: u32,
    message: String,
}

pub fn run(path: &Path, json: bool, patch_tolerance: Option<f64>) -> Result<(), CliError> {
    let bytes = std::fs::read(path).map_err(|e| CliError::io(path, &e))?;
    let map = map::parse_map(&bytes).map_err(|e| CliError::syntax(path, &e))?;
    let defaults = CompileOptions::default();
    let options = CompileOptions {
        patch_tolerance: patch_tolerance.unwrap_or(defaults.patch_tolerance),
        ..defaults
    };
    let output = check_brushes_with(&map, &options).map_err(CliError::internal)?;
    let counts = Counts::of(&map);
    if json {
        let report = CheckJson {
            entities: map.entities.len(),
            brushes: counts.brushes,
            world_brushes: output.world_brushes,
            faces: counts.faces,
            patches: counts.patches,
            patch_facets: output.patch_facets,
            formats: map::formats(&map),
            diagnostics: output.diagnostics.iter().map(to_json).collect(),
        };
        println!(
            "{}",
            serde_json::to_string(&report).map_err(CliError::internal)?
        );
    } else {
        print_diagnostics(path, &output.diagnostics);
        println!(
            "{}: {} entities, {} brushes ({} solid world, {} rejected), {} faces, {} patches ({} facets); formats: {}",
            path.display(),
            map.entities.len(),
            counts.brushes,
            output.world_brushes,
            output.rejected,
            counts.faces,
            counts.patches,
            output.patch_facets,
            map::formats(&map).join(", ")
        );
    }
    Ok(())
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
