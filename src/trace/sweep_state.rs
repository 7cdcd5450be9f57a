//! The state one sweep carries while it walks the tree and clips brushes: what it sweeps,
//! the culling figures derived once from the shape, and the best hit so far.
//!
//! Takes a world, an oriented shape with its specialised support, the segment and the mask;
//! gives a [`TraceWork`] that `brush_clip` updates and `tree_walk` drives, and the
//! [`Outcome`] they leave in it. Guarantees: a new state records no hit (fraction 1), and
//! nothing in it allocates.

use crate::trace::StopRule;
use glam::Vec3;

use super::shape::{CullReach, Oriented, Support};
use crate::compiled::{CompiledBrush, CompiledMap, DeclaredHull, Plane};
use crate::contents::Contents;
use crate::tolerance::{SURFACE_CLIP_EPSILON, TRACE_SEEN_BRUSHES, TREE_CULL_MARGIN};

/// How far the segment box of a sweep stopping `stop` units in front of what it hits is
/// padded on every side: the stop distance and the cull margin. A gather (`tick_cache`)
/// pads its region the same way, so a sweep it serves has its padded box inside the padded
/// region.
pub(crate) fn stop_pad(stop: f32) -> Vec3 {
    Vec3::splat(stop + TREE_CULL_MARGIN)
}

/// How far below and above its bounds brush `brush_id` can block a shape with bounds
/// `shape_bounds` and circumradius `radius` ([`CompiledBrush::grow`] with the flag derived
/// at load). The per-brush cull every way of choosing brushes shares (the tree's leaves, a
/// tick cache's list, its gather).
#[inline]
pub(crate) fn brush_grow(
    map: &CompiledMap,
    brush_id: u32,
    brush: &CompiledBrush,
    shape_bounds: (Vec3, Vec3),
    radius: f32,
) -> (Vec3, Vec3) {
    brush.grow(map.brush_axial_bounded(brush_id as usize), shape_bounds, radius)
}

/// What a sweep found, in the model's frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Outcome {
    pub fraction: f32,
    pub hit_plane: Option<u32>,
    /// For a refined contact at an edge or corner: the tangent plane there (model frame);
    /// it replaces `hit_plane` in the result.
    pub hit_tangent: Option<Plane>,
    /// The brush that stopped the sweep (or that it is all-solid in).
    pub hit_brush: Option<u32>,
    pub contents: Contents,
    pub start_solid: bool,
    pub all_solid: bool,
}

/// The state of one sweep, in the model's frame, for a shape whose support is `S`.
pub(crate) struct TraceWork<'a, S> {
    pub map: &'a CompiledMap,
    pub shape: Oriented<'a>,
    /// The shape's support function, specialised per kind.
    pub support: S,
    pub start: Vec3,
    pub end: Vec3,
    pub mask: Contents,
    /// How far in front of the binding shifted plane a hit stops ([`SURFACE_CLIP_EPSILON`]
    /// unless the query asks for more: Quake 3's 1/8).
    pub stop: f32,
    /// How far the shape's blocking regions reach past brushes, for culling.
    pub reach: CullReach,
    /// The segment's bounds, grown by the stop distance and the cull margin.
    pub segment_mins: Vec3,
    pub segment_maxs: Vec3,
    /// The shape's bounds in this frame.
    pub shape_mins: Vec3,
    pub shape_maxs: Vec3,
    /// The best hit so far.
    pub found: Outcome,
    /// Brushes already clipped (Quake's `checkcount`, without shared state).
    pub seen: [u32; TRACE_SEEN_BRUSHES],
    pub seen_count: usize,
    /// When a surface stops the sweep ([`StopRule::Touch`] unless the query asks).
    pub rule: StopRule,
    /// The brush ids whose patch facets the sweep leaves out (empty unless the query
    /// traces the game's own patches).
    pub skip_patches: std::ops::Range<u32>,
    /// The declared box's own tree a world sweep walks instead of the main trees (`None`
    /// unless the shape is a declared box: `tree_walk::Sweep`).
    pub declared: Option<&'a DeclaredHull>,
}

impl<'a, S: Support> TraceWork<'a, S> {
    pub(crate) fn new(
        map: &'a CompiledMap,
        shape: Oriented<'a>,
        support: S,
        start: Vec3,
        end: Vec3,
        mask: Contents,
        stop: f32,
    ) -> Self {
        let pad = stop_pad(stop);
        let (shape_mins, shape_maxs) = support.bounds();
        // A longer stop blocks farther from a brush: the cull reaches that much farther.
        let reach = shape.cull_reach((shape_mins, shape_maxs));
        let reach = if stop > SURFACE_CLIP_EPSILON {
            reach.grown(stop - SURFACE_CLIP_EPSILON)
        } else {
            reach
        };
        TraceWork {
            map,
            shape,
            support,
            start,
            end,
            mask,
            stop,
            reach,
            segment_mins: start.min(end) - pad,
            segment_maxs: start.max(end) + pad,
            shape_mins,
            shape_maxs,
            found: Outcome {
                fraction: 1.0,
                hit_plane: None,
                hit_tangent: None,
                hit_brush: None,
                contents: Contents::EMPTY,
                start_solid: false,
                all_solid: false,
            },
            seen: [0; TRACE_SEEN_BRUSHES],
            seen_count: 0,
            rule: StopRule::Touch,
            skip_patches: 0..0,
            declared: None,
        }
    }
}
