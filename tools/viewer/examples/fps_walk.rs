//! `fps_walk`: walk a character through a level in the top-down viewer's window, the camera
//! following it and the slice following its height (what `fps_movement` without
//! `--headless` was).
//!
//! Takes a `.map` (or a compiled `.bsp` or `.pbsp`, told apart by content), compiled as
//! `bspc compile` would with the same `--game GAME` and `--shaders DIR`, and an optional
//! controller configuration (`--config C.toml`, Quake 3's defaults otherwise); gives the
//! window of `trace_visualizer` with the character at the map's first `info_player_start`
//! (triggers do nothing here). WASD walks (W = up on screen), Space jumps, C crouches; the
//! viewer's mouse and keys work too.
//!
//! ```text
//! cargo run -p planeshift_viewer --features window --example fps_walk -- --map M.map [--config C.toml] [--game GAME] [--shaders DIR]... [--frames N]
//! ```
//!
//! Exit status: 0 when the window closes (or after `--frames N` frames); 2 for bad
//! arguments, an unreadable map, no display or GPU adapter, or a build without the `window`
//! feature, each with a message. Never panics on user input.

mod viewer_support;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
#[cfg(feature = "window")]
use planeshift::CompileOptions;
use planeshift::ControllerConfig;
use planeshift::build::Game;

/// Command line.
#[derive(Parser, Debug)]
#[command(about = "Walk a planeshift character through a level in the top-down viewer")]
struct Args {
    /// The `.map` file, or a compiled `.bsp` or `.pbsp`.
    #[arg(long)]
    map: PathBuf,
    /// Controller configuration (TOML); Quake 3 defaults otherwise.
    #[arg(long)]
    config: Option<String>,
    /// The game whose brush rules give contents: quake, quake2, quake3 or halflife
    /// (default: detected from the map).
    #[arg(long, value_name = "GAME")]
    game: Option<Game>,
    /// A folder of Quake 3 shader scripts (repeatable, first definition wins).
    #[arg(long = "shaders", value_name = "DIR")]
    shaders: Vec<PathBuf>,
    /// Exit 0 after this many frames.
    #[arg(long)]
    frames: Option<u64>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("fps_walk: {message}");
            ExitCode::from(2)
        }
    }
}

/// The controller configuration named by `--config`, or Quake 3's defaults.
fn load_config(args: &Args) -> Result<ControllerConfig, String> {
    let Some(file) = &args.config else {
        return Ok(ControllerConfig::default());
    };
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    ControllerConfig::from_toml(&text).map_err(|e| match std::error::Error::source(&e) {
        Some(cause) => format!("{file}: {e}: {cause}"),
        None => format!("{file}: {e}"),
    })
}

/// Pixels per unit of the following camera: about 850 units across a 1280-pixel window.
#[cfg(feature = "window")]
const FOLLOW_ZOOM: f32 = 1.5;

/// The window, following the character.
#[cfg(feature = "window")]
fn run(args: &Args) -> Result<(), String> {
    use planeshift::CharacterController;
    use viewer_support::app::{WindowOptions, run as run_window};
    let config = load_config(args)?;
    let options = CompileOptions {
        game: args.game,
        shader_folders: args.shaders.clone(),
        ..CompileOptions::default()
    };
    let mesh = planeshift::build::MeshOptions::default();
    let loaded =
        viewer_support::load_world_with(&args.map, &options, &mesh).map_err(|f| f.message)?;
    let spawn = loaded
        .spawn
        .unwrap_or_else(|| viewer_support::world_center(&loaded.world));
    let character =
        CharacterController::new(config, spawn).map_err(|e| format!("spawn point: {e}"))?;
    let size = (1280, 800);
    let camera = planeshift_viewer::Camera::new(size.0, size.1, spawn.truncate(), FOLLOW_ZOOM);
    let scene = planeshift_viewer::Scene::new(&loaded.world, camera, character.shape_center().z);
    run_window(
        loaded.world,
        scene,
        Some(character),
        WindowOptions {
            title: format!("planeshift fps movement: {}", args.map.display()),
            size,
            frames: args.frames,
            capture: None,
            follow: true,
        },
    )
    .map_err(|f| f.message)
}

/// Without the `window` feature there is no window: the configuration is still checked.
#[cfg(not(feature = "window"))]
fn run(args: &Args) -> Result<(), String> {
    load_config(args)?;
    let _unused_without_a_window = (&args.map, args.game, &args.shaders, args.frames);
    Err(
        "the window needs the `window` feature: `cargo run -p planeshift_viewer --features \
         window --example fps_walk -- --map M.map`"
            .to_string(),
    )
}
