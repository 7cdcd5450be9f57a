//! Currents: which way the liquid at a point flows (Quake 2 `CONTENTS_CURRENT_0` through
//! `CONTENTS_CURRENT_DOWN`, Half-Life `!cur_*` textures).
//!
//! Takes a point; gives the sum of the unit directions of the currents whose brushes hold
//! it, each direction counted once however many brushes carry it (Quake 2 `PM_AddCurrents`
//! ORs the bits first). Reads each brush's raw game contents
//! ([`CompiledBrush::game_contents`]): Quake 2's bits `0x4_0000 << k` or Half-Life's enum
//! −9..−14, for k = 0°, 90°, 180°, 270°, up, down. Guarantees: no allocation; model 0 only.

use glam::Vec3;

use super::{CompiledBrush, CompiledMap};
use crate::contents::Contents;

/// The six current directions in Quake 2's bit order (`q_shared.h` `CONTENTS_CURRENT_0`,
/// `_90`, `_180`, `_270`, `_UP`, `_DOWN`).
const DIRECTIONS: [Vec3; 6] = [
    Vec3::X,
    Vec3::Y,
    Vec3::NEG_X,
    Vec3::NEG_Y,
    Vec3::Z,
    Vec3::NEG_Z,
];

/// Quake 2's lowest current bit, `CONTENTS_CURRENT_0`.
const QUAKE2_CURRENT_0: u32 = 0x4_0000;

/// Half-Life's `CONTENTS_CURRENT_0` (−9); the other five follow downwards to −14.
const HALF_LIFE_CURRENT_0: i32 = -9;

/// Which of the six directions (bit k for [`DIRECTIONS`]`[k]`) a brush's game contents say.
fn direction_bits(game_contents: u32) -> u32 {
    // Half-Life's enum is stored as the i32's bits.
    let as_enum = game_contents.cast_signed();
    let k = HALF_LIFE_CURRENT_0 - as_enum;
    if (0..6).contains(&k) {
        return 1 << k;
    }
    if as_enum < 0 {
        // Another Half-Life enum value: no current.
        return 0;
    }
    (game_contents / QUAKE2_CURRENT_0) & 0x3f
}

impl CompiledMap {
    /// The summed unit directions of the currents at `p` (zero where there is none), in
    /// the world model.
    ///
    /// ```
    /// # use planeshift::CompiledMap;
    /// # fn f(map: &CompiledMap) {
    /// let push = map.point_current(glam::Vec3::new(0.0, 0.0, 8.0));
    /// # let _ = push; }
    /// ```
    #[must_use]
    pub fn point_current(&self, p: Vec3) -> Vec3 {
        let Some(leaf) = self.leaf_at(0, p) else {
            return Vec3::ZERO;
        };
        if !leaf.contents.contains(Contents::CURRENT) {
            return Vec3::ZERO;
        }
        let mut bits = 0;
        for &b in self.leaf_brush_ids(leaf) {
            let Some(brush) = self.brushes().get(b as usize) else {
                continue;
            };
            if brush.contents.contains(Contents::CURRENT) && self.brush_holds(brush, p) {
                bits |= direction_bits(brush.game_contents);
            }
        }
        DIRECTIONS
            .iter()
            .enumerate()
            .filter(|(k, _)| bits & (1 << k) != 0)
            .map(|(_, d)| *d)
            .sum()
    }

    /// Whether `p` is inside `brush` (on a face counts).
    fn brush_holds(&self, brush: &CompiledBrush, p: Vec3) -> bool {
        let faces = self.brush_sides(brush).iter().filter(|s| !s.bevel);
        faces.into_iter().all(|side| {
            self.planes()
                .get(side.plane as usize)
                .is_some_and(|plane| plane.distance(p) <= 0.0)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quake2_bits_and_half_life_enum_give_directions() {
        assert_eq!(direction_bits(0x4_0000 | 0x20), 1);
        assert_eq!(direction_bits(0x10_0000 | 0x40_0000), 0b10100);
        assert_eq!(direction_bits((-9i32).cast_unsigned()), 1);
        assert_eq!(direction_bits((-14i32).cast_unsigned()), 1 << 5);
        assert_eq!(direction_bits((-3i32).cast_unsigned()), 0);
    }
}
