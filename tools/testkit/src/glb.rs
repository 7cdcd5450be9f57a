//! Binary glTF files written by tests: one mesh of triangles, of one material or of one
//! primitive per material.
//!
//! Takes corner positions and triangle indices (`u16` for one material, `u32` per material
//! for several), one writer for both; gives the bytes of a valid `.glb` (glTF 2.0: the JSON chunk padded with
//! spaces, the binary chunk with zeros, to four bytes; the positions' accessor with the
//! `min` and `max` the format requires), one scene of one node of one mesh, or a `.gltf`
//! document with its external buffer and the nodes a test gives. Guarantees nothing beyond that: a test that wants a bad
//! file mutates these bytes.

/// The `.glb` bytes of the triangles `indices` (three per triangle) over `positions`, all
/// of material `material`, the indices written as `u16`.
#[must_use]
pub fn glb_of_triangles(positions: &[[f32; 3]], indices: &[u16], material: &str) -> Vec<u8> {
    let indices: Vec<u32> = indices.iter().map(|&i| u32::from(i)).collect();
    let groups = [(material, indices.as_slice())];
    let (json, bin) = document(positions, &groups, Index::U16, None, MESH_AT_ROOT);
    framed(json, bin)
}

/// The `.glb` bytes of one mesh with a primitive per group: each group's material name and
/// its triangles' `u32` indices (three per triangle) over the shared `positions`.
#[must_use]
pub fn glb_of_groups(positions: &[[f32; 3]], groups: &[(&str, &[u32])]) -> Vec<u8> {
    let (json, bin) = document(positions, groups, Index::U32, None, MESH_AT_ROOT);
    framed(json, bin)
}

/// A `.gltf` document and its external buffer: the mesh of [`glb_of_groups`], its buffer
/// read from `buffer_uri` (a file beside the document), placed by `nodes` (the `nodes`
/// array's JSON, one of them holding `"mesh":0`) with the scene's roots `roots` (JSON
/// array of node indices).
#[must_use]
pub fn gltf_of_groups(
    positions: &[[f32; 3]],
    groups: &[(&str, &[u32])],
    buffer_uri: &str,
    (nodes, roots): (&str, &str),
) -> (String, Vec<u8>) {
    document(
        positions,
        groups,
        Index::U32,
        Some(buffer_uri),
        (nodes, roots),
    )
}

/// The nodes and scene roots of a mesh placed as it is: one node holding it.
const MESH_AT_ROOT: (&str, &str) = (r#"[{"mesh":0}]"#, "[0]");

/// How the index accessors store an index.
#[derive(Clone, Copy)]
enum Index {
    /// `UNSIGNED_SHORT` (5123): every index below 65,536.
    U16,
    /// `UNSIGNED_INT` (5125).
    U32,
}

/// The JSON of one mesh (a primitive per group, its indices stored as `index` says) and
/// its binary buffer, whose `uri` is `buffer_uri` (`None`: a `.glb`'s own chunk), placed by
/// `nodes` with the scene's `roots`.
fn document(
    positions: &[[f32; 3]],
    groups: &[(&str, &[u32])],
    index: Index,
    buffer_uri: Option<&str>,
    (nodes, roots): (&str, &str),
) -> (String, Vec<u8>) {
    let mut bin: Vec<u8> = Vec::new();
    for p in positions {
        for c in p {
            bin.extend_from_slice(&c.to_le_bytes());
        }
    }
    let positions_len = bin.len();
    let (min, max) = bounds(positions);
    let mut views = vec![format!(
        r#"{{"buffer":0,"byteOffset":0,"byteLength":{positions_len}}}"#
    )];
    let mut accessors = vec![format!(
        r#"{{"bufferView":0,"componentType":5126,"count":{},"type":"VEC3","min":{min:?},"max":{max:?}}}"#,
        positions.len()
    )];
    let (mut primitives, mut materials) = (Vec::new(), Vec::new());
    for (k, (name, indices)) in groups.iter().enumerate() {
        let offset = bin.len();
        for &i in indices.iter() {
            match index {
                Index::U16 => bin.extend_from_slice(&(i as u16).to_le_bytes()),
                Index::U32 => bin.extend_from_slice(&i.to_le_bytes()),
            }
        }
        views.push(format!(
            r#"{{"buffer":0,"byteOffset":{offset},"byteLength":{}}}"#,
            bin.len() - offset
        ));
        accessors.push(format!(
            r#"{{"bufferView":{},"componentType":{},"count":{},"type":"SCALAR"}}"#,
            k + 1,
            match index {
                Index::U16 => 5123,
                Index::U32 => 5125,
            },
            indices.len()
        ));
        primitives.push(format!(
            r#"{{"attributes":{{"POSITION":0}},"indices":{},"material":{k}}}"#,
            k + 1
        ));
        let name = name.replace('\\', "\\\\").replace('"', "\\\"");
        materials.push(format!(r#"{{"name":"{name}"}}"#));
    }
    let uri = buffer_uri.map_or(String::new(), |u| format!(r#","uri":"{u}""#));
    let json = format!(
        r#"{{"asset":{{"version":"2.0"}},"scene":0,"scenes":[{{"nodes":{roots}}}],"nodes":{nodes},"meshes":[{{"primitives":[{}]}}],"materials":[{}],"buffers":[{{"byteLength":{}{uri}}}],"bufferViews":[{}],"accessors":[{}]}}"#,
        primitives.join(","),
        materials.join(","),
        bin.len(),
        views.join(","),
        accessors.join(",")
    );
    (json, bin)
}

/// The positions' least and greatest coordinates, per axis.
fn bounds(positions: &[[f32; 3]]) -> ([f32; 3], [f32; 3]) {
    let bound = |pick: fn(f32, f32) -> f32, start: f32| -> [f32; 3] {
        std::array::from_fn(|a| positions.iter().fold(start, |m, p| pick(m, p[a])))
    };
    (
        bound(f32::min, f32::INFINITY),
        bound(f32::max, f32::NEG_INFINITY),
    )
}

/// The file: header, the JSON chunk padded with spaces and the binary chunk with zeros.
fn framed(json: String, mut bin: Vec<u8>) -> Vec<u8> {
    let mut json = json.into_bytes();
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let total = 12 + 8 + json.len() + 8 + bin.len();
    let mut out = Vec::new();
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&bin);
    out
}
