//! The water level: three point-contents samples at the feet, the waist and the eyes (Quake 3
//! `bg_pmove.c PM_SetWaterLevel`), and the memo that lets a tick reuse the last sample where
//! the character has not moved.
//!
//! Takes the world's point contents through the [`Tracer`](super::Tracer), the feet and the eye height;
//! gives a [`WaterMemo`]: the level (0 dry, 1 feet, 2 waist, 3 eyes), the liquid at the lowest
//! wet sample and everything at the samples. Guarantees: the samples stop at the first dry
//! one, as Quake 3's; no allocation.

use glam::Vec3;

use super::tracer::Sweeps;
use crate::contents::Contents;

/// Quake 3 samples the lowest point one unit above the feet (`MINS_Z + 1`).
pub(crate) const FEET_SAMPLE: f32 = 1.0;

/// A water-level sample and where it was taken.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WaterMemo {
    /// The identity of the world's contents ([`SpeedFacts::contents_are_map`](super::SpeedFacts::contents_are_map)) (set when the memo is kept).
    pub(crate) world: u64,
    /// The feet.
    pub(crate) feet: Vec3,
    /// The eye height above the feet.
    pub(crate) eye: f32,
    /// The water level, 0 to 3.
    pub(crate) level: u8,
    /// The liquid at the lowest wet sample.
    pub(crate) liquid: Contents,
    /// Everything at the sample points.
    pub(crate) contents: Contents,
}

/// The water level at `feet` with the eyes `eye` above them (Quake 3 `PM_SetWaterLevel`).
pub(crate) fn sample_water<T: Sweeps + ?Sized>(world: &T, feet: Vec3, eye: f32) -> WaterMemo {
    let heights = [FEET_SAMPLE, (0.5 * eye).floor(), eye];
    let mut level = 0u8;
    let mut liquid = Contents::EMPTY;
    let mut all = Contents::EMPTY;
    let samples = world.contents3(heights.map(|h| feet + Vec3::Z * h));
    for (k, here) in samples.into_iter().enumerate() {
        all |= here;
        let wet = here.intersection(Contents::MASK_LIQUID);
        if wet.is_empty() || usize::from(level) != k {
            continue;
        }
        if k == 0 {
            liquid = wet;
        }
        level += 1;
    }
    WaterMemo {
        world: 0,
        feet,
        eye,
        level,
        liquid,
        contents: all,
    }
}

/// A point's coordinates as bits (a sample is reused only at exactly the same place).
pub(crate) fn bits(p: Vec3) -> [u32; 3] {
    p.to_array().map(f32::to_bits)
}
