//! A sweep of a declared box walked through its own tree as a point (`compile/declared.rs`
//! builds the tree, `compiled/declared.rs` stores and checks it).
//!
//! Takes a sweep whose shape is an unrotated box with exactly a declared box's bounds (and
//! a cull radius the tree allows); gives the same [`Outcome`](super::sweep_state::Outcome)
//! as the main tree's walk, bit for bit. Guarantees: every brush the per-brush cull
//! (`tree_walk::may_block`) would keep lies under nodes whose padded bounds the segment
//! enters no later than the brush's own (the stored bounds cover every grown brush under
//! them, and correctly rounded arithmetic is monotone), so the walk reaches it; each brush
//! is listed once, and the brushes a sweep clips go through the same cull and clip as every
//! other way of choosing brushes, whose answer does not depend on their order. Nearer
//! children first; a node entered after the best hit so far is skipped. No allocation: the
//! stack is fixed, as deep as the checked depth cap.

use super::shape::Support;
use super::sweep_state::{TraceWork, stop_pad};
use super::tree_walk::segment_enter;
use crate::compiled::{DeclaredHull, MAX_DECLARED_DEPTH};

impl<S: Support> TraceWork<'_, S> {
    /// Clips every brush of `hull`'s tree the sweep may meet, nearest nodes first.
    pub(crate) fn walk_declared(&mut self, hull: &DeclaredHull) {
        let nodes = hull.nodes.as_slice();
        let pad = stop_pad(self.stop);
        let (start, end) = (self.start, self.end);
        let enter = |index: u32| -> Option<f32> {
            let node = nodes.get(index as usize)?;
            segment_enter(start, end, (node.mins - pad, node.maxs + pad))
        };
        // (node, where the segment enters its padded bounds)
        let mut stack = [(0u32, 0.0f32); MAX_DECLARED_DEPTH + 1];
        let mut top = 0usize;
        if let Some(at) = enter(0) {
            stack[0] = (0, at);
            top = 1;
        }
        while top > 0 {
            top -= 1;
            let (index, at) = stack[top];
            if at > self.found.fraction {
                continue;
            }
            // Indices are checked at load; a bad one ends this branch rather than panicking.
            let Some(node) = nodes.get(index as usize) else {
                continue;
            };
            if node.count > 0 {
                let first = node.first as usize;
                let ids = hull.brushes.get(first..first + node.count as usize);
                for &brush_id in ids.unwrap_or(&[]) {
                    self.consider(brush_id);
                    if self.found.all_solid {
                        return;
                    }
                }
                continue;
            }
            let children = [index + 1, node.first];
            let [a, b] = children.map(|c| enter(c).filter(|&e| e <= self.found.fraction));
            // The farther child below the nearer on the stack, so the nearer is walked first.
            let mut order = [(children[0], a), (children[1], b)];
            if let (Some(x), Some(y)) = (a, b)
                && y < x
            {
                order.swap(0, 1);
            }
            for (child, entered) in order.into_iter().rev() {
                if let Some(e) = entered
                    && top < stack.len()
                {
                    stack[top] = (child, e);
                    top += 1;
                }
            }
        }
    }
}
