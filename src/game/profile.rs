//! Which game a map is for ([`Game`]), detected from the map itself.
//!
//! Takes a parsed [`MapFile`], gives its [`Game`]. The game decides how a brush's contents
//! are combined from its faces (the brush rules in `src/game/rules/`). Detection is
//! conservative, in this order:
//!
//! 1. The editor's `// Game: NAME` header line ([`MapFile::editor_game`]; TrenchBroom writes
//!    its game configuration's name first), when it names a game this crate knows; compared
//!    without case, spaces, `-` and `_`: `Quake` → Quake; `Quake 2`, `Quake II` → Quake 2;
//!    `Quake 3`, `Quake III`, `Quake III Arena`, `OpenArena`, `Quake Live` (id Tech 3 games
//!    with Quake 3's map format and collision) → Quake 3; `Half-Life` → Half-Life. Other
//!    names (`Generic`, `Hexen 2`, `Daikatana`, a user's own configuration) say nothing.
//! 2. The editor's `// Format: NAME` line ([`MapFile::editor_format`]), when the format
//!    belongs to one game: `Quake2` and `Quake2 (Valve)` → Quake 2; `Quake3`,
//!    `Quake3 (legacy)` and `Quake3 (Valve)` → Quake 3. `Standard`, `Valve`, `Hexen2` and
//!    `Daikatana` say nothing: Quake and Half-Life maps share Valve 220, so Half-Life still
//!    needs the signs of step 5.
//! 3. Quake 3 when the map has a `brushDef`, a patch or a `common/` texture
//!    (`is_quake3_map`).
//! 4. Quake 2 when any face carries the contents/flags/value triple.
//! 5. Half-Life when any texture starts with `!` (its liquids, `!cur_*` currents), or
//!    `worldspawn` has `mapversion` 220 together with a `wad` key naming a `halflife.wad` or
//!    `decals.wad` (Valve's own wads; Quake 1 maps name `quake.wad`, `gfx.wad` and the like).
//! 6. Quake otherwise.
//!
//! The header is the mapper's own declaration, so it wins over the heuristics; on the shared
//! corpus (11 TrenchBroom maps with a header) the two never disagree.

use crate::compiled::CompiledMap;
use crate::map::{BrushSyntax, MapFile};

/// The game a map is compiled for: it decides how a brush's faces combine into its contents
/// ([`CompileOptions::game`](crate::CompileOptions::game); `None` detects it from the map).
///
/// ```
/// use planeshift::build::Game;
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

/// The compiled world's game, here beside the games so that the world's module needs none
/// of them (the games read the world's model kinds: imports go one way).
impl CompiledMap {
    /// The game whose rules the map was compiled by ([`Game`]), or `None` for a custom game
    /// ([`CompiledMap::game_name`] names it).
    #[must_use]
    pub fn game(&self) -> Option<Game> {
        Game::from_name(self.game_name())
    }
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

    /// The game `map` is for, by the rule in this module's documentation: the editor's
    /// `// Game:` line, else its `// Format:` line, else what the map's faces and
    /// `worldspawn` show.
    ///
    /// ```
    /// use planeshift::{build::Game, map::parse_map};
    /// let plain = br#"{ "classname" "worldspawn" }"#;
    /// assert_eq!(Game::detect(&parse_map(plain)?), Game::Quake);
    /// let header = b"// Game: Quake 2\n// Format: Quake2\n{ \"classname\" \"worldspawn\" }";
    /// assert_eq!(Game::detect(&parse_map(header)?), Game::Quake2);
    /// # Ok::<(), planeshift::map::ParseError>(())
    /// ```
    #[must_use]
    pub fn detect(map: &MapFile) -> Game {
        if let Some(game) = map.editor_game.as_deref().and_then(editor_game) {
            return game;
        }
        if let Some(game) = map.editor_format.as_deref().and_then(editor_format) {
            return game;
        }
        if is_quake3_map(map) {
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

/// A name that is none of [`Game::NAMED`] (the error of [`Game`]'s `FromStr`); it says
/// which names are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame {
    /// The name given.
    pub name: String,
}

impl std::fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown game `{}` (expected ", self.name)?;
        for (i, (name, _)) in Game::NAMED.iter().enumerate() {
            let comma = if i == 0 { "" } else { ", " };
            write!(f, "{comma}{name}")?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for UnknownGame {}

/// [`Game::from_name`], as command lines parse a `--game` value.
///
/// # Examples
/// ```
/// use planeshift::build::Game;
/// assert_eq!("Quake3".parse::<Game>(), Ok(Game::Quake3));
/// let unknown = "doom".parse::<Game>().unwrap_err();
/// assert_eq!(unknown.to_string(), "unknown game `doom` (expected quake, quake2, quake3, halflife)");
/// ```
impl std::str::FromStr for Game {
    type Err = UnknownGame;

    fn from_str(name: &str) -> Result<Game, UnknownGame> {
        Game::from_name(name).ok_or_else(|| UnknownGame {
            name: name.to_owned(),
        })
    }
}

/// `name` in lower case without spaces, `-` and `_`: `Half-Life` is `halflife`.
fn folded(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '\t' | '-' | '_'))
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Editor game names (folded) that name a [`Game`]: TrenchBroom's game configurations and
/// the other spellings of the same games.
const EDITOR_GAMES: [(&str, Game); 11] = [
    ("quake", Game::Quake),
    ("quake1", Game::Quake),
    ("quake2", Game::Quake2),
    ("quakeii", Game::Quake2),
    ("quake3", Game::Quake3),
    ("quakeiii", Game::Quake3),
    ("quake3arena", Game::Quake3),
    ("quakeiiiarena", Game::Quake3),
    ("openarena", Game::Quake3),
    ("quakelive", Game::Quake3),
    ("halflife", Game::HalfLife),
];

/// The game a `// Game: NAME` header line names, or `None` for a name this crate does not
/// know (step 1 of the module's rule).
fn editor_game(name: &str) -> Option<Game> {
    let name = folded(name);
    EDITOR_GAMES
        .iter()
        .find(|(known, _)| *known == name)
        .map(|(_, game)| *game)
}

/// The game a `// Format: NAME` header line implies, or `None` for a format several games
/// share (step 2 of the module's rule).
fn editor_format(format: &str) -> Option<Game> {
    let format = folded(format);
    if format.starts_with("quake2") {
        Some(Game::Quake2)
    } else if format.starts_with("quake3") {
        Some(Game::Quake3)
    } else {
        None
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

/// The texture folder of Quake 3's tool shaders (`textures/common/*`), as `.map` faces name it.
const QUAKE3_TOOL_PREFIX: &str = "common/";

/// Whether `map` is a Quake 3 map, whose faces name shaders: it has a `brushDef` brush or a
/// patch (only Quake 3 editors write them), or a face textured from Quake 3's tool folder
/// (`common/caulk`, `common/clip`; Quake 1 and 2 name tools without a folder or from the
/// map's own, `e1u1/clip`). The editor's `// Game:` header is read before this, by
/// [`Game::detect`](crate::build::Game::detect).
#[must_use]
pub(crate) fn is_quake3_map(map: &MapFile) -> bool {
    let patches = map.entities.iter().any(|e| !e.patches.is_empty());
    patches
        || map.brushes().any(|b| {
            b.syntax == BrushSyntax::BrushDef
                || b.faces.iter().any(|f| {
                    f.texture
                        .get(..QUAKE3_TOOL_PREFIX.len())
                        .is_some_and(|p| p.eq_ignore_ascii_case(QUAKE3_TOOL_PREFIX))
                })
        })
}
