//! Stage 1½: Quake 3 curved patches (`patchDef2`, `patchDef3`) to thin convex solids, in f64.
//!
//! Takes a [`MapPatch`] (control points as written) and a tolerance, gives the patch's
//! [`ControlGrid`] (validated: odd sizes of at least 3, at most [`MAX_PATCH_DIMENSION`],
//! finite points within [`MAX_MAP_COORD`]) or why it cannot collide, its [`SurfaceGrid`]
//! (`subdivide`: points on the surface whose facets are within the tolerance of it) and,
//! for all of a model's patches together, their facet slabs ([`FacetSolid`], `facets`):
//! each facet a convex solid [`PATCH_THICKNESS`] thick behind the surface, whose borders
//! neighbouring facets share exactly. The brush stage gives each slab its patch's meaning
//! (contents and surface flags from its shader) and makes it a brush: from there on a
//! facet is a brush to bevels, the tree and the sweeps, so every shape meets it exactly as
//! it meets a brush.
//!
//! - `bezier.rs`: one 3×3 biquadratic piece: evaluation, derivatives, normal, chord bounds.
//! - `subdivide.rs`: the control grid to a surface grid, adaptively, whole rows and columns.
//! - `facets.rs`: surface grids to welded, mitred facet slabs.
//! - `quake3/`: the game's own coarse facets of a patch (`cm_patch.c`), for the query
//!   option that collides as Quake 3 does; runtime data, in the game's f32.
//!
//! Guarantees: no input panics or runs unbounded: a patch has at most
//! [`MAX_PATCH_DIMENSION`]² control points, [`MAX_PATCH_CELLS`] grid cells and
//! [`MAX_PIECE_SUBDIVISIONS`] steps per piece and direction; when a cap keeps a patch from
//! its tolerance, [`SurfaceGrid::capped`] says so and the brush stage reports it.

mod bezier;
mod facets;
pub mod quake3;
mod subdivide;

use glam::DVec3;

use crate::map::MapPatch;
use crate::tolerance::{MAX_MAP_COORD, MAX_PATCH_DIMENSION};

#[cfg(doc)]
use crate::tolerance::{MAX_PATCH_CELLS, MAX_PIECE_SUBDIVISIONS, PATCH_THICKNESS};

pub use facets::{FacetOutput, FacetSolid, facet_solids};
pub use subdivide::{ControlGrid, SurfaceGrid, subdivide};

internal! {
    /// The surface point of piece `(a, b)` of `grid` at `(u, v)` in `[0, 1]²` (the true
    /// Bézier surface, for tests that measure facets against it).
    #[must_use]
    pub fn surface_point(grid: &ControlGrid, (a, b): (usize, usize), (u, v): (f64, f64)) -> DVec3 {
        bezier::eval(&grid.piece(a, b), u, v)
    }
}

internal! {
    /// The unit normal of piece `(a, b)` of `grid` at `(u, v)`, facing the patch's front
    /// (the side its facets' front faces face); `None` where the surface is degenerate.
    #[must_use]
    pub fn surface_normal(
        grid: &ControlGrid,
        (a, b): (usize, usize),
        (u, v): (f64, f64),
    ) -> Option<DVec3> {
        bezier::normal(&grid.piece(a, b), u, v)
    }
}

/// Why a patch does not collide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatchProblem {
    /// Its width or height is even, below 3 or above [`MAX_PATCH_DIMENSION`].
    Size(usize, usize),
    /// A control point has fewer than three numbers.
    ShortPoint,
    /// A control point lies beyond [`MAX_MAP_COORD`].
    OutOfRange,
}

impl std::fmt::Display for PatchProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PatchProblem::Size(w, h) => write!(
                f,
                "its size {w}×{h} is not odd, at least 3 and at most {MAX_PATCH_DIMENSION} each way"
            ),
            PatchProblem::ShortPoint => f.write_str("a control point has fewer than 3 numbers"),
            PatchProblem::OutOfRange => {
                write!(f, "a control point lies beyond ±{MAX_MAP_COORD} units")
            }
        }
    }
}

/// The control grid of `patch` as written: `rows[c][r]` is column `c`, row `r` (the
/// `.map` holds the width's groups of the height's points); for a `patchDef3`, the
/// header's explicit subdivisions `( W H subdivX subdivY … )` as the minimum steps per
/// piece.
///
/// # Errors
/// A [`PatchProblem`] when the patch cannot be a surface.
pub fn control_grid(patch: &MapPatch) -> Result<ControlGrid, PatchProblem> {
    let width = patch.rows.len();
    let height = patch.rows.first().map_or(0, Vec::len);
    let valid = |n: usize| n >= 3 && n % 2 == 1 && n <= MAX_PATCH_DIMENSION;
    if !valid(width) || !valid(height) || patch.rows.iter().any(|c| c.len() != height) {
        return Err(PatchProblem::Size(width, height));
    }
    let mut points = vec![DVec3::ZERO; width * height];
    for (i, column) in patch.rows.iter().enumerate() {
        for (j, numbers) in column.iter().enumerate() {
            let [x, y, z, ..] = numbers[..] else {
                return Err(PatchProblem::ShortPoint);
            };
            let p = DVec3::new(x, y, z);
            if !p.is_finite() || p.abs().max_element() > MAX_MAP_COORD {
                return Err(PatchProblem::OutOfRange);
            }
            points[j * width + i] = p;
        }
    }
    let explicit = |k: usize| {
        let value = patch.header.get(k).copied().unwrap_or(1.0);
        // A count as written; nonsense (negative, fractional, huge) means none.
        if value >= 1.0 && value.fract() == 0.0 && value <= MAX_PATCH_DIMENSION as f64 {
            value as usize
        } else {
            1
        }
    };
    let min_steps = if patch.kind.eq_ignore_ascii_case("patchDef3") {
        (explicit(2), explicit(3))
    } else {
        (1, 1)
    };
    Ok(ControlGrid {
        width,
        height,
        points,
        min_steps,
    })
}
