//! First impact of a sweep against one convex brush, its planes shifted by the shape's
//! support distance (Quake 2/3 `CM_ClipBoxToBrush` / `CM_TraceThroughBrush`, for any shape).
//!
//! Takes the sweep in progress and one brush, updates the sweep's best hit. Guarantees:
//! - The stop point sits [`SURFACE_CLIP_EPSILON`] in front of the binding shifted plane, so
//!   the end is never inside this brush; a start within that distance moving inward stops at
//!   fraction 0 with a valid plane and is not start-solid; moving away never hits.
//! - A start inside the brush sets `start_solid` and the brush does not block a sweep that
//!   leaves it; start and end inside set `all_solid` with fraction 0.
//! - The hit normal is a brush side's unit normal facing the mover (`d1 > d2`). For points,
//!   spheres, cylinders, capsules, hulls and rotated boxes the plane-shifted hit is kept where the shape meets the
//!   entered face inside its outline (exact there) and otherwise refined on the exact
//!   distance (`rounded`) from the brush's enter fraction on (to the end of the sweep, not to
//!   Quake's leave fraction, see `refine`); a refined contact at an edge or corner gets the
//!   tangent plane there.
//! - A brush is left where the sweep crosses its shifted plane, so a sweep that comes into
//!   contact with the brush is never let through (Quake's leave fraction is the stop
//!   distance inside the plane).

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
    let map = work.map;
    let mut enter_fraction = -1.0f32;
    // Under `StopRule::Cross`, where the sweep crosses the entered plane itself: the last
    // such crossing is where it enters the brush.
    let mut enter_crossing = -1.0f32;
    let cross = work.rule == StopRule::Cross;
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
        let (front1, front2, staying) = if cross {
            // Quake 1's hulls send a point on a node's plane to the front child: a side
            // facing along its node's plane bounds a region behind it, open (on the plane is
            // out); a side facing against it, a region in front, closed (on the plane is in).
            let on_counts_out = Vec4::from_array(four.map(|p| {
                if faces_along_node(p.normal) { 0.0 } else { 1.0 }
            }))
            .cmpeq(Vec4::ZERO);
            let front = |d: Vec4| d.cmpgt(Vec4::ZERO) | (d.cmpeq(Vec4::ZERO) & on_counts_out);
            let front2 = front(d2);
            (front(d1), front2, front2)
        } else {
            (
                d1.cmpgt(Vec4::ZERO),
                d2.cmpgt(Vec4::ZERO),
                // In front and staying out of reach: the sweep misses the whole brush.
                d2.cmpge(Vec4::splat(SURFACE_CLIP_EPSILON)) | d2.cmpge(d1),
            )
        };
        let (front1, front2) = (front1.bitmask() & live, front2.bitmask() & live);
        ends_out |= front2 != 0;
        starts_out |= front1 != 0;
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
            if d1 > d2 && cross {
                // The last plane crossed is the one entered (`PM_RecursiveHullCheck`'s
                // impact node), and the sweep stops the stop distance off it.
                let crossing = d1 / (d1 - d2);
                if crossing > enter_crossing {
                    enter_crossing = crossing;
                    enter_fraction = ((d1 - SURFACE_CLIP_EPSILON) / (d1 - d2)).max(0.0);
                    enter_plane = Some(side.plane);
                    enter_side = index;
                }
            } else if d1 > d2 {
                let f = ((d1 - SURFACE_CLIP_EPSILON) / (d1 - d2)).max(0.0);
                if f > enter_fraction {
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
                let f = (d1 / (d1 - d2)).min(1.0);
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
            if !within(shape.as_ref(), &core, radius, work.start) {
                refine(
                    work,
                    (brush_id, brush),
                    shape.as_ref(),
                    (&core, radius),
                    0.0,
                    None,
                );
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
    if cross {
        // Entered when the last crossing in comes before the first crossing out; stopped
        // off the plane entered, whatever edge or corner is near (Quake 1's rule).
        let earlier = precedes(work, enter_fraction, enter_plane, brush_id);
        // `<=`: a sweep that ends on a closed side (crossing 1, nothing left) is in.
        if enter_crossing <= leave_fraction && enter_plane.is_some() && earlier {
            record(work, (brush_id, brush), enter_fraction, enter_plane, None);
        }
        return;
    }
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
    let lift = plane.normal * (radius + SURFACE_CLIP_EPSILON);
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
fn refine(
    work: &mut TraceWork<'_, impl Support>,
    brush: (usize, &CompiledBrush),
    shape: Option<&Polytope<'_>>,
    (core, radius): (&Core<'_>, f32),
    from: f32,
    enter_plane: Option<u32>,
) {
    let Some(shape) = shape else {
        // No features (only a degenerate brush of a crafted file): the plane-shifted hit
        // stands.
        record(work, brush, from, enter_plane, None);
        return;
    };
    match contact(shape, core, work.start, work.end, radius, from, 1.0) {
        Contact::Miss => {}
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
}
