//! Scenarios 81–84: prediction and replay. A serialized state restores bit for bit, a client
//! replaying a server's commands from its state agrees to the bit, network snapping, and
//! timers that count ticks (with commands of their own duration).

use glam::Vec3;
use planeshift::HitTarget;
use planeshift::ModelPlacement;
use planeshift::{
    ControllerConfig, MoveInput,
    movement::{CharacterState, Mover, NetworkSnap, WorldWithMovers},
};
use planeshift::{
    Crowd, CrowdConfig,
    movement::{Bodies, WorldWithBodies},
};

use super::*;

/// The state through JSON and back (floats as f32's shortest text, read back as f32).
fn round_trip(state: &CharacterState) -> CharacterState {
    let text = serde_json::to_string(state).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Every float and flag of a state, to the bit (`Debug` prints -0.0 and 0.0 apart).
fn bits(state: &CharacterState) -> String {
    format!("{state:?}")
}

#[test]
fn s81_replay_from_serialized_state() {
    // A floor and a wall whose face is y = 64; running at 60° into it slides along it.
    let world = boxes(&[
        ([-2048.0, -512.0, -16.0], [2048.0, 512.0, 0.0]),
        ([-2048.0, 64.0, 0.0], [2048.0, 128.0, 128.0]),
    ]);
    let input = run(heading(60.0));
    let mut whole = player(Vec3::new(-1000.0, 0.0, 0.0));
    for _ in 0..100 {
        whole.step(&world, &input);
    }
    let saved = whole.state().clone();
    assert!(
        !saved.walls.normals().is_empty(),
        "against the wall at tick 100"
    );
    let restored_state = round_trip(&saved);
    assert_eq!(
        bits(&restored_state),
        bits(&saved),
        "the round trip is exact"
    );
    let mut restored = CharacterController::new(ControllerConfig::default(), Vec3::ZERO).unwrap();
    assert!(restored.set_state(restored_state));
    for tick in 0..200 {
        let a = whole.step(&world, &input);
        let b = restored.step(&world, &input);
        assert_eq!(bits(whole.state()), bits(restored.state()), "tick {tick}");
        assert_eq!(a, b, "tick {tick}");
    }
    // -0.0 survives by its bits.
    let mut negative = saved.clone();
    negative.velocity = Vec3::new(-0.0, 0.0, -0.0);
    let back = round_trip(&negative);
    assert_eq!(back.velocity.x.to_bits(), (-0.0f32).to_bits());
    assert_eq!(back.velocity.y.to_bits(), 0.0f32.to_bits());
    // A state file cannot smuggle in a wall memory the controller could not have made.
    let text = serde_json::to_string(&saved).unwrap();
    let bad = text.replacen("\"walls\":[[", "\"walls\":[[7.0,0.0,0.0],[", 1);
    assert_ne!(bad, text);
    assert!(serde_json::from_str::<CharacterState>(&bad).is_err());
}

/// The lift's height at tick `t`: up and down 64 in 64 ticks.
fn lift_height(t: usize) -> f32 {
    let phase = (t % 64) as f32;
    if phase < 32.0 {
        phase * 2.0
    } else {
        (64.0 - phase) * 2.0
    }
}

/// Character 1's inputs: back and forth across the lift, jumping now and then.
fn walker(t: usize) -> MoveInput {
    MoveInput {
        wish: if (t / 75).is_multiple_of(2) {
            -Vec3::X
        } else {
            Vec3::X
        },
        jump: t.is_multiple_of(37),
        crouch: false,
        command: None,
    }
}

#[test]
fn s82_prediction_equals_the_server() {
    // crusher.map's plat bobs; character 1 walks away from it and back, character 2 paces
    // across 1's way. The server steps the crowd; the client restores 1's state of
    // tick 100 and replays ticks 101-120 with the same plat placements and 2's positions.
    let map = world("crusher");
    let lift = map
        .find_entities("func_plat")
        .find_map(|e| e.model())
        .unwrap();
    let pivot = map.models()[lift].origin;
    let place = |t: usize| ModelPlacement {
        offset: Vec3::Z * lift_height(t),
        ..ModelPlacement::default()
    };
    let other_input = |t: usize| MoveInput {
        wish: if (t / 30).is_multiple_of(2) {
            Vec3::Y * 0.2
        } else {
            -Vec3::Y * 0.2
        },
        ..MoveInput::default()
    };
    let mut server = Crowd::new(CrowdConfig::default());
    server.insert(1, player(Vec3::new(-120.0, 0.0, 0.0)));
    server.insert(2, player(Vec3::new(-250.0, 0.0, 0.0)));
    let mut states = Vec::new();
    let mut others = Vec::new();
    let mut met = false;
    for t in 1..=120 {
        let movers = [Mover {
            model: lift,
            placement: place(t),
        }];
        let world = WorldWithMovers {
            map,
            movers: &movers,
        };
        server.push_mover(&world, lift, pivot, &place(t - 1), &place(t));
        let b = server.get(2).unwrap();
        others.push((b.shape().clone(), b.shape_center()));
        server.step(
            &world,
            |id| if id == 1 { walker(t) } else { other_input(t) },
        );
        let outcome = server.outcome(1).unwrap();
        met |= outcome
            .tick
            .touches
            .as_slice()
            .iter()
            .any(|touch| touch.target == HitTarget::Character(2));
        states.push(server.get(1).unwrap().state().clone());
    }
    assert!(met, "the two never met; the test would not test bodies");
    let mut client = CharacterController::new(ControllerConfig::default(), Vec3::ZERO).unwrap();
    assert!(client.set_state(round_trip(&states[99])));
    for t in 101..=120 {
        let movers = [Mover {
            model: lift,
            placement: place(t),
        }];
        let world = WorldWithMovers {
            map,
            movers: &movers,
        };
        let (shape, at) = &others[t - 1];
        let mut bodies = Bodies::new();
        bodies.insert(2, shape, *at);
        let view = WorldWithBodies {
            world: &world,
            bodies: &bodies,
            mover: Some(1),
            ghosts: &[],
        };
        client.ride(&view, lift, pivot, &place(t - 1), &place(t));
        client.step(&view, &walker(t));
        assert_eq!(bits(client.state()), bits(&states[t - 1]), "tick {t}");
    }
}

const IDLE: MoveInput = MoveInput {
    wish: Vec3::ZERO,
    jump: false,
    crouch: false,
    command: None,
};

/// The highest the feet get above where they started in a standing jump on flat ground.
fn apex(tick: f32, snap: NetworkSnap) -> f32 {
    let world = boxes(&[([-512.0, -512.0, -16.0], [512.0, 512.0, 0.0])]);
    let config = ControllerConfig {
        tick,
        network_snap: snap,
        ..ControllerConfig::default()
    };
    let mut c = standing(config, Vec3::ZERO);
    settle(&mut c, &world);
    let start = feet(&c).z;
    let jump = MoveInput {
        jump: true,
        ..MoveInput::default()
    };
    let mut top = start;
    for k in 0..400 {
        c.step(&world, if k == 0 { &jump } else { &IDLE });
        top = top.max(feet(&c).z);
    }
    top - start
}

#[test]
fn s83_network_snapping() {
    // Quake 3's integer velocity: the apex moves with the tick rate.
    for (tick, expected) in [(0.008, 48.53), (0.016, 44.89), (0.003, 54.59)] {
        let got = apex(tick, NetworkSnap::Quake3Velocity);
        assert!((got - expected).abs() < 0.01, "{tick}: {got}");
    }
    // None: the exact parabola, 270² / 1600, within g·dt²/8.
    let exact = apex(0.008, NetworkSnap::None);
    assert!(
        (exact - 45.5625).abs() <= 800.0 * 0.008 * 0.008 / 8.0 + 1e-3,
        "{exact}"
    );
    // The rule is configuration, by name.
    let config = ControllerConfig::from_toml("network_snap = \"quake2_grid\"").unwrap();
    assert_eq!(config.network_snap, NetworkSnap::Quake2Grid);
    assert!(ControllerConfig::from_toml("network_snap = \"quake4\"").is_err());
    // Quake 2's grid: every tick ends on the 1/8 grid (origin and velocity) and never in
    // solid, on arena.map with seeded running and jumping.
    let map = world("arena");
    let config = ControllerConfig {
        network_snap: NetworkSnap::Quake2Grid,
        ..ControllerConfig::default()
    };
    let spawn = map.player_spawns().next().unwrap();
    let mut c = CharacterController::new(config, spawn).unwrap();
    let on_grid = |v: Vec3| (v * 8.0).to_array().iter().all(|x| x.fract() == 0.0);
    let mut rng = crate::support::Pcg32::new(83);
    let mut wish = Vec3::X;
    for tick in 0..3000 {
        if tick % 60 == 0 {
            let a = rng.range_f64(0.0, std::f64::consts::TAU) as f32;
            wish = Vec3::new(a.cos(), a.sin(), 0.0);
        }
        let input = MoveInput {
            wish,
            jump: rng.below(100) == 0,
            crouch: false,
            command: None,
        };
        c.step(map, &input);
        assert!(on_grid(c.velocity()), "tick {tick}: {}", c.velocity());
        assert!(on_grid(c.position()), "tick {tick}: {}", c.position());
        assert!(!c.overlaps(map), "tick {tick}");
    }
}

#[test]
fn s84_timers_count_ticks() {
    let world = boxes(&[([-4096.0, -512.0, -16.0], [4096.0, 512.0, 0.0])]);
    // A 200 ms hold covers 25 moves at 8 ms and 13 at 16 ms, as ticks of the configuration
    // and as 16 ms commands on an 8 ms configuration.
    let covered = |tick: f32, msec: Option<u32>| {
        let config = ControllerConfig {
            tick,
            ..ControllerConfig::default()
        };
        let mut c = standing(config, Vec3::ZERO);
        settle(&mut c, &world);
        c.apply_impulse(Vec3::X * 100.0, 0.2);
        let mut moves = 0;
        while c.state().hold_ticks > 0 {
            match msec {
                Some(ms) => c.step_msec(&world, &MoveInput::default(), ms),
                None => c.step(&world, &MoveInput::default()),
            };
            moves += 1;
        }
        moves
    };
    assert_eq!(covered(0.008, None), 25);
    assert_eq!(covered(0.016, None), 13);
    assert_eq!(covered(0.008, Some(16)), 13);
    // A 100 ms coyote window accepts presses up to 12 ticks after the last grounded one.
    let ledge = boxes(&[([-512.0, -512.0, -16.0], [0.0, 512.0, 0.0])]);
    let config = ControllerConfig {
        coyote_time: 0.1,
        ..ControllerConfig::default()
    };
    let jumps_after = |late: usize| {
        let mut c = standing(config, Vec3::new(-16.0, 0.0, 0.0));
        launch(&mut c, Vec3::X * 320.0);
        let mut airborne = 0;
        for _ in 0..200 {
            let jump = airborne == late && airborne > 0;
            let outcome = c.step(
                &ledge,
                &MoveInput {
                    jump,
                    ..run(Vec3::X)
                },
            );
            if outcome.jumped {
                return true;
            }
            if c.ground().state == GroundState::Walkable {
                airborne = 0;
            } else {
                airborne += 1;
            }
            if airborne > late + 1 {
                return false;
            }
        }
        false
    };
    assert!(jumps_after(12), "12 ticks after the ledge");
    assert!(!jumps_after(13), "13 ticks after the ledge");
    // No drift over 10,000 commands of 5 and 11 ms on an 8 ms configuration: a hold of
    // 10,000 ticks (80 s) ends exactly with the 10,000th.
    let mut c = player(Vec3::ZERO);
    settle(&mut c, &world);
    c.apply_impulse(Vec3::ZERO, 80.0);
    assert_eq!(c.state().hold_ticks, 10_000);
    for k in 0..10_000u32 {
        c.step_msec(
            &world,
            &MoveInput::default(),
            if k % 2 == 0 { 5 } else { 11 },
        );
        if k == 9_997 {
            assert_eq!(c.state().hold_ticks, 2);
        }
    }
    assert_eq!((c.state().hold_ticks, c.state().tick_carry_us), (0, 0));
}
