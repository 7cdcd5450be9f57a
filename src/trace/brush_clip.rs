//! First impact of a sweep against one convex brush, its planes shifted by the shape's
//! support distance (Quake 2/3 `CM_ClipBoxToBrush` / `CM_TraceThroughBrush`, for any shape).
//!
//! Takes the sweep in progress and one brush, updates the sweep's best hit. Guarantees
//! (collision.md 6):
//! - The stop point sits [`SURFACE_CLIP_EPSILON`] in front of the binding shifted plane, so
//!   the end is never inside this brush; a start within that distance moving inward stops at
//!   fraction 0 with a valid plane and is not start-solid; moving away never hits.
//! - A start inside the brush sets `start_solid` and the brush does not block a sweep that
//!   leaves it; start and end inside set `all_solid` with fraction 0.
//! - The hit normal is a brush side's unit normal facing the mover (`d1 > d2`).

use crate::compiled::CompiledBrush;
use crate::tolerance::SURFACE_CLIP_EPSILON;

use super::tree_walk::TraceWork;

/// Clips the sweep in `work` against `brush`.
pub(crate) fn clip_brush(work: &mut TraceWork<'_>, brush: &CompiledBrush) {
    let map = work.map;
    let mut enter_fraction = -1.0f32;
    let mut leave_fraction = 1.0f32;
    let mut enter_plane = None;
    let mut starts_out = false;
    let mut ends_out = false;
    let sides = &map.brush_sides(brush)[..work.shape.side_count(brush) as usize];
    for side in sides {
        let plane = &map.planes()[side.plane as usize];
        let dist = plane.dist + work.shape.support(-plane.normal);
        let d1 = plane.normal.dot(work.start) - dist;
        let d2 = plane.normal.dot(work.end) - dist;
        ends_out |= d2 > 0.0;
        starts_out |= d1 > 0.0;
        // In front and staying out of reach: the sweep misses the whole brush.
        if d1 > 0.0 && (d2 >= SURFACE_CLIP_EPSILON || d2 >= d1) {
            return;
        }
        if d1 <= 0.0 && d2 <= 0.0 {
            continue;
        }
        if d1 > d2 {
            let f = ((d1 - SURFACE_CLIP_EPSILON) / (d1 - d2)).max(0.0);
            if f > enter_fraction {
                enter_fraction = f;
                enter_plane = Some(side.plane);
            }
        } else {
            let f = ((d1 + SURFACE_CLIP_EPSILON) / (d1 - d2)).min(1.0);
            if f < leave_fraction {
                leave_fraction = f;
            }
        }
    }
    if !starts_out {
        work.start_solid = true;
        if !ends_out {
            work.all_solid = true;
            work.fraction = 0.0;
            work.contents = brush.contents;
            work.hit_plane = None;
        }
        return;
    }
    let enter_fraction = enter_fraction.max(0.0);
    // Equal fractions go to the lower plane index, so the result does not depend on the
    // order in which the tree visits brushes (controller.md scenario 44).
    let earlier = enter_fraction < work.fraction
        || (enter_fraction == work.fraction && work.fraction < 1.0 && enter_plane < work.hit_plane);
    if enter_fraction < leave_fraction && enter_plane.is_some() && earlier {
        work.fraction = enter_fraction;
        work.hit_plane = enter_plane;
        work.contents = brush.contents;
    }
}
