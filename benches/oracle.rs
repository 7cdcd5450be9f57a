//! The exact test oracle's query cost (`tools/testkit/src/oracle.rs`, parry3d-f64): first
//! hit, overlap and distance per query, per shape kind, on the largest real map at hand.
//! It sizes the oracle test suites; it is not a product figure.
//!
//! Takes `$PLANESHIFT_REAL_MAPS` (default `../shared/maps`), falling back to the bundled
//! arena; gives criterion timings. Run: `cargo bench --bench oracle`.

mod support;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::DVec3;
use planeshift::TraceShape;
use planeshift::brush::{Brush, brushes_from_map};
use planeshift::map::parse_map;

use planeshift_testkit::oracle::{Oracle, OracleShape};
use support::{Pcg32, bundled_map, real_map};

/// Sweeps per shape kind.
const MOVES: usize = 256;

fn world() -> (String, Vec<Brush>) {
    let path = real_map("id-quake-1996/e1m2.map").unwrap_or_else(|| bundled_map("arena.map"));
    let bytes = std::fs::read(&path).unwrap_or_default();
    let brushes = parse_map(&bytes)
        .map(|map| brushes_from_map(&map).brushes)
        .unwrap_or_default()
        .into_iter()
        .filter(Brush::is_solid_world)
        .collect();
    (path.display().to_string(), brushes)
}

fn shapes() -> [(&'static str, OracleShape); 6] {
    [
        ("point", OracleShape::Point),
        ("sphere", OracleShape::Sphere { radius: 16.0 }),
        (
            "cylinder",
            OracleShape::Cylinder {
                radius: 16.0,
                half_height: 28.0,
            },
        ),
        (
            "capsule",
            OracleShape::Capsule {
                radius: 16.0,
                half_height: 12.0,
            },
        ),
        (
            "box",
            OracleShape::Box {
                mins: TraceShape::QUAKE1_PLAYER_BOUNDS.0.as_dvec3(),
                maxs: TraceShape::QUAKE1_PLAYER_BOUNDS.1.as_dvec3(),
            },
        ),
        (
            "hull",
            OracleShape::Hull {
                points: vec![
                    DVec3::new(16.0, 0.0, -16.0),
                    DVec3::new(-8.0, 14.0, -16.0),
                    DVec3::new(-8.0, -14.0, -16.0),
                    DVec3::new(0.0, 0.0, 20.0),
                ],
            },
        ),
    ]
}

fn bench(c: &mut Criterion) {
    let (name, brushes) = world();
    if brushes.is_empty() {
        println!("oracle bench: skipped, no brushes read from {name}");
        return;
    }
    let oracle = Oracle::new(&brushes);
    let mut rng = Pcg32(7);
    let moves: Vec<(DVec3, DVec3)> = (0..MOVES)
        .map(|_| {
            let b = &brushes[(rng.next() * brushes.len() as f32) as usize % brushes.len()];
            let (lo, hi) = (b.mins - 96.0, b.maxs + 96.0);
            let mut point = || {
                DVec3::new(
                    f64::from(rng.range(lo.x as f32, hi.x as f32)),
                    f64::from(rng.range(lo.y as f32, hi.y as f32)),
                    f64::from(rng.range(lo.z as f32, hi.z as f32)),
                )
            };
            (point(), point())
        })
        .collect();
    let mut group = c.benchmark_group(format!("oracle {name}"));
    for (kind, shape) in shapes() {
        group.bench_function(format!("{kind} first_hit x{MOVES}"), |b| {
            b.iter(|| {
                moves
                    .iter()
                    .filter(|(s, e)| oracle.first_hit(&shape, *s, *e).is_some())
                    .count()
            })
        });
        group.bench_function(format!("{kind} distance x{MOVES}"), |b| {
            b.iter(|| {
                moves
                    .iter()
                    .map(|(s, _)| oracle.distance(&shape, *s, 32.0))
                    .sum::<f64>()
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
