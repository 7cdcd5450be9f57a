//! A custom game ([`CustomGame`]), described in TOML the way a TrenchBroom game configuration
//! describes one: texture name patterns to contents and surface flags, entity classes to
//! what their brushes are.
//!
//! Takes the configuration (TOML text with the `toml` feature, or any serde format and
//! [`CustomGame::validate`]); gives the checked rules the brush stage applies
//! (`src/game/rules/mod.rs`) or a typed [`CustomGameError`] naming the field, the rule
//! (its list and index) and the problem. Guarantees: never panics on any input; every name
//! in a rule is checked against [`Contents::NAMED`] and [`SurfaceFlags::NAMED`]; the number
//! of rules and the length of every pattern are bounded ([`CustomGame::MAX_RULES`],
//! [`CustomGame::MAX_PATTERN_LEN`]), so matching a name costs at most rules × pattern × name
//! steps.
//!
//! ```toml
//! name = "blockworld"           # [a-z0-9_-]+, not a built-in game's name
//! base = "quake"                # the built-in game whose rules apply where no rule matches
//! combine = "first"             # how a brush's faces combine: "first" or "any"
//!
//! [[textures]]                  # in order: the first pattern that matches a texture wins
//! pattern = "lava_*"
//! contents = ["lava"]           # Contents names; [] = nothing (the face does not vote)
//! surface = ["warp"]            # SurfaceFlags names
//!
//! [[entities]]                  # in order: the first pattern that matches a class wins
//! pattern = "zone_*"
//! class = "trigger"             # world, solid, trigger, liquid, ladder or illusionary
//! ```
//!
//! Patterns are globs: `*` matches any run of characters, `?` one character, `\` makes the
//! next `*`, `?`, `\`, `[` or `]` literal (`\**` is TrenchBroom's liquid tag: a literal `*`
//! then anything); `[` and `]` are reserved. Matching is ASCII case-insensitive. A texture
//! pattern is matched against the whole texture name and, when it has no `/`, against the
//! name's last path segment too (after the last `/` or `\`), as TrenchBroom matches its
//! brush-face tags: `lava_*` matches `bw/lava_hot`, `tools/clip` only `tools/clip`. An
//! entity pattern is matched against the whole class name.

use serde::{Deserialize, Serialize};

use super::glob::{Glob, GlobError};
use crate::contents::Contents;
use crate::game::Game;
use crate::surface::SurfaceFlags;

/// A game described by rules rather than built in: select it with
/// [`CompileOptions::custom_game`](crate::CompileOptions::custom_game), or `bspc compile
/// --game FILE.toml`.
///
/// Each brush face's meaning comes from the first [`TextureRule`] whose pattern matches its
/// texture; each brush entity's from the first [`EntityRule`] whose pattern matches its
/// class; anything no rule matches follows the [`base`](CustomGame::base) game's rules. The
/// compiled file records [`name`](CustomGame::name) ([`CompiledMap::game_name`]; its
/// [`CompiledMap::game`] is `None`).
///
/// A brush's contents:
/// 1. When no face's contents come from a rule (none matches, or the matching rules set
///    only `surface`), the base game's brush rule gives them, exactly as for the base game.
/// 2. Otherwise each face has contents: its rule's, or else what the base game's brush
///    rule gives a brush of that face alone. They combine by [`combine`](CustomGame::combine)
///    ([`FaceCombine`]); faces whose contents are empty (`contents = []`, a hint) do not vote.
/// 3. Then the entity's class applies ([`EntityClass`]; `worldspawn` and brushes outside any
///    entity are always the world), or, when no entity rule matches, the base game's entity
///    rules (`trigger_*` triggers; Half-Life's `func_water` and kin).
///
/// A side's surface flags are its texture rule's `surface` when it has one, else the base
/// game's for that face. A custom game has no contents numbering of its own: a brush's game
/// contents value is its [`Contents`] bits.
///
/// [`CompiledMap::game_name`]: crate::CompiledMap::game_name
/// [`CompiledMap::game`]: crate::CompiledMap::game
///
/// # Examples
/// ```
/// use planeshift::{CompileOptions, build::{CustomGame, EntityClass, EntityRule, TextureRule}};
/// let game = CustomGame {
///     textures: vec![TextureRule::new("lava_*").with_contents(&["lava"]).with_surface(&["warp"])],
///     entities: vec![EntityRule::new("zone_*", EntityClass::Trigger)],
///     ..CustomGame::new("blockworld")
/// };
/// game.validate()?;
/// let options = CompileOptions { custom_game: Some(game), ..CompileOptions::default() };
/// # let _ = options;
/// # Ok::<(), planeshift::build::CustomGameError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CustomGame {
    /// The game's name, recorded in the compiled file: 1 to [`CustomGame::MAX_NAME_LEN`]
    /// characters of `[a-z0-9_-]`, and not a built-in game's name ([`Game::NAMED`]).
    pub name: String,
    /// The built-in game whose rules apply where no rule of this game matches, by name
    /// (`quake`, `quake2`, `quake3` or `halflife`, any case); `None` is `quake`. With
    /// `quake3`, Quake 3 shader scripts are read as for a Quake 3 map
    /// ([`CompileOptions::shader_folders`](crate::CompileOptions::shader_folders)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    /// How a brush's faces combine into its contents when rules give some of them.
    #[serde(default)]
    pub combine: FaceCombine,
    /// Texture rules, in order: the first whose pattern matches a texture wins. At most
    /// [`CustomGame::MAX_RULES`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub textures: Vec<TextureRule>,
    /// Entity rules, in order: the first whose pattern matches a class name wins. At most
    /// [`CustomGame::MAX_RULES`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entities: Vec<EntityRule>,
}

/// How a brush's faces combine into the brush's contents (step 2 of [`CustomGame`]'s rule).
/// Faces whose contents are empty never vote; a brush none of whose faces votes is empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FaceCombine {
    /// The first face in file order whose contents are not empty decides (ericw-tools'
    /// rule; qbsp3 and qcsg take the first face outright). The default.
    #[default]
    First,
    /// Every voting face counts, in any order: the union of their contents, without the
    /// blocking bits ([`Contents::MASK_ANY_BLOCKING`]) when one of them blocks nothing (a liquid,
    /// ladder or fog face makes its brush a liquid, ladder or fog, as q3map2 lets such a
    /// side override the brush's shader).
    Any,
}

/// What a texture means: a pattern, and the contents and surface flags of the faces it
/// matches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextureRule {
    /// The glob (module docs), at most [`CustomGame::MAX_PATTERN_LEN`] bytes.
    pub pattern: String,
    /// The face's contents, by [`Contents::NAMED`] names; `[]` is nothing (the face does not
    /// vote); `None` (absent) keeps the base game's contents for the face.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contents: Option<Vec<String>>,
    /// The side's surface flags, by [`SurfaceFlags::NAMED`] names; `None` (absent) keeps the
    /// base game's flags for the face.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub surface: Option<Vec<String>>,
}

impl TextureRule {
    /// A rule for `pattern` that keeps the base game's contents and flags (until
    /// [`TextureRule::with_contents`] and [`TextureRule::with_surface`] set them).
    #[must_use]
    pub fn new(pattern: &str) -> Self {
        TextureRule {
            pattern: pattern.to_owned(),
            contents: None,
            surface: None,
        }
    }

    /// The rule with these contents names.
    #[must_use]
    pub fn with_contents(self, names: &[&str]) -> Self {
        TextureRule {
            contents: Some(owned(names)),
            ..self
        }
    }

    /// The rule with these surface flag names.
    #[must_use]
    pub fn with_surface(self, names: &[&str]) -> Self {
        TextureRule {
            surface: Some(owned(names)),
            ..self
        }
    }
}

fn owned(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| (*n).to_owned()).collect()
}

/// What a brush entity's class means: a pattern and a class.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntityRule {
    /// The glob (module docs) over the whole class name, at most
    /// [`CustomGame::MAX_PATTERN_LEN`] bytes.
    pub pattern: String,
    /// What the entity's brushes are.
    pub class: EntityClass,
    /// For [`EntityClass::Solid`] only: whether the game moves the entity (a door, a
    /// platform: [`ModelKind::Mover`](crate::level::ModelKind::Mover)) or not (the default:
    /// [`ModelKind::Static`](crate::level::ModelKind::Static)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<bool>,
    /// For [`EntityClass::Liquid`] only: which liquid (the default is water).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub liquid: Option<LiquidKind>,
}

impl EntityRule {
    /// A rule from a pattern and a class, with neither `moves` nor `liquid`.
    #[must_use]
    pub fn new(pattern: &str, class: EntityClass) -> Self {
        EntityRule {
            pattern: pattern.to_owned(),
            class,
            moves: None,
            liquid: None,
        }
    }

    /// The rule with `moves` set (for [`EntityClass::Solid`]).
    #[must_use]
    pub fn with_moves(self, moves: bool) -> Self {
        EntityRule {
            moves: Some(moves),
            ..self
        }
    }

    /// The rule with `liquid` set (for [`EntityClass::Liquid`]).
    #[must_use]
    pub fn with_liquid(self, liquid: LiquidKind) -> Self {
        EntityRule {
            liquid: Some(liquid),
            ..self
        }
    }
}

/// What an entity's brushes are, and where they go. Origin brushes (the `origin` texture)
/// stay rotation pivots whatever the class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EntityClass {
    /// Merged into the world model with their textures' contents (`func_group`,
    /// `func_detail`).
    World,
    /// A model of its own with its textures' contents, that blocks:
    /// [`ModelKind::Static`](crate::level::ModelKind::Static) (part of the world's sweeps and point
    /// contents) or, with `moves = true`, [`ModelKind::Mover`](crate::level::ModelKind::Mover). A
    /// model none of whose brushes blocks is a [`ModelKind::Volume`](crate::level::ModelKind::Volume).
    Solid,
    /// A model of its own whose brushes are [`Contents::TRIGGER`] volumes
    /// ([`ModelKind::Trigger`](crate::level::ModelKind::Trigger)), found by
    /// [`CompiledMap::touching_triggers`](crate::CompiledMap::touching_triggers).
    Trigger,
    /// Merged into the world model as a liquid (`liquid`, water by default), which never
    /// blocks: point contents report it, as Quake's water brushes.
    Liquid,
    /// Merged into the world model as [`Contents::LADDER`], which never blocks: point
    /// contents report it, as Quake 2's ladder brushes.
    Ladder,
    /// A model of its own ([`ModelKind::Volume`](crate::level::ModelKind::Volume)) that blocks
    /// nothing: its textures' contents without the blocking bits (Half-Life's
    /// `func_illusionary`).
    Illusionary,
}

/// A liquid for [`EntityClass::Liquid`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LiquidKind {
    /// [`Contents::WATER`].
    #[default]
    Water,
    /// [`Contents::SLIME`].
    Slime,
    /// [`Contents::LAVA`].
    Lava,
}

impl LiquidKind {
    /// The liquid's contents bit.
    #[must_use]
    pub fn contents(self) -> Contents {
        match self {
            LiquidKind::Water => Contents::WATER,
            LiquidKind::Slime => Contents::SLIME,
            LiquidKind::Lava => Contents::LAVA,
        }
    }
}

/// Which list of rules an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleList {
    /// `[[textures]]`.
    Textures,
    /// `[[entities]]`.
    Entities,
}

impl std::fmt::Display for RuleList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RuleList::Textures => "textures",
            RuleList::Entities => "entities",
        })
    }
}

/// What is wrong with one rule ([`CustomGameError::Rule`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RuleProblem {
    /// The pattern is empty.
    #[error("pattern: empty")]
    EmptyPattern,
    /// The pattern is longer than [`CustomGame::MAX_PATTERN_LEN`] bytes.
    #[error("pattern: longer than {} bytes", CustomGame::MAX_PATTERN_LEN)]
    PatternTooLong,
    /// The pattern ends in a lone `\`.
    #[error("pattern: ends in a lone `\\` (write `\\\\` for a backslash)")]
    DanglingEscape,
    /// `\` before a character that needs no escape.
    #[error("pattern: `\\{0}` escapes nothing (only `*`, `?`, `\\`, `[` and `]` are escaped)")]
    NeedlessEscape(char),
    /// `[` or `]`, reserved for character classes, which are not supported.
    #[error("pattern: `{0}` is reserved (character classes are not supported; write `\\{0}`)")]
    Reserved(char),
    /// A control character (a tab, a newline…), which no texture or class name holds.
    #[error("pattern: a control character ({0:?})")]
    ControlCharacter(char),
    /// The same pattern (ignoring case) as an earlier rule of the list, which always wins.
    #[error("the same pattern as rule {first}, which always matches first")]
    DuplicatePattern {
        /// The index of the earlier rule in the same list.
        first: usize,
    },
    /// A name in `contents` that [`Contents::from_name`] does not know.
    #[error("contents: unknown name {0:?} (known: {known})", known = contents_names())]
    UnknownContents(String),
    /// A name in `surface` that [`SurfaceFlags::from_name`] does not know.
    #[error("surface: unknown name {0:?} (known: {known})", known = surface_names())]
    UnknownSurface(String),
    /// A name written twice in `contents` or `surface`.
    #[error("{field}: {name:?} written twice")]
    RepeatedName {
        /// `contents` or `surface`.
        field: &'static str,
        /// The name.
        name: String,
    },
    /// `moves` on a class other than `solid`, or `liquid` on a class other than `liquid`.
    #[error("`{key}` applies to class `{wanted}` only")]
    KeyNotForClass {
        /// The key.
        key: &'static str,
        /// The class the key belongs to.
        wanted: &'static str,
    },
}

impl From<GlobError> for RuleProblem {
    fn from(error: GlobError) -> RuleProblem {
        match error {
            GlobError::Empty => RuleProblem::EmptyPattern,
            GlobError::TooLong => RuleProblem::PatternTooLong,
            GlobError::DanglingEscape => RuleProblem::DanglingEscape,
            GlobError::NeedlessEscape(c) => RuleProblem::NeedlessEscape(c),
            GlobError::Reserved(c) => RuleProblem::Reserved(c),
            GlobError::ControlCharacter(c) => RuleProblem::ControlCharacter(c),
        }
    }
}

fn contents_names() -> String {
    let names: Vec<&str> = Contents::NAMED.iter().map(|(n, _)| *n).collect();
    names.join(", ")
}

fn surface_names() -> String {
    let names: Vec<&str> = SurfaceFlags::NAMED.iter().map(|(n, _)| *n).collect();
    names.join(", ")
}

/// Why a custom game was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CustomGameError {
    /// The TOML text did not parse, missed `name`, named an unknown key or class, or gave a
    /// value of the wrong type; the parser's error, which says where, is the source.
    #[cfg(feature = "toml")]
    #[error("custom game: the TOML does not read")]
    Toml(#[source] toml::de::Error),
    /// `name` is empty, too long, holds a character outside `[a-z0-9_-]`, or is a built-in
    /// game's name.
    #[error("custom game: `name` {problem}: {name:?}")]
    BadName {
        /// The name as written.
        name: String,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// `base` is not a built-in game's name.
    #[error("custom game: `base` must be quake, quake2, quake3 or halflife, not {0:?}")]
    UnknownBase(String),
    /// More rules in a list than [`CustomGame::MAX_RULES`].
    #[error("custom game: {count} [[{list}]] rules, more than {}", CustomGame::MAX_RULES)]
    TooManyRules {
        /// The list.
        list: RuleList,
        /// How many rules it has.
        count: usize,
    },
    /// One rule is wrong.
    #[error("custom game: {list}[{index}] (pattern {pattern:?}): {problem}")]
    Rule {
        /// The list.
        list: RuleList,
        /// The rule's index in the list, from 0.
        index: usize,
        /// The rule's pattern, as written (cut to [`CustomGame::MAX_PATTERN_LEN`] bytes).
        pattern: String,
        /// What is wrong.
        problem: RuleProblem,
    },
}

impl CustomGame {
    /// The most rules of each list (`textures`, `entities`).
    pub const MAX_RULES: usize = 1024;
    /// The longest pattern, in bytes.
    pub const MAX_PATTERN_LEN: usize = 256;
    /// The longest name, in bytes.
    pub const MAX_NAME_LEN: usize = 64;

    /// A game called `name` with no rules: the base game (Quake) under another name, to
    /// fill in with struct update syntax.
    #[must_use]
    pub fn new(name: &str) -> Self {
        CustomGame {
            name: name.to_owned(),
            base: None,
            combine: FaceCombine::default(),
            textures: Vec::new(),
            entities: Vec::new(),
        }
    }

    /// Reads a custom game from TOML (feature `toml`) and checks it
    /// ([`CustomGame::validate`]). Any other serde format works too: deserialize, then
    /// validate.
    ///
    /// # Errors
    /// [`CustomGameError::Toml`] for bad syntax, a missing `name`, an unknown key or class,
    /// or a value of the wrong type; the other variants as [`CustomGame::validate`] gives
    /// them.
    ///
    /// # Examples
    /// ```
    /// use planeshift::build::{CustomGame, CustomGameError, RuleList, RuleProblem};
    /// let game = CustomGame::from_toml(
    ///     "name = \"blockworld\"\n[[textures]]\npattern = \"ice*\"\nsurface = [\"slick\"]\n",
    /// )?;
    /// assert_eq!(game.textures[0].pattern, "ice*");
    /// let bad = CustomGame::from_toml(
    ///     "name = \"blockworld\"\n[[textures]]\npattern = \"ice*\"\ncontents = [\"ice\"]\n",
    /// );
    /// assert!(matches!(
    ///     bad,
    ///     Err(CustomGameError::Rule { list: RuleList::Textures, index: 0, problem: RuleProblem::UnknownContents(_), .. })
    /// ));
    /// # Ok::<(), CustomGameError>(())
    /// ```
    #[cfg(feature = "toml")]
    pub fn from_toml(text: &str) -> Result<CustomGame, CustomGameError> {
        let game: CustomGame = toml::from_str(text).map_err(CustomGameError::Toml)?;
        game.validate()?;
        Ok(game)
    }

    /// Checks the name, the base, the number of rules, every pattern and every name in
    /// every rule, and that no two rules of a list have the same pattern.
    ///
    /// # Errors
    /// The first problem found, in this order: the name, the base, then the texture rules
    /// and the entity rules in order.
    pub fn validate(&self) -> Result<(), CustomGameError> {
        self.resolve().map(|_| ())
    }

    /// The checked rules the brush stage applies.
    pub(crate) fn resolve(&self) -> Result<CustomRules, CustomGameError> {
        check_name(&self.name)?;
        let base = match &self.base {
            None => Game::Quake,
            Some(name) => {
                Game::from_name(name).ok_or_else(|| CustomGameError::UnknownBase(name.clone()))?
            }
        };
        for (list, count) in [
            (RuleList::Textures, self.textures.len()),
            (RuleList::Entities, self.entities.len()),
        ] {
            if count > Self::MAX_RULES {
                return Err(CustomGameError::TooManyRules { list, count });
            }
        }
        let mut textures: Vec<ResolvedTexture> = Vec::with_capacity(self.textures.len());
        for (index, rule) in self.textures.iter().enumerate() {
            let bad = |problem| rule_error(RuleList::Textures, index, &rule.pattern, problem);
            let glob = Glob::new(&rule.pattern, Self::MAX_PATTERN_LEN)
                .map_err(|e| bad(e.into()))?;
            if let Some(first) = textures.iter().position(|t| t.glob == glob) {
                return Err(bad(RuleProblem::DuplicatePattern { first }));
            }
            let contents = rule
                .contents
                .as_deref()
                .map(|names| {
                    bits_of(
                        names,
                        "contents",
                        |n| Contents::from_name(n).map(|c| c.0),
                        |n| RuleProblem::UnknownContents(n.to_owned()),
                    )
                })
                .transpose()
                .map_err(bad)?
                .map(Contents);
            let surface = rule
                .surface
                .as_deref()
                .map(|names| {
                    bits_of(
                        names,
                        "surface",
                        |n| SurfaceFlags::from_name(n).map(|s| s.0),
                        |n| RuleProblem::UnknownSurface(n.to_owned()),
                    )
                })
                .transpose()
                .map_err(bad)?
                .map(SurfaceFlags);
            textures.push(ResolvedTexture {
                glob,
                contents,
                surface,
            });
        }
        let mut entities: Vec<(Glob, EntityMeaning)> = Vec::with_capacity(self.entities.len());
        for (index, rule) in self.entities.iter().enumerate() {
            let bad = |problem| rule_error(RuleList::Entities, index, &rule.pattern, problem);
            let glob = Glob::new(&rule.pattern, Self::MAX_PATTERN_LEN)
                .map_err(|e| bad(e.into()))?;
            if let Some(first) = entities.iter().position(|(g, _)| *g == glob) {
                return Err(bad(RuleProblem::DuplicatePattern { first }));
            }
            if rule.moves.is_some() && rule.class != EntityClass::Solid {
                return Err(bad(RuleProblem::KeyNotForClass {
                    key: "moves",
                    wanted: "solid",
                }));
            }
            if rule.liquid.is_some() && rule.class != EntityClass::Liquid {
                return Err(bad(RuleProblem::KeyNotForClass {
                    key: "liquid",
                    wanted: "liquid",
                }));
            }
            let meaning = match rule.class {
                EntityClass::World => EntityMeaning::World,
                EntityClass::Solid => EntityMeaning::Solid {
                    moves: rule.moves.unwrap_or(false),
                },
                EntityClass::Trigger => EntityMeaning::Trigger,
                EntityClass::Liquid => {
                    EntityMeaning::Liquid(rule.liquid.unwrap_or_default().contents())
                }
                EntityClass::Ladder => EntityMeaning::Ladder,
                EntityClass::Illusionary => EntityMeaning::Illusionary,
            };
            entities.push((glob, meaning));
        }
        Ok(CustomRules {
            name: self.name.clone(),
            base,
            combine: self.combine,
            textures,
            entities,
        })
    }
}

fn check_name(name: &str) -> Result<(), CustomGameError> {
    let problem = if name.is_empty() {
        Some("is empty")
    } else if name.len() > CustomGame::MAX_NAME_LEN {
        Some("is longer than 64 bytes")
    } else if !name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
    {
        Some("may hold only a-z, 0-9, `_` and `-`")
    } else if Game::from_name(name).is_some() {
        Some("is a built-in game's")
    } else {
        None
    };
    match problem {
        Some(problem) => Err(CustomGameError::BadName {
            name: name.chars().take(CustomGame::MAX_NAME_LEN).collect(),
            problem,
        }),
        None => Ok(()),
    }
}

const _: () = assert!(CustomGame::MAX_NAME_LEN == 64, "update check_name's message");
const _: () = assert!(
    CustomGame::MAX_NAME_LEN <= crate::tolerance::MAX_ENTITY_STRING,
    "the compiled file must hold every name"
);

fn rule_error(list: RuleList, index: usize, pattern: &str, problem: RuleProblem) -> CustomGameError {
    let mut end = pattern.len().min(CustomGame::MAX_PATTERN_LEN);
    while !pattern.is_char_boundary(end) {
        end -= 1;
    }
    CustomGameError::Rule {
        list,
        index,
        pattern: pattern.get(..end).unwrap_or_default().to_owned(),
        problem,
    }
}

/// The union of the bits `names` name, refusing unknown and repeated names.
fn bits_of(
    names: &[String],
    field: &'static str,
    lookup: fn(&str) -> Option<u32>,
    unknown: fn(&str) -> RuleProblem,
) -> Result<u32, RuleProblem> {
    let mut bits = 0u32;
    for (i, name) in names.iter().enumerate() {
        let bit = lookup(name).ok_or_else(|| unknown(name))?;
        if names[..i].contains(name) {
            return Err(RuleProblem::RepeatedName {
                field,
                name: name.clone(),
            });
        }
        bits |= bit;
    }
    Ok(bits)
}

/// What a checked entity rule makes of an entity's brushes ([`EntityClass`], resolved).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EntityMeaning {
    /// Merged into the world with their textures' contents.
    World,
    /// A blocking model; Mover when `moves`, else Static.
    Solid { moves: bool },
    /// Trigger volumes in a model of their own.
    Trigger,
    /// Merged into the world as this liquid.
    Liquid(Contents),
    /// Merged into the world as a ladder.
    Ladder,
    /// A model of its own that blocks nothing.
    Illusionary,
}

impl EntityMeaning {
    /// Whether the entity's brushes join the world model.
    pub(crate) fn joins_world(self) -> bool {
        matches!(
            self,
            EntityMeaning::World | EntityMeaning::Liquid(_) | EntityMeaning::Ladder
        )
    }
}

/// A checked texture rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ResolvedTexture {
    glob: Glob,
    /// The face's contents, or `None` for the base game's.
    pub contents: Option<Contents>,
    /// The side's flags, or `None` for the base game's.
    pub surface: Option<SurfaceFlags>,
}

/// A checked custom game: its rules in matching form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CustomRules {
    /// The game's name.
    pub name: String,
    /// The built-in game whose rules apply where none of these matches.
    pub base: Game,
    /// How a brush's faces combine.
    pub combine: FaceCombine,
    textures: Vec<ResolvedTexture>,
    entities: Vec<(Glob, EntityMeaning)>,
}

impl CustomRules {
    /// The first texture rule matching `texture` (its whole name, or its last path segment
    /// for a pattern without `/`).
    pub(crate) fn texture_rule(&self, texture: &str) -> Option<&ResolvedTexture> {
        if self.textures.is_empty() {
            return None;
        }
        let full: Vec<char> = texture.chars().map(|c| c.to_ascii_lowercase()).collect();
        let last = full
            .iter()
            .rposition(|c| matches!(c, '/' | '\\'))
            .map_or(&full[..], |i| &full[i + 1..]);
        self.textures.iter().find(|rule| {
            rule.glob.matches(&full) || (!rule.glob.has_slash && rule.glob.matches(last))
        })
    }

    /// What the first entity rule matching `classname` makes of its brushes; `None` when
    /// none matches, and always for `worldspawn` and brushes outside any entity (`""`).
    pub(crate) fn entity_meaning(&self, classname: &str) -> Option<EntityMeaning> {
        if self.entities.is_empty()
            || classname.is_empty()
            || classname.eq_ignore_ascii_case("worldspawn")
        {
            return None;
        }
        let name: Vec<char> = classname.chars().map(|c| c.to_ascii_lowercase()).collect();
        self.entities
            .iter()
            .find(|(glob, _)| glob.matches(&name))
            .map(|(_, meaning)| *meaning)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texture_patterns_without_a_slash_match_the_last_segment() {
        let game = CustomGame {
            textures: vec![
                TextureRule::new("tools/clip").with_contents(&["playerclip"]),
                TextureRule::new("lava_*").with_contents(&["lava"]),
            ],
            ..CustomGame::new("test")
        };
        let rules = game.resolve().unwrap_or_else(|e| panic!("{e}"));
        let contents = |t: &str| rules.texture_rule(t).and_then(|r| r.contents);
        assert_eq!(contents("bw/lava_hot"), Some(Contents::LAVA));
        assert_eq!(contents("bw\\LAVA_hot"), Some(Contents::LAVA));
        assert_eq!(contents("TOOLS/CLIP"), Some(Contents::PLAYERCLIP));
        assert_eq!(contents("e1u1/tools/clip"), None);
        assert_eq!(contents("clip"), None);
    }
}
