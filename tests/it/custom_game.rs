//! A custom game in TOML: `maps/custom_game.map` compiled by `maps/custom_game.toml`
//! ("blockworld", `maps/README.md`), against the same map compiled as Quake.
//!
//! Takes the bundled map and configuration, inline maps and mutated configurations; gives
//! point contents, sweeps, trigger touches and model kinds. Guarantees checked: the file
//! records the custom game's name; `lava_*` is lava a player walks through, `glass*` a
//! translucent window that blocks players and shots, `tools/playerclip` blocks players and
//! not shots, `ice*` and `metal*` give their flags to sweeps (a bevel of the ice keeps
//! slick), the `ladder`, `liquid`, `trigger`, `world`, `solid` and `illusionary` classes do
//! what their docs say; as Quake none of that holds; a custom game without rules is its
//! base game; faces combine `first` and `any` as documented; bad configurations are typed
//! errors naming the rule; 1,000 mutated configurations never panic; `docs/custom-games.md`
//! shows `maps/custom_game.toml` as it is.

use glam::Vec3;
use planeshift::brush::brushes_from_map_custom;
use planeshift::compile::{CompileError, CompileOptions, compile_map_with};
use planeshift::game::ShaderSet;
use planeshift::{
    CompiledMap, Contents, CustomGame, CustomGameError, EntityClass, EntityRule, FaceCombine, Game,
    ModelKind, RuleList, RuleProblem, SurfaceFlags, TextureRule, TraceShape, parse_map,
};

use crate::support::{Pcg32, box_brush_face_lines, read, repo_root};

/// The player's box (Quake's), origin 24 above the feet; sweeps run 8 units above the floor
/// (a box resting on it starts in contact).
fn player() -> TraceShape {
    TraceShape::from_spec("box:-16,-16,-24,16,16,32").unwrap_or_else(|e| panic!("{e}"))
}

fn map_source() -> Vec<u8> {
    read(&repo_root().join("maps/custom_game.map"))
}

fn config_text() -> String {
    let bytes = read(&repo_root().join("maps/custom_game.toml"));
    String::from_utf8(bytes).unwrap_or_else(|e| panic!("{e}"))
}

fn blockworld() -> CustomGame {
    CustomGame::from_toml(&config_text()).unwrap_or_else(|e| panic!("{e}"))
}

fn compile_with(src: &[u8], options: &CompileOptions) -> CompiledMap {
    compile_map_with(src, options)
        .unwrap_or_else(|e| panic!("compile failed: {e}"))
        .map
}

/// The map compiled by blockworld's rules, and by Quake's.
fn both() -> (CompiledMap, CompiledMap) {
    let src = map_source();
    let custom = CompileOptions {
        custom_game: Some(blockworld()),
        ..CompileOptions::default()
    };
    let quake = CompileOptions {
        game: Some(Game::Quake),
        ..CompileOptions::default()
    };
    (compile_with(&src, &custom), compile_with(&src, &quake))
}

/// The model of the first entity of class `class`, and its kind.
fn model_of(map: &CompiledMap, class: &str) -> Option<(usize, ModelKind)> {
    let entity = map.find_entities(class).next()?;
    let model = entity.model()?;
    Some((model, map.models()[model].kind))
}

#[test]
fn the_compiled_file_records_the_custom_game() {
    let (custom, quake) = both();
    assert_eq!((custom.game_name(), custom.game()), ("blockworld", None));
    assert_eq!(
        (quake.game_name(), quake.game()),
        ("quake", Some(Game::Quake))
    );
    let again = CompiledMap::from_bytes(&custom.to_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again.game_name(), "blockworld");
    // `custom_game` wins over `game`.
    let options = CompileOptions {
        game: Some(Game::Quake2),
        custom_game: Some(blockworld()),
        ..CompileOptions::default()
    };
    assert_eq!(
        compile_with(&map_source(), &options).game_name(),
        "blockworld"
    );
}

#[test]
fn lava_pattern_makes_lava_a_player_walks_through() {
    let (custom, quake) = both();
    let inside = Vec3::new(128.0, 128.0, 16.0);
    assert_eq!(custom.point_contents(inside), Contents::LAVA);
    assert_eq!(quake.point_contents(inside), Contents::SOLID);
    let (from, to) = (Vec3::new(32.0, 128.0, 32.0), Vec3::new(224.0, 128.0, 32.0));
    let walk = custom.trace(&player(), from, to, Contents::MASK_PLAYER_SOLID);
    assert!(!walk.hit() && !walk.start_solid, "{walk:?}");
    let blocked = quake.trace(&player(), from, to, Contents::MASK_PLAYER_SOLID);
    assert!(blocked.hit(), "{blocked:?}");
    // The lava's sides carry the pattern's flag.
    let down = custom.trace(
        &TraceShape::point(),
        Vec3::new(128.0, 128.0, 100.0),
        Vec3::new(128.0, 128.0, 8.0),
        Contents::MASK_LIQUID,
    );
    assert_eq!(
        (down.contents, down.surface),
        (Contents::LAVA, SurfaceFlags::WARP)
    );
}

#[test]
fn glass_pattern_makes_a_translucent_window_that_blocks() {
    let (custom, quake) = both();
    let window = Contents::WINDOW | Contents::TRANSLUCENT;
    assert_eq!(custom.point_contents(Vec3::new(264.0, 128.0, 64.0)), window);
    let (from, to) = (Vec3::new(224.0, 128.0, 64.0), Vec3::new(300.0, 128.0, 64.0));
    let shot = custom.trace(&TraceShape::point(), from, to, Contents::MASK_SHOT);
    assert!(shot.hit(), "{shot:?}");
    assert_eq!(
        (shot.contents, shot.surface),
        (window, SurfaceFlags::TRANS33)
    );
    let name = shot.material.and_then(|m| custom.material_name(m));
    assert_eq!(name, Some("bw/glass_clear"));
    let walk = custom.trace(
        &player(),
        Vec3::new(224.0, 128.0, 32.0),
        Vec3::new(300.0, 128.0, 32.0),
        Contents::MASK_PLAYER_SOLID,
    );
    assert_eq!(walk.contents, window, "{walk:?}");
    let as_quake = quake.trace(&TraceShape::point(), from, to, Contents::MASK_SHOT);
    assert_eq!(
        (as_quake.contents, as_quake.surface),
        (Contents::SOLID, SurfaceFlags::EMPTY)
    );
}

#[test]
fn playerclip_pattern_blocks_players_not_shots() {
    let (custom, quake) = both();
    let walk = custom.trace(
        &player(),
        Vec3::new(304.0, 128.0, 32.0),
        Vec3::new(400.0, 128.0, 32.0),
        Contents::MASK_PLAYER_SOLID,
    );
    assert!(walk.hit(), "{walk:?}");
    assert_eq!(
        (walk.contents, walk.surface),
        (Contents::PLAYERCLIP, SurfaceFlags::NODRAW)
    );
    assert_eq!(walk.end.x, 336.0 - 16.0 - planeshift::STOP_DISTANCE);
    let (from, to) = (Vec3::new(300.0, 128.0, 64.0), Vec3::new(390.0, 128.0, 64.0));
    let shot = custom.trace(&TraceShape::point(), from, to, Contents::MASK_SHOT);
    assert!(!shot.hit(), "the shot stopped at the clip: {shot:?}");
    // Quake reads `tools/playerclip` as a wall, which stops the shot.
    let as_quake = quake.trace(&TraceShape::point(), from, to, Contents::MASK_SHOT);
    assert_eq!(as_quake.contents, Contents::SOLID, "{as_quake:?}");
}

#[test]
fn surface_patterns_reach_sweeps_and_bevels() {
    let (custom, quake) = both();
    let down = |map: &CompiledMap, x: f32| {
        map.trace(
            &TraceShape::point(),
            Vec3::new(x, 128.0, 100.0),
            Vec3::new(x, 128.0, -8.0),
            Contents::MASK_PLAYER_SOLID,
        )
    };
    // `ice*` sets both; `metal*` only flags, keeping Quake's solid.
    for (x, flags) in [
        (480.0, SurfaceFlags::SLICK),
        (800.0, SurfaceFlags::METALSTEPS),
    ] {
        let hit = down(&custom, x);
        assert_eq!(
            (hit.end.z, hit.contents, hit.surface),
            (8.0 + planeshift::STOP_DISTANCE, Contents::SOLID, flags)
        );
        assert_eq!(down(&quake, x).surface, SurfaceFlags::EMPTY);
    }
    // A box landing on the ice ridge's top edge stops on its upward box bevel (no face of
    // the ridge faces up), which keeps the ice's slick flag.
    let mut on_bevel = 0;
    for dy in [-4.0, -1.0, 0.0, 1.0, 4.0] {
        let from = Vec3::new(640.0, 128.0 + dy, 200.0);
        let to = Vec3::new(640.0, 128.0 + dy, 40.0);
        let hit = custom.trace(&player(), from, to, Contents::MASK_PLAYER_SOLID);
        assert!(hit.hit(), "{hit:?}");
        assert!(hit.surface.contains(SurfaceFlags::SLICK), "{hit:?}");
        assert_eq!(
            quake
                .trace(&player(), from, to, Contents::MASK_PLAYER_SOLID)
                .surface,
            SurfaceFlags::EMPTY
        );
        if hit.plane.is_some_and(|p| p.normal == Vec3::Z) {
            on_bevel += 1;
        }
    }
    assert_eq!(on_bevel, 5);
}

#[test]
fn ladder_and_liquid_classes_join_the_world_without_blocking() {
    let (custom, quake) = both();
    let (ladder, pool) = (Vec3::new(72.0, 352.0, 96.0), Vec3::new(736.0, 384.0, 32.0));
    assert_eq!(custom.point_contents(ladder), Contents::LADDER);
    assert_eq!(custom.point_contents(pool), Contents::SLIME);
    for class in ["ladder_volume", "pool_acid"] {
        assert_eq!(model_of(&custom, class), None, "{class} has a model");
        assert_eq!(
            model_of(&quake, class).map(|m| m.1),
            Some(ModelKind::Mover),
            "{class}"
        );
    }
    for at in [ladder, pool] {
        let stand = custom.trace(&player(), at, at, Contents::MASK_PLAYER_SOLID);
        assert!(!stand.start_solid, "{at}: {stand:?}");
        // As Quake both are movers, outside the world's point contents.
        assert_eq!(quake.point_contents(at), Contents::EMPTY, "{at}");
    }
}

#[test]
fn zone_class_is_a_trigger() {
    let (custom, quake) = both();
    let (zone, kind) = model_of(&custom, "zone_exit").unwrap_or_else(|| panic!("no model"));
    assert_eq!(kind, ModelKind::Trigger);
    let at = Vec3::new(224.0, 384.0, 32.0);
    let touching: Vec<usize> = custom.touching_triggers(&player(), at).collect();
    assert_eq!(touching, [zone]);
    let walk = custom.trace(
        &player(),
        Vec3::new(224.0, 280.0, 32.0),
        Vec3::new(224.0, 480.0, 32.0),
        Contents::MASK_PLAYER_SOLID,
    );
    assert!(!walk.hit(), "{walk:?}");
    assert_eq!(quake.touching_triggers(&player(), at).count(), 0);
    assert_eq!(
        model_of(&quake, "zone_exit").map(|m| m.1),
        Some(ModelKind::Volume)
    );
}

#[test]
fn world_solid_and_illusionary_classes() {
    let (custom, quake) = both();
    // `bw_detail*` joins the world: a world sweep stops at it; as Quake it is a mover.
    let (from, to) = (Vec3::new(320.0, 384.0, 32.0), Vec3::new(400.0, 384.0, 32.0));
    let hit = custom.trace(&player(), from, to, Contents::MASK_PLAYER_SOLID);
    assert_eq!(
        (hit.model, hit.contents),
        (Some(0), Contents::SOLID),
        "{hit:?}"
    );
    assert_eq!(model_of(&custom, "bw_detail_wall"), None);
    assert!(
        !quake
            .trace(&player(), from, to, Contents::MASK_PLAYER_SOLID)
            .hit()
    );
    // `block_*` is static (in the world sweep), `door_*` moves, `fence_*` blocks nothing.
    let kinds = |map: &CompiledMap| {
        ["block_static", "door_sliding", "fence_vines"].map(|c| model_of(map, c).map(|m| m.1))
    };
    assert_eq!(
        kinds(&custom),
        [
            Some(ModelKind::Static),
            Some(ModelKind::Mover),
            Some(ModelKind::Volume)
        ]
    );
    assert_eq!(kinds(&quake), [Some(ModelKind::Mover); 3]);
    let (block, _) = model_of(&custom, "block_static").unwrap_or_else(|| panic!("no block"));
    let hit = custom.trace(
        &player(),
        Vec3::new(400.0, 352.0, 32.0),
        Vec3::new(480.0, 352.0, 32.0),
        Contents::MASK_PLAYER_SOLID,
    );
    assert_eq!(hit.model, Some(block), "{hit:?}");
    let fence = Vec3::new(872.0, 384.0, 32.0);
    assert_eq!(custom.point_contents(fence), Contents::EMPTY);
    assert!(
        !custom
            .trace(&player(), fence, fence, Contents::MASK_ANY_BLOCKING)
            .start_solid
    );
}

/// A worldspawn of one 64-unit box whose faces (−x, +x, −y, +y, −z, +z) carry `textures`.
fn mixed_box(textures: [&str; 6]) -> String {
    let faces: String = box_brush_face_lines([0.0; 3], [64.0; 3], "T")
        .lines()
        .zip(textures)
        .map(|(line, texture)| format!("{}\n", line.replacen(" T ", &format!(" {texture} "), 1)))
        .collect();
    format!("{{\n\"classname\" \"worldspawn\"\n{{\n{faces}}}\n}}\n")
}

#[test]
fn faces_combine_first_or_any() {
    let game = |combine| CustomGame {
        combine,
        textures: vec![
            TextureRule::new("lava*").with_contents(&["lava"]),
            TextureRule::new("hint").with_contents(&[]),
        ],
        ..CustomGame::new("combined")
    };
    let contents = |combine, textures| {
        let map = parse_map(mixed_box(textures).as_bytes()).unwrap_or_else(|e| panic!("{e}"));
        let out = brushes_from_map_custom(&map, &game(combine), &ShaderSet::new())
            .unwrap_or_else(|e| panic!("{e}"));
        let brush = &out.brushes[0];
        // A custom game's value is the contents' own bits.
        assert_eq!(brush.game_contents, brush.contents.bits());
        (brush.contents, brush.solid)
    };
    let stone_first = ["stone", "lava1", "lava1", "lava1", "lava1", "lava1"];
    let lava_first = ["lava1", "stone", "stone", "stone", "stone", "stone"];
    let hint_first = ["hint", "stone", "lava1", "stone", "stone", "stone"];
    use FaceCombine::{Any, First};
    assert_eq!(contents(First, stone_first), (Contents::SOLID, true));
    assert_eq!(contents(Any, stone_first), (Contents::LAVA, false));
    assert_eq!(contents(First, lava_first), (Contents::LAVA, false));
    assert_eq!(contents(Any, lava_first), (Contents::LAVA, false));
    // An empty face does not vote.
    assert_eq!(contents(First, hint_first), (Contents::SOLID, true));
    assert_eq!(contents(First, ["hint"; 6]), (Contents::EMPTY, false));
    // No face's contents from a rule: Quake's own brush rule (any solid face makes it solid).
    assert_eq!(
        contents(
            Any,
            [
                "*water1", "*water1", "stone", "*water1", "*water1", "*water1"
            ]
        ),
        (Contents::SOLID, true)
    );
}

#[test]
fn a_custom_game_without_rules_is_its_base_game() {
    let mut rng = Pcg32::new(14);
    for name in ["custom_game.map", "arena.map"] {
        let src = read(&repo_root().join("maps").join(name));
        let plain = CompileOptions {
            custom_game: Some(CustomGame::new("plain")),
            ..CompileOptions::default()
        };
        let quake = CompileOptions {
            game: Some(Game::Quake),
            ..CompileOptions::default()
        };
        let (custom, quake) = (compile_with(&src, &plain), compile_with(&src, &quake));
        let kinds = |map: &CompiledMap| map.models().iter().map(|m| m.kind).collect::<Vec<_>>();
        assert_eq!(kinds(&custom), kinds(&quake), "{name}");
        let (mins, maxs) = (quake.models()[0].mins, quake.models()[0].maxs);
        for _ in 0..2000 {
            let mut coord = |lo: f32, hi: f32| rng.range_f64(f64::from(lo), f64::from(hi)) as f32;
            let p = Vec3::new(
                coord(mins.x, maxs.x),
                coord(mins.y, maxs.y),
                coord(mins.z, maxs.z),
            );
            assert_eq!(
                custom.point_contents(p),
                quake.point_contents(p),
                "{name} {p}"
            );
            let q = Vec3::new(
                coord(mins.x, maxs.x),
                coord(mins.y, maxs.y),
                coord(mins.z, maxs.z),
            );
            let (a, b) = (
                custom.trace(&player(), p, q, Contents::MASK_ANY_BLOCKING),
                quake.trace(&player(), p, q, Contents::MASK_ANY_BLOCKING),
            );
            assert_eq!(
                (a.fraction, a.contents, a.surface),
                (b.fraction, b.contents, b.surface),
                "{name} {p} {q}"
            );
        }
    }
}

#[test]
fn the_custom_game_page_shows_the_bundled_configuration() {
    let page = String::from_utf8(read(&repo_root().join("docs/custom-games.md")))
        .unwrap_or_else(|e| panic!("{e}"));
    let block = page
        .split("```toml\n")
        .nth(1)
        .and_then(|block| block.split("```").next());
    assert_eq!(block, Some(config_text().as_str()));
}

/// The error `CustomGame::from_toml` gives for `text`.
#[track_caller]
fn error_of(text: &str) -> CustomGameError {
    match CustomGame::from_toml(text) {
        Ok(game) => panic!("accepted {game:?}"),
        Err(e) => e,
    }
}

#[test]
fn bad_configurations_are_typed_errors_naming_the_rule() {
    let rules = |rules: &str| format!("name = \"blockworld\"\n{rules}");
    let unknown = error_of(&rules(
        "[[textures]]\npattern = \"a\"\n[[textures]]\npattern = \"b*\"\ncontents = [\"solid\", \"granite\"]\n",
    ));
    assert!(
        matches!(&unknown, CustomGameError::Rule { list: RuleList::Textures, index: 1, pattern, problem: RuleProblem::UnknownContents(name) } if pattern == "b*" && name == "granite"),
        "{unknown:?}"
    );
    assert!(
        unknown.to_string().starts_with(
            "custom game: textures[1] (pattern \"b*\"): contents: unknown name \"granite\" (known: solid, window,"
        ),
        "{unknown}"
    );
    let surface = error_of(&rules(
        "[[textures]]\npattern = \"a\"\nsurface = [\"shiny\"]\n",
    ));
    assert!(
        matches!(
            surface,
            CustomGameError::Rule {
                index: 0,
                problem: RuleProblem::UnknownSurface(_),
                ..
            }
        ),
        "{surface:?}"
    );
    assert_eq!(
        error_of("name = \"blockworld\"\nbase = \"doom\"\n"),
        CustomGameError::UnknownBase("doom".to_owned())
    );
    let glob = error_of(&rules(
        "[[entities]]\npattern = \"func_[dw]*\"\nclass = \"world\"\n",
    ));
    assert_eq!(
        glob.to_string(),
        "custom game: entities[0] (pattern \"func_[dw]*\"): pattern: `[` is reserved (character classes are not supported; write `\\[`)"
    );
    let duplicate = error_of(&rules(
        "[[entities]]\npattern = \"zone_*\"\nclass = \"trigger\"\n[[entities]]\npattern = \"ZONE_*\"\nclass = \"world\"\n",
    ));
    assert!(
        matches!(
            duplicate,
            CustomGameError::Rule {
                list: RuleList::Entities,
                index: 1,
                problem: RuleProblem::DuplicatePattern { first: 0 },
                ..
            }
        ),
        "{duplicate:?}"
    );
    let moves = error_of(&rules(
        "[[entities]]\npattern = \"zone_*\"\nclass = \"trigger\"\nmoves = true\n",
    ));
    assert!(
        matches!(
            moves,
            CustomGameError::Rule {
                problem: RuleProblem::KeyNotForClass {
                    key: "moves",
                    wanted: "solid"
                },
                ..
            }
        ),
        "{moves:?}"
    );
    let repeated = error_of(&rules(
        "[[textures]]\npattern = \"a\"\ncontents = [\"lava\", \"lava\"]\n",
    ));
    assert!(
        matches!(
            repeated,
            CustomGameError::Rule {
                problem: RuleProblem::RepeatedName {
                    field: "contents",
                    ..
                },
                ..
            }
        ),
        "{repeated:?}"
    );
    // Names.
    for (name, problem) in [
        ("", "is empty"),
        ("Blockworld", "may hold only a-z, 0-9, `_` and `-`"),
        ("quake2", "is a built-in game's"),
    ] {
        let e = error_of(&format!("name = \"{name}\"\n"));
        assert_eq!(
            e,
            CustomGameError::BadName {
                name: name.to_owned(),
                problem
            },
            "{name}"
        );
    }
    // Syntax, a missing name, unknown keys and classes are the TOML reader's, with a place.
    for text in [
        "",
        "name = \"x\"\n[[textures]]\npattern = \"a\"\ncolour = \"red\"\n",
        "name = \"x\"\n[[entities]]\npattern = \"a\"\nclass = \"door\"\n",
        "name = \"x\"\ncombine = \"all\"\n",
        "name = \"x\n",
    ] {
        match error_of(text) {
            CustomGameError::Toml(e) => assert!(e.span().is_some(), "{text:?}: {e}"),
            other => panic!("{text:?}: {other:?}"),
        }
    }
    // Too many rules.
    let many: String = (0..=CustomGame::MAX_RULES)
        .map(|i| format!("[[textures]]\npattern = \"t{i}\"\n"))
        .collect();
    assert_eq!(
        error_of(&rules(&many)),
        CustomGameError::TooManyRules {
            list: RuleList::Textures,
            count: CustomGame::MAX_RULES + 1
        }
    );
    // A game built in code is checked by the compile.
    let bad = CustomGame {
        entities: vec![EntityRule::new("", EntityClass::World)],
        ..CustomGame::new("blockworld")
    };
    let options = CompileOptions {
        custom_game: Some(bad),
        ..CompileOptions::default()
    };
    match compile_map_with(&map_source(), &options) {
        Err(CompileError::CustomGame(CustomGameError::Rule {
            problem: RuleProblem::EmptyPattern,
            ..
        })) => {}
        other => panic!("{:?}", other.map(|o| o.map.game_name().to_owned())),
    }
}

#[test]
fn the_configuration_round_trips_through_toml() {
    let game = blockworld();
    assert_eq!(game.textures.len(), 6);
    assert_eq!(game.entities.len(), 7);
    let text = toml::to_string(&game).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(CustomGame::from_toml(&text), Ok(game), "{text}");
}

/// Words a mutation swaps: names of contents, flags, classes, games and combinations.
const WORDS: [&str; 18] = [
    "\"lava\"",
    "\"water\"",
    "\"window\"",
    "\"playerclip\"",
    "\"solid\"",
    "\"nodraw\"",
    "\"slick\"",
    "\"warp\"",
    "\"world\"",
    "\"trigger\"",
    "\"ladder\"",
    "\"liquid\"",
    "\"illusionary\"",
    "\"quake2\"",
    "\"halflife\"",
    "\"any\"",
    "true",
    "\"slime\"",
];

/// Pieces a mutation inserts: TOML syntax and words of the configuration's vocabulary.
const PIECES: [&str; 16] = [
    "[[textures]]\n",
    "[[entities]]\n",
    "pattern = \"*\"\n",
    "contents = []\n",
    "\"",
    "[",
    "]",
    "=",
    "\n",
    "\\",
    "*",
    "class = \"ladder\"\n",
    "moves = true\n",
    "liquid = \"lava\"\n",
    "base = \"quake3\"\n",
    "combine = \"any\"\n",
];

#[test]
fn mutated_configurations_never_panic() {
    let original = config_text().into_bytes();
    let src = map_source();
    let mut rng = Pcg32::new(1414);
    let (mut accepted, mut compiled) = (0, 0);
    for _ in 0..1000 {
        let mut bytes = original.clone();
        for _ in 0..1 + rng.below(2) {
            let at = rng.below(bytes.len() + 1);
            match rng.below(6) {
                3 | 4 => {
                    // One word of the vocabulary for another: mostly still TOML.
                    let text = String::from_utf8_lossy(&bytes).into_owned();
                    let words: Vec<&str> = WORDS
                        .iter()
                        .copied()
                        .filter(|w| text.contains(*w))
                        .collect();
                    if let Some(word) = words.get(rng.below(words.len().max(1))) {
                        let other = WORDS[rng.below(WORDS.len())];
                        bytes = text.replacen(word, other, 1).into_bytes();
                    }
                }
                0 if at < bytes.len() => bytes[at] = rng.next_u32() as u8,
                1 if at < bytes.len() => {
                    let end = (at + 1 + rng.below(24)).min(bytes.len());
                    bytes.drain(at..end);
                }
                2 => {
                    let piece = PIECES[rng.below(PIECES.len())].as_bytes();
                    bytes.splice(at..at, piece.iter().copied());
                }
                _ => {
                    // Duplicate a slice somewhere else.
                    let from = rng.below(bytes.len());
                    let end = (from + rng.below(64)).min(bytes.len());
                    let slice: Vec<u8> = bytes[from..end].to_vec();
                    bytes.splice(at.min(bytes.len())..at.min(bytes.len()), slice);
                }
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        let Ok(game) = CustomGame::from_toml(&text) else {
            continue;
        };
        accepted += 1;
        let options = CompileOptions {
            custom_game: Some(game),
            ..CompileOptions::default()
        };
        if let Ok(out) = compile_map_with(&src, &options) {
            compiled += 1;
            assert!(!out.map.game_name().is_empty());
        }
    }
    println!("mutated configurations: {accepted} of 1000 accepted, {compiled} compiled");
    assert!((100..1000).contains(&accepted), "{accepted}");
    assert_eq!(compiled, accepted);
}
