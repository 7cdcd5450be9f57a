//! Exact sweeps of any shape, upright or rotated, against another upright one: what
//! [`TraceShape::trace_against_rotated`] and [`TraceShape::overlaps_rotated`] answer, and
//! what `body.rs` hands over to whenever its closed form does not apply (a hull in the pair,
//! or a rotated mover that is not a point or a sphere).
//!
//! Takes the moving shape with its rotation and segment, the other shape with its position;
//! gives a [`Trace`] with the contract of [`TraceShape::trace_against`]: the end stops
//! [`STOP_DISTANCE`](crate::STOP_DISTANCE) short of the first contact, never inside; a sweep
//! that starts inside leaves freely and is all-solid when it ends inside too; a sweep that
//! merely passes within the stop distance without touching is not stopped.
//!
//! Each shape is a core (a point, a capsule's segment, a box, a hull's points, a cylinder)
//! rounded by a ball (a sphere's or capsule's radius, else 0). The distance between the two
//! shapes is GJK's distance between the cores (`gjk.rs`, f64) less both balls. Along a
//! straight sweep it is convex in time, and the separating direction `v` GJK ends with gives
//! a lower bound valid at every time: the support of the difference of the cores along `v`
//! moves at the rate `v·motion`. Conservative advancement steps to where that bound reaches
//! the level sought, so no step passes a contact; it is Newton's method on the distance when
//! `v` is exact, and stops within [`BODY_CONTACT_TOLERANCE`] of the level on polytopes
//! (within [`GJK_CURVED_TOLERANCE`] where a cylinder's rim is involved), or after
//! [`MAX_BODY_STEPS`], early. Overlap counts GJK's touching (within its tolerance) as
//! touching. No allocation; f64 and IEEE operations only.

use glam::{DMat3, DVec3, Quat, Vec3};

use super::gjk::{self, Simplex, SupportMap};
use super::shape::Repr;
use super::{Trace, TraceShape, in_range, out_of_range};
use crate::compiled::Plane;
use crate::contents::Contents;
use crate::tolerance::{BODY_CONTACT_TOLERANCE, MAX_BODY_STEPS, SURFACE_CLIP_EPSILON};

#[cfg(doc)]
use crate::tolerance::GJK_CURVED_TOLERANCE;

/// The core of a shape, relative to its reference point in the shape's own frame.
#[derive(Clone, Copy)]
enum Part<'a> {
    Point,
    /// A capsule's segment `−half_height..half_height` on Z.
    Segment(f64),
    Box {
        center: DVec3,
        half: DVec3,
    },
    Points(&'a [Vec3]),
    Cylinder {
        radius: f64,
        half_height: f64,
    },
    /// A character's stored parts (`body.rs`'s `Upright` without its ball): a box about
    /// `center` plus a horizontal disk.
    BoxDisk {
        center: DVec3,
        half: DVec3,
        disk: f64,
    },
}

/// A shape's core placed in the world's directions: `rotation` maps the shape's frame into
/// the world (`None`: upright), with the rounding ball's radius.
#[derive(Clone, Copy)]
pub(crate) struct Posed<'a> {
    part: Part<'a>,
    rotation: Option<DMat3>,
    ball: f64,
}

impl<'a> Posed<'a> {
    /// `shape` rotated by `rotation` (`None`: upright).
    pub(crate) fn new(shape: &'a TraceShape, rotation: Option<DMat3>) -> Posed<'a> {
        let (part, ball) = match &shape.0 {
            Repr::Point => (Part::Point, 0.0),
            Repr::Sphere { radius } => (Part::Point, f64::from(*radius)),
            Repr::Capsule {
                radius,
                half_height,
            } => (Part::Segment(f64::from(*half_height)), f64::from(*radius)),
            Repr::Cylinder {
                radius,
                half_height,
            } => (
                Part::Cylinder {
                    radius: f64::from(*radius),
                    half_height: f64::from(*half_height),
                },
                0.0,
            ),
            Repr::Box { center, half, .. } => (
                Part::Box {
                    center: center.as_dvec3(),
                    half: half.as_dvec3(),
                },
                0.0,
            ),
            Repr::Hull { points, .. } => (Part::Points(points), 0.0),
        };
        Posed {
            part,
            rotation,
            ball,
        }
    }

    /// Upright: a box of half extents `half` about `center`, plus a horizontal disk of
    /// radius `disk`, rounded by a ball of radius `ball` (a character's stored parts).
    pub(crate) fn box_disk(center: Vec3, half: Vec3, disk: f32, ball: f32) -> Posed<'a> {
        Posed {
            part: Part::BoxDisk {
                center: center.as_dvec3(),
                half: half.as_dvec3(),
                disk: f64::from(disk),
            },
            rotation: None,
            ball: f64::from(ball),
        }
    }
}

impl SupportMap for Posed<'_> {
    fn support(&self, d: DVec3) -> DVec3 {
        // Into the shape's frame (the transpose), the support there, back to the world.
        let local = self.rotation.map_or(d, |r| r.transpose() * d);
        let sign = |c: f64| if c >= 0.0 { 1.0 } else { -1.0 };
        let p = match self.part {
            Part::Point => DVec3::ZERO,
            Part::Segment(h) => DVec3::new(0.0, 0.0, sign(local.z) * h),
            Part::Box { center, half } => {
                center + DVec3::new(sign(local.x), sign(local.y), sign(local.z)) * half
            }
            Part::Points(points) => {
                let mut best = DVec3::ZERO;
                let mut best_dot = f64::NEG_INFINITY;
                for p in points {
                    let p = p.as_dvec3();
                    let dot = local.dot(p);
                    if dot > best_dot {
                        best = p;
                        best_dot = dot;
                    }
                }
                best
            }
            Part::Cylinder {
                radius,
                half_height,
            } => {
                let across = local.truncate();
                let length = across.length();
                let rim = if length > 0.0 {
                    across * (radius / length)
                } else {
                    glam::DVec2::ZERO
                };
                rim.extend(sign(local.z) * half_height)
            }
            Part::BoxDisk { center, half, disk } => {
                let across = local.truncate();
                let length = across.length();
                let rim = if length > 0.0 {
                    across * (disk / length)
                } else {
                    glam::DVec2::ZERO
                };
                center
                    + DVec3::new(sign(local.x), sign(local.y), sign(local.z)) * half
                    + rim.extend(0.0)
            }
        };
        self.rotation.map_or(p, |r| r * p)
    }

    fn curved(&self) -> bool {
        match self.part {
            Part::Cylinder { .. } => true,
            Part::BoxDisk { disk, .. } => disk > 0.0,
            _ => false,
        }
    }
}

/// The mover's core at `offset` from the other's reference point, against the other's
/// core: a lower bound on the distance between the two shapes (balls included) valid along
/// the whole sweep as `bound + s·rate` at `s` past this position, and the direction `v` from
/// the other toward the mover it comes from; `None` when the cores touch or overlap.
struct Gap {
    bound: f64,
    normal: DVec3,
    /// The other's point nearest the mover (on its ball), relative to its reference point.
    other_point: DVec3,
}

/// The two cores and the sweep, relative to the other's reference point.
struct Pair<'a> {
    mover: Posed<'a>,
    other: Posed<'a>,
    q0: DVec3,
    motion: DVec3,
    scale: f64,
}

impl Pair<'_> {
    fn balls(&self) -> f64 {
        self.mover.ball + self.other.ball
    }

    /// The gap at time `t`; `None` when the cores touch.
    fn gap(&self, t: f64, simplex: &mut Simplex) -> Option<Gap> {
        let offset = self.q0 + self.motion * t;
        let sep = gjk::distance(&self.mover, offset, &self.other, simplex, self.scale)?;
        let v = sep.a - sep.b;
        let length = v.length();
        if length <= 0.0 {
            return None;
        }
        let normal = v / length;
        // The difference of the cores' support against `normal`: no point of it is nearer
        // the origin along `normal` (a separating plane, valid whatever GJK's accuracy).
        let nearest = offset + self.mover.support(-normal) - self.other.support(normal);
        let bound = normal.dot(nearest).max(sep.lower) - self.balls();
        Some(Gap {
            bound,
            normal,
            other_point: sep.b + normal * self.other.ball,
        })
    }

    /// Whether the shapes overlap at time `t` (touching counts).
    fn overlap(&self, t: f64) -> bool {
        let mut simplex = Simplex::new();
        self.gap(t, &mut simplex)
            .is_none_or(|g| g.bound <= BODY_CONTACT_TOLERANCE)
    }

    /// The first time from `t` on at which the distance falls to `level` (within the
    /// tolerance), with the gap there; `None` when it never does before 1. Each step lands
    /// before that time; cut short after [`MAX_BODY_STEPS`], the time reached (early).
    fn first_at(
        &self,
        mut t: f64,
        level: f64,
        simplex: &mut Simplex,
    ) -> Option<(f64, Option<Gap>)> {
        for _ in 0..MAX_BODY_STEPS {
            let Some(gap) = self.gap(t, simplex) else {
                return Some((t, None));
            };
            if gap.bound - level <= BODY_CONTACT_TOLERANCE {
                return Some((t, Some(gap)));
            }
            let closing = -gap.normal.dot(self.motion);
            if closing <= 0.0 {
                return None;
            }
            t += (gap.bound - level) / closing;
            if t > 1.0 {
                return None;
            }
        }
        let gap = self.gap(t, simplex);
        Some((t, gap))
    }
}

/// Sweeps `shape` rotated by `rotation` (world from shape; `None` upright) from `start` to
/// `end` against `other` (upright) at `other_at`, exactly.
pub(crate) fn trace_exact(
    shape: &TraceShape,
    rotation: Option<DMat3>,
    start: Vec3,
    end: Vec3,
    other: &TraceShape,
    other_at: Vec3,
) -> Trace {
    let scale = f64::from(shape.radius() + other.radius());
    trace_posed(
        shape,
        rotation,
        start,
        end,
        (Posed::new(other, None), scale),
        other_at,
    )
}

/// A sweep that starts inside the other body (touching counts): it leaves freely, and is
/// stopped at its start, all-solid, only when it ends inside too.
pub(super) fn started_inside(start: Vec3, end: Vec3, all_solid: bool) -> Trace {
    Trace {
        fraction: if all_solid { 0.0 } else { 1.0 },
        end: if all_solid { start } else { end },
        start_solid: true,
        all_solid,
        contents: Contents::BODY,
        ..Trace::miss(end)
    }
}

/// The exact sweep against `other`, a posed core, with `scale` bounding the sum of both
/// shapes' radii.
pub(crate) fn trace_posed(
    shape: &TraceShape,
    rotation: Option<DMat3>,
    start: Vec3,
    end: Vec3,
    (other, scale): (Posed<'_>, f64),
    other_at: Vec3,
) -> Trace {
    if !in_range(start) || !in_range(end) {
        return out_of_range(start);
    }
    if !in_range(other_at) {
        return Trace::miss(end);
    }
    let pair = Pair {
        mover: Posed::new(shape, rotation),
        other,
        q0: start.as_dvec3() - other_at.as_dvec3(),
        motion: end.as_dvec3() - start.as_dvec3(),
        scale,
    };
    // Bounding spheres: a segment that never comes within the stop distance of the sum of
    // the radii meets nothing.
    let reach = pair.scale + f64::from(SURFACE_CLIP_EPSILON);
    let along = pair.motion.length_squared();
    let s = if along > 0.0 {
        (-pair.q0.dot(pair.motion) / along).clamp(0.0, 1.0)
    } else {
        0.0
    };
    if (pair.q0 + pair.motion * s).length_squared() > reach * reach {
        return Trace::miss(end);
    }
    if pair.overlap(0.0) {
        return started_inside(start, end, pair.overlap(1.0));
    }
    let stop_level = f64::from(SURFACE_CLIP_EPSILON);
    let mut simplex = Simplex::new();
    let Some((t, gap)) = pair.first_at(0.0, stop_level, &mut simplex) else {
        return Trace::miss(end);
    };
    // Only a sweep that would touch is stopped (as Quake's brush clip).
    let mut touch_simplex = simplex;
    if pair.first_at(t, 0.0, &mut touch_simplex).is_none() {
        return Trace::miss(end);
    }
    let mut fraction = t as f32;
    let mut stop = start + (end - start) * fraction;
    let clear_at = |p: Vec3| {
        let at = Pair {
            q0: p.as_dvec3() - other_at.as_dvec3(),
            motion: DVec3::ZERO,
            ..pair
        };
        !at.overlap(0.0)
    };
    if fraction > 0.0 && !clear_at(stop) {
        fraction = 0.0;
        stop = start;
    }
    let Some(gap) = gap.or_else(|| pair.gap(0.0, &mut Simplex::new())) else {
        // The cores touch at the start (the overlap test passed within its tolerance):
        // stay put, facing straight back along the motion.
        return Trace {
            fraction: 0.0,
            end: start,
            contents: Contents::BODY,
            ..Trace::miss(end)
        };
    };
    let n = gap.normal.as_vec3();
    let on_other = other_at + gap.other_point.as_vec3();
    let plane = Plane {
        normal: n,
        dist: n.dot(on_other),
    };
    let touching = stop + shape_support_point(shape, rotation, -n);
    Trace {
        fraction,
        end: stop,
        normal: Some(n),
        plane: Some(plane),
        contact: Some(touching - n * plane.distance(touching)),
        contents: Contents::BODY,
        ..Trace::miss(end)
    }
}

/// The support point of `shape` rotated by `rotation` along world direction `u`.
fn shape_support_point(shape: &TraceShape, rotation: Option<DMat3>, u: Vec3) -> Vec3 {
    match rotation {
        None => shape.support_point(u),
        Some(r) => {
            let r = r.as_mat3();
            r * shape.support_point(r.transpose() * u)
        }
    }
}

/// Whether `a` rotated by `rotation` at `a_at` overlaps `b` (upright) at `b_at`; touching
/// counts.
pub(crate) fn overlap_exact(
    a: &TraceShape,
    rotation: Option<DMat3>,
    a_at: Vec3,
    b: &TraceShape,
    b_at: Vec3,
) -> bool {
    let pair = Pair {
        mover: Posed::new(a, rotation),
        other: Posed::new(b, None),
        q0: a_at.as_dvec3() - b_at.as_dvec3(),
        motion: DVec3::ZERO,
        scale: f64::from(a.radius() + b.radius()),
    };
    pair.overlap(0.0)
}

/// Whether `a` rotated by `rotation` at `a_at` overlaps `other` (a posed core) at `b_at`,
/// with `scale` bounding the sum of both shapes' radii; touching counts.
pub(crate) fn overlap_posed(
    a: &TraceShape,
    rotation: Option<DMat3>,
    a_at: Vec3,
    (other, scale): (Posed<'_>, f64),
    b_at: Vec3,
) -> bool {
    let pair = Pair {
        mover: Posed::new(a, rotation),
        other,
        q0: a_at.as_dvec3() - b_at.as_dvec3(),
        motion: DVec3::ZERO,
        scale,
    };
    pair.overlap(0.0)
}

/// The rotation as a matrix, `None` for the identity; `Err` when it does not normalise.
pub(crate) fn rotation_matrix(rotation: Quat) -> Result<Option<DMat3>, ()> {
    if rotation == Quat::IDENTITY {
        return Ok(None);
    }
    let unit = rotation.normalize();
    if !unit.is_finite() {
        return Err(());
    }
    Ok(Some(DMat3::from_quat(unit.as_dquat())))
}
