//! The contact search: where a core rounded by a radius, swept towards a brush, first comes
//! within the stop distance, by safe Newton steps on the exact distance, then bisection for
//! grazing passes (see the guarantees in the module doc of `rounded`).
//!
//! Takes a [`Polytope`], a [`Core`], a radius and the interval plane shifting allows; gives a
//! [`Contact`]. Guarantees: never later than the exact contact, within
//! [`ADVANCE_TOLERANCE`] of it, deterministic.

use glam::{DVec3, Vec3};

use super::Contact;
use super::core::Core;
use super::cylinder;
use super::polytope::Polytope;
use crate::compiled::Plane;
use crate::tolerance::{ADVANCE_TOLERANCE, MAX_ADVANCE_STEPS, SLOPE_SLACK, SURFACE_CLIP_EPSILON};
use crate::trace::gjk::{self, Simplex};

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
        // An unrotated cylinder against a brush with edges: its closest features
        // (`cylinder.rs`), which GJK approaches slowly on the rim.
        &Core::Cylinder {
            radius,
            half_height,
            rotation: None,
        } if !shape.edges.is_empty() => advance(
            &mut CylinderGauge {
                shape,
                radius,
                half_height,
            },
            &sweep,
        ),
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

/// An upright cylinder: its closest features in closed form (Newton steps along sloped
/// edges), as exact as a sphere's.
struct CylinderGauge<'p, 'a> {
    shape: &'p Polytope<'a>,
    radius: f64,
    half_height: f64,
}

impl Gauge for CylinderGauge<'_, '_> {
    fn measure(&mut self, center: DVec3) -> Option<Measure> {
        cylinder::nearest(self.shape, center, self.radius, self.half_height).map(|n| Measure {
            point: n.brush,
            normal: n.shape - n.brush,
            face: n.face,
            distance: n.distance,
            uncertainty: SLOPE_SLACK,
        })
    }

    fn face(&self, normal: DVec3, _face: Option<u32>) -> Option<u32> {
        // As GJK's gauge reports it: by the contact's direction.
        self.shape.face_along(normal)
    }
}

/// A segment, a point set or a rotated cylinder: GJK, warm-started along the sweep.
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
