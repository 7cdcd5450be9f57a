//! A point walked through one of a Quake 1 family level's own hull trees, as the game
//! walks it: the answer of a [`ShapeQuery`](crate::movement::ShapeQuery) that names a
//! clip hull ([`ShapeQuery::through_clip_hull`](crate::movement::ShapeQuery::through_clip_hull)).
//!
//! Takes the compiled level's [`ClipHulls`] (model 0's head of the hull asked), a start and
//! an end; gives [`HullWalk`] (`pmtrace_t`: fraction, end point, plane, all-solid,
//! start-solid, in-open, in-water) and, for the seam, a [`Trace`]. Written from the order
//! and numbers of id's QuakeWorld `pmovetst.c PM_RecursiveHullCheck` (and WinQuake
//! `world.c SV_RecursiveHullCheck`, the same walk): each node splits the segment where it
//! crosses the node's plane, the crossing backed off [`DIST_EPSILON`] toward the near
//! side; the far side is entered when the point there is not solid, else that is the
//! impact, backed off by tenths of the segment while the point is still solid. The game's
//! float precision is kept: distances, the split point and the fraction along the whole
//! sweep in f32, the backed-off ratio and the tenths in f64 as C promotes them (the
//! game's constants are doubles).
//!
//! Guarantees: the walk ends (the stored trees are validated acyclic), its recursion is at
//! most [`MAX_CLIP_HULL_DEPTH`](crate::compiled::MAX_CLIP_HULL_DEPTH) deep, it allocates
//! nothing, and it reads model 0 only (the reference runs have no doors; the game would
//! walk each other model's own head with the start and end moved into its frame).

use glam::Vec3;

use crate::compiled::{ClipHulls, CompiledMap, HULL_CONTENTS_EMPTY, HULL_CONTENTS_SOLID, Plane};
use crate::contents::Contents;
use crate::surface::SurfaceFlags;
use crate::trace::{HitTarget, Trace};

/// How far the game backs a crossing off a node's plane toward the near side, in units:
/// 1/32 (`pmovetst.c DIST_EPSILON`, "to keep floating point happy"). A double in the game.
pub const DIST_EPSILON: f64 = 0.03125;

/// How far inside one side of a node's plane a region must lie for [`ClipHulls::root_near`]
/// to step past that node, in map units: a point within a few ulps of the region (the
/// walk's split points are interpolated in f32 and may stray an ulp outside the segment's
/// box) then has an f32 distance of the same sign as the f64 one, whatever the rounding of
/// the dot product at the world limit (a few ulps of 2^17, under 0.1).
const NEAR_SLACK: f64 = 1.0;

/// How much of the sweep the game backs the impact off at a time while the point there is
/// still solid (`frac -= 0.1`), a share of the segment. A double in the game.
const BACKUP_STEP: f64 = 0.1;

/// What a point's walk through a hull tree finds: `pmtrace_t` as the walk leaves it, before
/// any caller's fix-up (QuakeWorld's `PM_PlayerMove` then counts all-solid as start-solid
/// and a start-solid fraction as 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HullWalk {
    /// How far the point got, in `[0, 1]`; 1 when nothing stopped it.
    pub fraction: f32,
    /// Where it stopped: the end when nothing stopped it.
    pub end: Vec3,
    /// The plane it stopped on, facing the start's side; `None` when nothing stopped it.
    pub plane: Option<Plane>,
    /// No part of the sweep is in a non-solid leaf.
    pub all_solid: bool,
    /// Some part of the sweep (the start's side of a split) is in a solid leaf.
    pub start_solid: bool,
    /// Some part is in an empty leaf.
    pub in_open: bool,
    /// Some part is in a liquid (or any other non-solid, non-empty) leaf.
    pub in_water: bool,
}

impl HullWalk {
    /// The walk of nothing yet: fraction 1, all solid until a leaf says otherwise
    /// (`PM_PlayerMove`'s default trace).
    fn new(end: Vec3) -> HullWalk {
        HullWalk {
            fraction: 1.0,
            end,
            plane: None,
            all_solid: true,
            start_solid: false,
            in_open: false,
            in_water: false,
        }
    }

    /// The same answer in the crate's hit type: the walk's fraction and end (fraction 0
    /// when all-solid), start-solid when any part started in solid, the plane and its
    /// normal on an impact (none when all-solid), the contact the end's foot on that plane,
    /// contents solid on an impact, the world as the target, no surface or material (a
    /// clip hull has none).
    #[must_use]
    pub fn to_trace(&self) -> Trace {
        let plane = self.plane.filter(|_| !self.all_solid);
        let hit = plane.is_some();
        Trace {
            fraction: if self.all_solid { 0.0 } else { self.fraction },
            end: self.end,
            normal: plane.map(|p| p.normal),
            plane,
            contents: if hit || self.all_solid {
                Contents::SOLID
            } else {
                Contents::EMPTY
            },
            start_solid: self.start_solid || self.all_solid,
            all_solid: self.all_solid,
            contact: plane.map(|p| self.end - p.normal * p.distance(self.end)),
            target: plane.map(|_| HitTarget::World),
            surface: SurfaceFlags::EMPTY,
            material: None,
        }
    }
}

/// One segment of the walk: the fractions and points at its ends.
#[derive(Clone, Copy)]
struct Segment {
    f1: f32,
    f2: f32,
    p1: Vec3,
    p2: Vec3,
}

/// A subtree of one hull tree that serves every walk inside a box
/// ([`ClipHulls::root_near`]): the head, the box, and the deepest node whose ancestors all
/// leave the box on one side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct HullNear {
    /// The tree's head.
    pub head: i32,
    /// The box (low and high corners) every point of a walk served lies in.
    pub region: (Vec3, Vec3),
    /// Where a walk inside `region` may start instead of `head`.
    pub root: i32,
}

impl HullNear {
    /// The node a walk from `start` to `end` (or a point test at `start == end`) may start
    /// at: [`Self::root`] when both ends lie in the region, else the head.
    #[must_use]
    pub(crate) fn start_for(&self, start: Vec3, end: Vec3) -> i32 {
        let (lo, hi) = self.region;
        if lo.cmple(start.min(end)).all() && start.max(end).cmple(hi).all() {
            self.root
        } else {
            self.head
        }
    }
}

impl ClipHulls {
    /// The walk from `start` to `end` down the tree under `head` (`PM_RecursiveHullCheck`
    /// from the head, fractions 0 to 1).
    #[must_use]
    pub(crate) fn walk(&self, head: i32, start: Vec3, end: Vec3) -> HullWalk {
        self.walk_from(head, head, start, end)
    }

    /// [`Self::walk`] entered at `root`, a node of the tree under `head` that the walk from
    /// `head` reaches with the whole segment (the game's walk passes every node above it
    /// with both ends on one side, changing nothing): the same answer, bit for bit.
    /// `root` from [`HullNear::start_for`].
    #[must_use]
    pub(crate) fn walk_from(&self, head: i32, root: i32, start: Vec3, end: Vec3) -> HullWalk {
        // No region: the impact's point tests go from the head.
        let near = HullNear {
            head,
            region: (Vec3::INFINITY, Vec3::NEG_INFINITY),
            root: head,
        };
        self.walk_entered(&near, root, start, end)
    }

    /// [`Self::walk`] from `near`'s head, entered where `near` serves the segment
    /// ([`HullNear::start_for`]), and the impact's backing-off point tests (the game's from
    /// the head) entered where `near` serves each point: the same answer, bit for bit, as
    /// from the head (the tests the backing off repeats are the costliest part of a walk
    /// that hits: measured on e4m1, most of QuakeWorld's tick).
    #[must_use]
    pub(crate) fn walk_near(&self, near: &HullNear, start: Vec3, end: Vec3) -> HullWalk {
        self.walk_entered(near, near.start_for(start, end), start, end)
    }

    /// The walk under `near.head` entered at `root` ([`Self::walk_from`]).
    fn walk_entered(&self, near: &HullNear, root: i32, start: Vec3, end: Vec3) -> HullWalk {
        let mut walk = HullWalk::new(end);
        let whole = Segment {
            f1: 0.0,
            f2: 1.0,
            p1: start,
            p2: end,
        };
        self.check(near, root, whole, &mut walk);
        walk
    }

    /// The subtree under `head` that serves every walk and point test within `region`:
    /// down from the head while the region lies [`NEAR_SLACK`] or more on one side of the
    /// node's plane (measured in f64 at the region's corners), so a walk whose ends lie in
    /// the region, and every point it interpolates, goes the same way at each node passed
    /// (distance ≥ 0: the front; < 0: the back, as [`Self::point_contents`] and the walk
    /// decide). A region that is not finite gets the head.
    #[must_use]
    pub(crate) fn root_near(&self, head: i32, region: (Vec3, Vec3)) -> HullNear {
        let mut num = head;
        let (lo, hi) = region;
        if lo.is_finite() && hi.is_finite() {
            while let Ok(index) = usize::try_from(num) {
                let Some(node) = self.nodes.get(index) else {
                    break;
                };
                let Some(plane) = self.planes.get(node.plane as usize) else {
                    break;
                };
                // The plane's least and greatest distance over the box, in f64, as the
                // game measures it (an axial plane by its one coordinate).
                let dist = f64::from(plane.dist);
                let (least, most) = match usize::from(plane.axis) {
                    k @ 0..=2 => (f64::from(lo[k]) - dist, f64::from(hi[k]) - dist),
                    _ => (0..3).fold((-dist, -dist), |(least, most), k| {
                        let n = f64::from(plane.normal[k]);
                        let (a, b) = (n * f64::from(lo[k]), n * f64::from(hi[k]));
                        (least + a.min(b), most + a.max(b))
                    }),
                };
                num = if least >= NEAR_SLACK {
                    node.children[0]
                } else if most <= -NEAR_SLACK {
                    node.children[1]
                } else {
                    break;
                };
            }
        }
        // A leaf (the region lies in one) serves too: the walk from the head ends there.
        HullNear {
            head,
            region,
            root: num,
        }
    }

    /// `PM_RecursiveHullCheck` for node `num` over `seg`: `false` once the walk has stopped
    /// (an impact, or never out of solid). The game's tail calls (a segment wholly on one
    /// side, and the far side of a split) go round the loop instead of down the stack; the
    /// near side of a split recurses, as the game's does.
    fn check(&self, near: &HullNear, mut num: i32, mut seg: Segment, walk: &mut HullWalk) -> bool {
        loop {
            let Ok(index) = usize::try_from(num) else {
                // A leaf.
                if num == HULL_CONTENTS_SOLID {
                    walk.start_solid = true;
                } else {
                    walk.all_solid = false;
                    if num == HULL_CONTENTS_EMPTY {
                        walk.in_open = true;
                    } else {
                        walk.in_water = true;
                    }
                }
                return true;
            };
            // A validated table holds every node and plane named; answer "solid" otherwise.
            let Some(node) = self.nodes.get(index) else {
                walk.start_solid = true;
                return true;
            };
            let Some(plane) = self.planes.get(node.plane as usize) else {
                walk.start_solid = true;
                return true;
            };
            let t1 = plane.distance(seg.p1);
            let t2 = plane.distance(seg.p2);
            if t1 >= 0.0 && t2 >= 0.0 {
                num = node.children[0];
                continue;
            }
            if t1 < 0.0 && t2 < 0.0 {
                num = node.children[1];
                continue;
            }
            // The crossing, DIST_EPSILON on the near side (C: float ± double, in double).
            let (t1d, across) = (f64::from(t1), f64::from(t1 - t2));
            let mut frac = if t1 < 0.0 {
                ((t1d + DIST_EPSILON) / across) as f32
            } else {
                ((t1d - DIST_EPSILON) / across) as f32
            };
            frac = frac.clamp(0.0, 1.0);
            let at = |frac: f32| -> (f32, Vec3) {
                let midf = seg.f1 + (seg.f2 - seg.f1) * frac;
                let mid = Vec3::new(
                    seg.p1.x + frac * (seg.p2.x - seg.p1.x),
                    seg.p1.y + frac * (seg.p2.y - seg.p1.y),
                    seg.p1.z + frac * (seg.p2.z - seg.p1.z),
                );
                (midf, mid)
            };
            let (mut midf, mut mid) = at(frac);
            let side = usize::from(t1 < 0.0);
            let near_side = Segment {
                f2: midf,
                p2: mid,
                ..seg
            };
            if !self.check(near, node.children[side], near_side, walk) {
                return false;
            }
            if self.point_contents(node.children[side ^ 1], mid) != HULL_CONTENTS_SOLID {
                seg = Segment {
                    f1: midf,
                    p1: mid,
                    ..seg
                };
                num = node.children[side ^ 1];
                continue;
            }
            if walk.all_solid {
                // Never got out of the solid.
                return false;
            }
            // The far side is solid: the impact, on this node's plane facing the near side.
            walk.plane = Some(if side == 0 {
                Plane {
                    normal: plane.normal,
                    dist: plane.dist,
                }
            } else {
                Plane {
                    normal: -plane.normal,
                    dist: -plane.dist,
                }
            });
            // From the head in the game; where `near` serves the point, from its root.
            while self.point_contents(near.start_for(mid, mid), mid) == HULL_CONTENTS_SOLID {
                frac = (f64::from(frac) - BACKUP_STEP) as f32;
                if frac < 0.0 {
                    break;
                }
                (midf, mid) = at(frac);
            }
            walk.fraction = midf;
            walk.end = mid;
            return false;
        }
    }
}

impl CompiledMap {
    /// A point from `start` to `end` through clip hull `hull` (0 to 3) of model 0 as the
    /// game walks it ([`HullWalk`]); `None` when the level keeps no such hull (it is no
    /// imported Quake 1 family `.bsp`).
    #[must_use]
    pub fn walk_clip_hull(&self, hull: usize, start: Vec3, end: Vec3) -> Option<HullWalk> {
        let hulls = self.clip_hulls();
        let head = hulls.head(0, hull)?;
        Some(hulls.walk(head, start, end))
    }

    /// The game's contents number (`CONTENTS_*`: −1 empty, −2 solid, −3 water, −4 slime,
    /// −5 lava, −6 sky …) at `point` in hull `hull` (0 to 3) of model 0
    /// (`PM_HullPointContents`; hull 0 is `PM_PointContents`); `None` when the level keeps
    /// no such hull.
    #[must_use]
    pub fn clip_hull_contents(&self, hull: usize, point: Vec3) -> Option<i32> {
        let hulls = self.clip_hulls();
        let head = hulls.head(0, hull)?;
        Some(hulls.point_contents(head, point))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compiled::{HULL_COUNT, HullNode, HullPlane};

    /// A floor whose top is z = 0 (solid below) and a wall whose face is x = 64 (solid
    /// beyond), as qbsp would write them.
    fn room() -> ClipHulls {
        ClipHulls {
            planes: vec![
                HullPlane {
                    normal: Vec3::Z,
                    dist: 0.0,
                    axis: 2,
                },
                HullPlane {
                    normal: Vec3::X,
                    dist: 64.0,
                    axis: 0,
                },
            ],
            nodes: vec![
                HullNode {
                    plane: 0,
                    children: [1, HULL_CONTENTS_SOLID],
                },
                HullNode {
                    plane: 1,
                    children: [HULL_CONTENTS_SOLID, HULL_CONTENTS_EMPTY],
                },
            ],
            heads: vec![[0; HULL_COUNT]],
        }
    }

    #[test]
    fn a_fall_stops_a_32nd_above_the_floor_on_its_plane() {
        let walk = room().walk(0, Vec3::new(0.0, 0.0, 10.0), Vec3::new(0.0, 0.0, -10.0));
        assert!(!walk.all_solid && !walk.start_solid && walk.in_open);
        assert!((walk.end.z - 0.03125).abs() < 1e-6, "{walk:?}");
        assert!((walk.fraction - (10.0 - 0.03125) / 20.0).abs() < 1e-6);
        assert_eq!(walk.plane.map(|p| p.normal), Some(Vec3::Z));
        let trace = walk.to_trace();
        assert_eq!(trace.normal, Some(Vec3::Z));
        assert_eq!(trace.contact.map(|c| c.z), Some(0.0));
        assert!(!trace.start_solid);
    }

    #[test]
    fn a_wall_hit_faces_back_and_a_free_move_ends_at_its_end() {
        let hulls = room();
        let walk = hulls.walk(0, Vec3::new(0.0, 0.0, 10.0), Vec3::new(100.0, 0.0, 10.0));
        assert_eq!(walk.plane.map(|p| p.normal), Some(-Vec3::X));
        assert!((walk.end.x - (64.0 - 0.03125)).abs() < 1e-4, "{walk:?}");
        let free = hulls.walk(0, Vec3::new(0.0, 0.0, 10.0), Vec3::new(50.0, 5.0, 20.0));
        assert_eq!(free.fraction, 1.0);
        assert_eq!(free.end, Vec3::new(50.0, 5.0, 20.0));
        assert_eq!(free.plane, None);
        assert_eq!(free.to_trace().normal, None);
    }

    #[test]
    fn starting_in_solid_is_start_solid_and_staying_there_all_solid() {
        let hulls = room();
        let inside = hulls.walk(0, Vec3::new(0.0, 0.0, -5.0), Vec3::new(10.0, 0.0, -5.0));
        assert!(inside.all_solid && inside.start_solid);
        assert_eq!(inside.to_trace().fraction, 0.0);
        let out = hulls.walk(0, Vec3::new(0.0, 0.0, -5.0), Vec3::new(0.0, 0.0, 5.0));
        assert!(out.start_solid && !out.all_solid && out.in_open);
        assert_eq!(out.fraction, 1.0);
    }

    #[test]
    fn a_walk_from_the_region_root_equals_the_walk_from_the_head() {
        let hulls = room();
        // Well above the floor and short of the wall: both planes leave the region on one
        // side, so the root is the empty leaf.
        let near = hulls.root_near(0, (Vec3::new(0.0, 0.0, 10.0), Vec3::new(40.0, 20.0, 50.0)));
        assert_eq!(near.root, HULL_CONTENTS_EMPTY);
        // Reaching down to the floor: the root is the head; reaching the wall only: node 1.
        assert_eq!(hulls.root_near(0, (Vec3::new(0.0, 0.0, -5.0), Vec3::splat(5.0))).root, 0);
        let wall = hulls.root_near(0, (Vec3::new(50.0, 0.0, 10.0), Vec3::new(80.0, 5.0, 20.0)));
        assert_eq!(wall.root, 1);
        let ends = [
            Vec3::new(0.0, 0.0, 10.0),
            Vec3::new(40.0, 20.0, 50.0),
            Vec3::new(20.0, 5.0, 30.0),
            Vec3::new(55.0, 2.0, 15.0),
            Vec3::new(79.0, 4.0, 11.0),
            Vec3::new(0.0, 0.0, -10.0),
        ];
        for region in [near, wall] {
            for a in ends {
                for b in ends {
                    let from = region.start_for(a, b);
                    assert_eq!(hulls.walk_from(0, from, a, b), hulls.walk(0, a, b), "{a} {b}");
                    assert_eq!(hulls.walk_near(&region, a, b), hulls.walk(0, a, b), "{a} {b}");
                    assert_eq!(hulls.point_contents(region.start_for(a, a), a), hulls.point_contents(0, a));
                }
            }
        }
        // Outside the region: the head.
        assert_eq!(near.start_for(Vec3::ZERO, Vec3::new(0.0, 0.0, -10.0)), 0);
    }

    #[test]
    fn a_point_on_a_plane_is_in_front_of_it() {
        let hulls = room();
        assert_eq!(hulls.point_contents(0, Vec3::ZERO), HULL_CONTENTS_EMPTY);
        assert_eq!(hulls.point_contents(0, Vec3::new(64.0, 0.0, 1.0)), HULL_CONTENTS_SOLID);
    }
}
