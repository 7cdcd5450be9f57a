//! Convex solids bounded by planes, in f64: each plane's polygon on the solid, the bounds of
//! a point set, and a closed solid's volume.
//!
//! Takes [`BuildPlane`]s (normals out of the solid) or the faces they give; gives
//! [`Winding`]s cut from huge squares, bounds and volume. Shared by the brush stage (brush
//! blocks, the leak stage's outside fill) and the patch stage (facet slabs), so every convex
//! solid of a compile is cut and measured the same way. Guarantees: a polygon is `None`
//! rather than of no area; pure functions of their inputs.

use glam::DVec3;

use super::{BuildPlane, Winding};
use crate::tolerance::CLIP_EPSILON;

/// Each plane's polygon on the region behind all of `planes`: a huge square on it clipped
/// by every other plane (within [`CLIP_EPSILON`]); `None` where nothing of positive area is
/// left.
#[must_use]
pub(crate) fn cut_planes(planes: &[BuildPlane]) -> Vec<Option<Winding>> {
    planes
        .iter()
        .enumerate()
        .map(|(i, plane)| {
            let others = planes
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, other)| other);
            Winding::base_for_plane(plane)
                .into_clipped_behind_all(others, CLIP_EPSILON)
                .filter(|w| w.area() > 0.0)
        })
        .collect()
}

/// The smallest and largest corner of the box around `points` (infinite and inverted when
/// there are none).
#[must_use]
pub fn bounds_of<'a>(points: impl IntoIterator<Item = &'a DVec3>) -> (DVec3, DVec3) {
    let mut mins = DVec3::splat(f64::INFINITY);
    let mut maxs = DVec3::splat(f64::NEG_INFINITY);
    for p in points {
        mins = mins.min(*p);
        maxs = maxs.max(*p);
    }
    (mins, maxs)
}

/// The volume of the closed convex solid whose faces are `faces` (each plane with its
/// polygon), by the divergence theorem about the centroid of the polygons' corners.
#[must_use]
pub(crate) fn convex_volume<'a, I>(faces: I) -> f64
where
    I: Iterator<Item = (&'a BuildPlane, &'a Winding)> + Clone,
{
    let corners = faces.clone().flat_map(|(_, w)| w.points.iter());
    let count = corners.clone().count().max(1);
    let centre = corners.copied().sum::<DVec3>() / count as f64;
    faces
        .map(|(plane, winding)| winding.area() * -plane.distance(centre) / 3.0)
        .sum()
}
