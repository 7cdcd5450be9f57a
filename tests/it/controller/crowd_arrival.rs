//! Arrivals onto others ([`Arrival`]): a pile of 1,000 characters on one spawn point
//! separated in the tick they arrive, each no farther than the ring of free spots around
//! the point needs; Quake 3's telefrag killing exactly the characters the arrival overlaps;
//! the same bits whatever the insertion order and the thread count.

use std::time::Instant;

use glam::Vec3;
use planeshift::movement::{Arrival, MoveMode, Telefrag};
use planeshift::{Crowd, CrowdConfig, MoveInput};

use super::*;

/// A floor 2048 square with its top at z 0.
fn floor() -> CompiledMap {
    boxes(&[([-1024.0, -1024.0, -16.0], [1024.0, 1024.0, 0.0])])
}

/// The pile's size.
const PILE: u32 = 1_000;

/// `count` default characters, ids from 0, all with their feet on `feet`, inserted in
/// `order`.
fn pile(config: CrowdConfig, feet: Vec3, ids: impl Iterator<Item = u32>) -> Crowd {
    let mut crowd = Crowd::new(config);
    for id in ids {
        crowd.insert(id, player(feet));
    }
    crowd
}

/// The smallest Manhattan radius of grid cells around a point that holds `n` cells:
/// `2r² + 2r + 1 >= n`.
fn ring_radius(n: u32) -> u32 {
    (0..).find(|r| 2 * r * r + 2 * r + 1 >= n).unwrap_or(0)
}

#[test]
fn an_arrival_onto_a_room_packed_to_its_walls_is_put_on_a_head() {
    // Regression from 10,000 bots scattered on e2m2: a respawn onto a spawn point whose
    // room was packed found no free floor spot and stayed in another bot for two ticks.
    // Here a room 160 square inside holds 5 × 5 characters 32 apart (2 units between
    // boxes 30 wide: no box fits anywhere on its floor); one more arrives on the middle
    // one and is put on top of it, the tick it arrives, then stands on its head.
    let world = square_room(80.0, 96.0, 256.0);
    let mut crowd = Crowd::new(CrowdConfig::default());
    let rows = [-64.0, -32.0, 0.0, 32.0, 64.0];
    let mut id = 0;
    for x in rows {
        for y in rows {
            crowd.insert(id, player(Vec3::new(x, y, 0.0)));
            id += 1;
        }
    }
    crowd.step(&world, |_| MoveInput::default());
    assert_eq!(crowd.overlapping_pairs(), 0, "the packed room itself");
    let middle = 12;
    let before = crowd.get(middle).unwrap().position();
    assert_eq!((before.x, before.y), (0.0, 0.0));
    crowd.insert(100, player(Vec3::ZERO));
    crowd.step(&world, |_| MoveInput::default());
    assert_eq!(
        crowd.overlapping_pairs(),
        0,
        "separated the tick it arrived"
    );
    let outcome = crowd.outcome(100).unwrap();
    assert_eq!(outcome.overlapped.as_slice(), &[middle]);
    let moved = outcome.separated.expect("the arrival moved");
    assert!(
        moved.z > 56.0 && moved.truncate().length() < 1.0,
        "straight up onto the head: {moved}"
    );
    assert_eq!(
        crowd.get(middle).unwrap().position(),
        before,
        "the lower id stays"
    );
    for tick in 0..50 {
        crowd.step(&world, |_| MoveInput::default());
        assert_eq!(crowd.overlapping_pairs(), 0, "tick {tick}");
    }
    let top = crowd.get(100).unwrap();
    assert_eq!(
        top.ground().target,
        Some(planeshift::HitTarget::Character(middle)),
        "stands on the middle one's head at {}",
        top.position()
    );
    assert!(!top.overlaps(&world));
}

#[test]
fn a_pile_larger_than_its_rooms_floor_is_separated_in_layers() {
    // box_room.map's floor (512 square inside) holds 17 × 17 characters on the flood's grid:
    // 400 created on its one start are all apart after one tick, those the floor cannot
    // hold in layers over the heads, none in a wall or the ceiling, and stay apart as they
    // settle (before the layers, 36 pairs of 300 and 5,886 of 400 stayed overlapping).
    let (mut crowd, map) = box_room_pile(400);
    assert_eq!(crowd.len(), 400);
    assert_eq!(crowd.overlapping_pairs(), 0, "apart after one tick");
    let mut layered = 0;
    for (id, c, _) in crowd.iter() {
        assert!(!c.overlaps(map), "{id} in the world at {}", c.position());
        let p = c.position();
        assert!(
            p.x.abs() < 256.0 - 15.0 && p.y.abs() < 256.0 - 15.0,
            "{id} at {p}"
        );
        layered += usize::from(feet(c).z > 1.0);
    }
    assert!(layered >= 400 - 17 * 17, "{layered} over the heads");
    for tick in 0..20 {
        crowd.step(map, |_| MoveInput::default());
        assert_eq!(crowd.overlapping_pairs(), 0, "tick {tick}");
    }
}

#[test]
fn a_pile_of_1000_on_one_spawn_point_is_separated_in_one_tick() {
    let world = floor();
    let spawn = Vec3::new(100.0, -50.0, 0.0);
    let mut crowd = pile(CrowdConfig::default(), spawn, 0..PILE);
    assert!(crowd.overlapping_pairs() > 400_000);
    let started = Instant::now();
    crowd.step(&world, |_| MoveInput::default());
    let took = started.elapsed();
    assert_eq!(crowd.overlapping_pairs(), 0, "pairs still overlapping");
    // The flood's grid: a box's half width and the widest body's, and the margin.
    let spacing = 15.0 + 15.0 + 2.0 * SKIN;
    let bound = ring_radius(PILE) as f32 * spacing;
    let mut farthest = 0.0f32;
    for (id, c, outcome) in crowd.iter() {
        assert!(
            !Tracer::overlaps(
                &world,
                &planeshift::movement::ShapeQuery::new(c.shape()),
                c.shape_center()
            ),
            "{id} in the world"
        );
        assert!(outcome.overlapping.is_empty(), "{id}");
        assert!(!outcome.overlapped.is_empty(), "{id} reports its overlap");
        assert_eq!(
            outcome.separated.is_some(),
            id != 0,
            "{id}: the lowest id stays"
        );
        assert!(c.ground().is_walkable(), "{id} stands on the floor");
        let moved = (c.position() - (spawn + Vec3::Z * 24.0))
            .truncate()
            .length();
        farthest = farthest.max(moved);
        assert!(
            moved <= bound + 0.01,
            "{id} moved {moved}, beyond the ring {bound}"
        );
    }
    println!(
        "{PILE} on one point: separated in one tick of {:.1} ms, the farthest {farthest:.1} \
         units away (ring {bound:.1})",
        took.as_secs_f64() * 1e3
    );
    // The tick after: nobody overlaps, nobody is separated again.
    crowd.step(&world, |_| MoveInput::default());
    assert_eq!(crowd.overlapping_pairs(), 0);
    assert!(crowd.iter().all(|(_, _, o)| o.separated.is_none()));
}

#[test]
fn telefrag_kills_exactly_the_characters_the_arrival_overlaps() {
    let world = floor();
    // A row of five standing 24 apart along x (each box 30 wide: neighbours overlap when
    // anyone lands among them): put apart by a first tick.
    let mut crowd = Crowd::new(CrowdConfig {
        arrival: Arrival::Telefrag,
        ..CrowdConfig::default()
    });
    for k in 0..5u32 {
        crowd.insert(k + 1, player(Vec3::new(k as f32 * 40.0, 0.0, 0.0)));
    }
    crowd.step(&world, |_| MoveInput::default());
    assert!(crowd.telefrags().is_empty());
    assert_eq!(crowd.overlapping_pairs(), 0);
    // An arrival between 2 and 3 (x 40 and 80), overlapping both and nobody else.
    let arrival = player(Vec3::new(60.0, 0.0, 0.0));
    let mut expected = Vec::new();
    crowd.overlapping_at_into(arrival.shape(), arrival.shape_center(), None, &mut expected);
    assert_eq!(expected, [2, 3]);
    crowd.insert(9, arrival);
    crowd.step(&world, |_| MoveInput::default());
    let killed: Vec<u32> = crowd.telefrags().iter().map(|t| t.victim).collect();
    assert_eq!(killed, expected);
    assert!(crowd.telefrags().iter().all(|t| t.by == 9));
    for (id, c, _) in crowd.iter() {
        let dead = c.mode() == MoveMode::Dead;
        assert_eq!(dead, expected.contains(&id), "{id}");
    }
    assert_eq!(crowd.overlapping_pairs(), 0);
    assert!(
        crowd.get(9).is_some_and(|c| c.position().x == 60.0),
        "the arrival stays"
    );
    // The next tick kills nobody.
    crowd.step(&world, |_| MoveInput::default());
    assert!(crowd.telefrags().is_empty());

    // A pile under telefrag: the lowest id kills every other, however many.
    let mut crowd = pile(
        CrowdConfig {
            arrival: Arrival::Telefrag,
            ..CrowdConfig::default()
        },
        Vec3::ZERO,
        0..PILE,
    );
    crowd.step(&world, |_| MoveInput::default());
    let expected: Vec<Telefrag> = (1..PILE).map(|victim| Telefrag { by: 0, victim }).collect();
    assert_eq!(crowd.telefrags(), expected.as_slice());
    assert_eq!(crowd.overlapping_pairs(), 0);
}

/// Every character's state and outcome, bit for bit (Debug prints every float's shortest
/// round trip).
fn bits(crowd: &Crowd) -> Vec<String> {
    crowd
        .iter()
        .map(|(id, c, o)| format!("{id} {:?} {:?}", c.state(), o))
        .collect()
}

#[test]
fn separation_of_a_pile_is_the_same_bits_whatever_the_order_and_threads() {
    let world = floor();
    let count = 300;
    let config = CrowdConfig::default();
    let walk = |id: u32| run(heading(id as f32 * 37.0));
    let mut forward = pile(config, Vec3::ZERO, 0..count);
    let mut backward = pile(config, Vec3::ZERO, (0..count).rev());
    #[cfg(feature = "parallel")]
    let mut parallel = forward.clone();
    #[cfg(feature = "parallel")]
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    for tick in 0..20 {
        forward.step(&world, walk);
        backward.step(&world, walk);
        assert_eq!(bits(&forward), bits(&backward), "tick {tick}");
        #[cfg(feature = "parallel")]
        {
            pool.install(|| parallel.step_parallel(&world, walk));
            assert_eq!(bits(&forward), bits(&parallel), "tick {tick}");
        }
        assert_eq!(forward.overlapping_pairs(), 0, "tick {tick}");
    }
}
