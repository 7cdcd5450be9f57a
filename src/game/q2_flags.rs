//! Quake 2's content bits and surface flag bits, as its `.map` triples, `.wal` headers and
//! `.bsp` brushes and texinfos store them.
//!
//! Takes nothing, gives named constants. The values are Quake 2's `qcommon/qfiles.h`
//! (`CONTENTS_*`, `SURF_*`). Guarantees: every bit has one name, and this is the one table
//! of them: the brush rule (`rules/quake2.rs`) and the texture defaults (`q2_textures.rs`)
//! both read it.

/// Content bits (`CONTENTS_*`): what a brush is made of.
pub mod contents {
    /// Lava (liquid).
    pub const LAVA: u32 = 0x8;
    /// Slime (liquid).
    pub const SLIME: u32 = 0x10;
    /// Water (liquid).
    pub const WATER: u32 = 0x20;
    /// `CONTENTS_SOLID` through `CONTENTS_MIST`: the visible contents.
    pub const VISIBLE: u32 = 0x7f;
    /// Separates vis areas (doors).
    pub const AREAPORTAL: u32 = 0x8000;
    /// Blocks players only.
    pub const PLAYERCLIP: u32 = 0x1_0000;
    /// Blocks monsters only.
    pub const MONSTERCLIP: u32 = 0x2_0000;
    /// `CONTENTS_CURRENT_0` through `CONTENTS_CURRENT_DOWN`: the six currents.
    pub const CURRENTS: u32 = 0xfc_0000;
    /// A rotating entity's pivot, removed by the compiler.
    pub const ORIGIN: u32 = 0x100_0000;
    /// Detail: does not split the vis tree.
    pub const DETAIL: u32 = 0x800_0000;
    /// See-through.
    pub const TRANSLUCENT: u32 = 0x1000_0000;
    /// Climbable.
    pub const LADDER: u32 = 0x2000_0000;
}

/// Surface flag bits (`SURF_*`): what a face is.
pub mod surf {
    /// Sky: no lighting from it, a hole to the sky.
    pub const SKY: u32 = 0x4;
    /// Turbulent (liquid) warp.
    pub const WARP: u32 = 0x8;
    /// A third opaque.
    pub const TRANS33: u32 = 0x10;
    /// Two thirds opaque.
    pub const TRANS66: u32 = 0x20;
    /// Not drawn.
    pub const NODRAW: u32 = 0x80;
    /// A hint face: splits the vis tree.
    pub const HINT: u32 = 0x100;
    /// A face the compiler skips.
    pub const SKIP: u32 = 0x200;
}
