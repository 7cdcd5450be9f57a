//! Sweeps of one upright shape against another placed one: how characters meet when they
//! block each other (Quake 3 `SV_ClipMoveToEntities` against a client's box, made exact for
//! every character shape).
//!
//! Takes the moving [`TraceShape`] with its segment and the other shape with its position;
//! gives a [`Trace`] with the [`Trace`] contract: the end stops
//! [`STOP_DISTANCE`](crate::STOP_DISTANCE) short of the first contact, the normal faces the
//! mover, start-solid and all-solid as Quake 2/3 have them (a sweep leaving a shape it
//! starts in is not stopped by it).
//!
//! Every shape a character sweeps is upright: a box, a cylinder (a disk plus a vertical
//! segment), a capsule (a ball plus one), a sphere, a point. Each is a Minkowski sum of a box
//! (whose z takes the segment), a horizontal disk and a ball about a centre, so two of them
//! overlap exactly when the difference of their centres lies in the sum of their parts, a
//! set whose distance from a point has a closed form: the box and the disk make a rounded
//! box, and the ball shifts the level. That distance is convex along the sweep (the distance
//! to a convex set, along a line), so Newton's method from the start lands before the first
//! contact at every step and never passes it; it stops within
//! [`BODY_CONTACT_TOLERANCE`] of the stop distance, or, cut short after [`MAX_BODY_STEPS`],
//! early. As Quake's brush clip, only a sweep that would touch the other shape is stopped:
//! one that merely passes within the stop distance (sliding along a neighbour a hair
//! closer than the stop distance) goes on. Straight contacts (box faces, a cylinder's side) take one step. Here (the
//! crate-internal [`Upright`] sum the crowd uses) a hull meets and is met as its bounding
//! box; the public [`TraceShape::trace_against`] hands hulls, and
//! [`TraceShape::trace_against_rotated`] rotated shapes, to the exact GJK sweep of
//! `body_exact.rs`. Guarantees: exact up to the stop distance for the shapes a
//! character uses, never inside, no allocation, f64 inside and the same bits on every
//! machine (no platform maths). A sweep tested against many shapes (a crowd's, against
//! each neighbour) is set up once ([`UprightSweep`]) and reports a plain miss as `None`.

use glam::{DMat3, DVec2, DVec3, Quat, Vec3};

use super::body_exact::{
    Posed, overlap_exact, overlap_posed, rotation_matrix, started_inside, trace_exact, trace_posed,
};
use super::{ShapeKind, Trace, TraceShape, in_range, out_of_range};
use crate::compiled::Plane;
use crate::contents::Contents;
use crate::tolerance::{BODY_CONTACT_TOLERANCE, MAX_BODY_STEPS, SURFACE_CLIP_EPSILON};

/// An upright shape as a Minkowski sum about its centre (relative to its reference point):
/// a box of half extents `half`, a horizontal disk of radius `disk`, a ball of radius `ball`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Upright {
    pub(crate) center: Vec3,
    pub(crate) half: Vec3,
    pub(crate) disk: f32,
    pub(crate) ball: f32,
}

impl Upright {
    /// `shape` as a sum (a hull as its bounding box).
    #[inline]
    pub(crate) fn of(shape: &TraceShape) -> Upright {
        let (center, half, disk, ball) = shape.upright_parts();
        Upright {
            center,
            half,
            disk,
            ball,
        }
    }

    /// The farthest any point lies from the reference point (a bound, for the exact
    /// sweep's bounding-sphere cull).
    fn radius(&self) -> f64 {
        let round = f64::from(self.disk) + f64::from(self.ball);
        self.center.as_dvec3().length() + self.half.as_dvec3().length() + round
    }

    /// The distance from `point` to these parts placed at `at` (0 when inside).
    pub(crate) fn distance_to(&self, at: Vec3, point: Vec3) -> f32 {
        let sum = Sum::of(self, &Upright::of(&TraceShape::point()));
        let q = point.as_dvec3() - (at + self.center).as_dvec3();
        (sum.core_distance_only(q) - sum.ball).max(0.0) as f32
    }

    /// The bounding box relative to the reference point.
    #[inline]
    pub(crate) fn bounds(&self) -> (Vec3, Vec3) {
        let round = self.disk + self.ball;
        let reach = self.half + Vec3::new(round, round, self.ball);
        (self.center - reach, self.center + reach)
    }
}

/// The sum of two uprights' parts, centred: the difference of their centres is inside it
/// exactly when the shapes overlap.
struct Sum {
    half: DVec3,
    disk: f64,
    ball: f64,
}

impl Sum {
    /// Whether the segment from `q` along `motion` starts outside the sum (not touching)
    /// and never comes nearer its core: then it meets nothing, whether it starts within
    /// the stop distance or not (a convex distance that does not fall at the start never
    /// falls). Decided without a square root for a sum with no disk or no ball (two boxes,
    /// two cylinders, two capsules, a box and either), the common case of characters side
    /// by side; `false` (the exact path decides) otherwise.
    fn leaves(&self, q: DVec3, motion: DVec3) -> bool {
        if self.disk > 0.0 && self.ball > 0.0 {
            return false;
        }
        let beyond = |c: f64, h: f64| (c.abs() - h).max(0.0).copysign(c);
        let flat = DVec2::new(beyond(q.x, self.half.x), beyond(q.y, self.half.y));
        let up = beyond(q.z, self.half.z);
        let flat2 = flat.length_squared();
        // Inside (touching counts): the exact path reports it.
        let inside = if self.disk > 0.0 {
            flat2 <= self.disk * self.disk && up == 0.0
        } else {
            flat2 + up * up <= self.ball * self.ball
        };
        if inside {
            return false;
        }
        // The distance's slope at the start has the sign of the part of the motion along
        // each axis the point lies beyond (all weights positive).
        let horizontal = if self.disk > 0.0 && flat2 <= self.disk * self.disk {
            0.0
        } else {
            flat.dot(motion.truncate())
        };
        horizontal >= 0.0 && up * motion.z >= 0.0
    }

    fn of(a: &Upright, b: &Upright) -> Sum {
        Sum {
            half: (a.half + b.half).as_dvec3(),
            disk: f64::from(a.disk) + f64::from(b.disk),
            ball: f64::from(a.ball) + f64::from(b.ball),
        }
    }

    /// The distance from `q` to the sum's core (the box plus the disk), and the unit
    /// direction from the core's nearest point to `q` (zero inside).
    fn core_distance(&self, q: DVec3) -> (f64, DVec3) {
        let offset = self.core_offset(q);
        (offset.distance, offset.direction())
    }

    /// [`Self::core_distance`]'s distance alone, the same bits, without the direction's
    /// divisions.
    #[inline]
    fn core_distance_only(&self, q: DVec3) -> f64 {
        self.core_offset(q).distance
    }

    /// Where `q` lies beyond the sum's core: [`Self::core_distance`]'s figures.
    #[inline(always)]
    fn core_offset(&self, q: DVec3) -> CoreOffset {
        let beyond = |c: f64, h: f64| (c.abs() - h).max(0.0).copysign(c);
        let flat = DVec2::new(beyond(q.x, self.half.x), beyond(q.y, self.half.y));
        let rect = length_of(flat.x, flat.y, || flat.length());
        let across = (rect - self.disk).max(0.0);
        let up = beyond(q.z, self.half.z);
        // IEEE operations only (no platform `hypot`).
        let distance = length_of(across, up, || (across * across + up * up).sqrt());
        CoreOffset {
            flat,
            rect,
            across,
            up,
            distance,
        }
    }
}

/// The smallest magnitude whose square is a normal f64 (2⁻⁵⁰⁰, far above the 2⁻⁵¹¹ where
/// squares start to lose bits), for [`length_of`].
const SQUARE_EXACT_MIN: f64 = 3.054936363499605e-151;

/// The largest magnitude whose square stays finite (2⁵⁰⁰, far below the 2⁵¹² where squares
/// overflow), for [`length_of`].
const SQUARE_EXACT_MAX: f64 = 3.273390607896142e150;

/// `√(a² + b²)` as `full` computes it (the square root of the sum of the rounded squares),
/// bit for bit, without the square root when one of `a`, `b` is zero (a point beside a box
/// face, level with it: characters side by side): then the sum is the other's rounded
/// square, whose rounded square root is its magnitude exactly (for `r` whose square is
/// normal, `r²` rounds within a relative `u = 2⁻⁵³`, so `√fl(r²)` lies within `r·u/2·(1 +
/// u/4)` of `r`, less than half an ulp of `r` on either side: IEEE's square root rounds it to
/// `r`). Outside [`SQUARE_EXACT_MIN`], [`SQUARE_EXACT_MAX`], for NaNs and both zero, `full`.
#[inline(always)]
fn length_of(a: f64, b: f64, full: impl FnOnce() -> f64) -> f64 {
    let exact = |r: f64| (SQUARE_EXACT_MIN..=SQUARE_EXACT_MAX).contains(&r);
    if b == 0.0 && exact(a.abs()) {
        a.abs()
    } else if a == 0.0 && exact(b.abs()) {
        b.abs()
    } else {
        full()
    }
}

/// How far a point lies beyond a [`Sum`]'s core ([`Sum::core_offset`]): beyond the box
/// across (`flat`, its length `rect`, less the disk `across`) and up (`up`), and the
/// distance in all.
struct CoreOffset {
    flat: DVec2,
    rect: f64,
    across: f64,
    up: f64,
    distance: f64,
}

impl CoreOffset {
    /// The unit direction from the core's nearest point to the point (zero inside).
    #[inline(always)]
    fn direction(&self) -> DVec3 {
        if self.distance == 0.0 {
            return DVec3::ZERO;
        }
        let side = if self.across > 0.0 {
            self.flat * (self.across / self.rect)
        } else {
            DVec2::ZERO
        };
        side.extend(self.up) / self.distance
    }
}

/// Whether the segment `q0 .. q0 + motion` stays out of the sum's bounding box grown by the
/// stop distance: then it never comes within the stop distance of the sum (a cheap test
/// before the exact one, with no square root).
fn misses_box(sum: &Sum, q0: DVec3, motion: DVec3) -> bool {
    let stop = f64::from(SURFACE_CLIP_EPSILON);
    let round = sum.disk + sum.ball + stop;
    let half = sum.half + DVec3::new(round, round, sum.ball + stop);
    let (mut enter, mut leave) = (0.0f64, 1.0f64);
    for axis in 0..3 {
        let (p, d, h) = (q0[axis], motion[axis], half[axis]);
        if d == 0.0 {
            if p.abs() > h {
                return true;
            }
            continue;
        }
        let (a, b) = ((-h - p) / d, (h - p) / d);
        enter = enter.max(a.min(b));
        leave = leave.min(a.max(b));
        if enter > leave {
            return true;
        }
    }
    false
}

/// A sweep's segment from `q0` along `motion` (the difference of centres), with the
/// distance and its direction at the start.
struct Reach {
    q0: DVec3,
    motion: DVec3,
    d0: f64,
    n0: DVec3,
}

impl Reach {
    /// The first time in `[0, 1]` the distance to `sum`'s core falls to `level`, and the
    /// direction there, by Newton steps from the start, each landing before that time (the
    /// distance is convex); `None` when it never does. Cut short after [`MAX_BODY_STEPS`],
    /// the time reached so far (early, never late). Without `DIRECTION`, the direction
    /// where the steps end is not computed (a caller asking only whether the level is
    /// reached): it is that of the last step taken before.
    fn first_at<const DIRECTION: bool>(&self, sum: &Sum, level: f64) -> Option<(f64, DVec3)> {
        let (mut t, mut distance, mut normal) = (0.0f64, self.d0, self.n0);
        if distance <= level {
            return Some((t, normal));
        }
        for _ in 0..MAX_BODY_STEPS {
            let closing = normal.dot(self.motion);
            if closing >= 0.0 {
                return None;
            }
            let next = t + (distance - level) / -closing;
            if next > 1.0 {
                return None;
            }
            t = next;
            let offset = sum.core_offset(self.q0 + self.motion * t);
            distance = offset.distance;
            if distance - level <= BODY_CONTACT_TOLERANCE {
                if DIRECTION {
                    normal = offset.direction();
                }
                break;
            }
            normal = offset.direction();
        }
        Some((t, normal))
    }
}

/// Sweeps `shape` (whose parts are `mover`) from `start` to `end` against `other` whose
/// reference point is at `other_at`.
pub(crate) fn trace_upright(
    shape: &TraceShape,
    mover: &Upright,
    start: Vec3,
    end: Vec3,
    other: &Upright,
    other_at: Vec3,
) -> Trace {
    UprightSweep::new(shape, mover, start, end)
        .against(other, other_at)
        .unwrap_or_else(|| Trace::miss(end))
}

/// One sweep of an upright shape, set up once for every shape it is tested against (a
/// crowd's sweep against each neighbour it may meet): [`Self::against`] gives, bit for bit,
/// what [`trace_upright`] gives, but a plain miss as `None`, without building a [`Trace`].
pub(crate) struct UprightSweep<'a> {
    shape: &'a TraceShape,
    mover: &'a Upright,
    start: Vec3,
    end: Vec3,
    /// Whether `start` and `end` are within the world's range.
    in_range: bool,
    /// The mover's centre at the start, in f64.
    centre: DVec3,
    /// `end - start`, in f64.
    motion: DVec3,
}

impl<'a> UprightSweep<'a> {
    /// The sweep of `shape` (whose parts are `mover`) from `start` to `end`.
    #[inline]
    pub(crate) fn new(
        shape: &'a TraceShape,
        mover: &'a Upright,
        start: Vec3,
        end: Vec3,
    ) -> UprightSweep<'a> {
        UprightSweep {
            shape,
            mover,
            start,
            end,
            in_range: in_range(start) && in_range(end),
            centre: start.as_dvec3() + mover.center.as_dvec3(),
            motion: end.as_dvec3() - start.as_dvec3(),
        }
    }

    /// The sweep against `other` whose reference point is at `other_at`: [`trace_upright`]'s
    /// answer, or `None` where that is [`Trace::miss`] of the end (nothing met, not started
    /// inside), which never changes the first impact among several.
    ///
    /// The tests that most candidates fail (a crowd's neighbours beside or behind) are
    /// inlined into the caller's loop; the contact is found apart ([`Self::contact`]).
    #[inline(always)]
    pub(crate) fn against(&self, other: &Upright, other_at: Vec3) -> Option<Trace> {
        if !self.in_range {
            return Some(out_of_range(self.start));
        }
        if !in_range(other_at) {
            return None;
        }
        let sum = Sum::of(self.mover, other);
        let other_centre = other_at.as_dvec3() + other.center.as_dvec3();
        let q0 = self.centre - other_centre;
        if sum.leaves(q0, self.motion) || misses_box(&sum, q0, self.motion) {
            return None;
        }
        self.contact(&sum, q0, other_centre)
    }

    /// [`Self::against`] past its first tests: the sum `sum` of the parts, the difference
    /// of centres `q0` at the start, the other's centre `other_centre`.
    #[inline(never)]
    fn contact(&self, sum: &Sum, q0: DVec3, other_centre: DVec3) -> Option<Trace> {
        let (shape, mover, start, end) = (self.shape, self.mover, self.start, self.end);
        let centre = |p: Vec3| p.as_dvec3() + mover.center.as_dvec3();
        let motion = self.motion;
        let (d0, n0) = sum.core_distance(q0);
        if d0 <= sum.ball {
            // Starting inside (touching counts): not stopped unless it ends inside too.
            let d1 = sum.core_distance_only(q0 + motion);
            return Some(started_inside(start, end, d1 <= sum.ball));
        }
        // Only a sweep that would touch the other shape is stopped (as Quake's brush clip,
        // which a sweep merely passing within the stop distance, without entering, never
        // stops); it stops where it first comes within the stop distance.
        let start_of = Reach { q0, motion, d0, n0 };
        start_of.first_at::<false>(sum, sum.ball)?;
        let target = sum.ball + f64::from(SURFACE_CLIP_EPSILON);
        let (t, normal) = start_of.first_at::<true>(sum, target).unwrap_or((0.0, n0));
        // Narrowed to f32, the end must still be clear of the other shape; else stay put (the
        // start is clear).
        let mut fraction = t as f32;
        let mut stop = start + (end - start) * fraction;
        // The distance at the stop, for the gap below: measured once (staying put, it is
        // the distance at the start, `d0`, of the same point).
        let stop_distance = if fraction > 0.0 {
            let distance = sum.core_distance_only(centre(stop) - other_centre);
            if distance <= sum.ball {
                fraction = 0.0;
                stop = start;
                d0
            } else {
                distance
            }
        } else {
            d0
        };
        let n = normal.as_vec3();
        let touching = stop + shape.support_point(-n);
        let gap = (stop_distance - sum.ball) as f32;
        let plane = Plane {
            normal: n,
            dist: n.dot(touching - n * gap),
        };
        Some(Trace {
            fraction,
            end: stop,
            normal: Some(n),
            plane: Some(plane),
            contact: Some(touching - n * plane.distance(touching)),
            contents: Contents::BODY,
            ..Trace::miss(end)
        })
    }
}

/// Whether the parts `a` at `a_at` and `b` at `b_at` (reference points) overlap; touching
/// counts.
pub(crate) fn uprights_overlap(a: &Upright, a_at: Vec3, b: &Upright, b_at: Vec3) -> bool {
    let q = (a_at + a.center).as_dvec3() - (b_at + b.center).as_dvec3();
    let sum = Sum::of(a, b);
    sum.core_distance_only(q) <= sum.ball
}

/// Sweeps `shape` rotated by `rotation` (the identity: upright) from `start` to `end`
/// against `other`'s parts at `other_at`, exactly: by the closed form when both are upright
/// sums, by GJK otherwise (a rotation that does not normalise: start-solid, all-solid at
/// `start`). The scene's queries meet characters so.
/// The rotation that matters to `shape`'s sweeps: `None` for the identity and for a point
/// or a sphere (whose sweeps do not depend on it); `Err` when it does not normalise.
fn rotation_of(shape: &TraceShape, rotation: Quat) -> Result<Option<DMat3>, ()> {
    match rotation_matrix(rotation)? {
        Some(_) if matches!(shape.kind(), ShapeKind::Point | ShapeKind::Sphere) => Ok(None),
        r => Ok(r),
    }
}

/// The exact core and radius bound of a character's stored parts, for `body_exact.rs`.
fn posed_parts<'a>(shape: &TraceShape, parts: &Upright) -> (Posed<'a>, f64) {
    (
        Posed::box_disk(parts.center, parts.half, parts.disk, parts.ball),
        f64::from(shape.radius()) + parts.radius(),
    )
}

pub(crate) fn trace_parts(
    shape: &TraceShape,
    rotation: Quat,
    start: Vec3,
    end: Vec3,
    other: &Upright,
    other_at: Vec3,
) -> Trace {
    match rotation_of(shape, rotation) {
        Ok(None) if shape.kind() != ShapeKind::Hull => {
            trace_upright(shape, &Upright::of(shape), start, end, other, other_at)
        }
        Ok(r) => trace_posed(shape, r, start, end, posed_parts(shape, other), other_at),
        Err(()) => out_of_range(start),
    }
}

/// Whether `shape` rotated by `rotation` at `at` overlaps `other`'s parts at `other_at`;
/// touching counts (a rotation that does not normalise counts as overlapping).
pub(crate) fn parts_overlap(
    shape: &TraceShape,
    rotation: Quat,
    at: Vec3,
    other: &Upright,
    other_at: Vec3,
) -> bool {
    match rotation_of(shape, rotation) {
        Ok(None) if shape.kind() != ShapeKind::Hull => {
            uprights_overlap(&Upright::of(shape), at, other, other_at)
        }
        Ok(r) => overlap_posed(shape, r, at, posed_parts(shape, other), other_at),
        Err(()) => true,
    }
}

impl TraceShape {
    /// Sweeps this shape from `start` to `end` against `other` standing with its reference
    /// point at `other_at`: the first impact, with the [`Trace`] contract (the end stops
    /// [`STOP_DISTANCE`](crate::STOP_DISTANCE) short, never inside; a sweep leaving a shape it
    /// starts in is not stopped). Exact for every pair: points, spheres, upright cylinders
    /// and capsules and boxes by a closed form, hulls by GJK. The result's
    /// `contents` is [`Contents::BODY`], its `model` and `character` are `None` (a crowd's
    /// tracer fills in the character).
    ///
    /// # Examples
    /// ```
    /// use glam::Vec3;
    /// use planeshift::TraceShape;
    /// let player = TraceShape::quake3_player();
    /// let other = TraceShape::cylinder(16.0, 28.0).unwrap();
    /// let hit = player.trace_against(Vec3::ZERO, Vec3::new(100.0, 0.0, 0.0), &other, Vec3::new(80.0, 0.0, 4.0));
    /// // The box's face meets the cylinder's side: 80 - 15 - 16, less the stop distance.
    /// assert!((hit.end.x - (49.0 - 1.0 / 32.0)).abs() < 1e-4);
    /// assert_eq!(hit.normal, Some(Vec3::NEG_X));
    /// ```
    #[must_use]
    pub fn trace_against(
        &self,
        start: Vec3,
        end: Vec3,
        other: &TraceShape,
        other_at: Vec3,
    ) -> Trace {
        if self.kind() == ShapeKind::Hull || other.kind() == ShapeKind::Hull {
            return trace_exact(self, None, start, end, other, other_at);
        }
        trace_upright(
            self,
            &Upright::of(self),
            start,
            end,
            &Upright::of(other),
            other_at,
        )
    }

    /// Sweeps this shape rotated by `rotation` about its reference point from `start` to
    /// `end` against `other` (upright, as characters are) standing with its reference point
    /// at `other_at`, with the [`Trace`] contract of [`Self::trace_against`]. Exact for every
    /// pair, hulls and rotated boxes, cylinders and capsules included (GJK distance with
    /// conservative advancement, never inside, never late); the identity gives
    /// [`Self::trace_against`], bit for bit. A rotation that is not finite or does not
    /// normalise gives a start-solid, all-solid result at `start`.
    ///
    /// # Examples
    /// ```
    /// use glam::{Quat, Vec3};
    /// use planeshift::TraceShape;
    /// // A plank 64 long lying along y, turned 90° about z so it lies along x, swept along
    /// // x toward a cylinder: its end (32 ahead of its centre) meets the cylinder's side.
    /// let plank = TraceShape::aabb(Vec3::new(-2.0, -32.0, -2.0), Vec3::new(2.0, 32.0, 2.0)).unwrap();
    /// let turned = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    /// let other = TraceShape::cylinder(16.0, 28.0).unwrap();
    /// let at = Vec3::new(100.0, 0.0, 0.0);
    /// let hit = plank.trace_against_rotated(turned, Vec3::ZERO, Vec3::new(200.0, 0.0, 0.0), &other, at);
    /// assert!((hit.end.x - (100.0 - 16.0 - 32.0 - 1.0 / 32.0)).abs() < 1e-3, "{hit:?}");
    /// assert!(!plank.overlaps_rotated(turned, hit.end, &other, at));
    /// assert!(plank.overlaps_rotated(turned, hit.end + Vec3::X * 0.1, &other, at));
    /// ```
    #[must_use]
    pub fn trace_against_rotated(
        &self,
        rotation: Quat,
        start: Vec3,
        end: Vec3,
        other: &TraceShape,
        other_at: Vec3,
    ) -> Trace {
        match rotation_of(self, rotation) {
            Ok(None) => self.trace_against(start, end, other, other_at),
            Ok(Some(r)) => trace_exact(self, Some(r), start, end, other, other_at),
            Err(()) => out_of_range(start),
        }
    }

    /// Whether this shape rotated by `rotation` about its reference point at `at` overlaps
    /// `other` (upright) at `other_at`; touching counts. Exact for every pair (hulls too);
    /// a rotation that does not normalise counts as overlapping (as an out-of-range sweep is
    /// solid). See [`Self::trace_against_rotated`].
    #[must_use]
    pub fn overlaps_rotated(
        &self,
        rotation: Quat,
        at: Vec3,
        other: &TraceShape,
        other_at: Vec3,
    ) -> bool {
        let hull = self.kind() == ShapeKind::Hull || other.kind() == ShapeKind::Hull;
        match rotation_matrix(rotation) {
            Ok(None) if !hull => {
                uprights_overlap(&Upright::of(self), at, &Upright::of(other), other_at)
            }
            Ok(r) => overlap_exact(self, r, at, other, other_at),
            Err(()) => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quake_box() -> TraceShape {
        TraceShape::quake3_player()
    }

    #[test]
    fn boxes_meet_flush_less_the_stop_distance() {
        let a = quake_box();
        let hit = a.trace_against(
            Vec3::ZERO,
            Vec3::new(100.0, 0.0, 0.0),
            &a,
            Vec3::new(60.0, 0.0, 0.0),
        );
        assert!(
            (hit.end.x - (30.0 - SURFACE_CLIP_EPSILON)).abs() < 1e-5,
            "{hit:?}"
        );
        assert_eq!(hit.normal, Some(Vec3::NEG_X));
        assert_eq!(hit.contents, Contents::BODY);
        let plane = hit.plane.unwrap();
        // The plane is the other box's face, x = 45.
        assert!((plane.dist - -45.0).abs() < 1e-4, "{plane:?}");
        // Offset by more than the width in y: a miss, the end exactly.
        let miss = a.trace_against(
            Vec3::ZERO,
            Vec3::new(100.0, 0.0, 0.0),
            &a,
            Vec3::new(60.0, 31.0, 0.0),
        );
        assert_eq!((miss.fraction, miss.end), (1.0, Vec3::new(100.0, 0.0, 0.0)));
    }

    #[test]
    fn pairs_of_round_shapes_stop_at_the_sum_of_their_radii() {
        let cyl = TraceShape::cylinder(16.0, 28.0).unwrap();
        let cap = TraceShape::capsule(16.0, 12.0).unwrap();
        let ball = TraceShape::sphere(10.0).unwrap();
        for (a, b, reach) in [
            (&cyl, &cyl, 32.0),
            (&cap, &cap, 32.0),
            (&cyl, &cap, 32.0),
            (&ball, &cap, 26.0),
        ] {
            let hit = a.trace_against(
                Vec3::ZERO,
                Vec3::new(0.0, 200.0, 0.0),
                b,
                Vec3::new(0.0, 100.0, 0.0),
            );
            let expected = 100.0 - reach - SURFACE_CLIP_EPSILON;
            assert!((hit.end.y - expected).abs() < 1e-4, "{a:?} {b:?}: {hit:?}");
            assert!((hit.normal.unwrap() - Vec3::NEG_Y).length() < 1e-6);
        }
        // Off-centre: two cylinders whose axes pass 20 apart meet on their rims, at
        // y = 100 - sqrt(32² - 20²).
        let hit = cyl.trace_against(
            Vec3::ZERO,
            Vec3::new(0.0, 200.0, 0.0),
            &cyl,
            Vec3::new(20.0, 100.0, 0.0),
        );
        let gap = (hit.end - Vec3::new(20.0, 100.0, 0.0)).truncate().length();
        assert!((gap - (32.0 + SURFACE_CLIP_EPSILON)).abs() < 1e-4, "{gap}");
        let n = hit.normal.unwrap();
        assert!(n.x < -0.5 && n.y < -0.7, "{n}");
    }

    #[test]
    fn capsules_meet_on_their_caps_from_above() {
        let cap = TraceShape::capsule(16.0, 12.0).unwrap();
        // Dropped from above, 20 off: the balls of the caps meet at distance 32.
        let hit = cap.trace_against(
            Vec3::new(20.0, 0.0, 200.0),
            Vec3::new(20.0, 0.0, 0.0),
            &cap,
            Vec3::ZERO,
        );
        let below = hit.end - Vec3::new(0.0, 0.0, 24.0);
        assert!(
            (below.length() - (32.0 + SURFACE_CLIP_EPSILON)).abs() < 1e-4,
            "{hit:?}"
        );
    }

    #[test]
    fn starting_inside_leaves_freely_and_all_solid_stays() {
        let a = quake_box();
        let leave = a.trace_against(
            Vec3::ZERO,
            Vec3::new(-100.0, 0.0, 0.0),
            &a,
            Vec3::new(10.0, 0.0, 0.0),
        );
        assert!(leave.start_solid && !leave.all_solid && leave.fraction == 1.0);
        let stay = a.trace_against(
            Vec3::ZERO,
            Vec3::new(1.0, 0.0, 0.0),
            &a,
            Vec3::new(10.0, 0.0, 0.0),
        );
        assert!(
            stay.start_solid && stay.all_solid && stay.fraction == 0.0 && stay.end == Vec3::ZERO
        );
    }

    #[test]
    fn within_the_stop_distance_moving_in_stops_at_once_and_sliding_passes() {
        let a = quake_box();
        let at = Vec3::new(30.0 + 0.01, 0.0, 0.0);
        let into = a.trace_against(Vec3::ZERO, Vec3::new(5.0, 3.0, 0.0), &a, at);
        assert_eq!((into.fraction, into.end), (0.0, Vec3::ZERO));
        let along = a.trace_against(Vec3::ZERO, Vec3::new(0.0, 40.0, 0.0), &a, at);
        assert_eq!(along.fraction, 1.0);
    }

    #[test]
    fn sliding_past_a_corner_within_the_stop_distance_is_not_stopped() {
        // Regression from the 64-bot soak on hl_currents.map (seed 2): a box 0.03116 beside
        // another (a hair under the stop distance) and 0.00238 short of its corner, moving
        // along it, was stopped at once by the skin round the corner every tick (and, with
        // a second neighbour behind, wedged for a second). It never touches, so it passes;
        // moving into the other still stops.
        let a = quake_box();
        let at = Vec3::new(-30.03116, 30.00238, 0.0);
        let along = a.trace_against(Vec3::ZERO, Vec3::new(0.0, 1.12, 0.0), &a, at);
        assert_eq!(along.fraction, 1.0, "{along:?}");
        let into = a.trace_against(Vec3::ZERO, Vec3::new(-1.0, 1.12, 0.0), &a, at);
        assert!(into.fraction < 1e-3, "{into:?}");
    }

    #[test]
    fn lengths_skip_the_square_root_bit_for_bit() {
        // The bounds are what they say: 2⁻⁵⁰⁰ and 2⁵⁰⁰.
        assert_eq!(SQUARE_EXACT_MIN, 2f64.powi(-500));
        assert_eq!(SQUARE_EXACT_MAX, 2f64.powi(500));
        // Seeded magnitudes over the whole range (random mantissas, every binade, the
        // binades' ends and their neighbours), each with a zero of either sign beside it:
        // the shortcut gives the bits of the full formulas, `DVec2::length` and the sum of
        // squares.
        let mut rng = crate::test_rng::XorShift::new(0x5851_f42d_4c95_7f2du64);
        let mut cases = 0;
        for exponent in -500..=500 {
            let binade = 2f64.powi(exponent);
            let mut values = vec![binade, f64::from_bits(binade.to_bits() + 1)];
            values.push(f64::from_bits((2.0 * binade).to_bits() - 1));
            for _ in 0..200 {
                values.push(binade * (1.0 + f64::from(rng.unit().abs())));
            }
            for r in values {
                let r = r.clamp(SQUARE_EXACT_MIN, SQUARE_EXACT_MAX);
                for (a, b) in [(r, 0.0), (-r, 0.0), (r, -0.0), (0.0, r), (-0.0, -r)] {
                    let flat = DVec2::new(a, b);
                    let full = flat.length();
                    assert_eq!(
                        length_of(a, b, || full).to_bits(),
                        full.to_bits(),
                        "{a} {b}"
                    );
                    assert_eq!(
                        length_of(a, b, || (a * a + b * b).sqrt()).to_bits(),
                        (a * a + b * b).sqrt().to_bits(),
                        "{a} {b}"
                    );
                    cases += 1;
                }
            }
        }
        assert!(cases > 1_000_000, "{cases}");
        // Outside the range, zeros and NaNs: the full formula.
        for (a, b) in [
            (1e-200, 0.0),
            (1e200, 0.0),
            (0.0, 0.0),
            (-0.0, 0.0),
            (f64::NAN, 0.0),
            (3.0, 4.0),
        ] {
            assert_eq!(length_of(a, b, || -1.0), -1.0, "{a} {b}");
        }
    }

    #[test]
    fn seeded_sweeps_never_end_inside_and_are_never_late() {
        // 20,000 seeded sweeps between random pairs: the end never overlaps, and a sweep that
        // stops gets within the stop distance (plus the tolerance) of the other shape.
        let shapes = [
            quake_box(),
            TraceShape::cylinder(16.0, 28.0).unwrap(),
            TraceShape::capsule(16.0, 12.0).unwrap(),
            TraceShape::sphere(12.0).unwrap(),
            TraceShape::point(),
            TraceShape::aabb(Vec3::new(-8.0, -20.0, -4.0), Vec3::new(8.0, 4.0, 40.0)).unwrap(),
        ];
        let mut rng = crate::test_rng::XorShift::new(0x9e37_79b9_7f4a_7c15u64);
        let mut hits = 0;
        for case in 0..20_000 {
            let a = &shapes[case % shapes.len()];
            let b = &shapes[(case / shapes.len()) % shapes.len()];
            let (ua, ub) = (Upright::of(a), Upright::of(b));
            let start = Vec3::new(rng.unit(), rng.unit(), rng.unit()) * 120.0 + Vec3::splat(1000.0);
            let end = Vec3::new(rng.unit(), rng.unit(), rng.unit()) * 120.0 + Vec3::splat(1000.0);
            let at = Vec3::new(rng.unit(), rng.unit(), rng.unit()) * 40.0 + Vec3::splat(1000.0);
            let trace = a.trace_against(start, end, b, at);
            if trace.start_solid {
                assert!(uprights_overlap(&ua, start, &ub, at), "case {case}");
                continue;
            }
            assert!(
                !uprights_overlap(&ua, trace.end, &ub, at),
                "case {case}: {trace:?}"
            );
            if trace.fraction < 1.0 {
                hits += 1;
                let q = (trace.end + ua.center).as_dvec3() - (at + ub.center).as_dvec3();
                let sum = Sum::of(&ua, &ub);
                let gap = sum.core_distance(q).0 - sum.ball;
                assert!(
                    gap <= f64::from(SURFACE_CLIP_EPSILON) + 1e-3,
                    "case {case}: gap {gap}"
                );
                // Never late: no point before the end along the segment overlaps.
                for k in 0..=16 {
                    let p = start + (trace.end - start) * (k as f32 / 16.0);
                    assert!(!uprights_overlap(&ua, p, &ub, at), "case {case} at {k}/16");
                }
            }
        }
        assert!(hits > 2_000, "{hits}");
    }
}
