//! The bodies' bounds stored axis by axis, four bodies to a block (one SIMD register per
//! axis and side), for the look along a sweep that tests every body (`along.rs`): a crowd
//! of tens costs a handful of branch-free blocks where a walk over the grid's cells costs a
//! hash and a chain per cell.
//!
//! Takes each body's world-space bounds by its index in increasing id order (`bodies.rs`
//! sets them whenever a body's bounds change and rebuilds them with its table); gives the
//! indices of the bodies whose bounds a sweep's slab test meets. Guarantees: the test is
//! the scalar one of `along.rs` (`Slab::span`) lane by lane, the same operations in the
//! same order, so it meets exactly the bodies that one does; lanes past the last body hold
//! a box at [`FAR`], which no sweep within the world meets; indices come increasing, each
//! once; no allocation when scanning.

use glam::{Vec2, Vec3, Vec4};

/// Bodies per block: the lanes of a 128-bit register.
pub(super) const LANES: usize = 4;

/// Where the empty lanes' box lies, on every axis, in units: beyond any world (positions
/// stay within 2²⁰ units), so a sweep's slab test puts it past the sweep's end (or, for an
/// axis the sweep does not move along, infinitely far), never within [0, 1].
const FAR: f32 = 1e30;

/// Four bodies' bounds across the ground plane, axis by axis.
#[derive(Clone, Copy, Debug)]
struct Block {
    /// The bounds' low corners: x and y of the four bodies.
    low: [Vec4; 2],
    /// The high corners.
    high: [Vec4; 2],
}

impl Block {
    const EMPTY: Block = Block {
        low: [Vec4::splat(FAR); 2],
        high: [Vec4::splat(FAR); 2],
    };
}

/// The bounds of bodies `0..n` across the ground plane, four to a block.
#[derive(Clone, Debug, Default)]
pub(super) struct BoundsLanes {
    blocks: Vec<Block>,
}

/// A sweep's slab test across the ground plane, as `along.rs` sets it up: the start
/// shifted by the moving box's high corner (against bounds' lows) and low corner (against
/// highs), both with the slack, and the motion's reciprocal (finite on every axis).
#[derive(Clone, Copy, Debug)]
pub(super) struct SlabLanes {
    pub(super) from_low: Vec2,
    pub(super) from_high: Vec2,
    pub(super) inverse: Vec2,
}

impl BoundsLanes {
    /// No bodies.
    pub(super) fn clear(&mut self) {
        self.blocks.clear();
    }

    /// Body `index`'s bounds are now `low..high` (the lanes grow to hold it).
    pub(super) fn set(&mut self, index: usize, (low, high): (Vec3, Vec3)) {
        let block = index / LANES;
        if block >= self.blocks.len() {
            self.blocks.resize(block + 1, Block::EMPTY);
        }
        let Some(block) = self.blocks.get_mut(block) else {
            return;
        };
        let lane = index % LANES;
        for axis in 0..2 {
            block.low[axis][lane] = low[axis];
            block.high[axis][lane] = high[axis];
        }
    }

    /// Calls `f` with the index of every body whose bounds `slab` meets across the ground
    /// plane during the sweep (fractions [0, 1]), increasing: a superset of the bodies the
    /// full test meets, which the caller finishes on the few it gets.
    pub(super) fn for_each_met(&self, slab: &SlabLanes, mut f: impl FnMut(usize)) {
        let SlabLanes {
            from_low,
            from_high,
            inverse,
        } = *slab;
        for (k, block) in self.blocks.iter().enumerate() {
            // Per axis: the fractions at which the point crosses the grown bounds' planes.
            let ax = (block.low[0] - from_low.x) * inverse.x;
            let bx = (block.high[0] - from_high.x) * inverse.x;
            let ay = (block.low[1] - from_low.y) * inverse.y;
            let by = (block.high[1] - from_high.y) * inverse.y;
            let enter = ax.min(bx).max(ay.min(by)).max(Vec4::ZERO);
            let leave = ax.max(bx).min(ay.max(by)).min(Vec4::ONE);
            let mut met = enter.cmple(leave).bitmask();
            while met != 0 {
                f(k * LANES + met.trailing_zeros() as usize);
                met &= met - 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_meet_what_a_scalar_slab_test_meets() {
        // Seeded boxes and sweeps (half aimed at a box's edge, some not moving along an axis, where `along.rs` gives a
        // huge finite reciprocal), crowds of 1 to 58 so the last block is partly empty: the
        // lanes meet a body exactly when the scalar test of x then y does, each once,
        // increasing, and never an empty lane.
        let mut rng = crate::test_rng::XorShift::new(0x1a2b_3c4d_5e6f_7081u64);
        let mut lanes = BoundsLanes::default();
        let mut boxes = Vec::new();
        let mut met = 0usize;
        let mut missed = 0usize;
        for round in 0..2000 {
            if round % 100 == 0 {
                lanes.clear();
                boxes.clear();
                for i in 0..(1 + round / 100 * 3) {
                    let at = Vec3::new(rng.unit(), rng.unit(), rng.unit()) * 2000.0 - 1000.0;
                    let half = Vec3::new(16.0, 16.0, 28.0);
                    lanes.set(i, (at - half, at + half));
                    boxes.push((at - half, at + half));
                }
            }
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
            let slab = SlabLanes {
                from_low: start.truncate() + 1.0,
                from_high: start.truncate() - 1.0,
                inverse: motion.truncate().map(recip),
            };
            let mut seen = Vec::new();
            lanes.for_each_met(&slab, |i| seen.push(i));
            let expected: Vec<usize> = (0..boxes.len())
                .filter(|&i| {
                    let (low, high) = boxes[i];
                    let (mut enter, mut leave) = (0.0f32, 1.0f32);
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
}
