//! Which game a map is for ([`Game`]), detected from the map itself.
//!
//! Takes a parsed [`MapFile`], gives its [`Game`]. The game decides how a brush's contents
//! are combined from its faces (the brush rules in `src/brush/solidity.rs`). Detection is
//! conservative, in this order:
//!
//! 1. Quake 3 when the map has a `brushDef`, a patch or a `common/` texture
//!    ([`is_quake3_map`](crate::brush::is_quake3_map)).
//! 2. Quake 2 when any face carries the contents/flags/value triple.
//! 3. Half-Life when any texture starts with `!` (its liquids, `!cur_*` currents), or
//!    `worldspawn` has `mapversion` 220 together with a `wad` key naming a `halflife.wad` or
//!    `decals.wad` (Valve's own wads; Quake 1 maps name `quake.wad`, `gfx.wad` and the like).
//! 4. Quake otherwise.

use crate::map::MapFile;

/// The game a map is compiled for: it decides how a brush's faces combine into its contents
/// ([`CompileOptions::game`](crate::CompileOptions::game); `None` detects it from the map).
///
/// ```
/// use planeshift::Game;
/// assert_eq!(Game::from_name("halflife"), Some(Game::HalfLife));
/// assert_eq!(Game::Quake2.name(), "quake2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Game {
    /// Quake: liquids by `*` name, tool textures by name, a brush solid unless every face is
    /// a liquid or a non-solid tool.
    Quake,
    /// Quake 2 (`qbsp3`): contents from each face's triple; the brush takes its first side's.
    Quake2,
    /// Quake 3 (q3map2): contents from the faces' shaders.
    Quake3,
    /// Half-Life (`qcsg`): contents from the texture name; the brush takes its first face's.
    HalfLife,
}

impl Game {
    /// Every game with its name, as `bspc --game` spells it.
    pub const NAMED: [(&'static str, Game); 4] = [
        ("quake", Game::Quake),
        ("quake2", Game::Quake2),
        ("quake3", Game::Quake3),
        ("halflife", Game::HalfLife),
    ];

    /// The game's name (`quake`, `quake2`, `quake3`, `halflife`).
    #[must_use]
    pub fn name(self) -> &'static str {
        Self::NAMED
            .iter()
            .find(|(_, g)| *g == self)
            .map_or("quake", |(n, _)| n)
    }

    /// The game of a name (case-insensitive), or `None`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Game> {
        Self::NAMED
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, g)| *g)
    }

    /// The game `map` is for, by the rule in this module's documentation.
    #[must_use]
    pub fn detect(map: &MapFile) -> Game {
        if crate::brush::is_quake3_map(map) {
            return Game::Quake3;
        }
        let mut faces = map.brushes().flat_map(|b| b.faces.iter());
        if faces.clone().any(|f| f.extension.triple().is_some()) {
            return Game::Quake2;
        }
        if faces.any(|f| f.texture.starts_with('!')) || has_valve_worldspawn(map) {
            return Game::HalfLife;
        }
        Game::Quake
    }
}

impl std::fmt::Display for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Valve's own wads, which only Half-Life maps name.
const VALVE_WADS: [&str; 2] = ["halflife.wad", "decals.wad"];

/// Whether `worldspawn` has `mapversion` 220 and a `wad` key naming one of [`VALVE_WADS`].
fn has_valve_worldspawn(map: &MapFile) -> bool {
    let Some(world) = map
        .entities
        .iter()
        .find(|e| e.classname().eq_ignore_ascii_case("worldspawn"))
    else {
        return false;
    };
    let value = |key: &str| {
        world
            .properties
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.to_ascii_lowercase())
    };
    let version = value("mapversion").is_some_and(|v| v.trim() == "220");
    let wads = value("wad").is_some_and(|w| {
        w.split(';')
            .map(|p| p.trim().rsplit(['/', '\\']).next().unwrap_or(""))
            .any(|name| VALVE_WADS.contains(&name))
    });
    version && wads
}
