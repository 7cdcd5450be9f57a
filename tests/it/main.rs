//! The one integration-test binary of the library: one module per stage, plus tidiness. The
//! `bspc` command line has its own, `tools/bspc/tests/cli.rs`.

mod support;

/// Brush geometry: planes, merging, rejection, solidity rules.
mod brush;
/// The compiler: tree against brute force, bevels, plane table, submodels.
mod bsp;
/// Seeded mutations of Quake 2 and Quake 3 `.bsp` files: no panic, errors name their lump.
mod bsp_fuzz;
/// The oracle suites on imported `.bsp` worlds of every format.
mod bsp_oracle;
/// The compiled file format: round trips and corruption.
mod compiled;
/// The character controller: scenarios 1–88, one file per group (`maps/README.md`).
mod controller;
/// The shared real maps: counts against SOURCES.md, round trips.
mod corpus;
/// A custom game in TOML: `maps/custom_game.map` by `maps/custom_game.toml`, errors, fuzzing.
mod custom_game;
/// Declared character boxes: their own trees answer as the main trees do.
mod declared;
/// Seeded mutation fuzzing of the reader and brush stage.
mod fuzz;
/// Game profiles: detection (the editor header, then the map) on every real map, Quake 2 and
/// Half-Life brush rules.
mod games;
/// Imported Quake 2 and Quake 3 `.bsp` files against the files' own point contents.
mod import;
/// Quake 3 and Quake 2 `.map`/`.bsp` pairs: the import and the compile agree.
mod import_pairs;
/// Leaks: the flood from point entities, trails, pointfiles and the outside fill.
mod leak;
/// A compiled `.bsp` goes where a `.map` goes: the replay on shared `.bsp` files.
mod level_loading;
/// Levels made of triangles: the shared meshes against their `.bsp`, bad input, mutated files.
mod mesh;
/// Meshes exported from the other Quake 1 family `.bsp` files, held to the same bars.
mod mesh_held_back;
/// Reader: dialects, lexical details and exact error messages.
mod parse;
/// Quake 3 curved patches: facets against the true surface, semantics, seams, limits.
mod patches;
/// Quake 2 texture defaults: bare faces take their texture's contents (issue 26).
mod q2_tool_defaults;
/// Quake 3 maps compiled with their shaders: point contents against the `.bsp` files, masks.
mod q3_contents;
/// Quake 3 `.bsp` files as ground truth: counts, point contents, sides, damaged files.
mod q3bsp;
/// Quake 1 family `.bsp` files against Quake's own hulls.
mod quake1_bsp;
/// The scene query (world, movers, characters) against a per-object reference.
mod scene;
/// Quake 3 shader semantics on the real OpenArena scripts.
mod shader;
/// Spawn points and their facing on every shared `.bsp`, against the games' own runs.
mod spawns;
/// Surface flags, materials, game contents values and model kinds, through sweeps.
mod surfaces;
/// Thin curved pipes within the patch tolerance (issue 26).
mod thin_pipes;
/// Repository rules that keep docs true.
mod tidy;
/// Repository rule: no import cycle between files of a module or between stages.
mod tidy_imports;
mod tidy_surface;
/// Sweep properties that need no oracle.
mod trace;
/// Sweeps against the exact parry3d-f64 oracle: inside, lateness, clearance, ghost hits.
mod trace_oracle;
/// Oriented shapes in world and body sweeps, and stops past slivers, against the oracle.
mod trace_orient;
/// Trigger volumes: the touch query inside and outside every trigger, never blocking.
mod triggers;
