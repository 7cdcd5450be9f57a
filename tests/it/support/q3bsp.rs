//! Test support: a reader of Quake 3 `.bsp` files (IBSP version 46), the ground truth for
//! contents, surface flags and patches that the compiler is compared against.
//!
//! Takes the bytes of a `.bsp`; gives `Q3Bsp` (entities as ordered key/values, shaders,
//! planes, nodes, leafs, leaf brushes and surfaces, models, brushes, brush sides, draw vertex
//! positions and surfaces) and the queries the tests need: `point_contents` as the engine's
//! `CM_PointContents` (Quake III Arena `code/qcommon/cm_test.c`), the same by brute force over
//! the world's brushes, each patch's control grid, a model's brushes and a brush's side planes.
//!
//! Guarantees: little-endian layout of `code/qcommon/qfiles.h`; `Q3Bsp::parse` never panics
//! and refuses, with a message, a bad magic or version, a lump outside the file or whose length
//! is not a multiple of its record size (`cm_load.c`'s "funny lump size"), and any index or
//! range that points outside its table. Nodes must name children after themselves (q3map2's
//! `writebsp.c` `EmitDrawNode` writes the tree in preorder), so a descent always ends. After
//! `parse` every query indexes without checks and cannot panic or loop. Plane tests are done
//! in f64 on the stored f32 values (the engine uses f32); the two agree away from faces.

use std::fmt;

/// The four bytes a Quake 3 `.bsp` opens with (`BSP_IDENT` in `qfiles.h`).
pub const MAGIC: &[u8; 4] = b"IBSP";
/// The Quake III Arena version (`BSP_VERSION` in `qfiles.h`).
pub const VERSION: i32 = 46;
/// Number of lumps (`HEADER_LUMPS`).
pub const LUMP_COUNT: usize = 17;
/// Magic, version, then `(fileofs, filelen)` per lump.
pub const HEADER_LEN: usize = 8 + LUMP_COUNT * 8;

/// Lump numbers (`LUMP_*` in `qfiles.h`).
pub mod lump {
    pub const ENTITIES: usize = 0;
    pub const SHADERS: usize = 1;
    pub const PLANES: usize = 2;
    pub const NODES: usize = 3;
    pub const LEAFS: usize = 4;
    pub const LEAFSURFACES: usize = 5;
    pub const LEAFBRUSHES: usize = 6;
    pub const MODELS: usize = 7;
    pub const BRUSHES: usize = 8;
    pub const BRUSHSIDES: usize = 9;
    pub const DRAWVERTS: usize = 10;
    pub const DRAWINDEXES: usize = 11;
    pub const FOGS: usize = 12;
    pub const SURFACES: usize = 13;
    pub const LIGHTMAPS: usize = 14;
    pub const LIGHTGRID: usize = 15;
    pub const VISIBILITY: usize = 16;
}

/// Record size per lump in bytes (`qfiles.h` structs). Text, lightmaps and visibility have no
/// fixed record and take 1; the light grid is 8 bytes per cell.
pub const RECORD_SIZES: [usize; LUMP_COUNT] =
    [1, 72, 16, 36, 48, 4, 4, 40, 12, 8, 44, 4, 72, 104, 1, 8, 1];

/// Contents bits (`code/game/surfaceflags.h`).
pub mod contents {
    pub const SOLID: u32 = 0x1;
    pub const LAVA: u32 = 0x8;
    pub const SLIME: u32 = 0x10;
    pub const WATER: u32 = 0x20;
    pub const FOG: u32 = 0x40;
    /// LAVA | SLIME | WATER (`MASK_WATER`).
    pub const LIQUID: u32 = LAVA | SLIME | WATER;
    pub const AREAPORTAL: u32 = 0x8000;
    pub const PLAYERCLIP: u32 = 0x10000;
    pub const MONSTERCLIP: u32 = 0x20000;
    pub const TELEPORTER: u32 = 0x40000;
    pub const JUMPPAD: u32 = 0x80000;
    pub const CLUSTERPORTAL: u32 = 0x100000;
    pub const DONOTENTER: u32 = 0x200000;
    pub const BOTCLIP: u32 = 0x400000;
    pub const MOVER: u32 = 0x800000;
    pub const ORIGIN: u32 = 0x1000000;
    pub const BODY: u32 = 0x2000000;
    pub const DETAIL: u32 = 0x8000000;
    pub const STRUCTURAL: u32 = 0x10000000;
    pub const TRANSLUCENT: u32 = 0x20000000;
    pub const TRIGGER: u32 = 0x40000000;
    pub const NODROP: u32 = 0x80000000;
}

/// Surface flags (`code/game/surfaceflags.h`; NOOB is q3map2's Quake 3 game, `games.cpp`).
pub mod surf {
    pub const NODAMAGE: u32 = 0x1;
    pub const SLICK: u32 = 0x2;
    pub const SKY: u32 = 0x4;
    pub const FLESH: u32 = 0x40;
    pub const NODRAW: u32 = 0x80;
    pub const METALSTEPS: u32 = 0x1000;
    pub const NOSTEPS: u32 = 0x2000;
    pub const NONSOLID: u32 = 0x4000;
    pub const DUST: u32 = 0x40000;
    pub const NOOB: u32 = 0x80000;
}

/// Surface types (`mapSurfaceType_t` in `qfiles.h`).
pub const MST_PLANAR: i32 = 1;
pub const MST_PATCH: i32 = 2;
pub const MST_TRIANGLE_SOUP: i32 = 3;
pub const MST_FLARE: i32 = 4;

/// Why a `.bsp` was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Q3BspError(pub String);

impl fmt::Display for Q3BspError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Q3BspError {}

fn err<T>(message: impl Into<String>) -> Result<T, Q3BspError> {
    Err(Q3BspError(message.into()))
}

/// One lump's place in the file, checked to lie inside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lump {
    pub offset: usize,
    pub len: usize,
}

/// `dshader_t`: name (NUL-padded to 64 bytes), surface flags, contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Q3Shader {
    pub name: String,
    pub surface_flags: u32,
    pub content_flags: u32,
}

impl Q3Shader {
    /// q3map2's entry for sides without a shader (bevels): `noshader`.
    pub fn is_noshader(&self) -> bool {
        self.name == "noshader"
    }
}

/// `dplane_t`: `normal·x = dist`; the normal points out of the brush for a brush side.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Q3Plane {
    pub normal: [f32; 3],
    pub dist: f32,
}

impl Q3Plane {
    /// `normal·p − dist`, in f64.
    pub fn distance(&self, p: [f64; 3]) -> f64 {
        self.normal[0] as f64 * p[0] + self.normal[1] as f64 * p[1] + self.normal[2] as f64 * p[2]
            - self.dist as f64
    }
}

/// `dnode_t`: a splitting plane and two children (negative: leaf `−(c + 1)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Q3Node {
    pub plane: usize,
    pub children: [i32; 2],
    pub mins: [i32; 3],
    pub maxs: [i32; 3],
}

/// `dleaf_t`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Q3Leaf {
    pub cluster: i32,
    pub area: i32,
    pub mins: [i32; 3],
    pub maxs: [i32; 3],
    pub first_leaf_surface: usize,
    pub num_leaf_surfaces: usize,
    pub first_leaf_brush: usize,
    pub num_leaf_brushes: usize,
}

/// `dmodel_t`: model 0 is the world.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Q3Model {
    pub mins: [f32; 3],
    pub maxs: [f32; 3],
    pub first_surface: usize,
    pub num_surfaces: usize,
    pub first_brush: usize,
    pub num_brushes: usize,
}

/// `dbrush_t`: its sides and its content shader (the only contents the engine sees).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Q3Brush {
    pub first_side: usize,
    pub num_sides: usize,
    pub shader: usize,
}

/// `dbrushside_t`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Q3BrushSide {
    pub plane: usize,
    pub shader: usize,
}

/// `dsurface_t`, the fields collision and patches need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Q3Surface {
    pub shader: usize,
    pub surface_type: i32,
    pub first_vert: usize,
    pub num_verts: usize,
    pub patch_width: usize,
    pub patch_height: usize,
}

/// One entity: its key/values in file order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Q3Entity {
    pub pairs: Vec<(String, String)>,
}

impl Q3Entity {
    /// The first value of `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    pub fn classname(&self) -> &str {
        self.get("classname").unwrap_or("")
    }
}

/// A patch surface's control grid: `points[j·width + i]` is column i, row j
/// (`drawverts[firstVert + j·patchWidth + i]`).
#[derive(Debug, Clone, PartialEq)]
pub struct Q3Patch<'a> {
    pub surface: usize,
    pub shader: &'a Q3Shader,
    pub width: usize,
    pub height: usize,
    pub points: &'a [[f32; 3]],
}

impl Q3Patch<'_> {
    /// Control point at column `i`, row `j`.
    pub fn point(&self, i: usize, j: usize) -> Option<[f32; 3]> {
        if i < self.width && j < self.height {
            self.points.get(j * self.width + i).copied()
        } else {
            None
        }
    }
}

/// A whole `.bsp`, validated.
#[derive(Debug, Clone, PartialEq)]
pub struct Q3Bsp {
    pub lumps: [Lump; LUMP_COUNT],
    pub entities: Vec<Q3Entity>,
    pub shaders: Vec<Q3Shader>,
    pub planes: Vec<Q3Plane>,
    pub nodes: Vec<Q3Node>,
    pub leafs: Vec<Q3Leaf>,
    pub leaf_surfaces: Vec<usize>,
    pub leaf_brushes: Vec<usize>,
    pub models: Vec<Q3Model>,
    pub brushes: Vec<Q3Brush>,
    pub brush_sides: Vec<Q3BrushSide>,
    /// `drawVert_t.xyz` of every draw vertex.
    pub draw_verts: Vec<[f32; 3]>,
    pub surfaces: Vec<Q3Surface>,
}

/// Little-endian fields of one record, read in order.
struct Fields<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Fields<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Fields { bytes, at: 0 }
    }

    fn word(&mut self) -> [u8; 4] {
        let mut w = [0; 4];
        w.copy_from_slice(&self.bytes[self.at..self.at + 4]);
        self.at += 4;
        w
    }

    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.word())
    }

    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.word())
    }

    fn f32(&mut self) -> f32 {
        f32::from_le_bytes(self.word())
    }

    fn i32x3(&mut self) -> [i32; 3] {
        [self.i32(), self.i32(), self.i32()]
    }

    fn f32x3(&mut self) -> [f32; 3] {
        [self.f32(), self.f32(), self.f32()]
    }

    fn skip(&mut self, bytes: usize) {
        self.at += bytes;
    }
}

/// A non-negative count or index that must be below `bound` (`what` names it in the error).
fn index(value: i32, bound: usize, what: &str) -> Result<usize, Q3BspError> {
    match usize::try_from(value) {
        Ok(v) if v < bound => Ok(v),
        _ => err(format!("{what} {value} out of range 0..{bound}")),
    }
}

/// A range `first..first + count` that must lie in `0..=bound`.
fn range(first: i32, count: i32, bound: usize, what: &str) -> Result<(usize, usize), Q3BspError> {
    let (Ok(f), Ok(c)) = (usize::try_from(first), usize::try_from(count)) else {
        return err(format!("{what} first {first} count {count} negative"));
    };
    match f.checked_add(c) {
        Some(end) if end <= bound => Ok((f, c)),
        _ => err(format!(
            "{what} first {first} count {count} past the end {bound}"
        )),
    }
}

fn records<T>(
    data: &[u8],
    lumps: &[Lump; LUMP_COUNT],
    which: usize,
    mut read: impl FnMut(&mut Fields) -> Result<T, Q3BspError>,
) -> Result<Vec<T>, Q3BspError> {
    let Lump { offset, len } = lumps[which];
    data[offset..offset + len]
        .chunks_exact(RECORD_SIZES[which])
        .enumerate()
        .map(|(i, chunk)| {
            read(&mut Fields::new(chunk))
                .map_err(|e| Q3BspError(format!("lump {which} record {i}: {e}")))
        })
        .collect()
}

/// The header: magic, version and every lump inside the file with a whole number of records.
fn header(data: &[u8]) -> Result<[Lump; LUMP_COUNT], Q3BspError> {
    if data.len() < HEADER_LEN {
        return err(format!(
            "file of {} bytes is shorter than the {HEADER_LEN}-byte header",
            data.len()
        ));
    }
    if &data[0..4] != MAGIC {
        return err(format!("bad magic {:?}, expected IBSP", &data[0..4]));
    }
    let mut fields = Fields::new(&data[4..HEADER_LEN]);
    let version = fields.i32();
    if version != VERSION {
        return err(format!("version {version}, expected {VERSION}"));
    }
    let mut lumps = [Lump { offset: 0, len: 0 }; LUMP_COUNT];
    for (i, lump) in lumps.iter_mut().enumerate() {
        let (offset, len) = (fields.i32(), fields.i32());
        let (Ok(o), Ok(l)) = (usize::try_from(offset), usize::try_from(len)) else {
            return err(format!("lump {i}: offset {offset} length {len} negative"));
        };
        if o.checked_add(l).is_none_or(|end| end > data.len()) {
            return err(format!(
                "lump {i}: offset {offset} length {len} past the end of the {}-byte file",
                data.len()
            ));
        }
        if l % RECORD_SIZES[i] != 0 {
            return err(format!(
                "lump {i}: funny lump size {len}, not a multiple of {}",
                RECORD_SIZES[i]
            ));
        }
        *lump = Lump { offset: o, len: l };
    }
    Ok(lumps)
}

/// The entity string: `{ "key" "value" … }` blocks up to the first NUL.
pub fn parse_entities(text: &[u8]) -> Result<Vec<Q3Entity>, Q3BspError> {
    let end = text.iter().position(|&b| b == 0).unwrap_or(text.len());
    let text = &text[..end];
    let mut at = 0;
    let skip_ws = |at: &mut usize| {
        while *at < text.len() && text[*at].is_ascii_whitespace() {
            *at += 1;
        }
    };
    let quoted = |at: &mut usize| -> Result<String, Q3BspError> {
        if text.get(*at) != Some(&b'"') {
            return err(format!("entities: expected '\"' at byte {at}"));
        }
        let start = *at + 1;
        let Some(len) = text[start..].iter().position(|&b| b == b'"') else {
            return err(format!("entities: unterminated string at byte {at}"));
        };
        *at = start + len + 1;
        Ok(String::from_utf8_lossy(&text[start..start + len]).into_owned())
    };
    let mut entities = Vec::new();
    loop {
        skip_ws(&mut at);
        if at == text.len() {
            return Ok(entities);
        }
        if text[at] != b'{' {
            return err(format!("entities: expected '{{' at byte {at}"));
        }
        at += 1;
        let mut entity = Q3Entity::default();
        loop {
            skip_ws(&mut at);
            match text.get(at) {
                Some(b'}') => {
                    at += 1;
                    break;
                }
                None => return err("entities: unclosed entity at the end"),
                _ => {}
            }
            let key = quoted(&mut at)?;
            skip_ws(&mut at);
            let value = quoted(&mut at)?;
            entity.pairs.push((key, value));
        }
        entities.push(entity);
    }
}

impl Q3Bsp {
    /// Reads and validates a whole `.bsp`.
    pub fn parse(data: &[u8]) -> Result<Q3Bsp, Q3BspError> {
        let lumps = header(data)?;
        let lump_bytes =
            |which: usize| &data[lumps[which].offset..lumps[which].offset + lumps[which].len];
        let count = |which: usize| lumps[which].len / RECORD_SIZES[which];

        let entities = parse_entities(lump_bytes(lump::ENTITIES))?;
        let shaders = records(data, &lumps, lump::SHADERS, |f| {
            let raw = &f.bytes[..64];
            let end = raw.iter().position(|&b| b == 0).unwrap_or(64);
            let name = String::from_utf8_lossy(&raw[..end]).into_owned();
            f.skip(64);
            Ok(Q3Shader {
                name,
                surface_flags: f.u32(),
                content_flags: f.u32(),
            })
        })?;
        let planes = records(data, &lumps, lump::PLANES, |f| {
            Ok(Q3Plane {
                normal: f.f32x3(),
                dist: f.f32(),
            })
        })?;
        let (n_planes, n_nodes, n_leafs) = (planes.len(), count(lump::NODES), count(lump::LEAFS));
        let mut node_index = 0;
        let nodes = records(data, &lumps, lump::NODES, |f| {
            let plane = index(f.i32(), n_planes, "node plane")?;
            let children = [f.i32(), f.i32()];
            for &c in &children {
                if c < 0 {
                    index(-(c + 1), n_leafs, "node child leaf")?;
                } else if c as usize <= node_index || c as usize >= n_nodes {
                    return err(format!(
                        "node {node_index} child {c} is not a later node (0..{n_nodes})"
                    ));
                }
            }
            node_index += 1;
            Ok(Q3Node {
                plane,
                children,
                mins: f.i32x3(),
                maxs: f.i32x3(),
            })
        })?;
        let (n_leaf_surfaces, n_leaf_brushes) =
            (count(lump::LEAFSURFACES), count(lump::LEAFBRUSHES));
        let leafs = records(data, &lumps, lump::LEAFS, |f| {
            let (cluster, area, mins, maxs) = (f.i32(), f.i32(), f.i32x3(), f.i32x3());
            let (first_leaf_surface, num_leaf_surfaces) =
                range(f.i32(), f.i32(), n_leaf_surfaces, "leaf surfaces")?;
            let (first_leaf_brush, num_leaf_brushes) =
                range(f.i32(), f.i32(), n_leaf_brushes, "leaf brushes")?;
            Ok(Q3Leaf {
                cluster,
                area,
                mins,
                maxs,
                first_leaf_surface,
                num_leaf_surfaces,
                first_leaf_brush,
                num_leaf_brushes,
            })
        })?;
        let (n_surfaces, n_brushes) = (count(lump::SURFACES), count(lump::BRUSHES));
        let leaf_surfaces = records(data, &lumps, lump::LEAFSURFACES, |f| {
            index(f.i32(), n_surfaces, "leaf surface")
        })?;
        let leaf_brushes = records(data, &lumps, lump::LEAFBRUSHES, |f| {
            index(f.i32(), n_brushes, "leaf brush")
        })?;
        let models = records(data, &lumps, lump::MODELS, |f| {
            let (mins, maxs) = (f.f32x3(), f.f32x3());
            let (first_surface, num_surfaces) =
                range(f.i32(), f.i32(), n_surfaces, "model surfaces")?;
            let (first_brush, num_brushes) = range(f.i32(), f.i32(), n_brushes, "model brushes")?;
            Ok(Q3Model {
                mins,
                maxs,
                first_surface,
                num_surfaces,
                first_brush,
                num_brushes,
            })
        })?;
        if models.is_empty() {
            return err("no models: model 0 is the world");
        }
        let (n_sides, n_shaders) = (count(lump::BRUSHSIDES), shaders.len());
        let brushes = records(data, &lumps, lump::BRUSHES, |f| {
            let (first_side, num_sides) = range(f.i32(), f.i32(), n_sides, "brush sides")?;
            Ok(Q3Brush {
                first_side,
                num_sides,
                shader: index(f.i32(), n_shaders, "brush shader")?,
            })
        })?;
        let brush_sides = records(data, &lumps, lump::BRUSHSIDES, |f| {
            Ok(Q3BrushSide {
                plane: index(f.i32(), n_planes, "side plane")?,
                shader: index(f.i32(), n_shaders, "side shader")?,
            })
        })?;
        let draw_verts = records(data, &lumps, lump::DRAWVERTS, |f| Ok(f.f32x3()))?;
        let n_verts = draw_verts.len();
        let surfaces = records(data, &lumps, lump::SURFACES, |f| {
            let shader = index(f.i32(), n_shaders, "surface shader")?;
            let _fog = f.i32();
            let surface_type = f.i32();
            let (first_vert, num_verts) = range(f.i32(), f.i32(), n_verts, "surface verts")?;
            // firstIndex, numIndexes, lightmapNum, lightmapX/Y/Width/Height, lightmapOrigin,
            // lightmapVecs[3]: 2 + 5 ints and 12 floats.
            f.skip(4 * (2 + 5 + 12));
            let (width, height) = (f.i32(), f.i32());
            let (mut patch_width, mut patch_height) = (0, 0);
            if surface_type == MST_PATCH {
                let (Ok(w), Ok(h)) = (usize::try_from(width), usize::try_from(height)) else {
                    return err(format!("patch size {width}×{height} negative"));
                };
                if w < 1 || h < 1 || w.checked_mul(h) != Some(num_verts) {
                    return err(format!(
                        "patch size {width}×{height} does not match its {num_verts} vertices"
                    ));
                }
                (patch_width, patch_height) = (w, h);
            }
            Ok(Q3Surface {
                shader,
                surface_type,
                first_vert,
                num_verts,
                patch_width,
                patch_height,
            })
        })?;
        Ok(Q3Bsp {
            lumps,
            entities,
            shaders,
            planes,
            nodes,
            leafs,
            leaf_surfaces,
            leaf_brushes,
            models,
            brushes,
            brush_sides,
            draw_verts,
            surfaces,
        })
    }

    /// The world: model 0.
    pub fn world(&self) -> &Q3Model {
        &self.models[0]
    }

    /// Model `k`'s brushes (`[firstBrush, firstBrush + numBrushes)`), empty past the end.
    pub fn model_brushes(&self, k: usize) -> &[Q3Brush] {
        self.models.get(k).map_or(&[][..], |m| {
            &self.brushes[m.first_brush..m.first_brush + m.num_brushes]
        })
    }

    /// A brush's contents: its content shader's `contentFlags`.
    pub fn brush_contents(&self, brush: &Q3Brush) -> u32 {
        self.shaders[brush.shader].content_flags
    }

    /// A brush's sides in order.
    pub fn brush_sides(&self, brush: &Q3Brush) -> &[Q3BrushSide] {
        &self.brush_sides[brush.first_side..brush.first_side + brush.num_sides]
    }

    /// A brush's side planes in order (normals out of the brush).
    pub fn brush_planes<'a>(
        &'a self,
        brush: &'a Q3Brush,
    ) -> impl Iterator<Item = &'a Q3Plane> + 'a {
        self.brush_sides(brush)
            .iter()
            .map(|s| &self.planes[s.plane])
    }

    /// Whether `p` is inside `brush` as `CM_TestInLeaf`/`CM_PointContents` test it: every side
    /// has `n·p ≤ dist` (a point on a face is inside).
    pub fn brush_contains(&self, brush: &Q3Brush, p: [f64; 3]) -> bool {
        self.brush_planes(brush)
            .all(|plane| plane.distance(p) <= 0.0)
    }

    /// The world leaf holding `p` (`CM_PointLeafnum_r`: `n·p − dist ≥ 0` goes to children[0]).
    pub fn point_leaf(&self, p: [f64; 3]) -> usize {
        if self.nodes.is_empty() {
            return 0;
        }
        let mut num: i32 = 0;
        // Children come after their parents (checked by `parse`), so this ends.
        while num >= 0 {
            let node = &self.nodes[num as usize];
            let d = self.planes[node.plane].distance(p);
            num = if d < 0.0 {
                node.children[1]
            } else {
                node.children[0]
            };
        }
        (-(num as i64 + 1)) as usize
    }

    /// Which leaves the world's tree reaches from node 0 (`true` at their index). q3map2 also
    /// writes leaf 0, empty and unreached, and one unreached leaf per submodel listing its
    /// brushes.
    pub fn world_leaves(&self) -> Vec<bool> {
        let mut leaves = vec![false; self.leafs.len()];
        let mut reached = vec![false; self.nodes.len()];
        if let Some(root) = reached.first_mut() {
            *root = true;
        }
        // Children come after their parents, so one pass in order reaches every descendant.
        for i in 0..self.nodes.len() {
            if !reached[i] {
                continue;
            }
            for c in self.nodes[i].children {
                if c < 0 {
                    leaves[(-(c as i64 + 1)) as usize] = true;
                } else {
                    reached[c as usize] = true;
                }
            }
        }
        leaves
    }

    /// The brushes leaf `leaf` lists, empty past the end.
    pub fn leaf_brush_list(&self, leaf: usize) -> &[usize] {
        self.leafs.get(leaf).map_or(&[][..], |l| {
            &self.leaf_brushes[l.first_leaf_brush..l.first_leaf_brush + l.num_leaf_brushes]
        })
    }

    /// `CM_PointContents(p, 0)`: the OR of the contents of the leaf's brushes holding `p`.
    pub fn point_contents(&self, p: [f64; 3]) -> u32 {
        let Some(leaf) = self.leafs.get(self.point_leaf(p)) else {
            return 0;
        };
        self.leaf_brushes[leaf.first_leaf_brush..leaf.first_leaf_brush + leaf.num_leaf_brushes]
            .iter()
            .map(|&b| &self.brushes[b])
            .filter(|b| self.brush_contains(b, p))
            .fold(0, |acc, b| acc | self.brush_contents(b))
    }

    /// The same by brute force: the OR over every world brush holding `p`.
    pub fn point_contents_brute(&self, p: [f64; 3]) -> u32 {
        self.model_brushes(0)
            .iter()
            .filter(|b| self.brush_contains(b, p))
            .fold(0, |acc, b| acc | self.brush_contents(b))
    }

    /// Every patch surface (type 2) with its shader and control grid, in surface order.
    pub fn patches(&self) -> impl Iterator<Item = Q3Patch<'_>> + '_ {
        self.surfaces
            .iter()
            .enumerate()
            .filter(|(_, s)| s.surface_type == MST_PATCH)
            .map(|(i, s)| Q3Patch {
                surface: i,
                shader: &self.shaders[s.shader],
                width: s.patch_width,
                height: s.patch_height,
                points: &self.draw_verts[s.first_vert..s.first_vert + s.num_verts],
            })
    }

    /// The entity whose `"model"` is `"*k"` (`k ≥ 1`).
    pub fn model_entity(&self, k: usize) -> Option<&Q3Entity> {
        let key = format!("*{k}");
        self.entities
            .iter()
            .find(|e| e.get("model") == Some(key.as_str()))
    }
}
