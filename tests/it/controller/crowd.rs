//! Scenarios 74–78: characters against characters in a [`Crowd`]: blocking, the Jolt
//! comparison, standing on a head, spawn overlaps, and many characters bit for bit under any
//! insertion order.

use glam::Vec3;
use planeshift::HitTarget;
use planeshift::{
    ControllerConfig, MoveInput,
    movement::{CharacterShape, GroundState},
};
use planeshift::{Crowd, CrowdConfig};

use super::*;

/// A crowd of default characters (Quake 3 boxes) standing with their feet on `feet`, ids
/// from 1.
fn crowd_of(feet: &[Vec3]) -> Crowd {
    let mut crowd = Crowd::new(CrowdConfig::default());
    for (k, f) in feet.iter().enumerate() {
        crowd.insert(k as u32 + 1, player(*f));
    }
    crowd
}

/// A floor 2048 square with its top at z 0.
fn floor() -> CompiledMap {
    boxes(&[([-1024.0, -1024.0, -16.0], [1024.0, 1024.0, 0.0])])
}

#[test]
fn s74_two_characters_never_overlap() {
    let world = floor();
    let run_at = |order: [usize; 2]| {
        let feet = [Vec3::new(-50.0, 0.0, 0.0), Vec3::new(50.0, 0.0, 0.0)];
        let mut crowd = Crowd::new(CrowdConfig::default());
        for k in order {
            let mut c = player(feet[k]);
            launch(&mut c, Vec3::X * if k == 0 { 320.0 } else { -320.0 });
            crowd.insert(k as u32 + 1, c);
        }
        let mut touched = [false; 2];
        for tick in 0..60 {
            crowd.step(&world, |id| run(if id == 1 { Vec3::X } else { -Vec3::X }));
            assert_eq!(crowd.overlapping_pairs(), 0, "tick {tick}");
            for (id, _, outcome) in crowd.iter() {
                let other = 3 - id;
                if outcome
                    .tick
                    .touches
                    .as_slice()
                    .iter()
                    .any(|t| t.target == HitTarget::Character(other))
                {
                    touched[id as usize - 1] = true;
                }
                assert!(outcome.overlapping.is_empty() && outcome.overlapped.is_empty());
            }
        }
        assert_eq!(touched, [true, true], "each lists the other in its touches");
        let a = crowd.get(1).unwrap().position();
        let b = crowd.get(2).unwrap().position();
        let gap = b.x - a.x;
        assert!(
            (gap - (30.0 + SKIN)).abs() <= SKIN / 2.0,
            "centres {gap} apart"
        );
        (
            a.to_array().map(f32::to_bits),
            b.to_array().map(f32::to_bits),
        )
    };
    assert_eq!(run_at([0, 1]), run_at([1, 0]), "either insertion order");
}

/// A capsule character of `radius`, 100 tall, whose feet rest on `feet`; `max_speed`
/// caps its run.
fn capsule(radius: f32, feet: Vec3, max_speed: f32) -> CharacterController {
    let config = ControllerConfig {
        shape: CharacterShape::Capsule { radius },
        stand_height: 100.0,
        crouch_height: 100.0,
        max_speed,
        ..ControllerConfig::default()
    };
    standing(config, feet)
}

#[test]
fn s75_jolt_character_against_character() {
    // Jolt's TestCharacterVsCharacter in centimetres: capsules of radius 20 at x = 0 and of
    // radius 30 at x = 100 (Jolt's 0.2 m and 0.3 m; its paddings have no counterpart here),
    // a wall behind the second. The first stops where the two touch, one stop distance
    // short: 100 - 50.
    let stop = 100.0 - 50.0 - SKIN;
    let walls = [
        ([-1024.0, -1024.0, -16.0], [1024.0, 1024.0, 0.0]),
        ([140.0, -1024.0, 0.0], [160.0, 1024.0, 200.0]),
    ];
    let world = boxes(&walls);
    let pair = |speed: f32, max_speed: f32| {
        let mut crowd = Crowd::new(CrowdConfig::default());
        let mut first = capsule(20.0, Vec3::ZERO, max_speed);
        launch(&mut first, Vec3::X * speed);
        crowd.insert(1, first);
        crowd.insert(2, capsule(30.0, Vec3::new(100.0, 0.0, 0.0), max_speed));
        crowd
    };
    // 60,000 units/s (Jolt's 600 m/s) for one tick: 480 units of travel stop at the other.
    let mut fast = pair(60_000.0, 320.0);
    fast.step(&world, |_| MoveInput::default());
    let c = fast.get(1).unwrap();
    assert!((c.position().x - stop).abs() < 1e-3, "{}", c.position());
    let outcome = fast.outcome(1).unwrap();
    assert!(
        outcome
            .tick
            .touches
            .as_slice()
            .iter()
            .any(|t| t.target == HitTarget::Character(2))
    );
    assert_eq!(c.ground().state, GroundState::Walkable, "on the floor");
    // 100 units/s (Jolt's 1 m/s) for a second: the same place.
    let mut slow = pair(0.0, 100.0);
    for _ in 0..125 {
        slow.step(&world, |id| {
            if id == 1 {
                run(Vec3::X)
            } else {
                MoveInput::default()
            }
        });
    }
    let x = slow.get(1).unwrap().position().x;
    assert!((x - stop).abs() < 1e-3, "{x}");
    // A wall of half width 10 at x = 50 between them: stopped by the wall at 50 - 10 - 20.
    let walls = [
        ([-1024.0, -1024.0, -16.0], [1024.0, 1024.0, 0.0]),
        ([40.0, -1024.0, 0.0], [60.0, 1024.0, 200.0]),
        ([140.0, -1024.0, 0.0], [160.0, 1024.0, 200.0]),
    ];
    let world = boxes(&walls);
    let mut blocked = pair(60_000.0, 320.0);
    blocked.step(&world, |_| MoveInput::default());
    let x = blocked.get(1).unwrap().position().x;
    assert!((x - (20.0 - SKIN)).abs() < 1e-3, "{x}");
}

#[test]
fn s76_standing_on_a_head() {
    let world = floor();
    // B (id 2) dropped onto A (id 1) from 100 above its head.
    let mut crowd = crowd_of(&[Vec3::ZERO, Vec3::new(0.0, 0.0, 156.0)]);
    let mut on_head = None;
    for tick in 0..125 {
        crowd.step(&world, |_| MoveInput::default());
        assert_eq!(crowd.overlapping_pairs(), 0, "tick {tick}");
        let b = crowd.get(2).unwrap();
        if b.ground().is_walkable() {
            on_head = Some(tick);
            break;
        }
    }
    assert!(on_head.is_some(), "B never landed");
    let b = crowd.get(2).unwrap();
    assert_eq!(
        b.ground().target,
        Some(HitTarget::Character(1)),
        "B's ground is A"
    );
    let b_start = b.position();
    // A walks away at 320; B is not carried, falls to the floor, never overlaps A.
    for tick in 0..125 {
        crowd.step(&world, |id| {
            if id == 1 {
                run(Vec3::X)
            } else {
                MoveInput::default()
            }
        });
        assert_eq!(crowd.overlapping_pairs(), 0, "tick {tick}");
        let b = crowd.get(2).unwrap();
        assert_eq!(
            (b.position().x, b.position().y),
            (b_start.x, b_start.y),
            "tick {tick}: carried"
        );
    }
    let b = crowd.get(2).unwrap();
    assert_eq!(b.ground().target, Some(HitTarget::World), "on the floor");
    assert!((feet(b).z - SKIN).abs() < 1e-3, "{}", feet(b));
}

#[test]
fn s77_spawned_overlapping_are_reported_and_separated_never_through_a_wall() {
    // A corridor 48 wide along x: two characters created at one origin can only part along it.
    let world = boxes(&[
        ([-1024.0, -64.0, -16.0], [1024.0, 64.0, 0.0]),
        ([-1024.0, -64.0, 0.0], [1024.0, -24.0, 128.0]),
        ([-1024.0, 24.0, 0.0], [1024.0, 64.0, 128.0]),
    ]);
    let mut crowd = crowd_of(&[Vec3::ZERO, Vec3::ZERO]);
    crowd.step(&world, |_| MoveInput::default());
    for (id, c, outcome) in crowd.iter() {
        assert_eq!(
            outcome.overlapped.as_slice(),
            &[3 - id],
            "{id} reports the other"
        );
        assert!(
            outcome.overlapping.is_empty(),
            "{id}: separated within the tick"
        );
        assert!(!c.overlaps(&world), "{id} inside a wall");
        assert!(
            c.position().y.abs() < 9.0 + 1e-3,
            "{id} left the corridor: {}",
            c.position()
        );
    }
    assert!(
        crowd.outcome(1).unwrap().separated.is_none(),
        "the lower id stays"
    );
    assert!(crowd.outcome(2).unwrap().separated.is_some());
    assert_eq!(crowd.overlapping_pairs(), 0);
    crowd.step(&world, |_| MoveInput::default());
    for (_, _, outcome) in crowd.iter() {
        assert!(
            outcome.overlapped.is_empty(),
            "the report stops once they part"
        );
    }
    // Boxed in on every side (a closet one character wide, under a ceiling too low for one
    // to stand on the other's head: 96 against two heights of 56 and the spacing's margin):
    // no free spot, so they stay together, reported every tick, and pass through each other
    // until they part.
    let closet = square_room(16.0, 64.0, 96.0);
    let mut stuck = crowd_of(&[Vec3::ZERO, Vec3::ZERO]);
    for _ in 0..3 {
        stuck.step(&closet, |_| MoveInput::default());
        for (id, c, outcome) in stuck.iter() {
            assert_eq!(outcome.overlapping.as_slice(), &[3 - id]);
            assert!(!c.overlaps(&closet) && !outcome.tick.stuck, "{id}");
        }
    }
}

#[test]
fn a_crowd_spawned_on_one_point_spreads_over_the_floor_within_its_room() {
    // box_room.map is 512 square inside: 64 characters created on its one start are all
    // separated on the first tick, on the floor, inside the room, none in another.
    let (crowd, map) = box_room_pile(64);
    assert_eq!(crowd.len(), 64);
    assert_eq!(crowd.overlapping_pairs(), 0);
    let mut moved = 0;
    for (id, c, outcome) in crowd.iter() {
        assert!(outcome.overlapping.is_empty(), "{id}");
        assert!(!c.overlaps(map), "{id}");
        let p = c.position();
        assert!(
            p.x.abs() < 256.0 - 15.0 && p.y.abs() < 256.0 - 15.0,
            "{id} at {p}"
        );
        assert!((feet(c).z).abs() < 1.0, "{id} off the floor at {p}");
        moved += usize::from(outcome.separated.is_some());
    }
    assert_eq!(moved, 63, "all but the lowest id moved");
}

#[test]
fn a_spawn_in_its_floor_under_a_head_is_lifted_and_the_head_moved() {
    // Regression from the 64-bot soak on lqdm13 (seed 2): a bot respawned on a spawn point
    // whose box touches the floor (so its tick must lift it 1/8 out) while another stood
    // one stop distance above its head (on the head of the spawn's previous occupant, who
    // was separated away): every lift hit that one, and the bot stayed in the floor, stuck,
    // for 400 ticks. Now the spawn is lifted out of the world first and the one above,
    // which it then overlaps, is separated.
    let world = floor();
    let config = ControllerConfig::default();
    let mut crowd = Crowd::new(CrowdConfig::default());
    crowd.insert(
        1,
        CharacterController::new(config, Vec3::new(0.0, 0.0, 24.0)).unwrap(),
    );
    assert!(
        crowd.get(1).unwrap().overlaps(&world),
        "the spawn touches its floor"
    );
    crowd.insert(2, standing(config, Vec3::new(0.0, 0.0, 56.0)));
    crowd.step(&world, |_| MoveInput::default());
    let c = crowd.get(1).unwrap();
    let outcome = crowd.outcome(1).unwrap();
    assert!(
        !outcome.tick.stuck && !c.overlaps(&world),
        "{}",
        c.position()
    );
    assert!(crowd.outcome(2).unwrap().separated.is_some());
    assert_eq!(crowd.overlapping_pairs(), 0);
}

#[test]
fn pushing_is_configuration() {
    // A runner at 320 into a character standing still: Quake's crowd blocks it (the other
    // stays put); with pushing, the other is shoved along and they still never overlap.
    let world = floor();
    let shoved = |push: Option<f32>| {
        let mut crowd = Crowd::new(CrowdConfig {
            push,
            ..CrowdConfig::default()
        });
        let mut runner = player(Vec3::new(-100.0, 0.0, 0.0));
        launch(&mut runner, Vec3::X * 320.0);
        crowd.insert(1, runner);
        crowd.insert(2, player(Vec3::ZERO));
        for tick in 0..125 {
            crowd.step(&world, |id| {
                if id == 1 {
                    run(Vec3::X)
                } else {
                    MoveInput::default()
                }
            });
            assert_eq!(crowd.overlapping_pairs(), 0, "tick {tick}");
        }
        crowd.get(2).unwrap().position().x
    };
    assert_eq!(shoved(None), 0.0);
    assert_eq!(shoved(Some(0.0)), 0.0);
    let pushed = shoved(Some(1.0));
    assert!(pushed > 50.0, "pushed only {pushed}");
}

/// Seeded inputs for character `id` at `tick`: a wish held for 40 ticks, jumps now and then.
fn seeded_input(seed: u64, id: u32, tick: usize) -> MoveInput {
    let mut rng = crate::support::Pcg32::new(seed ^ u64::from(id) << 32 ^ (tick / 40) as u64);
    let angle = rng.range_f64(0.0, std::f64::consts::TAU) as f32;
    let mut jump_rng = crate::support::Pcg32::new(seed ^ u64::from(id) << 40 ^ tick as u64);
    MoveInput {
        wish: Vec3::new(angle.cos(), angle.sin(), 0.0),
        jump: jump_rng.below(200) == 0,
        crouch: false,
        command: None,
    }
}

#[test]
fn s78_many_characters_bit_identical_under_any_order() {
    // 64 characters spawned on arena.map's starts, seeded inputs, 10,000 ticks: never an
    // overlapping pair at a tick's end, and the same bits whatever order they were added in.
    let map = world("arena");
    let spawns: Vec<Vec3> = map.player_spawns().collect();
    let run_with = |order: &[u32]| {
        let mut crowd = Crowd::new(CrowdConfig::default());
        for &id in order {
            let at = spawns[id as usize % spawns.len()];
            crowd.insert(
                id,
                CharacterController::new(ControllerConfig::default(), at).unwrap(),
            );
        }
        let (mut overlaps, mut met) = (0, 0);
        for tick in 0..10_000 {
            crowd.step(map, |id| seeded_input(78, id, tick));
            overlaps += crowd.overlapping_pairs();
            met += crowd
                .iter()
                .filter(|(_, _, o)| {
                    o.tick
                        .touches
                        .as_slice()
                        .iter()
                        .any(|t| matches!(t.target, HitTarget::Character(_)))
                })
                .count();
        }
        assert!(met > 1000, "the characters met {met} times");
        let states: Vec<[u32; 6]> = crowd
            .iter()
            .map(|(_, c, _)| {
                let (p, v) = (c.position(), c.velocity());
                [p.x, p.y, p.z, v.x, v.y, v.z].map(f32::to_bits)
            })
            .collect();
        (overlaps, states)
    };
    let ids: Vec<u32> = (0..64).collect();
    let mut shuffled = ids.clone();
    let mut rng = crate::support::Pcg32::new(78);
    for i in (1..shuffled.len()).rev() {
        shuffled.swap(i, rng.below(i + 1));
    }
    let (overlaps, first) = run_with(&ids);
    assert_eq!(overlaps, 0);
    let (_, second) = run_with(&shuffled);
    assert_eq!(first, second, "insertion order changed the run");
}
