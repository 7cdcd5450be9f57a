//! The tree walk of a sweep: which leaves (and so which brushes) the swept shape can touch.
//!
//! Takes a sweep and a model's tree, clips every brush of every leaf the sweep may reach.
//! Guarantees (invariant I3): the tree is a pure broadphase: results equal those of clipping
//! every brush (property 13), whatever the splits.
//!
//! Why not cull with the shape's own reach, as Quake 3's `CM_TraceThroughTree` does? A
//! brush's planes shifted by a shape's support reach past the true Minkowski sum near sharp
//! edges (Melax's over-reach), so a brush behind a slanted node plane can block a shape that
//! never reaches that plane (Quake 3's "axial brush right behind a slanted bsp plane will
//! poke through" comment); culling by the true reach would drop such blocks in some leaves
//! and keep them in others. Instead, each side of a node is reachable within a reach that
//! covers the shifted planes of every brush under it (`shape::CullReach`): the shape's own
//! support for boxes and vertical segments against box-exact brushes (whose bevels make them
//! exact), plus κ·r for the round part of spheres, capsules and cylinders, and κ·R otherwise,
//! where κ is the largest reach of those brushes (`brush::reach`, exact by LP duality), all
//! plus [`TREE_CULL_MARGIN`](crate::tolerance::TREE_CULL_MARGIN). Like Quake 3, each side
//! gets the part of the sub-segment that can reach it (the parts overlap across the slab),
//! near side first. A box is walked by its centre, where its reach toward a plane depends
//! only on `|n|`. The walk loops down nodes the segment stays on one side of, recurses only
//! at splits, at most `MAX_TREE_DEPTH` deep (checked at load), and allocates nothing.

use glam::Vec3;

use super::brush_clip::clip_brush;
use super::shape::{Oriented, Support, WithSupport};
use super::sweep_state::{Outcome, TraceWork, brush_grow, stop_pad};
use super::tick_cache::{ShapeKey, TickCache};
use crate::compiled::{CompiledBrush, CompiledMap, NodeChild};
use crate::contents::Contents;
use crate::trace::{ShapeKind, StopRule};
use crate::tolerance::TRACE_SEEN_BRUSHES;

/// Which brushes a sweep clips.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Through<'a> {
    /// Those the tree under this root says the sweep may reach.
    Tree(NodeChild),
    /// The world's tree and those of its static models (`ModelKind::Static`).
    World,
    /// Every brush of the world model and its static models, without the tree (the
    /// reference, property 13).
    AllWorldBrushes,
    /// The brushes a [`TickCache`] gathered, in increasing id order, when the sweep lies
    /// inside what was gathered; otherwise as [`Through::World`].
    Cached(&'a TickCache),
}

/// One sweep to run, in the model's frame: what [`Oriented::dispatch`] runs with the
/// shape's specialised support.
pub(crate) struct Sweep<'a> {
    pub map: &'a CompiledMap,
    pub shape: Oriented<'a>,
    pub start: Vec3,
    pub end: Vec3,
    pub mask: Contents,
    pub through: Through<'a>,
    /// The stop distance (`TraceWork::stop`).
    pub stop: f32,
    /// When a surface stops the sweep.
    pub rule: StopRule,
    /// Whether the world model's patch facets are left out (the query traces the game's
    /// own patches instead, `trace/game_patch.rs`).
    pub skip_patches: bool,
}

impl WithSupport for Sweep<'_> {
    type Output = Outcome;

    fn run<S: Support>(self, support: S) -> Outcome {
        let mut work = TraceWork::new(
            self.map, self.shape, support, self.start, self.end, self.mask, self.stop,
        );
        work.rule = self.rule;
        if self.shape.rotation.is_none() && self.shape.shape.kind() == ShapeKind::Box {
            let bounds = (work.shape_mins, work.shape_maxs);
            work.declared = self.map.declared().find(bounds, work.reach.radius());
        }
        if self.skip_patches
            && let Some(world) = self.map.models().first()
        {
            work.skip_patches = world.first_brush..world.first_brush + world.brush_count;
        }
        match self.through {
            Through::Tree(root) => work.walk(root),
            Through::World => work.walk_world(),
            Through::Cached(cache) => {
                let key = ShapeKey::new::<S>(work.reach, (work.shape_mins, work.shape_maxs));
                let segment = (work.segment_mins, work.segment_maxs);
                let skips_facets = !work.skip_patches.is_empty();
                match cache.brushes_for(self.map, self.mask, &key, segment, skips_facets) {
                    Some(brushes) => {
                        for &brush_id in brushes {
                            work.consider(brush_id);
                        }
                    }
                    None => work.walk_world(),
                }
            }
            Through::AllWorldBrushes => {
                let statics = self.map.static_models().iter().map(|&(m, _)| m as usize);
                for model in std::iter::once(0).chain(statics) {
                    let Some(model) = self.map.models().get(model) else {
                        continue;
                    };
                    let first = model.first_brush as usize;
                    let count = model.brush_count as usize;
                    let brushes = self.map.brushes().iter().enumerate();
                    for (brush_id, brush) in brushes.skip(first).take(count) {
                        let skipped = brush.patch && work.skip_patches.contains(&(brush_id as u32));
                        if brush.contents.intersects(self.mask) && !skipped {
                            clip_brush(&mut work, brush_id, brush);
                        }
                    }
                }
            }
        }
        work.found
    }
}

impl<'a, S: Support> TraceWork<'a, S> {
    /// Walks the world's tree and those of the static models the sweep may reach, or, for
    /// a declared box, its own tree (`trace/declared.rs`).
    fn walk_world(&mut self) {
        if let Some(hull) = self.declared {
            return self.walk_declared(hull);
        }
        let map = self.map;
        if let Some(world) = map.models().first() {
            self.walk(world.root);
        }
        for &(model, reach) in map.static_models() {
            let Some(model) = map.models().get(model as usize) else {
                continue;
            };
            if self.may_reach(model.mins, model.maxs, reach) {
                self.walk(model.root);
            }
        }
    }

    /// Whether the sweep may meet brushes within `mins..maxs` whose largest reach is
    /// `reach`: the bounds grown by the shape's bounds and by `reach`·R overlap the segment's.
    fn may_reach(&self, mins: Vec3, maxs: Vec3, reach: f32) -> bool {
        let r = Vec3::splat(reach * self.reach.radius());
        let (grow_low, grow_high) = (self.shape_maxs.max(r), (-self.shape_mins).max(r));
        !((mins - grow_low).cmpgt(self.segment_maxs).any()
            || (maxs + grow_high).cmplt(self.segment_mins).any())
    }

    /// Walks the tree under `root` with the whole sweep, following the point the cull reach
    /// is measured from (a box's centre; the reference point otherwise).
    pub(crate) fn walk(&mut self, root: NodeChild) {
        let offset = self.reach.center();
        let (start, end) = (self.start + offset, self.end + offset);
        self.walk_span(root, 0.0, 1.0, start, end);
    }

    /// Walks the subtree at `child` with the sub-segment `p1..p2` of the followed point
    /// (fractions `f1..f2` of the whole sweep).
    fn walk_span(&mut self, mut child: NodeChild, f1: f32, f2: f32, p1: Vec3, p2: Vec3) {
        // A subtree reached only after the best hit so far cannot improve it. Strictly after:
        // a hit at fraction 0 (starting within the stop distance of a surface) must not hide
        // a brush the shape starts inside, which is only reachable from fraction 0; nor must
        // an all-solid answer hide a lower brush the sweep is all-solid in (`brush_clip.rs`).
        if self.found.fraction < f1 {
            return;
        }
        let nodes = self.map.runtime_nodes();
        // Down the tree while the sub-segment stays on one side (no recursion for those).
        let (node, t1, t2, [front_reach, back_reach]) = loop {
            let index = match child {
                NodeChild::Leaf(leaf) => return self.leaf(leaf as usize),
                NodeChild::Node(node) => node as usize,
            };
            // Indices are checked at load; a bad one ends the walk rather than panicking.
            let Some(node) = nodes.get(index) else {
                return;
            };
            let n = node.normal;
            let reaches = S::node_reaches(&self.reach, n, node.kappa, node.kappa_inexact);
            let [front_reach, back_reach] = reaches;
            let t1 = n.dot(p1) - node.dist;
            let t2 = n.dot(p2) - node.dist;
            // The front side is reachable where t > −front_reach, the back where t < back_reach.
            if t1 >= back_reach && t2 >= back_reach {
                child = node.children[0];
            } else if t1 <= -front_reach && t2 <= -front_reach {
                child = node.children[1];
            } else {
                break (node, t1, t2, reaches);
            }
        };
        for (child, (a, b)) in split_at_node((t1, t2), [front_reach, back_reach], node.children) {
            if a <= b {
                let (q1, q2) = (p1 + (p2 - p1) * a, p1 + (p2 - p1) * b);
                self.walk_span(child, f1 + (f2 - f1) * a, f1 + (f2 - f1) * b, q1, q2);
            }
        }
    }

    /// Clips the brushes of leaf `index` the sweep may meet. The bounds cull comes before
    /// the check for a brush clipped already, so the list of those stays short (most brushes
    /// a leaf lists are culled by their bounds, on a curved patch's crowded leaves above all);
    /// a brush culled once stays culled, since the best hit only moves closer.
    fn leaf(&mut self, index: usize) {
        let map = self.map;
        let leaf = &map.leaves()[index];
        if !leaf.contents.intersects(self.mask) {
            return;
        }
        self.clip_listed(map.leaf_brush_ids(leaf));
    }

    /// Clips the brushes `brush_ids` lists (a leaf's, of the main tree or a declared box's)
    /// that the sweep may meet and has not clipped yet.
    pub(super) fn clip_listed(&mut self, brush_ids: &[u32]) {
        for &brush_id in brush_ids {
            let Some(brush) = self.may_block(brush_id) else {
                continue;
            };
            if self.seen[..self.seen_count].contains(&brush_id) {
                continue;
            }
            if self.seen_count < TRACE_SEEN_BRUSHES {
                self.seen[self.seen_count] = brush_id;
                self.seen_count += 1;
            }
            clip_brush(self, brush_id as usize, brush);
        }
    }

    /// Clips brush `brush_id` unless [`Self::may_block`] leaves it out.
    pub(crate) fn consider(&mut self, brush_id: u32) {
        if let Some(brush) = self.may_block(brush_id) {
            clip_brush(self, brush_id as usize, brush);
        }
    }

    /// Brush `brush_id`, unless `mask` leaves it out or its bounds say it cannot stop the
    /// sweep before the best hit so far (the culls every way of choosing brushes shares, so
    /// that each gives the same answer).
    #[inline(always)]
    pub(super) fn may_block(&self, brush_id: u32) -> Option<&'a CompiledBrush> {
        let map = self.map;
        let brush = map.brushes().get(brush_id as usize)?;
        if !brush.contents.intersects(self.mask)
            || (brush.patch && self.skip_patches.contains(&brush_id))
        {
            return None;
        }
        let shape_bounds = (self.shape_mins, self.shape_maxs);
        let (grow_low, grow_high) =
            brush_grow(map, brush_id, brush, shape_bounds, self.reach.radius());
        if (brush.mins - grow_low).cmpgt(self.segment_maxs).any()
            || (brush.maxs + grow_high).cmplt(self.segment_mins).any()
        {
            return None;
        }
        // The segment against those bounds (padded as the segment's are): a brush the
        // segment misses, or enters only after the best hit so far, cannot stop it first
        // (its hits are pulled back by less than the padding). Dense brushes, such as a
        // curved patch's facets beside a diagonal sweep, are mostly left out here.
        let pad = stop_pad(self.stop);
        let bounds = (brush.mins - grow_low - pad, brush.maxs + grow_high + pad);
        match segment_enter(self.start, self.end, bounds) {
            Some(enter) if enter <= self.found.fraction => Some(brush),
            _ => None,
        }
    }
}

/// Where the segment `start → end` enters the box `(lo, hi)`, as a fraction in `[0, 1]`
/// (0 when it starts inside); `None` when it misses the box.
fn segment_enter(start: Vec3, end: Vec3, (lo, hi): (Vec3, Vec3)) -> Option<f32> {
    let d = end - start;
    let (mut enter, mut leave) = (0.0f32, 1.0f32);
    for axis in 0..3 {
        if d[axis] == 0.0 {
            if start[axis] < lo[axis] || start[axis] > hi[axis] {
                return None;
            }
            continue;
        }
        let (a, b) = (
            (lo[axis] - start[axis]) / d[axis],
            (hi[axis] - start[axis]) / d[axis],
        );
        enter = enter.max(a.min(b));
        leave = leave.min(a.max(b));
        if enter > leave {
            return None;
        }
    }
    Some(enter)
}

/// The two sides of a node a sub-segment straddles, given the plane distances `t1`, `t2` of
/// its ends: each side's child with the part of the sub-segment (fractions of it) that can
/// reach it, the front where t > −front_reach and the back where t < back_reach (the parts
/// overlap across the slab), the side the sub-segment starts on first.
pub(super) fn split_at_node(
    (t1, t2): (f32, f32),
    [front_reach, back_reach]: [f32; 2],
    [front, back]: [NodeChild; 2],
) -> [(NodeChild, (f32, f32)); 2] {
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
    if t1 >= 0.0 {
        [(front, front_span), (back, back_span)]
    } else {
        [(back, back_span), (front, front_span)]
    }
}
