//! The declared character boxes' own trees, kept in the compiled level: [`DeclaredHulls`].
//!
//! Takes, per box a compile declared (`CompileOptions::declared_shapes`, built by
//! `compile/declared.rs`), a bounding-volume tree over the world's and its static models'
//! brushes, each brush's box grown by what that box can reach from it (the runtime's own
//! `sweep_state::brush_grow`, in f32); gives it to `trace/declared.rs`, which walks a sweep
//! of that box through it as a point. Guarantees after [`DeclaredHulls::validate`]: every
//! box and bound is finite, every node's children and every brush index are in range, the
//! nodes form one tree in preorder (each node has one parent, so a walk visits each at most
//! once) no deeper than [`MAX_DECLARED_DEPTH`]; checked in time linear in the tables.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::validate::LoadError;

/// The most nodes on one path from a declared tree's root to a leaf: the walk's fixed
/// stack holds this many. A median split halves the brushes at each level, so 2^64 brushes
/// would be needed to reach it honestly.
pub const MAX_DECLARED_DEPTH: usize = 64;

/// A node of a declared tree: the bounds of every grown brush under it and either its
/// brushes (a leaf) or its second child (the first is the next node, preorder).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct DeclaredNode {
    /// The smallest corner of the grown brushes under the node.
    pub mins: Vec3,
    /// The largest corner of the grown brushes under the node.
    pub maxs: Vec3,
    /// A leaf (`count > 0`): its brushes are `brushes[first..first + count]`; otherwise
    /// `first` is the second child's node index.
    pub first: u32,
    /// How many brushes the leaf lists (0 for an inner node).
    pub count: u32,
}

/// One declared box and its tree.
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
    /// The tree, in preorder (the root first; empty when the world has no brush).
    pub nodes: Vec<DeclaredNode>,
    /// The brush ids the leaves list.
    pub brushes: Vec<u32>,
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

    /// Checks every declared tree against a world of `brush_count` brushes.
    ///
    /// # Errors
    /// [`LoadError::BadValue`] for a bound that is not finite or a box turned inside out;
    /// [`LoadError::BadIndex`] for a child or brush out of range, or nodes that are not
    /// one tree in preorder, or a tree deeper than [`MAX_DECLARED_DEPTH`].
    pub(crate) fn validate(&self, brush_count: usize) -> Result<(), LoadError> {
        for (index, hull) in self.hulls.iter().enumerate() {
            let finite = hull.mins.is_finite() && hull.maxs.is_finite();
            if !finite || !hull.mins.cmple(hull.maxs).all() {
                return Err(bad_value(index, "declared box not finite or inside out"));
            }
            if !(hull.radius.is_finite() && hull.radius >= 0.0) {
                return Err(bad_value(index, "declared radius not finite"));
            }
            if let Some(&b) = hull.brushes.iter().find(|&&b| b as usize >= brush_count) {
                return Err(bad_index(index, format!("brush {b} out of range")));
            }
            validate_tree(index, hull)?;
        }
        Ok(())
    }
}

/// Checks that `hull.nodes` is one tree in preorder: node `i`'s subtree is exactly the
/// range it is handed (the root all of them), an inner node's second child splits its range
/// after the first, a leaf is a range of one; so every node has one parent and is met once.
fn validate_tree(index: usize, hull: &DeclaredHull) -> Result<(), LoadError> {
    let nodes = &hull.nodes;
    if nodes.is_empty() {
        return Ok(());
    }
    // (node, end of its subtree, depth)
    let mut stack = vec![(0usize, nodes.len(), 1usize)];
    while let Some((at, end, depth)) = stack.pop() {
        if depth > MAX_DECLARED_DEPTH {
            return Err(bad_index(index, format!("tree deeper than {MAX_DECLARED_DEPTH}")));
        }
        let node = &nodes[at];
        if !(node.mins.is_finite() && node.maxs.is_finite()) {
            return Err(bad_value(index, "declared node bounds not finite"));
        }
        if node.count > 0 {
            let range = (node.first as usize).checked_add(node.count as usize);
            if end != at + 1 || range.is_none_or(|r| r > hull.brushes.len()) {
                return Err(bad_index(index, format!("leaf {at} out of range")));
            }
        } else {
            let second = node.first as usize;
            if second <= at + 1 || second >= end {
                return Err(bad_index(index, format!("node {at}: child {second} out of range")));
            }
            stack.push((second, end, depth + 1));
            stack.push((at + 1, second, depth + 1));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(first: u32, count: u32) -> DeclaredNode {
        DeclaredNode {
            mins: Vec3::ZERO,
            maxs: Vec3::ONE,
            first,
            count,
        }
    }

    fn hull(nodes: Vec<DeclaredNode>) -> DeclaredHulls {
        DeclaredHulls {
            hulls: vec![DeclaredHull {
                mins: -Vec3::ONE,
                maxs: Vec3::ONE,
                radius: 2.0,
                nodes,
                brushes: vec![0, 1],
            }],
        }
    }

    #[test]
    fn a_tree_in_preorder_passes_and_broken_ones_are_typed_errors() {
        let good = hull(vec![node(2, 0), node(0, 1), node(1, 1)]);
        assert!(good.validate(2).is_ok());
        assert!(matches!(good.validate(1), Err(LoadError::BadIndex { .. })));
        // The second child pointing back at its parent: a cycle.
        let cyclic = hull(vec![node(0, 0), node(0, 1), node(1, 1)]);
        assert!(matches!(cyclic.validate(2), Err(LoadError::BadIndex { .. })));
        // A node no parent names.
        let orphan = hull(vec![node(2, 0), node(0, 1), node(1, 1), node(0, 1)]);
        assert!(matches!(orphan.validate(2), Err(LoadError::BadIndex { .. })));
        // A leaf past the brush list.
        let long = hull(vec![node(2, 0), node(0, 1), node(1, 2)]);
        assert!(matches!(long.validate(2), Err(LoadError::BadIndex { .. })));
        let mut nan = hull(vec![node(0, 1)]);
        nan.hulls[0].nodes[0].mins.x = f32::NAN;
        assert!(matches!(nan.validate(2), Err(LoadError::BadValue { .. })));
        // A chain deeper than the walk's stack.
        let mut deep: Vec<DeclaredNode> = Vec::new();
        for i in 0..=MAX_DECLARED_DEPTH as u32 {
            deep.push(node(2 * i + 2, 0));
            deep.push(node(0, 1));
        }
        deep.push(node(1, 1));
        assert!(matches!(hull(deep).validate(2), Err(LoadError::BadIndex { .. })));
    }
}
