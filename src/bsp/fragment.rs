//! [`Fragment`]: the part of one brush inside the region of the node being built, with the
//! sides still available as splitters.
//!
//! Takes brushes and planes, gives convex fragments that can be classified against a plane
//! and split by it. Guarantees: a fragment is convex and lies behind each of its sides; a
//! side on a plane already used by an ancestor node is marked `used` and never offered again,
//! which is what makes the build terminate.

use glam::DVec3;

use super::planes::{PlaneId, PlaneTable};
use crate::geom::{BuildPlane, Winding, bounds_of};
use crate::tolerance::{CLIP_EPSILON, DIST_EPSILON, MAX_MAP_COORD, NORMAL_EPSILON, SPLIT_EPSILON};

/// A fragment whose every point lies farther than this from a plane (map units) has no side
/// on it: a side's winding lies on its own brush plane, which the plane table merged with
/// the stored one only within [`NORMAL_EPSILON`] per normal component and [`DIST_EPSILON`],
/// so its points lie within `DIST_EPSILON + 3 · NORMAL_EPSILON · MAX_MAP_COORD` (0.79) of
/// the stored plane (a split's own sides lie on it exactly). [`Fragment::place`] skips the
/// search for such a side beyond it, which changes no placement.
const FACING_MARGIN: f64 = 1.0;
const _: () = assert!(DIST_EPSILON + 3.0 * NORMAL_EPSILON * MAX_MAP_COORD < FACING_MARGIN);

/// One side of a fragment.
#[derive(Clone, Debug)]
pub(crate) struct FragmentSide {
    pub plane: PlaneId,
    pub winding: Winding,
    /// On a plane of an ancestor node: no longer a splitter candidate.
    pub used: bool,
}

/// The part of a brush in the current region.
#[derive(Clone, Debug)]
pub(crate) struct Fragment {
    /// Index of the brush in the build input.
    pub brush: u32,
    pub sides: Vec<FragmentSide>,
    pub mins: DVec3,
    pub maxs: DVec3,
}

/// Where a fragment lies relative to a plane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Placement {
    Front,
    Back,
    /// The fragment has a side on the plane (either orientation): it lies wholly on the side
    /// that side faces away from, and that side is used up.
    Facing {
        front: bool,
    },
    Spanning,
}

impl Fragment {
    pub(crate) fn new(brush: u32, sides: Vec<FragmentSide>) -> Option<Fragment> {
        if sides.len() < 4 {
            return None;
        }
        let mut fragment = Fragment {
            brush,
            sides,
            mins: DVec3::ZERO,
            maxs: DVec3::ZERO,
        };
        fragment.update_bounds();
        Some(fragment)
    }

    fn update_bounds(&mut self) {
        (self.mins, self.maxs) = bounds_of(self.sides.iter().flat_map(|s| s.winding.points.iter()));
    }

    /// Classifies against `plane` (id `id`), by bounds first, then by vertices.
    pub(crate) fn place(&self, id: PlaneId, plane: &BuildPlane) -> Placement {
        self.place_from_box(self.box_center_half(), id, plane)
    }

    /// The bounding box as its centre and half extent, which [`Self::place_from_box`] takes
    /// (a caller placing one fragment against many planes works it out once).
    pub(crate) fn box_center_half(&self) -> (DVec3, DVec3) {
        ((self.mins + self.maxs) * 0.5, (self.maxs - self.mins) * 0.5)
    }

    /// [`Self::place`] with the box of [`Self::box_center_half`] given: the same answer.
    #[inline]
    pub(crate) fn place_from_box(
        &self,
        (center, half): (DVec3, DVec3),
        id: PlaneId,
        plane: &BuildPlane,
    ) -> Placement {
        // Support distances of the bounding box along ±normal.
        let d = plane.distance(center);
        let reach = half.dot(plane.normal.abs());
        // Wholly beyond the margin: no side can be on the plane, so none is looked for.
        if d - reach > FACING_MARGIN {
            return Placement::Front;
        }
        if d + reach < -FACING_MARGIN {
            return Placement::Back;
        }
        if let Some(side) = self
            .sides
            .iter()
            .find(|s| s.plane.canonical() == id.canonical())
        {
            return Placement::Facing {
                front: side.plane != id,
            };
        }
        if d - reach >= -SPLIT_EPSILON {
            return Placement::Front;
        }
        if d + reach <= SPLIT_EPSILON {
            return Placement::Back;
        }
        // Front when no corner lies more than the epsilon behind, else back when none lies
        // more than it in front; one of each is enough to know it spans.
        let (mut behind, mut ahead) = (false, false);
        for side in &self.sides {
            for p in &side.winding.points {
                let d = plane.distance(*p);
                behind |= d < -SPLIT_EPSILON;
                ahead |= d > SPLIT_EPSILON;
            }
            if behind && ahead {
                return Placement::Spanning;
            }
        }
        if !behind {
            Placement::Front
        } else if !ahead {
            Placement::Back
        } else {
            Placement::Spanning
        }
    }

    /// Splits a spanning fragment by `plane` (id `id`) into its front and back parts. The new
    /// sides on the plane are marked used. A part too thin to keep comes back as `None`.
    pub(crate) fn split(
        self,
        id: PlaneId,
        planes: &PlaneTable,
    ) -> (Option<Fragment>, Option<Fragment>) {
        let plane = planes.get(id);
        let mid = Winding::base_for_plane(plane).into_clipped_behind_all(
            self.sides.iter().map(|side| planes.get(side.plane)),
            CLIP_EPSILON,
        );
        let mut front = Vec::with_capacity(self.sides.len() + 1);
        let mut back = Vec::with_capacity(self.sides.len() + 1);
        for side in self.sides {
            let (f, b) = side.winding.into_split(plane, CLIP_EPSILON);
            if let Some(winding) = f {
                front.push(FragmentSide {
                    plane: side.plane,
                    winding,
                    used: side.used,
                });
            }
            if let Some(winding) = b {
                back.push(FragmentSide {
                    plane: side.plane,
                    winding,
                    used: side.used,
                });
            }
        }
        if let Some(mid) = mid {
            let mut reversed = mid.clone();
            reversed.points.reverse();
            front.push(FragmentSide {
                plane: id.flipped(),
                winding: reversed,
                used: true,
            });
            back.push(FragmentSide {
                plane: id,
                winding: mid,
                used: true,
            });
        }
        (
            Fragment::new(self.brush, front),
            Fragment::new(self.brush, back),
        )
    }

    /// Marks the side on `id`'s plane used.
    pub(crate) fn use_plane(&mut self, id: PlaneId) {
        for side in &mut self.sides {
            if side.plane.canonical() == id.canonical() {
                side.used = true;
            }
        }
    }
}
