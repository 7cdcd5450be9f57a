//! A Quake 1 family leaf's contents value (`bspfile.h` `CONTENTS_*`) in planeshift's
//! vocabulary, as compiling a `.map` of that game gives its brushes
//! (`crate::brush::solidity`).
//!
//! Takes the value and the game; gives the [`Contents`] and the game's own value (the enum
//! as the bits of an `i32`), or `None` for what makes no brush (empty, origin).

use crate::contents::Contents;
use crate::game::Game;

/// `CONTENTS_EMPTY`: open space.
const EMPTY: i32 = -1;
/// `CONTENTS_ORIGIN`: a pivot, removed by the compiler (never collides).
const ORIGIN: i32 = -7;

/// The contents of a leaf of value `value` in a file of `game`; `None` when the leaf makes
/// no brush. An unknown value is solid (engines treat any non-empty leaf as blocking the
/// clip hulls).
pub(super) fn leaf_contents(value: i32, game: Game) -> Option<(Contents, u32)> {
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
