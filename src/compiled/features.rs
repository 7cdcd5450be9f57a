//! Brush features for exact contacts: each brush's face planes, its corners (f64) and its
//! edges, derived once at load from the validated f32 planes. The face planes are kept as the
//! f32 planes they are (widening one to f64 is exact, so the f64 copy only doubled their
//! bytes) and edges as 16-bit corner pairs: about 170 bytes less per brush of a real map.
//!
//! Takes the brushes, sides and planes of a validated world; gives per brush a
//! [`BrushFeatures`] view (planes, corners, edges) that exact sweeps (`trace::rounded`) read
//! instead of rebuilding them per query. Corners and edges come from each face's polygon,
//! cut from a huge square on its plane by every other face plane (Quake's
//! `BaseWindingForPlane` and `ChopWinding`), so a brush of F faces costs O(F²) plane tests
//! and the whole table is linear in the file's size (validation caps F at
//! [`MAX_BRUSH_FACES`]). Guarantees:
//! - a corner is a point on three face planes, inside every face plane within
//!   [`FEATURE_EPSILON`] × the brush's largest plane distance (at least 1), listed once;
//! - an edge joins two corners that follow each other around a face's polygon, so it lies
//!   on the brush, on two face planes (where corners of nearly coplanar planes merge, on one:
//!   a chord of that face); each edge is listed once;
//! - every brush of a validated world gets features, whatever its face count, except a
//!   degenerate one a crafted file may hold (no corner, more polygon corners than a convex
//!   polytope of its faces can have, or more than [`FEATURE_CLIP_BUDGET`] × F² plane tests),
//!   or one past the whole table's budget ([`FEATURE_WORK_BASE`] plus
//!   [`FEATURE_WORK_PER_SIDE`] per side of the file, far above what real maps take): that
//!   brush gets `None` and its sweeps keep the plane-shifted hit, which is conservative. So
//!   load time is linear in the file's size with a small constant, whatever a file claims.

use glam::{DVec3, Vec3};

use super::{CompiledBrush, CompiledSide, Plane};
use crate::geom::base_square;
use crate::tolerance::{
    FEATURE_CLIP_BUDGET, FEATURE_EPSILON, FEATURE_WORK_BASE, FEATURE_WORK_PER_SIDE, MAX_BRUSH_FACES,
};

/// One face plane in f64, as corners are computed from it: unit normal, distance, and its
/// index in the plane table.
pub type FacePlane = (DVec3, f64, u32);

/// One face plane as the table keeps it: the f32 plane of the plane table (unit normal,
/// distance) and its index there. Widening it to f64 ([`wide`]) gives exactly the
/// [`FacePlane`] the corners were computed from, at half the bytes.
pub type StoredPlane = (Vec3, f32, u32);

/// An edge: the indices of its two corners in the brush's corners (validation caps a brush
/// at [`MAX_BRUSH_FACES`] faces, so at most 6 × that many polygon corners: 16 bits suffice).
pub type Edge = (u16, u16);

const _: () = assert!(6 * MAX_BRUSH_FACES <= u16::MAX as usize);

/// A stored face plane in f64, exactly (f32 → f64 is exact).
#[inline]
#[must_use]
pub fn wide(&(normal, dist, id): &StoredPlane) -> FacePlane {
    (normal.as_dvec3(), f64::from(dist), id)
}

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
    planes: Vec<StoredPlane>,
    corners: Vec<DVec3>,
    edges: Vec<Edge>,
}

/// One brush's features.
#[derive(Clone, Copy, Debug)]
pub struct BrushFeatures<'a> {
    /// The face planes (no bevels), in the brush's side order, in f32 ([`wide`] gives
    /// them in f64).
    pub planes: &'a [StoredPlane],
    /// The corners.
    pub corners: &'a [DVec3],
    /// The edges, as index pairs into `corners`.
    pub edges: &'a [Edge],
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
        let mut scratch = Scratch::default();
        // The whole table's work is bounded by the file's size: a base plus an allowance per
        // side; what one brush may take is also bounded by its own face count.
        let mut remaining =
            FEATURE_WORK_BASE.saturating_add(FEATURE_WORK_PER_SIDE.saturating_mul(sides.len()));
        for brush in brushes {
            let first = brush.first_side as usize;
            let faces = sides
                .get(first..first + brush.face_count as usize)
                .unwrap_or_default();
            let span = table.push(faces, planes, &mut scratch, &mut remaining);
            table.spans.push(span);
        }
        table
    }

    /// Appends one brush's features; a span with `present == false` when it has none.
    fn push(
        &mut self,
        faces: &[CompiledSide],
        planes: &[Plane],
        scratch: &mut Scratch,
        remaining: &mut usize,
    ) -> Span {
        let stored: Vec<StoredPlane> = faces
            .iter()
            .filter_map(|side| {
                let p = planes.get(side.plane as usize)?;
                Some((p.normal, p.dist, side.plane))
            })
            .collect();
        let face_planes: Vec<FacePlane> = stored.iter().map(wide).collect();
        let allowed = FEATURE_CLIP_BUDGET
            .saturating_mul(face_planes.len().saturating_mul(face_planes.len()))
            .min(*remaining);
        let mut budget = allowed;
        let found = features_of(&face_planes, scratch, &mut budget);
        *remaining -= allowed - budget;
        let Some((corners, edges)) = found else {
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
        self.planes.extend(stored);
        self.corners.extend(corners);
        self.edges.extend(edges);
        span
    }

    /// The features of brush `brush`, or `None` when it has none (or no such brush).
    pub(crate) fn get(&self, brush: usize) -> Option<BrushFeatures<'_>> {
        let span = self.spans.get(brush).filter(|s| s.present)?;
        let slice = |first: u32, count: u32| first as usize..(first + count) as usize;
        let planes = self.planes.get(slice(span.first_plane, span.plane_count))?;
        let scale = planes
            .iter()
            .fold(1.0f64, |m, p| m.max(f64::from(p.1).abs()));
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

/// Buffers reused from brush to brush while the table is built.
#[derive(Default)]
struct Scratch {
    polygon: Vec<Corner>,
    clipped: Vec<Corner>,
    ring: Vec<u32>,
}

/// A polygon corner and the plane (an index into the brush's face planes) along which the
/// polygon's edge from it to the next corner runs; [`BASE_EDGE`] on the base square's edges.
type Corner = (DVec3, u32);

/// The plane label of the base square's edges, which lie on no face plane.
const BASE_EDGE: u32 = u32::MAX;

/// The corners (points on three of `planes`, inside all, each listed once) and edges (corner
/// pairs on two common planes, each listed once) of the convex set `planes` bound; `None`
/// for a degenerate set (see the module doc).
#[cfg(test)]
pub(crate) fn corners_and_edges(planes: &[FacePlane]) -> Option<(Vec<DVec3>, Vec<Edge>)> {
    let mut budget = FEATURE_CLIP_BUDGET * planes.len() * planes.len();
    features_of(planes, &mut Scratch::default(), &mut budget)
}

/// See [`corners_and_edges`]. Each face's polygon is clipped by the other planes, its edges
/// labelled with the plane they run along; each polygon corner is then recomputed as the
/// intersection of the face's plane and its two edges' planes, taken in index order, so
/// that every face meeting at a corner computes it identically (clipping alone gives each
/// face its own rounding, which on slivers exceeds the merge tolerance).
/// `budget` is the plane tests it may take; what it took is subtracted, and `None` comes back
/// when it runs out.
fn features_of(
    planes: &[FacePlane],
    scratch: &mut Scratch,
    budget: &mut usize,
) -> Option<(Vec<DVec3>, Vec<Edge>)> {
    let count = planes.len();
    if count == 0 || count > MAX_BRUSH_FACES {
        return None;
    }
    let eps = FEATURE_EPSILON * scale(planes);
    let inside = |q: DVec3| planes.iter().all(|(n, d, _)| n.dot(q) <= d + eps);
    // A convex polytope of F faces has at most 3F − 6 edges, so its face polygons have at
    // most 6F − 12 corners in all; more means the planes are degenerate.
    let most_polygon_corners = 6 * count;
    let mut corners: Vec<DVec3> = Vec::new();
    let mut edges: Vec<Edge> = Vec::new();
    let mut polygon_corners = 0usize;
    for (i, &(n, d, _)) in planes.iter().enumerate() {
        base_polygon(n, d, &mut scratch.polygon);
        for (j, &(m, e, _)) in planes.iter().enumerate() {
            if i == j || scratch.polygon.is_empty() {
                continue;
            }
            *budget = budget.checked_sub(scratch.polygon.len())?;
            clip_behind(
                &scratch.polygon,
                (m, e, j as u32),
                eps,
                &mut scratch.clipped,
            );
            std::mem::swap(&mut scratch.polygon, &mut scratch.clipped);
        }
        let polygon = &scratch.polygon;
        if polygon.len() < 3 {
            continue;
        }
        polygon_corners += polygon.len();
        if polygon_corners > most_polygon_corners {
            return None;
        }
        *budget = budget.checked_sub(polygon.len() * count)?;
        // Each polygon corner as a brush corner (merged within `eps`, which is what two
        // faces' polygons agree to at a corner of more than three planes).
        scratch.ring.clear();
        for (k, &(p, outgoing)) in polygon.iter().enumerate() {
            let incoming = polygon[(k + polygon.len() - 1) % polygon.len()].1;
            let p = meet(planes, [i as u32, incoming, outgoing])
                .filter(|q| inside(*q))
                .unwrap_or(p);
            let index = match corners
                .iter()
                .position(|k| (*k - p).length_squared() <= eps * eps)
            {
                Some(k) => k,
                None => {
                    corners.push(p);
                    corners.len() - 1
                }
            } as u32;
            if scratch.ring.last() != Some(&index) {
                scratch.ring.push(index);
            }
        }
        while scratch.ring.len() > 1 && scratch.ring.first() == scratch.ring.last() {
            scratch.ring.pop();
        }
        let ring = &scratch.ring;
        if ring.len() < 2 {
            continue;
        }
        for (k, &a) in ring.iter().enumerate() {
            let b = ring[(k + 1) % ring.len()];
            if a != b && (ring.len() > 2 || k == 0) {
                // Within 16 bits by the corner count checked above.
                let (a, b) = (u16::try_from(a).ok()?, u16::try_from(b).ok()?);
                edges.push((a.min(b), a.max(b)));
            }
        }
    }
    edges.sort_unstable();
    edges.dedup();
    (!corners.is_empty()).then_some((corners, edges))
}

/// The point on three of `planes` (indices, in any order; solved in index order so the
/// result does not depend on it), or `None` when one is [`BASE_EDGE`], two are the same or
/// they meet at a bad angle.
fn meet(planes: &[FacePlane], mut which: [u32; 3]) -> Option<DVec3> {
    which.sort_unstable();
    if which[0] == which[1] || which[1] == which[2] {
        return None;
    }
    let [a, b, c] = which.map(|k| planes.get(k as usize));
    let ((a, da, _), (b, db, _), (c, dc, _)) = (a?, b?, c?);
    let ab = a.cross(*b);
    let det = ab.dot(*c);
    if det.abs() < FEATURE_EPSILON {
        return None;
    }
    Some((b.cross(*c) * *da + c.cross(*a) * *db + ab * *dc) / det)
}

/// A square of half-side `BASE_WINDING_EXTENT` on the plane `n·x = d`, into `out`
/// (`geom::Winding::base_for_plane`, in the runtime's types).
fn base_polygon(n: DVec3, d: f64, out: &mut Vec<Corner>) {
    out.clear();
    out.extend(base_square(n, d).map(|p| (p, BASE_EDGE)));
}

/// The part of `polygon` behind the plane `m·x = e` (index `j`) into `out` (empty when
/// nothing is left); points within `eps` of the plane count as on it and are kept. An edge
/// the cut makes runs along plane `j`.
fn clip_behind(polygon: &[Corner], (m, e, j): (DVec3, f64, u32), eps: f64, out: &mut Vec<Corner>) {
    out.clear();
    let count = polygon.len();
    let side = |p: DVec3| m.dot(p) - e;
    if polygon.iter().all(|&(p, _)| side(p) <= eps) {
        out.extend_from_slice(polygon);
        return;
    }
    for k in 0..count {
        let ((p, along), (q, _)) = (polygon[k], polygon[(k + 1) % count]);
        let (dp, dq) = (side(p), side(q));
        let cut = |p: DVec3| p + (q - p) * (dp / (dp - dq));
        if dp <= eps {
            if dq <= eps {
                out.push((p, along));
            } else if dp < -eps {
                out.push((p, along));
                out.push((cut(p), j));
            } else {
                // On the plane, the next corner beyond it: the edge from here runs along it.
                out.push((p, j));
            }
        } else if dq < -eps {
            out.push((cut(p), along));
        }
    }
    if out.len() < 3 {
        out.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    fn brush(face_count: u32) -> CompiledBrush {
        CompiledBrush {
            contents: crate::contents::Contents::SOLID,
            game_contents: 0,
            first_side: 0,
            side_count: face_count,
            face_count,
            box_side_count: face_count,
            mins: Vec3::ZERO,
            maxs: Vec3::ZERO,
            box_exact: false,
            reach: 1.0,
            patch: false,
        }
    }

    fn sides(count: u32) -> Vec<CompiledSide> {
        (0..count)
            .map(|plane| CompiledSide {
                plane,
                bevel: false,
                surface: crate::surface::SurfaceFlags::EMPTY,
                material: 0,
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

    /// Face planes of an upright prism over a regular `sides`-gon of circumradius 256, z in
    /// 0..192, as f32 planes narrowed to f64.
    fn prism(sides: usize) -> Vec<FacePlane> {
        let mut planes: Vec<FacePlane> = (0..sides)
            .map(|k| {
                let a = std::f64::consts::TAU * (k as f64 + 0.5) / sides as f64;
                let n = Vec3::new(a.cos() as f32, a.sin() as f32, 0.0).normalize();
                let d = (256.0 * (std::f64::consts::PI / sides as f64).cos()) as f32;
                (n.as_dvec3(), f64::from(d), k as u32)
            })
            .collect();
        planes.push((DVec3::Z, 192.0, sides as u32));
        planes.push((-DVec3::Z, 0.0, sides as u32 + 1));
        planes
    }

    #[test]
    fn a_362_sided_prism_has_all_its_corners_and_edges() {
        for sides in [128, 362] {
            let (corners, edges) = corners_and_edges(&prism(sides)).unwrap();
            // V = 2n, E = 3n, F = n + 2.
            assert_eq!((corners.len(), edges.len()), (2 * sides, 3 * sides));
            assert!(
                corners
                    .iter()
                    .all(|c| (c.truncate().length() - 256.0).abs() < 1e-2)
            );
        }
    }

    #[test]
    fn degenerate_and_oversized_face_sets_end_quickly() {
        // More faces than a brush may have.
        let mut planes = prism(MAX_BRUSH_FACES);
        assert!(corners_and_edges(&planes).is_none());
        // The most faces, all nearly one plane: the polygons are empty or degenerate, and the
        // work stays within its budget.
        planes.truncate(MAX_BRUSH_FACES);
        for (k, p) in planes.iter_mut().enumerate() {
            *p = (
                DVec3::new(1e-9 * k as f64, 0.0, 1.0).normalize(),
                64.0,
                k as u32,
            );
        }
        let started = std::time::Instant::now();
        let features = corners_and_edges(&planes);
        assert!(features.is_none_or(|(corners, _)| corners.len() <= 6 * MAX_BRUSH_FACES));
        assert!(started.elapsed().as_secs_f64() < 5.0);
    }
}
