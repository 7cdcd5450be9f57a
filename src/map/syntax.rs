//! The syntax tree of a `.map` file: entities, brushes, faces and patches as written.
//!
//! Takes nothing (plain data), gives the types the reader fills and the writer prints.
//! Guarantees: every number is finite (the reader rejects others), every entity, brush, face
//! and patch records the 1-based line and column where it starts, and key/values keep their
//! order. Of the comments, only the editor's header lines (`// Game:` and `// Format:`) are
//! kept. No geometry is computed here: planes and windings belong to the brush stage.

use glam::DVec3;
use serde::Serialize;

/// A 1-based position in the source text. Columns count bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct SourceLoc {
    /// Line number, starting at 1.
    pub line: u32,
    /// Column number in bytes, starting at 1.
    pub column: u32,
}

impl std::fmt::Display for SourceLoc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// The classnames of player spawn points ([`MapFile::player_spawns`]).
pub(crate) const PLAYER_SPAWN_CLASSES: [&str; 2] = ["info_player_start", "info_player_deathmatch"];

/// A whole parsed `.map` file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MapFile {
    /// The editor's game: the value of a `// Game: NAME` comment line before the first
    /// entity (TrenchBroom writes it first, naming its game configuration: `Quake`,
    /// `Quake 2`, `Half-Life`...), trimmed; `None` without one. Read for
    /// [`Game::detect`](crate::build::Game::detect), never for syntax.
    pub editor_game: Option<String>,
    /// The editor's map format: the value of a `// Format: NAME` comment line before the
    /// first entity (TrenchBroom's second line: `Standard`, `Valve`, `Quake2`,
    /// `Quake2 (Valve)`, `Quake3 (legacy)`...), trimmed; `None` without one. The faces'
    /// dialect is still read per face.
    pub editor_format: Option<String>,
    /// The entities in file order. The first is usually `worldspawn`.
    pub entities: Vec<MapEntity>,
    /// Brushes written at top level, outside any entity (editor clipboard dumps). They are
    /// world brushes.
    pub loose_brushes: Vec<MapBrush>,
}

impl MapFile {
    /// The origins of the player spawn points (`info_player_start` and
    /// `info_player_deathmatch`), in file order; spawns without a valid origin are skipped.
    pub fn player_spawns(&self) -> impl Iterator<Item = DVec3> + '_ {
        self.entities
            .iter()
            .filter(|e| PLAYER_SPAWN_CLASSES.contains(&e.classname()))
            .filter_map(MapEntity::origin)
    }

    /// Every brush block, in file order: the entities' brushes, then the loose ones
    /// (`brushDef` blocks included, patches excluded).
    pub fn brushes(&self) -> impl Iterator<Item = &MapBrush> + Clone {
        self.entities
            .iter()
            .flat_map(|e| e.brushes.iter())
            .chain(self.loose_brushes.iter())
    }
}

/// One `{ ... }` entity block.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MapEntity {
    /// Key/value pairs in file order. Escaped quotes (`\"`) are unescaped.
    pub properties: Vec<(String, String)>,
    /// Brushes of this entity, in file order.
    pub brushes: Vec<MapBrush>,
    /// Bézier patches (`patchDef2`/`patchDef3`), in file order; the compiler cuts them
    /// into facets that collide (`crate::patch`).
    pub patches: Vec<MapPatch>,
    /// Where the entity's `{` stands.
    pub loc: SourceLoc,
}

impl MapEntity {
    /// The first value of `key`, compared case-sensitively as the engines do.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&str> {
        property(&self.properties, key)
    }

    /// The `classname` value, or `""` when there is none.
    #[must_use]
    pub fn classname(&self) -> &str {
        self.get("classname").unwrap_or("")
    }

    /// The `origin` key as exactly three finite numbers, or `None`.
    #[must_use]
    pub fn origin(&self) -> Option<DVec3> {
        origin_of(&self.properties)
    }

    /// The entity's orientation as `(pitch, yaw, roll)` in degrees: the `angles` key (three
    /// numbers), else the `angle` key (a yaw; −1 means straight up, pitch −90, and −2
    /// straight down, pitch 90, as Quake's `G_SetMovedir` reads them), else `None`.
    #[must_use]
    pub fn angles(&self) -> Option<DVec3> {
        angles_of(&self.properties)
    }
}

/// The first value of `key` among `properties`, compared case-sensitively as the engines do.
pub(crate) fn property<'a>(properties: &'a [(String, String)], key: &str) -> Option<&'a str> {
    properties
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// `value` as exactly three finite numbers separated by white space, or `None`.
fn vector(value: &str) -> Option<DVec3> {
    let mut parts = value.split_whitespace().map(str::parse::<f64>);
    let (Some(Ok(x)), Some(Ok(y)), Some(Ok(z)), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return None;
    };
    let v = DVec3::new(x, y, z);
    v.is_finite().then_some(v)
}

/// The `origin` key of `properties` ([`MapEntity::origin`]): the one rule for the parsed map
/// and the compiled one.
pub(crate) fn origin_of(properties: &[(String, String)]) -> Option<DVec3> {
    vector(property(properties, "origin")?)
}

/// The orientation of `properties` ([`MapEntity::angles`]): the one rule for the parsed map and
/// the compiled one.
pub(crate) fn angles_of(properties: &[(String, String)]) -> Option<DVec3> {
    if let Some(angles) = property(properties, "angles").and_then(vector) {
        return Some(angles);
    }
    let yaw = property(properties, "angle")?.trim().parse::<f64>().ok()?;
    if yaw == -1.0 {
        Some(DVec3::new(-90.0, 0.0, 0.0))
    } else if yaw == -2.0 {
        Some(DVec3::new(90.0, 0.0, 0.0))
    } else {
        yaw.is_finite().then_some(DVec3::new(0.0, yaw, 0.0))
    }
}

/// How a brush block was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrushSyntax {
    /// A plain list of faces (Quake 1/2/3 legacy, Valve 220, Hexen 2, Daikatana).
    Faces,
    /// A Quake 3 `brushDef { ... }` block with brush-primitive texture matrices.
    BrushDef,
}

/// One brush block: the faces as written.
#[derive(Clone, Debug, PartialEq)]
pub struct MapBrush {
    /// Faces in file order.
    pub faces: Vec<MapFace>,
    /// How the block was written.
    pub syntax: BrushSyntax,
    /// Where the brush's `{` stands.
    pub loc: SourceLoc,
}

/// One face line: three points on the plane, a texture and its mapping.
#[derive(Clone, Debug, PartialEq)]
pub struct MapFace {
    /// The three plane points as written; see the brush stage for the plane they define.
    pub points: [DVec3; 3],
    /// The texture name, unquoted and unescaped.
    pub texture: String,
    /// Texture mapping; irrelevant to collision but kept for round trips.
    pub mapping: TextureMapping,
    /// Numbers after the mapping (game-specific face flags).
    pub extension: FaceExtension,
    /// Where the face's first `(` stands.
    pub loc: SourceLoc,
}

/// The texture mapping of a face in one of the dialects.
#[derive(Clone, Debug, PartialEq)]
pub enum TextureMapping {
    /// Quake standard: x offset, y offset, rotation, x scale, y scale.
    Standard {
        /// X and Y offsets.
        offset: [f64; 2],
        /// Rotation in degrees.
        rotation: f64,
        /// X and Y scales.
        scale: [f64; 2],
    },
    /// Valve 220: explicit U and V axes with offsets, then rotation and scales.
    Valve220 {
        /// U axis and offset.
        u: [f64; 4],
        /// V axis and offset.
        v: [f64; 4],
        /// Rotation in degrees (informational in Valve 220).
        rotation: f64,
        /// U and V scales.
        scale: [f64; 2],
    },
    /// Quake 3 brush primitives: a 2×3 texture matrix.
    BrushPrimitive {
        /// The two rows of the matrix.
        matrix: [[f64; 3]; 2],
    },
}

/// Optional numbers after a face's texture mapping.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FaceExtension {
    /// Nothing follows the mapping.
    None,
    /// Hexen 2: one extra value.
    Hexen2(f64),
    /// Quake 2 / Quake 3 legacy: contents, surface flags, value.
    Quake2(SurfaceTriple),
    /// Daikatana: the Quake 2 triple plus a colour.
    Daikatana(SurfaceTriple, [f64; 3]),
}

impl FaceExtension {
    /// The Quake 2 contents/flags/value triple, when the face has one.
    #[must_use]
    pub fn triple(&self) -> Option<SurfaceTriple> {
        match *self {
            FaceExtension::Quake2(t) | FaceExtension::Daikatana(t, _) => Some(t),
            FaceExtension::None | FaceExtension::Hexen2(_) => None,
        }
    }
}

/// The Quake 2 `contents flags value` triple.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SurfaceTriple {
    /// Contents bits (CONTENTS_* of Quake 2).
    pub contents: i64,
    /// Surface flags (SURF_* of Quake 2).
    pub flags: i64,
    /// Light value or other game data; some editors write decimals.
    pub value: f64,
}

/// A Quake 3 Bézier patch as written (`patchDef2`, or Doom 3's `patchDef3` with explicit
/// subdivisions); the compiler cuts it into facets that collide.
#[derive(Clone, Debug, PartialEq)]
pub struct MapPatch {
    /// `patchDef2` or `patchDef3`.
    pub kind: String,
    /// The texture name.
    pub texture: String,
    /// The numbers of the header parenthesis (width, height, then game data).
    pub header: Vec<f64>,
    /// Control-point rows; each point is `x y z u v` (patchDef2) or longer.
    pub rows: Vec<Vec<Vec<f64>>>,
    /// Where the patch's `{` stands.
    pub loc: SourceLoc,
}
