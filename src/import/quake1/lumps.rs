//! The records of a Quake 1 family `.bsp` that collision needs, decoded and checked.
//!
//! Takes the file's bytes and its [`BspFormat`] (BSP29, BSP2, 2PSB, Half-Life BSP30); gives
//! [`Q1File`]: planes, hull-0 nodes and leaves, the clip hulls' nodes, faces with their texture names, models and
//! the entities lump. Guarantees: every record read through the bounds-checked
//! [`Lumps`](crate::import::Lumps); every plane finite with a non-zero normal; every index
//! a node, leaf, face, texinfo or plane holds is in range (checked here, so the walks that
//! follow index without failing); every error names its lump.

use glam::DVec3;

use crate::compiled::HullPlane;
use crate::geom::BuildPlane;
use crate::import::{BspFormat, ImportError, Lump, Lumps, Record};

/// The number of lumps in a Quake 1 family header.
const LUMP_COUNT: usize = 15;
/// The header's bytes before the directory (the version or the `BSP2`/`2PSB` magic).
const HEADER_LEN: usize = 4;

const ENTITIES: Lump = Lump {
    index: 0,
    name: "entities",
};
const PLANES: Lump = Lump {
    index: 1,
    name: "planes",
};
const TEXTURES: Lump = Lump {
    index: 2,
    name: "textures",
};
const NODES: Lump = Lump {
    index: 5,
    name: "nodes",
};
const CLIPNODES: Lump = Lump {
    index: 9,
    name: "clipnodes",
};
const TEXINFO: Lump = Lump {
    index: 6,
    name: "texinfo",
};
const FACES: Lump = Lump {
    index: 7,
    name: "faces",
};
const LEAFS: Lump = Lump {
    index: 10,
    name: "leafs",
};
const MODELS: Lump = Lump {
    index: 14,
    name: "models",
};

/// A child of a hull-0 node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Child {
    /// Another node, by index (checked in range).
    Node(usize),
    /// A leaf, by index (checked in range).
    Leaf(usize),
}

/// A hull-0 node.
#[derive(Clone, Debug)]
pub(super) struct Node {
    /// Its plane, by index into [`Q1File::planes`] (checked).
    pub(super) plane: usize,
    /// `children[0]` where `n·x − d ≥ 0`, `children[1]` behind.
    pub(super) children: [Child; 2],
    /// Its bounds as the file stores them.
    pub(super) mins: DVec3,
    /// Its bounds as the file stores them.
    pub(super) maxs: DVec3,
    /// The faces on its plane: a range of [`Q1File::faces`] (checked).
    pub(super) faces: std::ops::Range<usize>,
}

/// A drawn face: the side of its plane it faces and its texture.
#[derive(Clone, Debug)]
pub(super) struct Face {
    /// Whether its normal is the plane's flipped (`side` 1).
    pub(super) back: bool,
    /// Its texture, by index into [`Q1File::textures`]; `None` when its texinfo names no
    /// texture the file holds.
    pub(super) texture: Option<usize>,
}

/// A model: its hull-0 head node, its clip hulls' head nodes and its bounds.
#[derive(Clone, Copy, Debug)]
pub(super) struct Model {
    /// Its hull-0 head node (checked in range).
    pub(super) head: Child,
    /// The head of clip hulls 1, 2 and 3 (`dmodel_t headnode[1..4]`): a node of
    /// [`Q1File::clip_nodes`] or a leaf of [`CLIP_LEAF_CONTENTS`]; `None` when out of range
    /// (hull 0 alone does not need them, so only a clip hull's import refuses that).
    pub(super) clip_heads: [Option<Child>; 3],
    /// Its bounds as the file stores them (the brushes', not grown by any hull).
    pub(super) mins: DVec3,
    /// Its bounds as the file stores them.
    pub(super) maxs: DVec3,
}

/// The leaves of the clip hulls: a clip node's child below zero is a contents value itself
/// (`bspfile.h` `dclipnode_t`, `CONTENTS_EMPTY` −1 to `CONTENTS_LADDER` −16 in Half-Life),
/// read here as leaf `−1 − value`, whose contents this table gives back.
pub(super) const CLIP_LEAF_CONTENTS: [i32; 16] = [
    -1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15, -16,
];

/// What collision needs of a Quake 1 family file.
#[derive(Clone, Debug)]
pub(super) struct Q1File<'a> {
    /// The lump directory (for the entities and BSPX).
    pub(super) lumps: Lumps<'a>,
    /// The entities lump.
    pub(super) entities: Lump,
    /// The planes, as the file gives them (normal normalised).
    pub(super) planes: Vec<BuildPlane>,
    /// The same planes exactly as written (f32, not renormalised) with their axial type,
    /// as the game's hull walks read them.
    pub(super) hull_planes: Vec<HullPlane>,
    /// The hull-0 nodes.
    pub(super) nodes: Vec<Node>,
    /// Each leaf's contents value (`bspfile.h` `CONTENTS_*`).
    pub(super) leaf_contents: Vec<i32>,
    /// The clip hulls' nodes (all hulls share one lump); their leaves are
    /// [`CLIP_LEAF_CONTENTS`], their bounds the model's and their face ranges empty.
    pub(super) clip_nodes: Vec<Node>,
    /// The faces.
    pub(super) faces: Vec<Face>,
    /// The texture names, by index ([`Face::texture`]).
    pub(super) textures: Vec<String>,
    /// The models, model 0 the world.
    pub(super) models: Vec<Model>,
    /// The end of the last lump (where a BSPX directory may follow).
    pub(super) lumps_end: usize,
}

/// The record sizes that differ between the formats.
struct Layout {
    node: usize,
    leaf: usize,
    face: usize,
}

impl Layout {
    fn of(format: BspFormat) -> Layout {
        match format {
            BspFormat::Bsp2 => Layout {
                node: 44,
                leaf: 44,
                face: 28,
            },
            BspFormat::Bsp2Psb => Layout {
                node: 32,
                leaf: 32,
                face: 28,
            },
            _ => Layout {
                node: 24,
                leaf: 28,
                face: 20,
            },
        }
    }
}

/// Whether a lump's bytes read as entity text (its first non-blank byte is `{`).
fn looks_like_text(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'{')
}

/// Decodes `bytes` as a file of `format`.
pub(super) fn read_file(bytes: &[u8], format: BspFormat) -> Result<Q1File<'_>, ImportError> {
    let lumps = Lumps::new(bytes, format.name(), HEADER_LEN, LUMP_COUNT)?;
    // Half-Life's Blue Shift swaps the entities and planes lumps: tell them apart by text.
    let (entities, planes_lump) = {
        let first = lumps.bytes(ENTITIES).unwrap_or(&[]);
        let second = lumps.bytes(PLANES).unwrap_or(&[]);
        if format == BspFormat::HalfLife30 && !looks_like_text(first) && looks_like_text(second) {
            (
                Lump {
                    index: PLANES.index,
                    name: ENTITIES.name,
                },
                Lump {
                    index: ENTITIES.index,
                    name: PLANES.name,
                },
            )
        } else {
            (ENTITIES, PLANES)
        }
    };
    let mut lumps_end = 0usize;
    for index in 0..LUMP_COUNT {
        let (offset, length) = lumps.entry(Lump {
            index,
            name: "header",
        })?;
        lumps_end = lumps_end.max(offset.saturating_add(length));
    }
    let layout = Layout::of(format);
    let planes = read_planes(&lumps, planes_lump)?;
    let hull_planes = read_hull_planes(&lumps, planes_lump)?;
    let textures = read_texture_names(&lumps)?;
    let texinfo = read_texinfo(&lumps, textures.len())?;
    let faces = read_faces(&lumps, format, &layout, planes.len(), &texinfo)?;
    let leaf_contents = read_leaf_contents(&lumps, &layout)?;
    let nodes = read_nodes(
        &lumps,
        format,
        &layout,
        planes.len(),
        leaf_contents.len(),
        faces.len(),
    )?;
    let clip_nodes = read_clip_nodes(&lumps, format, planes.len())?;
    let models = read_models(&lumps, nodes.len(), leaf_contents.len(), clip_nodes.len())?;
    Ok(Q1File {
        lumps,
        entities,
        planes,
        hull_planes,
        nodes,
        clip_nodes,
        leaf_contents,
        faces,
        textures,
        models,
        lumps_end,
    })
}

fn read_planes(lumps: &Lumps<'_>, lump: Lump) -> Result<Vec<BuildPlane>, ImportError> {
    let records = lumps.records(lump, 20)?;
    records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let normal = DVec3::new(
                f64::from(r.f32(0)),
                f64::from(r.f32(4)),
                f64::from(r.f32(8)),
            );
            BuildPlane::from_normal_dist(normal, f64::from(r.f32(12)))
                .filter(|p| p.normal.is_finite())
                .ok_or_else(|| records.error(format!("plane {i} is not finite or has no normal")))
        })
        .collect()
}

/// The planes as written (`dplane_t`: normal, dist, type), for the hull walks: the type
/// is kept when it names an axis (0 to 2) and its normal is that axis, else the plane is
/// walked by its dot product (3), which gives the same distance on an axial plane.
fn read_hull_planes(lumps: &Lumps<'_>, lump: Lump) -> Result<Vec<HullPlane>, ImportError> {
    let records = lumps.records(lump, 20)?;
    Ok(records
        .iter()
        .map(|r| {
            let normal = glam::Vec3::new(r.f32(0), r.f32(4), r.f32(8));
            let kind = r.i32(16);
            let axis = match u8::try_from(kind) {
                Ok(a) if a < 3 && normal[usize::from(a)] == 1.0 => a,
                _ => 3,
            };
            HullPlane {
                normal,
                dist: r.f32(12),
                axis,
            }
        })
        .collect())
}

/// The miptex names: `i32 count`, `count` offsets (−1 for a missing texture), each miptex
/// opening with its 16-byte name.
fn read_texture_names(lumps: &Lumps<'_>) -> Result<Vec<String>, ImportError> {
    let bytes = lumps.bytes(TEXTURES)?;
    if bytes.is_empty() {
        return Ok(Vec::new());
    }
    let whole = Record::new(bytes);
    let count = whole.i32(0);
    let count = usize::try_from(count)
        .ok()
        .filter(|&c| {
            c.checked_mul(4)
                .and_then(|n| n.checked_add(4))
                .is_some_and(|n| n <= bytes.len())
        })
        .ok_or_else(|| {
            lumps.error(
                TEXTURES.name,
                format!("texture count {count} does not fit the lump"),
            )
        })?;
    (0..count)
        .map(|i| {
            let offset = whole.i32(4 + 4 * i);
            if offset < 0 {
                return Ok(String::new());
            }
            let at = offset as usize;
            match bytes.get(at..at.saturating_add(16)) {
                Some(name) => Ok(Record::new(name).name(0, 16)),
                None => Err(lumps.error(
                    TEXTURES.name,
                    format!("texture {i} at offset {offset} is outside the lump"),
                )),
            }
        })
        .collect()
}

/// Each texinfo's texture, by index into the names (`None` when out of range: the face is
/// then untextured, as engines draw it).
fn read_texinfo(lumps: &Lumps<'_>, textures: usize) -> Result<Vec<Option<usize>>, ImportError> {
    let records = lumps.records(TEXINFO, 40)?;
    Ok(records
        .iter()
        .map(|r| usize::try_from(r.i32(32)).ok().filter(|&t| t < textures))
        .collect())
}

fn read_faces(
    lumps: &Lumps<'_>,
    format: BspFormat,
    layout: &Layout,
    planes: usize,
    texinfo: &[Option<usize>],
) -> Result<Vec<Face>, ImportError> {
    let records = lumps.records(FACES, layout.face)?;
    records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let (plane, side, info) = match format {
                BspFormat::Bsp2 | BspFormat::Bsp2Psb => {
                    (r.i32(0) as i64, r.i32(4), r.i32(16) as i64)
                }
                _ => (
                    i64::from(r.u16(0)),
                    i32::from(r.i16(2)),
                    i64::from(r.u16(10)),
                ),
            };
            if usize::try_from(plane).map_or(true, |p| p >= planes) {
                return Err(records.error(format!(
                    "face {i}: plane {plane} is out of range ({planes} planes)"
                )));
            }
            let texture = usize::try_from(info)
                .ok()
                .and_then(|t| texinfo.get(t).copied())
                .ok_or_else(|| {
                    records.error(format!(
                        "face {i}: texinfo {info} is out of range ({} texinfos)",
                        texinfo.len()
                    ))
                })?;
            Ok(Face {
                back: side != 0,
                texture,
            })
        })
        .collect()
}

fn read_leaf_contents(lumps: &Lumps<'_>, layout: &Layout) -> Result<Vec<i32>, ImportError> {
    let records = lumps.records(LEAFS, layout.leaf)?;
    if records.is_empty() {
        return Err(records.error("no leaves"));
    }
    Ok(records.iter().map(|r| r.i32(0)).collect())
}

fn read_nodes(
    lumps: &Lumps<'_>,
    format: BspFormat,
    layout: &Layout,
    planes: usize,
    leaves: usize,
    faces: usize,
) -> Result<Vec<Node>, ImportError> {
    let records = lumps.records(NODES, layout.node)?;
    let count = records.len();
    // More than 32k nodes: BSP29 children are read unsigned (QuakeSpasm `Mod_LoadNodes_S`).
    let unsigned = count > i16::MAX as usize;
    records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let plane = r.i32(0);
            let plane = usize::try_from(plane)
                .ok()
                .filter(|&p| p < planes)
                .ok_or_else(|| {
                    records.error(format!(
                        "node {i}: plane {plane} is out of range ({planes} planes)"
                    ))
                })?;
            let raw = |k: usize| -> i64 {
                match format {
                    BspFormat::Bsp2 | BspFormat::Bsp2Psb => i64::from(r.i32(4 + 4 * k)),
                    _ if unsigned => {
                        let c = i64::from(r.u16(4 + 2 * k));
                        if c < count as i64 { c } else { c - 65536 }
                    }
                    _ => i64::from(r.i16(4 + 2 * k)),
                }
            };
            let child = |k: usize| -> Result<Child, ImportError> {
                decode_child(raw(k), count, leaves).ok_or_else(|| {
                    records.error(format!("node {i}: child {} is out of range", raw(k)))
                })
            };
            let children = [child(0)?, child(1)?];
            let (mins, maxs, first, num) = match format {
                BspFormat::Bsp2 => (
                    vec3_f32(r, 12),
                    vec3_f32(r, 24),
                    r.u32(36) as usize,
                    r.u32(40) as usize,
                ),
                BspFormat::Bsp2Psb => (
                    vec3_i16(r, 12),
                    vec3_i16(r, 18),
                    r.u32(24) as usize,
                    r.u32(28) as usize,
                ),
                _ => (
                    vec3_i16(r, 8),
                    vec3_i16(r, 14),
                    usize::from(r.u16(20)),
                    usize::from(r.u16(22)),
                ),
            };
            let end = first
                .checked_add(num)
                .filter(|&e| e <= faces)
                .ok_or_else(|| {
                    records.error(format!(
                        "node {i}: faces {first}+{num} are out of range ({faces} faces)"
                    ))
                })?;
            if !(mins.is_finite() && maxs.is_finite()) {
                return Err(records.error(format!("node {i}: bounds are not finite")));
            }
            Ok(Node {
                plane,
                children,
                mins,
                maxs,
                faces: first..end,
            })
        })
        .collect()
}

/// A child value: `c ≥ 0` a node, `c < 0` leaf `−1 − c`; `None` out of range.
fn decode_child(c: i64, nodes: usize, leaves: usize) -> Option<Child> {
    if c >= 0 {
        usize::try_from(c)
            .ok()
            .filter(|&n| n < nodes)
            .map(Child::Node)
    } else {
        usize::try_from(-1 - c)
            .ok()
            .filter(|&l| l < leaves)
            .map(Child::Leaf)
    }
}

/// The clip nodes (`dclipnode_t`: a plane, two children; 16-bit children in BSP29 and
/// BSP30, 32-bit in BSP2 and 2PSB), as [`Node`]s without faces or bounds.
fn read_clip_nodes(
    lumps: &Lumps<'_>,
    format: BspFormat,
    planes: usize,
) -> Result<Vec<Node>, ImportError> {
    let wide = matches!(format, BspFormat::Bsp2 | BspFormat::Bsp2Psb);
    let records = lumps.records(CLIPNODES, if wide { 12 } else { 8 })?;
    let count = records.len();
    records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let plane = r.i32(0);
            let plane = usize::try_from(plane)
                .ok()
                .filter(|&p| p < planes)
                .ok_or_else(|| {
                    records.error(format!(
                        "clip node {i}: plane {plane} is out of range ({planes} planes)"
                    ))
                })?;
            let raw = |k: usize| -> i64 {
                if wide {
                    i64::from(r.i32(4 + 4 * k))
                } else {
                    // Read unsigned, as QuakeSpasm's `Mod_LoadClipnodes` does, so a hull of
                    // more than 32k nodes still reads; what lies past the count is a contents.
                    let c = i64::from(r.u16(4 + 2 * k));
                    if c < count as i64 { c } else { c - 65536 }
                }
            };
            let child = |k: usize| -> Result<Child, ImportError> {
                decode_child(raw(k), count, CLIP_LEAF_CONTENTS.len()).ok_or_else(|| {
                    records.error(format!("clip node {i}: child {} is out of range", raw(k)))
                })
            };
            Ok(Node {
                plane,
                children: [child(0)?, child(1)?],
                mins: DVec3::ZERO,
                maxs: DVec3::ZERO,
                faces: 0..0,
            })
        })
        .collect()
}

fn read_models(
    lumps: &Lumps<'_>,
    nodes: usize,
    leaves: usize,
    clip_nodes: usize,
) -> Result<Vec<Model>, ImportError> {
    let records = lumps.records(MODELS, 64)?;
    if records.is_empty() {
        return Err(records.error("no models (model 0 is the world)"));
    }
    records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let head = i64::from(r.i32(36));
            let head = decode_child(head, nodes, leaves).ok_or_else(|| {
                records.error(format!(
                    "model {i}: head node {head} is out of range ({nodes} nodes)"
                ))
            })?;
            let clip = |k: usize| {
                decode_child(
                    i64::from(r.i32(36 + 4 * k)),
                    clip_nodes,
                    CLIP_LEAF_CONTENTS.len(),
                )
            };
            let (mins, maxs) = (vec3_f32(r, 0), vec3_f32(r, 12));
            if !(mins.is_finite() && maxs.is_finite()) {
                return Err(records.error(format!("model {i}: bounds are not finite")));
            }
            Ok(Model {
                head,
                clip_heads: [clip(1), clip(2), clip(3)],
                mins,
                maxs,
            })
        })
        .collect()
}

fn vec3_i16(r: Record<'_>, at: usize) -> DVec3 {
    DVec3::new(
        f64::from(r.i16(at)),
        f64::from(r.i16(at + 2)),
        f64::from(r.i16(at + 4)),
    )
}

fn vec3_f32(r: Record<'_>, at: usize) -> DVec3 {
    DVec3::new(
        f64::from(r.f32(at)),
        f64::from(r.f32(at + 4)),
        f64::from(r.f32(at + 8)),
    )
}
