//! Merging hull-0 regions whose union is convex, so the brush stage gets fewer, larger
//! brushes.
//!
//! Takes one model's regions (`regions.rs`: convex brushes that tile the model's leaves);
//! gives regions covering the same space, two regions replaced by one wherever they lie on
//! either side of one plane, mean the same (contents, the game's value, owner) and their
//! union is convex. The test: if region `A` lies behind plane `P` and `B` in front (each
//! has it as a side), then `C`, the intersection of the sides of both but `P` and `−P`,
//! satisfies `C ∩ behind(P) ⊆ A` and `C ∩ front(P) ⊆ B`, so `C ⊆ A ∪ B` always, and
//! `C = A ∪ B` exactly when every corner of `A` lies behind every side of `B` but `−P`
//! and every corner of `B` behind every side of `A` but `P` (ericw-tools' `merge.cc`
//! merges faces by the same kind of test). Within [`MERGE_EPSILON`], so a merged region
//! never reaches beyond the two, and misses at most a sliver that thin.
//!
//! Guarantees: every merged region is a valid brush (`brush_from_planes`, within the face
//! limit; a union it rejects is not merged); each side keeps the texture and the surface
//! flags one of the two had on its plane (a mesh's sky and slick sides stay so where a
//! trace hits the union); deterministic (regions are visited in order, candidates by plane in
//! the order they were made); each merge removes a region, so the work ends.

use glam::DVec3;
use rustc_hash::FxHashMap;

use crate::brush::{Brush, brush_from_planes};
use crate::geom::BuildPlane;

/// How far a corner of one region may lie in front of a side of the other for their union
/// to count as convex, in map units. The regions' corners are cut in `f64` from the file's
/// planes, exact to far below this; a sliver this thin is below what the `f32` runtime
/// resolves (its stop distance is 1/32 unit).
const MERGE_EPSILON: f64 = 1e-3;

/// A plane's exact bits: regions share the file's planes exactly (a side and its
/// neighbour's are one plane and its flip), so exact keys find every candidate.
fn key(plane: &BuildPlane) -> [u64; 4] {
    // Adding zero makes −0 and +0 one key.
    [
        (plane.normal.x + 0.0).to_bits(),
        (plane.normal.y + 0.0).to_bits(),
        (plane.normal.z + 0.0).to_bits(),
        (plane.dist + 0.0).to_bits(),
    ]
}

/// Whether `a` and `b` may become one brush: the same meaning and model.
fn same_meaning(a: &Brush, b: &Brush) -> bool {
    a.contents == b.contents
        && a.game_contents == b.game_contents
        && a.solid == b.solid
        && a.owner == b.owner
        && a.patch.is_none()
        && b.patch.is_none()
}

/// Whether every corner of `region` lies behind every side of `other` except `skip`.
fn behind_sides(region: &Brush, other: &Brush, skip: &BuildPlane) -> bool {
    let corners = || region.sides.iter().flat_map(|s| s.winding.points.iter());
    other
        .sides
        .iter()
        .filter(|s| !s.plane.is_same(skip))
        .all(|s| corners().all(|&p: &DVec3| s.plane.distance(p) <= MERGE_EPSILON))
}

/// The union of `a` (behind `plane`) and `b` (in front of it) as one brush, when it is
/// convex (module docs).
fn merged(a: &Brush, b: &Brush, plane: &BuildPlane) -> Option<Brush> {
    let flipped = plane.flipped();
    if !(a.mins - MERGE_EPSILON).cmple(b.maxs).all()
        || !(b.mins - MERGE_EPSILON).cmple(a.maxs).all()
    {
        return None;
    }
    if !behind_sides(a, b, &flipped) || !behind_sides(b, a, plane) {
        return None;
    }
    let mut planes: Vec<BuildPlane> = Vec::with_capacity(a.sides.len() + b.sides.len());
    for side in a.sides.iter().chain(&b.sides) {
        let p = side.plane;
        if !p.is_same(plane) && !p.is_same(&flipped) && !planes.iter().any(|q| q.is_same(&p)) {
            planes.push(p);
        }
    }
    let mut brush = brush_from_planes(&planes, a.contents, "", a.loc.min(b.loc)).ok()??;
    for side in &mut brush.sides {
        if let Some(own) = a
            .sides
            .iter()
            .chain(&b.sides)
            .find(|s| s.plane.is_same(&side.plane))
        {
            side.texture.clone_from(&own.texture);
            side.surface = own.surface;
        }
    }
    brush.game_contents = a.game_contents;
    brush.solid = a.solid;
    brush.owner = a.owner;
    Some(brush)
}

/// A candidate on a plane: its slot and its bounds (read in the scan without touching the
/// brush).
type Candidate = (usize, DVec3, DVec3);

/// `regions` with every pair whose union is convex merged, greedily (module docs).
pub(crate) fn merge_regions(regions: Vec<Brush>) -> Vec<Brush> {
    let mut slots: Vec<Option<Brush>> = regions.into_iter().map(Some).collect();
    let mut by_plane: FxHashMap<[u64; 4], Vec<Candidate>> = FxHashMap::default();
    let candidate = |index: usize, brush: &Brush| -> Candidate {
        (index, brush.mins, brush.maxs)
    };
    for (index, region) in slots.iter().enumerate() {
        if let Some(region) = region {
            for side in &region.sides {
                by_plane
                    .entry(key(&side.plane))
                    .or_default()
                    .push(candidate(index, region));
            }
        }
    }
    let mut next = 0;
    while next < slots.len() {
        let index = next;
        next += 1;
        let mut found: Option<(usize, Brush)> = None;
        if let Some(Some(region)) = slots.get(index) {
            'sides: for side in &region.sides {
                let Some(candidates) = by_plane.get_mut(&key(&side.plane.flipped())) else {
                    continue;
                };
                // Merged regions leave the lists in order, so the scan stays short.
                candidates.retain(|&(other, _, _)| matches!(slots.get(other), Some(Some(_))));
                let low = region.mins - MERGE_EPSILON;
                for &(other, mins, maxs) in candidates.iter() {
                    // The bounds test of `merged`, first.
                    if other == index
                        || !low.cmple(maxs).all()
                        || !(mins - MERGE_EPSILON).cmple(region.maxs).all()
                    {
                        continue;
                    }
                    let Some(Some(neighbour)) = slots.get(other) else {
                        continue;
                    };
                    if !same_meaning(region, neighbour) {
                        continue;
                    }
                    if let Some(union) = merged(region, neighbour, &side.plane) {
                        found = Some((other, union));
                        break 'sides;
                    }
                }
            }
        }
        if let Some((other, union)) = found {
            let made = slots.len();
            for side in &union.sides {
                by_plane
                    .entry(key(&side.plane))
                    .or_default()
                    .push(candidate(made, &union));
            }
            for slot in [index, other] {
                if let Some(s) = slots.get_mut(slot) {
                    *s = None;
                }
            }
            slots.push(Some(union));
        }
    }
    slots.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contents::Contents;
    use crate::map::SourceLoc;
    use crate::surface::SurfaceFlags;

    /// The box `lo`–`hi` as a solid region, every side named `texture` with `surface`.
    fn region(lo: DVec3, hi: DVec3, texture: &str, surface: SurfaceFlags) -> Option<Brush> {
        let mut planes = Vec::new();
        for axis in [DVec3::X, DVec3::Y, DVec3::Z] {
            planes.push(BuildPlane::from_normal_dist(axis, hi.dot(axis))?);
            planes.push(BuildPlane::from_normal_dist(-axis, -lo.dot(axis))?);
        }
        let loc = SourceLoc { line: 1, column: 1 };
        let mut brush = brush_from_planes(&planes, Contents::SOLID, texture, loc).ok()??;
        for side in &mut brush.sides {
            side.surface = surface;
        }
        Some(brush)
    }

    /// Two boxes that make one: the union is one brush, and each of its sides keeps the
    /// texture and the surface flags (a sky's, a slick floor's) of the region's side on its
    /// plane, which a trace reports where it hits.
    #[test]
    fn a_merged_region_keeps_its_sides_textures_and_surface_flags() {
        let (Some(a), Some(b)) = (
            region(DVec3::ZERO, DVec3::new(64.0, 64.0, 64.0), "sky1", SurfaceFlags::SKY),
            region(
                DVec3::new(64.0, 0.0, 0.0),
                DVec3::new(128.0, 64.0, 64.0),
                "ice",
                SurfaceFlags::SLICK,
            ),
        ) else {
            panic!("the regions are boxes");
        };
        let merged = merge_regions(vec![a, b]);
        assert_eq!(merged.len(), 1, "{merged:?}");
        let union = &merged[0];
        assert_eq!(union.sides.len(), 6);
        for side in &union.sides {
            let (texture, surface) = if side.plane.normal == DVec3::X {
                ("ice", SurfaceFlags::SLICK)
            } else {
                ("sky1", SurfaceFlags::SKY)
            };
            assert_eq!((side.texture.as_str(), side.surface), (texture, surface), "{side:?}");
        }
    }
}
