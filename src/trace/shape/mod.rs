//! [`TraceShape`]: the shapes a sweep can move, each reduced to its support function.
//! The text grammar is in `spec.rs`, the culling reach in `cull.rs`, the per-kind support
//! the sweeps dispatch on in `support.rs`.
//!
//! Takes shape parameters (validated by the constructors), gives the support distance
//! `h(u) = max over points c of the shape of u·c` for any direction `u`, relative to the
//! shape's reference point. That one number is all a plane needs: a brush side `n·y <= d`
//! blocks the reference point `x` exactly when `n·x <= d + h(−n)` (Melax, "Dynamic Plane Shifting BSP Traversal",
//! Graphics Interface 2000).
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
//! `mins <= maxs`, at least one and at most [`MAX_HULL_POINTS`](crate::query::MAX_HULL_POINTS) hull points, every size and
//! coordinate at most [`MAX_SHAPE_EXTENT`](crate::query::MAX_SHAPE_EXTENT)), so `h` is finite and monotone in the shape (a
//! shape inside another never has a larger support).

mod cull;
mod spec;
mod support;

use glam::{Vec3, Vec4};

pub(crate) use cull::CullReach;
pub use spec::ShapeSpecError;
pub(crate) use support::{Oriented, Support, WithSupport};
use support::{box_bounds, hull_support};

use crate::tolerance::{CONTACT_TIE, MAX_HULL_POINTS, MAX_SHAPE_EXTENT};

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
pub(in crate::trace) enum Repr {
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
        /// The bounding box `(mins, maxs)`, by the support along the six axis directions
        /// (bit for bit what `Support::bounds` computes: `support::box_bounds`), kept because
        /// every sweep asks for it.
        bounds: (Vec3, Vec3),
        /// The circumradius about the reference point, `|(|center| + half)|` (as
        /// [`TraceShape::radius`] defines it), kept because every sweep asks for it.
        radius: f32,
    },
    Hull {
        points: Box<[Vec3]>,
        /// The points four at a time, as `[xs, ys, zs]` (the last point repeated to fill the
        /// last group), so the support is four dot products per step.
        lanes: Box<[[Vec4; 3]]>,
        /// The bounding box `(mins, maxs)`, by the support along the six axis directions
        /// (bit for bit what `Support::bounds` computes from `lanes`), kept because every
        /// sweep asks for it.
        bounds: (Vec3, Vec3),
        /// The circumradius about the reference point (as [`TraceShape::radius`] defines it),
        /// kept for the same reason.
        radius: f32,
    },
}

/// A shape to sweep, positioned relative to the sweep's reference point (Z up).
#[derive(Clone, Debug, PartialEq)]
pub struct TraceShape(pub(in crate::trace) Repr);

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
    /// `(0, MAX_SHAPE_EXTENT]` ([`MAX_SHAPE_EXTENT`](crate::query::MAX_SHAPE_EXTENT)).
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
    /// players: [`Self::quake1_player`], [`Self::quake3_player`]); `None` unless
    /// `mins <= maxs` and every coordinate is within `±MAX_SHAPE_EXTENT`.
    #[must_use]
    pub fn aabb(mins: Vec3, maxs: Vec3) -> Option<Self> {
        (within_extent(mins) && within_extent(maxs) && mins.cmple(maxs).all())
            .then(|| Self::checked_box(mins, maxs))
    }

    /// The box `mins..maxs`, which the caller knows [`Self::aabb`] accepts.
    fn checked_box(mins: Vec3, maxs: Vec3) -> Self {
        let (center, half) = ((mins + maxs) * 0.5, (maxs - mins) * 0.5);
        TraceShape(Repr::Box {
            center,
            half,
            bounds: box_bounds(center, half),
            radius: (center.abs() + half).length(),
        })
    }

    /// Quake 1's player box `(mins, maxs)` about the origin: `(−16, −16, −24)..(16, 16, 32)`
    /// (`defs.qc` `VEC_HULL_MIN`/`VEC_HULL_MAX`, the BSP's hull 1; Quake 2's player too).
    pub const QUAKE1_PLAYER_BOUNDS: (Vec3, Vec3) =
        (Vec3::new(-16.0, -16.0, -24.0), Vec3::new(16.0, 16.0, 32.0));

    /// Quake 3's player box `(mins, maxs)` about the origin: `(−15, −15, −24)..(15, 15, 32)`
    /// (`g_client.c` `playerMins`/`playerMaxs`; crouched, `bg_pmove.c PM_CheckDuck` lowers
    /// the top to 16).
    pub const QUAKE3_PLAYER_BOUNDS: (Vec3, Vec3) =
        (Vec3::new(-15.0, -15.0, -24.0), Vec3::new(15.0, 15.0, 32.0));

    /// Quake 1's player box ([`Self::QUAKE1_PLAYER_BOUNDS`]), 32 wide and 56 tall, the
    /// origin 24 above its bottom.
    ///
    /// ```
    /// use glam::Vec3;
    /// use planeshift::TraceShape;
    /// let player = TraceShape::quake1_player();
    /// assert_eq!(player.bounds(), (Vec3::new(-16.0, -16.0, -24.0), Vec3::new(16.0, 16.0, 32.0)));
    /// ```
    #[must_use]
    pub fn quake1_player() -> Self {
        let (mins, maxs) = Self::QUAKE1_PLAYER_BOUNDS;
        Self::checked_box(mins, maxs)
    }

    /// Quake 3's player box ([`Self::QUAKE3_PLAYER_BOUNDS`]), 30 wide and 56 tall, the
    /// origin 24 above its bottom (what [`ControllerConfig::default`] stands in).
    ///
    /// [`ControllerConfig::default`]: crate::controller::ControllerConfig
    ///
    /// ```
    /// use glam::Vec3;
    /// use planeshift::TraceShape;
    /// let player = TraceShape::quake3_player();
    /// assert_eq!(player.bounds(), (Vec3::new(-15.0, -15.0, -24.0), Vec3::new(15.0, 15.0, 32.0)));
    /// ```
    #[must_use]
    pub fn quake3_player() -> Self {
        let (mins, maxs) = Self::QUAKE3_PLAYER_BOUNDS;
        Self::checked_box(mins, maxs)
    }

    /// The convex hull of `points`, relative to the reference point; `None` when empty,
    /// longer than [`MAX_HULL_POINTS`](crate::query::MAX_HULL_POINTS), or with a coordinate not within
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
                .collect::<Box<[_]>>();
            let h = |u: Vec3| hull_support(&lanes, u);
            let bounds = (
                -Vec3::new(h(Vec3::NEG_X), h(Vec3::NEG_Y), h(Vec3::NEG_Z)),
                Vec3::new(h(Vec3::X), h(Vec3::Y), h(Vec3::Z)),
            );
            let radius = points.iter().map(|p| p.length()).fold(0.0, f32::max);
            TraceShape(Repr::Hull {
                points: points.into_boxed_slice(),
                lanes,
                bounds,
                radius,
            })
        })
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

    /// The shape as an upright Minkowski sum about a centre: `(centre, box half extents, disk
    /// radius, ball radius)`, relative to the reference point. A cylinder is a disk plus a
    /// vertical segment (the box's z), a capsule a ball plus one; a hull is its bounding box.
    #[inline]
    pub(crate) fn upright_parts(&self) -> (Vec3, Vec3, f32, f32) {
        match &self.0 {
            Repr::Point => (Vec3::ZERO, Vec3::ZERO, 0.0, 0.0),
            Repr::Sphere { radius } => (Vec3::ZERO, Vec3::ZERO, 0.0, *radius),
            Repr::Cylinder {
                radius,
                half_height,
            } => (Vec3::ZERO, Vec3::Z * *half_height, *radius, 0.0),
            Repr::Capsule {
                radius,
                half_height,
            } => (Vec3::ZERO, Vec3::Z * *half_height, 0.0, *radius),
            Repr::Box { center, half, .. } => (*center, *half, 0.0, 0.0),
            Repr::Hull { .. } => {
                let (low, high) = self.bounds();
                ((low + high) * 0.5, (high - low) * 0.5, 0.0, 0.0)
            }
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
            Repr::Box { center, half, .. } => u.dot(*center) + u.abs().dot(*half),
            Repr::Hull { lanes, .. } => hull_support(lanes, u),
        }
    }

    /// A point of the shape farthest along `u` (a support point), relative to the reference
    /// point. Where a whole side or edge is farthest (a box along an axis, a cylinder along
    /// Z), its middle: components of `u` within `CONTACT_TIE` (1e-4) of zero count as zero, and
    /// hull points within `CONTACT_TIE`·|u| of the farthest are averaged.
    #[must_use]
    pub fn support_point(&self, u: Vec3) -> Vec3 {
        let sign = |c: f32| {
            if c.abs() <= CONTACT_TIE {
                0.0
            } else {
                c.signum()
            }
        };
        match &self.0 {
            Repr::Point => Vec3::ZERO,
            Repr::Sphere { radius } => u.normalize_or_zero() * *radius,
            Repr::Cylinder {
                radius,
                half_height,
            } => {
                let across = u.truncate();
                let rim = if across.length() <= CONTACT_TIE {
                    glam::Vec2::ZERO
                } else {
                    across.normalize_or_zero() * *radius
                };
                rim.extend(sign(u.z) * half_height)
            }
            Repr::Capsule {
                radius,
                half_height,
            } => u.normalize_or_zero() * *radius + Vec3::Z * sign(u.z) * *half_height,
            Repr::Box { center, half, .. } => {
                *center + Vec3::new(sign(u.x), sign(u.y), sign(u.z)) * *half
            }
            Repr::Hull { points, .. } => {
                let far = points.iter().map(|p| p.dot(u)).fold(f32::MIN, f32::max);
                let slack = CONTACT_TIE * u.length();
                let (sum, count) = points
                    .iter()
                    .filter(|p| p.dot(u) >= far - slack)
                    .fold((Vec3::ZERO, 0.0f32), |(sum, n), p| (sum + *p, n + 1.0));
                if count > 0.0 { sum / count } else { Vec3::ZERO }
            }
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
            } => {
                // In f64 and narrowed once, without the platform's `hypot`, so every machine
                // gets the same bits (ARCHITECTURE.md, cross-machine determinism).
                let (r, h) = (f64::from(*radius), f64::from(*half_height));
                (r * r + h * h).sqrt() as f32
            }
            Repr::Capsule {
                radius,
                half_height,
            } => radius + half_height,
            Repr::Box { radius, .. } => *radius,
            Repr::Hull { radius, .. } => *radius,
        }
    }

    /// The shape's bounding box relative to its reference point.
    #[must_use]
    pub fn bounds(&self) -> (Vec3, Vec3) {
        Oriented::new(self, None).bounds()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Mat3;

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
        let player = TraceShape::quake1_player();
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
        assert_eq!(player.bounds(), TraceShape::QUAKE1_PLAYER_BOUNDS);
        // The presets are the boxes `aabb` makes of their bounds, within the extent.
        for (preset, (mins, maxs)) in [
            (
                TraceShape::quake1_player(),
                TraceShape::QUAKE1_PLAYER_BOUNDS,
            ),
            (
                TraceShape::quake3_player(),
                TraceShape::QUAKE3_PLAYER_BOUNDS,
            ),
        ] {
            assert_eq!(Some(preset), TraceShape::aabb(mins, maxs));
        }
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
