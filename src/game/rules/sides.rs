//! The side rules: what each face's surface means, per game, as [`SurfaceFlags`].
//!
//! Takes a face (its texture and its Quake 2 triple) and the game; gives the side's surface
//! flags. These are the only side rules; the compiler stores their result per side and the
//! sweeps report it. Guarantees: a pure function of the face, the game and (Quake 3) the
//! shader set.
//!
//! - Quake 3: the surface flags of the face's shader (`surfaceparm`s; a texture without a
//!   shader has none), as q3map2 writes them into the `.bsp`'s shader lump.
//! - Quake 2: the face triple's flags word (`qfiles.h` `SURF_*`), translated
//!   ([`SurfaceFlags::from_quake2`]). The brush stage first gives a face without a triple
//!   its texture's defaults (`.wal` header or built-in table, `game/q2_textures.rs`); a
//!   face that still has none has no flags.
//! - Quake and Half-Life, which have no surface flags, by texture name (as the engines treat
//!   them): sky textures are [`SurfaceFlags::SKY`], liquids ([`SurfaceFlags::WARP`]) warp,
//!   tool textures are not drawn ([`SurfaceFlags::NODRAW`], plus [`SurfaceFlags::HINT`] or
//!   [`SurfaceFlags::SKIP`] for those), and Half-Life's `{` textures are alpha-tested.

use super::quake::{TextureClass, base_name, classify_texture};
use crate::game::{Game, ShaderSet};
use crate::map::MapFace;
use crate::surface::SurfaceFlags;

/// Tool textures that are never drawn, by base name (Quake and Half-Life).
const NODRAW_TOOLS: [&str; 8] = [
    "clip",
    "trigger",
    "aaatrigger",
    "origin",
    "null",
    "bevel",
    "nodraw",
    "hintskip",
];

/// The surface flags of `face` by `game`'s side rules.
pub(crate) fn side_surface(game: Game, face: &MapFace, shaders: &ShaderSet) -> SurfaceFlags {
    match game {
        Game::Quake3 => SurfaceFlags::from_quake3(shaders.texture_flags(&face.texture).surface),
        // The flags are a 32-bit word in every game that writes them.
        Game::Quake2 => face
            .extension
            .triple()
            .map_or(SurfaceFlags::EMPTY, |t| SurfaceFlags::from_quake2(t.flags as u32)),
        Game::Quake | Game::HalfLife => named_surface(game, &face.texture),
    }
}

/// Quake's and Half-Life's surface flags from a texture name.
fn named_surface(game: Game, texture: &str) -> SurfaceFlags {
    let base = base_name(texture);
    let lower = texture.to_ascii_lowercase();
    let mut flags = SurfaceFlags::EMPTY;
    if base.starts_with("sky") {
        flags |= SurfaceFlags::SKY;
    }
    let liquid = match game {
        Game::HalfLife => lower.starts_with('!'),
        _ => matches!(classify_texture(texture), TextureClass::Liquid(_)),
    };
    if liquid {
        flags |= SurfaceFlags::WARP;
    }
    if NODRAW_TOOLS.contains(&base.as_str()) || base == "hint" || base == "skip" {
        flags |= SurfaceFlags::NODRAW;
    }
    if base == "hint" {
        flags |= SurfaceFlags::HINT;
    }
    if base == "skip" || base == "hintskip" {
        flags |= SurfaceFlags::SKIP;
    }
    if game == Game::HalfLife && lower.starts_with('{') {
        flags |= SurfaceFlags::ALPHATEST;
    }
    flags
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quake_and_half_life_names() {
        assert_eq!(named_surface(Game::Quake, "sky4"), SurfaceFlags::SKY);
        assert_eq!(named_surface(Game::Quake, "*water1"), SurfaceFlags::WARP);
        assert_eq!(named_surface(Game::Quake, "e1u1/clip"), SurfaceFlags::NODRAW);
        assert_eq!(
            named_surface(Game::Quake, "hint"),
            SurfaceFlags::NODRAW | SurfaceFlags::HINT
        );
        assert_eq!(named_surface(Game::Quake, "city4_6"), SurfaceFlags::EMPTY);
        assert_eq!(named_surface(Game::HalfLife, "!cur_90"), SurfaceFlags::WARP);
        assert_eq!(named_surface(Game::HalfLife, "{fence"), SurfaceFlags::ALPHATEST);
        assert_eq!(named_surface(Game::HalfLife, "AAATRIGGER"), SurfaceFlags::NODRAW);
    }
}
