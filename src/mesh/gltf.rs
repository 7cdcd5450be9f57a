//! glTF 2.0 (`.gltf` JSON with its buffers, `.glb` binary) to triangles, the document read by
//! the `gltf` crate, the buffers and accessors by this file.
//!
//! Takes the file's bytes, the folder of a `.gltf`'s external buffers, and the
//! [`MeshOptions`]; gives a `TriangleMesh`: every triangle of every primitive of every node
//! of the default scene (every scene when none is named as default, every root node when the
//! file has no scene), with the node's whole transform (its ancestors' too) applied, then the
//! axis and scale; each triangle named by its primitive's material (`""` without one).
//! Triangle strips and fans are unrolled; points and lines are skipped and counted.
//! Guarantees: every buffer, view and accessor range is checked before it is read, so a
//! missing or short buffer is a [`MeshError::Buffer`] and a malformed document a
//! [`MeshError::Gltf`], never a panic; the node walk uses an explicit stack and visits each
//! node at most once (a node reached twice is an error), so it ends; only `data:` URIs and
//! files inside `folder` are read.

use std::path::Path;

use glam::{DMat4, DVec3};
use gltf::accessor::{DataType, Dimensions};
use gltf::mesh::{Mode, Semantic};

use super::{MAX_MESH_TRIANGLES, MeshError, MeshOptions, TriangleMesh};

/// Reads glTF `bytes` (module docs).
pub(super) fn read_gltf(
    bytes: &[u8],
    folder: Option<&Path>,
    options: &MeshOptions,
) -> Result<TriangleMesh, MeshError> {
    let raw = gltf::Gltf::from_slice_without_validation(bytes)
        .map_err(|e| MeshError::Gltf(e.to_string()))?;
    // gltf-json 1.4's validation indexes the accessors by a primitive's POSITION before it
    // checks the index (`mesh.rs`, `primitive_validate_hook`): checked here first.
    let json = raw.document.into_json();
    for (m, mesh) in json.meshes.iter().enumerate() {
        for primitive in &mesh.primitives {
            for accessor in primitive.attributes.values() {
                if accessor.value() >= json.accessors.len() {
                    return Err(MeshError::Gltf(format!(
                        "mesh {m}: accessor {} out of range",
                        accessor.value()
                    )));
                }
            }
        }
    }
    let document =
        gltf::Document::from_json(json).map_err(|e| MeshError::Gltf(e.to_string()))?;
    let file = gltf::Gltf {
        document,
        blob: raw.blob,
    };
    let buffers = load_buffers(&file, folder)?;
    let document = &file.document;
    let roots: Vec<gltf::Node<'_>> = match document.default_scene() {
        Some(scene) => scene.nodes().collect(),
        None if document.scenes().len() > 0 => {
            document.scenes().flat_map(|s| s.nodes()).collect()
        }
        None => {
            let mut child = vec![false; document.nodes().len()];
            for node in document.nodes() {
                for c in node.children() {
                    if let Some(slot) = child.get_mut(c.index()) {
                        *slot = true;
                    }
                }
            }
            document
                .nodes()
                .filter(|n| !child.get(n.index()).copied().unwrap_or(false))
                .collect()
        }
    };
    let mut mesh = TriangleMesh::default();
    let mut visited = vec![false; document.nodes().len()];
    let mut stack: Vec<(gltf::Node<'_>, DMat4)> =
        roots.into_iter().rev().map(|n| (n, DMat4::IDENTITY)).collect();
    while let Some((node, parent)) = stack.pop() {
        let Some(seen) = visited.get_mut(node.index()) else {
            return Err(MeshError::Gltf(format!("node {} out of range", node.index())));
        };
        if *seen {
            return Err(MeshError::Gltf(format!(
                "node {} is reached twice (a cycle or a shared child)",
                node.index()
            )));
        }
        *seen = true;
        let local = node.transform().matrix().map(|c| c.map(f64::from));
        let world = parent * DMat4::from_cols_array_2d(&local);
        if let Some(node_mesh) = node.mesh() {
            for primitive in node_mesh.primitives() {
                add_primitive(&mut mesh, &primitive, &buffers, world, options)?;
            }
        }
        let children: Vec<gltf::Node<'_>> = node.children().collect();
        stack.extend(children.into_iter().rev().map(|c| (c, world)));
    }
    Ok(mesh)
}

/// Every buffer's bytes: the binary chunk, a `data:` URI, or a file beside the document.
fn load_buffers(file: &gltf::Gltf, folder: Option<&Path>) -> Result<Vec<Vec<u8>>, MeshError> {
    let mut out = Vec::new();
    for buffer in file.document.buffers() {
        let index = buffer.index();
        let error = |reason: String| MeshError::Buffer { index, reason };
        let data = match buffer.source() {
            gltf::buffer::Source::Bin => file
                .blob
                .clone()
                .ok_or_else(|| error("the file has no binary chunk".to_owned()))?,
            gltf::buffer::Source::Uri(uri) => {
                if let Some(rest) = uri.strip_prefix("data:") {
                    let Some((_, encoded)) = rest.split_once(";base64,") else {
                        return Err(error("a data URI that is not base64".to_owned()));
                    };
                    decode_base64(encoded).ok_or_else(|| error("malformed base64".to_owned()))?
                } else {
                    let Some(folder) = folder else {
                        return Err(error(format!("external file {uri} and no folder to read it from")));
                    };
                    if uri.contains("..") || uri.contains(':') || uri.starts_with('/') {
                        return Err(error(format!("external file {uri} is outside the folder")));
                    }
                    std::fs::read(folder.join(uri))
                        .map_err(|e| error(format!("cannot read {uri}: {e}")))?
                }
            }
        };
        if data.len() < buffer.length() {
            return Err(error(format!(
                "{} bytes, {} declared",
                data.len(),
                buffer.length()
            )));
        }
        out.push(data);
    }
    Ok(out)
}

/// Standard base64 (with or without padding); `None` for any other byte.
fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut acc = 0u32;
    let mut bits = 0u32;
    for &c in text.as_bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => break,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// The byte range of element `i` of `accessor`'s data of `size` bytes an element, checked
/// against its buffer.
fn element<'b>(
    accessor: &gltf::Accessor<'_>,
    buffers: &'b [Vec<u8>],
    i: usize,
    size: usize,
) -> Result<&'b [u8], MeshError> {
    let Some(view) = accessor.view() else {
        return Err(MeshError::Gltf(format!(
            "accessor {} has no buffer view (sparse-only accessors are not read)",
            accessor.index()
        )));
    };
    let index = view.buffer().index();
    let error = |reason: String| MeshError::Buffer { index, reason };
    let data = buffers
        .get(index)
        .ok_or_else(|| error("missing".to_owned()))?;
    let stride = view.stride().unwrap_or(size).max(size);
    let start = view
        .offset()
        .checked_add(accessor.offset())
        .and_then(|s| s.checked_add(i.checked_mul(stride)?))
        .ok_or_else(|| error("offset overflows".to_owned()))?;
    let end = start
        .checked_add(size)
        .ok_or_else(|| error("offset overflows".to_owned()))?;
    let view_end = view.offset().saturating_add(view.length());
    if end > view_end || end > data.len() {
        return Err(error(format!(
            "accessor {} reads bytes {start}..{end}, past its view or buffer",
            accessor.index()
        )));
    }
    data.get(start..end)
        .ok_or_else(|| error("range out of the buffer".to_owned()))
}

/// Element `i` of a `VEC3` float accessor.
fn position(
    accessor: &gltf::Accessor<'_>,
    buffers: &[Vec<u8>],
    i: usize,
) -> Result<DVec3, MeshError> {
    let b = element(accessor, buffers, i, 12)?;
    let f = |k: usize| -> f64 {
        let mut word = [0u8; 4];
        word.copy_from_slice(&b[4 * k..4 * k + 4]);
        f64::from(f32::from_le_bytes(word))
    };
    Ok(DVec3::new(f(0), f(1), f(2)))
}

/// Element `i` of a scalar unsigned index accessor.
fn index_at(
    accessor: &gltf::Accessor<'_>,
    buffers: &[Vec<u8>],
    i: usize,
) -> Result<usize, MeshError> {
    Ok(match accessor.data_type() {
        DataType::U8 => usize::from(element(accessor, buffers, i, 1)?[0]),
        DataType::U16 => {
            let b = element(accessor, buffers, i, 2)?;
            usize::from(u16::from_le_bytes([b[0], b[1]]))
        }
        DataType::U32 => {
            let b = element(accessor, buffers, i, 4)?;
            u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize
        }
        other => {
            return Err(MeshError::Gltf(format!(
                "accessor {}: indices of type {other:?}",
                accessor.index()
            )));
        }
    })
}

/// Adds `primitive`'s triangles under transform `world`.
fn add_primitive(
    mesh: &mut TriangleMesh,
    primitive: &gltf::Primitive<'_>,
    buffers: &[Vec<u8>],
    world: DMat4,
    options: &MeshOptions,
) -> Result<(), MeshError> {
    let mode = primitive.mode();
    if !matches!(mode, Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan) {
        mesh.skipped += 1;
        return Ok(());
    }
    let Some(positions) = primitive.get(&Semantic::Positions) else {
        mesh.skipped += 1;
        return Ok(());
    };
    if positions.data_type() != DataType::F32 || positions.dimensions() != Dimensions::Vec3 {
        return Err(MeshError::Gltf(format!(
            "accessor {}: positions are not float VEC3",
            positions.index()
        )));
    }
    let count = primitive
        .indices()
        .map_or(positions.count(), |a| a.count());
    if count > 3 * MAX_MESH_TRIANGLES {
        return Err(MeshError::TooManyTriangles);
    }
    let corner = |k: usize| -> Result<DVec3, MeshError> {
        let v = match primitive.indices() {
            Some(indices) => index_at(&indices, buffers, k)?,
            None => k,
        };
        if v >= positions.count() {
            return Err(MeshError::Gltf(format!(
                "accessor {}: index {v} of {} positions",
                positions.index(),
                positions.count()
            )));
        }
        Ok(world.transform_point3(position(&positions, buffers, v)?))
    };
    let name = primitive.material().name().unwrap_or("").to_owned();
    let material = mesh.material(&name);
    let triangles = match mode {
        Mode::Triangles => count / 3,
        _ => count.saturating_sub(2),
    };
    // A transform that mirrors turns the winding inside out; swapping two corners keeps
    // each triangle counter-clockwise from its front.
    let mirrored = world.determinant() < 0.0;
    for t in 0..triangles {
        let [a, b, c] = match mode {
            Mode::Triangles => [3 * t, 3 * t + 1, 3 * t + 2],
            Mode::TriangleStrip if t % 2 == 1 => [t + 1, t, t + 2],
            Mode::TriangleStrip => [t, t + 1, t + 2],
            _ => [0, t + 1, t + 2],
        };
        let mut points = [corner(a)?, corner(b)?, corner(c)?];
        if mirrored {
            points.swap(1, 2);
        }
        mesh.push(options, points, material)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_decodes_with_and_without_padding() {
        assert_eq!(decode_base64("TWFu"), Some(b"Man".to_vec()));
        assert_eq!(decode_base64("TWE="), Some(b"Ma".to_vec()));
        assert_eq!(decode_base64("TWE"), Some(b"Ma".to_vec()));
        assert_eq!(decode_base64("T*E"), None);
    }
}
