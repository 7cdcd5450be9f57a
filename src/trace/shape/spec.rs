//! The text grammar of shapes, `KIND:PARAMS`, shared by `bspc` and the viewer.
//!
//! Takes a string; gives a [`TraceShape`] or a message naming what is wrong. Guarantees:
//! every shape [`TraceShape::from_spec`] returns passed its constructor's checks.

use glam::Vec3;

use super::TraceShape;

impl TraceShape {
    /// Parses a command-line shape spec: `point`, `sphere:R`, `cylinder:R:H`, `capsule:R:H`
    /// (H the half height), `box:HX,HY,HZ` (centred), `box:X0,Y0,Z0,X1,Y1,Z1` (mins, maxs) or
    /// `hull:X,Y,Z;X,Y,Z;...`.
    ///
    /// # Errors
    /// A message naming what is wrong.
    pub fn from_spec(spec: &str) -> Result<Self, String> {
        let (kind, args) = spec.split_once(':').unwrap_or((spec, ""));
        let numbers = |text: &str, sep: char| -> Result<Vec<f32>, String> {
            text.split(sep)
                .map(|n| {
                    n.trim()
                        .parse::<f32>()
                        .ok()
                        .filter(|v| v.is_finite())
                        .ok_or_else(|| format!("bad number '{n}' in shape '{spec}'"))
                })
                .collect()
        };
        let invalid = || format!("invalid shape parameters in '{spec}'");
        match kind {
            "point" if args.is_empty() => Ok(Self::point()),
            "sphere" => match numbers(args, ':')?[..] {
                [r] => Self::sphere(r).ok_or_else(invalid),
                _ => Err(format!("expected sphere:RADIUS, got '{spec}'")),
            },
            "cylinder" | "capsule" => match numbers(args, ':')?[..] {
                [r, h] if kind == "cylinder" => Self::cylinder(r, h).ok_or_else(invalid),
                [r, h] => Self::capsule(r, h).ok_or_else(invalid),
                _ => Err(format!("expected {kind}:RADIUS:HALF_HEIGHT, got '{spec}'")),
            },
            "box" => match numbers(args, ',')?[..] {
                [x, y, z] => {
                    Self::aabb(-Vec3::new(x, y, z), Vec3::new(x, y, z)).ok_or_else(invalid)
                }
                [a, b, c, d, e, f] => {
                    Self::aabb(Vec3::new(a, b, c), Vec3::new(d, e, f)).ok_or_else(invalid)
                }
                _ => Err(format!(
                    "expected box:HX,HY,HZ or box:X0,Y0,Z0,X1,Y1,Z1, got '{spec}'"
                )),
            },
            "hull" => {
                let points = args
                    .split(';')
                    .map(|p| match numbers(p, ',')?[..] {
                        [x, y, z] => Ok(Vec3::new(x, y, z)),
                        _ => Err(format!("expected X,Y,Z hull points in '{spec}'")),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Self::hull(points).ok_or_else(invalid)
            }
            _ => Err(format!(
                "unknown shape '{spec}' (point, sphere:R, cylinder:R:H, capsule:R:H, box:..., hull:...)"
            )),
        }
    }
}
