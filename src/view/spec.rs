//! The viewer's command-line grammar: shape specs `KIND:SIZE`, sweep specs
//! `KIND:SIZE,X,Y,Z,X,Y,Z`, image sizes `WxH` and coordinate lists.
//!
//! Takes text, gives [`ShapeSpec`], [`TraceSpec`], sizes and vectors, or a message naming what
//! is wrong. Guarantees: every parsed value is finite and makes a valid [`TraceShape`]; no
//! input panics.
//!
//! `KIND:SIZE` names a shape by one number, so that keys can step it:
//!
//! | spec | shape |
//! |---|---|
//! | `point` or `point:S` | a point (S ignored) |
//! | `sphere:S` | sphere of radius S |
//! | `cylinder:S` | upright cylinder, radius S, half height S (as tall as wide) |
//! | `capsule:S` | upright capsule, radius S, segment half height S (total height 4·S) |
//! | `box:S` | cube of half size S (edge 2·S) |
//! | `hull:S` | triangular prism: the triangle with corners S from the axis, one towards +x, half height S |

use glam::{Vec2, Vec3};

use crate::trace::{ShapeKind, TraceShape};

/// Smallest and largest shape size the viewer accepts, in map units: below 1/8 unit a shape
/// is invisible at any zoom; above 4096 it covers a Quake level.
const SIZE_RANGE: (f32, f32) = (0.125, 4096.0);

/// The sizes the `+`/`-` keys step through, in map units.
const SIZE_STEPS: [f32; 12] = [
    1.0, 2.0, 4.0, 8.0, 12.0, 16.0, 24.0, 32.0, 48.0, 64.0, 96.0, 128.0,
];

/// Smallest and largest image side in pixels: a 16-pixel image still shows a marker; 8192 is
/// a 256 MiB pixmap, the most a screenshot should cost.
pub const IMAGE_SIDE_RANGE: (u32, u32) = (16, 8192);

/// A shape named by its kind and one size (see the module table).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeSpec {
    /// The kind.
    pub kind: ShapeKind,
    /// The size in map units (radius, half size); ignored for points.
    pub size: f32,
}

impl Default for ShapeSpec {
    /// A cube of half size 16: Quake's player is 32 wide.
    fn default() -> Self {
        ShapeSpec {
            kind: ShapeKind::Box,
            size: 16.0,
        }
    }
}

impl std::fmt::Display for ShapeSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind {
            ShapeKind::Point => write!(f, "point"),
            kind => write!(f, "{}:{}", kind.name(), self.size),
        }
    }
}

impl ShapeSpec {
    /// Parses `KIND:SIZE` (or `point`).
    ///
    /// # Errors
    /// A message naming the unknown kind or the bad size.
    pub fn parse(text: &str) -> Result<ShapeSpec, String> {
        let (name, size) = match text.split_once(':') {
            Some((name, size)) => (name.trim(), Some(size.trim())),
            None => (text.trim(), None),
        };
        let kind = ShapeKind::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| {
                format!(
                    "unknown shape kind '{name}' in '{text}' (point, sphere, cylinder, capsule, box, hull)"
                )
            })?;
        let size = match (kind, size) {
            (ShapeKind::Point, None) => 0.0,
            (_, None) => return Err(format!("expected {name}:SIZE, got '{text}'")),
            (_, Some(s)) => s
                .parse::<f32>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("bad size '{s}' in '{text}'"))?,
        };
        let spec = ShapeSpec { kind, size };
        if kind != ShapeKind::Point && !(SIZE_RANGE.0..=SIZE_RANGE.1).contains(&size) {
            return Err(format!(
                "size {size} in '{text}' is outside {}..{}",
                SIZE_RANGE.0, SIZE_RANGE.1
            ));
        }
        Ok(spec)
    }

    /// The shape this spec names, relative to its reference point.
    #[must_use]
    pub fn shape(&self) -> TraceShape {
        let s = self.size.clamp(SIZE_RANGE.0, SIZE_RANGE.1);
        let shape = match self.kind {
            ShapeKind::Point => Some(TraceShape::point()),
            ShapeKind::Sphere => TraceShape::sphere(s),
            ShapeKind::Cylinder => TraceShape::cylinder(s, s),
            ShapeKind::Capsule => TraceShape::capsule(s, s),
            ShapeKind::Box => TraceShape::aabb(Vec3::splat(-s), Vec3::splat(s)),
            ShapeKind::Hull => {
                let corners = [0.0f32, 120.0, 240.0].map(|deg| {
                    let (sin, cos) = deg.to_radians().sin_cos();
                    Vec2::new(cos, sin) * s
                });
                TraceShape::hull(
                    corners
                        .iter()
                        .flat_map(|c| [c.extend(-s), c.extend(s)])
                        .collect(),
                )
            }
        };
        // A clamped finite size always builds its shape; a point is the harmless fallback.
        shape.unwrap_or_else(TraceShape::point)
    }

    /// The same kind one size step larger (`grow`) or smaller.
    #[must_use]
    pub fn stepped(&self, grow: bool) -> ShapeSpec {
        let size = if grow {
            SIZE_STEPS.iter().copied().find(|&s| s > self.size)
        } else {
            SIZE_STEPS.iter().rev().copied().find(|&s| s < self.size)
        };
        ShapeSpec {
            kind: self.kind,
            size: size.unwrap_or(self.size),
        }
    }

    /// The same size with another kind.
    #[must_use]
    pub fn with_kind(&self, kind: ShapeKind) -> ShapeSpec {
        let size = if self.size > 0.0 {
            self.size
        } else {
            ShapeSpec::default().size
        };
        ShapeSpec { kind, size }
    }

    /// The next kind in [`ShapeKind::ALL`], wrapping.
    #[must_use]
    pub fn next_kind(&self) -> ShapeSpec {
        let index = ShapeKind::ALL
            .iter()
            .position(|&k| k == self.kind)
            .unwrap_or(0);
        self.with_kind(ShapeKind::ALL[(index + 1) % ShapeKind::ALL.len()])
    }
}

/// One sweep from the command line: `KIND:SIZE,X0,Y0,Z0,X1,Y1,Z1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TraceSpec {
    /// The shape.
    pub shape: ShapeSpec,
    /// Start of the reference point.
    pub start: Vec3,
    /// Requested end of the reference point.
    pub end: Vec3,
}

impl TraceSpec {
    /// Parses `KIND:SIZE,X0,Y0,Z0,X1,Y1,Z1`, e.g. `box:16,1024,768,32,1300,768,32`.
    ///
    /// # Errors
    /// A message naming what is wrong.
    pub fn parse(text: &str) -> Result<TraceSpec, String> {
        let (shape, coords) = text
            .split_once(',')
            .ok_or_else(|| format!("expected KIND:SIZE,X0,Y0,Z0,X1,Y1,Z1, got '{text}'"))?;
        let shape = ShapeSpec::parse(shape)?;
        match numbers(coords)?[..] {
            [x0, y0, z0, x1, y1, z1] => Ok(TraceSpec {
                shape,
                start: Vec3::new(x0, y0, z0),
                end: Vec3::new(x1, y1, z1),
            }),
            _ => Err(format!(
                "expected six coordinates after the shape in '{text}' (KIND:SIZE,X0,Y0,Z0,X1,Y1,Z1)"
            )),
        }
    }
}

/// Comma-separated finite numbers.
fn numbers(text: &str) -> Result<Vec<f32>, String> {
    text.split(',')
        .map(|n| {
            n.trim()
                .parse::<f32>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("bad number '{}' in '{text}'", n.trim()))
        })
        .collect()
}

/// Parses `X,Y`.
///
/// # Errors
/// A message naming what is wrong.
pub fn parse_vec2(text: &str) -> Result<Vec2, String> {
    match numbers(text)?[..] {
        [x, y] => Ok(Vec2::new(x, y)),
        _ => Err(format!("expected X,Y, got '{text}'")),
    }
}

/// Parses `X,Y,Z`.
///
/// # Errors
/// A message naming what is wrong.
pub fn parse_vec3(text: &str) -> Result<Vec3, String> {
    match numbers(text)?[..] {
        [x, y, z] => Ok(Vec3::new(x, y, z)),
        _ => Err(format!("expected X,Y,Z, got '{text}'")),
    }
}

/// Parses an image size `WxH`, each side within [`IMAGE_SIDE_RANGE`].
///
/// # Errors
/// A message naming what is wrong.
pub fn parse_image_size(text: &str) -> Result<(u32, u32), String> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("expected WIDTHxHEIGHT, got '{text}'"))?;
    let side = |s: &str| {
        s.trim()
            .parse::<u32>()
            .ok()
            .filter(|v| (IMAGE_SIDE_RANGE.0..=IMAGE_SIDE_RANGE.1).contains(v))
            .ok_or_else(|| {
                format!(
                    "bad image side '{s}' in '{text}' (each side {}..{})",
                    IMAGE_SIDE_RANGE.0, IMAGE_SIDE_RANGE.1
                )
            })
    };
    Ok((side(w)?, side(h)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_specs_parse_and_print() {
        for (text, kind, size) in [
            ("point", ShapeKind::Point, 0.0),
            ("point:0", ShapeKind::Point, 0.0),
            ("sphere:16", ShapeKind::Sphere, 16.0),
            ("box:8", ShapeKind::Box, 8.0),
            ("hull:24", ShapeKind::Hull, 24.0),
        ] {
            let spec = ShapeSpec::parse(text).unwrap();
            assert_eq!((spec.kind, spec.size), (kind, size), "{text}");
            assert_eq!(ShapeSpec::parse(&spec.to_string()).unwrap(), spec);
        }
        for bad in [
            "cone:3", "sphere", "sphere:x", "box:0", "box:nan", "box:1e9",
        ] {
            assert!(ShapeSpec::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn shapes_have_the_documented_extents() {
        let extent = |text: &str| ShapeSpec::parse(text).unwrap().shape().bounds();
        assert_eq!(extent("box:16"), (Vec3::splat(-16.0), Vec3::splat(16.0)));
        assert_eq!(
            extent("capsule:8"),
            (Vec3::new(-8.0, -8.0, -16.0), Vec3::new(8.0, 8.0, 16.0))
        );
        let (mins, maxs) = extent("hull:10");
        assert!((maxs.x - 10.0).abs() < 1e-5 && (mins.x + 5.0).abs() < 1e-5);
        assert_eq!((mins.z, maxs.z), (-10.0, 10.0));
    }

    #[test]
    fn trace_specs_and_sizes_parse() {
        let t = TraceSpec::parse("box:16,1024,768,32,1300,768,32").unwrap();
        assert_eq!(t.start, Vec3::new(1024.0, 768.0, 32.0));
        assert_eq!(t.end, Vec3::new(1300.0, 768.0, 32.0));
        assert!(TraceSpec::parse("box:16,1,2,3").is_err());
        assert!(TraceSpec::parse("box:16").is_err());
        assert_eq!(parse_image_size("1280x800"), Ok((1280, 800)));
        assert!(parse_image_size("0x800").is_err());
        assert!(parse_image_size("1280").is_err());
        assert_eq!(parse_vec2("1,-2"), Ok(Vec2::new(1.0, -2.0)));
    }

    #[test]
    fn size_steps_move_and_stop() {
        let s = ShapeSpec::parse("sphere:16").unwrap();
        assert_eq!(s.stepped(true).size, 24.0);
        assert_eq!(s.stepped(false).size, 12.0);
        let big = ShapeSpec::parse("sphere:128").unwrap();
        assert_eq!(big.stepped(true).size, 128.0);
        assert_eq!(s.next_kind().kind, ShapeKind::Cylinder);
    }
}
