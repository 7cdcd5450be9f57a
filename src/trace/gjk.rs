//! The distance between two convex sets given by support maps (Gilbert, Johnson and
//! Keerthi's GJK), in f64 and without allocation: what `rounded` measures capsules and hulls
//! against brushes with.
//!
//! Takes a shape's support map translated by an offset (`A`), a second support map (`B`,
//! a brush) and a [`Simplex`] kept between calls; gives the closest points of `A` and `B`
//! with a lower and an upper bound on their distance, or `None` when the sets overlap or
//! touch within [`GJK_TOLERANCE`] of the coordinates' magnitude.
//!
//! GJK looks for the point of the Minkowski difference `D = A − B` nearest the origin. It
//! keeps a simplex of at most four points of `D` and its point `v` nearest the origin; the
//! support point `w` of `D` against `v` gives the lower bound `v·w / |v|` on the distance
//! (no point of `D` is nearer along `v`), `|v|` is the upper bound, and `w` joins the simplex
//! until the two bounds meet. For polytopes (every shape here) it ends in finitely many
//! steps.
//!
//! Guarantees:
//! - the lower bound is a true lower bound on the distance whatever happened (rounding,
//!   iteration cap), so a caller advancing by it never passes a contact;
//! - the closest points are convex combinations of support points, so they lie in `A` and
//!   `B` and their distance is the upper bound;
//! - degenerate simplices (repeated points, collinear triangles, flat tetrahedra) never
//!   divide by zero: a sub-simplex too flat to project onto ([`GJK_FLAT_SINE`]) is skipped,
//!   and its faces, edges and corners still compete;
//! - a search settled on the looser [`GJK_CURVED_TOLERANCE`] (a curved set) has a lower
//!   bound above [`GJK_TOLERANCE`]: the sets are apart, never merely `v` passing near the
//!   origin on its way to enclosing it;
//! - at most [`GJK_MAX_ITERATIONS`] support queries per call; a step that does not bring
//!   `v` nearer (rounding) ends the search with the best simplex so far.
//!
//! The simplex's nearest point is found by trying every face, edge and corner of it (at
//! most fifteen, Johnson's sub-algorithm by enumeration) and keeping the nearest one whose
//! barycentric coordinates are all non-negative: every such candidate is a point of the
//! simplex, so a badly conditioned one can only be too far, never too near.

use glam::DVec3;

use crate::tolerance::{GJK_CURVED_TOLERANCE, GJK_FLAT_SINE, GJK_MAX_ITERATIONS, GJK_TOLERANCE};

/// A convex set given by its support map.
pub(crate) trait SupportMap {
    /// A point of the set farthest along `d` (`d` need not be unit length).
    fn support(&self, d: DVec3) -> DVec3;

    /// Whether the set has curved boundary (not a polytope): GJK then settles for
    /// [`GJK_CURVED_TOLERANCE`] between its bounds.
    fn curved(&self) -> bool {
        false
    }
}

/// One point of the Minkowski difference and the points of `A` (before the offset) and `B`
/// it comes from.
#[derive(Clone, Copy, Default)]
struct Vertex {
    a: DVec3,
    b: DVec3,
    w: DVec3,
}

/// GJK's simplex. Reused between calls it warm-starts the next query: its points stay points
/// of `A` and `B`, so after a small move of `A` it is already near the answer.
#[derive(Clone, Copy, Default)]
pub(crate) struct Simplex {
    vertices: [Vertex; 4],
    /// Barycentric coordinates of the nearest point, for the first `len` vertices.
    lambda: [f64; 4],
    len: usize,
}

/// The closest points of `A` (offset applied) and `B`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Separation {
    /// The point of `A` nearest `B`.
    pub a: DVec3,
    /// The point of `B` nearest `A`.
    pub b: DVec3,
    /// A lower bound on the distance (≥ 0).
    pub lower: f64,
    /// An upper bound on the distance: `|a − b|`.
    pub upper: f64,
}

/// The distance between `a` translated by `offset` and `b`, starting from `simplex` (empty
/// or left by an earlier call with the same two sets); `None` when they overlap or touch.
/// `scale` is the magnitude of the coordinates involved, which the tolerances are relative
/// to.
pub(crate) fn distance<A: SupportMap, B: SupportMap>(
    a: &A,
    offset: DVec3,
    b: &B,
    simplex: &mut Simplex,
    scale: f64,
) -> Option<Separation> {
    let tolerance = GJK_TOLERANCE * scale.max(1.0);
    // How close the bounds must come: looser on a curved set, where GJK converges slowly.
    let curved = if a.curved() || b.curved() {
        tolerance.max(GJK_CURVED_TOLERANCE)
    } else {
        tolerance
    };
    let support = |d: DVec3| {
        let (pa, pb) = (a.support(d), b.support(-d));
        Vertex {
            a: pa,
            b: pb,
            w: offset + pa - pb,
        }
    };
    for vertex in &mut simplex.vertices[..simplex.len] {
        vertex.w = offset + vertex.a - vertex.b;
    }
    if simplex.len == 0 {
        simplex.vertices[0] = support(DVec3::X);
        simplex.len = 1;
    }
    let mut v = simplex.reduce(0)?;
    let mut lower = 0.0f64;
    for _ in 0..GJK_MAX_ITERATIONS {
        let vv = v.length_squared();
        if vv <= tolerance * tolerance {
            return None;
        }
        let norm = vv.sqrt();
        let next = support(-v);
        lower = lower.max(v.dot(next.w) / norm);
        let known = simplex.vertices[..simplex.len]
            .iter()
            .any(|k| (k.w - next.w).length_squared() <= tolerance * tolerance);
        // The looser curved bound settles only a gap the lower bound proves. `|v|` alone
        // is no proof: on the way to enclosing the origin (sets overlapping deeply), `v`
        // can pass within the curved bound of it by chance, with `w` far behind it; a
        // cylinder 20 units inside a box was called 3.6e-5 away and not overlapping
        // (`example-bsp2.bsp`, `tests/it/trace.rs`).
        let settled = if lower > tolerance { curved } else { tolerance };
        if norm - lower <= settled || known || simplex.len == 4 {
            break;
        }
        let before = *simplex;
        simplex.vertices[simplex.len] = next;
        simplex.len += 1;
        // In exact arithmetic the nearest point now involves the new vertex (the old
        // simplex's nearest point was `v`, and `w` lies nearer the origin along it); a
        // rounding slip is caught as no progress below.
        match simplex.reduce(1 << (simplex.len - 1)) {
            None => return None,
            Some(nearer) if nearer.length_squared() < vv => v = nearer,
            Some(_) => {
                // No progress (rounding): the previous simplex is the best answer.
                *simplex = before;
                break;
            }
        }
    }
    let (pa, pb) = simplex.closest_points();
    let upper = v.length();
    Some(Separation {
        a: offset + pa,
        b: pb,
        lower: lower.clamp(0.0, upper),
        upper,
    })
}

impl Simplex {
    /// An empty simplex (no warm start).
    pub(crate) fn new() -> Simplex {
        Simplex::default()
    }

    /// The points of `A` (before the offset) and `B` whose difference is the nearest point.
    fn closest_points(&self) -> (DVec3, DVec3) {
        let mut pa = DVec3::ZERO;
        let mut pb = DVec3::ZERO;
        for (vertex, l) in self.vertices[..self.len].iter().zip(&self.lambda) {
            pa += vertex.a * *l;
            pb += vertex.b * *l;
        }
        (pa, pb)
    }

    /// Keeps the smallest face, edge or corner holding the simplex's point nearest the
    /// origin, among those holding every vertex in the bit set `must`, and returns that
    /// point; `None` when the origin is inside a tetrahedron.
    fn reduce(&mut self, must: u32) -> Option<DVec3> {
        let w = |i: usize| self.vertices[i].w;
        if self.len == 4 && tetrahedron_holds_origin(w(0), w(1), w(2), w(3)) {
            return None;
        }
        let wanted = |mask: u32| mask & must == must;
        let mut best: Option<(f64, u32, [f64; 4], DVec3)> = None;
        let mut offer = |mask: u32, lambda: [f64; 4], p: DVec3| {
            let norm = p.length_squared();
            if best.is_none_or(|(n, _, _, _)| norm < n) {
                best = Some((norm, mask, lambda, p));
            }
        };
        for i in (0..self.len).filter(|i| wanted(1 << i)) {
            offer(1 << i, [1.0, 0.0, 0.0, 0.0], w(i));
        }
        for i in 0..self.len {
            for j in (i + 1..self.len).filter(|j| wanted(1 << i | 1 << j)) {
                let (p, q) = (w(i), w(j));
                let e = q - p;
                let ee = e.length_squared();
                if ee <= 0.0 {
                    continue;
                }
                let t = -p.dot(e) / ee;
                if (0.0..=1.0).contains(&t) {
                    offer(1 << i | 1 << j, [1.0 - t, t, 0.0, 0.0], p + e * t);
                }
            }
        }
        for i in 0..self.len {
            for j in i + 1..self.len {
                for k in (j + 1..self.len).filter(|k| wanted(1 << i | 1 << j | 1 << k)) {
                    if let Some((s, t)) = triangle(w(i), w(j), w(k)) {
                        let p = w(i) + (w(j) - w(i)) * s + (w(k) - w(i)) * t;
                        offer(1 << i | 1 << j | 1 << k, [1.0 - s - t, s, t, 0.0], p);
                    }
                }
            }
        }
        let (_, mask, lambda, nearest) = best?;
        // Compact in place: the kept vertices move down, in order (never past their slot).
        let mut kept = 0;
        for i in 0..self.len {
            if mask & (1 << i) != 0 {
                self.vertices[kept] = self.vertices[i];
                self.lambda[kept] = lambda[kept];
                kept += 1;
            }
        }
        self.len = kept;
        Some(nearest)
    }
}

/// The barycentric coordinates `(s, t)` of the origin's projection onto the plane of
/// triangle `p, q, r` (the point `p + s·(q − p) + t·(r − p)`), when it falls inside the
/// triangle and the triangle is not too flat to project onto.
fn triangle(p: DVec3, q: DVec3, r: DVec3) -> Option<(f64, f64)> {
    let (e1, e2) = (q - p, r - p);
    let (a11, a12, a22) = (e1.length_squared(), e1.dot(e2), e2.length_squared());
    let det = a11 * a22 - a12 * a12;
    if det <= GJK_FLAT_SINE * a11 * a22 || det <= 0.0 {
        return None;
    }
    let (b1, b2) = (-p.dot(e1), -p.dot(e2));
    let s = (b1 * a22 - b2 * a12) / det;
    let t = (a11 * b2 - a12 * b1) / det;
    (s >= 0.0 && t >= 0.0 && s + t <= 1.0).then_some((s, t))
}

/// Whether the origin lies inside (or on) tetrahedron `p, q, r, s`; a tetrahedron too flat
/// to tell is never said to hold it (its faces then decide, as triangles).
fn tetrahedron_holds_origin(p: DVec3, q: DVec3, r: DVec3, s: DVec3) -> bool {
    let (e1, e2, e3) = (q - p, r - p, s - p);
    let det = e1.dot(e2.cross(e3));
    let size = e1.length_squared() * e2.length_squared() * e3.length_squared();
    if det * det <= GJK_FLAT_SINE * size || det == 0.0 {
        return false;
    }
    let o = -p;
    let a = o.dot(e2.cross(e3)) / det;
    let b = e1.dot(o.cross(e3)) / det;
    let c = e1.dot(e2.cross(o)) / det;
    a >= 0.0 && b >= 0.0 && c >= 0.0 && a + b + c <= 1.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An axis-aligned box as a support map.
    struct Cube {
        lo: DVec3,
        hi: DVec3,
    }

    impl SupportMap for Cube {
        fn support(&self, d: DVec3) -> DVec3 {
            DVec3::select(d.cmpge(DVec3::ZERO), self.hi, self.lo)
        }
    }

    /// The convex hull of a few points.
    struct Points(Vec<DVec3>);

    impl SupportMap for Points {
        fn support(&self, d: DVec3) -> DVec3 {
            self.0
                .iter()
                .copied()
                .fold(None, |best: Option<DVec3>, p| match best {
                    Some(b) if b.dot(d) >= p.dot(d) => Some(b),
                    _ => Some(p),
                })
                .unwrap_or(DVec3::ZERO)
        }
    }

    fn cube() -> Cube {
        Cube {
            lo: DVec3::ZERO,
            hi: DVec3::splat(64.0),
        }
    }

    fn segment(half: DVec3) -> Points {
        Points(vec![-half, half])
    }

    fn gap(a: &Points, at: DVec3) -> Option<Separation> {
        distance(a, at, &cube(), &mut Simplex::new(), 64.0)
    }

    fn assert_near(x: f64, y: f64) {
        assert!((x - y).abs() < 1e-9, "{x} vs {y}");
    }

    #[test]
    fn a_vertical_segment_against_faces_edges_and_corners() {
        let s = segment(DVec3::new(0.0, 0.0, 10.0));
        // Above the top face: its lower end is 6 above.
        let top = gap(&s, DVec3::new(32.0, 20.0, 80.0)).unwrap();
        assert_near(top.lower, 6.0);
        assert_near(top.upper, 6.0);
        assert_near(top.b.z, 64.0);
        assert_near((top.a - DVec3::new(32.0, 20.0, 70.0)).length(), 0.0);
        // Beside a side face, overlapping it in height: 3 away along +x.
        let side = gap(&s, DVec3::new(67.0, 32.0, 40.0)).unwrap();
        assert_near(side.upper, 3.0);
        assert_near(side.lower, 3.0);
        assert_near(side.b.x, 64.0);
        // Off the vertical edge (64, 64, ·): diagonal distance.
        let edge = gap(&s, DVec3::new(67.0, 68.0, 32.0)).unwrap();
        assert_near(edge.upper, 5.0);
        assert_near((edge.b - DVec3::new(64.0, 64.0, edge.b.z)).length(), 0.0);
        // Off the top corner: the lower end (70, 70, 70) is √108 from (64, 64, 64).
        let corner = gap(&s, DVec3::new(70.0, 70.0, 80.0)).unwrap();
        assert_near(corner.upper, 108f64.sqrt());
        assert_near(corner.lower, 108f64.sqrt());
        assert_near((corner.b - DVec3::splat(64.0)).length(), 0.0);
    }

    #[test]
    fn a_horizontal_segment_against_a_top_edge() {
        // A segment along y, above and beside the edge x = 64, z = 64.
        let s = segment(DVec3::new(0.0, 100.0, 0.0));
        let sep = gap(&s, DVec3::new(68.0, 32.0, 67.0)).unwrap();
        assert_near(sep.upper, 5.0);
        assert_near(sep.lower, 5.0);
        assert_near(sep.b.x, 64.0);
        assert_near(sep.b.z, 64.0);
        assert_near(sep.a.x, 68.0);
        assert_near(sep.a.z, 67.0);
    }

    #[test]
    fn point_sets_against_the_cube() {
        // A tetrahedron whose lowest corner hangs 2 above the top face.
        let tetra = Points(vec![
            DVec3::new(0.0, 0.0, -4.0),
            DVec3::new(10.0, 0.0, 6.0),
            DVec3::new(-10.0, 10.0, 6.0),
            DVec3::new(-10.0, -10.0, 6.0),
        ]);
        let sep = gap(&tetra, DVec3::new(20.0, 30.0, 70.0)).unwrap();
        assert_near(sep.upper, 2.0);
        assert_near((sep.b - DVec3::new(20.0, 30.0, 64.0)).length(), 0.0);
        // A flat square (coplanar points) tilted over the edge x = 64, z = 64: its nearest
        // edge runs parallel to the cube's edge at 45°.
        let square = Points(vec![
            DVec3::new(-5.0, -5.0, -5.0),
            DVec3::new(-5.0, 5.0, -5.0),
            DVec3::new(5.0, -5.0, 5.0),
            DVec3::new(5.0, 5.0, 5.0),
        ]);
        let sep = gap(&square, DVec3::new(70.0, 32.0, 68.0)).unwrap();
        // Nearest: the edge at x = 65, z = 63 (below the top, beside the side): 1 in x.
        assert_near(sep.upper, 1.0);
        assert_near(sep.b.x, 64.0);
        // Repeated points and a single point.
        let dot = Points(vec![DVec3::ZERO, DVec3::ZERO, DVec3::ZERO]);
        let sep = gap(&dot, DVec3::new(-3.0, -4.0, 32.0)).unwrap();
        assert_near(sep.upper, 5.0);
    }

    #[test]
    fn overlap_and_touching_give_none() {
        let s = segment(DVec3::new(0.0, 0.0, 10.0));
        assert!(gap(&s, DVec3::new(32.0, 32.0, 70.0)).is_none());
        assert!(gap(&s, DVec3::new(32.0, 32.0, 74.0)).is_none());
        assert!(gap(&s, DVec3::splat(32.0)).is_none());
        let big = Points(vec![DVec3::splat(-100.0), DVec3::splat(100.0)]);
        assert!(gap(&big, DVec3::splat(32.0)).is_none());
    }

    #[test]
    fn a_warm_simplex_gives_the_same_answers() {
        let s = segment(DVec3::new(3.0, 0.0, 10.0));
        let mut simplex = Simplex::new();
        for i in 0..40 {
            let at = DVec3::new(90.0 - f64::from(i), 70.0 - f64::from(i) * 0.5, 85.0);
            let warm = distance(&s, at, &cube(), &mut simplex, 64.0);
            let cold = gap(&s, at);
            match (warm, cold) {
                (Some(w), Some(c)) => {
                    assert_near(w.upper, c.upper);
                    assert!(w.lower <= w.upper && c.lower <= c.upper);
                }
                (None, None) => {}
                _ => panic!("warm and cold disagree at {at}"),
            }
        }
    }
}
