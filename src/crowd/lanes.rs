//! The bodies' bounds stored axis by axis, four bodies to a block (one SIMD register per
//! row), for the look along a sweep that tests every body (`along.rs`): a crowd of tens
//! costs a few branch-free blocks where a walk over the grid's cells costs a hash and a
//! chain per cell.
//!
//! Takes each body's world-space bounds by its index in increasing id order (`bodies.rs`
//! sets them whenever a body's bounds change, and lays them out again in space order when
//! it rebuilds its table); gives the indices of the bodies whose bounds a sweep's slab test
//! across the ground plane meets. Bodies are laid out in lanes by a space-filling order of
//! their cells ([`BoundsLanes::order`]), so a block's four bodies lie near each other, and
//! each group of four blocks holds the boxes around each block's bodies: a sweep tests the
//! groups' boxes first, then only the blocks whose box it meets. Guarantees: the test is
//! the scalar one of `along.rs` (`Slab::span`, its [0, 1] narrowed to the slab's window)
//! across the ground plane, lane by lane, the same operations in the same order, so it
//! meets exactly the bodies that test meets (a block's box holds its bodies' bounds, and
//! the test only grows with the box, rounding included); lanes past the last body hold a box at [`FAR`], which no sweep within the
//! world meets; each body is given once, in no particular order; no allocation when
//! scanning or moving a body (adding one may reallocate).

use glam::{Vec2, Vec3, Vec4};

/// Bodies per block, and blocks per group: the lanes of a 128-bit register.
pub(super) const LANES: usize = 4;

/// Where the empty lanes' box lies, on every axis, in units: beyond any world (positions
/// stay within 2²⁰ units), so a sweep's slab test puts it past the sweep's end (or, for an
/// axis the sweep does not move along, infinitely far), never within [0, 1].
const FAR: f32 = 1e30;

/// Groups whose boxes are tested before any block is: one bit per block in a 64-bit
/// word.
const GROUPS_PER_PASS: usize = u64::BITS as usize / LANES;

/// Four boxes across the ground plane, axis by axis: the low corners' x and y, the high
/// corners' x and y.
#[derive(Clone, Copy, Debug)]
struct Block {
    low: [Vec4; 2],
    high: [Vec4; 2],
}

impl Block {
    const EMPTY: Block = Block {
        low: [Vec4::splat(FAR); 2],
        high: [Vec4::splat(FAR); 2],
    };

    /// Puts `low..high` (x and y) in lane `lane`.
    fn put(&mut self, lane: usize, low: Vec2, high: Vec2) {
        let lane = lane % LANES;
        for axis in 0..2 {
            self.low[axis][lane] = low[axis];
            self.high[axis][lane] = high[axis];
        }
    }

    /// The lanes whose box overlaps the closed box `low..high` (touching counts), as bits.
    #[inline(always)]
    fn overlapping(&self, low: Vec2, high: Vec2) -> u32 {
        let across = |axis: usize| {
            let (lo, hi) = (Vec4::splat(low[axis]), Vec4::splat(high[axis]));
            self.low[axis].cmple(hi) & lo.cmple(self.high[axis])
        };
        (across(0) & across(1)).bitmask()
    }

    /// The lanes whose box `slab` meets, as bits.
    #[inline(always)]
    fn met(&self, slab: &SlabLanes) -> u32 {
        let SlabLanes {
            from_low,
            from_high,
            inverse,
            window: (first, last),
        } = *slab;
        // Per axis: the fractions at which the point crosses the grown boxes' planes.
        let ax = (self.low[0] - from_low.x) * inverse.x;
        let bx = (self.high[0] - from_high.x) * inverse.x;
        let ay = (self.low[1] - from_low.y) * inverse.y;
        let by = (self.high[1] - from_high.y) * inverse.y;
        let enter = ax.min(bx).max(ay.min(by)).max(Vec4::splat(first));
        let leave = ax.max(bx).min(ay.max(by)).min(Vec4::splat(last));
        enter.cmple(leave).bitmask()
    }
}

/// The bounds of bodies `0..n` across the ground plane, four to a block, blocks four to a
/// group.
#[derive(Clone, Debug, Default)]
pub(super) struct BoundsLanes {
    /// The bodies' bounds, lane by lane.
    blocks: Vec<Block>,
    /// Per group of [`LANES`] blocks, the box around each block's bodies.
    groups: Vec<Block>,
    /// The body in each lane; the lanes after the last body's are empty.
    body_of: Vec<u32>,
    /// The lane of each body.
    lane_of: Vec<u32>,
    /// How many bodies the last [`Self::order`] laid out (the others were appended after).
    ordered: usize,
}

/// A sweep's slab test across the ground plane, as `along.rs` sets it up: the start
/// shifted by the moving box's high corner (against bounds' lows) and low corner (against
/// highs), both with the slack, and the motion's reciprocal (finite on every axis); and
/// the part of the sweep looked at, as fractions `(first, last)` within [0, 1] (the whole
/// sweep, or the part within the box holding every body).
#[derive(Clone, Copy, Debug)]
pub(super) struct SlabLanes {
    pub(super) from_low: Vec2,
    pub(super) from_high: Vec2,
    pub(super) inverse: Vec2,
    pub(super) window: (f32, f32),
}

/// A key of cell `cell` that orders cells along a Z curve (bits of x and y interleaved,
/// offset so negative cells order before positive ones): cells near in the order are near
/// in space.
pub(super) fn space_order((x, y): (i32, i32)) -> u64 {
    let spread = |v: i32| {
        let mut v = u64::from((v as u32) ^ 0x8000_0000);
        v = (v | (v << 16)) & 0x0000_ffff_0000_ffff;
        v = (v | (v << 8)) & 0x00ff_00ff_00ff_00ff;
        v = (v | (v << 4)) & 0x0f0f_0f0f_0f0f_0f0f;
        v = (v | (v << 2)) & 0x3333_3333_3333_3333;
        (v | (v << 1)) & 0x5555_5555_5555_5555
    };
    spread(x) | (spread(y) << 1)
}

impl BoundsLanes {
    /// No bodies.
    pub(super) fn clear(&mut self) {
        self.blocks.clear();
        self.groups.clear();
        self.body_of.clear();
        self.lane_of.clear();
        self.ordered = 0;
    }

    /// Body `index`'s bounds are now `low..high`; a body past the last is added in the
    /// next lane (out of order until the next [`Self::order`]).
    pub(super) fn set(&mut self, index: usize, (low, high): (Vec3, Vec3)) {
        while self.lane_of.len() <= index {
            let lane = self.body_of.len();
            self.lane_of.push(lane as u32);
            self.body_of.push(self.lane_of.len() as u32 - 1);
            if lane / LANES >= self.blocks.len() {
                self.blocks.push(Block::EMPTY);
            }
            if lane / (LANES * LANES) >= self.groups.len() {
                self.groups.push(Block::EMPTY);
            }
        }
        let Some(&lane) = self.lane_of.get(index) else {
            return;
        };
        let lane = lane as usize;
        if let Some(block) = self.blocks.get_mut(lane / LANES) {
            block.put(lane, low.truncate(), high.truncate());
        }
        self.refit(lane / LANES);
    }

    /// Whether enough bodies were added since the last [`Self::order`] that their lanes,
    /// in the order they came, should be laid out again (a quarter of those laid out: the
    /// layouts then cost O(log n) per body added, amortised).
    pub(super) fn wants_order(&self) -> bool {
        4 * (self.lane_of.len() - self.ordered) > self.ordered
    }

    /// Lays the bodies out in lanes by `key` of each (a [`space_order`]), with `bounds` of
    /// each: a block's bodies then lie near each other.
    pub(super) fn order(
        &mut self,
        key: impl Fn(usize) -> u64,
        bounds: impl Fn(usize) -> (Vec3, Vec3),
    ) {
        let count = self.lane_of.len();
        let mut sorted: Vec<(u64, u32)> = (0..count).map(|i| (key(i), i as u32)).collect();
        sorted.sort_unstable();
        self.blocks.clear();
        self.blocks.resize(count.div_ceil(LANES), Block::EMPTY);
        self.groups.clear();
        self.groups
            .resize(count.div_ceil(LANES * LANES), Block::EMPTY);
        self.body_of.clear();
        for (lane, &(_, body)) in sorted.iter().enumerate() {
            self.body_of.push(body);
            if let Some(slot) = self.lane_of.get_mut(body as usize) {
                *slot = lane as u32;
            }
            let (low, high) = bounds(body as usize);
            if let Some(block) = self.blocks.get_mut(lane / LANES) {
                block.put(lane, low.truncate(), high.truncate());
            }
        }
        for block in 0..self.blocks.len() {
            self.refit(block);
        }
        self.ordered = count;
    }

    /// Block `block`'s box in its group: around the bounds of the bodies in its lanes
    /// (lanes hold bodies from the first on, so only the last block has empty ones).
    fn refit(&mut self, block: usize) {
        let Some(rows) = self.blocks.get(block) else {
            return;
        };
        let bodies = self.body_of.len().saturating_sub(block * LANES);
        let (low, high) = if bodies >= LANES {
            (
                Vec2::new(rows.low[0].min_element(), rows.low[1].min_element()),
                Vec2::new(rows.high[0].max_element(), rows.high[1].max_element()),
            )
        } else {
            let (mut low, mut high) = (Vec2::splat(FAR), Vec2::splat(-FAR));
            for lane in 0..bodies {
                low = low.min(Vec2::new(rows.low[0][lane], rows.low[1][lane]));
                high = high.max(Vec2::new(rows.high[0][lane], rows.high[1][lane]));
            }
            (low, high)
        };
        if let Some(group) = self.groups.get_mut(block / LANES) {
            group.put(block, low, high);
        }
    }

    /// Calls `f` with the index of every body whose bounds overlap the box `low..high`
    /// across the ground plane (touching counts), each once, in no particular order: a
    /// superset of the bodies whose bounds overlap the box in space, which the caller
    /// finishes on the few it gets.
    pub(super) fn for_each_overlapping(&self, low: Vec2, high: Vec2, f: impl FnMut(usize)) {
        self.for_each_passing(|block| block.overlapping(low, high), f);
    }

    /// Calls `f` with the index of every body whose bounds `slab` meets across the ground
    /// plane during its window of the sweep, each once, in no particular order: a
    /// superset of the bodies the full test meets, which the caller finishes on the few it
    /// gets.
    pub(super) fn for_each_met(&self, slab: &SlabLanes, f: impl FnMut(usize)) {
        self.for_each_passing(|block| block.met(slab), f);
    }

    /// Calls `f` with the index of every body in a lane `test` passes (its bit set in the
    /// lanes' mask `test` gives a block), each once. The groups' boxes are tested first, a
    /// pass of them at a time with no branch on what they pass (their bits gathered in one
    /// word), then only the blocks whose group passed.
    #[inline(always)]
    fn for_each_passing(&self, test: impl Fn(&Block) -> u32, mut f: impl FnMut(usize)) {
        for (pass, groups) in self.groups.chunks(GROUPS_PER_PASS).enumerate() {
            let mut blocks = 0u64;
            for (g, group) in groups.iter().enumerate() {
                blocks |= u64::from(test(group)) << (g * LANES);
            }
            let first = pass * GROUPS_PER_PASS * LANES;
            while blocks != 0 {
                let b = first + blocks.trailing_zeros() as usize;
                blocks &= blocks - 1;
                let Some(block) = self.blocks.get(b) else {
                    continue;
                };
                let mut lanes = test(block);
                while lanes != 0 {
                    let lane = b * LANES + lanes.trailing_zeros() as usize;
                    lanes &= lanes - 1;
                    if let Some(&body) = self.body_of.get(lane) {
                        f(body as usize);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::XorShift;

    /// A character's half extents.
    const BODY_HALF: Vec3 = Vec3::new(16.0, 16.0, 28.0);

    /// Seeded bodies for the lane tests, and their boxes as the lanes should hold them.
    #[derive(Default)]
    struct SeededCrowd {
        lanes: BoundsLanes,
        boxes: Vec<(Vec3, Vec3)>,
    }

    impl SeededCrowd {
        /// Every 100 rounds, `count` bodies placed by `place`, laid out in space order
        /// every 200; every third round one body moved (after the layout).
        fn next_round(
            &mut self,
            round: usize,
            count: usize,
            rng: &mut XorShift,
            place: impl Fn(&mut XorShift) -> Vec3,
        ) {
            let SeededCrowd { lanes, boxes } = self;
            if round.is_multiple_of(100) {
                lanes.clear();
                boxes.clear();
                for i in 0..count {
                    let at = place(rng);
                    lanes.set(i, (at - BODY_HALF, at + BODY_HALF));
                    boxes.push((at - BODY_HALF, at + BODY_HALF));
                }
                if round.is_multiple_of(200) {
                    let cell = |i: usize| {
                        let (low, _) = boxes[i];
                        space_order(((low.x / 64.0) as i32, (low.y / 64.0) as i32))
                    };
                    lanes.order(cell, |i| boxes[i]);
                }
            }
            if round.is_multiple_of(3) {
                let i = (rng.unit().abs() * boxes.len() as f32) as usize % boxes.len();
                let at = place(rng);
                boxes[i] = (at - BODY_HALF, at + BODY_HALF);
                lanes.set(i, boxes[i]);
            }
        }
    }

    #[test]
    fn lanes_meet_what_a_scalar_slab_test_meets() {
        // Seeded boxes and sweeps (half aimed at a box's edge, some not moving along an
        // axis, where `along.rs` gives a huge finite reciprocal), crowds of 1 to 320 (up to
        // two runs of groups; the last block and group partly empty), laid out in space
        // order or not, and boxes moved after the layout, over the whole sweep or a part of
        // it: the lanes meet a body exactly when the scalar test of x then y does, each
        // once, and never an empty lane.
        let mut rng = XorShift::new(0x1a2b_3c4d_5e6f_7081u64);
        let mut crowd = SeededCrowd::default();
        let mut met = 0usize;
        let mut missed = 0usize;
        for round in 0..3000 {
            crowd.next_round(round, 1 + round / 100 * 11, &mut rng, |rng| {
                Vec3::new(rng.unit(), rng.unit(), rng.unit()) * 2000.0 - 1000.0
            });
            let SeededCrowd { lanes, boxes } = &crowd;
            let start = Vec3::new(rng.unit(), rng.unit(), rng.unit()) * 2000.0 - 1000.0;
            let mut motion = if round % 2 == 0 {
                Vec3::new(rng.unit(), rng.unit(), rng.unit()) * 4000.0 - 2000.0
            } else {
                // Toward a box, often passing its edge.
                let (low, high) = boxes[(rng.unit() * boxes.len() as f32) as usize % boxes.len()];
                let aim = (low + high) * 0.5 + Vec3::new(rng.unit(), rng.unit(), 0.0) * 40.0 - 20.0;
                (aim - start) * 1.5
            };
            match round % 5 {
                0 => motion.x = 0.0,
                1 => motion.y = 0.0,
                _ => {}
            }
            let recip = |d: f32| if d == 0.0 { 1e30 } else { 1.0 / d };
            // The whole sweep, or a part of it (as the box holding every body cuts it).
            let window = if round % 4 == 0 {
                (0.0, 1.0)
            } else {
                let (a, b) = ((rng.unit() + 1.0) * 0.5, (rng.unit() + 1.0) * 0.5);
                (a.min(b), a.max(b))
            };
            let slab = SlabLanes {
                from_low: start.truncate() + 1.0,
                from_high: start.truncate() - 1.0,
                inverse: motion.truncate().map(recip),
                window,
            };
            let mut seen = Vec::new();
            lanes.for_each_met(&slab, |i| seen.push(i));
            seen.sort_unstable();
            let expected: Vec<usize> = (0..boxes.len())
                .filter(|&i| {
                    let (low, high) = boxes[i];
                    let (mut enter, mut leave) = window;
                    for axis in 0..2 {
                        let a = (low[axis] - slab.from_low[axis]) * slab.inverse[axis];
                        let b = (high[axis] - slab.from_high[axis]) * slab.inverse[axis];
                        enter = enter.max(a.min(b));
                        leave = leave.min(a.max(b));
                    }
                    enter <= leave
                })
                .collect();
            assert_eq!(seen, expected, "round {round}");
            met += seen.len();
            missed += boxes.len() - seen.len();
        }
        assert!(met > 400 && missed > 5000, "met {met}, missed {missed}");
    }

    #[test]
    fn lanes_overlap_what_a_scalar_box_test_overlaps() {
        // Seeded crowds of 1 to 300 bodies (the last block and group partly empty), laid
        // out in space order or not, bodies moved after the layout, and boxes from a point
        // to a room across, a third of them touching a body's edge exactly: the lanes give
        // a body exactly when its bounds overlap the box across the ground plane (touching
        // counts), each once, and never an empty lane.
        let mut rng = XorShift::new(0x5eed_0f1a_7e5b_0d37_u64);
        let mut crowd = SeededCrowd::default();
        let (mut met, mut missed) = (0usize, 0usize);
        for round in 0..3000 {
            crowd.next_round(round, 1 + round / 10, &mut rng, |rng| {
                Vec3::new(rng.unit(), rng.unit(), rng.unit()) * 1000.0
            });
            let SeededCrowd { lanes, boxes } = &crowd;
            let size = Vec2::new(rng.unit().abs(), rng.unit().abs()) * 300.0;
            let low = if round % 3 == 1 {
                // Touching a body's high corner exactly.
                let k = (rng.unit().abs() * boxes.len() as f32) as usize % boxes.len();
                boxes[k].1.truncate()
            } else {
                Vec2::new(rng.unit(), rng.unit()) * 1100.0
            };
            let high = low + size;
            let mut found = Vec::new();
            lanes.for_each_overlapping(low, high, |i| found.push(i));
            found.sort_unstable();
            let expected: Vec<usize> = (0..boxes.len())
                .filter(|&i| {
                    let (b_low, b_high) = (boxes[i].0.truncate(), boxes[i].1.truncate());
                    b_low.cmple(high).all() && low.cmple(b_high).all()
                })
                .collect();
            assert_eq!(found, expected, "round {round}");
            met += expected.len();
            missed += boxes.len() - expected.len();
        }
        assert!(met > 1000 && missed > 1000, "{met} met, {missed} missed");
    }

    #[test]
    fn space_order_keeps_near_cells_near() {
        // The four cells of each 2 × 2 square (negative coordinates too) are consecutive
        // in the order.
        for (x, y) in [(0, 0), (-2, -2), (-2, 4), (100, -64), (-4096, 4094)] {
            let mut keys: Vec<u64> = [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)]
                .into_iter()
                .map(space_order)
                .collect();
            keys.sort_unstable();
            assert_eq!(keys[3] - keys[0], 3, "square at {x}, {y}");
        }
    }
}
