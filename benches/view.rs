//! Viewer frame time: `view::render::draw` at 1280×800 on the largest real map by brush
//! count (`id-quake-1996/e4m1.map`, 1,712 brushes; the bundled arena when the real maps are
//! absent) with 100 seeded sweeps drawn, the same drawing the window and `--screenshot` use.
//!
//! The same target also runs on a generated worst case, `pillars_2025`: 2,025 pillar brushes
//! (45 × 45, alternately square and diamond) every one of which the slice cuts, so the frame
//! draws 2,025 cross-sections where e4m1's floor shows about 200.
//!
//! Benches: `frame_100_sweeps` (the target: at least 60 frames per second, so at most
//! 16.7 ms), `frame_no_sweeps` (the slice and grid alone) and `slice_cut` (what moving the
//! slice height costs once; frames reuse the cached cut). After criterion's report it prints
//! the mean frame time and the implied frames per second of a plain timing loop.

mod support;

use std::hint::black_box;
use std::time::{Duration, Instant};
use support::{Pcg32, real_map};

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec2;
use planeshift::CompiledMap;
use planeshift::compile_map;
use planeshift::query::ShapeKind;
use planeshift_viewer::{Camera, Scene, ShapeSpec, Slice, render};
use tiny_skia::Pixmap;

/// Image size of the target.
const SIZE: (u32, u32) = (1280, 800);
/// Sweeps drawn per frame.
const SWEEPS: usize = 100;
/// Height of the cut through e4m1: its lower floor, where most of the level shows.
const E4M1_SLICE: f32 = 100.5;
/// Height of the cut through the arena (fallback).
const ARENA_SLICE: f32 = 36.5;

fn world() -> (String, CompiledMap, f32) {
    let (name, path, z) = match real_map("id-quake-1996/e4m1.map") {
        Some(real) => ("e4m1", real, E4M1_SLICE),
        None => {
            println!("view bench: real maps missing, using maps/arena.map");
            ("arena", support::bundled_map("arena.map"), ARENA_SLICE)
        }
    };
    let bytes = std::fs::read(&path).expect("read map");
    let world = compile_map(&bytes).expect("compile map").map;
    (name.to_string(), world, z)
}

/// Pillars per side of the generated worst case.
const PILLARS: usize = 45;

/// A worldspawn of `PILLARS`² pillars 0..128 high on a 64-unit grid: even ones 32-unit
/// squares, odd ones diamonds (slanted faces) of the same width.
fn pillars() -> CompiledMap {
    let mut src = String::from("{\n\"classname\" \"worldspawn\"\n");
    for i in 0..PILLARS {
        for j in 0..PILLARS {
            let (x, y) = (64.0 * i as f64, 64.0 * j as f64);
            let corners: Vec<(f64, f64)> = if (i + j) % 2 == 0 {
                vec![(x, y), (x + 32.0, y), (x + 32.0, y + 32.0), (x, y + 32.0)]
            } else {
                vec![
                    (x + 16.0, y),
                    (x + 32.0, y + 16.0),
                    (x + 16.0, y + 32.0),
                    (x, y + 16.0),
                ]
            };
            src.push_str("{\n");
            // Sides: each edge a, b of the counter-clockwise outline (normal out).
            for k in 0..4 {
                let (a, b) = (corners[k], corners[(k + 1) % 4]);
                src.push_str(&format!(
                    "( {} {} 0 ) ( {} {} 1 ) ( {} {} 0 ) wall 0 0 0 1 1\n",
                    a.0, a.1, a.0, a.1, b.0, b.1
                ));
            }
            src.push_str("( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) floor 0 0 0 1 1\n");
            src.push_str("( 0 0 128 ) ( 0 1 128 ) ( 1 0 128 ) floor 0 0 0 1 1\n}\n");
        }
    }
    src.push_str("}\n");
    compile_map(src.as_bytes()).expect("compile pillars").map
}

/// The scene of the target: the whole level fitted, `sweeps` seeded sweeps from open space
/// at the slice height, 64 to 512 units long, shapes cycling through every kind.
fn scene(world: &CompiledMap, z: f32, sweeps: usize) -> Scene {
    let model = &world.models()[0];
    let (mins, maxs) = (model.mins.truncate(), model.maxs.truncate());
    let camera = Camera::fit(SIZE.0, SIZE.1, mins, maxs);
    let mut scene = Scene::new(world, camera, z);
    let mut rng = Pcg32(0x5eed_f7e5);
    while scene.sweeps.len() < sweeps {
        let start = Vec2::new(rng.range(mins.x, maxs.x), rng.range(mins.y, maxs.y)).extend(z);
        if world.point_contents(start).is_solid() {
            continue;
        }
        let dir = Vec2::from_angle(rng.range(0.0, std::f32::consts::TAU));
        let end = start + (dir * rng.range(64.0, 512.0)).extend(0.0);
        let kind = ShapeKind::ALL[scene.sweeps.len() % ShapeKind::ALL.len()];
        let shape = ShapeSpec::sized(kind, 16.0).shape();
        scene.push_sweep(world, shape, start, end);
    }
    scene
}

fn bench(c: &mut Criterion) {
    let (name, world, z) = world();
    frame_benches(c, &name, &world, z);
    frame_benches(c, "pillars_2025", &pillars(), 64.5);
}

fn frame_benches(c: &mut Criterion, name: &str, world: &CompiledMap, z: f32) {
    let world = world.clone();
    let full = scene(&world, z, SWEEPS);
    let bare = scene(&world, z, 0);
    let mut pixmap = Pixmap::new(SIZE.0, SIZE.1).expect("pixmap");
    let hits = full.sweeps.iter().filter(|s| s.trace.hit()).count();
    println!(
        "view bench: {name}, {} brushes, slice z {z}: {} cross-sections, {SWEEPS} sweeps ({hits} hit)",
        world.brushes().len(),
        full.slice().polygons().len()
    );
    let mut group = c.benchmark_group(format!("view_{name}_1280x800"));
    group.sample_size(30);
    group.measurement_time(Duration::from_secs(6));
    group.bench_function("frame_100_sweeps", |b| {
        b.iter(|| render::draw(black_box(&full), &world, &mut pixmap));
    });
    group.bench_function("frame_no_sweeps", |b| {
        b.iter(|| render::draw(black_box(&bare), &world, &mut pixmap));
    });
    group.bench_function("slice_cut", |b| {
        b.iter(|| Slice::cut(black_box(&world), black_box(z)));
    });
    group.finish();

    // A plain loop over the target frame, for the implied frames per second.
    let frames = 200;
    let started = Instant::now();
    for _ in 0..frames {
        render::draw(black_box(&full), &world, &mut pixmap);
    }
    let ms = started.elapsed().as_secs_f64() * 1000.0 / f64::from(frames);
    println!(
        "view bench: {name} 1280x800 with {SWEEPS} sweeps: {ms:.2} ms per frame, {:.0} frames per second",
        1000.0 / ms
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
