//! The parallel crowd step ([`Crowd::step_parallel`]) gives exactly the bits of the
//! sequential one ([`Crowd::step`]): crowds of bots piled on the spawn points of real maps
//! (`e1m2`, `dm4`, `e4m1`, and `hl_currents`, whose currents pin swimmers into piles), with
//! seeded inputs, colliding, with pushing off and on, and a few spectators passing through;
//! every tick every character's position and velocity bits, state and outcome are compared
//! between a rayon pool of 2 threads and the sequential step. The test also fails if the
//! parallel plan never ran (every tick redone in order, or never more than one character in
//! a wave).
//!
//! Takes the maps under `$PLANESHIFT_REAL_MAPS` (skipped, with a message, when missing);
//! gives a pass or the first tick and character that differ.

use glam::Vec3;
use planeshift::HitTarget;
use planeshift::movement::MoveMode;
use planeshift::{Crowd, CrowdConfig};

use super::*;
use crate::support::{read, real_maps_dir};

/// Bots per map: above `PARALLEL_MIN_CHARACTERS`, piled several to a spawn point.
const BOTS: u32 = 128;

/// Ticks per map and configuration: 120 (about 1 s at 125 Hz), and 300 (2.4 s) with
/// `PLANESHIFT_FULL` (`support::cases`); either way over 100,000 character ticks in all.
fn ticks() -> usize {
    crate::support::cases(120, 300)
}

/// Every this many ids, a spectator (fly mode), which passes through the others.
const SPECTATOR_EVERY: u32 = 23;

/// Seeded inputs for bot `id` at `tick`: a wish held for 40 ticks, a jump now and then, a
/// crouch sometimes.
fn input(id: u32, tick: usize) -> MoveInput {
    let mut rng = crate::support::Pcg32::new(0x18 ^ u64::from(id) << 32 ^ (tick / 40) as u64);
    let angle = rng.range_f64(0.0, std::f64::consts::TAU) as f32;
    let crouch = rng.below(7) == 0;
    let mut jump_rng = crate::support::Pcg32::new(0x18 ^ u64::from(id) << 40 ^ tick as u64);
    MoveInput {
        wish: Vec3::new(angle.cos(), angle.sin(), 0.0),
        jump: jump_rng.below(100) == 0,
        crouch,
        command: None,
    }
}

/// The bits of everything a tick gives a character.
fn bits(crowd: &Crowd) -> Vec<(u32, [u32; 6], String)> {
    crowd
        .iter()
        .map(|(id, c, o)| {
            let (p, v) = (c.position(), c.velocity());
            // Debug prints every float's shortest round trip: a changed bit changes it.
            (
                id,
                [p.x, p.y, p.z, v.x, v.y, v.z].map(f32::to_bits),
                format!("{:?} {:?}", c.state(), o),
            )
        })
        .collect()
}

#[test]
fn the_parallel_crowd_step_gives_the_sequential_bits_on_real_maps() {
    let Some(dir) = real_maps_dir("the_parallel_crowd_step_gives_the_sequential_bits_on_real_maps")
    else {
        return;
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let maps = [
        "id-quake-1996/e1m2.map",
        "id-quake-1996/dm4.map",
        "id-quake-1996/e4m1.map",
        "ericw-tools/hl_currents.map",
    ];
    let ticks = ticks();
    let mut character_ticks = 0;
    for name in maps {
        let bytes = read(&dir.join(name));
        let world = crate::support::compile(&bytes).map;
        let spawns: Vec<Vec3> = planeshift::map::parse_map(&bytes)
            .unwrap()
            .player_spawns()
            .map(|o| o.as_vec3())
            .collect();
        assert!(!spawns.is_empty(), "{name}");
        for push in [None, Some(0.5)] {
            let mut one = Crowd::new(CrowdConfig {
                push,
                ..CrowdConfig::default()
            });
            for id in 0..BOTS {
                let at = spawns[id as usize % spawns.len()];
                let mut c = CharacterController::new(ControllerConfig::default(), at).unwrap();
                if id % SPECTATOR_EVERY == SPECTATOR_EVERY - 1 {
                    c.set_mode(MoveMode::Fly);
                }
                one.insert(id, c);
            }
            let mut two = one.clone();
            let (mut planned, mut redone, mut widest, mut met) = (0, 0, 0, 0);
            for tick in 0..ticks {
                one.step(&world, |id| input(id, tick));
                pool.install(|| two.step_parallel(&world, |id| input(id, tick)));
                let plan = *two.schedule();
                assert_eq!(plan.threads, 2);
                if plan.redone {
                    redone += 1;
                } else if plan.waves > 0 {
                    planned += 1;
                    widest = widest.max(plan.widest);
                }
                met += two
                    .iter()
                    .filter(|(_, _, o)| {
                        o.tick
                            .touches
                            .as_slice()
                            .iter()
                            .any(|t| matches!(t.target, HitTarget::Character(_)))
                    })
                    .count();
                let (a, b) = (bits(&one), bits(&two));
                if a != b {
                    let k = a.iter().zip(&b).position(|(x, y)| x != y).unwrap();
                    panic!(
                        "{name} push {push:?} tick {tick}: character {} differs\n sequential {:?}\n parallel   {:?}",
                        a[k].0, a[k], b[k]
                    );
                }
                character_ticks += BOTS as usize;
            }
            println!(
                "{name} push {push:?}: {planned} ticks in parallel waves (widest {widest}), {redone} redone in order, {met} character ticks met another"
            );
            assert!(
                planned > ticks / 2 && widest >= 2,
                "{name}: the parallel plan ran {planned} of {ticks} ticks, widest wave {widest}"
            );
            assert!(met > 100, "{name}: the bots met only {met} times");
        }
    }
    assert!(character_ticks >= 100_000, "{character_ticks}");
}
