//! Exact contacts of spheres, cylinders, capsules and hulls: where such a shape swept through a brush
//! really first comes within the stop distance, found by safe Newton steps (conservative
//! advancement) on the exact distance to the brush.
//!
//! Takes a brush (its face planes), the sweep, the shape as a [`Core`] (a point, a segment,
//! a point set or an upright cylinder) rounded by a radius, and the interval to search, which starts where
//! plane shifting says the shape can first touch the brush; gives the first contact in that
//! interval, or that there is none. Plane shifting with bevels is conservative for these shapes: near convex edges and
//! corners the shifted planes reach past the true Minkowski sum (up to (κ − 1)·r for a round
//! shape; a hull's edge meeting a brush's edge has no plane at all), so the shape stops early
//! there and reports a bevel's normal. This module removes that error.
//!
//! Guarantees:
//! - never later than the exact time of contact: each step advances by a lower bound on the
//!   exact distance minus the radius and stop distance, over an upper bound on how fast the
//!   distance shrinks there; the distance is convex in time, so it shrinks no faster later,
//!   and no step can pass a contact;
//! - within [`ADVANCE_TOLERANCE`] of the exact contact along the sweep: Newton steps on the
//!   distance (at most [`MAX_ADVANCE_STEPS`]), then for a grazing pass bisection to f64
//!   resolution;
//! - the normal is the true contact normal, the direction from the brush's closest point to
//!   the shape's; the contact keeps the face's own plane when that direction is the face's
//!   normal (the contact lies inside the face), else it gets the tangent plane there.
//!
//! Distances run in f64. A sphere's is exact in closed form: the closest point of a convex
//! brush lies on one face, one edge (two planes) or one corner (three planes), and trying
//! each and keeping the nearest feasible one is exact. A capsule's segment, a hull's points
//! and a cylinder (whose curved rim GJK approaches from outside, giving a lower and an upper
//! bound) are measured by GJK (`gjk.rs`) against the brush's corners, warm-started from one
//! position of the sweep to the next. Under a rotated model the core is rotated into the
//! model's frame (the exact distance needs no bevels, so it stays exact there).

use glam::{DMat3, DVec3, Vec3};

use super::gjk::{self, Simplex, SupportMap};
use crate::compiled::{BrushFeatures, Edge, FacePlane, Plane};
use crate::tolerance::{
    ADVANCE_TOLERANCE, FACE_NORMAL_EPSILON, MAX_ADVANCE_STEPS, SLOPE_SLACK, SURFACE_CLIP_EPSILON,
};

/// The outcome of refining a plane-shifted hit.
pub(crate) enum Contact {
    /// The shape passes the brush in the interval: no contact.
    Miss,
    /// No refinement possible (the core already overlaps the brush): keep the plane-shifted
    /// hit.
    Keep,
    /// First contact at `fraction`; `face` is the face plane's index when the contact is
    /// inside a face, else `tangent` is the tangent plane through the contact point.
    Hit {
        fraction: f32,
        face: Option<u32>,
        tangent: Plane,
    },
}

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

/// A brush as exact contacts see it: its f64 face planes, corners and edges, derived once at
/// load (`compiled::features`), so each closest-point query costs faces² + edges + corners.
pub(crate) struct Polytope<'a> {
    planes: &'a [FacePlane],
    corners: &'a [DVec3],
    edges: &'a [Edge],
    /// The magnitude of the brush's coordinates (at least 1), in units.
    scale: f64,
    /// How far outside a plane still counts as on the brush, in units.
    eps: f64,
}

impl<'a> Polytope<'a> {
    /// The brush given by `features`; `None` when it has no corner.
    pub(crate) fn new(features: BrushFeatures<'a>) -> Option<Polytope<'a>> {
        (!features.corners.is_empty()).then_some(Polytope {
            planes: features.planes,
            corners: features.corners,
            edges: features.edges,
            scale: features.scale,
            eps: features.eps,
        })
    }

    /// The distance from `p` to the brush (0 inside it).
    pub(crate) fn distance(&self, p: Vec3) -> f64 {
        self.closest(p.as_dvec3())
            .map_or(0.0, |(_, _, distance)| distance)
    }

    /// The index of the brush's first face plane.
    pub(crate) fn first_plane(&self) -> Option<u32> {
        self.planes.first().map(|p| p.2)
    }

    /// The magnitude of the coordinates of a query near `center`: what GJK's tolerance is
    /// relative to.
    fn scale_at(&self, center: DVec3) -> f64 {
        self.scale.max(center.abs().max_element())
    }

    /// The face whose outward normal is `normal`'s direction (within
    /// [`FACE_NORMAL_EPSILON`]), if any.
    fn face_along(&self, normal: DVec3) -> Option<u32> {
        let n = normal.try_normalize()?;
        self.planes
            .iter()
            .find(|(m, _, _)| m.dot(n) >= 1.0 - FACE_NORMAL_EPSILON)
            .map(|(_, _, id)| *id)
    }

    fn inside(&self, q: DVec3) -> bool {
        self.planes.iter().all(|(n, d, _)| n.dot(q) <= d + self.eps)
    }

    /// The nearest point of the brush to `p`: the point, which face (if inside one face),
    /// and the distance. `None` when `p` is inside the brush.
    fn closest(&self, p: DVec3) -> Option<(DVec3, Option<u32>, f64)> {
        if self.inside(p) {
            return None;
        }
        let mut best: Option<(DVec3, Option<u32>, f64)> = None;
        let mut consider = |q: DVec3, face: Option<u32>| {
            let gap = (q - p).length_squared();
            if best.is_none_or(|(_, _, g)| gap < g) {
                best = Some((q, face, gap));
            }
        };
        for (n, d, id) in self.planes {
            // The nearest point lies inside a face only if `p` is in front of it, so faces
            // `p` is behind give no nearer candidate (and a many-sided brush costs less).
            let height = n.dot(p) - d;
            if height <= 0.0 {
                continue;
            }
            let q = p - *n * height;
            if self.inside(q) {
                consider(q, Some(*id));
            }
        }
        for &(a, b) in self.edges {
            let (a, b) = (self.corners[a as usize], self.corners[b as usize]);
            let ab = b - a;
            let s = (ab.dot(p - a) / ab.length_squared().max(f64::MIN_POSITIVE)).clamp(0.0, 1.0);
            consider(a + ab * s, None);
        }
        for corner in self.corners {
            consider(*corner, None);
        }
        best.map(|(q, face, gap)| (q, face, gap.sqrt()))
    }
}

/// Whether `core` rounded by `radius` at `p` touches or overlaps the brush (true for a brush
/// without features, only a degenerate one of a crafted file: the conservative answer).
pub(crate) fn within(shape: Option<&Polytope<'_>>, core: &Core<'_>, radius: f32, p: Vec3) -> bool {
    let Some(shape) = shape else {
        return true;
    };
    let radius = f64::from(radius);
    match core {
        Core::Point => shape.distance(p) <= radius,
        _ => {
            let center = p.as_dvec3();
            gjk::distance(
                core,
                center,
                shape,
                &mut Simplex::new(),
                shape.scale_at(center),
            )
            .is_none_or(|s| s.upper <= radius)
        }
    }
}

/// Finds the first contact of `core` rounded by `radius`, swept from `start` towards `end`
/// over fractions `from..to`, with the brush `shape`: where it comes within the stop distance.
pub(crate) fn contact(
    shape: &Polytope<'_>,
    core: &Core<'_>,
    start: Vec3,
    end: Vec3,
    radius: f32,
    from: f32,
    to: f32,
) -> Contact {
    let sweep = Sweep {
        start: start.as_dvec3(),
        direction: (end - start).as_dvec3(),
        reach: f64::from(radius) + f64::from(SURFACE_CLIP_EPSILON),
        from: f64::from(from),
        to: f64::from(to),
    };
    match core {
        Core::Point => advance(&mut SphereGauge { shape }, &sweep),
        _ => advance(
            &mut CoreGauge {
                shape,
                core,
                simplex: Simplex::new(),
            },
            &sweep,
        ),
    }
}

/// The sweep a contact is searched along, in f64.
struct Sweep {
    start: DVec3,
    direction: DVec3,
    /// The radius plus the stop distance.
    reach: f64,
    from: f64,
    to: f64,
}

/// The distance between the swept shape and the brush at one position.
struct Measure {
    /// The brush's point nearest the shape.
    point: DVec3,
    /// From `point` to the shape's nearest point (its length is the core's distance).
    normal: DVec3,
    /// The face holding `point`, when the gauge knows it already.
    face: Option<u32>,
    /// The core's distance to the brush, or a lower bound on it.
    distance: f64,
    /// How far `normal`'s direction may be from the true one's, as the sine of the angle
    /// (unitless, ≥ 0): what the distance's slope along the sweep may be off by, per unit
    /// of the sweep's length.
    uncertainty: f64,
}

/// Measures the shape's core against one brush, for [`advance`].
trait Gauge {
    /// The distance with the core placed at `center`; `None` when it overlaps the brush.
    fn measure(&mut self, center: DVec3) -> Option<Measure>;

    /// The face a contact with this `normal` (and `face` from [`Gauge::measure`]) lies in.
    fn face(&self, normal: DVec3, face: Option<u32>) -> Option<u32>;
}

/// A sphere: the centre's closest point in closed form.
struct SphereGauge<'p, 'a> {
    shape: &'p Polytope<'a>,
}

impl Gauge for SphereGauge<'_, '_> {
    #[inline]
    fn measure(&mut self, center: DVec3) -> Option<Measure> {
        self.shape
            .closest(center)
            .map(|(point, face, distance)| Measure {
                point,
                normal: center - point,
                face,
                distance,
                uncertainty: SLOPE_SLACK,
            })
    }

    #[inline]
    fn face(&self, _normal: DVec3, face: Option<u32>) -> Option<u32> {
        face
    }
}

/// A segment or a point set: GJK, warm-started along the sweep.
struct CoreGauge<'p, 'a, 'c> {
    shape: &'p Polytope<'a>,
    core: &'c Core<'c>,
    simplex: Simplex,
}

impl Gauge for CoreGauge<'_, '_, '_> {
    fn measure(&mut self, center: DVec3) -> Option<Measure> {
        let scale = self.shape.scale_at(center);
        gjk::distance(self.core, center, self.shape, &mut self.simplex, scale).map(|s| Measure {
            point: s.b,
            normal: s.a - s.b,
            face: None,
            distance: s.lower,
            // A point of the difference within δ = upper − lower of the nearest one's length
            // is within √(2·upper·δ) of it, so its direction is off by at most √(2δ / upper).
            uncertainty: (2.0 * (s.upper - s.lower) / s.upper).sqrt() + SLOPE_SLACK,
        })
    }

    fn face(&self, normal: DVec3, _face: Option<u32>) -> Option<u32> {
        self.shape.face_along(normal)
    }
}

impl SupportMap for Polytope<'_> {
    /// The corner farthest along `d`.
    fn support(&self, d: DVec3) -> DVec3 {
        let mut best = DVec3::ZERO;
        let mut best_dot = f64::NEG_INFINITY;
        for corner in self.corners {
            let dot = corner.dot(d);
            if dot > best_dot {
                best = *corner;
                best_dot = dot;
            }
        }
        best
    }
}

/// Advances the shape along `sweep` until it comes within the stop distance of the brush.
///
/// The distance from a moving convex shape to a convex brush is a convex function of time.
/// So: Newton steps on the distance first (one step for a face met head on; from before the
/// contact they never pass it, since a convex function lies above its tangents); if the
/// distance stops shrinking, the shape passes; if advancement stalls (a grazing pass),
/// bisection on the distance's slope finds the closest approach, and bisection on the
/// distance the first contact before it.
fn advance<G: Gauge>(gauge: &mut G, sweep: &Sweep) -> Contact {
    let direction = sweep.direction;
    let length = direction.length();
    let tolerance = f64::from(ADVANCE_TOLERANCE);
    let to = sweep.to;
    let mut at = |t: f64| {
        let center = sweep.start + direction * t;
        gauge.measure(center).map(|m| Probe {
            t,
            point: m.point,
            normal: m.normal,
            face: m.face,
            gap: m.distance - sweep.reach,
            uncertainty: m.uncertainty,
        })
    };
    let Some(mut probe) = at(sweep.from) else {
        return Contact::Keep;
    };
    if length <= 0.0 {
        return Contact::Miss;
    }
    let found = 'search: {
        for _ in 0..MAX_ADVANCE_STEPS {
            if probe.slope(direction) >= 0.0 {
                // Moving away: the (convex) distance only grows from here, so a shape
                // leaving a contact is not stopped by it.
                return Contact::Miss;
            }
            // Close enough when the contact is within the tolerance along the sweep, not
            // only across it: a glancing approach closes the gap slowly, and two sweeps
            // along one line must stop at the same place.
            let speed = probe.approach_speed(direction, length);
            if probe.gap * length <= tolerance * speed {
                break 'search probe;
            }
            let next = probe.t + probe.gap / speed;
            if next >= to {
                return Contact::Miss;
            }
            let Some(p) = at(next) else {
                break 'search probe;
            };
            probe = p;
        }
        // A grazing pass. The distance is convex in time, so its slope rises through zero
        // at the closest approach: bisect on the slope's sign until the distance is within
        // reach (a contact lies before that point) or the closest approach is found clear
        // (a miss).
        let resolved = |lo: f64, hi: f64| (hi - lo) * length <= tolerance;
        let mut approaching = probe;
        let Some(mut receding) = at(to) else {
            break 'search approaching;
        };
        let mut touching = (receding.gap <= tolerance).then_some(receding);
        if touching.is_none() && receding.slope(direction) < 0.0 {
            // Still approaching at the end of the interval, and clear there: a miss.
            return Contact::Miss;
        }
        for _ in 0..BISECTION_STEPS {
            if touching.is_some() || resolved(approaching.t, receding.t) {
                break;
            }
            let Some(mid) = at(0.5 * (approaching.t + receding.t)) else {
                break 'search approaching;
            };
            if mid.gap <= tolerance {
                touching = Some(mid);
            } else if mid.slope(direction) < 0.0 {
                approaching = mid;
            } else {
                receding = mid;
            }
        }
        let Some(mut inside) = touching else {
            return Contact::Miss;
        };
        // The first contact lies between the last clear approaching probe and a touching one.
        let mut outside = approaching;
        for _ in 0..BISECTION_STEPS {
            if resolved(outside.t, inside.t) {
                break;
            }
            let Some(mid) = at(0.5 * (outside.t + inside.t)) else {
                break;
            };
            if mid.gap > tolerance {
                outside = mid;
            } else {
                inside = mid;
            }
        }
        outside
    };
    found.contact(gauge.face(found.normal, found.face), sweep.from as f32)
}

/// Most halvings in each bisection: 64 reach f64 resolution on any interval of `[0, 1]`.
const BISECTION_STEPS: usize = 64;

/// The shape at one time of the sweep.
#[derive(Clone, Copy)]
struct Probe {
    t: f64,
    /// The brush's point nearest the shape.
    point: DVec3,
    /// From `point` towards the shape.
    normal: DVec3,
    face: Option<u32>,
    /// Distance to the brush minus the radius and stop distance.
    gap: f64,
    /// See [`Measure::uncertainty`].
    uncertainty: f64,
}

impl Probe {
    /// How fast the distance changes along `direction` (negative: approaching).
    fn slope(&self, direction: DVec3) -> f64 {
        self.normal.normalize_or_zero().dot(direction)
    }

    /// An upper bound on how fast the distance is shrinking here, in units per unit of
    /// fraction (`length` is the sweep's). The distance is convex in time, so it stays
    /// above its tangent line: the sweep can advance by the gap over this speed (a Newton
    /// step, never past a contact) where plain conservative advancement would divide by the
    /// whole length.
    fn approach_speed(&self, direction: DVec3, length: f64) -> f64 {
        (self.uncertainty * length - self.slope(direction)).min(length)
    }

    /// The contact at this probe; `from` is where the search started, which the fraction
    /// never goes below.
    fn contact(&self, face: Option<u32>, from: f32) -> Contact {
        let Some(normal) = self.normal.try_normalize() else {
            return Contact::Keep;
        };
        Contact::Hit {
            // Rounded down, so the f32 end is never closer than the f64 one; but not below
            // the plane-shifted fraction, which is already in front of the contact (and
            // which the caller has compared with the best hit so far).
            fraction: next_down(self.t as f32).max(from),
            face,
            tangent: Plane {
                normal: normal.as_vec3(),
                dist: normal.dot(self.point) as f32,
            },
        }
    }
}

/// The largest f32 below `x` (for positive finite `x`), or `x` itself at zero.
fn next_down(x: f32) -> f32 {
    if x > 0.0 && x.is_finite() {
        f32::from_bits(x.to_bits() - 1)
    } else {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A brush's features, owned, for tests that build brushes from planes.
    struct Owned<'p> {
        planes: &'p [FacePlane],
        corners: Vec<DVec3>,
        edges: Vec<Edge>,
    }

    impl<'p> Owned<'p> {
        fn of(planes: &'p [FacePlane]) -> Self {
            let (corners, edges) = crate::compiled::corners_and_edges(planes).unwrap();
            Owned {
                planes,
                corners,
                edges,
            }
        }

        fn polytope(&self) -> Polytope<'_> {
            let scale = self.planes.iter().fold(1.0f64, |m, p| m.max(p.1.abs()));
            Polytope::new(BrushFeatures {
                planes: self.planes,
                corners: &self.corners,
                edges: &self.edges,
                scale,
                eps: crate::tolerance::FEATURE_EPSILON * scale,
            })
            .unwrap()
        }
    }

    /// A 64-unit cube at the origin.
    fn cube() -> Vec<(DVec3, f64, u32)> {
        vec![
            (DVec3::X, 64.0, 0),
            (-DVec3::X, 0.0, 1),
            (DVec3::Y, 64.0, 2),
            (-DVec3::Y, 0.0, 3),
            (DVec3::Z, 64.0, 4),
            (-DVec3::Z, 0.0, 5),
        ]
    }

    #[test]
    fn closest_points_on_faces_edges_and_corners() {
        let planes = cube();
        let owned = Owned::of(&planes);
        let c = owned.polytope();
        assert_eq!((c.corners.len(), c.edges.len()), (8, 12));
        let (q, face, d) = c.closest(DVec3::new(32.0, 32.0, 100.0)).unwrap();
        assert_eq!((q, face, d), (DVec3::new(32.0, 32.0, 64.0), Some(4), 36.0));
        let (q, face, d) = c.closest(DVec3::new(70.0, 32.0, 70.0)).unwrap();
        assert_eq!(face, None);
        assert!((q - DVec3::new(64.0, 32.0, 64.0)).length() < 1e-9);
        assert!((d - 72f64.sqrt()).abs() < 1e-9);
        let (q, _, _) = c.closest(DVec3::new(-3.0, -4.0, -12.0)).unwrap();
        assert!(q.length() < 1e-9);
        assert!(c.closest(DVec3::splat(10.0)).is_none());
    }

    #[test]
    fn a_sphere_passing_a_corner_misses_and_one_meeting_an_edge_stops_exactly() {
        let planes = cube();
        let owned = Owned::of(&planes);
        let c = owned.polytope();
        // Diagonally past the corner (64, 64, ·) at 8.1 from the edge: no contact for r = 8.
        let off = 64.0 + 8.1 / 2f32.sqrt();
        let miss = contact(
            &c,
            &Core::Point,
            Vec3::new(off + 50.0, off - 50.0, 32.0),
            Vec3::new(off - 50.0, off + 50.0, 32.0),
            8.0,
            0.0,
            1.0,
        );
        assert!(matches!(miss, Contact::Miss));
        // Along -x towards the edge (64, ·, 64) from above-right: first contact where the
        // centre is r + skin from the edge.
        let start = Vec3::new(100.0, 32.0, 64.0 + 4.0);
        let end = Vec3::new(0.0, 32.0, 64.0 + 4.0);
        let Contact::Hit {
            fraction, tangent, ..
        } = contact(&c, &Core::Point, start, end, 8.0, 0.0, 1.0)
        else {
            panic!("hits the edge");
        };
        assert_stops_off_the_top_edge(start + (end - start) * fraction, &tangent);
    }

    /// A shape moving along −x whose lowest point is 4 above the cube's top edge (64, ·, 64)
    /// stops with that point r + skin (r = 8) from the edge, the tangent plane there.
    fn assert_stops_off_the_top_edge(center: Vec3, tangent: &Plane) {
        let reach = 8.0 + SURFACE_CLIP_EPSILON;
        let dx = (reach * reach - 16.0).sqrt();
        assert!((center.x - (64.0 + dx)).abs() < 2e-3, "{center}");
        assert!((tangent.normal - Vec3::new(dx, 0.0, 4.0).normalize()).length() < 1e-3);
    }

    fn capsule() -> Core<'static> {
        Core::Segment(DVec3::new(0.0, 0.0, 16.0))
    }

    #[test]
    fn a_capsule_passing_an_edge_misses_and_one_meeting_an_edge_stops_exactly() {
        let planes = cube();
        let owned = Owned::of(&planes);
        let c = owned.polytope();
        // Along -y past the top edge (64, ·, 64), its lower end 8.1 from the edge: no
        // contact for r = 8.
        let (a, b) = (6.0f32, (8.1f32 * 8.1 - 36.0).sqrt());
        let miss = contact(
            &c,
            &capsule(),
            Vec3::new(64.0 + a, 150.0, 64.0 + b + 16.0),
            Vec3::new(64.0 + a, -80.0, 64.0 + b + 16.0),
            8.0,
            0.0,
            1.0,
        );
        assert!(matches!(miss, Contact::Miss));
        // Along -x towards that edge, the lower end 4 above it: first contact where the end
        // is r + skin from the edge, with the tangent plane there.
        let start = Vec3::new(100.0, 32.0, 64.0 + 4.0 + 16.0);
        let end = Vec3::new(0.0, 32.0, 64.0 + 4.0 + 16.0);
        let Contact::Hit {
            fraction,
            face,
            tangent,
        } = contact(&c, &capsule(), start, end, 8.0, 0.0, 1.0)
        else {
            panic!("hits the edge");
        };
        assert_stops_off_the_top_edge(start + (end - start) * fraction, &tangent);
        assert!((tangent.dist - tangent.normal.dot(Vec3::splat(64.0))).abs() < 1e-3);
        assert_eq!(face, None);
        // Straight down onto the top face: the face's own plane.
        let start = Vec3::new(20.0, 40.0, 120.0);
        let Contact::Hit { fraction, face, .. } = contact(
            &c,
            &capsule(),
            start,
            Vec3::new(20.0, 40.0, 0.0),
            8.0,
            0.0,
            1.0,
        ) else {
            panic!("hits the top");
        };
        let z = 120.0 - 120.0 * fraction;
        assert!(
            (z - (64.0 + 16.0 + 8.0 + SURFACE_CLIP_EPSILON)).abs() < 2e-3,
            "{z}"
        );
        assert_eq!(face, Some(4));
    }

    #[test]
    fn a_capsule_is_within_the_brush_only_where_it_really_reaches_it() {
        let planes = cube();
        let owned = Owned::of(&planes);
        let c = owned.polytope();
        // Lower end diagonally off the top edge: 6·√2 ≈ 8.49 away, then 5·√2 ≈ 7.07.
        assert!(!within(
            Some(&c),
            &capsule(),
            8.0,
            Vec3::new(70.0, 32.0, 86.0)
        ));
        assert!(within(
            Some(&c),
            &capsule(),
            8.0,
            Vec3::new(69.0, 32.0, 85.0)
        ));
        // The segment itself inside.
        assert!(within(
            Some(&c),
            &capsule(),
            8.0,
            Vec3::new(32.0, 32.0, 70.0)
        ));
        assert!(within(None, &capsule(), 8.0, Vec3::splat(500.0)));
    }

    /// A tetrahedron whose edge from (−8, 0, 8) to (8, 0, −8) leads towards −(1, 0, 1).
    fn wedge() -> Vec<Vec3> {
        vec![
            Vec3::new(-8.0, 0.0, 8.0),
            Vec3::new(8.0, 0.0, -8.0),
            Vec3::new(0.0, 6.0, 6.0),
            Vec3::new(0.0, -6.0, 6.0),
        ]
    }

    #[test]
    fn a_hull_edge_meets_a_brush_edge_exactly_and_passes_one_it_misses() {
        let planes = cube();
        let owned = Owned::of(&planes);
        let c = owned.polytope();
        let points = wedge();
        let hull = Core::Points {
            points: &points,
            rotation: None,
        };
        // Towards the top edge (64, ·, 64) along −(1, 0, 1): the wedge's leading edge
        // crosses it square, so the contact is edge on edge, where plane shifting without an
        // edge × edge plane would stop 8 units early (the +x face shifted by 8).
        let start = Vec3::new(94.0, 32.0, 94.0);
        let end = Vec3::new(34.0, 32.0, 34.0);
        let Contact::Hit {
            fraction,
            face,
            tangent,
        } = contact(&c, &hull, start, end, 0.0, 0.0, 1.0)
        else {
            panic!("hits the edge");
        };
        let center = start + (end - start) * fraction;
        let s = SURFACE_CLIP_EPSILON / 2f32.sqrt();
        assert!((center.x - (64.0 + s)).abs() < 2e-3, "{center}");
        assert!((center.z - (64.0 + s)).abs() < 2e-3, "{center}");
        assert!((tangent.normal - Vec3::new(1.0, 0.0, 1.0).normalize()).length() < 1e-4);
        assert_eq!(face, None);
        // Parallel to that edge, 0.2 from it: a miss.
        let off = 64.0 + 0.2 / 2f32.sqrt();
        let miss = contact(
            &c,
            &hull,
            Vec3::new(off, -50.0, off),
            Vec3::new(off, 150.0, off),
            0.0,
            0.0,
            1.0,
        );
        assert!(matches!(miss, Contact::Miss));
        // Rotated a quarter turn about z (a rotated model): the same wedge now leads
        // towards −(0, 1, 1) in the model's frame and meets the edge (·, 64, 64) the same way.
        let quarter = glam::DMat3::from_rotation_z(-std::f64::consts::FRAC_PI_2);
        let turned = Core::Points {
            points: &points,
            rotation: Some(quarter),
        };
        let start = Vec3::new(32.0, 94.0, 94.0);
        let end = Vec3::new(32.0, 34.0, 34.0);
        let Contact::Hit { fraction, .. } = contact(&c, &turned, start, end, 0.0, 0.0, 1.0) else {
            panic!("hits the edge");
        };
        let center = start + (end - start) * fraction;
        assert!((center.y - (64.0 + s)).abs() < 2e-3, "{center}");
    }
}
