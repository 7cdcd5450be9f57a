//! Half-Life's rules: a texture's contents by its name's prefix, a brush's from its first
//! face, what `func_water`, `func_illusionary` and `func_ladder` make of their brushes, and
//! the current enum of a `!cur_*` texture.
//!
//! Takes texture and class names; gives [`Contents`] and Half-Life's `CONTENTS_*` values.
//! Guarantees: the rules are Half-Life's `utils/qcsg/brush.c` (`TextureContents`,
//! `BrushContents`).

use crate::contents::Contents;
use crate::map::MapFace;


/// Half-Life's currents, in `qcsg`'s order.
const HALF_LIFE_CURRENTS: [&str; 6] = [
    "!cur_90", "!cur_0", "!cur_270", "!cur_180", "!cur_up", "!cur_dwn",
];

/// A Half-Life texture's contents (Half-Life `utils/qcsg/brush.c` `TextureContents`, by
/// case-insensitive prefix, in its order): `sky` is sky, a `!cur_*` current is water with
/// [`Contents::CURRENT`], any other `!` water, `origin` a pivot, `clip` player clip
/// (Half-Life's clip hulls only), `translucent` and `@` solid and translucent, the rest solid.
#[must_use]
pub fn half_life_texture_contents(texture: &str) -> Contents {
    let lower = texture.to_ascii_lowercase();
    if lower.starts_with("sky") {
        Contents::SKY
    } else if HALF_LIFE_CURRENTS.iter().any(|c| lower.starts_with(c)) {
        Contents::WATER | Contents::CURRENT
    } else if lower.starts_with('!') {
        Contents::WATER
    } else if lower.starts_with("origin") {
        Contents::ORIGIN
    } else if lower.starts_with("clip") {
        Contents::PLAYERCLIP
    } else if lower.starts_with("translucent") || lower.starts_with('@') {
        Contents::SOLID | Contents::TRANSLUCENT
    } else {
        Contents::SOLID
    }
}

/// The contents of a Half-Life brush made of `faces`: its first face's
/// (`qcsg/brush.c` `BrushContents`).
pub(crate) fn half_life_brush_contents(faces: &[MapFace]) -> Contents {
    faces
        .first()
        .map_or(Contents::EMPTY, |f| half_life_texture_contents(&f.texture))
}

/// What a Half-Life brush entity makes of its brushes' contents: `func_water` is water
/// (keeping a current), `func_illusionary` nothing, `func_ladder` a ladder; none of them
/// blocks. Other classes keep `contents`; origin brushes stay pivots.
#[must_use]
pub fn half_life_entity_contents(classname: &str, contents: Contents) -> Contents {
    if contents.contains(Contents::ORIGIN) {
        return contents;
    }
    if classname.eq_ignore_ascii_case("func_water") {
        Contents::WATER | contents.intersection(Contents::CURRENT)
    } else if classname.eq_ignore_ascii_case("func_illusionary") {
        Contents::EMPTY
    } else if classname.eq_ignore_ascii_case("func_ladder") {
        Contents::LADDER
    } else {
        contents
    }
}

/// Half-Life's current enum for a `!cur_*` texture (`CONTENTS_CURRENT_0` −9 through
/// `CONTENTS_CURRENT_DOWN` −14), by the direction its name gives.
pub(crate) fn half_life_current(texture: &str) -> Option<i32> {
    const VALUES: [(&str, i32); 6] = [
        ("!cur_90", -10),
        ("!cur_0", -9),
        ("!cur_270", -12),
        ("!cur_180", -11),
        ("!cur_up", -13),
        ("!cur_dwn", -14),
    ];
    let lower = texture.to_ascii_lowercase();
    VALUES
        .iter()
        .find(|(prefix, _)| lower.starts_with(prefix))
        .map(|(_, value)| *value)
}
