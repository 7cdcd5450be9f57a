//! The entities lump: NUL-terminated text of `{ "key" "value" }` blocks, read by the `.map`
//! grammar.
//!
//! Takes the lump's bytes; gives a [`MapFile`] whose entities have no brushes (a brush
//! entity keeps its `"model" "*k"` key). Guarantees: text past the first NUL is ignored, and
//! a syntax error is an [`ImportError`] naming the `entities` lump with its line and column.

use super::{ImportError, Lump, Lumps};
use crate::map::{MapFile, parse_map};

/// The entities of `lump`.
pub(crate) fn entities_from_lump(lumps: &Lumps<'_>, lump: Lump) -> Result<MapFile, ImportError> {
    let bytes = lumps.bytes(lump)?;
    let text = bytes.split(|&b| b == 0).next().unwrap_or(&[]);
    parse_map(text).map_err(|e| lumps.error(lump.name, e.to_string()))
}
