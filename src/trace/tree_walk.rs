//! The tree walk of a sweep: which leaves (and so which brushes) the swept shape can touch
//! (Quake 3 `CM_TraceThroughTree`, with Melax's overlapping sub-segments).
//!
//! Takes a sweep and a model's tree, clips every brush of every leaf the swept shape may
//! reach. Guarantees (invariant I3): node planes only cull. A side of a node is skipped only
//! when the shape, placed anywhere on the sub-segment, stays more than [`TREE_CULL_MARGIN`]
//! away from it; exact hits come only from brush sides. The walk recurses at most
//! `MAX_TREE_DEPTH` deep (checked at load) and allocates nothing.

use glam::Vec3;

use super::brush_clip::clip_brush;
use super::shape::Oriented;
use crate::compiled::{CompiledMap, NodeChild};
use crate::contents::Contents;
use crate::tolerance::{SURFACE_CLIP_EPSILON, TRACE_SEEN_BRUSHES, TREE_CULL_MARGIN};

/// The state of one sweep, in the model's frame.
pub(crate) struct TraceWork<'a> {
    pub map: &'a CompiledMap,
    pub shape: Oriented<'a>,
    pub start: Vec3,
    pub end: Vec3,
    pub mask: Contents,
    /// The swept shape's bounds, grown by the stop distance and the cull margin.
    pub mins: Vec3,
    pub maxs: Vec3,
    pub fraction: f32,
    pub hit_plane: Option<u32>,
    pub contents: Contents,
    pub start_solid: bool,
    pub all_solid: bool,
    seen: [u32; TRACE_SEEN_BRUSHES],
    seen_count: usize,
}

impl<'a> TraceWork<'a> {
    pub(crate) fn new(
        map: &'a CompiledMap,
        shape: Oriented<'a>,
        start: Vec3,
        end: Vec3,
        mask: Contents,
    ) -> Self {
        let (shape_mins, shape_maxs) = shape.bounds();
        let pad = Vec3::splat(SURFACE_CLIP_EPSILON + TREE_CULL_MARGIN);
        TraceWork {
            map,
            shape,
            start,
            end,
            mask,
            mins: start.min(end) + shape_mins - pad,
            maxs: start.max(end) + shape_maxs + pad,
            fraction: 1.0,
            hit_plane: None,
            contents: Contents::EMPTY,
            start_solid: false,
            all_solid: false,
            seen: [0; TRACE_SEEN_BRUSHES],
            seen_count: 0,
        }
    }

    /// Walks the subtree at `child` with the sub-segment `p1..p2` (fractions `f1..f2` of the
    /// whole sweep).
    pub(crate) fn walk(&mut self, child: NodeChild, f1: f32, f2: f32, p1: Vec3, p2: Vec3) {
        if self.all_solid || self.fraction <= f1 {
            return;
        }
        let node = match child {
            NodeChild::Leaf(leaf) => return self.leaf(leaf as usize),
            NodeChild::Node(node) => self.map.nodes()[node as usize],
        };
        let plane = self.map.planes()[node.plane as usize];
        let [front, back] = node.children;
        let t1 = plane.distance(p1);
        let t2 = plane.distance(p2);
        // The shape at x reaches into the front half-space when n·x − d > −h(n), into the back
        // when n·x − d < h(−n).
        let front_reach = self.shape.support(plane.normal) + TREE_CULL_MARGIN;
        let back_reach = self.shape.support(-plane.normal) + TREE_CULL_MARGIN;
        if t1 >= back_reach && t2 >= back_reach {
            return self.walk(front, f1, f2, p1, p2);
        }
        if t1 <= -front_reach && t2 <= -front_reach {
            return self.walk(back, f1, f2, p1, p2);
        }
        // Both sides: each gets the part of the sub-segment that can reach it; the parts
        // overlap across the slab −front_reach < t < back_reach. Near side first.
        let (front_span, back_span) = if t1 == t2 {
            ((0.0, 1.0), (0.0, 1.0))
        } else {
            let s_front = (-front_reach - t1) / (t2 - t1);
            let s_back = (back_reach - t1) / (t2 - t1);
            if t2 > t1 {
                ((s_front.max(0.0), 1.0), (0.0, s_back.min(1.0)))
            } else {
                ((0.0, s_front.min(1.0)), (s_back.max(0.0), 1.0))
            }
        };
        let part = |(a, b): (f32, f32)| {
            (
                f1 + (f2 - f1) * a,
                f1 + (f2 - f1) * b,
                p1 + (p2 - p1) * a,
                p1 + (p2 - p1) * b,
            )
        };
        let order = if t1 >= 0.0 {
            [(front, front_span), (back, back_span)]
        } else {
            [(back, back_span), (front, front_span)]
        };
        for (child, span) in order {
            if span.0 <= span.1 {
                let (a, b, q1, q2) = part(span);
                self.walk(child, a, b, q1, q2);
            }
        }
    }

    fn leaf(&mut self, index: usize) {
        let map = self.map;
        let leaf = &map.leaves()[index];
        if !leaf.contents.intersects(self.mask) {
            return;
        }
        for &brush_id in map.leaf_brush_ids(leaf) {
            if self.seen[..self.seen_count].contains(&brush_id) {
                continue;
            }
            if self.seen_count < TRACE_SEEN_BRUSHES {
                self.seen[self.seen_count] = brush_id;
                self.seen_count += 1;
            }
            let brush = &map.brushes()[brush_id as usize];
            if !brush.contents.intersects(self.mask)
                || brush.mins.cmpgt(self.maxs).any()
                || brush.maxs.cmplt(self.mins).any()
            {
                continue;
            }
            clip_brush(self, brush);
            if self.all_solid {
                return;
            }
        }
    }
}
