//! [`BspTree`]: a surface-aligned BSP of one model's brushes, split until every leaf is
//! homogeneous.
//!
//! Takes brushes as (plane ids, windings, contents) and the plane table, gives nodes and
//! leaves. Guarantees:
//! - Splitting planes are planes of brush faces only (surface-aligned); bevels never split.
//! - Every leaf lies wholly inside or wholly outside each brush that is not `detail` (up to
//!   [`SPLIT_EPSILON`]), and its brush list names exactly those covering it. Detail brushes
//!   (patch facets: thousands of thin slabs) split only a region that still holds more than
//!   [`MAX_DETAIL_PER_LEAF`] of them once every other plane is used, so a leaf lists every
//!   detail brush that reaches into it, which may cover only part of it. A leaf's contents
//!   are the OR of the contents of every brush it lists. So solid space is exactly the union
//!   of the solid brushes (point contents test a leaf's detail brushes one by one), with no
//!   outside fill: the void around a map is empty space (the leak stage's fill, when asked,
//!   adds brushes before the build).
//! - Nodes are stored in preorder: a child node's index is always greater than its parent's.
//!   With the `parallel` feature the top levels' subtrees are built side by side and joined
//!   in that order, so the tree is the same on any number of threads.
//!
//! **Splitter heuristic.** At each node, the candidates are the distinct planes of fragment
//! sides not yet used by an ancestor (at most [`MAX_SPLIT_CANDIDATES`], sampled evenly in
//! plane order when there are more). Each is scored like Quake 2's `SelectSplitSide`:
//! `5·facing − 5·splits − |front − back| + 5·axial`, where `facing` counts fragments with a
//! side on the plane (those sides are used up), `splits` counts fragments it cuts, and
//! `front`/`back` count fragments on each side. So axial planes come first, then planes that
//! cut little, then balance. Ties go to the lower plane id, so builds are deterministic.

use super::fragment::{Fragment, FragmentSide, Placement};
use super::planes::{PlaneId, PlaneTable};
use crate::contents::Contents;
use crate::geom::{PlaneKind, Winding};

#[cfg(doc)]
use crate::tolerance::SPLIT_EPSILON;

/// Most splitter candidates scored per node. More gives slightly smaller trees at a
/// quadratic cost in build time; 64 keeps a 2,000-brush map well under half a second.
pub const MAX_SPLIT_CANDIDATES: usize = 64;

/// Most detail brushes (patch facets) a leaf may list before their own face planes split it.
/// Splitting until every leaf is homogeneous in thin slabs cut at every angle made a dozen
/// nodes per facet (dm17ish: 70,000) and sweeps near curved patches walked hundreds of
/// them; a leaf of partly covering slabs is tested brush by brush instead, each culled by
/// its bounds. Every split of slabs by slabs' planes lists the cut ones in more leaves, so
/// fewer splits are faster (measured on dm17ish, box sweeps near its patches: 58 µs at 4, 39
/// at 16, 30 at 64, 25 with none), until leaves get so long that points and short sweeps
/// slow down (a point 0.64 µs at 64, 1.2 with none).
pub const MAX_DETAIL_PER_LEAF: usize = 64;

/// Score weights of the splitter heuristic (Quake 2 `SelectSplitSide`).
const FACING_WEIGHT: i64 = 5;
const SPLIT_WEIGHT: i64 = 5;
const AXIAL_BONUS: i64 = 5;

/// A child of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Child {
    /// An interior node, by index.
    Node(u32),
    /// A leaf, by index.
    Leaf(u32),
}

/// An interior node: a plane and the subtrees in front of it and behind it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// The splitting plane (a brush face plane).
    pub plane: PlaneId,
    /// `[front, back]`: front is where `n·x > dist`.
    pub children: [Child; 2],
}

/// A leaf: a convex region that is wholly inside or outside each brush that is not detail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leaf {
    /// OR of the contents of the brushes the leaf lists; empty when it lists none.
    pub contents: Contents,
    /// The brushes covering the leaf, and the detail brushes reaching into it (indices into
    /// the build input), ascending.
    pub brushes: Vec<u32>,
}

/// One brush as the tree builder sees it.
#[derive(Clone, Debug)]
pub struct BrushInput {
    /// Each side's plane (facing out of the brush) and winding.
    pub sides: Vec<(PlaneId, Winding)>,
    /// What the brush is made of.
    pub contents: Contents,
    /// A detail brush (a patch facet): its faces split only crowded regions, so leaves may
    /// lie partly outside it.
    pub detail: bool,
}

/// The tree of one model.
#[derive(Clone, Debug)]
pub struct BspTree {
    /// Interior nodes in preorder.
    pub nodes: Vec<Node>,
    /// Leaves.
    pub leaves: Vec<Leaf>,
    /// The root: a node, or a single leaf for an empty model.
    pub root: Child,
    /// Deepest leaf's depth (root leaf = 0).
    pub max_depth: u32,
}

/// Where a finished subtree goes.
#[derive(Clone, Copy)]
enum Slot {
    Root,
    Child { node: usize, index: usize },
}

/// Levels of the tree whose two subtrees are built side by side (with the `parallel`
/// feature): up to 2^4 subtrees at once, plenty for two to a dozen cores; below, each
/// subtree is built in one loop.
const PARALLEL_LEVELS: u32 = 4;

/// Builds the tree of `brushes`.
#[must_use]
pub fn build_tree(brushes: &[BrushInput], planes: &PlaneTable) -> BspTree {
    let detail: Vec<bool> = brushes.iter().map(|b| b.detail).collect();
    let fragments: Vec<Fragment> = brushes
        .iter()
        .enumerate()
        .filter_map(|(i, b)| {
            let sides = b
                .sides
                .iter()
                .map(|(plane, winding)| FragmentSide {
                    plane: *plane,
                    winding: winding.clone(),
                    used: false,
                })
                .collect();
            Fragment::new(i as u32, sides)
        })
        .collect();
    let build = Build {
        brushes,
        planes,
        detail: &detail,
    };
    build.part(fragments, 0)
}

/// What every part of one build reads.
struct Build<'a> {
    brushes: &'a [BrushInput],
    planes: &'a PlaneTable,
    detail: &'a [bool],
}

impl Build<'_> {
    /// The subtree of `fragments` at `depth`, numbered from 0: in its top
    /// [`PARALLEL_LEVELS`] levels the two sides of a node are built side by side and
    /// joined in preorder (the node, its front subtree, its back subtree), so the tree is
    /// exactly the one a single loop builds.
    fn part(&self, fragments: Vec<Fragment>, depth: u32) -> BspTree {
        if depth >= PARALLEL_LEVELS {
            return self.in_one_loop(fragments, depth);
        }
        let Some(plane) = choose_splitter(&fragments, self.planes, self.detail) else {
            return self.in_one_loop(fragments, depth);
        };
        let (front, back) = partition(fragments, plane, self.planes);
        let (front, back) = crate::threads::join(
            || self.part(front, depth + 1),
            || self.part(back, depth + 1),
        );
        let front_nodes = front.nodes.len() as u32;
        let front_leaves = front.leaves.len() as u32;
        let shift = |child: Child, nodes: u32, leaves: u32| match child {
            Child::Node(n) => Child::Node(n + nodes),
            Child::Leaf(l) => Child::Leaf(l + leaves),
        };
        let mut nodes = Vec::with_capacity(1 + front.nodes.len() + back.nodes.len());
        nodes.push(Node {
            plane,
            children: [
                shift(front.root, 1, 0),
                shift(back.root, 1 + front_nodes, front_leaves),
            ],
        });
        nodes.extend(front.nodes.iter().map(|n| Node {
            plane: n.plane,
            children: n.children.map(|c| shift(c, 1, 0)),
        }));
        nodes.extend(back.nodes.iter().map(|n| Node {
            plane: n.plane,
            children: n.children.map(|c| shift(c, 1 + front_nodes, front_leaves)),
        }));
        let mut leaves = front.leaves;
        leaves.extend(back.leaves);
        BspTree {
            nodes,
            leaves,
            root: Child::Node(0),
            max_depth: front.max_depth.max(back.max_depth),
        }
    }

    /// The subtree of `fragments` at `depth`, numbered from 0, built in one loop (nodes in
    /// preorder, leaves in the same order).
    fn in_one_loop(&self, fragments: Vec<Fragment>, depth: u32) -> BspTree {
        let (brushes, planes, detail) = (self.brushes, self.planes, self.detail);
        let mut tree = BspTree {
            nodes: Vec::new(),
            leaves: Vec::new(),
            root: Child::Leaf(0),
            max_depth: 0,
        };
        let mut stack = vec![(fragments, Slot::Root, depth)];
        while let Some((fragments, slot, depth)) = stack.pop() {
            let child = match choose_splitter(&fragments, planes, detail) {
                Some(plane) => {
                    let node = tree.nodes.len();
                    tree.nodes.push(Node {
                        plane,
                        children: [Child::Leaf(0); 2],
                    });
                    let (front, back) = partition(fragments, plane, planes);
                    stack.push((back, Slot::Child { node, index: 1 }, depth + 1));
                    stack.push((front, Slot::Child { node, index: 0 }, depth + 1));
                    Child::Node(node as u32)
                }
                None => {
                    tree.max_depth = tree.max_depth.max(depth);
                    let mut leaf_brushes: Vec<u32> = fragments.iter().map(|f| f.brush).collect();
                    leaf_brushes.sort_unstable();
                    leaf_brushes.dedup();
                    let contents = leaf_brushes.iter().fold(Contents::EMPTY, |c, &b| {
                        c.union(brushes[b as usize].contents)
                    });
                    tree.leaves.push(Leaf {
                        contents,
                        brushes: leaf_brushes,
                    });
                    Child::Leaf(tree.leaves.len() as u32 - 1)
                }
            };
            match slot {
                Slot::Root => tree.root = child,
                Slot::Child { node, index } => tree.nodes[node].children[index] = child,
            }
        }
        tree
    }
}

/// The best splitter among the unused sides of the fragments of brushes that are not
/// detail, else (in a region still holding more than [`MAX_DETAIL_PER_LEAF`] detail
/// fragments) of detail brushes; `None` when the region is a leaf.
fn choose_splitter(fragments: &[Fragment], planes: &PlaneTable, detail: &[bool]) -> Option<PlaneId> {
    let sides_of = |want_detail: bool| -> Vec<PlaneId> {
        fragments
            .iter()
            .filter(|f| detail.get(f.brush as usize).copied().unwrap_or(false) == want_detail)
            .flat_map(|f| {
                f.sides
                    .iter()
                    .filter(|s| !s.used)
                    .map(|s| s.plane.canonical())
            })
            .collect()
    };
    let mut candidates = sides_of(false);
    if candidates.is_empty() {
        let crowded = fragments
            .iter()
            .filter(|f| detail.get(f.brush as usize).copied().unwrap_or(false))
            .count()
            > MAX_DETAIL_PER_LEAF;
        if crowded {
            candidates = sides_of(true);
        }
    }
    candidates.sort_unstable();
    candidates.dedup();
    if candidates.len() > MAX_SPLIT_CANDIDATES {
        let stride = candidates.len() as f64 / MAX_SPLIT_CANDIDATES as f64;
        candidates = (0..MAX_SPLIT_CANDIDATES)
            .map(|i| candidates[(i as f64 * stride) as usize])
            .collect();
    }
    // Each fragment's box, worked out once for all the candidates.
    let boxes: Vec<_> = fragments.iter().map(Fragment::box_center_half).collect();
    let mut best: Option<(i64, PlaneId)> = None;
    for id in candidates {
        let plane = planes.get(id);
        let (mut front, mut back, mut facing, mut splits) = (0i64, 0i64, 0i64, 0i64);
        for (fragment, one_box) in fragments.iter().zip(&boxes) {
            match fragment.place_from_box(*one_box, id, plane) {
                Placement::Front => front += 1,
                Placement::Back => back += 1,
                Placement::Facing { front: f } => {
                    facing += 1;
                    if f {
                        front += 1;
                    } else {
                        back += 1;
                    }
                }
                Placement::Spanning => splits += 1,
            }
        }
        let axial = if plane.kind() == PlaneKind::NonAxial {
            0
        } else {
            AXIAL_BONUS
        };
        let value = FACING_WEIGHT * facing - SPLIT_WEIGHT * splits - (front - back).abs() + axial;
        if best.is_none_or(|(v, _)| value > v) {
            best = Some((value, id));
        }
    }
    best.map(|(_, id)| id)
}

/// Sends each fragment to the front, the back, or (split) both.
fn partition(
    fragments: Vec<Fragment>,
    id: PlaneId,
    planes: &PlaneTable,
) -> (Vec<Fragment>, Vec<Fragment>) {
    let plane = planes.get(id);
    let mut front = Vec::new();
    let mut back = Vec::new();
    for mut fragment in fragments {
        match fragment.place(id, plane) {
            Placement::Front => front.push(fragment),
            Placement::Back => back.push(fragment),
            Placement::Facing { front: f } => {
                fragment.use_plane(id);
                if f {
                    front.push(fragment);
                } else {
                    back.push(fragment);
                }
            }
            Placement::Spanning => {
                let (f, b) = fragment.split(id, planes);
                front.extend(f);
                back.extend(b);
            }
        }
    }
    (front, back)
}
