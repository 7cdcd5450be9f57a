//! Bevel planes for one brush, so that its planes shifted by a moving shape's support
//! distance hug the true Minkowski sum.
//!
//! Takes a [`Brush`], gives its [`Bevel`]s. Three families, in this order:
//!
//! 1. **Axial** (Quake 2/3 `AddBrushBevels`): for each of ±X, ±Y, ±Z without a side of
//!    exactly that normal, a plane at the brush bound. With these, a box sweep never reaches
//!    past the brush's bounding box.
//! 2. **Edge × axis** (Quake 2/3): for every edge of every non-axial side and every axis
//!    direction, the plane containing the edge and parallel to the axis, when it supports the
//!    brush. With families 1 and 2 present, box sweeps are exact: those are exactly the face
//!    normals of brush ⊕ box (collision.md 1.3).
//! 3. **Bisector** (Melax): where two adjacent sides' normals have a negative dot product (an
//!    edge sharper than 90°), the plane through their common edge halfway between them. This
//!    bounds the over-reach of spheres, cylinders and capsules at that edge to 0.41 r.
//!
//! 4. **Rounding**: wherever an edge's or vertex's local reach exceeds [`ROUNDING_REACH`],
//!    planes through that edge splitting its widest gap, or through that vertex facing its
//!    farthest point (`brush::reach`), so rounded shapes stop at most (κ − 1)·r early.
//!
//! Guarantees (property 21): every bevel's normal is snapped *before* it is validated and its
//! distance is taken through its generating point; every brush vertex lies at most
//! [`BEVEL_ACCEPT_EPSILON`] in front of it, so bevels never cut the brush and are invisible
//! to points; no bevel shares a normal with a side or another bevel. Bevels are never BSP
//! splitters and get no windings.

use glam::DVec3;

use super::Brush;
use crate::geom::BuildPlane;
use crate::tolerance::{
    BEVEL_ACCEPT_EPSILON, BEVEL_ANGLE_EPSILON, BEVEL_SOURCE_EPSILON, BEVEL_SAME_NORMAL_SINE, MAX_VERTEX_ROUNDING,
    MIN_EDGE_LENGTH, MIN_PATCH_EDGE_LENGTH, ROUNDING_REACH,
};

/// Which rule made a bevel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BevelKind {
    /// An axial plane at the brush bounds.
    Axial,
    /// The plane through an edge, parallel to an axis.
    EdgeAxis,
    /// The bisector of two adjacent sides meeting at more than 90°.
    Bisector,
    /// A rounding plane through an edge or vertex whose local reach exceeds
    /// [`ROUNDING_REACH`] (see `brush::reach`).
    Rounding,
}

impl BevelKind {
    /// Whether this bevel is one of Quake's box bevels (axial or edge × axis), which make
    /// box sweeps exact; the others only round off corners for rounded shapes.
    #[must_use]
    pub fn is_box_bevel(self) -> bool {
        matches!(self, BevelKind::Axial | BevelKind::EdgeAxis)
    }
}

/// One bevel plane and the brush feature that generated it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bevel {
    /// The plane; its normal points out of the brush.
    pub plane: BuildPlane,
    /// Which rule made it.
    pub kind: BevelKind,
    /// The generating edge (both ends equal for an axial bevel's vertex).
    pub edge: [DVec3; 2],
}

/// The index of the face of `brush` that `bevel` bevels, whose surface it carries: among the
/// faces through the bevel's generating edge (or vertex), the one whose normal is closest
/// to the bevel's; when none passes through it (never for a built brush), the closest
/// normal of all. `None` only for a brush without sides.
#[must_use]
pub fn bevel_source_face(brush: &Brush, bevel: &Bevel) -> Option<usize> {
    let through = |side: &super::BrushSide| {
        bevel
            .edge
            .iter()
            .all(|p| side.plane.distance(*p).abs() <= BEVEL_SOURCE_EPSILON)
    };
    let closest = |only_through: bool| {
        brush
            .sides
            .iter()
            .enumerate()
            .filter(|(_, side)| !only_through || through(side))
            .max_by(|(_, a), (_, b)| {
                let (da, db) = (a.plane.normal.dot(bevel.plane.normal), b.plane.normal.dot(bevel.plane.normal));
                da.total_cmp(&db)
            })
            .map(|(index, _)| index)
    };
    closest(true).or_else(|| closest(false))
}

/// A brush's bevels and whether they make box sweeps exact.
#[derive(Clone, Debug, PartialEq)]
pub struct BrushBevels {
    /// The bevel planes, in the order the rules made them.
    pub bevels: Vec<Bevel>,
    /// Whether every edge × axis plane that supports the brush was made, so that the
    /// brush's planes shifted by any axis-aligned box's support are exactly the Minkowski
    /// sum (the sweep of a box is exact). False when an edge was too short to bevel, or a
    /// candidate failed acceptance only by rounding.
    pub box_exact: bool,
    /// The brush's reach κ with every bevel (≥ 1): a shape of circumradius R is blocked by
    /// its shifted planes only within κ·R of it (`brush::reach`).
    pub reach: f64,
}

/// A candidate bevel failing acceptance by less than this (map units) may be a supporting
/// plane lost to rounding, so its brush is not counted as box-exact.
const NEAR_SUPPORT: f64 = 0.1;

/// For a patch facet, the band of [`NEAR_SUPPORT`] (map units): none beyond acceptance. Its
/// corners are computed in f64 from the surface, and a bevel's snapping (normal components
/// below `NORMAL_EPSILON`, a distance within `CLIP_EPSILON` of a whole unit) moves it at the
/// facet's corners by about 1e-4 at most, so a supporting plane is always accepted. A thin
/// slab's edge × axis candidates that do not support it fail by up to its thickness, often
/// less than [`NEAR_SUPPORT`], which counted most slabs of a tight curve as not box-exact.
const PATCH_NEAR_SUPPORT: f64 = BEVEL_ACCEPT_EPSILON;

/// The bevels of `brush`: every family.
#[must_use]
pub fn brush_bevels(brush: &Brush) -> BrushBevels {
    brush_bevels_with(brush, true)
}

/// The bevels of `brush`: Quake's box bevels (families 1 and 2), and with `rounding` the
/// bisectors and rounding planes too (families 3 and 4). Without them, boxes stay exact
/// and rounded shapes are still met exactly (the sweeps refine edge and corner contacts),
/// but the brush's reach κ is what its sharpest edge makes it, so sweeps near it cull less.
/// Patch facets, thin slabs of many sharp corners, take the box bevels only: rounding them
/// cost most of a compile's time (`brush::patches`).
#[must_use]
pub fn brush_bevels_with(brush: &Brush, rounding: bool) -> BrushBevels {
    let vertices = brush.vertices();
    let box_exact = std::cell::Cell::new(true);
    let near_support = if brush.patch.is_some() {
        PATCH_NEAR_SUPPORT
    } else {
        NEAR_SUPPORT
    };
    let mut normals: Vec<DVec3> = brush.sides.iter().map(|s| s.plane.normal).collect();
    let mut bevels = Vec::new();
    let mut try_add = |plane: Option<BuildPlane>, kind: BevelKind, edge: [DVec3; 2]| {
        let Some(plane) = plane else {
            return;
        };
        let shared = shares_normal(&normals, plane.normal);
        if shared {
            return;
        }
        let worst = vertices
            .iter()
            .map(|v| plane.distance(*v))
            .fold(f64::NEG_INFINITY, f64::max);
        if worst > BEVEL_ACCEPT_EPSILON {
            if kind != BevelKind::Bisector && worst <= near_support {
                box_exact.set(false);
            }
            return;
        }
        normals.push(plane.normal);
        bevels.push(Bevel { plane, kind, edge });
    };

    // 1. Axial planes at the bounds, through the extreme vertex.
    for axis in 0..3 {
        for sign in [-1.0, 1.0] {
            let mut normal = DVec3::ZERO;
            normal[axis] = sign;
            let Some(extreme) = vertices
                .iter()
                .copied()
                .max_by(|a, b| (a[axis] * sign).total_cmp(&(b[axis] * sign)))
            else {
                continue;
            };
            let dist = if sign > 0.0 {
                brush.maxs[axis]
            } else {
                -brush.mins[axis]
            };
            try_add(
                BuildPlane::from_normal_dist(normal, dist),
                BevelKind::Axial,
                [extreme, extreme],
            );
        }
    }

    // 2. Edge × axis planes for the edges of non-axial sides. A patch facet's edges are
    // computed in f64 from its surface, not rounded from a file, so its short ones are
    // bevelled too (`MIN_PATCH_EDGE_LENGTH`): a thin slab has many, and without their
    // bevels it is not box-exact, which widens every box sweep's tree cull near it.
    let min_edge = if brush.patch.is_some() {
        MIN_PATCH_EDGE_LENGTH
    } else {
        MIN_EDGE_LENGTH
    };
    let edges = side_edges(brush);
    for &(side, [a, b]) in &edges {
        if brush.sides[side].plane.kind() != crate::geom::PlaneKind::NonAxial {
            continue;
        }
        let Some(direction) = (b - a).try_normalize() else {
            continue;
        };
        // The sine of the angle to the nearest axis: the direction's part off that axis (a
        // test on the largest component against 1 would be quadratic in the angle).
        let d = direction.abs();
        let off_axis = if d.x >= d.y && d.x >= d.z {
            d.y.hypot(d.z)
        } else if d.y >= d.z {
            d.x.hypot(d.z)
        } else {
            d.x.hypot(d.y)
        };
        if off_axis < BEVEL_ANGLE_EPSILON {
            continue;
        }
        if (b - a).length() < min_edge {
            box_exact.set(false);
            continue;
        }
        for axis in 0..3 {
            for sign in [-1.0, 1.0] {
                let mut axis_dir = DVec3::ZERO;
                axis_dir[axis] = sign;
                let normal = direction.cross(axis_dir);
                if normal.length() < BEVEL_ANGLE_EPSILON {
                    continue;
                }
                try_add(through(normal, a), BevelKind::EdgeAxis, [a, b]);
            }
        }
    }

    let windings: Vec<&[DVec3]> = brush
        .sides
        .iter()
        .map(|s| s.winding.points.as_slice())
        .collect();
    let edges_once = super::reach::brush_edges(&windings);
    if !rounding {
        let mut planes: Vec<BuildPlane> = brush.sides.iter().map(|s| s.plane).collect();
        planes.extend(bevels.iter().map(|b| b.plane));
        let reach = super::reach::brush_reach(&planes, &vertices, &edges_once);
        return BrushBevels {
            bevels,
            box_exact: box_exact.get(),
            reach,
        };
    }
    // 3. Bisectors of adjacent sides meeting at more than 90°.
    for &(side, [a, b]) in &edges {
        let n0 = brush.sides[side].plane.normal;
        let Some(other) = brush.sides.iter().enumerate().find(|&(j, s)| {
            j != side
                && s.plane.distance(a).abs() < BEVEL_ACCEPT_EPSILON
                && s.plane.distance(b).abs() < BEVEL_ACCEPT_EPSILON
        }) else {
            continue;
        };
        let n1 = other.1.plane.normal;
        if side < other.0 && n0.dot(n1) < 0.0 {
            try_add(through(n0 + n1, a), BevelKind::Bisector, [a, b]);
        }
    }
    // 4. Rounding: bring every local reach down.
    let edges = edges_once;
    let mut planes: Vec<BuildPlane> = brush.sides.iter().map(|s| s.plane).collect();
    planes.extend(bevels.iter().map(|b| b.plane));
    let accept = |existing: &[BuildPlane], plane: BuildPlane| {
        !shares_normal(existing.iter().map(|p| p.normal), plane.normal)
            && vertices
                .iter()
                .all(|v| plane.distance(*v) <= BEVEL_ACCEPT_EPSILON)
    };
    let rounding = super::reach::rounding_planes(
        &planes,
        &vertices,
        &edges,
        ROUNDING_REACH,
        MAX_VERTEX_ROUNDING,
        accept,
    );
    planes.extend(rounding.planes.iter().map(|(p, _)| *p));
    bevels.extend(rounding.planes.into_iter().map(|(plane, edge)| Bevel {
        plane,
        kind: BevelKind::Rounding,
        edge,
    }));
    // The vertices' reach came with the rounding (the same as `brush_reach`'s).
    let reach = super::reach::edges_reach(&planes, &edges).max(rounding.vertex_reach);
    BrushBevels {
        bevels,
        box_exact: box_exact.get(),
        reach,
    }
}

/// The reach κ of a brush with its faces alone (no bevels), for compiles without bevels.
#[must_use]
pub fn face_reach(brush: &Brush) -> f64 {
    let windings: Vec<&[DVec3]> = brush
        .sides
        .iter()
        .map(|s| s.winding.points.as_slice())
        .collect();
    let planes: Vec<BuildPlane> = brush.sides.iter().map(|s| s.plane).collect();
    super::reach::brush_reach(
        &planes,
        &brush.vertices(),
        &super::reach::brush_edges(&windings),
    )
}

/// Whether `normal` is within [`BEVEL_SAME_NORMAL_SINE`] of one of `normals` (same
/// direction): such a bevel would nearly repeat that plane, and in f32 the two would share a
/// normal.
fn shares_normal(
    normals: impl IntoIterator<Item = impl std::borrow::Borrow<DVec3>>,
    normal: DVec3,
) -> bool {
    normals.into_iter().any(|n| {
        let n = *n.borrow();
        n.dot(normal) > 0.0 && n.cross(normal).length() < BEVEL_SAME_NORMAL_SINE
    })
}

/// A plane with `normal` (snapped first) through `point`.
fn through(normal: DVec3, point: DVec3) -> Option<BuildPlane> {
    let unit = BuildPlane::from_normal_dist(normal, 0.0)?.normal;
    BuildPlane::from_normal_dist(unit, unit.dot(point))
}

/// Every winding edge of every side, as (side index, [start, end]).
fn side_edges(brush: &Brush) -> Vec<(usize, [DVec3; 2])> {
    let mut edges = Vec::new();
    for (i, side) in brush.sides.iter().enumerate() {
        let points = &side.winding.points;
        for (k, &a) in points.iter().enumerate() {
            let b = points[(k + 1) % points.len()];
            edges.push((i, [a, b]));
        }
    }
    edges
}
