//! A box swept against Quake 3's own patch collision, as the game sweeps it: the query
//! option [`ShapeQuery::with_game_patches`](crate::movement::ShapeQuery::with_game_patches).
//!
//! Takes the level's [`GameCollide`]s (`compiled/game_patches.rs`), a box's half extents
//! and a sweep of its centre; gives the fraction and plane of the first facet entered, with
//! the game's semantics and f32 arithmetic (ioquake3 `cm_patch.c
//! CM_TraceThroughPatchCollide`, `CM_CheckFacetPlane`, `CM_PositionTestInPatchCollide`):
//! each facet's planes pushed out by the box corner its signs pick (`offsets[signbits]`),
//! entered from the front no later than the best hit so far, stopped
//! [`SURFACE_CLIP_EPSILON`] short (`(d1 − ε)/(d1 − d2)` in double, as the game computes
//! it), never hit through its back plane, never start-solid in a sweep; a sweep that does
//! not move is a position test, which a box inside a facet's planes fails. Guarantees: no
//! panic (plane indices were checked when the collision was made), no allocation.
//!
//! The game traces patches after the brushes of each leaf and takes a patch's hit only
//! when strictly closer (`CM_TraceThroughLeaf`, `CM_TraceThroughPatch`); here the brush
//! sweep runs first over the whole world and the patches after it, with the same rule.
//! The game meets a patch only in the tree leaves the sweep reaches; here every patch
//! whose bounds the sweep's bounds meet (`CM_BoundsIntersect`, the same test the game
//! applies next), which differs only where a facet's pushed-out planes reach past the
//! leaves listing it. Which patches are tested first is a speed matter only: a tick's
//! gather (`tick_cache.rs`) lists those near the character, and a sweep inside its region
//! tests only those, in the same increasing order.

use glam::Vec3;

use crate::compiled::GameCollide;
use crate::patch::quake3::PatchCollide;

/// The game's stop distance off a patch facet (`cm_local.h SURFACE_CLIP_EPSILON`), units;
/// the same 1/8 as [`QUAKE3_STOP_DISTANCE`](crate::QUAKE3_STOP_DISTANCE), kept in double
/// where the game divides with it.
const SURFACE_CLIP_EPSILON: f64 = 0.125;

/// The best patch hit of a sweep so far.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PatchHit {
    /// How far the box got.
    pub fraction: f32,
    /// The hit plane as the game reports it: normal and pushed-out distance.
    pub plane: [f32; 4],
    /// Index into the level's game collides.
    pub patch: usize,
}

/// A symmetric box's corners, by sign bits (`CM_Trace`'s `tw.offsets`).
fn offsets(half: Vec3) -> [[f32; 3]; 8] {
    std::array::from_fn(|bits| {
        std::array::from_fn(|k| if bits & (1 << k) != 0 { half[k] } else { -half[k] })
    })
}

#[inline]
fn dot3(a: &[f32; 3], b: &[f32; 4]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `CM_CheckFacetPlane`: `false` when the sweep lies wholly in front of `plane` (it
/// misses the facet); otherwise narrows `enter..leave`, `hit` when `plane` moved the enter.
fn check_plane(plane: &[f32; 4], start: &[f32; 3], end: &[f32; 3], span: &mut (f32, f32), hit: &mut bool) -> bool {
    *hit = false;
    let d1 = dot3(start, plane) - plane[3];
    let d2 = dot3(end, plane) - plane[3];
    if d1 > 0.0 && (f64::from(d2) >= SURFACE_CLIP_EPSILON || d2 >= d1) {
        return false;
    }
    if d1 <= 0.0 && d2 <= 0.0 {
        return true;
    }
    let across = f64::from(d1 - d2);
    if d1 > d2 {
        let mut f = ((f64::from(d1) - SURFACE_CLIP_EPSILON) / across) as f32;
        if f < 0.0 {
            f = 0.0;
        }
        if f > span.0 {
            span.0 = f;
            *hit = true;
        }
    } else {
        let mut f = ((f64::from(d1) + SURFACE_CLIP_EPSILON) / across) as f32;
        if f > 1.0 {
            f = 1.0;
        }
        if f < span.1 {
            span.1 = f;
        }
    }
    true
}

/// The sweep's bounds (`CM_Trace`'s `tw.bounds`) against the collision's, as
/// `CM_BoundsIntersect` tests them (with [`SURFACE_CLIP_EPSILON`] slack).
fn bounds_meet(start: Vec3, end: Vec3, half: Vec3, c: &PatchCollide) -> bool {
    (0..3).all(|k| {
        let (lo, hi) = if start[k] < end[k] {
            (start[k] - half[k], end[k] + half[k])
        } else {
            (end[k] - half[k], start[k] + half[k])
        };
        !(f64::from(hi) < f64::from(c.mins[k]) - SURFACE_CLIP_EPSILON
            || f64::from(lo) > f64::from(c.maxs[k]) + SURFACE_CLIP_EPSILON)
    })
}

/// The facet plane `index` as the sweep meets it: reversed when `flip`, its distance
/// moved out by the box corner its signs pick (`CM_TraceThroughPatchCollide`).
fn pushed(c: &PatchCollide, index: u32, flip: bool, corners: &[[f32; 3]; 8], surface: bool) -> [f32; 4] {
    let Some(p) = c.planes.get(index as usize) else {
        // Unreachable for a collision made by `patch_collide`; a plane no box reaches.
        return [0.0, 0.0, 0.0, f32::INFINITY];
    };
    let mut plane = if flip {
        [-p.plane[0], -p.plane[1], -p.plane[2], -p.plane[3]]
    } else {
        p.plane
    };
    let offset = dot3(&corners[usize::from(p.signbits & 7)], &plane);
    if surface {
        plane[3] -= offset;
    } else {
        plane[3] += offset.abs();
    }
    plane
}

/// `CM_TraceThroughPatchCollide` for a box of half extents `half` swept `start → end`
/// (its centre): lowers `best` to the first facet entered before it.
fn trace_collide(c: &PatchCollide, (start, end): (Vec3, Vec3), half: Vec3, best: &mut f32) -> Option<[f32; 4]> {
    if !bounds_meet(start, end, half, c) {
        return None;
    }
    let corners = offsets(half);
    let (s, e) = (start.to_array(), end.to_array());
    let mut found = None;
    for facet in &c.facets {
        let mut span = (-1.0f32, 1.0f32);
        let mut hit = false;
        let mut hit_border: i64 = -1;
        let plane = pushed(c, facet.surface_plane, false, &corners, true);
        if !check_plane(&plane, &s, &e, &mut span, &mut hit) {
            continue;
        }
        let mut best_plane = if hit { plane } else { [0.0; 4] };
        let mut missed = false;
        for (j, border) in facet.borders.iter().enumerate() {
            let plane = pushed(c, border.plane, border.inward, &corners, false);
            if !check_plane(&plane, &s, &e, &mut span, &mut hit) {
                missed = true;
                break;
            }
            if hit {
                hit_border = j as i64;
                best_plane = plane;
            }
        }
        if missed || hit_border == facet.borders.len() as i64 - 1 {
            // Missed, or entered through the back plane (never clipped against).
            continue;
        }
        let (enter, leave) = span;
        if enter < leave && enter >= 0.0 && enter < *best {
            *best = enter;
            found = Some(best_plane);
        }
    }
    found
}

/// Whether the box centred at `at` lies within some facet's pushed-out planes. With
/// `TOUCH_COUNTS` a box exactly on a plane is within, as the game's
/// `CM_PositionTestInPatchCollide` has it (the movement's test); without, only a box crossing
/// every plane with depth is ([`patch_penetrated`], for judges).
fn inside_collide<const TOUCH_COUNTS: bool>(c: &PatchCollide, at: Vec3, half: Vec3) -> bool {
    let corners = offsets(half);
    let p = at.to_array();
    // The same comparisons as the game's for the movement's test, NaN included.
    let within = |d: f32| if TOUCH_COUNTS { d <= 0.0 } else { d < 0.0 };
    c.facets.iter().any(|facet| {
        let plane = pushed(c, facet.surface_plane, false, &corners, true);
        let d = dot3(&p, &plane) - plane[3];
        let in_front = if TOUCH_COUNTS { d > 0.0 } else { !within(d) };
        if in_front {
            return false;
        }
        facet.borders.iter().all(|border| {
            let plane = pushed(c, border.plane, border.inward, &corners, false);
            within(dot3(&p, &plane) - plane[3])
        })
    })
}

/// Whether the box centred at `at` lies strictly inside some facet's pushed-out planes
/// (every plane's distance below zero) of `patches` (those `mask_meets` lets through): the
/// box overlaps the facet with depth. [`patch_containing`] is the game's own test, which
/// counts a box exactly on a plane (distance 0) as inside; the game's sweeps never stop
/// short of a facet's back plane, so a player may rest exactly on one (dm17ish's double
/// banner: two flat patches 1/8 apart, facing through each other, so the stop 1/8 in front
/// of the outer one is the inner one's back plane). Judges, not movement, ask this.
pub(crate) fn patch_penetrated(
    patches: &[GameCollide],
    at: Vec3,
    half: Vec3,
    mask_meets: impl Fn(&GameCollide) -> bool,
) -> bool {
    patches
        .iter()
        .any(|g| mask_meets(g) && inside_collide::<false>(&g.collide, at, half))
}

/// The first of `patches` (those `mask_meets` lets through; only those `listed`, increasing,
/// when given) that the box of half extents `half` enters sweeping `start → end` before
/// `fraction`, in the game's order (each patch's hit taken only when strictly closer than
/// the best so far). A list must hold every patch whose bounds the sweep's box meets (a
/// tick's gather, `tick_cache.rs`): the others are missed by their bounds test anyway, so
/// the answer is the same.
pub(crate) fn trace_patches(
    patches: &[GameCollide],
    listed: Option<&[u32]>,
    (start, end): (Vec3, Vec3),
    half: Vec3,
    fraction: f32,
    mask_meets: impl Fn(&GameCollide) -> bool,
) -> Option<PatchHit> {
    let mut best = fraction;
    let mut hit = None;
    let mut each = |index: usize, patch: &GameCollide| -> bool {
        if !mask_meets(patch) {
            return true;
        }
        if let Some(plane) = trace_collide(&patch.collide, (start, end), half, &mut best) {
            hit = Some(PatchHit {
                fraction: best,
                plane,
                patch: index,
            });
        }
        best != 0.0
    };
    match listed {
        Some(listed) => {
            for &index in listed {
                let index = index as usize;
                if let Some(patch) = patches.get(index)
                    && !each(index, patch)
                {
                    break;
                }
            }
        }
        None => {
            for (index, patch) in patches.iter().enumerate() {
                if !each(index, patch) {
                    break;
                }
            }
        }
    }
    hit
}

/// The first of `patches` (those `mask_meets` lets through) the box of half extents
/// `half` centred at `at` lies in (the game's position test).
pub(crate) fn patch_containing(
    patches: &[GameCollide],
    at: Vec3,
    half: Vec3,
    mask_meets: impl Fn(&GameCollide) -> bool,
) -> Option<usize> {
    patches
        .iter()
        .position(|p| mask_meets(p) && inside_collide::<true>(&p.collide, at, half))
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::{patch_containing, patch_penetrated, trace_patches};
    use crate::compiled::GameCollide;
    use crate::contents::Contents;
    use crate::patch::quake3::patch_collide;
    use crate::surface::SurfaceFlags;

    /// A flat 3 × 3 patch over `0..64` in x and y at z = 0, facing up.
    fn floor() -> Vec<GameCollide> {
        let points: Vec<Vec3> = (0..9)
            .map(|k| Vec3::new(32.0 * (k % 3) as f32, 32.0 * (k / 3) as f32, 0.0))
            .collect();
        let collide = patch_collide(3, 3, &points).unwrap();
        vec![GameCollide {
            collide,
            contents: Contents::SOLID,
            surface: SurfaceFlags::EMPTY,
            material: None,
        }]
    }

    const HALF: Vec3 = Vec3::new(15.0, 15.0, 28.0);

    /// The facet's front, whichever way the grid's winding made its normal.
    fn up(patches: &[GameCollide]) -> f32 {
        let c = &patches[0].collide;
        c.planes[c.facets[0].surface_plane as usize].plane[2].signum()
    }

    #[test]
    fn a_box_stops_an_eighth_in_front_of_a_facet_and_passes_from_behind() {
        let patches = floor();
        let side = up(&patches);
        let (above, below) = (Vec3::new(32.0, 32.0, 100.0 * side), Vec3::new(32.0, 32.0, -100.0 * side));
        let hit = trace_patches(&patches, None, (above, below), HALF, 1.0, |_| true).unwrap();
        let stop = above.z + (below.z - above.z) * hit.fraction;
        assert!((stop - side * (28.0 + 0.125)).abs() < 1e-3, "{stop}");
        assert_eq!(hit.plane[2], side);
        // From behind: the facet has no thickness and is never met through its back.
        assert!(trace_patches(&patches, None, (below, above), HALF, 1.0, |_| true).is_none());
        // A hit no closer than the best so far is not taken, nor a patch the mask leaves out.
        assert!(trace_patches(&patches, None, (above, below), HALF, hit.fraction, |_| true).is_none());
        assert!(trace_patches(&patches, None, (above, below), HALF, 1.0, |_| false).is_none());
        // Beside the patch: nothing.
        let beside = Vec3::new(200.0, 32.0, 0.0);
        assert!(trace_patches(&patches, None, (beside + above, beside + below), HALF, 1.0, |_| true).is_none());
    }

    #[test]
    fn a_list_of_patches_answers_as_all_of_them_when_it_holds_those_met() {
        let patches = floor();
        let side = up(&patches);
        let (above, below) = (Vec3::new(32.0, 32.0, 100.0 * side), Vec3::new(32.0, 32.0, -100.0 * side));
        let all = trace_patches(&patches, None, (above, below), HALF, 1.0, |_| true).map(|h| (h.fraction, h.patch));
        let listed = trace_patches(&patches, Some(&[0]), (above, below), HALF, 1.0, |_| true).map(|h| (h.fraction, h.patch));
        assert!(all.is_some());
        assert_eq!(listed, all);
        // A list without the patch misses it; an index past the end is skipped.
        assert!(trace_patches(&patches, Some(&[]), (above, below), HALF, 1.0, |_| true).is_none());
        assert!(trace_patches(&patches, Some(&[7]), (above, below), HALF, 1.0, |_| true).is_none());
    }

    #[test]
    fn a_box_overlapping_a_facet_fails_the_position_test() {
        let patches = floor();
        let side = up(&patches);
        assert_eq!(patch_containing(&patches, Vec3::new(32.0, 32.0, 20.0 * side), HALF, |_| true), Some(0));
        assert_eq!(patch_containing(&patches, Vec3::new(32.0, 32.0, 40.0 * side), HALF, |_| true), None);
        assert_eq!(patch_containing(&patches, Vec3::new(32.0, 32.0, 20.0 * side), HALF, |_| false), None);
    }

    #[test]
    fn a_box_exactly_on_a_facet_plane_is_in_the_games_test_but_not_penetrating() {
        let patches = floor();
        let side = up(&patches);
        // The box's face exactly on the facet's front (28 above) and on its back (28 below).
        for z in [28.0 * side, -28.0 * side] {
            let at = Vec3::new(32.0, 32.0, z);
            assert_eq!(patch_containing(&patches, at, HALF, |_| true), Some(0), "{z}");
            assert!(!patch_penetrated(&patches, at, HALF, |_| true), "{z}");
        }
        // Crossing it by any depth, from either side, penetrates.
        for z in [27.75 * side, -27.75 * side, 0.0] {
            assert!(patch_penetrated(&patches, Vec3::new(32.0, 32.0, z), HALF, |_| true), "{z}");
        }
        assert!(!patch_penetrated(&patches, Vec3::new(32.0, 32.0, 0.0), HALF, |_| false));
    }
}
