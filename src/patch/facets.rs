//! Surface grids to facet solids: each facet a thin convex slab behind the surface, whose
//! borders neighbouring slabs share exactly.
//!
//! Takes the [`SurfaceGrid`]s of one model's patches, gives one [`FacetSolid`] per facet:
//! its planes (front, back, one border per edge) with their windings and bounds, and which
//! patch it came from. Steps:
//!
//! 1. Weld: grid points of all the model's patches within [`PATCH_WELD_EPSILON`] become
//!    one vertex (the first met), so a wrapped patch's seam (a cylinder whose first and
//!    last columns agree), a collapsed row (a cone's apex) and two patches meeting along a
//!    border share vertices.
//! 2. Facets: each grid cell, its corners welded, is a triangle (one corner repeated), a
//!    quad (four corners within [`PATCH_PLANAR_EPSILON`] of one plane) or Quake 3's two
//!    triangles `(p00, p10, p11)` and `(p11, p01, p00)`; cells of fewer than three
//!    distinct corners have no area and make nothing. Each facet faces the patch's front
//!    (`S_v × S_u`, `bezier`) and lists its corners counter-clockwise seen from there.
//! 3. Borders: an edge that exactly two facets share, traversed in opposite directions (the
//!    two face the same way), gets the plane through it bisecting the facets' planes (the
//!    mitre: the edge direction crossed with the sum of their normals), the one plane for
//!    both, flipped; then the slabs meet along it with neither a gap nor an overlap, behind
//!    the surface as on it. Where the normals differ by more than a right angle
//!    ([`PATCH_MITRE_MIN_COS`]), at a patch's border and where an edge is shared otherwise,
//!    the border is perpendicular to the facet through the edge: the surfaces still meet
//!    along the edge, and only the slabs' backs differ.
//! 4. Slabs: the front plane through the facet, the back plane [`PATCH_THICKNESS`] behind
//!    it, and the borders; each side's winding cut from a huge square by the others (sides
//!    cut away entirely, a back face behind converging mitres, are left out). Behind a
//!    sliver, caps keep the slab within [`PATCH_THICKNESS`] of the facet's corners (`slab`).
//!    A border or cap facing within [`PATCH_SAME_NORMAL_SINE`] of an earlier side (nearly
//!    collinear edges) is left out, so no two sides share a normal. A slab of less than
//!    [`MIN_BRUSH_VOLUME`] is dropped and counted.
//!
//! Guarantees: every solid is convex, closed, with at least four sides, no two on one plane,
//! the front side first, within [`MAX_MAP_COORD`] (the control points were, and facets lie
//! in their convex hull, the back a quarter unit behind); neighbouring facets share the border
//! plane of their common edge exactly (one `BuildPlane` and its flip). Deterministic: hash
//! maps are only looked up, never iterated.

use std::collections::HashMap;

use glam::DVec3;

use super::subdivide::SurfaceGrid;
use crate::geom::{BuildPlane, Winding, bounds_of, convex_volume, cut_planes};
use crate::tolerance::{
    MAX_MAP_COORD, MIN_BRUSH_VOLUME, PATCH_MITRE_MIN_COS, PATCH_PLANAR_EPSILON,
    PATCH_SAME_NORMAL_SINE, PATCH_THICKNESS, PATCH_WELD_EPSILON,
};

/// One facet's slab.
#[derive(Clone, Debug, PartialEq)]
pub struct FacetSolid {
    /// Which of the input grids (patches) it comes from.
    pub patch: usize,
    /// Its planes, normals out of the slab: the front (the facet's plane, facing the
    /// patch's front) first, then the back (if it bounds the slab), then the borders.
    pub planes: Vec<BuildPlane>,
    /// Each plane's polygon on the slab.
    pub windings: Vec<Winding>,
    /// Smallest corner of the bounds.
    pub mins: DVec3,
    /// Largest corner of the bounds.
    pub maxs: DVec3,
}

/// The facets of a model's patches and what was dropped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FacetOutput {
    /// Every slab, grouped by patch in input order, then in grid order.
    pub solids: Vec<FacetSolid>,
    /// Per input patch, facets whose slab had too little volume to keep (slivers).
    pub dropped: Vec<usize>,
}

/// A facet before its slab is built.
struct Facet {
    patch: usize,
    /// Welded vertex ids, counter-clockwise seen from the front.
    ids: Vec<u32>,
    /// The front plane.
    plane: BuildPlane,
}

/// Grid points to welded vertices: a hash grid of cells [`PATCH_WELD_EPSILON`] wide,
/// looked up in the 27 cells around a point.
#[derive(Default)]
struct Welder {
    points: Vec<DVec3>,
    cells: HashMap<[i64; 3], Vec<u32>>,
}

impl Welder {
    fn cell(p: DVec3) -> [i64; 3] {
        // Coordinates are within the map limit, so the cells fit an i64.
        (p / PATCH_WELD_EPSILON).floor().as_i64vec3().to_array()
    }

    /// The id of the vertex within [`PATCH_WELD_EPSILON`] of `p`, added when none is.
    fn weld(&mut self, p: DVec3) -> u32 {
        let [x, y, z] = Self::cell(p);
        let mut nearest: Option<(f64, u32)> = None;
        for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    let Some(ids) = self.cells.get(&[x + dx, y + dy, z + dz]) else {
                        continue;
                    };
                    for &id in ids {
                        let d = self.points[id as usize].distance(p);
                        if d <= PATCH_WELD_EPSILON && nearest.is_none_or(|(best, k)| (d, id) < (best, k)) {
                            nearest = Some((d, id));
                        }
                    }
                }
            }
        }
        if let Some((_, id)) = nearest {
            return id;
        }
        let id = self.points.len() as u32;
        self.points.push(p);
        self.cells.entry([x, y, z]).or_default().push(id);
        id
    }
}

/// The facet slabs of one model's patches (module docs).
#[must_use]
pub fn facet_solids(grids: &[&SurfaceGrid]) -> FacetOutput {
    // 1. Weld.
    let mut welder = Welder::default();
    let ids: Vec<Vec<u32>> = grids
        .iter()
        .map(|g| g.points.iter().map(|p| welder.weld(*p)).collect())
        .collect();
    let points = welder.points;
    // 2. Facets.
    let mut facets: Vec<Facet> = Vec::new();
    for (patch, (grid, ids)) in grids.iter().zip(&ids).enumerate() {
        for j in 0..grid.rows.saturating_sub(1) {
            for i in 0..grid.columns.saturating_sub(1) {
                let at = |i: usize, j: usize| ids[j * grid.columns + i];
                let corners = [at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)];
                cell_facets(&points, corners, |ids, plane| {
                    facets.push(Facet { patch, ids, plane });
                });
            }
        }
    }
    // 3. Edges: which facets use each, and in which direction.
    let mut edges: HashMap<(u32, u32), Vec<(u32, bool)>> = HashMap::new();
    for (f, facet) in facets.iter().enumerate() {
        for (a, b) in cycle(&facet.ids) {
            edges
                .entry((a.min(b), a.max(b)))
                .or_default()
                .push((f as u32, a < b));
        }
    }
    // 4. Slabs.
    let mut out = FacetOutput {
        solids: Vec::with_capacity(facets.len()),
        dropped: vec![0; grids.len()],
    };
    for (f, facet) in facets.iter().enumerate() {
        let mut planes = vec![
            facet.plane,
            BuildPlane {
                normal: -facet.plane.normal + DVec3::ZERO,
                dist: PATCH_THICKNESS - facet.plane.dist,
            },
        ];
        for (a, b) in cycle(&facet.ids) {
            let users = edges.get(&(a.min(b), a.max(b))).map_or(&[][..], Vec::as_slice);
            let border = border_plane(&points, &facets, f, (a, b), users);
            if let Some(plane) = border
                && !planes.iter().any(|p| shares_normal(p, &plane))
            {
                planes.push(plane);
            }
        }
        let corners: Vec<DVec3> = facet.ids.iter().map(|&id| points[id as usize]).collect();
        match slab(facet.patch, planes, &corners) {
            Some(solid) => out.solids.push(solid),
            None => out.dropped[facet.patch] += 1,
        }
    }
    out
}

/// Consecutive pairs of a polygon's corners, closing the loop.
fn cycle(ids: &[u32]) -> impl Iterator<Item = (u32, u32)> + '_ {
    ids.iter()
        .zip(ids.iter().cycle().skip(1))
        .map(|(&a, &b)| (a, b))
}

/// The facets of one cell with welded corners `[p00, p10, p11, p01]`, passed to `emit` as
/// (corner ids counter-clockwise seen from the front, front plane).
fn cell_facets(points: &[DVec3], corners: [u32; 4], mut emit: impl FnMut(Vec<u32>, BuildPlane)) {
    let mut distinct: Vec<u32> = Vec::with_capacity(4);
    for id in corners {
        if distinct.last() != Some(&id) && distinct.first() != Some(&id) {
            distinct.push(id);
        }
    }
    // The grid order p00 → p10 → p11 → p01 turns about S_u × S_v, the back: the front sees
    // it reversed.
    distinct.reverse();
    let at = |id: u32| points[id as usize];
    match distinct.len() {
        3 => {
            if let Some(plane) = polygon_plane(&distinct.iter().map(|&id| at(id)).collect::<Vec<_>>()) {
                emit(distinct, plane);
            }
        }
        4 => {
            let corners: Vec<DVec3> = distinct.iter().map(|&id| at(id)).collect();
            if let Some(plane) = polygon_plane(&corners)
                && corners
                    .iter()
                    .all(|p| plane.distance(*p).abs() <= PATCH_PLANAR_EPSILON)
            {
                emit(distinct, plane);
                return;
            }
            // Reversed, `distinct` is [p01, p11, p10, p00]: Quake 3's triangles (p00, p10,
            // p11) and (p11, p01, p00), each reversed to face the front.
            let [p01, p11, p10, p00] = [distinct[0], distinct[1], distinct[2], distinct[3]];
            for triangle in [[p11, p10, p00], [p00, p01, p11]] {
                let corners: Vec<DVec3> = triangle.iter().map(|&id| at(id)).collect();
                if let Some(plane) = polygon_plane(&corners) {
                    emit(triangle.to_vec(), plane);
                }
            }
        }
        _ => {}
    }
}

/// The plane of a polygon whose corners run counter-clockwise about its normal (Newell's
/// normal, the mean distance); `None` when it has no area.
fn polygon_plane(corners: &[DVec3]) -> Option<BuildPlane> {
    let mut newell = DVec3::ZERO;
    for (k, a) in corners.iter().enumerate() {
        let b = corners[(k + 1) % corners.len()];
        newell += a.cross(b);
    }
    // Newell's vector is twice the area; slabs of less than the least brush volume are
    // dropped anyway, so tinier facets are not worth a plane.
    if newell.length() * PATCH_THICKNESS < 2.0 * MIN_BRUSH_VOLUME {
        return None;
    }
    let normal = BuildPlane::from_normal_dist(newell, 0.0)?.normal;
    let dist = corners.iter().map(|p| normal.dot(*p)).sum::<f64>() / corners.len() as f64;
    BuildPlane::from_normal_dist(normal, dist)
}

/// The border plane of facet `f` along its edge `(a, b)`, given the facets using that edge
/// (step 3 of the module docs).
fn border_plane(
    points: &[DVec3],
    facets: &[Facet],
    f: usize,
    (a, b): (u32, u32),
    users: &[(u32, bool)],
) -> Option<BuildPlane> {
    let (pa, pb) = (points[a as usize], points[b as usize]);
    let facet = &facets[f];
    // The mitre, computed once from the lower-numbered facet and flipped for the other, so
    // that both hold the very same plane.
    if let [(f0, forward0), (f1, forward1)] = users
        && forward0 != forward1
    {
        let (lo, hi) = (&facets[*f0 as usize], &facets[*f1 as usize]);
        let sum = lo.plane.normal + hi.plane.normal;
        if lo.plane.normal.dot(hi.plane.normal) >= PATCH_MITRE_MIN_COS {
            // The edge as the lower facet runs along it.
            let (from, to) = if f0 == &(f as u32) { (pa, pb) } else { (pb, pa) };
            let mitre = BuildPlane::from_normal_dist((to - from).cross(sum), 0.0)
                .and_then(|unit| BuildPlane::from_normal_dist(unit.normal, unit.normal.dot(from)));
            if let Some(mitre) = mitre {
                return Some(if *f0 as usize == f { mitre } else { mitre.flipped() });
            }
        }
    }
    // Perpendicular to the facet: `(b − a) × n` points out of a counter-clockwise polygon.
    let unit = BuildPlane::from_normal_dist((pb - pa).cross(facet.plane.normal), 0.0)?;
    BuildPlane::from_normal_dist(unit.normal, unit.normal.dot(pa))
}

/// Whether two planes face the same way within [`PATCH_SAME_NORMAL_SINE`]: the later is
/// left out of a slab (module docs, step 4).
fn shares_normal(a: &BuildPlane, b: &BuildPlane) -> bool {
    a.normal.dot(b.normal) > 0.0 && a.normal.cross(b.normal).length() < PATCH_SAME_NORMAL_SINE
}

/// The slab bounded by `planes` (front first) over the facet with `corners`
/// (counter-clockwise seen from the front), its windings cut from huge squares; `None`
/// when it has less than [`MIN_BRUSH_VOLUME`] or is not closed.
///
/// Behind a sliver facet two borders through nearly the same line may lean apart and meet
/// far beyond the facet (a horn's tip: 15 units past it). Where a corner of the slab lies
/// more than [`PATCH_THICKNESS`] beyond a facet corner, seen along the bisector of the two
/// edges there, a cap perpendicular to the facet at that distance cuts the slab back; it
/// supports the facet, so the surface is untouched.
fn slab(patch: usize, mut planes: Vec<BuildPlane>, corners: &[DVec3]) -> Option<FacetSolid> {
    let solid = cut_slab(patch, &planes)?;
    let front = planes[0].normal;
    let mut capped = false;
    for (k, &corner) in corners.iter().enumerate() {
        let previous = corners[(k + corners.len() - 1) % corners.len()];
        let next = corners[(k + 1) % corners.len()];
        // The outward in-plane normals of the two edges at the corner, summed.
        let out = (corner - previous).cross(front).normalize_or_zero()
            + (next - corner).cross(front).normalize_or_zero();
        let Some(cap) = BuildPlane::from_normal_dist(out, 0.0)
            .and_then(|unit| BuildPlane::from_normal_dist(unit.normal, unit.normal.dot(corner) + PATCH_THICKNESS))
        else {
            continue;
        };
        let beyond = solid
            .windings
            .iter()
            .flat_map(|w| w.points.iter())
            .any(|p| cap.distance(*p) > 0.0);
        if beyond && !planes.iter().any(|p| shares_normal(p, &cap)) {
            planes.push(cap);
            capped = true;
        }
    }
    if capped { cut_slab(patch, &planes) } else { Some(solid) }
}

/// The solid bounded by `planes` (the front first, which must bound it), its windings cut
/// from huge squares; `None` when it has less than [`MIN_BRUSH_VOLUME`] or is not closed.
fn cut_slab(patch: usize, planes: &[BuildPlane]) -> Option<FacetSolid> {
    let windings = cut_planes(planes);
    // The front face must survive: it is the surface.
    windings.first()?.as_ref()?;
    let (planes, windings): (Vec<BuildPlane>, Vec<Winding>) = planes
        .iter()
        .zip(windings)
        .filter_map(|(plane, winding)| Some((*plane, winding?)))
        .unzip();
    if windings.len() < 4 {
        return None;
    }
    let (mins, maxs) = bounds_of(windings.iter().flat_map(|w| w.points.iter()));
    if (mins.min_element() < -MAX_MAP_COORD) || maxs.max_element() > MAX_MAP_COORD {
        return None;
    }
    let volume = convex_volume(planes.iter().zip(&windings));
    (volume >= MIN_BRUSH_VOLUME).then_some(FacetSolid {
        patch,
        planes,
        windings,
        mins,
        maxs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::patch::subdivide::{ControlGrid, subdivide};

    /// A full cylinder of radius 64 about the z axis, 128 tall, as one wrapped patch of 9
    /// columns by 3 rows, facing out.
    fn cylinder() -> SurfaceGrid {
        let r = 64.0;
        let ring = [
            (r, 0.0),
            (r, r),
            (0.0, r),
            (-r, r),
            (-r, 0.0),
            (-r, -r),
            (0.0, -r),
            (r, -r),
            (r, 0.0),
        ];
        let mut points = Vec::new();
        for z in [128.0, 64.0, 0.0] {
            points.extend(ring.iter().map(|&(x, y)| DVec3::new(x, y, z)));
        }
        subdivide(
            &ControlGrid {
                width: 9,
                height: 3,
                points,
                min_steps: (1, 1),
            },
            0.25,
        )
    }

    #[test]
    fn a_wrapped_cylinder_is_closed_and_mitred_all_round() {
        let grid = cylinder();
        let out = facet_solids(&[&grid]);
        assert_eq!(out.dropped, [0]);
        // One quad per column step (the cylinder is straight along z).
        assert_eq!(out.solids.len(), grid.columns - 1);
        for solid in &out.solids {
            let front = solid.planes[0];
            // Facing out of the cylinder, horizontally.
            assert!(front.normal.z.abs() < 1e-12 && front.dist > 60.0, "{front:?}");
            // Front, back, two mitres, top and bottom.
            assert_eq!(solid.planes.len(), 6);
            // Every border but the top and bottom is shared, flipped, with a neighbour.
            let shared = solid.planes[2..]
                .iter()
                .filter(|p| {
                    out.solids.iter().any(|other| {
                        other.planes.iter().any(|q| q.flipped() == **p)
                    })
                })
                .count();
            assert_eq!(shared, 2, "{:?}", solid.planes);
        }
    }
}
