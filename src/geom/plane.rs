//! [`BuildPlane`]: an f64 plane `n·x = dist` built from three points, and its snapping onto
//! the axes.
//!
//! Takes three points in the order a `.map` face gives them, gives the plane they define
//! exactly, whose normal is `normalize((p0 − p1) × (p2 − p1))` (pointing out of the brush),
//! or `None` when the points are collinear. Snapping is a separate step
//! ([`BuildPlane::snapped`]) that needs the face's polygon: a normal goes onto an axis (or
//! loses a component) only when no corner of the face moves by more than
//! [`SNAP_MOVE_EPSILON`], so a face a little off an axis stays where the file put it, and one
//! that is axial to within that distance becomes exactly axial, which the f32 runtime and
//! box bevels rely on. Guarantees: unit finite normal; no `-0.0` anywhere.

use glam::DVec3;
use serde::{Deserialize, Serialize};

use crate::tolerance::{
    CLIP_EPSILON, DIST_EPSILON, MIN_CROSS_LENGTH, NORMAL_EPSILON, SNAP_MOVE_EPSILON,
};

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
    /// The plane through three face points, oriented as qbsp does, not snapped; `None` when
    /// collinear. See [`BuildPlane::snapped`] for snapping once the face's polygon is known.
    #[must_use]
    pub fn from_points(p0: DVec3, p1: DVec3, p2: DVec3) -> Option<Self> {
        let cross = (p0 - p1).cross(p2 - p1);
        let length = cross.length();
        if !length.is_finite() || length < MIN_CROSS_LENGTH {
            return None;
        }
        let normal = cross / length + DVec3::ZERO;
        let dist = normal.dot(p1);
        dist.is_finite().then_some(BuildPlane {
            normal,
            dist: dist + 0.0,
        })
    }

    /// This plane snapped for the face whose corners are `points`: onto the axis its normal
    /// is nearest, or else with its smallest normal component zeroed, with the distance
    /// re-derived from the corners (q3map2 `SnapPlaneImproved`), whichever first moves no
    /// corner by more than [`SNAP_MOVE_EPSILON`]; itself when neither does.
    ///
    /// The test is on the corners, not on the normal's components: a normal's component
    /// differs from ±1 by about θ²/2 at an angle θ off the axis, so a component test snaps
    /// faces far off an axis, and how far that moves a face grows with the face's size.
    #[must_use]
    pub fn snapped(&self, points: &[DVec3]) -> BuildPlane {
        let n = self.normal;
        let a = n.abs();
        let axis = if a.x >= a.y && a.x >= a.z {
            0
        } else if a.y >= a.z {
            1
        } else {
            2
        };
        let mut axial = DVec3::ZERO;
        axial[axis] = n[axis].signum();
        let smallest = (0..3)
            .filter(|&k| n[k] != 0.0)
            .min_by(|&i, &j| a[i].total_cmp(&a[j]));
        let mut thinned = n;
        if let Some(k) = smallest {
            thinned[k] = 0.0;
        }
        for candidate in [axial, thinned] {
            if candidate == n {
                continue;
            }
            let Some(unit) = candidate.try_normalize() else {
                continue;
            };
            let (lo, hi) = points
                .iter()
                .map(|p| unit.dot(*p))
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), d| {
                    (lo.min(d), hi.max(d))
                });
            let Some(plane) = BuildPlane::from_normal_dist(unit, 0.5 * (lo + hi)) else {
                continue;
            };
            if points
                .iter()
                .all(|p| plane.distance(*p).abs() <= SNAP_MOVE_EPSILON)
            {
                return plane;
            }
        }
        *self
    }

    /// A plane from a normal (normalised here, components below [`NORMAL_EPSILON`] zeroed) and
    /// a distance (rounded to a whole unit within [`CLIP_EPSILON`]); `None` when the normal is
    /// zero or anything is not finite.
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

/// Cleans a unit normal: components below [`NORMAL_EPSILON`] (about the angle, in radians,
/// that each tilts the normal by) are zeroed and the rest renormalised, so a normal within
/// that angle of an axis is exactly that axis. Clears `-0.0`.
fn snap_normal(n: DVec3) -> DVec3 {
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

    /// The corners of a square face of half-side `h` on the plane, about `centre`.
    fn square_on(plane: &BuildPlane, centre: DVec3, h: f64) -> Vec<DVec3> {
        let u = plane.normal.any_orthonormal_vector();
        let v = plane.normal.cross(u);
        let c = centre - plane.normal * plane.distance(centre);
        [(-h, -h), (h, -h), (h, h), (-h, h)]
            .map(|(a, b)| c + u * a + v * b)
            .to_vec()
    }

    #[test]
    fn snapping_moves_no_corner_beyond_its_tolerance() {
        // 0.0005 rad off +x over a 64-unit face: a corner would move 0.016, so the face keeps
        // its tilt (a component test, 1 − cos θ ≈ 1.25e-7 < 1e-6, snapped it).
        let (s, c) = 0.0005f64.sin_cos();
        let tilted = BuildPlane::from_normal_dist(DVec3::new(c, s, 0.0), 256.0).unwrap();
        let corners = square_on(&tilted, DVec3::new(256.0, 0.0, 64.0), 32.0);
        assert_eq!(tilted.snapped(&corners), tilted);
        // Editor noise: a face written through 127.99999 is axial within 1e-5 and snaps,
        // with its distance re-derived from the corners.
        let noisy = BuildPlane::from_points(
            DVec3::new(128.0, 0.0, 0.0),
            DVec3::new(127.99999, 64.0, 0.0),
            DVec3::new(128.0, 64.0, 64.0),
        )
        .unwrap();
        let corners = square_on(&noisy, DVec3::new(128.0, 32.0, 32.0), 32.0);
        let snapped = noisy.snapped(&corners);
        assert_eq!(snapped.normal.abs(), DVec3::X);
        assert!((snapped.dist.abs() - 128.0).abs() < 1e-4, "{snapped:?}");
        // A diagonal normal with a tiny third component loses only that component.
        let n = DVec3::new(1.0, 1.0, 1e-5).normalize();
        let diagonal = BuildPlane::from_normal_dist(n, 100.0).unwrap();
        let corners = square_on(&diagonal, DVec3::new(70.0, 70.0, 0.0), 32.0);
        let snapped = diagonal.snapped(&corners);
        assert_eq!(snapped.normal.z, 0.0);
        assert!((snapped.normal.x - snapped.normal.y).abs() < 1e-15);
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
