//! The part of a shape that rounding by a radius turns into the shape: a point, a segment,
//! a point set, a rotated box or a cylinder, relative to the sweep's reference point.
//!
//! Takes a shape's dimensions (from `trace::shape`); gives its [`Core`], the core's support
//! map for GJK and where it touches a plane. Guarantees: the core rounded by its radius has
//! exactly the shape's support in every direction.

use glam::{DMat3, DVec3, Vec3};

use crate::trace::gjk::SupportMap;

/// The part of a shape that rounding by a radius turns into the shape, relative to the
/// sweep's reference point, in the sweep's frame.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Core<'a> {
    /// A sphere's centre (a capsule without a segment is a sphere too).
    Point,
    /// A capsule's segment from `−half` to `half`.
    Segment(DVec3),
    /// A hull's points; `rotation` maps the sweep frame's directions into the points' frame
    /// (a rotated model), so a point `p` sits at `rotationᵀ·p` in the sweep's frame.
    Points {
        points: &'a [Vec3],
        rotation: Option<DMat3>,
    },
    /// A box of half extents `half` about `center` (the shape's own frame), seen through
    /// `rotation` as for [`Core::Points`] (a rotated box: the upright one is exact with
    /// bevels and has no core). Its rounding radius is 0.
    Box {
        center: DVec3,
        half: DVec3,
        rotation: DMat3,
    },
    /// An upright cylinder of `radius` spanning `−half_height..half_height` on its own Z;
    /// `rotation` as for [`Core::Points`]. Its rounding radius is 0: the disk is the core.
    Cylinder {
        radius: f64,
        half_height: f64,
        rotation: Option<DMat3>,
    },
}

/// Where a core touches a plane it meets (relative to the reference point): a point, a
/// segment (a capsule's segment or a cylinder's side line lying flat against the plane) or a
/// disk (a cylinder's cap lying flat on it).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Patch {
    Point(Vec3),
    Segment(Vec3, Vec3),
    Disk { center: Vec3, radius: f32 },
}

impl Core<'_> {
    /// Calls `test` with the core's patches lowest along `n` (within `slack` of the lowest),
    /// until it returns true; whether it did. These touch a plane with normal `n` when the
    /// shifted plane is met; a hull lying flat against it gives each of its lowest points.
    pub(crate) fn any_lowest(
        &self,
        n: Vec3,
        slack: f32,
        mut test: impl FnMut(Patch) -> bool,
    ) -> bool {
        match *self {
            Core::Point => test(Patch::Point(Vec3::ZERO)),
            Core::Segment(half) => {
                let half = half.as_vec3();
                let (low, high) = if n.dot(half) > 0.0 {
                    (-half, half)
                } else {
                    (half, -half)
                };
                if n.dot(high - low) <= slack {
                    test(Patch::Segment(low, high))
                } else {
                    test(Patch::Point(low))
                }
            }
            Core::Points { points, rotation } => {
                let n = n.as_dvec3();
                let along = rotation.map_or(n, |r| r * n);
                let lowest = points
                    .iter()
                    .map(|p| along.dot(p.as_dvec3()))
                    .fold(f64::INFINITY, f64::min);
                let slack = f64::from(slack);
                points.iter().any(|p| {
                    let p = p.as_dvec3();
                    along.dot(p) <= lowest + slack
                        && test(Patch::Point(unrotate(rotation, p).as_vec3()))
                })
            }
            Core::Box {
                center,
                half,
                rotation,
            } => {
                // Each corner within `slack` of the lowest along `n` (a box lying flat gives
                // the four corners of its side, as a hull gives its lowest points).
                let along = rotation * n.as_dvec3();
                let slack = f64::from(slack);
                let corner = |i: usize| {
                    let pick = |bit: usize| if i & bit == 0 { -1.0 } else { 1.0 };
                    center + DVec3::new(pick(1), pick(2), pick(4)) * half
                };
                let lowest = (0..8)
                    .map(|i| along.dot(corner(i)))
                    .fold(f64::INFINITY, f64::min);
                (0..8).any(|i| {
                    let c = corner(i);
                    along.dot(c) <= lowest + slack
                        && test(Patch::Point(unrotate(Some(rotation), c).as_vec3()))
                })
            }
            Core::Cylinder {
                radius,
                half_height,
                rotation,
            } => {
                // In the cylinder's frame: the cap when `n` is (nearly) along the axis, the
                // side line through the lowest rim point when `n` is (nearly) across it, else
                // that rim point.
                let e = rotation.map_or(n.as_dvec3(), |r| r * n.as_dvec3());
                let slack = f64::from(slack);
                let low = cylinder_support(radius, half_height, -e);
                let back = |p: DVec3| unrotate(rotation, p).as_vec3();
                if radius * e.truncate().length() <= slack {
                    test(Patch::Disk {
                        center: back(DVec3::new(0.0, 0.0, low.z)),
                        radius: radius as f32,
                    })
                } else if e.z.abs() * 2.0 * half_height <= slack {
                    test(Patch::Segment(
                        back(low),
                        back(DVec3::new(low.x, low.y, -low.z)),
                    ))
                } else {
                    test(Patch::Point(back(low)))
                }
            }
        }
    }
}

/// The point of an upright cylinder (radius `radius`, `−half_height..half_height` on Z) farthest
/// along `d`; on the axis when `d` is vertical.
fn cylinder_support(radius: f64, half_height: f64, d: DVec3) -> DVec3 {
    let horizontal = d.truncate();
    let length = horizontal.length();
    let rim = if length > 0.0 {
        horizontal * (radius / length)
    } else {
        glam::DVec2::ZERO
    };
    let z = if d.z >= 0.0 {
        half_height
    } else {
        -half_height
    };
    rim.extend(z)
}

impl SupportMap for Core<'_> {
    fn support(&self, d: DVec3) -> DVec3 {
        match *self {
            Core::Point => DVec3::ZERO,
            Core::Segment(half) => {
                if half.dot(d) >= 0.0 {
                    half
                } else {
                    -half
                }
            }
            Core::Points { points, rotation } => {
                let along = rotation.map_or(d, |r| r * d);
                let mut best = DVec3::ZERO;
                let mut best_dot = f64::NEG_INFINITY;
                for p in points {
                    let p = p.as_dvec3();
                    let dot = along.dot(p);
                    if dot > best_dot {
                        best = p;
                        best_dot = dot;
                    }
                }
                unrotate(rotation, best)
            }
            Core::Box {
                center,
                half,
                rotation,
            } => {
                let along = rotation * d;
                let sign = |c: f64| if c >= 0.0 { 1.0 } else { -1.0 };
                let corner =
                    center + DVec3::new(sign(along.x), sign(along.y), sign(along.z)) * half;
                unrotate(Some(rotation), corner)
            }
            Core::Cylinder {
                radius,
                half_height,
                rotation,
            } => {
                let along = rotation.map_or(d, |r| r * d);
                unrotate(rotation, cylinder_support(radius, half_height, along))
            }
        }
    }

    fn curved(&self) -> bool {
        matches!(self, Core::Cylinder { .. })
    }
}

/// A hull point in the sweep's frame: `rotationᵀ·p`.
fn unrotate(rotation: Option<DMat3>, p: DVec3) -> DVec3 {
    match rotation {
        None => p,
        Some(r) => DVec3::new(r.x_axis.dot(p), r.y_axis.dot(p), r.z_axis.dot(p)),
    }
}
