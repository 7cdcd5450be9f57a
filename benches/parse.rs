//! Reader throughput: parse (and parse + brushes) of the largest shared real map, in bytes
//! per second. Reads `$PLANESHIFT_REAL_MAPS` (default `../shared/maps`), falling back to the
//! bundled arena when the folder is missing.

mod support;

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use planeshift::brush::brushes_from_map;
use planeshift::map::parse_map;

fn largest_map() -> PathBuf {
    let dir = support::real_maps_dir();
    let mut best: Option<(u64, PathBuf)> = None;
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "map")
                && best.as_ref().is_none_or(|(s, _)| size > *s)
            {
                best = Some((size, path));
            }
        }
    }
    best.map(|(_, p)| p)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps/arena.map"))
}

fn parse(c: &mut Criterion) {
    let path = largest_map();
    let bytes = std::fs::read(&path).unwrap_or_default();
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let mut group = c.benchmark_group("parse");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.sample_size(30);
    group.bench_function(format!("parse_map/{name}"), |b| {
        b.iter(|| parse_map(black_box(&bytes)))
    });
    group.bench_function(format!("parse_map+brushes/{name}"), |b| {
        b.iter(|| parse_map(black_box(&bytes)).map(|m| brushes_from_map(&m)))
    });
    group.finish();
}

criterion_group!(benches, parse);
criterion_main!(benches);
