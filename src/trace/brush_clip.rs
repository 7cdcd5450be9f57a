//! First impact of a sweep against one convex brush, its planes shifted by the shape's
//! support distance (Quake 2/3 `CM_ClipBoxToBrush` / `CM_TraceThroughBrush`, for any shape).
//!
//! Takes the sweep in progress and one brush, updates the sweep's best hit. Guarantees:
//! - The stop point sits the sweep's stop distance (`TraceWork::stop`: the crate's
//!   [`SURFACE_CLIP_EPSILON`](crate::tolerance::SURFACE_CLIP_EPSILON), or Quake 3's 1/8 when the
//!   query asks for it) in front of the binding shifted plane, so
//!   the end is never inside this brush; a start within that distance moving inward stops at
//!   fraction 0 with a valid plane and is not start-solid; moving away never hits.
//! - A start inside the brush sets `start_solid` and the brush does not block a sweep that
//!   leaves it; start and end inside set `all_solid` with fraction 0, naming the lowest
//!   brush index the sweep is all-solid in, so that, as for hits, the answer does not
//!   depend on the order brushes are visited in (the tree's, a tick's gathered list's, a
//!   declared box's tree's).
//! - The hit normal is a brush side's unit normal facing the mover (`d1 > d2`). For points,
//!   spheres, cylinders, capsules, hulls and rotated boxes the plane-shifted hit is kept where the shape meets the
//!   entered face inside its outline (exact there) and otherwise refined on the exact
//!   distance (`rounded`) from the brush's enter fraction on (to the end of the sweep, not to
//!   Quake's leave fraction, see `refine`); a refined contact at an edge or corner gets the
//!   tangent plane there.
//! - Under [`StopRule::Cross`] (Quake 1's clip hulls) a brush stops a sweep only where it
//!   goes into it, 1/32 off the side it crosses last, as the game's hull check does
//!   ([`clip_brush_crossing`]).
//! - A brush is left where the sweep crosses its shifted plane, so a sweep that comes into
//!   contact with the brush is never let through (Quake's leave fraction is the stop
//!   distance inside the plane). A sweep asking for a longer stop distance than the default
//!   (Quake 3's, for its movement profile) leaves as Quake does, to meet the game's answers.

use glam::{DVec3, Vec3, Vec4};

use crate::compiled::{CompiledBrush, Plane};
use crate::trace::StopRule;
use crate::tolerance::{ADVANCE_TOLERANCE, FACE_INSIDE_SLACK, SURFACE_CLIP_EPSILON};

use super::rounded::{Contact, Core, Patch, Polytope, contact, within};
use super::shape::Support;
use super::sweep_state::TraceWork;

/// Clips the sweep in `work` against `brush`.
/// `brush_id` is the brush's index in [`CompiledMap::brushes`](crate::compiled::CompiledMap::brushes).
pub(crate) fn clip_brush<S: Support>(
    work: &mut TraceWork<'_, S>,
    brush_id: usize,
    brush: &CompiledBrush,
) {
    if work.rule == StopRule::Cross {
        clip_brush_crossing(work, brush_id, brush);
        return;
    }
    let map = work.map;
    let mut enter_fraction = -1.0f32;
    let mut leave_fraction = 1.0f32;
    let mut enter_plane = None;
    let mut enter_side = usize::MAX;
    let mut starts_out = false;
    let mut ends_out = false;
    let sides = &map.brush_sides(brush)[..work.support.side_count(brush) as usize];
    let planes = map.planes();
    let (start, end) = (work.start, work.end);
    // Four sides at a time: their distances in lanes (each lane the same operations, in the
    // same order, as one side alone), then the sides crossed, in order, one at a time.
    for (chunk_index, chunk) in sides.chunks(4).enumerate() {
        let Some(last) = chunk.last() else {
            break;
        };
        let plane = |i: usize| &planes[chunk.get(i).unwrap_or(last).plane as usize];
        let four = [plane(0), plane(1), plane(2), plane(3)];
        let lane = |f: fn(&Plane) -> f32| Vec4::from_array(four.map(f));
        let (nx, ny, nz) = (
            lane(|p| p.normal.x),
            lane(|p| p.normal.y),
            lane(|p| p.normal.z),
        );
        let dist = lane(|p| p.dist) + work.support.support4(-nx, -ny, -nz);
        let d1 = nx * start.x + ny * start.y + nz * start.z - dist;
        let d2 = nx * end.x + ny * end.y + nz * end.z - dist;
        let live = (1u32 << chunk.len()) - 1;
        let front1 = d1.cmpgt(Vec4::ZERO).bitmask() & live;
        let front2 = d2.cmpgt(Vec4::ZERO).bitmask() & live;
        ends_out |= front2 != 0;
        starts_out |= front1 != 0;
        // In front and staying out of reach: the sweep misses the whole brush.
        let staying = d2.cmpge(Vec4::splat(work.stop)) | d2.cmpge(d1);
        if front1 & staying.bitmask() != 0 {
            return;
        }
        // Behind the plane at both ends: nothing to do for that side.
        let mut crossed = front1 | front2;
        let (d1, d2) = (d1.to_array(), d2.to_array());
        while crossed != 0 {
            let i = crossed.trailing_zeros() as usize;
            crossed &= crossed - 1;
            let (Some(side), d1, d2) = (chunk.get(i), d1[i], d2[i]) else {
                continue;
            };
            let index = chunk_index * 4 + i;
            if d1 > d2 {
                let f = ((d1 - work.stop) / (d1 - d2)).max(0.0);
                // A sweep asking for Quake 3's longer stop distance breaks a tie as the
                // game does: its brushes list their six axial sides first (`cm_load.c
                // CM_BoundBrush` reads the bounds from them), and `CM_TraceThroughBrush`
                // keeps the first side of the largest enter fraction, so an axial side
                // (a bevel at a corner, above all, both clamped to 0) wins a tie with a
                // slanted one.
                let axial_tie = work.stop > SURFACE_CLIP_EPSILON
                    && f == enter_fraction
                    && is_axial(&planes[side.plane as usize])
                    && enter_plane.is_some_and(|p: u32| !is_axial(&planes[p as usize]));
                if f > enter_fraction || axial_tie {
                    enter_fraction = f;
                    enter_plane = Some(side.plane);
                    enter_side = index;
                }
            } else {
                // Leaving: where the point crosses the shifted plane itself. Quake's
                // `(d1 + eps) / (d1 − d2)` leaves the region shrunk by the stop distance instead, so
                // a sweep cutting across a corner of the shifted planes (above all one nearly
                // parallel to a bevel, where the stop distance is a long way along the sweep) passed
                // the brush although it came into contact (measured: a cylinder grazing a box's top
                // edge on `arena.map` passed 0.007 units inside it). Leaving where the point is the
                // stop distance out would also stop sweeps that pass within the stop distance of a
                // corner without touching it (tried: a point stopped 0.035 from a brush).
                // A sweep asking for a longer stop distance (Quake 3's) leaves as Quake's
                // `CM_TraceThroughBrush` does, the stop distance before the plane.
                let f = if work.stop > SURFACE_CLIP_EPSILON {
                    ((d1 + work.stop) / (d1 - d2)).min(1.0)
                } else {
                    (d1 / (d1 - d2)).min(1.0)
                };
                if f < leave_fraction {
                    leave_fraction = f;
                }
            }
        }
    }
    let exact = work.shape.core();
    if !starts_out {
        // Inside every shifted plane. For a sphere, cylinder, capsule or hull that may only be the
        // bevels' over-reach: it overlaps only if its core is within its radius of the brush.
        if let Some((core, radius)) = exact {
            let shape = map.brush_features(brush_id).and_then(Polytope::new);
            // `within` measures by GJK, which near a cylinder's rim may call clear a start
            // the contact search's exact gauge finds overlapping (by 7e-4 on e1m2's mesh,
            // `refine`'s `StartsInside`): that start is inside too, not a sweep let through.
            if !within(shape.as_ref(), &core, radius, work.start)
                && refine(
                    work,
                    (brush_id, brush),
                    shape.as_ref(),
                    (&core, radius),
                    0.0,
                    None,
                ) == Refined::Done
            {
                return;
            }
            work.found.start_solid = true;
            if within(shape.as_ref(), &core, radius, work.end) {
                set_all_solid(work, (brush_id, brush));
            }
            return;
        }
        work.found.start_solid = true;
        if !ends_out {
            set_all_solid(work, (brush_id, brush));
        }
        return;
    }
    let enter_fraction = enter_fraction.max(0.0);
    // Equal fractions go to the lower plane index, then the lower brush index, so the result
    // does not depend on the order in which the tree visits brushes (scenario 44,
    // `tests/it/controller/determinism.rs`).
    let earlier = precedes(work, enter_fraction, enter_plane, brush_id);
    if !(enter_fraction < leave_fraction && enter_plane.is_some() && earlier) {
        return;
    }
    // A point is a sphere of radius 0 here: where it meets an edge or a corner it stops
    // where it first comes within the stop distance of the brush. The entered plane alone
    // would stop it the stop distance in front of that plane, which beside a sharp edge (a
    // sliver's, whose faces meet at a few degrees) lies far outside the other face: a point
    // passing 0.5 beside a wedge of 2° was stopped there (`maps/sliver_wedges.map`).
    let exact = exact.or_else(|| work.shape.point_core());
    match exact {
        // The shape meeting a face inside its outline: plane shifting is exact there.
        Some((core, radius))
            if meets_face_inside(
                work,
                (brush_id, brush),
                enter_side,
                enter_fraction,
                &core,
                radius,
            ) =>
        {
            record(work, (brush_id, brush), enter_fraction, enter_plane, None);
        }
        // Otherwise (an edge or a corner) the shifted planes only bound the contact.
        Some((core, radius)) => {
            let shape = map.brush_features(brush_id).and_then(Polytope::new);
            refine(
                work,
                (brush_id, brush),
                shape.as_ref(),
                (&core, radius),
                enter_fraction,
                enter_plane,
            );
        }
        None => record(work, (brush_id, brush), enter_fraction, enter_plane, None),
    }
}

/// [`clip_brush`] under [`StopRule::Cross`]: Quake 1's hull check (`pmovetst.c
/// PM_RecursiveHullCheck`) on one brush of a clip hull's solid.
///
/// A point on a side's plane is in front of it when the side faces along the plane qbsp
/// stored for its node ([`faces_along_node`]: the front child holds the plane), behind it
/// otherwise. The sweep is stopped where it goes into the brush (the last side crossed in,
/// before the first crossed out, `<=` so that one ending on a side that holds its plane is
/// in), [`SURFACE_CLIP_EPSILON`] off that side (`(t1 − DIST_EPSILON)/(t1 − t2)`, at least
/// 0). Starting inside every side is start-solid (all-solid when the end is too), and the
/// brush does not block a sweep that leaves it.
///
/// Not reproduced: the game's walk backs off 1/32 at every split of its tree and tests
/// the far side at that point, so near a split it may stop closer than 1/32 to a wall,
/// catch a corner the sweep only passes, or pass a corner the sweep cuts. Both a rule that
/// catches corners (tried: a side crossed in whose backed-off point lies within the other
/// sides) and this one agree with the reference runs about as well (91.5 % and 92.9 % of
/// ticks): the splits are the game's tree's, not the brushes'.
fn clip_brush_crossing<S: Support>(
    work: &mut TraceWork<'_, S>,
    brush_id: usize,
    brush: &CompiledBrush,
) {
    let map = work.map;
    let sides = &map.brush_sides(brush)[..work.support.side_count(brush) as usize];
    let planes = map.planes();
    let (start, end) = (work.start, work.end);
    // A side's plane shifted by the shape's support (none for a point), and whether a point
    // on it is in front.
    let shifted = |plane: &Plane| {
        let n = plane.normal;
        let reach = work
            .support
            .support4(Vec4::splat(-n.x), Vec4::splat(-n.y), Vec4::splat(-n.z));
        (n, plane.dist + reach.x, faces_along_node(n))
    };
    let in_front = |d: f32, on_is_front: bool| d > 0.0 || (d == 0.0 && on_is_front);
    let distance = |n: Vec3, dist: f32, p: Vec3| n.x * p.x + n.y * p.y + n.z * p.z - dist;
    let (mut starts_out, mut ends_out, mut stays_out) = (false, false, false);
    // (crossing along the sweep, stop fraction, plane): the sweep's way in.
    let mut entry: Option<(f32, f32, u32)> = None;
    let mut leave = 1.0f32;
    for side in sides {
        let Some(plane) = planes.get(side.plane as usize) else {
            continue;
        };
        let (n, dist, on_is_front) = shifted(plane);
        let (d1, d2) = (distance(n, dist, start), distance(n, dist, end));
        let (front1, front2) = (in_front(d1, on_is_front), in_front(d2, on_is_front));
        starts_out |= front1;
        ends_out |= front2;
        stays_out |= front1 && front2;
        if !front1 && front2 {
            leave = leave.min(d1 / (d1 - d2));
        }
        if !front1 || front2 {
            continue;
        }
        let crossing = d1 / (d1 - d2);
        let fraction = ((d1 - SURFACE_CLIP_EPSILON) / (d1 - d2)).clamp(0.0, 1.0);
        if entry.is_none_or(|(c, _, _)| crossing > c) {
            entry = Some((crossing, fraction, side.plane));
        }
    }
    if !starts_out {
        work.found.start_solid = true;
        if !ends_out {
            set_all_solid(work, (brush_id, brush));
        }
        return;
    }
    let entered = entry.filter(|&(c, _, _)| !stays_out && c <= leave);
    if let Some((_, fraction, plane)) = entered {
        record(work, (brush_id, brush), fraction, Some(plane), None);
    }
}

/// Whether a plane of normal `normal` faces along the node plane Quake 1's compiler would
/// store for it (`qbsp` `NormalizePlane`: an axial normal points along +axis, any other has
/// its largest component, x before y before z on ties, positive).
fn faces_along_node(normal: Vec3) -> bool {
    let (ax, ay, az) = (normal.x.abs(), normal.y.abs(), normal.z.abs());
    if ax >= ay && ax >= az {
        normal.x > 0.0
    } else if ay >= ax && ay >= az {
        normal.y > 0.0
    } else {
        normal.z > 0.0
    }
}

/// Whether a shape entering by side `side` (an index into the brush's sides) at `fraction`
/// touches that face inside its outline: then the contact is on the face and exact. The
/// patches tried are the core's lowest along the face's normal, pushed out by the radius:
/// they lie on the face plane when the shifted plane is met. Inside means by at least
/// [`FACE_INSIDE_SLACK`] (relative), so a contact at the outline is refined.
fn meets_face_inside(
    work: &TraceWork<'_, impl Support>,
    (brush_id, brush): (usize, &CompiledBrush),
    side: usize,
    fraction: f32,
    core: &Core<'_>,
    radius: f32,
) -> bool {
    let map = work.map;
    let faces = &map.brush_sides(brush)[..brush.face_count as usize];
    let Some(entered) = faces.get(side) else {
        return false;
    };
    let plane = &map.planes()[entered.plane as usize];
    let center = work.start + (work.end - work.start) * fraction;
    let lift = plane.normal * (radius + work.stop);
    // The other faces as (normal, distance pulled in by the slack at `p`).
    let others = || {
        faces
            .iter()
            .enumerate()
            .filter(move |(i, _)| *i != side)
            .map(|(_, other)| &map.planes()[other.plane as usize])
    };
    let slack = |p: Vec3| FACE_INSIDE_SLACK * p.abs().max_element().max(1.0);
    let inside = |p: Vec3| {
        let s = slack(p);
        others().all(|o| o.normal.dot(p) <= o.dist - s)
    };
    core.any_lowest(plane.normal, ADVANCE_TOLERANCE, |patch| match patch {
        Patch::Point(low) => inside(center + low - lift),
        Patch::Segment(a, b) => {
            // Clip the segment by every other face; any part left lies inside the face.
            let (a, b) = (center + a - lift, center + b - lift);
            let s = slack(a).max(slack(b));
            let (mut t0, mut t1) = (0.0f32, 1.0f32);
            for o in others() {
                let (ga, gb) = (o.normal.dot(a) - o.dist + s, o.normal.dot(b) - o.dist + s);
                if ga > 0.0 && gb > 0.0 {
                    return false;
                }
                if ga > 0.0 {
                    t0 = t0.max(ga / (ga - gb));
                } else if gb > 0.0 {
                    t1 = t1.min(ga / (ga - gb));
                }
            }
            t0 <= t1
        }
        Patch::Disk { center: c, radius } => {
            // A disk in the face's plane meets the convex face when its centre is inside it
            // or within its radius of one of the face's edges.
            let c = center + c - lift;
            if inside(c) {
                return true;
            }
            let Some(features) = map.brush_features(brush_id) else {
                return false;
            };
            let (c, n, d) = (c.as_dvec3(), plane.normal.as_dvec3(), f64::from(plane.dist));
            let reach = f64::from(radius - slack(center));
            let on_face = |p: DVec3| (n.dot(p) - d).abs() <= features.eps;
            features.edges.iter().any(|&(a, b)| {
                let (a, b) = (features.corners[a as usize], features.corners[b as usize]);
                if !(on_face(a) && on_face(b)) {
                    return false;
                }
                let ab = b - a;
                let t =
                    (ab.dot(c - a) / ab.length_squared().max(f64::MIN_POSITIVE)).clamp(0.0, 1.0);
                (a + ab * t - c).length() <= reach
            })
        }
    })
}

fn set_all_solid(
    work: &mut TraceWork<'_, impl Support>,
    (brush_id, brush): (usize, &CompiledBrush),
) {
    // The lowest brush of those the sweep is all-solid in (a hit never replaces an
    // all-solid answer: nothing precedes fraction 0 without a plane, `precedes`).
    if work.found.all_solid && work.found.hit_brush.is_some_and(|b| b as usize <= brush_id) {
        return;
    }
    work.found.all_solid = true;
    work.found.fraction = 0.0;
    work.found.contents = brush.contents;
    work.found.hit_brush = Some(brush_id as u32);
    work.found.hit_plane = None;
    work.found.hit_tangent = None;
}

/// Whether a hit at `fraction` on `plane` of brush `brush_id` goes before the best so far:
/// it is earlier, or as early on a lower plane index, or on the same plane (two brushes
/// sharing a face plane, such as a ceiling made of two brushes) of a lower brush index. So
/// no tie depends on the order the tree visits brushes in, and what the hit reports (the
/// brush's contents, the side's material) is that of the same brush whatever the tree.
fn precedes(
    work: &TraceWork<'_, impl Support>,
    fraction: f32,
    plane: Option<u32>,
    brush_id: usize,
) -> bool {
    let found = &work.found;
    fraction < found.fraction
        || (fraction == found.fraction
            && found.fraction < 1.0
            && (plane, Some(brush_id as u32)) < (found.hit_plane, found.hit_brush))
}

/// Whether `plane` is one of the six axial planes (a normal component of magnitude 1).
#[inline]
fn is_axial(plane: &Plane) -> bool {
    plane.normal.abs().max_element() == 1.0
}

/// Takes a hit if it is earlier than the best so far (ties to the lower plane index, then
/// the lower brush index: [`precedes`]).
fn record(
    work: &mut TraceWork<'_, impl Support>,
    (brush_id, brush): (usize, &CompiledBrush),
    fraction: f32,
    plane: Option<u32>,
    tangent: Option<Plane>,
) {
    if precedes(work, fraction, plane, brush_id) && plane.is_some() {
        work.found.fraction = fraction;
        work.found.hit_plane = plane;
        work.found.hit_tangent = tangent;
        work.found.contents = brush.contents;
        work.found.hit_brush = Some(brush_id as u32);
    }
}

/// Finds the exact first contact of `core` rounded by `radius` with the brush after `from`
/// and records it.
///
/// The search may run to the end of the sweep, never only to the best hit so far (so the
/// contact found does not depend on the order brushes are visited in), nor only to the
/// shifted planes' leave fraction: Quake's leave fraction is pulled in by the stop distance,
/// and a sweep that cuts across a corner of the shifted planes can come within the stop
/// distance of the brush only after it (measured: a capsule passing a box's vertical edge
/// on `kaos.map`). The search ends on its own once the distance grows.
///
/// Gives [`Refined::StartsInside`] when there is no plane to keep (`enter_plane` is `None`:
/// the sweep starts inside every shifted plane) and the exact search finds the core
/// already overlapping the brush at `from`: the caller then treats the start as inside.
fn refine(
    work: &mut TraceWork<'_, impl Support>,
    brush: (usize, &CompiledBrush),
    shape: Option<&Polytope<'_>>,
    (core, radius): (&Core<'_>, f32),
    from: f32,
    enter_plane: Option<u32>,
) -> Refined {
    let Some(shape) = shape else {
        // No features (only a degenerate brush of a crafted file): the plane-shifted hit
        // stands.
        record(work, brush, from, enter_plane, None);
        return Refined::Done;
    };
    match contact(shape, core, work.start, work.end, radius, from, 1.0) {
        Contact::Miss => {}
        Contact::Keep if enter_plane.is_none() => return Refined::StartsInside,
        Contact::Keep => record(work, brush, from, enter_plane, None),
        // Ties between brushes at equal fractions go to the lower plane id. At the
        // plane-shifted fraction itself the id must stay the entered plane, which the caller
        // compared with the best hit so far before refining; the face found is then reported
        // through the tangent.
        Contact::Hit {
            fraction,
            face: Some(face),
            ..
        } if fraction > from || enter_plane.is_none() => {
            record(work, brush, fraction, Some(face), None);
        }
        Contact::Hit {
            fraction,
            face: Some(face),
            tangent,
        } => {
            let plane = work.map.planes().get(face as usize).copied();
            record(work, brush, fraction, enter_plane, plane.or(Some(tangent)));
        }
        Contact::Hit {
            fraction,
            face: None,
            tangent,
        } => {
            // At an edge or corner: the tangent plane there; for ordering ties, the plane
            // the sweep entered by (or the brush's first face).
            let id = enter_plane.or(shape.first_plane());
            record(work, brush, fraction, id, Some(tangent));
        }
    }
    Refined::Done
}

/// What [`refine`] leaves its caller to do.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Refined {
    /// The brush is dealt with: a contact recorded, or none.
    Done,
    /// The core overlaps the brush at the start of the search with no plane to keep.
    StartsInside,
}
