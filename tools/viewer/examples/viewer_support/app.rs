//! The viewer's window: winit 0.30's `ApplicationHandler` around a `pixels` surface whose
//! frame is the tiny-skia pixmap `planeshift_viewer::render::draw` fills.
//!
//! Takes a world, a scene, an optional character (`planeshift::controller`) and
//! [`WindowOptions`]; gives an interactive window until it is closed (or after `frames`
//! frames), then an exit status. Guarantees: no window or no GPU adapter is a [`Failure`]
//! with status 2 and a message pointing at `--screenshot`, never a panic; the character
//! moves in the controller's fixed ticks (8 ms by default) driven by real time, with its
//! trail and the planes it touched drawn and a heads-up text of position, velocity, ground
//! state and frames per second; with `capture`, the last frame's RGBA buffer, exactly as
//! handed to `pixels`, is written as a PNG.
//!
//! Controls: left-drag casts a sweep at the slice height, right-drag pans, the wheel zooms
//! about the cursor; Tab or 1–6 pick the shape kind, + and - (or ] and [) its size,
//! PageUp/PageDown move the slice by 8 units (Shift: 64), B toggles bevels, Backspace removes
//! the last sweep, Delete all of them, F fits the map, WASD walks (W = +y on screen), Space
//! jumps, C crouches, Escape quits.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use glam::{Vec2, Vec3};
use pixels::{Pixels, SurfaceTexture};
use planeshift::query::ShapeKind;
use planeshift::{CharacterController, MoveInput, movement::GroundState};
use planeshift::{CompiledMap, query::Plane};
use planeshift_viewer::{Camera, Scene, render, screenshot};
use tiny_skia::Pixmap;
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::{Key, KeyCode, ModifiersState, NamedKey, PhysicalKey};
use winit::window::{Window, WindowId};

use super::{Failure, character_overlay};

/// Slice step of PageUp/PageDown in map units (Shift multiplies by [`SLICE_STEP_SHIFT`]).
const SLICE_STEP: f32 = 8.0;
/// How much Shift multiplies the slice step.
const SLICE_STEP_SHIFT: f32 = 8.0;
/// Zoom factor per wheel line.
const ZOOM_PER_LINE: f32 = 1.2;
/// Pixels of touchpad scrolling that count as one wheel line.
const PIXELS_PER_LINE: f32 = 40.0;
/// Most movement time run in one frame, in seconds: after a stall the character slows down
/// instead of the viewer spending ever longer catching up.
const MAX_CATCH_UP: f32 = 0.25;
/// Positions kept in the trail: two seconds of 8 ms ticks.
const TRAIL_LENGTH: usize = 250;
/// How long a touched plane stays highlighted, in seconds.
const TOUCH_HOLD: f32 = 0.3;
/// A left-drag shorter than this many pixels casts no sweep.
const MIN_DRAG_PIXELS: f32 = 2.0;
/// When following, the slice moves with the character's centre in steps of this many units
/// (cut in the middle of a step, off the integer heights where floors lie).
const FOLLOW_SLICE_STEP: f32 = 4.0;
/// Weight of the newest frame in the smoothed frame time.
const FPS_SMOOTHING: f32 = 0.1;

/// How the window behaves.
pub struct WindowOptions {
    /// Window title.
    pub title: String,
    /// Inner size in pixels.
    pub size: (u32, u32),
    /// Exit with status 0 after this many frames.
    pub frames: Option<u64>,
    /// With `frames`, write the last frame's RGBA buffer here as a PNG.
    pub capture: Option<PathBuf>,
    /// Keep the camera centred on the character and the slice at its height (the FPS
    /// movement mode).
    pub follow: bool,
}

/// The character, its input and what it left behind.
struct Character {
    controller: CharacterController,
    input: MoveInput,
    keys: [bool; 4],
    trail: VecDeque<Vec3>,
    touched: Vec<(Plane, f32)>,
    accumulator: f32,
}

struct App {
    world: CompiledMap,
    scene: Scene,
    options: WindowOptions,
    character: Option<Character>,
    window: Option<Arc<Window>>,
    pixels: Option<Pixels<'static>>,
    pixmap: Option<Pixmap>,
    failure: Option<Failure>,
    frames: u64,
    last_frame: Option<Instant>,
    frame_seconds: f32,
    cursor: Vec2,
    modifiers: ModifiersState,
    drag_sweep: Option<Vec2>,
    pan_from: Option<Vec2>,
}

/// Opens the window and runs until it closes; `Ok` after a normal close or `frames` frames.
pub fn run(
    world: CompiledMap,
    scene: Scene,
    character: Option<CharacterController>,
    options: WindowOptions,
) -> Result<(), Failure> {
    let event_loop = EventLoop::new().map_err(|e| no_window(&e.to_string()))?;
    let mut app = App {
        world,
        scene,
        options,
        character: character.map(|controller| Character {
            controller,
            input: MoveInput::default(),
            keys: [false; 4],
            trail: VecDeque::with_capacity(TRAIL_LENGTH),
            touched: Vec::new(),
            accumulator: 0.0,
        }),
        window: None,
        pixels: None,
        pixmap: None,
        failure: None,
        frames: 0,
        last_frame: None,
        frame_seconds: 0.0,
        cursor: Vec2::ZERO,
        modifiers: ModifiersState::empty(),
        drag_sweep: None,
        pan_from: None,
    };
    event_loop
        .run_app(&mut app)
        .map_err(|e| no_window(&e.to_string()))?;
    match app.failure {
        Some(failure) => Err(failure),
        None => Ok(()),
    }
}

fn no_window(reason: &str) -> Failure {
    Failure::usage(format!(
        "error: cannot open a window ({reason}); without a display or GPU adapter, render \
         headless with --screenshot OUT.png"
    ))
}

impl App {
    fn fail(&mut self, event_loop: &ActiveEventLoop, failure: Failure) {
        self.failure.get_or_insert(failure);
        event_loop.exit();
    }

    fn open(&mut self, event_loop: &ActiveEventLoop) -> Result<(), Failure> {
        let (w, h) = self.options.size;
        let attributes = Window::default_attributes()
            .with_title(self.options.title.clone())
            .with_inner_size(PhysicalSize::new(w, h));
        let window = Arc::new(
            event_loop
                .create_window(attributes)
                .map_err(|e| no_window(&e.to_string()))?,
        );
        let size = window.inner_size();
        let (w, h) = (size.width.max(1), size.height.max(1));
        let surface = SurfaceTexture::new(w, h, Arc::clone(&window));
        let pixels = Pixels::new(w, h, surface).map_err(|e| no_window(&e.to_string()))?;
        self.pixmap = Pixmap::new(w, h);
        self.scene.camera = Camera {
            width: w,
            height: h,
            ..self.scene.camera
        };
        self.pixels = Some(pixels);
        self.window = Some(window);
        Ok(())
    }

    fn resize(&mut self, size: PhysicalSize<u32>) -> Result<(), Failure> {
        let (w, h) = (size.width, size.height);
        if w == 0 || h == 0 {
            return Ok(());
        }
        if let Some(pixels) = &mut self.pixels {
            let fail = |e: pixels::TextureError| Failure::usage(format!("error: resize: {e}"));
            pixels.resize_surface(w, h).map_err(fail)?;
            pixels.resize_buffer(w, h).map_err(fail)?;
        }
        self.pixmap = Pixmap::new(w, h);
        self.scene.camera.width = w;
        self.scene.camera.height = h;
        Ok(())
    }

    fn frame(&mut self, event_loop: &ActiveEventLoop) -> Result<(), Failure> {
        let now = Instant::now();
        let dt = self
            .last_frame
            .map_or(0.0, |last| now.duration_since(last).as_secs_f32());
        self.last_frame = Some(now);
        if dt > 0.0 {
            self.frame_seconds = if self.frame_seconds == 0.0 {
                dt
            } else {
                self.frame_seconds + (dt - self.frame_seconds) * FPS_SMOOTHING
            };
        }
        self.move_character(dt);
        self.update_hud();
        let (Some(pixels), Some(pixmap)) = (&mut self.pixels, &mut self.pixmap) else {
            return Ok(());
        };
        render::draw(&self.scene, &self.world, pixmap);
        let frame = pixels.frame_mut();
        if frame.len() == pixmap.data().len() {
            frame.copy_from_slice(pixmap.data());
        }
        pixels
            .render()
            .map_err(|e| Failure::usage(format!("error: rendering failed: {e}")))?;
        self.frames += 1;
        if self.options.frames.is_some_and(|n| self.frames >= n) {
            if let Some(path) = &self.options.capture {
                let png = screenshot::encode_rgba(pixmap.width(), pixmap.height(), pixels.frame())
                    .map_err(|e| Failure::usage(format!("error: {e}")))?;
                std::fs::write(path, png)
                    .map_err(|e| Failure::usage(format!("{}: error: {e}", path.display())))?;
            }
            event_loop.exit();
        }
        Ok(())
    }

    fn move_character(&mut self, dt: f32) {
        let Some(c) = &mut self.character else {
            return;
        };
        let [up, left, down, right] = c.keys.map(f32::from);
        c.input.wish = Vec3::new(right - left, up - down, 0.0).clamp_length_max(1.0);
        let tick = c.controller.config().tick;
        c.accumulator = (c.accumulator + dt).min(MAX_CATCH_UP);
        while c.accumulator >= tick {
            c.accumulator -= tick;
            let outcome = c.controller.step(&self.world, &c.input);
            if c.trail.len() == TRAIL_LENGTH {
                c.trail.pop_front();
            }
            c.trail.push_back(c.controller.position());
            for entry in &mut c.touched {
                entry.1 += tick;
            }
            for touch in outcome.touches.as_slice() {
                match c.touched.iter_mut().find(|(p, _)| *p == touch.plane) {
                    Some(entry) => entry.1 = 0.0,
                    None => c.touched.push((touch.plane, 0.0)),
                }
            }
            c.touched.retain(|(_, age)| *age < TOUCH_HOLD);
        }
        let mut overlay = character_overlay(&c.controller);
        overlay.trail = c.trail.iter().copied().collect();
        overlay.touched = c.touched.iter().map(|(p, _)| *p).collect();
        if self.options.follow {
            self.scene.camera.center = overlay.position.truncate();
            let z = (overlay.position.z / FOLLOW_SLICE_STEP).floor() * FOLLOW_SLICE_STEP
                + FOLLOW_SLICE_STEP / 2.0;
            self.scene.set_slice_z(&self.world, z);
        }
        self.scene.character = Some(overlay);
    }

    fn update_hud(&mut self) {
        let fps = if self.frame_seconds > 0.0 {
            1.0 / self.frame_seconds
        } else {
            0.0
        };
        let mut hud = Vec::new();
        if let Some(c) = &self.character {
            let (p, v) = (c.controller.position(), c.controller.velocity());
            hud.push(format!("pos {:.1} {:.1} {:.1}", p.x, p.y, p.z));
            hud.push(format!(
                "vel {:.0} {:.0} {:.0}  speed {:.0}",
                v.x,
                v.y,
                v.z,
                v.truncate().length()
            ));
            let ground = match c.controller.ground().state {
                GroundState::Walkable => "walkable",
                GroundState::Steep => "steep",
                GroundState::Air => "air",
            };
            let crouched = if c.controller.crouched() {
                "  crouched"
            } else {
                ""
            };
            hud.push(format!("ground {ground}{crouched}"));
        }
        hud.push(format!(
            "fps {fps:.0}  frame {:.1} ms",
            self.frame_seconds * 1000.0
        ));
        hud.push(self.scene.status());
        self.scene.hud = hud;
    }

    fn key(&mut self, event_loop: &ActiveEventLoop, code: Option<KeyCode>, key: &Key, down: bool) {
        if let Some(c) = &mut self.character {
            let slot = match code {
                Some(KeyCode::KeyW) => Some(0),
                Some(KeyCode::KeyA) => Some(1),
                Some(KeyCode::KeyS) => Some(2),
                Some(KeyCode::KeyD) => Some(3),
                _ => None,
            };
            if let Some(slot) = slot {
                c.keys[slot] = down;
                return;
            }
            match code {
                Some(KeyCode::Space) => {
                    c.input.jump = down;
                    return;
                }
                Some(KeyCode::KeyC) => {
                    c.input.crouch = down;
                    return;
                }
                _ => {}
            }
        }
        if !down {
            return;
        }
        let shift = self.modifiers.shift_key();
        let step = if shift {
            SLICE_STEP * SLICE_STEP_SHIFT
        } else {
            SLICE_STEP
        };
        let digit = match code {
            Some(KeyCode::Digit1) => Some(0),
            Some(KeyCode::Digit2) => Some(1),
            Some(KeyCode::Digit3) => Some(2),
            Some(KeyCode::Digit4) => Some(3),
            Some(KeyCode::Digit5) => Some(4),
            Some(KeyCode::Digit6) => Some(5),
            _ => None,
        };
        if let Some(index) = digit {
            self.scene.shape = self.scene.shape.with_kind(ShapeKind::ALL[index]);
            return;
        }
        match key {
            Key::Named(NamedKey::Escape) => event_loop.exit(),
            Key::Named(NamedKey::Tab) => self.scene.shape = self.scene.shape.next_kind(),
            Key::Named(NamedKey::PageUp) => {
                let z = self.scene.slice_z() + step;
                self.scene.set_slice_z(&self.world, z);
            }
            Key::Named(NamedKey::PageDown) => {
                let z = self.scene.slice_z() - step;
                self.scene.set_slice_z(&self.world, z);
            }
            Key::Named(NamedKey::Backspace) => {
                self.scene.sweeps.pop();
            }
            Key::Named(NamedKey::Delete) => self.scene.sweeps.clear(),
            Key::Character(text) => match text.as_str() {
                "+" | "=" | "]" => self.scene.shape = self.scene.shape.stepped(true),
                "-" | "_" | "[" => self.scene.shape = self.scene.shape.stepped(false),
                "b" | "B" => self.scene.show_bevels = !self.scene.show_bevels,
                "f" | "F" => {
                    if let Some(model) = self.world.models().first() {
                        let camera = &self.scene.camera;
                        self.scene.camera = Camera::fit(
                            camera.width,
                            camera.height,
                            model.mins.truncate(),
                            model.maxs.truncate(),
                        );
                    }
                }
                _ => {}
            },
            _ => {}
        }
    }

    fn mouse_moved(&mut self, position: Vec2) {
        let previous = self.cursor;
        self.cursor = position;
        if self.pan_from.is_some() {
            self.scene.camera.pan_pixels(position - previous);
            self.pan_from = Some(position);
        }
        if let Some(from) = self.drag_sweep {
            let camera = self.scene.camera;
            self.scene.sweeps.pop();
            self.scene.cast_at_slice(
                &self.world,
                camera.to_world(from),
                camera.to_world(position),
            );
        }
    }

    fn mouse_button(&mut self, button: MouseButton, down: bool) {
        match (button, down) {
            (MouseButton::Left, true) => {
                let at = self.scene.camera.to_world(self.cursor);
                self.scene.cast_at_slice(&self.world, at, at);
                self.drag_sweep = Some(self.cursor);
            }
            (MouseButton::Left, false) => {
                if let Some(from) = self.drag_sweep.take()
                    && from.distance(self.cursor) < MIN_DRAG_PIXELS
                {
                    self.scene.sweeps.pop();
                }
            }
            (MouseButton::Right, true) => self.pan_from = Some(self.cursor),
            (MouseButton::Right, false) => self.pan_from = None,
            _ => {}
        }
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.window.is_none()
            && let Err(failure) = self.open(event_loop)
        {
            self.fail(event_loop, failure);
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => {
                if let Err(failure) = self.resize(size) {
                    self.fail(event_loop, failure);
                }
            }
            WindowEvent::RedrawRequested => {
                if let Err(failure) = self.frame(event_loop) {
                    self.fail(event_loop, failure);
                }
            }
            WindowEvent::ModifiersChanged(modifiers) => self.modifiers = modifiers.state(),
            WindowEvent::KeyboardInput { event, .. } => {
                let code = match event.physical_key {
                    PhysicalKey::Code(code) => Some(code),
                    PhysicalKey::Unidentified(_) => None,
                };
                let down = event.state == ElementState::Pressed;
                self.key(event_loop, code, &event.logical_key, down);
            }
            WindowEvent::CursorMoved { position, .. } => {
                self.mouse_moved(Vec2::new(position.x as f32, position.y as f32));
            }
            WindowEvent::MouseInput { state, button, .. } => {
                self.mouse_button(button, state == ElementState::Pressed);
            }
            WindowEvent::MouseWheel { delta, .. } => {
                let lines = match delta {
                    MouseScrollDelta::LineDelta(_, y) => y,
                    MouseScrollDelta::PixelDelta(p) => p.y as f32 / PIXELS_PER_LINE,
                };
                self.scene
                    .camera
                    .zoom_about(self.cursor, ZOOM_PER_LINE.powf(lines));
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
