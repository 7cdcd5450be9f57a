//! A brush as exact contacts see it: [`Polytope`], its f64 face planes, corners and edges
//! (from the load-time feature table), with closest points and the overlap test [`within`].
//!
//! Takes a brush's [`BrushFeatures`] and a core; gives exact closest points and distances.
//! Guarantees: a closest point lies on the brush within the feature table's tolerance, and
//! is the nearest of the face, edge and corner candidates.

use glam::{DVec3, Vec3};

use super::core::Core;
use crate::compiled::{BrushFeatures, Edge, StoredPlane};
use crate::tolerance::FACE_NORMAL_EPSILON;
use crate::trace::gjk::{self, Simplex, SupportMap};

/// A brush as exact contacts see it: its face planes (stored in f32, computed with in f64,
/// exactly), corners and edges, derived once at load (`compiled::features`), so each
/// closest-point query costs faces² + edges + corners.
pub(crate) struct Polytope<'a> {
    pub(super) planes: &'a [StoredPlane],
    pub(super) corners: &'a [DVec3],
    pub(super) edges: &'a [Edge],
    /// The magnitude of the brush's coordinates (at least 1), in units.
    pub(super) scale: f64,
    /// How far outside a plane still counts as on the brush, in units.
    pub(super) eps: f64,
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
    pub(super) fn scale_at(&self, center: DVec3) -> f64 {
        self.scale.max(center.abs().max_element())
    }

    /// The face whose outward normal is `normal`'s direction (within
    /// [`FACE_NORMAL_EPSILON`]), if any.
    pub(super) fn face_along(&self, normal: DVec3) -> Option<u32> {
        let n = normal.try_normalize()?;
        self.planes
            .iter()
            .find(|(m, _, _)| m.as_dvec3().dot(n) >= 1.0 - FACE_NORMAL_EPSILON)
            .map(|(_, _, id)| *id)
    }

    /// Whether `q` is inside every face plane (within the feature tolerance).
    pub(super) fn inside(&self, q: DVec3) -> bool {
        self.planes
            .iter()
            .all(|(n, d, _)| n.as_dvec3().dot(q) <= f64::from(*d) + self.eps)
    }

    /// The nearest point of the brush to `p`: the point, which face (if inside one face),
    /// and the distance. `None` when `p` is inside the brush.
    pub(super) fn closest(&self, p: DVec3) -> Option<(DVec3, Option<u32>, f64)> {
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
            let n = n.as_dvec3();
            let height = n.dot(p) - f64::from(*d);
            if height <= 0.0 {
                continue;
            }
            let q = p - n * height;
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
