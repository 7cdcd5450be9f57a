//! The Quake 3 importer: IBSP 46 to an [`ImportedLevel`].
//!
//! Takes the file's bytes and the patch tolerance; gives its entities, its brushes with the
//! contents of the brush's shader and each side's surface flags from its own shader
//! (`cm_load.c CMod_LoadBrushes`, `CMod_LoadBrushSides`), translated as a Quake 3 `.map`'s
//! are ([`contents_from_quake3`], [`SurfaceFlags::from_quake3`]), each submodel owning its
//! brush range; and its curved patches (surfaces of type 2) cut into facet brushes by the
//! same stage as a `.map`'s patches, with their shader's meaning, and the world's patches'
//! control grids kept as Quake 3 collides with them ([`GamePatches`]; a grid the game's
//! collision refuses is left out of them with a warning). Guarantees: every index,
//! count and range read is checked (a bad one is an [`ImportError`] naming its lump); a
//! trigger entity's brushes and patches are its volume, as the `.map` path makes them.

use super::brushes::{
    MAX_STORED_SIDES, StoredMeaning, StoredSide, add_stored_brush, read_plane, record_loc,
};
use super::{BspFormat, ImportError, ImportedLevel, Lump, Lumps, entities_from_lump};
use glam::Vec3;

use crate::brush::{
    BrushOutput, BrushOwner, Diagnostic, DiagnosticKind, MeantPatch, PatchMeaning, Severity,
    add_meant_patches,
};
use crate::compiled::{GamePatch, GamePatches};
use crate::patch::quake3::patch_collide;
use crate::game::custom::CustomRules;
use crate::game::rules::{GameRules, contents_from_quake3};
use crate::map::{MapFile, MapPatch};
use crate::surface::SurfaceFlags;

const ENTITIES: Lump = Lump {
    index: 0,
    name: "entities",
};
const SHADERS: Lump = Lump {
    index: 1,
    name: "shaders",
};
const PLANES: Lump = Lump {
    index: 2,
    name: "planes",
};
const MODELS: Lump = Lump {
    index: 7,
    name: "models",
};
const BRUSHES: Lump = Lump {
    index: 8,
    name: "brushes",
};
const BRUSHSIDES: Lump = Lump {
    index: 9,
    name: "brushsides",
};
const DRAWVERTS: Lump = Lump {
    index: 10,
    name: "drawverts",
};
const SURFACES: Lump = Lump {
    index: 13,
    name: "surfaces",
};

/// Lumps in a Quake 3 header.
const LUMP_COUNT: usize = 17;

/// `MST_PATCH`, a surface that is a curved patch.
const SURFACE_PATCH: i32 = 2;

/// The largest patch side (control points) read: Quake 3's `MAX_GRID_SIZE` (`cm_patch.h`).
const MAX_PATCH_SIDE: usize = 129;

/// A shader's name and bits.
struct Shader {
    name: String,
    surface: u32,
    contents: u32,
}

/// Reads a Quake 3 (IBSP 46) file, cutting patches to `patch_tolerance` map units.
pub(super) fn read(
    bytes: &[u8],
    format: BspFormat,
    patch_tolerance: f64,
    custom: Option<&CustomRules>,
) -> Result<ImportedLevel, ImportError> {
    let rules = GameRules::of(format.game(), custom);
    let lumps = Lumps::new(bytes, format.name(), 8, LUMP_COUNT)?;
    let map = entities_from_lump(&lumps, ENTITIES)?;
    let shaders: Vec<Shader> = lumps
        .records(SHADERS, 72)?
        .iter()
        .map(|r| Shader {
            name: r.name(0, 64),
            surface: r.u32(64),
            contents: r.u32(68),
        })
        .collect();
    let shader_records = lumps.records(SHADERS, 72)?;
    let shader = |index: i32| {
        usize::try_from(index)
            .ok()
            .and_then(|i| shaders.get(i))
            .ok_or_else(|| {
                shader_records.error(format!(
                    "shader {index} named, past the {} stored",
                    shaders.len()
                ))
            })
    };
    let planes = lumps.records(PLANES, 16)?;
    let models = lumps.records(MODELS, 40)?;
    let brushes = lumps.records(BRUSHES, 12)?;
    let brushsides = lumps.records(BRUSHSIDES, 8)?;
    let surfaces = lumps.records(SURFACES, 104)?;
    let verts = lumps.records(DRAWVERTS, 44)?;

    // Each model's owner: the world, or the entity whose "model" is "*k".
    let owners = model_owners(&map, models.len());
    let mut brush_owner: Vec<Option<BrushOwner>> = vec![None; brushes.len()];
    let mut surface_owner: Vec<Option<BrushOwner>> = vec![None; surfaces.len()];
    for (k, model) in models.iter().enumerate() {
        let Some(owner) = owners.get(k).copied().flatten() else {
            continue;
        };
        let ranges = [
            (model.i32(32), model.i32(36), &mut brush_owner, "brushes"),
            (model.i32(24), model.i32(28), &mut surface_owner, "surfaces"),
        ];
        for (first, count, slots, what) in ranges {
            let range = checked_range(first, count, slots.len());
            let Some((first, count)) = range else {
                return Err(models.error(format!(
                    "model {k} names {what} {first}+{count}, past the {} stored",
                    slots.len()
                )));
            };
            for slot in slots.iter_mut().skip(first).take(count) {
                slot.get_or_insert(owner);
            }
        }
    }

    let mut out = BrushOutput::default();
    let mut sides = Vec::new();
    for (index, record) in brushes.iter().enumerate() {
        let (first, count) = (record.i32(0), record.i32(4));
        let Some((first, count)) =
            checked_range(first, count, brushsides.len()).filter(|&(_, c)| c <= MAX_STORED_SIDES)
        else {
            return Err(brushes.error(format!(
                "brush {index} has sides {first}+{count}, not within the {} stored (at most {MAX_STORED_SIDES} a brush)",
                brushsides.len()
            )));
        };
        let bits = shader(record.i32(8))?.contents;
        // A brush in no model is never collided with by the game: left out.
        let Some(owner) = brush_owner.get(index).copied().flatten() else {
            continue;
        };
        sides.clear();
        for at in first..first + count {
            let side = brushsides.get(at)?;
            let plane = usize::try_from(side.i32(0))
                .map_err(|_| brushsides.error(format!("side {at} names a negative plane")))?;
            let side_shader = shader(side.i32(4))?;
            sides.push(StoredSide {
                plane: read_plane(&planes, plane)?,
                texture: side_shader.name.clone(),
                surface: SurfaceFlags::from_quake3(side_shader.surface),
            });
        }
        let meaning = meaning(&map, rules, owner, bits);
        let meaning = StoredMeaning {
            contents: meaning.contents,
            game_contents: bits,
            solid: meaning.solid,
            owner,
        };
        add_stored_brush(&mut out, &sides, meaning, record_loc(index));
    }

    // Patches, in surface order.
    let mut patches: Vec<(BrushOwner, MapPatch, PatchMeaning)> = Vec::new();
    // The world's patches as the game collides with them (`cm_load.c CMod_LoadPatches`:
    // the drawverts' f32 positions, the shader's contents and flags).
    let mut game_patches = GamePatches::default();
    for (index, surface) in surfaces.iter().enumerate() {
        if surface.i32(8) != SURFACE_PATCH {
            continue;
        }
        let Some(owner) = surface_owner.get(index).copied().flatten() else {
            continue;
        };
        let shader = shader(surface.i32(0))?;
        let (width, height) = (surface.i32(96), surface.i32(100));
        let size = usize::try_from(width)
            .ok()
            .zip(usize::try_from(height).ok())
            .filter(|&(w, h)| w <= MAX_PATCH_SIDE && h <= MAX_PATCH_SIDE);
        let first = usize::try_from(surface.i32(12)).ok();
        let Some(((width, height), first)) = size.zip(first) else {
            return Err(surfaces.error(format!(
                "patch {index} is {width}×{height} control points from vertex {}, not a patch this reader takes (at most {MAX_PATCH_SIDE} a side)",
                surface.i32(12)
            )));
        };
        if first
            .checked_add(width * height)
            .is_none_or(|e| e > verts.len())
        {
            return Err(verts.error(format!(
                "patch {index} reads vertices {first}+{}, past the {} stored",
                width * height,
                verts.len()
            )));
        }
        let mut rows = Vec::with_capacity(width);
        for i in 0..width {
            let mut column = Vec::with_capacity(height);
            for j in 0..height {
                let v = verts.get(first + j * width + i)?;
                column.push(vec![
                    f64::from(v.f32(0)),
                    f64::from(v.f32(4)),
                    f64::from(v.f32(8)),
                    f64::from(v.f32(12)),
                    f64::from(v.f32(16)),
                ]);
            }
            rows.push(column);
        }
        let patch = MapPatch {
            kind: "patchDef2".to_owned(),
            texture: shader.name.clone(),
            header: vec![width as f64, height as f64, 0.0, 0.0, 0.0],
            rows,
            loc: record_loc(index),
        };
        let mut meaning = meaning(&map, rules, owner, shader.contents);
        meaning.surface = SurfaceFlags::from_quake3(shader.surface);
        if owner == BrushOwner::World {
            let points = (0..width * height)
                .map(|k| verts.get(first + k).map(|v| Vec3::new(v.f32(0), v.f32(4), v.f32(8))))
                .collect::<Result<Vec<_>, _>>()?;
            let game = GamePatch {
                width: width as u32,
                height: height as u32,
                points,
                contents: meaning.contents,
                surface: meaning.surface,
                texture: shader.name.clone(),
            };
            match patch_collide(width, height, &game.points) {
                Ok(_) => game_patches.patches.push(game),
                Err(problem) => out.diagnostics.push(Diagnostic {
                    loc: patch.loc,
                    severity: Severity::Warning,
                    kind: DiagnosticKind::PatchesIgnored,
                    message: format!("patch left out of the game's patch collision: {problem}"),
                }),
            }
        }
        patches.push((owner, patch, meaning));
    }
    let meant: Vec<MeantPatch<'_>> = patches
        .iter()
        .enumerate()
        .map(|(index, (owner, patch, meaning))| MeantPatch {
            owner: *owner,
            index,
            patch,
            meaning: *meaning,
        })
        .collect();
    add_meant_patches(&mut out, &meant, patch_tolerance);

    Ok(ImportedLevel {
        format,
        game: format.game(),
        map,
        brushes: out,
        void_filled: false,
        clip_hulls: crate::compiled::ClipHulls::default(),
        game_patches,
    })
}

/// `first..first + count` when both are non-negative and it lies within `len`.
fn checked_range(first: i32, count: i32, len: usize) -> Option<(usize, usize)> {
    let first = usize::try_from(first).ok()?;
    let count = usize::try_from(count).ok()?;
    (first.checked_add(count)? <= len).then_some((first, count))
}

/// Each model's owner: model 0 the world, model k the first entity whose `"model"` is
/// `"*k"` (whatever its class: the compiler kept it apart from the world); `None` for a model no entity
/// names, which the game never places.
fn model_owners(map: &MapFile, count: usize) -> Vec<Option<BrushOwner>> {
    let mut owners = vec![None; count];
    if let Some(world) = owners.first_mut() {
        *world = Some(BrushOwner::World);
    }
    for (index, entity) in map.entities.iter().enumerate() {
        let Some(slot) = super::submodel_index(entity).and_then(|k| owners.get_mut(k)) else {
            continue;
        };
        if slot.is_none() {
            *slot = Some(BrushOwner::Entity(index));
        }
    }
    owners
}

/// The meaning of shader contents `bits` in `owner`'s model: a trigger entity's are its
/// volume, as the `.map` path makes them.
fn meaning(map: &MapFile, rules: GameRules<'_>, owner: BrushOwner, bits: u32) -> PatchMeaning {
    let classname = match owner {
        BrushOwner::Entity(e) => map.entities.get(e).map_or("", |e| e.classname()),
        BrushOwner::World => "worldspawn",
    };
    let (contents, solid) = rules.brush_in_entity(classname, contents_from_quake3(bits), false);
    PatchMeaning {
        contents,
        game_contents: bits,
        solid,
        surface: SurfaceFlags::EMPTY,
    }
}
