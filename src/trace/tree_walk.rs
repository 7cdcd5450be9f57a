//! The tree walk of a sweep: which leaves (and so which brushes) the swept shape can touch.
//!
//! Takes a sweep and a model's tree, clips every brush of every leaf the swept shape may
//! reach. Guarantees (invariant I3): the tree is a pure broadphase, so results equal those
//! of clipping every brush (property 13) whatever the splits.
//!
//! Why not cull with node planes alone (Quake 3 `CM_TraceThroughTree`)? A brush's planes
//! shifted by a rounded shape's support reach past the true Minkowski sum near sharp edges
//! (Melax's over-reach). A brush lying behind a slanted node plane can then "hit" a shape
//! that never reaches that plane; culling by the true reach drops such hits in some leaves
//! and keeps them in others, so results would depend on the splits (Quake 3's "axial brush
//! right behind a slanted bsp plane will poke through" comment). Every brush has all six
//! axial planes (faces or bevels), so its expanded region lies inside its bounds grown by
//! the shape's bounds; the walk clips each sub-segment to each child's brush bounds grown
//! that way (plus [`TREE_CULL_MARGIN`]) and uses the node plane only to visit the near
//! child first. The walk recurses at most `MAX_TREE_DEPTH` deep (checked at load) and
//! allocates nothing.

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
    /// How far the reference point can be from a box and the shape still touch it (grown
    /// like `mins`/`maxs`): a box `(lo, hi)` is reachable from `lo − reach_high ..
    /// hi + reach_low`.
    reach_low: Vec3,
    reach_high: Vec3,
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
            reach_low: -shape_mins + pad,
            reach_high: shape_maxs + pad,
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
        // A subtree reached only after the best hit so far cannot improve it. Strictly after:
        // a hit at fraction 0 (starting within the stop distance of a surface) must not hide
        // a brush the shape starts inside, which is only reachable from fraction 0.
        if self.all_solid || self.fraction < f1 {
            return;
        }
        let index = match child {
            NodeChild::Leaf(leaf) => return self.leaf(leaf as usize),
            NodeChild::Node(node) => node as usize,
        };
        let node = self.map.nodes()[index];
        let plane = self.map.planes()[node.plane as usize];
        let near = usize::from(plane.distance(p1) < 0.0);
        let bounds = self.map.node_child_bounds(index);
        for k in [near, 1 - near] {
            let (lo, hi) = bounds[k];
            if let Some((a, b)) = clip_to_box(p1, p2, lo - self.reach_high, hi + self.reach_low) {
                let (q1, q2) = (p1 + (p2 - p1) * a, p1 + (p2 - p1) * b);
                self.walk(
                    node.children[k],
                    f1 + (f2 - f1) * a,
                    f1 + (f2 - f1) * b,
                    q1,
                    q2,
                );
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

/// The part `[a, b]` of the segment `p1 → p2` (as fractions) inside the box `lo..hi`, or
/// `None` when it misses (slab method). An empty box is always missed.
fn clip_to_box(p1: Vec3, p2: Vec3, lo: Vec3, hi: Vec3) -> Option<(f32, f32)> {
    if lo.cmpgt(hi).any() {
        return None;
    }
    let d = p2 - p1;
    let (mut a, mut b) = (0.0f32, 1.0f32);
    for axis in 0..3 {
        if d[axis] == 0.0 {
            if p1[axis] < lo[axis] || p1[axis] > hi[axis] {
                return None;
            }
            continue;
        }
        let inv = 1.0 / d[axis];
        let (mut t0, mut t1) = ((lo[axis] - p1[axis]) * inv, (hi[axis] - p1[axis]) * inv);
        if t0 > t1 {
            std::mem::swap(&mut t0, &mut t1);
        }
        a = a.max(t0);
        b = b.min(t1);
        if a > b {
            return None;
        }
    }
    Some((a, b))
}
