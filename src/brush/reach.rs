//! Local reach: how far a brush's planes, shifted out by one unit, can reach from the brush
//! near each edge and vertex, and the rounding bevels that bring it down.
//!
//! Takes a brush (faces and bevels so far), gives its reach κ (≥ 1) and, on request, the
//! extra bevels that make every local reach at most a target. Guarantees (by LP duality, with
//! only the planes through a boundary point active there): for any shape of circumradius R,
//! the region where a sweep's reference point is blocked by the brush's planes shifted by the
//! shape's support lies within κ·R of the brush. For a sphere of radius r, a stop is thus at
//! most (κ − 1)·r from the true contact. Near a point of an edge the active planes are those
//! through the whole edge and the reach is sec(largest gap between them / 2); near a vertex,
//! the largest norm of a point where three active planes, shifted by one, meet, among those
//! points whose direction has the vertex as the brush's support point.

use glam::DVec3;

use crate::geom::BuildPlane;
use crate::tolerance::{CORNER_SLACK, SAME_POINT_EPSILON};

/// [`SAME_POINT_EPSILON`] squared, for comparing squared distances.
const SAME_POINT_SQUARED: f64 = SAME_POINT_EPSILON * SAME_POINT_EPSILON;

/// A plane within this of a vertex passes through it (map units): bevels are accepted within
/// the same distance of their brush.
const ACTIVE_EPSILON: f64 = crate::tolerance::BEVEL_ACCEPT_EPSILON;

/// Room for this many active planes and corners at a vertex from the start (a vertex of a
/// bevelled brush has a handful; more only grow the lists).
const VERTEX_PLANES: usize = 16;

/// Three normals whose triple product is below this are treated as dependent (unitless).
const DEPENDENT_NORMALS: f64 = 1e-9;

/// The unique edges of a convex brush, from its face windings.
pub(crate) fn brush_edges(windings: &[&[DVec3]]) -> Vec<[DVec3; 2]> {
    let mut edges: Vec<[DVec3; 2]> = Vec::new();
    for points in windings {
        for (k, &a) in points.iter().enumerate() {
            let b = points[(k + 1) % points.len()];
            let seen = edges.iter().any(|[p, q]| {
                (p.distance_squared(a) < SAME_POINT_SQUARED
                    && q.distance_squared(b) < SAME_POINT_SQUARED)
                    || (p.distance_squared(b) < SAME_POINT_SQUARED
                        && q.distance_squared(a) < SAME_POINT_SQUARED)
            });
            if !seen && a.distance_squared(b) > SAME_POINT_SQUARED {
                edges.push([a, b]);
            }
        }
    }
    edges
}

/// The normals of the planes through both ends of an edge, as angles around the edge
/// direction, sorted, and the arc they span (the edge's normal cone): `(angles, start)`
/// where the fan runs from `angles[start]` around to `angles[start − 1]`.
fn edge_fan(planes: &[BuildPlane], [a, b]: [DVec3; 2]) -> Option<(DVec3, DVec3, Vec<f64>)> {
    let d = (b - a).try_normalize()?;
    let u = d.any_orthonormal_vector();
    let w = d.cross(u);
    let mut angles: Vec<f64> = planes
        .iter()
        .filter(|p| p.distance(a).abs() <= ACTIVE_EPSILON && p.distance(b).abs() <= ACTIVE_EPSILON)
        .map(|p| p.normal.dot(w).atan2(p.normal.dot(u)))
        .collect();
    if angles.len() < 2 {
        return None;
    }
    angles.sort_by(f64::total_cmp);
    // Rotate so the fan starts after the largest gap (the outside of the normal cone).
    let n = angles.len();
    let gap = |i: usize| {
        let next = if i + 1 < n {
            angles[i + 1]
        } else {
            angles[0] + std::f64::consts::TAU
        };
        next - angles[i]
    };
    let outside = (0..n).max_by(|&i, &j| gap(i).total_cmp(&gap(j)))?;
    let mut fan: Vec<f64> = (1..=n).map(|k| angles[(outside + k) % n]).collect();
    for k in 1..fan.len() {
        while fan[k] < fan[k - 1] {
            fan[k] += std::f64::consts::TAU;
        }
    }
    Some((u, w, fan))
}

/// The local reach along an edge: sec of half the largest gap inside its fan.
fn edge_reach(planes: &[BuildPlane], edge: [DVec3; 2]) -> f64 {
    edge_fan(planes, edge).map_or(1.0, |(_, _, fan)| {
        fan.windows(2)
            .map(|g| 1.0 / ((g[1] - g[0]) / 2.0).cos().max(f64::MIN_POSITIVE))
            .fold(1.0, f64::max)
    })
}

/// The corners of a vertex's local reach region: for each triple of planes through the
/// vertex, the point where all three, shifted by one unit, meet, kept when every active
/// plane allows it and the vertex is the brush's support point in its direction.
struct VertexCorners<'a> {
    vertex: DVec3,
    vertices: &'a [DVec3],
    scale: f64,
    active: Vec<DVec3>,
    /// (norm, point) of every valid corner.
    corners: Vec<(f64, DVec3)>,
}

impl<'a> VertexCorners<'a> {
    fn new(planes: &[BuildPlane], vertices: &'a [DVec3], vertex: DVec3) -> Self {
        let scale = vertices
            .iter()
            .map(|w| w.distance(vertex))
            .fold(1.0, f64::max);
        let mut corners = VertexCorners {
            vertex,
            vertices,
            scale,
            active: Vec::with_capacity(VERTEX_PLANES),
            corners: Vec::with_capacity(VERTEX_PLANES),
        };
        for p in planes.iter().filter(|p| is_active(p, vertex)) {
            corners.add(p.normal);
        }
        corners
    }

    /// Adds an active plane: drops the corners it cuts, adds the triples it makes.
    fn add(&mut self, n: DVec3) {
        self.corners
            .retain(|(_, z)| n.dot(*z) <= 1.0 + CORNER_SLACK);
        for i in 0..self.active.len() {
            for j in i + 1..self.active.len() {
                let Some(z) = corner_of(self.active[i], self.active[j], n) else {
                    continue;
                };
                let inside = n.dot(z) <= 1.0 + CORNER_SLACK
                    && self.active.iter().all(|a| a.dot(z) <= 1.0 + CORNER_SLACK);
                if !inside {
                    continue;
                }
                let length = z.length();
                let unit = z / length;
                let supported = self
                    .vertices
                    .iter()
                    .all(|w| unit.dot(*w - self.vertex) <= CORNER_SLACK * self.scale);
                if supported {
                    self.corners.push((length, z));
                }
            }
        }
        self.active.push(n);
    }

    /// The local reach (≥ 1) and the direction of the farthest corner.
    fn reach(&self) -> (f64, Option<DVec3>) {
        self.corners
            .iter()
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .filter(|(length, _)| *length > 1.0)
            .map_or((1.0, None), |(length, z)| (*length, Some(*z / *length)))
    }
}

/// The point `z` with `a·z = b·z = c·z = 1` (the corner of three planes through a vertex,
/// scaled), `None` when the normals are dependent (`|det| <` [`DEPENDENT_NORMALS`]).
///
/// `glam`'s `DMat3::inverse` of the matrix with rows `a`, `b`, `c`, times `(1, 1, 1)`,
/// operation for operation (the same cross products, the reciprocal of the same
/// determinant, each row of the inverse summed in the same order), so the same bits,
/// with the determinant found once rather than again inside `inverse`.
#[inline]
fn corner_of(a: DVec3, b: DVec3, c: DVec3) -> Option<DVec3> {
    // The matrix's columns.
    let x = DVec3::new(a.x, b.x, c.x);
    let y = DVec3::new(a.y, b.y, c.y);
    let z = DVec3::new(a.z, b.z, c.z);
    let t0 = y.cross(z);
    let det = x.dot(t0);
    if det.abs() < DEPENDENT_NORMALS {
        return None;
    }
    let t1 = z.cross(x);
    let t2 = x.cross(y);
    let s = 1.0 / det;
    let row = |t: DVec3| (t.x * s + t.y * s) + t.z * s;
    Some(DVec3::new(row(t0), row(t1), row(t2)))
}

/// The local reach at a vertex, with the direction of its farthest point.
fn vertex_reach(planes: &[BuildPlane], vertices: &[DVec3], v: DVec3) -> (f64, Option<DVec3>) {
    VertexCorners::new(planes, vertices, v).reach()
}

/// The reach κ of a brush with these planes (faces and bevels), vertices and edges.
pub(crate) fn brush_reach(planes: &[BuildPlane], vertices: &[DVec3], edges: &[[DVec3; 2]]) -> f64 {
    let corners = vertices
        .iter()
        .map(|v| vertex_reach(planes, vertices, *v).0);
    corners.fold(edges_reach(planes, edges), f64::max)
}

/// The largest local reach (≥ 1) along `edges` with these planes: the edges' part of
/// [`brush_reach`].
pub(crate) fn edges_reach(planes: &[BuildPlane], edges: &[[DVec3; 2]]) -> f64 {
    edges
        .iter()
        .map(|e| edge_reach(planes, *e))
        .fold(1.0, f64::max)
}

/// Rounding bevels ([`rounding_planes`]) and the vertices' part of the reach they leave.
pub(crate) struct Rounding {
    /// The new planes, each with the edge (or the vertex, twice) it passes through.
    pub(crate) planes: Vec<(BuildPlane, [DVec3; 2])>,
    /// The largest local reach (≥ 1) at a vertex with every plane, the new ones included:
    /// with [`edges_reach`] of the same planes, the brush's [`brush_reach`].
    pub(crate) vertex_reach: f64,
}

/// Rounding bevels: through every edge whose fan has a gap wider than `2·acos(1/target)`,
/// planes splitting the gap evenly; then through every vertex whose reach exceeds `target`,
/// the supporting plane facing its farthest point, repeatedly, at most `max_per_vertex`
/// times. Returns the new planes (snapped, supporting, not duplicating a normal), each with
/// the edge (or the vertex, twice) it passes through, and the vertices' reach with them. A
/// vertex's corners are worked out once: those it had when its turn came are brought up to
/// date with the planes made after it, so the reach equals [`brush_reach`]'s own.
pub(crate) fn rounding_planes(
    planes: &[BuildPlane],
    vertices: &[DVec3],
    edges: &[[DVec3; 2]],
    target: f64,
    max_per_vertex: usize,
    accept: impl Fn(&[BuildPlane], BuildPlane) -> bool,
) -> Rounding {
    let mut all = planes.to_vec();
    let mut added = Vec::new();
    let max_gap = 2.0 * (1.0 / target).acos();
    for &edge in edges {
        let Some((u, w, fan)) = edge_fan(&all, edge) else {
            continue;
        };
        for g in fan.windows(2) {
            let gap = g[1] - g[0];
            let pieces = (gap / max_gap).ceil() as usize;
            for s in 1..pieces {
                let angle = g[0] + gap * s as f64 / pieces as f64;
                let normal = u * angle.cos() + w * angle.sin();
                if let Some(plane) = through(normal, edge[0])
                    && accept(&all, plane)
                {
                    all.push(plane);
                    added.push((plane, edge));
                }
            }
        }
    }
    // Each vertex's corners, the length of `all` when they were made, and whether they are
    // exactly what `VertexCorners::new` would make of that much of `all` (each plane added
    // through the vertex counts as active there).
    let mut made: Vec<(VertexCorners<'_>, usize, bool)> = Vec::with_capacity(vertices.len());
    for &v in vertices {
        let mut corners = VertexCorners::new(&all, vertices, v);
        let mut exact = true;
        for _ in 0..max_per_vertex {
            let (reach, direction) = corners.reach();
            let Some(direction) = direction.filter(|_| reach > target) else {
                break;
            };
            let Some(plane) = through(direction, v).filter(|p| accept(&all, *p)) else {
                break;
            };
            all.push(plane);
            added.push((plane, [v, v]));
            exact &= is_active(&plane, v);
            corners.add(plane.normal);
        }
        made.push((corners, all.len(), exact));
    }
    let vertex_reach = made
        .into_iter()
        .map(|(mut corners, seen, exact)| {
            if exact {
                for p in all.get(seen..).unwrap_or(&[]) {
                    if is_active(p, corners.vertex) {
                        corners.add(p.normal);
                    }
                }
            } else {
                corners = VertexCorners::new(&all, vertices, corners.vertex);
            }
            corners.reach().0
        })
        .fold(1.0, f64::max);
    Rounding {
        planes: added,
        vertex_reach,
    }
}

/// Whether `plane` passes through `vertex`, as [`VertexCorners`] counts its active planes.
fn is_active(plane: &BuildPlane, vertex: DVec3) -> bool {
    plane.distance(vertex).abs() <= ACTIVE_EPSILON
}

/// A plane with `normal` (snapped first) through `point`.
fn through(normal: DVec3, point: DVec3) -> Option<BuildPlane> {
    let unit = BuildPlane::from_normal_dist(normal, 0.0)?.normal;
    BuildPlane::from_normal_dist(unit, unit.dot(point))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::XorShift;

    /// `corner_of` is glam's inverse times `(1, 1, 1)` bit for bit, and refuses exactly the
    /// triples whose determinant is below the bound: over 100,000 seeded triples of unit
    /// normals (a third with a normal repeated, a third with one off another by 1e-12 to
    /// 1e-6, either side of the bound), every answer has the same bits.
    #[test]
    fn the_corner_solve_is_glam_s_inverse_bit_for_bit() {
        let mut rng = XorShift::new(41);
        let unit = |rng: &mut XorShift| {
            let v = DVec3::new(
                rng.unit_f64() * 2.0 - 1.0,
                rng.unit_f64() * 2.0 - 1.0,
                rng.unit_f64() * 2.0 - 1.0,
            );
            v.try_normalize().unwrap_or(DVec3::Z)
        };
        let (mut solved, mut refused) = (0, 0);
        for case in 0..100_000 {
            let (a, b) = (unit(&mut rng), unit(&mut rng));
            let c = match case % 3 {
                0 => a,
                // Off `a` by 1e-12 to 1e-6: either side of the bound.
                1 => {
                    let off = 10f64.powf(-9.0 + 3.0 * rng.unit_f64());
                    (a + off * unit(&mut rng)).normalize()
                }
                _ => unit(&mut rng),
            };
            let m = glam::DMat3::from_cols(a, b, c).transpose();
            let expected = (m.determinant().abs() >= DEPENDENT_NORMALS)
                .then(|| m.inverse() * DVec3::ONE);
            let got = corner_of(a, b, c);
            assert_eq!(
                got.map(|z| z.to_array().map(f64::to_bits)),
                expected.map(|z| z.to_array().map(f64::to_bits)),
                "case {case}: {a} {b} {c}"
            );
            if got.is_some() {
                solved += 1;
            } else {
                refused += 1;
            }
        }
        // Both answers met in each near-repeated kind (not only the independent triples).
        assert!(solved > 40_000 && refused > 40_000, "{solved} solved, {refused} refused");
    }

    fn cube() -> (Vec<BuildPlane>, Vec<DVec3>) {
        let planes = [
            DVec3::X,
            -DVec3::X,
            DVec3::Y,
            -DVec3::Y,
            DVec3::Z,
            -DVec3::Z,
        ]
        .map(|n| BuildPlane {
            normal: n,
            dist: 1.0,
        })
        .to_vec();
        let mut vertices = Vec::new();
        for x in [-1.0, 1.0] {
            for y in [-1.0, 1.0] {
                for z in [-1.0, 1.0] {
                    vertices.push(DVec3::new(x, y, z));
                }
            }
        }
        (planes, vertices)
    }

    #[test]
    fn a_cube_reaches_root_three_at_corners_and_rounding_brings_it_down() {
        let (planes, vertices) = cube();
        let edges: Vec<[DVec3; 2]> = vertices
            .iter()
            .flat_map(|a| vertices.iter().map(move |b| [*a, *b]))
            .filter(|[a, b]| (*a - *b).length() == 2.0 && a.to_array() < b.to_array())
            .collect();
        assert_eq!(edges.len(), 12);
        let k = brush_reach(&planes, &vertices, &edges);
        assert!((k - 3f64.sqrt()).abs() < 1e-9, "{k}");
        let accept = |_: &[BuildPlane], _: BuildPlane| true;
        let extra = rounding_planes(&planes, &vertices, &edges, 1.05, 16, accept);
        let mut rounded = planes.clone();
        rounded.extend(extra.planes.into_iter().map(|(p, _)| p));
        let k = brush_reach(&rounded, &vertices, &edges);
        assert!(k <= 1.05 + 1e-9, "{k} with {} planes", rounded.len());
        // The reach worked out on the way is the reach of the result.
        let vertices_only = brush_reach(&rounded, &vertices, &[]);
        assert_eq!(extra.vertex_reach, vertices_only);
    }
}
