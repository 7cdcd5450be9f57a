//! A compiled file's brush, given as its sides' planes, to the brush the brush stage makes.
//!
//! Takes a brush's sides (plane, material, surface flags) as a Quake 2 or Quake 3 file stores
//! them, its contents and its owner; gives a [`Brush`] in the [`BrushOutput`], or a
//! diagnostic when the planes bound no closed brush. Guarantees: the file's own bevel sides
//! (sides whose polygon on the brush has no width: qbsp3 `AddBrushBevels`, q3map2's bevels)
//! are dropped, so the bevel stage makes the compiler's own; every plane is finite and unit
//! (`read_plane`); the brush is built in f64 by [`brush_from_planes`].

use glam::DVec3;

use super::{ImportError, Record, Records};
use crate::brush::{
    Brush, BrushOutput, BrushOwner, Diagnostic, DiagnosticKind, Severity, brush_from_planes,
};
use crate::contents::Contents;
use crate::geom::{BuildPlane, Winding};
use crate::map::SourceLoc;
use crate::surface::SurfaceFlags;

/// A side narrower than this (its area over its longest edge), in map units, has no area on
/// its brush: a bevel plane touching the brush along an edge or at a corner, which the f32
/// planes of the file cut a sliver of at most a few thousandths wide (the f32 rounding of a
/// plane's distance at the world limit).
const BEVEL_SIDE_WIDTH: f64 = 0.01;

/// How far a stored plane's normal may be from unit length before it is refused (f32
/// rounding is far below this; anything more is a corrupt record).
const UNIT_NORMAL_SLACK: f64 = 1e-2;

/// The most sides a stored brush may have (faces and the file's bevels): more is refused
/// before any geometry is made, so the work per brush stays bounded.
pub(crate) const MAX_STORED_SIDES: usize = 2 * crate::tolerance::MAX_BRUSH_FACES;

/// One stored side.
#[derive(Clone, Debug)]
pub(crate) struct StoredSide {
    /// Its plane, normal out of the brush.
    pub(crate) plane: BuildPlane,
    /// Its material (empty when the side has none).
    pub(crate) texture: String,
    /// What its surface means.
    pub(crate) surface: SurfaceFlags,
}

/// What a stored brush is made of and whom it belongs to.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StoredMeaning {
    /// Its contents, translated.
    pub(crate) contents: Contents,
    /// The game's own bits.
    pub(crate) game_contents: u32,
    /// Whether it blocks something ([`Brush::solid`]).
    pub(crate) solid: bool,
    /// Its model.
    pub(crate) owner: BrushOwner,
}

/// Plane `index` of a `planes` lump whose records hold `f32 normal[3], dist` first.
pub(crate) fn read_plane(planes: &Records<'_>, index: usize) -> Result<BuildPlane, ImportError> {
    let record: Record<'_> = planes.get(index)?;
    let normal = DVec3::new(
        f64::from(record.f32(0)),
        f64::from(record.f32(4)),
        f64::from(record.f32(8)),
    );
    let dist = f64::from(record.f32(12));
    let length = normal.length();
    if !(normal.is_finite() && dist.is_finite()) || (length - 1.0).abs() > UNIT_NORMAL_SLACK {
        return Err(planes.error(format!(
            "plane {index} is not a finite plane with a unit normal"
        )));
    }
    Ok(BuildPlane {
        normal: normal / length,
        dist: dist / length,
    })
}

/// The width of a side's polygon: its area over its longest edge.
fn width(winding: &Winding) -> f64 {
    let points = &winding.points;
    let longest = points
        .iter()
        .zip(points.iter().cycle().skip(1))
        .map(|(a, b)| a.distance(*b))
        .fold(0.0, f64::max);
    if longest > 0.0 {
        winding.area() / longest
    } else {
        0.0
    }
}

/// Adds the brush bounded by `sides` to `out` (bevel sides dropped), or a diagnostic at
/// `loc` when they bound none.
pub(crate) fn add_stored_brush(
    out: &mut BrushOutput,
    sides: &[StoredSide],
    meaning: StoredMeaning,
    loc: SourceLoc,
) {
    let mut planes: Vec<BuildPlane> = sides.iter().map(|s| s.plane).collect();
    let built = match brush_from_planes(&planes, meaning.contents, "", loc) {
        Ok(Some(brush)) => {
            let slivers = brush
                .sides
                .iter()
                .any(|s| width(&s.winding) < BEVEL_SIDE_WIDTH);
            if slivers {
                planes = brush
                    .sides
                    .iter()
                    .filter(|s| width(&s.winding) >= BEVEL_SIDE_WIDTH)
                    .map(|s| s.plane)
                    .collect();
                brush_from_planes(&planes, meaning.contents, "", loc)
            } else {
                Ok(Some(brush))
            }
        }
        other => other,
    };
    let mut brush: Brush = match built {
        Ok(Some(brush)) => brush,
        Ok(None) => {
            out.rejected += 1;
            out.diagnostics.push(Diagnostic {
                loc,
                severity: Severity::Warning,
                kind: DiagnosticKind::NoVolume,
                message: "stored brush dropped: its planes bound no volume".to_owned(),
            });
            return;
        }
        Err((kind, reason)) => {
            out.rejected += 1;
            out.diagnostics.push(Diagnostic {
                loc,
                severity: Severity::Warning,
                kind,
                message: format!("stored brush dropped: {reason}"),
            });
            return;
        }
    };
    for side in &mut brush.sides {
        if let Some(stored) = sides.iter().find(|s| s.plane.is_same(&side.plane)) {
            side.texture.clone_from(&stored.texture);
            side.surface = stored.surface;
        }
    }
    brush.contents = meaning.contents;
    brush.game_contents = meaning.game_contents;
    brush.solid = meaning.solid;
    brush.owner = meaning.owner;
    out.brushes.push(brush);
}

/// The location diagnostics give a stored record: its lump index as the line (1-based).
pub(crate) fn record_loc(index: usize) -> SourceLoc {
    SourceLoc {
        line: u32::try_from(index).map_or(u32::MAX, |i| i.saturating_add(1)),
        column: 1,
    }
}
