//! The soak's mixed crowd: teams of players and monsters (`--teams N`, `--monsters N`).
//!
//! Takes the soak's base configuration, the number of teams and of monsters; gives each
//! bot's configuration and the count of overlapping pairs that should block each other.
//! The last `monsters` bots are monsters: they move with [`Contents::MASK_MONSTER_SOLID`]
//! (monster clip stops them, player clip does not) and block everyone. The others are
//! players with the base mask, player `k` in team `k mod teams` ([`CollisionGroups::team`]:
//! team mates pass through each other, the other teams and the monsters block); with no
//! teams every player blocks every other. Guarantees: with neither teams nor monsters every
//! bot gets the base configuration, so the soak is the plain one, bit for bit.

use planeshift::CompiledMap;
use planeshift::Contents;
use planeshift::ControllerConfig;
use planeshift::Crowd;
use planeshift::{QueryFilter, Scene, query::CollisionGroups};

/// Who is who in the crowd.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mix {
    /// Player teams (0: no teams).
    pub teams: usize,
    /// Monsters among the bots (the last ones).
    pub monsters: usize,
}

impl Mix {
    /// Whether the crowd is mixed (teams or monsters).
    pub fn is_mixed(&self) -> bool {
        self.teams > 0 || self.monsters > 0
    }

    /// Bot `bot`'s configuration, of `bots` in all, from `base`.
    pub fn config(&self, base: &ControllerConfig, bot: usize, bots: usize) -> ControllerConfig {
        let mut config = *base;
        if bot >= bots.saturating_sub(self.monsters) {
            config.mask = Contents::MASK_MONSTER_SOLID;
            config.groups = CollisionGroups::ALL;
        } else if self.teams > 0 {
            config.groups = CollisionGroups::team((bot % self.teams) as u32);
        }
        config
    }
}

/// Whether characters configured `a` and `b` block each other: their groups interact and
/// one's movement mask meets the other's body.
pub fn block(a: &ControllerConfig, b: &ControllerConfig) -> bool {
    a.groups.interacts(b.groups)
        && (a.mask.intersects(Contents::BODY) || b.mask.intersects(Contents::BODY))
}

/// The pairs of characters of `crowd` that overlap now and should block each other
/// (`configs[id]` is character `id`'s configuration). Each character's partners come from
/// [`Crowd::overlapping_at`] (the lowest 8 ids it overlaps); a character that overlaps a
/// blocking one none of those names (a pile of more than 8) counts one pair, found by an
/// exact [`Scene::overlap`] under its groups, so a blocking overlap is never missed.
pub fn blocking_pairs(world: &CompiledMap, crowd: &Crowd, configs: &[ControllerConfig]) -> usize {
    let scene = Scene {
        map: world,
        movers: &[],
        bodies: crowd.bodies(),
    };
    let mut pairs = 0;
    for (id, c, _) in crowd.iter() {
        let Some(mine) = configs.get(id as usize) else {
            continue;
        };
        let others = crowd.overlapping_at(c.shape(), c.shape_center(), Some(id));
        let blocking = |other: &u32| configs.get(*other as usize).is_some_and(|o| block(mine, o));
        let named = others.as_slice().iter().filter(|o| blocking(o)).count();
        pairs += others
            .as_slice()
            .iter()
            .filter(|&&o| o > id && blocking(&o))
            .count();
        if named == 0 {
            // Bodies only (no brush is a body), under this character's groups.
            let filter = QueryFilter::new(Contents::BODY)
                .groups(mine.groups)
                .skip_character(id);
            if scene.overlap(c.shape(), c.shape_center(), &filter) {
                pairs += 1;
            }
        }
    }
    pairs
}
