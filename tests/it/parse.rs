//! Reader tests: every dialect, the lexical pitfalls editors' files hold, exact error
//! messages with line and column.

use planeshift::map::{
    BrushSyntax, FaceExtension, SourceLoc, TextureMapping, parse_map, write_map,
};

use crate::support::{check_parse_err, parse_ok};

const STANDARD_FACE: &str = "( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) tex 0 0 0 1 1";

#[test]
fn empty_file_is_valid_with_zero_entities() {
    let map = parse_ok("");
    assert!(map.entities.is_empty());
    assert!(map.loose_brushes.is_empty());
    assert!(parse_ok("  // only a comment\r\n\n").entities.is_empty());
}

#[test]
fn braces_on_one_line_make_an_empty_entity() {
    let map = parse_ok("{}");
    assert_eq!(map.entities.len(), 1);
    assert!(map.entities[0].properties.is_empty());
}

#[test]
fn key_values_keep_order_escapes_and_tricky_content() {
    let src = "{\n\"classname\"\t\"worldspawn\"\n\"message\" \"haven't // not a comment { }\"\n\
               \"_tb_linked_group_id\" \"{363aa31c}\"\n\"say\" \"a \\\"quoted\\\" word\"\n\
               \"path\" \"c:\\a\\b\\\"\n\"text\" \"line\\nbreak\"\n}";
    let map = parse_ok(src);
    let props = &map.entities[0].properties;
    let expected = [
        ("classname", "worldspawn"),
        ("message", "haven't // not a comment { }"),
        ("_tb_linked_group_id", "{363aa31c}"),
        ("say", "a \"quoted\" word"),
        ("path", "c:\\a\\b\\"),
        ("text", "line\\nbreak"),
    ];
    let got: Vec<(&str, &str)> = props
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(got, expected);
}

#[test]
fn every_face_dialect_is_detected_per_face() {
    let src = format!(
        "{{\n\"classname\" \"worldspawn\"\n{{\n\
         {STANDARD_FACE}\n\
         ( 0 0 0 ) ( 1 0 0 ) ( 0 0 1 ) base/floor [ 1 0 0 16 ] [ 0 -1 0 8 ] 0 0.5 0.5\n\
         ( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) e1u1/clip 0 0 0 1 1 65536 128 0\n\
         ( 0 0 1 ) ( 0 1 1 ) ( 1 0 1 ) hexen 0 0 0 1 1 -1\n\
         ( 1 0 0 ) ( 1 0 1 ) ( 1 1 0 ) dk 0 0 0 1 1 0 0 0 12345 12345 12345\n\
         ( 0 1 0 ) ( 1 1 0 ) ( 0 1 1 ) tex [ 1 0 0 0 ] [ 0 0 -1 0 ] 0 1 1 1 2 3.5\n\
         }}\n}}\n"
    );
    let map = parse_ok(&src);
    let faces = &map.entities[0].brushes[0].faces;
    assert!(matches!(faces[0].mapping, TextureMapping::Standard { .. }));
    assert!(matches!(
        faces[1].mapping,
        TextureMapping::Valve220 {
            u: [1.0, 0.0, 0.0, 16.0],
            ..
        }
    ));
    assert_eq!(faces[2].extension.triple().map(|t| t.contents), Some(65536));
    assert_eq!(faces[2].extension.triple().map(|t| t.flags), Some(128));
    assert_eq!(faces[3].extension, FaceExtension::Hexen2(-1.0));
    assert!(matches!(
        faces[4].extension,
        FaceExtension::Daikatana(_, [12345.0, 12345.0, 12345.0])
    ));
    assert!(matches!(faces[5].mapping, TextureMapping::Valve220 { .. }));
    assert_eq!(faces[5].extension.triple().map(|t| t.value), Some(3.5));
    assert_eq!(
        planeshift::map::formats(&map),
        ["standard", "valve220", "quake2", "hexen2", "daikatana"]
    );
}

#[test]
fn brushdef_and_patchdef2_blocks_are_read() {
    let src = "{\n\"classname\" \"worldspawn\"\n{\nbrushDef\n{\n\
               ( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) ( ( 0.0078125 0 0 ) ( 0 0.0078125 0 ) ) common/caulk 0 0 0\n\
               }\n}\n{\npatchDef2\n{\ntex/curve\n( 3 3 0 0 0 )\n(\n\
               ( ( 0 0 0 0 0 ) ( 0 1 0 0 0.5 ) ( 0 2 0 0 1 ) )\n\
               ( ( 1 0 0 0.5 0 ) ( 1 1 0 0.5 0.5 ) ( 1 2 0 0.5 1 ) )\n\
               ( ( 2 0 0 1 0 ) ( 2 1 0 1 0.5 ) ( 2 2 0 1 1 ) )\n)\n}\n}\n}\n";
    let map = parse_ok(src);
    let entity = &map.entities[0];
    assert_eq!(entity.brushes.len(), 1);
    assert_eq!(entity.brushes[0].syntax, BrushSyntax::BrushDef);
    assert_eq!(entity.brushes[0].faces[0].texture, "common/caulk");
    assert_eq!(entity.patches.len(), 1);
    assert_eq!(entity.patches[0].rows.len(), 3);
    assert_eq!(entity.patches[0].rows[2][1], vec![2.0, 1.0, 0.0, 1.0, 0.5]);
}

#[test]
fn brushes_outside_any_entity_are_loose_world_brushes() {
    let src = format!("{{\n{STANDARD_FACE}\n}}\n{{\n{STANDARD_FACE}\n}}\n");
    let map = parse_ok(&src);
    assert!(map.entities.is_empty());
    assert_eq!(map.loose_brushes.len(), 2);
}

#[test]
fn lexical_pitfalls_read_correctly() {
    // CRLF, tab separators, `;` comments, `//` comments mid-line, `{`-prefixed, numeric and
    // quoted texture names, exponents, -0, and a face comment after the numbers.
    let src = "; QuArK comment line\r\n{\r\n\"classname\"\t\"worldspawn\"\r\n{\r\n\
               ( -0 -0.000000 1e2 ) ( 1.5E+1 -6.123233995736766e-17 0 ) ( 0 0 1 ) {trigger 0 0 0 1 1 // note\r\n\
               ( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) 666 0 0 0 -1.000000 1.000000\r\n\
               ( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) \"some \\\"name\" 0 0 0 1 1\r\n\
               ( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) *water0 0 0 0 1 1\r\n}\r\n}\r\n";
    let map = parse_ok(src);
    let faces = &map.entities[0].brushes[0].faces;
    assert_eq!(faces[0].texture, "{trigger");
    assert_eq!(
        faces[0].points[0].x.to_bits(),
        0.0f64.to_bits(),
        "-0 becomes 0"
    );
    assert_eq!(faces[0].points[0].z, 100.0);
    assert_eq!(faces[0].points[1].x, 15.0);
    assert_eq!(faces[1].texture, "666");
    assert_eq!(faces[2].texture, "some \"name");
    assert_eq!(faces[3].texture, "*water0");
    assert_eq!(faces[3].loc, SourceLoc { line: 8, column: 1 });
    assert_eq!(map.entities[0].loc, SourceLoc { line: 2, column: 1 });
}

#[test]
fn written_maps_read_back_equal() {
    let src = "{\n\"classname\" \"worldspawn\"\n\"say\" \"a \\\"b\\\"\"\n{\n\
               ( 0.1 0.2 0.30000000000000004 ) ( 0 1 0 ) ( 0 0 1 ) \"two words\" 0 0 0 1 1 1 2 3\n\
               ( 0 0 0 ) ( 1 0 0 ) ( 0 0 1 ) t [ 1 0 0 0 ] [ 0 0 -1 0 ] 0 1 1\n}\n}\n";
    let map = parse_ok(src);
    let again = parse_ok(&write_map(&map));
    assert_eq!(again.entities[0].properties, map.entities[0].properties);
    let faces = |m: &planeshift::map::MapFile| {
        m.entities[0].brushes[0]
            .faces
            .iter()
            .map(|f| (f.points, f.texture.clone(), f.mapping.clone(), f.extension))
            .collect::<Vec<_>>()
    };
    assert_eq!(faces(&again), faces(&map));
}

#[test]
fn the_editor_header_is_kept_from_comments_before_the_first_entity() {
    // TrenchBroom's first two lines, with CRLF, as librequake's files have them.
    let src = "// Game: Quake 2\r\n// Format: Quake2 (Valve)\r\n// entity 0\r\n\
               {\r\n\"classname\" \"worldspawn\"\r\n}\r\n";
    let map = parse_ok(src);
    assert_eq!(map.editor_game.as_deref(), Some("Quake 2"));
    assert_eq!(map.editor_format.as_deref(), Some("Quake2 (Valve)"));
    assert_eq!(map.entities[0].loc, SourceLoc { line: 4, column: 1 });
    // Keys without case, spaces around the colon, `;` comments between, the first of each.
    let loose = parse_ok(
        "\n  //game : Half-Life \n; QuArK\n//FORMAT:Valve\n// Game: Quake\n{ }\n\
         // Format: Quake3\n{ }\n",
    );
    assert_eq!(loose.editor_game.as_deref(), Some("Half-Life"));
    assert_eq!(loose.editor_format.as_deref(), Some("Valve"));
    // Only before the first entity; other comments, empty values and none at all say nothing.
    for src in [
        "{ }\n// Game: Quake 3\n{ }\n",
        "{\n// Game: Quake 3\n}\n",
        "// Game:\n// Format: \t\n// Gamey: Quake\n{ }\n",
        "// entity 0\n{ }",
        "",
    ] {
        let map = parse_ok(src);
        assert_eq!(
            (map.editor_game, map.editor_format),
            (None, None),
            "{src:?}"
        );
    }
}

#[test]
fn the_editor_header_moves_no_error() {
    // The same faulty entity, with and without a header in front: the error is where the
    // fault is, counted from the start of the file either way.
    check_parse_err(
        b"{\n\"classname\" \"worldspawn\n}\n",
        "2:13: unterminated string",
    );
    check_parse_err(
        b"// Game: Quake\n// Format: Valve\n{\n\"classname\" \"worldspawn\n}\n",
        "4:13: unterminated string",
    );
    check_parse_err(b"// Game: Quake\n}", "2:1: '}' without a matching '{'");
}

#[test]
fn written_maps_keep_the_editor_header() {
    let map = parse_ok(
        "// Game: Quake 3\n// Format: Quake3 (legacy)\n{\n\"classname\" \"worldspawn\"\n}\n",
    );
    let text = write_map(&map);
    assert!(
        text.starts_with("// Game: Quake 3\n// Format: Quake3 (legacy)\n"),
        "{text}"
    );
    let again = parse_ok(&text);
    assert_eq!(again.editor_game, map.editor_game);
    assert_eq!(again.editor_format, map.editor_format);
    // A value built in code is written up to its first line break.
    let mut built = planeshift::map::MapFile {
        editor_game: Some("Quake\n{".to_string()),
        ..Default::default()
    };
    built.editor_format = Some("Valve".to_string());
    let again = parse_ok(&write_map(&built));
    assert_eq!(again.editor_game.as_deref(), Some("Quake"));
    assert_eq!(again.editor_format.as_deref(), Some("Valve"));
    assert!(again.entities.is_empty());
}

#[test]
fn error_unterminated_string() {
    check_parse_err(
        b"{\n\"classname\" \"worldspawn\n}\n",
        "2:13: unterminated string",
    );
}

#[test]
fn error_missing_close_paren() {
    check_parse_err(
        b"{\n{\n( 0 0 0 ( 0 1 0 ) ( 0 0 1 ) tex 0 0 0 1 1\n}\n}\n",
        "3:9: expected ')' to close the plane point, found '('",
    );
}

#[test]
fn error_face_with_two_points() {
    check_parse_err(
        b"{\n{\n( 0 0 0 ) ( 0 1 0 ) tex 0 0 0 1 1\n}\n}\n",
        "3:21: expected '(' to start plane point 3, found 'tex'",
    );
}

#[test]
fn error_nan_coordinate() {
    check_parse_err(
        b"{\n{\n( 0 nan 0 ) ( 0 1 0 ) ( 0 0 1 ) tex 0 0 0 1 1\n}\n}\n",
        "3:5: number 'nan' is not finite (nan and inf are not allowed)",
    );
    check_parse_err(
        b"{\n{\n( 0 0 -inf ) ( 0 1 0 ) ( 0 0 1 ) tex 0 0 0 1 1\n}\n}\n",
        "3:7: number '-inf' is not finite (nan and inf are not allowed)",
    );
    check_parse_err(
        b"{\n{\n( 0 0 1e999 ) ( 0 1 0 ) ( 0 0 1 ) tex 0 0 0 1 1\n}\n}\n",
        "3:7: number '1e999' is not finite (nan and inf are not allowed)",
    );
}

#[test]
fn error_close_brace_without_open() {
    check_parse_err(b"{\n}\n}\n", "3:1: '}' without a matching '{'");
}

#[test]
fn error_binary_garbage() {
    check_parse_err(
        b"\x00\xff\x13garbage",
        "1:1: expected '{' to start an entity, found '?\u{ff}?garbage'",
    );
}

#[test]
fn error_unclosed_entity_and_brush_name_where_they_opened() {
    check_parse_err(
        b"{\n\"classname\" \"worldspawn\"\n",
        "3:1: end of file inside the entity opened at 1:1",
    );
    check_parse_err(
        b"{\n{\n( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) tex 0 0 0 1 1\n",
        "4:1: end of file inside the brush opened at 2:1",
    );
}

#[test]
fn error_odd_numbers_after_mapping_and_unknown_blocks() {
    check_parse_err(
        b"{\n{\n( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) tex 0 0 0 1 1 7 8\n}\n}\n",
        "3:45: expected 0, 1, 3 or 6 numbers after the texture mapping, found 2",
    );
    check_parse_err(
        b"{\n{\nterrainDef\n{\n}\n}\n}\n",
        "3:1: unsupported block 'terrainDef' (known: brushDef, patchDef2, patchDef3)",
    );
    check_parse_err(
        b"{\n{\n( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) tex 0 0 0 1 1 1.5 0 0\n}\n}\n",
        "3:45: expected an integer, found '1.5'",
    );
}

#[test]
fn errors_never_point_past_the_input() {
    for src in [&b"{"[..], b"{\n\"a", b"{ {", b"{ { (", b"{ { ( 1 2"] {
        let Err(e) = parse_map(src) else {
            panic!("{src:?} should not parse");
        };
        let lines: Vec<&[u8]> = src.split(|&b| b == b'\n').collect();
        let line = e.loc.line as usize;
        assert!(line >= 1 && line <= lines.len(), "{e} for {src:?}");
        assert!(
            e.loc.column as usize <= lines[line - 1].len() + 1,
            "{e} for {src:?}"
        );
    }
}

#[test]
fn entity_origins_are_three_finite_numbers() {
    let map = parse_ok(
        "{ \"classname\" \"a\" \"origin\" \"1 -2.5 3e2\" }\n\
         { \"classname\" \"b\" \"origin\" \"1 2\" }\n\
         { \"classname\" \"c\" \"origin\" \"1 2 3 4\" }\n\
         { \"classname\" \"d\" \"origin\" \"1 x 3\" }\n\
         { \"classname\" \"e\" }\n",
    );
    let origins: Vec<_> = map.entities.iter().map(|e| e.origin()).collect();
    assert_eq!(origins[0], Some(glam::DVec3::new(1.0, -2.5, 300.0)));
    assert!(origins[1..].iter().all(Option::is_none), "{origins:?}");
    let spawns = parse_ok(
        "{ \"classname\" \"info_player_start\" \"origin\" \"1 2 3\" }\n\
         { \"classname\" \"light\" \"origin\" \"4 5 6\" }\n\
         { \"classname\" \"info_player_deathmatch\" \"origin\" \"7 8 9\" }\n\
         { \"classname\" \"info_player_deathmatch\" }\n",
    );
    let found: Vec<_> = spawns.player_spawns().collect();
    assert_eq!(
        found,
        [
            glam::DVec3::new(1.0, 2.0, 3.0),
            glam::DVec3::new(7.0, 8.0, 9.0)
        ]
    );
}
