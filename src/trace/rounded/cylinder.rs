//! The exact distance from an upright (unrotated) cylinder to a brush, by its closest
//! features instead of GJK: what the contact search measures a cylinder with in world
//! sweeps.
//!
//! Takes a [`Polytope`] with at least one edge, the cylinder's centre, radius and half
//! height; gives the brush's point nearest the cylinder, the cylinder's point nearest it, the
//! face holding the brush's point (when it lies inside one) and the distance, or `None` when
//! the two overlap or touch within [`GJK_TOLERANCE`] of the coordinates' magnitude (as GJK
//! says).
//!
//! Why it is exact: the closest pair of a convex brush and a cylinder has its brush point on
//! a face's inside, on an edge or at a corner. Inside a face, the cylinder's point is one of
//! its points lowest along the face's normal, and the cylinder's support point there
//! projects into the face unless the lowest points form a flat patch (a cap on a floor, a
//! side line against a wall) reaching past the face's outline, where a point of an edge is
//! as near. Along an edge the distance to the cylinder is convex: closed form for vertical
//! and horizontal edges (most of a Quake map's), safeguarded Newton steps on its square's
//! slope for sloped ones (the rim against a line), to f64 resolution. Corners are the
//! edges' ends. Every candidate is a real pair of points, so the nearest is the distance;
//! it is accepted only if the plane through the brush point across the pair has the whole
//! brush behind it (within the feature tolerance), which two overlapping sets never pass.
//!
//! Why: GJK approaches a curved rim from outside only about a halving per iteration
//! (`GJK_CURVED_TOLERANCE`); measured on dm4's long sweeps, a cylinder's contact search
//! spent 14,700 instructions per distance there.

use glam::{DVec2, DVec3};

use super::polytope::Polytope;
use crate::tolerance::{CYLINDER_EDGE_RESOLUTION, GJK_TOLERANCE};

/// A pair of nearest points of a brush and a cylinder.
pub(super) struct Nearest {
    /// The brush's point.
    pub brush: DVec3,
    /// The cylinder's point.
    pub shape: DVec3,
    /// The face whose inside holds `brush`, when a face candidate won.
    pub face: Option<u32>,
    /// `|shape − brush|`.
    pub distance: f64,
}

/// The nearest points of `shape` (with at least one edge) and the upright cylinder of
/// `radius` spanning `center.z ± half_height`; `None` when they overlap or touch.
pub(super) fn nearest(
    shape: &Polytope<'_>,
    center: DVec3,
    radius: f64,
    half_height: f64,
) -> Option<Nearest> {
    let cylinder = Cylinder {
        radius,
        half_height,
    };
    let mut best: Option<Nearest> = None;
    let offer = |best: &mut Option<Nearest>, brush: DVec3, face: Option<u32>| {
        let near = center + cylinder.nearest_to(brush - center);
        let distance = (near - brush).length();
        if best.as_ref().is_none_or(|b| distance < b.distance) {
            *best = Some(Nearest {
                brush,
                shape: near,
                face,
                distance,
            });
        }
    };
    for (n, d, id) in shape.planes {
        let n = n.as_dvec3();
        let low = center + cylinder.support(-n);
        let height = n.dot(low) - f64::from(*d);
        if height <= 0.0 {
            continue;
        }
        // Onto the plane along its normal, which an f32 normal widened is only to 6e-8 of
        // unit length.
        let q = low - n * (height / n.length_squared());
        if shape.inside(q) {
            offer(&mut best, q, Some(*id));
        }
    }
    for &(a, b) in shape.edges {
        let (a, b) = (shape.corners[a as usize], shape.corners[b as usize]);
        let (from, along) = (a - center, b - a);
        if let Some(bound) = best.as_ref().map(|b| b.distance)
            && cylinder.edge_lower_bound(from, along) >= bound
        {
            continue;
        }
        let s = cylinder.edge_nearest(from, along);
        offer(&mut best, a + along * s, None);
    }
    let found = best?;
    let tolerance = GJK_TOLERANCE * shape.scale_at(center).max(1.0);
    if found.distance <= tolerance {
        return None;
    }
    // Accepted only where the plane across the pair has the whole brush behind it: never
    // when the two overlap (a face cutting through the cylinder between its edges).
    let n = (found.shape - found.brush) / found.distance;
    let top = n.dot(found.brush) + shape.eps;
    shape
        .corners
        .iter()
        .all(|c| n.dot(*c) <= top)
        .then_some(found)
}

/// An upright cylinder about the origin.
#[derive(Clone, Copy)]
struct Cylinder {
    radius: f64,
    half_height: f64,
}

impl Cylinder {
    /// Its point farthest along `d` (the cap's centre when `d` is vertical, the side
    /// line's top when `d` is horizontal), as `rounded::core` gives it.
    fn support(self, d: DVec3) -> DVec3 {
        let horizontal = d.truncate();
        let length = horizontal.length();
        let rim = if length > 0.0 {
            horizontal * (self.radius / length)
        } else {
            DVec2::ZERO
        };
        rim.extend(if d.z >= 0.0 {
            self.half_height
        } else {
            -self.half_height
        })
    }

    /// Its point nearest `q` (`q` itself inside).
    fn nearest_to(self, q: DVec3) -> DVec3 {
        let across = q.truncate();
        let length = across.length();
        let rim = if length > self.radius {
            across * (self.radius / length)
        } else {
            across
        };
        rim.extend(q.z.clamp(-self.half_height, self.half_height))
    }

    /// A lower bound on the distance from the segment `from + s·along` (`s` in `[0, 1]`) to
    /// the cylinder: the larger of the gap across (the segment's shadow on the ground to the
    /// disk) and the gap in height.
    fn edge_lower_bound(self, from: DVec3, along: DVec3) -> f64 {
        let (p, e) = (from.truncate(), along.truncate());
        let ee = e.length_squared();
        let s = if ee > 0.0 {
            (-p.dot(e) / ee).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let across = (p + e * s).length() - self.radius;
        let (z0, z1) = (from.z, from.z + along.z);
        let low = if z0.min(z1) > 0.0 {
            z0.min(z1)
        } else if z0.max(z1) < 0.0 {
            -z0.max(z1)
        } else {
            0.0
        };
        across.max(low - self.half_height)
    }

    /// The `s` in `[0, 1]` where `from + s·along` is nearest the cylinder.
    fn edge_nearest(self, from: DVec3, along: DVec3) -> f64 {
        let (p, e) = (from.truncate(), along.truncate());
        let ee = e.length_squared();
        if ee == 0.0 {
            // Vertical: only the height changes; nearest where it is lowest.
            return if along.z == 0.0 {
                0.0
            } else {
                (-from.z / along.z).clamp(0.0, 1.0)
            };
        }
        if along.z == 0.0 {
            // Horizontal: nearest where the shadow is nearest the axis.
            return (-p.dot(e) / ee).clamp(0.0, 1.0);
        }
        // Sloped: the squared distance is convex and differentiable, so its slope rises
        // through zero at the nearest point. Newton steps, kept inside a bracket that
        // bisection shrinks when a step would leave it.
        let slope = |s: f64| {
            let q = from + along * s;
            let across = q.truncate();
            let rho = across.length();
            let (mut first, mut second) = (0.0, 0.0);
            if rho > self.radius {
                let drho = across.dot(e) / rho;
                first += (rho - self.radius) * drho;
                second += drho * drho + (rho - self.radius) * (ee - drho * drho) / rho;
            }
            let over = q.z.abs() - self.half_height;
            if over > 0.0 {
                first += over * q.z.signum() * along.z;
                second += along.z * along.z;
            }
            (first, second)
        };
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        if slope(lo).0 >= 0.0 {
            return lo;
        }
        if slope(hi).0 <= 0.0 {
            return hi;
        }
        // Start where the shadow is nearest the axis.
        let mut s = (-p.dot(e) / ee).clamp(0.0, 1.0);
        let resolution = CYLINDER_EDGE_RESOLUTION / along.length();
        for _ in 0..CYLINDER_EDGE_STEPS {
            let (first, second) = slope(s);
            if first < 0.0 {
                lo = s;
            } else if first > 0.0 {
                hi = s;
            } else {
                return s;
            }
            let newton = s - first / second;
            let next = if second > 0.0 && newton > lo && newton < hi {
                newton
            } else {
                0.5 * (lo + hi)
            };
            let step = (next - s).abs();
            s = next;
            if step <= resolution || hi - lo <= resolution {
                break;
            }
        }
        s
    }
}

/// Most Newton or bisection steps on one sloped edge: Newton's converge in a handful, and
/// 64 halvings reach f64 resolution on `[0, 1]`.
const CYLINDER_EDGE_STEPS: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compiled::FacePlane;
    use crate::trace::gjk::{self, Simplex};
    use crate::trace::rounded::Core;
    use crate::trace::rounded::tests::{Owned, cube};

    /// A cube and a brush with sloped edges (a cube cut by two slanted planes).
    fn brushes() -> Vec<Vec<FacePlane>> {
        let cube = cube();
        let mut slanted = cube.clone();
        let n = DVec3::new(1.0, 0.5, 1.0).normalize();
        slanted.push((n, n.dot(DVec3::new(64.0, 32.0, 40.0)), 6));
        let m = DVec3::new(-0.3, 1.0, -0.8).normalize();
        slanted.push((m, m.dot(DVec3::new(10.0, 64.0, 10.0)), 7));
        vec![cube, slanted]
    }

    #[test]
    fn matches_gjk_around_boxes_and_sloped_edges() {
        let mut rng = crate::test_rng::XorShift::new(0x2545_f491_4f6c_dd1du64);
        let (radius, half_height) = (16.0, 28.0);
        let core = Core::Cylinder {
            radius,
            half_height,
            rotation: None,
        };
        let mut compared = 0;
        for planes in brushes() {
            // f32 planes widened, as a compiled map's are.
            let planes: Vec<FacePlane> = planes
                .iter()
                .map(|&(n, d, id)| (n.as_vec3().as_dvec3(), f64::from(d as f32), id))
                .collect();
            let owned = Owned::of(&planes);
            let shape = owned.polytope_at(64.0);
            for _ in 0..4000 {
                let center = DVec3::new(
                    32.0 + rng.unit_f64() * 90.0,
                    32.0 + rng.unit_f64() * 90.0,
                    32.0 + rng.unit_f64() * 110.0,
                );
                let ours = nearest(&shape, center, radius, half_height);
                let theirs = gjk::distance(&core, center, &shape, &mut Simplex::new(), 64.0);
                match (ours, theirs) {
                    (Some(o), Some(t)) => {
                        compared += 1;
                        assert!(
                            o.distance >= t.lower - 1e-9 && o.distance <= t.upper + 1e-9,
                            "{center}: {} not in {}..{}",
                            o.distance,
                            t.lower,
                            t.upper
                        );
                        // A real pair: the brush point on the brush, the other on the cylinder.
                        assert!(shape.inside(o.brush));
                        let local = o.shape - center;
                        assert!(local.truncate().length() <= radius + 1e-9);
                        assert!(local.z.abs() <= half_height + 1e-9);
                    }
                    (None, None) => {}
                    (o, t) => panic!(
                        "{center}: ours {:?}, GJK {:?}",
                        o.map(|o| o.distance),
                        t.map(|t| t.upper)
                    ),
                }
            }
        }
        assert!(compared > 4000, "{compared}");
    }
}
