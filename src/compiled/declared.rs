//! The declared character boxes' own trees, kept in the compiled level: [`DeclaredHulls`].
//!
//! Takes, per box a compile declared (`CompileOptions::declared_shapes`, built by
//! `compile/declared.rs`), an axial tree over the world's and static models' brushes whose
//! leaves list the brushes (by their ids in the world) whose bounds, grown by that box and
//! padded by the longest stop distance, meet the leaf's cell; gives
//! it to `trace/declared.rs`, which walks a sweep of that box through it as a point. Guarantees
//! after [`DeclaredHulls::validate`]: every box, plane and radius is finite, a node's
//! children follow it (so no walk loops), every node and leaf has at most one parent, no
//! path is deeper than [`MAX_TREE_DEPTH`], the leaves' lists follow each other in leaf
//! order without overlap, and every index is in range; checked in time linear in the tables.
//! Then [`DeclaredHulls::derive`] gives each list entry its record for the leaf scan
//! (`DeclaredEntry`: id, contents, bounds grown by the box), derived at load, never read
//! from the file.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::{CompiledBrush, NodeChild};
use super::validate::LoadError;
use crate::contents::Contents;
use crate::tolerance::MAX_TREE_DEPTH;

/// A node of a declared tree: its plane inline (front where `normal·x − dist ≥ 0`) and its
/// children.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct DeclaredNode {
    pub normal: Vec3,
    pub dist: f32,
    /// `[front, back]`; a child node always has a greater index than its parent.
    pub children: [NodeChild; 2],
}

/// A leaf of a declared tree.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct DeclaredLeaf {
    /// The brushes are `brushes[first..first + count]`, in increasing id order.
    pub first: u32,
    pub count: u32,
    /// The union of those brushes' contents (a sweep whose mask misses it skips the leaf).
    pub contents: Contents,
}

/// One brush of a leaf's list as a sweep's scan reads it, derived at load
/// ([`DeclaredHulls::derive`]): its contents and its bounds grown by the declared box the
/// way `sweep_state::brush_grow` grows them, with the hull's radius (the largest a routed
/// sweep may have) for a brush without its six axial planes. In one 32-byte record, so a
/// leaf's scan reads its list in order instead of a brush record and a flag per id.
///
/// Guarantees: a sweep routed to the hull (its bounds those of the box, its cull radius at
/// most the hull's) whose padded segment box misses `lo..hi`, or whose mask misses
/// `contents`, is one the per-brush cull (`tree_walk::may_block`) leaves the brush out of:
/// the box's grow is the same f32 value, the radius grow no smaller (f32 products and
/// differences are monotone), the comparisons the same.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct DeclaredEntry {
    pub lo: Vec3,
    pub id: u32,
    pub hi: Vec3,
    pub contents: Contents,
}

/// One declared box and its lists.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct DeclaredHull {
    /// The box's bounds about the reference point, as `TraceShape::bounds` gives them for
    /// the declared box: a sweep is routed here only when its box's bounds equal these bit
    /// for bit.
    pub mins: Vec3,
    pub maxs: Vec3,
    /// The circumradius the grown bounds of brushes without all six axial planes allow for
    /// (the box's own plus the longest stop distance): a sweep whose cull radius exceeds it
    /// is not routed here.
    pub radius: f32,
    /// The tree's root, its nodes (the root first when it is a node) and its leaves.
    pub root: NodeChild,
    pub nodes: Vec<DeclaredNode>,
    pub leaves: Vec<DeclaredLeaf>,
    /// The brush ids the lists hold.
    pub brushes: Vec<u32>,
    /// Derived at load, one per entry of `brushes` ([`DeclaredHulls::derive`]).
    #[serde(skip)]
    pub entries: Vec<DeclaredEntry>,
}

/// Every declared box of the level with its tree (empty when none was declared).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct DeclaredHulls {
    pub hulls: Vec<DeclaredHull>,
}

fn bad_value(index: usize, reason: &'static str) -> LoadError {
    LoadError::BadValue {
        table: "declared",
        index,
        reason,
    }
}

fn bad_index(index: usize, reason: String) -> LoadError {
    LoadError::BadIndex {
        table: "declared",
        index,
        reason,
    }
}

impl DeclaredHulls {
    /// The declared box whose bounds are exactly `(mins, maxs)` and which allows a cull
    /// radius of `radius`, if any.
    #[inline]
    pub(crate) fn find(&self, (mins, maxs): (Vec3, Vec3), radius: f32) -> Option<&DeclaredHull> {
        self.hulls
            .iter()
            .find(|h| h.mins == mins && h.maxs == maxs && radius <= h.radius)
    }

    /// Fills each hull's [`DeclaredEntry`] list from a validated world's `brushes`, with
    /// `axial[b]` whether brush `b` keeps a shape's blocking region within its bounds grown
    /// by the shape's (`CompiledMap::brush_axial_bounded`, the same flags). One record per
    /// listed id, so a leaf's range reads its own; call after [`Self::validate`], which
    /// keeps every id in range (one that were not would get a record with no contents,
    /// which no scan keeps).
    pub(crate) fn derive(&mut self, brushes: &[CompiledBrush], axial: &[bool]) {
        for hull in &mut self.hulls {
            let bounds = (hull.mins, hull.maxs);
            let radius = hull.radius;
            hull.entries = hull
                .brushes
                .iter()
                .map(|&id| match brushes.get(id as usize) {
                    Some(brush) => {
                        // `sweep_state::brush_grow` with the hull's radius.
                        let axial_bounded = axial.get(id as usize).copied().unwrap_or(false);
                        let (grow_low, grow_high) = brush.grow(axial_bounded, bounds, radius);
                        DeclaredEntry {
                            lo: brush.mins - grow_low,
                            id,
                            hi: brush.maxs + grow_high,
                            contents: brush.contents,
                        }
                    }
                    None => DeclaredEntry {
                        lo: Vec3::ZERO,
                        id,
                        hi: Vec3::ZERO,
                        contents: Contents::EMPTY,
                    },
                })
                .collect();
        }
    }

    /// Checks every declared tree against a world of `brush_count` brushes.
    ///
    /// # Errors
    /// [`LoadError::BadValue`] for a box, radius or plane that is not finite or a box
    /// turned inside out; [`LoadError::BadIndex`] for a child, list or brush out of range,
    /// a child before its parent or with two parents, or a tree too deep.
    pub(crate) fn validate(&self, brush_count: usize) -> Result<(), LoadError> {
        for (index, hull) in self.hulls.iter().enumerate() {
            let finite = hull.mins.is_finite() && hull.maxs.is_finite();
            if !finite || !hull.mins.cmple(hull.maxs).all() {
                return Err(bad_value(index, "declared box not finite or inside out"));
            }
            if !(hull.radius.is_finite() && hull.radius >= 0.0) {
                return Err(bad_value(index, "declared radius not finite"));
            }
            validate_tree(index, hull)?;
            if let Some(&b) = hull.brushes.iter().find(|&&b| b as usize >= brush_count) {
                return Err(bad_index(index, format!("brush {b} out of range")));
            }
            // The lists follow each other in leaf order, so none is read twice.
            let mut next = 0usize;
            for (at, leaf) in hull.leaves.iter().enumerate() {
                let end = next.checked_add(leaf.count as usize);
                if leaf.first as usize != next || end.is_none_or(|end| end > hull.brushes.len()) {
                    return Err(bad_index(index, format!("list {at} out of range or out of order")));
                }
                next = end.unwrap_or(next);
            }
        }
        Ok(())
    }
}

/// The tree of `hull`: planes finite, children in range and after their parent, one
/// parent each, depth at most [`MAX_TREE_DEPTH`] (one forward pass: parents come first).
fn validate_tree(index: usize, hull: &DeclaredHull) -> Result<(), LoadError> {
    let (nodes, leaves) = (hull.nodes.len(), hull.leaves.len());
    let mut depth = vec![0u32; nodes];
    let mut node_parent = vec![false; nodes];
    let mut leaf_parent = vec![false; leaves];
    match hull.root {
        NodeChild::Node(0) if nodes > 0 => {}
        NodeChild::Leaf(l) if (l as usize) < leaves && nodes == 0 => {}
        _ => return Err(bad_index(index, "bad root".to_owned())),
    }
    for (at, node) in hull.nodes.iter().enumerate() {
        if !(node.normal.is_finite() && node.dist.is_finite()) {
            return Err(bad_value(index, "declared plane not finite"));
        }
        if at > 0 && !node_parent[at] {
            return Err(bad_index(index, format!("node {at}: no parent")));
        }
        let d = depth[at] + 1;
        if d > MAX_TREE_DEPTH {
            return Err(bad_index(index, format!("deeper than {MAX_TREE_DEPTH}")));
        }
        for child in node.children {
            match child {
                NodeChild::Node(n) => {
                    let n = n as usize;
                    if n >= nodes || n <= at || node_parent[n] {
                        return Err(bad_index(index, format!("node {at}: bad child {n}")));
                    }
                    node_parent[n] = true;
                    depth[n] = d;
                }
                NodeChild::Leaf(l) => {
                    let l = l as usize;
                    if l >= leaves || leaf_parent[l] {
                        return Err(bad_index(index, format!("node {at}: bad leaf {l}")));
                    }
                    leaf_parent[l] = true;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hull(leaves: Vec<(u32, u32)>) -> DeclaredHulls {
        DeclaredHulls {
            hulls: vec![DeclaredHull {
                mins: -Vec3::ONE,
                maxs: Vec3::ONE,
                radius: 2.0,
                root: NodeChild::Node(0),
                nodes: vec![DeclaredNode {
                    normal: Vec3::X,
                    dist: 0.0,
                    children: [NodeChild::Leaf(0), NodeChild::Leaf(1)],
                }],
                leaves: leaves
                    .into_iter()
                    .map(|(first, count)| DeclaredLeaf {
                        first,
                        count,
                        contents: Contents::SOLID,
                    })
                    .collect(),
                brushes: vec![0, 1],
                entries: Vec::new(),
            }],
        }
    }

    #[test]
    fn lists_in_range_pass_and_broken_ones_are_typed_errors() {
        let good = hull(vec![(0, 1), (1, 1)]);
        assert!(good.validate(2).is_ok());
        let overlapping = hull(vec![(0, 2), (1, 1)]);
        assert!(matches!(overlapping.validate(2), Err(LoadError::BadIndex { .. })));
        assert!(good.find((-Vec3::ONE, Vec3::ONE), 2.0).is_some());
        assert!(good.find((-Vec3::ONE, Vec3::ONE), 2.5).is_none());
        assert!(matches!(good.validate(1), Err(LoadError::BadIndex { .. })));
        let long = hull(vec![(0, 1), (1, 2)]);
        assert!(matches!(long.validate(2), Err(LoadError::BadIndex { .. })));
        let wrapping = hull(vec![(0, 1), (u32::MAX, u32::MAX)]);
        assert!(matches!(wrapping.validate(2), Err(LoadError::BadIndex { .. })));
        // A leaf with two parents, a missing leaf, a node its own child.
        let mut twice = hull(vec![(0, 1), (1, 1)]);
        twice.hulls[0].nodes[0].children[1] = NodeChild::Leaf(0);
        assert!(matches!(twice.validate(2), Err(LoadError::BadIndex { .. })));
        let mut missing = hull(vec![(0, 1)]);
        missing.hulls[0].leaves.truncate(1);
        assert!(matches!(missing.validate(2), Err(LoadError::BadIndex { .. })));
        let mut cycle = hull(vec![(0, 1), (1, 1)]);
        cycle.hulls[0].nodes[0].children[0] = NodeChild::Node(0);
        assert!(matches!(cycle.validate(2), Err(LoadError::BadIndex { .. })));
        let mut nan = hull(vec![(0, 1), (1, 1)]);
        nan.hulls[0].mins.x = f32::NAN;
        assert!(matches!(nan.validate(2), Err(LoadError::BadValue { .. })));
        let mut plane = hull(vec![(0, 1), (1, 1)]);
        plane.hulls[0].nodes[0].dist = f32::INFINITY;
        assert!(matches!(plane.validate(2), Err(LoadError::BadValue { .. })));
        let mut inside_out = hull(vec![(0, 1), (1, 1)]);
        inside_out.hulls[0].mins.z = 3.0;
        assert!(matches!(inside_out.validate(2), Err(LoadError::BadValue { .. })));
    }
}
