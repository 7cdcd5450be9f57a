//! Scenarios 79 and 80: movers that cannot push a character say so (`Ride::Blocked`,
//! `MoverPush::Blocked` naming it), leave it exactly where it was, and never leave it inside
//! (`maps/crusher.map`).

use glam::Vec3;
use planeshift::ModelPlacement;
use planeshift::movement::{Mover, MoverPush, Ride, WorldWithMovers};
use planeshift::{Crowd, CrowdConfig, MoveInput};

use super::*;

/// The model of the first entity of class `classname`.
fn model_of(map: &CompiledMap, classname: &str) -> usize {
    map.find_entities(classname)
        .find_map(|e| e.model())
        .unwrap_or_else(|| panic!("no {classname}"))
}

/// Model `model` moved by `offset`.
fn at(offset: Vec3) -> ModelPlacement {
    ModelPlacement {
        offset,
        ..ModelPlacement::default()
    }
}

fn with_mover<'a>(map: &'a CompiledMap, movers: &'a [Mover; 1]) -> WorldWithMovers<'a> {
    WorldWithMovers { map, movers }
}

#[test]
fn s79_crushing_mover_reported() {
    // crusher.map: a plat whose top is at z 16 rises 10 a move under a ceiling 104 above it.
    let map = world("crusher");
    let lift = model_of(map, "func_plat");
    let pivot = map.models()[lift].origin;
    let mut c = player(Vec3::new(0.0, 0.0, 16.0));
    settle(
        &mut c,
        &with_mover(
            map,
            &[Mover {
                model: lift,
                placement: at(Vec3::ZERO),
            }],
        ),
    );
    assert_eq!(c.ground().target, Some(planeshift::HitTarget::Model(lift)));
    let mut rides = Vec::new();
    let mut height = 0.0;
    for _ in 0..8 {
        let (before, after) = (at(Vec3::Z * height), at(Vec3::Z * (height + 10.0)));
        let movers = [Mover {
            model: lift,
            placement: after,
        }];
        let world = with_mover(map, &movers);
        let state = c.state().clone();
        let ride = c.ride(&world, lift, pivot, &before, &after);
        rides.push(ride);
        if ride == Ride::Blocked {
            // Unchanged to the bit, and free of the mover where it was.
            assert_eq!(c.state().clone(), state);
            let old = [Mover {
                model: lift,
                placement: before,
            }];
            assert!(!c.overlaps(&with_mover(map, &old)));
            // The game puts the mover back: the next tick is not stuck.
            let outcome = c.step(&with_mover(map, &old), &MoveInput::default());
            assert!(!outcome.stuck && !c.overlaps(&with_mover(map, &old)));
            break;
        }
        assert!(!c.overlaps(&world), "inside after a {ride:?}");
        c.step(&world, &MoveInput::default());
        assert!(!c.overlaps(&world));
        height += 10.0;
    }
    assert_eq!(
        rides,
        [
            Ride::Carried,
            Ride::Carried,
            Ride::Carried,
            Ride::Carried,
            Ride::Blocked
        ]
    );
    // headroom 104 - 40 = 64 ≥ 56 after four; 54 < 56 on the fifth.
    assert!(
        (feet(&c).z - (16.0 + 40.0 + SKIN)).abs() < 1e-3,
        "{}",
        feet(&c)
    );

    // The same through a crowd: the blocked push names the character, and everyone is back.
    let mut crowd = Crowd::new(CrowdConfig::default());
    let mut rider = player(Vec3::new(0.0, 0.0, 16.0));
    settle(
        &mut rider,
        &with_mover(
            map,
            &[Mover {
                model: lift,
                placement: at(Vec3::ZERO),
            }],
        ),
    );
    crowd.insert(7, rider);
    crowd.insert(3, player(Vec3::new(-300.0, 0.0, 0.0)));
    let mut height = 0.0;
    let blocked = loop {
        let (before, after) = (at(Vec3::Z * height), at(Vec3::Z * (height + 10.0)));
        let movers = [Mover {
            model: lift,
            placement: after,
        }];
        let world = with_mover(map, &movers);
        let was = crowd.get(7).unwrap().state().clone();
        match crowd.push_mover(&world, lift, pivot, &before, &after) {
            MoverPush::Moved { carried, pushed } => assert_eq!((carried, pushed), (1, 0)),
            MoverPush::Blocked { character } => {
                assert_eq!(crowd.get(7).unwrap().state().clone(), was);
                break character;
            }
        }
        crowd.step(&world, |_| MoveInput::default());
        height += 10.0;
        assert!(height < 100.0, "never blocked");
    };
    assert_eq!(blocked, 7);
}

#[test]
fn s80_pusher_against_a_wall() {
    // crusher.map: a door slab (x 128..144) slides +x at 100 u/s towards a character standing
    // 40 in front of the wall whose face is x = 240.
    let map = world("crusher");
    let door = model_of(map, "func_door");
    let pivot = map.models()[door].origin;
    let mut c = player(Vec3::new(185.0, 0.0, 0.0));
    let rest = [Mover {
        model: door,
        placement: at(Vec3::ZERO),
    }];
    settle(&mut c, &with_mover(map, &rest));
    let step = 100.0 * 0.008;
    let mut offset = 0.0;
    let mut rides = Vec::new();
    for tick in 0..400 {
        let (before, after) = (at(Vec3::X * offset), at(Vec3::X * (offset + step)));
        let movers = [Mover {
            model: door,
            placement: after,
        }];
        let world = with_mover(map, &movers);
        let state = c.state().clone();
        let ride = c.ride(&world, door, pivot, &before, &after);
        if rides.last() != Some(&ride) {
            rides.push(ride);
        }
        if ride == Ride::Blocked {
            assert_eq!(c.state().clone(), state, "tick {tick}");
            // Flush with the wall, one stop distance off it.
            let front = c.position().x + 15.0;
            assert!(
                (front - (240.0 - SKIN)).abs() < 0.1,
                "tick {tick}: front at {front}"
            );
            let old = [Mover {
                model: door,
                placement: before,
            }];
            assert!(!c.overlaps(&with_mover(map, &old)));
            break;
        }
        assert!(!c.overlaps(&world), "tick {tick}: inside door or wall");
        c.step(&world, &MoveInput::default());
        assert!(!c.overlaps(&world), "tick {tick}");
        offset += step;
    }
    assert_eq!(rides, [Ride::NotInvolved, Ride::Pushed, Ride::Blocked]);
}

#[test]
fn movers_push_only_the_characters_they_touch() {
    // crusher.map: the door slab (x 128..144, y −64..64) slides +x towards the wall whose
    // face is x = 240 (y −128..128). One character stands flush against that wall at y 100,
    // out of the slab's path; another flush against the plat's side (x −64), far from the
    // door; a third 40 in front of the wall, in the slab's path. Only the third is pushed,
    // and the push is blocked naming it; the others never move (Quake 3 `G_MoverPush` tests
    // the pusher, not whatever a character touches).
    let map = world("crusher");
    let door = model_of(map, "func_door");
    let plat = model_of(map, "func_plat");
    let pivot = map.models()[door].origin;
    let movers_at = |offset: f32| {
        [
            Mover {
                model: plat,
                placement: at(Vec3::ZERO),
            },
            Mover {
                model: door,
                placement: at(Vec3::X * offset),
            },
        ]
    };
    let against_wall = player(Vec3::new(240.0 - 15.0, 100.0, 0.0));
    let against_plat = player(Vec3::new(-64.0 - 15.0, 0.0, 0.0));
    let rest = movers_at(0.0);
    let rest_world = WorldWithMovers { map, movers: &rest };
    // Both touch something (touching counts as overlapping), neither touches the door.
    assert!(against_wall.overlaps(&rest_world) && against_plat.overlaps(&rest_world));

    // One character through `ride`, every placement of the door on its way to the wall.
    let step = 100.0 * 0.008;
    for mut c in [against_wall.clone(), against_plat.clone()] {
        let state = c.state().clone();
        let mut offset: f32 = 0.0;
        while offset < 120.0 {
            let movers = movers_at(offset + step);
            let world = WorldWithMovers {
                map,
                movers: &movers,
            };
            let ride = c.ride(
                &world,
                door,
                pivot,
                &at(Vec3::X * offset),
                &at(Vec3::X * (offset + step)),
            );
            assert_eq!(ride, Ride::NotInvolved, "door at +{offset}");
            assert_eq!(c.state().clone(), state, "door at +{offset}");
            offset += step;
        }
    }

    // The same crowd pushed by the door: only character 3 is pushed, then blocked.
    let mut crowd = Crowd::new(CrowdConfig::default());
    crowd.insert(1, against_wall);
    crowd.insert(2, against_plat);
    let mut pushed_one = player(Vec3::new(185.0, 0.0, 0.0));
    settle(&mut pushed_one, &rest_world);
    crowd.insert(3, pushed_one);
    let still = [
        crowd.get(1).unwrap().state().clone(),
        crowd.get(2).unwrap().state().clone(),
    ];
    let mut offset: f32 = 0.0;
    let mut pushes = 0;
    let blocked = loop {
        let movers = movers_at(offset + step);
        let world = WorldWithMovers {
            map,
            movers: &movers,
        };
        match crowd.push_mover(
            &world,
            door,
            pivot,
            &at(Vec3::X * offset),
            &at(Vec3::X * (offset + step)),
        ) {
            MoverPush::Moved { carried, pushed } => {
                assert_eq!(carried, 0, "door at +{offset}");
                assert!(pushed <= 1, "door at +{offset}: {pushed} pushed");
                pushes += pushed;
            }
            MoverPush::Blocked { character } => break character,
        }
        assert_eq!(
            crowd.get(1).unwrap().state().clone(),
            still[0],
            "door at +{offset}"
        );
        assert_eq!(
            crowd.get(2).unwrap().state().clone(),
            still[1],
            "door at +{offset}"
        );
        offset += step;
        assert!(offset < 120.0, "never blocked");
    };
    assert_eq!(blocked, 3);
    assert!(
        pushes > 0,
        "character 3 was pushed before the wall stopped it"
    );
}
