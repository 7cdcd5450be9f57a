//! Where players start, and which way they face, as each game reads its spawn entities.
//!
//! Takes a compiled level's entities and the game it was compiled for; gives
//! [`SpawnPoint`]s ([`CompiledMap::spawn_points`]) and the one a single player starts at
//! ([`CompiledMap::level_start`]). Guarantees: the facing is read as the engines read it, the
//! entity's keys applied in file order so the later of `angle` (a yaw) and `angles`
//! (pitch, yaw, roll) wins (Quake's `ED_ParseEdict`, Quake 2's and Quake 3's `G_ParseField`
//! write the same field for both); an unreadable facing is yaw 0, as C's `atof` and
//! `sscanf` leave it; a spawn without a readable `origin` is skipped; nothing panics on any
//! key's text.

use glam::Vec3;

use crate::build::Game;
use crate::compiled::{CompiledMap, Entity};

/// What a spawn point is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpawnRole {
    /// A single-player start (`info_player_start`; Quake's `info_player_start2`, the start
    /// after an episode).
    Start,
    /// A deathmatch spawn (`info_player_deathmatch`). Quake 3 marks the ones a game starts at
    /// with spawn flag 1 ([`SpawnPoint::initial`]).
    Deathmatch,
    /// A co-operative start (`info_player_coop`).
    Coop,
    /// A team's spawn: 1 red, 2 blue (Quake 3's `team_CTF_redplayer`/`redspawn` and
    /// `blueplayer`/`bluespawn`, Quake 2 CTF's `info_player_team1`/`team2`, Team Fortress's
    /// `info_player_teamspawn` with its `team_no`).
    Team(u8),
}

/// The classnames of every game's player spawns and what each is for.
const SPAWN_CLASSES: [(&str, SpawnRole); 11] = [
    ("info_player_start", SpawnRole::Start),
    ("info_player_start2", SpawnRole::Start),
    ("info_player_deathmatch", SpawnRole::Deathmatch),
    ("info_player_coop", SpawnRole::Coop),
    ("team_CTF_redplayer", SpawnRole::Team(1)),
    ("team_CTF_redspawn", SpawnRole::Team(1)),
    ("team_CTF_blueplayer", SpawnRole::Team(2)),
    ("team_CTF_bluespawn", SpawnRole::Team(2)),
    ("info_player_team1", SpawnRole::Team(1)),
    ("info_player_team2", SpawnRole::Team(2)),
    ("info_player_teamspawn", SpawnRole::Team(0)),
];

/// How far above a spawn entity's origin each game puts the player's origin, units:
/// Quake 3's and Quake 2's spawn selectors add 9 (`SelectSpawnPoint`), Quake's and
/// Half-Life's `PutClientInServer` 1. A custom game follows its base game's name when it is
/// one of these, else 0.
fn spawn_lift(game: Option<Game>) -> f32 {
    match game {
        Some(Game::Quake3 | Game::Quake2) => 9.0,
        Some(Game::Quake | Game::HalfLife) => 1.0,
        None => 0.0,
    }
}

/// A place a player may start, with its facing.
#[derive(Clone, Copy, Debug)]
pub struct SpawnPoint<'a> {
    /// The entity, for its other keys (`target`, `spawnflags`...).
    pub entity: Entity<'a>,
    /// What the spawn is for.
    pub role: SpawnRole,
    /// The entity's `origin`, as written.
    pub origin: Vec3,
    /// Where the game puts the player's origin: [`SpawnPoint::origin`] raised by the game's
    /// lift (9 units for Quake 3 and Quake 2, 1 for Quake and Half-Life, 0 for a custom game).
    pub player_origin: Vec3,
    /// The facing, degrees counter-clockwise from +x seen from above (the view's yaw).
    pub yaw: f32,
    /// Quake 3's "initial" spawn flag (1): where a game's first spawn is chosen.
    pub initial: bool,
}

impl SpawnPoint<'_> {
    /// The view a player spawned here starts with: `[pitch, yaw]` in degrees, pitch level,
    /// as [`MoveCommand`](crate::MoveCommand) and the replay's `"view"` take it.
    #[must_use]
    pub fn view(&self) -> [f32; 2] {
        [0.0, self.yaw]
    }
}

/// The yaw the engines give an entity: the later of `angle` and `angles` in file order.
fn spawn_yaw(entity: &Entity<'_>) -> f32 {
    let mut yaw = 0.0;
    for (key, value) in entity.properties() {
        match key.as_str() {
            "angle" => yaw = leading_number(value),
            "angles" => yaw = leading_number(value.split_whitespace().nth(1).unwrap_or("")),
            _ => {}
        }
    }
    yaw
}

/// The longest number literal [`leading_number`] looks for, bytes: a facing is a few digits,
/// and the bound keeps a crafted key's cost linear.
const MAX_NUMBER_TEXT: usize = 64;

/// The number a C `atof` reads at the start of `text` (0 when none, or not finite).
fn leading_number(text: &str) -> f32 {
    let text = text.trim_start();
    // The longest prefix that parses: `atof` stops at the first character it cannot take.
    let end = text
        .char_indices()
        .map(|(i, c)| i + c.len_utf8())
        .take_while(|&end| end <= MAX_NUMBER_TEXT)
        .filter(|&end| text[..end].parse::<f64>().is_ok())
        .last()
        .unwrap_or(0);
    let value = text[..end].parse::<f64>().unwrap_or(0.0) as f32;
    if value.is_finite() { value } else { 0.0 }
}

impl CompiledMap {
    /// Every player spawn of every game (single-player, deathmatch, co-op and team starts),
    /// in file order, with its facing; spawns without a readable `origin` are skipped.
    ///
    /// ```
    /// use planeshift::level::SpawnRole;
    /// let src = br#"// Game: Quake 3
    /// { "classname" "worldspawn" }
    /// { "classname" "info_player_deathmatch" "origin" "64 0 24" "angle" "90" }
    /// { "classname" "team_CTF_bluespawn" "origin" "0 64 24" "angles" "0 180 0" }"#;
    /// let world = planeshift::compile_map(src)?.map;
    /// let spawns: Vec<_> = world.spawn_points().collect();
    /// assert_eq!(spawns.len(), 2);
    /// assert_eq!((spawns[0].role, spawns[0].yaw), (SpawnRole::Deathmatch, 90.0));
    /// assert_eq!(spawns[0].player_origin, glam::Vec3::new(64.0, 0.0, 33.0)); // Quake 3: 9 up
    /// assert_eq!((spawns[1].role, spawns[1].yaw), (SpawnRole::Team(2), 180.0));
    /// # Ok::<(), planeshift::CompileError>(())
    /// ```
    pub fn spawn_points(&self) -> impl Iterator<Item = SpawnPoint<'_>> + '_ {
        let lift = Vec3::Z * spawn_lift(self.game());
        self.entities().filter_map(move |entity| {
            let classname = entity.classname();
            let (_, role) = SPAWN_CLASSES.iter().find(|(c, _)| *c == classname)?;
            let role = match role {
                SpawnRole::Team(0) => SpawnRole::Team(
                    entity
                        .get("team_no")
                        .and_then(|t| t.trim().parse::<u8>().ok())
                        .unwrap_or(0),
                ),
                other => *other,
            };
            let origin = entity.origin()?;
            let flags = entity
                .get("spawnflags")
                .and_then(|f| f.trim().parse::<i64>().ok())
                .unwrap_or(0);
            Some(SpawnPoint {
                entity,
                role,
                origin,
                player_origin: origin + lift,
                yaw: spawn_yaw(&entity),
                initial: flags & 1 != 0,
            })
        })
    }

    /// Where a single player starts: the first `info_player_start`, else the first
    /// deathmatch spawn marked initial (Quake 3's `SelectInitialSpawnPoint`), else the first
    /// deathmatch spawn, else the first spawn of any kind; `None` for a level without one.
    ///
    /// ```
    /// let src = br#"{ "classname" "worldspawn" }
    /// { "classname" "info_player_deathmatch" "origin" "64 0 24" }
    /// { "classname" "info_player_start" "origin" "0 0 24" "angle" "270" }"#;
    /// let world = planeshift::compile_map(src)?.map;
    /// let start = world.level_start().expect("a start");
    /// assert_eq!((start.origin, start.yaw), (glam::Vec3::new(0.0, 0.0, 24.0), 270.0));
    /// assert_eq!(start.player_origin.z, 25.0); // Quake: 1 up
    /// # Ok::<(), planeshift::CompileError>(())
    /// ```
    #[must_use]
    pub fn level_start(&self) -> Option<SpawnPoint<'_>> {
        let deathmatch = |s: &SpawnPoint<'_>| s.role == SpawnRole::Deathmatch;
        self.spawn_points()
            .find(|s| s.role == SpawnRole::Start)
            .or_else(|| self.spawn_points().find(|s| deathmatch(s) && s.initial))
            .or_else(|| self.spawn_points().find(deathmatch))
            .or_else(|| self.spawn_points().next())
    }
}

#[cfg(test)]
mod tests {
    use super::leading_number;

    #[test]
    fn a_facing_reads_as_atof_reads_it() {
        assert_eq!(leading_number("90"), 90.0);
        assert_eq!(leading_number(" -45.5 "), -45.5);
        assert_eq!(leading_number("180x"), 180.0);
        assert_eq!(leading_number("nan"), 0.0);
        assert_eq!(leading_number("inf"), 0.0);
        assert_eq!(leading_number("-"), 0.0);
        assert_eq!(leading_number(""), 0.0);
        assert_eq!(leading_number("1e400"), 0.0);
        assert_eq!(leading_number("1e2z"), 100.0);
        assert_eq!(leading_number(&"9".repeat(100_000)), 0.0);
    }
}
