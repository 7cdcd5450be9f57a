//! The compile's last stage: a tree of its own for each character box a level declares
//! (`CompileOptions::declared_shapes`, or its game's by default: [`default_shapes`]).
//!
//! Takes the packed tables (`MapData`, f32: the brushes as sweeps read them) and the
//! declared shapes; gives [`DeclaredHulls`]: per upright box, a bounding-volume tree over
//! the world's and its static models' brushes, each brush's bounds grown by what the box can
//! reach from it, so that a sweep of that box (`trace/declared.rs`) walks it as a point.
//!
//! Guarantees: a brush's grown bounds are those the runtime's per-brush cull
//! (`sweep_state::brush_grow`, `tree_walk::may_block`) computes, with the same f32
//! operations in the same order (the shape's bounds on a brush with its six axial planes,
//! κ·R otherwise with R the largest cull radius the box can have: its own plus the longest
//! stop distance), and a node's bounds are the exact corner-wise extremes of those under it.
//! Since correctly rounded arithmetic is monotone, a sweep's padded segment enters a node's
//! padded bounds no later than any brush's under it, so the walk's node test never drops a
//! brush the per-brush cull keeps: the tree is a pure broadphase, as the main tree is.
//! Shapes other than upright boxes get no tree (their sweeps keep the main tree's walk);
//! the build is `O(n log n)` per box (median splits), one box per thread with `parallel`.

use glam::Vec3;

use crate::compiled::{
    DeclaredHull, DeclaredHulls, DeclaredNode, MAX_DECLARED_DEPTH, MapData, ModelKind,
    axial_bounded,
};
use crate::game::Game;
use crate::threads::map_all;
use crate::tolerance::MAX_STOP_DISTANCE;
use crate::trace::{ShapeKind, TraceShape};

/// The most brushes a leaf of a declared tree lists: one node test per two brushes keeps
/// the tree small without testing many brushes the node's bounds would have culled.
const LEAF_BRUSHES: usize = 2;

/// The shapes a level of `game` declares when the options name none: planeshift's own
/// controller box standing and crouched (`ControllerConfig::default`: Quake 3's player,
/// `g_client.c` `playerMins`/`playerMaxs`, crouched `bg_pmove.c PM_CheckDuck` top 16) for
/// every level, and Quake's two player hulls for a Quake level (`defs.qc`
/// `VEC_HULL_MIN`/`VEC_HULL_MAX` and `VEC_HULL2_MIN`/`VEC_HULL2_MAX`; Quake 2's player
/// is Quake's hull 1 box).
#[must_use]
pub(crate) fn default_shapes(game: Game) -> Vec<TraceShape> {
    let (q3_mins, q3_maxs) = TraceShape::QUAKE3_PLAYER_BOUNDS;
    let mut boxes = vec![
        (q3_mins, q3_maxs),
        (q3_mins, Vec3::new(q3_maxs.x, q3_maxs.y, 16.0)),
    ];
    if matches!(game, Game::Quake | Game::Quake2) {
        boxes.push(TraceShape::QUAKE1_PLAYER_BOUNDS);
    }
    if game == Game::Quake {
        boxes.push((Vec3::new(-32.0, -32.0, -24.0), Vec3::new(32.0, 32.0, 64.0)));
    }
    boxes
        .into_iter()
        .filter_map(|(mins, maxs)| TraceShape::aabb(mins, maxs))
        .collect()
}

/// The declared trees of `data` (packed: every model's brushes in place) for `shapes`; an
/// upright box declared twice gets one tree.
pub(crate) fn declared_hulls(data: &MapData, shapes: &[TraceShape]) -> DeclaredHulls {
    let mut boxes: Vec<(Vec3, Vec3, f32)> = Vec::new();
    for shape in shapes.iter().filter(|s| s.kind() == ShapeKind::Box) {
        let (mins, maxs) = shape.bounds();
        let radius = shape.radius() + MAX_STOP_DISTANCE;
        if !boxes.iter().any(|&(a, b, _)| a == mins && b == maxs) {
            boxes.push((mins, maxs, radius));
        }
    }
    let world_brushes: Vec<u32> = data
        .models
        .iter()
        .filter(|m| matches!(m.kind, ModelKind::World | ModelKind::Static))
        .flat_map(|m| m.brush_range())
        .map(|b| b as u32)
        .collect();
    let axial: Vec<bool> = data
        .brushes
        .iter()
        .map(|b| b.box_exact || axial_bounded(b, &data.sides, &data.planes))
        .collect();
    let hulls = map_all(&boxes, |&(mins, maxs, radius)| {
        let items: Vec<Item> = world_brushes
            .iter()
            .filter_map(|&id| {
                let brush = data.brushes.get(id as usize)?;
                // `sweep_state::brush_grow` and `tree_walk::may_block`, operation for
                // operation (with the largest radius the box allows).
                let (grow_low, grow_high) = if axial.get(id as usize).copied().unwrap_or(false) {
                    (maxs, -mins)
                } else {
                    let r = Vec3::splat(brush.reach * radius);
                    (r, r)
                };
                let (lo, hi) = (brush.mins - grow_low, brush.maxs + grow_high);
                Some(Item { id, lo, hi })
            })
            .collect();
        let mut tree = DeclaredHull {
            mins,
            maxs,
            radius,
            nodes: Vec::with_capacity(2 * items.len() / LEAF_BRUSHES + 1),
            brushes: Vec::with_capacity(items.len()),
        };
        let mut items = items;
        if !items.is_empty() {
            build(&mut tree, &mut items, 1);
        }
        tree
    });
    DeclaredHulls { hulls }
}

/// One brush's grown bounds.
#[derive(Clone, Copy)]
struct Item {
    id: u32,
    lo: Vec3,
    hi: Vec3,
}

/// Appends the subtree over `items` (not empty) to `tree` in preorder, `depth` nodes deep
/// counting this one: a leaf of at most [`LEAF_BRUSHES`] (or of all, at the depth cap, which
/// median splits reach only past 2^63 brushes), else the items halved at the median of
/// their centres along the axis where the centres spread most.
fn build(tree: &mut DeclaredHull, items: &mut [Item], depth: usize) {
    let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    let (mut c_lo, mut c_hi) = (lo, hi);
    for item in items.iter() {
        lo = lo.min(item.lo);
        hi = hi.max(item.hi);
        let centre = centre(item);
        c_lo = c_lo.min(centre);
        c_hi = c_hi.max(centre);
    }
    let at = tree.nodes.len();
    tree.nodes.push(DeclaredNode {
        mins: lo,
        maxs: hi,
        first: 0,
        count: 0,
    });
    if items.len() <= LEAF_BRUSHES || depth >= MAX_DECLARED_DEPTH {
        tree.nodes[at].first = tree.brushes.len() as u32;
        tree.nodes[at].count = items.len() as u32;
        // Increasing id order within a leaf: the order the main tree's leaves list them in.
        let mut ids: Vec<u32> = items.iter().map(|i| i.id).collect();
        ids.sort_unstable();
        tree.brushes.extend(ids);
        return;
    }
    let spread = c_hi - c_lo;
    let axis = if spread.x >= spread.y && spread.x >= spread.z {
        0
    } else if spread.y >= spread.z {
        1
    } else {
        2
    };
    let half = items.len() / 2;
    items.select_nth_unstable_by(half, |a, b| {
        centre(a)[axis]
            .total_cmp(&centre(b)[axis])
            .then(a.id.cmp(&b.id))
    });
    let (first, second) = items.split_at_mut(half);
    build(tree, first, depth + 1);
    tree.nodes[at].first = tree.nodes.len() as u32;
    build(tree, second, depth + 1);
}

/// The centre of an item's grown bounds (in f64: the sum of two large f32s stays exact).
fn centre(item: &Item) -> Vec3 {
    ((item.lo.as_dvec3() + item.hi.as_dvec3()) * 0.5).as_vec3()
}
