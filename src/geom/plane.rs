//! [`BuildPlane`]: an f64 plane `n·x = dist` built from three points, snapped when near-axial.
//!
//! Takes three points in the order a `.map` face gives them, gives a plane whose normal is
//! `normalize((p0 − p1) × (p2 − p1))` (pointing out of the brush), or `None` when the
//! points are collinear. Guarantees: unit finite normal; a normal within
//! [`NORMAL_EPSILON`] of an axis is exactly that axis, with `dist` re-derived from the
//! points' centroid (snap before any validity check); no `-0.0` anywhere.

use glam::DVec3;
use serde::{Deserialize, Serialize};

use crate::tolerance::{CLIP_EPSILON, DIST_EPSILON, MIN_CROSS_LENGTH, NORMAL_EPSILON};

/// The orientation class of a plane, for fast paths and heuristics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PlaneKind {
    /// Normal is ±X.
    AxialX,
    /// Normal is ±Y.
    AxialY,
    /// Normal is ±Z.
    AxialZ,
    /// Any other normal.
    NonAxial,
}

/// A plane in f64: points `x` with `normal·x == dist`; solid lies where `normal·x < dist`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BuildPlane {
    /// Unit normal, pointing out of solid.
    pub normal: DVec3,
    /// Offset along the normal.
    pub dist: f64,
}

impl BuildPlane {
    /// The plane through three face points, oriented as qbsp does; `None` when collinear.
    #[must_use]
    pub fn from_points(p0: DVec3, p1: DVec3, p2: DVec3) -> Option<Self> {
        let cross = (p0 - p1).cross(p2 - p1);
        let length = cross.length();
        if !length.is_finite() || length < MIN_CROSS_LENGTH {
            return None;
        }
        let raw = cross / length;
        let normal = snap_normal(raw);
        let dist = if normal == raw {
            normal.dot(p1)
        } else {
            // Snapped: re-derive the distance from all three points so that the snap does
            // not tilt the plane about p1 (q3map2 SnapPlaneImproved).
            normal.dot((p0 + p1 + p2) / 3.0)
        };
        Self::from_normal_dist(normal, dist)
    }

    /// A plane from a normal (normalised and snapped here) and a distance; `None` when the
    /// normal is zero or anything is not finite.
    #[must_use]
    pub fn from_normal_dist(normal: DVec3, dist: f64) -> Option<Self> {
        let normal = snap_normal(normal.try_normalize()?);
        if !dist.is_finite() {
            return None;
        }
        let rounded = dist.round();
        let dist = if (dist - rounded).abs() < CLIP_EPSILON {
            rounded
        } else {
            dist
        };
        Some(BuildPlane {
            normal,
            dist: dist + 0.0,
        })
    }

    /// Signed distance of `p` from the plane: positive in front (outside).
    #[must_use]
    pub fn distance(&self, p: DVec3) -> f64 {
        self.normal.dot(p) - self.dist
    }

    /// The same plane facing the other way.
    #[must_use]
    pub fn flipped(&self) -> Self {
        BuildPlane {
            normal: -self.normal + DVec3::ZERO,
            dist: -self.dist + 0.0,
        }
    }

    /// Whether `other` is this plane within [`NORMAL_EPSILON`] and [`DIST_EPSILON`].
    #[must_use]
    pub fn is_same(&self, other: &BuildPlane) -> bool {
        (self.normal - other.normal).abs().max_element() < NORMAL_EPSILON
            && (self.dist - other.dist).abs() < DIST_EPSILON
    }

    /// The orientation class.
    #[must_use]
    pub fn kind(&self) -> PlaneKind {
        let n = self.normal.abs();
        if n.x == 1.0 {
            PlaneKind::AxialX
        } else if n.y == 1.0 {
            PlaneKind::AxialY
        } else if n.z == 1.0 {
            PlaneKind::AxialZ
        } else {
            PlaneKind::NonAxial
        }
    }
}

/// Snaps a unit normal: onto an axis when a component is within [`NORMAL_EPSILON`] of ±1;
/// otherwise zeroes components below [`NORMAL_EPSILON`] and renormalises. Clears `-0.0`.
fn snap_normal(n: DVec3) -> DVec3 {
    for axis in 0..3 {
        if (n[axis].abs() - 1.0).abs() < NORMAL_EPSILON {
            let mut snapped = DVec3::ZERO;
            snapped[axis] = n[axis].signum();
            return snapped;
        }
    }
    let cleaned = DVec3::select(n.abs().cmplt(DVec3::splat(NORMAL_EPSILON)), DVec3::ZERO, n);
    cleaned.try_normalize().unwrap_or(n) + DVec3::ZERO
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quake_face_points_give_outward_normals() {
        // map-format.md 2.2: this box brush spans x in [32, 80].
        let left = BuildPlane::from_points(
            DVec3::new(32.0, -256.0, 112.0),
            DVec3::new(32.0, -255.0, 112.0),
            DVec3::new(32.0, -256.0, 113.0),
        );
        let right = BuildPlane::from_points(
            DVec3::new(80.0, -576.0, 96.0),
            DVec3::new(80.0, -576.0, 97.0),
            DVec3::new(80.0, -575.0, 96.0),
        );
        assert_eq!(
            left,
            Some(BuildPlane {
                normal: DVec3::NEG_X,
                dist: -32.0
            })
        );
        assert_eq!(
            right,
            Some(BuildPlane {
                normal: DVec3::X,
                dist: 80.0
            })
        );
    }

    #[test]
    fn collinear_points_give_no_plane() {
        let p = DVec3::new(1.0, 2.0, 3.0);
        assert_eq!(BuildPlane::from_points(p, p * 2.0, p * 3.0), None);
    }

    #[test]
    fn near_axial_normals_snap_and_keep_no_negative_zero() {
        let plane = BuildPlane::from_normal_dist(DVec3::new(1e-9, -1e-12, -1.0), -0.0).unwrap_or(
            BuildPlane {
                normal: DVec3::X,
                dist: 1.0,
            },
        );
        assert_eq!(plane.normal, DVec3::NEG_Z);
        assert_eq!(plane.normal.x.to_bits(), 0.0f64.to_bits());
        assert_eq!(plane.dist.to_bits(), 0.0f64.to_bits());
    }
}
