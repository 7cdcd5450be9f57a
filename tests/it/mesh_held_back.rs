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
    DrawnFaces, SHARED_MESH_LEVELS, UNNAMED, drawn_faces, held_back_levels,
};

use crate::mesh::{Agreement, SWEEP_AGREE, agreement, overall_failures};
use crate::support::read;

/// A mesh's triangles as a count per (material, corners' bits from the least corner on,
/// in winding order): equal maps are the same triangles wound the same way, in any order.
type TriangleSet = BTreeMap<(String, [[u32; 3]; 3]), usize>;

/// The [`TriangleSet`] of `faces`.
fn triangle_set(faces: &DrawnFaces) -> TriangleSet {
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
        let (exported, shared) = (triangle_set(&ours), triangle_set(&theirs));
        // On a difference, a few triangles of each side that the other lacks.
        let lacking = |of: &TriangleSet, other: &TriangleSet, side: &str| {
            for (key, count) in of.iter().filter(|(k, n)| other.get(*k) != Some(*n)).take(4) {
                let corners = key.1.map(|c| c.map(f32::from_bits));
                println!("{name}: only {side}: {} ×{count} {corners:?}", key.0);
            }
        };
        lacking(&exported, &shared, "exported");
        lacking(&shared, &exported, "in the shared file");
        assert!(
            exported == shared,
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
        // A file compiled without its textures' WAD names none of them (`UNNAMED`).
        let named = faces.groups.iter().any(|(name, _)| name != UNNAMED);
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
            let mut found = agreement(&label, (&mesh, &bsp), &open, SWEEP_AGREE);
            if !named {
                // Without names no face says it is a liquid's surface: the mesh cannot
                // know the water the `.bsp`'s leaves hold.
                println!("{label}: liquids not judged: the file names none of its textures");
                (found.in_liquid, found.same_liquid) = (0, 0);
            }
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

/// Map units per metre in the Y-up test file (Quake's player is 56 units, about 1.75 m).
const UNITS_PER_METRE: f64 = 32.0;

/// How far the Y-up file's world may stop a sweep from the Z-up file's, in units: its
/// corners went through f32 metres under two node transforms and back.
const TRANSFORMED_SWEEP_AGREE: f32 = 0.01;

/// A held-back level written as an artist's Y-up glTF in metres: a `.gltf` document with its
/// buffer in a `.bin` beside it, the mesh under two nodes (the root moved, its child turned
/// a quarter about Y and scaled by (2, 2, −2), a mirror, under which glTF's front faces are
/// the clockwise ones), compiled
/// with `MeshAxis::YUp` and 32 units a metre, builds the world the Z-up OBJ in units does:
/// the same solid at seeded points (those within 0.1 of either world's boundary aside) and
/// Quake's player box stopping within 0.01 on seeded sweeps.
#[test]
fn a_y_up_gltf_in_metres_under_nested_nodes_builds_the_same_world() {
    use planeshift::build::MeshAxis;
    let Some(dir) = planeshift_testkit::real_maps_dir(
        "a_y_up_gltf_in_metres_under_nested_nodes_builds_the_same_world",
    ) else {
        return;
    };
    let (held_back, _) = held_back_levels(&dir);
    assert!(
        !held_back.is_empty(),
        "no held-back level in {}",
        dir.display()
    );
    let folder = std::env::temp_dir().join(format!("planeshift-yup-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
    let translation = glam::DVec3::new(3.0, 5.0, -7.0);
    let scale = glam::DVec3::new(2.0, 2.0, -2.0);
    // A quarter turn about +Y: (x, y, z) → (z, y, −x); its inverse (x, y, z) → (−z, y, x).
    let unturn = |p: glam::DVec3| glam::DVec3::new(-p.z, p.y, p.x);
    let nodes = format!(
        r#"[{{"translation":[{},{},{}],"children":[1]}},{{"mesh":0,"rotation":[0,{h},0,{h}],"scale":[{},{},{}]}}]"#,
        translation.x,
        translation.y,
        translation.z,
        scale.x,
        scale.y,
        scale.z,
        h = std::f64::consts::FRAC_1_SQRT_2
    );
    let mut failures = Vec::new();
    for level in &held_back {
        let faces = &level.faces;
        // Map units, Z up → metres, Y up (`MeshAxis::YUp` takes (x, y, z) to (x, −z, y))
        // → the child node's own frame.
        let stored: Vec<[f32; 3]> = faces
            .positions
            .iter()
            .map(|p| {
                let p = glam::DVec3::from(p.map(f64::from));
                let metres = glam::DVec3::new(p.x, p.z, -p.y) / UNITS_PER_METRE;
                let local = unturn(metres - translation) / scale;
                local.as_vec3().to_array()
            })
            .collect();
        // Under a mirroring node glTF's front faces turn clockwise (the specification's
        // "Meshes": the determinant of the node's global transform decides the winding), so
        // an exporter writes each triangle the other way round in the node's frame.
        let turned_back: Vec<Vec<u32>> = faces
            .groups
            .iter()
            .map(|(_, t)| t.chunks_exact(3).flat_map(|t| [t[0], t[2], t[1]]).collect())
            .collect();
        let groups: Vec<(&str, &[u32])> = faces
            .groups
            .iter()
            .zip(&turned_back)
            .map(|((n, _), t)| (n.as_str(), t.as_slice()))
            .collect();
        let (json, bin) =
            planeshift_testkit::glb::gltf_of_groups(&stored, &groups, "level.bin", (&nodes, "[0]"));
        std::fs::write(folder.join("level.bin"), bin)
            .unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
        let y_up = MeshOptions::new(MeshAxis::YUp, UNITS_PER_METRE);
        let options = CompileOptions::default();
        let turned = compile_mesh(json.as_bytes(), Some(&folder), &y_up, &options)
            .unwrap_or_else(|e| panic!("{} as .gltf: {e}", level.name))
            .map;
        let plain = compile_mesh(
            faces.to_obj().as_bytes(),
            None,
            &MeshOptions::default(),
            &options,
        )
        .unwrap_or_else(|e| panic!("{} as .obj: {e}", level.name))
        .map;
        let label = format!("{}: the Y-up .gltf in metres against the .obj", level.name);
        let found = agreement(&label, (&turned, &plain), &[], TRANSFORMED_SWEEP_AGREE);
        if found.equal < found.compared
            || found.agree < found.sweeps
            || found.compared == 0
            || found.sweeps == 0
        {
            failures.push(level.name.clone());
        }
    }
    let _ = std::fs::remove_dir_all(&folder);
    assert!(failures.is_empty(), "{failures:#?}");
}
