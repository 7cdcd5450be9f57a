//! The solidity rules: which brushes belong to the world and what each is made of.
//!
//! Takes entity class names, texture names and face triples, gives [`Contents`] and
//! ownership. These are the only rules; the compiler, the sweeps and every test use them.
//! How a brush's faces combine is the game's ([`Game`](crate::Game), detected from the map
//! or given by `CompileOptions::game`); ownership and triggers are the same for every game.
//! A current's direction and the raw game contents are not kept yet (a later step; the
//! compiled file is unchanged): a current is [`Contents::CURRENT`].
//!
//! Quake ([`Game::Quake`](crate::Game::Quake)):
//!
//! - A brush belongs to the world when its entity is `worldspawn`, `func_group`,
//!   `func_detail` or `func_detail_wall`, or when it stands outside any entity.
//! - It is not solid when every face's texture is a liquid (`*` prefix: lava, slime or water
//!   by name) or `trigger`, `hint`, `hintskip` or `origin`. Names compare case-insensitively;
//!   the base name after a folder prefix counts too, with an optional `tools` prefix
//!   stripped (`common/trigger`, `tools/toolstrigger`).
//! - Otherwise, when faces carry Quake 2 triples, contents are the OR of those faces'
//!   contents, and a value with none of the bits in [`Contents::QUAKE2_SOLIDITY_MASK`] counts
//!   as solid (qbsp3).
//! - Otherwise a `clip` face makes player clip, a `sky*` face makes sky, and anything else
//!   is solid.
//! - Brushes of `trigger_*` entities are never solid: their contents are
//!   [`Contents::TRIGGER`] (origin brushes aside), which no blocking mask contains.
//!
//! Quake 2 (Quake-2-Tools `qbsp3/map.c` `ParseBrush`, `BrushContents`): each side's triple,
//! made detail by a translucent surface or a clip, solid when it has no bit of
//! [`Contents::QUAKE2_SOLIDITY_MASK`], empty for a hint or skip surface; the brush takes its
//! first side's contents, and a translucent surface on any side makes it
//! [`Contents::TRANSLUCENT`] and a window instead of solid ([`contents_from_quake2`]
//! translates the bits). A face written without a triple has by then taken its texture's
//! defaults (`.wal` header, else the built-in tool and liquid table of
//! `game/q2_textures.rs`), so a bare `e1u1/hint` face is empty, not solid.
//!
//! Half-Life (Half-Life `utils/qcsg/brush.c` `TextureContents`): the first face's texture
//! decides ([`half_life_texture_contents`]); `func_water`, `func_illusionary` and
//! `func_ladder` brushes are water, nothing and ladder ([`half_life_entity_contents`]).
//!
//! A Quake 3 map ([`Game::detect`](crate::Game::detect)) follows Quake 3's rules instead: its faces name shaders,
//! and a brush's contents are q3map2's (`map.cpp` `SetBrushContents`, [`q3_brush_contents`])
//! over its faces' shaders from a [`ShaderSet`], translated to [`Contents`]
//! ([`quake3_brush_contents`]); the face triple counts only for the detail bit.

use crate::contents::Contents;
use crate::game::q3_flags::contents as q3;
use crate::game::{Game, Q3Side, ShaderSet, q3_brush_contents};
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

/// The entity classes whose brushes are world geometry.
const WORLD_CLASSES: [&str; 4] = [
    "worldspawn",
    "func_group",
    "func_detail",
    "func_detail_wall",
];

/// Whether brushes of an entity with this classname belong to the world model.
#[must_use]
pub fn is_world_class(classname: &str) -> bool {
    WORLD_CLASSES
        .iter()
        .any(|c| c.eq_ignore_ascii_case(classname))
}

/// Whether brushes of an entity with this classname are triggers (never solid).
#[must_use]
pub fn is_trigger_class(classname: &str) -> bool {
    classname
        .get(..8)
        .is_some_and(|p| p.eq_ignore_ascii_case("trigger_"))
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

/// Quake 3 content bits that mean the same in [`Contents`] (`surfaceflags.h`): solid, the
/// liquids, fog, the portals, the clips, origin, detail and no-drop. The others are dropped:
/// Team Arena's team bits and `NOBOTCLIP` (our sky bit), teleporter, jump pad and mover
/// (bot hints; `0x4_0000` is Quake 2's current), bodies, structural (our translucent bit),
/// and trigger (given by the entity).
const QUAKE3_SAME_BITS: u32 = q3::SOLID
    | q3::LAVA
    | q3::SLIME
    | q3::WATER
    | q3::FOG
    | q3::AREAPORTAL
    | q3::PLAYERCLIP
    | q3::MONSTERCLIP
    | q3::CLUSTERPORTAL
    | q3::DONOTENTER
    | q3::BOTCLIP
    | q3::ORIGIN
    | q3::DETAIL
    | q3::NODROP;

/// Quake 3 content bits as [`Contents`]: the bits that mean the same, and Quake 3's
/// translucent bit moved to [`Contents::TRANSLUCENT`].
#[must_use]
pub fn contents_from_quake3(bits: u32) -> Contents {
    let mut out = Contents(bits & QUAKE3_SAME_BITS);
    if bits & q3::TRANSLUCENT != 0 {
        out |= Contents::TRANSLUCENT;
    }
    out
}

/// The contents of a Quake 3 brush made of `faces`: q3map2's run-time contents (the content
/// shader's bits, translated) plus [`Contents::DETAIL`] when q3map2 makes the brush detail
/// (a detail shader, a translucent side, or the triple's detail bit `0x8000000`); and
/// q3map2's own bits (with Quake 3's detail bit for a detail brush).
pub(crate) fn quake3_brush_contents(faces: &[MapFace], shaders: &ShaderSet) -> (Contents, u32) {
    let sides: Vec<Q3Side> = faces
        .iter()
        .map(|f| {
            let shader = shaders.texture_flags(&f.texture);
            // The triple's first value is a 32-bit word; only its detail bit is read.
            let triple = f.extension.triple().map_or(0, |t| t.contents as u32);
            Q3Side::with_face_contents(shader, triple)
        })
        .collect();
    match q3_brush_contents(&sides) {
        Some(brush) => {
            let mut contents = contents_from_quake3(brush.contents);
            let mut raw = brush.contents;
            if brush.detail {
                contents |= Contents::DETAIL;
                raw |= q3::DETAIL;
            }
            (contents, raw)
        }
        None => (Contents::EMPTY, 0),
    }
}

/// Whether `texture` is the `origin` tool texture (an entity's rotation pivot brush).
#[must_use]
pub fn is_origin_texture(texture: &str) -> bool {
    texture.eq_ignore_ascii_case("origin") || base_name(texture) == "origin"
}

/// Quake 2's bits (`qfiles.h`) that the brush rules read or translate.
mod q2 {
    /// `CONTENTS_MIST`, the last visible contents bit.
    pub const LOW_BITS: u32 = 0x7f;
    pub const AREAPORTAL: u32 = 0x8000;
    pub const PLAYERCLIP: u32 = 0x1_0000;
    pub const MONSTERCLIP: u32 = 0x2_0000;
    /// `CONTENTS_CURRENT_0` through `CONTENTS_CURRENT_DOWN`.
    pub const CURRENTS: u32 = 0xfc_0000;
    pub const ORIGIN: u32 = 0x100_0000;
    pub const DETAIL: u32 = 0x800_0000;
    pub const TRANSLUCENT: u32 = 0x1000_0000;
    pub const LADDER: u32 = 0x2000_0000;
    pub const SURF_TRANS33: u32 = 0x10;
    pub const SURF_TRANS66: u32 = 0x20;
    pub const SURF_HINT: u32 = 0x100;
    pub const SURF_SKIP: u32 = 0x200;
}

/// Quake 2 content bits as [`Contents`]: solid through mist, the portals, the clips,
/// origin, detail, translucent and ladder keep their bits; the six currents become
/// [`Contents::CURRENT`] (their direction is not kept); monster bodies are dropped.
#[must_use]
pub fn contents_from_quake2(bits: u32) -> Contents {
    let same = q2::LOW_BITS
        | q2::AREAPORTAL
        | q2::PLAYERCLIP
        | q2::MONSTERCLIP
        | q2::ORIGIN
        | q2::DETAIL
        | q2::TRANSLUCENT
        | q2::LADDER;
    let mut out = Contents(bits & same);
    if bits & q2::CURRENTS != 0 {
        out |= Contents::CURRENT;
    }
    out
}

/// One Quake 2 side's contents (Quake-2-Tools `qbsp3/map.c` `ParseBrush`): translucent
/// surfaces and clips are detail, a side with no bit of
/// [`Contents::QUAKE2_SOLIDITY_MASK`] is solid, and hint and skip sides have none.
fn quake2_side_contents(contents: u32, flags: u32) -> u32 {
    let mut c = contents;
    if flags & (q2::SURF_TRANS33 | q2::SURF_TRANS66) != 0 {
        c |= q2::DETAIL;
    }
    if c & (q2::PLAYERCLIP | q2::MONSTERCLIP) != 0 {
        c |= q2::DETAIL;
    }
    if c & Contents::QUAKE2_SOLIDITY_MASK == 0 {
        c |= Contents::SOLID.0;
    }
    if flags & (q2::SURF_HINT | q2::SURF_SKIP) != 0 {
        c = 0;
    }
    c
}

/// The contents of a Quake 2 brush made of `faces` (`qbsp3/map.c` `BrushContents`): its
/// first side's contents; a translucent surface on any side adds
/// [`Contents::TRANSLUCENT`] and turns solid into [`Contents::WINDOW`]. A face without a
/// triple counts as `0 0 0`. Gives Quake 2's bits; [`contents_from_quake2`] translates them.
pub(crate) fn quake2_brush_contents(faces: &[MapFace]) -> u32 {
    // Contents and flags are 32-bit words in every game that writes them.
    let word = |f: &MapFace| {
        f.extension
            .triple()
            .map_or((0, 0), |t| (t.contents as u32, t.flags as u32))
    };
    let Some(first) = faces.first() else {
        return 0;
    };
    let (contents, flags) = word(first);
    let mut bits = quake2_side_contents(contents, flags);
    let trans = faces
        .iter()
        .any(|f| word(f).1 & (q2::SURF_TRANS33 | q2::SURF_TRANS66) != 0);
    if trans && bits != 0 {
        bits |= q2::TRANSLUCENT;
        if bits & Contents::SOLID.0 != 0 {
            bits = (bits & !Contents::SOLID.0) | Contents::WINDOW.0;
        }
    }
    bits
}

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

/// A brush's contents in planeshift's vocabulary, and in its game's own numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BrushMeaning {
    /// What the brush is made of, translated.
    pub contents: Contents,
    /// The game's value: Quake 2's and Quake 3's bit sets as their compilers resolve them;
    /// for Quake and Half-Life the leaf enum (`bspfile.h` `CONTENTS_*`, negative), as the
    /// bits of an `i32`.
    pub game_contents: u32,
}

/// The meaning of a brush made of `faces` in an entity of class `classname`, by `game`'s
/// rules (module docs); `shaders` are read for Quake 3 only.
pub(crate) fn brush_meaning(
    game: Game,
    faces: &[MapFace],
    classname: &str,
    shaders: &ShaderSet,
) -> BrushMeaning {
    let (contents, game_contents) = match game {
        Game::Quake3 => quake3_brush_contents(faces, shaders),
        Game::Quake2 => {
            let bits = quake2_brush_contents(faces);
            (contents_from_quake2(bits), bits)
        }
        Game::HalfLife => {
            let textured = half_life_brush_contents(faces);
            let contents = half_life_entity_contents(classname, textured);
            let current = faces.first().and_then(|f| half_life_current(&f.texture));
            let value = match current {
                Some(value) if contents.contains(Contents::CURRENT) => value,
                _ => engine_enum(contents),
            };
            (contents, value as u32)
        }
        Game::Quake => {
            let contents = brush_contents(faces.iter());
            (contents, engine_enum(contents) as u32)
        }
    };
    BrushMeaning {
        contents,
        game_contents,
    }
}

/// Quake's and Half-Life's `CONTENTS_*` enum for translated contents (`bspfile.h`): the
/// first of origin −7, clip −8, ladder −16, translucent −15, lava −5, slime −4, water −3,
/// sky −6, solid −2; empty −1.
fn engine_enum(contents: Contents) -> i32 {
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

/// Half-Life's current enum for a `!cur_*` texture (`CONTENTS_CURRENT_0` −9 through
/// `CONTENTS_CURRENT_DOWN` −14), by the direction its name gives.
fn half_life_current(texture: &str) -> Option<i32> {
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

    #[test]
    fn quake3_bits_translate() {
        assert_eq!(contents_from_quake3(0x2040_0000), Contents::BOTCLIP | Contents::TRANSLUCENT);
        assert_eq!(contents_from_quake3(0x3000_8000), Contents::AREAPORTAL | Contents::TRANSLUCENT);
        assert_eq!(contents_from_quake3(0xA000_0000), Contents::NODROP | Contents::TRANSLUCENT);
        assert_eq!(contents_from_quake3(0x4000_0201), Contents::SOLID);
        assert_eq!(contents_from_quake3(0x20), Contents::WATER);
    }

    #[test]
    fn world_and_trigger_classes() {
        assert!(is_world_class("worldspawn"));
        assert!(is_world_class("func_detail_wall"));
        assert!(!is_world_class("func_wall"));
        assert!(is_trigger_class("trigger_multiple"));
        assert!(!is_trigger_class("trigger"));
    }
}
