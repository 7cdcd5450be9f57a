//! What a level means for a game: the rules of every built-in game and of a custom one
//! (`rules`), Quake 3 shader semantics and Quake 2 texture defaults.
//!
//! Takes shader script text (`scripts/*.shader`) and brush sides' shader names; gives each
//! shader's Quake 3 content bits, surface flags and q3map2 compile flags, and a brush's
//! contents as q3map2 computes them. Guarantees: never panics on script bytes; the rules are
//! q3map2's (`shaders.cpp`, `games.cpp`, `map.cpp`) and the values Quake III Arena's
//! (`surfaceflags.h`), each cited where it is used.
//!
//! - [`q3_flags`]: the bits and q3map2's surfaceparm table.
//! - [`shader`]: the script reader.
//! - [`shader_set`]: the shaders of one or more folders, over built-in `common/*` tool
//!   shaders, with q3map2's first-definition-wins rule and its default for textures without
//!   a definition.
//! - [`q3_brush`]: a brush's contents from its sides (`SetBrushContents`).
//! - [`q2_flags`]: Quake 2's content and surface bits, one table.
//! - [`q2_textures`]: a Quake 2 face's defaults when it has no triple: `.wal` headers
//!   over a built-in table of tool and liquid textures ([`Quake2Textures`]).
//! - [`profile`]: which game a map is for ([`Game`]), detected from the map.
//! - [`custom`]: a game described in TOML ([`CustomGame`]): texture patterns to contents and
//!   surface flags, entity classes to what their brushes are, over a built-in base game.
//! - [`rules`]: what a texture, brush, side and entity mean in each game, asked by the
//!   `.map` brush stage and the `.bsp` importers alike.
//! - `glob`: the glob patterns custom games match names with.
//! - `spawns`: where players start and which way they face ([`SpawnPoint`](crate::level::SpawnPoint)).

pub mod custom;
mod glob;
pub mod profile;
pub mod q2_flags;
pub mod q2_textures;
pub mod q3_brush;
pub mod q3_flags;
pub mod rules;
pub mod shader;
pub mod shader_set;
pub(crate) mod spawns;

pub use custom::{
    CustomGame, CustomGameError, EntityClass, EntityRule, FaceCombine, LiquidKind, RuleList,
    RuleProblem, TextureRule,
};
pub use profile::{Game, UnknownGame};
pub use q2_textures::{
    Quake2TextureDefaults, Quake2TextureError, Quake2Textures, builtin_quake2_defaults, wal_defaults,
};
pub use q3_brush::{Q3BrushContents, Q3Side, q3_brush_contents};
pub use q3_flags::{ShaderFlags, SurfaceParm, surface_parm};
pub use shader::{
    ScriptPos, ShaderDef, ShaderDiagnostic, ShaderDiagnosticKind, ShaderError, ShaderErrorKind,
    ShaderScript, parse_shader_script,
};
pub use rules::{
    contents_from_quake2, contents_from_quake3, half_life_entity_contents,
    half_life_texture_contents, is_origin_texture, is_trigger_class, is_world_class,
};
pub use shader_set::{ShaderOrigin, ShaderSet, ShaderSetError};
