//! A triangle mesh (Wavefront OBJ, glTF 2.0) through the same back end as a `.map`
//! (feature `mesh`).
//!
//! Takes the file's bytes, the folder of a `.gltf`'s external buffers, the [`MeshOptions`]
//! and the compile options; gives a [`CompileOutput`] whose format is the mesh's. The game's
//! rules (a custom game's, else [`CompileOptions::game`], else Quake's) say what each
//! material means, as they say what a brush's textures mean: a material whose contents block
//! nothing (liquids, triggers, hints) encloses no solid and its faces are left out; the
//! others enclose solid of their contents (`mesh/`). Guarantees: the stages after the brush
//! stage are `back_end.rs`'s, exactly as for a `.map`; what the mesh stage dropped or found
//! (bad triangles, holes, open surfaces) is a located [`Diagnostic`].

use std::path::Path;

use super::{
    BrushCheck, CompileError, CompileOptions, CompileOutput, Diagnostic, DiagnosticKind, Level,
    Severity, SourceFormat, Stopwatch, compile_level_stages,
};
use crate::brush::BrushOutput;
use crate::contents::Contents;
use crate::game::rules::GameRules;
use crate::game::{Game, ShaderSet};
use crate::map::{FaceExtension, MapEntity, MapFace, MapFile, SourceLoc, TextureMapping};
use crate::game::custom::CustomRules;
use crate::mesh::{
    MaterialMeaning, MeshError, MeshFormat, MeshOptions, TriangleMesh, clean_triangles,
    mesh_brushes as build_brushes, read_mesh,
};

/// A face of texture `name`, for asking the rules what it means.
fn face_named(name: &str) -> MapFace {
    MapFace {
        points: [glam::DVec3::ZERO; 3],
        texture: name.to_owned(),
        mapping: TextureMapping::Standard {
            offset: [0.0; 2],
            rotation: 0.0,
            scale: [1.0; 2],
        },
        extension: FaceExtension::None,
        loc: SourceLoc { line: 1, column: 1 },
    }
}

/// A note or warning at the file's start.
fn diagnostic(severity: Severity, kind: DiagnosticKind, message: String) -> Diagnostic {
    Diagnostic {
        loc: SourceLoc { line: 1, column: 1 },
        severity,
        kind,
        message,
    }
}

/// Compiles a triangle mesh (Wavefront OBJ, glTF 2.0 JSON or binary, told apart by content)
/// into a collision world: closed shells are solid behind their faces, open surfaces are
/// thin walls solid from both sides, and faces of materials the game makes non-solid
/// (liquids, triggers) enclose nothing; the solid space becomes convex brushes with bevels
/// and the same tree and validation a `.map` gets. `folder` is where a `.gltf`'s external
/// buffers are read from (`None`: embedded buffers only). The options read are
/// [`CompileOptions::bevels`], [`CompileOptions::game`] (Quake when `None`) and
/// [`CompileOptions::custom_game`].
///
/// # Examples
/// ```
/// use planeshift::CompileOptions;
/// use planeshift::build::{MeshOptions, compile_mesh};
/// // A tetrahedron, wound counter-clockwise from outside.
/// let obj = b"v 0 0 0\nv 64 0 0\nv 0 64 0\nv 0 0 64\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
/// let out = compile_mesh(obj, None, &MeshOptions::default(), &CompileOptions::default())?;
/// assert!(out.map.point_contents(glam::Vec3::splat(8.0)).is_solid());
/// # Ok::<(), planeshift::CompileError>(())
/// ```
///
/// # Errors
/// [`CompileError::Mesh`] for a file that cannot be read (malformed, a missing buffer, too
/// many triangles, nothing left to build from); [`CompileError::CustomGame`] for a custom
/// game that is not valid.
pub fn compile_mesh(
    bytes: &[u8],
    folder: Option<&Path>,
    mesh_options: &MeshOptions,
    options: &CompileOptions,
) -> Result<CompileOutput, CompileError> {
    let mut stopwatch = Stopwatch::start();
    let custom = options.resolve()?;
    let (format, mesh) = read_mesh(bytes, folder, mesh_options)?;
    stopwatch.lap("parse");
    let rules = mesh_rules(options, custom.as_ref());
    let output = mesh_stage(&mesh, rules)?;
    stopwatch.lap("brushes");
    let mut map = MapFile::default();
    let mut world = MapEntity::default();
    world
        .properties
        .push(("classname".to_owned(), "worldspawn".to_owned()));
    map.entities.push(world);
    let brush_count = output.brushes.len() as u32;
    let level = Level {
        format: SourceFormat::Mesh(format),
        map: &map,
        output,
        rules,
        model_entities: vec![false],
        brush_count,
        patch_count: 0,
        void_filled: true,
        clip_hulls: crate::compiled::ClipHulls::default(),
        game_patches: crate::compiled::GamePatches::default(),
    };
    compile_level_stages(level, options, stopwatch)
}

/// The mesh stage: what each material means by `rules`, the triangles cleaned, the brushes
/// built, and the diagnostics of both.
fn mesh_stage(mesh: &TriangleMesh, rules: GameRules<'_>) -> Result<BrushOutput, CompileError> {
    let shaders = ShaderSet::new();
    let meanings: Vec<MaterialMeaning> = mesh
        .materials
        .iter()
        .map(|name| {
            let face = face_named(name);
            let meaning = rules.brush_meaning(std::slice::from_ref(&face), "worldspawn", &shaders);
            let (contents, _) = rules.brush_in_entity("worldspawn", meaning.contents, false);
            MaterialMeaning {
                name: name.clone(),
                contents,
                game_contents: meaning.game_contents,
                surface: rules.side_surface(&face, &shaders),
            }
        })
        .collect();
    let encloses: Vec<bool> = meanings
        .iter()
        .map(|m| m.contents.intersects(Contents::MASK_ANY_BLOCKING))
        .collect();
    // Sky and liquids bound volumes of their own contents (`mesh/volumes.rs`).
    let volume: Vec<bool> = meanings
        .iter()
        .map(|m| m.contents.intersects(Contents::SKY | Contents::MASK_LIQUID))
        .collect();
    let clean = clean_triangles(mesh, &encloses, &volume);
    if clean.shell.is_empty() && clean.open.is_empty() && clean.non_solid == 0 {
        let (out_of_range, degenerate, repeated) =
            (clean.non_finite, clean.degenerate, clean.duplicate);
        return Err(CompileError::Mesh(if out_of_range + degenerate + repeated == 0 {
            MeshError::Empty
        } else {
            MeshError::AllDropped {
                read: mesh.triangles.len(),
                out_of_range,
                degenerate,
                repeated,
            }
        }));
    }
    let built = build_brushes(&clean, &meanings);
    let mut diagnostics = Vec::new();
    let dropped = clean.non_finite + clean.degenerate + clean.duplicate;
    if dropped > 0 {
        diagnostics.push(diagnostic(
            Severity::Note,
            DiagnosticKind::MeshTrianglesDropped,
            format!(
                "{dropped} triangle(s) dropped: {} not finite or out of range, {} degenerate, \
                 {} repeated",
                clean.non_finite, clean.degenerate, clean.duplicate
            ),
        ));
    }
    if let Some(p) = clean.first_hole {
        diagnostics.push(diagnostic(
            Severity::Warning,
            DiagnosticKind::MeshHole,
            format!(
                "{} edge(s) of closed shells are used once (holes); the first at ({}, {}, {})",
                clean.hole_edges, p.x, p.y, p.z
            ),
        ));
    }
    if !clean.open.is_empty() {
        diagnostics.push(diagnostic(
            Severity::Note,
            DiagnosticKind::MeshOpenSurface,
            format!(
                "{} face(s) form open surfaces and became thin walls solid from both sides",
                clean.open.len()
            ),
        ));
    }
    if built.volume_cells > 0 || built.volumes_cut_short {
        diagnostics.push(diagnostic(
            Severity::Note,
            DiagnosticKind::MeshVolumes,
            format!(
                "{} of {} open cell(s) lie in {} sky or liquid volume(s) and took its contents{}",
                built.volume_cells,
                built.open_cells,
                built.volumes,
                if built.volumes_cut_short {
                    " (the search stopped at its bound; some may be missed)"
                } else {
                    ""
                }
            ),
        ));
    }
    if built.dropped > 0 {
        diagnostics.push(diagnostic(
            Severity::Note,
            DiagnosticKind::NoVolume,
            format!(
                "{} region(s) or slab(s) without volume were left out",
                built.dropped
            ),
        ));
    }
    Ok(BrushOutput {
        brushes: built.brushes,
        diagnostics,
        rejected: 0,
    })
}

/// What [`check_mesh`] finds in a mesh.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct MeshCheck {
    /// The file's format.
    pub format: MeshFormat,
    /// Triangles read from the file (after triangulation, every node's transform applied).
    pub triangles: usize,
    /// Brushes built: the solid regions, the sky and liquid volumes, the open surfaces'
    /// slabs.
    pub brushes: usize,
    /// The game whose rules gave the materials their meaning: [`CompileOptions::game`] or
    /// the custom game's name, Quake's when neither is given.
    pub game: String,
    /// The mesh stage's brushes counted as [`check_brushes`](super::check_brushes) counts a
    /// map's, with its diagnostics (triangles dropped, holes named with a point, open
    /// surfaces, sky and liquid volumes). No leak: a closed mesh has no inside to flood
    /// from; its holes are diagnostics.
    pub check: BrushCheck,
}

/// The first stage of [`compile_mesh`] and its report, as `bspc check` gives it for a map:
/// the mesh read with `mesh_options`, its materials' meanings by `options`' game, its
/// brushes built, nothing compiled beyond.
///
/// # Errors
/// What [`compile_mesh`] gives before its brush stage ends: a malformed file, a bad scale,
/// a mesh with nothing that encloses solid.
///
/// # Examples
/// ```
/// use planeshift::build::{MeshOptions, check_mesh};
/// // A tetrahedron, each face counter-clockwise seen from outside.
/// let obj = b"v 0 0 0\nv 64 0 0\nv 0 64 0\nv 0 0 64\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
/// let found = check_mesh(obj, None, &MeshOptions::default(), &Default::default())?;
/// assert_eq!(found.triangles, 4);
/// assert!(found.check.world_brushes >= 1);
/// # Ok::<(), planeshift::CompileError>(())
/// ```
pub fn check_mesh(
    bytes: &[u8],
    folder: Option<&Path>,
    mesh_options: &MeshOptions,
    options: &CompileOptions,
) -> Result<MeshCheck, CompileError> {
    let built = read_and_build(bytes, folder, mesh_options, options)?;
    let MeshBuilt {
        format,
        triangles,
        game,
        output,
    } = built;
    Ok(MeshCheck {
        format,
        triangles,
        brushes: output.brushes.len(),
        game,
        check: BrushCheck {
            world_brushes: output.world_brush_count(),
            rejected: output.rejected,
            patch_facets: 0,
            contents: super::contents_counts(&output.brushes),
            diagnostics: output.diagnostics,
            leak: None,
        },
    })
}

/// What [`read_and_build`] gives: the file's format, its triangle count, the rules' game
/// name and the brush stage's output.
struct MeshBuilt {
    format: MeshFormat,
    triangles: usize,
    game: String,
    output: BrushOutput,
}

/// The mesh read and its brush stage run, as [`compile_mesh`] does before its back end.
fn read_and_build(
    bytes: &[u8],
    folder: Option<&Path>,
    mesh_options: &MeshOptions,
    options: &CompileOptions,
) -> Result<MeshBuilt, CompileError> {
    let custom = options.resolve()?;
    let (format, mesh) = read_mesh(bytes, folder, mesh_options)?;
    let rules = mesh_rules(options, custom.as_ref());
    Ok(MeshBuilt {
        format,
        triangles: mesh.triangles.len(),
        game: rules.name().to_owned(),
        output: mesh_stage(&mesh, rules)?,
    })
}

/// The rules of a mesh compile: the custom game's, else [`CompileOptions::game`], else
/// Quake's.
fn mesh_rules<'a>(options: &CompileOptions, custom: Option<&'a CustomRules>) -> GameRules<'a> {
    match custom {
        Some(custom) => GameRules::Custom(custom),
        None => GameRules::Builtin(options.game.unwrap_or(Game::Quake)),
    }
}

internal! {
    /// The brushes [`compile_mesh`] hands to the back end, before bevels (for planeshift's
    /// own tests: the exact oracle sweeps them). Unstable.
    ///
    /// # Errors
    /// What [`compile_mesh`] gives.
    pub fn mesh_brushes(
        bytes: &[u8],
        folder: Option<&Path>,
        mesh_options: &MeshOptions,
        options: &CompileOptions,
    ) -> Result<Vec<crate::brush::Brush>, CompileError> {
        Ok(read_and_build(bytes, folder, mesh_options, options)?.output.brushes)
    }
}

/// Whether `path` names a mesh file by its extension: `.obj`, `.gltf` or `.glb` (any case).
///
/// # Examples
/// ```
/// use planeshift::build::is_mesh_path;
/// assert!(is_mesh_path("maps/room.OBJ".as_ref()));
/// assert!(!is_mesh_path("maps/arena.map".as_ref()));
/// ```
#[must_use]
pub fn is_mesh_path(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ["obj", "gltf", "glb"].iter().any(|m| e.eq_ignore_ascii_case(m)))
}

/// Compiles the level read from `path`: a mesh by its extension ([`is_mesh_path`]) through
/// [`compile_mesh`] (its external buffers beside it, `mesh` for its axis and scale),
/// anything else through [`compile_level`](crate::build::compile_level), by content. What
/// `bspc`, the viewer and the soak call with a file the user named.
///
/// # Errors
/// What [`compile_mesh`] or [`compile_level`](crate::build::compile_level) gives.
pub fn compile_level_at(
    bytes: &[u8],
    path: &Path,
    mesh: &MeshOptions,
    options: &CompileOptions,
) -> Result<CompileOutput, CompileError> {
    if is_mesh_path(path) {
        compile_mesh(bytes, path.parent(), mesh, options)
    } else {
        super::compile_level(bytes, options)
    }
}
