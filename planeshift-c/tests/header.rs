//! The checked-in header equals a fresh cbindgen generation from `src/`: CI fails when a
//! signature changed and `include/planeshift.h` did not (`PLANESHIFT_BLESS=1 cargo test -p
//! planeshift-c --test header` rewrites it).

use std::path::Path;

#[test]
fn the_checked_in_header_is_a_fresh_generation() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fresh = planeshift_testkit::c_header::generate(crate_dir)
        .unwrap_or_else(|e| panic!("generating the header: {e}"));
    let path = crate_dir.join("include/planeshift.h");
    if std::env::var_os("PLANESHIFT_BLESS").is_some() {
        std::fs::write(&path, &fresh).expect("write the header");
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == fresh,
        "include/planeshift.h differs from a fresh cbindgen generation: run \
         PLANESHIFT_BLESS=1 cargo test -p planeshift-c --test header and commit it"
    );
    for name in [
        "ps_level_load_file",
        "ps_level_trace",
        "ps_character_step",
        "ps_replay_tick",
        "PS_ABI_VERSION",
    ] {
        assert!(fresh.contains(name), "the header lacks {name}");
    }
    println!(
        "header: {} lines, equal to a fresh generation",
        fresh.lines().count()
    );
}
