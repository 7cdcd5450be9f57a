//! Biquadratic Bézier pieces: evaluation, derivatives, the surface normal, and the error
//! bounds that subdivision chooses its counts from.
//!
//! Takes the 3×3 control points of one piece of a patch (game-semantics.md 4.2), gives
//! points of `S(u, v) = Σ B_i(u) B_j(v) P_ij` with `B_0 = (1−t)²`, `B_1 = 2t(1−t)`,
//! `B_2 = t²`, its partial derivatives, and bounds on how far a piecewise-linear
//! interpolant may stray from it. Guarantees: pure f64 functions of their inputs; the
//! bounds are true bounds (Bernstein weights are non-negative and sum to one).
//!
//! `u` runs along the patch's columns (its width, control point index `i`), `v` along its
//! rows (its height, index `j`). The front of a patch is where `S_v × S_u` points: Quake 3's
//! facet planes (`cm_patch.c`, `CM_PlaneFromPoints` over `(p[i][j], p[i+1][j], p[i+1][j+1])`)
//! face that way, and only their front collides for volumes.

use glam::DVec3;

/// The control points of one piece: `piece[i][j]` is column `i`, row `j`.
pub(crate) type Piece = [[DVec3; 3]; 3];

/// The quadratic Bernstein weights at `t`.
fn basis(t: f64) -> [f64; 3] {
    let s = 1.0 - t;
    [s * s, 2.0 * t * s, t * t]
}

/// The derivatives of the quadratic Bernstein weights at `t`.
fn basis_derivative(t: f64) -> [f64; 3] {
    [-2.0 * (1.0 - t), 2.0 - 4.0 * t, 2.0 * t]
}

/// `Σ a_i b_j P_ij`.
fn blend(piece: &Piece, a: [f64; 3], b: [f64; 3]) -> DVec3 {
    let mut sum = DVec3::ZERO;
    for (i, column) in piece.iter().enumerate() {
        let along = column[0] * b[0] + column[1] * b[1] + column[2] * b[2];
        sum += along * a[i];
    }
    sum
}

/// The surface point at `(u, v)` in `[0, 1]²`.
#[must_use]
pub(crate) fn eval(piece: &Piece, u: f64, v: f64) -> DVec3 {
    blend(piece, basis(u), basis(v))
}

/// The partial derivatives `(S_u, S_v)` at `(u, v)`.
#[must_use]
pub(crate) fn derivatives(piece: &Piece, u: f64, v: f64) -> (DVec3, DVec3) {
    let (bu, bv) = (basis(u), basis(v));
    (
        blend(piece, basis_derivative(u), bv),
        blend(piece, bu, basis_derivative(v)),
    )
}

/// The unit normal at `(u, v)`, facing the patch's front (`S_v × S_u`); `None` where the
/// surface is degenerate (a collapsed row or column, a cone's apex).
#[must_use]
pub(crate) fn normal(piece: &Piece, u: f64, v: f64) -> Option<DVec3> {
    let (su, sv) = derivatives(piece, u, v);
    sv.cross(su).try_normalize()
}

/// The second differences of a piece along each direction: `along_u[k] = P_0k − 2 P_1k +
/// P_2k` (row `k`) and `along_v[k] = P_k0 − 2 P_k1 + P_k2` (column `k`).
///
/// They bound how far the surface strays from the facets of its cells. Cut a piece into
/// `nu` equal steps along `u` and `nv` along `v`: on each step a quadratic's second
/// difference is the piece's over `nu²` (the same direction), and `S_uu` is a convex
/// combination of `2 · along_u[k]`, so along any line of constant `v` the curve leaves its
/// chord by `s(1 − s)` times a convex combination of `along_u[k] / nu²`, and likewise along
/// `v`. Measured along a facet's unit normal `n` (inside the patch, the part along the facet
/// only slides the point within it or onto its neighbour; see [`SecondDifferences::borders`]
/// for the patch's border), the surface lies within `max_k |n · along_u[k]| / (4 nu²) + max_k |n ·
/// along_v[k]| / (4 nv²)` of the cell's bilinear interpolant (interpolate along `u`, then
/// along `v`). A parameterisation that runs unevenly along a straight line (handles off
/// the middle, common in real maps) thus costs no steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SecondDifferences {
    /// Along `u`, per row of the piece.
    pub along_u: [DVec3; 3],
    /// Along `v`, per column of the piece.
    pub along_v: [DVec3; 3],
}

impl SecondDifferences {
    /// The bound above for one step each way, seen along `n`: `(along u, along v)`.
    #[must_use]
    pub(crate) fn along(&self, n: DVec3) -> (f64, f64) {
        let worst = |d: &[DVec3; 3]| d.iter().map(|d| n.dot(*d).abs() / 4.0).fold(0.0, f64::max);
        (worst(&self.along_u), worst(&self.along_v))
    }

    /// The second differences of the part `[u0, u1] × [v0, v1]` of the piece, scaled to
    /// one step of the piece: `S_uu` over that part is a convex combination of twice these
    /// `along_u` (the quadratic in `v` restricted to `[v0, v1]`, by its blossom), and
    /// likewise `S_vv`. A cell's own bound, smaller than the piece's where the curvature
    /// peaks elsewhere.
    #[must_use]
    pub(crate) fn restricted(&self, [u0, u1]: [f64; 2], [v0, v1]: [f64; 2]) -> SecondDifferences {
        // The blossom of the quadratic with Bernstein coefficients d at (s, t).
        let blossom = |d: &[DVec3; 3], s: f64, t: f64| {
            d[0] * ((1.0 - s) * (1.0 - t)) + d[1] * (s * (1.0 - t) + t * (1.0 - s)) + d[2] * (s * t)
        };
        let restrict = |d: &[DVec3; 3], a: f64, b: f64| {
            [blossom(d, a, a), blossom(d, a, b), blossom(d, b, b)]
        };
        SecondDifferences {
            along_u: restrict(&self.along_u, v0, v1),
            along_v: restrict(&self.along_v, u0, u1),
        }
    }

    /// The bound for one step along the piece's border curves, across the chord of that
    /// step: `[row v = 0, row v = 1, column u = 0, column u = 1]`, each border's second
    /// difference without its part along `chords[k]` (the unit direction of the chord the
    /// step's facet edge follows; zero counts the whole difference). At a patch's border no
    /// neighbouring facet covers what a facet misses, so the border curve's distance from
    /// its chord counts whichever way it points, across the surface or along it (a flat cap
    /// with a curved outline); only a curve running along its chord (a straight border,
    /// its handle off the middle) stays on it.
    #[must_use]
    pub(crate) fn borders(&self, chords: [DVec3; 4]) -> [f64; 4] {
        let across = |d: DVec3, c: DVec3| (d - c * d.dot(c)).length() / 4.0;
        [
            across(self.along_u[0], chords[0]),
            across(self.along_u[2], chords[1]),
            across(self.along_v[0], chords[2]),
            across(self.along_v[2], chords[3]),
        ]
    }

    /// The bound for one step each way whatever the normal: `(along u, along v)`.
    #[must_use]
    pub(crate) fn magnitude(&self) -> (f64, f64) {
        let worst = |d: &[DVec3; 3]| d.iter().map(|d| d.length() / 4.0).fold(0.0, f64::max);
        (worst(&self.along_u), worst(&self.along_v))
    }
}

/// The [`SecondDifferences`] of a piece.
#[must_use]
pub(crate) fn second_differences(piece: &Piece) -> SecondDifferences {
    let second = |a: DVec3, b: DVec3, c: DVec3| a - 2.0 * b + c;
    let mut out = SecondDifferences {
        along_u: [DVec3::ZERO; 3],
        along_v: [DVec3::ZERO; 3],
    };
    for (k, column) in piece.iter().enumerate() {
        out.along_u[k] = second(piece[0][k], piece[1][k], piece[2][k]);
        out.along_v[k] = second(column[0], column[1], column[2]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A quarter cylinder of radius 64 about the y axis, straight along v.
    fn quarter_cylinder() -> Piece {
        let column = |x: f64, z: f64| {
            [
                DVec3::new(x, 0.0, z),
                DVec3::new(x, 32.0, z),
                DVec3::new(x, 64.0, z),
            ]
        };
        [column(64.0, 0.0), column(64.0, 64.0), column(0.0, 64.0)]
    }

    #[test]
    fn corners_interpolate_and_the_normal_faces_the_front() {
        let piece = quarter_cylinder();
        assert_eq!(eval(&piece, 0.0, 0.0), DVec3::new(64.0, 0.0, 0.0));
        assert_eq!(eval(&piece, 1.0, 1.0), DVec3::new(0.0, 64.0, 64.0));
        let mid = eval(&piece, 0.5, 0.5);
        assert!((mid - DVec3::new(48.0, 32.0, 48.0)).length() < 1e-12);
        // S_u runs from +x towards +z, S_v along +y: S_v × S_u points out of the cylinder.
        let n = normal(&piece, 0.5, 0.5).unwrap_or_default();
        assert!((n - DVec3::new(1.0, 0.0, 1.0).normalize()).length() < 1e-12);
    }

    #[test]
    fn second_differences_bound_the_parabola_sagitta() {
        let piece = quarter_cylinder();
        let d = second_differences(&piece);
        // |a − 2b + c| / 4 with a = (64, 0), b = (64, 64), c = (0, 64): |(−64, −64)| / 4.
        let (u, v) = d.magnitude();
        assert!((u - 64.0 * 2f64.sqrt() / 4.0).abs() < 1e-12);
        assert_eq!(v, 0.0);
        // The true largest gap between the curve and its chord is at u = ½, along the
        // normal there.
        let chord_mid = (piece[0][0] + piece[2][0]) * 0.5;
        let gap = (eval(&piece, 0.5, 0.0) - chord_mid).length();
        assert!((gap - u).abs() < 1e-12);
        let n = normal(&piece, 0.5, 0.0).unwrap_or_default();
        assert!((d.along(n).0 - u).abs() < 1e-12);
        // A straight line with its handle off the middle strays from no chord.
        let mut uneven = piece;
        for (column, x) in uneven.iter_mut().zip([0.0, 10.0, 64.0]) {
            for (k, p) in column.iter_mut().enumerate() {
                *p = DVec3::new(x, 32.0 * k as f64, 0.0);
            }
        }
        let d = second_differences(&uneven);
        assert!(d.magnitude().0 > 10.0);
        assert_eq!(d.along(DVec3::Z), (0.0, 0.0));
    }

    #[test]
    fn restricted_differences_bound_the_part() {
        // A hill: the centre raised, curving most along u at v = ½.
        let mut hill = [[DVec3::ZERO; 3]; 3];
        for (i, column) in hill.iter_mut().enumerate() {
            for (j, p) in column.iter_mut().enumerate() {
                let z = if (i, j) == (1, 1) { 96.0 } else { 0.0 };
                *p = DVec3::new(64.0 * i as f64, 64.0 * j as f64, z);
            }
        }
        let d = second_differences(&hill);
        let whole = d.along(DVec3::Z);
        let edge = d.restricted([0.0, 1.0], [0.0, 0.1]).along(DVec3::Z);
        assert!(edge.0 < whole.0 / 4.0, "{edge:?} {whole:?}");
        // S_uu / 2 at v = 0.05 is inside the restricted bound.
        let h = 1e-4;
        let second = (eval(&hill, 0.5 + h, 0.05) - 2.0 * eval(&hill, 0.5, 0.05) + eval(&hill, 0.5 - h, 0.05)) / (h * h);
        assert!(second.z.abs() / 2.0 <= 4.0 * edge.0 + 1e-6);
    }
}
