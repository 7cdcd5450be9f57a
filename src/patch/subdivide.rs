//! Adaptive subdivision: a patch's control grid to a grid of points on its surface whose
//! triangles lie within a tolerance of the curve.
//!
//! Takes a [`ControlGrid`] and a tolerance (map units), gives a [`SurfaceGrid`]: every
//! point on the true surface, in whole columns and rows as Quake 3's
//! `CM_SubdivideGridColumns` makes them (so neighbouring cells share edges: no
//! T-junctions), each 3×3 piece cut into equal parameter steps, as many along each direction
//! as its own curvature needs. Guarantees: the grid has at most [`MAX_PATCH_CELLS`] cells and
//! each piece at most [`MAX_PIECE_SUBDIVISIONS`] steps per direction, so the work is bounded
//! whatever the input; within those caps every point of the surface lies within the
//! tolerance of its cell's facets (the [`SurfaceGrid::bound`] says what was reached when a
//! cap bound first).
//!
//! The bound per facet of a cell of a piece cut into `nu × nv` steps, along the facet's
//! unit normal `n` (`bezier::SecondDifferences`): `max |n · Δu| / (4 nu²) + max |n · Δv| /
//! (4 nv²)` between the surface and the cell's bilinear interpolant, plus how far that
//! bilinear patch leaves the facet, `|w · n| / 4` for the cell's twist `w = p00 − p10 −
//! p01 + p11` (zero for a flat cell, kept whole as a quad; a quad's corners may lie up to
//! [`PATCH_PLANAR_EPSILON`] off its plane, which is added). Cells on the patch's border
//! also count the border curve's whole distance from its chord, along the surface too: no
//! neighbour covers what they miss (a flat cap with a curved outline). Quake 3 bounds each direction
//! alone, at 16 units, by the whole second difference, and overshoots its own tolerance
//! (game-semantics.md 4.7); here the sum is bounded, and only the part across the surface
//! counts, so a direction that runs straight with its handle off the middle needs no
//! steps. A parabola's chordal error is the same on every equal step, so equal steps are
//! the fewest for a direction. A first guess gives each direction of each piece the whole
//! tolerance, by its largest second difference seen along the piece's normal at its centre;
//! then each cell is bounded by its own part of the piece (the second differences
//! restricted to it, seen along its own facets' normals, and its own twist), and the strips
//! of cells above the tolerance get more steps, a pass at a time. Bounding each cell by its
//! own part matters: a hill's curvature peaks at its middle and its twist at its corners.

use glam::DVec3;

use super::bezier::{Piece, SecondDifferences, eval, normal, second_differences};
use crate::tolerance::{MAX_PATCH_CELLS, MAX_PIECE_SUBDIVISIONS, PATCH_PLANAR_EPSILON};

/// How many times cells above the tolerance may add steps before the grid is kept as it is:
/// each pass scales the offending strips' steps by the square root of their excess, so one
/// or two passes settle real patches.
const MAX_REFINE_PASSES: usize = 8;

/// A patch's validated control points: `width` columns by `height` rows, both odd and at
/// least 3, every coordinate finite and within the map limit.
#[derive(Clone, Debug, PartialEq)]
pub struct ControlGrid {
    /// Control points per row (columns, along `u`).
    pub width: usize,
    /// Control points per column (rows, along `v`).
    pub height: usize,
    /// Control point of column `i`, row `j` at `j · width + i` (the `.bsp` drawvert order).
    pub points: Vec<DVec3>,
    /// `patchDef3`'s explicit steps per piece `(along u, along v)`, honoured as a minimum.
    pub min_steps: (usize, usize),
}

impl ControlGrid {
    /// Pieces along `u` and along `v`.
    #[must_use]
    pub fn pieces(&self) -> (usize, usize) {
        ((self.width - 1) / 2, (self.height - 1) / 2)
    }

    /// The control point of column `i`, row `j`.
    fn point(&self, i: usize, j: usize) -> DVec3 {
        self.points[j * self.width + i]
    }

    /// Piece `(a, b)`: columns `2a..=2a+2`, rows `2b..=2b+2`.
    pub(crate) fn piece(&self, a: usize, b: usize) -> Piece {
        let mut piece = [[DVec3::ZERO; 3]; 3];
        for (i, column) in piece.iter_mut().enumerate() {
            for (j, point) in column.iter_mut().enumerate() {
                *point = self.point(2 * a + i, 2 * b + j);
            }
        }
        piece
    }
}

/// Points on a patch's surface in a grid of whole columns and rows.
#[derive(Clone, Debug, PartialEq)]
pub struct SurfaceGrid {
    /// Points per row.
    pub columns: usize,
    /// Points per column.
    pub rows: usize,
    /// The point of column `i`, row `j` at `j · columns + i`; every one on the surface.
    pub points: Vec<DVec3>,
    /// The largest error bound of a cell (map units): at most the tolerance unless
    /// `capped`.
    pub bound: f64,
    /// Whether a cap ([`MAX_PIECE_SUBDIVISIONS`], [`MAX_PATCH_CELLS`]) or the refinement
    /// passes ran out before every cell met the tolerance.
    pub capped: bool,
}

impl SurfaceGrid {
    /// The point of column `i`, row `j`.
    #[must_use]
    pub fn point(&self, i: usize, j: usize) -> DVec3 {
        self.points[j * self.columns + i]
    }
}

/// Steps for a direction whose one-step bound is `bound`, to bring it within `budget`.
fn steps_for(bound: f64, budget: f64) -> usize {
    if bound <= budget {
        return 1;
    }
    let steps = (bound / budget).sqrt().ceil();
    if steps.is_finite() && steps < MAX_PIECE_SUBDIVISIONS as f64 {
        steps as usize
    } else {
        MAX_PIECE_SUBDIVISIONS
    }
}

/// Subdivides `grid` until every cell's facets are within `tolerance` of the surface, or a
/// cap binds (module docs).
#[must_use]
pub fn subdivide(grid: &ControlGrid, tolerance: f64) -> SurfaceGrid {
    let (pu, pv) = grid.pieces();
    let pieces: Vec<Piece> = (0..pv)
        .flat_map(|b| (0..pu).map(move |a| (a, b)))
        .map(|(a, b)| grid.piece(a, b))
        .collect();
    let differences: Vec<SecondDifferences> = pieces.iter().map(second_differences).collect();
    let bound_of = |a: usize, b: usize| differences[b * pu + a];
    // 1. A first guess from each piece's whole curvature, seen along its normal at its
    //    centre: where both directions curve, each as if it had the whole tolerance; the
    //    cells' own bounds (step 2) add what that leaves short.
    let (min_u, min_v) = (
        grid.min_steps.0.clamp(1, MAX_PIECE_SUBDIVISIONS),
        grid.min_steps.1.clamp(1, MAX_PIECE_SUBDIVISIONS),
    );
    let mut steps_u = vec![min_u; pu];
    let mut steps_v = vec![min_v; pv];
    for b in 0..pv {
        for a in 0..pu {
            let d = bound_of(a, b);
            let (mut eu, mut ev) = normal(&pieces[b * pu + a], 0.5, 0.5)
                .map_or_else(|| d.magnitude(), |n| d.along(n));
            let piece = &pieces[b * pu + a];
            let [low_v, high_v, low_u, high_u] = d.borders([
                chord(piece[0][0], piece[2][0]),
                chord(piece[0][2], piece[2][2]),
                chord(piece[0][0], piece[0][2]),
                chord(piece[2][0], piece[2][2]),
            ]);
            if b == 0 {
                eu = eu.max(low_v);
            }
            if b + 1 == pv {
                eu = eu.max(high_v);
            }
            if a == 0 {
                ev = ev.max(low_u);
            }
            if a + 1 == pu {
                ev = ev.max(high_u);
            }
            steps_u[a] = steps_u[a].max(steps_for(eu, tolerance));
            steps_v[b] = steps_v[b].max(steps_for(ev, tolerance));
        }
    }
    let mut capped = limit_cells(&mut steps_u, &mut steps_v);
    // 2. Evaluate, check every cell with its twist, and add steps where a cell is above.
    let mut passes = 0;
    loop {
        let surface = evaluate(&pieces, &steps_u, &steps_v);
        let (worst, over_u, over_v) = check(&surface, &steps_u, &steps_v, &bound_of, tolerance);
        let done = over_u.iter().all(|&x| x <= 1.0) && over_v.iter().all(|&x| x <= 1.0);
        if done || capped || passes == MAX_REFINE_PASSES {
            return SurfaceGrid {
                bound: worst,
                capped: capped || !done,
                ..surface
            };
        }
        let mut grew = false;
        for (steps, over) in steps_u.iter_mut().zip(&over_u).chain(steps_v.iter_mut().zip(&over_v)) {
            if *over > 1.0 && *steps < MAX_PIECE_SUBDIVISIONS {
                let scaled = (*steps as f64 * over.sqrt()).ceil();
                let next = if scaled.is_finite() { scaled as usize } else { MAX_PIECE_SUBDIVISIONS };
                *steps = next.clamp(*steps + 1, MAX_PIECE_SUBDIVISIONS);
                grew = true;
            }
        }
        if !grew {
            capped = true;
        }
        capped |= limit_cells(&mut steps_u, &mut steps_v);
        passes += 1;
    }
}

/// The unit direction from `p` to `q` (zero when they coincide): a border step's chord.
fn chord(p: DVec3, q: DVec3) -> DVec3 {
    (q - p).normalize_or_zero()
}

/// Scales the steps down until the grid has at most [`MAX_PATCH_CELLS`] cells; whether it
/// had to.
fn limit_cells(steps_u: &mut [usize], steps_v: &mut [usize]) -> bool {
    let mut limited = false;
    loop {
        let (cu, cv) = (steps_u.iter().sum::<usize>(), steps_v.iter().sum::<usize>());
        if cu.saturating_mul(cv) <= MAX_PATCH_CELLS {
            return limited;
        }
        limited = true;
        // Halve the larger direction's steps (never below one step a piece).
        let larger = if cu >= cv { &mut *steps_u } else { &mut *steps_v };
        if larger.iter().all(|&s| s == 1) {
            // Only the piece count is left: the control grid's size bounds it.
            let other = if cu >= cv { &mut *steps_v } else { &mut *steps_u };
            if other.iter().all(|&s| s == 1) {
                return true;
            }
            for s in other.iter_mut() {
                *s = (*s).div_ceil(2);
            }
            continue;
        }
        for s in larger.iter_mut() {
            *s = (*s).div_ceil(2);
        }
    }
}

/// The parameter values of a direction: for each piece, its steps' starts, then 1 at the
/// end, as (piece, parameter) pairs.
fn parameters(steps: &[usize]) -> Vec<(usize, f64)> {
    let mut out = Vec::with_capacity(steps.iter().sum::<usize>() + 1);
    for (piece, &n) in steps.iter().enumerate() {
        for k in 0..n {
            out.push((piece, k as f64 / n as f64));
        }
    }
    out.push((steps.len() - 1, 1.0));
    out
}

/// The grid's points for the given steps, from the grid's `pieces` (row by row).
fn evaluate(pieces: &[Piece], steps_u: &[usize], steps_v: &[usize]) -> SurfaceGrid {
    let (us, vs) = (parameters(steps_u), parameters(steps_v));
    let mut points = Vec::with_capacity(us.len() * vs.len());
    for &(b, v) in &vs {
        for &(a, u) in &us {
            points.push(eval(&pieces[b * steps_u.len() + a], u, v));
        }
    }
    SurfaceGrid {
        columns: us.len(),
        rows: vs.len(),
        points,
        bound: 0.0,
        capped: false,
    }
}

/// The largest cell bound, and per strip along `u` and `v` the largest ratio of a cell's
/// bound to the tolerance, counted for the direction (or both) that dominates the cell.
fn check(
    surface: &SurfaceGrid,
    steps_u: &[usize],
    steps_v: &[usize],
    bound_of: &dyn Fn(usize, usize) -> SecondDifferences,
    tolerance: f64,
) -> (f64, Vec<f64>, Vec<f64>) {
    // Each cell column's (row's) piece and parameter range within it.
    let cells_of = |steps: &[usize]| -> Vec<(usize, [f64; 2])> {
        steps
            .iter()
            .enumerate()
            .flat_map(|(piece, &n)| {
                (0..n).map(move |k| (piece, [k as f64 / n as f64, (k + 1) as f64 / n as f64]))
            })
            .collect()
    };
    let (cell_u, cell_v) = (cells_of(steps_u), cells_of(steps_v));
    let (last_u, last_v) = (cell_u.len() - 1, cell_v.len() - 1);
    let mut worst = 0.0f64;
    let mut over_u = vec![0.0f64; steps_u.len()];
    let mut over_v = vec![0.0f64; steps_v.len()];
    for (j, &(b, range_v)) in cell_v.iter().enumerate() {
        for (i, &(a, range_u)) in cell_u.iter().enumerate() {
            let whole = bound_of(a, b);
            let d = whole.restricted(range_u, range_v);
            let (nu, nv) = (steps_u[a] as f64, steps_v[b] as f64);
            // At the patch's border, the border curve's distance from its chord, whichever
            // way it points.
            let [low_v, high_v, low_u, high_u] = whole.borders([
                chord(surface.point(i, j), surface.point(i + 1, j)),
                chord(surface.point(i, j + 1), surface.point(i + 1, j + 1)),
                chord(surface.point(i, j), surface.point(i, j + 1)),
                chord(surface.point(i + 1, j), surface.point(i + 1, j + 1)),
            ]);
            let border_u = [(j == 0, low_v), (j == last_v, high_v)]
                .iter()
                .filter(|(on, _)| *on)
                .fold(0.0f64, |m, (_, e)| m.max(*e));
            let border_v = [(i == 0, low_u), (i == last_u, high_u)]
                .iter()
                .filter(|(on, _)| *on)
                .fold(0.0f64, |m, (_, e)| m.max(*e));
            // The facet of the cell that strays most.
            let (mut eu, mut ev, mut twist) = (0.0f64, 0.0f64, 0.0f64);
            for (n, off) in cell_facets(surface, i, j) {
                let (u, v) = d.along(n);
                let (u, v) = (u.max(border_u) / (nu * nu), v.max(border_v) / (nv * nv));
                if u + v + off > eu + ev + twist {
                    (eu, ev, twist) = (u, v, off);
                }
            }
            let bound = eu + ev + twist;
            worst = worst.max(bound);
            let ratio = bound / tolerance;
            if ratio > 1.0 {
                // The chord terms fall with the square of their own steps, the twist with
                // the product of both: grow the dominating direction, or both for a twist.
                if twist >= eu.max(ev) {
                    over_u[a] = over_u[a].max(ratio);
                    over_v[b] = over_v[b].max(ratio);
                } else if eu >= ev {
                    over_u[a] = over_u[a].max(ratio);
                } else {
                    over_v[b] = over_v[b].max(ratio);
                }
            }
        }
    }
    (worst, over_u, over_v)
}

/// The facets of cell `(i, j)` as `facets` will cut it, each as (unit normal, how far the
/// cell's bilinear patch may leave it): one quad when the corners lie within
/// [`PATCH_PLANAR_EPSILON`] of a plane, else Quake 3's triangles `(p00, p10, p11)` and
/// `(p11, p01, p00)`, which the bilinear patch leaves by `|w · n| / 4` for the twist `w`;
/// none for a cell without area.
fn cell_facets(surface: &SurfaceGrid, i: usize, j: usize) -> Vec<(DVec3, f64)> {
    let (p00, p10, p11, p01) = (
        surface.point(i, j),
        surface.point(i + 1, j),
        surface.point(i + 1, j + 1),
        surface.point(i, j + 1),
    );
    if let Some(n) = (p01 - p10).cross(p11 - p00).try_normalize() {
        let centre = (p00 + p10 + p11 + p01) / 4.0;
        let off = [p00, p10, p11, p01]
            .iter()
            .map(|p| n.dot(*p - centre).abs())
            .fold(0.0, f64::max);
        if off <= PATCH_PLANAR_EPSILON {
            return vec![(n, off)];
        }
    }
    let w = p00 - p10 - p01 + p11;
    [
        (p11 - p00).cross(p10 - p00).try_normalize(),
        (p00 - p11).cross(p01 - p11).try_normalize(),
    ]
    .into_iter()
    .flatten()
    .map(|n| (n, w.dot(n).abs() / 4.0))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A half cylinder of radius `r` about the y axis, 64 long: 5 columns (two pieces)
    /// by 3 rows.
    fn half_cylinder(r: f64) -> ControlGrid {
        let ring = [
            DVec3::new(r, 0.0, 0.0),
            DVec3::new(r, 0.0, r),
            DVec3::new(0.0, 0.0, r),
            DVec3::new(-r, 0.0, r),
            DVec3::new(-r, 0.0, 0.0),
        ];
        let mut points = Vec::new();
        for y in [0.0, 32.0, 64.0] {
            points.extend(ring.iter().map(|p| *p + DVec3::new(0.0, y, 0.0)));
        }
        ControlGrid {
            width: 5,
            height: 3,
            points,
            min_steps: (1, 1),
        }
    }

    #[test]
    fn a_cylinder_is_cut_along_its_curve_only() {
        let surface = subdivide(&half_cylinder(128.0), 0.25);
        assert_eq!(surface.rows, 2, "straight along its length");
        assert!(!surface.capped);
        assert!(surface.bound <= 0.25);
        // |a − 2b + c| / 4 = 128·√2 / 4 ≈ 45.25 per piece: 14 steps bring it to 0.231.
        assert_eq!(surface.columns, 2 * 14 + 1);
        // Every grid point lies on the true (Bézier) surface.
        let grid = half_cylinder(128.0);
        let piece = grid.piece(0, 0);
        assert_eq!(surface.point(7, 1), eval(&piece, 0.5, 1.0));
    }

    #[test]
    fn explicit_steps_are_a_minimum_and_caps_bind() {
        let mut grid = half_cylinder(8.0);
        grid.min_steps = (3, 4);
        let surface = subdivide(&grid, 16.0);
        assert_eq!((surface.columns, surface.rows), (7, 5));
        let huge = subdivide(&half_cylinder(200_000.0), 0.01);
        assert!(huge.capped);
        assert_eq!(huge.columns, 2 * MAX_PIECE_SUBDIVISIONS + 1);
        assert!((huge.columns - 1) * (huge.rows - 1) <= MAX_PATCH_CELLS);
    }
}
