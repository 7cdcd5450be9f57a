//! [`TraceShape`]: the shapes a sweep can move, each reduced to its support function.
//!
//! Takes shape parameters (validated by the constructors), gives the support distance
//! `h(u) = max over points c of the shape of u·c` for any direction `u`, relative to the
//! shape's reference point. That one number is all a plane needs: a brush side `n·y <= d`
//! blocks the reference point `x` exactly when `n·x <= d + h(−n)` (collision.md 4).
//!
//! | shape | h(u) |
//! |---|---|
//! | point | 0 |
//! | sphere, radius r | r |
//! | upright cylinder, radius r, half height a, centred | r·\|u_xy\| + a·\|u_z\| |
//! | upright capsule, radius r, segment −a..a on Z | r·\|u\| + a·\|u_z\| |
//! | box, centre c, half extents e | u·c + Σ e_i·\|u_i\| |
//! | convex hull of points p | max_p u·p |
//!
//! Guarantees: every constructed shape has finite parameters (radius > 0, half heights ≥ 0,
//! `mins <= maxs`, at least one and at most [`MAX_HULL_POINTS`] hull points, every size and
//! coordinate at most [`MAX_SHAPE_EXTENT`]), so `h` is finite and monotone in the shape (a
//! shape inside another never has a larger support).

use glam::{DVec3, Mat3, Vec3, Vec4};

use super::rounded::Core;

use crate::compiled::CompiledBrush;
use crate::tolerance::{MAX_HULL_POINTS, MAX_SHAPE_EXTENT, TREE_CULL_MARGIN};

/// Which kind of shape, for reports and dispatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShapeKind {
    /// A point (a ray).
    Point,
    /// A sphere.
    Sphere,
    /// An upright cylinder.
    Cylinder,
    /// An upright capsule.
    Capsule,
    /// An axis-aligned box.
    Box,
    /// A convex hull of points.
    Hull,
}

impl ShapeKind {
    /// Every kind, in the order reports list them.
    pub const ALL: [ShapeKind; 6] = [
        ShapeKind::Point,
        ShapeKind::Sphere,
        ShapeKind::Cylinder,
        ShapeKind::Capsule,
        ShapeKind::Box,
        ShapeKind::Hull,
    ];

    /// The lowercase name used by `bspc` and the JSON Lines contract.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ShapeKind::Point => "point",
            ShapeKind::Sphere => "sphere",
            ShapeKind::Cylinder => "cylinder",
            ShapeKind::Capsule => "capsule",
            ShapeKind::Box => "box",
            ShapeKind::Hull => "hull",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Repr {
    Point,
    Sphere {
        radius: f32,
    },
    Cylinder {
        radius: f32,
        half_height: f32,
    },
    Capsule {
        radius: f32,
        half_height: f32,
    },
    Box {
        center: Vec3,
        half: Vec3,
    },
    Hull {
        points: Box<[Vec3]>,
        /// The points four at a time, as `[xs, ys, zs]` (the last point repeated to fill the
        /// last group), so the support is four dot products per step.
        lanes: Box<[[Vec4; 3]]>,
    },
}

/// A shape to sweep, positioned relative to the sweep's reference point (Z up).
#[derive(Clone, Debug, PartialEq)]
pub struct TraceShape(Repr);

/// In `(0, MAX_SHAPE_EXTENT]` (a NaN fails).
fn positive(v: f32) -> bool {
    v > 0.0 && v <= MAX_SHAPE_EXTENT
}

/// In `[0, MAX_SHAPE_EXTENT]` (a NaN fails).
fn non_negative(v: f32) -> bool {
    (0.0..=MAX_SHAPE_EXTENT).contains(&v)
}

/// Every coordinate within `±MAX_SHAPE_EXTENT` (a NaN fails).
fn within_extent(v: Vec3) -> bool {
    v.abs().cmple(Vec3::splat(MAX_SHAPE_EXTENT)).all()
}

impl TraceShape {
    /// A point: the sweep is a ray.
    #[must_use]
    pub fn point() -> Self {
        TraceShape(Repr::Point)
    }

    /// A sphere centred on the reference point; `None` unless `radius` is in
    /// `(0, MAX_SHAPE_EXTENT]` ([`MAX_SHAPE_EXTENT`]).
    #[must_use]
    pub fn sphere(radius: f32) -> Option<Self> {
        positive(radius).then_some(TraceShape(Repr::Sphere { radius }))
    }

    /// An upright (Z) cylinder centred on the reference point, spanning
    /// `−half_height..half_height`; `None` unless the radius is in `(0, MAX_SHAPE_EXTENT]`
    /// and the half height in `[0, MAX_SHAPE_EXTENT]`.
    #[must_use]
    pub fn cylinder(radius: f32, half_height: f32) -> Option<Self> {
        (positive(radius) && non_negative(half_height)).then_some(TraceShape(Repr::Cylinder {
            radius,
            half_height,
        }))
    }

    /// An upright capsule: the segment `−half_height..half_height` on Z inflated by `radius`
    /// (total height `2·(half_height + radius)`); `None` unless the radius is in
    /// `(0, MAX_SHAPE_EXTENT]` and the half height in `[0, MAX_SHAPE_EXTENT]`.
    #[must_use]
    pub fn capsule(radius: f32, half_height: f32) -> Option<Self> {
        (positive(radius) && non_negative(half_height)).then_some(TraceShape(Repr::Capsule {
            radius,
            half_height,
        }))
    }

    /// An axis-aligned box from `mins` to `maxs`, relative to the reference point (Quake's
    /// player is `(−16, −16, −24)..(16, 16, 32)`); `None` unless `mins <= maxs` and every
    /// coordinate is within `±MAX_SHAPE_EXTENT`.
    #[must_use]
    pub fn aabb(mins: Vec3, maxs: Vec3) -> Option<Self> {
        (within_extent(mins) && within_extent(maxs) && mins.cmple(maxs).all()).then(|| {
            TraceShape(Repr::Box {
                center: (mins + maxs) * 0.5,
                half: (maxs - mins) * 0.5,
            })
        })
    }

    /// The convex hull of `points`, relative to the reference point; `None` when empty,
    /// longer than [`MAX_HULL_POINTS`], or with a coordinate not within
    /// `±MAX_SHAPE_EXTENT`. Only the hull matters: interior points never change the support.
    #[must_use]
    pub fn hull(points: Vec<Vec3>) -> Option<Self> {
        let valid = !points.is_empty()
            && points.len() <= MAX_HULL_POINTS
            && points.iter().all(|p| within_extent(*p));
        valid.then(|| {
            let lanes = points
                .chunks(4)
                .map(|group| {
                    let at = |i: usize| group.get(i).or(group.last()).copied().unwrap_or_default();
                    let lane =
                        |axis: usize| Vec4::new(at(0)[axis], at(1)[axis], at(2)[axis], at(3)[axis]);
                    [lane(0), lane(1), lane(2)]
                })
                .collect();
            TraceShape(Repr::Hull {
                points: points.into_boxed_slice(),
                lanes,
            })
        })
    }

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

    /// Which kind of shape this is.
    #[must_use]
    pub fn kind(&self) -> ShapeKind {
        match self.0 {
            Repr::Point => ShapeKind::Point,
            Repr::Sphere { .. } => ShapeKind::Sphere,
            Repr::Cylinder { .. } => ShapeKind::Cylinder,
            Repr::Capsule { .. } => ShapeKind::Capsule,
            Repr::Box { .. } => ShapeKind::Box,
            Repr::Hull { .. } => ShapeKind::Hull,
        }
    }

    /// The support distance `max over c in the shape of u·c` (`u` need not be unit length;
    /// the result scales with it).
    #[must_use]
    #[inline]
    pub fn support_distance(&self, u: Vec3) -> f32 {
        match &self.0 {
            Repr::Point => 0.0,
            Repr::Sphere { radius } => radius * u.length(),
            Repr::Cylinder {
                radius,
                half_height,
            } => radius * u.truncate().length() + half_height * u.z.abs(),
            Repr::Capsule {
                radius,
                half_height,
            } => radius * u.length() + half_height * u.z.abs(),
            Repr::Box { center, half } => u.dot(*center) + u.abs().dot(*half),
            Repr::Hull { lanes, .. } => hull_support(lanes, u),
        }
    }

    /// The circumradius about the reference point: the largest distance from it to a point
    /// of the shape (so `h(u) <= radius·|u|` for every `u`).
    #[must_use]
    pub fn radius(&self) -> f32 {
        match &self.0 {
            Repr::Point => 0.0,
            Repr::Sphere { radius } => *radius,
            Repr::Cylinder {
                radius,
                half_height,
            } => radius.hypot(*half_height),
            Repr::Capsule {
                radius,
                half_height,
            } => radius + half_height,
            Repr::Box { center, half } => (center.abs() + *half).length(),
            Repr::Hull { points, .. } => points.iter().map(|p| p.length()).fold(0.0, f32::max),
        }
    }

    /// The shape's bounding box relative to its reference point.
    #[must_use]
    pub fn bounds(&self) -> (Vec3, Vec3) {
        Oriented::new(self, None).bounds()
    }
}

/// How far a shape's blocking region can reach past a brush toward a unit direction `n`,
/// measured from the point the tree walk follows (the reference point plus `center`):
/// `max(|n|·half + κ·rho, κ_inexact·radius)`, where κ is the largest reach of the brushes
/// concerned and κ_inexact the largest among those that are not box-exact.
///
/// Why culling with it keeps the tree a pure broadphase: a brush's shifted planes block a
/// shape of circumradius R only within κ·R of the brush (`brush::reach`); on box-exact
/// brushes an axis-aligned box or vertical segment centred on the followed point (`half`)
/// is exact and reaches only its own support, and capsules and cylinders are such a segment
/// plus a ball or disk of radius `rho`, which reaches κ·rho more. Points reach 0, spheres
/// κ·r, other shapes κ·R. `radius` is the circumradius about the reference point, never
/// less than the one about the followed point, so κ_inexact·radius covers both.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CullReach {
    /// From the reference point to the point the walk follows (a box's centre).
    center: Vec3,
    half: Vec3,
    rho: f32,
    radius: f32,
}

impl CullReach {
    /// The reaches toward a node plane's front (`n`) and back (`−n`), for the κ figures of
    /// the brushes under each side, plus [`TREE_CULL_MARGIN`]. Only `|n|` matters once
    /// the followed point is the centre, so one dot product serves both sides.
    #[inline]
    pub(crate) fn both_sides(&self, n: Vec3, kappa: [f32; 2], kappa_inexact: [f32; 2]) -> [f32; 2] {
        let spread = n.abs().dot(self.half);
        let side = |k: usize| {
            larger(spread + kappa[k] * self.rho, kappa_inexact[k] * self.radius) + TREE_CULL_MARGIN
        };
        [side(0), side(1)]
    }

    /// From the reference point to the point the tree walk follows (a box's centre; zero
    /// for the other shapes).
    #[inline]
    pub(crate) fn center(&self) -> Vec3 {
        self.center
    }

    /// The shape's circumradius about its reference point.
    #[inline]
    pub(crate) fn radius(&self) -> f32 {
        self.radius
    }
}

/// The larger of two finite numbers in one instruction (`f32::max` also orders NaNs, which
/// the walk never sees: κ is checked finite at load, shape sizes at construction).
#[inline]
fn larger(a: f32, b: f32) -> f32 {
    if a > b { a } else { b }
}

/// A shape seen from a frame rotated relative to the world: `rotation` maps directions of
/// that frame into the shape's (world) frame, so the support along a frame direction `u` is
/// the shape's support along `rotation·u`. Used to sweep through rotated models.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Oriented<'a> {
    pub shape: &'a TraceShape,
    pub rotation: Option<Mat3>,
}

impl<'a> Oriented<'a> {
    pub(crate) fn new(shape: &'a TraceShape, rotation: Option<Mat3>) -> Self {
        Oriented { shape, rotation }
    }

    #[inline]
    pub(crate) fn support(&self, u: Vec3) -> f32 {
        match self.rotation {
            None => self.shape.support_distance(u),
            Some(r) => self.shape.support_distance(r * u),
        }
    }

    /// Runs `work` with this shape's specialised [`Support`] (the general one under rotation
    /// and for hulls).
    pub(crate) fn dispatch<W: WithSupport>(&self, work: W) -> W::Output {
        match (&self.shape.0, self.rotation) {
            (Repr::Point, _) => work.run(PointSupport),
            (Repr::Sphere { radius }, _) => work.run(SphereSupport(*radius)),
            (Repr::Box { center, half }, None) => work.run(BoxSupport {
                center: *center,
                half: *half,
            }),
            (
                Repr::Cylinder {
                    radius,
                    half_height,
                },
                None,
            ) => work.run(CylinderSupport {
                radius: *radius,
                half_height: *half_height,
            }),
            (
                Repr::Capsule {
                    radius,
                    half_height,
                },
                None,
            ) => work.run(CapsuleSupport {
                radius: *radius,
                half_height: *half_height,
            }),
            (Repr::Hull { lanes, .. }, None) => work.run(HullSupport(lanes)),
            _ => work.run(*self),
        }
    }

    /// The figures that bound how far the region where this shape is blocked by a brush can
    /// reach beyond the brush (see [`CullReach`]).
    pub(crate) fn cull_reach(&self) -> CullReach {
        let radius = self.shape.radius();
        let round = |rho: f32| CullReach {
            center: Vec3::ZERO,
            half: Vec3::ZERO,
            rho,
            radius,
        };
        match (&self.shape.0, self.rotation) {
            (Repr::Point, _) => round(0.0),
            (Repr::Sphere { radius: r }, _) => round(*r),
            (Repr::Box { center, half }, None) => CullReach {
                center: *center,
                half: *half,
                rho: 0.0,
                radius,
            },
            (
                Repr::Capsule {
                    radius: r,
                    half_height,
                }
                | Repr::Cylinder {
                    radius: r,
                    half_height,
                },
                None,
            ) => CullReach {
                center: Vec3::ZERO,
                half: Vec3::new(0.0, 0.0, *half_height),
                rho: *r,
                radius,
            },
            _ => round(radius),
        }
    }

    /// The core and rounding radius of the shapes whose contacts `rounded` refines exactly
    /// (spheres, cylinders, capsules and hulls), in this frame; `None` for points and boxes.
    #[inline]
    pub(crate) fn core(&self) -> Option<(Core<'a>, f32)> {
        match &self.shape.0 {
            Repr::Sphere { radius } => Some((Core::Point, *radius)),
            Repr::Capsule {
                radius,
                half_height,
            } if *half_height == 0.0 => Some((Core::Point, *radius)),
            Repr::Capsule {
                radius,
                half_height,
            } => {
                // The axis in this frame: rotationᵀ·Z.
                let axis = self.rotation.map_or(DVec3::Z, |r| {
                    Vec3::new(r.x_axis.z, r.y_axis.z, r.z_axis.z).as_dvec3()
                });
                Some((Core::Segment(axis * f64::from(*half_height)), *radius))
            }
            Repr::Hull { points, .. } => Some((
                Core::Points {
                    points,
                    rotation: self.rotation.map(|r| r.as_dmat3()),
                },
                0.0,
            )),
            Repr::Cylinder {
                radius,
                half_height,
            } => Some((
                Core::Cylinder {
                    radius: f64::from(*radius),
                    half_height: f64::from(*half_height),
                    rotation: self.rotation.map(|r| r.as_dmat3()),
                },
                0.0,
            )),
            _ => None,
        }
    }

    /// Which brush sides this shape must clip against (exactness needs no more):
    /// faces only for points (bevels never change them), faces and box bevels for an
    /// axis-aligned box on a box-exact brush, every side otherwise.
    #[inline]
    pub(crate) fn side_count(&self, brush: &CompiledBrush) -> u32 {
        match (&self.shape.0, self.rotation) {
            (Repr::Point, _) => brush.face_count,
            (Repr::Box { .. }, None) if brush.box_exact => brush.box_side_count,
            _ => brush.side_count,
        }
    }

    /// Bounding box in this frame.
    pub(crate) fn bounds(&self) -> (Vec3, Vec3) {
        Support::bounds(self)
    }
}

/// A shape's support function specialised per kind, so that the per-plane loop of a sweep
/// (`brush_clip`) compiles to straight-line arithmetic instead of a `match` and a call per
/// plane. [`Oriented::dispatch`] picks the implementation once per sweep.
pub(crate) trait Support: Copy {
    /// `h(u)` for a unit direction `u` in the sweep's frame.
    fn support(&self, u: Vec3) -> f32;

    /// How many of a brush's sides this shape must clip against (exactness needs no more).
    #[inline]
    fn side_count(&self, brush: &CompiledBrush) -> u32 {
        brush.side_count
    }

    /// The shape's bounding box in the sweep's frame, relative to its reference point.
    fn bounds(&self) -> (Vec3, Vec3) {
        let maxs = Vec3::new(
            self.support(Vec3::X),
            self.support(Vec3::Y),
            self.support(Vec3::Z),
        );
        let mins = -Vec3::new(
            self.support(Vec3::NEG_X),
            self.support(Vec3::NEG_Y),
            self.support(Vec3::NEG_Z),
        );
        (mins, maxs)
    }
}

/// Work generic over the shape's [`Support`]: what [`Oriented::dispatch`] runs.
pub(crate) trait WithSupport {
    /// What the work gives back.
    type Output;
    /// Runs the work with the shape's specialised support.
    fn run<S: Support>(self, support: S) -> Self::Output;
}

/// A point: bevels never change it, so only faces are clipped.
#[derive(Clone, Copy)]
pub(crate) struct PointSupport;

impl Support for PointSupport {
    #[inline]
    fn support(&self, _: Vec3) -> f32 {
        0.0
    }

    #[inline]
    fn side_count(&self, brush: &CompiledBrush) -> u32 {
        brush.face_count
    }
}

/// A sphere (unit directions: the support is the radius).
#[derive(Clone, Copy)]
pub(crate) struct SphereSupport(f32);

impl Support for SphereSupport {
    #[inline]
    fn support(&self, _: Vec3) -> f32 {
        self.0
    }
}

/// An axis-aligned box: exact with faces and box bevels on box-exact brushes.
#[derive(Clone, Copy)]
pub(crate) struct BoxSupport {
    center: Vec3,
    half: Vec3,
}

impl Support for BoxSupport {
    #[inline]
    fn support(&self, u: Vec3) -> f32 {
        u.dot(self.center) + u.abs().dot(self.half)
    }

    #[inline]
    fn side_count(&self, brush: &CompiledBrush) -> u32 {
        if brush.box_exact {
            brush.box_side_count
        } else {
            brush.side_count
        }
    }
}

/// An upright cylinder.
#[derive(Clone, Copy)]
pub(crate) struct CylinderSupport {
    radius: f32,
    half_height: f32,
}

impl Support for CylinderSupport {
    #[inline]
    fn support(&self, u: Vec3) -> f32 {
        self.radius * u.truncate().length() + self.half_height * u.z.abs()
    }
}

/// An upright capsule (unit directions: the ball adds its radius).
#[derive(Clone, Copy)]
pub(crate) struct CapsuleSupport {
    radius: f32,
    half_height: f32,
}

impl Support for CapsuleSupport {
    #[inline]
    fn support(&self, u: Vec3) -> f32 {
        self.radius + self.half_height * u.z.abs()
    }
}

/// A convex hull, by its points four at a time.
#[derive(Clone, Copy)]
pub(crate) struct HullSupport<'a>(&'a [[Vec4; 3]]);

impl Support for HullSupport<'_> {
    #[inline]
    fn support(&self, u: Vec3) -> f32 {
        hull_support(self.0, u)
    }
}

/// `max over the points p of u·p`, four points per step (`lanes` as in `Repr::Hull`).
#[inline]
fn hull_support(lanes: &[[Vec4; 3]], u: Vec3) -> f32 {
    let mut best = Vec4::splat(f32::NEG_INFINITY);
    for [xs, ys, zs] in lanes {
        best = best.max(*xs * u.x + *ys * u.y + *zs * u.z);
    }
    best.max_element()
}

/// Any shape, possibly rotated: the general (slower) path, for rotated models.
impl Support for Oriented<'_> {
    #[inline]
    fn support(&self, u: Vec3) -> f32 {
        Oriented::support(self, u)
    }

    #[inline]
    fn side_count(&self, brush: &CompiledBrush) -> u32 {
        Oriented::side_count(self, brush)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn support_distances_match_the_table() {
        let up = Vec3::Z;
        let diagonal = Vec3::new(1.0, 1.0, 0.0).normalize();
        assert_eq!(TraceShape::point().support_distance(up), 0.0);
        let sphere = TraceShape::sphere(16.0).unwrap();
        assert!((sphere.support_distance(diagonal) - 16.0).abs() < 1e-5);
        let cylinder = TraceShape::cylinder(16.0, 28.0).unwrap();
        assert_eq!(cylinder.support_distance(up), 28.0);
        assert!((cylinder.support_distance(diagonal) - 16.0).abs() < 1e-5);
        let capsule = TraceShape::capsule(16.0, 20.0).unwrap();
        assert_eq!(capsule.support_distance(-up), 36.0);
        let player =
            TraceShape::aabb(Vec3::new(-16.0, -16.0, -24.0), Vec3::new(16.0, 16.0, 32.0)).unwrap();
        assert_eq!(player.support_distance(up), 32.0);
        assert_eq!(player.support_distance(-up), 24.0);
        assert!((player.support_distance(diagonal) - 32.0 / 2f32.sqrt()).abs() < 1e-4);
        let hull = TraceShape::hull(vec![
            Vec3::ZERO,
            Vec3::new(8.0, 0.0, 0.0),
            Vec3::new(0.0, 0.0, 4.0),
        ])
        .unwrap();
        assert_eq!(hull.support_distance(Vec3::X), 8.0);
        assert_eq!(hull.support_distance(-Vec3::X), 0.0);
        assert_eq!(
            player.bounds(),
            (Vec3::new(-16.0, -16.0, -24.0), Vec3::new(16.0, 16.0, 32.0))
        );
    }

    #[test]
    fn cores_rounded_by_their_radius_have_the_shapes_support_in_any_frame() {
        use super::super::gjk::SupportMap;
        let hull = TraceShape::hull(vec![
            Vec3::new(3.0, -2.0, 7.0),
            Vec3::new(-5.0, 4.0, -6.0),
            Vec3::new(8.0, 1.0, 0.5),
            Vec3::new(0.0, -9.0, 2.0),
        ])
        .unwrap();
        let shapes = [
            TraceShape::sphere(5.0).unwrap(),
            TraceShape::capsule(5.0, 0.0).unwrap(),
            TraceShape::capsule(4.0, 12.0).unwrap(),
            hull,
            TraceShape::cylinder(6.0, 9.0).unwrap(),
            TraceShape::cylinder(6.0, 0.0).unwrap(),
        ];
        let rotations = [
            None,
            Some(Mat3::from_rotation_z(0.5)),
            Some(Mat3::from_rotation_x(1.1) * Mat3::from_rotation_y(-0.7)),
        ];
        let directions = [
            Vec3::X,
            Vec3::NEG_Z,
            Vec3::new(0.3, -0.8, 0.52).normalize(),
            Vec3::new(-0.6, 0.1, 0.79).normalize(),
        ];
        for shape in &shapes {
            for rotation in rotations {
                let oriented = Oriented::new(shape, rotation);
                let (core, radius) = oriented.core().unwrap();
                for u in directions {
                    let d = u.as_dvec3();
                    let h = core.support(d).dot(d) + f64::from(radius);
                    let expected = f64::from(oriented.support(u));
                    assert!((h - expected).abs() < 1e-4, "{shape:?} {rotation:?} {u}");
                }
            }
        }
        let none = [
            TraceShape::point(),
            TraceShape::aabb(Vec3::NEG_ONE, Vec3::ONE).unwrap(),
        ];
        assert!(none.iter().all(|s| Oriented::new(s, None).core().is_none()));
    }

    #[test]
    fn constructors_reject_bad_parameters() {
        assert!(TraceShape::sphere(0.0).is_none());
        assert!(TraceShape::sphere(f32::NAN).is_none());
        assert!(TraceShape::cylinder(1.0, -1.0).is_none());
        assert!(TraceShape::capsule(f32::INFINITY, 1.0).is_none());
        assert!(TraceShape::aabb(Vec3::ONE, Vec3::ZERO).is_none());
        assert!(TraceShape::hull(Vec::new()).is_none());
        assert!(TraceShape::hull(vec![Vec3::NAN]).is_none());
    }
}
