//! Exact sphere contacts: where a sphere swept through a brush really first comes within the
//! stop distance, found by conservative advancement on the exact distance to the brush.
//!
//! Takes a brush (its face planes), the sweep, the sphere's radius and the interval in which
//! plane shifting says the sphere can touch the brush; gives the first contact in that
//! interval, or that there is none. Plane shifting with bevels is conservative for round
//! shapes: near convex edges and corners the shifted planes reach past the true Minkowski sum
//! (up to (κ − 1)·r), so a sphere stops early there and reports a bevel's normal. This module
//! removes that error for spheres.
//!
//! Guarantees:
//! - never later than the exact time of contact: the sweep advances by the exact distance
//!   minus the radius and stop distance each step, and the distance changes no faster than
//!   the sweep moves, so no step can pass a contact;
//! - within [`ADVANCE_TOLERANCE`] of the exact contact, or conservative (earlier) after
//!   [`MAX_ADVANCE_STEPS`];
//! - the normal is the true contact normal: the face's own plane when the closest point lies
//!   inside a face, else the direction from the closest edge or corner point to the centre.
//!
//! The closest point of a convex brush lies on one face, one edge (two planes) or one corner
//! (three planes); trying each and keeping the nearest feasible one is exact. It runs in f64.

use glam::{DVec3, Vec3};

use crate::compiled::Plane;
use crate::tolerance::{
    ADVANCE_TOLERANCE, FEATURE_EPSILON, MAX_ADVANCE_STEPS, SURFACE_CLIP_EPSILON,
};

/// The outcome of refining a plane-shifted hit.
pub(crate) enum Contact {
    /// The sphere passes the brush in the interval: no contact.
    Miss,
    /// No refinement possible (the centre is already inside the brush): keep the
    /// plane-shifted hit.
    Keep,
    /// First contact at `fraction`; `face` is the face plane's index when the contact is
    /// inside a face, else `tangent` is the tangent plane through the contact point.
    Hit {
        fraction: f32,
        face: Option<u32>,
        tangent: Plane,
    },
}

/// The nearest point of the brush to `p`: the point, which face (if inside one face), and
/// the distance. `None` when `p` is inside the brush.
fn closest(planes: &[(DVec3, f64, u32)], p: DVec3) -> Option<(DVec3, Option<u32>, f64)> {
    let scale = p.abs().max_element().max(1.0);
    let eps = FEATURE_EPSILON * scale;
    let inside = |q: DVec3| planes.iter().all(|(n, d, _)| n.dot(q) <= d + eps);
    if inside(p) {
        return None;
    }
    let mut best: Option<(DVec3, Option<u32>, f64)> = None;
    let mut consider = |q: DVec3, face: Option<u32>| {
        let gap = (q - p).length_squared();
        if best.is_none_or(|(_, _, g)| gap < g) && inside(q) {
            best = Some((q, face, gap));
        }
    };
    for (n, d, id) in planes {
        consider(p - *n * (n.dot(p) - d), Some(*id));
    }
    for (i, (a, da, _)) in planes.iter().enumerate() {
        for (b, db, _) in &planes[i + 1..] {
            let u = a.cross(*b);
            let uu = u.length_squared();
            if uu < FEATURE_EPSILON {
                continue;
            }
            // A point on both planes, then p projected onto their line.
            let on_line = (b.cross(u) * *da + u.cross(*a) * *db) / uu;
            consider(on_line + u * (u.dot(p - on_line) / uu), None);
        }
    }
    for (i, (a, da, _)) in planes.iter().enumerate() {
        for (j, (b, db, _)) in planes.iter().enumerate().skip(i + 1) {
            let ab = a.cross(*b);
            for (c, dc, _) in &planes[j + 1..] {
                let det = ab.dot(*c);
                if det.abs() < FEATURE_EPSILON {
                    continue;
                }
                let corner = (b.cross(*c) * *da + c.cross(*a) * *db + ab * *dc) / det;
                consider(corner, None);
            }
        }
    }
    best.map(|(q, face, gap)| (q, face, gap.sqrt()))
}

/// The distance from `p` to the brush (0 inside it).
pub(crate) fn sphere_distance(planes: &[(DVec3, f64, u32)], p: Vec3) -> f64 {
    closest(planes, p.as_dvec3()).map_or(0.0, |(_, _, distance)| distance)
}

/// Advances a sphere of `radius` from `start` towards `end` over fractions `from..to`, until
/// it comes within the stop distance of the brush whose face planes are `planes` (unit
/// normal, distance, plane index).
///
/// The distance from a moving point to a convex brush is a convex function of time. So:
/// conservative advancement first (one step for a face met head on); if the distance stops
/// shrinking, the sphere passes; if advancement stalls (a grazing pass), a golden-section
/// search finds the closest approach, and bisection the first contact before it.
pub(crate) fn sphere_contact(
    planes: &[(DVec3, f64, u32)],
    start: Vec3,
    end: Vec3,
    radius: f32,
    from: f32,
    to: f32,
) -> Contact {
    let (start, end) = (start.as_dvec3(), end.as_dvec3());
    let direction = end - start;
    let length = direction.length();
    let reach = f64::from(radius) + f64::from(SURFACE_CLIP_EPSILON);
    let tolerance = f64::from(ADVANCE_TOLERANCE);
    let to = f64::from(to);
    let at = |t: f64| {
        let center = start + direction * t;
        closest(planes, center).map(|(point, face, distance)| Probe {
            t,
            center,
            point,
            face,
            gap: distance - reach,
        })
    };
    let Some(mut probe) = at(f64::from(from)) else {
        return Contact::Keep;
    };
    if length <= 0.0 {
        return Contact::Miss;
    }
    for _ in 0..MAX_ADVANCE_STEPS {
        if probe.slope(direction) >= 0.0 {
            // Moving away: the (convex) distance only grows from here, so a sphere leaving
            // a contact is not stopped by it.
            return Contact::Miss;
        }
        if probe.gap <= tolerance {
            return probe.contact();
        }
        let next = probe.t + probe.gap / length;
        if next >= to {
            return Contact::Miss;
        }
        let Some(p) = at(next) else {
            return probe.contact();
        };
        probe = p;
    }
    // A grazing pass. The distance is convex in time, so its slope rises through zero at the
    // closest approach: bisect on the slope's sign until the distance is within reach (a
    // contact lies before that point) or the closest approach is found clear (a miss).
    let resolved = |lo: f64, hi: f64| (hi - lo) * length <= tolerance;
    let mut approaching = probe;
    let Some(mut receding) = at(to) else {
        return approaching.contact();
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
            return approaching.contact();
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
    outside.contact()
}

/// Most halvings in each bisection: 64 reach f64 resolution on any interval of `[0, 1]`.
const BISECTION_STEPS: usize = 64;

/// The sphere at one time of the sweep.
#[derive(Clone, Copy)]
struct Probe {
    t: f64,
    center: DVec3,
    point: DVec3,
    face: Option<u32>,
    /// Distance to the brush minus the radius and stop distance.
    gap: f64,
}

impl Probe {
    /// How fast the distance changes along `direction` (negative: approaching).
    fn slope(&self, direction: DVec3) -> f64 {
        (self.center - self.point)
            .normalize_or_zero()
            .dot(direction)
    }

    fn contact(&self) -> Contact {
        let Some(normal) = (self.center - self.point).try_normalize() else {
            return Contact::Keep;
        };
        Contact::Hit {
            // Rounded down, so the f32 end is never closer than the f64 one.
            fraction: next_down(self.t as f32),
            face: self.face,
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
        let c = cube();
        let (q, face, d) = closest(&c, DVec3::new(32.0, 32.0, 100.0)).unwrap();
        assert_eq!((q, face, d), (DVec3::new(32.0, 32.0, 64.0), Some(4), 36.0));
        let (q, face, d) = closest(&c, DVec3::new(70.0, 32.0, 70.0)).unwrap();
        assert_eq!(face, None);
        assert!((q - DVec3::new(64.0, 32.0, 64.0)).length() < 1e-9);
        assert!((d - 72f64.sqrt()).abs() < 1e-9);
        let (q, _, _) = closest(&c, DVec3::new(-3.0, -4.0, -12.0)).unwrap();
        assert!(q.length() < 1e-9);
        assert!(closest(&c, DVec3::splat(10.0)).is_none());
    }

    #[test]
    fn a_sphere_passing_a_corner_misses_and_one_meeting_an_edge_stops_exactly() {
        let c = cube();
        // Diagonally past the corner (64, 64, ·) at 8.1 from the edge: no contact for r = 8.
        let off = 64.0 + 8.1 / 2f32.sqrt();
        let miss = sphere_contact(
            &c,
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
        } = sphere_contact(&c, start, end, 8.0, 0.0, 1.0)
        else {
            panic!("hits the edge");
        };
        let center = start + (end - start) * fraction;
        let reach = 8.0 + SURFACE_CLIP_EPSILON;
        let dx = (reach * reach - 16.0).sqrt();
        assert!((center.x - (64.0 + dx)).abs() < 2e-3, "{center}");
        assert!((tangent.normal - Vec3::new(dx, 0.0, 4.0).normalize()).length() < 1e-3);
    }
}
