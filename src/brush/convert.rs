//! One brush block to one [`Brush`]: face points to planes, duplicates merged, windings cut,
//! near-axial planes snapped where that moves no corner by more than
//! [`SNAP_MOVE_EPSILON`](crate::tolerance::SNAP_MOVE_EPSILON),
//! volume and closure checked.
//!
//! Takes a [`MapBrush`] and its owner, appends a [`Brush`] or a diagnostic explaining why
//! not. Guarantees the invariants listed in the stage's module docs; a brush has at most
//! [`MAX_BRUSH_FACES`] faces.

use glam::DVec3;

use crate::game::rules::entities::entity_brush;
use crate::game::rules::{GameRules, is_origin_texture};
use crate::contents::Contents;
use crate::surface::SurfaceFlags;
use super::{Brush, BrushOutput, BrushOwner, BrushSide, Diagnostic, DiagnosticKind, Severity};
use crate::game::ShaderSet;
use crate::geom::{BuildPlane, Winding, bounds_of, convex_volume, cut_planes};
use crate::map::{MapBrush, MapFace, SourceLoc};
use crate::tolerance::{
    MAX_BRUSH_FACES, MAX_MAP_COORD, MAX_PLANE_POINT_COORD, MIN_BRUSH_VOLUME,
};

/// A face that survived plane construction.
struct Candidate<'a> {
    plane: BuildPlane,
    face: &'a MapFace,
}

/// Contents follow `rules` (for a Quake 3 base, the faces' shaders in `shaders`);
/// `classname` is the brush's entity's (Half-Life's `func_water`, a custom game's entity
/// rules).
pub(super) fn add_brush(
    out: &mut BrushOutput,
    brush: &MapBrush,
    owner: BrushOwner,
    (classname, trigger): (&str, bool),
    rules: GameRules<'_>,
    shaders: &ShaderSet,
) {
    let surface_of = |face: &MapFace| rules.side_surface(face, shaders);
    match build(brush, &surface_of, &mut out.diagnostics) {
        Ok(sides) => {
            let meaning = rules.brush_meaning(&brush.faces, classname, shaders);
            let origin_texture = brush.faces.iter().all(|f| is_origin_texture(&f.texture));
            let (contents, solid) = entity_brush(trigger, meaning.contents, origin_texture);
            let (mins, maxs) = bounds(&sides);
            out.brushes.push(Brush {
                sides,
                mins,
                maxs,
                contents,
                game_contents: meaning.game_contents,
                solid,
                owner,
                loc: brush.loc,
                patch: None,
            });
        }
        Err(reason) => {
            out.rejected += 1;
            let (kind, reason) = reason;
            out.diagnostics.push(Diagnostic {
                loc: brush.loc,
                severity: Severity::Warning,
                kind,
                message: format!("brush rejected: {reason}"),
            });
        }
    }
}

fn note(
    diagnostics: &mut Vec<Diagnostic>,
    loc: SourceLoc,
    kind: DiagnosticKind,
    message: String,
) {
    diagnostics.push(Diagnostic {
        kind,
        loc,
        severity: Severity::Note,
        message,
    });
}

/// Why a brush was rejected: the kind and the sentence.
pub type Rejection = (DiagnosticKind, String);

fn build(
    brush: &MapBrush,
    surface_of: &dyn Fn(&MapFace) -> SurfaceFlags,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Vec<BrushSide>, Rejection> {
    let beyond = |limit: f64| {
        brush
            .faces
            .iter()
            .find(move |f| f.points.iter().any(|p| p.abs().max_element() > limit))
    };
    if let Some(face) = beyond(MAX_PLANE_POINT_COORD) {
        return Err((
            DiagnosticKind::OutOfRange,
            format!(
                "the face at {} has a point beyond ±{MAX_PLANE_POINT_COORD} units",
                face.loc
            ),
        ));
    }
    if brush.faces.len() > MAX_BRUSH_FACES {
        return Err((
            DiagnosticKind::TooManyFaces,
            format!(
                "{} faces, more than the {MAX_BRUSH_FACES} a brush may have",
                brush.faces.len()
            ),
        ));
    }
    let mut candidates: Vec<Candidate> = Vec::with_capacity(brush.faces.len());
    for face in &brush.faces {
        let [p0, p1, p2] = face.points;
        let Some(plane) = BuildPlane::from_points(p0, p1, p2) else {
            note(
                diagnostics,
                face.loc,
                DiagnosticKind::CollinearFace,
                "face dropped: its three points are collinear".to_owned(),
            );
            continue;
        };
        if let Some(earlier) = candidates.iter().find(|c| c.plane.is_same(&plane)) {
            note(
                diagnostics,
                face.loc,
                DiagnosticKind::DuplicatePlane,
                format!(
                    "duplicate plane merged with the face at {}",
                    earlier.face.loc
                ),
            );
            continue;
        }
        if let Some(mirror) = candidates
            .iter()
            .find(|c| c.plane.is_same(&plane.flipped()))
        {
            return Err((
                DiagnosticKind::MirroredPlanes,
                format!(
                    "mirrored planes: the faces at {} and {} face opposite ways on one plane",
                    mirror.face.loc, face.loc
                ),
            ));
        }
        candidates.push(Candidate { plane, face });
    }
    if candidates.len() < 4 {
        return Err((
            DiagnosticKind::NoVolume,
            format!(
                "no volume: {} usable face(s), a closed brush needs at least 4",
                candidates.len()
            ),
        ));
    }
    // Snap each face's plane by its polygon under the file's planes (`BuildPlane::snapped`),
    // then merge the planes snapping made one, and cut the polygons again.
    let polygons = cut(&candidates);
    for (candidate, polygon) in candidates.iter_mut().zip(&polygons) {
        if let Some(polygon) = polygon {
            candidate.plane = candidate
                .plane
                .snapped(candidate.face.points, &polygon.points);
        }
    }
    let mut merged: Vec<Candidate> = Vec::with_capacity(candidates.len());
    for candidate in candidates {
        if let Some(earlier) = merged.iter().find(|c| c.plane.is_same(&candidate.plane)) {
            note(
                diagnostics,
                candidate.face.loc,
                DiagnosticKind::DuplicatePlane,
                format!(
                    "duplicate plane merged with the face at {} once both were snapped",
                    earlier.face.loc
                ),
            );
            continue;
        }
        if let Some(mirror) = merged
            .iter()
            .find(|c| c.plane.is_same(&candidate.plane.flipped()))
        {
            return Err((
                DiagnosticKind::MirroredPlanes,
                format!(
                    "mirrored planes: the faces at {} and {} face opposite ways on one plane",
                    mirror.face.loc, candidate.face.loc
                ),
            ));
        }
        merged.push(candidate);
    }
    let mut sides = Vec::with_capacity(merged.len());
    for (candidate, winding) in merged.iter().zip(cut(&merged)) {
        match winding {
            Some(winding) => sides.push(BrushSide {
                plane: candidate.plane,
                winding,
                texture: candidate.face.texture.clone(),
                surface: surface_of(candidate.face),
                loc: candidate.face.loc,
            }),
            None => note(
                diagnostics,
                candidate.face.loc,
                DiagnosticKind::RedundantFace,
                "face dropped: its plane does not touch the brush".to_owned(),
            ),
        }
    }
    if sides.len() < 4 {
        return Err((
            DiagnosticKind::NoVolume,
            format!("no volume: only {} face(s) bound it", sides.len()),
        ));
    }
    let open = sides
        .iter()
        .flat_map(|s| s.winding.points.iter())
        .any(|p| p.abs().max_element() > MAX_MAP_COORD);
    if open {
        // A face written beyond the limit explains a brush that reaches past it; points far
        // along a plane are fine when the brush itself stays inside.
        if let Some(face) = beyond(MAX_MAP_COORD) {
            return Err((
                DiagnosticKind::OutOfRange,
                format!(
                    "the face at {} has a point beyond ±{MAX_MAP_COORD} units",
                    face.loc
                ),
            ));
        }
        return Err((
            DiagnosticKind::NotClosed,
            "not closed: its faces leave it unbounded".to_owned(),
        ));
    }
    let volume = volume(&sides);
    if volume < MIN_BRUSH_VOLUME {
        return Err((
            DiagnosticKind::NoVolume,
            format!("no volume: {volume:.3e} cubic units"),
        ));
    }
    Ok(sides)
}

/// Each candidate's polygon ([`cut_planes`]).
fn cut(candidates: &[Candidate]) -> Vec<Option<Winding>> {
    let planes: Vec<BuildPlane> = candidates.iter().map(|c| c.plane).collect();
    cut_planes(&planes)
}

/// The convex region behind every plane of `planes` (normals facing out of it) as a world
/// brush of `contents`, every side textured `texture` and located at `loc`: what the leak
/// stage's outside fill makes of a leaf's region. Repeated planes and planes that do not
/// touch the region are left out. `Ok(None)` when fewer than four planes touch it (no
/// region); an error, with the kind and sentence a brush block would get, when the region
/// is open, beyond [`MAX_MAP_COORD`], of less than [`MIN_BRUSH_VOLUME`] or bounded by more
/// than [`MAX_BRUSH_FACES`] planes.
///
/// # Errors
/// The rejection's kind and sentence, as above.
pub fn brush_from_planes(
    planes: &[BuildPlane],
    contents: Contents,
    texture: &str,
    loc: SourceLoc,
) -> Result<Option<Brush>, Rejection> {
    let mut distinct: Vec<BuildPlane> = Vec::with_capacity(planes.len());
    for plane in planes {
        if !distinct.iter().any(|p| p.is_same(plane)) {
            distinct.push(*plane);
        }
    }
    let sides: Vec<BrushSide> = distinct
        .iter()
        .zip(cut_planes(&distinct))
        .filter_map(|(plane, winding)| {
            Some(BrushSide {
                plane: *plane,
                winding: winding?,
                texture: texture.to_owned(),
                surface: SurfaceFlags::EMPTY,
                loc,
            })
        })
        .collect();
    brush_from_sides(sides, contents, loc)
}

/// The convex region bounded by `sides` (each plane once, facing out, with its polygon on
/// the region: what [`cut_planes`] gives, or a cut of the same region) as a world brush of
/// `contents` located at `loc`, checked as [`brush_from_planes`] checks its own: `Ok(None)`
/// for fewer than four sides, the same errors otherwise.
///
/// # Errors
/// What [`brush_from_planes`] gives.
pub(crate) fn brush_from_sides(
    sides: Vec<BrushSide>,
    contents: Contents,
    loc: SourceLoc,
) -> Result<Option<Brush>, Rejection> {
    if sides.len() < 4 {
        return Ok(None);
    }
    let beyond = sides
        .iter()
        .flat_map(|s| s.winding.points.iter())
        .any(|p| p.abs().max_element() > MAX_MAP_COORD);
    if beyond {
        return Err((
            DiagnosticKind::NotClosed,
            format!("it is open or reaches beyond ±{MAX_MAP_COORD} units"),
        ));
    }
    if sides.len() > MAX_BRUSH_FACES {
        return Err((
            DiagnosticKind::TooManyFaces,
            format!(
                "{} faces, more than the {MAX_BRUSH_FACES} a brush may have",
                sides.len()
            ),
        ));
    }
    let volume = volume(&sides);
    if volume < MIN_BRUSH_VOLUME {
        return Err((
            DiagnosticKind::NoVolume,
            format!("no volume: {volume:.3e} cubic units"),
        ));
    }
    let (mins, maxs) = bounds(&sides);
    Ok(Some(Brush {
        sides,
        mins,
        maxs,
        contents,
        // No game wrote it: its own value is planeshift's.
        game_contents: contents.bits(),
        solid: contents.is_solid(),
        owner: BrushOwner::World,
        loc,
        patch: None,
    }))
}

/// Volume by the divergence theorem about the corners' centroid.
fn volume(sides: &[BrushSide]) -> f64 {
    convex_volume(sides.iter().map(|s| (&s.plane, &s.winding)))
}

fn bounds(sides: &[BrushSide]) -> (DVec3, DVec3) {
    bounds_of(sides.iter().flat_map(|s| s.winding.points.iter()))
}
