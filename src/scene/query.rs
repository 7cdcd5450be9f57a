//! [`Scene`]: one query across the world, its movers at their placements and a crowd's
//! characters (Quake 3 `sv_world.c SV_Trace`, Rapier's `QueryPipeline`).
//!
//! Takes a compiled map, its movers ([`Mover`]) and the characters' [`Bodies`]; gives
//! traces and overlaps under a [`QueryFilter`], each hit named by its [`HitTarget`]
//! ([`Trace::target`]).
//! Every query takes an upright shape or one rotated about its reference point (oriented
//! boxes, tilted cylinders and capsules, turned hulls). Guarantees: the stop is the
//! earliest of the world's sweep, each unskipped mover's and each character's exact
//! shape-to-shape sweep (`trace/body.rs`, `trace/body_exact.rs`) whose contents meet the
//! mask and whose groups interact; at a tie the world, then the lowest model, then the
//! lowest character id; characters are found through the bodies' grid, so a query far
//! from every character costs the world sweep and one grid lookup; no allocation.

use glam::{Quat, Vec3};

use crate::compiled::CompiledMap;
use crate::contents::Contents;
use crate::controller::Mover;
use crate::crowd::Bodies;
use crate::filter::QueryFilter;
use crate::tolerance::SURFACE_CLIP_EPSILON;
use crate::trace::{
    HitTarget, Trace, TraceShape, Upright, parts_overlap, trace_parts, uprights_overlap,
};

/// The world, its movers where they stand now, and the characters, queried together.
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
/// bodies.insert(1, &player, Vec3::new(-100.0, 0.0, 25.0));
/// bodies.insert(2, &player, Vec3::new(100.0, 0.0, 25.0));
/// bodies.set_contents(2, Contents::CORPSE);
/// let scene = Scene { map: &map, movers: &[], bodies: &bodies };
/// let eye = Vec3::new(-100.0, 0.0, 50.0);
/// // The shooter is skipped; the shot hits the corpse 100 units on.
/// let shot = QueryFilter::new(Contents::MASK_SHOT).skip_character(1);
/// let hit = scene.trace(&TraceShape::point(), eye, eye + Vec3::X * 1000.0, &shot);
/// assert_eq!(hit.target, Some(HitTarget::Character(2)));
/// assert!((hit.end.x - (85.0 - 1.0 / 32.0)).abs() < 1e-3);
/// // A player's movement mask passes corpses: the wall stops it.
/// let walk = QueryFilter::new(Contents::MASK_PLAYER_SOLID).skip_character(1);
/// let hit = scene.trace(&TraceShape::point(), eye, eye + Vec3::X * 1000.0, &walk);
/// assert_eq!(hit.target, Some(HitTarget::World));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Scene<'a> {
    /// The compiled map.
    pub map: &'a CompiledMap,
    /// Its movers at their current placements.
    pub movers: &'a [Mover],
    /// The characters.
    pub bodies: &'a Bodies,
}

impl Scene<'_> {
    /// The first impact of `shape` moving from `start` to `end` under `filter`.
    #[must_use]
    pub fn trace(&self, shape: &TraceShape, start: Vec3, end: Vec3, filter: &QueryFilter) -> Trace {
        self.trace_oriented(shape, None, start, end, filter)
    }

    /// [`Self::trace`] for `shape` rotated by `rotation` about its reference point (the
    /// identity gives [`Self::trace`]): through the world as [`CompiledMap::trace_rotated`],
    /// through movers as [`CompiledMap::trace_model_rotated`], against characters by the
    /// exact shape-to-shape sweep. A rotation that is not finite or does not normalise
    /// gives a start-solid, all-solid result at `start`.
    ///
    /// # Examples
    /// ```
    /// use glam::{Quat, Vec3};
    /// use planeshift::{Contents, TraceShape};
    /// use planeshift::movement::Bodies;
    /// use planeshift::HitTarget;
    /// use planeshift::{QueryFilter, Scene};
    /// let map = planeshift::compile_map(&std::fs::read("maps/box_room.map")?)?.map;
    /// let mut bodies = Bodies::new();
    /// let player = TraceShape::quake3_player();
    /// bodies.insert(7, &player, Vec3::new(100.0, 0.0, 25.0));
    /// let scene = Scene { map: &map, movers: &[], bodies: &bodies };
    /// // A plank 64 long along y, turned to lie along x, thrown along x: its end meets the
    /// // player's face 32 units before its centre does.
    /// let plank = TraceShape::aabb(Vec3::new(-2.0, -32.0, -2.0), Vec3::new(2.0, 32.0, 2.0)).ok_or("plank")?;
    /// let turned = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    /// let from = Vec3::new(-100.0, 0.0, 40.0);
    /// let hit = scene.trace_rotated(&plank, turned, from, from + Vec3::X * 400.0, &QueryFilter::new(Contents::MASK_SHOT));
    /// assert_eq!(hit.target, Some(HitTarget::Character(7)));
    /// assert!((hit.end.x - (100.0 - 15.0 - 32.0 - 1.0 / 32.0)).abs() < 1e-3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn trace_rotated(
        &self,
        shape: &TraceShape,
        rotation: Quat,
        start: Vec3,
        end: Vec3,
        filter: &QueryFilter,
    ) -> Trace {
        self.trace_oriented(shape, Some(rotation), start, end, filter)
    }

    /// [`Self::trace_rotated`] for a rotation or none (`None`: upright), inlined into both
    /// public doors so that the upright one sweeps the world as [`CompiledMap::trace`] with
    /// no rotation set up (the same sweep, bit for bit).
    #[inline(always)]
    fn trace_oriented(
        &self,
        shape: &TraceShape,
        rotation: Option<Quat>,
        start: Vec3,
        end: Vec3,
        filter: &QueryFilter,
    ) -> Trace {
        // The world's sweep is written straight into the answer, and the movers' and
        // characters' are compared with it there (no intermediate `Trace` to copy).
        let mut hit = self.trace_world(shape, rotation, start, end, filter);
        self.trace_movers(shape, rotation, start, end, filter, &mut hit);
        if !hit.all_solid && !self.bodies.is_empty() {
            let rotation = rotation.unwrap_or(Quat::IDENTITY);
            self.trace_bodies(shape, rotation, start, end, filter, &mut hit);
        }
        hit
    }

    /// Whether `shape` placed at `at` overlaps anything `filter` meets (touching counts).
    #[must_use]
    pub fn overlap(&self, shape: &TraceShape, at: Vec3, filter: &QueryFilter) -> bool {
        self.overlap_rotated(shape, Quat::IDENTITY, at, filter)
    }

    /// [`Self::overlap`] for `shape` rotated by `rotation` about its reference point; a
    /// rotation that does not normalise counts as overlapping.
    #[must_use]
    pub fn overlap_rotated(
        &self,
        shape: &TraceShape,
        rotation: Quat,
        at: Vec3,
        filter: &QueryFilter,
    ) -> bool {
        if self
            .trace_models(shape, Some(rotation), at, at, filter)
            .start_solid
        {
            return true;
        }
        let (low, high) = reach(shape, rotation);
        let mut any = false;
        self.bodies.for_each_body_in(
            (at + low, at + high),
            |id, contents, groups, other, other_at| {
                any = any
                    || (filter.meets_character(id, contents, groups)
                        && parts_overlap(shape, rotation, at, other, other_at));
            },
        );
        any
    }

    /// What is at `point`: the world's and static models' contents, every mover's where it
    /// stands, and the contents of every character whose shape holds the point.
    #[must_use]
    pub fn point_contents(&self, point: Vec3) -> Contents {
        let mut all = self.map.point_contents(point);
        let probe = Vec3::splat(SURFACE_CLIP_EPSILON);
        for mover in self.movers.iter().filter(|m| m.model != 0) {
            let hit = self.map.trace_model(
                mover.model,
                &mover.placement,
                &TraceShape::point(),
                point,
                point,
                Contents(u32::MAX),
            );
            if hit.start_solid {
                all |= hit.contents;
            }
        }
        let point_parts = Upright::of(&TraceShape::point());
        self.bodies.for_each_body_in(
            (point - probe, point + probe),
            |_, contents, _, other, at| {
                if uprights_overlap(&point_parts, point, other, at) {
                    all |= contents;
                }
            },
        );
        all
    }

    /// The world's sweep (static models included) against every unskipped mover's, for
    /// `shape` rotated by `rotation` (`None`: upright, the world swept as
    /// [`CompiledMap::trace`] sweeps it, bit for bit the identity's sweep).
    pub(super) fn trace_models(
        &self,
        shape: &TraceShape,
        rotation: Option<Quat>,
        start: Vec3,
        end: Vec3,
        filter: &QueryFilter,
    ) -> Trace {
        let mut best = self.trace_world(shape, rotation, start, end, filter);
        self.trace_movers(shape, rotation, start, end, filter, &mut best);
        best
    }

    /// The world's sweep, static models included (`None`: upright).
    #[inline(always)]
    fn trace_world(
        &self,
        shape: &TraceShape,
        rotation: Option<Quat>,
        start: Vec3,
        end: Vec3,
        filter: &QueryFilter,
    ) -> Trace {
        match rotation {
            None => self.map.trace(shape, start, end, filter.mask),
            Some(rotation) => self
                .map
                .trace_rotated(shape, rotation, start, end, filter.mask),
        }
    }

    /// `best`, the world's sweep, without a static model the filter skips, against every
    /// unskipped mover's.
    #[inline(always)]
    fn trace_movers(
        &self,
        shape: &TraceShape,
        rotation: Option<Quat>,
        start: Vec3,
        end: Vec3,
        filter: &QueryFilter,
        best: &mut Trace,
    ) {
        let rotation = rotation.unwrap_or(Quat::IDENTITY);
        if best
            .target
            .and_then(HitTarget::model)
            .is_some_and(|m| !filter.meets_model(m))
        {
            // A skipped static model stopped the world's sweep: sweep the world model alone.
            *best = self.map.trace_model_rotated(
                0,
                &Default::default(),
                shape,
                rotation,
                start,
                end,
                filter.mask,
            );
        }
        for mover in self
            .movers
            .iter()
            .filter(|m| m.model != 0 && filter.meets_model(m.model))
        {
            let hit = self.map.trace_model_rotated(
                mover.model,
                &mover.placement,
                shape,
                rotation,
                start,
                end,
                filter.mask,
            );
            let start_solid = best.start_solid || hit.start_solid;
            let earlier = hit.fraction < best.fraction
                || (hit.fraction == best.fraction
                    && hit.fraction < 1.0
                    && hit.target.and_then(HitTarget::model)
                        < best.target.and_then(HitTarget::model));
            if hit.all_solid || (earlier && !best.all_solid) {
                *best = hit;
            }
            best.start_solid = start_solid;
        }
    }

    /// `best` against every character the filter meets near the sweep.
    #[inline(always)]
    fn trace_bodies(
        &self,
        shape: &TraceShape,
        rotation: Quat,
        start: Vec3,
        end: Vec3,
        filter: &QueryFilter,
        best: &mut Trace,
    ) {
        // Only a character before the stop so far can stop the sweep earlier (or tie
        // with it).
        let fraction = best.fraction;
        self.for_each_character_along(
            (shape, rotation),
            (start, end),
            fraction,
            filter,
            |id, contents, other, other_at| {
                let best_character = best.target.and_then(HitTarget::character);
                let lower = best_character.is_none_or(|k| id < k);
                if best.all_solid && !lower {
                    return;
                }
                let mut hit = trace_parts(shape, rotation, start, end, other, other_at);
                hit.target = Some(HitTarget::Character(id));
                hit.contents = contents;
                let start_solid = best.start_solid || hit.start_solid;
                let earlier = hit.fraction < best.fraction
                    || (hit.fraction == best.fraction
                        && hit.fraction < 1.0
                        && best_character.is_some_and(|k| id < k));
                let take = if best.all_solid {
                    hit.all_solid
                } else {
                    hit.all_solid || earlier
                };
                if take {
                    *best = hit;
                }
                best.start_solid = start_solid;
            },
        );
    }
}

impl Scene<'_> {
    /// Calls `f` with the id, contents, parts and reference point of every character
    /// `filter` meets that the sweep of `shape` rotated by `rotation` from `start` toward
    /// `end` may touch before `fraction` of the way (the stop so far): the grid looks along
    /// the sweep up to there only. Inlined into the trace, as the look along the sweep is
    /// (`crowd/along.rs`), measured faster on the scene bench's hitscans.
    #[inline(always)]
    pub(super) fn for_each_character_along(
        &self,
        (shape, rotation): (&TraceShape, Quat),
        (start, end): (Vec3, Vec3),
        fraction: f32,
        filter: &QueryFilter,
        mut f: impl FnMut(u32, Contents, &Upright, Vec3),
    ) {
        let reached = if fraction < 1.0 {
            start + (end - start) * fraction
        } else {
            end
        };
        self.bodies.for_each_body_along(
            (start, reached),
            sweep_bounds(shape, rotation),
            filter.skip_character,
            |id, contents, groups, other, other_at| {
                if filter.meets_character(id, contents, groups) {
                    f(id, contents, other, other_at);
                }
            },
        );
    }
}

/// The box about a sweep's point that `shape` rotated by `rotation` can touch, grown by the
/// stop distance.
#[inline(always)]
pub(super) fn sweep_bounds(shape: &TraceShape, rotation: Quat) -> (Vec3, Vec3) {
    let (low, high) = reach(shape, rotation);
    let margin = Vec3::splat(SURFACE_CLIP_EPSILON);
    (low - margin, high + margin)
}

/// The box `shape` rotated by `rotation` can reach, relative to its reference point: its
/// upright bounds, or its bounding sphere's box when rotated.
#[inline(always)]
pub(super) fn reach(shape: &TraceShape, rotation: Quat) -> (Vec3, Vec3) {
    if rotation == Quat::IDENTITY {
        Upright::of(shape).bounds()
    } else {
        let r = Vec3::splat(shape.radius());
        (-r, r)
    }
}
