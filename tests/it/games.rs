//! Game profiles: which game each real map is detected as, and each game's brush rules.
//!
//! Takes every real map under `$PLANESHIFT_REAL_MAPS` (skipped, with a message, when
//! missing) and inline Quake 2 and Half-Life maps; gives the detected [`Game`] per map (printed), the
//! contents of Half-Life's `!cur_*` and `!liquidtest` brushes in `ericw-tools/hl_currents.map`
//! and of Quake 2 hint, skip, ladder and translucent brushes. Guarantees checked: the known
//! maps are detected as their games; every `!cur_*` brush is water with a current, the
//! `!liquidtest` brush water, none blocks a player box and a point inside each reports
//! `water|current`; a Quake 2 brush takes its first side's contents, hint and skip brushes
//! are not solid, a ladder keeps its bit and a translucent brush becomes a window;
//! Half-Life's `func_water`, `func_illusionary` and `func_ladder` are water, nothing, ladder;
//! `q2_playerclip.map`'s clip brush stops a player box and not a shot. The editor header
//! decides first: a known `// Game:` name, else a `// Format:` of one game, else the
//! heuristics; on the real maps the header and the heuristics agree.

use glam::Vec3;
use planeshift::brush::brushes_from_map_for;
use planeshift::game::ShaderSet;
use planeshift::{Contents, TraceShape, build::Game, map::parse_map};

use crate::support::{box_brush_face_lines, brushes, compile, read, real_maps, real_maps_dir};

/// The player's box (Quake 3's).
fn player() -> TraceShape {
    TraceShape::from_spec("box:-16,-16,-24,16,16,32").unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_real_map_is_detected_as_its_game() {
    let mut counts = [0usize; 4];
    let mut headers = 0;
    for (name, path) in real_maps("every_real_map_is_detected_as_its_game") {
        let mut map = parse_map(&read(&path)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let game = Game::detect(&map);
        let header = (map.editor_game.take(), map.editor_format.take());
        println!("{name}: {game} (header {header:?})");
        if header != (None, None) {
            // The mapper's header and the map's own signs agree on every real map.
            headers += 1;
            assert_eq!(
                Game::detect(&map),
                game,
                "{name}: the header and the heuristics"
            );
        }
        let expected = if name == "ericw-tools/hl_currents.map" {
            Some(Game::HalfLife)
        } else if name == "ericw-tools/q2_playerclip.map" {
            Some(Game::Quake2)
        } else if name.starts_with("openarena-lostlevels/") {
            Some(Game::Quake3)
        } else if name.starts_with("id-quake-1996/") || name.starts_with("librequake/") {
            Some(Game::Quake)
        } else {
            None
        };
        if let Some(expected) = expected {
            assert_eq!(game, expected, "{name}");
        }
        let index = Game::NAMED.iter().position(|(_, g)| *g == game);
        counts[index.unwrap_or(0)] += 1;
    }
    println!("quake, quake2, quake3, halflife: {counts:?}; {headers} maps with a header");
}

/// A worldspawn with one box brush of `texture` faces, after `header` lines.
fn headed_map(header: &str, texture: &str) -> planeshift::map::MapFile {
    let faces = box_brush_face_lines([0.0; 3], [64.0; 3], texture);
    let src = format!("{header}{{\n\"classname\" \"worldspawn\"\n{{\n{faces}}}\n}}\n");
    parse_map(src.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_editor_game_line_decides_first() {
    // A Quake 2 header on a map without a single triple: Quake 2 all the same.
    let map = headed_map("// Game: Quake 2\n// Format: Quake2\n", "e1u1/floor");
    assert_eq!(Game::detect(&map), Game::Quake2);
    // A plain Quake-dialect map under a Quake 3 header is Quake 3's, shaders and all.
    let map = headed_map(
        "// Game: Quake 3\n// Format: Standard\n",
        "base_wall/concrete",
    );
    assert_eq!(Game::detect(&map), Game::Quake3);
    // The header wins over the signs, in both directions.
    assert_eq!(
        Game::detect(&headed_map("// Game: Quake\n", "!water")),
        Game::Quake
    );
    assert_eq!(
        Game::detect(&headed_map("// Game: Half-Life\n", "common/caulk")),
        Game::HalfLife
    );
    // Other spellings of the same games.
    for (name, game) in [
        ("Quake", Game::Quake),
        ("quake2", Game::Quake2),
        ("Quake II", Game::Quake2),
        ("Quake III Arena", Game::Quake3),
        ("OpenArena", Game::Quake3),
        ("Quake Live", Game::Quake3),
        ("half_life", Game::HalfLife),
        ("HALF-LIFE", Game::HalfLife),
    ] {
        let map = headed_map(&format!("// Game: {name}\r\n"), "wall");
        assert_eq!(Game::detect(&map), game, "{name}");
    }
}

#[test]
fn the_editor_format_line_decides_when_the_game_says_nothing() {
    for (header, game) in [
        ("// Game: Generic\n// Format: Quake2\n", Game::Quake2),
        ("// Format: Quake2 (Valve)\n", Game::Quake2),
        (
            "// Game: My Mod\n// Format: Quake3 (legacy)\n",
            Game::Quake3,
        ),
        ("// Format: Quake3 (Valve)\n", Game::Quake3),
        ("// Format: Quake3\n", Game::Quake3),
    ] {
        assert_eq!(Game::detect(&headed_map(header, "wall")), game, "{header}");
    }
}

#[test]
fn an_unknown_editor_game_falls_back_to_the_heuristics() {
    for (header, texture, game) in [
        // Names this crate does not know, and formats several games share.
        (
            "// Game: Generic\n// Format: Standard\n",
            "wall",
            Game::Quake,
        ),
        ("// Game: Hexen 2\n// Format: Hexen2\n", "wall", Game::Quake),
        (
            "// Game: Generic\n// Format: Valve\n",
            "!water",
            Game::HalfLife,
        ),
        // Valve 220 alone is not Half-Life: Quake maps are written in it too.
        ("// Format: Valve\n", "wall", Game::Quake),
        ("// Game: Daikatana\n", "common/caulk", Game::Quake3),
        ("// Game:\n", "!cur_90", Game::HalfLife),
    ] {
        assert_eq!(
            Game::detect(&headed_map(header, texture)),
            game,
            "{header} {texture}"
        );
    }
    // A header line after the first entity is a plain comment.
    let src = "{\n\"classname\" \"worldspawn\"\n}\n// Game: Quake 2\n";
    let map = parse_map(src.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((Game::detect(&map), map.editor_game), (Game::Quake, None));
}

#[test]
fn half_life_currents_are_water_with_a_current() {
    let Some(dir) = real_maps_dir("half_life_currents_are_water_with_a_current") else {
        return;
    };
    let src = read(&dir.join("ericw-tools/hl_currents.map"));
    let map = parse_map(&src).unwrap_or_else(|e| panic!("{e}"));
    let out = brushes_from_map_for(&map, Game::detect(&map), &ShaderSet::new());
    let world = compile(&src).map;
    let (mut currents, mut liquids) = (0, 0);
    for brush in &out.brushes {
        let texture = brush.sides[0].texture.to_ascii_lowercase();
        let expected = if texture.starts_with("!cur_") {
            currents += 1;
            Contents::WATER | Contents::CURRENT
        } else if texture.starts_with("!liquidtest") {
            liquids += 1;
            Contents::WATER
        } else {
            continue;
        };
        assert_eq!(brush.contents, expected, "{texture} at {}", brush.loc);
        assert!(!brush.solid, "{texture}");
        let centre = ((brush.mins + brush.maxs) * 0.5).as_vec3();
        assert_eq!(world.point_contents(centre), expected, "{texture}");
        assert_eq!(world.point_contents(centre).to_string(), {
            if expected.contains(Contents::CURRENT) {
                "water|current"
            } else {
                "water"
            }
        });
        let trace = world.trace(&player(), centre, centre, Contents::MASK_PLAYER_SOLID);
        assert!(!trace.hit() && !trace.start_solid, "{texture}: {trace:?}");
        let (mins, maxs) = (brush.mins.as_vec3(), brush.maxs.as_vec3());
        let across = world.trace(
            &TraceShape::point(),
            Vec3::new(mins.x + 1.0, centre.y, centre.z),
            Vec3::new(maxs.x - 1.0, centre.y, centre.z),
            Contents::MASK_PLAYER_SOLID,
        );
        assert!(!across.hit(), "{texture}: {across:?}");
    }
    println!("hl_currents: {currents} current brushes, {liquids} !liquidtest brushes");
    assert_eq!((currents, liquids), (11, 1));
}

/// A Quake 2 brush whose sides carry `triples` in turn (the first side first).
fn quake2_brush(texture: &str, triples: &[&str]) -> (Contents, bool) {
    let faces: String = box_brush_face_lines([0.0; 3], [64.0; 3], texture)
        .lines()
        .enumerate()
        .map(|(i, l)| format!("{l} {}\n", triples[i.min(triples.len() - 1)]))
        .collect();
    let out = brushes(&format!(
        "{{\n\"classname\" \"worldspawn\"\n{{\n{faces}}}\n}}\n"
    ));
    (out.brushes[0].contents, out.brushes[0].solid)
}

#[test]
fn quake2_brushes_follow_qbsp3() {
    assert_eq!(
        quake2_brush("e1u1/floor", &["0 0 0"]),
        (Contents::SOLID, true)
    );
    // SURF_HINT and SURF_SKIP: no contents at all.
    assert_eq!(
        quake2_brush("e1u1/hint", &["0 256 0"]),
        (Contents::EMPTY, false)
    );
    assert_eq!(
        quake2_brush("e1u1/skip", &["0 512 0"]),
        (Contents::EMPTY, false)
    );
    // A bare ladder is made solid too, as qbsp3 does.
    assert_eq!(
        quake2_brush("e1u1/ladder", &["536870912 0 0"]),
        (Contents::LADDER | Contents::SOLID, true)
    );
    // SURF_TRANS33: detail, translucent, and a window instead of solid.
    assert_eq!(
        quake2_brush("e1u1/glass", &["0 16 0"]),
        (
            Contents::WINDOW | Contents::TRANSLUCENT | Contents::DETAIL,
            true
        )
    );
    // The first side decides: water first, solid after, is water; and the other way round.
    assert_eq!(
        quake2_brush("e1u1/water", &["32 0 0", "1 0 0"]),
        (Contents::WATER, false)
    );
    assert_eq!(
        quake2_brush("e1u1/water", &["1 0 0", "32 0 0"]),
        (Contents::SOLID, true)
    );
    // Currents become the one current bit; clips are detail.
    assert_eq!(
        quake2_brush("e1u1/water", &["2359328 0 0"]),
        (Contents::WATER | Contents::CURRENT, false)
    );
    assert_eq!(
        quake2_brush("e1u1/clip", &["65536 128 0"]),
        (Contents::PLAYERCLIP | Contents::DETAIL, true)
    );
}

#[test]
fn quake2_clip_stops_players_not_shots() {
    let Some(dir) = real_maps_dir("quake2_clip_stops_players_not_shots") else {
        return;
    };
    let src = read(&dir.join("ericw-tools/q2_playerclip.map"));
    let map = parse_map(&src).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(Game::detect(&map), Game::Quake2);
    let out = brushes_from_map_for(&map, Game::Quake2, &ShaderSet::new());
    let clips: Vec<_> = out
        .brushes
        .iter()
        .filter(|b| b.contents.contains(Contents::PLAYERCLIP))
        .collect();
    println!("q2_playerclip: {} clip brush(es)", clips.len());
    assert!(!clips.is_empty());
    let world = compile(&src).map;
    for clip in clips {
        let centre = ((clip.mins + clip.maxs) * 0.5).as_vec3();
        let stuck = world.trace(&player(), centre, centre, Contents::MASK_PLAYER_SOLID);
        assert!(stuck.start_solid, "the player box is free inside the clip");
        let (mins, maxs) = (clip.mins.as_vec3(), clip.maxs.as_vec3());
        let shot = world.trace(
            &TraceShape::point(),
            Vec3::new(mins.x + 1.0, centre.y, centre.z),
            Vec3::new(maxs.x - 1.0, centre.y, centre.z),
            Contents::MASK_SHOT,
        );
        assert!(!shot.hit(), "the shot stopped in the clip: {shot:?}");
    }
}

#[test]
fn half_life_entities_give_their_brushes_contents() {
    let entity = |class: &str, texture: &str| {
        let faces = box_brush_face_lines([0.0; 3], [64.0; 3], texture);
        let out = brushes(&format!(
            "{{\n\"classname\" \"worldspawn\"\n}}\n\
             {{\n\"classname\" \"{class}\"\n{{\n{faces}}}\n}}\n"
        ));
        (out.brushes[0].contents, out.brushes[0].solid)
    };
    // A `!` texture makes the map Half-Life's.
    assert_eq!(entity("func_water", "!water"), (Contents::WATER, false));
    assert_eq!(
        entity("func_water", "!cur_up"),
        (Contents::WATER | Contents::CURRENT, false)
    );
    assert_eq!(
        entity("func_illusionary", "!water"),
        (Contents::EMPTY, false)
    );
    assert_eq!(entity("func_ladder", "!water"), (Contents::LADDER, false));
    assert_eq!(entity("func_wall", "!water"), (Contents::WATER, false));
    // Without a `!` texture the map is Quake's, whose entities keep their textures' rule.
    assert_eq!(entity("func_ladder", "e1u1/wall"), (Contents::SOLID, true));
}
