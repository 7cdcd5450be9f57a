//! Compile time per map: `compile_map` (parse, brushes, bevels, tree, pack) on every shared
//! real map (`$PLANESHIFT_REAL_MAPS`, default `../shared/maps`) and the bundled arena; and
//! importing `e1m2.bsp` (`import_bsp`: the Quake 1 importer and the same back end) beside
//! compiling `e1m2.map`, which importing must not exceed (issue 26).

mod support;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use planeshift::compile::import_bsp;
use planeshift::compile::{CompileOptions, compile_map};

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

criterion_group!(benches, compile, import_vs_compile);
criterion_main!(benches);
