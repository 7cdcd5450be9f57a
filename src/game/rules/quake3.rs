//! Quake 3's brush rule over shaders, and Quake 3's content bits (in a shader or a `.bsp`
//! brush) in planeshift's vocabulary.
//!
//! Takes faces and a [`ShaderSet`], or bits; gives [`Contents`] and q3map2's bits.
//! Guarantees: the rules are q3map2's (`map.cpp` `SetBrushContents`), the bits
//! `surfaceflags.h`'s.

use crate::contents::Contents;
use crate::game::q3_flags::contents as q3;
use crate::game::{Q3Side, ShaderSet, q3_brush_contents};
use crate::map::MapFace;


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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quake3_bits_translate() {
        assert_eq!(contents_from_quake3(0x2040_0000), Contents::BOTCLIP | Contents::TRANSLUCENT);
        assert_eq!(contents_from_quake3(0x3000_8000), Contents::AREAPORTAL | Contents::TRANSLUCENT);
        assert_eq!(contents_from_quake3(0xA000_0000), Contents::NODROP | Contents::TRANSLUCENT);
        assert_eq!(contents_from_quake3(0x4000_0201), Contents::SOLID);
        assert_eq!(contents_from_quake3(0x20), Contents::WATER);
    }
}
