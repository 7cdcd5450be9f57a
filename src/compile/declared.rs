//! The compile's last stage: a tree of its own for each character box a level declares
//! (`CompileOptions::declared_shapes`, or its game's by default: [`default_shapes`]).
//!
//! Takes the packed tables (`MapData`, f32: the brushes as sweeps read them) and the
//! declared shapes; gives [`DeclaredHulls`]: per upright box, an axial (k-d) tree whose
//! leaves list every world and static-model brush whose bounds, grown by what the box can
//! reach from it and padded by `LIST_PAD`, meet the leaf's cell, so that a sweep of that box
//! (`trace/declared.rs`) walks it as a point.
//!
//! Guarantees: a brush's grown bounds are those the runtime's per-brush cull
//! (`sweep_state::brush_grow`, `tree_walk::may_block`) computes, with the same f32
//! operations in the same order (the box's bounds on a brush with its six axial planes, κ·R
//! otherwise with R the largest cull radius the box can have: its own plus the longest stop
//! distance), so every brush that cull keeps for a sweep is listed in each leaf its padded
//! bounds meet; a split position is an f32 value, the one the stored node holds, and a brush
//! meeting both sides is listed on both. Splits follow the surface-area heuristic over
//! [`SPLIT_CANDIDATES`] positions per axis, each the nearest f32 value just outside a
//! brush's bound (so that brush lies on one side only); the brushes are sorted by each bound
//! once and their candidates found once, and a child keeps its parent's orders, so a node
//! costs `O(n)` plus a binary search per candidate, in buffers reused from node to node;
//! one box per thread with `parallel`. Shapes other than upright boxes get no tree (their
//! sweeps keep the main trees' walk).

use glam::{DVec3, Vec3};

use crate::compiled::{
    DeclaredHull, DeclaredHulls, DeclaredLeaf, DeclaredNode, MapData, ModelKind, NodeChild,
    axial_bounded,
};
use crate::contents::Contents;
use crate::game::Game;
use crate::threads::map_all;
use crate::tolerance::{MAX_STOP_DISTANCE, TREE_CULL_MARGIN};
use crate::trace::{ShapeKind, TraceShape};

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

/// How far past its grown bounds a brush is listed, in units: the longest stop distance
/// and twice the walk's cull margin (a sweep's segment box is padded by its stop distance
/// and one margin, `sweep_state::stop_pad`, in f32; the second margin covers that rounding).
const LIST_PAD: f64 = MAX_STOP_DISTANCE as f64 + 2.0 * TREE_CULL_MARGIN as f64;

/// A region listing at most this many brushes is a leaf.
const LEAF_BRUSHES: usize = 2;

/// The deepest a declared tree grows (well below `MAX_TREE_DEPTH`, which loading checks).
const MAX_DEPTH: usize = 48;

/// Split positions tried per axis and node (evenly picked from the brushes' bounds there):
/// enough for a near-best split, few enough that scoring them costs less than sorting the
/// node's brushes would.
const SPLIT_CANDIDATES: usize = 32;

/// The cost of one node step, in brush tests, for the surface-area heuristic (a step is a
/// subtraction and a compare, a brush test a bounds cull and often a clip).
const STEP_COST: f64 = 0.3;

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
        .filter(|&b| {
            data.brushes
                .get(b as usize)
                .is_some_and(|b| b.contents != Contents::EMPTY)
        })
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
                let axial_bounded = axial.get(id as usize).copied().unwrap_or(false);
                let (grow_low, grow_high) = brush.grow(axial_bounded, (mins, maxs), radius);
                let (lo, hi) = (brush.mins - grow_low, brush.maxs + grow_high);
                Some(Item::new(
                    id,
                    brush.contents,
                    lo.as_dvec3() - LIST_PAD,
                    hi.as_dvec3() + LIST_PAD,
                ))
            })
            .collect();
        tree_over(&items, mins, maxs, radius)
    });
    DeclaredHulls { hulls }
}

/// The tree over `items` (brush bounds grown by the box `mins`..`maxs` of hull radius
/// `radius`), its root cell their union.
fn tree_over(items: &[Item], mins: Vec3, maxs: Vec3, radius: f32) -> DeclaredHull {
    let mut hull = DeclaredHull {
        mins,
        maxs,
        radius,
        root: NodeChild::Leaf(0),
        nodes: Vec::new(),
        leaves: Vec::new(),
        brushes: Vec::new(),
        entries: Vec::new(),
    };
    let cell = items.iter().fold(
        (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
        |(lo, hi), i| (lo.min(i.lo), hi.max(i.hi)),
    );
    let mut scratch = Scratch {
        sides: vec![0; items.len()],
        ..Scratch::default()
    };
    hull.root = build(&mut hull, (items, &mut scratch), sorted(items), cell, 1);
    hull
}

/// One brush's grown and padded bounds, and the split candidates they give.
#[derive(Clone, Copy)]
struct Item {
    id: u32,
    contents: Contents,
    lo: DVec3,
    hi: DVec3,
    /// Per axis, the nearest f32 value below `lo` ([`f32_below`]): the candidate split
    /// with the brush in front only, found once rather than at every node.
    lo_split: DVec3,
    /// Per axis, the nearest f32 value above `hi` ([`f32_above`]).
    hi_split: DVec3,
}

impl Item {
    fn new(id: u32, contents: Contents, lo: DVec3, hi: DVec3) -> Item {
        Item {
            id,
            contents,
            lo,
            hi,
            lo_split: DVec3::from_array(lo.to_array().map(f32_below)),
            hi_split: DVec3::from_array(hi.to_array().map(f32_above)),
        }
    }
}

/// What one node's work reuses from the last one's: the bounds and candidates of its
/// brushes along an axis, in order, and which side of the split each item goes to.
#[derive(Default)]
struct Scratch {
    /// Low bounds in the low-bound order, and the candidates below them.
    los: Vec<f64>,
    lo_splits: Vec<f64>,
    /// High bounds in the high-bound order, and the candidates above them.
    his: Vec<f64>,
    hi_splits: Vec<f64>,
    /// The merged candidates, each value once.
    candidates: Vec<f64>,
    /// Per item of the tree, [`FRONT`] and [`BACK`] at the node being split.
    sides: Vec<u8>,
}

/// [`Scratch::sides`]' bit for an item whose high bound is at or past the split.
const FRONT: u8 = 1;
/// [`Scratch::sides`]' bit for an item whose low bound is at or before the split.
const BACK: u8 = 2;

/// The surface area of the box `lo..hi` (0 when empty).
fn area((lo, hi): (DVec3, DVec3)) -> f64 {
    let d = (hi - lo).max(DVec3::ZERO);
    2.0 * (d.x * d.y + d.y * d.z + d.z * d.x)
}

/// A node's brushes, as indices into the hull's items, six times over: for each axis, by
/// their low bound and by their high bound (`[axis][0]` low, `[axis][1]` high). A child's
/// lists are its parent's filtered in order, so they stay sorted and no node sorts.
type Sorted = [[Vec<u32>; 2]; 3];

/// `items`' indices sorted by each bound on each axis ([`Sorted`]).
fn sorted(items: &[Item]) -> Sorted {
    let all: Vec<u32> = (0..items.len() as u32).collect();
    let by = |axis: usize, high: bool| {
        let mut order = all.clone();
        order.sort_by(|&a, &b| bound(items, a, axis, high).total_cmp(&bound(items, b, axis, high)));
        order
    };
    [0, 1, 2].map(|axis| [by(axis, false), by(axis, true)])
}

/// Item `index`'s low (or, `high`, high) bound along `axis`.
fn bound(items: &[Item], index: u32, axis: usize, high: bool) -> f64 {
    items
        .get(index as usize)
        .map_or(0.0, |i| if high { i.hi[axis] } else { i.lo[axis] })
}

/// Appends the subtree over `node` (the indices into `items` of the brushes whose bounds
/// meet `cell`, [`Sorted`]) to `hull` in preorder and gives its root: a leaf listing them,
/// or an axial split at the candidate position the surface-area heuristic likes best (front
/// where the coordinate is ≥ the split, back where it is ≤; a brush meeting both sides goes
/// to both), when that beats the leaf.
fn build(
    hull: &mut DeclaredHull,
    (items, scratch): (&[Item], &mut Scratch),
    node: Sorted,
    cell: (DVec3, DVec3),
    depth: usize,
) -> NodeChild {
    let count = node[0][0].len();
    let split = if count <= LEAF_BRUSHES || depth >= MAX_DEPTH {
        None
    } else {
        best_split(items, &node, cell, scratch)
    };
    let Some((axis, at)) = split else {
        let leaf = hull.leaves.len() as u32;
        let mut ids: Vec<u32> = node[0][0]
            .iter()
            .filter_map(|&k| items.get(k as usize).map(|i| i.id))
            .collect();
        ids.sort_unstable();
        hull.leaves.push(DeclaredLeaf {
            first: hull.brushes.len() as u32,
            count: ids.len() as u32,
            contents: node[0][0]
                .iter()
                .filter_map(|&k| items.get(k as usize))
                .fold(Contents::EMPTY, |c, i| c | i.contents),
        });
        hull.brushes.extend(ids);
        return NodeChild::Leaf(leaf);
    };
    let index = hull.nodes.len();
    let mut normal = Vec3::ZERO;
    normal[axis] = 1.0;
    hull.nodes.push(DeclaredNode {
        normal,
        dist: at as f32,
        children: [NodeChild::Leaf(0); 2],
    });
    let (front, back) = part(items, &mut scratch.sides, &node, (axis, at));
    drop(node);
    let (mut front_cell, mut back_cell) = (cell, cell);
    front_cell.0[axis] = at;
    back_cell.1[axis] = at;
    let front = build(hull, (items, scratch), front, front_cell, depth + 1);
    let back = build(hull, (items, scratch), back, back_cell, depth + 1);
    if let Some(node) = hull.nodes.get_mut(index) {
        node.children = [front, back];
    }
    NodeChild::Node(index as u32)
}

/// `node`'s brushes parted at `at` along `axis`: the front (high bound `≥ at`) and the
/// back (low bound `≤ at`), a brush meeting both in both, each list in its parent's order.
/// Each brush's side is found once (into `sides`, indexed by item), then each of the six
/// lists is read once for both children, each made its size once.
fn part(items: &[Item], sides: &mut [u8], node: &Sorted, (axis, at): (usize, f64)) -> (Sorted, Sorted) {
    let (mut fronts, mut backs) = (0, 0);
    for &k in &node[0][0] {
        let (Some(item), Some(side)) = (items.get(k as usize), sides.get_mut(k as usize)) else {
            continue;
        };
        let front = if item.hi[axis] >= at { FRONT } else { 0 };
        let back = if item.lo[axis] <= at { BACK } else { 0 };
        fronts += usize::from(front != 0);
        backs += usize::from(back != 0);
        *side = front | back;
    }
    let sides = &*sides;
    let split = |list: &Vec<u32>| {
        let (mut front, mut back) = (Vec::with_capacity(fronts), Vec::with_capacity(backs));
        for &k in list {
            let side = sides.get(k as usize).copied().unwrap_or(0);
            if side & FRONT != 0 {
                front.push(k);
            }
            if side & BACK != 0 {
                back.push(k);
            }
        }
        (front, back)
    };
    let mut front = Sorted::default();
    let mut back = Sorted::default();
    for (axis, pair) in node.iter().enumerate() {
        for (order, list) in pair.iter().enumerate() {
            (front[axis][order], back[axis][order]) = split(list);
        }
    }
    (front, back)
}

/// The best `(axis, position)` to split `cell` at, its position an f32 value (what the
/// stored node holds), or `None` when no split is cheaper than a leaf. The candidates lie
/// just outside the brushes' bounds along the axis, in order, every
/// `len / SPLIT_CANDIDATES`-th tried: the nearest f32 value below a low bound (the brush
/// then lies in front only) and above a high bound (behind only). A split exactly at a
/// bound would list that brush on both sides (the cells are closed), so that no split
/// ever separated a brush from its neighbours and leaves in open air kept the lists of
/// the walls around them (measured: 8 to 10 brushes scanned per short sweep on dm4 and
/// kaos, 0.2 of them near the sweep).
fn best_split(
    items: &[Item],
    node: &Sorted,
    cell: (DVec3, DVec3),
    scratch: &mut Scratch,
) -> Option<(usize, f64)> {
    let n = node[0][0].len() as f64;
    let mut best: Option<(f64, usize, f64)> = None;
    let Scratch {
        los,
        lo_splits,
        his,
        hi_splits,
        candidates,
        ..
    } = scratch;
    for (axis, [by_low, by_high]) in node.iter().enumerate() {
        los.clear();
        lo_splits.clear();
        for item in by_low.iter().filter_map(|&k| items.get(k as usize)) {
            los.push(item.lo[axis]);
            lo_splits.push(item.lo_split[axis]);
        }
        his.clear();
        hi_splits.clear();
        for item in by_high.iter().filter_map(|&k| items.get(k as usize)) {
            his.push(item.hi[axis]);
            hi_splits.push(item.hi_split[axis]);
        }
        // The two sorted lists merged, each value once.
        candidates.clear();
        let (mut a, mut b) = (0, 0);
        while a < los.len() || b < his.len() {
            let take_low = match (los.get(a), his.get(b)) {
                (Some(x), Some(y)) => x.total_cmp(y).is_le(),
                (Some(_), None) => true,
                _ => false,
            };
            let value = if take_low {
                a += 1;
                lo_splits[a - 1]
            } else {
                b += 1;
                hi_splits[b - 1]
            };
            // `dedup`'s test: equal values (−0 and +0 too) once, the first kept.
            if candidates.last().is_none_or(|&last| last != value) {
                candidates.push(value);
            }
        }
        let stride = (candidates.len() / SPLIT_CANDIDATES).max(1);
        for &at in candidates.iter().step_by(stride) {
            if at <= cell.0[axis] || at >= cell.1[axis] {
                continue;
            }
            let back = los.partition_point(|&lo| lo <= at) as f64;
            let front = n - his.partition_point(|&hi| hi < at) as f64;
            let (mut front_cell, mut back_cell) = (cell, cell);
            front_cell.0[axis] = at;
            back_cell.1[axis] = at;
            let cost = area(front_cell) * front + area(back_cell) * back;
            if best.is_none_or(|(b, _, _)| cost < b) {
                best = Some((cost, axis, at));
            }
        }
    }
    let leaf_cost = area(cell) * n;
    best.filter(|&(cost, _, _)| cost + STEP_COST * area(cell) < leaf_cost)
        .map(|(_, axis, at)| (axis, at))
}

/// The greatest f32 value below `x` (as f64), for a finite `x` within f32 range.
fn f32_below(x: f64) -> f64 {
    let near = x as f32;
    let below = if f64::from(near) < x {
        near
    } else {
        near.next_down()
    };
    f64::from(below)
}

/// The least f32 value above `x` (as f64), for a finite `x` within f32 range.
fn f32_above(x: f64) -> f64 {
    let near = x as f32;
    let above = if f64::from(near) > x {
        near
    } else {
        near.next_up()
    };
    f64::from(above)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(id: u32, lo: f64, hi: f64) -> Item {
        Item::new(
            id,
            Contents::SOLID,
            DVec3::new(lo, 0.0, 0.0),
            DVec3::new(hi, 10.0, 10.0),
        )
    }

    /// The tree over `items`, as `declared_hulls` builds it.
    fn tree(items: &[Item]) -> DeclaredHull {
        tree_over(items, Vec3::ZERO, Vec3::ZERO, 0.0)
    }

    #[test]
    fn candidates_lie_strictly_outside_the_bounds_they_come_from() {
        for x in [0.0, -0.0, 1.0, -24.0, 0.1, 1e-30, 4096.3, -131_072.0] {
            let (below, above) = (f32_below(x), f32_above(x));
            assert!(below < x && x < above, "{x}: {below} {above}");
            // f32 values, the nearest ones.
            assert_eq!(f64::from(below as f32), below);
            assert_eq!(f64::from(above as f32), above);
            assert!(f64::from((below as f32).next_up()) >= x);
            assert!(f64::from((above as f32).next_down()) <= x);
        }
    }

    #[test]
    fn apart_boxes_are_split_in_the_gaps_and_listed_once() {
        // Eight boxes 10 wide, 10 apart, along x: the splits fall in the gaps, never on a
        // box's bound (which would list that box on both sides), so each box is listed in
        // one leaf.
        let items: Vec<Item> = (0..8)
            .map(|k| item(k, 20.0 * f64::from(k), 20.0 * f64::from(k) + 10.0))
            .collect();
        let hull = tree(&items);
        assert!(!hull.nodes.is_empty());
        for node in &hull.nodes {
            let at = f64::from(node.dist);
            assert!(items.iter().all(|i| at < i.lo.x || at > i.hi.x), "{at}");
        }
        let mut listed = hull.brushes.clone();
        listed.sort_unstable();
        assert_eq!(listed, (0..8).collect::<Vec<u32>>());
    }
}
