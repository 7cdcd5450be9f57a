//! Stage 1: `.map` text to [`MapFile`]; syntax only, no geometry.
//!
//! Takes the bytes of a Quake-family `.map` file in any dialect editors write (Quake
//! standard, Valve 220, Quake 2/3 face triples, Hexen 2, Daikatana, Quake 3 `brushDef` and
//! `patchDef2`), gives a [`MapFile`] with source locations, or a [`ParseError`] with the
//! line and column of the first fault. Guarantees: no panic and no partial result on any
//! input; every number is finite; [`write_map`] prints a file that reads back equal.

mod error;
mod grammar;
mod syntax;
mod write;

pub use error::{ParseError, ParseErrorKind};
pub use syntax::{
    BrushSyntax, FaceExtension, MapBrush, MapEntity, MapFace, MapFile, MapPatch, SourceLoc,
    SurfaceTriple, TextureMapping,
};
pub(crate) use syntax::{PLAYER_SPAWN_CLASSES, angles_of, origin_of, property};
pub use write::write_map;

/// Reads a `.map` file from its bytes.
///
/// Bytes that are not UTF-8 inside strings and texture names are kept one char per byte.
///
/// # Errors
/// The first syntax error, with its 1-based line and byte column.
///
/// # Examples
/// ```
/// let map = planeshift::map::parse_map(br#"{ "classname" "worldspawn" }"#).unwrap();
/// assert_eq!(map.entities[0].classname(), "worldspawn");
/// ```
pub fn parse_map(src: &[u8]) -> Result<MapFile, ParseError> {
    grammar::parse(src)
}

/// The dialect features a file uses, for reports: `standard`, `valve220`, `brushdef`,
/// `quake2`, `hexen2`, `daikatana`, `patchdef`, in that order.
#[must_use]
pub fn formats(map: &MapFile) -> Vec<&'static str> {
    let mut seen = [false; 7];
    for face in map.brushes().flat_map(|b| b.faces.iter()) {
        match face.mapping {
            TextureMapping::Standard { .. } => seen[0] = true,
            TextureMapping::Valve220 { .. } => seen[1] = true,
            TextureMapping::BrushPrimitive { .. } => seen[2] = true,
        }
        match face.extension {
            FaceExtension::None => {}
            FaceExtension::Quake2(_) => seen[3] = true,
            FaceExtension::Hexen2(_) => seen[4] = true,
            FaceExtension::Daikatana(..) => seen[5] = true,
        }
    }
    seen[6] = map.entities.iter().any(|e| !e.patches.is_empty());
    const NAMES: [&str; 7] = [
        "standard",
        "valve220",
        "brushdef",
        "quake2",
        "hexen2",
        "daikatana",
        "patchdef",
    ];
    NAMES
        .iter()
        .zip(seen)
        .filter_map(|(name, on)| on.then_some(*name))
        .collect()
}
