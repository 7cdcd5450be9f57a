//! Convex regions rebuilt from a Quake 1 family hull 0 or clip hull: each non-empty leaf's
//! region as a brush.
//!
//! Takes a decoded file ([`Q1File`]) and a model; gives one brush per non-empty leaf of the
//! model's hull-0 tree (or, [`clip_hull_regions`], of its clip hull k, the world qbsp grew
//! by that hull's box, whose leaves are contents values and whose sides have no texture): the model's box (its head node's bounds, grown by
//! [`REGION_BOX_PAD`]) cut by the planes on the leaf's path (`children[0]` is where
//! `n·x − d ≥ 0`, `world.c SV_HullPointContents`). Each side is textured with a face the
//! file lists on the node that gave its plane, facing out of the region (ericw-tools
//! `decompile.cc` does the same); a region with a side on the box is the void id's
//! compiler filled (`OUTSIDE.C FillOutside`) and is tagged [`Contents::OUTSIDE`] as well.
//! Guarantees: the walk uses an explicit stack and visits each node at most once (a file
//! whose tree revisits a node is an error naming the `nodes` lump), so it ends and its
//! memory follows the file; regions with no volume are counted, not returned.

use glam::DVec3;

use super::lumps::{CLIP_LEAF_CONTENTS, Child, Node, Q1File};
use crate::brush::{Brush, BrushOwner, brush_from_planes};
use crate::contents::Contents;
use crate::game::Game;
use crate::game::rules::quake::leaf_contents;
use crate::geom::{BuildPlane, Winding, cut_planes};
use crate::import::ImportError;
use crate::map::SourceLoc;
use crate::tolerance::CLIP_EPSILON;

/// How far the region box reaches beyond the head node's bounds, in map units: id's qbsp
/// stores bounds a unit inside the brushes, so the box must reach past them for the void's
/// regions to close outside every wall (their sides on the box then mark them as the void).
pub(super) const REGION_BOX_PAD: f64 = 8.0;

/// How far the box around a clip hull's regions reaches beyond the model's bounds, in map
/// units: past the largest hull's growth (Quake's hull 2 reaches 64 below and 32 across,
/// Half-Life's 36), plus [`REGION_BOX_PAD`].
pub(super) const CLIP_HULL_BOX_PAD: f64 = 72.0;

/// `CONTENTS_SOLID` (`bspfile.h`), what qbsp's outside fill makes of the void.
const SOLID_LEAF: i32 = -2;

/// The regions of one model, and how many leaves made none.
#[derive(Debug, Default)]
pub(super) struct Regions {
    /// One brush per non-empty leaf with volume, owned by the world (the caller sets it).
    pub(super) brushes: Vec<Brush>,
    /// Leaves whose region has no volume (a node that does not split its region) or is
    /// rejected by the brush stage.
    pub(super) dropped: usize,
    /// Whether every leaf whose region reaches the box is solid: the compiler filled the
    /// void around the model (qbsp fills it only when nothing leaks), so no open space
    /// reaches the outside.
    pub(super) sealed: bool,
}

/// One face of a region's polytope on the way down the tree: its plane (facing out of the
/// region), its polygon, and the texture of a face the file shows on that plane (`None` on
/// the box).
#[derive(Clone)]
struct PolytopeFace {
    plane: BuildPlane,
    winding: Winding,
    texture: Option<usize>,
}

/// One step of the walk: a child to visit and its region so far (the box cut by the planes
/// on its path), `None` once a cut left it no volume.
struct Step {
    child: Child,
    polytope: Option<Vec<PolytopeFace>>,
}

/// The regions of `model`'s hull-0 tree in `file`, for `game`'s contents.
///
/// Each node's region is carried down and cut once by the node's plane for each child (its
/// faces clipped, the plane's own face clipped by them), so a leaf's region costs what its
/// few faces cost, not what every plane on its path does; the leaf's brush is then made
/// from the planes that still bound it (the others are redundant).
pub(super) fn model_regions(
    file: &Q1File<'_>,
    model: usize,
    game: Game,
) -> Result<Regions, ImportError> {
    let Some(Child::Node(root)) = file.models.get(model).map(|m| m.head) else {
        return Ok(Regions::default());
    };
    let Some(root_node) = file.nodes.get(root) else {
        return Ok(Regions::default());
    };
    let tree = Tree {
        nodes: &file.nodes,
        leaf_contents: &file.leaf_contents,
        root,
        lump: "nodes",
    };
    walk(file, &tree, model, game, box_planes(root_node.mins, root_node.maxs, REGION_BOX_PAD))
}

/// The regions of `model`'s clip hull `hull` (1 to 3) in `file`, for `game`'s contents: the
/// world as qbsp grew it by that hull's box (`bspfile.h` `dmodel_t headnode`), whose
/// regions are made as hull 0's are. The box around them is the model's bounds grown by
/// [`CLIP_HULL_BOX_PAD`].
///
/// # Errors
/// An [`ImportError`] naming the `models` lump when the model names no such hull, or the
/// `clipnodes` lump when its tree revisits a node.
pub(super) fn clip_hull_regions(
    file: &Q1File<'_>,
    model: usize,
    hull: usize,
    game: Game,
) -> Result<Regions, ImportError> {
    let Some(m) = file.models.get(model) else {
        return Ok(Regions::default());
    };
    let head = hull
        .checked_sub(1)
        .and_then(|k| m.clip_heads.get(k).copied().flatten())
        .ok_or_else(|| {
            file.lumps.error(
                "models",
                format!("model {model}: clip hull {hull} is missing or out of range"),
            )
        })?;
    let Child::Node(root) = head else {
        // A hull that is one leaf holds no planes: nothing to rebuild.
        return Ok(Regions::default());
    };
    let tree = Tree {
        nodes: &file.clip_nodes,
        leaf_contents: &CLIP_LEAF_CONTENTS,
        root,
        lump: "clipnodes",
    };
    walk(file, &tree, model, game, box_planes(m.mins, m.maxs, CLIP_HULL_BOX_PAD))
}

/// One tree to rebuild regions from: hull 0's nodes and leaves, or a clip hull's.
struct Tree<'t> {
    nodes: &'t [Node],
    leaf_contents: &'t [i32],
    root: usize,
    /// The lump an error names.
    lump: &'static str,
}

/// The regions of `tree` inside the box `box_planes` (see [`model_regions`]).
fn walk(
    file: &Q1File<'_>,
    tree: &Tree<'_>,
    model: usize,
    game: Game,
    box_planes: [BuildPlane; 6],
) -> Result<Regions, ImportError> {
    let mut regions = Regions::default();
    let root = tree.root;
    let box_polytope: Vec<PolytopeFace> = box_planes
        .iter()
        .zip(cut_planes(&box_planes))
        .filter_map(|(plane, winding)| {
            Some(PolytopeFace {
                plane: *plane,
                winding: winding?,
                texture: None,
            })
        })
        .collect();
    let mut visited = vec![false; tree.nodes.len()];
    let mut open_to_box = false;
    let mut stack = vec![Step {
        child: Child::Node(root),
        polytope: Some(box_polytope),
    }];
    while let Some(Step { child, polytope }) = stack.pop() {
        match child {
            Child::Node(index) => {
                let (Some(node), Some(seen)) = (tree.nodes.get(index), visited.get_mut(index))
                else {
                    continue;
                };
                if *seen {
                    return Err(file.lumps.error(
                        tree.lump,
                        format!(
                            "model {model}: node {index} is reached twice (a cycle or a shared subtree)"
                        ),
                    ));
                }
                *seen = true;
                let Some(plane) = file.planes.get(node.plane).copied() else {
                    continue;
                };
                // Behind the plane (children[1]) the region's side faces along +n; in front
                // (children[0]) along −n, where the face showing it is the plane's back side.
                for (k, outward) in [(1usize, plane), (0, plane.flipped())] {
                    let texture = side_texture(file, node.faces.clone(), k == 0);
                    stack.push(Step {
                        child: node.children[k],
                        polytope: polytope.as_deref().and_then(|p| cut(p, outward, texture)),
                    });
                }
            }
            Child::Leaf(leaf) => {
                let value = tree.leaf_contents.get(leaf).copied().unwrap_or(-1);
                let on_box = polytope.as_ref().is_some_and(|faces| {
                    faces
                        .iter()
                        .any(|f| box_planes.iter().any(|b| b.is_same(&f.plane)))
                });
                open_to_box |= on_box && value != SOLID_LEAF;
                let Some((contents, game_contents)) = leaf_contents(value, game) else {
                    continue;
                };
                let brush = polytope.and_then(|faces| {
                    region(file, &faces, &box_planes, contents, game_contents, leaf)
                });
                match brush {
                    Some(brush) => regions.brushes.push(brush),
                    None => regions.dropped += 1,
                }
            }
        }
    }
    regions.sealed = !open_to_box;
    Ok(regions)
}

/// The part of the region `faces` behind `plane` (facing out of it, its face showing
/// `texture`); `None` when nothing with volume is left. A plane the region already has
/// only takes the newer texture, as the deepest plane on a path names its side.
fn cut(
    faces: &[PolytopeFace],
    plane: BuildPlane,
    texture: Option<usize>,
) -> Option<Vec<PolytopeFace>> {
    if faces.iter().any(|f| f.plane.is_same(&plane)) {
        return Some(
            faces
                .iter()
                .map(|f| PolytopeFace {
                    texture: if f.plane.is_same(&plane) {
                        texture
                    } else {
                        f.texture
                    },
                    ..f.clone()
                })
                .collect(),
        );
    }
    if faces.iter().any(|f| f.plane.is_same(&plane.flipped())) {
        return None;
    }
    let mut cap = Some(Winding::base_for_plane(&plane));
    let mut out: Vec<PolytopeFace> = Vec::with_capacity(faces.len() + 1);
    for face in faces {
        cap = cap.and_then(|w| w.into_clipped_behind(&face.plane, CLIP_EPSILON));
        if let Some(winding) = face
            .winding
            .clipped_behind(&plane, CLIP_EPSILON)
            .filter(|w| w.area() > 0.0)
        {
            out.push(PolytopeFace { winding, ..*face });
        }
    }
    if let Some(winding) = cap.filter(|w| w.area() > 0.0) {
        out.push(PolytopeFace {
            plane,
            winding,
            texture,
        });
    }
    (out.len() >= 4).then_some(out)
}

/// The brush of the region bounded by `faces` (the box cut by the planes on the leaf's
/// path); `None` when it has no volume or the brush stage rejects it.
fn region(
    file: &Q1File<'_>,
    faces: &[PolytopeFace],
    box_planes: &[BuildPlane; 6],
    contents: Contents,
    game_contents: u32,
    leaf: usize,
) -> Option<Brush> {
    let planes: Vec<BuildPlane> = faces.iter().map(|f| f.plane).collect();
    let loc = SourceLoc {
        line: u32::try_from(leaf).unwrap_or(u32::MAX).saturating_add(1),
        column: 1,
    };
    let mut brush = brush_from_planes(&planes, contents, "", loc).ok()??;
    let mut outside = false;
    for side in &mut brush.sides {
        if box_planes.iter().any(|b| b.is_same(&side.plane)) {
            outside = true;
        } else if let Some(texture) = faces
            .iter()
            .find(|f| f.plane.is_same(&side.plane))
            .and_then(|f| f.texture)
            .and_then(|t| file.textures.get(t))
        {
            side.texture.clone_from(texture);
        }
    }
    if outside && contents == Contents::SOLID {
        brush.contents |= Contents::SOLID | Contents::OUTSIDE;
    }
    brush.game_contents = game_contents;
    brush.solid = brush.contents.is_solid();
    brush.owner = BrushOwner::World;
    Some(brush)
}

/// The texture (index into [`Q1File::textures`]) of one of `faces` that faces `back` (the
/// plane's back side), or of any of them; `None` when none has one.
fn side_texture(file: &Q1File<'_>, faces: std::ops::Range<usize>, back: bool) -> Option<usize> {
    let faces = file.faces.get(faces).unwrap_or(&[]);
    faces
        .iter()
        .find(|f| f.back == back && f.texture.is_some())
        .or_else(|| faces.iter().find(|f| f.texture.is_some()))
        .and_then(|f| f.texture)
        .filter(|&t| t < file.textures.len())
}

/// The six planes of the box `mins`–`maxs` grown by `pad`, facing out.
fn box_planes(mins: DVec3, maxs: DVec3, pad: f64) -> [BuildPlane; 6] {
    let lo = mins - DVec3::splat(pad);
    let hi = maxs + DVec3::splat(pad);
    [
        BuildPlane {
            normal: DVec3::X,
            dist: hi.x,
        },
        BuildPlane {
            normal: DVec3::Y,
            dist: hi.y,
        },
        BuildPlane {
            normal: DVec3::Z,
            dist: hi.z,
        },
        BuildPlane {
            normal: DVec3::NEG_X,
            dist: -lo.x,
        },
        BuildPlane {
            normal: DVec3::NEG_Y,
            dist: -lo.y,
        },
        BuildPlane {
            normal: DVec3::NEG_Z,
            dist: -lo.z,
        },
    ]
}
