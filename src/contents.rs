//! [`Contents`]: what a region of space is made of, as a bit set shared by every stage.
//!
//! Takes nothing, gives the contents bits, their names and the blocking masks. The numbering
//! follows Quake 2 for the bits Quake 2 defines (so a face's `contents` triple maps
//! directly), adds [`Contents::SKY`] and [`Contents::OUTSIDE`] (the filled void) in bits
//! Quake 2 leaves unused, gives Quake 3's tool
//! volumes (bot clip, do-not-enter, no-drop, portals; `surfaceflags.h`) their Quake 3 bits
//! where Quake 2 leaves them free, and [`Contents::TRIGGER`] Quake 3's `CONTENTS_TRIGGER`.
//! Quake 3's translucent bit differs from Quake 2's, so a Quake 3 compile translates its
//! bits (the compiler's shader rules). Guarantees: the set operations are plain bit
//! operations; every named bit has exactly one name, used on the command line and in JSON.
//! [`Contents::CURRENT`] (`0x4_0000`, Quake 2's `CONTENTS_CURRENT_0`) marks any current,
//! whatever its direction; the direction is not kept yet.

use serde::{Deserialize, Serialize};

/// A set of contents bits.
///
/// ```
/// use planeshift::Contents;
/// let pool = Contents::WATER | Contents::SLIME;
/// assert!(pool.contains(Contents::WATER));
/// assert!(!pool.intersects(Contents::MASK_PLAYER_SOLID));
/// assert_eq!(pool.names().collect::<Vec<_>>(), ["slime", "water"]);
/// assert_eq!(Contents::from_name("playerclip"), Some(Contents::PLAYERCLIP));
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Contents(pub u32);

impl Contents {
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
    /// Fog volume (Quake 3 `CONTENTS_FOG`, Quake 2 mist; not solid).
    pub const FOG: Contents = Contents(0x40);
    /// Quake 2's name for [`Contents::FOG`].
    pub const MIST: Contents = Self::FOG;
    /// Sky: solid to movement, distinct for games that treat sky specially.
    pub const SKY: Contents = Contents(0x200);
    /// The void around a sealed map, filled by the compiler when asked
    /// (`CompileOptions::fill_outside`): its brushes are `SOLID | OUTSIDE`, so they block as
    /// solid and a game can tell the void from a wall (respawn, kill or clamp a character
    /// that got there). A bit Quake 2 and Quake 3 leave unused; in no mask by itself.
    pub const OUTSIDE: Contents = Contents(0x400);
    /// A door's vis portal (Quake 2/3 `CONTENTS_AREAPORTAL`; blocks nothing).
    pub const AREAPORTAL: Contents = Contents(0x8000);
    /// Blocks players only (`clip` texture, Quake 2 CONTENTS_PLAYERCLIP).
    pub const PLAYERCLIP: Contents = Contents(0x1_0000);
    /// Blocks monsters only (Quake 2 CONTENTS_MONSTERCLIP).
    pub const MONSTERCLIP: Contents = Contents(0x2_0000);
    /// A current (Quake 2 `CONTENTS_CURRENT_0`, standing for all six of its directions;
    /// Half-Life's `!cur_*` liquids): never blocks. Its direction is not kept.
    pub const CURRENT: Contents = Contents(0x4_0000);
    /// A bot route portal (Quake 3 `CONTENTS_CLUSTERPORTAL`; blocks nothing).
    pub const CLUSTERPORTAL: Contents = Contents(0x10_0000);
    /// Bots must not enter (Quake 3 `CONTENTS_DONOTENTER`): blocks bots, not players.
    pub const DONOTENTER: Contents = Contents(0x20_0000);
    /// Blocks bots only (Quake 3 `CONTENTS_BOTCLIP`).
    pub const BOTCLIP: Contents = Contents(0x40_0000);
    /// A living character (Quake 3 `CONTENTS_BODY`, Quake 2 `CONTENTS_MONSTER`): what a
    /// character's body is made of, and what a sweep reports when it meets one
    /// ([`WorldWithBodies`](crate::crowd::WorldWithBodies)). The map never holds it, so
    /// a mask naming it changes no sweep of the map alone; it decides which characters a
    /// query through a crowd meets.
    pub const BODY: Contents = Contents(0x200_0000);
    /// A dead character (Quake 3 `CONTENTS_CORPSE`, `0x400_0000`, a bit Quake 2 leaves
    /// unused): shots hit it ([`Contents::MASK_SHOT`]), movement passes through it (no
    /// movement mask names it). Never in the map.
    pub const CORPSE: Contents = Contents(0x400_0000);
    /// A rotation pivot brush (Quake 2/3 `CONTENTS_ORIGIN`); the compiler keeps these out of
    /// collision.
    pub const ORIGIN: Contents = Contents(0x100_0000);
    /// Detail brush (Quake 2/3 `CONTENTS_DETAIL`): changes splitting only, never collision.
    pub const DETAIL: Contents = Contents(0x800_0000);
    /// See-through (Quake 2 `CONTENTS_TRANSLUCENT`; Quake 3's is `0x2000_0000`).
    pub const TRANSLUCENT: Contents = Contents(0x1000_0000);
    /// Ladder (Quake 2 `CONTENTS_LADDER`).
    pub const LADDER: Contents = Contents(0x2000_0000);
    /// Items dropped here vanish (Quake 3 `CONTENTS_NODROP`; blocks nothing).
    pub const NODROP: Contents = Contents(0x8000_0000);
    /// A trigger entity's volume (Quake 3's `CONTENTS_TRIGGER`, 0x40000000; Quake 2 leaves
    /// the bit unused): never blocks, since no blocking mask contains it. Found by
    /// [`CompiledMap::touching_triggers`](crate::CompiledMap::touching_triggers).
    pub const TRIGGER: Contents = Contents(0x4000_0000);

    /// Every named bit with its name, in bit order.
    pub const NAMED: [(&'static str, Contents); 24] = [
        ("solid", Self::SOLID),
        ("window", Self::WINDOW),
        ("aux", Self::AUX),
        ("lava", Self::LAVA),
        ("slime", Self::SLIME),
        ("water", Self::WATER),
        ("fog", Self::FOG),
        ("sky", Self::SKY),
        ("outside", Self::OUTSIDE),
        ("areaportal", Self::AREAPORTAL),
        ("playerclip", Self::PLAYERCLIP),
        ("monsterclip", Self::MONSTERCLIP),
        ("current", Self::CURRENT),
        ("clusterportal", Self::CLUSTERPORTAL),
        ("donotenter", Self::DONOTENTER),
        ("botclip", Self::BOTCLIP),
        ("origin", Self::ORIGIN),
        ("body", Self::BODY),
        ("corpse", Self::CORPSE),
        ("detail", Self::DETAIL),
        ("translucent", Self::TRANSLUCENT),
        ("ladder", Self::LADDER),
        ("trigger", Self::TRIGGER),
        ("nodrop", Self::NODROP),
    ];

    /// The bits of a Quake 2 contents value that decide solidity; a value with none of them
    /// counts as [`Contents::SOLID`] (qbsp3).
    pub const QUAKE2_SOLIDITY_MASK: u32 = 0x3007f;

    /// What blocks everything, whoever moves: solid, window and sky, never a clip. Quake's
    /// `MASK_SOLID` (Quake 2: `CONTENTS_SOLID | CONTENTS_WINDOW`; Quake 3: `CONTENTS_SOLID`,
    /// its compiler making glass and sky brushes solid; both in `q_shared.h` /
    /// `surfaceflags.h`). Ours names [`Contents::SKY`] because our sky brushes carry that bit
    /// instead of `SOLID`. Code ported from Quake that traces with `MASK_SOLID` (a line of
    /// sight for a spawn spot, an item drop) means this. The union of everything that blocks
    /// someone is [`Contents::MASK_ANY_BLOCKING`].
    pub const MASK_SOLID: Contents = Contents(Self::SOLID.0 | Self::WINDOW.0 | Self::SKY.0);

    /// What blocks something: the union of every blocking mask ([`Contents::MASK_SOLID`],
    /// the player's, the monster's and the bot's masks: solid, window, sky, player clip,
    /// monster clip, bot clip, do-not-enter) without the characters' bits ([`Contents::BODY`],
    /// [`Contents::CORPSE`]), so a sweep of the map under it and under its former spelling
    /// agree. The sweep mask of the tools and of the oracle suites (a sweep with it stops at
    /// every clip; a game moving a player uses [`Contents::MASK_PLAYER_SOLID`]) and what
    /// [`Contents::is_solid`] tests; the compiler calls a brush solid when its contents meet
    /// it. (Before this name existed, `MASK_SOLID` meant this union.)
    pub const MASK_ANY_BLOCKING: Contents = Contents(
        Self::MASK_SOLID.0
            | Self::PLAYERCLIP.0
            | Self::MONSTERCLIP.0
            | Self::BOTCLIP.0
            | Self::DONOTENTER.0,
    );

    /// What blocks a player: solid, window, sky, player clip and other living characters
    /// (Quake 3's `MASK_PLAYERSOLID`: `CONTENTS_SOLID | CONTENTS_PLAYERCLIP | CONTENTS_BODY`;
    /// Quake 2's `MASK_PLAYERSOLID` adds window and its `CONTENTS_MONSTER`, our
    /// [`Contents::BODY`]). Corpses do not block a player. The controller moves with it. The
    /// map holds no body, so a sweep of the map alone answers as without [`Contents::BODY`].
    pub const MASK_PLAYER_SOLID: Contents =
        Contents(Self::SOLID.0 | Self::WINDOW.0 | Self::SKY.0 | Self::PLAYERCLIP.0 | Self::BODY.0);

    /// What blocks a monster: solid, window, sky, monster clip and living characters (Quake
    /// 2's `MASK_MONSTERSOLID`: `CONTENTS_SOLID | CONTENTS_MONSTERCLIP | CONTENTS_WINDOW |
    /// CONTENTS_MONSTER`). Corpses do not block.
    pub const MASK_MONSTER_SOLID: Contents =
        Contents(Self::SOLID.0 | Self::WINDOW.0 | Self::SKY.0 | Self::MONSTERCLIP.0 | Self::BODY.0);

    /// What blocks a bot: a player's mask (bodies included) plus bot clip and do-not-enter
    /// (Quake 3's bot library routes around both).
    pub const MASK_BOT_SOLID: Contents =
        Contents(Self::MASK_PLAYER_SOLID.0 | Self::BOTCLIP.0 | Self::DONOTENTER.0);

    /// What stops a shot: solid, window, sky, living characters and corpses; clips let shots
    /// through (Quake 3's `MASK_SHOT`: `CONTENTS_SOLID | CONTENTS_BODY | CONTENTS_CORPSE`).
    /// A line of sight that characters must not block uses [`Contents::MASK_SOLID`].
    pub const MASK_SHOT: Contents =
        Contents(Self::SOLID.0 | Self::WINDOW.0 | Self::SKY.0 | Self::BODY.0 | Self::CORPSE.0);

    /// The masks that block: a sweep under any of them passes through triggers.
    pub const BLOCKING_MASKS: [Contents; 6] = [
        Self::MASK_SOLID,
        Self::MASK_ANY_BLOCKING,
        Self::MASK_PLAYER_SOLID,
        Self::MASK_MONSTER_SOLID,
        Self::MASK_BOT_SOLID,
        Self::MASK_SHOT,
    ];

    /// The liquids: water, slime, lava (Quake 2's `MASK_WATER`).
    pub const MASK_LIQUID: Contents = Contents(Self::WATER.0 | Self::SLIME.0 | Self::LAVA.0);

    /// Whether this blocks someone: meets [`Contents::MASK_ANY_BLOCKING`].
    #[must_use]
    pub const fn is_solid(self) -> bool {
        self.intersects(Self::MASK_ANY_BLOCKING)
    }
}

crate::bit_set::named_bit_set!(Contents);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_round_trips_and_bits_are_distinct() {
        let mut all = 0u32;
        for (name, bit) in Contents::NAMED {
            assert_eq!(bit.0.count_ones(), 1, "{name}");
            assert_eq!(all & bit.0, 0, "{name} shares a bit");
            all |= bit.0;
            assert_eq!(Contents::from_name(name), Some(bit));
            assert_eq!(bit.names().collect::<Vec<_>>(), [name]);
        }
        assert_eq!(Contents::from_name("granite"), None);
    }

    #[test]
    fn no_blocking_mask_contains_the_trigger_bit() {
        for mask in Contents::BLOCKING_MASKS {
            assert!(!mask.intersects(Contents::TRIGGER));
        }
        assert!(!Contents::TRIGGER.is_solid());
        assert_eq!(Contents::from_name("trigger"), Some(Contents::TRIGGER));
    }

    #[test]
    fn masks_say_who_is_blocked() {
        let clip = Contents::PLAYERCLIP;
        assert!(clip.intersects(Contents::MASK_PLAYER_SOLID));
        assert!(!clip.intersects(Contents::MASK_SHOT));
        assert!(!clip.intersects(Contents::MASK_MONSTER_SOLID));
        for bot in [Contents::BOTCLIP, Contents::DONOTENTER] {
            assert!(bot.intersects(Contents::MASK_BOT_SOLID) && bot.is_solid());
            assert!(!bot.intersects(Contents::MASK_PLAYER_SOLID));
        }
        for open in [
            Contents::FOG,
            Contents::AREAPORTAL,
            Contents::CLUSTERPORTAL,
            Contents::NODROP,
            Contents::TRANSLUCENT,
            Contents::DETAIL,
            Contents::MASK_LIQUID,
            Contents::TRIGGER,
            Contents::CURRENT,
        ] {
            assert!(!open.is_solid(), "{open}");
        }
        assert_eq!(Contents::MIST, Contents::FOG);
        assert_eq!(Contents::from_name("mist"), None);
        assert_eq!(Contents::from_name("current"), Some(Contents(0x4_0000)));
        assert_eq!(Contents(0x8_0000).unnamed(), Contents(0x8_0000));
    }

    #[test]
    fn masks_named_like_quakes_mean_what_quakes_mean() {
        use crate::game::q3_flags::contents as q3;
        // The character bits are Quake 3's own.
        assert_eq!(Contents::BODY.0, q3::BODY);
        assert_eq!(Contents::CORPSE.0, q3::CORPSE);
        // MASK_SOLID: no clip, no character; the union has its own name.
        for clip in [
            Contents::PLAYERCLIP,
            Contents::MONSTERCLIP,
            Contents::BOTCLIP,
        ] {
            assert!(!clip.intersects(Contents::MASK_SOLID), "{clip}");
            assert!(clip.intersects(Contents::MASK_ANY_BLOCKING), "{clip}");
        }
        assert!(Contents::MASK_SOLID.contains(Contents::SOLID | Contents::WINDOW));
        for characters in [Contents::MASK_SOLID, Contents::MASK_ANY_BLOCKING] {
            assert!(!characters.intersects(Contents::BODY | Contents::CORPSE));
        }
        // Shots hit the living and the dead; movement meets the living only.
        assert!(Contents::MASK_SHOT.contains(Contents::BODY | Contents::CORPSE));
        assert_eq!(Contents::MASK_SHOT.0 & q3::MASK_SHOT, q3::MASK_SHOT);
        for walk in [
            Contents::MASK_PLAYER_SOLID,
            Contents::MASK_MONSTER_SOLID,
            Contents::MASK_BOT_SOLID,
        ] {
            assert!(walk.contains(Contents::BODY) && !walk.intersects(Contents::CORPSE));
        }
        // Every blocking mask is the union's map bits plus at most the character bits.
        for mask in Contents::BLOCKING_MASKS {
            let map_bits = mask & !(Contents::BODY | Contents::CORPSE);
            assert!(Contents::MASK_ANY_BLOCKING.contains(map_bits), "{mask}");
        }
    }

    #[test]
    fn the_outside_blocks_only_with_solid() {
        assert!(!Contents::OUTSIDE.is_solid());
        for mask in Contents::BLOCKING_MASKS {
            assert!(!mask.intersects(Contents::OUTSIDE));
            assert!((Contents::SOLID | Contents::OUTSIDE).intersects(mask));
        }
        assert_eq!(Contents::from_name("outside"), Some(Contents(0x400)));
    }

    #[test]
    fn set_operations_are_bit_operations() {
        let mut c = Contents::SOLID | Contents::PLAYERCLIP;
        assert!(c.contains(Contents::SOLID) && !c.contains(Contents::MASK_ANY_BLOCKING));
        c &= !Contents::SOLID;
        assert_eq!(c, Contents::PLAYERCLIP);
        c |= Contents(0x8_0000);
        assert_eq!(c.to_string(), "playerclip|0x80000");
        assert_eq!(Contents::EMPTY.to_string(), "empty");
        assert_eq!(format!("{:?}", Contents::WATER), "Contents(water)");
    }
}
