//! Compile time per map: `compile_map` (parse, brushes, bevels, tree, pack) on every shared
//! real map (`$PLANESHIFT_REAL_MAPS`, default `../shared/maps`) and the bundled arena; and
//! importing `e1m2.bsp` (`import_bsp`: the Quake 1 importer and the same back end) beside
//! compiling `e1m2.map`, which importing must not exceed (issue 26); and a 4,000-brush level
//! (no shared map is that large): the largest id levels side by side in one world, each
//! moved [`MERGE_STRIDE`] units along x (issue 28's "4,000 brushes ≤ 0.3 s").

mod support;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use planeshift::build::import_bsp;
use planeshift::{CompileOptions, compile_map};

fn maps() -> Vec<(String, PathBuf)> {
    let dir = support::real_maps_dir();
    let mut out = vec![(
        "arena".to_owned(),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps/arena.map"),
    )];
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "map") {
                let name = path
                    .file_stem()
                    .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
                out.push((name, path));
            }
        }
    }
    out.sort();
    out
}

fn compile(c: &mut Criterion) {
    let mut group = c.benchmark_group("compile");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(300));
    group.measurement_time(Duration::from_secs(1));
    for (name, path) in maps() {
        let src = std::fs::read(&path).unwrap_or_default();
        group.bench_function(name, |b| b.iter(|| compile_map(black_box(&src))));
    }
    group.finish();
}

/// How far apart the merged levels sit, in map units: more than any id level's extent (the
/// Quake 1 levels fit in ±4,096), so the copies never touch.
const MERGE_STRIDE: f64 = 8192.0;

/// The levels merged into the 4,000-brush world: the two largest id levels and dm4 (1,712 +
/// 1,607 + 708 brush blocks, brush entities' included: 4,027).
const MERGED_LEVELS: [&str; 3] = ["e4m1.map", "e2m1.map", "dm4.map"];

/// One `.map` text holding every level of `sources`, the `i`-th moved `i ×` [`MERGE_STRIDE`]
/// along x: one worldspawn (the first level's keys, every level's world brushes), then every
/// level's other entities (brushes and `origin`s moved). Gives the text and its brush count.
fn merged_level(sources: &[String]) -> (String, usize) {
    let mut world = String::new();
    let mut entities = String::new();
    let mut brushes = 0;
    for (i, source) in sources.iter().enumerate() {
        let dx = MERGE_STRIDE * i as f64;
        let mut depth = 0;
        let mut entity = 0;
        for line in source.lines() {
            let trimmed = line.trim();
            match trimmed {
                "{" => {
                    depth += 1;
                    if depth == 1 {
                        entity += 1;
                        if entity == 1 {
                            if i == 0 {
                                world.push_str("{\n");
                            }
                            continue;
                        }
                    } else {
                        brushes += 1;
                    }
                }
                "}" => {
                    depth -= 1;
                    if depth == 0 && entity == 1 {
                        continue;
                    }
                }
                _ => {}
            }
            let in_world = entity == 1;
            let moved = move_line(trimmed, dx);
            if in_world {
                // Later levels' worldspawn keys are dropped: one world, the first's keys.
                if depth == 1 && trimmed.starts_with('"') && i > 0 {
                    continue;
                }
                world.push_str(&moved);
                world.push('\n');
            } else {
                entities.push_str(&moved);
                entities.push('\n');
            }
        }
    }
    world.push_str("}\n");
    world.push_str(&entities);
    (world, brushes)
}

/// A `.map` line moved `dx` along x: a brush face's three points, or an `origin` key.
fn move_line(line: &str, dx: f64) -> String {
    if dx == 0.0 {
        return line.to_owned();
    }
    if let Some(rest) = line.strip_prefix("\"origin\"") {
        let numbers: Vec<f64> = rest
            .trim()
            .trim_matches('"')
            .split_whitespace()
            .filter_map(|n| n.parse().ok())
            .collect();
        if let [x, y, z] = numbers[..] {
            return format!("\"origin\" \"{} {y} {z}\"", x + dx);
        }
        return line.to_owned();
    }
    if !line.starts_with('(') {
        return line.to_owned();
    }
    // "( x y z ) ( x y z ) ( x y z ) rest": the 3 points, then the texture as it was.
    let mut out = String::new();
    let mut rest = line;
    for _ in 0..3 {
        let (Some(open), Some(close)) = (rest.find('('), rest.find(')')) else {
            return line.to_owned();
        };
        let numbers: Vec<f64> = rest[open + 1..close]
            .split_whitespace()
            .filter_map(|n| n.parse().ok())
            .collect();
        let [x, y, z] = numbers[..] else {
            return line.to_owned();
        };
        out.push_str(&format!("( {} {y} {z} ) ", x + dx));
        rest = &rest[close + 1..];
    }
    out.push_str(rest.trim_start());
    out
}

fn compile_4000_brushes(c: &mut Criterion) {
    let dir = support::real_maps_dir().join("id-quake-1996");
    let sources: Vec<String> = MERGED_LEVELS
        .iter()
        .filter_map(|name| std::fs::read_to_string(dir.join(name)).ok())
        .collect();
    if sources.len() < MERGED_LEVELS.len() {
        println!(
            "compile_4000: skipped (the id levels are not in {})",
            dir.display()
        );
        return;
    }
    let (text, brushes) = merged_level(&sources);
    match compile_map(text.as_bytes()) {
        Ok(out) => println!(
            "merged {MERGED_LEVELS:?}: {brushes} brushes, {} diagnostics, leaks: {}, stages (s): {:?}",
            out.diagnostics.len(),
            out.leak.is_some(),
            out.timings
        ),
        Err(e) => {
            println!("compile_4000: the merged level does not compile: {e}");
            return;
        }
    }
    let mut group = c.benchmark_group("compile_4000");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(300));
    group.measurement_time(Duration::from_secs(3));
    group.bench_function(format!("{brushes}_brushes"), |b| {
        b.iter(|| compile_map(black_box(text.as_bytes())))
    });
    group.finish();
}

fn import_vs_compile(c: &mut Criterion) {
    let dir = support::real_maps_dir().join("id-quake-1996");
    let (Ok(bsp), Ok(map)) = (
        std::fs::read(dir.join("e1m2.bsp")),
        std::fs::read(dir.join("e1m2.map")),
    ) else {
        return;
    };
    let mut group = c.benchmark_group("import_vs_compile");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(300));
    group.measurement_time(Duration::from_secs(2));
    let options = CompileOptions::default();
    // Where each takes its time, once (the stages' own stopwatch).
    if let (Ok(imported), Ok(compiled)) = (import_bsp(&bsp, &options), compile_map(&map)) {
        println!("e1m2.bsp import stages (s): {:?}", imported.timings);
        println!("e1m2.map compile stages (s): {:?}", compiled.timings);
    }
    group.bench_function("e1m2.bsp import", |b| {
        b.iter(|| import_bsp(black_box(&bsp), &options))
    });
    group.bench_function("e1m2.map compile", |b| {
        b.iter(|| compile_map(black_box(&map)))
    });
    group.finish();
}

criterion_group!(benches, compile, import_vs_compile, compile_4000_brushes);
criterion_main!(benches);
