//! Quake 3 / OpenArena content bits, surface flag bits, q3map2's compile flags, and q3map2's
//! surfaceparm table.
//!
//! Takes nothing, gives named constants and [`ShaderFlags`], the three flag words a shader
//! carries, with [`surface_parm`] to look up what one `surfaceparm NAME` does. The values are
//! those of Quake III Arena's `code/game/surfaceflags.h` (contents and surface flags) and of
//! q3map2's `q3map2.h` (`C_*` compile flags); the table is q3map2's `games.cpp`
//! (`game_default` plus `game_quake3`'s `noob` and `ob`). Guarantees: every bit has one name;
//! a surfaceparm first clears its "cleared" bits, then sets its bits, exactly as q3map2's
//! `ApplySurfaceParm` in `shaders.cpp`; names compare ASCII case-insensitively.

/// Content bits (`CONTENTS_*` in Quake III Arena `surfaceflags.h`): what a brush is made of.
pub mod contents {
    /// Ordinary solid; an eye is never valid in it.
    pub const SOLID: u32 = 0x1;
    /// Lava (liquid).
    pub const LAVA: u32 = 0x8;
    /// Slime (liquid).
    pub const SLIME: u32 = 0x10;
    /// Water (liquid).
    pub const WATER: u32 = 0x20;
    /// Fog volume.
    pub const FOG: u32 = 0x40;
    /// Team Arena: not on team 1.
    pub const NOTTEAM1: u32 = 0x80;
    /// Team Arena: not on team 2.
    pub const NOTTEAM2: u32 = 0x100;
    /// Bots may pass (id's q3map `nobotclip`; q3map2 has no surfaceparm for it).
    pub const NOBOTCLIP: u32 = 0x200;
    /// Separates vis areas (doors).
    pub const AREAPORTAL: u32 = 0x8000;
    /// Blocks players only (in `MASK_PLAYERSOLID`).
    pub const PLAYERCLIP: u32 = 0x1_0000;
    /// Blocks monsters only.
    pub const MONSTERCLIP: u32 = 0x2_0000;
    /// Bot hint: teleporter.
    pub const TELEPORTER: u32 = 0x4_0000;
    /// Bot hint: jump pad.
    pub const JUMPPAD: u32 = 0x8_0000;
    /// Bot routing: cluster portal.
    pub const CLUSTERPORTAL: u32 = 0x10_0000;
    /// Bot routing: do not enter.
    pub const DONOTENTER: u32 = 0x20_0000;
    /// Blocks bots only.
    pub const BOTCLIP: u32 = 0x40_0000;
    /// Mover (set by the game, never by a shader).
    pub const MOVER: u32 = 0x80_0000;
    /// Origin brush: removed before the entity is compiled.
    pub const ORIGIN: u32 = 0x100_0000;
    /// A living body (game only, never on a brush).
    pub const BODY: u32 = 0x200_0000;
    /// A corpse (game only).
    pub const CORPSE: u32 = 0x400_0000;
    /// Detail brush: not used to build the vis tree. Also the face-triple bit q3map2 reads.
    pub const DETAIL: u32 = 0x800_0000;
    /// Structural brush: always used to build the vis tree.
    pub const STRUCTURAL: u32 = 0x1000_0000;
    /// Translucent: does not consume surface fragments inside.
    pub const TRANSLUCENT: u32 = 0x2000_0000;
    /// Trigger volume.
    pub const TRIGGER: u32 = 0x4000_0000;
    /// Nothing is dropped here (bodies, items).
    pub const NODROP: u32 = 0x8000_0000;

    /// The liquids: lava, slime, water (`MASK_WATER` in Quake III Arena `bg_public.h`).
    pub const MASK_WATER: u32 = LAVA | SLIME | WATER;
    /// What stops a point trace for solidity (`MASK_SOLID`).
    pub const MASK_SOLID: u32 = SOLID;
    /// What players move against (`MASK_PLAYERSOLID`: solid, player clip, bodies).
    pub const MASK_PLAYERSOLID: u32 = SOLID | PLAYERCLIP | BODY;
    /// What dead players move against (`MASK_DEADSOLID`).
    pub const MASK_DEADSOLID: u32 = SOLID | PLAYERCLIP;
    /// What blocks sight (`MASK_OPAQUE`).
    pub const MASK_OPAQUE: u32 = SOLID | SLIME | LAVA;
    /// What shots hit (`MASK_SHOT`).
    pub const MASK_SHOT: u32 = SOLID | BODY | CORPSE;
}

/// Surface flag bits (`SURF_*` in Quake III Arena `surfaceflags.h`), per brush side.
pub mod surf {
    /// No falling damage (jump pads).
    pub const NODAMAGE: u32 = 0x1;
    /// No friction.
    pub const SLICK: u32 = 0x2;
    /// Sky: lit from the environment, missiles vanish.
    pub const SKY: u32 = 0x4;
    /// Ladder (unused by baseq3 movement).
    pub const LADDER: u32 = 0x8;
    /// Missiles vanish without an explosion.
    pub const NOIMPACT: u32 = 0x10;
    /// No missile marks.
    pub const NOMARKS: u32 = 0x20;
    /// Flesh sounds and effects.
    pub const FLESH: u32 = 0x40;
    /// No draw surface at all.
    pub const NODRAW: u32 = 0x80;
    /// Primary BSP splitter.
    pub const HINT: u32 = 0x100;
    /// Ignored face, allowing non-closed brushes.
    pub const SKIP: u32 = 0x200;
    /// No lightmap.
    pub const NOLIGHTMAP: u32 = 0x400;
    /// Lighting at vertices.
    pub const POINTLIGHT: u32 = 0x800;
    /// Clanking footsteps.
    pub const METALSTEPS: u32 = 0x1000;
    /// No footsteps.
    pub const NOSTEPS: u32 = 0x2000;
    /// Not solid (read by no collision code in Quake 3).
    pub const NONSOLID: u32 = 0x4000;
    /// Light filter for the lighting compiler.
    pub const LIGHTFILTER: u32 = 0x8000;
    /// Per-pixel alpha shadows for the lighting compiler.
    pub const ALPHASHADOW: u32 = 0x1_0000;
    /// No dynamic lights.
    pub const NODLIGHT: u32 = 0x2_0000;
    /// Dust trail when walked on.
    pub const DUST: u32 = 0x4_0000;
    /// No overbounce (Defrag; q3map2's Quake 3 game, `games.cpp` `game_quake3`).
    pub const NOOB: u32 = 0x8_0000;

    /// Vertex lit: what `surfaceparm nolightmap` and `pointlight` both set in q3map2.
    pub const VERTEXLIT: u32 = NOLIGHTMAP | POINTLIGHT;
    /// The flags q3map2 copies onto bevel sides (`brushBevelsSurfaceFlagsMask` of its Quake 3
    /// game): the ones that change movement at a walkable edge.
    pub const BEVELS_MASK: u32 = NODAMAGE | SLICK | FLESH | METALSTEPS | NOSTEPS | DUST | NOOB;
}

/// q3map2's compile flags (`C_*` in `q3map2.h`): game-independent facts the compiler uses.
pub mod compile {
    /// Solid for the compiler (the `default` surfaceparm sets it, `nonsolid` clears it).
    pub const SOLID: u32 = 0x1;
    /// Translucent: the brush becomes detail unless structural, and is not opaque.
    pub const TRANSLUCENT: u32 = 0x2;
    /// Structural: wins over detail.
    pub const STRUCTURAL: u32 = 0x4;
    /// Hint splitter.
    pub const HINT: u32 = 0x8;
    /// No draw surface.
    pub const NODRAW: u32 = 0x10;
    /// Light grid bounds.
    pub const LIGHTGRID: u32 = 0x20;
    /// Alpha shadows.
    pub const ALPHASHADOW: u32 = 0x40;
    /// Light filter.
    pub const LIGHTFILTER: u32 = 0x80;
    /// Vertex lit.
    pub const VERTEXLIT: u32 = 0x100;
    /// Liquid (water, slime, lava): decides a brush's content shader first.
    pub const LIQUID: u32 = 0x200;
    /// Fog: decides a brush's content shader after liquids.
    pub const FOG: u32 = 0x400;
    /// Sky.
    pub const SKY: u32 = 0x800;
    /// Origin brush.
    pub const ORIGIN: u32 = 0x1000;
    /// Area portal.
    pub const AREAPORTAL: u32 = 0x2000;
    /// Like hint, but makes no portals.
    pub const ANTIPORTAL: u32 = 0x4000;
    /// Like hint, but the face does not split the tree.
    pub const SKIP: u32 = 0x8000;
    /// No decals.
    pub const NOMARKS: u32 = 0x1_0000;
    /// Exempt from `-noob`.
    pub const OB: u32 = 0x2_0000;
    /// Detail; the same value as [`super::contents::DETAIL`], the face-triple bit.
    pub const DETAIL: u32 = 0x800_0000;
}

/// The three flag words of a shader (or of a brush side, which carries its shader's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ShaderFlags {
    /// Content bits ([`contents`]).
    pub contents: u32,
    /// Surface flag bits ([`surf`]).
    pub surface: u32,
    /// q3map2 compile flags ([`compile`]).
    pub compile: u32,
}

impl ShaderFlags {
    /// What every shader starts from and what a texture without a definition gets:
    /// q3map2's `default` surfaceparm (contents SOLID, no surface flags, compile SOLID).
    pub const DEFAULT: ShaderFlags = ShaderFlags {
        contents: contents::SOLID,
        surface: 0,
        compile: compile::SOLID,
    };

    /// Whether the shader is a liquid for q3map2 (`C_LIQUID`).
    pub fn is_liquid(&self) -> bool {
        self.compile & compile::LIQUID != 0
    }

    /// Whether the shader is a fog for q3map2 (`C_FOG`).
    pub fn is_fog(&self) -> bool {
        self.compile & compile::FOG != 0
    }

    /// Whether the shader is solid for q3map2 (`C_SOLID`).
    pub fn is_compile_solid(&self) -> bool {
        self.compile & compile::SOLID != 0
    }

    /// Whether the shader has the player clip content bit.
    pub fn is_playerclip(&self) -> bool {
        self.contents & contents::PLAYERCLIP != 0
    }
}

/// One row of q3map2's surfaceparm table (`surfaceParm_t` in `games.h`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SurfaceParm {
    /// The name after `surfaceparm`, lower case.
    pub name: &'static str,
    /// Content bits set.
    pub contents: u32,
    /// Content bits cleared before setting.
    pub contents_clear: u32,
    /// Surface flags set.
    pub surface: u32,
    /// Surface flags cleared before setting.
    pub surface_clear: u32,
    /// Compile flags set.
    pub compile: u32,
    /// Compile flags cleared before setting.
    pub compile_clear: u32,
}

impl SurfaceParm {
    /// Applies the parm to `flags`: clears, then sets, each word (q3map2 `ApplySurfaceParm`).
    pub fn apply(&self, flags: &mut ShaderFlags) {
        flags.contents = (flags.contents & !self.contents_clear) | self.contents;
        flags.surface = (flags.surface & !self.surface_clear) | self.surface;
        flags.compile = (flags.compile & !self.compile_clear) | self.compile;
    }
}

/// Every bit of a word: the `-1` of q3map2's `default` row.
const ALL: u32 = u32::MAX;

/// A row that only sets bits.
const fn sets(name: &'static str, contents: u32, surface: u32, compile: u32) -> SurfaceParm {
    SurfaceParm {
        name,
        contents,
        contents_clear: 0,
        surface,
        surface_clear: 0,
        compile,
        compile_clear: 0,
    }
}

/// A row that sets content and compile bits and clears SOLID from both (the non-solid
/// volumes: liquids, clips, portals, triggers, fog).
const fn unsolid(name: &'static str, contents: u32, compile: u32) -> SurfaceParm {
    SurfaceParm {
        name,
        contents,
        contents_clear: contents::SOLID,
        surface: 0,
        surface_clear: 0,
        compile,
        compile_clear: compile::SOLID,
    }
}

use compile as c;

/// q3map2's surfaceparm table for Quake 3 (`games.cpp`: `game_default`, then `game_quake3`'s
/// `noob` and `ob`), in its order.
pub const SURFACE_PARMS: [SurfaceParm; 40] = [
    SurfaceParm {
        name: "default",
        contents: contents::SOLID,
        contents_clear: ALL,
        surface: 0,
        surface_clear: ALL,
        compile: c::SOLID,
        compile_clear: ALL,
    },
    sets("lightgrid", 0, 0, c::LIGHTGRID),
    sets("antiportal", 0, 0, c::ANTIPORTAL),
    sets("skip", 0, 0, c::SKIP),
    unsolid("origin", contents::ORIGIN, c::ORIGIN | c::TRANSLUCENT),
    unsolid(
        "areaportal",
        contents::AREAPORTAL,
        c::AREAPORTAL | c::TRANSLUCENT,
    ),
    sets("trans", contents::TRANSLUCENT, 0, c::TRANSLUCENT),
    sets("detail", contents::DETAIL, 0, c::DETAIL),
    sets("structural", contents::STRUCTURAL, 0, c::STRUCTURAL),
    sets("hint", 0, surf::HINT, c::HINT),
    sets("nodraw", 0, surf::NODRAW, c::NODRAW),
    sets(
        "alphashadow",
        0,
        surf::ALPHASHADOW,
        c::ALPHASHADOW | c::TRANSLUCENT,
    ),
    sets(
        "lightfilter",
        0,
        surf::LIGHTFILTER,
        c::LIGHTFILTER | c::TRANSLUCENT,
    ),
    sets("nolightmap", 0, surf::VERTEXLIT, c::VERTEXLIT),
    sets("pointlight", 0, surf::VERTEXLIT, c::VERTEXLIT),
    SurfaceParm {
        name: "nonsolid",
        contents: 0,
        contents_clear: contents::SOLID,
        surface: surf::NONSOLID,
        surface_clear: 0,
        compile: 0,
        compile_clear: c::SOLID,
    },
    unsolid("trigger", contents::TRIGGER, c::TRANSLUCENT),
    unsolid("water", contents::WATER, c::LIQUID | c::TRANSLUCENT),
    unsolid("slime", contents::SLIME, c::LIQUID | c::TRANSLUCENT),
    unsolid("lava", contents::LAVA, c::LIQUID | c::TRANSLUCENT),
    unsolid("playerclip", contents::PLAYERCLIP, c::DETAIL | c::TRANSLUCENT),
    unsolid(
        "monsterclip",
        contents::MONSTERCLIP,
        c::DETAIL | c::TRANSLUCENT,
    ),
    unsolid("nodrop", contents::NODROP, c::TRANSLUCENT),
    unsolid("clusterportal", contents::CLUSTERPORTAL, c::TRANSLUCENT),
    unsolid("donotenter", contents::DONOTENTER, c::TRANSLUCENT),
    unsolid("botclip", contents::BOTCLIP, c::TRANSLUCENT),
    unsolid("fog", contents::FOG, c::FOG),
    sets("sky", 0, surf::SKY, c::SKY),
    sets("slick", 0, surf::SLICK, 0),
    sets("noimpact", 0, surf::NOIMPACT, 0),
    sets("nomarks", 0, surf::NOMARKS, c::NOMARKS),
    sets("ladder", 0, surf::LADDER, 0),
    sets("nodamage", 0, surf::NODAMAGE, 0),
    sets("metalsteps", 0, surf::METALSTEPS, 0),
    sets("flesh", 0, surf::FLESH, 0),
    sets("nosteps", 0, surf::NOSTEPS, 0),
    sets("nodlight", 0, surf::NODLIGHT, 0),
    sets("dust", 0, surf::DUST, 0),
    sets("noob", 0, surf::NOOB, 0),
    sets("ob", 0, 0, c::OB),
];

/// The surfaceparm called `name` (ASCII case-insensitive), or `None` when q3map2 would warn
/// "Unknown surfaceparm".
pub fn surface_parm(name: &str) -> Option<&'static SurfaceParm> {
    SURFACE_PARMS
        .iter()
        .find(|parm| parm.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_lower_case() {
        for (i, a) in SURFACE_PARMS.iter().enumerate() {
            assert_eq!(a.name, a.name.to_ascii_lowercase());
            for b in &SURFACE_PARMS[i + 1..] {
                assert_ne!(a.name, b.name);
            }
        }
    }

    #[test]
    fn parms_clear_then_set() {
        let mut flags = ShaderFlags::DEFAULT;
        for name in ["Water", "NODRAW", "nonsolid"] {
            if let Some(parm) = surface_parm(name) {
                parm.apply(&mut flags);
            }
        }
        assert_eq!(flags.contents, contents::WATER);
        assert_eq!(flags.surface, surf::NODRAW | surf::NONSOLID);
        assert_eq!(flags.compile, c::LIQUID | c::TRANSLUCENT | c::NODRAW);
        // `default` resets everything, whatever came before.
        if let Some(parm) = surface_parm("default") {
            parm.apply(&mut flags);
        }
        assert_eq!(flags, ShaderFlags::DEFAULT);
        assert!(surface_parm("nobotclip").is_none());
    }

    #[test]
    fn masks_match_bg_public() {
        assert_eq!(contents::MASK_PLAYERSOLID, 0x201_0001);
        assert_eq!(contents::MASK_DEADSOLID, 0x1_0001);
        assert_eq!(contents::MASK_WATER, 0x38);
        assert_eq!(contents::MASK_OPAQUE, 0x19);
        assert_eq!(contents::MASK_SHOT, 0x600_0001);
        assert_eq!(compile::DETAIL, contents::DETAIL);
    }
}
