//! Quake 3's facets of one patch from its collision grid: the planes of the grid's
//! triangles, each cell one facet (a quad when its two triangles share a plane, else two
//! triangles) bounded by its neighbours' planes or by edge planes standing on its borders,
//! then bevelled (axial planes of its bounds, slanted planes along its edges, and its own
//! plane reversed as the back).
//!
//! Takes a [`Grid`](super::grid::Grid) after subdivision; gives the [`PatchCollide`]
//! `cm_patch.c CM_PatchCollideFromGrid` (ioquake3) makes, with the game's order of planes
//! and borders and its f32 arithmetic, so a sweep against it answers as the game's does.
//! Guarantees: no panic; at most [`MAX_PATCH_PLANES`] planes and [`MAX_FACETS`] facets
//! (past them the patch is refused with a [`CollideProblem`], where the game stops); every
//! plane index a kept facet names is in range.

use super::grid::{Grid, P3};
use super::winding::{Winding, cross, dot, normalize};
use super::{
    CollideProblem, MAX_FACET_BORDERS, MAX_FACETS, MAX_MAP_BOUNDS, MAX_PATCH_PLANES,
    PATCH_DIST_EPSILON, PATCH_NORMAL_EPSILON, PLANE_TRI_EPSILON, WINDING_EPSILON,
};
use super::{Border, Facet, PatchCollide, PatchPlane};

/// How far the edge planes stand out of the surface (`CM_EdgePlaneNum`'s `VectorMA(p1, 4,
/// normal, up)`), units: any height makes the same plane; the game's number keeps its
/// rounding.
const EDGE_PLANE_HEIGHT: f32 = 4.0;

/// A facet while it is made: border planes may still be −1 (none).
#[derive(Clone, Copy, Debug, Default)]
struct Draft {
    plane: i32,
    inward: bool,
}

/// The planes and facets being made.
struct Builder {
    planes: Vec<PatchPlane>,
    facets: Vec<Facet>,
}

/// `CM_SignbitsForNormal`.
fn signbits(n: P3) -> u8 {
    (0..3).fold(0, |bits, k| if n[k] < 0.0 { bits | (1 << k) } else { bits })
}

/// `CM_PlaneFromPoints`: the plane through `a, b, c` (normal `(c − a) × (b − a)`), or
/// `None` when the triangle is degenerate.
fn plane_from_points(a: P3, b: P3, c: P3) -> Option<[f32; 4]> {
    let d1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let d2 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    let mut n = cross(d2, d1);
    if normalize(&mut n) == 0.0 {
        return None;
    }
    Some([n[0], n[1], n[2], dot(a, n)])
}

/// The first three numbers.
#[inline]
fn normal(p: &[f32; 4]) -> P3 {
    [p[0], p[1], p[2]]
}

/// `p` reversed.
#[inline]
fn flip(p: [f32; 4]) -> [f32; 4] {
    [-p[0], -p[1], -p[2], -p[3]]
}

/// `CM_PlaneEqual`: `Some(flipped)` when `b` equals `a` (or its reverse) within
/// [`PATCH_NORMAL_EPSILON`] per normal component and [`PATCH_DIST_EPSILON`] in distance.
fn plane_equal(a: &[f32; 4], b: &[f32; 4]) -> Option<bool> {
    let close = |b: &[f32; 4]| {
        (0..3).all(|k| f64::from((a[k] - b[k]).abs()) < PATCH_NORMAL_EPSILON)
            && f64::from((a[3] - b[3]).abs()) < PATCH_DIST_EPSILON
    };
    if close(b) {
        Some(false)
    } else if close(&flip(*b)) {
        Some(true)
    } else {
        None
    }
}

/// `CM_SnapVector`: a component within [`PATCH_NORMAL_EPSILON`] of ±1 makes the vector
/// that axis.
fn snap_vector(v: &mut P3) {
    for k in 0..3 {
        for one in [1.0f32, -1.0] {
            if f64::from((v[k] - one).abs()) < PATCH_NORMAL_EPSILON {
                *v = [0.0; 3];
                v[k] = one;
                return;
            }
        }
    }
}

impl Builder {
    /// Adds `plane` as a new one.
    fn push(&mut self, plane: [f32; 4]) -> Result<i32, CollideProblem> {
        if self.planes.len() >= MAX_PATCH_PLANES {
            return Err(CollideProblem::TooManyPlanes);
        }
        self.planes.push(PatchPlane {
            plane,
            signbits: signbits(normal(&plane)),
        });
        Ok(self.planes.len() as i32 - 1)
    }

    /// The plane `index` (−1 or out of range: none).
    fn plane(&self, index: i32) -> Option<[f32; 4]> {
        usize::try_from(index)
            .ok()
            .and_then(|i| self.planes.get(i))
            .map(|p| p.plane)
    }

    /// `CM_FindPlane`: the plane through `p1, p2, p3`: an existing one facing the same
    /// way with all three within [`PLANE_TRI_EPSILON`], else a new one; −1 when the
    /// triangle is degenerate.
    fn find_plane(&mut self, p1: P3, p2: P3, p3: P3) -> Result<i32, CollideProblem> {
        let Some(plane) = plane_from_points(p1, p2, p3) else {
            return Ok(-1);
        };
        let within = |p: P3, q: &[f32; 4]| {
            let d = f64::from(dot(p, normal(q)) - q[3]);
            (-PLANE_TRI_EPSILON..=PLANE_TRI_EPSILON).contains(&d)
        };
        for (i, existing) in self.planes.iter().enumerate() {
            let q = &existing.plane;
            if dot(normal(&plane), normal(q)) < 0.0 {
                continue;
            }
            if within(p1, q) && within(p2, q) && within(p3, q) {
                return Ok(i as i32);
            }
        }
        self.push(plane)
    }

    /// `CM_FindPlane2`: an existing plane equal to `plane` or its reverse (and whether
    /// reversed), else a new one.
    fn find_plane2(&mut self, plane: [f32; 4]) -> Result<(i32, bool), CollideProblem> {
        for (i, existing) in self.planes.iter().enumerate() {
            if let Some(flipped) = plane_equal(&existing.plane, &plane) {
                return Ok((i as i32, flipped));
            }
        }
        Ok((self.push(plane)?, false))
    }

    /// `CM_PointOnPlaneSide`: 1 in front, −1 behind, 0 within [`PLANE_TRI_EPSILON`] or
    /// for no plane.
    fn side(&self, p: P3, plane: i32) -> i8 {
        let Some(q) = self.plane(plane) else {
            return 0;
        };
        let d = f64::from(dot(p, normal(&q)) - q[3]);
        if d > PLANE_TRI_EPSILON {
            1
        } else if d < -PLANE_TRI_EPSILON {
            -1
        } else {
            0
        }
    }
}

/// The triangles' planes of every cell: `[i][j][tri]`.
struct GridPlanes {
    height: usize,
    planes: Vec<[i32; 2]>,
}

impl GridPlanes {
    fn get(&self, i: usize, j: usize) -> [i32; 2] {
        self.planes[i * self.height + j]
    }

    /// `CM_GridPlane`: triangle `tri`'s plane, else the other's (−1 when neither has one).
    fn either(&self, i: usize, j: usize, tri: usize) -> i32 {
        let p = self.get(i, j);
        if p[tri] != -1 { p[tri] } else { p[1 - tri] }
    }
}

/// `CM_EdgePlaneNum`: the plane standing on border `k` of cell `(i, j)` (0 top, 1 right,
/// 2 bottom, 3 left, 4 and 5 the diagonal out of triangle 0 and 1).
fn edge_plane(
    b: &mut Builder,
    grid: &Grid,
    gp: &GridPlanes,
    (i, j): (usize, usize),
    k: usize,
) -> Result<i32, CollideProblem> {
    let (p1, p2, tri, p1_first) = match k {
        0 => (grid.at(i, j), grid.at(i + 1, j), 0, true),
        2 => (grid.at(i, j + 1), grid.at(i + 1, j + 1), 1, false),
        3 => (grid.at(i, j), grid.at(i, j + 1), 1, false),
        1 => (grid.at(i + 1, j), grid.at(i + 1, j + 1), 0, true),
        4 => (grid.at(i + 1, j + 1), grid.at(i, j), 0, true),
        _ => (grid.at(i, j), grid.at(i + 1, j + 1), 1, true),
    };
    let Some(plane) = b.plane(gp.either(i, j, tri)) else {
        return Ok(-1);
    };
    let n = normal(&plane);
    let up = [
        p1[0] + EDGE_PLANE_HEIGHT * n[0],
        p1[1] + EDGE_PLANE_HEIGHT * n[1],
        p1[2] + EDGE_PLANE_HEIGHT * n[2],
    ];
    if p1_first {
        b.find_plane(p1, p2, up)
    } else {
        b.find_plane(p2, p1, up)
    }
}

/// `CM_SetBorderInward`: each border faces in or out by which side the cell's corners
/// (`which`: −1 the quad, 0 or 1 a triangle) lie on; a border they all lie on is dropped
/// (−1), one they straddle faces out.
fn set_border_inward(b: &Builder, grid: &Grid, borders: &mut [Draft], (i, j): (usize, usize), which: i8) {
    let corners: &[P3] = &match which {
        -1 => [grid.at(i, j), grid.at(i + 1, j), grid.at(i + 1, j + 1), grid.at(i, j + 1)],
        0 => [grid.at(i, j), grid.at(i + 1, j), grid.at(i + 1, j + 1), [0.0; 3]],
        _ => [grid.at(i + 1, j + 1), grid.at(i, j + 1), grid.at(i, j), [0.0; 3]],
    };
    let corners = if which == -1 { corners } else { &corners[..3] };
    for border in borders.iter_mut() {
        let (mut front, mut back) = (0, 0);
        for &p in corners {
            match b.side(p, border.plane) {
                1 => front += 1,
                -1 => back += 1,
                _ => {}
            }
        }
        if front > 0 && back == 0 {
            border.inward = true;
        } else if back > 0 && front == 0 {
            border.inward = false;
        } else if front == 0 && back == 0 {
            border.plane = -1;
        } else {
            border.inward = false;
        }
    }
}

/// The border plane as the facet keeps it: reversed when it faces in.
fn oriented(plane: [f32; 4], inward: bool) -> [f32; 4] {
    if inward { plane } else { flip(plane) }
}

/// `CM_ValidateFacet`: the surface plane cut by every border leaves a polygon within the
/// game's bounds.
fn validate_facet(b: &Builder, surface: i32, borders: &[Draft]) -> bool {
    let Some(plane) = b.plane(surface) else {
        return false;
    };
    let mut w = Some(Winding::base(normal(&plane), plane[3]));
    for border in borders {
        let Some(current) = w else { break };
        let Some(q) = b.plane(border.plane) else {
            return false;
        };
        let q = oriented(q, border.inward);
        w = current.chop(normal(&q), q[3], WINDING_EPSILON);
    }
    let Some(w) = w else {
        return false;
    };
    let (mins, maxs) = w.bounds();
    (0..3).all(|k| {
        maxs[k] - mins[k] <= MAX_MAP_BOUNDS && mins[k] < MAX_MAP_BOUNDS && maxs[k] > -MAX_MAP_BOUNDS
    })
}

/// Adds `plane` as a border unless the surface or a border already is it; `false` when
/// the facet has [`MAX_FACET_BORDERS`] already.
fn add_bevel(
    b: &mut Builder,
    surface: i32,
    borders: &mut Vec<Draft>,
    plane: [f32; 4],
    keep: impl FnOnce(&Builder, i32, bool) -> bool,
) -> Result<(), CollideProblem> {
    let same = |index: i32| b.plane(index).is_some_and(|q| plane_equal(&q, &plane).is_some());
    if same(surface) || borders.iter().any(|d| same(d.plane)) {
        return Ok(());
    }
    if borders.len() >= MAX_FACET_BORDERS {
        return Ok(());
    }
    let (index, flipped) = b.find_plane2(plane)?;
    if keep(b, index, flipped) {
        borders.push(Draft {
            plane: index,
            inward: flipped,
        });
    }
    Ok(())
}

/// `CM_AddFacetBevels`: the axial planes of the facet's polygon's bounds, the slanted
/// planes along its non-axial edges that every corner lies behind, then the surface plane
/// reversed (the back, last).
fn add_bevels(b: &mut Builder, surface: i32, borders: &mut Vec<Draft>) -> Result<(), CollideProblem> {
    let Some(plane) = b.plane(surface) else {
        return Ok(());
    };
    let mut w = Some(Winding::base(normal(&plane), plane[3]));
    for border in borders.iter() {
        let Some(current) = w else { break };
        if border.plane == surface {
            w = Some(current);
            continue;
        }
        let Some(q) = b.plane(border.plane) else {
            w = Some(current);
            continue;
        };
        let q = oriented(q, border.inward);
        w = current.chop(normal(&q), q[3], WINDING_EPSILON);
    }
    let Some(w) = w else {
        return Ok(());
    };
    let (mins, maxs) = w.bounds();
    for axis in 0..3 {
        for dir in [-1.0f32, 1.0] {
            let mut axial = [0.0f32; 4];
            axial[axis] = dir;
            axial[3] = if dir == 1.0 { maxs[axis] } else { -mins[axis] };
            add_bevel(b, surface, borders, axial, |_, _, _| true)?;
        }
    }
    let n = w.points.len();
    for j in 0..n {
        let (p, q) = (w.points[j], w.points[(j + 1) % n]);
        let mut edge = [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
        if normalize(&mut edge) < 0.5 {
            continue;
        }
        snap_vector(&mut edge);
        if edge.iter().any(|&c| c == 1.0 || c == -1.0) {
            continue;
        }
        for axis in 0..3 {
            for dir in [-1.0f32, 1.0] {
                let mut toward = [0.0f32; 3];
                toward[axis] = dir;
                let mut bevel = cross(edge, toward);
                if normalize(&mut bevel) < 0.5 {
                    continue;
                }
                let plane = [bevel[0], bevel[1], bevel[2], dot(p, bevel)];
                let behind = w
                    .points
                    .iter()
                    .all(|&c| f64::from(dot(c, bevel) - plane[3]) <= BEVEL_BEHIND_EPSILON);
                if !behind {
                    continue;
                }
                let polygon = &w;
                add_bevel(b, surface, borders, plane, |b, index, flipped| {
                    // A bevel that would cut the facet away is left out (the game's
                    // "invalid bevel").
                    b.plane(index).is_some_and(|q| {
                        let q = oriented(q, flipped);
                        polygon.clone().chop(normal(&q), q[3], WINDING_EPSILON).is_some()
                    })
                })?;
            }
        }
    }
    if borders.len() >= MAX_FACET_BORDERS {
        return Ok(());
    }
    borders.push(Draft {
        plane: surface,
        inward: true,
    });
    Ok(())
}

/// How far in front of a slanted edge bevel a corner of the facet may lie and the bevel
/// still count as behind all of it (`CM_AddFacetBevels`' `d > 0.1`, a double), units.
const BEVEL_BEHIND_EPSILON: f64 = 0.1;

/// Keeps a facet when [`validate_facet`] passes, after its bevels.
fn finish_facet(b: &mut Builder, surface: i32, mut borders: Vec<Draft>) -> Result<(), CollideProblem> {
    if !validate_facet(b, surface, &borders) {
        return Ok(());
    }
    add_bevels(b, surface, &mut borders)?;
    let borders = borders
        .iter()
        .filter_map(|d| {
            Some(Border {
                plane: u32::try_from(d.plane).ok()?,
                inward: d.inward,
            })
        })
        .collect();
    b.facets.push(Facet {
        surface_plane: surface as u32,
        borders,
    });
    Ok(())
}

/// `CM_PatchCollideFromGrid` and the bounds of `CM_GeneratePatchCollide`.
pub(super) fn collide_from_grid(grid: &Grid) -> Result<PatchCollide, CollideProblem> {
    let (width, height) = (grid.width(), grid.height);
    let mut b = Builder {
        planes: Vec::new(),
        facets: Vec::new(),
    };
    let cells_h = height.saturating_sub(1);
    let mut gp = GridPlanes {
        height: cells_h,
        planes: vec![[-1, -1]; width.saturating_sub(1) * cells_h],
    };
    for i in 0..width.saturating_sub(1) {
        for j in 0..cells_h {
            let t0 = b.find_plane(grid.at(i, j), grid.at(i + 1, j), grid.at(i + 1, j + 1))?;
            let t1 = b.find_plane(grid.at(i + 1, j + 1), grid.at(i, j + 1), grid.at(i, j))?;
            gp.planes[i * cells_h + j] = [t0, t1];
        }
    }
    for i in 0..width.saturating_sub(1) {
        for j in 0..cells_h {
            let here = gp.get(i, j);
            // Top (0), right (1), bottom (2), left (3): the neighbour's plane, else an
            // edge plane; `no_adjust` where the neighbour is coplanar.
            let mut top = if j > 0 {
                gp.get(i, j - 1)[1]
            } else if grid.wrap_height {
                gp.get(i, cells_h - 1)[1]
            } else {
                -1
            };
            if top == -1 || top == here[0] {
                top = edge_plane(&mut b, grid, &gp, (i, j), 0)?;
            }
            let mut bottom = if j + 2 < height {
                gp.get(i, j + 1)[0]
            } else if grid.wrap_height {
                gp.get(i, 0)[0]
            } else {
                -1
            };
            if bottom == -1 || bottom == here[1] {
                bottom = edge_plane(&mut b, grid, &gp, (i, j), 2)?;
            }
            let mut left = if i > 0 {
                gp.get(i - 1, j)[0]
            } else if grid.wrap_width {
                gp.get(width - 2, j)[0]
            } else {
                -1
            };
            if left == -1 || left == here[1] {
                left = edge_plane(&mut b, grid, &gp, (i, j), 3)?;
            }
            let mut right = if i + 2 < width {
                gp.get(i + 1, j)[1]
            } else if grid.wrap_width {
                gp.get(0, j)[1]
            } else {
                -1
            };
            if right == -1 || right == here[0] {
                right = edge_plane(&mut b, grid, &gp, (i, j), 1)?;
            }
            if b.facets.len() >= MAX_FACETS {
                return Err(CollideProblem::TooManyFacets);
            }
            let draft = |plane: i32| Draft {
                plane,
                inward: false,
            };
            if here[0] == here[1] {
                if here[0] == -1 {
                    continue;
                }
                let mut borders = vec![draft(top), draft(right), draft(bottom), draft(left)];
                set_border_inward(&b, grid, &mut borders, (i, j), -1);
                finish_facet(&mut b, here[0], borders)?;
            } else {
                let mut third = here[1];
                if third == -1 {
                    third = bottom;
                    if third == -1 {
                        third = edge_plane(&mut b, grid, &gp, (i, j), 4)?;
                    }
                }
                let mut borders = vec![draft(top), draft(right), draft(third)];
                set_border_inward(&b, grid, &mut borders, (i, j), 0);
                finish_facet(&mut b, here[0], borders)?;
                if b.facets.len() >= MAX_FACETS {
                    return Err(CollideProblem::TooManyFacets);
                }
                let mut third = here[0];
                if third == -1 {
                    third = top;
                    if third == -1 {
                        third = edge_plane(&mut b, grid, &gp, (i, j), 5)?;
                    }
                }
                let mut borders = vec![draft(bottom), draft(left), draft(third)];
                set_border_inward(&b, grid, &mut borders, (i, j), 1);
                finish_facet(&mut b, here[1], borders)?;
            }
        }
    }
    let mut mins = [f32::INFINITY; 3];
    let mut maxs = [f32::NEG_INFINITY; 3];
    for column in &grid.columns {
        for p in column {
            for k in 0..3 {
                mins[k] = mins[k].min(p[k]);
                maxs[k] = maxs[k].max(p[k]);
            }
        }
    }
    Ok(PatchCollide {
        mins: glam::Vec3::from(mins) - glam::Vec3::ONE,
        maxs: glam::Vec3::from(maxs) + glam::Vec3::ONE,
        planes: b.planes,
        facets: b.facets,
    })
}
