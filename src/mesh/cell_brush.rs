//! A convex cell of the mesh's tree (or a slab's planes) as a brush that means what its
//! material means: shared by the solid cells (`solid_bsp.rs`) and the slabs (`slabs.rs`).
//!
//! Takes the cell's planes (or its region's faces, already cut), the materials' meanings and which material names each side;
//! gives the brush with its contents, game contents, surface flags and side textures, owned
//! by the world, and the source location a mesh's brush reports (its index standing in for
//! a line). Guarantees: no panic; a degenerate cell or an unknown material gives `None`.

use super::cells::{MaterialMeaning, PolytopeFace};
use crate::brush::{Brush, BrushOwner, BrushSide, brush_from_planes, brush_from_sides};
use crate::surface::SurfaceFlags;
use crate::geom::BuildPlane;
use crate::map::SourceLoc;

/// A brush from `planes` with `meaning`, each side named by `side_material` (or the
/// meaning's own name).
pub(super) fn make_brush(
    planes: &[BuildPlane],
    meanings: &[MaterialMeaning],
    material: u32,
    side_material: impl Fn(&BuildPlane) -> Option<u32>,
    loc: SourceLoc,
) -> Option<Brush> {
    let meaning = meanings.get(material as usize)?;
    let brush = brush_from_planes(planes, meaning.contents, &meaning.name, loc).ok()??;
    Some(dress(brush, meanings, meaning, side_material))
}

/// The brush of a tree cell's region `faces` (its polygons already cut, each plane once)
/// with `material`'s meaning, each side named by the material of the face that gave its
/// plane (or the meaning's own name): [`make_brush`] without cutting the polygons again.
pub(super) fn region_brush(
    faces: &[PolytopeFace],
    meanings: &[MaterialMeaning],
    material: u32,
    loc: SourceLoc,
) -> Option<Brush> {
    let meaning = meanings.get(material as usize)?;
    let sides: Vec<BrushSide> = faces
        .iter()
        .map(|f| BrushSide {
            plane: f.plane,
            winding: f.winding.clone(),
            texture: meaning.name.clone(),
            surface: SurfaceFlags::EMPTY,
            loc,
        })
        .collect();
    let brush = brush_from_sides(sides, meaning.contents, loc).ok()??;
    let side_material = |plane: &BuildPlane| {
        faces
            .iter()
            .find(|f| f.plane.is_same(plane))
            .and_then(|f| f.material)
    };
    Some(dress(brush, meanings, meaning, side_material))
}

/// `brush` given `meaning` and each side named by `side_material` (or the meaning's own
/// name).
fn dress(
    mut brush: Brush,
    meanings: &[MaterialMeaning],
    meaning: &MaterialMeaning,
    side_material: impl Fn(&BuildPlane) -> Option<u32>,
) -> Brush {
    for side in &mut brush.sides {
        if let Some(m) = side_material(&side.plane).and_then(|m| meanings.get(m as usize)) {
            side.texture.clone_from(&m.name);
            side.surface = m.surface;
        } else {
            side.surface = meaning.surface;
        }
    }
    brush.game_contents = meaning.game_contents;
    brush.solid = brush.contents.is_solid();
    brush.owner = BrushOwner::World;
    brush
}

/// A located note's place for brush `index` (a mesh has no lines: the count stands in).
pub(super) fn loc_of(index: usize) -> SourceLoc {
    SourceLoc {
        line: u32::try_from(index).unwrap_or(u32::MAX).saturating_add(1),
        column: 1,
    }
}
