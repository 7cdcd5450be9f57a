//! A crate's C header as cbindgen generates it, for the test that keeps a checked-in header
//! equal to its source (planeshift-c's `tests/header.rs`).
//!
//! Takes a crate's directory holding its `cbindgen.toml`; gives the header's text, or the
//! reason it could not be generated. Guarantees: nothing is written; the text is exactly
//! what `cbindgen` writes for that crate and configuration.

use std::path::Path;

/// The header cbindgen generates for the crate at `crate_dir` with its `cbindgen.toml`.
///
/// # Errors
/// The configuration is unreadable, the crate does not parse, or the output is not UTF-8.
pub fn generate(crate_dir: &Path) -> Result<String, String> {
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .map_err(|e| format!("cbindgen.toml: {e}"))?;
    let mut header = Vec::new();
    cbindgen::Builder::new()
        .with_crate(crate_dir)
        .with_config(config)
        .generate()
        .map_err(|e| format!("cbindgen: {e}"))?
        .write(&mut header);
    String::from_utf8(header).map_err(|e| format!("the header is not UTF-8: {e}"))
}
