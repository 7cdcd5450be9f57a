//! Sky and liquid volumes of a mesh: which open cells of the solid-leaf tree lie inside a
//! sky volume or under a liquid's surface, and so take that material's contents.
//!
//! Takes the tree (`solid_bsp.rs`: its nodes, each with the faces on its plane), its open
//! cells (convex regions, each side tagged with the node whose plane it lies on), the
//! cleaned faces and each material's meaning; gives, per open cell, the material whose
//! contents fill it (`None`: air).
//!
//! Quake's compilers draw a sky or liquid brush's faces from both sides where they meet the
//! air, and the walls around the brush facing into it, so in a mesh the volume looks like a
//! room whose opening is closed by the two-sided faces (`CleanMesh::volume`, splitters of the
//! tree with open space behind them). Two open cells are joined where they share a portal:
//! the overlap of their sides on the plane of a node, where no face of that node covers
//! its middle. The joined cells are the level's connected open spaces; each is then judged
//! by the faces that bound it:
//! - a space bounded more by faces of a sky material (one-sided sky faces facing into it,
//!   two-sided ones from either side) than by all other faces is that sky's volume;
//! - else a space that lies below liquid surfaces (faces within `LEVEL_SURFACE_MIN_UP` of
//!   level) more than above them is that liquid's volume (the one with the most surface);
//! - the space bounded by the most non-sky faces is the level's own air, never a volume.
//!
//! Guarantees: linear in the cells and faces but for the portal tests, which pair only the
//! sides on one node's plane whose boxes meet, and stop after [`MAX_PORTAL_TESTS`]
//! (counted); no recursion; a cell that cannot be placed stays air.

use glam::DVec3;
use rustc_hash::FxHashMap;

use super::clean::{CleanMesh, CleanTriangle};
use super::cells::{Child, MaterialMeaning, Node, PolytopeFace};
use crate::contents::Contents;
use crate::geom::{BuildPlane, Winding};
use crate::tolerance::{CLIP_EPSILON, MESH_ON_PLANE_EPSILON};

/// Most side pairs tested for a portal, a bound on the work (a level of a few thousand
/// triangles tests about a million).
pub(crate) const MAX_PORTAL_TESTS: usize = 50_000_000;

/// Narrowest a portal is, in units (twice its area over its perimeter: a strip's width):
/// a narrower overlap is two sides that touch only along an edge (two planes crossing there),
/// widened by the clip's epsilon and rounding, or a crack between faces, not a way through.
const PORTAL_MIN_WIDTH: f64 = 0.05;

/// How far outside a face's edges a portal's middle still counts as covered by it, in units:
/// the faces' on-plane tolerance, so that a crack between two faces that meet is no portal.
const PORTAL_COVER_SLACK: f64 = MESH_ON_PLANE_EPSILON;

/// How far off a face its sides are sampled to find the cells on either side, in units:
/// beyond the on-plane tolerance the tree sorted faces with.
const SIDE_PROBE: f64 = 4.0 * MESH_ON_PLANE_EPSILON;

/// A liquid face whose normal's vertical part is at least this is a surface with the liquid
/// below it (a waterfall's side, steeper, says nothing).
const LEVEL_SURFACE_MIN_UP: f64 = 0.5;

/// An open cell of the tree: its region, and the node side (`0` front, `1` back) it hangs
/// from.
pub(super) struct OpenCell {
    pub(super) faces: Vec<PolytopeFace>,
    pub(super) slot: (usize, usize),
}

/// What [`fill_volumes`] gives.
#[derive(Debug, Default)]
pub(super) struct Filled {
    /// Per open cell, the material whose contents fill it.
    pub(super) material: Vec<Option<u32>>,
    /// Connected open spaces made volumes.
    pub(super) volumes: usize,
    /// Whether the portal tests stopped at [`MAX_PORTAL_TESTS`].
    pub(super) exhausted: bool,
}

/// A cell's side on a node's plane: the cell, the side's polygon and its bounds.
type CellSide<'a> = (usize, &'a Winding, (DVec3, DVec3));

/// Union–find over the cells.
fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// Whether `p`, on the plane with normal `normal`, lies on the convex polygon `w` within
/// [`PORTAL_COVER_SLACK`] of its edges.
fn on_polygon(w: &Winding, normal: DVec3, p: DVec3) -> bool {
    let n = w.points.len();
    if n < 3 {
        return false;
    }
    let (mut inside_pos, mut inside_neg) = (true, true);
    for i in 0..n {
        let (a, b) = (w.points[i], w.points[(i + 1) % n]);
        let edge = b - a;
        let length = edge.length().max(f64::MIN_POSITIVE);
        let s = edge.cross(p - a).dot(normal) / length;
        inside_pos &= s >= -PORTAL_COVER_SLACK;
        inside_neg &= s <= PORTAL_COVER_SLACK;
    }
    inside_pos || inside_neg
}

/// The bounds of `w`.
fn bounds(w: &Winding) -> (DVec3, DVec3) {
    w.points.iter().fold(
        (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
        |(lo, hi), &p| (lo.min(p), hi.max(p)),
    )
}

/// The part of `a` over the convex polygon `b` (both on one plane, normal `normal`).
fn overlap(a: &Winding, b: &Winding, normal: DVec3) -> Option<Winding> {
    let n = b.points.len();
    let centre = b.points.iter().copied().sum::<DVec3>() / n.max(1) as f64;
    let mut part = Some(a.clone());
    for i in 0..n {
        let (p, q) = (b.points[i], b.points[(i + 1) % n]);
        let mut out = (q - p).cross(normal).normalize_or_zero();
        if out.dot(centre - p) > 0.0 {
            out = -out;
        }
        let plane = BuildPlane::from_normal_dist(out, out.dot(p))?;
        part = part.and_then(|w| w.into_clipped_behind(&plane, CLIP_EPSILON));
    }
    part.filter(|w| {
        let n = w.points.len();
        let perimeter: f64 = (0..n)
            .map(|i| w.points[i].distance(w.points[(i + 1) % n]))
            .sum();
        n >= 3 && 2.0 * w.area() >= PORTAL_MIN_WIDTH * perimeter
    })
}

/// The open cell holding `p`, by the tree (`None` in solid).
fn locate(nodes: &[Node], root: Child, cell_of: &FxHashMap<(usize, usize), usize>, p: DVec3) -> Option<usize> {
    let mut child = root;
    let mut slot = None;
    // Each step goes one level down; a tree has fewer levels than nodes.
    for _ in 0..=nodes.len() {
        match child {
            Child::Node(index) => {
                let node = nodes.get(index)?;
                let side = usize::from(node.plane.distance(p) < 0.0);
                slot = Some((index, side));
                child = node.children[side];
            }
            Child::Air => return slot.and_then(|s| cell_of.get(&s).copied()),
            Child::Solid(_) => return None,
        }
    }
    None
}

/// The area and centroid of a triangle.
fn area_centroid(t: &CleanTriangle) -> (f64, DVec3) {
    let [a, b, c] = t.points;
    (0.5 * (b - a).cross(c - a).length(), (a + b + c) / 3.0)
}

/// What bounds one connected open space (module docs).
#[derive(Default)]
struct Bounds {
    /// Area of faces of materials other than sky facing into it.
    other: f64,
    /// Area of each sky material's faces bounding it.
    sky: FxHashMap<u32, f64>,
    /// Area of each liquid's level surfaces above it.
    below: FxHashMap<u32, f64>,
    /// Area of liquid level surfaces below it.
    above: f64,
}

/// The material with the most area in `areas` (the lower index on a tie), and the total.
fn largest(areas: &FxHashMap<u32, f64>) -> Option<(u32, f64)> {
    let total: f64 = areas.values().sum();
    areas
        .iter()
        .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(a.0)))
        .map(|(&m, _)| (m, total))
}

/// Which open cells of the tree take a sky's or a liquid's contents (module docs).
pub(super) fn fill_volumes(
    nodes: &[Node],
    root: Child,
    cells: &[OpenCell],
    clean: &CleanMesh,
    meanings: &[MaterialMeaning],
) -> Filled {
    let mut filled = Filled {
        material: vec![None; cells.len()],
        ..Filled::default()
    };
    if clean.volume.is_empty() || cells.is_empty() {
        return filled;
    }
    let is_sky = |m: u32| {
        meanings
            .get(m as usize)
            .is_some_and(|x| x.contents.contains(Contents::SKY))
    };
    let is_liquid = |m: u32| {
        meanings
            .get(m as usize)
            .is_some_and(|x| x.contents.intersects(Contents::MASK_LIQUID))
    };
    let cell_of: FxHashMap<(usize, usize), usize> =
        cells.iter().enumerate().map(|(i, c)| (c.slot, i)).collect();
    // The cells' sides on each node's plane: behind it (facing along its normal), in front.
    let mut sides: Vec<[Vec<CellSide<'_>>; 2]> = Vec::new();
    sides.resize_with(nodes.len(), Default::default);
    for (index, cell) in cells.iter().enumerate() {
        for face in &cell.faces {
            let Some((node, sides)) = face.node.and_then(|n| Some((nodes.get(n)?, sides.get_mut(n)?)))
            else {
                continue;
            };
            let behind = usize::from(face.plane.normal.dot(node.plane.normal) > 0.0);
            sides[behind].push((index, &face.winding, bounds(&face.winding)));
        }
    }
    let mut parent: Vec<usize> = (0..cells.len()).collect();
    let mut tests = 0usize;
    let slack = DVec3::splat(CLIP_EPSILON);
    'nodes: for ([front, back], node) in sides.iter().zip(nodes) {
        for &(a, wa, (alo, ahi)) in back {
            for &(b, wb, (blo, bhi)) in front {
                if !(alo - slack).cmple(bhi).all() || !(blo - slack).cmple(ahi).all() {
                    continue;
                }
                if find(&mut parent, a) == find(&mut parent, b) {
                    continue;
                }
                tests += 1;
                if tests > MAX_PORTAL_TESTS {
                    filled.exhausted = true;
                    break 'nodes;
                }
                let Some(portal) = overlap(wa, wb, node.plane.normal) else {
                    continue;
                };
                let middle = portal.points.iter().copied().sum::<DVec3>()
                    / portal.points.len() as f64;
                if node
                    .on
                    .iter()
                    .any(|w| on_polygon(w, node.plane.normal, middle))
                {
                    continue;
                }
                let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
                parent[ra.max(rb)] = ra.min(rb);
            }
        }
    }
    // What bounds each space.
    let mut spaces: FxHashMap<usize, Bounds> = FxHashMap::default();
    let space_at = |p: DVec3, parent: &mut Vec<usize>| {
        locate(nodes, root, &cell_of, p).map(|c| find(parent, c))
    };
    for tri in &clean.shell {
        let (area, centre) = area_centroid(tri);
        let Some(space) = space_at(centre + tri.plane.normal * SIDE_PROBE, &mut parent) else {
            continue;
        };
        let bounds = spaces.entry(space).or_default();
        if is_sky(tri.material) {
            *bounds.sky.entry(tri.material).or_default() += area;
        } else {
            bounds.other += area;
        }
    }
    for tri in &clean.volume {
        let (area, centre) = area_centroid(tri);
        let n = tri.plane.normal;
        let front = space_at(centre + n * SIDE_PROBE, &mut parent);
        let back = space_at(centre - n * SIDE_PROBE, &mut parent);
        if is_sky(tri.material) {
            for space in [front, back].into_iter().flatten() {
                *spaces.entry(space).or_default().sky.entry(tri.material).or_default() += area;
            }
        } else if is_liquid(tri.material) && n.z.abs() >= LEVEL_SURFACE_MIN_UP {
            let (upper, lower) = if n.z > 0.0 { (front, back) } else { (back, front) };
            if let Some(space) = lower {
                *spaces.entry(space).or_default().below.entry(tri.material).or_default() += area;
            }
            if let Some(space) = upper {
                spaces.entry(space).or_default().above += area;
            }
        }
    }
    let level = spaces
        .iter()
        .max_by(|a, b| a.1.other.total_cmp(&b.1.other).then(b.0.cmp(a.0)))
        .map(|(&space, _)| space);
    let mut verdict: FxHashMap<usize, u32> = FxHashMap::default();
    for (&space, bounds) in &spaces {
        if Some(space) == level {
            continue;
        }
        let sky = largest(&bounds.sky).filter(|&(_, total)| total > bounds.other);
        let liquid = largest(&bounds.below).filter(|&(_, total)| total > bounds.above);
        if let Some((material, _)) = sky.or(liquid) {
            verdict.insert(space, material);
        }
    }
    filled.volumes = verdict.len();
    for (index, slot) in filled.material.iter_mut().enumerate() {
        *slot = verdict.get(&find(&mut parent, index)).copied();
    }
    filled
}
