//! Convex regions rebuilt from a Quake 1 family hull 0: each non-empty leaf's region as a
//! brush.
//!
//! Takes a decoded file ([`Q1File`]) and a model; gives one brush per non-empty leaf of the
//! model's hull-0 tree: the model's box (its head node's bounds, grown by
//! [`REGION_BOX_PAD`]) cut by the planes on the leaf's path (`children[0]` is where
//! `n·x − d ≥ 0`, `world.c SV_HullPointContents`). Each side is textured with a face the
//! file lists on the node that gave its plane, facing out of the region (ericw-tools
//! `decompile.cc` does the same); a region with a side on the box is the void id's
//! compiler filled (`OUTSIDE.C FillOutside`) and is tagged [`Contents::OUTSIDE`] as well.
//! Guarantees: the walk uses an explicit stack and visits each node at most once (a file
//! whose tree revisits a node is an error naming the `nodes` lump), so it ends and its
//! memory follows the file; regions with no volume are counted, not returned.

use glam::DVec3;

use super::lumps::{Child, Q1File};
use crate::brush::{Brush, BrushOwner, brush_from_planes};
use crate::contents::Contents;
use crate::game::Game;
use crate::game::rules::quake::leaf_contents;
use crate::geom::BuildPlane;
use crate::import::ImportError;
use crate::map::SourceLoc;

/// How far the region box reaches beyond the head node's bounds, in map units: id's qbsp
/// stores bounds a unit inside the brushes, so the box must reach past them for the void's
/// regions to close outside every wall (their sides on the box then mark them as the void).
pub(super) const REGION_BOX_PAD: f64 = 8.0;

/// The regions of one model, and how many leaves made none.
#[derive(Debug, Default)]
pub(super) struct Regions {
    /// One brush per non-empty leaf with volume, owned by the world (the caller sets it).
    pub(super) brushes: Vec<Brush>,
    /// Leaves whose region has no volume (a node that does not split its region) or is
    /// rejected by the brush stage.
    pub(super) dropped: usize,
}

/// One step of the walk: a child to visit, the path length above it, and the side its
/// parent adds to the path (facing out of the child's region, with its texture).
struct Step {
    child: Child,
    depth: usize,
    side: Option<(BuildPlane, String)>,
}

/// The regions of `model`'s hull-0 tree in `file`, for `game`'s contents.
pub(super) fn model_regions(
    file: &Q1File<'_>,
    model: usize,
    game: Game,
) -> Result<Regions, ImportError> {
    let mut regions = Regions::default();
    let Some(Child::Node(root)) = file.models.get(model).map(|m| m.head) else {
        return Ok(regions);
    };
    let Some(root_node) = file.nodes.get(root) else {
        return Ok(regions);
    };
    let box_planes = box_planes(root_node.mins, root_node.maxs);
    let mut visited = vec![false; file.nodes.len()];
    let mut path: Vec<(BuildPlane, String)> = Vec::new();
    let mut stack = vec![Step {
        child: Child::Node(root),
        depth: 0,
        side: None,
    }];
    while let Some(Step { child, depth, side }) = stack.pop() {
        path.truncate(depth);
        path.extend(side);
        match child {
            Child::Node(index) => {
                let (Some(node), Some(seen)) = (file.nodes.get(index), visited.get_mut(index))
                else {
                    continue;
                };
                if *seen {
                    return Err(file.lumps.error(
                        "nodes",
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
                    stack.push(Step {
                        child: node.children[k],
                        depth: path.len(),
                        side: Some((outward, side_texture(file, node.faces.clone(), k == 0))),
                    });
                }
            }
            Child::Leaf(leaf) => {
                let value = file.leaf_contents.get(leaf).copied().unwrap_or(-1);
                let Some((contents, game_contents)) = leaf_contents(value, game) else {
                    continue;
                };
                match region(&path, &box_planes, contents, game_contents, leaf) {
                    Some(brush) => regions.brushes.push(brush),
                    None => regions.dropped += 1,
                }
            }
        }
    }
    Ok(regions)
}

/// The brush of the region behind every plane of `path` within the box; `None` when it has
/// no volume or the brush stage rejects it.
fn region(
    path: &[(BuildPlane, String)],
    box_planes: &[BuildPlane; 6],
    contents: Contents,
    game_contents: u32,
    leaf: usize,
) -> Option<Brush> {
    let planes: Vec<BuildPlane> = box_planes
        .iter()
        .copied()
        .chain(path.iter().map(|(p, _)| *p))
        .collect();
    let loc = SourceLoc {
        line: u32::try_from(leaf).unwrap_or(u32::MAX).saturating_add(1),
        column: 1,
    };
    let mut brush = brush_from_planes(&planes, contents, "", loc).ok()??;
    let mut outside = false;
    for side in &mut brush.sides {
        if box_planes.iter().any(|b| b.is_same(&side.plane)) {
            outside = true;
        } else if let Some((_, texture)) = path.iter().rev().find(|(p, _)| p.is_same(&side.plane)) {
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

/// The name of a texture on one of `faces` that faces `back` (the plane's back side), or
/// of any of them, or empty.
fn side_texture(file: &Q1File<'_>, faces: std::ops::Range<usize>, back: bool) -> String {
    let faces = file.faces.get(faces).unwrap_or(&[]);
    faces
        .iter()
        .find(|f| f.back == back && f.texture.is_some())
        .or_else(|| faces.iter().find(|f| f.texture.is_some()))
        .and_then(|f| f.texture)
        .and_then(|t| file.textures.get(t))
        .cloned()
        .unwrap_or_default()
}

/// The six planes of the box `mins`–`maxs` grown by [`REGION_BOX_PAD`], facing out.
fn box_planes(mins: DVec3, maxs: DVec3) -> [BuildPlane; 6] {
    let lo = mins - DVec3::splat(REGION_BOX_PAD);
    let hi = maxs + DVec3::splat(REGION_BOX_PAD);
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
