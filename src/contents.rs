//! [`Contents`]: what a region of space is made of, as a bit set shared by every stage.
//!
//! Takes nothing, gives the contents bits and the default blocking mask. The numbering
//! follows Quake 2 for the bits Quake 2 defines (so a face's `contents` triple maps
//! directly), and adds [`Contents::SKY`] in a bit Quake 2 leaves unused.

use serde::{Deserialize, Serialize};

/// A set of contents bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Contents(pub u32);

impl Contents {
    /// Nothing: open space.
    pub const EMPTY: Contents = Contents(0);
    /// Ordinary solid.
    pub const SOLID: Contents = Contents(1);
    /// Solid glass (Quake 2 window).
    pub const WINDOW: Contents = Contents(2);
    /// Quake 2 auxiliary contents (not solid).
    pub const AUX: Contents = Contents(4);
    /// Lava (liquid, not solid).
    pub const LAVA: Contents = Contents(8);
    /// Slime (liquid, not solid).
    pub const SLIME: Contents = Contents(0x10);
    /// Water (liquid, not solid).
    pub const WATER: Contents = Contents(0x20);
    /// Quake 2 mist (not solid).
    pub const MIST: Contents = Contents(0x40);
    /// Sky: solid to movement, distinct for games that treat sky specially.
    pub const SKY: Contents = Contents(0x200);
    /// Blocks players only (`clip` texture, Quake 2 CONTENTS_PLAYERCLIP).
    pub const PLAYERCLIP: Contents = Contents(0x1_0000);
    /// Blocks monsters only (Quake 2 CONTENTS_MONSTERCLIP).
    pub const MONSTERCLIP: Contents = Contents(0x2_0000);

    /// The bits of a Quake 2 contents value that decide solidity; a value with none of them
    /// counts as [`Contents::SOLID`] (qbsp3).
    pub const QUAKE2_SOLIDITY_MASK: u32 = 0x3007f;

    /// What blocks a sweep by default: solid, window, sky, player clip and monster clip.
    pub const MASK_SOLID: Contents = Contents(
        Self::SOLID.0 | Self::WINDOW.0 | Self::SKY.0 | Self::PLAYERCLIP.0 | Self::MONSTERCLIP.0,
    );

    /// What blocks a player: [`Contents::MASK_SOLID`] without monster clip (Quake 2's
    /// `MASK_PLAYERSOLID`).
    pub const MASK_PLAYER_SOLID: Contents =
        Contents(Self::SOLID.0 | Self::WINDOW.0 | Self::SKY.0 | Self::PLAYERCLIP.0);

    /// Whether any bit of `mask` is set here.
    #[must_use]
    pub fn intersects(self, mask: Contents) -> bool {
        self.0 & mask.0 != 0
    }

    /// Whether this blocks movement under the default mask.
    #[must_use]
    pub fn is_solid(self) -> bool {
        self.intersects(Self::MASK_SOLID)
    }

    /// Both sets of bits.
    #[must_use]
    pub fn union(self, other: Contents) -> Contents {
        Contents(self.0 | other.0)
    }
}
