//! The brush rules: what each brush is made of, per built-in game.
//!
//! Takes entity class names, texture names and face triples, gives [`Contents`] and
//! ownership. These are the only rules; the compiler, the sweeps and every test use them.
//! How a brush's faces combine is the game's ([`Game`](crate::build::Game), detected from the map
//! or given by `CompileOptions::game`); ownership and triggers are the same for every game.
//! A current's direction and the raw game contents are not kept yet (a later step; the
//! compiled file is unchanged): a current is [`Contents::CURRENT`].
//!
//! Quake ([`Game::Quake`](crate::build::Game::Quake)):
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
//! A Quake 3 map ([`Game::detect`](crate::build::Game::detect)) follows Quake 3's rules instead: its faces name shaders,
//! and a brush's contents are q3map2's (`map.cpp` `SetBrushContents`, [`q3_brush_contents`])
//! over its faces' shaders from a [`ShaderSet`], translated to [`Contents`]
//! ([`quake3_brush_contents`]); the face triple counts only for the detail bit.

use super::half_life::{half_life_brush_contents, half_life_current, half_life_entity_contents};
use super::quake::{brush_contents, engine_enum};
use super::quake2::{contents_from_quake2, quake2_brush_contents};
use super::quake3::quake3_brush_contents;
use crate::contents::Contents;
use crate::game::{Game, ShaderSet};
use crate::map::MapFace;


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
