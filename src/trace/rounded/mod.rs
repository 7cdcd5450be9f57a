//! Exact contacts of spheres, cylinders, capsules and hulls: where such a shape swept through a brush
//! really first comes within the stop distance, found by safe Newton steps (conservative
//! advancement) on the exact distance to the brush.
//!
//! Takes a brush (its face planes), the sweep, the shape as a [`Core`] (a point, a segment,
//! a point set or an upright cylinder) rounded by a radius, and the interval to search, which starts where
//! plane shifting says the shape can first touch the brush; gives the first contact in that
//! interval, or that there is none. Plane shifting with bevels is conservative for these shapes: near convex edges and
//! corners the shifted planes reach past the true Minkowski sum (up to (κ − 1)·r for a round
//! shape; a hull's edge meeting a brush's edge has no plane at all), so the shape stops early
//! there and reports a bevel's normal. This module removes that error.
//!
//! Guarantees:
//! - never later than the exact time of contact: each step advances by a lower bound on the
//!   exact distance minus the radius and stop distance, over an upper bound on how fast the
//!   distance shrinks there; the distance is convex in time, so it shrinks no faster later,
//!   and no step can pass a contact;
//! - within [`ADVANCE_TOLERANCE`] of the exact contact along the sweep: Newton steps on the
//!   distance (at most [`MAX_ADVANCE_STEPS`]), then for a grazing pass bisection to f64
//!   resolution;
//! - the normal is the true contact normal, the direction from the brush's closest point to
//!   the shape's; the contact keeps the face's own plane when that direction is the face's
//!   normal (the contact lies inside the face), else it gets the tangent plane there.
//!
//! Distances run in f64. A sphere's is exact in closed form: the closest point of a convex
//! brush lies on one face, one edge (two planes) or one corner (three planes), and trying
//! each and keeping the nearest feasible one is exact. An upright cylinder's is exact the
//! same way (`cylinder.rs`: face candidates by its support point, edges by the distance along
//! them, closed form for vertical and horizontal edges and Newton steps for sloped ones),
//! since GJK approaches its curved rim only slowly. A capsule's segment, a hull's points and
//! a rotated cylinder (whose rim GJK approaches from outside, giving a lower and an upper
//! bound) are measured by GJK (`gjk.rs`) against the brush's corners, warm-started from one
//! position of the sweep to the next. Under a rotated model the core is rotated into the
//! model's frame (the exact distance needs no bevels, so it stays exact there).
//!
//! The parts, imported one way: `core.rs` (the shape as a core rounded by a radius, its
//! support), `polytope.rs` (the brush as a convex set: closest points, the overlap test),
//! `cylinder.rs` (an upright cylinder's closest points to the brush),
//! `search.rs` (the contact search along the sweep).

mod core;
mod cylinder;
mod polytope;
mod search;

use crate::compiled::Plane;

pub(crate) use core::{Core, Patch};
pub(crate) use polytope::{Polytope, within};
pub(crate) use search::contact;

/// The outcome of refining a plane-shifted hit.
pub(crate) enum Contact {
    /// The shape passes the brush in the interval: no contact.
    Miss,
    /// No refinement possible (the core already overlaps the brush): keep the plane-shifted
    /// hit.
    Keep,
    /// First contact at `fraction`; `face` is the face plane's index when the contact is
    /// inside a face, else `tangent` is the tangent plane through the contact point.
    Hit {
        fraction: f32,
        face: Option<u32>,
        tangent: Plane,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compiled::{BrushFeatures, Edge, FacePlane, StoredPlane};
    use crate::tolerance::SURFACE_CLIP_EPSILON;
    use glam::{DVec3, Vec3};

    /// A brush's features, owned, for tests that build brushes from planes.
    pub(super) struct Owned<'p> {
        planes: &'p [FacePlane],
        stored: Vec<StoredPlane>,
        corners: Vec<DVec3>,
        edges: Vec<Edge>,
    }

    impl<'p> Owned<'p> {
        pub(super) fn of(planes: &'p [FacePlane]) -> Self {
            let (corners, edges) = crate::compiled::corners_and_edges(planes).unwrap();
            // The tests' planes are f32 planes widened, as a compiled map's are.
            let stored = planes
                .iter()
                .map(|&(n, d, id)| (n.as_vec3(), d as f32, id))
                .collect();
            Owned {
                planes,
                stored,
                corners,
                edges,
            }
        }

        fn polytope(&self) -> Polytope<'_> {
            let scale = self.planes.iter().fold(1.0f64, |m, p| m.max(p.1.abs()));
            self.polytope_at(scale)
        }

        /// The brush as a polytope whose coordinates' magnitude is `scale`.
        pub(super) fn polytope_at(&self, scale: f64) -> Polytope<'_> {
            Polytope::new(BrushFeatures {
                planes: &self.stored,
                corners: &self.corners,
                edges: &self.edges,
                scale,
                eps: crate::tolerance::FEATURE_EPSILON * scale,
            })
            .unwrap()
        }
    }

    /// A 64-unit cube at the origin.
    pub(super) fn cube() -> Vec<(DVec3, f64, u32)> {
        vec![
            (DVec3::X, 64.0, 0),
            (-DVec3::X, 0.0, 1),
            (DVec3::Y, 64.0, 2),
            (-DVec3::Y, 0.0, 3),
            (DVec3::Z, 64.0, 4),
            (-DVec3::Z, 0.0, 5),
        ]
    }

    #[test]
    fn closest_points_on_faces_edges_and_corners() {
        let planes = cube();
        let owned = Owned::of(&planes);
        let c = owned.polytope();
        assert_eq!((c.corners.len(), c.edges.len()), (8, 12));
        let (q, face, d) = c.closest(DVec3::new(32.0, 32.0, 100.0)).unwrap();
        assert_eq!((q, face, d), (DVec3::new(32.0, 32.0, 64.0), Some(4), 36.0));
        let (q, face, d) = c.closest(DVec3::new(70.0, 32.0, 70.0)).unwrap();
        assert_eq!(face, None);
        assert!((q - DVec3::new(64.0, 32.0, 64.0)).length() < 1e-9);
        assert!((d - 72f64.sqrt()).abs() < 1e-9);
        let (q, _, _) = c.closest(DVec3::new(-3.0, -4.0, -12.0)).unwrap();
        assert!(q.length() < 1e-9);
        assert!(c.closest(DVec3::splat(10.0)).is_none());
    }

    #[test]
    fn a_sphere_passing_a_corner_misses_and_one_meeting_an_edge_stops_exactly() {
        let planes = cube();
        let owned = Owned::of(&planes);
        let c = owned.polytope();
        // Diagonally past the corner (64, 64, ·) at 8.1 from the edge: no contact for r = 8.
        let off = 64.0 + 8.1 / 2f32.sqrt();
        let miss = contact(
            &c,
            &Core::Point,
            Vec3::new(off + 50.0, off - 50.0, 32.0),
            Vec3::new(off - 50.0, off + 50.0, 32.0),
            8.0,
            0.0,
            1.0,
        );
        assert!(matches!(miss, Contact::Miss));
        // Along -x towards the edge (64, ·, 64) from above-right: first contact where the
        // centre is r + skin from the edge.
        let start = Vec3::new(100.0, 32.0, 64.0 + 4.0);
        let end = Vec3::new(0.0, 32.0, 64.0 + 4.0);
        let Contact::Hit {
            fraction, tangent, ..
        } = contact(&c, &Core::Point, start, end, 8.0, 0.0, 1.0)
        else {
            panic!("hits the edge");
        };
        assert_stops_off_the_top_edge(start + (end - start) * fraction, &tangent);
    }

    /// A shape moving along −x whose lowest point is 4 above the cube's top edge (64, ·, 64)
    /// stops with that point r + skin (r = 8) from the edge, the tangent plane there.
    fn assert_stops_off_the_top_edge(center: Vec3, tangent: &Plane) {
        let reach = 8.0 + SURFACE_CLIP_EPSILON;
        let dx = (reach * reach - 16.0).sqrt();
        assert!((center.x - (64.0 + dx)).abs() < 2e-3, "{center}");
        assert!((tangent.normal - Vec3::new(dx, 0.0, 4.0).normalize()).length() < 1e-3);
    }

    fn capsule() -> Core<'static> {
        Core::Segment(DVec3::new(0.0, 0.0, 16.0))
    }

    #[test]
    fn a_capsule_passing_an_edge_misses_and_one_meeting_an_edge_stops_exactly() {
        let planes = cube();
        let owned = Owned::of(&planes);
        let c = owned.polytope();
        // Along -y past the top edge (64, ·, 64), its lower end 8.1 from the edge: no
        // contact for r = 8.
        let (a, b) = (6.0f32, (8.1f32 * 8.1 - 36.0).sqrt());
        let miss = contact(
            &c,
            &capsule(),
            Vec3::new(64.0 + a, 150.0, 64.0 + b + 16.0),
            Vec3::new(64.0 + a, -80.0, 64.0 + b + 16.0),
            8.0,
            0.0,
            1.0,
        );
        assert!(matches!(miss, Contact::Miss));
        // Along -x towards that edge, the lower end 4 above it: first contact where the end
        // is r + skin from the edge, with the tangent plane there.
        let start = Vec3::new(100.0, 32.0, 64.0 + 4.0 + 16.0);
        let end = Vec3::new(0.0, 32.0, 64.0 + 4.0 + 16.0);
        let Contact::Hit {
            fraction,
            face,
            tangent,
        } = contact(&c, &capsule(), start, end, 8.0, 0.0, 1.0)
        else {
            panic!("hits the edge");
        };
        assert_stops_off_the_top_edge(start + (end - start) * fraction, &tangent);
        assert!((tangent.dist - tangent.normal.dot(Vec3::splat(64.0))).abs() < 1e-3);
        assert_eq!(face, None);
        // Straight down onto the top face: the face's own plane.
        let start = Vec3::new(20.0, 40.0, 120.0);
        let Contact::Hit { fraction, face, .. } = contact(
            &c,
            &capsule(),
            start,
            Vec3::new(20.0, 40.0, 0.0),
            8.0,
            0.0,
            1.0,
        ) else {
            panic!("hits the top");
        };
        let z = 120.0 - 120.0 * fraction;
        assert!(
            (z - (64.0 + 16.0 + 8.0 + SURFACE_CLIP_EPSILON)).abs() < 2e-3,
            "{z}"
        );
        assert_eq!(face, Some(4));
    }

    #[test]
    fn a_capsule_is_within_the_brush_only_where_it_really_reaches_it() {
        let planes = cube();
        let owned = Owned::of(&planes);
        let c = owned.polytope();
        // Lower end diagonally off the top edge: 6·√2 ≈ 8.49 away, then 5·√2 ≈ 7.07.
        assert!(!within(
            Some(&c),
            &capsule(),
            8.0,
            Vec3::new(70.0, 32.0, 86.0)
        ));
        assert!(within(
            Some(&c),
            &capsule(),
            8.0,
            Vec3::new(69.0, 32.0, 85.0)
        ));
        // The segment itself inside.
        assert!(within(
            Some(&c),
            &capsule(),
            8.0,
            Vec3::new(32.0, 32.0, 70.0)
        ));
        assert!(within(None, &capsule(), 8.0, Vec3::splat(500.0)));
    }

    /// A tetrahedron whose edge from (−8, 0, 8) to (8, 0, −8) leads towards −(1, 0, 1).
    fn wedge() -> Vec<Vec3> {
        vec![
            Vec3::new(-8.0, 0.0, 8.0),
            Vec3::new(8.0, 0.0, -8.0),
            Vec3::new(0.0, 6.0, 6.0),
            Vec3::new(0.0, -6.0, 6.0),
        ]
    }

    #[test]
    fn a_hull_edge_meets_a_brush_edge_exactly_and_passes_one_it_misses() {
        let planes = cube();
        let owned = Owned::of(&planes);
        let c = owned.polytope();
        let points = wedge();
        let hull = Core::Points {
            points: &points,
            rotation: None,
        };
        // Towards the top edge (64, ·, 64) along −(1, 0, 1): the wedge's leading edge
        // crosses it square, so the contact is edge on edge, where plane shifting without an
        // edge × edge plane would stop 8 units early (the +x face shifted by 8).
        let start = Vec3::new(94.0, 32.0, 94.0);
        let end = Vec3::new(34.0, 32.0, 34.0);
        let Contact::Hit {
            fraction,
            face,
            tangent,
        } = contact(&c, &hull, start, end, 0.0, 0.0, 1.0)
        else {
            panic!("hits the edge");
        };
        let center = start + (end - start) * fraction;
        let s = SURFACE_CLIP_EPSILON / 2f32.sqrt();
        assert!((center.x - (64.0 + s)).abs() < 2e-3, "{center}");
        assert!((center.z - (64.0 + s)).abs() < 2e-3, "{center}");
        assert!((tangent.normal - Vec3::new(1.0, 0.0, 1.0).normalize()).length() < 1e-4);
        assert_eq!(face, None);
        // Parallel to that edge, 0.2 from it: a miss.
        let off = 64.0 + 0.2 / 2f32.sqrt();
        let miss = contact(
            &c,
            &hull,
            Vec3::new(off, -50.0, off),
            Vec3::new(off, 150.0, off),
            0.0,
            0.0,
            1.0,
        );
        assert!(matches!(miss, Contact::Miss));
        // Rotated a quarter turn about z (a rotated model): the same wedge now leads
        // towards −(0, 1, 1) in the model's frame and meets the edge (·, 64, 64) the same way.
        let quarter = glam::DMat3::from_rotation_z(-std::f64::consts::FRAC_PI_2);
        let turned = Core::Points {
            points: &points,
            rotation: Some(quarter),
        };
        let start = Vec3::new(32.0, 94.0, 94.0);
        let end = Vec3::new(32.0, 34.0, 34.0);
        let Contact::Hit { fraction, .. } = contact(&c, &turned, start, end, 0.0, 0.0, 1.0) else {
            panic!("hits the edge");
        };
        let center = start + (end - start) * fraction;
        assert!((center.y - (64.0 + s)).abs() < 2e-3, "{center}");
    }

    /// An axis-aligned box brush from `lo` to `hi`.
    fn block(lo: DVec3, hi: DVec3) -> Vec<FacePlane> {
        vec![
            (DVec3::X, hi.x, 0),
            (-DVec3::X, -lo.x, 1),
            (DVec3::Y, hi.y, 2),
            (-DVec3::Y, -lo.y, 3),
            (DVec3::Z, hi.z, 4),
            (-DVec3::Z, -lo.z, 5),
        ]
    }

    /// A cylinder, capsule or sphere wholly inside a box is within it; one beyond a vertical
    /// edge, diagonally clear of it (mostly inside both faces' shifted planes), is not. The first
    /// case is the sweep `example-bsp2.bsp`'s oracle caught: GJK's iterate passed 3.6e-5 from
    /// the origin on its way to enclosing it and was taken as settled (`gjk.rs`). Small boxes
    /// make such a pass likelier (before the fix, about 1 in 2,000 of these cylinders).
    #[test]
    fn shapes_inside_a_box_are_within_it_and_clear_of_an_edge_are_not() {
        let planes = block(
            DVec3::new(64.0, -112.0, 80.0),
            DVec3::new(192.0, 64.0, 217.0),
        );
        let owned = Owned::of(&planes);
        let cylinder = Core::Cylinder {
            radius: 16.464008,
            half_height: 36.314556,
            rotation: None,
        };
        let start = Vec3::new(106.04145, -74.644714, 129.38254);
        assert!(within(Some(&owned.polytope()), &cylinder, 0.0, start));
        let mut rng = crate::test_rng::XorShift::new(0x9e37_79b9_7f4a_7c15);
        let mut unit = || (rng.unit_f64() + 1.0) / 2.0;
        let (mut inside, mut clear) = (0, 0);
        for case in 0..30_000 {
            // Boxes of 1 to 5 units (a fifth of them 40 to 240), anywhere within ±200.
            let size = if case % 5 == 0 {
                40.0 + 200.0 * unit()
            } else {
                1.0 + 4.0 * unit()
            };
            let lo = DVec3::new(unit(), unit(), unit()) * 400.0 - 200.0;
            let hi = lo + DVec3::new(unit(), unit(), unit()) * size + size * 0.2;
            let size = hi - lo;
            let planes = block(lo, hi);
            let owned = Owned::of(&planes);
            let shape = owned.polytope_at(lo.abs().max(hi.abs()).max_element());
            // Across: a cylinder's radius or a capsule's or sphere's; along z, its half height.
            let across = (0.02 + 0.96 * unit()) * size.x.min(size.y) / 2.0;
            let up = (0.02 + 0.96 * unit()) * size.z / 2.0;
            let (core, radius) = match case % 3 {
                0 => (
                    Core::Cylinder {
                        radius: across,
                        half_height: up,
                        rotation: None,
                    },
                    0.0,
                ),
                1 => (
                    Core::Segment(DVec3::new(0.0, 0.0, (up - across).max(0.0))),
                    across.min(up),
                ),
                _ => (Core::Point, across.min(up)),
            };
            let reach = if case % 3 == 0 {
                DVec3::new(across, across, up)
            } else {
                let (r, h) = (radius, (up - across).max(0.0) + radius);
                DVec3::new(r, r, if case % 3 == 1 { h } else { r })
            };
            let free = (size - reach * 2.0).max(DVec3::ZERO);
            let center = lo + reach + free * DVec3::new(unit(), unit(), unit());
            let at = center.as_vec3();
            // Rounded to f32 the centre may move by 1e-5: only shapes clear of the faces by more.
            if ((at.as_dvec3() - reach).cmplt(lo + 1e-4)).any()
                || ((at.as_dvec3() + reach).cmpgt(hi - 1e-4)).any()
            {
                continue;
            }
            assert!(
                within(Some(&shape), &core, radius as f32, at),
                "{core:?} r {radius} at {at} in {lo}..{hi}"
            );
            inside += 1;
            // Beyond the vertical edge (hi.x, hi.y, ·), 1.05 to 1.7 of the reach across
            // from it diagonally: clear, and up to 1.41 inside the shifted x and y planes
            // (where only the exact test can tell).
            let off = (1.05 + 0.65 * unit()) * reach.x / 2f64.sqrt();
            let beyond = DVec3::new(hi.x + off, hi.y + off, center.z).as_vec3();
            assert!(
                !within(Some(&shape), &core, radius as f32, beyond),
                "{core:?} r {radius} at {beyond} by {lo}..{hi}"
            );
            clear += 1;
        }
        assert!(inside > 25_000 && clear == inside, "{inside} {clear}");
    }
}
