//! Brush features for exact contacts: each brush's face planes in f64, its corners and its
//! edges, derived once at load from the validated f32 planes.
//!
//! Takes the brushes, sides and planes of a validated world; gives per brush a
//! [`BrushFeatures`] view (planes, corners, edges) that exact sweeps (`trace::rounded`) read
//! instead of rebuilding them per query. Guarantees:
//! - a corner is a point on three face planes, inside every face plane within
//!   [`FEATURE_EPSILON`] × the brush's largest plane distance (at least 1), listed once;
//! - an edge joins two corners lying on two common face planes;
//! - a brush with more than [`MAX_REFINED_FACES`] faces, [`MAX_BRUSH_CORNERS`] corners or
//!   [`MAX_BRUSH_EDGES`] edges gets no features (`None`): its sweeps keep the plane-shifted
//!   hit, which is conservative.

use glam::DVec3;

use super::{CompiledBrush, CompiledSide, Plane};
use crate::tolerance::{FEATURE_EPSILON, MAX_REFINED_FACES};

/// Most corners a brush's features hold (a brush of 64 faces has at most 124).
pub const MAX_BRUSH_CORNERS: usize = 128;

/// Most edges a brush's features hold (a brush of 64 faces has at most 186).
pub const MAX_BRUSH_EDGES: usize = 192;

const _: () = assert!(MAX_REFINED_FACES <= 64, "plane masks are one u64");
const _: () = assert!(MAX_BRUSH_CORNERS <= 256, "edge ends are u8 corner indices");

/// One face plane in f64: unit normal, distance, and its index in the plane table.
pub type FacePlane = (DVec3, f64, u32);

/// An edge: the indices of its two corners.
pub type Edge = (u8, u8);

/// Where one brush's features lie in the shared tables.
#[derive(Clone, Copy, Debug, Default)]
struct Span {
    first_plane: u32,
    plane_count: u32,
    first_corner: u32,
    corner_count: u32,
    first_edge: u32,
    edge_count: u32,
    /// Whether the brush has features at all.
    present: bool,
}

/// The features of every brush, in shared tables.
#[derive(Clone, Debug, Default)]
pub(crate) struct FeatureTable {
    spans: Vec<Span>,
    planes: Vec<FacePlane>,
    corners: Vec<DVec3>,
    edges: Vec<(u8, u8)>,
}

/// One brush's features.
#[derive(Clone, Copy, Debug)]
pub struct BrushFeatures<'a> {
    /// The face planes (no bevels), in the brush's side order.
    pub planes: &'a [FacePlane],
    /// The corners.
    pub corners: &'a [DVec3],
    /// The edges, as index pairs into `corners`.
    pub edges: &'a [(u8, u8)],
    /// The magnitude of the brush's coordinates: its largest plane distance, at least 1.
    pub scale: f64,
    /// How far outside a plane still counts as on the brush, in units:
    /// [`FEATURE_EPSILON`] × `scale`.
    pub eps: f64,
}

impl FeatureTable {
    /// Derives the features of every brush.
    pub(crate) fn build(
        brushes: &[CompiledBrush],
        sides: &[CompiledSide],
        planes: &[Plane],
    ) -> FeatureTable {
        let mut table = FeatureTable::default();
        table.spans.reserve(brushes.len());
        for brush in brushes {
            let first = brush.first_side as usize;
            let faces = sides
                .get(first..first + brush.face_count as usize)
                .unwrap_or_default();
            let span = table.push(faces, planes);
            table.spans.push(span);
        }
        table
    }

    /// Appends one brush's features; a span with `present == false` when it has none.
    fn push(&mut self, faces: &[CompiledSide], planes: &[Plane]) -> Span {
        if faces.is_empty() || faces.len() > MAX_REFINED_FACES {
            return Span::default();
        }
        let face_planes: Vec<FacePlane> = faces
            .iter()
            .filter_map(|side| {
                let p = planes.get(side.plane as usize)?;
                Some((p.normal.as_dvec3(), f64::from(p.dist), side.plane))
            })
            .collect();
        let Some((corners, edges)) = corners_and_edges(&face_planes) else {
            return Span::default();
        };
        let span = Span {
            first_plane: self.planes.len() as u32,
            plane_count: face_planes.len() as u32,
            first_corner: self.corners.len() as u32,
            corner_count: corners.len() as u32,
            first_edge: self.edges.len() as u32,
            edge_count: edges.len() as u32,
            present: true,
        };
        self.planes.extend(face_planes);
        self.corners.extend(corners);
        self.edges.extend(edges);
        span
    }

    /// The features of brush `brush`, or `None` when it has none (or no such brush).
    pub(crate) fn get(&self, brush: usize) -> Option<BrushFeatures<'_>> {
        let span = self.spans.get(brush).filter(|s| s.present)?;
        let slice = |first: u32, count: u32| first as usize..(first + count) as usize;
        let planes = self.planes.get(slice(span.first_plane, span.plane_count))?;
        let scale = scale(planes);
        Some(BrushFeatures {
            planes,
            corners: self
                .corners
                .get(slice(span.first_corner, span.corner_count))?,
            edges: self.edges.get(slice(span.first_edge, span.edge_count))?,
            scale,
            eps: FEATURE_EPSILON * scale,
        })
    }
}

/// The largest plane distance, at least 1: what the on-brush tolerance is relative to.
fn scale(planes: &[FacePlane]) -> f64 {
    planes.iter().fold(1.0f64, |m, p| m.max(p.1.abs()))
}

/// The corners (points on three of `planes`, inside all, each listed once) and edges (corner
/// pairs on two common planes) of the convex set `planes` bound; `None` with more than
/// [`MAX_REFINED_FACES`] planes, [`MAX_BRUSH_CORNERS`] corners or [`MAX_BRUSH_EDGES`] edges,
/// or no corner at all.
pub(crate) fn corners_and_edges(planes: &[FacePlane]) -> Option<(Vec<DVec3>, Vec<Edge>)> {
    if planes.len() > MAX_REFINED_FACES {
        return None;
    }
    let eps = FEATURE_EPSILON * scale(planes);
    let inside = |q: DVec3| planes.iter().all(|(n, d, _)| n.dot(q) <= d + eps);
    let mut corners: Vec<DVec3> = Vec::new();
    for (i, (a, da, _)) in planes.iter().enumerate() {
        for (j, (b, db, _)) in planes.iter().enumerate().skip(i + 1) {
            let ab = a.cross(*b);
            for (c, dc, _) in &planes[j + 1..] {
                let det = ab.dot(*c);
                if det.abs() < FEATURE_EPSILON {
                    continue;
                }
                let corner = (b.cross(*c) * *da + c.cross(*a) * *db + ab * *dc) / det;
                let known = corners
                    .iter()
                    .any(|k| (*k - corner).length_squared() <= eps * eps);
                if inside(corner) && !known {
                    if corners.len() == MAX_BRUSH_CORNERS {
                        return None;
                    }
                    corners.push(corner);
                }
            }
        }
    }
    // Which planes pass through each corner (at most MAX_REFINED_FACES = 64: one u64).
    let masks: Vec<u64> = corners
        .iter()
        .map(|corner| {
            planes
                .iter()
                .enumerate()
                .filter(|(_, (n, d, _))| (n.dot(*corner) - d).abs() <= eps)
                .fold(0u64, |mask, (k, _)| mask | (1 << k))
        })
        .collect();
    let mut edges = Vec::new();
    for a in 0..corners.len() {
        for b in a + 1..corners.len() {
            if (masks[a] & masks[b]).count_ones() >= 2 {
                if edges.len() == MAX_BRUSH_EDGES {
                    return None;
                }
                // Corner indices fit u8: at most MAX_BRUSH_CORNERS (128) corners.
                edges.push((a as u8, b as u8));
            }
        }
    }
    (!corners.is_empty()).then_some((corners, edges))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    fn brush(face_count: u32) -> CompiledBrush {
        CompiledBrush {
            contents: crate::contents::Contents::SOLID,
            first_side: 0,
            side_count: face_count,
            face_count,
            box_side_count: face_count,
            mins: Vec3::ZERO,
            maxs: Vec3::ZERO,
            box_exact: false,
            reach: 1.0,
        }
    }

    fn sides(count: u32) -> Vec<CompiledSide> {
        (0..count)
            .map(|plane| CompiledSide {
                plane,
                bevel: false,
            })
            .collect()
    }

    #[test]
    fn a_cube_has_eight_corners_and_twelve_edges() {
        let planes: Vec<Plane> = [
            (Vec3::X, 64.0),
            (-Vec3::X, 0.0),
            (Vec3::Y, 64.0),
            (-Vec3::Y, 0.0),
            (Vec3::Z, 64.0),
            (-Vec3::Z, 0.0),
        ]
        .map(|(normal, dist)| Plane { normal, dist })
        .to_vec();
        let table = FeatureTable::build(&[brush(6)], &sides(6), &planes);
        let cube = table.get(0).unwrap();
        assert_eq!(
            (cube.planes.len(), cube.corners.len(), cube.edges.len()),
            (6, 8, 12)
        );
        for corner in cube.corners {
            assert!(corner.to_array().iter().all(|c| *c == 0.0 || *c == 64.0));
        }
        for &(a, b) in cube.edges {
            let d = cube.corners[a as usize] - cube.corners[b as usize];
            assert_eq!(d.length(), 64.0, "an edge joins neighbours");
        }
        assert!(table.get(1).is_none());
    }

    #[test]
    fn a_pyramid_has_four_faces_meeting_at_its_apex() {
        // Square base 0..64 on z = 0, apex (32, 32, 32): four slanted faces at 45°.
        let s = std::f32::consts::FRAC_1_SQRT_2;
        let planes: Vec<Plane> = [
            (Vec3::new(s, 0.0, s), s * 64.0),
            (Vec3::new(-s, 0.0, s), 0.0),
            (Vec3::new(0.0, s, s), s * 64.0),
            (Vec3::new(0.0, -s, s), 0.0),
            (-Vec3::Z, 0.0),
        ]
        .map(|(normal, dist)| Plane { normal, dist })
        .to_vec();
        let table = FeatureTable::build(&[brush(5)], &sides(5), &planes);
        let pyramid = table.get(0).unwrap();
        // Euler: V − E + F = 2 with V = 5, E = 8, F = 5; the apex lies on four planes and is
        // listed once.
        assert_eq!((pyramid.corners.len(), pyramid.edges.len()), (5, 8));
        let apex = pyramid.corners.iter().find(|c| c.z > 1.0).unwrap();
        assert!((*apex - DVec3::new(32.0, 32.0, 32.0)).length() < 1e-4);
    }
}
