//! Unstuck: when the character's shape overlaps solid, find the nearest free position from
//! a fixed table of small offsets (Quake 3 `PM_CorrectAllSolid`, Source `CheckStuck`, Quake 1
//! `SV_CheckStuck`).
//!
//! Takes the world ([`Tracer`](super::Tracer)), a shape and a position; gives a free position, if one is in reach.
//! Guarantees: the table is fixed and its order deterministic, so recovery replays bit for
//! bit; small moves are tried before large ones: 1/8-unit nudges, then 1 unit in every
//! direction, then Source's 2-unit and 6-unit-up moves, then Quake 1's climb up to a step
//! height (in at most `MAX_UNSTUCK_CLIMB_RUNGS` rungs, so the table has a fixed bound on
//! its size whatever the config), then a wider 2-unit cage. A position is free when the shape placed there
//! overlaps nothing (touching counts as overlapping).

use std::collections::HashSet;

use glam::Vec3;
use rustc_hash::FxBuildHasher;

use super::tracer::Sweeps;
use crate::tolerance::{
    MAX_CHARACTER_HEIGHT, MAX_UNSTUCK_CLIMB_RUNGS, SURFACE_CLIP_EPSILON, UNSTUCK_FINE_OFFSET,
};
use crate::trace::TraceShape;

/// Source's big vertical nudge (`CheckStuck`'s z = 6), in units.
const SOURCE_RISE: f32 = 6.0;

/// Source's big horizontal nudge, in units.
const SOURCE_SIDE: f32 = 2.0;

/// The highest climb, in units: a validated step height is below it, and a caller's value
/// (NaN included, which `max` drops) cannot make it longer.
const MAX_CLIMB: f32 = MAX_CHARACTER_HEIGHT;

/// Every nudge is this much longer than its nominal size, so that a shape embedded exactly
/// that deep ends one stop distance clear, as a sweep would leave it (touching counts as
/// overlapping).
const CLEARANCE: f32 = SURFACE_CLIP_EPSILON;

/// The offsets tried, in order; built once per controller.
#[derive(Clone, Debug)]
pub(crate) struct UnstuckTable {
    offsets: Vec<Vec3>,
}

impl UnstuckTable {
    /// The table for a character that can climb `step_height`: [`Self::candidates`] in order,
    /// each kept once (the first time), the zero offset left out.
    pub(crate) fn new(step_height: f32) -> Self {
        let mut offsets: Vec<Vec3> = Vec::new();
        // The offsets kept so far, by value (`-0.0` as `0.0`, as `==` compares them): a
        // lookup instead of a search of the list (which made a controller's creation cost
        // about 350,000 instructions).
        let mut kept: HashSet<[u32; 3], FxBuildHasher> = HashSet::default();
        for v in Self::candidates(step_height) {
            if v != Vec3::ZERO && kept.insert((v + Vec3::ZERO).to_array().map(f32::to_bits)) {
                offsets.push(v);
            }
        }
        UnstuckTable { offsets }
    }

    /// Every offset the table tries, in order, repeats included, each grown by [`CLEARANCE`].
    fn candidates(step_height: f32) -> Vec<Vec3> {
        let mut out: Vec<Vec3> = Vec::new();
        let mut add = |v: Vec3| {
            out.push(
                v + v.signum()
                    * CLEARANCE
                    * Vec3::select(v.cmpeq(Vec3::ZERO), Vec3::ZERO, Vec3::ONE),
            );
        };
        let fine = [0.0, -UNSTUCK_FINE_OFFSET, UNSTUCK_FINE_OFFSET];
        let unit = [0.0, -1.0, 1.0];
        let side = [0.0, -SOURCE_SIDE, SOURCE_SIDE];
        // 1. Axis moves first (fine, unit, Source's 2 and 6), then their combinations.
        for step in [UNSTUCK_FINE_OFFSET, 1.0, SOURCE_SIDE] {
            for axis in [Vec3::Z, Vec3::X, Vec3::Y, -Vec3::X, -Vec3::Y, -Vec3::Z] {
                add(axis * step);
            }
        }
        add(Vec3::Z * SOURCE_RISE);
        for set in [fine, unit] {
            for z in set {
                for y in set {
                    for x in set {
                        add(Vec3::new(x, y, z));
                    }
                }
            }
        }
        for z in [0.0, 1.0, SOURCE_RISE] {
            for y in side {
                for x in side {
                    add(Vec3::new(x, y, z));
                }
            }
        }
        // 2. Quake 1: climb out upwards, one unit at a time, up to a step height; over more
        //    than `MAX_UNSTUCK_CLIMB_RUNGS` units, that many rungs evenly spaced, so the
        //    table's size never depends on the config.
        let climb = step_height.max(SOURCE_RISE).ceil().min(MAX_CLIMB);
        let rungs = (climb as usize).min(MAX_UNSTUCK_CLIMB_RUNGS);
        for rung in 1..=rungs {
            let z = climb * rung as f32 / rungs as f32;
            for y in unit {
                for x in unit {
                    add(Vec3::new(x, y, z));
                }
            }
        }
        // 3. The wider cage, down as well as up.
        for z in [-SOURCE_SIDE, -1.0, 0.0, 1.0, SOURCE_SIDE] {
            for y in [-2.0, -1.0, 0.0, 1.0, 2.0] {
                for x in [-2.0, -1.0, 0.0, 1.0, 2.0] {
                    add(Vec3::new(x, y, z));
                }
            }
        }
        out
    }

    /// How many offsets the table holds.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.offsets.len()
    }

    /// The first free position in the table around `position`, and how many probes it took.
    pub(crate) fn find_free<T: Sweeps + ?Sized>(
        &self,
        world: &T,
        shape: &TraceShape,
        position: Vec3,
    ) -> Option<(Vec3, usize)> {
        self.offsets
            .iter()
            .enumerate()
            .map(|(i, offset)| (position + *offset, i + 1))
            .find(|(candidate, _)| !world.overlaps(shape, *candidate))
    }

    /// [`Self::find_free`] in a world whose fixed solid is named ([`SpeedFacts::map_is_fixed`](super::SpeedFacts::map_is_fixed)):
    /// the offsets `fixed_blocked` marks (bit `i` for offset `i`, from an earlier search
    /// around the same position in the same fixed solid) overlap that solid, so they are
    /// not tried again; an offset found overlapping it now is marked. The same answer as
    /// [`Self::find_free`]: a marked offset's place overlaps whatever moves. A character
    /// stuck where no free place is in reach (spawned inside a pillar) then pays one test
    /// per offset only once, not every tick.
    pub(crate) fn find_free_marking<T: Sweeps + ?Sized>(
        &self,
        world: &T,
        shape: &TraceShape,
        position: Vec3,
        fixed_blocked: &mut [u64],
    ) -> Option<(Vec3, usize)> {
        for (i, offset) in self.offsets.iter().enumerate() {
            let (word, bit) = (i / 64, 1u64 << (i % 64));
            let marked = fixed_blocked.get(word).is_some_and(|w| w & bit != 0);
            if marked {
                continue;
            }
            let candidate = position + *offset;
            if !world.overlaps(shape, candidate) {
                return Some((candidate, i + 1));
            }
            if world.overlaps_fixed(shape, candidate)
                && let Some(w) = fixed_blocked.get_mut(word)
            {
                *w |= bit;
            }
        }
        None
    }

    /// The number of 64-bit words a mark per offset takes ([`Self::find_free_marking`]).
    pub(crate) fn mark_words(&self) -> usize {
        self.offsets.len().div_ceil(64)
    }

    /// [`Self::find_free`] among the offsets that do not go against `toward` (those with
    /// `offset · toward >= 0`): after a mover's push, the character may only leave on the
    /// side the mover pushes toward, never pop out through a thin door behind it.
    pub(crate) fn find_free_toward<T: Sweeps + ?Sized>(
        &self,
        world: &T,
        shape: &TraceShape,
        position: Vec3,
        toward: Vec3,
    ) -> Option<(Vec3, usize)> {
        self.offsets
            .iter()
            .filter(|offset| offset.dot(toward) >= 0.0)
            .enumerate()
            .map(|(i, offset)| (position + *offset, i + 1))
            .find(|(candidate, _)| !world.overlaps(shape, *candidate))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_moves_come_first() {
        let table = UnstuckTable::new(18.0);
        let c = CLEARANCE;
        assert_eq!(table.offsets[0], Vec3::Z * (UNSTUCK_FINE_OFFSET + c));
        let at = |v: Vec3| table.offsets.iter().position(|o| *o == v).unwrap();
        let unit_x = at(Vec3::X * (1.0 + c));
        let side_x = at(Vec3::X * (2.0 + c));
        let rise = at(Vec3::Z * (6.0 + c));
        assert!(
            unit_x < side_x && side_x < rise && rise < 54,
            "{unit_x} {side_x} {rise}"
        );
        assert!(table.len() > 200, "{}", table.len());
        let mut unique = table.offsets.clone();
        unique.dedup();
        assert_eq!(unique.len(), table.len());
    }

    #[test]
    fn the_table_keeps_each_candidate_once_in_first_seen_order() {
        // The lookup by value keeps what a search of the list by `==` keeps (-0.0 and 0.0
        // equal), in the same order: the table, and so every recovery, is unchanged.
        for step_height in [0.0, 1.0, 6.5, 18.0, 24.0, 37.25, 1e9, f32::NAN] {
            let mut searched: Vec<Vec3> = Vec::new();
            for v in UnstuckTable::candidates(step_height) {
                if v != Vec3::ZERO && !searched.contains(&v) {
                    searched.push(v);
                }
            }
            let table = UnstuckTable::new(step_height);
            assert_eq!(
                table.offsets.len(),
                searched.len(),
                "step height {step_height}"
            );
            for (a, b) in table.offsets.iter().zip(&searched) {
                assert_eq!(
                    a.to_array().map(f32::to_bits),
                    b.to_array().map(f32::to_bits)
                );
            }
            assert!(
                searched.iter().any(|v| v.x.to_bits() == (-0.0f32).to_bits()
                    || v.y.to_bits() == (-0.0f32).to_bits())
            );
        }
    }

    #[test]
    fn the_table_size_does_not_grow_with_the_step_height() {
        let usual = UnstuckTable::new(18.0).len();
        let bound = usual + 9 * MAX_UNSTUCK_CLIMB_RUNGS;
        for step in [64.0, 4095.0, 1e30, f32::INFINITY, f32::NAN] {
            let table = UnstuckTable::new(step);
            assert!(table.len() <= bound, "{step}: {}", table.len());
            assert!(
                step.is_nan() || table.len() >= usual,
                "{step}: {}",
                table.len()
            );
            let top = table.offsets.iter().map(|o| o.z).fold(0.0, f32::max);
            assert!(top.is_finite() && top <= MAX_CLIMB + 1.0, "{step}: {top}");
        }
    }
}
