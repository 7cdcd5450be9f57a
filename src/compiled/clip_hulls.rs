//! A Quake 1 family level's own hull trees, kept in the compiled level: [`ClipHulls`].
//!
//! Takes the trees as an imported `.bsp` stores them (the `planes` lump as written, the
//! `clipnodes` of hulls 1 to 3, hull 0 made from the `nodes` and `leafs` as the game makes
//! it, `model.c Mod_MakeHull0`, and each model's head node per hull); gives them back to
//! the walks in `trace/clip_hull.rs`. Guarantees after [`ClipHulls::validate`]: every plane
//! is finite, every node names a plane and children in range, no node can be reached from
//! itself and no walk from any node meets more than [`MAX_CLIP_HULL_DEPTH`] nodes, so a
//! walk through any stored hull ends and its recursion is bounded. Checked in time linear
//! in the tables.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::validate::{LoadError, bad_index, bad_value};

/// The most nodes one walk down a stored hull tree may meet. The game's walks recurse
/// once per node (`pmovetst.c PM_RecursiveHullCheck`), so this bounds their stack; qbsp's
/// trees on id's levels stay below 100.
pub const MAX_CLIP_HULL_DEPTH: u32 = 1024;

/// The hulls a Quake 1 model has: 0 (the level as drawn) and the clip hulls 1 to 3.
pub const HULL_COUNT: usize = 4;

/// A plane of the stored hulls, as the file wrote it (f32, not renormalised: the game
/// walks these exact numbers). Points with `normal·p − dist ≥ 0` are in front.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct HullPlane {
    /// The normal as written.
    pub normal: Vec3,
    /// The distance as written.
    pub dist: f32,
    /// `0`, `1`, `2`: the plane is axial and the game reads that coordinate alone
    /// (`mplane_t.type < 3`); `3`: the game takes the dot product.
    pub axis: u8,
}

impl HullPlane {
    /// The signed distance of `p` as the game computes it in f32: one coordinate for an
    /// axial plane, the dot product summed x, y, z otherwise.
    #[inline]
    #[must_use]
    pub fn distance(&self, p: Vec3) -> f32 {
        match self.axis {
            0 => p.x - self.dist,
            1 => p.y - self.dist,
            2 => p.z - self.dist,
            _ => {
                let n = self.normal;
                (n.x * p.x + n.y * p.y + n.z * p.z) - self.dist
            }
        }
    }
}

/// A node of a stored hull (`dclipnode_t`): a plane and two children, each a node index
/// (≥ 0) or a contents value (< 0, the game's `CONTENTS_*`: −1 empty, −2 solid, −3 water …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HullNode {
    /// Index into [`ClipHulls::planes`].
    pub plane: u32,
    /// `[front, back]`: front where the distance is ≥ 0.
    pub children: [i32; 2],
}

/// The game's CONTENTS_SOLID (`bspfile.h`).
pub const HULL_CONTENTS_SOLID: i32 = -2;
/// The game's CONTENTS_EMPTY.
pub const HULL_CONTENTS_EMPTY: i32 = -1;
/// A head the file does not give: a `.bsp` written without clip nodes (qbsp's `-noclip`)
/// has no clip hulls 1 to 3, and [`ClipHulls::head`] answers `None` for them, so a query
/// through one sweeps its shape through the brushes instead
/// ([`ShapeQuery::through_clip_hull`](crate::movement::ShapeQuery::through_clip_hull)).
/// No contents value of the game's (they run from −1 to −15).
pub const HULL_ABSENT: i32 = i32::MIN;

/// Every hull tree of a Quake 1 family level; empty for other formats and for `.map`
/// sources (they have no such trees).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClipHulls {
    /// The planes the nodes name.
    pub planes: Vec<HullPlane>,
    /// The nodes of every hull of every model (hull 0's after the clip nodes).
    pub nodes: Vec<HullNode>,
    /// Per model of the file (its `*k` number, 0 the world), per hull 0 to 3: the head, a
    /// node index or a contents value.
    pub heads: Vec<[i32; HULL_COUNT]>,
}

impl ClipHulls {
    /// The head of `hull` of model `model`, if the level holds it ([`HULL_ABSENT`] is
    /// not held).
    #[must_use]
    pub fn head(&self, model: usize, hull: usize) -> Option<i32> {
        self.heads
            .get(model)?
            .get(hull)
            .copied()
            .filter(|&head| head != HULL_ABSENT)
    }

    /// The contents the tree under `num` gives `p` (`PM_HullPointContents`): on a plane
    /// counts as in front. Needs a validated table (every index in range, no cycle).
    #[must_use]
    pub fn point_contents(&self, mut num: i32, p: Vec3) -> i32 {
        while let Ok(index) = usize::try_from(num) {
            let Some(node) = self.nodes.get(index) else {
                return HULL_CONTENTS_SOLID;
            };
            let Some(plane) = self.planes.get(node.plane as usize) else {
                return HULL_CONTENTS_SOLID;
            };
            num = if plane.distance(p) < 0.0 {
                node.children[1]
            } else {
                node.children[0]
            };
        }
        num
    }

    /// The checks of the module doc: planes finite, indices in range, no cycle, depth at
    /// most [`MAX_CLIP_HULL_DEPTH`].
    ///
    /// # Errors
    /// [`LoadError::BadValue`] or [`LoadError::BadIndex`] naming the table and entry.
    pub(crate) fn validate(&self) -> Result<(), LoadError> {
        for (i, plane) in self.planes.iter().enumerate() {
            if !plane.normal.is_finite() || !plane.dist.is_finite() {
                return Err(bad_value("hull_planes", i, "not finite"));
            }
            if plane.axis > 3 {
                return Err(bad_value("hull_planes", i, "axis is not 0 to 3"));
            }
        }
        let count = self.nodes.len();
        if i32::try_from(count).is_err() {
            return Err(bad_value("hull_nodes", count, "too many nodes"));
        }
        for (i, node) in self.nodes.iter().enumerate() {
            if node.plane as usize >= self.planes.len() {
                return Err(bad_index(
                    "hull_nodes",
                    i,
                    format!("plane {} out of range", node.plane),
                ));
            }
            for child in node.children {
                check_child("hull_nodes", i, child, count)?;
            }
        }
        for (i, heads) in self.heads.iter().enumerate() {
            for &head in heads {
                check_child("hull_heads", i, head, count)?;
            }
        }
        self.check_heights()
    }

    /// Every node's height (the most nodes a walk from it meets) found by a depth-first
    /// pass with an explicit stack: a node met again while still on the stack is a cycle.
    fn check_heights(&self) -> Result<(), LoadError> {
        /// Not yet visited.
        const UNSEEN: u32 = 0;
        /// On the stack.
        const OPEN: u32 = u32::MAX;
        // Per node: UNSEEN, OPEN, or its height (≥ 1).
        let mut height = vec![UNSEEN; self.nodes.len()];
        let child_height = |height: &[u32], child: i32| -> u32 {
            usize::try_from(child).map_or(0, |c| height[c])
        };
        let mut stack: Vec<usize> = Vec::new();
        for root in 0..self.nodes.len() {
            if height[root] != UNSEEN {
                continue;
            }
            height[root] = OPEN;
            stack.push(root);
            while let Some(&top) = stack.last() {
                let node = self.nodes[top];
                let mut pushed = false;
                for child in node.children {
                    let Ok(c) = usize::try_from(child) else {
                        continue;
                    };
                    match height[c] {
                        UNSEEN => {
                            height[c] = OPEN;
                            stack.push(c);
                            pushed = true;
                            break;
                        }
                        OPEN => {
                            return Err(bad_index(
                                "hull_nodes",
                                top,
                                format!("child {c} leads back to this node"),
                            ));
                        }
                        _ => {}
                    }
                }
                if pushed {
                    continue;
                }
                let h = 1 + child_height(&height, node.children[0])
                    .max(child_height(&height, node.children[1]));
                if h > MAX_CLIP_HULL_DEPTH {
                    return Err(bad_value("hull_nodes", top, "tree deeper than allowed"));
                }
                height[top] = h;
                stack.pop();
            }
        }
        Ok(())
    }
}

fn check_child(table: &'static str, index: usize, child: i32, count: usize) -> Result<(), LoadError> {
    match usize::try_from(child) {
        Ok(c) if c >= count => Err(bad_index(
            table,
            index,
            format!("child {c} out of range ({count} nodes)"),
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axial(axis: u8, dist: f32) -> HullPlane {
        let mut normal = Vec3::ZERO;
        normal[axis as usize] = 1.0;
        HullPlane { normal, dist, axis }
    }

    /// A floor at z = 0: solid below.
    fn floor() -> ClipHulls {
        ClipHulls {
            planes: vec![axial(2, 0.0)],
            nodes: vec![HullNode {
                plane: 0,
                children: [HULL_CONTENTS_EMPTY, HULL_CONTENTS_SOLID],
            }],
            heads: vec![[0; HULL_COUNT]],
        }
    }

    #[test]
    fn a_valid_tree_passes_and_answers_contents() {
        let hulls = floor();
        assert_eq!(hulls.validate(), Ok(()));
        assert_eq!(hulls.point_contents(0, Vec3::new(0.0, 0.0, 0.0)), HULL_CONTENTS_EMPTY);
        assert_eq!(hulls.point_contents(0, Vec3::new(0.0, 0.0, -0.001)), HULL_CONTENTS_SOLID);
    }

    #[test]
    fn bad_indices_cycles_and_depth_are_refused() {
        let mut hulls = floor();
        hulls.nodes[0].plane = 1;
        assert!(matches!(hulls.validate(), Err(LoadError::BadIndex { .. })));
        let mut hulls = floor();
        hulls.nodes[0].children[0] = 1;
        assert!(matches!(hulls.validate(), Err(LoadError::BadIndex { .. })));
        let mut hulls = floor();
        hulls.heads[0][3] = 5;
        assert!(matches!(hulls.validate(), Err(LoadError::BadIndex { .. })));
        let mut hulls = floor();
        hulls.nodes[0].children[0] = 0;
        assert!(matches!(hulls.validate(), Err(LoadError::BadIndex { .. })));
        let mut hulls = floor();
        hulls.planes[0].dist = f32::NAN;
        assert!(matches!(hulls.validate(), Err(LoadError::BadValue { .. })));
        // A chain one node longer than allowed.
        let mut hulls = floor();
        let n = MAX_CLIP_HULL_DEPTH as i32;
        hulls.nodes = (0..=n)
            .map(|i| HullNode {
                plane: 0,
                children: [if i < n { i + 1 } else { -1 }, HULL_CONTENTS_SOLID],
            })
            .collect();
        assert!(matches!(hulls.validate(), Err(LoadError::BadValue { .. })));
        hulls.nodes.pop();
        hulls.nodes[(n - 1) as usize].children[0] = -1;
        assert_eq!(hulls.validate(), Ok(()));
    }
}
