//! `bspc contents`: the world's contents at points, by the JSON Lines contract.
//!
//! Takes a world (`.pbsp`, or a `.map` compiled in memory) and points, one
//! `{"point":[x,y,z]}` per line (blank lines skipped); gives one `{"contents":[names...]}`
//! line per point, in order: the names of the contents of the world model (with its static
//! models) at the point, in bit order, `[]` for open space. A point on a brush's surface is
//! inside it.

use std::path::Path;

use glam::Vec3;
use planeshift::CompileOptions;
use planeshift::build::MeshOptions;
use serde::{Deserialize, Serialize};

use crate::CliError;
use crate::jsonl::{read_lines, write_output};
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
    read_lines(path, |point: PointJson| {
        let point = Vec3::from(point.point);
        if point.is_finite() {
            Ok(point)
        } else {
            Err("the point must be finite".to_owned())
        }
    })
}

pub fn contents(
    world: &Path,
    points: &Path,
    output: Option<&Path>,
    options: (&CompileOptions, &MeshOptions),
) -> Result<(), CliError> {
    let points = read_points(points)?;
    let world = load_world(world, options)?;
    let mut out = String::new();
    for point in points {
        let contents = ContentsJson {
            contents: world.point_contents(point).names().collect(),
        };
        out.push_str(&serde_json::to_string(&contents).map_err(CliError::internal)?);
        out.push('\n');
    }
    write_output(output, &out)
}
