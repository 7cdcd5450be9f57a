//! The text grammar of shapes, `KIND:PARAMS`, the one grammar of `bspc` and the viewer.
//!
//! Takes a string; gives a [`TraceShape`] or a [`ShapeSpecError`] naming what is wrong.
//! Guarantees: every shape [`TraceShape::from_spec`] returns passed its constructor's checks;
//! no input panics.
//!
//! | spec | shape |
//! |---|---|
//! | `point` | a point (a ray) |
//! | `sphere:R` | sphere of radius R |
//! | `cylinder:R:H`, `cylinder:R` | upright cylinder of radius R and half height H (H = R when left out) |
//! | `capsule:R:H`, `capsule:R` | upright capsule: segment from −H to H on Z rounded by R (H = R when left out) |
//! | `box:X0,Y0,Z0,X1,Y1,Z1` | axis-aligned box from mins to maxs, relative to the reference point |
//! | `box:HX,HY,HZ`, `box:H` | box centred on the reference point with these half extents (a cube for one) |
//! | `hull:X,Y,Z;X,Y,Z;…` | convex hull of the points |
//! | `hull:S` | triangular prism: corners S from the Z axis (one towards +X), half height S |
//!
//! The one-number forms ([`TraceShape::of_size`]) name a family the viewer can grow and
//! shrink by one size.

use glam::{Vec2, Vec3};

use super::{ShapeKind, TraceShape};

/// Why a shape spec could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShapeSpecError {
    /// The kind before the `:` is not one of point, sphere, cylinder, capsule, box, hull.
    #[error("unknown shape kind in '{spec}' (point, sphere, cylinder, capsule, box, hull)")]
    UnknownKind {
        /// The whole spec.
        spec: String,
    },
    /// A parameter is not a finite number.
    #[error("bad number '{number}' in shape '{spec}'")]
    BadNumber {
        /// The whole spec.
        spec: String,
        /// The text that should be a number.
        number: String,
    },
    /// The parameters do not have one of the kind's forms.
    #[error("expected {expected}, got '{spec}'")]
    Form {
        /// The whole spec.
        spec: String,
        /// The forms the kind takes.
        expected: &'static str,
    },
    /// The numbers make no valid shape (not positive, too large, mins above maxs).
    #[error("invalid shape parameters in '{spec}'")]
    Invalid {
        /// The whole spec.
        spec: String,
    },
}

impl TraceShape {
    /// The shape of kind `kind` and one size `size` (the one-number forms of the grammar):
    /// a point (size ignored), a sphere of radius `size`, a cylinder or capsule of radius and
    /// half height `size`, a cube of half size `size`, a triangular prism with corners `size`
    /// from its axis and half height `size`. `None` when `size` is not a valid size.
    #[must_use]
    pub fn of_size(kind: ShapeKind, size: f32) -> Option<TraceShape> {
        match kind {
            ShapeKind::Point => Some(TraceShape::point()),
            ShapeKind::Sphere => TraceShape::sphere(size),
            ShapeKind::Cylinder => TraceShape::cylinder(size, size),
            ShapeKind::Capsule => TraceShape::capsule(size, size),
            ShapeKind::Box => TraceShape::aabb(Vec3::splat(-size), Vec3::splat(size)),
            ShapeKind::Hull => {
                let corners = [0.0f32, 120.0, 240.0].map(|deg| {
                    let (sin, cos) = deg.to_radians().sin_cos();
                    Vec2::new(cos, sin) * size
                });
                let points = corners
                    .iter()
                    .flat_map(|c| [c.extend(-size), c.extend(size)])
                    .collect();
                (size.is_finite() && size > 0.0)
                    .then(|| TraceShape::hull(points))
                    .flatten()
            }
        }
    }

    /// Parses a shape in the grammar of the module table, e.g. `sphere:16`,
    /// `capsule:16:20`, `box:-16,-16,-24,16,16,32`.
    ///
    /// # Errors
    /// A [`ShapeSpecError`] naming what is wrong.
    ///
    /// # Examples
    /// ```
    /// use planeshift::{query::ShapeKind, TraceShape};
    /// let player = TraceShape::from_spec("box:-16,-16,-24,16,16,32")?;
    /// assert_eq!(player.kind(), ShapeKind::Box);
    /// assert_eq!(TraceShape::from_spec("capsule:16")?, TraceShape::from_spec("capsule:16:16")?);
    /// assert!(TraceShape::from_spec("sphere:-1").is_err());
    /// # Ok::<(), planeshift::query::ShapeSpecError>(())
    /// ```
    pub fn from_spec(spec: &str) -> Result<Self, ShapeSpecError> {
        let spec = spec.trim();
        let (kind, args) = spec.split_once(':').unwrap_or((spec, ""));
        let numbers = |text: &str, sep: char| -> Result<Vec<f32>, ShapeSpecError> {
            text.split(sep)
                .map(|n| {
                    n.trim()
                        .parse::<f32>()
                        .ok()
                        .filter(|v| v.is_finite())
                        .ok_or_else(|| ShapeSpecError::BadNumber {
                            spec: spec.to_owned(),
                            number: n.trim().to_owned(),
                        })
                })
                .collect()
        };
        let form = |expected| ShapeSpecError::Form {
            spec: spec.to_owned(),
            expected,
        };
        let valid = |shape: Option<TraceShape>| {
            shape.ok_or_else(|| ShapeSpecError::Invalid {
                spec: spec.to_owned(),
            })
        };
        match kind {
            "point" if args.is_empty() => Ok(Self::point()),
            "point" => Err(form("point")),
            "sphere" => match numbers(args, ':')?[..] {
                [r] => valid(Self::sphere(r)),
                _ => Err(form("sphere:RADIUS")),
            },
            "cylinder" | "capsule" => {
                let expected = if kind == "cylinder" {
                    "cylinder:RADIUS:HALF_HEIGHT or cylinder:RADIUS"
                } else {
                    "capsule:RADIUS:HALF_HEIGHT or capsule:RADIUS"
                };
                let (r, h) = match numbers(args, ':')?[..] {
                    [r] => (r, r),
                    [r, h] => (r, h),
                    _ => return Err(form(expected)),
                };
                valid(if kind == "cylinder" {
                    Self::cylinder(r, h)
                } else {
                    Self::capsule(r, h)
                })
            }
            "box" => match numbers(args, ',')?[..] {
                [h] => valid(Self::of_size(ShapeKind::Box, h)),
                [x, y, z] => valid(Self::aabb(-Vec3::new(x, y, z), Vec3::new(x, y, z))),
                [a, b, c, d, e, f] => valid(Self::aabb(Vec3::new(a, b, c), Vec3::new(d, e, f))),
                _ => Err(form("box:X0,Y0,Z0,X1,Y1,Z1, box:HX,HY,HZ or box:H")),
            },
            "hull" if !args.contains(',') => match numbers(args, ';')?[..] {
                [s] => valid(Self::of_size(ShapeKind::Hull, s)),
                _ => Err(form("hull:X,Y,Z;X,Y,Z;... or hull:S")),
            },
            "hull" => {
                let points = args
                    .split(';')
                    .map(|p| match numbers(p, ',')?[..] {
                        [x, y, z] => Ok(Vec3::new(x, y, z)),
                        _ => Err(form("hull:X,Y,Z;X,Y,Z;... or hull:S")),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                valid(Self::hull(points))
            }
            _ => Err(ShapeSpecError::UnknownKind {
                spec: spec.to_owned(),
            }),
        }
    }
}
