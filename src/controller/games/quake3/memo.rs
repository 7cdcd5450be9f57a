//! What one Quake 3 command may reuse from the commands before it: the answers the game
//! recomputes every command although they are pure functions of inputs that often repeat.
//!
//! Takes, per kept answer, the exact inputs it was computed from (as bits) and the identity
//! of the world that answered; gives the kept answer back only when every input is the same
//! bits and the world the same, otherwise nothing (the caller computes it, and keeps it).
//! Guarantees: a command with or without these memos gives the same bits (replays and
//! restored states alike), because each kept answer is a pure function of its key:
//! - the player's two boxes, of the configuration's four numbers that make them;
//! - `AngleVectors`' three vectors, of the view angles' bits;
//! - `PM_SetWaterLevel`'s level and liquid, of the origin, the view height and `MINS_Z`, in
//!   a world whose point contents are one compiled map's ([`SpeedFacts::contents_are_map`],
//!   the map named by its contents id). A command starts where the last ended, with the
//!   flags it ended with, so its first sample is the last command's final one; and in such
//!   a world whose map holds no liquid in any leaf or brush, no sample is asked at all, nor
//!   far from every liquid brush of a map that holds some (`liquids.rs`);
//! - the last few traces (`pm->trace`), each of its two points, the box (ducked or not) and
//!   the mask, in a world that is one compiled map and nothing else
//!   ([`SpeedFacts::moves_nothing`]): the ground trace that ends a command is the one the
//!   next begins with, unless the duck changed, and a player pressed against a wall or
//!   standing still asks the same sweeps again (the game rounds its velocity to whole
//!   units, so the same place and speed recur exactly).
//!
//! [`SpeedFacts::contents_are_map`]: crate::controller::SpeedFacts::contents_are_map
//! [`SpeedFacts::moves_nothing`]: crate::controller::SpeedFacts::moves_nothing

use glam::Vec3;

use super::liquids::Liquids;
use super::trace::{PlayerBox, Swept};
use crate::CompiledMap;
use crate::contents::Contents;

/// A point's coordinates as bits: an answer is reused only at exactly the same place.
pub(super) fn bits(p: Vec3) -> [u32; 3] {
    p.to_array().map(f32::to_bits)
}

/// The kept answers of one character's Quake 3 commands.
#[derive(Clone, Debug, Default)]
pub(crate) struct Memo {
    /// The standing and crouched boxes, and the configuration numbers they were made from
    /// (half width, `MINS_Z`, the two tops, as bits).
    /// Boxed: a command takes them out and puts them back, moving a pointer (moving the
    /// two boxes themselves cost a `memmove` each way, about 0.5 % of a tick on kaos).
    pub(super) boxes: Option<Box<Boxes>>,
    /// The view angles' bits and their forward and right vectors.
    pub(super) view: Option<([u32; 2], Vec3, Vec3)>,
    pub(super) water: Option<WaterSample>,
    /// The last [`KEPT_TRACES`] traces asked, each with its key; the next kept replaces
    /// the entry `next_trace`.
    pub(super) traces: [Option<(TraceKey, Swept)>; KEPT_TRACES],
    pub(super) next_trace: usize,
    /// The liquids of the map whose point contents are the world's.
    pub(super) liquids: Option<Liquids>,
}

/// One `PM_SetWaterLevel` and what it was computed from.
#[derive(Clone, Copy, Debug)]
pub(super) struct WaterSample {
    /// The contents id of the map whose point contents answered.
    pub world: u64,
    pub origin: [u32; 3],
    pub view_height: i32,
    pub mins_z: u32,
    pub level: u8,
    pub water_type: Contents,
}

/// What a trace was asked: the contents id of the map that is the whole world, the mask
/// and which box (ducked or not), and the two points' bits, packed in five words: each
/// input's bits in a place of their own, so equal keys are equal inputs. Compared as five
/// integers (the fields' derived comparison called `memcmp` for the points: with the
/// lookup around it about 4 % of a Quake 3 tick on kaos, perf).
#[derive(Clone, Copy, Debug)]
pub(super) struct TraceKey([u64; 5]);

impl PartialEq for TraceKey {
    /// Word by word, folded without a branch or a call (an array's derived comparison
    /// calls `memcmp`).
    fn eq(&self, other: &TraceKey) -> bool {
        let [a, b] = [&self.0, &other.0];
        (a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3]) | (a[4] ^ b[4]) == 0
    }
}

impl Eq for TraceKey {}

impl TraceKey {
    /// The key of a trace from `start` to `end` of the box `ducked` picks, among what
    /// `mask` names, in the world whose map has contents id `world`.
    pub(super) fn new(world: u64, mask: Contents, ducked: bool, start: Vec3, end: Vec3) -> TraceKey {
        let [sx, sy, sz] = bits(start).map(u64::from);
        let [ex, ey, ez] = bits(end).map(u64::from);
        TraceKey([
            world,
            u64::from(mask.0) | (u64::from(ducked) << 32),
            (sx << 32) | sy,
            (sz << 32) | ex,
            (ey << 32) | ez,
        ])
    }
}

/// Traces kept: the last command's, about (a command sweeps two to eight times; a player
/// pressed against a wall or standing asks the same ones again with velocities the game
/// rounds to whole units).
pub(super) const KEPT_TRACES: usize = 8;

/// The two boxes and the numbers they were made from.
pub(super) type Boxes = ([u32; 4], PlayerBox, PlayerBox);

impl Memo {
    /// The kept answer of the trace `key`, looked for from the newest kept (a key is kept
    /// once: the answer does not depend on the order). The command's first ground trace,
    /// the trace found most often, is the last one kept by the command before.
    pub(super) fn trace(&self, key: &TraceKey) -> Option<Swept> {
        for back in 1..=KEPT_TRACES {
            let slot = (self.next_trace + KEPT_TRACES - back) % KEPT_TRACES;
            if let Some(Some((k, t))) = self.traces.get(slot)
                && k == key
            {
                return Some(*t);
            }
        }
        None
    }

    /// Keeps `trace` as the answer of `key`, over the oldest kept.
    pub(super) fn keep_trace(&mut self, key: TraceKey, trace: Swept) {
        self.traces[self.next_trace] = Some((key, trace));
        self.next_trace = (self.next_trace + 1) % KEPT_TRACES;
    }

    /// Whether no point of `map` has liquid contents: no leaf's contents and no brush's
    /// (a point's contents are its leaf's, or those of the leaf's brushes it is inside:
    /// `CompiledMap::point_contents`), found once per map with its liquids' bounds.
    pub(super) fn is_dry(&mut self, map: &CompiledMap) -> bool {
        match &self.liquids {
            Some(kept) if kept.is_of(map.contents_id()) => kept.dry,
            _ => {
                let liquids = Liquids::of(map);
                let dry = liquids.dry;
                self.liquids = Some(liquids);
                dry
            }
        }
    }

    /// The boxes for the numbers `key`, taken out for a command (the caller puts them
    /// back): the kept ones, or made by `make` when the numbers differ (forgetting the
    /// traces, which boxes made anew may answer otherwise); `None` when planeshift refuses a
    /// box.
    pub(super) fn take_boxes(
        &mut self,
        key: [u32; 4],
        make: impl FnOnce() -> Option<(PlayerBox, PlayerBox)>,
    ) -> Option<Box<Boxes>> {
        match self.boxes.take() {
            Some(kept) if kept.0 == key => Some(kept),
            _ => {
                self.traces = [None; KEPT_TRACES];
                let (stand, crouch) = make()?;
                Some(Box::new((key, stand, crouch)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TraceKey;
    use crate::contents::Contents;
    use glam::Vec3;

    /// Each input has its own bits in the packed key: changing any one of them (the world,
    /// the mask's top bit, the box, one coordinate of either point, a zero's sign) changes
    /// the key, and the same inputs give the same key.
    #[test]
    fn trace_keys_are_equal_exactly_when_every_input_is() {
        let (a, b) = (Vec3::new(1.0, -2.0, 3.5), Vec3::new(1.0, -2.0, -0.25));
        let mask = Contents::MASK_PLAYER_SOLID;
        let key = TraceKey::new(7, mask, false, a, b);
        assert_eq!(key, TraceKey::new(7, mask, false, a, b));
        let others = [
            TraceKey::new(8, mask, false, a, b),
            TraceKey::new(7, Contents(mask.0 | 1 << 31), false, a, b),
            TraceKey::new(7, mask, true, a, b),
            TraceKey::new(7, mask, false, b, a),
            TraceKey::new(7, mask, false, a.with_x(1.5), b),
            TraceKey::new(7, mask, false, a, b.with_y(-2.5)),
            TraceKey::new(7, mask, false, a, b.with_z(0.25)),
            TraceKey::new(7, mask, false, Vec3::ZERO, b),
            TraceKey::new(7, mask, false, Vec3::new(-0.0, 0.0, 0.0), b),
        ];
        for (i, other) in others.iter().enumerate() {
            assert_ne!(key, *other, "change {i}");
        }
        assert_ne!(others[7], others[8], "a zero's sign");
    }
}
