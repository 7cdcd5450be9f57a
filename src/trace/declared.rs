//! A sweep of a declared box walked through the box's own tree as a point
//! (`compile/declared.rs` builds the tree, `compiled/declared.rs` stores and checks it).
//!
//! Takes a world sweep whose shape is an unrotated box with exactly a declared box's bounds
//! (and a cull radius the tree allows: `tree_walk::Sweep`); gives the same
//! [`Outcome`](super::sweep_state::Outcome) as the main trees' walk. Why it is the same: a
//! brush the per-brush cull (`tree_walk::may_block`) keeps has its grown bounds, padded by
//! the sweep's stop distance, met by the segment; every leaf cell holding a point of that
//! meeting lists the brush (the lists are padded by the longest stop distance and a margin
//! for f32 rounding); the walk follows the reference point as a point sweep does
//! (`TREE_CULL_MARGIN` each side of a node plane), so it reaches such a leaf no later than
//! the segment meets the brush. A leaf's scan first leaves out, from the list's own
//! records, a brush whose grown bounds (no smaller than the cull's) miss the padded segment
//! box or whose contents miss the mask, as the cull would; the brushes it clips go through
//! the same cull and clip as every other way of choosing brushes, whose answer does not depend on their
//! order (an all-solid sweep names the lowest brush: `brush_clip.rs`). The walk loops down nodes
//! the segment stays on one side of, recurses only at splits, at most `MAX_TREE_DEPTH` deep
//! (checked at load), nearer side first, and allocates nothing.

use glam::Vec3;

use super::shape::Support;
use super::sweep_state::TraceWork;
use super::tree_walk::split_at_node;
use crate::compiled::{DeclaredHull, NodeChild};
use crate::tolerance::TREE_CULL_MARGIN;

impl<S: Support> TraceWork<'_, S> {
    /// Clips every brush `hull`'s tree lists in the leaves the sweep passes through.
    pub(crate) fn walk_declared(&mut self, hull: &DeclaredHull) {
        // A point's reach (`PointSupport::node_reaches`): the lists hold every brush within
        // the longest stop distance already.
        let reach = TREE_CULL_MARGIN;
        self.declared_span(hull, reach, hull.root, (0.0, 1.0), (self.start, self.end));
    }

    /// Walks the subtree at `child` with the sub-segment `p1..p2` (fractions `f1..f2`).
    fn declared_span(
        &mut self,
        hull: &DeclaredHull,
        reach: f32,
        mut child: NodeChild,
        (f1, f2): (f32, f32),
        (p1, p2): (Vec3, Vec3),
    ) {
        // As `tree_walk::walk_span`: a subtree reached only after the best hit cannot
        // improve it.
        if self.found.fraction < f1 {
            return;
        }
        let nodes = hull.nodes.as_slice();
        let (node, t1, t2) = loop {
            let index = match child {
                NodeChild::Leaf(leaf) => return self.declared_leaf(hull, leaf as usize),
                NodeChild::Node(node) => node as usize,
            };
            // Indices are checked at load; a bad one ends the walk rather than panicking.
            let Some(node) = nodes.get(index) else {
                return;
            };
            let t1 = node.normal.dot(p1) - node.dist;
            let t2 = node.normal.dot(p2) - node.dist;
            if t1 >= reach && t2 >= reach {
                child = node.children[0];
            } else if t1 <= -reach && t2 <= -reach {
                child = node.children[1];
            } else {
                break (node, t1, t2);
            }
        };
        for (child, (a, b)) in split_at_node((t1, t2), [reach, reach], node.children) {
            if a <= b {
                let (q1, q2) = (p1 + (p2 - p1) * a, p1 + (p2 - p1) * b);
                let (g1, g2) = (f1 + (f2 - f1) * a, f1 + (f2 - f1) * b);
                self.declared_span(hull, reach, child, (g1, g2), (q1, q2));
            }
        }
    }

    /// Clips the brushes leaf `index` of `hull`'s tree lists (as `tree_walk`'s leaf: the
    /// bounds cull before the check for a brush clipped already). The scan reads the leaf's
    /// `DeclaredEntry` records (`compiled/declared.rs`) in order and leaves out a
    /// brush the mask or its grown bounds rule out, which the per-brush cull would too;
    /// the rest go through that cull and the clip as any other way of choosing brushes.
    fn declared_leaf(&mut self, hull: &DeclaredHull, index: usize) {
        let Some(leaf) = hull.leaves.get(index) else {
            return;
        };
        if !leaf.contents.intersects(self.mask) {
            return;
        }
        let first = leaf.first as usize;
        let entries = hull.entries.get(first..first + leaf.count as usize);
        let (segment_mins, segment_maxs) = (self.segment_mins, self.segment_maxs);
        for entry in entries.unwrap_or(&[]) {
            if !entry.contents.intersects(self.mask)
                || entry.lo.cmpgt(segment_maxs).any()
                || entry.hi.cmplt(segment_mins).any()
            {
                continue;
            }
            self.clip_listed(std::slice::from_ref(&entry.id));
        }
    }
}
