//! The portals of a [`BspTree`]: the convex polygons through which its leaves touch each
//! other and the outside, in f64 (qbsp3 `MakeTreePortals`, ericw-tools `portals.cc`).
//!
//! Takes a tree, its plane table and the [`OutsideBox`], gives [`Portals`]. The box's six
//! faces are the first portals, between the root and the outside. Then every node, parents
//! first (the tree stores nodes in preorder): its plane's polygon inside the node's region
//! (the ancestors' half-spaces and the box) becomes a portal between its two children, and
//! each portal bounding the node is split by the plane and handed to the child on each side.
//! Guarantees: once every node is done each portal joins two leaves, or a leaf and the
//! outside, and lies in the closure of both; its plane's front faces its first cell. A
//! portal with fewer than three edges longer than [`PORTAL_TINY_EDGE`] is dropped (qbsp3's
//! `WindingIsTiny`), so slivers never join leaves.

use glam::DVec3;

use crate::bsp::{BspTree, Child, PlaneTable};
use crate::geom::{BuildPlane, Winding};
use crate::tolerance::{CLIP_EPSILON, MAX_MAP_COORD, OUTSIDE_MARGIN, PORTAL_TINY_EDGE};

/// The box around a map that the portals close off: the world's bounds grown by
/// [`OUTSIDE_MARGIN`], within ±[`MAX_MAP_COORD`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct OutsideBox {
    pub mins: DVec3,
    pub maxs: DVec3,
}

impl OutsideBox {
    /// The box around `mins..maxs` (the world's bounds).
    pub(crate) fn around(mins: DVec3, maxs: DVec3) -> OutsideBox {
        let limit = DVec3::splat(MAX_MAP_COORD);
        OutsideBox {
            mins: (mins - OUTSIDE_MARGIN).clamp(-limit, limit),
            maxs: (maxs + OUTSIDE_MARGIN).clamp(-limit, limit),
        }
    }

    /// The six faces, normals pointing out of the box: +x, −x, +y, −y, +z, −z.
    pub(crate) fn planes(&self) -> [BuildPlane; 6] {
        let face = |normal: DVec3, dist: f64| BuildPlane {
            normal,
            dist: dist + 0.0,
        };
        [
            face(DVec3::X, self.maxs.x),
            face(DVec3::NEG_X, -self.mins.x),
            face(DVec3::Y, self.maxs.y),
            face(DVec3::NEG_Y, -self.mins.y),
            face(DVec3::Z, self.maxs.z),
            face(DVec3::NEG_Z, -self.mins.z),
        ]
    }

    /// Whether `p` lies inside or on the box.
    pub(crate) fn contains(&self, p: DVec3) -> bool {
        self.mins.cmple(p).all() && p.cmple(self.maxs).all()
    }
}

/// What a portal joins: a leaf of the tree or the outside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cell {
    /// A leaf, by index.
    Leaf(u32),
    /// Everything beyond the outside box.
    Outside,
}

/// One portal.
#[derive(Clone, Debug)]
pub(crate) struct Portal {
    /// The polygon.
    pub winding: Winding,
    /// `[front, back]` of the portal's plane.
    pub cells: [Cell; 2],
}

impl Portal {
    /// The cell across the portal from `cell`.
    pub(crate) fn other(&self, cell: Cell) -> Cell {
        if self.cells[0] == cell {
            self.cells[1]
        } else {
            self.cells[0]
        }
    }

    /// The average of the corners (a point inside the polygon).
    pub(crate) fn centre(&self) -> DVec3 {
        let points = &self.winding.points;
        points.iter().copied().sum::<DVec3>() / points.len().max(1) as f64
    }
}

/// Every portal of a tree, and the portals of each leaf and of the outside.
#[derive(Clone, Debug, Default)]
pub(crate) struct Portals {
    /// The portals; ids index this list. Portals no leaf lists were dropped on the way.
    pub portals: Vec<Portal>,
    /// The ids of each leaf's portals, by leaf index.
    pub leaf_portals: Vec<Vec<u32>>,
    /// The ids of the portals to the outside.
    pub outside_portals: Vec<u32>,
}

impl Portals {
    /// The portal ids of `cell`.
    pub(crate) fn of(&self, cell: Cell) -> &[u32] {
        match cell {
            Cell::Leaf(leaf) => self
                .leaf_portals
                .get(leaf as usize)
                .map_or(&[][..], Vec::as_slice),
            Cell::Outside => &self.outside_portals,
        }
    }
}

/// Each node's and leaf's parent and the side of it they lie on (0 front, 1 back).
pub(crate) struct Parents {
    nodes: Vec<Option<(u32, usize)>>,
    leaves: Vec<Option<(u32, usize)>>,
}

impl Parents {
    pub(crate) fn of(tree: &BspTree) -> Parents {
        let mut parents = Parents {
            nodes: vec![None; tree.nodes.len()],
            leaves: vec![None; tree.leaves.len()],
        };
        for (index, node) in tree.nodes.iter().enumerate() {
            for (side, child) in node.children.iter().enumerate() {
                let entry = Some((index as u32, side));
                match *child {
                    Child::Node(n) => parents.nodes[n as usize] = entry,
                    Child::Leaf(l) => parents.leaves[l as usize] = entry,
                }
            }
        }
        parents
    }

    /// The planes bounding `child`'s region, each facing out of it (the region lies behind
    /// every one): its ancestors' planes, flipped where it lies in front.
    pub(crate) fn region(&self, tree: &BspTree, planes: &PlaneTable, child: Child) -> Vec<BuildPlane> {
        let mut out = Vec::new();
        let mut up = match child {
            Child::Node(n) => self.nodes[n as usize],
            Child::Leaf(l) => self.leaves[l as usize],
        };
        while let Some((node, side)) = up {
            let plane = *planes.get(tree.nodes[node as usize].plane);
            out.push(if side == 0 { plane.flipped() } else { plane });
            up = self.nodes[node as usize];
        }
        out
    }
}

/// Whether `winding` has fewer than three edges longer than [`PORTAL_TINY_EDGE`].
fn is_tiny(winding: &Winding) -> bool {
    let points = &winding.points;
    let long = (0..points.len())
        .filter(|&i| points[i].distance(points[(i + 1) % points.len()]) > PORTAL_TINY_EDGE)
        .count();
    long < 3
}

/// The polygon of `plane` inside every plane of `bounds` (each facing out of the region).
pub(crate) fn clipped_winding(plane: &BuildPlane, bounds: &[BuildPlane]) -> Option<Winding> {
    Winding::base_for_plane(plane).into_clipped_behind_all(bounds, CLIP_EPSILON)
}

/// A portal while the tree is cut: cells are nodes (`0..n`), leaves (`n..n + l`) and the
/// outside (`n + l`).
struct Draft {
    winding: Winding,
    cells: [u32; 2],
}

/// The portals of `tree` inside `outside` (see the module doc).
pub(crate) fn make_portals(
    tree: &BspTree,
    planes: &PlaneTable,
    parents: &Parents,
    outside: &OutsideBox,
) -> Portals {
    let nodes = tree.nodes.len() as u32;
    let leaves = tree.leaves.len() as u32;
    let outside_cell = nodes + leaves;
    let cell_of = |child: Child| match child {
        Child::Node(n) => n,
        Child::Leaf(l) => nodes + l,
    };
    let mut drafts: Vec<Draft> = Vec::new();
    let mut lists: Vec<Vec<u32>> = vec![Vec::new(); outside_cell as usize + 1];
    let add = |drafts: &mut Vec<Draft>, lists: &mut Vec<Vec<u32>>, draft: Draft| {
        let id = drafts.len() as u32;
        for cell in draft.cells {
            lists[cell as usize].push(id);
        }
        drafts.push(draft);
    };

    // 1. The box's faces, between the outside (in front) and the root.
    let box_planes = outside.planes();
    let root = cell_of(tree.root);
    for (i, face) in box_planes.iter().enumerate() {
        let others: Vec<BuildPlane> = box_planes
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, p)| *p)
            .collect();
        if let Some(winding) = clipped_winding(face, &others).filter(|w| !is_tiny(w)) {
            let cells = [outside_cell, root];
            add(&mut drafts, &mut lists, Draft { winding, cells });
        }
    }

    // 2. Each node in preorder, so its region's portals are all made before it is cut.
    for (index, node) in tree.nodes.iter().enumerate() {
        let cell = index as u32;
        let plane = *planes.get(node.plane);
        let [front, back] = node.children.map(cell_of);
        let mut bounds = parents.region(tree, planes, Child::Node(cell));
        bounds.extend(box_planes);
        if let Some(winding) = clipped_winding(&plane, &bounds).filter(|w| !is_tiny(w)) {
            let cells = [front, back];
            add(&mut drafts, &mut lists, Draft { winding, cells });
        }
        for id in std::mem::take(&mut lists[index]) {
            let draft = &mut drafts[id as usize];
            let side = usize::from(draft.cells[0] != cell);
            let other = draft.cells[1 - side];
            let winding = std::mem::take(&mut draft.winding.points);
            let (ahead, behind) = Winding { points: winding }.into_split(&plane, CLIP_EPSILON);
            let ahead = ahead.filter(|w| !is_tiny(w));
            let behind = behind.filter(|w| !is_tiny(w));
            let ahead_only = ahead.is_some();
            match (ahead, behind) {
                (Some(ahead), Some(behind)) => {
                    draft.winding = ahead;
                    draft.cells[side] = front;
                    let mut cells = draft.cells;
                    cells[side] = back;
                    lists[front as usize].push(id);
                    let new = drafts.len() as u32;
                    drafts.push(Draft {
                        winding: behind,
                        cells,
                    });
                    lists[back as usize].push(new);
                    lists[other as usize].push(new);
                }
                (Some(piece), None) | (None, Some(piece)) => {
                    let to = if ahead_only { front } else { back };
                    draft.winding = piece;
                    draft.cells[side] = to;
                    lists[to as usize].push(id);
                }
                (None, None) => lists[other as usize].retain(|&p| p != id),
            }
        }
    }

    // 3. What the leaves and the outside list, renumbered.
    let mut renumber: Vec<Option<u32>> = vec![None; drafts.len()];
    let mut out = Portals::default();
    let cell = |c: u32| {
        if c == outside_cell {
            Cell::Outside
        } else {
            Cell::Leaf(c - nodes)
        }
    };
    let mut id_of = |id: u32, out: &mut Portals| -> u32 {
        *renumber[id as usize].get_or_insert_with(|| {
            let draft = &mut drafts[id as usize];
            out.portals.push(Portal {
                winding: Winding {
                    points: std::mem::take(&mut draft.winding.points),
                },
                cells: draft.cells.map(cell),
            });
            out.portals.len() as u32 - 1
        })
    };
    for leaf in 0..leaves {
        let ids: Vec<u32> = lists[(nodes + leaf) as usize]
            .iter()
            .map(|&id| id_of(id, &mut out))
            .collect();
        out.leaf_portals.push(ids);
    }
    out.outside_portals = lists[outside_cell as usize]
        .iter()
        .map(|&id| id_of(id, &mut out))
        .collect();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brush::brushes_from_map;
    use crate::bsp::build_tree;
    use crate::map::parse_map;

    /// A floor slab and a pillar standing on it.
    const ROOM: &str = "{ \"classname\" \"worldspawn\"
{ ( -80 -80 -16 ) ( -80 -79 -16 ) ( -80 -80 -15 ) a 0 0 0 1 1
( 80 80 0 ) ( 80 81 0 ) ( 81 80 0 ) a 0 0 0 1 1
( -80 -80 -16 ) ( -80 -80 -15 ) ( -79 -80 -16 ) a 0 0 0 1 1
( 80 80 0 ) ( 81 80 0 ) ( 80 80 1 ) a 0 0 0 1 1
( -80 -80 -16 ) ( -79 -80 -16 ) ( -80 -79 -16 ) a 0 0 0 1 1
( 80 80 0 ) ( 80 80 1 ) ( 80 81 0 ) a 0 0 0 1 1 }
{ ( -10 -10 0 ) ( -10 -9 0 ) ( -10 -10 1 ) a 0 0 0 1 1
( 10 10 40 ) ( 10 11 40 ) ( 11 10 40 ) a 0 0 0 1 1
( -10 -10 0 ) ( -10 -10 1 ) ( -9 -10 0 ) a 0 0 0 1 1
( 10 10 40 ) ( 11 10 40 ) ( 10 10 41 ) a 0 0 0 1 1
( -10 -10 0 ) ( -9 -10 0 ) ( -10 -9 0 ) a 0 0 0 1 1
( 10 10 40 ) ( 10 10 41 ) ( 10 11 40 ) a 0 0 0 1 1 } }";

    #[test]
    fn every_portal_lies_on_both_of_its_cells() {
        let map = parse_map(ROOM.as_bytes()).expect("parses");
        let brushes = brushes_from_map(&map).brushes;
        let mut planes = PlaneTable::new();
        let inputs = super::super::tree_inputs(&brushes, &mut planes);
        let tree = build_tree(&inputs, &planes);
        let parents = Parents::of(&tree);
        let outside = OutsideBox::around(DVec3::new(-80.0, -80.0, -16.0), DVec3::splat(80.0));
        let portals = make_portals(&tree, &planes, &parents, &outside);
        let region = |cell: Cell| match cell {
            Cell::Leaf(l) => {
                let mut r = parents.region(&tree, &planes, Child::Leaf(l));
                r.extend(outside.planes());
                r
            }
            // The outside: beyond one of the box's faces, so each point is on or past one.
            Cell::Outside => Vec::new(),
        };
        for (id, portal) in portals.portals.iter().enumerate() {
            for cell in portal.cells {
                for p in &portal.winding.points {
                    for plane in region(cell) {
                        assert!(plane.distance(*p) < 1e-6, "portal {id} {cell:?} {p}");
                    }
                    if cell == Cell::Outside {
                        let on_box = outside.planes().iter().any(|b| b.distance(*p).abs() < 1e-6);
                        assert!(on_box, "portal {id} {p}");
                    }
                }
                assert!(portals.of(cell).contains(&(id as u32)), "portal {id} {cell:?}");
            }
        }
        // The box's six faces all reach the outside, whole: their areas add up.
        let outside_area: f64 = portals
            .outside_portals
            .iter()
            .map(|&id| portals.portals[id as usize].winding.area())
            .sum();
        let size = outside.maxs - outside.mins;
        let expected = 2.0 * (size.x * size.y + size.y * size.z + size.z * size.x);
        assert!((outside_area - expected).abs() < 1e-6 * expected, "{outside_area} {expected}");
    }
}
