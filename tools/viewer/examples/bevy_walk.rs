//! `bevy_walk`: the Bevy package README's app in a window. A Bevy app steps the player in its
//! fixed schedule (`planeshift_bevy`'s plugin, 8 ms steps paced by real time); the window,
//! drawn from above by this package's renderer, shows the level cut at the player's height.
//!
//! Takes a level (`.map`, `.bsp` or `.pbsp`; default the repository's `maps/arena.map`);
//! gives a window with the player at the level's start, facing its angle. W/S run forward and
//! back along the view, A/D strafe, the left and right arrows turn, Space jumps, C crouches,
//! Enter fires from the eye along the view (the HUD names what the shot hit), Escape quits.
//! Bevy's own renderer needs a newer Rust than this workspace's 1.95, so the window is
//! winit and pixels, as `fps_walk`'s.
//!
//! ```text
//! cargo run -p planeshift_viewer --features window,bevy --example bevy_walk -- [LEVEL] [--frames N]
//! ```
//!
//! Exit status: 0 when the window closes (or after `--frames N` frames); 2 for an unreadable
//! level or no display, with a message.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use pixels::{Pixels, SurfaceTexture};
use planeshift_bevy::prelude::*;
use planeshift_viewer::{Camera, CharacterOverlay, Footprint, Scene, render};
use tiny_skia::Pixmap;
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::{KeyCode, PhysicalKey};
use winit::window::{Window, WindowId};

/// Degrees per second the arrow keys turn the view.
const TURN_SPEED: f32 = 180.0;
/// Most real time run in one frame, seconds: after a stall the game slows instead of
/// spending ever longer catching up.
const MAX_CATCH_UP: f32 = 0.25;
/// Pixels per map unit of the camera.
const ZOOM: f32 = 1.5;
/// How far a shot reaches, Bevy units (metres).
const SHOT_RANGE: f32 = 100.0;

/// The game: a headless Bevy app with the level and the player, and the window's state.
struct Game {
    app: App,
    player: Entity,
    map: Arc<CompiledMap>,
    space: MapSpace,
    tick: f32,
    /// W, S, A, D, left, right, jump, crouch.
    keys: [bool; 8],
    yaw: f32,
    accumulator: f32,
    last_frame: Option<Instant>,
    last_shot: String,
    scene: Scene,
    frames: u64,
    max_frames: Option<u64>,
    window: Option<Arc<Window>>,
    pixels: Option<Pixels<'static>>,
    pixmap: Option<Pixmap>,
    failure: Option<String>,
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("bevy_walk: {message}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mut level = concat!(env!("CARGO_MANIFEST_DIR"), "/../../maps/arena.map").to_string();
    let mut max_frames = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--frames" => max_frames = args.next().and_then(|n| n.parse().ok()),
            _ => level = arg,
        }
    }
    let bytes = std::fs::read(&level).map_err(|e| format!("{level}: {e}"))?;
    let name = std::path::Path::new(&level)
        .file_name()
        .map_or("level.map".into(), |n| n.to_string_lossy().into_owned());
    let plugin = PlaneshiftPlugin::default();
    let tick = plugin.tick_seconds;
    let mut app = headless_app(&[(&name, &bytes)], plugin);
    let handle = load_level(&mut app, &name).map_err(|e| format!("{level}: {e}"))?;
    app.world_mut().spawn(Level(handle.clone()));
    let space = *app.world().resource::<MapSpace>();
    let assets = app.world().resource::<Assets<LevelAsset>>();
    let map = assets.get(&handle).ok_or("not loaded")?.map.clone();
    let start = map.level_start().ok_or("the level has no player spawn")?;
    let spawned = Character::at_spawn(ControllerConfig::default(), &start, &space);
    let yaw = start.yaw;
    let player = app.world_mut().spawn(spawned).id();
    app.update();
    let camera = Camera::new(1280, 800, start.player_origin.truncate(), ZOOM);
    let scene = Scene::new(&map, camera, start.player_origin.z);
    let mut game = Game {
        app,
        player,
        map,
        space,
        tick,
        keys: [false; 8],
        yaw,
        accumulator: 0.0,
        last_frame: None,
        last_shot: String::new(),
        scene,
        frames: 0,
        max_frames,
        window: None,
        pixels: None,
        pixmap: None,
        failure: None,
    };
    let event_loop = EventLoop::new().map_err(|e| format!("no window: {e}"))?;
    event_loop
        .run_app(&mut game)
        .map_err(|e| format!("no window: {e}"))?;
    game.failure.map_or(Ok(()), Err)
}

impl Game {
    fn open(&mut self, event_loop: &ActiveEventLoop) -> Result<(), String> {
        let attributes = Window::default_attributes()
            .with_title("planeshift in Bevy")
            .with_inner_size(PhysicalSize::new(1280, 800));
        let window = Arc::new(
            event_loop
                .create_window(attributes)
                .map_err(|e| e.to_string())?,
        );
        let size = window.inner_size();
        let (w, h) = (size.width.max(1), size.height.max(1));
        let surface = SurfaceTexture::new(w, h, Arc::clone(&window));
        self.pixels = Some(Pixels::new(w, h, surface).map_err(|e| e.to_string())?);
        self.pixmap = Pixmap::new(w, h);
        (self.scene.camera.width, self.scene.camera.height) = (w, h);
        self.window = Some(window);
        Ok(())
    }

    /// Runs the fixed steps real time asks for, with the keys as the player's command.
    fn step(&mut self, dt: f32) {
        let [fwd, back, left, right, turn_left, turn_right, jump, crouch] =
            self.keys.map(f32::from);
        self.yaw += (turn_left - turn_right) * TURN_SPEED * dt;
        self.accumulator = (self.accumulator + dt).min(MAX_CATCH_UP);
        while self.accumulator >= self.tick {
            self.accumulator -= self.tick;
            if let Some(mut input) = self.app.world_mut().get_mut::<CharacterInput>(self.player) {
                input.view = [0.0, self.yaw];
                input.moves = Vec3::new(fwd - back, right - left, 0.0);
                (input.jump, input.crouch) = (jump > 0.0, crouch > 0.0);
            }
            self.app.update();
        }
    }

    /// Fires from the player's eye along its view; remembers what it hit for the HUD.
    fn fire(&mut self) {
        let (player, filter) = (self.player, QueryFilter::new(Contents::MASK_SHOT));
        let fire = move |query: LevelQuery| query.fire_from_eye(player, SHOT_RANGE, &filter);
        self.last_shot = match self.app.world_mut().run_system_once(fire) {
            Ok(Some(hit)) if hit.hit => format!("shot: {:?} at {:.2}", hit.entity, hit.end),
            Ok(_) => "shot: nothing".into(),
            Err(e) => format!("shot: {e}"),
        };
    }

    fn frame(&mut self, event_loop: &ActiveEventLoop) -> Result<(), String> {
        let now = Instant::now();
        let dt = self.last_frame.map_or(0.0, |t| (now - t).as_secs_f32());
        self.last_frame = Some(now);
        self.step(dt);
        let status = *self
            .app
            .world()
            .get::<CharacterStatus>(self.player)
            .ok_or("the player is gone")?;
        let sim = self.app.world().resource::<Simulation>();
        let controller = sim.id_of(self.player).and_then(|id| sim.crowd()?.get(id));
        let position = self.space.to_map(status.position);
        let center = controller.map_or(position, |c| c.shape_center());
        let footprint = controller.map(|c| Footprint::of(c.shape()));
        let velocity = self.space.dir_to_map(status.velocity) * self.space.units_per_bevy;
        self.scene.camera.center = position.truncate();
        self.scene.set_slice_z(&self.map, center.z);
        self.scene.character = Some(CharacterOverlay {
            position: center,
            velocity,
            footprint,
            ..CharacterOverlay::default()
        });
        self.scene.hud = vec![
            format!(
                "pos {:.1} {:.1} {:.1}  yaw {:.0}",
                position.x, position.y, position.z, self.yaw
            ),
            format!(
                "speed {:.0}  ground {:?}",
                velocity.truncate().length(),
                status.ground
            ),
            self.last_shot.clone(),
        ];
        let (Some(pixels), Some(pixmap)) = (&mut self.pixels, &mut self.pixmap) else {
            return Ok(());
        };
        render::draw(&self.scene, &self.map, pixmap);
        let frame = pixels.frame_mut();
        if frame.len() == pixmap.data().len() {
            frame.copy_from_slice(pixmap.data());
        }
        pixels.render().map_err(|e| e.to_string())?;
        self.frames += 1;
        if self.max_frames.is_some_and(|n| self.frames >= n) {
            event_loop.exit();
        }
        Ok(())
    }
}

impl ApplicationHandler for Game {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.window.is_none()
            && let Err(e) = self.open(event_loop)
        {
            self.failure = Some(format!("no window: {e}"));
            event_loop.exit();
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::RedrawRequested => {
                if let Err(e) = self.frame(event_loop) {
                    self.failure = Some(e);
                    event_loop.exit();
                }
            }
            WindowEvent::KeyboardInput { event, .. } => {
                let down = event.state == ElementState::Pressed;
                let PhysicalKey::Code(code) = event.physical_key else {
                    return;
                };
                let slot = match code {
                    KeyCode::KeyW => 0,
                    KeyCode::KeyS => 1,
                    KeyCode::KeyA => 2,
                    KeyCode::KeyD => 3,
                    KeyCode::ArrowLeft => 4,
                    KeyCode::ArrowRight => 5,
                    KeyCode::Space => 6,
                    KeyCode::KeyC => 7,
                    KeyCode::Enter if down => return self.fire(),
                    KeyCode::Escape => return event_loop.exit(),
                    _ => return,
                };
                self.keys[slot] = down;
            }
            _ => {}
        }
    }

    fn about_to_wait(&mut self, _event_loop: &ActiveEventLoop) {
        if let Some(window) = &self.window {
            window.request_redraw();
        }
    }
}
