//! Quake 2 texture defaults (issue 26): a face written without its `contents flags value`
//! triple takes its texture's defaults (`src/game/q2_textures.rs`), as qbsp3 does, on
//! `maps/q2_tool_defaults.map`: hint and skip brushes are empty, clip stops players but not
//! shots, trigger brushes are triggers, water is water, a face with a triple keeps it; a
//! `.wal` file in a texture folder wins over the built-in table; bots spawned inside the
//! hint brush soak clean. Also what the rule changes on the shared Quake 2 `.map` files.

use glam::Vec3;
use planeshift::map::{FaceExtension, SurfaceTriple, parse_map};
use planeshift::{CompileOptions, build::compile_map_with};
use planeshift::{
    CompiledMap, Contents, TraceShape,
    build::{Game, Quake2Textures},
};

use crate::controller::soak::soak_run::{SoakOptions, soak};
use crate::support::{read, real_maps, repo_root};

/// The bundled map's bytes.
fn map_bytes() -> Vec<u8> {
    read(&repo_root().join("maps/q2_tool_defaults.map"))
}

/// The bundled map compiled with `options`.
fn compiled(options: &CompileOptions) -> CompiledMap {
    compile_map_with(&map_bytes(), options)
        .unwrap_or_else(|e| panic!("q2_tool_defaults.map: {e}"))
        .map
}

/// The middle of each volume of the map (maps/README.md).
const HINT: Vec3 = Vec3::new(0.0, 0.0, 64.0);
const SKIP: Vec3 = Vec3::new(192.0, -128.0, 32.0);
const CLIP: Vec3 = Vec3::new(-268.0, 0.0, 64.0);
const WATER: Vec3 = Vec3::new(0.0, 208.0, 24.0);
const HINT_WITH_TRIPLE: Vec3 = Vec3::new(432.0, 192.0, 32.0);
const CLIP_WITH_TRIPLE: Vec3 = Vec3::new(-425.0, -175.0, 64.0);
const TRIGGER: Vec3 = Vec3::new(332.0, 0.0, 24.0);
const FLOOR: Vec3 = Vec3::new(0.0, 100.0, -8.0);

fn player_box() -> TraceShape {
    TraceShape::quake1_player()
}

#[test]
fn bare_tool_faces_take_their_textures_contents() {
    let map = compiled(&CompileOptions::default());
    let at = |p: Vec3| map.point_contents(p);
    assert_eq!(at(HINT), Contents::EMPTY, "hint brush");
    assert_eq!(at(SKIP), Contents::EMPTY, "skip brush");
    assert!(
        at(CLIP).contains(Contents::PLAYERCLIP | Contents::MONSTERCLIP),
        "{:?}",
        at(CLIP)
    );
    assert!(!at(CLIP).intersects(Contents::SOLID), "{:?}", at(CLIP));
    assert!(at(WATER).contains(Contents::WATER), "{:?}", at(WATER));
    assert!(!at(WATER).intersects(Contents::SOLID), "{:?}", at(WATER));
    // Bare ordinary textures are solid (their defaults are 0 0 0).
    assert!(at(FLOOR).contains(Contents::SOLID), "{:?}", at(FLOOR));
    // Faces with a triple keep it: a hint texture written `1 0 0` is solid, a clip written
    // `65536 128 0` is player clip only.
    assert!(at(HINT_WITH_TRIPLE).contains(Contents::SOLID));
    let clip = at(CLIP_WITH_TRIPLE);
    assert!(clip.contains(Contents::PLAYERCLIP) && !clip.intersects(Contents::MONSTERCLIP));
}

#[test]
fn clip_stops_players_not_shots_and_hint_stops_nothing() {
    let map = compiled(&CompileOptions::default());
    let player = player_box();
    // Across the clip pillar (x -300..-236) at standing height.
    let (from, to) = (Vec3::new(-400.0, 0.0, 40.0), Vec3::new(-150.0, 0.0, 40.0));
    let blocked = map.trace(&player, from, to, Contents::MASK_PLAYER_SOLID);
    assert!(blocked.fraction < 1.0, "{blocked:?}");
    assert!((blocked.end.x - (-316.0)).abs() < 0.1, "{blocked:?}");
    let point = TraceShape::point();
    let shot = map.trace(&point, from, to, Contents::MASK_SHOT);
    assert_eq!(shot.fraction, 1.0, "a shot passes clip: {shot:?}");
    let shot_box = map.trace(&player, from, to, Contents::MASK_SHOT);
    assert_eq!(shot_box.fraction, 1.0, "{shot_box:?}");
    // Through the hint brush around the spawn (x -64..64): nothing blocks anyone.
    let (a, b) = (Vec3::new(-200.0, 0.0, 40.0), Vec3::new(200.0, 0.0, 40.0));
    for mask in [
        Contents::MASK_PLAYER_SOLID,
        Contents::MASK_SHOT,
        Contents::MASK_ANY_BLOCKING,
    ] {
        let t = map.trace(&player, a, b, mask);
        assert_eq!(t.fraction, 1.0, "{mask:?}: {t:?}");
        assert!(!t.start_solid);
    }
}

#[test]
fn bare_trigger_brushes_are_triggers() {
    let map = compiled(&CompileOptions::default());
    let triggers: Vec<usize> = map
        .entities()
        .filter(|e| e.classname() == "trigger_multiple")
        .filter_map(|e| e.model())
        .collect();
    assert_eq!(triggers.len(), 1);
    for brush in map.models()[triggers[0]].brush_range() {
        assert_eq!(map.brushes()[brush].contents, Contents::TRIGGER);
    }
    let player = player_box();
    assert_eq!(map.touching_triggers(&player, TRIGGER).count(), 1);
    let walk = map.trace(
        &player,
        Vec3::new(250.0, 0.0, 40.0),
        Vec3::new(420.0, 0.0, 40.0),
        Contents::MASK_PLAYER_SOLID,
    );
    assert_eq!(walk.fraction, 1.0, "a trigger blocks nobody: {walk:?}");
}

/// A `.wal` header (`qfiles.h` `miptex_t`, 100 bytes) with these flags, contents and value.
fn wal(flags: u32, contents: u32, value: i32) -> Vec<u8> {
    let mut bytes = vec![0u8; 100];
    bytes[88..92].copy_from_slice(&flags.to_le_bytes());
    bytes[92..96].copy_from_slice(&contents.to_le_bytes());
    bytes[96..100].copy_from_slice(&value.to_le_bytes());
    bytes
}

#[test]
fn a_wal_file_wins_over_the_builtin_table_but_not_over_a_triple() {
    let root = std::env::temp_dir().join(format!("planeshift-q2wal-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let folder = root.join("textures/e1u1");
    std::fs::create_dir_all(&folder).expect("mkdir");
    // Quake 2's SURF_HINT and SURF_SKIP would make the sides empty: these say solid glass
    // (CONTENTS_WINDOW) for hint and lava for the clip texture.
    std::fs::write(folder.join("hint.wal"), wal(0, 0x2, 0)).expect("write");
    std::fs::write(folder.join("CLIP.wal"), wal(0, 0x8, 0)).expect("write");
    let options = CompileOptions {
        texture_folders: vec![root.clone()],
        ..CompileOptions::default()
    };
    let map = compiled(&options);
    // The hint brush's first side is hint: its `.wal` makes the brush a window.
    assert!(map.point_contents(HINT).contains(Contents::WINDOW));
    assert!(map.point_contents(CLIP).contains(Contents::LAVA));
    assert!(!map.point_contents(CLIP).intersects(Contents::PLAYERCLIP));
    // Skip has no `.wal` here: the built-in table still answers.
    assert_eq!(map.point_contents(SKIP), Contents::EMPTY);
    // A face with a triple keeps it whatever the `.wal` says.
    assert!(
        map.point_contents(HINT_WITH_TRIPLE)
            .contains(Contents::SOLID)
    );
    let clip = map.point_contents(CLIP_WITH_TRIPLE);
    assert!(clip.contains(Contents::PLAYERCLIP) && !clip.intersects(Contents::LAVA));

    // The folder holding the textures, or the texture root itself, both answer.
    let mut textures = Quake2Textures::new();
    textures.load_folder(&root.join("textures")).expect("load");
    assert_eq!(textures.wal_count(), 2);
    assert_eq!(textures.defaults("e1u1/clip").contents, 0x8);
    // A file too short for its header is an error naming it.
    std::fs::write(folder.join("short.wal"), [0u8; 60]).expect("write");
    let bad = compile_map_with(&map_bytes(), &options).expect_err("short .wal");
    assert!(bad.to_string().contains("short.wal"), "{bad}");
    // ... but only a Quake 2 map reads the folder.
    let quake = CompileOptions {
        game: Some(Game::Quake),
        ..options
    };
    assert!(compile_map_with(&map_bytes(), &quake).is_ok());
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn bots_spawned_inside_the_hint_brush_soak_clean() {
    let run = SoakOptions {
        bots: 16,
        ticks: 2_000,
        seed: 26,
        config: planeshift::ControllerConfig::default(),
        report: false,
        compile: CompileOptions::default(),
        collide: true,
        threads: None,
        scatter: false,
        mix: Default::default(),
    };
    let summary = soak(&map_bytes(), &run).expect("soak");
    println!(
        "q2_tool_defaults soak: {} bots x {} ticks, inside {} overlapping {} stuck {} fell out {}, travelled {:.0}",
        run.bots,
        run.ticks,
        summary.inside_solid,
        summary.overlapping,
        summary.stuck,
        summary.fell_out,
        summary.travelled
    );
    assert_eq!(summary.spawns, 4);
    assert_eq!(
        (
            summary.inside_solid,
            summary.overlapping,
            summary.stuck,
            summary.fell_out
        ),
        (0, 0, 0, 0)
    );
    assert!(summary.travelled > 1_000.0 * run.bots as f32);
}

/// Every shared `.map` that compiles as Quake 2: how many faces lack the triple, which
/// textures they name, and how many brushes change contents now that they take their
/// texture's defaults instead of `0 0 0`.
#[test]
fn real_quake2_maps_bare_faces() {
    let maps = real_maps("real_quake2_maps_bare_faces");
    let mut quake2 = 0;
    for (name, path) in maps.iter().filter(|(n, _)| n.ends_with(".map")) {
        let Ok(map) = parse_map(&read(path)) else {
            continue;
        };
        if Game::detect(&map) != Game::Quake2 {
            continue;
        }
        quake2 += 1;
        let faces = map.brushes().flat_map(|b| b.faces.iter());
        let total = faces.clone().count();
        let bare: Vec<&str> = faces
            .filter(|f| matches!(f.extension, FaceExtension::None))
            .map(|f| f.texture.as_str())
            .collect();
        let mut names: Vec<&str> = bare.clone();
        names.sort_unstable();
        names.dedup();
        // The old reading: every bare face `0 0 0`.
        let mut zeroed = map.clone();
        for face in zeroed
            .entities
            .iter_mut()
            .flat_map(|e| e.brushes.iter_mut())
            .flat_map(|b| b.faces.iter_mut())
            .filter(|f| matches!(f.extension, FaceExtension::None))
        {
            face.extension = FaceExtension::Quake2(SurfaceTriple {
                contents: 0,
                flags: 0,
                value: 0.0,
            });
        }
        let now = planeshift::brush::brushes_from_map_for(&map, Game::Quake2, &Default::default());
        let before =
            planeshift::brush::brushes_from_map_for(&zeroed, Game::Quake2, &Default::default());
        assert_eq!(now.brushes.len(), before.brushes.len(), "{name}");
        let changed = now
            .brushes
            .iter()
            .zip(&before.brushes)
            .filter(|(a, b)| a.contents != b.contents)
            .count();
        let builtin: Vec<&&str> = names
            .iter()
            .filter(|n| planeshift::build::builtin_quake2_defaults(n).is_some())
            .collect();
        println!(
            "{name}: {} of {total} faces without a triple, textures {names:?} ({} in the built-in table: {builtin:?}); brushes whose contents change: {changed}",
            bare.len(),
            builtin.len()
        );
        if builtin.is_empty() {
            assert_eq!(changed, 0, "{name}");
        }
    }
    println!("real_quake2_maps_bare_faces: {quake2} Quake 2 maps");
}
