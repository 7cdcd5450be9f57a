//! A colliding crowd's tick: 64 characters packed on the bundled arena's floor (an 8 × 8
//! grid, 36 units apart: each box 30 wide, so neighbours are 6 units apart) all walking
//! toward the grid's centre, so every tick their sweeps meet each other. Measured as 50
//! ticks from the same start (the crowd is rebuilt outside the timing), so the numbers from
//! two versions of the crate compare: this file uses only paths the crate root has exported
//! since before the scene queries (#25), so it runs unchanged in a worktree of the commit
//! before them (240985c, with a `[[bench]] name = "crowd"` entry added to its Cargo.toml).
//! `alone_64` runs the same characters and wishes with `collide: false` (each moves as if
//! alone), so the two give the colliding tick's cost against a lone one in the same run
//! (issue 28: "a colliding crowd's tick ≤ 1.5× a lone one").
//!
//! `pile_1000/separation_tick` is one tick of 1,000 characters all inserted on the arena's
//! centre spawn point: the tick that separates them.
//!
//! Before timing, each case prints one `crowd/<case>: checksum` line: FNV-1a over the id and
//! the bits of the final position and velocity of every character after one measured run
//! (the same [`TICKS`] ticks from the same start), so a speed change must leave it as it is
//! (`cargo bench --bench crowd -- --test` prints them too).

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use glam::Vec3;
use planeshift::{
    CharacterController, ControllerConfig, Crowd, CrowdConfig, MoveInput, compile_map,
};

/// Ticks per measured run.
const TICKS: usize = 50;

/// FNV-1a over the crowd's final state: every character's id, then the bits of its position
/// and velocity, in increasing id order.
fn checksum(crowd: &Crowd) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for id in crowd.ids() {
        let Some(character) = crowd.get(id) else {
            continue;
        };
        let (p, v) = (character.position(), character.velocity());
        let words = [id, p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]
            .into_iter()
            .chain([v.x.to_bits(), v.y.to_bits(), v.z.to_bits()]);
        for byte in words.flat_map(u32::to_le_bytes) {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

fn crowd(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps/arena.map");
    let Some(map) = std::fs::read(path)
        .ok()
        .and_then(|bytes| compile_map(&bytes).ok())
        .map(|out| out.map)
    else {
        return;
    };
    let centre = Vec3::new(1024.0, 1024.0, 24.0);
    let spawns: Vec<Vec3> = (0..64)
        .map(|i| centre + Vec3::new((i % 8) as f32 - 3.5, (i / 8) as f32 - 3.5, 0.0) * 36.0)
        .collect();
    let build_with = |collide: bool| {
        let mut crowd = Crowd::new(CrowdConfig {
            collide,
            ..CrowdConfig::default()
        });
        for (id, at) in spawns.iter().enumerate() {
            if let Ok(player) = CharacterController::new(ControllerConfig::default(), *at) {
                crowd.insert(id as u32, player);
            }
        }
        crowd
    };
    let wish = |id: u32| {
        let at = spawns.get(id as usize).copied().unwrap_or(centre);
        let to_centre = (centre - at).truncate().extend(0.0);
        MoveInput {
            wish: to_centre.normalize_or_zero(),
            ..MoveInput::default()
        }
    };
    println!(
        "crowd: {} characters colliding, {TICKS} ticks per iteration (compare \
         crowd/colliding_64/50_ticks with the same file run before #25)",
        spawns.len()
    );
    let mut group = c.benchmark_group("crowd");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1));
    for (name, collide) in [
        ("colliding_64/50_ticks", true),
        ("alone_64/50_ticks", false),
    ] {
        let mut probe = build_with(collide);
        for _ in 0..TICKS {
            probe.step(&map, wish);
        }
        println!(
            "crowd/{name}: {} characters, checksum {:016x}",
            probe.len(),
            checksum(&probe)
        );
        group.bench_function(name, |b| {
            b.iter_batched(
                || build_with(collide),
                |mut crowd| {
                    for _ in 0..TICKS {
                        crowd.step(&map, wish);
                    }
                    black_box(crowd)
                },
                BatchSize::LargeInput,
            )
        });
    }
    // A pile: 1,000 characters respawned onto one spawn point, separated in one tick (the
    // tick measured; issue 41: "a pile of 1,000 characters respawned on one spawn point is
    // separated in one tick").
    let pile = || {
        let mut crowd = Crowd::new(CrowdConfig::default());
        for id in 0..PILE {
            if let Ok(player) = CharacterController::new(ControllerConfig::default(), centre) {
                crowd.insert(id, player);
            }
        }
        crowd
    };
    let mut probe = pile();
    probe.step(&map, |_| MoveInput::default());
    println!(
        "crowd/pile_1000/separation_tick: {} characters, {} pairs overlapping after the tick, \
         checksum {:016x}",
        probe.len(),
        probe.overlapping_pairs(),
        checksum(&probe)
    );
    group.sample_size(10);
    group.bench_function("pile_1000/separation_tick", |b| {
        b.iter_batched(
            pile,
            |mut crowd| {
                crowd.step(&map, |_| MoveInput::default());
                black_box(crowd)
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

/// Characters in the pile case.
const PILE: u32 = 1_000;

criterion_group!(benches, crowd);
criterion_main!(benches);
