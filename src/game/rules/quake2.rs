//! Quake 2's rules: a brush's contents from its sides' triples as qbsp3 computes them, and
//! Quake 2's content bits (in a `.map` triple or a `.bsp` brush) in planeshift's vocabulary.
//!
//! Takes faces or bits; gives Quake 2's bits and [`Contents`]. Guarantees: the rules are
//! Quake-2-Tools' (`qbsp3/map.c` `ParseBrush`, `BrushContents`), the bits `qfiles.h`'s.

use crate::contents::Contents;
use crate::game::q2_flags::{contents as q2, surf};
use crate::map::MapFace;

/// Quake 2 content bits as [`Contents`]: solid through mist, the portals, the clips,
/// origin, detail, translucent and ladder keep their bits; the six currents become
/// [`Contents::CURRENT`] (their direction is not kept); monster bodies are dropped.
#[must_use]
pub fn contents_from_quake2(bits: u32) -> Contents {
    let same = q2::VISIBLE
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
    if flags & (surf::TRANS33 | surf::TRANS66) != 0 {
        c |= q2::DETAIL;
    }
    if c & (q2::PLAYERCLIP | q2::MONSTERCLIP) != 0 {
        c |= q2::DETAIL;
    }
    if c & Contents::QUAKE2_SOLIDITY_MASK == 0 {
        c |= Contents::SOLID.0;
    }
    if flags & (surf::HINT | surf::SKIP) != 0 {
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
        .any(|f| word(f).1 & (surf::TRANS33 | surf::TRANS66) != 0);
    if trans && bits != 0 {
        bits |= q2::TRANSLUCENT;
        if bits & Contents::SOLID.0 != 0 {
            bits = (bits & !Contents::SOLID.0) | Contents::WINDOW.0;
        }
    }
    bits
}
