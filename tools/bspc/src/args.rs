//! The `bspc` command line: raw clap flags.
//!
//! Takes argv, gives [`Args`]. Usage errors exit 2 (clap's code), help and version exit 0.

use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand};

use planeshift::build::{Game, MeshAxis, MeshOptions, is_mesh_path};

/// The planeshift map compiler.
#[derive(Debug, Parser)]
#[command(
    name = "bspc",
    version,
    about = "planeshift map compiler: read, check and compile Quake-family .map files"
)]
pub struct Args {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Read a .map file (or a compiled .bsp, or a mesh), build its brushes and look for a
    /// leak; report counts, diagnostics and the leak (with a pointfile).
    Check {
        /// The .map, .bsp, .obj, .gltf or .glb file (a .gltf's buffers are read beside it).
        map: PathBuf,
        /// The rules the brushes are built by.
        #[command(flatten)]
        rules: RulesArgs,
        /// How a mesh's coordinates become map units.
        #[command(flatten)]
        mesh: MeshArgs,
        /// Where to write the pointfile of a leak (default: the map with extension .pts).
        #[arg(long, value_name = "PATH")]
        pointfile: Option<PathBuf>,
        /// Print exactly one JSON object instead of a human summary.
        #[arg(long)]
        json: bool,
    },
    /// Compile a level (.map, a compiled .bsp, or a .obj, .gltf or .glb mesh) into a collision
    /// world (.pbsp).
    Compile {
        /// The .map, .bsp, .obj, .gltf or .glb file (a .gltf's buffers are read beside it).
        map: PathBuf,
        /// Where to write the compiled world (default: the input with extension .pbsp).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// The rules a map is compiled by.
        #[command(flatten)]
        rules: RulesArgs,
        /// How a mesh's coordinates become map units.
        #[command(flatten)]
        mesh: MeshArgs,
        /// Fill the void around a sealed map as solid (`solid|outside` brushes), so that a
        /// character that gets there is stuck and a game can tell.
        #[arg(long)]
        fill_outside: bool,
        /// Where to write the pointfile of a leak (default: the map with extension .pts).
        #[arg(long, value_name = "PATH")]
        pointfile: Option<PathBuf>,
        /// Print exactly one JSON object of statistics instead of a human report.
        #[arg(long)]
        json: bool,
    },
    /// Sweep shapes through a world: JSON Lines queries, or one query from flags.
    Trace {
        /// The world: a .pbsp file, or a level compiled in memory (.map, .bsp, or a .obj, .gltf or .glb mesh).
        file: PathBuf,
        /// JSON Lines queries, one {"shape":..,"start":[..],"end":[..]} per line.
        #[arg(long, conflicts_with_all = ["shape", "from", "to"])]
        queries: Option<PathBuf>,
        /// Where to write the results (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// One query's shape: point, sphere:R, cylinder:R:H, capsule:R:H, box:HX,HY,HZ,
        /// box:X0,Y0,Z0,X1,Y1,Z1 or hull:X,Y,Z;X,Y,Z;...
        #[arg(long, requires_all = ["from", "to"])]
        shape: Option<String>,
        /// One query's start: X,Y,Z.
        #[arg(long, allow_hyphen_values = true)]
        from: Option<String>,
        /// One query's end: X,Y,Z.
        #[arg(long, allow_hyphen_values = true)]
        to: Option<String>,
        /// What blocks: player, monster, bot, shot, solid (Quake's: no clip), or contents
        /// names joined by commas; a query line's `"mask":[names]` overrides it. Default:
        /// whatever blocks anyone (every clip included).
        #[arg(long)]
        mask: Option<String>,
        /// Characters in the scene, JSON Lines, one
        /// `{"id":n,"shape":..,"at":[x,y,z],"contents":["body"]}` per line (`"corpse"` for
        /// a dead one); each result line names the one hit in `"body"`.
        #[arg(long, value_name = "BODIES.jsonl")]
        bodies: Option<PathBuf>,
        /// The rules a map is compiled by.
        #[command(flatten)]
        rules: RulesArgs,
        /// How a mesh's coordinates become map units.
        #[command(flatten)]
        mesh: MeshArgs,
    },
    /// The world's contents at points: JSON Lines of points in, of contents names out.
    Contents {
        /// The world: a .pbsp file, or a level compiled in memory (.map, .bsp, or a .obj, .gltf or .glb mesh).
        world: PathBuf,
        /// JSON Lines points, one `{"point":[x,y,z]}` per line.
        #[arg(long)]
        points: PathBuf,
        /// Where to write the results (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// The rules a map is compiled by.
        #[command(flatten)]
        rules: RulesArgs,
        /// How a mesh's coordinates become map units.
        #[command(flatten)]
        mesh: MeshArgs,
    },
    /// Time JSON Lines queries in-process: ns per query for each shape kind and for all.
    Bench {
        /// The world: a .pbsp file, or a level compiled in memory (.map, .bsp, or a .obj, .gltf or .glb mesh).
        file: PathBuf,
        /// JSON Lines queries, as for `trace`.
        #[arg(long)]
        queries: PathBuf,
        /// Timed repetitions after one warm-up pass.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
        reps: u32,
        /// Threads that share each group's queries (`CompiledMap::trace_batch` on a pool of
        /// this many); `ns_per_query` is then wall time per query.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
        threads: u16,
    },
    /// Print the statistics of a compiled world.
    Info {
        /// The world: a .pbsp file, or a .map or .bsp compiled in memory.
        file: PathBuf,
        /// Print exactly one JSON object instead of a human report.
        #[arg(long)]
        json: bool,
    },
}

/// The flags that choose the rules a map is compiled by (`check`, `compile`, and `trace` and
/// `contents` of a `.map`).
#[derive(Debug, clap::Args)]
pub struct RulesArgs {
    /// A folder of Quake 3 shader scripts (repeatable, first definition wins; read only for a
    /// Quake 3 map, over the built-in common/* tool shaders).
    #[arg(long = "shaders", value_name = "DIR")]
    pub shaders: Vec<PathBuf>,
    /// A folder of Quake 2 .wal textures (repeatable, first file of a name wins; read only
    /// for a Quake 2 map): a face without its contents/flags/value triple takes its
    /// texture's, over the built-in tool and liquid textures.
    #[arg(long = "textures", value_name = "DIR")]
    pub textures: Vec<PathBuf>,
    /// The game whose brush rules give contents: quake, quake2, quake3, halflife, or a custom
    /// game's FILE.toml (default: detected from the map).
    #[arg(long, value_name = "GAME", value_parser = parse_game)]
    pub game: Option<GameArg>,
    /// How far curved patches' facets may lie from the true surface, in map units (0.01 to
    /// 16; default 0.25).
    #[arg(long, value_name = "UNITS", value_parser = parse_patch_tolerance)]
    pub patch_tolerance: Option<f64>,
}

/// How a mesh file's coordinates become map units (read only for a `.obj`, `.gltf` or
/// `.glb`).
#[derive(Debug, clap::Args)]
pub struct MeshArgs {
    /// Which way is up in a mesh file: z (map units' own, the default), y (glTF's and many
    /// modellers': (x, y, z) becomes (x, −z, y)) or y-bevy (as planeshift_bevy places a
    /// level in Bevy's world: (x, y, z) becomes (−z, −x, y)).
    #[arg(long = "mesh-up", value_name = "AXIS", default_value = "z", value_parser = parse_mesh_up)]
    pub up: MeshAxis,
    /// Map units per mesh file unit (about 32 to 40 for a file in metres).
    #[arg(long = "mesh-scale", value_name = "UNITS", default_value_t = 1.0, value_parser = parse_mesh_scale)]
    pub scale: f64,
}

impl MeshArgs {
    /// The mesh options these flags give.
    #[must_use]
    pub fn options(&self) -> MeshOptions {
        MeshOptions::new(self.up, self.scale)
    }

    /// These flags' options, with a warning on stderr when they were given for `path` but
    /// it is not a mesh (a `.map`, a `.bsp` and a compiled world ignore them).
    #[must_use]
    pub fn options_for(&self, path: &Path) -> MeshOptions {
        let options = self.options();
        if options != MeshOptions::default() && !is_mesh_path(path) {
            eprintln!(
                "{}: warning: --mesh-up and --mesh-scale apply to meshes (.obj, .gltf, .glb) \
                 only; ignored",
                path.display()
            );
        }
        options
    }
}

/// A `--mesh-up` value.
fn parse_mesh_up(text: &str) -> Result<MeshAxis, String> {
    text.parse()
        .map_err(|e: planeshift::build::UnknownMeshAxis| e.to_string())
}

/// A `--mesh-scale` value: a number a mesh compile accepts (`MeshOptions::validate`).
fn parse_mesh_scale(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number"))?;
    MeshOptions::new(MeshAxis::ZUp, value)
        .validate()
        .map(|()| value)
        .map_err(|e| e.to_string())
}

/// A `--patch-tolerance` value: a number of map units the compiler accepts.
fn parse_patch_tolerance(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number"))?;
    let options = planeshift::CompileOptions {
        patch_tolerance: value,
        ..planeshift::CompileOptions::default()
    };
    options
        .validate()
        .map(|()| value)
        .map_err(|e| e.to_string())
}

/// A `--game` value.
#[derive(Clone, Debug)]
pub enum GameArg {
    /// A built-in game.
    Builtin(Game),
    /// A custom game's TOML file.
    File(PathBuf),
}

/// Reads a `--game` value: a file when it ends in `.toml`, else a built-in game's name.
pub fn parse_game(value: &str) -> Result<GameArg, String> {
    let is_toml = value
        .len()
        .checked_sub(".toml".len())
        .and_then(|start| value.get(start..))
        .is_some_and(|end| end.eq_ignore_ascii_case(".toml"));
    if is_toml {
        return Ok(GameArg::File(PathBuf::from(value)));
    }
    Game::from_name(value).map(GameArg::Builtin).ok_or_else(|| {
        let names: Vec<&str> = Game::NAMED.iter().map(|(n, _)| *n).collect();
        format!(
            "unknown game `{value}` (expected {}, or a custom game's FILE.toml)",
            names.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_values_are_names_or_toml_files() {
        assert!(matches!(
            parse_game("Quake3"),
            Ok(GameArg::Builtin(Game::Quake3))
        ));
        assert!(matches!(parse_game("maps/x.TOML"), Ok(GameArg::File(_))));
        assert!(parse_game("toml").is_err());
    }
}
