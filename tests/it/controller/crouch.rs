//! Scenarios 33–35: crouching and standing up (`maps/low_ceiling.map`; lane i spans
//! y 96i..96i+64 under a ceiling block from x 0 to 256).

use glam::Vec3;
use planeshift::{
    ControllerConfig, MoveInput,
    movement::{CharacterShape, GroundState},
};

use super::*;

const CROUCH_FORWARD: MoveInput = MoveInput {
    wish: Vec3::X,
    jump: false,
    crouch: true,
    command: None,
};

fn source() -> ControllerConfig {
    ControllerConfig {
        shape: CharacterShape::Box { half_width: 16.0 },
        stand_height: 72.0,
        crouch_height: 36.0,
        feet_to_origin: 0.0,
        ..ControllerConfig::default()
    }
}

/// Crouch-walks into the lane centred on `y` and stops under its ceiling.
fn crouch_into(config: ControllerConfig, y: f32) -> CharacterController {
    let w = world("low_ceiling");
    let mut c = standing(config, Vec3::new(-60.0, y, 0.0));
    steps(&mut c, w, CROUCH_FORWARD, 300);
    assert!(c.crouched());
    assert!(
        c.position().x > 60.0,
        "got under the ceiling: {}",
        c.position()
    );
    c
}

#[test]
fn s33_quake3_headroom() {
    let w = world("low_ceiling");
    // Lane 1, 48 free: releasing crouch keeps the character ducked, at a quarter speed.
    let mut c = crouch_into(ControllerConfig::default(), 128.0);
    let feet_before = feet(&c).z;
    let ticks = steps(&mut c, w, run(Vec3::X), 20);
    assert!(ticks.iter().all(|_| c.crouched()));
    let speed = ticks.last().unwrap().horizontal_speed();
    assert!((speed - 80.0).abs() < 0.5, "ducked speed {speed}");
    assert_eq!(feet(&c).z, feet_before);
    // Lane 2, 57 free: it stands, feet unchanged.
    let mut c = crouch_into(ControllerConfig::default(), 224.0);
    let feet_before = feet(&c).z;
    steps(&mut c, w, MoveInput::default(), 1);
    assert!(!c.crouched());
    assert_eq!(feet(&c).z, feet_before);
    // Lane 0, 41 free: the 40-high crouched box fits by 1.
    let c = crouch_into(ControllerConfig::default(), 32.0);
    assert!(c.crouched());
}

#[test]
fn s34_source_unduck() {
    let w = world("low_ceiling");
    // Lane 6 (60 free): refused. Lane 7 (73 free): stands. Lane 3 (72 free) is refused:
    // the feet rest one skin above the floor, so a 72 box does not fit under exactly 72.
    for (y, stands) in [(608.0, false), (704.0, true), (320.0, false)] {
        let mut c = crouch_into(source(), y);
        steps(&mut c, w, MoveInput::default(), 1);
        assert_eq!(!c.crouched(), stands, "lane y {y}");
    }
    // In the air, unducking keeps the head and drops the feet by 36, into free space.
    let mut c = standing(source(), Vec3::new(-200.0, 900.0, 0.0));
    settle(&mut c, w);
    c.step(
        w,
        &MoveInput {
            jump: true,
            ..MoveInput::default()
        },
    );
    steps(&mut c, w, MoveInput::default(), 30);
    // Crouching in the air tucks the feet up: the origin rises by 36.
    let before = c.position();
    c.step(
        w,
        &MoveInput {
            crouch: true,
            ..MoveInput::default()
        },
    );
    assert!(c.crouched());
    let rise = c.position().z - before.z;
    assert!((rise - 36.0).abs() < 1.0, "origin rose {rise}");
    assert_eq!(c.ground().state, GroundState::Air);
    let before = c.position();
    c.step(w, &MoveInput::default());
    assert!(!c.crouched());
    let drop = before.z - c.position().z;
    assert!((drop - 36.0).abs() < 1.0, "origin moved down {drop}");
    assert!(!c.overlaps(w));
}

#[test]
fn s35_standing_up_never_penetrates() {
    // No penetration slop: standing is refused under any overlap. A ceiling 56 + 1/64
    // above the floor is lower than the standing box plus its skin.
    for (ceiling, stands) in [(56.0 + 1.0 / 64.0, false), (56.0 + 1.0 / 16.0, true)] {
        let w = boxes(&[
            ([-512.0, -256.0, -16.0], [512.0, 256.0, 0.0]),
            ([0.0, -256.0, ceiling], [512.0, 256.0, ceiling + 16.0]),
        ]);
        let mut c = player(Vec3::new(-60.0, 0.0, 0.0));
        steps(&mut c, &w, CROUCH_FORWARD, 250);
        assert!(c.position().x > 20.0);
        steps(&mut c, &w, MoveInput::default(), 1);
        assert_eq!(!c.crouched(), stands, "ceiling {ceiling}");
    }
}

#[test]
fn the_default_character_stands_in_quake3s_player_box() {
    // `ControllerConfig::default()` is Quake 3's player: standing, its shape about the origin
    // is `TraceShape::quake3_player()`'s box, to the bit.
    let c =
        CharacterController::new(ControllerConfig::default(), Vec3::new(3.0, -5.0, 7.0)).unwrap();
    let (low, high) = c.shape().bounds();
    let about_origin = c.shape_center() - c.position();
    assert_eq!(
        (low + about_origin, high + about_origin),
        planeshift::TraceShape::QUAKE3_PLAYER_BOUNDS
    );
    assert_eq!(
        planeshift::TraceShape::quake3_player().bounds(),
        planeshift::TraceShape::QUAKE3_PLAYER_BOUNDS
    );
}
