//! planeshift_viewer, the top-down viewer, without a window: a [`Scene`] (camera, slice
//! height, sweeps, an optional character) drawn into a tiny-skia
//! [`Pixmap`](tiny_skia::Pixmap).
//!
//! Takes a validated [`CompiledMap`] and what the user asked to see; gives pixels
//! ([`render::draw`]) and PNG files ([`screenshot`]). Reads planeshift's `compiled` and
//! `trace` only; window code (winit, pixels, the `window` feature) lives in the examples
//! (`tools/viewer/examples/trace_visualizer.rs`, `fps_walk.rs`), so everything here runs
//! headless and is tested through pixels.
//!
//! Conventions: the view looks down the −Z axis; world +x is right and +y is up on screen.
//! Pixel `(i, j)` covers `[i, i + 1) × [j, j + 1)` of the continuous pixel coordinates that
//! [`Camera::to_pixel`] returns. Sweeps cast from the viewer run at the slice height.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![deny(missing_docs)]

pub mod font;
pub mod render;
pub mod screenshot;
mod slice;
mod spec;

use glam::{Vec2, Vec3};

use planeshift::CompiledMap;
use planeshift::Contents;
use planeshift::query::Plane;
use planeshift::{Trace, TraceShape};

pub use slice::{ContentsClass, Footprint, Slice, SlicePolygon};
pub use spec::{IMAGE_SIDE_RANGE, ShapeSpec, TraceSpec, parse_image_size, parse_vec2, parse_vec3};

/// Zoom limits in pixels per map unit: at 1/256 a 2^18-unit world fits in 1,024 pixels; at 64
/// one unit spans 64 pixels, enough to see the 1/32 stop distance as two pixels.
pub const SCALE_RANGE: (f32, f32) = (1.0 / 256.0, 64.0);

/// Fraction of the image left as margin around the world when the camera fits it.
const FIT_MARGIN: f32 = 0.05;

/// How the world maps to pixels: a uniform scale about a centre, +y up on screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// The world point (x, y) at the centre of the image.
    pub center: Vec2,
    /// Pixels per map unit, within [`SCALE_RANGE`].
    pub scale: f32,
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
}

impl Camera {
    /// A camera for a `width`×`height` image centred on `center` at `scale` pixels per unit
    /// (clamped to [`SCALE_RANGE`]; a non-finite scale becomes 1).
    #[must_use]
    pub fn new(width: u32, height: u32, center: Vec2, scale: f32) -> Camera {
        let scale = if scale.is_finite() { scale } else { 1.0 };
        Camera {
            center: if center.is_finite() {
                center
            } else {
                Vec2::ZERO
            },
            scale: scale.clamp(SCALE_RANGE.0, SCALE_RANGE.1),
            width: width.max(1),
            height: height.max(1),
        }
    }

    /// A camera that shows the rectangle `mins..maxs` whole, centred, with a small margin.
    #[must_use]
    pub fn fit(width: u32, height: u32, mins: Vec2, maxs: Vec2) -> Camera {
        let size = (maxs - mins).max(Vec2::ONE);
        let usable = Vec2::new(width as f32, height as f32) * (1.0 - 2.0 * FIT_MARGIN);
        let scale = (usable / size).min_element();
        Camera::new(width, height, (mins + maxs) * 0.5, scale)
    }

    /// The continuous pixel position of world point `p` (x, y).
    #[must_use]
    pub fn to_pixel(&self, p: Vec2) -> Vec2 {
        let half = Vec2::new(self.width as f32, self.height as f32) * 0.5;
        let d = (p - self.center) * self.scale;
        Vec2::new(half.x + d.x, half.y - d.y)
    }

    /// The world point (x, y) at continuous pixel position `px`.
    #[must_use]
    pub fn to_world(&self, px: Vec2) -> Vec2 {
        let half = Vec2::new(self.width as f32, self.height as f32) * 0.5;
        self.center + Vec2::new(px.x - half.x, half.y - px.y) / self.scale
    }

    /// The world → pixel transform for tiny-skia paths in world coordinates.
    #[must_use]
    pub fn transform(&self) -> tiny_skia::Transform {
        let (w, h) = (self.width as f32, self.height as f32);
        tiny_skia::Transform::from_row(
            self.scale,
            0.0,
            0.0,
            -self.scale,
            w * 0.5 - self.center.x * self.scale,
            h * 0.5 + self.center.y * self.scale,
        )
    }

    /// Moves the view so that the world follows the mouse by `delta` pixels.
    pub fn pan_pixels(&mut self, delta: Vec2) {
        let moved = self.center - Vec2::new(delta.x, -delta.y) / self.scale;
        if moved.is_finite() {
            self.center = moved;
        }
    }

    /// Multiplies the scale by `factor` (clamped to [`SCALE_RANGE`]), keeping the world point
    /// under pixel `px` where it is.
    pub fn zoom_about(&mut self, px: Vec2, factor: f32) {
        if !factor.is_finite() || factor <= 0.0 {
            return;
        }
        let anchor = self.to_world(px);
        self.scale = (self.scale * factor).clamp(SCALE_RANGE.0, SCALE_RANGE.1);
        let drift = self.to_world(px) - anchor;
        self.center -= drift;
    }

    /// The world rectangle (mins, maxs) the image shows.
    #[must_use]
    pub fn visible(&self) -> (Vec2, Vec2) {
        let a = self.to_world(Vec2::new(0.0, self.height as f32));
        let b = self.to_world(Vec2::new(self.width as f32, 0.0));
        (a.min(b), a.max(b))
    }
}

/// One sweep and its result, as drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    /// The shape swept.
    pub shape: TraceShape,
    /// How the shape looks from above.
    pub footprint: Footprint,
    /// Start of the reference point.
    pub start: Vec3,
    /// Requested end of the reference point.
    pub end: Vec3,
    /// What the world answered.
    pub trace: Trace,
}

impl Sweep {
    /// Sweeps `shape` from `start` to `end` through `world` (default solid mask).
    #[must_use]
    pub fn cast(world: &CompiledMap, shape: TraceShape, start: Vec3, end: Vec3) -> Sweep {
        let trace = world.trace(&shape, start, end, Contents::MASK_ANY_BLOCKING);
        Sweep {
            footprint: Footprint::of(&shape),
            shape,
            start,
            end,
            trace,
        }
    }

    /// The point where the shape touches the surface it hit: the trace end moved against the
    /// hit normal by the shape's support distance in that direction, so it lies the stop
    /// distance in front of the hit plane. `None` when nothing was hit or all-solid.
    #[must_use]
    pub fn impact(&self) -> Option<Vec3> {
        let n = self.trace.normal?;
        Some(self.trace.end - n * self.shape.support_distance(-n))
    }
}

/// A walking character as the viewer draws it: plain data, filled by whoever moves it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CharacterOverlay {
    /// Position of the reference point.
    pub position: Vec3,
    /// Velocity in units per second (drawn as an arrow one tenth of a second long).
    pub velocity: Vec3,
    /// How the character's shape looks from above.
    pub footprint: Option<Footprint>,
    /// Recent positions, oldest first.
    pub trail: Vec<Vec3>,
    /// Planes touched on the last moves (world planes, normals facing the character).
    pub touched: Vec<Plane>,
}

/// Everything one frame shows, apart from the world itself.
#[derive(Clone, Debug)]
pub struct Scene {
    /// The view.
    pub camera: Camera,
    /// Draw the bevel lines of the slice.
    pub show_bevels: bool,
    /// The shape new sweeps use.
    pub shape: ShapeSpec,
    /// Sweeps drawn, oldest first.
    pub sweeps: Vec<Sweep>,
    /// The walking character, if any.
    pub character: Option<CharacterOverlay>,
    /// Lines of heads-up text drawn at the top left.
    pub hud: Vec<String>,
    slice: Slice,
}

impl Scene {
    /// A scene over `world` cut at height `slice_z`, with no sweeps.
    #[must_use]
    pub fn new(world: &CompiledMap, camera: Camera, slice_z: f32) -> Scene {
        Scene {
            camera,
            show_bevels: false,
            shape: ShapeSpec::default(),
            sweeps: Vec::new(),
            character: None,
            hud: Vec::new(),
            slice: Slice::cut(world, slice_z),
        }
    }

    /// The height of the horizontal cut.
    #[must_use]
    pub fn slice_z(&self) -> f32 {
        self.slice.z()
    }

    /// The cached cross-section of the world at [`Scene::slice_z`].
    #[must_use]
    pub fn slice(&self) -> &Slice {
        &self.slice
    }

    /// Moves the cut to height `z`, recomputing the cross-section only when it changes.
    pub fn set_slice_z(&mut self, world: &CompiledMap, z: f32) {
        if z.is_finite() && !self.slice.matches(world, z) {
            self.slice = Slice::cut(world, z);
        }
    }

    /// Sweeps the scene's shape between two world points (x, y) at the slice height and
    /// keeps the result.
    pub fn cast_at_slice(&mut self, world: &CompiledMap, from: Vec2, to: Vec2) -> &Sweep {
        let z = self.slice_z();
        self.push_sweep(world, self.shape.shape(), from.extend(z), to.extend(z))
    }

    /// Sweeps `shape` from `start` to `end` and keeps the result.
    pub fn push_sweep(
        &mut self,
        world: &CompiledMap,
        shape: TraceShape,
        start: Vec3,
        end: Vec3,
    ) -> &Sweep {
        let sweep = Sweep::cast(world, shape, start, end);
        self.sweeps.push(sweep);
        let last = self.sweeps.len() - 1;
        &self.sweeps[last]
    }

    /// The status line: slice height, shape, bevel display, grid step and zoom.
    #[must_use]
    pub fn status(&self) -> String {
        format!(
            "slice z {}  shape {}  bevels {}  grid {} u  zoom {:.3} px/u",
            self.slice_z(),
            self.shape,
            if self.show_bevels { "on" } else { "off" },
            render::grid_step(self.camera.scale),
            self.camera.scale
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camera_round_trips_and_zooms_about_the_cursor() {
        let mut camera = Camera::new(200, 100, Vec2::new(10.0, 20.0), 2.0);
        assert_eq!(
            camera.to_pixel(Vec2::new(10.0, 20.0)),
            Vec2::new(100.0, 50.0)
        );
        // +y is up on screen.
        assert_eq!(
            camera.to_pixel(Vec2::new(10.0, 21.0)),
            Vec2::new(100.0, 48.0)
        );
        let p = Vec2::new(-3.0, 7.5);
        assert!(camera.to_world(camera.to_pixel(p)).distance(p) < 1e-4);
        let t = camera.transform();
        let mut q = [tiny_skia::Point::from_xy(p.x, p.y)];
        t.map_points(&mut q);
        assert!(Vec2::new(q[0].x, q[0].y).distance(camera.to_pixel(p)) < 1e-4);

        let cursor = Vec2::new(30.0, 80.0);
        let under = camera.to_world(cursor);
        camera.zoom_about(cursor, 1.5);
        assert_eq!(camera.scale, 3.0);
        assert!(camera.to_world(cursor).distance(under) < 1e-4);
        camera.pan_pixels(Vec2::new(10.0, 0.0));
        assert!(
            camera
                .to_world(cursor + Vec2::new(10.0, 0.0))
                .distance(under)
                < 1e-4
        );
        camera.zoom_about(cursor, 1e9);
        assert_eq!(camera.scale, SCALE_RANGE.1);
    }

    #[test]
    fn fit_shows_the_whole_rectangle() {
        let camera = Camera::fit(
            1280,
            800,
            Vec2::new(-16.0, -16.0),
            Vec2::new(2064.0, 2064.0),
        );
        let (lo, hi) = camera.visible();
        assert!(lo.x <= -16.0 && lo.y <= -16.0 && hi.x >= 2064.0 && hi.y >= 2064.0);
        assert!((camera.scale - 800.0 * 0.9 / 2080.0).abs() < 1e-6);
    }
}
