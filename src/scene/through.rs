//! Penetration: every character a sweep passes through, in order, up to what stops it (a
//! rail that goes through players and stops at a wall, Quake 3's `weapon_railgun_fire`,
//! which unlinks each player it hits and traces on).
//!
//! Takes a [`Scene`], a shape's sweep and a [`QueryFilter`]; gives the hits in the caller's
//! buffer. Guarantees: each character the filter meets whose exact sweep meets the shape
//! before the world or a mover does is listed once, by the fraction at which the sweep
//! would stop at it (the [`Trace`](crate::trace::Trace) contract, as if it stood alone),
//! ties by id; the world or the model that stops the sweep comes last, when one does. A
//! sweep that starts in the world lists the world alone. No allocation when the buffer has
//! room for the hits.

use std::cmp::Ordering;

use glam::{Quat, Vec3};

use super::query::Scene;
use crate::filter::QueryFilter;
use crate::trace::{HitTarget, Trace, TraceShape, trace_parts};

impl Scene<'_> {
    /// Every hit along the sweep of `shape` from `start` to `end` under `filter`, in order,
    /// into `hits` (cleared first): each character it passes through, then the world or the
    /// model that stops it, if any. A character the sweep starts in is listed first, with
    /// `start_solid` set. [`Self::trace`] is the first entry, when the first entry is
    /// not a character the sweep starts in.
    ///
    /// # Examples
    /// ```
    /// use glam::Vec3;
    /// use planeshift::{Contents, TraceShape};
    /// use planeshift::movement::Bodies;
    /// use planeshift::HitTarget;
    /// use planeshift::{QueryFilter, Scene};
    /// let map = planeshift::compile_map(&std::fs::read("maps/box_room.map")?)?.map;
    /// let player = TraceShape::quake3_player();
    /// let mut bodies = Bodies::new();
    /// for (id, x) in [(1, -100.0), (2, 0.0), (3, 100.0)] {
    ///     bodies.insert(id, &player, Vec3::new(x, 0.0, 25.0));
    /// }
    /// let scene = Scene { map: &map, movers: &[], bodies: &bodies };
    /// let eye = Vec3::new(-100.0, 0.0, 50.0);
    /// let rail = QueryFilter::new(Contents::MASK_SHOT).skip_character(1);
    /// let mut hits = Vec::new();
    /// scene.trace_through(&TraceShape::point(), eye, eye + Vec3::X * 4000.0, &rail, &mut hits);
    /// let targets: Vec<_> = hits.iter().map(|h| h.target).collect();
    /// assert_eq!(targets, [Some(HitTarget::Character(2)), Some(HitTarget::Character(3)), Some(HitTarget::World)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn trace_through(
        &self,
        shape: &TraceShape,
        start: Vec3,
        end: Vec3,
        filter: &QueryFilter,
        hits: &mut Vec<Trace>,
    ) {
        hits.clear();
        let rotation = Quat::IDENTITY;
        let mut world = self.trace_models(shape, None, start, end, filter);
        if world.start_solid {
            world.target = world.target.or(Some(HitTarget::World));
            hits.push(world);
            return;
        }
        self.for_each_character_along(
            (shape, rotation),
            (start, end),
            world.fraction,
            filter,
            |id, contents, other, other_at| {
                let mut hit = trace_parts(shape, rotation, start, end, other, other_at);
                let met = hit.start_solid || hit.fraction < world.fraction;
                if met {
                    hit.target = Some(HitTarget::Character(id));
                    hit.contents = contents;
                    hits.push(hit);
                }
            },
        );
        hits.sort_unstable_by(order);
        if world.fraction < 1.0 {
            hits.push(world);
        }
    }
}

/// Characters the sweep starts in first, then by fraction, then by id.
fn order(a: &Trace, b: &Trace) -> Ordering {
    let id = |h: &Trace| h.target.and_then(HitTarget::character).unwrap_or(u32::MAX);
    let starts = |h: &Trace| if h.start_solid { 0u8 } else { 1 };
    starts(a)
        .cmp(&starts(b))
        .then(a.fraction.total_cmp(&b.fraction))
        .then(id(a).cmp(&id(b)))
}
