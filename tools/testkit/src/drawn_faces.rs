//! A Quake 1 family `.bsp`'s drawn faces as a triangle mesh: what an artist exporting a
//! compiled level gets, for measuring the mesh compiler on levels beyond the shared meshes.
//!
//! Takes a BSP29, Half-Life BSP30 or BSP2 file's bytes; gives the world model's faces
//! (model 0's face range), each fanned from its first corner into triangles wound
//! counter-clockwise seen from the face's front (the side its plane, flipped by the face's
//! side flag, points to: the air side of a wall, either side of a liquid surface, whose
//! faces the compilers write once per side), grouped by texture name in first-use order,
//! with the file's vertices as they are (Quake units, Z up, no conversion), as OBJ text
//! ([`DrawnFaces::to_obj`], a group and `usemtl` per texture) or binary glTF
//! ([`DrawnFaces::to_glb`], a primitive and material per texture). A face keeps every
//! corner the file lists, the compilers' T-junction fixes included, so a fan may hold
//! zero-area triangles, as exported levels do. A face whose texture the file does not hold
//! (compiled without its WAD) gets the material [`UNNAMED`].
//!
//! Guarantees: every offset and index is checked against its lump; a malformed file is an
//! `Err` naming what is wrong, never a panic. Test support only: planeshift reads `.bsp`
//! files through `planeshift::build::import_bsp`, which does not read drawn faces.

/// The drawn faces of a level's world model.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DrawnFaces {
    /// The file's vertices, every one (faces index them).
    pub positions: Vec<[f32; 3]>,
    /// Per texture, in first-use order: its name and its triangles' corner indices (three
    /// per triangle).
    pub groups: Vec<(String, Vec<u32>)>,
}

/// The material of faces whose texture the file does not hold.
pub const UNNAMED: &str = "unnamed";

/// Lump numbers of the Quake 1 family's header (`bspfile.h`).
const LUMP_PLANES: usize = 1;
const LUMP_TEXTURES: usize = 2;
const LUMP_VERTEXES: usize = 3;
const LUMP_TEXINFO: usize = 6;
const LUMP_FACES: usize = 7;
const LUMP_EDGES: usize = 12;
const LUMP_SURFEDGES: usize = 13;
const LUMP_MODELS: usize = 14;
/// Lumps in the header.
const LUMPS: usize = 15;

/// Record sizes that do not depend on the format, in bytes.
const PLANE_BYTES: usize = 20;
const VERTEX_BYTES: usize = 12;
const TEXINFO_BYTES: usize = 40;
const MODEL_BYTES: usize = 64;
/// Where a model's first face and face count lie in its record.
const MODEL_FIRST_FACE: usize = 56;

/// The little-endian reader of one lump.
struct Lump<'a> {
    bytes: &'a [u8],
    name: &'static str,
}

impl Lump<'_> {
    /// The `N` bytes at `at`.
    fn array<const N: usize>(&self, at: usize) -> Result<[u8; N], String> {
        self.bytes
            .get(at..at.saturating_add(N))
            .and_then(|b| b.try_into().ok())
            .ok_or_else(|| format!("{}: read past the lump at byte {at}", self.name))
    }

    fn u32(&self, at: usize) -> Result<u32, String> {
        self.array(at).map(u32::from_le_bytes)
    }

    fn i32(&self, at: usize) -> Result<i32, String> {
        self.array(at).map(i32::from_le_bytes)
    }

    fn u16(&self, at: usize) -> Result<u16, String> {
        self.array(at).map(u16::from_le_bytes)
    }

    fn f32(&self, at: usize) -> Result<f32, String> {
        self.u32(at).map(f32::from_bits)
    }

    fn vec3(&self, at: usize) -> Result<[f32; 3], String> {
        Ok([
            self.f32(at)?,
            self.f32(at.saturating_add(4))?,
            self.f32(at.saturating_add(8))?,
        ])
    }

    fn count(&self, record: usize) -> usize {
        self.bytes.len() / record
    }
}

/// The record layouts that differ between BSP29/BSP30 (16-bit) and BSP2 (32-bit).
#[derive(Clone, Copy)]
struct Layout {
    wide: bool,
}

impl Layout {
    fn edge_bytes(self) -> usize {
        if self.wide { 8 } else { 4 }
    }

    fn face_bytes(self) -> usize {
        if self.wide { 28 } else { 20 }
    }

    fn edge(self, edges: &Lump<'_>, index: usize) -> Result<[u32; 2], String> {
        let at = index * self.edge_bytes();
        Ok(if self.wide {
            [edges.u32(at)?, edges.u32(at + 4)?]
        } else {
            [u32::from(edges.u16(at)?), u32::from(edges.u16(at + 2)?)]
        })
    }

    /// A face's plane, side flag, first surfedge, edge count and texinfo.
    fn face(self, faces: &Lump<'_>, index: usize) -> Result<[i64; 5], String> {
        let at = index * self.face_bytes();
        Ok(if self.wide {
            [
                i64::from(faces.u32(at)?),
                i64::from(faces.u32(at + 4)?),
                i64::from(faces.i32(at + 8)?),
                i64::from(faces.u32(at + 12)?),
                i64::from(faces.u32(at + 16)?),
            ]
        } else {
            [
                i64::from(faces.u16(at)?),
                i64::from(faces.u16(at + 2)?),
                i64::from(faces.i32(at + 4)?),
                i64::from(faces.u16(at + 8)?),
                i64::from(faces.u16(at + 10)?),
            ]
        })
    }
}

/// The world model's drawn faces of the Quake 1 family file `bytes`.
///
/// # Errors
/// A format other than BSP29, BSP30 or BSP2, or any record or index outside its lump.
pub fn drawn_faces(bytes: &[u8]) -> Result<DrawnFaces, String> {
    let header = Lump {
        bytes,
        name: "header",
    };
    let layout = match bytes.get(0..4) {
        Some([29 | 30, 0, 0, 0]) => Layout { wide: false },
        Some(b"BSP2") => Layout { wide: true },
        _ => return Err("not a BSP29, BSP30 or BSP2 file".to_owned()),
    };
    let mut lumps: Vec<Lump<'_>> = Vec::with_capacity(LUMPS);
    const NAMES: [&str; LUMPS] = [
        "entities",
        "planes",
        "textures",
        "vertexes",
        "visibility",
        "nodes",
        "texinfo",
        "faces",
        "lighting",
        "clipnodes",
        "leafs",
        "marksurfaces",
        "edges",
        "surfedges",
        "models",
    ];
    for (i, name) in NAMES.into_iter().enumerate() {
        let offset = header.u32(4 + 8 * i)? as usize;
        let length = header.u32(8 + 8 * i)? as usize;
        let lump = bytes
            .get(offset..offset.saturating_add(length))
            .ok_or_else(|| format!("{name}: lump outside the file"))?;
        lumps.push(Lump { bytes: lump, name });
    }
    let (planes, textures) = (&lumps[LUMP_PLANES], &lumps[LUMP_TEXTURES]);
    let (vertexes, texinfo) = (&lumps[LUMP_VERTEXES], &lumps[LUMP_TEXINFO]);
    let (faces, edges) = (&lumps[LUMP_FACES], &lumps[LUMP_EDGES]);
    let (surfedges, models) = (&lumps[LUMP_SURFEDGES], &lumps[LUMP_MODELS]);
    let positions = (0..vertexes.count(VERTEX_BYTES))
        .map(|i| vertexes.vec3(i * VERTEX_BYTES))
        .collect::<Result<Vec<_>, _>>()?;
    if models.count(MODEL_BYTES) == 0 {
        return Err("models: no world model".to_owned());
    }
    let first_face = models.i32(MODEL_FIRST_FACE)?;
    let face_count = models.i32(MODEL_FIRST_FACE + 4)?;
    let (Ok(first_face), Ok(face_count)) =
        (usize::try_from(first_face), usize::try_from(face_count))
    else {
        return Err("models: a negative face range".to_owned());
    };
    let mut groups: Vec<(String, Vec<u32>)> = Vec::new();
    for face in first_face..first_face.saturating_add(face_count) {
        if face >= faces.count(layout.face_bytes()) {
            return Err(format!("faces: face {face} past the lump"));
        }
        let [plane, side, first_edge, edge_count, info] = layout.face(faces, face)?;
        let mut corners = (0..edge_count)
            .map(|k| {
                let surfedge = surfedges.i32(
                    usize::try_from(first_edge + k)
                        .map_err(|_| format!("faces: face {face}'s edges start at {first_edge}"))?
                        * 4,
                )?;
                let edge = layout.edge(edges, surfedge.unsigned_abs() as usize)?;
                let corner = if surfedge >= 0 { edge[0] } else { edge[1] };
                if corner as usize >= positions.len() {
                    return Err(format!("edges: vertex {corner} past the lump"));
                }
                Ok(corner)
            })
            .collect::<Result<Vec<u32>, String>>()?;
        let plane = usize::try_from(plane).unwrap_or(usize::MAX);
        let normal = planes.vec3(plane.saturating_mul(PLANE_BYTES))?;
        let front = if side == 0 {
            normal
        } else {
            normal.map(|c| -c)
        };
        let name = texture_name(textures, texinfo, info)?;
        let triangles = match groups.iter_mut().find(|(n, _)| *n == name) {
            Some((_, triangles)) => triangles,
            None => {
                groups.push((name, Vec::new()));
                let last = groups.len() - 1;
                &mut groups[last].1
            }
        };
        // Wound counter-clockwise about `front`: the corners' own turn (Newell's normal)
        // says which way the file lists them.
        let counter_clockwise = newell(&positions, &corners)
            .iter()
            .zip(front)
            .map(|(a, b)| f64::from(*a) * f64::from(b))
            .sum::<f64>()
            >= 0.0;
        if !counter_clockwise {
            corners.reverse();
        }
        for k in 1..corners.len().saturating_sub(1) {
            triangles.extend_from_slice(&[corners[0], corners[k], corners[k + 1]]);
        }
    }
    Ok(DrawnFaces { positions, groups })
}

/// The texture name of texinfo `info`: its miptex's 16-byte name up to the first zero, or
/// [`UNNAMED`] when the file does not hold that texture (a miptex offset of −1, as in files
/// compiled without their textures' WAD).
fn texture_name(textures: &Lump<'_>, texinfo: &Lump<'_>, info: i64) -> Result<String, String> {
    let info = usize::try_from(info).unwrap_or(usize::MAX);
    let miptex = texinfo.i32(info.saturating_mul(TEXINFO_BYTES).saturating_add(32))?;
    let Ok(miptex) = usize::try_from(miptex) else {
        return Ok(UNNAMED.to_owned());
    };
    let offset = textures.i32(4 + 4 * miptex)?;
    let Ok(offset) = usize::try_from(offset) else {
        return Ok(UNNAMED.to_owned());
    };
    let name = textures
        .bytes
        .get(offset..offset + 16)
        .ok_or_else(|| format!("textures: miptex {miptex} past the lump"))?;
    let end = name.iter().position(|&b| b == 0).unwrap_or(name.len());
    Ok(String::from_utf8_lossy(&name[..end]).into_owned())
}

/// Newell's normal of the polygon `corners` (unnormalised; its direction is the side from
/// which the corners turn counter-clockwise).
fn newell(positions: &[[f32; 3]], corners: &[u32]) -> [f32; 3] {
    let mut n = [0.0f64; 3];
    for (k, &a) in corners.iter().enumerate() {
        let b = corners[(k + 1) % corners.len()];
        let (p, q) = (positions[a as usize], positions[b as usize]);
        let (p, q) = (p.map(f64::from), q.map(f64::from));
        n[0] += (p[1] - q[1]) * (p[2] + q[2]);
        n[1] += (p[2] - q[2]) * (p[0] + q[0]);
        n[2] += (p[0] - q[0]) * (p[1] + q[1]);
    }
    n.map(|c| c as f32)
}

impl DrawnFaces {
    /// Wavefront OBJ text: every vertex, then per texture a group and `usemtl` with its
    /// triangles (1-based indices).
    #[must_use]
    pub fn to_obj(&self) -> String {
        let mut out = String::from("# drawn faces of a Quake 1 family .bsp's world model, Z up\n");
        for p in &self.positions {
            out.push_str(&format!("v {} {} {}\n", p[0], p[1], p[2]));
        }
        for (name, triangles) in &self.groups {
            out.push_str(&format!("g {name}\nusemtl {name}\n"));
            for t in triangles.chunks_exact(3) {
                out.push_str(&format!("f {} {} {}\n", t[0] + 1, t[1] + 1, t[2] + 1));
            }
        }
        out
    }

    /// Binary glTF: one node, one mesh, a primitive and a material per texture over one
    /// position accessor.
    #[must_use]
    pub fn to_glb(&self) -> Vec<u8> {
        let groups: Vec<(&str, &[u32])> = self
            .groups
            .iter()
            .map(|(n, t)| (n.as_str(), t.as_slice()))
            .collect();
        crate::glb::glb_of_groups(&self.positions, &groups)
    }

    /// Triangles over all groups.
    #[must_use]
    pub fn triangle_count(&self) -> usize {
        self.groups.iter().map(|(_, t)| t.len() / 3).sum()
    }
}

/// A Quake 1 family level of the real maps whose drawn faces no shared mesh holds.
#[derive(Clone, Debug)]
pub struct HeldBackLevel {
    /// Its path under the real maps folder, with `/` separators.
    pub name: String,
    /// The `.bsp` file's bytes.
    pub bytes: Vec<u8>,
    /// Its world model's drawn faces.
    pub faces: DrawnFaces,
}

/// The folder of the levels the shared meshes (`meshes/`) were exported from.
pub const SHARED_MESH_LEVELS: &str = "id-quake-1996";

/// Every `.bsp` under `dir` (the real maps folder) outside [`SHARED_MESH_LEVELS`], sorted by
/// name: the Quake 1 family ones with their drawn faces, and the names of the others with
/// why they were passed over (another family: Quake 2 and Quake 3 do not store their faces
/// as a Quake 1 face list).
#[must_use]
pub fn held_back_levels(dir: &std::path::Path) -> (Vec<HeldBackLevel>, Vec<(String, String)>) {
    let (mut levels, mut passed_over) = (Vec::new(), Vec::new());
    for (name, path) in crate::files_in(dir, "bsp") {
        if name.starts_with(&format!("{SHARED_MESH_LEVELS}/")) {
            continue;
        }
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) => {
                passed_over.push((name, e.to_string()));
                continue;
            }
        };
        match drawn_faces(&bytes) {
            Ok(faces) => levels.push(HeldBackLevel { name, bytes, faces }),
            Err(e) => passed_over.push((name, e)),
        }
    }
    (levels, passed_over)
}
