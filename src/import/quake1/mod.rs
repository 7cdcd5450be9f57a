//! The Quake 1 family importer: BSP29, BSP2, 2PSB and Half-Life BSP30.
//!
//! Takes the file's bytes and its format; gives an [`ImportedLevel`]: the entities lump, and
//! each model's brushes: ericw-tools' BSPX `BRUSHLIST` when the file has it (the original
//! brushes, clip brushes included, `brushlist.rs`), otherwise the convex regions of hull 0
//! (`regions.rs`), merged where their union is convex (`merge.rs`), with a note that clip brushes live only in the clip hulls. Either way
//! the void the compiler filled is tagged [`Contents::OUTSIDE`]: without `BRUSHLIST`, hull
//! 0's solid regions on the world box; with it, hull 0's solid regions that no listed solid
//! brush holds whole (the void, and walls ericw-tools merged with it). Model 0's
//! brushes belong to the world, model k's to the entity whose `model` is `*k` (in the model's
//! own frame: the back end places a model at its entity's `origin`, as `world.c
//! SV_HullForEntity` does); a trigger entity's brushes are its
//! volume ([`Contents::TRIGGER`]), as a `.map` brush of that entity would be. The level also
//! keeps the file's own hull trees ([`ClipHulls`]: hull 0 and the clip hulls 1 to 3, the
//! planes as written) for the game's walks. Guarantees:
//! every record checked (`lumps.rs`); every error names its lump; no recursion.

mod brushlist;
mod lumps;
pub(super) mod merge;
mod regions;

use super::{BspFormat, ImportError, ImportedLevel, entities_from_lump};
use lumps::Child;
use crate::brush::{Brush, BrushOutput, BrushOwner, Diagnostic, DiagnosticKind, Severity};
use crate::compiled::{ClipHulls, HULL_ABSENT, HULL_CONTENTS_EMPTY, HULL_CONTENTS_SOLID, HullNode};
use crate::contents::Contents;
use crate::game::Game;
use crate::game::custom::CustomRules;
use crate::game::rules::GameRules;
use crate::game::rules::half_life_entity_contents;
use crate::map::{MapFile, SourceLoc};

/// Reads a Quake 1 family (BSP29, BSP2, 2PSB, Half-Life BSP30) file.
pub(super) fn read(
    bytes: &[u8],
    format: BspFormat,
    custom: Option<&CustomRules>,
) -> Result<ImportedLevel, ImportError> {
    read_hull(bytes, format, 0, custom)
}

/// Reads a Quake 1 family file's hull `hull`: 0 is [`read`]; 1 to 3 the clip hull of that
/// number, the world qbsp grew by the hull's box (`world.c SV_HullForEntity`), each model's
/// brushes the convex regions of its clip tree, merged as hull 0's are. A point swept
/// through a clip hull's world goes where the hull's box would through the level as the
/// game sees it (clip brushes included, qbsp's missing bevels too).
///
/// # Errors
/// As [`read`], and an [`ImportError`] naming the `models` lump when a model has no such
/// hull.
pub(super) fn read_hull(
    bytes: &[u8],
    format: BspFormat,
    hull: usize,
    custom: Option<&CustomRules>,
) -> Result<ImportedLevel, ImportError> {
    let game = format.game();
    let rules = GameRules::of(game, custom);
    let file = lumps::read_file(bytes, format)?;
    let map = entities_from_lump(&file.lumps, file.entities)?;
    let mut out = BrushOutput::default();
    let listed = if hull == 0 {
        brushlist::read(&file, game)?
    } else {
        None
    };
    // Only hull 0's own regions are known to be the file's world exactly; listed brushes
    // may leave gaps the compiler's hull 0 closed.
    let mut void_filled = false;
    let from_list = listed.is_some();
    let per_model: Vec<Vec<Brush>> = match listed {
        Some(mut models) => {
            // The brushes are the author's; the void the compiler filled is hull 0's alone:
            // its solid regions that no listed solid brush holds whole.
            let regions = regions::model_regions(&file, 0, game)?.brushes;
            if let Some(world) = models.first_mut() {
                let void: Vec<Brush> = regions
                    .into_iter()
                    .filter(|r| r.contents.contains(Contents::SOLID))
                    .filter(|r| !world.iter().any(|b| holds(b, r)))
                    .map(|mut r| {
                        r.contents |= Contents::OUTSIDE;
                        r
                    })
                    .collect();
                world.extend(void);
            }
            models
        }
        None => {
            let mut models = Vec::with_capacity(file.models.len());
            let mut dropped = 0usize;
            for model in 0..file.models.len() {
                let regions = if hull == 0 {
                    regions::model_regions(&file, model, game)?
                } else {
                    regions::clip_hull_regions(&file, model, hull, game)?
                };
                dropped += regions.dropped;
                if model == 0 {
                    void_filled = regions.sealed;
                }
                models.push(merge::merge_regions(regions.brushes));
            }
            if dropped > 0 {
                out.diagnostics.push(note(
                    DiagnosticKind::NoVolume,
                    format!("{dropped} hull-0 leaf region(s) without volume were left out"),
                ));
            }
            models
        }
    };
    if !from_list && hull == 0 {
        out.diagnostics.push(note(
            DiagnosticKind::ClipHullOnly,
            "no BSPX BRUSHLIST: clip brushes exist only in the file's clip hulls and are not \
             imported (the brushes are hull 0's regions)"
                .to_owned(),
        ));
    }
    for (model, brushes) in per_model.into_iter().enumerate() {
        let placement = if model == 0 {
            Some((BrushOwner::World, ""))
        } else {
            model_entity(&map, model)
        };
        let Some((owner, classname)) = placement else {
            if !brushes.is_empty() {
                out.diagnostics.push(note(
                    DiagnosticKind::UnplacedModel,
                    format!(
                        "model *{model} is named by no entity: its {} brush(es) are left out",
                        brushes.len()
                    ),
                ));
            }
            continue;
        };
        for mut brush in brushes {
            brush.owner = owner;
            if game == Game::HalfLife && model != 0 {
                brush.contents = half_life_entity_contents(classname, brush.contents);
            }
            (brush.contents, brush.solid) = rules.brush_in_entity(classname, brush.contents, false);
            out.brushes.push(brush);
        }
    }
    Ok(ImportedLevel {
        format,
        game,
        map,
        brushes: out,
        void_filled,
        clip_hulls: hull_trees(&file),
        game_patches: crate::compiled::GamePatches::default(),
    })
}

/// The file's hull trees as the game walks them: the clip nodes of hulls 1 to 3 as
/// written, then hull 0 made from the nodes and leaves (`model.c Mod_MakeHull0`: a leaf
/// child becomes the leaf's contents), and each model's four heads. A leaf contents value
/// that is not negative (no contents the game knows) is read as solid; a clip head the
/// file gives out of range (the hull-0 import does not refuse it) as empty. A file with no
/// clip nodes at all (qbsp's `-noclip`) has no clip hulls: their heads are [`HULL_ABSENT`].
fn hull_trees(file: &lumps::Q1File<'_>) -> ClipHulls {
    let clip = |child: Child| -> i32 {
        match child {
            Child::Node(n) => n as i32,
            Child::Leaf(l) => lumps::CLIP_LEAF_CONTENTS
                .get(l)
                .copied()
                .unwrap_or(HULL_CONTENTS_SOLID),
        }
    };
    let offset = file.clip_nodes.len();
    let drawn = |child: Child| -> i32 {
        match child {
            Child::Node(n) => (offset + n) as i32,
            Child::Leaf(l) => file
                .leaf_contents
                .get(l)
                .copied()
                .filter(|&c| c < 0)
                .unwrap_or(HULL_CONTENTS_SOLID),
        }
    };
    let mut nodes: Vec<HullNode> = file
        .clip_nodes
        .iter()
        .map(|n| HullNode {
            plane: n.plane as u32,
            children: n.children.map(clip),
        })
        .collect();
    nodes.extend(file.nodes.iter().map(|n| HullNode {
        plane: n.plane as u32,
        children: n.children.map(drawn),
    }));
    let heads = file
        .models
        .iter()
        .map(|m| {
            let [h1, h2, h3] = if file.clip_nodes.is_empty() {
                [HULL_ABSENT; 3]
            } else {
                m.clip_heads.map(|h| h.map_or(HULL_CONTENTS_EMPTY, clip))
            };
            [drawn(m.head), h1, h2, h3]
        })
        .collect();
    ClipHulls {
        planes: file.hull_planes.clone(),
        nodes,
        heads,
    }
}

/// How far a region's corner may stand outside a brush that holds it, in units (the
/// regions are cut in `f64` from the file's `f32` planes).
const HOLD_EPSILON: f64 = 0.01;

/// Whether solid brush `brush` holds all of `region`.
fn holds(brush: &Brush, region: &Brush) -> bool {
    brush.contents.contains(Contents::SOLID)
        && (brush.mins - HOLD_EPSILON).cmple(region.mins).all()
        && (brush.maxs + HOLD_EPSILON).cmpge(region.maxs).all()
        && region
            .sides
            .iter()
            .flat_map(|s| s.winding.points.iter())
            .all(|&p| brush.contains(p, HOLD_EPSILON))
}

/// A note located at the file's start.
fn note(kind: DiagnosticKind, message: String) -> Diagnostic {
    Diagnostic {
        loc: SourceLoc { line: 1, column: 1 },
        severity: Severity::Note,
        kind,
        message,
    }
}

/// The entity whose `model` is `*model`: its owner and class.
fn model_entity(map: &MapFile, model: usize) -> Option<(BrushOwner, &str)> {
    let name = format!("*{model}");
    map.entities
        .iter()
        .enumerate()
        .find(|(_, e)| e.get("model") == Some(name.as_str()))
        .map(|(index, entity)| (BrushOwner::Entity(index), entity.classname()))
}
