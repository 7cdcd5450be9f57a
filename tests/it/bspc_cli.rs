//! The real `bspc` binary: exit statuses, the error format and the JSON contract.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support::real_maps;

fn bspc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bspc"))
        .args(args)
        .output()
        .expect("run bspc")
}

fn temp_file(name: &str, contents: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("planeshift-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("write temp file");
    path
}

fn bundled(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("maps")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn check_json_is_one_object_with_the_contract_fields() {
    let out = bspc(&["check", &bundled("box_room.map"), "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
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
        "formats",
        "diagnostics",
    ];
    expected.sort_unstable();
    let mut keys = keys;
    keys.sort_unstable();
    assert_eq!(keys, expected);
    assert_eq!(json["brushes"], 6);
    assert_eq!(json["world_brushes"], 6);
    assert_eq!(json["faces"], 36);
    assert_eq!(json["formats"], serde_json::json!(["valve220"]));
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

#[test]
fn check_reads_every_real_map() {
    for (name, path) in real_maps("check_reads_every_real_map") {
        let out = bspc(&["check", path.to_str().expect("path"), "--json"]);
        assert_eq!(out.status.code(), Some(0), "{name}");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        assert!(json["world_brushes"].as_u64().unwrap_or(0) > 0, "{name}");
    }
}
