//! Brush stage tests: planes from points, merging, rejection with locations, solidity rules.

use glam::DVec3;
use planeshift::Contents;
use planeshift::brush::BrushOwner;
use planeshift::build::{DiagnosticKind, Severity};

use crate::support::{box_brush_face_lines, box_map, brushes, located};

#[test]
fn a_box_brush_has_six_outward_sides_and_exact_bounds() {
    let out = brushes(&box_map(&[(
        [32.0, -576.0, 0.0],
        [80.0, -256.0, 112.0],
        "rock",
    )]));
    assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
    let brush = &out.brushes[0];
    assert_eq!(brush.sides.len(), 6);
    assert_eq!(brush.mins, DVec3::new(32.0, -576.0, 0.0));
    assert_eq!(brush.maxs, DVec3::new(80.0, -256.0, 112.0));
    let center = (brush.mins + brush.maxs) / 2.0;
    for side in &brush.sides {
        assert!(side.plane.distance(center) < 0.0, "normal points out");
        assert_eq!(side.winding.points.len(), 4);
        assert!(
            side.winding
                .points
                .iter()
                .all(|p| side.plane.distance(*p).abs() < 1e-9)
        );
    }
    assert!(brush.contains(center, 0.0));
    assert!(!brush.contains(DVec3::new(31.9, -300.0, 50.0), 0.0));
    assert_eq!(brush.contents, Contents::SOLID);
    assert!(brush.is_solid_world());
}

#[test]
fn duplicate_planes_merge_and_collinear_faces_drop_with_notes() {
    let mut faces = box_brush_face_lines([0.0; 3], [64.0; 3], "a");
    faces.push_str("( 0 0 64 ) ( 0 64 64 ) ( 64 0 64 ) again 0 0 0 1 1\n");
    faces.push_str("( 0 0 0 ) ( 1 1 1 ) ( 2 2 2 ) line 0 0 0 1 1\n");
    let src = format!("{{\n\"classname\" \"worldspawn\"\n{{\n{faces}}}\n}}\n");
    let out = brushes(&src);
    assert_eq!(out.brushes.len(), 1);
    assert_eq!(out.brushes[0].sides.len(), 6);
    let messages: Vec<(u32, &str)> = out
        .diagnostics
        .iter()
        .map(|d| (d.loc.line, d.message.as_str()))
        .collect();
    assert_eq!(
        messages,
        [
            (10, "duplicate plane merged with the face at 9:1"),
            (11, "face dropped: its three points are collinear"),
        ]
    );
    assert!(out.diagnostics.iter().all(|d| d.severity == Severity::Note));
    let kinds: Vec<DiagnosticKind> = out.diagnostics.iter().map(|d| d.kind).collect();
    assert_eq!(
        kinds,
        [
            DiagnosticKind::DuplicatePlane,
            DiagnosticKind::CollinearFace
        ]
    );
}

#[test]
fn brushes_without_volume_or_with_mirrored_planes_are_rejected_at_their_location() {
    let flat = "( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) a 0 0 0 1 1\n\
                ( 1 0 0 ) ( 1 0 1 ) ( 1 1 0 ) a 0 0 0 1 1\n\
                ( 0 0 0 ) ( 0 0 1 ) ( 1 0 0 ) a 0 0 0 1 1\n";
    let mut mirrored = box_brush_face_lines([0.0; 3], [64.0; 3], "a");
    mirrored.push_str("( 0 0 64 ) ( 64 0 64 ) ( 0 64 64 ) flip 0 0 0 1 1\n");
    let src =
        format!("{{\n\"classname\" \"worldspawn\"\n{{\n{flat}}}\n{{\n{mirrored}}}\n{{\n}}\n}}\n");
    let out = brushes(&src);
    assert!(out.brushes.is_empty());
    assert_eq!(out.rejected, 3);
    let messages = located(&out.diagnostics);
    assert_eq!(
        messages,
        [
            "3:1: brush rejected: no volume: 3 usable face(s), a closed brush needs at least 4",
            "8:1: brush rejected: mirrored planes: the faces at 14:1 and 15:1 face opposite ways on one plane",
            "17:1: brush rejected: no volume: 0 usable face(s), a closed brush needs at least 4",
        ]
    );
    let kinds: Vec<DiagnosticKind> = out.diagnostics.iter().map(|d| d.kind).collect();
    assert_eq!(
        kinds,
        [
            DiagnosticKind::NoVolume,
            DiagnosticKind::MirroredPlanes,
            DiagnosticKind::NoVolume
        ]
    );
    assert!(
        out.diagnostics
            .iter()
            .all(|d| d.severity == Severity::Warning)
    );
}

#[test]
fn open_and_huge_brushes_are_rejected() {
    // Five faces of a box: open at the top.
    let open: String = box_brush_face_lines([0.0; 3], [64.0; 3], "a")
        .lines()
        .take(5)
        .collect::<Vec<_>>()
        .join("\n");
    let huge = box_brush_face_lines([0.0; 3], [1e7, 64.0, 64.0], "a");
    let src = format!("{{\n{{\n{open}\n}}\n{{\n{huge}}}\n}}\n");
    let out = brushes(&src);
    assert!(out.brushes.is_empty());
    let messages: Vec<&str> = out.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "brush rejected: not closed: its faces leave it unbounded",
            "brush rejected: the face at 11:1 has a point beyond ±262144 units",
        ]
    );
    let kinds: Vec<DiagnosticKind> = out.diagnostics.iter().map(|d| d.kind).collect();
    assert_eq!(
        kinds,
        [DiagnosticKind::NotClosed, DiagnosticKind::OutOfRange]
    );
}

#[test]
fn a_tiny_brush_keeps_its_volume() {
    // A NetRadiant regression map has a 0.1-unit-thick brush; a real map here has 0.125.
    let out = brushes(&box_map(&[([1024.0, 0.0, 0.0], [1024.1, 64.0, 64.0], "a")]));
    assert_eq!(out.brushes.len(), 1);
    assert!((out.brushes[0].maxs.x - 1024.1).abs() < 1e-9);
}

#[test]
fn solidity_follows_the_texture_rules() {
    let cases: [(&str, Contents, bool); 8] = [
        ("*lava1", Contents::LAVA, false),
        ("*04water1", Contents::WATER, false),
        ("trigger", Contents::EMPTY, false),
        ("tools/toolshint", Contents::EMPTY, false),
        ("clip", Contents::PLAYERCLIP, true),
        ("sky4", Contents::SKY, true),
        ("common/caulk", Contents::SOLID, true),
        ("+0basebtn", Contents::SOLID, true),
    ];
    for (texture, contents, solid) in cases {
        let out = brushes(&box_map(&[([0.0; 3], [64.0; 3], texture)]));
        assert_eq!(out.brushes[0].contents, contents, "{texture}");
        assert_eq!(out.brushes[0].solid, solid, "{texture}");
    }
}

#[test]
fn quake2_triples_give_contents_and_zero_means_solid() {
    let with_triple = |triple: &str, texture: &str| {
        let faces: String = box_brush_face_lines([0.0; 3], [64.0; 3], texture)
            .lines()
            .map(|l| format!("{l} {triple}\n"))
            .collect();
        let out = brushes(&format!(
            "{{\n\"classname\" \"worldspawn\"\n{{\n{faces}}}\n}}\n"
        ));
        (out.brushes[0].contents, out.brushes[0].solid)
    };
    assert_eq!(with_triple("0 0 0", "e1u1/floor"), (Contents::SOLID, true));
    assert_eq!(
        with_triple("65536 128 0", "e1u1/clip"),
        (Contents::PLAYERCLIP | Contents::DETAIL, true)
    );
    assert_eq!(
        with_triple("32 0 0", "e1u1/water"),
        (Contents::WATER, false)
    );
    assert_eq!(
        with_triple("134217728 0 0", "detail"),
        (Contents::SOLID | Contents::DETAIL, true)
    );
    assert_eq!(with_triple("3 0 0", "glass"), (Contents(3), true));
}

#[test]
fn owners_follow_entity_classes() {
    let b = box_brush_face_lines([0.0; 3], [64.0; 3], "a");
    let src = format!(
        "{{\n\"classname\" \"worldspawn\"\n{{\n{b}}}\n}}\n\
         {{\n\"classname\" \"func_detail\"\n{{\n{b}}}\n}}\n\
         {{\n\"classname\" \"func_door\"\n{{\n{b}}}\n}}\n\
         {{\n\"classname\" \"trigger_multiple\"\n{{\n{b}}}\n}}\n\
         {{\n{b}}}\n"
    );
    let out = brushes(&src);
    let owners: Vec<(BrushOwner, bool)> = out.brushes.iter().map(|b| (b.owner, b.solid)).collect();
    assert_eq!(
        owners,
        [
            (BrushOwner::World, true),
            (BrushOwner::World, true),
            (BrushOwner::Entity(2), true),
            (BrushOwner::Entity(3), false),
            (BrushOwner::World, true),
        ]
    );
    assert_eq!(out.world_brush_count(), 3);
}

#[test]
fn patches_that_cannot_be_surfaces_get_a_diagnostic_each() {
    let src = "{\n\"classname\" \"worldspawn\"\n{\npatchDef2\n{\nt\n( 3 1 0 0 0 )\n(\n\
               ( ( 0 0 0 0 0 ) )\n( ( 1 0 0 0 0 ) )\n( ( 2 0 0 0 0 ) )\n)\n}\n}\n\
               {\npatchDef2\n{\nt\n( 1 1 0 0 0 )\n(\n( ( 0 0 0 0 0 ) )\n)\n}\n}\n}\n";
    let out = brushes(src);
    let messages = located(&out.diagnostics);
    assert_eq!(
        messages,
        [
            "3:1: patch ignored: its size 3×1 is not odd, at least 3 and at most 129 each way",
            "15:1: patch ignored: its size 1×1 is not odd, at least 3 and at most 129 each way",
        ]
    );
}

/// Issue 13: a brush of more than `MAX_BRUSH_FACES` faces is rejected with a diagnostic, so
/// no compiled file holds one (validation refuses it too).
#[test]
fn brushes_of_too_many_faces_are_rejected() {
    let face = box_brush_face_lines([0.0; 3], [64.0; 3], "a");
    let first = face.lines().next().unwrap_or_default().to_owned();
    let mut lines: Vec<String> = face.lines().map(str::to_owned).collect();
    lines.extend(std::iter::repeat_n(
        first,
        planeshift::tolerance::MAX_BRUSH_FACES,
    ));
    let src = format!("{{\n{{\n{}\n}}\n}}\n", lines.join("\n"));
    let out = brushes(&src);
    assert!(out.brushes.is_empty());
    assert_eq!(
        out.diagnostics.last().map(|d| d.message.as_str()),
        Some("brush rejected: 1030 faces, more than the 1024 a brush may have")
    );
}
