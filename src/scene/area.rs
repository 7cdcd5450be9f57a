//! Area queries: everything a shape placed in the scene reaches (an explosion's sphere, a
//! melee box), with the closest distance from its reference point for damage falloff
//! (Quake 3's `G_RadiusDamage`, which measures from the blast to the nearest point of each
//! entity's box; here to the nearest point of its exact shape).
//!
//! Takes a [`Scene`], a shape at a point and a [`QueryFilter`]; gives [`AreaHit`]s in the
//! caller's buffer. Guarantees: uncapped; every model (static, trigger, volume, and the
//! scene's movers at their placements; not the world, model 0) with a brush whose contents
//! meet the filter's mask that the shape overlaps, and every character the filter meets
//! whose shape it overlaps, touching counted; exact against brush shapes and character
//! shapes; distances within [`AREA_DISTANCE_TOLERANCE`]; models in increasing order, then
//! characters by id; no allocation when the buffer has room.

use glam::{Quat, Vec3};

use super::query::{Scene, reach};
use crate::compiled::ModelKind;
use crate::contents::Contents;
use crate::filter::QueryFilter;
use crate::trace::{HitTarget, ModelPlacement, TraceShape, parts_overlap};

/// The largest error of an area hit's distance to a model, in map units: the bisection on
/// the radius of a probing sphere stops when its bracket is this narrow (far below what
/// damage falloff can tell apart; distances to characters are exact).
pub const AREA_DISTANCE_TOLERANCE: f32 = 1.0 / 1024.0;

/// Most halvings of the bracket: enough to narrow the largest shape
/// ([`MAX_SHAPE_EXTENT`](crate::tolerance::MAX_SHAPE_EXTENT) across) to
/// [`AREA_DISTANCE_TOLERANCE`], a bound on the work whatever the input.
const MAX_DISTANCE_STEPS: u32 = 32;

/// One thing an area query reached.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AreaHit {
    /// What it reached: a model (a trigger, a static model, a mover) or a character.
    pub target: HitTarget,
    /// The distance from the query's reference point to the nearest point of the target's
    /// shape, in map units; 0 when the point is inside it.
    pub distance: f32,
}

impl Scene<'_> {
    /// Everything `shape` placed at `at` overlaps under `filter`, into `hits` (cleared
    /// first): the models whose brushes meet the filter's mask (add
    /// [`Contents::TRIGGER`] to the mask for triggers) and the characters the filter meets,
    /// each with its distance from `at`. A sphere about the blast finds what a radius damage
    /// reaches.
    ///
    /// # Examples
    /// ```
    /// use glam::Vec3;
    /// use planeshift::{Contents, TraceShape};
    /// use planeshift::movement::Bodies;
    /// use planeshift::HitTarget;
    /// use planeshift::{QueryFilter, Scene};
    /// let map = planeshift::compile_map(&std::fs::read("maps/arena.map")?)?.map;
    /// let player = TraceShape::quake3_player();
    /// let mut bodies = Bodies::new();
    /// for id in 0..20 {
    ///     bodies.insert(id, &player, Vec3::new(400.0 + 40.0 * id as f32, 600.0, 25.0));
    /// }
    /// let scene = Scene { map: &map, movers: &[], bodies: &bodies };
    /// let blast = Vec3::new(780.0, 600.0, 30.0);
    /// let mut hits = Vec::new();
    /// let radius = TraceShape::sphere(120.0).ok_or("sphere")?;
    /// scene.overlapping(&radius, blast, &QueryFilter::new(Contents::MASK_SHOT), &mut hits);
    /// // Every character within 120 units of the blast, however many (those at x 680 to
    /// // 880): the nearest two stand with a face 5 units away.
    /// assert_eq!(hits.len(), 6);
    /// let nearest = hits.iter().map(|h| h.distance).fold(f32::MAX, f32::min);
    /// assert!((nearest - 5.0).abs() < 1e-3);
    /// assert!(hits.iter().all(|h| matches!(h.target, HitTarget::Character(_))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn overlapping(
        &self,
        shape: &TraceShape,
        at: Vec3,
        filter: &QueryFilter,
        hits: &mut Vec<AreaHit>,
    ) {
        hits.clear();
        let (low, high) = reach(shape, Quat::IDENTITY);
        let (mins, maxs) = (at + low, at + high);
        let fixed = ModelPlacement::default();
        for model in self.map.models_overlapping(mins, maxs) {
            let kind = self.map.models().get(model).map(|m| m.kind);
            let fixed_model = !matches!(kind, Some(ModelKind::World | ModelKind::Mover) | None);
            if fixed_model && filter.meets_model(model) {
                self.reach_model(shape, at, filter.mask, model, &fixed, hits);
            }
        }
        for mover in self.movers {
            let mover_model = self.map.models().get(mover.model).map(|m| m.kind);
            if mover_model == Some(ModelKind::Mover) && filter.meets_model(mover.model) {
                self.reach_model(shape, at, filter.mask, mover.model, &mover.placement, hits);
            }
        }
        let first_character = hits.len();
        self.bodies
            .for_each_body_in((mins, maxs), |id, contents, groups, other, other_at| {
                if filter.meets_character(id, contents, groups)
                    && parts_overlap(shape, Quat::IDENTITY, at, other, other_at)
                {
                    hits.push(AreaHit {
                        target: HitTarget::Character(id),
                        distance: other.distance_to(other_at, at),
                    });
                }
            });
        if let Some(characters) = hits.get_mut(first_character..) {
            characters.sort_unstable_by_key(|h| match h.target {
                HitTarget::Character(id) => id,
                _ => u32::MAX,
            });
        }
    }

    /// Adds model `model` at `placement` to `hits` when `shape` at `at` overlaps one of its
    /// brushes whose contents meet `mask`, with its distance from `at`.
    fn reach_model(
        &self,
        shape: &TraceShape,
        at: Vec3,
        mask: Contents,
        model: usize,
        placement: &ModelPlacement,
        hits: &mut Vec<AreaHit>,
    ) {
        let overlaps = |probe: &TraceShape| {
            self.map
                .trace_model(model, placement, probe, at, at, mask)
                .start_solid
        };
        if !overlaps(shape) {
            return;
        }
        hits.push(AreaHit {
            target: HitTarget::Model(model),
            distance: distance_by_bisection(shape.radius(), overlaps),
        });
    }
}

/// The smallest radius in `0..=reach` at which a sphere about the query point overlaps,
/// given that one of radius `reach` does (the shape that overlapped lies inside it): 0 when
/// the point itself overlaps, else bisected to [`AREA_DISTANCE_TOLERANCE`].
fn distance_by_bisection(reach: f32, overlaps: impl Fn(&TraceShape) -> bool) -> f32 {
    if overlaps(&TraceShape::point()) {
        return 0.0;
    }
    let (mut outside, mut inside) = (0.0f32, reach);
    for _ in 0..MAX_DISTANCE_STEPS {
        if inside - outside <= AREA_DISTANCE_TOLERANCE {
            break;
        }
        let middle = 0.5 * (outside + inside);
        match TraceShape::sphere(middle) {
            Some(probe) if overlaps(&probe) => inside = middle,
            Some(_) => outside = middle,
            // Too small to be a sphere: as good as the point, which did not overlap.
            None => outside = middle,
        }
    }
    inside
}
