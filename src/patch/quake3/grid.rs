//! Quake 3's collision grid of one patch: its control points cut into columns and rows
//! whose straight chords lie within [`SUBDIVIDE_DISTANCE`] of the curve, in the game's f32.
//!
//! Takes the control points as the `.bsp` stores them (row-major, `width × height`); gives
//! the grid the game's facets are made from, in the order of `cm_patch.c
//! CM_GeneratePatchCollide` (ioquake3): wrap test, columns subdivided, identical columns
//! removed, the grid transposed, and the same again for the rows. Guarantees: no panic on
//! any input, and no grid grows past [`MAX_GRID_SIZE`] a side (the game writes past its
//! fixed array there; here the patch is refused with [`CollideProblem::GridTooFine`]).

use super::{CollideProblem, MAX_GRID_SIZE, POINT_EPSILON, SUBDIVIDE_DISTANCE, WRAP_POINT_EPSILON};

/// A point as the game holds it.
pub(super) type P3 = [f32; 3];

/// The grid: `columns[i][j]` is column `i` (along the width), row `j`.
#[derive(Clone, Debug, Default)]
pub(super) struct Grid {
    pub columns: Vec<Vec<P3>>,
    pub height: usize,
    pub wrap_width: bool,
    pub wrap_height: bool,
}

impl Grid {
    /// The grid of `points` (`points[j * width + i]` is column `i`, row `j`).
    pub(super) fn new(width: usize, height: usize, points: &[P3]) -> Grid {
        let columns = (0..width)
            .map(|i| (0..height).map(|j| points[j * width + i]).collect())
            .collect();
        Grid {
            columns,
            height,
            wrap_width: false,
            wrap_height: false,
        }
    }

    /// Columns.
    pub(super) fn width(&self) -> usize {
        self.columns.len()
    }

    /// Point `(i, j)`.
    #[inline]
    pub(super) fn at(&self, i: usize, j: usize) -> P3 {
        self.columns[i][j]
    }

    /// The whole of `CM_GeneratePatchCollide`'s grid stage.
    pub(super) fn subdivided(mut self) -> Result<Grid, CollideProblem> {
        self.set_wrap_width();
        self.subdivide_columns()?;
        self.remove_degenerate_columns();
        self.transpose();
        self.set_wrap_width();
        self.subdivide_columns()?;
        self.remove_degenerate_columns();
        Ok(self)
    }

    /// `CM_SetGridWrapWidth`: the first and last columns equal within
    /// [`WRAP_POINT_EPSILON`] on every row.
    fn set_wrap_width(&mut self) {
        let (Some(first), Some(last)) = (self.columns.first(), self.columns.last()) else {
            return;
        };
        self.wrap_width = first.iter().zip(last).all(|(a, b)| {
            (0..3).all(|k| {
                let d = f64::from(a[k] - b[k]);
                (-WRAP_POINT_EPSILON..=WRAP_POINT_EPSILON).contains(&d)
            })
        });
    }

    /// `CM_SubdivideGridColumns`: each curve `i, i+1, i+2` is dropped to its chord where
    /// every row is flat enough, or halved.
    fn subdivide_columns(&mut self) -> Result<(), CollideProblem> {
        let mut i = 0;
        while i + 2 < self.width() {
            let flat = (0..self.height).all(|j| {
                !needs_subdivision(self.at(i, j), self.at(i + 1, j), self.at(i + 2, j))
            });
            if flat {
                self.columns.remove(i + 1);
                i += 1;
                continue;
            }
            if self.width() + 2 > MAX_GRID_SIZE {
                return Err(CollideProblem::GridTooFine);
            }
            let (prev, mid, next) = (
                self.columns[i].clone(),
                self.columns[i + 1].clone(),
                self.columns[i + 2].clone(),
            );
            let mut out = [Vec::new(), Vec::new(), Vec::new()];
            for j in 0..self.height {
                let parts = subdivide(prev[j], mid[j], next[j]);
                for (column, p) in out.iter_mut().zip(parts) {
                    column.push(p);
                }
            }
            self.columns.splice(i + 1..i + 2, out);
        }
        Ok(())
    }

    /// `CM_RemoveDegenerateColumns`: a column equal to the next within [`POINT_EPSILON`]
    /// on every row loses the next.
    fn remove_degenerate_columns(&mut self) {
        let mut i = 0;
        while i + 1 < self.width() {
            let same = (0..self.height).all(|j| same_point(self.at(i, j), self.at(i + 1, j)));
            if same {
                self.columns.remove(i + 1);
            } else {
                i += 1;
            }
        }
    }

    /// `CM_TransposeGrid`: rows become columns (and the wrap flags swap).
    fn transpose(&mut self) {
        let (width, height) = (self.width(), self.height);
        let columns = (0..height)
            .map(|j| (0..width).map(|i| self.columns[i][j]).collect())
            .collect();
        self.columns = columns;
        self.height = width;
        std::mem::swap(&mut self.wrap_width, &mut self.wrap_height);
    }
}

/// `CM_NeedsSubdivision`: the curve's midpoint lies [`SUBDIVIDE_DISTANCE`] or more from
/// its chord's (the game's sums: each pair added in f32, the halves in f64).
fn needs_subdivision(a: P3, b: P3, c: P3) -> bool {
    let mut delta = [0.0f32; 3];
    for k in 0..3 {
        let lmid = (0.5 * f64::from(a[k] + c[k])) as f32;
        let cmid = (0.5 * (0.5 * f64::from(a[k] + b[k]) + 0.5 * f64::from(b[k] + c[k]))) as f32;
        delta[k] = cmid - lmid;
    }
    let dist = (delta[0] * delta[0] + delta[1] * delta[1] + delta[2] * delta[2]).sqrt();
    // A NaN distance is flat: the grid never grows from nonsense.
    f64::from(dist) >= SUBDIVIDE_DISTANCE
}

/// `CM_Subdivide`: the curve `a, b, c` halved: the two new control points and the curve's
/// midpoint between them.
fn subdivide(a: P3, b: P3, c: P3) -> [P3; 3] {
    let mut out = [[0.0f32; 3]; 3];
    for k in 0..3 {
        let o1 = (0.5 * f64::from(a[k] + b[k])) as f32;
        let o3 = (0.5 * f64::from(b[k] + c[k])) as f32;
        out[0][k] = o1;
        out[2][k] = o3;
        out[1][k] = (0.5 * f64::from(o1 + o3)) as f32;
    }
    out
}

/// `CM_ComparePoints`: within [`POINT_EPSILON`] on each axis.
fn same_point(a: P3, b: P3) -> bool {
    (0..3).all(|k| {
        let d = f64::from(a[k] - b[k]);
        (-POINT_EPSILON..=POINT_EPSILON).contains(&d)
    })
}
