//! Horizontal cross-sections: every brush of every model cut by the plane `z = h`, and the
//! footprints of sweep shapes seen from above.
//!
//! Takes a [`CompiledMap`] and a height, gives a [`Slice`]: one convex polygon per brush that
//! reaches the height (2D half-plane clipping of the brush's bounds rectangle by its faces),
//! the lines where its bevel planes cross the height, and ready-made paths per
//! [`ContentsClass`] so that a frame draws a whole map in a few fills. Guarantees: a polygon
//! is exactly the brush's cross-section up to [`SLICE_CLIP_EPSILON`] (faces only: bevels never
//! cut a brush); brushes that do not reach the height give no polygon, nor do trigger
//! volumes (they never block, so the map is drawn as a character meets it); nothing panics
//! on any validated world.

use glam::{Vec2, Vec3};
use tiny_skia::{Path, PathBuilder};

use planeshift::CompiledMap;
use planeshift::Contents;
use planeshift::TraceShape;
use planeshift::query::Plane;
use planeshift::query::ShapeKind;
use planeshift::tolerance::{SLICE_CLIP_EPSILON, SLICE_FLAT_EPSILON};

/// What a region is drawn as: one colour per class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ContentsClass {
    /// Fog, trigger volumes, tool volumes (bot clip, do-not-enter, portals, no-drop, hint)
    /// and other contents that block neither players nor monsters, drawn first (under
    /// everything).
    Other,
    /// Water.
    Water,
    /// Slime.
    Slime,
    /// Lava.
    Lava,
    /// Player or monster clip.
    Clip,
    /// Ordinary solid.
    Solid,
    /// Solid glass.
    Window,
    /// Solid sky.
    Sky,
    /// A brush of a moving model (door, platform...), whatever its contents.
    Mover,
}

impl ContentsClass {
    /// Every class, in drawing order: a class drawn later covers the earlier ones, and is
    /// the one [`ContentsClass::of`] picks where brushes of both overlap.
    pub const ALL: [ContentsClass; 9] = [
        ContentsClass::Other,
        ContentsClass::Water,
        ContentsClass::Slime,
        ContentsClass::Lava,
        ContentsClass::Clip,
        ContentsClass::Solid,
        ContentsClass::Window,
        ContentsClass::Sky,
        ContentsClass::Mover,
    ];

    /// The class of a brush of model `model` made of `contents`: triggers are `Other`, movers
    /// go by model, then the most visible bit (sky, window, solid, clip, lava, slime, water).
    #[must_use]
    pub fn of(contents: Contents, model: usize) -> ContentsClass {
        let has = |c: Contents| contents.intersects(c);
        if has(Contents::TRIGGER) {
            ContentsClass::Other
        } else if model != 0 {
            ContentsClass::Mover
        } else if has(Contents::SKY) {
            ContentsClass::Sky
        } else if has(Contents::WINDOW) {
            ContentsClass::Window
        } else if has(Contents::SOLID) {
            ContentsClass::Solid
        } else if has(Contents(Contents::PLAYERCLIP.0 | Contents::MONSTERCLIP.0)) {
            ContentsClass::Clip
        } else if has(Contents::LAVA) {
            ContentsClass::Lava
        } else if has(Contents::SLIME) {
            ContentsClass::Slime
        } else if has(Contents::WATER) {
            ContentsClass::Water
        } else {
            ContentsClass::Other
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// One brush's cross-section.
#[derive(Clone, Debug, PartialEq)]
pub struct SlicePolygon {
    /// Index of the brush in [`CompiledMap::brushes`].
    pub brush: u32,
    /// The model the brush belongs to (0 is the world).
    pub model: u32,
    /// What the brush is made of.
    pub contents: Contents,
    /// How it is drawn.
    pub class: ContentsClass,
    /// The convex cross-section, counter-clockwise seen from above, at least three corners.
    pub points: Vec<Vec2>,
    /// Where the brush's bevel planes cross the height: a segment on each line, through the
    /// point of the line nearest the polygon.
    pub bevels: Vec<[Vec2; 2]>,
}

impl SlicePolygon {
    /// Whether `p` lies inside the polygon or on its boundary.
    #[must_use]
    pub fn contains(&self, p: Vec2) -> bool {
        let n = self.points.len();
        (0..n).all(|i| {
            let (a, b) = (self.points[i], self.points[(i + 1) % n]);
            (b - a).perp_dot(p - a) >= -SLICE_CLIP_EPSILON
        })
    }
}

/// The paths of one class, in world coordinates (x, y).
#[derive(Clone, Debug)]
pub(crate) struct Layer {
    pub class: ContentsClass,
    /// Every polygon of the class, one closed subpath each.
    pub fill: Option<Path>,
    /// Every bevel segment of the class.
    pub bevels: Option<Path>,
}

/// A whole map cut at one height, with the paths a frame draws.
#[derive(Clone, Debug)]
pub struct Slice {
    z: f32,
    brush_count: usize,
    polygons: Vec<SlicePolygon>,
    layers: Vec<Layer>,
}

/// Half the length of a drawn bevel segment, in map units: long enough to see its slope
/// beside a 16-unit wall, short enough not to cross the room.
const BEVEL_HALF_LENGTH: f32 = 24.0;

impl Slice {
    /// Cuts every brush of every model of `world` at height `z`.
    #[must_use]
    pub fn cut(world: &CompiledMap, z: f32) -> Slice {
        let mut polygons = Vec::new();
        for (model, info) in world.models().iter().enumerate() {
            let first = info.brush_range().start;
            let count = info.brush_range().len();
            for (offset, brush) in world.brushes().iter().enumerate().skip(first).take(count) {
                let trigger = brush.contents.intersects(Contents::TRIGGER);
                if trigger || !(brush.mins.z <= z && z <= brush.maxs.z) {
                    continue;
                }
                let planes = world
                    .brush_sides(brush)
                    .iter()
                    .filter_map(|s| world.planes().get(s.plane as usize));
                let faces = planes.clone().take(brush.face_count as usize);
                let Some(points) =
                    cross_section(faces, z, brush.mins.truncate(), brush.maxs.truncate())
                else {
                    continue;
                };
                let bevels = planes
                    .skip(brush.face_count as usize)
                    .filter_map(|p| bevel_segment(p, z, &points))
                    .collect();
                polygons.push(SlicePolygon {
                    brush: offset as u32,
                    model: model as u32,
                    contents: brush.contents,
                    class: ContentsClass::of(brush.contents, model),
                    points,
                    bevels,
                });
            }
        }
        let layers = build_layers(&polygons);
        Slice {
            z,
            brush_count: world.brushes().len(),
            polygons,
            layers,
        }
    }

    /// The height of the cut.
    #[must_use]
    pub fn z(&self) -> f32 {
        self.z
    }

    /// The cross-sections, world brushes first, in brush order.
    #[must_use]
    pub fn polygons(&self) -> &[SlicePolygon] {
        &self.polygons
    }

    /// The topmost cross-section containing `p` (the one drawn last).
    #[must_use]
    pub fn polygon_at(&self, p: Vec2) -> Option<&SlicePolygon> {
        self.polygons
            .iter()
            .filter(|poly| poly.contains(p))
            .max_by_key(|poly| poly.class)
    }

    /// Whether this slice was cut from a world like `world` at height `z` (same brush count
    /// and height): the check a renderer makes before trusting a cached slice.
    #[must_use]
    pub fn matches(&self, world: &CompiledMap, z: f32) -> bool {
        self.z == z && self.brush_count == world.brushes().len()
    }

    pub(crate) fn layers(&self) -> &[Layer] {
        &self.layers
    }
}

/// The cross-section at height `z` of the brush whose faces are `faces`, starting from its
/// bounds rectangle; `None` when empty or degenerate.
fn cross_section<'a>(
    faces: impl Iterator<Item = &'a Plane>,
    z: f32,
    mins: Vec2,
    maxs: Vec2,
) -> Option<Vec<Vec2>> {
    let mut polygon = vec![
        mins,
        Vec2::new(maxs.x, mins.y),
        maxs,
        Vec2::new(mins.x, maxs.y),
    ];
    let mut scratch = Vec::with_capacity(8);
    for plane in faces {
        let a = plane.normal.truncate();
        let b = plane.dist - plane.normal.z * z;
        if a.length() < SLICE_FLAT_EPSILON {
            if b < -SLICE_CLIP_EPSILON {
                return None;
            }
            continue;
        }
        clip_half_plane(&polygon, a, b, &mut scratch);
        std::mem::swap(&mut polygon, &mut scratch);
        if polygon.len() < 3 {
            return None;
        }
    }
    Some(polygon)
}

/// Clips the convex polygon `input` to `{ p : a·p <= b }` into `out` (Sutherland–Hodgman);
/// corners within [`SLICE_CLIP_EPSILON`] of the line (in units of `|a|`) are kept as they are.
pub(crate) fn clip_half_plane(input: &[Vec2], a: Vec2, b: f32, out: &mut Vec<Vec2>) {
    out.clear();
    let eps = SLICE_CLIP_EPSILON * a.length();
    let n = input.len();
    for i in 0..n {
        let (p, q) = (input[i], input[(i + 1) % n]);
        let (dp, dq) = (a.dot(p) - b, a.dot(q) - b);
        if dp <= eps {
            out.push(p);
        }
        if (dp < -eps && dq > eps) || (dp > eps && dq < -eps) {
            out.push(p + (q - p) * (dp / (dp - dq)));
        }
    }
}

/// The segment drawn for a bevel plane at height `z`: on its line, centred on the point
/// nearest the polygon's farthest corner along the line's normal; `None` for a flat plane.
fn bevel_segment(plane: &Plane, z: f32, polygon: &[Vec2]) -> Option<[Vec2; 2]> {
    let a = plane.normal.truncate();
    let length = a.length();
    if length < SLICE_FLAT_EPSILON {
        return None;
    }
    let (unit, b) = (a / length, (plane.dist - plane.normal.z * z) / length);
    let corner = polygon
        .iter()
        .copied()
        .max_by(|p, q| unit.dot(*p).total_cmp(&unit.dot(*q)))?;
    let foot = corner - unit * (unit.dot(corner) - b);
    let along = unit.perp() * BEVEL_HALF_LENGTH;
    Some([foot - along, foot + along])
}

fn build_layers(polygons: &[SlicePolygon]) -> Vec<Layer> {
    let mut fills: Vec<PathBuilder> = ContentsClass::ALL
        .iter()
        .map(|_| PathBuilder::new())
        .collect();
    let mut bevels: Vec<PathBuilder> = ContentsClass::ALL
        .iter()
        .map(|_| PathBuilder::new())
        .collect();
    for polygon in polygons {
        let fill = &mut fills[polygon.class.index()];
        push_polygon(fill, &polygon.points);
        let lines = &mut bevels[polygon.class.index()];
        for [p, q] in &polygon.bevels {
            lines.move_to(p.x, p.y);
            lines.line_to(q.x, q.y);
        }
    }
    ContentsClass::ALL
        .iter()
        .zip(fills.into_iter().zip(bevels))
        .map(|(&class, (fill, bevels))| Layer {
            class,
            fill: fill.finish(),
            bevels: bevels.finish(),
        })
        .collect()
}

/// Adds a closed polygon to `builder`.
pub(crate) fn push_polygon(builder: &mut PathBuilder, points: &[Vec2]) {
    let Some((first, rest)) = points.split_first() else {
        return;
    };
    builder.move_to(first.x, first.y);
    for p in rest {
        builder.line_to(p.x, p.y);
    }
    builder.close();
}

/// How a shape looks from above, relative to its reference point: the outline of its
/// projection onto the horizontal plane.
#[derive(Clone, Debug, PartialEq)]
pub enum Footprint {
    /// A point.
    Point,
    /// A circle (spheres, upright cylinders and capsules).
    Circle {
        /// Radius in map units.
        radius: f32,
    },
    /// A convex polygon, counter-clockwise (boxes and hulls).
    Polygon(Vec<Vec2>),
}

/// Directions sampled for a hull's outline: every 5°, so that the outline is exact for any
/// hull whose edges seen from above face a multiple of 5° (the viewer's own `hull:S` prism),
/// and within 0.1 % of the hull's size otherwise.
const HULL_OUTLINE_DIRECTIONS: usize = 72;

impl Footprint {
    /// The footprint of `shape`, from its support function: circles for the round kinds,
    /// the bounds rectangle for a box, and for a hull the intersection of its support
    /// half-planes in `HULL_OUTLINE_DIRECTIONS` horizontal directions.
    #[must_use]
    pub fn of(shape: &TraceShape) -> Footprint {
        match shape.kind() {
            ShapeKind::Point => Footprint::Point,
            ShapeKind::Sphere | ShapeKind::Cylinder | ShapeKind::Capsule => Footprint::Circle {
                radius: shape.support_distance(Vec3::X),
            },
            ShapeKind::Box => {
                let (mins, maxs) = shape.bounds();
                Footprint::Polygon(vec![
                    mins.truncate(),
                    Vec2::new(maxs.x, mins.y),
                    maxs.truncate(),
                    Vec2::new(mins.x, maxs.y),
                ])
            }
            ShapeKind::Hull => {
                let (mins, maxs) = shape.bounds();
                let mut polygon = vec![
                    mins.truncate(),
                    Vec2::new(maxs.x, mins.y),
                    maxs.truncate(),
                    Vec2::new(mins.x, maxs.y),
                ];
                let mut scratch = Vec::with_capacity(polygon.len() + 2);
                for i in 0..HULL_OUTLINE_DIRECTIONS {
                    let angle = std::f32::consts::TAU * i as f32 / HULL_OUTLINE_DIRECTIONS as f32;
                    let u = Vec2::from_angle(angle);
                    clip_half_plane(
                        &polygon,
                        u,
                        shape.support_distance(u.extend(0.0)),
                        &mut scratch,
                    );
                    if scratch.len() >= 3 {
                        std::mem::swap(&mut polygon, &mut scratch);
                    }
                }
                Footprint::Polygon(polygon)
            }
        }
    }

    /// How far the footprint reaches from its reference point along the unit direction `u`.
    #[must_use]
    pub fn reach(&self, u: Vec2) -> f32 {
        match self {
            Footprint::Point => 0.0,
            Footprint::Circle { radius } => *radius,
            Footprint::Polygon(points) => points
                .iter()
                .map(|p| p.dot(u))
                .fold(f32::NEG_INFINITY, f32::max),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping_a_square_by_a_diagonal_gives_a_triangle() {
        let square = [
            Vec2::ZERO,
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 2.0),
            Vec2::new(0.0, 2.0),
        ];
        let mut out = Vec::new();
        clip_half_plane(&square, Vec2::new(1.0, 1.0), 2.0, &mut out);
        assert_eq!(
            out,
            vec![Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::new(0.0, 2.0)]
        );
        // A line through a corner keeps the corner once and cuts nothing else.
        clip_half_plane(&square, Vec2::new(1.0, 1.0), 4.0, &mut out);
        assert_eq!(out.len(), 4);
    }

    #[test]
    fn hull_footprint_is_the_prism_triangle() {
        let hull = crate::ShapeSpec::parse("hull:10").unwrap().shape();
        let Footprint::Polygon(points) = Footprint::of(&hull) else {
            panic!("hull footprint is a polygon");
        };
        let corners = [
            Vec2::new(10.0, 0.0),
            Vec2::new(-5.0, 8.660254),
            Vec2::new(-5.0, -8.660254),
        ];
        for c in corners {
            assert!(
                points.iter().any(|p| p.distance(c) < 1e-3),
                "{c} in {points:?}"
            );
        }
        for p in &points {
            assert!(
                corners.iter().any(|c| p.distance(*c) < 1e-3),
                "extra corner {p}"
            );
        }
    }
}
