//! The Quake 2 importer: IBSP 38 and Qbism's QBSP 38 (wider records) to an
//! [`ImportedLevel`].
//!
//! Takes the file's bytes; gives its entities, and its brushes with their contents (the
//! brush's own bits, resolved by qbsp3 `map.c BrushContents`, translated as a Quake 2 `.map`'s
//! are: [`contents_from_quake2`]) and each side's flags and material from its texinfo
//! (texinfo −1: none), each brush owned by the model whose leaves under `headnode` list it
//! first. Guarantees: every index and count read is checked (a bad one is an
//! [`ImportError`] naming its lump); the node walk visits each node once, so a cyclic tree
//! cannot hang it; a trigger entity's brushes are its volume, as the `.map` path makes them.

use super::brushes::{
    MAX_STORED_SIDES, StoredMeaning, StoredSide, add_stored_brush, read_plane, record_loc,
};
use super::{BspFormat, ImportError, ImportedLevel, Lump, Lumps, Records, entities_from_lump};
use crate::brush::{BrushOutput, BrushOwner};
use crate::game::custom::CustomRules;
use crate::game::rules::{GameRules, contents_from_quake2};
use crate::surface::SurfaceFlags;

const ENTITIES: Lump = Lump {
    index: 0,
    name: "entities",
};
const PLANES: Lump = Lump {
    index: 1,
    name: "planes",
};
const NODES: Lump = Lump {
    index: 4,
    name: "nodes",
};
const TEXINFO: Lump = Lump {
    index: 5,
    name: "texinfo",
};
const LEAFS: Lump = Lump {
    index: 8,
    name: "leafs",
};
const LEAFBRUSHES: Lump = Lump {
    index: 10,
    name: "leafbrushes",
};
const MODELS: Lump = Lump {
    index: 13,
    name: "models",
};
const BRUSHES: Lump = Lump {
    index: 14,
    name: "brushes",
};
const BRUSHSIDES: Lump = Lump {
    index: 15,
    name: "brushsides",
};

/// Lumps in a Quake 2 header.
const LUMP_COUNT: usize = 19;

/// Record sizes and field offsets that differ between IBSP and QBSP.
struct Layout {
    node: usize,
    leaf: usize,
    /// Byte offset of a leaf's first leaf-brush index and of its count.
    leaf_brushes_at: (usize, usize),
    brushside: usize,
    leafbrush: usize,
    /// Whether the narrow fields are 32-bit (QBSP).
    wide: bool,
}

const IBSP: Layout = Layout {
    node: 28,
    leaf: 28,
    leaf_brushes_at: (24, 26),
    brushside: 4,
    leafbrush: 2,
    wide: false,
};

const QBSP: Layout = Layout {
    node: 44,
    leaf: 52,
    leaf_brushes_at: (44, 48),
    brushside: 8,
    leafbrush: 4,
    wide: true,
};

/// A texinfo's meaning to a side.
struct Texinfo {
    texture: String,
    surface: SurfaceFlags,
}

/// Reads a Quake 2 (IBSP 38, Qbism QBSP 38) file.
pub(super) fn read(
    bytes: &[u8],
    format: BspFormat,
    custom: Option<&CustomRules>,
) -> Result<ImportedLevel, ImportError> {
    let rules = GameRules::of(format.game(), custom);
    let layout = if format == BspFormat::Qbsp38 {
        &QBSP
    } else {
        &IBSP
    };
    let lumps = Lumps::new(bytes, format.name(), 8, LUMP_COUNT)?;
    let map = entities_from_lump(&lumps, ENTITIES)?;
    let planes = lumps.records(PLANES, 20)?;
    let nodes = lumps.records(NODES, layout.node)?;
    let leafs = lumps.records(LEAFS, layout.leaf)?;
    let leafbrushes = lumps.records(LEAFBRUSHES, layout.leafbrush)?;
    let models = lumps.records(MODELS, 48)?;
    let brushes = lumps.records(BRUSHES, 12)?;
    let brushsides = lumps.records(BRUSHSIDES, layout.brushside)?;
    let texinfos: Vec<Texinfo> = lumps
        .records(TEXINFO, 76)?
        .iter()
        .map(|r| Texinfo {
            texture: r.name(40, 32),
            surface: SurfaceFlags::from_quake2(r.u32(32)),
        })
        .collect();

    // Each brush's model: the first model whose leaves list it.
    let mut model_of_brush: Vec<Option<usize>> = vec![None; brushes.len()];
    let mut node_seen = vec![false; nodes.len()];
    let mut leaf_seen = vec![false; leafs.len()];
    for (model, record) in models.iter().enumerate() {
        let mut stack = vec![record.i32(36)];
        while let Some(child) = stack.pop() {
            if child >= 0 {
                let index = child as usize;
                let node = nodes.get(index)?;
                if let Some(seen) = node_seen.get_mut(index)
                    && !std::mem::replace(seen, true)
                {
                    stack.extend([node.i32(4), node.i32(8)]);
                }
                continue;
            }
            let leaf_index = (-(i64::from(child) + 1)) as usize;
            let leaf = leafs.get(leaf_index)?;
            let first_visit = leaf_seen
                .get_mut(leaf_index)
                .is_some_and(|seen| !std::mem::replace(seen, true));
            if !first_visit {
                continue;
            }
            let (first, count) = if layout.wide {
                (
                    leaf.u32(layout.leaf_brushes_at.0) as usize,
                    leaf.u32(layout.leaf_brushes_at.1) as usize,
                )
            } else {
                (
                    usize::from(leaf.u16(layout.leaf_brushes_at.0)),
                    usize::from(leaf.u16(layout.leaf_brushes_at.1)),
                )
            };
            let end = first.checked_add(count).filter(|&e| e <= leafbrushes.len());
            if end.is_none() {
                return Err(leafs.error(format!(
                    "leaf {leaf_index} lists leaf brushes {first}+{count}, past the {} stored",
                    leafbrushes.len()
                )));
            }
            for at in first..first + count {
                let entry = leafbrushes.get(at)?;
                let brush = if layout.wide {
                    entry.u32(0) as usize
                } else {
                    usize::from(entry.u16(0))
                };
                let slot = model_of_brush.get_mut(brush).ok_or_else(|| {
                    leafbrushes.error(format!(
                        "entry {at} names brush {brush}, past the {} stored",
                        brushes.len()
                    ))
                })?;
                slot.get_or_insert(model);
            }
        }
    }

    // Each model's entity.
    let mut entity_of_model: Vec<Option<usize>> = vec![None; models.len()];
    for (index, entity) in map.entities.iter().enumerate() {
        if let Some(slot) = super::submodel_index(entity).and_then(|k| entity_of_model.get_mut(k)) {
            slot.get_or_insert(index);
        }
    }

    let mut out = BrushOutput::default();
    let mut sides = Vec::new();
    for (index, record) in brushes.iter().enumerate() {
        let (first, count, bits) = (record.i32(0), record.i32(4), record.u32(8));
        let range = usize::try_from(first)
            .ok()
            .zip(usize::try_from(count).ok())
            .filter(|&(f, c)| {
                c <= MAX_STORED_SIDES && f.checked_add(c).is_some_and(|e| e <= brushsides.len())
            });
        let Some((first, count)) = range else {
            return Err(brushes.error(format!(
                "brush {index} has sides {first}+{count}, not within the {} stored (at most {MAX_STORED_SIDES} a brush)",
                brushsides.len()
            )));
        };
        let owner = match model_of_brush.get(index).copied().flatten() {
            None | Some(0) => BrushOwner::World,
            Some(model) => match entity_of_model.get(model).copied().flatten() {
                Some(entity) => BrushOwner::Entity(entity),
                // A model no entity names is never placed in the game: left out.
                None => continue,
            },
        };
        let classname = match owner {
            BrushOwner::Entity(e) => map.entities.get(e).map_or("", |e| e.classname()),
            BrushOwner::World => "worldspawn",
        };
        sides.clear();
        for at in first..first + count {
            sides.push(read_side(&brushsides, at, layout, &planes, &texinfos)?);
        }
        let (contents, solid) = rules.brush_in_entity(classname, contents_from_quake2(bits), false);
        let meaning = StoredMeaning {
            contents,
            game_contents: bits,
            solid,
            owner,
        };
        add_stored_brush(&mut out, &sides, meaning, record_loc(index));
    }
    Ok(ImportedLevel {
        format,
        game: format.game(),
        map,
        brushes: out,
        void_filled: false,
        clip_hulls: crate::compiled::ClipHulls::default(),
        game_patches: crate::compiled::GamePatches::default(),
    })
}

/// Brush side `at`: its plane and its texinfo's meaning.
fn read_side(
    brushsides: &Records<'_>,
    at: usize,
    layout: &Layout,
    planes: &Records<'_>,
    texinfos: &[Texinfo],
) -> Result<StoredSide, ImportError> {
    let side = brushsides.get(at)?;
    let (plane, texinfo) = if layout.wide {
        (side.u32(0) as usize, i64::from(side.i32(4)))
    } else {
        (usize::from(side.u16(0)), i64::from(side.i16(2)))
    };
    let plane = read_plane(planes, plane)?;
    let (texture, surface) = if texinfo < 0 {
        (String::new(), SurfaceFlags::EMPTY)
    } else {
        let info = usize::try_from(texinfo)
            .ok()
            .and_then(|i| texinfos.get(i))
            .ok_or_else(|| {
                brushsides.error(format!(
                    "side {at} names texinfo {texinfo}, past the {} stored",
                    texinfos.len()
                ))
            })?;
        (info.texture.clone(), info.surface)
    };
    Ok(StoredSide {
        plane,
        texture,
        surface,
    })
}
