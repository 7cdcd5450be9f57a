//! Wavefront OBJ text to triangles, read by `tobj`.
//!
//! Takes the file's bytes and the [`MeshOptions`]; gives a `TriangleMesh`: every face
//! triangulated (tobj fans a polygon), each triangle with the name of the `usemtl` in force
//! (`""` before any), positions in map units. Guarantees: a malformed file (a bad number, an
//! index out of range, bytes that are not UTF-8) is a [`MeshError::Obj`]; material
//! libraries (`mtllib`) are never opened: only the names `usemtl` gives matter, and they
//! are collected from the text itself, so no file beside the OBJ is read.

use std::collections::HashMap;

use glam::DVec3;

use super::{MeshError, MeshOptions, TriangleMesh};

/// The names every `usemtl` line of `text` gives, each once, in order (tobj keeps a
/// material's name only when a library defines it).
fn usemtl_names(bytes: &[u8]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for line in bytes.split(|&b| b == b'\n') {
        let line = String::from_utf8_lossy(line);
        let line = line.trim();
        let Some(rest) = line.strip_prefix("usemtl") else {
            continue;
        };
        if !rest.starts_with([' ', '\t']) {
            continue;
        }
        let name = rest.trim();
        if !name.is_empty() && !names.iter().any(|n| n == name) {
            names.push(name.to_owned());
        }
    }
    names
}

/// Reads OBJ `bytes` (module docs).
pub(super) fn read_obj(bytes: &[u8], options: &MeshOptions) -> Result<TriangleMesh, MeshError> {
    let names = usemtl_names(bytes);
    let materials: Vec<tobj::Material> = names
        .iter()
        .map(|name| tobj::Material {
            name: name.clone(),
            ..tobj::Material::default()
        })
        .collect();
    let by_name: HashMap<String, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.clone(), i))
        .collect();
    // tobj asks for a library only at an `mtllib` line; one is prepended so the names are
    // known from the first face on (the prefix ends with a newline, so no line of the file
    // changes meaning).
    let mut text: Vec<u8> = b"mtllib planeshift-usemtl-names\n".to_vec();
    text.extend_from_slice(bytes);
    let load = tobj::LoadOptions {
        triangulate: true,
        single_index: false,
        ignore_points: true,
        ignore_lines: true,
    };
    let mut reader = std::io::BufReader::new(text.as_slice());
    let (models, _) = tobj::load_obj_buf(&mut reader, &load, |_| {
        Ok((materials.clone(), by_name.clone()))
    })
    .map_err(|e| MeshError::Obj(e.to_string()))?;
    let mut mesh = TriangleMesh::default();
    for model in &models {
        let name = model
            .mesh
            .material_id
            .and_then(|i| names.get(i))
            .map_or("", String::as_str);
        let material = mesh.material(name);
        let positions = &model.mesh.positions;
        let corner = |i: u32| -> Option<DVec3> {
            let i = i as usize;
            let p = positions.get(3 * i..3 * i + 3)?;
            Some(DVec3::new(f64::from(p[0]), f64::from(p[1]), f64::from(p[2])))
        };
        for tri in model.mesh.indices.chunks(3) {
            let [a, b, c] = tri else {
                mesh.skipped += 1;
                continue;
            };
            match (corner(*a), corner(*b), corner(*c)) {
                (Some(a), Some(b), Some(c)) => mesh.push(options, [a, b, c], material)?,
                _ => return Err(MeshError::Obj("face index out of range".to_owned())),
            }
        }
    }
    Ok(mesh)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usemtl_names_come_in_order_of_first_use() {
        let text = b"usemtl a\nf 1 2 3\nusemtl *water\nusemtl a\nusemtlx b\n";
        assert_eq!(usemtl_names(text), vec!["a".to_owned(), "*water".to_owned()]);
    }

    #[test]
    fn a_quad_becomes_two_triangles_with_its_material() {
        let text = b"v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nusemtl floor\nf 1 2 3 4\n";
        let mesh = read_obj(text, &MeshOptions::default());
        let Ok(mesh) = mesh else {
            panic!("{mesh:?}");
        };
        assert_eq!(mesh.triangles.len(), 2);
        assert_eq!(mesh.materials, vec!["floor".to_owned()]);
    }

    #[test]
    fn an_index_out_of_range_is_an_error() {
        let text = b"v 0 0 0\nv 1 0 0\nf 1 2 9\n";
        assert!(matches!(
            read_obj(text, &MeshOptions::default()),
            Err(MeshError::Obj(_))
        ));
    }
}
