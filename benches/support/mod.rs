//! What the benches share: where the real maps are, and a seeded PCG32 so every run measures
//! the same inputs (glam's `benches/support.rs` pattern).
//!
//! Takes `$PLANESHIFT_REAL_MAPS` (default `../shared/maps` beside the repository; this package
//! sits in the repository's `benches/`, so paths go one level up); gives map
//! paths and reproducible random numbers. Not every bench uses every item.
#![allow(dead_code)]

pub mod episodes;

use std::path::{Path, PathBuf};

/// The folder of real maps: `$PLANESHIFT_REAL_MAPS`, default `../shared/maps`.
pub fn real_maps_dir() -> PathBuf {
    std::env::var_os("PLANESHIFT_REAL_MAPS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/maps"))
}

/// A real map by its path under the folder, if present.
pub fn real_map(name: &str) -> Option<PathBuf> {
    let path = real_maps_dir().join(name);
    path.exists().then_some(path)
}

/// A map bundled in `maps/`.
pub fn bundled_map(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../maps")
        .join(name)
}

/// PCG32, seeded: the same numbers every run.
pub struct Pcg32(pub u64);

impl Pcg32 {
    /// Uniform in `[0, 1)`.
    pub fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let x = (((self.0 >> 18) ^ self.0) >> 27) as u32;
        let r = x.rotate_right((self.0 >> 59) as u32);
        r as f32 / 4_294_967_296.0
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }
}
