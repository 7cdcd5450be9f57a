//! Open surfaces to thin brushes: each face of an open surface as a slab, the triangles of
//! one flat convex polygon as one.
//!
//! Takes the open surfaces' triangles (`CleanMesh::open`), each already turned to face out
//! of the volume its material encloses (`solid_bsp.rs`), and each material's meaning; gives
//! their slabs. A slab is the face's own plane in front, [`PATCH_THICKNESS`] behind it, and
//! a border through each edge perpendicular to the face, as a patch facet is. A triangle
//! is joined with the neighbour across one of its edges (the edge run the other way, as
//! two triangles of a quad wound alike share it) when both are of one material and on one
//! plane and their union turns the same way at every corner (convex), and the polygon
//! grows so, a triangle at a time, up to `MAX_JOINED_CORNERS` corners: a quad or a fan an
//! exporter split into triangles is one slab, fewer brushes, with no edge across its
//! diagonals.
//!
//! Guarantees: linear in the triangles (edges hashed by their corners' exact bits);
//! deterministic (each triangle, in order, takes the first free neighbour that fits across
//! its polygon's edges in order, again until none fits); a
//! slab the brush stage rejects is counted in `dropped`.

use glam::DVec3;
use rustc_hash::FxHashMap;

use super::cells::MaterialMeaning;
use super::clean::CleanTriangle;
use super::cell_brush::{loc_of, make_brush};
use crate::brush::Brush;
use crate::geom::BuildPlane;
use crate::threads::map_all;
use crate::tolerance::{MESH_ON_PLANE_EPSILON, PATCH_THICKNESS};

/// Least sine of the turn at each corner of two triangles' union for it to count as
/// convex, unitless: a straighter corner (the union is a triangle with a point on its edge,
/// or nearly) keeps the two apart, so that no border of the slab is cut along a sliver.
const JOIN_MIN_TURN_SINE: f64 = 1e-3;

/// What [`slabs`] gives.
#[derive(Debug, Default)]
pub(super) struct Slabs {
    /// The slabs, in the order of their first triangle.
    pub(super) brushes: Vec<Brush>,
    /// Slabs the brush stage rejected.
    pub(super) dropped: usize,
}

/// A corner's exact bits (the two triangles of a quad share their corners exactly).
type Corner = [u64; 3];

/// The key of corner `p`.
fn corner(p: DVec3) -> Corner {
    // Adding zero makes −0 and +0 one key.
    [(p.x + 0.0).to_bits(), (p.y + 0.0).to_bits(), (p.z + 0.0).to_bits()]
}

/// Whether the polygon `points` (on a plane with normal `normal`) turns the same way, by at
/// least [`JOIN_MIN_TURN_SINE`], at every corner.
fn convex(points: &[DVec3], normal: DVec3) -> bool {
    let n = points.len();
    (0..n).all(|i| {
        let (prev, at, next) = (points[(i + n - 1) % n], points[i], points[(i + 1) % n]);
        let (a, b) = (at - prev, next - at);
        let scale = a.length() * b.length();
        scale > 0.0 && a.cross(b).dot(normal) >= JOIN_MIN_TURN_SINE * scale
    })
}

/// Most corners a joined polygon grows to: with its front, back and a border per edge, a
/// slab stays well within the brush stage's face limit and its bevels few.
const MAX_JOINED_CORNERS: usize = 12;

/// `polygon` (wound as its triangles, on `t`'s plane) grown across its edge `k` (from
/// corner `k` to the next) by `u`, which runs that edge the other way, when the two are
/// joined (module docs): the same material and plane, `u`'s third corner on the plane, and
/// the union convex.
fn joined(polygon: &[DVec3], k: usize, t: &CleanTriangle, u: &CleanTriangle) -> Option<Vec<DVec3>> {
    if u.material != t.material || !u.plane.is_same(&t.plane) {
        return None;
    }
    let (a, b) = (polygon[k], polygon[(k + 1) % polygon.len()]);
    let m = (0..3).find(|&m| {
        corner(u.points[m]) == corner(b) && corner(u.points[(m + 1) % 3]) == corner(a)
    })?;
    let d = u.points[(m + 2) % 3];
    if t.plane.distance(d).abs() > MESH_ON_PLANE_EPSILON {
        return None;
    }
    let mut grown = Vec::with_capacity(polygon.len() + 1);
    grown.extend_from_slice(&polygon[..=k]);
    grown.push(d);
    grown.extend_from_slice(&polygon[k + 1..]);
    convex(&grown, t.plane.normal).then_some(grown)
}

/// The slab of the convex polygon `points` on `tri`'s plane, of its material (module docs).
fn slab(
    points: &[DVec3],
    tri: &CleanTriangle,
    meanings: &[MaterialMeaning],
    index: usize,
) -> Option<Brush> {
    let n = tri.plane.normal;
    let mut planes = vec![
        tri.plane,
        BuildPlane {
            normal: -n,
            dist: -(tri.plane.dist - PATCH_THICKNESS),
        },
    ];
    for i in 0..points.len() {
        let (a, b) = (points[i], points[(i + 1) % points.len()]);
        let out = (b - a).cross(n).normalize_or_zero();
        planes.push(BuildPlane::from_normal_dist(out, out.dot(a))?);
    }
    make_brush(&planes, meanings, tri.material, |_| Some(tri.material), loc_of(index))
}

/// The slabs of the open surfaces' triangles `tris` (module docs).
pub(super) fn slabs(tris: &[CleanTriangle], meanings: &[MaterialMeaning]) -> Slabs {
    let mut edges: FxHashMap<(Corner, Corner), usize> = FxHashMap::default();
    for (index, t) in tris.iter().enumerate() {
        for k in 0..3 {
            let edge = (corner(t.points[k]), corner(t.points[(k + 1) % 3]));
            edges.entry(edge).or_insert(index);
        }
    }
    let mut taken = vec![false; tris.len()];
    // (the polygon, its first triangle, that one's index).
    let mut polygons: Vec<(Vec<DVec3>, &CleanTriangle, usize)> = Vec::new();
    for (index, t) in tris.iter().enumerate() {
        if taken[index] {
            continue;
        }
        taken[index] = true;
        let mut polygon = t.points.to_vec();
        // Grow across the first edge that joins, from the first edge again, until none
        // does or the polygon is full.
        let mut grew = true;
        while grew && polygon.len() < MAX_JOINED_CORNERS {
            grew = false;
            for k in 0..polygon.len() {
                let reverse = (corner(polygon[(k + 1) % polygon.len()]), corner(polygon[k]));
                let Some(&other) = edges.get(&reverse) else {
                    continue;
                };
                if taken.get(other).is_none_or(|&t| t) {
                    continue;
                }
                if let Some(p) = tris.get(other).and_then(|u| joined(&polygon, k, t, u)) {
                    taken[other] = true;
                    polygon = p;
                    grew = true;
                    break;
                }
            }
        }
        polygons.push((polygon, t, index));
    }
    let made = map_all(&polygons, |(points, t, index)| slab(points, t, meanings, *index));
    let dropped = made.iter().filter(|b| b.is_none()).count();
    Slabs {
        brushes: made.into_iter().flatten().collect(),
        dropped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contents::Contents;
    use crate::surface::SurfaceFlags;

    fn meanings() -> Vec<MaterialMeaning> {
        vec![MaterialMeaning {
            name: "fence".into(),
            contents: Contents::SOLID,
            game_contents: 1,
            surface: SurfaceFlags::EMPTY,
        }]
    }

    fn tri(points: [[f64; 3]; 3], normal: DVec3, dist: f64) -> CleanTriangle {
        CleanTriangle {
            points: points.map(DVec3::from),
            plane: BuildPlane { normal, dist },
            material: 0,
            two_sided: false,
        }
    }

    #[test]
    fn a_flat_quads_two_triangles_are_one_slab() {
        let (a, b, c, d) = ([0., 0., 0.], [64., 0., 0.], [64., 64., 0.], [0., 64., 0.]);
        let quad = [tri([a, b, c], DVec3::Z, 0.0), tri([a, c, d], DVec3::Z, 0.0)];
        let out = slabs(&quad, &meanings());
        assert_eq!((out.brushes.len(), out.dropped), (1, 0));
        // Front, back and four borders.
        assert_eq!(out.brushes[0].sides.len(), 6);
        assert_eq!(out.brushes[0].mins, DVec3::new(0.0, 0.0, -PATCH_THICKNESS));
        assert_eq!(out.brushes[0].maxs, DVec3::new(64.0, 64.0, 0.0));
    }

    #[test]
    fn folded_or_concave_pairs_stay_two_slabs() {
        let (a, b, c) = ([0., 0., 0.], [64., 0., 0.], [64., 64., 0.]);
        // The second triangle folds up out of the first's plane (to x = y).
        let up = DVec3::new(1.0, -1.0, 0.0).normalize();
        let folded = [
            tri([a, b, c], DVec3::Z, 0.0),
            tri([a, c, [0., 0., 64.]], up, 0.0),
        ];
        assert_eq!(slabs(&folded, &meanings()).brushes.len(), 2);
        // Coplanar, but their union has a reflex corner at `a`.
        let dart = [
            tri([a, b, c], DVec3::Z, 0.0),
            tri([a, c, [-30., -5., 0.]], DVec3::Z, 0.0),
        ];
        assert_eq!(slabs(&dart, &meanings()).brushes.len(), 2);
    }
}
