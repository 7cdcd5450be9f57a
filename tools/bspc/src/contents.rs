//! `bspc contents`: the world's contents at points, by the JSON Lines contract.
//!
//! Takes a world (`.pbsp`, or a `.map` compiled in memory) and points, one
//! `{"point":[x,y,z]}` per line (blank lines skipped); gives one `{"contents":[names...]}`
//! line per point, in order: the names of the contents of the world model (with its static
//! models) at the point, in bit order, `[]` for open space. A point on a brush's surface is
//! inside it.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use glam::Vec3;
use planeshift::Game;
use serde::{Deserialize, Serialize};

use crate::CliError;
use crate::trace::load_world;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PointJson {
    point: [f32; 3],
}

#[derive(Debug, Serialize)]
struct ContentsJson {
    contents: Vec<&'static str>,
}

/// Reads `{"point":[x,y,z]}` lines; blank lines are skipped.
fn read_points(path: &Path) -> Result<Vec<Vec3>, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| CliError::io(path, &e))?;
    let mut points = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |message: String| {
            CliError::input(format!(
                "{}:{}: error: {message}",
                path.display(),
                index + 1
            ))
        };
        let point: PointJson = serde_json::from_str(line).map_err(|e| bad(e.to_string()))?;
        let point = Vec3::from(point.point);
        if !point.is_finite() {
            return Err(bad("the point must be finite".to_owned()));
        }
        points.push(point);
    }
    Ok(points)
}

pub fn contents(
    world: &Path,
    points: &Path,
    output: Option<&Path>,
    (shader_folders, game): (Vec<PathBuf>, Option<Game>),
) -> Result<(), CliError> {
    let points = read_points(points)?;
    let world = load_world(world, (shader_folders, game), None)?;
    let mut out = String::new();
    for point in points {
        let contents = ContentsJson {
            contents: world.point_contents(point).names().collect(),
        };
        out.push_str(&serde_json::to_string(&contents).map_err(CliError::internal)?);
        out.push('\n');
    }
    match output {
        Some(path) => std::fs::write(path, out).map_err(|e| CliError::io(path, &e)),
        None => std::io::stdout()
            .write_all(out.as_bytes())
            .map_err(|e| CliError::io(Path::new("<stdout>"), &e)),
    }
}
