//! The broadphase's look along a sweep (the scene's rays and shape sweeps,
//! `scene/query.rs`): which bodies a box moving in a straight line may touch.
//!
//! Takes [`Bodies`] (its fine grid, its coarse grid of 8 × 8 fine cells, the box holding
//! every body, `bodies.rs`, and the bodies' bounds axis by axis, `lanes.rs`) and a sweep:
//! the box `low..high` about a point moving from `start` to `end`; gives each body whose
//! bounds that swept box meets. The sweep is first cut to the part that comes within reach
//! of the bodies' box (a shot into an empty part of the level stops there). A crowd of up
//! to a few hundred ([`WHOLE_SCAN_MAX_BODIES`]) is then scanned whole, four bodies at a
//! time after the boxes around each four (`lanes.rs`); a larger one is looked along by the
//! cheapest of three ways, by an estimate made without visiting anything: per column of
//! fine cells the rows the swept box crosses there, the same over coarse cells, or every
//! body. Guarantees: whichever way, every body whose bounds meet the
//! swept box is visited, each once (a body sits in one cell of each grid, and each cell is
//! looked at once); a body whose bounds miss the swept box by more than [`ALONG_SLACK`] is
//! never visited; no allocation.

use glam::{Vec3, Vec3A};

use crate::contents::Contents;
use crate::filter::CollisionGroups;
use crate::trace::Upright;

use super::bodies::{
    Bodies, CELL, COARSE_SHIFT, NONE, Slot, WHOLE_SCAN_MAX_BODIES, bucket_of, cell_of, coarse_of,
};
use super::lanes::{LANES, SlabLanes};

/// What looking up one cell costs against testing one body directly (a hash, a bucket's
/// chain, against a slab test), for either grid: measured on the scene bench's hitscans.
const CELL_LOOKUP_COST: f32 = 1.0;

/// What testing every body costs per block of [`LANES`] bodies (`lanes.rs`: a handful of
/// SIMD operations, about one scalar slab test, fewer when the blocks' boxes are missed),
/// in slab tests.
const BLOCK_SCAN_COST: f32 = 1.0;

/// A reciprocal standing in for an infinite one (a sweep that does not move on an axis):
/// finite, so `0 × it` is 0 and never NaN, and large enough that any coordinate difference
/// within the world (below 2²⁰ units) times it is far beyond the sweep's [0, 1].
const HUGE_RECIPROCAL: f32 = 1e30;

/// Slack added to the reach when looking along a sweep, in units: far above the rounding of
/// the column and row arithmetic and of the cut to the bodies' box in f32 at the world limit
/// (a few hundredths), far below a cell, so a body is never missed and few extra cells are
/// looked at.
const ALONG_SLACK: f32 = 1.0;

/// A way to look along a sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Walk {
    /// Every body.
    Every,
    /// The fine cells along the sweep.
    Fine,
    /// The coarse cells along the sweep.
    Coarse,
}

/// A sweep's slab test against a box (in SIMD lanes): for which part of the sweep the box
/// `low..high` about a point moving from `start` along `motion` meets the box (with
/// [`ALONG_SLACK`]), that is when the point is inside the box grown by the moving one.
struct Slab {
    /// Where the point starts, shifted by the box's high corner (against bounds' lows).
    from_low: Vec3A,
    /// Where it starts, shifted by the box's low corner (against bounds' highs).
    from_high: Vec3A,
    /// The motion's reciprocal, [`HUGE_RECIPROCAL`] on an axis it does not move along.
    inverse: Vec3A,
}

impl Slab {
    fn new(start: Vec3, motion: Vec3, (low, high): (Vec3, Vec3)) -> Slab {
        let recip = |d: f32| {
            if d == 0.0 { HUGE_RECIPROCAL } else { 1.0 / d }
        };
        let start = Vec3A::from(start);
        Slab {
            from_low: start + Vec3A::from(high) + ALONG_SLACK,
            from_high: start + Vec3A::from(low) - ALONG_SLACK,
            inverse: Vec3A::new(recip(motion.x), recip(motion.y), recip(motion.z)),
        }
    }

    /// The part `[enter, leave]` of the sweep (as fractions of it, within [0, 1]) during
    /// which the moving box meets `low..high`; `enter > leave` when it never does.
    fn span(&self, (low, high): (Vec3, Vec3)) -> (f32, f32) {
        let a = (Vec3A::from(low) - self.from_low) * self.inverse;
        let b = (Vec3A::from(high) - self.from_high) * self.inverse;
        (
            a.min(b).max_element().max(0.0),
            a.max(b).min_element().min(1.0),
        )
    }

    fn meets(&self, bounds: (Vec3, Vec3)) -> bool {
        let (enter, leave) = self.span(bounds);
        enter <= leave
    }

    /// The same test across the ground plane over the part `window` of the sweep, for the
    /// bodies' bounds stored axis by axis (`lanes.rs`).
    fn lanes(&self, window: (f32, f32)) -> SlabLanes {
        SlabLanes {
            from_low: self.from_low.truncate(),
            from_high: self.from_high.truncate(),
            inverse: self.inverse.truncate(),
            window,
        }
    }
}

/// A part of a sweep, for the walks over the grids: where it starts, its motion and the
/// motion's reciprocal (infinite on an axis it does not move along), and the box about its
/// point, grown by the largest body's reach and [`ALONG_SLACK`] (a body's centre lies
/// within its reach of its bounds).
struct Segment {
    start: Vec3,
    motion: Vec3,
    inverse: Vec3,
    from: Vec3,
    to: Vec3,
}

impl Segment {
    /// The cells of the grid `shift` (0: fine, [`COARSE_SHIFT`]: coarse) holding `p`.
    fn cell(p: Vec3, shift: u32) -> (i32, i32) {
        let cell = cell_of(p);
        (cell.0 >> shift, cell.1 >> shift)
    }

    /// The box the grown box sweeps over.
    fn area(&self) -> (Vec3, Vec3) {
        let end = self.start + self.motion;
        (
            self.start.min(end) + self.from,
            self.start.max(end) + self.to,
        )
    }

    /// The columns of grid `shift` whose bodies the swept box may reach.
    fn columns(&self, shift: u32) -> (i32, i32) {
        let (low, high) = self.area();
        (Self::cell(low, shift).0, Self::cell(high, shift).0)
    }

    /// The cells a walk over grid `shift` looks at, bounded without visiting them: in each
    /// column the sweep climbs |dy/dx| cells' worth, plus the box's width, plus the two
    /// partial rows; never more than the rows the whole sweep spans.
    fn cells(&self, shift: u32) -> f32 {
        let size = CELL * (1u32 << shift) as f32;
        let (first, last) = self.columns(shift);
        let columns = (i64::from(last) - i64::from(first) + 1) as f32;
        let climb = if self.inverse.x.is_finite() {
            (self.motion.y * self.inverse.x).abs()
        } else {
            f32::INFINITY
        };
        let rows = climb + (self.to.y - self.from.y) / size + 2.0;
        let (low, high) = self.area();
        let spanned =
            (i64::from(Self::cell(high, shift).1) - i64::from(Self::cell(low, shift).1) + 1) as f32;
        columns * rows.min(spanned)
    }

    /// The rows of grid `shift` whose cells' bodies the swept box may reach in column `x`.
    fn rows_of(&self, x: i32, shift: u32) -> Option<(i32, i32)> {
        let size = CELL * (1u32 << shift) as f32;
        let (x0, x1) = (x as f32 * size, (x as f32 + 1.0) * size);
        // The part of the sweep whose grown box reaches the column.
        let (lo, hi) = (x0 - self.to.x, x1 - self.from.x);
        let (t0, t1) = if !self.inverse.x.is_finite() {
            if self.start.x < lo || self.start.x > hi {
                return None;
            }
            (0.0, 1.0)
        } else {
            let a = (lo - self.start.x) * self.inverse.x;
            let b = (hi - self.start.x) * self.inverse.x;
            (a.min(b).max(0.0), a.max(b).min(1.0))
        };
        if t0 > t1 {
            return None;
        }
        let (y0, y1) = (
            self.start.y + self.motion.y * t0,
            self.start.y + self.motion.y * t1,
        );
        let (bottom, top) = (y0.min(y1) + self.from.y, y0.max(y1) + self.to.y);
        Some((
            Self::cell(Vec3::new(0.0, bottom, 0.0), shift).1,
            Self::cell(Vec3::new(0.0, top, 0.0), shift).1,
        ))
    }
}

impl Bodies {
    /// Calls `f` as [`Self::for_each_body_in`] does for the bodies a sweep may touch: the box
    /// `low..high` (relative to the sweep's point) moving from `start` to `end`. Only the
    /// part of the sweep near the bodies is looked along: every body when they are few,
    /// else the cheapest of the fine grid, the coarse grid and every body, so a long ray
    /// costs the cells it passes near the bodies, not the square its bounds cover; every body whose bounds overlap the swept box
    /// is visited, each once, but body `skip` (a shot's shooter, which the sweep starts
    /// in), never.
    #[inline(always)]
    pub(crate) fn for_each_body_along(
        &self,
        sweep: (Vec3, Vec3),
        bounds: (Vec3, Vec3),
        skip: Option<u32>,
        f: impl FnMut(u32, Contents, CollisionGroups, &Upright, Vec3),
    ) {
        self.along_by(None, sweep, bounds, skip, f);
    }

    /// [`Self::for_each_body_along`] by `walk`, or by the cheapest way when `None`.
    ///
    /// Inlined with [`Self::for_each_body_along`] into the caller (the scene's trace): the
    /// scene bench's hitscans (`benches/scene.rs`) run measurably faster so, while the scan
    /// itself (`scan_every`) is faster kept apart.
    #[inline(always)]
    pub(crate) fn along_by(
        &self,
        walk: Option<Walk>,
        (start, end): (Vec3, Vec3),
        (low, high): (Vec3, Vec3),
        skip: Option<u32>,
        mut f: impl FnMut(u32, Contents, CollisionGroups, &Upright, Vec3),
    ) {
        if self.slots.is_empty() {
            return;
        }
        let motion = end - start;
        // The swept box meets a body's bounds when the sweep's point passes through the
        // bounds grown by the box: a branchless slab test, with slack for rounding (a zero
        // motion on an axis takes a huge finite reciprocal, so the test stays free of NaNs).
        let slab = Slab::new(start, motion, (low, high));
        let mut consider = |slot: &Slot| {
            if skip != Some(slot.id) && slab.meets(slot.bounds()) {
                f(slot.id, slot.contents, slot.groups, &slot.parts, slot.at);
            }
        };
        // Only the part of the sweep where the box meets the bodies' box can meet a body.
        let (enter, leave) = slab.span(self.extent);
        if enter > leave {
            return;
        }
        if walk == Some(Walk::Every)
            || (walk.is_none() && self.slots.len() <= WHOLE_SCAN_MAX_BODIES)
        {
            self.scan_every(&slab, (enter, leave), &mut consider);
            return;
        }
        let near = start + motion * enter;
        let part = start + motion * leave - near;
        let grow = self.reach + ALONG_SLACK;
        let segment = Segment {
            start: near,
            motion: part,
            inverse: part.recip(),
            from: (low.truncate() - grow).extend(low.z),
            to: (high.truncate() + grow).extend(high.z),
        };
        match walk.unwrap_or_else(|| self.cheapest_walk(&segment)) {
            Walk::Every => self.scan_every(&slab, (enter, leave), &mut consider),
            Walk::Fine => self.walk::<false>(&segment, &mut consider),
            Walk::Coarse => self.walk::<true>(&segment, &mut consider),
        }
    }

    /// The way to look along `segment` that the estimate finds cheapest, in slab tests:
    /// every body ([`BLOCK_SCAN_COST`] per block of four); a grid's cells (each a lookup,
    /// the bodies met there being few on the fine grid); a coarse grid's cells and the
    /// bodies they hold (as many as an occupied coarse cell holds on average).
    fn cheapest_walk(&self, segment: &Segment) -> Walk {
        let bodies = self.slots.len() as f32;
        let every = self.slots.len().div_ceil(LANES) as f32 * BLOCK_SCAN_COST;
        let fine = segment.cells(0) * CELL_LOOKUP_COST;
        let coarse_cells = segment.cells(COARSE_SHIFT);
        let density = bodies / self.coarse_occupied.max(1) as f32;
        let coarse = coarse_cells * CELL_LOOKUP_COST + (coarse_cells * density).min(bodies);
        if every <= fine.min(coarse) {
            Walk::Every
        } else if fine <= coarse {
            Walk::Fine
        } else {
            Walk::Coarse
        }
    }

    /// Calls `consider` on every body whose bounds `slab` may meet: the bodies' bounds
    /// across the ground plane four at a time, after the boxes around each four
    /// (`lanes.rs`), over the part `window` of the sweep where it meets the box holding
    /// every body (`slab.span(self.extent)`), then the whole test on the few those meet.
    /// A body whose bounds the whole test meets is met within the window: its bounds lie
    /// in that box, and the slab test only grows with the box (per axis the crossings are
    /// monotonic in the box's planes, rounding included), so its span lies within the
    /// box's, and its span across the ground plane holds its span in space.
    fn scan_every(&self, slab: &Slab, window: (f32, f32), consider: &mut impl FnMut(&Slot)) {
        self.lanes.for_each_met(&slab.lanes(window), |i| {
            if let Some(slot) = self.slots.get(i) {
                consider(slot);
            }
        });
    }

    /// Calls `consider` on every body in the cells of the fine grid (the coarse one when
    /// `COARSE`) that `segment`'s grown box crosses: per column, the rows it crosses there.
    fn walk<const COARSE: bool>(&self, segment: &Segment, consider: &mut impl FnMut(&Slot)) {
        let (shift, buckets) = if COARSE {
            (COARSE_SHIFT, &self.coarse_buckets)
        } else {
            (0, &self.buckets)
        };
        let (first, last) = segment.columns(shift);
        for x in first..=last {
            let Some((bottom, top)) = segment.rows_of(x, shift) else {
                continue;
            };
            for y in bottom..=top {
                let bucket = bucket_of((x, y), buckets.len());
                let mut i = buckets.get(bucket).copied().unwrap_or(NONE);
                if COARSE {
                    while let Some(slot) = self.slots.get(i as usize) {
                        if coarse_of(slot.cell) == (x, y) {
                            consider(slot);
                        }
                        i = slot.next_coarse;
                    }
                } else {
                    while let Some(node) = self.nodes.get(i as usize) {
                        if node.cell == (x, y)
                            && let Some(slot) = self.slots.get(node.slot as usize)
                        {
                            consider(slot);
                        }
                        i = node.next;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::TraceShape;

    #[test]
    fn every_walk_visits_what_brute_force_finds() {
        // Seeded sweeps among bodies spread, clustered and moved about: each way of looking
        // (fine, coarse, every body, and the chosen one) visits every body whose bounds the
        // swept box meets, each once, and nothing beyond the slack; never a skipped body.
        let mut rng = crate::test_rng::XorShift::new(0x9e37_79b9_7f4a_7c15u64);
        let shapes = [
            TraceShape::quake3_player(),
            TraceShape::quake1_player(),
            TraceShape::point(),
        ];
        let mut bodies = Bodies::new();
        let mut checked = 0usize;
        let mut met = 0usize;
        for round in 0..3000 {
            if round % 500 == 0 {
                // A new crowd: spread over a level, or packed around one point.
                bodies = Bodies::new();
                let spread = if round % 1000 == 0 { 3000.0 } else { 300.0 };
                let count = 1 + (round / 500) * 40;
                for id in 0..count as u32 {
                    let at = Vec3::new(
                        (rng.unit() - 0.5) * spread,
                        (rng.unit() - 0.5) * spread,
                        (rng.unit() - 0.5) * 200.0,
                    );
                    let shape = &shapes[id as usize % 2];
                    bodies.insert(id * 7 + 1, shape, at);
                }
            }
            // Move one body (across cells of both grids now and then).
            let ids: Vec<u32> = bodies.ids().collect();
            let id = ids[round % ids.len()];
            let (at, _) = bodies.get(id).unwrap_or_default();
            let step = if round % 9 == 0 { 1200.0 } else { 90.0 };
            let moved = at + Vec3::new(rng.unit() - 0.5, rng.unit() - 0.5, 0.0) * step;
            bodies.update(id, &shapes[id as usize % 2], moved, round % 11 != 0);
            // A sweep: rays and boxes, short and long, some axis-aligned; two in three from
            // near one body toward another (shots in a crowd), the others anywhere.
            let jitter = Vec3::new(rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5);
            let (from, toward) = if round % 3 == 0 {
                let anywhere = Vec3::new(rng.unit() - 0.5, rng.unit() - 0.5, 0.1) * 3600.0;
                (anywhere, anywhere + jitter)
            } else {
                let (a, _) = bodies.get(ids[(round * 7) % ids.len()]).unwrap_or_default();
                let (b, _) = bodies
                    .get(ids[(round * 13) % ids.len()])
                    .unwrap_or_default();
                (a + jitter * 100.0, b + jitter * 60.0)
            };
            let start = from;
            let length = [40.0, 400.0, 4000.0, 9000.0][round % 4];
            let mut dir = toward - from;
            match round % 7 {
                0 => dir.x = 0.0,
                1 => dir.y = 0.0,
                2 => dir = Vec3::Z,
                _ => {}
            }
            let end = start + dir.normalize_or_zero() * length;
            let swept = &shapes[(round / 3) % 3];
            let (low, high) = Upright::of(swept).bounds();
            let exact = |bounds: (Vec3, Vec3), slack: f32| {
                // Whether the box at some point of the sweep meets `bounds` grown by
                // `slack`: the same test in f64 against the grown bounds.
                let (s, m) = (start.as_dvec3(), (end - start).as_dvec3());
                let (lo, hi) = (
                    bounds.0.as_dvec3() - high.as_dvec3() - f64::from(slack),
                    bounds.1.as_dvec3() - low.as_dvec3() + f64::from(slack),
                );
                let (mut t0, mut t1) = (0.0f64, 1.0f64);
                for axis in 0..3 {
                    if m[axis] == 0.0 {
                        if s[axis] < lo[axis] || s[axis] > hi[axis] {
                            return false;
                        }
                    } else {
                        let a = (lo[axis] - s[axis]) / m[axis];
                        let b = (hi[axis] - s[axis]) / m[axis];
                        t0 = t0.max(a.min(b));
                        t1 = t1.min(a.max(b));
                    }
                }
                t0 <= t1
            };
            // Every other round skips a body (a shot's shooter), often one the sweep meets.
            let skip = (round % 2 == 0).then(|| ids[(round * 7) % ids.len()]);
            let mut must: Vec<u32> = Vec::new();
            let mut may: Vec<u32> = Vec::new();
            for i in 0..bodies.len() {
                let slot = bodies.slots[i];
                if Some(slot.id) == skip {
                    continue;
                }
                if exact(slot.bounds(), 0.0) {
                    must.push(slot.id);
                }
                if exact(slot.bounds(), 2.0 * ALONG_SLACK) {
                    may.push(slot.id);
                }
            }
            for walk in [
                None,
                Some(Walk::Every),
                Some(Walk::Fine),
                Some(Walk::Coarse),
            ] {
                let mut seen = Vec::new();
                bodies.along_by(walk, (start, end), (low, high), skip, |id, _, _, _, _| {
                    seen.push(id);
                });
                seen.sort_unstable();
                let before = seen.len();
                seen.dedup();
                assert_eq!(before, seen.len(), "round {round} {walk:?}: a body twice");
                for id in &must {
                    assert!(
                        seen.binary_search(id).is_ok(),
                        "round {round} {walk:?}: missed {id}"
                    );
                }
                for id in &seen {
                    assert!(
                        may.binary_search(id).is_ok(),
                        "round {round} {walk:?}: {id} is beyond the slack"
                    );
                }
                checked += 1;
            }
            met += must.len();
        }
        assert_eq!(checked, 4 * 3000);
        assert!(met > 1000, "the sweeps meet bodies ({met})");
    }
}
