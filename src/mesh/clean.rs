//! A mesh's triangles made fit to build from: bad ones dropped and counted, edges counted.
//!
//! Takes a `TriangleMesh` and, per material, whether its faces enclose solid (the game's
//! rules say; liquids and triggers do not) and whether they bound a volume of their own
//! contents (sky, liquids); gives a `CleanMesh`: the triangles that enclose solid, split into
//! closed-shell faces (for the solid-leaf BSP) and open-surface faces (thin walls), with
//! counts of what was dropped and a point on each hole; and the volume faces: every liquid
//! face once, and each two-sided face of a sky material, both sides' triangles where each
//! side is tessellated its own way (the kept ones alone may leave parts bare), so that the
//! volume behind them is closed (`volumes.rs`). A two-sided face of a volume material that
//! encloses solid (sky; liquids enclose none) goes there only, never to the open surfaces:
//! it is the boundary between the sky's volume and the air, and the volume's own brushes
//! (the sky's contents, solid as the game's rules make it) stop a sweep on the face itself;
//! a thin slab on it would have to guess which side is the volume, and a wrong guess stands
//! [`PATCH_THICKNESS`](crate::tolerance::PATCH_THICKNESS) out into the air (e1m2's sky walls,
//! 0.25 units, before). A two-sided sky face with no volume found on either side blocks
//! nothing. Rules, in order: a
//! triangle with a corner not finite or beyond [`MAX_MAP_COORD`] is dropped (`non_finite`);
//! one whose altitudes are all below [`MESH_MIN_ALTITUDE`] is dropped (`degenerate`); one
//! whose welded corners ([`MESH_WELD`]) repeat an earlier triangle's with the same winding
//! is dropped (`duplicate`), and with the opposite winding the pair is one two-sided face,
//! an open surface; so is a triangle whose centroid lies on a triangle of the opposite plane
//! (a two-sided surface tessellated differently on each side: the earlier in file order stays,
//! the later is a repeat). Edges are then counted over the enclosing triangles: a connected piece
//! (triangles joined by edges used exactly twice) is an open surface when more than one in
//! `OPEN_EDGE_SHARE` of its edges is used once, else a shell whose edges used once are
//! holes (counted, the first named with its midpoint). Guarantees: linear in the triangle
//! count (hash maps keyed by welded corners, never iterated for output); deterministic.

use glam::DVec3;
use rustc_hash::{FxHashMap, FxHashSet};

use super::{Triangle, TriangleMesh};
use crate::geom::BuildPlane;
use crate::threads::map_all;
use crate::tolerance::{MAX_MAP_COORD, MESH_MIN_ALTITUDE, MESH_PLANE_NORMAL_GRID, MESH_WELD};

/// A piece counts as an open surface when more than one of this many of its edges is used
/// once: a closed level with a few cracks (a hole or two in thousands of edges) stays a
/// shell, a sheet (a floating quad, a terrain patch, a wall with no back) does not.
pub(crate) const OPEN_EDGE_SHARE: usize = 20;

/// How far beyond a triangle's bounds a point may lie and still be tested against its
/// edges by `covers`, in map units: the point lies on the opposite plane only to the plane
/// key's grain ([`MESH_PLANE_NORMAL_GRID`] moves a 512-unit face by half a unit), and the
/// edge test's [`MESH_WELD`] slack reaches past a corner; a unit covers both on the faces of
/// a level, and a point farther out is on no triangle.
const COVER_BOUNDS_PAD: f64 = 1.0;

/// A welded corner.
type Key = [i64; 3];

/// The weld key of `p`.
fn key(p: DVec3) -> Key {
    let q = (p / MESH_WELD).round();
    [q.x as i64, q.y as i64, q.z as i64]
}

/// One face fit to build from.
#[derive(Clone, Debug)]
pub(crate) struct CleanTriangle {
    /// Its corners, counter-clockwise from the front.
    pub(crate) points: [DVec3; 3],
    /// Its plane (normal out of solid, towards the air).
    pub(crate) plane: BuildPlane,
    /// Index into the mesh's materials.
    pub(crate) material: u32,
    /// Whether it is one side of a two-sided surface (both windings in the file).
    pub(crate) two_sided: bool,
}

/// What [`clean_triangles`] gives.
#[derive(Clone, Debug, Default)]
pub(crate) struct CleanMesh {
    /// Faces of closed shells: behind them is solid.
    pub(crate) shell: Vec<CleanTriangle>,
    /// Faces of open surfaces: thin walls solid from both sides (two-sided sky faces are
    /// in [`CleanMesh::volume`] instead, module docs).
    pub(crate) open: Vec<CleanTriangle>,
    /// Faces that bound a volume of their material's own contents (two-sided sky faces,
    /// every liquid face once): the sides of the open cells that take those contents.
    pub(crate) volume: Vec<CleanTriangle>,
    /// Triangles dropped for a corner not finite or beyond the map's limit.
    pub(crate) non_finite: usize,
    /// Triangles dropped as degenerate.
    pub(crate) degenerate: usize,
    /// Triangles dropped as repeats.
    pub(crate) duplicate: usize,
    /// Triangles of materials that enclose nothing (liquids, triggers...), left out.
    pub(crate) non_solid: usize,
    /// Edges of shells used once (holes), and the midpoint of the first.
    pub(crate) hole_edges: usize,
    /// The midpoint of the first hole edge, in triangle order.
    pub(crate) first_hole: Option<DVec3>,
    /// Edges used by more than two triangles (where shells touch along an edge).
    pub(crate) non_manifold_edges: usize,
}

/// A plane's key for finding coplanar faces: its normal to [`MESH_PLANE_NORMAL_GRID`] and its
/// distance to [`MESH_WELD`] (a face and its flip on the same plane have opposite keys).
fn plane_key(plane: &BuildPlane) -> [i64; 4] {
    let n = (plane.normal / MESH_PLANE_NORMAL_GRID).round();
    [
        n.x as i64,
        n.y as i64,
        n.z as i64,
        (plane.dist / MESH_WELD).round() as i64,
    ]
}

/// Whether `p` (on the triangle's plane, whose normal is ± `normal`) lies on the triangle
/// `t`, within [`MESH_WELD`] of its edges.
fn covers(t: &[DVec3; 3], normal: DVec3, p: DVec3) -> bool {
    // The cheap test first: most pairs on one plane lie apart.
    let lo = t[0].min(t[1]).min(t[2]) - DVec3::splat(COVER_BOUNDS_PAD);
    let hi = t[0].max(t[1]).max(t[2]) + DVec3::splat(COVER_BOUNDS_PAD);
    if !(lo.cmple(p).all() && p.cmple(hi).all()) {
        return false;
    }
    let (mut all_in, mut all_out) = (true, true);
    for i in 0..3 {
        let (a, b) = (t[i], t[(i + 1) % 3]);
        let edge = b - a;
        let length = edge.length().max(f64::MIN_POSITIVE);
        let s = edge.cross(p - a).dot(normal) / length;
        all_in &= s >= -MESH_WELD;
        all_out &= s <= MESH_WELD;
    }
    all_in || all_out
}

/// The smallest altitude of the triangle `p` and its plane, `None` when it has no area.
fn triangle_plane(p: &[DVec3; 3]) -> Option<(f64, BuildPlane)> {
    let cross = (p[1] - p[0]).cross(p[2] - p[0]);
    let twice_area = cross.length();
    if twice_area.is_nan() || twice_area <= 0.0 {
        return None;
    }
    let longest = [p[1] - p[0], p[2] - p[1], p[0] - p[2]]
        .iter()
        .map(|e| e.length())
        .fold(0.0, f64::max);
    let altitude = twice_area / longest;
    // `from_points` orients a plane as qbsp reads a face's points (clockwise from the
    // front), so a counter-clockwise triangle goes in reversed; snapped onto an axis as a
    // `.map` face is when no corner moves noticeably.
    let plane = BuildPlane::from_points(p[0], p[2], p[1])?;
    let plane = plane.snapped([p[0], p[2], p[1]], p);
    Some((altitude, plane))
}

/// A triangle longer than this along its plane group's axis is kept apart from the sorted
/// ones (`PlaneGroup::long`), in map units: the sorted list is searched as far back as its
/// longest triangle reaches, so one long floor would make every search scan the whole plane.
const SHORT_REACH: f64 = 256.0;

/// The triangles on one plane (one `plane_key`), sorted by where they begin along one axis
/// in the plane, to find those that may cover a point without a scan of all.
struct PlaneGroup {
    /// The axis: the one the plane's normal leans along least.
    axis: usize,
    /// The longest extent along it of a triangle in `entries` (at most [`SHORT_REACH`]).
    reach: f64,
    /// (where a triangle begins along the axis, its index), in that order.
    entries: Vec<(f64, usize)>,
    /// The triangles longer than [`SHORT_REACH`], each tested.
    long: Vec<usize>,
}

impl PlaneGroup {
    /// An empty group for the plane of `key` (its flip's group takes the same axis).
    fn new(key: [i64; 4]) -> Self {
        let lean = [key[0].abs(), key[1].abs(), key[2].abs()];
        let axis = (0..3).min_by_key(|&a| lean[a]).unwrap_or(0);
        PlaneGroup {
            axis,
            reach: 0.0,
            entries: Vec::new(),
            long: Vec::new(),
        }
    }

    /// Adds triangle `index` with corners `points`.
    fn add(&mut self, index: usize, points: &[DVec3; 3]) {
        let along = points.map(|p| p[self.axis]);
        let lo = along[0].min(along[1]).min(along[2]);
        let extent = along[0].max(along[1]).max(along[2]) - lo;
        if extent > SHORT_REACH {
            self.long.push(index);
        } else {
            self.reach = self.reach.max(extent);
            self.entries.push((lo, index));
        }
    }

    /// The triangles whose bounds, grown by [`COVER_BOUNDS_PAD`], may reach `p` along the
    /// axis: every one that `covers` may find over it.
    fn near(&self, p: DVec3) -> impl Iterator<Item = usize> + '_ {
        let at = p[self.axis];
        let (from, to) = (at - self.reach - COVER_BOUNDS_PAD, at + COVER_BOUNDS_PAD);
        let first = self.entries.partition_point(|e| e.0 < from);
        self.entries[first..]
            .iter()
            .take_while(move |e| e.0 <= to)
            .map(|e| e.1)
            .chain(self.long.iter().copied())
    }
}

/// A welded corner's number: welded corners numbered in the order first met, so that a
/// triangle's and an edge's keys are a few bytes to hash rather than the corners' grid
/// coordinates.
type Corner = u32;

/// Triangles kept so far: each with its plane, its welded corners and whether it is one
/// side of a two-sided surface.
type Kept = Vec<(Triangle, BuildPlane, [Corner; 3], bool)>;

/// What [`pair_up`] dropped, and where.
#[derive(Default)]
struct Dropped {
    non_finite: usize,
    degenerate: usize,
    duplicate: usize,
    /// Welded corners of slivers (counted as degenerate; their edges still join others).
    slivers: Vec<[Corner; 3]>,
    /// The repeats of two-sided surfaces tessellated differently on each side, with their
    /// planes: where each side's triangles interleave in file order, the kept ones alone may
    /// leave parts of the surface bare.
    repeats: Vec<(Triangle, BuildPlane)>,
}

/// What one triangle is on its own (module docs' first two rules), with its welded corners
/// and plane when it is worth building from.
enum Verdict {
    NonFinite,
    Degenerate,
    /// Three distinct welded corners but no altitude of [`MESH_MIN_ALTITUDE`].
    Sliver([Key; 3]),
    Kept([Key; 3], BuildPlane),
}

/// `tri`'s [`Verdict`].
fn verdict(tri: &Triangle) -> Verdict {
    let finite = tri
        .points
        .iter()
        .all(|p| p.is_finite() && p.abs().max_element() <= MAX_MAP_COORD);
    if !finite {
        return Verdict::NonFinite;
    }
    let keys = tri.points.map(key);
    if keys[0] == keys[1] || keys[1] == keys[2] || keys[2] == keys[0] {
        return Verdict::Degenerate;
    }
    match triangle_plane(&tri.points).filter(|(altitude, _)| *altitude >= MESH_MIN_ALTITUDE) {
        Some((_, plane)) => Verdict::Kept(keys, plane),
        None => Verdict::Sliver(keys),
    }
}

/// The triangles of `triangles` worth building from (module docs: not finite, degenerate,
/// repeated), each pair of a surface seen from both sides made one two-sided face.
fn pair_up(triangles: &[&Triangle], dropped: &mut Dropped) -> Kept {
    // Each triangle's own verdict and plane, on every core; the pairing below is in file
    // order.
    let verdicts = map_all(triangles, |tri| verdict(tri));
    let mut kept: Kept = Vec::with_capacity(triangles.len());
    let mut seen: FxHashMap<[Corner; 3], usize> =
        FxHashMap::with_capacity_and_hasher(triangles.len(), Default::default());
    let mut corners: FxHashMap<Key, Corner> =
        FxHashMap::with_capacity_and_hasher(triangles.len(), Default::default());
    // More welded corners than `u32` numbers would need more triangles than the mesh may
    // hold (`MAX_MESH_TRIANGLES`); the number saturates rather than wraps.
    let mut number = |k: Key| -> Corner {
        let next = Corner::try_from(corners.len()).unwrap_or(Corner::MAX);
        *corners.entry(k).or_insert(next)
    };
    for (tri, verdict) in triangles.iter().zip(verdicts) {
        let (keys, plane) = match verdict {
            Verdict::NonFinite => {
                dropped.non_finite += 1;
                continue;
            }
            Verdict::Degenerate => {
                dropped.degenerate += 1;
                continue;
            }
            Verdict::Sliver(keys) => {
                // A sliver with three distinct corners (a T-junction fix fans a face through
                // a point on its edge) still joins its neighbours' edges: counted for the
                // topology, never built.
                dropped.degenerate += 1;
                dropped.slivers.push(keys.map(&mut number));
                continue;
            }
            Verdict::Kept(keys, plane) => (keys.map(&mut number), plane),
        };
        // The same cycle starts at its least corner; the reverse cycle names the flip.
        let canonical = |k: [Corner; 3]| -> [Corner; 3] {
            let start = (0..3).min_by_key(|&i| k[i]).unwrap_or(0);
            [k[start], k[(start + 1) % 3], k[(start + 2) % 3]]
        };
        let same = canonical(keys);
        let flipped = canonical([keys[0], keys[2], keys[1]]);
        if seen.contains_key(&same) {
            dropped.duplicate += 1;
            continue;
        }
        if let Some(&other) = seen.get(&flipped) {
            dropped.duplicate += 1;
            if let Some(entry) = kept.get_mut(other) {
                entry.3 = true;
            }
            continue;
        }
        seen.insert(same, kept.len());
        kept.push((**tri, plane, keys, false));
    }
    // Two-sided surfaces tessellated differently on each side: a triangle whose centroid
    // lies on a triangle of the opposite plane. The earlier of the two in file order stays,
    // as a two-sided face; the later is a repeat.
    let mut by_plane: FxHashMap<[i64; 4], PlaneGroup> = FxHashMap::default();
    for (index, (tri, plane, _, _)) in kept.iter().enumerate() {
        let key = plane_key(plane);
        by_plane
            .entry(key)
            .or_insert_with(|| PlaneGroup::new(key))
            .add(index, &tri.points);
    }
    for group in by_plane.values_mut() {
        group
            .entries
            .sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    }
    let indices: Vec<usize> = (0..kept.len()).collect();
    // For each, the first in file order of the opposite plane's triangles that covers its
    // centroid, on every core.
    let covered = map_all(&indices, |&index| {
        let (tri, plane, _, _) = &kept[index];
        let opposite = by_plane.get(&plane_key(&plane.flipped()))?;
        let centroid = (tri.points[0] + tri.points[1] + tri.points[2]) / 3.0;
        opposite
            .near(centroid)
            .filter(|&j| covers(&kept[j].0.points, plane.normal, centroid))
            .min()
    });
    let mut repeat = vec![false; kept.len()];
    for (index, covered_by) in covered.into_iter().enumerate() {
        match covered_by {
            Some(j) if j < index => repeat[index] = true,
            Some(_) => kept[index].3 = true,
            None => {}
        }
    }
    let mut out: Kept = Vec::with_capacity(kept.len());
    for (k, r) in kept.into_iter().zip(repeat) {
        if r {
            dropped.duplicate += 1;
            dropped.repeats.push((k.0, k.1));
        } else {
            out.push(k);
        }
    }
    let mut kept = out;
    kept.shrink_to_fit();
    kept
}

/// Sorts `mesh`'s triangles (module docs). `encloses[m]` is whether material `m`'s faces
/// enclose solid; `volume[m]` whether they bound a volume of their own contents (sky,
/// liquids: the rules' contents of the material), whose two-sided faces go to
/// [`CleanMesh::volume`] too.
pub(crate) fn clean_triangles(mesh: &TriangleMesh, encloses: &[bool], volume: &[bool]) -> CleanMesh {
    let mut out = CleanMesh::default();
    let material_is = |flags: &[bool], m: u32, default: bool| {
        flags.get(m as usize).copied().unwrap_or(default)
    };
    let mut liquids: Vec<&Triangle> = Vec::new();
    let mut solids: Vec<&Triangle> = Vec::new();
    for tri in &mesh.triangles {
        if material_is(encloses, tri.material, true) {
            solids.push(tri);
        } else if material_is(volume, tri.material, false) {
            liquids.push(tri);
        } else {
            out.non_solid += 1;
        }
    }
    let mut dropped = Dropped::default();
    let kept = pair_up(&solids, &mut dropped);
    let Dropped {
        non_finite,
        degenerate,
        duplicate,
        slivers,
        repeats,
    } = dropped;
    // Both sides' triangles of a two-sided sky surface close its volume (`Dropped::repeats`).
    for (tri, plane) in repeats {
        if material_is(volume, tri.material, false) {
            out.volume.push(CleanTriangle {
                points: tri.points,
                plane,
                material: tri.material,
                two_sided: true,
            });
        }
    }
    (out.non_finite, out.degenerate, out.duplicate) = (non_finite, degenerate, duplicate);
    // The liquids' surfaces, each once (drawn from both sides, as Quake draws them): what
    // they drop is theirs, not the solid's, and not reported.
    let mut liquid_dropped = Dropped::default();
    let liquid_kept = pair_up(&liquids, &mut liquid_dropped);
    let liquid_repeats = liquid_dropped.repeats.into_iter().map(|(t, p)| (t, p, true));
    for (tri, plane, two_sided) in liquid_kept
        .into_iter()
        .map(|(t, p, _, two)| (t, p, two))
        .chain(liquid_repeats)
    {
        out.volume.push(CleanTriangle {
            points: tri.points,
            plane,
            material: tri.material,
            two_sided,
        });
    }
    // Edge uses over the one-sided triangles, and the pieces they join.
    let mut edges: FxHashMap<(Corner, Corner), (u32, usize)> =
        FxHashMap::with_capacity_and_hasher(3 * kept.len(), Default::default());
    let undirected = |a: Corner, b: Corner| if a < b { (a, b) } else { (b, a) };
    for (index, (_, _, keys, two_sided)) in kept.iter().enumerate() {
        if *two_sided {
            continue;
        }
        for i in 0..3 {
            let e = undirected(keys[i], keys[(i + 1) % 3]);
            let entry = edges.entry(e).or_insert((0, index));
            entry.0 += 1;
        }
    }
    for keys in &slivers {
        for i in 0..3 {
            let e = undirected(keys[i], keys[(i + 1) % 3]);
            let entry = edges.entry(e).or_insert((0, usize::MAX));
            entry.0 += 1;
        }
    }
    let mut parent: Vec<usize> = (0..kept.len()).collect();
    let find = |parent: &mut Vec<usize>, mut i: usize| {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    };
    for (index, (_, _, keys, two_sided)) in kept.iter().enumerate() {
        if *two_sided {
            continue;
        }
        for i in 0..3 {
            let e = undirected(keys[i], keys[(i + 1) % 3]);
            if let Some(&(2, first)) = edges.get(&e)
                && first < kept.len()
            {
                let (a, b) = (find(&mut parent, index), find(&mut parent, first));
                if a != b {
                    parent[a.max(b)] = a.min(b);
                }
            }
        }
    }
    let mut piece_edges: FxHashMap<usize, (usize, usize, Option<DVec3>)> = FxHashMap::default();
    for (index, (tri, _, keys, two_sided)) in kept.iter().enumerate() {
        if *two_sided {
            continue;
        }
        let root = find(&mut parent, index);
        let entry = piece_edges.entry(root).or_insert((0, 0, None));
        for i in 0..3 {
            let e = undirected(keys[i], keys[(i + 1) % 3]);
            let uses = edges.get(&e).map_or(0, |u| u.0);
            entry.0 += 1;
            if uses == 1 {
                entry.1 += 1;
                if entry.2.is_none() {
                    entry.2 = Some((tri.points[i] + tri.points[(i + 1) % 3]) * 0.5);
                }
            }
        }
    }
    out.non_manifold_edges = edges.values().filter(|u| u.0 > 2).count();
    for (index, (tri, plane, _, two_sided)) in kept.iter().enumerate() {
        let clean = CleanTriangle {
            points: tri.points,
            plane: *plane,
            material: tri.material,
            two_sided: *two_sided,
        };
        let open = *two_sided || {
            let root = find(&mut parent, index);
            piece_edges
                .get(&root)
                .is_some_and(|&(all, once, _)| once * OPEN_EDGE_SHARE > all)
        };
        // A two-sided face of a volume material bounds that volume (module docs): no slab.
        if *two_sided && material_is(volume, tri.material, false) {
            out.volume.push(clean);
        } else if open {
            out.open.push(clean);
        } else {
            out.shell.push(clean);
        }
    }
    // Holes: pieces that stayed shells, in the order of their first triangle.
    let mut roots_done: FxHashSet<usize> = FxHashSet::default();
    for (index, entry) in kept.iter().enumerate() {
        if entry.3 {
            continue;
        }
        let root = find(&mut parent, index);
        if roots_done.contains(&root) {
            continue;
        }
        if let Some(&(all, once, first)) = piece_edges.get(&root)
            && once * OPEN_EDGE_SHARE <= all
            && once > 0
        {
            out.hole_edges += once;
            if out.first_hole.is_none() {
                out.first_hole = first;
            }
            roots_done.insert(root);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tri(a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> Triangle {
        Triangle {
            points: [a.into(), b.into(), c.into()],
            material: 0,
        }
    }

    /// The 12 triangles of a unit-ish cube, wound out (air outside).
    fn cube(size: f64) -> Vec<Triangle> {
        let c = |x: f64, y: f64, z: f64| [x * size, y * size, z * size];
        let quads = [
            [c(0., 0., 0.), c(0., 1., 0.), c(1., 1., 0.), c(1., 0., 0.)],
            [c(0., 0., 1.), c(1., 0., 1.), c(1., 1., 1.), c(0., 1., 1.)],
            [c(0., 0., 0.), c(1., 0., 0.), c(1., 0., 1.), c(0., 0., 1.)],
            [c(0., 1., 0.), c(0., 1., 1.), c(1., 1., 1.), c(1., 1., 0.)],
            [c(0., 0., 0.), c(0., 0., 1.), c(0., 1., 1.), c(0., 1., 0.)],
            [c(1., 0., 0.), c(1., 1., 0.), c(1., 1., 1.), c(1., 0., 1.)],
        ];
        quads
            .iter()
            .flat_map(|q| [tri(q[0], q[1], q[2]), tri(q[0], q[2], q[3])])
            .collect()
    }

    /// A quad seen from both sides: its two triangles, then the same wound the other way.
    fn two_sided_quad(material: u32) -> Vec<Triangle> {
        let q = [[0., 0., 0.], [64., 0., 0.], [64., 0., 64.], [0., 0., 64.]];
        let mut out = vec![tri(q[0], q[1], q[2]), tri(q[0], q[2], q[3])];
        out.extend([tri(q[0], q[2], q[1]), tri(q[0], q[3], q[2])]);
        for t in &mut out {
            t.material = material;
        }
        out
    }

    #[test]
    fn a_two_sided_sky_face_bounds_its_volume_and_is_no_thin_wall() {
        // Material 0 a wall, 1 a sky (encloses solid and bounds a volume of its own).
        let mut triangles = two_sided_quad(0);
        triangles.extend(
            two_sided_quad(1)
                .into_iter()
                .map(|t| Triangle {
                    points: t.points.map(|p| p + DVec3::new(0.0, 256.0, 0.0)),
                    ..t
                }),
        );
        let mesh = TriangleMesh {
            triangles,
            materials: vec!["wall".into(), "sky".into()],
            skipped: 0,
        };
        let clean = clean_triangles(&mesh, &[true, true], &[false, true]);
        // The wall's quad is a thin wall; the sky's bounds its volume only.
        assert_eq!(clean.open.len(), 2);
        assert!(clean.open.iter().all(|t| t.material == 0 && t.two_sided));
        assert_eq!(clean.volume.len(), 2);
        assert!(clean.volume.iter().all(|t| t.material == 1 && t.two_sided));
        assert_eq!((clean.shell.len(), clean.duplicate), (0, 4));
    }

    #[test]
    fn a_closed_cube_is_a_shell_without_holes() {
        let mesh = TriangleMesh {
            triangles: cube(64.0),
            materials: vec!["a".into()],
            skipped: 0,
        };
        let clean = clean_triangles(&mesh, &[true], &[false]);
        assert_eq!((clean.shell.len(), clean.open.len()), (12, 0));
        assert_eq!(clean.hole_edges, 0);
    }

    #[test]
    fn bad_triangles_are_dropped_and_counted() {
        let mut triangles = cube(64.0);
        triangles.push(tri([0., 0., 0.], [1., 0., 0.], [2., 0., 0.]));
        triangles.push(tri([f64::NAN, 0., 0.], [1., 0., 0.], [2., 5., 0.]));
        triangles.push(triangles[0]);
        let mesh = TriangleMesh {
            triangles,
            materials: vec!["a".into()],
            skipped: 0,
        };
        let clean = clean_triangles(&mesh, &[true], &[false]);
        assert_eq!(
            (clean.degenerate, clean.non_finite, clean.duplicate),
            (1, 1, 1)
        );
        assert_eq!(clean.shell.len(), 12);
    }

    #[test]
    fn a_lone_quad_is_open_and_a_cube_missing_a_triangle_has_a_hole() {
        let quad = TriangleMesh {
            triangles: cube(64.0)[..2].to_vec(),
            materials: vec!["a".into()],
            skipped: 0,
        };
        let clean = clean_triangles(&quad, &[true], &[false]);
        assert_eq!((clean.shell.len(), clean.open.len()), (0, 2));
        let mut big = Vec::new();
        // Six cubes' worth of edges is not enough to hide a hole under the share: use a
        // finely split cube instead by stacking many cubes apart.
        for k in 0..8 {
            for t in cube(16.0) {
                big.push(Triangle {
                    points: t.points.map(|p| p + DVec3::new(100.0 * f64::from(k), 0.0, 0.0)),
                    ..t
                });
            }
        }
        let mut holed = big.clone();
        holed.remove(0);
        let mesh = TriangleMesh {
            triangles: holed,
            materials: vec!["a".into()],
            skipped: 0,
        };
        let clean = clean_triangles(&mesh, &[true], &[false]);
        // The holed cube is its own piece: 3 of its 33 edge uses are once, under the share?
        // 3 * 20 = 60 > 33, so it is open; the other seven stay shells.
        assert_eq!(clean.shell.len(), 7 * 12);
        assert_eq!(clean.open.len(), 11);
    }
}
