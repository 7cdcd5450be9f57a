//! Leaks: the flood from point entities through the portals of the sealing brushes
//! (`src/leak/`), on the hand-made maps and every real map. Who leaks (each trail checked to
//! be open space against the sealing brushes, and to end outside the world), the pointfile
//! as TrenchBroom reads it, the sealing rule, degenerate maps, and the outside fill of
//! sealed maps (the void solid, every seed's contents unchanged).

use glam::{DVec3, Vec3};
use planeshift::CompiledMap;
use planeshift::brush::{Brush, brushes_from_map};
use planeshift::leak::sealing_brushes;
use planeshift::map::{MapFile, parse_map};
use planeshift::tolerance::{OUTSIDE_MARGIN, SPLIT_EPSILON};
use planeshift::{
    CompileOptions, CompileOutput,
    build::{Leak, compile_map_with},
};
use planeshift::{Contents, TraceShape, build::check_brushes};

use crate::support::{
    BrushOracle, Pcg32, box_brush_face_lines, box_map, bundled_maps, read, real_maps, repo_root,
};

/// Every map that leaks, with the entity that leaks first (index and class) and why the
/// leak is real. Any other map must be sealed (or have nothing to flood from), so a new leak
/// fails [`every_map_leaks_only_where_listed`].
const LEAKING: [(&str, usize, &str, &str); 8] = [
    (
        "clip_corridor.map",
        1,
        "info_player_start",
        "a floor, clip slabs and the spawns in the open, no walls (the mask test needs no room)",
    ),
    (
        "leak_room.map",
        1,
        "info_player_start",
        "made to leak: the +x wall stops 64 units below the ceiling",
    ),
    (
        "far_slabs.map",
        1,
        "info_player_start",
        "terrain patches and slabs in the open, no walls",
    ),
    (
        "many_sided.map",
        1,
        "info_player_start",
        "a floor and two prisms, no walls",
    ),
    (
        "offaxis_faces.map",
        1,
        "info_player_start",
        "a floor and four blocks, no walls",
    ),
    (
        "id-quake-1996/e1m2.map",
        396,
        "light",
        "a light standing on a roof at (-96 -320 560) with nothing above it (a point swept \
         up from it meets no brush); the 395 entities before it are sealed in",
    ),
    (
        "librequake/b_rock1.map",
        2,
        "light",
        "a prefab: the world has no brushes, its rock is a func_detail_wall (detail does \
         not seal)",
    ),
    (
        "librequake/cat_statue_retextureneeded.map",
        1,
        "info_player_start",
        "a prefab (`prefabs/skip/`) sealed partly by func_detail, which does not seal \
         (ericw-tools' rule): the trail leaves through a func_detail slab under the map",
    ),
];

/// How far a trail segment may pass inside a sealing brush, in map units: the sealing tree's
/// leaves are exact to `SPLIT_EPSILON` (1e-3), and portal centres lie on brush faces.
const TRAIL_SLACK: f64 = 0.01;

/// The map at `name` (bundled maps by file name, real maps by path under the folder).
fn source(name: &str) -> Option<Vec<u8>> {
    let bundled = repo_root().join("maps").join(name);
    if bundled.is_file() {
        return Some(read(&bundled));
    }
    real_maps("leak")
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, path)| read(&path))
}

fn compile_with(src: &[u8], fill_outside: bool) -> CompileOutput {
    let options = CompileOptions {
        fill_outside,
        ..CompileOptions::default()
    };
    compile_map_with(src, &options).unwrap_or_else(|e| panic!("compile failed: {e}"))
}

/// Whether the segment `a..b` passes inside `brush` shrunk by [`TRAIL_SLACK`].
fn enters(brush: &Brush, a: DVec3, b: DVec3) -> bool {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for side in &brush.sides {
        let da = side.plane.distance(a) + TRAIL_SLACK;
        let db = side.plane.distance(b) + TRAIL_SLACK;
        if da >= 0.0 && db >= 0.0 {
            return false;
        }
        if da < 0.0 && db < 0.0 {
            continue;
        }
        let t = da / (da - db);
        if da >= 0.0 {
            lo = lo.max(t);
        } else {
            hi = hi.min(t);
        }
        if lo >= hi {
            return false;
        }
    }
    lo < hi
}

/// The points TrenchBroom's `PointTrace.cpp` would load from `text`: every triple of
/// numbers, then consecutive repeats merged; `None` when fewer than two points remain.
fn trenchbroom_points(text: &str) -> Option<Vec<Vec3>> {
    let numbers: Vec<f32> = text
        .split_whitespace()
        .map(str::parse::<f32>)
        .collect::<Result<_, _>>()
        .ok()?;
    if !numbers.len().is_multiple_of(3) {
        return None;
    }
    let mut points: Vec<Vec3> = numbers.chunks_exact(3).map(Vec3::from_slice).collect();
    points.dedup();
    (points.len() >= 2).then_some(points)
}

/// Checks that `leak` is real: its entity and origin are the map's, its trail starts at the
/// raised origin, ends outside `world`'s bounds, and no segment passes through a sealing
/// brush; its pointfile loads in TrenchBroom.
fn check_leak(name: &str, map: &MapFile, world: &CompiledMap, leak: &Leak) {
    let entity = &map.entities[leak.entity];
    assert_eq!(entity.classname(), leak.classname, "{name}");
    assert_eq!(entity.origin(), Some(leak.origin), "{name}");
    let trail = &leak.trail;
    assert!(trail.len() >= 2, "{name}: {trail:?}");
    assert_eq!(trail[0], leak.origin + DVec3::Z, "{name}");
    let last = trail[trail.len() - 1].as_vec3();
    let model = &world.models()[0];
    assert!(
        last.cmplt(model.mins).any() || last.cmpgt(model.maxs).any(),
        "{name}: the trail ends at {last}, inside the world {}..{}",
        model.mins,
        model.maxs
    );
    let output = brushes_from_map(map);
    let sealing = sealing_brushes(map, &output.brushes);
    for pair in trail.windows(2) {
        for brush in &sealing {
            assert!(
                !enters(brush, pair[0], pair[1]),
                "{name}: trail segment {} -> {} passes through the brush at {}",
                pair[0],
                pair[1],
                brush.loc
            );
        }
    }
    let points = trenchbroom_points(&leak.pointfile_text())
        .unwrap_or_else(|| panic!("{name}: TrenchBroom cannot read {}", leak.pointfile_text()));
    assert_eq!(points.len(), trail.len(), "{name}");
}

#[test]
fn the_leaking_room_reports_its_player_start_and_an_open_trail() {
    let src = source("leak_room.map").expect("bundled map");
    let out = crate::support::compile(&src);
    let leak = out.leak.as_ref().expect("leak_room.map leaks");
    assert_eq!(
        (leak.entity, leak.classname.as_str()),
        (1, "info_player_start")
    );
    assert_eq!(leak.origin, DVec3::new(0.0, 0.0, 24.0));
    let map = parse_map(&src).expect("parses");
    check_leak("leak_room.map", &map, &out.map, leak);
    // The way out is over the short wall: through the gap between z = 192 and 256 above it
    // (x 256..272).
    assert!(
        leak.trail
            .iter()
            .any(|p| (256.0..=272.0).contains(&p.x) && 192.0 < p.z && p.z < 256.0),
        "{:?}",
        leak.trail
    );
    // The compiled world agrees: a point sweep along each segment meets nothing that seals.
    let mask = Contents::SOLID | Contents::SKY;
    for pair in leak.trail.windows(2) {
        let (a, b) = (pair[0].as_vec3(), pair[1].as_vec3());
        let hit = out.map.trace(&TraceShape::point(), a, b, mask);
        assert!(!hit.hit() && !hit.start_solid, "{a} -> {b}: {hit:?}");
    }
    // The sealed twin does not leak, and check agrees with compile.
    let sealed = source("box_room.map").expect("bundled map");
    assert_eq!(crate::support::compile(&sealed).leak, None);
    let check = check_brushes(&map);
    assert_eq!(check.leak.as_ref(), Some(leak));
}

#[test]
fn every_map_leaks_only_where_listed() {
    let mut maps = bundled_maps();
    let real = real_maps("every_map_leaks_only_where_listed");
    let have_real = !real.is_empty();
    maps.extend(real);
    let mut leaking = Vec::new();
    for (name, path) in &maps {
        let src = read(path);
        let map = parse_map(&src).expect("parses");
        let out = crate::support::compile(&src);
        let listed = LEAKING.iter().find(|(n, ..)| n == name);
        match (&out.leak, listed) {
            (Some(leak), Some((_, entity, classname, _))) => {
                assert_eq!(
                    (leak.entity, leak.classname.as_str()),
                    (*entity, *classname),
                    "{name}"
                );
                check_leak(name, &map, &out.map, leak);
                leaking.push(name.clone());
            }
            (None, None) => {}
            (Some(leak), None) => panic!(
                "{name} leaks: entity {} ({}) at {}, trail {:?}",
                leak.entity, leak.classname, leak.origin, leak.trail
            ),
            (None, Some(_)) => panic!("{name} no longer leaks"),
        }
        // `bspc check`'s cheaper path finds the same leak.
        assert_eq!(check_brushes(&map).leak, out.leak, "{name}");
    }
    let expected = LEAKING
        .iter()
        .filter(|(n, ..)| have_real || !n.contains('/'))
        .count();
    assert_eq!(leaking.len(), expected, "{leaking:?}");
    println!("{} of {} maps leak: {leaking:?}", leaking.len(), maps.len());
}

/// A worldspawn of `boxes` (standard format) followed by `entities` (key/value blocks).
fn map_text(boxes: &[([f64; 3], [f64; 3], &str)], entities: &[&str]) -> String {
    let mut src = box_map(boxes);
    for entity in entities {
        src.push_str(&format!("{{\n{entity}\n}}\n"));
    }
    src
}

/// The six brushes of a room, interior −128..128 in x and y and 0..128 in z, 16 thick, the
/// +x wall textured `wall`.
fn room(wall: &str) -> Vec<([f64; 3], [f64; 3], &str)> {
    vec![
        ([-144.0, -144.0, -16.0], [144.0, 144.0, 0.0], "floor"),
        ([-144.0, -144.0, 128.0], [144.0, 144.0, 144.0], "ceiling"),
        ([-144.0, -144.0, 0.0], [-128.0, 144.0, 128.0], "wall"),
        ([128.0, -144.0, 0.0], [144.0, 144.0, 128.0], wall),
        ([-128.0, -144.0, 0.0], [128.0, -128.0, 128.0], "wall"),
        ([-128.0, 128.0, 0.0], [128.0, 144.0, 128.0], "wall"),
    ]
}

const PLAYER: &str = "\"classname\" \"info_player_start\"\n\"origin\" \"0 0 24\"";

fn leak_of(src: &str) -> Option<Leak> {
    crate::support::compile(src.as_bytes()).leak
}

#[test]
fn clips_liquids_and_detail_do_not_seal_sky_does() {
    assert_eq!(leak_of(&map_text(&room("wall"), &[PLAYER])), None);
    assert_eq!(leak_of(&map_text(&room("sky1"), &[PLAYER])), None);
    for wall in ["clip", "*water1", "trigger"] {
        let leak = leak_of(&map_text(&room(wall), &[PLAYER]));
        assert_eq!(leak.map(|l| l.entity), Some(1), "{wall}");
    }
    // The same wall in a func_detail does not seal (ericw-tools' detail); in a func_group it
    // does.
    let mut walls = room("wall");
    let east = walls.remove(3);
    for (class, leaks) in [("func_detail", true), ("func_group", false)] {
        let entity = format!(
            "\"classname\" \"{class}\"\n{{\n{}}}",
            box_brush_face_lines(east.0, east.1, "wall")
        );
        let leak = leak_of(&map_text(&walls, &[PLAYER, &entity]));
        assert_eq!(leak.is_some(), leaks, "{class}");
    }
}

#[test]
fn who_floods_and_who_does_not() {
    let open = room("wall")[..5].to_vec();
    // No point entity: nothing to flood from, no leak.
    assert_eq!(leak_of(&map_text(&open, &[])), None);
    // An origin of (0 0 0) and an origin inside a wall are not seeds.
    let zero = "\"classname\" \"info_null\"\n\"origin\" \"0 0 0\"";
    let buried = "\"classname\" \"light\"\n\"origin\" \"136 0 64\"";
    assert_eq!(leak_of(&map_text(&room("wall"), &[zero, buried])), None);
    assert_eq!(leak_of(&map_text(&open, &[zero])), None);
    // A brush entity with an origin is not a seed (a mover may start outside).
    let door = format!(
        "\"classname\" \"func_door\"\n\"origin\" \"0 0 64\"\n{{\n{}}}",
        box_brush_face_lines([-8.0, -8.0, 0.0], [8.0, 8.0, 8.0], "door")
    );
    assert_eq!(leak_of(&map_text(&open, &[&door])), None);
    // The first leaking entity in file order is reported, not the first entity.
    let light = "\"classname\" \"light\"\n\"origin\" \"0 0 64\"";
    let src = map_text(&open, &[zero, buried, light, PLAYER]);
    let leak = leak_of(&src).expect("leaks");
    assert_eq!((leak.entity, leak.classname.as_str()), (3, "light"));
}

#[test]
fn degenerate_maps_never_panic() {
    let far = "\"classname\" \"info_null\"\n\"origin\" \"1e9 0 0\"";
    let huge = "\"classname\" \"info_null\"\n\"origin\" \"1e300 -1e300 5\"";
    let limit = 262_144.0;
    let cases: Vec<(&str, String, Option<usize>)> = vec![
        (
            "no entities at all",
            "{\n( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) a 0 0 0 1 1\n}\n".to_owned(),
            None,
        ),
        ("empty worldspawn", map_text(&[], &[]), None),
        ("a player in nothing", map_text(&[], &[PLAYER]), Some(1)),
        (
            "one brush",
            map_text(
                &[([-64.0, -64.0, -16.0], [64.0, 64.0, 0.0], "floor")],
                &[PLAYER],
            ),
            Some(1),
        ),
        (
            "an entity at 1e9",
            map_text(&room("wall"), &[PLAYER, far]),
            Some(2),
        ),
        (
            "an entity at 1e300",
            map_text(&room("wall"), &[huge, PLAYER]),
            Some(1),
        ),
        (
            "a room as large as the limit",
            map_text(
                &[
                    (
                        [-limit, -limit, -limit],
                        [limit, limit, -limit + 16.0],
                        "floor",
                    ),
                    (
                        [-limit, -limit, limit - 16.0],
                        [limit, limit, limit],
                        "ceiling",
                    ),
                    (
                        [-limit, -limit, -limit],
                        [-limit + 16.0, limit, limit],
                        "wall",
                    ),
                    (
                        [limit - 16.0, -limit, -limit],
                        [limit, limit, limit],
                        "wall",
                    ),
                    (
                        [-limit, -limit, -limit],
                        [limit, -limit + 16.0, limit],
                        "wall",
                    ),
                    (
                        [-limit, limit - 16.0, -limit],
                        [limit, limit, limit],
                        "wall",
                    ),
                ],
                &[PLAYER],
            ),
            None,
        ),
    ];
    for (what, src, leaking) in cases {
        for fill_outside in [false, true] {
            let out = compile_with(src.as_bytes(), fill_outside);
            assert_eq!(out.leak.as_ref().map(|l| l.entity), leaking, "{what}");
            if let Some(leak) = &out.leak {
                let map = parse_map(src.as_bytes()).expect("parses");
                assert!(
                    trenchbroom_points(&leak.pointfile_text()).is_some(),
                    "{what}"
                );
                assert!(leak.trail.len() >= 2, "{what}");
                assert_eq!(map.entities[leak.entity].origin(), Some(leak.origin));
            }
        }
    }
}

/// Checks the outside fill of the sealed map `name`: the void just beyond every side of the
/// world is `SOLID | OUTSIDE`; every seed's contents are what they are without the fill;
/// the fill only adds contents (seeded points); and a point swept from each seed straight up
/// stops before leaving the world.
fn check_fill(name: &str, src: &[u8]) {
    let plain = compile_with(src, false);
    let filled = compile_with(src, true);
    assert_eq!(plain.leak, None, "{name}");
    assert_eq!(filled.leak, None, "{name}");
    let (plain, filled) = (plain.map, filled.map);
    let model = &plain.models()[0];
    let (mins, maxs) = (model.mins, model.maxs);
    let centre = (mins + maxs) * 0.5;
    let step = OUTSIDE_MARGIN as f32 * 0.5;
    let outside = Contents::SOLID | Contents::OUTSIDE;
    for axis in 0..3 {
        for beyond in [mins[axis] - step, maxs[axis] + step] {
            let mut p = centre;
            p[axis] = beyond;
            assert_eq!(plain.point_contents(p), Contents::EMPTY, "{name} {p}");
            assert!(filled.point_contents(p).contains(outside), "{name} {p}");
        }
    }
    let map = parse_map(src).expect("parses");
    let seeds: Vec<Vec3> = map
        .entities
        .iter()
        .filter(|e| e.brushes.is_empty() && e.patches.is_empty())
        .filter(|e| !e.classname().eq_ignore_ascii_case("worldspawn"))
        .filter_map(|e| e.origin())
        .filter(|o| *o != DVec3::ZERO)
        .map(|o| (o + DVec3::Z).as_vec3())
        .collect();
    assert!(!seeds.is_empty(), "{name}");
    let mut open_seeds = 0;
    for &seed in &seeds {
        let before = plain.point_contents(seed);
        assert_eq!(filled.point_contents(seed), before, "{name}: seed {seed}");
        if before.is_empty() {
            open_seeds += 1;
            let up = Vec3::new(seed.x, seed.y, maxs.z + 2.0 * OUTSIDE_MARGIN as f32);
            let hit = filled.trace(&TraceShape::point(), seed, up, Contents::MASK_ANY_BLOCKING);
            assert!(
                hit.hit() && hit.end.z < maxs.z + step,
                "{name}: seed {seed} {hit:?}"
            );
        }
    }
    assert!(open_seeds > 0, "{name}");
    let oracle = BrushOracle::new(brushes_from_map(&map).brushes, 1.0);
    let mut rng = Pcg32::new(14);
    let size = maxs - mins;
    for _ in 0..20_000 {
        let p = mins
            + size
                * Vec3::new(
                    rng.range_f64(0.0, 1.0) as f32,
                    rng.range_f64(0.0, 1.0) as f32,
                    rng.range_f64(0.0, 1.0) as f32,
                );
        // Leaves are exact to SPLIT_EPSILON, and the two trees split differently.
        if oracle.near_surface(p.as_dvec3(), 2.0 * SPLIT_EPSILON) {
            continue;
        }
        let (before, after) = (plain.point_contents(p), filled.point_contents(p));
        assert!(after.contains(before), "{name} {p}: {before} then {after}");
    }
}

#[test]
fn the_outside_of_sealed_maps_fills_as_solid() {
    for (name, path) in bundled_maps() {
        if !LEAKING.iter().any(|(n, ..)| *n == name) {
            check_fill(&name, &read(&path));
        }
    }
    for name in [
        "id-quake-1996/dm6.map",
        "ericw-tools/q1_rocks.map",
        "librequake/lqdm13.map",
        "openarena-lostlevels/q3dm6ish.map",
        "openarena-lostlevels/dm17ish.map",
    ] {
        if let Some(src) = source(name) {
            check_fill(name, &src);
        }
    }
}

#[test]
fn a_leaking_map_is_not_filled() {
    let src = source("leak_room.map").expect("bundled map");
    let plain = compile_with(&src, false);
    let filled = compile_with(&src, true);
    assert_eq!(filled.leak, plain.leak);
    assert_eq!(filled.map.to_bytes(), plain.map.to_bytes());
}
