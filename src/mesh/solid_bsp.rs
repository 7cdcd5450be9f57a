//! A mesh's faces to convex brushes: a solid-leaf BSP over the closed shells (Melax's
//! construction, as MDK2 and Neverwinter Nights built their worlds), its solid leaves cut
//! from the level's box, and the open surfaces as thin slabs (`slabs.rs`).
//!
//! Takes a `CleanMesh` and each material's meaning (`MaterialMeaning`: contents, the
//! game's value, surface flags, as the game's rules give them); gives `MeshBrushes`: world
//! brushes that cover exactly the solid space, the same kind of brush a `.map` gives.
//!
//! The tree: splitting planes are only the faces' own planes. At each node the faces on the
//! node's faces' bounds with nothing behind them are peeled first (`peeling_faces`,
//! `peel_chain`): the solid behind each becomes one leaf, where a splitter through the middle
//! would cut it, and every splitter below would cut it again (Quake levels are mostly void
//! around their rooms: this makes 11–22 % fewer brushes on id's levels). Then the splitter is
//! an axial face's plane that splits few faces and leaves the two sides near even, scored
//! on a sample of the node's faces (`axial_splitter`; the plane nearest the middle when no
//! face is axial): fewer splits make fewer, larger regions, so fewer brushes for the
//! bevels, the tree and the sweeps. The same solid space results whatever the choice; a
//! surface tessellated differently may be cut differently, and a character moves over it
//! the same (tests/it/mesh.rs, no seams). Faces on it (within [`MESH_ON_PLANE_EPSILON`])
//! are used up, the others sorted or split to either side. A side left with no face is a
//! leaf: in front, air (the faces' normals point into the air); behind, solid, of the
//! material of the node's faces. The leaves' convex regions are the level's box (the faces'
//! bounds grown by `REGION_BOX_PAD`) cut by the planes on their path. Each side of a region
//! takes the material of a face on its plane. Regions are then brushes (the walk's cut
//! polygons, checked as `brush_from_planes` checks its own: `cell_brush.rs`), merged where
//! their union is convex (the importer's merge); a merged region with a side on the box is
//! the void around the level and is tagged [`Contents::OUTSIDE`] as well, as the Quake
//! importer tags the void its compiler filled (tagged after the merge: a mesh does not say
//! where a wall's solid ends and the void's begins). Peeling keeps the void beyond the
//! level's extreme faces in the regions that reach the box; the void in the level's
//! concave pockets, inside those faces' bounds, is solid but not tagged.
//! Volume faces (sky, liquids: `CleanMesh::volume`) split the tree as the others do, but the
//! side behind one is open (a solid face on the same plane decides first); the open cells,
//! their regions kept with the node each side lies on, go to `volumes.rs`, and those it
//! places in a sky or liquid volume become brushes of that material's contents (merged
//! among themselves).
//!
//! A two-sided open face is first turned to grow into the volume its material encloses (the
//! side where rays fanned from it meet more faces of the same material: Quake draws a sky
//! brush's faces from inside it too), so the surface stays where it is drawn from the
//! other; `slabs.rs` makes the slabs.
//!
//! Work on two cores and more (`threads`, with the `parallel` feature): the build's and
//! the walk's subtrees down to [`PARALLEL_WALK_DEPTH`] forks, the regions' brushes, the
//! solid regions' merge beside the volumes and the slabs; every list is joined in the
//! serial walk's order, so the brushes are the same on any number of cores.
//!
//! Guarantees: the build and the walk use explicit stacks (their parallel tops are a
//! recursion at most [`MAX_PARALLEL_RECURSION`] deep); each face is split only by planes it
//! spans, so the work is bounded by the face count times the depth; every brush is
//! validated by the brush stage (a region it rejects is counted in `dropped`).

use glam::DVec3;

use super::cell_brush::{loc_of, region_brush};
use super::cells::{Child, MaterialMeaning, Node, PolytopeFace};
use super::clean::{CleanMesh, CleanTriangle};
use super::slabs::slabs;
use super::volumes::{OpenCell, fill_volumes};
use crate::brush::Brush;
use crate::contents::Contents;
use crate::geom::{BuildPlane, PartBehind, Winding, cut_planes};
use crate::threads::{join, map_all};
use crate::tolerance::{CLIP_EPSILON, MESH_ON_PLANE_EPSILON};

/// How far the level's box reaches beyond the faces' bounds, in map units: far enough that
/// the void behind the outermost faces closes in regions of their own, which the box marks
/// as the outside.
pub(crate) const REGION_BOX_PAD: f64 = 8.0;


/// What [`mesh_brushes`] gives.
#[derive(Debug, Default)]
pub(crate) struct MeshBrushes {
    /// The world's brushes.
    pub(crate) brushes: Vec<Brush>,
    /// Nodes of the solid-leaf tree.
    pub(crate) nodes: usize,
    /// Its solid leaves (regions before merging).
    pub(crate) solid_leaves: usize,
    /// Regions or slabs the brush stage rejected or that had no volume.
    pub(crate) dropped: usize,
    /// Open cells of the tree.
    pub(crate) open_cells: usize,
    /// Open cells that took the contents of the volume they lie in (sky, a liquid).
    pub(crate) volume_cells: usize,
    /// The volumes found: connected open spaces given a material's contents.
    pub(crate) volumes: usize,
    /// Whether finding them stopped at `volumes::MAX_PORTAL_TESTS`.
    pub(crate) volumes_cut_short: bool,
}

/// A face on its way down the tree.
#[derive(Clone)]
struct Face {
    winding: Winding,
    plane: BuildPlane,
    material: u32,
    /// A face of a volume (sky, liquid: `CleanMesh::volume`): it splits, but behind it is
    /// open, not solid.
    volume: bool,
    /// The winding's bounds, low and high corners: a node reads every face's extent along
    /// axes several times (its bounds, its peels, its splitter's score, the side of an
    /// axial splitter), from here rather than from the corners behind the winding's pointer.
    bounds: (DVec3, DVec3),
}

impl Face {
    fn new(winding: Winding, plane: BuildPlane, material: u32, volume: bool) -> Face {
        let mut lo = DVec3::splat(f64::INFINITY);
        let mut hi = DVec3::splat(f64::NEG_INFINITY);
        for &p in &winding.points {
            lo = lo.min(p);
            hi = hi.max(p);
        }
        Face {
            winding,
            plane,
            material,
            volume,
            bounds: (lo, hi),
        }
    }
}



/// Which side of `plane` the face lies on.
enum Side {
    On,
    Front,
    Back,
    Spans,
}

fn side_of(face: &Face, plane: &BuildPlane) -> Side {
    let (mut front, mut back) = (false, false);
    if let Some(axis) = (0..3).find(|&a| plane.normal[a].abs() == 1.0) {
        // An axial plane's distance is ± one coordinate less its own, exactly as the dot
        // product gives it (the other components are zero): the bounds' ends are the
        // corners' extremes.
        let along = plane.normal[axis];
        let (lo, hi) = face.bounds;
        let (a, b) = (along * lo[axis] - plane.dist, along * hi[axis] - plane.dist);
        front = a.max(b) > MESH_ON_PLANE_EPSILON;
        back = a.min(b) < -MESH_ON_PLANE_EPSILON;
    } else {
        for &p in &face.winding.points {
            let d = plane.distance(p);
            front |= d > MESH_ON_PLANE_EPSILON;
            back |= d < -MESH_ON_PLANE_EPSILON;
        }
    }
    match (front, back) {
        (false, false) => Side::On,
        (true, false) => Side::Front,
        (false, true) => Side::Back,
        (true, true) => Side::Spans,
    }
}

/// Faces a node samples to score its candidate splitters (`axial_splitter`): every
/// `n / SPLIT_SAMPLE`-th, so a node's scoring costs O(n) plus a sort of this many, whatever
/// its face count.
const SPLIT_SAMPLE: usize = 256;

/// What a face split by a candidate splitter costs, in faces of imbalance between its sides
/// (`axial_splitter`): a split makes two faces and cuts the regions behind both, while
/// imbalance only deepens the tree; high enough that splitters through the open rather than
/// through walls win, low enough that a wall splitting nothing on the cell's edge does not
/// win over one near its middle for ever (a tree of one peeled face per level).
const SPLIT_WEIGHT: usize = 8;

/// The axial face of `faces` whose plane splits them best (module docs), `None` when none
/// is axial. Each axial plane is scored by the sampled faces ([`SPLIT_SAMPLE`]) it would
/// split, times [`SPLIT_WEIGHT`], plus the difference between the sampled faces wholly on
/// either side; each face's extent along the axis gives both, from two sorted lists. Ties
/// go to the axis along which the faces' bounds are longest, then to the plane nearest
/// their middle, the lower coordinate, +n before −n. `(mins, maxs)` are the faces' bounds
/// ([`face_bounds`]).
fn axial_splitter(faces: &[Face], (mins, maxs): (DVec3, DVec3)) -> Option<usize> {
    let middle = (mins + maxs) * 0.5;
    let extent = maxs - mins;
    let mut axes = [0usize, 1, 2];
    axes.sort_by(|&a, &b| extent[b].total_cmp(&extent[a]));
    let stride = faces.len().div_ceil(SPLIT_SAMPLE).max(1);
    let sampled = faces.len().div_ceil(stride);
    let (mut lo, mut hi) = (Vec::with_capacity(sampled), Vec::with_capacity(sampled));
    // (score, axis rank, distance from the middle, coordinate, −n), and the face.
    type Key = (usize, usize, f64, f64, bool);
    let mut best: Option<(Key, usize)> = None;
    let before = |a: &Key, b: &Key| {
        a.0.cmp(&b.0)
            .then(a.1.cmp(&b.1))
            .then(a.2.total_cmp(&b.2))
            .then(a.3.total_cmp(&b.3))
            .then(a.4.cmp(&b.4))
            .is_lt()
    };
    for (rank, &axis) in axes.iter().enumerate() {
        if !faces.iter().any(|f| f.plane.normal[axis].abs() == 1.0) {
            continue;
        }
        lo.clear();
        hi.clear();
        for face in faces.iter().step_by(stride) {
            lo.push(face.bounds.0[axis]);
            hi.push(face.bounds.1[axis]);
        }
        lo.sort_unstable_by(f64::total_cmp);
        hi.sort_unstable_by(f64::total_cmp);
        for (index, face) in faces.iter().enumerate() {
            let along = face.plane.normal[axis];
            if along.abs() != 1.0 {
                continue;
            }
            let c = face.plane.dist * along;
            // Begun below the plane, ended at or below it: the difference spans it.
            let begun = lo.partition_point(|&x| x < c - MESH_ON_PLANE_EPSILON);
            let ended = hi.partition_point(|&x| x <= c + MESH_ON_PLANE_EPSILON);
            let splits = begun.saturating_sub(ended);
            let above = lo.len() - begun;
            let score = splits * SPLIT_WEIGHT + above.abs_diff(ended);
            let key = (score, rank, (c - middle[axis]).abs(), c, along < 0.0);
            if best.as_ref().is_none_or(|(b, _)| before(&key, b)) {
                best = Some((key, index));
            }
        }
    }
    best.map(|(_, index)| index)
}

/// The faces of `faces` to peel first (module docs), as many as there are bounds to peel:
/// for each of the faces' bounds (`(mins, maxs)`, [`face_bounds`]) where a solid face lies,
/// axial and facing the others, and no face faces away, that face. Its plane splits nothing
/// and nothing lies behind it, so the whole part of the node's region behind it is one solid
/// leaf: the void beyond the level's extreme walls, or a wall's solid out to the last
/// splitter, stays in one cell instead of being cut by every splitter below. Peeling one
/// bound leaves the other bounds with nothing behind, so they are peeled in one pass, the
/// one across the faces' largest cross-section first (ties to the lower axis, then the low
/// bound).
fn peeling_faces(faces: &[Face], (mins, maxs): (DVec3, DVec3)) -> Vec<usize> {
    // Per axis and end (0 the low bound, facing +n; 1 the high, facing −n): the first
    // solid face on that bound facing the level, and whether a face on it faces away.
    let mut found: [[Option<usize>; 2]; 3] = [[None; 2]; 3];
    let mut away = [[false; 2]; 3];
    for (index, face) in faces.iter().enumerate() {
        for axis in 0..3 {
            let along = face.plane.normal[axis];
            if along.abs() != 1.0 {
                continue;
            }
            let x = face.plane.dist * along;
            for (end, bound) in [(0, mins[axis]), (1, maxs[axis])] {
                if (x - bound).abs() > MESH_ON_PLANE_EPSILON {
                    continue;
                }
                let inward = (along > 0.0) == (end == 0);
                if !inward {
                    away[axis][end] = true;
                } else if !face.volume && found[axis][end].is_none() {
                    found[axis][end] = Some(index);
                }
            }
        }
    }
    let extent = maxs - mins;
    let mut peels: Vec<(f64, usize)> = Vec::with_capacity(6);
    for axis in 0..3 {
        let area = extent[(axis + 1) % 3] * extent[(axis + 2) % 3];
        for end in 0..2 {
            if let Some(index) = found[axis][end].filter(|_| !away[axis][end]) {
                peels.push((area, index));
            }
        }
    }
    // Stable: equal areas keep the axis and end order.
    peels.sort_by(|a, b| b.0.total_cmp(&a.0));
    peels.into_iter().map(|(_, index)| index).collect()
}

/// The chain of peeling nodes over `faces` ([`peeling_faces`], again on what is left until
/// no bound can be peeled), and the faces left. Each node's children are the next node in
/// front (`Child::Node` of its index in the chain, local) and solid behind; the last one's
/// front is air until its caller hangs the rest there.
fn peel_chain(mut faces: Vec<Face>) -> (Vec<Node>, Vec<Face>) {
    let mut chain: Vec<Node> = Vec::new();
    loop {
        let peels = peeling_faces(&faces, face_bounds(&faces));
        if peels.is_empty() {
            return (chain, faces);
        }
        let planes: Vec<(BuildPlane, u32)> = peels
            .iter()
            .filter_map(|&i| faces.get(i).map(|f| (f.plane, f.material)))
            .collect();
        let mut on: Vec<Vec<Winding>> = vec![Vec::new(); planes.len()];
        let mut rest = Vec::with_capacity(faces.len());
        for face in faces {
            match planes
                .iter()
                .position(|(plane, _)| matches!(side_of(&face, plane), Side::On))
            {
                Some(k) => on[k].push(face.winding),
                None => rest.push(face),
            }
        }
        faces = rest;
        for ((plane, material), on) in planes.into_iter().zip(on) {
            if let Some(last) = chain.len().checked_sub(1) {
                chain[last].children[0] = Child::Node(chain.len());
            }
            chain.push(Node {
                plane,
                material,
                children: [Child::Air, Child::Solid(material)],
                on,
            });
        }
        if faces.is_empty() {
            return (chain, faces);
        }
    }
}

/// The bounds of every corner of `faces`: low and high corners.
fn face_bounds(faces: &[Face]) -> (DVec3, DVec3) {
    let mut mins = DVec3::splat(f64::INFINITY);
    let mut maxs = DVec3::splat(f64::NEG_INFINITY);
    for face in faces {
        mins = mins.min(face.bounds.0);
        maxs = maxs.max(face.bounds.1);
    }
    (mins, maxs)
}

/// The face of `faces` whose plane splits them (module docs): the best axial plane
/// (`axial_splitter`); when no face is axial, the plane nearest the middle of the faces'
/// bounds, ties to the lower normal.
fn choose_splitter(faces: &[Face]) -> usize {
    let bounds = face_bounds(faces);
    if let Some(index) = axial_splitter(faces, bounds) {
        return index;
    }
    let (mins, maxs) = bounds;
    let middle = (mins + maxs) * 0.5;
    let off = |f: &Face| f.plane.distance(middle).abs();
    faces
        .iter()
        .enumerate()
        .min_by(|(_, a), (_, b)| {
            off(a).total_cmp(&off(b)).then_with(|| {
                a.plane
                    .normal
                    .to_array()
                    .partial_cmp(&b.plane.normal.to_array())
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
        })
        .map_or(0, |(index, _)| index)
}

/// Faces still to sort, and the node and side (0 front, 1 back) their subtree fills (`None`
/// for the subtree's root).
type Pending = (Vec<Face>, Option<(usize, usize)>);

/// Subtrees of the solid-leaf tree this many forks below the root (nodes with faces on both
/// sides), or nearer, are built side by side (`threads::join`), as the walk walks them
/// ([`PARALLEL_WALK_DEPTH`]); their nodes are joined in the serial build's order (each node,
/// its front subtree, then its back), so the tree is the same on any number of cores.
const PARALLEL_BUILD_FORKS: usize = PARALLEL_WALK_DEPTH;

/// How deep the build and the walk recurse at most before going on with an explicit stack
/// (their parallel tops follow forks, and a chain of peeled faces has none): a bound on the
/// call stack whatever the mesh.
const MAX_PARALLEL_RECURSION: usize = 64;

/// Builds the solid-leaf tree of `faces`; its root, and the nodes.
fn build_tree(faces: Vec<Face>) -> (Child, Vec<Node>) {
    if faces.is_empty() {
        return (Child::Air, Vec::new());
    }
    (Child::Node(0), build_subtree(faces, (0, 0)))
}

/// The nodes of the subtree of `faces` (not empty), its root first and every child index
/// local to the list; `(depth, forks)` is where it hangs (recursion depth, forks above).
fn build_subtree(faces: Vec<Face>, (depth, forks): (usize, usize)) -> Vec<Node> {
    if forks >= PARALLEL_BUILD_FORKS || depth >= MAX_PARALLEL_RECURSION {
        return build_serially(faces);
    }
    let (mut chain, faces) = peel_chain(faces);
    if faces.is_empty() {
        return chain;
    }
    let (node, front, back) = split(faces);
    let fork = !front.is_empty() && !back.is_empty();
    let next = (depth + 1, forks + usize::from(fork));
    let side = |faces: Vec<Face>| {
        if faces.is_empty() {
            Vec::new()
        } else {
            build_subtree(faces, next)
        }
    };
    let (front, back) = if fork {
        join(|| side(front), || side(back))
    } else {
        (side(front), side(back))
    };
    let mut nodes = Vec::with_capacity(1 + front.len() + back.len());
    nodes.push(node);
    for (k, subtree) in [(0, front), (1, back)] {
        if subtree.is_empty() {
            continue;
        }
        let offset = nodes.len();
        nodes[0].children[k] = Child::Node(offset);
        nodes.extend(offset_by(subtree, offset));
    }
    let offset = chain.len();
    if let Some(last) = chain.last_mut() {
        // The split's node follows the chain: every index moves past it.
        last.children[0] = Child::Node(offset);
        chain.extend(offset_by(nodes, offset));
        return chain;
    }
    nodes
}

/// `nodes` with every child index moved by `offset` (a subtree appended after that many).
fn offset_by(nodes: Vec<Node>, offset: usize) -> impl Iterator<Item = Node> {
    nodes.into_iter().map(move |mut n| {
        for c in &mut n.children {
            if let Child::Node(i) = c {
                *i += offset;
            }
        }
        n
    })
}

/// [`build_subtree`] on one thread, with an explicit stack.
fn build_serially(faces: Vec<Face>) -> Vec<Node> {
    let mut nodes: Vec<Node> = Vec::new();
    let mut stack: Vec<Pending> = vec![(faces, None)];
    while let Some((faces, mut slot)) = stack.pop() {
        let (chain, faces) = peel_chain(faces);
        for mut node in chain {
            // The chain's own links are rebuilt here, in the list's indices.
            node.children[0] = Child::Air;
            let index = nodes.len();
            nodes.push(node);
            if let Some((parent, side)) = slot {
                nodes[parent].children[side] = Child::Node(index);
            }
            slot = Some((index, 0));
        }
        if faces.is_empty() {
            continue;
        }
        let (node, front, back) = split(faces);
        let index = nodes.len();
        nodes.push(node);
        if let Some((parent, side)) = slot {
            nodes[parent].children[side] = Child::Node(index);
        }
        if !back.is_empty() {
            stack.push((back, Some((index, 1))));
        }
        if !front.is_empty() {
            stack.push((front, Some((index, 0))));
        }
    }
    nodes
}

/// One node of the tree over `faces` (not empty): its splitter ([`choose_splitter`]), the
/// faces on its plane, and the faces in front and behind, split where they span it. Its
/// children are air in front and, behind, solid of the splitter's material (or air behind a
/// volume's face), until the subtrees replace them.
fn split(faces: Vec<Face>) -> (Node, Vec<Face>, Vec<Face>) {
    let mut pick = choose_splitter(&faces);
    if faces[pick].volume {
        // A solid face on the same plane decides what lies behind it (a pool's surface
        // flush with the floor beside it).
        let plane = faces[pick].plane;
        if let Some(solid) = faces
            .iter()
            .position(|f| !f.volume && matches!(side_of(f, &plane), Side::On))
        {
            pick = solid;
        }
    }
    let plane = faces[pick].plane;
    let material = faces[pick].material;
    let solid_behind = !faces[pick].volume;
    // Each face's side first, so that the lists are made their size once rather than grown
    // (a face is a few dozen bytes, moved again at every level).
    let sides: Vec<Side> = faces.iter().map(|f| side_of(f, &plane)).collect();
    let count = |keep: fn(&Side) -> bool| sides.iter().filter(|s| keep(s)).count();
    let mut front = Vec::with_capacity(count(|s| matches!(s, Side::Front | Side::Spans)));
    let mut back = Vec::with_capacity(count(|s| matches!(s, Side::Back | Side::Spans)));
    let mut on = Vec::with_capacity(count(|s| matches!(s, Side::On)));
    for (face, side) in faces.into_iter().zip(sides) {
        match side {
            Side::On => on.push(face.winding),
            Side::Front => front.push(face),
            Side::Back => back.push(face),
            Side::Spans => {
                let Face {
                    winding,
                    plane: own,
                    material,
                    volume,
                    ..
                } = face;
                let (f, b) = winding.into_split(&plane, CLIP_EPSILON);
                for (part, list) in [(f, &mut front), (b, &mut back)] {
                    if let Some(w) = part.filter(|w| w.points.len() >= 3) {
                        list.push(Face::new(w, own, material, volume));
                    }
                }
            }
        }
    }
    let behind = if solid_behind {
        Child::Solid(material)
    } else {
        Child::Air
    };
    let node = Node {
        plane,
        material,
        children: [Child::Air, behind],
        on,
    };
    (node, front, back)
}

/// The part of the region `faces` behind `plane` (node `node`'s, or its flip); `None` when
/// nothing with volume is left.
fn cut(
    faces: &[PolytopeFace],
    plane: BuildPlane,
    material: u32,
    node: usize,
) -> Option<Vec<PolytopeFace>> {
    if let Some(same) = faces.iter().position(|f| f.plane.is_same(&plane)) {
        let mut out = faces.to_vec();
        out[same].node = Some(node);
        return Some(out);
    }
    if faces.iter().any(|f| f.plane.is_same(&plane.flipped())) {
        return None;
    }
    let cap = Winding::base_for_plane(&plane)
        .into_clipped_behind_all(faces.iter().map(|f| &f.plane), CLIP_EPSILON);
    let mut out: Vec<PolytopeFace> = Vec::with_capacity(faces.len() + 1);
    for face in faces {
        // Every face of a region has area (the box's, and those kept below), so a face
        // wholly behind is kept as it is.
        match face.winding.part_behind(&plane, CLIP_EPSILON) {
            PartBehind::Whole => out.push(face.clone()),
            PartBehind::Part(winding) if winding.area() > 0.0 => out.push(PolytopeFace {
                plane: face.plane,
                winding,
                material: face.material,
                node: face.node,
            }),
            PartBehind::Part(_) | PartBehind::Nothing => {}
        }
    }
    if let Some(winding) = cap.filter(|w| w.area() > 0.0) {
        out.push(PolytopeFace {
            plane,
            winding,
            material: Some(material),
            node: Some(node),
        });
    }
    (out.len() >= 4).then_some(out)
}

/// The six planes of the box `mins`–`maxs`, facing out.
fn box_planes(mins: DVec3, maxs: DVec3) -> [BuildPlane; 6] {
    let axes = [DVec3::X, DVec3::Y, DVec3::Z];
    let mut out = [BuildPlane {
        normal: DVec3::X,
        dist: 0.0,
    }; 6];
    for (k, axis) in axes.into_iter().enumerate() {
        out[k] = BuildPlane {
            normal: axis,
            dist: maxs[k],
        };
        out[k + 3] = BuildPlane {
            normal: -axis,
            dist: -mins[k],
        };
    }
    out
}

/// The material of the first solid leaf the segment `a`–`b` enters in the tree `root`,
/// `None` when it stays in the air.
fn first_solid(nodes: &[Node], root: Child, a: DVec3, b: DVec3) -> Option<u32> {
    // (child, the part of the segment in it as fractions), nearest part last.
    let mut stack = vec![(root, 0.0f64, 1.0f64)];
    while let Some((child, t0, t1)) = stack.pop() {
        match child {
            Child::Air => {}
            Child::Solid(material) => return Some(material),
            Child::Node(index) => {
                let node = nodes.get(index)?;
                let p0 = a.lerp(b, t0);
                let p1 = a.lerp(b, t1);
                let (d0, d1) = (node.plane.distance(p0), node.plane.distance(p1));
                let [front, back] = node.children;
                if d0 >= 0.0 && d1 >= 0.0 {
                    stack.push((front, t0, t1));
                } else if d0 < 0.0 && d1 < 0.0 {
                    stack.push((back, t0, t1));
                } else {
                    let t = t0 + (t1 - t0) * (d0 / (d0 - d1));
                    let (near, far) = if d0 >= 0.0 { (front, back) } else { (back, front) };
                    stack.push((far, t, t1));
                    stack.push((near, t0, t));
                }
            }
        }
    }
    None
}

/// How far a two-sided face looks along each of its sides for the volume its material
/// encloses, in map units: across any room of a level.
const TWO_SIDED_PROBE: f64 = 8192.0;

/// `tri`, turned to face away from the volume its material encloses when that lies on its
/// front: a two-sided surface (Quake draws a sky brush's faces from its inside too) is the
/// boundary of its material's volume, whose other faces are mostly of the same material,
/// while the room on its other side is faced with others. Nine rays fanned over each side
/// (along the normal, and 45° off it towards the face's edges and corners) count the first
/// faces of the material they meet; the side with more is the volume. The slab then grows
/// into that volume, and the surface seen from the other side stays where it is drawn. A
/// tie keeps the face as the file winds it.
fn facing_out_of_its_volume(tri: &CleanTriangle, nodes: &[Node], root: Child) -> CleanTriangle {
    if !tri.two_sided {
        return tri.clone();
    }
    let n = tri.plane.normal;
    let t1 = (tri.points[1] - tri.points[0]).normalize_or_zero();
    let t2 = n.cross(t1);
    let centroid = (tri.points[0] + tri.points[1] + tri.points[2]) / 3.0;
    let count = |side: f64| -> usize {
        let start = centroid + n * (side * MESH_ON_PLANE_EPSILON * 2.0);
        let mut found = 0;
        for a in [-1.0, 0.0, 1.0] {
            for b in [-1.0, 0.0, 1.0] {
                let direction = (n * side + t1 * a + t2 * b).normalize_or_zero();
                let end = start + direction * TWO_SIDED_PROBE;
                found += usize::from(first_solid(nodes, root, start, end) == Some(tri.material));
            }
        }
        found
    };
    if count(1.0) > count(-1.0) {
        CleanTriangle {
            points: [tri.points[0], tri.points[2], tri.points[1]],
            plane: tri.plane.flipped(),
            ..tri.clone()
        }
    } else {
        tri.clone()
    }
}

/// The brushes of `clean` (module docs).
pub(crate) fn mesh_brushes(clean: &CleanMesh, meanings: &[MaterialMeaning]) -> MeshBrushes {
    let mut out = MeshBrushes::default();
    let all = clean.shell.iter().chain(&clean.open).chain(&clean.volume);
    let mut mins = DVec3::splat(f64::INFINITY);
    let mut maxs = DVec3::splat(f64::NEG_INFINITY);
    for tri in all {
        for &p in &tri.points {
            mins = mins.min(p);
            maxs = maxs.max(p);
        }
    }
    let face = |t: &CleanTriangle, volume: bool| {
        let winding = Winding {
            points: t.points.to_vec(),
        };
        Face::new(winding, t.plane, t.material, volume)
    };
    let faces: Vec<Face> = clean
        .shell
        .iter()
        .map(|t| face(t, false))
        .chain(clean.volume.iter().map(|t| face(t, true)))
        .collect();
    let (root, nodes) = build_tree(faces);
    out.nodes = nodes.len();
    let box_planes = box_planes(
        mins - DVec3::splat(REGION_BOX_PAD),
        maxs + DVec3::splat(REGION_BOX_PAD),
    );
    let mut walked = Walked::default();
    if !nodes.is_empty() {
        let box_polytope: Vec<PolytopeFace> = box_planes
            .iter()
            .zip(cut_planes(&box_planes))
            .filter_map(|(plane, winding)| {
                Some(PolytopeFace {
                    plane: *plane,
                    winding: winding?,
                    material: None,
                    node: None,
                })
            })
            .collect();
        walked = walk(&nodes, root, Some(box_polytope), None, (0, 0));
    }
    let Walked { solid, open_cells } = walked;
    out.solid_leaves = solid.len();
    out.open_cells = open_cells.len();
    // The solid regions as brushes (the void around the level tagged), merged; beside
    // them, the open cells placed in volumes and theirs, merged, and the slabs.
    let ((regions, solid_dropped), (volumes, slabs)) = join(
        || {
            let numbered: Vec<(usize, &SolidLeaf)> = solid.iter().enumerate().collect();
            let made = map_all(&numbered, |&(index, (faces, material))| {
                region_brush(faces.as_deref()?, meanings, *material, loc_of(index + 1))
            });
            let dropped = made.iter().filter(|b| b.is_none()).count();
            let regions: Vec<Brush> = made.into_iter().flatten().collect();
            // The void is tagged after the merge: the mesh does not say where a wall's
            // solid ends and the void's begins, so a merged region that reaches the box is
            // the void's, and regions either side of that line may merge.
            let mut merged = crate::import::merge_regions(regions);
            for brush in &mut merged {
                let on_box = brush
                    .sides
                    .iter()
                    .any(|s| box_planes.iter().any(|b| b.is_same(&s.plane)));
                if on_box && brush.solid {
                    brush.contents |= Contents::OUTSIDE;
                }
            }
            (merged, dropped)
        },
        || {
            join(
                || {
                    let filled = fill_volumes(&nodes, root, &open_cells, clean, meanings);
                    let placed: Vec<(usize, &OpenCell, u32)> = open_cells
                        .iter()
                        .zip(&filled.material)
                        .filter_map(|(cell, m)| Some((cell, (*m)?)))
                        .enumerate()
                        .map(|(k, (cell, m))| (k, cell, m))
                        .collect();
                    let first = solid.len() + 1;
                    let made = map_all(&placed, |&(k, cell, material)| {
                        region_brush(&cell.faces, meanings, material, loc_of(first + k))
                    });
                    let dropped = made.iter().filter(|b| b.is_none()).count();
                    let brushes: Vec<Brush> = made.into_iter().flatten().collect();
                    (filled, brushes.len(), dropped, crate::import::merge_regions(brushes))
                },
                || {
                    let facing =
                        map_all(&clean.open, |tri| facing_out_of_its_volume(tri, &nodes, root));
                    slabs(&facing, meanings)
                },
            )
        },
    );
    let (filled, volume_cells, volume_dropped, volume_brushes) = volumes;
    out.volumes = filled.volumes;
    out.volumes_cut_short = filled.exhausted;
    out.volume_cells = volume_cells;
    out.dropped += solid_dropped + volume_dropped;
    out.brushes = regions;
    out.brushes.extend(volume_brushes);
    out.dropped += slabs.dropped;
    out.brushes.extend(slabs.brushes);
    out
}

/// A solid leaf of the tree: its region (`None` when the cuts left no volume) and material.
type SolidLeaf = (Option<Vec<PolytopeFace>>, u32);

/// What the walk of the tree finds below one child, in the walk's order (each node's front
/// subtree, then its back).
#[derive(Default)]
struct Walked {
    solid: Vec<SolidLeaf>,
    open_cells: Vec<OpenCell>,
}

/// Subtrees this many forks below the root (nodes with a node on both sides), or nearer,
/// are walked side by side (`threads::join`, the two cores of a small machine and more on a
/// larger one), their findings joined in the walk's order; deeper, or below
/// [`MAX_PARALLEL_RECURSION`] levels, one subtree is walked on an explicit stack.
const PARALLEL_WALK_DEPTH: usize = 6;

/// The regions of `child`'s subtree: `polytope` is its region (`None`: nothing with volume),
/// `slot` the node side it hangs from, `(depth, forks)` its level below the root and the
/// forks above it.
fn walk(
    nodes: &[Node],
    child: Child,
    polytope: Option<Vec<PolytopeFace>>,
    slot: Option<(usize, usize)>,
    (depth, forks): (usize, usize),
) -> Walked {
    // Behind a node's plane its region's new side faces along +n; in front, along −n.
    let part = |polytope: Option<&[PolytopeFace]>, node: &Node, index: usize, k: usize| {
        let outward = if k == 1 {
            node.plane
        } else {
            node.plane.flipped()
        };
        polytope.and_then(|p| cut(p, outward, node.material, index))
    };
    if forks < PARALLEL_WALK_DEPTH
        && depth < MAX_PARALLEL_RECURSION
        && let Child::Node(index) = child
        && let Some(node) = nodes.get(index)
    {
        let fork = matches!(node.children, [Child::Node(_), Child::Node(_)]);
        let next = (depth + 1, forks + usize::from(fork));
        let side = |k: usize| {
            let region = part(polytope.as_deref(), node, index, k);
            walk(nodes, node.children[k], region, Some((index, k)), next)
        };
        let (front, back) = if fork {
            join(|| side(0), || side(1))
        } else {
            (side(0), side(1))
        };
        let mut out = front;
        out.solid.extend(back.solid);
        out.open_cells.extend(back.open_cells);
        return out;
    }
    let mut out = Walked::default();
    // (child, its region, the node side it hangs from).
    let mut stack = vec![(child, polytope, slot)];
    while let Some((child, polytope, slot)) = stack.pop() {
        match child {
            Child::Air => {
                if let (Some(faces), Some(slot)) = (polytope, slot) {
                    out.open_cells.push(OpenCell { faces, slot });
                }
            }
            Child::Node(index) => {
                let Some(node) = nodes.get(index) else {
                    continue;
                };
                for k in [1usize, 0] {
                    let region = part(polytope.as_deref(), node, index, k);
                    stack.push((node.children[k], region, Some((index, k))));
                }
            }
            Child::Solid(material) => out.solid.push((polytope, material)),
        }
    }
    out
}
