//! The Quake 3 (IBSP 46) importer (being written): takes the file's bytes, gives an
//! [`ImportedLevel`](super::ImportedLevel).

use super::{BspFormat, ImportError, ImportedLevel};

/// Reads a Quake 3 (IBSP 46) file.
pub(super) fn read(
    bytes: &[u8],
    format: BspFormat,
    patch_tolerance: f64,
) -> Result<ImportedLevel, ImportError> {
    let _ = (bytes, patch_tolerance);
    Err(ImportError::Lump {
        format: format.name(),
        lump: "header",
        problem: "this format's importer is not written yet".to_owned(),
    })
}
