//! `trace_visualizer`: a top-down view of a level, its sweeps and a walking character.
//!
//! Takes a level (a compiled `.pbsp`, or a `.map`, `.bsp` or mesh compiled in memory) and options; gives a
//! window (winit + pixels, drawing with `planeshift_viewer`), or with `--screenshot` a PNG
//! rendered by the same drawing code without any window or GPU.
//!
//! ```text
//! trace_visualizer MAP [--screenshot OUT.png] [--size WxH] [--trace SHAPE@X0,Y0,Z0@X1,Y1,Z1]...
//!                      [--slice Z] [--center X,Y] [--zoom PX_PER_UNIT] [--bevels] [--shape SHAPE]
//!                      [--spawn X,Y,Z] [--frames N [--capture OUT.png]]
//! ```
//!
//! Exit status: 0 on success (also after `--frames N`), 1 when the map cannot be read as a
//! map or compiled world, 2 on usage and I/O errors and when no window or GPU adapter is
//! available (the message then points at `--screenshot`). Never panics on user input.

mod viewer_support;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use glam::{Vec2, Vec3};
use planeshift::build::{MeshAxis, MeshOptions};
use planeshift::{CharacterController, ControllerConfig};
use planeshift_viewer::{
    Camera, Scene, ShapeSpec, TraceSpec, parse_image_size, parse_vec2, parse_vec3, screenshot,
};

#[cfg(feature = "window")]
use viewer_support::app::{WindowOptions, run as run_window};
use viewer_support::{Failure, character_overlay, load_world, world_center};

/// Top-down trace visualizer for planeshift worlds.
#[derive(Debug, Parser)]
#[command(name = "trace_visualizer", version)]
struct Args {
    /// The level: a compiled .pbsp, or a .map, .bsp, .obj, .gltf or .glb compiled in memory.
    map: PathBuf,
    /// Render one frame to this PNG without a window or GPU, then exit.
    #[arg(long, value_name = "OUT.png")]
    screenshot: Option<PathBuf>,
    /// Image or window size in pixels.
    #[arg(long, value_name = "WxH", default_value = "1280x800", value_parser = parse_image_size)]
    size: (u32, u32),
    /// A sweep to draw: KIND:SIZE,X0,Y0,Z0,X1,Y1,Z1 (KIND is point, sphere, cylinder, capsule,
    /// box or hull; SIZE a radius or half size). Repeatable.
    #[arg(long = "trace", value_name = "SHAPE@X0,Y0,Z0@X1,Y1,Z1", value_parser = TraceSpec::parse, allow_hyphen_values = true)]
    traces: Vec<TraceSpec>,
    /// Height of the horizontal cut (default: the spawn's height, else the world's middle).
    #[arg(long, value_name = "Z", allow_hyphen_values = true)]
    slice: Option<f32>,
    /// World point at the centre of the image (default: the world's centre).
    #[arg(long, value_name = "X,Y", value_parser = parse_vec2, allow_hyphen_values = true)]
    center: Option<Vec2>,
    /// Pixels per map unit (default: fit the world).
    #[arg(long, value_name = "PX_PER_UNIT")]
    zoom: Option<f32>,
    /// Draw bevel lines.
    #[arg(long)]
    bevels: bool,
    /// Shape of the sweeps cast with the mouse.
    #[arg(long, value_name = "SHAPE", default_value = "box:16", value_parser = ShapeSpec::parse)]
    shape: ShapeSpec,
    /// Where the character's origin starts (default: the map's info_player_start). With
    /// --screenshot, draws the character there.
    #[arg(long, value_name = "X,Y,Z", value_parser = parse_vec3, allow_hyphen_values = true)]
    spawn: Option<Vec3>,
    /// Window mode: exit with status 0 after this many frames.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    frames: Option<u64>,
    /// With --frames: write the last frame's RGBA buffer, as handed to the GPU, to this PNG.
    #[arg(long, value_name = "OUT.png", requires = "frames")]
    capture: Option<PathBuf>,
    /// Which way is up in a mesh file: z (the default), y (glTF's convention) or y-bevy (as
    /// planeshift_bevy places a level).
    #[arg(long = "mesh-up", value_name = "AXIS", default_value = "z")]
    mesh_up: MeshAxis,
    /// Map units per mesh file unit (about 32 to 40 for a file in metres).
    #[arg(long = "mesh-scale", value_name = "UNITS", default_value_t = 1.0)]
    mesh_scale: f64,
}

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("{}", failure.message);
            ExitCode::from(failure.status)
        }
    }
}

fn run(args: Args) -> Result<(), Failure> {
    let loaded = load_world(&args.map, &MeshOptions::new(args.mesh_up, args.mesh_scale))?;
    let world = loaded.world;
    let spawn = args
        .spawn
        .or(loaded.spawn)
        .unwrap_or_else(|| world_center(&world));
    let slice_z = args.slice.unwrap_or(spawn.z);
    if !slice_z.is_finite() {
        return Err(Failure::usage("error: --slice must be a finite number"));
    }
    let (width, height) = args.size;
    let camera = camera(&world, width, height, args.center, args.zoom);
    let mut scene = Scene::new(&world, camera, slice_z);
    scene.show_bevels = args.bevels;
    scene.shape = args.shape.clone();
    for t in &args.traces {
        scene.push_sweep(&world, t.shape.shape(), t.start, t.end);
    }

    if let Some(out) = &args.screenshot {
        if let Some(at) = args.spawn {
            let controller = CharacterController::new(ControllerConfig::default(), at)
                .map_err(|e| Failure::usage(format!("error: --spawn: {e}")))?;
            scene.character = Some(character_overlay(&controller));
        }
        scene.hud = vec![scene.status()];
        let pixmap = screenshot::render(&scene, &world, width, height)
            .map_err(|e| Failure::usage(format!("error: {e}")))?;
        screenshot::save_png(&pixmap, out)
            .map_err(|e| Failure::usage(format!("{}: error: {e}", out.display())))?;
        println!("wrote {} ({width}x{height})", out.display());
        return Ok(());
    }

    let character = CharacterController::new(ControllerConfig::default(), spawn)
        .map_err(|e| Failure::usage(format!("error: spawn point: {e}")))?;
    window(&args, world, scene, character)
}

/// The window mode (feature `window`).
#[cfg(feature = "window")]
fn window(
    args: &Args,
    world: planeshift::CompiledMap,
    scene: Scene,
    character: CharacterController,
) -> Result<(), Failure> {
    run_window(
        world,
        scene,
        Some(character),
        WindowOptions {
            title: format!("planeshift trace visualizer: {}", args.map.display()),
            size: args.size,
            frames: args.frames,
            capture: args.capture.clone(),
            follow: false,
        },
    )
}

/// Without the `window` feature there is no window; the screenshot mode still works.
#[cfg(not(feature = "window"))]
fn window(
    _args: &Args,
    _world: planeshift::CompiledMap,
    _scene: Scene,
    _character: CharacterController,
) -> Result<(), Failure> {
    Err(Failure::usage(
        "error: the window needs the `window` feature (winit, pixels); \
         --screenshot OUT.png renders the same frame without one"
            .to_string(),
    ))
}

/// The camera the options ask for: `center` and `zoom` where given, else fitted to the world.
fn camera(
    world: &planeshift::CompiledMap,
    width: u32,
    height: u32,
    center: Option<Vec2>,
    zoom: Option<f32>,
) -> Camera {
    let fitted = world.models().first().map_or_else(
        || Camera::new(width, height, Vec2::ZERO, 1.0),
        |m| Camera::fit(width, height, m.mins.truncate(), m.maxs.truncate()),
    );
    Camera::new(
        width,
        height,
        center.unwrap_or(fitted.center),
        zoom.unwrap_or(fitted.scale),
    )
}
