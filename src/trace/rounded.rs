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

/// Most corners and edges of a brush refined exactly (a brush of 64 faces has at most 124
/// corners and 186 edges); a brush with more keeps its plane-shifted hit.
const MAX_CORNERS: usize = 128;
const MAX_EDGES: usize = 192;

/// A brush's corners and edges, found once per refinement (on the stack) so that each
/// closest-point query costs faces² + edges + corners instead of faces⁴.
pub(crate) struct Polytope<'a> {
    planes: &'a [(DVec3, f64, u32)],
    corners: [DVec3; MAX_CORNERS],
    corner_count: usize,
    edges: [(u8, u8); MAX_EDGES],
    edge_count: usize,
    /// How far outside a plane still counts as on the brush, in units.
    eps: f64,
}

impl<'a> Polytope<'a> {
    /// The corners (points on three planes, inside all) and edges (corner pairs sharing two
    /// planes); `None` if the brush has more than the arrays hold.
    pub(crate) fn new(planes: &'a [(DVec3, f64, u32)]) -> Option<Polytope<'a>> {
        let scale = planes.iter().fold(1.0f64, |m, p| m.max(p.1.abs()));
        let mut out = Polytope {
            planes,
            corners: [DVec3::ZERO; MAX_CORNERS],
            corner_count: 0,
            edges: [(0, 0); MAX_EDGES],
            edge_count: 0,
            eps: FEATURE_EPSILON * scale,
        };
        let mut masks = [0u64; MAX_CORNERS];
        for (i, (a, da, _)) in planes.iter().enumerate() {
            for (j, (b, db, _)) in planes.iter().enumerate().skip(i + 1) {
                let ab = a.cross(*b);
                for (c, dc, _) in &planes[j + 1..] {
                    let det = ab.dot(*c);
                    if det.abs() < FEATURE_EPSILON {
                        continue;
                    }
                    let corner = (b.cross(*c) * *da + c.cross(*a) * *db + ab * *dc) / det;
                    if !out.inside(corner) {
                        continue;
                    }
                    let known = out.corners[..out.corner_count]
                        .iter()
                        .any(|k| (*k - corner).length_squared() <= out.eps * out.eps);
                    if known {
                        continue;
                    }
                    let slot = out.corner_count;
                    if slot == MAX_CORNERS {
                        return None;
                    }
                    out.corners[slot] = corner;
                    out.corner_count += 1;
                }
            }
        }
        for (slot, corner) in out.corners[..out.corner_count].iter().enumerate() {
            for (k, (n, d, _)) in planes.iter().enumerate() {
                if (n.dot(*corner) - d).abs() <= out.eps && k < 64 {
                    masks[slot] |= 1 << k;
                }
            }
        }
        for a in 0..out.corner_count {
            for b in a + 1..out.corner_count {
                if (masks[a] & masks[b]).count_ones() >= 2 {
                    if out.edge_count == MAX_EDGES {
                        return None;
                    }
                    out.edges[out.edge_count] = (a as u8, b as u8);
                    out.edge_count += 1;
                }
            }
        }
        Some(out)
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
            let q = p - *n * (n.dot(p) - d);
            if self.inside(q) {
                consider(q, Some(*id));
            }
        }
        for &(a, b) in &self.edges[..self.edge_count] {
            let (a, b) = (self.corners[a as usize], self.corners[b as usize]);
            let ab = b - a;
            let s = (ab.dot(p - a) / ab.length_squared().max(f64::MIN_POSITIVE)).clamp(0.0, 1.0);
            consider(a + ab * s, None);
        }
        for corner in &self.corners[..self.corner_count] {
            consider(*corner, None);
        }
        best.map(|(q, face, gap)| (q, face, gap.sqrt()))
    }
}

/// Advances a sphere of `radius` from `start` towards `end` over fractions `from..to`, until
/// it comes within the stop distance of the brush `shape`.
///
/// The distance from a moving point to a convex brush is a convex function of time. So:
/// conservative advancement first (one step for a face met head on); if the distance stops
/// shrinking, the sphere passes; if advancement stalls (a grazing pass), bisection on the
/// distance's slope finds the closest approach, and bisection on the distance the first
/// contact before it.
pub(crate) fn sphere_contact(
    shape: &Polytope<'_>,
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
        shape.closest(center).map(|(point, face, distance)| Probe {
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
        let planes = cube();
        let c = Polytope::new(&planes).unwrap();
        assert_eq!((c.corner_count, c.edge_count), (8, 12));
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
        let c = Polytope::new(&planes).unwrap();
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
