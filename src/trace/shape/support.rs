//! The support function a sweep runs with: [`Oriented`] (a shape, possibly seen from a
//! rotated model's frame) and its per-kind specialisations of [`Support`], picked once per
//! sweep by [`Oriented::dispatch`].
//!
//! Takes a [`TraceShape`] and an optional rotation; gives `h(u)` for plane normals, the
//! culling reach, the exact core of round shapes and how many of a brush's sides the shape
//! needs. Guarantees: every specialisation equals [`TraceShape::support_distance`] of the
//! (rotated) shape, and the per-plane loop has no branch on the shape's kind.

use glam::{DVec3, Mat3, Vec3, Vec4};

use super::{CullReach, Repr, TraceShape};
use crate::compiled::CompiledBrush;
use crate::tolerance::TREE_CULL_MARGIN;
use crate::trace::rounded::Core;

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
            (
                Repr::Box {
                    center,
                    half,
                    bounds,
                    ..
                },
                None,
            ) => work.run(BoxSupport {
                center: *center,
                half: *half,
                bounds: *bounds,
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
            (Repr::Hull { lanes, bounds, .. }, None) => work.run(HullSupport {
                lanes,
                bounds: *bounds,
            }),
            // Rotated: the same formulas on the rotated directions, four at a time.
            (
                Repr::Box {
                    center,
                    half,
                    bounds,
                    ..
                },
                Some(rotation),
            ) => work.run(Rotated {
                rotation,
                inner: BoxSupport {
                    center: *center,
                    half: *half,
                    bounds: *bounds,
                },
            }),
            (
                Repr::Cylinder {
                    radius,
                    half_height,
                },
                Some(rotation),
            ) => work.run(Rotated {
                rotation,
                inner: CylinderSupport {
                    radius: *radius,
                    half_height: *half_height,
                },
            }),
            (
                Repr::Capsule {
                    radius,
                    half_height,
                },
                Some(rotation),
            ) => work.run(Rotated {
                rotation,
                inner: ScaledCapsuleSupport {
                    radius: *radius,
                    half_height: *half_height,
                },
            }),
            (Repr::Hull { lanes, bounds, .. }, Some(rotation)) => work.run(Rotated {
                rotation,
                inner: HullSupport {
                    lanes,
                    bounds: *bounds,
                },
            }),
        }
    }

    /// The figures that bound how far the region where this shape is blocked by a brush can
    /// reach beyond the brush (see [`CullReach`]).
    /// `(mins, maxs)` are the shape's bounds in this frame ([`Self::bounds`], which the
    /// sweep has already).
    pub(crate) fn cull_reach(&self, (mins, maxs): (Vec3, Vec3)) -> CullReach {
        let radius = self.shape.radius();
        let reach = |center: Vec3, half: Vec3, rho: f32| CullReach {
            center,
            half,
            rho,
            radius,
            box_center: (mins + maxs) * 0.5 - center,
            box_half: (maxs - mins) * 0.5,
        };
        match (&self.shape.0, self.rotation) {
            (Repr::Point, _) => reach(Vec3::ZERO, Vec3::ZERO, 0.0),
            (Repr::Sphere { radius: r }, _) => reach(Vec3::ZERO, Vec3::ZERO, *r),
            (Repr::Box { center, half, .. }, None) => reach(*center, *half, 0.0),
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
            ) => reach(Vec3::ZERO, Vec3::new(0.0, 0.0, *half_height), *r),
            _ => reach(Vec3::ZERO, Vec3::ZERO, radius),
        }
    }

    /// The core and rounding radius of the shapes whose contacts `rounded` refines exactly
    /// (spheres, cylinders, capsules, hulls and rotated boxes), in this frame; `None` for
    /// points and upright boxes.
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
            // A rotated box: the bevels were made for the world's axes, so its edge and
            // corner contacts are refined on the exact distance.
            Repr::Box { center, half, .. } => self.rotation.map(|r| {
                (
                    Core::Box {
                        center: center.as_dvec3(),
                        half: half.as_dvec3(),
                        rotation: r.as_dmat3(),
                    },
                    0.0,
                )
            }),
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

    /// A point as the core of a sphere of radius 0 (for the exact stop at edges and corners);
    /// `None` for every other shape.
    #[inline]
    pub(crate) fn point_core(&self) -> Option<(Core<'a>, f32)> {
        matches!(self.shape.0, Repr::Point).then_some((Core::Point, 0.0))
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
    /// Whether the tree walk culls with the shape's bounding box's reach as well as its own
    /// ([`CullReach::both_sides`]): not where that cannot be smaller (points, boxes), nor
    /// where it is rarely enough smaller to pay for itself (spheres and capsules, whose own
    /// reach is at most κ times their box's across axial planes; measured on dm4: 4–7% slower
    /// with it, where hulls are 15% and cylinders 3% faster).
    const BOXED: bool = true;

    /// How far toward a node plane's front and back (unit normal `n`, the κ figures of the
    /// brushes under each side) a sweep of this shape, whose cull figures are `reach`, can
    /// be blocked ([`CullReach::both_sides`]).
    #[inline(always)]
    fn node_reaches(
        reach: &CullReach,
        n: Vec3,
        kappa: [f32; 2],
        kappa_inexact: [f32; 2],
    ) -> [f32; 2] {
        reach.both_sides(n, kappa, kappa_inexact, Self::BOXED)
    }

    /// `h(u)` for a unit direction `u` in the sweep's frame.
    fn support(&self, u: Vec3) -> f32;

    /// `h` of four unit directions at once, given as their x, y and z lanes. Lane `i` is bit
    /// for bit [`Support::support`] of direction `i` (the same operations in the same order,
    /// none fused), so the four-wide clip loop (`brush_clip`) answers exactly as one plane at
    /// a time.
    #[inline]
    fn support4(&self, x: Vec4, y: Vec4, z: Vec4) -> Vec4 {
        let (x, y, z) = (x.to_array(), y.to_array(), z.to_array());
        Vec4::from_array(std::array::from_fn(|i| {
            self.support(Vec3::new(x[i], y[i], z[i]))
        }))
    }

    /// How many of a brush's sides this shape must clip against (exactness needs no more).
    #[inline]
    fn side_count(&self, brush: &CompiledBrush) -> u32 {
        brush.side_count
    }

    /// The shape's bounding box in the sweep's frame, relative to its reference point.
    fn bounds(&self) -> (Vec3, Vec3) {
        axis_bounds(self)
    }
}

/// A support's bounding box: its support along the six axis directions.
fn axis_bounds(s: &impl Support) -> (Vec3, Vec3) {
    let maxs = Vec3::new(s.support(Vec3::X), s.support(Vec3::Y), s.support(Vec3::Z));
    let mins = -Vec3::new(
        s.support(Vec3::NEG_X),
        s.support(Vec3::NEG_Y),
        s.support(Vec3::NEG_Z),
    );
    (mins, maxs)
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
    const BOXED: bool = false;

    /// With the default stop distance, the margin alone, bit for bit what
    /// [`CullReach::both_sides`] gives for a point: its half extent, ρ and radius are zero,
    /// so each side is `max(0 + κ·0, κ'·0)` (±0, κ finite) plus the margin, which is the
    /// margin. The point's walk then loads and multiplies nothing per node for its reach.
    /// A longer stop distance (Quake 3's 1/8) grows the reach ([`CullReach::grown`]): then
    /// the whole formula, or the walk would pass brushes the sweep stops in front of.
    #[inline(always)]
    fn node_reaches(
        reach: &CullReach,
        n: Vec3,
        kappa: [f32; 2],
        kappa_inexact: [f32; 2],
    ) -> [f32; 2] {
        if reach.half != Vec3::ZERO {
            return reach.both_sides(n, kappa, kappa_inexact, false);
        }
        let margin = [TREE_CULL_MARGIN; 2];
        debug_assert_eq!(
            reach
                .both_sides(n, kappa, kappa_inexact, false)
                .map(f32::to_bits),
            margin.map(f32::to_bits)
        );
        margin
    }

    #[inline]
    fn support(&self, _: Vec3) -> f32 {
        0.0
    }

    #[inline]
    fn support4(&self, _: Vec4, _: Vec4, _: Vec4) -> Vec4 {
        Vec4::ZERO
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
    const BOXED: bool = false;

    #[inline]
    fn support(&self, _: Vec3) -> f32 {
        self.0
    }

    #[inline]
    fn support4(&self, _: Vec4, _: Vec4, _: Vec4) -> Vec4 {
        Vec4::splat(self.0)
    }
}

/// An axis-aligned box: exact with faces and box bevels on box-exact brushes; its bounding
/// box kept by the shape ([`box_bounds`]).
#[derive(Clone, Copy)]
pub(crate) struct BoxSupport {
    center: Vec3,
    half: Vec3,
    bounds: (Vec3, Vec3),
}

/// The bounding box of the box `center ± half` as a sweep's support gives it: its support
/// along the six axis directions, bit for bit (computed once, when the shape is made).
pub(super) fn box_bounds(center: Vec3, half: Vec3) -> (Vec3, Vec3) {
    axis_bounds(&BoxSupport {
        center,
        half,
        bounds: (Vec3::ZERO, Vec3::ZERO),
    })
}

impl Support for BoxSupport {
    const BOXED: bool = false;

    #[inline]
    fn support(&self, u: Vec3) -> f32 {
        u.dot(self.center) + u.abs().dot(self.half)
    }

    #[inline]
    fn support4(&self, x: Vec4, y: Vec4, z: Vec4) -> Vec4 {
        let (c, h) = (self.center, self.half);
        (x * c.x + y * c.y + z * c.z) + (x.abs() * h.x + y.abs() * h.y + z.abs() * h.z)
    }

    #[inline]
    fn side_count(&self, brush: &CompiledBrush) -> u32 {
        if brush.box_exact {
            brush.box_side_count
        } else {
            brush.side_count
        }
    }

    #[inline]
    fn bounds(&self) -> (Vec3, Vec3) {
        self.bounds
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

    #[inline]
    fn support4(&self, x: Vec4, y: Vec4, z: Vec4) -> Vec4 {
        (x * x + y * y).sqrt() * self.radius + z.abs() * self.half_height
    }
}

/// An upright capsule (unit directions: the ball adds its radius).
#[derive(Clone, Copy)]
pub(crate) struct CapsuleSupport {
    radius: f32,
    half_height: f32,
}

impl Support for CapsuleSupport {
    const BOXED: bool = false;

    #[inline]
    fn support(&self, u: Vec3) -> f32 {
        self.radius + self.half_height * u.z.abs()
    }

    #[inline]
    fn support4(&self, _: Vec4, _: Vec4, z: Vec4) -> Vec4 {
        Vec4::splat(self.radius) + z.abs() * self.half_height
    }
}

/// A convex hull, by its points four at a time, with its bounding box kept by the shape.
#[derive(Clone, Copy)]
pub(crate) struct HullSupport<'a> {
    lanes: &'a [[Vec4; 3]],
    bounds: (Vec3, Vec3),
}

impl Support for HullSupport<'_> {
    #[inline]
    fn support(&self, u: Vec3) -> f32 {
        hull_support(self.lanes, u)
    }

    #[inline]
    fn bounds(&self) -> (Vec3, Vec3) {
        self.bounds
    }

    #[inline]
    fn support4(&self, x: Vec4, y: Vec4, z: Vec4) -> Vec4 {
        // Each point's dot product with the four directions, as `hull_support` forms it.
        let mut best = Vec4::splat(f32::NEG_INFINITY);
        for [xs, ys, zs] in self.lanes {
            for j in 0..4 {
                best = best.max(x * xs[j] + y * ys[j] + z * zs[j]);
            }
        }
        best
    }
}

/// `max over the points p of u·p`, four points per step (`lanes` as in `Repr::Hull`).
#[inline]
pub(super) fn hull_support(lanes: &[[Vec4; 3]], u: Vec3) -> f32 {
    let mut best = Vec4::splat(f32::NEG_INFINITY);
    for [xs, ys, zs] in lanes {
        best = best.max(*xs * u.x + *ys * u.y + *zs * u.z);
    }
    best.max_element()
}

/// A capsule's support for directions that may not be unit (a rotated one's:
/// `radius·|u| + half_height·|u_z|`, as [`TraceShape::support_distance`] forms it).
#[derive(Clone, Copy)]
pub(crate) struct ScaledCapsuleSupport {
    radius: f32,
    half_height: f32,
}

impl Support for ScaledCapsuleSupport {
    #[inline]
    fn support(&self, u: Vec3) -> f32 {
        self.radius * u.length() + self.half_height * u.z.abs()
    }

    #[inline]
    fn support4(&self, x: Vec4, y: Vec4, z: Vec4) -> Vec4 {
        (x * x + y * y + z * z).sqrt() * self.radius + z.abs() * self.half_height
    }
}

/// A shape seen from a rotated frame (what [`Oriented`] gives for a rotated box, cylinder,
/// capsule or hull), with `inner`'s formulas on `rotation·u`: bit for bit
/// [`Oriented::support`] (`Mat3 · Vec3` sums its columns in the same order), four
/// directions at once. Every side is clipped and the bounds are the rotated shape's.
#[derive(Clone, Copy)]
pub(crate) struct Rotated<S> {
    rotation: Mat3,
    inner: S,
}

impl<S: Support> Support for Rotated<S> {
    #[inline]
    fn support(&self, u: Vec3) -> f32 {
        self.inner.support(self.rotation * u)
    }

    #[inline]
    fn support4(&self, x: Vec4, y: Vec4, z: Vec4) -> Vec4 {
        let (a, b, c) = (
            self.rotation.x_axis,
            self.rotation.y_axis,
            self.rotation.z_axis,
        );
        self.inner.support4(
            x * a.x + y * b.x + z * c.x,
            x * a.y + y * b.y + z * c.y,
            x * a.z + y * b.z + z * c.z,
        )
    }

    fn bounds(&self) -> (Vec3, Vec3) {
        axis_bounds(self)
    }
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

    fn bounds(&self) -> (Vec3, Vec3) {
        // An upright box's and hull's kept bounds are these very bits: a box's support is
        // `BoxSupport`'s formula (`TraceShape::support_distance`), which `box_bounds` used.
        match (&self.shape.0, self.rotation) {
            (Repr::Hull { bounds, .. } | Repr::Box { bounds, .. }, None) => *bounds,
            _ => axis_bounds(self),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The four-wide support of every kind gives, lane by lane, the very bits of the scalar
    /// one, so the clip loop's answers do not depend on how sides fall into groups of four.
    #[test]
    fn four_wide_support_is_the_scalar_support_bit_for_bit() {
        fn check<S: Support>(support: S, directions: &[Vec3]) {
            for four in directions.chunks_exact(4) {
                let lane = |f: fn(&Vec3) -> f32| {
                    Vec4::new(f(&four[0]), f(&four[1]), f(&four[2]), f(&four[3]))
                };
                let wide = support
                    .support4(lane(|u| u.x), lane(|u| u.y), lane(|u| u.z))
                    .to_array();
                for (u, w) in four.iter().zip(wide) {
                    assert_eq!(support.support(*u).to_bits(), w.to_bits(), "{u}");
                }
            }
        }
        let mut rng = crate::test_rng::XorShift::new(0x853c_49e6_748f_ea9bu64);
        let mut directions: Vec<Vec3> = (0..4096)
            .map(|_| Vec3::new(rng.unit(), rng.unit(), rng.unit()).normalize_or(Vec3::Z))
            .collect();
        // Axial and bevel-like directions, as brush planes have them, signed zeros included.
        directions.extend([
            Vec3::X,
            Vec3::NEG_X,
            Vec3::new(0.0, -0.0, 1.0),
            Vec3::new(-0.0, 0.0, -1.0),
            Vec3::new(1.0, 1.0, 0.0).normalize(),
            Vec3::new(0.0, -1.0, 1.0).normalize(),
            Vec3::Y,
            Vec3::NEG_Z,
        ]);
        let hull = TraceShape::hull(vec![
            Vec3::new(3.0, -2.0, 7.0),
            Vec3::new(-5.0, 4.0, -6.0),
            Vec3::new(8.0, 1.0, 0.5),
            Vec3::new(0.0, -9.0, 2.0),
            Vec3::new(-1.0, 0.0, 0.0),
        ]);
        let Some(TraceShape(Repr::Hull { lanes, .. })) = &hull else {
            panic!("a valid hull");
        };
        check(PointSupport, &directions);
        check(SphereSupport(12.5), &directions);
        check(
            BoxSupport {
                center: Vec3::new(0.0, 0.0, 4.0),
                half: Vec3::new(16.0, 16.0, 28.0),
                bounds: (Vec3::ZERO, Vec3::ZERO),
            },
            &directions,
        );
        check(
            CylinderSupport {
                radius: 16.0,
                half_height: 28.0,
            },
            &directions,
        );
        check(
            CapsuleSupport {
                radius: 16.0,
                half_height: 20.0,
            },
            &directions,
        );
        check(
            HullSupport {
                lanes,
                bounds: (Vec3::ZERO, Vec3::ZERO),
            },
            &directions,
        );
        let Some(capsule) = TraceShape::capsule(16.0, 20.0) else {
            panic!("a valid capsule");
        };
        check(
            Oriented::new(&capsule, Some(Mat3::from_rotation_x(0.4))),
            &directions,
        );
        // A box's kept bounds are those the general path computes, bit for bit (signed
        // zeros included: flat boxes, centres on the axes).
        for (mins, maxs) in [
            TraceShape::QUAKE1_PLAYER_BOUNDS,
            (Vec3::new(-0.0, 0.0, -3.5), Vec3::new(0.0, 7.25, -3.5)),
            (Vec3::new(-1e-7, -40.0, 2.0), Vec3::new(3.0, -0.0, 2.0)),
        ] {
            let Some(shape) = TraceShape::aabb(mins, maxs) else {
                panic!("a valid box");
            };
            let Repr::Box { bounds, .. } = &shape.0 else {
                panic!("a box");
            };
            let bits = |(low, high): (Vec3, Vec3)| {
                [low.to_array(), high.to_array()].map(|v| v.map(f32::to_bits))
            };
            let general = axis_bounds(&Oriented::new(&shape, None));
            assert_eq!(bits(*bounds), bits(general), "{mins} {maxs}");
        }
        // The rotated specialisations give the general path's very bits.
        let rotation = Mat3::from_euler(glam::EulerRot::ZYX, 0.7, 0.4, -0.9);
        let shapes = [
            TraceShape::quake1_player(),
            TraceShape::cylinder(16.0, 28.0).unwrap_or_else(TraceShape::point),
            capsule.clone(),
            hull.clone().unwrap_or_else(TraceShape::point),
        ];
        struct Compare<'a>(&'a [Vec3], Oriented<'a>);
        impl WithSupport for Compare<'_> {
            type Output = usize;
            fn run<S: Support>(self, support: S) -> usize {
                check(support, self.0);
                for u in self.0 {
                    assert_eq!(support.support(*u).to_bits(), self.1.support(*u).to_bits());
                }
                assert_eq!(support.bounds(), axis_bounds(&self.1));
                assert_eq!(support.bounds(), Support::bounds(&self.1));
                self.0.len()
            }
        }
        for shape in &shapes {
            let oriented = Oriented::new(shape, Some(rotation));
            assert_eq!(
                oriented.dispatch(Compare(&directions, oriented)),
                directions.len()
            );
        }
    }
}
