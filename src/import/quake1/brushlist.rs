//! ericw-tools' BSPX `BRUSHLIST` lump: the original brushes of every model, clip brushes
//! included (ericw-tools `bspxfile.cc`, fteqw `Q1BSP_LoadBrushes`).
//!
//! Takes a decoded file ([`Q1File`]); gives each model's brushes when the file has a BSPX
//! directory with a `BRUSHLIST`, `None` otherwise. The BSPX directory sits at the first
//! 4-aligned offset after the last lump: `"BSPX"`, `u32 count`, `count × {char name[24];
//! u32 offset, length}`. The lump repeats per model `i32 version = 1, model, brushes,
//! planes`, then per brush `f32 mins[3], maxs[3]; i16 contents; u16 n; n × {f32 normal[3],
//! dist}`: the axial planes come from the bounds. Sides are textured with a face on the
//! same plane facing the same way, when the file draws one. Guarantees: every count is
//! checked against the bytes left before anything is allocated; every error names the
//! `BRUSHLIST` lump (or `bspx` for the directory).

use std::collections::HashMap;

use glam::DVec3;

use super::lumps::Q1File;
use crate::brush::{Brush, brush_from_planes};
use crate::game::Game;
use crate::game::rules::quake::leaf_contents;
use crate::geom::BuildPlane;
use crate::import::{ImportError, Record};
use crate::map::SourceLoc;

/// The lump's name in the BSPX directory and in errors.
const LUMP: &str = "BRUSHLIST";
/// The only version ericw-tools writes.
const VERSION: i32 = 1;
/// A model header's bytes, a brush header's, a plane's.
const MODEL_HEADER: usize = 16;
const BRUSH_HEADER: usize = 28;
const PLANE: usize = 16;
/// How finely planes are matched to the faces drawn on them: normals to 1/10,000 and
/// distances to 1/100 unit (the file's planes and BRUSHLIST's are the same `f32` values, so
/// equal planes hash equal; the quantum only absorbs the `f32` to `f64` step).
const NORMAL_QUANTUM: f64 = 1e4;
const DIST_QUANTUM: f64 = 1e2;

/// Each model's brushes from the file's `BRUSHLIST`, or `None` when it has none.
pub(super) fn read(file: &Q1File<'_>, game: Game) -> Result<Option<Vec<Vec<Brush>>>, ImportError> {
    let Some(bytes) = find_lump(file)? else {
        return Ok(None);
    };
    let error = |problem: String| file.lumps.error(LUMP, problem);
    let textures = face_textures(file);
    let mut models: Vec<Vec<Brush>> = vec![Vec::new(); file.models.len()];
    let mut at = 0usize;
    while at < bytes.len() {
        let header = Record::new(bytes.get(at..at + MODEL_HEADER).ok_or_else(|| {
            error(format!(
                "a model header at byte {at} runs past the lump's end"
            ))
        })?);
        let (version, model, count) = (header.i32(0), header.i32(4), header.i32(8));
        if version != VERSION {
            return Err(error(format!(
                "version {version} at byte {at} (only {VERSION} is known)"
            )));
        }
        let list = usize::try_from(model)
            .ok()
            .and_then(|m| models.get_mut(m))
            .ok_or_else(|| {
                error(format!(
                    "model {model} is out of range ({} models)",
                    file.models.len()
                ))
            })?;
        at += MODEL_HEADER;
        let count = usize::try_from(count)
            .ok()
            .filter(|&c| c <= (bytes.len() - at) / BRUSH_HEADER)
            .ok_or_else(|| {
                error(format!(
                    "model {model}: brush count {count} does not fit the lump"
                ))
            })?;
        for index in 0..count {
            let head = Record::new(bytes.get(at..at + BRUSH_HEADER).ok_or_else(|| {
                error(format!(
                    "model {model}: brush {index} runs past the lump's end"
                ))
            })?);
            let mins = DVec3::new(
                f64::from(head.f32(0)),
                f64::from(head.f32(4)),
                f64::from(head.f32(8)),
            );
            let maxs = DVec3::new(
                f64::from(head.f32(12)),
                f64::from(head.f32(16)),
                f64::from(head.f32(20)),
            );
            let value = i32::from(head.i16(24));
            let sides = usize::from(head.u16(26));
            at += BRUSH_HEADER;
            let plane_bytes = bytes.get(at..at + sides * PLANE).ok_or_else(|| {
                error(format!(
                    "model {model}: brush {index}'s {sides} planes run past the lump's end"
                ))
            })?;
            at += sides * PLANE;
            if !(mins.is_finite() && maxs.is_finite()) {
                return Err(error(format!(
                    "model {model}: brush {index} has bounds that are not finite"
                )));
            }
            let mut planes = axial_planes(mins, maxs).to_vec();
            for (k, raw) in plane_bytes.chunks_exact(PLANE).enumerate() {
                let r = Record::new(raw);
                let normal = DVec3::new(
                    f64::from(r.f32(0)),
                    f64::from(r.f32(4)),
                    f64::from(r.f32(8)),
                );
                let plane = BuildPlane::from_normal_dist(normal, f64::from(r.f32(12)))
                    .filter(|p| p.normal.is_finite())
                    .ok_or_else(|| {
                        error(format!(
                            "model {model}: brush {index} plane {k} is not finite or has no normal"
                        ))
                    })?;
                planes.push(plane);
            }
            let Some((contents, game_contents)) = leaf_contents(value, game) else {
                continue;
            };
            let loc = SourceLoc {
                line: u32::try_from(index).unwrap_or(u32::MAX).saturating_add(1),
                column: 1,
            };
            // A brush the brush stage rejects is dropped: the compiler wrote its planes from
            // a brush it kept, so this is rounding at a sliver.
            let Ok(Some(mut brush)) = brush_from_planes(&planes, contents, "", loc) else {
                continue;
            };
            for side in &mut brush.sides {
                if let Some(name) = textures.get(&plane_key(&side.plane)) {
                    side.texture.clone_from(name);
                }
            }
            brush.game_contents = game_contents;
            list.push(brush);
        }
    }
    Ok(Some(models))
}

/// The `BRUSHLIST` bytes from the BSPX directory after the last lump, if there is one.
fn find_lump<'a>(file: &Q1File<'a>) -> Result<Option<&'a [u8]>, ImportError> {
    let bytes = file.lumps.file();
    let start = file.lumps_end.div_ceil(4).saturating_mul(4);
    let Some(head) = bytes.get(start..start.saturating_add(8)) else {
        return Ok(None);
    };
    if head.get(0..4) != Some(b"BSPX".as_slice()) {
        return Ok(None);
    }
    let count = Record::new(head).u32(4) as usize;
    let entries = bytes
        .get(start + 8..)
        .filter(|rest| count <= rest.len() / 32)
        .ok_or_else(|| {
            file.lumps
                .error("bspx", format!("{count} entries do not fit the file"))
        })?;
    for entry in entries.chunks_exact(32).take(count) {
        let r = Record::new(entry);
        if r.name(0, 24) != LUMP {
            continue;
        }
        let (offset, length) = (r.u32(24) as usize, r.u32(28) as usize);
        return offset
            .checked_add(length)
            .and_then(|end| bytes.get(offset..end))
            .map(Some)
            .ok_or_else(|| {
                file.lumps.error(
                    LUMP,
                    format!("offset {offset} and length {length} reach past the end of the file"),
                )
            });
    }
    Ok(None)
}

/// The six planes of the box `mins`–`maxs`, facing out.
fn axial_planes(mins: DVec3, maxs: DVec3) -> [BuildPlane; 6] {
    [
        BuildPlane {
            normal: DVec3::X,
            dist: maxs.x,
        },
        BuildPlane {
            normal: DVec3::Y,
            dist: maxs.y,
        },
        BuildPlane {
            normal: DVec3::Z,
            dist: maxs.z,
        },
        BuildPlane {
            normal: DVec3::NEG_X,
            dist: -mins.x,
        },
        BuildPlane {
            normal: DVec3::NEG_Y,
            dist: -mins.y,
        },
        BuildPlane {
            normal: DVec3::NEG_Z,
            dist: -mins.z,
        },
    ]
}

/// A plane's key for [`face_textures`].
fn plane_key(plane: &BuildPlane) -> [i64; 4] {
    let n = (plane.normal * NORMAL_QUANTUM).round();
    [
        n.x as i64,
        n.y as i64,
        n.z as i64,
        (plane.dist * DIST_QUANTUM).round() as i64,
    ]
}

/// The texture of a face drawn on each oriented plane: a face's normal is its node's plane,
/// flipped for side 1.
fn face_textures(file: &Q1File<'_>) -> HashMap<[i64; 4], String> {
    let mut out = HashMap::new();
    for node in &file.nodes {
        let Some(plane) = file.planes.get(node.plane) else {
            continue;
        };
        for face in file.faces.get(node.faces.clone()).unwrap_or(&[]) {
            let Some(name) = face.texture.and_then(|t| file.textures.get(t)) else {
                continue;
            };
            let oriented = if face.back { plane.flipped() } else { *plane };
            out.entry(plane_key(&oriented))
                .or_insert_with(|| name.clone());
        }
    }
    out
}
