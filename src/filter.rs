//! [`CollisionGroups`] and [`QueryFilter`]: which bodies a query or a moving character
//! meets.
//!
//! Shared by the runtime's stages (the controller's movement and the scene's queries), so
//! it sits below both. Takes contents masks and group bits; gives the two filters every scene
//! query and every character's movement applies. Guarantees: plain bit tests, no allocation; the defaults
//! meet everything a mask lets through (every group, nothing skipped), so a filter built from
//! a mask alone answers as the mask did before filters existed.

use crate::contents::Contents;

/// Group memberships and the groups a body interacts with, like Rapier's
/// `InteractionGroups`: two bodies interact when each one's memberships meet the other's
/// filter. 32 groups, one bit each.
///
/// Teams: a team's members pass through each other and are blocked by the other team's
/// (`CollisionGroups::team`); a spectator meets no one ([`CollisionGroups::NONE`]).
///
/// ```
/// use planeshift::query::CollisionGroups;
/// let red = CollisionGroups::team(0);
/// let blue = CollisionGroups::team(1);
/// assert!(!red.interacts(red), "team mates pass through each other");
/// assert!(red.interacts(blue) && blue.interacts(red), "the other team blocks");
/// assert!(!CollisionGroups::NONE.interacts(red), "a spectator meets no one");
/// assert!(CollisionGroups::ALL.interacts(blue));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct CollisionGroups {
    /// The groups this body belongs to.
    pub memberships: u32,
    /// The groups this body interacts with.
    pub filter: u32,
}

impl CollisionGroups {
    /// In every group, interacting with every group: the default.
    pub const ALL: CollisionGroups = CollisionGroups {
        memberships: u32::MAX,
        filter: u32::MAX,
    };

    /// In no group, interacting with none: a spectator, a ghost.
    pub const NONE: CollisionGroups = CollisionGroups {
        memberships: 0,
        filter: 0,
    };

    /// Memberships and filter.
    #[must_use]
    pub const fn new(memberships: u32, filter: u32) -> CollisionGroups {
        CollisionGroups {
            memberships,
            filter,
        }
    }

    /// Team `index` (0..32; taken modulo 32): a member of group `index` that interacts with
    /// every group but its own, so team mates pass through each other and every other body
    /// (another team, a body in [`CollisionGroups::ALL`]) blocks.
    #[must_use]
    pub const fn team(index: u32) -> CollisionGroups {
        let bit = 1u32 << (index % 32);
        CollisionGroups {
            memberships: bit,
            filter: !bit,
        }
    }

    /// Whether `self` and `other` interact: each one's memberships meet the other's filter.
    #[must_use]
    pub const fn interacts(self, other: CollisionGroups) -> bool {
        self.memberships & other.filter != 0 && other.memberships & self.filter != 0
    }
}

impl Default for CollisionGroups {
    fn default() -> CollisionGroups {
        CollisionGroups::ALL
    }
}

/// What a scene query meets: a contents mask (for brushes and characters alike: a living
/// character is [`Contents::BODY`], a dead one [`Contents::CORPSE`]), collision groups
/// tested against each character's, and an entity to skip (the shooter: a character id,
/// a model).
///
/// ```
/// use planeshift::Contents;
/// use planeshift::{query::CollisionGroups, QueryFilter};
/// let shot = QueryFilter::new(Contents::MASK_SHOT).skip_character(7);
/// assert!(shot.meets_character(3, Contents::CORPSE, CollisionGroups::ALL));
/// assert!(!shot.meets_character(7, Contents::BODY, CollisionGroups::ALL));
/// let walk = QueryFilter::new(Contents::MASK_PLAYER_SOLID);
/// assert!(!walk.meets_character(3, Contents::CORPSE, CollisionGroups::ALL));
/// assert_eq!(QueryFilter::default().mask, Contents::MASK_SHOT);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueryFilter {
    /// What blocks: brushes whose contents meet it, characters whose contents meet it.
    pub mask: Contents,
    /// The query's groups, tested against each character's ([`CollisionGroups::interacts`]).
    pub groups: CollisionGroups,
    /// A character never met (the shooter, the mover).
    pub skip_character: Option<u32>,
    /// A model never met (the mover's own door, the shooter's vehicle).
    pub skip_model: Option<usize>,
}

impl Default for QueryFilter {
    /// A shot's filter ([`Contents::MASK_SHOT`]), every group, nothing skipped.
    fn default() -> QueryFilter {
        QueryFilter::new(Contents::MASK_SHOT)
    }
}

impl QueryFilter {
    /// `mask`, every group, nothing skipped.
    #[must_use]
    pub const fn new(mask: Contents) -> QueryFilter {
        QueryFilter {
            mask,
            groups: CollisionGroups::ALL,
            skip_character: None,
            skip_model: None,
        }
    }

    /// With collision groups `groups`.
    #[must_use]
    pub const fn groups(mut self, groups: CollisionGroups) -> QueryFilter {
        self.groups = groups;
        self
    }

    /// Skipping character `id`.
    #[must_use]
    pub const fn skip_character(mut self, id: u32) -> QueryFilter {
        self.skip_character = Some(id);
        self
    }

    /// Skipping model `model`.
    #[must_use]
    pub const fn skip_model(mut self, model: usize) -> QueryFilter {
        self.skip_model = Some(model);
        self
    }

    /// Whether character `id`, made of `contents`, in `groups`, is met.
    #[must_use]
    #[inline]
    pub fn meets_character(&self, id: u32, contents: Contents, groups: CollisionGroups) -> bool {
        self.skip_character != Some(id)
            && contents.intersects(self.mask)
            && self.groups.interacts(groups)
    }

    /// Whether model `model` is looked at (its brushes then answer to the mask).
    #[must_use]
    pub fn meets_model(&self, model: usize) -> bool {
        self.skip_model != Some(model)
    }
}
