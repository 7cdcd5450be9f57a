//! The shared real maps: every file reads, counts match SOURCES.md, and written maps read
//! back with the same planes.

use std::collections::HashMap;
use std::path::Path;

use planeshift::brush::brushes_from_map;
use planeshift::geom::BuildPlane;
use planeshift::map::{MapFile, parse_map, write_map};

use crate::support::{bundled_maps, read, real_maps, real_maps_dir};

/// Per-file (entities, brushes, faces) from the main table in SOURCES.md (its other tables,
/// such as the Quake 3 `.bsp` and shader list, have fewer columns and no counts).
fn sources_table(dir: &Path) -> HashMap<String, (usize, usize, usize)> {
    let text = std::fs::read_to_string(dir.join("SOURCES.md")).expect("SOURCES.md");
    let number = |cell: &str| cell.trim().replace(',', "").parse::<usize>().ok();
    text.lines()
        .filter(|l| l.starts_with("| `"))
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            // | file | source | path | commit | blob | licence | bytes | entities | brushes | faces | ...
            if cells.len() < 12 {
                return None;
            }
            let file = cells.get(1)?.trim_matches('`').to_owned();
            Some((
                file,
                (
                    number(cells.get(8)?)?,
                    number(cells.get(9)?)?,
                    number(cells.get(10)?)?,
                ),
            ))
        })
        .collect()
}

#[test]
fn every_real_map_reads_with_the_counts_in_sources_md() {
    let Some(dir) = real_maps_dir("every_real_map_reads_with_the_counts_in_sources_md") else {
        return;
    };
    let table = sources_table(&dir);
    let listed = sources_files(&dir);
    let maps = real_maps("corpus");
    let mut counted = 0;
    for (name, path) in &maps {
        assert!(listed.contains(name), "{name} not in SOURCES.md");
        let map = parse_map(&read(path)).unwrap_or_else(|e| panic!("{name}:{e}"));
        let brushes = map.brushes().count();
        let faces: usize = map.brushes().map(|b| b.faces.len()).sum();
        // Files added after the counted table (listed with their source only) are read
        // and checked below all the same.
        if let Some(expected) = table.get(name) {
            assert_eq!((map.entities.len(), brushes, faces), *expected, "{name}");
            counted += 1;
        }
        let output = brushes_from_map(&map);
        let blocks = output.brushes.iter().filter(|b| b.patch.is_none()).count();
        assert_eq!(blocks + output.rejected, brushes, "{name}");
    }
    assert_eq!(
        counted,
        table.len(),
        "every counted row of SOURCES.md names a map here"
    );
    println!(
        "{} real maps read, {counted} against SOURCES.md's counts",
        maps.len()
    );
}

/// Every file SOURCES.md lists in any of its tables (first cell, a path in backticks).
fn sources_files(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("SOURCES.md")).expect("SOURCES.md");
    text.lines()
        .filter(|l| l.starts_with("| `"))
        .filter_map(|line| line.split('|').nth(1))
        .map(|cell| cell.trim().trim_matches('`').to_owned())
        .collect()
}

/// Planes of every face, in order (None for collinear faces).
fn planes(map: &MapFile) -> Vec<Option<BuildPlane>> {
    map.brushes()
        .flat_map(|b| b.faces.iter())
        .map(|f| BuildPlane::from_points(f.points[0], f.points[1], f.points[2]))
        .collect()
}

#[test]
fn written_maps_read_back_with_the_same_planes() {
    let mut maps = real_maps("written_maps_read_back_with_the_same_planes");
    maps.extend(bundled_maps());
    for (name, path) in &maps {
        let map = parse_map(&read(path)).unwrap_or_else(|e| panic!("{name}:{e}"));
        let again = parse_map(write_map(&map).as_bytes()).unwrap_or_else(|e| panic!("{name}:{e}"));
        assert_eq!(again.entities.len(), map.entities.len(), "{name}");
        assert_eq!(again.editor_game, map.editor_game, "{name}");
        assert_eq!(again.editor_format, map.editor_format, "{name}");
        let (a, b) = (planes(&map), planes(&again));
        assert_eq!(a.len(), b.len(), "{name}");
        for (i, (p, q)) in a.iter().zip(&b).enumerate() {
            match (p, q) {
                (Some(p), Some(q)) => {
                    assert!(
                        (p.normal - q.normal).abs().max_element() <= 1e-9
                            && (p.dist - q.dist).abs() <= 1e-9,
                        "{name} face {i}: {p:?} vs {q:?}"
                    );
                }
                (None, None) => {}
                _ => panic!("{name} face {i}: {p:?} vs {q:?}"),
            }
        }
        for (e, f) in map.entities.iter().zip(&again.entities) {
            assert_eq!(e.properties, f.properties, "{name}");
        }
    }
}

#[test]
fn real_map_facts_from_sources_md_hold() {
    let Some(dir) = real_maps_dir("real_map_facts_from_sources_md_hold") else {
        return;
    };
    let load = |name: &str| {
        let map = parse_map(&read(&dir.join(name))).expect(name);
        let output = brushes_from_map(&map);
        (map, output)
    };
    // dm2: the brush at line 4003 gives one plane twice; it is merged, not rejected.
    let (_, dm2) = load("id-quake-1996/dm2.map");
    assert!(dm2.diagnostics.iter().any(|d| d.loc.line >= 4003
        && d.loc.line <= 4012
        && d.message.starts_with("duplicate plane merged")));
    assert_eq!(dm2.rejected, 0);
    // q2_playerclip: the clip brush's triple 65536 makes player clip, detail as qbsp3 makes
    // every clip, solid.
    let (_, clip) = load("ericw-tools/q2_playerclip.map");
    assert!(clip.brushes.iter().any(|b| b.contents
        == planeshift::Contents::PLAYERCLIP | planeshift::Contents::DETAIL
        && b.solid));
    // dm17ish: two micro brushes of 0.125 units survive.
    let (_, yard) = load("openarena-lostlevels/dm17ish.map");
    assert_eq!(yard.rejected, 0);
    assert!(
        yard.brushes
            .iter()
            .any(|b| (b.maxs - b.mins).min_element() <= 0.125 + 1e-9)
    );
    // kaos: 193 patches, all kept and all surfaces: no diagnostic about them.
    let (kaos, out) = load("openarena-lostlevels/kaos.map");
    let patches: usize = kaos.entities.iter().map(|e| e.patches.len()).sum();
    assert_eq!(patches, 193);
    assert_eq!(
        out.diagnostics
            .iter()
            .filter(|d| d.message.contains("patch"))
            .count(),
        0
    );
}
