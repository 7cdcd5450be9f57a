//! The real `bspc` binary: exit statuses, the error format and the JSON contract.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use planeshift_testkit::{files_in, real_maps, real_maps_dir, repo_root};

fn bspc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bspc"))
        .args(args)
        .output()
        .expect("run bspc")
}

/// Runs `bspc` and asserts it succeeded, showing its stderr otherwise.
#[track_caller]
fn bspc_ok(args: &[&str]) -> Output {
    let out = bspc(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn temp_file(name: &str, contents: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("planeshift-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("write temp file");
    path
}

/// Runs `bspc compile MAP -o OUT EXTRA...`, which must succeed.
fn compile_to(map: &str, out: &Path, extra: &[&str]) -> Output {
    let out = out.to_str().expect("path");
    let mut args = vec!["compile", map, "-o", out];
    args.extend_from_slice(extra);
    bspc_ok(&args)
}

/// Runs `bspc ARGS INPUT -o OUT` and returns OUT's text and its JSON lines.
fn json_lines_of(args: &[&str], input: &Path) -> (String, Vec<serde_json::Value>) {
    let out_path = temp_file(&format!("{}.out.jsonl", args[0]), b"");
    let input = input.to_str().expect("path");
    let output = out_path.to_str().expect("path");
    let mut all = args.to_vec();
    all.extend([input, "-o", output]);
    bspc_ok(&all);
    let text = std::fs::read_to_string(&out_path).expect("results");
    let lines = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    (text, lines)
}

fn bundled(name: &str) -> String {
    repo_root()
        .join("maps")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn check_json_is_one_object_with_the_contract_fields() {
    let out = bspc_ok(&["check", &bundled("box_room.map"), "--json"]);
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert_eq!(text.trim().lines().count(), 1);
    let json: serde_json::Value = serde_json::from_str(&text).expect("json");
    let keys: Vec<&str> = json
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    let mut expected = [
        "entities",
        "brushes",
        "world_brushes",
        "faces",
        "patches",
        "patch_facets",
        "formats",
        "diagnostics",
        "game",
        "contents",
        "leak",
        "format",
    ];
    // New fields come after the old ones, in this order.
    let at = |key: &str| text.find(&format!("\"{key}\":")).expect(key);
    assert!(expected.windows(2).all(|k| at(k[0]) < at(k[1])), "{text}");
    expected.sort_unstable();
    let mut keys = keys;
    keys.sort_unstable();
    assert_eq!(keys, expected);
    assert_eq!(json["brushes"], 6);
    assert_eq!(json["world_brushes"], 6);
    assert_eq!(json["faces"], 36);
    assert_eq!(json["formats"], serde_json::json!(["valve220"]));
    assert_eq!(json["game"], "quake");
    assert_eq!(json["contents"], serde_json::json!({"solid": 6}));
    assert_eq!(json["leak"], serde_json::Value::Null);
    assert_eq!(json["format"], "map");
}

#[test]
fn check_reports_diagnostics_with_line_and_column() {
    let path = temp_file(
        "flat.map",
        b"{\n\"classname\" \"worldspawn\"\n{\n( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) a 0 0 0 1 1\n}\n}\n",
    );
    let out = bspc(&["check", path.to_str().expect("path"), "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["brushes"], 1);
    assert_eq!(json["world_brushes"], 0);
    assert_eq!(json["diagnostics"][0]["line"], 3);
    assert_eq!(json["diagnostics"][0]["column"], 1);
    assert_eq!(
        json["diagnostics"][0]["message"],
        "brush rejected: no volume: 1 usable face(s), a closed brush needs at least 4"
    );
    let human = bspc(&["check", path.to_str().expect("path")]);
    let stderr = String::from_utf8_lossy(&human.stderr);
    assert!(
        stderr.contains(&format!("{}:3:1: warning: brush rejected", path.display())),
        "{stderr}"
    );
}

#[test]
fn syntax_errors_exit_1_as_file_line_col() {
    let path = temp_file("bad.map", b"{\n\"classname\" \"worldspawn\n");
    let out = bspc(&["check", path.to_str().expect("path")]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        format!("{}:2:13: error: unterminated string", path.display())
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn usage_and_io_errors_exit_2() {
    assert_eq!(
        bspc(&["check", "/nonexistent/nothing.map"]).status.code(),
        Some(2)
    );
    assert_eq!(bspc(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(bspc(&["check"]).status.code(), Some(2));
    assert_eq!(bspc(&[]).status.code(), Some(2));
    assert_eq!(bspc(&["--help"]).status.code(), Some(0));
}

/// `--patch-tolerance` sets how closely patches are cut: fewer facets at a coarser
/// tolerance, for `check` and `compile` alike; a value out of range is a usage error.
#[test]
fn the_patch_tolerance_flag_sets_the_facet_count() {
    let map = bundled("patch_arch.map");
    let facets = |command: &str, tolerance: &str| {
        let mut args = vec![
            command,
            map.as_str(),
            "--json",
            "--patch-tolerance",
            tolerance,
        ];
        let out_path = temp_file("patch_arch.pbsp", b"");
        let out_path = out_path.to_str().expect("path").to_owned();
        if command == "compile" {
            args.extend(["-o", out_path.as_str()]);
        }
        let out = bspc_ok(&args);
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        assert_eq!(json["patches"], 7, "{command}");
        json["patch_facets"].as_u64().expect("patch_facets")
    };
    let (fine, coarse) = (facets("check", "0.25"), facets("check", "4"));
    assert!(fine > coarse && coarse > 0, "{fine} {coarse}");
    assert_eq!(facets("compile", "0.25"), fine);
    assert_eq!(facets("compile", "4"), coarse);
    for bad in ["0", "100", "nan", "x"] {
        let out = bspc(&["check", &map, "--patch-tolerance", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("--patch-tolerance"), "{bad}: {stderr}");
    }
    let out = bspc_ok(&["check", &map]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("7 patches ({fine} facets)")),
        "{text}"
    );
}

#[test]
fn check_reads_every_real_map() {
    // A leak's pointfile goes to a temporary folder, not beside the shared maps.
    let pts = temp_file("real-check.pts", b"");
    for (name, path) in real_maps("check_reads_every_real_map") {
        let out = bspc(&[
            "check",
            path.to_str().expect("path"),
            "--json",
            "--pointfile",
            pts.to_str().expect("path"),
        ]);
        assert_eq!(out.status.code(), Some(0), "{name}");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        assert!(json["world_brushes"].as_u64().unwrap_or(0) > 0, "{name}");
    }
}

/// The statistics keys `compile --json` and `info --json` must hold (the contract);
/// `compile` also reports `seconds`, which a compiled file does not store.
const STAT_KEYS: [&str; 13] = [
    "brushes",
    "world_brushes",
    "patches",
    "patch_facets",
    "planes",
    "nodes",
    "leaves",
    "solid_leaves",
    "bevels",
    "max_depth",
    "submodels",
    "entities",
    "bytes",
];

#[test]
fn compile_then_info_report_the_same_statistics() {
    let out_path = temp_file("arena.pbsp", b"");
    let out = compile_to(&bundled("arena.map"), &out_path, &["--json"]);
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert_eq!(text.trim().lines().count(), 1, "exactly one JSON object");
    let compiled: serde_json::Value = serde_json::from_str(&text).expect("json");
    let file_len = std::fs::metadata(&out_path).expect("output written").len();
    assert_eq!(compiled["bytes"], file_len);
    assert_eq!(compiled["brushes"], 115);
    assert_eq!(compiled["submodels"], 2);
    let arena = std::fs::read(bundled("arena.map")).expect("map");
    let entities = planeshift::map::parse_map(&arena)
        .expect("parses")
        .entities
        .len();
    assert_eq!(compiled["entities"], entities);
    let info = bspc(&["info", out_path.to_str().expect("path"), "--json"]);
    assert_eq!(info.status.code(), Some(0));
    let info: serde_json::Value = serde_json::from_slice(&info.stdout).expect("json");
    for key in STAT_KEYS {
        assert!(
            compiled.get(key).is_some_and(|v| v.is_number()),
            "compile lacks {key}"
        );
        assert_eq!(info[key], compiled[key], "{key}");
    }
    assert!(compiled["seconds"].as_f64().is_some_and(|s| s >= 0.0));
    assert!(
        info.get("seconds").is_none(),
        "a compiled file holds no time"
    );
}

#[test]
fn compile_writes_beside_the_input_by_default_and_prints_timings() {
    let map = temp_file(
        "room.map",
        &std::fs::read(bundled("box_room.map")).expect("map"),
    );
    let out = bspc(&["compile", map.to_str().expect("path")]);
    assert_eq!(out.status.code(), Some(0));
    assert!(map.with_extension("pbsp").exists());
    let text = String::from_utf8_lossy(&out.stdout);
    for stage in ["parse", "brushes", "bevels", "tree", "pack"] {
        assert!(text.contains(stage), "timing for {stage} in {text}");
    }
}

#[test]
fn compile_and_info_errors_have_the_check_exit_statuses() {
    let bad = temp_file("bad2.map", b"{\n( 0 0 0 ) }\n");
    assert_eq!(
        bspc(&["compile", bad.to_str().expect("path")])
            .status
            .code(),
        Some(1)
    );
    // The current version, so that the garbage is reached.
    let version = u8::try_from(planeshift::level::FORMAT_VERSION).expect("one byte");
    let corrupt = temp_file(
        "corrupt.pbsp",
        &[b"PLNSHIFT".as_slice(), &[version], b"garbage"].concat(),
    );
    let out = bspc(&["info", corrupt.to_str().expect("path")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("corrupt compiled map"));
    assert_eq!(bspc(&["info", "/nonexistent.pbsp"]).status.code(), Some(2));
    assert_eq!(
        bspc(&["compile", "/nonexistent.map"]).status.code(),
        Some(2)
    );
}

/// Every real map through `bspc compile --json --pointfile`, one `bspc` per core at a time
/// (each map with its own output files), so the corpus takes a share of the test run's cores.
#[test]
fn compile_handles_every_real_map() {
    let maps = real_maps("compile_handles_every_real_map");
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..workers.min(maps.len()) {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((name, path)) = maps.get(index) else {
                        break;
                    };
                    let pts = temp_file(&format!("real-compile-{index}.pts"), b"");
                    let out_path = temp_file(&format!("real-{index}.pbsp"), b"");
                    let out = bspc(&[
                        "compile",
                        path.to_str().expect("path"),
                        "-o",
                        out_path.to_str().expect("path"),
                        "--json",
                        "--pointfile",
                        pts.to_str().expect("path"),
                    ]);
                    assert_eq!(out.status.code(), Some(0), "{name}");
                    let json: serde_json::Value =
                        serde_json::from_slice(&out.stdout).expect("json");
                    assert!(json["solid_leaves"].as_u64().unwrap_or(0) > 0, "{name}");
                }
            });
        }
    });
}

#[test]
fn trace_json_lines_follow_the_contract() {
    let queries = temp_file(
        "q.jsonl",
        br#"{"shape":{"kind":"point"},"start":[0,0,100],"end":[0,0,-100]}
{"shape":{"kind":"sphere","radius":16},"start":[0,0,100],"end":[0,0,-100]}
{"shape":{"kind":"box","mins":[-16,-16,-24],"maxs":[16,16,32]},"start":[0,0,100],"end":[400,0,100]}
{"shape":{"kind":"cylinder","radius":16,"half_height":28},"start":[0,0,100],"end":[0,0,100]}
{"shape":{"kind":"capsule","radius":16,"half_height":20},"start":[0,0,100],"end":[0,0,-100]}

{"shape":{"kind":"hull","points":[[0,0,0],[8,0,0],[0,8,0],[0,0,8]]},"start":[0,0,-8],"end":[0,0,-9]}
"#,
    );
    let (text, lines) = json_lines_of(&["trace", &bundled("box_room.map"), "--queries"], &queries);
    assert_eq!(lines.len(), 6, "one line per query, blank lines skipped");
    for line in &lines {
        let keys: Vec<&str> = line
            .as_object()
            .expect("object")
            .keys()
            .map(String::as_str)
            .collect();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        assert_eq!(
            sorted,
            [
                "all_solid",
                "body",
                "contents",
                "end",
                "fraction",
                "material",
                "normal",
                "start_solid",
                "surface"
            ]
        );
    }
    // The fields of the contract first, in their order; the hit's meaning after.
    for line in text.lines() {
        let at = |key: &str| line.find(&format!("\"{key}\":")).expect(key);
        let order = [
            "fraction",
            "end",
            "normal",
            "start_solid",
            "all_solid",
            "contents",
            "surface",
            "material",
            "body",
        ]
        .map(at);
        assert!(order.is_sorted(), "{line}");
    }
    // A hit names the brush's contents and the side's surface and material; a miss is null.
    assert_eq!(lines[0]["contents"], serde_json::json!(["solid"]));
    assert_eq!(lines[0]["surface"], serde_json::json!([]));
    assert_eq!(lines[0]["material"], "floor");
    assert_eq!(lines[2]["material"], "wall");
    for field in ["contents", "surface", "material"] {
        assert_eq!(lines[3][field], serde_json::Value::Null, "{field}");
    }
    // All-solid: the contents it is in, no side.
    assert_eq!(lines[5]["contents"], serde_json::json!(["solid"]));
    assert_eq!(lines[5]["material"], serde_json::Value::Null);
    // Point down onto the floor (top z = 0): stops one stop distance above it.
    assert!((lines[0]["end"][2].as_f64().expect("z") - 1.0 / 32.0).abs() < 1e-4);
    assert_eq!(lines[0]["normal"], serde_json::json!([0.0, 0.0, 1.0]));
    assert!((lines[1]["end"][2].as_f64().expect("z") - (16.0 + 1.0 / 32.0)).abs() < 1e-4);
    assert!((lines[2]["end"][0].as_f64().expect("x") - (240.0 - 1.0 / 32.0)).abs() < 1e-3);
    assert_eq!(lines[3]["fraction"], 1.0);
    assert_eq!(lines[3]["normal"], serde_json::Value::Null);
    assert!((lines[4]["end"][2].as_f64().expect("z") - (36.0 + 1.0 / 32.0)).abs() < 1e-4);
    assert_eq!(lines[5]["start_solid"], true);
    assert_eq!(lines[5]["all_solid"], true);
    // The same world compiled to .pbsp answers the same.
    let pbsp = temp_file("room.pbsp", b"");
    compile_to(&bundled("box_room.map"), &pbsp, &[]);
    let again = bspc(&[
        "trace",
        pbsp.to_str().expect("path"),
        "--queries",
        queries.to_str().expect("path"),
    ]);
    assert_eq!(String::from_utf8_lossy(&again.stdout), text);
}

/// The README's quick start prints the line the README shows.
#[test]
fn readme_quick_start_prints_what_the_readme_says() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).expect("README");
    let shown = readme
        .lines()
        .find_map(|l| l.strip_prefix('`')?.strip_suffix("`:"))
        .filter(|l| l.starts_with("{\"fraction\""))
        .expect("the README shows the quick start's output");
    let pbsp = temp_file("quick.pbsp", b"");
    compile_to(&bundled("arena.map"), &pbsp, &[]);
    let out = bspc_ok(&[
        "trace",
        pbsp.to_str().expect("path"),
        "--shape",
        "box:-16,-16,-24,16,16,32",
        "--from",
        "1024,768,32",
        "--to",
        "1300,768,32",
    ]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim_end(), shown);
    assert!(readme.contains(
        "trace arena.pbsp --shape box:-16,-16,-24,16,16,32 --from 1024,768,32 --to 1300,768,32"
    ));
}

#[test]
fn contents_json_lines_follow_the_contract() {
    let points = temp_file(
        "p.jsonl",
        br#"{"point":[256,1536,32]}
{"point":[1024,1024,64]}

{"point":[600,1500,32]}
{"point":[1024,1024,-8]}
{"point":[1e9,0,0]}
"#,
    );
    let (text, lines) = json_lines_of(&["contents", &bundled("arena.map"), "--points"], &points);
    let expected = [
        serde_json::json!({"contents": ["water"]}),
        serde_json::json!({"contents": []}),
        serde_json::json!({"contents": ["playerclip"]}),
        serde_json::json!({"contents": ["solid"]}),
        serde_json::json!({"contents": []}),
    ];
    assert_eq!(lines, expected, "one line per point, blank lines skipped");
    // Standard output without -o; a bad line names its line number.
    let out = bspc_ok(&[
        "contents",
        &bundled("arena.map"),
        "--points",
        points.to_str().expect("path"),
    ]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), text);
    let bad = temp_file("bad.jsonl", b"{\"point\":[0,0,0]}\n{\"point\":[0,0]}\n");
    let out = bspc(&[
        "contents",
        &bundled("arena.map"),
        "--points",
        bad.to_str().expect("path"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.jsonl:2:"));
}

#[test]
fn trace_single_query_and_errors() {
    let out = bspc(&[
        "trace",
        &bundled("box_room.map"),
        "--shape",
        "sphere:16",
        "--from",
        "0,0,100",
        "--to",
        "0,0,-100",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["normal"], serde_json::json!([0.0, 0.0, 1.0]));
    let bad_shape = bspc(&[
        "trace",
        &bundled("box_room.map"),
        "--shape",
        "cone:3",
        "--from",
        "0,0,0",
        "--to",
        "1,1,1",
    ]);
    assert_eq!(bad_shape.status.code(), Some(2));
    let bad_query = temp_file(
        "bad.jsonl",
        b"{\"shape\":{\"kind\":\"sphere\",\"radius\":-1},\"start\":[0,0,0],\"end\":[0,0,1]}\n",
    );
    let out = bspc(&[
        "trace",
        &bundled("box_room.map"),
        "--queries",
        bad_query.to_str().expect("path"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.jsonl:1: error"));
}

#[test]
fn trace_mask_names_who_is_blocked() {
    // maps/clip_corridor.map: monster clip at x 128..144, player clip at x -144..-128.
    let through = |mask: &str, to: &str| -> f64 {
        let out = bspc(&[
            "trace",
            &bundled("clip_corridor.map"),
            "--shape",
            "point",
            "--from",
            "0,0,64",
            "--to",
            to,
            "--mask",
            mask,
        ]);
        assert_eq!(out.status.code(), Some(0), "{mask}");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        json["fraction"].as_f64().expect("fraction")
    };
    assert!(through("player", "400,0,64") == 1.0);
    assert!(through("monster", "400,0,64") < 0.33);
    assert!(through("solid", "400,0,64") == 1.0);
    assert!(through("shot", "-400,0,64") == 1.0);
    assert!(through("player", "-400,0,64") < 0.33);
    assert!(through("solid,monsterclip", "400,0,64") < 0.33);
    let bad = bspc(&[
        "trace",
        &bundled("clip_corridor.map"),
        "--shape",
        "point",
        "--from",
        "0,0,64",
        "--to",
        "1,1,1",
        "--mask",
        "granite",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    let lines = temp_file(
        "masks.jsonl",
        b"{\"shape\":{\"kind\":\"point\"},\"start\":[0,0,64],\"end\":[400,0,64],\"mask\":[\"monster\"]}\n{\"shape\":{\"kind\":\"point\"},\"start\":[0,0,64],\"end\":[400,0,64],\"mask\":[\"solid\",\"playerclip\"]}\n",
    );
    let out = bspc(&[
        "trace",
        &bundled("clip_corridor.map"),
        "--queries",
        lines.to_str().expect("path"),
        "--mask",
        "shot",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let fractions: Vec<f64> = text
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("json");
            v["fraction"].as_f64().expect("fraction")
        })
        .collect();
    assert_eq!(fractions.len(), 2);
    assert!(
        fractions[0] < 0.33,
        "the line's monster mask wins over --mask shot"
    );
    assert_eq!(fractions[1], 1.0);
    let bad_line = temp_file(
        "bad_mask.jsonl",
        b"{\"shape\":{\"kind\":\"point\"},\"start\":[0,0,64],\"end\":[1,0,64],\"mask\":[\"granite\"]}\n",
    );
    let out = bspc(&[
        "trace",
        &bundled("clip_corridor.map"),
        "--queries",
        bad_line.to_str().expect("path"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad_mask.jsonl:1: error"));
}

#[test]
fn trace_bodies_names_the_character_hit() {
    // maps/box_room.map: interior x, y in -256..256, z 0..256. A player box at x = -100, a
    // corpse at x = 100, a capsule at y = 100, a sphere corpse at y = -100 above the floor.
    let player = r#"{"kind":"box","mins":[-15,-15,-24],"maxs":[15,15,32]}"#;
    let bodies = temp_file(
        "bodies.jsonl",
        format!(
            "{{\"id\":1,\"shape\":{player},\"at\":[-100,0,25],\"contents\":[\"body\"]}}\n\
             {{\"id\":2,\"shape\":{player},\"at\":[100,0,25],\"contents\":[\"corpse\"]}}\n\
             \n\
             {{\"id\":7,\"shape\":{{\"kind\":\"capsule\",\"radius\":16,\"half_height\":20}},\"at\":[0,100,40],\"contents\":[\"body\"]}}\n"
        )
        .as_bytes(),
    );
    let queries = temp_file(
        "body_queries.jsonl",
        br#"{"shape":{"kind":"point"},"start":[0,0,50],"end":[1000,0,50],"mask":["shot"]}
{"shape":{"kind":"point"},"start":[0,0,50],"end":[1000,0,50],"mask":["player"]}
{"shape":{"kind":"point"},"start":[0,0,50],"end":[-1000,0,50]}
{"shape":{"kind":"sphere","radius":4},"start":[0,0,40],"end":[0,1000,40],"mask":["player"]}
{"shape":{"kind":"point"},"start":[0,0,50],"end":[0,-10,50]}
{"shape":{"kind":"point"},"start":[0,0,50],"end":[0,0,-100]}
"#,
    );
    // Results to files of this test's own (other tests write `trace.out.jsonl` at once).
    let results = |extra: &[&str], name: &str| -> Vec<serde_json::Value> {
        let out = temp_file(name, b"");
        let mut args = vec!["trace", &bundled("box_room.map")]
            .into_iter()
            .map(str::to_owned)
            .collect::<Vec<_>>();
        args.extend(extra.iter().map(|a| (*a).to_owned()));
        args.extend([
            "--queries".to_owned(),
            queries.to_str().expect("path").to_owned(),
            "-o".to_owned(),
            out.to_str().expect("path").to_owned(),
        ]);
        bspc_ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
        std::fs::read_to_string(&out)
            .expect("results")
            .lines()
            .map(|l| serde_json::from_str(l).expect("json line"))
            .collect()
    };
    let lines = results(
        &["--mask", "shot", "--bodies", bodies.to_str().expect("path")],
        "bodies.out.jsonl",
    );
    assert_eq!(lines.len(), 6);
    let x = |k: usize| lines[k]["end"][0].as_f64().expect("x");
    let y = |k: usize| lines[k]["end"][1].as_f64().expect("y");
    let skin = 1.0 / 32.0;
    // A shot meets the corpse's box face at x = 85; the character's contents are named.
    assert_eq!(lines[0]["body"], 2);
    assert!((x(0) - (85.0 - skin)).abs() < 1e-3, "{}", lines[0]);
    assert_eq!(lines[0]["contents"], serde_json::json!(["corpse"]));
    // A player's mask passes the corpse: the wall at x = 256.
    assert_eq!(lines[1]["body"], serde_json::Value::Null);
    assert!((x(1) - (256.0 - skin)).abs() < 1e-3, "{}", lines[1]);
    assert_eq!(lines[1]["contents"], serde_json::json!(["solid"]));
    // --mask shot by default: the living player at x = -85.
    assert_eq!(lines[2]["body"], 1);
    assert!((x(2) + 85.0 - skin).abs() < 1e-3, "{}", lines[2]);
    // A sphere of 4 against the capsule of radius 16 (its round side at y = 84).
    assert_eq!(lines[3]["body"], 7);
    assert!(
        (y(3) - (100.0 - 16.0 - 4.0 - skin)).abs() < 1e-3,
        "{}",
        lines[3]
    );
    // A miss and a world hit: null.
    assert_eq!(lines[4]["fraction"], 1.0);
    assert_eq!(lines[4]["body"], serde_json::Value::Null);
    assert_eq!(lines[5]["body"], serde_json::Value::Null);
    assert_eq!(lines[5]["material"], "floor");
    // The same queries without --bodies: no character, every line's body null.
    let alone = results(&["--mask", "shot"], "alone.out.jsonl");
    assert_eq!(alone.len(), 6);
    assert!(alone.iter().all(|l| l["body"].is_null()));
    assert!((alone[0]["end"][0].as_f64().expect("x") - (256.0 - skin)).abs() < 1e-3);
    // Bad body lines: an error naming the file and the line (line 2; line 1 is good).
    let good = format!("{{\"id\":1,\"shape\":{player},\"at\":[0,0,25],\"contents\":[\"body\"]}}");
    for bad in [
        format!(
            "{{\"id\":2,\"shape\":{player},\"at\":[0,0,25],\"contents\":[\"body\"],\"team\":1}}"
        ),
        format!("{{\"id\":1,\"shape\":{player},\"at\":[0,0,25],\"contents\":[\"body\"]}}"),
        format!("{{\"id\":2,\"shape\":{player},\"at\":[0,0,25],\"contents\":[\"granite\"]}}"),
        format!("{{\"id\":2,\"shape\":{player},\"at\":[0,0,25],\"contents\":[]}}"),
        format!("{{\"id\":2,\"shape\":{player},\"at\":[0,0],\"contents\":[\"body\"]}}"),
        format!("{{\"id\":-2,\"shape\":{player},\"at\":[0,0,25],\"contents\":[\"body\"]}}"),
        r#"{"id":2,"shape":{"kind":"sphere","radius":-1},"at":[0,0,25],"contents":["body"]}"#
            .to_owned(),
        format!("{{\"id\":2,\"shape\":{player},\"contents\":[\"body\"]}}"),
    ] {
        let file = temp_file("bad_bodies.jsonl", format!("{good}\n{bad}\n").as_bytes());
        let out = bspc(&[
            "trace",
            &bundled("box_room.map"),
            "--bodies",
            file.to_str().expect("path"),
            "--queries",
            queries.to_str().expect("path"),
        ]);
        assert_eq!(out.status.code(), Some(1), "{bad}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("bad_bodies.jsonl:2: error"),
            "{bad}: {stderr}"
        );
    }
}

#[test]
fn bench_prints_one_line_per_kind_and_all() {
    let queries = temp_file(
        "bench.jsonl",
        br#"{"shape":{"kind":"point"},"start":[0,0,100],"end":[0,0,-100]}
{"shape":{"kind":"sphere","radius":16},"start":[0,0,100],"end":[0,0,-100]}
{"shape":{"kind":"box","mins":[-16,-16,-24],"maxs":[16,16,32]},"start":[0,0,100],"end":[400,0,100]}
"#,
    );
    let out = bspc_ok(&[
        "bench",
        &bundled("box_room.map"),
        "--queries",
        queries.to_str().expect("path"),
        "--reps",
        "3",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    let kinds: Vec<&str> = text
        .lines()
        .map(|l| l.split(' ').next().unwrap_or(""))
        .collect();
    assert_eq!(kinds, ["point", "sphere", "box", "all"]);
    for line in text.lines() {
        let parts: Vec<&str> = line.split(' ').collect();
        assert_eq!(parts[1], "ns_per_query", "{line}");
        let value = |key: &str, part: &str| -> f64 {
            part.strip_prefix(key)
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{key} in {line}"))
        };
        let (median, min, max) = (
            value("median=", parts[2]),
            value("min=", parts[3]),
            value("max=", parts[4]),
        );
        assert!(min <= median && median <= max && min > 0.0, "{line}");
    }
}

#[test]
fn bench_on_two_threads_prints_the_same_lines_and_zero_threads_is_a_usage_error() {
    let queries = temp_file(
        "bench_threads.jsonl",
        br#"{"shape":{"kind":"point"},"start":[0,0,100],"end":[0,0,-100]}
{"shape":{"kind":"capsule","radius":16,"half_height":20},"start":[0,0,100],"end":[400,0,100]}
{"shape":{"kind":"capsule","radius":16,"half_height":20},"start":[0,0,100],"end":[0,0,-400]}
"#,
    );
    let path = queries.to_str().expect("path");
    let map = bundled("box_room.map");
    let args = ["bench", &map, "--queries", path, "--reps", "2", "--threads"];
    let kinds = |out: &Output| -> Vec<String> {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| l.split(' ').take(2).collect::<Vec<_>>().join(" "))
            .collect()
    };
    let one = bspc_ok(&[&args[..], &["1"]].concat());
    let two = bspc_ok(&[&args[..], &["2"]].concat());
    assert_eq!(
        kinds(&one),
        [
            "point ns_per_query",
            "capsule ns_per_query",
            "all ns_per_query"
        ]
    );
    assert_eq!(kinds(&one), kinds(&two));
    let zero = bspc(&[&args[..], &["0"]].concat());
    assert_eq!(zero.status.code(), Some(2));
}

/// A Quake 3 map of one box textured `common/pool`, a name no built-in defines.
fn pool_map() -> PathBuf {
    let (lo, hi) = (-64, 64);
    let (z0, z1) = (-16, 0);
    let faces = format!(
        "( {lo} {lo} {z0} ) ( {lo} {hi} {z0} ) ( {lo} {lo} {z1} ) common/pool 0 0 0 1 1\n\
         ( {hi} {lo} {z0} ) ( {hi} {lo} {z1} ) ( {hi} {hi} {z0} ) common/pool 0 0 0 1 1\n\
         ( {lo} {lo} {z0} ) ( {lo} {lo} {z1} ) ( {hi} {lo} {z0} ) common/pool 0 0 0 1 1\n\
         ( {lo} {hi} {z0} ) ( {hi} {hi} {z0} ) ( {lo} {hi} {z1} ) common/pool 0 0 0 1 1\n\
         ( {lo} {lo} {z0} ) ( {hi} {lo} {z0} ) ( {lo} {hi} {z0} ) common/pool 0 0 0 1 1\n\
         ( {lo} {lo} {z1} ) ( {lo} {hi} {z1} ) ( {hi} {lo} {z1} ) common/pool 0 0 0 1 1\n"
    );
    temp_file(
        "pool.map",
        format!("{{\n\"classname\" \"worldspawn\"\n{{\n{faces}}}\n}}\n").as_bytes(),
    )
}

#[test]
fn shaders_give_quake3_maps_their_contents() {
    let map = pool_map();
    let map = map.to_str().expect("path");
    let script = temp_file(
        "pool.shader",
        b"textures/common/pool\n{\nsurfaceparm water\n}\n",
    );
    let scripts = script.parent().expect("folder").to_str().expect("path");
    let drop = |extra: &[&str]| {
        let mut args = vec![
            "trace", map, "--shape", "point", "--from", "0,0,100", "--to", "0,0,-100",
        ];
        args.extend_from_slice(extra);
        let out = bspc_ok(&args);
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        json["fraction"].as_f64().expect("fraction")
    };
    // Without the script the undefined shader is `default`, solid; with it, water.
    assert!(drop(&[]) < 1.0);
    assert_eq!(drop(&["--shaders", scripts]), 1.0);
    let out = bspc(&["compile", map, "--shaders", "/nonexistent/scripts"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("shaders in /nonexistent/scripts"));
}

#[test]
fn game_forces_the_brush_rules() {
    let faces: String = [
        "( -64 -64 -64 ) ( -64 64 -64 ) ( -64 -64 64 )",
        "( 64 -64 -64 ) ( 64 -64 64 ) ( 64 64 -64 )",
        "( -64 -64 -64 ) ( -64 -64 64 ) ( 64 -64 -64 )",
        "( -64 64 -64 ) ( 64 64 -64 ) ( -64 64 64 )",
        "( -64 -64 -64 ) ( 64 -64 -64 ) ( -64 64 -64 )",
        "( -64 -64 64 ) ( -64 64 64 ) ( 64 -64 64 )",
    ]
    .iter()
    .map(|points| format!("{points} !cur_0 0 0 0 1 1\n"))
    .collect();
    let map = temp_file(
        "current.map",
        format!("{{\n\"classname\" \"worldspawn\"\n{{\n{faces}}}\n}}\n").as_bytes(),
    );
    let map = map.to_str().expect("path");
    let drop = |extra: &[&str]| {
        let mut args = vec![
            "trace", map, "--shape", "point", "--from", "0,0,100", "--to", "0,0,-100",
        ];
        args.extend_from_slice(extra);
        let out = bspc_ok(&args);
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        json["fraction"].as_f64().expect("fraction")
    };
    // Detected as Half-Life (a `!` texture): a current, water, which a sweep passes.
    assert_eq!(drop(&[]), 1.0);
    assert_eq!(drop(&["--game", "halflife"]), 1.0);
    // Quake and Quake 2 read `!cur_0` as an ordinary wall.
    assert!(drop(&["--game", "quake"]) < 1.0);
    assert!(drop(&["--game", "quake2"]) < 1.0);
    let out = bspc_ok(&["compile", map, "--game", "Quake", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["world_brushes"], 1, "{json}");
    let out = bspc(&["compile", map, "--game", "doom"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "unknown game `doom` (expected quake, quake2, quake3, halflife, or a custom game's FILE.toml)"
        ),
        "{stderr}"
    );
}

#[test]
fn a_custom_game_file_gives_its_rules() {
    let map = bundled("custom_game.map");
    let game = bundled("custom_game.toml");
    let out_path = temp_file("blockworld.pbsp", b"");
    let out_path = out_path.to_str().expect("path");
    let out = bspc_ok(&["compile", &map, "--game", &game, "-o", out_path, "--json"]);
    let compiled: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(compiled["game"], "blockworld", "{compiled}");
    let info = bspc_ok(&["info", out_path, "--json"]);
    let info: serde_json::Value = serde_json::from_slice(&info.stdout).expect("json");
    assert_eq!(info["game"], "blockworld", "{info}");
    let out = bspc_ok(&["compile", &map, "--game", "quake", "-o", out_path, "--json"]);
    let compiled: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(compiled["game"], "quake", "{compiled}");

    // A shot into the glass pane: a translucent window with the pattern's flag, or a wall.
    let shot = |game: &str| {
        let out = bspc_ok(&[
            "trace",
            &map,
            "--game",
            game,
            "--shape",
            "point",
            "--from",
            "224,128,64",
            "--to",
            "300,128,64",
        ]);
        serde_json::from_slice::<serde_json::Value>(&out.stdout).expect("json")
    };
    let glass = shot(&game);
    assert_eq!(
        glass["contents"],
        serde_json::json!(["window", "translucent"])
    );
    assert_eq!(glass["surface"], serde_json::json!(["trans33"]));
    assert_eq!(glass["material"], "bw/glass_clear");
    assert_eq!(shot("quake")["contents"], serde_json::json!(["solid"]));

    let points = temp_file("blockworld.jsonl", b"{\"point\":[128,128,16]}\n");
    let contents = |game: &str| {
        let out = bspc_ok(&[
            "contents",
            &map,
            "--game",
            game,
            "--points",
            points.to_str().expect("path"),
        ]);
        String::from_utf8(out.stdout).expect("utf-8")
    };
    assert_eq!(contents(&game), "{\"contents\":[\"lava\"]}\n");
    assert_eq!(contents("quake"), "{\"contents\":[\"solid\"]}\n");
}

#[test]
fn bad_custom_game_files_name_themselves() {
    let map = bundled("custom_game.map");
    let run = |game: &str| {
        let out = bspc(&["compile", &map, "--game", game, "-o", "/dev/null"]);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        (out.status.code(), stderr)
    };
    // Unreadable: an I/O error, 2.
    let (code, stderr) = run("/nonexistent/blockworld.toml");
    assert_eq!(code, Some(2));
    assert!(
        stderr.starts_with("/nonexistent/blockworld.toml: error: "),
        "{stderr}"
    );
    // A wrong rule: 1, naming the file and the rule.
    let wrong = temp_file(
        "wrong_rule.toml",
        b"name = \"blockworld\"\n[[textures]]\npattern = \"lava_*\"\ncontents = [\"magma\"]\n",
    );
    let wrong = wrong.to_str().expect("path");
    let (code, stderr) = run(wrong);
    assert_eq!(code, Some(1));
    assert!(
        stderr.starts_with(&format!(
            "{wrong}: error: custom game: textures[0] (pattern \"lava_*\"): contents: unknown name \"magma\""
        )),
        "{stderr}"
    );
    // Malformed TOML: 1, with the line and column.
    let syntax = temp_file(
        "bad_syntax.toml",
        b"name = \"blockworld\"\n[[entities]]\npattern = \"zone_*\"\nclass = \"door\"\n",
    );
    let syntax = syntax.to_str().expect("path");
    let (code, stderr) = run(syntax);
    assert_eq!(code, Some(1));
    assert!(
        stderr.starts_with(&format!("{syntax}:4:9: error: unknown variant `door`")),
        "{stderr}"
    );
}

/// The triples of numbers in a pointfile, as TrenchBroom's `PointTrace.cpp` reads it.
fn pointfile_points(path: &std::path::Path) -> Vec<[f32; 3]> {
    let text = std::fs::read_to_string(path).expect("pointfile");
    let numbers: Vec<f32> = text
        .split_whitespace()
        .map(|w| w.parse().expect("a number"))
        .collect();
    assert_eq!(numbers.len() % 3, 0, "{text}");
    numbers
        .chunks_exact(3)
        .map(|c| [c[0], c[1], c[2]])
        .collect()
}

#[test]
fn check_reports_a_leak_and_writes_its_pointfile() {
    let map = temp_file(
        "leaky.map",
        &std::fs::read(bundled("leak_room.map")).expect("map"),
    );
    let map_arg = map.to_str().expect("path");
    let pts = map.with_extension("pts");
    let human = bspc_ok(&["check", map_arg]);
    let stderr = String::from_utf8_lossy(&human.stderr);
    assert!(
        stderr.contains(&format!(
            "{map_arg}: warning: leak: entity 1 (info_player_start) at (0 0 24) reaches the void; pointfile {}",
            pts.display()
        )),
        "{stderr}"
    );
    let points = pointfile_points(&pts);
    assert!(
        points.len() >= 2 && points[0] == [0.0, 0.0, 25.0],
        "{points:?}"
    );
    std::fs::remove_file(&pts).expect("remove");
    let out = bspc_ok(&["check", map_arg, "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let leak = &json["leak"];
    assert_eq!(leak["entity"], 1);
    assert_eq!(leak["classname"], "info_player_start");
    assert_eq!(leak["origin"], serde_json::json!([0.0, 0.0, 24.0]));
    assert_eq!(leak["pointfile"], pts.display().to_string());
    assert_eq!(leak["points"], pointfile_points(&pts).len());
    // `--pointfile` puts it elsewhere.
    let elsewhere = map.with_file_name("elsewhere.pts");
    let out = bspc_ok(&[
        "check",
        map_arg,
        "--json",
        "--pointfile",
        elsewhere.to_str().expect("path"),
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["leak"]["pointfile"], elsewhere.display().to_string());
    assert_eq!(
        pointfile_points(&elsewhere).len(),
        pointfile_points(&pts).len()
    );
    // Sealed now: no leak, and the stale pointfile is gone.
    std::fs::copy(bundled("box_room.map"), &map).expect("copy");
    let out = bspc_ok(&["check", map_arg, "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["leak"], serde_json::Value::Null);
    assert!(!pts.exists());
    assert!(!String::from_utf8_lossy(&out.stderr).contains("leak"));
}

#[test]
fn compile_reports_a_leak_and_still_compiles() {
    let map = temp_file(
        "leaky2.map",
        &std::fs::read(bundled("leak_room.map")).expect("map"),
    );
    let out_path = map.with_file_name("leaky2-out.pbsp");
    let out = compile_to(
        map.to_str().expect("path"),
        &out_path,
        &["--json", "--fill-outside"],
    );
    assert!(out_path.exists());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let pts = map.with_extension("pts");
    assert_eq!(json["leak"]["entity"], 1);
    assert_eq!(json["leak"]["pointfile"], pts.display().to_string());
    assert!(pointfile_points(&pts).len() >= 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("warning: leak: entity 1"));
}

#[test]
fn fill_outside_makes_the_void_solid() {
    let map = temp_file(
        "sealed.map",
        &std::fs::read(bundled("box_room.map")).expect("map"),
    );
    let map_arg = map.to_str().expect("path");
    // From a point 12 units beyond the -x wall's outer face, along it.
    let start_solid = |world: &PathBuf| {
        let out = bspc_ok(&[
            "trace",
            world.to_str().expect("path"),
            "--shape",
            "point",
            "--from",
            "-284,0,100",
            "--to",
            "-284,0,200",
        ]);
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        json["start_solid"].as_bool().expect("start_solid")
    };
    let plain = map.with_file_name("sealed-plain.pbsp");
    let out = compile_to(map_arg, &plain, &["--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["leak"], serde_json::Value::Null);
    assert!(!start_solid(&plain));
    let filled = map.with_file_name("sealed-filled.pbsp");
    compile_to(map_arg, &filled, &["--fill-outside"]);
    assert!(start_solid(&filled));
    assert!(!map.with_extension("pts").exists());
}

/// Every shared compiled `.bsp`, with the `"format"` `check --json` must report for it by
/// its header (`bsp-formats`: BSP29 version 29, BSP2 `BSP2`, 2PSB `2PSB`, Half-Life version
/// 30, Quake 2 `IBSP` 38, Qbism `QBSP` 38, Quake 3 `IBSP` 46).
fn real_bsps() -> Vec<(String, PathBuf, &'static str)> {
    let Some(dir) = real_maps_dir("real_bsps") else {
        return Vec::new();
    };
    files_in(&dir, "bsp")
        .into_iter()
        .map(|(name, path)| {
            let bytes = std::fs::read(&path).expect("read");
            let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4"));
            let format = match (&bytes[..4], word(4)) {
                (b"BSP2", _) => "bsp2",
                (b"2PSB", _) => "2psb",
                (b"IBSP", 38) => "ibsp38",
                (b"QBSP", 38) => "qbsp38",
                (b"IBSP", 46) => "ibsp46",
                _ if word(0) == 29 => "bsp29",
                _ if word(0) == 30 => "hl30",
                _ => panic!("{name}: unknown header"),
            };
            (name, path, format)
        })
        .collect()
}

#[test]
fn check_reads_every_shared_bsp_and_names_its_format() {
    let pts = temp_file("real-bsp-check.pts", b"");
    let bsps = real_bsps();
    let mut seen = std::collections::BTreeSet::new();
    for (name, path, format) in &bsps {
        let out = bspc_ok(&[
            "check",
            path.to_str().expect("path"),
            "--json",
            "--pointfile",
            pts.to_str().expect("path"),
        ]);
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        assert_eq!(json["format"], *format, "{name}");
        assert!(json["world_brushes"].as_u64().unwrap_or(0) > 0, "{name}");
        assert!(json["entities"].as_u64().unwrap_or(0) > 0, "{name}");
        let game = match *format {
            "bsp29" | "bsp2" | "2psb" => "quake",
            "hl30" => "halflife",
            "ibsp38" | "qbsp38" => "quake2",
            _ => "quake3",
        };
        assert_eq!(json["game"], game, "{name}");
        seen.insert(*format);
    }
    println!("check: {} shared .bsp files, formats {seen:?}", bsps.len());
    // A bundled map says `map`, also in the human report.
    let human = bspc_ok(&["check", &bundled("q2_tool_defaults.map")]);
    let text = String::from_utf8(human.stdout).expect("utf-8");
    assert!(text.contains(": map, 6 entities"), "{text}");
    // A truncated .bsp exits 1 naming a lump.
    if let Some((_, path, _)) = bsps.first() {
        let bytes = std::fs::read(path).expect("read");
        let cut = temp_file("truncated.bsp", &bytes[..bytes.len() / 3]);
        let out = bspc(&["check", cut.to_str().expect("path")]);
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8_lossy(&out.stderr).to_lowercase();
        assert!(err.contains("truncated.bsp: error:"), "{err}");
    }
}

#[test]
fn info_contents_and_bench_take_a_bsp_as_they_take_a_map() {
    let Some(dir) = real_maps_dir("info_contents_and_bench_take_a_bsp") else {
        return;
    };
    let queries = temp_file(
        "bsp-bench.jsonl",
        br#"{"shape":{"kind":"point"},"start":[0,0,0],"end":[64,0,0]}
{"shape":{"kind":"box","mins":[-16,-16,-24],"maxs":[16,16,32]},"start":[0,0,0],"end":[0,64,0]}
"#,
    );
    let points = temp_file(
        "bsp-points.jsonl",
        b"{\"point\":[0,0,0]}\n{\"point\":[1e5,0,0]}\n",
    );
    let worlds = [
        dir.join("qbsp/example-quake2.bsp"),
        dir.join("id-quake-1996/dm4.bsp"),
        repo_root().join("maps/q2_tool_defaults.map"),
    ];
    for world in &worlds {
        let world = world.to_str().expect("path");
        let info = bspc_ok(&["info", world, "--json"]);
        let stats: serde_json::Value = serde_json::from_slice(&info.stdout).expect("json");
        for key in STAT_KEYS {
            assert!(stats.get(key).is_some(), "{world}: {key}");
        }
        assert!(stats["world_brushes"].as_u64().unwrap_or(0) > 0, "{world}");
        let (_, lines) = json_lines_of(
            &["contents", "--points", points.to_str().expect("p")],
            Path::new(world),
        );
        assert_eq!(lines.len(), 2, "{world}");
        let bench = bspc_ok(&[
            "bench",
            world,
            "--queries",
            queries.to_str().expect("q"),
            "--reps",
            "1",
        ]);
        assert!(!bench.stdout.is_empty(), "{world}");
        // `info` of a source reports what `compile` of it reports.
        let pbsp = temp_file("info-vs-compile.pbsp", b"");
        let compiled = compile_to(world, &pbsp, &["--json"]);
        let compiled: serde_json::Value = serde_json::from_slice(&compiled.stdout).expect("json");
        for key in STAT_KEYS {
            assert_eq!(stats[key], compiled[key], "{world}: {key}");
        }
    }
}

#[test]
fn textures_give_bare_quake2_faces_their_wal_defaults() {
    let map = bundled("q2_tool_defaults.map");
    let contents_of = |extra: &[&str]| -> serde_json::Value {
        let mut args = vec!["check", map.as_str(), "--json"];
        args.extend_from_slice(extra);
        let out = bspc_ok(&args);
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        json["contents"].clone()
    };
    // Built-in defaults: the hint and skip brushes are empty, so no window.
    let builtin = contents_of(&[]);
    assert_eq!(builtin["window"], serde_json::Value::Null, "{builtin}");
    assert_eq!(builtin["trigger"], 1, "{builtin}");
    assert_eq!(builtin["water"], 1, "{builtin}");
    // A `.wal` for e1u1/hint saying CONTENTS_WINDOW (0x2) wins over the built-in hint.
    let root = std::env::temp_dir().join(format!("bspc-q2wal-{}", std::process::id()));
    let folder = root.join("e1u1");
    std::fs::create_dir_all(&folder).expect("mkdir");
    let mut wal = vec![0u8; 100];
    wal[92..96].copy_from_slice(&2u32.to_le_bytes());
    std::fs::write(folder.join("hint.wal"), &wal).expect("write");
    let root_arg = root.to_str().expect("path").to_owned();
    let with_wal = contents_of(&["--textures", &root_arg]);
    assert_eq!(with_wal["window"], 1, "{with_wal}");
    // An unreadable folder is an error.
    let out = bspc(&["check", &map, "--textures", "/nonexistent/textures"]);
    assert_ne!(out.status.code(), Some(0));
    let _ = std::fs::remove_dir_all(&root);
}

/// `bspc compile` takes every shared mesh (`.obj`, `.glb`) by its extension, writes a world
/// that `bspc info` reads back, and names a malformed mesh on exit status 1.
#[test]
fn compile_takes_meshes_by_extension() {
    let Some(dir) = real_maps_dir("compile_takes_meshes_by_extension") else {
        return;
    };
    let mut meshes = files_in(&dir.join("meshes"), "obj");
    meshes.extend(files_in(&dir.join("meshes"), "glb"));
    assert!(!meshes.is_empty());
    for (name, path) in &meshes {
        let out = std::env::temp_dir().join(format!("bspc-mesh-{}.pbsp", name.replace('/', "_")));
        let compiled = bspc_ok(&[
            "compile",
            path.to_str().expect("path"),
            "-o",
            out.to_str().expect("path"),
            "--json",
        ]);
        let json: serde_json::Value = serde_json::from_slice(&compiled.stdout).expect("json");
        assert!(
            json["world_brushes"].as_u64().unwrap_or(0) > 100,
            "{name}: {json}"
        );
        let info = bspc_ok(&["info", out.to_str().expect("path"), "--json"]);
        let back: serde_json::Value = serde_json::from_slice(&info.stdout).expect("json");
        assert_eq!(back["world_brushes"], json["world_brushes"], "{name}");
    }
    let bad = temp_file("bad.obj", b"v 0 0 0\nf 1 2 3\n");
    let out = bspc(&["compile", bad.to_str().expect("path")]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bad.obj: error: OBJ:"), "{stderr}");
}

/// `--mesh-up` and `--mesh-scale` read a mesh drawn Y up in metres as the same level drawn
/// Z up in map units: a tetrahedron (256 units along each axis from the origin, wound
/// counter-clockwise from outside) written both ways gives the same contents at points
/// inside, outside and under it and the same sweep's stop through `bspc contents` and
/// `bspc trace`, and the same brushes through `bspc compile --json`; without the flags the
/// Y-up file is another, smaller level; a bad value is a usage error.
#[test]
fn mesh_up_and_scale_read_a_y_up_file_in_metres() {
    let corners = [
        [0.0, 0.0, 0.0],
        [256.0, 0.0, 0.0],
        [0.0, 256.0, 0.0],
        [0.0, 0.0, 256.0],
    ];
    let faces = "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
    let obj = |map: &dyn Fn([f64; 3]) -> [f64; 3]| {
        let mut text = String::new();
        for c in corners {
            let [x, y, z] = map(c);
            text.push_str(&format!("v {x} {y} {z}\n"));
        }
        text + faces
    };
    let z_up = temp_file("tetra_z.obj", obj(&|c| c).as_bytes());
    // Map (x, y, z) is file (x, z, −y) for `--mesh-up y`, in metres of 32 units.
    let y_up = temp_file(
        "tetra_y.obj",
        obj(&|[x, y, z]| [x / 32.0, z / 32.0, -y / 32.0]).as_bytes(),
    );
    let points = temp_file(
        "tetra_points.jsonl",
        b"{\"point\":[16,16,16]}\n{\"point\":[200,200,200]}\n{\"point\":[16,16,-16]}\n{\"point\":[16,-16,16]}\n",
    );
    let flags = ["--mesh-up", "y", "--mesh-scale", "32"];
    let run = |command: &[&str], file: &Path, extra: &[&str]| {
        let mut args = command.to_vec();
        args.push(file.to_str().expect("path"));
        args.extend_from_slice(extra);
        String::from_utf8_lossy(&bspc_ok(&args).stdout).into_owned()
    };
    let points_arg = ["contents", "--points", points.to_str().expect("path")];
    let expected = run(&points_arg, &z_up, &[]);
    assert_eq!(
        expected.lines().collect::<Vec<_>>(),
        [
            r#"{"contents":["solid"]}"#,
            r#"{"contents":[]}"#,
            r#"{"contents":[]}"#,
            r#"{"contents":[]}"#
        ]
    );
    assert_eq!(run(&points_arg, &y_up, &flags), expected);
    assert_ne!(
        run(&points_arg, &y_up, &[]),
        expected,
        "the flags changed nothing"
    );
    let sweep = [
        "trace",
        "--shape",
        "point",
        "--from",
        "16,16,300",
        "--to",
        "16,16,-50",
    ];
    let stop = run(&sweep, &z_up, &[]);
    assert!(stop.contains("\"fraction\":"), "{stop}");
    assert_eq!(run(&sweep, &y_up, &flags), stop);
    let compiled = |file: &Path, extra: &[&str]| {
        let out = file.with_extension("pbsp");
        let mut args = vec!["compile", file.to_str().expect("path"), "-o"];
        args.push(out.to_str().expect("path"));
        args.push("--json");
        args.extend_from_slice(extra);
        let json: serde_json::Value = serde_json::from_slice(&bspc_ok(&args).stdout).expect("json");
        json["world_brushes"].clone()
    };
    assert_eq!(compiled(&y_up, &flags), compiled(&z_up, &[]));
    for bad in [
        ["--mesh-up", "x"],
        ["--mesh-scale", "0"],
        ["--mesh-scale", "nan"],
    ] {
        let mut args = vec!["compile", y_up.to_str().expect("path")];
        args.extend_from_slice(&bad);
        assert_eq!(bspc(&args).status.code(), Some(2), "{bad:?}");
    }
    // The flags on a mesh say nothing more; on a `.map` they are ignored, and said to be.
    let ignored = "--mesh-up and --mesh-scale apply to meshes";
    let mesh_out = temp_file("tetra_y_quiet.pbsp", b"");
    let mut args = vec!["compile", y_up.to_str().expect("path"), "-o"];
    args.push(mesh_out.to_str().expect("path"));
    args.extend_from_slice(&flags);
    let quiet = String::from_utf8_lossy(&bspc_ok(&args).stderr).into_owned();
    assert!(!quiet.contains(ignored), "{quiet}");
    let map = PathBuf::from(bundled("box_room.map"));
    let (plain, flagged) = (
        temp_file("room_plain.pbsp", b""),
        temp_file("room_flagged.pbsp", b""),
    );
    let compile_map = |out: &Path, extra: &[&str]| {
        let mut args = vec!["compile", map.to_str().expect("path"), "-o"];
        args.push(out.to_str().expect("path"));
        args.extend_from_slice(extra);
        String::from_utf8_lossy(&bspc_ok(&args).stderr).into_owned()
    };
    assert!(!compile_map(&plain, &[]).contains(ignored));
    let warned = compile_map(&flagged, &flags);
    assert!(
        warned.contains(ignored) && warned.contains("box_room.map: warning"),
        "{warned}"
    );
    assert_eq!(
        std::fs::read(&plain).expect("plain"),
        std::fs::read(&flagged).expect("flagged"),
        "the flags changed a map's world"
    );
}

/// `bspc check` takes a mesh as `compile` does (by its extension): the bundled mesh room's
/// brush stage, counted in the check's contract fields, its notes as diagnostics, no leak;
/// the same mesh written Y up in metres checks the same with the mesh flags.
#[test]
fn check_takes_a_mesh_by_its_extension() {
    let room = bundled("mesh_room.obj");
    let json = |args: &[&str]| -> serde_json::Value {
        serde_json::from_slice(&bspc_ok(args).stdout).expect("one JSON object")
    };
    let found = json(&["check", &room, "--json"]);
    assert_eq!(found["format"], "obj");
    assert_eq!(found["entities"], 1);
    assert_eq!(found["faces"], 200);
    assert_eq!(found["patches"], 0);
    assert_eq!(found["contents"]["water"], 1, "{found}");
    assert!(
        found["world_brushes"].as_u64().is_some_and(|n| n >= 1),
        "{found}"
    );
    assert!(found["leak"].is_null());
    let notes = found["diagnostics"].to_string();
    assert!(notes.contains("open surfaces"), "{notes}");
    let text = std::fs::read_to_string(&room).expect("the mesh room");
    let y_up = planeshift_testkit::obj_text::obj_y_up_scaled(&text, 32.0);
    let file = temp_file("mesh_room_y_up.obj", y_up.as_bytes());
    let path = file.to_str().expect("path");
    let flagged = json(&[
        "check",
        path,
        "--json",
        "--mesh-up",
        "y",
        "--mesh-scale",
        "32",
    ]);
    for field in [
        "world_brushes",
        "brushes",
        "faces",
        "contents",
        "diagnostics",
    ] {
        assert_eq!(flagged[field], found[field], "{field}");
    }
    assert_ne!(
        json(&["check", path, "--json"])["contents"],
        found["contents"]
    );
}

/// A mesh read at a scale that drops every triangle is an error that gives the counts and
/// asks about the scale (exit 1), not "no triangles".
#[test]
fn a_mesh_at_the_wrong_scale_asks_about_the_scale() {
    let tetra = temp_file(
        "tetra_scale.obj",
        b"v 0 0 0\nv 256 0 0\nv 0 256 0\nv 0 0 256\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n",
    );
    for (scale, asks) in [("1e9", "too large"), ("1e-9", "too small")] {
        let out = bspc(&[
            "compile",
            tetra.to_str().expect("path"),
            "--mesh-scale",
            scale,
        ]);
        assert_eq!(out.status.code(), Some(1), "{scale}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("of 4 read, the 4 that enclose solid were dropped")
                && stderr.contains(asks),
            "{scale}: {stderr}"
        );
    }
}
