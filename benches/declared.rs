//! Declared character boxes (issue 41): a sweep of a declared box, walked through its own
//! tree as a point, against a point trace and against the same box swept through the main
//! trees as before, on the same queries in one run; and one lone character's tick in point
//! traces.
//!
//! Takes the real maps of the controller bench (`$PLANESHIFT_REAL_MAPS`, default
//! `../shared/maps`; the bundled arena too), each compiled with its default declared boxes
//! (Quake 3's player standing and crouched for every level, Quake's two hulls for Quake), and
//! the same world without them (`CompiledMap::without_declared`). Queries: sweeps starting
//! where the standing player box is free, within 128 units of the level's player spawns and
//! point entities, in a random direction, `long` (16 to 256 units) and `short` (0.25 to 16:
//! what a controller asks per tick), under `MASK_PLAYER_SOLID`. Criterion benchmarks
//! `declared/<map>/<set>/{point,declared_box,box_before}` (one iteration: every query of
//! the set) and `declared/<map>/tick/{declared,before}` (one iteration: one tick of one
//! character with `ControllerConfig::default`, a seeded walk with jumps, the episode started
//! over from a warmed state at its end). At the end a table from the very samples criterion
//! measured: ns per sweep of each, the declared box over the point and the box before over
//! the declared box, and the tick in short point traces. Before timing, a check line per
//! map: the declared and before answers are equal on every query (the benches must time the
//! same work), with the hit counts.

mod support;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec3;
use planeshift::{
    CharacterController, CompiledMap, Contents, ControllerConfig, MoveInput, MoveOutcome,
    TraceShape, compile_map,
};
use support::episodes::{Ticked, per_character_tick, replay};
use support::{Pcg32, real_map};

/// Queries per set.
const SWEEPS: usize = 1024;

/// Criterion samples per benchmark.
const SAMPLES: usize = 20;

/// Ticks before the timed episode (the character lands and walks), and the episode's.
const WARM_UP_TICKS: usize = 200;
const EPISODE_TICKS: usize = 1000;

/// How high above a spawn point the character starts, in units.
const SPAWN_LIFT: f32 = 1.0;

/// The maps: (label, path under the real-maps folder), the controller bench's.
const REAL_MAPS: [(&str, &str); 5] = [
    ("e4m1", "id-quake-1996/e4m1.map"),
    ("e1m2", "id-quake-1996/e1m2.map"),
    ("dm4", "id-quake-1996/dm4.map"),
    ("kaos", "openarena-lostlevels/kaos.map"),
    ("dm17ish", "openarena-lostlevels/dm17ish.map"),
];

const MASK: Contents = Contents::MASK_PLAYER_SOLID;

/// Sweeps starting where `shape` is free near `seeds`, `lengths` units long.
fn queries(
    world: &CompiledMap,
    seeds: &[Vec3],
    shape: &TraceShape,
    seed: u64,
    lengths: (f32, f32),
) -> Vec<(Vec3, Vec3)> {
    let mut rng = Pcg32(seed);
    let mut out = Vec::with_capacity(SWEEPS);
    let mut attempts = 0;
    while out.len() < SWEEPS && attempts < SWEEPS * 1000 && !seeds.is_empty() {
        attempts += 1;
        let near = seeds[(rng.next() * seeds.len() as f32) as usize % seeds.len()];
        let start = near
            + Vec3::new(
                rng.range(-128.0, 128.0),
                rng.range(-128.0, 128.0),
                rng.range(-32.0, 64.0),
            );
        if world.overlaps(shape, start, MASK) {
            continue;
        }
        let dir = Vec3::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-0.5, 0.5),
        )
        .normalize_or_zero();
        out.push((start, start + dir * rng.range(lengths.0, lengths.1)));
    }
    out
}

/// One character ticking alone.
#[derive(Clone)]
struct Lone<'a> {
    world: &'a CompiledMap,
    character: CharacterController,
    outcome: MoveOutcome,
}

impl Ticked for Lone<'_> {
    fn tick(&mut self, inputs: &[MoveInput]) {
        for input in inputs {
            self.character
                .step_into(self.world, input, &mut self.outcome);
            black_box(&self.outcome);
        }
    }
}

/// A seeded walk: a wish held 0.25 to 1.5 s (one in ten standing), jumps at the start of
/// three holds in ten, as `[tick][character]` with one character.
fn script(ticks: usize, tick_seconds: f32) -> Vec<Vec<MoveInput>> {
    let mut out = vec![vec![MoveInput::default()]; ticks];
    let mut rng = Pcg32(0x005e_ed41);
    let mut t = 0;
    while t < ticks {
        let hold = ((rng.range(0.25, 1.5) / tick_seconds).round() as usize).max(1);
        let wish = if rng.next() < 0.1 {
            Vec3::ZERO
        } else {
            let a = rng.range(0.0, std::f32::consts::TAU);
            Vec3::new(a.cos(), a.sin(), 0.0)
        };
        let jump = rng.next() < 0.3;
        for (k, row) in out.iter_mut().skip(t).take(hold).enumerate() {
            row[0] = MoveInput {
                wish,
                jump: jump && k < 2,
                crouch: false,
                command: None,
            };
        }
        t += hold;
    }
    out
}

/// ns per call over the last `SAMPLES` of `record`, for calls of `per` operations each.
fn per_op(record: &[(u64, Duration)], per: usize) -> Option<f64> {
    per_character_tick(record, SAMPLES, per)
}

/// Times `iters` passes of `f` into `record`.
fn timed(record: &mut Vec<(u64, Duration)>, iters: u64, mut f: impl FnMut()) -> Duration {
    let t = Instant::now();
    for _ in 0..iters {
        f();
    }
    let spent = t.elapsed();
    record.push((iters, spent));
    spent
}

struct Row {
    map: String,
    set: &'static str,
    point: Option<f64>,
    declared: Option<f64>,
    before: Option<f64>,
}

fn declared(c: &mut Criterion) {
    let mut maps: Vec<(String, PathBuf)> = REAL_MAPS
        .iter()
        .filter_map(|(label, path)| real_map(path).map(|p| ((*label).to_owned(), p)))
        .collect();
    maps.push((
        "arena".to_owned(),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps/arena.map"),
    ));
    let config = ControllerConfig::default();
    let inputs = script(WARM_UP_TICKS + EPISODE_TICKS, config.tick);
    let (warm_up, episode) = inputs.split_at(WARM_UP_TICKS);
    let player = TraceShape::quake3_player();
    let point = TraceShape::point();
    let mut rows = Vec::new();
    let mut ticks = Vec::new();
    let mut group = c.benchmark_group("declared");
    group.sample_size(SAMPLES);
    group.warm_up_time(Duration::from_millis(300));
    group.measurement_time(Duration::from_secs(1));
    for (name, path) in maps {
        let Some(world) = std::fs::read(&path)
            .ok()
            .and_then(|src| compile_map(&src).ok())
            .map(|out| out.map)
        else {
            eprintln!("{name}: skipped (unreadable)");
            continue;
        };
        let before = world.without_declared();
        let spawns: Vec<Vec3> = world.player_spawns().collect();
        let mut seeds = spawns.clone();
        seeds.extend(world.entities().filter_map(|e| e.origin()));
        for (set, lengths, seed) in [("long", (16.0, 256.0), 41), ("short", (0.25, 16.0), 42)] {
            let qs = queries(&world, &seeds, &player, seed, lengths);
            let (mut hits, mut same) = (0, 0);
            for &(s, e) in &qs {
                let a = world.trace(&player, s, e, MASK);
                let b = before.trace(&player, s, e, MASK);
                hits += usize::from(a.fraction < 1.0);
                same += usize::from(format!("{a:?}") == format!("{b:?}"));
            }
            eprintln!(
                "{name}/{set}: {} sweeps, {hits} hit, declared equals before on {same}",
                qs.len()
            );
            let mut records = [Vec::new(), Vec::new(), Vec::new()];
            let [r_point, r_declared, r_before] = &mut records;
            group.bench_function(format!("{name}/{set}/point"), |b| {
                b.iter_custom(|iters| {
                    timed(r_point, iters, || {
                        for &(s, e) in &qs {
                            black_box(world.trace(&point, s, e, MASK));
                        }
                    })
                });
            });
            group.bench_function(format!("{name}/{set}/declared_box"), |b| {
                b.iter_custom(|iters| {
                    timed(r_declared, iters, || {
                        for &(s, e) in &qs {
                            black_box(world.trace(&player, s, e, MASK));
                        }
                    })
                });
            });
            group.bench_function(format!("{name}/{set}/box_before"), |b| {
                b.iter_custom(|iters| {
                    timed(r_before, iters, || {
                        for &(s, e) in &qs {
                            black_box(before.trace(&player, s, e, MASK));
                        }
                    })
                });
            });
            rows.push(Row {
                map: name.clone(),
                set,
                point: per_op(r_point, qs.len()),
                declared: per_op(r_declared, qs.len()),
                before: per_op(r_before, qs.len()),
            });
        }
        let Some(&spawn) = spawns.first() else {
            eprintln!("{name}: no spawn, no tick");
            continue;
        };
        let mut tick_ns = [None, None];
        for (k, (label, w)) in [("declared", &world), ("before", &before)]
            .iter()
            .enumerate()
        {
            let Ok(character) = CharacterController::new(config, spawn + Vec3::Z * SPAWN_LIFT)
            else {
                continue;
            };
            let mut warm = Lone {
                world: w,
                character,
                outcome: MoveOutcome::default(),
            };
            for input in warm_up {
                warm.tick(input);
            }
            let mut now = (warm.clone(), 0);
            let mut record = Vec::new();
            group.bench_function(format!("{name}/tick/{label}"), |b| {
                b.iter_custom(|iters| replay(&warm, episode, iters, &mut now, &mut record));
            });
            tick_ns[k] = per_character_tick(&record, SAMPLES, 1);
        }
        ticks.push((name.clone(), tick_ns));
    }
    group.finish();
    let show = |v: Option<f64>| v.map_or("-".to_owned(), |v| format!("{v:.0}"));
    let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}", a / b),
        _ => "-".to_owned(),
    };
    eprintln!("\nns per sweep        point  declared  before  declared/point  before/declared");
    for r in &rows {
        eprintln!(
            "{:>8} {:>5}  {:>7} {:>9} {:>7} {:>15} {:>16}",
            r.map,
            r.set,
            show(r.point),
            show(r.declared),
            show(r.before),
            ratio(r.declared, r.point),
            ratio(r.before, r.declared)
        );
    }
    eprintln!("\nlone tick     ns declared  ns before  in short point traces (declared, before)");
    for (map, [declared, before]) in &ticks {
        let short = rows
            .iter()
            .find(|r| &r.map == map && r.set == "short")
            .and_then(|r| r.point);
        eprintln!(
            "{map:>8}  {:>11} {:>10}  {:>8} {:>8}",
            show(*declared),
            show(*before),
            ratio(*declared, short),
            ratio(*before, short)
        );
    }
}

criterion_group!(benches, declared);
criterion_main!(benches);
