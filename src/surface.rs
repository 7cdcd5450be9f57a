//! [`SurfaceFlags`]: what a brush side's surface means to a game (slick, ladder, no
//! damage…), as a named bit set shared by every game.
//!
//! Takes nothing, gives the flag bits and their names. The numbering is Quake 3's
//! (`surfaceflags.h`, `SURF_*`) for every bit Quake 3 defines; Quake 2's flags that Quake 3
//! numbers differently or lacks (light, warp, the two translucencies, flowing) sit in bits
//! Quake 3 leaves free, and Quake 2's alpha test keeps its own bit. The compiler translates
//! each game's flags into this set (the brush stage's side rules); the compiled file keeps
//! them per side. Guarantees: every named bit has exactly one name, used on the command line
//! and in JSON; the set operations are plain bit operations.

use serde::{Deserialize, Serialize};

/// A set of surface flags, per brush side.
///
/// ```
/// use planeshift::SurfaceFlags;
/// let pad = SurfaceFlags::NODAMAGE | SurfaceFlags::SLICK;
/// assert_eq!(pad.names().collect::<Vec<_>>(), ["nodamage", "slick"]);
/// assert_eq!(SurfaceFlags::from_name("ladder"), Some(SurfaceFlags::LADDER));
/// assert!(SurfaceFlags::MOVEMENT.contains(pad));
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SurfaceFlags(pub u32);

impl SurfaceFlags {
    /// No falling damage when landing here (Quake 3 jump pads).
    pub const NODAMAGE: SurfaceFlags = SurfaceFlags(0x1);
    /// No ground friction (Quake 2 and 3 `SURF_SLICK`).
    pub const SLICK: SurfaceFlags = SurfaceFlags(0x2);
    /// Sky: lit by the environment, missiles vanish.
    pub const SKY: SurfaceFlags = SurfaceFlags(0x4);
    /// A climbable surface (Quake 3 `SURF_LADDER`).
    pub const LADDER: SurfaceFlags = SurfaceFlags(0x8);
    /// Missiles vanish without an explosion.
    pub const NOIMPACT: SurfaceFlags = SurfaceFlags(0x10);
    /// No missile marks.
    pub const NOMARKS: SurfaceFlags = SurfaceFlags(0x20);
    /// Flesh sounds and effects.
    pub const FLESH: SurfaceFlags = SurfaceFlags(0x40);
    /// Not drawn (tool surfaces).
    pub const NODRAW: SurfaceFlags = SurfaceFlags(0x80);
    /// A hint for the compiler's splitter.
    pub const HINT: SurfaceFlags = SurfaceFlags(0x100);
    /// Ignored by the compiler's visible surfaces.
    pub const SKIP: SurfaceFlags = SurfaceFlags(0x200);
    /// No lightmap.
    pub const NOLIGHTMAP: SurfaceFlags = SurfaceFlags(0x400);
    /// Lit at its vertices.
    pub const POINTLIGHT: SurfaceFlags = SurfaceFlags(0x800);
    /// Clanking footsteps.
    pub const METALSTEPS: SurfaceFlags = SurfaceFlags(0x1000);
    /// No footstep sounds.
    pub const NOSTEPS: SurfaceFlags = SurfaceFlags(0x2000);
    /// Marked non-solid by its shader (Quake 3; collision reads the contents instead).
    pub const NONSOLID: SurfaceFlags = SurfaceFlags(0x4000);
    /// A light filter for the lighting compiler.
    pub const LIGHTFILTER: SurfaceFlags = SurfaceFlags(0x8000);
    /// Alpha shadows for the lighting compiler.
    pub const ALPHASHADOW: SurfaceFlags = SurfaceFlags(0x1_0000);
    /// No dynamic lights.
    pub const NODLIGHT: SurfaceFlags = SurfaceFlags(0x2_0000);
    /// A dust puff when landed on.
    pub const DUST: SurfaceFlags = SurfaceFlags(0x4_0000);
    /// No overbounce (Defrag's `SURF_NOOB`, in q3map2's Quake 3 game).
    pub const NOOB: SurfaceFlags = SurfaceFlags(0x8_0000);
    /// Emits light (Quake 2 `SURF_LIGHT`, `0x1` there).
    pub const LIGHT: SurfaceFlags = SurfaceFlags(0x10_0000);
    /// A warping liquid surface (Quake 2 `SURF_WARP`, `0x8` there; Quake and Half-Life
    /// liquids).
    pub const WARP: SurfaceFlags = SurfaceFlags(0x20_0000);
    /// A third opaque (Quake 2 `SURF_TRANS33`, `0x10` there).
    pub const TRANS33: SurfaceFlags = SurfaceFlags(0x40_0000);
    /// Two thirds opaque (Quake 2 `SURF_TRANS66`, `0x20` there).
    pub const TRANS66: SurfaceFlags = SurfaceFlags(0x80_0000);
    /// A scrolling texture (Quake 2 `SURF_FLOWING`, `0x40` there).
    pub const FLOWING: SurfaceFlags = SurfaceFlags(0x100_0000);
    /// Alpha-tested (the Quake 2 re-release's and KMQ2's `SURF_ALPHATEST`, same bit).
    pub const ALPHATEST: SurfaceFlags = SurfaceFlags(0x200_0000);

    /// Every named bit with its name, in bit order.
    pub const NAMED: [(&'static str, SurfaceFlags); 26] = [
        ("nodamage", Self::NODAMAGE),
        ("slick", Self::SLICK),
        ("sky", Self::SKY),
        ("ladder", Self::LADDER),
        ("noimpact", Self::NOIMPACT),
        ("nomarks", Self::NOMARKS),
        ("flesh", Self::FLESH),
        ("nodraw", Self::NODRAW),
        ("hint", Self::HINT),
        ("skip", Self::SKIP),
        ("nolightmap", Self::NOLIGHTMAP),
        ("pointlight", Self::POINTLIGHT),
        ("metalsteps", Self::METALSTEPS),
        ("nosteps", Self::NOSTEPS),
        ("nonsolid", Self::NONSOLID),
        ("lightfilter", Self::LIGHTFILTER),
        ("alphashadow", Self::ALPHASHADOW),
        ("nodlight", Self::NODLIGHT),
        ("dust", Self::DUST),
        ("noob", Self::NOOB),
        ("light", Self::LIGHT),
        ("warp", Self::WARP),
        ("trans33", Self::TRANS33),
        ("trans66", Self::TRANS66),
        ("flowing", Self::FLOWING),
        ("alphatest", Self::ALPHATEST),
    ];

    /// The flags that change how a character moves or sounds on a surface (q3map2's bevel
    /// mask for Quake 3, `brushBevelsSurfaceFlagsMask`: no damage, slick, flesh, metal steps,
    /// no steps, dust, no overbounce; plus ladder). A bevel side carries these flags of the
    /// face it bevels, so a sweep stopped by a bevel at a slick floor's edge still reports
    /// slick.
    pub const MOVEMENT: SurfaceFlags = SurfaceFlags(
        Self::NODAMAGE.0
            | Self::SLICK.0
            | Self::LADDER.0
            | Self::FLESH.0
            | Self::METALSTEPS.0
            | Self::NOSTEPS.0
            | Self::DUST.0
            | Self::NOOB.0,
    );

    /// Quake 3's surface flags (`SURF_*`), which share this numbering; bits Quake 3 does not
    /// define are dropped.
    #[must_use]
    pub const fn from_quake3(bits: u32) -> SurfaceFlags {
        SurfaceFlags(bits & QUAKE3_DEFINED)
    }

    /// Quake 2's surface flags (`qfiles.h` `SURF_*`): slick, sky, no draw, hint and skip
    /// keep their bits, light, warp, the translucencies and flowing move to theirs, alpha
    /// test keeps its own; Quake 2's value and unknown bits are dropped.
    #[must_use]
    pub const fn from_quake2(bits: u32) -> SurfaceFlags {
        let same = bits & (0x2 | 0x4 | 0x80 | 0x100 | 0x200 | Self::ALPHATEST.0);
        let mut out = same;
        let moved = [
            (0x1, Self::LIGHT),
            (0x8, Self::WARP),
            (0x10, Self::TRANS33),
            (0x20, Self::TRANS66),
            (0x40, Self::FLOWING),
        ];
        let mut i = 0;
        while i < moved.len() {
            if bits & moved[i].0 != 0 {
                out |= moved[i].1.0;
            }
            i += 1;
        }
        SurfaceFlags(out)
    }
}

/// The bits Quake 3 defines (`SURF_NODAMAGE` through Defrag's `SURF_NOOB`).
const QUAKE3_DEFINED: u32 = 0xf_ffff;

crate::bit_set::named_bit_set!(SurfaceFlags);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_round_trips_and_bits_are_distinct() {
        let mut all = 0u32;
        for (name, bit) in SurfaceFlags::NAMED {
            assert_eq!(bit.0.count_ones(), 1, "{name}");
            assert_eq!(all & bit.0, 0, "{name} shares a bit");
            all |= bit.0;
            assert_eq!(SurfaceFlags::from_name(name), Some(bit));
        }
        assert_eq!(all & QUAKE3_DEFINED, QUAKE3_DEFINED);
    }

    #[test]
    fn quake2_flags_translate() {
        // SURF_LIGHT | SURF_SLICK | SURF_WARP | SURF_TRANS33 | SURF_NODRAW
        let q2 = SurfaceFlags::from_quake2(0x1 | 0x2 | 0x8 | 0x10 | 0x80);
        assert_eq!(q2.to_string(), "slick|nodraw|light|warp|trans33");
        assert_eq!(SurfaceFlags::from_quake2(0x400), SurfaceFlags::EMPTY);
        assert_eq!(
            SurfaceFlags::from_quake3(0x8_0002),
            SurfaceFlags::NOOB | SurfaceFlags::SLICK
        );
        assert_eq!(SurfaceFlags::from_quake3(0x10_0000), SurfaceFlags::EMPTY);
    }
}
