//! Quake's rules (and the texture classes Quake's tools share with its descendants): what a
//! texture name says about its brush, a Quake brush's contents, and what a Quake 1 family
//! `.bsp` leaf's contents value means.
//!
//! Takes texture names, faces and leaf values; gives [`Contents`] and the engine's
//! `CONTENTS_*` enum (`bspfile.h`). Guarantees: a `.map` brush and the `.bsp` leaf a
//! compiler made of it get the same contents here (the compiler's enum read back by
//! [`leaf_contents`] is what [`engine_enum`] writes).

use crate::contents::Contents;
use crate::game::Game;
use crate::map::MapFace;

/// What a texture name says about its brush.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TextureClass {
    /// A `*` liquid with its contents.
    Liquid(Contents),
    /// `trigger`, `hint`, `hintskip` or `origin`: not solid, no contents.
    NonSolidTool,
    /// `sky*`.
    Sky,
    /// `clip`.
    Clip,
    /// Everything else.
    Solid,
}

/// The texture's base name: lowercase, after the last folder separator, without a `tools`
/// prefix when something follows it.
pub(crate) fn base_name(texture: &str) -> String {
    let lower = texture.to_ascii_lowercase();
    let base = lower.rsplit(['/', '\\']).next().unwrap_or(&lower);
    match base.strip_prefix("tools") {
        Some(rest) if !rest.is_empty() => rest.to_owned(),
        _ => base.to_owned(),
    }
}

pub(crate) fn classify_texture(texture: &str) -> TextureClass {
    let full = texture.to_ascii_lowercase();
    let base = base_name(texture);
    let names = [full.as_str(), base.as_str()];
    if let Some(liquid) = names.iter().find(|n| n.starts_with('*')) {
        let contents = if liquid.contains("lava") {
            Contents::LAVA
        } else if liquid.contains("slime") {
            Contents::SLIME
        } else {
            Contents::WATER
        };
        return TextureClass::Liquid(contents);
    }
    if names
        .iter()
        .any(|n| matches!(*n, "trigger" | "hint" | "hintskip" | "origin"))
    {
        return TextureClass::NonSolidTool;
    }
    if names.contains(&"clip") {
        return TextureClass::Clip;
    }
    if names.iter().any(|n| n.starts_with("sky")) {
        return TextureClass::Sky;
    }
    TextureClass::Solid
}

/// The contents of a brush made of `faces`, by the rules above (entity class aside).
pub(crate) fn brush_contents<'a>(faces: impl Iterator<Item = &'a MapFace> + Clone) -> Contents {
    let classes = faces.clone().map(|f| classify_texture(&f.texture));
    let all_non_solid = classes
        .clone()
        .all(|c| matches!(c, TextureClass::Liquid(_) | TextureClass::NonSolidTool));
    if all_non_solid {
        return classes.fold(Contents::EMPTY, |acc, c| match c {
            TextureClass::Liquid(liquid) => acc.union(liquid),
            _ => acc,
        });
    }
    let triples: Vec<i64> = faces
        .filter_map(|f| f.extension.triple().map(|t| t.contents))
        .collect();
    if !triples.is_empty() {
        // Contents are a 32-bit field in every game that writes them; higher bits are noise.
        let bits = triples.iter().fold(0u32, |acc, &c| acc | (c as u32));
        let bits = bits & Contents::QUAKE2_SOLIDITY_MASK;
        return if bits == 0 {
            Contents::SOLID
        } else {
            Contents(bits)
        };
    }
    if classes.clone().any(|c| c == TextureClass::Clip) {
        Contents::PLAYERCLIP
    } else if classes.clone().any(|c| c == TextureClass::Sky) {
        Contents::SKY
    } else {
        Contents::SOLID
    }
}

/// Whether `texture` is the `origin` tool texture (an entity's rotation pivot brush).
#[must_use]
pub fn is_origin_texture(texture: &str) -> bool {
    texture.eq_ignore_ascii_case("origin") || base_name(texture) == "origin"
}

/// Quake's and Half-Life's `CONTENTS_*` enum for translated contents (`bspfile.h`): the
/// first of origin −7, clip −8, ladder −16, translucent −15, lava −5, slime −4, water −3,
/// sky −6, solid −2; empty −1.
pub(crate) fn engine_enum(contents: Contents) -> i32 {
    const ORDER: [(Contents, i32); 9] = [
        (Contents::ORIGIN, -7),
        (Contents::PLAYERCLIP, -8),
        (Contents::LADDER, -16),
        (Contents::TRANSLUCENT, -15),
        (Contents::LAVA, -5),
        (Contents::SLIME, -4),
        (Contents::WATER, -3),
        (Contents::SKY, -6),
        (Contents::SOLID, -2),
    ];
    ORDER
        .iter()
        .find(|(bit, _)| contents.intersects(*bit))
        .map_or(-1, |(_, value)| *value)
}

/// `CONTENTS_EMPTY`: open space.
const EMPTY: i32 = -1;
/// `CONTENTS_ORIGIN`: a pivot, removed by the compiler (never collides).
const ORIGIN: i32 = -7;

/// The contents of a leaf of value `value` in a file of `game`; `None` when the leaf makes
/// no brush. An unknown value is solid (engines treat any non-empty leaf as blocking the
/// clip hulls).
pub(crate) fn leaf_contents(value: i32, game: Game) -> Option<(Contents, u32)> {
    let contents = match value {
        EMPTY | ORIGIN => return None,
        -2 => Contents::SOLID,
        -3 => Contents::WATER,
        -4 => Contents::SLIME,
        -5 => Contents::LAVA,
        -6 => Contents::SKY,
        -8 => Contents::PLAYERCLIP,
        -14..=-9 if game == Game::HalfLife => Contents::WATER | Contents::CURRENT,
        -15 if game == Game::HalfLife => Contents::SOLID | Contents::TRANSLUCENT,
        -16 if game == Game::HalfLife => Contents::LADDER,
        _ => Contents::SOLID,
    };
    Some((contents, value as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texture_names_classify_by_full_and_base_name() {
        assert_eq!(
            classify_texture("*LAVA1"),
            TextureClass::Liquid(Contents::LAVA)
        );
        assert_eq!(
            classify_texture("e1u1/*slime"),
            TextureClass::Liquid(Contents::SLIME)
        );
        assert_eq!(
            classify_texture("*04water1"),
            TextureClass::Liquid(Contents::WATER)
        );
        assert_eq!(
            classify_texture("common/trigger"),
            TextureClass::NonSolidTool
        );
        assert_eq!(
            classify_texture("tools/toolstrigger"),
            TextureClass::NonSolidTool
        );
        assert_eq!(classify_texture("HINTSKIP"), TextureClass::NonSolidTool);
        assert_eq!(classify_texture("common/clip"), TextureClass::Clip);
        assert_eq!(classify_texture("sky4"), TextureClass::Sky);
        assert_eq!(classify_texture("common/botclip"), TextureClass::Solid);
        assert_eq!(classify_texture("{trigger"), TextureClass::Solid);
        assert_eq!(classify_texture("tools"), TextureClass::Solid);
    }
}
