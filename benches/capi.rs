//! What the C ABI costs over Rust: the same sweeps and the same ticks, called directly in
//! Rust and through the `ps_*` entry points (handle lookup, the panic guard, the checks).
//!
//! `cargo bench --bench capi`: per group, `rust` and `c_api` on the same
//! inputs; the bar is c_api <= 1.05 x rust for a sweep and for a tick. The level is
//! the shared `q3dm6ish.bsp` when `$PLANESHIFT_REAL_MAPS` has it, else `maps/arena.map`.

use std::hint::black_box;
use std::ptr::null;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec3;
use planeshift::build::compile_level;
use planeshift::movement::Bodies;
use planeshift::{
    CharacterController, CompileOptions, Contents, ControllerConfig, MoveInput, QueryFilter, Scene,
    TraceShape,
};
use planeshift_c::character::{
    PsMoveInput, PsOutcome, ps_character_new, ps_character_step, ps_config_default,
};
use planeshift_c::ffi::PsVec3;
use planeshift_c::level::ps_level_load_bytes;
use planeshift_c::query::{PsTrace, ps_level_trace, ps_shape_from_spec};
use planeshift_c::status::PsStatus;
use planeshift_c::{PsCharacter, PsConfig, PsLevel, PsShape};
use planeshift_testkit::real_maps::repo_root;

fn level_bytes() -> (String, Vec<u8>) {
    let real = std::env::var_os("PLANESHIFT_REAL_MAPS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| repo_root().join("../shared/maps"))
        .join("openarena-lostlevels/q3dm6ish.bsp");
    let path = if real.is_file() {
        real
    } else {
        repo_root().join("maps/arena.map")
    };
    (
        path.display().to_string(),
        std::fs::read(&path).expect("the level"),
    )
}

fn v(p: Vec3) -> PsVec3 {
    p.into()
}

fn bench(c: &mut Criterion) {
    let (name, bytes) = level_bytes();
    println!("capi bench on {name}");
    let world = compile_level(&bytes, &CompileOptions::default())
        .expect("compiles")
        .map;
    let mut level = PsLevel(0);
    // SAFETY: valid buffers and outputs.
    unsafe {
        assert_eq!(
            ps_level_load_bytes(bytes.as_ptr(), bytes.len(), null(), &mut level),
            PsStatus::Ok
        );
    }
    let spec = "box:-15,-15,-24,15,15,32";
    let shape = TraceShape::from_spec(spec).expect("shape");
    let mut ps_shape = PsShape(0);
    let cspec = std::ffi::CString::new(spec).expect("spec");
    // SAFETY: valid string and output.
    unsafe {
        assert_eq!(
            ps_shape_from_spec(cspec.as_ptr(), &mut ps_shape),
            PsStatus::Ok
        )
    };

    // The same 256 sweeps from the spawn points outwards, for both.
    let spawns: Vec<Vec3> = world.spawn_points().map(|s| s.player_origin).collect();
    let starts = if spawns.is_empty() {
        vec![Vec3::new(1024.0, 1024.0, 40.0)]
    } else {
        spawns
    };
    let sweeps: Vec<(Vec3, Vec3)> = (0..256)
        .map(|i| {
            let a = starts[i % starts.len()];
            let angle = i as f32 * 0.7;
            (
                a,
                a + Vec3::new(
                    angle.cos() * 400.0,
                    angle.sin() * 400.0,
                    (i % 5) as f32 * 20.0 - 40.0,
                ),
            )
        })
        .collect();
    let mask = Contents::MASK_PLAYER_SOLID;
    let bodies = Bodies::new();
    let mut g = c.benchmark_group("sweep_256");
    g.bench_function("rust", |b| {
        b.iter(|| {
            let scene = Scene {
                map: &world,
                movers: &[],
                bodies: &bodies,
            };
            for (s, e) in &sweeps {
                black_box(scene.trace(&shape, *s, *e, &QueryFilter::new(mask)));
            }
        })
    });
    g.bench_function("c_api", |b| {
        b.iter(|| {
            let mut out = PsTrace::default();
            for (s, e) in &sweeps {
                // SAFETY: a valid output.
                let status =
                    unsafe { ps_level_trace(level, ps_shape, v(*s), v(*e), mask.0, &mut out) };
                black_box((status, out));
            }
        })
    });
    g.finish();

    // Ticks: one character running in circles from the first start, in Rust and through
    // the API, each 200 ticks from the same start per iteration.
    let start = starts[0];
    let inputs: Vec<MoveInput> = (0..200)
        .map(|i| MoveInput {
            wish: Vec3::new((i as f32 * 0.05).cos(), (i as f32 * 0.05).sin(), 0.0),
            jump: i % 40 == 0,
            ..MoveInput::default()
        })
        .collect();
    let ps_inputs: Vec<PsMoveInput> = inputs
        .iter()
        .map(|m| PsMoveInput {
            wish: v(m.wish),
            jump: m.jump,
            ..PsMoveInput::default()
        })
        .collect();
    let mut config = PsConfig(0);
    // SAFETY: valid output.
    unsafe { assert_eq!(ps_config_default(&mut config), PsStatus::Ok) };
    let mut g = c.benchmark_group("tick_200");
    g.bench_function("rust", |b| {
        b.iter(|| {
            let mut ch =
                CharacterController::new(ControllerConfig::default(), start).expect("character");
            for m in &inputs {
                black_box(ch.step(&world, m));
            }
        })
    });
    g.bench_function("c_api", |b| {
        b.iter(|| {
            let mut ch = PsCharacter(0);
            // SAFETY: valid outputs and inputs.
            unsafe {
                assert_eq!(ps_character_new(config, v(start), &mut ch), PsStatus::Ok);
                let mut out = PsOutcome::default();
                for m in &ps_inputs {
                    black_box(ps_character_step(ch, level, m, &mut out));
                }
            }
            planeshift_c::character::ps_character_free(ch);
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
