//! Seeded mutations of Quake 2 (IBSP 38, Qbism QBSP 38) and Quake 3 (IBSP 46) `.bsp` files, as
//! `quake1_bsp.rs` does for the Quake 1 family (issue 26): byte flips, truncations, huge or
//! negative lump offsets and lengths, huge values in records, non-finite planes. No panic;
//! every error is an `ImportError` naming its lump (or the header); the slowest import and
//! the errors by lump are printed.

use std::collections::BTreeMap;

use planeshift::{
    build::{BspFormat, ImportError},
    import::read_brushes,
};

use crate::support::{BspLayout, Pcg32, mutate_bsp, read, real_maps_dir};

/// Mutated files per format: 1,000, and the 10,000 with `PLANESHIFT_FULL`
/// (`support::cases`). Each import of a whole level takes milliseconds in the test profile,
/// so the default keeps the suite near CI's budget.
fn fuzz_count() -> usize {
    crate::support::cases(1_000, 10_000)
}

/// The files mutated: a small level of each format, with the directory's offset and its
/// planes lump's index (`qfiles.h` `LUMP_PLANES` 1; Quake 3 `qfiles.h` `LUMP_PLANES` 2).
const FILES: [(&str, BspFormat, usize); 3] = [
    ("qbsp/example-quake2.bsp", BspFormat::Ibsp38, 1),
    ("qbsp/example-qbism.bsp", BspFormat::Qbsp38, 1),
    ("openarena-lostlevels/q3dm6ish.bsp", BspFormat::Ibsp46, 2),
];

/// Where the lump directory starts: after the magic and the version.
const DIRECTORY_AT: usize = 8;

#[test]
fn mutated_quake2_and_quake3_files_fail_cleanly() {
    let Some(dir) = real_maps_dir("mutated_quake2_and_quake3_files_fail_cleanly") else {
        return;
    };
    let count = fuzz_count();
    for (name, format, planes_lump) in FILES {
        let original = read(&dir.join(name));
        assert_eq!(BspFormat::detect(&original), Some(format), "{name}");
        let lumps = match format {
            BspFormat::Ibsp38 | BspFormat::Qbsp38 => 19,
            _ => 17,
        };
        let mut rng = Pcg32::new(format as u64 + 38);
        let (mut errors, mut ok) = (BTreeMap::<String, usize>::new(), 0usize);
        let mut slowest = (0.0f64, String::new());
        for case in 0..count {
            let mut bytes = original.clone();
            let kind = mutate_bsp(
                &mut rng,
                &mut bytes,
                &BspLayout {
                    directory_at: DIRECTORY_AT,
                    lumps,
                    planes_lump,
                },
            );
            let clock = std::time::Instant::now();
            let result = read_brushes(&bytes);
            let seconds = clock.elapsed().as_secs_f64();
            if seconds > slowest.0 {
                slowest = (seconds, format!("case {case} ({kind})"));
            }
            match result {
                Ok(_) => ok += 1,
                Err(ImportError::Lump { lump, .. }) => {
                    assert!(!lump.is_empty(), "{name} case {case}");
                    *errors.entry(lump.to_owned()).or_default() += 1;
                }
                Err(ImportError::UnknownFormat) => {
                    *errors
                        .entry("header (unknown format)".to_owned())
                        .or_default() += 1;
                }
                Err(e) => panic!("{name} case {case} ({kind}): an error naming no lump: {e}"),
            }
        }
        println!(
            "{name} ({}): {count} mutated files, {ok} imported, errors by lump {errors:?}; slowest import {:.2} ms ({})",
            format.name(),
            slowest.0 * 1e3,
            slowest.1
        );
        assert!(ok > 0, "{name}: no mutation kept a readable file");
        assert!(!errors.is_empty(), "{name}: every mutation was read");
    }
}
