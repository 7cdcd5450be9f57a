//! Patches to brushes: every curved patch of a map as facet brushes with its shader's
//! meaning.
//!
//! Takes the map, its game's rules (built-in or custom), the shader set and the patch tolerance; appends to the brush
//! stage's output one [`Brush`] per facet slab (`crate::patch`) and a [`Diagnostic`] for
//! every patch that cannot collide or misses its tolerance. Rules:
//!
//! - A patch's meaning is its shader's, by the same rules as a brush with that one
//!   texture on every side (`crate::game::rules`): for Quake 3, q3map2's contents of
//!   the shader (`surfaceparm nonsolid` gives none, `playerclip` player clip, a liquid its
//!   liquid), and the shader's surface flags on every side of every facet; a trigger
//!   entity's patches are its volume, as its brushes are.
//! - A patch belongs to its entity's model, as that entity's brushes do (world classes:
//!   the world).
//! - A patch whose meaning holds no contents (a `nonsolid` decoration) makes no facets: it
//!   would neither block nor be in any leaf.
//! - The facets of one model's patches are built together (`patch::facet_solids`), so
//!   patches meeting along a border share their slabs' borders.
//!
//! Guarantees: every facet brush is closed, convex, with volume, within the map limit, like
//! every other brush, and names its patch (`Brush::patch`: its index among the map's
//! patches in file order); nothing is dropped silently.

use crate::game::rules::GameRules;
use super::{Brush, BrushOutput, BrushOwner, BrushSide, Diagnostic, DiagnosticKind, Severity};
use crate::contents::Contents;
use crate::game::ShaderSet;
use crate::map::{FaceExtension, MapFace, MapFile, MapPatch, TextureMapping};
use crate::patch::{SurfaceGrid, control_grid, facet_solids, subdivide};
use crate::surface::SurfaceFlags;

/// What one patch means, from its shader.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PatchMeaning {
    /// Its contents, translated.
    pub(crate) contents: Contents,
    /// Its game's own contents bits.
    pub(crate) game_contents: u32,
    /// Whether it blocks something.
    pub(crate) solid: bool,
    /// The surface flags of every side of its facets.
    pub(crate) surface: SurfaceFlags,
}

use PatchMeaning as Meaning;

/// A patch with its model and meaning, ready for [`add_meant_patches`].
pub(crate) struct MeantPatch<'a> {
    /// Its model.
    pub(crate) owner: BrushOwner,
    /// Its index among the level's patches ([`Brush::patch`]).
    pub(crate) index: usize,
    /// Its control points and shader.
    pub(crate) patch: &'a MapPatch,
    /// What it means.
    pub(crate) meaning: PatchMeaning,
}

/// A patch ready to be cut into facets.
struct Ready<'a> {
    /// Its index among the map's patches.
    index: usize,
    patch: &'a MapPatch,
    grid: SurfaceGrid,
    meaning: Meaning,
}

/// The meaning of `patch` in an entity of class `classname` (module docs).
fn meaning(rules: GameRules<'_>, patch: &MapPatch, classname: &str, shaders: &ShaderSet) -> Meaning {
    // The rules read faces; a patch is one shader on every side.
    let face = MapFace {
        points: [glam::DVec3::ZERO; 3],
        texture: patch.texture.clone(),
        mapping: TextureMapping::Standard {
            offset: [0.0; 2],
            rotation: 0.0,
            scale: [1.0; 2],
        },
        extension: FaceExtension::None,
        loc: patch.loc,
    };
    let textured = rules.brush_meaning(std::slice::from_ref(&face), classname, shaders);
    let (contents, solid) = rules.brush_in_entity(classname, textured.contents, false);
    Meaning {
        contents,
        game_contents: textured.game_contents,
        solid,
        surface: rules.side_surface(&face, shaders),
    }
}

/// Appends the facet brushes of every patch of `map` to `out` (module docs).
pub(super) fn add_patches(
    out: &mut BrushOutput,
    map: &MapFile,
    rules: GameRules<'_>,
    shaders: &ShaderSet,
    tolerance: f64,
) {
    let mut meant = Vec::new();
    let mut index = 0;
    for (entity_index, entity) in map.entities.iter().enumerate() {
        let classname = entity.classname();
        let owner = if rules.is_world_class(classname) {
            BrushOwner::World
        } else {
            BrushOwner::Entity(entity_index)
        };
        for patch in &entity.patches {
            meant.push(MeantPatch {
                owner,
                index,
                patch,
                meaning: meaning(rules, patch, classname, shaders),
            });
            index += 1;
        }
    }
    add_meant_patches(out, &meant, tolerance);
}

/// Appends the facet brushes of `patches` (each with its model and meaning, in order) to
/// `out`, facets within `tolerance` map units of each surface: the patch stage of a `.map`
/// and of an imported Quake 3 `.bsp`.
pub(crate) fn add_meant_patches(out: &mut BrushOutput, patches: &[MeantPatch<'_>], tolerance: f64) {
    // Per model: the world first, then every other owner with patches, in order.
    let mut groups: Vec<(BrushOwner, Vec<Ready>)> = vec![(BrushOwner::World, Vec::new())];
    for meant in patches {
        let (owner, this, patch, meaning) = (meant.owner, meant.index, meant.patch, meant.meaning);
        {
                let grid = match control_grid(patch) {
                    Ok(grid) => grid,
                    Err(problem) => {
                        warn(out, patch, DiagnosticKind::PatchesIgnored, format!("patch ignored: {problem}"));
                        continue;
                    }
                };
            if (meaning.contents & !Contents::DETAIL).is_empty() {
                continue;
            }
            let grid = subdivide(&grid, tolerance);
            if grid.capped {
                warn(
                    out,
                    patch,
                    DiagnosticKind::PatchToleranceNotMet,
                    format!(
                        "patch subdivided to the limit: its facets may lie {:.3} units from the surface (tolerance {tolerance})",
                        grid.bound
                    ),
                );
            }
            let ready = Ready {
                index: this,
                patch,
                grid,
                meaning,
            };
            match groups.iter_mut().find(|(o, _)| *o == owner) {
                Some((_, list)) => list.push(ready),
                None => groups.push((owner, vec![ready])),
            }
        }
    }
    for (owner, ready) in groups {
        let grids: Vec<&SurfaceGrid> = ready.iter().map(|r| &r.grid).collect();
        let facets = facet_solids(&grids);
        let mut made = vec![0usize; ready.len()];
        for solid in facets.solids {
            let Some(r) = ready.get(solid.patch) else {
                continue;
            };
            made[solid.patch] += 1;
            let sides = solid
                .planes
                .into_iter()
                .zip(solid.windings)
                .map(|(plane, winding)| BrushSide {
                    plane,
                    winding,
                    texture: r.patch.texture.clone(),
                    surface: r.meaning.surface,
                    loc: r.patch.loc,
                })
                .collect();
            out.brushes.push(Brush {
                sides,
                mins: solid.mins,
                maxs: solid.maxs,
                contents: r.meaning.contents,
                game_contents: r.meaning.game_contents,
                solid: r.meaning.solid,
                owner,
                loc: r.patch.loc,
                patch: Some(r.index),
            });
        }
        for ((r, &made), &dropped) in ready.iter().zip(&made).zip(&facets.dropped) {
            if made == 0 {
                warn(
                    out,
                    r.patch,
                    DiagnosticKind::PatchesIgnored,
                    "patch ignored: it is degenerate (no facet has area)".to_owned(),
                );
            } else if dropped > 0 {
                out.diagnostics.push(Diagnostic {
                    loc: r.patch.loc,
                    severity: Severity::Note,
                    kind: DiagnosticKind::PatchFacetsDropped,
                    message: format!("{dropped} sliver facet(s) of the patch dropped: too thin to be solid"),
                });
            }
        }
    }
}

fn warn(out: &mut BrushOutput, patch: &MapPatch, kind: DiagnosticKind, message: String) {
    out.diagnostics.push(Diagnostic {
        loc: patch.loc,
        severity: Severity::Warning,
        kind,
        message,
    });
}
