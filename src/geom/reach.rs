//! [`polar_reach`]: how far a brush's planes, each shifted out by one unit, can reach from
//! the brush, relative to a unit ball.
//!
//! Takes the unit normals of a closed convex brush, gives κ = the largest vertex norm of the
//! polytope `{ x : n_i·x <= 1 }`, or `None` when that polytope is unbounded (the normals do
//! not close a brush). κ = 1 for a smooth body, √2 at a cube edge, √3 at a cube corner.
//!
//! What it bounds: κ is the over-reach factor when every plane is tangent at one point, the
//! limit for shapes large beside the brush: the region where a shape of circumradius R is
//! blocked by the brush's shifted planes then lies within κ·R of the brush. Near an edge or
//! vertex only the planes through it are active, and a bevel that touches the brush at one
//! vertex (such as an axial bevel at a tetrahedron's tip) lowers κ without limiting the reach
//! along the edges leaving that vertex. So κ can be below the true local over-reach factor.
//! FIXME(issue 4): take the largest local reach over edges and vertices instead.

use glam::DVec3;

use super::{BuildPlane, Winding};

/// Farthest a vertex of `{ x : n_i·x <= 1 }` may be before the polytope counts as open: no
/// closed brush of real faces comes near (that would need faces within 0.0001° of each other).
const OPEN_REACH: f64 = 1e4;

/// Points this close to a clipping plane count as on it (unitless, the polytope has
/// unit-scale facets).
const REACH_CLIP_EPSILON: f64 = 1e-9;

/// The polar reach κ of a brush with these unit outward normals; `None` when they do not
/// close a bounded brush.
#[must_use]
pub fn polar_reach(normals: &[DVec3]) -> Option<f64> {
    let planes: Vec<BuildPlane> = normals
        .iter()
        .map(|&normal| BuildPlane { normal, dist: 1.0 })
        .collect();
    let mut reach: f64 = 0.0;
    for (i, plane) in planes.iter().enumerate() {
        let mut winding = Some(Winding::base_for_plane(plane));
        for (j, other) in planes.iter().enumerate() {
            if i != j {
                winding = winding.and_then(|w| w.clipped_behind(other, REACH_CLIP_EPSILON));
            }
        }
        if let Some(w) = winding {
            for p in &w.points {
                reach = reach.max(p.length());
            }
        }
    }
    (reach > 0.0 && reach < OPEN_REACH).then_some(reach)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cube_normals_reach_the_corner() {
        let cube = [
            DVec3::X,
            -DVec3::X,
            DVec3::Y,
            -DVec3::Y,
            DVec3::Z,
            -DVec3::Z,
        ];
        let k = polar_reach(&cube).unwrap();
        assert!((k - 3f64.sqrt()).abs() < 1e-9);
        assert_eq!(polar_reach(&cube[..5]), None, "an open brush has no reach");
    }
}
