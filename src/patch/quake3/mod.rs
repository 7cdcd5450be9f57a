//! Quake 3's own collision of a curved patch (`cm_patch.c`, ioquake3): the game's coarse,
//! zero-thickness facets, made as the game makes them, for the query option that traces
//! the game's patches ([`ShapeQuery::with_game_patches`](crate::movement::ShapeQuery::with_game_patches)).
//!
//! Takes a patch's control grid as a Quake 3 `.bsp` stores it (f32 points, row-major,
//! odd sizes 3 to [`MAX_GRID_SIZE`]); gives its [`PatchCollide`]: planes and facets
//! (surface plane, border planes with their facing, bevels, the back plane last) and the
//! bounds grown by one unit, in the game's order and f32 arithmetic (the game's
//! `0.5·(a + b)` midpoints in double, its epsilons compared in double), so that a box swept
//! against it (`trace/game_patch.rs`) answers as `CM_TraceThroughPatchCollide` does.
//!
//! - `grid.rs`: the control grid subdivided to [`SUBDIVIDE_DISTANCE`] and cleaned.
//! - `collide.rs`: the grid's planes and facets, bordered and bevelled.
//! - `winding.rs`: the f32 polygons the facet checks cut.
//!
//! Guarantees: no panic and bounded work on any grid; a grid the game would refuse or
//! overflow on is refused with a [`CollideProblem`] (size, non-finite or out-of-range
//! points, more than [`MAX_PATCH_PLANES`] planes or [`MAX_FACETS`] facets, a grid
//! subdividing past [`MAX_GRID_SIZE`] a side).
//!
//! Where this differs from planeshift's own patches (`patch/facets.rs`): those follow the
//! curve to planeshift's tolerance and are slabs [`PATCH_THICKNESS`](crate::tolerance::PATCH_THICKNESS)
//! thick that every shape meets as brushes; these follow it to 16 units, have no
//! thickness, and only a box sweep meets them (the game's semantics: hit on entering from
//! the front, never from behind, no start-solid in a sweep).

mod collide;
mod grid;
mod winding;

use glam::Vec3;

use crate::tolerance::MAX_MAP_COORD;

/// The largest side of a control grid, and of the grid subdivision makes (`cm_patch.h
/// MAX_GRID_SIZE`), points.
pub const MAX_GRID_SIZE: usize = 129;
/// The most planes one patch's collision holds (`cm_patch.c MAX_PATCH_PLANES`).
pub const MAX_PATCH_PLANES: usize = 4096;
/// The most facets one patch's collision holds (`cm_patch.c MAX_FACETS`).
pub const MAX_FACETS: usize = 1024;
/// The most borders of a facet: 4 edges, 6 axial bevels, 16 edge bevels (`facet_t`).
pub const MAX_FACET_BORDERS: usize = 4 + 6 + 16;
/// The most points of a polygon the facet checks cut (`cm_polylib.h MAX_POINTS_ON_WINDING`).
const MAX_WINDING_POINTS: usize = 64;

/// How far the game's grid may lie from the curve (`cm_patch.h SUBDIVIDE_DISTANCE`),
/// units: a curve whose midpoint lies this far or farther from its chord's is halved.
pub const SUBDIVIDE_DISTANCE: f64 = 16.0;
/// Two grid edge columns within this of each other on every axis wrap around
/// (`WRAP_POINT_EPSILON`), units.
const WRAP_POINT_EPSILON: f64 = 0.1;
/// Two columns within this on every axis are one (`cm_patch.c POINT_EPSILON`), units.
const POINT_EPSILON: f64 = 0.1;
/// A corner within this of a plane lies on it, for plane reuse and border facing
/// (`cm_patch.h PLANE_TRI_EPSILON`), units.
const PLANE_TRI_EPSILON: f64 = 0.1;
/// Normal components within this are equal, for bevel planes (`cm_patch.c
/// NORMAL_EPSILON`), unitless.
const PATCH_NORMAL_EPSILON: f64 = 0.0001;
/// Distances within this are equal, for bevel planes (`cm_patch.c DIST_EPSILON`), units.
const PATCH_DIST_EPSILON: f64 = 0.02;
/// A polygon point within this of a cutting plane lies on it (the facet checks'
/// `ChopWindingInPlace(…, 0.1f)`), units.
const WINDING_EPSILON: f32 = 0.1;
/// The half side of the polygon a facet check starts from, and the largest extent a valid
/// facet may have (`MAX_MAP_BOUNDS`), units.
const MAX_MAP_BOUNDS: f32 = 65535.0;

/// A plane of a patch's collision: `plane[0..3]·p = plane[3]`, and the signs of its normal
/// (bit k: component k negative) that pick the box corner a sweep offsets it by.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PatchPlane {
    /// Normal x, y, z and distance, as the game computed them.
    pub plane: [f32; 4],
    /// `CM_SignbitsForNormal`.
    pub signbits: u8,
}

/// A border of a facet: a plane (index into [`PatchCollide::planes`]) and whether the
/// facet lies in front of it (`inward`) or behind it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Border {
    /// Index into [`PatchCollide::planes`].
    pub plane: u32,
    /// `borderInward`.
    pub inward: bool,
}

/// A facet: its surface plane and its borders (edges, bevels, and, when the game adds it,
/// the surface plane reversed, last).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Facet {
    /// Index into [`PatchCollide::planes`].
    pub surface_plane: u32,
    /// At most [`MAX_FACET_BORDERS`].
    pub borders: Vec<Border>,
}

/// One patch's collision as the game holds it (`patchCollide_t`).
#[derive(Clone, Debug, PartialEq)]
pub struct PatchCollide {
    /// The grid's bounds grown by one unit on every side.
    pub mins: Vec3,
    /// See [`Self::mins`].
    pub maxs: Vec3,
    /// Every plane the facets name.
    pub planes: Vec<PatchPlane>,
    /// The facets.
    pub facets: Vec<Facet>,
}

/// Why a grid has no collision of the game's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CollideProblem {
    /// Width or height even, below 3 or above [`MAX_GRID_SIZE`], or not the point count.
    Size,
    /// A point is not finite or lies beyond [`MAX_MAP_COORD`].
    OutOfRange,
    /// Subdivision would pass [`MAX_GRID_SIZE`] a side.
    GridTooFine,
    /// More than [`MAX_PATCH_PLANES`] planes.
    TooManyPlanes,
    /// More than [`MAX_FACETS`] facets.
    TooManyFacets,
}

impl std::fmt::Display for CollideProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CollideProblem::Size => write!(
                f,
                "its size is not odd, 3 to {MAX_GRID_SIZE} each way, with a point for each"
            ),
            CollideProblem::OutOfRange => {
                write!(f, "a control point is not finite or lies beyond ±{MAX_MAP_COORD}")
            }
            CollideProblem::GridTooFine => {
                write!(f, "its grid subdivides past {MAX_GRID_SIZE} points a side")
            }
            CollideProblem::TooManyPlanes => write!(f, "it needs more than {MAX_PATCH_PLANES} planes"),
            CollideProblem::TooManyFacets => write!(f, "it needs more than {MAX_FACETS} facets"),
        }
    }
}

/// `CM_GeneratePatchCollide`: the game's collision of the `width × height` control grid
/// `points` (`points[j * width + i]`: column `i`, row `j`).
///
/// # Errors
/// A [`CollideProblem`] where the game would refuse the grid or overflow its tables.
pub fn patch_collide(
    width: usize,
    height: usize,
    points: &[Vec3],
) -> Result<PatchCollide, CollideProblem> {
    let valid = |n: usize| (3..=MAX_GRID_SIZE).contains(&n) && n % 2 == 1;
    if !valid(width) || !valid(height) || width.checked_mul(height) != Some(points.len()) {
        return Err(CollideProblem::Size);
    }
    let limit = MAX_MAP_COORD as f32;
    if points.iter().any(|p| !p.is_finite() || p.abs().max_element() > limit) {
        return Err(CollideProblem::OutOfRange);
    }
    let points: Vec<grid::P3> = points.iter().map(|p| p.to_array()).collect();
    let grid = grid::Grid::new(width, height, &points).subdivided()?;
    collide::collide_from_grid(&grid)
}

#[cfg(test)]
mod tests;
