//! [`Winding`]: a convex polygon lying on a plane, in f64, cut from a huge square.
//!
//! Takes a [`BuildPlane`] and clipping planes, gives the polygon that remains. Guarantees:
//! points stay on the winding's plane up to rounding; clipping keeps convexity; a winding
//! clipped away entirely is reported as `None`, never as a degenerate polygon of fewer than
//! three points.

use glam::DVec3;

use super::BuildPlane;
use crate::tolerance::BASE_WINDING_EXTENT;

/// A convex polygon on a plane, points in order around it.
#[derive(Clone, Debug, PartialEq)]
pub struct Winding {
    /// The corners, in order.
    pub points: Vec<DVec3>,
}

/// Which side of a plane a point lies on, within an epsilon.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Front,
    Back,
    On,
}

impl Winding {
    /// A square of half-side [`BASE_WINDING_EXTENT`] on `plane`, centred on the point of the
    /// plane nearest the origin (Quake's `BaseWindingForPlane`).
    #[must_use]
    pub fn base_for_plane(plane: &BuildPlane) -> Winding {
        Winding {
            points: base_square(plane.normal, plane.dist).to_vec(),
        }
    }

    /// The part of the winding behind `plane` (where solid is), or `None` when nothing is
    /// left. Points within `epsilon` of the plane count as on it and are kept.
    #[must_use]
    pub fn clipped_behind(&self, plane: &BuildPlane, epsilon: f64) -> Option<Winding> {
        self.split(plane, epsilon).1
    }

    /// Splits by `plane` into the front and back parts; `None` for an empty part. A winding
    /// lying on the plane goes to the side its own orientation is unknown to, so callers must
    /// not split a winding by its own plane.
    #[must_use]
    pub fn split(&self, plane: &BuildPlane, epsilon: f64) -> (Option<Winding>, Option<Winding>) {
        let dists: Vec<f64> = self.points.iter().map(|&p| plane.distance(p)).collect();
        let sides: Vec<Side> = dists
            .iter()
            .map(|&d| {
                if d > epsilon {
                    Side::Front
                } else if d < -epsilon {
                    Side::Back
                } else {
                    Side::On
                }
            })
            .collect();
        let any_front = sides.contains(&Side::Front);
        let any_back = sides.contains(&Side::Back);
        if !any_front && !any_back {
            return (None, None);
        }
        if !any_front {
            return (None, Some(self.clone()));
        }
        if !any_back {
            return (Some(self.clone()), None);
        }
        let mut front = Vec::with_capacity(self.points.len() + 2);
        let mut back = Vec::with_capacity(self.points.len() + 2);
        let count = self.points.len();
        for i in 0..count {
            let p = self.points[i];
            match sides[i] {
                Side::On => {
                    front.push(p);
                    back.push(p);
                    continue;
                }
                Side::Front => front.push(p),
                Side::Back => back.push(p),
            }
            let j = (i + 1) % count;
            if sides[j] == Side::On || sides[j] == sides[i] {
                continue;
            }
            let q = self.points[j];
            let t = dists[i] / (dists[i] - dists[j]);
            let mut mid = p + (q - p) * t;
            // Keep axis-aligned splits exact: the crossing lies exactly on the plane there.
            for axis in 0..3 {
                if plane.normal[axis] == 1.0 {
                    mid[axis] = plane.dist;
                } else if plane.normal[axis] == -1.0 {
                    mid[axis] = -plane.dist;
                }
            }
            front.push(mid);
            back.push(mid);
        }
        (Winding::from_points(front), Winding::from_points(back))
    }

    fn from_points(points: Vec<DVec3>) -> Option<Winding> {
        (points.len() >= 3).then_some(Winding { points })
    }

    /// The polygon's area.
    #[must_use]
    pub fn area(&self) -> f64 {
        let Some(&first) = self.points.first() else {
            return 0.0;
        };
        let mut twice = DVec3::ZERO;
        for pair in self.points[1..].windows(2) {
            twice += (pair[0] - first).cross(pair[1] - first);
        }
        twice.length() * 0.5
    }
}

/// The corners, in winding order, of a square of half-side [`BASE_WINDING_EXTENT`] on the
/// plane `n·x = d` (unit `n`) centred on the plane's point nearest the origin (Quake's
/// `BaseWindingForPlane`); the world axis least aligned with the normal gives a
/// well-conditioned basis.
#[must_use]
pub(crate) fn base_square(n: DVec3, d: f64) -> [DVec3; 4] {
    let a = n.abs();
    let up = if a.z >= a.x && a.z >= a.y {
        DVec3::X
    } else {
        DVec3::Z
    };
    let up = (up - n * up.dot(n)).normalize_or_zero() * BASE_WINDING_EXTENT;
    let right = up.cross(n).normalize_or_zero() * BASE_WINDING_EXTENT;
    let origin = n * d;
    [
        origin - right + up,
        origin + right + up,
        origin + right - up,
        origin - right - up,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping_a_base_winding_to_a_box_face_leaves_the_face() {
        let top = BuildPlane::from_normal_dist(DVec3::Z, 16.0).unwrap();
        let mut w = Winding::base_for_plane(&top);
        for (n, d) in [
            (DVec3::X, 8.0),
            (DVec3::NEG_X, 8.0),
            (DVec3::Y, 4.0),
            (DVec3::NEG_Y, 4.0),
        ] {
            let plane = BuildPlane::from_normal_dist(n, d).unwrap();
            w = w.clipped_behind(&plane, 1e-9).unwrap();
        }
        assert!((w.area() - 16.0 * 8.0).abs() < 1e-6);
        assert_eq!(w.points.len(), 4);
        assert!(w.points.iter().all(|p| p.z == 16.0));
    }
}
