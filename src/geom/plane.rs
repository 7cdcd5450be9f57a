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
    /// The plane through three face points, oriented as qbsp does, not snapped (its distance
    /// rounded to a whole unit within [`CLIP_EPSILON`]); `None` when collinear. See [`BuildPlane::snapped`] for snapping once the face's polygon is known.
    #[must_use]
    pub fn from_points(p0: DVec3, p1: DVec3, p2: DVec3) -> Option<Self> {
        let cross = (p0 - p1).cross(p2 - p1);
        let length = cross.length();
        if !length.is_finite() || length < MIN_CROSS_LENGTH {
            return None;
        }
        let normal = cross / length + DVec3::ZERO;
        let dist = normal.dot(p1);
        let rounded = dist.round();
        let dist = if (dist - rounded).abs() < CLIP_EPSILON {
            rounded
        } else {
            dist
        };
        dist.is_finite().then_some(BuildPlane {
            normal,
            dist: dist + 0.0,
        })
    }

    /// This plane snapped for the face written through `face` (its three points) whose
    /// corners are `corners`: the normal as qbsp and q3map2 snap it (onto an axis when a
    /// component is within [`NORMAL_EPSILON`] of ±1, else components below that zeroed), with
    /// the distance from the three points' centroid (q3map2 `SnapPlaneImproved`), else
    /// halfway between the corners' extremes, rounded to a whole unit or not, whichever first
    /// moves no corner by more than [`SNAP_MOVE_EPSILON`]; itself when none does.
    ///
    /// The decision is on the corners, not on the normal's components: a component differs
    /// from ±1 by about θ²/2 at an angle θ off the axis, so the component test alone snaps
    /// faces up to 1.4e-3 rad off an axis, which moves a 512-unit face by a third of a unit.
    #[must_use]
    pub fn snapped(&self, face: [DVec3; 3], corners: &[DVec3]) -> BuildPlane {
        let n = self.normal;
        let candidate = component_snap(n);
        if candidate == n {
            return *self;
        }
        let centroid = (face[0] + face[1] + face[2]) / 3.0;
        let (lo, hi) = corners
            .iter()
            .map(|p| candidate.dot(*p))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), d| {
                (lo.min(d), hi.max(d))
            });
        let mid = 0.5 * (lo + hi);
        for dist in [candidate.dot(centroid), mid.round(), mid] {
            let Some(plane) = BuildPlane::from_normal_dist(candidate, dist) else {
                continue;
            };
            if corners
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

/// The snap qbsp and q3map2 apply to a unit normal (`SnapVector`): onto an axis when a
/// component is within [`NORMAL_EPSILON`] of ±1, else [`snap_normal`]. Only a candidate for
/// [`BuildPlane::snapped`], which checks how far it moves the face.
fn component_snap(n: DVec3) -> DVec3 {
    for axis in 0..3 {
        if (n[axis].abs() - 1.0).abs() < NORMAL_EPSILON {
            let mut snapped = DVec3::ZERO;
            snapped[axis] = n[axis].signum();
            return snapped;
        }
    }
    snap_normal(n)
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
        // its tilt (the component test, 1 − cos θ ≈ 1.25e-7 < 1e-6, snapped it).
        let (s, c) = 0.0005f64.sin_cos();
        let tilted = BuildPlane::from_normal_dist(DVec3::new(c, s, 0.0), 256.0).unwrap();
        let corners = square_on(&tilted, DVec3::new(256.0, 0.0, 64.0), 32.0);
        let face = [corners[0], corners[1], corners[2]];
        assert_eq!(tilted.snapped(face, &corners), tilted);
        // Editor noise: a face written through 127.99999 is axial within 1e-5 and snaps.
        let face = [
            DVec3::new(128.0, 0.0, 0.0),
            DVec3::new(127.99999, 64.0, 0.0),
            DVec3::new(128.0, 64.0, 64.0),
        ];
        let noisy = BuildPlane::from_points(face[0], face[1], face[2]).unwrap();
        let corners = square_on(&noisy, DVec3::new(128.0, 32.0, 32.0), 32.0);
        let snapped = noisy.snapped(face, &corners);
        assert_eq!(snapped.normal.abs(), DVec3::X);
        assert!((snapped.dist.abs() - 128.0).abs() < 1e-4, "{snapped:?}");
        // A diagonal normal with a component below NORMAL_EPSILON loses only that component.
        let n = DVec3::new(1.0, 1.0, 1e-6).normalize();
        let diagonal = BuildPlane {
            normal: n,
            dist: 100.0,
        };
        let corners = square_on(&diagonal, DVec3::new(70.0, 70.0, 0.0), 32.0);
        let face = [corners[0], corners[1], corners[2]];
        let snapped = diagonal.snapped(face, &corners);
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
