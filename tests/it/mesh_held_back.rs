//! Levels made of triangles beyond the shared meshes: every Quake 1 family `.bsp` of the
//! real maps whose drawn faces no shared mesh holds, exported as an artist gets it
//! (`planeshift_testkit::drawn_faces`: the world model's faces fanned into triangles, a group
//! or glTF primitive per texture), compiled from OBJ and from glTF, and held to the shared
//! meshes' bars against the `.bsp` itself (`mesh.rs`'s [`agreement`]); and the exporter held
//! to the shared meshes it would have written.
//!
//! The corpus test takes every `.bsp` under the real maps folder, whatever their count; the
//! folder of the shared meshes' levels (`id-quake-1996/`) is the exporter test's, and a file
//! of another family (Quake 2, Quake 3) is named and passed over, since its drawn faces are
//! not stored as a Quake 1 face list.

use std::collections::BTreeMap;

use glam::Vec3;

use planeshift::build::{BspFormat, MeshOptions, compile_mesh, import_bsp};
use planeshift::{CompileOptions, CompiledMap};
use planeshift_testkit::drawn_faces::{
    DrawnFaces, SHARED_MESH_LEVELS, drawn_faces, held_back_levels,
};

use crate::mesh::{Agreement, agreement, overall_failures};
use crate::support::read;

/// A mesh's triangles as a count per (material, corners' bits from the least corner on,
/// in winding order): equal maps are the same triangles wound the same way, in any order.
fn triangle_set(faces: &DrawnFaces) -> BTreeMap<(String, [[u32; 3]; 3]), usize> {
    let mut out = BTreeMap::new();
    for (name, triangles) in &faces.groups {
        for t in triangles.chunks_exact(3) {
            let corners = [t[0], t[1], t[2]].map(|i| faces.positions[i as usize].map(f32::to_bits));
            let first = (0..3).min_by_key(|&k| corners[k]).unwrap_or(0);
            let turned = std::array::from_fn(|k| corners[(first + k) % 3]);
            *out.entry((name.clone(), turned)).or_insert(0) += 1;
        }
    }
    out
}

/// The triangles of an OBJ file as [`DrawnFaces`]: `v` lines, `usemtl` naming the group,
/// `f` lines of three corners (1-based, `v/vt/vn` forms read by their first number).
fn read_obj(text: &str) -> DrawnFaces {
    let mut faces = DrawnFaces::default();
    let mut group = String::new();
    for line in text.lines() {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("v") => {
                let c: Vec<f32> = words.filter_map(|w| w.parse().ok()).collect();
                assert_eq!(c.len(), 3, "vertex line {line:?}");
                faces.positions.push([c[0], c[1], c[2]]);
            }
            Some("usemtl") => group = words.collect::<Vec<_>>().join(" "),
            Some("f") => {
                let corners: Vec<u32> = words
                    .filter_map(|w| w.split('/').next()?.parse::<u32>().ok())
                    .map(|i| i - 1)
                    .collect();
                assert_eq!(corners.len(), 3, "face line {line:?}");
                match faces.groups.iter_mut().find(|(n, _)| *n == group) {
                    Some((_, t)) => t.extend_from_slice(&corners),
                    None => faces.groups.push((group.clone(), corners)),
                }
            }
            _ => {}
        }
    }
    faces
}

/// How far either side of a triangle's centre its `.bsp` contents are read, in units: less
/// than the thinnest brush of the levels (1 unit), more than the f32 rounding of their
/// planes.
const SIDE_PROBE: f32 = 0.25;

/// The bounds of every drawn triangle with empty space on both sides in `bsp` (no solid, no
/// liquid), read [`SIDE_PROBE`] either side of its centre: faces ericw-tools merged into the
/// world model from a `func_detail_illusionary`, which only its entity's class made
/// non-solid, a class the drawn faces do not keep. A mesh of them is solid where the `.bsp`
/// is open, as a brush entity's faces would be, so [`agreement`] sets aside what meets these
/// bounds as it does brush entities. Zero-area triangles have no sides and are passed over.
fn open_on_both_sides(faces: &DrawnFaces, bsp: &CompiledMap) -> Vec<(Vec3, Vec3)> {
    let mut out = Vec::new();
    for (_, triangles) in &faces.groups {
        for t in triangles.chunks_exact(3) {
            let [a, b, c] = [t[0], t[1], t[2]].map(|i| Vec3::from(faces.positions[i as usize]));
            let normal = (b - a).cross(c - a).normalize_or_zero();
            let centre = (a + b + c) / 3.0;
            let open = |p: Vec3| bsp.point_contents(p).is_empty();
            if normal != Vec3::ZERO
                && open(centre + normal * SIDE_PROBE)
                && open(centre - normal * SIDE_PROBE)
            {
                out.push((a.min(b).min(c), a.max(b).max(c)));
            }
        }
    }
    out
}

/// Triangles of alpha-tested fence textures (a name starting with `{`, ericw-tools' and
/// Half-Life's convention). Through a fence the compiler draws the faces of what is seen
/// behind it, into a solid the fence closes (`func_detail_fence`'s pit under its grate: the
/// grate faces up, the pit's walls into the pit), so the drawn faces are wound against each
/// other around a solid, and no reading of them gives the `.bsp`'s collision: a level with
/// them is measured and printed, not judged.
fn fence_triangles(faces: &DrawnFaces) -> usize {
    faces
        .groups
        .iter()
        .filter(|(name, _)| name.starts_with('{'))
        .map(|(_, t)| t.len() / 3)
        .sum()
}

/// The exporter writes what the shared meshes hold: for each shared `.obj`, the drawn faces
/// of its `.bsp` are the same triangles (the same corners' bits, wound the same way, in the
/// same material), so the held-back meshes below are made as the shared ones were.
#[test]
fn the_exporter_writes_the_shared_meshes() {
    let Some(dir) = planeshift_testkit::real_maps_dir("the_exporter_writes_the_shared_meshes")
    else {
        return;
    };
    let shared = planeshift_testkit::files_in(&dir.join("meshes"), "obj");
    assert!(!shared.is_empty(), "no shared .obj in {}", dir.display());
    for (name, path) in &shared {
        let stem = name.trim_end_matches(".obj");
        let bsp = dir.join(SHARED_MESH_LEVELS).join(format!("{stem}.bsp"));
        let ours = drawn_faces(&read(&bsp)).unwrap_or_else(|e| panic!("{stem}.bsp: {e}"));
        let theirs = read_obj(&String::from_utf8_lossy(&read(path)));
        println!(
            "{name}: {} triangles exported, {} in the shared file",
            ours.triangle_count(),
            theirs.triangle_count()
        );
        let (a, b) = (triangle_set(&ours), triangle_set(&theirs));
        for (k, v) in a.iter().filter(|(k, v)| b.get(*k) != Some(*v)).take(4) {
            println!(
                "ours only {k:?} x{v} {:?}",
                k.1.map(|c| c.map(f32::from_bits))
            );
        }
        for (k, v) in b.iter().filter(|(k, v)| a.get(*k) != Some(*v)).take(4) {
            println!(
                "theirs only {k:?} x{v} {:?}",
                k.1.map(|c| c.map(f32::from_bits))
            );
        }
        assert!(
            triangle_set(&ours) == triangle_set(&theirs),
            "{name}: the exported triangles differ from the shared file's"
        );
    }
}

/// Every Quake 1 family `.bsp` beyond the shared meshes' levels, exported as OBJ and as
/// glTF binary and compiled with the `.bsp`'s own game: each meets the shared meshes' bars
/// against the `.bsp` (solid versus open ≥ 99.9 %, player-box sweeps within 0.1 on ≥
/// 99.5 %, the same liquid), and so do all together.
#[test]
fn held_back_meshes_agree_with_their_bsp() {
    let Some(dir) = planeshift_testkit::real_maps_dir("held_back_meshes_agree_with_their_bsp")
    else {
        return;
    };
    let mut failures: Vec<String> = Vec::new();
    let mut all = Agreement::default();
    let (mut levels, mut judged_levels) = (0usize, 0usize);
    let (held_back, passed_over) = held_back_levels(&dir);
    for (name, why) in &passed_over {
        println!("{name}: passed over ({why})");
    }
    for level in held_back {
        let (name, bytes, faces) = (level.name, level.bytes, level.faces);
        let Some(format) = BspFormat::detect(&bytes) else {
            failures.push(format!("{name}: not a .bsp planeshift reads"));
            continue;
        };
        levels += 1;
        let options = CompileOptions {
            game: Some(format.game()),
            ..CompileOptions::default()
        };
        let bsp = import_bsp(&bytes, &options)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .map;
        let open = open_on_both_sides(&faces, &bsp);
        let fences = fence_triangles(&faces);
        println!(
            "{name}: {} drawn triangles with empty space on both sides in the .bsp (set aside), {fences} of fence textures",
            open.len()
        );
        let judged = fences == 0;
        judged_levels += usize::from(judged);
        let exports = [
            ("obj", faces.to_obj().into_bytes()),
            ("glb", faces.to_glb()),
        ];
        for (kind, mesh_bytes) in exports {
            let label = format!("{name} as .{kind} ({} triangles)", faces.triangle_count());
            let mesh: CompiledMap =
                compile_mesh(&mesh_bytes, None, &MeshOptions::default(), &options)
                    .unwrap_or_else(|e| panic!("{label}: {e}"))
                    .map;
            let found = agreement(&label, &mesh, &bsp, &open);
            if judged {
                failures.extend(found.failures(&label));
                all.add(&found);
            } else {
                println!("{label}: measured, not judged: its drawn faces hold a fence");
            }
        }
    }
    println!("{levels} held-back levels, each as .obj and .glb, {judged_levels} of them judged");
    assert!(
        judged_levels > 0,
        "no Quake 1 family .bsp without fences beyond {SHARED_MESH_LEVELS}/ in {}",
        dir.display()
    );
    failures.extend(overall_failures("all held-back meshes", &all));
    assert!(failures.is_empty(), "{failures:#?}");
}
