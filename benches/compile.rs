//! Compile time per map: `compile_map` (parse, brushes, bevels, tree, pack) on every shared
//! real map (`$PLANESHIFT_REAL_MAPS`, default `../shared/maps`) and the bundled arena.

mod support;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use planeshift::compile::compile_map;

fn maps() -> Vec<(String, PathBuf)> {
    let dir = support::real_maps_dir();
    let mut out = vec![(
        "arena".to_owned(),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/arena.map"),
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

criterion_group!(benches, compile);
criterion_main!(benches);
