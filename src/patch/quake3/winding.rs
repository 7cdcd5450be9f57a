//! The game's f32 polygon of a plane cut by others, for the facet checks of `collide.rs`:
//! ioquake3 `cm_polylib.c` (`BaseWindingForPlane`, `ChopWindingInPlace`, `WindingBounds`)
//! redone in planeshift's words, with the game's arithmetic (f32 throughout, its vector
//! helpers' order of operations).
//!
//! Takes a plane `(normal, dist)` and cutting planes; gives the polygon left in front of
//! them, or `None` when nothing is left. Guarantees: no panic, at most
//! [`MAX_WINDING_POINTS`] points (a cut that would make more drops the polygon, where the
//! game stops with an error).

use super::grid::P3;
use super::{MAX_MAP_BOUNDS, MAX_WINDING_POINTS};

/// `DotProduct`: summed x, y, z in f32.
#[inline]
pub(super) fn dot(a: P3, b: P3) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `CrossProduct`.
#[inline]
pub(super) fn cross(a: P3, b: P3) -> P3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// `VectorNormalize`: `v` scaled by the f32 reciprocal of its length; returns the length
/// (0 leaves `v` as it is).
pub(super) fn normalize(v: &mut P3) -> f32 {
    let mut length = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    if length != 0.0 {
        let inverse = 1.0 / length.sqrt();
        length *= inverse;
        for c in v.iter_mut() {
            *c *= inverse;
        }
    }
    length
}

/// `a − b`.
#[inline]
fn sub(a: P3, b: P3) -> P3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// `a + b`.
#[inline]
fn add(a: P3, b: P3) -> P3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// `v · s`.
#[inline]
fn scale(v: P3, s: f32) -> P3 {
    [v[0] * s, v[1] * s, v[2] * s]
}

/// A convex polygon.
#[derive(Clone, Debug)]
pub(super) struct Winding {
    pub points: Vec<P3>,
}

impl Winding {
    /// `BaseWindingForPlane`: a square [`MAX_MAP_BOUNDS`] on a side about the plane's
    /// point nearest the origin, in the plane.
    pub(super) fn base(normal: P3, dist: f32) -> Winding {
        let mut axis = 3;
        let mut max = -MAX_MAP_BOUNDS;
        for (i, c) in normal.iter().enumerate() {
            let v = c.abs();
            if v > max {
                axis = i;
                max = v;
            }
        }
        let mut up = [0.0f32; 3];
        match axis {
            0 | 1 => up[2] = 1.0,
            2 => up[0] = 1.0,
            // A NaN normal: no axis (the game stops there); an empty polygon.
            _ => return Winding { points: Vec::new() },
        }
        let v = dot(up, normal);
        up = add(up, scale(normal, -v));
        let mut unit = up;
        if normalize(&mut unit) == 0.0 {
            unit = [0.0; 3];
        }
        let origin = scale(normal, dist);
        let right = scale(cross(unit, normal), MAX_MAP_BOUNDS);
        let up = scale(unit, MAX_MAP_BOUNDS);
        Winding {
            points: vec![
                add(sub(origin, right), up),
                add(add(origin, right), up),
                sub(add(origin, right), up),
                sub(sub(origin, right), up),
            ],
        }
    }

    /// `ChopWindingInPlace`: the part in front of `normal·p = dist` (within `epsilon`
    /// counts as on it and is kept); `None` when no point lies in front.
    pub(super) fn chop(self, normal: P3, dist: f32, epsilon: f32) -> Option<Winding> {
        let n = self.points.len();
        if n == 0 || n > MAX_WINDING_POINTS {
            return None;
        }
        const FRONT: u8 = 0;
        const BACK: u8 = 1;
        const ON: u8 = 2;
        let mut dists = Vec::with_capacity(n + 1);
        let mut sides = Vec::with_capacity(n + 1);
        let mut counts = [0usize; 3];
        for p in &self.points {
            let d = dot(*p, normal) - dist;
            let side = if d > epsilon {
                FRONT
            } else if d < -epsilon {
                BACK
            } else {
                ON
            };
            dists.push(d);
            sides.push(side);
            counts[side as usize] += 1;
        }
        dists.push(dists[0]);
        sides.push(sides[0]);
        if counts[FRONT as usize] == 0 {
            return None;
        }
        if counts[BACK as usize] == 0 {
            return Some(self);
        }
        let mut out = Vec::with_capacity(n + 4);
        for i in 0..n {
            let p1 = self.points[i];
            if sides[i] == ON {
                out.push(p1);
                continue;
            }
            if sides[i] == FRONT {
                out.push(p1);
            }
            if sides[i + 1] == ON || sides[i + 1] == sides[i] {
                continue;
            }
            let p2 = self.points[(i + 1) % n];
            let t = dists[i] / (dists[i] - dists[i + 1]);
            let mut mid = [0.0f32; 3];
            for k in 0..3 {
                mid[k] = if normal[k] == 1.0 {
                    dist
                } else if normal[k] == -1.0 {
                    -dist
                } else {
                    p1[k] + t * (p2[k] - p1[k])
                };
            }
            out.push(mid);
        }
        (out.len() <= MAX_WINDING_POINTS).then_some(Winding { points: out })
    }

    /// `WindingBounds`: the smallest and largest coordinates (starting from
    /// ±[`MAX_MAP_BOUNDS`], as the game's).
    pub(super) fn bounds(&self) -> (P3, P3) {
        let mut mins = [MAX_MAP_BOUNDS; 3];
        let mut maxs = [-MAX_MAP_BOUNDS; 3];
        for p in &self.points {
            for k in 0..3 {
                if p[k] < mins[k] {
                    mins[k] = p[k];
                }
                if p[k] > maxs[k] {
                    maxs[k] = p[k];
                }
            }
        }
        (mins, maxs)
    }
}
