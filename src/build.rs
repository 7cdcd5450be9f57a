//! Compiling a level, beyond [`compile_map`](crate::compile_map) and
//! [`CompileOptions`](crate::CompileOptions): the other ways in (a `.map` with explicit
//! options, a parsed [`MapFile`](crate::map::MapFile), a Quake, Quake 2 or Quake 3 `.bsp`,
//! a triangle mesh with the `mesh` feature),
//! the checks a level editor runs, what a compile reports ([`Diagnostic`], [`Leak`]), and the
//! games whose rules decide what a brush is ([`Game`], [`CustomGame`]).
//!
//! Takes nothing of its own: it names, once each, the items of the compiler's stages a game
//! or a tool needs. Guarantees: every item here has this one public path.

pub use crate::compile::{
    BrushCheck, BspCheck, SourceFormat, check_brushes, check_brushes_for, check_brushes_with,
    check_bsp, compile_level, compile_map_with, import_bsp, import_bsp_clip_hull,
};
pub use crate::compile::{Diagnostic, DiagnosticKind, Leak, Severity};
#[cfg(feature = "mesh")]
pub use crate::compile::{MeshCheck, check_mesh, compile_level_at, compile_mesh, is_mesh_path};
pub use crate::game::{
    CustomGame, CustomGameError, EntityClass, EntityRule, FaceCombine, Game, LiquidKind,
    Quake2TextureDefaults, Quake2TextureError, Quake2Textures, RuleList, RuleProblem, TextureRule,
    UnknownGame, builtin_quake2_defaults, wal_defaults,
};
pub use crate::import::{BspFormat, ImportError};
#[cfg(feature = "mesh")]
pub use crate::mesh::{
    MAX_MESH_TRIANGLES, MeshAxis, MeshError, MeshFormat, MeshOptions, UnknownMeshAxis,
};
