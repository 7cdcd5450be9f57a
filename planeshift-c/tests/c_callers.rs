//! The C and C++ callers, compiled and run: `examples/replay.c` (with `cc -Wall -Wextra
//! -Werror`) gives `fps_movement --replay`'s bytes on every bundled map and on every shared
//! reference run (its level beside it: `reference-moves/quake3/L` plays
//! `openarena-lostlevels/L.bsp`, `reference-moves/quakeworld/L` plays
//! `id-quake-1996/L.bsp`); the C++ wrapper's test (`tests/cpp/wrapper_test.cpp`, `c++
//! -std=c++17 -Wall -Wextra -Werror`) passes. `fps_movement --replay` writes the lines of
//! `planeshift_harness::replay::replay`, which this test calls in process. The runs under a
//! leak checker are `.ci/run`'s (valgrind).

use std::path::{Path, PathBuf};
use std::process::Command;

use planeshift::build::compile_level;
use planeshift::{CompileOptions, ControllerConfig};
use planeshift_harness::replay::{replay, replay_world};
use planeshift_testkit::real_maps::{bundled_maps, files_in, real_maps_dir, repo_root};

/// The folder holding the `libplaneshift_c.so` that `cargo test` built with this test:
/// the test binary's own (`target/PROFILE/deps`).
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's path");
    exe.parent().expect("target/PROFILE/deps").to_path_buf()
}

/// `command` loading this test's library: cargo's `LD_LIBRARY_PATH` names `target/PROFILE`
/// before `deps`, and comes before the executable's run path, so a library left there by an
/// earlier `cargo build -p planeshift-c` would be run instead.
fn with_this_library(command: &mut Command) -> &mut Command {
    command.env("LD_LIBRARY_PATH", lib_dir())
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("planeshift-c-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// Compiles `source` (a path in this package) with `compiler` and the warnings as errors,
/// linked to the library.
fn compile(compiler: &str, std: &str, source: &str, out: &Path) {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let source = crate_dir.join(source);
    let lib = lib_dir();
    assert!(
        lib.join("libplaneshift_c.so").is_file(),
        "{} has no libplaneshift_c.so",
        lib.display()
    );
    let status = Command::new(compiler)
        .args([std, "-Wall", "-Wextra", "-Werror", "-g"])
        .arg("-I")
        .arg(crate_dir.join("include"))
        .arg(&source)
        .arg("-o")
        .arg(out)
        .arg("-L")
        .arg(&lib)
        .arg("-lplaneshift_c")
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .status()
        .unwrap_or_else(|e| panic!("{compiler}: {e} (a C and C++ compiler are needed)"));
    assert!(
        status.success(),
        "{compiler} failed on {}",
        source.display()
    );
}

/// Runs the C replay and gives its output, asserting it succeeded.
fn run_c(exe: &Path, map: &Path, input: &Path, out: &Path) -> String {
    let result = with_this_library(&mut Command::new(exe))
        .arg(map)
        .arg(input)
        .arg(out)
        .output()
        .expect("run replay");
    assert!(
        result.status.success(),
        "replay {} {}: {}",
        map.display(),
        input.display(),
        String::from_utf8_lossy(&result.stderr)
    );
    std::fs::read_to_string(out).expect("the output")
}

/// A varied input for a level: a spawn at its first spawn point (else its centre line),
/// then wishes, commands, jumps, crouches, a mode change, an impulse and long ticks.
fn generated_input(bytes: &[u8]) -> String {
    let world = compile_level(bytes, &CompileOptions::default())
        .expect("a bundled map compiles")
        .map;
    let spawn = world
        .spawn_points()
        .next()
        .map_or(glam::Vec3::new(0.0, 0.0, 64.0), |s| s.player_origin);
    let mut lines = vec![format!(
        "{{\"spawn\":[{:?},{:?},{:?}]}}",
        spawn.x, spawn.y, spawn.z
    )];
    for t in 0..150u32 {
        let mut line = if t % 50 < 25 {
            format!(
                "{{\"wish\":[{:?},{:?},0]",
                (t as f32 * 0.1).cos(),
                (t as f32 * 0.1).sin()
            )
        } else {
            format!(
                "{{\"view\":[{:?},{:?}],\"move\":[1,0.5,0]",
                5.0 - t as f32 * 0.1,
                t as f32 * 7.5
            )
        };
        if t % 13 == 4 {
            line.push_str(",\"jump\":true");
        }
        if (60..70).contains(&t) {
            line.push_str(",\"crouch\":true");
        }
        if t == 100 {
            line.push_str(",\"impulse\":[0,0,250]");
        }
        if t == 110 {
            line.push_str(",\"mode\":\"noclip\"");
        }
        if t == 115 {
            line.push_str(",\"mode\":\"walk\"");
        }
        if t % 31 == 7 {
            line.push_str(",\"msec\":20");
        }
        line.push('}');
        lines.push(line);
    }
    lines.join("\n") + "\n"
}

#[test]
fn the_c_replay_equals_fps_movement_on_bundled_maps() {
    let dir = scratch("bundled");
    let exe = dir.join("replay");
    compile("cc", "-std=c11", "examples/replay.c", &exe);
    let mut runs = 0;
    let mut ticks = 0;
    // The checked-in run (the one `.ci/run` runs under valgrind), then one generated per map.
    let arena = repo_root().join("maps/arena.map");
    let walk = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/arena-walk.in.jsonl");
    let mut cases = vec![(arena, walk)];
    for (name, path) in bundled_maps() {
        let bytes = std::fs::read(&path).expect("a bundled map");
        if compile_level(&bytes, &CompileOptions::default()).is_err() {
            // A map made to fail (a leak, a bad brush) has no run.
            println!("c replay: {name} does not compile, no run");
            continue;
        }
        let input = dir.join(format!("{}.in.jsonl", name.replace('/', "_")));
        std::fs::write(&input, generated_input(&bytes)).expect("write the input");
        cases.push((path, input));
    }
    for (map, input) in &cases {
        let bytes = std::fs::read(map).expect("the map");
        let text = std::fs::read_to_string(input).expect("the input");
        let expected = replay(
            &bytes,
            &CompileOptions::default(),
            ControllerConfig::default(),
            &text,
            None,
        )
        .expect("fps_movement's replay")
        .lines;
        let got = run_c(&exe, map, input, &dir.join("out.jsonl"));
        assert!(
            got == expected,
            "{} {}: the C replay differs from fps_movement's",
            map.display(),
            input.display()
        );
        runs += 1;
        ticks += expected.lines().count();
    }
    println!("c replay: {runs} runs on bundled maps, {ticks} ticks, byte for byte equal");
    assert!(runs >= 10, "only {runs} bundled runs");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_c_replay_equals_fps_movement_on_every_reference_run() {
    let Some(real) = real_maps_dir("c replay reference runs") else {
        return;
    };
    let dir = scratch("reference");
    let exe = dir.join("replay");
    compile("cc", "-std=c11", "examples/replay.c", &exe);
    let runs = files_in(&real.join("reference-moves"), "jsonl");
    let mut levels: Vec<(String, PathBuf, Vec<PathBuf>)> = Vec::new();
    for (name, path) in runs.iter().filter(|(n, _)| n.ends_with(".in.jsonl")) {
        let mut parts = name.split('/');
        let (Some(game), Some(level)) = (parts.next(), parts.next()) else {
            continue;
        };
        let folder = match game {
            "quake3" => "openarena-lostlevels",
            "quakeworld" => "id-quake-1996",
            other => panic!("{name}: unknown game folder {other}"),
        };
        let bsp = real.join(folder).join(format!("{level}.bsp"));
        let key = format!("{game}/{level}");
        match levels.iter_mut().find(|(k, _, _)| *k == key) {
            Some((_, _, list)) => list.push(path.clone()),
            None => levels.push((key, bsp, vec![path.clone()])),
        }
    }
    let (mut checked, mut ticks) = (0, 0);
    for (key, bsp, inputs) in &levels {
        // Compiled once: the first run reads the `.bsp` (the C side compiles it too), the
        // others the saved `.pbsp` (the same world, bit for bit), so 180 runs load fast.
        let world = compile_level(
            &std::fs::read(bsp).expect("the level"),
            &CompileOptions::default(),
        )
        .expect("the level compiles")
        .map;
        let pbsp = dir.join("level.pbsp");
        std::fs::write(&pbsp, world.to_bytes()).expect("write the pbsp");
        for (i, input) in inputs.iter().enumerate() {
            let text = std::fs::read_to_string(input).expect("the run");
            let expected = replay_world(&world, ControllerConfig::default(), &text, None)
                .expect("fps_movement's replay")
                .lines;
            let map = if i == 0 { bsp } else { &pbsp };
            let got = run_c(&exe, map, input, &dir.join("out.jsonl"));
            assert!(
                got == expected,
                "{key} {}: the C replay differs from fps_movement's",
                input.display()
            );
            checked += 1;
            ticks += expected.lines().count();
        }
    }
    println!(
        "c replay: {checked} reference runs on {} levels, {ticks} ticks, byte for byte equal",
        levels.len()
    );
    assert!(checked > 0 || runs.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_cpp_wrapper_test_passes() {
    let dir = scratch("cpp");
    let exe = dir.join("wrapper_test");
    compile("c++", "-std=c++17", "tests/cpp/wrapper_test.cpp", &exe);
    let result = with_this_library(&mut Command::new(&exe))
        .arg(repo_root())
        .output()
        .expect("run the C++ test");
    let stdout = String::from_utf8_lossy(&result.stdout);
    println!("c++ wrapper: {}", stdout.trim());
    assert!(
        result.status.success() && stdout.contains(" passed, 0 failed"),
        "the C++ wrapper test failed: {stdout}{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The C and C++ examples of `docs/hosts/c.md` and `cpp.md` are the files in `examples/`,
/// verbatim, and they compile with every warning an error and run.
#[test]
fn the_docs_examples_compile_and_run() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = scratch("docs");
    for (source, compiler, std, page) in [
        ("examples/hello.c", "cc", "-std=c11", "docs/hosts/c.md"),
        (
            "examples/hello.cpp",
            "c++",
            "-std=c++17",
            "docs/hosts/cpp.md",
        ),
    ] {
        let text = std::fs::read_to_string(crate_dir.join(source)).expect("the example");
        let doc = std::fs::read_to_string(repo_root().join(page)).expect("the page");
        assert!(
            doc.contains(&text),
            "{page} does not hold {source} verbatim"
        );
        let exe = dir.join("hello");
        compile(compiler, std, source, &exe);
        let out = with_this_library(&mut Command::new(&exe))
            .current_dir(repo_root())
            .output()
            .expect("run");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{source}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout.contains("hit at x=1136.97"), "{source}: {stdout}");
        println!("{source}: {}", stdout.trim().replace('\n', "; "));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
