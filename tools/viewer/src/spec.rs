//! The viewer's command-line grammar: shapes in the library's one grammar
//! ([`TraceShape::from_spec`]: `sphere:16`, `box:-16,-16,-24,16,16,32`, ...), sweeps
//! `SHAPE@X0,Y0,Z0@X1,Y1,Z1` (or `KIND:SIZE,X0,Y0,Z0,X1,Y1,Z1` for one-number shapes), image
//! sizes `WxH` and coordinate lists.
//!
//! Takes text, gives [`ShapeSpec`], [`TraceSpec`], sizes and vectors, or a message naming what
//! is wrong. Guarantees: every parsed value is finite and makes a valid [`TraceShape`]; no
//! input panics.
//!
//! A shape named by one number (`KIND:SIZE`, [`TraceShape::of_size`]) can be stepped by the
//! `+`/`-` keys; any other form is drawn as written until a key changes it.

use glam::{Vec2, Vec3};

use planeshift::TraceShape;
use planeshift::query::ShapeKind;

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

/// A shape the viewer sweeps: a kind and one size (see [`TraceShape::of_size`]), or a shape
/// written in another form of the grammar.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeSpec {
    /// The kind.
    pub kind: ShapeKind,
    /// The size in map units (radius, half size) that the keys step; ignored for points.
    pub size: f32,
    /// A shape written in another form than `KIND:SIZE`, with its text.
    written: Option<(String, TraceShape)>,
}

impl Default for ShapeSpec {
    /// A cube of half size 16: Quake's player is 32 wide.
    fn default() -> Self {
        ShapeSpec::sized(ShapeKind::Box, 16.0)
    }
}

impl std::fmt::Display for ShapeSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.written, self.kind) {
            (Some((text, _)), _) => f.write_str(text),
            (None, ShapeKind::Point) => write!(f, "point"),
            (None, kind) => write!(f, "{}:{}", kind.name(), self.size),
        }
    }
}

impl ShapeSpec {
    /// The shape of `kind` and one `size`.
    #[must_use]
    pub fn sized(kind: ShapeKind, size: f32) -> ShapeSpec {
        ShapeSpec {
            kind,
            size,
            written: None,
        }
    }

    /// Parses a shape in the library's grammar ([`TraceShape::from_spec`]); a one-number
    /// size must lie within the viewer's range (1/8 to 4096 units).
    ///
    /// # Errors
    /// A message naming what is wrong.
    pub fn parse(text: &str) -> Result<ShapeSpec, String> {
        let text = text.trim();
        let shape = TraceShape::from_spec(text).map_err(|e| e.to_string())?;
        let kind = shape.kind();
        let one_size = text
            .split_once(':')
            .map(|(_, size)| size)
            .filter(|size| !size.contains([',', ':', ';']))
            .and_then(|size| size.trim().parse::<f32>().ok());
        match (kind, one_size) {
            (ShapeKind::Point, _) => Ok(ShapeSpec::sized(kind, 0.0)),
            (_, Some(size)) if (SIZE_RANGE.0..=SIZE_RANGE.1).contains(&size) => {
                Ok(ShapeSpec::sized(kind, size))
            }
            (_, Some(size)) => Err(format!(
                "size {size} in '{text}' is outside {}..{}",
                SIZE_RANGE.0, SIZE_RANGE.1
            )),
            (_, None) => Ok(ShapeSpec {
                kind,
                size: shape.radius().clamp(SIZE_RANGE.0, SIZE_RANGE.1),
                written: Some((text.to_owned(), shape)),
            }),
        }
    }

    /// The shape this spec names, relative to its reference point.
    #[must_use]
    pub fn shape(&self) -> TraceShape {
        if let Some((_, shape)) = &self.written {
            return shape.clone();
        }
        // A clamped finite size always builds its shape; a point is the harmless fallback.
        TraceShape::of_size(self.kind, self.size.clamp(SIZE_RANGE.0, SIZE_RANGE.1))
            .unwrap_or_else(TraceShape::point)
    }

    /// The same kind one size step larger (`grow`) or smaller.
    #[must_use]
    pub fn stepped(&self, grow: bool) -> ShapeSpec {
        let size = if grow {
            SIZE_STEPS.iter().copied().find(|&s| s > self.size)
        } else {
            SIZE_STEPS.iter().rev().copied().find(|&s| s < self.size)
        };
        ShapeSpec::sized(self.kind, size.unwrap_or(self.size))
    }

    /// The same size with another kind.
    #[must_use]
    pub fn with_kind(&self, kind: ShapeKind) -> ShapeSpec {
        let size = if self.size > 0.0 {
            self.size
        } else {
            ShapeSpec::default().size
        };
        ShapeSpec::sized(kind, size)
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

/// One sweep from the command line: `SHAPE@X0,Y0,Z0@X1,Y1,Z1`, or
/// `KIND:SIZE,X0,Y0,Z0,X1,Y1,Z1` for a one-number shape.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceSpec {
    /// The shape.
    pub shape: ShapeSpec,
    /// Start of the reference point.
    pub start: Vec3,
    /// Requested end of the reference point.
    pub end: Vec3,
}

impl TraceSpec {
    /// Parses `SHAPE@X0,Y0,Z0@X1,Y1,Z1` (e.g. `capsule:16:20@0,0,40@300,0,40`) or
    /// `KIND:SIZE,X0,Y0,Z0,X1,Y1,Z1` (e.g. `box:16,1024,768,32,1300,768,32`).
    ///
    /// # Errors
    /// A message naming what is wrong.
    pub fn parse(text: &str) -> Result<TraceSpec, String> {
        let usage = "SHAPE@X0,Y0,Z0@X1,Y1,Z1 or KIND:SIZE,X0,Y0,Z0,X1,Y1,Z1";
        let (shape, start, end) = if let Some((shape, rest)) = text.split_once('@') {
            let (start, end) = rest
                .split_once('@')
                .ok_or_else(|| format!("expected {usage}, got '{text}'"))?;
            (
                ShapeSpec::parse(shape)?,
                parse_vec3(start)?,
                parse_vec3(end)?,
            )
        } else {
            let (shape, coords) = text
                .split_once(',')
                .ok_or_else(|| format!("expected {usage}, got '{text}'"))?;
            match numbers(coords)?[..] {
                [x0, y0, z0, x1, y1, z1] => (
                    ShapeSpec::parse(shape)?,
                    Vec3::new(x0, y0, z0),
                    Vec3::new(x1, y1, z1),
                ),
                _ => {
                    return Err(format!(
                        "expected six coordinates after the shape in '{text}' ({usage})"
                    ));
                }
            }
        };
        Ok(TraceSpec { shape, start, end })
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
        let t = TraceSpec::parse("capsule:16:20@0,0,40@300,0,40").unwrap();
        assert_eq!(t.shape.shape(), TraceShape::capsule(16.0, 20.0).unwrap());
        assert_eq!(t.shape.to_string(), "capsule:16:20");
        assert_eq!(t.end, Vec3::new(300.0, 0.0, 40.0));
        assert!(TraceSpec::parse("box:16,1,2,3").is_err());
        assert!(TraceSpec::parse("box:16@1,2,3").is_err());
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
