//! Drawing one frame: [`draw`] paints a [`Scene`] over a [`CompiledMap`] into a [`Pixmap`].
//!
//! Takes the scene, the world and a pixmap of any size; gives the frame, in this order:
//! background, grid, the solid regions of the slice (filled and outlined by
//! [`ContentsClass`]), bevel lines if asked, the character (trail, touched planes, shape,
//! velocity), every sweep (path, the shape's outline at start and end, start marker, end
//! point, fraction label), then every impact marker with its normal arrow, the scale bar and
//! the heads-up text. Guarantees: `draw` is a pure function of its inputs (same inputs, same
//! pixels); the camera's size is taken from the pixmap; a stale cached slice is recomputed,
//! never trusted; opaque colours only, so the pixmap stays opaque and its premultiplied bytes
//! are plain RGBA. The colours are the named constants below, so tests can look for them.

use glam::{Vec2, Vec3};
use tiny_skia::{
    Color, ColorU8, FillRule, LineCap, LineJoin, Paint, PathBuilder, Pixmap, Rect, Stroke,
    Transform,
};

use super::font;
use super::slice::push_polygon;
use super::{Camera, CharacterOverlay, ContentsClass, Footprint, Scene, Slice, Sweep};
use planeshift::CompiledMap;
use planeshift::tolerance::SLICE_FLAT_EPSILON;

/// An opaque colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// As a tiny-skia colour.
    #[must_use]
    pub fn color(self) -> Color {
        Color::from_rgba8(self.0, self.1, self.2, 255)
    }

    /// As 8-bit RGBA.
    #[must_use]
    pub fn rgba(self) -> [u8; 4] {
        [self.0, self.1, self.2, 255]
    }

    fn color_u8(self) -> ColorU8 {
        ColorU8::from_rgba(self.0, self.1, self.2, 255)
    }
}

/// Open space.
pub const BACKGROUND: Rgb = Rgb(22, 24, 29);
/// Grid lines every grid step.
pub const GRID_MINOR: Rgb = Rgb(38, 42, 50);
/// Grid lines every [`GRID_MAJOR_EVERY`] steps.
pub const GRID_MAJOR: Rgb = Rgb(56, 62, 74);
/// The lines x = 0 and y = 0.
pub const GRID_AXIS: Rgb = Rgb(84, 94, 112);
/// Bevel lines.
pub const BEVEL: Rgb = Rgb(120, 220, 90);
/// A sweep's path from start to the requested end.
pub const SWEEP_PATH: Rgb = Rgb(150, 150, 160);
/// The start marker and the shape's outline at the start.
pub const SWEEP_START: Rgb = Rgb(70, 210, 120);
/// The shape's outline and reference point where the sweep stopped.
pub const SWEEP_END: Rgb = Rgb(255, 176, 40);
/// The impact marker.
pub const IMPACT: Rgb = Rgb(255, 40, 48);
/// The hit normal's arrow.
pub const NORMAL: Rgb = Rgb(255, 96, 220);
/// Labels (fractions, scale bar).
pub const LABEL: Rgb = Rgb(236, 236, 240);
/// The character's shape and velocity.
pub const CHARACTER: Rgb = Rgb(70, 200, 255);
/// The character's recent trail.
pub const TRAIL: Rgb = Rgb(40, 120, 170);
/// Planes the character touched.
pub const TOUCHED: Rgb = Rgb(255, 236, 60);
/// Heads-up text.
pub const HUD_TEXT: Rgb = Rgb(236, 236, 240);
/// The panel behind the heads-up text (drawn at `HUD_PANEL_ALPHA`).
pub const HUD_PANEL: Rgb = Rgb(0, 0, 0);

/// Opacity of the heads-up panel (0–255): dark enough to read, light enough to see through.
const HUD_PANEL_ALPHA: u8 = 170;

/// The fill colour of a class.
#[must_use]
pub fn fill_color(class: ContentsClass) -> Rgb {
    match class {
        ContentsClass::Water => Rgb(36, 84, 170),
        ContentsClass::Slime => Rgb(60, 130, 50),
        ContentsClass::Lava => Rgb(180, 64, 24),
        ContentsClass::Other => Rgb(70, 70, 90),
        ContentsClass::Clip => Rgb(120, 60, 140),
        ContentsClass::Solid => Rgb(150, 152, 162),
        ContentsClass::Sky => Rgb(90, 150, 200),
        ContentsClass::Window => Rgb(110, 180, 180),
        ContentsClass::Mover => Rgb(170, 120, 50),
    }
}

/// The outline colour of a class.
#[must_use]
pub fn outline_color(class: ContentsClass) -> Rgb {
    match class {
        ContentsClass::Water => Rgb(90, 150, 240),
        ContentsClass::Slime => Rgb(110, 200, 90),
        ContentsClass::Lava => Rgb(250, 130, 60),
        ContentsClass::Other => Rgb(130, 130, 160),
        ContentsClass::Clip => Rgb(200, 130, 220),
        ContentsClass::Solid => Rgb(222, 224, 232),
        ContentsClass::Sky => Rgb(160, 215, 245),
        ContentsClass::Window => Rgb(180, 240, 240),
        ContentsClass::Mover => Rgb(240, 190, 100),
    }
}

/// The grid is at least this many pixels between lines.
const MIN_GRID_PIXELS: f32 = 24.0;
/// Every this many grid steps, a stronger line.
pub const GRID_MAJOR_EVERY: i64 = 8;
/// Radius of the impact marker in pixels.
pub const IMPACT_RADIUS: f32 = 4.5;
/// Radius of the start marker in pixels.
const START_RADIUS: f32 = 3.5;
/// Radius of the end-point dot in pixels.
const END_RADIUS: f32 = 2.5;
/// Length of the normal arrow in pixels.
pub const NORMAL_ARROW: f32 = 36.0;
/// Length of an arrow head's sides in pixels.
const ARROW_HEAD: f32 = 9.0;
/// Width of shape outlines in pixels.
const OUTLINE_WIDTH: f32 = 1.75;
/// Seconds of velocity the character's velocity arrow shows.
const VELOCITY_ARROW_SECONDS: f32 = 0.1;
/// Half the size of the cross drawn for a point shape, in pixels.
const POINT_CROSS: f32 = 5.0;
/// Gap between a shape and the ring drawn around it for a floor or vertical normal, pixels.
const TOUCH_RING_GAP: f32 = 5.0;
/// Half the length of a touched plane's drawn segment, in map units.
const TOUCH_HALF_LENGTH: f32 = 48.0;
/// Margin between the image edge and the scale bar or heads-up text, in pixels.
const MARGIN: i32 = 10;

/// The grid step at `scale` pixels per unit: the smallest power of two (at least one unit)
/// whose lines are `MIN_GRID_PIXELS` or more apart.
#[must_use]
pub fn grid_step(scale: f32) -> f32 {
    let wanted = (MIN_GRID_PIXELS / scale.max(f32::MIN_POSITIVE)).max(1.0);
    let step = wanted.log2().ceil().exp2();
    if step.is_finite() { step } else { 1.0 }
}

/// The font scale for an image: font pixels twice as big from 640 pixels wide on.
#[must_use]
pub fn text_scale(width: u32) -> u32 {
    if width >= 640 { 2 } else { 1 }
}

/// Draws `scene` over `world` into `pixmap` (see the module doc for the layers).
pub fn draw(scene: &Scene, world: &CompiledMap, pixmap: &mut Pixmap) {
    let camera = Camera {
        width: pixmap.width(),
        height: pixmap.height(),
        ..scene.camera
    };
    pixmap.fill(BACKGROUND.color());
    draw_grid(pixmap, &camera);
    let fresh;
    let slice = if scene.slice().matches(world, scene.slice_z()) {
        scene.slice()
    } else {
        fresh = Slice::cut(world, scene.slice_z());
        &fresh
    };
    draw_slice(pixmap, &camera, slice, scene.show_bevels);
    if let Some(character) = &scene.character {
        draw_character(pixmap, &camera, character);
    }
    let scale = text_scale(camera.width);
    draw_sweeps(pixmap, &camera, &scene.sweeps, scale);
    draw_scale_bar(pixmap, &camera, scale);
    draw_hud(pixmap, &scene.hud, scale);
}

fn paint(color: Rgb, anti_alias: bool) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color(color.color());
    paint.anti_alias = anti_alias;
    paint
}

fn stroke(width: f32) -> Stroke {
    Stroke {
        width,
        line_cap: LineCap::Round,
        line_join: LineJoin::Round,
        ..Stroke::default()
    }
}

fn draw_grid(pixmap: &mut Pixmap, camera: &Camera) {
    let step = grid_step(camera.scale);
    let (lo, hi) = camera.visible();
    let (w, h) = (camera.width as f32, camera.height as f32);
    let mut minor = PathBuilder::new();
    let mut major = PathBuilder::new();
    let mut axis = PathBuilder::new();
    let mut lines = |lo: f32, hi: f32, vertical: bool| {
        let (first, last) = ((lo / step).floor() as i64, (hi / step).ceil() as i64);
        for k in first..=last {
            let world = k as f32 * step;
            let builder = if k == 0 {
                &mut axis
            } else if k % GRID_MAJOR_EVERY == 0 {
                &mut major
            } else {
                &mut minor
            };
            if vertical {
                let x = camera.to_pixel(Vec2::new(world, 0.0)).x.floor() + 0.5;
                builder.move_to(x, 0.0);
                builder.line_to(x, h);
            } else {
                let y = camera.to_pixel(Vec2::new(0.0, world)).y.floor() + 0.5;
                builder.move_to(0.0, y);
                builder.line_to(w, y);
            }
        }
    };
    lines(lo.x, hi.x, true);
    lines(lo.y, hi.y, false);
    for (builder, color) in [(minor, GRID_MINOR), (major, GRID_MAJOR), (axis, GRID_AXIS)] {
        if let Some(path) = builder.finish() {
            pixmap.stroke_path(
                &path,
                &paint(color, false),
                &Stroke::default(),
                Transform::identity(),
                None,
            );
        }
    }
}

fn draw_slice(pixmap: &mut Pixmap, camera: &Camera, slice: &Slice, show_bevels: bool) {
    let transform = camera.transform();
    let hairline = Stroke {
        width: 0.0,
        ..Stroke::default()
    };
    for layer in slice.layers() {
        let Some(fill) = &layer.fill else {
            continue;
        };
        pixmap.fill_path(
            fill,
            &paint(fill_color(layer.class), true),
            FillRule::Winding,
            transform,
            None,
        );
        pixmap.stroke_path(
            fill,
            &paint(outline_color(layer.class), true),
            &hairline,
            transform,
            None,
        );
    }
    if show_bevels {
        for path in slice.layers().iter().filter_map(|l| l.bevels.as_ref()) {
            pixmap.stroke_path(path, &paint(BEVEL, true), &hairline, transform, None);
        }
    }
}

/// Adds a footprint placed at world point `at` to `builder`, in pixel coordinates; a point
/// is drawn as a small cross.
fn add_footprint(builder: &mut PathBuilder, footprint: &Footprint, at: Vec2, camera: &Camera) {
    let centre = camera.to_pixel(at);
    match footprint {
        Footprint::Point => {
            let d = POINT_CROSS;
            add_line(builder, centre - Vec2::splat(d), centre + Vec2::splat(d));
            add_line(
                builder,
                centre + Vec2::new(-d, d),
                centre + Vec2::new(d, -d),
            );
        }
        Footprint::Circle { radius } => {
            builder.push_circle(centre.x, centre.y, (radius * camera.scale).max(1.0));
        }
        Footprint::Polygon(points) => {
            let pixels: Vec<Vec2> = points.iter().map(|p| camera.to_pixel(at + *p)).collect();
            push_polygon(builder, &pixels);
        }
    }
}

fn add_line(builder: &mut PathBuilder, a: Vec2, b: Vec2) {
    builder.move_to(a.x, a.y);
    builder.line_to(b.x, b.y);
}

/// Adds an arrow in pixels from `from` along the unit screen direction `dir`.
fn add_arrow(builder: &mut PathBuilder, from: Vec2, dir: Vec2, length: f32) {
    let tip = from + dir * length;
    add_line(builder, from, tip);
    for side in [-1.0f32, 1.0] {
        let back = Vec2::from_angle(side * std::f32::consts::FRAC_PI_6).rotate(-dir);
        add_line(builder, tip, tip + back * ARROW_HEAD);
    }
}

/// Strokes everything in `builder` at once, `width` pixels wide.
fn stroke_all(pixmap: &mut Pixmap, builder: PathBuilder, color: Rgb, width: f32) {
    if let Some(path) = builder.finish() {
        pixmap.stroke_path(
            &path,
            &paint(color, true),
            &stroke(width),
            Transform::identity(),
            None,
        );
    }
}

/// Fills everything in `builder` at once.
fn fill_all(pixmap: &mut Pixmap, builder: PathBuilder, color: Rgb) {
    if let Some(path) = builder.finish() {
        pixmap.fill_path(
            &path,
            &paint(color, true),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    }
}

/// The screen direction of a world direction (x, y): +y is up.
fn screen_dir(v: Vec2) -> Vec2 {
    Vec2::new(v.x, -v.y).normalize_or_zero()
}

fn draw_character(pixmap: &mut Pixmap, camera: &Camera, character: &CharacterOverlay) {
    let mut trail = PathBuilder::new();
    for (i, p) in character.trail.iter().enumerate() {
        let q = camera.to_pixel(p.truncate());
        if i == 0 {
            trail.move_to(q.x, q.y);
        } else {
            trail.line_to(q.x, q.y);
        }
    }
    if character.trail.len() >= 2 {
        stroke_all(pixmap, trail, TRAIL, 2.0);
    }
    let at = character.position.truncate();
    let centre = camera.to_pixel(at);
    let reach = character
        .footprint
        .as_ref()
        .map_or(0.0, |f| f.reach(Vec2::X))
        * camera.scale;
    let mut touched = PathBuilder::new();
    for plane in &character.touched {
        let a = plane.normal.truncate();
        let length = a.length();
        if length < SLICE_FLAT_EPSILON {
            // A floor or ceiling: a ring around the character.
            touched.push_circle(centre.x, centre.y, reach + TOUCH_RING_GAP);
            continue;
        }
        let unit = a / length;
        let b = (plane.dist - plane.normal.z * character.position.z) / length;
        let foot = at - unit * (unit.dot(at) - b);
        let along = unit.perp() * TOUCH_HALF_LENGTH;
        add_line(
            &mut touched,
            camera.to_pixel(foot - along),
            camera.to_pixel(foot + along),
        );
    }
    stroke_all(pixmap, touched, TOUCHED, 3.0);
    let mut body = PathBuilder::new();
    if let Some(footprint) = &character.footprint {
        add_footprint(&mut body, footprint, at, camera);
    }
    let v = character.velocity.truncate() * VELOCITY_ARROW_SECONDS * camera.scale;
    if v.length() >= 1.0 {
        add_arrow(&mut body, centre, screen_dir(v), v.length());
    }
    stroke_all(pixmap, body, CHARACTER, OUTLINE_WIDTH);
    let mut dot = PathBuilder::new();
    dot.push_circle(centre.x, centre.y, START_RADIUS);
    fill_all(pixmap, dot, CHARACTER);
}

/// Draws every sweep, a few strokes and fills for all of them (one per colour and width):
/// paths, outlines at start and stop, start and stop dots, labels, then normal arrows and
/// impact markers on top.
fn draw_sweeps(pixmap: &mut Pixmap, camera: &Camera, sweeps: &[Sweep], text_scale: u32) {
    if sweeps.is_empty() {
        return;
    }
    let mut paths = PathBuilder::new();
    let mut travelled = PathBuilder::new();
    let mut starts = PathBuilder::new();
    let mut stops = PathBuilder::new();
    let mut start_dots = PathBuilder::new();
    let mut stop_dots = PathBuilder::new();
    let mut normals = PathBuilder::new();
    let mut impacts = PathBuilder::new();
    for sweep in sweeps {
        let (start, end, stop) = (
            sweep.start.truncate(),
            sweep.end.truncate(),
            sweep.trace.end.truncate(),
        );
        let (ps, pe, pstop) = (
            camera.to_pixel(start),
            camera.to_pixel(end),
            camera.to_pixel(stop),
        );
        add_line(&mut paths, ps, pe);
        add_line(&mut travelled, ps, pstop);
        add_footprint(&mut starts, &sweep.footprint, start, camera);
        add_footprint(&mut stops, &sweep.footprint, stop, camera);
        start_dots.push_circle(ps.x, ps.y, START_RADIUS);
        stop_dots.push_circle(pstop.x, pstop.y, END_RADIUS);
        let (Some(impact), Some(normal)) = (sweep.impact(), sweep.trace.normal) else {
            continue;
        };
        let at = camera.to_pixel(impact.truncate());
        let horizontal = normal.truncate();
        if horizontal.length() >= SLICE_FLAT_EPSILON {
            add_arrow(
                &mut normals,
                at,
                screen_dir(horizontal),
                NORMAL_ARROW * horizontal.length(),
            );
        } else {
            // A vertical normal points at (up) or away from (down) the viewer: a ring,
            // crossed when it points down.
            let r = IMPACT_RADIUS + TOUCH_RING_GAP;
            normals.push_circle(at.x, at.y, r);
            if normal.z < 0.0 {
                let d = r * std::f32::consts::FRAC_1_SQRT_2;
                add_line(&mut normals, at - Vec2::splat(d), at + Vec2::splat(d));
                add_line(&mut normals, at + Vec2::new(-d, d), at + Vec2::new(d, -d));
            }
        }
        impacts.push_circle(at.x, at.y, IMPACT_RADIUS);
    }
    stroke_all(pixmap, paths, SWEEP_PATH, 1.0);
    stroke_all(pixmap, travelled, SWEEP_END, 1.5);
    stroke_all(pixmap, starts, SWEEP_START, OUTLINE_WIDTH);
    stroke_all(pixmap, stops, SWEEP_END, OUTLINE_WIDTH);
    fill_all(pixmap, start_dots, SWEEP_START);
    fill_all(pixmap, stop_dots, SWEEP_END);
    for sweep in sweeps {
        draw_label(pixmap, camera, sweep, text_scale);
    }
    stroke_all(pixmap, normals, NORMAL, 2.0);
    fill_all(pixmap, impacts, IMPACT);
}

/// The fraction beside the stop point, on the side the sweep came from.
fn draw_label(pixmap: &mut Pixmap, camera: &Camera, sweep: &Sweep, text_scale: u32) {
    let label = if sweep.trace.all_solid {
        "all solid".to_string()
    } else if sweep.trace.start_solid {
        format!("{:.3} start solid", sweep.trace.fraction)
    } else {
        format!("{:.3}", sweep.trace.fraction)
    };
    let away = screen_dir(sweep.start.truncate() - sweep.end.truncate());
    let offset = if away.x < 0.0 {
        Vec2::new(-(font::text_width(&label, text_scale) as f32) - 8.0, 6.0)
    } else {
        Vec2::new(8.0, 6.0)
    };
    let at = camera.to_pixel(sweep.trace.end.truncate()) + offset;
    font::draw_text(
        pixmap,
        at.x as i32,
        at.y as i32,
        &label,
        LABEL.color_u8(),
        text_scale,
    );
}

fn draw_scale_bar(pixmap: &mut Pixmap, camera: &Camera, text_scale: u32) {
    let step = grid_step(camera.scale);
    let length = step * camera.scale;
    let h = camera.height as f32;
    let y = h - MARGIN as f32 - 4.0;
    let x0 = MARGIN as f32;
    let x1 = x0 + length;
    let mut builder = PathBuilder::new();
    builder.move_to(x0, y - 5.0);
    builder.line_to(x0, y);
    builder.line_to(x1, y);
    builder.line_to(x1, y - 5.0);
    if let Some(path) = builder.finish() {
        pixmap.stroke_path(
            &path,
            &paint(LABEL, true),
            &stroke(2.0),
            Transform::identity(),
            None,
        );
    }
    let label = format!("{step} units");
    let text_h = (font::GLYPH_HEIGHT * text_scale) as i32;
    font::draw_text(
        pixmap,
        x1 as i32 + 8,
        y as i32 - text_h + 1,
        &label,
        LABEL.color_u8(),
        text_scale,
    );
}

fn draw_hud(pixmap: &mut Pixmap, lines: &[String], text_scale: u32) {
    if lines.is_empty() {
        return;
    }
    let line_h = font::LINE_HEIGHT * text_scale;
    let width = lines
        .iter()
        .map(|l| font::text_width(l, text_scale))
        .max()
        .unwrap_or(0);
    let pad = 6.0;
    let rect = Rect::from_xywh(
        MARGIN as f32 - pad,
        MARGIN as f32 - pad,
        width as f32 + 2.0 * pad,
        (line_h * lines.len() as u32) as f32 + 2.0 * pad - (3 * text_scale) as f32,
    );
    if let Some(rect) = rect {
        let mut panel = paint(HUD_PANEL, false);
        panel.set_color_rgba8(HUD_PANEL.0, HUD_PANEL.1, HUD_PANEL.2, HUD_PANEL_ALPHA);
        pixmap.fill_rect(rect, &panel, Transform::identity(), None);
    }
    for (i, text) in lines.iter().enumerate() {
        font::draw_text(
            pixmap,
            MARGIN,
            MARGIN + (i as u32 * line_h) as i32,
            text,
            HUD_TEXT.color_u8(),
            text_scale,
        );
    }
}

/// The world point (x, y, slice height) at the centre of pixel `(i, j)`.
#[must_use]
pub fn pixel_world(camera: &Camera, i: u32, j: u32, z: f32) -> Vec3 {
    camera
        .to_world(Vec2::new(i as f32 + 0.5, j as f32 + 0.5))
        .extend(z)
}
