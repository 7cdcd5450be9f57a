//! The compiled sides of every model's brushes: each face's plane, then its bevels, in the
//! plane table, with the brushes' records and the tree builder's input.
//!
//! Takes the brushes of each model (the world first) and the options, gives the plane
//! table, the materials, the map data's brushes and sides, and each model's
//! [`BrushInput`]s. Guarantees: planes and materials are numbered in brush order, faces
//! before bevels, box bevels before rounding bevels, whatever thread worked out the bevels
//! (with the `parallel` feature they are worked out on every core first, then numbered in
//! order), so a map always compiles to the same bytes.

use super::tables::MaterialTable;
use super::{CompileOptions, tree_contents};
use crate::brush::{Bevel, Brush, BrushBevels, bevel_source_face, brush_bevels_with, face_reach};
use crate::bsp::{BrushInput, PlaneTable};
use crate::compiled::{CompiledBrush, CompiledSide, MapData};
use crate::surface::SurfaceFlags;
use crate::threads::map_all;

/// What [`bevels_and_sides`] gives: the plane table, the materials, the data's brushes and
/// sides, and each model's tree input.
pub(super) type Sides = (PlaneTable, MaterialTable, MapData, Vec<Vec<BrushInput>>);

/// The bevels of `brush` as the options ask: every family, the box bevels only for a patch
/// facet (`brush_bevels_with`), or none (its reach from its faces alone).
fn bevels_of(brush: &Brush, options: &CompileOptions) -> BrushBevels {
    if options.bevels {
        brush_bevels_with(brush, brush.patch.is_none())
    } else {
        BrushBevels {
            bevels: Vec::new(),
            box_exact: false,
            reach: face_reach(brush),
        }
    }
}

/// The sides, planes and tree inputs of `model_brushes` (see the module doc).
pub(super) fn bevels_and_sides(
    model_brushes: &[(Option<usize>, Vec<&Brush>)],
    options: &CompileOptions,
) -> Sides {
    let all: Vec<&Brush> = model_brushes
        .iter()
        .flat_map(|(_, brushes)| brushes.iter().copied())
        .collect();
    let mut bevel_sets = map_all(&all, |brush| bevels_of(brush, options)).into_iter();
    let mut planes = PlaneTable::new();
    let mut materials = MaterialTable::default();
    let mut data = MapData::default();
    let mut inputs: Vec<Vec<BrushInput>> = Vec::with_capacity(model_brushes.len());
    for (_, brushes) in model_brushes {
        let mut model_inputs = Vec::with_capacity(brushes.len());
        // `map_all` gives one set per brush, in the same order.
        for (brush, bevels) in brushes.iter().zip(bevel_sets.by_ref()) {
            let first_side = data.sides.len() as u32;
            let mut sides = Vec::with_capacity(brush.sides.len());
            let face_materials: Vec<u32> = brush
                .sides
                .iter()
                .map(|side| materials.id(&side.texture))
                .collect();
            for (side, &material) in brush.sides.iter().zip(&face_materials) {
                let id = planes.find_or_add(side.plane);
                data.sides.push(CompiledSide {
                    plane: id.0,
                    bevel: false,
                    surface: side.surface,
                    material,
                });
                sides.push((id, side.winding.clone()));
            }
            // Faces, then Quake's box bevels, then the rounding bevels: box and point sweeps
            // stop reading where their exactness needs no more.
            let (box_bevels, round_bevels): (Vec<&Bevel>, Vec<&Bevel>) =
                bevels.bevels.iter().partition(|b| b.kind.is_box_bevel());
            let face_count = data.sides.len() as u32 - first_side;
            for bevel in box_bevels.iter().chain(round_bevels.iter()) {
                let id = planes.find_or_add(bevel.plane);
                // A bevel carries the movement flags and the material of the face it bevels.
                let source = bevel_source_face(brush, bevel).unwrap_or(0);
                data.sides.push(CompiledSide {
                    plane: id.0,
                    bevel: true,
                    surface: brush
                        .sides
                        .get(source)
                        .map_or(SurfaceFlags::EMPTY, |s| s.surface & SurfaceFlags::MOVEMENT),
                    material: face_materials.get(source).copied().unwrap_or(0),
                });
            }
            let contents = tree_contents(brush);
            data.brushes.push(CompiledBrush {
                contents,
                game_contents: brush.game_contents,
                first_side,
                side_count: data.sides.len() as u32 - first_side,
                face_count,
                box_side_count: face_count + box_bevels.len() as u32,
                mins: brush.mins.as_vec3(),
                maxs: brush.maxs.as_vec3(),
                box_exact: bevels.box_exact,
                // Rounded up, so that the f32 bound is never below the f64 one.
                reach: (bevels.reach as f32).next_up(),
                patch: brush.patch.is_some(),
            });
            model_inputs.push(BrushInput {
                sides,
                contents,
                detail: brush.patch.is_some(),
            });
        }
        inputs.push(model_inputs);
    }
    (planes, materials, data, inputs)
}
